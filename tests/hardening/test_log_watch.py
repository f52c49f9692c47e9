"""The log is watched while it runs: a WAL or database that is emptied or shrinks under the supervisor
puts the log out of service, like a deleted one.

Before, `: > audit.db-wal` under a running supervisor raised no alarm: actions kept executing and the
history in the WAL was lost. Now the writer knows each file's size after its last commit (nothing of
deskgate's shrinks either while it runs) and stops for good, with the tray alarm, when one is smaller.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from app.agent.client import Client, InternalError
from app.audit.writer import AuditError, AuditLog

POLICY = """
[gate]
modes = { shell = "allow" }

[fence]
enabled = false
required = false
"""


def _shrink(path: Path, how: str) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as fh:
        fh.truncate(0 if how == "emptied" else size // 2)


@pytest.mark.parametrize(("which", "how"), [("-wal", "emptied"), ("-wal", "shrunk"), ("", "shrunk")])
def test_a_file_that_shrinks_under_the_writer_stops_it(tmp_path, which, how):
    db = tmp_path / "audit.db"
    log = AuditLog(db, state_dir=tmp_path / "state", keep_days=0, preview_keep_days=0)
    alarms: list[str] = []
    log.add_alarm_listener(alarms.append)
    try:
        sid = log.open_session("agent", pid=1, uid=1, expect=None)
        for i in range(200):
            log.record_event("note", session_id=sid, data={"i": i, "pad": "x" * 200})
        target = Path(f"{db}{which}")
        assert target.stat().st_size > 4096
        _shrink(target, how)
        with pytest.raises(AuditError, match=how):
            log.record_event("note", data={"after": True})
        with pytest.raises(AuditError, match="out of service"):
            log.record_event("note", data={"after": True})
        assert len(alarms) == 1 and how in alarms[0]
    finally:
        log.close()


def test_own_growth_and_checkpoints_are_not_mistaken_for_tampering(tmp_path):
    db = tmp_path / "audit.db"
    with AuditLog(db, state_dir=tmp_path / "state", keep_days=0, preview_keep_days=0) as log:
        for i in range(3000):  # past several of the writer's own checkpoints
            log.record_event("note", data={"i": i})
        assert log.out_of_service is None
        assert log.apply_retention(0) >= 0  # deleting rows does not shrink the files either
        log.record_event("note", data={"after": "prune"})
        assert log.out_of_service is None


def test_emptying_the_wal_under_a_running_server_stops_actions(deskgate_home, serve_in_process, tmp_path):
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    alarms: list[dict] = []
    rt.supervisor.subscribe(lambda event: alarms.append(event) if event.get("kind") == "alarm" else None)
    marker = tmp_path / "ran"
    with Client(home["socket"], timeout=60) as c:
        c.hello("wal-test")
        for i in range(5):
            assert c.act({"type": "shell", "command": f"echo {i}"})["verdict"] == "executed"
        wal = Path(f"{home['db']}-wal")
        assert wal.stat().st_size > 0
        os.truncate(wal, 0)
        with pytest.raises(InternalError, match="audit"):
            c.act({"type": "shell", "command": f"touch {marker}"})
    assert not marker.exists()
    assert len(alarms) == 1 and "emptied" in alarms[0]["message"]
    with Client(home["socket"], timeout=30) as person:
        assert "emptied" in person.control("status")["audit_alarm"]


def test_starting_on_a_log_that_fails_verify_is_loud(deskgate_home, serve_in_process):
    """A row edited while deskgate was stopped (the end still matches the chain head, so the open
    itself passes): deskgate starts, and says so in status, in the tray's alarm and in the log."""
    import sqlite3

    home = deskgate_home(POLICY)
    with AuditLog(home["db"], state_dir=home["root"] / "state", keep_days=0, preview_keep_days=0) as log:
        for i in range(10):
            log.record_event("note", data={"i": i})
    with sqlite3.connect(home["db"]) as conn:
        conn.execute("UPDATE events SET data = '{\"i\": 99}' WHERE id = 3")
    alarms: list[str] = []
    real_listener = AuditLog.add_alarm_listener

    def spy(self, callback):
        real_listener(self, callback)
        real_listener(self, alarms.append)

    AuditLog.add_alarm_listener = spy
    try:
        rt = serve_in_process(home)
    finally:
        AuditLog.add_alarm_listener = real_listener
    rt.audit.flush()
    for _ in range(600):  # the verification runs on its own thread: wait for its verdict, not a time
        if rt.audit.verify_problem is not None:
            break
        threading.Event().wait(0.05)
    assert rt.audit.verify_problem is not None and "FAILED VERIFICATION" in rt.audit.verify_problem
    with Client(home["socket"], timeout=30) as person:
        assert "FAILED VERIFICATION" in person.control("status")["audit_verify_failed"]
    assert alarms and "FAILED VERIFICATION" in alarms[0]
    rt.audit.flush()
    with sqlite3.connect(home["db"]) as conn:
        assert conn.execute("SELECT count(*) FROM events WHERE kind = 'log_verify_failed'").fetchone()[0] == 1
