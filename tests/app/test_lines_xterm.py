"""A real xterm under the supervisor: a line runs at its end, so it is judged whole there.

A throwaway HOME with a canary file: `rm -rf ` + `~` + Return typed as separate actions, and one `type` of
"echo hi\\rrm -rf ~\\r", must not delete it; a harmless line still runs (so the terminal is really live)."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from app.agent.client import Client
from tests.app.test_serve_desktop import _activate, supervised  # noqa: F401  (the fixture)

pytestmark = pytest.mark.desktop
TITLE = "deskgate line test"


def _wait_file(path, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists():
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def xterm(desktop, tmp_path):
    if shutil.which("xterm") is None:
        pytest.fail("xterm is not installed: run .ci/sysdeps.sh")
    home = tmp_path / "home"
    work = tmp_path / "work"
    home.mkdir()
    work.mkdir()
    (home / "canary.txt").write_text("still here\n")
    env = dict(desktop.env, HOME=str(home), PS1="$ ", HISTFILE="/dev/null")
    proc = subprocess.Popen(["xterm", "-T", TITLE, "-geometry", "100x20+100+100", "-e", "bash", "--noprofile",
                             "--norc", "-i"], env=env, cwd=work, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wid = desktop.xdotool("search", "--sync", "--name", TITLE).split()[0]
    _activate(desktop, wid, TITLE)
    time.sleep(0.5)  # bash draws its prompt
    yield home, work
    proc.terminate()
    proc.wait(10)


def test_a_line_typed_in_pieces_is_judged_whole_at_its_end(desktop, supervised, xterm):  # noqa: F811
    home, work = xterm
    with Client(supervised["socket"], timeout=30) as dg:
        dg.hello("line-agent")
        # a terminal deskgate sees for the first time holds a line it cannot know: Return there asks
        r = dg.act({"type": "key", "keys": ["Return"]})
        assert r["decision"] == "confirm" and "confirm.typed.unknown-line" in r["rules"], r
        assert r["verdict"] == "denied"  # headless: nobody to ask
        # ctrl+c gives a known, empty line; a harmless line then runs, so the terminal is live
        assert dg.act({"type": "key", "keys": ["ctrl", "c"]})["verdict"] == "executed"
        r = dg.act({"type": "type", "text": "touch ran-ok\n"})
        assert r["verdict"] == "executed", r
        assert _wait_file(work / "ran-ok")

        # `rm -rf ` and `~` typed apart: the second fragment makes the line, and is refused
        assert dg.act({"type": "type", "text": "rm -rf "})["verdict"] == "executed"
        r = dg.act({"type": "type", "text": "~"})
        assert r["decision"] == "block" and r["verdict"] == "denied", r
        # the `~` as a key press instead: the key itself changes nothing, Return runs the whole line: refused
        assert dg.act({"type": "key", "keys": ["~"]})["verdict"] == "executed"
        r = dg.act({"type": "key", "keys": ["Return"]})
        assert r["decision"] == "block" and "block.typed.line-end" in r["rules"], r
        assert "the line so far 'rm -rf ~'" in r["reason"], r
        assert r["verdict"] == "denied"
        assert dg.act({"type": "key", "keys": ["ctrl", "c"]})["verdict"] == "executed"

        # one action, two lines: "\r" ends the first, and the second is judged as the line it is
        r = dg.act({"type": "type", "text": "echo hi\rrm -rf ~\r"})
        assert r["decision"] == "block" and r["verdict"] == "denied", r

        # the line is followed after the refusals: a harmless line still runs
        r = dg.act({"type": "type", "text": "touch ran-after\n"})
        assert r["verdict"] == "executed", (r["rules"], r["reason"])
        assert _wait_file(work / "ran-after")
    assert (home / "canary.txt").read_text() == "still here\n"
    # the log says what was judged: the Return row holds the whole line it would have run
    from app.audit.reader import AuditReader

    with AuditReader(supervised["db"]) as log:
        rows = log.query(limit=100, oldest_first=True)
    enters = [r["summary"] for r in rows if r["type"] == "key" and r["decision"] == "block"]
    assert any("line “rm -rf ~”" in s and TITLE in s for s in enters), enters


def test_the_pyautogui_drop_in_cannot_split_a_line_past_the_gate(desktop, supervised, xterm, monkeypatch):  # noqa: F811
    from app.agent import pyautogui

    home, work = xterm
    pyautogui.configure(supervised["socket"], agent="dropin-lines")
    monkeypatch.setattr(pyautogui, "PAUSE", 0.05)
    try:
        pyautogui.hotkey("ctrl", "c")  # a known, empty line
        pyautogui.write("touch dropin-ok\n")
        assert _wait_file(work / "dropin-ok")
        pyautogui.write("rm -rf ")
        with pytest.raises(pyautogui.ActionRefused) as no:
            pyautogui.write("~")
        assert no.value.decision == "block"
        pyautogui.press("~")  # as a key: the key changes nothing; Return then runs `rm -rf ~`
        with pytest.raises(pyautogui.ActionRefused) as no:
            pyautogui.press("enter")
        assert no.value.decision == "block" and "block.typed.line-end" in no.value.rules
        pyautogui.hotkey("ctrl", "c")
        with pytest.raises(pyautogui.ActionRefused):
            pyautogui.write("echo hi\rrm -rf ~\r")
    finally:
        pyautogui.disconnect()
        display = pyautogui._xlib.pop("display", None)  # its pointer reads: no state left for later tests
        if display is not None:
            display.close()
    assert (home / "canary.txt").read_text() == "still here\n"
