"""Render what a person sees into tests/artifacts/ (gitignored) and check nothing is clipped."""

from __future__ import annotations

import dataclasses
import time

import pytest
from PySide6.QtWidgets import QLabel, QPushButton, QWidget
from test_tray import FakeModel
from ui_support import FakeClock, assessment, request, synthetic_screenshot

from gate.model import Decision, Risk
from ui.dialog import ConfirmDialog
from ui.tray import GrantView, RecentDecision, Tray

CASES = {
    "dialog_click.png": lambda: request(
        {"type": "click", "x": 640, "y": 400, "target": {"label": "Place order", "role": "button"}},
        preview_png=synthetic_screenshot(), queued=2),
    "dialog_password.png": lambda: request(
        {"type": "type", "text": {"sha256": "ab" * 32, "len": 12}, "target": {"label": "Password"}},
        assessment(Decision.CONFIRM, Risk.HIGH,
                   ("confirm.gui.credential-field", "typing into a credential field 'Password'"),
                   redact=frozenset({"text"}))),
    "dialog_shell.png": lambda: _gate_request(  # coloured from the gate's own verdict (Hit.spans)
        {"type": "shell", "command": "sudo apt-get install -y build-essential && rm -rf ~/.cache/old"},
        intent="install the build tool"),
    "dialog_always_allow.png": lambda: request(
        {"type": "shell", "command": "make test"},
        assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.shell.unknown-effect", "unknown effect: 'make'")),
        agent="claude-code:4f1c2a9e:4242", intent="Run the tests",
        allow_rule={"id": "shell-make-test", "types": ["shell"], "command": "make test"}),
    "dialog_file_diff.png": lambda: request(
        {"type": "file_write", "path": _existing_file("settings.py", "DEBUG = False\nNAME = 'shop'\nPORT = 8000\n"),
         "content": "DEBUG = True\nNAME = 'shop'\nPORT = 8080\n"},
        assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.files.outside-sandbox", "writes outside the sandbox")),
        agent="claude-code:4f1c2a9e:4243", grantable=True),
    # a navigation: the exact host, its subdomains as a separate choice, and always asking
    "dialog_navigate_hosts.png": lambda: request(
        {"type": "navigate", "url": "https://docs.example.org/guide/install"},
        assessment(Decision.CONFIRM, Risk.MEDIUM, ("confirm.policy.default-mode",
                                                   "the policy asks for every action of this type")),
        agent="browser-agent", intent="Read the install guide", grantable=True,
        allow_rule={"id": "web-docs-example-org", "types": ["navigate"], "host": "docs.example.org",
                    "subdomains": False},
        wider_rule={"id": "site-docs-example-org", "types": ["navigate"], "host": "docs.example.org",
                    "subdomains": True},
        wider_label="Always allow this host and its subdomains",
        ask_rule={"id": "ask-docs-example-org", "types": ["navigate"], "host": "docs.example.org",
                  "subdomains": False}),
    # a new file outside the agent's work area: the gate's own words, the content, the folder rule offered
    "dialog_file_write.png": lambda: _file_write_request(),
}


def _file_write_request():
    from gate import SafetyGate, action_from_dict

    action = {"type": "file_write", "path": "/srv/www/site/about.html",
              "content": "<!doctype html>\n<title>About us</title>\n<h1>About us</h1>\n<p>We fix bikes.</p>\n"}
    return request(action, SafetyGate().assess(action_from_dict(action)), agent="claude-code:7d2e91aa:5120",
                   intent="Add an About page", grantable=True,
                   allow_rule=None,
                   wider_rule={"id": "edits-srv-www-site", "types": ["file_write", "file_move"],
                               "path": "/srv/www/site/*"},
                   wider_label="Allow edits in this folder")


def _gate_request(action: dict, **kw):
    from gate import SafetyGate, action_from_dict

    return request(action, SafetyGate().assess(action_from_dict(action)), **kw)


def _existing_file(name: str, text: str) -> str:
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp(prefix="dg-shot-")) / name
    path.write_text(text)
    return str(path)


def _fits(widget: QWidget) -> None:
    for child in widget.findChildren(QLabel) + widget.findChildren(QPushButton):
        if child.isVisible() and isinstance(child, QPushButton):
            assert child.width() >= child.sizeHint().width(), f"button {child.text()!r} is clipped"
        if child.isVisible() and isinstance(child, QLabel) and child.wordWrap():
            assert child.height() >= child.heightForWidth(child.width()) - 1, f"label {child.text()!r} is clipped"


@pytest.mark.parametrize("name", sorted(CASES))
def test_dialog_renders_unclipped(qtbot, artifacts, name) -> None:
    dialog = ConfirmDialog(CASES[name](), arm_delay_s=1.0, timeout_s=30, clock=FakeClock())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    _fits(dialog)
    assert dialog.grab().save(str(artifacts / name))


def test_tray_menu_renders(qapp, artifacts) -> None:
    model = FakeModel()
    now = time.time()
    model.snap = dataclasses.replace(
        model.snap, agents=("shopper-bot", "writer"),
        recent=(RecentDecision(2, now - 60, "shopper-bot", "Click at (640, 400) on 'Place order'", "confirm",
                               "executed"),
                RecentDecision(1, now - 120, "shopper-bot", "Run shell command", "block", "denied")),
        grants=(GrantView("g1", "shopper-bot", "Run shell command: make test", 299.0),
                GrantView("g2", "writer", "Type 5 characters into 'Title'", None)))
    tray = Tray(model)
    tray.menu.aboutToShow.emit()
    tray.menu.adjustSize()
    assert tray.menu.grab().save(str(artifacts / "tray_menu.png"))
    recent = next(a for a in tray.menu.actions() if a.text() == "Recent decisions").menu()
    recent.adjustSize()
    assert recent.grab().save(str(artifacts / "tray_recent.png"))


def test_tray_menu_with_frozen_apps_renders(qapp, artifacts) -> None:
    model = FakeModel()
    model.snap = dataclasses.replace(model.snap, state="killed", agents=(), frozen=("Text Editor", "Firefox"),
                                     reason="Stopped by the kill-switch hotkey, pressed on the keyboard")
    tray = Tray(model)
    tray.menu.aboutToShow.emit()
    tray.menu.adjustSize()
    assert tray.menu.grab().save(str(artifacts / "tray_frozen.png"))


def _policy_owner(tmp_path):
    import types

    from app.user_policy import add_allow_rule
    from gate import load_policy

    path = tmp_path / "policy.toml"
    path.write_text('preset = "balanced"\n')
    add_allow_rule(path, {"id": "shell-make-test", "types": ["shell"], "command": "make test"},
                   reason="claude-code: Run shell command: make test")
    add_allow_rule(path, {"id": "web-docs-python-org", "types": ["navigate"], "host": "docs.python.org"},
                   reason="claude-code: Open https://docs.python.org/3/library/")
    add_allow_rule(path, {"id": "click-gedit-save", "types": ["click"], "label": "Save", "app": "gedit",
                          "window": "notes.txt - gedit"}, reason="writer: Click on 'Save'")
    sup = types.SimpleNamespace(policy_file=path, reload_policy=lambda source="": load_policy(path))
    return sup


def test_rules_window_renders(qtbot, artifacts, tmp_path) -> None:
    from app.root.policy_files import PolicyFileRules
    from ui.rules_window import RulesWindow

    window = RulesWindow(PolicyFileRules(_policy_owner(tmp_path)))
    qtbot.addWidget(window)
    window.resize(820, 380)
    window.show()
    qtbot.waitExposed(window)
    window.select("web-docs-python-org")
    _fits(window)
    assert window.grab().save(str(artifacts / "rules_window.png"))


def test_rules_window_with_an_ask_rule_renders(qtbot, artifacts, tmp_path) -> None:
    from app.root.policy_files import PolicyFileRules
    from app.user_policy import add_ask_rule
    from ui.rules_window import RulesWindow

    owner = _policy_owner(tmp_path)
    add_ask_rule(owner.policy_file, {"id": "ask-bank-example-com", "types": ["navigate"],
                                     "host": "bank.example.com", "subdomains": False},
                 reason="shopper-bot: Open https://bank.example.com/login")
    window = RulesWindow(PolicyFileRules(owner))
    qtbot.addWidget(window)
    window.resize(900, 520)
    window.show()
    qtbot.waitExposed(window)
    window.test_input.setText("https://bank.example.com/transfer")
    window.run_test()
    assert window.rule_kinds()[-1] == "ask" and window._selected() == ("ask", "ask-bank-example-com")
    _fits(window)
    assert window.grab().save(str(artifacts / "rules_window_ask.png"))


def test_settings_window_renders(qtbot, artifacts, tmp_path) -> None:
    from app.root.policy_files import PolicyFileSettings
    from ui.settings import SettingsWindow

    window = SettingsWindow(PolicyFileSettings(_policy_owner(tmp_path)))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.adjustSize()
    _fits(window)
    assert window.grab().save(str(artifacts / "settings.png"))
