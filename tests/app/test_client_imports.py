"""Clients start small: what an agent imports (app.agent), the Claude Code hook, the MCP server and the
control commands load no gate, no Qt and no database code. Each is run in a fresh interpreter and its
loaded modules are listed (DESIGN §2b "Clients start small")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("gate", "PySide6", "shiboken6", "sqlite_utils", "sqlite3", "msgspec", "ui", "app.daemon.supervisor",
         "app.audit", "app.root")


def _loaded(code: str, tmp_path: Path, stdin: str = "") -> set[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "DESKGATE_SOCKET")}
    env.update(PYTHONPATH=str(ROOT), HOME=str(tmp_path), XDG_RUNTIME_DIR=str(tmp_path / "run"))
    script = code + "\nimport json, sys\nprint('\\n' + json.dumps(sorted(sys.modules)))\n"
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, input=stdin, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr[-3000:]
    return set(json.loads(r.stdout.strip().splitlines()[-1]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize("module", ["app.agent", "app.agent.claude_code", "app.agent.client",
                                    "app.agent.adapters", "app.agent.pyautogui"])
def test_agent_modules_import_no_gate_qt_or_database(module: str, tmp_path: Path) -> None:
    modules = _loaded(f"import {module}", tmp_path)
    assert module in modules
    assert _heavy(modules) == []


def test_the_hook_run_end_to_end_loads_nothing_heavy(tmp_path: Path) -> None:
    # No supervisor runs: the hook answers deny, having read the event and tried the socket.
    event = json.dumps({"session_id": "s", "cwd": str(tmp_path), "hook_event_name": "PreToolUse",
                        "tool_name": "Bash", "tool_input": {"command": "ls"}})
    code = ("import sys\nfrom app.cli.main import main\n"
            "assert main(['hook', 'claude-code', '--timeout', '5']) == 0\n")
    modules = _loaded(code, tmp_path, stdin=event)
    assert "app.agent.claude_code" in modules
    assert _heavy(modules) == []
    assert "argparse" not in modules  # its command line is read by app/cli/quick.py


@pytest.mark.parametrize("argv", [["status"], ["kill", "--reason", "r"], ["pause"], ["grants", "--json"],
                                  ["revoke", "g-1"]])
def test_control_commands_load_nothing_heavy(argv: list[str], tmp_path: Path) -> None:
    # No supervisor runs: each exits 2 (unavailable) after trying the control socket and the agent socket.
    code = f"from app.cli.main import main\nassert main({argv!r}) == 2\n"
    modules = _loaded(code, tmp_path)
    assert "app.agent.client" in modules
    assert _heavy(modules) == []
    assert "argparse" not in modules


def test_the_mcp_server_module_loads_no_gate(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    modules = _loaded("import app.agent.mcp_server", tmp_path)
    assert _heavy(modules) == []


def test_version_loads_no_subcommand_module(tmp_path: Path) -> None:
    modules = _loaded("from app.cli.main import main\nassert main(['--version']) == 0", tmp_path)
    assert not any(m.startswith("app.cli.") and m != "app.cli.main" for m in modules)
    assert _heavy(modules) == []
