"""The audit log cannot vanish unnoticed. With the real server, supervisor and SQLite file: deleting the
database under a running server stops every action and raises an alarm; a log whose end was cut (rows
deleted, every row deleted, its WAL truncated) fails `deskgate log verify` and will not be written to."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.agent.client import Client, InternalError
from app.audit.reader import AuditReader
from app.audit.writer import AuditError, AuditLog

ROOT = Path(__file__).resolve().parents[2]

POLICY = """
[gate]
modes = { shell = "allow" }

[fence]
enabled = false
required = false
"""


def _files(db: Path) -> list[Path]:
    return [p for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()]


def _verify_cli(db: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli.main", "log", "verify", "--db", str(db), *extra], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def test_deleting_the_database_under_a_running_server_stops_actions_and_alarms(
        deskgate_home, serve_in_process, tmp_path):
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    alarms: list[dict] = []
    rt.supervisor.subscribe(lambda event: alarms.append(event) if event.get("kind") == "alarm" else None)
    marker = tmp_path / "ran"
    with Client(home["socket"], timeout=60) as c:
        c.hello("tamper-test")
        assert c.act({"type": "shell", "command": "true"})["verdict"] == "executed"
        for path in _files(home["db"]):
            path.unlink()
        with pytest.raises(InternalError, match="audit"):
            c.act({"type": "shell", "command": f"touch {marker}"})
        with pytest.raises(InternalError, match="audit"):  # and it stays out of service
            c.act({"type": "shell", "command": f"touch {marker}"})
    assert not marker.exists()
    assert len(alarms) == 1 and "deleted" in alarms[0]["message"]
    with Client(home["socket"], timeout=30) as person:
        assert "deleted" in person.control("status")["audit_alarm"]


def test_replacing_the_database_file_is_noticed(tmp_path):
    db = tmp_path / "audit.db"
    log = AuditLog(db, state_dir=tmp_path / "state")
    try:
        log.record_event("note", data={"n": 1})
        os.rename(db, tmp_path / "moved.db")
        (tmp_path / "moved.db").rename(db)  # same file back: still fine
        log.record_event("note", data={"n": 2})
        other = tmp_path / "other.db"
        AuditLog(other, state_dir=tmp_path / "other-state").close()
        os.replace(other, db)
        with pytest.raises(AuditError, match="replaced"):
            log.record_event("note", data={"n": 3})
    finally:
        log.close()


def _write_rows(db: Path, n: int) -> None:
    with AuditLog(db, keep_days=0, preview_keep_days=0) as log:
        sid = log.open_session("agent", pid=1, uid=1, expect=None)
        for i in range(n):
            log.record_event("note", session_id=sid, data={"i": i})


@pytest.mark.parametrize("cut", ["last rows", "every row"])
def test_rows_cut_from_the_end_fail_verify(tmp_path, cut):
    db = tmp_path / "audit.db"
    _write_rows(db, 20)
    assert _verify_cli(db).returncode == 0
    with sqlite3.connect(db) as conn:
        if cut == "last rows":
            conn.execute("DELETE FROM events WHERE id > (SELECT max(id) - 9 FROM events)")
        else:
            for table in ("events", "decisions", "sessions", "previews"):
                conn.execute(f"DELETE FROM {table}")
    with AuditReader(db) as reader:
        assert reader.verify(check_head=False).ok  # the chain alone cannot see a cut end
        result = reader.verify()
    assert not result.ok and "END OF THE LOG IS MISSING" in result.problem
    out = _verify_cli(db)
    assert out.returncode == 1 and "END OF THE LOG IS MISSING" in out.stdout
    with pytest.raises(AuditError, match="lost its end"):
        AuditLog(db)  # nor does a restarted deskgate quietly continue it


def test_a_truncated_wal_fails_verify(tmp_path):
    db = tmp_path / "audit.db"
    # a writer that dies without checkpointing: its rows are only in the WAL
    script = textwrap.dedent(f"""
        import os
        from app.audit.writer import AuditLog
        log = AuditLog({str(db)!r}, keep_days=0, preview_keep_days=0)
        sid = log.open_session("agent", pid=1, uid=1, expect=None)
        for i in range(20):
            log.record_event("note", session_id=sid, data={{"i": i}})
        os._exit(0)
    """)
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True, timeout=120)
    wal = Path(f"{db}-wal")
    assert wal.stat().st_size > 0
    with open(wal, "r+b") as fh:
        fh.truncate(wal.stat().st_size // 2)
    out = _verify_cli(db)
    assert out.returncode == 1 and "END OF THE LOG IS MISSING" in out.stdout, out.stdout + out.stderr


def test_deleting_or_replacing_the_chain_head_under_a_running_writer_stops_it(tmp_path):
    # the head is rewritten after every commit but fsync'd only now and then: the writer still checks,
    # before every commit, that the file it writes is the one at the head's path
    for how in ("deleted", "replaced"):
        db = tmp_path / how / "audit.db"
        log = AuditLog(db, state_dir=tmp_path / how / "state", keep_days=0, preview_keep_days=0)
        try:
            log.record_event("note", data={"n": 1})
            head = log.head_file.path
            if how == "deleted":
                head.unlink()
            else:
                copy = head.with_name("copy")
                copy.write_bytes(head.read_bytes())
                os.replace(copy, head)
            with pytest.raises(AuditError, match=how):
                log.record_event("note", data={"n": 2})
            assert how in (log.out_of_service or "")
        finally:
            log.close()
