"""The confirmation dialog: shows one action (or a plan) and fails closed.

- Deny is the default and focused button; Enter always means Deny.
- The other buttons stay disabled until the dialog has been visible for `arm_delay_s`, so keystrokes a
  person was typing elsewhere cannot approve anything.
- Esc, closing the window and the end of the countdown all deny (DENY / TIMEOUT).
- A mouse press anywhere on the dialog stops the countdown (the person is reading); with `hold_s` set,
  a later hard limit still denies.
- Stays on top. Every agent-supplied string is shown as plain text (a label never renders agent HTML).
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QColor, QKeyEvent, QMouseEvent, QPaintEvent, QPixmap, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.ports import Answer, ApprovalRequest
from gate.model import Decision
from ui.describe import (
    describe_action,
    describe_rule,
    diff_html,
    file_diff,
    headline,
    hidden_fields,
    secret_length,
    shell_command_text,
    shell_highlight,
    target_source,
    typed_text,
    url_html,
)
from ui.icons import state_pixmap
from ui.qtcompat import emit
from ui.theme import (
    decision_badge_color,
    decision_color,
    diff_colors,
    muted_text,
    risk_badge_html,
    risk_color,
    warning_color,
)

__all__ = ["ConfirmDialog"]

_TICK_MS = 50
_PREVIEW_MAX = (560, 300)
_FILE_TYPES = ("file_read", "file_write", "file_delete", "file_move")


def _plain(text: str, *, wrap: bool = True, selectable: bool = True) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # agent text is never interpreted as HTML
    label.setWordWrap(wrap)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _rich(markup: str) -> QLabel:
    label = QLabel(markup)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    return label


class _CodeBox(QTextBrowser):
    """Read-only text that wraps anywhere (long paths, commands) and grows to its content, up to a limit."""

    def __init__(self, *, max_lines: int = 8, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setOpenLinks(False)
        self.setWordWrapMode(self.wordWrapMode().WrapAtWordBoundaryOrAnywhere)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._max_px = self.fontMetrics().lineSpacing() * max_lines + 14
        self.document().documentLayout().documentSizeChanged.connect(self.fit)

    def fit(self, *_: object) -> None:
        wanted = int(self.document().size().height()) + 2 * self.frameWidth() + 6
        self.setFixedHeight(max(self.fontMetrics().lineSpacing() + 14, min(wanted, self._max_px)))


class ConfirmDialog(QDialog):
    """Ask a person about one request. Emits `answered(Answer)` exactly once."""

    answered = Signal(object)          # Answer
    countdown_stopped = Signal()       # a person pressed the mouse on the dialog
    first_painted = Signal()           # for the latency benchmark: the dialog reached the screen

    def __init__(self, request: ApprovalRequest, *, arm_delay_s: float, timeout_s: float,
                 clock: Callable[[], float] | None = None, hold_s: float | None = None,
                 grant_minutes: int = 5, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.answer: Answer | None = None
        self._clock = clock or time.monotonic
        self._arm_delay_s = max(0.0, float(arm_delay_s))
        self._timeout_s = max(0.0, float(timeout_s))
        self._hold_s = hold_s
        self._start = self._clock()
        self._deadline: float | None = self._start + self._timeout_s
        self._armed = False
        self._countdown_running = True
        self._painted = False
        self._blocked = request.assessment.decision is Decision.BLOCK or any(
            a.decision is Decision.BLOCK for _, a in request.plan)

        self.setWindowTitle("deskgate — confirm action" if not request.plan else "deskgate — confirm plan")
        self.setWindowFlags(Qt.WindowType.Dialog | Qt.WindowType.WindowStaysOnTopHint
                            | Qt.WindowType.WindowTitleHint | Qt.WindowType.WindowCloseButtonHint
                            | Qt.WindowType.CustomizeWindowHint)
        self.setModal(False)  # the agent waits, not the person's other windows
        self.setMinimumWidth(680)
        self.setMaximumWidth(900)
        self._build(grant_minutes)
        self.set_queued(request.queued)
        for child in self.findChildren(QWidget):  # a press on any child is a press on the dialog
            child.installEventFilter(self)
        self._timer = QTimer(self)
        self._timer.setInterval(_TICK_MS)
        self._timer.timeout.connect(self.tick)
        self._timer.start()
        self._update_countdown(self._start)
        # Word-wrapped labels overestimate their height at the size hint's width; size for the real width.
        layout = self.layout()
        layout.activate()
        width = max(self.minimumWidth(), min(self.sizeHint().width(), self.maximumWidth()))
        margins = layout.contentsMargins()
        for box in self.findChildren(_CodeBox):  # lay the text out at the width it will get
            box.document().setTextWidth(width - margins.left() - margins.right() - 2 * box.frameWidth())
            box.fit()
        layout.activate()
        self.resize(width, layout.totalHeightForWidth(width))

    # -- layout ----------------------------------------------------------------------------------

    def _build(self, grant_minutes: int) -> None:
        req, a = self.request, self.request.assessment
        root = QVBoxLayout(self)
        root.setSpacing(8)

        head = QHBoxLayout()
        icon = QLabel()
        icon.setPixmap(state_pixmap("asking", 40))
        head.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        title_box = QVBoxLayout()
        who = _plain(f"{req.agent or 'An agent'} wants to:")
        who.setObjectName("agent")
        title_box.addWidget(who)
        plan_text = f"Run a plan of {len(req.plan)} steps"
        self.action_label = _plain(plan_text if req.plan else headline(req.action, req.observation, a.redact))
        self.action_label.setObjectName("action")
        font = self.action_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.action_label.setFont(font)
        title_box.addWidget(self.action_label)
        head.addLayout(title_box, 1)
        self.risk_label = _rich(risk_badge_html(a.risk))
        self.risk_label.setObjectName("risk")
        head.addWidget(self.risk_label, 0, Qt.AlignmentFlag.AlignTop)
        root.addLayout(head)

        if req.intent:
            intent = _plain(f"Stated intent: “{req.intent}”")
            intent.setObjectName("intent")
            intent.setStyleSheet("font-style: italic;")
            root.addWidget(intent)

        obs = req.observation
        window = " — ".join(p for p in (obs.app, obs.window_title) if p) or "unknown"
        active = _plain(f"Active window: {window}")
        active.setObjectName("window")
        root.addWidget(active)
        source = None if req.plan else target_source(req.action, obs)
        if source:
            read = _plain(source)
            read.setObjectName("source")
            read.setStyleSheet(f"color: {muted_text()};")
            root.addWidget(read)

        if req.plan:
            root.addWidget(self._plan_table())
        else:
            self._add_details(root)

        why = _rich(f'<span style="color:{risk_color(a.risk)}; font-weight:bold;">Why:</span> '
                    f"{html.escape(a.reason)}")
        why.setObjectName("reason")
        root.addWidget(why)
        if a.rules:
            rules = _plain("Rules: " + ", ".join(a.rules))
            rules.setObjectName("rules")
            rules.setStyleSheet(f"color: {muted_text()}; font-family: monospace;")
            root.addWidget(rules)
        factors = [f"{h.reason} ({h.risk.label})" for h in a.hits if h.reason and h.reason != a.reason]
        if factors and self.request.action.get("type") != "shell":  # shell lists them with its factors
            root.addWidget(_plain("Also: " + "; ".join(factors)))

        root.addStretch(1)  # spare height goes here, not between the lines above
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        root.addWidget(line)

        self.queued_label = _plain("", selectable=False)
        self.queued_label.setObjectName("queued")
        self.queued_label.setStyleSheet(f"color: {decision_color('confirm')}; font-weight: bold;")
        root.addWidget(self.queued_label)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(True)
        root.addWidget(self.progress)

        buttons = QHBoxLayout()
        self.deny_button = QPushButton("Deny")
        self.deny_button.setDefault(True)
        self.deny_button.setAutoDefault(True)
        self.deny_button.clicked.connect(lambda: self.finish(Answer.DENY))
        self.stop_button = QPushButton("Deny && stop agent")
        self.stop_button.clicked.connect(lambda: self.finish(Answer.DENY_AND_STOP))
        self.stop_button.setAutoDefault(False)
        buttons.addWidget(self.deny_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        self.approve_buttons: list[QPushButton] = []
        choices = [("Approve all" if req.plan else "Approve once", Answer.APPROVE_ONCE)]
        if req.grantable and not req.plan:  # only where a standing approval can cover a repeat of it
            choices += [(f"Approve for {grant_minutes} min", Answer.APPROVE_5_MIN),
                        ("Approve for session", Answer.APPROVE_SESSION)]
        navigate = req.action.get("type") == "navigate"
        if req.allow_rule and not req.plan:
            # a navigation's rule is the exact host: said so, beside the separate "and its subdomains"
            choices.append(("Always allow this host" if navigate else "Always allow this", Answer.ALWAYS_ALLOW))
        if req.network and not req.plan:
            choices.append(("Approve with network", Answer.APPROVE_NETWORK))
        if req.wider_rule and req.wider_label and not req.plan:
            choices.append((req.wider_label, Answer.ALLOW_WIDER))
        if req.ask_rule and not req.plan:
            choices.append(("Always ask for this host", Answer.ALWAYS_ASK))
        # more choices than fit one row: the ones that write a standing rule go on a row of their own
        standing = (Answer.ALWAYS_ALLOW, Answer.ALLOW_WIDER, Answer.ALWAYS_ASK)
        rules_row: QHBoxLayout | None = None
        if len(choices) > 4 and any(answer in standing for _, answer in choices):
            rules_row = QHBoxLayout()
            rules_row.addStretch(1)
        for text, answer in choices:
            b = QPushButton(text)
            b.setAutoDefault(False)   # Enter never lands on an approve button
            b.setEnabled(False)       # until armed
            b.setProperty("answer", answer.value)
            b.clicked.connect(lambda _=False, ans=answer: self._approve(ans))
            (rules_row if rules_row is not None and answer in standing else buttons).addWidget(b)
            self.approve_buttons.append(b)
        if req.allow_rule and not req.plan:
            always = next(b for b in self.approve_buttons if b.property("answer") == Answer.ALWAYS_ALLOW.value)
            always.setObjectName("always")
            text = describe_rule(req.allow_rule)
            always.setToolTip(f"Adds an allow rule to your policy file: {text}. "
                              "You can see and remove it under “Allow rules…” in the tray menu.")
            rule_note = _plain(f"“{always.text()}” adds a rule: {text}", selectable=False)
            rule_note.setObjectName("rule_note")
            rule_note.setEnabled(False)  # the palette's disabled text: a quiet note in light and dark mode
            root.addWidget(rule_note)
        if req.network and not req.plan:
            net = next(b for b in self.approve_buttons if b.property("answer") == Answer.APPROVE_NETWORK.value)
            net.setObjectName("network")
            net.setToolTip(f"Run it once with the network on: {req.network} downloads or talks to a server. "
                           "Without it the command runs in deskgate's fence with no network and fails.")
            net_note = _plain(f"{req.network} needs the network: “Approve once” runs it without, "
                              "“Approve with network” with it.", selectable=False)
            net_note.setObjectName("network_note")
            net_note.setEnabled(False)
            root.addWidget(net_note)
        if req.wider_rule and req.wider_label and not req.plan:
            wider = next(b for b in self.approve_buttons if b.property("answer") == Answer.ALLOW_WIDER.value)
            wider.setObjectName("wider")
            text = describe_rule(req.wider_rule)
            wider.setToolTip(f"Adds an allow rule to your policy file: {text}. Blocks still block; "
                             "you can remove it under “Allow rules…” in the tray menu.")
            wider_note = _plain(f"“{req.wider_label}” adds a rule: {text}", selectable=False)
            wider_note.setObjectName("wider_note")
            wider_note.setEnabled(False)
            root.addWidget(wider_note)
        if req.ask_rule and not req.plan:
            ask = next(b for b in self.approve_buttons if b.property("answer") == Answer.ALWAYS_ASK.value)
            ask.setObjectName("always_ask")
            host = str(req.ask_rule.get("host", ""))
            ask.setToolTip(f"Approves this once and adds an “always ask” rule to your policy file: every "
                           f"navigation to {host} asks you, even where an allow rule would let it through. "
                           "You can see and remove it under “Allow rules…” in the tray menu.")
            ask_note = _plain(f"“Always ask for this host” approves this once; from then on {host} always asks.",
                              selectable=False)
            ask_note.setObjectName("ask_note")
            ask_note.setEnabled(False)
            root.addWidget(ask_note)
        root.addLayout(buttons)  # last: the buttons sit at the dialog's bottom edge
        if rules_row is not None:
            root.addLayout(rules_row)
        if self._blocked:
            note = _plain("A blocked action can never be approved.", selectable=False)
            note.setStyleSheet(f"color: {warning_color()};")
            root.addWidget(note)
        self.deny_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _add_details(self, root: QVBoxLayout) -> None:
        req, a = self.request, self.request.assessment
        action = req.action
        kind = action.get("type")
        if req.preview_png:
            pix = QPixmap()
            if pix.loadFromData(req.preview_png, "PNG"):
                if pix.width() > _PREVIEW_MAX[0] or pix.height() > _PREVIEW_MAX[1]:
                    pix = pix.scaled(*_PREVIEW_MAX, Qt.AspectRatioMode.KeepAspectRatio,
                                     Qt.TransformationMode.SmoothTransformation)
                self.preview_label = QLabel()
                self.preview_label.setObjectName("preview")
                self.preview_label.setPixmap(pix)
                self.preview_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
                self.preview_label.setFrameShape(QFrame.Shape.StyledPanel)
                root.addWidget(self.preview_label)
            else:
                root.addWidget(_plain("(the preview image could not be read)"))
        if kind == "type":
            root.addWidget(_plain("Text to type:", selectable=False))
            box = _CodeBox(max_lines=4)
            box.setObjectName("typed")
            box.setPlainText(typed_text(action, a.redact))
            root.addWidget(box)
        elif kind == "shell":
            hidden = hidden_fields(action, a.redact)
            root.addWidget(_plain("Command:", selectable=False))
            box = _CodeBox(max_lines=8)
            box.setObjectName("command")
            if hidden & {"command", "argv"}:
                value = action.get("command", action.get("argv"))
                box.setPlainText(f"•••• ({secret_length(value)} characters, hidden)")
                factors: list[str] = []
            else:
                markup, factors = shell_highlight(shell_command_text(action), a.hits)
                box.setHtml(markup)
            root.addWidget(box)
            if factors:
                items = "".join(f"<li>{html.escape(f)}</li>" for f in factors[:8])
                lst = _rich(f"<b>Risk factors:</b><ul style='margin-top:0px;'>{items}</ul>")
                lst.setObjectName("factors")
                root.addWidget(lst)
            if action.get("env"):
                names = ", ".join(sorted(action["env"]))
                root.addWidget(_plain(f"Environment: {names} (values hidden)"))
        elif kind in _FILE_TYPES:
            box = _CodeBox(max_lines=3)
            box.setObjectName("path")
            text = str(action.get("path", ""))
            if kind == "file_move":
                text += f"\n→ {action.get('to', '')}"
            box.setPlainText(text)
            root.addWidget(box)
            content = action.get("content")
            shown = isinstance(content, str) and "content" not in hidden_fields(action, a.redact)
            if kind == "file_write" and shown:
                diff = file_diff(str(action.get("path", "")), content)
                if diff is not None:
                    root.addWidget(_plain("Changes:", selectable=False))
                    box = _CodeBox(max_lines=14)
                    box.setObjectName("diff")
                    box.setHtml(diff_html(diff, diff_colors(self.palette())))
                else:
                    root.addWidget(_plain("New file content:" if len(content) <= 4000 else
                                          f"New file content (first 4000 of {len(content)} characters):",
                                          selectable=False))
                    box = _CodeBox(max_lines=14)
                    box.setObjectName("content")
                    box.setPlainText(content[:4000])
                root.addWidget(box)
        if kind == "navigate" or (kind != "shell" and action.get("url")):
            markup, host = url_html(str(action.get("url", "")))
            box = _CodeBox(max_lines=3)
            box.setObjectName("url")
            box.setHtml(markup)
            root.addWidget(box)
            host_label = _rich("Site: " + (f'<b style="font-size:large;">{html.escape(host)}</b>' if host
                                           else f'<b style="color:{warning_color()};">no host (not a web address)</b>'))
            host_label.setObjectName("host")
            root.addWidget(host_label)
        if kind in ("system", "tool", "open_app"):
            data = action.get("params") if kind == "system" else action.get("input")
            if data and not hidden_fields(action, a.redact) & {"params", "input"}:
                box = _CodeBox(max_lines=6)
                box.setObjectName("params")
                box.setPlainText(json.dumps(data, indent=2, ensure_ascii=False, default=str)[:4000])
                root.addWidget(box)

    def _plan_table(self) -> QTableWidget:
        steps = self.request.plan
        table = QTableWidget(len(steps), 4)
        table.setObjectName("plan")
        table.setHorizontalHeaderLabels(["Step", "Decision", "Rules", "Reason"])
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        table.setWordWrap(True)
        table.verticalHeader().setVisible(True)
        for row, (action, assessment) in enumerate(steps):
            cells = [describe_action(action, assessment.redact), assessment.decision.value,
                     ", ".join(assessment.rules) or "—", assessment.reason]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 1:
                    item.setForeground(Qt.GlobalColor.white)
                    item.setBackground(QColor(decision_badge_color(assessment.decision)))
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setToolTip(text)
                table.setItem(row, col, item)
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        table.setColumnWidth(2, 150)
        table.resizeRowsToContents()
        rows_h = sum(table.rowHeight(r) for r in range(min(len(steps), 8)))
        table.setMinimumHeight(min(rows_h + header.height() + 6, 320))
        return table

    # -- state -------------------------------------------------------------------------------------

    @property
    def armed(self) -> bool:
        return self._armed

    @property
    def countdown_running(self) -> bool:
        return self._countdown_running

    def set_queued(self, n: int) -> None:
        self.queued_label.setText(f"{n} more request{'s' if n != 1 else ''} waiting" if n > 0 else "")
        self.queued_label.setVisible(n > 0)

    def tick(self) -> None:
        """Advance arming and the countdown from the clock (the QTimer calls this; tests may too)."""
        if self.answer is not None:
            return
        now = self._clock()
        if not self._armed and now - self._start >= self._arm_delay_s:
            self._arm()
        if self._deadline is not None and now >= self._deadline:
            self.finish(Answer.TIMEOUT)
            return
        self._update_countdown(now)

    def _arm(self) -> None:
        self._armed = True
        if not self._blocked:
            for b in self.approve_buttons:
                b.setEnabled(True)

    def _update_countdown(self, now: float) -> None:
        if self._deadline is None:
            self.progress.setValue(0)
            self.progress.setFormat("Countdown stopped — take your time")
            return
        total = self._timeout_s if self._countdown_running else float(self._hold_s or 0.0)
        left = max(0.0, self._deadline - now)
        self.progress.setValue(int(1000 * left / total) if total > 0 else 0)
        secs = int(left + 0.999)
        if self._countdown_running:
            self.progress.setFormat(f"Denies automatically in {secs} s")
        else:
            latest = f"{secs // 60}:{secs % 60:02d}"
            self.progress.setFormat(f"Countdown stopped — denies in {latest} at the latest")

    def stop_countdown(self) -> None:
        if not self._countdown_running or self.answer is not None:
            return
        self._countdown_running = False
        now = self._clock()
        self._deadline = now + self._hold_s if self._hold_s is not None else None
        self._update_countdown(now)
        emit(self.countdown_stopped)

    def _approve(self, answer: Answer) -> None:
        # Belt and braces: a disabled button cannot be clicked, but never approve unarmed or blocked.
        if self._armed and not self._blocked:
            self.finish(answer)

    def finish(self, answer: Answer) -> None:
        """Record the answer once, emit it and close. Later calls are ignored."""
        if self.answer is not None:
            return
        if answer.approved and (not self._armed or self._blocked):
            answer = Answer.DENY
        self.answer = answer
        self._timer.stop()
        emit(self.answered, answer)
        super().done(QDialog.DialogCode.Accepted if answer.approved else QDialog.DialogCode.Rejected)

    # -- events: every way out that is not an approve button denies ----------------------------------

    def reject(self) -> None:  # Esc
        self.finish(Answer.DENY)

    def done(self, code: int) -> None:
        if self.answer is None:
            self.finish(Answer.DENY)
        else:
            super().done(code)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.answer is None:
            self.finish(Answer.DENY)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape):
            self.finish(Answer.DENY)
            event.accept()
            return
        super().keyPressEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress:
            self.stop_countdown()
        return False

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.stop_countdown()
        super().mousePressEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        # Arming and the countdown count from when the person can see the dialog.
        if not self._painted and self.answer is None:
            self._start = self._clock()
            if self._countdown_running:
                self._deadline = self._start + self._timeout_s
        super().showEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            emit(self.first_painted)
