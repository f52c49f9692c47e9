"""`deskgate run`: the tray app. The only app module that imports Qt or ui/.

It builds the same runtime as `deskgate serve` (app/root/runtime.build_runtime) with the Qt dialog as
the approver, and bridges the supervisor to the widgets: supervisor notifications arrive on worker
threads and are re-emitted as a Qt signal, so widgets are only touched on the GUI thread.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QSystemTrayIcon

from app.ports import TraySnapshot, frozen_notice
from app.root.policy_files import PolicyFileRules, PolicyFileSettings
from app.root.runtime import Runtime, build_runtime
from app.root.tray_state import TrayState, kill_notice
from ui.approver import QtApprover
from ui.qtcompat import emit
from ui.rules_window import RulesWindow
from ui.settings import SettingsWindow
from ui.tray import Tray
from ui.viewer import AuditViewer

__all__ = ["SupervisorTrayModel", "confirmations", "run"]

log = logging.getLogger("deskgate.run")


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
        self.state = TrayState(runtime.supervisor, runtime.audit.reader, approver.pending,
                               frozen=runtime.apps.frozen if runtime.apps is not None else tuple)

    # -- what the tray shows (app/root/tray_state.py) ---------------------------------------------

    def count_decision(self, decision: str) -> None:
        self.state.count_decision(decision)

    def snapshot(self) -> TraySnapshot:
        return self.state.snapshot()

    # -- what the tray asks for ----------------------------------------------------------------

    def pause(self) -> None:
        self.runtime.supervisor.pause("person (tray)")

    def resume(self) -> None:
        self.runtime.supervisor.unpause("person (tray)")

    def kill(self) -> None:
        self.runtime.supervisor.kill("kill switch (tray)", "person (tray)")

    def raise_limits(self) -> None:
        self.runtime.supervisor.raise_limits("person (tray)")

    def resume_after_kill(self) -> None:
        try:
            self.runtime.supervisor.resume("person (tray)")
        except OSError as err:
            QMessageBox.critical(None, "deskgate", f"Cannot resume: the kill state could not be cleared ({err}).")

    def resume_frozen(self) -> None:
        apps = self.runtime.apps
        if apps is not None:
            names = apps.frozen()
            n = apps.resume_frozen()
            self.runtime.supervisor.journal.event("apps", data={"op": "resume", "apps": names, "count": n,
                                                                "by": "person (tray)"})

    def end_frozen(self) -> None:
        apps = self.runtime.apps
        if apps is not None:
            names = apps.frozen()
            n = apps.end_frozen()
            self.runtime.supervisor.journal.event("apps", data={"op": "end", "apps": names, "count": n,
                                                                "by": "person (tray)"})

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
        self.runtime.desktop.protect(str(int(window.winId())))  # the agent may not act on deskgate's windows

    def open_rules(self) -> None:
        if self.rules_window is None:
            self.rules_window = RulesWindow(PolicyFileRules(self.runtime.supervisor))
        self.rules_window.reload()
        self._show(self.rules_window)

    def open_settings(self) -> None:
        # a fresh window each time: it shows the values in force now
        self.settings_window = SettingsWindow(PolicyFileSettings(self.runtime.supervisor, self.runtime.preset))
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
            self.runtime.supervisor.reload_policy()
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


def confirmations(runtime: Callable[[], Runtime], *, clock: Callable[[], float] | None = None) -> QtApprover:
    """The confirmation dialog as the supervisor's approver. Each dialog reads the arm delay and the "Approve
    for N min" length from the policy in force as it opens (`supervisor.policy`), so a reload, from the tray
    or the settings window, reaches the next dialog."""
    return QtApprover(lambda: runtime().supervisor.policy.approvals, clock=clock)


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

    started: list[Runtime] = []
    # Nothing is asked before the runtime exists: the agents' accept loop starts below, after build_runtime
    # returns (and a dialog that could not read its settings would deny).
    approver = confirmations(lambda: started[0])
    try:
        runtime = build_runtime(args, approver=approver)
    except PolicyError as err:
        print(f"deskgate: policy error: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # another supervisor, unwritable socket dir or audit log
        print(f"deskgate: cannot start: {err}", file=sys.stderr)
        return 1
    started.append(runtime)

    model = SupervisorTrayModel(runtime, approver, app)
    tray = Tray(model)
    tray.show()
    tray.refresh()

    # deskgate's own windows are off limits to the agent: dialogs as they open, the tray icon's area
    def protect_tray() -> None:
        from gate.model import Rect

        g = tray.geometry()
        if g.width() > 0:
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
            frozen = frozen_notice(runtime.apps.frozen() if runtime.apps is not None else ())
            tray.notify_killed(kill_notice(str(event.get("reason", "")), str(event.get("by", "")))
                               + (f". {frozen}: resume or end them from the tray menu" if frozen else ""))
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
    if not args.no_takeover and desktop_settings.takeover and runtime.desktop.person_input:
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
