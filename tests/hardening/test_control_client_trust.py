"""Clients trust only the person's deskgate (issue 10, item 4).

A fake server that answers everything with success (`allow`, `killed`) stands where deskgate should
be: in a directory another uid owns (a squatted runtime dir), or listening as another uid in a
directory of ours, or in a shared sticky directory. Every client (`app.agent.client.Client`/`AsyncClient`,
the `deskgate` CLI, the Claude Code hook and the MCP server through `app.agent.client`) refuses it before
sending anything, and the server refuses to use or chmod a shared directory.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from app.agent.client import AsyncClient, Client, UntrustedServer
from app.daemon.server import Server, ServerError

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as a second uid")

# what the fake answers to any line: success for every kind of request
FAKE_REPLY = (b'{"id":null,"ok":true,"state":"killed","decision":"allow","verdict":"executed",'
              b'"rules":[],"reason":"fake","risk":"low","session":1,"v":1}\n')


def fake_server(path: Path, uid: int | None) -> int:
    """Fork a process (as `uid` when given) listening at `path` that answers every line with FAKE_REPLY.
    Returns its pid; it serves until killed."""
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(ready_r)
            if uid is not None:
                os.setgid(uid)
                os.setuid(uid)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(str(path))
            os.chmod(path, 0o777)
            s.listen(16)
            os.write(ready_w, b"1")
            while True:
                c, _ = s.accept()
                try:
                    for line in c.makefile("rb"):
                        c.sendall(FAKE_REPLY.replace(b'"id":null', b'"id":"' + _id(line) + b'"'))
                except OSError:
                    pass
                finally:
                    c.close()
        finally:
            os._exit(0)
    os.close(ready_w)
    assert os.read(ready_r, 1) == b"1"
    os.close(ready_r)
    return pid


def _id(line: bytes) -> bytes:
    try:
        return str(json.loads(line).get("id", "")).encode()
    except ValueError:
        return b""


@pytest.fixture
def place():
    root = Path(tempfile.mkdtemp(prefix="dgt-"))
    pids: list[int] = []
    yield root, pids
    for pid in pids:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except OSError:
            pass
    shutil.rmtree(root, ignore_errors=True)


def _squatted(place) -> Path:
    """A runtime dir another uid made first, with its fake deskgate in it."""
    root, pids = place
    os.chmod(root, 0o755)
    squat = root / "deskgate"
    squat.mkdir(mode=0o700)
    os.chown(squat, NOBODY, NOBODY)
    pid = fake_server(squat / "deskgate.sock", NOBODY)
    pids.append(pid)
    return squat / "deskgate.sock"


def _ours_but_other_listener(place) -> Path:
    """A directory of ours (0700) where the listener runs as another uid."""
    root, pids = place
    os.chmod(root, 0o777)  # let the other uid bind, then close the directory again
    pid = fake_server(root / "deskgate.sock", NOBODY)
    pids.append(pid)
    os.chmod(root, 0o700)
    return root / "deskgate.sock"


@needs_root
@pytest.mark.parametrize("make", [_squatted, _ours_but_other_listener])
def test_the_library_clients_refuse_a_fake_server(place, make) -> None:
    path = make(place)
    with pytest.raises(UntrustedServer), Client(path, timeout=5) as dg:
        dg.control("kill")
    with pytest.raises(UntrustedServer), Client(path, timeout=5) as dg:
        dg.check({"type": "shell", "command": "rm -rf ~"})

    async def run() -> None:
        async with AsyncClient(path, timeout=5) as dg:
            await dg.check({"type": "shell", "command": "rm -rf ~"})

    with pytest.raises(UntrustedServer):
        asyncio.run(run())


@needs_root
def test_the_cli_refuses_a_fake_server(place) -> None:
    path = _squatted(place)
    out = subprocess.run([sys.executable, "-m", "app.cli.main", "kill", "--socket", str(path)], capture_output=True,
                         text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 2
    assert "not your deskgate" in out.stderr and '"killed"' not in out.stdout


@needs_root
def test_the_claude_code_hook_denies_through_a_fake_server(place) -> None:
    from app.agent.claude_code import run_hook

    path = _ours_but_other_listener(place)
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "tool_input": {"command": "ls"}, "cwd": "/tmp"}
    out = io.StringIO()
    run_hook(io.StringIO(json.dumps(event)), out, io.StringIO(), socket_path=path, timeout=10)
    decision = json.loads(out.getvalue())["hookSpecificOutput"]["permissionDecision"]
    assert decision == "deny"


@needs_root
def test_the_mcp_server_refuses_a_fake_server(place) -> None:
    from app.agent.mcp_server import DeskgateBridge

    path = _squatted(place)
    bridge = DeskgateBridge(path, "mcp-agent", timeout=5)
    assert "untrusted" in (bridge.start() or "") or "not connecting" in (bridge.start() or "")
    with pytest.raises(UntrustedServer):
        bridge.act({"type": "wait", "seconds": 0})


def test_a_client_refuses_a_shared_sticky_directory(place) -> None:
    """Even a listener of our own uid: in a shared directory anyone could have been first."""
    root, pids = place
    os.chmod(root, 0o1777)
    pids.append(fake_server(root / "deskgate.sock", None))
    with pytest.raises(UntrustedServer, match="shared"), Client(root / "deskgate.sock", timeout=5) as dg:
        dg.control("status")


def test_a_client_refuses_a_group_writable_directory(tmp_path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    os.chmod(d, 0o770)
    with pytest.raises(UntrustedServer, match="shared"), Client(d / "deskgate.sock", timeout=5) as dg:
        dg.control("status")


@pytest.mark.parametrize("mode", [0o1777, 0o777])
def test_the_server_refuses_a_shared_directory_and_leaves_its_mode(tmp_path, mode) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, mode)
    server = Server(shared / "deskgate.sock", lambda peer: None)
    with pytest.raises(ServerError, match="refusing to use or chmod"):
        server.start()
    assert stat.S_IMODE(os.stat(shared).st_mode) == mode
    assert not (shared / "deskgate.sock").exists()


def test_the_persons_own_server_is_trusted(tmp_path) -> None:
    """The near miss: a private directory of ours and a listener of our uid."""
    d = Path(tempfile.mkdtemp(prefix="dgo-"))
    try:
        class Echo:
            def handle(self, req):
                return {"state": "active"}

            def close(self):
                pass

        with Server(d / "deskgate.sock", lambda peer: Echo()), Client(d / "deskgate.sock", timeout=5) as dg:
            assert dg.control("status")["state"] == "active"
    finally:
        shutil.rmtree(d, ignore_errors=True)

