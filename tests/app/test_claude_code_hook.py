"""`deskgate hook claude-code`: the hook run as Claude Code runs it (a subprocess, JSON on stdin) against
a real supervisor and server started in this process."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.agent.claude_code import HookInputError, answer, parse_hook_input, to_action
from app.audit import AuditReader

ROOT = Path(__file__).resolve().parents[2]

POLICY = """
[gate]
modes = { file_write = "ask", navigate = "ask" }

[fence]
enabled = false
required = false
"""

# With --ask-here deskgate's own approver decides; headless, that is this rule file (default deny).
RULES = """
[[rule]]
id = "notes"
decision = "approve"
types = ["file_write"]
"""


@pytest.fixture
def env(deskgate_home):
    return deskgate_home(POLICY, RULES)


@pytest.fixture
def served(env, serve_in_process):
    return serve_in_process(env)


def event(tool_name: str, tool_input: dict, cwd: str = "/tmp") -> dict:
    """A PreToolUse event in the shape Claude Code documents for command hooks."""
    return {"session_id": "4f1c2a9e-77aa-4b0e-9d1e-0c2b3a4d5e6f",
            "transcript_path": "/home/someone/.claude/projects/p/4f1c2a9e.jsonl", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": tool_name,
            "tool_input": tool_input}


def run_hook(stdin: str | dict, *args: str, socket_path: Path | None = None,
             timeout_s: float = 30) -> subprocess.CompletedProcess[str]:
    data = stdin if isinstance(stdin, str) else json.dumps(stdin)
    cmd = [sys.executable, "-m", "app.cli", "hook", "claude-code", *args]
    if socket_path is not None:
        cmd += ["--socket", str(socket_path)]
    sub_env = dict(os.environ, PYTHONPATH=str(ROOT))
    sub_env.pop("DISPLAY", None)
    return subprocess.run(cmd, input=data, capture_output=True, text=True, cwd=ROOT, env=sub_env,
                          timeout=timeout_s)


def decision_of(proc: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    spec = out["hookSpecificOutput"]
    assert spec["hookEventName"] == "PreToolUse"
    return spec["permissionDecision"], spec["permissionDecisionReason"]


# -- through a real supervisor --------------------------------------------------------------------


def test_dangerous_bash_is_denied_with_the_rule(served, env) -> None:
    decision, reason = decision_of(run_hook(event("Bash", {"command": "rm -rf /", "description": "clean up"}),
                                            socket_path=env["socket"]))
    assert decision == "deny"
    assert "block.shell.recursive-delete-root" in reason


def test_harmless_bash_is_allowed(served, env) -> None:
    decision, _ = decision_of(run_hook(event("Bash", {"command": "ls", "description": "List files",
                                                      "timeout": 120000}), socket_path=env["socket"]))
    assert decision == "allow"


def test_reading_a_private_key_is_not_allowed(served, env) -> None:
    key = os.path.expanduser("~/.ssh/id_rsa")
    decision, reason = decision_of(run_hook(event("Read", {"file_path": key}), socket_path=env["socket"]))
    assert decision in ("deny", "ask")  # the gate's call; the default policy blocks credential reads
    assert "id_rsa" in reason or "credential" in reason


def test_confirm_becomes_ask_and_check_runs_nothing(served, env) -> None:
    target = env["root"] / "notes.md"
    decision, reason = decision_of(run_hook(event("Write", {"file_path": str(target), "content": "hello"}),
                                            socket_path=env["socket"]))
    assert decision == "ask" and "confirm" in reason
    assert not target.exists()  # check only assesses; Claude Code runs the tool itself


def test_ask_here_lets_deskgates_approver_decide(served, env) -> None:
    target = env["root"] / "notes.md"
    decision, reason = decision_of(run_hook(
        event("Edit", {"file_path": str(target), "old_string": "a", "new_string": "tok-9f8e7d"}), "--ask-here",
        socket_path=env["socket"]))
    assert decision == "allow", reason  # the approver rule file approves file_write
    assert not target.exists()  # execute=false: deskgate approved it but did not write
    decision, reason = decision_of(run_hook(event("WebFetch", {"url": "https://example.org/", "prompt": "x"}),
                                            "--ask-here", socket_path=env["socket"]))
    assert decision == "deny" and "default deny" in reason  # no approver rule for navigate
    served.audit.close()
    with AuditReader(env["db"]) as log:
        rows = log.query(limit=10)
    assert {r["verdict"] for r in rows} == {"allowed", "denied"}
    assert "tok-9f8e7d" not in repr(rows)  # the edit's new text is stored as a digest only


def test_supervisor_down_denies_with_how_to_fix(env) -> None:
    decision, reason = decision_of(run_hook(event("Bash", {"command": "ls"}), socket_path=env["socket"]))
    assert decision == "deny"
    assert "not running" in reason and "deskgate run" in reason


@pytest.mark.parametrize("stdin", ["", "{not json", "[1, 2]",
                                   json.dumps({"hook_event_name": "PreToolUse", "tool_input": {}}),
                                   json.dumps({**event("Bash", {"command": "ls"}),
                                               "hook_event_name": "PostToolUse"})])
def test_malformed_input_is_a_blocking_error(stdin: str, env) -> None:
    proc = run_hook(stdin, socket_path=env["socket"])
    assert proc.returncode == 2  # Claude Code refuses the call and shows stderr to the model
    assert "refused" in proc.stderr and proc.stdout == ""


def test_a_tool_input_that_does_not_fit_is_denied(served, env) -> None:
    decision, reason = decision_of(run_hook(event("Bash", {"description": "no command"}),
                                            socket_path=env["socket"]))
    assert decision == "deny" and "tool_input.command" in reason


def test_a_supervisor_that_never_answers_times_out_to_deny(env) -> None:
    env["socket"].parent.mkdir(exist_ok=True)
    mute = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mute.bind(str(env["socket"]))
    mute.listen(4)  # accepts connections (the kernel does) and never replies
    try:
        started = time.monotonic()
        decision, reason = decision_of(run_hook(event("Bash", {"command": "ls"}), "--timeout", "0.5",
                                                socket_path=env["socket"]))
        elapsed = time.monotonic() - started
    finally:
        mute.close()
    assert decision == "deny" and "did not answer within 0.5 s" in reason
    assert elapsed < 10


# -- the mapping (pure) ---------------------------------------------------------------------------


def test_bash_maps_to_shell_with_cwd_timeout_and_note() -> None:
    assert to_action("Bash", {"command": "make test", "description": "Run tests", "timeout": 90000},
                     "/work/p") == {"type": "shell", "command": "make test", "cwd": "/work/p", "timeout": 90.0,
                                    "note": "Run tests"}


@pytest.mark.parametrize(("tool", "tool_input", "expected"), [
    ("Read", {"file_path": "src/a.py"}, {"type": "file_read", "path": "/w/src/a.py"}),
    ("Write", {"file_path": "/w/b.txt", "content": "x"}, {"type": "file_write", "path": "/w/b.txt", "content": "x"}),
    ("MultiEdit", {"file_path": "/w/c.py", "edits": [{"old_string": "a", "new_string": "b"},
                                                     {"old_string": "c", "new_string": "d"}]},
     {"type": "file_write", "path": "/w/c.py", "content": "b\nd"}),
    ("NotebookEdit", {"notebook_path": "/w/n.ipynb", "new_source": "print(1)", "cell_id": "c1"},
     {"type": "file_write", "path": "/w/n.ipynb", "content": "print(1)"}),
    ("WebFetch", {"url": "https://example.org/a", "prompt": "sum"}, {"type": "navigate", "url": "https://example.org/a"}),
    ("Grep", {"pattern": "TODO", "path": "/etc"}, {"type": "file_read", "path": "/etc"}),
    ("Grep", {"pattern": "TODO"}, {"type": "file_read", "path": "/w"}),
    ("Glob", {"pattern": "/home/u/.ssh/*"}, {"type": "file_read", "path": "/home/u/.ssh"}),
    ("LS", {"path": "/var/log"}, {"type": "file_read", "path": "/var/log"}),
    ("WebSearch", {"query": "q"}, {"type": "tool", "name": "WebSearch", "input": {"query": "q"}}),
    ("TodoWrite", {"todos": []}, {"type": "tool", "name": "TodoWrite", "input": {"todos": []}}),
    ("mcp__github__create_issue", {"title": "t"},
     {"type": "tool", "name": "mcp__github__create_issue", "input": {"title": "t"}}),
])
def test_tool_mapping(tool: str, tool_input: dict, expected: dict) -> None:
    assert to_action(tool, tool_input, "/w") == expected


def test_mapping_rejects_missing_fields_and_answer_shape() -> None:
    with pytest.raises(HookInputError, match="file_path"):
        to_action("Read", {}, "/w")
    with pytest.raises(HookInputError, match="tool_name"):
        parse_hook_input(json.dumps({"hook_event_name": "PreToolUse", "tool_name": ""}))
    assert answer("ask", "why") == {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                           "permissionDecision": "ask",
                                                           "permissionDecisionReason": "why"}}
