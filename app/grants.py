"""Standing approvals ("approve for 5 min" / "approve for session"), so a person is not asked twice.

A grant is exact: it is keyed by `gate.redact.approval_key(action)`, so a changed command, text or
target is a new key and asks again. It is scoped: to the agent session it was given in, and to the
app and window that were active when the person approved. It is time-limited: N minutes, or until the
session ends. A grant never turns a BLOCK into anything (the supervisor only looks grants up for
CONFIRM decisions), and a timeout never creates one. Grants live in memory only: a restart, a kill or
a revoke ends them all.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from collections.abc import Callable

from app.approvals import Answer

__all__ = ["Grant", "GrantStore"]


@dataclasses.dataclass(frozen=True)
class Grant:
    id: str
    key: str                 # approval_key of the sanitised action
    session_id: int
    agent: str
    app: str                 # the active app when the person approved ("" = none was known)
    window: str              # the active window title then
    summary: str             # what the action was, for a person reading the tray's list
    created: float           # clock() when given
    expires: float | None    # clock() deadline; None = until the session ends

    def to_dict(self, now: float) -> dict[str, object]:
        return {
            "id": self.id, "agent": self.agent, "session": self.session_id, "app": self.app,
            "window": self.window, "summary": self.summary,
            "scope": "session" if self.expires is None else "minutes",
            "expires_in_s": None if self.expires is None else round(max(0.0, self.expires - now), 1),
        }


class GrantStore:
    """Thread-safe. `clock` is the same monotonic clock the supervisor uses (injectable for tests)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._grants: dict[str, Grant] = {}
        self._ids = itertools.count(1)

    def add(self, answer: Answer, *, key: str, session_id: int, agent: str, app: str, window: str,
            summary: str, minutes: int) -> Grant | None:
        """Create the grant an answer asks for; None for answers that grant nothing (once, deny, timeout)."""
        now = self._clock()
        if answer is Answer.APPROVE_5_MIN:
            expires: float | None = now + minutes * 60.0
        elif answer is Answer.APPROVE_SESSION:
            expires = None
        else:
            return None
        with self._lock:
            grant = Grant(f"g{next(self._ids)}", key, session_id, agent, app, window, summary[:200], now, expires)
            self._grants[grant.id] = grant
        return grant

    def find(self, key: str, *, session_id: int, app: str, window: str) -> Grant | None:
        """A live grant for exactly this action, in this session, on this app and window."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            for grant in self._grants.values():
                if (grant.key == key and grant.session_id == session_id and grant.app == app
                        and grant.window == window):
                    return grant
        return None

    def revoke(self, grant_id: str) -> Grant | None:
        with self._lock:
            return self._grants.pop(grant_id, None)

    def revoke_session(self, session_id: int) -> list[Grant]:
        with self._lock:
            gone = [g for g in self._grants.values() if g.session_id == session_id]
            for g in gone:
                del self._grants[g.id]
        return gone

    def revoke_all(self) -> list[Grant]:
        with self._lock:
            gone = list(self._grants.values())
            self._grants.clear()
        return gone

    def list(self) -> list[Grant]:
        with self._lock:
            self._expire(self._clock())
            return sorted(self._grants.values(), key=lambda g: g.created)

    def __len__(self) -> int:
        return len(self.list())

    def _expire(self, now: float) -> None:
        for gid in [gid for gid, g in self._grants.items() if g.expires is not None and g.expires <= now]:
            del self._grants[gid]
