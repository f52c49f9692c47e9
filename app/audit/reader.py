"""Reading the audit log: pages of decisions, counts, a histogram, one decision in full, stats, export,
and `verify` (the SHA-256 chain over every row, and its end against the head kept outside the file).

    reader = AuditReader(paths.db)                 # read-only connection (query_only); never writes
    reader.query(decision="block", limit=50)       # newest first; page on with before_id
    reader.verify()                                # VerifyResult(ok, rows, problem, ...)

Its own connection, so a viewer never waits for the writer (app/audit/writer.py); a running writer
offers one as `AuditLog.reader`.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import datetime as dt
import hashlib
import heapq
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from app.audit import schema as sql
from app.audit.anchor import ChainHeadFile, default_state_dir, head_path
from app.audit.schema import DECISIONS, VERDICTS, AuditError, connect, hash_at, row_hash
from gate.redact import canonical_json

__all__ = ["EXPORT_COLUMNS", "VERDICTS", "AuditError", "AuditReader", "VerifyResult", "iso", "parse_time"]

_PAGE_MAX = 10_000
# One exported decision, in this order (JSON lines and CSV alike).
EXPORT_COLUMNS = ("id", "at", "ts", "agent", "session_id", "request_id", "op", "type", "decision", "verdict",
                  "decided_by", "risk", "rules", "reason", "summary", "action", "window", "app", "url",
                  "screen_hash", "approval_key", "execute", "confidence", "elapsed_ms", "outcome_reason")


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


# -- reading ---------------------------------------------------------------------------------------


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
            conn = connect(self.path, self._busy_timeout_s)
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
        kinds = (decision,) if decision is not None else sorted(DECISIONS)  # as ORDER BY b, decision
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
                by_decision = {d: n for d in DECISIONS if (n := conn.execute(
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
        found = hash_at(conn, stored.seq) if stored.seq else sql.GENESIS
        if found != stored.hash:
            return dataclasses.replace(result, ok=False, problem=(
                f"chain position {stored.seq} does not match the chain head {where}: the end of the log was "
                "rewritten or the log was replaced"))
        if result.head_seq > stored.seq:
            return dataclasses.replace(result, note=(
                f"{result.head_seq - stored.seq} row(s) after the recorded chain head (deskgate or the machine "
                "stopped before the head of its last commits was written or reached the disk)"))
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
            if row_hash(prev, table, seq, row_id, values) != stored:
                return VerifyResult(False, rows, f"{here}: its contents do not match its hash (row edited)")
            if table == "previews":
                png = row[4 + width]
                if png is not None and (hashlib.sha256(png).hexdigest() != values[2] or len(png) != values[3]):
                    return VerifyResult(False, rows, f"{here}: the image does not match its sha256 (edited)")
            prev, expected, rows = stored, expected + 1, rows + 1
            before = f"{table} id {row_id}"
        return VerifyResult(True, rows, None, head_seq=expected - 1, head_hash=prev)

