"""Capacity the agents cannot take from the person, and limits reconnecting cannot reset (issue 10,
items 3 and 7).

The real runtime of `deskgate serve --headless` serves on a thread. Covered: idle connections are
closed after `limits.idle_timeout_s` while a connection waiting for its reply is not; with every agent
slot held, `deskgate kill` and `deskgate status` still work (the person's control socket); rate and
step limits hold per peer process across new connections and new agent names, and a rate per uid
across new processes; limit refusals are queued
for the next group commit rather than each waiting for an fsync.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.agent.client import Client, LimitExceeded

ROOT = Path(__file__).resolve().parents[2]
POLICY = """
[fence]
enabled = false
required = false

[limits]
actions_per_minute = 20
max_steps = 1000
sessions_per_hour = 1000
"""


@pytest.fixture
def home(deskgate_home):
    return deskgate_home(POLICY)


def connect(path: Path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(str(path))
    return s


def read_line(s: socket.socket) -> dict | None:
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(65536)
        if not chunk:
            return None
        data += chunk
    return json.loads(data)


def test_an_idle_connection_is_closed_but_a_waiting_one_is_not(deskgate_home, serve_in_process) -> None:
    home = deskgate_home(POLICY + "idle_timeout_s = 1\n")
    rt = serve_in_process(home)
    idle = connect(home["socket"])
    reply = read_line(idle)  # nothing sent: the server speaks first, after idle_timeout_s
    assert reply is not None and reply["error"]["code"] == "timeout" and "idle_timeout_s" in reply["error"]["message"]
    assert idle.recv(1) == b""
    idle.close()
    # a request in flight longer than the idle timeout is not cut off
    real = rt.supervisor.observe

    def slow_observe(session, req):
        time.sleep(2.5)  # longer than idle_timeout_s, with the request in flight
        return real(session, req)

    rt.supervisor.observe = slow_observe
    with Client(home["socket"], timeout=30) as dg:
        dg.hello("slow")
        assert "window_title" in dg.observe()


def test_kill_and_status_work_with_every_agent_slot_held(deskgate_home, serve_in_process) -> None:
    home = deskgate_home(POLICY)  # the default idle_timeout_s: the held slots stay held
    rt = serve_in_process(home)
    limit = rt.server.max_clients
    held = [connect(home["socket"]) for _ in range(limit)]
    try:
        for s in held:  # keep each one busy enough to hold its slot: a hello is a request, then idle
            s.sendall(b'{"v":1,"id":"h","op":"observe"}\n')
        for s in held:
            read_line(s)
        extra = connect(home["socket"])
        refused = read_line(extra)
        assert refused is not None and refused["error"]["code"] == "limit"
        extra.close()
        cmd = [sys.executable, "-m", "app.cli.main", "status", "--json", "--socket", str(home["socket"])]
        out = subprocess.run(cmd,
                             capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["state"] == "active"
        out = subprocess.run([sys.executable, "-m", "app.cli.main", "kill", "--reason", "locked out?",
                              "--socket", str(home["socket"])], capture_output=True, text=True, timeout=60,
                             cwd=ROOT)
        assert out.returncode == 0, out.stderr
        assert rt.supervisor.state == "killed"
    finally:
        for s in held:
            s.close()


def test_rate_limit_holds_across_new_connections_and_names(home, serve_in_process) -> None:
    serve_in_process(home)
    executed = 0
    refused = None
    for n in range(40):  # a new connection and a new agent name for every action
        with Client(home["socket"], timeout=30) as dg:
            dg.wait_on_limits = False  # the refusal itself is under test, not the client's waiting it out
            dg.hello(f"agent-{n}")
            try:
                if dg.act({"type": "wait", "seconds": 0})["verdict"] == "executed":
                    executed += 1
            except LimitExceeded as err:
                refused = err
                break
    assert executed == 20  # actions_per_minute, for this process as a whole
    assert refused is not None and "actions_per_minute" in refused.message


def test_step_limit_holds_across_sessions_of_one_peer(deskgate_home, serve_in_process) -> None:
    home = deskgate_home(POLICY.replace("max_steps = 1000", "max_steps = 3").replace(
        "sessions_per_hour = 1000", "sessions_per_hour = 2").replace("actions_per_minute = 20",
                                                                    "actions_per_minute = 1000"))
    serve_in_process(home)
    executed = 0
    with pytest.raises(LimitExceeded, match="max_steps"):
        for n in range(20):
            with Client(home["socket"], timeout=30) as dg:
                dg.hello(f"name-{n}")
                for _ in range(3):
                    dg.act({"type": "wait", "seconds": 0})
                    executed += 1
    assert executed == 3 * 2  # max_steps × sessions_per_hour in the hour, however many names


def test_a_uid_rate_holds_across_new_processes(deskgate_home, serve_in_process) -> None:
    """`deskgate act` in a loop: a new process, connection and name every time."""
    home = deskgate_home(POLICY + "uid_actions_per_minute = 3\n")
    serve_in_process(home)
    results = []
    for n in range(5):
        out = subprocess.run([sys.executable, "-m", "app.cli.main", "act", '{"type":"wait","seconds":0}', "--agent",
                              f"loop-{n}", "--socket", str(home["socket"])], capture_output=True, text=True,
                             timeout=60, cwd=ROOT)
        results.append(out.returncode)
        if out.returncode != 0:
            assert "uid_actions_per_minute" in out.stderr + out.stdout
    assert results == [0, 0, 0, 2, 2]


def test_limit_refusals_do_not_each_wait_for_a_commit(home, serve_in_process) -> None:
    rt = serve_in_process(home)
    durable: list[bool] = []
    real = rt.audit.record_event

    def spy(kind, **kw):
        if kind == "error":
            durable.append(kw.get("durable", True))
        return real(kind, **kw)

    rt.audit.record_event = spy
    with Client(home["socket"], timeout=30) as dg:
        dg.wait_on_limits = False  # the refusals themselves are under test
        dg.hello("flood")
        for _ in range(60):
            try:
                dg.act({"type": "wait", "seconds": 0})
            except LimitExceeded:
                pass
    assert len(durable) == 40 and not any(durable)
