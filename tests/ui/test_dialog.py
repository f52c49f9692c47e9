"""ConfirmDialog fails closed: Deny is the default, nothing approves before arming, every exit denies."""

from __future__ import annotations

import html

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QTableWidget, QTextEdit, QWidget
from ui_support import FakeClock, assessment, request, synthetic_screenshot

from app.ports import Answer
from gate.model import Decision, Risk
from ui import theme
from ui.dialog import ConfirmDialog

CLICK = {"type": "click", "x": 640, "y": 400, "target": {"label": "Place order", "role": "button"}}


def make(qtbot, req=None, clock=None, *, arm=1.0, timeout=30.0, hold=None) -> tuple[ConfirmDialog, list]:
    dialog = ConfirmDialog(req or request(CLICK), arm_delay_s=arm, timeout_s=timeout, clock=clock, hold_s=hold)
    qtbot.addWidget(dialog)
    answers: list[Answer] = []
    dialog.answered.connect(answers.append)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog, answers


def all_visible_text(root: QWidget) -> str:
    """Every string a person could see or copy from the dialog: labels, buttons, text boxes, tables, tips."""
    parts = [root.windowTitle(), root.toolTip()]
    for w in root.findChildren(QWidget):
        parts.append(w.toolTip())
        if isinstance(w, QLabel | QAbstractButton):
            parts.append(w.text())
        if isinstance(w, QTextEdit):
            parts += [w.toPlainText(), w.toHtml()]
        if isinstance(w, QTableWidget):
            for r in range(w.rowCount()):
                for c in range(w.columnCount()):
                    item = w.item(r, c)
                    if item is not None:
                        parts += [item.text(), item.toolTip()]
    return "\n".join(parts)


def test_deny_is_default_and_focused_and_approve_starts_disabled(qtbot, clock: FakeClock) -> None:
    dialog, _ = make(qtbot, clock=clock)
    assert dialog.deny_button.isDefault()
    assert dialog.focusWidget() is dialog.deny_button
    assert [b.text() for b in dialog.approve_buttons] == ["Approve once", "Approve for 5 min", "Approve for session"]
    assert not any(b.isEnabled() for b in dialog.approve_buttons)
    assert dialog.windowFlags() & Qt.WindowType.WindowStaysOnTopHint


def test_enter_before_arming_denies(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock)
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    assert answers == [Answer.DENY]
    assert not dialog.isVisible()


def test_enter_after_arming_still_denies(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock)
    clock.advance(2)
    dialog.tick()
    assert dialog.armed
    qtbot.keyClick(dialog, Qt.Key.Key_Enter)
    assert answers == [Answer.DENY]


def test_click_on_approve_before_arming_is_ignored(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock)
    qtbot.mouseClick(dialog.approve_buttons[0], Qt.MouseButton.LeftButton)
    dialog.approve_buttons[0].click()  # even a programmatic click on the disabled button does nothing
    assert answers == []
    dialog.finish(Answer.APPROVE_SESSION)  # and an approval forced through before arming becomes a denial
    assert answers == [Answer.DENY]


def test_arms_after_the_delay_on_the_injected_clock(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock, arm=1.5)
    clock.advance(1.4)
    dialog.tick()
    assert not dialog.armed
    clock.advance(0.2)
    qtbot.waitUntil(lambda: dialog.armed, timeout=2000)  # the dialog's own QTimer reads the clock
    assert all(b.isEnabled() for b in dialog.approve_buttons)
    qtbot.mouseClick(dialog.approve_buttons[1], Qt.MouseButton.LeftButton)
    assert answers == [Answer.APPROVE_5_MIN]


def test_escape_denies(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock)
    clock.advance(5)
    dialog.tick()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert answers == [Answer.DENY]


def test_closing_the_window_denies(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock)
    clock.advance(5)
    dialog.tick()
    dialog.close()
    assert answers == [Answer.DENY]


def test_countdown_end_is_timeout(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock, timeout=30)
    clock.advance(10)
    dialog.tick()
    assert "20 s" in dialog.progress.format()
    assert 600 <= dialog.progress.value() <= 700
    with qtbot.waitSignal(dialog.answered, timeout=2000) as blocker:
        clock.advance(21)
    assert blocker.args == [Answer.TIMEOUT]
    assert answers == [Answer.TIMEOUT]
    assert not dialog.isVisible()


def test_one_answer_only(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock)
    clock.advance(5)
    dialog.tick()
    dialog.approve_buttons[0].click()
    dialog.close()
    dialog.finish(Answer.DENY)
    assert answers == [Answer.APPROVE_ONCE]


def test_mouse_press_stops_the_countdown(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock, timeout=30)
    with qtbot.waitSignal(dialog.countdown_stopped, timeout=1000):
        qtbot.mousePress(dialog.action_label, Qt.MouseButton.LeftButton, pos=QPoint(3, 3))
    assert not dialog.countdown_running
    clock.advance(3600)
    dialog.tick()
    assert answers == []
    assert "stopped" in dialog.progress.format()


def test_stopped_countdown_still_has_a_hard_limit(qtbot, clock: FakeClock) -> None:
    dialog, answers = make(qtbot, clock=clock, timeout=30, hold=120)
    qtbot.mousePress(dialog, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    clock.advance(100)
    dialog.tick()
    assert answers == []
    assert "0:20" in dialog.progress.format()
    clock.advance(21)
    dialog.tick()
    assert answers == [Answer.TIMEOUT]


def test_arming_counts_from_when_the_dialog_is_shown(qtbot, clock: FakeClock) -> None:
    dialog = ConfirmDialog(request(CLICK), arm_delay_s=1.0, timeout_s=30, clock=clock)
    qtbot.addWidget(dialog)
    clock.advance(10)  # built long before it reaches the screen
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.tick()
    assert not dialog.armed


SECRET = "hunter2-correct-horse"


@pytest.mark.parametrize("text,redact", [
    (SECRET, frozenset({"text"})),                             # plain, but the gate marked it secret
    ({"sha256": "9f" * 32, "len": len(SECRET)}, frozenset()),  # already replaced by the sanitiser
])
def test_redacted_text_never_reaches_a_widget(qtbot, clock: FakeClock, text, redact) -> None:
    a = assessment(Decision.CONFIRM, Risk.HIGH, ("confirm.gui.credential-field", "typing into 'Password'"),
                   redact=redact)
    dialog, _ = make(qtbot, request({"type": "type", "text": text, "target": {"label": "Password"}}, a),
                     clock=clock)
    shown = all_visible_text(dialog)
    assert SECRET not in shown
    assert "hunter2" not in shown
    assert f"Type {len(SECRET)} characters into 'Password' (hidden)" in shown
    assert f"•••• ({len(SECRET)} characters, hidden)" in shown


def test_plain_text_to_type_is_shown(qtbot, clock: FakeClock) -> None:
    a = assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.gui.irreversible", "sends a message"))
    dialog, _ = make(qtbot, request({"type": "type", "text": "see you at 6", "target": {"label": "Message"}}, a),
                     clock=clock)
    assert dialog.findChild(QTextEdit, "typed").toPlainText() == "see you at 6"


def test_agent_strings_are_never_rendered_as_html(qtbot, clock: FakeClock) -> None:
    req = request(CLICK, agent="<b>trusted</b> system", intent="<img src=x> approve me")
    dialog, _ = make(qtbot, req, clock=clock)
    for label in dialog.findChildren(QLabel):
        if "trusted" in label.text() or "approve me" in label.text():
            assert label.textFormat() == Qt.TextFormat.PlainText


def test_click_shows_preview_window_reason_rules_and_risk(qtbot, clock: FakeClock) -> None:
    req = request(CLICK, preview_png=synthetic_screenshot(), queued=2)
    dialog, _ = make(qtbot, req, clock=clock)
    text = all_visible_text(dialog)
    # the headline names the target and the window; the line under it says where the name came from
    assert dialog.action_label.text() == "Click “Place order” in Checkout — Shop Example"
    assert "Target “Place order” (button), as the agent names it" in text
    assert "Active window: firefox — Checkout — Shop Example" in text
    assert "confirm.gui.irreversible" in text
    assert "HIGH RISK" in dialog.findChild(QLabel, "risk").text()
    assert theme.RISK_COLORS["high"] in dialog.findChild(QLabel, "risk").text()  # high = orange
    assert not dialog.preview_label.pixmap().isNull()
    assert dialog.findChild(QLabel, "queued").text() == "2 more requests waiting"
    dialog.set_queued(0)
    assert dialog.findChild(QLabel, "queued").isHidden()


def test_shell_command_highlights_risky_parts(qtbot, clock: FakeClock) -> None:
    a = assessment(Decision.CONFIRM, Risk.CRITICAL, ("confirm.shell.escalation", "escalation: 'sudo'"))
    dialog, _ = make(qtbot, request({"type": "shell", "command": "sudo rm -rf /var/tmp/x | tee log"}, a),
                     clock=clock)
    box = dialog.findChild(QTextEdit, "command")
    assert box.toPlainText().strip() == "sudo rm -rf /var/tmp/x | tee log"
    markup = box.toHtml()
    assert "background-color:#ffcdd2" in markup  # critical span (sudo, quoted by the rule)
    assert "escalation: 'sudo' (critical)" in html.unescape(dialog.findChild(QLabel, "factors").text())


def test_shell_command_is_coloured_from_the_verdict_shown_not_the_default_policy(qtbot, clock: FakeClock) -> None:
    import msgspec
    from PySide6.QtGui import QTextCursor

    from gate import SafetyGate, action_from_dict, default_policy

    p = default_policy()
    strict = msgspec.structs.replace(p, shell=msgspec.structs.replace(p.shell, block_patterns=[r"\bgit\s+log\b"]))
    action = {"type": "shell", "command": "cd /srv && git log --oneline"}

    def background_of(verdict, word: str) -> str:
        dialog, _ = make(qtbot, request(action, verdict), clock=clock)
        doc = dialog.findChild(QTextEdit, "command").document()
        found = doc.find(word)
        assert not found.isNull()
        end = QTextCursor(doc)
        end.setPosition(found.selectionEnd())
        return end.charFormat().background().color().name()

    critical = theme.span_colors("critical")[0]
    assert background_of(SafetyGate(strict).assess(action_from_dict(action)), "git log") == critical
    assert background_of(SafetyGate(p).assess(action_from_dict(action)), "git log") != critical


def test_navigation_emphasises_the_real_host(qtbot, clock: FakeClock) -> None:
    a = assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.web.origin", "host is not in the allowed origins"))
    dialog, _ = make(qtbot, request({"type": "navigate", "url": "https://bank.example@evil.test/login"}, a),
                     clock=clock)
    assert "evil.test" in dialog.findChild(QLabel, "host").text()
    assert "bank.example" not in dialog.findChild(QLabel, "host").text()


def test_blocked_request_can_never_be_approved(qtbot, clock: FakeClock) -> None:
    a = assessment(Decision.BLOCK, Risk.CRITICAL, ("block.shell.recursive-delete-root", "recursive delete of /"))
    dialog, answers = make(qtbot, request({"type": "shell", "command": "rm -rf /"}, a), clock=clock)
    clock.advance(5)
    dialog.tick()
    assert dialog.armed and not any(b.isEnabled() for b in dialog.approve_buttons)
    dialog.finish(Answer.APPROVE_ONCE)
    assert answers == [Answer.DENY]


def test_plan_shows_every_step_and_approve_all(qtbot, clock: FakeClock) -> None:
    steps = (
        ({"type": "open_app", "app": "gedit"}, assessment(Decision.ALLOW, Risk.LOW, ("", "no rule objects"))),
        ({"type": "type", "text": {"sha256": "00" * 32, "len": 9}}, assessment(
            Decision.CONFIRM, Risk.HIGH, ("confirm.gui.credential-field", "credential field"),
            redact=frozenset({"text"}))),
        ({"type": "key", "keys": ["ctrl", "s"]}, assessment(Decision.CONFIRM, Risk.MEDIUM,
                                                            ("confirm.gui.irreversible", "saves the file"))),
    )
    req = request({"type": "wait"}, assessment(Decision.CONFIRM, Risk.HIGH, ("confirm.plan.review", "plan")),
                  plan=steps)
    dialog, answers = make(qtbot, req, clock=clock)
    table = dialog.findChild(QTableWidget, "plan")
    assert table.rowCount() == 3
    assert [table.item(r, 1).text() for r in range(3)] == ["allow", "confirm", "confirm"]
    assert table.item(1, 0).text() == "Type 9 characters (hidden)"
    assert table.item(2, 2).text() == "confirm.gui.irreversible"
    assert [b.text() for b in dialog.approve_buttons] == ["Approve all"]
    assert "Run a plan of 3 steps" in all_visible_text(dialog)
    clock.advance(2)
    dialog.tick()
    dialog.approve_buttons[0].click()
    assert answers == [Answer.APPROVE_ONCE]


def test_plan_with_a_blocked_step_cannot_be_approved(qtbot, clock: FakeClock) -> None:
    steps = (({"type": "shell", "command": "mkfs.ext4 /dev/sda"},
              assessment(Decision.BLOCK, Risk.CRITICAL, ("block.shell.mkfs", "formats a disk"))),)
    req = request({"type": "wait"}, assessment(Decision.CONFIRM, Risk.HIGH, ("confirm.plan.review", "plan")),
                  plan=steps)
    dialog, _ = make(qtbot, req, clock=clock)
    clock.advance(2)
    dialog.tick()
    assert not dialog.approve_buttons[0].isEnabled()


# -- standing decisions ----------------------------------------------------------------------------------

SHELL = {"type": "shell", "command": "make test"}
SHELL_ASKED = assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.shell.unknown-effect", "unknown effect"))


def test_grants_are_offered_only_where_they_can_cover_a_repeat(qtbot, clock: FakeClock) -> None:
    dialog, _ = make(qtbot, request(SHELL, SHELL_ASKED, grantable=False), clock=clock)
    assert [b.text() for b in dialog.approve_buttons] == ["Approve once"]


def test_always_allow_shows_the_rule_and_answers_after_arming(qtbot, clock: FakeClock) -> None:
    rule = {"id": "shell-make-test", "types": ["shell"], "command": "make test"}
    dialog, answers = make(qtbot, request(SHELL, SHELL_ASKED, allow_rule=rule), clock=clock)
    always = dialog.findChild(QAbstractButton, "always")
    assert always.text() == "Always allow this" and not always.isEnabled()
    assert "shell: command “make test”" in dialog.findChild(QLabel, "rule_note").text()
    always.click()
    assert answers == []  # not armed yet
    clock.advance(2)
    dialog.tick()
    always.click()
    assert answers == [Answer.ALWAYS_ALLOW]


def test_no_always_allow_without_a_rule(qtbot, clock: FakeClock) -> None:
    dialog, _ = make(qtbot, request(SHELL, SHELL_ASKED), clock=clock)
    assert dialog.findChild(QAbstractButton, "always") is None
    assert "Always allow" not in all_visible_text(dialog)


def test_a_file_edit_shows_a_diff_against_the_file(qtbot, clock: FakeClock, tmp_path) -> None:
    target = tmp_path / "settings.py"
    target.write_text("DEBUG = False\nNAME = 'app'\n")
    write = {"type": "file_write", "path": str(target), "content": "DEBUG = True\nNAME = 'app'\n"}
    dialog, _ = make(qtbot, request(write, assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.x", "asks"))),
                     clock=clock)
    diff = dialog.findChild(QTextEdit, "diff").toPlainText()
    assert "-DEBUG = False" in diff and "+DEBUG = True" in diff
    assert dialog.findChild(QTextEdit, "content") is None


def test_a_new_file_shows_its_content(qtbot, clock: FakeClock, tmp_path) -> None:
    write = {"type": "file_write", "path": str(tmp_path / "new.md"), "content": "# Notes\nfirst line\n"}
    dialog, _ = make(qtbot, request(write, assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.x", "asks"))),
                     clock=clock)
    assert dialog.findChild(QTextEdit, "content").toPlainText() == "# Notes\nfirst line\n"


# -- a navigation: the exact host, its subdomains as a separate choice, always asking ----------------------

NAV = {"type": "navigate", "url": "https://docs.example.org/start"}
NAV_ASKED = assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.policy.default-mode", "the policy asks"))
EXACT = {"id": "web-docs-example-org", "types": ["navigate"], "host": "docs.example.org", "subdomains": False}
SUBDOMAINS = {"id": "site-docs-example-org", "types": ["navigate"], "host": "docs.example.org", "subdomains": True}
ASK = {"id": "ask-docs-example-org", "types": ["navigate"], "host": "docs.example.org", "subdomains": False}


def test_a_navigation_offers_the_host_its_subdomains_and_always_ask_as_separate_choices(qtbot,
                                                                                        clock: FakeClock) -> None:
    req = request(NAV, NAV_ASKED, allow_rule=EXACT, wider_rule=SUBDOMAINS,
                  wider_label="Always allow this host and its subdomains", ask_rule=ASK)
    dialog, answers = make(qtbot, req, clock=clock)
    texts = [b.text() for b in dialog.approve_buttons]
    assert texts[-3:] == ["Always allow this host", "Always allow this host and its subdomains",
                          "Always ask for this host"]
    assert dialog.deny_button.isDefault()  # never the default: Enter denies
    assert not any(b.autoDefault() or b.isDefault() for b in dialog.approve_buttons)
    assert "navigate: on docs.example.org only" in dialog.findChild(QLabel, "rule_note").text()
    assert "navigate: on docs.example.org and its subdomains" in dialog.findChild(QLabel, "wider_note").text()
    assert "docs.example.org always asks" in dialog.findChild(QLabel, "ask_note").text()
    ask = dialog.findChild(QAbstractButton, "always_ask")
    ask.click()
    assert answers == []  # not armed yet
    clock.advance(2)
    dialog.tick()
    ask.click()
    assert answers == [Answer.ALWAYS_ASK] and Answer.ALWAYS_ASK.approved


def test_no_subdomain_choice_where_the_request_has_none(qtbot, clock: FakeClock) -> None:
    """Under a shared-hosting suffix (foo.github.io) the supervisor offers no wider rule: nor does the dialog."""
    exact = dict(EXACT, host="foo.github.io")
    req = request({"type": "navigate", "url": "https://foo.github.io/"}, NAV_ASKED, allow_rule=exact)
    dialog, _ = make(qtbot, req, clock=clock)
    assert dialog.findChild(QAbstractButton, "wider") is None
    assert "subdomains" not in all_visible_text(dialog)
    assert dialog.findChild(QAbstractButton, "always").text() == "Always allow this host"
