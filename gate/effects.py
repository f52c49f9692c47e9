"""What a simple command does: effects derived from the program table (resources/programs.toml).

    program_effects(name)            -> frozenset[str] | None   (None: the program is not described)
    ALIASES                          -> {second name: program}  (`gdate` is `date`: gate/shell.py reads the
                                        name as the program's before anything else judges it)
    unknown_effect(argv, name)       -> str | None              (why the gate cannot tell what it does)
    embedded_scripts(name, argv)     -> list[(shell text, label)]  (shell code hidden in a program's flags)
    describe(analysis)               -> list[(command text, effects)]  (for `deskgate explain`)

The table is data: a program named there is *described* (its ordinary use has the listed effects and the
shell rules judge those effects against paths, hosts and data); a program that is not there, or one of
a known program's flags whose value is code the gate does not model (`vim -c`, `gdb -ex`, `tar
--checkpoint-action`), is an *unknown effect*, which asks (`[shell] unknown_programs`). Shell code that a
flag hands to a shell (`rsync -e CMD`, `git -c core.pager=CMD`, `vim -c '!CMD'`, awk's `system("CMD")`)
is returned by `embedded_scripts`, so gate/shell.py unwraps it like `bash -c`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable
from importlib import resources
from typing import TYPE_CHECKING

from gate import regex_store
from gate.catalogue import NUMBERED, STDIN_SCRIPTS, fed_script, matching
from gate.nochange import quiet_use

if TYPE_CHECKING:
    from gate.shell import ShellAnalysis

__all__ = ["ALIASES", "EFFECTS", "EMBEDDING", "LAST_OPERAND_WRITERS", "WIN_CARRIERS", "WRITE_FLAG_PROGRAMS", "describe",
           "embedded_scripts", "flag_written", "program_effects", "unknown_effect"]

EFFECTS = frozenset({"none", "read", "write", "delete", "chmod", "exec", "net", "listen", "privilege",
                     "persistence", "evasion", "system", "install", "publish", "remote",
                     # what catalogue functions (gate/catalogue.py) add: a library loaded, credentials read,
                     # data sent out, data collected (clipboard, screen), discovery, synthetic input
                     "load", "credentials", "data-out", "collect", "recon", "input"})


class _Table:
    def __init__(self, data: dict) -> None:
        self.effects: dict[str, frozenset[str]] = {}
        self.code_flags: dict[str, tuple[str, ...]] = {}
        self.write_flags: dict[str, tuple[str, ...]] = {}  # `-o FILE`, `--output=FILE`: what a report flag writes
        self.last_operand: set[str] = set()  # converters that write their last operand (`tool in.x out.y`)
        self.aliases: dict[str, str] = {}  # a second name of a program (`gdate`, `gnucp`): it is that program
        for group, spec in data.get("groups", {}).items():
            eff = frozenset(spec["effects"])
            if eff - EFFECTS:
                raise ValueError(f"programs.toml [groups.{group}]: unknown effects {sorted(eff - EFFECTS)}")
            output = spec.get("output")
            if output not in (None, "last-operand"):
                raise ValueError(f"programs.toml [groups.{group}]: output is \"last-operand\" or absent")
            for prog in spec["programs"]:
                self.effects[prog] = self.effects.get(prog, frozenset()) | eff
                if spec.get("write_flags"):  # the report or output flags every program of the group shares
                    self.write_flags[prog] = tuple(f.lower() for f in spec["write_flags"] if f.startswith("-"))
                if output:
                    self.last_operand.add(prog)
        for prog, spec in data.get("program", {}).items():
            if "effects" in spec:
                eff = frozenset(spec["effects"])
                if eff - EFFECTS:
                    raise ValueError(f"programs.toml [program.{prog}]: unknown effects {sorted(eff - EFFECTS)}")
                self.effects[prog] = eff
            elif prog not in self.effects:
                raise ValueError(f"programs.toml [program.{prog}] has flags but no effects and no group")
            self.code_flags[prog] = tuple(f.lower() for f in spec.get("code_flags", ()))
            if spec.get("write_flags"):
                self.write_flags[prog] = tuple(f.lower() for f in spec["write_flags"] if f.startswith("-"))
        for alias, target in data.get("alias", {}).items():
            if alias != alias.lower() or target != target.lower():
                raise ValueError(f"programs.toml [alias] {alias} = {target}: names are folded (lower case)")
            if alias in self.effects or alias in data.get("program", {}):
                raise ValueError(f"programs.toml [alias] {alias}: described in the table itself, so never read")
            if target not in self.effects or target in data.get("alias", {}):
                raise ValueError(f"programs.toml [alias] {alias} = {target}: the target is not a described program")
            self.aliases[alias] = target
        # per program: flags matched exactly, and prefixes (`--flag=`, `+`, `-oproxycommand`) matched by startswith
        self.exact = {p: frozenset(fl) for p, fl in self.code_flags.items()}
        self.prefixes = {p: tuple(f + "=" if f.startswith("--") else f for f in fl
                                  if f.startswith("--") or f == "+" or (f.startswith("-o") and len(f) > 2))
                         for p, fl in self.code_flags.items()}


def _load() -> _Table:
    text = resources.files("resources").joinpath("programs.toml").read_text(encoding="utf-8")
    return _Table(regex_store.toml(text))


_TABLE = _load()  # data shipped with the package, read once at import (like compiled regexes)
# second names of described programs: gate/shell.py reads `gdate` as `date` where it takes a command's name, so
# the alias is judged exactly as its program (effects, code flags, catalogue functions, rules by name)
ALIASES: dict[str, str] = dict(_TABLE.aliases)


def _table() -> _Table:
    return _TABLE




def program_effects(name: str) -> frozenset[str] | None:
    """The default effects of program `name` (folded basename), or None when the table does not know it."""
    table = _TABLE.effects
    effects = table.get(name)  # (every value is a set: a miss is None) most names: one look-up, nothing to cache
    if effects is not None:
        return effects
    m = NUMBERED.match(name)
    if m and m.group("base") in table:
        return table[m.group("base")]
    head = name.split(".", 1)[0]  # mkfs.ext4, fsck.vfat
    if head != name and head in table:
        return table[head]
    return None


WRITE_FLAG_PROGRAMS = frozenset(n for n, f in _TABLE.write_flags.items() if f)
# converters the table says write their last operand (`output = "last-operand"`): gate/rules/shell_staging.py
# judges that operand as a file written, as it does `convert in.png out.png`
LAST_OPERAND_WRITERS = frozenset(_TABLE.last_operand)


def flag_written(name: str, argv: tuple[str, ...] | list[str]) -> list[str]:
    """The files `name`'s own output flags name (`trivy fs . -o report.json`, `--output=out.sarif`)."""
    flags = _TABLE.write_flags.get(name)
    if not flags:
        return []
    out = []
    for k, a in enumerate(argv[1:], 1):
        if a == "--":
            break
        if a[:1] != "-":
            continue
        base, eq, value = a.partition("=")
        if base.lower() in flags:
            value = value if eq else (argv[k + 1] if k + 1 < len(argv) else "")
            if value and not value.startswith("-"):
                out.append(value)
    return out


def _flag_hits(name: str, args: list[str]) -> str | None:
    exact, prefixes = _TABLE.exact[name], _TABLE.prefixes[name]
    for a in args:
        if a == "--":
            return None
        if not a.startswith(("-", "+")):
            continue
        al = a.lower()
        if al in exact:
            return a
        if prefixes and al.replace(" ", "").startswith(prefixes) and len(al) > 1:
            return "+CMD" if al.startswith("+") else a.split("=", 1)[0]
    return None


_AWK_EXEC = re.compile(r"\bsystem\s*\(|\|\s*getline|\|&|print[f]?\b[^;}]*\|\s*\"|/inet[46]?/", re.I)
_SED_CMD = re.compile(r"^\s*(?:(?:\d+|\$|/(?:[^/\\]|\\.)*/)(?:\s*,\s*(?:\d+|\$|/(?:[^/\\]|\\.)*/|[+~]\d+))?)?\s*!?\s*"
                      r"(?P<cmd>[a-zA-Z{}=#:])(?P<rest>.*)$", re.S)
_SED_SUBST = re.compile(r"^s(?P<d>[^\w\s\\])(?:(?!(?P=d))[^\\]|\\.)*(?P=d)(?:(?!(?P=d))[^\\]|\\.)*(?P=d)"
                        r"(?P<flags>[a-zA-Z0-9]*)", re.S)


def _sed_scripts(argv: list[str]) -> list[str]:
    out = []
    k = 1
    while k < len(argv):
        a = argv[k]
        if a in ("-e", "--expression") and k + 1 < len(argv):
            out.append(argv[k + 1])
            k += 2
            continue
        if a.startswith("--expression="):
            out.append(a.split("=", 1)[1])
        elif a in ("-f", "--file", "-l", "--line-length"):
            k += 2
            continue
        elif not a.startswith("-") and not out:
            out.append(a)
            break
        k += 1
    return out


_RX_SED_UNKNOWN = re.compile(r"[;\n]")


def _sed_unknown(argv: list[str]) -> str | None:
    for script in _sed_scripts(argv):
        for part in _RX_SED_UNKNOWN.split(script):
            m = _SED_CMD.match(part)
            if not m:
                continue
            cmd, rest = m.group("cmd"), m.group("rest")
            if cmd == "e" or (cmd in "wW" and rest.strip()):
                return f"sed {cmd}: runs a command or writes a file from the sed script"
            if cmd == "s":
                sm = _SED_SUBST.match("s" + rest)
                if sm and ("e" in sm.group("flags") or "w" in sm.group("flags")):
                    return "sed s///e or s///w: runs the result as a command or writes a file"
    return None


def _awk_code(argv: list[str]) -> str | None:
    k = 1
    while k < len(argv):
        a = argv[k]
        if a in ("-f", "--file", "-E", "--exec", "-i", "--include", "-l", "--load"):
            return None  # code in a file (a project's own script)
        if a in ("-F", "-v", "--assign", "--field-separator"):
            k += 2
            continue
        if a.startswith("-"):
            k += 1
            continue
        return a
    return None


def unknown_effect(argv: tuple[str, ...] | list[str], name: str) -> str | None:
    """Why the table cannot say what this command does (a person reads it), or None when it can."""
    if not argv:
        return None
    if program_effects(name) is None:
        word = argv[0]
        if ("/" in word and not word.startswith("/") and not word.startswith("~")) or _WIN_PROJECT.match(word) or \
                _BUILT_HERE.match(word):
            return None  # the project's own script (./build.sh, scripts/x, .\build.ps1): judged by what wrote it
        return f"unknown program {name}: the gate does not know what it does"
    if name not in _SPECIAL and not _TABLE.code_flags.get(name):
        # a described program with no code-running flags and no code of its own to read (DESCRIBED_PLAIN
        # names these ahead: a check added above this line for such a program must leave them out of it)
        return None
    args = list(argv[1:])
    if name in ("awk", "gawk", "mawk", "nawk"):
        code = _awk_code(list(argv))
        # a `system("...")` whose whole argument is one literal runs a command line the shell rules read
        # themselves (`_awk_system`); only a command built from the data, a pipe or a socket is unknown
        if code and _AWK_EXEC.search(_AWK_LITERAL_SYSTEM.sub("", code)):
            return f"{name} code runs commands or opens connections (system, getline, pipes, /inet)"
        return None
    if name in ("sed", "gsed"):
        return _sed_unknown(list(argv))
    if name == "git":
        for k, a in enumerate(args[:-1]):
            if a == "-c" and _GIT_CODE_KEYS.match(args[k + 1].lower()):
                return f"git -c {args[k + 1].split('=', 1)[0]}: makes git run a command the gate does not model"
    if name == "gdb" and _gdb_plain(args):
        return None
    if _TABLE.code_flags.get(name):
        hit = _flag_hits(name, args)
        if hit is not None:
            return f"{name} {hit}: runs {name} code the gate does not model"
    return None


# a Windows path to the project's own program: a script beside it, or what its build or environment made
_WIN_PROJECT = re.compile(r"\.\\(?:[\w.-]+\.(?:ps1|bat|cmd|py|sh)$|(?:\.?venv|env)\\scripts\\|node_modules\\\.bin\\|"
                          r"(?:bin|obj)\\(?:debug|release)\\|target\\(?:debug|release)\\|(?:build|out|dist|scripts|tools)\\)",
                          re.I)
# the same, named by a full path: what a project's build or environment made (`~/src/app/target/release/app`,
# `/home/me/proj/.venv/bin/tool`), in a project folder of a home or workspace (not Downloads, tmp or a hidden one)
_BUILT_HERE = re.compile(r"^(?:~|/home/[^/]+|/users/[^/]+|/root|/workspaces?)/(?!\.|downloads/|tmp/|temp/)[^/]+/"
                         r"(?:[^/.][^/]*/)*?(?:target/(?:debug|release)|\.?venv/bin|env/bin|node_modules/\.bin|build|"
                         r"dist|out|cmake-build-[\w-]+|bin/(?:debug|release))/[^/]+$", re.I)
_SPECIAL = frozenset({"awk", "gawk", "mawk", "nawk", "sed", "gsed", "git"})  # read by unknown_effect itself
# programs the table describes by their own name, with no code-running flag and no code of their own to read:
# `unknown_effect` is None for them whatever their arguments (one set look-up instead of its steps)
DESCRIBED_PLAIN = frozenset(n for n in _TABLE.effects if n not in _SPECIAL and not _TABLE.code_flags.get(n))
# of those, the ones that neither fetch from the network nor copy, move, link or tee files: nothing they write
# through their own arguments can be run later in the same string (gate/rules/shell_effects.py)
DESCRIBED_OFFLINE = frozenset(n for n in DESCRIBED_PLAIN if "net" not in _TABLE.effects[n])

# gdb commands that only inspect the program being debugged (no shell, no python, no calls into it; `run` with
# plain words and a stdin file only: gdb passes run's arguments through a shell, so `$(...)`, `;`, `|` ask)
_GDB_PLAIN = re.compile(r"((run|r|start)(\s+[\w./@:=,+-]+)*(\s*<\s*[\w./-]+)?|"  # (arguments, a stdin file)
                        r"bt|backtrace( full)?|where|(thread apply all )?bt( full)?|"
                        r"info (registers|frame|locals|args|threads|sharedlibrary|breakpoints|signals)|"
                        r"frame \d+|up|down|list|continue|c|next|n|step|s|finish|quit|q|kill|"
                        r"set (pagination|confirm|print pretty|width|height) (on|off|\d+)|disassemble)")


def _gdb_plain(args: list[str]) -> bool:
    """`gdb -batch -ex run -ex bt ./app`: every command given is a plain inspection one, and no script, pid
    or other code flag is given."""
    saw = False
    k = 0
    while k < len(args):
        a = args[k]
        if a in ("-ex", "--ex", "-eval-command", "--eval-command"):
            if k + 1 >= len(args) or not _GDB_PLAIN.fullmatch(args[k + 1].strip()):
                return False
            saw = True
            k += 2
            continue
        if a.startswith("-") and a not in ("-batch", "--batch", "-q", "-quiet", "--quiet", "-nx", "--nx", "--args"):
            return False
        k += 1
    return saw


# -- shell code inside flags ------------------------------------------------------------------------

_SHELL_FLAGS: dict[str, tuple[str, ...]] = {  # flags whose value is a shell command line
    "rsync": ("-e", "--rsh", "--rsync-path"), "tar": ("--to-command", "--use-compress-program", "-I",
                                                    "--rsh-command", "--rmt-command", "--info-script",
                                                    "--new-volume-script", "-F"),
    "gtar": ("--to-command", "--use-compress-program", "-I"), "bsdtar": ("--use-compress-program",),
    "zip": ("-TT", "--unzip-command"), "sort": ("--compress-program",), "split": ("--filter",),
    "man": ("-P", "--pager"), "scp": ("-S",), "sftp": ("-S",), "mysql": ("--pager",),
    "aria2c": ("--on-download-complete", "--on-download-error", "--on-download-start", "--on-download-stop"),
    "tcpdump": ("-z", "--postrotate-command"), "wget": ("--use-askpass",), "flock": (),
    # a coding assistant's lint and test commands: it runs them after every edit
    "aider": ("--lint-cmd", "--test-cmd"),
    "openvpn": ("--up", "--down", "--route-up", "--route-pre-down", "--ipchange", "--client-connect",
                "--client-disconnect", "--learn-address", "--tls-verify", "--auth-user-pass-verify"),
}
_GIT_CODE_KEYS = re.compile(r"^(core\.(pager|sshcommand|editor|fsmonitor|hookspath|gitproxy|askpass)|"
                            r"diff\.external|diff\.[^.=]+\.(textconv|command)|pager\.[^=]+|alias\.[^=]+=\s*!|"
                            r"sequence\.editor|gpg\.(program|[^.=]+\.program)|credential\.helper=\s*!|"
                            r"uploadpack\.packobjectshook|filter\.[^.=]+\.(clean|smudge|process)|"
                            r"merge\.[^.=]+\.driver|protocol\.ext\.allow|include\.path|core\.attributesfile)")
_EDITOR_ESCAPE = re.compile(r"^\s*:?\s*!(?P<cmd>.+)$|\bcall\s+system\s*\(\s*(['\"])(?P<sys>.+?)\2|"
                            r"^\s*:?\s*(?:py3?|python3?|lua|perl|ruby)\s+(?P<code>.+)$|"
                            r"^\s*:?\s*(?:sh|shell|terminal)\s*(?P<term>.*)$", re.S | re.I)
_GDB_ESCAPE = re.compile(r"^\s*(?:shell|!|platform\s+shell|pipe\s+[^|]*\|)\s*(?P<cmd>.+)$|"
                         r"^\s*(?:python|py|python-interactive|pi)\s+(?P<code>.+)$", re.S | re.I)
_SQLITE_ESCAPE = re.compile(r"^\s*\.(?:shell|system)\s+(?P<cmd>.+)$", re.S | re.I)
_APT_HOOK = re.compile(r"^(?:apt::update::(?:pre|post)-invoke(?:-success)?|dpkg::(?:pre|post)-invoke|"
                       r"dpkg::pre-install-pkgs|apt::changelogs::server)[^=]*=(?P<cmd>.+)$", re.S | re.I)
_AWK_LITERAL_SYSTEM = re.compile(r"\bsystem\s*\(\s*\"(?:[^\"\\]|\\.)*\"\s*\)")
_AWK_STRING_CALL = re.compile(r"\bsystem\s*\(\s*\"(?P<a>(?:[^\"\\]|\\.)*)\"|\"(?P<b>(?:[^\"\\]|\\.)*)\"\s*\|\s*getline|"
                              r"\|\s*\"(?P<c>(?:[^\"\\]|\\.)*)\"")
_DB_ESCAPE = re.compile(r"^\s*(?:\\!|system)\s+(?P<cmd>.+)$", re.S | re.I)
_DB_CODE = ("-e", "--execute", "-c", "--command")
_CHECKPOINT = re.compile(r"^--checkpoint-action=(?:exec|sleep)?=?(?P<cmd>.*)$", re.S | re.I)


def _values(argv: list[str], flags: tuple[str, ...]) -> list[str]:
    """Values of `flags` in argv: `-e VALUE`, `--flag=VALUE`, `-IVALUE` (single-letter flags)."""
    out = []
    for k, a in enumerate(argv[1:], 1):
        if a == "--":
            break
        for f in flags:
            if a == f and k + 1 < len(argv):
                out.append(argv[k + 1])
            elif f.startswith("--") and a.startswith(f + "="):
                out.append(a.split("=", 1)[1])
            elif len(f) == 2 and a.startswith(f) and len(a) > 2 and not a.startswith("--"):
                out.append(a[2:].lstrip("="))
    return out


# Windows programs that run (now or later) a command line given as one argument: `wmic process call create
# CMD`, `forfiles /c CMD`, `schtasks /create /tr CMD`, `reg add ...\\Run /d CMD`, `pcalua -a CMD`
WIN_CARRIERS = frozenset({"wmic", "forfiles", "schtasks", "reg", "pcalua", "conhost", "start-process", "saps", "sc",
                          "invoke-wmimethod", "invoke-cimmethod"})
_WMI_COMMAND_LINE = re.compile(r"commandline\s*=\s*(['\"])(.+?)\1", re.I)
_RUN_KEY = re.compile(r"currentversion\\*(run|runonce|runservices|policies\\*explorer\\*run)\b|\\*winlogon\b|"
                      r"image ?file ?execution ?options", re.I)  # backslashes may be gone (unquoted in bash)


def _win_value(argv: list[str], flags: tuple[str, ...]) -> list[str]:
    """Values of Windows-style flags (`/tr VALUE`, `-c VALUE`), matched case-insensitively."""
    return [argv[k + 1] for k, a in enumerate(argv[1:-1], 1) if a.lower() in flags]


def _win_carried(name: str, argv: list[str]) -> list[tuple[str, str]]:
    words = [a.lower() for a in argv]
    if name == "wmic" and "call" in words and "create" in words:
        at = words.index("create", words.index("call"))
        if at + 1 < len(argv):
            return [(" ".join(argv[at + 1:]).strip(",").strip(), "wmic process call create")]
    if name == "forfiles":
        return [(v, "forfiles /c") for v in _win_value(argv, ("/c", "-c"))]
    if name == "schtasks" and any(w in ("/create", "-create", "/change", "-change") for w in words):
        return [(v, "schtasks /tr") for v in _win_value(argv, ("/tr", "-tr"))]
    if name == "reg" and words[1:2] == ["add"] and any(_RUN_KEY.search(w) for w in words[2:]):
        return [(v, "reg add Run key") for v in _win_value(argv, ("/d", "-d"))]
    if name == "sc" and words[1:2] in (["create"], ["config"]):
        for k, w in enumerate(words[:-1]):
            if w == "binpath=":
                return [(argv[k + 1], f"sc {words[1]} binPath")]
            if w.startswith("binpath=") and len(w) > 8:
                return [(argv[k][8:], f"sc {words[1]} binPath")]
        return []
    if name in ("invoke-wmimethod", "invoke-cimmethod") and "win32_process" in " ".join(words):
        for v in _win_value(argv, ("-argumentlist", "-arguments", "-args")):
            m = _WMI_COMMAND_LINE.search(v)
            return [(m.group(2) if m else v, f"{name} Win32_Process Create")]
        return []
    if name == "pcalua":
        return [(" ".join(argv[k + 1:]), "pcalua -a") for k, a in enumerate(words[:-1]) if a == "-a"][:1]
    if name == "conhost" and len(argv) > 1:
        inner = [a for a in argv[1:] if not a.startswith("--")]
        return [(" ".join(inner), "conhost")] if inner else []
    if name in ("start-process", "saps"):
        k = 1
        while k < len(argv) and argv[k].startswith("-"):
            k += 2
        named = _win_value(argv, ("-filepath", "-file", "-fi", "-f", "-path"))  # (the parameter given by name)
        file = named[0] if named else argv[k] if k < len(argv) else ""
        args = _win_value(argv, ("-argumentlist", "-args", "-arguments", "-a"))
        if _INSTALLED_APP.match(file):
            return []  # an installed (Store or Start-menu) app opened by its id: no command line is run
        if file:
            return [(" ".join(['& "' + file + '"' if " " in file else file, *args]), name)]
    return []


# terminal emulators open a window that runs the command they are given: after one of these flags (the rest of
# the line, or one string), after `--`, or (kitty, foot, wezterm start) as their first operand
_TERMINALS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("xterm", "uxterm", "rxvt", "urxvt", "rxvt-unicode", "st", "konsole", "kgx", "qterminal",
                     "terminology", "cool-retro-term", "eterm", "guake", "yakuake", "lxterm", "aterm"),
                    frozenset({"-e"})),
    **dict.fromkeys(("gnome-terminal", "mate-terminal", "xfce4-terminal", "terminator", "tilix", "lxterminal",
                     "sakura", "alacritty", "kitty", "foot", "wezterm", "ptyxis", "terminal.app", "hyper",
                     "x-terminal-emulator"),
                    frozenset({"-e", "-x", "--command", "--execute", "--exec"})),
}
_FIRST_OPERAND_RUNS = frozenset({"kitty", "foot", "wezterm", "alacritty"})
_TERMINAL_VALUED = frozenset({"-t", "--title", "-T", "--working-directory", "--cwd", "-d", "--directory", "-p",
                              "--profile", "-o", "--option", "--class", "--name", "-n", "-c", "--config", "-g",
                              "--geometry", "-fn", "-fa", "-fs", "-bg", "-fg", "--tab-title", "--window-with-profile"})
# cmd's `start ["title"] [/d dir] [/b] [/min] [/wait] ... command` and Windows Terminal's `wt [new-tab] [-p x] command`
_START_VALUED = frozenset({"/d", "/node", "/affinity"})
# programs that run a command line or a script they are given
_COMMAND_HOSTS = frozenset({"cmd", "powershell", "pwsh", "wsl", "bash", "sh", "python", "python3", "py", "node",
                            "wscript", "cscript", "mshta", "rundll32", "regsvr32", "msiexec", "conhost"})


def _host_name(word: str) -> str:
    return word.replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe")


# a Start-menu app opened by its application id (`shell:AppsFolder\\Microsoft.WindowsCalculator_8wekyb3d8bbwe!App`)
_INSTALLED_APP = re.compile(r"^shell:appsfolder\\[\w.-]+(?:![\w.-]+)?$", re.I)
_OPENED = re.compile(r"^[a-z][a-z0-9+.-]{1,20}:(?![\\/]?[^/]*\\)", re.I)  # https:, mailto:, ms-settings: (not C:\\)
_RUNNABLE = re.compile(r"\.(?:exe|com|bat|cmd|ps1|vbs|vbe|js|jse|wsf|wsh|hta|msc|cpl|scr|pif|lnk|msi|py|pyw)$", re.I)
_WT_VERBS = frozenset({"new-tab", "nt", "split-pane", "sp", "focus-tab", "ft", "move-focus", "mf", "swap-pane",
                       "focus-pane", "fp"})
# wt's sub-commands after a `;` on its line: the shell splits them off as commands of their own
WT_PANES = ("new-tab", "split-pane", "focus-tab", "move-focus", "swap-pane", "focus-pane")
_WT_VALUED = frozenset({"-p", "--profile", "-d", "--startingdirectory", "--title", "--tabcolor", "-w", "--window",
                        "--colorscheme", "--pos", "--size"})


def _terminal_command(name: str, argv: list[str]) -> list[str]:
    """The command line a terminal emulator or launcher is told to run (empty: it opens a plain shell)."""
    if name == "start":
        k = 1
        if len(argv) > 2 and (argv[1] == "" or " " in argv[1]):
            k = 2  # the window title ("" or a quoted phrase) comes first
        while k < len(argv) and argv[k].startswith("/"):
            k += 2 if argv[k].lower() in _START_VALUED else 1
        inner = argv[k:]
        if len(inner) > 1 and _host_name(inner[1]) in _COMMAND_HOSTS and _host_name(inner[0]) not in _COMMAND_HOSTS:
            inner = inner[1:]  # `start x cmd /c ...`: a one-word title, then the program
        if inner and (_OPENED.match(inner[0]) or ("." in inner[0].rsplit("\\", 1)[-1] and
                                                  not _RUNNABLE.search(inner[0]))):
            return ["open", *inner]  # a page or a document: opened by its program, as `open` does
        return inner
    if name in ("wt", "wt.exe") or name in WT_PANES:
        k = 1
        while k < len(argv) and (argv[k].lower() in _WT_VERBS or argv[k].startswith("-") or argv[k] == ";"):
            k += 2 if argv[k].lower() in _WT_VALUED else 1
        return argv[k:]
    flags = _TERMINALS[name]
    k = 1
    if name == "wezterm" and argv[1:2] == ["start"]:
        k = 2
    while k < len(argv):
        a = argv[k]
        if a == "--":
            return argv[k + 1:]
        if a in flags:
            return argv[k + 1:]
        if a.startswith(tuple(f + "=" for f in flags if f.startswith("--"))):
            return [a.split("=", 1)[1], *argv[k + 1:]]
        if a.startswith("-"):
            k += 2 if a in _TERMINAL_VALUED else 1
            continue
        return argv[k:] if name in _FIRST_OPERAND_RUNS else []
    return []


EMBEDDING = frozenset({*_SHELL_FLAGS, "git", "ssh", "autossh", "vim", "vi", "nvim", "ex", "view", "vimdiff", "gvim",
                       "rvim", "gdb", "lldb", "sqlite3", "apt", "apt-get", "aptitude", "awk", "gawk", "mawk",
                       "nawk", "sed", "gsed", "mysql", "mariadb", "psql", "docker", "podman",
                       "nerdctl", "kubectl", "oc", "tmux", "byobu", "screen", "watchexec", "perf",
                       "bwrap", "nsjail", "entr", "hyperfine", "inotifywait", "unshare", "cgexec", "prlimit",
                       "choom", *WIN_CARRIERS, *_TERMINALS, "start", "wt", "wt.exe", *WT_PANES,
                       "multipass", "lxc", "pct", "minikube", "colima", "limactl", "vagrant", "orb",
                       "orbctl", "prlctl", "tart", "utmctl", "consul", "nomad"})  # what embedded_scripts reads


_DASHDASH_RUNNERS = frozenset({"watchexec", "perf", "bwrap", "nsjail", "entr", "hyperfine", "inotifywait",
                               "unshare", "cgexec", "prlimit", "choom"})  # `prog [opts] -- CMD ...` runs CMD
_TMUX_RUNS = frozenset({"new", "new-session", "new-window", "neww", "split-window", "splitw", "run-shell", "run",
                        "respawn-pane", "respawnp", "respawn-window", "respawnw", "display-popup", "popup"})
_TMUX_VALUED = frozenset({"-s", "-n", "-t", "-c", "-x", "-y", "-e", "-F", "-l", "-p", "-w", "-h", "-d"}) - {"-d", "-h"}


def _tmux_scripts(argv: list[str]) -> list[tuple[str, str]]:
    """tmux new / split-window / run-shell 'CMD' runs CMD; tmux send-keys 'CMD' Enter types it into a shell."""
    words = argv[1:]
    verb_at = next((k for k, w in enumerate(words) if not w.startswith("-")), None)
    if verb_at is None:
        return []
    verb, rest = words[verb_at], words[verb_at + 1:]
    k, positional = 0, []
    while k < len(rest):
        if rest[k].startswith("-") and len(rest[k]) > 1:
            k += 2 if rest[k] in _TMUX_VALUED else 1
            continue
        positional.append(rest[k])
        k += 1
    if verb in _TMUX_RUNS and positional:
        return [(" ".join(positional) if len(positional) > 1 else positional[0], f"tmux {verb}")]
    if verb in ("send-keys", "send"):
        keys = [p for p in positional if p not in ("Enter", "C-m", "KPEnter", "C-j")]
        if keys and len(keys) < len(positional):  # typed and then entered
            return [(" ".join(keys), "tmux send-keys")]
    return []


_EXEC_VALUED = frozenset({"-u", "--user", "-e", "--env", "-w", "--workdir", "--env-file", "--detach-keys", "-c",
                          "--container", "-n", "--namespace", "--context", "--kubeconfig", "-f", "--filename"})


def _container_command(name: str, argv: list[str]) -> list[str]:
    """The command `docker exec [opts] CONTAINER CMD...` / `kubectl exec POD -- CMD...` runs inside."""
    if name in ("kubectl", "oc"):
        return argv[argv.index("--") + 1:] if "--" in argv else []
    k = argv.index("exec") + 1
    while k < len(argv) and argv[k].startswith("-"):
        k += 2 if argv[k] in _EXEC_VALUED else 1
    return argv[k + 1:]


# local VMs and system containers that run a command inside: verb, and how the command is given (after `--`,
# after the machine's name, or as `-c CMD`)
_VM_SHELLS = {"multipass": ("exec", "dash"), "lxc": ("exec", "dash"), "pct": ("exec", "dash"),
              "minikube": ("ssh", "dash"), "colima": ("ssh", "dash"), "limactl": ("shell", "after-name"),
              "vagrant": ("ssh", "c"), "orb": ("run", "after-name"), "orbctl": ("run", "after-name"),
              "prlctl": ("exec", "after-name"), "tart": ("exec", "after-name"), "utmctl": ("exec", "cmd")}
# OrbStack's own sub-commands: any other first word is a command run in the default machine (`orb -m dev CMD`)
_ORB_OWN = frozenset({"run", "shell", "start", "stop", "restart", "list", "ls", "create", "delete", "rm", "info",
                      "logs", "config", "default", "push", "pull", "update", "version", "help", "status", "clone",
                      "rename", "reset", "docker", "k8s", "kubernetes", "migrate", "login", "logout", "ssh",
                      "completion", "export", "import"})
_ORB_VALUED = frozenset({"-m", "--machine", "-u", "--user", "-w", "--workdir"})

# the labels the commands carried inside are known by (`vagrant ssh`): root there is that machine's root
VM_SHELL_LABELS = frozenset(f"{name} {verb}" for name, (verb, _) in _VM_SHELLS.items())


def _vm_command(name: str, argv: list[str]) -> list[str]:
    """The command `multipass exec VM -- CMD`, `lxc exec C -- CMD`, `minikube ssh -- CMD`, `limactl shell VM
    CMD`, `vagrant ssh -c CMD` runs inside the machine, or []."""
    verb, how = _VM_SHELLS[name]
    if name in ("orb", "orbctl") and argv[1:2] != [verb]:  # `orb [-m MACHINE] CMD`: run is implied
        k = 1
        while k < len(argv) and argv[k].startswith("-"):
            k += 2 if argv[k] in _ORB_VALUED else 1
        return argv[k:] if k < len(argv) and argv[k] not in _ORB_OWN else []
    if argv[1:2] != [verb]:
        return []
    if how == "cmd":  # `utmctl exec VM --cmd PROGRAM ARGS...`
        return argv[argv.index("--cmd") + 1:] if "--cmd" in argv else []
    if how == "dash":
        return argv[argv.index("--") + 1:] if "--" in argv else []
    if how == "c":
        k = next((i for i, a in enumerate(argv) if a in ("-c", "--command")), None)
        return [argv[k + 1]] if k is not None and k + 1 < len(argv) else []
    rest = [a for a in argv[2:] if a != "--"]
    operands = [k for k, a in enumerate(rest) if not a.startswith("-")]
    if name in ("orb", "orbctl"):  # `orb run [-m MACHINE] CMD`
        k = 0
        while k < len(rest) and rest[k].startswith("-"):
            k += 2 if rest[k] in ("-m", "--machine", "-u", "--user", "-w", "--workdir") else 1
        return rest[k:]
    return rest[operands[0] + 1:] if operands else []  # limactl shell VM CMD


_RX_EMBEDDED_SCRIPTS = re.compile(r"[;\n]")


# -- shell code hidden in a program's flags: one reader per family of programs, looked up by name --
# Each reader returns what it finds for one command of a program of its family. `embedded_scripts` runs, for a
# program name, only the readers of the families that name belongs to (`_EMBEDDED_READERS`, built once at
# import, in the order below): a name of no family reads nothing, without testing it family by family.
Reader = Callable[[str, list[str]], list[tuple[str, str]]]


def _shell_flag_values(name: str, argv: list[str]) -> list[tuple[str, str]]:
    return [(v, f"{name} option") for v in _values(argv, _SHELL_FLAGS[name])]


def _tar_checkpoint(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for a in argv[1:]:
        m = _CHECKPOINT.match(a)
        if m and m.group("cmd"):
            out.append((m.group("cmd"), "tar --checkpoint-action"))
    return out


def _git_config_code(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for k, a in enumerate(argv[1:-1], 1):
        if a == "-c" and "=" in argv[k + 1] and _GIT_CODE_KEYS.match(argv[k + 1].lower()):
            out.append((argv[k + 1].split("=", 1)[1].lstrip(" !"), "git -c"))
    return out


def _ssh_option_commands(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for k, a in enumerate(argv[1:], 1):
        opt = a[2:] if a.startswith("-o") and len(a) > 2 else (argv[k + 1] if a == "-o" and k + 1 < len(argv)
                                                               else "")
        key, _, value = opt.partition("=")
        if not value and " " in key:
            key, _, value = key.partition(" ")
        if key.strip().lower() in ("proxycommand", "localcommand", "knownhostscommand") and value:
            out.append((value, f"{name} -o {key.strip()}"))
    return out


def _editor_escapes(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for v in _values(argv, ("-c", "--cmd")) + [a[1:] for a in argv[1:] if a.startswith("+") and len(a) > 1]:
        m = _EDITOR_ESCAPE.match(v)
        if m and (m.group("cmd") or m.group("sys")):
            out.append((m.group("cmd") or m.group("sys"), f"{name} -c"))
        elif m and m.group("term") is not None:
            out.append((m.group("term").strip() or "sh", f"{name} -c"))
    return out


def _debugger_escapes(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for v in _values(argv, ("-ex", "--ex", "-iex", "--eval-command", "-eval-command", "-o", "--one-line")):
        m = _GDB_ESCAPE.match(v)
        if m and m.group("cmd"):
            out.append((m.group("cmd"), f"{name} -ex"))
    return out


def _sqlite_shell(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for a in argv[1:]:
        m = _SQLITE_ESCAPE.match(a)
        if m:
            out.append((m.group("cmd"), "sqlite3 .shell"))
    return out


def _tmux(name: str, argv: list[str]) -> list[tuple[str, str]]:
    return _tmux_scripts(argv)


def _screen(name: str, argv: list[str]) -> list[tuple[str, str]]:
    k = 1
    while k < len(argv) and argv[k].startswith("-"):
        k += 2 if argv[k] in ("-S", "-dmS", "-c", "-t", "-L", "-Logfile", "-p", "-X", "-T", "-e", "-h") else 1
    if k < len(argv) and "-X" not in argv and "-r" not in argv and "-ls" not in argv and "-list" not in argv:
        return [(shlex.join(argv[k:]), "screen")]
    return []


def _terminal(name: str, argv: list[str]) -> list[tuple[str, str]]:
    inner = _terminal_command(name, argv)
    if inner:
        return [(inner[0] if len(inner) == 1 else shlex.join(inner), name)]
    return []


def _after_dashdash(name: str, argv: list[str]) -> list[tuple[str, str]]:
    if "--" in argv:
        inner = argv[argv.index("--") + 1:]
        if inner:
            return [(shlex.join(inner), f"{name} --")]
    return []


def _debugger_args(name: str, argv: list[str]) -> list[tuple[str, str]]:
    if "--args" in argv:
        inner = argv[argv.index("--args") + 1:]
        if inner:
            return [(shlex.join(inner), f"{name} --args")]
    return []


def _cnpg_psql(name: str, argv: list[str]) -> list[tuple[str, str]]:
    if argv[1:3] == ["cnpg", "psql"] and "--" in argv:
        # the CloudNativePG plugin's `psql CLUSTER -- ARGS` runs psql with ARGS in the cluster's primary
        return [(shlex.join(["psql", *argv[argv.index("--") + 1:]]), "kubectl cnpg psql")]
    return []


def _container_exec(name: str, argv: list[str]) -> list[tuple[str, str]]:
    if "exec" in argv[1:3]:
        inner = _container_command(name, argv)
        if inner:
            return [(shlex.join(inner), "kubectl exec" if name in ("kubectl", "oc") else f"{name} exec")]
    return []


def _cluster_exec(name: str, argv: list[str]) -> list[tuple[str, str]]:
    """A scheduler's or mesh's own way to run a command on its machines: `kubectl run POD --image=I -- CMD`,
    `consul exec -node=N CMD`, `nomad alloc exec ALLOC CMD` (judged as the command, run over there)."""
    if name in ("kubectl", "oc") and argv[1:2] in (["run"], ["debug"]) and "--" in argv:
        inner = argv[argv.index("--") + 1:]
    elif name == "consul" and argv[1:2] == ["exec"]:
        k = 2
        while k < len(argv) and argv[k].startswith("-"):
            k += 1 if "=" in argv[k] or argv[k] in ("-verbose", "-shell=false") else 2
        inner = argv[k:]
    elif name == "nomad" and (argv[1:3] == ["alloc", "exec"] or argv[1:2] == ["exec"]):
        k = 3 if argv[1] == "alloc" else 2
        while k < len(argv) and argv[k].startswith("-"):
            k += 1 if "=" in argv[k] or argv[k] in ("-i", "-t", "-i=false", "-t=false") else 2
        inner = argv[k + 1:]
    else:
        return []
    return [(shlex.join(inner) if len(inner) > 1 else inner[0], f"{name} {argv[1]}")] if inner else []


def _vm_shell(name: str, argv: list[str]) -> list[tuple[str, str]]:
    inner = _vm_command(name, argv)
    if inner:
        return [(shlex.join(inner) if len(inner) > 1 else inner[0], f"{name} {_VM_SHELLS[name][0]}")]
    return []


def _db_shell_escapes(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for v in _values(argv, _DB_CODE):
        m = _DB_ESCAPE.match(v)
        if m:
            out.append((m.group("cmd"), f"{name} \\!"))
    return out


def _apt_hooks(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for v in _values(argv, ("-o", "--option")):
        m = _APT_HOOK.match(v)
        if m:
            out.append((m.group("cmd"), f"{name} -o hook"))
    return out


def _awk_system(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    code = _awk_code(argv)
    if code:
        for m in _AWK_STRING_CALL.finditer(code):
            text = m.group("a") or m.group("b") or m.group("c")
            if text:
                out.append((text.replace('\\"', '"'), f"{name} system()"))
    return out


def _sed_execute(name: str, argv: list[str]) -> list[tuple[str, str]]:
    out = []
    for script in _sed_scripts(argv):
        for part in _RX_EMBEDDED_SCRIPTS.split(script):
            m = _SED_CMD.match(part)
            if m and m.group("cmd") == "e" and m.group("rest").strip():
                out.append((m.group("rest").strip(), "sed e"))
    return out


# (family of names, its reader), in the order `embedded_scripts` reads them: the order of what it returns
_FAMILIES: tuple[tuple[Iterable[str], Reader], ...] = (
    (_SHELL_FLAGS, _shell_flag_values),
    (("tar", "gtar"), _tar_checkpoint),
    (("git",), _git_config_code),
    (("ssh", "autossh", "scp", "sftp"), _ssh_option_commands),
    (("vim", "vi", "nvim", "ex", "view", "vimdiff", "gvim", "rvim"), _editor_escapes),
    (("gdb", "lldb"), _debugger_escapes),
    (("sqlite3",), _sqlite_shell),
    (("tmux", "byobu"), _tmux),
    (("screen",), _screen),
    ((*_TERMINALS, "start", "wt", "wt.exe", *WT_PANES), _terminal),
    (_DASHDASH_RUNNERS, _after_dashdash),
    (("gdb", "lldb"), _debugger_args),
    (("kubectl", "oc"), _cnpg_psql),
    (("docker", "podman", "nerdctl", "kubectl", "oc"), _container_exec),
    (("kubectl", "oc", "consul", "nomad"), _cluster_exec),
    (_VM_SHELLS, _vm_shell),
    (("mysql", "mariadb", "psql"), _db_shell_escapes),
    (("apt", "apt-get", "aptitude"), _apt_hooks),
    (("awk", "gawk", "mawk", "nawk"), _awk_system),
    (WIN_CARRIERS, _win_carried),
    (("sed", "gsed"), _sed_execute),
)
_EMBEDDED_READERS: dict[str, tuple[Reader, ...]] = {}
for _names, _reader in _FAMILIES:
    for _name in dict.fromkeys(_names):
        _EMBEDDED_READERS[_name] = (*_EMBEDDED_READERS.get(_name, ()), _reader)


def embedded_scripts(name: str, argv: list[str]) -> list[tuple[str, str]]:
    """Shell command lines hidden in this command's flags or code, with a label for each."""
    out: list[tuple[str, str]] = []
    for reader in _EMBEDDED_READERS.get(name, ()):
        out += reader(name, argv)
    return out


def describe(analysis: ShellAnalysis) -> list[tuple[str, list[str]]]:
    """(simple command, its effects) for each command of an analysis, as `deskgate explain` shows them."""
    rows = []
    for cmd in analysis.commands:
        eff = program_effects(cmd.name)
        names = sorted(eff) if eff is not None else []
        why = unknown_effect(cmd.argv, cmd.name)
        quiet = quiet_use(cmd) if why and eff is None else None
        if quiet:
            names.append(f"none (changes nothing: {quiet})")
        elif why:
            names.append(f"unknown ({why})")
        args = " ".join(cmd.words[1:])
        if cmd.name in STDIN_SCRIPTS and (cmd.stdin_text or cmd.upstream):
            args += fed_script(cmd, analysis.commands)  # its script on standard input (osascript <<EOF)
        for fn in matching(cmd.name, args):
            names.append(f"{fn.effect} ({fn.decision}: {fn.why}; catalogue {fn.cls})")
        if cmd.privileged:
            names.append("privilege")
        if cmd.remote:
            names.append("remote")
        for op, target in cmd.redirects:
            if op in (">", ">>", ">|", "&>", "&>>") and not target.startswith("/dev/"):
                names.append(f"write {target}")
        names.extend(f"write {target}" for target in flag_written(cmd.name, cmd.argv))
        rows.append((cmd.text[:120], names))
    return rows
