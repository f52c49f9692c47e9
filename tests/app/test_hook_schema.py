"""The hook imports no gate, so the wire schema of the action it builds is checked by the supervisor: a tool
call deskgate cannot represent is still denied, with the supervisor's reason naming the field."""

from __future__ import annotations

import io
import json

from app.agent.claude_code import run_hook


def _hook(event: dict, socket_path) -> tuple[int, dict | None, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_hook(io.StringIO(json.dumps(event)), out, err, socket_path=socket_path, timeout=10)
    return code, (json.loads(out.getvalue()) if out.getvalue() else None), err.getvalue()


def _event(command: str) -> dict:
    return {"session_id": "s-1", "cwd": "/tmp", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}}


def test_an_action_outside_the_schema_is_denied_with_the_field_named(deskgate_home, serve_in_process):
    home = deskgate_home()
    serve_in_process(home)
    code, out, _ = _hook(_event("echo " + "x" * 100_001), home["socket"])  # longer than a command may be
    assert code == 0 and out is not None
    spec = out["hookSpecificOutput"]
    assert spec["permissionDecision"] == "deny"
    assert "bad_request" in spec["permissionDecisionReason"] and "command" in spec["permissionDecisionReason"]


def test_the_same_call_within_the_schema_is_judged(deskgate_home, serve_in_process):
    home = deskgate_home()
    serve_in_process(home)
    code, out, _ = _hook(_event("rm -rf /"), home["socket"])
    assert code == 0 and out is not None
    spec = out["hookSpecificOutput"]
    assert spec["permissionDecision"] == "deny" and "bad_request" not in spec["permissionDecisionReason"]
