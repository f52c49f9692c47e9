"""examples/: the demo agent and the Anthropic loop run as subprocesses against a real headless
supervisor (in-process: real X11 desktop, real executor, no approver) on the test desktop."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from app.root.runtime import build_runtime

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


@pytest.fixture
def supervisor(tmp_path: Path, desktop):
    short = Path(tempfile.mkdtemp(prefix="dg-"))
    args = argparse.Namespace(headless=True, socket=short / "dg.sock", db=tmp_path / "audit.db", policy=None,
                              preset=None, ask_in_terminal=False, approver_rules=None, kill_hotkey="none",
                              verbose=False)
    rt = build_runtime(args)  # the default policy; DISPLAY is the test desktop: X11Desktop + real executor
    thread = threading.Thread(target=rt.server.serve_forever, daemon=True)
    thread.start()
    yield rt
    rt.stop()
    thread.join(5)
    shutil.rmtree(short, ignore_errors=True)


def run_example(desktop, name: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(desktop.env, PYTHONPATH=str(ROOT))
    env.pop("ANTHROPIC_API_KEY", None)  # never the network in tests
    return subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.desktop
def test_demo_agent_shows_allow_confirm_and_block(desktop, supervisor) -> None:
    proc = run_example(desktop, "demo_agent.py", "--socket", str(supervisor.server.socket_path))
    assert proc.returncode == 0, proc.stderr
    lines = {line.split("  ")[0]: line for line in proc.stdout.splitlines()}
    assert "ALLOW" in lines["type the name"] and "→ executed" in lines["type the name"]
    password = lines["type the password"]
    assert "CONFIRM" in password and "→ denied" in password and "confirm.gui.credential-field" in password
    order = lines["press Place order"]
    assert "CONFIRM" in order and "→ denied" in order and "confirm.gui.irreversible" in order
    rm = lines["run `rm -rf ~`"]
    assert "BLOCK" in rm and "→ denied" in rm and "block.shell.recursive-delete-root" in rm
    # what reached the window: the name, and neither the password nor an order
    saw = next(line for line in proc.stdout.splitlines() if line.startswith("the shop window saw:"))
    assert "name Ada Lovelace" in saw
    assert "password" not in saw and "order" not in saw


@pytest.mark.desktop
def test_anthropic_loop_canned_mode(desktop, supervisor) -> None:
    proc = run_example(desktop, "anthropic_loop.py", "--socket", str(supervisor.server.socket_path))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    results = dict(zip(out.splitlines()[0::2], out.splitlines()[1::2], strict=True))
    by_id = {k.split()[0]: v.strip() for k, v in results.items()}
    assert by_id["toolu_01"] == "→ ok    <image/png image>"
    assert by_id["toolu_03"] == "→ ok    X=640,Y=300"
    assert by_id["toolu_04"].startswith("→ ok")
    assert by_id["toolu_05"].startswith("→ ERROR deskgate refused") and "confirm.gui.session-key" in by_id["toolu_05"]
    assert "block.gui.secret-exposure" in by_id["toolu_06"]
    assert "unsupported Anthropic computer-use action 'zoom'" in by_id["toolu_07"]
