"""The runtime `serve` and `run` share: built here, in one place, and nowhere else.

Builds, in order: paths → policy → audit log → desktop → executor → approver → supervisor → servers →
kill-switch hotkey. No Qt: the tray (app/root/tray.py) passes its dialog in as the approver.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.config import Paths, default_paths
from app.desktop.hotkey import SyntheticInput

if TYPE_CHECKING:
    from app.daemon.server import Server
    from app.daemon.supervisor import Supervisor
    from app.ports import Approver, Desktop
    from gate import Policy

__all__ = ["MarkedExecutor", "Runtime", "build_runtime", "make_approver", "make_forwarder", "make_servers"]

log = logging.getLogger("deskgate.serve")


@dataclasses.dataclass
class Runtime:
    paths: Paths
    audit: Any
    desktop: Desktop
    executor: Any
    approver: Approver
    supervisor: Supervisor
    server: Server
    hotkey: Any = None
    policy_file: Path | None = None
    preset: str | None = None
    db: Path | None = None
    kill_hotkey: str | None = None
    synthetic: SyntheticInput | None = None  # marks deskgate's own input for the takeover monitor
    forwarder: Any = None  # app.audit.syslog.SyslogForwarder when [audit.syslog] is enabled
    control_server: Server | None = None  # the person's control socket (app.config.Paths.control_socket)
    control_thread: threading.Thread | None = None
    # the apps the agents opened (app.execute.apps.AppGroups): frozen at a kill, resumed or ended from the
    # tray. None with an executor of a test's own
    apps: Any = None

    @property
    def policy(self) -> Policy:
        """The policy in force now: the supervisor's, so a reload is seen here at once."""
        return self.supervisor.policy

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
        if self.apps is not None and self.apps.frozen():  # the person's to decide: left as they are, said
            log.warning("left frozen: %s (resume each with `kill -CONT -<pid>`: %s)", ", ".join(self.apps.frozen()),
                        " ".join(str(p) for p in self.apps.frozen_pids()))
        self.audit.close()
        if self.forwarder is not None:  # after the log: every committed row is queued by now
            self.forwarder.stop()


class MarkedExecutor:
    """Runs the executor inside `SyntheticInput.injecting()`: the input deskgate itself injects is not
    mistaken for the person taking over."""

    def __init__(self, inner: Any, synthetic: SyntheticInput) -> None:
        self.inner = inner
        self.synthetic = synthetic

    def execute(self, action: Any, policy: Any, **kw: Any) -> Any:
        with self.synthetic.injecting():
            return self.inner.execute(action, policy, **kw)

    def cancel_all(self) -> int:
        return self.inner.cancel_all()


def make_approver(args: argparse.Namespace, policy: Policy) -> Approver:
    """The headless approver `serve`'s options (or the settings window's rule file) ask for."""
    from app.daemon.approvers import DenyAllApprover, RuleFileApprover, TerminalApprover

    if args.ask_in_terminal:
        log.info("confirmations are asked on this terminal")
        return TerminalApprover()
    rules = args.approver_rules
    if not rules and policy.desktop.approver_rules:
        rules = Path(policy.desktop.approver_rules).expanduser()  # the settings window's choice
    if rules:
        return RuleFileApprover.from_file(rules)
    log.info("no approver: every confirmation is denied (use --ask-in-terminal or --approver-rules)")
    return DenyAllApprover()


def build_runtime(args: argparse.Namespace, *, desktop: Desktop | None = None, executor: Any = None,
                  approver: Approver | None = None, clock: Callable[[], float] | None = None) -> Runtime:
    """Everything `serve` and `run` run, wired and started except the accept loop. Raises on bad config.

    `args` are `serve`'s or `run`'s options. `desktop` / `executor` can be injected (tests); `approver` is
    the tray's dialog for `run`; by default the real desktop and executor are made and the approver follows
    `serve`'s options (make_approver). `clock`: the supervisor's monotonic clock (tests drive limits with one)."""
    from app.audit.writer import AuditLog
    from app.daemon.supervisor import Supervisor
    from app.desktop.screen import make_desktop
    from app.execute.apps import AppGroups
    from app.execute.executor import Executor
    from app.execute.safefs import own_paths
    from gate import SafetyGate, load_policy

    paths = default_paths()
    policy_file = args.policy or (paths.policy if paths.policy.exists() else None)
    policy = load_policy(policy_file, args.preset)
    if args.kill_hotkey:  # the gate refuses an agent's press of the hotkey that is really in use
        import msgspec

        policy = msgspec.structs.replace(
            policy, desktop=msgspec.structs.replace(policy.desktop, kill_hotkey=args.kill_hotkey))
    approver = approver if approver is not None else make_approver(args, policy)
    db = args.db or paths.db
    forwarder = make_forwarder(policy, paths)
    audit = AuditLog(db, state_dir=paths.state_dir, store_outputs=policy.audit.store_outputs)
    audit.on_commit = forwarder.submit if forwarder is not None else None
    synthetic = SyntheticInput()
    apps = None
    try:
        desktop = desktop if desktop is not None else make_desktop()
        if executor is None:  # deskgate's own files, wherever this run keeps them, are out of the agent's reach
            guard = own_paths(paths.config_dir, paths.data_dir, paths.state_dir, paths.runtime_dir, Path(db),
                              [Path(p) for p in (policy_file,) if p is not None])
            apps = AppGroups()
            executor = Executor(policy, guard=guard, apps=apps)
        executor = MarkedExecutor(executor, synthetic)
        supervisor = Supervisor(gate=SafetyGate(policy), audit=audit, desktop=desktop, executor=executor,
                                approver=approver, policy=policy, paths=paths,
                                **({"clock": clock} if clock is not None else {}))
        supervisor.policy_file = args.policy or paths.policy
        audit.verify_in_background()  # after the supervisor listens for the audit's alarms
        supervisor.preset_override = args.preset
        supervisor.kill_hotkey_override = args.kill_hotkey or None
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
    runtime = Runtime(paths, audit, desktop, executor, approver, supervisor, server,
                      policy_file=policy_file, preset=args.preset, db=Path(db), synthetic=synthetic,
                      forwarder=forwarder, control_server=control, apps=apps)
    runtime.control_thread = threading.Thread(target=control.serve_forever, name="deskgate-control",
                                              daemon=True)
    runtime.control_thread.start()
    combo = args.kill_hotkey or policy.desktop.kill_hotkey
    if combo and combo != "none" and desktop.person_input:
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


def make_servers(supervisor: Any, policy: Any, agent_socket: Path) -> tuple[Server, Server]:
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


def _start_hotkey(combo: str, supervisor: Supervisor) -> Any:
    try:
        from app.desktop.hotkey import KillSwitch

        hotkey = KillSwitch(combo, lambda: supervisor.kill("kill-switch hotkey", "hotkey"))
        hotkey.start()
        log.info("kill switch: %s", combo)
        return hotkey
    except Exception as err:
        log.warning("kill-switch hotkey unavailable (%s); use `deskgate kill`", err)
        return None
