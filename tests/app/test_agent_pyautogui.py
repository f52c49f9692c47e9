"""app.agent.pyautogui: the pyautogui drop-in against a real in-process supervisor.

Headless tests use a recording executor (what reaches the executor is exactly what the drop-in asked
for, after the gate); the desktop test drives tests/app/winapp.py on Xvfb through the real executor.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import threading
from pathlib import Path

import pytest
from winapp_driver import WinApp

from app.agent import pyautogui
from app.agent.adapters import normalise_key
from app.agent.client import Denied, SupervisorUnavailable
from app.desktop.screen import NullDesktop
from app.execute.executor import ExecResult, map_key
from app.root.runtime import build_runtime

POLICY = """
[loop]
threshold = 100   # these tests repeat keys on purpose

[gui]
unreadable_target = "allow"   # no screen here to read a click's target: these tests are about the wire form

[limits]
actions_per_minute = 600
uid_actions_per_minute = 999999
max_steps = 500

[fence]
enabled = false
required = false
"""


class Recorder:
    """An executor that runs nothing and remembers what it was given."""

    def __init__(self) -> None:
        self.done: list[dict] = []

    def execute(self, action, policy, **kw) -> ExecResult:
        import msgspec

        self.done.append(msgspec.json.decode(msgspec.json.encode(action)))  # as it went over the wire
        return ExecResult(True, {})

    def cancel_all(self) -> int:
        return 0  # nothing runs, so nothing to cancel


@pytest.fixture
def dg_paths(tmp_path: Path):
    short = Path(tempfile.mkdtemp(prefix="dg-"))
    (tmp_path / "policy.toml").write_text(POLICY)
    yield {"socket": short / "dg.sock", "policy": tmp_path / "policy.toml", "db": tmp_path / "audit.db"}
    shutil.rmtree(short, ignore_errors=True)


def start(paths, **inject):
    args = argparse.Namespace(headless=True, socket=paths["socket"], db=paths["db"], policy=paths["policy"],
                              preset=None, ask_in_terminal=False, approver_rules=None, kill_hotkey="none",
                              verbose=False)
    rt = build_runtime(args, **inject)
    thread = threading.Thread(target=rt.server.serve_forever, daemon=True)
    thread.start()
    return rt, thread


@pytest.fixture
def recorded(dg_paths, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)  # no real pointer: positions come from our own actions
    rec = Recorder()
    rt, thread = start(dg_paths, desktop=NullDesktop(), executor=rec)
    pyautogui.configure(dg_paths["socket"], agent="dropin-test")
    monkeypatch.setattr(pyautogui, "PAUSE", 0)
    yield rec
    pyautogui.disconnect()
    rt.stop()
    thread.join(5)


# -- headless: what each call becomes -----------------------------------------------------------------


def test_mouse_calls_become_wire_actions(recorded: Recorder) -> None:
    pyautogui.click(100, 200)
    pyautogui.doubleClick((110, 210))
    pyautogui.rightClick(120, 220)
    pyautogui.tripleClick(130, 230)
    pyautogui.click(140, 240, clicks=5, button="secondary")
    pyautogui.click()  # at the current position: where the last click left the pointer
    pyautogui.moveTo(50, 60)
    pyautogui.moveRel(5, -10)
    pyautogui.dragTo(300, 310, button="left")
    pyautogui.scroll(3, x=10, y=20)
    pyautogui.hscroll(-2)
    assert recorded.done == [
        {"type": "click", "x": 100, "y": 200},
        {"type": "click", "x": 110, "y": 210, "clicks": 2},
        {"type": "click", "x": 120, "y": 220, "button": "right"},
        {"type": "click", "x": 130, "y": 230, "clicks": 3},
        {"type": "click", "x": 140, "y": 240, "button": "right", "clicks": 3},
        {"type": "click", "x": 140, "y": 240, "button": "right", "clicks": 2},
        {"type": "click", "x": 140, "y": 240},
        {"type": "move", "x": 50, "y": 60},
        {"type": "move", "x": 55, "y": 50},
        {"type": "drag", "path": [[55, 50], [300, 310]]},
        {"type": "scroll", "x": 10, "y": 20, "dy": -3},  # pyautogui: up is positive; the wire: down is
        {"type": "scroll", "dx": -2},
    ]
    assert pyautogui.position() == (300, 310)


def test_mouse_down_move_up_is_one_drag_and_down_up_a_click(recorded: Recorder) -> None:
    pyautogui.mouseDown(10, 10)
    pyautogui.moveTo(20, 30)
    pyautogui.moveTo(40, 50)
    pyautogui.mouseUp()
    pyautogui.mouseDown(70, 80, button="right")
    pyautogui.mouseUp(70, 80, button="right")
    assert recorded.done == [{"type": "drag", "path": [[10, 10], [20, 30], [40, 50]]},
                             {"type": "click", "x": 70, "y": 80, "button": "right"}]


def test_keyboard_calls_become_wire_actions(recorded: Recorder) -> None:
    pyautogui.write("hello")
    pyautogui.typewrite(["a", "b", "left", "enter"])
    pyautogui.press("Return")
    pyautogui.press(["tab", "tab"], presses=2)
    pyautogui.hotkey("ctrl", "shift", "esc")
    pyautogui.hotkey("command", "q", interval=0.1)
    pyautogui.keyDown("ctrl")
    pyautogui.press("c")
    pyautogui.keyUp("ctrl")
    pyautogui.keyDown("shift")
    pyautogui.write("ab")
    pyautogui.keyUp("shift")
    pyautogui.keyDown("win")
    pyautogui.keyUp("win")  # held alone: pressed once
    pyautogui.keyUp("alt")  # never held: nothing
    assert recorded.done == [
        {"type": "type", "text": "hello"},
        {"type": "type", "text": "ab"},
        {"type": "key", "keys": ["left"]},
        {"type": "key", "keys": ["enter"]},
        {"type": "key", "keys": ["enter"]},
        *[{"type": "key", "keys": ["tab"]}] * 4,
        {"type": "key", "keys": ["ctrl", "shift", "esc"]},
        {"type": "key", "keys": ["super", "q"]},
        {"type": "key", "keys": ["ctrl", "c"]},
        {"type": "key", "keys": ["shift", "a"]},
        {"type": "key", "keys": ["shift", "b"]},
        {"type": "key", "keys": ["super"]},
    ]


def test_a_click_with_held_keys_and_unknown_keys_are_refused_locally(recorded: Recorder) -> None:
    pyautogui.keyDown("shift")
    with pytest.raises(pyautogui.PyAutoGUIException, match="held"):
        pyautogui.click(10, 10)
    pyautogui.keyUp("shift")
    with pytest.raises(pyautogui.PyAutoGUIException, match="hyperdrive"):
        pyautogui.press("hyperdrive")
    with pytest.raises(pyautogui.PyAutoGUIException, match="image"):
        pyautogui.click("button.png")
    assert recorded.done == [{"type": "key", "keys": ["shift"]}]


def test_a_refusal_raises_action_refused_and_nothing_executes(recorded: Recorder) -> None:
    with pytest.raises(pyautogui.ActionRefused) as no:
        pyautogui.write("AKIAIOSFODNN7EXAMPLE")  # a credential typed into a field
    assert isinstance(no.value, Denied)
    assert no.value.decision == "block" and "block.gui.secret-exposure" in no.value.rules
    assert "credential" in no.value.reason
    with pytest.raises(pyautogui.ActionRefused) as asked:
        pyautogui.hotkey("ctrl", "alt", "delete")  # confirm; nobody approves headless
    assert asked.value.decision == "confirm" and asked.value.rules == ["confirm.gui.session-key"]
    assert recorded.done == []


def test_every_keyboard_key_is_one_deskgate_and_the_executor_can_press() -> None:
    for key in pyautogui.KEYBOARD_KEYS:
        assert map_key(normalise_key(key))
        assert pyautogui.isValidKey(key)
    assert pyautogui.FAILSAFE is True and pyautogui.PAUSE == 0.1


def test_no_supervisor_means_an_exception_and_nothing_done(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    pyautogui.configure(tmp_path / "nobody.sock")
    try:
        with pytest.raises(SupervisorUnavailable):
            pyautogui.click(10, 10)
        with pytest.raises(SupervisorUnavailable):
            pyautogui.size()
    finally:
        pyautogui.disconnect()


# -- the real desktop -------------------------------------------------------------------------------------


@pytest.mark.desktop
def test_dropin_types_and_clicks_in_a_real_window_and_refusals_never_reach_it(desktop, dg_paths, monkeypatch):
    rt, thread = start(dg_paths)  # the real X11 desktop and executor; no approver: confirmations are denied
    win = WinApp(desktop, "Drop-in target", 300, 200)
    try:
        desktop.xdotool("windowactivate", "--sync", str(win.wid), check=False)
        pyautogui.configure(dg_paths["socket"], agent="dropin-desktop")
        monkeypatch.setattr(pyautogui, "PAUSE", 0.05)
        assert pyautogui.size() == (1280, 800)
        pyautogui.click(*win.edit)
        pyautogui.write("hello deskgate")
        win.expect("text hello deskgate")
        pyautogui.hotkey("ctrl", "a")
        pyautogui.press("backspace")
        win.expect("text ")
        pyautogui.keyDown("shift")
        pyautogui.press("a")
        pyautogui.keyUp("shift")
        win.expect("text A")
        pyautogui.moveTo(win.button[0] - 3, win.button[1])
        assert pyautogui.position() == (win.button[0] - 3, win.button[1])  # the real pointer, read back
        pyautogui.moveRel(3, 0)
        pyautogui.click()  # where the pointer is
        win.expect("clicked A")
        win.quiet(0.2)

        with pytest.raises(pyautogui.ActionRefused) as no:
            pyautogui.hotkey("ctrl", "alt", "delete")
        assert no.value.rules == ["confirm.gui.session-key"] and no.value.decided_by == "headless-rule"
        pyautogui.click(*win.edit)
        with pytest.raises(pyautogui.ActionRefused, match="credential"):
            pyautogui.write("AKIAIOSFODNN7EXAMPLE")
        assert win.quiet(0.5) == []  # the refused typing never reached the field

        shot = pyautogui.screenshot(dg_paths["db"].with_name("shot.png"))
        assert shot.png.startswith(b"\x89PNG") and (shot.screen_width, shot.screen_height) == (1280, 800)
        assert shot.width <= 640 and dg_paths["db"].with_name("shot.png").read_bytes() == shot.png
    finally:
        pyautogui.disconnect()
        win.close()
        rt.stop()
        thread.join(5)
    from app.audit.reader import AuditReader

    with AuditReader(dg_paths["db"]) as log:
        verdicts = [r["verdict"] for r in log.query(agent="dropin-desktop", limit=100)]
        assert verdicts.count("denied") == 2 and "executed" in verdicts
