"""The two labels under the rules and settings windows: a status line and where the policy file is."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ui.theme import muted_text

__all__ = ["add_status_and_location"]


def add_status_and_location(owner: QWidget, root: QVBoxLayout) -> tuple[QLabel, QLabel]:
    """Add (status, where) to `root`: the status hidden until it has something to say, the policy file's
    location selectable in the palette's quiet tone (readable in light and dark mode)."""
    status = QLabel("")
    status.setObjectName("status")
    status.setWordWrap(True)
    status.setTextFormat(Qt.TextFormat.PlainText)
    status.setVisible(False)
    root.addWidget(status)
    where = QLabel("")
    where.setObjectName("where")
    where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    where.setStyleSheet(f"color: {muted_text(owner.palette())};")
    root.addWidget(where)
    return status, where
