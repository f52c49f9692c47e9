"""A policy reload reaches the confirmation dialog: the next dialog arms after the new delay and offers the
new grant length (the tray's wiring, app/root/tray.py, over a real supervisor and policy file)."""

from __future__ import annotations

import argparse
import concurrent.futures

import pytest
from PySide6.QtCore import Qt
from ui_support import FakeClock, request

from app.desktop.screen import NullDesktop
from app.ports import Answer
from app.root.runtime import build_runtime
from app.root.tray import SupervisorTrayModel, confirmations

SHELL = {"type": "shell", "argv": ["make", "deploy"]}


def _policy(arm_delay_s: float, grant_minutes: int) -> str:
    return f"[approvals]\narm_delay_s = {arm_delay_s}\ngrant_minutes = {grant_minutes}\n"


@pytest.fixture
def tray_runtime(deskgate_home, qapp):
    home = deskgate_home(_policy(0.5, 5))
    args = argparse.Namespace(headless=False, socket=home["socket"], db=home["db"], policy=home["policy"],
                              preset=None, kill_hotkey="none", verbose=False)
    clock = FakeClock()
    started = []
    approver = confirmations(lambda: started[0], clock=clock)
    rt = build_runtime(args, desktop=NullDesktop(), approver=approver)
    started.append(rt)
    yield home, rt, approver, SupervisorTrayModel(rt, approver, qapp), clock
    approver.cancel_all("test over")
    rt.stop()


def _dialog(qtbot, approver, pool):
    fut = pool.submit(approver.ask, request(SHELL), 30)
    qtbot.waitUntil(lambda: approver.current_dialog is not None, timeout=3000)
    return fut, approver.current_dialog


def _grant_label(dialog) -> str:
    return next(b.text() for b in dialog.approve_buttons if b.text().startswith("Approve for "))


def test_reload_from_the_tray_reaches_the_next_dialog(qtbot, tray_runtime, artifacts) -> None:
    home, rt, approver, model, clock = tray_runtime
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        fut, dialog = _dialog(qtbot, approver, pool)
        assert _grant_label(dialog) == "Approve for 5 min"
        clock.advance(0.6)
        dialog.tick()
        assert dialog.armed  # the first policy's 0.5 s
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert fut.result(timeout=5).answer is Answer.DENY
        qtbot.waitUntil(lambda: approver.current_dialog is None, timeout=3000)

        home["policy"].write_text(_policy(2.5, 20))
        model.reload_policy()  # the tray's "Reload policy"
        assert rt.policy.approvals.arm_delay_s == 2.5

        fut, dialog = _dialog(qtbot, approver, pool)
        assert _grant_label(dialog) == "Approve for 20 min"
        clock.advance(0.6)
        dialog.tick()
        assert not dialog.armed and not any(b.isEnabled() for b in dialog.approve_buttons)
        clock.advance(2.0)
        dialog.tick()
        assert dialog.armed and all(b.isEnabled() for b in dialog.approve_buttons)
        qtbot.waitExposed(dialog)
        assert dialog.grab().save(str(artifacts / "dialog_after_reload.png"))
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert fut.result(timeout=5).answer is Answer.DENY


def test_settings_saved_in_the_window_reach_the_next_dialog(qtbot, tray_runtime) -> None:
    from app.root.policy_files import PolicyFileSettings

    _home, rt, approver, _model, _clock = tray_runtime
    PolicyFileSettings(rt.supervisor).save({"approvals.grant_minutes": 45})
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        fut, dialog = _dialog(qtbot, approver, pool)
        assert _grant_label(dialog) == "Approve for 45 min"
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert fut.result(timeout=5).answer is Answer.DENY


def test_a_dialog_that_cannot_read_its_settings_denies(qtbot) -> None:
    from ui.approver import QtApprover

    def broken():
        raise RuntimeError("no policy")

    approver = QtApprover(broken)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        reply = pool.submit(approver.ask, request(SHELL), 30)
        qtbot.waitUntil(reply.done, timeout=3000)
    assert reply.result().answer is Answer.DENY and "approver error" in reply.result().note
    assert approver.current_dialog is None
