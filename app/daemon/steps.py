"""Running one allowed step: wait for the person and the dialog, re-check the desktop, execute, record.

- human takeover (`person`, app/desktop/takeover.py) is not a pause: while the person uses mouse or
  keyboard, pointer/keyboard actions wait (bounded by step_timeout_s, then `paused`); others never wait.
- an approval is bound to the screen it was given for: the desktop is read again just before the step,
  and a changed active window (or a deskgate window in front, for input) denies it.
- between a plan's steps the kill state and the desktop are checked again; a step whose fresh assessment
  is a BLOCK, or a CONFIRM the person did not see, stops the plan.
- the execution result is recorded after the fact (queued for the next group commit); a failed step
  counts toward the session's error limit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from app.daemon.journal import Journal
from app.daemon.lines import LineBook
from app.daemon.outcome import INPUT_TYPES, READ_TARGET_TYPES, Stop
from app.daemon.person import proc_stat
from app.daemon.policy_runtime import PolicyRuntime
from app.daemon.runstate import RunState
from app.daemon.sessions import Session
from app.desktop.takeover import PersonActivity
from app.errors import DeskgateError
from app.ports import ActionExecutor, DesktopView
from gate.model import Action, Assessment, Decision, Observation

__all__ = ["StepRunner"]

log = logging.getLogger("deskgate.supervisor")


class StepRunner:
    def __init__(self, *, state: RunState, journal: Journal, desktop: DesktopView, executor: ActionExecutor,
                 clock: Callable[[], float], end_session: Callable[..., None]) -> None:
        self.state = state
        self.journal = journal
        self.desktop = desktop
        self.executor = executor
        self.clock = clock
        self.end_session = end_session
        # the person's own mouse/keyboard use (app/desktop/takeover.py), set by the desktop app; None: not watched
        self.person: PersonActivity | None = None
        # the line each window holds (app/daemon/lines.py), set by the pipeline; None: lines not followed
        self.lines: LineBook | None = None

    def await_person(self, rt: PolicyRuntime, types: Iterable[str]) -> float:
        """Human takeover: pointer/keyboard actions wait while the person uses the desktop (bounded by
        step_timeout_s, then `paused`); other actions never wait. Returns the seconds waited."""
        person = self.person
        if person is None or not any(person.affects(t) for t in types):
            return 0.0
        return person.wait_quiet(rt.limits.step_timeout_s, stop=self.state.kill_error)

    def recheck(self, rt: PolicyRuntime, index: int, action: Action, before: Assessment, confirmed: bool) -> None:
        """Between a plan's steps: the kill state and the desktop again. Raises Stop."""
        kill = self.state.killed
        if kill is not None:
            raise Stop("kill-switch", f"kill switch: {kill.reason} (before step {index})")
        try:
            if action.type in READ_TARGET_TYPES:
                fresh = self.desktop.observe_for(action, fresh=True)  # plus what is at this step's target
            else:
                fresh = self.desktop.observe_fresh()
        except Exception as err:
            raise Stop("policy", f"cannot re-read the desktop before step {index} ({err})") from None
        if self.lines is not None:  # the line as the steps before this one left it
            fresh = self.lines.attach(fresh, moving=False)
        now = rt.gate.assess(action, fresh, None)
        if now.decision is Decision.BLOCK:
            raise Stop("policy", f"step {index} is now blocked: {now.reason}")
        if now.decision is Decision.CONFIRM and (not confirmed or not set(now.rules) <= set(before.rules)):
            raise Stop("policy", f"step {index} now needs a confirmation nobody gave: {now.reason}")

    def _check_window(self, seen: Observation, action_type: str, *, since: str, changed: str) -> None:
        """The active window must still be the one `seen` (the screen an approval was given for, or the one
        the action was judged on before the person used the desktop): re-read the desktop now."""
        try:
            fresh = self.desktop.observe_fresh()
        except Exception as err:
            log.exception("desktop.observe_fresh failed")
            raise Stop("policy", f"cannot re-read the desktop {since} ({err}); denied") from None
        if (fresh.window_title, fresh.app) != (seen.window_title, seen.app):
            raise Stop("policy", f"{changed}: {seen.app or '?'} {seen.window_title!r} → {fresh.app or '?'} "
                                 f"{fresh.window_title!r}; denied")
        if fresh.protected_active and action_type in INPUT_TYPES:
            raise Stop("policy", "a deskgate window is active; input would land in it; denied")

    def execute(self, rt: PolicyRuntime, session: Session, decision_id: int, action: Action, *,
                approved_on: Observation | None, step: int | None = None,
                observed: Observation | None = None, network: bool = False,
                writable: tuple[str, ...] = (), judged: tuple[str, ...] = (),
                new_file: bool = False) -> tuple[bool, dict[str, Any]]:
        """Wait for the turn, re-check, execute under the request's policy. Returns (ok, result). Raises Stop.
        `network`: a person or a rule let this command reach the network; `writable`: the session's
        work directories, writable inside the fence besides `fence.writable`; `judged`: the real paths the gate
        judged a file action on; `new_file`: the gate judged a write as creating a file (none is replaced)."""
        kind = action.type
        limits = rt.limits
        try:
            waited = self.await_person(rt, (kind,))
        except DeskgateError as err:
            raise Stop("kill-switch" if err.code == "killed" else "limit", err.message) from None
        if waited and approved_on is None and observed is not None:
            self._check_window(observed, kind, since="after the person used it",
                               changed="the person used the desktop meanwhile and the active window changed")
        deadline = self.clock() + limits.step_timeout_s + rt.approvals.timeout_s
        self.state.take_execution_turn(kind, deadline, limits.step_timeout_s)
        try:
            if approved_on is not None:
                self._check_window(approved_on, kind, since="after the approval",
                                   changed="the active window changed after the approval")
            self.state.last_gate()
            try:
                # a file action acts on the real path(s) the gate judged, never on a fresh resolution
                fenced = _fenced_for(rt.policy, network, writable)
                res = (self.executor.execute(action, fenced, judged=judged, new_file=new_file) if judged
                       else self.executor.execute(action, fenced))
                ok, detail, error = bool(res.ok), dict(res.detail or {}), res.error
                spawned = detail.get("pid")
                if isinstance(spawned, int) and spawned > 0:
                    # a program opened for an agent (a terminal it types into) is the agent's, with its children
                    stat = proc_stat(spawned)
                    self.state.remember_agent(spawned, stat.starttime if stat else None, scoped=False)
            except Exception as err:
                log.exception("executor failed")
                ok, detail, error = False, {}, DeskgateError("internal", f"executor failed: {err}")
        finally:
            self.state.end_execution_turn(kind)
        result = dict(detail)
        if isinstance(error, DeskgateError):
            result["error"] = error.to_dict()      # refused or could not start (sandbox_denied, timeout, ...)
        elif not ok and "error" not in result:
            result["error"] = str(error or "the action failed")  # ran and failed: the executor's own words
        data: dict[str, Any] = {"ok": ok, **result}
        if step is not None:
            data["step"] = step
        # after the fact (the action already ran): queued for the next group commit, not waited for
        self.journal.event("execution", session_id=session.id, decision_id=decision_id, data=data, durable=False)
        if not ok and session.count_error(limits):
            self.end_session(session, session.ended or "too many errors")
        return ok, result


def _fenced_for(policy: Any, network: bool, writable: tuple[str, ...]) -> Any:
    """The policy a command runs under: its fence with the network on (when granted) and the session's
    work directories writable."""
    fence = policy.fence
    extra = [d for d in writable if d not in fence.writable]
    if (not network or fence.network) and not extra:
        return policy
    import msgspec

    return msgspec.structs.replace(policy, fence=msgspec.structs.replace(
        fence, network=fence.network or network, writable=[*fence.writable, *extra]))
