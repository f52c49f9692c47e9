"""One pass over a shell line for the developer-configuration rules (gate/rules/devconfig_*.py).

Each of those rules looks for words few lines carry (`mcp`, a shared file's name, `config`, `=`): the engine calls
this batch once per shell action, and it calls a rule only when its words are on the line.
"""

from __future__ import annotations

from collections.abc import Callable

from gate.model import Risk
from gate.rules.base import Context, Rule

__all__ = ["batch", "member"]

# (the rule's id, the test of the line's text and its lower case that says whether to call it)
_MEMBERS: list[tuple[str, Callable[[str, str], bool]]] = []
_RULES: dict[str, Rule] = {}
_NONE: dict[str, tuple[str, Risk, tuple]] = {}


def member(rule_id: str, wanted: Callable[[str, str], bool]) -> None:
    """Call `rule_id` from the batch when `wanted(text, lower case)` holds."""
    _MEMBERS.append((rule_id, wanted))


def register(rules: tuple[Rule, ...]) -> None:
    for r in rules:
        _RULES[r.id] = r


def batch(ctx: Context) -> dict[str, tuple[str, Risk, tuple]]:
    a = ctx.action
    text = getattr(a, "command", None) or getattr(a, "text", None) or ""
    if not isinstance(text, str) or not text:
        return _NONE
    low = text.lower()
    out: dict[str, tuple[str, Risk, tuple]] = {}
    for rule_id, wanted in _MEMBERS:
        if not wanted(text, low):
            continue
        r = _RULES.get(rule_id)
        if r is None:
            continue
        found = r.check(ctx)
        if found is not None:
            hit = r.hit(found)
            out[rule_id] = (hit.reason, hit.risk, hit.spans)
    return out or _NONE
