"""A rule that raises while judging an action blocks it (the gate fails closed) and keeps its text out of the log:
no rule said which field holds a secret."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.engine import SafetyGate as Engine
from gate.model import Decision, action_from_dict


def test_a_rule_that_raises_blocks_the_action(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = SafetyGate(default_policy("balanced"))

    def broken(self: Engine, ctx: object) -> list:
        raise IndexError("list index out of range")

    monkeypatch.setattr(Engine, "_hits", broken)
    got = gate.assess(action_from_dict({"type": "shell", "command": "echo hello"}))
    assert got.decision is Decision.BLOCK
    assert "IndexError" in got.reason and "does not run" in got.reason
    assert {"text", "command"} <= got.redact


def test_a_working_gate_still_allows_the_ordinary() -> None:
    gate = SafetyGate(default_policy("balanced"))
    assert gate.assess(action_from_dict({"type": "shell", "command": "echo hello"})).decision is Decision.ALLOW
