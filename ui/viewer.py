"""The audit viewer: decisions page by page (keyset paging, never the whole table), filters, a detail
pane, a decisions-over-time chart, export and chain verification.

It reads through the audit log's query API only (app/audit/reader.py: query / count / get / histogram /
export / verify), so it stays fast on a million rows: the table holds the pages a person scrolled to.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Protocol

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.ports import OUTCOME_VERDICTS, Verdict
from ui.qtcompat import emit
from ui.theme import decision_color, muted_text, palette_color, risk_color

__all__ = ["PAGE", "AuditSource", "AuditViewer", "DecisionModel", "TimelineChart"]

PAGE = 200

_Index = QModelIndex | QPersistentModelIndex


class AuditSource(Protocol):
    """What the viewer needs from app/audit/reader.py's AuditReader."""

    def query(self, *, before_id: int | None = None, limit: int = 100, **filters: Any) -> list[dict]: ...
    def count(self, **filters: Any) -> int: ...
    def get(self, decision_id: int) -> dict | None: ...
    def histogram(self, *, bucket_s: int, since: Any = None, until: Any = None, **filters: Any) -> list: ...
    def export(self, fh: IO[str], fmt: str = "jsonl", **filters: Any) -> int: ...
    def verify(self) -> Any: ...


# (label, seconds back, histogram bucket in seconds): about 50 bars for each range
TIME_RANGES: tuple[tuple[str, float | None, int], ...] = (
    ("Last hour", 3600, 60),
    ("Last 24 hours", 86400, 1800),
    ("Last 7 days", 7 * 86400, 3 * 3600),
    ("Last 30 days", 30 * 86400, 12 * 3600),
    ("All time", None, 86400),
)
_NICE_BUCKETS = (60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 7 * 86400)


def nice_bucket(span_s: float, bars: int = 50) -> int:
    """The smallest round bucket that draws `span_s` in at most about `bars` bars."""
    for b in _NICE_BUCKETS:
        if span_s / b <= bars:
            return b
    return _NICE_BUCKETS[-1]
DECISIONS = ("allow", "confirm", "block")
VERDICTS = tuple(str(v) for v in Verdict if v in OUTCOME_VERDICTS)


def _local_time(ts: float | None) -> str:
    if ts is None:
        return ""
    return dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S")


class DecisionModel(QAbstractTableModel):
    """Decisions, newest first, fetched a page at a time with `before_id` (keyset paging)."""

    COLUMNS = (("id", "ID"), ("ts", "Time"), ("agent", "Agent"), ("summary", "Action"),
               ("decision", "Decision"), ("verdict", "Verdict"), ("risk", "Risk"), ("reason", "Reason"))

    def __init__(self, source: AuditSource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self.filters: dict[str, Any] = {}
        self.rows: list[dict[str, Any]] = []
        self.exhausted = True
        self.pages_loaded = 0

    def set_filters(self, filters: dict[str, Any]) -> None:
        self.beginResetModel()
        self.filters = {k: v for k, v in filters.items() if v not in (None, "")}
        self.rows = self.source.query(limit=PAGE, **self.filters)
        self.exhausted = len(self.rows) < PAGE
        self.pages_loaded = 1
        self.endResetModel()

    # -- paging ------------------------------------------------------------------------------------

    def canFetchMore(self, parent: _Index = QModelIndex()) -> bool:  # noqa: B008 - Qt's signature
        return not parent.isValid() and not self.exhausted

    def fetchMore(self, parent: _Index = QModelIndex()) -> None:  # noqa: B008
        if parent.isValid() or self.exhausted or not self.rows:
            return
        page = self.source.query(limit=PAGE, before_id=self.rows[-1]["id"], **self.filters)
        self.exhausted = len(page) < PAGE
        if page:
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(page) - 1)
            self.rows.extend(page)
            self.pages_loaded += 1
            self.endInsertRows()

    # -- table -------------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.COLUMNS[section][1]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        key = self.COLUMNS[index.column()][0]
        value = row.get(key)
        if role == Qt.ItemDataRole.DisplayRole:
            if key == "ts":
                return _local_time(value)
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.ForegroundRole:
            if key == "decision":
                return QColor(decision_color(value))
            if key == "risk":
                return QColor(risk_color(value))
            if key == "verdict" and value in ("denied", "killed", "error"):
                return QColor(decision_color("block"))
        if role == Qt.ItemDataRole.ToolTipRole and key in ("summary", "reason"):
            return str(value or "")
        if role == Qt.ItemDataRole.UserRole:
            return row.get("id")
        return None

    def row_of(self, decision_id: int) -> int | None:
        for i, r in enumerate(self.rows):
            if r.get("id") == decision_id:
                return i
        return None


class TimelineChart(QWidget):
    """Stacked bars of decisions per time bucket (allow / confirm / block), drawn with QPainter."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.buckets: list[tuple[float, dict[str, int]]] = []
        self.bucket_s = 3600
        self.span: tuple[float, float] | None = None  # the time range drawn (defaults to the data's)
        self.setMinimumHeight(90)

    def sizeHint(self) -> QSize:
        return QSize(600, 110)

    def set_data(self, rows: list[tuple[float, str, int]], bucket_s: int,
                 span: tuple[float, float] | None = None) -> None:
        by: dict[float, dict[str, int]] = {}
        for ts, decision, n in rows:
            by.setdefault(ts, {})[decision] = by.get(ts, {}).get(decision, 0) + n
        self.buckets = sorted(by.items())
        self.bucket_s = bucket_s
        self.span = span
        self.update()

    @property
    def total(self) -> int:
        return sum(sum(c.values()) for _, c in self.buckets)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), palette_color(QPalette.ColorRole.Base, self.palette()))
        p.setPen(QColor(muted_text(self.palette())))
        if not self.buckets:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "no decisions in this range")
            p.end()
            return
        legend_h, axis_h = 16, 16
        area = QRectF(40, legend_h + 4, max(1, self.width() - 50), max(1, self.height() - legend_h - axis_h - 8))
        peak = max(sum(c.values()) for _, c in self.buckets) or 1
        first, last = self.buckets[0][0], self.buckets[-1][0]
        if self.span is not None:
            first = min(first, self.span[0] - self.span[0] % self.bucket_s)
            last = max(last, self.span[1] - self.span[1] % self.bucket_s)
        slots = int((last - first) / self.bucket_s) + 1
        bar_w = area.width() / max(slots, 1)
        p.drawText(QRectF(0, area.top() - 6, 36, 14), Qt.AlignmentFlag.AlignRight, str(peak))
        p.drawText(QRectF(0, area.bottom() - 8, 36, 14), Qt.AlignmentFlag.AlignRight, "0")
        p.drawLine(area.bottomLeft(), area.bottomRight())
        for ts, counts in self.buckets:
            x = area.left() + (ts - first) / self.bucket_s * bar_w
            y = area.bottom()
            for decision in DECISIONS:
                n = counts.get(decision, 0)
                if not n:
                    continue
                h = area.height() * n / peak
                p.fillRect(QRectF(x + 0.5, y - h, max(1.0, bar_w - 1), h),
                           QColor(decision_color(decision, self.palette())))
                y -= h
        p.setPen(QColor(muted_text(self.palette())))
        fmt = "%H:%M" if self.bucket_s < 86400 else "%m-%d"
        p.drawText(QRectF(area.left(), area.bottom() + 2, 120, axis_h), Qt.AlignmentFlag.AlignLeft,
                   time.strftime(fmt, time.localtime(first)))
        p.drawText(QRectF(area.right() - 120, area.bottom() + 2, 120, axis_h), Qt.AlignmentFlag.AlignRight,
                   time.strftime(fmt, time.localtime(last)))
        x = area.left()
        for decision in DECISIONS:
            p.fillRect(QRectF(x, 3, 10, 10), QColor(decision_color(decision, self.palette())))
            p.setPen(palette_color(QPalette.ColorRole.Text, self.palette()))
            p.drawText(QRectF(x + 14, 0, 70, 16), Qt.AlignmentFlag.AlignVCenter, decision)
            x += 80
        p.end()


class AuditViewer(QMainWindow):
    """The audit log for a person: filter, page, inspect one decision, export, verify the chain."""

    verified = Signal(object)   # VerifyResult
    exported = Signal(str, int)  # path, rows

    def __init__(self, source: AuditSource, *, now: Callable[[], float] = time.time,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self._now = now
        self.setWindowTitle("deskgate — audit log")
        self.resize(1200, 720)

        central = QWidget()
        root = QVBoxLayout(central)
        root.addLayout(self._filter_bar())
        self.chart = TimelineChart()
        root.addWidget(self.chart)

        split = QSplitter(Qt.Orientation.Horizontal)
        self.model = DecisionModel(source, self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for col, width in enumerate((50, 135, 90, 220, 62, 66, 60)):
            self.table.setColumnWidth(col, width)
        self.table.selectionModel().currentRowChanged.connect(self._on_row)
        split.addWidget(self.table)
        split.addWidget(self._detail_pane())
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([760, 440])
        root.addWidget(split, 1)

        bottom = QHBoxLayout()
        self.count_label = QLabel()
        bottom.addWidget(self.count_label)
        self.verify_label = QLabel()
        self.verify_label.setTextFormat(Qt.TextFormat.PlainText)
        # the verify result takes the free space: it must never be squeezed to a letter
        bottom.addWidget(self.verify_label, 1)
        for text, slot in (("Verify chain", self.verify), ("Export JSONL…", lambda: self._ask_export("jsonl")),
                           ("Export CSV…", lambda: self._ask_export("csv")), ("Refresh", self.apply_filters)):
            b = QPushButton(text)
            b.clicked.connect(lambda _=False, s=slot: s())
            bottom.addWidget(b)
        root.addLayout(bottom)
        self.setCentralWidget(central)

        self._debounce = QTimer(self)  # typing in a text filter re-queries once the person pauses
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(250)
        self._debounce.timeout.connect(self.apply_filters)
        self.apply_filters()

    # -- widgets ---------------------------------------------------------------------------------

    def _filter_bar(self) -> QHBoxLayout:
        bar = QHBoxLayout()
        self.decision_box = QComboBox()
        self.decision_box.addItem("any decision", None)
        for d in DECISIONS:
            self.decision_box.addItem(d, d)
        self.verdict_box = QComboBox()
        self.verdict_box.addItem("any verdict", None)
        for v in VERDICTS:
            self.verdict_box.addItem(v, v)
        self.range_box = QComboBox()
        for label, back, _ in TIME_RANGES:
            self.range_box.addItem(label, back)
        self.range_box.setCurrentIndex(len(TIME_RANGES) - 1)
        self.agent_edit = QLineEdit()
        self.agent_edit.setPlaceholderText("agent")
        self.agent_edit.setMaximumWidth(160)
        self.text_edit = QLineEdit()
        self.text_edit.setPlaceholderText("search action and reason…")
        self.text_edit.setClearButtonEnabled(True)
        for box in (self.decision_box, self.verdict_box, self.range_box):
            box.currentIndexChanged.connect(lambda _i: self.apply_filters())
        self.agent_edit.textChanged.connect(lambda _t: self._debounce.start())
        self.text_edit.textChanged.connect(lambda _t: self._debounce.start())
        for w in (QLabel("Show"), self.decision_box, self.verdict_box, self.range_box, self.agent_edit):
            bar.addWidget(w)
        bar.addWidget(self.text_edit, 1)
        return bar

    def _detail_pane(self) -> QWidget:
        pane = QWidget()
        lay = QVBoxLayout(pane)
        lay.setContentsMargins(6, 0, 0, 0)
        self.detail_title = QLabel("Select a decision")
        self.detail_title.setTextFormat(Qt.TextFormat.PlainText)
        self.detail_title.setWordWrap(True)
        font = self.detail_title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.detail_title.setFont(font)
        self.detail_verdict = QLabel()
        self.detail_verdict.setTextFormat(Qt.TextFormat.RichText)
        self.detail_verdict.setWordWrap(True)
        self.preview = QLabel()
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.hide()
        self.detail_text = QPlainTextEdit()
        self.detail_text.setReadOnly(True)
        self.detail_text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        mono = self.detail_text.font()
        mono.setFamily("monospace")
        self.detail_text.setFont(mono)
        for w in (self.detail_title, self.detail_verdict, self.preview):
            lay.addWidget(w)
        lay.addWidget(self.detail_text, 1)
        return pane

    # -- filters ---------------------------------------------------------------------------------

    def filters(self) -> dict[str, Any]:
        back = self.range_box.currentData()
        return {
            "decision": self.decision_box.currentData(),
            "verdict": self.verdict_box.currentData(),
            "agent": self.agent_edit.text().strip() or None,
            "text": self.text_edit.text().strip() or None,
            "since": None if back is None else self._now() - back,
        }

    def apply_filters(self) -> None:
        self._debounce.stop()
        filters = {k: v for k, v in self.filters().items() if v is not None}
        self.model.set_filters(filters)
        total = self.source.count(**filters)
        self.count_label.setText(f"{total:,} decision{'s' if total != 1 else ''}")
        self._update_chart(filters)
        self._show_detail(None)
        if self.model.rows:
            self.table.selectRow(0)

    def _update_chart(self, filters: dict[str, Any]) -> None:
        bucket = TIME_RANGES[self.range_box.currentIndex()][2]
        rows = self.source.histogram(bucket_s=bucket, **filters)
        since = filters.get("since")
        if since is None and rows and self.model.rows:
            # All time: one day per bar is too coarse for a young log; refine once from the real span.
            finer = nice_bucket(float(self.model.rows[0]["ts"]) - rows[0][0])
            if finer < bucket:
                bucket = finer
                rows = self.source.histogram(bucket_s=bucket, **filters)
        span = (since, self._now()) if since is not None else None
        self.chart.set_data(rows, bucket, span)

    # -- detail ----------------------------------------------------------------------------------

    def _on_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_detail(self.model.data(current, Qt.ItemDataRole.UserRole) if current.isValid() else None)

    def show_decision(self, decision_id: int) -> None:
        """Open one decision (e.g. from the tray's recent list), selecting its row if it is loaded."""
        row = self.model.row_of(decision_id)
        if row is not None:
            self.table.selectRow(row)
        else:
            self._show_detail(decision_id)

    def _show_detail(self, decision_id: int | None) -> None:
        self.current_detail = self.source.get(decision_id) if decision_id is not None else None
        d = self.current_detail
        if d is None:
            self.detail_title.setText("Select a decision")
            self.detail_verdict.clear()
            self.detail_text.clear()
            self.preview.hide()
            return
        self.detail_title.setText(f"#{d.get('id')}  {d.get('summary', '')}")
        decision, risk = str(d.get("decision", "")), str(d.get("risk", ""))
        verdict = d.get("verdict") or "no outcome recorded"
        self.detail_verdict.setText(
            f'<span style="color:{decision_color(decision)}; font-weight:bold;">{decision}</span> · '
            f'<span style="color:{risk_color(risk)};">{risk} risk</span> · {_escape(verdict)} · '
            f"{_escape(d.get('agent', ''))} · {_escape(_local_time(d.get('ts')))}")
        lines = [f"Reason: {d.get('reason', '')}", "Rules:"]
        lines += [f"  - {r}" for r in d.get("rules") or []] or ["  (none)"]
        window = " — ".join(str(p) for p in (d.get("app"), d.get("window")) if p)
        if window:
            lines.append(f"Active window: {window}")
        if d.get("url"):
            lines.append(f"URL: {d['url']}")
        lines.append("Events:")
        for e in d.get("events") or []:
            data = e.get("data")
            tail = f" {json.dumps(data, ensure_ascii=False, sort_keys=True)}" if data else ""
            lines.append(f"  {_local_time(e.get('ts'))}  {e.get('kind')}"
                         f"{' ' + e['verdict'] if e.get('verdict') else ''}{tail}")
        lines.append("Action (sanitised):")
        lines.append(json.dumps(d.get("action"), indent=2, ensure_ascii=False, sort_keys=True))
        self.detail_text.setPlainText("\n".join(lines))
        png = (d.get("preview") or {}).get("png")
        pix = QPixmap()
        if png and pix.loadFromData(bytes(png), "PNG"):
            self.preview.setPixmap(pix.scaled(360, 200, Qt.AspectRatioMode.KeepAspectRatio,
                                              Qt.TransformationMode.SmoothTransformation))
            self.preview.show()
        else:
            self.preview.hide()

    # -- export and verify -----------------------------------------------------------------------

    def export_to(self, path: str | Path, fmt: str) -> int:
        """Write the decisions matching the current filters to `path`; returns how many."""
        filters = {k: v for k, v in self.filters().items() if v is not None}
        with open(path, "w", encoding="utf-8", newline="") as fh:
            n = self.source.export(fh, fmt, **filters)
        self.statusBar().showMessage(f"Exported {n:,} decisions to {path}", 10000)
        emit(self.exported, str(path), n)
        return n

    def _ask_export(self, fmt: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export decisions", f"deskgate-audit.{fmt}",
                                              "JSON lines (*.jsonl)" if fmt == "jsonl" else "CSV (*.csv)")
        if path:
            self.export_to(path, fmt)

    def verify(self) -> Any:
        result = self.source.verify()
        if result.ok:
            self.verify_label.setText(f"Chain verified: {result.rows:,} rows intact")
            self.verify_label.setStyleSheet(f"color: {decision_color('allow')}; font-weight: bold;")
        else:
            self.verify_label.setText(f"Chain BROKEN: {result.problem}")
            self.verify_label.setStyleSheet(f"color: {decision_color('block')}; font-weight: bold;")
        emit(self.verified, result)
        return result


def _escape(value: object) -> str:
    return html.escape(str(value))
