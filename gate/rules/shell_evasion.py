"""Shell checks: defences switched off, network configuration, history and logs wiped, living-off-the-land binaries.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.nochange import system_script_use
from gate.rules.shell_vocab import (
    _REMOTE_REF,
)
from gate.shell import (
    Command,
    Finding,
    ShellAnalysis,
)

__all__ = ["EvasionChecks", "quarantine_staged"]


_MSBUILD_PROJECT = re.compile(r"(^|\s)[^\s/]*\.(sln|csproj|vbproj|fsproj|vcxproj|proj|slnf)(\s|$)|^(/[pmtv]\S*\s*)*$")
_MSBUILD_ODD = re.compile(r"\\users\\public\\|%te?mp%|\$env:te?mp|\\appdata\\|\\programdata\\|\.(xml|txt|csv|log)\b")
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
