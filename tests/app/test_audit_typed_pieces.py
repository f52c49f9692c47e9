"""A key typed one or two characters at a time leaves no piece of it in the audit log: each piece is judged
before the joined line shows a key, and a chained row is never rewritten, so every short piece typed onto a
followed line (and every piece typed into a password field) is stored as a digest from the start. The row of
the line end still shows the line whole, hidden when it is a secret; ordinary typing stays readable. The whole
database is searched (app/audit/writer.py `_typed_piece`, gate/redact.py `typed_piece_hidden`)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from app.audit.writer import AuditLog
from gate import SafetyGate, default_policy
from gate.model import Observation, TypedLine, action_from_dict

GATE = SafetyGate(default_policy())
TERM = dict(app="xterm", window_title="bash", window_id=11)
# made-up keys, in the shapes their issuers document
GITLAB = "glpat-Vb7Qm2Xr9Lk4Wt8Zn3Pd"
SLACK = "xoxb-4815162342-T9rQ2mX7vLp4"
AWS_SECRET = "Hq8vT2mZ9xR4kLw7Bn3Jc6Fd1Gs5Py0Ua2Ve7Ni"


def _record(log: AuditLog, action: dict, obs: Observation) -> None:
    assessment = GATE.assess(action_from_dict(action), obs)
    log.record_decision(session_id=None, agent="a", request_id="r", op="act", action=action,
                        assessment=assessment, observation=obs, approval_key="k", execute=False)


def _type_line(log: AuditLog, pieces: list[str], *, enter_key: bool = False) -> None:
    """Types `pieces` into a terminal, the line growing as the supervisor follows it."""
    raw = ""
    for piece in pieces:
        _record(log, {"type": "type", "text": piece}, Observation(**TERM, line=TypedLine(text=raw, raw=raw)))
        raw += piece
    if enter_key:
        _record(log, {"type": "key", "keys": ["enter"]}, Observation(**TERM, line=TypedLine(text=raw, raw=raw)))


def _stored(path: Path) -> tuple[str, list[str]]:
    """The whole database as text, and each typing row's stored text (a digest stands as one `·`)."""
    import json

    with sqlite3.connect(path) as conn:
        rows = [r for t in ("decisions", "events", "sessions") for r in conn.execute(f"SELECT * FROM {t}")]
        typed = [json.loads(a).get("text") for (a,) in conn.execute(
            "SELECT action FROM decisions WHERE type = 'type' ORDER BY id")]
    # digests, the chain's hash bytes and timestamps are random-looking: a short piece of digits can turn up in
    # them by chance
    cells = ("·" if isinstance(c, (bytes, float)) else re.sub(r"[0-9a-f]{12,}", "·", str(c)) for r in rows for c in r)
    return "\n".join(cells), [t if isinstance(t, str) else "·" for t in typed]


def _pieces(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


@pytest.mark.parametrize("size", [1, 2])
@pytest.mark.parametrize("prefix, secret", [
    ("git remote set-url origin https://oauth2:", GITLAB),  # issuer prefixes recognisable only after a few
    ("slack-notify --channel ops --bot ", SLACK),  # characters
    ("aws configure set aws_secret_access_key ", AWS_SECRET),  # no prefix: known only once whole
])
def test_a_key_typed_a_character_or_two_at_a_time_leaves_no_piece_in_the_clear(
        tmp_path: Path, prefix: str, secret: str, size: int) -> None:
    log = AuditLog(tmp_path / "audit.db", state_dir=tmp_path / "state", keep_days=0, preview_keep_days=0)
    try:
        _type_line(log, [prefix, *_pieces(secret, size)], enter_key=True)
        log.flush()
        whole, typed = _stored(log.path)
    finally:
        log.close()
    joined = "".join(typed)
    assert joined.startswith(prefix)  # the command before the key stays readable
    for k in range(len(secret) - 2):  # no three characters of the key in a row, in a row or across rows
        assert secret[k:k + 3] not in joined, (secret[k:k + 3], joined)
    assert secret[:4] not in whole.replace(prefix, "") and secret[-4:] not in whole


def test_pieces_typed_into_a_password_field_are_digests_at_any_length(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db", state_dir=tmp_path / "state", keep_days=0, preview_keep_days=0)
    field = Observation(app="firefox", window_title="Sign in", pointer_role="password text", pointer_label="Password")
    try:
        for piece in ("cor", "rect-h", "orse-b", "attery"):  # too short to look like a key on its own
            _record(log, {"type": "type", "text": piece}, field)
        # the agent's own claim that the field is a secret one is enough too
        _record(log, {"type": "type", "text": "4711", "target": {"role": "text", "label": "One-time passcode"}},
                Observation(app="firefox", window_title="Verify"))
        log.flush()
        whole, typed = _stored(log.path)
    finally:
        log.close()
    assert typed == ["·"] * 5, typed
    for piece in ("rect-h", "orse-b", "attery", "4711"):
        assert piece not in whole, piece


def test_ordinary_typing_stays_readable(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db", state_dir=tmp_path / "state", keep_days=0, preview_keep_days=0)
    try:
        _type_line(log, ["make test\n"])  # a whole line
        _type_line(log, ["git status", " ", "--short"], enter_key=True)  # whole words, one after another
        _type_line(log, ["y\n"])  # an answer that ends its line
        _type_line(log, ["v", "i"], enter_key=True)  # a short word in pieces: hidden piecewise, shown at the end
        _record(log, {"type": "type", "text": "Q3 report"}, Observation(app="libreoffice", window_title="Untitled"))
        log.flush()
        whole, typed = _stored(log.path)
    finally:
        log.close()
    assert typed == ["make test\n", "git status", " ", "--short", "y\n", "·", "·", "Q3 report"], typed
    assert "line “vi”" in whole  # the line end's row shows what the pieces made
