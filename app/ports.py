"""The types app/ and ui/ share, and the ports of the supervisor and the composition root.

Asking a person: the supervisor calls `approver.ask(request, timeout)` from a worker thread and blocks
until an answer. Silence, timeout, a closed dialog, a dead UI and a missing approver all mean DENY (fail
closed). Implementations: headless deny-all and rule-file approvers, a terminal prompt (app/), the Qt
dialog (ui/).

The other ports name every method their users call, so a capability is never found by `hasattr`: an
implementation (or a test double) has them all. Real ones: app/audit/log.AuditLog,
app/desktop/screen.X11Desktop and NullDesktop, app/execute/executor.Executor; the models of the rules,
settings and tray windows are filled by app/root and drawn by ui/.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from app.wire import Verdict

if TYPE_CHECKING:  # annotations only: a client that needs Verdict imports no gate
    from gate.model import Action, Assessment, Observation, Rect
    from gate.policy import Policy

__all__ = ["OUTCOME_VERDICTS", "ActionExecutor", "Answer", "ApprovalRequest", "ApprovalSettings", "Approver",
           "AuditSink", "Desktop", "DesktopView", "ExecOutcome", "GrantView", "RecentDecision", "Reply", "RuleRow",
           "RuleTest", "RulesModel", "SettingsModel", "TrayModel", "TraySnapshot", "Verdict", "frozen_notice"]


# The verdicts an outcome (a reply, an audit row) can carry: every one but a plan step's `not_run`.
OUTCOME_VERDICTS: frozenset[Verdict] = frozenset(Verdict) - {Verdict.NOT_RUN}

class Answer(enum.StrEnum):
    APPROVE_ONCE = "approve_once"
    APPROVE_5_MIN = "approve_5_min"      # a grant for N minutes (policy approvals.grant_minutes)
    APPROVE_SESSION = "approve_session"  # a grant for this agent session
    ALWAYS_ALLOW = "always_allow"        # approve, and write the request's `allow_rule` to the policy file
    ALLOW_WIDER = "allow_wider"          # approve, and write the request's `wider_rule` (folder, program here, app)
    APPROVE_NETWORK = "approve_network"  # approve once, and run it in the fence with the network on
    ALWAYS_ASK = "always_ask"            # approve once, and write the request's `ask_rule`: this host always asks
    DENY = "deny"
    DENY_AND_STOP = "deny_and_stop"      # deny, and end the agent's session
    TIMEOUT = "timeout"                  # nobody answered in time: deny, and never a grant

    @property
    def approved(self) -> bool:
        return self in (Answer.APPROVE_ONCE, Answer.APPROVE_5_MIN, Answer.APPROVE_SESSION, Answer.ALWAYS_ALLOW,
                        Answer.ALLOW_WIDER, Answer.APPROVE_NETWORK, Answer.ALWAYS_ASK)


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
    # the wider rule a second choice adds ("Allow edits in this folder", "Allow “npm run test:*” here",
    # "Allow clicks in this app except consequential ones"), and those words
    wider_rule: dict[str, Any] | None = None
    wider_label: str = ""
    # the `[[ask]]` rule "Always ask for this host" adds for a navigation (app/user_policy.suggest_ask_rule)
    ask_rule: dict[str, Any] | None = None
    # a known networked program ("npm", "git clone") in a command the fence would run without network:
    # the dialog offers "Approve with network"
    network: str = ""


class Approver(Protocol):
    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        """Block until a person answers or `timeout` passes (→ Answer.TIMEOUT). Must never raise."""
        ...

    def cancel_all(self, reason: str) -> None:
        """Deny everything pending at once (kill switch, quit)."""
        ...


# -- ports of the supervisor (app/daemon) ------------------------------------------------------

class AuditSink(Protocol):
    """The audit log as the supervisor writes it (app/audit/log.AuditLog). Every write may raise: the
    supervisor then fails closed (nothing runs when the decision row could not be committed)."""

    store_outputs: bool  # [audit] store_outputs: command output / file contents kept in execution events
    verify_problem: str | None  # the chain failed verification at start: continued, loudly (None: sound)

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
                        execute: bool, outcome: dict[str, Any] | None = None) -> int:
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

    def preview(self, action: Action, outline: Rect | None = None) -> tuple[bytes, tuple[int, int, int, int]] | None:
        """A PNG around the target and the region it shows, for the dialog; None when there is none."""
        ...


class ExecOutcome(Protocol):
    ok: bool
    detail: dict[str, Any]
    error: Exception | None  # an app.errors.DeskgateError: what the agent is told


class ActionExecutor(Protocol):
    """Runs allowed actions (app/execute/executor.Executor)."""

    def execute(self, action: Action, policy: Policy, *, judged: tuple[str, ...] = (),
                new_file: bool = False) -> ExecOutcome:
        """Run one action under `policy` (the request's: its fence, its step timeout). Must never raise.
        `judged`: a file action's real path(s) as the gate judged them (acted on as they are); `new_file`: a write
        judged as creating a file, which must not replace one that appears meanwhile."""
        ...

    def cancel_all(self) -> int:
        """The kill switch: end everything running now. Returns how many were running."""
        ...

# -- ports of the composition root (app/root) and the windows it fills (ui/) --------------------------


class Desktop(DesktopView, Protocol):
    """The whole desktop as the composition root uses it (app/desktop/screen.py): what the supervisor
    reads, plus the person's input and the windows and areas the agent may not act on."""

    # The person's own mouse and keyboard are on this desktop: the kill-switch hotkey and the takeover
    # monitor can listen to them (X11Desktop: True; NullDesktop and test desktops: False).
    person_input: bool

    def protect(self, window: str | int) -> None:
        """The agent may not act on this window (deskgate's own dialogs and windows)."""
        ...
    def unprotect(self, window: str | int) -> None: ...
    def protect_area(self, key: str, rect: Rect | None) -> None:
        """The agent may not act on this screen area (the tray icon); None forgets `key`."""
        ...
    def start(self) -> None: ...
    def stop(self) -> None: ...


@dataclasses.dataclass(frozen=True)
class RuleRow:
    """One rule of the person's policy file, as the rules window lists it."""

    id: str
    fields: Mapping[str, Any]  # the rule as written (types, command, host, ...); the window words it
    added: str                 # the comment above the rule in the file ("" for none)
    kind: str = "allow"        # allow: an [[allow]] rule (lets through without asking); ask: an [[ask]] rule


@dataclasses.dataclass(frozen=True)
class RuleTest:
    """What the policy decides for one pasted action, and which rule decides it (the rules window's test)."""

    decision: str                # allow | confirm | block
    decided_by: str              # the rule id that decides ("" when none: the default mode)
    reason: str
    action: str                  # the action as understood, in a person's words
    yours: tuple[str, ...] = ()  # the person's [[allow]] / [[ask]] rules that match it (decisive or not)


class RulesModel(Protocol):
    def rules(self) -> list[RuleRow]: ...
    def remove(self, rule_id: str, kind: str = "allow") -> None:
        """Remove the rule (of `kind`, as RuleRow.kind) and apply the policy without it. Raises with a
        message a person can read."""
        ...
    def location(self) -> str: ...
    def test(self, text: str, app: str = "") -> RuleTest:
        """Judge a pasted action (JSON, a URL or a shell command line) under the policy file, with `app`
        as the active app. Raises ValueError with a message a person can read when it is no action."""
        ...


class SettingsModel(Protocol):
    def values(self) -> Mapping[str, Any]:
        """The effective value of each key of app.user_policy.SETTINGS."""
        ...
    def save(self, values: Mapping[str, Any]) -> None:
        """Write the changed values and apply them. Raises with a message a person can read."""
        ...
    def location(self) -> str: ...


# The tray: what it shows (ui/tray.py draws it; app/root/tray_state.py builds it) and what it asks for.


@dataclasses.dataclass(frozen=True)
class RecentDecision:
    id: int
    when: float          # unix time
    agent: str
    summary: str         # e.g. "Click at (640, 400) on 'Place order'"
    decision: str        # allow | confirm | block
    verdict: str         # executed | allowed | approved | denied | error


@dataclasses.dataclass(frozen=True)
class GrantView:
    id: str
    agent: str
    summary: str
    expires_in_s: float | None   # None: until the agent's session ends


@dataclasses.dataclass(frozen=True)
class TraySnapshot:
    state: str                              # active | asking | paused | killed
    agents: tuple[str, ...] = ()
    allowed: int = 0
    asked: int = 0
    blocked: int = 0
    recent: tuple[RecentDecision, ...] = ()  # newest first; the tray shows 10
    grants: tuple[GrantView, ...] = ()
    reason: str = ""                        # why paused / killed
    frozen: tuple[str, ...] = ()            # the apps an agent opened, frozen at a kill (their names)


def frozen_notice(names: Sequence[str]) -> str:
    """The tray's words for the apps frozen at a kill: "2 apps the agent opened are frozen: Text Editor,
    Firefox" ("" for none)."""
    if not names:
        return ""
    listed = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    if len(names) == 1:
        return f"1 app the agent opened is frozen: {listed}"
    return f"{len(names)} apps the agent opened are frozen: {listed}"


class TrayModel(Protocol):
    def snapshot(self) -> TraySnapshot: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def kill(self) -> None: ...
    def raise_limits(self) -> None:
        """Give the running sessions their steps, rate and time once more (a person's say-so)."""
        ...
    def resume_after_kill(self) -> None: ...
    def resume_frozen(self) -> None:
        """Let the apps frozen at a kill go on."""
        ...
    def end_frozen(self) -> None:
        """End the apps frozen at a kill."""
        ...
    def revoke(self, grant_id: str) -> None: ...
    def open_viewer(self, decision_id: int | None) -> None: ...
    def open_policy(self) -> None: ...
    def open_rules(self) -> None: ...
    def open_settings(self) -> None: ...
    def reload_policy(self) -> None: ...
    def about(self) -> None: ...
    def quit(self) -> None: ...


class ApprovalSettings(Protocol):
    """What the confirmation dialog reads of the policy in force each time it opens (gate's
    `ApprovalsPolicy` has these)."""

    @property
    def arm_delay_s(self) -> float: ...
    @property
    def grant_minutes(self) -> int: ...
