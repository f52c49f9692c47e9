"""`deskgate log …` against a real audit file."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.audit.reader import AuditReader
from app.audit.writer import AuditLog
from app.cli.log import parse_since
from app.cli.main import main
from gate.model import Assessment, Decision, Observation, Risk

ROOT = Path(__file__).resolve().parents[2]


def _record(log: AuditLog, i: int, *, decision: str = "allow", agent: str = "agent-a",
            outcome: str | None = "executed") -> int:
    action = {"type": "shell", "command": f"echo step-{i}"}
    did = log.record_decision(
        session_id=None, agent=agent, request_id=str(i), op="act", action=action,
        assessment=Assessment(decision=Decision(decision), reason=f"because {i}", rules=("confirm.x",) if
                              decision == "confirm" else (), risk=Risk.LOW, confidence=0.9),
        observation=Observation(app="xterm"), approval_key=f"k{i}", execute=True)
    if outcome:
        log.record_outcome(did, verdict=outcome, decided_by="policy", reason="", elapsed_ms=2.0)
    return did


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "audit.db"
    log = AuditLog(path)
    for i in range(12):
        _record(log, i, decision=("allow", "confirm", "block")[i % 3], agent=("agent-a", "agent-b")[i % 2],
                outcome=("executed", "denied")[i % 2])
    log.add_preview(3, b"\x89PNG preview bytes")
    log.close()
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tail_prints_the_last_n_as_aligned_columns(db, capsys):
    code, out, _ = run(capsys, "log", "tail", "-n", "4", "--db", str(db))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["ID", "TIME", "(UTC)"]
    assert [line.split()[0] for line in lines[1:]] == ["9", "10", "11", "12"]  # oldest of the four first
    assert "shell echo step-11" in lines[-1] and "denied" in lines[-1]
    starts = {line.index(word) for line, word in zip(lines[1:], ("agent-a", "agent-b", "agent-a", "agent-b"),
                                                      strict=True)}
    assert len(starts) == 1  # the agent column lines up
    assert lines[0].index("AGENT") in starts


def test_tail_filters(db, capsys):
    code, out, _ = run(capsys, "log", "tail", "--decision", "block", "--verdict", "denied", "--db", str(db))
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines()[1:]]
    assert ids == ["6", "12"]  # i = 5, 11: block (i % 3 == 2) and denied (odd)


def test_tail_follow_prints_new_decisions(db):
    proc = subprocess.Popen([sys.executable, "-m", "app.cli.main", "log", "tail", "-n", "1", "--follow",
                             "--interval", "0.05", "--db", str(db)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("ID")
        assert proc.stdout.readline().split()[0] == "12"
        log = AuditLog(db)
        new = _record(log, 99, agent="late-agent")
        log.close()
        deadline = time.monotonic() + 20
        line = ""
        while time.monotonic() < deadline and "late-agent" not in line:
            line = proc.stdout.readline()
        assert line.split()[0] == str(new) and "executed" in line and "echo step-99" in line
    finally:
        proc.terminate()
        proc.wait(10)


def test_show_prints_json_with_events_and_saves_the_preview(db, capsys, tmp_path):
    target = tmp_path / "preview.png"
    code, out, _ = run(capsys, "log", "show", "3", "--preview-out", str(target), "--db", str(db))
    assert code == 0
    shown = json.loads(out)
    assert shown["id"] == 3 and shown["action"] == {"type": "shell", "command": "echo step-2"}
    assert [e["kind"] for e in shown["events"]] == ["outcome"]
    assert shown["preview"]["image"] == "kept"
    assert target.read_bytes() == b"\x89PNG preview bytes" and target.stat().st_mode & 0o777 == 0o600
    code, _, err = run(capsys, "log", "show", "999", "--db", str(db))
    assert code == 1 and "no decision with id 999" in err


def test_export_jsonl_to_a_private_file_and_csv_to_stdout(db, capsys, tmp_path):
    target = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "log", "export", "--format", "jsonl", "--decision", "confirm", "-o", str(target),
                       "--db", str(db))
    assert code == 0 and "exported 4 decisions" in err
    rows = [json.loads(line) for line in target.read_text().splitlines()]
    assert [r["id"] for r in rows] == [2, 5, 8, 11] and rows[0]["rules"] == ["confirm.x"]
    assert target.stat().st_mode & 0o777 == 0o600
    code, out, _ = run(capsys, "log", "export", "--format", "csv", "--since", "1h", "--db", str(db))
    table = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(table) == 12 and table[0]["verdict"] == "executed"
    code, out, _ = run(capsys, "log", "export", "--since", "2000-01-01", "--until", "2000-01-02", "--db", str(db))
    assert code == 0 and out == ""


def test_verify_passes_then_names_the_edited_row(db, capsys):
    code, out, _ = run(capsys, "log", "verify", "--db", str(db))
    assert code == 0 and out.startswith("ok: 25 rows")
    with sqlite3.connect(str(db)) as conn:
        conn.execute("UPDATE decisions SET decision = 'allow' WHERE id = 6")
    code, out, _ = run(capsys, "log", "verify", "--db", str(db))
    assert code == 1 and "decisions id 6" in out


def test_verify_names_a_deletion(db, capsys):
    with sqlite3.connect(str(db)) as conn:
        conn.execute("DELETE FROM events WHERE id = 7")
    code, out, _ = run(capsys, "log", "verify", "--db", str(db))
    assert code == 1 and "missing" in out


def test_stats_human_and_json(db, capsys):
    code, out, _ = run(capsys, "log", "stats", "--db", str(db))
    assert code == 0
    assert "decisions      12  (" in out and "executed 6" in out and "1 with image" in out
    code, out, _ = run(capsys, "log", "stats", "--json", "--db", str(db))
    stats = json.loads(out)
    assert stats["decisions"] == 12 and stats["by_decision"] == {"allow": 4, "confirm": 4, "block": 4}


def test_prune_removes_old_rows_and_keeps_the_chain(tmp_path, capsys):
    db = tmp_path / "audit.db"
    old = AuditLog(db, keep_days=0, clock=lambda: time.time() - 50 * 86400)
    for i in range(3):
        _record(old, i)
    old.close()
    fresh = AuditLog(db, keep_days=0)
    kept = _record(fresh, 10)
    fresh.close()
    code, out, _ = run(capsys, "log", "prune", "--keep-days", "30", "--db", str(db))
    assert code == 0 and out.startswith("pruned 6 rows")
    with AuditReader(db) as reader:
        assert [r["id"] for r in reader.query()] == [kept]
        assert reader.verify().ok


def test_missing_database_is_an_error_not_a_new_file(tmp_path, capsys):
    missing = tmp_path / "nothing.db"
    for sub in (["tail"], ["verify"], ["stats"], ["show", "1"], ["export"], ["prune", "--keep-days", "1"]):
        code, _, err = run(capsys, "log", *sub, "--db", str(missing))
        assert code == 1 and "no audit log" in err, sub
    assert not missing.exists()


def test_parse_since():
    assert parse_since("7d", now=1000.0 + 7 * 86400) == 1000.0
    assert parse_since("90s", now=100.0) == 10.0
    assert parse_since("2024-01-01T00:00:00Z") == 1704067200.0
    assert parse_since("2024-01-01") == 1704067200.0
    with pytest.raises(Exception, match="duration"):
        parse_since("yesterday")
