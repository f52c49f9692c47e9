"""Rule: a command aimed at deskgate's own process by its number.

`pkill deskgate` names the supervisor and the shell rules block it. A hostile agent learns the number instead
(`pgrep -f serve`, `ps`, `/proc/*/cmdline` in an earlier step, whose output the gate never sees) and then sends
`kill -STOP 4242`: harmless-looking on its own. The supervisor tells the gate which processes are its own
(`Observation.own_pids`), so any of these aimed at one of them blocks:

- a signal (`kill`, `kill -s`, a process group `-4242`, `taskkill /PID`, `Stop-Process -Id`, `wmic process
  where processid=…`), which stops, freezes or ends the person's control;
- a debugger or tracer attached to it (`gdb -p`, `strace -p`, `py-spy`, `gcore`, `reptyr`), which can rewrite
  its memory or read its keys;
- its priority, CPU set or limits changed (`renice`, `ionice`, `chrt`, `taskset -p`, `cpulimit`, `prlimit`),
  which starves the person's control path;
- its `/proc/<pid>/` files read or written (`mem`, `environ`, `fd/`), whatever the program;
- interpreter code that signals or suspends it (`python3 -c "import os; os.kill(4242, 19)"`).

`kill $PPID` ends the process that started the shell: deskgate itself when deskgate runs the command. It blocks
without knowing any number.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, rule
from gate.shell import command_facts

__all__ = ["RULES"]

# programs that act on a process given by number, and the flags that take the number
_SIGNALS = frozenset({"kill", "taskkill", "stop-process", "tkill", "skill", "snice"})
_BY_FLAG = {
    "gdb": ("-p", "--pid"), "strace": ("-p",), "ltrace": ("-p",), "py-spy": ("--pid", "-p"), "gcore": (),
    "reptyr": (), "renice": ("-p",), "ionice": ("-p",), "chrt": ("-p",), "taskset": ("-p", "--pid"),
    "cpulimit": ("-p", "--pid"), "prlimit": ("-p", "--pid"), "perf": ("-p", "--pid"), "lsof": (),
    "pmap": (), "procdump": (), "debug-process": ("-id",), "pidstat": (), "kill": ("-s",),
    "wait-process": ("-id",), "get-process": (),
}
_WATCH_ONLY = frozenset({"lsof", "pmap", "pidstat", "get-process"})  # read what it is doing: allowed
_PROC_PATH = re.compile(r"/proc/(\d+)(?:/|$)")
_NUMBER = re.compile(r"^-?(\d{1,10})$")
_PPID = re.compile(r"^\$\{?ppid\}?$")
_WMIC_PID = re.compile(r"processid\s*=\s*['\"]?(\d+)")
# code handed to an interpreter that signals, attaches to or re-prioritises a process (`os.kill(N, 19)`,
# `process.kill(N)`, `Process.kill(N)`, `psutil.Process(N).suspend()`): the numbers in it are its targets
_CODE_ACTS = re.compile(r"\bkill|\bsuspend\b|\bnice\b|\bptrace\b|\bsetpriority\b|\bprocess\s*\(|\bkillpg\b",
                        re.IGNORECASE)
_CODE_NUMBER = re.compile(r"(?<![\w.])(\d{1,10})(?![\w.])")


def _numbers(words: tuple[str, ...]) -> set[int]:
    out = set()
    for w in words:
        for part in w.replace(",", " ").split():
            m = _NUMBER.match(part.split("=", 1)[-1])
            if m:
                out.add(int(m.group(1)))
    return out


def _in_code(words: tuple[str, ...]) -> set[int]:
    """The numbers in an argument that is code acting on processes (an interpreter's `-c`/`-e` text)."""
    return {int(n) for w in words[1:] if len(w) > 6 and _CODE_ACTS.search(w) for n in _CODE_NUMBER.findall(w)}


def _aimed(name: str, words: tuple[str, ...]) -> set[int]:
    """The process numbers this simple command acts on (by signal, debugger, scheduler or /proc)."""
    args = words[1:]
    found = {int(m.group(1)) for w in words for m in _PROC_PATH.finditer(w)}
    if name in _SIGNALS:
        # every number but a signal's (`kill -9 N`, `kill -s 9 N`, `kill -n 9 N`); `-N` is a process group
        skip = False
        for k, a in enumerate(args):
            if skip:
                skip = False
                continue
            if a in ("-s", "-n", "--signal", "/f", "/t", "/im", "-force"):
                skip = a in ("-s", "-n", "--signal")
                continue
            if k == 0 and name == "kill" and _NUMBER.match(a) and a.startswith("-") and len(args) > 1:
                continue  # `kill -9 N`: the first dash number is the signal
            found |= _numbers((a,))
    elif name == "wmic":
        found |= {int(m.group(1)) for w in args for m in _WMIC_PID.finditer(w)}
    elif name in _BY_FLAG and name not in _WATCH_ONLY:
        flags = _BY_FLAG[name]
        at = next((k for k, a in enumerate(args) if a in flags), None)
        if at is not None:  # every plain number after the flag (`taskset -p 0x1 N`, `renice -n 5 -p N M`)
            found |= _numbers(tuple(a for a in args[at + 1:] if not a.startswith("-")))
        found |= _numbers(tuple(a for a in args if any(a.startswith(f + "=") for f in flags if f.startswith("--"))))
        if not flags or (name == "renice" and at is None):  # `gcore N`, `renice 19 N`: operands are numbers
            found |= _numbers(tuple(a for a in args if not a.startswith("-")))
    return found


@rule("block.shell.own-process", "a signal, debugger or priority change aimed at deskgate's own process",
      risk=Risk.CRITICAL, types=("shell", "type"))
def own_process(ctx: Context) -> CheckResult:
    """A command that signals (stops, freezes, ends), attaches a debugger or tracer to, changes the priority or
    limits of, or opens the /proc files of deskgate's own process, given by its number
    (`Observation.own_pids`, filled in by the supervisor); or `kill $PPID`, the process that started the shell,
    which is deskgate when deskgate runs it. Reading what a process does (`lsof -p`, `pmap`) passes."""
    facts = ctx.derived(command_facts)
    if facts is None:
        return None
    own = set(ctx.observation.own_pids)
    for cmd in facts.commands:
        name = cmd.name
        if name in ("kill", "taskkill", "stop-process") and any(_PPID.match(w) for w in cmd.words[1:]):
            return f"{name} $PPID ends the process that started this shell: deskgate, when it runs the command"
        if not own:
            continue
        hit = (_aimed(name, cmd.words) | _in_code(cmd.words)) & own
        if hit:
            return f"{name} acts on process {min(hit)}: deskgate's own supervisor, the person's control"
    return None


RULES = (own_process,)
