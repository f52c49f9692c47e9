"""The supervisor: sessions, limits, kill/pause state, approvals and grants around the gate (DESIGN §1–§3).

A thin facade over the rooms of the daemon, each named for what it does:

- app/daemon/pipeline.py — the request pipeline (hello, act, plan, command, check, observe): observe →
  assess → grant → record → ask → execute → record → reply. An `act` is a plan of one step.
- app/daemon/asking.py — asking a person (one prompt at a time), recording the answer, grants.
- app/daemon/steps.py — running one allowed step: the takeover wait, re-reading the desktop, the executor.
- app/daemon/runstate.py — the run state: kill/pause flags, the dialog gate, stopped agents, agent processes.
- app/daemon/control.py — the person's control requests, who may send them, policy reloads.
- app/daemon/policy_runtime.py — one immutable runtime per policy (policy, gate, limits, approvals, fence),
  swapped whole by a reload; each request reads it once and keeps it.
- app/daemon/connection.py — one client connection, routing its requests here.

What it needs of the audit log, the desktop, the executor and the approver is named by the ports in
app/ports.py. The rest of deskgate constructs `Supervisor(...)` and calls the methods below.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app import config
from app.daemon.asking import Asker
from app.daemon.assessor import Assessor
from app.daemon.connection import Connection
from app.daemon.control import Controls
from app.daemon.grants import Grant, GrantStore
from app.daemon.journal import Journal
from app.daemon.killstate import KillStateFile
from app.daemon.person import person_refusal
from app.daemon.pipeline import Pipeline, plan_key
from app.daemon.policy_runtime import PolicyRef, PolicyRuntime
from app.daemon.runstate import RunState
from app.daemon.sessions import Session, SessionRegistry
from app.daemon.steps import StepRunner
from app.desktop.takeover import PersonActivity
from app.ports import ActionExecutor, Approver, AuditSink, DesktopView
from app.protocol import Act, Check, CommandReq, Control, Hello, Observe, Plan
from gate.engine import SafetyGate
from gate.policy import Policy

__all__ = ["Connection", "Supervisor", "plan_key"]

log = logging.getLogger("deskgate.supervisor")


class Supervisor:
    def __init__(self, *, gate: SafetyGate, audit: AuditSink, desktop: DesktopView, executor: ActionExecutor,
                 approver: Approver, policy: Policy, paths: config.Paths, clock: Callable[[], float] = time.monotonic,
                 disabled: bool = False, person_uid: int | None = None,
                 person_check: Callable[[int | None, list[int]], str | None] = person_refusal) -> None:
        self.audit = audit
        self.desktop = desktop
        self.executor = executor
        self.paths = paths
        self.clock = clock
        self.disabled = disabled
        self.runtime = PolicyRef(PolicyRuntime.build(policy, gate))
        self.grant_store = GrantStore(clock, idle_s=policy.limits.session_timeout_s)
        self.sessions = SessionRegistry()
        self.journal = Journal(audit)
        self.run_state = RunState(KillStateFile(paths.kill_state), clock)
        self.asker = Asker(approver=approver, state=self.run_state, journal=self.journal, audit=audit,
                           desktop=desktop, grant_store=self.grant_store, clock=clock, end_session=self.end_session,
                           add_allow_rule=self.add_allow_rule, add_ask_rule=self.add_ask_rule)
        self.runner = StepRunner(state=self.run_state, journal=self.journal, desktop=desktop, executor=executor,
                           clock=clock, end_session=self.end_session)
        self.pipeline = Pipeline(ref=self.runtime, state=self.run_state, journal=self.journal, audit=audit,
                                 desktop=desktop, runner=self.runner, asker=self.asker, grant_store=self.grant_store,
                                 sessions=self.sessions, clock=clock, disabled=disabled)
        self.controls = Controls(ref=self.runtime, state=self.run_state, journal=self.journal, audit=audit,
                                 asker=self.asker, executor=executor, grant_store=self.grant_store,
                                 sessions=self.sessions, clock=clock, policy_file=paths.policy,
                                 person_uid=person_uid, person_check=person_check)
        # the log went out of service (files deleted/replaced): tell the person
        audit.add_alarm_listener(
            lambda message: self.journal.notify({"kind": "alarm", "source": "audit", "message": message}))
        kill = self.run_state.killed
        if kill is not None:
            log.warning("starting killed (%s, by %s): a person must resume", kill.reason, kill.by)

    # -- what the rest of deskgate reads and sets --------------------------------------------------

    @property
    def policy(self) -> Policy:
        """The current policy (what a request starting now is judged by)."""
        return self.runtime.now.policy

    @property
    def gate(self) -> SafetyGate:
        return self.runtime.now.gate

    @property
    def state(self) -> str:
        return self.run_state.state

    @property
    def approver(self) -> Approver:
        return self.asker.approver

    @approver.setter
    def approver(self, approver: Approver) -> None:
        self.asker.approver = approver

    @property
    def person(self) -> PersonActivity | None:
        """The person's own mouse/keyboard use (app/desktop/takeover.py), set by the desktop app; None: not watched."""
        return self.runner.person

    @person.setter
    def person(self, person: PersonActivity | None) -> None:
        self.runner.person = person

    @property
    def person_uid(self) -> int:
        return self.controls.person_uid

    @property
    def person_check(self) -> Callable[[int | None, list[int]], str | None]:
        return self.controls.person_check

    @person_check.setter
    def person_check(self, check: Callable[[int | None, list[int]], str | None]) -> None:
        self.controls.person_check = check

    @property
    def policy_file(self) -> Path:
        """The person's policy file: what a reload reads and "Always allow this" writes."""
        return self.controls.policy_file

    @policy_file.setter
    def policy_file(self, path: Path) -> None:
        self.controls.policy_file = path

    @property
    def preset_override(self) -> str | None:
        """The preset given on the command line, if any: a reload applies it again."""
        return self.controls.preset_override

    @preset_override.setter
    def preset_override(self, preset: str | None) -> None:
        self.controls.preset_override = preset

    @property
    def kill_hotkey_override(self) -> str | None:
        """The kill-switch hotkey given on the command line, if any: a reload applies it again."""
        return self.controls.kill_hotkey_override

    @kill_hotkey_override.setter
    def kill_hotkey_override(self, combo: str | None) -> None:
        self.controls.kill_hotkey_override = combo

    @property
    def assessor(self) -> Assessor:
        return self.pipeline.assessor

    # -- control ---------------------------------------------------------------------------------

    def kill(self, reason: str, by: str) -> None:
        self.controls.kill(reason, by)

    def socket_lost(self, why: str) -> None:
        """A socket deskgate serves was deleted or replaced (the server binds it again): someone put a
        listener of their own where the person's `deskgate kill` would go. Fail closed and tell the person."""
        self.kill(f"{why}: an attack on the supervisor", "socket watch")
        self.journal.notify({"kind": "alarm", "source": "socket", "message": f"{why}. deskgate killed itself; "
                             "check what runs as your user before you resume"})

    def resume(self, by: str) -> None:
        self.controls.resume(by)

    def pause(self, by: str) -> None:
        self.controls.pause(by)

    def raise_limits(self, by: str) -> list[str]:
        """A person lets the running sessions go on: each gets its steps, rate and time once more (the
        tray's "Raise limits for the running agents"). Returns the agents raised; logged as an event."""
        raised = []
        for session in self.sessions.active():
            if session.ended is None:
                session.raised += 1
                raised.append(session.agent)
        if raised:
            self.journal.event("limits_raised", data={"by": by, "agents": raised})
        return raised

    def unpause(self, by: str) -> None:
        self.controls.unpause(by)

    def grants(self) -> list[Grant]:
        return self.grant_store.list()

    def revoke(self, grant_id: str, by: str = "person") -> bool:
        return self.controls.revoke(grant_id, by)

    def set_policy(self, policy: Policy, source: str) -> None:
        self.controls.set_policy(policy, source)

    def reload_policy(self, source: str = "") -> Policy:
        return self.controls.reload_policy(source)

    def add_allow_rule(self, rule: dict[str, Any], *, reason: str, by: str = "person") -> str:
        return self.controls.add_allow_rule(rule, reason=reason, by=by)

    def add_ask_rule(self, rule: dict[str, Any], *, reason: str, by: str = "person") -> str:
        return self.controls.add_ask_rule(rule, reason=reason, by=by)

    def status(self) -> dict[str, Any]:
        return self.controls.status()

    def control(self, conn: Connection, req: Control) -> dict[str, Any]:
        return self.controls.control(conn, req)

    def subscribe(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """`callback(event)` for state, decision, prompt, session and grant changes (from worker threads)."""
        self.journal.subscribe(callback)

    # -- connections and requests ----------------------------------------------------------------

    def connect(self, peer: Any) -> Connection:
        return Connection(self, peer)

    def connect_control(self, peer: Any) -> Connection:
        """A connection on the person's control socket: control requests only."""
        return Connection(self, peer, control_only=True)

    def peer_refused(self, peer: Any) -> None:
        """The server turned away a connection from another user: worth a line in the log."""
        data = {"pid": getattr(peer, "pid", None), "uid": getattr(peer, "uid", None)}
        log.warning("refused a connection from pid %s uid %s", data["pid"], data["uid"])
        self.journal.event("peer_refused", data=data)

    def hello(self, conn: Connection, req: Hello) -> dict[str, Any]:
        return self.pipeline.hello(conn, req)

    def act(self, session: Session, req: Act) -> dict[str, Any]:
        return self.pipeline.act(session, req)

    def plan(self, session: Session, req: Plan) -> dict[str, Any]:
        return self.pipeline.plan(session, req)

    def command(self, session: Session, req: CommandReq) -> dict[str, Any]:
        return self.pipeline.command(session, req)

    def check(self, session: Session, req: Check) -> dict[str, Any]:
        return self.pipeline.check(session, req)

    def check_without_session(self, req: Check, peer: Any = None) -> dict[str, Any]:
        return self.pipeline.check_without_session(req, peer)

    def observe(self, session: Session, req: Observe) -> dict[str, Any]:
        return self.pipeline.observe(session, req)

    def end_session(self, session: Session, reason: str, code: str = "limit") -> None:
        self.pipeline.end_session(session, reason, code)

    _end_session = end_session  # the name tests and older callers use

    def close(self, reason: str = "deskgate stopping") -> None:
        """Shut down: deny whatever is pending, end every session."""
        self.asker.cancel_all(reason)
        for session in self.sessions.active():
            self.end_session(session, reason)
        self.pipeline.assessor.close()
