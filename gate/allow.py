"""Matching the policy's allow rules (a person's shortcut for known-safe actions)."""

from __future__ import annotations

from collections.abc import Sequence

from gate.normalise import normalise
from gate.policy import AllowRule, glob_match
from gate.rules.base import Context
from gate.urls import host_matches, host_of

__all__ = ["matching_allow_rule"]


def _label(ctx: Context) -> str:
    t = ctx.action.target
    return normalise(" ".join(filter(None, (t.label, t.name)))) if t else ""


def _matches(rule: AllowRule, ctx: Context) -> bool:
    if rule.types and ctx.type not in rule.types:
        return False
    if rule.command is not None:
        from gate.shell import shell_facts

        facts = ctx.derived(shell_facts)
        # an allow rule never applies to a complex shell string (chains, pipes, substitutions, redirects)
        if facts is None or facts.complex or not glob_match(normalise(rule.command), facts.text):
            return False
    if rule.label is not None and not glob_match(normalise(rule.label), _label(ctx)):
        return False
    if rule.app is not None and not glob_match(normalise(rule.app), normalise(ctx.observation.app)):
        return False
    if rule.window is not None and not glob_match(normalise(rule.window), normalise(ctx.observation.window_title)):
        return False
    if rule.host is not None:
        host = host_of(ctx)
        if host is None or not host_matches(host, rule.host):
            return False
    if rule.path is not None:
        from gate.paths import resolved_path

        resolved = ctx.derived(resolved_path)
        if resolved is None or not glob_match(rule.path, resolved):
            return False
    return True


def matching_allow_rule(ctx: Context, rules: Sequence[AllowRule]) -> AllowRule | None:
    if ctx.type in ("type", "key"):
        from gate.rules.typed import line_end

        if ctx.derived(line_end).lines:
            # a line end runs whatever line the window holds: no standing rule for a key or a text covers it
            return None
    if ctx.type == "shell":
        from gate.shell import shell_facts

        facts = ctx.derived(shell_facts)
        if facts is None or facts.complex:
            return None
    return next((r for r in rules if _matches(r, ctx)), None)
