"""deskgate reads the target itself (app/desktop/pointer.py, app/desktop/a11y.py, app/desktop/ocr.py):
the accessible element under a
click, the text around it where nothing is exposed, the focused field for typing; and the gate judges that,
not what the agent says (or leaves out)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.desktop.a11y import A11yReader, A11yUnavailable, Element
from app.desktop.ocr import MIN_LABEL_CONFIDENCE, OcrLabel, OcrUnavailable, OcrWord, nearest_label
from app.desktop.pointer import PointerReader, Read, ocr_box

BUTTONSAPP = Path(__file__).resolve().parent / "buttonsapp.py"

# -- text recognition: which words are "the label at the point" -------------------------------------------


def _w(text: str, left: int, top: int = 10, width: int | None = None, line: int = 1) -> OcrWord:
    return OcrWord(text, left, top, width if width is not None else 9 * len(text), 14, 90.0, (1, 1, line))


def test_ocr_takes_the_run_of_words_at_the_point_and_not_the_neighbouring_label():
    found = [_w("Delete", 20), _w("account", 80), _w("Cancel", 250)]
    assert nearest_label(found, 60, 15, 64) == ("Delete account", 90.0)
    assert nearest_label(found, 260, 15, 64)[0] == "Cancel"   # the wide gap splits the line


def test_ocr_takes_the_nearest_line_and_nothing_when_far_away():
    found = [_w("Title", 20, top=0, line=1), _w("Send", 20, top=40, line=2), _w("now", 64, top=40, line=2)]
    assert nearest_label(found, 40, 48, 64)[0] == "Send now"
    assert nearest_label(found, 400, 300, 64) is None
    assert nearest_label([], 1, 1, 64) is None


def test_ocr_reads_running_text_as_no_label():
    prose, left = [], 20
    for word in ("please", "do", "not", "delete", "your", "account", "before", "reading"):
        prose.append(_w(word, left))
        left += 9 * len(word) + 8  # one space apart
    assert nearest_label(prose, 150, 15, 64) is None
    assert nearest_label(prose[:4], 150, 15, 64)[0] == "please do not delete"


def test_ocr_box_stays_on_the_screen():
    assert ocr_box(5, 5, 1280, 800) == (0, 0, 360, 72)
    assert ocr_box(1279, 799, 1280, 800) == (920, 728, 360, 72)
    assert ocr_box(640, 400, 1280, 800) == (460, 364, 360, 72)


# -- the reader's fallbacks (fakes for the two sources) ----------------------------------------------------


class FakeA11y:
    def __init__(self, at=None, focus=None, fail: bool = False) -> None:
        self.at, self.focus, self.fail, self.calls = at, focus, fail, 0

    def at_point(self, x, y, pid):
        self.calls += 1
        if self.fail:
            raise A11yUnavailable("no bus")
        return self.at

    def focused(self, pid):
        if self.fail:
            raise A11yUnavailable("no bus")
        return self.focus

    def close(self):
        pass


class Click:
    type = "click"
    x, y = 100, 50


class TypeText:
    type = "type"


def _grab_white(box):
    _, _, w, h = box
    return b"\xff" * (w * h * 4), w, h


def _read(reader, action, grab=_grab_white):
    return reader.read(action, pid_at=lambda x, y: 42, active_pid=lambda: 42, grab=grab, screen=(1280, 800))


def test_the_accessible_name_wins_and_ocr_is_not_run():
    grabs = []
    reader = PointerReader(FakeA11y(at=Element("Delete  account", "push button")))
    got = _read(reader, Click(), grab=lambda box: grabs.append(box) or _grab_white(box))
    assert got == Read("Delete account", "push button", "accessibility", 1.0, True) and grabs == []


class FakeRecogniser:
    """Stands in for app.desktop.ocr.Recogniser: answers `label`, or raises `fail`; records what it was shown."""

    def __init__(self, label=None, fail: Exception | None = None) -> None:
        self.label, self.fail, self.seen = label, fail, {}

    def label_at(self, rgb, w, h, px, py, box=None):
        if self.fail is not None:
            raise self.fail
        self.seen.update(size=(w, h), point=(px, py), box=box)
        return self.label

    def close(self):
        pass


def test_no_accessible_name_falls_back_to_ocr_of_the_region():
    ocr = FakeRecogniser(OcrLabel("Place order", 0.88, "normalised"))
    reader = PointerReader(FakeA11y(at=Element("", "canvas")), recogniser=ocr)
    assert _read(reader, Click()) == Read("Place order", "canvas", "ocr", 0.88, True)
    # the point inside the crop (box clamped at x=0); the tree gave no box, so the pixels will show one
    assert ocr.seen == {"size": (360, 72), "point": (100, 36), "box": None}


def test_the_accessible_box_of_an_unnamed_control_is_where_ocr_crops():
    ocr = FakeRecogniser(OcrLabel("Delete", 0.9, "inverted"))
    icon_button = Element("", "push button", box=(80, 38, 60, 24))  # screen x, y, w, h around Click (100, 50)
    reader = PointerReader(FakeA11y(at=icon_button), recogniser=ocr)
    assert _read(reader, Click()) == Read("Delete", "push button", "ocr", 0.9, True, (80, 38, 60, 24))
    assert ocr.seen["box"] == (80, 24, 140, 48)  # in the region read, which starts at (0, 14)
    canvas = FakeRecogniser(OcrLabel("Delete", 0.9, "inverted"))
    whole_canvas = Element("", "canvas", box=(0, 0, 1280, 700))  # says nothing about where a drawn button is
    _read(PointerReader(FakeA11y(at=whole_canvas), recogniser=canvas), Click())
    assert canvas.seen["box"] is None


def test_a_reading_too_unsure_is_no_reading():
    unsure = FakeRecogniser(OcrLabel("Delete", MIN_LABEL_CONFIDENCE - 0.01, "inverted"))
    reader = PointerReader(FakeA11y(at=Element("", "canvas")), recogniser=unsure)
    assert _read(reader, Click()) == Read("", "canvas", "", None, True)  # looked: the target counts as unread
    sure = FakeRecogniser(OcrLabel("Delete", MIN_LABEL_CONFIDENCE, "inverted"))
    reader = PointerReader(FakeA11y(at=Element("", "canvas")), recogniser=sure)
    assert _read(reader, Click()) == Read("Delete", "canvas", "ocr", MIN_LABEL_CONFIDENCE, True)


def test_no_bus_and_no_tesseract_read_nothing_and_are_not_retried_at_once():
    now = [0.0]
    a11y = FakeA11y(fail=True)
    reader = PointerReader(a11y, clock=lambda: now[0], retry_s=30,
                           recogniser=FakeRecogniser(fail=OcrUnavailable("tesseract is not installed")))
    # nothing read, but deskgate looked: nobody can read this target (the gate asks: unreadable-target)
    assert _read(reader, Click()) == Read(tried=True)
    assert _read(reader, Click()) == Read(tried=True) and a11y.calls == 1  # remembered as down
    status = reader.status()
    assert status["accessibility"] == "no bus" and "tesseract" in status["ocr"]
    now[0] = 31.0
    _read(reader, Click())
    assert a11y.calls == 2  # retried after retry_s


def test_typing_reads_the_focused_field_not_a_point():
    reader = PointerReader(FakeA11y(at=Element("Next", "push button"), focus=Element("Password", "password text")))
    assert _read(reader, TypeText()) == Read("Password", "password text", "accessibility", 1.0)


def test_a_line_end_reads_the_focused_terminals_prompt_line_and_a_shortcut_reads_nothing():
    from gate import action_from_dict

    term = Element("Terminal", "terminal", line="me@box:~$ rm -rf ~")
    reader = PointerReader(FakeA11y(focus=term))
    got = _read(reader, action_from_dict({"type": "key", "keys": ["Return"]}))
    assert got.screen_line == "me@box:~$ rm -rf ~"
    assert _read(reader, action_from_dict({"type": "key", "keys": ["ctrl", "s"]})) == Read()


def test_no_session_bus_is_unavailable_not_an_exception(monkeypatch):
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    with pytest.raises(A11yUnavailable, match="session bus"):
        A11yReader().at_point(1, 1)


# -- the real desktop: Qt over AT-SPI, a canvas through OCR, the drop-in against a supervisor --------------


class Buttons:
    def __init__(self, desktop, *labels: str, toolkit: str = "qt", x: int = 200, y: int = 150,
                 title: str = "Account settings") -> None:
        env = desktop.a11y_env if toolkit == "qt" else desktop.env
        self.proc = subprocess.Popen([sys.executable, str(BUTTONSAPP), "--toolkit", toolkit, "--title", title,
                                      "--x", str(x), "--y", str(y), "--buttons", *labels],
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.lines: list[str] = []
        ready = self._next("ready", 30)
        self.at = {k.replace("_", " "): tuple(map(int, v.split(","))) for k, v in
                   (kv.split("=") for kv in ready.split()[1:])}
        threading.Thread(target=self._pump, daemon=True).start()

    def _next(self, prefix: str, timeout: float) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            if line.startswith(prefix):
                return line.strip()
        raise AssertionError(f"no {prefix!r} from the buttons window")

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _needs_a11y():
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        pytest.fail("the test desktop has no session bus / AT-SPI: install dbus-daemon and at-spi2-core "
                    "(.ci/sysdeps.sh)")


@pytest.mark.desktop
def test_qt_buttons_are_read_from_the_accessibility_tree(desktop):
    _needs_a11y()
    from app.desktop.screen import X11Desktop
    from gate.model import action_from_dict

    win = Buttons(desktop, "Delete account", "Next", x=150, y=420)
    desk = X11Desktop(desktop.display, pointer=PointerReader(ocr=False))
    try:
        desk.start()
        for label in ("Delete account", "Next"):
            x, y = win.at[label]
            obs = desk.observe_for(action_from_dict({"type": "click", "x": x, "y": y}))
            assert (obs.pointer_label, obs.pointer_role, obs.label_source) == (label, "push button", "accessibility")
        desktop.xdotool("search", "--sync", "--name", "Account settings", "windowactivate", "--sync", check=False)
        obs = desk.observe_for(action_from_dict({"type": "type", "text": "hunter2"}))
        assert (obs.pointer_label, obs.label_source) == ("Password", "accessibility")
    finally:
        desk.close()
        win.close()


@pytest.mark.desktop
def test_a_canvas_with_no_accessibility_is_read_by_ocr(desktop, artifacts):
    from app.desktop.ocr import tesseract_version
    from app.desktop.pointer import ocr_box
    from app.desktop.screen import X11Desktop, bgra_to_rgb, encode_png
    from gate.model import action_from_dict

    tesseract_version()  # raises with the package to install when tesseract is missing
    win = Buttons(desktop, "Delete account", "Next", toolkit="canvas", x=700, y=380, title="Drawn buttons")
    desk = X11Desktop(desktop.display, pointer=PointerReader())
    try:
        desk.start()
        x, y = win.at["Delete account"]
        obs = desk.observe_for(action_from_dict({"type": "click", "x": x - 40, "y": y + 6}))
        assert obs.label_source == "ocr" and obs.pointer_label == "Delete account", obs
        box = ocr_box(x - 40, y + 6, 1280, 800)
        raw, w, h = desk._grab(box)
        (artifacts / "ocr_read_delete_account.png").write_bytes(encode_png(bgra_to_rgb(raw, w, h), w, h))
        x, y = win.at["Next"]
        obs = desk.observe_for(action_from_dict({"type": "click", "x": x, "y": y}))
        assert (obs.pointer_label, obs.label_source) == ("Next", "ocr"), obs
    finally:
        desk.close()
        win.close()


POLICY = """
[loop]
threshold = 50
"""


@pytest.fixture
def supervised(desktop, deskgate_home):
    from app.root.runtime import build_runtime

    home = deskgate_home(POLICY)
    args = argparse.Namespace(headless=True, socket=home["socket"], db=home["db"], policy=home["policy"],
                              preset=None, ask_in_terminal=False, approver_rules=None, kill_hotkey="none",
                              verbose=False)
    rt = build_runtime(args)  # the real desktop reader and executor on the test display
    assert type(rt.desktop).__name__ == "X11Desktop" and rt.desktop.pointer is not None
    thread = threading.Thread(target=rt.server.serve_forever, daemon=True)
    thread.start()
    yield home
    rt.stop()
    thread.join(5)


@pytest.mark.desktop
def test_unlabelled_dropin_clicks_are_judged_by_what_deskgate_reads(desktop, supervised, monkeypatch):
    """The drop-in sends no label. deskgate reads the buttons itself: "Delete account" is refused
    (the blocklist names it), "Place order" asks (headless: denied as confirm), "Next" is clicked."""
    _needs_a11y()
    from app.agent import pyautogui

    win = Buttons(desktop, "Delete account", "Place order", "Next", x=160, y=120)
    try:
        desktop.xdotool("search", "--sync", "--name", "Account settings", "windowactivate", "--sync", check=False)
        pyautogui.configure(supervised["socket"], agent="unlabelled-clicker")
        monkeypatch.setattr(pyautogui, "PAUSE", 0.05)

        with pytest.raises(pyautogui.ActionRefused) as no:
            pyautogui.click(*win.at["Delete account"])
        assert no.value.decision == "block" and "Delete account" in no.value.reason, no.value.reply
        assert "block.gui.blocklist" in no.value.rules

        with pytest.raises(pyautogui.ActionRefused) as no:
            pyautogui.click(*win.at["Place order"])
        assert no.value.decision == "confirm" and no.value.decided_by == "headless-rule", no.value.reply
        assert "confirm.gui.irreversible" in no.value.rules and "Place order" in no.value.reason

        pyautogui.click(*win.at["Next"])
        end = time.monotonic() + 10
        while "clicked Next" not in win.lines and time.monotonic() < end:
            time.sleep(0.05)
        assert win.lines.count("clicked Next") == 1

        # a claim that disagrees with what deskgate reads is itself a finding
        from app.agent.client import Client

        with Client(supervised["socket"], timeout=30) as dg:
            dg.hello("claiming-agent")
            x, y = win.at["Next"]
            r = dg.act({"type": "click", "x": x, "y": y, "target": {"label": "Cancel"}}, execute=False)
            assert r["decision"] == "confirm" and r["rules"] == ["confirm.gui.label-mismatch"], r
            assert "'Next'" in r["reason"] and "accessibility" in r["reason"]
            # a plan is judged before anything is read; each click step is re-judged on what is read there
            r = dg.plan([{"type": "click", "x": x, "y": y}, {"type": "click", "x": win.at["Delete account"][0],
                                                            "y": win.at["Delete account"][1]}])
            assert r["verdict"] == "denied" and "step 1 is now blocked" in r["reason"], r
            assert "Delete account" in r["reason"]
        assert not any(line.startswith("clicked Delete") or line.startswith("clicked Place") for line in win.lines)
    finally:
        pyautogui.disconnect()
        win.close()
