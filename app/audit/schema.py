"""The audit database: its SQL (schema as numbered migrations, the statements the writer and the reader
run), the hash of one link, opening a connection, and checking / migrating a file's schema.

Every row of every table is one link of a single SHA-256 chain, ordered by `seq` (global across the
tables; within a table `seq` grows with `id`). `hash = sha256(prev_hash ‖ table ‖ seq ‖ content)`, where
content is the canonical JSON of the row's other columns in the order of `HASHED` below. Tables are
append-only: the only DELETE is retention (a prefix of the chain, anchored by a `retention` event), the
only UPDATE clears an old preview's PNG (its sha256 stays in the chain).

Timestamps are UTC seconds since the epoch (`ts`, REAL), non-decreasing along the chain, so a time range
is also an id range.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import msgspec

__all__ = ["DECISIONS", "HASHED", "MIGRATIONS", "SCHEMA_VERSION", "TABLES", "VERDICTS", "AuditError", "check_schema",
           "connect", "create_private", "encode_values", "hash_at", "insert_rows", "migrate", "row_hash",
           "row_hash_encoded"]

log = logging.getLogger("deskgate.audit")


class AuditError(Exception):
    """The audit log could not record (or read) something. Whatever depended on it must not run."""


VERDICTS = frozenset({"executed", "allowed", "approved", "denied", "deferred", "killed", "error"})
DECISIONS = ("allow", "confirm", "block")

TABLES = ("sessions", "decisions", "events", "previews")

# The columns each table's hash covers, in hashing order (everything but id/seq/prev_hash/hash, which
# enter the hash directly, and previews.png, which enters through png_sha256).
HASHED: dict[str, tuple[str, ...]] = {
    "sessions": ("ts", "agent", "pid", "uid", "expect"),
    "decisions": ("ts", "session_id", "agent", "request_id", "op", "type", "action", "summary", "decision",
                  "reason", "rules", "risk", "confidence", "window", "app", "url", "screen_hash",
                  "approval_key", "execute"),
    "events": ("ts", "kind", "session_id", "decision_id", "verdict", "data"),
    "previews": ("ts", "decision_id", "png_sha256", "png_len"),
}

_V1 = """
CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    seq         INTEGER NOT NULL,
    ts          REAL NOT NULL,
    agent       TEXT NOT NULL,
    pid         INTEGER,
    uid         INTEGER,
    expect      TEXT,                 -- JSON or NULL
    prev_hash   BLOB NOT NULL,
    hash        BLOB NOT NULL
);
CREATE TABLE decisions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    seq          INTEGER NOT NULL,
    ts           REAL NOT NULL,
    session_id   INTEGER,
    agent        TEXT NOT NULL,
    request_id   TEXT NOT NULL,
    op           TEXT NOT NULL,       -- act | plan | check | command
    type         TEXT NOT NULL,       -- action type
    action       TEXT NOT NULL,       -- sanitised action, canonical JSON
    summary      TEXT NOT NULL,       -- one line for people (sanitised)
    decision     TEXT NOT NULL,       -- allow | confirm | block (the gate's)
    reason       TEXT NOT NULL,
    rules        TEXT NOT NULL,       -- JSON list of rule ids
    risk         TEXT NOT NULL,
    confidence   REAL,
    window       TEXT NOT NULL,
    app          TEXT NOT NULL,
    url          TEXT NOT NULL,
    screen_hash  TEXT NOT NULL,
    approval_key TEXT NOT NULL,
    execute      INTEGER NOT NULL,
    prev_hash    BLOB NOT NULL,
    hash         BLOB NOT NULL
);
CREATE TABLE events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    seq         INTEGER NOT NULL,
    ts          REAL NOT NULL,
    kind        TEXT NOT NULL,
    session_id  INTEGER,
    decision_id INTEGER,
    verdict     TEXT,                 -- set on `outcome` events only: the final verdict
    data        TEXT,                 -- JSON (sanitised) or NULL
    prev_hash   BLOB NOT NULL,
    hash        BLOB NOT NULL
);
CREATE TABLE previews (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    seq         INTEGER NOT NULL,
    ts          REAL NOT NULL,
    decision_id INTEGER NOT NULL,
    png_sha256  TEXT NOT NULL,
    png_len     INTEGER NOT NULL,
    png         BLOB,                 -- NULL once preview retention has cleared it
    prev_hash   BLOB NOT NULL,
    hash        BLOB NOT NULL
);
CREATE INDEX events_decision ON events (decision_id) WHERE decision_id IS NOT NULL;
CREATE INDEX previews_decision ON previews (decision_id);
"""

# v2: what the audit viewer pages and filters on (1,000,000 decisions in well under 300 ms). Every index
# costs each durable write, so only these (session and event-kind filters scan, bounded by LIMIT).
_V2 = """
-- (ts, decision) covers the histogram
CREATE INDEX decisions_ts ON decisions (ts, decision);
CREATE INDEX decisions_decision ON decisions (decision, id);
CREATE INDEX decisions_agent ON decisions (agent, id);
CREATE INDEX events_verdict ON events (verdict, decision_id) WHERE verdict IS NOT NULL;
CREATE INDEX events_retention ON events (id) WHERE kind = 'retention';
"""

# (version, what it does, script). A file at version N gets every script after N, in order, in one
# transaction, after a backup. Never edit a released entry: add the next number.
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "tables: sessions, decisions, events, previews", _V1),
    (2, "indexes for the audit viewer (time, decision, agent, verdict) and the retention anchor", _V2),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]

GENESIS = b"\x00" * 32

INSERT = {
    table: "INSERT INTO {t} (id, seq, {cols}{extra}, prev_hash, hash) VALUES (?, ?, {marks}{extra_marks}, ?, ?)"
    .format(t=table, cols=", ".join(cols), marks=", ".join("?" * len(cols)),
            extra=", png" if table == "previews" else "", extra_marks=", ?" if table == "previews" else "")
    for table, cols in HASHED.items()
}


@functools.lru_cache(maxsize=512)
def insert_rows(table: str, n: int) -> str:
    """One INSERT of `n` rows of `table` (parameters: each row's, in INSERT's order, one row after another)."""
    columns, one_row = INSERT[table].split(" VALUES ")
    return f"{columns} VALUES {', '.join([one_row] * n)}"


# The chain, table by table in id order (seq grows with id): verify merges these by seq.
CHAIN_ROWS = {
    table: "SELECT id, seq, {cols}, prev_hash, hash{extra} FROM {t} ORDER BY id".format(
        t=table, cols=", ".join(cols), extra=", png" if table == "previews" else "")
    for table, cols in HASHED.items()
}

LAST_LINK = {t: f"SELECT seq, hash FROM {t} ORDER BY id DESC LIMIT 1" for t in TABLES}
NEXT_ID = "SELECT seq FROM sqlite_sequence WHERE name = ?"

# Retention: the first row (in id order) at or after a point in time / a chain position.
# decisions walks its ts index; the other tables walk their ids from the oldest (ts grows with id), which
# costs only the rows about to be pruned.
FIRST_SINCE = {t: f"SELECT id, seq FROM {t} WHERE ts >= ? ORDER BY {'ts, id' if t == 'decisions' else 'id'} LIMIT 1"
               for t in TABLES}
FIRST_SEQ_FROM = {t: f"SELECT id FROM {t} WHERE seq >= ? ORDER BY id LIMIT 1" for t in TABLES}
LAST_BEFORE_ID = {t: f"SELECT seq, hash FROM {t} WHERE id < ? ORDER BY id DESC LIMIT 1" for t in TABLES}
DELETE_BEFORE_ID = {t: f"DELETE FROM {t} WHERE id < ?" for t in TABLES}
COUNT_ALL = {t: f"SELECT count(*) FROM {t}" for t in TABLES}
LAST_RETENTION = "SELECT data FROM events WHERE kind = 'retention' ORDER BY id DESC LIMIT 1"
CLEAR_PREVIEWS = "UPDATE previews SET png = NULL WHERE ts < ? AND png IS NOT NULL"

DECISION_COLUMNS = ("d.id, d.seq, d.ts, d.session_id, d.agent, d.request_id, d.op, d.type, d.summary, "
                    "d.decision, d.reason, d.rules, d.risk, d.confidence, d.window, d.app, d.url, "
                    "d.approval_key, d.execute")
OUTCOMES_FOR = ("SELECT decision_id, verdict, data, ts FROM events "
                "WHERE kind = 'outcome' AND decision_id IN ({marks}) ORDER BY id")
DECISION_FULL = "SELECT * FROM decisions WHERE id = ?"
EVENTS_FOR = "SELECT * FROM events WHERE decision_id = ? ORDER BY id"
PREVIEW_FOR = "SELECT id, ts, png_sha256, png_len, png FROM previews WHERE decision_id = ? ORDER BY id DESC LIMIT 1"
FIRST_ID_SINCE = "SELECT id FROM decisions WHERE ts >= ? ORDER BY ts, id LIMIT 1"
LAST_ID_BEFORE = "SELECT id FROM decisions WHERE ts < ? ORDER BY ts DESC, id DESC LIMIT 1"

# -- hashing -----------------------------------------------------------------------------------------


def row_hash(prev: bytes, table: str, seq: int, row_id: int, values: tuple[Any, ...]) -> bytes:
    """sha256(prev_hash ‖ table ‖ seq ‖ id ‖ JSON array of the hashed columns). Values are str, int,
    finite float or None, exactly as SQLite gives them back, so verify recomputes the same bytes."""
    h = hashlib.sha256(prev)
    h.update(f"\n{table}\n{seq}\n{row_id}\n".encode())
    h.update(msgspec.json.encode(values))
    return h.digest()


_encode = msgspec.json.Encoder().encode


def encode_values(values: tuple[Any, ...]) -> bytes:
    """The JSON array of a row's hashed columns after `ts` (what `row_hash_encoded` takes). Raises
    TypeError / msgspec.EncodeError for a value JSON cannot hold."""
    return _encode(values)


def row_hash_encoded(prev: bytes, table: str, seq: int, row_id: int, ts: float, encoded: bytes) -> bytes:
    """`row_hash(prev, table, seq, row_id, (ts, *values))` from `encode_values(values)`: the same bytes
    (a JSON array is its items joined by commas), so the writer hashes what callers encoded beforehand."""
    h = hashlib.sha256(prev)
    h.update(f"\n{table}\n{seq}\n{row_id}\n".encode())
    h.update(b"[" + _encode(ts) + (b"," + encoded[1:] if len(encoded) > 2 else b"]"))
    return h.digest()



def hash_at(conn: sqlite3.Connection, seq: int, *, window: int = 4096) -> bytes | None:
    """The hash of chain position `seq`, looked for among the last `window` rows of each table (the
    head is at, or a few commits behind, the end); None when it is not there."""
    for table in TABLES:
        for row_seq, row_hash in conn.execute(f"SELECT seq, hash FROM {table} ORDER BY id DESC LIMIT ?", (window,)):
            if row_seq == seq:
                return row_hash
            if row_seq < seq:
                break
    return None



# -- connections and migrations ----------------------------------------------------------------------


def connect(path: Path, busy_timeout_s: float) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                           timeout=busy_timeout_s)
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
    return conn


def create_private(path: Path) -> None:
    """The directory 0700 and the file 0600 before SQLite opens it (its -wal/-shm copy the file's mode).

    os.open with an explicit mode instead of os.umask: umask is process-wide and other threads create
    files too.
    """
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=0o700)
    fd = os.open(path, os.O_CREAT | os.O_RDWR | getattr(os, "O_CLOEXEC", 0), 0o600)
    os.close(fd)


def _user_tables(conn: sqlite3.Connection) -> list[str]:
    import sqlite_utils

    return [t for t in sqlite_utils.Database(conn).table_names() if not t.startswith("sqlite_")]


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";\n") if s.strip()]


def _backup(conn: sqlite3.Connection, path: Path, version: int) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.v{version}-{stamp}.bak")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.v{version}-{stamp}-{n}.bak")
    fd = os.open(target, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
    os.close(fd)
    dest = sqlite3.connect(str(target))
    try:
        conn.backup(dest)
    finally:
        dest.close()
    return target


def check_schema(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version; AuditError for a newer schema or a database that is not ours."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise AuditError(f"{path} has audit schema v{version}, newer than this deskgate (v{SCHEMA_VERSION})")
    if version == 0 and _user_tables(conn):
        raise AuditError(f"{path} is not a deskgate audit log (it has tables but no schema version)")
    return version


def migrate(conn: sqlite3.Connection, path: Path, *, upto: int = SCHEMA_VERSION) -> Path | None:
    """Bring the file to schema `upto`. A file that already holds data is backed up first.

    Returns the backup's path (None when there was nothing to back up or nothing to do).
    """
    version = check_schema(conn, path)
    if version >= upto:
        return None
    backup = _backup(conn, path, version) if version > 0 else None
    conn.execute("BEGIN IMMEDIATE")
    try:
        for number, _what, script in MIGRATIONS:
            if version < number <= upto:
                for statement in _split(script):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    if backup:
        log.info("audit log %s migrated from v%d to v%d; backup at %s", path, version, upto, backup)
    return backup

