"""AuditViewer over a real audit log file: pages, filters, detail, chart, export, verify."""

from __future__ import annotations

import csv
import json
import sqlite3

import pytest
from ui_support import synthetic_screenshot

from app.audit.reader import AuditReader
from app.audit.writer import AuditLog
from gate.model import Assessment, Decision, Hit, Observation, Risk
from ui.viewer import PAGE, AuditViewer

START = 1_750_000_000.0
N = 450


class Recorder:
    """The real log, with every query's arguments kept (to prove the viewer never loads everything)."""

    def __init__(self, log: AuditReader) -> None:
        self.log = log
        self.queries: list[dict] = []

    def query(self, **kw):
        self.queries.append(kw)
        return self.log.query(**kw)

    def __getattr__(self, name: str):
        return getattr(self.log, name)


def _assessment(i: int) -> Assessment:
    decision = (Decision.ALLOW, Decision.CONFIRM, Decision.BLOCK)[i % 3]
    rule = {Decision.ALLOW: (), Decision.CONFIRM: ("confirm.gui.irreversible",),
            Decision.BLOCK: ("block.shell.recursive-delete-root",)}[decision]
    reason = {Decision.ALLOW: "no rule objects", Decision.CONFIRM: "irreversible: 'Place order'",
              Decision.BLOCK: "recursive delete of /"}[decision]
    risk = (Risk.LOW, Risk.HIGH, Risk.CRITICAL)[i % 3]
    return Assessment(decision=decision, reason=reason, rules=rule, risk=risk, confidence=0.9,
                      hits=tuple(Hit(r, decision, risk, reason) for r in rule))


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    clock = {"now": START}
    path = tmp_path_factory.mktemp("audit") / "audit.db"
    audit = AuditLog(path, keep_days=0, preview_keep_days=0, clock=lambda: clock["now"])
    for i in range(N):
        clock["now"] = START + 60 * i  # one decision a minute, 7.5 hours in all
        a = _assessment(i)
        action = ({"type": "shell", "command": "rm -rf /"} if a.decision is Decision.BLOCK
                  else {"type": "click", "x": i, "y": 7, "target": {"label": "Place order"}})
        did = audit.record_decision(session_id=None, agent="writer" if i % 5 == 0 else "shopper-bot",
                                    request_id=str(i), op="act", action=action, assessment=a,
                                    observation=Observation(app="firefox", window_title="Checkout"),
                                    approval_key=f"k{i}", execute=True)
        verdict = {Decision.ALLOW: "executed", Decision.CONFIRM: "denied" if i % 2 else "executed",
                   Decision.BLOCK: "denied"}[a.decision]
        audit.record_outcome(did, verdict=verdict, decided_by="policy", reason=a.reason, elapsed_ms=1.5)
        if i == N - 1:
            audit.add_preview(did, synthetic_screenshot())
    yield audit
    audit.close()


@pytest.fixture
def viewer(qtbot, log):
    source = Recorder(log.reader)
    v = AuditViewer(source, now=lambda: START + 60 * N)
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    yield v


def test_pages_with_keyset_queries_never_everything(viewer) -> None:
    m = viewer.model
    assert len(m.rows) == PAGE
    assert [r["id"] for r in m.rows[:3]] == [N, N - 1, N - 2]  # newest first
    assert m.canFetchMore()
    m.fetchMore()
    m.fetchMore()
    assert len(m.rows) == N and not m.canFetchMore()
    assert len({r["id"] for r in m.rows}) == N
    assert all(q["limit"] <= PAGE for q in viewer.source.queries)
    assert [q.get("before_id") for q in viewer.source.queries[-2:]] == [m.rows[PAGE - 1]["id"] + 0,
                                                                         m.rows[2 * PAGE - 1]["id"]]
    assert viewer.count_label.text() == f"{N} decisions"


def test_scrolling_the_table_fetches_the_next_page(qtbot, viewer) -> None:
    viewer.table.scrollToBottom()
    qtbot.waitUntil(lambda: viewer.model.pages_loaded >= 2, timeout=3000)


def test_filters_decision_verdict_agent_text_and_time(qtbot, viewer, log) -> None:
    viewer.decision_box.setCurrentIndex(viewer.decision_box.findData("block"))
    assert viewer.model.rows and all(r["decision"] == "block" for r in viewer.model.rows)
    assert viewer.count_label.text() == f"{log.reader.count(decision='block')} decisions"

    viewer.decision_box.setCurrentIndex(viewer.decision_box.findData("confirm"))
    viewer.verdict_box.setCurrentIndex(viewer.verdict_box.findData("executed"))
    assert viewer.model.rows and all(r["decision"] == "confirm" and r["verdict"] == "executed"
                                     for r in viewer.model.rows)

    viewer.verdict_box.setCurrentIndex(0)
    viewer.decision_box.setCurrentIndex(0)
    viewer.agent_edit.setText("writer")
    qtbot.waitUntil(lambda: viewer.model.rows and all(r["agent"] == "writer" for r in viewer.model.rows),
                    timeout=3000)
    assert viewer.count_label.text() == f"{N // 5} decisions"

    viewer.agent_edit.clear()
    viewer.text_edit.setText("recursive delete")
    qtbot.waitUntil(lambda: viewer.count_label.text() == f"{N // 3} decisions", timeout=3000)

    viewer.text_edit.clear()
    viewer.range_box.setCurrentIndex(0)  # last hour: the newest 60 decisions
    qtbot.waitUntil(lambda: viewer.count_label.text() in ("60 decisions", "61 decisions"), timeout=3000)
    assert all(r["ts"] >= START + 60 * N - 3600 for r in viewer.model.rows)


def test_chart_counts_what_the_filters_select(viewer) -> None:
    assert viewer.chart.total == N
    viewer.decision_box.setCurrentIndex(viewer.decision_box.findData("allow"))
    assert viewer.chart.total == N // 3
    assert all(set(c) == {"allow"} for _, c in viewer.chart.buckets)


def test_detail_pane_shows_reason_rules_events_action_and_preview(viewer) -> None:
    assert viewer.current_detail["id"] == N  # the newest row is selected first
    text = viewer.detail_text.toPlainText()
    assert "Reason: " in text
    assert "outcome" in text and "Action (sanitised):" in text
    assert '"command": "rm -rf /"' in text  # the newest is a blocked shell command
    assert viewer.preview.isVisible() and not viewer.preview.pixmap().isNull()

    viewer.table.selectRow(1)
    d = viewer.current_detail
    assert d["id"] == N - 1 and d["decision"] == "confirm"
    assert "  - confirm.gui.irreversible" in viewer.detail_text.toPlainText()
    assert not viewer.preview.isVisible()


def test_show_decision_opens_one_not_yet_loaded(viewer) -> None:
    viewer.show_decision(3)
    assert viewer.current_detail["id"] == 3
    assert viewer.detail_title.text().startswith("#3 ")


def test_export_jsonl_and_csv_follow_the_filters(viewer, tmp_path, log) -> None:
    viewer.decision_box.setCurrentIndex(viewer.decision_box.findData("block"))
    n = viewer.export_to(tmp_path / "out.jsonl", "jsonl")
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert n == len(lines) == log.reader.count(decision="block")
    assert all(json.loads(line)["decision"] == "block" for line in lines)
    n = viewer.export_to(tmp_path / "out.csv", "csv")
    with open(tmp_path / "out.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert n == len(rows) and {r["decision"] for r in rows} == {"block"}


def test_verify_shows_the_chain_result(viewer, tmp_path, log) -> None:
    result = viewer.verify()
    assert result.ok
    assert viewer.verify_label.text() == f"Chain verified: {result.rows:,} rows intact"

    copy = tmp_path / "tampered.db"
    src = sqlite3.connect(log.path)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    for (name,) in dst.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        dst.execute(f'DROP TRIGGER "{name}"')  # an attacker with the file can drop the guards too
    dst.execute("UPDATE decisions SET reason = 'nothing to see' WHERE id = 7")
    dst.commit()
    dst.close()
    with AuditReader(copy) as reader:
        tampered = AuditViewer(reader, now=lambda: START + 60 * N)
        try:
            bad = tampered.verify()
            assert not bad.ok
            assert tampered.verify_label.text().startswith("Chain BROKEN:")
        finally:
            tampered.close()
            tampered.deleteLater()


def test_viewer_renders(viewer, artifacts) -> None:
    viewer.verify()
    assert viewer.grab().save(str(artifacts / "viewer.png"))
