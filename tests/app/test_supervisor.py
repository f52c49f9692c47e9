"""The supervisor end to end in-process: sessions, limits, kill/pause, approvals, grants, plans.

Fakes of the desktop, executor and approver live here; the clock is controllable, so no test waits
for a real timeout. The audit log is the real AuditLog, wrapped so that the order of calls is journalled
and mirrored for assertions.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import stat
import threading
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from app.audit.writer import AuditLog
from app.config import Paths
from app.daemon.approvers import DenyAllApprover
from app.daemon.killstate import KillRecord, KillStateFile
from app.daemon.supervisor import Supervisor
from app.errors import DeskgateError
from app.ports import Answer, ApprovalRequest, Reply
from app.protocol import Act, Bye, Check, Control, Hello, Observe, Plan, parse_request
from gate import SafetyGate, action_from_dict, load_policy
from gate.model import Observation
from gate.paths import default_home

# A test policy: shell and click ask a person; everything else (move, key, wait) is allowed. The risk
# score is off so that denials in one test do not change later decisions, and loops need 100 repeats
# (the loop test sets its own threshold).
POLICY = """
[gate]
modes = { shell = "ask", click = "ask" }
disabled_rules = ["confirm.agent.risk-score"]

[loop]
threshold = 100

[limits]
max_steps = 50
step_timeout_s = 30
session_timeout_s = 600
actions_per_minute = 30
sessions_per_hour = 10
max_errors = 3

[approvals]
timeout_s = 30
grant_minutes = 5
"""

EDITOR = Observation(window_title="notes.txt - Editor", app="editor", screen_width=1920, screen_height=1080)
BROWSER = Observation(window_title="Bank - Browser", app="browser", screen_width=1920, screen_height=1080)


# -- fakes ----------------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class Journal(list):
    """What happened, in order, across the fakes: ("decision", id), ("execute", type), ..."""


class AuditFailure(Exception):
    pass


class RecordingAudit:
    """Writes through to the real AuditLog (when given) and keeps a mirror of every call for assertions.

    `fail = True` makes every write raise, as an unwritable log does."""

    def __init__(self, journal: Journal, real: Any = None) -> None:
        self.journal = journal
        self.real = real
        self.fail = False
        self.sessions: dict[int, dict[str, Any]] = {}
        self.decisions: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self.previews: dict[int, bytes] = {}
        self.alarm_listeners: list[Any] = []

    @property
    def store_outputs(self) -> bool:
        return bool(self.real and self.real.store_outputs)

    @store_outputs.setter
    def store_outputs(self, value: bool) -> None:
        if self.real:
            self.real.store_outputs = value

    @property
    def out_of_service(self) -> str | None:
        return self.real.out_of_service if self.real else None

    @property
    def verify_problem(self) -> str | None:
        return self.real.verify_problem if self.real else None

    def add_alarm_listener(self, callback: Any) -> None:
        self.alarm_listeners.append(callback)
        if self.real:
            self.real.add_alarm_listener(callback)

    def _check(self) -> None:
        if self.fail:
            raise AuditFailure("disk I/O error")

    def open_session(self, agent: str, *, pid: int | None, uid: int | None, expect: dict | None) -> int:
        self._check()
        sid = (self.real.open_session(agent, pid=pid, uid=uid, expect=expect) if self.real
               else len(self.sessions) + 1)
        self.sessions[sid] = {"agent": agent, "pid": pid, "uid": uid, "expect": expect, "closed": None}
        return sid

    def close_session(self, session_id: int, reason: str) -> None:
        self._check()
        if self.real:
            self.real.close_session(session_id, reason)
        self.sessions[session_id]["closed"] = reason

    def record_decision(self, *, session_id, agent, request_id, op, action, assessment, observation,
                        approval_key, execute, outcome=None) -> int:
        self._check()
        did = len(self.decisions) + 1
        if self.real:
            did = self.real.record_decision(session_id=session_id, agent=agent, request_id=request_id, op=op,
                                            action=action, assessment=assessment, observation=observation,
                                            approval_key=approval_key, execute=execute, outcome=outcome)
        self.decisions[did] = {"session_id": session_id, "agent": agent, "request_id": request_id, "op": op,
                               "action": action, "decision": assessment.decision.value, "rules": assessment.rules,
                               "approval_key": approval_key, "execute": execute, "outcome": None,
                               "window": observation.window_title}
        self.journal.append(("decision", did))
        if outcome is not None:  # committed with the decision: nothing ran, nobody was asked
            self.decisions[did]["outcome"] = {k: outcome[k] for k in ("verdict", "decided_by", "reason")}
            self.journal.append(("outcome", outcome["verdict"]))
        return did

    def record_event(self, kind: str, *, session_id=None, decision_id=None, data=None, durable=True) -> int:
        self._check()
        if self.real:
            self.real.record_event(kind, session_id=session_id, decision_id=decision_id, data=data, durable=durable)
        self.events.append({"kind": kind, "session_id": session_id, "decision_id": decision_id, "data": data,
                            "durable": durable})
        self.journal.append(("event", kind))
        return len(self.events)

    def record_outcome(self, decision_id: int, *, verdict: str, decided_by: str, reason: str,
                       elapsed_ms: float, durable: bool = True) -> int:
        self._check()
        if self.real:
            self.real.record_outcome(decision_id, verdict=verdict, decided_by=decided_by, reason=reason,
                                     elapsed_ms=elapsed_ms, durable=durable)
        self.decisions[decision_id]["outcome"] = {"verdict": verdict, "decided_by": decided_by, "reason": reason}
        self.journal.append(("outcome", verdict))
        return len(self.events)

    def add_preview(self, decision_id: int, png: bytes) -> None:
        if self.real:
            self.real.add_preview(decision_id, png)
        self.previews[decision_id] = png

    def kinds(self, decision_id: int | None = None) -> list[str]:
        return [e["kind"] for e in self.events if decision_id is None or e["decision_id"] == decision_id]


class FakeDesktop:
    def __init__(self, observation: Observation = EDITOR) -> None:
        self.observation = observation
        self.fresh: Observation | None = None  # what observe_fresh reads, when set (the screen moved on)
        self.preview_png: bytes | None = b"\x89PNG-fake"

    def observe(self) -> Observation:
        return self.observation

    def observe_fresh(self) -> Observation:
        return self.fresh if self.fresh is not None else self.observation

    def observe_for(self, action: Any, *, fresh: bool = False) -> Observation:
        return self.observe_fresh() if fresh else self.observe()

    def preview(self, action: Any, outline: Any = None):
        return None if self.preview_png is None else (self.preview_png, (0, 0, 100, 100))


@dataclasses.dataclass
class ExecResult:
    ok: bool
    detail: dict
    error: DeskgateError | None = None


class FakeExecutor:
    def __init__(self, journal: Journal, audit: RecordingAudit) -> None:
        self.journal = journal
        self.audit = audit
        self.executed: list[Any] = []
        self.fail_on: set[int] = set()   # indexes (0-based, in execution order) that fail
        self.before: Any = None           # callable(action) run just before "executing"
        self.decisions_seen: list[int] = []
        self.policies: list[Any] = []     # the policy each action ran under
        self.kw: list[dict] = []          # what else the supervisor handed over (judged paths, new_file)
        self.cancelled = 0

    def cancel_all(self) -> int:
        self.cancelled += 1
        return 0

    def execute(self, action: Any, policy: Any, **kw: Any) -> ExecResult:
        self.policies.append(policy)
        self.kw.append(kw)
        # the decision row must already be there, committed, before anything runs
        self.decisions_seen.append(len(self.audit.decisions))
        if self.before is not None:
            self.before(action)
        index = len(self.executed)
        self.executed.append(action)
        self.journal.append(("execute", action.type))
        if index in self.fail_on:
            return ExecResult(False, {"exit_code": 1}, DeskgateError("internal", "xdotool exploded"))
        return ExecResult(True, {"exit_code": 0, "stdout": "ok"})


class ScriptedApprover:
    """Answers from a list (or one answer for every request), instantly; records what it was asked."""

    def __init__(self, *answers: Answer, by: str = "person") -> None:
        self.answers = list(answers)
        self.by = by
        self.asked: list[ApprovalRequest] = []
        self.cancelled: list[str] = []
        self.hook: Any = None

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        self.asked.append(request)
        if self.hook is not None:
            self.hook(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return Reply(answer, by=self.by)

    def cancel_all(self, reason: str) -> None:
        self.cancelled.append(reason)


class BlockingApprover:
    """Holds each prompt open until released (or cancelled); counts how many are open at once."""

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.release = threading.Event()
        self.answer = Answer.APPROVE_ONCE
        self.open_now = 0
        self.max_open = 0
        self.asked: list[ApprovalRequest] = []
        self._lock = threading.Lock()
        self._cancelled = False

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        with self._lock:
            self.open_now += 1
            self.max_open = max(self.max_open, self.open_now)
            self.asked.append(request)
        self.opened.set()
        try:
            self.release.wait(10)
            if self._cancelled:
                return Reply(Answer.DENY, by="kill-switch", note="cancelled")
            return Reply(self.answer)
        finally:
            with self._lock:
                self.open_now -= 1

    def cancel_all(self, reason: str) -> None:
        self._cancelled = True
        self.release.set()


@dataclasses.dataclass(frozen=True)
class Peer:
    pid: int = 4242
    uid: int = os.getuid()
    gid: int = os.getgid()


# -- harness ----------------------------------------------------------------------------------------


class Harness:
    def __init__(self, root: Path, approver: Any = None, policy_text: str = POLICY, **kw: Any) -> None:
        self.root = root
        self.paths = Paths.for_testing(root)
        root.mkdir(parents=True, exist_ok=True)
        policy_file = root / "policy.toml"
        policy_file.write_text(policy_text)
        self.policy = load_policy(policy_file)
        self.journal = Journal()
        self.real_audit = AuditLog(self.paths.db)
        self.audit = RecordingAudit(self.journal, self.real_audit)
        _OPEN.append(self)
        self.desktop = FakeDesktop()
        self.executor = FakeExecutor(self.journal, self.audit)
        self.approver = approver if approver is not None else ScriptedApprover(Answer.APPROVE_ONCE)
        self.clock = Clock()
        self.events: list[dict] = []
        self.sup = Supervisor(gate=SafetyGate(self.policy), audit=self.audit, desktop=self.desktop,
                              executor=self.executor, approver=self.approver, policy=self.policy,
                              paths=self.paths, clock=self.clock, **kw)
        self.sup.subscribe(self.events.append)
        self._ids = 0

    def rid(self) -> str:
        self._ids += 1
        return str(self._ids)

    def connect(self, agent: str | None = "agent-1", **hello: Any):
        conn = self.sup.connect(Peer())
        if agent is not None:
            conn.reply = conn.handle(Hello(v=1, id=self.rid(), agent=agent, **hello))
        return conn

    def act(self, conn, action: dict, execute: bool = True) -> dict:
        return conn.handle(Act(v=1, id=self.rid(), action=action_from_dict(action), execute=execute))

    def plan(self, conn, actions: list[dict], execute: bool = True) -> dict:
        return conn.handle(Plan(v=1, id=self.rid(), actions=[action_from_dict(a) for a in actions],
                                execute=execute))

    def control(self, conn, command: str, **kw: Any) -> dict:
        return conn.handle(Control(v=1, id=self.rid(), command=command, **kw))


_OPEN: list[Harness] = []


@pytest.fixture(autouse=True)
def _close_audit_logs():
    yield
    while _OPEN:
        _OPEN.pop().real_audit.close()


@pytest.fixture
def h(tmp_path: Path) -> Harness:
    return Harness(tmp_path)


def move(x: int = 10) -> dict:
    return {"type": "move", "x": x, "y": 20}


def shell(cmd: str = "echo hi") -> dict:
    return {"type": "shell", "command": cmd}


def click(x: int = 100) -> dict:
    return {"type": "click", "x": x, "y": 200, "target": {"label": "Open"}}


BLOCKED = {"type": "system", "name": "format_disk"}  # gate.always_block


def code(excinfo: pytest.ExceptionInfo) -> str:
    return excinfo.value.code


# -- hello and sessions ---------------------------------------------------------------------------


def test_first_request_must_be_hello(h: Harness) -> None:
    conn = h.connect(agent=None)
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move())
    assert code(e) == "bad_request" and "hello" in e.value.message
    assert h.executor.executed == [] and h.audit.decisions == {}


def test_hello_opens_a_session_and_reports_state_policy_and_limits(h: Harness) -> None:
    conn = h.connect("alpha", expect=None)
    reply = conn.reply
    assert reply["v"] == 1 and reply["state"] == "active" and reply["policy"] == "balanced"
    assert reply["limits"]["max_steps"] == 50 and reply["limits"]["max_errors"] == 3
    assert h.audit.sessions[reply["session"]]["agent"] == "alpha"
    assert h.audit.sessions[reply["session"]]["pid"] == 4242
    with pytest.raises(DeskgateError) as e:  # a second hello on a live session
        conn.handle(Hello(v=1, id="x", agent="alpha"))
    assert code(e) == "bad_request"


def test_hello_refused_when_disabled_by_env_or_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    h = Harness(tmp_path / "a")
    monkeypatch.setenv("DESKGATE_DISABLED", "1")
    with pytest.raises(DeskgateError) as e:
        h.connect()
    assert code(e) == "disabled"
    monkeypatch.delenv("DESKGATE_DISABLED")
    h.connect()  # works again
    h2 = Harness(tmp_path / "b", disabled=True)
    with pytest.raises(DeskgateError) as e:
        h2.connect()
    assert code(e) == "disabled" and h2.audit.sessions == {}


def test_one_active_session_per_agent(h: Harness) -> None:
    first = h.connect("alpha")
    with pytest.raises(DeskgateError) as e:
        h.connect("alpha")
    assert code(e) == "limit" and "already has an active session" in e.value.message
    h.connect("beta")  # another name is fine
    first.close()
    h.connect("alpha")  # the name is free again after a disconnect
    assert any(s["closed"] == "disconnected" for s in h.audit.sessions.values())


def test_sessions_per_hour(tmp_path: Path) -> None:
    h = Harness(tmp_path, policy_text=POLICY.replace("sessions_per_hour = 10", "sessions_per_hour = 2"))
    for _ in range(2):
        h.connect("alpha").handle(Bye(v=1, id="b"))
    with pytest.raises(DeskgateError) as e:
        h.connect("alpha")
    assert code(e) == "limit" and "sessions_per_hour" in e.value.message
    h.clock.advance(3601)
    h.connect("alpha")


# -- the decision path ------------------------------------------------------------------------------


def test_allowed_action_is_recorded_then_executed(h: Harness) -> None:
    conn = h.connect()
    reply = h.act(conn, move())
    assert reply["verdict"] == "executed" and reply["decision"] == "allow" and reply["decided_by"] == "policy"
    assert reply["result"] == {"exit_code": 0, "stdout": "ok"}
    did = reply["audit_id"]
    # order: decision row → execution → execution event → outcome
    assert h.journal == [("decision", did), ("execute", "move"), ("event", "execution"), ("outcome", "executed")]
    assert h.executor.decisions_seen == [1]
    assert h.audit.decisions[did]["outcome"]["verdict"] == "executed"
    assert [e["kind"] for e in h.events if e["kind"] == "decision"] == ["decision"]


def test_a_new_document_in_a_persons_folder_goes_to_the_executor_as_new(h: Harness) -> None:
    """The gate let it pass because nothing is there yet: the executor is told not to replace what may appear."""
    conn = h.connect()
    path = "/home/maria-nobody/Documents/agenda.md"
    reply = h.act(conn, {"type": "file_write", "path": path, "content": "monday"})
    assert reply["verdict"] == "executed" and reply["decision"] == "allow", reply
    assert h.executor.kw[-1] == {"judged": (path,), "new_file": True}


def test_execute_false_is_allowed_and_nothing_runs(h: Harness) -> None:
    conn = h.connect()
    reply = h.act(conn, move(), execute=False)
    assert reply["verdict"] == "allowed" and "result" not in reply
    assert h.executor.executed == []
    assert h.audit.decisions[reply["audit_id"]]["execute"] is False


def test_block_is_denied_by_policy_and_never_asked(h: Harness) -> None:
    conn = h.connect()
    reply = h.act(conn, BLOCKED)
    assert reply["verdict"] == "denied" and reply["decision"] == "block" and reply["decided_by"] == "policy"
    assert h.executor.executed == [] and h.approver.asked == []
    assert h.audit.decisions[reply["audit_id"]]["outcome"]["verdict"] == "denied"


def test_confirm_approved_once_executes(h: Harness) -> None:
    conn = h.connect()
    reply = h.act(conn, shell("echo hi"))
    assert reply["verdict"] == "executed" and reply["decision"] == "confirm" and reply["decided_by"] == "person"
    (request,) = h.approver.asked
    assert request.action["command"] == "echo hi" and request.agent == "agent-1"
    # a command is shown as itself: no screenshot of whatever window is in front
    assert request.preview_png is None and request.timeout_s == 30
    assert h.audit.kinds(reply["audit_id"]) == ["answer", "execution"]
    assert reply["audit_id"] not in h.audit.previews
    assert h.sup.grants() == []  # once: no grant


def test_a_click_that_asks_is_shown_with_a_preview_of_its_target(h: Harness) -> None:
    conn = h.connect()
    reply = h.act(conn, {"type": "click", "x": 100, "y": 200, "target": {"label": "Delete", "role": "button"}})
    assert reply["decision"] == "confirm", reply
    (request,) = h.approver.asked
    assert request.preview_png == b"\x89PNG-fake"
    assert h.audit.previews[reply["audit_id"]] == b"\x89PNG-fake"


@pytest.mark.parametrize("answer", [Answer.DENY, Answer.TIMEOUT])
def test_confirm_denied_or_timed_out_does_not_run(tmp_path: Path, answer: Answer) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(answer))
    conn = h.connect()
    reply = h.act(conn, shell())
    # a timeout is logged as a timeout, never as a person's answer
    assert reply["verdict"] == "denied" and reply["decided_by"] == ("timeout" if answer is Answer.TIMEOUT
                                                                    else "person")
    assert h.audit.decisions[reply["audit_id"]]["outcome"]["decided_by"] == reply["decided_by"]
    assert h.executor.executed == []
    assert h.sup.grants() == []
    if answer is Answer.TIMEOUT:
        assert "nobody answered within 30 s" in reply["reason"]


def test_approver_secrets_are_sanitised(tmp_path: Path) -> None:
    h = Harness(tmp_path, policy_text=POLICY.replace('click = "ask"', 'click = "ask", type = "ask"'))
    conn = h.connect()
    h.act(conn, {"type": "type", "text": "hunter2-secret", "target": {"label": "Password"}})
    shown = h.approver.asked[0].action
    assert "hunter2-secret" not in repr(shown) and shown["text"]["redacted"] is True


def test_headless_default_denies_fast_with_a_clear_reason(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=DenyAllApprover())
    conn = h.connect()
    started = time.monotonic()
    reply = h.act(conn, shell())
    assert time.monotonic() - started < 1.0
    assert reply["verdict"] == "denied" and reply["decided_by"] == "headless-rule"
    assert "no approver" in reply["reason"] and h.executor.executed == []


def test_deny_and_stop_ends_the_session_and_bars_the_agent_until_resume(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.DENY_AND_STOP))
    conn = h.connect("alpha")
    reply = h.act(conn, shell())
    assert reply["verdict"] == "denied" and "stopped" in reply["reason"]
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move())
    assert code(e) == "killed"
    with pytest.raises(DeskgateError) as e:
        h.connect("alpha")
    assert code(e) == "killed"
    h.connect("beta")  # other agents carry on
    h.sup.kill("test", "person")
    h.sup.resume("person")
    h.connect("alpha")


def test_audit_unwritable_means_nothing_executes(h: Harness) -> None:
    conn = h.connect()
    h.audit.fail = True
    for action in (move(), shell()):
        with pytest.raises(DeskgateError) as e:
            h.act(conn, action)
        assert code(e) == "internal"
        assert "audit log unwritable" in e.value.message and "nothing was executed" in e.value.message
    assert h.executor.executed == [] and h.approver.asked == []


def test_decision_row_is_committed_before_execution(h: Harness) -> None:
    seen: list[tuple] = []

    def look(action: Any) -> None:
        # another connection to the file: only committed rows are visible to it
        with sqlite3.connect(h.paths.db) as db:
            seen.append(db.execute("SELECT request_id, type, decision FROM decisions ORDER BY id DESC").fetchone())

    h.executor.before = look
    conn = h.connect()
    reply = h.act(conn, move())
    assert seen == [("2", "move", "allow")]  # request 1 was the hello
    row = h.real_audit.reader.get(reply["audit_id"])
    assert row["verdict"] == "executed" and [e["kind"] for e in row["events"]] == ["execution", "outcome"]
    assert h.real_audit.reader.verify().ok


def test_outcome_row_is_committed_before_the_reply(h: Harness) -> None:
    conn = h.connect()
    reply = h.act(conn, move())
    # another connection to the file, right after the reply, with no flush: only committed rows show
    with sqlite3.connect(h.paths.db) as db:
        kinds = db.execute("SELECT kind, verdict FROM events WHERE decision_id = ? ORDER BY id",
                           (reply["audit_id"],)).fetchall()
    assert kinds == [("execution", None), ("outcome", "executed")]
    assert h.real_audit.reader.verify().ok


def test_an_outcome_the_log_cannot_take_is_said_in_the_reply(h: Harness) -> None:
    conn = h.connect()
    h.executor.before = lambda action: setattr(h.audit, "fail", True)  # the log fails once the action runs
    reply = h.act(conn, move())
    assert reply["verdict"] == "executed" and len(h.executor.executed) == 1  # it ran: the reply says so
    assert "outcome not recorded" in reply["warning"]


@pytest.mark.parametrize(("action", "execute", "defer", "verdict"), [
    (BLOCKED, True, False, "denied"),
    (move(), False, False, "allowed"),
    (shell("echo hi"), False, True, "deferred"),  # a CONFIRM left to the agent's own prompt
])
def test_when_nothing_runs_the_decision_and_its_outcome_share_one_commit(
        h: Harness, action: dict, execute: bool, defer: bool, verdict: str) -> None:
    conn = h.connect()
    h.real_audit.flush()  # the session's commit has reached the old on_commit (it runs after its caller returns)
    batches: list[list[tuple[str, tuple]]] = []
    h.real_audit.on_commit = batches.append
    reply = conn.handle(Act(v=1, id="r", action=action_from_dict(action), execute=execute, defer=defer))
    assert reply["verdict"] == verdict and h.executor.executed == [] and h.approver.asked == []
    did = reply["audit_id"]
    with sqlite3.connect(h.paths.db) as db:  # on disk before the reply
        assert db.execute("SELECT verdict FROM events WHERE kind = 'outcome' AND decision_id = ?",
                          (did,)).fetchall() == [(verdict,)]
    h.real_audit.flush()  # the writer hands a commit's rows to on_commit after its callers are released
    [batch] = [b for b in batches if ("decisions", did) in [(t, row[0]) for t, row in b]]
    assert [(t, row[3], row[5], row[6]) for t, row in batch if t == "events"] == [("events", "outcome", did, verdict)]
    assert h.real_audit.reader.verify().ok


def _until(condition: Any) -> None:
    """Wait for another thread to get somewhere (a guard against a hang, not a time limit on the code)."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, "the other threads never got there"
        time.sleep(0.001)


def test_decisions_and_outcomes_of_concurrent_agents_share_commits(h: Harness) -> None:
    agents = 4
    conns = [h.connect(f"agent-{k}") for k in range(agents)]
    log = h.real_audit
    log.flush()  # the sessions' commits have reached the old on_commit (it runs after their callers return)
    holds = [threading.Event(), threading.Event()]
    batches: list[list[tuple[str, tuple]]] = []

    def on_commit(rows: list) -> None:
        batches.append(rows)
        if len(batches) <= len(holds):
            holds[len(batches) - 1].wait(60)  # keeps the writer here while the next rows queue up

    log.on_commit = on_commit
    replies: list[Any] = [None] * agents
    try:
        opener = threading.Thread(target=log.record_event, args=("note",))
        opener.start()
        _until(lambda: len(batches) == 1)

        def agent(k: int) -> None:
            replies[k] = conns[k].handle(Act(v=1, id=f"r{k}", action=action_from_dict(move(k))))

        threads = [threading.Thread(target=agent, args=(k,)) for k in range(agents)]
        for t in threads:
            t.start()
        _until(lambda: log._waiting == agents)  # every decision row waits behind the held commit
        holds[0].set()
        _until(lambda: len(batches) == 2)  # the decisions are committed: the actions run now
        _until(lambda: log._waiting == agents)  # every outcome row waits behind the held commit
        holds[1].set()
        for t in threads:
            t.join(60)
        log.flush()  # the writer hands a commit's rows to on_commit after its callers are released
    finally:
        for hold in holds:
            hold.set()
        opener.join(60)
    decisions, outcomes = batches[1], batches[2]
    assert [table for table, _ in decisions] == ["decisions"] * agents  # one commit for all the decisions
    assert sorted(r["audit_id"] for r in replies) == sorted(row[0] for _, row in decisions)
    kinds = [row[3] for table, row in outcomes if table == "events"]
    assert sorted(kinds) == ["execution"] * agents + ["outcome"] * agents  # one commit for all the outcomes
    assert all(r["verdict"] == "executed" for r in replies)
    assert log.reader.verify().ok


def test_closed_audit_log_means_nothing_executes(h: Harness) -> None:
    conn = h.connect()
    h.real_audit.close()  # the real log refusing writes, not a fake flag
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move())
    assert code(e) == "internal" and "audit log unwritable" in e.value.message
    assert h.executor.executed == []


def test_window_changed_after_approval_is_denied(h: Harness) -> None:
    conn = h.connect()
    h.approver.hook = lambda request: setattr(h.desktop, "fresh", BROWSER)  # the screen moves while asking
    reply = h.act(conn, click())
    assert reply["verdict"] == "denied" and "active window changed" in reply["reason"]
    assert "Bank - Browser" in reply["reason"] and h.executor.executed == []


def test_executor_error_is_reported_and_counted(h: Harness) -> None:
    conn = h.connect()
    h.executor.fail_on = {0, 1, 2}
    for i in range(3):
        reply = h.act(conn, move(i))
        assert reply["verdict"] == "error" and reply["result"]["error"]["message"] == "xdotool exploded"
    # max_errors = 3: the session is over
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move(99))
    assert code(e) == "limit" and "too many errors" in e.value.message
    assert len(h.executor.executed) == 3


# -- limits ------------------------------------------------------------------------------------------


def test_max_steps(tmp_path: Path) -> None:
    h = Harness(tmp_path, policy_text=POLICY.replace("max_steps = 50", "max_steps = 3"))
    conn = h.connect()
    for i in range(3):
        h.act(conn, move(i))
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move(9))
    assert code(e) == "limit" and "max_steps" in e.value.message
    assert len(h.executor.executed) == 3
    assert h.audit.kinds()[-1] == "error"  # the refusal is in the log


def test_actions_per_minute(tmp_path: Path) -> None:
    h = Harness(tmp_path, policy_text=POLICY.replace("actions_per_minute = 30", "actions_per_minute = 2"))
    conn = h.connect()
    h.act(conn, move(1))
    h.act(conn, move(2))
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move(3))
    assert code(e) == "limit" and "actions_per_minute" in e.value.message
    h.clock.advance(61)
    assert h.act(conn, move(4))["verdict"] == "executed"


def test_session_timeout_ends_the_session(h: Harness) -> None:
    conn = h.connect("alpha")
    h.clock.advance(601)
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move())
    assert code(e) == "limit" and "session_timeout_s" in e.value.message
    sid = conn.reply["session"]
    assert "session timeout" in h.audit.sessions[sid]["closed"]
    h.connect("alpha")  # a new session may start


def test_loop_detection_uses_the_session_history_but_check_does_not_count(tmp_path: Path) -> None:
    h = Harness(tmp_path, policy_text=POLICY.replace("threshold = 100", "threshold = 3"))
    conn = h.connect()
    reload = {"type": "key", "keys": ["ctrl", "r"]}  # moves and navigation keys may repeat; this may not
    for _ in range(5):
        assert conn.handle(Check(v=1, id="c", action=action_from_dict(reload)))["decision"] == "allow"
    assert h.act(conn, reload)["verdict"] == "executed"
    assert h.act(conn, reload)["verdict"] == "executed"
    third = h.act(conn, reload)
    assert third["verdict"] == "denied" and "block.agent.loop" in third["rules"]


# -- check, observe, command --------------------------------------------------------------------------


def test_check_assesses_only(h: Harness) -> None:
    conn = h.connect()
    reply = conn.handle(Check(v=1, id="c", action=action_from_dict(shell())))
    assert reply == {"decision": "confirm", "rules": ["confirm.policy.default-mode"],
                     "reason": reply["reason"], "risk": "medium"}
    assert h.audit.decisions == {} and h.approver.asked == [] and h.executor.executed == []


def test_observe_returns_the_desktop(h: Harness) -> None:
    conn = h.connect()
    reply = conn.handle(Observe(v=1, id="o"))
    assert reply["window_title"] == "notes.txt - Editor" and reply["app"] == "editor"
    assert reply["screen_width"] == 1920


def test_session_expect_from_hello_applies_to_actions(h: Harness) -> None:
    conn = h.connect("alpha", expect=None)
    assert conn.handle(Check(v=1, id="c", action=action_from_dict(move())))["decision"] == "allow"
    from gate.model import Expect

    conn2 = h.sup.connect(Peer())
    conn2.handle(Hello(v=1, id="h", agent="beta", expect=Expect(app="browser")))
    reply = conn2.handle(Check(v=1, id="c", action=action_from_dict(move())))
    assert reply["decision"] == "confirm" and "confirm.agent.app-mismatch" in reply["rules"]


# -- grants -------------------------------------------------------------------------------------------


def test_approve_for_session_grants_the_same_action_only(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_SESSION))
    conn = h.connect()
    first = h.act(conn, shell("make test"))
    assert first["decided_by"] == "person" and len(h.sup.grants()) == 1
    second = h.act(conn, shell("make test"))
    assert second["verdict"] == "executed" and second["decided_by"] == "session-approval"
    assert len(h.approver.asked) == 1
    h.act(conn, shell("make install"))  # a changed command is a new key: asked again
    assert len(h.approver.asked) == 2
    h.desktop.observation = BROWSER     # a shell command is not aimed at a window: still granted
    assert h.act(conn, shell("make test"))["decided_by"] == "session-approval"
    assert len(h.approver.asked) == 2


def test_a_pointer_grant_holds_only_on_its_window(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_SESSION))
    conn = h.connect()
    h.act(conn, click())
    assert h.act(conn, click())["decided_by"] == "session-approval"
    h.desktop.observation = BROWSER     # another window: the grant does not cover a click there
    assert h.act(conn, click())["decided_by"] == "person"
    assert len(h.approver.asked) == 2


def test_a_scoped_grant_covers_later_sessions_of_the_scope_only(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_SESSION))
    first = h.connect("hook:abc:1", scope="hook:abc")
    assert h.act(first, shell("make test"), execute=False)["decided_by"] == "person"
    first.close()  # the hook's process ends: its session ends, the scope's grant stays
    second = h.connect("hook:abc:2", scope="hook:abc")
    assert h.act(second, shell("make test"), execute=False)["decided_by"] == "session-approval"
    other = h.connect("hook:xyz:3", scope="hook:xyz")
    assert h.act(other, shell("make test"), execute=False)["decided_by"] == "person"
    unscoped = h.connect("plain")
    assert h.act(unscoped, shell("make test"), execute=False)["decided_by"] == "person"
    assert len(h.approver.asked) == 3
    h.clock.advance(h.policy.limits.session_timeout_s + 1)  # unused for that long: the scope's grant ends
    third = h.connect("hook:abc:4", scope="hook:abc")
    assert h.act(third, shell("make test"), execute=False)["decided_by"] == "person"


def test_grants_are_offered_only_where_they_can_cover_a_repeat(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_ONCE))
    h.act(h.connect("runs"), shell("make test"))                             # executes: it may repeat
    h.act(h.connect("asks-once"), shell("make test"), execute=False)        # a one-shot asker
    h.act(h.connect("hook:s:1", scope="hook:s"), shell("make test"), execute=False)  # its scope repeats
    assert [r.grantable for r in h.approver.asked] == [True, False, True]


def test_a_deferred_confirm_is_recorded_and_nobody_is_asked(h: Harness) -> None:
    conn = h.connect()
    reply = conn.handle(Act(v=1, id=h.rid(), action=action_from_dict(shell("make test")), execute=False,
                            defer=True))
    assert reply["verdict"] == "deferred" and reply["decision"] == "confirm"
    assert h.approver.asked == [] and h.executor.executed == []
    h.real_audit.flush()
    rows = h.real_audit.reader.query(limit=5)
    assert [(r["decision"], r["verdict"]) for r in rows] == [("confirm", "deferred")]
    with pytest.raises(DeskgateError, match="defer"):  # the agent that defers runs the action itself
        parse_request(json.dumps({"v": 1, "id": "x", "op": "act", "action": shell(), "defer": True}).encode())


def test_always_allow_writes_a_rule_that_the_reloaded_policy_applies(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.ALWAYS_ALLOW))
    h.sup.policy_file = tmp_path / "policy.toml"
    conn = h.connect()
    first = h.act(conn, shell("make test"))
    assert first["verdict"] == "executed" and first["decided_by"] == "person"
    offered = h.approver.asked[0].allow_rule
    # as narrow as the approval: the command, in its working directory (home when none), with no variables
    assert offered == {"id": "shell-make-test", "types": ["shell"], "command": "make test",
                       "cwd": default_home(), "env": {}}
    text = h.sup.policy_file.read_text()
    assert "[[allow]]" in text and 'command = "make test"' in text and "Always allow this" in text
    second = h.act(conn, shell("make test"))
    assert second["decided_by"] == "policy" and second["rules"] == ["allow.policy.shell-make-test"]
    assert h.act(conn, shell("make install"))["decided_by"] == "person"  # only that command
    assert len(h.approver.asked) == 2
    assert any(e.get("kind") == "rule" and e.get("ok") for e in h.events)


def test_always_allow_is_not_offered_for_complex_shell(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_ONCE))
    h.act(h.connect(), shell("make test && make install"))
    assert h.approver.asked[0].allow_rule is None


def test_grant_expires_after_the_granted_minutes(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_5_MIN))
    conn = h.connect()
    h.act(conn, shell())
    h.clock.advance(299)
    assert h.act(conn, shell())["decided_by"] == "session-approval"
    h.clock.advance(2)
    assert h.act(conn, shell())["decided_by"] == "person"
    assert len(h.approver.asked) == 2


def test_grant_is_scoped_to_its_session_and_revocable(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_SESSION))
    conn = h.connect("alpha")
    h.act(conn, shell())
    (grant,) = h.sup.grants()
    other = h.connect("beta")
    assert h.act(other, shell())["decided_by"] == "person"  # beta's own approval, not alpha's grant
    assert len(h.sup.grants()) == 2
    cli = h.connect(agent=None)
    assert h.control(cli, "revoke", grant=grant.id) == {"revoked": grant.id}
    assert h.act(conn, shell())["decided_by"] == "person"
    with pytest.raises(DeskgateError) as e:
        h.control(cli, "revoke", grant="g999")
    assert code(e) == "bad_request"
    assert "revoke" in h.audit.kinds()
    conn.handle(Bye(v=1, id="b"))  # the session's grants end with it
    assert all(g.agent == "beta" for g in h.sup.grants())


def test_timeout_and_headless_answers_never_grant(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_SESSION, by="headless-rule"))
    conn = h.connect()
    assert h.act(conn, shell())["decided_by"] == "headless-rule"
    assert h.sup.grants() == []
    h2 = Harness(tmp_path / "t", approver=ScriptedApprover(Answer.TIMEOUT))
    conn2 = h2.connect()
    h2.act(conn2, shell())
    assert h2.sup.grants() == []


def test_no_grant_when_the_window_changed_after_approval(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_SESSION))
    conn = h.connect()
    h.approver.hook = lambda request: setattr(h.desktop, "fresh", BROWSER)
    assert h.act(conn, click())["verdict"] == "denied"
    assert h.sup.grants() == []


# -- kill and pause -----------------------------------------------------------------------------------


def test_kill_denies_a_pending_confirmation_and_refuses_what_follows(tmp_path: Path) -> None:
    approver = BlockingApprover()
    h = Harness(tmp_path, approver=approver)
    conn = h.connect()
    replies: list[dict] = []
    t = threading.Thread(target=lambda: replies.append(h.act(conn, shell())))
    t.start()
    assert approver.opened.wait(5)
    started = time.monotonic()
    h.sup.kill("runaway agent", "hotkey")
    t.join(5)
    latency = time.monotonic() - started
    assert replies[0]["verdict"] == "denied" and replies[0]["decided_by"] == "kill-switch"
    assert latency < 0.5, f"kill took {latency * 1000:.0f} ms to deny the pending confirmation"
    assert h.executor.executed == []
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move())
    assert code(e) == "killed" and "runaway agent" in e.value.message
    assert h.sup.state == "killed"
    assert "kill" in h.audit.kinds()
    assert {"kind": "state", "state": "killed", "reason": "runaway agent", "by": "hotkey"} in h.events


def test_kill_between_approval_and_execution_stops_it(h: Harness) -> None:
    conn = h.connect()
    h.approver.hook = lambda request: h.sup.kill("pressed during the dialog", "hotkey")
    reply = h.act(conn, shell())
    assert reply["verdict"] == "denied" and reply["decided_by"] == "kill-switch"
    assert h.executor.executed == []


def test_kill_revokes_grants(tmp_path: Path) -> None:
    h = Harness(tmp_path, approver=ScriptedApprover(Answer.APPROVE_SESSION))
    conn = h.connect()
    h.act(conn, shell())
    assert len(h.sup.grants()) == 1
    h.sup.kill("stop", "person")
    assert h.sup.grants() == []


def test_kill_survives_a_restart_until_resume(h: Harness) -> None:
    h.sup.kill("left killed", "tray")
    path = h.paths.kill_state
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    again = Supervisor(gate=h.sup.gate, audit=h.audit, desktop=h.desktop, executor=h.executor,
                       approver=h.approver, policy=h.policy, paths=h.paths, clock=h.clock)
    assert again.state == "killed" and again.status()["reason"] == "left killed"
    with pytest.raises(DeskgateError) as e:
        again.connect(Peer()).handle(Hello(v=1, id="1", agent="a"))
    assert code(e) == "killed"
    again.resume("person")
    assert again.state == "active" and not path.exists()
    again.connect(Peer()).handle(Hello(v=1, id="1", agent="a"))


def test_corrupt_kill_state_fails_closed(tmp_path: Path) -> None:
    f = KillStateFile(tmp_path / "state" / "killed.json")
    assert f.load() is None
    f.save(KillRecord("why", "who", 1.0))
    assert f.load() == KillRecord("why", "who", 1.0)
    f.path.write_text("{not json")
    assert f.load() is not None and "corrupt" in f.load().reason
    f.clear()
    assert f.load() is None


def test_pause_refuses_actions_but_not_checks(h: Harness) -> None:
    conn = h.connect()
    h.sup.pause("person")
    assert h.sup.state == "paused"
    with pytest.raises(DeskgateError) as e:
        h.act(conn, move())
    assert code(e) == "paused"
    assert conn.handle(Check(v=1, id="c", action=action_from_dict(move())))["decision"] == "allow"
    h.sup.unpause("person")
    assert h.act(conn, move())["verdict"] == "executed"
    assert [k for k in h.audit.kinds() if k in ("pause", "unpause")] == ["pause", "unpause"]


# -- one prompt at a time, and the dialog gate ----------------------------------------------------------


def test_one_prompt_at_a_time_and_nothing_executes_while_a_dialog_is_open(tmp_path: Path) -> None:
    approver = BlockingApprover()
    h = Harness(tmp_path, approver=approver)
    a, b, c = h.connect("a"), h.connect("b"), h.connect("c")
    replies: dict[str, dict] = {}

    def run(name: str, conn, action: dict) -> None:
        replies[name] = h.act(conn, action)

    ta = threading.Thread(target=run, args=("a", a, shell("echo a")))
    ta.start()
    assert approver.opened.wait(5)
    tb = threading.Thread(target=run, args=("b", b, shell("echo b")))
    tc = threading.Thread(target=run, args=("c", c, move()))  # allowed, but a dialog is open
    tb.start()
    tc.start()
    deadline = time.monotonic() + 5
    while h.sup.status()["queued"] < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    assert h.executor.executed == [], "an action executed while a confirmation dialog was open"
    assert approver.max_open == 1
    approver.release.set()
    for t in (ta, tb, tc):
        t.join(5)
    assert approver.max_open == 1 and len(approver.asked) == 2
    assert all(r["verdict"] == "executed" for r in replies.values())


def test_waiting_for_a_dialog_is_bounded_by_the_step_timeout(tmp_path: Path) -> None:
    approver = BlockingApprover()
    h = Harness(tmp_path, approver=approver)
    a, c = h.connect("a"), h.connect("c")
    replies: dict[str, dict] = {}
    ta = threading.Thread(target=lambda: replies.setdefault("a", h.act(a, shell())))
    ta.start()
    assert approver.opened.wait(5)
    tc = threading.Thread(target=lambda: replies.setdefault("c", h.act(c, move())))
    tc.start()
    time.sleep(0.1)
    h.clock.advance(61)  # step_timeout_s 30 + approvals.timeout_s 30
    tc.join(5)
    assert replies["c"]["verdict"] == "denied" and replies["c"]["decided_by"] == "limit"
    assert "step_timeout_s" in replies["c"]["reason"]
    approver.release.set()
    ta.join(5)
    assert [x.type for x in h.executor.executed] == ["shell"]


# -- plans --------------------------------------------------------------------------------------------


def test_allowed_plan_runs_every_step_in_order(h: Harness) -> None:
    conn = h.connect()
    reply = h.plan(conn, [move(1), {"type": "key", "keys": ["ctrl", "s"]}, {"type": "wait", "seconds": 0}])
    assert reply["verdict"] == "executed" and reply["result"] == {"completed": 3}
    assert [s["verdict"] for s in reply["steps"]] == ["executed"] * 3
    assert [a.type for a in h.executor.executed] == ["move", "key", "wait"]
    assert len(h.audit.decisions) == 1 and h.audit.decisions[reply["audit_id"]]["op"] == "plan"


def test_plan_with_a_blocked_step_runs_nothing(h: Harness) -> None:
    conn = h.connect()
    reply = h.plan(conn, [move(1), BLOCKED])
    assert reply["verdict"] == "denied" and reply["decision"] == "block"
    assert h.executor.executed == [] and h.approver.asked == []
    assert [s["verdict"] for s in reply["steps"]] == ["not_run", "not_run"]


def test_plan_needs_one_approval_for_all_steps(h: Harness) -> None:
    conn = h.connect()
    reply = h.plan(conn, [shell("echo 1"), move(2), shell("echo 3")])
    assert reply["verdict"] == "executed" and reply["decided_by"] == "person"
    (request,) = h.approver.asked
    assert len(request.plan) == 3 and request.plan[0][0]["command"] == "echo 1"
    assert request.plan[1][1].decision.value == "allow"
    assert len(h.executor.executed) == 3


def test_plan_stops_at_the_first_failure(h: Harness) -> None:
    conn = h.connect()
    h.executor.fail_on = {1}
    reply = h.plan(conn, [move(1), move(2), move(3)])
    assert reply["verdict"] == "error" and reply["result"] == {"completed": 1}
    assert [s["verdict"] for s in reply["steps"]] == ["executed", "error", "not_run"]
    assert len(h.executor.executed) == 2


def test_plan_stops_when_killed_between_steps(h: Harness) -> None:
    conn = h.connect()
    h.executor.before = lambda action: h.sup.kill("mid-plan", "hotkey") if action.x == 1 else None
    reply = h.plan(conn, [move(1), move(2)])
    assert reply["verdict"] == "denied" and reply["decided_by"] == "kill-switch"
    assert [s["verdict"] for s in reply["steps"]] == ["executed", "not_run"]


def test_plan_stops_when_the_desktop_turns_a_step_into_a_block(h: Harness) -> None:
    conn = h.connect()
    # after step 0 a deskgate window is active: typing would land in it
    h.executor.before = lambda action: setattr(
        h.desktop, "fresh", msgspec.structs.replace(EDITOR, protected_active=True))
    reply = h.plan(conn, [move(1), {"type": "type", "text": "hello"}])
    assert reply["verdict"] == "denied" and "step 1" in reply["reason"]
    assert [a.type for a in h.executor.executed] == ["move"]


def test_plan_counts_every_step_toward_max_steps(tmp_path: Path) -> None:
    h = Harness(tmp_path, policy_text=POLICY.replace("max_steps = 50", "max_steps = 3"))
    conn = h.connect()
    with pytest.raises(DeskgateError) as e:
        h.plan(conn, [move(1), move(2), move(3), move(4)])
    assert code(e) == "limit" and h.executor.executed == []


# -- control and notifications ------------------------------------------------------------------------


def test_control_from_the_command_line(h: Harness) -> None:
    h.sup.person_check = lambda pid, agents: None  # the requesting process counts as the person at a terminal
    cli = h.connect(agent=None)
    assert h.control(cli, "status")["state"] == "active"
    assert h.control(cli, "pause")["state"] == "paused"
    assert h.control(cli, "unpause", person="tty")["state"] == "active"
    assert h.control(cli, "kill", reason="from a script")["state"] == "killed"
    assert h.control(cli, "resume", person="tty")["state"] == "active"
    assert h.control(cli, "grants") == {"grants": []}


def test_resume_needs_the_persons_proof_and_the_check_sees_the_agents(h: Harness) -> None:
    seen: list[tuple] = []
    h.sup.person_check = lambda pid, agents: seen.append((pid, sorted(agents))) or "a background job"
    agent = h.connect("alpha")
    cli = h.connect(agent=None)
    h.sup.kill("x", "person")
    with pytest.raises(DeskgateError) as e:
        h.control(cli, "resume")
    assert code(e) == "unauthorized" and seen == []  # no proof claimed: not even looked at
    with pytest.raises(DeskgateError) as e:
        h.control(cli, "resume", person="tty")
    assert code(e) == "unauthorized" and "a background job" in e.value.message
    assert seen == [(cli.peer.pid, [agent.session.pid])]
    assert h.sup.state == "killed"


def test_another_uid_may_stop_but_nothing_else(h: Harness) -> None:
    other = h.sup.connect(dataclasses.replace(h.connect(agent=None).peer, uid=h.sup.person_uid + 1))
    for command in ("status", "grants", "unpause", "resume"):
        with pytest.raises(DeskgateError) as e:
            h.control(other, command, person="tty" if command in ("resume", "unpause") else None)
        assert code(e) == "unauthorized"
    assert h.control(other, "pause")["state"] == "paused"
    assert h.control(other, "kill")["state"] == "killed"


def test_an_agent_session_cannot_send_control(h: Harness) -> None:
    h.sup.kill("x", "person")
    h.sup.resume("person")
    conn = h.connect()
    with pytest.raises(DeskgateError) as e:
        h.control(conn, "resume")
    assert code(e) == "unauthorized"


def test_status_lists_sessions_and_subscribers_hear_decisions(h: Harness) -> None:
    conn = h.connect("alpha")
    h.act(conn, move())
    status = h.sup.status()
    assert [s["agent"] for s in status["sessions"]] == ["alpha"] and status["sessions"][0]["steps"] == 1
    kinds = [e["kind"] for e in h.events]
    assert kinds == ["session", "decision"]
    assert h.events[1]["verdict"] == "executed" and h.events[1]["agent"] == "alpha"


def test_a_failing_subscriber_does_not_break_decisions(h: Harness) -> None:
    def boom(event: dict) -> None:
        raise RuntimeError("tray died")

    h.sup.subscribe(boom)
    conn = h.connect()
    assert h.act(conn, move())["verdict"] == "executed"


def test_check_needs_no_session_and_leaves_no_trace(h: Harness) -> None:
    conn = h.connect(agent=None)
    reply = conn.handle(Check(v=1, id="c", action=action_from_dict(shell("rm -rf /"))))
    assert reply["decision"] == "block" and "block.shell.recursive-delete-root" in reply["rules"]
    assert h.executor.executed == [] and h.approver.asked == [] and h.audit.decisions == {}
    with pytest.raises(DeskgateError) as e:  # anything that could act still needs a session
        conn.handle(Act(v=1, id="a", action=action_from_dict(move())))
    assert code(e) == "bad_request"
    h.sup.kill("test", "person")
    with pytest.raises(DeskgateError) as e:
        conn.handle(Check(v=1, id="c2", action=action_from_dict(move())))
    assert code(e) == "killed"


def test_a_person_can_raise_the_running_sessions_limits(tmp_path: Path) -> None:
    h = Harness(tmp_path, policy_text=POLICY.replace("max_steps = 50", "max_steps = 3"))
    conn = h.connect()
    for i in range(3):
        assert h.act(conn, click(100 + i))["verdict"] == "executed"
    with pytest.raises(DeskgateError) as refused:
        h.act(conn, click(200))
    assert refused.value.code == "limit" and "raise it for this session from the tray" in refused.value.message
    assert "retry_after" not in refused.value.to_dict()  # waiting does not help a spent step budget
    assert h.sup.raise_limits("person (tray)") == ["agent-1"]
    assert h.act(conn, click(201))["verdict"] == "executed"  # the tray's say-so: 3 more steps
    assert any(e["kind"] == "limits_raised" and e["data"]["by"] == "person (tray)" for e in h.audit.events)
