"""A coding agent's settings screen: a protection clicked off refuses, a run-everything mode asks, commands put on
its allow list ask (refuse when they open the machine); other settings, other programs and deny lists pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Observation, action_from_dict

GATE = SafetyGate(default_policy())


def click(label: str, app: str, title: str) -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "click", "x": 10, "y": 10, "target": {"label": label}}),
                    Observation(app=app, window_title=title))
    return a.decision.value, a.rules


def typed(text: str, label: str, app: str, title: str = "") -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}}),
                    Observation(app=app, window_title=title))
    return a.decision.value, a.rules


@pytest.mark.parametrize(("label", "app", "title"), [
    ("Workspace Protection", "Windsurf", "Windsurf Settings - Cascade"),
    ("MCP Protection", "Cursor", "Cursor Settings - Features"),
    ("File deletion protection", "Cursor", "Cursor Settings - Tools"),
])
def test_an_agent_protection_clicked_off_blocks(label, app, title):
    decision, rules = click(label, app, title)
    assert decision == "block" and "block.gui.agent-protection-off" in rules, rules


@pytest.mark.parametrize(("label", "app", "title"), [
    ("YOLO mode", "Cursor", "Cursor Settings - Features"),
    ("Auto-approve all", "Visual Studio Code", "Cline - Auto-approve settings"),
    ("Full Access", "Codex", "Codex - Approvals"),
])
def test_a_run_everything_mode_asks(label, app, title):
    decision, rules = click(label, app, title)
    assert decision in ("confirm", "block") and "confirm.gui.agent-wide-mode" in rules, rules


@pytest.mark.parametrize(("label", "app", "title"), [
    ("Ask every time", "Cursor", "Cursor Settings - Tools"),
    ("Font Size", "Cursor", "Cursor Settings - Editor"),
    ("Enhanced protection", "Google Chrome", "Settings - Privacy and security"),
    ("Run All", "Visual Studio Code", "analysis.ipynb - notebooks - Visual Studio Code"),
])
def test_other_settings_and_programs_pass_these_rules(label, app, title):
    rules = click(label, app, title)[1]
    assert "block.gui.agent-protection-off" not in rules and "confirm.gui.agent-wide-mode" not in rules, rules


def test_allow_list_entries_ask_or_block():
    decision, rules = typed("wget, ssh, python3", "Auto-run allowlist", "Cursor", "Cursor Settings - Tools")
    assert decision == "block" and "block.typed.agent-allowlist-open" in rules, rules
    decision, rules = typed("cd, env", "Allowlist", "Windsurf")
    assert decision == "confirm" and "confirm.typed.agent-allowlist" in rules, rules


def test_a_deny_list_or_another_program_passes():
    assert typed("rm, curl, sudo", "Command denylist", "Cursor")[0] == "allow"
    assert "block.typed.agent-allowlist-open" not in typed("rm, curl", "Allow list", "LibreOffice Calc")[1]


def test_a_projects_checks_on_the_allow_list_and_safe_auto_run_pass():
    assert typed("npm test, git status, git diff", "Allow list", "Cursor", "Cursor Settings - Tools")[0] == "allow"
    assert "confirm.gui.agent-wide-mode" not in click("Auto-run in sandbox", "Cursor", "Cursor Settings - Tools")[1]
