"""`deskgate serve`: the supervisor behind the local socket, without the tray (headless).

Builds, in order: paths → policy → audit log → desktop → executor → approver → supervisor → server;
logs to stderr; SIGINT / SIGTERM stop it cleanly (pending confirmations are denied, sessions closed,
the socket removed, the audit log closed).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from app.config import Paths, default_paths
from app.desktop.hotkey import SyntheticInput

__all__ = ["build_runtime", "register", "serve"]

log = logging.getLogger("deskgate.serve")

DEFAULT_KILL_HOTKEY = "ctrl+alt+shift+k"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "serve", help="run the supervisor on the local socket (headless: no tray)",
        description="Run the supervisor: agents connect over the local socket; every action is gated, "
                    "asked about where needed, executed if allowed and logged.")
    p.add_argument("--headless", action="store_true",
                   help="no tray or dialog (the only mode `serve` has for now; `deskgate run` has the tray)")
    p.add_argument("--socket", type=Path, help="socket path (default: $XDG_RUNTIME_DIR/deskgate/deskgate.sock)")
    p.add_argument("--db", type=Path, help="audit database (default: the user data dir)")
    p.add_argument("--policy", type=Path, help="policy file (default: the user config dir's policy.toml if any)")
    p.add_argument("--preset", choices=("balanced", "kiosk", "power"), help="policy preset")
    ask = p.add_mutually_exclusive_group()
    ask.add_argument("--ask-in-terminal", action="store_true",
                     help="ask confirmations on this terminal (y / N / s(ession) / x = deny and stop)")
    ask.add_argument("--approver-rules", type=Path, metavar="FILE",
                     help="answer confirmations from a TOML rule file (unmatched: deny)")
    p.add_argument("--kill-hotkey", default=None, metavar="COMBO",
                   help=f"global kill-switch hotkey when a display is available (default: the policy's "
                        f"desktop.kill_hotkey, {DEFAULT_KILL_HOTKEY}; 'none' to turn it off)")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug detail")
    p.set_defaults(func=serve)

    p = subparsers.add_parser("run", help="start deskgate in the system tray (supervisor, dialogs, audit viewer)",
                              description="Start the supervisor with its tray icon, confirmation dialogs, audit "
                                          "viewer and kill switch. Needs a desktop session; see `serve --headless`.")
    p.add_argument("--socket", type=Path, help="socket path (default: $XDG_RUNTIME_DIR/deskgate/deskgate.sock)")
    p.add_argument("--db", type=Path, help="audit database (default: the user data dir)")
    p.add_argument("--policy", type=Path, help="policy file (default: the user config dir's policy.toml if any)")
    p.add_argument("--preset", choices=("balanced", "kiosk", "power"), help="policy preset")
    p.add_argument("--kill-hotkey", default=None, metavar="COMBO",
                   help=f"global kill-switch hotkey (default: the policy's desktop.kill_hotkey, "
                        f"{DEFAULT_KILL_HOTKEY}; 'none' to turn it off)")
    p.add_argument("--no-takeover", action="store_true",
                   help="do not make agent mouse/keyboard actions wait while you use the mouse or keyboard")
    p.add_argument("--takeover-quiet", type=float, default=None, metavar="SECONDS",
                   help="seconds of quiet after your own mouse/keyboard use before agent input continues "
                        "(default: the policy's desktop.takeover_quiet_s, 3)")
    p.add_argument("--tray-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for a system tray at startup (default 10)")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug detail")
    p.set_defaults(func=_run_tray)


def _run_tray(args: argparse.Namespace) -> int:
    """`deskgate run`: Qt is imported only here, so the other commands start without it."""
    from app.gui import run

    return run(args)


@dataclasses.dataclass
class Runtime:
    paths: Paths
    policy: Any
    audit: Any
    desktop: Any
    executor: Any
    approver: Any
    supervisor: Any
    server: Any
    hotkey: Any = None
    policy_file: Path | None = None
    preset: str | None = None
    db: Path | None = None
    kill_hotkey: str | None = None
    synthetic: Any = None  # app.desktop.hotkey.SyntheticInput: marks deskgate's own input for the takeover monitor
    forwarder: Any = None  # app.audit.syslog.SyslogForwarder when [audit.syslog] is enabled
    control_server: Any = None  # the person's control socket (app.config.Paths.control_socket)
    control_thread: threading.Thread | None = None

    def stop(self, reason: str = "deskgate stopping") -> None:
        """Idempotent: deny what is pending, end sessions, close the socket, then the log."""
        self.supervisor.close(reason)
        self.server.stop()
        if self.control_server is not None:
            self.control_server.stop()
        if self.hotkey is not None:
            try:
                self.hotkey.stop()
            except Exception:
                log.exception("kill-switch hotkey did not stop")
        try:
            self.desktop.stop()
        except Exception:
            log.exception("desktop watcher did not stop")
        self.audit.close()
        if self.forwarder is not None:  # after the log: every committed row is queued by now
            self.forwarder.stop()


class MarkedExecutor:
    """Runs the executor inside `SyntheticInput.injecting()`: the input deskgate itself injects is not
    mistaken for the person taking over."""

    def __init__(self, inner: Any, synthetic: Any) -> None:
        self.inner = inner
        self.synthetic = synthetic

    @property
    def policy(self) -> Any:
        return self.inner.policy

    @policy.setter
    def policy(self, value: Any) -> None:
        self.inner.policy = value

    def execute(self, action: Any) -> Any:
        with self.synthetic.injecting():
            return self.inner.execute(action)

    def cancel_all(self) -> int:
        cancel = getattr(self.inner, "cancel_all", None)
        return cancel() if cancel is not None else 0


def make_approver(args: argparse.Namespace, policy: Any = None) -> Any:
    from app.daemon.approvers import DenyAllApprover, RuleFileApprover, TerminalApprover

    if getattr(args, "ask_in_terminal", False):
        return TerminalApprover()
    rules = getattr(args, "approver_rules", None)
    if not rules and policy is not None and policy.desktop.approver_rules:
        rules = Path(policy.desktop.approver_rules).expanduser()  # the settings window's choice
    if rules:
        return RuleFileApprover.from_file(rules)
    return DenyAllApprover()


def build_runtime(args: argparse.Namespace, *, desktop: Any = None, executor: Any = None,
                  approver: Any = None) -> Runtime:
    """Everything `serve` and `run` run, wired and started except the accept loop. Raises on bad config.

    `desktop` / `executor` can be injected (tests); `approver` is the tray's dialog for `run`; by default
    the real desktop and executor are made and the approver follows the command-line options."""
    from app.audit.writer import AuditLog
    from app.daemon.supervisor import Supervisor
    from app.desktop.screen import make_desktop
    from app.execute.executor import Executor
    from gate import SafetyGate, load_policy

    paths = default_paths()
    policy_file = args.policy or (paths.policy if paths.policy.exists() else None)
    policy = load_policy(policy_file, args.preset)
    approver = approver if approver is not None else make_approver(args, policy)
    db = args.db or paths.db
    forwarder = make_forwarder(policy, paths)
    audit = AuditLog(db, state_dir=paths.state_dir, store_outputs=policy.audit.store_outputs)
    audit.on_commit = forwarder.submit if forwarder is not None else None
    synthetic = SyntheticInput()
    try:
        desktop = desktop if desktop is not None else make_desktop()
        executor = MarkedExecutor(executor if executor is not None else Executor(policy), synthetic)
        supervisor = Supervisor(gate=SafetyGate(policy), audit=audit, desktop=desktop, executor=executor,
                                approver=approver, policy=policy, paths=paths)
        supervisor.policy_file = args.policy or paths.policy
        supervisor.preset_override = args.preset
        server, control = make_servers(supervisor, policy, args.socket or paths.socket)
        desktop.start()
        server.start()
        try:
            control.start()
        except BaseException:
            server.stop()
            raise
    except BaseException:
        audit.close()
        if forwarder is not None:
            forwarder.stop()
        raise
    runtime = Runtime(paths, policy, audit, desktop, executor, approver, supervisor, server,
                      policy_file=policy_file, preset=args.preset, db=Path(db), synthetic=synthetic,
                      forwarder=forwarder, control_server=control)
    runtime.control_thread = threading.Thread(target=control.serve_forever, name="deskgate-control",
                                              daemon=True)
    runtime.control_thread.start()
    combo = getattr(args, "kill_hotkey", None) or policy.desktop.kill_hotkey
    if combo and combo != "none" and type(desktop).__name__ == "X11Desktop":
        runtime.hotkey = _start_hotkey(combo, supervisor)
        runtime.kill_hotkey = combo if runtime.hotkey is not None else None
    log.info("policy %s (%s), audit log %s, socket %s, state %s", policy.preset, policy_file or "defaults", db,
             server.socket_path, supervisor.state)
    return runtime


def make_forwarder(policy: Any, paths: Paths) -> Any:
    """The syslog forwarder `[audit.syslog]` asks for, started (None when it is off). Raises ValueError on a
    bad target; the counters go to `paths.syslog_stats` for `deskgate log stats` and `doctor`."""
    conf = policy.audit.syslog
    if not conf.enabled:
        return None
    from app.audit.syslog import SyslogForwarder, SyslogTarget

    forwarder = SyslogForwarder(SyslogTarget.parse(conf.target), app_name=conf.app_name, facility=conf.facility,
                                stats_path=paths.syslog_stats)
    log.info("audit rows are forwarded to syslog at %s", forwarder.target)
    return forwarder.start()


# The control socket serves one person's commands: a few connections, each a request or two.
CONTROL_MAX_CLIENTS = 16
CONTROL_IDLE_S = 30.0


def make_servers(supervisor: Any, policy: Any, agent_socket: Path) -> tuple[Any, Any]:
    """The agent socket (the person and `[agents]` users; idle connections time out) and the person's
    control socket next to it (the person's uid only, capacity of its own, control requests only), so
    agents holding every agent slot cannot lock the person out of `kill` and `status`."""
    from app.config import agent_ids, control_socket_for
    from app.daemon.server import Server

    uids, gids = agent_ids(policy.agents.uids, policy.agents.groups)
    agents = Server(agent_socket, supervisor.connect, on_refused=supervisor.peer_refused, agent_uids=uids,
                    agent_gids=gids, idle_timeout_s=policy.limits.idle_timeout_s,
                    allowed_uid=supervisor.person_uid, on_socket_lost=supervisor.socket_lost)
    control = Server(control_socket_for(agent_socket), supervisor.connect_control,
                     on_refused=supervisor.peer_refused, max_clients=CONTROL_MAX_CLIENTS,
                     idle_timeout_s=CONTROL_IDLE_S, allowed_uid=supervisor.person_uid,
                     dir_mode=0o711 if uids or gids else 0o700, on_socket_lost=supervisor.socket_lost)
    return agents, control


def _start_hotkey(combo: str, supervisor: Any) -> Any:
    try:
        from app.desktop.hotkey import KillSwitch

        hotkey = KillSwitch(combo, lambda: supervisor.kill("kill-switch hotkey", "hotkey"))
        hotkey.start()
        log.info("kill switch: %s", combo)
        return hotkey
    except Exception as err:
        log.warning("kill-switch hotkey unavailable (%s); use `deskgate kill`", err)
        return None


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from app.audit.schema import AuditError
    from app.daemon.approvers import TerminalApprover
    from app.daemon.server import ServerError
    from gate import PolicyError

    if not args.headless:
        log.warning("`serve` is the headless supervisor; `deskgate run` starts the tray app")
    try:
        runtime = build_runtime(args)
    except (PolicyError, ValueError) as err:
        print(f"deskgate serve: {err}", file=sys.stderr)
        return 2
    except (AuditError, ServerError, OSError) as err:
        print(f"deskgate serve: {err}", file=sys.stderr)
        return 1
    approver = runtime.approver
    if isinstance(approver, TerminalApprover):
        log.info("confirmations are asked on this terminal")
    elif type(approver).__name__ == "DenyAllApprover":
        log.info("no approver: every confirmation is denied (use --ask-in-terminal or --approver-rules)")

    stopping = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        if stopping.is_set():
            return
        stopping.set()
        log.info("%s: stopping", signal.Signals(signum).name)
        # server.stop() waits for the accept loop, which runs on this (main) thread: stop from another
        threading.Thread(target=runtime.server.stop, name="deskgate-stop", daemon=True).start()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        runtime.server.serve_forever()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        runtime.stop("deskgate stopped")
        log.info("stopped")
    return 0
