"""The supervisor's ports: what it needs of the approver, the audit log, the desktop and the executor.

Asking a person: the supervisor calls `approver.ask(request, timeout)` from a worker thread and blocks
until an answer. Silence, timeout, a closed dialog, a dead UI and a missing approver all mean DENY (fail
closed). Implementations: headless deny-all and rule-file approvers, a terminal prompt (app/), the Qt
dialog (ui/).

The other ports name every method the supervisor calls, so a capability is never found by `hasattr`:
an implementation (or a test double) has them all. Real ones: app/audit/log.AuditLog,
app/desktop/screen.X11Desktop and NullDesktop, app/execute/executor.Executor.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from gate.model import Action, Assessment, Observation

if TYPE_CHECKING:
    from app.errors import DeskgateError
    from gate.policy import Policy

__all__ = ["ActionExecutor", "Answer", "ApprovalRequest", "Approver", "AuditSink", "DesktopView", "ExecOutcome",
           "Reply"]


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


class AuditSink(Protocol):
    """The audit log as the supervisor writes it (app/audit/log.AuditLog). Every write may raise: the
    supervisor then fails closed (nothing runs when the decision row could not be committed)."""

    store_outputs: bool  # [audit] store_outputs: command output / file contents kept in execution events

    @property
    def out_of_service(self) -> str | None:
        """Why the log stopped taking writes (its files deleted or replaced); None while it is sound."""
        ...

    def add_alarm_listener(self, callback: Callable[[str], None]) -> None: ...

    def open_session(self, agent: str, *, pid: int | None, uid: int | None, expect: dict[str, Any] | None) -> int:
        ...

    def close_session(self, session_id: int, reason: str) -> None: ...

    def record_decision(self, *, session_id: int, agent: str, request_id: str, op: str, action: dict[str, Any],
                        assessment: Assessment, observation: Observation, approval_key: str,
                        execute: bool) -> int:
        ...

    def record_event(self, kind: str, *, session_id: int | None = None, decision_id: int | None = None,
                     data: dict[str, Any] | None = None, durable: bool = True) -> int | None:
        ...

    def record_outcome(self, decision_id: int, *, verdict: str, decided_by: str, reason: str, elapsed_ms: float,
                       durable: bool = True) -> int | None:
        ...

    def add_preview(self, decision_id: int, png: bytes) -> Any: ...


class DesktopView(Protocol):
    """What the supervisor reads of the desktop (app/desktop/screen.py). Each read may raise."""

    def observe(self) -> Observation:
        """The desktop as last seen (kept current by events)."""
        ...

    def observe_fresh(self) -> Observation:
        """Read again now (after a person's approval, between a plan's steps)."""
        ...

    def observe_for(self, action: Action, *, fresh: bool = False) -> Observation:
        """Also what deskgate reads at the action's target (the element clicked, the focused field)."""
        ...

    def preview(self, action: Action) -> tuple[bytes, tuple[int, int, int, int]] | None:
        """A PNG around the target and the region it shows, for the dialog; None when there is none."""
        ...


class ExecOutcome(Protocol):
    ok: bool
    detail: dict[str, Any]
    error: DeskgateError | None


class ActionExecutor(Protocol):
    """Runs allowed actions (app/execute/executor.Executor)."""

    def execute(self, action: Action, policy: Policy) -> ExecOutcome:
        """Run one action under `policy` (the request's: its fence, its step timeout). Must never raise."""
        ...

    def cancel_all(self) -> int:
        """The kill switch: end everything running now. Returns how many were running."""
        ...
