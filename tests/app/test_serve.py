"""`deskgate serve` end to end: the real Server, Client, Supervisor, AuditLog and Executor (no display).

In-process tests run the accept loop on a thread; one test runs `deskgate serve` as a subprocess and
stops it with SIGTERM.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.agent.client import Client, Killed, Unauthorized
from app.audit.reader import AuditReader
from app.desktop.screen import NullDesktop
from app.root.runtime import build_runtime

ROOT = Path(__file__).resolve().parents[2]

POLICY = """
[gate]
modes = { file_write = "ask" }

[fence]
enabled = false
required = false
"""

RULES = """
[[rule]]
id = "notes"
decision = "approve"
types = ["file_write"]
"""


@pytest.fixture
def env(deskgate_home) -> dict[str, Path]:
    return deskgate_home(POLICY, RULES)


def args_for(env: dict[str, Path], **over) -> argparse.Namespace:
    base = dict(headless=True, socket=env["socket"], db=env["db"], policy=env["policy"], preset=None,
                ask_in_terminal=False, approver_rules=env["rules"], kill_hotkey="none", verbose=False)
    base.update(over)
    return argparse.Namespace(**base)


class Running:
    def __init__(self, env: dict[str, Path]) -> None:
        self.rt = build_runtime(args_for(env), desktop=NullDesktop())
        self.thread = threading.Thread(target=self.rt.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.rt.stop()
        self.thread.join(5)


@pytest.fixture
def served(env):
    running = Running(env)
    yield running
    running.stop()


def test_allow_confirm_block_through_the_socket(served: Running, env: dict[str, Path]) -> None:
    target = env["root"] / "note.txt"
    with Client(env["socket"], timeout=20) as dg:
        hello = dg.hello("e2e-agent")
        assert hello["state"] == "active" and hello["session"] >= 1
        waited = dg.act({"type": "wait", "seconds": 0})
        assert waited["verdict"] == "executed" and waited["decided_by"] == "policy"
        wrote = dg.act({"type": "file_write", "path": str(target), "content": "s3cret-body"})
        assert wrote["verdict"] == "executed" and wrote["decision"] == "confirm"
        assert wrote["decided_by"] == "headless-rule"
        assert target.read_text() == "s3cret-body"
        blocked = dg.act({"type": "system", "name": "format_disk"})
        assert blocked["verdict"] == "denied" and blocked["decision"] == "block"
        assert dg.check({"type": "system", "name": "format_disk"})["decision"] == "block"
        assert "window_title" in dg.observe()
    served.rt.audit.close()
    with AuditReader(env["db"]) as log:
        row = log.get(wrote["audit_id"])
        assert row["verdict"] == "executed" and row["request_id"]
        assert "s3cret-body" not in repr(row)  # file_write content never reaches the log
        assert [e["kind"] for e in row["events"]] == ["answer", "execution", "outcome"]
        assert log.verify().ok


def test_kill_over_the_socket_survives_a_restart(env: dict[str, Path]) -> None:
    first = Running(env)
    try:
        agent = Client(env["socket"], timeout=10)
        agent.hello("victim")
        with Client(env["socket"], timeout=10) as cli:
            assert cli.control("kill", "enough")["state"] == "killed"
        with pytest.raises(Killed, match="enough"):
            agent.act({"type": "wait", "seconds": 0})
        agent.close()
    finally:
        first.stop()
    second = Running(env)
    try:
        with Client(env["socket"], timeout=10) as cli:
            assert cli.control("status")["state"] == "killed"
            with Client(env["socket"], timeout=10) as agent, pytest.raises(Killed):
                agent.hello("victim")
        second.rt.supervisor.resume("person (tray)")  # a person: the socket needs the terminal prompt
        assert second.rt.supervisor.state == "active"
        with Client(env["socket"], timeout=10) as agent:
            agent.hello("victim")
            assert agent.act({"type": "wait", "seconds": 0})["verdict"] == "executed"
    finally:
        second.stop()


def test_an_agent_connection_cannot_resume(served: Running, env: dict[str, Path]) -> None:
    with Client(env["socket"], timeout=10) as dg:
        dg.hello("sneaky")
        with pytest.raises(Unauthorized):
            dg.control("resume")


def test_disconnect_frees_the_agent_name(served: Running, env: dict[str, Path]) -> None:
    with Client(env["socket"], timeout=10) as dg:
        dg.hello("again")
    deadline = time.monotonic() + 5
    while served.rt.supervisor.sessions.active() and time.monotonic() < deadline:
        time.sleep(0.02)
    with Client(env["socket"], timeout=10) as dg:
        assert dg.hello("again")["state"] == "active"


def _subprocess_env(env: dict[str, Path]) -> dict[str, str]:
    out = dict(os.environ)
    out.pop("DISPLAY", None)  # headless: NullDesktop, no hotkey
    out["PYTHONPATH"] = str(ROOT)
    return out


def test_serve_subprocess_stops_cleanly_on_sigterm(env: dict[str, Path]) -> None:
    cmd = [sys.executable, "-m", "app.cli.main", "serve", "--headless", "--socket", str(env["socket"]),
           "--db", str(env["db"]), "--policy", str(env["policy"]), "--approver-rules", str(env["rules"])]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=_subprocess_env(env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 15
        while not env["socket"].exists():
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.05)
        with Client(env["socket"], timeout=10) as dg:
            dg.hello("sub-agent")
            assert dg.act({"type": "wait", "seconds": 0})["verdict"] == "executed"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "running headless" not in err  # --headless given: no such warning
    assert "stopped" in err
    assert not env["socket"].exists()
    with AuditReader(env["db"]) as log:
        assert log.count() == 1 and log.verify().ok


def test_serve_refuses_a_bad_policy(env: dict[str, Path]) -> None:
    bad = env["root"] / "bad.toml"
    bad.write_text("[gate]\ndefault_mode = 'sometimes'\n")
    proc = subprocess.run([sys.executable, "-m", "app.cli.main", "serve", "--socket", str(env["socket"]),
                           "--db", str(env["db"]), "--policy", str(bad)], cwd=ROOT, env=_subprocess_env(env),
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "bad.toml" in proc.stderr
    assert "default_mode" in proc.stderr
    assert "headless supervisor" in proc.stderr  # no --headless: it says that it is headless anyway
    assert not env["socket"].exists()
