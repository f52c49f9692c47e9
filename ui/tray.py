"""The tray icon: a thin shell over a `TrayModel` (the composition root adapts the supervisor to it).

The menu is rebuilt every time it is about to show, from one `snapshot()`, so it never shows stale
grants or decisions; the icon and tooltip follow `refresh()`, which the composition root calls when the
supervisor reports a change. Nothing here decides anything: every action goes back to the model.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from app.ports import GrantView, RecentDecision, TrayModel, TraySnapshot, Verdict, frozen_notice
from ui.icons import state_icon
from ui.qtcompat import emit

__all__ = ["GrantView", "RecentDecision", "Tray", "TrayModel", "TraySnapshot"]

_STATE_TEXT = {
    "active": "active",
    "asking": "waiting for you",
    "paused": "paused",
    "killed": "stopped (kill switch)",
}
_VERDICT_MARK = {Verdict.EXECUTED: "✓", Verdict.ALLOWED: "✓", Verdict.APPROVED: "✓", Verdict.DENIED: "✗",
                 Verdict.DEFERRED: "?", Verdict.ERROR: "!"}


def _menu_text(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("&", "&&")  # an agent's "&" must not become a keyboard mnemonic


def _expiry(seconds: float | None) -> str:
    if seconds is None:
        return "this session"
    minutes, secs = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{secs:02d} left"


class Tray(QSystemTrayIcon):
    notified = Signal(str, str)  # title, message (also shown as a tray balloon)

    def __init__(self, model: TrayModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.state = ""
        self.menu = QMenu()
        self.menu.aboutToShow.connect(self.rebuild_menu)
        self.setContextMenu(self.menu)
        self.refresh()
        self.rebuild_menu()

    # -- icon and tooltip ----------------------------------------------------------------------

    def refresh(self) -> None:
        snap = self.model.snapshot()
        if snap.state != self.state:
            self.state = snap.state
            self.setIcon(state_icon(snap.state))
        self.setToolTip(self._tooltip(snap))

    @staticmethod
    def _tooltip(snap: TraySnapshot) -> str:
        lines = [f"deskgate — {_STATE_TEXT.get(snap.state, snap.state)}"]
        if snap.reason and snap.state in ("paused", "killed"):
            lines.append(snap.reason)
        lines.append("Agents: " + (", ".join(snap.agents) if snap.agents else "none connected"))
        lines.append(f"Today: {snap.allowed} allowed, {snap.asked} asked, {snap.blocked} blocked")
        if snap.frozen:
            lines.append(frozen_notice(snap.frozen))
        return "\n".join(lines)

    # -- menu ----------------------------------------------------------------------------------

    def _add(self, menu: QMenu, text: str, slot: Callable[[], object] | None = None) -> QAction:
        action = menu.addAction(text)
        action.setEnabled(slot is not None)  # information lines are shown greyed out
        if slot is not None:
            action.triggered.connect(lambda _=False: slot())
        return action

    def rebuild_menu(self) -> None:
        snap = self.model.snapshot()
        m = self.menu
        m.clear()
        self.refresh()
        header = self._add(m, f"deskgate — {_STATE_TEXT.get(snap.state, snap.state)}")
        header.setIcon(state_icon(snap.state))
        agents = ", ".join(snap.agents) if snap.agents else "no agent connected"
        self._add(m, _menu_text(f"Agents: {agents}"))
        self._add(m, f"Today: {snap.allowed} allowed · {snap.asked} asked · {snap.blocked} blocked")
        m.addSeparator()

        model = self.model
        if snap.state == "killed":
            self._add(m, "Resume after kill", model.resume_after_kill)
        else:
            if snap.state == "paused":
                self._add(m, "Resume", model.resume)
            else:
                self._add(m, "Pause agents", model.pause)
            self._add(m, "Stop all agents now (kill switch)", model.kill)
            if snap.agents:  # a working agent near its step, rate or time limit: let it go on
                self._add(m, "Raise limits for the running agents (steps, rate, time)", model.raise_limits)
        if snap.frozen:  # apps the agent opened, stopped at the kill: the person's to resume or end
            m.addSeparator()
            info = self._add(m, _menu_text(frozen_notice(snap.frozen), 90))
            info.setObjectName("frozen")
            them = "it" if len(snap.frozen) == 1 else "them"
            self._add(m, f"Resume {them} (let the frozen apps go on)", model.resume_frozen)
            self._add(m, f"End {them} (close the frozen apps)", model.end_frozen)
        m.addSeparator()

        m.addSection(f"Active approvals ({len(snap.grants)})")
        if not snap.grants:
            self._add(m, "none")
        for g in snap.grants:
            self._add(m, _menu_text(f"Revoke: {g.summary} — {g.agent}, {_expiry(g.expires_in_s)}"),
                      lambda gid=g.id: model.revoke(gid))

        m.addSeparator()
        recent = m.addMenu("Recent decisions")
        recent.setObjectName("recent")
        if not snap.recent:
            self._add(recent, "none yet")
        for d in snap.recent[:10]:
            when = time.strftime("%H:%M:%S", time.localtime(d.when))
            mark = _VERDICT_MARK.get(d.verdict, "?")
            self._add(recent, _menu_text(f"{mark} {when}  {d.agent}: {d.summary} — {d.verdict}", 90),
                      lambda did=d.id: model.open_viewer(did))
        m.addSeparator()
        self._add(m, "Open audit log…", lambda: model.open_viewer(None))
        self._add(m, "Allow rules…", model.open_rules)
        self._add(m, "Settings…", model.open_settings)
        self._add(m, "Open policy file…", model.open_policy)
        self._add(m, "Reload policy", model.reload_policy)
        self._add(m, "About deskgate", model.about)
        self._add(m, "Quit", model.quit)

    # -- notifications -------------------------------------------------------------------------

    def notify(self, title: str, message: str, *, critical: bool = False) -> None:
        icon = QSystemTrayIcon.MessageIcon.Critical if critical else QSystemTrayIcon.MessageIcon.Warning
        self.showMessage(title, message, icon, 8000)
        emit(self.notified, title, message)

    def notify_blocked(self, agent: str, summary: str, reason: str) -> None:
        self.notify(f"deskgate blocked {agent}", f"{summary}\n{reason}")

    def notify_killed(self, reason: str) -> None:
        self.refresh()
        self.notify("deskgate stopped all agents", reason or "kill switch", critical=True)
