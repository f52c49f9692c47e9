"""QtApprover: worker threads ask, the GUI thread shows one dialog at a time, every failure denies."""

from __future__ import annotations

import concurrent.futures
import time

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel
from ui_support import FakeClock, request

from app.ports import Answer, Reply
from ui.approver import QtApprover

CLICK = {"type": "click", "x": 10, "y": 20, "target": {"label": "Send"}}


@pytest.fixture
def pool():
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
        yield ex


@pytest.fixture
def approver(qtbot, clock: FakeClock):
    a = QtApprover(arm_delay_s=1.0, hold_s=30.0, clock=clock)
    yield a
    a.cancel_all("test over")
    qtbot.waitUntil(lambda: a.current_dialog is None, timeout=3000)


def _arm(approver: QtApprover, clock: FakeClock):
    dialog = approver.current_dialog
    clock.advance(2)
    dialog.tick()
    assert dialog.armed
    return dialog


def test_worker_gets_the_answer_clicked_in_the_dialog(qtbot, approver, clock, pool) -> None:
    fut = pool.submit(approver.ask, request(CLICK), 20)
    qtbot.waitUntil(lambda: approver.current_dialog is not None, timeout=3000)
    dialog = _arm(approver, clock)
    qtbot.mouseClick(dialog.approve_buttons[2], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(fut.done, timeout=3000)
    assert fut.result() == Reply(Answer.APPROVE_SESSION, by="person")
    qtbot.waitUntil(lambda: approver.current_dialog is None, timeout=3000)
    assert approver.waiting == 0


def test_deny_in_the_dialog_reaches_the_worker(qtbot, approver, pool) -> None:
    fut = pool.submit(approver.ask, request(CLICK), 20)
    qtbot.waitUntil(lambda: approver.current_dialog is not None, timeout=3000)
    qtbot.keyClick(approver.current_dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(fut.done, timeout=3000)
    assert fut.result().answer is Answer.DENY


def test_nobody_answers_gives_timeout_and_closes_the_dialog(qtbot, pool) -> None:
    approver = QtApprover(arm_delay_s=1.0, hold_s=30.0)  # real clock: the dialog counts down for real
    fut = pool.submit(approver.ask, request(CLICK), 0.3)
    qtbot.waitUntil(lambda: approver.current_dialog is not None, timeout=3000)
    qtbot.waitUntil(fut.done, timeout=5000)
    assert fut.result().answer is Answer.TIMEOUT
    assert not fut.result().answer.approved
    qtbot.waitUntil(lambda: approver.current_dialog is None, timeout=3000)


def test_a_blocked_gui_thread_still_times_out(approver, pool) -> None:
    # This thread does not run the event loop while it waits: the dialog never appears.
    start = time.monotonic()
    fut = pool.submit(approver.ask, request(CLICK), 0.2)
    reply = fut.result(timeout=5)
    assert reply.answer is Answer.TIMEOUT
    assert time.monotonic() - start < 3


def test_ask_on_the_gui_thread_denies_instead_of_freezing(approver) -> None:
    assert approver.ask(request(CLICK), 5).answer is Answer.DENY


def test_one_dialog_at_a_time_in_order(qtbot, approver, clock, pool) -> None:
    first = pool.submit(approver.ask, request(CLICK, request_id="a"), 20)
    qtbot.waitUntil(lambda: approver.current_dialog is not None, timeout=3000)
    second = pool.submit(approver.ask, request(CLICK, request_id="b"), 20)
    qtbot.waitUntil(lambda: approver.queued == 1, timeout=3000)
    dialog = approver.current_dialog
    assert dialog.request.request_id == "a"
    assert dialog.findChild(QLabel, "queued").text() == "1 more request waiting"
    _arm(approver, clock).approve_buttons[0].click()
    qtbot.waitUntil(lambda: approver.current_dialog is not None and approver.current_dialog is not dialog,
                    timeout=3000)
    assert approver.current_dialog.request.request_id == "b"
    assert first.result(timeout=3).answer is Answer.APPROVE_ONCE
    assert not second.done()
    approver.current_dialog.close()
    qtbot.waitUntil(second.done, timeout=3000)
    assert second.result().answer is Answer.DENY


def test_cancel_all_denies_everything_pending(qtbot, approver, pool) -> None:
    futs = [pool.submit(approver.ask, request(CLICK, request_id=str(i)), 20) for i in range(3)]
    qtbot.waitUntil(lambda: approver.waiting == 3 and approver.current_dialog is not None, timeout=3000)
    approver.cancel_all("kill switch")
    qtbot.waitUntil(lambda: all(f.done() for f in futs), timeout=3000)
    assert [f.result() for f in futs] == [Reply(Answer.DENY, by="kill-switch", note="kill switch")] * 3
    qtbot.waitUntil(lambda: approver.current_dialog is None, timeout=3000)


def test_cancel_all_from_another_thread_works_without_the_gui(approver, pool) -> None:
    fut = pool.submit(approver.ask, request(CLICK), 30)
    deadline = time.monotonic() + 3
    while approver.waiting == 0 and time.monotonic() < deadline:  # no event loop on purpose
        time.sleep(0.01)
    pool.submit(approver.cancel_all, "hotkey").result(timeout=3)
    assert fut.result(timeout=3).answer is Answer.DENY


def test_mouse_press_extends_the_deadline_while_a_person_reads(qtbot, pool) -> None:
    approver = QtApprover(arm_delay_s=0.0, hold_s=30.0)
    fut = pool.submit(approver.ask, request(CLICK), 0.6)
    qtbot.waitUntil(lambda: approver.current_dialog is not None, timeout=3000)
    dialog = approver.current_dialog
    qtbot.mousePress(dialog, Qt.MouseButton.LeftButton, pos=QPoint(4, 4))
    assert not dialog.countdown_running
    qtbot.wait(1500)  # well past the original 0.6 s + grace: still open, still waiting
    assert not fut.done()
    dialog.approve_buttons[0].click()
    qtbot.waitUntil(fut.done, timeout=3000)
    assert fut.result().answer is Answer.APPROVE_ONCE


def test_pending_changed_reports_the_count(qtbot, approver, pool) -> None:
    seen: list[int] = []
    approver.pending_changed.connect(seen.append)
    fut = pool.submit(approver.ask, request(CLICK), 20)
    qtbot.waitUntil(lambda: approver.current_dialog is not None, timeout=3000)
    approver.current_dialog.close()
    qtbot.waitUntil(fut.done, timeout=3000)
    qtbot.waitUntil(lambda: seen and seen[-1] == 0, timeout=3000)
    assert 1 in seen
