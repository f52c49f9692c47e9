"""Standing approvals ("approve for 5 min" / "approve for session"), so a person is not asked twice.

A grant is exact: it is keyed by `gate.redact.approval_key(action)`, so a changed command, text or
target is a new key and asks again. It is scoped to the agent session it was given in or, when that
session named a `scope` in its hello (a hook that opens one short session per tool call names the
conversation it serves), to every session of that scope. A pointer or keyboard action's grant is also
bound to the app and window that were active when the person approved; a shell, file, web or tool
action is not aimed at a window, so the window the person happens to be typing in does not matter.
It is time-limited: N minutes, or until the session ends (for a scope, which has no end deskgate can
see: until the scope has gone `idle_s` without using the grant). A grant never turns a BLOCK into
anything (the supervisor only looks grants up for CONFIRM decisions), and a timeout never creates one.
Grants live in memory only: a restart, a kill, a policy change or a revoke ends them all.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
import time
from collections.abc import Callable

from app.ports import Answer

__all__ = ["WINDOWLESS_TYPES", "Grant", "GrantStore", "grantable"]

# Actions not aimed at the active window. Every other kind (pointer, keyboard, a plan, an unknown type)
# holds its grant only on the app/window it was given on.
WINDOWLESS_TYPES = frozenset({"shell", "file_read", "file_write", "file_delete", "file_move", "navigate", "tool",
                              "open_app", "system", "wait", "screenshot"})


def grantable(*, scope: str | None, execute: bool) -> bool:
    """Whether a standing approval can ever cover a repeat of this request.

    A session that only asks (execute=false) and names no scope is a one-shot asker: it ends before it
    could repeat anything, so offering "approve for 5 min / session" would promise what cannot happen."""
    return execute or scope is not None


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
    expires: float | None    # clock() deadline; None = until the session (or the scope's idle limit) ends
    scope: str | None = None       # the session's scope: the grant covers every session of it
    window_bound: bool = True      # app/window must match (pointer and keyboard actions)

    def to_dict(self, now: float) -> dict[str, object]:
        return {
            "id": self.id, "agent": self.agent, "session": self.session_id, "app": self.app,
            "window": self.window, "summary": self.summary, "scope_name": self.scope,
            "scope": "session" if self.expires is None else "minutes",
            "expires_in_s": None if self.expires is None else round(max(0.0, self.expires - now), 1),
        }


class GrantStore:
    """Thread-safe. `clock` is the same monotonic clock the supervisor uses (injectable for tests).

    `idle_s`: how long a scoped "session" grant lives without being used."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, idle_s: float = 600.0) -> None:
        self._clock = clock
        self.idle_s = idle_s
        self._lock = threading.Lock()
        self._grants: dict[str, Grant] = {}
        self._used: dict[str, float] = {}
        self._ids = itertools.count(1)

    def add(self, answer: Answer, *, key: str, session_id: int, agent: str, app: str, window: str,
            summary: str, minutes: int, scope: str | None = None, action_type: str = "") -> Grant | None:
        """Create the grant an answer asks for; None for answers that grant nothing (once, deny, timeout)."""
        now = self._clock()
        if answer is Answer.APPROVE_5_MIN:
            expires: float | None = now + minutes * 60.0
        elif answer is Answer.APPROVE_SESSION:
            expires = None
        else:
            return None
        bound = action_type not in WINDOWLESS_TYPES
        with self._lock:
            grant = Grant(f"g{next(self._ids)}", key, session_id, agent, app, window, summary[:200], now, expires,
                          scope, bound)
            self._grants[grant.id] = grant
            self._used[grant.id] = now
        return grant

    def find(self, key: str, *, session_id: int, app: str, window: str, scope: str | None = None) -> Grant | None:
        """A live grant for exactly this action, in this session (or its scope), on this app and window
        when the grant is bound to one."""
        now = self._clock()
        with self._lock:
            self._expire(now)
            for grant in self._grants.values():
                if grant.key != key:
                    continue
                same_place = grant.session_id == session_id or (scope is not None and grant.scope == scope)
                if not same_place:
                    continue
                if grant.window_bound and (grant.app, grant.window) != (app, window):
                    continue
                self._used[grant.id] = now
                return grant
        return None

    def revoke(self, grant_id: str) -> Grant | None:
        with self._lock:
            self._used.pop(grant_id, None)
            return self._grants.pop(grant_id, None)

    def revoke_session(self, session_id: int) -> list[Grant]:
        """End the grants given in a session that has ended; a scoped grant outlives its session."""
        with self._lock:
            gone = [g for g in self._grants.values() if g.session_id == session_id and g.scope is None]
            for g in gone:
                del self._grants[g.id]
                self._used.pop(g.id, None)
        return gone

    def revoke_all(self) -> list[Grant]:
        with self._lock:
            gone = list(self._grants.values())
            self._grants.clear()
            self._used.clear()
        return gone

    def list(self) -> list[Grant]:
        with self._lock:
            self._expire(self._clock())
            return sorted(self._grants.values(), key=lambda g: g.created)

    def __len__(self) -> int:
        return len(self.list())

    def _expire(self, now: float) -> None:
        for gid, g in list(self._grants.items()):
            timed_out = g.expires is not None and g.expires <= now
            idle = g.expires is None and g.scope is not None and now - self._used.get(gid, g.created) >= self.idle_s
            if timed_out or idle:
                del self._grants[gid]
                self._used.pop(gid, None)
