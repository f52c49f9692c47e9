"""Audit viewer on 1,000,000 decisions: open, first page, filtered pages, counts. Target ≤ 300 ms.

    .venv/bin/python bench/audit_query.py [--rows 1000000] [--dir DIR] [--keep]

Builds a real audit file (schema, indexes, a valid hash chain; each decision followed by its outcome
event, so 2,000,000 chained rows) in a temp dir with a fast bulk insert, then opens it with a fresh
AuditReader (empty SQLite cache; the OS cache is warm from the build) and times what the viewer does.
The baseline, measured in the same run, is `SELECT count(*) FROM decisions` on a fresh connection: one
pass over the smallest index, the cheapest thing that touches every row.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from app.audit import schema as sql
from app.audit.reader import AuditReader
from app.audit.schema import migrate, row_hash
from gate.redact import approval_key, canonical_json

DAY = 86400.0
AGENTS = [f"agent-{n}" for n in range(7)]
COMMANDS = ["git status", "ls -la src", "python -m pytest -q", "make build", "cat README.md", "npm test"]
LABELS = ["Next", "OK", "Save", "Cancel", "Search", "Place order", "Delete", "Submit"]


def _rows(n: int, t0: float, span_s: float, rng: random.Random):
    prev = sql.GENESIS
    seq = 0
    for i in range(1, n + 1):
        ts = t0 + span_s * i / n
        agent = "rare-agent" if rng.random() < 0.001 else AGENTS[i % len(AGENTS)]
        r = rng.random()
        decision = "allow" if r < 0.80 else "confirm" if r < 0.95 else "block"
        if rng.random() < 0.5:
            action = {"type": "shell", "command": f"{rng.choice(COMMANDS)} # run {i}"}
            summary = f"shell {action['command']}"
        else:
            label = rng.choice(LABELS)
            action = {"type": "click", "x": i % 1920, "y": i % 1080, "button": "left", "target": {"label": label}}
            summary = f'click ({action["x"]},{action["y"]}) left "{label}"'
        if rng.random() < 0.001:
            summary += " needle-term"
        reason = {"allow": "no rule objects", "confirm": "irreversible: 'Place order'",
                  "block": "recursive delete of /"}[decision]
        rules = {"allow": "[]", "confirm": '["confirm.gui.irreversible"]',
                 "block": '["block.shell.recursive-delete-root"]'}[decision]
        values = (ts, 1 + i // 50, agent, str(i), "act", action["type"], canonical_json(action), summary,
                  decision, reason, rules, "low" if decision == "allow" else "high", 0.95,
                  "Terminal — ~/project", "xterm", "", "ab" * 8, approval_key(action), 1)
        seq += 1
        digest = row_hash(prev, "decisions", seq, i, values)
        yield "d", (i, seq, *values, prev, digest)
        prev = digest
        if decision == "block":
            verdict = "denied"
        elif decision == "confirm":
            verdict = "executed" if rng.random() < 0.6 else "denied"
        else:
            verdict = "executed" if rng.random() < 0.97 else "error"
        data = canonical_json({"decided_by": "policy", "reason": reason, "elapsed_ms": 0.5})
        evalues = (ts + 0.0001, "outcome", None, i, verdict, data)
        seq += 1
        digest = row_hash(prev, "events", seq, i, evalues)
        yield "e", (i, seq, *evalues, prev, digest)
        prev = digest


def build(path: pathlib.Path, n: int) -> float:
    start = time.perf_counter()
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    migrate(conn, path, upto=1)  # tables only: indexes are faster to build after the bulk insert
    rng = random.Random(42)
    now = time.time()
    dec, ev = [], []
    conn.execute("BEGIN")
    for kind, row in _rows(n, now - 30 * DAY, 30 * DAY - 60, rng):
        (dec if kind == "d" else ev).append(row)
        if len(dec) >= 50_000:
            conn.executemany(sql.INSERT["decisions"], dec)
            conn.executemany(sql.INSERT["events"], ev)
            dec, ev = [], []
    conn.executemany(sql.INSERT["decisions"], dec)
    conn.executemany(sql.INSERT["events"], ev)
    conn.execute("COMMIT")
    conn.execute("BEGIN")
    for number, _what, script in sql.MIGRATIONS[1:]:
        for statement in (s.strip() for s in script.split(";\n") if s.strip()):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {number}")
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    return time.perf_counter() - start


def timed(label: str, fn, results: list[tuple[str, float, str]]):
    start = time.perf_counter()
    value = fn()
    ms = (time.perf_counter() - start) * 1000
    shown = f"{len(value)} rows" if isinstance(value, list) else f"{value:,}" if isinstance(value, int) else "ok"
    results.append((label, ms, shown))
    return value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--dir", help="where to build the database (default: a temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the built database and print its path")
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(dir=args.dir, prefix="deskgate-bench-")
    path = pathlib.Path(tmp) / "audit.db"
    print(f"building {args.rows:,} decisions (+ as many outcome events, chained) in {path} ...", flush=True)
    built = build(path, args.rows)
    print(f"built in {built:.1f} s, {path.stat().st_size / 1e6:,.0f} MB")

    base_start = time.perf_counter()
    with sqlite3.connect(str(path)) as conn:
        conn.execute("SELECT count(*) FROM decisions").fetchone()
    baseline_ms = (time.perf_counter() - base_start) * 1000

    results: list[tuple[str, float, str]] = []
    reader = timed("open", lambda: AuditReader(path), results)
    first = timed("first page (100, newest)", lambda: reader.query(limit=100), results)
    timed("next page (before_id)", lambda: reader.query(limit=100, before_id=first[-1]["id"]), results)
    timed("decision=block", lambda: reader.query(decision="block", limit=100), results)
    timed("verdict=denied", lambda: reader.query(verdict="denied", limit=100), results)
    timed("agent=rare-agent (0.1%)", lambda: reader.query(agent="rare-agent", limit=100), results)
    timed("since 24 h ago", lambda: reader.query(since=time.time() - DAY, limit=100), results)
    timed("count()", lambda: reader.count(), results)
    viewer_ms = sum(ms for _, ms, _ in results)
    more: list[tuple[str, float, str]] = []
    timed("decision=confirm & agent-3", lambda: reader.query(decision="confirm", agent="agent-3", limit=100), more)
    timed("verdict=error & decision=allow", lambda: reader.query(verdict="error", decision="allow", limit=100),
          more)
    timed("deep page: block, before_id=500000",
          lambda: reader.query(decision="block", before_id=500_000, limit=100), more)
    timed("days 10..11 & decision=confirm", lambda: reader.query(
        since=time.time() - 20 * DAY, until=time.time() - 19 * DAY, decision="confirm", limit=100), more)
    timed("count(decision=block)", lambda: reader.count(decision="block"), more)
    timed("count(verdict=denied)", lambda: reader.count(verdict="denied"), more)
    timed("count(last 24 h)", lambda: reader.count(since=time.time() - DAY), more)
    timed("histogram 1 h buckets, last 7 days", lambda: reader.histogram(bucket_s=3600, since=time.time() - 7 * DAY),
          more)
    timed("histogram 1 h buckets, last 7 days, agent-3", lambda: reader.histogram(
        bucket_s=3600, since=time.time() - 7 * DAY, agent="agent-3"), more)
    timed("stats()", lambda: len(reader.stats()), more)
    timed("text 'needle-term' (0.1%) in last 24 h", lambda: reader.query(text="needle-term",
                                                                          since=time.time() - DAY, limit=100), more)
    timed("text 'needle-term' (0.1%), all rows", lambda: reader.query(text="needle-term", limit=100), more)
    timed("text with no match, all rows (worst case)", lambda: reader.query(text="no-such-text", limit=100), more)
    reader.close()

    width = max(len(label) for label, _, _ in results + more)
    print(f"\nbaseline: SELECT count(*) FROM decisions, fresh connection: {baseline_ms:8.1f} ms")
    print("\nwhat the viewer does on open (fresh reader):")
    for label, ms, shown in results:
        print(f"  {label:<{width}}  {ms:8.1f} ms   {shown}")
    print(f"  {'total':<{width}}  {viewer_ms:8.1f} ms   target ≤ 300 ms  ({viewer_ms / baseline_ms:.1f}× baseline)")
    print("\nother filters:")
    for label, ms, shown in more:
        print(f"  {label:<{width}}  {ms:8.1f} ms   {shown}")
    summary = {"rows": args.rows, "viewer_total_ms": round(viewer_ms, 1), "baseline_ms": round(baseline_ms, 1)}
    print("\n" + json.dumps(summary))
    if args.keep:
        print(f"kept: {path}")
    else:
        for p in pathlib.Path(tmp).iterdir():
            p.unlink()
        pathlib.Path(tmp).rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
