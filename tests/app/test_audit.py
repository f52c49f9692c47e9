"""app.audit (writer, reader, schema) against a real SQLite file: chain, tamper detection, durability,
secrets, migrations, retention, paging and filters."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
import sqlite_utils

from app.audit import schema as audit_sql
from app.audit.reader import AuditReader
from app.audit.schema import migrate
from app.audit.writer import AuditError, AuditLog
from gate.model import Assessment, Decision, Observation, Risk
from gate.redact import approval_key

DAY = 86400.0
OBS = Observation(window_title="Shop — Checkout", app="firefox", url="https://shop.example/checkout",
                  screen_hash="abc")


class Clock:
    """A controllable UTC clock for the writer."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def assessment(decision: str = "allow", *, reason: str = "no rule objects", redact=frozenset(),
               rules=()) -> Assessment:
    return Assessment(decision=Decision(decision), reason=reason, rules=tuple(rules),
                      risk=Risk.HIGH if decision != "allow" else Risk.LOW, confidence=0.9, redact=redact)


def record(log: AuditLog, action: dict, *, decision: str = "allow", agent: str = "agent-a",
           session_id: int | None = None, redact=frozenset(), reason: str = "no rule objects") -> int:
    return log.record_decision(session_id=session_id, agent=agent, request_id="r", op="act", action=action,
                               assessment=assessment(decision, reason=reason, redact=redact), observation=OBS,
                               approval_key=approval_key(action), execute=True)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "audit.db"


@pytest.fixture
def log(db: Path):
    audit = AuditLog(db)
    yield audit
    audit.close()


def raw(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(db), isolation_level=None)


def fill(log: AuditLog, n: int = 5) -> list[int]:
    sid = log.open_session("agent-a", pid=123, uid=1000, expect={"app": "firefox"})
    ids = []
    for i in range(n):
        did = record(log, {"type": "click", "x": i, "y": i}, session_id=sid)
        log.record_outcome(did, verdict="executed", decided_by="policy", reason="ok", elapsed_ms=1.5)
        ids.append(did)
    log.close_session(sid, "bye")
    return ids


# -- file, modes ---------------------------------------------------------------------------------------


def test_file_is_private_wal_and_durable(log: AuditLog, db: Path):
    fill(log, 2)
    assert db.stat().st_mode & 0o777 == 0o600
    assert db.parent.stat().st_mode & 0o777 == 0o700
    wal = Path(f"{db}-wal")
    assert wal.exists() and wal.stat().st_mode & 0o777 == 0o600
    assert log._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with raw(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == audit_sql.SCHEMA_VERSION


def test_a_recorded_decision_is_visible_to_another_connection_when_the_call_returns(log: AuditLog, db: Path):
    did = record(log, {"type": "key", "keys": ["ctrl", "s"]})
    with raw(db) as other:
        assert other.execute("SELECT summary FROM decisions WHERE id = ?", (did,)).fetchone() == ("key ctrl+s",)


def test_get_returns_the_decision_its_events_and_preview(log: AuditLog):
    sid = log.open_session("agent-a", pid=1, uid=2, expect=None)
    did = record(log, {"type": "click", "x": 640, "y": 400, "target": {"label": "Place order"}},
                 decision="confirm", session_id=sid, reason="irreversible: 'Place order'")
    log.record_event("answer", session_id=sid, decision_id=did, data={"answer": "approve_once"})
    log.record_outcome(did, verdict="executed", decided_by="person", reason="approved", elapsed_ms=2310.4)
    log.add_preview(did, b"\x89PNG-fake-image")
    got = log.reader.get(did)
    # the row names what the click landed on, where the name came from, and the window
    assert got["summary"] == 'click (640,400) left "Place order" · read “Place order” [agent] · in “Shop — Checkout”'
    assert got["action"]["target"] == {"label": "Place order"}
    assert got["decision"] == "confirm" and got["verdict"] == "executed"
    assert [e["kind"] for e in got["events"]] == ["answer", "outcome"]
    assert got["events"][1]["data"] == {"decided_by": "person", "elapsed_ms": 2310.4, "reason": "approved"}
    assert got["preview"]["png"] == b"\x89PNG-fake-image" and got["preview"]["len"] == 15
    assert got["window"] == "Shop — Checkout" and got["at"].endswith("Z")
    assert log.reader.get(did + 1000) is None


def test_event_kinds_and_verdicts_are_checked(log: AuditLog):
    with pytest.raises(AuditError):
        log.record_event("retention", data={"anchor_seq": 0, "anchor_hash": "00" * 32})
    with pytest.raises(AuditError):
        log.record_event("drop table;")
    with pytest.raises(AuditError):
        log.record_outcome(1, verdict="maybe", decided_by="policy", reason="", elapsed_ms=0)
    with pytest.raises(AuditError):
        log.record_event("outcome", decision_id=1, data={"verdict": "nope"})
    eid = log.record_event("outcome", decision_id=1, data={"verdict": "denied", "decided_by": "limit"})
    assert eid >= 1
    assert log.reader.verify().ok


# -- the chain -----------------------------------------------------------------------------------------


def test_chain_verifies(log: AuditLog):
    fill(log, 5)
    result = log.reader.verify()
    assert result.ok and result.problem is None
    assert result.rows == 1 + 5 * 2 + 1  # session, 5 × (decision + outcome), session_end


@pytest.mark.parametrize("statement, names", [
    ("UPDATE decisions SET reason = 'nothing to see' WHERE id = 3", "decisions id 3"),
    ("UPDATE decisions SET decision = 'allow', summary = 'click (9,9) left' WHERE id = 2", "decisions id 2"),
    ("UPDATE events SET verdict = 'denied' WHERE id = 4", "events id 4"),
    ("UPDATE sessions SET agent = 'someone-else' WHERE id = 1", "sessions id 1"),
    ("UPDATE decisions SET ts = ts - 3600 WHERE id = 5", "decisions id 5"),
])
def test_verify_names_an_edited_row(log: AuditLog, db: Path, statement: str, names: str):
    fill(log, 5)
    with raw(db) as conn:
        conn.execute(statement)
    result = log.reader.verify()
    assert not result.ok
    assert result.problem.startswith(names + " ") and "edited" in result.problem


def test_verify_detects_an_edit_whose_hash_was_recomputed(log: AuditLog, db: Path):
    from app.audit.schema import row_hash

    fill(log, 4)
    with raw(db) as conn:
        row = conn.execute("SELECT id, seq, prev_hash, ts, session_id, agent, request_id, op, type, action, "
                           "summary, decision, reason, rules, risk, confidence, window, app, url, "
                           "screen_hash, approval_key, execute FROM decisions WHERE id = 2").fetchone()
        values = list(row[3:])
        values[9] = "allowed by nobody"  # reason
        forged = row_hash(row[2], "decisions", row[1], row[0], tuple(values))
        conn.execute("UPDATE decisions SET reason = ?, hash = ? WHERE id = 2", (values[9], forged))
    result = log.reader.verify()
    assert not result.ok
    assert "does not link to decisions id 2" in result.problem


@pytest.mark.parametrize("statement, fragment", [
    ("DELETE FROM decisions WHERE id = 3", "missing"),
    ("DELETE FROM events WHERE id = 2", "missing"),
    ("DELETE FROM sessions WHERE id = 1", "missing"),  # the very first row
])
def test_verify_detects_a_deleted_row(log: AuditLog, db: Path, statement: str, fragment: str):
    fill(log, 5)
    with raw(db) as conn:
        conn.execute(statement)
    result = log.reader.verify()
    assert not result.ok and fragment in result.problem


def test_a_second_writer_process_keeps_the_chain(db: Path):
    first = AuditLog(db, keep_days=0)
    record(first, {"type": "wait"})
    second = AuditLog(db, keep_days=0)  # e.g. `deskgate log prune` while the supervisor runs
    second.record_event("policy", data={"reloaded": True})
    second.close()
    record(first, {"type": "wait"})  # must pick up the row the other process appended
    assert first.reader.verify().ok
    assert first.reader.verify().rows == 3
    first.close()


# -- secrets -------------------------------------------------------------------------------------------


def test_secrets_never_reach_the_file(db: Path):
    password = "Tr0ub4dor&3-horse"
    token = "ghp_" + "Q" * 10 + "7f3Kx9LmPz2RtVwYb8Ncd4"
    content = "TOP-SECRET-DIARY-ENTRY the quick brown fox"
    env_value = "env-value-s3cr3t-123"
    log = AuditLog(db)
    sid = log.open_session("agent-a", pid=1, uid=1, expect=None)
    did = record(log, {"type": "type", "text": password, "target": {"label": "Password"}},
                 decision="confirm", session_id=sid, redact=frozenset({"text"}),
                 reason=f"typing '{password}' into a password field")
    log.record_outcome(did, verdict="denied", decided_by="person", reason="no", elapsed_ms=1)
    record(log, {"type": "file_write", "path": "/tmp/diary.txt", "content": content})
    record(log, {"type": "shell", "command": f"GH_TOKEN={token} gh repo list"})
    eid = record(log, {"type": "shell", "command": "env", "env": {"API": env_value}})
    log.record_event("execution", decision_id=eid, data={"stdout": f"GH_TOKEN={token}\nAPI={env_value}"})
    log.record_outcome(eid, verdict="executed", decided_by="policy", reason=f"printed {token}", elapsed_ms=3)
    # while open (rows in the -wal file) and after close (checkpointed into the main file)
    for when in ("open", "closed"):
        files = [p for p in db.parent.iterdir() if p.name.startswith(db.name)]
        blob = b"".join(p.read_bytes() for p in files)
        assert blob, files
        if when == "open":
            assert Path(f"{db}-wal").exists()
        for secret in (password, token, content, env_value):
            assert secret.encode() not in blob, (when, secret)
        log.close()
    reader = AuditReader(db)
    text = json.dumps(reader.get(did))
    assert password not in text and '"redacted": true' in text
    reader.close()


# -- concurrency and failure ------------------------------------------------------------------------------


def test_eight_threads_get_every_decision_recorded_once(log: AuditLog, db: Path):
    ids: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def agent(n: int) -> None:
        try:
            sid = log.open_session(f"agent-{n}", pid=n, uid=0, expect=None)
            mine = [record(log, {"type": "click", "x": n, "y": i}, agent=f"agent-{n}", session_id=sid)
                    for i in range(200)]
            with lock:
                ids.extend(mine)
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=agent, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    assert len(ids) == 1600 and len(set(ids)) == 1600
    assert log.reader.count() == 1600
    assert all(log.reader.count(agent=f"agent-{n}") == 200 for n in range(8))
    with raw(db) as conn:
        assert conn.execute("SELECT count(*) FROM decisions").fetchone()[0] == 1600
    result = log.reader.verify()
    assert result.ok and result.rows == 1608


def test_a_locked_database_raises_promptly_and_leaves_no_trace(tmp_path: Path):
    db = tmp_path / "audit.db"
    log = AuditLog(db, busy_timeout_s=0.3)
    record(log, {"type": "wait"})
    holder = raw(db)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    started = time.monotonic()
    with pytest.raises(AuditError, match="write failed"):
        record(log, {"type": "key", "keys": ["enter"]})
    assert time.monotonic() - started < 5
    holder.execute("ROLLBACK")
    holder.close()
    after = record(log, {"type": "wait"})
    assert log.reader.count() == 2 and log.reader.get(after)["type"] == "wait"
    assert log.reader.verify().ok
    log.close()


def test_an_unwritable_location_raises(tmp_path: Path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with pytest.raises(AuditError):
        AuditLog(blocker / "audit.db")


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_a_read_only_file_raises(db: Path):
    AuditLog(db).close()
    db.chmod(0o400)
    with pytest.raises(AuditError):
        AuditLog(db)


def test_a_write_error_mid_run_raises_in_the_caller(tmp_path: Path):
    """A disk that stops taking writes (file size limit) → AuditError, not a hang, not a crash."""
    code = textwrap.dedent("""
        import resource, signal, sys
        from pathlib import Path
        sys.path.insert(0, sys.argv[2])
        from app.audit.writer import AuditError, AuditLog
        from gate.model import Assessment, Decision, Observation, Risk
        db = Path(sys.argv[1])
        log = AuditLog(db, keep_days=0, preview_keep_days=0)
        a = Assessment(decision=Decision.ALLOW, reason="r", rules=(), risk=Risk.LOW, confidence=1.0)
        def rec(text):
            return log.record_decision(session_id=None, agent="a", request_id="1", op="act",
                                       action={"type": "type", "text": text}, assessment=a,
                                       observation=Observation(), approval_key="k", execute=True)
        rec("before")
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        size = max(p.stat().st_size for p in db.parent.iterdir())
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 1024, resource.RLIM_INFINITY))
        try:
            rec("hello world " * 20000)
        except AuditError as err:
            print("AuditError", err)
        else:
            print("recorded")
        resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        rec("after")
        print("verify", log.reader.verify().ok, log.reader.count())
        log.close()
    """)
    root = str(Path(__file__).resolve().parents[2])
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "audit.db"), root],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("AuditError"), r.stdout
    assert lines[1] == "verify True 2", r.stdout


def test_closed_log_refuses(db: Path):
    log = AuditLog(db)
    log.close()
    with pytest.raises(AuditError):
        record(log, {"type": "wait"})


def test_kill_9_loses_no_acknowledged_decision(tmp_path: Path):
    db = tmp_path / "audit.db"
    code = textwrap.dedent("""
        import sys, threading
        sys.path.insert(0, sys.argv[2])
        from app.audit.writer import AuditLog
        from gate.model import Assessment, Decision, Observation, Risk
        log = AuditLog(sys.argv[1], keep_days=0)
        a = Assessment(decision=Decision.ALLOW, reason="r", rules=(), risk=Risk.LOW, confidence=1.0)
        out = threading.Lock()
        def agent(n):
            for i in range(100000):
                did = log.record_decision(session_id=None, agent=f"a{n}", request_id=str(i), op="act",
                                          action={"type": "click", "x": n, "y": i}, assessment=a,
                                          observation=Observation(), approval_key="k", execute=True)
                with out:
                    sys.stdout.write(f"{did}\\n")
                    sys.stdout.flush()
        for n in range(4):
            threading.Thread(target=agent, args=(n,), daemon=True).start()
        threading.Event().wait()
    """)
    root = str(Path(__file__).resolve().parents[2])
    proc = subprocess.Popen([sys.executable, "-c", code, str(db), root], stdout=subprocess.PIPE, text=True)
    acked: list[int] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        acked.append(int(line))
        if len(acked) >= 500:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    acked += [int(x) for x in proc.stdout.read().split()]
    reader = AuditReader(db)
    try:
        assert reader.verify().ok
        with raw(db) as conn:
            present = {r[0] for r in conn.execute("SELECT id FROM decisions")}
        assert set(acked) <= present
    finally:
        reader.close()


# -- migrations -------------------------------------------------------------------------------------------


def _v1_file(db: Path) -> list[int]:
    log = AuditLog(db)
    ids = fill(log, 3)
    log.close()
    with raw(db) as conn:  # what a deskgate with schema v1 left behind
        for name in ("decisions_ts", "decisions_decision", "decisions_agent", "events_verdict",
                     "events_retention"):
            conn.execute(f"DROP INDEX {name}")
        conn.execute("PRAGMA user_version = 1")
    return ids


def test_migrating_an_older_file_keeps_data_and_makes_a_backup(db: Path):
    ids = _v1_file(db)
    log = AuditLog(db)
    try:
        assert log.backup_path is not None and log.backup_path.exists()
        assert log.backup_path.stat().st_mode & 0o777 == 0o600
        with raw(log.backup_path) as old:
            assert old.execute("PRAGMA user_version").fetchone()[0] == 1
            assert old.execute("SELECT count(*) FROM decisions").fetchone()[0] == 3
        with raw(db) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == audit_sql.SCHEMA_VERSION
            indexes = {i.name for i in sqlite_utils.Database(conn)["decisions"].indexes}
        assert {"decisions_ts", "decisions_decision", "decisions_agent"} <= indexes
        assert [r["id"] for r in log.reader.query()] == ids[::-1]
        record(log, {"type": "wait"})
        assert log.reader.verify().ok
    finally:
        log.close()


def test_migrate_applies_numbered_steps_in_order(tmp_path: Path):
    db = tmp_path / "steps.db"
    conn = raw(db)
    assert migrate(conn, db, upto=1) is None  # a new, empty file needs no backup
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "decisions_ts" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    migrate(conn, db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    assert "decisions_ts" in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()


def test_a_newer_or_foreign_file_is_refused_untouched(tmp_path: Path):
    newer = tmp_path / "newer.db"
    with raw(newer) as conn:
        conn.execute(f"PRAGMA user_version = {audit_sql.SCHEMA_VERSION + 1}")
    with pytest.raises(AuditError, match="newer"):
        AuditLog(newer)
    foreign = tmp_path / "foreign.db"
    with raw(foreign) as conn:
        conn.execute("CREATE TABLE notes (x)")
    before = foreign.read_bytes()
    with pytest.raises(AuditError, match="not a deskgate audit log"):
        AuditLog(foreign)
    assert foreign.read_bytes() == before


# -- retention ------------------------------------------------------------------------------------------


def test_retention_prunes_old_rows_and_the_chain_still_verifies(db: Path):
    clock = Clock(1_700_000_000.0)
    log = AuditLog(db, keep_days=30, clock=clock)
    old = fill(log, 4)
    clock.now += 20 * DAY
    middle = fill(log, 2)
    clock.now += 15 * DAY  # `old` is now 35 days old, `middle` 15
    new = fill(log, 3)
    assert log.reader.count() == 9
    pruned = log.apply_retention(30)
    assert pruned == 1 + 4 * 2 + 1  # the first session's rows
    assert [r["id"] for r in log.reader.query()] == (middle + new)[::-1]
    assert all(log.reader.get(i) is None for i in old)
    result = log.reader.verify()
    assert result.ok, result.problem
    assert log.reader.stats()["pruned_before"] is not None
    assert log.apply_retention(30) == 0  # nothing more to prune: no new event either
    clock.now += 20 * DAY
    assert log.apply_retention(30) > 0  # a second retention anchors on the first
    assert [r["id"] for r in log.reader.query()] == new[::-1]
    assert log.reader.verify().ok
    log.close()


def test_after_retention_deleting_or_forging_is_still_detected(db: Path):
    clock = Clock(1_700_000_000.0)
    log = AuditLog(db, keep_days=0, clock=clock)
    fill(log, 3)
    clock.now += 40 * DAY
    fill(log, 3)
    assert log.apply_retention(30) > 0
    with raw(db) as conn:
        first = conn.execute("SELECT min(id) FROM decisions").fetchone()[0]
        conn.execute("DELETE FROM decisions WHERE id = ?", (first,))
    result = log.reader.verify()
    assert not result.ok and "missing" in result.problem
    log.close()


def test_deleting_the_retention_event_is_detected(db: Path):
    clock = Clock(1_700_000_000.0)
    log = AuditLog(db, keep_days=0, clock=clock)
    fill(log, 2)
    clock.now += 40 * DAY
    log.apply_retention(30)
    fill(log, 2)
    with raw(db) as conn:
        conn.execute("DELETE FROM events WHERE kind = 'retention'")
    assert not log.reader.verify().ok
    log.close()


def test_retention_runs_when_the_log_opens(db: Path):
    clock = Clock(1_700_000_000.0)
    AuditLog(db, keep_days=0, clock=clock).close()
    log = AuditLog(db, keep_days=0, clock=clock)
    fill(log, 2)
    log.close()
    clock.now += 31 * DAY
    log = AuditLog(db, keep_days=30, clock=clock)
    assert log.reader.count() == 0 and log.reader.verify().ok
    log.close()


def test_old_previews_lose_their_image_but_verify(db: Path):
    clock = Clock(1_700_000_000.0)
    log = AuditLog(db, keep_days=0, preview_keep_days=7, clock=clock)
    did = record(log, {"type": "click", "x": 1, "y": 1})
    log.add_preview(did, b"png-bytes")
    log.close()
    clock.now += 8 * DAY
    log = AuditLog(db, keep_days=0, preview_keep_days=7, clock=clock)
    got = log.reader.get(did)
    assert got["preview"]["png"] is None and got["preview"]["len"] == 9
    assert log.reader.verify().ok
    with raw(db) as conn:  # but swapping an image is an edit
        conn.execute("UPDATE previews SET png = X'00'")
    assert not log.reader.verify().ok
    log.close()


# -- queries ---------------------------------------------------------------------------------------------


@pytest.fixture
def corpus(db: Path):
    """120 decisions over 120 minutes: decision, agent and verdict cycle with different periods."""
    clock = Clock(1_700_000_000.0)
    log = AuditLog(db, keep_days=0, clock=clock)
    rows = []
    decisions, verdicts, agents = ("allow", "confirm", "block"), ("executed", "denied", "error", "allowed"), \
        ("alpha", "beta")
    for i in range(120):
        d, v, a = decisions[i % 3], verdicts[i % 4], agents[i % 2]
        action = {"type": "shell", "command": f"echo item-{i}"} if i % 5 == 0 else {"type": "click", "x": i, "y": 0}
        did = record(log, action, decision=d, agent=a, reason=f"reason {d} {i}")
        log.record_outcome(did, verdict=v, decided_by="policy", reason="", elapsed_ms=i)
        rows.append({"id": did, "ts": clock.now, "decision": d, "verdict": v, "agent": a, "i": i})
        clock.now += 60
    yield log, rows
    log.close()


def test_query_is_newest_first_and_pages_by_id(corpus):
    log, rows = corpus
    seen, before = [], None
    while True:
        page = log.reader.query(limit=25, before_id=before)
        if not page:
            break
        assert len(page) <= 25
        seen += [r["id"] for r in page]
        before = page[-1]["id"]
    assert seen == [r["id"] for r in reversed(rows)]


@pytest.mark.parametrize("filters", [
    {"decision": "block"}, {"verdict": "denied"}, {"agent": "beta"},
    {"decision": "confirm", "agent": "alpha"}, {"verdict": "executed", "decision": "allow"},
    {"verdict": "error", "agent": "alpha"}, {"since": 1_700_000_000.0 + 60 * 100},
    {"until": 1_700_000_000.0 + 60 * 10}, {"since": 1_700_000_000.0 + 60 * 30, "until": 1_700_000_000.0 + 60 * 40,
                                            "decision": "allow"},
    {"text": "item-1"}, {"text": "reason block 1"}, {"text": "50%"}, {"decision": "nothing"},
])
def test_query_filters_and_count_match(corpus, filters):
    log, rows = corpus

    def match(r):
        ok = True
        for key in ("decision", "verdict", "agent"):
            if key in filters:
                ok &= r[key] == filters[key]
        if "since" in filters:
            ok &= r["ts"] >= filters["since"]
        if "until" in filters:
            ok &= r["ts"] < filters["until"]
        if "text" in filters:
            summary = f"shell echo item-{r['i']}" if r["i"] % 5 == 0 else f"click ({r['i']},0) left"
            ok &= filters["text"] in summary or filters["text"] in f"reason {r['decision']} {r['i']}"
        return ok

    want = [r["id"] for r in reversed(rows) if match(r)]
    got = log.reader.query(limit=1000, **filters)
    assert [r["id"] for r in got] == want
    assert log.reader.count(**filters) == len(want)
    if "verdict" in filters:
        assert all(r["verdict"] == filters["verdict"] for r in got)
    # paging with a filter visits the same rows
    paged, before = [], None
    while page := log.reader.query(limit=7, before_id=before, **filters):
        paged += [r["id"] for r in page]
        before = page[-1]["id"]
    assert paged == want


def test_query_rows_carry_the_outcome(corpus):
    log, rows = corpus
    top = log.reader.query(limit=1)[0]
    assert top["id"] == rows[-1]["id"] and top["verdict"] == rows[-1]["verdict"]
    assert top["decided_by"] == "policy" and top["elapsed_ms"] == 119


def test_histogram_and_stats(corpus):
    log, rows = corpus
    hist = log.reader.histogram(bucket_s=3600)
    assert sum(n for _, _, n in hist) == 120
    assert {d for _, d, _ in hist} == {"allow", "confirm", "block"}
    per_bucket = {}
    for r in rows:
        key = (int(r["ts"] // 3600) * 3600.0, r["decision"])
        per_bucket[key] = per_bucket.get(key, 0) + 1
    assert {(b, d): n for b, d, n in hist} == per_bucket
    assert sum(n for _, _, n in log.reader.histogram(bucket_s=600, decision="block")) == 40
    # a time window that starts inside a bucket, by index ranges; and the SQL GROUP BY path (agent filter,
    # or more buckets than pay for index probes) gives the same counts
    since = rows[10]["ts"] + 1
    window = [r for r in rows if r["ts"] >= since]
    fast = log.reader.histogram(bucket_s=600, since=since)
    assert sum(n for _, _, n in fast) == len(window)
    assert fast == sorted(fast)
    fine = log.reader.histogram(bucket_s=1, since=since)
    assert {(b, d): n for b, d, n in fine} == {(float(int(r["ts"])), r["decision"]): 1 for r in window}
    by_agent = log.reader.histogram(bucket_s=600, since=since, agent="alpha")
    assert sum(n for _, _, n in by_agent) == sum(1 for r in window if r["agent"] == "alpha")
    stats = log.reader.stats()
    assert stats["decisions"] == 120 and stats["events"] == 120
    assert stats["by_decision"] == {"allow": 40, "confirm": 40, "block": 40}
    assert stats["by_verdict"] == {"executed": 30, "denied": 30, "error": 30, "allowed": 30}


def test_export_jsonl_and_csv(corpus):
    log, rows = corpus
    buf = io.StringIO()
    assert log.reader.export(buf, "jsonl", decision="block") == 40
    lines = [json.loads(line) for line in buf.getvalue().splitlines()]
    assert [x["id"] for x in lines] == [r["id"] for r in rows if r["decision"] == "block"]  # oldest first
    assert lines[0]["action"]["type"] in ("shell", "click") and lines[0]["verdict"]
    buf = io.StringIO()
    assert log.reader.export(buf, "csv", since=1_700_000_000.0 + 60 * 110) == 10
    table = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert len(table) == 10 and json.loads(table[0]["action"])["type"]


def test_reader_refuses_missing_or_foreign_files(tmp_path: Path):
    with pytest.raises(AuditError, match="no audit log"):
        AuditReader(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()


def test_non_durable_events_are_queued_and_committed_with_the_next_group(tmp_path):
    from gate import SafetyGate, action_from_dict
    from gate.model import Observation

    log = AuditLog(tmp_path / "a.db")
    try:
        action = {"type": "wait", "seconds": 0}
        assessment = SafetyGate().assess(action_from_dict(action))
        did = log.record_decision(session_id=None, agent="a", request_id="1", op="act", action=action,
                                  assessment=assessment, observation=Observation(), approval_key="k", execute=True)
        assert log.record_event("execution", decision_id=did, data={"ok": True}, durable=False) is None
        assert log.record_outcome(did, verdict="executed", decided_by="policy", reason="ok", elapsed_ms=1.0,
                                  durable=False) is None
        log.flush()
        row = log.reader.get(did)
        assert row["verdict"] == "executed"
        assert [e["kind"] for e in row["events"]] == ["execution", "outcome"]
        assert log.reader.verify().ok
    finally:
        log.close()


# -- keyed fingerprints, outputs, the chain head kept outside the file --------------------------------


def test_secrets_are_keyed_fingerprints_under_a_private_per_install_key(tmp_path: Path) -> None:
    import hashlib
    import hmac

    state = tmp_path / "state"
    db = tmp_path / "audit.db"
    with AuditLog(db, state_dir=state) as first:
        did = record(first, {"type": "type", "text": "hunter2"}, redact=frozenset({"text"}))
        stored = first.reader.get(did)["action"]["text"]
    key_file = state / "audit.key"
    key = key_file.read_bytes()
    assert len(key) == 32 and stat_mode(key_file) == 0o600
    assert stored == {"redacted": True, "hmac": hmac.new(key, b"hunter2", hashlib.sha256).hexdigest(), "len": 7}
    assert hashlib.sha256(b"hunter2").hexdigest().encode() not in db.read_bytes()
    with AuditLog(tmp_path / "second.db", state_dir=state) as second:  # the same install: the same key
        did = record(second, {"type": "type", "text": "hunter2"}, redact=frozenset({"text"}))
        assert second.reader.get(did)["action"]["text"] == stored
    other = AuditLog(tmp_path / "third.db", state_dir=tmp_path / "elsewhere")
    try:
        did = record(other, {"type": "type", "text": "hunter2"}, redact=frozenset({"text"}))
        assert other.reader.get(did)["action"]["text"]["hmac"] != stored["hmac"]  # another install: another key
    finally:
        other.close()


def stat_mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_a_key_file_that_is_not_a_key_fails_closed(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "audit.key").write_bytes(b"short")
    with pytest.raises(AuditError, match="key"):
        AuditLog(tmp_path / "audit.db", state_dir=state)


@pytest.mark.parametrize("store", [False, True])
def test_execution_outputs_are_kept_only_when_asked(tmp_path: Path, store: bool) -> None:
    with AuditLog(tmp_path / "audit.db", state_dir=tmp_path / "state", store_outputs=store) as log:
        did = record(log, {"type": "shell", "command": "cat notes"})
        log.record_event("execution", decision_id=did, data={"ok": True, "stdout": "plain output here",
                                                             "stderr": "", "exit_code": 0})
        log.flush()
        (event,) = [e for e in log.reader.get(did)["events"] if e["kind"] == "execution"]
    if store:
        assert event["data"]["stdout"] == "plain output here"
    else:
        assert "stdout" not in event["data"] and event["data"]["stdout_len"] == len("plain output here")
        assert event["data"]["exit_code"] == 0


def test_the_chain_head_follows_every_commit_and_survives_a_torn_slot(tmp_path: Path) -> None:
    from app.audit.anchor import ChainHeadFile

    state = tmp_path / "state"
    db = tmp_path / "audit.db"
    with AuditLog(db, state_dir=state, keep_days=0, preview_keep_days=0) as log:
        fill(log, 3)
        log.flush()
        head = ChainHeadFile(log.head_file.path).read()
        with AuditReader(db, state_dir=state) as reader:
            result = reader.verify()
        assert result.ok and (head.seq, head.hash) == (result.head_seq, result.head_hash)
    path = log.head_file.path
    raw_head = bytearray(path.read_bytes())
    newest = (head.seq % 2) * 128
    raw_head[newest + 10] ^= 0xFF  # the newest slot torn: the one before it is still intact
    path.write_bytes(bytes(raw_head))
    assert ChainHeadFile(path).read().seq == head.seq - 1
    with AuditReader(db, state_dir=state) as reader:
        assert reader.verify().ok and reader.verify().note  # one row past the surviving head: a note
    raw_head[(1 - head.seq % 2) * 128 + 10] ^= 0xFF  # both torn: the end cannot be checked → refused
    path.write_bytes(bytes(raw_head))
    with AuditReader(db, state_dir=state) as reader:
        assert not reader.verify().ok
    with pytest.raises(AuditError, match="chain head"):
        AuditLog(db, state_dir=state)


def test_a_log_without_its_head_does_not_verify_unless_asked(tmp_path: Path) -> None:
    db = tmp_path / "audit.db"
    with AuditLog(db, state_dir=tmp_path / "state") as log:
        fill(log, 2)
    with AuditReader(db, state_dir=tmp_path / "a-copy-elsewhere") as reader:
        result = reader.verify()
        assert not result.ok and "no chain head" in result.problem
        assert reader.verify(check_head=False).ok
