"""Matching the policy's allow rules (a person's shortcut for known-safe actions)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from gate.normalise import normalise
from gate.policy import AllowRule, glob_match
from gate.rules.base import Context
from gate.urls import host_matches, host_of

__all__ = ["matching_allow_rule", "matching_ask_rule", "rule_matches"]


def _label(ctx: Context) -> str:
    t = ctx.action.target
    return normalise(" ".join(filter(None, (t.label, t.name)))) if t else ""


def _matches(rule: AllowRule, ctx: Context) -> bool:
    if rule.types and ctx.type not in rule.types:
        return False
    if rule.command is not None:
        from gate.shell import command_alone

        facts = ctx.derived(command_alone)  # (its environment is matched by `rule.env` below)
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
        if not rule.subdomains and host != rule.host.strip().lower().rstrip("."):
            return False
    if rule.env is not None and (ctx.type != "shell" or dict(ctx.action.env or {}) != rule.env):  # type: ignore[union-attr]
        return False
    if rule.path is not None:
        from gate.paths import resolved_path

        resolved = ctx.derived(resolved_path)
        if resolved is None or not glob_match(_home(rule.path, ctx), resolved):
            return False
    if rule.cwd is not None:
        if ctx.type != "shell":
            return False
        cwd = getattr(ctx.action, "cwd", None) or "~"  # a command with no cwd runs in the home directory
        from gate.paths import resolve

        try:
            real = resolve(cwd, home=ctx.compiled.home)
        except ValueError:
            return False
        if not glob_match(_home(rule.cwd, ctx), real):
            return False
    return True


def _home(pattern: str, ctx: Context) -> str:
    """`~` at the start of a rule's path glob is the home directory (the paths it is matched with are
    absolute and resolved)."""
    return ctx.compiled.home + pattern[1:] if pattern == "~" or pattern.startswith("~/") else pattern


def matching_allow_rule(ctx: Context, rules: Sequence[AllowRule]) -> AllowRule | None:
    if ctx.type in ("type", "key"):
        from gate.rules.typed import line_end

        if ctx.derived(line_end).lines:
            # a line end runs whatever line the window holds: no standing rule for a key or a text covers it
            return None
    if ctx.type == "shell":
        from gate.shell import command_alone

        facts = ctx.derived(command_alone)
        if facts is None or facts.complex:
            return None
    return next((r for r in rules if _matches(r, ctx)), None)


def matching_ask_rule(ctx: Context, rules: Sequence[AllowRule]) -> AllowRule | None:
    """The first "always ask" rule that matches. Asking is never less safe than not, so a complex shell
    string is matched too (a chain that holds the command asks)."""
    return next((r for r in rules if _matches_any_shape(r, ctx)), None)


def _matches_any_shape(rule: AllowRule, ctx: Context) -> bool:
    """`_matches`, except that a command glob matches the whole string or any one simple command in it."""
    if rule.command is not None and ctx.type == "shell":
        from gate.shell import shell_facts

        facts = ctx.derived(shell_facts)
        if facts is None:
            return False
        pattern = normalise(rule.command)
        if not (glob_match(pattern, facts.text) or any(glob_match(pattern, c.text) for c in facts.commands)):
            return False
        rule = msgspec.structs.replace(rule, command=None)
        if not rule.types and not _other_fields(rule):
            return True
    return _matches(rule, ctx)


def _other_fields(rule: AllowRule) -> bool:
    return any(v is not None for v in (rule.label, rule.app, rule.window, rule.host, rule.path, rule.cwd))


def rule_matches(rule: AllowRule, ctx: Context, *, ask: bool = False) -> bool:
    """Whether one person's rule matches this action (as an `[[ask]]` rule with `ask`), whatever else
    decides it: the rules window's test says which of the person's rules cover a pasted action."""
    if ask:
        return _matches_any_shape(rule, ctx)
    return matching_allow_rule(ctx, (rule,)) is rule
