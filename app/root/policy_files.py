"""The rules and settings windows' models (app.ports.RulesModel, SettingsModel) over the person's policy
file: reading and writing it is app/user_policy.py's; applying it is the supervisor's reload. No Qt."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from app.ports import RuleRow
from app.user_policy import list_allow_rules, read_settings, remove_allow_rule, set_settings

__all__ = ["PolicyFileRules", "PolicyFileSettings"]


class PolicyOwner(Protocol):
    """What these models use of the supervisor: the person's policy file, and a reload that applies it."""

    policy_file: Path

    def reload_policy(self, source: str = "") -> Any: ...


class PolicyFileRules:
    """The rules window's model: the allow rules in the person's policy file; removing one reloads."""

    def __init__(self, supervisor: PolicyOwner) -> None:
        self.supervisor = supervisor

    def location(self) -> str:
        return str(self.supervisor.policy_file)

    def rules(self) -> list[RuleRow]:
        path = self.supervisor.policy_file
        if not path.exists():
            return []
        # "<when>: added by "Always allow this" for <what>" reads better in a table as "<when> — <what>"
        return [RuleRow(e.id, e.fields, e.comment.replace(': added by "Always allow this" for ', " — "))
                for e in list_allow_rules(path)]

    def remove(self, rule_id: str) -> None:
        sup = self.supervisor
        remove_allow_rule(sup.policy_file, rule_id)
        sup.reload_policy(f"{sup.policy_file} (allow rule {rule_id} removed by person)")


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
