""""Always allow" is as narrow as the approval.

Before, the rule written for an approved command ignored its `cwd` and `env` (approving `make` in a
project allowed `make` anywhere, with any variables), and a navigate rule for `s3.amazonaws.com` also
allowed `attacker.s3.amazonaws.com` (anyone can own a bucket's subdomain there). Now the rule holds the
command's working directory and exact variables, and the host alone (`subdomains = false`); a person
who writes `subdomains = true` (the default for rules written by hand) chooses the wider form.
"""

from __future__ import annotations

import msgspec
import pytest

from app.user_policy import suggest_allow_rule
from gate import SafetyGate
from gate.model import Assessment, Decision, Observation, Risk, action_from_dict
from gate.policy import AllowRule, default_policy

ASKED = Assessment(decision=Decision.CONFIRM, reason="asks", rules=("confirm.x",), risk=Risk.MEDIUM, confidence=1.0)
TERMINAL = Observation(window_title="bash", app="xterm")


def _gate_with(rule: dict) -> SafetyGate:
    return SafetyGate(msgspec.structs.replace(default_policy(), allow=[msgspec.convert(rule, AllowRule)]))


def _allowed_by(gate: SafetyGate, action: dict, rule_id: str) -> bool:
    trace = gate.explain(action_from_dict(action), TERMINAL)
    return trace.allow_rule == rule_id


def test_a_command_rule_holds_its_cwd_and_env():
    approved = {"type": "shell", "command": "make deploy", "cwd": "/srv/project", "env": {"STAGE": "test"}}
    rule = suggest_allow_rule(approved, TERMINAL, ASKED)
    assert rule is not None and rule["cwd"] == "/srv/project" and rule["env"] == {"STAGE": "test"}
    gate = _gate_with(rule)
    assert _allowed_by(gate, approved, rule["id"])
    for other in ({**approved, "cwd": "/srv/other"}, {**approved, "env": {"STAGE": "prod"}},
                  {**approved, "env": {"STAGE": "test", "LD_PRELOAD": "/tmp/p.so"}},
                  {k: v for k, v in approved.items() if k != "env"}):
        assert not _allowed_by(gate, other, rule["id"]), other


def test_no_rule_is_offered_for_an_env_holding_a_secret():
    action = {"type": "shell", "command": "make deploy", "env": {"TOKEN": "ghp_" + "a1B2" * 9}}
    assert suggest_allow_rule(action, TERMINAL, ASKED) is None


@pytest.mark.parametrize(("approved", "attacker"), [
    ("https://s3.amazonaws.com/bucket/x", "https://attacker.s3.amazonaws.com/x"),
    ("https://example.github.io/", "https://evil.example.github.io/"),
    ("https://docs.example.org/a", "https://x.docs.example.org/a"),
])
def test_a_navigate_rule_allows_that_host_only(approved, attacker):
    rule = suggest_allow_rule({"type": "navigate", "url": approved}, TERMINAL, ASKED)
    assert rule is not None and rule["subdomains"] is False
    gate = _gate_with(rule)
    assert _allowed_by(gate, {"type": "navigate", "url": approved}, rule["id"])
    assert not _allowed_by(gate, {"type": "navigate", "url": attacker}, rule["id"])


def test_a_hand_written_rule_keeps_its_subdomains_unless_it_says_so():
    wide = _gate_with({"id": "w", "types": ["navigate"], "host": "example.org"})
    assert _allowed_by(wide, {"type": "navigate", "url": "https://a.example.org/"}, "w")
    narrow = _gate_with({"id": "n", "types": ["navigate"], "host": "example.org", "subdomains": False})
    assert not _allowed_by(narrow, {"type": "navigate", "url": "https://a.example.org/"}, "n")
    assert _allowed_by(narrow, {"type": "navigate", "url": "https://example.org/"}, "n")


def test_the_rule_survives_the_policy_file(tmp_path):
    from app.user_policy import add_allow_rule
    from gate import load_policy

    rule = suggest_allow_rule({"type": "shell", "command": "make", "cwd": "/srv/p", "env": {"A B": "1"}},
                              TERMINAL, ASKED)
    assert rule is not None
    path = tmp_path / "policy.toml"
    add_allow_rule(path, rule, reason="test")
    loaded = load_policy(path).allow[-1]
    assert loaded.cwd == "/srv/p" and loaded.env == {"A B": "1"}
