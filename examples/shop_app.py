"""A tiny "shop" checkout window for the demo: Name, Password and a Place order button.

Run it on a desktop: `python examples/shop_app.py`. It prints, one line each (flushed), so a script can
find its fields and see what reached it:

  ready <name x> <name y> <password x> <password y> <button x> <button y>   (screen centres, once shown)
  name <text>           on every edit of Name
  password <n> chars    on every edit of Password (never the text)
  order <name>          when Place order is pressed
"""

from __future__ import annotations

import argparse
import sys

from PySide6.QtCore import QPoint, QTimer
from PySide6.QtWidgets import QApplication, QFormLayout, QLineEdit, QPushButton, QWidget


def say(*parts: object) -> None:
    print(*parts, flush=True)


class Shop(QWidget):
    def __init__(self, title: str) -> None:
        super().__init__()
        self.setWindowTitle(title)
        self.name = QLineEdit(self)
        self.name.setAccessibleName("Name")
        self.password = QLineEdit(self)
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Password")
        self.order = QPushButton("Place order", self)
        form = QFormLayout(self)
        form.addRow("Name", self.name)
        form.addRow("Password", self.password)
        form.addRow(self.order)
        self.name.textChanged.connect(lambda t: say("name", t))
        self.password.textChanged.connect(lambda t: say("password", len(t), "chars"))
        self.order.clicked.connect(lambda: say("order", self.name.text()))

    def announce(self) -> None:
        centres = []
        for w in (self.name, self.password, self.order):
            p = w.mapToGlobal(QPoint(w.width() // 2, w.height() // 2))
            centres += [p.x(), p.y()]
        say("ready", *centres)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--title", default="deskgate demo shop")
    ap.add_argument("--x", type=int, default=240)
    ap.add_argument("--y", type=int, default=160)
    args = ap.parse_args()
    app = QApplication(sys.argv[:1])
    shop = Shop(args.title)
    shop.setGeometry(args.x, args.y, 380, 150)
    shop.show()
    QTimer.singleShot(300, shop.announce)  # after the window manager has mapped and placed it
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
