"""One decided request as the pipeline carries it: an `act` is a job of one step, a `plan` of many.

What differs between the two is data here (the decision row's op and contents, what a person is shown,
a grant's summary, the reply's step list); the pipeline (app/daemon/pipeline.py) runs both down one path.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

from app.daemon.outcome import INPUT_TYPES
from gate.describe import describe_action
from gate.model import Action, Assessment

__all__ = ["Job", "plan_key"]


def plan_key(step_keys: list[str]) -> str:
    """The approval key of a whole plan: its steps' keys, in order."""
    return hashlib.sha256(("plan\x1f" + "\x1f".join(step_keys)).encode()).hexdigest()


@dataclasses.dataclass
class Job:
    """One decided request: its steps and what the log, the person and the reply see of it."""

    op: str                                  # the decision row's op: "act" (one step) or "plan"
    request_id: str
    actions: list[Action]
    assessments: tuple[Assessment, ...]      # each step's
    assessment: Assessment                   # the request's
    key: str                                 # its approval key (what a grant is given for)
    shown: dict[str, Any]                    # sanitised, for a person (and a grant's summary)
    recorded: dict[str, Any]                 # what the decision row holds
    execute: bool
    defer: bool = False
    plan: tuple[tuple[dict[str, Any], Assessment], ...] = ()  # each step as a person sees it (plans)
    steps: list[dict[str, Any]] | None = None  # a plan's per-step verdicts, in its reply

    @property
    def single(self) -> bool:
        return self.op == "act"

    @property
    def action_type(self) -> str:
        return self.actions[0].type if self.single else "plan"

    def summary(self) -> str:
        return describe_action(self.shown, style="line") if self.single else f"plan of {len(self.actions)} steps"

    def intent(self) -> str:
        if self.single:
            return self.actions[0].note or ""
        return "; ".join(a.note for a in self.actions if a.note)

    def preview_action(self) -> Action | None:
        """The step a screenshot preview shows, or None: only input on the screen (click, type, key, ...)
        has a screen to show. A file, a command or a tool call is shown as itself (content, diff, command
        line), never as a picture of whatever window happens to be in front."""
        return next((a for a in self.actions if a.type in INPUT_TYPES), None)
