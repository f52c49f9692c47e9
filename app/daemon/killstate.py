"""The kill switch's memory: a killed supervisor stays killed across a restart until a person resumes it.

The state is one small JSON file (`Paths.kill_state`, mode 0600, directory 0700), written atomically
(temp file + fsync + rename) so a crash never leaves half a file. Reading fails closed: a file that
exists but cannot be read or parsed counts as killed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import time
from pathlib import Path

__all__ = ["KillRecord", "KillStateFile"]


@dataclasses.dataclass(frozen=True)
class KillRecord:
    reason: str
    by: str
    at: float  # wall-clock seconds since the epoch (for a person to read; never used for timing)

    def to_dict(self) -> dict[str, object]:
        return {"state": "killed", "reason": self.reason, "by": self.by, "at": self.at}


class KillStateFile:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def load(self) -> KillRecord | None:
        """The persisted kill, or None when deskgate was not killed. Unreadable or corrupt → killed."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as err:
            return KillRecord(f"kill state file unreadable ({err.strerror}); treated as killed", "deskgate",
                              time.time())
        try:
            data = json.loads(raw)
            if not isinstance(data, dict) or data.get("state") != "killed":
                raise ValueError("not a kill record")
            return KillRecord(str(data.get("reason", "")), str(data.get("by", "")), float(data.get("at", 0.0)))
        except (ValueError, TypeError):
            return KillRecord("kill state file corrupt; treated as killed", "deskgate", time.time())

    def save(self, record: KillRecord) -> None:
        """Persist durably. Raises OSError when the file cannot be written (the caller stays killed anyway)."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, json.dumps(record.to_dict()).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        self._sync_dir()

    def clear(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
            self._sync_dir()

    def _sync_dir(self) -> None:
        # the rename / unlink itself must survive a power cut, not just the file's bytes
        try:
            dfd = os.open(self.path.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dfd)
        except OSError:
            pass
        finally:
            os.close(dfd)
