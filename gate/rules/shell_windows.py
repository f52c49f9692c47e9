"""Shell findings for Windows command lines that the catalogues mark as hostile by their context.

The effect checks judge a Windows command like any other (gate/winshell.py reads it into the same
`Command`); what they cannot see is the company a Windows command keeps. This module adds, per command:

- a program copied into the Startup folder (copy, xcopy, robocopy, move, Copy-Item, Move-Item): it runs at
  every logon (`block.shell.malicious-persistence`; any other file put there asks, `confirm.shell.persistence`);
- PowerShell started with an encoded command in a hidden window or with -ExecutionPolicy Bypass: what it runs
  is hidden from the person and the safeguard is off (`block.shell.defense-evasion`);
- rundll32 / regsvr32 running a DLL from a relative path or a staging folder, or by a bare name no Windows library
  has (rundll32, or regsvr32 with its dialogs silenced: gate/rules/shell_payload.py) (`block.shell.loader-hook`);
- a local account made with its password written on the command line (`net user NAME PASS /add`,
  `New-LocalUser -Password (ConvertTo-SecureString 'PASS' -AsPlainText)`), and PowerShell's
  `Add-LocalGroupMember -Group Administrators` (`block.shell.credential-tamper`, as `net localgroup
  administrators NAME /add` already is; the other local account cmdlets ask as account changes);
- a file sent by Invoke-WebRequest / Invoke-RestMethod (-InFile, or -Body read by a command) and files
  copied to another machine's share (`\\\\host\\share`): a credential sent blocks
  (`block.shell.credential-exfiltration`), a program put on an administrative share (ADMIN$, C$) blocks as
  lateral movement (`block.shell.remote-access`), anything else asks (`confirm.shell.network`);
- binary data built at run time (or long) stored in a registry value: a payload kept without a file
  (`confirm.shell.obfuscated`);
- Remove-Item fed by Get-ChildItem: a delete of what is listed (`block.shell.recursive-delete-root` under a
  protected root, as `find / -delete`; else it asks);
- a security service stopped, disabled or removed by cmdlet (`Stop-Service WinDefend`), as `sc stop` is
  (`block.shell.defense-evasion`; any other service asks, `New-Service` asks as persistence);
- a program (.exe, .dll, .ps1, .hta, ...) downloaded into a folder where payloads are staged (Public, Temp,
  AppData, ProgramData) by a living-off-the-land downloader (certutil, bitsadmin, desktopimgdownldr) or
  from a bare IP address (`block.shell.remote-code-exec`);
- a service, process or task made on another machine (`sc \\\\HOST create`, `wmic /node:`, `schtasks /s`,
  `at \\\\HOST`, `Invoke-Command -ComputerName`, WMI/CIM `Create`, PsExec copying a program over): lateral
  movement (`block.shell.remote-access`);
- a logon-screen accessibility program (sethc, utilman, osk, ...) taken over, renamed away or replaced, Set-Acl
  writing a FileSystemAccessRule onto it or onto another system program, and a system file written by a
  content cmdlet (`block.shell.system-file-tamper`); one copied aside (`xcopy sethc.exe sethc.exe.bak`) asks
  (`confirm.shell.system-write`);
- the credential locker read out (Windows.Security.Credentials.PasswordVault RetrieveAll /
  RetrievePassword: `block.shell.credential-dump`);
- a program run from a drive found by its volume label (`gwmi win32_volume -f label=...`, Get-Volume
  -FileSystemLabel): a removable drive's payload (`confirm.shell.unknown-program`);
- a package manager's install checks switched off (`winget settings --enable LocalManifestFiles` or
  InstallerHashOverride, `choco feature enable -n allowEmptyChecksums`: `confirm.shell.defense-evasion`);
- a program run from a file's alternate data stream, a staged certificate trusted as a root, an event log
  switched off by `wevtutil sl /e:false` or moved to another file (`/lfn:`) (`block.shell.defense-evasion`;
  a log's size, retention or access changed asks, a key log made small blocks);
- a registry change judged by what it changes (`[windows_registry]` in resources/programs.toml): a protection,
  a log or a logon safeguard switched off by its value (DisableRealtimeMonitoring=1, TamperProtection=0,
  SafeDllSearchMode=0, UseLogonCredential=1), a security or logging service disabled (Start=4) or its key
  removed, a Defender exclusion key written (`block.shell.defense-evasion`); the record of what was run erased
  (RunMRU, TypedPaths, UserAssist: `block.shell.anti-forensics`; recent-file lists ask); any other change of
  the machine's hives (HKLM, HKCR, HKU), reg import and regedit /s ask (`confirm.shell.system-state`);
- signed setup programs (cmstp, msiexec /q, odbcconf, installutil, regasm, regsvcs, mavinject, control) fed a
  file from a staging folder (`block.shell.loader-hook`; msbuild of a staged project and a staged program run
  directly still ask, as running any program waiting there does; a package in the Downloads folder installed
  quietly by msiexec asks as an install);
- a cmdlet of a cloud or SaaS module (Az, Microsoft Graph, AzureAD, MSOnline, Exchange Online, PnP and
  SharePoint, Teams, AWS.Tools, Google Cloud, Okta), judged by its verb and noun (`[[cloud_cmdlet]]` in
  resources/programs.toml): storage made public or an anonymous sharing link, an owner, admin or directory
  role or an application consent granted, a secret or key added to an application or cloud user, another
  person's mailbox opened, MFA, conditional access or audit switched off (each refuses), a whole subscription
  or tenant taken away (`block.shell.mass-destruction`); any other removal asks (`confirm.shell.destructive`).
  A cmdlet nobody listed is judged like its family: `NAMES` holds every name of these modules' form;
- a cmdlet of any module whose approved verb disables or uninstalls a protection its noun names
  (`Disable-BitLocker`, `Disable-XyzSecurityConfiguration`: `block.shell.defense-evasion`);
- a SQL cmdlet handed a script file it runs against a server (`Invoke-Sqlcmd -InputFile`:
  `confirm.shell.destructive`, as `sqlcmd -i`).

Called once per simple command from `Detector._run` (gate/rules/shell.py); a name none of these concern
costs one dictionary look-up.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from gate.catalogue import DATA
from gate.model import Risk
from gate.nochange import CLOUD, cloud_parts
from gate.rules.shell_effects import (
    _NET_SHELL_TEXT,
    _before,
    _run_key,
    _runs_network_shell,
    _staged_secrets,
    download_targets,
)
from gate.rules.shell_payload import silent_library
from gate.rules.shell_persistence import login_item, system_detached, win_run_key, win_service, win_task
from gate.rules.shell_platforms import _SECURITY_SERVICE_WORDS, _SECURITY_SERVICES_WIN, _value_after
from gate.shell import Command, Finding, ShellAnalysis, display_path, resolve_path
from gate.urls import RELEASE_HOST, USER_CONTENT_HOST

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["judge"]

Add = Callable[[Finding], None]

_PROGRAM_FILE = re.compile(r"\.(exe|dll|scr|hta|msi|ps1|psm1|vbs|vbe|bat|cmd|com|cpl|jse?|wsf|lnk|sct|xll)$", re.I)
# resolved folders where a dropped payload waits to be run: per-user temp and app data, Public, ProgramData
_STAGING = re.compile(r"^/home/~/appdata/|^/c:/users/public/|^/c:/programdata/|^/c:/windows/temp/|"
                      r"^/c:/users/[^/]+/appdata/|^/c:/(temp|tmp)/|^/c:/perflogs/")
_TEMP_VAR = re.compile(r"%te?mp%|\$env:te?mp\b", re.I)
_RAW_IP_URL = re.compile(r"^(https?|ftp)://(\d{1,3}\.){3}\d{1,3}(:\d+)?(/|$)", re.I)
_LOL_DOWNLOADERS = frozenset({"certutil", "bitsadmin", "desktopimgdownldr", "start-bitstransfer"})


def _params(cmd: Command) -> tuple[dict[str, str], list[str]]:
    """PowerShell-style `-Name value` pairs (folded names, any abbreviation left as written) and the
    positional words; a cmd-style `/flag` is neither."""
    named: dict[str, str] = {}
    positional: list[str] = []
    argv = cmd.argv
    k = 1
    while k < len(argv):
        a = argv[k]
        if a.startswith("-") and len(a) > 1:
            name, colon, value = a[1:].partition(":")
            if colon:
                named[name.lower()] = value
            elif k + 1 < len(argv) and not argv[k + 1].startswith("-"):
                named[name.lower()] = argv[k + 1]
                k += 1
            else:
                named[name.lower()] = ""
        elif not a.startswith("/"):
            positional.append(a)
        k += 1
    return named, positional


def _param(named: dict[str, str], *names: str) -> str | None:
    """The value of the first parameter written as any prefix (two letters or more) of one of `names`."""
    for given, value in named.items():
        if len(given) >= 2 and any(n.startswith(given) for n in names):
            return value
    return None


def _copies(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if cmd.name in ("copy-item", "move-item"):
        named, positional = _params(cmd)
        dest = _param(named, "destination")
        src = _param(named, "path", "literalpath")
        sources = [s for s in (src, *positional[:1]) if s]
        dest = dest if dest is not None else (positional[1] if len(positional) > 1 else None)
    else:
        operands = [a for a in cmd.argv[1:] if not a.startswith("/") or a.count("/") > 1]
        if len(operands) < 2:
            return
        sources, dest = operands[:-1], operands[-1]
        if cmd.name == "robocopy":  # robocopy SOURCE DEST [files...]
            sources, dest = [operands[0], *operands[2:]], operands[1]
    if not dest:
        return
    path = resolve_path(dest, cmd.cwd or None)
    dll = next((x for x in (dest, *sources) if _SYSTEM_DLL.search(x.replace("\\", "/"))), None)
    folder = (path.rsplit("/", 1)[0] if path and _SYSTEM_DLL.search(path) else path) or ""
    if dll and _APP_FOLDER.search(folder.rstrip("/") + "/"):
        add(Finding("block.shell.loader-hook", Risk.CRITICAL, f"{cmd.name} puts {dll}, named like a Windows system "
                    f"library, in another program's folder ({display_path(folder)}): the program loads it instead of "
                    f"the system's when it starts (side-loading){where}", cmd.span))
        return
    if path is not None and _USER_PATH_DIR.search(path) and _PROGRAM_FILE.search(path):
        add(Finding("confirm.shell.system-write", Risk.MEDIUM, f"{cmd.name} puts the program {display_path(path)} in a "
                    f"folder on the user's PATH: it runs whenever that name is called{where}", cmd.span))
    if path is None or not (d.persistence_path(path) or d.persistence_path(path.rstrip("/") + "/")):
        return
    program = [s for s in sources if _PROGRAM_FILE.search(s)] or ([dest] if _PROGRAM_FILE.search(dest) else [])
    if program:
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} puts the program {program[0]} in {display_path(path)}: it runs at every logon{where}",
                    cmd.span))
    else:
        add(Finding("confirm.shell.persistence", Risk.MEDIUM,
                    f"{cmd.name} puts a file in {display_path(path)}, where it runs later{where}", cmd.span))


# Windows' own folders and those of installed programs, named at a drive or through the variables that hold them
# (their temporary folder left out: what waits there is anyone's to clear)
_WIN_SYSTEM_FOLDER = re.compile(r"^(?:[a-z]:[\\/]+(?:windows|program ?files(?: \(x86\))?|programdata[\\/]+microsoft)|"
                                r"%systemroot%|%windir%|%programfiles%|\$env:(?:systemroot|windir|programfiles))"
                                r"[\\/]+(?!temp(?:[\\/]|$))[^\\/]", re.I)


def _system_moves(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    r"""`Rename-Item C:\Windows\SoftwareDistribution SD.old`, `move C:\Program Files\App D:\`: a folder or file of
    Windows or of an installed program moved away or renamed. Windows and the programs that rely on it look for it
    there: it asks, as a write into those folders does (a repair step, like resetting Windows Update's cache, is
    the person's to approve)."""
    if cmd.name in ("move-item", "mi", "rename-item", "rni"):
        named, positional = _params(cmd)
        source = _param(named, "path", "literalpath") or (positional[0] if positional else "")
    else:
        operands = [a for a in cmd.argv[1:] if not a.startswith("/") or a.count("/") > 1]
        source = operands[0] if len(operands) >= 2 else ""
    source = source.strip("'\"")
    if source and _WIN_SYSTEM_FOLDER.match(source):
        add(Finding("confirm.shell.system-write", Risk.MEDIUM, f"{cmd.name} moves or renames {source[:60]}, a part of "
                    f"Windows or of an installed program: what relies on it looks for it there{where}", cmd.span))


# what a BitLocker volume object holds that unlocks it: the key protectors, with the 48-digit recovery password
_BITLOCKER_SECRET = re.compile(r"\bkeyprotectors?\b|\brecoverypassword\b", re.I)


def _bitlocker_keys(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`(Get-BitLockerVolume -MountPoint C).KeyProtector`, `Get-BitLockerVolume | Select -Expand KeyProtector`: the
    volume's key protectors, with the recovery password that unlocks the disk without its owner. It asks, as
    `manage-bde -protectors -get` does; the volume's state (Get-BitLockerVolume alone) passes."""
    if _BITLOCKER_SECRET.search(analysis.source):
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{cmd.name} reads the volume's key protectors: its "
                    f"recovery password unlocks the disk{where}", cmd.span))


# an installed program's own folder in the user's profile or ProgramData (not a temporary folder)
_APP_FOLDER = re.compile(r"/appdata/(local|roaming)/(?!temp/)[^/]+/|^c:/programdata/[^/]+/|/programdata/[^/]+/", re.I)
# libraries Windows programs load by name from their own folder first: a copy under one of these names beside a
# program is loaded in place of the system's (the names side-loading uses)
_SYSTEM_DLL = re.compile(r"(^|/)(version|winmm|dbghelp|userenv|wininet|uxtheme|dwmapi|cryptsp|cryptbase|wtsapi32|"
                         r"profapi|secur32|dxgi|d3d11|d3d9|winhttp|iphlpapi|netapi32|mpr|msimg32|wer|dbgcore|"
                         r"propsys|shfolder|linkinfo|ntmarta|samlib|srvcli|sspicli|wkscli|xinput1_3|"
                         r"vcruntime140|msvcp140|libcurl|oleacc|comctl32|apphelp|edputil|mscms|riched20)\.dll$", re.I)

# per-user folders on Windows' PATH (the Store's app aliases, Scoop's shims): a program copied in is found by name
_USER_PATH_DIR = re.compile(r"/appdata/local/microsoft/windowsapps/[^/]+$|/scoop/shims/[^/]+$")

# a TCP client or raw socket whose stream the script reads or writes (what a PowerShell reverse shell is made of)
_SOCKET_STREAM = re.compile(r"(net\.sockets\.(tcpclient|socket)|\btcpclient\b)[\s\S]{0,400}?\.getstream\s*\(|"
                            r"\.getstream\s*\([\s\S]{0,400}?(net\.sockets\.|\btcpclient\b)")


# folders any user or any program can write to, where a dropped payload waits: Public, the temporary folders,
# ProgramData's root, the Recycle Bin
_STAGING_FOLDER = re.compile(r"(?i)(?:^|/)(?:users/public|windows/temp|appdata/local/temp|programdata/[^/]+$|"
                             r"\$recycle\.bin|%temp%|\$env:temp|%public%|\$env:public)(?:/|$)")


def _host(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    hidden = encoded = bypass = False
    argv = [a.lower() for a in cmd.argv]
    for k, a in enumerate(argv[1:], 1):
        if a[:1] not in "-/" or len(a) < 2:
            continue
        flag = a[1:]
        value = argv[k + 1] if k + 1 < len(argv) else ""
        if flag in ("w", "wi") or (len(flag) >= 2 and "windowstyle".startswith(flag)):
            hidden = hidden or value in ("hidden", "1")
        elif flag in ("e", "ec") or (len(flag) >= 2 and "encodedcommand".startswith(flag)):
            encoded = True
        elif flag in ("ep", "ex", "exec") or (len(flag) >= 2 and "executionpolicy".startswith(flag)):
            bypass = bypass or value in ("bypass", "unrestricted")
        elif flag in ("c", "command", "f", "file") or (len(flag) >= 3 and "command".startswith(flag)):
            if flag in ("f", "file") and hidden and _STAGING_FOLDER.search(value.replace("\\", "/")):
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                            f"{cmd.name} runs the script {cmd.argv[k + 1]} from a folder anyone can write to, in a "
                            f"hidden window: a dropped payload the person does not see{where}", cmd.span))
            break  # what follows is the command line it runs, not its own options
    if hidden and _SOCKET_STREAM.search(" ".join(argv)):
        add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                    f"{cmd.name} opens a network socket's stream in a hidden window: a remote shell the person "
                    f"does not see{where}", cmd.span))
    if encoded and (hidden or bypass):
        how = "in a hidden window" if hidden else "with the script policy switched off (-ExecutionPolicy Bypass)"
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} runs an encoded command {how}: what it runs is hidden from the person, and the "
                    f"safeguard that would stop it is off{where}", cmd.span))


_PLAIN_PASSWORD = re.compile(r"convertto-securestring\s+(-string\s+)?['\"]?[^\s'\"$()]+['\"]?\s.*-asplaintext", re.I)


# the accounts every Windows has, switched off until someone needs them (their names in a few languages)
_BUILT_IN_ACCOUNTS = frozenset({"guest", "administrator", "defaultaccount", "invité", "invitado", "gast", "ospite",
                                "convidado", "administrateur", "administrador", "administratore"})


def _accounts(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    name = cmd.name
    words = [w for w in cmd.words[1:]]
    if name in ("net", "net1"):
        if words[:1] != ["user"] or "/add" not in words:
            return
        operands = [(i, w) for i, w in enumerate(cmd.argv[1:], 1) if not w.startswith("/")]
        if len(operands) >= 3 and operands[2][1] != "*" and operands[2][0] not in cmd.dynamic:
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"net user makes the account {operands[1][1]} with a password written on the command line: "
                        f"a way back into the machine{where}", cmd.span))
        return
    if name == "new-localuser":
        named, _ = _params(cmd)
        password = _param(named, "password")
        if password and _PLAIN_PASSWORD.search(password):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"New-LocalUser makes an account with a password written on the command line{where}",
                        cmd.span))
        else:
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                        f"New-LocalUser makes a local account{where}", cmd.span))
        return
    if name == "add-localgroupmember":
        named, positional = _params(cmd)
        group = (_param(named, "group", "name") or (positional[0] if positional else "")).lower()
        if group in ("administrators", "administrateurs", "administratoren", "remote desktop users",
                     "remote management users", "backup operators"):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"Add-LocalGroupMember puts an account in {group}: control of the machine{where}", cmd.span))
        else:
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                        f"Add-LocalGroupMember changes who is in the group {group or '?'}{where}", cmd.span))
        return
    named, positional = _params(cmd)
    account = (_param(named, "name", "sid") or (positional[0] if positional else "")).strip("'\"").lower()
    if name == "set-localuser" and _param(named, "password") is not None:
        add(Finding("block.shell.credential-tamper", Risk.CRITICAL, f"Set-LocalUser sets a new password on "
                    f"{account or 'an account'}: whoever set it can log in, whoever knew the old one cannot{where}",
                    cmd.span))
        return
    if name == "enable-localuser" and account in _BUILT_IN_ACCOUNTS:
        add(Finding("block.shell.credential-tamper", Risk.CRITICAL, f"Enable-LocalUser switches on the built-in "
                    f"{account} account, kept off because everyone knows its name{where}", cmd.span))
        return
    # Set-LocalUser, Enable-LocalUser, Remove-LocalUser, Remove-LocalGroupMember, New-LocalGroup
    add(Finding("confirm.shell.privilege-escalation", Risk.HIGH, f"{name} changes a local account or group{where}",
                cmd.span))


def _lol_program(cmd: Command, urls: list[str]) -> str | None:
    """The program (.exe, .dll, .ps1, .hta, ...) certutil, bitsadmin or desktopimgdownldr fetches from anywhere, or
    Start-BitsTransfer from a host no vendor ships from (a release host's installer is what guides fetch), or None."""
    words = [*urls, *(download_targets(cmd) or [a for a in cmd.argv[2:] if not a.startswith(("-", "/"))])]
    for w in words:
        path = w.split("?", 1)[0].split("#", 1)[0].strip("'\"")
        if not _PROGRAM_FILE.search(path):
            continue
        if cmd.name == "start-bitstransfer":
            hosts = [u.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0].lower() for u in urls]
            if hosts and all(RELEASE_HOST.match(h) and not USER_CONTENT_HOST.match(h) and u.lower().startswith("https")
                             for h, u in zip(hosts, urls, strict=True)):
                return None
        return path
    return None


def _downloads(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    urls = [a for a in cmd.argv[1:] if "://" in a]
    if not urls:
        named, _ = _params(cmd)
        urls = [v for v in named.values() if "://" in v]
    if not urls:
        return
    lol = cmd.name in _LOL_DOWNLOADERS
    if lol and (program := _lol_program(cmd, urls)):
        add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                    f"{cmd.name} fetches the program {program[:80]}: a system tool used as a downloader, the way a "
                    f"payload is brought in to be run (LOLBAS){where}", cmd.span))
        return
    if not lol and not any(_RAW_IP_URL.match(u) for u in urls):
        return
    for target in download_targets(cmd) or [a for a in cmd.argv[2:] if "://" not in a and not a.startswith(("-", "/"))]:
        path = resolve_path(target, cmd.cwd or None) or target.lower()
        if (_STAGING.search(path) or _TEMP_VAR.match(path)) and _PROGRAM_FILE.search(path):
            how = f"{cmd.name}, a system tool that is no downloader," if lol else f"{cmd.name} from a bare IP address"
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"{how} fetches the program {display_path(path)} into a folder where payloads wait to be "
                        f"run{where}", cmd.span))
            return


# security services by the display names Stop-Service -DisplayName and `net stop` take
_SECURITY_DISPLAY_NAME = re.compile(r"^(?:security\s*cent(?:er|re)|windows\s+(?:security\b.*|firewall|event\s*log)|"
                                    r"(?:windows|microsoft)\s+defender\b.*|base\s+filtering\s+engine)$")


# Set-Service's start-up types that start the service with Windows
_STARTS_AT_BOOT = frozenset({"automatic", "automaticdelayedstart", "boot", "system"})


def _services(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Stop-Service, Set-Service -StartupType Disabled, Remove-Service: judged as `sc stop` / `sc delete` are."""
    named, positional = _params(cmd)
    names = [n for n in (_param(named, "name", "displayname"), *positional[:1]) if n]
    if not names:  # `Get-Service WinDefend | Stop-Service`: the service comes down the pipe
        for up in (analysis.commands[i] for i in cmd.upstream if analysis.commands[i].name in ("get-service", "gsv")):
            up_named, up_positional = _params(up)
            names += [n for n in (_param(up_named, "name", "displayname"), *up_positional[:1]) if n]
    state = (_param(named, "startuptype", "status") or "").lower()
    stops = cmd.name in ("stop-service", "suspend-service", "remove-service") or \
        (cmd.name == "set-service" and state in ("disabled", "stopped"))
    if not stops or not names:
        if cmd.name == "new-service":
            add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"New-Service registers a service{where}", cmd.span))
        elif cmd.name == "set-service" and state in _STARTS_AT_BOOT:
            # (as `sc config NAME start= auto` and `systemctl enable` ask: it runs at every boot from now on)
            add(Finding("confirm.shell.persistence", Risk.MEDIUM,
                        f"Set-Service {(names or ['the service'])[0]} -StartupType {state}: starts it at every "
                        f"boot{where}", cmd.span))
        elif cmd.name == "set-service" and state == "manual":
            add(Finding("confirm.shell.system-state", Risk.MEDIUM,
                        f"Set-Service {(names or ['the service'])[0]} -StartupType manual: changes when the service "
                        f"starts{where}", cmd.span))
        return
    target = names[0].strip("'\"").lower()
    if target in _SECURITY_SERVICES_WIN or "defender" in target or target in d.security or \
            target in _PRODUCT_SERVICES or _SECURITY_DISPLAY_NAME.search(target):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} {names[0]}: stops a security service{where}", cmd.span))
    else:
        add(Finding("confirm.shell.system-disruption", Risk.MEDIUM, f"{cmd.name} {names[0]}{where}", cmd.span))


# cmdlets that only shape what they are given (a body built from literals stays literals)
_SHAPES_ONLY = frozenset({"convertto-json", "convertto-xml", "convertto-csv", "convertfrom-json", "out-string",
                          "select-object", "where-object", "sort-object", "format-list", "format-table", "get-date",
                          "new-guid", "write-output", "join-string", "measure-object", "group-object"})


def _uploads(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Invoke-WebRequest / Invoke-RestMethod sending a file (-InFile) or a body read from one (-Body
    (Get-Content F)): what goes out is judged as `curl -T F` is."""
    named, positional = _params(cmd)
    infile = _param(named, "infile")
    body = _param(named, "body")
    url = _param(named, "uri") or next((p for p in positional if "://" in p), "")
    secret = d.secret_path(cmd, infile) if infile else None
    for i in cmd.subst:  # -Body (Get-Content ~\.ssh\id_rsa -Raw)
        secret = secret or d.secret_read_at(analysis, i)
    for i in cmd.upstream:  # Get-Content F | Invoke-RestMethod ...: what the pipe hands over is the -Body
        secret = secret or d.secret_read_at(analysis, i)
    packed = _staged_secrets(d, _before(analysis, cmd)).get(_run_key(infile)) if infile and not secret else None
    if secret:
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"sends {secret} off the machine ({cmd.name}){where}", cmd.span))
    elif packed:  # Compress-Archive -Path ~\.ssh -DestinationPath x.zip; ... -InFile x.zip
        add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                    f"{cmd.name} sends a file packed from {packed} (keys or credentials) off the machine{where}",
                    cmd.span))
    elif infile:
        add(Finding("confirm.shell.network", Risk.MEDIUM,
                    f"uploads the local file {infile} to {url or 'a remote host'} ({cmd.name}){where}", cmd.span))
    elif body is not None and any(analysis.commands[i].name not in _SHAPES_ONLY for i in cmd.subst):
        add(Finding("confirm.shell.network", Risk.MEDIUM,
                    f"sends what a command read to {url or 'a remote host'} ({cmd.name}){where}", cmd.span))
    if cmd.name in ("invoke-webrequest", "invoke-restmethod"):
        _downloads(d, cmd, analysis, where, add)


def _share_copies(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A copy to another machine's share (`\\\\host\\share`): data leaving, judged like scp."""
    _copies(d, cmd, analysis, where, add)
    operands = [a for a in cmd.argv[1:] if not a.startswith(("/", "-"))]
    named, _ = _params(cmd) if cmd.name in ("copy-item", "move-item") else ({}, [])
    dest = _param(named, "destination") or (operands[-1] if len(operands) > 1 else "")
    if not dest.startswith("\\\\") or dest.lower().startswith(("\\\\localhost", "\\\\127.", "\\\\?\\")):
        return
    sources = [a for a in operands if a != dest] or [_param(named, "path") or ""]
    secret = next((hit for s in sources if s and (hit := d.secret_path(cmd, s))), None)
    if secret:
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"copies {secret} to another machine's share {dest[:60]}{where}", cmd.span))
    elif _ADMIN_SHARE.match(dest) and any(_PROGRAM_FILE.search(s) for s in sources if s):
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{cmd.name} puts a program on {dest[:60]}, an administrative share of another machine: how a "
                    f"tool is spread to run there as a service (lateral movement){where}", cmd.span))
    else:
        add(Finding("confirm.shell.network", Risk.MEDIUM,
                    f"{cmd.name} copies files to another machine's share {dest[:60]}{where}", cmd.span))


_ADMIN_SHARE = re.compile(r"^\\\\[^\\]+\\(?:admin\$|[a-z]\$)(?:\\|$)", re.I)


# a secret whose copy gathered in a staging folder blocks: a credential store, and the console's history (every
# command typed, passwords given on command lines included)
_HISTORY_FILE = re.compile(r"(^|/)psreadline/consolehost_history\.txt$|_history$")


def _secret_copies(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A secret file (a key, a browser profile's database, the console history, a remote-desktop program's
    config) copied or moved by copy, xcopy, robocopy, Copy-Item or Move-Item: into a staging folder (Temp,
    Public, ProgramData, AppData) a credential store or the history blocks, as gathered to be taken away; any
    other copy of a secret asks, as reading it does. A copy to another machine's share is `_share_copies`'."""
    if cmd.name in ("copy-item", "move-item"):
        named, positional = _params(cmd)
        dest = _param(named, "destination")
        src = _param(named, "path", "literalpath")
        sources = [x for x in (src, *positional[:1]) if x]
        dest = dest if dest is not None else (positional[1] if len(positional) > 1 else "")
    else:
        operands = [a for a in cmd.argv[1:] if not a.startswith(("/", "-")) or a.count("/") > 1]
        if len(operands) < 2:
            return
        sources, dest = operands[:-1], operands[-1]
        if cmd.name == "robocopy":  # robocopy SOURCE DEST [files...]: the files are named in the source folder
            sources = [operands[0], *(operands[0].rstrip("\\/") + "\\" + f for f in operands[2:])]
            dest = operands[1]
    if not dest or dest.startswith("\\\\"):
        return
    secret = next((hit for x in sources if (hit := d.secret_path(cmd, x))), None)
    if secret is None:
        return
    path = resolve_path(dest, cmd.cwd or None) or ""
    staged = bool(_STAGING.search(path.rstrip("/") + "/") or _TEMP_VAR.search(dest) or _SHARED_FOLDER_VAR.search(dest))
    low = secret.lower()
    if staged and (d.credential_files.search(low) or _HISTORY_FILE.search(low)):
        add(Finding("block.shell.credential-read", Risk.CRITICAL, f"{cmd.name} copies {secret} into {dest[:60]}: "
                    f"a credential store or the console history gathered where it waits to be taken away{where}",
                    cmd.span))
    else:
        add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{cmd.name} copies {secret} to {dest[:60]}: it reads "
                    f"a secret{where}", cmd.span))


_SYSTEM_DIR = re.compile(r"^/c:/(windows|program files( \(x86\))?)/")


def _dll_runners(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """rundll32 / regsvr32 loading a DLL (or a control panel item) from a relative or staging path: code of
    the caller's choosing runs inside a signed system program, as LD_PRELOAD of a bare path does on Linux."""
    words = [a for a in cmd.argv[1:] if not a.startswith(("/", "-")) or a.count("/") > 1]
    if cmd.name == "rundll32":
        first = words[0].split(",", 1) if words else [""]
        dll = first[0]
        if dll.lower() in ("shell32.dll", "shell32") and len(first) > 1 and "control_rundll" in first[1].lower():
            dll = words[1] if len(words) > 1 else ""
    else:
        dll = words[0] if words else ""
    if not dll or "://" in dll or ":" in dll.split("\\", 1)[0][2:]:
        return  # a URL or a script moniker: judged as remote code by the LOLBin check
    path = resolve_path(dll, cmd.cwd or None)
    if _TEMP_VAR.match(dll.lower()) or (path is not None and _STAGING.search(path) and not _SYSTEM_DIR.search(path)):
        where_from = "a folder where payloads are staged"
    elif path is None and ("\\" in dll or "/" in dll):
        where_from = "a relative path"
    else:
        silent_library(cmd, where, add)  # a bare name: the working folder's file, unless Windows has one
        return
    add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                f"{cmd.name} runs the code of {dll}, a library from {where_from}, inside a system program{where}",
                cmd.span))


_LISTERS = frozenset({"get-childitem", "get-item", "resolve-path"})


def _piped_deletes(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    r"""`Get-ChildItem C:\ -Recurse | Remove-Item`: Remove-Item with no path of its own deletes what the
    pipeline lists, judged as a delete of the folders listed (as `find / -delete` is)."""
    named, positional = _params(cmd)
    if positional or _param(named, "path", "literalpath") or not cmd.upstream:
        return
    for i in cmd.upstream:
        lister = analysis.commands[i]
        if lister.name not in _LISTERS:
            continue
        lnamed, lpositional = _params(lister)
        root = _param(lnamed, "path", "literalpath") or (lpositional[0] if lpositional else ".")
        hit = d.protected_target(lister, root)
        if hit:
            add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                        f"{cmd.name} deletes what {lister.name} lists under {hit}{where}", cmd.span))
        else:
            add(Finding("confirm.shell.destructive", Risk.HIGH if _param(lnamed, "recurse") is not None else
                        Risk.MEDIUM, f"{cmd.name} deletes what {lister.name} lists in {root}{where}", cmd.span))
        return


def _registry_blobs(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Binary data put in a registry value, built at run time or long (`-PropertyType Binary -Value $bytes`,
    `reg add ... /t REG_BINARY /d <hex>`): a payload stored without a file (ATT&CK fileless storage)."""
    if cmd.name == "reg":
        words = list(cmd.words)
        if "reg_binary" not in words or "/d" not in words[:-1]:
            return
        data = cmd.argv[words.index("/d") + 1]
        if len(data) < 64:
            return
    else:
        named, _ = _params(cmd)
        if (_param(named, "propertytype", "type") or "").lower() != "binary":
            return
        k = next((i for i, a in enumerate(cmd.argv) if a.lower().startswith("-va")), None)
        if k is None or k + 1 >= len(cmd.argv) or (k + 1 not in cmd.dynamic and len(cmd.argv[k + 1]) < 64):
            return
    add(Finding("confirm.shell.obfuscated", Risk.HIGH, f"{cmd.name} stores binary data in the registry: a way to "
                f"keep a payload without a file{where}", cmd.span))


_LOCAL_HOSTS = frozenset({"localhost", ".", "127.0.0.1", "::1", "%computername%", "$env:computername"})


def _other_host(host: str) -> bool:
    h = host.strip("'\"").lstrip("\\").lower()
    return bool(h) and h not in _LOCAL_HOSTS and not h.startswith("127.")


def _lateral(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A service made, a process started or a task scheduled on another machine (`sc \\\\HOST create`,
    `wmic /node:HOST process call create`, `schtasks /s HOST /create`, `Invoke-Command -ComputerName`,
    psexec-style `\\\\HOST` copying a program over or running a staged one): running code on a machine the person
    did not hand over (lateral movement)."""
    words = cmd.words[1:]
    host = ""
    if cmd.name == "sc" and words[:1] and words[0].startswith("\\\\") and len(words) > 1 and \
            words[1] in ("create", "config") and any(w.startswith("binpath=") for w in words):
        host = words[0]
    elif cmd.name == "wmic" and "create" in words and "call" in words:
        host = next((w.split(":", 1)[1] for w in words if w.startswith("/node:")), "")
    elif cmd.name == "schtasks" and "/create" in words and "/s" in words[:-1]:
        host = words[words.index("/s") + 1]
    elif cmd.name == "at" and words[:1] and words[0].startswith("\\\\") and len(words) > 2:
        host = words[0]  # at \\HOST 23:00 PROGRAM (Windows' old scheduler)
    elif cmd.name in ("invoke-command", "icm"):
        named, _ = _params(cmd)
        host = _param(named, "computername", "cn", "hostname") or ""
    elif cmd.name in ("invoke-wmimethod", "invoke-cimmethod"):
        named, _ = _params(cmd)
        if (_param(named, "name", "methodname") or "").lower() == "create":
            host = _param(named, "computername", "cn") or ""
    elif cmd.name in ("psexec", "psexec64", "paexec", "winrs") and (
            # run with the caller's own rights, a remote console asks (an administrator's everyday tool); copying a
            # program over (-c) or running one from a staging folder is what installs code on the other machine
            "-c" in words or any(_staged(cmd, w) for w in cmd.argv[1:] if not w.startswith(("-", "/", "\\\\")))):
        host = next((w for w in words if w.startswith("\\\\")), "") or \
            next((w.split(":", 1)[1] for w in words if w.startswith(("-r:", "/r:", "-remote:", "/remote:"))), "")
    if host and _other_host(host.split(",")[0]):
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{cmd.name} runs a program on another machine ({host.strip(chr(92))[:40]}): lateral movement"
                    f"{where}", cmd.span))


# the programs Windows starts from the logon screen, before anyone logs in: replaced, each is a SYSTEM shell
_ACCESSIBILITY = re.compile(r"(^|[\\/])(sethc|utilman|osk|magnify|narrator|displayswitch|atbroker)(\.exe)?$", re.I)


def _accessibility(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """An accessibility program of the logon screen taken over (takeown, icacls /grant), or replaced by a copy:
    whoever presses its key at the logon screen gets a SYSTEM shell."""
    words = cmd.words[1:]
    operands = [w for w in words if not w.startswith(("/", "-")) or w.count("/") > 1 or w.count("\\") > 0]
    if cmd.name == "takeown":
        targets = [words[k + 1] for k, w in enumerate(words[:-1]) if w == "/f"]
    elif cmd.name in ("icacls", "cacls"):
        changes = any(w.startswith(("/grant", "/setowner", "/deny", "/reset", "/remove")) or w in ("/e", "/g", "/p")
                      for w in words)
        targets = operands[:1] if changes else []
    else:  # copy, move, Copy-Item, rename: what is written (and, for a move or rename, what is moved away)
        moves = cmd.name in ("move", "move-item", "rename-item", "ren", "rename")
        if cmd.name in ("copy-item", "move-item", "rename-item"):
            named, positional = _params(cmd)
            dest = _param(named, "destination", "newname") or (positional[1] if len(positional) > 1 else "")
            src = _param(named, "path", "literalpath") or (positional[0] if positional else "")
            targets = [w.lower() for w in (dest, src if moves else "") if w]
        else:
            targets = (operands if moves else operands[-1:]) if len(operands) > 1 else []
    hit = next((t for t in targets if _ACCESSIBILITY.search(t.strip("'\""))), None)
    if hit:
        add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                    f"{cmd.name} takes over or replaces {hit.strip(chr(39) + chr(34))[:60]}, a program the logon "
                    f"screen starts as SYSTEM: a shell for anyone at the logon screen{where}", cmd.span))
    elif cmd.name in ("copy", "xcopy", "robocopy", "copy-item") and len(operands) > 1 and \
            _ACCESSIBILITY.search(operands[0].strip("'\"")):
        add(Finding("confirm.shell.system-write", Risk.HIGH,
                    f"{cmd.name} copies {operands[0][:60]}, a program the logon screen starts as SYSTEM, aside: the "
                    f"first step of replacing it{where}", cmd.span))


def _acl_takeover(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Set-Acl writing an access rule (built with FileSystemAccessRule) onto a system program or a logon-screen
    accessibility program: the file is then anyone's to replace."""
    named, positional = _params(cmd)
    target = (_param(named, "path", "literalpath") or (positional[0] if positional else "")).strip("'\"")
    path = resolve_path(target, cmd.cwd or None) or ""
    if not (_ACCESSIBILITY.search(target) or _SYSTEM_DIR.match(path)):
        return
    source = analysis.source.lower()
    if "filesystemaccessrule" in source or "setaccessrule" in source or "setowner" in source:
        add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                    f"Set-Acl grants rights on {target[:60]}, a system program: whoever gets them can replace it"
                    f"{where}", cmd.span))


def _password_vault(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """The Windows credential locker opened and every saved password read out of it."""
    if any("passwordvault" in w for w in cmd.words[1:]):
        source = analysis.source.lower()
        if "retrieveall" in source or "retrievepassword" in source or "findallby" in source:
            add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                        f"reads the passwords saved in the Windows credential locker (PasswordVault){where}",
                        cmd.span))


# a program path built from a drive found by its volume label, then run (`& (...)`, `.(...)`, Start-Process)
_LABELLED_RUN = re.compile(r"(?:^|[\s;(\"'])(?:&|\.)\s*\(|\bstart-process\b|\bsaps\b|\binvoke-item\b|\bii\b|"
                           r"\binvoke-expression\b|\biex\b", re.I)
_SCRIPT_EXT = re.compile(r"\.(?:exe|cmd|bat|ps1|vbs|js|hta|scr)\b", re.I)


def _labelled_drive(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A drive looked up by its volume label (`gwmi win32_volume -f label=...`, `Get-Volume -FileSystemLabel`)
    and a program on it run: a payload carried in on a removable drive, wherever Windows mounted it."""
    words = cmd.words[1:]
    labelled = any("label=" in w for w in words) if cmd.name != "get-volume" else \
        any(w in ("-filesystemlabel", "-friendlyname") for w in words)
    if not labelled or (cmd.name != "get-volume" and "win32_volume" not in words):
        return
    source = analysis.source
    if _LABELLED_RUN.search(source) and _SCRIPT_EXT.search(source):
        add(Finding("confirm.shell.unknown-program", Risk.HIGH,
                    f"runs a program from a drive found by its label (a removable drive): what it does is unknown"
                    f"{where}", cmd.span))


# package-manager settings that switch off a check on what gets installed
_RELAXING = {
    "winget": re.compile(r"^(?:localmanifestfiles|installerhashoverride|bypasscertificatepinningformicrosoftstore|"
                         r"localarchivemalwarescanoverride|proxycommandlineoptions)$"),
    "choco": re.compile(r"^(?:allowemptychecksums|allowemptychecksumssecure|allowglobalconfirmation)$"),
}


def _package_settings(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`winget settings --enable LocalManifestFiles`, `choco feature enable -n allowEmptyChecksums`: installs
    no longer checked against their hash, certificate or malware scan."""
    words = list(cmd.words[1:])
    enables = (cmd.name == "winget" and words[:1] == ["settings"] and "--enable" in words) or \
        (cmd.name == "choco" and words[:2] == ["feature", "enable"])
    hit = next((w.split("=", 1)[-1] for w in words if _RELAXING[cmd.name].match(w.split("=", 1)[-1])), None)
    if enables and hit:
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                    f"{cmd.name} turns on {hit}: packages installed afterwards skip a safety check{where}", cmd.span))


# a program kept in a file's alternate data stream (`readme.txt:payload.exe`), not a drive letter or a URL
_STREAM = re.compile(r"(?:^|[\s\"'\\/])[\w .-]+\.[a-z0-9]{1,5}:[\w.-]+\.(exe|dll|ps1|vbs|vbe|js|jse|bat|cmd|hta|"
                     r"scr|com|wsf|sct)\b", re.I)
_STREAM_RUNNERS = frozenset({"wmic", "start", "start-process", "rundll32", "regsvr32", "wscript", "cscript", "mshta",
                             "forfiles", "cmd", "invoke-wmimethod", "invoke-cimmethod"})


def _stream_run(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A program run out of a file's alternate data stream: hidden from a directory listing and from most
    scanners (ATT&CK: hide artifacts, NTFS file attributes)."""
    m = _STREAM.search(" " + " ".join(cmd.argv))
    if m:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} runs a program kept in a file's hidden data stream ({m.group(0).strip()[:60]})"
                    f"{where}", cmd.span))


# proxy execution: a signed system program made to run a setup file or library the caller placed
_USER_STAGING = re.compile(r"^/home/~/(downloads|appdata)/|^/c:/users/[^/]+/(downloads|appdata)/|^/(tmp|var/tmp)/")


# the person's own downloads folder: where an installer they fetched is saved
_DOWNLOADED = re.compile(r"^/home/~/downloads/|^/c:/users/[^/]+/downloads/", re.I)
_SHARED_FOLDER_VAR = re.compile(r"%(public|appdata|localappdata|programdata)%", re.I)


def _staged(cmd: Command, word: str) -> bool:
    w = word.strip("'\"{}")
    if _TEMP_VAR.match(w.lower()) or _SHARED_FOLDER_VAR.match(w):
        return True
    path = resolve_path(w, cmd.cwd or None)
    return path is not None and bool(_STAGING.search(path) or _USER_STAGING.search(path)) and \
        not _SYSTEM_DIR.search(path)


def _proxy_setup(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """cmstp installing a profile (.inf), msiexec installing a package quietly, odbcconf registering a DLL,
    installutil / regasm / regsvcs loading an assembly, mavinject injecting a DLL into a running process,
    control opening a .cpl, each from a folder where payloads are staged: the
    setup code runs inside a signed system program, past allow-lists (ATT&CK: system binary proxy execution)."""
    words = cmd.words[1:]
    args = [w for w in cmd.argv[1:] if not w.startswith(("/", "-")) or w.count("\\") or w.count("/") > 1]
    name = cmd.name
    if name == "odbcconf":
        joined = " ".join(cmd.argv[1:])
        m = re.search(r"regsvr\s+([^}\s]+)", joined, re.I)
        args = [m.group(1)] if m else [w for k, w in enumerate(cmd.argv[1:], 1) if cmd.words[k - 1] in ("-f", "/f")]
    elif name == "msiexec":
        if not any(w in ("/q", "/qn", "/quiet", "/qb", "/passive") or w.startswith("/q") for w in words):
            return
        args = [cmd.argv[k + 1] for k, w in enumerate(cmd.words[:-1]) if w in ("/i", "/package", "/a", "/j", "/y")]
    hit = next((a for a in args if _staged(cmd, a) or (name == "msiexec" and "://" in a)), None)
    if hit and name == "msiexec" and "://" not in hit and _DOWNLOADED.search(resolve_path(hit.strip("'\"{}"),
                                                                                         cmd.cwd or None) or ""):
        return  # a package saved in Downloads installed quietly: an ordinary install (it asks as an install)
    if hit:
        add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                    f"{name} runs the setup code of {hit.strip(chr(39) + chr(34))[:60]}, a file from a folder where "
                    f"payloads are staged, inside a signed system program{where}", cmd.span))


_ROOT_STORE = frozenset({"root", "authroot", "ca", "trustedpublisher"})


def _trust_root(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A certificate from a staging folder or a download made a trusted root (certutil -addstore Root,
    Import-Certificate into Cert:\\...\\Root): every connection it signs is then trusted, so traffic can be
    read and changed unseen."""
    if cmd.name == "certutil":
        words = cmd.words[1:]
        if not any(w.lstrip("-/") == "addstore" for w in words):
            return
        store = next((w for w in words if w in _ROOT_STORE), "")
        files = [a for a in cmd.argv[1:] if not a.startswith(("-", "/")) and a.lower() not in _ROOT_STORE]
    else:
        named, positional = _params(cmd)
        store = (_param(named, "certstorelocation") or "").lower().rstrip("\\")
        store = "root" if store.endswith("\\root") or store.endswith("\\authroot") else ""
        files = [f for f in (_param(named, "filepath"), *positional[:1]) if f]
    if not store:
        return
    hit = next((f for f in files if "://" in f or _staged(cmd, f)), None)
    if hit:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} makes the certificate {hit.strip(chr(39) + chr(34))[:60]} (from a staging folder or "
                    f"a download) a trusted root: connections it signs can be read and changed unseen{where}",
                    cmd.span))


class _RegistryValue(NamedTuple):
    names: frozenset[str]
    off: frozenset[str]
    decision: str
    why: str


_REGISTRY = DATA.get("windows_registry", {})
_REGISTRY_VALUES = tuple(_RegistryValue(frozenset(v["names"]), frozenset(v["off"]), v["decision"], v["why"])
                         for v in _REGISTRY.get("value", ()))
_SEP = re.compile(r"[\\/]+")
_REGISTRY_EVERYDAY_KEYS = tuple(_SEP.sub("", k) for k in _REGISTRY.get("everyday_keys", ()))
_REGISTRY_EVERYDAY_VALUES = frozenset(_REGISTRY.get("everyday_values", ()))
_REGISTRY_SECURITY_SERVICES = frozenset(_REGISTRY.get("security_services", ())) | _SECURITY_SERVICES_WIN
# trace keys with their separators taken out (a POSIX reading of an unquoted key drops the backslashes)
_REGISTRY_TRACES = tuple((tuple(_SEP.sub("", k) for k in t["keys"]), t["decision"], t["why"])
                         for t in _REGISTRY.get("trace", ()))
_HIVE = re.compile(r"^(?:\\\\[^\\/]+[\\/])?(?:(?:microsoft\.powershell\.core\\)?registry::)?"
                   r"(hklm|hkey_local_machine|hkcr|hkey_classes_root|hku|hkey_users|hkcc|hkey_current_config|"
                   r"hkcu|hkey_current_user)(?::|(?=[\\/]|$))", re.I)
_MACHINE_HIVES = frozenset({"hklm", "hkey_local_machine", "hkcr", "hkey_classes_root", "hku", "hkey_users", "hkcc",
                            "hkey_current_config"})
_REG_WRITES = frozenset({"add", "delete", "import", "copy", "restore", "load", "unload"})
_REG_DELETES = frozenset({"delete", "remove-item", "remove-itemproperty", "clear-itemproperty", "clear-item"})
_SERVICE_KEY = re.compile(r"[\\/]services[\\/]([^\\/]+)[\\/]?$", re.I)
_LOG_SWITCH_KEY = re.compile(r"[\\/](wmi[\\/]autologger|winevt[\\/]channels)[\\/]", re.I)
_DEFENDER_EXCLUSION_KEY = re.compile(r"windows defender[\\/]+exclusions[\\/]", re.I)


# security products by the names their registry keys and services carry (`[winpriv_security_products]` of
# resources/programs.toml): a key as its path components, a service by its name
_PRODUCTS = DATA.get("winpriv_security_products", {})
_PRODUCT_KEYS = tuple(tuple(p.lower().split("\\")) for p in _PRODUCTS.get("registry", ()))
_PRODUCT_SERVICES = frozenset(s.lower() for s in _PRODUCTS.get("services", ()))
_PRODUCT_FOLDER = re.compile(r"^(?:/?[a-z]:[\\/]+(?:program files(?: \(x86\))?|programdata)|%programfiles(?:\(x86\))?%|"
                             r"%programdata%|\$env:programfiles(?:\(x86\))?|\$env:programdata)[\\/]+(?P<rest>.+)$",
                             re.I)


def security_product(path: str) -> str | None:
    """The security product a registry key or a program folder belongs to (its vendor's or product's name), or
    None. A key under Policies is a setting about a product, not the product: not one."""
    parts = [p for p in _SEP.split(path.strip("'\"").lower()) if p]
    if "policies" in parts:
        return None
    for name in _PRODUCT_KEYS:
        n = len(name)
        for i in range(len(parts) - n + 1):
            if tuple(parts[i:i + n]) == name:
                return "\\".join(name)
    return None


_UPSTREAM_LISTERS = frozenset({"get-childitem", "gci", "get-item", "gi", "dir", "ls"})


def _product_removed(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A security product's program folder or its registry key deleted (Remove-Item, rd /s, del, reg delete):
    the protection, or the second factor of a logon, removed by hand (`block.shell.defense-evasion`)."""
    if cmd.name == "reg":
        words = [w.lower() for w in cmd.argv[1:]]
        if words[:1] != ["delete"] or len(cmd.argv) < 3 or "/v" in words or "/ve" in words:
            return
        targets = [cmd.argv[2]]
    else:
        named, positional = _params(cmd)
        targets = [t for t in (_param(named, "path", "literalpath"), *positional) if t]
        if not targets:  # `Get-ChildItem HKLM:\...\AMSI\Providers | Remove-Item`: what is listed is deleted
            for up in (analysis.commands[i] for i in cmd.upstream if analysis.commands[i].name in _UPSTREAM_LISTERS):
                up_named, up_positional = _params(up)
                targets += [t for t in (_param(up_named, "path", "literalpath"), *up_positional[:1]) if t]
    for target in targets:
        folder = _PRODUCT_FOLDER.match(target.strip("'\""))
        keyed = _HIVE.match(target.strip("'\""))
        if not (folder or keyed):
            continue
        product = security_product(folder.group("rest") if folder else target)
        if product is not None:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{cmd.name} deletes {target[:80]}, the "
                        f"{'registry key' if keyed else 'program folder'} of a security product ({product}): its "
                        f"protection is taken off the machine{where}", cmd.span))
            return


_PRODUCT_NAMES = re.compile(r"(?<![a-z0-9])(?:" + "|".join(re.escape(p) for p in _PRODUCTS.get("registry", ())
                                                             if "\\" not in p) + r")(?![a-z0-9])", re.I)


def _product_uninstalled(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Uninstall-Package of a security product, by its name or fed by Get-Package (`block.shell.defense-evasion`)."""
    named, positional = _params(cmd)
    names = [n for n in (_param(named, "name"), *positional[:1]) if n]
    for up in (analysis.commands[i] for i in cmd.upstream if analysis.commands[i].name == "get-package"):
        up_named, up_positional = _params(up)
        names += [n for n in (_param(up_named, "name"), *up_positional[:1]) if n]
    hit = next((m for n in names if (m := _PRODUCT_NAMES.search(n.replace("*", " ")))), None)
    if hit is not None:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{cmd.name} removes {hit.group(0)}, a security "
                    f"product: its protection is taken off the machine{where}", cmd.span))


def _product_service(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`sc delete|stop|config start= disabled` of a security product's service (an EDR sensor, an anti-virus
    engine, a logon's second factor): `block.shell.defense-evasion`."""
    words = [w.lower().strip("'\"") for w in cmd.argv[1:]]
    if words and words[0].startswith("\\\\"):
        words = words[1:]
    if len(words) < 2 or words[0] not in ("delete", "stop", "config"):
        return
    if words[0] == "config" and not any(w in ("disabled", "start=disabled") for w in words[2:]):
        return
    if words[1] in _PRODUCT_SERVICES:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"sc {words[0]} {words[1][:60]}: takes down a "
                    f"security product's service{where}", cmd.span))


_FILE_READERS = frozenset({"type", "get-content", "gc", "more", "findstr", "select-string", "sls", "import-clixml"})
# the folders a Windows path names by a variable (`%WINDIR%\Panther`, `$env:ProgramData\...`), as a drive path
_FOLDER_VARIABLE = re.compile(r"^(?:%(?P<cmd>windir|systemroot|systemdrive|programdata|allusersprofile|appdata|"
                              r"localappdata|userprofile)%|\$env:(?P<ps>windir|systemroot|systemdrive|programdata|"
                              r"allusersprofile|appdata|localappdata|userprofile))(?=[\\/]|$)", re.I)
_FOLDER_OF = {"windir": "C:\\Windows", "systemroot": "C:\\Windows", "systemdrive": "C:",
              "programdata": "C:\\ProgramData", "allusersprofile": "C:\\ProgramData",
              "appdata": "C:\\Users\\user\\AppData\\Roaming",
              "localappdata": "C:\\Users\\user\\AppData\\Local", "userprofile": "C:\\Users\\user"}


def _credential_file_read(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A Windows file that keeps passwords (an answer file, a Group Policy Preferences file, IIS's settings, a
    credential vault: `[files] credentials` of the policy) printed by type, Get-Content or findstr: read as a
    file_read of it is (`block.shell.credential-read`)."""
    named, positional = _params(cmd)
    for word in (_param(named, "path", "literalpath"), *positional):
        var = _FOLDER_VARIABLE.match(word or "")
        if var is not None:
            word = _FOLDER_OF[(var.group("cmd") or var.group("ps")).lower()] + word[var.end():]
        if not word or not (word[1:3] in (":\\", ":/") or word.startswith("\\\\")):
            continue
        path = resolve_path(word.replace("\\", "/"), cmd.cwd or None) or word.lower().replace("\\", "/")
        if d.credential_files.search(path):
            add(Finding("block.shell.credential-read", Risk.CRITICAL, f"{cmd.name} prints {word[:80]}: a file "
                        f"that keeps passwords (as a file_read of it){where}", cmd.span))
            return


def _datum(value: str) -> str:
    """Registry data compared as written: a number in any base as its decimal, PowerShell's $true/$false as
    true/false, anything else folded."""
    v = value.strip().strip("'\"").lower().removeprefix("$")
    try:
        return str(int(v, 16) if v.startswith("0x") else int(v))
    except ValueError:
        return v


def _registry_parts(cmd: Command) -> tuple[str, str, str, str] | None:
    """(verb, key, value name, data) of a registry change, folded; None for a read or a non-registry path.
    The verb is reg's (`add`, `delete`, ...) or the cmdlet's name."""
    if cmd.name == "reg":
        words = [w.lower() for w in cmd.argv[1:]]
        if not words or words[0] not in _REG_WRITES:
            return None
        key = cmd.argv[3] if words[0] == "copy" and len(cmd.argv) > 3 else (cmd.argv[2] if len(cmd.argv) > 2 else "")
        value = _value_after(words, "/v") or ("(default)" if "/ve" in words else "")
        data = _value_after(cmd.argv[1:], "/d", "/D")
        return words[0], key.lower(), value.lower(), data
    named, positional = _params(cmd)
    key = _param(named, "path", "literalpath") or (positional.pop(0) if positional else "")
    if not _HIVE.match(key):
        return None
    value = _param(named, "name") or (positional.pop(0) if positional else "")
    data = _param(named, "value") or (positional.pop(0) if positional else "")
    return cmd.name, key.lower(), value.lower(), data


def _registry_writes(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A registry change judged by what it changes: a protection, a log or an account safeguard switched off by
    its value (`[windows_registry]` of resources/programs.toml), a security or logging service disabled (Start
    = 4) or its key deleted, a Defender exclusion added, the record of what was run erased (RunMRU, typed
    paths); any other change of the machine's hives (HKLM, HKCR, HKU) asks as a system change. regedit /s and
    reg import apply a file unseen: they ask too. The user's own settings (HKCU) pass, and so does a protection's
    value or a security service's Start set to turn it on (RunAsPPL = 1, WinDefend Start = 2)."""
    if cmd.name in ("regedit", "regedt32"):
        words = [w.lower() for w in cmd.argv[1:]]
        files = [w for w in words if not w.startswith(("/", "-"))]
        if files and not any(w in ("/e", "-e", "/a", "-a") for w in words):
            add(Finding("confirm.shell.system-state", Risk.HIGH, f"{cmd.name} imports {cmd.argv[-1][:60]} into the "
                        f"registry{' without asking' if '/s' in words or '-s' in words else ''}: system settings "
                        f"changed by a file{where}", cmd.span))
        return
    parts = _registry_parts(cmd)
    if parts is None:
        return
    verb, key, value, data = parts
    hive = _HIVE.match(key)
    deletes = verb in _REG_DELETES
    datum = _datum(data) if data else ""
    shown = f"{value} = {data}" if value else key[:80]
    if not deletes and value and datum:
        known = [v for v in _REGISTRY_VALUES if value in v.names]
        hit = next((v for v in known if datum in v.off), None)
        if hit is not None:
            block = hit.decision == "block"
            add(Finding("block.shell.defense-evasion" if block else "confirm.shell.defense-evasion",
                        Risk.CRITICAL if block else Risk.HIGH, f"{cmd.name} sets {shown}: {hit.why}{where}",
                        cmd.span))
            return
        if known:
            return  # a protection's value set to anything but off (RunAsPPL = 1): a protection turned on
    service = _SERVICE_KEY.search(key)
    if service is not None:
        name = service.group(1)
        guarded = name in _REGISTRY_SECURITY_SERVICES or name in d.security or name in _PRODUCT_SERVICES or \
            bool(_SECURITY_SERVICE_WORDS.search(name))
        if guarded and value == "start" and datum in ("0", "1", "2"):
            return  # a security or logging service set to start with Windows: turned back on
        disabled = (value == "start" and datum == "4") or (deletes and not value and verb != "clear-itemproperty")
        if disabled and guarded:
            how = "removes" if deletes else "disables"
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{cmd.name} {how}"
                        f" the {name} service, a security or logging service: what happens next is not stopped or "
                        f"not recorded{where}", cmd.span))
            return
        if disabled:
            add(Finding("confirm.shell.system-disruption", Risk.HIGH, f"{cmd.name} "
                        f"{'removes' if deletes else 'disables'} the {name} service{where}", cmd.span))
            return
    if _LOG_SWITCH_KEY.search(key) and value in ("start", "enabled") and datum == "0" and not deletes:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{cmd.name} sets {shown} under {key[:80]}: switches "
                    f"an event log or trace session off{where}", cmd.span))
        return
    if _DEFENDER_EXCLUSION_KEY.search(key) and not deletes:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{cmd.name} adds a Defender exclusion "
                    f"({value or key[-60:]}): files or processes left unscanned{where}", cmd.span))
        return
    if deletes:
        flat = _SEP.sub("", key)
        trace = next((t for t in _REGISTRY_TRACES if any(k in flat for k in t[0])), None)
        if trace is not None:
            block = trace[1] == "block"
            add(Finding("block.shell.anti-forensics" if block else "confirm.shell.defense-evasion",
                        Risk.CRITICAL if block else Risk.HIGH, f"{cmd.name} deletes {key[:80]}: {trace[2]}{where}",
                        cmd.span))
            return
    if verb == "import":
        add(Finding("confirm.shell.system-state", Risk.HIGH, f"reg import applies {key[:60]} to the registry: "
                    f"system settings changed by a file{where}", cmd.span))
    elif hive is not None and hive.group(1).lower() in _MACHINE_HIVES and value not in _REGISTRY_EVERYDAY_VALUES and \
            not any(k in _SEP.sub("", key) for k in _REGISTRY_EVERYDAY_KEYS):
        add(Finding("confirm.shell.system-state", Risk.HIGH, f"{cmd.name} {'deletes' if deletes else 'changes'} "
                    f"{shown} in the machine's registry ({key[:60]}): a system setting{where}", cmd.span))


# the logs an investigation reads first: security and system events, Sysmon, PowerShell, Defender, remote logons
_KEY_LOGS = re.compile(r"^(security|system|setup|windows powershell|microsoft-windows-(sysmon|powershell|windows "
                       r"defender|windows firewall with advanced security|terminalservices|taskscheduler|wmi-activity|"
                       r"bits-client|codeintegrity|applocker|smbserver|security-auditing)\b)", re.I)
_LOG_MOVED = re.compile(r"^/(lfn|logfilename)(:|$)", re.I)
_LOG_CHANGED = re.compile(r"^/(ms|maxsize|rt|retention|ab|autobackup|ca|channelaccess|i|isolation|lvl|level|k|keywords)"
                          r"(:|$)", re.I)


def _log_off(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """An event log switched off, moved or reshaped by wevtutil: `sl LOG /e:false` turns it off and
    `sl LOG /lfn:PATH` sends its events to another file (the log read by collectors stops growing): both block;
    a size, retention, access or level change asks, and a key log (Security, System, Sysmon, PowerShell,
    Defender) made smaller than its 20 MB default blocks; uninstalling a provider's manifest (`um`) asks."""
    words = cmd.words[1:]
    log = cmd.argv[2] if len(cmd.argv) > 2 else ""
    if words[:1] and words[0] in ("sl", "set-log") and any(w in ("/e:false", "/enabled:false", "/e:0") for w in words):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"wevtutil switches the event log {log} off: what happens "
                    f"next is not recorded{where}", cmd.span))
    elif words[:1] and words[0] in ("sl", "set-log") and any(_LOG_MOVED.match(w) for w in words[2:]):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"wevtutil moves the event log {log} to another file: what happens next is not recorded where "
                    f"it is looked for{where}", cmd.span))
    elif words[:1] and words[0] in ("sl", "set-log") and any(_LOG_CHANGED.match(w) for w in words[2:]):
        size = next((_datum(w.partition(":")[2]) for w in words[2:] if w.startswith(("/ms:", "/maxsize:"))), "")
        # a key log made small (below its 20 MB default) drops its events as soon as they come
        key = bool(_KEY_LOGS.match(log.strip("'\""))) and size.isdigit() and int(size) < 20 * 1024 * 1024
        add(Finding("block.shell.defense-evasion" if key else "confirm.shell.defense-evasion",
                    Risk.CRITICAL if key else Risk.HIGH, f"wevtutil changes how the event log {log} is kept (size, "
                    f"retention, access): older events can be lost or hidden{where}", cmd.span))
    elif words[:1] and words[0] in ("um", "uninstall-manifest"):
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"wevtutil uninstalls an event provider's manifest: "
                    f"its events are no longer recorded{where}", cmd.span))


_CONTENT_WRITERS = frozenset({"set-content", "add-content", "ac", "out-file", "clear-content", "clc", "export-csv",
                              "export-clixml", "start-transcript", "tee-object"})


def _content_writes(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    r"""A cmdlet that writes a file's content (Set-Content, Add-Content, Out-File, ...) given a file in the
    Windows system directories by -Path / -FilePath or as its first word (`Add-Content -Path
    C:\Windows\System32\drivers\etc\hosts`): judged as `echo x > C:\Windows\...` is."""
    named, positional = _params(cmd)
    target = _param(named, "path", "literalpath", "filepath") or (positional[0] if positional else "")
    if target and cmd.name not in ("clear-content", "clc") and _PS_PROFILE_TARGET.search(target.strip("'\"")):
        add(Finding("confirm.shell.persistence", Risk.HIGH, f"{cmd.name} writes PowerShell's profile "
                    f"({target.strip(chr(39) + chr(34))[:60]}): it runs at every PowerShell start{where}", cmd.span))
    elif target and cmd.name not in ("clear-content", "clc"):
        _startup_content(d, cmd, analysis, target.strip("'\""), _param(named, "value") or "", where, add)
    if target and _WIN_SYSTEM_FILE.match(target.strip("'\"")):
        add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                    f"{cmd.name} writes into the Windows system directory ({target.strip(chr(39) + chr(34))[:60]})"
                    f"{where}", cmd.span))


def _startup_content(d: Detector, cmd: Command, analysis: ShellAnalysis, target: str, value: str, where: str,
                     add: Add) -> None:
    """Text written by a cmdlet into a file that runs later (a startup folder, a Python start-up hook, an Office
    start-up folder, a shell's rc file): as `echo TEXT > FILE` is judged. A network shell in it blocks."""
    path = resolve_path(target, cmd.cwd or None) or target.lower().replace("\\", "/")  # `$dir\usercustomize.py`
    if not d.persistence_path(path):
        return
    texts = [value, *(" ".join(c.argv[1:]) for c in (analysis.commands[i] for i in cmd.upstream)
                      if c.name in ("write-output", "echo", "write", "printf"))]
    if any(t and (_NET_SHELL_TEXT.search(t) or _runs_network_shell(d, t)) for t in texts):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} writes a network shell into {display_path(path)}, where it runs later{where}",
                    cmd.span))
    elif _STARTUP_SCRIPT.search(path):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} writes the script {display_path(path)} into the Startup folder: it runs at every "
                    f"logon{where}", cmd.span))
    else:
        add(Finding("confirm.shell.persistence", Risk.MEDIUM,
                    f"{cmd.name} writes {display_path(path)}, a file that runs later (start-up, hooks){where}",
                    cmd.span))


# a script or shortcut in a Startup folder: Windows runs it at every logon
_STARTUP_SCRIPT = re.compile(r"/start menu/programs/startup/[^/]+\.(?:cmd|bat|vbs|vbe|js|jse|wsf|wsh|hta|ps1|lnk|"
                             r"url|scf|sct|pif)$", re.I)
# PowerShell's profile: the variable (any scope) or one of its files
_PS_PROFILE_TARGET = re.compile(r"^\$profile(\.(current|all)users(current|all)hosts)?$|(^|[/\\])(microsoft\."
                                r"(powershell|vscode)_)?profile\.ps1$", re.I)
_WIN_SYSTEM_FILE = re.compile(r"^([a-z]:|%systemroot%|%windir%|\$env:(systemroot|windir))[\\/]?"
                              r"(windows[\\/]|program ?files|system32|syswow64)", re.I)


class _CloudEffect(NamedTuple):
    nouns: re.Pattern[str]  # over the folded noun (`azstoragecontainer`)
    verbs: frozenset[str]
    match: re.Pattern[str] | None  # over the folded arguments joined by spaces; None: any use
    unless: re.Pattern[str] | None
    block: bool
    rule: str
    why: str
    example: str


_CLOUD_EFFECT_KEYS = frozenset({"nouns", "verbs", "match", "unless", "decision", "rule", "why", "example"})


def load_cloud_effects(data: dict) -> tuple[_CloudEffect, ...]:
    """The [[cloud_cmdlet]] entries of a program table; a malformed one raises ValueError naming it."""
    out = []
    for k, spec in enumerate(data.get("cloud_cmdlet", ())):
        where = f"programs.toml [[cloud_cmdlet]] #{k + 1}"
        if set(spec) - _CLOUD_EFFECT_KEYS or not {"nouns", "verbs", "decision", "rule", "why", "example"} <= set(spec):
            raise ValueError(f"{where}: keys must be among {sorted(_CLOUD_EFFECT_KEYS)}, with nouns, verbs, "
                             "decision, rule, why and example")
        if spec["decision"] not in ("block", "confirm") or not spec["rule"].startswith(spec["decision"] + "."):
            raise ValueError(f"{where}: decision must be block or confirm, and the rule of that decision")
        out.append(_CloudEffect(re.compile(spec["nouns"], re.I), frozenset(v.lower() for v in spec["verbs"]),
                                re.compile(spec["match"], re.I | re.S) if spec.get("match") else None,
                                re.compile(spec["unless"], re.I | re.S) if spec.get("unless") else None,
                                spec["decision"] == "block", spec["rule"], spec["why"], spec["example"]))
    return tuple(out)


CLOUD_EFFECTS = load_cloud_effects(DATA)
_CLOUD_VERBS = frozenset({v for e in CLOUD_EFFECTS for v in e.verbs} | CLOUD.remove_verbs)
# Exchange Online's nouns carry no module prefix (`Add-MailboxPermission`): the nouns the entries name are theirs
_CLOUD_NOUNS = re.compile("|".join(f"(?:{e.nouns.pattern})" for e in CLOUD_EFFECTS), re.I)


def _cloud_cmdlet_parts(name: str, written: str = "") -> tuple[str, str] | None:
    verb, dash, noun = name.partition("-")
    if not dash or verb not in _CLOUD_VERBS:
        return None
    return cloud_parts(name, written) or ((verb, noun) if _CLOUD_NOUNS.search(noun) else None)


def cloud_cmdlet(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A cloud or SaaS module's cmdlet judged by its verb and noun (see the module docstring)."""
    parts = _cloud_cmdlet_parts(cmd.name, cmd.argv[0])
    if parts is None:
        return
    verb, noun = parts
    args = " ".join(cmd.words[1:])
    for e in CLOUD_EFFECTS:
        if verb in e.verbs and e.nouns.search(noun) and (e.match is None or e.match.search(args)) and \
                not (e.unless and e.unless.search(args)):
            add(Finding(e.rule, Risk.CRITICAL if e.block else Risk.HIGH, f"{cmd.argv[0]}: {e.why}{where}",
                        cmd.span))
            return
    if verb in CLOUD.remove_verbs and cloud_parts(cmd.name, cmd.argv[0]) is not None:
        add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.argv[0]}: removes a cloud or SaaS resource and "
                    f"what it holds{where}", cmd.span))


# PowerShell's approved verbs name what a cmdlet does to its noun: one that disables or uninstalls a protection
# switches it off, whatever module it comes from (`Disable-BitLocker`, `Disable-XyzSecurityConfiguration`,
# `Uninstall-XyzAntivirus`). Rules, groups and policies of a protection are other nouns: disabling one rule may
# well harden, and asks as any unknown cmdlet does.
_OFF_VERBS = frozenset({"disable", "uninstall"})
_PROTECTION_NOUN = re.compile(r"(security|defender|antivirus|antimalware|antispyware|firewall|bitlocker|encryption|"
                              r"tamperprotection|smartscreen|applocker|credentialguard|deviceguard|exploitprotection|"
                              r"auditing|edr)")
_NOT_PROTECTION_OFF = re.compile(r"(rule|group|policy|exclusion|alert|notification|log$|baseline)")


def _protection_off(name: str) -> str | None:
    """The protection a `Disable-`/`Uninstall-` cmdlet names (`disable-bitlocker` → bitlocker), else None."""
    verb, dash, noun = name.partition("-")
    if not dash or verb not in _OFF_VERBS or _NOT_PROTECTION_OFF.search(noun):
        return None
    m = _PROTECTION_NOUN.search(noun)
    return m.group(1) if m else None


def _protection_cmdlet(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    what = _protection_off(cmd.name)
    if what is not None and not any(w in ("-whatif", "-whatif:$true") for w in cmd.words[1:]):  # (only says what)
        add(Finding("block.shell.defense-evasion", Risk.HIGH, f"{cmd.name}: by PowerShell's verb, switches a "
                    f"protection ({what}) off{where}", cmd.span))


# PowerShell's SQL cmdlets handed a script file: what its statements do to the server is never read
_SQL_CMDLETS = frozenset({"invoke-sqlcmd", "invoke-dbaquery", "invoke-sqlquery"})
_SQL_FILE_PARAMS = ("inputfile", "file", "filepath")


def _sql_script_file(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`Invoke-Sqlcmd -InputFile x.sql`, `Invoke-DbaQuery -File x.sql`: a script the gate cannot read, run against
    a database server, asks as `sqlcmd -i x.sql` does (the statements of `-Query` are judged as they are)."""
    named, _ = _params(cmd)
    script = _param(named, *_SQL_FILE_PARAMS)
    if script is not None:
        add(Finding("confirm.shell.destructive", Risk.MEDIUM, f"{cmd.name} runs the SQL script {script[:60]}, which "
                    f"the gate cannot read, against a database: it may change or drop data{where}", cmd.span))


def _machine_setx(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`setx /M NAME VALUE`: a variable set for the whole machine (every user's programs start with it)."""
    if any(w in ("/m", "-m") for w in cmd.words[1:]):
        add(Finding("confirm.shell.system-state", Risk.MEDIUM, f"setx /M sets a machine-wide environment variable: "
                    f"every user's programs start with it{where}", cmd.span))


# scripts and programs that rewrite many Windows settings at once (debloaters, privacy and "optimisation" tweakers,
# hardening kits), by the words their names carry: what they switch off (Defender, updates, telemetry, services) is
# chosen inside them, out of sight of the line
_TWEAK_SCRIPT = re.compile(
    r"(?:^|[\\/._-])(?:sophia|sophiascript|debloat\w*|\w*debloater|decrap\w*|\w*tweaks?\w*|privacy\w*|"
    r"(?:windows|win\d*|system|pc)-?optimi[sz]\w*|optimi[sz]e-?(?:windows|win\d*|system|pc)\w*|"
    r"shutup\d*|oosu10|antispy\w*|spydish|blackbird|winutil|win1[01]debloat|tiny1[01]\w*|harden\w*|"
    r"w1[01]privacy|destroy-?windows-?spying|remove-?(?:defender|edge|onedrive|bloat\w*|windows-?apps)|"
    r"disable-?(?:defender|telemetry|windows-?update\w*|uac|firewall|smartscreen)|\w*telemetry\w*)"
    r"(?:[._-][^\\/]*)?\.(?:ps1|psm1|bat|cmd|exe|vbs)$", re.I)


def _tweak_script(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`.\\Sophia.ps1 -Functions ...`, `.\\Win11Debloat.ps1`, `OOSU10.exe cfg /quiet`: a script or program that rewrites
    many Windows settings at once asks (`confirm.shell.system-state`)."""
    word = cmd.argv[0].strip("'\"")
    if cmd.name in ("powershell", "pwsh"):  # `powershell -ExecutionPolicy Bypass -File .\\Debloat.ps1`
        low = [w.lower() for w in cmd.argv]
        at = next((k for k, w in enumerate(low) if w in ("-file", "-f")), None)
        word = cmd.argv[at + 1].strip("'\"") if at is not None and at + 1 < len(cmd.argv) else ""
    if word and _TWEAK_SCRIPT.search(word):
        add(Finding("confirm.shell.system-state", Risk.HIGH, f"runs {word[:60]}, a script that rewrites many Windows "
                    f"settings at once (services, updates, Defender, telemetry): what it changes is inside it{where}",
                    cmd.span))


def _several(*checks: Callable[[Detector, Command, ShellAnalysis, str, Add], None]
             ) -> Callable[[Detector, Command, ShellAnalysis, str, Add], None]:
    def run(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
        for check in checks:
            check(d, cmd, analysis, where, add)
    return run


def _autostart(check: Callable[[Command, ShellAnalysis, str, Add], None]
               ) -> Callable[[Detector, Command, ShellAnalysis, str, Add], None]:
    def run(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
        check(cmd, analysis, where, add)
    return run


_CHECKS: dict[str, Callable[[Detector, Command, ShellAnalysis, str, Add], None]] = {
    **dict.fromkeys(("copy", "xcopy", "robocopy", "copy-item"),
                    _several(_share_copies, _secret_copies, _accessibility)),
    **dict.fromkeys(("move", "move-item"), _several(_share_copies, _secret_copies, _accessibility, _system_moves)),
    **dict.fromkeys(("rename-item", "ren", "rename"), _several(_accessibility, _system_moves)),
    **dict.fromkeys(("takeown", "icacls", "cacls", "replace"), _accessibility),
    **dict.fromkeys(("at", "invoke-command", "icm", "winrs"), _lateral),
    "wmic": _several(_lateral, _stream_run),
    **dict.fromkeys(_STREAM_RUNNERS - {"wmic", "rundll32", "regsvr32", "invoke-wmimethod", "invoke-cimmethod"},
                    _stream_run),
    **dict.fromkeys(("invoke-wmimethod", "invoke-cimmethod"), _several(_lateral, _stream_run)),
    **dict.fromkeys(("rundll32", "regsvr32"), _several(_dll_runners, _stream_run)),
    **dict.fromkeys(("cmstp", "msiexec", "odbcconf", "installutil", "regasm", "regsvcs", "mavinject", "control"),
                    _proxy_setup),
    "import-certificate": _trust_root,
    "wevtutil": _log_off,
    **dict.fromkeys(_CONTENT_WRITERS, _content_writes),
    **dict.fromkeys(("powershell", "pwsh"), _several(_host, _tweak_script)),
    **dict.fromkeys(("net", "net1", "new-localuser", "add-localgroupmember", "set-localuser", "enable-localuser",
                     "remove-localuser", "remove-localgroupmember", "new-localgroup"), _accounts),
    **dict.fromkeys(("rundll32", "regsvr32"), _dll_runners),
    "remove-item": _several(_piped_deletes, _product_removed, _registry_writes),
    **dict.fromkeys(("ri", "rd", "rmdir", "del", "erase"), _product_removed),
    **dict.fromkeys(_FILE_READERS, _credential_file_read),
    "uninstall-package": _product_uninstalled,
    "set-acl": _acl_takeover,
    "get-bitlockervolume": _bitlocker_keys,
    **dict.fromkeys(("get-wmiobject", "gwmi", "get-ciminstance", "gcim", "get-volume"), _labelled_drive),
    "new-object": _password_vault,
    **dict.fromkeys(("winget", "choco"), _package_settings),
    **dict.fromkeys(("reg", "new-itemproperty", "set-itemproperty"), _several(_registry_blobs, _registry_writes)),
    **dict.fromkeys(("remove-itemproperty", "clear-itemproperty", "rename-itemproperty", "new-item", "set-item",
                     "clear-item", "regedit", "regedt32"), _registry_writes),
    **dict.fromkeys(("stop-service", "suspend-service", "remove-service", "set-service", "new-service"), _services),
    **dict.fromkeys(("bitsadmin", "desktopimgdownldr", "start-bitstransfer", "curl", "wget"), _downloads),
    "certutil": _several(_downloads, _trust_root),
    **dict.fromkeys(("invoke-webrequest", "invoke-restmethod"), _uploads),
    # autostart set up the way attackers do (gate/rules/shell_persistence.py)
    "sc": _several(_lateral, _product_service, _autostart(win_service)),
    "schtasks": _several(_lateral, _autostart(win_task)),
    "register-scheduledtask": _autostart(win_task),
    **dict.fromkeys(("psexec", "psexec64", "paexec"), _several(_lateral, _autostart(system_detached))),
    "osascript": _autostart(login_item),
    "setx": _machine_setx,
    **dict.fromkeys(_SQL_CMDLETS, _sql_script_file),
}
_CHECKS["new-service"] = _several(_services, _autostart(win_service))
_CHECKS["reg"] = _several(_registry_blobs, _product_removed, _registry_writes, _autostart(win_run_key))
for _n in ("new-itemproperty", "set-itemproperty"):
    _CHECKS[_n] = _several(_registry_blobs, _registry_writes, _autostart(win_run_key))


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """The Windows context checks that concern this command's program (none for most)."""
    check = _CHECKS.get(cmd.name)
    if check is not None:
        check(d, cmd, analysis, where, add)
    else:  # (a name of `NAMES` that `_CHECKS` does not hold: a cloud module's cmdlet, or a `.\program`)
        cloud_cmdlet(d, cmd, analysis, where, add)
        _protection_cmdlet(d, cmd, analysis, where, add)
        if cmd.argv[0].startswith((".\\", "./")) or cmd.name.endswith((".ps1", ".bat", ".cmd")):
            _tweak_script(d, cmd, analysis, where, add)
    if cmd.name not in _CHECKS and any(w in ("-accepteula", "/accepteula") for w in cmd.words[1:]):
        system_detached(cmd, analysis, where, add)  # PsExec renamed (`C:\\tools\\p.exe -accepteula -s ...`)
    if cmd.argv[0].startswith(".\\") and cmd.cwd and _STAGING.search(cmd.cwd.rstrip("/") + "/"):
        # `cd C:\Users\Public; .\u.exe`: not the project's own program, one waiting where payloads are staged
        path = resolve_path("./" + cmd.argv[0][2:].replace("\\", "/"), cmd.cwd)
        add(Finding("confirm.shell.unknown-program", Risk.MEDIUM, f"runs {display_path(path or cmd.argv[0])}, a "
                    f"program in a folder where payloads are staged{where}", cmd.span))


class _Names(frozenset[str]):
    """The names `judge` has a check for: those of `_CHECKS`, and every cmdlet name of a cloud module's form."""

    def __contains__(self, name: object) -> bool:
        return frozenset.__contains__(self, name) or (isinstance(name, str) and "-" in name and (
            _cloud_cmdlet_parts(name) is not None or _protection_off(name) is not None))


# the program names `judge` has a check for: a command of any other name, not run as `.\program`, meets none
NAMES = _Names(_CHECKS)
