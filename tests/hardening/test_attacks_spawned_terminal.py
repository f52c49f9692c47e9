"""A program deskgate opened for an agent (`open_app`: a terminal, or any program) is the agent's, and so
is everything it starts: the agent types into it. A loop started that way on a terminal of its own (its
foreground job, a terminal no agent session holds, deskgate itself as its ancestor) claimed the person's
proof and resumed a kill. The supervisor remembers the processes it spawned for agents, while they live,
as agent processes. Real runtime, real executor, a real pseudo-terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POLICY = """
[fence]
enabled = false
required = false
"""

RULES = """
[[rule]]
id = "apps"
decision = "approve"
types = ["open_app"]
"""

# opened by deskgate; on a terminal of its own, it waits for the kill and then claims to be the person
_APP = textwrap.dedent("""
    import json, os, pty, signal, socket, sys, time
    control, trigger, out = {control!r}, {trigger!r}, {out!r}
    pid, fd = pty.fork()
    if pid == 0:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # outlives its parent, which the kill ends
        while not os.path.exists(trigger):
            time.sleep(0.05)
        s = socket.socket(socket.AF_UNIX); s.settimeout(20); s.connect(control)
        s.sendall(b'{{"v":1,"id":"a","op":"control","command":"resume","person":"tty"}}\\n')
        data = s.makefile("rb").readline()
        with open(out + ".tmp", "wb") as fh:
            fh.write(data)
        os.rename(out + ".tmp", out)
        os._exit(0)
    while True:
        try:
            if not os.read(fd, 4096):
                break
        except OSError:
            break
    os.waitpid(pid, 0)
""")


def test_a_program_opened_for_an_agent_cannot_resume(deskgate_home, serve_in_process, tmp_path,
                                                     monkeypatch) -> None:
    home = deskgate_home(POLICY, rules=RULES)
    trigger, out = tmp_path / "go", tmp_path / "reply.json"
    app = tmp_path / "agent-app"
    code = _APP.format(control=str(home["socket"].with_name("control.sock")), trigger=str(trigger), out=str(out))
    app.write_text(f"#!{sys.executable}\n{code}")
    app.chmod(0o700)
    # open_app starts installed desktop applications only: this one is installed (a system data dir)
    (tmp_path / "share" / "applications").mkdir(parents=True)
    (tmp_path / "share" / "applications" / "agent-app.desktop").write_text(
        f"[Desktop Entry]\nType=Application\nName=agent-app\nExec={app}\n")
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "share"))
    rt = serve_in_process(home)
    # the agent is a process of its own (not this one, which serves deskgate), gone before the kill
    agent = (f"import json, sys\nfrom app.agent.client import Client\nwith Client({str(home['socket'])!r}, timeout=30) "
             f"as dg:\n    dg.hello('opener')\n    print(json.dumps(dg.act({{'type': 'open_app', 'app': "
             f"'agent-app'}})))\n")
    ran = subprocess.run([sys.executable, "-c", agent], capture_output=True, text=True, timeout=60, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert json.loads(ran.stdout)["verdict"] == "executed", (ran.stdout, ran.stderr)
    rt.supervisor.kill("the person stopped the agent", "person")
    # the kill froze the app; the person lets it go on (the tray's "Resume them"): it is still the agent's
    assert rt.apps is not None and rt.apps.frozen() == ["agent-app"]
    assert rt.apps.resume_frozen() >= 1
    trigger.touch()
    end = time.monotonic() + 30
    while not out.exists() and time.monotonic() < end:
        time.sleep(0.05)
    answer = json.loads(out.read_bytes())
    assert answer["ok"] is False and answer["error"]["code"] == "unauthorized", answer
    assert "agent" in answer["error"]["message"]
    assert rt.supervisor.state == "killed"
