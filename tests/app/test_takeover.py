"""Human takeover waits instead of refusing (app/desktop/takeover.py, app/desktop/hotkey.py, Supervisor.person):
pointer and
keyboard actions wait while the person uses the desktop, bounded, then `paused`; shell, file and tool
actions are not affected; deskgate's own tray menu and windows are not a takeover. The clock is
controllable: nothing here waits for a real quiet time, except the one real-desktop test."""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

import pytest

from app.desktop.hotkey import SyntheticInput, Takeover
from app.desktop.takeover import PersonActivity
from app.errors import DeskgateError
from tests.app.test_supervisor import BROWSER, Harness, move, shell


class Clock:
    def __init__(self) -> None:
        self.t = 50.0

    def __call__(self) -> float:
        return self.t


def _until(pred, what: str, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


class Background:
    """Run a supervisor call on a thread; `.result` or `.error` once it is done."""

    def __init__(self, fn) -> None:
        self.result = self.error = None
        self.thread = threading.Thread(target=self._run, args=(fn,), daemon=True)
        self.thread.start()

    def _run(self, fn) -> None:
        try:
            self.result = fn()
        except Exception as err:
            self.error = err

    def done(self, timeout: float = 10.0) -> Background:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the call is still waiting"
        return self


# -- the state ------------------------------------------------------------------------------------------


def test_person_is_active_until_quiet_for_quiet_s():
    clock = Clock()
    p = PersonActivity(3.0, clock=clock)
    assert not p.active()
    assert p.note() is True and p.active()
    clock.t += 2
    assert p.note() is False  # still the same takeover: the quiet time restarts
    clock.t += 2.9
    assert p.active()
    clock.t += 0.2
    assert not p.active()


def test_only_pointer_and_keyboard_actions_are_affected():
    assert all(PersonActivity.affects(t) for t in ("click", "move", "drag", "scroll", "type", "key"))
    assert not any(PersonActivity.affects(t) for t in ("shell", "file_write", "tool", "navigate", "screenshot"))


def test_deskgates_own_menu_is_not_a_takeover():
    clock = Clock()
    p = PersonActivity(3.0, clock=clock)
    p.note()            # the person moved to the tray icon and clicked it...
    p.suppress(True)    # ...and deskgate's menu opened: that was not a takeover
    assert not p.active()
    assert p.note() is False and not p.active()  # choosing a menu item is not either
    p.suppress(False)
    assert p.note() is True and p.active()       # input after the menu closed counts again
    p.forgive()
    assert not p.active()


def test_wait_is_bounded_then_paused_and_a_stop_ends_it_at_once():
    clock = Clock()
    p = PersonActivity(3.0, clock=clock)
    p.note()
    call = Background(lambda: p.wait_quiet(30.0))
    _until(lambda: p.waiting == 1, "the waiter")
    clock.t += 31
    p.note()  # the person is still at it
    err = call.done().error
    assert isinstance(err, DeskgateError) and err.code == "paused" and "31 s" in err.message
    stop: list[BaseException] = []
    call = Background(lambda: p.wait_quiet(30.0, stop=lambda: stop[0] if stop else None))
    _until(lambda: p.waiting == 1, "the second waiter")
    stop.append(DeskgateError("killed", "kill switch"))
    assert call.done().error.code == "killed" and p.waiting == 0


# -- the listener: what counts as the person --------------------------------------------------------------


def test_listener_ignores_deskgates_own_surfaces_and_feeds_the_rest():
    clock = Clock()
    p = PersonActivity(3.0, clock=clock)
    events: list[str] = []
    on_tray = {(1270, 790)}
    t = Takeover(lambda: events.append("active"), lambda: events.append("quiet"), activity=p,
                 synthetic=SyntheticInput(clock=clock), clock=clock, ignore=lambda x, y: (x, y) in on_tray)
    t.feed(x=1270, y=790)
    assert events == [] and not p.active()
    t.feed(x=400, y=300)
    assert events == ["active"] and p.active()
    clock.t += 3
    t.tick()
    assert events == ["active", "quiet"]
    t.feed()  # a key: no point
    assert events == ["active", "quiet", "active"]


# -- the supervisor: wait, don't refuse ----------------------------------------------------------------------


@pytest.fixture
def hp(tmp_path: Path):
    h = Harness(tmp_path)
    h.sup.person = PersonActivity(3.0, clock=h.clock)
    return h


def test_pointer_action_waits_for_the_person_then_runs(hp):
    conn = hp.connect()
    hp.sup.person.note()
    call = Background(lambda: hp.act(conn, move()))
    _until(lambda: hp.sup.person.waiting == 1, "the move to wait")
    assert hp.executor.executed == [] and hp.audit.decisions == {}  # nothing judged or run yet
    hp.clock.advance(3)
    assert call.done().result["verdict"] == "executed"


def test_shell_and_files_do_not_wait_for_the_person(hp):
    conn = hp.connect()
    hp.sup.person.note()  # the person types in their own terminal
    r = Background(lambda: hp.act(conn, shell("echo hi"))).done().result
    assert r["verdict"] == "executed"
    r = Background(lambda: hp.act(conn, {"type": "file_read", "path": str(hp.root / "policy.toml")},
                                  execute=False)).done().result
    assert r["verdict"] == "allowed" and hp.sup.state == "active"


def test_a_person_who_keeps_going_gets_paused_after_the_step_timeout(hp):
    conn = hp.connect()
    hp.sup.person.note()
    call = Background(lambda: hp.act(conn, {"type": "key", "keys": ["ctrl", "s"]}))
    _until(lambda: hp.sup.person.waiting == 1, "the key to wait")
    hp.clock.advance(31)
    hp.sup.person.note()
    err = call.done().error
    assert isinstance(err, DeskgateError) and err.code == "paused"
    assert hp.executor.executed == []


def test_the_kill_switch_ends_a_wait(hp):
    conn = hp.connect()
    hp.sup.person.note()
    call = Background(lambda: hp.act(conn, move()))
    _until(lambda: hp.sup.person.waiting == 1, "the move to wait")
    hp.sup.kill("enough", "person")
    assert call.done().error.code == "killed" and hp.executor.executed == []


def test_if_the_person_changed_the_window_while_the_action_waited_it_is_denied(hp):
    conn = hp.connect()
    plain = hp.desktop.observe

    def observe_then_person_moves():
        obs = plain()
        hp.sup.person.note()       # right after deskgate looked, the person grabbed the mouse...
        hp.desktop.fresh = BROWSER  # ...and switched to another window
        return obs

    hp.desktop.observe = observe_then_person_moves
    call = Background(lambda: hp.act(conn, move()))
    _until(lambda: hp.sup.person.waiting == 1, "the move to wait before executing")
    hp.clock.advance(3)
    r = call.done().result
    assert r["verdict"] == "denied" and "active window changed" in r["reason"], r
    assert hp.executor.executed == []


# -- the real desktop: real input through XTEST is the person's -------------------------------------------


@pytest.mark.desktop
def test_real_mouse_input_makes_a_click_wait_while_a_shell_command_runs(desktop, deskgate_home):
    from app.agent.client import Client
    from app.root.runtime import build_runtime

    home = deskgate_home("[fence]\nenabled = false\nrequired = false\n")
    args = argparse.Namespace(headless=True, socket=home["socket"], db=home["db"], policy=home["policy"],
                              preset=None, ask_in_terminal=False, approver_rules=None, kill_hotkey="none",
                              verbose=False)
    rt = build_runtime(args)
    activity = PersonActivity(0.6)
    takeover = Takeover(lambda: None, lambda: None, activity=activity, synthetic=rt.synthetic)
    takeover.start()
    rt.supervisor.person = activity
    server = threading.Thread(target=rt.server.serve_forever, daemon=True)
    server.start()
    try:
        for i in range(5):  # the person moves the mouse (real XTEST events, not deskgate's injection)
            desktop.xdotool("mousemove", str(300 + i * 7), "400")
            if activity.active():
                break
            time.sleep(0.1)
        assert activity.active()
        with Client(home["socket"], timeout=30) as dg, Client(home["socket"], timeout=30) as dg2:
            dg.hello("clicker")
            dg2.hello("shell-user")
            click = Background(lambda: dg.act({"type": "move", "x": 640, "y": 420}))
            assert dg2.act({"type": "shell", "argv": ["true"]})["verdict"] == "executed"
            r = click.done(15).result
            assert r["verdict"] == "executed", r  # after the quiet time, not refused
    finally:
        takeover.stop()
        rt.stop()
        server.join(5)


# -- the tray app's wiring: deskgate's own menu, windows and dialogs are not a takeover -----------------


@pytest.mark.desktop
def test_tray_menu_dialogs_and_own_windows_are_not_a_takeover(desktop, qapp):
    from types import SimpleNamespace

    from app.root.tray import _start_takeover
    from gate.model import Observation, Rect
    from ui.tray import Tray, TraySnapshot

    class Model:
        def snapshot(self):
            return TraySnapshot(state="active", agents=(), allowed=0, asked=0, blocked=0)

        def __getattr__(self, name):
            return lambda *args: None

    class Approver:
        open = False

        def pending(self):
            return self.open

    own = Observation(protected=(Rect(1200, 776, 24, 24),))
    runtime = SimpleNamespace(supervisor=SimpleNamespace(person=None), synthetic=SyntheticInput(),
                              desktop=SimpleNamespace(observe=lambda: own))
    approver = Approver()
    tray = Tray(Model())
    takeover = _start_takeover(runtime, approver, 30.0, tray)
    try:
        assert takeover is not None and runtime.supervisor.person is takeover.activity
        person = takeover.activity
        takeover.feed(x=1210, y=780)  # on deskgate's tray icon
        assert not person.active()
        approver.open = True
        takeover.feed(x=500, y=500)   # answering a confirmation dialog
        takeover.feed()
        assert not person.active()
        approver.open = False
        takeover.feed(x=500, y=500)   # the way to the tray icon...
        assert person.active()
        tray.menu.aboutToShow.emit()  # ...ended in deskgate's menu: forgiven
        assert not person.active()
        takeover.feed(x=1100, y=700)  # choosing an item in the open menu
        assert not person.active()
        tray.menu.aboutToHide.emit()
        takeover.feed(x=500, y=500)
        assert person.active()
    finally:
        takeover.stop()
        tray.hide()
