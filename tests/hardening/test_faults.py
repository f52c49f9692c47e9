"""Faults around the supervisor: a crash, a full disk, a dead approver, misbehaving and flooding clients.

The crash and disk tests run `deskgate serve --headless` as a subprocess (tests/hardening share the
harness in bench/load_agents.py); the approver and client tests run the real runtime in-process so
the approver and the server's timeouts can be set.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.agent.client import Client, ConnectionLost, Killed, SupervisorUnavailable
from app.daemon.asking import ASK_GRACE_S
from app.desktop.screen import NullDesktop
from app.ports import Answer, ApprovalRequest, Reply
from app.root.runtime import build_runtime
from bench.load_agents import (
    POLICY,
    RULES,
    AgentLog,
    RawAgent,
    Serve,
    Workspace,
    decision_rows,
    reconcile,
    run_agent,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.create(tmp_path / "ws")
    yield workspace
    workspace.cleanup()


def _wait_for(cond, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


# -- kill -9 of the supervisor ---------------------------------------------------------------------


def test_kill_9_mid_load_loses_no_committed_decision(ws: Workspace) -> None:
    serve = Serve(ws).wait_ready()
    agents = 6
    logs = [AgentLog(f"crash{k}") for k in range(agents)]
    progress = [0] * agents
    threads = [threading.Thread(target=run_agent, args=(ws.socket, log.name, 100_000, 10, log, progress, k),
                                kwargs={"timeout": 10.0}, daemon=True) for k, log in enumerate(logs)]
    # one agent on the library client: it must see a typed error, not hang
    client_errors: list[BaseException] = []

    def library_agent() -> None:
        with contextlib.suppress(Exception), Client(ws.socket, timeout=10) as dg:
            dg.hello("library")
            try:
                for i in range(100_000):
                    dg.act({"type": "wait", "seconds": 0}, execute=i % 2 == 0)
            except BaseException as err:
                client_errors.append(err)
                raise

    lib = threading.Thread(target=library_agent, daemon=True)
    for t in [*threads, lib]:
        t.start()
    _wait_for(lambda: sum(progress) > 300, 30, "load to build up")
    serve.kill9()
    killed_at = time.monotonic()
    for t in [*threads, lib]:
        t.join(15)
    assert not any(t.is_alive() for t in [*threads, lib]), "an agent hung after the supervisor died"
    for log in logs:
        assert log.failure is not None and log.failure.startswith("lost"), log.failure
        assert log.lost_at is not None and log.lost_at - killed_at < 5
    assert len(client_errors) == 1 and isinstance(client_errors[0], ConnectionLost | SupervisorUnavailable), \
        client_errors

    rec = reconcile(logs, ws.db, lost_ok=True)
    assert rec.with_audit_id > 300
    assert not rec.missing_rows, f"{len(rec.missing_rows)} acknowledged decisions lost"
    assert not rec.wrong_rows and not rec.mismatched and not rec.unanswered
    # a row without a reply can only be the one request each agent had in flight at the crash
    assert not rec.rows_without_reply
    assert ws.verify().returncode == 0, ws.verify().stdout

    # the restart takes over the stale socket and goes on writing the same chain
    last = max(decision_rows(ws.db))
    with Serve(ws) as again:
        with Client(ws.socket, timeout=10) as dg:
            dg.hello("after-crash")
            reply = dg.act({"type": "wait", "seconds": 0})
            assert reply["verdict"] == "executed" and reply["audit_id"] > last
        assert again.stop() == 0
    assert ws.verify().returncode == 0


def test_a_kill_set_before_a_crash_holds_after_the_restart(ws: Workspace) -> None:
    with Serve(ws) as serve:
        agent = Client(ws.socket, timeout=10)
        agent.hello("stopped-agent")
        assert agent.act({"type": "wait", "seconds": 0})["verdict"] == "executed"
        done = ws.control("kill", "--reason", "before the crash")
        assert done.returncode == 0, done.stderr
        with pytest.raises(Killed, match="before the crash"):
            agent.act({"type": "wait", "seconds": 0})
        serve.kill9()
        with pytest.raises((ConnectionLost, SupervisorUnavailable)):
            agent.act({"type": "wait", "seconds": 0})
        agent.close()
    assert ws.kill_state.exists()
    with Serve(ws) as again:
        status = ws.control("status")
        assert '"killed"' in status.stdout and "before the crash" in status.stdout
        with Client(ws.socket, timeout=10) as dg, pytest.raises(Killed):
            dg.hello("stopped-agent")
        resumed = ws.control("resume")
        assert resumed.returncode == 0 and '"active"' in resumed.stdout
        with Client(ws.socket, timeout=10) as dg:
            dg.hello("stopped-agent")
            assert dg.act({"type": "wait", "seconds": 0})["verdict"] == "executed"
        assert again.stop() == 0
    assert not ws.kill_state.exists()
    assert ws.verify().returncode == 0


# -- the audit database stops taking writes ------------------------------------------------------------

TOUCH_RULES = RULES + """
[[rule]]
id = "markers"
decision = "approve"
command = "touch *"
"""


def test_a_full_disk_denies_with_internal_and_runs_nothing(tmp_path: Path) -> None:
    """RLIMIT_FSIZE lowered on the running supervisor: its writes to the audit files fail with EFBIG, as
    on a full disk. Every request answered `internal` must have run nothing (its marker file is absent)."""
    ws = Workspace.create(tmp_path / "ws", rules=TOUCH_RULES)
    markers = tmp_path / "markers"
    markers.mkdir()
    try:
        with Serve(ws) as serve, Client(ws.socket, timeout=20) as dg:
            dg.hello("disk")
            first = dg.act({"type": "shell", "command": f"touch {markers}/m0"})
            assert first["verdict"] == "executed", first
            assert (markers / "m0").exists()
            size = ws.db.stat().st_size
            resource.prlimit(serve.pid, resource.RLIMIT_FSIZE, (size // 2, resource.RLIM_INFINITY))
            replies: dict[int, Any] = {}
            for i in range(1, 400):
                try:
                    replies[i] = dg.act({"type": "shell", "command": f"touch {markers}/m{i}"})
                except Exception as err:  # the typed error is the reply here
                    replies[i] = err
                    if getattr(err, "code", None) == "internal" and len(replies) > 5:
                        break
            internal = [i for i, r in replies.items() if getattr(r, "code", None) == "internal"]
            assert internal, f"no write failed: {list(replies.values())[-3:]}"
            for i in internal:
                assert "audit log unwritable" in replies[i].message, replies[i].message
                assert not (markers / f"m{i}").exists(), f"request {i} was refused but ran"
            for i, r in replies.items():
                if isinstance(r, dict) and r.get("verdict") == "executed":
                    assert (markers / f"m{i}").exists()
            # writable again: the supervisor takes decisions again without a restart
            resource.prlimit(serve.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            again = dg.act({"type": "shell", "command": f"touch {markers}/after"})
            assert again["verdict"] == "executed", again
            assert (markers / "after").exists()
            assert serve.stop() == 0
        verify = ws.verify()
        assert verify.returncode == 0, verify.stdout + verify.stderr
    finally:
        ws.cleanup()


# -- an approver that never answers, or breaks ---------------------------------------------------------


class _Hangs:
    """An approver whose UI thread is stuck: ask() never returns (until the test ends)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.asked = threading.Event()

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        self.asked.set()
        self.release.wait(60)
        return Reply(Answer.APPROVE_ONCE, by="person", note="far too late")

    def cancel_all(self, reason: str) -> None:
        pass  # stuck: does not even hear the cancel


class _Raises:
    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        raise RuntimeError("the UI thread crashed")

    def cancel_all(self, reason: str) -> None:
        raise RuntimeError("the UI thread crashed")


FAST_POLICY = POLICY.replace("timeout_s = 5", "timeout_s = 1").replace("step_timeout_s = 30", "step_timeout_s = 2")


class InProcess:
    def __init__(self, ws: Workspace, approver: Any = None, *, read_timeout_s: float | None = None) -> None:
        args = argparse.Namespace(headless=True, socket=ws.socket, db=ws.db, policy=ws.policy, preset=None,
                                  ask_in_terminal=False, approver_rules=ws.rules, kill_hotkey="none", verbose=False)
        ws.db.parent.mkdir(parents=True, exist_ok=True)
        self.rt = build_runtime(args, desktop=NullDesktop(), approver=approver)
        if read_timeout_s is not None:
            self.rt.server.read_timeout_s = read_timeout_s
        self.thread = threading.Thread(target=self.rt.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.rt.stop()
        self.thread.join(5)


@pytest.fixture
def local_ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    ws = Workspace.create(tmp_path / "ws", policy=FAST_POLICY, rules=TOUCH_RULES)
    for var, value in ws.env().items():
        if var.startswith("XDG_"):
            monkeypatch.setenv(var, value)
    yield ws
    ws.cleanup()


def test_an_approver_that_never_answers_denies_on_time(local_ws: Workspace, tmp_path: Path) -> None:
    approver = _Hangs()
    running = InProcess(local_ws, approver)
    try:
        marker = tmp_path / "never"
        result: dict[str, Any] = {}

        def asker() -> None:
            with Client(local_ws.socket, timeout=30) as dg:
                dg.hello("asker")
                t0 = time.monotonic()
                result["reply"] = dg.act({"type": "shell", "command": f"touch {marker}"})
                result["s"] = time.monotonic() - t0

        t = threading.Thread(target=asker, daemon=True)
        t.start()
        assert approver.asked.wait(10)
        # meanwhile another agent is answered: check / observe at once
        with Client(local_ws.socket, timeout=10) as other:
            other.hello("other")
            t0 = time.monotonic()
            assert other.check({"type": "wait", "seconds": 0})["decision"] == "allow"
            other.observe()
            assert time.monotonic() - t0 < 0.5
            t.join(15)
            assert not t.is_alive(), "the request waited on a stuck approver past its timeout"
            reply = result["reply"]
            assert reply["verdict"] == "denied", reply
            # approvals.timeout_s = 1, the approver's grace (ASK_GRACE_S), and slack for a loaded machine: what is
            # proven is a denial in seconds, not at the 30 s client timeout or never (the time is the bench's job)
            assert result["s"] < 1 + ASK_GRACE_S + 5, result["s"]
            assert not marker.exists()
            # the dialog gate is free again: the other agent's actions run
            assert other.act({"type": "wait", "seconds": 0})["verdict"] == "executed"
    finally:
        approver.release.set()
        running.stop()


def test_an_approver_that_raises_denies_and_the_server_keeps_serving(local_ws: Workspace, tmp_path: Path) -> None:
    running = InProcess(local_ws, _Raises())
    try:
        marker = tmp_path / "crashed"
        with Client(local_ws.socket, timeout=10) as dg:
            dg.hello("asker")
            reply = dg.act({"type": "shell", "command": f"touch {marker}"})
            assert reply["verdict"] == "denied" and "approver failed" in reply["reason"], reply
            assert not marker.exists()
            assert dg.act({"type": "wait", "seconds": 0})["verdict"] == "executed"
        with Client(local_ws.socket, timeout=10) as cli:
            assert cli.control("kill", "cancel_all raises")["state"] == "killed"  # kill still works
        running.rt.supervisor.resume("person (tray)")  # a person resumes: the tray, or the terminal prompt
        assert running.rt.supervisor.state == "active"
    finally:
        running.stop()


# -- clients that misbehave -------------------------------------------------------------------------------


def _latency_of_an_agent(path: Path, name: str, n: int = 20) -> float:
    with Client(path, timeout=10) as dg:
        dg.hello(name)
        worst = 0.0
        for _ in range(n):
            t0 = time.monotonic()
            assert dg.act({"type": "wait", "seconds": 0})["verdict"] == "executed"
            worst = max(worst, time.monotonic() - t0)
    return worst


def test_silent_stalled_and_deaf_clients_are_bounded(local_ws: Workspace) -> None:
    running = InProcess(local_ws, read_timeout_s=1.0)
    socks: list[socket.socket] = []
    try:
        # 20 connections that never send a byte: idle is allowed, they only occupy connection slots
        for _ in range(20):
            s = socket.socket(socket.AF_UNIX)
            s.connect(str(local_ws.socket))
            socks.append(s)
        # a line that never ends: a `timeout` error line, then the server hangs up
        stalled = RawAgent(local_ws.socket, "stall", timeout=10)
        stalled.sock.sendall(b'{"v":1,"id":"s-1","op":"hello","agent":"stall"')
        t0 = time.monotonic()
        line = stalled.read_line()
        assert line["ok"] is False and line["error"]["code"] == "timeout"
        assert time.monotonic() - t0 < 3
        assert stalled.sock.recv(10) == b""
        stalled.close()
        # a client that sends and never reads: its replies fill the socket, the server gives up on it
        deaf = socket.socket(socket.AF_UNIX)
        deaf.connect(str(local_ws.socket))
        deaf.settimeout(5)
        burst = b"".join(b'{"v":1,"id":"d-%d","op":"hello","agent":"deaf-%d"}\n' % (i, i) for i in range(1))
        burst += b"".join(b'{"v":1,"id":"o-%d","op":"observe"}\n' % i for i in range(50_000))
        sent = threading.Event()

        def pour() -> None:
            with contextlib.suppress(OSError):
                deaf.sendall(burst)
            sent.set()

        pourer = threading.Thread(target=pour, daemon=True)
        pourer.start()
        # while all that is going on, a normal agent is served with normal latency
        assert _latency_of_an_agent(local_ws.socket, "normal") < 1.0
        _wait_for(lambda: running.rt.server.client_count == len(socks), 15, "the deaf client to be dropped")
        assert sent.wait(15), "the deaf client's sender was never released"
        pourer.join(5)
    finally:
        for s in socks:
            s.close()
        running.stop()


def test_a_flooding_agent_is_limited_and_another_is_not_slowed(tmp_path: Path, monkeypatch) -> None:
    ws = Workspace.create(tmp_path / "ws", policy=POLICY.replace("\nactions_per_minute = 100000",
                                                                 "\nactions_per_minute = 40"))
    # the flood is another process: limits hold per process (and per uid), so a flood in this process
    # would rightly limit the steady agent too
    flood = (
        "import json, os, sys\n"
        "from app.agent.client import Client, LimitExceeded\n"
        "ok = limited = 0\n"
        "with Client(sys.argv[1], timeout=10) as dg:\n"
        "    dg.wait_on_limits = False\n"  # a flood that does not wait: each refusal counts
        "    dg.hello('flood')\n"
        "    while not os.path.exists(sys.argv[2]):\n"
        "        try:\n"
        "            dg.act({'type': 'wait', 'seconds': 0})\n"
        "            ok += 1\n"
        "        except LimitExceeded as err:\n"
        "            assert 'actions_per_minute' in err.message, err.message\n"
        "            limited += 1\n"
        "            if limited == 51:\n"
        "                print('limited', flush=True)\n"
        "print(json.dumps({'ok': ok, 'limit': limited}), flush=True)\n")
    stop_file = tmp_path / "stop-flood"
    try:
        with Serve(ws) as serve:
            flooder = subprocess.Popen([sys.executable, "-c", flood, str(ws.socket), str(stop_file)],
                                       cwd=ROOT, stdout=subprocess.PIPE, text=True)
            assert flooder.stdout is not None and flooder.stdout.readline().strip() == "limited"
            worst = _latency_of_an_agent(ws.socket, "steady", n=30)
            stop_file.touch()
            out, _ = flooder.communicate(timeout=30)
            codes = json.loads(out.strip().splitlines()[-1])
            assert codes["ok"] == 40, codes  # exactly the limit, then `limit`
            assert worst < 0.5, f"the steady agent waited {worst:.3f} s behind the flood"
            assert serve.stop() == 0
        assert ws.verify().returncode == 0
    finally:
        ws.cleanup()
