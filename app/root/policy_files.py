"""The rules and settings windows' models (app.ports.RulesModel, SettingsModel) over the person's policy
file: reading and writing it is app/user_policy.py's; applying it is the supervisor's reload. No Qt."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from app.ports import RuleRow, RuleTest
from app.user_policy import (
    list_allow_rules,
    list_ask_rules,
    read_settings,
    remove_allow_rule,
    remove_ask_rule,
    set_settings,
)

__all__ = ["PolicyFileRules", "PolicyFileSettings", "parse_test_action"]


class PolicyOwner(Protocol):
    """What these models use of the supervisor: the person's policy file, and a reload that applies it."""

    policy_file: Path

    def reload_policy(self, source: str = "") -> Any: ...


class PolicyFileRules:
    """The rules window's model: the allow and ask rules in the person's policy file; removing one reloads."""

    def __init__(self, supervisor: PolicyOwner) -> None:
        self.supervisor = supervisor

    def location(self) -> str:
        return str(self.supervisor.policy_file)

    def rules(self) -> list[RuleRow]:
        path = self.supervisor.policy_file
        if not path.exists():
            return []
        # "<when>: added by "Always allow this" for <what>" reads better in a table as "<when> — <what>"
        return ([RuleRow(e.id, e.fields, _when_what(e.comment), "allow") for e in list_allow_rules(path)]
                + [RuleRow(e.id, e.fields, _when_what(e.comment), "ask") for e in list_ask_rules(path)])

    def remove(self, rule_id: str, kind: str = "allow") -> None:
        sup = self.supervisor
        if kind == "ask":
            remove_ask_rule(sup.policy_file, rule_id)
        elif kind == "allow":
            remove_allow_rule(sup.policy_file, rule_id)
        else:
            raise ValueError(f"no kind of rule called {kind!r}")
        sup.reload_policy(f"{sup.policy_file} ({kind} rule {rule_id} removed by person)")

    def test(self, text: str, app: str = "") -> RuleTest:
        """The policy file's decision for a pasted action, and the rule that decides it."""
        from gate import SafetyGate, load_policy
        from gate.allow import rule_matches
        from gate.describe import describe_action
        from gate.model import Observation, action_to_dict
        from gate.rules.base import Context

        action = parse_test_action(text)
        path = self.supervisor.policy_file
        policy = load_policy(path if path.exists() else None)
        gate = SafetyGate(policy)
        observation = Observation(app=app.strip(), window_title=app.strip()) if app.strip() else None
        got = gate.assess(action, observation)
        ctx = Context(action, observation, gate.compiled)
        yours = tuple([f"allow.policy.{r.id}" for r in policy.allow if rule_matches(r, ctx)]
                      + [f"confirm.policy.{r.id}" for r in policy.ask if rule_matches(r, ctx, ask=True)])
        return RuleTest(decision=got.decision.value, decided_by=got.rules[0] if got.rules else "",
                        reason=got.reason, action=describe_action(action_to_dict(action)), yours=yours)


class PolicyFileSettings:
    """The settings window's model: effective values from the policy; saving writes the file and reloads.
    What reads the policy (the confirmation dialog among them) sees the new values from the next use."""

    def __init__(self, supervisor: PolicyOwner, preset: str | None = None) -> None:
        self.supervisor = supervisor
        self.preset = preset  # the command line's --preset, which the file's own preset does not override

    def location(self) -> str:
        return str(self.supervisor.policy_file)

    def values(self) -> dict[str, Any]:
        return read_settings(self.supervisor.policy_file, self.preset)

    def save(self, values: Mapping[str, Any]) -> None:
        sup = self.supervisor
        set_settings(sup.policy_file, values)
        sup.reload_policy(f"{sup.policy_file} (settings saved by person)")


def _when_what(comment: str) -> str:
    for words in ('"Always allow this"', '"Always ask for this host"'):
        comment = comment.replace(f": added by {words} for ", " — ")
    return comment


def parse_test_action(text: str) -> Any:
    """A pasted action: a JSON action object, a web address, or else a shell command line. Raises
    ValueError saying what is wrong."""
    import json

    from gate.model import ActionError, action_from_dict

    text = text.strip()
    if not text:
        raise ValueError("paste an action: a shell command, a web address or a JSON action")
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"not valid JSON: {err}") from None
    elif re.match(r"^[a-z][a-z0-9+.-]*://", text, re.I):
        data = {"type": "navigate", "url": text}
    else:
        data = {"type": "shell", "command": text}
    try:
        return action_from_dict(data)
    except ActionError as err:
        raise ValueError(f"not an action deskgate knows: {err}") from None
