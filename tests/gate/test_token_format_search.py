"""A search for a token's format (its issuer's prefix and the shape after it) asks, recursive or over one file; a
search for one literal key, or for a bare prefix word, does not."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict
from gate.rules.shell_token_search import token_format

GATE = SafetyGate(default_policy())


def judge(command: str) -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "shell", "command": command}))
    return a.decision.value, a.rules


@pytest.mark.parametrize("command", [
    "rg --hidden -o 'ASIA[A-Z0-9]{16}' ~/work/projects",
    "grep -Eo 'glpat-[0-9a-zA-Z_-]{20}' export.json",
    "git grep -nE 'xox[bp]-[0-9A-Za-z-]+'",
    "grep -P 'sk_live_\\w+' dump.sql | sort -u",
])
def test_a_token_format_search_asks(command):
    decision, rules = judge(command)
    assert decision in ("confirm", "block") and "confirm.shell.credential-search" in rules, (command, rules)


@pytest.mark.parametrize("command", [
    "grep -n AKIAI44QH8DHBEXAMPLE docs/setup.md",
    "rg -n 'ghp_' CHANGELOG.md",
    "grep -rn 'TODO' src",
])
def test_a_literal_or_a_bare_prefix_passes(command):
    assert judge(command)[0] == "allow", command


def test_only_a_shape_after_the_prefix_is_a_format():
    assert token_format(["AKIA[0-9A-Z]{16}"]) == "AKIA[0-9A-Z]{16}"
    assert token_format(["AKIA1234"]) is None
