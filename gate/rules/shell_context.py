"""Shell findings raised by context: what one command asks about becomes a block in the company it keeps.

The checks by effect (shell_destructive, shell_persistence, shell_privilege, ...) judge a command by what
it does; the same effect is ordinary or hostile by what goes with it. This module looks at the findings one
simple command already has and at the command around them, and adds the block they amount to:

- a root shell: an interactive shell (or a program handed a shell to start) reached through sudo/doas, and
  a setuid/setgid bit set as root or on a file given to root in the same command (`block.shell.suid-shell`);
- persistence whose payload hides: it sits in a temporary or per-user writable folder or a hidden folder,
  runs hidden or encoded, or a service's program line is a shell running a command
  (`block.shell.malicious-persistence`);
- a credential file copied out of its store (cp, esentutl /y, Copy-Item, ditto, a find that copies what it
  finds), and every credential file a search finds printed in a loop (`block.shell.credential-read`);
- attack tooling named by what it is: credential dumpers, UAC-bypass kits, Kerberos and lateral-movement kits
  (`block.shell.credential-dump`, `block.shell.defense-evasion`, `block.shell.remote-access`), and a remote
  execution tool given a password on its command line (`block.shell.remote-access`).

Called once per simple command from `Detector._run` (gate/rules/shell.py), after every other check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gate.model import Risk
from gate.shell import HOME, INTERPRETERS, SHELLS, Command, Finding, ShellAnalysis, display_path, resolve_path

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["escalate"]

Add = Callable[[Finding], None]

# a shell binary named inside a program's arguments (`ex -c ':!/bin/sh'`, `\write18{/bin/sh}`)
_SHELL_IN_ARGS = re.compile(r"(^|[\s!'\"{(:=;|])(/usr)?/bin/(ba|da|z|k|c|tc|fi|a)?sh\b")
_SETID_MODE = re.compile(r"[2-7][0-7]{3}|[ugoa]*[+=][rwxXt]*s[rwxXt]*")
_ROOT_CAPS = re.compile(r"cap_(setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|chown|fowner)")

# where a payload hides: temporary and per-user writable folders, hidden folders, and hidden/encoded launches
_STAGED = re.compile(
    r"%(temp|tmp|appdata|localappdata|public|userprofile)%|\$env:(temp|tmp|appdata|localappdata|public)|"
    r"\\appdata\\|\\users\\public\\|\\windows\\temp\\|\\programdata\\[^\\\s]+\.(exe|dll|ps1|bat|vbs|js)|"
    r"(^|[\s'\"=])(/private)?/(tmp|var/tmp|dev/shm)/|(^|/)\.[a-z0-9_-]+/[^\s/]+|"
    r"\s-w(indowstyle)?\s+hidden|\s-(e|ec|enc|encodedcommand)\s+[a-z0-9+/=]{16,}|frombase64string|"
    r"base64\s+(-d|--decode|-D)", re.I)
# a service whose program is a shell or interpreter running a command line
_SERVICE_SHELL = re.compile(r"binpath=\s*\S*(%comspec%|cmd(\.exe)?|powershell(\.exe)?|pwsh(\.exe)?|mshta|"
                            r"rundll32|regsvr32|wscript|cscript)\b", re.I)

# attack tooling by name (folded basenames; an architecture or numeric prefix/suffix is dropped before the look-up)
_TOOLS: dict[str, tuple[str, str]] = {}
for _names, _rule, _what in (
        (("nanodump", "dumpert", "outflank-dumpert", "safetykatz", "sharpkatz", "rubeus", "sharpdump", "lsassy",
          "handlekatz", "pypykatz", "mimikatz", "invoke-mimikatz", "lazagne", "sharpchrome", "sharpweb",
          "hackbrowserdata", "secretsdump", "impacket-secretsdump", "kerbrute", "sharproast", "invoke-kerberoast",
          "getuserspns", "impacket-getuserspns", "asreproast", "ppldump", "pplblade", "sqldumper-lsass"),
         "block.shell.credential-dump", "a credential-dumping or password-attack tool"),
        (("akagi", "akagi64", "akagi32", "uacme", "uacbypass", "invoke-uacbypass"),
         "block.shell.defense-evasion", "a User Account Control bypass kit"),
        (("psexec.py", "impacket-psexec", "wmiexec", "wmiexec.py", "impacket-wmiexec", "smbexec", "smbexec.py",
          "impacket-smbexec", "atexec", "atexec.py", "dcomexec", "dcomexec.py", "crackmapexec", "nxc", "evil-winrm",
          "sharprdp", "invoke-thehash", "invoke-wmiexec", "invoke-smbexec"),
         "block.shell.remote-access", "a lateral-movement kit that runs commands on other machines"),
):
    for _n in _names:
        _TOOLS[_n] = (_rule, _what)
_ARCH = re.compile(r"^(\d+[ _-]+)|([._-](x64|x86|amd64|arm64|64|32))+$")

# remote execution with a password on the command line
_REMOTE_EXEC = frozenset({"psexec", "psexec64", "paexec", "plink", "winrs", "wmic", "net", "schtasks"})
_PASSWORD_FLAG = re.compile(r"^([-/](p|pw|pass|password)(:|$)|--password(=|$))", re.I)
_INLINE_CRED = re.compile(r"^['\"]?[\w.-]*/[\w.-]+:[^@\s]+@[\w.-]+")  # impacket DOMAIN/user:pass@host


# a Windows path given unquoted to a POSIX parser loses its backslashes (`..\\payloads\\psexec.exe` reads as
# `..payloadspsexec`): the known name is then only the end of the folded name
_NAME_TAIL = re.compile("(" + "|".join(sorted((re.escape(n) for n in (*_TOOLS, *_REMOTE_EXEC) if len(n) >= 5),
                                              key=len, reverse=True)) + ")$")


def _base(name: str) -> str:
    """The program name with an architecture or numeric tag dropped, and recovered from a mangled path."""
    if name in _TOOLS or name in _REMOTE_EXEC:
        return name
    if name and (name[0].isdigit() or name[-1].isdigit()):
        name = _ARCH.sub("", name)
        if name in _TOOLS:
            return name
    if "." in name or "\\" in name or len(name) > 12:
        m = _NAME_TAIL.search(name)
        if m:
            return m.group(1)
    return name


def _password_given(cmd: Command) -> bool:
    words = cmd.argv[1:]
    for k, w in enumerate(words):
        m = _PASSWORD_FLAG.match(w)
        if m is None:
            continue
        if m.group(0).endswith((":", "=")):
            if len(w) > len(m.group(0)):
                return True
        elif k + 1 < len(words) and not words[k + 1].startswith("-"):
            return True
    if cmd.name == "net" and cmd.words[1:2] == ("use",):
        # net use \\host\share PASSWORD /user:NAME
        rest = [w for w in words[2:] if not w.startswith("/")]
        return bool(rest) and any(w.lower().startswith(("/u:", "/user:")) for w in words)
    return False


_COPIERS = frozenset({"cp", "gcp", "ditto", "install", "copy", "xcopy", "robocopy", "copy-item", "cpi", "esentutl",
                      "rsync", "move", "mv", "move-item", "mi"})
_PRINTERS = frozenset({"cat", "type", "get-content", "gc", "head", "tail", "strings", "base64", "xxd", "less", "more"})


def _credential_copy(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """A credential file copied out of the home (to a temporary or shared folder, the project, another drive);
    a copy kept in one's own home, as a backup, is not."""
    ops = [(i, a) for i, a in enumerate(cmd.argv[1:], 1) if not a.startswith("-") and
           (i not in cmd.dynamic or a.lower().startswith(("$env:", "%")))
           and not (a.startswith("/") and len(a) <= 3 and cmd.name in ("esentutl", "robocopy", "xcopy", "copy"))]
    if cmd.found and cmd.name in ("cp", "gcp", "rsync", "install", "ditto") and any(a == "{}" for _, a in ops):
        return  # judged with the find that feeds it (credential-search)
    if len(ops) < 2:
        return
    dest = ops[-1][1]
    dest_path = resolve_path(dest.replace("\\", "/"), cmd.cwd or None)
    for _, a in ops[:-1]:
        path = resolve_path(a.replace("\\", "/"), cmd.cwd or None) or a.lower().replace("\\", "/")
        if not d.credential_files.search(path) and not _KEYCHAIN.search(path):
            continue
        if dest_path and dest_path.startswith(HOME + "/"):
            continue  # a copy kept in one's own home (`cp id_rsa ~/backup/`): asks as a secret read
        add(Finding("block.shell.credential-read", Risk.CRITICAL,
                    f"{cmd.name} copies the credential file {display_path(path)} out of its store "
                    f"(to {dest[:60]}){where}", cmd.span))
        return


_FIND_TAKES = re.compile(r"-(exec|execdir|ok|okdir)\s+(\S*/)?(cp|gcp|rsync|install|ditto|cat|head|tail|base64|xxd|"
                         r"tar|zip|scp|curl|strings)\b")
_KEYCHAIN = re.compile(r"/library/keychains/[^/]+\.keychain(-db)?$|\.keychain-db$")


def _system_shell(cmd: Command) -> bool:
    """psexec -s (as SYSTEM) or psexec -c of a shell (a command shell copied to the other machine)."""
    words = cmd.words[1:]
    return any(w in ("-s", "/s") for w in words) or \
        ("-c" in words and any(re.search(r"(cmd|powershell|pwsh)(\\.exe)?$", w) for w in words))


def _interactive_shell(cmd: Command) -> bool:
    """A shell with no script and no -c, or one wired to the terminal (`/bin/sh </dev/tty`)."""
    if cmd.name not in SHELLS or cmd.upstream or cmd.stdin_text is not None:
        return False
    if any(op == "<" and t == "/dev/tty" for op, t in cmd.redirects):
        return True
    if any(op.startswith("<") for op, _ in cmd.redirects):
        return False
    for a in cmd.argv[1:]:
        if a.startswith("-") and len(a) > 1 and not a.startswith("--") and "c" in a[1:]:
            return False
        if not a.startswith(("-", "+")):
            return False
    return True


def escalate(d: Detector, cmd: Command, analysis: ShellAnalysis, found: Sequence[Finding],
             before: Sequence[Finding], where: str, add: Add) -> None:
    """Add the block that the findings `found` of simple command `cmd` amount to in their context (`before`:
    the findings of the commands before it)."""
    rules = {f.rule for f in found}
    name = _base(cmd.name)
    if name in INTERPRETERS or name in ("powershell", "pwsh", "iex", "invoke-expression", "import-module"):
        script = next((w for w in cmd.words[1:] if not w.startswith("-")), "")
        script = re.split(r"[\\/]", script)[-1].removesuffix(".py").removesuffix(".ps1").removesuffix(".exe")
        if script in _TOOLS:
            name = script
    if name in _COPIERS and "block.shell.credential-read" not in rules:
        _credential_copy(d, cmd, where, add)
    if cmd.name == "find" and "confirm.shell.credential-search" in rules and _FIND_TAKES.search(analysis.source):
        add(Finding("block.shell.credential-read", Risk.CRITICAL,
                    f"find copies or prints each credential file it finds{where}", cmd.span))
    elif cmd.found and (name in _COPIERS or name in _PRINTERS or name in ("tar", "zip", "scp", "curl")) and \
            any(f.rule == "confirm.shell.credential-search" for f in before):
        add(Finding("block.shell.credential-read", Risk.CRITICAL,
                    f"{cmd.name} copies or prints each credential file the search finds{where}", cmd.span))
    elif cmd.name in _PRINTERS and cmd.dynamic and any(f.rule == "confirm.shell.credential-search" for f in before):
        add(Finding("block.shell.credential-read", Risk.CRITICAL,
                    f"{cmd.name} prints each credential file the search before it finds{where}", cmd.span))
    # attack tooling, by name
    tool = _TOOLS.get(name)
    if tool is not None:
        add(Finding(tool[0], Risk.CRITICAL, f"{cmd.argv[0][:60]} is {tool[1]}{where}", cmd.span))
    elif name in _REMOTE_EXEC and (_password_given(cmd) or
                                   (name in ("psexec", "psexec64", "paexec") and _system_shell(cmd))):
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{name} runs commands on a machine with a password on the command line or as SYSTEM{where}",
                    cmd.span))
    elif name.endswith(".py") and any(_INLINE_CRED.match(w) for w in cmd.argv[1:3]) and \
            re.search(r"exec|psexec|dcom", name):
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{name} logs in to another machine with a password on the command line and runs commands{where}",
                    cmd.span))
    if cmd.privileged:
        _root(d, cmd, analysis, rules, where, add)
    elif name in ("chmod", "install"):
        _setid_for_root(cmd, analysis, where, add)
    if name == "setcap" and any(_ROOT_CAPS.search(w) for w in cmd.words[1:]) and \
            "block.shell.suid-shell" not in rules:
        add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                    f"setcap gives a program root's powers (it can become root at will){where}", cmd.span))
    if "confirm.shell.persistence" in rules and "block.shell.malicious-persistence" not in rules:
        _persistence(cmd, analysis, where, add)


def _root(d: Detector, cmd: Command, analysis: ShellAnalysis, rules: set[str], where: str, add: Add) -> None:
    if "block.shell.suid-shell" in rules:
        return
    if _interactive_shell(cmd) or "confirm.shell.shell-spawn" in rules:
        add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                    f"starts a root shell ({cmd.argv[0]} through {cmd.via[0] if cmd.via else 'sudo'}){where}",
                    cmd.span))
    elif "confirm.shell.unknown-program" in rules and _SHELL_IN_ARGS.search(" ".join(cmd.argv[1:])):
        add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                    f"{cmd.name} is run as root and handed a shell to start: a root shell{where}", cmd.span))
    elif cmd.name in ("chmod", "install"):
        mode = _mode(cmd)
        if mode and _SETID_MODE.fullmatch(mode):
            add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                        f"{cmd.name} {mode} as root: a setuid/setgid root program anyone can run{where}", cmd.span))


def _mode(cmd: Command) -> str:
    words = cmd.words[1:]
    if cmd.name == "install":
        return next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-m", "--mode")), "")
    return next((w for w in words if _SETID_MODE.fullmatch(w) or re.fullmatch(r"[0-7]{3,4}", w)), "")


def _setid_for_root(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """chmod u+s / g+s on a file that an earlier command of the same line gave to root."""
    mode = _mode(cmd)
    if not mode or not _SETID_MODE.fullmatch(mode):
        return
    targets = {w for w in cmd.words[1:] if w != mode and not w.startswith("-")}
    for c in analysis.commands:
        if c is cmd:
            break
        ops = [w for w in c.words[1:] if not w.startswith("-")]
        if c.name in ("chown", "chgrp") and len(ops) > 1 and re.match(r"^(root|0|wheel)([:.]|$)", ops[0]) and \
                targets & set(ops[1:]):
            add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                        f"chmod {mode} on a file just given to root: a setuid/setgid root program{where}", cmd.span))
            return


def _persistence(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    text = cmd.span
    if cmd.name == "crontab" or cmd.upstream:
        text = " ".join([text, *(analysis.commands[i].span for i in cmd.upstream)])
        if cmd.stdin_text:
            text += " " + cmd.stdin_text
    if cmd.name == "crontab" and not cmd.upstream and "-" in cmd.words[1:]:
        text = analysis.source
    m = _STAGED.search(text)
    if m:
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} makes a payload run later from where payloads hide ({m.group(0).strip()[:40]})"
                    f"{where}", cmd.span))
    elif cmd.name == "sc" and _SERVICE_SHELL.search(text):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"sc makes a service whose program is a shell running a command{where}", cmd.span))
