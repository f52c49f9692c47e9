"""What the agent wrote in a session, so a file it runs later is judged by what it holds (DESIGN §2b).

`bash x.sh` is harmless on its face; what runs is in `x.sh`. The supervisor remembers each file an agent's
`file_write` put on disk in the session (resolved path → content; moves and deletes followed) and hands the
files a command may run to the gate in `Observation.scripts`; the gate decides which of them the command
really runs (gate/content.py `script_runs`) and judges their content (gate/rules/content.py). A `file_move`
gets the content of its source, so a file moved into `.git/hooks/` is judged by what was written to it.

Bounded: at most MAX_FILES files and MAX_BYTES characters a session (the oldest are forgotten first; a file
forgotten is run unjudged by content, as a file written by anyone else would be).
"""

from __future__ import annotations

import posixpath
import threading
from collections import OrderedDict

from gate.compiled import CompiledPolicy
from gate.model import Action, Script
from gate.paths import compute_facts

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
                self._put(real, action.content)  # type: ignore[attr-defined]
            elif kind == "file_move":
                content = self._pop(real)
                if content is not None and to is not None:
                    self._put(to, content)
            else:
                self._pop(real)

    def _pop(self, path: str) -> str | None:
        content = self._files.pop(path, None)
        if content is not None:
            self._size -= len(content)
        return content

    def _put(self, path: str, content: str) -> None:
        self._pop(path)
        self._files[path] = content
        self._size += len(content)
        while self._files and (len(self._files) > MAX_FILES or self._size > MAX_BYTES):
            _, old = self._files.popitem(last=False)
            self._size -= len(old)
