"""The run state: kill, pause, the dialog gate, stopped agents and the processes known to act for agents.

One condition guards it all; `kill` notifies it so every waiter wakes at once.

- kill: the flag is set under the same lock every execution takes to start (`last_gate`), so once it is
  set no executor step starts. It is persisted (app/daemon/killstate.py) until a person resumes.
- pause: new act/plan/command requests are refused at once; not persisted.
- the dialog gate: while a confirmation is open (`asking`) or queued (`queued`), no agent action starts
  executing; a confirmation opens only once every in-flight input action (`running_input`) has finished,
  so an agent click can never land on the dialog. Every wait is bounded by a deadline (then `Stop` by the
  limit `step_timeout_s`) and ends at once on a kill (`Stop` by the kill switch).
- stopped agents: names a person stopped with "deny and stop"; barred from `hello` until a resume.
- agent processes (pid → start time), kept while they live: the process a scoped (hook) session was
  started by, which is the agent itself and whose children must not pass as the person once the hook's
  session ended, and the programs deskgate opened for an agent.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from app.daemon.killstate import KillRecord, KillStateFile
from app.daemon.outcome import INPUT_TYPES, Stop
from app.daemon.person import agent_lineage, alive
from app.errors import DeskgateError

__all__ = ["RunState"]

_AGENT_PROCESSES_MAX = 512


class RunState:
    def __init__(self, kill_file: KillStateFile, clock: Callable[[], float]) -> None:
        self.kill_file = kill_file
        self.clock = clock
        self._cv = threading.Condition(threading.Lock())
        self.killed: KillRecord | None = kill_file.load()
        self.paused: tuple[str, float] | None = None  # (by, since)
        self.asking = False        # a confirmation is open
        self.queued = 0            # confirmations waiting for their turn
        self._running_input = 0    # input actions executing now
        self._stopped_agents: set[str] = set()
        self._agent_processes: dict[int, int | None] = {}

    @property
    def state(self) -> str:
        if self.killed is not None:
            return "killed"
        return "paused" if self.paused is not None else "active"

    # -- kill and pause ----------------------------------------------------------------------------

    def set_killed(self, record: KillRecord) -> bool:
        """Set the kill flag (first kill wins) and wake every waiter. True when it was already killed."""
        with self._cv:
            already = self.killed is not None
            if not already:
                self.killed = record
            self._cv.notify_all()
        return already

    def clear_killed(self) -> bool:
        """Lift a kill (and the agents a person stopped). False when not killed. Raises OSError when the
        persisted kill cannot be removed (then it stays killed)."""
        with self._cv:
            if self.killed is None:
                return False
            self.kill_file.clear()
            self.killed = None
            self._stopped_agents.clear()
            self._cv.notify_all()
        return True

    def set_paused(self, by: str) -> bool:
        with self._cv:
            if self.paused is not None:
                return False
            self.paused = (by, time.time())
        return True

    def clear_paused(self) -> bool:
        with self._cv:
            if self.paused is None:
                return False
            self.paused = None
        return True

    def check_running(self, *, allow_paused: bool = False) -> None:
        """Raise the agent's `killed` / `paused` error when a new request may not start."""
        kill = self.killed
        if kill is not None:
            raise DeskgateError("killed", f"deskgate was killed by {kill.by}: {kill.reason}; nothing runs until "
                                          "a person resumes (`deskgate resume`)")
        pause = self.paused
        if pause is not None and not allow_paused:
            raise DeskgateError("paused", f"deskgate is paused by {pause[0]}; retry after it is unpaused")

    def kill_error(self) -> DeskgateError | None:
        kill = self.killed
        return None if kill is None else DeskgateError("killed", f"deskgate was killed by {kill.by}: {kill.reason}")

    # -- the dialog gate ---------------------------------------------------------------------------

    def _wait(self, ready: Callable[[], bool], deadline: float, what: str, step_timeout_s: float) -> None:
        """Wait on the condition (held by the caller) until ready(); kill or the deadline raise Stop.

        Waits in short real-time slices so an injected clock that jumps ahead is noticed."""
        while True:
            kill = self.killed
            if kill is not None:
                raise Stop("kill-switch", f"kill switch: {kill.reason}")
            if ready():
                return
            remaining = deadline - self.clock()
            if remaining <= 0:
                raise Stop("limit", f"step timeout: waited too long for {what} (limit step_timeout_s="
                                    f"{step_timeout_s})")
            self._cv.wait(min(remaining, 0.05))

    def take_asking_turn(self, deadline: float, step_timeout_s: float) -> int:
        """Hold the dialog for one confirmation, once no other is open and no input action runs; the
        caller gives it back with `end_asking_turn`. Returns how many wait behind it. Raises Stop (kill,
        turn timeout)."""
        with self._cv:
            self.queued += 1
            try:
                self._wait(lambda: not self.asking and self._running_input == 0, deadline,
                           "another confirmation to close", step_timeout_s)
            finally:
                self.queued -= 1
            self.asking = True
            return self.queued

    def end_asking_turn(self) -> None:
        with self._cv:
            self.asking = False
            self._cv.notify_all()

    def take_execution_turn(self, kind: str, deadline: float, step_timeout_s: float) -> None:
        """Wait until no confirmation is open or queued; an input action then counts as running until
        `end_execution_turn`. Raises Stop (kill, turn timeout)."""
        with self._cv:
            self._wait(lambda: not self.asking and self.queued == 0, deadline, "a confirmation dialog to close",
                       step_timeout_s)
            if kind in INPUT_TYPES:
                self._running_input += 1

    def end_execution_turn(self, kind: str) -> None:
        if kind in INPUT_TYPES:
            with self._cv:
                self._running_input -= 1
                if not self._running_input and self.queued:  # only a confirmation waits for input to stop
                    self._cv.notify_all()

    def last_gate(self) -> None:
        """The last check before the executor: `set_killed` sets the flag under this same lock."""
        with self._cv:
            kill = self.killed
            if kill is not None:
                raise Stop("kill-switch", f"kill switch: {kill.reason}")

    # -- agents ------------------------------------------------------------------------------------

    def stop_agent(self, agent: str) -> None:
        with self._cv:
            self._stopped_agents.add(agent)

    def is_stopped(self, agent: str) -> bool:
        return agent in self._stopped_agents

    def remember_agent(self, pid: int | None, starttime: int | None, *, scoped: bool) -> None:
        if not pid:
            return
        # a scoped session is a hook's: the agent is the process that ran it (through any `sh -c`). An
        # unscoped session's own process is not kept once it ends: it may be a person's tool or test harness
        found = agent_lineage(pid) if scoped else [(pid, starttime)]
        with self._cv:
            for p, start in found:
                self._agent_processes[p] = start
            if len(self._agent_processes) > _AGENT_PROCESSES_MAX:  # bounded: the dead go first
                for p, start in list(self._agent_processes.items()):
                    if not alive(p, start):
                        del self._agent_processes[p]

    def remembered_agents(self) -> list[int]:
        with self._cv:
            known = list(self._agent_processes.items())
        live = [p for p, start in known if alive(p, start)]
        with self._cv:
            for p, start in known:
                if p not in live and self._agent_processes.get(p) == start:
                    del self._agent_processes[p]
        return live
