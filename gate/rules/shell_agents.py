"""Shell checks: security agents taken off the machine.

An endpoint-security, anti-malware or device-management agent removed by hand is defense evasion (ATT&CK
T1562.001, T1070.009): its files deleted (`rm -rf "/Library/Application Support/<vendor>/EDR"`, `/opt/CrowdStrike`,
`C:\\Program Files\\SentinelOne`), its package uninstalled (`apt purge falcon-sensor`, `winget uninstall Sophos`,
`msiexec /x` of one named), its own program told to unload itself (`Santa --unload-system-extension`, `protectctl
uninstall`), or the record of its install erased (`pkgutil --forget com.crowdstrike.falcon`), or a Mac's store
of device-management profiles or an agent's rules deleted (`/var/db/ConfigurationProfiles`, `/var/db/santa`).
After it, nothing watches what runs next, and the organisation no longer sees the machine. Blocked: a person
uninstalls a security product themselves, not through an agent. One
taken off through Homebrew (`brew uninstall --cask santa`), the person's own package manager, asks.

The agents are known by the vendors' names and bundle identifiers (`_ENDPOINT_AGENTS` of
gate/rules/shell_persistence.py, shared with the checks that stop their services and extensions) and by the
words a folder of one is named with (EDR, XDR, antivirus, endpoint security), inside the places software is
installed. A user's project folder named `edr-notes` or an `uninstall` of an ordinary package passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.rules.shell_persistence import _ENDPOINT_AGENTS
from gate.rules.shell_vocab import _PKG_REMOVE
from gate.shell import Command, Finding, resolve_path

__all__ = ["NAMES", "judge", "security_software_path"]

# the places software is installed (macOS, Linux, Windows): a security product's files live under these
_SOFTWARE_PLACE = re.compile(r"^(/library/(application support|launchdaemons|launchagents|systemextensions|"
                             r"extensions|privilegedhelpertools|preferences|managed preferences)?|/applications/|"
                             # (where agents keep their rules and state: Santa's /var/db/santa, osquery's database)
                             r"(/private)?/var/db/|"
                             r"/opt/|/usr/local/|/usr/lib/|/var/lib/|/etc/|/usr/share/|/var/opt/|"
                             r"/?[a-z]:/(program files( \(x86\))?|programdata)/|%programfiles%|%programdata%|"
                             r"\$env:programfiles|\$env:programdata)", re.I)
# a folder named for what it protects with
_PROTECTION_WORD = re.compile(r"(^|[/ ._-])(edr|xdr|antivirus|anti-virus|antimalware|anti-malware|endpoint[ _-]?"
                              r"(security|protection|agent|detection)|threat[ _-]?(protection|defense)|"
                              r"av[ _-]?agent|security[ _-]?agent)([/ ._-]|$)", re.I)
# where a managed Mac keeps its device-management (MDM) profiles: deleted, the organisation's settings and its
# hold on the machine go with them
_MANAGEMENT_STORE = re.compile(r"^(/private)?/var/db/configurationprofiles(/|$)", re.I)
_DELETERS = frozenset({"rm", "rmdir", "srm", "shred", "remove-item", "ri", "del", "rd", "erase", "trash"})
_UNINSTALLERS = frozenset({"msiexec", "wmic", "uninstall-package", "pkgutil", "falconctl", "sentinelctl",
                           "mdatp", "sophos-uninstall", "uninstall_macos_agent", "jamf", "profiles"})
# system package managers (a language's package manager installs libraries, not agents)
_SYSTEM_REMOVERS = {n: v for n, v in _PKG_REMOVE.items() if n not in ("pip", "pip3", "pipx", "npm", "gem", "cargo",
                                                                       "conda")}
NAMES = frozenset({*_DELETERS, *_SYSTEM_REMOVERS, *_UNINSTALLERS, "protectctl", "santactl", "osqueryctl", "santa",
                   "falcon", "lulu", "blockblock", "littlesnitch", "little snitch", "sentinelone", "osqueryd",
                   "jamfprotect", "jamf protect", "malwarebytes", "xprotect"})
# what a security agent's own program is told to take itself out with
_SWITCHED_OFF = frozenset({"--unload-system-extension", "--unload", "unload", "--uninstall", "uninstall", "-uninstall",
                           "--remove-system-extension", "--disable", "unprotect", "--unprotect"})
# the package managers of the person's own software (Homebrew's formulae and casks)
_USER_REMOVERS = frozenset({"brew"})

Add = Callable[[Finding], None]


def security_software_path(path: str) -> bool:
    """`path` (resolved, lower case) is where a security agent's files live: under a place software is installed,
    a part of it names a security vendor or product, or what the folder protects with (EDR, antivirus)."""
    path = path.replace("\\", "/")
    if not _SOFTWARE_PLACE.match(path):
        return False
    rest = _SOFTWARE_PLACE.sub("", path, count=1)
    return bool(_ENDPOINT_AGENTS.search(rest) or _PROTECTION_WORD.search(rest))


def _named_agent(words: tuple[str, ...]) -> str:
    return next((w for w in words if not w.startswith("-") and _ENDPOINT_AGENTS.search(w)), "")


def judge(cmd: Command, where: str, add: Add) -> None:
    """A security agent's files deleted, its package removed or its install record erased (module docstring)."""
    name = cmd.name
    words = cmd.words[1:]
    what = ""
    if name in _DELETERS:
        if "/" not in cmd.span and "\\" not in cmd.span:
            return
        for w in words:
            if w.startswith("-"):
                continue
            path = (resolve_path(w, cmd.cwd or None) or w).lower()
            if security_software_path(path):
                what = f"{name} deletes {w[:80]}, a security agent's files"
                break
            if _MANAGEMENT_STORE.match(path):
                what = f"{name} deletes {w[:80]}, the device-management profiles that keep the machine managed"
                break
    elif name in _SYSTEM_REMOVERS:
        verbs = _SYSTEM_REMOVERS[name]
        if any(w in verbs for w in words) and (agent := _named_agent(words)):
            if name in _USER_REMOVERS:
                # Homebrew installs what the person chose (no organisation deploys its agent as a cask): taken
                # off the way it came, it asks
                add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                            f"{name} uninstalls {agent[:60]}, a security tool installed through it: it no longer "
                            f"watches the machine{where}", cmd.span))
                return
            what = f"{name} uninstalls {agent[:60]}, a security agent"
    elif name == "pkgutil":
        if "--forget" in words and (agent := _named_agent(words)):
            # alone it erases only the install record (the agent keeps running): the last step of an uninstall,
            # whose removing steps block on their own
            add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                        f"pkgutil --forget {agent[:60]} erases the record of a security agent's install{where}",
                        cmd.span))
            return
    elif name in ("falconctl", "sentinelctl", "mdatp", "protectctl", "santactl", "osqueryctl"):
        if any(w in ("uninstall", "unload", "-u", "--uninstall", "unprotect", "stop", "disable") for w in words):
            what = f"{name} uninstalls, stops or unloads its security agent"
    elif words and any(w in _SWITCHED_OFF for w in words) and (
            _ENDPOINT_AGENTS.search(name) or security_software_path(
                (resolve_path(cmd.argv[0], cmd.cwd or None) or cmd.argv[0]).lower())):
        # the agent's own program told to take itself out (`Santa.app/.../Santa --unload-system-extension`)
        what = f"{cmd.argv[0][:80]} {next(w for w in words if w in _SWITCHED_OFF)}: a security agent unloads itself"
    elif name in ("msiexec", "wmic", "uninstall-package", "jamf", "profiles"):
        removes = any(w in ("/x", "-x", "/uninstall", "uninstall", "removeframework", "remove", "-r") or
                      w.startswith(("/x{", "/x")) for w in words) or name == "uninstall-package"
        agent = "jamf" if name == "jamf" else _named_agent(words)
        if removes and agent:
            what = f"{name} removes {agent[:60]}, a security agent or the device's management"
    elif name in ("sophos-uninstall", "uninstall_macos_agent"):
        what = f"{name} uninstalls a security agent"
    elif ("/" in cmd.argv[0] or "\\" in cmd.argv[0]) and ("uninstall" in name or "remove" in name):
        # an uninstaller shipped inside a security product's own folder (`/opt/sophos-spl/bin/uninstall.sh`)
        path = (resolve_path(cmd.argv[0], cmd.cwd or None) or cmd.argv[0]).lower()
        if security_software_path(path):
            what = f"{cmd.argv[0][:80]} is a security agent's own uninstaller"
    if what:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{what}: nothing then watches what runs on the machine{where}", cmd.span))
