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

A process chosen by name or pattern is the other way in: `pkill -f "serve --headless"`, `killall -STOP python3`
while deskgate runs as python, `kill -STOP $(pgrep -f app.root)`, `ps aux | grep serve | awk '{print $2}' |
xargs kill`. The supervisor also tells the gate the names a process search finds it by
(`Observation.own_names`: its process names; `Observation.own_cmdlines`: its whole command lines), and
`block.shell.own-process-name` blocks a signal whose search would match them, the way the program would
search: `pkill`/`pgrep` a regular expression over the name (over the whole command line with `-f`; `-x` whole,
`-i` any case), `killall`/`pidof` a whole name (`killall -r` a regular expression), `taskkill /IM` and
`Stop-Process -Name` a name with or without `.exe`, `grep` (or an awk `/pattern/`) over `ps` lines a pattern
over the command line (`-v` keeps what does not match: no search). A signal sent to numbers the gate cannot
see (`$(...)`, a variable, `xargs`) counts a search anywhere on the same line. `kill -1` and `pkill -u $USER`
with no pattern reach every process of the person, deskgate's too. A pattern that cannot match deskgate
(`pkill -f webpack`) keeps the decision it had; a search that only lists (`pgrep -f serve`) passes. The
product's own name, `deskgate`, is always one of these names: a signal to what a search for it finds blocks even
where the supervisor's process is named otherwise (`python3`), and the same holds for a change of priority, CPU
set or limits (`renice`, `ionice`, `taskset`, `prlimit`) and a tracer, as for a signal. A process search reads
`ps` output, and also `/proc/*/cmdline` (a loop over `/proc`, `grep -l NAME /proc/*/cmdline`), a service
manager's record of the unit (`systemctl --user show -p MainPID deskgate`), the sockets and open files listed
with their process (`ss -xlp`, `lsof -U`, `fuser`), and PowerShell's and WMI's filters over process objects
(`Where-Object { $_.CommandLine -like '*…*' }`, `Get-CimInstance Win32_Process -Filter "… like '%…%'"`),
whose `Stop-Process`, `Invoke-CimMethod -MethodName Terminate` or `wmic … call terminate` ends what they find.

In two steps: the agent finds the number first and keeps it (`P=$(pgrep -f deskgate)`, `pidof python3 >
/tmp/.p`, `systemctl --user show -p MainPID --value deskgate | tee pid`, `echo 4242 > n`), and signals it in a
later action (`kill -STOP $P`, `renice 19 $(cat /tmp/.p)`, `xargs kill < pid`). After each step the session
notes the variables and files a line that finds deskgate's number fills (`saved_own_pids`, called by
gate/rules/session.py `remember`; kept in gate/history.py), and `block.shell.own-process-saved` blocks a signal,
a tracer or a priority change whose number is read from one of them. A number read from a file nobody filled
that way (`kill $(cat server.pid)`) keeps the decision it had.
"""

from __future__ import annotations

import re
from functools import lru_cache

from gate.model import Risk
from gate.rules.base import CheckResult, Context, rule
from gate.shell import command_facts, resolve_path

__all__ = ["RULES", "saved_own_pids"]

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


# The rules below are judged in one call per action (the engine's batch): most commands name no process and no
# input device, and the words they would need are looked for in the raw text first.
_NAME_CUE = re.compile(r"kill|stop-process|snice|suspend|nice|ptrace|setpriority|process|taskset|prlimit|cpulimit|"
                       r"chrt|gdb|strace|ltrace|py-spy|gcore|reptyr|perf|procdump|terminate|-ciminstance|"
                       r"-wmiobject")
_NONE: dict[str, tuple[str, Risk, tuple]] = {}


def _own_batch(ctx: Context) -> dict[str, tuple[str, Risk, tuple]]:
    a = ctx.action
    obs = ctx.observation
    text = getattr(a, "command", None) or getattr(a, "text", None) or " ".join(getattr(a, "argv", None) or ())
    if obs.line is not None and ctx.type == "type":
        text = obs.line.raw + text  # the line this text ends (`kill -STOP 42` typed, then `42\n`)
    if not text:
        return _NONE
    low = text.lower()
    checks = []
    if "ppid" in low or (obs.own_pids and any(str(p) in text for p in obs.own_pids)):
        checks.append(own_process)
    # without the supervisor's facts only the product's own name can be searched for
    if (_NAME_CUE.search(low) if obs.own_names or obs.own_cmdlines or obs.own_pids else "deskgate" in low):
        checks.append(own_process_name)
    if ctx.history is not None and ctx.history.own_pid_holders() and _NAME_CUE.search(low):
        checks.append(own_process_saved)
    if "xinput" in low or "xmodmap" in low:
        checks += [person_keyboard_off, person_input_off]
    out: dict[str, tuple[str, Risk, tuple]] = {}
    for r in checks:
        found = r.check(ctx)
        if found is not None:
            hit = r.hit(found)
            out[r.id] = (hit.reason, hit.risk, ())
    return out


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
      risk=Risk.CRITICAL, types=("shell", "type"), batch=_own_batch)
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


# -- by name or pattern -------------------------------------------------------------------------------------

_SIGNAL_NAMES = frozenset({
    "hup", "int", "quit", "ill", "trap", "abrt", "iot", "bus", "fpe", "kill", "usr1", "segv", "usr2", "pipe",
    "alrm", "term", "stkflt", "chld", "cont", "stop", "tstp", "ttin", "ttou", "urg", "xcpu", "xfsz", "vtalrm",
    "prof", "winch", "io", "poll", "pwr", "sys", "rtmin", "rtmax"})
# pkill/pgrep options that take a value (the pattern is the first operand that is not one)
_PKILL_VALUE = frozenset({"-d", "--delimiter", "-g", "--pgroup", "-G", "--group", "-P", "--parent", "-s",
                          "--session", "-t", "--terminal", "-u", "--euid", "-U", "--uid", "--ns", "--nslist",
                          "-F", "--pidfile", "--signal", "-q", "--queue", "-r", "--runstates", "--env",
                          "--cgroup", "-O", "--older", "-Y"})
_PKILL_SHORT_VALUE = frozenset("dgGPstuUFqrOY")
_KILLALL_VALUE = frozenset({"-s", "--signal", "-u", "--user", "-o", "--older-than", "-y", "--younger-than",
                            "-n", "--ns", "-Z", "--context", "-c", "-t"})
_GREP_VALUE = frozenset({"-m", "--max-count", "-A", "-B", "-C", "--context", "--label", "-d", "-D",
                         "--exclude", "--include", "-f", "--file"})
# a user selector with no pattern: every process of that user; the person's own (deskgate runs as the person)
# when written as the caller's own name or id, or one the gate cannot read
_CALLER = re.compile(r"^\$\{?(user|logname|uid|euid)\}?$|^\$\((whoami|id -u|id -un|logname)\)$|^`(whoami|id -u)`$",
                     re.IGNORECASE)
_AWK_PATTERN = re.compile(r"(?:^|[\s;{(!&|])/((?:\\.|[^/\\\n])+)/")
_PROCESS_LISTS = frozenset({"ps", "pgrep", "top", "htop", "pstree", "procs", "get-process", "tasklist", "wmic",
                            "get-ciminstance", "get-wmiobject", "gwmi", "gcim", "gps",
                            # sockets and open files, listed with the process that holds them (`users:(("python3",
                            # pid=4242,…))`): a search for deskgate's socket finds its number
                            "ss", "netstat", "lsof", "fuser", "sockstat"})
# PowerShell and WMI filters over process objects (`Where-Object { $_.CommandLine -like '*serve*' }`, `-Filter
# "CommandLine like '%serve%'"`, `wmic process where "name='python.exe'"`): their quoted patterns
_OBJECT_FILTERS = frozenset({"where-object", "where", "?", "get-ciminstance", "get-wmiobject", "gwmi", "gcim",
                             "wmic"})
_QUOTED_PATTERN = re.compile(r"""['"]([^'"\n]{2,200})['"]""")
_WILDCARDS = re.compile(r"[%*?]+|\.\*|\^|\$")
# what ends the processes a pipeline hands it (WMI objects: Terminate, or the object removed)
_OBJECT_ENDS = frozenset({"invoke-cimmethod", "invoke-wmimethod", "remove-ciminstance", "remove-wmiobject"})
_SENDS = frozenset({"kill", "tkill", "taskkill", "stop-process", "skill", "snice"})
# what acts on a process given by number besides a signal: a tracer, a scheduler or limit change
_ACTS_ON_NUMBER = _SENDS | frozenset(n for n in _BY_FLAG if n not in _WATCH_ONLY and n != "wait-process")
# the product's own name: a search for it finds deskgate's process however the supervisor is named
_PRODUCT = ("deskgate",)


@lru_cache(maxsize=256)
def _regex(pattern: str, icase: bool, exact: bool) -> re.Pattern[str]:
    """A process search's pattern as Python reads it; a pattern Python cannot read is searched as text."""
    flags = re.IGNORECASE if icase else 0
    try:
        rx = re.compile(pattern, flags)
    except (re.error, RecursionError, OverflowError):
        rx = re.compile(re.escape(pattern), flags)
    return re.compile(f"(?:{rx.pattern})\\Z", flags) if exact else rx


def _search(pattern: str, texts: tuple[str, ...], *, icase: bool = False, exact: bool = False) -> bool:
    rx = _regex(pattern, icase, exact)
    return any((rx.match(t) if exact else rx.search(t)) for t in texts)


def _is_signal(arg: str) -> bool:
    body = arg[1:].lower()
    return body.isdigit() or body in _SIGNAL_NAMES or (body.startswith("sig") and body[3:] in _SIGNAL_NAMES)


def _pkill_matches(argv: tuple[str, ...], names: tuple[str, ...], cmdlines: tuple[str, ...]) -> str | None:
    """The pattern of a `pkill`/`pgrep`/`skill` line when it selects deskgate, else None."""
    full = icase = exact = False
    pattern: str | None = None
    users: list[str] = []
    args = list(argv[1:])
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            pattern = args[k + 1] if k + 1 < len(args) else None
            break
        if a in ("-f", "--full"):
            full = True
        elif a in ("-i", "--ignore-case"):
            icase = True
        elif a in ("-x", "--exact"):
            exact = True
        elif a.split("=", 1)[0] in _PKILL_VALUE:
            value = a.split("=", 1)[1] if "=" in a else (args[k + 1] if k + 1 < len(args) else "")
            if a.split("=", 1)[0] in ("-u", "--euid", "-U", "--uid"):
                users.append(value)
            k += 0 if "=" in a else 1
        elif a.startswith("-") and len(a) > 1 and not a.startswith("--"):
            if _is_signal(a):
                pass
            else:  # combined short flags (`-fi`, `-fu NAME`)
                letters = a[1:]
                full |= "f" in letters
                icase |= "i" in letters
                exact |= "x" in letters
                if letters[-1] in _PKILL_SHORT_VALUE:
                    if letters[-1] in "uU" and k + 1 < len(args):
                        users.append(args[k + 1])
                    k += 1
        elif not a.startswith("-") and pattern is None:
            pattern = a
        k += 1
    if pattern is None:
        if any(u == "" or _CALLER.match(u) or u.startswith("$") for u in users):
            return f"every process of {users[0] or 'the caller'}"
        return None
    if _search(pattern, cmdlines if full else names, icase=icase, exact=exact):
        return pattern
    return None


def _killall_matches(argv: tuple[str, ...], names: tuple[str, ...]) -> str | None:
    """The name a `killall`/`pidof` line names when it is one of deskgate's."""
    regex = icase = False
    args = list(argv[1:])
    k = 0
    while k < len(args):
        a = args[k]
        if a in ("-r", "--regexp", "-m"):  # macOS `killall -m`: a regular expression too
            regex = True
        elif a in ("-I", "--ignore-case"):
            icase = True
        elif a in _KILLALL_VALUE:
            k += 1
        elif a.startswith("-") and len(a) > 1:
            pass
        else:
            base = a.rstrip("/").rsplit("/", 1)[-1]
            if regex and _search(a, names, icase=icase):
                return a
            if not regex and (base in names or (icase and base.lower() in {n.lower() for n in names})):
                return a
        k += 1
    return None


def _windows_name_matches(name: str, argv: tuple[str, ...], names: tuple[str, ...]) -> str | None:
    """`taskkill /IM python.exe`, `Stop-Process -Name python*`: an image name (`*` a wildcard), any case."""
    flag = ("/im",) if name == "taskkill" else ("-name", "-processname")
    folded = {n.lower().removesuffix(".exe") for n in names}
    for k, a in enumerate(argv[1:-1], start=1):
        if a.lower() in flag:
            for want in argv[k + 1].split(","):
                want = want.strip().strip("'\"").lower().removesuffix(".exe")
                rx = re.compile(re.escape(want).replace(r"\*", ".*").replace(r"\?", ".") + r"\Z")
                if want and any(rx.match(n) for n in folded):
                    return argv[k + 1]
    return None


def _grep_matches(argv: tuple[str, ...], cmdlines: tuple[str, ...]) -> str | None:
    """The pattern of a `grep` over process lines when it keeps deskgate's line (`-v` keeps the others)."""
    icase = fixed = False
    patterns: list[str] = []
    args = list(argv[1:])
    k = 0
    while k < len(args):
        a = args[k]
        if a in ("-v", "--invert-match"):
            return None
        if a in ("-e", "--regexp"):
            patterns.append(args[k + 1] if k + 1 < len(args) else "")
            k += 1
        elif a in _GREP_VALUE:
            k += 1
        elif a.startswith("-") and len(a) > 1:
            letters = a[1:] if not a.startswith("--") else ""
            if "v" in letters:
                return None
            icase |= "i" in letters or a == "--ignore-case"
            fixed |= "F" in letters or a == "--fixed-strings"
        elif not patterns:
            patterns.append(a)
        k += 1
    if argv and argv[0].lower().endswith("fgrep"):
        fixed = True
    for p in patterns:
        if _search(re.escape(p) if fixed else p, cmdlines, icase=icase):
            return p
    return None


def _finder(facts, names: tuple[str, ...], cmdlines: tuple[str, ...]) -> str | None:
    """A process search on this line that finds deskgate (`pgrep`, `pidof`, `Get-Process`, a `grep` or an awk
    pattern over `ps` lines or over `/proc/*/cmdline`, a service manager's record of its unit), described."""
    commands = facts.commands
    lists_processes = any(c.name in _PROCESS_LISTS for c in commands) or "/proc" in facts.source
    for cmd in commands:
        n = cmd.name
        if n in ("pgrep", "pidof"):
            hit = _pkill_matches(cmd.argv, names, cmdlines) if n == "pgrep" else _killall_matches(cmd.argv, names)
            if hit:
                return f"{n} {hit!r}"
        elif n == "get-process" and len(cmd.argv) > 1:
            hit = _windows_name_matches("stop-process", ("get-process", "-name", *cmd.argv[1:2]), names)
            if hit:
                return f"get-process {hit!r}"
        elif n in ("systemctl", "service", "launchctl", "sc", "get-service") and (unit := _own_unit(cmd, names)):
            return f"{n} {unit!r}"
        elif lists_processes and n in ("grep", "egrep", "fgrep", "rg", "select-string", "findstr"):
            hit = _grep_matches(cmd.argv, cmdlines + names)
            if hit:
                return f"{n} {hit!r} over the process list"
        elif lists_processes and n in _OBJECT_FILTERS and (hit := _like_matches(cmd.argv[1:], names, cmdlines)):
            return f"{n} {hit!r} over the process list"
        elif lists_processes and n in ("awk", "gawk", "mawk") and len(cmd.argv) > 1:
            for p in _AWK_PATTERN.findall(cmd.argv[1]):
                if _search(p, cmdlines):
                    return f"awk /{p}/ over the process list"
    return None


def _like_matches(args: tuple[str, ...], names: tuple[str, ...], cmdlines: tuple[str, ...]) -> str | None:
    """A quoted LIKE, wildcard or -match pattern in a filter whose every literal part (four characters or more)
    is in deskgate's own name or command line (`'*deskgate*'`, `'%app.root%'`, `'python3'`)."""
    own = [t.lower() for t in names + cmdlines]
    for q in _QUOTED_PATTERN.findall(" ".join(args)):
        parts = [p.lower() for p in _WILDCARDS.split(q) if len(p) >= 4]
        if parts and all(any(p in t for t in own) for p in parts):
            return q
    return None


def _ends_objects(cmd) -> bool:
    """`… | Invoke-CimMethod -MethodName Terminate`, `… | Remove-CimInstance`: ends the processes piped to it."""
    return cmd.name in _OBJECT_ENDS and bool(cmd.upstream) and (cmd.name.startswith("remove") or
                                                                 "terminate" in cmd.words)


def _own_unit(cmd, names: tuple[str, ...]) -> str | None:
    """The unit a `systemctl show|status`, `service … status` or `launchctl list` names when it is deskgate's
    (whose record holds its main process number)."""
    for w in cmd.words[1:]:
        if w.startswith("-") or w in ("show", "status", "list", "print", "query", "queryex", "--user"):
            continue
        stem = w.rsplit("/", 1)[-1].removesuffix(".service").split("@", 1)[0]
        if stem and (stem in names or "deskgate" in stem):
            return w
    return None


def _named_target(ctx: Context, facts) -> str | None:
    """A signal on this line that reaches deskgate through a process search by name or pattern."""
    names, cmdlines = ctx.observation.own_names + _PRODUCT, ctx.observation.own_cmdlines + _PRODUCT
    commands = facts.commands
    for cmd in commands:
        n = cmd.name
        if n == "pkill":
            hit = _pkill_matches(cmd.argv, names, cmdlines)
            if hit:
                return f"pkill {hit!r} selects deskgate's own process (the person's control)"
        elif n == "killall":
            hit = _killall_matches(cmd.argv, names)
            if hit:
                return f"killall {hit!r} names deskgate's own process (the person's control)"
        elif n in ("taskkill", "stop-process"):
            hit = _windows_name_matches(n, cmd.argv, names)
            if hit:
                return f"{n} {hit!r} names deskgate's own process (the person's control)"
        elif n == "wmic" and ("terminate" in cmd.words or "delete" in cmd.words) and \
                (hit := _like_matches(cmd.argv[1:], names, cmdlines)):
            return f"wmic ends the processes {hit!r} selects: deskgate's own (the person's control)"
    found = _finder(facts, names, cmdlines)
    if found is None:
        return None
    for cmd in commands:
        if (cmd.name in _ACTS_ON_NUMBER and (cmd.dynamic or cmd.upstream or cmd.found or cmd.subst)) or \
                _ends_objects(cmd):
            return f"{cmd.name} acts on what {found} finds: deskgate's own process (the person's control)"
    return None


_QUOTED = re.compile(r"""['"]([^'"\n]{4,200})['"]""")
_CODE_NAMES_PROCESSES = re.compile(r"process_iter|\bpids\b|cmdline|\bcomm\b|/proc|pgrep|pidof|pkill|killall|"
                                   r"get-process|\bps\b|tasklist|\.name\(\)|getprocesses|list_processes",
                                   re.IGNORECASE)


def _code_by_name(cmd, names: tuple[str, ...], cmdlines: tuple[str, ...]) -> str | None:
    """Interpreter code that lists processes, signals one, and names deskgate's (`psutil.process_iter()` …
    `if "headless" in " ".join(p.cmdline())` … `p.kill()`): a quoted word found in deskgate's own name or
    command line."""
    for w in cmd.argv[1:]:
        if len(w) < 16 or not _CODE_ACTS.search(w) or not _CODE_NAMES_PROCESSES.search(w):
            continue
        for word in _QUOTED.findall(w):
            if word.strip() and (any(word in c for c in cmdlines) or word in names):
                return word
    return None


def _everyone(facts) -> str | None:
    """`kill -STOP -1`: every process the caller may signal, deskgate's among them."""
    for cmd in facts.commands:
        if cmd.name == "kill":
            args = [a for a in cmd.argv[1:] if a != "--"]
            targets = [a for k, a in enumerate(args) if not (k == 0 and len(args) > 1 and _is_signal(a))
                       and not (k > 0 and args[k - 1] in ("-s", "-n", "--signal"))
                       and a not in ("-s", "-n", "--signal")]
            if "-1" in targets:
                return "kill -1 signals every process the caller may reach, deskgate's own among them"
    return None


@rule("block.shell.own-process-name", "a signal aimed at deskgate's own process by its name or command line",
      risk=Risk.CRITICAL, types=("shell", "type"), batch=_own_batch)
def own_process_name(ctx: Context) -> CheckResult:
    """`pkill`, `killall`, `pidof`/`pgrep` fed to `kill`, `ps | grep | xargs kill`, `taskkill /IM`,
    `Stop-Process -Name` whose search matches deskgate's own process name or command line
    (`Observation.own_names`, `Observation.own_cmdlines`, filled in by the supervisor) the way the program
    searches; interpreter code that lists processes and signals those whose name or command line holds a
    quoted word of deskgate's; and `kill -1` or `pkill -u $USER` that reach every process of the person. A
    pattern that cannot match deskgate (`pkill -f webpack`) and a search that only lists (`pgrep -f serve`)
    pass this rule."""
    obs = ctx.observation
    facts = ctx.derived(command_facts)
    if facts is None:
        return None
    for cmd in facts.commands:
        if cmd.name in _CODE_CUES and (word := _code_by_name(cmd, obs.own_names + _PRODUCT,
                                                             obs.own_cmdlines + _PRODUCT)):
            return f"{cmd.name} code picks processes by {word!r} and signals them: deskgate's own process"
    if not any(c.name in _BY_NAME_CUES for c in facts.commands):
        return None
    return _named_target(ctx, facts) or _everyone(facts)


_CODE_CUES = frozenset({"python", "python3", "python2", "node", "nodejs", "perl", "ruby", "php", "bun", "deno",
                        "pwsh", "powershell", "osascript", "lua"})


# -- by a number saved in an earlier step ---------------------------------------------------------------------

# where a line keeps what it found: PowerShell's `$p = …`, and the programs that read their input into a variable
_PS_SET = re.compile(r"(?:^|[;&|({\s])\$(?:env:|global:|script:)?([a-z_][a-z0-9_]*)\s*\+?=(?!=)")
_READ_INTO = frozenset({"read", "mapfile", "readarray"})
_SET_INTO = frozenset({"set", "set-variable", "sv", "new-variable", "nv"})
_WRITE_TO = frozenset({"tee", "tee-object", "out-file", "set-content", "add-content", "sponge"})
_COPY_TO = frozenset({"cp", "mv", "install", "ln", "copy-item", "move-item", "copy", "move"})
_NOT_A_FILE = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "&1", "&2", "nul", "$null"})
_VAR_REF = re.compile(r"\$\{?(?:env:)?([a-z_][a-z0-9_]*)")
_FILE_SUBST = re.compile(r"\$\(\s*<\s*([^)\s]+)\s*\)")
_ARG_FILE = re.compile(r"(?:^|\s)(?:-a|--arg-file)[\s=]+(\S+)")
_OPERAND_READERS = frozenset({"cat", "head", "tail", "less", "more", "tac", "get-content", "gc", "type", "xargs",
                              "sed", "awk", "cut", "tr", "sort", "uniq", "paste", "jq", "grep", "cp", "mv", "install",
                              "ln", "copy-item", "move-item", "copy", "move"})


def _path_key(word: str, cwd: str | None) -> str:
    return resolve_path(word, cwd) or word.lower()


def _holds_own_pid(word: str, pids: set[str]) -> bool:
    return word in pids or word.lstrip("-") in pids


def _reads_holder(cmd, holders: frozenset[str]) -> str | None:
    """The holder (a `$variable` or a file) this command reads, if any."""
    for w in cmd.words[1:]:
        for m in _VAR_REF.finditer(w):
            if "$" + m.group(1) in holders:
                return "$" + m.group(1)
        for m in _FILE_SUBST.finditer(w):
            if _path_key(m.group(1), cmd.cwd) in holders:
                return m.group(1)
    for op, t in cmd.redirects:
        if op in ("<", "<>") and _path_key(t, cmd.cwd) in holders:
            return t
    if cmd.name in _OPERAND_READERS or cmd.name in _CODE_CUES:
        for w in cmd.argv[1:]:
            if not w.startswith("-") and _path_key(w, cmd.cwd) in holders:
                return w
    if cmd.name in _CODE_CUES:  # code that opens the file (`int(open('/tmp/p').read())`)
        text = " ".join(cmd.words[1:])
        hit = next((h for h in holders if h.startswith("/") and h.count("/") > 1 and h in text), None)
        if hit:
            return hit
    return None


def _line_finds_own(ctx: Context, facts, holders: frozenset[str]) -> str | None:
    """What on this line yields deskgate's own process number: a search that finds it, its number written out, or
    a holder of it read again."""
    obs = ctx.observation
    found = _finder(facts, obs.own_names + _PRODUCT, obs.own_cmdlines + _PRODUCT)
    if found:
        return found
    pids = {str(p) for p in obs.own_pids}
    if pids:
        if any(v.strip("'\"") in pids for _, v in facts.assignments):
            return "its number"
        for cmd in facts.commands:
            if cmd.name in ("echo", "printf", "write-output", "set-content", "out-file") and \
                    any(_holds_own_pid(w, pids) for w in cmd.words[1:]):
                return "its number"
    if holders:
        for cmd in facts.commands:
            hit = _reads_holder(cmd, holders)
            if hit:
                return hit
        for _, value in facts.assignments:  # `Q=$P`
            refs = ("$" + m.group(1) for m in _VAR_REF.finditer(value.lower()))
            hit = next((r for r in refs if r in holders), None)
            if hit:
                return hit
        m = _ARG_FILE.search(facts.source)
        if m and _path_key(m.group(1), None) in holders:
            return m.group(1)
    return None


_FIND_CUE = re.compile(r"pgrep|pidof|\bps\b|/proc|systemctl|\bservice\b|launchctl|get-process|gps\b|tasklist|"
                       r"wmic|get-ciminstance|deskgate|\$|\bsc\b")


def saved_own_pids(ctx: Context, holders: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The variables (`$p`, folded) and files (resolved paths) this line fills with deskgate's own process number:
    what an assignment, a `read`, a redirect, `tee` or a copy on a line that finds the number keeps. Noted by the
    session after each step (gate/rules/session.py `remember`)."""
    a = ctx.action
    pids = ctx.observation.own_pids
    if ctx.type == "file_write":  # the number written into a file by the file action (`{"content": "4242"}`)
        content = (getattr(a, "content", "") or "")[:64].split()
        return (_path_key(a.path, None),) if pids and content and all(  # type: ignore[attr-defined]
            w.strip(",;") in {str(p) for p in pids} for w in content) else ()
    text = getattr(a, "command", None) or getattr(a, "text", None) or ""
    if not text:
        return ()
    low = text.lower()
    if not (_FIND_CUE.search(low) or any(str(p) in low for p in pids) or
            any(h.rsplit("/", 1)[-1] in low for h in holders)):
        return ()
    facts = ctx.derived(command_facts)
    if facts is None:
        return ()
    if _line_finds_own(ctx, facts, frozenset(holders)) is None:
        return ()
    out: list[str] = ["$" + name for name, _ in facts.assignments]
    out += ["$" + name for name in _PS_SET.findall(facts.source.lower())]
    for cmd in facts.commands:
        operands = [w for w in cmd.words[1:] if not w.startswith("-")]
        if cmd.name in _READ_INTO:
            out += ["$" + w for w in operands[-1:] if w.isidentifier()] if cmd.name != "read" else \
                ["$" + w for w in operands if w.isidentifier()]
        elif cmd.name in _SET_INTO and operands:
            out.append("$" + operands[0].lstrip("$"))
        elif cmd.name in _WRITE_TO:
            out += [_path_key(w, cmd.cwd) for w in cmd.argv[1:] if not w.startswith("-")
                    and w.lower() not in _NOT_A_FILE][:1 if cmd.name != "tee" else None]
        elif cmd.name in _COPY_TO and len(operands) > 1:
            out.append(_path_key(cmd.argv[len(cmd.argv) - 1], cmd.cwd))
        for op, t in cmd.redirects:
            if ">" in op and t not in _NOT_A_FILE and not t.startswith("&"):
                out.append(_path_key(t, cmd.cwd))
    return tuple(dict.fromkeys(out))


@rule("block.shell.own-process-saved", "a signal or priority change aimed at a process number saved earlier from "
      "a search for deskgate", risk=Risk.CRITICAL, types=("shell", "type"), batch=_own_batch)
def own_process_saved(ctx: Context) -> CheckResult:
    """A signal (`kill`, `Stop-Process`), a tracer (`gdb -p`, `strace -p`) or a priority, CPU set or limit change
    (`renice`, `ionice`, `taskset`, `prlimit`) whose process number is read from a variable or a file an earlier
    step of this session filled from a search that finds deskgate's own process (`P=$(pgrep -f deskgate)`, then
    `kill -STOP $P`; `pidof python3 > /tmp/p`, then `renice 19 $(cat /tmp/p)` or `xargs kill < /tmp/p`). The
    earlier step passed as a search that only lists; this one stops the person's control. A number read from a
    file no such step filled (`kill $(cat server.pid)`) passes this rule."""
    h = ctx.history
    holders = frozenset(h.own_pid_holders()) if h is not None else frozenset()
    if not holders:
        return None
    facts = ctx.derived(command_facts)
    if facts is None:
        return None
    unseen = None  # a command on the line that acts on a number the gate cannot see
    for cmd in facts.commands:
        acts = cmd.name in _ACTS_ON_NUMBER or (cmd.name in _CODE_CUES and any(_CODE_ACTS.search(w)
                                                                             for w in cmd.words[1:]))
        if not acts:
            continue
        hit = _reads_holder(cmd, holders)
        if hit:
            return f"{cmd.name} acts on the process number {hit} holds: deskgate's own, found by an earlier step"
        if cmd.dynamic or cmd.upstream or cmd.found or cmd.subst:
            unseen = unseen or cmd
    if unseen is None:
        return None
    for cmd in facts.commands:  # the number read on the same line (`P=$(cat /tmp/p); kill $P`, `cat p | xargs kill`)
        hit = _reads_holder(cmd, holders)
        if hit:
            return f"{unseen.name} acts on the process number {hit} holds: deskgate's own, found by an earlier step"
    m = _ARG_FILE.search(facts.source)
    if m and _path_key(m.group(1), None) in holders:  # `xargs -a /tmp/p kill`
        return f"{unseen.name} acts on the process number {m.group(1)} holds: deskgate's own, found by an earlier step"
    return None


# -- the person's input: the kill-switch chord and the mouse ------------------------------------------------

_XINPUT_OFF = frozenset({"disable", "--disable", "float", "--float", "remove-slave", "--remove-slave", "reattach"})
_XMODMAP_CUT = re.compile(r"\b(clear|remove)\s+(control|shift|mod1|lock)\b|^\s*keycode\s+\d+\s*=\s*$|"
                          r"\bkeysym\s+(control_[lr]|shift_[lr]|alt_[lr]|k)\s*=", re.IGNORECASE)
_CORE = re.compile(r"virtual core (keyboard|pointer)|keyboard", re.IGNORECASE)


def _input_off(cmd) -> tuple[str, bool] | None:
    """(what it does, whether it is the keyboard) for a command that takes the person's keyboard or pointer away
    or unmaps the modifier keys the kill-switch chord is made of."""
    words = cmd.words
    if cmd.name == "xinput" and len(words) > 2:
        verb = words[1]
        enabled_off = verb in ("set-prop", "--set-prop", "set-int-prop") and "device enabled" in " ".join(words) \
            and words[-1] == "0"
        if verb in _XINPUT_OFF or enabled_off:
            device = cmd.argv[2]
            return f"xinput {verb} {device}", bool(_CORE.search(device))
    if cmd.name == "xmodmap":
        for k, a in enumerate(cmd.argv[1:], 1):
            if cmd.argv[k - 1] == "-e" and _XMODMAP_CUT.search(a):
                return f"xmodmap -e {a!r}", True
    return None


def _inputs_off(ctx: Context) -> list[tuple[str, bool]]:
    facts = ctx.derived(command_facts)
    if facts is None:
        return []
    return [hit for cmd in facts.commands if cmd.name in ("xinput", "xmodmap") and (hit := _input_off(cmd))]


@rule("block.shell.person-keyboard-off", "takes the person's keyboard or the kill-switch keys away",
      risk=Risk.CRITICAL, types=("shell", "type"), batch=_own_batch)
def person_keyboard_off(ctx: Context) -> CheckResult:
    """`xinput disable|float` of a keyboard (or of X's virtual core devices), `xinput set-prop <keyboard>
    "Device Enabled" 0`, and `xmodmap -e 'clear control'` (or shift, alt, lock) leave the person without the keys
    the kill-switch chord is made of: the person's way to stop the agent."""
    hit = next((what for what, keyboard in _inputs_off(ctx) if keyboard), None)
    return f"{hit} takes away the person's keyboard or the kill-switch chord's keys" if hit else None


@rule("confirm.shell.person-input-off", "takes one of the person's input devices away", risk=Risk.HIGH,
      types=("shell", "type"), batch=_own_batch)
def person_input_off(ctx: Context) -> CheckResult:
    """`xinput disable|float <device>` of a device not named a keyboard (a touchpad, a mouse, a device by its
    number): it may be the one the person stops the agent with. A person decides. Listing devices (`xinput
    list`) and setting a layout (`setxkbmap de`) pass."""
    hit = next((what for what, keyboard in _inputs_off(ctx) if not keyboard), None)
    return f"{hit} takes an input device away from the person (possibly the one to stop the agent)" if hit else None


_BY_NAME_CUES = frozenset({"pkill", "killall", "wmic", *_OBJECT_ENDS, *_ACTS_ON_NUMBER})

RULES = (own_process, own_process_name, own_process_saved, person_keyboard_off, person_input_off)
