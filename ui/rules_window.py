"""The rules window: a person's allow rules ("Always allow this" and hand-written ones) and "always ask"
rules (`[[ask]]`, "Always ask for this host"), each with what it does, what it matches and when it was
added, a way to remove one, and a test box: paste an action, see which rule decides it. Widgets only:
reading and writing the policy file, and reloading the supervisor, are the model's (app.ports.RulesModel;
app/root/policy_files.py adapts app/user_policy.py to it)."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.ports import RulesModel
from ui.describe import describe_rule
from ui.policy_labels import add_status_and_location
from ui.qtcompat import emit

__all__ = ["RulesWindow"]

_KIND_ROLE = Qt.ItemDataRole.UserRole + 1  # a row's kind: allow | ask
_DOES = {"allow": "Allows", "ask": "Always asks"}
_KIND_OF_ID = {"allow": "allow", "confirm": "ask"}  # the decision id's first part → the rule's kind


class RulesWindow(QDialog):
    removed = Signal(str)  # rule id

    def __init__(self, model: RulesModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setWindowTitle("deskgate — your rules")
        self.setMinimumSize(760, 360)
        root = QVBoxLayout(self)
        root.setContentsMargins(16, 16, 16, 16)
        root.setSpacing(10)

        title = QLabel("Actions deskgate allows without asking, and actions it always asks about")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        title.setFont(font)
        root.addWidget(title)
        intro = QLabel("An allow rule lets one kind of action through without a confirmation; an ask rule "
                       "makes deskgate ask about it every time, even where an allow rule matches. A block is "
                       "never overridden, and an allow rule never applies to chained or piped shell commands. "
                       "Remove a rule and deskgate asks (or lets through) as before.")
        intro.setWordWrap(True)
        root.addWidget(intro)

        self.table = QTableWidget(0, 4)
        self.table.setObjectName("rules")
        self.table.setHorizontalHeaderLabels(["Rule", "Does", "Matches", "Added"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(True)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        root.addWidget(self.table, 1)

        self.empty = QLabel("No rules yet. Choose “Always allow this” or “Always ask for this host” in a "
                            "confirmation to add one.")
        self.empty.setObjectName("empty")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        root.addWidget(self.empty)

        self._add_test_box(root)
        self.status, self.where = add_status_and_location(self, root)

        buttons = QHBoxLayout()
        self.remove_button = QPushButton("Remove rule")
        self.remove_button.setObjectName("remove")
        self.remove_button.setEnabled(False)
        self.remove_button.clicked.connect(self.remove_selected)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        root.addLayout(buttons)
        self.reload()

    # -- the test box: paste an action, see which rule decides ------------------------------------------

    def _add_test_box(self, root: QVBoxLayout) -> None:
        box = QGroupBox("Test an action")
        box.setObjectName("test_box")
        layout = QVBoxLayout(box)
        row = QHBoxLayout()
        self.test_input = QLineEdit()
        self.test_input.setObjectName("test_input")
        self.test_input.setPlaceholderText("Paste a shell command, a web address or a JSON action")
        self.test_input.returnPressed.connect(self.run_test)
        self.test_app = QLineEdit()
        self.test_app.setObjectName("test_app")
        self.test_app.setPlaceholderText("Active app")
        self.test_app.setToolTip("The app a click or a key press would land in (rules with `app` match it)")
        self.test_app.setMaximumWidth(190)
        self.test_app.returnPressed.connect(self.run_test)
        self.test_button = QPushButton("Test")
        self.test_button.setObjectName("test")
        self.test_button.setAutoDefault(False)
        self.test_button.clicked.connect(self.run_test)
        row.addWidget(self.test_input, 1)
        row.addWidget(self.test_app)
        row.addWidget(self.test_button)
        layout.addLayout(row)
        self.test_result = QLabel("")
        self.test_result.setObjectName("test_result")
        self.test_result.setWordWrap(True)
        self.test_result.setTextFormat(Qt.TextFormat.RichText)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.test_result.setVisible(False)
        layout.addWidget(self.test_result)
        root.addWidget(box)

    def run_test(self) -> None:
        """Judge the pasted action under the policy file and say which rule decides it."""
        try:
            got = self.model.test(self.test_input.text(), self.test_app.text())
        except Exception as err:  # not an action, or an unreadable policy: say so
            self._show_test(f"<i>{html.escape(str(err))}</i>")
            return
        verb = {"allow": "Allowed without asking", "confirm": "Asks you", "block": "Blocked"}.get(got.decision,
                                                                                                  got.decision)
        color = {"allow": "#2e7d32", "confirm": "#b26a00", "block": "#c62828"}.get(got.decision, "")
        by = got.decided_by
        if by.startswith(("allow.policy.", "confirm.policy.")):
            who = f"your rule “{html.escape(by.split('.', 2)[2])}”"
        elif by:
            who = f"the built-in rule <code>{html.escape(by)}</code>"
        else:
            who = "no rule (the policy's default for this action type)"
        lines = [f"<b style='color:{color}'>{verb}</b> — decided by {who}",
                 f"{html.escape(got.action)}: {html.escape(got.reason)}"]
        mine = [r.split(".", 2)[2] for r in got.yours]
        if mine:
            decisive = by in got.yours
            note = "" if decisive else (" — a block comes first: no rule ever overrides a block"
                                        if got.decision == "block" else " — another rule decides first")
            lines.append("Your rules that match: " + ", ".join(f"“{html.escape(m)}”" for m in mine) + note)
            self._mark_rows({(_KIND_OF_ID[r.split(".", 1)[0]], r.split(".", 2)[2]) for r in got.yours})
        else:
            lines.append("None of your rules match this action.")
            self._mark_rows(set())
        self._show_test("<br>".join(lines))

    def _show_test(self, markup: str) -> None:
        self.test_result.setText(markup)
        self.test_result.setVisible(True)

    def _mark_rows(self, rules: set[tuple[str, str]]) -> None:
        """Select the row of the first rule ((kind, id)) that matches the tested action."""
        self.table.clearSelection()
        for r in range(self.table.rowCount()):
            if self._row_rule(r) in rules:
                self.table.selectRow(r)
                break

    def _row_rule(self, row: int) -> tuple[str, str]:
        """(kind, id) of the rule in `row`."""
        item = self.table.item(row, 0)
        return str(item.data(_KIND_ROLE)), item.text()

    def reload(self) -> None:
        try:
            rows = self.model.rules()
            self.where.setText(f"Stored in {self.model.location()}")
        except Exception as err:  # an unreadable file: say so, show nothing stale
            rows = []
            self._say(f"The policy file cannot be read: {err}")
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate((row.id, _DOES.get(row.kind, row.kind), describe_rule(row.fields),
                                      row.added or "—")):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                item.setData(Qt.ItemDataRole.UserRole, row.id)
                item.setData(_KIND_ROLE, row.kind)
                if c == 1 and row.kind == "ask":
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()
        self.table.setVisible(bool(rows))
        self.empty.setVisible(not rows)
        self._selection_changed()

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def rule_ids(self) -> list[str]:
        return [self.table.item(r, 0).text() for r in range(self.table.rowCount())]

    def rule_kinds(self) -> list[str]:
        """Each row's kind (allow | ask), in the order of rule_ids()."""
        return [self._row_rule(r)[0] for r in range(self.table.rowCount())]

    def select(self, rule_id: str, kind: str | None = None) -> None:
        for r in range(self.table.rowCount()):
            row_kind, row_id = self._row_rule(r)
            if row_id == rule_id and kind in (None, row_kind):
                self.table.selectRow(r)
                return

    def _selected(self) -> tuple[str, str] | None:
        rows = self.table.selectionModel().selectedRows()
        return self._row_rule(rows[0].row()) if rows else None

    def _selection_changed(self) -> None:
        self.remove_button.setEnabled(self._selected() is not None)

    def remove_selected(self) -> None:
        selected = self._selected()
        if selected is None:
            return
        kind, rule_id = selected
        try:
            self.model.remove(rule_id, kind)
        except Exception as err:
            self._say(f"Rule {rule_id} was not removed: {err}")
            return
        self._say(f"Removed rule {rule_id}: " + ("deskgate no longer always asks about what it matched."
                                                 if kind == "ask" else "deskgate asks again for what it allowed."))
        self.reload()
        emit(self.removed, rule_id)
