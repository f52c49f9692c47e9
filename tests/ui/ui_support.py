"""Builders shared by the widget tests: approval requests, a synthetic screenshot with a marked point, a clock."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen

from app.ports import ApprovalRequest
from gate.model import Assessment, Decision, Hit, Observation, Risk


def assessment(decision: Decision = Decision.CONFIRM, risk: Risk = Risk.HIGH, *hits: tuple[str, str],
               redact: frozenset[str] = frozenset()) -> Assessment:
    hit_objs = tuple(Hit(rule, decision, risk, reason) for rule, reason in hits) or (
        Hit("confirm.gui.irreversible", decision, risk, "irreversible: 'Place order'"),)
    return Assessment(decision=decision, reason=hit_objs[0].reason, rules=tuple(h.rule for h in hit_objs),
                      risk=risk, confidence=0.9, hits=hit_objs, redact=redact)


def request(action: dict, a: Assessment | None = None, **kw) -> ApprovalRequest:
    base = dict(request_id=kw.pop("request_id", "r1"), agent=kw.pop("agent", "shopper-bot"), session_id=1,
                action=action, assessment=a or assessment(),
                observation=Observation(app="firefox", window_title="Checkout — Shop Example"),
                intent=kw.pop("intent", "finish buying the printer cartridge"))
    base.update(kw)
    return ApprovalRequest(**base)


def synthetic_screenshot(width: int = 520, height: int = 280, mark: tuple[int, int] = (300, 170)) -> bytes:
    """A fake web page region with a 'Place order' button and the target point marked in red."""
    img = QImage(width, height, QImage.Format.Format_RGB32)
    img.fill(QColor("#f4f6f8"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.fillRect(QRect(0, 0, width, 36), QColor("#37474f"))
    p.setPen(QColor("white"))
    p.setFont(QFont("DejaVu Sans", 11))
    p.drawText(QRect(12, 0, width, 36), Qt.AlignmentFlag.AlignVCenter, "shop.example — Checkout")
    p.setPen(QColor("#333"))
    p.drawText(QPoint(24, 70), "Printer cartridge XL ×1            €39.90")
    p.drawText(QPoint(24, 96), "Shipping                                  €4.90")
    p.fillRect(QRect(mark[0] - 80, mark[1] - 20, 160, 40), QColor("#ff9800"))
    p.setPen(QColor("black"))
    p.drawText(QRect(mark[0] - 80, mark[1] - 20, 160, 40), Qt.AlignmentFlag.AlignCenter, "Place order")
    pen = QPen(QColor("#e53935"), 3)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(QPoint(*mark), 14, 14)
    p.drawLine(mark[0] - 22, mark[1], mark[0] + 22, mark[1])
    p.drawLine(mark[0], mark[1] - 22, mark[0], mark[1] + 22)
    p.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    return bytes(data.data())


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
