"""The supervisor: sessions, limits, kill/pause state, approvals and grants around the gate (DESIGN §1–§3).

One request goes down one path, in this order (each step can end it):

    kill state → pause → session limits → observe → gate.assess → grant lookup (CONFIRM only)
    → audit.record_decision (committed BEFORE anything runs; failure → `internal`, nothing runs)
    → BLOCK: denied │ ALLOW: execute │ CONFIRM: ask the Approver (one prompt at a time), record the answer,
      re-read the desktop (the active window/app must be what the person saw) → execute
    → record the execution result and the outcome → reply

Choices made here (documented because the design left them open):

- pause (by a person, from the tray or `deskgate pause`): new `act`/`plan`/`command` requests get a
  `paused` error at once (they do not wait); `check`, `observe` and `hello` still work. Requests
  already past the pause check finish. Pause is not persisted; a kill is (`app/daemon/killstate.py`), until a
  person resumes.
- human takeover (`person`, app/desktop/takeover.py) is not a pause: while the person uses mouse or keyboard,
  pointer/keyboard actions wait (bounded by step_timeout_s, then `paused`), others are not affected.
- kill: new requests get a `killed` error. A request whose decision row is already written is
  finished as verdict `denied`, decided_by `kill-switch` (so the log and the reply agree). The kill flag
  is set under the same lock every execution takes to start, so once `kill()` returns no executor step
  starts; pending confirmations are cancelled and every grant is revoked.
- the dialog gate: while a confirmation is open (or queued), no agent action starts executing; a
  confirmation opens only once every in-flight *input* action (pointer/keyboard) has finished, so an
  agent click can never land on the dialog. Waiting for that turn is bounded by
  `step_timeout_s + approvals.timeout_s`; past it the action is denied by the limit `step_timeout_s`.
- deny-and-stop ends the session and bars the agent name from a new `hello` until a person resumes.
- `control` requests are refused on a connection that opened an agent session: an agent cannot resume
  or unpause itself through its own connection.
- `act` with execute=false and `defer`: a CONFIRM nobody has granted is recorded with verdict `deferred`
  and not put to the approver (the agent asks its own person: the Claude Code hook's default mode).
- grants: a session whose hello names a `scope` shares its grants with every session of that scope
  (app/daemon/grants.py); "Always allow this" writes an allow rule to `policy_file` and reloads the policy.
- control (SECURITY.md "uid model"): `kill` and `pause` are open to every connection (stopping is always
  allowed). Everything else only to the person's uid (the server's own), never on a connection that said
  `hello` as an agent; `resume`/`unpause` also need the person's proof (`person: "tty"`, checked against
  the requesting process by `app.daemon.person.person_refusal`). Refusals are logged (`control_refused`).
- A plan is one decision row (op `plan`, the sanitised steps) and at most one approval; before each step
  the kill state and the desktop are checked again, and a step whose fresh assessment is a BLOCK, or a
  CONFIRM the person did not see, stops the plan.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from app import config
from app.daemon.assessor import Assessor
from app.daemon.grants import Grant, GrantStore, grantable
from app.daemon.killstate import KillRecord, KillStateFile
from app.daemon.person import agent_lineage, alive, person_refusal, proc_stat
from app.daemon.sessions import PeerBudget, Session, SessionRegistry
from app.desktop.takeover import PersonActivity
from app.errors import DeskgateError
from app.ports import Answer, ApprovalRequest, Approver, Reply
from app.protocol import (
    RESUME_COMMANDS,
    STOP_COMMANDS,
    Act,
    Bye,
    Check,
    CommandReq,
    Control,
    Hello,
    Observe,
    Plan,
    Request,
)
from app.user_policy import suggest_allow_rule
from gate.engine import SafetyGate
from gate.history import History
from gate.model import Action, Assessment, Decision, Observation, action_to_dict
from gate.policy import Policy
from gate.redact import find_secrets

__all__ = ["Connection", "Supervisor"]

log = logging.getLogger("deskgate.supervisor")

# Actions that inject input events: a confirmation dialog waits until none of these is running.
INPUT_TYPES = frozenset({"click", "move", "drag", "scroll", "type", "key"})
# Actions whose target deskgate reads itself (app/desktop/pointer.py): the element clicked or dragged, the focused field
READ_TARGET_TYPES = frozenset({"click", "drag", "type"})
# How long past approvals.timeout_s an approver may take before the supervisor stops waiting for it
ASK_GRACE_S = 2.0
# decided_by values an approver's Reply.by may carry into the log as is
_REPLY_BY = frozenset({"person", "headless-rule", "session-approval", "kill-switch"})


class _Stop(Exception):
    """Ends a decided request early with verdict `denied` (kill switch, a limit, a changed desktop)."""

    def __init__(self, decided_by: str, reason: str) -> None:
        super().__init__(reason)
        self.decided_by = decided_by
        self.reason = reason


def _killed(result: dict[str, Any]) -> bool:
    """Did the kill switch end this execution (the executor's `killed` error)?"""
    err = result.get("error")
    return isinstance(err, dict) and err.get("code") == "killed"


@dataclasses.dataclass
class _Outcome:
    verdict: str
    decided_by: str
    reason: str
    result: dict[str, Any] | None = None


def plan_key(step_keys: list[str]) -> str:
    """The approval key of a whole plan: its steps' keys, in order."""
    return hashlib.sha256(("plan\x1f" + "\x1f".join(step_keys)).encode()).hexdigest()


class Supervisor:
    def __init__(self, *, gate: SafetyGate, audit: Any, desktop: Any, executor: Any, approver: Approver,
                 policy: Policy, paths: config.Paths, clock: Callable[[], float] = time.monotonic,
                 disabled: bool = False, person_uid: int | None = None,
                 person_check: Callable[[int | None, list[int]], str | None] = person_refusal) -> None:
        self.gate = gate
        self.audit = audit
        self.desktop = desktop
        self.executor = executor
        self.approver = approver
        self.policy = policy
        self.paths = paths
        self.clock = clock
        self.disabled = disabled
        self.grant_store = GrantStore(clock, idle_s=policy.limits.session_timeout_s)
        # The person's policy file ("Always allow this" writes allow rules into it) and the preset given on
        # the command line, if any: what a reload reads (app/root/runtime.build_runtime sets both).
        self.policy_file: Path = paths.policy
        self.preset_override: str | None = None
        self.sessions = SessionRegistry()
        self.peer_budget = PeerBudget()
        self.assessor = Assessor()  # big requests are assessed off the server's threads
        self.person_uid = os.geteuid() if person_uid is None else int(person_uid)
        self.person_check = person_check  # (pid, agent pids) -> why it is not the person, or None
        self._kill_file = KillStateFile(paths.kill_state)
        # One condition guards the run state and the dialog gate; kill() notifies it so waiters wake at once.
        self._cv = threading.Condition(threading.Lock())
        self._kill: KillRecord | None = self._kill_file.load()
        self._pause: tuple[str, float] | None = None
        self._asking = False        # a confirmation is open
        self._queued = 0            # confirmations waiting for their turn
        self._running_input = 0     # input actions executing now
        self._stopped_agents: set[str] = set()
        # processes known to act for an agent (pid -> start time), kept while they live: the process a
        # scoped (hook) session was started by, which is the agent itself and whose children must not pass
        # as the person once the hook's session ended, and the programs deskgate opened for an agent
        self._agent_processes: dict[int, int | None] = {}
        self._subscribers: list[Callable[[dict[str, Any]], None]] = []
        # the person's own mouse/keyboard use (app/desktop/takeover.py), set by the desktop app; None: not watched
        self.person: PersonActivity | None = None
        add_alarm = getattr(audit, "add_alarm_listener", None)
        if add_alarm is not None:  # the log went out of service (files deleted/replaced): tell the person
            add_alarm(lambda message: self._notify({"kind": "alarm", "source": "audit", "message": message}))
        if self._kill is not None:
            log.warning("starting killed (%s, by %s): a person must resume", self._kill.reason, self._kill.by)

    # -- state ----------------------------------------------------------------------------------

    @property
    def state(self) -> str:
        if self._kill is not None:
            return "killed"
        return "paused" if self._pause is not None else "active"

    def kill(self, reason: str, by: str) -> None:
        """Stop everything now: nothing further executes, pending confirmations are denied, grants end."""
        record = KillRecord(reason or "kill switch", by, time.time())
        with self._cv:
            already = self._kill is not None
            if not already:
                self._kill = record
            self._cv.notify_all()
        # Everything below is after the flag: the flag alone is what stops execution.
        try:
            self.approver.cancel_all(f"kill switch: {record.reason}")
        except Exception:
            log.exception("approver.cancel_all failed")
        cancel_running = getattr(self.executor, "cancel_all", None)
        if cancel_running is not None:  # commands already running: their process groups end now
            try:
                cancel_running()
            except Exception:
                log.exception("executor.cancel_all failed")
        revoked = self.grant_store.revoke_all()
        if already:
            return
        try:
            self._kill_file.save(record)
        except OSError as err:
            log.error("kill state could not be persisted to %s: %s (killed until this process ends)",
                      self._kill_file.path, err)
        self._event("kill", data={"reason": record.reason, "by": by, "grants_revoked": len(revoked)})
        log.warning("KILLED by %s: %s", by, record.reason)
        self._notify({"kind": "state", "state": "killed", "reason": record.reason, "by": by})

    def socket_lost(self, why: str) -> None:
        """A socket deskgate serves was deleted or replaced (the server binds it again): someone put a
        listener of their own where the person's `deskgate kill` would go. Fail closed and tell the person."""
        self.kill(f"{why}: an attack on the supervisor", "socket watch")
        self._notify({"kind": "alarm", "source": "socket", "message": f"{why}. deskgate killed itself; check "
                      "what runs as your user before you resume"})

    def resume(self, by: str) -> None:
        """Lift a kill. Raises OSError when the persisted kill cannot be removed (then it stays killed)."""
        with self._cv:
            if self._kill is None:
                return
            self._kill_file.clear()
            self._kill = None
            self._stopped_agents.clear()
            self._cv.notify_all()
        self._event("resume", data={"by": by})
        log.warning("resumed by %s", by)
        self._notify({"kind": "state", "state": self.state, "by": by})

    def pause(self, by: str) -> None:
        with self._cv:
            if self._pause is not None:
                return
            self._pause = (by, time.time())
        self._event("pause", data={"by": by})
        self._notify({"kind": "state", "state": self.state, "by": by})

    def unpause(self, by: str) -> None:
        with self._cv:
            if self._pause is None:
                return
            self._pause = None
        self._event("unpause", data={"by": by})
        self._notify({"kind": "state", "state": self.state, "by": by})

    def grants(self) -> list[Grant]:
        return self.grant_store.list()

    def set_policy(self, policy: Policy, source: str) -> None:
        """Swap the policy (the tray's "Reload policy"): requests from now on are judged by it.

        Grants were given under the old policy, so they end with it."""
        from gate import SafetyGate

        gate = SafetyGate(policy)  # built before taking the lock: a bad policy changes nothing
        with self._cv:
            self.gate, self.policy = gate, policy
            if hasattr(self.executor, "policy"):
                self.executor.policy = policy
            if hasattr(self.audit, "store_outputs"):
                self.audit.store_outputs = policy.audit.store_outputs
        revoked = self.grant_store.revoke_all()
        self.grant_store.idle_s = policy.limits.session_timeout_s
        self._event("policy", data={"preset": policy.preset, "source": source, "grants_revoked": len(revoked)})
        log.info("policy reloaded from %s (preset %s)", source, policy.preset)
        self._notify({"kind": "policy", "preset": policy.preset, "source": source})
        if revoked:
            self._notify({"kind": "grants", "count": len(self.grant_store)})

    def revoke(self, grant_id: str, by: str = "person") -> bool:
        grant = self.grant_store.revoke(grant_id)
        if grant is None:
            return False
        self._event("revoke", session_id=grant.session_id, data={"grant": grant.id, "by": by})
        self._notify({"kind": "grants", "count": len(self.grant_store)})
        return True

    def reload_policy(self, source: str = "") -> Policy:
        """Read the person's policy file again (with the command line's preset) and apply it.
        Raises PolicyError (then nothing changes)."""
        from gate import load_policy

        path = self.policy_file
        policy = load_policy(path if path.exists() else None, self.preset_override)
        self.set_policy(policy, source or (str(path) if path.exists() else "defaults"))
        return policy

    def add_allow_rule(self, rule: dict[str, Any], *, reason: str, by: str = "person") -> str:
        """Write a person's "always allow" rule into the policy file and reload. Returns the rule id.
        Raises OSError/PolicyError/ValueError when it could not be written or applied (the file is then
        unchanged: the write is atomic and checked before it replaces the old file)."""
        from app.user_policy import add_allow_rule

        rule_id = add_allow_rule(self.policy_file, rule, reason=reason)
        self.reload_policy(f"{self.policy_file} (allow rule {rule_id} added by {by})")
        self._event("rule", data={"op": "add", "rule": rule_id, "by": by})
        return rule_id

    def status(self) -> dict[str, Any]:
        now = self.clock()
        kill, pause = self._kill, self._pause
        out: dict[str, Any] = {"state": self.state, "policy": self.policy.preset}
        if kill is not None:
            out.update(reason=kill.reason, by=kill.by, since=kill.at)
        elif pause is not None:
            out.update(by=pause[0], since=pause[1])
        out["sessions"] = [s.to_dict(now) for s in self.sessions.active()]
        out["grants"] = [g.to_dict(now) for g in self.grant_store.list()]
        out["asking"] = self._asking
        out["queued"] = self._queued
        alarm = getattr(self.audit, "out_of_service", None)
        if isinstance(alarm, str):
            out["audit_alarm"] = alarm  # nothing runs until deskgate restarts on a sound log
        return out

    def subscribe(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """`callback(event)` for state, decision, prompt, session and grant changes (from worker threads)."""
        self._subscribers.append(callback)

    def connect(self, peer: Any) -> Connection:
        return Connection(self, peer)

    def connect_control(self, peer: Any) -> Connection:
        """A connection on the person's control socket: control requests only."""
        return Connection(self, peer, control_only=True)

    def peer_refused(self, peer: Any) -> None:
        """The server turned away a connection from another user: worth a line in the log."""
        data = {"pid": getattr(peer, "pid", None), "uid": getattr(peer, "uid", None)}
        log.warning("refused a connection from pid %s uid %s", data["pid"], data["uid"])
        self._event("peer_refused", data=data)

    def close(self, reason: str = "deskgate stopping") -> None:
        """Shut down: deny whatever is pending, end every session."""
        try:
            self.approver.cancel_all(reason)
        except Exception:
            log.exception("approver.cancel_all failed")
        for session in self.sessions.active():
            self._end_session(session, reason)
        self.assessor.close()

    # -- helpers --------------------------------------------------------------------------------

    def _notify(self, event: dict[str, Any]) -> None:
        for callback in list(self._subscribers):
            try:
                callback(event)
            except Exception:
                log.exception("subscriber failed on %s", event.get("kind"))

    def _event(self, kind: str, *, session_id: int | None = None, decision_id: int | None = None,
               data: dict[str, Any] | None = None, durable: bool = True) -> bool:
        """Record an event; False (and a log line) when the audit log cannot take it."""
        try:
            self.audit.record_event(kind, session_id=session_id, decision_id=decision_id, data=data,
                                    durable=durable)
            return True
        except Exception as err:
            log.error("audit event %r not recorded: %s", kind, err)
            return False

    def _check_running(self, *, allow_paused: bool = False) -> None:
        kill = self._kill
        if kill is not None:
            raise DeskgateError("killed", f"deskgate was killed by {kill.by}: {kill.reason}; nothing runs until "
                                          "a person resumes (`deskgate resume`)")
        pause = self._pause
        if pause is not None and not allow_paused:
            raise DeskgateError("paused", f"deskgate is paused by {pause[0]}; retry after it is unpaused")

    def _await_person(self, types: Any) -> float:
        """Human takeover: pointer/keyboard actions wait while the person uses the desktop (bounded by
        step_timeout_s, then `paused`); other actions never wait. Returns the seconds waited."""
        person = self.person
        if person is None or not any(person.affects(t) for t in types):
            return 0.0

        def killed() -> DeskgateError | None:
            kill = self._kill
            return None if kill is None else DeskgateError("killed", f"deskgate was killed by {kill.by}: "
                                                                     f"{kill.reason}")

        return person.wait_quiet(self.policy.limits.step_timeout_s, stop=killed)

    def _turn_deadline(self) -> float:
        return self.clock() + self.policy.limits.step_timeout_s + self.policy.approvals.timeout_s

    def _wait(self, ready: Callable[[], bool], deadline: float, what: str) -> None:
        """Wait on the condition (held by the caller) until ready(); kill or the deadline raise _Stop.

        Waits in short real-time slices so an injected clock that jumps ahead is noticed."""
        while True:
            kill = self._kill
            if kill is not None:
                raise _Stop("kill-switch", f"kill switch: {kill.reason}")
            if ready():
                return
            remaining = deadline - self.clock()
            if remaining <= 0:
                raise _Stop("limit", f"step timeout: waited too long for {what} (limit step_timeout_s="
                                     f"{self.policy.limits.step_timeout_s})")
            self._cv.wait(min(remaining, 0.05))

    def _observe(self, action: Action | None = None) -> Observation:
        """The desktop now; for an action, also what deskgate reads at its target (app/desktop/pointer.py)."""
        try:
            if action is not None and hasattr(self.desktop, "observe_for"):
                return self.desktop.observe_for(action)
            return self.desktop.observe()
        except Exception as err:
            log.exception("desktop.observe failed")
            raise DeskgateError("internal", f"cannot read the desktop: {err}; nothing was executed") from None

    def _check_limits(self, session: Session, steps: int) -> None:
        limits, now = self.policy.limits, self.clock()
        try:
            # the peer's budget first: new connections and new agent names do not reset it
            self.peer_budget.check(session.process, session.uid, limits, now, steps)
            session.check_limits(limits, now, steps)
            self.peer_budget.charge(session.process, session.uid, now, steps)
        except DeskgateError as err:
            # a refusal by a limit is worth a line in the log: it is a person's evidence of a runaway agent.
            # Queued for the next group commit, not one fsync each: a refusal flood must not become an I/O one.
            self._event("error", session_id=session.id, data={"code": err.code, "message": err.message},
                        durable=False)
            if session.ended is not None:
                self._end_session(session, session.ended, session.ended_code)
            raise

    def _end_session(self, session: Session, reason: str, code: str = "limit") -> None:
        session.end(reason, code)
        if not self.sessions.remove(session):
            return
        revoked = self.grant_store.revoke_session(session.id)
        try:
            self.audit.close_session(session.id, reason)
        except Exception as err:
            log.error("session %d close not recorded: %s", session.id, err)
        self._notify({"kind": "session", "event": "closed", "session": session.id, "agent": session.agent,
                      "reason": reason})
        if revoked:
            self._notify({"kind": "grants", "count": len(self.grant_store)})

    @staticmethod
    def _with_expect(session: Session, action: Action) -> Action:
        # the session's `expect` from hello applies to every action that does not say otherwise
        if session.expect is not None and action.expect is None:
            return msgspec.structs.replace(action, expect=session.expect)
        return action

    def _record_decision(self, session: Session, request_id: str, op: str, action: dict[str, Any],
                         assessment: Assessment, observation: Observation, key: str, execute: bool) -> int:
        try:
            return self.audit.record_decision(
                session_id=session.id, agent=session.agent, request_id=request_id, op=op, action=action,
                assessment=assessment, observation=observation, approval_key=key, execute=execute)
        except Exception as err:
            log.error("decision not recorded: %s", err)
            raise DeskgateError("internal", f"audit log unwritable: {err} — nothing was executed") from None

    def _finish(self, session: Session, decision_id: int, op: str, action_type: str, assessment: Assessment,
                outcome: _Outcome, started: float, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        elapsed = (self.clock() - started) * 1000.0
        reply: dict[str, Any] = {
            "verdict": outcome.verdict, "decision": assessment.decision.value, "decided_by": outcome.decided_by,
            "reason": outcome.reason, "rules": list(assessment.rules), "risk": assessment.risk.label,
            "audit_id": decision_id, "elapsed_ms": round(elapsed, 3),
        }
        if outcome.result is not None:
            reply["result"] = outcome.result
        if extra:
            reply.update(extra)
        try:
            # Queued, not waited for: the decision row was durable before anything ran; waiting here
            # would only add an fsync to every reply (the throughput target counts durable decisions).
            self.audit.record_outcome(decision_id, verdict=outcome.verdict, decided_by=outcome.decided_by,
                                      reason=outcome.reason, elapsed_ms=elapsed, durable=False)
        except Exception as err:
            # The decision row exists; only its outcome is missing. The reply must still tell the truth.
            log.error("outcome of decision %d not recorded: %s", decision_id, err)
            reply["warning"] = f"audit log unwritable, outcome not recorded: {err}"
        self._notify({"kind": "decision", "audit_id": decision_id, "session": session.id, "agent": session.agent,
                      "op": op, "type": action_type, "verdict": outcome.verdict,
                      "decision": assessment.decision.value, "decided_by": outcome.decided_by,
                      "reason": outcome.reason, "rules": list(assessment.rules), "risk": assessment.risk.label})
        return reply

    # -- asking a person ------------------------------------------------------------------------

    def _ask(self, session: Session, request_id: str, decision_id: int, shown: dict[str, Any],
             assessment: Assessment, observation: Observation, preview_action: Action | None, intent: str,
             plan: tuple[tuple[dict[str, Any], Assessment], ...] = (), grantable: bool = True) -> Reply:
        """One confirmation, when it is this request's turn. Raises _Stop (kill, turn timeout)."""
        deadline = self._turn_deadline()
        with self._cv:
            self._queued += 1
            try:
                self._wait(lambda: not self._asking and self._running_input == 0, deadline,
                           "another confirmation to close")
            finally:
                self._queued -= 1
            self._asking = True
            behind = self._queued
        try:
            preview_png = preview_box = None
            if preview_action is not None:
                try:
                    shot = self.desktop.preview(preview_action)
                except Exception:
                    log.exception("preview failed")  # a preview is an aid: the person is asked without one
                    shot = None
                if shot is not None:
                    preview_png, preview_box = shot
                    try:
                        self.audit.add_preview(decision_id, preview_png)
                    except Exception as err:
                        log.error("preview of decision %d not stored: %s", decision_id, err)
            timeout = self.policy.approvals.timeout_s
            request = ApprovalRequest(
                request_id=request_id, agent=session.agent, session_id=session.id, action=shown,
                assessment=assessment, observation=observation, intent=intent, preview_png=preview_png,
                preview_box=preview_box, plan=plan, queued=behind, timeout_s=timeout, grantable=grantable,
                allow_rule=None if plan else suggest_allow_rule(shown, observation, assessment, self.policy))
            self._notify({"kind": "prompt", "open": True, "agent": session.agent, "audit_id": decision_id,
                          "queued": behind})
            reply = self._ask_bounded(request, timeout)
        finally:
            with self._cv:
                self._asking = False
                self._cv.notify_all()
            self._notify({"kind": "prompt", "open": False, "audit_id": decision_id})
        return reply

    def _ask_bounded(self, request: ApprovalRequest, timeout: float) -> Reply:
        """approver.ask, but never longer than its timeout plus a grace: an approver whose UI is stuck
        must not hold this request, and the dialog gate every other agent waits on, forever.
        A late answer is dropped (fail closed)."""
        box: list[Reply | BaseException] = []
        done = threading.Event()

        def call() -> None:
            try:
                box.append(self.approver.ask(request, timeout))
            except BaseException as err:
                box.append(err)
            finally:
                done.set()

        threading.Thread(target=call, name=f"deskgate-ask-{request.request_id}", daemon=True).start()
        if not done.wait(timeout + ASK_GRACE_S):
            log.error("approver did not answer within %.1f s; denied", timeout + ASK_GRACE_S)
            return Reply(Answer.TIMEOUT, by="timeout", note=f"the approver did not answer within {timeout:g} s")
        reply = box[0]
        if isinstance(reply, Reply):
            return reply
        if isinstance(reply, BaseException):
            log.error("approver failed", exc_info=reply)
            return Reply(Answer.DENY, by="headless-rule", note=f"approver failed: {reply}")
        log.error("approver returned %s", type(reply).__name__)
        return Reply(Answer.DENY, by="headless-rule", note=f"approver failed: it returned {type(reply).__name__}")

    def _answer(self, session: Session, decision_id: int, reply: Reply, assessment: Assessment) -> _Outcome | None:
        """Record the answer; the denial outcome, or None when approved (and then maybe a grant)."""
        kill = self._kill
        by = reply.by if reply.by in _REPLY_BY else "person"
        if kill is not None:
            by = "kill-switch"
        data = {"answer": reply.answer.value, "by": reply.by, "note": reply.note}
        try:
            self.audit.record_event("answer", session_id=session.id, decision_id=decision_id, data=data)
        except Exception as err:
            log.error("answer to decision %d not recorded: %s", decision_id, err)
            raise DeskgateError("internal", f"audit log unwritable: {err} — nothing was executed") from None
        if reply.by == "person" and reply.answer is not Answer.TIMEOUT:
            session.history.record_answer(reply.answer.approved)
        if kill is not None:
            return _Outcome("denied", "kill-switch", f"kill switch: {kill.reason}")
        if reply.answer is Answer.TIMEOUT:
            return _Outcome("denied", by, f"{assessment.reason}; nobody answered within "
                                          f"{self.policy.approvals.timeout_s:g} s (no answer denies)")
        if not reply.answer.approved:
            note = f": {reply.note}" if reply.note else ""
            reason = f"{assessment.reason}; denied by {by}{note}"
            if reply.answer is Answer.DENY_AND_STOP:
                self._stopped_agents.add(session.agent)
                self._end_session(session, f"stopped by {by} (deny and stop)", code="killed")
                reason = f"{assessment.reason}; denied by {by}, and the agent was stopped"
            return _Outcome("denied", by, reason)
        return None

    def _grant(self, session: Session, reply: Reply, decision_id: int, key: str, observation: Observation,
               summary: str, action_type: str = "plan") -> None:
        if reply.by != "person":
            return  # only a person's answer creates a standing approval
        grant = self.grant_store.add(reply.answer, key=key, session_id=session.id, agent=session.agent,
                                     app=observation.app, window=observation.window_title, summary=summary,
                                     minutes=self.policy.approvals.grant_minutes, scope=session.scope,
                                     action_type=action_type)
        if grant is not None:
            self._event("grant", session_id=session.id, decision_id=decision_id,
                        data={"grant": grant.id, "answer": reply.answer.value, "app": grant.app,
                              "window": grant.window, "expires_in_s": grant.to_dict(grant.created)["expires_in_s"]})
            self._notify({"kind": "grants", "count": len(self.grant_store)})

    def _always_allow(self, session: Session, decision_id: int, shown: dict[str, Any], observation: Observation,
                      assessment: Assessment, reply: Reply) -> None:
        """A person chose "Always allow this": the action runs (approved), and the narrow rule the dialog
        showed goes into the policy file. A rule that cannot be written is logged and reported; the
        approval of this one action stands."""
        if reply.by != "person":
            return
        rule = suggest_allow_rule(shown, observation, assessment, self.policy)
        if rule is None:
            return
        try:
            rule_id = self.add_allow_rule(rule, reason=f"{session.agent}: {_summary(shown)}")
        except Exception as err:
            log.error("allow rule not written: %s", err)
            self._event("error", session_id=session.id, decision_id=decision_id,
                        data={"code": "internal", "message": f"allow rule not written: {err}"})
            self._notify({"kind": "rule", "ok": False, "error": str(err)})
            return
        self._notify({"kind": "rule", "ok": True, "rule": rule_id})

    def _check_still_shown(self, shown: Observation, action_type: str) -> None:
        """An approval is bound to the screen it was given for: re-read the desktop now."""
        try:
            fresh = self.desktop.observe_fresh()
        except Exception as err:
            log.exception("desktop.observe_fresh failed")
            raise _Stop("policy", f"cannot re-read the desktop after the approval ({err}); denied") from None
        if (fresh.window_title, fresh.app) != (shown.window_title, shown.app):
            raise _Stop("policy", f"the active window changed after the approval: "
                                  f"{shown.app or '?'} {shown.window_title!r} → {fresh.app or '?'} "
                                  f"{fresh.window_title!r}; denied")
        if fresh.protected_active and action_type in INPUT_TYPES:
            raise _Stop("policy", "a deskgate window is active; input would land in it; denied")

    def _check_unchanged(self, observed: Observation, action_type: str) -> None:
        """After waiting for the person: the active window must still be the one the action was judged on."""
        try:
            fresh = self.desktop.observe_fresh()
        except Exception as err:
            raise _Stop("policy", f"cannot re-read the desktop after the person used it ({err}); denied") from None
        if (fresh.window_title, fresh.app) != (observed.window_title, observed.app):
            raise _Stop("policy", f"the person used the desktop meanwhile and the active window changed: "
                                  f"{observed.app or '?'} {observed.window_title!r} → {fresh.app or '?'} "
                                  f"{fresh.window_title!r}; denied")
        if fresh.protected_active and action_type in INPUT_TYPES:
            raise _Stop("policy", "a deskgate window is active; input would land in it; denied")

    # -- executing ------------------------------------------------------------------------------

    def _execute(self, session: Session, decision_id: int, action: Action, *, approved_on: Observation | None,
                 step: int | None = None, observed: Observation | None = None) -> tuple[bool, dict[str, Any]]:
        """Wait for the turn, re-check, execute. Returns (ok, result). Raises _Stop."""
        kind = action.type
        try:
            waited = self._await_person((kind,))
        except DeskgateError as err:
            raise _Stop("kill-switch" if err.code == "killed" else "limit", err.message) from None
        if waited and approved_on is None and observed is not None:
            self._check_unchanged(observed, kind)
        deadline = self._turn_deadline()
        with self._cv:
            self._wait(lambda: not self._asking and self._queued == 0, deadline, "a confirmation dialog to close")
            if kind in INPUT_TYPES:
                self._running_input += 1
        try:
            if approved_on is not None:
                self._check_still_shown(approved_on, kind)
            with self._cv:
                # the last gate before the executor: kill() sets this flag under the same lock
                kill = self._kill
                if kill is not None:
                    raise _Stop("kill-switch", f"kill switch: {kill.reason}")
            try:
                res = self.executor.execute(action)
                ok, detail, error = bool(res.ok), dict(res.detail or {}), res.error
                spawned = detail.get("pid")
                if isinstance(spawned, int) and spawned > 0:
                    # a program opened for an agent (a terminal it types into) is the agent's, with its children
                    stat = proc_stat(spawned)
                    self._remember_agent(spawned, stat.starttime if stat else None, scoped=False)
            except Exception as err:
                log.exception("executor failed")
                ok, detail, error = False, {}, DeskgateError("internal", f"executor failed: {err}")
        finally:
            if kind in INPUT_TYPES:
                with self._cv:
                    self._running_input -= 1
                    self._cv.notify_all()
        result = dict(detail)
        if isinstance(error, DeskgateError):
            result["error"] = error.to_dict()      # refused or could not start (sandbox_denied, timeout, ...)
        elif not ok and "error" not in result:
            result["error"] = str(error or "the action failed")  # ran and failed: the executor's own words
        data: dict[str, Any] = {"ok": ok, **result}
        if step is not None:
            data["step"] = step
        # after the fact (the action already ran): queued for the next group commit, not waited for
        self._event("execution", session_id=session.id, decision_id=decision_id, data=data, durable=False)
        if not ok and session.count_error(self.policy.limits):
            self._end_session(session, session.ended or "too many errors")
        return ok, result

    # -- operations -----------------------------------------------------------------------------

    def hello(self, conn: Connection, req: Hello) -> dict[str, Any]:
        if conn.session is not None and conn.session.ended is None:
            raise DeskgateError("bad_request", f"this connection already has session {conn.session.id}")
        if self.disabled or config.disabled_by_env():
            raise DeskgateError("disabled", "deskgate is disabled (DESKGATE_DISABLED or the configuration); "
                                            "no agent session can start")
        self._check_running(allow_paused=True)
        if find_secrets(req.agent):
            # the name is stored as given, on the session and every decision: never a credential there
            raise DeskgateError("bad_request", "the agent name holds what looks like a secret (a token or key); "
                                               "name the agent, not a credential. No session was opened")
        if req.agent in self._stopped_agents:
            raise DeskgateError("killed", f"agent {req.agent!r} was stopped by a person; it can start again "
                                          "after `deskgate resume`")
        limits = self.policy.limits
        now = self.clock()
        self.sessions.reserve(req.agent, limits, now)
        try:
            expect = msgspec.to_builtins(req.expect) if req.expect is not None else None
            peer = conn.peer
            try:
                sid = self.audit.open_session(req.agent, pid=getattr(peer, "pid", None),
                                              uid=getattr(peer, "uid", None), expect=expect)
            except Exception as err:
                log.error("session not recorded: %s", err)
                raise DeskgateError("internal", f"audit log unwritable: {err}; no session opened") from None
        except BaseException:
            self.sessions.release_name(req.agent)
            raise
        pid = getattr(peer, "pid", None)
        stat = proc_stat(pid) if pid else None  # start time too: a reused pid is another process
        session = Session(id=sid, agent=req.agent, pid=pid, uid=getattr(peer, "uid", None),
                          expect=req.expect, started=now, scope=req.scope,
                          process=(pid, stat.starttime if stat else None))
        self.sessions.attach(session)
        conn.session = session
        if req.scope is not None:
            self._remember_agent(pid, stat.starttime if stat else None, scoped=True)
        self._notify({"kind": "session", "event": "opened", "session": sid, "agent": req.agent})
        return {"v": 1, "session": sid, "state": self.state, "policy": self.policy.preset,
                "limits": msgspec.to_builtins(limits)}

    def act(self, session: Session, req: Act) -> dict[str, Any]:
        started = self.clock()
        self._check_running()
        self._check_limits(session, 1)
        self._await_person((req.action.type,))
        action = self._with_expect(session, req.action)
        observation = self._observe(action)
        # assessment, approval key (secrets only as digests; the key a grant is given for) and the sanitised
        # action a person (and the tray) sees: in the worker process when the action is big
        assessment, key, shown = self.assessor.decide_one(self.gate, action, observation, session.history,
                                                          self.policy.limits.step_timeout_s)
        action_dict = action_to_dict(action)
        grant = None
        if assessment.decision is not Decision.CONFIRM:
            shown = {}
        else:
            grant = self.grant_store.find(key, session_id=session.id, app=observation.app,
                                          window=observation.window_title, scope=session.scope)
        decision_id = self._record_decision(session, req.id, "act", action_dict, assessment, observation, key,
                                            req.execute)
        try:
            outcome = self._act_decided(session, req, action, decision_id, assessment, observation, shown, key,
                                        grant)
        except _Stop as stop:
            outcome = _Outcome("denied", stop.decided_by, stop.reason)
        return self._finish(session, decision_id, "act", action.type, assessment, outcome, started)

    def _act_decided(self, session: Session, req: Act, action: Action, decision_id: int, assessment: Assessment,
                     observation: Observation, shown: dict[str, Any], key: str, grant: Grant | None) -> _Outcome:
        decided_by = "policy"
        approved_on: Observation | None = None
        reply: Reply | None = None
        if assessment.decision is Decision.BLOCK:
            return _Outcome("denied", "policy", assessment.reason)
        kill = self._kill
        if kill is not None:  # killed while this request was being assessed: not even "allowed"
            return _Outcome("denied", "kill-switch", f"kill switch: {kill.reason}")
        if assessment.decision is Decision.CONFIRM:
            if grant is not None:
                decided_by = "session-approval"
                self._event("answer", session_id=session.id, decision_id=decision_id,
                            data={"answer": "grant", "by": "session-approval", "grant": grant.id})
            elif req.defer:  # the agent asks its own person (Claude Code's prompt); deskgate only records
                return _Outcome("deferred", "policy", f"{assessment.reason}; left to the agent's own prompt")
            else:
                reply = self._ask(session, req.id, decision_id, shown, assessment, observation, action,
                                  action.note or "", grantable=grantable(scope=session.scope, execute=req.execute))
                denied = self._answer(session, decision_id, reply, assessment)
                if denied is not None:
                    return denied
                decided_by = reply.by if reply.by in _REPLY_BY else "person"
                approved_on = observation
                if reply.answer is Answer.ALWAYS_ALLOW:
                    self._always_allow(session, decision_id, shown, observation, assessment, reply)
        if not req.execute:
            if reply is not None:
                self._grant(session, reply, decision_id, key, observation, _summary(shown), action.type)
            return _Outcome("allowed", decided_by, assessment.reason)
        # raises _Stop when the window changed since the approval: then no grant either
        ok, result = self._execute(session, decision_id, action, approved_on=approved_on, observed=observation)
        if reply is not None:
            self._grant(session, reply, decision_id, key, observation, _summary(shown), action.type)
        if _killed(result):
            return _Outcome("killed", "kill-switch", "the kill switch ended the running action", result)
        return _Outcome("executed" if ok else "error", decided_by, assessment.reason, result)

    def check(self, session: Session, req: Check) -> dict[str, Any]:
        self._check_running(allow_paused=True)
        action = self._with_expect(session, req.action)
        # the session's history, read-only: a check must not count toward loop detection
        assessment = self.assessor.assess(self.gate, action, self._observe(action), _ReadOnlyHistory(session.history),
                                          self.policy.limits.step_timeout_s)
        return assessment.to_dict()

    def check_without_session(self, req: Check) -> dict[str, Any]:
        """A `check` before any `hello` (e.g. a hook process per tool call): the gate's answer with no
        session history. Nothing runs and nothing is recorded, as for a check inside a session."""
        self._check_running(allow_paused=True)
        return self.assessor.assess(self.gate, req.action, self._observe(req.action), None,
                                    self.policy.limits.step_timeout_s).to_dict()

    def observe(self, session: Session, req: Observe) -> dict[str, Any]:
        self._check_running(allow_paused=True)
        return msgspec.to_builtins(self._observe())

    def plan(self, session: Session, req: Plan) -> dict[str, Any]:
        started = self.clock()
        self._check_running()
        self._check_limits(session, len(req.actions))
        self._await_person({a.type for a in req.actions})
        actions = [self._with_expect(session, a) for a in req.actions]
        observation = self._observe()
        pa, step_keys, shown_steps = self.assessor.decide_plan(self.gate, actions, observation, session.history,
                                                               self.policy.limits.step_timeout_s)
        assessment = pa.assessment
        key = plan_key(step_keys)
        shown = {"type": "plan", "steps": shown_steps}
        grant = None
        if assessment.decision is Decision.CONFIRM:
            grant = self.grant_store.find(key, session_id=session.id, app=observation.app,
                                          window=observation.window_title, scope=session.scope)
        # the steps are sanitised here already: one plan row may hold several redacted fields
        decision_id = self._record_decision(session, req.id, "plan", shown, assessment, observation, key,
                                            req.execute)
        steps: list[dict[str, Any]] = [
            {"index": i, "type": a.type, **s.to_dict(), "verdict": "not_run"}
            for i, (a, s) in enumerate(zip(actions, pa.steps, strict=True))]
        try:
            outcome = self._plan_decided(session, req, actions, pa.steps, decision_id, assessment, observation,
                                         shown, shown_steps, key, grant, steps)
        except _Stop as stop:
            outcome = _Outcome("denied", stop.decided_by, stop.reason)
        return self._finish(session, decision_id, "plan", "plan", assessment, outcome, started, {"steps": steps})

    def _plan_decided(self, session: Session, req: Plan, actions: list[Action], step_assessments: tuple,
                      decision_id: int, assessment: Assessment, observation: Observation, shown: dict[str, Any],
                      shown_steps: list[dict[str, Any]], key: str, grant: Grant | None,
                      steps: list[dict[str, Any]]) -> _Outcome:
        decided_by = "policy"
        approved_on: Observation | None = None
        reply: Reply | None = None
        summary = f"plan of {len(actions)} steps"
        if assessment.decision is Decision.BLOCK:
            return _Outcome("denied", "policy", assessment.reason)
        kill = self._kill
        if kill is not None:  # killed while this plan was being assessed
            return _Outcome("denied", "kill-switch", f"kill switch: {kill.reason}")
        confirmed = assessment.decision is Decision.CONFIRM
        if confirmed:
            if grant is not None:
                decided_by = "session-approval"
                self._event("answer", session_id=session.id, decision_id=decision_id,
                            data={"answer": "grant", "by": "session-approval", "grant": grant.id})
            else:
                first_input = next((a for a in actions if a.type in INPUT_TYPES), actions[0])
                reply = self._ask(session, req.id, decision_id, shown, assessment, observation, first_input,
                                  "; ".join(a.note for a in actions if a.note),
                                  plan=tuple(zip(shown_steps, step_assessments, strict=True)),
                                  grantable=grantable(scope=session.scope, execute=req.execute))
                denied = self._answer(session, decision_id, reply, assessment)
                if denied is not None:
                    return denied
                decided_by = reply.by if reply.by in _REPLY_BY else "person"
                approved_on = observation
        if not req.execute:
            if reply is not None:
                self._grant(session, reply, decision_id, key, observation, summary)
            for s in steps:
                s["verdict"] = "allowed"
            return _Outcome("allowed", decided_by, assessment.reason)
        for i, action in enumerate(actions):
            # step 0 too when deskgate reads its target: the plan was judged before anything was read
            if i > 0 or action.type in READ_TARGET_TYPES:
                self._recheck_step(i, action, step_assessments[i], confirmed)
            ok, result = self._execute(session, decision_id, action,
                                       approved_on=approved_on if i == 0 else None, step=i)
            if i == 0 and reply is not None:
                self._grant(session, reply, decision_id, key, observation, summary)
            steps[i]["verdict"] = "executed" if ok else "killed" if _killed(result) else "error"
            steps[i]["result"] = result
            if _killed(result):
                return _Outcome("killed", "kill-switch", f"the kill switch ended step {i}", {"completed": i})
            if not ok:
                err = result.get("error")
                message = err.get("message", "") if isinstance(err, dict) else str(err or "")
                return _Outcome("error", decided_by, f"step {i} failed: {message}", {"completed": i})
        return _Outcome("executed", decided_by, assessment.reason, {"completed": len(actions)})

    def _recheck_step(self, index: int, action: Action, before: Assessment, confirmed: bool) -> None:
        """Between steps: the kill state and the desktop again. Raises _Stop."""
        kill = self._kill
        if kill is not None:
            raise _Stop("kill-switch", f"kill switch: {kill.reason} (before step {index})")
        try:
            if action.type in READ_TARGET_TYPES and hasattr(self.desktop, "observe_for"):
                fresh = self.desktop.observe_for(action, fresh=True)  # plus what is at this step's target
            else:
                fresh = self.desktop.observe_fresh()
        except Exception as err:
            raise _Stop("policy", f"cannot re-read the desktop before step {index} ({err})") from None
        now = self.gate.assess(action, fresh, None)
        if now.decision is Decision.BLOCK:
            raise _Stop("policy", f"step {index} is now blocked: {now.reason}")
        if now.decision is Decision.CONFIRM and (not confirmed or not set(now.rules) <= set(before.rules)):
            raise _Stop("policy", f"step {index} now needs a confirmation nobody gave: {now.reason}")

    def command(self, session: Session, req: CommandReq) -> dict[str, Any]:
        """A simple command in plain words (gate/commands.py) → a plan, judged and run exactly like a `plan`
        request (same gate, limits, audit row, approval). Not understood → `bad_request` listing the forms
        that are; nothing is guessed and nothing runs. The reply adds `command`: the text and its plan."""
        from gate.commands import CommandError, parse_command  # imported here: this method owns the feature

        self._check_running()
        try:
            actions = parse_command(req.text)
        except CommandError as err:
            raise DeskgateError("bad_request", str(err)) from None
        reply = self.plan(session, Plan(v=req.v, id=req.id, actions=list(actions), execute=req.execute))
        reply["command"] = {"text": req.text, "plan": [action_to_dict(a) for a in actions]}
        return reply

    def control(self, conn: Connection, req: Control) -> dict[str, Any]:
        peer = conn.peer
        by = f"command line (pid {getattr(peer, 'pid', '?')})"
        if conn.agent_seen:
            by = f"agent connection (pid {getattr(peer, 'pid', '?')})"
        refusal = self._control_refusal(conn, req)
        if refusal is not None:
            self._event("control_refused", durable=False, data={
                "command": req.command, "pid": getattr(peer, "pid", None), "uid": getattr(peer, "uid", None),
                "agent": conn.session.agent if conn.session is not None else None, "reason": refusal})
            log.warning("refused control %r from pid %s uid %s: %s", req.command, getattr(peer, "pid", None),
                        getattr(peer, "uid", None), refusal)
            raise DeskgateError("unauthorized", refusal)
        command = req.command
        if command == "kill":
            self.kill(req.reason or "kill from the command line", by)
        elif command == "resume":
            try:
                self.resume(by)
            except OSError as err:
                raise DeskgateError("internal", f"cannot clear the persisted kill state: {err}; still killed") \
                    from None
        elif command == "pause":
            self.pause(by)
        elif command == "unpause":
            self.unpause(by)
        elif command == "grants":
            now = self.clock()
            return {"grants": [g.to_dict(now) for g in self.grant_store.list()]}
        elif command == "revoke":
            if not self.revoke(req.grant or "", by):
                raise DeskgateError("bad_request", f"no active grant {req.grant!r}")
            return {"revoked": req.grant}
        elif command != "status":  # the protocol admits only known commands; never answer "ok" to another
            raise DeskgateError("bad_request", f"unknown control command {command!r}")
        return self.status()

    def _control_refusal(self, conn: Connection, req: Control) -> str | None:
        """Why this connection may not send this control command (None: it may)."""
        command = req.command
        if command in STOP_COMMANDS:
            return None  # stopping is always allowed, to anyone connected
        uid = getattr(conn.peer, "uid", None)
        if uid != self.person_uid:
            return (f"only the person's uid ({self.person_uid}) may send {command!r}; uid {uid} may only "
                    "`kill` or `pause`")
        if conn.agent_seen:
            return (f"{command!r} is refused on a connection that opened an agent session; agents may only "
                    "`kill` or `pause`. A person resumes from the tray or with `deskgate resume` in a terminal")
        if command not in RESUME_COMMANDS:
            return None
        if req.person != "tty":
            return (f"{command!r} needs the person: use the tray, or run `deskgate {command}` in a terminal and "
                    "answer its prompt")
        agent_pids = [s.pid for s in self.sessions.active() if s.pid] + self._remembered_agents()
        why = self.person_check(getattr(conn.peer, "pid", None), agent_pids)
        if why is not None:
            return (f"{command!r} needs the person at a terminal no agent holds ({why}); use the tray or run "
                    f"`deskgate {command}` yourself in a terminal")
        return None


    def _remember_agent(self, pid: int | None, starttime: int | None, *, scoped: bool) -> None:
        if not pid:
            return
        # a scoped session is a hook's: the agent is the process that ran it (through any `sh -c`). An
        # unscoped session's own process is not kept once it ends: it may be a person's tool or test harness
        found = agent_lineage(pid) if scoped else [(pid, starttime)]
        with self._cv:
            for p, start in found:
                self._agent_processes[p] = start
            if len(self._agent_processes) > 512:  # bounded: the dead go first
                for p, start in list(self._agent_processes.items()):
                    if not alive(p, start):
                        del self._agent_processes[p]

    def _remembered_agents(self) -> list[int]:
        with self._cv:
            known = list(self._agent_processes.items())
        live = [p for p, start in known if alive(p, start)]
        with self._cv:
            for p, start in known:
                if p not in live and self._agent_processes.get(p) == start:
                    del self._agent_processes[p]
        return live


class _ReadOnlyHistory:
    """A session's History as the gate reads it, with recording turned off (for `check`)."""

    def __init__(self, history: History) -> None:
        self._history = history

    def seen(self, key: str) -> int:
        return self._history.seen(key)

    @property
    def recent_rejections(self) -> int:
        return self._history.recent_rejections

    @property
    def steps(self) -> int:
        return self._history.steps

    def record(self, key: str, assessment: Assessment) -> None:
        pass

    def record_answer(self, approved: bool) -> None:
        pass


def _summary(shown: dict[str, Any]) -> str:
    fields = ", ".join(f"{k}={v!r}" for k, v in shown.items() if k not in ("type", "note", "confidence"))
    return f"{shown.get('type')} {fields}"


class Connection:
    """One client connection. Requests on it are handled one at a time, in order (the server's contract)."""

    def __init__(self, supervisor: Supervisor, peer: Any, *, control_only: bool = False) -> None:
        self.supervisor = supervisor
        self.peer = peer
        self.session: Session | None = None
        self.agent_seen = False        # said hello as an agent once: never a person's connection again
        self.control_only = control_only  # on the control socket: control requests only

    def handle(self, request: Request) -> dict[str, Any]:
        sup = self.supervisor
        if isinstance(request, Control):
            return sup.control(self, request)
        if self.control_only:
            raise DeskgateError("unknown_op", "the control socket takes `control` requests only; agents use "
                                              "the agent socket")
        if isinstance(request, Hello):
            self.agent_seen = True
            return sup.hello(self, request)
        session = self.session
        if session is None:
            if isinstance(request, Check):  # assess only: nothing runs, no state, so no session is needed
                return sup.check_without_session(request)
            raise DeskgateError("bad_request", "the first request must be `hello` (or a `check`)")
        if isinstance(request, Bye):
            sup._end_session(session, "bye")
            self.session = None
            return {"session": session.id, "closed": True}
        if session.ended is not None and not isinstance(request, Check | Observe):
            raise DeskgateError(session.ended_code, f"session {session.id} has ended: {session.ended}")
        if isinstance(request, Act):
            return sup.act(session, request)
        if isinstance(request, Plan):
            return sup.plan(session, request)
        if isinstance(request, Check):
            return sup.check(session, request)
        if isinstance(request, Observe):
            return sup.observe(session, request)
        if isinstance(request, CommandReq):
            return sup.command(session, request)
        raise DeskgateError("unknown_op", f"unknown request {type(request).__name__}")

    def close(self) -> None:
        if self.session is not None:
            self.supervisor._end_session(self.session, "disconnected")
            self.session = None
