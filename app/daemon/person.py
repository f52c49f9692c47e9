"""Who is at the other end: the person at a terminal, or a process acting for an agent (SECURITY.md).

A process of the person's own uid can do anything the person's shell can, so no secret can tell them
apart. What an agent of that uid cannot do is type on the person's keyboard: `deskgate resume` asks on
the controlling terminal (`/dev/tty`) for a code it has just printed there, and the supervisor checks,
from the kernel's view of the requesting process (`/proc/PID/stat`), that it is the foreground job of a
terminal that no agent session holds and that no agent session is among its ancestors. A background
loop, a hook or tool call without a terminal, or a child of a connected agent is refused.

What this does not stop (documented in SECURITY.md): a same-uid agent that opens a pseudo-terminal of
its own, runs `deskgate resume` in it and answers the prompt itself. Only a different uid for the agent
(`[agents] uids`) closes that.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from collections.abc import Iterable

__all__ = ["ProcStat", "agent_lineage", "alive", "ask_on_terminal", "person_refusal", "proc_stat"]

_PROC = "/proc"
# letters a person reads and types without ambiguity (no 0/O, 1/l/I)
_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
# programs a hook is started through (`sh -c "deskgate hook ..."`): the agent is the first process above them
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox", "env", "timeout"})


@dataclasses.dataclass(frozen=True)
class ProcStat:
    pid: int
    ppid: int
    pgrp: int
    session: int
    tty_nr: int      # the controlling terminal's device number; 0 when there is none
    tpgid: int       # the foreground process group of that terminal (-1 when there is none)
    starttime: int   # clock ticks after boot: with the pid, names one process even if pids are reused


def proc_stat(pid: int, proc: str = _PROC) -> ProcStat | None:
    """The kernel's view of a process, or None when it is gone or unreadable."""
    try:
        with open(f"{proc}/{int(pid)}/stat", "rb") as fh:
            raw = fh.read().decode("ascii", "replace")
    except (OSError, ValueError):
        return None
    # the command name may hold spaces and parentheses: the fields start after the LAST ')'
    fields = raw[raw.rfind(")") + 2:].split()
    try:
        return ProcStat(pid=int(pid), ppid=int(fields[1]), pgrp=int(fields[2]), session=int(fields[3]),
                        tty_nr=int(fields[4]), tpgid=int(fields[5]), starttime=int(fields[19]))
    except (IndexError, ValueError):
        return None


def _ancestors(stat: ProcStat, proc: str) -> Iterable[int]:
    seen = 0
    pid = stat.ppid
    while pid > 1 and seen < 256:
        yield pid
        parent = proc_stat(pid, proc)
        if parent is None:
            return
        pid = parent.ppid
        seen += 1


def person_refusal(pid: int | None, agent_pids: Iterable[int], proc: str = _PROC) -> str | None:
    """Why the process `pid` does not count as the person at a terminal; None when it does.

    agent_pids: the processes of the live agent sessions (their terminals and descendants are theirs)."""
    if pid is None or pid <= 0:
        return "the requesting process is unknown"
    stat = proc_stat(pid, proc)
    if stat is None:
        return f"process {pid} cannot be inspected"
    if stat.tty_nr == 0:
        return "the request does not come from a terminal"
    if stat.tpgid != stat.pgrp:
        return "the request comes from a background job, not the terminal's foreground"
    agents = {int(p) for p in agent_pids if p}
    for agent in agents:
        other = proc_stat(agent, proc)
        if other is not None and other.tty_nr == stat.tty_nr:
            return f"its terminal is also the terminal of agent process {agent}"
    if pid in agents:
        return f"process {pid} is a connected agent"
    for ancestor in _ancestors(stat, proc):
        if ancestor in agents:
            return f"it was started by agent process {ancestor}"
    return None


def _comm(pid: int, proc: str) -> str:
    try:
        with open(f"{proc}/{int(pid)}/comm", "rb") as fh:
            return fh.read().decode("utf-8", "replace").strip()
    except (OSError, ValueError):
        return ""


def agent_lineage(pid: int | None, proc: str = _PROC) -> list[tuple[int, int]]:
    """The processes (pid, start time) that started the process `pid`, up to and including the first that
    is not a shell: the agent behind a hook that opened a short session and is gone again."""
    stat = proc_stat(pid, proc) if pid else None
    out: list[tuple[int, int]] = []
    while stat is not None and stat.ppid > 1 and len(out) < 4:
        parent = proc_stat(stat.ppid, proc)
        if parent is None:
            break
        out.append((parent.pid, parent.starttime))
        if _comm(parent.pid, proc) not in _SHELLS:
            break
        stat = parent
    return out


def alive(pid: int, starttime: int | None, proc: str = _PROC) -> bool:
    """True when `pid` is still the process that started at `starttime` (a reused pid is another one)."""
    stat = proc_stat(pid, proc)
    return stat is not None and (starttime is None or stat.starttime == starttime)


class TerminalError(OSError):
    """No terminal to ask on, or the person did not confirm."""


def ask_on_terminal(what: str, *, tty_path: str = "/dev/tty", code: str | None = None) -> None:
    """Ask the person at the controlling terminal to confirm `what` by typing a code shown there.

    Raises TerminalError (nothing confirmed) when there is no terminal or the answer is not the code.
    Reading `/dev/tty`, not stdin: a pipe (`echo y | deskgate resume`) cannot answer."""
    try:
        fd = os.open(tty_path, os.O_RDWR | os.O_NOCTTY)
    except OSError as err:
        raise TerminalError(f"no terminal to confirm on ({err.strerror or err})") from None
    code = code or "".join(secrets.choice(_CODE_ALPHABET) for _ in range(4))
    try:
        with open(fd, "r+b", buffering=0, closefd=True) as tty:
            tty.write(f"deskgate: {what}\nType {code} and Enter to confirm (anything else cancels): ".encode())
            answer = tty.readline(256).decode("utf-8", "replace").strip()
    except OSError as err:
        raise TerminalError(f"the terminal could not be read ({err.strerror or err})") from None
    if answer != code:
        raise TerminalError("not confirmed (the code did not match)")
