"""Durable audit throughput: decisions/s with 8 concurrent agents, every decision committed before it returns.

    .venv/bin/python bench/audit_throughput.py [--threads 8] [--per-thread 500] [--dir DIR]

Baseline, measured in the same run on the same disk: one thread doing a plain sqlite3 INSERT + COMMIT
per row (WAL, synchronous=FULL), i.e. one fsync per row, the cost of the naive design. AuditLog does
the same durability with group commit (one fsync per transaction holding every queued row), plus
redaction, a SHA-256 chain and the viewer's indexes. Target: ≥ 2,000 decisions/s.

Two AuditLog figures: `decision` (record_decision only, the row that must exist before acting) and
`decision+outcome` (what the supervisor writes for a request that is decided by policy).
"""

from __future__ import annotations

import argparse
import pathlib
import sqlite3
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from app.audit.writer import AuditLog
from gate.model import Assessment, Decision, Observation, Risk
from gate.redact import approval_key

ACTIONS = [
    {"type": "click", "x": 640, "y": 400, "button": "left", "target": {"label": "Next", "role": "button"}},
    {"type": "type", "text": "hello world, this is a note", "target": {"label": "Search"}},
    {"type": "shell", "command": "git status --short && ls -la src"},
    {"type": "key", "keys": ["ctrl", "s"]},
    {"type": "navigate", "url": "https://en.wikipedia.org/wiki/SQLite"},
]
ASSESSMENT = Assessment(decision=Decision.ALLOW, reason="no rule objects", rules=(), risk=Risk.LOW, confidence=0.95)
OBSERVATION = Observation(window_title="Terminal — ~/project", app="xterm", screen_hash="0" * 16)


def baseline(path: pathlib.Path, rows: int) -> float:
    """rows/s for one thread, one INSERT + COMMIT (fsync) per row."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, ts REAL, agent TEXT, action TEXT, decision TEXT)")
    payload = '{"type":"shell","command":"git status --short && ls -la src"}'
    start = time.perf_counter()
    for _ in range(rows):
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t (ts, agent, action, decision) VALUES (?, ?, ?, ?)",
                     (time.time(), "agent", payload, "allow"))
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return rows / elapsed


def audit_run(path: pathlib.Path, threads: int, per_thread: int, with_outcome: bool) -> tuple[float, int]:
    log = AuditLog(path, keep_days=0, state_dir=path.parent / "state")  # the chain head beside it, not in ~
    barrier = threading.Barrier(threads + 1)
    errors: list[BaseException] = []

    def agent(n: int) -> None:
        sid = log.open_session(f"agent-{n}", pid=n, uid=0, expect=None)
        keys = [approval_key(a) for a in ACTIONS]
        barrier.wait()
        try:
            for i in range(per_thread):
                k = i % len(ACTIONS)
                did = log.record_decision(session_id=sid, agent=f"agent-{n}", request_id=str(i), op="act",
                                          action=ACTIONS[k], assessment=ASSESSMENT, observation=OBSERVATION,
                                          approval_key=keys[k], execute=True)
                if with_outcome:
                    log.record_outcome(did, verdict="executed", decided_by="policy", reason="no rule objects",
                                       elapsed_ms=0.4)
        except BaseException as err:  # reported after the run
            errors.append(err)

    pool = [threading.Thread(target=agent, args=(n,)) for n in range(threads)]
    for t in pool:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in pool:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise errors[0]
    result = log.reader.verify()
    count = log.reader.count()
    log.close()
    if not result.ok or count != threads * per_thread:
        raise SystemExit(f"bad run: verify={result}, count={count}")
    return threads * per_thread / elapsed, result.rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--per-thread", type=int, default=500)
    ap.add_argument("--baseline-rows", type=int, default=1000)
    ap.add_argument("--dir", help="where to put the databases (default: a temp dir; use the real data disk)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="deskgate-bench-") as tmp:
        root = pathlib.Path(tmp)
        base = baseline(root / "baseline.db", args.baseline_rows)
        print(f"baseline: 1 thread, INSERT+COMMIT per row, WAL, synchronous=FULL: {base:9,.0f} rows/s")
        for with_outcome in (False, True):
            name = "decision+outcome" if with_outcome else "decision"
            rate, rows = audit_run(root / f"audit-{name}.db", args.threads, args.per_thread, with_outcome)
            print(f"AuditLog: {args.threads} threads, {name:<16} durable, chained: {rate:9,.0f} decisions/s "
                  f"({rate / base:4.1f}× baseline; {rows:,} rows verified)  target ≥ 2,000")
    return 0


if __name__ == "__main__":
    sys.exit(main())
