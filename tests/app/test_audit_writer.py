"""The audit writer's commit path: the chain head (visible at once, durable within its interval, behind
the database after a power loss but never ahead), WAL checkpoints by the writer between commits, and a batch
of many rows going in as several multi-row INSERTs."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from app.audit import writer as audit_writer
from app.audit.anchor import ChainHead, ChainHeadFile
from app.audit.reader import AuditReader
from app.audit.writer import AuditError, AuditLog


def _log(tmp_path: Path) -> AuditLog:
    return AuditLog(tmp_path / "audit.db", state_dir=tmp_path / "state", keep_days=0, preview_keep_days=0)


def _notes(log: AuditLog, n: int, *, durable: bool = True) -> None:
    for i in range(n):
        log.record_event("note", data={"i": i}, durable=durable)


def test_the_head_is_visible_at_once_so_a_cut_tail_is_caught_before_the_head_reaches_the_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_writer, "_HEAD_SYNC_S", 3600.0)  # never made durable while the test runs
    log = _log(tmp_path)
    try:
        _notes(log, 6)
        log.flush()
        assert log.head_file.dirty  # written, not fsync'd
        with AuditReader(log.path, state_dir=tmp_path / "state") as reader:
            result = reader.verify()
            assert result.ok and result.note is None
            assert ChainHeadFile(log.head_file.path).read() == ChainHead(result.head_seq, result.head_hash)
            with sqlite3.connect(log.path) as conn:  # a same-uid process cuts the newest rows
                conn.execute("DELETE FROM events WHERE id > (SELECT max(id) - 2 FROM events)")
            cut = reader.verify()
        assert not cut.ok and "END OF THE LOG IS MISSING" in cut.problem
    finally:
        log.close()
    assert not log.head_file.dirty  # close makes it durable


@pytest.mark.parametrize("interval", [0.0, 3600.0])
def test_the_head_is_fsynced_when_its_interval_has_passed_not_at_every_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interval: float) -> None:
    monkeypatch.setattr(audit_writer, "_HEAD_SYNC_S", interval)
    log = _log(tmp_path)
    syncs: list[int] = []
    real_sync = log.head_file.sync
    monkeypatch.setattr(log.head_file, "sync", lambda: (syncs.append(1), real_sync())[1])
    try:
        _notes(log, 5)
        log.flush()  # the writer syncs (or not) after a commit, before it takes the next batch
        if interval == 0.0:
            assert len(syncs) >= 5 and not log.head_file.dirty
        else:
            assert syncs == [] and log.head_file.dirty
    finally:
        log.close()
    assert not log.head_file.dirty


def test_a_head_behind_the_database_verifies_with_a_note_and_a_head_ahead_does_not(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with _log(tmp_path) as log:
        _notes(log, 5)
        path = log.head_file.path
    with AuditReader(tmp_path / "audit.db", state_dir=state) as reader:
        end = reader.verify()
        with sqlite3.connect(tmp_path / "audit.db") as conn:
            (older,) = conn.execute("SELECT hash FROM events WHERE seq = ?", (end.head_seq - 2,)).fetchone()
    behind = ChainHeadFile(path)  # what a power loss can leave: older heads in both slots
    behind.write(ChainHead(end.head_seq - 3, b"\0" * 32))
    behind.write(ChainHead(end.head_seq - 2, older))
    behind.close()
    with AuditReader(tmp_path / "audit.db", state_dir=state) as reader:
        result = reader.verify()
    assert result.ok and "2 row(s) after the recorded chain head" in result.note
    with _log(tmp_path) as log:  # and the writer carries on from the database's end
        _notes(log, 1)
    with AuditReader(tmp_path / "audit.db", state_dir=state) as reader:
        again = reader.verify()
    assert again.ok and again.note is None and again.head_seq == end.head_seq + 1
    ahead = ChainHeadFile(path)
    ahead.write(ChainHead(again.head_seq + 3, b"\x01" * 32))  # never from a crash: rows were cut
    ahead.close()
    with AuditReader(tmp_path / "audit.db", state_dir=state) as reader:
        cut = reader.verify()
    assert not cut.ok and "END OF THE LOG IS MISSING" in cut.problem
    with pytest.raises(AuditError, match="lost its end"):
        _log(tmp_path)


def test_checkpoints_run_between_commits_not_inside_them_and_the_wal_restarts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit_writer, "_CHECKPOINT_EVERY", 4)
    log = _log(tmp_path)
    try:
        # read before the first write: the writer thread has nothing to do yet
        assert log._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        _notes(log, 4)  # four durable rows: four commits
        assert log._checkpointed.wait(60), "the writer never checkpointed"
        busy, frames, copied = log.last_checkpoint
        assert busy == 0 and frames > 0 and copied == frames  # complete: the next commit restarts the WAL
        wal = Path(f"{log.path}-wal")
        size = wal.stat().st_size
        _notes(log, 40)  # ten more checkpoints: the WAL is rewritten from its start, not appended to
        assert wal.stat().st_size < 2 * size
        # the rows it copied are in the database file itself: a copy without the WAL holds them
        alone = tmp_path / "without-wal.db"
        shutil.copyfile(log.path, alone)
        with sqlite3.connect(alone) as conn:
            assert conn.execute("SELECT count(*) FROM events WHERE kind = 'note'").fetchone()[0] >= 1
        assert log.checkpoints >= 1
    finally:
        log.close()


def test_a_batch_of_many_rows_goes_in_as_several_inserts_and_chains(tmp_path: Path) -> None:
    log = _log(tmp_path)
    held, batches = threading.Event(), []

    def on_commit(rows: list) -> None:
        batches.append([table for table, _ in rows])
        if len(batches) == 1:
            held.wait(60)  # keeps the writer here while the next rows queue up

    log.on_commit = on_commit
    try:
        first = threading.Thread(target=log.record_event, args=("note",), kwargs={"data": {"i": -1}})
        first.start()
        n = 3 * audit_writer._ROWS_PER_INSERT + 5
        while not batches:
            first.join(0.01)
        _notes(log, n, durable=False)
        held.set()
        first.join(60)
        log.flush()
        assert len(batches[1]) == n  # one batch: n rows in ceil(n / _ROWS_PER_INSERT) INSERTs
        with AuditReader(log.path, state_dir=tmp_path / "state") as reader:
            result = reader.verify()
            assert result.ok and result.rows == n + 1
            rows = reader.query(limit=1)
        assert rows == []  # notes are events, not decisions
        with sqlite3.connect(log.path) as conn:
            data = [r[0] for r in conn.execute("SELECT data FROM events WHERE kind = 'note' ORDER BY id")]
        assert data == ['{"i":-1}'] + [f'{{"i":{i}}}' for i in range(n)]
    finally:
        held.set()
        log.close()


def test_rows_nobody_waits_for_are_committed_when_the_log_closes(tmp_path: Path) -> None:
    log = _log(tmp_path)
    _notes(log, 5, durable=False)
    log.close()
    with sqlite3.connect(tmp_path / "audit.db") as conn:
        assert conn.execute("SELECT count(*) FROM events WHERE kind = 'note'").fetchone()[0] == 5
    with AuditReader(tmp_path / "audit.db", state_dir=tmp_path / "state") as reader:
        assert reader.verify().ok


def test_a_batch_is_committed_once_every_caller_it_waits_for_has_queued(tmp_path: Path) -> None:
    """Callers of the last commits are expected back: their rows go in one commit, whoever comes first."""
    log = _log(tmp_path)
    held, batches = threading.Event(), []

    def on_commit(rows: list) -> None:
        batches.append(len(rows))
        if len(batches) == 1:
            held.wait(60)  # keeps the writer here while every caller queues its row

    log.on_commit = on_commit
    callers = 6
    try:
        threads = [threading.Thread(target=log.record_event, args=("note",), kwargs={"data": {"k": k}})
                   for k in range(callers)]
        threads[0].start()
        while not batches:
            threads[0].join(0.01)
        for t in threads[1:]:
            t.start()
        while log._waiting < callers - 1:
            threads[1].join(0.01)
        held.set()
        for t in threads:
            t.join(60)
        log.flush()
        assert batches[:2] == [1, callers - 1]  # the first row alone, then all the others in one commit
    finally:
        held.set()
        log.close()


@pytest.mark.parametrize("reason", [
    "no rule objects",
    "typed into a password field: hunter2-is-not-a-secret",
    "curl -H 'Authorization: Bearer ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' https://x.test",
])
def test_an_outcome_is_stored_as_sanitize_data_makes_it(tmp_path: Path, reason: str) -> None:
    from gate.redact import canonical_json, sanitize_data

    log = _log(tmp_path)
    try:
        for _ in range(2):  # the second from the sanitised words kept for that reason
            log.record_outcome(7, verdict="executed", decided_by="policy", reason=reason, elapsed_ms=1.23456)
        expected = canonical_json(sanitize_data({"decided_by": "policy", "reason": reason, "elapsed_ms": 1.235},
                                                key=log._key))
        with sqlite3.connect(log.path) as conn:
            stored = [r[0] for r in conn.execute("SELECT data FROM events WHERE kind = 'outcome'")]
        assert stored == [expected, expected]
        if "ghp_" in reason:
            assert "ghp_" not in expected
    finally:
        log.close()


@pytest.mark.parametrize("values", [
    ("outcome", None, 12, "executed", '{"decided_by":"policy","reason":"r"}'),
    (1, "bench-0", "7", "act", "move", '{"type":"move","x":1,"y":2}', "move (1,2) · «Save» ünïcode \u2028",
     "allow", "no rule applies", "[]", "low", 0.25, "", "editor", "", "", "ab" * 32, 1),
    ("x",),
    (),
])
def test_a_row_encoded_by_its_caller_hashes_as_the_chain_defines_it(values: tuple) -> None:
    # the writer hashes the JSON the caller encoded (ts spliced in front): the bytes verify recomputes
    from app.audit.schema import encode_values, row_hash, row_hash_encoded

    prev = bytes(range(32))
    for ts in (1764100000.123456, 0.0, 1e-7, 17641000001234567.0):
        assert (row_hash_encoded(prev, "events", 41, 9, ts, encode_values(values))
                == row_hash(prev, "events", 41, 9, (ts, *values)))


def test_a_value_json_cannot_hold_fails_its_caller_only(tmp_path: Path) -> None:
    log = _log(tmp_path)
    try:
        with pytest.raises(AuditError, match="cannot record"):
            log.record_event("note", data={"text": "\ud800"})  # a lone surrogate: no JSON for it
        log.record_event("note", data={"text": "fine"})
        with AuditReader(log.path, state_dir=tmp_path / "state") as reader:
            result = reader.verify()
        assert result.ok and result.rows == 1
    finally:
        log.close()


@pytest.mark.parametrize("data", [
    {"ok": True},
    {"ok": 1},  # not the cached True
    {"ok": False, "pid": 4242, "code": None},
    {"api_token": 123456789, "ok": True},  # a secret-sounding name hides its value
    {"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB": 1},  # a name that is a secret
    {"ok": True, "x": 0.5},  # a float: the general path
    {"ok": True, "stderr_len": 3, "error": "exit 1"},
])
def test_an_event_is_stored_as_sanitize_data_makes_it(tmp_path: Path, data: dict) -> None:
    from gate.redact import canonical_json, sanitize_data

    log = _log(tmp_path)
    try:
        for _ in range(2):  # the second from the fields kept for that value
            log.record_event("note", data=data)
        expected = canonical_json(sanitize_data(data, key=log._key))
        with sqlite3.connect(log.path) as conn:
            stored = [r[0] for r in conn.execute("SELECT data FROM events WHERE kind = 'note'")]
        assert stored == [expected, expected]
        assert "ghp_" not in expected and "123456789" not in expected
    finally:
        log.close()


def test_the_callers_of_a_commit_are_all_woken_when_none_of_them_writes_again(tmp_path: Path) -> None:
    """The callers of one commit are woken one by one, each by the one before it as it blocks in the log
    again; these never come back, and the writer wakes the rest itself."""
    log = _log(tmp_path)
    held, batches = threading.Event(), []

    def on_commit(rows: list) -> None:
        batches.append(len(rows))
        if len(batches) == 1:
            held.wait(60)  # keeps the writer here while every caller queues its row

    log.on_commit = on_commit
    callers = 5
    ids: list[int | None] = [None] * callers

    def caller(k: int) -> None:
        ids[k] = log.record_event("note", data={"k": k})

    try:
        opener = threading.Thread(target=log.record_event, args=("note",))
        opener.start()
        while not batches:
            opener.join(0.01)
        threads = [threading.Thread(target=caller, args=(k,)) for k in range(callers)]
        for t in threads:
            t.start()
        while log._waiting < callers:
            threads[0].join(0.01)
        held.set()
        for t in threads:
            t.join(60)  # a guard against a hang, not a time limit
        assert not any(t.is_alive() for t in threads)
        assert sorted(ids) == list(range(2, callers + 2))  # each got its own row, all in one commit
        log.flush()
        assert batches[:2] == [1, callers]
        assert not log._relay
    finally:
        held.set()
        log.close()


def test_a_caller_returns_once_the_head_holds_its_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The head is written before the commit's callers are woken: a reader never finds it behind a row
    whose caller was told it is durable (it is still fsync'd later, within its interval)."""
    monkeypatch.setattr(audit_writer, "_HEAD_SYNC_S", 3600.0)
    log = _log(tmp_path)
    try:
        for i in range(5):
            row = log.record_event("note", data={"i": i})
            with sqlite3.connect(log.path) as conn:
                seq, digest = conn.execute("SELECT seq, hash FROM events WHERE id = ?", (row,)).fetchone()
            assert ChainHeadFile(log.head_file.path).read() == ChainHead(seq, digest)
    finally:
        log.close()


def test_an_install_key_digest_is_the_hmac_of_the_key(tmp_path: Path) -> None:
    """The approval key is stored as HMAC-SHA-256 under the install key, keyed once and copied per row."""
    import hmac

    log = _log(tmp_path)
    try:
        for message in (b"", b"abc", "ключ".encode()):
            assert log._keyed_digest(message) == hmac.digest(log._key, message, "sha256").hex()
    finally:
        log.close()
