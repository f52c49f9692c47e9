"""The person keeps the kill switch: who may send which control command (issue 10, items 1a, 1b, 8c).

The real runtime of `deskgate serve --headless` (servers, supervisor, audit log) serves on a thread;
requests go over the real sockets. Covered: an agent's connection may stop but never resume; a
connection without the person's proof cannot resume; `deskgate resume` asks on the controlling
terminal, refuses a pipe or no terminal, and works for the person who types the code; an agent user
named in `[agents] uids` is served but gets only kill/pause; a control value with a trailing newline or
any unknown value is an error.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.agent.client import Client, Unauthorized

ROOT = Path(__file__).resolve().parents[2]


def control_socket_for(agent_socket: Path) -> Path:
    return agent_socket.with_name("control.sock")  # app.config.control_socket_for, spelled out
POLICY = """
[fence]
enabled = false
required = false
"""


@pytest.fixture
def home(deskgate_home):
    return deskgate_home(POLICY)


@pytest.fixture
def rt(home, serve_in_process):
    return serve_in_process(home)


def events(rt, kind: str) -> list[dict]:
    db = sqlite3.connect(rt.db)
    try:
        rows = db.execute("SELECT data FROM events WHERE kind = ?", (kind,)).fetchall()
    finally:
        db.close()
    return [json.loads(r[0]) if r[0] else {} for r in rows]


def wait_for(pred, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return pred()


def raw_control(path: Path, command: str, **extra) -> dict:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(str(path))
    try:
        s.sendall(json.dumps({"v": 1, "id": "c1", "op": "control", "command": command, **extra}).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        return json.loads(data)
    finally:
        s.close()


# -- 1(b): an agent may stop, never resume ---------------------------------------------------------


def test_an_agent_connection_may_kill_but_never_resume(rt, home) -> None:
    with Client(home["socket"], timeout=20) as dg:
        dg.hello("runaway")
        assert dg.control("kill", "the agent stops itself")["state"] == "killed"
        with pytest.raises(Unauthorized):
            dg.control("resume")
        with pytest.raises(Unauthorized):
            dg.control("resume", person="tty")  # claiming the person's proof does not make it so
    assert rt.supervisor.state == "killed"
    assert wait_for(lambda: len(events(rt, "control_refused")) == 2)


def test_a_connection_that_ended_its_session_is_still_an_agent(rt, home) -> None:
    conn = rt.supervisor.connect(type("Peer", (), {"pid": os.getpid(), "uid": os.geteuid(), "gid": 0})())
    from app.protocol import parse_request

    def req(op: str, **f):
        return parse_request(json.dumps({"v": 1, "id": "x", "op": op, **f}).encode())

    conn.handle(req("hello", agent="stopped-by-errors"))
    conn.handle(req("bye"))
    rt.supervisor.kill("test", "person")
    with pytest.raises(Exception) as err:
        conn.handle(req("control", command="resume", person="tty"))
    assert getattr(err.value, "code", None) == "unauthorized"
    assert rt.supervisor.state == "killed"


def test_resume_without_the_persons_proof_is_refused_and_logged(rt, home) -> None:
    rt.supervisor.kill("test", "person")
    for path in (home["socket"], control_socket_for(home["socket"])):
        for command in ("resume", "unpause"):
            reply = raw_control(path, command)
            assert reply["ok"] is False and reply["error"]["code"] == "unauthorized"
            assert "tray" in reply["error"]["message"]
    assert rt.supervisor.state == "killed"
    assert wait_for(lambda: len(events(rt, "control_refused")) == 4)


def test_a_background_loop_claiming_the_proof_is_refused(rt, home) -> None:
    """`while sleep 1; do deskgate resume; done &` from a hook: no terminal, whatever the request says."""
    rt.supervisor.kill("test", "person")
    code = (f"import json,socket; s=socket.socket(socket.AF_UNIX); s.connect({str(home['socket'])!r}); "
            "s.sendall(b'{\"v\":1,\"id\":\"1\",\"op\":\"control\",\"command\":\"resume\",\"person\":\"tty\"}\\n'); "
            "print(s.recv(65536).decode())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30,
                         start_new_session=True, stdin=subprocess.DEVNULL)  # no controlling terminal
    reply = json.loads(out.stdout)
    assert reply["error"]["code"] == "unauthorized" and "terminal" in reply["error"]["message"]
    assert rt.supervisor.state == "killed"


def test_stopping_is_open_to_everyone_on_both_sockets(rt, home) -> None:
    assert raw_control(control_socket_for(home["socket"]), "pause")["state"] == "paused"
    assert raw_control(home["socket"], "kill")["state"] == "killed"


# -- the `deskgate resume` command: a prompt on the terminal ----------------------------------------


def _cli(home, *argv: str) -> list[str]:
    return [sys.executable, "-m", "app.cli.main", *argv, "--socket", str(home["socket"])]


def test_deskgate_resume_refuses_without_a_terminal(rt, home) -> None:
    rt.supervisor.kill("test", "person")
    out = subprocess.run(_cli(home, "resume"), input="y\n", capture_output=True, text=True, timeout=60,
                         cwd=ROOT, start_new_session=True)
    assert out.returncode == 2
    assert "terminal" in out.stderr and "tray" in out.stderr
    assert rt.supervisor.state == "killed"


def _run_on_pty(home, answer: str | None, *argv: str) -> tuple[int, str]:
    """Run the CLI on a new pseudo-terminal (its controlling terminal, foreground) and type `answer`
    (None: the code it shows)."""
    pid, fd = pty.fork()
    if pid == 0:  # child: the terminal's foreground job
        os.chdir(ROOT)
        os.execv(sys.executable, _cli(home, *argv))
    seen = b""
    try:
        end = time.monotonic() + 60
        while b"to confirm" not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 1)[0]:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    break
        m = re.search(rb"Type (\w+) and Enter", seen)
        assert m, seen
        os.write(fd, (answer if answer is not None else m.group(1).decode()).encode() + b"\n")
        while time.monotonic() < end:
            if select.select([fd], [], [], 1)[0]:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status), seen.decode("utf-8", "replace")
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status), seen.decode("utf-8", "replace")
    finally:
        os.close(fd)


def test_deskgate_resume_at_a_terminal_with_the_code_resumes(rt, home) -> None:
    rt.supervisor.kill("test", "person")
    code, output = _run_on_pty(home, None, "resume")
    assert code == 0, output
    assert rt.supervisor.state == "active"


def test_deskgate_resume_with_a_wrong_answer_stays_killed(rt, home) -> None:
    rt.supervisor.kill("test", "person")
    code, output = _run_on_pty(home, "y", "resume")
    assert code == 2 and "not confirmed" in output
    assert rt.supervisor.state == "killed"


# -- 1(a): agents as another uid ---------------------------------------------------------------------


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as a second uid")
def test_an_agent_uid_from_the_policy_is_served_but_gets_only_stop_commands(deskgate_home, serve_in_process):
    home = deskgate_home(POLICY + "\n[agents]\nuids = [65534]\n")
    os.chmod(home["socket"].parent, 0o711)  # the per-run parent; deskgate sets its own dir's mode
    rt = serve_in_process(home)
    assert os.stat(home["socket"]).st_mode & 0o777 == 0o666
    assert os.stat(control_socket_for(home["socket"])).st_mode & 0o777 == 0o600
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        results = {}
        try:
            os.close(rfd)
            os.setgid(65534)
            os.setuid(65534)
            with Client(home["socket"], timeout=20, server_uid=0) as dg:
                results["hello"] = dg.hello("other-user-agent")["state"]
                results["act"] = dg.act({"type": "wait", "seconds": 0})["verdict"]
                for command in ("status", "grants", "resume"):
                    try:
                        dg.control(command, person="tty" if command == "resume" else None)
                        results[command] = "ok"
                    except Exception as err:  # the code is what the parent checks
                        results[command] = getattr(err, "code", repr(err))
                results["kill"] = dg.control("kill", "stop")["state"]
            try:
                Client(control_socket_for(home["socket"]), timeout=5, server_uid=0).control("status")
                results["control_socket"] = "ok"
            except Exception as err:
                results["control_socket"] = getattr(err, "code", repr(err))
        except Exception as err:
            results["error"] = repr(err)
        finally:
            os.write(wfd, json.dumps(results).encode())
            os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as fh:
        results = json.loads(fh.read())
    os.waitpid(pid, 0)
    assert results == {"hello": "active", "act": "executed", "status": "unauthorized", "grants": "unauthorized",
                       "resume": "unauthorized", "kill": "killed", "control_socket": "unavailable"}
    assert rt.supervisor.state == "killed"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as a second uid")
def test_an_unlisted_uid_is_still_refused(home, serve_in_process):
    serve_in_process(home)
    os.chmod(home["socket"].parent, 0o711)
    os.chmod(home["socket"], 0o666)
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            os.setgid(65534)
            os.setuid(65534)
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(5)
            s.connect(str(home["socket"]))
            os.write(wfd, s.recv(65536))
        finally:
            os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as fh:
        reply = json.loads(fh.read().split(b"\n")[0])
    os.waitpid(pid, 0)
    assert reply["error"]["code"] == "unauthorized"


# -- 8(c): exact control values ----------------------------------------------------------------------


@pytest.mark.parametrize("value", ["kill\n", "kill ", "KILL", "status\n", "stop", ""])
def test_a_control_value_that_is_not_exactly_a_command_is_an_error(rt, home, value) -> None:
    reply = raw_control(home["socket"], value)
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request"
    assert rt.supervisor.state == "active"

