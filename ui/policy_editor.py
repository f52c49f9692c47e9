"""A small built-in editor for the user's policy file: the tray's "Open policy file…" needs no xdg-open.

The file is validated with gate.policy before it is written: a policy that would not load is never
saved, the error is shown and the cursor goes to its line. A good save replaces the file atomically
(0600) and calls `on_saved`, which reloads the policy in the running supervisor.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QFontDatabase, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from gate.policy import PolicyError, load_policy
from ui.theme import decision_color

__all__ = ["PolicyEditor", "validate_policy_text"]


def validate_policy_text(text: str, name: str, preset: str | None = None) -> PolicyError | None:
    """The error loading `text` as a policy file would give (None: it loads). `name` is shown in errors."""
    fd, tmp = tempfile.mkstemp(prefix=".deskgate-policy-", suffix=".toml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        load_policy(tmp, preset)
    except PolicyError as err:
        # name the user's file, not the scratch copy
        return PolicyError(str(err).replace(tmp, name), source=name, key=err.key, line=err.line)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return None


class PolicyEditor(QWidget):
    """Edit, validate and save one policy file."""

    def __init__(self, path: Path, *, preset: str | None = None, template: str = "",
                 on_saved: Callable[[], None] | None = None, write: Callable[[Path, str], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.path = Path(path)
        self.write = write  # atomic, 0600 (app.user_policy.write_atomic): a crash never leaves half a policy
        self.preset = preset
        self.on_saved = on_saved
        self.setWindowTitle(f"deskgate policy — {self.path.name}")
        self.resize(760, 560)
        where = QLabel(f"<b>{self.path}</b> — overlays the shipped policy; `deskgate policy show` prints "
                       "every key. Saved only if it is valid.", self)
        where.setObjectName("path")
        where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        where.setWordWrap(True)
        self.editor = QPlainTextEdit(self)
        self.editor.setObjectName("text")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = template
        self.editor.setPlainText(text)
        self.editor.document().setModified(False)
        self.status = QLabel("", self)
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close,
                                   parent=self)
        buttons.button(QDialogButtonBox.StandardButton.Save).clicked.connect(self.save)
        buttons.button(QDialogButtonBox.StandardButton.Close).clicked.connect(self.close)
        QShortcut(QKeySequence.StandardKey.Save, self, activated=self.save)
        layout = QVBoxLayout(self)
        layout.addWidget(where)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

    def save(self) -> bool:
        """Validate, then write. Returns True when the file was saved."""
        text = self.editor.toPlainText()
        error = validate_policy_text(text, str(self.path), self.preset)
        if error is not None:
            self._say(f"Not saved: {error}", ok=False)
            if error.line:
                block = self.editor.document().findBlockByLineNumber(error.line - 1)
                cursor = QTextCursor(block)
                cursor.select(QTextCursor.SelectionType.LineUnderCursor)
                self.editor.setTextCursor(cursor)
                self.editor.setFocus()
            return False
        try:
            self.write(self.path, text)
        except OSError as err:
            self._say(f"Not saved: {err}", ok=False)
            return False
        self.editor.document().setModified(False)
        self._say(f"Saved {self.path}.", ok=True)
        if self.on_saved is not None:
            self.on_saved()
        return True

    def _say(self, text: str, *, ok: bool) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {decision_color('allow' if ok else 'block')};")

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.editor.document().isModified():
            answer = QMessageBox.question(self, "deskgate", "Discard the unsaved changes to the policy?",
                                          QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
                                          QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Discard:
                event.ignore()
                return
        super().closeEvent(event)
