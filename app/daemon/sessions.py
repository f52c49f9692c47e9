"""Agent sessions and the limits on them (DESIGN §3 "limits").

One session per `hello`; one active session per agent name. Limits, each reported by name in a
`limit` error:

- `sessions_per_hour`: new sessions an agent name may open in any sliding hour;
- `session_timeout_s`: a session's age; past it the session ends;
- `max_steps`: actions (plan steps included) one session may submit;
- `actions_per_minute`: actions in any sliding minute;
- `max_errors`: failed executions; reaching it ends the session;
- `step_timeout_s`: how long one step may wait for its turn (another agent's confirmation dialog)
  before it is denied by the limit.

The rate and step limits also hold per peer process, across all its connections and agent names
(`PeerBudget`), so reconnecting under new names resets nothing: at most `actions_per_minute` actions in
any sliding minute and `max_steps × sessions_per_hour` steps in any sliding hour (what one agent name
may do in an hour under the per-session limits); and per peer uid, all its processes together, at most
`uid_actions_per_minute` actions a minute.

Everything takes `now` from the supervisor's injectable clock; nothing here sleeps or reads time itself.
"""

from __future__ import annotations

import collections
import dataclasses
import threading
from typing import Any

import msgspec

from app.daemon.written import WrittenFiles
from app.errors import DeskgateError
from gate.history import History
from gate.model import Expect
from gate.policy import LimitsPolicy

__all__ = ["PeerBudget", "Session", "SessionRegistry"]


@dataclasses.dataclass(eq=False)
class Session:
    id: int
    agent: str
    pid: int | None
    uid: int | None
    expect: Expect | None
    started: float
    history: History = dataclasses.field(default_factory=History)
    steps: int = 0
    errors: int = 0
    recent: collections.deque[float] = dataclasses.field(default_factory=collections.deque)
    ended: str | None = None          # why the session ended (None while it is live)
    ended_code: str = "limit"         # the error code later requests on an ended session get
    scope: str | None = None          # hello's `scope`: grants given here outlive this session (app/daemon/grants.py)
    process: object = None            # the peer process (pid, start time) its steps are charged to
    written: WrittenFiles = dataclasses.field(default_factory=WrittenFiles)  # files the agent wrote here
    project: str | None = None        # hello's `project`, resolved and accepted: a work area (work_dirs)
    raised: int = 0                   # times a person raised this session's limits (the tray): each adds the policy's

    def limits_for(self, limits: LimitsPolicy) -> LimitsPolicy:
        """The policy's limits as they apply to this session: each raise by a person adds the policy's
        steps, rate and session time once more (a 500-step session raised once has 1000)."""
        if not self.raised:
            return limits
        n = 1 + self.raised
        return msgspec.structs.replace(limits, max_steps=limits.max_steps * n,
                                       actions_per_minute=limits.actions_per_minute * n,
                                       session_timeout_s=limits.session_timeout_s * n,
                                       uid_actions_per_minute=max(limits.uid_actions_per_minute,
                                                                  limits.actions_per_minute * n))

    def check_limits(self, limits: LimitsPolicy, now: float, steps: int = 1) -> None:
        """Raise DeskgateError(limit) naming the limit when `steps` more actions are not allowed now.

        Passing the check charges the steps (they count even if the gate then blocks them)."""
        if self.ended is not None:
            raise DeskgateError(self.ended_code, f"session {self.id} has ended: {self.ended}")
        if now - self.started >= limits.session_timeout_s:
            self.end(f"session timeout: older than session_timeout_s={limits.session_timeout_s}")
            raise DeskgateError("limit", f"session timeout: this session is older than {limits.session_timeout_s} s "
                                         "(limit session_timeout_s); start a new session")
        if self.steps + steps > limits.max_steps:
            raise DeskgateError("limit", f"max steps: this session has used {self.steps} of "
                                         f"{limits.max_steps} steps (limit max_steps; a person can raise it for "
                                         "this session from the tray)")
        while self.recent and self.recent[0] <= now - 60.0:
            self.recent.popleft()
        if len(self.recent) >= limits.actions_per_minute:
            # the time until the oldest of the last minute's actions ages out
            wait = self.recent[len(self.recent) - limits.actions_per_minute] + 60.0 - now
            raise DeskgateError("limit", f"rate: {len(self.recent)} actions in the last minute "
                                         f"(limit actions_per_minute={limits.actions_per_minute}); "
                                         f"retry in {wait:.1f} s", retry_after=wait)
        self.steps += steps
        self.recent.extend([now] * steps)

    def count_error(self, limits: LimitsPolicy) -> bool:
        """One more failed execution; True when that ends the session."""
        self.errors += 1
        if self.errors >= limits.max_errors and self.ended is None:
            self.end(f"too many errors: {self.errors} (limit max_errors={limits.max_errors})")
            return True
        return False

    def end(self, reason: str, code: str = "limit") -> None:
        if self.ended is None:
            self.ended = reason
            self.ended_code = code

    def to_dict(self, now: float) -> dict[str, Any]:
        return {"id": self.id, "agent": self.agent, "pid": self.pid, "steps": self.steps, "errors": self.errors,
                "age_s": round(now - self.started, 1), "ended": self.ended}


class SessionRegistry:
    """Who is connected: one live session per agent name, and when each name last opened sessions."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active: dict[str, Session] = {}
        self._opened: dict[str, collections.deque[float]] = collections.defaultdict(collections.deque)

    def reserve(self, agent: str, limits: LimitsPolicy, now: float) -> None:
        """Claim the agent name before the session row is written; raise `limit` when not allowed.

        Call `attach` (success) or `release_name` (failure) afterwards."""
        with self._lock:
            if agent in self._active:
                other = self._active[agent]
                raise DeskgateError("limit", f"agent {agent!r} already has an active session "
                                             f"({other.id}); one session per agent")
            opened = self._opened[agent]
            while opened and opened[0] <= now - 3600.0:
                opened.popleft()
            if len(opened) >= limits.sessions_per_hour:
                wait = opened[len(opened) - limits.sessions_per_hour] + 3600.0 - now
                raise DeskgateError("limit", f"agent {agent!r} opened {len(opened)} sessions in the last hour "
                                             f"(limit sessions_per_hour={limits.sessions_per_hour}); "
                                             f"retry in {wait:.0f} s", retry_after=wait)
            opened.append(now)
            self._active[agent] = _PENDING

    def attach(self, session: Session) -> None:
        with self._lock:
            self._active[session.agent] = session

    def release_name(self, agent: str) -> None:
        with self._lock:
            if self._active.get(agent) is _PENDING:
                del self._active[agent]

    def remove(self, session: Session) -> bool:
        """Forget a session; False when it was already gone."""
        with self._lock:
            if self._active.get(session.agent) is session:
                del self._active[session.agent]
                return True
            return False

    def active(self) -> list[Session]:
        with self._lock:
            return [s for s in self._active.values() if s is not _PENDING]


class PeerBudget:
    """Actions charged per peer process and per peer uid, over every session of each (module docstring).

    A process (pid + start time, so a reused pid is a new process) gets the per-session numbers:
    `actions_per_minute` in any minute and `max_steps × sessions_per_hour` steps in any hour. A uid, all
    its processes together, gets `uid_actions_per_minute`: a runaway agent that starts a new process per
    action is held too, while a few agents of one person each keep their own process budget."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._minute: dict[object, _Window] = collections.defaultdict(_Window)
        self._hour: dict[object, _Window] = collections.defaultdict(_Window)

    @staticmethod
    def _count(window: _Window, since: float) -> int:
        return window.count(since)

    def check(self, process: object, uid: int | None, limits: LimitsPolicy, now: float, steps: int = 1) -> None:
        """Raise DeskgateError(limit) when this process or uid may not submit `steps` more actions now."""
        with self._lock:
            window = self._minute[process]
            in_minute = self._count(window, now - 60.0)
            if in_minute + steps > limits.actions_per_minute:
                raise DeskgateError("limit", f"rate: this process submitted {in_minute} actions in the last minute "
                                             "over all its sessions (limit actions_per_minute="
                                             f"{limits.actions_per_minute}, per process as well as per session)",
                                    retry_after=window.wait(limits.actions_per_minute - steps, 60.0, now))
            cap = limits.max_steps * limits.sessions_per_hour
            hour = self._hour[process]
            in_hour = self._count(hour, now - 3600.0)
            if in_hour + steps > cap:
                raise DeskgateError("limit", f"max steps: this process submitted {in_hour} steps in the last hour "
                                             f"over all its sessions (limit max_steps × sessions_per_hour = {cap})",
                                    retry_after=hour.wait(cap - steps, 3600.0, now))
            by_uid_window = self._minute[("uid", uid)]
            by_uid = self._count(by_uid_window, now - 60.0)
            if by_uid + steps > limits.uid_actions_per_minute:
                raise DeskgateError("limit", f"rate: uid {uid} submitted {by_uid} actions in the last minute over all "
                                             "its processes (limit uid_actions_per_minute="
                                             f"{limits.uid_actions_per_minute})",
                                    retry_after=by_uid_window.wait(limits.uid_actions_per_minute - steps, 60.0, now))

    def charge(self, process: object, uid: int | None, now: float, steps: int = 1) -> None:
        with self._lock:
            self._minute[process].add(now, steps)
            self._hour[process].add(now, steps)
            self._minute[("uid", uid)].add(now, steps)


class _Window:
    """Steps charged in a sliding window, with their running total: a check costs the entries that
    expired since the last one, not a sum over the whole window (which grows with the request rate)."""

    __slots__ = ("entries", "total")

    def __init__(self) -> None:
        self.entries: collections.deque[tuple[float, int]] = collections.deque()
        self.total = 0

    def count(self, since: float) -> int:
        """Steps charged after `since` (older ones are dropped)."""
        entries = self.entries
        while entries and entries[0][0] <= since:
            self.total -= entries.popleft()[1]
        return self.total

    def add(self, now: float, steps: int) -> None:
        self.entries.append((now, steps))
        self.total += steps

    def wait(self, room: int, span: float, now: float) -> float | None:
        """Seconds until at most `room` steps remain in the window of `span` seconds (None: never, the
        request is bigger than the limit itself)."""
        if room < 0:
            return None
        left = self.total
        for at, steps in self.entries:
            if left <= room:
                break
            left -= steps
            if left <= room:
                return max(at + span - now, 0.0)
        return 0.0


# placeholder occupying an agent name while its session row is being written
_PENDING = Session(id=0, agent="", pid=None, uid=None, expect=None, started=0.0)
