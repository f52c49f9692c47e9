"""Request → confirmation dialog on screen: from `QtApprover.ask()` called on a worker thread with a
~100 KB screenshot preview to the dialog's first paint, offscreen. Target (DESIGN §6): ≤ 150 ms.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m bench.dialog_latency [--runs 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMetaObject, QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QApplication

from app.ports import Answer, ApprovalRequest
from gate.model import Assessment, Decision, Hit, Observation, Risk
from ui.approver import QtApprover

TARGET_MS = 150.0


def preview_png(target_bytes: int = 100_000) -> bytes:
    """A screenshot-like PNG of about `target_bytes`: noisy content (so it does not compress away) and
    a marked target point."""
    import random

    rng = random.Random(7)
    side = 160
    while True:
        w, h = side, side * 3 // 4
        noise = rng.randbytes(w * h * 3)
        img = QImage(noise, w, h, w * 3, QImage.Format.Format_RGB888).copy()  # copy: own the pixels
        p = QPainter(img)
        p.fillRect(QRect(side // 3, side // 4, side // 3, side // 8), QColor("#ff9800"))
        p.setPen(QPen(QColor("#e53935"), 3))
        p.drawEllipse(QPoint(side // 2, side // 3), 10, 10)
        p.end()
        data = QByteArray()
        buf = QBuffer(data)
        buf.open(QIODevice.OpenModeFlag.WriteOnly)
        img.save(buf, "PNG")
        if data.size() >= target_bytes:
            return bytes(data.data())
        side += 20


def make_request(i: int, png: bytes) -> ApprovalRequest:
    hit = Hit("confirm.gui.irreversible", Decision.CONFIRM, Risk.HIGH, "irreversible: 'Place order'")
    a = Assessment(decision=Decision.CONFIRM, reason=hit.reason, rules=(hit.rule,), risk=Risk.HIGH,
                   confidence=0.9, hits=(hit,))
    return ApprovalRequest(request_id=str(i), agent="bench-agent", session_id=1,
                           action={"type": "click", "x": 640, "y": 400, "target": {"label": "Place order"}},
                           assessment=a, observation=Observation(app="firefox", window_title="Checkout"),
                           intent="buy the thing", preview_png=png, preview_box=(500, 300, 280, 200))


def run(runs: int) -> list[float]:
    app = QApplication.instance() or QApplication([])
    app.setQuitOnLastWindowClosed(False)  # like the tray app: closing a dialog must not end the loop
    approver = QtApprover(arm_delay_s=1.0)
    png = preview_png()
    samples: list[float] = []
    submitted: dict[str, float] = {}
    failures: list = []

    def on_open(dialog) -> None:
        rid = dialog.request.request_id

        def painted() -> None:
            samples.append((time.perf_counter() - submitted[rid]) * 1000)
            # Answer right after this paint so the next request shows (not inside the paint event).
            QTimer.singleShot(0, lambda: dialog.finish(Answer.DENY))

        dialog.first_painted.connect(painted)

    approver.dialog_opened.connect(on_open)

    def worker() -> None:
        for i in range(runs):
            rid = str(i)
            submitted[rid] = time.perf_counter()
            reply = approver.ask(make_request(i, png), 10.0)
            if reply.answer is not Answer.DENY:
                failures.append(reply)
        # A timer started on this thread would never fire (it has no event loop): post the quit instead.
        QMetaObject.invokeMethod(app, "quit", Qt.ConnectionType.QueuedConnection)

    t = threading.Thread(target=worker, daemon=True)
    QTimer.singleShot(0, lambda: t.start())
    app.exec()
    t.join(5)
    print(f"preview PNG: {len(png):,} bytes")
    if failures or len(samples) != runs:
        raise SystemExit(f"{len(samples)} of {runs} dialogs painted; {len(failures)} not answered: {failures[:3]}")
    return samples


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    args = ap.parse_args()
    samples = sorted(run(args.runs))
    warm = samples  # every run counts, the first (cold) one included
    p50 = statistics.median(warm)
    p99 = warm[min(len(warm) - 1, round(0.99 * (len(warm) - 1)))]
    print(f"request → dialog painted, {len(warm)} runs (offscreen): p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
          f"max {warm[-1]:.1f} ms; target ≤ {TARGET_MS:.0f} ms: {'OK' if p99 <= TARGET_MS else 'MISSED'}")
    return 0 if p99 <= TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
