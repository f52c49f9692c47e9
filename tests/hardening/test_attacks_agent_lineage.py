"""An agent that is no live session, but whose hook opened sessions, cannot pass as the person.

Claude Code runs on the person's terminal in the foreground and asks deskgate through a hook: one short
session per tool call (`hello` with a `scope`), ended before the tool runs. Its Bash tool's children
inherit that terminal and its foreground process group, so a child that sends `control resume` with
`person: "tty"` once the hook's session has ended looked like the person at a terminal. The supervisor
remembers the process a scoped session was started by (for as long as that process lives) as an agent.
Real runtime on a thread, a real pseudo-terminal, real sockets."""

from __future__ import annotations

import json
import os
import pty
import select
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
POLICY = """
[fence]
enabled = false
required = false
"""

# The agent process: the terminal's foreground job. It runs a hook (a child that opens a scoped session
# and ends it), then a child of its own that claims the person's proof over the control socket.
_AGENT = textwrap.dedent("""
    import json, socket, subprocess, sys
    sock, control = sys.argv[1], sys.argv[2]
    hook = '''
    import sys
    from app.agent.client import Client
    with Client(sys.argv[1], timeout=20) as dg:
        dg.hello("claude-code", scope="claude-code:s1")
    '''
    subprocess.run([sys.executable, "-c", hook, sock], check=True)
    print("HOOKED", flush=True)
    sys.stdin.readline()  # the person kills deskgate meanwhile
    attack = '''
    import json, socket, sys
    s = socket.socket(socket.AF_UNIX); s.settimeout(20); s.connect(sys.argv[1])
    s.sendall(b'{"v":1,"id":"a","op":"control","command":"resume","person":"tty"}\\\\n')
    data = b""
    while not data.endswith(b"\\\\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    print("REPLY " + data.decode().strip())
    '''
    subprocess.run([sys.executable, "-c", attack, control], check=True)
""")


@pytest.fixture
def home(deskgate_home):
    return deskgate_home(POLICY)


def _run_agent_on_pty(home, kill) -> str:
    control = home["socket"].with_name("control.sock")
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.environ["PYTHONPATH"] = str(ROOT)
        os.execv(sys.executable, [sys.executable, "-c", _AGENT, str(home["socket"]), str(control)])
    seen = b""
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
                if b"HOOKED" in seen and kill is not None:
                    kill()
                    kill = None
                    os.write(fd, b"go\n")
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                pid = 0
                break
        if pid:
            os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return seen.decode("utf-8", "replace")


def test_a_child_of_a_hooked_agent_cannot_resume(home, serve_in_process) -> None:
    rt = serve_in_process(home)
    output = _run_agent_on_pty(home, lambda: rt.supervisor.kill("the person stopped the agent", "person"))
    line = next((ln for ln in output.splitlines() if ln.startswith("REPLY ")), None)
    assert line is not None, output
    reply = json.loads(line.removeprefix("REPLY "))
    assert reply["ok"] is False and reply["error"]["code"] == "unauthorized", reply
    assert "agent" in reply["error"]["message"]
    assert rt.supervisor.state == "killed"


def _fake_proc(root: Path, pid: int, ppid: int, comm: str, start: int) -> None:
    d = root / str(pid)
    d.mkdir()
    fields = ["S", str(ppid), str(pid), str(pid), "34816", str(pid)] + ["0"] * 13 + [str(start)]
    (d / "stat").write_text(f"{pid} ({comm}) " + " ".join(fields) + "\n")
    (d / "comm").write_text(comm + "\n")


def test_the_agent_behind_a_shell_that_ran_the_hook_is_found(tmp_path) -> None:
    from app.daemon.person import agent_lineage, alive

    _fake_proc(tmp_path, 100, 1, "node", 5)        # the agent
    _fake_proc(tmp_path, 200, 100, "sh", 6)        # `sh -c "deskgate hook claude-code"`
    _fake_proc(tmp_path, 300, 200, "deskgate", 7)  # the hook
    assert agent_lineage(300, str(tmp_path)) == [(200, 6), (100, 5)]
    assert alive(100, 5, str(tmp_path)) and not alive(100, 9, str(tmp_path))  # a reused pid is another one
