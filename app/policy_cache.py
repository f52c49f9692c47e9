"""The compiled policy's regex programs and derived tables, kept on disk between `deskgate check` processes.

    cache = PolicyCache.for_policy(state_dir, policy_file, preset)
    cache.load()     # before the gate is imported and built: its regexes come from the stored programs
    ...build the SafetyGate...
    cache.save()     # writes the programs when this process had to compile any; `re.compile` is itself again

Building a gate is mostly compiling regexes (gate/regex_store.py) and reading the shipped tables, and
`deskgate check` in a script or a pre-commit hook pays that on every run. The programs are stored under the
state directory, one file per key: the deskgate version, the `re` engine, the preset, and the content of the
policy file and of every shipped resource the gate compiles from. Between `load` and `save` the modules' own
`re.compile` at import is served from the store too (`regex_store.route`). A stored program is used only for
the pattern it was compiled from, so a stale or foreign file can cost time, never change a verdict; a damaged
one (its CRC) is ignored. The file is trusted as far as the state directory is (the user's own, 0700): `check`
is the user's tool. Besides programs the file holds what code derives from a text: the harm book whole
(compiled and indexed), the privacy entries' word beginnings, the path patterns' required literals and the
parsed TOML of the shipped tables. Each is used only for the exact text it was derived from, and the key names
the source of the modules that derive them (`_DERIVERS`), so a changed derivation is a new key.

The running supervisor does not read this file: it enforces, so it compiles what it enforces itself (a
program is opaque data, and the state directory is only as safe as the fence around it). It starts once.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zlib
from importlib import resources
from pathlib import Path

from app import __version__
from gate import regex_store

__all__ = ["PolicyCache"]

# the modules whose code turns a text into what regex_store.recall() keeps: their source is part of the key
_DERIVERS = ("harm_content.py", "patterns.py", "prefix.py", "privacy.py", "regex_store.py")
_KEEP = 4  # stored policies kept per user (a person switching between a few policies keeps all warm)
_PREFIX = "compiled-"
_SUFFIX = ".bin"
# a store: this line, the JSON's length (8 bytes, little-endian), the CRC-32 of what follows (4 bytes), the
# JSON of `regex_store.table()` without its "code", then that code: the programs' machine words as they are in
# memory, read with no decoding. A file cut short or changed on disk fails the CRC and is not read at all.
_MAGIC = b"deskgate compiled regexes 2\n"
_HEAD = len(_MAGIC) + 12


def _resource_digest(h: hashlib._Hash) -> None:
    root = resources.files("resources")
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.is_file() and entry.name.endswith((".toml", ".json", ".txt")):
            h.update(entry.name.encode() + b"\0" + entry.read_bytes() + b"\0")
    code = resources.files("gate")
    for name in _DERIVERS:
        h.update(name.encode() + b"\0" + code.joinpath(name).read_bytes() + b"\0")


class PolicyCache:
    def __init__(self, directory: Path, key: str) -> None:
        self.directory = Path(directory)
        self.path = self.directory / f"{_PREFIX}{key}{_SUFFIX}"
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
        """Take the stored programs, if any; how many. Never fails: without them the gate compiles as usual.
        Until `save`, the modules' own `re.compile` at import is served from them too (`regex_store.route`)."""
        regex_store.keep()
        regex_store.route(True)
        try:
            raw = self.path.read_bytes()
            body = memoryview(raw)[_HEAD:]
            if not raw.startswith(_MAGIC) or zlib.crc32(body) != int.from_bytes(raw[_HEAD - 4:_HEAD], "little"):
                return 0
            end = _HEAD + int.from_bytes(raw[len(_MAGIC):_HEAD - 4], "little")
            data = json.loads(raw[_HEAD:end]) if end <= len(raw) else None
        except (OSError, ValueError):
            return 0
        if not isinstance(data, dict):
            return 0
        data["code"] = memoryview(raw)[end:]
        taken = regex_store.load(data)
        self._loaded = regex_store.known()
        return taken

    def save(self) -> bool:
        """Store this process's programs when it compiled any the file did not have. Never fails."""
        regex_store.route(False)  # the gate is built: what is compiled from now on is compiled as usual
        if self._loaded and regex_store.known() <= self._loaded:
            return False
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=_SUFFIX)
            try:
                data = regex_store.table()
                code = data.pop("code")
                header = json.dumps(data, separators=(",", ":")).encode()
                crc = zlib.crc32(code, zlib.crc32(header))
                with os.fdopen(fd, "wb") as f:
                    f.write(_MAGIC + len(header).to_bytes(8, "little") + crc.to_bytes(4, "little") + header)
                    f.write(code)
                os.replace(tmp, self.path)  # readers see the old file or the whole new one
            except BaseException:
                os.unlink(tmp)
                raise
            self._prune()
        except OSError:
            return False
        return True

    def _prune(self) -> None:
        stored = sorted(self.directory.glob(f"{_PREFIX}*{_SUFFIX}"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in stored[_KEEP:]:
            old.unlink(missing_ok=True)
        for old in self.directory.glob(f"{_PREFIX}*.json"):  # the earlier, all-JSON stores
            old.unlink(missing_ok=True)
