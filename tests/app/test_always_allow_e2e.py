"""'Always allow this' end to end on a real X desktop (Xvfb + JWM): a person clicks it in the dialog of
`deskgate run`, the rule lands in their policy file, and a restarted deskgate applies it (the same
action is allowed with no dialog)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_run_e2e import DIALOG_TITLE, _find_dialog, _geometry, _grab, _wait

from app.agent.client import Client
from gate import load_policy

pytestmark = pytest.mark.desktop

ROOT = Path(__file__).resolve().parents[2]
POLICY = """\
# my policy
[gate]
modes = { shell = "ask" }

[approvals]
timeout_s = 20
arm_delay_s = 2.0
"""
ACTION = {"type": "shell", "command": "make test"}


def _start(desktop, work: Path, policy: Path) -> tuple[subprocess.Popen, Path]:
    env = dict(desktop.env, XDG_RUNTIME_DIR=str(work / "run"), XDG_DATA_HOME=str(work / "data"),
               XDG_CONFIG_HOME=str(work / "config"), XDG_STATE_HOME=str(work / "state"), PYTHONUNBUFFERED="1")
    (work / "run").mkdir(mode=0o700, exist_ok=True)
    sock = work / "run" / "deskgate" / "deskgate.sock"
    log = open(work / "deskgate.log", "a")
    proc = subprocess.Popen([sys.executable, "-m", "app.cli.main", "run", "--policy", str(policy), "--no-takeover",
                             "--kill-hotkey", "none"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    proc.log = log  # type: ignore[attr-defined]
    _wait(lambda: sock.exists() or proc.poll() is not None, 30, "the deskgate socket")
    assert proc.poll() is None, (work / "deskgate.log").read_text()
    return proc, sock


def _stop(proc: subprocess.Popen, sock: Path) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
    proc.log.close()  # type: ignore[attr-defined]
    _wait(lambda: not sock.exists(), 10, "the socket to go")


def _armed_span(desktop, wid: str) -> tuple[int, int, int]:
    """The approve buttons, found as a person's eye would: the columns of the button row that change
    when the dialog arms (the buttons turn from grey to enabled). Returns (left, right, y) on screen."""
    x, y, w, h = _geometry(desktop, wid)
    row = (x, y + h - 80, w, 80)  # the button row and the rule's note under it
    before = _grab(row)
    time.sleep(2.6)  # the policy's arm delay is 2 s
    after = _grab(row)
    cols, rows = set(), set()
    for py in range(before.height):
        for px in range(before.width):
            if before.pixel(px, py) != after.pixel(px, py):
                cols.add(px)
                rows.add(py)
    assert cols, "no approve button armed"
    return x + min(cols), x + max(cols), row[1] + (min(rows) + max(rows)) // 2


def test_always_allow_is_written_and_applied_after_a_restart(desktop, tmp_path, artifacts):
    policy = tmp_path / "policy.toml"
    policy.write_text(POLICY)
    proc, sock = _start(desktop, tmp_path, policy)
    try:
        replies: dict = {}
        with Client(sock, timeout=60) as c:
            c.hello("e2e-builder")
            t = threading.Thread(target=lambda: replies.update(r=c.act(ACTION, execute=False)))
            t.start()
            wid = _find_dialog(desktop)
            _wait(lambda: _geometry(desktop, wid)[2] > 200, 10, "the dialog laid out")
            time.sleep(0.3)
            desktop.screenshot("e2e_dialog_always_allow.png")
            left, right, cy = _armed_span(desktop, wid)
            # "Approve once" and "Always allow this" only: a one-shot asker (execute=false, no scope) is
            # not offered "approve for N min / session", which could never cover a repeat; the rightmost
            # button is "Always allow this"
            assert right - left < 300, (left, right)
            desktop.xdotool("mousemove", str(right - 30), str(cy), "click", "1")
            t.join(30)
        r = replies["r"]
        assert r["verdict"] == "allowed" and r["decided_by"] == "person", r
        text = policy.read_text()
        assert text.startswith(POLICY) and "Always allow this" in text
        assert [(a.types, a.command) for a in load_policy(policy).allow] == [(["shell"], "make test")]
    finally:
        _stop(proc, sock)

    proc, sock = _start(desktop, tmp_path, policy)
    try:
        with Client(sock, timeout=30) as c:
            c.hello("e2e-builder")
            r = c.act(ACTION, execute=False)
            assert r["decision"] == "allow" and r["decided_by"] == "policy", r
            assert r["rules"] == ["allow.policy.shell-make-test"], r
            r = c.act({"type": "shell", "command": "make install"}, execute=False)  # not covered: asks
            # nobody answers the dialog for this one; it is enough that it was asked, not allowed
            assert r["decision"] == "confirm", r
        assert not desktop.xdotool("search", "--onlyvisible", "--name", DIALOG_TITLE, check=False)
    finally:
        _stop(proc, sock)
