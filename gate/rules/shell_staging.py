"""Shell findings about payloads staged to run: a program started from where droppers put it, and a file given
a command line that blocks.

- A program run from a world-writable temporary folder (/tmp, /var/tmp, /dev/shm) that also hides: a hidden
  folder or name on its path (`/dev/shm/.x`), a name borrowed from a kernel thread or a system daemon
  (`kworker`, `sshd`), or started detached with its output thrown away (`nohup ... >/dev/null 2>&1 &`).
  No build or install runs that way; a dropper does (`block.shell.defense-evasion`). A plain `/tmp/tool`
  stays an unknown program (asked).
- A command line written into a file that runs (a shell script, a system file): `echo 'bash -i >&
  /dev/tcp/...' >> /etc/backup.sh`. What is written is judged as the command it is, and a line that blocks
  on its own blocks when it is put where it will run. A README or notes file may hold any command line.
- An archive unpacked over the home folder itself or a system folder (`tar -C ~ -xf x.tar`, `unzip -o x.zip
  -d ~`): whatever names it holds land there, `.bashrc` and `.ssh/authorized_keys` included. It asks; into a
  project or a new folder it passes.

Called once per simple command from `Detector._run` (gate/rules/shell.py), after the checks by effect.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.model import Risk
from gate.shell import HOME, Command, Finding, ShellAnalysis, analyse, resolve_path

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["judge"]

Add = Callable[[Finding], None]

_STAGING = re.compile(r"^(?:/private)?(?:/tmp|/var/tmp|/dev/shm|/run/shm)(?:/|$)")
_HIDDEN_PART = re.compile(r"/\.[^/.][^/]*/|/\.[^/.][^/]*$")
# names of kernel threads and system daemons a payload takes to pass in a process list
_SYSTEM_NAMES = re.compile(r"^\[?(?:kworker|kthreadd|ksoftirqd|kswapd\d*|migration|rcu_\w+|watchdog|"
                           r"systemd(?:-\w+)?|sshd|crond?|dbus-daemon|rsyslogd|udevd|init|agetty|polkitd|"
                           r"networkmanager|accounts-daemon|gvfsd|pulseaudio|pipewire|snapd|containerd|dockerd)"
                           r"(?:[/:\]\d-]|$)", re.IGNORECASE)
_DETACHERS = frozenset({"nohup", "setsid", "disown", "daemonize", "start-stop-daemon"})
_DISCARDED = frozenset({"/dev/null"})
# files that run what they hold: scripts by their extension, and system folders programs are run from
_SCRIPT_FILE = re.compile(r"\.(?:sh|bash|zsh|ksh|command|ps1|psm1|bat|cmd|vbs)$|^/etc/|^/usr/(?:local/)?s?bin/|"
                          r"^/opt/|^/usr/lib/|^/var/spool/|^/bin/|^/sbin/")
_WRITE_OPS = (">", ">>", ">|", "&>", "&>>")
_MAX_WRITTEN = 4000  # characters of a written line judged as a command


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    argv0 = cmd.argv[0] if cmd.argv else ""
    if "/" in argv0:
        _staged_run(cmd, analysis, argv0, where, add)
    if cmd.redirects or cmd.name == "tee":
        _command_written(d, cmd, analysis, where, add)
    if cmd.name in _EXTRACTORS:
        _extracted_over(cmd, where, add)


_EXTRACTORS = frozenset({"tar", "gtar", "bsdtar", "unzip", "7z", "7za", "unrar", "ditto", "cpio"})
_SYSTEM_ROOTS = frozenset({"/", "/etc", "/usr", "/usr/local", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/root",
                           "/opt", "/var", "/usr/bin", "/usr/lib", "/usr/local/bin", "/system", "/library"})


def _extract_dir(cmd: Command) -> str | None:
    """Where an unpacking command puts what the archive holds ("" for its working folder; None: it does
    not unpack)."""
    argv, words = cmd.argv, cmd.words
    if cmd.name in ("tar", "gtar", "bsdtar"):
        first = words[1] if len(words) > 1 else ""
        if not (any(w in ("-x", "--extract", "--get") for w in words[1:]) or
                (first[:1] != "-" and "x" in first) or any(w[:1] == "-" and w[1:2] != "-" and "x" in w
                                                           for w in words[1:])):
            return None
        for k, a in enumerate(argv[1:-1], 1):
            if a in ("-C", "--directory"):
                return argv[k + 1]
        return next((a.split("=", 1)[1] for a in argv if a.startswith("--directory=")), "")
    if cmd.name == "unzip":
        return next((argv[k + 1] for k, a in enumerate(argv[1:-1], 1) if a == "-d"), "")
    if cmd.name in ("7z", "7za"):
        if len(words) < 2 or words[1] not in ("x", "e"):
            return None
        return next((a[2:] for a in argv if a.startswith("-o")), "")
    if cmd.name == "ditto" and ("-x" in words or "-xk" in words) and len(argv) >= 3:
        return argv[-1]
    return None


def _extracted_over(cmd: Command, where: str, add: Add) -> None:
    dest = _extract_dir(cmd)
    if dest is None:
        return
    path = resolve_path(dest, cmd.cwd) if dest else cmd.cwd
    if not path:
        return  # the working folder, not known: a project's, most likely
    path = path.rstrip("/") or "/"
    if path == HOME:
        add(Finding("confirm.shell.persistence", Risk.HIGH,
                    f"{cmd.name} unpacks an archive over the home folder: any file in it lands there, start-up files "
                    f"and ~/.ssh included{where}", cmd.span))
    elif path in _SYSTEM_ROOTS:
        add(Finding("confirm.shell.system-write", Risk.HIGH,
                    f"{cmd.name} unpacks an archive over the system folder {path}{where}", cmd.span))


def _staged_run(cmd: Command, analysis: ShellAnalysis, argv0: str, where: str, add: Add) -> None:
    path = resolve_path(argv0, cmd.cwd)
    if path is None or not _STAGING.match(path):
        return
    name = path.rsplit("/", 1)[-1]
    detached = any(v.split()[0] in _DETACHERS for v in cmd.via if v) or (
        "background" in analysis.features and any(t in _DISCARDED for op, t in cmd.redirects if op in _WRITE_OPS))
    why = ("from a hidden folder or under a hidden name" if _HIDDEN_PART.search(path) else
           f"under the name of a system process ({name})" if _SYSTEM_NAMES.match(name) else
           "detached, its output thrown away" if detached else "")
    if why:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"runs {path} from a temporary folder {why}: how a dropped payload is started{where}", cmd.span))


def _literal(cmd: Command) -> str | None:
    """The text a command writes when it only passes literal text on (echo/printf words, `cat` of a here-doc)."""
    if cmd.dynamic:
        return None
    if cmd.name in ("echo", "printf"):
        return " ".join(a for a in cmd.argv[1:] if not (a.startswith("-") and len(a) <= 3))
    if cmd.name in ("cat", "tee") and cmd.stdin_text and all(a.startswith("-") for a in cmd.argv[1:]):
        return cmd.stdin_text
    return None


def _command_written(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A literal command line (echo/printf words, a here-doc) written into a file that runs it."""
    text = _literal(cmd) if cmd.name != "tee" or cmd.stdin_text else None
    if text is None and cmd.name == "tee" and cmd.upstream:  # `cat <<EOF | sudo tee /usr/local/bin/x`
        text = _literal(analysis.commands[cmd.upstream[-1]])
    if text is None:
        return
    if not text.strip() or len(text) > _MAX_WRITTEN:
        return
    targets = [t for op, t in cmd.redirects if op in _WRITE_OPS]
    if cmd.name == "tee":
        targets += [a for a in cmd.argv[1:] if not a.startswith("-")]
    ran = [p for t in targets if _SCRIPT_FILE.search(p := resolve_path(t, cmd.cwd) or t)]
    if not ran:
        return
    if d.depth >= 2:
        return  # a line that writes a line that writes ...: judged two levels deep
    d.depth += 1
    try:
        found = d.run(analyse(text.replace("\\n", "\n")))
    finally:
        d.depth -= 1
    blocking = next((f for f in found if f.rule.startswith("block.")), None)
    if blocking is not None:
        add(Finding(blocking.rule, Risk.CRITICAL,
                    f"writes a command into {ran[0]}, which runs it: {blocking.reason}{where}", cmd.span))
