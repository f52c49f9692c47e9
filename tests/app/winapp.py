"""A tiny real window for desktop tests: a line edit and a button, events printed to stdout.

Run as a subprocess on the test X display: `python tests/app/winapp.py --title NAME`.
Prints, one per line (flushed):
  ready <window id> <edit x> <edit y> <edit w> <edit h> <button x> <button y> <button w> <button h>
      (screen coordinates, once the window is shown and painted)
  text <current text>          on every edit
  clicked <current text>       when the button is pressed
  focus <in|out>               when the window gains / loses activation
"""

from __future__ import annotations

import argparse
import sys

from PySide6.QtCore import QPoint, QTimer
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton, QVBoxLayout, QWidget


def say(*parts: object) -> None:
    print(*parts, flush=True)


class Window(QWidget):
    def __init__(self, title: str) -> None:
        super().__init__()
        self.setWindowTitle(title)
        self.edit = QLineEdit(self)
        self.button = QPushButton("Go", self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.edit)
        layout.addWidget(self.button)
        self.edit.textChanged.connect(lambda t: say("text", t))
        self.button.clicked.connect(lambda: say("clicked", self.edit.text()))
        self._announced = False

    def _box(self, w: QWidget) -> list[int]:
        p = w.mapToGlobal(QPoint(0, 0))
        return [p.x(), p.y(), w.width(), w.height()]

    def announce(self) -> None:
        if not self._announced:
            self._announced = True
            say("ready", int(self.winId()), *self._box(self.edit), *self._box(self.button))

    def changeEvent(self, event) -> None:
        if event.type() == event.Type.ActivationChange:
            say("focus", "in" if self.isActiveWindow() else "out")
        super().changeEvent(event)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--title", default="winapp")
    ap.add_argument("--x", type=int, default=200)
    ap.add_argument("--y", type=int, default=150)
    args = ap.parse_args()
    app = QApplication(sys.argv[:1])
    win = Window(args.title)
    win.setGeometry(args.x, args.y, 360, 120)
    win.show()
    win.edit.setFocus()
    # Announce after the event loop has mapped and painted the window (the WM reparents it first).
    QTimer.singleShot(300, win.announce)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
