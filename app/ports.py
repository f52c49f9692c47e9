"""Asking a person: the Approver interface, its answers, and the request it is shown.

The supervisor calls `approver.ask(request, timeout)` from a worker thread and blocks until an answer.
Silence, timeout, a closed dialog, a dead UI and a missing approver all mean DENY (fail closed).
Implementations: headless deny-all and rule-file approvers, a terminal prompt (app/), the Qt dialog (ui/).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Protocol

from gate.model import Assessment, Observation

__all__ = ["Answer", "ApprovalRequest", "Approver", "Reply"]


class Answer(enum.StrEnum):
    APPROVE_ONCE = "approve_once"
    APPROVE_5_MIN = "approve_5_min"      # a grant for N minutes (policy approvals.grant_minutes)
    APPROVE_SESSION = "approve_session"  # a grant for this agent session
    ALWAYS_ALLOW = "always_allow"        # approve, and write the request's `allow_rule` to the policy file
    DENY = "deny"
    DENY_AND_STOP = "deny_and_stop"      # deny, and end the agent's session
    TIMEOUT = "timeout"                  # nobody answered in time: deny, and never a grant

    @property
    def approved(self) -> bool:
        return self in (Answer.APPROVE_ONCE, Answer.APPROVE_5_MIN, Answer.APPROVE_SESSION, Answer.ALWAYS_ALLOW)


@dataclasses.dataclass(frozen=True)
class Reply:
    answer: Answer
    by: str = "person"   # person | headless-rule | session-approval | kill-switch | timeout
    note: str = ""


@dataclasses.dataclass(frozen=True)
class ApprovalRequest:
    """Everything a person needs to judge one action (or a whole plan)."""

    request_id: str
    agent: str
    session_id: int
    action: dict[str, Any]            # sanitised: secrets already replaced (see gate.redact)
    assessment: Assessment
    observation: Observation
    intent: str = ""                  # the agent's stated intent (`note`)
    preview_png: bytes | None = None  # a screenshot around the target, with the point marked
    preview_box: tuple[int, int, int, int] | None = None  # the region the preview shows (x, y, w, h)
    plan: tuple[tuple[dict[str, Any], Assessment], ...] = ()  # for a plan: each step and its assessment
    queued: int = 0                   # how many other requests wait behind this one
    timeout_s: float = 30.0
    grantable: bool = True            # "approve for N min / session" can cover a repeat of this request
    allow_rule: dict[str, Any] | None = None  # the narrow allow rule "Always allow this" would add (app/user_policy)


class Approver(Protocol):
    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        """Block until a person answers or `timeout` passes (→ Answer.TIMEOUT). Must never raise."""
        ...

    def cancel_all(self, reason: str) -> None:
        """Deny everything pending at once (kill switch, quit)."""
        ...
