"""The request pipeline: hello, act, plan, command, check and observe.

One decided request (an `act` is a plan of one step) goes down one path, in this order (each step can end it):

    kill state → pause → session limits → observe → gate.assess → grant lookup (CONFIRM only)
    → audit.record_decision (committed BEFORE anything runs; failure → `internal`, nothing runs)
    → BLOCK: denied │ ALLOW: execute │ CONFIRM: ask the Approver (one prompt at a time), record the answer,
      re-read the desktop (the active window/app must be what the person saw) → execute
    → record the execution result and the outcome (committed BEFORE the reply; failure → a `warning` in
      the reply, since the action ran) → reply
    When nothing will run and nobody will be asked (block; a deferred CONFIRM; an allowed act with
    execute=false) the outcome is known with the decision: one commit holds both (`_settled`).

The request reads the runtime (app/daemon/policy_runtime.py) once, when it starts, and every step uses that one.

- kill: a request whose decision row is already written is finished as verdict `denied`, decided_by
  `kill-switch` (so the log and the reply agree).
- `act` with execute=false and `defer`: a CONFIRM nobody has granted is recorded with verdict `deferred`
  and not put to the approver (the agent asks its own person: the Claude Code hook's default mode).
- A plan is one decision row (op `plan`, the sanitised steps) and at most one approval; before each step
  the kill state and the desktop are checked again (app/daemon/steps.py). An `act` is one row of op `act`
  (the action as given: the log sanitises it) and its reply carries the step's result.
- deny-and-stop ends the session and bars the agent name from a new `hello` until a person resumes.
"""

from __future__ import annotations

import logging
import os
import posixpath
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from app import config
from app.daemon.asking import Asker
from app.daemon.assessor import Assessor, ReadOnlyHistory
from app.daemon.grants import Grant, GrantStore, grantable
from app.daemon.job import Job, plan_key
from app.daemon.journal import Journal
from app.daemon.lines import LineBook
from app.daemon.outcome import READ_TARGET_TYPES, REPLY_BY, Outcome, Stop, ended_by_kill
from app.daemon.person import proc_stat
from app.daemon.policy_runtime import PolicyRef, PolicyRuntime
from app.daemon.runstate import RunState
from app.daemon.sessions import PeerBudget, Session, SessionRegistry
from app.daemon.steps import StepRunner
from app.errors import DeskgateError
from app.ports import Answer, AuditSink, DesktopView, Reply, Verdict
from app.protocol import Act, Check, CommandReq, Hello, Observe, Plan
from gate.model import Action, Decision, Observation, action_to_dict
from gate.paths import is_within
from gate.redact import secret_name

if TYPE_CHECKING:
    from app.daemon.connection import Connection

__all__ = ["Pipeline", "in_work_area", "project_dir", "with_rule_timeout", "work_dirs"]

log = logging.getLogger("deskgate.supervisor")
_DRIVE = re.compile(r"^[A-Za-z]:")


class Pipeline:
    def __init__(self, *, ref: PolicyRef, state: RunState, journal: Journal, audit: AuditSink,
                 desktop: DesktopView, runner: StepRunner, asker: Asker, grant_store: GrantStore,
                 sessions: SessionRegistry, clock: Callable[[], float], disabled: bool) -> None:
        self.ref = ref
        self.state = state
        self.journal = journal
        self.audit = audit
        self.desktop = desktop
        self.runner = runner
        self.asker = asker
        self.grant_store = grant_store
        self.sessions = sessions
        self.clock = clock
        self.disabled = disabled
        self.peer_budget = PeerBudget()
        self.assessor = Assessor()  # big requests are assessed off the server's threads
        # the line each window holds (app/daemon/lines.py); the person's own input makes it unknown
        self.lines = LineBook(person=self._person_input)
        runner.lines = self.lines

    def _person_input(self) -> float:
        """When the person last used the keyboard or mouse (monotonic; -inf: not watched or never)."""
        person = self.runner.person
        return person.last_input() if person is not None else float("-inf")

    # -- sessions ----------------------------------------------------------------------------------

    def hello(self, conn: Connection, req: Hello) -> dict[str, Any]:
        rt = self.ref.now
        if conn.session is not None and conn.session.ended is None:
            raise DeskgateError("bad_request", f"this connection already has session {conn.session.id}")
        if self.disabled or config.disabled_by_env():
            raise DeskgateError("disabled", "deskgate is disabled (DESKGATE_DISABLED or the configuration); "
                                            "no agent session can start")
        self.state.check_running(allow_paused=True)
        if secret_name(req.agent):
            # the name is stored as given, on the session and every decision: never a credential there
            raise DeskgateError("bad_request", "the agent name holds what looks like a secret (a token or key); "
                                               "name the agent, not a credential. No session was opened")
        if self.state.is_stopped(req.agent):
            raise DeskgateError("killed", f"agent {req.agent!r} was stopped by a person; it can start again "
                                          "after `deskgate resume`")
        limits = rt.limits
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
        project, refused = project_dir(rt, req.agent, req.project)
        session = Session(id=sid, agent=req.agent, pid=pid, uid=getattr(peer, "uid", None),
                          expect=req.expect, started=now, scope=req.scope,
                          process=(pid, stat.starttime if stat else None), project=project)
        self.sessions.attach(session)
        conn.session = session
        if req.scope is not None:
            self.state.remember_agent(pid, stat.starttime if stat else None, scoped=True)
        self.journal.notify({"kind": "session", "event": "opened", "session": sid, "agent": req.agent})
        reply = {"v": 1, "session": sid, "state": self.state.state, "policy": rt.policy.preset,
                 "limits": msgspec.to_builtins(limits), "work_area": list(work_dirs(rt, session))}
        if refused is not None:
            reply["project_refused"] = refused
        return reply

    def end_session(self, session: Session, reason: str, code: str = "limit") -> None:
        session.end(reason, code)
        if not self.sessions.remove(session):
            return
        revoked = self.grant_store.revoke_session(session.id)
        try:
            self.audit.close_session(session.id, reason)
        except Exception as err:
            log.error("session %d close not recorded: %s", session.id, err)
        self.journal.notify({"kind": "session", "event": "closed", "session": session.id, "agent": session.agent,
                             "reason": reason})
        if revoked:
            self.journal.notify({"kind": "grants", "count": len(self.grant_store)})

    def _check_limits(self, rt: PolicyRuntime, session: Session, steps: int) -> None:
        limits, now = session.limits_for(rt.limits), self.clock()
        try:
            # the peer's budget first: new connections and new agent names do not reset it
            self.peer_budget.check(session.process, session.uid, limits, now, steps)
            session.check_limits(limits, now, steps)
            self.peer_budget.charge(session.process, session.uid, now, steps)
        except DeskgateError as err:
            # a refusal by a limit is worth a line in the log: it is a person's evidence of a runaway agent.
            # Queued for the next group commit, not one fsync each: a refusal flood must not become an I/O one.
            self.journal.event("error", session_id=session.id, data={"code": err.code, "message": err.message},
                               durable=False)
            if session.ended is not None:
                self.end_session(session, session.ended, session.ended_code)
            raise

    # -- reading -----------------------------------------------------------------------------------

    def _observe(self, action: Action | None = None) -> Observation:
        """The desktop now; for an action, also what deskgate reads at its target (app/desktop/pointer.py)."""
        try:
            if action is not None:
                return self.desktop.observe_for(action)
            return self.desktop.observe()
        except Exception as err:
            log.exception("desktop.observe failed")
            raise DeskgateError("internal", f"cannot read the desktop: {err}; nothing was executed") from None

    @staticmethod
    def _with_scripts(rt: PolicyRuntime, session: Session, action: Action, observation: Observation) -> Observation:
        """The observation with the files this session wrote that `action` may run or move (app/daemon/written.py)."""
        if action.type not in ("shell", "file_move", "type", "key", "tool") or not len(session.written):
            return observation
        line = observation.line.raw if observation.line is not None else ""
        scripts = session.written.scripts_for(action, rt.gate.compiled, line)
        return msgspec.structs.replace(observation, scripts=scripts) if scripts else observation

    @staticmethod
    def _with_expect(session: Session, action: Action) -> Action:
        # the session's `expect` from hello applies to every action that does not say otherwise
        if session.expect is not None and action.expect is None:
            return msgspec.structs.replace(action, expect=session.expect)
        return action

    @staticmethod
    def _in_session(rt: PolicyRuntime, session: Session | None, action: Action, observation: Observation
                    ) -> tuple[Action, Observation]:
        """The action as it will run in the session's work area, and the observation the gate reads it
        with: relative file paths made absolute against the project (or the first sandbox root, where
        the gate reads them), a shell command with no `cwd` run in the project; `work_dirs` set."""
        dirs = work_dirs(rt, session)
        if dirs:
            observation = msgspec.structs.replace(observation, work_dirs=dirs)
        return in_work_area(action, dirs, rt.gate.compiled), observation

    def check(self, session: Session, req: Check) -> dict[str, Any]:
        rt = self.ref.now
        self.state.check_running(allow_paused=True)
        action, observation = self._in_session(rt, session, self._with_expect(session, req.action),
                                               self.lines.attach(self._observe(req.action), moving=False))
        observation = self._with_scripts(rt, session, action, observation)
        # the session's history, read-only: a check must not count toward loop detection
        assessment = self.assessor.assess(rt.gate, action, observation,
                                          ReadOnlyHistory(session.history), rt.limits.step_timeout_s)
        return assessment.to_dict()

    def check_without_session(self, req: Check, peer: Any = None) -> dict[str, Any]:
        """A `check` before any `hello` (e.g. a hook process per tool call): the gate's answer with no
        session history. Nothing runs. It is an action of its peer for the limits (per process, per uid:
        a flood of checks is refused like one of actions), and each one is logged (the decision, the
        rules, the peer; never the action's content), queued for the next group commit like a refusal."""
        rt = self.ref.now
        self.state.check_running(allow_paused=True)
        pid, uid = getattr(peer, "pid", None), getattr(peer, "uid", None)
        stat = proc_stat(pid) if pid else None
        process = (pid, stat.starttime if stat else None)
        limits, now = rt.limits, self.clock()
        try:
            self.peer_budget.check(process, uid, limits, now, 1)
            self.peer_budget.charge(process, uid, now, 1)
        except DeskgateError as err:
            self.journal.event("error", data={"code": err.code, "message": err.message, "op": "check",
                                              "pid": pid, "uid": uid}, durable=False)
            raise
        action, observation = self._in_session(rt, None, req.action,
                                               self.lines.attach(self._observe(req.action), moving=False))
        result = self.assessor.assess(rt.gate, action, observation, None, rt.limits.step_timeout_s).to_dict()
        self.journal.event("check", data={"type": req.action.type, "decision": result["decision"],
                                          "rules": result["rules"], "pid": pid, "uid": uid}, durable=False)
        return result

    def observe(self, session: Session, req: Observe) -> dict[str, Any]:
        self.state.check_running(allow_paused=True)
        return msgspec.to_builtins(self._observe())

    # -- deciding ----------------------------------------------------------------------------------

    def act(self, session: Session, req: Act) -> dict[str, Any]:
        rt = self.ref.now
        started = self.clock()
        self.state.check_running()
        self._check_limits(rt, session, 1)
        self.runner.await_person(rt, (req.action.type,))
        action, observation = self._in_session(rt, session, self._with_expect(session, req.action),
                                               self.lines.attach(self._observe(req.action), moving=True))
        observation = self._with_scripts(rt, session, action, observation)
        # assessment, approval key (secrets only as digests; the key a grant is given for) and the sanitised
        # action a person (and the tray) sees: in the worker process when the action is big
        assessment, key, shown = self.assessor.decide_one(rt.gate, action, observation, session.history,
                                                          rt.limits.step_timeout_s)
        action = with_rule_timeout(rt, action, assessment.rules)
        job = Job("act", req.id, [action], (assessment,), assessment, key,
                  shown if assessment.decision is Decision.CONFIRM else {}, action_to_dict(action), req.execute,
                  defer=req.defer)
        return self._decide(rt, session, job, observation, started)

    def plan(self, session: Session, req: Plan) -> dict[str, Any]:
        rt = self.ref.now
        started = self.clock()
        self.state.check_running()
        self._check_limits(rt, session, len(req.actions))
        self.runner.await_person(rt, {a.type for a in req.actions})
        observation = self.lines.attach(self._observe(), moving=True)
        dirs = work_dirs(rt, session)
        if dirs:
            observation = msgspec.structs.replace(observation, work_dirs=dirs)
        actions = [in_work_area(self._with_expect(session, a), dirs, rt.gate.compiled) for a in req.actions]
        pa, step_keys, shown_steps = self.assessor.decide_plan(rt.gate, actions, observation, session.history,
                                                               rt.limits.step_timeout_s)
        shown = {"type": "plan", "steps": shown_steps}
        steps: list[dict[str, Any]] = [
            {"index": i, "type": a.type, **s.to_dict(), "verdict": Verdict.NOT_RUN}
            for i, (a, s) in enumerate(zip(actions, pa.steps, strict=True))]
        # the steps are sanitised here already: one plan row may hold several redacted fields
        job = Job("plan", req.id, actions, tuple(pa.steps), pa.assessment, plan_key(step_keys), shown, shown,
                  req.execute, plan=tuple(zip(shown_steps, pa.steps, strict=True)), steps=steps)
        return self._decide(rt, session, job, observation, started)

    def command(self, session: Session, req: CommandReq) -> dict[str, Any]:
        """A simple command in plain words (gate/commands.py) → a plan, judged and run exactly like a `plan`
        request (same gate, limits, audit row, approval). Not understood → `bad_request` listing the forms
        that are; nothing is guessed and nothing runs. The reply adds `command`: the text and its plan."""
        from gate.commands import CommandError, parse_command  # imported here: this method owns the feature

        self.state.check_running()
        try:
            actions = parse_command(req.text)
        except CommandError as err:
            raise DeskgateError("bad_request", str(err)) from None
        reply = self.plan(session, Plan(v=req.v, id=req.id, actions=list(actions), execute=req.execute))
        reply["command"] = {"text": req.text, "plan": [action_to_dict(a) for a in actions]}
        return reply

    def _decide(self, rt: PolicyRuntime, session: Session, job: Job, observation: Observation,
                started: float) -> dict[str, Any]:
        """Grant lookup, the decision row (committed before anything runs), then the decided path."""
        grant = None
        if job.assessment.decision is Decision.CONFIRM:
            grant = self.grant_store.find(job.key, session_id=session.id, app=observation.app,
                                          window=observation.window_title, scope=session.scope)
        settled = self._settled(job, grant)
        if settled is not None:  # nothing runs and nobody is asked: the decision and its outcome in one commit
            decision_id = self._record_decision(session, job, observation, settled, started)
            return self._finish(session, decision_id, job, settled, started, recorded=True)
        decision_id = self._record_decision(session, job, observation)
        try:
            outcome = self._decided(rt, session, job, decision_id, observation, grant)
        except Stop as stop:
            outcome = Outcome(Verdict.DENIED, stop.decided_by, stop.reason)
        return self._finish(session, decision_id, job, outcome, started)

    def _settled(self, job: Job, grant: Grant | None) -> Outcome | None:
        """The outcome, when it is known before the decision row is written: nothing will run and nobody
        will be asked (a block; a CONFIRM left to the agent's own prompt; an allowed check-only `act`).
        The same outcome `_decided` gives these; None for everything else."""
        assessment = job.assessment
        if assessment.decision is Decision.BLOCK:
            return Outcome(Verdict.DENIED, "policy", assessment.reason)
        if grant is not None or self.state.killed is not None:
            return None  # a grant is recorded as an answer to the decision; a kill denies it after the row
        if assessment.decision is Decision.CONFIRM and job.defer:
            return Outcome(Verdict.DEFERRED, "policy", f"{assessment.reason}; left to the agent's own prompt")
        if assessment.decision is Decision.ALLOW and not job.execute:
            for s in job.steps or ():
                s["verdict"] = Verdict.ALLOWED
            return Outcome(Verdict.ALLOWED, "policy", assessment.reason)
        return None

    def _decided(self, rt: PolicyRuntime, session: Session, job: Job, decision_id: int, observation: Observation,
                 grant: Grant | None) -> Outcome:
        assessment = job.assessment
        decided_by = "policy"
        approved_on: Observation | None = None
        reply: Reply | None = None
        if assessment.decision is Decision.BLOCK:
            return Outcome(Verdict.DENIED, "policy", assessment.reason)
        kill = self.state.killed
        if kill is not None:  # killed while this request was being assessed: not even "allowed"
            return Outcome(Verdict.DENIED, "kill-switch", f"kill switch: {kill.reason}")
        confirmed = assessment.decision is Decision.CONFIRM
        if confirmed:
            if grant is not None:
                decided_by = "session-approval"
                self.journal.event("answer", session_id=session.id, decision_id=decision_id,
                                   data={"answer": "grant", "by": "session-approval", "grant": grant.id})
            elif job.defer:  # the agent asks its own person (Claude Code's prompt); deskgate only records
                return Outcome(Verdict.DEFERRED, "policy", f"{assessment.reason}; left to the agent's own prompt")
            else:
                reply = self.asker.ask(rt, session, job.request_id, decision_id, job.shown, assessment, observation,
                                       job.preview_action(), job.intent(), plan=job.plan,
                                       grantable=grantable(scope=session.scope, execute=job.execute),
                                       action=job.actions[0] if job.single else None)
                denied = self.asker.answer(rt, session, decision_id, reply, assessment)
                if denied is not None:
                    return denied
                decided_by = reply.by if reply.by in REPLY_BY else "person"
                approved_on = observation
                if job.single and reply.answer in (Answer.ALWAYS_ALLOW, Answer.ALLOW_WIDER):
                    self.asker.always_allow(rt, session, decision_id, job.shown, observation, assessment, reply)
                elif job.single and reply.answer is Answer.ALWAYS_ASK:
                    self.asker.always_ask(session, decision_id, job.shown, reply)
        if not job.execute:
            if reply is not None:
                self.asker.grant(rt, session, reply, decision_id, job.key, observation, job.summary(),
                                 job.action_type)
            for s in job.steps or ():
                s["verdict"] = Verdict.ALLOWED
            return Outcome(Verdict.ALLOWED, decided_by, assessment.reason)
        return self._run(rt, session, job, decision_id, observation, approved_on, reply, decided_by, confirmed)

    def _run(self, rt: PolicyRuntime, session: Session, job: Job, decision_id: int, observation: Observation,
             approved_on: Observation | None, reply: Reply | None, decided_by: str, confirmed: bool) -> Outcome:
        """Execute the steps in order. A single action reports its own result; a plan its step count."""
        single = job.single
        for i, action in enumerate(job.actions):
            # a plan's step 0 too when deskgate reads its target: the plan was judged before anything was read
            if i > 0 or (not single and action.type in READ_TARGET_TYPES):
                self.runner.recheck(rt, i, action, job.assessments[i], confirmed)
            # raises Stop when the window changed since the approval: then no grant either
            try:
                ok, result = self.runner.execute(rt, session, decision_id, action,
                                                approved_on=approved_on if i == 0 else None,
                                                step=None if single else i, observed=observation if single else None,
                                                network=single and _network_granted(rt, job.assessment, reply),
                                                writable=work_dirs(rt, session), judged=job.assessments[i].paths,
                                                new_file=job.assessments[i].new_file)
            except Stop:
                raise  # nothing ran: the line is as it was
            except BaseException:
                self.lines.after(observation, action, False)
                raise
            self.lines.after(observation, action, ok)
            if ok:
                session.written.after(action, rt.gate.compiled)
            session.written.after_shell(action, rt.gate.compiled)  # a failing command may have written too
            if i == 0 and reply is not None:
                self.asker.grant(rt, session, reply, decision_id, job.key, observation, job.summary(),
                                 job.action_type)
            killed = ended_by_kill(result)
            if single:
                if killed:
                    return Outcome(Verdict.KILLED, "kill-switch", "the kill switch ended the running action", result)
                return Outcome(Verdict.EXECUTED if ok else Verdict.ERROR, decided_by, job.assessment.reason, result)
            assert job.steps is not None
            job.steps[i]["verdict"] = Verdict.EXECUTED if ok else Verdict.KILLED if killed else Verdict.ERROR
            job.steps[i]["result"] = result
            if killed:
                return Outcome(Verdict.KILLED, "kill-switch", f"the kill switch ended step {i}", {"completed": i})
            if not ok:
                err = result.get("error")
                message = err.get("message", "") if isinstance(err, dict) else str(err or "")
                return Outcome(Verdict.ERROR, decided_by, f"step {i} failed: {message}", {"completed": i})
        return Outcome(Verdict.EXECUTED, decided_by, job.assessment.reason, {"completed": len(job.actions)})

    # -- recording ---------------------------------------------------------------------------------

    def _record_decision(self, session: Session, job: Job, observation: Observation,
                         settled: Outcome | None = None, started: float = 0.0) -> int:
        outcome = None
        if settled is not None:
            outcome = {"verdict": settled.verdict, "decided_by": settled.decided_by, "reason": settled.reason,
                       "elapsed_ms": (self.clock() - started) * 1000.0}
        try:
            return self.audit.record_decision(
                session_id=session.id, agent=session.agent, request_id=job.request_id, op=job.op,
                action=job.recorded, assessment=job.assessment, observation=observation, approval_key=job.key,
                execute=job.execute, outcome=outcome)
        except Exception as err:
            log.error("decision not recorded: %s", err)
            raise DeskgateError("internal", f"audit log unwritable: {err} — nothing was executed") from None

    def _finish(self, session: Session, decision_id: int, job: Job, outcome: Outcome,
                started: float, *, recorded: bool = False) -> dict[str, Any]:
        """The reply, once the outcome is committed (`recorded`: it was, with the decision row)."""
        assessment = job.assessment
        elapsed = (self.clock() - started) * 1000.0
        reply: dict[str, Any] = {
            "verdict": outcome.verdict, "decision": assessment.decision.value, "decided_by": outcome.decided_by,
            "reason": outcome.reason, "rules": list(assessment.rules), "risk": assessment.risk.label,
            "audit_id": decision_id, "elapsed_ms": round(elapsed, 3),
        }
        if outcome.result is not None:
            reply["result"] = outcome.result
        if job.steps is not None:
            reply["steps"] = job.steps
        if not recorded:
            try:
                # Durable before the reply: an agent told "executed" can rely on the log saying so too. The
                # execution event queued before it (app/daemon/steps.py) rides in the same group commit, and
                # the outcomes of concurrent agents share it with each other and with their decision rows.
                self.audit.record_outcome(decision_id, verdict=outcome.verdict, decided_by=outcome.decided_by,
                                          reason=outcome.reason, elapsed_ms=elapsed)
            except Exception as err:
                # The decision row exists; only its outcome is missing. The reply must still tell the truth.
                log.error("outcome of decision %d not recorded: %s", decision_id, err)
                reply["warning"] = f"audit log unwritable, outcome not recorded: {err}"
        if self.journal.listened:
            self.journal.notify({"kind": "decision", "audit_id": decision_id, "session": session.id,
                                 "agent": session.agent, "op": job.op, "type": job.action_type,
                                 "verdict": outcome.verdict, "decision": assessment.decision.value,
                                 "decided_by": outcome.decided_by, "reason": outcome.reason,
                                 "rules": list(assessment.rules), "risk": assessment.risk.label})
        return reply


# -- the work area ----------------------------------------------------------------------------------


def project_dir(rt: PolicyRuntime, agent: str, raw: str | None) -> tuple[str | None, str | None]:
    """(the project directory hello named, resolved; or None, and why it was refused). A project inside
    one of the policy's `[[projects]]` for this agent is the person's word; any other must not be `/`, the
    home directory or above it, a system directory, or a hidden directory of the home."""
    if raw is None:
        return None, None
    from gate.paths import resolve, work_area_refusal

    compiled = rt.gate.compiled
    if not raw.startswith(("/", "~")):
        return None, f"{raw!r} is not an absolute path"
    try:
        real = resolve(raw, home=compiled.home)
    except ValueError as err:
        return None, f"{raw!r}: {err}"
    if not os.path.isdir(real):
        return None, f"{raw!r} is not a directory"
    named = any(p.applies_to(agent) and is_within(real, resolve(p.path, home=compiled.home))
                for p in rt.policy.projects)
    why = work_area_refusal(real, compiled.home, compiled.system_dirs, person=named)
    if why is not None:
        return None, f"{raw!r} is {why}: not a work area; file changes there ask as anywhere outside it"
    return real, None


def work_dirs(rt: PolicyRuntime, session: Session | None) -> tuple[str, ...]:
    """The session's work directories besides `files.sandbox_roots`: its project (first: relative paths
    start there), then the policy's `[[projects]]` for its agent (read now, so a reload applies)."""
    agent = session.agent if session is not None else ""
    listed = tuple(p.path for p in rt.policy.projects if p.applies_to(agent)) if rt.policy.projects else ()
    if session is not None and session.project is not None:
        return (session.project, *listed)
    return listed


_FILE_FIELDS = {"file_read": ("path",), "file_write": ("path",), "file_delete": ("path",),
                "file_move": ("path", "to")}


def in_work_area(action: Action, dirs: tuple[str, ...], compiled: Any) -> Action:
    """`action` with relative file paths made absolute against the first work directory (else the first
    sandbox root: where the gate resolves them), and a shell command with no `cwd` run in the project:
    the executor then acts on exactly the path the gate judged."""
    kind = action.type
    if kind == "shell":
        if dirs and getattr(action, "cwd", None) is None:
            return msgspec.structs.replace(action, cwd=dirs[0])
        return action
    fields = _FILE_FIELDS.get(kind)
    if fields is None:
        return action
    changes = {}
    for name in fields:
        value = getattr(action, name)
        if value and not value.lstrip().startswith(("/", "~", "$", "%", "\\")) and not _DRIVE.match(value.lstrip()):
            from gate.paths import resolve

            base = resolve(dirs[0], home=compiled.home) if dirs else (compiled.sandbox_roots or (compiled.home,))[0]
            changes[name] = posixpath.join(base, value.strip())
    return msgspec.structs.replace(action, **changes) if changes else action


def with_rule_timeout(rt: PolicyRuntime, action: Action, rules: tuple[str, ...] | list[str]) -> Action:
    """A shell action with no `timeout` of its own gets the `timeout_s` of the allow rule that let it
    through (the executor caps it at limits.max_shell_timeout_s)."""
    if action.type != "shell" or getattr(action, "timeout", None) is not None or not rules:
        return action
    first = rules[0]
    if not first.startswith("allow.policy."):
        return action
    rule = next((r for r in rt.policy.allow if r.id == first[len("allow.policy."):]), None)
    if rule is None or rule.timeout_s is None:
        return action
    return msgspec.structs.replace(action, timeout=min(rule.timeout_s, 3600.0))


def _network_granted(rt: PolicyRuntime, assessment: Any, reply: Any) -> bool:
    """A person approved this command with network, or the allow rule that let it through grants it."""
    if reply is not None and reply.answer is Answer.APPROVE_NETWORK:
        return True
    first = assessment.rules[0] if assessment.rules else ""
    if not first.startswith("allow.policy."):
        return False
    rule = next((r for r in rt.policy.allow if r.id == first[len("allow.policy."):]), None)
    return rule is not None and rule.network
