"""The shell fence: run a command inside bubblewrap with a read-only filesystem and no network.

What the fence gives (policy section `fence`):
- the whole filesystem read-only (`--ro-bind / /`), fresh `/dev` and `/proc`, a private `/tmp` unless
  `/tmp` is listed in `writable`;
- each `writable` directory bound read-write (`~` expanded; created if missing and inside the home
  directory, skipped otherwise);
- no network (`--unshare-net`) unless `network = true`; own PID and IPC namespaces; a new session (no
  TIOCSTI into the caller's terminal); it dies with deskgate;
- the ways out of the fence that a read-only filesystem does not close are masked: the X11/ICE socket
  directories, the user's runtime dir (D-Bus session bus, the deskgate socket, audio), the system bus
  and the X authority file. A fenced command cannot inject input into the desktop, talk to deskgate, or
  ask systemd/logind/NetworkManager to do things on its behalf.

What it does not give: read confidentiality (files are readable, as the user can read them). With
`network = true` the host network namespace is shared, so the X server's abstract socket is reachable
again; its cookie file stays masked.

`Fence.check()` runs `bwrap` once with the same flags (cached): inside some containers, or with
unprivileged user namespaces off, bwrap cannot set up namespaces, and the reason it prints is returned.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from gate.policy import FencePolicy

__all__ = ["Fence", "FenceStatus"]

_CHECK_TIMEOUT_S = 10.0
# Sockets a read-only bind would still let a fenced command connect to (connect() needs no write access).
_MASKED_DIRS = ("/tmp/.X11-unix", "/tmp/.ICE-unix", "/run/user", "/run/dbus", "/var/run/dbus")


@dataclass(frozen=True)
class FenceStatus:
    available: bool
    reason: str  # why not, in bwrap's own words (empty when available)


class Fence:
    """Builds bubblewrap command lines for one fence policy. Thread-safe."""

    # bwrap's answer does not change while deskgate runs: probe once per binary and network setting.
    _status_cache: ClassVar[dict[tuple[str, bool], FenceStatus]] = {}
    _status_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, policy: FencePolicy, *, bwrap: str = "bwrap", home: Path | None = None) -> None:
        self.policy = policy
        self.bwrap = bwrap
        self.home = (home or Path.home()).resolve()

    # -- availability -----------------------------------------------------------------------------

    def check(self) -> FenceStatus:
        """Can bwrap run here with our flags? Runs it once per (binary, network) and caches the answer."""
        key = (self.bwrap, self.policy.network)
        with self._status_lock:
            cached = self._status_cache.get(key)
            if cached is not None:
                return cached
        status = self._probe()
        with self._status_lock:
            self._status_cache[key] = status
        return status

    def _probe(self) -> FenceStatus:
        exe = shutil.which(self.bwrap)
        if exe is None:
            return FenceStatus(False, f"bubblewrap not found ({self.bwrap!r} is not on PATH): install `bubblewrap`")
        argv = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
                *self._namespace_flags(), "true"]
        try:
            r = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               timeout=_CHECK_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as err:
            return FenceStatus(False, f"bubblewrap could not be started: {err}")
        if r.returncode != 0:
            why = (r.stderr or r.stdout).strip() or f"exit status {r.returncode}"
            return FenceStatus(False, f"bubblewrap cannot create a sandbox here: {why}")
        return FenceStatus(True, "")

    # -- command line -----------------------------------------------------------------------------

    def _namespace_flags(self) -> list[str]:
        flags = ["--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session"]
        if not self.policy.network:
            flags.insert(0, "--unshare-net")
        return flags

    def writable_dirs(self) -> list[Path]:
        """The policy's writable directories that exist (or were created: only inside the home dir)."""
        out: list[Path] = []
        for raw in self.policy.writable:
            path = Path(os.path.expanduser(raw))
            if not path.is_absolute():
                continue  # a relative path would depend on deskgate's own cwd: meaningless, skip
            path = path.resolve()
            if not path.exists() and path.is_relative_to(self.home) and path != self.home:
                try:
                    path.mkdir(parents=True, mode=0o700)
                except OSError:
                    continue
            if path.is_dir() and path not in out:
                out.append(path)
        return out

    def argv(self, command: list[str], cwd: str | os.PathLike[str]) -> list[str]:
        """The bwrap argv that runs `command` in `cwd` inside the fence."""
        exe = shutil.which(self.bwrap) or self.bwrap
        writable = self.writable_dirs()
        args = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        if Path("/tmp") not in writable:
            args += ["--tmpfs", "/tmp"]
        for path in writable:
            args += ["--bind", str(path), str(path)]
        # Masks go after the binds: bwrap applies options in order, so they cover a writable /tmp too.
        for masked in _masked_paths():
            if masked.is_dir():
                args += ["--tmpfs", str(masked)]
            elif masked.exists():
                args += ["--ro-bind", "/dev/null", str(masked)]
        args += self._namespace_flags()
        args += ["--chdir", str(cwd), "--", *command]
        return args


def _masked_paths() -> list[Path]:
    paths = [Path(p) for p in _MASKED_DIRS]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        paths.append(Path(runtime))
    xauth = os.environ.get("XAUTHORITY") or os.path.expanduser("~/.Xauthority")
    paths.append(Path(xauth))
    seen: list[Path] = []
    for p in paths:
        try:
            real = p.resolve()
        except OSError:
            continue
        if real != Path("/") and real not in seen:
            seen.append(real)
    return seen
