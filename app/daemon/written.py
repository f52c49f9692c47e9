"""What the agent wrote in a session, so a file it runs later is judged by what it holds (DESIGN §2b).

`bash x.sh` is harmless on its face; what runs is in `x.sh`. The supervisor remembers each file an agent's
`file_write` put on disk in the session (resolved path → content; moves and deletes followed), and each file
a shell command it ran wrote by name (`echo ... > x.sh`, `tee`, `cp`, `curl -o`: gate/content.py
`files_written`), read back from disk after the command ended, and hands the
files a command may run to the gate in `Observation.scripts`; the gate decides which of them the command
really runs (gate/content.py `script_runs`) and judges their content (gate/rules/content.py). A `file_move`
gets the content of its source, so a file moved into `.git/hooks/` is judged by what was written to it.

Bounded: at most MAX_FILES files and MAX_BYTES characters a session (the oldest are forgotten first; a file
forgotten is run unjudged by content, as a file written by anyone else would be).
"""

from __future__ import annotations

import os
import posixpath
import stat
import threading
from collections import OrderedDict

from gate.compiled import CompiledPolicy
from gate.content import MAX_CONTENT, files_written
from gate.model import Action, Script
from gate.paths import compute_facts
from gate.shell import analyse

__all__ = ["WrittenFiles"]

MAX_FILES = 64
MAX_BYTES = 4 * 1024 * 1024


def _resolve(path: str, to: str | None, compiled: CompiledPolicy) -> tuple[str, str | None] | None:
    try:
        facts = compute_facts(path, to, compiled)
    except (ValueError, OSError):
        return None
    return facts.real, facts.to_real


class WrittenFiles:
    """One session's written files. Thread-safe."""

    def __init__(self) -> None:
        self._files: OrderedDict[str, str] = OrderedDict()
        # each file's (mtime, size) when its content was taken: a later command that changed it some other way
        # (`sed -i`, an interpreter, a build step) is noticed and the file read again
        self._stamps: dict[str, tuple[int, int] | None] = {}
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._files)

    def scripts_for(self, action: Action, compiled: CompiledPolicy, line: str = "") -> tuple[Script, ...]:
        """The written files `action` may run (a shell command naming one, or a line typed into a terminal:
        `line` is the line so far) or move (a file_move's source)."""
        with self._lock:
            if not self._files:
                return ()
            files = list(self._files.items())
        kind = action.type
        if kind in ("shell", "type", "key"):
            if kind == "shell":
                text = action.command if action.command is not None else " ".join(action.argv or ())  # type: ignore[attr-defined]
            else:
                text = line + (action.text if kind == "type" else "")  # type: ignore[attr-defined]
            return tuple(Script(p, c) for p, c in files if posixpath.basename(p) in text)
        if kind == "tool":  # a tool that runs a file (`run_script {"path": ...}`): any file its input names
            text = " ".join(_tool_strings(action.input))  # type: ignore[attr-defined]
            return tuple(Script(p, c) for p, c in files if posixpath.basename(p) in text)
        if kind == "file_move":
            got = _resolve(action.path, None, compiled)  # type: ignore[attr-defined]
            return tuple(Script(p, c) for p, c in files if got is not None and p == got[0])
        return ()

    def after(self, action: Action, compiled: CompiledPolicy) -> None:
        """Follow a file action that ran: a write is remembered, a move carries its content, a delete forgets."""
        kind = action.type
        if kind not in ("file_write", "file_move", "file_delete"):
            return
        got = _resolve(action.path, getattr(action, "to", None), compiled)  # type: ignore[attr-defined]
        if got is None:
            return
        real, to = got
        with self._lock:
            if kind == "file_write":
                self._put(real, action.content, _stamp(real))  # type: ignore[attr-defined]
            elif kind == "file_move":
                content = self._pop(real)
                if content is not None and to is not None:
                    self._put(to, content, _stamp(to))
            else:
                self._pop(real)

    def after_shell(self, action: Action, compiled: CompiledPolicy) -> None:
        """Read back the files a shell command that ran wrote by name, so running one later is judged by
        what it holds. A file that cannot be read as text (gone, not a regular file, binary) is forgotten:
        what was remembered under its name is no longer what it holds."""
        if action.type != "shell":
            return
        command = action.command if action.command is not None else list(action.argv or ())  # type: ignore[attr-defined]
        if not command:
            return
        cwd = os.path.expanduser(action.cwd or "~")  # type: ignore[attr-defined]
        if not os.path.isabs(cwd):
            cwd = os.path.join(os.path.expanduser("~"), cwd)  # as the executor runs it
        named: set[str] = set()
        for name in files_written(analyse(command, action.cwd)):  # type: ignore[attr-defined]
            got = _resolve(os.path.join(cwd, os.path.expanduser(name)), None, compiled)
            if got is not None:
                named.add(got[0])
        with self._lock:
            # and every file already remembered that changed on disk since its content was taken
            changed = {p for p, stamp in self._stamps.items() if p not in named and _stamp(p) != stamp}
        for path in named | changed:
            content, stamp = _read_text(path), _stamp(path)
            with self._lock:
                if content is None:
                    self._pop(path)
                else:
                    self._put(path, content, stamp)

    def _pop(self, path: str) -> str | None:
        content = self._files.pop(path, None)
        self._stamps.pop(path, None)
        if content is not None:
            self._size -= len(content)
        return content

    def _put(self, path: str, content: str, stamp: tuple[int, int] | None = None) -> None:
        self._pop(path)
        self._files[path] = content
        self._stamps[path] = stamp
        self._size += len(content)
        while self._files and (len(self._files) > MAX_FILES or self._size > MAX_BYTES):
            old_path, old = self._files.popitem(last=False)
            self._stamps.pop(old_path, None)
            self._size -= len(old)


def _tool_strings(value: object, depth: int = 0) -> list[str]:
    """The strings of a tool's input, a few levels deep (where a path to run may be)."""
    if isinstance(value, str):
        return [value[:4096]]
    if depth < 4 and isinstance(value, dict):
        return [t for v in list(value.values())[:64] for t in _tool_strings(v, depth + 1)]
    if depth < 4 and isinstance(value, list | tuple):
        return [t for v in value[:32] for t in _tool_strings(v, depth + 1)]
    return []


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _read_text(path: str) -> str | None:
    """The start of a regular file as text (MAX_CONTENT characters, as the gate judges), or None. Never
    blocks on a FIFO or a device the agent put there."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, MAX_CONTENT * 4)
    except OSError:
        return None
    finally:
        os.close(fd)
    if b"\0" in data:
        return None  # a binary: no shell or script rule reads it
    return data.decode("utf-8", errors="replace")[:MAX_CONTENT]
