"""Shell command analysis: parse a command with tree-sitter-bash, unwrap it, de-obfuscate it.

    analyse("sudo bash -c 'rm -rf /'") -> ShellAnalysis
    shell_facts(ctx)   -> ShellAnalysis | None   (shell actions only; `ctx.derived(shell_facts)`)
    command_facts(ctx) -> ShellAnalysis | None   (shell actions, and text typed into a terminal)

The analysis is a pure function of the command string (and the working directory, when the action names
one), so it is cached. It yields every *simple command* that would run, after unwrapping what runs
other commands (`sudo`, `env`, `bash -c`, `xargs`, `find -exec`, `python -c "os.system(...)"`, `ssh host
cmd`, `eval`, `$(...)`, base64 piped into a shell, ...), each with its argv, redirects and how it was
reached. A cmd.exe or PowerShell line (backslash paths, `%VAR%`, cmdlets) is read by gate/winshell.py into
the same commands. The shell rules (gate/rules/shell.py) judge those commands against the `[shell]` policy; each
`Finding` names the rule it belongs to, a risk, a reason for a person, and the part of the text it came
from.
"""

from __future__ import annotations

import base64
import binascii
import functools
import posixpath
import re
import shlex
import unicodedata
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec
import tree_sitter
import tree_sitter_bash

from gate import cli_globals, tui, winshell
from gate.attack_console import console_verb, hosts_console
from gate.effects import ALIASES, EMBEDDING, WIN_CARRIERS, embedded_scripts, program_effects
from gate.lines import judged_text
from gate.model import Risk, Target, TypedLine
from gate.normalise import fold, normalise, strip_invisible
from gate.packages import fetched_unknown, poisoned
from gate.prefix import Guarded

if TYPE_CHECKING:
    from gate.compiled import CompiledPolicy
    from gate.rules.base import Context

__all__ = [
    "Command",
    "Finding",
    "ShellAnalysis",
    "analyse",
    "command_alone",
    "command_facts",
    "env_prefix",
    "is_terminal",
    "line_cwd",
    "parse_piece",
    "shell_facts",
    "terminal_cwd",
]

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


def parse_piece(piece: str) -> tuple[bytes, tree_sitter.Tree]:
    """The bytes tree-sitter reads and its tree. A code point beyond U+FFFF anywhere after a `{` can crash
    tree-sitter-bash's scanner (a segfault whose trigger depends on memory layout, tree-sitter-bash#337: an
    agent's string could kill the supervisor), so after the first `{` those become U+FFFD. An emoji or a rare
    CJK character changes nothing a command does."""
    brace = piece.find("{")
    if brace >= 0 and not piece.isascii():
        tail = piece[brace:]
        if any(ord(ch) > 0xFFFF for ch in tail):
            piece = piece[:brace] + "".join("\ufffd" if ord(ch) > 0xFFFF else ch for ch in tail)
    src = piece.encode("utf-8", "surrogatepass")
    return src, _PARSER.parse(src)

HOME = "/home/~"  # how `~` / $HOME is represented inside resolved paths (so `~/..` resolves to /home)
MAX_DEPTH = 6  # unwrapping deeper than this is reported as complex, not followed
MAX_DECODE = 20_000  # bytes of decoded base64/hex we are willing to analyse
# How many earlier commands of its pipeline a command's `upstream` names (the nearest ones). Every rule that
# looks upstream then costs at most this per command, so a pipeline of thousands of stages is judged in
# linear time; a string that long has far more commands than `[shell] max_commands` and asks anyway.
UPSTREAM_WINDOW = 64

# what makes a string complex: allow rules never apply to it (gate/allow.py)
COMPLEX_FEATURES = frozenset({
    "pipe", "chain", "background", "subshell", "substitution", "process-substitution", "redirect",
    "heredoc", "compound", "function", "unparsable", "wrapped", "assignment", "too-deep",
})


class Command(msgspec.Struct, frozen=True, kw_only=True):
    """One simple command that would run, after unwrapping."""

    argv: tuple[str, ...]  # unquoted words, Unicode-cleaned, case kept (flags like -D vs -d differ)
    words: tuple[str, ...]  # the same words folded (lower case, homoglyphs folded) for matching
    name: str  # folded basename of argv[0] (`/usr/bin/rm` → `rm`, `cmd.exe` → `cmd`)
    span: str  # the source text it came from (for a person, and for the dialog's highlighting)
    via: tuple[str, ...] = ()  # what it was reached through: ("sudo", "bash -c", ...)
    redirects: tuple[tuple[str, str], ...] = ()  # (operator, folded target)
    dynamic: frozenset[int] = frozenset()  # argv indices whose value the gate cannot know ($VAR, $(...))
    subst: tuple[int, ...] = ()  # indices (in ShellAnalysis.commands) of commands in its substitutions
    upstream: tuple[int, ...] = ()  # indices of the commands earlier in its pipeline (its stdin)
    stdin_text: str | None = None  # here-doc / here-string / literal text fed to it
    cwd: str | None = None  # working directory when known ("" when a `cd` made it unknown)
    privileged: bool = False  # reached through sudo/doas/pkexec/su/...
    remote: bool = False  # runs on another machine (ssh host cmd)
    found: bool = False  # run by find -exec / xargs / parallel on items the gate cannot see

    @property
    def text(self) -> str:
        """Normalised text of this simple command (policy regexes match against it)."""
        return " ".join(self.words)


class Finding(msgspec.Struct, frozen=True):
    rule: str  # the rule id it belongs to, e.g. "block.shell.fork-bomb"
    risk: Risk
    reason: str
    span: str = ""  # the substring of the command it came from


# eq=False: identity hash: analyses are cached, and keys of caches (msgspec Structs: ~5x cheaper to build
# and ~30x cheaper to copy-with-changes than frozen dataclasses, which the cold path does per command)
class ShellAnalysis(msgspec.Struct, frozen=True, eq=False, kw_only=True):
    source: str  # the command as given (argv form: shell-quoted)
    commands: tuple[Command, ...]
    features: frozenset[str]
    notes: tuple[tuple[str, str], ...] = ()  # (what needed de-obfuscation / what hides code, span)
    assignments: tuple[tuple[str, str], ...] = ()  # NAME=value seen (folded name, value)
    fork_bombs: tuple[str, ...] = ()  # spans of self-replicating function definitions
    cwd: str | None = None

    @property
    def text(self) -> str:
        """The normalised command string (allow-rule globbing): made when asked, few ever ask."""
        return normalise(self.source)

    @property
    def complex(self) -> bool:
        return bool(self.features & COMPLEX_FEATURES)

    @property
    def unparsable(self) -> bool:
        return "unparsable" in self.features

    @property
    def obfuscated(self) -> bool:
        return any(kind == "obfuscated" for kind, _ in self.notes)


# -- small helpers -----------------------------------------------------------------------------

_ANSI_C = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)", re.S)
_ANSI_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
                "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _decode_escapes(text: str) -> tuple[str, bool]:
    """Decode $'...' / printf / echo -e escapes. Returns (text, whether a char was spelled in hex/octal)."""
    spelled = False

    def sub(m: re.Match[str]) -> str:
        nonlocal spelled
        esc = m.group(1)
        head = esc[0]
        if head in "xuU" and len(esc) > 1:
            spelled = True
            return chr(int(esc[1:], 16)) if int(esc[1:], 16) < 0x110000 else ""
        if head in "01234567":
            spelled = True
            return chr(int(esc, 8) & 0xFF)
        if head == "c":  # \cX is control-X; a bare `\c` at the end has nothing to control (found by fuzzing)
            return chr(ord(esc[1]) & 0x1F) if len(esc) > 1 else "\\c"
        return _ANSI_SIMPLE.get(head, "\\" + esc)

    return _ANSI_C.sub(sub, text), spelled


_UNSAFE_CATEGORIES = frozenset({"Cn", "Co", "Cs"})


def _clean(text: str) -> str:
    """Unicode clean-up that keeps case: drop invisible characters, NFKC-fold compatibility forms.

    Unassigned, private-use and surrogate code points become U+FFFD: they mean nothing in a command,
    and some of them after a `{` crash tree-sitter-bash's external scanner (a segfault, not an error)."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", strip_invisible(text))
    if any(unicodedata.category(ch) in _UNSAFE_CATEGORIES for ch in text if ord(ch) > 127):
        text = "".join("\ufffd" if unicodedata.category(ch) in _UNSAFE_CATEGORIES else ch for ch in text)
    return text


# one program under a second name: Windows' net1.exe is net.exe (the same accounts, shares and services), and
# the table's [alias] names (`gdate` is GNU `date` on macOS, `gnurm` is `rm`): a command's name is the program's
_SAME_PROGRAM = {"net1": "net", **ALIASES}


# systemd-run's flags that make a timer of the command that fires again and again, on a calendar, after each run
# or on an event (a one-shot delay, `--on-active=30`, runs the judged command once, seconds later, and the
# transient unit is gone: it is judged as the command itself)
_TIMER_FLAGS = ("--on-unit-active", "--on-unit-inactive", "--on-calendar", "--on-clock-change", "--on-timezone-change",
                "--timer-property")


@functools.lru_cache(maxsize=4096)
def _basename(word: str) -> str:
    name = fold(word).replace("\\", "/").rsplit("/", 1)[-1]
    if name.endswith((".exe", ".com", ".bat", ".cmd")):
        for ext in (".exe", ".com", ".bat", ".cmd"):
            if name.endswith(ext) and len(name) > len(ext):
                name = name[: -len(ext)]
                break
    return _SAME_PROGRAM.get(name, name)


_ALIAS_TARGETS = frozenset(ALIASES.values())


def _program_word(word: str, name: str) -> str:
    """A command's first word, with a second name ([alias]) written as the program `name` it is (`gdate` →
    `date`, `/opt/homebrew/bin/gdd` → `/opt/homebrew/bin/dd`): argv and the folded words then read as the
    program's to every rule, as its name does. Any other word is returned as it is."""
    if name not in _ALIAS_TARGETS:
        return word
    cut = max(word.rfind("/"), word.rfind("\\")) + 1
    return word[:cut] + name if fold(word[cut:]) in ALIASES else word


_UNESCAPE = re.compile(r"\\(.)", re.S)
_DQ_UNESCAPE = re.compile(r'\\([$`"\\\n])')


def _unescape_word(text: str) -> str:
    return _UNESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text)


# -- the walker --------------------------------------------------------------------------------


class _State:
    __slots__ = ("assignments", "commands", "features", "fork_bombs", "notes")

    def __init__(self) -> None:  # a plain class: one per analysis, built on every cold one
        self.commands: list[Command] = []
        self.features: set[str] = set()
        self.notes: list[tuple[str, str]] = []
        self.assignments: list[tuple[str, str]] = []
        self.fork_bombs: list[str] = []


_UNKNOWN_CWD = ""

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "rbash", "yash",
                    # shells of their own syntax whose commands run programs as any shell does: `-c` is a command line
                    "nu", "xonsh", "elvish", "osh", "ysh", "murex", "ion"})
INTERPRETERS = {  # interpreter → the flags that take code inline
    "python": ("-c",), "python2": ("-c",), "python3": ("-c",), "pypy": ("-c",), "pypy3": ("-c",),
    "perl": ("-e", "-E"), "ruby": ("-e",), "node": ("-e", "--eval", "-p", "--print"), "nodejs": ("-e",),
    "php": ("-r",), "lua": ("-e",), "deno": (), "bun": ("-e", "--eval"), "osascript": ("-e",),
    "pwsh": ("-c", "-command"), "powershell": ("-c", "-command"), "awk": (), "gawk": (), "mawk": (),
    "nawk": (), "rscript": ("-e",), "tclsh": (), "julia": ("-e",),
    # the other languages' one-liners: their code is read for the same shell-outs and deletes
    "luajit": ("-e",), "raku": ("-e",), "perl6": ("-e",), "elixir": ("-e", "--eval"), "erl": ("-eval",),
    "scala": ("-e",), "ghc": ("-e",), "racket": ("-e", "--eval"), "guile": ("-c",), "groovy": ("-e",),
    "swift": ("-e",), "ts-node": ("-e", "--eval", "-p", "--print"), "tsx": ("-e", "--eval", "-p", "--print"),
    "bb": ("-e", "--eval"), "jrunscript": ("-e",), "qjs": ("-e", "--eval"), "crystal": (), "nim": (),
}
# interpreters that take inline code after a verb (`deno eval CODE`, `crystal eval CODE`, `nim e --eval:CODE`)
_EVAL_VERBS = {"deno": "eval", "crystal": "eval"}
STDIN_EXECUTORS = frozenset({"iex", "invoke-expression", "source", "."})
DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c", "lwp-request", "get", "http", "https", "xh",
                         "iwr", "invoke-webrequest", "irm", "invoke-restmethod", "wget2", "curlie"})
NET_SENDERS = frozenset({"curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "rsync",
                         "ftp", "http", "https", "xh", "openssl", "smbclient", "curlie", "wget2", "pscp", "lftp",
                         "winscp", "ncftpput", "set-scpitem", "set-scpfile", "set-sftpitem", "set-sftpfile"})

# MPI launchers' options that take a value (`mpirun -np 4 --host a,b ./solver`)
_MPI_VALUED = frozenset({"-np", "-n", "-c", "-H", "--host", "-host", "-hostfile", "--hostfile", "-machinefile",
                         "--machinefile", "-x", "--map-by", "--bind-to", "-ppn", "-f", "-wdir", "--wdir", "-npernode",
                         "--npernode", "-genv", "-env", "--rankfile", "-rf", "--prefix", "-bootstrap"})
# commands whose arguments are each a whole command line: moreutils' pee (each run on a copy of the input) and
# hyperfine (each benchmarked, with its set-up, preparation and clean-up commands)
_LINE_CARRIERS = frozenset({"pee", "hyperfine"})
_HYPERFINE_VALUED = frozenset({"-w", "--warmup", "-m", "--min-runs", "-M", "--max-runs", "-r", "--runs", "-S",
                               "--shell",
                               "-u", "--time-unit", "-n", "--command-name", "--export-asciidoc", "--export-csv",
                               "--export-json", "--export-markdown", "--export-orgmode", "--output", "--style",
                               "--sort", "--input", "-i"})
_HYPERFINE_COMMANDS = frozenset({"-p", "--prepare", "-c", "--cleanup", "-s", "--setup", "--conclude"})
# lock holders that take the lock file, then the command (`setlock /tmp/l cmd`, `lckdo /tmp/l cmd`)
_LOCK_THEN_RUN = frozenset({"setlock", "with-lock-ex", "lckdo"})


# commands that run another command given as their remaining arguments, with the options they take
# that consume a value (everything else starting with "-" is a flag)
_WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-c", "-C", "-D", "-r", "-t", "-T", "-U", "-R",
                       "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type",
                       "--close-from", "--other-user", "--chroot", "--command-timeout"}),
    "doas": frozenset({"-u", "-C"}),
    "pkexec": frozenset({"--user", "-u"}),
    "gsudo": frozenset({"-u", "--user", "-d"}),
    "nohup": frozenset(), "time": frozenset({"-f", "-o", "--format", "--output"}),
    "nice": frozenset({"-n", "--adjustment"}), "ionice": frozenset({"-c", "-n", "-p", "-t", "-P", "-u"}),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "setsid": frozenset(), "coproc": frozenset(), "unbuffer": frozenset(), "caffeinate": frozenset({"-t", "-w"}),
    "chrt": frozenset(), "taskset": frozenset(), "torsocks": frozenset(), "proxychains": frozenset({"-f"}),
    "proxychains4": frozenset({"-f"}), "firejail": frozenset(), "strace": frozenset({"-o", "-e", "-p", "-s"}),
    "ltrace": frozenset({"-o", "-e", "-p"}), "exec": frozenset({"-a"}), "builtin": frozenset(),
    "command": frozenset(), "busybox": frozenset(), "toybox": frozenset(), "doas.exe": frozenset(),
    "xvfb-run": frozenset({"-n", "-s", "-f", "-e", "-p"}), "dbus-launch": frozenset(),
    "catchsegv": frozenset(), "valgrind": frozenset(),
    # the dynamic loader runs the program it is given: `ld.so /bin/sh`
    "ld.so": frozenset({"--library-path", "--preload", "--audit", "--argv0", "--inhibit-rpath"}),
    "ld-linux.so.2": frozenset({"--library-path", "--preload"}),
    "ld-linux-x86-64.so.2": frozenset({"--library-path", "--preload"}),
    "ld-linux-aarch64.so.1": frozenset({"--library-path", "--preload"}), "systemd-run": frozenset({"-u", "--unit", "-p",
                                                                              "--property", "-M"}),
    "runuser": frozenset({"-u", "-g", "-G", "--user", "--group"}), "sg": frozenset(), "chroot": frozenset(),
    "npx": frozenset({"-p", "--package"}), "uvx": frozenset({"--from", "--with"}),
    "bunx": frozenset({"-p", "--package"}), "pnpx": frozenset({"-p", "--package"}),
    "pipx": frozenset(), "watch": frozenset({"-n", "--interval", "-d", "-g"}),
    "flock": frozenset({"-w", "-E", "--timeout", "--conflict-exit-code"}),
    "nsenter": frozenset({"-t", "--target"}), "unshare": frozenset(), "xargs": frozenset(),
    "sshpass": frozenset({"-p", "-f", "-d", "-P"}), "torify": frozenset(), "tsocks": frozenset(),
    "entr": frozenset(), "chronic": frozenset(), "ifne": frozenset(), "cpulimit": frozenset({"-l", "-p", "-e",
                                                                                            "--limit", "--pid"}),
    "rlwrap": frozenset({"-a", "-f", "-H", "-p", "-S", "-e", "-C"}), "setarch": frozenset(),
    "nocache": frozenset(), "eatmydata": frozenset(), "fakeroot": frozenset(), "faketime": frozenset(),
    "dbus-run-session": frozenset(), "sem": frozenset(), "tini": frozenset(),
    # a project's test and build runners that start the command after them (`cross-env NODE_ENV=test jest`)
    "cross-env": frozenset(), "c8": frozenset({"-r", "--reporter", "-x", "--exclude", "-n", "--include", "-o",
                                               "--reports-dir", "--temp-directory", "--src", "-e", "--extension"}),
    "nyc": frozenset({"-r", "--reporter", "-x", "--exclude", "-n", "--include", "--report-dir", "--temp-dir",
                      "-e", "--extension", "-i", "--require", "--cwd"}),
    "bear": frozenset({"--output", "--config"}), "ccache": frozenset(),
    "dotenv": frozenset({"-e", "-c", "-v", "-p"}), "env-cmd": frozenset({"-f", "--file", "-e", "--environments"}),
    # carriers that run the command after their options: retried, spread over MPI ranks or cluster nodes, pinned
    # to a control group, limited, queued or run as another user by daemontools' and runit's helpers
    "retry": frozenset({"-t", "--times", "--tries", "-d", "--delay", "-u", "--until", "-w", "--while", "-m", "--min",
                        "-x", "--max", "-b", "--backoff", "-j", "--jitter", "-s", "--sleep"}),
    "mpirun": _MPI_VALUED, "mpiexec": _MPI_VALUED, "orterun": _MPI_VALUED, "mpiexec.hydra": _MPI_VALUED,
    "srun": frozenset({"-n", "-N", "-c", "-p", "--partition", "-t", "--time", "-J", "--job-name", "-A", "--account",
                       "--mem", "-o", "-e", "--gres", "-w", "--nodelist", "-G", "--gpus", "--ntasks", "--nodes",
                       "--cpus-per-task", "-q", "--qos", "-C", "--constraint", "-D", "--chdir", "-x", "--exclude"}),
    "cgexec": frozenset({"-g"}),
    "chpst": frozenset({"-u", "-U", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c", "-r", "-t"}),
    "softlimit": frozenset({"-m", "-d", "-s", "-l", "-a", "-o", "-p", "-f", "-c", "-r", "-t"}),
    "systemd-inhibit": frozenset({"--what", "--who", "--why", "--mode"}), "run-one": frozenset(),
    "run-this-one": frozenset(), "keep-one-running": frozenset(), "nq": frozenset({"-c"}),
    "tsp": frozenset({"-L", "-D", "-N", "-w", "-E"}), "daemonize": frozenset({"-p", "-l", "-u", "-c", "-e", "-o",
                                                                            "-E", "-a"}),
    # sandboxes that run the command after their options with less than the user's own rights (Landlock, bubblewrap,
    # nsjail, minijail, macOS's sandbox profiles): the command is judged as if run bare
    "landrun": frozenset({"--ro", "--rox", "--rw", "--rwx", "--bind-tcp", "--connect-tcp", "--env", "--log-level"}),
    "bwrap": frozenset({"--dev", "--proc", "--tmpfs", "--mqueue", "--dir", "--chdir", "--unsetenv", "--uid", "--gid",
                        "--hostname", "--remount-ro", "--lock-file", "--sync-fd", "--info-fd", "--json-status-fd",
                        "--block-fd", "--userns-block-fd", "--seccomp", "--add-seccomp-fd", "--exec-label",
                        "--file-label", "--cap-add", "--cap-drop", "--perms", "--size", "--userns", "--userns2",
                        "--pidns", "--args", "--argv0"}),
    "nsjail": frozenset({"-C", "--config", "-c", "--chroot", "-H", "--hostname", "-D", "--cwd", "-p", "--port",
                         "-u", "--user", "-g", "--group", "-R", "--bindmount_ro", "-B", "--bindmount", "-T",
                         "--tmpfsmount", "-m", "--mount", "-E", "--env", "-t", "--time_limit", "-l", "--log", "-L",
                         "--log_fd", "-M", "--mode", "-P", "--seccomp_policy", "--seccomp_string", "--rlimit_as",
                         "--rlimit_cpu", "--rlimit_fsize", "--rlimit_nofile", "--cgroup_mem_max", "--max_cpus"}),
    "minijail0": frozenset({"-u", "-g", "-c", "-S", "-P", "-b", "-k", "-f", "-m", "-M", "-T", "-a", "-C", "-R", "-K",
                            "-V", "--config", "--env-add", "--env-del", "--preload-library", "--seccomp-bpf-binary"}),
    "sandbox-exec": frozenset({"-f", "-n", "-p", "-D"}),
}
# sandbox options that take two values (a source and a destination, a name and a value): `bwrap --ro-bind / / ls`
_WRAPPER_PAIRS: dict[str, frozenset[str]] = {
    "bwrap": frozenset({"--bind", "--bind-try", "--ro-bind", "--ro-bind-try", "--dev-bind", "--dev-bind-try",
                        "--symlink", "--setenv", "--file", "--bind-data", "--ro-bind-data", "--chmod", "--bind-fd",
                        "--ro-bind-fd", "--overlay-src", "--tmp-overlay", "--ro-overlay"}),
}
# the label of a command wsl runs as root (`wsl -u root ...`): privileged, as under sudo
WSL_ROOT = "wsl -u root"
# wsl.exe's options that take a value before the command line it runs in a distribution
_WSL_VALUED = frozenset({"-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id"})
# package managers' verbs that run a program in the project's environment (`uv run`, `bundle exec`, `pnpm
# exec`): program → (the verbs, the options that take a value). What they start is judged when the table
# describes it; a name it does not describe is the project's own entry point, judged as the runner itself.
_RUNNER_VERBS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "uv": (frozenset({"run"}), frozenset({"--with", "--with-requirements", "--with-editable", "--python", "-p",
                                          "--from", "--package", "--extra", "--group", "--env-file", "--directory",
                                          "--project", "--index", "--index-url", "--extra-index-url", "-w"})),
    "poetry": (frozenset({"run"}), frozenset({"-C", "--directory", "-P", "--project"})),
    "pipenv": (frozenset({"run"}), frozenset()),
    "bundle": (frozenset({"exec"}), frozenset({"--gemfile"})), "bundler": (frozenset({"exec"}), frozenset()),
    "pnpm": (frozenset({"exec", "dlx", "run"}), frozenset({"-C", "--dir", "--filter", "-F", "-p", "--package"})),
    "yarn": (frozenset({"exec", "dlx", "run"}), frozenset({"-p", "--package", "--cwd"})),
    "npm": (frozenset({"exec", "x"}), frozenset({"-p", "--package", "-w", "--workspace", "--prefix"})),
    "bun": (frozenset({"x", "exec", "run"}), frozenset({"--cwd"})),
    "conda": (frozenset({"run"}), frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})),
    "mamba": (frozenset({"run"}), frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})),
    "micromamba": (frozenset({"run"}), frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})),
}
# a runner's options that install a package for the run, and the install line each amounts to
_RUN_INSTALLS = frozenset({"--with", "--with-editable", "-p", "--package"})
_INSTALL_LINE = {"uv": ("uv", "pip", "install"), "npm": ("npm", "install"), "pnpm": ("pnpm", "add"),
                 "yarn": ("yarn", "add"), "bun": ("bun", "add")}
# runners that fetch a package by its name and run it, and the install line a package they add amounts to
_PACKAGE_RUNNERS = {"uvx": ("uv", "pip", "install"), "npx": ("npm", "install"), "bunx": ("bun", "add"),
                    "pnpx": ("pnpm", "add")}
# runner verbs that download the package they name and run it, as npx does (`pnpm dlx X`, `yarn dlx X`)
_DOWNLOADING_VERBS = frozenset({("pnpm", "dlx"), ("yarn", "dlx"), ("npm", "exec"), ("npm", "x"), ("bun", "x")})
# `yarn NAME` / `pnpm NAME` run a package's program when NAME is none of their own verbs (`yarn tsc`)
_BIN_RUNNERS = frozenset({"yarn", "pnpm"})
_BIN_RUNNER_VERBS = frozenset({
    "add", "approve-builds", "audit", "bin", "cache", "catalog", "config", "constraints", "create", "dedupe", "deploy",
    "dlx", "doctor", "env", "exec", "explain", "fetch", "generate-lock-entry", "global", "help", "i", "import",
    "info", "init", "install", "install-test", "it", "licenses", "link", "list", "ln", "login", "logout", "ls",
    "node", "npm", "outdated", "owner", "pack", "patch", "patch-commit", "patch-remove", "plugin", "policies",
    "prune", "publish", "rb", "rebuild", "recursive", "remove", "rm", "root", "run", "sbom", "search", "server",
    "set", "setup", "stage", "start", "store", "t", "tag", "team", "test", "uninstall", "unlink", "unplug", "up",
    "update", "upgrade", "upgrade-interactive", "version", "versions", "why", "workspace", "workspaces",
})
# package programs that are a shell command under another name: `rimraf X` is `rm -rf X`, `shx rm -rf X` is
# `rm -rf X` (what `npx`, `yarn NAME`, `pnpm dlx` or a package script start is judged as that command)
_PACKAGE_COMMANDS = frozenset({"rimraf", "del-cli", "shx"})
# version and environment managers that run the command after their own words: program → (verbs, options with a
# value, positional words of their own before the command). `mise exec node@20 -- cmd`, `direnv exec DIR cmd`
_ENV_RUNNERS: dict[str, tuple[frozenset[str], frozenset[str], int]] = {
    "mise": (frozenset({"exec", "x"}), frozenset({"-C", "--cd", "-E", "--env", "-j", "--jobs"}), 0),
    "rtx": (frozenset({"exec", "x"}), frozenset({"-C", "--cd", "-E", "--env", "-j", "--jobs"}), 0),
    "asdf": (frozenset({"exec"}), frozenset(), 0),
    "direnv": (frozenset({"exec"}), frozenset(), 1),
    "devbox": (frozenset({"run"}), frozenset({"-c", "--config"}), 0),
    "pixi": (frozenset({"run", "exec"}), frozenset({"-e", "--environment", "--manifest-path"}), 0),
    "hatch": (frozenset({"run"}), frozenset({"-e", "--env"}), 0),
    "pdm": (frozenset({"run"}), frozenset({"-p", "--project"}), 0),
    "rye": (frozenset({"run"}), frozenset({"--pyproject"}), 0),
    # the *env version managers' shims run the command with the chosen version on PATH (`pyenv exec pip ...`)
    "pyenv": (frozenset({"exec"}), frozenset(), 0), "rbenv": (frozenset({"exec"}), frozenset(), 0),
    "nodenv": (frozenset({"exec"}), frozenset(), 0), "goenv": (frozenset({"exec"}), frozenset(), 0),
    "jenv": (frozenset({"exec"}), frozenset(), 0), "plenv": (frozenset({"exec"}), frozenset(), 0),
    "phpenv": (frozenset({"exec"}), frozenset(), 0), "luaenv": (frozenset({"exec"}), frozenset(), 0),
    "scalaenv": (frozenset({"exec"}), frozenset(), 0), "exenv": (frozenset({"exec"}), frozenset(), 0),
    "tfenv": (frozenset({"exec"}), frozenset(), 0),
    # toolchain and build-environment runners: `rustup run stable cargo ...`, `opam exec -- dune build`,
    # `stack exec -- prog`, `cabal exec -- prog`, `fnm exec --using=20 node`, `volta run --node 20 npm ...`
    "rustup": (frozenset({"run"}), frozenset({"--toolchain"}), 1),
    "opam": (frozenset({"exec"}), frozenset({"--switch", "--root"}), 0),
    "stack": (frozenset({"exec"}), frozenset({"--stack-yaml", "--resolver"}), 0),
    "cabal": (frozenset({"exec"}), frozenset({"--project-file"}), 0),
    "fnm": (frozenset({"exec"}), frozenset({"--using"}), 0),
    "volta": (frozenset({"run"}), frozenset({"--node", "--npm", "--pnpm", "--yarn", "--env"}), 0),
    "nvm": (frozenset({"exec"}), frozenset(), 0),
}
# environment runners whose run verb also starts a task the project defines (hatch's and pdm's scripts in
# pyproject.toml, rye's and pixi's tasks, devbox.json's scripts): a name the table does not describe is that
# task, judged as the runner itself, as `uv run NAME` and `poetry run NAME` are (`hatch run test:cov`)
# the version `nvm exec` may name before the command (without one it reads .nvmrc)
_NVM_VERSION = re.compile(r"^(?:v?\d[\w.]*|lts/[\w*-]+|--lts(?:=\S+)?|stable|system)$")
_TASK_RUNNERS = frozenset({"hatch", "pdm", "rye", "pixi", "devbox"})
_TASK_WORD = re.compile(r"^[a-z][a-z0-9_.-]*(?::[a-z0-9_.-]+)?$")
# runners given whole command lines as arguments: `nix-shell --run 'cmd'`, `concurrently "cmd1" "cmd2"`
_LINE_RUNNERS = frozenset({"nix-shell", "concurrently", "npm-run-all", "run-p", "run-s"})
# an argument a project's task is not given but the system program of the same name is: a drive (`format D:`),
# a path from the root or the home, a Windows switch (`/q`)
_SYSTEM_ARG = re.compile(r"^(?:[A-Za-z]:[\\/]?|/[A-Za-z?][\w:.-]*|~(?:/.*)?|\$HOME\b.*)$")
# names a project gives its own entry points and tasks that the table describes as something else
_TASK_NAMES = frozenset({"format", "install", "build", "test", "serve", "migrate", "setup", "start", "clean"})
_PRIVILEGED = frozenset({"sudo", "doas", "pkexec", "gsudo", "runuser", "su", "runas"})
_NO_INNER_OK = frozenset({"sudo", "doas", "pkexec", "gsudo", "su"})  # alone they still escalate
_XARGS_VALUED = frozenset({"-a", "-d", "-E", "-e", "-I", "-i", "-L", "-l", "-n", "-P", "-s", "--arg-file",
                           "--delimiter", "--max-args", "--max-procs", "--max-lines", "--replace",
                           "--eof", "--max-chars", "--process-slot-var"})
_SSH_VALUED = frozenset({"-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o",
                         "-p", "-Q", "-R", "-S", "-W", "-w", "-B"})
SSH_VALUED = _SSH_VALUED  # (the options of ssh that take a value, for the rules that read ssh lines)
# switches of ssh bundled in one word with an option that takes a value last (`-fNR 8080:host:80`)
SSH_CLUSTER = re.compile(r"^-[46AaCfGgKkMNnqsTtVvXxYy]+(?P<last>[bcDEeFIiJLlmOopQRSWwB])$")
_SHELL_VALUED = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})

# interpreter code: shell strings it hands to a shell, and the calls that do so
_CODE_CALL = re.compile(
    r"""(?:\bsystem|\bpopen|\bpopen[234]?|\bexec[lv]?p?e?|\bexecsync|\bexecfilesync|\bshell_exec|\bpassthru|\bspawnsync|\bspawn|"""
    r"""\bos\.execute|\bio\.popen|\bcall|\brun|\bcheck_output|\bcheck_call|\bgetoutput|\bgetstatusoutput|\bdo\s+(?:shell\s+)?script|\bqx|%x|"""
    # Erlang's os:cmd, Haskell's callCommand/spawnCommand, Scala's Process, R's and Emacs Lisp's shell calls
    r"""\bos:cmd|\bcallCommand|\bspawnCommand|(?-i:\bProcess)|\bshell(?=\s*\()|\bshell-command|\bsystem\*|\bsystem2)"""
    r"""\s*[({]?\s*(?:(?P<q>'''|\"\"\"|['"])(?P<s>.*?)(?P=q)|\[(?P<l>[^\]]*)\])""", re.S | re.I)
_CODE_BACKTICK = re.compile(r"`([^`]+)`")
# the os, subprocess or builtins modules reached through another module's private name or the object graph
# (`random._os.system`, `().__class__.__base__.__subclasses__()`, `f.__globals__['os']`): how code gets past a
# sandbox that only checks what is imported; nobody writes it for an ordinary task
_CODE_BACK_DOOR = re.compile(r"\._(os|sys|subprocess|posix|nt|builtins|shutil|socket)\.\w|__subclasses__\s*\(|"
                             r"__globals__\s*\[|__builtins__\s*(\[|\.__dict__|\.(eval|exec|__import__))|"
                             r"getattr\s*\(\s*__import__|__import__\s*\(\s*['\"](os|subprocess|pty)['\"]\s*\)\s*\."
                             r"(system|popen|spawn|exec|call|run|check_output)")
# a command line run as a method of its string (Groovy's "cmd".execute(), Scala's "cmd".! and .!!)
_CODE_STRING_RUN = re.compile(r"""(['"])([^'"\n]{1,2000})\1\s*\.\s*(?:execute\s*\(|!!?)""")
# a shell given its command line as arguments: System.cmd("sh", ["-c", "..."]), Process(Seq("bash", "-c", "..."))
_CODE_SHELL_ARGS = re.compile(r"""(['"])(?:/usr)?(?:/bin/)?(?:ba|z|da|k)?sh\1\s*,\s*(?:\[|Seq\(|List\(|Array\()?\s*"""
                              r"""(['"])-c\2\s*,\s*(['"])(.{1,2000}?)\3""", re.S)
# Emacs Lisp deletes a tree with (delete-directory "dir" t)
_CODE_LISP_DELETE = re.compile(r"""\(\s*delete-directory\s+(?:\(expand-file-name\s+)?(['"])(.*?)\1""")
_CODE_LIST_ITEM = re.compile(r"""(['"])(.*?)\1""", re.S)
_CODE_RMTREE = re.compile(r"""\b(?:rmtree|remove|unlink|rmdir|rmsync|rm_rf|rm_r|removedirs|rimraf)"""
                          r"""\s*\(\s*(['"])(.*?)\1""",
                          re.I | re.S)
_CODE_RMTREE_HOME = re.compile(
    r"""\b(?:rmtree|rmsync|rm_rf|rm_r|remove_tree|rimraf|removedirs|rmdir)\s*\(\s*(?:os\.path\.expanduser\(\s*['"]~/?['"]"""
    r"""\s*\)|(?:require\(\s*['"]os['"]\s*\)|os)\.homedir\(\)|\$ENV\{\s*['"]?HOME['"]?\s*\}|Dir\.home|"""
    r"""ENV\[['"]HOME['"]\]|os\.environ\[['"]HOME['"]\]|(?:pathlib\.)?Path\.home\(\)|process\.env\.HOME|"""
    r"""(?:os\.)?getenv\(\s*['"]HOME['"]\s*\))\s*[,)]""", re.I)
# deleters of a tree in the other languages (Julia, Nim, Swift, Deno, Go, .NET, R, the JVM, Elixir), with the
# home named by expression (`rm(homedir(), recursive=true)`)
_CODE_RMTREE_HOME_OTHER = re.compile(
    r"""\b(?:rm|removedir|remove_dir_all|removeall|removesync|removeitem|delete|deleterecursively|rm_rf!?)\s*\(\s*"""
    r"""(?:\w+:\s*)?(?:homedir\(\)|gethomedir\(\)|nshomedirectory\(\)|deno\.env\.get\(\s*['"]HOME['"]\s*\)|"""
    r"""os\.getenv\(\s*"HOME"\s*\)|(?:system\.)?environment\.getenvironmentvariable\(\s*"(?:HOME|USERPROFILE)"\s*\)|"""
    r"""(?:system\.)?environment\.getfolderpath\(\s*(?:system\.)?environment\.specialfolder\.userprofile\s*\)|"""
    r"""sys\.getenv\(\s*['"]HOME['"]\s*\)|system\.getproperty\(\s*"user\.home"\s*\)|system\.user_home!?\(\)|"""
    r"""filemanager\.default\.homedirectoryforcurrentuser(?:\.path)?|path\.expand\(\s*['"]~['"]\s*\))\s*[,)]""", re.I)
_WINDOWS_PATH = re.compile(r"^([a-z]:\\[\w$%. -]|\\\\[\w.?]|hk(lm|cu|cr|u|cc|ey_\w+)\\\w|\.\.?\\\w|%\w+%\\[\w.])", re.I)
_POWERSHELL_SYNTAX = re.compile(r"new-object|\[(system\.)?(net|convert|text|reflection)\.|\$\{?env:|"
                                r"\biex\b|invoke-expression", re.I)
# a Verb-Noun cmdlet with a call after it; searched in two linear steps (`verb-noun.*\(` in one pattern
# rescans the rest of the text from every hyphenated word: quadratic on hostile input)
_POWERSHELL_CMDLET = re.compile(r"\b[a-z]+-[a-z]+\b", re.I)


def _looks_powershell(text: str) -> bool:
    if _POWERSHELL_SYNTAX.search(text):
        return True
    m = _POWERSHELL_CMDLET.search(text)
    return m is not None and "(" in text[m.end():]
_CODE_FETCH = re.compile(r"urlopen|urllib|requests\.(get|post)|http\.client|\bfetch\s*\(|net::http|lwp::|"
                         r"open-uri|httpclient|downloadstring|downloadfile|downloaddata|invoke-webrequest|\biwr\b|"
                         r"start-bitstransfer|https?://", re.I)
# code run from what was fetched: exec/eval/load of it (not a method such as `json.load(` or `re.compile(`), an
# unpickling (which runs code), a `require(...)` of anything but a module's literal name
_CODE_EVAL = re.compile(r"(?<![.\w])(exec|eval|iex|invoke-expression|compile|load|loadstring)\s*\(|"
                        r"(?<![.\w])eval\s+[\w$@]|"  # Perl's and Ruby's `eval get(...)`, `eval $code`
                        r"[(,]\s*eval\s*\)|"  # eval handed over as a callback: `.then(eval)`
                        r"\b(c?pickle|marshal|dill|joblib|_pickle)\.loads?\s*\(|"
                        r"\brequire\s*\(\s*(?![\"'][\w@./-]*[\"']\s*\))|\|\s*iex\b|\bexec\b|"
                        r"^\s*iex\b|[;|]\s*iex\b|start-process|\bsaps\b|invoke-item|\[reflection\.assembly\]::load|"
                        # PowerShell's call operator on a name built at run time: `&('I'+'EX')`,
                        # `.($ShellId[1]+$ShellId[13]+'x')`, `&($env:ComSpec[4,15,25]-join'')` spell iex unseen
                        r"(?:^|[\s;|(])[&.]\s*\(\s*(?:\$[\w:]+\s*\[|\(*\s*['\"][^'\"]{0,12}['\"]\s*\+)",
                        re.I | re.M)
_CODE_DYNAMIC_EVAL = re.compile(r"\b(exec|eval)\s*\(\s*(?![\"'])|(?<![.\w])compile\s*\(|\|\s*iex\b|invoke-expression|"
                                r"(?<![.\w])load(string)?\s*\(\s*(?![\"'])|\bfunction\s*\(\s*\w*\s*\)\s*\(|"
                                # a shell command held in a variable (built, decoded or decrypted at run time)
                                r"\b(subprocess\.(call|run|popen|check_output|check_call|getoutput)|os\.system|"
                                r"os\.popen)\s*\(\s*(?![\"'\[(])[a-z_]\w*\s*[,)]", re.I)
CODE_SEND = re.compile(r"requests\.(post|put|patch)|urlopen|urllib\.request|http\.client|\bfetch\s*\(|"
                        r"https?\.request|axios\.(post|put)|net::http|socket\.|sendall|smtplib|lwp::|curl_exec|"
                        # node's `require('https').request(...)`, browsers' and HTTP libraries' own senders
                        r"require\(\s*['\"]https?['\"]\s*\)\s*\.\s*(request|get)\b|xmlhttprequest|sendbeacon|"
                        r"\b(got|needle|superagent|undici|faraday|httparty|typhoeus|restclient|httpx)\.(post|put|patch|"
                        r"request)\b|\bhttp\.post\s*\(|\bdeno\.connect\b|invoke-restmethod|invoke-webrequest", re.I)
_CODE_ENV_ALL = re.compile(r"dict\(\s*os\.environ\s*\)|os\.environ(?!\s*[\[.])|json\.dumps\(\s*os\.environ|"
                           r"\bprocess\.env\b(?!\s*[.\[])|ENV\.to_h|%ENV\b|\$_ENV\b|getenv\(\s*\)", re.I)
_CODE_SOCKET = re.compile(r"socket|fsockopen|tcpsocket|tcpclient|/dev/tcp/|net\.connect|createconnection", re.I)
_CODE_SHELL = re.compile(r"/bin/(ba|z|da)?sh\b|\bcmd(\.exe)?\b|pty\.spawn|\bdup2\b|subprocess|\bpopen\b|"
                         r"\bexec\b|child_process|\bspawn\b|\bsystem\b|proc_open|powershell|\biex\b|"
                         r"invoke-expression", re.I)
_CODE_FORK = re.compile(r"(while|loop|for)\b[^\n]{0,80}(\b|_)fork\s*\(|\bfork\s+while\s+fork|fork\(\)\s*while|"
                        r"while\s*\(?\s*(true|1)\s*\)?\s*[:{]?\s*(os\.)?fork|\bloop\s*(\{|do)\s*fork\b", re.I)
# a `for` over a small literal count: 2**N processes at most (`for i in range(3): os.fork()` makes 8), a demo,
# not a bomb; from about ten turns on the doubling fills the process table
_SMALL_COUNT = re.compile(r"\brange\(\s*[1-8]\s*\)|\b[01]\.\.\.?[1-8]\b|<=?\s*[1-8]\s*;")


def _bounded_forks(code: str) -> bool:
    """Every fork loop in `code` is a `for` over a small literal count."""
    return all(m.group(1) is not None and m.group(1).lower() == "for" and _SMALL_COUNT.search(m.group(0))
               for m in _CODE_FORK.finditer(code))


# a loop with no end in interpreter code that grows memory or makes a file or folder each turn
_CODE_ENDLESS_GROWTH = re.compile(
    r"(?:\bwhile\s*\(?\s*(?:true|1)\s*\)?\s*[:{]?|\bloop\s*(?:\{|do)|\bfor\s*\(\s*;\s*;\s*\)\s*\{?|"
    r"\bitertools\.count\(\)\s*:|iter\(int\s*,\s*1\)\s*\])"
    r"[^\n]{0,160}?(?:\.append\(|\.push\(|\bopen\([^\n]{0,120}?,\s*[\x27\"][wa]|\bmkdirs?\b|\bmakedirs\b|\bwritefilesync\b|"
    r"\btouch\b|\bfile_put_contents\b|\bmkdirsync\b|\+=\s*[\x27\"]|\*\s*10\s*\*\*)", re.I | re.S)


_RX_DONE_WITH = re.compile(r"\$\(|`|<\(")
_RX_UNWRAP = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_RX_UNWRAP_2 = re.compile(r"-?\d+")
_RX_CODE = re.compile(r"(\w+)\s*\|&")
_RX_WORD = re.compile(r"[A-Za-z/]")
_RX_EXPANSION = re.compile(r"\$\{HOME(:?[-=][^}]*)?\}")


class _Walker:
    """Walks one parse tree; a nested string (`bash -c '...'`) gets a child walker sharing the state."""

    def __init__(self, st: _State, src: bytes, depth: int, via: tuple[str, ...], cwd: str | None,
                 variables: dict[str, str], privileged: bool = False, remote: bool = False,
                 found: bool = False) -> None:
        self.st, self.src, self.depth, self.via = st, src, depth, via
        self.cwd, self.vars = cwd, variables
        self.privileged, self.remote, self.found = privileged, remote, found
        self.walked: set[int] = set()  # start bytes of the substitutions walked in the current parse tree
        self.plain = True  # a plain line (`_plain_line`) is read without its parse (False: the tests' reference)

    def walk_tree(self, root: tree_sitter.Node) -> None:
        """Walk a parse tree, then every substitution the walk did not reach: the shell runs `$(...)` wherever
        it stands (an arithmetic expansion, an array, an unquoted here-doc body), so a command in one that no
        statement rule leads to must not go unseen."""
        self.walked = set()
        self.walk(root)
        if b"$(" not in self.src and b"`" not in self.src and b"<(" not in self.src and b">(" not in self.src:
            return
        for node in _substitutions(root):  # outer first: walking one walks those inside it
            if node.start_byte not in self.walked:
                self.word(node)

    # -- entry points -------------------------------------------------------------------------

    def script(self, text: str, via: str, *, privileged: bool = False, remote: bool = False,
               found: bool = False, stdin: tuple[int, ...] = (), tolerant: bool = False) -> list[int]:
        """Analyse `text` as a nested script reached through `via`. Returns the indices of its commands.
        `tolerant`: the text is another language's command line (PowerShell) read for the commands it
        names, so a parse error is not itself a finding."""
        if self.depth >= MAX_DEPTH:
            self.st.features.add("too-deep")
            self.st.notes.append(("too-deep", text[:200]))
            return []
        start = len(self.st.commands)
        prepared = _prepare(_clean(text))
        child = _Walker(self.st, b"", self.depth + 1, (*self.via, via),
                        self.cwd, dict(self.vars), self.privileged or privileged, self.remote or remote,
                        self.found or found)
        child.plain = self.plain
        was_unparsable = "unparsable" in self.st.features
        win = winshell.nested_dialect(prepared, via)
        if win is not None:  # a cmd.exe or PowerShell line: gate/winshell.py reads it
            broken = winshell.walk(child, prepared, win)
        elif self.plain and (line := _plain_line(prepared)) is not None:
            child.plain_line(line)  # plain commands: the walk of their parse, without it
            broken = False
        else:
            pieces, broken = _pieces(prepared)
            for piece in pieces:  # a long nested string is parsed in pieces too (see _pieces)
                child.src, tree = parse_piece(piece)
                broken = broken or tree.root_node.has_error
                child.walk_tree(tree.root_node)
        if broken:
            self.st.features.add("unparsable")
        if tolerant and broken:
            # a Windows command line bash cannot parse (`iex(iwr URL)`): read it as PowerShell code too
            self.code(text, "powershell", text[:200], frozenset())
            if not was_unparsable:
                self.st.features.discard("unparsable")
        if stdin:
            for i in range(start, len(self.st.commands)):
                c = self.st.commands[i]
                if not c.upstream:
                    self.st.commands[i] = _replace(c, upstream=stdin[-UPSTREAM_WINDOW:])
        return list(range(start, len(self.st.commands)))

    def text_of(self, node: tree_sitter.Node) -> str:
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    # -- statements -----------------------------------------------------------------------------

    def walk(self, node: tree_sitter.Node) -> list[int]:
        """Walk a statement node. Returns the indices of the 'main' commands it ran at this level."""
        kind = node.type
        if kind == "command":
            i = self.command(node, ())
            return [i] if i is not None else []
        if kind == "redirected_statement":
            return self.redirected(node)
        if kind == "pipeline":
            return self.pipeline(node)
        if kind == "for_statement" and (bound := self.for_values(node)) is not None:
            return self.for_each(node, *bound)
        if kind in ("program", "list", "compound_statement", "subshell", "do_group", "else_clause",
                    "elif_clause", "if_statement", "while_statement", "for_statement", "c_style_for_statement",
                    "case_statement", "case_item", "negated_command", "test_command"):
            if kind == "subshell":
                self.st.features.add("subshell")
            elif kind in ("if_statement", "while_statement", "for_statement", "c_style_for_statement",
                          "case_statement"):
                self.st.features.add("compound")
            mains: list[int] = []
            statements = 0
            for child in node.children:
                if child.type in ("&&", "||", ";", ";;"):
                    self.st.features.add("chain")
                elif child.type == "&":
                    self.st.features.update(("chain", "background"))
                elif child.type == "\n" or child.type == "comment":
                    pass
                elif child.is_named:
                    statements += 1
                    if kind in ("while_statement", "if_statement", "elif_clause", "for_statement") and \
                            child.type not in ("do_group", "else_clause", "elif_clause", "compound_statement") \
                            and child.type in ("word", "string", "variable_name", "concatenation"):
                        continue
                    mains.extend(self.walk(child))
                elif child.is_missing:
                    self.st.features.add("unparsable")
            if statements > 1 and kind in ("program", "compound_statement", "subshell", "do_group"):
                self.st.features.add("chain")
            return mains
        if kind == "variable_assignment":
            self.assignment(node)
            return []
        if kind == "variable_assignments":
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.assignment(child)
            return []
        if kind == "declaration_command":
            verb = node.children[0].type if node.children else ""
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.assignment(child)
            return [self.emit_plain([verb, *(self.text_of(c) for c in node.named_children)], node)]
        if kind == "unset_command":
            return [self.emit_plain(["unset", *(self.text_of(c) for c in node.named_children)], node)]
        if kind == "function_definition":
            return self.function(node)
        if kind == "ERROR":
            self.st.features.add("unparsable")
            mains = []
            for child in node.children:
                if child.is_named:
                    mains.extend(self.walk(child))
            return mains
        if kind in ("comment", "heredoc_body"):
            return []
        if kind in ("command_substitution", "process_substitution"):
            self.word(node)
            return []
        mains = []
        for child in node.named_children:
            mains.extend(self.walk(child))
        return mains

    def for_values(self, node: tree_sitter.Node) -> tuple[str, list[str]] | None:
        """A `for NAME in WORDS` whose words are all literal (no expansion, no glob), at most _FOR_VALUES of
        them: (NAME, the words). None for any other loop (it is walked once, its variable unknown)."""
        var = node.child_by_field_name("variable")
        values = node.children_by_field_name("value")
        if var is None or not values or len(values) > _FOR_VALUES:
            return None
        words = []
        for v in values:
            if v.type not in ("word", "raw_string", "string", "number"):
                return None
            text, dynamic, _ = self.word(v)
            if dynamic or (v.type == "word" and _GLOB_CHARS.search(text)):
                return None
            words.append(text)
        return self.text_of(var), words

    def for_each(self, node: tree_sitter.Node, name: str, values: list[str]) -> list[int]:
        """A loop over literal words, walked as the shell runs it: its body once with the variable bound to
        each word, so `for f in --list /; do tool "$f"; done` is judged as `tool --list` and `tool /`."""
        self.st.features.add("compound")
        body = node.child_by_field_name("body")
        if body is None:
            return []
        mains: list[int] = []
        for value in dict.fromkeys(values):
            self.vars[name] = value
            mains.extend(self.walk(body))
        return mains  # the variable keeps the last word after the loop, as in the shell

    def assignment(self, node: tree_sitter.Node) -> None:
        self.st.features.add("assignment")
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        name = self.text_of(name_node) if name_node is not None else ""
        value, dynamic, _ = self.word(value_node) if value_node is not None else ("", False, False)
        self.st.assignments.append((fold(name), value))
        if dynamic and (known := winshell.partial(value)) is not None:
            self.vars[name] = known
        elif dynamic:
            self.vars.pop(name, None)
        else:
            self.vars[name] = value

    def function(self, node: tree_sitter.Node) -> list[int]:
        self.st.features.add("function")
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        fname = self.text_of(name_node) if name_node is not None else ""
        start = len(self.st.commands)
        if body is not None:
            self.walk(body)
        body_text = self.text_of(body) if body is not None else ""
        calls_self = any(c.argv and c.argv[0] == fname for c in self.st.commands[start:])
        # a function that starts copies of itself in a pipe or in the background multiplies forever
        if calls_self and ("|" in body_text or "&" in body_text):
            self.st.fork_bombs.append(self.text_of(node))
        return []

    def pipeline(self, node: tree_sitter.Node) -> list[int]:
        stages = [c for c in node.children if c.is_named and c.type != "comment"]
        return self.stages(stages, [], None)

    def stages(self, nodes: list[tree_sitter.Node], upstream: list[int], literal: _Literal | None) -> list[int]:
        """Walk a pipeline's stages: each reads what the ones before it write (`upstream`, and the literal
        text followed through them). Returns the stages' main commands."""
        return self.piped(nodes, upstream, literal, self.walk)

    def plain_line(self, line: list[list[PlainStage]]) -> None:
        """A line of plain words joined by `|`, `&&`, `||` and `;` (`_plain_line`): what walking its parse
        does, without the parse. `line`: its pipelines, each a list of stages (a command's words and text)."""
        if len(line) > 1:
            self.st.features.add("chain")
        for stages in line:
            if len(stages) == 1:
                self.plain_stage(stages[0])
            else:
                self.piped(stages, [], None, self.plain_stage)

    def plain_stage(self, stage: PlainStage) -> list[int]:
        argv, span, redirects = stage
        if redirects:
            self.st.features.add("redirect")
        return [self.emit(argv, frozenset(), span, redirects, (), None)]

    def piped(self, stages: list, upstream: list[int], literal: _Literal | None,
              walk: Callable[[Any], list[int]]) -> list[int]:
        """The stages of a pipeline, each walked by `walk` (a parse node's, or a plain command's words)."""
        self.st.features.add("pipe")
        upstream = list(upstream)
        mains: list[int] = []
        for child in stages:
            start = len(self.st.commands)
            stage = walk(child)
            for i in range(start, len(self.st.commands)):
                c = self.st.commands[i]
                if not c.upstream and upstream:
                    self.st.commands[i] = _replace(c, upstream=tuple(upstream[-UPSTREAM_WINDOW:]))
            literal = self.literal_stage(stage, literal, child)
            upstream.extend(stage)
            mains.extend(stage)
        return mains

    def literal_stage(self, stage: list[int], fed: _Literal | None, node: object) -> _Literal | None:
        """Follow literal text through a pipeline (echo X | base64 -d | sh) and analyse what a shell gets."""
        if len(stage) != 1:
            return None
        c = self.st.commands[stage[0]]
        if c.dynamic:
            return None
        name, args = c.name, c.argv[1:]
        if name in ("echo", "printf") and args:
            text, spelled = _echo_output(name, list(args))
            return _Literal(text.encode("utf-8", "surrogatepass"), ("hex/octal escapes",) if spelled else ())
        if c.stdin_text is not None and name in ("cat", "base64", "rev", "xxd", "tr", "openssl", "gunzip",
                                                 "zcat", "gzip", "base32"):
            fed = _Literal(c.stdin_text.encode(), ())
        if fed is None:
            return None
        if "xargs" in c.via and c.name != "xargs":
            # `echo / | xargs rm -rf`: xargs appends the items it reads to the command it runs; with -0,
            # -d or -I an item is a whole line (`echo 'rm -rf /' | xargs -0 sh -c`), not a word
            sep, repl = _xargs_split(c.span)
            text = fed.data.decode("utf-8", "replace")
            items = text.split() if sep is None else [i for i in text.split(sep) if i.strip()]
            runs = [[*c.argv, *items[:64]]] if repl is None else \
                [[a.replace(repl, i) for a in c.argv] for i in items[:16]]
            saved = self.via, self.found
            self.via, self.found = c.via, True
            try:
                for argv in runs if items else []:
                    self.emit(argv, c.dynamic, c.span, c.redirects, (), None)
            finally:
                self.via, self.found = saved
            return None
        if (name == "cat" and len(args) == 0) or (name in ("tee",) and all(a.startswith("-") for a in args)):
            return fed
        decoded = _transform(c, fed.data)
        if decoded is not None:
            return _Literal(decoded[0][:MAX_DECODE], (*fed.how, decoded[1]))
        if _reads_stdin_as_code(c):
            text = fed.data.decode("utf-8", "replace")
            if c.name == "osascript":  # AppleScript: the shell commands it runs are judged, not its own words
                self.code(text, c.name, c.span, c.dynamic)
                return None
            if fed.how:
                self.st.notes.append(("obfuscated", f"{' → '.join(fed.how)} piped into {c.name}: {text[:120]}"))
            self.script(text, f"{' | '.join((*fed.how, c.name))}" if fed.how else f"| {c.name}",
                        stdin=(), privileged=c.privileged)
        return None

    def redirected(self, node: tree_sitter.Node) -> list[int]:
        body = node.child_by_field_name("body")
        redirects: list[tuple[str, str]] = []
        stdin_text: str | None = None
        for child in node.children:
            if child == body or not child.is_named:
                continue
            r, text = self.redirect(child)
            redirects.extend(r)
            if text is not None:
                stdin_text = text
        if body is None:
            # `> file` alone truncates the file: record it as the no-op command it is
            return [self.emit([":"], frozenset(), self.text_of(node), tuple(redirects), (), stdin_text)]
        if body.type == "command":
            i = self.command(body, tuple(redirects), stdin_text)
            mains = [i] if i is not None else []
        else:
            start = len(self.st.commands)
            mains = self.walk(body)
            # redirects around a compound statement apply to everything inside it
            for i in range(start, len(self.st.commands)):
                c = self.st.commands[i]
                self.st.commands[i] = _replace(c, redirects=c.redirects + tuple(redirects))
        for child in node.children:
            if child.type == "heredoc_redirect":
                mains = self.heredoc_rest(child, body, mains)
        return mains

    def heredoc_rest(self, node: tree_sitter.Node, body: tree_sitter.Node, mains: list[int]) -> list[int]:
        """The rest of the line a here-doc starts on: the parse puts `cat <<EOF | sh` and `cat <<EOF && x`
        inside the here-doc's node. A pipe's stages read what the here-doc's command writes (its text, for
        `cat`); a chained command runs after it. Without this, `cat <<EOF | sh` would hide what sh runs."""
        op = ""
        for child in node.children:
            if not child.is_named:
                op = child.type if child.type in ("&&", "||", ";", "&", "|", "|&") else op
                continue
            if child.type in ("heredoc_start", "heredoc_body", "heredoc_end", "file_redirect",
                              "herestring_redirect", "comment"):
                continue
            piped = op in ("|", "|&") or (child.type == "pipeline" and child.children and
                                          child.children[0].type in ("|", "|&"))
            if piped:
                literal = self.literal_stage(mains, None, body)
                mains = [*mains, *self.stages(_pipeline_stages(child), mains, literal)]
            else:
                self.st.features.add("chain")
                if op == "&":
                    self.st.features.add("background")
                mains = [*mains, *self.walk(child)]
            op = ""
        return mains

    def redirect(self, node: tree_sitter.Node) -> tuple[list[tuple[str, str]], str | None]:
        kind = node.type
        if kind == "heredoc_redirect":
            self.st.features.add("heredoc")
            body = next((c for c in node.children if c.type == "heredoc_body"), None)
            text = self.text_of(body) if body is not None else ""
            start = next((self.text_of(c) for c in node.children if c.type == "heredoc_start"), "")
            if "`" in text and not any(q in start for q in "'\"\\"):
                # an unquoted here-doc runs its `...` when the shell reads it (the parse keeps them as text)
                for inner in _BACKTICKS.findall(text):
                    self.script(inner, "`...` in a here-doc")
            out: list[tuple[str, str]] = []
            # `cat <<EOF > file`: the redirect after the heredoc start sits inside this node
            for c in node.named_children:
                if c.type == "file_redirect":
                    out.extend(self.redirect(c)[0])
            return out, text
        if kind == "herestring_redirect":
            self.st.features.add("redirect")
            target = node.named_children[-1] if node.named_children else None
            value = self.word(target)[0] if target is not None else ""
            return [], value
        if kind == "file_redirect":
            self.st.features.add("redirect")
            op = next((c.type for c in node.children if not c.is_named), ">")
            dest = node.child_by_field_name("destination")
            if dest is None:
                named = [c for c in node.named_children if c.type != "file_descriptor"]
                dest = named[-1] if named else None
            start = len(self.st.commands)
            target = self.word(dest)[0] if dest is not None else ""
            if op == "<" and dest is not None and dest.type == "process_substitution":
                # `sh < <(echo 'rm -rf /')`: literal output fed to stdin is what the command reads
                return [(op, fold(target))], _literal_output(self.st.commands[start:])
            return [(op, fold(target))], None
        return [], None

    # -- simple commands ------------------------------------------------------------------------

    def command(self, node: tree_sitter.Node, redirects: tuple[tuple[str, str], ...],
                stdin_text: str | None = None) -> int | None:
        start = len(self.st.commands)
        argv: list[str] = []
        dynamic: set[int] = set()
        resplit = False
        name_obfuscated = ""
        env_prefix = False
        redirects_l = list(redirects)
        src = self.src
        for child in node.named_children:
            kind = child.type
            if kind == "word":  # a plain argument (most of them): what `word` reads for it, without the call
                text = src[child.start_byte:child.end_byte].decode("utf-8", "replace")
                if "\\" in text and not (_WINDOWS_PATH.match(text) and "\\\\" not in text[2:]):
                    text = _unescape_word(text)
                argv.append(text)
                continue
            if kind == "variable_assignment":
                env_prefix = True
                name_node = child.child_by_field_name("name")
                value_node = child.child_by_field_name("value")
                value = self.word(value_node)[0] if value_node is not None else ""
                self.st.assignments.append((fold(self.text_of(name_node)) if name_node else "", value))
                continue
            if kind in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
                r, text = self.redirect(child)
                redirects_l.extend(r)
                if text is not None:
                    stdin_text = text
                continue
            if kind == "comment":
                continue
            target = child.named_children[0] if kind == "command_name" and child.named_children else child
            made = len(self.st.commands)
            value, dyn, flags = self.word(target)
            if kind == "process_substitution" and argv and _basename(argv[0]) in _RUNS_FILE_ARG:
                # `sh <(echo 'rm -rf ~')`, `. <(curl ...)`: the shell runs what the substitution writes
                known = _literal_output(self.st.commands[made:])
                if known is not None:
                    self.script(known, f"{_basename(argv[0])} <(...)")
            if kind == "command_name":
                if flags and ("ifs" in flags or "spelled" in flags or "var" in flags or "subst-literal" in flags or
                              "quoted-split" in flags):
                    name_obfuscated = self.text_of(target)
                if dyn and not argv and not _PS_ENV_SET.match(self.text_of(target)):
                    # (`$env:NAME=value` is PowerShell setting a variable: judged as an assignment)
                    self.st.notes.append(("dynamic-command", self.text_of(target)))
            if flags and ("ifs" in flags or ("subst-literal" in flags and target.type == "command_substitution")):
                # (most words carry no flag) $IFS, or an unquoted $(...) whose output is known: the shell splits
                # that output into words (`$(echo cm0gLXJmIH4= | base64 -d)` runs `rm -rf ~`)
                resplit = True
            if dyn:
                dynamic.add(len(argv))
            argv.append(value)
        if env_prefix and not argv:
            return None
        if resplit:
            # $IFS stood in for spaces: the shell splits the word there, so do we
            argv2: list[str] = []
            dyn2: set[int] = set()
            for i, a in enumerate(argv):
                for piece in a.split():
                    if i in dynamic:
                        dyn2.add(len(argv2))
                    argv2.append(piece)
            argv, dynamic = argv2, dyn2
        if name_obfuscated:
            self.st.notes.append(("obfuscated", name_obfuscated))
        if not argv:
            return None
        subst = tuple(range(start, len(self.st.commands)))
        return self.emit(argv, frozenset(dynamic), self.text_of(node), tuple(redirects_l), subst, stdin_text)

    def emit_plain(self, argv: list[str], node: tree_sitter.Node) -> int:
        return self.emit([a for a in argv if a], frozenset(), self.text_of(node), (), (), None)

    def emit(self, argv: list[str], dynamic: frozenset[int], span: str, redirects: tuple[tuple[str, str], ...],
             subst: tuple[int, ...], stdin_text: str | None) -> int:
        """Record one simple command, unwrapping what runs other commands. Returns the main index."""
        via = self.via
        privileged, remote, found = self.privileged, self.remote, self.found
        argv = [a if a.isascii() else _clean(a) for a in argv]  # (_clean's own first test, without the call)
        for _ in range(12):  # wrappers nest (sudo env nice timeout cmd); bounded
            if not argv:
                break
            name = _basename(argv[0])
            if name in cli_globals.PROGRAMS:  # `aws --profile p s3 rm`: read as `aws s3 rm ... --profile p`
                argv, dynamic = cli_globals.hoist(name, argv, dynamic)
            if name not in _UNWRAPS and not (name.startswith("python3.") and _PYTHON_N.fullmatch(name)):
                break  # unwrap has nothing to look into (its own first test, without the call)
            inner = self.unwrap(argv, dynamic, span, redirects, subst, stdin_text, via, privileged, remote, found)
            if inner is None:
                break
            if isinstance(inner, int):
                return inner
            argv, dynamic, label = inner
            via = (*via, label)
            if label.split()[0] in _PRIVILEGED or label == WSL_ROOT:
                privileged = True
            if label == "ssh":
                remote = True
            if label in ("xargs", "find -exec", "parallel"):
                found = True
        if not argv:
            argv = ["true"]
        name = _basename(argv[0])
        if name in _ALIAS_TARGETS:
            argv = [_program_word(argv[0], name), *argv[1:]]
        cmd = Command(
            argv=tuple(argv), words=tuple(map(fold, argv)), name=name, span=span, via=via,
            redirects=redirects, dynamic=dynamic, subst=subst, stdin_text=stdin_text,
            cwd=self.cwd, privileged=privileged, remote=remote, found=found)
        self.st.commands.append(cmd)
        index = len(self.st.commands) - 1
        self.after(cmd, index)
        return index

    def after(self, cmd: Command, index: int) -> None:
        """Effects of a command on what follows: `cd` moves the working directory; code it runs."""
        name = cmd.name
        if name in ("cd", "pushd", "chdir", "set-location", "sl"):
            args = [a for a in cmd.argv[1:] if not a.startswith("-")]
            if not args:
                self.cwd = HOME
            elif 0 in cmd.dynamic or (1 in cmd.dynamic):
                self.cwd = _UNKNOWN_CWD
            else:
                self.cwd = resolve_path(args[0], self.cwd) or _UNKNOWN_CWD
            return
        if cmd.stdin_text is not None and _reads_stdin_as_code(cmd):
            if name in INTERPRETERS and name not in SHELLS:
                self.code(cmd.stdin_text, name, cmd.span, cmd.dynamic)  # python <<EOF: python code, not shell
            else:
                self.script(cmd.stdin_text, f"{name} <<", privileged=cmd.privileged)

    def unwrap(self, argv: list[str], dynamic: frozenset[int], span: str, redirects: tuple[tuple[str, str], ...],
               subst: tuple[int, ...], stdin_text: str | None, via: tuple[str, ...], privileged: bool,
               remote: bool, found: bool) -> tuple[list[str], frozenset[int], str] | int | None:
        """One layer of wrapping: (inner argv, its dynamic indices, label), a finished index, or None."""
        name = _basename(argv[0])
        if name not in _UNWRAPS and not (name.startswith("python3.") and _PYTHON_N.fullmatch(name)):
            return None  # a program that runs nothing given in its words (most commands): nothing to unwrap

        def shifted(k: int) -> frozenset[int]:
            return frozenset(i - k for i in dynamic if i >= k)

        if name == "systemd-run" and any(a.startswith(_TIMER_FLAGS) for a in argv[1:]):
            # a recurring transient timer: the command runs again and again, with no one at the keyboard
            self.st.notes.append(("scheduled", span))
        elif name in ("strace", "ltrace"):
            for k, a in enumerate(argv[1:-1], 1):
                if a in ("-o", "--output") and argv[k + 1][:1] in ("|", "!"):
                    self.script(argv[k + 1][1:], f"{name} -o")  # its trace is piped into a command it starts

        def done_with(inner_scripts: list[tuple[str, str]], label_priv: bool = False) -> int:
            # record the wrapper itself, then analyse each script it runs
            first = _program_word(argv[0], name)
            cmd = Command(argv=(first, *argv[1:]), words=(fold(first), *map(fold, argv[1:])), name=name, span=span,
                          via=via,
                          redirects=redirects, dynamic=dynamic, subst=subst, stdin_text=stdin_text,
                          cwd=self.cwd, privileged=privileged, remote=remote, found=found)
            self.st.commands.append(cmd)
            index = len(self.st.commands) - 1
            for text, label in inner_scripts:
                self.st.features.add("wrapped")
                if any(i > 0 for i in dynamic) and _RX_DONE_WITH.search(text):
                    # its code comes from a substitution (already walked): what it runs is unknowable
                    self.st.notes.append(("indirect", f"{label} {text[:160]}"))
                    continue
                saved = self.via, self.privileged, self.remote, self.found
                self.via, self.privileged, self.remote, self.found = via, privileged or label_priv, remote, found
                try:
                    # a Windows program's command line is read for the commands it names (PowerShell syntax)
                    self.script(text, label, remote=label == "ssh", tolerant=name in WIN_CARRIERS)
                finally:
                    self.via, self.privileged, self.remote, self.found = saved
            self.after(cmd, index)
            return index

        if name in EMBEDDING:
            embedded = embedded_scripts(name, argv)
            if embedded:
                return done_with(embedded)
        if name in ("env",):
            k = 1
            while k < len(argv):
                a = argv[k]
                if a in ("-u", "--unset", "-C", "--chdir"):
                    k += 2
                    continue
                if a in ("-S", "--split-string"):
                    split = shlex_split(argv[k + 1] if k + 1 < len(argv) else "")
                    return [*split, *argv[k + 2:]], frozenset(), "env -S"
                if a.startswith("-") or _RX_UNWRAP.match(a):
                    if "=" in a and not a.startswith("-"):
                        self.st.assignments.append((fold(a.split("=", 1)[0]), a.split("=", 1)[1]))
                    k += 1
                    continue
                break
            return (argv[k:], shifted(k), "env") if k < len(argv) else None
        if name in ("time", "timeout") and len(argv) > 1 and argv[1].lower() in ("/t", "/nobreak", "/?") and \
                all(a.lower() in ("/t", "/nobreak", "/?") or a.lstrip("-").isdigit() for a in argv[1:]):
            return None  # cmd.exe's own TIME /T and TIMEOUT /T n: they print or wait and run nothing
        if name == "timeout" or name == "gtimeout":
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                k += 2 if argv[k] in ("-s", "-k", "--signal", "--kill-after") else 1
            k += 1  # the duration
            return (argv[k:], shifted(k), "timeout") if k < len(argv) else None
        if name in ("su",):
            for k, a in enumerate(argv[1:], 1):
                if a in ("-c", "--command") and k + 1 < len(argv):
                    return done_with([(argv[k + 1], "su -c")], True)
                if a.startswith("--command="):
                    return done_with([(a.split("=", 1)[1], "su -c")], True)
            return None
        if name == "runas":
            rest = [a for a in argv[1:] if not a.startswith("/")]
            return done_with([(rest[-1], "runas")], True) if rest else None
        if name in ("xargs",):
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                a = argv[k]
                k += 2 if a in _XARGS_VALUED else 1
            return (argv[k:], shifted(k), "xargs") if k < len(argv) else None
        if name == "parallel":
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                k += 2 if argv[k] in ("-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "--delay") else 1
            rest = argv[k:]
            if not rest:
                return None
            cut = next((i for i, a in enumerate(rest) if a in (":::", "::::", ":::+")), len(rest))
            inner = [a for a in rest[:cut] if a != "{}"] + [a for a in rest[cut + 1:] if a not in (":::", ":::+")]
            if len(rest[:cut]) == 1 and " " in rest[0]:
                return done_with([(" ".join(inner), "parallel")])
            return inner, frozenset(), "parallel"
        if name == "find":
            return self.find(argv, dynamic, span, redirects, subst, via, privileged, remote)
        if name == "ssh" or name == "autossh":
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                k += 2 if argv[k] in _SSH_VALUED or SSH_CLUSTER.match(argv[k]) else 1
            k += 1  # the host
            if k < len(argv):
                return done_with([(" ".join(argv[k:]), "ssh")])
            return None
        if name in _REMOTE_RUNNERS:
            # configuration management and parallel shells carry a command for other machines in an argument
            found_scripts, become = remote_runner_scripts(name, argv)
            return done_with([(t, "ssh") for t in found_scripts], become) if found_scripts else None
        if name in ("eval",):
            return done_with([(" ".join(argv[1:]), "eval")]) if len(argv) > 1 else None
        if name == "trap" and len(argv) >= 3 and not argv[1].startswith("-"):
            # `trap 'CMD' EXIT`: the handler runs in this shell when the signal comes (at exit: always)
            return done_with([(argv[1], "trap")])
        if name == "alias":
            # `alias x='CMD'`: what the name runs from now on (judged as if run: it is defined to be)
            # (a lone name is a rename or a prefix, `alias vi=vim`, `alias sudo='sudo '`: nothing runs by itself)
            bodies = [(body, "alias") for a in argv[1:] if "=" in a and not a.startswith("-")
                      and len((body := a.split("=", 1)[1]).split()) > 1]
            return done_with(bodies) if bodies else None
        if name in ("watch",):
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                k += 2 if argv[k] in ("-n", "--interval", "-d", "-g") else 1
            return done_with([(" ".join(argv[k:]), "watch")]) if k < len(argv) else None
        if name in _LINE_CARRIERS:
            lines, k = [], 1
            while k < len(argv):
                a = argv[k]
                if name == "hyperfine" and a in _HYPERFINE_COMMANDS and k + 1 < len(argv):
                    lines.append(argv[k + 1])
                    k += 2
                    continue
                if name == "hyperfine" and a.split("=", 1)[0] in _HYPERFINE_COMMANDS and "=" in a:
                    lines.append(a.split("=", 1)[1])
                elif name == "hyperfine" and (a in _HYPERFINE_VALUED or a in ("-L", "--parameter-list")):
                    k += 3 if a in ("-L", "--parameter-list") else 2
                    continue
                elif name == "hyperfine" and a in ("-P", "--parameter-scan"):
                    k += 4
                    continue
                elif not a.startswith("-"):
                    lines.append(a)
                k += 1
            return done_with([(line, name) for line in lines if line.strip()]) if lines else None
        if name in _LOCK_THEN_RUN:
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                k += 1
            k += 1  # the lock file
            return (argv[k:], shifted(k), name) if k < len(argv) else None
        if name == "flock":
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                if argv[k] in ("-c", "--command") and k + 1 < len(argv):
                    return done_with([(argv[k + 1], "flock -c")])
                k += 2 if argv[k] in ("-w", "-E", "--timeout") else 1
            k += 1  # the lock file
            if k < len(argv) and argv[k] in ("-c", "--command") and k + 1 < len(argv):
                return done_with([(argv[k + 1], "flock -c")])
            return (argv[k:], shifted(k), "flock") if k < len(argv) else None
        if name in ("chroot", "sg"):
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                k += 1
            if name == "chroot" and k < len(argv) and argv[k].rstrip("/") == "/proc/1/root":
                return None  # into process 1's root (the host's, from a container): the act judged, not its command
            k += 1
            if name == "sg" and k < len(argv):
                return done_with([(" ".join(argv[k:]), "sg")])
            return (argv[k:], shifted(k), name) if k < len(argv) else None
        if name in ("script",):
            for k, a in enumerate(argv[1:], 1):
                if a in ("-c", "--command") and k + 1 < len(argv):
                    return done_with([(argv[k + 1], "script -c")])
            return None
        if name in ("cmd",):
            for k, a in enumerate(argv[1:], 1):
                if fold(a) in ("/c", "/k", "/r"):
                    return done_with([(" ".join(argv[k + 1:]), "cmd /c")]) if k + 1 < len(argv) else None
            return None
        if name in ("python", "python2", "python3", "pypy", "pypy3") or _PYTHON_N.fullmatch(name):
            for k, a in enumerate(argv[1:], 1):
                if a == "-m" and k + 1 < len(argv):
                    # `python -m pip install x` runs the module like a command
                    return argv[k + 1:], shifted(k + 1), f"{name} -m"
                if not a.startswith("-"):
                    break
        if name in _PACKAGE_COMMANDS:
            rest = [a for a in argv[1:] if not a.startswith("-")] if name != "shx" else \
                [a for a in argv[1:] if a not in ("--silent", "--verbose")]
            if not rest:
                return None
            return done_with([(shlex.join(["rm", "-rf", *rest] if name != "shx" else rest), name)])
        if name in _ENV_RUNNERS and len(argv) > 2:
            verbs, valued, own = _ENV_RUNNERS[name]
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                k += 2 if (argv[k] in valued and "=" not in argv[k]) else 1
            if k < len(argv) and argv[k] in verbs:
                rest = argv[k + 1:]
                if "--" in rest:
                    rest = rest[rest.index("--") + 1:]
                else:
                    j = 0
                    while j < len(rest) and rest[j].startswith("-"):
                        j += 2 if (rest[j] in valued and "=" not in rest[j]) else 1
                    rest = rest[j + own:]
                    if name in ("mise", "rtx"):  # tool@version words before the command
                        while rest and "@" in rest[0] and not rest[0].startswith(("/", ".")):
                            rest = rest[1:]
                    if name == "nvm" and rest and _NVM_VERSION.match(rest[0]):  # `nvm exec 20 node app.js`
                        rest = rest[1:]
                    if name in _TASK_RUNNERS and rest and _TASK_WORD.match(fold(rest[0])) and \
                            program_effects(fold(rest[0])) is None and fold(rest[0]) not in _PACKAGE_COMMANDS:
                        return None  # the project's own task (`hatch run docs:serve`, `pixi run lint`)
                if rest:
                    return done_with([(shlex.join(rest), f"{name} {argv[k]}")])
            return None
        if name in _LINE_RUNNERS:
            lines = [argv[k + 1] for k, a in enumerate(argv[:-1]) if a in ("--run", "--command")] + \
                [a.split("=", 1)[1] for a in argv[1:] if a.startswith(("--run=", "--command="))] \
                if name == "nix-shell" else [a for a in argv[1:] if not a.startswith("-") and " " in a]
            return done_with([(ln, name) for ln in lines]) if lines else None
        if name in ("npm", "npx") and any(a in ("-c", "--call") or a.startswith("--call=") for a in argv[1:]):
            # `npm exec -c 'cmd'`, `npx -c 'cmd'`: the string is a shell line
            k = next(k for k, a in enumerate(argv) if a in ("-c", "--call") or a.startswith("--call="))
            line = argv[k].split("=", 1)[1] if "=" in argv[k] else (argv[k + 1] if k + 1 < len(argv) else "")
            if line:
                return done_with([(line, f"{name} -c")])
        if name == "uv" and argv[1:3] == ["tool", "run"] and len(argv) > 3:
            return done_with([(shlex.join(["uvx", *argv[3:]]), "uv tool run")])  # `uv tool run X` is `uvx X`
        if name in _BIN_RUNNERS and len(argv) > 2 and not argv[1].startswith("-"):  # (a bare name: a script)
            inner = fold(argv[1])
            task = inner in _TASK_NAMES and not any(_SYSTEM_ARG.match(a) for a in argv[2:])
            if inner not in _BIN_RUNNER_VERBS and not task and \
                    (program_effects(inner) is not None or inner in _PACKAGE_COMMANDS):
                return done_with([(shlex.join(argv[1:]), f"{name} {inner}")])
        if name in _RUNNER_VERBS and len(argv) > 2:
            verbs, valued = _RUNNER_VERBS[name]
            k = 1
            while k < len(argv) and argv[k].startswith("-"):
                k += 2 if (argv[k] in valued and "=" not in argv[k]) else 1
            if k < len(argv) and argv[k] in verbs:
                verb = argv[k]
                k += 1
                while k < len(argv) and argv[k].startswith("-"):
                    if argv[k] == "--":
                        k += 1
                        break
                    k += 2 if (argv[k] in valued and "=" not in argv[k]) else 1
                inner = fold(argv[k].rsplit("/", 1)[-1]) if k < len(argv) else ""
                # packages the runner installs for this run (`uv run --with X`, `npm exec -p X`): a named install
                extra = [argv[j + 1] if "=" not in argv[j] else argv[j].split("=", 1)[1] for j in range(1, k)
                         if argv[j].split("=", 1)[0] in _RUN_INSTALLS and (j + 1 < len(argv) or "=" in argv[j])]
                installs = [(shlex.join([*_INSTALL_LINE.get(name, (name, "add")), *extra]), f"{name} {verb} --with")] \
                    if extra else []
                downloads = (name, verb) in _DOWNLOADING_VERBS  # like npx: a package fetched by its name and run
                task = inner in _TASK_NAMES and not any(_SYSTEM_ARG.match(a) for a in argv[k + 1:])
                if inner and not task and (program_effects(inner) is not None or
                                           inner in _PACKAGE_COMMANDS or downloads):
                    # the runner is kept as a command too: its own functions (`uv run python -c`) are judged
                    return done_with([(shlex.join(argv[k:]), f"{name} {verb}"), *installs])
                if installs:
                    return done_with(installs)
        if name in _PACKAGE_RUNNERS:  # `uvx --with X cmd`, `npx -p X cmd`: X installed for the run, a named install
            j, extra = 1, []
            while j < len(argv) and argv[j].startswith("-"):
                flag, eq, value = argv[j].partition("=")
                if flag in _RUN_INSTALLS or flag == "--from":
                    extra.append(value if eq else (argv[j + 1] if j + 1 < len(argv) else ""))
                j += 1 if eq or flag not in _WRAPPERS.get(name, frozenset()) else 2
            if extra and j < len(argv):
                return done_with([(shlex.join(argv[j:]), name),
                                  (shlex.join([*_PACKAGE_RUNNERS[name], *[e for e in extra if e]]), f"{name} --with")])
            if j < len(argv) and (poisoned(_PACKAGE_RUNNERS[name][0], argv[j]) or
                                  fetched_unknown(_PACKAGE_RUNNERS[name][0], argv[j])):
                # the package it fetches and runs is a release an attacker published, or one the gate does not
                # know: judged as its install too
                return done_with([(shlex.join(argv[j:]), name), (shlex.join([*_PACKAGE_RUNNERS[name], argv[j]]), name)])
        if name == "wsl":
            # `wsl -u root -e sh -c '...'`, `wsl -- ls`, `wsl ls -la`: a command line run in a Linux distribution
            # (Microsoft Learn, wsl.exe); `wsl --install`, `wsl --export ...` are its own verbs, judged as wsl
            # `-u root` / `--user root` runs it as root: judged as sudo is, and with no command it opens root's shell
            k, root = 1, False
            while k < len(argv):
                a = argv[k].lower()
                if a in ("-e", "--exec", "--"):
                    k += 1
                    break
                if a in _WSL_VALUED:
                    root |= a in ("-u", "--user") and k + 1 < len(argv) and argv[k + 1].lower() == "root"
                    k += 2
                    continue
                if a == "--user=root":
                    root, k = True, k + 1
                    continue
                if a.startswith("-"):
                    return None
                break
            if k >= len(argv):
                return (["su"], frozenset(), WSL_ROOT) if root else None  # root's shell, as `sudo su` opens
            return argv[k:], shifted(k), WSL_ROOT if root else name
        if name in _WRAPPERS:
            if name == "command" and any(a in ("-v", "-V") for a in argv[1:3]):
                return None  # `command -v rm` only looks rm up
            if name == "nsenter" and _NSENTER_HOST.search(" ".join(argv[1:])):
                return None  # entering process 1's namespaces is the act judged (a shell on the host), not its command
            valued = _WRAPPERS[name]
            k = 1
            while k < len(argv):
                a = argv[k]
                if a == "--":
                    k += 1
                    break
                if not a.startswith("-") or a == "-":
                    if name in ("nice",) and _RX_UNWRAP_2.fullmatch(a):
                        k += 1
                        continue
                    break
                if name in ("sudo", "doas") and a in ("-i", "-s", "--login", "--shell") and k + 1 >= len(argv):
                    break
                k += 3 if a in _WRAPPER_PAIRS.get(name, ()) else 2 if (a in valued and "=" not in a) else 1
            if name in ("chrt", "taskset") and any(a == "--pid" or (a.startswith("-") and not a.startswith("--")
                                                          and "p" in a[1:]) for a in argv[1:k + 1]):
                return None  # `taskset -p MASK PID`, `chrt -p PRIO PID`: a running process changed, nothing started
            if name in ("chrt", "taskset", "setarch", "faketime") and k < len(argv):
                k += 1  # priority / cpu mask / architecture / fake time
            if name in ("sudo", "doas", "cross-env"):
                # `sudo LD_PRELOAD=/tmp/x.so find`: variables sudo sets for the command, judged like `env`'s
                while k < len(argv) and _RX_UNWRAP.match(argv[k]) and "=" in argv[k]:
                    self.st.assignments.append((fold(argv[k].split("=", 1)[0]), argv[k].split("=", 1)[1]))
                    k += 1
            if name == "pipx" and k < len(argv) and argv[k] != "run":
                return None  # `pipx install black`: a package manager's verb, judged as one
            if name == "pipx" and k < len(argv) and argv[k] == "run":
                k += 1  # `pipx run black .`: the verb, then the app it runs
                while k < len(argv) and argv[k].startswith("-"):
                    k += 2 if argv[k] in ("--spec", "--python", "--index-url", "--pip-args") else 1
            if k >= len(argv):
                return None
            return argv[k:], shifted(k), name
        if name in SHELLS or name in ("busybox",):
            return self.shell_c(argv, dynamic, span, redirects, subst, stdin_text, via, privileged, remote,
                                found, done_with)
        if name in ("powershell", "pwsh"):
            code = _powershell_code(name, argv)
            if code is not None:
                self.code(code, name, span, dynamic)
                # cmdlets and programs on a PowerShell command line read like shell commands
                self.script(code, f"{name} -Command", tolerant=True)
            return None
        if name in INTERPRETERS:
            code = _inline_code(name, argv)
            if code is not None:
                self.code(code, name, span, dynamic)
            return None
        return None

    def shell_c(self, argv: list[str], dynamic: frozenset[int], *rest: object) -> int | None:
        done_with = rest[-1]
        k = 1
        script: str | None = None
        while k < len(argv):
            a = argv[k]
            if a == "--":
                break
            if a in _SHELL_VALUED:
                k += 2
                continue
            if a.startswith("-") and len(a) > 1 and not a.startswith("--") and "c" in a[1:]:
                if k + 1 < len(argv):
                    script = argv[k + 1]
                    if (k + 1) in dynamic:
                        self.st.notes.append(("indirect", f"{argv[0]} -c {argv[k + 1]}"))
                break
            if not a.startswith("-") and not a.startswith("+"):
                break
            k += 1
        if script is None:
            return None
        return done_with([(script, f"{_basename(argv[0])} -c")])  # type: ignore[operator]

    def find(self, argv: list[str], dynamic: frozenset[int], span: str, redirects: tuple[tuple[str, str], ...],
             subst: tuple[int, ...], via: tuple[str, ...], privileged: bool, remote: bool) -> int | None:
        """find: record it, then the commands its -exec/-execdir/-ok run on what it finds."""
        argv = [_program_word(argv[0], "find"), *argv[1:]]
        cmd = Command(argv=tuple(argv), words=tuple(fold(a) for a in argv), name="find", span=span, via=via,
                      redirects=redirects, dynamic=dynamic, subst=subst, cwd=self.cwd, privileged=privileged,
                      remote=remote, found=self.found)
        self.st.commands.append(cmd)
        index = len(self.st.commands) - 1
        k = 1
        while k < len(argv):
            if argv[k] in ("-exec", "-execdir", "-ok", "-okdir"):
                end = k + 1
                while end < len(argv) and argv[end] not in (";", "+", "\\;"):
                    end += 1
                inner = argv[k + 1:end]
                start = _find_whole_start(argv, k, dynamic)
                if start is not None and argv[k] in ("-exec", "-ok"):
                    inner = [start if a == "{}" else a for a in inner]
                if inner:
                    saved = self.via, self.found, self.privileged, self.remote
                    self.via, self.found, self.privileged, self.remote = (*via, "find -exec"), True, privileged, remote
                    self.st.features.add("wrapped")
                    try:
                        self.emit(inner, frozenset(), " ".join(inner), (), (), None)
                    finally:
                        self.via, self.found, self.privileged, self.remote = saved
                k = end + 1
                continue
            k += 1
        return index

    def code(self, code: str, interpreter: str, span: str, dynamic: frozenset[int]) -> None:
        """Interpreter code (python -c, perl -e, ...): the shell commands it hands to a shell."""
        self.st.features.add("wrapped")
        for m in _CODE_CALL.finditer(code):
            if m.group("l") is not None:
                items = [x[1] for x in _CODE_LIST_ITEM.findall(m.group("l"))]
                if items:
                    self.script(shlex.join(items), f"{interpreter} code")
            elif m.group("s"):
                self.script(m.group("s"), f"{interpreter} code")
        for m in _CODE_BACKTICK.finditer(code):
            if interpreter in ("perl", "ruby", "php", "julia"):  # a backticked command line (Julia's run(`...`))
                self.script(m.group(1), f"{interpreter} code")
        for m in _CODE_STRING_RUN.finditer(code):
            self.script(m.group(2), f"{interpreter} code")
        for m in _CODE_SHELL_ARGS.finditer(code):
            self.script(m.group(4), f"{interpreter} code")
        for m in _CODE_LISP_DELETE.finditer(code):
            self.script(shlex.join(["rm", "-rf", m.group(2)]), f"{interpreter} code")
        for m in _CODE_RMTREE.finditer(code):
            self.script(shlex.join(["rm", "-rf", m.group(2)]), f"{interpreter} code")
        if _CODE_RMTREE_HOME.search(code) or _CODE_RMTREE_HOME_OTHER.search(code):  # home named by expression
            self.script("rm -rf ~", f"{interpreter} code")
        for text in _code_file_io(code):
            self.script(text, f"{interpreter} code")
        if _CODE_BACK_DOOR.search(code):
            self.st.notes.append(("obfuscated", f"{interpreter} code reaches the system through another module's "
                                                f"insides: {code[:100]}"))
        if _CODE_FETCH.search(code) and _CODE_EVAL.search(code):
            self.st.notes.append(("code-fetch-exec", code[:200]))
        elif _CODE_DYNAMIC_EVAL.search(code):
            self.st.notes.append(("indirect", f"{interpreter} code evaluates code built at run time: {code[:120]}"))
        if CODE_SEND.search(code) and _CODE_ENV_ALL.search(code):
            self.st.notes.append(("code-env-exfil", code[:200]))
        if _CODE_SOCKET.search(code) and _CODE_SHELL.search(code):
            self.st.notes.append(("code-reverse-shell", code[:200]))
        elif interpreter in ("awk", "gawk", "mawk", "nawk") and "/inet" in code and \
                len(set(_RX_CODE.findall(code))) >= 2:
            # gawk's /inet socket plus a second coprocess: commands read from the network are run
            self.st.notes.append(("code-reverse-shell", code[:200]))
        if _CODE_FORK.search(code) and not _bounded_forks(code):
            self.st.fork_bombs.append(code[:200])
        elif _CODE_ENDLESS_GROWTH.search(code):
            self.st.notes.append(("code-exhaust", code[:200]))

    # -- words ----------------------------------------------------------------------------------

    def word(self, node: tree_sitter.Node) -> tuple[str, bool, frozenset[str]]:
        """A word's value as the shell would see it: (value, is it unknowable, how it was spelled)."""
        kind = node.type
        if kind == "word" or kind == "number":
            text = self.text_of(node)
            if "\\" in text and not (_WINDOWS_PATH.match(text) and "\\\\" not in text[2:]):
                text = _unescape_word(text)  # a Windows path (C:\x, HKLM\x, .\x) keeps its separators
            return text, False, frozenset()
        if kind == "raw_string":
            return self.text_of(node)[1:-1], False, frozenset()
        if kind == "ansi_c_string":
            value, spelled = _decode_escapes(self.text_of(node)[2:-1])
            return value, False, frozenset({"spelled"}) if spelled and _RX_WORD.search(value) else frozenset()
        if kind in ("string", "translated_string"):
            return self.string(node)
        if kind == "concatenation":
            parts, dyn, flags = [], False, set()
            quoted = literal = 0
            for child in node.named_children:
                v, d, f = self.word(child)
                parts.append(v)
                dyn |= d
                flags |= f
                if child.type in ("string", "raw_string", "ansi_c_string"):
                    quoted += 1
                elif child.type == "word":
                    literal += 1
            if quoted and quoted + literal > 1 and not dyn:
                flags.add("quoted-split")
            return "".join(parts), dyn, frozenset(flags)
        if kind in ("simple_expansion", "expansion"):
            return self.expansion(node)
        if kind == "command_substitution":
            self.st.features.add("substitution")
            self.walked.add(node.start_byte)
            start = len(self.st.commands)
            self.walk_children(node)
            made = self.st.commands[start:]
            known = _literal_output(made)
            if known is not None:
                # $(printf '\x72\x6d'), $(echo cm0= | base64 -d): known text; say it was spelled indirectly
                return known.rstrip("\n"), False, frozenset({"subst-literal"})
            return self.text_of(node), True, frozenset()
        if kind == "process_substitution":
            self.st.features.add("process-substitution")
            self.walked.add(node.start_byte)
            self.walk_children(node)
            return "/dev/fd/63", True, frozenset({"procsub"})
        if kind == "arithmetic_expansion":
            return self.text_of(node), True, frozenset()
        if kind == "brace_expression":
            return self.text_of(node), False, frozenset()
        if kind == "command_name":
            return self.word(node.named_children[0]) if node.named_children else ("", False, frozenset())
        return self.text_of(node), False, frozenset()

    def walk_children(self, node: tree_sitter.Node) -> None:
        for child in node.named_children:
            self.walk(child)

    def string(self, node: tree_sitter.Node) -> tuple[str, bool, frozenset[str]]:
        parts: list[str] = []
        dyn = False
        flags: set[str] = set()
        pos = node.start_byte + (2 if node.type == "translated_string" else 1)
        end = node.end_byte - 1
        for child in node.named_children:
            if child.start_byte > pos:
                parts.append(_DQ_UNESCAPE.sub(r"\1", self.src[pos:child.start_byte].decode("utf-8", "replace")))
            if child.type == "string_content":
                parts.append(_DQ_UNESCAPE.sub(r"\1", self.text_of(child)))
            else:
                v, d, f = self.word(child)
                parts.append(v)
                dyn |= d
                flags |= f
            pos = max(pos, child.end_byte)
        if end > pos:
            parts.append(_DQ_UNESCAPE.sub(r"\1", self.src[pos:end].decode("utf-8", "replace")))
        flags.discard("ifs")  # inside quotes $IFS does not split
        return "".join(parts), dyn, frozenset(flags)

    def expansion(self, node: tree_sitter.Node) -> tuple[str, bool, frozenset[str]]:
        named = node.named_children
        if node.type == "expansion" and (len(named) != 1 or named[0].type != "variable_name"):
            # ${X:-default}, ${#X}, ${X/a/b}: say unknown (the HOME case is still recognised)
            text = self.text_of(node)
            if _RX_EXPANSION.fullmatch(text):
                return HOME_WORD, False, frozenset()
            for child in named:
                if child.type in ("command_substitution", "process_substitution"):
                    self.word(child)
            return text, True, frozenset()
        var = self.text_of(named[0]) if named else ""
        if var == "HOME":
            return HOME_WORD, False, frozenset()
        if var == "IFS":
            self.st.notes.append(("obfuscated", self.text_of(node)))
            return " ", False, frozenset({"ifs"})
        if var in self.vars:
            value = self.vars[var]
            return value, isinstance(value, winshell.Partial), frozenset({"var"})
        return self.text_of(node), True, frozenset()


HOME_WORD = "~"


@dataclass(frozen=True, slots=True)
class _Literal:
    data: bytes
    how: tuple[str, ...]


_Q = r"""(['"])((?:~|/|\$HOME|[a-zA-Z]:)[^'"]*)\1"""  # a quoted absolute or home path literal
_HOME_JOIN = re.compile(r"""(?:process\.env\.HOME|(?:require\(['"]os['"]\)|\w+)\.homedir\(\)|"""
                        r"""os\.path\.expanduser\(\s*['"]~['"]\s*\)|"""
                        r"""Path\.home\(\)|ENV\[['"]HOME['"]\]|\$ENV\{HOME\})\s*(?:\+|/|,|\.)\s*(['"])(/?[^'"]+)\1""")
# `os.path.expanduser('~/.netrc')` / `Path('~/.netrc').expanduser()` name the same file as the literal '~/.netrc'
_EXPANDUSER = re.compile(r"""(?:os\.path\.expanduser|expanduser)\(\s*(['"])(~[^'"]*)\1\s*\)|"""
                         r"""Path\(\s*(['"])(~[^'"]*)\3\s*\)\.expanduser\(\s*\)""")
_CODE_OPEN = re.compile(r"\bopen\s*\(\s*" + _Q + r"""(?:\s*,\s*(['"])([rwaxbt+]+)\3)?""")
_CODE_PERL_OPEN = re.compile(r"""\bopen\s*\(?\s*(?:my\s+)?[\w$]+\s*,\s*(?:(['"])(>>|>|\+<|<)\1\s*,\s*)?"""
                             r"""(['"])\s*(>>|>|\+<|<)?\s*((?:~|/)[^'"]*)\3""")
_CODE_WRITE = re.compile(r"\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|"
                         r"File\.write|File\.binwrite|write_text|write_bytes|file_put_contents)\s*\(\s*" + _Q)
_CODE_READ = re.compile(r"\b(?:readFileSync|readFile|createReadStream|File\.read|File\.readlines|File\.binread|"
                        r"read_text|read_bytes|file_get_contents|IO\.readlines)\s*\(\s*" + _Q)
_CODE_COPY = re.compile(r"\b(?:shutil\.)?(copy2?|copyfile|move|rename|copyFileSync|renameSync)\s*\(\s*" +
                        _Q.replace("\\1", "\\2") + r"\s*,\s*" + _Q.replace("\\1", "\\4"))


def _code_file_io(code: str) -> list[str]:
    """Shell equivalents of the file reads, writes and copies interpreter code does on literal paths
    (`open('~/.bashrc','a')` → `: >> ~/.bashrc`), so the path rules judge them like a redirect or `cat`."""
    code = _HOME_JOIN.sub(lambda m: f"{m.group(1)}~{'' if m.group(2).startswith('/') else '/'}{m.group(2)}"
                          f"{m.group(1)}", code)
    if "expanduser" in code:
        code = _EXPANDUSER.sub(lambda m: f"{m.group(1) or m.group(3)}{m.group(2) or m.group(4)}"
                                         f"{m.group(1) or m.group(3)}", code)
    out = []
    for m in _CODE_OPEN.finditer(code):
        mode = m.group(4) or "r"
        op = ">>" if "a" in mode else ">" if ("w" in mode or "x" in mode) else None
        out.append(f": {op} {shlex.quote(m.group(2))}" if op else shlex.join(["cat", m.group(2)]))
    for m in _CODE_PERL_OPEN.finditer(code):
        op = m.group(2) or m.group(4) or "<"
        out.append(f": {op} {shlex.quote(m.group(5))}" if op.startswith(">") else shlex.join(["cat", m.group(5)]))
    out += [f": > {shlex.quote(m.group(2))}" for m in _CODE_WRITE.finditer(code)]
    out += [shlex.join(["cat", m.group(2)]) for m in _CODE_READ.finditer(code)]
    for m in _CODE_COPY.finditer(code):
        verb = "mv" if m.group(1).lower().startswith(("move", "rename")) else "cp"
        out.append(shlex.join([verb, m.group(3), m.group(5)]))
    return out[:8]


def _replace(cmd: Command, **changes: object) -> Command:
    return msgspec.structs.replace(cmd, **changes)


_BARE_IFS = re.compile(r"\$IFS(?![A-Za-z0-9_])")


_CLOSE_FROM = 1024  # characters: shorter strings parse fast whatever their shape
_CHUNK_OPS = 64     # top-level operators per piece when a long string is parsed in pieces
_OPEN = {"(": ")", "{": "}", "[": "]"}
_TRAILING_OPERATOR = re.compile(r"(\|\||&&|\|&|\||\\)\s*$")


def _scan(text: str) -> tuple[str, list[tuple[int, int]]]:
    """One linear pass over `text`: (what closes it at its end, the spans of its top-level operators).

    The closers are the quotes, backticks and brackets left open (innermost first), with `:` before them
    after a trailing `|`, `||`, `&&` or backslash. The operators are `|`, `||`, `|&`, `&&`, `&`, `;` and
    newlines outside any quote or bracket (`2>&1` is a redirect, not one)."""
    stack: list[str] = []
    cuts: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        top = stack[-1] if stack else ""
        if top == "'":
            if c == "'":
                stack.pop()
        elif c == "\\":
            i += 1
        elif top == '"':
            if c == '"':
                stack.pop()
            elif c == "`":
                stack.append("`")
            elif c == "$" and text.startswith("(", i + 1):
                stack.append(")")
                i += 1
        elif c == "`":
            if top == "`":
                stack.pop()
            else:
                stack.append("`")
        elif c in "'\"":
            stack.append(c)
        elif c in _OPEN:
            stack.append(_OPEN[c])
        elif c in ")}]":
            if top == c:
                stack.pop()
        elif c == "#" and (i == 0 or text[i - 1] in " \t\n;|&("):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        elif not stack and c in "|&;\n":
            if c == "&" and ((i and text[i - 1] in "<>") or text.startswith(">", i + 1)):
                i += 1
                continue  # 2>&1, &>file: a redirect
            end = i + 2 if text[i:i + 2] in ("||", "&&", "|&", ";;") else i + 1
            cuts.append((i, end))
            i = end
            continue
        i += 1
    tail = "".join(reversed(stack))
    if (not stack or stack[-1] not in "'\"") and _TRAILING_OPERATOR.search(text[-16:]):
        tail = " :" + tail  # `a | (b |`: the pipe gets a command, then the bracket closes
    return tail, cuts


def _pieces(text: str) -> tuple[list[str], bool]:
    """What to hand the parser for `text`, and whether that differs from `text` as written.

    tree-sitter's time grows faster than the length of a long pipeline or list (quadratic and worse
    with a string or an open quote at its end). A long string is therefore closed at its end when left
    open (it does not parse as written: judged as unparsable) and, with more than 2·_CHUNK_OPS top-level
    operators, parsed in pieces of _CHUNK_OPS: every command is still read and judged, but a pipe
    between two pieces is not followed (such a string has far more commands than `[shell]
    max_commands` and asks anyway). A piece still longer than _MAX_PIECE is bounded too (`_bounded`):
    the parser's error recovery on one long malformed stretch (`>>>>…`, `a(a(a(…`) is quadratic in its
    length. Here-document bodies are text: never cut, and nothing in them is an operator. Linear."""
    if len(text) <= _CLOSE_FROM:
        return [text], False
    masked = _mask_heredocs(text) if "<<" in text else text
    closers, cuts = _scan(masked)
    if len(cuts) <= 2 * _CHUNK_OPS:
        spans = [(0, len(text))]
    else:
        spans, prev = [], 0
        for k in range(_CHUNK_OPS, len(cuts), _CHUNK_OPS):
            op_start, op_end = cuts[k]
            spans.append((prev, op_start))
            prev = op_end
        spans.append((prev, len(text)))
    altered, cut_words = bool(closers), False
    pieces: list[str] = []
    for start, end in spans:
        if end - start <= _MAX_PIECE:
            pieces.append(text[start:end])
            continue
        bounded, cut_words = _bounded(text, masked, start, end)
        pieces += bounded
        altered = altered or cut_words
    if not cut_words:  # (a last stretch cut between words has each of its parts closed already)
        pieces[-1] += closers
    return pieces, altered


# a here-document's start (`<<EOF`, `<<-'END'`, `<< "x"`): its delimiter word; a run of `<` is not one
_HEREDOC = re.compile(r"<<(-?)[ \t]*[\\'\"]?([A-Za-z0-9_][A-Za-z0-9_.-]*)")


def _mask_heredocs(text: str) -> str:
    """`text` with each here-document's body and end line written as one single-quoted string of the same
    length, so that a scan finds no operator, space or quote in it (it is cut nowhere). Linear."""
    out: list[str] = []
    done = 0  # text[:done] is in `out`; a `<<` before it is inside a body already masked
    for m in _HEREDOC.finditer(text):
        if m.start() < done:
            continue
        nl = text.find("\n", max(m.end(), done))
        if nl < 0:
            break
        body, delim, strip = nl + 1, m.group(2), m.group(1) == "-"
        end = pos = body
        while pos < len(text):  # the line that is the delimiter alone ends the body
            line_end = text.find("\n", pos)
            line_end = len(text) if line_end < 0 else line_end
            line = text[pos:line_end]
            if (line.lstrip("\t") if strip else line) == delim:
                end = line_end
                break
            pos = end = line_end + 1
        end = min(end, len(text))
        if end - body >= 2:
            out += [text[done:body], "'", "x" * (end - body - 2), "'"]
            done = end
    out.append(text[done:])
    return "".join(out)


_MAX_PIECE = 2048   # characters of one parse, beyond which a piece is cut (see _bounded)
_SEQUENCE = frozenset({";", "\n", "&", "&&", "||", ";;"})


def _bounded(text: str, masked: str, start: int, end: int) -> tuple[list[str], bool]:
    """`text[start:end]` in parses of at most about _MAX_PIECE characters of code, and whether a command
    was cut. Quoted text does not count (the parser reads a string in one token), unless a substitution in
    it makes it code: a long `git commit -m "…"` or `python -c '…'` is parsed whole, as written.

    Else first at its top-level `;`, newline, `&`, `&&` and `||` (the walker is shared, so a `cd` or a
    variable still holds in the next part; a compound command such as `for …; do …; done` cut there no
    longer parses and asks). A stretch with none of them and more code than _MAX_PIECE is cut between
    words outside quotes (or anywhere outside quotes when it has no space): that no longer parses as
    written, so the string is judged as unparsable (it asks), and each part is closed like a long string.
    `masked` is `text` with here-document bodies masked (`_mask_heredocs`): positions are the same."""
    if len(_code_runs(masked, start, end, _MAX_PIECE)) == 1:
        return [text[start:end]], False
    _, cuts = _scan(masked[start:end])
    parts, first, last = [], start, start
    for op_start, op_end in cuts:
        op_start, op_end = op_start + start, op_end + start
        if masked[op_start:op_end] not in _SEQUENCE:
            continue
        if op_start - first > _MAX_PIECE and last > first:
            parts.append((first, last))
            first = last
        last = op_end
    if end - first > _MAX_PIECE and last > first:
        parts.append((first, last))
        first = last
    parts.append((first, end))
    out: list[str] = []
    cut = False
    for a, b in parts:
        runs = _code_runs(masked, a, b, _MAX_PIECE // 2) if b - a > _MAX_PIECE else [(a, b)]
        if len(runs) == 1:
            out.append(text[a:b])
            continue
        out += [text[c:d] + _scan(masked[c:d])[0] for c, d in runs]
        cut = True
    return out, cut


def _code_runs(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """`text[start:end]` cut into runs of at most `limit` characters of code, each ending between words (or
    anywhere) outside quotes. Quoted text is not code, except in a double-quoted string after a `$(` or a
    backtick. A single run: nothing needs cutting. One linear pass."""
    out: list[tuple[int, int]] = []
    first = space = free = start
    quote = ""
    code = 0  # characters of code since `first`
    substituted = False  # a `$(` or backtick in the double-quoted string being read
    i = start
    while i < end:
        c = text[i]
        if quote:
            if c == quote:
                quote = ""
            elif quote == '"':
                if c == "\\":
                    i += 1
                elif c == "`" or (c == "$" and text.startswith("(", i + 1)):
                    substituted = True
                code += substituted
        elif c == "\\":
            i += 1
            code += 2
        elif c in "'\"":
            quote, substituted = c, False
        else:
            free = i
            code += 1
            if c in " \t":
                space = i
            if code >= limit:
                cut = space if space > first and code - (i - space) >= limit // 2 else free
                if cut > first:
                    out.append((first, cut))
                    first = space = free = cut
                    code = i - cut + 1
        i += 1
    out.append((first, end))
    return out


def _prepare(text: str) -> str:
    """Source fix-ups before parsing: tree-sitter-bash splits `$IFS/` oddly, `${IFS}` parses cleanly."""
    return _BARE_IFS.sub("${IFS}", text) if "$IFS" in text else text


# text with nothing shlex reads specially (quotes, a backslash) and only the blanks both it and str.split cut at
_SHLEX_PLAIN = re.compile(r"[^'\"\\\x0b\x0c\x1c-\x1f]*")


def shlex_split(text: str) -> list[str]:
    if text.isascii() and _SHLEX_PLAIN.fullmatch(text):
        return text.split()  # what shlex.split gives for it, without its character-by-character reader
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


_RX_ECHO_OUTPUT = re.compile(r"%[-+ #0-9.]*[sbdq]")
_RX_ECHO_OUTPUT_2 = re.compile(r"-[neE]+")


def _echo_output(name: str, args: list[str]) -> tuple[str, bool]:
    """What `echo ARGS` / `printf FMT ARGS` prints, for literal arguments (escape sequences decoded)."""
    if name == "printf":
        fmt, rest = args[0], args[1:]
        if fmt == "--" and rest:
            fmt, rest = rest[0], rest[1:]
        text, spelled = _decode_escapes(fmt)
        if rest and "%" in text:
            try:
                text = _RX_ECHO_OUTPUT.sub("%s", text)
                text = text % tuple(rest[: text.count("%s")]) if text.count("%s") <= len(rest) else text
            except (TypeError, ValueError):
                pass
        return text, spelled
    interpret = False
    while args and _RX_ECHO_OUTPUT_2.fullmatch(args[0]):
        interpret = interpret or "e" in args[0]
        args = args[1:]
    text = " ".join(args)
    if interpret or "\\x" in text:
        text, spelled = _decode_escapes(text)
        return text, spelled
    return text, False


def _xargs_split(span: str) -> tuple[str | None, str | None]:
    """How the xargs in `span` cuts its input into items: (separator, or None for blank-separated words;
    the -I replace string, or None)."""
    words = shlex_split(span)
    k = next((i for i, w in enumerate(words) if _basename(w) == "xargs"), len(words)) + 1
    sep: str | None = None
    repl: str | None = None
    while k < len(words) and words[k].startswith("-"):
        a = words[k]
        nxt = words[k + 1] if k + 1 < len(words) else ""
        if a in ("-0", "--null"):
            sep = "\0" if sep is None else sep
        elif a in ("-d", "--delimiter") or a.startswith(("-d", "--delimiter=")):
            raw = nxt if a in ("-d", "--delimiter") else a.split("=", 1)[1] if "=" in a else a[2:]
            sep = _decode_escapes(raw)[0][:1] or "\n"
        elif a in ("-I", "--replace") or a.startswith(("-I", "-i", "--replace")):
            sep = "\n"
            repl = (nxt if a == "-I" else a.split("=", 1)[1] if "=" in a else a[2:]) or "{}"
        k += 2 if a in _XARGS_VALUED else 1
    return sep, repl


def _literal_output(made: list[Command]) -> str | None:
    """The output of `echo X | decoder | ...` when every stage is literal and decodable, else None."""
    if not made or made[0].name not in ("echo", "printf") or made[0].dynamic or len(made[0].argv) < 2:
        return None
    text, _ = _echo_output(made[0].name, list(made[0].argv[1:]))
    data = text.encode("utf-8", "surrogatepass")
    for c in made[1:]:
        if c.dynamic or not c.upstream:
            return None
        step = _transform(c, data)
        if step is None:
            return None
        data = step[0][:MAX_DECODE]
    return data.decode("utf-8", "replace")


_RX_TRANSFORM = re.compile(rb"\s+")
_RX_TRANSFORM_2 = re.compile(rb"[^0-9a-fA-F]")


def _transform(cmd: Command, data: bytes) -> tuple[bytes, str] | None:
    """Decoders a pipeline can pass literal text through: base64 -d, xxd -r -p, rev, gunzip."""
    name, args = cmd.name, [a for a in cmd.words[1:]]
    try:
        if (name in ("base64", "base32") and any(a in ("-d", "--decode", "-D", "-di", "-id") for a in args)) or \
                (name == "openssl" and ("base64" in args or "enc" in args) and "-d" in args):
            raw = _RX_TRANSFORM.sub(b"", data)
            if name == "base32":
                return base64.b32decode(raw + b"=" * (-len(raw) % 8)), "base32"
            return base64.b64decode(raw + b"=" * (-len(raw) % 4), validate=False), "base64"
        if name == "xxd" and "-r" in args:
            return binascii.unhexlify(_RX_TRANSFORM_2.sub(b"", data)), "hex"
        if name == "rev":
            text = data.decode("utf-8", "replace")
            return "\n".join(line[::-1] for line in text.split("\n")).encode(), "rev"
        if name in ("gunzip", "zcat") or (name == "gzip" and "-d" in args):
            return zlib.decompress(data, 47)[:MAX_DECODE], "gzip"
    except (ValueError, binascii.Error, zlib.error):
        return None
    return None


_PS_VALUED = ("executionpolicy", "windowstyle", "version", "outputformat", "inputformat", "configurationname",
              "workingdirectory", "psconsolefile", "custompipename", "settingsfile", "ep", "wd")


def _powershell_code(name: str, argv: list[str]) -> str | None:
    """The command line a powershell/pwsh invocation runs: -Command's words (any abbreviation), the
    decoded -EncodedCommand, or (Windows PowerShell) the words after its options; None for a script file
    or an interactive shell."""
    codes = []
    k = 1
    while k < len(argv):
        a = argv[k]
        folded = a.lower()
        if folded[:1] in ("-", "/") and len(folded) > 1:
            flag = folded[1:]
            if flag in ("e", "ec") or (len(flag) >= 2 and "encodedcommand".startswith(flag)):
                if k + 1 < len(argv):
                    try:
                        codes.append(base64.b64decode(argv[k + 1] + "=" * (-len(argv[k + 1]) % 4))
                                     .decode("utf-16-le", "replace"))
                    except (ValueError, binascii.Error):
                        pass
                k += 2
                continue
            if flag != "" and "command".startswith(flag):
                codes.append(" ".join(argv[k + 1:]))
                break
            if flag in ("f",) or (len(flag) >= 2 and "file".startswith(flag)):
                break
            if any(v.startswith(flag) for v in _PS_VALUED if len(flag) >= 2) or flag in ("ep", "w", "ex", "exec"):
                k += 2
                continue
            k += 1
            continue
        if name == "powershell":  # Windows PowerShell runs its remaining words as a command
            codes.append(" ".join(argv[k:]))
        break
    return "\n".join(c for c in codes if c.strip()) or None


def _inline_code(name: str, argv: list[str]) -> str | None:
    """The inline program of an interpreter invocation (python -c CODE, perl -e CODE, awk 'PROG')."""
    flags = INTERPRETERS.get(name, ())
    if name in ("awk", "gawk", "mawk", "nawk"):
        k = 1
        while k < len(argv) and argv[k].startswith("-"):
            if argv[k] in ("-f", "--file"):
                return None
            k += 2 if argv[k] in ("-F", "-v", "--assign", "--field-separator") else 1
        return argv[k] if k < len(argv) else None
    codes = []
    verb = _EVAL_VERBS.get(name)
    if verb is not None and len(argv) > 2 and argv[1] == verb:
        return argv[2]
    for k, a in enumerate(argv[1:], 1):
        folded = a.lower()
        if name == "nim" and folded.startswith(("--eval:", "-e:", "--eval=")):
            codes.append(a.split(":", 1)[1] if ":" in a.split("=", 1)[0] else a.split("=", 1)[1])
        elif folded in flags and k + 1 < len(argv):
            codes.append(argv[k + 1])
        elif any(folded.startswith(f) and len(folded) > len(f) and f.startswith("-") and len(f) == 2
                 for f in flags) and not folded.startswith("--"):
            codes.append(a[2:])  # -c'code' written together
        elif name in ("pwsh", "powershell") and folded in ("-encodedcommand", "-enc", "-e", "-ec") \
                and k + 1 < len(argv):
            try:
                codes.append(base64.b64decode(argv[k + 1]).decode("utf-16-le", "replace"))
            except (ValueError, binascii.Error):
                pass
    return "\n".join(codes) if codes else None


# what find may be told between its start path and -exec without narrowing what it finds (no name, type or time test)
_FIND_NO_TEST = frozenset({"-maxdepth", "-mindepth", "-xdev", "-mount", "-depth", "-follow", "-L", "-H", "-P",
                           "-noleaf", "-ignore_readdir_race", "-d", "-x"})


def _find_whole_start(argv: list[str], at: int, dynamic: frozenset[int]) -> str | None:
    """The one start path of a find that tests nothing before its -exec at `at` (`find ~/.ssh/id_rsa -exec cat
    {} ;`): what `{}` stands for is that path and everything under it, so the command run on it is judged as if
    it named the path. None when find names several paths, none, one known only at run time, or filters."""
    starts: list[int] = []
    k = 1
    while k < at:
        a = argv[k]
        if a in _FIND_NO_TEST:
            k += 2 if a in ("-maxdepth", "-mindepth") else 1
            continue
        if a.startswith(("-", "(", "!", "\\(")):
            return None
        starts.append(k)
        k += 1
    if len(starts) != 1 or starts[0] in dynamic:
        return None
    return argv[starts[0]]


def _reads_stdin_as_code(cmd: Command) -> bool:
    """sh / bash / python / ... with no script and no inline code: it runs whatever arrives on stdin."""
    name = cmd.name
    if name in STDIN_EXECUTORS:
        return name in ("iex", "invoke-expression") or any(a == "/dev/stdin" for a in cmd.argv[1:])
    if name not in SHELLS and name not in INTERPRETERS:
        return False
    if name in ("awk", "gawk", "mawk", "nawk"):
        return False
    argv = cmd.argv
    for k, a in enumerate(argv[1:], 1):
        if a == "-" or a == "/dev/stdin":
            return True
        if name == "osascript" and k > 1 and argv[k - 1] in ("-l", "-s"):
            continue  # the language (`-l JavaScript`) or output style named: osascript reads its script from stdin
        if a.startswith("-") and len(a) > 1:
            if name in SHELLS and not a.startswith("--") and "c" in a[1:]:
                return False
            if a in INTERPRETERS.get(name, ()):
                return False
            if a == "-s" and name in SHELLS:
                return True
            if name in ("python", "python3", "python2") and a == "-m":
                return False
            continue
        if a.startswith("+"):
            continue
        return False  # a script file
    return True


# -- paths -------------------------------------------------------------------------------------

_DRIVE = re.compile(r"^([a-z]):[\\/]?")


_WIN_HOME = re.compile(r"^(\$env:userprofile|%userprofile%|\$env:home|%homedrive%%homepath%|%homepath%|\$env:homepath|"
                       r"~\\)(?=$|[\\/])?", re.I)


@functools.lru_cache(maxsize=8192)
def resolve_path(word: str, cwd: str | None = None) -> str | None:
    """A folded absolute path for `word` (`~` → /home/~, `..` resolved), or None when it is relative to
    an unknown directory. `cwd` of None means the action's own working directory (unknown here).

    Remembered per (word, cwd): the checks of one command resolve the same operand over and over (a delete
    target, a redirect, a read), and an agent names the same paths again."""
    w = fold(word)
    if not w:
        return None
    if w[:9] == "/private/" and w[9:12] in ("etc", "tmp", "var") and w[12:13] in ("", "/"):
        w = w[8:]  # macOS: /etc, /tmp and /var are links into /private (`/private/etc/sudoers.d` is /etc's)
    if w[0] == "/" and "//" not in w and (w[-1] != "/" or w == "/") and ("/." not in w or (
            "/./" not in w and "/../" not in w and not w.endswith(("/.", "/..")))):
        # already absolute and normal: no empty, `.` or `..` part (a hidden name like `/.ssh` is one), and no
        # trailing / (no drive or Windows home starts with /): normpath keeps it
        return w
    if w[0] in "%$":  # %APPDATA%\x, $env:TEMP\x: the folder the variable names (gate/winshell.py)
        w = winshell.known_folder(w)
    m = _DRIVE.match(w)
    h = _WIN_HOME.match(w)
    if m:  # (a drive's root is `/c:`, as the policy's `c:` resolves: `C:\` names the same folder)
        rest = w[m.end():].replace("\\", "/")
        w = "/" + m.group(1) + ":" + ("/" + rest if rest else "")
    elif h:  # $env:USERPROFILE\.ssh, %USERPROFILE%\Documents: the Windows home is the home
        w = HOME + "/" + w[h.end():].replace("\\", "/").lstrip("/")
    elif w == "~" or w.startswith("~/"):
        w = HOME + w[1:]
    elif w.startswith("~"):
        w = "/home/" + w[1:]
    elif not w.startswith("/"):
        if not cwd:
            return None
        w = cwd.rstrip("/") + "/" + w
    if w[0] == "/" and "//" not in w and w[-1] != "/" and ("/." not in w or (
            "/./" not in w and "/../" not in w and not w.endswith(("/.", "/..")))):
        return w  # absolute and normal already (as above): normpath keeps it
    trailing = w.endswith("/") and len(w) > 1
    out = posixpath.normpath(w)
    if out.startswith("//"):
        out = "/" + out.lstrip("/")
    return out + "/" if trailing and out != "/" else out


_DRIVE_PATH = re.compile(r"^/[a-z]:")
_NSENTER_HOST = re.compile(r"(^|\s)(-t\s*1|--target[\s=]1)(\s|$)")
# programs that run a command (or a module that stands for one) on many machines at once
_REMOTE_RUNNERS = frozenset({"ansible", "salt", "salt-ssh", "pssh", "parallel-ssh", "prsh", "clush", "pdsh", "fab"})
_ANSIBLE_VALUED = frozenset({"-m", "--module-name", "-a", "--args", "-i", "--inventory", "-u", "--user", "-f",
                             "--forks", "-e", "--extra-vars", "-l", "--limit", "-M", "--module-path", "-T",
                             "--timeout", "--become-user", "--become-method", "-c", "--connection",
                             "--private-key", "--key-file", "-B", "--background", "-P", "--poll", "--vault-id"})
_PSSH_VALUED = frozenset({"-h", "--hosts", "-H", "--host", "-l", "--user", "-p", "--par", "-o", "--outdir",
                          "-e", "--errdir", "-t", "--timeout", "-O", "--option", "-x", "--extra-args", "-X",
                          "--extra-arg", "-w", "-g", "-f", "-R", "-u", "-b", "-F", "-m", "-s", "-P"})
# the shell command each state-changing ansible module stands for: judged as if that command ran
_ANSIBLE_STATE_VERBS = {"stopped": "stop", "restarted": "restart", "reloaded": "reload", "started": "start"}


def _module_args(text: str) -> dict[str, str]:
    """`key=value key2='a b'` (an ansible module's free-form arguments) as a dictionary."""
    out: dict[str, str] = {}
    for word in shlex_split(text):
        key, eq, value = word.partition("=")
        if eq:
            out[key.strip().lower()] = value
    return out


def _ansible_module_script(module: str, args: str) -> str | None:
    """The shell command an ansible module stands for (None: a module that reads or does nothing we judge)."""
    module = module.rsplit(".", 1)[-1].lower()  # ansible.builtin.shell -> shell
    if module in ("shell", "command", "raw", "script", "win_shell", "win_command"):
        return args or None
    kv = _module_args(args)
    if module in ("service", "systemd", "systemd_service", "sysvinit", "win_service"):
        verb = _ANSIBLE_STATE_VERBS.get(kv.get("state", "").lower())
        if kv.get("enabled", "").lower() in ("no", "false") and not verb:
            verb = "disable"
        return f"systemctl {verb} {kv.get('name', 'service')}" if verb and verb != "start" else None
    if module in ("file", "win_file") and kv.get("state", "").lower() == "absent":
        target = kv.get("path") or kv.get("dest") or kv.get("name")
        return f"rm -rf {target}" if target else None
    if module in ("copy", "template", "lineinfile", "blockinfile", "get_url", "unarchive"):
        dest = kv.get("dest") or kv.get("path")
        return f"tee {dest}" if dest else None
    if module in ("user", "win_user"):
        if kv.get("state", "").lower() == "absent":
            return f"userdel {kv.get('name', 'user')}"
        groups = kv.get("groups", "")
        return f"useradd -G {groups} {kv.get('name', 'user')}" if groups else f"useradd {kv.get('name', 'user')}"
    if module == "authorized_key":
        return f"tee -a ~{kv.get('user', '')}/.ssh/authorized_keys"
    if module in ("reboot", "win_reboot"):
        return "reboot"
    if module in ("apt", "yum", "dnf", "package", "zypper", "apk", "pacman", "homebrew", "win_chocolatey", "pip"):
        names = kv.get("name") or kv.get("pkg")
        if not names:
            return "apt-get upgrade" if kv.get("upgrade") not in (None, "no", "false") else None
        verb = "remove" if kv.get("state", "").lower() in ("absent", "removed") else "install"
        return f"{'pip' if module == 'pip' else 'apt-get'} {verb} {names.replace(',', ' ')}"
    return None


def remote_runner_scripts(name: str, argv: list[str]) -> tuple[list[str], bool]:
    """The commands a remote runner carries (ansible -m shell -a CMD, salt cmd.run CMD, pssh CMD), and
    whether it runs them as root (ansible -b/--become, salt: its minions run as root)."""
    if name == "ansible":
        module, args, become = "command", "", False
        k = 1
        while k < len(argv):
            a = argv[k]
            if a in ("-m", "--module-name") and k + 1 < len(argv):
                module = argv[k + 1]
            elif a in ("-a", "--args") and k + 1 < len(argv):
                args = argv[k + 1]
            elif a.startswith(("--module-name=", "--args=")):
                if a.startswith("--args="):
                    args = a.split("=", 1)[1]
                else:
                    module = a.split("=", 1)[1]
            elif a in ("-b", "--become") or (a.startswith("-") and not a.startswith("--") and "b" in a[1:]
                                             and a not in _ANSIBLE_VALUED):
                become = True
            k += 2 if a in _ANSIBLE_VALUED else 1
        script = _ansible_module_script(module, args)
        return ([script] if script else []), become
    if name in ("salt", "salt-ssh"):
        words = [a for a in argv[1:] if not a.startswith("-")]
        for k, w in enumerate(words):
            if w in ("cmd.run", "cmd.run_all", "cmd.run_stdout", "cmd.shell", "cmd.script") and k + 1 < len(words):
                return [" ".join(words[k + 1:])], True
        return [], False
    if name == "fab":
        if "--" in argv:
            return [" ".join(argv[argv.index("--") + 1:])], False
        return [], False
    k = 1  # pssh, parallel-ssh, pdsh, clush: options, then the command
    while k < len(argv) and argv[k].startswith("-"):
        k += 2 if argv[k] in _PSSH_VALUED else 1
    return ([" ".join(argv[k:])] if k < len(argv) else []), False
_PYTHON_N = re.compile(r"python3\.\d+")
# every name `_Walker.unwrap` looks into (and python3.N): any other program is a simple command as it is;
# beyond shell code in flags (EMBEDDING: `git -c core.pager=CMD`), the names it unwraps in other ways
_UNWRAPS_BEYOND_FLAGS = frozenset({*_LINE_CARRIERS, *_LOCK_THEN_RUN,
                                   "env", "timeout", "gtimeout", "su", "runas", "xargs", "parallel", "find", "ssh",
                                   "autossh", "eval", "watch", "flock", "chroot", "sg", "script", "cmd", "python",
                                   "trap", "alias", *_REMOTE_RUNNERS,
                                   "python2", "python3", "pypy", "pypy3", *_WRAPPERS, *SHELLS, "busybox",
                                   "powershell", "pwsh", *INTERPRETERS, *_RUNNER_VERBS, *_BIN_RUNNERS,
                                   *_PACKAGE_COMMANDS, *_ENV_RUNNERS, *_LINE_RUNNERS, "npm", "npx", "uv", "wsl"})
_UNWRAPS = frozenset({*EMBEDDING, *_UNWRAPS_BEYOND_FLAGS})


def display_path(path: str) -> str:
    if path == HOME:
        return "~"
    if path.startswith(HOME + "/"):
        return "~" + path[len(HOME):]
    if _DRIVE_PATH.match(path):
        return path[1:3].upper() + "\\" + path[4:].replace("/", "\\")
    return path


# -- entry points ------------------------------------------------------------------------------

_PS_ENV_SET = re.compile(r"^\$env:[A-Za-z_][A-Za-z0-9_]*=", re.I)
_SIMPLE = re.compile(r"[A-Za-z0-9_./:@%+,=~^-]+(?: [A-Za-z0-9_./:@%+,=~^-]+)*")
# a `for` over more words than this is walked once with its variable unknown (its body is not multiplied)
_FOR_VALUES = 8
_GLOB_CHARS = re.compile(r"[*?\[]")
_RESERVED = frozenset({"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case",
                       "esac", "function", "select", "time", "!", "{", "}", "[[", "]]", "in", "coproc",
                       # declarations: their NAME=value words are assignments, which only the parse sees
                       "export", "declare", "local", "readonly", "typeset", "unset"})
# a plain word (`_SIMPLE`, globs too), or a whole word quoted with nothing the shell reads inside the quotes:
# single quotes hold anything but `'`; double quotes anything but `"`, `$`, a backtick, a backslash or `!`
_PLAIN_TOKEN = r"[A-Za-z0-9_./:@%+,=~^*-]+|'[^']*'|\"[^\"$`\\\\!]*\""
_PLAIN_OP = r" \| | && | \|\| |; "
# a redirect to a plain word at a command's end (`2>&1`, `> out.txt`, `&>/dev/null`, `< in`)
_PLAIN_REDIRECT = r" (?:[0-9]?(?P<rop>>>|>&|>|<)|(?P<amp>&>>|&>)) ?(?P<target>[A-Za-z0-9_./:@%+,=~^*-]+)"
_PLAIN_WORDS = rf"(?:{_PLAIN_TOKEN})(?: (?:{_PLAIN_TOKEN}))*"
_PLAIN_COMMAND = rf"{_PLAIN_WORDS}(?:{re.sub(r'[?]P<[a-z]+>', '?:', _PLAIN_REDIRECT)})*"
_PLAIN_LINE = re.compile(rf"{_PLAIN_COMMAND}(?:(?:{_PLAIN_OP}){_PLAIN_COMMAND})*")
_PLAIN_SCAN = re.compile(rf"(?P<op>{_PLAIN_OP})|(?P<redirect>{_PLAIN_REDIRECT})|(?P<word>{_PLAIN_TOKEN})")
# a command's words (quotes taken off), its text and its redirects (operator, folded target)
PlainStage = tuple[list[str], str, tuple[tuple[str, str], ...]]


def _plain_line(text: str) -> list[list[PlainStage]] | None:
    """`text` as pipelines of stages, when it is plain words and whole quoted words (`_PLAIN_TOKEN`) joined by
    ` | `, ` && `, ` || ` or `; `, no command starts with an assignment or a reserved word, only the first
    command of a statement (after `;`) ends in redirects (`_PLAIN_REDIRECT`) and no pipeline of three or more
    stages is followed by `&&` or `||`: parsed, such a line is nothing but those commands. None for any other
    text (its parse is walked). (tree-sitter-bash puts a redirect at the end of a later command around the
    whole list before it, and nests `a | b | c && d` as `a | (b | c && d)`: the walk of that parse judges those.)"""
    if not text.isascii() or len(text) > _CLOSE_FROM or "$IFS" in text or not _PLAIN_LINE.fullmatch(text):
        return None
    line: list[list[PlainStage]] = [[]]
    argv: list[str] = []
    redirects: list[tuple[str, str]] = []
    begin = end = 0
    first = True  # the command being read is the first of its statement
    for m in _PLAIN_SCAN.finditer(text):
        word = m.group("word")
        if word is not None:
            if not argv:
                if "=" in word or word in _RESERVED:
                    return None
                begin = m.start()
            argv.append(word[1:-1] if word[0] in "'\"" else word)
            end = m.end()
            continue
        if m.group("redirect") is not None:
            if not first:
                return None
            redirects.append((m.group("rop") or m.group("amp"), m.group("target").lower()))
            continue
        line[-1].append((argv, text[begin:end], tuple(redirects)))
        argv, redirects = [], []
        op = m.group("op")
        first = op == "; "
        if op != " | ":  # ` | ` continues the pipeline, the others start the next one
            if op != "; " and len(line[-1]) > 2:
                return None
            line.append([])
    line[-1].append((argv, text[begin:end], tuple(redirects)))
    return line


_PLAIN_WORDS_LINE = re.compile(_PLAIN_WORDS)
_PLAIN_WORD = re.compile(_PLAIN_TOKEN)


def _plain_words(text: str) -> list[str] | None:
    """`text` as one command's words, quotes taken off, when it is nothing but plain words and whole quoted words
    (`_PLAIN_TOKEN`) and does not start with an assignment or a reserved word: the one command `_plain_line` reads
    in it. None for any other text."""
    if not text.isascii() or len(text) > _CLOSE_FROM or "$IFS" in text or not _PLAIN_WORDS_LINE.fullmatch(text):
        return None
    tokens = _PLAIN_WORD.findall(text)
    if "=" in tokens[0] or tokens[0] in _RESERVED:
        return None
    return [w[1:-1] if w[0] in "'\"" else w for w in tokens]


# a shell prompt copied in front of a command from a page or a transcript (`$ `, `> `, `% `, `PS C:\src> `,
# `C:\Users\me>`): the line is judged as the command after it when that names a program the table knows
# (`> out.txt` alone empties a file, and stays what it is)
_PROMPT = re.compile(r"\s*(?:(?:PS(?: [^>\n]{0,160})?>|[A-Za-z]:\\[^>\n]{0,160}>)\s*|[$>%]\s+)(?=[A-Za-z.~/\\])")


@functools.lru_cache(maxsize=8192)
def _analyse_text(command: str, cwd: str | None) -> ShellAnalysis:
    if command[:1] in _PROMPT_FIRST or command[1:3] == ":\\":
        m = _PROMPT.match(command)
        if m is not None:
            rest = command[m.end():]
            first = _basename(rest.split(None, 1)[0]) if rest.strip() else ""
            if program_effects(first) is not None:
                return _analysis(rest, cwd)
    return _analysis(command, cwd)


_PROMPT_FIRST = frozenset("$>%P \t")
_QUOTED_PROGRAM = re.compile(r"""\s{0,8}(["'])[^"'\n]{1,260}?\.(?:exe|com|bat|cmd|ps1)\1\s""", re.IGNORECASE)
_BRACED_ENV = re.compile(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}", re.IGNORECASE)


def _analysis(command: str, cwd: str | None, plain: bool = True) -> ShellAnalysis:
    """The analysis `analyse` caches. `plain=False`: a plain line (`_plain_line`), the whole command or one
    it runs, is parsed and walked too, as any other (the tests compare the two)."""
    cleaned = command if command.isascii() else _clean(command)  # (_clean's own first test, without the call)
    if "${" in cleaned and _BRACED_ENV.search(cleaned):
        cleaned = _BRACED_ENV.sub(r"$env:\1", cleaned)  # PowerShell's `${env:TEMP}` is `$env:TEMP`
    start_cwd = resolve_path(cwd) if cwd else None
    words = cleaned.split(" ")
    simple = cleaned.isascii() and _SIMPLE.fullmatch(cleaned) and "=" not in words[0] and words[0] not in _RESERVED
    if simple:
        # (ASCII: each word's `fold` is its lower case, so the words of the lowered text are their folds; and
        # no backslash: the basename of the first is what follows its last `/`, as `_basename` reads it)
        folded = cleaned.lower().split(" ")
        name = folded[0].rsplit("/", 1)[-1]
        if name.endswith((".exe", ".com", ".bat", ".cmd")) or name in _SAME_PROGRAM:
            name = _basename(words[0])
            if name in _ALIAS_TARGETS:  # a second name: its words read as the program's
                words = [_program_word(words[0], name), *words[1:]]
                folded = [words[0].lower(), *folded[1:]]
        if name in cli_globals.PROGRAMS and len(words) > 2 and words[1][:1] == "-":
            words = cli_globals.hoist(name, words, frozenset())[0]
            folded = [w.lower() for w in words]
        if name not in _UNWRAPS_BEYOND_FLAGS and not (name.startswith("python3.") and _PYTHON_N.fullmatch(name)) \
                and (name not in EMBEDDING or not embedded_scripts(name, words)):
            # one plain command that runs nothing else: the one Command the walker would record, and
            # nothing else (a `cd` alone changes no later command's directory)
            return ShellAnalysis(source=command, commands=(Command(
                argv=tuple(words), words=tuple(folded), name=name, span=cleaned, cwd=start_cwd),),
                features=frozenset(), cwd=start_cwd)
    elif plain and (argv := _plain_words(cleaned)) is not None and winshell.dialect(cleaned) is None:
        # one command of plain and whole quoted words (`git commit -m "a message"`): the one Command that
        # `_plain_line` and the walk of it record, without them, for a program that runs nothing else (as above)
        name = _basename(argv[0])
        if name in _ALIAS_TARGETS:
            argv = [_program_word(argv[0], name), *argv[1:]]
        if name in cli_globals.PROGRAMS:
            argv = cli_globals.hoist(name, argv, frozenset())[0]
        if name not in _UNWRAPS_BEYOND_FLAGS and not (name.startswith("python3.") and _PYTHON_N.fullmatch(name)) \
                and (name not in EMBEDDING or not embedded_scripts(name, argv)):
            return ShellAnalysis(source=command, commands=(Command(
                argv=tuple(argv), words=tuple(map(fold, argv)), name=name, span=cleaned, cwd=start_cwd),),
                features=frozenset(), cwd=start_cwd)
    st = _State()
    prepared = _prepare(cleaned)
    walker = _Walker(st, prepared.encode("utf-8", "surrogatepass"), 0, (), start_cwd, {})
    walker.plain = plain
    if simple:
        # plain words only: what tree-sitter would give us, without the parse (the common case)
        walker.emit(list(words), frozenset(), cleaned, (), (), None)
    elif (win := winshell.dialect(cleaned)) is not None:
        # a cmd.exe or PowerShell line (backslash paths, %VAR%, cmdlets): gate/winshell.py reads it
        if win == "ps" and _QUOTED_PROGRAM.match(cleaned):
            # a quoted program path first, as process lists and cmd.exe write it ("C:\...\powershell.exe" -c x):
            # what runs is that program, which PowerShell itself only does after `&`
            cleaned = "& " + cleaned
        if winshell.walk(walker, cleaned, win):
            st.features.add("unparsable")
    elif plain and (line := _plain_line(cleaned)) is not None:
        walker.plain_line(line)  # plain commands in pipes and chains: the walk of their parse, without it
    else:
        pieces, altered = _pieces(prepared)
        if altered:
            st.features.add("unparsable")  # left open at its end: bash would refuse it as written
        try:
            for piece in pieces:  # one walker: a `cd` or a variable in one piece holds in the next
                walker.src, tree = parse_piece(piece)
                if tree.root_node.has_error:
                    st.features.add("unparsable")
                walker.walk_tree(tree.root_node)
        except RecursionError:
            # nested deeper than the walk can follow: what was read so far is judged, and the string asks
            # as one the gate could not analyse (never an internal error that skips the person)
            st.features.update(("unparsable", "too-deep"))
            st.notes.append(("too-deep", cleaned[:200]))
        if "unparsable" in st.features and _looks_powershell(cleaned):
            # PowerShell typed as a command line (`IEX (New-Object Net.WebClient)...`): bash cannot parse it,
            # so read it as PowerShell code too, for what it fetches and runs
            walker.code(cleaned, "powershell", cleaned[:200], frozenset())
    if any(c.name in _LIST_READERS and (c.upstream or c.redirects or len(c.argv) > 2) for c in st.commands) and \
            ("|" in cleaned or "<" in cleaned or "-T" in cleaned or "from" in cleaned):
        _read_fed_lists(st.commands)
    return ShellAnalysis(
        source=command, commands=tuple(st.commands), features=frozenset(st.features),
        notes=tuple(dict.fromkeys(st.notes)) if st.notes else (), assignments=tuple(st.assignments),
        fork_bombs=tuple(st.fork_bombs), cwd=start_cwd)


# archivers that read the names of the files to take from standard input: `find ~/.ssh | cpio -o`,
# `echo f | zip -@ x.zip`, `ls | tar -czf x.tgz -T -`, `rsync --files-from=- . host:`
_LIST_READERS = frozenset({"cpio", "zip", "tar", "gtar", "bsdtar", "rsync"})
_NAMERS = frozenset({"echo", "printf", "find", "ls", "fd", "fdfind", "locate"})


def _named(cmd: Command) -> list[str]:
    """The paths a name-printing command writes: echo's and printf's words, find's, ls's and fd's starting places."""
    out: list[str] = []
    for j, w in enumerate(cmd.argv[1:], 1):
        if j in cmd.dynamic or w.startswith("-") or (cmd.name == "printf" and j == 1 and "%" in w):
            continue
        if cmd.name == "find" and w[:1] in ("(", "!"):
            break  # find's expression starts: the places were before it
        if "/" in w or w.startswith(("~", ".")):
            out.append(w)
    return out


def _read_fed_lists(commands: list[Command]) -> None:
    """An archiver fed a list of names takes those files: they become its operands (as if written after it), so
    what it gathers is judged (`echo ~/.ssh/id_rsa | cpio -o` takes the key). The names are the literal ones a
    name-printing command upstream writes: echo's and printf's words, find's, ls's and fd's starting places."""
    listed: dict[str, list[str]] = {}  # a file of names written earlier on the line (`echo f > l; cpio -o < l`)
    for k, cmd in enumerate(commands):
        if cmd.name in ("echo", "printf") and cmd.redirects:
            for op, target in cmd.redirects:
                if op in (">", ">>"):
                    listed.setdefault(target, []).extend(_named(cmd))
        if cmd.name not in _LIST_READERS:
            continue
        words = cmd.argv[1:]
        if cmd.name == "cpio":
            fed = stdin = any((w[:1] == "-" and w[1:2] != "-" and ("o" in w or "p" in w)) or
                              w in ("--create", "--pass-through") for w in words)
        elif cmd.name == "zip":
            fed = stdin = "-@" in words or "--names-stdin" in words
        else:  # tar -T LIST / --files-from=LIST, rsync --files-from=LIST (`-` or /dev/stdin: standard input)
            fed = "-T" in words or any(w.startswith(("--files-from", "-T-", "-T/dev/stdin")) for w in words)
            stdin = fed and ("-" in words or any(w.endswith(("=-", "/dev/stdin")) or w == "-T-" for w in words))
        if not fed:
            continue
        names = [w for i in cmd.upstream if commands[i].name in _NAMERS for w in _named(commands[i])] if stdin else []
        # the list read from a file: `< list`, tar's `-T list` / `--files-from=list`
        sources = [t for op, t in cmd.redirects if op == "<"]
        sources += [words[j + 1] for j, w in enumerate(words[:-1]) if w == "-T"]
        sources += [w.split("=", 1)[1] for w in words if w.startswith("--files-from=")]
        names += [n for src in sources for n in listed.get(src, ())]
        if names:
            names = names[:64]
            # after the options (cpio's `-o` would read as an output flag with a value): first for cpio
            at = 1 if cmd.name == "cpio" else len(cmd.argv)
            argv = (*cmd.argv[:at], *names, *cmd.argv[at:])
            dynamic = frozenset(i + len(names) if i >= at else i for i in cmd.dynamic)
            commands[k] = msgspec.structs.replace(cmd, argv=argv, words=tuple(map(fold, argv)), dynamic=dynamic)


def analyse(command: str | list[str] | tuple[str, ...], cwd: str | None = None) -> ShellAnalysis:
    """Analyse a shell command string, or an argv list (analysed as the equivalent quoted string)."""
    if not isinstance(command, str):
        command = shlex.join(command)
    return _analyse_text(command, cwd)


# programs that run a file named on their command line as shell code
_RUNS_FILE_ARG = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "source", "."})
_BACKTICKS = re.compile(r"`((?:[^`\\]|\\.)+)`")


def _substitutions(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    """Every command and process substitution in a tree, in source order (outer before inner)."""
    out: list[tree_sitter.Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("command_substitution", "process_substitution"):
            out.append(node)
        stack.extend(reversed(node.named_children))
    return out


def _pipeline_stages(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The stages of a pipeline node, nested pipelines flattened (the parse nests the rest of a here-doc's
    line as `(pipeline | (pipeline a | b))`)."""
    if node.type != "pipeline":
        return [node]
    out: list = []
    for child in node.children:
        if child.is_named and child.type != "comment":
            out.extend(_pipeline_stages(child))
    return out


def shell_facts(ctx: Context) -> ShellAnalysis | None:
    """The analysis of a shell action's command with its environment (`with_env`), None for any other action. Use
    `ctx.derived`."""
    analysis = ctx.derived(command_alone)
    env = ctx.action.env if analysis is not None else None  # type: ignore[attr-defined]
    if env:
        return with_env(analysis, tuple((str(k), str(v)) for k, v in env.items()), ctx.action.cwd)  # type: ignore
    return analysis


def command_alone(ctx: Context) -> ShellAnalysis | None:
    """The analysis of a shell action's command as written, without its environment: what a policy's allow rule
    matches its command glob against (the rule names the environment it allows separately)."""
    if ctx.type != "shell":  # (the action's type, read once by the context)
        return None
    action = ctx.action
    command = action.command  # type: ignore[attr-defined]
    # (a command string goes straight to the cached analysis; an argv list is quoted first, by `analyse`)
    return _analyse_text(command, action.cwd) if command is not None else \
        analyse(action.argv, action.cwd)  # type: ignore[attr-defined,arg-type]


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def with_env(analysis: ShellAnalysis, env: tuple[tuple[str, str], ...], cwd: str | None = None, *,
             expand: bool = False) -> ShellAnalysis:
    """The analysis of a command run with the variables `env` set: the command read after `export NAME=value` of
    each, so a word that names one is read as its value (`cat $KEY` with KEY set to a private key's path reads that
    key; `rm -rf $D` with D set to the home deletes it) and the rules about what a variable does (`LD_PRELOAD`,
    `PATH`) see it as set for the command. A PowerShell command has them put in front as `$env:NAME = 'value'`. A
    name no shell can spell is put in front of the analysis's assignments only. `expand`: the values are a shell
    line's own words (a terminal's earlier `K=$HOME/x`), read with the variables they name; a process
    environment's values are literal."""
    names = [(k, v) for k, v in env if _ENV_NAME.fullmatch(k)]
    odd = tuple((fold(k), v) for k, v in env if not _ENV_NAME.fullmatch(k))
    if names:
        powershell = winshell.dialect(analysis.source) is not None
        analysis = _analyse_text(env_prefix(names, expand=expand, powershell=powershell) + analysis.source, cwd)
    return _with_env(analysis, odd) if odd else analysis


def env_prefix(env: tuple[tuple[str, str], ...] | list[tuple[str, str]], *, expand: bool = False,
               powershell: bool = False) -> str:
    """The statements that set `env` in front of a command line: `export NAME=value; ` (`expand`: a value that
    names variables is read with them, as a terminal's own earlier line set it), or PowerShell's
    `$env:NAME = 'value'; `."""
    if powershell:  # (PowerShell reads them as `$env:NAME`)
        return "".join("$env:{} = '{}'; ".format(k, v.replace("'", "''")) for k, v in env)
    return "".join(f"export {k}={_expanding(v) if expand else shlex.quote(v)}; " for k, v in env)


@functools.lru_cache(maxsize=1024)
def _with_env(analysis: ShellAnalysis, env: tuple[tuple[str, str], ...]) -> ShellAnalysis:
    """The analysis with the action's environment in front of its own assignments: the variables are set
    before the command starts, so they are judged like `NAME=value cmd` (one object per pair, so the
    detector's per-analysis cache still holds)."""
    return msgspec.structs.replace(analysis, assignments=env + analysis.assignments)


# a web browser by its app name: its window title is the title of the page it shows
BROWSER_APP = re.compile(r"\b(?:firefox|chrome|chromium|brave|edge|msedge|safari|opera|vivaldi|epiphany|librewolf|"
                         r"waterfox|tor browser|web browser|browser)\b")
BROWSER_APP = Guarded(BROWSER_APP)


def is_terminal(compiled: CompiledPolicy, app: str, window_title: str) -> bool:
    """The app or window title is a terminal (`shell.terminal_windows`): typed text runs as a command. A browser's
    title is its page's: it names a terminal when it starts with one ("Terminal 2 - JupyterLab", "bob@web: ~"),
    not when a page speaks of one ("Colored output in a Python terminal - Forum")."""
    pattern = compiled.terminal
    if pattern is None:
        return False
    app = normalise(app)
    if pattern.search(app):
        return True
    title = normalise(window_title)
    return bool(pattern.match(title) if BROWSER_APP.search(app) else pattern.search(title))


def _fresh_line(line: TypedLine | None) -> bool:
    """Nothing, as far as deskgate knows, was typed on the line before: a console's word typed there is the
    whole command (`sessions` after `rm -rf ~ ` is a shell line)."""
    return line is None or (line.known and not line.text.strip() and not line.raw.strip())


def command_facts(ctx: Context) -> ShellAnalysis | None:
    """Like `shell_facts`, and also text typed into a terminal window (it is a shell command there)."""
    if ctx.type == "shell":
        return ctx.derived(shell_facts)
    if ctx.type == "type":
        obs = ctx.observation
        target = ctx.action.target
        labels = (target.label or "",) if target else ()
        console = hosts_console(obs.window_title, labels)
        if is_terminal(ctx.compiled, obs.app, obs.window_title) and \
                not (console and _fresh_line(obs.line) and console_verb(ctx.action.text)) and \
                not (not console and tui.program_input(obs.app, obs.window_title, _target_labels(target))):  # type: ignore[attr-defined]
            # the whole lines it ends (the line so far included) and the line it leaves: gate/lines.py
            cwd = line_cwd(obs.window_title, obs.line)
            analysis = analyse(judged_text(obs.line, ctx.action.text), cwd)  # type: ignore[attr-defined]
            if obs.line is not None and obs.line.env and "$" in analysis.source:
                # (variables earlier lines of this terminal set: the shell still holds them)
                return with_env(analysis, obs.line.env, cwd, expand=True)
            return analysis
    return None


# a terminal's title as shells set it by default (bash's and zsh's `user@host: dir`), with the emulator's name after
_TITLE_CWD = re.compile(r"^[\w.-]{1,64}@[\w.-]{1,253}:\s?(~[^\s:]*|/[^\s:]*)(?:\s+[-–—|]\s+[^/~]{1,60})?$")


def terminal_cwd(title: str) -> str | None:
    """The working directory a terminal's title names (`sam@box: ~/src/app`), where a typed line runs: `rm -rf *`
    there deletes what that directory holds. None when the title names none."""
    m = _TITLE_CWD.match(title.strip()[:512]) if "@" in title else None
    return m.group(1) if m is not None else None


def _expanding(value: str) -> str:
    """`value` double-quoted when it names variables or holds a substitution (as gate/lines.py `carried_env` keeps
    it: read again, the substitution is judged with the line that uses it), else quoted as a literal."""
    if "$" in value and "`" not in value:
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return shlex.quote(value)


def line_cwd(title: str, line: TypedLine | None) -> str | None:
    """Where a terminal's line runs: the directory its title names, else the one its earlier `cd` lines moved to
    (gate/lines.py `carried_cwd`), else None."""
    return terminal_cwd(title) or (line.cwd if line is not None else None)


def _target_labels(target: Target | None) -> tuple[str, ...]:
    """The target's role, label and name, normalised (a program's prompt is known by them: gate/tui.py)."""
    if target is None:
        return ()
    return tuple(n for p in (target.role, target.label, target.name) if p for line in p.split("\n")
                 if (n := normalise(line)))


def command_text(ctx: Context) -> str:
    """The command line an action runs: a shell action's command, or the line(s) text typed into a terminal
    makes (`command_facts`); "" for anything else. For the rules that read the line as text."""
    if ctx.type == "shell":
        return getattr(ctx.action, "command", "") or ""
    facts = ctx.derived(command_facts) if ctx.type == "type" else None
    return facts.source if facts is not None else ""


def alternation(patterns: list[str]) -> re.Pattern[str] | None:
    """One regex for a list of patterns (None for an empty list); built once per policy."""
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{p})" for p in patterns))

