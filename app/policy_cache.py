"""The compiled policy's regex programs, kept on disk between `deskgate check` processes.

    cache = PolicyCache.for_policy(state_dir, policy_file, preset)
    cache.load()     # before the gate is imported and built: its regexes come from the stored programs
    ...build the SafetyGate...
    cache.save()     # writes the programs when this process had to compile any

Building a gate is mostly compiling regexes (gate/regex_store.py), and `deskgate check` in a script or a
pre-commit hook pays that on every run. The programs are stored under the state directory, one file per key:
the deskgate version, the `re` engine, the preset, and the content of the policy file and of every shipped
resource the gate compiles from. A stored program is used only for the pattern it was compiled from, so a
stale or foreign file can cost time, never change a verdict; a damaged one is ignored.

The running supervisor does not read this file: it enforces, so it compiles what it enforces itself (a
program is opaque data, and the state directory is only as safe as the fence around it). It starts once.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from importlib import resources
from pathlib import Path

from app import __version__
from gate import regex_store

__all__ = ["PolicyCache"]

_KEEP = 4  # stored policies kept per user (a person switching between a few policies keeps all warm)
_PREFIX = "compiled-"


def _resource_digest(h: hashlib._Hash) -> None:
    root = resources.files("resources")
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.is_file() and entry.name.endswith((".toml", ".json", ".txt")):
            h.update(entry.name.encode() + b"\0" + entry.read_bytes() + b"\0")


class PolicyCache:
    def __init__(self, directory: Path, key: str) -> None:
        self.directory = Path(directory)
        self.path = self.directory / f"{_PREFIX}{key}.json"
        self._loaded = 0

    @classmethod
    def for_policy(cls, state_dir: Path, policy_file: str | os.PathLike[str] | None, preset: str | None
                   ) -> PolicyCache:
        h = hashlib.sha256(f"{__version__}\0{regex_store.engine()}\0{preset or ''}\0".encode())
        if policy_file is not None:
            try:
                h.update(Path(policy_file).read_bytes())
            except OSError:
                h.update(b"\0unreadable:" + os.fsencode(policy_file))  # the policy load will say why
        _resource_digest(h)
        return cls(Path(state_dir) / "compiled", h.hexdigest()[:32])

    def load(self) -> int:
        """Take the stored programs, if any; how many. Never fails: without them the gate compiles as usual."""
        regex_store.keep()
        try:
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return 0
        taken = regex_store.load(data)
        self._loaded = regex_store.known()
        return taken

    def save(self) -> bool:
        """Store this process's programs when it compiled any the file did not have. Never fails."""
        if self._loaded and regex_store.known() <= self._loaded:
            return False
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(regex_store.table(), f, separators=(",", ":"))
                os.replace(tmp, self.path)  # readers see the old file or the whole new one
            except BaseException:
                os.unlink(tmp)
                raise
            self._prune()
        except OSError:
            return False
        return True

    def _prune(self) -> None:
        stored = sorted(self.directory.glob(f"{_PREFIX}*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in stored[_KEEP:]:
            old.unlink(missing_ok=True)
