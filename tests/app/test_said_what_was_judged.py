"""What deskgate read is what a person sees and what the log keeps: on the test desktop, a click on a real Qt
button is read from the accessibility tree with its box; the preview outlines the button instead of covering
its label; the dialog's headline names it. The typed-line dialog shows the whole line a Return would run.
Both dialogs are saved in tests/artifacts/ (dialog_click_read.png, dialog_typed_line.png)."""

from __future__ import annotations

import pytest

from app.desktop.pointer import PointerReader
from gate import SafetyGate, action_from_dict
from gate.model import Observation, TypedLine
from tests.app.test_pointer_read import Buttons, _needs_a11y

pytestmark = pytest.mark.desktop


def _render(qtbot, request, path) -> str:
    from tests.ui.ui_support import FakeClock
    from ui.dialog import ConfirmDialog

    dialog = ConfirmDialog(request, arm_delay_s=1.0, timeout_s=30, clock=FakeClock())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.grab().save(str(path))
    return dialog.action_label.text()


def test_the_click_dialog_names_the_read_button_and_outlines_it(desktop, qtbot, artifacts):
    _needs_a11y()
    from app.desktop.screen import X11Desktop
    from app.ports import ApprovalRequest

    win = Buttons(desktop, "Place order", "Next", x=160, y=160, title="Checkout")
    desk = X11Desktop(desktop.display, pointer=PointerReader(ocr=False))
    try:
        desk.start()
        desktop.xdotool("search", "--sync", "--name", "Checkout", "windowactivate", "--sync", check=False)
        x, y = win.at["Place order"]
        action = action_from_dict({"type": "click", "x": x, "y": y})
        obs = desk.observe_for(action)
        assert (obs.pointer_label, obs.label_source, obs.label_confidence) == ("Place order", "accessibility", 1.0)
        box = obs.target_box
        assert box is not None and box.contains(x, y)
        shot = desk.preview(action, outline=box)
        assert shot is not None
        png, region = shot
        assessment = SafetyGate().assess(action, obs)
        assert assessment.decision.value == "confirm"
        request = ApprovalRequest(request_id="r1", agent="shopper-bot", session_id=1, action={
            "type": "click", "x": x, "y": y}, assessment=assessment, observation=obs, preview_png=png,
            preview_box=region)
        title = _render(qtbot, request, artifacts / "dialog_click_read.png")
        assert title.startswith("Click “Place order” in ") and "Checkout" in title
        # the label is not covered: the pixels at the button's centre are the button's own, unmarked
        _assert_centre_unmarked(png, region, (x, y))
    finally:
        desk.close()
        win.close()


def _assert_centre_unmarked(png: bytes, region, point) -> None:
    from PySide6.QtGui import QImage

    from app.desktop.pixels import MARK_COLOR

    img = QImage.fromData(png)
    sx = (point[0] - region[0]) * img.width() // region[2]
    sy = (point[1] - region[1]) * img.height() // region[3]
    for dx in range(-20, 21, 4):
        c = img.pixelColor(sx + dx, sy)
        assert (c.red(), c.green(), c.blue()) != MARK_COLOR


def test_the_typed_line_dialog_shows_the_whole_line(qtbot, artifacts):
    from app.ports import ApprovalRequest

    obs = Observation(app="xterm", window_title="me@box: ~/project", window_id=3,
                      line=TypedLine(text="git push --force origin ", raw="git push --force origin "))
    action = action_from_dict({"type": "type", "text": "wip/ui\n"})
    assessment = SafetyGate().assess(action, obs)
    assert assessment.decision.value == "confirm"
    request = ApprovalRequest(request_id="r2", agent="coder", session_id=1, action={"type": "type", "text": "wip/ui\n"},
                              assessment=assessment, observation=obs)
    title = _render(qtbot, request, artifacts / "dialog_typed_line.png")
    assert title == "Type into me@box: ~/project — the line so far: “git push --force origin wip/ui”"
