"""Where deskgate keeps things. Each default is declared once, here; `Paths.for_testing` points all at a temp dir."""

from __future__ import annotations

import collections
import os
from pathlib import Path

__all__ = ["APP_NAME", "Paths", "agent_ids", "control_socket_for", "default_paths", "default_socket",
           "disabled_by_env", "socket_from_env"]

APP_NAME = "deskgate"


class Paths(collections.namedtuple("Paths", ("data_dir", "runtime_dir", "config_dir", "state_dir", "socket_file"),
                                   defaults=(None,))):
    """Where deskgate keeps things (immutable; all `Path`):

    - data_dir: the audit database lives here
    - runtime_dir: the socket (0700 directory)
    - config_dir: the user's policy.toml
    - state_dir: kill state that survives a restart
    - socket_file: DESKGATE_SOCKET, one socket path for the server and every client (None: the default)

    A named tuple, not a dataclass: `dataclasses` (with `inspect`) and `typing` would be most of what
    `deskgate kill` and the hook import."""

    __slots__ = ()

    @property
    def db(self) -> Path:
        return self.data_dir / "audit.db"

    @property
    def socket(self) -> Path:
        return self.socket_file or self.runtime_dir / "deskgate.sock"

    @property
    def control_socket(self) -> Path:
        """The person's control socket (kill, resume, status): 0600, the person's uid only, its own capacity."""
        return control_socket_for(self.socket)

    @property
    def policy(self) -> Path:
        return self.config_dir / "policy.toml"

    @property
    def kill_state(self) -> Path:
        return self.state_dir / "killed.json"

    @property
    def syslog_stats(self) -> Path:
        """The syslog forwarder's counters (sent, dropped), for `deskgate log stats` and `doctor`."""
        return self.state_dir / "syslog-forward.json"

    @classmethod
    def for_testing(cls, root: Path) -> Paths:
        return cls(root / "data", root / "run", root / "config", root / "state")


def control_socket_for(agent_socket: Path) -> Path:
    """The control socket lives next to the agent socket, in the same directory."""
    return Path(agent_socket).with_name("control.sock")


def _runtime_dir(socket_file: Path | None) -> Path:
    if socket_file is not None:
        return socket_file.parent
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime) / APP_NAME
    import platformdirs

    return Path(platformdirs.user_runtime_dir(APP_NAME))


def default_socket() -> Path:
    """The agent socket of `default_paths()`, found without platformdirs where $XDG_RUNTIME_DIR is set: what a
    hook or `deskgate kill` needs, and nothing else."""
    socket_file = socket_from_env()
    return socket_file or _runtime_dir(None) / "deskgate.sock"


def default_paths() -> Paths:
    import platformdirs  # loaded here: clients that only need the socket call default_socket()

    socket_file = socket_from_env()
    return Paths(
        data_dir=Path(platformdirs.user_data_dir(APP_NAME)),
        runtime_dir=_runtime_dir(socket_file),
        config_dir=Path(platformdirs.user_config_dir(APP_NAME)),
        state_dir=Path(platformdirs.user_state_dir(APP_NAME)),
        socket_file=socket_file,
    )


def socket_from_env() -> Path | None:
    """DESKGATE_SOCKET=/path/to/deskgate.sock: where `serve`, `run`, the CLI, the hook, the MCP server and
    app.agent.client look, unless given --socket. `~` is expanded; empty means the default."""
    value = os.environ.get("DESKGATE_SOCKET", "").strip()
    return Path(value).expanduser() if value else None


def disabled_by_env() -> bool:
    """DESKGATE_DISABLED=1 turns acting off altogether: every session is refused at hello."""
    return os.environ.get("DESKGATE_DISABLED", "").strip().lower() in ("1", "true", "yes", "on")


def agent_ids(uids: list[int], groups: list[str | int]) -> tuple[frozenset[int], frozenset[int]]:
    """Policy `[agents]` → (uids, gids) the server admits besides the person. A group's members (by
    name, from the group database) are admitted by uid, the group itself by primary gid. An unknown group
    or member is a ValueError: a policy naming what does not exist is not guessed at."""
    import grp
    import pwd

    out_uids = {int(u) for u in uids}
    out_gids: set[int] = set()
    for group in groups:
        try:
            entry = grp.getgrgid(group) if isinstance(group, int) else grp.getgrnam(group)
        except KeyError:
            raise ValueError(f"[agents] groups: no group {group!r} on this system") from None
        out_gids.add(entry.gr_gid)
        for member in entry.gr_mem:
            try:
                out_uids.add(pwd.getpwnam(member).pw_uid)
            except KeyError:
                raise ValueError(f"[agents] groups: member {member!r} of {entry.gr_name} is no user") from None
    return frozenset(out_uids), frozenset(out_gids)
