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
  ask systemd/logind/NetworkManager to do things on its behalf;
- deskgate's own directories (config, data, state, runtime: the audit DB and its WAL, the chain head,
  the install key, the kill state) are replaced by empty ones: a fenced command can neither read nor
  change them, whatever path or parent directory it names (`cp -r ~/.local/state`, `tar ~`);
- the environment: bwrap itself starts with a fixed, minimal one (never the agent's), `--clearenv` empties
  it for the command, and the command's variables are set inside with `--setenv`. A variable from the
  agent therefore only ever reaches the fenced command, never bwrap or anything outside; loader and
  interpreter-hook variables (`LD_PRELOAD`, `BASH_ENV`, ...: `loader_variable`) are refused before that.

What it does not give: read confidentiality (files are readable, as the user can read them). With
`network = true` the host network namespace is shared, so the X server's abstract socket is reachable
again; its cookie file stays masked.

`Fence.check()` runs `bwrap` once with the same flags (cached): inside some containers, or with
unprivileged user namespaces off, bwrap cannot set up namespaces, and the reason it prints is returned.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from gate.policy import FencePolicy

__all__ = ["Fence", "FenceStatus", "fixed_env", "loader_variable"]

_CHECK_TIMEOUT_S = 10.0
# Sockets a read-only bind would still let a fenced command connect to (connect() needs no write access).
_MASKED_DIRS = ("/tmp/.X11-unix", "/tmp/.ICE-unix", "/run/user", "/run/dbus", "/var/run/dbus")

# Variables that make a program load or run code it was not asked to run (the dynamic loader, shells' and
# interpreters' start-up hooks, glibc's module paths). Refused in an agent's env whether fenced or not.
LOADER_PREFIXES = ("LD_", "DYLD_", "BASH_FUNC_")
LOADER_NAMES = frozenset({
    "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS4", "SHELLOPTS", "BASHOPTS", "PATH",
    "GCONV_PATH", "GETCONF_DIR", "LOCPATH", "NLSPATH", "MALLOC_TRACE",
    "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONINSPECT", "PYTHONUSERBASE", "PYTHONBREAKPOINT",
    "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB", "NODE_OPTIONS", "NODE_PATH",
    "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "LUA_INIT", "LUA_PATH",
    "LUA_CPATH", "PHPRC", "PHP_INI_SCAN_DIR", "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND",
    "GIT_PAGER", "GIT_EDITOR", "GIT_ASKPASS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "SSH_ASKPASS",
    "SUDO_ASKPASS", "PAGER", "EDITOR", "VISUAL", "LESSOPEN", "LESSCLOSE", "MANPAGER", "BROWSER",
    "OPENSSL_CONF", "OPENSSL_ENGINES", "GTK_MODULES", "QT_PLUGIN_PATH",
})


def loader_variable(name: str) -> bool:
    """Does setting `name` change what code a program loads or runs (so that it cannot be an agent's)?"""
    upper = name.upper()
    return upper in LOADER_NAMES or upper.startswith(LOADER_PREFIXES)


@dataclass(frozen=True)
class FenceStatus:
    available: bool
    reason: str  # why not, in bwrap's own words (empty when available)


class Fence:
    """Builds bubblewrap command lines for one fence policy. Thread-safe."""

    # bwrap's answer does not change while deskgate runs: probe once per binary and network setting.
    _status_cache: ClassVar[dict[tuple[str, bool], FenceStatus]] = {}
    _status_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, policy: FencePolicy, *, bwrap: str = "bwrap", home: Path | None = None,
                 hidden: tuple[Path, ...] = ()) -> None:
        self.policy = policy
        self.bwrap = bwrap
        self.home = (home or Path.home()).resolve()
        self.hidden = hidden  # deskgate's own directories: empty inside the fence

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
                               timeout=_CHECK_TIMEOUT_S, env=fixed_env())
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

    def argv(self, command: list[str], cwd: str | os.PathLike[str], env: dict[str, str] | None = None) -> list[str]:
        """The bwrap argv that runs `command` in `cwd` inside the fence, with exactly the variables `env`
        (set inside by bwrap after it emptied its own environment). Run it with `fixed_env()`."""
        exe = shutil.which(self.bwrap) or self.bwrap
        writable = self.writable_dirs()
        args = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        if Path("/tmp") not in writable:
            args += ["--tmpfs", "/tmp"]
        for path in writable:
            args += ["--bind", str(path), str(path)]
        # Masks go after the binds: bwrap applies options in order, so they cover a writable /tmp too.
        for masked in (*_masked_paths(), *_real_paths(self.hidden)):
            if masked.is_dir():
                args += ["--tmpfs", str(masked)]
            elif masked.exists():
                args += ["--ro-bind", "/dev/null", str(masked)]
        args += self._namespace_flags()
        if _has_clearenv(exe):  # bubblewrap ≥ 0.5; before it, bwrap's own fixed env is all there is
            args.append("--clearenv")
        for name, value in (env or {}).items():
            if not name or "=" in name or "\0" in name or "\0" in value:
                raise ValueError(f"environment variable {name!r} cannot be set")
            args += ["--setenv", name, value]
        args += ["--chdir", str(cwd), "--", *command]
        return args


@functools.cache
def _has_clearenv(exe: str) -> bool:
    try:
        out = subprocess.run([exe, "--help"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=_CHECK_TIMEOUT_S, env=fixed_env())
    except (OSError, subprocess.SubprocessError):
        return False
    return "--clearenv" in out.stdout + out.stderr


def fixed_env() -> dict[str, str]:
    """The environment bwrap itself runs with: fixed, nothing of the agent's and nothing of deskgate's. Its
    two variables are set again inside by every command's own env (minimal_env), so a bwrap without
    `--clearenv` leaves nothing of it behind either."""
    return {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}


def _real_paths(paths: tuple[Path, ...]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        try:
            real = p.resolve()
        except OSError:
            continue
        if real != Path("/") and real not in out:
            out.append(real)
    return out


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
