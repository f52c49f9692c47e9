"""The rules window and the settings window, over the real policy-file code (app/root/policy_files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.root.policy_files import PolicyFileRules, PolicyFileSettings
from app.user_policy import add_allow_rule, add_ask_rule
from gate import load_policy
from ui.rules_window import RulesWindow
from ui.settings import SettingsWindow


class Supervisor:
    """What the adapters use of the supervisor: the policy file, and a reload that really loads it."""

    def __init__(self, path: Path) -> None:
        self.policy_file = path
        self.reloads: list[str] = []

    def reload_policy(self, source: str = ""):
        self.reloads.append(source)
        return load_policy(self.policy_file)


@pytest.fixture
def sup(tmp_path: Path) -> Supervisor:
    path = tmp_path / "policy.toml"
    path.write_text('preset = "balanced"\n')
    return Supervisor(path)


def test_rules_window_lists_and_removes_a_rule(qtbot, sup) -> None:
    path = sup.policy_file
    add_allow_rule(path, {"id": "shell-make-test", "types": ["shell"], "command": "make test"},
                   reason="claude-code: Run shell command: make test")
    add_allow_rule(path, {"id": "web-docs-python-org", "types": ["navigate"], "host": "docs.python.org"})
    window = RulesWindow(PolicyFileRules(sup))
    qtbot.addWidget(window)
    window.show()
    assert window.rule_ids() == ["shell-make-test", "web-docs-python-org"]
    assert window.table.item(0, 1).text() == "Allows"
    assert window.table.item(0, 2).text() == "shell: command “make test”"
    assert window.table.item(0, 3).text().endswith(" — claude-code: Run shell command: make test")
    assert not window.remove_button.isEnabled()  # nothing selected
    window.select("shell-make-test")
    qtbot.mouseClick(window.remove_button, Qt.MouseButton.LeftButton)
    assert window.rule_ids() == ["web-docs-python-org"]
    assert [r.id for r in load_policy(path).allow] == ["web-docs-python-org"]
    assert sup.reloads and "shell-make-test removed" in sup.reloads[-1]
    assert "Removed rule shell-make-test" in window.findChild(QLabel, "status").text()


def test_rules_window_lists_ask_rules_beside_allow_rules(qtbot, sup) -> None:
    """An `[[ask]]` rule is listed with what it does and what it matches, a test of an action it covers
    marks it, and removing it removes the ask rule (not an allow rule of the same id)."""
    path = sup.policy_file
    add_allow_rule(path, {"id": "docs", "types": ["navigate"], "host": "docs.example.org", "subdomains": False})
    add_ask_rule(path, {"id": "docs", "types": ["navigate"], "host": "bank.example.com", "subdomains": False},
                 reason="browser-agent: Open https://bank.example.com/login")
    window = RulesWindow(PolicyFileRules(sup))
    qtbot.addWidget(window)
    window.show()
    assert window.rule_ids() == ["docs", "docs"] and window.rule_kinds() == ["allow", "ask"]
    assert [window.table.item(1, c).text() for c in (1, 2)] == ["Always asks",
                                                               "navigate: on bank.example.com only"]
    assert window.table.item(1, 3).text().endswith(" — browser-agent: Open https://bank.example.com/login")
    assert window.table.item(0, 2).text() == "navigate: on docs.example.org only"

    window.test_input.setText("https://bank.example.com/transfer")
    window.run_test()
    result = window.test_result.text()
    assert "Asks you" in result and "your rule “docs”" in result
    assert window._selected() == ("ask", "docs")

    window.select("docs", "ask")
    qtbot.mouseClick(window.remove_button, Qt.MouseButton.LeftButton)
    assert window.rule_kinds() == ["allow"]
    policy = load_policy(path)
    assert [r.id for r in policy.allow] == ["docs"] and policy.ask == []
    assert "ask rule docs removed" in sup.reloads[-1]
    assert "no longer always asks" in window.findChild(QLabel, "status").text()


def test_rules_window_without_rules_says_how_to_add_one(qtbot, sup) -> None:
    window = RulesWindow(PolicyFileRules(sup))
    qtbot.addWidget(window)
    window.show()
    assert window.rule_ids() == [] and window.empty.isVisible() and not window.table.isVisible()


def test_a_rule_that_cannot_be_removed_says_why(qtbot, sup) -> None:
    path = sup.policy_file
    add_allow_rule(path, {"id": "a", "types": ["shell"], "command": "make"})
    window = RulesWindow(PolicyFileRules(sup))
    qtbot.addWidget(window)
    path.write_text('preset = "balanced"\nallow = [{id = "a", types = ["shell"], command = "make"}]\n')
    window.select("a")
    window.remove_selected()
    assert "was not removed" in window.findChild(QLabel, "status").text()
    assert [r.id for r in load_policy(path).allow] == ["a"]


def test_settings_window_shows_the_effective_values_and_saves_only_changes(qtbot, sup) -> None:
    window = SettingsWindow(PolicyFileSettings(sup))
    qtbot.addWidget(window)
    window.show()
    defaults = load_policy(None)
    assert window.preset.currentData() == "balanced"
    assert window.timeout.value() == defaults.approvals.timeout_s
    assert window.takeover.isChecked() is defaults.desktop.takeover
    window.timeout.setValue(75)
    window.takeover.setChecked(False)
    assert not window.takeover_quiet.isEnabled()
    window.hotkey.setText("ctrl+alt+k")
    assert window.changed() == {"approvals.timeout_s": 75.0, "desktop.takeover": False,
                                "desktop.kill_hotkey": "ctrl+alt+k"}
    with qtbot.waitSignal(window.saved):
        qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    policy = load_policy(sup.policy_file)
    assert (policy.approvals.timeout_s, policy.desktop.takeover, policy.desktop.kill_hotkey) == (
        75.0, False, "ctrl+alt+k")
    assert "arm_delay_s" not in sup.policy_file.read_text()  # untouched: not written
    assert sup.reloads and "settings saved" in sup.reloads[-1]


def test_settings_that_do_not_load_are_not_saved(qtbot, sup) -> None:
    window = SettingsWindow(PolicyFileSettings(sup))
    qtbot.addWidget(window)
    before = sup.policy_file.read_text()
    sup.policy_file.write_text(before + "[approvals]\nnonsense = 1\n")
    window.timeout.setValue(40)
    window.save()
    assert window.findChild(QLabel, "status").text().startswith("Not saved")
    assert "timeout_s" not in sup.policy_file.read_text()


def test_rules_window_test_box_says_which_rule_decides(qtbot, sup, artifacts) -> None:
    path = sup.policy_file
    add_allow_rule(path, {"id": "tests-here", "types": ["shell"], "command": "npm run test:*",
                          "cwd": "/srv/app*"}, reason="claude-code: npm run test:unit")
    add_allow_rule(path, {"id": "site-edits", "types": ["file_write", "file_move"], "path": "/srv/www/site/*"})
    add_allow_rule(path, {"id": "anything-rm", "types": ["shell"], "command": "rm *"})
    window = RulesWindow(PolicyFileRules(sup))
    qtbot.addWidget(window)
    window.resize(860, 560)
    window.show()
    assert window.table.item(1, 2).text() == "file_write, file_move: in the folder /srv/www/site"
    # a command covered by a person's rule in its folder
    qtbot.keyClicks(window.test_input, '{"type": "shell", "command": "npm run test:unit", "cwd": "/srv/app/web"}')
    qtbot.mouseClick(window.test_button, Qt.MouseButton.LeftButton)
    text = window.test_result.text()
    assert "Allowed without asking" in text and "your rule “tests-here”" in text
    assert window.table.selectionModel().selectedRows()[0].row() == 0  # the rule's row is marked
    # a block is never overridden, and the window says so
    window.test_input.setText("rm -rf /")
    window.run_test()
    text = window.test_result.text()
    assert "Blocked" in text and "block.shell.recursive-delete-root" in text
    assert "“anything-rm”" in text and "no rule ever overrides a block" in text
    # nothing of the person's matches: the built-in rules or the default decide
    window.test_input.setText("https://example.org/docs")
    window.run_test()
    assert "None of your rules match" in window.test_result.text()
    # not an action at all
    window.test_input.setText('{"type": "teleport"}')
    window.run_test()
    assert "not an action deskgate knows" in window.test_result.text()
    # the picture: a pasted folder edit, and the rule that lets it through
    window.test_input.setText('{"type": "file_write", "path": "/srv/www/site/about.html", "content": "hi"}')
    window.run_test()
    qtbot.waitExposed(window)
    assert window.grab().save(str(artifacts / "rules_window_test_box.png"))
