"""Shell checks: defences switched off, network configuration, history and logs wiped, living-off-the-land binaries.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.model import Risk
from gate.nochange import system_script_use
from gate.rules.shell_vocab import (
    _REMOTE_REF,
)
from gate.shell import (
    DOWNLOADERS,
    Command,
    Finding,
    ShellAnalysis,
    analyse,
)

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["OPTION_RUNNERS", "EvasionChecks", "logs_wiped_by_search", "option_commands", "quarantine_staged"]


# the project's own solution or project file, named by a path inside the project (`src/App/App.csproj`,
# `src\App\App.csproj`), or switches alone (`/p:...`, `/t:Build`, `/help`, `/?`)
_MSBUILD_PROJECT = re.compile(r"(^|\s)(?![/~\\]|[a-z]:)(?!\S*\.\.)\S*\.(sln|csproj|vbproj|fsproj|vcxproj|proj|slnf)"
                              r"(\s|$)|"
                              r"^([/-](p|property|t|target|m|maxcpucount|v|verbosity|restore|r|nologo|help|h|\?|"
                              r"detailedsummary|ds|bl|binarylogger|noconsolelogger|noconlog)(:\S*)?(\s+|$))*$")
_MSBUILD_ODD = re.compile(r"\\users\\public\\|%te?mp%|\$env:te?mp|\\appdata\\|\\programdata\\|\.(xml|txt|csv|log)\b")
_HELP_FLAGS = frozenset({"/?", "-?", "/h", "-h", "/help", "--help", "-help"})
# signed programs that run the script or library they are handed
_SIGNED_PROXIES = frozenset({"mshta", "rundll32", "regsvr32"})
# where dropped files wait: every user's public folder, the temporary folders
_WIN_STAGED = re.compile(r"\\users\\public\\|%te?mp%|\$env:te?mp\b|\\appdata\\local\\temp\\|\\windows\\temp\\")
_WIN_SHARED_DATA = re.compile(r"\\programdata\\|\\appdata\\roaming\\")
_RX_LOLBIN = re.compile(r"https?://|\b(vbscript|javascript|script):|scrobj")
_RX_LOLBIN_2 = re.compile(r"(^| )[/-](i|package|j[mu]?|fa|update)( |$)")
_RX_LOLBIN_3 = re.compile(r"https?://|\\\\")
_RX_LOLBIN_4 = re.compile(r"https?://|/q")
_RX_LOLBIN_5 = re.compile(r"-(urlcache|verifyctl|decode|decodehex|encode|addstore)")


class EvasionChecks:
    """Defences switched off, network configuration, history and logs wiped, living-off-the-land binaries."""

    def firewall(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        name = cmd.name
        if name == "ufw":
            words = [w for w in words if not w.startswith("-")]
            if words[:1] == ["disable"] or words[:1] == ["reset"]:
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"ufw {words[0]}: switches the firewall "
                            f"off{where}", cmd.span))
            elif words[:1] and words[0] in ("allow", "deny", "reject", "delete", "default", "limit", "insert"):
                add(Finding("confirm.shell.network", Risk.MEDIUM, f"ufw {words[0]}: changes firewall rules{where}",
                            cmd.span))
            return
        if name == "setenforce" and words[:1] and words[0] in ("0", "permissive"):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"setenforce {words[0]}: switches SELinux "
                        f"enforcement off{where}", cmd.span))
            return
        if name == "auditctl" and ("-d" in words or "-D" in cmd.argv or ("-e" in words and "0" in words)):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"auditctl {' '.join(cmd.argv[1:3])}: switches "
                        f"auditing off{where}", cmd.span))
            return
        if name in ("spctl", "csrutil") and {"--master-disable", "disable", "--global-disable"} & set(words):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} disables a system protection{where}",
                        cmd.span))
            return
        if name == "netsh" and "advfirewall" in words and "off" in words:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"netsh turns the firewall off{where}", cmd.span))
            return
        if name == "set-mppreference" and any(
                w.startswith("-disable") and (w.partition(":")[2] or (words[k + 1] if k + 1 < len(words) else ""))
                .strip("'\" ") not in ("$false", "0", "false") for k, w in enumerate(words)):
            # (`-DisableRealtimeMonitoring $false` turns the protection back on)
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"disables Windows Defender protection{where}",
                        cmd.span))
            return
        if name in ("iptables", "ip6tables", "ebtables", "arptables", "iptables-legacy", "iptables-nft"):
            mut = [a for a in cmd.argv[1:] if a in ("-F", "-X", "-P", "-D", "-A", "-I", "-R", "-Z", "-N", "-E",
                                                     "--flush", "--delete-chain", "--policy", "--delete", "--append",
                                                     "--insert", "--replace", "--zero")]
            off = [a for a in mut if a in ("-F", "--flush", "-X", "--delete-chain")] or \
                (("-P" in mut or "--policy" in mut) and "accept" in cmd.words)
            if off:
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{name} {' '.join(cmd.argv[1:4])}: "
                            f"switches the firewall off{where}", cmd.span))
            elif mut:
                add(Finding("confirm.shell.network", Risk.HIGH if mut[0] in ("-F", "--flush", "-P", "--policy", "-X")
                            else Risk.MEDIUM, f"{name} {' '.join(cmd.argv[1:4])}: changes the firewall{where}",
                            cmd.span))
            return
        if name == "nft" and words[:2] == ["flush", "ruleset"]:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"nft flush ruleset: switches the firewall "
                        f"off{where}", cmd.span))
            return
        if name == "iptables-restore" or (name == "nft" and words[:1] and words[0] in ("flush", "delete", "add",
                                                                                     "insert", "replace", "-f")):
            add(Finding("confirm.shell.network", Risk.HIGH, f"{name} {' '.join(words[:2])}: changes the "
                        f"firewall{where}", cmd.span))
            return
        if name == "firewall-cmd" and any(w.startswith(("--add", "--remove", "--set", "--panic", "--reload",
                                                        "--complete-reload")) for w in words):
            add(Finding("confirm.shell.network", Risk.MEDIUM, f"firewall-cmd changes the firewall{where}", cmd.span))

    def ip(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = [w for w in cmd.words[1:] if not w.startswith("-")]
        name = cmd.name
        down = False
        if name == "ip" and words:
            obj, verb = words[0], words[1] if len(words) > 1 else ""
            down = (obj in ("link", "l") and (verb in ("del", "delete") or (verb == "set" and "down" in words))) or \
                (obj in ("addr", "address", "a", "route", "r", "rule", "neigh") and verb in ("del", "delete", "flush"))
        elif name == "ifconfig":
            down = "down" in words
        elif name in ("ifdown", "ifdown.exe"):
            down = True
        elif name == "nmcli":
            down = "off" in words or words[:2] in (["connection", "down"], ["con", "down"], ["c", "down"]) or \
                words[:2] in (["device", "disconnect"], ["dev", "disconnect"], ["d", "disconnect"]) or \
                "delete" in words[:2]
        elif name == "route":
            down = "del" in words or "delete" in words or "flush" in words
        elif name == "tc":
            down = words[:2] in (["qdisc", "add"], ["qdisc", "replace"], ["qdisc", "change"])
        elif name == "rfkill":
            down = "block" in words
        elif name == "netsh":
            down = "disable" in words or "disabled" in words
        if down:
            add(Finding("confirm.shell.network", Risk.HIGH, f"{name} {' '.join(cmd.argv[1:5])}: takes a network "
                        f"interface, address or route away{where}", cmd.span))

    def history(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if any(w in ("-c", "-d", "-w", "-r", "-cw") or w.startswith("-c") for w in words):
            add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"history {' '.join(words)}: clears or "
                        f"rewrites the shell history{where}", cmd.span))

    def unset(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if any(w in ("histfile", "histsize", "histfilesize") for w in cmd.words[1:]) or \
                (cmd.name == "set" and "+o" in cmd.words and "history" in cmd.words):
            add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"{cmd.text}: stops the shell history{where}",
                        cmd.span))

    def logs(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "journalctl" and any(w.startswith("--vacuum") for w in words) and _keeps_a_window(words):
            # a retention limit that keeps at least a day (or tens of megabytes) of the journal: old entries go,
            # what happened lately stays readable
            add(Finding("confirm.shell.system-state", Risk.MEDIUM, f"journalctl {' '.join(words[:2])}: deletes "
                        f"the journal's older entries{where}", cmd.span))
            return
        if (cmd.name == "journalctl" and any(w.startswith(("--vacuum", "--rotate")) for w in words) and \
                any(w.startswith("--vacuum") for w in words)) or (cmd.name == "wevtutil" and words[:1] and \
                words[0] in ("cl", "clear-log")) or cmd.name in ("clear-eventlog", "remove-eventlog", "limit-eventlog"):
            add(Finding("block.shell.anti-forensics", Risk.CRITICAL, f"{cmd.name} {' '.join(words[:2])}: erases "
                        f"system logs{where}", cmd.span))

    def lolbin(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        joined = " ".join(words)
        name = cmd.name
        if words and all(w in _HELP_FLAGS for w in words):
            return  # `regsvr32 /?`, `certutil -?`: prints its usage, runs nothing
        if name in ("mshta", "regsvr32", "rundll32", "cscript", "wscript", "msxsl") and \
                _RX_LOLBIN.search(joined):
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"{name} runs script code from a URL or inline script{where}", cmd.span))
            return
        if name == "msiexec" and _RX_LOLBIN_2.search(joined) and \
                _RX_LOLBIN_3.search(joined):
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"msiexec installs a package straight from the network: its setup code runs unseen{where}",
                        cmd.span))
            return
        if name in ("cscript", "wscript") and system_script_use(cmd) is not None:
            return  # Windows' own script in the system folder, in a mode that only reads (`slmgr.vbs /xpr`)
        if name == "findstr" or (name in ("expand", "replace", "extrac32", "makecab") and
                                 not _REMOTE_REF.search(joined)):
            return
        if name == "msiexec" and not _RX_LOLBIN_4.search(joined):
            return
        if name == "certutil" and not _RX_LOLBIN_5.search(joined):
            return
        if name == "wmic" and "call" not in words and "create" not in words and "delete" not in words:
            return
        if name == "msbuild" and _MSBUILD_PROJECT.search(joined) and not _MSBUILD_ODD.search(joined):
            return  # building the project's own solution or project file: a build, as `make` is
        staged = _WIN_STAGED.search(joined) or (name == "mshta" and _WIN_SHARED_DATA.search(joined))
        if name in _SIGNED_PROXIES and staged:
            # a signed Windows program made to run a script or library left in a temporary or public folder
            # (ATT&CK T1218.005/010/011): what runs is the dropped file, under Windows' name
            add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                        f"{name} runs a file from a temporary or public folder ({staged.group(0).strip(chr(92))})"
                        f"{where}", cmd.span))
            return
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"{name} used to download, decode or run code "
                    f"(a known living-off-the-land technique){where}", cmd.span))


_JOURNAL_KEEP = re.compile(r"^--vacuum-(?:time=(?P<n>\d+)\s*(?P<unit>d|days?|w|weeks?|months?|m|y|years?)|"
                           r"size=(?P<size>\d+)\s*(?P<sunit>[mgt])b?|files=(?P<files>\d+))$", re.I)


def _keeps_a_window(words: list[str]) -> bool:
    """Every `--vacuum-*` limit of a journalctl line keeps a day or more, 50 MB or more, or 3 files or more
    (`--vacuum-time=1s`, `--vacuum-size=1K`, `--rotate --vacuum-time=1s`: False; `--vacuum-time=7d`: True).
    A month is `month(s)`: systemd reads a bare `m` as minutes."""
    limits = [w for w in words if w.startswith("--vacuum")]
    for w in limits:
        m = _JOURNAL_KEEP.match(w)
        if m is None:
            return False
        if m.group("unit") is not None and (m.group("unit").lower() == "m" or int(m.group("n")) < 1):
            return False
        if m.group("size") is not None and m.group("sunit").lower() == "m" and int(m.group("size")) < 50:
            return False
        if m.group("files") is not None and int(m.group("files")) < 3:
            return False
    return bool(limits)


# where a dropped program waits on macOS: the temporary folders, the world-writable /Users/Shared, a hidden folder
_MAC_STAGED = re.compile(r"^(/tmp|/private/tmp|/var/tmp|/private/var/tmp|/users/shared)/|/\.[^/.][^/]*(/|$)")


def quarantine_staged(cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """xattr taking the quarantine mark off a file in a temporary, shared or hidden folder (`xattr -d
    com.apple.quarantine /Users/Shared/.helper`): Gatekeeper will never check the program dropped there (ATT&CK
    T1553.001; `block.shell.defense-evasion`). An app in Downloads or /Applications asks, as any quarantine
    removal does."""
    words = cmd.words[1:]
    if "com.apple.quarantine" not in words or not any(w.startswith("-") and ("d" in w or "c" in w) for w in words):
        return
    for w in words:
        if w.startswith("-") or w == "com.apple.quarantine":
            continue
        if _MAC_STAGED.search(w):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"xattr takes the quarantine mark off {w}, a file in a temporary, shared or hidden folder: "
                        f"Gatekeeper never checks it{where}", cmd.span))
            return


# -- options that make a program run a command -------------------------------------------------------------
# (program, option) whose value is a command line the program runs: git's transport helpers and pager, man's
# pager, tar's compressor, filter and checkpoint action, zip's test command, Mercurial's ssh and remote command,
# scp's and rsync's remote shell, aria2's hooks. `-O` of `git grep` opens the files found in that command.
_RUNS_VALUE: dict[str, frozenset[str]] = {
    "git": frozenset({"--upload-pack", "--receive-pack", "--exec", "--open-files-in-pager", "-O", "--extcmd", "-x",
                      "--config-env"}),
    "hg": frozenset({"-e", "--ssh", "--remotecmd"}),
    "man": frozenset({"-P", "--pager", "-H", "--html"}),
    "tar": frozenset({"--use-compress-program", "-I", "--to-command", "--rsh-command", "--rmt-command",
                      "--info-script", "--new-volume-script"}),
    "zip": frozenset({"-TT", "--unzip-command"}),
    "scp": frozenset({"-S"}), "sftp": frozenset({"-S"}),
    "rsync": frozenset({"-e", "--rsh", "--rsync-path"}),
    "mysql": frozenset({"--pager"}),
    "aria2c": frozenset({"--on-download-complete", "--on-download-error", "--on-download-start",
                         "--on-bt-download-complete"}),
}
_RUNS_VALUE["gtar"] = _RUNS_VALUE["tar"]
# git subcommands where `-x`, `-u` and `-O` are the command options (elsewhere they mean other things: `push -u`)
_GIT_X = frozenset({"rebase", "difftool"})
_GIT_U = frozenset({"clone", "ls-remote", "fetch-pack"})
_GIT_O = frozenset({"grep"})
# config keys whose value git, Mercurial or a pager runs as a command
_CONFIG_RUNS = re.compile(r"^(?:(?:core\.(?:pager|sshcommand|fsmonitor|editor|gitproxy|askpass)|diff\.external|"
                          r"diff\.[^.=]+\.(?:textconv|command)|pager\.[^=]+|sequence\.editor|"
                          r"gpg\.(?:program|[^.=]+\.program)|uploadpack\.packobjectshook|"
                          r"filter\.[^.=]+\.(?:clean|smudge|process)|merge\.[^.=]+\.driver|hooks\.[^=]+|"
                          r"ui\.(?:ssh|editor|merge)|extdiff\.[^=]+|merge-tools\.[^.=]+\.executable)=|"
                          r"(?:alias\.[^=]+|credential\.helper)=\s*!)", re.I)
# what these options name in everyday use: a pager, an editor, a compressor, ssh with its options, rsync itself
_PLAIN_VALUE = re.compile(
    r"^\s*(?:(?:/usr)?(?:/local)?/bin/)?(?:less|more|most|cat|bat|delta|diff-so-fancy|diff-highlight|ydiff|"
    r"vim?|nvim|nano|emacs(?:client)?|code|subl|micro|hx|kak|mate|"
    r"zstd|pzstd|pigz|unpigz|gzip|gunzip|bzip2|pbzip2|lbzip2|xz|pixz|lz4|lzip|plzip|lzop|brotli|"
    r"ssh|rsh|plink|rsync|sudo rsync|gpg2?|git-lfs|meld|kdiff3|vimdiff|opendiff|bcompare|"
    r"w3m|lynx|firefox|xdg-open)(?:\s+(?:-{1,2}[\w=.,:/-]+|[\w.@:/~-]+))*\s*$", re.I)
_SSH_KEY_WRITE = re.compile(r"\.ssh/|authorized[-_]keys", re.I)


def _option_commands(cmd: Command) -> list[tuple[str, str]]:
    """(command line, the option that carries it) for each option of `cmd` that makes it run a command."""
    name = cmd.name
    argv = list(cmd.argv)
    out: list[tuple[str, str]] = []
    flags = _RUNS_VALUE.get(name, frozenset())
    sub = next((a for a in argv[1:] if not a.startswith("-") and "=" not in a), "") if name == "git" else ""
    k = 1
    while k < len(argv):
        a = argv[k]
        nxt = argv[k + 1] if k + 1 < len(argv) else ""
        flag, eq, value = a.partition("=") if a.startswith("--") else (a, "", "")
        if name == "git" and flag in ("-x",) and sub not in _GIT_X:
            k += 1
            continue
        if name == "git" and flag == "-u" and sub in _GIT_U and nxt:
            out.append((nxt, "git clone -u"))
            k += 2
            continue
        if name == "git" and (flag == "-O" or (flag.startswith("-O") and len(flag) > 2)) and sub in _GIT_O:
            if len(flag) > 2:
                out.append((flag[2:], "git grep -O"))
            k += 1
            continue
        if name == "git" and flag == "--open-files-in-pager":
            if eq:
                out.append((value, "git grep --open-files-in-pager"))
            k += 1
            continue
        if name in ("git", "hg") and a in ("-c", "--config") and nxt and _CONFIG_RUNS.match(nxt):
            out.append((nxt.split("=", 1)[1].lstrip(" !"), f"{name} {a} {nxt.split('=', 1)[0]}"))
            k += 2
            continue
        if name == "hg" and flag == "--config" and eq and _CONFIG_RUNS.match(value):
            out.append((value.split("=", 1)[1].lstrip(" !"), f"hg --config {value.split('=', 1)[0]}"))
        elif flag in flags and flag != "-O":
            if eq:
                out.append((value, f"{name} {flag}"))
            elif nxt:
                out.append((nxt, f"{name} {flag}"))
                k += 1
        elif name in ("tar", "gtar") and a.startswith("--checkpoint-action=exec"):
            out.append((a.split("=", 2)[-1], "tar --checkpoint-action"))
        elif name == "git" and a.lower().startswith("ext::"):
            out.append((a[5:].replace("%%", "\0").replace("% ", " ").replace("%s", "").replace("\0", "%"),
                        "git's ext:: transport"))
        elif name == "less" and a[:2] in ("+!", "+|"):
            out.append((a[2:], "less +!"))
        k += 1
    return [(v.strip().strip("'\""), label) for v, label in out if v.strip().strip("'\"")]


def option_commands(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str,
                    add: Callable[[Finding], None]) -> None:
    """An option that makes a program run a command line (git's `--upload-pack`, `--receive-pack`, `-u` of clone,
    `--open-files-in-pager`/`-O` of grep, `-c core.pager=`/`core.sshCommand=`/`diff.external=`, the `ext::`
    transport; Mercurial's `--config alias.x=!...`; man's `-P`; tar's `--use-compress-program`, `--to-command`,
    `--checkpoint-action=exec=`, `--rsh-command`; zip's `--unzip-command`; scp's `-S`; rsync's `-e`; `less
    +!`): the program runs that line, so it asks, unless the line is what the option names in everyday use (a
    pager, an editor, a compressor, ssh with its options). The line is judged as the command it is: what blocks
    on its own blocks, and so does a line that downloads, or writes into an ssh folder or its authorized keys."""
    found = _option_commands(cmd)
    if not found:
        return
    for value, label in found:
        if _PLAIN_VALUE.match(value):
            continue
        blocking = None
        if d.depth < 2:
            d.depth += 1
            try:
                inner = analyse(value)
                inner_found = d.run(inner)
            finally:
                d.depth -= 1
            blocking = next((f.reason for f in inner_found if f.rule.startswith("block.")), None)
            if blocking is None and any(c.name in DOWNLOADERS for c in inner.commands):
                blocking = "it downloads from the network"
            if blocking is None and _SSH_KEY_WRITE.search(value) and (
                    any(op in (">", ">>") for c in inner.commands for op, _ in c.redirects) or
                    any(w in ("-O", "-o", "tee", "cp", "mv", "install") for c in inner.commands for w in c.argv)):
                blocking = "it writes into an ssh folder (a key that lets someone in)"
        if blocking:
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"{label} makes {cmd.name} run {value[:60]!r}: {blocking}{where}", cmd.span))
            return
        add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                    f"{label} makes {cmd.name} run {value[:60]!r}, a command line of its own{where}", cmd.span))
        return


OPTION_RUNNERS = frozenset({*_RUNS_VALUE, "less"})


# -- logs wiped in bulk by a search ------------------------------------------------------------------------
# roots a search covers the system's logs from: the whole disk, /var, its log folder, the macOS and Windows ones
_SYSTEM_ROOT = re.compile(r"^(?:/|/var|/var/log|/private|/private/var|/private/var/log|/library|/library/logs|/home|"
                          r"/root|/opt|/srv|/usr|/etc|/var/lib|/var/tmp/\.\.|/mnt/c|[a-z]:[\\/]?|[a-z]:[\\/]windows"
                          r"(?:[\\/]system32(?:[\\/]winevt(?:[\\/]logs)?)?)?)/?$", re.I)
# what a log is named: `*.log`, `*log*`, rotated and compressed logs, the login records, journals, audit trails,
# Windows event logs
_LOG_NAME = re.compile(r"log|\.evtx|\.etl|wtmp|btmp|utmp|lastlog|\.journal|syslog|messages|audit|_history|history$",
                       re.I)
_WIPERS = frozenset({"rm", "shred", "srm", "truncate", "unlink", "wipe", "del", "remove-item", "ri", "rmdir"})


def logs_wiped_by_search(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """A search of the whole disk or a system folder for logs by name (`find / -name '*.log'`, `-iname '*.evtx'`)
    that deletes, shreds or empties each one it finds (`-delete`, `-exec rm`, `-exec truncate -s0`, `| xargs rm`):
    every log of every program is erased at once, the traces of what was done with them (ATT&CK T1070.002). The
    same search in a project's build folder, or one that only lists, passes or is left to the other rules."""
    argv = list(cmd.argv[1:])
    roots = []
    for a in argv:
        if a.startswith(("-", "(", "!", "\\(")):
            break
        roots.append(a)
    if not roots or not any(_SYSTEM_ROOT.match(r.strip("'\"")) for r in roots):
        return
    named = [argv[k + 1] for k, a in enumerate(argv[:-1]) if a.lower() in ("-name", "-iname", "-path", "-ipath",
                                                                             "-regex", "-iregex", "-wholename")]
    if not any(_LOG_NAME.search(n) for n in named):
        return
    wipes = "-delete" in argv or any(a in ("-exec", "-execdir", "-ok", "-okdir") and k + 1 < len(argv) and (
        argv[k + 1].rsplit("/", 1)[-1].lower() in _WIPERS or (argv[k + 1] in ("cp", "tee", "sh", "bash") and
        ("/dev/null" in argv[k + 1:] or ">" in " ".join(argv[k + 1:])))) for k, a in enumerate(argv))
    if not wipes:
        me = analysis.commands.index(cmd) if cmd in analysis.commands else -1
        wipes = any(c.name in _WIPERS and "xargs" in c.via and me in c.upstream for c in analysis.commands)
    if wipes:
        add(Finding("block.shell.anti-forensics", Risk.CRITICAL,
                    f"find searches {roots[0]} for logs by name and erases each one it finds: the record of what was "
                    f"done goes with them{where}", cmd.span))
