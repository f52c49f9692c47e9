"""No secret reaches the audit log in the clear through a field the redaction used to miss: a key typed in two
actions (each piece read after the window's line), an address's signed query or webhook path, a token spelled in
hex or base64, a secret flag's value in an argument list. The whole database is searched for each secret."""

from __future__ import annotations

import base64
import sqlite3
from pathlib import Path

from app.audit.writer import AuditLog
from gate import SafetyGate, default_policy
from gate.model import Observation, TypedLine, action_from_dict

GATE = SafetyGate(default_policy())
TOKEN = "ghp_Q7vN2kLm9RtX4wYb8ZcD1fGh5JsP3aEu6T0i"  # made-up, the shape GitHub documents
HALF = len(TOKEN) // 2


def _record(log: AuditLog, action: dict, obs: Observation) -> None:
    assessment = GATE.assess(action_from_dict(action), obs)
    log.record_decision(session_id=None, agent="a", request_id="r", op="check", action=action,
                        assessment=assessment, observation=obs, approval_key="k", execute=False)


def _dump(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        rows = [r for t in ("decisions", "events", "sessions") for r in conn.execute(f"SELECT * FROM {t}")]
    return "\n".join(map(str, rows))


def test_no_piece_of_a_secret_is_stored_in_the_clear(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db", state_dir=tmp_path / "state", keep_days=0, preview_keep_days=0)
    term = dict(app="xterm", window_title="bash", window_id=7)
    hook = "https://hooks.slack.com/services/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"
    signed = "https://files.example.net/export.csv?expires=1767225600&sig=3f7a9c1e5b2d4f6a8c0e2b4d6f8a0c1e"
    try:
        _record(log, {"type": "type", "text": "export GH=" + TOKEN[:HALF]},
                Observation(**term, line=TypedLine(text="", raw="")))
        _record(log, {"type": "type", "text": TOKEN[HALF:] + "\n"},
                Observation(**term, line=TypedLine(text="export GH=" + TOKEN[:HALF], raw="export GH=" + TOKEN[:HALF])))
        _record(log, {"type": "navigate", "url": hook}, Observation())
        _record(log, {"type": "navigate", "url": signed}, Observation())
        _record(log, {"type": "shell", "command": f"echo {TOKEN.encode().hex()} | xxd -r -p"}, Observation())
        _record(log, {"type": "shell", "command": f"echo {base64.b64encode(TOKEN.encode()).decode()}"}, Observation())
        _record(log, {"type": "tool", "name": "mcp__vault__login", "input": {"args": ["--password", "Tr0ub4dor&3x"]}},
                Observation())
        # near misses stay readable: a commit id, an ordinary query, plain typing
        _record(log, {"type": "shell", "command": "git show 9fceb02d0ae598e95dc970b74767f19372d61af8"}, Observation())
        _record(log, {"type": "navigate", "url": "https://docs.example.org/search?q=rollback&page=2"}, Observation())
        _record(log, {"type": "type", "text": "make test\n"}, Observation(**term, line=TypedLine(text="", raw="")))
        log.flush()
        stored = _dump(log.path)
    finally:
        log.close()
    for secret in (TOKEN[:HALF], TOKEN[HALF:], "q8r9s0t1u2v3w4x5y6z7a8b9", "3f7a9c1e5b2d4f6a8c0e2b4d6f8a0c1e",
                   TOKEN.encode().hex(), base64.b64encode(TOKEN.encode()).decode(), "Tr0ub4dor&3x"):
        assert secret not in stored, secret
    for kept in ("9fceb02d0ae598e95dc970b74767f19372d61af8", "q=rollback&page=2", "make test"):
        assert kept in stored, kept
