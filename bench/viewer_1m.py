"""The audit viewer itself (the Qt widget) on 1,000,000 decisions: open, and filter. Target ≤ 300 ms.

    .venv/bin/python bench/viewer_1m.py [--rows 1000000] [--db EXISTING.db]

Builds the same 1,000,000-decision audit file as bench/audit_query.py (or uses --db), then, offscreen,
times what a person waits for: AuditViewer opening on it (first page, count, chart) and each filter
change (decision, verdict, agent, time range, text within a time range) until the table, count and
chart are updated. Baseline, measured in the same run: `SELECT count(*) FROM decisions` on a fresh
connection (one pass over the smallest index).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TARGET_MS = 300.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--db", type=pathlib.Path, help="an existing audit database (skips the build)")
    args = ap.parse_args(argv)
    from bench.audit_query import build

    if args.db:
        db = args.db
    else:
        db = pathlib.Path(tempfile.mkdtemp(prefix="deskgate-viewer-")) / "audit.db"
        print(f"building {args.rows:,} decisions in {db} ...", flush=True)
        print(f"  built in {build(db, args.rows):.1f} s")

    from PySide6.QtWidgets import QApplication

    from app.audit.reader import AuditReader
    from ui.viewer import AuditViewer

    app = QApplication.instance() or QApplication([])
    t = time.perf_counter()
    conn = sqlite3.connect(str(db))
    conn.execute("SELECT count(*) FROM decisions").fetchone()
    conn.close()
    base_ms = (time.perf_counter() - t) * 1000

    results: list[tuple[str, float]] = []
    t = time.perf_counter()
    reader = AuditReader(db)
    viewer = AuditViewer(reader)
    viewer.show()
    viewer.apply_filters()
    app.processEvents()
    results.append(("open (first page, count, chart)", (time.perf_counter() - t) * 1000))

    def step(label: str, change) -> None:
        change()
        start = time.perf_counter()
        viewer.apply_filters()
        app.processEvents()
        results.append((label, (time.perf_counter() - start) * 1000))

    step("filter decision = block", lambda: viewer.decision_box.setCurrentIndex(viewer.decision_box.findData("block")))
    step("+ verdict = denied", lambda: viewer.verdict_box.setCurrentIndex(viewer.verdict_box.findData("denied")))
    step("+ agent = rare-agent", lambda: viewer.agent_edit.setText("rare-agent"))
    step("clear, range = last 24 h", lambda: (viewer.decision_box.setCurrentIndex(0),
                                              viewer.verdict_box.setCurrentIndex(0), viewer.agent_edit.clear(),
                                              viewer.range_box.setCurrentIndex(1)))
    step("+ text 'Place order' (24 h)", lambda: viewer.text_edit.setText("Place order"))
    step("scroll: next page", lambda: viewer.model.fetchMore(viewer.model.index(0, 0).parent()))
    print(f"rows: {reader.count():,}   baseline count(*) on a fresh connection: {base_ms:.1f} ms")
    worst = 0.0
    for label, ms in results:
        worst = max(worst, ms)
        print(f"  {label:<34} {ms:8.1f} ms   ratio to baseline {ms / base_ms:5.1f}x")
    print(f"worst {worst:.1f} ms: target ≤ {TARGET_MS:.0f} ms {'ok' if worst <= TARGET_MS else 'MISSED'}")
    viewer.close()
    reader.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
