"""A real window with labelled buttons for the pointer-reading tests, events printed to stdout.

    python tests/app/buttonsapp.py --toolkit qt --title NAME --buttons "Delete account" "Next"
        Qt push buttons (their accessible names are their texts) and a line edit whose accessible
        name is "Password".
    python tests/app/buttonsapp.py --toolkit canvas --title NAME --buttons "Delete account" "Next"
        Tk canvas rectangles with drawn text: no accessibility at all, only pixels.

Prints (flushed): `ready <label>=<x>,<y> ... field=<x>,<y>` (screen centres, once shown), `clicked <label>`.
"""

from __future__ import annotations

import argparse
import sys


def say(*parts: object) -> None:
    print(*parts, flush=True)


def _qt(args: argparse.Namespace) -> int:
    from PySide6.QtCore import QPoint, QTimer
    from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton, QVBoxLayout, QWidget

    app = QApplication(sys.argv[:1])
    win = QWidget()
    win.setWindowTitle(args.title)
    layout = QVBoxLayout(win)
    field = QLineEdit(win)
    field.setAccessibleName("Password")
    layout.addWidget(field)
    buttons = []
    for label in args.buttons:
        b = QPushButton(label, win)
        b.clicked.connect(lambda _=False, t=label: say("clicked", t))
        layout.addWidget(b)
        buttons.append((label, b))
    win.setGeometry(args.x, args.y, 320, 60 + 40 * len(buttons))
    win.show()
    field.setFocus()

    def centre(w) -> str:
        p = w.mapToGlobal(QPoint(w.width() // 2, w.height() // 2))
        return f"{p.x()},{p.y()}"

    def announce() -> None:
        say("ready", *(f"{label.replace(' ', '_')}={centre(b)}" for label, b in buttons), f"field={centre(field)}")

    QTimer.singleShot(400, announce)
    return app.exec()


def _canvas(args: argparse.Namespace) -> int:
    import tkinter

    root = tkinter.Tk()
    root.title(args.title)
    height = 30 + 60 * len(args.buttons)
    root.geometry(f"360x{height}+{args.x}+{args.y}")
    canvas = tkinter.Canvas(root, width=360, height=height, background="white", highlightthickness=0)
    canvas.pack()
    centres = []
    for i, label in enumerate(args.buttons):
        top = 15 + 60 * i
        canvas.create_rectangle(40, top, 320, top + 44, fill="#e8e8e8", outline="#555555")
        canvas.create_text(180, top + 22, text=label, font=("DejaVu Sans", 16), fill="black")
        centres.append((label, 180, top + 22))

    def press(event) -> None:
        for label, cx, cy in centres:
            if abs(event.x - cx) <= 140 and abs(event.y - cy) <= 22:
                say("clicked", label)

    canvas.bind("<Button-1>", press)

    def announce() -> None:
        ox, oy = canvas.winfo_rootx(), canvas.winfo_rooty()
        say("ready", *(f"{label.replace(' ', '_')}={ox + cx},{oy + cy}" for label, cx, cy in centres))

    root.after(500, announce)
    root.mainloop()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--toolkit", choices=("qt", "canvas"), default="qt")
    ap.add_argument("--title", default="buttons")
    ap.add_argument("--x", type=int, default=200)
    ap.add_argument("--y", type=int, default=150)
    ap.add_argument("--buttons", nargs="+", default=["Delete account", "Next"])
    args = ap.parse_args()
    return _qt(args) if args.toolkit == "qt" else _canvas(args)


if __name__ == "__main__":
    sys.exit(main())
