"""Rules over a whole plan (a list of actions sent together): schema, size, complexity."""

from __future__ import annotations

import dataclasses

from gate.model import Action, Assessment
from gate.policy import Policy
from gate.rules.base import Rule

__all__ = ["RULES", "PlanContext"]


@dataclasses.dataclass(frozen=True, slots=True)
class PlanContext:
    actions: tuple[Action, ...]
    steps: tuple[Assessment, ...]  # each action's own assessment, in order
    policy: Policy
    type: str = "plan"


RULES: tuple[Rule, ...] = ()
