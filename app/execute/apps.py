"""Desktop applications an agent may open, and ending them at a kill.

- `find_app(name, dirs)`: `open_app` starts only an installed desktop application: a `.desktop` entry
  (Type=Application, not Hidden, not a terminal program, TryExec present) in the system's application
  directories (`$XDG_DATA_DIRS/applications`, flatpak and snap exports), found by its desktop id
  (`org.gnome.TextEditor`, `firefox`), its Name, or its program's name. What runs is the entry's own
  Exec line (field codes such as `%U` dropped), never the agent's string. The user's own
  `~/.local/share/applications` is not searched: an agent that can write a file could put an entry
  there that runs anything.
- `AppGroups`: every program opened for an agent runs in its own process group (a new session), or in
  a transient systemd scope (`systemd-run --user --scope`) where a user manager answers, which also
  holds children that start sessions of their own. `end_all()` (the kill switch) sends SIGTERM to each,
  then SIGKILL after a grace period.
"""

from __future__ import annotations

import configparser
import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import threading
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["AppGroups", "DesktopApp", "default_app_dirs", "find_app"]

_FIELD_CODE = ("%f", "%F", "%u", "%U", "%d", "%D", "%n", "%N", "%i", "%c", "%k", "%v", "%m")


@dataclass(frozen=True)
class DesktopApp:
    id: str              # the desktop id: the file name without `.desktop`
    name: str            # its Name=
    argv: tuple[str, ...]  # its Exec= line, field codes dropped
    path: Path           # the .desktop file


def default_app_dirs() -> list[Path]:
    """The system's application directories (never the user's own, see the module docstring)."""
    data_dirs = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    out = [Path(d) / "applications" for d in data_dirs.split(":") if d.startswith("/")]
    out += [Path("/var/lib/flatpak/exports/share/applications"), Path("/var/lib/snapd/desktop/applications")]
    home = os.path.expanduser("~")
    return [d for d in dict.fromkeys(out) if not str(d).startswith(home + "/")]


def _entry(path: Path) -> DesktopApp | None:
    parser = configparser.RawConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            parser.read_file(fh)
    except (OSError, configparser.Error):
        return None
    if not parser.has_section("Desktop Entry"):
        return None
    e = parser["Desktop Entry"]
    if e.get("Type", "Application") != "Application" or e.get("Hidden", "false").lower() == "true" or \
            e.get("Terminal", "false").lower() == "true" or not e.get("Exec"):
        return None
    try_exec = e.get("TryExec")
    if try_exec and shutil.which(try_exec) is None:
        return None  # not really installed
    try:
        words = shlex.split(e["Exec"])
    except ValueError:
        return None
    argv = tuple(w.replace("%%", "%") for w in words if w not in _FIELD_CODE)
    if not argv or shutil.which(argv[0]) is None:
        return None
    return DesktopApp(path.name.removesuffix(".desktop"), e.get("Name", ""), argv, path)


def _entries(dirs: Iterable[Path]) -> list[DesktopApp]:
    seen: dict[str, DesktopApp] = {}
    for d in dirs:
        with contextlib.suppress(OSError):
            for path in sorted(d.rglob("*.desktop")):
                app = _entry(path)
                if app is not None and app.id not in seen:  # the first directory wins, as in the spec
                    seen[app.id] = app
    return list(seen.values())


def find_app(name: str, dirs: Sequence[Path]) -> DesktopApp | None:
    """The installed desktop application `name` means: by desktop id, then Name, then program name."""
    wanted = name.strip().removesuffix(".desktop").lower()
    apps = _entries(dirs)
    for key in (lambda a: a.id.lower(), lambda a: a.name.lower(),
                lambda a: os.path.basename(a.argv[0]).lower()):
        for app in apps:
            if key(app) == wanted:
                return app
    return None


class AppGroups:
    """The programs opened for agents, each in a process group (or systemd scope) deskgate owns."""

    def __init__(self, grace_s: float = 0.5) -> None:
        self.grace_s = grace_s
        self._lock = threading.Lock()
        self._procs: list[tuple[subprocess.Popen, str | None]] = []  # (process, systemd unit or None)
        self._scope: bool | None = None

    def _scope_works(self) -> bool:
        if self._scope is None:
            exe = shutil.which("systemd-run")
            ok = False
            if exe is not None:
                with contextlib.suppress(OSError, subprocess.SubprocessError):
                    ok = subprocess.run([exe, "--user", "--scope", "--quiet", "--", "true"],
                                        stdin=subprocess.DEVNULL, capture_output=True, timeout=10).returncode == 0
            self._scope = ok
        return self._scope

    def start(self, argv: Sequence[str]) -> subprocess.Popen:
        """Start `argv` detached from deskgate's terminal, in a group deskgate can end."""
        unit = None
        command = list(argv)
        if self._scope_works():
            unit = f"deskgate-app-{uuid.uuid4().hex[:12]}"
            command = ["systemd-run", "--user", "--scope", "--quiet", "--collect", f"--unit={unit}", "--", *argv]
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
        with self._lock:
            self._procs = [(p, u) for p, u in self._procs if _group_alive(p)]
            self._procs.append((proc, unit))
        return proc

    def end_all(self) -> int:
        """The kill switch: SIGTERM every group (scope) still running, SIGKILL after the grace period."""
        with self._lock:
            running = [(p, u) for p, u in self._procs if _group_alive(p)]
            self._procs = []
        for proc, unit in running:
            self._signal(proc, unit, signal.SIGTERM)
        if running:
            timer = threading.Timer(self.grace_s, self._finish, args=(running,))
            timer.daemon = True
            timer.start()
        return len(running)

    def _finish(self, running: list[tuple[subprocess.Popen, str | None]]) -> None:
        for proc, unit in running:
            self._signal(proc, unit, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(1)

    @staticmethod
    def _signal(proc: subprocess.Popen, unit: str | None, sig: int) -> None:
        if unit is not None:
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                subprocess.run(["systemctl", "--user", "kill", f"--signal={int(sig)}", f"{unit}.scope"],
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=5)
        # the group too (pgid = the leader's pid: a new session). A launcher that exited and was reaped
        # leaves its children in that group; Linux does not reuse the number while the group has members
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)


def _group_alive(proc: subprocess.Popen) -> bool:
    """Does anything still run in the program's process group? (Reaps the leader once it exited.)"""
    proc.poll()
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
