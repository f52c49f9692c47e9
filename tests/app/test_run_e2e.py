"""`deskgate run` end to end on a real X desktop (Xvfb + JWM), as a person and an agent would use it.

deskgate runs as its own process with its tray; a test window stands in for the agent's target app;
the test speaks the protocol through the client, finds the confirmation dialog as a real X window,
clicks its Approve button with real input, and presses the kill-switch hotkey with xdotool.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.agent.client import Client, Killed

pytestmark = pytest.mark.desktop

ROOT = Path(__file__).resolve().parents[2]
POLICY = """\
[approvals]
timeout_s = 8
arm_delay_s = 3.0
"""
DIALOG_TITLE = "deskgate — confirm action"


def _wait(pred, timeout: float, what: str):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Lines:
    """A subprocess's stdout, read on a thread, so tests can wait for a line without blocking."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self._thread.start()

    def _read(self, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, prefix: str, timeout: float = 15) -> str:
        return _wait(lambda: next((x for x in self.lines if x.startswith(prefix)), None), timeout, prefix)


@pytest.fixture(scope="module")
def deskgate(desktop, tmp_path_factory):
    work = tmp_path_factory.mktemp("run")
    policy = work / "policy.toml"
    policy.write_text(POLICY)
    env = dict(desktop.env, XDG_RUNTIME_DIR=str(work / "run"), XDG_DATA_HOME=str(work / "data"),
               XDG_CONFIG_HOME=str(work / "config"), XDG_STATE_HOME=str(work / "state"), PYTHONUNBUFFERED="1")
    (work / "run").mkdir(mode=0o700)
    sock = work / "run" / "deskgate" / "deskgate.sock"
    log = open(work / "deskgate.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli.main", "run", "--policy", str(policy), "--no-takeover"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait(lambda: sock.exists() or proc.poll() is not None, 30, "the deskgate socket")
        assert proc.poll() is None, (work / "deskgate.log").read_text()
        yield {"sock": sock, "env": env, "proc": proc, "log": work / "deskgate.log", "db": work / "data"}
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def target_app(desktop):
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "app" / "winapp.py"), "--title", "Shop checkout",
                             "--x", "150", "--y", "120"], env=desktop.env, stdout=subprocess.PIPE, text=True)
    lines = Lines(proc)
    ready = lines.wait_for("ready").split()
    edit = [int(v) for v in ready[2:6]]
    button = [int(v) for v in ready[6:10]]
    yield {"lines": lines, "edit": edit, "button": button, "wid": ready[1]}
    proc.terminate()
    proc.wait(10)


def _center(box):
    x, y, w, h = box
    return x + w // 2, y + h // 2


def _grab(box):
    import mss

    x, y, w, h = box
    with mss.MSS() as sct:
        return sct.grab({"left": x, "top": y, "width": w, "height": h})


def _find_dialog(desktop) -> str:
    return _wait(lambda: desktop.xdotool("search", "--onlyvisible", "--name", DIALOG_TITLE, check=False)
                 .split("\n")[0], 20, "the confirmation dialog")


def _geometry(desktop, wid: str) -> tuple[int, int, int, int]:
    out = desktop.xdotool("getwindowgeometry", "--shell", wid)
    g = dict(line.split("=") for line in out.splitlines())
    return int(g["X"]), int(g["Y"]), int(g["WIDTH"]), int(g["HEIGHT"])


def _approve_once_point(desktop, wid: str) -> tuple[int, int]:
    """Where the 'Approve once' button is, found the way an eye would: the approve buttons are greyed
    out until the dialog arms, so the columns of the button row that change when it arms are those
    buttons; the leftmost group of them is 'Approve once'."""
    x, y, w, h = _geometry(desktop, wid)
    row = (x, y + h - 46, w, 46)
    before = _grab(row)
    time.sleep(3.6)  # the policy's arm delay is 3 s
    after = _grab(row)
    bw = before.width
    changed_cols, changed_rows = set(), set()
    for py in range(before.height):
        for px in range(bw):
            if before.pixel(px, py) != after.pixel(px, py):
                changed_cols.add(px)
                changed_rows.add(py)
    assert changed_cols, "no approve button armed"
    cols = sorted(changed_cols)
    first = [cols[0]]
    for c in cols[1:]:
        if c - first[-1] > 12:  # the gap to the next button
            break
        first.append(c)
    return x + (first[0] + first[-1]) // 2, row[1] + (min(changed_rows) + max(changed_rows)) // 2


def _focus(desktop, target_app):
    desktop.xdotool("windowactivate", "--sync", target_app["wid"], check=False)


def test_allowed_actions_execute_in_the_real_window(desktop, deskgate, target_app, artifacts):
    _focus(desktop, target_app)
    with Client(deskgate["sock"]) as c:
        c.hello("e2e-agent")
        ex, ey = _center(target_app["edit"])
        r = c.act({"type": "click", "x": ex, "y": ey, "target": {"label": "Name", "role": "textbox"}})
        assert r["verdict"] == "executed", r
        r = c.act({"type": "type", "text": "hello", "target": {"label": "Name"}})
        assert r["verdict"] == "executed" and r["decision"] == "allow", r
        target_app["lines"].wait_for("text hello")
        r = c.act({"type": "shell", "command": "rm -rf /"}, execute=True)
        assert r["verdict"] == "denied" and r["decision"] == "block", r


def test_confirmation_dialog_click_on_approve_executes(desktop, deskgate, target_app, artifacts):
    _focus(desktop, target_app)
    bx, by = _center(target_app["button"])
    replies = {}
    with Client(deskgate["sock"], timeout=60) as c:
        c.hello("e2e-buyer")
        t = threading.Thread(target=lambda: replies.update(r=c.act(
            {"type": "click", "x": bx, "y": by, "target": {"label": "Place order", "role": "button"},
             "note": "finish the purchase"})))
        t.start()
        wid = _find_dialog(desktop)
        _wait(lambda: _geometry(desktop, wid)[2] > 200, 10, "the dialog laid out")
        time.sleep(0.3)  # painted
        desktop.screenshot("e2e_dialog_click.png")
        px, py = _approve_once_point(desktop, wid)
        desktop.xdotool("mousemove", str(px), str(py), "click", "1")
        t.join(30)
    r = replies["r"]
    assert r["decision"] == "confirm" and "confirm.gui.irreversible" in r["rules"], r
    assert r["decided_by"] == "person", r
    assert r["verdict"] == "executed", r
    target_app["lines"].wait_for("clicked hello")


def test_unanswered_confirmation_times_out_denied(desktop, deskgate, target_app):
    _focus(desktop, target_app)
    with Client(deskgate["sock"], timeout=60) as c:
        c.hello("e2e-waiter")
        t0 = time.monotonic()
        r = c.act({"type": "type", "text": "hunter2", "target": {"label": "Password"}})
        waited = time.monotonic() - t0
    assert r["verdict"] == "denied" and r["decision"] == "confirm", r
    assert "confirm.gui.credential-field" in r["rules"]
    assert waited >= 7, "denied before the 8 s timeout ran out"
    # the dialog closed itself
    assert not desktop.xdotool("search", "--onlyvisible", "--name", DIALOG_TITLE, check=False)


def _on_terminal(argv: list[str], env: dict) -> tuple[int, str]:
    """Run argv as the foreground job of a new terminal and type back the confirmation code it shows."""
    import pty
    import re
    import select

    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execve(argv[0], argv, env)
    seen = b""
    try:
        end = time.monotonic() + 30
        while b"to confirm" not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 1)[0]:
                seen += os.read(fd, 4096)
        m = re.search(rb"Type (\w+) and Enter", seen)
        assert m, seen
        os.write(fd, m.group(1) + b"\n")
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    pass
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status), seen.decode("utf-8", "replace")
        return -1, seen.decode("utf-8", "replace")
    finally:
        os.close(fd)


def test_hotkey_kills_everything_and_cli_resumes(desktop, deskgate, target_app):
    env = deskgate["env"]
    with Client(deskgate["sock"]) as c:
        c.hello("e2e-killed")
        for _ in range(3):  # the hotkey listener may need a moment after startup
            desktop.xdotool("key", "ctrl+alt+shift+k")
            status = subprocess.run([sys.executable, "-m", "app.cli.main", "status", "--json"], cwd=ROOT, env=env,
                                    capture_output=True, text=True, timeout=30)
            if '"killed"' in status.stdout:
                break
            time.sleep(1)
        assert '"killed"' in status.stdout, status.stdout + status.stderr
        with pytest.raises(Killed):
            c.act({"type": "wait", "seconds": 0})
    # `deskgate resume` asks the person on the terminal for a code it shows there: type it, as a person would
    code, output = _on_terminal([sys.executable, "-m", "app.cli.main", "resume"], env)
    assert code == 0, output
    with Client(deskgate["sock"]) as c:
        c.hello("e2e-after-resume")
        assert c.act({"type": "wait", "seconds": 0})["verdict"] == "executed"


def test_tray_menu_opens_and_shows_the_audit_viewer(desktop, deskgate, artifacts):
    from app.audit.reader import AuditReader

    before = _grab((900, 380, 380, 420)).rgb
    desktop.xdotool("mousemove", "1267", "788", "click", "3")  # JWM's tray: bottom right
    _wait(lambda: _grab((900, 380, 380, 420)).rgb != before, 10, "the tray menu")
    time.sleep(0.3)
    desktop.screenshot("e2e_tray_menu.png")
    # keyboard through the menu like a person: up from the bottom to "Open audit log…"
    desktop.xdotool("key", "Up", "Up", "Up", "Up", "Up", "Up", "Up", "Return")
    wid = _wait(lambda: desktop.xdotool("search", "--onlyvisible", "--name", "deskgate — audit log",
                                        check=False).split("\n")[0], 20, "the audit viewer")
    time.sleep(1.0)
    desktop.xdotool("windowactivate", "--sync", wid, check=False)
    time.sleep(0.5)
    desktop.screenshot("e2e_viewer.png")
    db = next(Path(deskgate["db"]).rglob("audit.db"))
    state = Path(deskgate["env"]["XDG_STATE_HOME"]) / "deskgate"  # where that deskgate keeps the chain head
    with AuditReader(db, state_dir=state) as reader:
        assert reader.verify().ok
        assert reader.count() >= 5
    desktop.xdotool("key", "--window", wid, "ctrl+w", check=False)
    if os.environ.get("DESKGATE_KEEP_VIEWER") is None:
        desktop.xdotool("windowclose", wid, check=False)
