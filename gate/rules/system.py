"""Rules: system."""

from __future__ import annotations

from gate.rules.base import Rule

RULES: tuple[Rule, ...] = ()
