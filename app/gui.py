"""`deskgate run`: the tray app. The one composition root outside ui/ that imports Qt.

It builds the same runtime as `deskgate serve` (app/cli/runtime.build_runtime) with the Qt dialog as
the approver, and bridges the supervisor to the widgets: supervisor notifications arrive on worker
threads and are re-emitted as a Qt signal, so widgets are only touched on the GUI thread.
"""

from __future__ import annotations

import argparse
import datetime
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QSystemTrayIcon

from app.cli.runtime import Runtime, build_runtime
from ui.approver import QtApprover
from ui.qtcompat import emit
from ui.rules_window import RuleRow, RulesWindow
from ui.settings import SettingsWindow
from ui.tray import GrantView, RecentDecision, Tray, TraySnapshot
from ui.viewer import AuditViewer

__all__ = ["SupervisorTrayModel", "run"]

log = logging.getLogger("deskgate.run")


class PolicyFileRules:
    """The rules window's model: the allow rules in the person's policy file; removing one reloads."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def location(self) -> str:
        return str(self.runtime.supervisor.policy_file)

    def rules(self) -> list[RuleRow]:
        from app.user_policy import list_allow_rules
        from ui.describe import describe_rule

        path = self.runtime.supervisor.policy_file
        if not path.exists():
            return []
        # "<when>: added by "Always allow this" for <what>" reads better in a table as "<when> — <what>"
        return [RuleRow(e.id, describe_rule(e.fields), e.comment.replace(': added by "Always allow this" for ', " — "))
                for e in list_allow_rules(path)]

    def remove(self, rule_id: str) -> None:
        from app.user_policy import remove_allow_rule

        sup = self.runtime.supervisor
        remove_allow_rule(sup.policy_file, rule_id)
        self.runtime.policy = sup.reload_policy(f"{sup.policy_file} (allow rule {rule_id} removed by person)")


class PolicyFileSettings:
    """The settings window's model: effective values from the policy; saving writes the file and reloads."""

    def __init__(self, runtime: Runtime, approver: QtApprover) -> None:
        self.runtime = runtime
        self.approver = approver

    def location(self) -> str:
        return str(self.runtime.supervisor.policy_file)

    def values(self) -> dict[str, Any]:
        from app.user_policy import read_settings

        return read_settings(self.runtime.supervisor.policy_file, self.runtime.preset)

    def save(self, values: Any) -> None:
        from app.user_policy import set_settings

        sup = self.runtime.supervisor
        set_settings(sup.policy_file, values)
        policy = sup.reload_policy(f"{sup.policy_file} (settings saved by person)")
        self.runtime.policy = policy
        self.approver.arm_delay_s = policy.approvals.arm_delay_s
        self.approver.grant_minutes = policy.approvals.grant_minutes


class _Bridge(QObject):
    """Supervisor events (any thread) → the GUI thread."""

    event = Signal(object)


class SupervisorTrayModel:
    """Adapts the supervisor and the audit log to the tray's `TrayModel` protocol."""

    def __init__(self, runtime: Runtime, approver: QtApprover, app: QApplication) -> None:
        self.runtime = runtime
        self.approver = approver
        self.app = app
        self.viewer: AuditViewer | None = None
        self.rules_window: RulesWindow | None = None
        self.settings_window: SettingsWindow | None = None
        self.policy_editor = None  # ui.policy_editor.PolicyEditor, made on first use
        self._lock = threading.Lock()
        self._day = ""
        self._counts = {"allow": 0, "confirm": 0, "block": 0}
        self._reset_counts_if_new_day()

    # -- what the tray shows -------------------------------------------------------------------

    def _midnight(self) -> float:
        today = datetime.datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
        return today.timestamp()

    def _reset_counts_if_new_day(self) -> None:
        day = datetime.date.today().isoformat()
        if day == self._day:
            return
        since = self._midnight()
        counts = {}
        for decision in self._counts:
            try:
                counts[decision] = self.runtime.audit.reader.count(decision=decision, since=since)
            except Exception:  # the tray must open even when the log cannot be read
                log.exception("cannot count today's decisions")
                counts[decision] = 0
        with self._lock:
            self._day, self._counts = day, counts

    def count_decision(self, decision: str) -> None:
        self._reset_counts_if_new_day()
        with self._lock:
            if decision in self._counts:
                self._counts[decision] += 1

    def snapshot(self) -> TraySnapshot:
        self._reset_counts_if_new_day()
        status = self.runtime.supervisor.status()
        state = status["state"]
        if state == "active" and (status.get("asking") or self.approver.pending()):
            state = "asking"
        recent = []
        try:
            for row in self.runtime.audit.reader.query(limit=10):
                recent.append(RecentDecision(id=row["id"], when=row["ts"], agent=row["agent"] or "",
                                             summary=row["summary"] or row["type"], decision=row["decision"],
                                             verdict=row["verdict"] or "pending"))
        except Exception:
            log.exception("cannot read recent decisions")
        grants = tuple(GrantView(id=g["id"], agent=g["agent"], summary=g["summary"], expires_in_s=g["expires_in_s"])
                       for g in status.get("grants", ()))
        with self._lock:
            counts = dict(self._counts)
        agents = tuple(sorted({s["agent"] for s in status.get("sessions", ())}))
        return TraySnapshot(state=state, agents=agents, allowed=counts["allow"], asked=counts["confirm"],
                            blocked=counts["block"], recent=tuple(recent), grants=grants,
                            reason=str(status.get("reason") or status.get("by") or ""))

    # -- what the tray asks for ----------------------------------------------------------------

    def pause(self) -> None:
        self.runtime.supervisor.pause("person (tray)")

    def resume(self) -> None:
        self.runtime.supervisor.unpause("person (tray)")

    def kill(self) -> None:
        self.runtime.supervisor.kill("kill switch (tray)", "person (tray)")

    def resume_after_kill(self) -> None:
        try:
            self.runtime.supervisor.resume("person (tray)")
        except OSError as err:
            QMessageBox.critical(None, "deskgate", f"Cannot resume: the kill state could not be cleared ({err}).")

    def revoke(self, grant_id: str) -> None:
        self.runtime.supervisor.revoke(grant_id, "person (tray)")

    def open_viewer(self, decision_id: int | None) -> None:
        if self.viewer is None:
            self.viewer = AuditViewer(self.runtime.audit.reader)
        self.viewer.show()
        self.viewer.raise_()
        self.viewer.activateWindow()
        if decision_id is not None:
            self.viewer.show_decision(decision_id)

    def _policy_file(self) -> Path:
        return self.runtime.supervisor.policy_file

    def _show(self, window: Any) -> None:
        window.show()
        window.raise_()
        window.activateWindow()
        if hasattr(self.runtime.desktop, "protect"):  # the agent may not act on deskgate's own windows
            self.runtime.desktop.protect(str(int(window.winId())))

    def open_rules(self) -> None:
        if self.rules_window is None:
            self.rules_window = RulesWindow(PolicyFileRules(self.runtime))
        self.rules_window.reload()
        self._show(self.rules_window)

    def open_settings(self) -> None:
        # a fresh window each time: it shows the values in force now
        self.settings_window = SettingsWindow(PolicyFileSettings(self.runtime, self.approver))
        self._show(self.settings_window)

    def rules_changed(self) -> None:
        if self.rules_window is not None and self.rules_window.isVisible():
            self.rules_window.reload()

    def open_policy(self) -> None:
        """The built-in editor (ui/policy_editor.py): no xdg-open needed; a good save reloads the policy."""
        from app.user_policy import POLICY_TEMPLATE, write_atomic
        from ui.policy_editor import PolicyEditor

        if self.policy_editor is None or self.policy_editor.path != self._policy_file():
            self.policy_editor = PolicyEditor(self._policy_file(), preset=self.runtime.preset,
                                              template=POLICY_TEMPLATE, on_saved=self.reload_policy,
                                              write=write_atomic)
        self._show(self.policy_editor)

    def reload_policy(self) -> None:
        from gate import PolicyError

        try:
            self.runtime.policy = self.runtime.supervisor.reload_policy()
        except PolicyError as err:
            QMessageBox.warning(None, "deskgate", f"The policy was not reloaded:\n{err}")
            return
        self.rules_changed()

    def about(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            ver = version("deskgate")
        except PackageNotFoundError:
            ver = "dev"
        QMessageBox.about(None, "About deskgate",
                          f"deskgate {ver}\n\nA supervisor between AI agents and this desktop.\n"
                          f"Socket: {self.runtime.server.socket_path}\nAudit log: {self.runtime.db}\n"
                          f"Kill switch: {self.runtime.kill_hotkey or 'off'}")

    def quit(self) -> None:
        self.app.quit()


def _wait_for_tray(app: QApplication, timeout_s: float) -> bool:
    """A tray may appear a moment after login: wait for it, keeping the event loop alive."""
    end = time.monotonic() + timeout_s
    while not QSystemTrayIcon.isSystemTrayAvailable():
        if time.monotonic() > end:
            return False
        app.processEvents()
        time.sleep(0.1)
    return True


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if not _has_display():
        print("deskgate: no display (DISPLAY is not set): the tray app needs a desktop session.\n"
              "  Without a desktop, run the headless supervisor instead:  deskgate serve --headless",
              file=sys.stderr)
        return 2
    app = QApplication.instance() or QApplication(["deskgate"])
    app.setApplicationName("deskgate")
    app.setQuitOnLastWindowClosed(False)  # closing the viewer or a dialog must not end the supervisor
    if not _wait_for_tray(app, args.tray_timeout):
        print(f"deskgate: no system tray appeared within {args.tray_timeout:g} s. Start a panel with a tray, "
              "or run the headless supervisor: deskgate serve --headless", file=sys.stderr)
        return 2

    from gate import PolicyError

    approver = QtApprover(arm_delay_s=0.0, grant_minutes=5)
    try:
        runtime = build_runtime(args, approver=approver)
    except PolicyError as err:
        print(f"deskgate: policy error: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # another supervisor, unwritable socket dir or audit log
        print(f"deskgate: cannot start: {err}", file=sys.stderr)
        return 1
    approver.arm_delay_s = runtime.policy.approvals.arm_delay_s
    approver.grant_minutes = runtime.policy.approvals.grant_minutes

    model = SupervisorTrayModel(runtime, approver, app)
    tray = Tray(model)
    tray.show()
    tray.refresh()

    # deskgate's own windows are off limits to the agent: dialogs as they open, the tray icon's area
    def protect_tray() -> None:
        from gate.model import Rect

        g = tray.geometry()
        if g.width() > 0 and hasattr(runtime.desktop, "protect_area"):
            runtime.desktop.protect_area("tray", Rect(g.x(), g.y(), g.width(), g.height()))

    QTimer.singleShot(500, protect_tray)
    approver.dialog_opened.connect(lambda d: runtime.desktop.protect(str(int(d.winId()))))
    approver.dialog_closed.connect(lambda d: runtime.desktop.unprotect(str(int(d.winId()))))
    approver.pending_changed.connect(lambda _n: tray.refresh())

    bridge = _Bridge()

    def on_event(event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "decision":
            model.count_decision(event.get("decision", ""))
            if event.get("decision") == "block":
                tray.notify_blocked(event.get("agent", "agent"), event.get("type", "action"),
                                    event.get("reason", ""))
        elif kind == "state" and event.get("state") == "killed":
            tray.notify_killed(event.get("reason", ""))
        elif kind == "policy":
            model.rules_changed()
        elif kind == "rule" and not event.get("ok"):
            tray.notify("deskgate could not add the allow rule", str(event.get("error", "")))
        elif kind == "alarm":
            what = "socket" if event.get("source") == "socket" else "audit log"
            tray.notify(f"deskgate: {what} alarm", event.get("message", ""), critical=True)
        tray.refresh()

    bridge.event.connect(on_event)
    runtime.supervisor.subscribe(lambda event: emit(bridge.event, event))

    takeover = None
    desktop_settings = runtime.policy.desktop
    if not args.no_takeover and desktop_settings.takeover and type(runtime.desktop).__name__ == "X11Desktop":
        quiet = args.takeover_quiet if args.takeover_quiet is not None else desktop_settings.takeover_quiet_s
        takeover = _start_takeover(runtime, approver, quiet, tray)

    server_thread = threading.Thread(target=runtime.server.serve_forever, name="deskgate-server", daemon=True)
    server_thread.start()

    def shutdown() -> None:
        if takeover is not None:
            takeover.stop()
        approver.cancel_all("deskgate is quitting")  # pending requests are denied before anything closes
        runtime.stop("deskgate is quitting")

    app.aboutToQuit.connect(shutdown)
    # Ctrl-C and SIGTERM quit cleanly: Python only runs signal handlers between bytecodes, so give the
    # interpreter a turn every 200 ms while Qt's loop runs.
    signal.signal(signal.SIGINT, lambda *_: app.quit())
    signal.signal(signal.SIGTERM, lambda *_: app.quit())
    ticker = QTimer()
    ticker.start(200)
    ticker.timeout.connect(lambda: None)
    log.info("deskgate is running in the tray (socket %s)", runtime.server.socket_path)
    print(f"deskgate: running in the tray; agents connect to {runtime.server.socket_path}", file=sys.stderr)
    code = app.exec()
    server_thread.join(5)
    return code


def _start_takeover(runtime: Runtime, approver: QtApprover, quiet_s: float, tray: Tray) -> Any:
    """While the person uses mouse or keyboard, agent pointer/keyboard actions wait (app/desktop/takeover.py).

    Not a takeover: answering a deskgate dialog, input on deskgate's own windows and tray icon, and
    opening deskgate's tray menu (the input that led there is forgiven, and the open menu suppresses)."""
    from app.desktop.hotkey import Takeover
    from app.desktop.takeover import PersonActivity

    activity = PersonActivity(quiet_s)
    desktop = runtime.desktop

    def ours(x: int | None, y: int | None) -> bool:
        if approver.pending():
            return True
        if x is None or y is None:
            return False
        return any(r.contains(x, y) for r in desktop.observe().protected)

    def opened() -> None:
        activity.suppress(True)
        activity.forgive()

    tray.menu.aboutToShow.connect(opened)
    tray.menu.aboutToHide.connect(lambda: activity.suppress(False))
    takeover = Takeover(lambda: log.info("the person is using the desktop: agent input waits"),
                        lambda: log.info("the person is quiet: agent input continues"),
                        synthetic=runtime.synthetic, activity=activity, ignore=ours)
    try:
        takeover.start()
    except Exception as err:
        log.warning("human takeover unavailable (%s)", err)
        return None
    runtime.supervisor.person = activity
    return takeover
