"""The audit log: every decision, answer and outcome, durable before anything runs, in one SQLite file.

    log = AuditLog(paths.db)                       # 0600 file, WAL, synchronous=FULL, migrated
    sid = log.open_session("my-agent", pid=1, uid=1000, expect=None)
    did = log.record_decision(session_id=sid, ..., execute=True)   # committed (fsync'd) when it returns
    log.record_outcome(did, verdict="executed", decided_by="policy", reason="...", elapsed_ms=3.1)
    log.query(decision="block", limit=50)          # newest first; page on with before_id
    log.verify()                                   # the SHA-256 chain over every row of every table

Writes go through one writer thread that owns the write connection and commits in groups: it takes
everything queued, appends each row to the hash chain, commits once (one fsync), then wakes every
caller whose row that transaction held. A caller returns only once its row is durable; a failed commit
raises AuditError in every caller of that transaction, and the caller (the supervisor) does not act.
Reads use their own connection, so the viewer never waits for the writer.

What is stored is sanitised (gate.redact): secrets reach the file only as a keyed fingerprint
(HMAC-SHA-256 under a per-install key kept 0600 in the state dir) + length; command output and file
contents stay out unless the policy's `[audit] store_outputs` asks for them.

The log cannot vanish unnoticed: before each group commit the writer checks that the database (and its
WAL, and the chain head file) are still the files it opened (device + inode); if one was deleted or
replaced it stops for good (every caller gets AuditError, so nothing runs) and raises an alarm. After
each commit it records the chain's head (last position + hash, fsync'd) outside the database
(app/audit_anchor.py), and `verify` compares the database with it, so a cut tail is caught.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import datetime as dt
import functools
import hashlib
import heapq
import hmac
import json
import logging
import math
import os
import queue
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import msgspec

from app import audit_sql as sql
from app.audit_anchor import ChainHead, ChainHeadFile, default_state_dir, head_path, install_key
from gate.redact import canonical_json, redact_text, sanitize_action, sanitize_data

__all__ = ["EXPORT_COLUMNS", "VERDICTS", "AuditError", "AuditLog", "AuditReader", "VerifyResult", "iso", "parse_time"]

log = logging.getLogger("deskgate.audit")

VERDICTS = frozenset({"executed", "allowed", "approved", "denied", "deferred", "killed", "error"})
_DECISIONS = ("allow", "confirm", "block")
_RESERVED_KINDS = frozenset({"retention", "preview_retention"})  # written by the log itself only
_MAX_BATCH = 1024
_MAINTAIN_EVERY_S = 3600.0
_PAGE_MAX = 10_000
# One exported decision, in this order (JSON lines and CSV alike).
EXPORT_COLUMNS = ("id", "at", "ts", "agent", "session_id", "request_id", "op", "type", "decision", "verdict",
                  "decided_by", "risk", "rules", "reason", "summary", "action", "window", "app", "url",
                  "screen_hash", "approval_key", "execute", "confidence", "elapsed_ms", "outcome_reason")
_HIDDEN_MAX = 4096  # decisions whose redacted values are remembered to scrub their later events
_LINGER_S = 0.0005  # longest the writer waits for rows other callers are about to queue


class AuditError(Exception):
    """The audit log could not record (or read) something. Whatever depended on it must not run."""


@dataclasses.dataclass(frozen=True)
class VerifyResult:
    ok: bool
    rows: int
    problem: str | None = None
    head_seq: int = 0         # the last chain position found in the database
    head_hash: bytes = b""    # its hash
    note: str | None = None   # something a person should know even when ok


# -- time ------------------------------------------------------------------------------------------


def iso(ts: float | None) -> str | None:
    """UTC ISO 8601 with milliseconds and a Z."""
    if ts is None:
        return None
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_time(value: Any) -> float | None:
    """Epoch seconds from a number, a datetime or an ISO 8601 string (naive means UTC)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a time: {value!r}")
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            moment = dt.datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(f"not an ISO 8601 time: {value!r}") from None
    else:
        raise ValueError(f"not a time: {value!r}")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()


# -- hashing -----------------------------------------------------------------------------------------


def _row_hash(prev: bytes, table: str, seq: int, row_id: int, values: tuple[Any, ...]) -> bytes:
    """sha256(prev_hash ‖ table ‖ seq ‖ id ‖ JSON array of the hashed columns). Values are str, int,
    finite float or None, exactly as SQLite gives them back, so verify recomputes the same bytes."""
    h = hashlib.sha256(prev)
    h.update(f"\n{table}\n{seq}\n{row_id}\n".encode())
    h.update(msgspec.json.encode(values))
    return h.digest()


# -- connections -------------------------------------------------------------------------------------


def _connect(path: Path, busy_timeout_s: float) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                           timeout=busy_timeout_s)
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
    return conn


def _create_private(path: Path) -> None:
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
    if version > sql.SCHEMA_VERSION:
        raise AuditError(f"{path} has audit schema v{version}, newer than this deskgate (v{sql.SCHEMA_VERSION})")
    if version == 0 and _user_tables(conn):
        raise AuditError(f"{path} is not a deskgate audit log (it has tables but no schema version)")
    return version


def migrate(conn: sqlite3.Connection, path: Path, *, upto: int = sql.SCHEMA_VERSION) -> Path | None:
    """Bring the file to schema `upto`. A file that already holds data is backed up first.

    Returns the backup's path (None when there was nothing to back up or nothing to do).
    """
    version = check_schema(conn, path)
    if version >= upto:
        return None
    backup = _backup(conn, path, version) if version > 0 else None
    conn.execute("BEGIN IMMEDIATE")
    try:
        for number, _what, script in sql.MIGRATIONS:
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


# -- rows for people ---------------------------------------------------------------------------------


def _short(value: Any, limit: int = 80) -> str:
    if isinstance(value, Mapping) and value.get("redacted"):
        return f"«redacted len:{value.get('len')}»"
    text = value if isinstance(value, str) else canonical_json(value)
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summarize(action: Mapping[str, Any]) -> str:
    """One line a person can scan in a list (from the sanitised action): gate/describe.py's "line"."""
    from gate.describe import describe_action

    return describe_action(action, style="line", limit=240, detect_secrets=False)


def _hide_values(text: str, secrets: list[str] | tuple[str, ...], key: bytes | None) -> str:
    for secret in secrets:
        if secret and len(secret) >= 3:
            text = text.replace(secret, "«redacted»")
    return redact_text(text, key=key)


def _hidden_values(action: Mapping[str, Any], redact: frozenset[str]) -> list[str]:
    """The plain values an action's redaction hides: they must not come back through reasons or output."""
    hidden = [v for k, v in action.items() if k in redact and isinstance(v, str)]
    if action.get("type") == "file_write" and isinstance(action.get("content"), str):
        hidden.append(action["content"])
    env = action.get("env")
    if action.get("type") == "shell" and isinstance(env, Mapping):
        hidden += [v for v in env.values() if isinstance(v, str)]
    return sorted((h for h in hidden if len(h) >= 3), key=len, reverse=True)


def _replace_strings(value: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, "«redacted»")
        return value
    if isinstance(value, Mapping):
        return {k: _replace_strings(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_replace_strings(v, secrets) for v in value]
    return value


# -- the writer ----------------------------------------------------------------------------------------


class _Job:
    __slots__ = ("done", "error", "kind", "png", "result", "table", "thread", "values")

    def __init__(self, kind: str, table: str = "", values: tuple[Any, ...] = (), png: bytes | None = None):
        self.kind = kind          # "row" | "retention" | "previews" | "barrier"
        self.table = table
        self.values = values      # the hashed columns after ts, in audit_sql.HASHED order
        self.png = png
        self.result: Any = None
        self.error: AuditError | None = None
        self.done = threading.Event()
        self.thread = threading.get_ident()  # distinct callers per batch: how many will likely come back


_STOP = object()


@dataclasses.dataclass
class _Head:
    seq: int            # last chain position written
    hash: bytes         # its hash
    ts: float           # its timestamp (the chain's clock never goes back)
    next_id: dict[str, int]
    data_version: int
    # rows chained but not yet inserted, per table: one executemany each per batch
    pending: dict[str, list[tuple[Any, ...]]] = dataclasses.field(default_factory=dict)
    inserted: list[tuple[str, tuple[Any, ...]]] = dataclasses.field(default_factory=list)  # for on_commit

    def flush(self, conn: sqlite3.Connection) -> None:
        for table, rows in self.pending.items():
            if rows:
                conn.executemany(sql.INSERT[table], rows)
                self.inserted.extend((table, r) for r in rows)
        self.pending = {}


class AuditReader:
    """Read-only access: query, count, get, histogram, stats, export, verify. Never writes the file."""

    def __init__(self, path: Path | str, *, busy_timeout_s: float = 5.0, state_dir: Path | str | None = None
                 ) -> None:
        self.path = Path(path)
        self._busy_timeout_s = busy_timeout_s
        self._read_lock = threading.Lock()
        self._reader: sqlite3.Connection | None = None
        self.head_file = ChainHeadFile(head_path(Path(state_dir) if state_dir else default_state_dir(), self.path))
        if not self.path.exists():
            raise AuditError(f"no audit log at {self.path}")
        self._open_reader()

    def _open_reader(self) -> None:
        try:
            conn = _connect(self.path, self._busy_timeout_s)
            conn.execute("PRAGMA query_only = 1")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as err:
            raise AuditError(f"cannot read the audit log {self.path}: {err}") from err
        if version == 0 or version > sql.SCHEMA_VERSION:
            conn.close()
            raise AuditError(f"{self.path} is not a deskgate audit log this version can read (schema v{version})")
        self.schema_version = version
        self._reader = conn

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        if self._reader is None:
            raise AuditError("audit log is closed")
        with self._read_lock:
            try:
                yield self._reader
            except sqlite3.Error as err:
                raise AuditError(f"audit log read failed: {err}") from err

    def close(self) -> None:
        with self._read_lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None

    def __enter__(self) -> AuditReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- filters ---------------------------------------------------------------------------------

    def _filters(self, conn: sqlite3.Connection, *, decision: str | None = None, verdict: str | None = None,
                 agent: str | None = None, since: Any = None, until: Any = None, text: str | None = None,
                 session_id: int | None = None, before_id: int | None = None, after_id: int | None = None
                 ) -> tuple[str, str, list[Any]] | None:
        """(FROM clause, WHERE clause, params) over alias `d`; None when nothing can match.

        A time range becomes an id range first (ts grows with id), so every filter pages by id.
        """
        where: list[str] = []
        params: list[Any] = []
        since_ts, until_ts = parse_time(since), parse_time(until)
        if since_ts is not None:
            row = conn.execute(sql.FIRST_ID_SINCE, (since_ts,)).fetchone()
            if row is None:
                return None
            where.append("d.id >= ?")
            params.append(row[0])
        if until_ts is not None:
            row = conn.execute(sql.LAST_ID_BEFORE, (until_ts,)).fetchone()
            if row is None:
                return None
            where.append("d.id <= ?")
            params.append(row[0])
        if before_id is not None:
            where.append("d.id < ?")
            params.append(int(before_id))
        if after_id is not None:
            where.append("d.id > ?")
            params.append(int(after_id))
        if decision is not None:
            where.append("d.decision = ?")
            params.append(str(decision))
        if agent is not None:
            where.append("d.agent = ?")
            params.append(str(agent))
        if session_id is not None:
            where.append("d.session_id = ?")
            params.append(int(session_id))
        if text:
            pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            where.append("(d.summary LIKE ? ESCAPE '\\' OR d.reason LIKE ? ESCAPE '\\')")
            params += [pattern, pattern]
        source = "decisions d"
        if verdict is not None:
            # the verdict lives on the decision's `outcome` event (append-only), indexed by (verdict, decision_id)
            source = "events e JOIN decisions d ON d.id = e.decision_id"
            where.insert(0, "e.verdict = ?")
            params.insert(0, str(verdict))
            for i, clause in enumerate(where):
                where[i] = clause.replace("d.id ", "e.decision_id ")
        return source, (" WHERE " + " AND ".join(where)) if where else "", params

    def _page(self, conn: sqlite3.Connection, *, limit: int, ascending: bool = False, full: bool = False,
              **filters: Any) -> list[dict[str, Any]]:
        built = self._filters(conn, **filters)
        if built is None:
            return []
        source, where, params = built
        order_col = "e.decision_id" if filters.get("verdict") is not None else "d.id"
        cols = sql.DECISION_COLUMNS + (", d.action, d.screen_hash" if full else "")
        statement = (f"SELECT {cols} FROM {source}{where} ORDER BY {order_col} "
                     f"{'ASC' if ascending else 'DESC'} LIMIT ?")
        cur = conn.execute(statement, [*params, max(0, min(int(limit), _PAGE_MAX))])
        names = [c[0] for c in cur.description]
        rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
        if not rows:
            return rows
        by_id = {r["id"]: r for r in rows}
        ids = list(by_id)
        outcomes = conn.execute(sql.OUTCOMES_FOR.format(marks=",".join("?" * len(ids))), ids).fetchall()
        for r in rows:
            r.update(verdict=None, decided_by=None, elapsed_ms=None, outcome_reason=None)
        for decision_id, verdict, data, _ts in outcomes:  # in id order: the last outcome wins
            extra = json.loads(data) if data else {}
            by_id[decision_id].update(verdict=verdict, decided_by=extra.get("decided_by"),
                                      elapsed_ms=extra.get("elapsed_ms"), outcome_reason=extra.get("reason"))
        for r in rows:
            r.pop("seq", None)
            r["at"] = iso(r["ts"])
            r["rules"] = json.loads(r["rules"])
            r["execute"] = bool(r["execute"])
            if full:
                r["action"] = json.loads(r["action"])
        return rows

    def query(self, *, decision: str | None = None, verdict: str | None = None, agent: str | None = None,
              since: Any = None, until: Any = None, text: str | None = None, session_id: int | None = None,
              before_id: int | None = None, after_id: int | None = None, limit: int = 100,
              oldest_first: bool = False) -> list[dict[str, Any]]:
        """Decisions, newest first, at most `limit`; the next page is `before_id=<last row's id>`.

        (`oldest_first` with `after_id` reads forward instead, as `log tail --follow` does.)
        """
        with self._read() as conn:
            return self._page(conn, limit=limit, ascending=oldest_first, decision=decision, verdict=verdict,
                              agent=agent, since=since, until=until, text=text, session_id=session_id,
                              before_id=before_id, after_id=after_id)

    def count(self, **filters: Any) -> int:
        filters.pop("limit", None)
        with self._read() as conn:
            built = self._filters(conn, **filters)
            if built is None:
                return 0
            source, where, params = built
            if filters.get("verdict") is not None and "d." not in where:
                source = "events e"  # only the verdict and an id range: the events index alone answers
            return conn.execute(f"SELECT count(*) FROM {source}{where}", params).fetchone()[0]

    def histogram(self, *, bucket_s: int, since: Any = None, until: Any = None, **filters: Any
                  ) -> list[tuple[float, str, int]]:
        """(bucket start ts, gate decision, count) for charts, oldest bucket first."""
        if bucket_s <= 0:
            raise ValueError("bucket_s must be positive")
        filters.pop("limit", None)
        with self._read() as conn:
            if set(filters) <= {"decision"}:
                fast = self._histogram_by_ids(conn, bucket_s, parse_time(since), parse_time(until),
                                              filters.get("decision"))
                if fast is not None:
                    return fast
            built = self._filters(conn, since=since, until=until, **filters)
            if built is None:
                return []
            source, where_sql, params = built
            rows = conn.execute(
                f"SELECT CAST(d.ts / ? AS INTEGER) AS b, d.decision, count(*) FROM {source}{where_sql} "
                "GROUP BY b, d.decision ORDER BY b, d.decision", [bucket_s, *params]).fetchall()
        return [(float(b * bucket_s), decision, n) for b, decision, n in rows]

    def _histogram_by_ids(self, conn: sqlite3.Connection, bucket_s: int, since: float | None,
                          until: float | None, decision: str | None) -> list[tuple[float, str, int]] | None:
        """Bucket edges → id edges (ts grows with id: one index probe each), then one index range count
        per bucket and decision: no per-row arithmetic, no GROUP BY b-tree. None when there are too
        many buckets for that to pay (the caller then groups in SQL)."""
        first = conn.execute("SELECT ts FROM decisions ORDER BY id LIMIT 1").fetchone()
        last = conn.execute("SELECT ts, id FROM decisions ORDER BY id DESC LIMIT 1").fetchone()
        if first is None:
            return []
        lo = max(since, first[0]) if since is not None else first[0]
        hi = min(until, last[0] + 1e-6) if until is not None else last[0] + 1e-6
        if hi <= lo:
            return []
        start = (lo // bucket_s) * bucket_s
        if (hi - start) / bucket_s > 2000:
            return None
        edges = [lo]
        edge = start + bucket_s
        while edge < hi:
            edges.append(edge)
            edge += bucket_s
        edges.append(hi)
        end_id = last[1] + 1

        def id_at(ts: float) -> int:
            row = conn.execute(sql.FIRST_ID_SINCE, (ts,)).fetchone()
            return row[0] if row is not None else end_id

        ids = [id_at(t) for t in edges]
        kinds = (decision,) if decision is not None else sorted(_DECISIONS)  # as ORDER BY b, decision
        out = []
        for i in range(len(edges) - 1):
            if ids[i] >= ids[i + 1]:
                continue
            bucket = float((edges[i] // bucket_s) * bucket_s)
            for kind in kinds:
                n = conn.execute("SELECT count(*) FROM decisions WHERE decision = ? AND id >= ? AND id < ?",
                                 (kind, ids[i], ids[i + 1])).fetchone()[0]
                if n:
                    out.append((bucket, kind, n))
        return out

    def get(self, decision_id: int) -> dict[str, Any] | None:
        """One decision with its action, every event about it and its latest preview."""
        with self._read() as conn:
            conn.execute("BEGIN")
            try:
                cur = conn.execute(sql.DECISION_FULL, (int(decision_id),))
                row = cur.fetchone()
                if row is None:
                    return None
                names = [c[0] for c in cur.description]
                out = dict(zip(names, row, strict=True))
                cur = conn.execute(sql.EVENTS_FOR, (int(decision_id),))
                enames = [c[0] for c in cur.description]
                events = [dict(zip(enames, e, strict=True)) for e in cur.fetchall()]
                preview = conn.execute(sql.PREVIEW_FOR, (int(decision_id),)).fetchone()
            finally:
                conn.execute("COMMIT")
        out["at"] = iso(out["ts"])
        out["action"] = json.loads(out["action"])
        out["rules"] = json.loads(out["rules"])
        out["execute"] = bool(out["execute"])
        out["prev_hash"], out["hash"] = out["prev_hash"].hex(), out["hash"].hex()
        for e in events:
            e["at"] = iso(e["ts"])
            e["data"] = json.loads(e["data"]) if e["data"] else None
            e["prev_hash"], e["hash"] = e["prev_hash"].hex(), e["hash"].hex()
        out["events"] = events
        outcomes = [e for e in events if e["kind"] == "outcome"]
        out["verdict"] = outcomes[-1]["verdict"] if outcomes else None
        out["preview"] = None if preview is None else {
            "id": preview[0], "at": iso(preview[1]), "sha256": preview[2], "len": preview[3], "png": preview[4]}
        return out

    def sessions(self, *, limit: int = 100, before_id: int | None = None) -> list[dict[str, Any]]:
        with self._read() as conn:
            cur = conn.execute(
                "SELECT id, ts, agent, pid, uid, expect FROM sessions"
                + (" WHERE id < ?" if before_id is not None else "") + " ORDER BY id DESC LIMIT ?",
                ([int(before_id)] if before_id is not None else []) + [int(limit)])
            names = [c[0] for c in cur.description]
            rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
        for r in rows:
            r["at"] = iso(r["ts"])
            r["expect"] = json.loads(r["expect"]) if r["expect"] else None
        return rows

    def stats(self) -> dict[str, Any]:
        with self._read() as conn:
            conn.execute("BEGIN")
            try:
                counts = {t: conn.execute(sql.COUNT_ALL[t]).fetchone()[0] for t in sql.TABLES}
                # one index range count per known value beats GROUP BY's b-tree on a million rows
                by_decision = {d: n for d in _DECISIONS if (n := conn.execute(
                    "SELECT count(*) FROM decisions WHERE decision = ?", (d,)).fetchone()[0])}
                by_verdict = {v: n for v in sorted(VERDICTS) if (n := conn.execute(
                    "SELECT count(*) FROM events WHERE verdict = ?", (v,)).fetchone()[0])}
                first = conn.execute("SELECT ts FROM decisions ORDER BY id LIMIT 1").fetchone()
                last = conn.execute("SELECT ts FROM decisions ORDER BY id DESC LIMIT 1").fetchone()
                kept = conn.execute("SELECT count(*) FROM previews WHERE png IS NOT NULL").fetchone()[0]
                anchor = conn.execute(sql.LAST_RETENTION).fetchone()
            finally:
                conn.execute("COMMIT")
        size = sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal")) if p.exists())
        return {
            "path": str(self.path),
            "schema_version": self.schema_version,
            "size_bytes": size,
            **counts,
            "previews_with_image": kept,
            "by_decision": by_decision,
            "by_verdict": by_verdict,
            "first_at": iso(first[0]) if first else None,
            "last_at": iso(last[0]) if last else None,
            "pruned_before": json.loads(anchor[0]).get("cutoff_at") if anchor else None,
        }

    def export(self, fh: IO[str], fmt: str = "jsonl", **filters: Any) -> int:
        """Write the matching decisions (oldest first, with verdicts) as JSON lines or CSV. Returns the count."""
        if fmt not in ("jsonl", "csv"):
            raise ValueError("format is jsonl or csv")
        filters.pop("limit", None)
        filters.pop("after_id", None)
        writer = None
        n = 0
        after: int | None = None
        while True:
            with self._read() as conn:
                rows = self._page(conn, limit=1000, ascending=True, full=True, after_id=after, **filters)
            if not rows:
                return n
            for r in rows:
                r = {k: r.get(k) for k in EXPORT_COLUMNS}
                if fmt == "jsonl":
                    fh.write(json.dumps(r, ensure_ascii=False) + "\n")
                else:
                    if writer is None:
                        writer = csv.DictWriter(fh, fieldnames=EXPORT_COLUMNS)
                        writer.writeheader()
                    writer.writerow({k: (canonical_json(v) if isinstance(v, list | dict) else v)
                                     for k, v in r.items()})
                n += 1
            after = rows[-1]["id"]

    # -- the chain -----------------------------------------------------------------------------------

    def verify(self, *, check_head: bool = True) -> VerifyResult:
        """Recompute the whole chain. Names the first row that was edited, inserted or deleted; with
        `check_head`, also compares its end with the head kept outside the database (a cut tail)."""
        with self._read() as conn:
            conn.execute("BEGIN")
            try:
                result = self._verify(conn)
                if not result.ok or not check_head:
                    return result
                return self._verify_head(conn, result)
            finally:
                conn.execute("COMMIT")

    def _verify_head(self, conn: sqlite3.Connection, result: VerifyResult) -> VerifyResult:
        where = self.head_file.path
        try:
            stored = self.head_file.read()
        except (OSError, ValueError) as err:
            return dataclasses.replace(result, ok=False, problem=f"the chain head {where} cannot be read ({err}): "
                                       "whether rows were cut from the end of the log cannot be checked")
        if stored is None:
            return dataclasses.replace(result, ok=False, problem=(
                f"no chain head at {where}: whether rows were cut from the end of the log cannot be checked "
                "(it is written by the deskgate that writes this log; check the chain alone with --without-head)"))
        if result.head_seq < stored.seq:
            gone = f"{result.head_seq + 1}..{stored.seq}"
            return dataclasses.replace(result, ok=False, problem=(
                f"THE END OF THE LOG IS MISSING: it ends at chain position {result.head_seq} ({result.rows} rows) "
                f"but {stored.seq} were written (chain head {where}); positions {gone} are gone — rows were "
                "deleted from the end, or the file or its WAL was truncated or replaced"))
        found = _hash_at(conn, stored.seq) if stored.seq else sql.GENESIS
        if found != stored.hash:
            return dataclasses.replace(result, ok=False, problem=(
                f"chain position {stored.seq} does not match the chain head {where}: the end of the log was "
                "rewritten or the log was replaced"))
        if result.head_seq > stored.seq:
            return dataclasses.replace(result, note=(
                f"{result.head_seq - stored.seq} row(s) after the recorded chain head (deskgate stopped between "
                "a commit and recording its head)"))
        return result

    def _verify(self, conn: sqlite3.Connection) -> VerifyResult:
        anchor = conn.execute(sql.LAST_RETENTION).fetchone()
        expected, prev = 1, sql.GENESIS
        if anchor is not None:
            data = json.loads(anchor[0])
            expected, prev = int(data["anchor_seq"]) + 1, bytes.fromhex(data["anchor_hash"])

        def stream(table: str) -> Iterator[tuple[int, str, tuple[Any, ...]]]:
            for row in conn.execute(sql.CHAIN_ROWS[table]):
                yield row[1], table, row

        rows = 0
        before = "the start of the log" if anchor is None else "the retention anchor"
        for seq, table, row in heapq.merge(*(stream(t) for t in sql.TABLES), key=lambda x: x[0]):
            width = len(sql.HASHED[table])
            row_id, values = row[0], tuple(row[2: 2 + width])
            prev_hash, stored = row[2 + width], row[3 + width]
            here = f"{table} id {row_id} (chain position {seq})"
            if seq > expected:
                return VerifyResult(False, rows, f"{here}: chain positions {expected}..{seq - 1} are missing "
                                                 f"(rows deleted after {before})")
            if seq < expected:
                return VerifyResult(False, rows, f"{here}: chain position repeats or goes back (row inserted)")
            if prev_hash != prev:
                return VerifyResult(False, rows, f"{here}: does not link to {before} "
                                                 "(that row was edited, or rows were deleted or inserted)")
            if _row_hash(prev, table, seq, row_id, values) != stored:
                return VerifyResult(False, rows, f"{here}: its contents do not match its hash (row edited)")
            if table == "previews":
                png = row[4 + width]
                if png is not None and (hashlib.sha256(png).hexdigest() != values[2] or len(png) != values[3]):
                    return VerifyResult(False, rows, f"{here}: the image does not match its sha256 (edited)")
            prev, expected, rows = stored, expected + 1, rows + 1
            before = f"{table} id {row_id}"
        return VerifyResult(True, rows, None, head_seq=expected - 1, head_hash=prev)


def _hash_at(conn: sqlite3.Connection, seq: int, *, window: int = 4096) -> bytes | None:
    """The hash of chain position `seq`, looked for among the last `window` rows of each table (the
    head is at, or a few commits behind, the end); None when it is not there."""
    for table in sql.TABLES:
        for row_seq, row_hash in conn.execute(f"SELECT seq, hash FROM {table} ORDER BY id DESC LIMIT ?", (window,)):
            if row_seq == seq:
                return row_hash
            if row_seq < seq:
                break
    return None


_OUTPUT_KEYS = frozenset({"stdout", "stderr", "content", "content_base64", "png", "png_base64", "image"})


def _without_outputs(data: Mapping[str, Any]) -> dict[str, Any]:
    """An execution result without what the action produced (command output, file contents, images):
    kept out of the log unless `[audit] store_outputs`; their sizes stay."""
    out = {}
    for key, value in data.items():
        if key in _OUTPUT_KEYS:
            out[f"{key}_len"] = len(value) if isinstance(value, str | bytes) else None
        else:
            out[key] = value
    return out


def _counted(method: Callable[..., Any]) -> Callable[..., Any]:
    """A public write: the caller counts as building a row until it is queued."""

    @functools.wraps(method)
    def wrapper(self: AuditLog, *args: Any, **kwargs: Any) -> Any:
        with self._preparing_row():
            return method(self, *args, **kwargs)

    return wrapper


class AuditLog(AuditReader):
    """The writing side (see the module doc). One per process; other processes may read, or prune."""

    def __init__(self, path: Path | str, *, keep_days: int = 30, preview_keep_days: int = 7,
                 busy_timeout_s: float = 5.0, write_timeout_s: float = 30.0,
                 clock: Callable[[], float] = time.time, state_dir: Path | str | None = None,
                 store_outputs: bool = False) -> None:
        self.path = Path(path)
        self.store_outputs = store_outputs  # [audit] store_outputs: command output / file contents in events
        state = Path(state_dir) if state_dir else default_state_dir()
        self.head_file = ChainHeadFile(head_path(state, self.path))
        self._alarm_listeners: list[Callable[[str], None]] = []
        self._identity: dict[Path, tuple[int, int]] = {}
        try:
            self._key = install_key(state)
        except (OSError, ValueError) as err:
            raise AuditError(f"cannot read or create the audit log's key in {state}: {err}") from err
        self._clock = clock  # UTC epoch seconds; tests pass a controllable one
        self.keep_days = keep_days
        self.preview_keep_days = preview_keep_days
        self._busy_timeout_s = busy_timeout_s
        self._write_timeout_s = write_timeout_s
        self._read_lock = threading.Lock()
        self._reader = None
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._closing = False
        self._submit_lock = threading.Lock()
        self._broken: str | None = None
        self._head: _Head | None = None
        self.backup_path: Path | None = None
        self._hidden: OrderedDict[int, tuple[str, ...]] = OrderedDict()
        self._preparing = 0  # callers between entering record_* and enqueueing their row
        self._local = threading.local()
        conn: sqlite3.Connection | None = None
        try:
            _create_private(self.path)
            conn = _connect(self.path, busy_timeout_s)
            check_schema(conn, self.path)  # before anything writes to a file that may not be ours
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise AuditError(f"cannot put the audit log {self.path} in WAL mode (got {mode})")
            conn.execute("PRAGMA synchronous = FULL")  # every commit is fsync'd before record_* returns
            self.backup_path = migrate(conn, self.path)
            conn.execute("BEGIN IMMEDIATE")  # proves the file is writable now, not at the first decision
            self._head = self._load_head(conn)
            self._check_head(conn, self._head)
            conn.execute("ROLLBACK")
            self.head_file.write(ChainHead(self._head.seq, self._head.hash))
            self._remember_files()
        except (OSError, sqlite3.Error, ValueError) as err:
            if conn is not None:
                conn.close()
            self.head_file.close()
            raise AuditError(f"cannot open the audit log {self.path} for writing: {err}") from err
        except AuditError:
            if conn is not None:
                conn.close()
            self.head_file.close()
            raise
        self._conn = conn
        # called on the writer thread with [(table, insert params)] after each commit; must not block
        # (app/syslog_forward.SyslogForwarder.submit only enqueues)
        self.on_commit: Callable[[list[tuple[str, tuple[Any, ...]]]], None] | None = None
        self._open_reader()
        self._writer = threading.Thread(target=self._run, name="deskgate-audit-writer", daemon=True)
        self._writer.start()
        try:
            if keep_days > 0:
                self.apply_retention(keep_days)
            if preview_keep_days > 0:
                self._submit(_Job("previews", values=(preview_keep_days,)))
        except AuditError:
            self.close()
            raise

    # -- public writes ---------------------------------------------------------------------------------

    @_counted
    def open_session(self, agent: str, *, pid: int | None, uid: int | None, expect: dict | None) -> int:
        expect_json = canonical_json(sanitize_data(expect, key=self._key)) if expect else None
        return self._row("sessions", (str(agent), _int(pid), _int(uid), expect_json))

    @_counted
    def close_session(self, session_id: int, reason: str) -> None:
        self._row("events", ("session_end", int(session_id), None, None, _data({"reason": reason}, self._key)))

    @_counted
    def record_decision(self, *, session_id: int | None, agent: str, request_id: str, op: str,
                        action: Mapping[str, Any], assessment: Any, observation: Any, approval_key: str,
                        execute: bool) -> int:
        """Sanitise and durably record one decision; returns its id (the reply's audit_id)."""
        try:
            redact = frozenset(getattr(assessment, "redact", ()) or ())
            clean = sanitize_action(action, redact, key=self._key)
            hidden = _hidden_values(action, redact)
            risk = assessment.risk
            values = (
                _int(session_id), str(agent), str(request_id), str(op), str(clean.get("type", "")),
                canonical_json(clean), _hide_values(summarize(clean), hidden, self._key),
                str(getattr(assessment.decision, "value", assessment.decision)),
                _hide_values(str(assessment.reason), hidden, self._key),
                json.dumps([str(r) for r in assessment.rules], separators=(",", ":")),
                str(getattr(risk, "label", risk)),
                None if assessment.confidence is None else float(assessment.confidence),
                redact_text(str(getattr(observation, "window_title", "") or ""), key=self._key),
                str(getattr(observation, "app", "") or ""),
                redact_text(str(getattr(observation, "url", "") or ""), key=self._key),
                str(getattr(observation, "screen_hash", "") or ""),
                # keyed too: the approval key is a plain digest over the action, secrets' digests included
                hmac.new(self._key, str(approval_key).encode(), hashlib.sha256).hexdigest(), int(bool(execute)),
            )
        except AuditError:
            raise
        except Exception as err:  # a value we cannot record is a failed record: nothing runs
            raise AuditError(f"cannot record decision: {err}") from err
        decision_id = self._row("decisions", values)
        if hidden:  # its execution output may echo them (`env`, `cat`): scrub that too
            with self._submit_lock:
                self._hidden[decision_id] = tuple(hidden)
                while len(self._hidden) > _HIDDEN_MAX:
                    self._hidden.popitem(last=False)
        return decision_id

    def _event_data(self, data: Mapping[str, Any] | None, decision_id: int | None) -> str | None:
        if data is None:
            return None
        clean = sanitize_data(dict(data), key=self._key)
        hidden = self._hidden.get(decision_id) if decision_id is not None else None
        if hidden:
            clean = _replace_strings(clean, hidden)
        return canonical_json(clean)

    @_counted
    def record_event(self, kind: str, *, session_id: int | None = None, decision_id: int | None = None,
                     data: dict | None = None, durable: bool = True) -> int | None:
        """Record one event. `durable=False` queues it for the next group commit without waiting (and
        returns None): for rows written after an action already ran, where waiting adds latency and
        protects nothing. A failed commit then shows in the log and fails the next durable write."""
        if not isinstance(kind, str) or not kind or not kind.replace("_", "").isalnum():
            raise AuditError(f"bad event kind {kind!r}")
        if kind in _RESERVED_KINDS:
            raise AuditError(f"event kind {kind!r} is written by the audit log itself")
        verdict = None
        if kind == "outcome":
            verdict = (data or {}).get("verdict")
            if verdict not in VERDICTS:
                raise AuditError(f"an outcome needs a verdict in {sorted(VERDICTS)}")
        if kind == "execution" and data is not None and not self.store_outputs:
            data = _without_outputs(data)
        return self._row("events", (kind, _int(session_id), _int(decision_id), verdict,
                                    self._event_data(data, _int(decision_id))), wait=durable)

    @_counted
    def record_outcome(self, decision_id: int, *, verdict: str, decided_by: str, reason: str,
                       elapsed_ms: float, durable: bool = True) -> int | None:
        if verdict not in VERDICTS:
            raise AuditError(f"verdict {verdict!r} is not one of {sorted(VERDICTS)}")
        data = {"decided_by": str(decided_by), "reason": str(reason), "elapsed_ms": round(float(elapsed_ms), 3)}
        return self._row("events", ("outcome", None, int(decision_id), verdict,
                                    self._event_data(data, int(decision_id))), wait=durable)

    @_counted
    def add_preview(self, decision_id: int, png: bytes) -> None:
        png = bytes(png)
        self._row("previews", (int(decision_id), hashlib.sha256(png).hexdigest(), len(png)), png=png)

    def flush(self) -> None:
        """Wait until every row queued so far (durable or not) is committed."""
        self._submit(_Job("barrier"))

    def apply_retention(self, days: int) -> int:
        """Delete the chain's prefix older than `days` days; records a `retention` event. Returns rows pruned."""
        if days < 0:
            raise ValueError("days must be >= 0")
        return self._submit(_Job("retention", values=(days,)))

    def close(self) -> None:
        with self._submit_lock:
            already = self._closing
            self._closing = True
            if not already:
                self._queue.put(_STOP)
        if not already:
            self._writer.join(timeout=self._write_timeout_s)
            if not self._writer.is_alive():  # else the writer still owns the connection
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("PRAGMA optimize")
                self._conn.close()
                self.head_file.close()
        super().close()

    # -- machinery -------------------------------------------------------------------------------------

    def _row(self, table: str, values: tuple[Any, ...], png: bytes | None = None, wait: bool = True) -> Any:
        # a value the chain cannot hash or SQLite cannot store fails this caller only, not the whole group
        for value in values:
            if not (value is None or isinstance(value, str | int)
                    or (isinstance(value, float) and math.isfinite(value))):
                raise AuditError(f"cannot record a {table} row: {value!r} is not a storable value")
        try:
            msgspec.json.encode(values)
        except (TypeError, ValueError, msgspec.EncodeError) as err:
            raise AuditError(f"cannot record a {table} row: {err}") from err
        return self._submit(_Job("row", table, values, png), wait=wait)

    @contextlib.contextmanager
    def _preparing_row(self) -> Iterator[None]:
        """Count this caller as building a row until it enqueues it (see the writer's linger)."""
        with self._submit_lock:
            self._preparing += 1
        self._local.counted = True
        try:
            yield
        finally:
            if getattr(self._local, "counted", False):
                self._local.counted = False
                with self._submit_lock:
                    self._preparing -= 1

    def _submit(self, job: _Job, wait: bool = True) -> Any:
        with self._submit_lock:
            if getattr(self._local, "counted", False):
                self._local.counted = False
                self._preparing -= 1
            if self._closing:
                raise AuditError("the audit log is closed")
            if self._broken:
                raise AuditError(f"the audit log is out of service: {self._broken}")
            self._queue.put(job)
        if not wait:
            return None
        if not job.done.wait(self._write_timeout_s):
            raise AuditError(f"the audit log did not commit within {self._write_timeout_s:.0f} s")
        if job.error is not None:
            raise job.error
        return job.result

    def _run(self) -> None:
        next_maintenance = time.monotonic() + _MAINTAIN_EVERY_S
        released = 0
        try:
            while True:
                try:
                    first = self._queue.get(timeout=max(0.0, next_maintenance - time.monotonic()))
                except queue.Empty:
                    self._maintain()
                    next_maintenance = time.monotonic() + _MAINTAIN_EVERY_S
                    continue
                if first is _STOP:
                    return
                batch = [first]
                stop = False
                deadline = None
                # the callers the last commit released usually come straight back (agents in a loop), and
                # some are building a row now: wait a moment for them so one fsync covers their rows too.
                # A lone agent never waits (nobody else was released, nobody else is building).
                expected = max(released, len(batch) + self._preparing)
                while len(batch) < _MAX_BATCH:
                    try:
                        job = self._queue.get_nowait()
                    except queue.Empty:
                        if len(batch) >= max(expected, len(batch) + self._preparing):
                            break
                        if deadline is None:
                            deadline = time.monotonic() + _LINGER_S
                        remaining = deadline - time.monotonic()
                        if remaining <= 0:
                            break
                        try:
                            job = self._queue.get(timeout=remaining)
                        except queue.Empty:
                            break
                    if job is _STOP:
                        stop = True
                        break
                    batch.append(job)
                self._commit(batch)
                released = len({job.thread for job in batch})
                if stop:
                    return
        except BaseException as err:  # the writer itself failed: nothing may be recorded any more
            self._broken = f"writer stopped: {err!r}"
            log.exception("audit writer stopped")
        finally:
            self._fail_pending()

    def _fail_pending(self) -> None:
        with self._submit_lock:
            self._closing = True
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            if isinstance(job, _Job):
                job.error = AuditError(self._broken or "the audit log is closed")
                job.done.set()

    def _maintain(self) -> None:
        jobs = []
        if self.keep_days > 0:
            jobs.append(_Job("retention", values=(self.keep_days,)))
        if self.preview_keep_days > 0:
            jobs.append(_Job("previews", values=(self.preview_keep_days,)))
        for job in jobs:
            self._commit([job])
            if job.error:
                log.warning("audit retention failed: %s", job.error)

    def _commit(self, batch: list[_Job]) -> None:
        conn = self._conn
        problem = self._files_problem()
        if problem is not None:
            self._out_of_service(problem, batch)
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                dv = conn.execute("PRAGMA data_version").fetchone()[0]
                if self._head is None or dv != self._head.data_version:
                    self._head = self._load_head(conn)  # another process (log prune) wrote meanwhile
                head = dataclasses.replace(self._head, next_id=dict(self._head.next_id), pending={}, inserted=[])
                committed_seq = head.seq
                for job in batch:
                    job.result = self._apply(conn, head, job)
                head.flush(conn)
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        except BaseException as err:
            self._head = None  # reload what is really committed before the next batch
            failure = AuditError(f"audit log write failed: {err}")
            failure.__cause__ = err
            log.error("audit commit of %d row(s) failed: %s", len(batch), err)
            for job in batch:
                job.result = None
                job.error = failure
                job.done.set()
            if not isinstance(err, Exception):
                raise
            return
        self._head = head
        if head.seq != committed_seq:
            try:
                self.head_file.write(ChainHead(head.seq, head.hash))
            except OSError as err:
                self._out_of_service(f"the chain head {self.head_file.path} cannot be written: {err}", batch)
                return
        for job in batch:
            job.done.set()
        if self.on_commit is not None and head.inserted:
            try:
                self.on_commit(head.inserted)
            except Exception:  # a copy elsewhere failing never touches the local log
                log.exception("audit on_commit hook failed")

    # -- tamper checks ---------------------------------------------------------------------------------

    @property
    def out_of_service(self) -> str | None:
        """Why the log stopped taking writes (files deleted or replaced, head unwritable); None while sound."""
        return self._broken

    def add_alarm_listener(self, callback: Callable[[str], None]) -> None:
        """`callback(message)` when the log goes out of service because its files were deleted or replaced
        or its head cannot be kept (the supervisor forwards it to the tray)."""
        self._alarm_listeners.append(callback)

    def _watched(self) -> tuple[Path, ...]:
        return (self.path, Path(f"{self.path}-wal"), self.head_file.path)

    def _remember_files(self) -> None:
        for path in self._watched():
            with contextlib.suppress(FileNotFoundError):
                st = os.stat(path)
                self._identity[path] = (st.st_dev, st.st_ino)

    def _files_problem(self) -> str | None:
        """Is every file this writer opened still there, the same file? (A deleted or replaced database
        keeps taking writes through the open handle, and they vanish with it.)"""
        for path, ident in self._identity.items():
            try:
                st = os.stat(path)
            except FileNotFoundError:
                return f"{path} was deleted while deskgate was writing to it"
            except OSError as err:
                return f"{path} cannot be checked: {err}"
            if (st.st_dev, st.st_ino) != ident:
                return f"{path} was replaced by another file while deskgate was writing to it"
        if len(self._identity) < len(self._watched()):
            self._remember_files()  # the WAL appears with the first write
        return None

    def _out_of_service(self, problem: str, batch: list[_Job]) -> None:
        """Stop for good: this batch and every later write fail (nothing runs), and raise the alarm."""
        message = f"AUDIT LOG OUT OF SERVICE: {problem}; nothing will run until deskgate is restarted"
        first = False
        with self._submit_lock:
            if self._broken is None:
                self._broken = message
                first = True
        failure = AuditError(message)
        for job in batch:
            job.result = None
            job.error = failure
            job.done.set()
        if first:
            log.critical("%s", message)
            for callback in list(self._alarm_listeners):
                try:
                    callback(message)
                except Exception:
                    log.exception("audit alarm listener failed")

    def _check_head(self, conn: sqlite3.Connection, head: _Head) -> None:
        """At open: the database must reach the head recorded outside it. AuditError otherwise."""
        try:
            stored = self.head_file.read()
        except (OSError, ValueError) as err:
            raise AuditError(f"the audit chain head {self.head_file.path} cannot be read ({err}); "
                             "refusing to write to a log whose end cannot be checked") from err
        if stored is None:
            return
        advice = (f"Run `deskgate log verify --db {self.path}` and keep the files for inspection; to start "
                  f"a new log, move {self.path} (and -wal/-shm) and {self.head_file.path} aside.")
        if head.seq < stored.seq:
            raise AuditError(f"the audit log {self.path} lost its end: it stops at chain position {head.seq} but "
                             f"{stored.seq} rows were written. {advice}")
        if stored.seq and _hash_at(conn, stored.seq) != stored.hash:
            raise AuditError(f"the audit log {self.path} does not match its chain head (rewritten or replaced). "
                             f"{advice}")

    def _load_head(self, conn: sqlite3.Connection) -> _Head:
        seq, last_hash, ts = 0, sql.GENESIS, 0.0
        for table in sql.TABLES:
            row = conn.execute(sql.LAST_LINK[table]).fetchone()
            if row is not None and row[0] > seq:
                seq, last_hash = row[0], row[1]
            last = conn.execute(f"SELECT ts FROM {table} ORDER BY id DESC LIMIT 1").fetchone()
            if last is not None:
                ts = max(ts, last[0])
        if seq == 0:
            anchor = conn.execute(sql.LAST_RETENTION).fetchone()
            if anchor is not None:  # everything pruned but the anchor event itself cannot be: defensive
                data = json.loads(anchor[0])
                seq, last_hash = int(data["anchor_seq"]), bytes.fromhex(data["anchor_hash"])
        next_id = {}
        for table in sql.TABLES:
            row = conn.execute(sql.NEXT_ID, (table,)).fetchone()
            next_id[table] = (row[0] if row else 0) + 1
        dv = conn.execute("PRAGMA data_version").fetchone()[0]
        return _Head(seq, last_hash, ts, next_id, dv)

    def _append(self, conn: sqlite3.Connection, head: _Head, table: str, values: tuple[Any, ...],
                png: bytes | None = None) -> int:
        ts = max(self._clock(), head.ts)  # the chain's clock never goes back: time ranges are id ranges
        row_id, seq = head.next_id[table], head.seq + 1
        hashed = (ts, *values)
        digest = _row_hash(head.hash, table, seq, row_id, hashed)
        params = (row_id, seq, *hashed, *((png,) if table == "previews" else ()), head.hash, digest)
        head.pending.setdefault(table, []).append(params)
        head.seq, head.hash, head.ts = seq, digest, ts
        head.next_id[table] = row_id + 1
        return row_id

    def _apply(self, conn: sqlite3.Connection, head: _Head, job: _Job) -> Any:
        if job.kind == "row":
            return self._append(conn, head, job.table, job.values, job.png)
        if job.kind == "barrier":
            return None
        head.flush(conn)  # maintenance reads the tables: everything chained so far must be in them
        if job.kind == "retention":
            return self._prune(conn, head, int(job.values[0]))
        if job.kind == "previews":
            cutoff = self._clock() - int(job.values[0]) * 86400
            cleared = conn.execute(sql.CLEAR_PREVIEWS, (cutoff,)).rowcount
            if cleared:
                self._append(conn, head, "events", ("preview_retention", None, None, None,
                                                    _data({"cleared": cleared, "cutoff_at": iso(cutoff)})))
            return cleared
        raise AssertionError(f"unknown job {job.kind}")

    def _prune(self, conn: sqlite3.Connection, head: _Head, days: int) -> int:
        """Delete every row before the first one at or after the cutoff (a prefix of the chain).

        The new first row's prev_hash is the last pruned row's hash: the retention event keeps it as
        the anchor, so verify still checks the rest from there.
        """
        cutoff = self._clock() - days * 86400
        keep_from = head.seq + 1
        first_present = None
        for table in sql.TABLES:
            row = conn.execute(sql.FIRST_SINCE[table], (cutoff,)).fetchone()
            if row is not None:
                keep_from = min(keep_from, row[1])
            first = conn.execute(f"SELECT seq FROM {table} ORDER BY id LIMIT 1").fetchone()
            if first is not None:
                first_present = first[0] if first_present is None else min(first_present, first[0])
        if first_present is None or keep_from <= first_present:
            return 0
        boundary: dict[str, int] = {}
        anchor_seq, anchor_hash = 0, sql.GENESIS
        for table in sql.TABLES:
            row = conn.execute(sql.FIRST_SEQ_FROM[table], (keep_from,)).fetchone()
            boundary[table] = row[0] if row is not None else sys.maxsize
            last = conn.execute(sql.LAST_BEFORE_ID[table], (boundary[table],)).fetchone()
            if last is not None and last[0] > anchor_seq:
                anchor_seq, anchor_hash = last[0], last[1]
        pruned = {t: conn.execute(sql.DELETE_BEFORE_ID[t], (boundary[t],)).rowcount for t in sql.TABLES}
        total = sum(pruned.values())
        self._append(conn, head, "events", ("retention", None, None, None, _data({
            "anchor_seq": anchor_seq, "anchor_hash": anchor_hash.hex(), "keep_days": days,
            "cutoff_at": iso(cutoff), "pruned": pruned,
        })))
        return total


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _data(data: Mapping[str, Any] | None, key: bytes | None = None) -> str | None:
    return None if data is None else canonical_json(sanitize_data(dict(data), key=key))
