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
  holds children that start sessions of their own. The kill switch freezes each (`freeze_all`: SIGSTOP
  to the scope, the group and every descendant): they are desktop applications the person may be using.
  The person then resumes them (`resume_frozen`) or ends them (`end_frozen`: SIGTERM, SIGKILL after a
  grace period) from the tray.
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


@dataclass(frozen=True)
class _Group:
    proc: subprocess.Popen
    unit: str | None  # the systemd scope, or None
    name: str         # what a person calls it ("Text Editor", "the browser")


class AppGroups:
    """The programs opened for agents, each in a process group (or systemd scope) deskgate owns.

    At a kill they are frozen, not ended (`freeze_all`): they are desktop applications the person may be
    using (a document open, a form half filled). A frozen app does nothing, for the agent or anyone, until
    the person resumes it (`resume_frozen`) or ends it (`end_frozen`) from the tray. Each signal goes to the
    scope, the process group, and every process descended from the program, so a terminal's shell (a
    session of its own) is frozen with the terminal."""

    def __init__(self, grace_s: float = 0.5) -> None:
        self.grace_s = grace_s
        self._lock = threading.Lock()
        self._groups: list[_Group] = []   # running
        self._frozen: list[_Group] = []   # stopped at a kill, until the person resumes or ends them
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

    def start(self, argv: Sequence[str], name: str = "") -> subprocess.Popen:
        """Start `argv` detached from deskgate's terminal, in a group deskgate can freeze and end."""
        unit = None
        command = list(argv)
        if self._scope_works():
            unit = f"deskgate-app-{uuid.uuid4().hex[:12]}"
            command = ["systemd-run", "--user", "--scope", "--quiet", "--collect", f"--unit={unit}", "--", *argv]
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
        with self._lock:
            self._groups = [g for g in self._groups if _group_alive(g.proc)]
            self._groups.append(_Group(proc, unit, name or os.path.basename(argv[0])))
        return proc

    def freeze_all(self) -> int:
        """The kill switch: stop (SIGSTOP) every app still running, and keep it for the person to resume
        or end. Returns how many were frozen."""
        with self._lock:
            running = [g for g in self._groups if _group_alive(g.proc)]
            self._groups = []
        for g in running:
            _signal_all(g, (signal.SIGSTOP,))
        with self._lock:
            self._frozen.extend(running)
        return len(running)

    def frozen(self) -> list[str]:
        """The names of the frozen apps still there (one that was ended elsewhere drops out)."""
        with self._lock:
            self._frozen = [g for g in self._frozen if _group_alive(g.proc)]
            return [g.name for g in self._frozen]

    def frozen_pids(self) -> list[int]:
        """The process group ids of the frozen apps (for a person who resumes one by hand)."""
        with self._lock:
            return [g.proc.pid for g in self._frozen]

    def resume_frozen(self) -> int:
        """The person's "resume": the frozen apps go on (SIGCONT), still deskgate's to freeze at the next
        kill. Returns how many."""
        with self._lock:
            frozen, self._frozen = [g for g in self._frozen if _group_alive(g.proc)], []
        for g in frozen:
            _signal_all(g, (signal.SIGCONT,))
        with self._lock:
            self._groups.extend(frozen)
        return len(frozen)

    def end_frozen(self) -> int:
        """The person's "end": SIGTERM to each frozen app (continued, so it can close), SIGKILL after the
        grace period. Returns how many."""
        with self._lock:
            frozen, self._frozen = [g for g in self._frozen if _group_alive(g.proc)], []
        self._end(frozen)
        return len(frozen)

    def end_all(self) -> int:
        """End every app, running or frozen (SIGTERM, SIGKILL after the grace period)."""
        with self._lock:
            groups = [g for g in (*self._groups, *self._frozen) if _group_alive(g.proc)]
            self._groups, self._frozen = [], []
        self._end(groups)
        return len(groups)

    def _end(self, groups: list[_Group]) -> None:
        # a stopped process handles its SIGTERM only once continued; the processes are found once, before
        # any of them ends (a child whose parent ended is no longer found below it)
        ended = [(g, _signal_all(g, (signal.SIGTERM, signal.SIGCONT))) for g in groups]
        if ended:
            timer = threading.Timer(self.grace_s, self._finish, args=(ended,))
            timer.daemon = True
            timer.start()

    @staticmethod
    def _finish(ended: list[tuple[_Group, list[int]]]) -> None:
        for g, pids in ended:
            _signal_all(g, (signal.SIGKILL,), [*pids, *_descendants(g.proc.pid)])
            with contextlib.suppress(subprocess.TimeoutExpired):
                g.proc.wait(1)


def _signal_all(group: _Group, sigs: tuple[int, ...], pids: list[int] | None = None) -> list[int]:
    """Each of `sigs`, in order, to the app's scope, its process group and every process descended from
    it (found once, before the first signal, unless `pids` are given). Returns those processes."""
    proc = group.proc
    pids = _descendants(proc.pid) if pids is None else pids
    for sig in sigs:
        if group.unit is not None:
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                subprocess.run(["systemctl", "--user", "kill", f"--signal={int(sig)}", f"{group.unit}.scope"],
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=5)
        # the group too (pgid = the leader's pid: a new session). A launcher that exited and was reaped
        # leaves its children in that group; Linux does not reuse the number while the group has members
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        for pid in pids:  # a child in a session of its own (a terminal's shell)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
    return pids


def _descendants(root: int) -> list[int]:
    """Every process below `root` in the process tree, and every member of its process group, now."""
    children: dict[int, list[int]] = {}
    members: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        pid, ppid, pgrp = int(entry), int(fields[1]), int(fields[2])
        children.setdefault(ppid, []).append(pid)
        if pgrp == root:
            members.append(pid)
    out: list[int] = []
    todo = [root, *members]
    seen = set(todo)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                out.append(child)
                todo.append(child)
    return [*members, *out]


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
