"""Shell findings raised by context: what one command asks about becomes a block in the company it keeps.

The checks by effect (shell_destructive, shell_persistence, shell_privilege, ...) judge a command by what
it does; the same effect is ordinary or hostile by what goes with it. This module looks at the findings one
simple command already has and at the command around them, and adds what they amount to (a block, or for a
few an ask):

- a root shell: an interactive shell (or a program handed a shell to start) reached through sudo/doas, and
  a setuid/setgid bit set as root or on a file given to root in the same command (`block.shell.suid-shell`);
- persistence whose payload hides: it sits in a temporary or per-user writable folder, runs hidden or
  encoded, or a service's program line is a shell running a command, or its command line fetches from a
  bare address (a registry Run value: from any address); launchctl submit and login hooks
  (`block.shell.malicious-persistence`);
- a credential file copied out of its store (cp, esentutl /y, Copy-Item, ditto, a find that copies what it
  finds), and every credential file a search finds printed in a loop (`block.shell.credential-read`);
- a defence switched off by its service or its configuration: a security or logging service stopped, disabled
  or unloaded (pf, AV agents, DNS filters), journald told to store nothing, a resolver rule sinking a security
  vendor's endpoints (`block.shell.defense-evasion`);
- data sent to a public drop site, a system account file or a home folder piped to a network sink, and a data
  file mailed to a free-mail address (`block.shell.exfiltration`);
- deletes past undoing: find -delete from a protected root, a database's data directory, production namespaces,
  infrastructure destroyed without review, backup buckets, instances terminated, every process killed
  (`block.shell.recursive-delete-root`, `block.shell.database-destruction`, `block.shell.mass-destruction`);
- a file that decides who may log in or act as root written through a program's output flag (`rustc -o
  authorized_keys`, jshell's `/save`), and a credential put on a server from an sftp/ftp session
  (`block.shell.credential-tamper`, `block.shell.credential-exfiltration`);
- account backdoors: a user put in group 0 or given /root, a macOS account made or its password reset with a
  literal password, root login over SSH switched on, the sudoers file given away (`block.shell.credential-tamper`,
  `block.shell.remote-access`);
- a shell wired to the network through an unusual client (telnet or openssl piped into sh, zsh's ztcp, a
  `socket -p` program) and a library loaded from a temporary, hidden or bare relative path
  (`block.shell.reverse-shell`, `block.shell.loader-hook`); a kernel module loaded from a temporary or hidden
  folder (`block.shell.loader-hook`);
- masquerading: a system shell copied under another name and run, a script dressed as an image and run
  (`block.shell.defense-evasion`); a privileged container that chroots into the host's root
  (`block.shell.suid-shell`); a tunnel that puts a remote-login port on the internet (`block.shell.remote-access`);
- attack tooling named by what it is: credential dumpers, UAC-bypass kits, Kerberos and lateral-movement kits
  (`block.shell.credential-dump`, `block.shell.defense-evasion`, `block.shell.remote-access`), and a remote
  execution tool given a password on its command line (`block.shell.remote-access`); domain-mapping and
  privilege-hunting kits ask (`confirm.shell.recon`);
- a secret read from a vault, cloud or cluster CLI fed straight to a bare address or drop site
  (`block.shell.credential-exfiltration`); a tracer or debugger attached to a login, keyring or elevation
  process such as sshd, sudo or gnome-keyring (`block.shell.credential-dump`);
- a whole cloud account or cluster handed over: owner / cluster-admin granted to a personal mail account, to
  every user or to a namespace's default service account (`block.shell.credential-tamper`); a privileged pod
  that shares the node and enters it (`block.shell.suid-shell`); every object of a kind deleted in every
  namespace (`block.shell.mass-destruction`);
- an editor run as root on sudoers, passwd or authorized_keys (`block.shell.credential-tamper`); files
  copied into a web server's root ask (`confirm.shell.publish`); `yes > /dev/null` asks as a processor burner;
- a startup-file line that makes sudo/su/ssh/passwd run another program, or defines a function of that name
  (`block.shell.credential-dump`); a udev/systemd/cron/launchd entry written by echo/printf/tee whose program
  waits in a temporary or hidden folder (`block.shell.malicious-persistence`); personal folders deleted whole
  on Windows too (`del /s`, `rd /s`);
- `fed_own_files` (per command fed by xargs, parallel or a PowerShell pipeline, and per `fd -x|-X`): deskgate's
  own files listed by one program (`find`, `fd`, `ls`, `locate`, `rg --files`, `Get-ChildItem`) and deleted,
  emptied or moved by another (`| xargs rm`, `-print0 | xargs -0 shred`, `| parallel rm`, `fd … -X rm`):
  judged as `find … -delete` is (`block.shell.supervisor-tamper`), or read by another (`| xargs cat`:
  `block.shell.supervisor-read`). A listing of a folder that cannot hold deskgate's files, or whose name tests
  cannot match one of them (`find . -name '*.pyc' | xargs rm`), keeps its decision;
- `history_wipe` (once per line): the shell history cleared and stopped, or stopped two ways
  (`block.shell.anti-forensics`); `tunnel` (per ssh or pivot client): reverse tunnels that put this network on
  another machine (`block.shell.remote-access`); `discovery_burst` (once per line): several discovery commands
  of accounts, shares and neighbours run one after another (`confirm.shell.recon`); `mass_permissions` (once
  per line): permissions changed on every file a search of the system finds (`confirm.shell.system-state`).

Called once per simple command from `Detector._run` (gate/rules/shell.py), after every other check.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gate.catalogue import DATA, risky_destination
from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.shell_effects import _OWN_WORDS, _glob_reaches, _own_parent, _own_path, _wild
from gate.rules.shell_vocab import synced_folder
from gate.shell import (
    HOME,
    INTERPRETERS,
    SHELLS,
    SSH_CLUSTER,
    SSH_VALUED,
    Command,
    Finding,
    ShellAnalysis,
    analyse,
    display_path,
    resolve_path,
)

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["MY_FOLDER", "WHOLE_FOLDER", "discovery_burst", "escalate", "fd_exec", "history_wipe", "mass_permissions",
           "tunnel"]

Add = Callable[[Finding], None]

# a shell binary named inside a program's arguments (`ex -c ':!/bin/sh'`, `\write18{/bin/sh}`)
_SHELL_IN_ARGS = re.compile(r"(^|[\s!'\"{(:=;|])(/usr)?/bin/(ba|da|z|k|c|tc|fi|a)?sh\b")
_SETID_MODE = re.compile(r"[2-7][0-7]{3}|[ugoa]*[+=][rwxXt]*s[rwxXt]*")
_ROOT_CAPS = re.compile(r"cap_(setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|chown|fowner)")

# where a payload hides: temporary and per-user writable folders, and hidden or encoded launches
_HIDDEN_RUN = re.compile(r"\s-w(indowstyle)?\s+hidden|\s-(e|ec|enc|encodedcommand)\s+[a-z0-9+/=]{16,}|"
                         r"frombase64string|base64\s+(-d|--decode|-D)", re.I)
# the programs that register a payload to run later (their payload is an argument, not a line of a file)
_SCHEDULERS = frozenset({"reg", "schtasks", "sc", "crontab", "at", "batch", "launchctl", "new-service",
                         "register-scheduledtask", "new-scheduledtaskaction", "set-service", "new-itemproperty",
                         "set-itemproperty", "defaults", "osascript"})
_STAGED = re.compile(
    r"%(temp|tmp|appdata|localappdata|public)%|\$env:(temp|tmp|appdata|localappdata|public)|"
    r"\\appdata\\|\\users\\public\\|\\windows\\temp\\|\\programdata\\[^\\\s]+\.(exe|dll|ps1|bat|cmd|vbs|js|hta|scr)|"
    r"(^|[\s'\"=])(/private)?/(tmp|var/tmp|dev/shm)/|/users/shared/\.?[^/\s'\"]|"
    r"(^|[\s'\"=:])(/usr(/local)?)?/s?bin/\.[^./\s'\"]|"  # a hidden file as a program in a folder of programs
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
          "getuserspns", "impacket-getuserspns", "asreproast", "ppldump", "pplblade", "sqldumper-lsass",
          # Kerberos ticket forging and roasting, relaying and coercion of domain logons (impacket and kin)
          "getnpusers", "impacket-getnpusers", "ticketer", "impacket-ticketer", "gettgt", "impacket-gettgt",
          "getst", "impacket-getst", "gettgtpkinit", "getnthash", "targetedkerberoast", "get-gpppassword",
          "impacket-get-gpppassword", "ntlmrelayx", "impacket-ntlmrelayx", "petitpotam", "dementor", "printerbug",
          "coercer", "mitm6", "responder", "pywhisker", "certipy", "certipy-ad", "dfscoerce", "shadowcoerce",
          # certificate-service abuse: request, forge or plant a certificate that logs in as another account
          "certify", "forgecert", "passthecert", "whisker", "certsync",
          # password crackers and guessers: a hash or a login service given a word list
          "hashcat", "john", "hydra", "thc-hydra", "medusa", "ncrack", "patator", "crowbar", "ophcrack", "rcrack",
          "aircrack-ng", "cowpatty", "fcrackzip", "pdfcrack", "spray", "sprayhound", "domainpasswordspray",
          "invoke-domainpasswordspray",
          # attack kits' PowerShell modules that copy LSASS, the locked hive files or the stored hashes
          "out-minidump", "invoke-ninjacopy", "get-passhashes", "invoke-powerdump", "get-lsasecret",
          "get-vaultcredential",
          # password recovery utilities: each prints the passwords a browser, mail client, Wi-Fi profile, VNC or
          # dial-up entry keeps, in the clear (NirSoft's documentation); older hash dumpers of the same kind
          "webbrowserpassview", "wirelesskeyview", "chromepass", "passwordfox", "operapassview", "iepv", "mailpv",
          "netpass", "bulletspassview", "vncpassview", "dialupass", "pstpassword", "routerpassview", "mspass",
          "credentialsfileview", "lsasecretsview", "sniffpass", "remotecrackpassview", "wce", "gsecdump",
          "pwdump", "pwdump7", "pwdump8", "fgdump", "cachedump", "quarkspwdump", "inveigh", "inveigh-relay",
          # DSInternals: every account's hashes replicated from a domain controller (DCSync) or its backup keys
          "get-adreplaccount", "get-adreplbackupkey", "get-lsabackupkey", "get-addbbackupkey", "get-bootkey"),
         "block.shell.credential-dump", "a credential-dumping or password-attack tool"),
        # attack kits' spying modules (PowerSploit, Nishang, Empire): they record what the person types, sees or says
        (("get-keystrokes", "get-timedscreenshot", "get-microphoneaudio", "invoke-keylogger", "keylogger.ps1",
          "get-clipboardcontents", "invoke-inveigh"),
         "block.shell.attack-tool", "a spying module of an attack kit: it records keystrokes, the screen or sound"),
        (("akagi", "akagi64", "akagi32", "uacme", "uacbypass", "invoke-uacbypass"),
         "block.shell.defense-evasion", "a User Account Control bypass kit"),
        (("psexec.py", "impacket-psexec", "wmiexec", "wmiexec.py", "impacket-wmiexec", "smbexec", "smbexec.py",
          "impacket-smbexec", "atexec", "atexec.py", "dcomexec", "dcomexec.py", "crackmapexec", "nxc", "evil-winrm",
          "rbcd", "impacket-rbcd", "addcomputer", "impacket-addcomputer", "impacket-dacledit", "dacledit",
          "sharprdp", "invoke-thehash", "invoke-wmiexec", "invoke-smbexec"),
         "block.shell.remote-access", "a lateral-movement kit that runs commands on other machines"),
        # made to find a way in: privilege-escalation hunters, exploit suggesters and domain attack-path collectors
        (("sharphound", "bloodhound", "bloodhound-python", "bloodhound.py", "invoke-bloodhound", "powerview",
          "sharpview", "linpeas", "winpeas", "winpeasx64", "winpeasx86", "winpeasany", "linenum", "seatbelt",
          "privesccheck", "powerup", "jaws-enum", "sharpup", "finduncommonshares", "snaffler", "bloodyad", "pspy",
          "pspy64", "linux-exploit-suggester", "linux-exploit-suggester-2", "suid3num", "gtfonow", "traitor",
          "watson", "sherlock", "windows-exploit-suggester", "wesng",
          # cloud and cluster exploitation kits: escalate rights and plant backdoors in an account or cluster
          "pacu", "azurehound", "peirates", "stratus"),
         "block.shell.attack-tool", "a tool made to find a way in: it hunts for privileges or paths to a domain"),
        # dual use: administrators audit their own domain with these too
        (("adrecon", "pingcastle", "adfind", "ldapdomaindump", "enum4linux-ng", "lookupsid", "impacket-lookupsid",
          "samrdump", "rpcdump", "impacket-samrdump", "impacket-rpcdump", "getadusers", "impacket-getadusers",
          "windapsearch", "ldapmonitor", "cloudfox", "roadrecon", "scoutsuite", "scout",
          # PowerUpSQL: finds every SQL Server of a domain and tests which ones let the caller in
          "get-sqlinstancedomain", "get-sqlinstancescanudp", "get-sqlinstancebroadcast", "get-sqlinstancelocal",
          "get-sqlconnectiontestthreaded", "get-sqlserverinfothreaded", "get-sqlserverlinkcrawl", "invoke-sqlaudit",
          "invoke-sqldumpinfo"),
         "confirm.shell.recon", "a tool that maps a domain"),
        # the "potato" family and relay kits: a service account's token turned into SYSTEM
        (("juicypotato", "juicypotatong", "roguepotato", "sweetpotato", "godpotato", "printspoofer", "efspotato",
          "sharpefspotato", "localpotato", "rottenpotato", "rottenpotatong", "genericpotato", "coercedpotato",
          "printspoofer64", "printspoofer32",
          "krbrelayup", "krbrelay", "remotepotato0", "badpotato"),
         "block.shell.attack-tool", "a privilege-escalation kit that turns a service account's token into SYSTEM"),
        # attack kits' PowerShell modules that run commands through a database or inject code into processes
        (("invoke-sqloscmd", "invoke-sqlescalatepriv", "invoke-sqloscmdclr", "invoke-shellcode",
          "invoke-reflectivepeinjection", "invoke-dllinjection", "invoke-psinject", "invoke-tokenmanipulation",
          "invoke-allchecks", "invoke-privesc", "invoke-sessiongopher"),
         "block.shell.attack-tool", "a module of an attack kit: it runs commands as another identity or injects "
                                    "code"),
):
    for _n in _names:
        _TOOLS[_n] = (_rule, _what)
# PowerShell attack kits whose cmdlets share a noun prefix (AADInternals: `Get-AADIntSyncCredentials`,
# `Set-AADIntPassThroughAuthenticationEnabled`); `escalate` lets their names past its first test by this prefix
_KIT_NOUNS = (("aadint", ("block.shell.attack-tool", "a cmdlet of AADInternals, a kit for taking over Entra ID "
                                                     "(Azure AD) tenants and their sync credentials")),)
_ARCH = re.compile(r"^(\d+[ _-]+)|([._-](x64|x86|amd64|arm64|64|32))+$")

# Kits fetched rather than run: phishing reverse proxies and kits, command-and-control frameworks, and every tool
# above, named in a download's address or a repository's name (`wget .../mimikatz_trunk.zip`,
# `git clone .../evilginx2`). Fetching one is the first step of using it; pentesters do, so it asks.
_KITS_FETCHED = frozenset({
    "evilginx", "evilginx2", "evilginx3", "modlishka", "muraena", "gophish", "king-phisher", "setoolkit",
    "social-engineer-toolkit", "blackeye", "zphisher", "shellphish", "socialfish", "hiddeneye", "evilnovnc",
    "sliver", "havoc", "mythic", "covenant", "empire", "powershell-empire", "poshc2", "merlin", "villain",
    "metasploit-framework", "cobaltstrike", "brute-ratel", "pupy", "quasar", "quasarrat", "asyncrat", "njrat",
    "ligolo", "ligolo-ng", "revsocks", "chisel", "frp", "impacket", "powersploit", "nishang", "ghostpack",
    "sharpcollection", "pentestmonkey", "php-reverse-shell", "weevely3", "laudanum", "xmrig"})
_FETCHERS = frozenset({"curl", "wget", "wget2", "aria2c", "axel", "invoke-webrequest", "invoke-restmethod",
                       "start-bitstransfer", "certutil", "bitsadmin", "http", "https", "xh", "git", "gh", "svn"})
# a download's file or a repository's name: the tool's name, then a version, a platform or a packing suffix
_PACKED = re.compile(r"(\.(git|zip|gz|tgz|tar|bz2|xz|7z|rar|exe|dll|ps1|py|msi|deb|rpm|apk|bin|jar|sh))+$")
_NAME_END = re.compile(r"[-_.](?:v?\d|linux|windows|win|darwin|macos|osx|mac|amd64|arm64|aarch64|x64|x86|386|i386|"
                       r"trunk|master|main|release|latest|static|musl|gnu|bin|src|source|portable|setup|installer)")


# code hosts, where the second part of the path is a repository's name
_CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gitee.com", "sr.ht",
                         "git.sr.ht", "raw.githubusercontent.com", "objects.githubusercontent.com"})
# tool names that are also ordinary words or names: counted only as a code host's repository or release file
_COMMON_WORDS = frozenset({"john", "spray", "watson", "sherlock", "traitor", "whisker", "ticketer", "certify",
                           "medusa", "merlin", "mythic", "havoc", "covenant", "empire", "villain", "sliver",
                           "quasar", "frp", "pupy", "responder", "coercer", "dementor", "chisel", "rbcd", "nxc",
                           "stratus", "wce", "ghostpack", "getst", "dacledit"})


def _fetched_kit(cmd: Command) -> str | None:
    """The attack tool or kit a download or clone names in its address (a code host's repository, or the file
    fetched), or None. Only a whole name counts, before its version or platform (`evilginx-v3.3.0-linux-64bit.zip`):
    a word inside another name (`john-smith-cv.pdf`) or a folder on a web site (`/john/notes.txt`) is no tool."""
    for word in cmd.words[1:]:
        low = word.lower()
        if "://" not in low and not low.startswith("git@"):
            continue
        path = low.split("://", 1)[-1].replace(":", "/").split("?", 1)[0].split("#", 1)[0]
        parts = [p for p in path.split("/") if p]
        if len(parts) < 2:
            continue
        host = parts[0].removeprefix("git@").removeprefix("www.")
        code = host in _CODE_HOSTS
        named = ([parts[2]] if code and len(parts) > 2 else []) + [parts[-1]]
        for segment in named:
            stem = _PACKED.sub("", segment)
            end = _NAME_END.search(stem)
            name = stem[:end.start()] if end else stem
            if (name in _KITS_FETCHED or name in _TOOLS) and (code or name not in _COMMON_WORDS):
                return name
    return None

# programs that are not attack tools by name but are what an intrusion drops from its own server: a netcat or
# socat to connect a shell back, a remote-execution or memory-dump tool, a file named for what it is (payload,
# shell, beacon, implant): fetched from a bare address they block, from anywhere else they are judged as any file
_DROPPED_AT_ADDRESS = frozenset({
    "nc", "nc64", "ncat", "netcat", "socat", "psexec", "psexec64", "paexec", "procdump", "procdump64", "plink",
    "payload", "payloads", "shell", "revshell", "reverse-shell", "reverse_shell", "backdoor", "implant", "beacon",
    "meterpreter", "stager", "dropper", "shellcode", "exploit", "privesc", "rat"})
_DROPPED_SUFFIX = re.compile(r"(\.(git|zip|gz|tgz|tar|bz2|xz|7z|rar|exe|dll|ps1|psm1|py|msi|deb|rpm|apk|bin|jar|sh|elf|"
                             r"so|dylib|php|aspx?|jsp|war|hta|vbs|bat|cmd|scr|pl|rb|js|txt|b64))+$")
_BARE_ADDRESS = re.compile(r"^(?:\d{1,3}\.){3}\d{1,3}$|^\[?[0-9a-f:]+:[0-9a-f:]*\]?$", re.I)
# hosts that publish the tools themselves (their projects' releases): fetching from them asks
_TOOL_RELEASE_HOSTS = re.compile(r"(?:^|\.)(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|"
                                 r"codeberg\.org|sourceforge\.net|kali\.org|offsec\.com|metasploit\.com|"
                                 r"rapid7\.com|microsoft\.com|sysinternals\.com|live\.sysinternals\.com|"
                                 r"nmap\.org|eternallybored\.org|pypi\.org|pythonhosted\.org)$", re.I)


def attack_tool_fetched(host: str, file_name: str) -> str | None:
    """The attack tool a download of `file_name` from `host` brings, when the host says it is no project's own
    release: a tool made to break in (mimikatz, winPEAS, SharpHound, Rubeus, Invoke-Mimikatz) from a bare address
    or an unknown host, or a dropped program (nc.exe, payload.exe, a kit's tunnel) from a bare address; None
    otherwise (any file from a release host, an ordinary name)."""
    host = host.lower().strip("[]").rstrip(".")
    if not host or _TOOL_RELEASE_HOSTS.search(host):
        return None
    base = file_name.lower().rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    stem = _DROPPED_SUFFIX.sub("", base)
    end = _NAME_END.search(stem)
    names = {stem, stem[:end.start()] if end else stem}
    names |= {_ARCH.sub("", n) for n in names}
    bare = bool(_BARE_ADDRESS.match(host)) and not host.startswith(("127.", "::1", "0.0.0.0"))
    for name in sorted(names):
        if not name:
            continue
        if name in _TOOLS and _TOOLS[name][0].startswith("block.") and (bare or name not in _COMMON_WORDS):
            return name
        # (a dropped program is a file: `nc.exe`, `payload.elf`; a page called /shell is not one)
        if bare and (name in _KITS_FETCHED or name in _TOOLS or (name in _DROPPED_AT_ADDRESS and stem != base)):
            return name
    return None


def _dropped_tool(cmd: Command) -> tuple[str, str] | None:
    """(tool, host) of an attack tool a download brings from a bare address or an unknown host
    (`attack_tool_fetched`), or None."""
    for word in cmd.argv[1:]:
        if "://" not in word:
            continue
        rest = word.strip("'\"").split("://", 1)[1].split("?", 1)[0].split("#", 1)[0]
        host, _, path = rest.partition("/")
        host = host.rsplit("@", 1)[-1]
        host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
        if path and (tool := attack_tool_fetched(host, path)):
            return tool, host
    return None


# a tool asked for its help, version, benchmark or lists of what it supports: it attacks nothing
_TOOL_INFO = frozenset({"-h", "--help", "-help", "/?", "--version", "-b", "--benchmark", "--backend-info",
                        "--example-hashes", "--hash-info", "--list-formats"})

_TOOL_INFO_PREFIXES = ("--list=", "--test")

# what a word that names something to attack looks like: a file, a path, a host or a range
_TARGET_WORD = re.compile(r"[./\\@:]")


def _tool_info(cmd: Command) -> bool:
    """The tool is only asked to print something and exit: every word is one of `_TOOL_INFO`, or one of them is
    given with nothing but flags and numbers (`hashcat -b -m 1000`: the speed of one hash mode, no hash file)."""
    words = cmd.words[1:]
    if not words or not any(_info_word(w) for w in words):
        return False
    asks_help = not {"-h", "--help", "-help", "/?"}.isdisjoint(words)  # `tool browsers -h`: one module's help
    return all(_info_word(w) or (w.startswith("-") and "=" not in w) or w.isdigit() or (asks_help and w.isalpha())
               for w in words) and \
        not any(_TARGET_WORD.search(w) for w in words if not w.startswith("-"))


def _info_word(word: str) -> bool:
    """A word that asks a tool for a list or a self-test: `_TOOL_INFO`, John the Ripper's `--list=formats` (what
    it supports) and `--test[=N]` (its benchmark)."""
    return word in _TOOL_INFO or word.startswith(_TOOL_INFO_PREFIXES)


# port scanners, and the address ranges that are a large part of the internet: 0.0.0.0/0 or a public /16 or wider
_WIDE_SCANNERS = frozenset({"masscan", "zmap", "nmap", "rustscan", "naabu", "zgrab", "zgrab2", "unicornscan"})
_CIDR = re.compile(r"^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}/(\d{1,2})$")


def _wide_range(word: str) -> bool:
    """`word` is an IPv4 range of 65,536 addresses or more outside the private, loopback and link-local blocks."""
    m = _CIDR.match(word)
    if m is None or int(m.group(3)) > 16:
        return False
    a, b, bits = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if bits == 0:
        return True
    private = a in (10, 127) or (a == 172 and 16 <= b <= 31 and bits >= 12) or (a == 192 and b == 168) or \
        (a == 169 and b == 254) or (a == 100 and 64 <= b <= 127 and bits >= 10)
    return not private


# remote execution with a password on the command line
_REMOTE_EXEC = frozenset({"psexec", "psexec64", "paexec", "plink", "winrs", "wmic", "net", "schtasks"})
_PASSWORD_FLAG = re.compile(r"^([-/](p|pw|pass|password)(:|$)|--password(=|$))", re.I)
_INLINE_CRED = re.compile(r"^['\"]?[\w.-]*/[\w.-]+:[^@\s]+@[\w.-]+")  # impacket DOMAIN/user:pass@host


# a Windows path given unquoted to a POSIX parser loses its backslashes (`..\\payloads\\psexec.exe` reads as
# `..payloadspsexec`): the known name is then only the end of the folded name
# the tool names of five letters or more that a mangled name may end with (`_tool_tail`), and their lengths
_TAIL_NAMES = frozenset(n for n in (*_TOOLS, *_REMOTE_EXEC) if len(n) >= 5)
_TAIL_LENGTHS = frozenset(map(len, _TAIL_NAMES))
_TAIL_LONGEST = max(_TAIL_LENGTHS)


def _tool_tail(name: str) -> str | None:
    """The tool name `name` ends with, leftmost first (so the longest), as the regex `(tool|...)$` searched in `name`
    finds it (`$` also before a last newline): by one look-up per place a tool's name could start, instead of a try of
    every name at every place (tens of µs on a long word)."""
    n = len(name)
    stripped = name[:-1] if name.endswith("\n") else None
    for i in range(max(0, n - _TAIL_LONGEST - 1), n):
        if n - i in _TAIL_LENGTHS and name[i:] in _TAIL_NAMES:
            return name[i:]
        if stripped is not None and n - 1 - i in _TAIL_LENGTHS and stripped[i:] in _TAIL_NAMES:
            return stripped[i:]
    return None


_SCRIPT_SUFFIX = re.compile(r"\.(exe|py|ps1|sh|pl|rb|bat)$")


def _base(name: str) -> str:
    """The program name with an architecture or numeric tag dropped, and recovered from a mangled path."""
    if "." not in name and "\\" not in name and len(name) <= 12 and \
            not (name[:1].isdigit() or name[-1:].isdigit()):
        return name  # most names: no suffix, tag or mangled path to take off (each step below needs one)
    if name in _TOOLS or name in _REMOTE_EXEC:
        return name
    stem = _SCRIPT_SUFFIX.sub("", name)
    if stem in _TOOLS:
        return stem
    if name and (name[0].isdigit() or name[-1].isdigit()):
        name = _ARCH.sub("", name)
        if name in _TOOLS:
            return name
    if "." in name or "\\" in name or len(name) > 12:
        tail = _tool_tail(name)
        if tail is not None:
            return tail
    return name


_ADMIN_SHARE_WORD = re.compile(r"\\([a-z]|admin|ipc)\$?$")
_ADMIN_SHARE_SPAN = re.compile(r"\\[a-z]\$|\\(admin|ipc)\$", re.I)


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
        # net use \\host\C$ PASSWORD /user:NAME: an administrative share (a whole drive, remote admin)
        # opened with a password in the clear; an ordinary share mapped with one is not remote execution
        rest = [w for w in cmd.words[2:] if not w.startswith("/")]
        admin = any(_ADMIN_SHARE_WORD.search(w) for w in rest) or \
            _ADMIN_SHARE_SPAN.search(cmd.span) is not None  # (a parser may drop `$` or `\`)
        return admin and len(rest) > 1 and any(w.startswith(("/u:", "/user:")) for w in cmd.words)
    return False


_WEB_ROOT = re.compile(r"(^|[\\/:])inetpub[\\/]?wwwroot|^/var/www(/html)?/?$|^/usr/share/nginx/html|^/srv/www")
_COPIERS = frozenset({"cp", "gcp", "ditto", "install", "copy", "xcopy", "robocopy", "copy-item", "cpi", "esentutl",
                      "rsync", "move", "mv", "move-item", "mi", "ln"})
_PRINTERS = frozenset({"cat", "type", "get-content", "gc", "head", "tail", "strings", "base64", "xxd", "less", "more"})


def _credential_copy(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """A credential file copied out of the home (to a temporary or shared folder, the project, another drive);
    a copy kept in one's own home, as a backup, is not."""
    ops = [(i, a) for i, a in enumerate(cmd.argv[1:], 1) if not a.startswith("-") and
           (i not in cmd.dynamic or a.lower().startswith(("$env:", "%")))
           and not (a.startswith("/") and len(a) <= 3 and cmd.name in ("esentutl", "robocopy", "xcopy", "copy"))]
    if cmd.found and cmd.name in ("cp", "gcp", "rsync", "install", "ditto") and any(a == "{}" for _, a in ops):
        return  # judged with the find that feeds it (credential-search)
    if len(ops) < 2 or (cmd.name == "ln" and any(a in ("-s", "--symbolic") or
                                                  (a.startswith("-") and not a.startswith("--") and "s" in a)
                                                  for a in cmd.argv[1:])):
        return  # a symbolic link names the file; a hard link (`ln key dest`) is the file itself, another door to it
    dest = ops[-1][1]
    dest_path = resolve_path(dest.replace("\\", "/"), cmd.cwd or None)
    for a in (alt for _, op in ops[:-1] for alt in _brace_alternatives(op)):
        path = resolve_path(a.replace("\\", "/"), cmd.cwd or None) or a.lower().replace("\\", "/")
        if not d.credential_files.search(path) and not _KEYCHAIN.search(path) and not _KEY_FOLDER.search(path):
            continue
        synced = synced_folder(dest_path)
        if dest_path and dest_path.startswith(HOME + "/") and not synced:
            continue  # a copy kept in one's own home (`cp id_rsa ~/backup/`): asks as a secret read
        add(Finding("block.shell.credential-read", Risk.CRITICAL,
                    f"{cmd.name} copies the credential file {display_path(path)} out of its store "
                    f"(to {dest[:60]}{', a folder a sync client uploads' if synced else ''}){where}", cmd.span))
        return


_BRACE = re.compile(r"^(?P<head>[^{}]*)\{(?P<alts>[^{}]*,[^{}]*)\}(?P<tail>[^{}]*)$")


def _brace_alternatives(word: str) -> list[str]:
    """The words one brace list in `word` expands to (`Default/{Cookies,Login Data}`), else the word itself."""
    m = _BRACE.match(word) if "{" in word else None
    if m is None:
        return [word]
    return [m["head"] + alt + m["tail"] for alt in m["alts"].split(",")][:16]


_FIND_TAKES = re.compile(r"-(exec|execdir|ok|okdir)\s+(\S*/)?(cp|gcp|rsync|install|ditto|cat|head|tail|base64|xxd|"
                         r"tar|zip|scp|curl|strings)\b")
# the folders that hold keys and credentials, copied whole (their files are credential files one by one)
_KEY_FOLDER = re.compile(r"(^|/)\.(aws|ssh|gnupg|password-store|azure|kube)/?$|(^|/)\.local/share/keyrings/?$|"
                         r"(^|/)\.config/gcloud/?$")
_KEYCHAIN = re.compile(r"/library/keychains/[^/]+\.keychain(-db)?$|\.keychain-db$")


_WINDOWS_SHELL = re.compile(r"(cmd|powershell|pwsh)(\.exe)?$")


def _system_shell(cmd: Command) -> bool:
    """psexec -s (as SYSTEM) or psexec -c of a shell (a command shell copied to the other machine)."""
    words = cmd.words[1:]
    return any(w in ("-s", "/s") for w in words) or \
        ("-c" in words and any(_WINDOWS_SHELL.search(w) for w in words))


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
    name = cmd.name
    if name in _FETCHERS and (kit := _fetched_kit(cmd)) is not None:
        add(Finding("confirm.shell.attack-tool-download", Risk.HIGH,
                    f"{name} fetches {kit}, a tool made for attacks{where}", cmd.span))
    if name in _FETCHERS and (dropped := _dropped_tool(cmd)) is not None:
        add(Finding("block.shell.attack-tool", Risk.CRITICAL,
                    f"{name} fetches {dropped[0]} from {dropped[1]}, no project's release: a tool for breaking in "
                    f"brought onto the machine{where}", cmd.span))
    if "." in name or "\\" in name or len(name) > 12 or name[:1].isdigit() or name[-1:].isdigit():
        name = _base(name)  # (most names have no suffix, tag or mangled path: _base's own first test)
    if not cmd.privileged and name not in _SINGLED_OUT and cmd.name not in _SINGLED_OUT and \
            not name.endswith(".py") and "-aadint" not in name and \
            (not found or _ESCALATING.isdisjoint(f.rule for f in found)):
        # Most commands: not run as root, a program none of the checks below names, and no finding any of them
        # builds on. Of them all, only those that read any command's text can apply (the same, in the same
        # order), each with its own first test inline: _ztcp_shell needs "ztcp" in the span, _masquerading a
        # command before this one, and _written_through_flags a program the write checks do not judge.
        if ("ztcp" not in cmd.span or not _ztcp_shell(cmd, where, add)) and len(analysis.commands) > 1:
            _masquerading(cmd, analysis, where, add)
        # (_written_through_flags finds nothing for a name it does not read and words with no output flag, alone
        # or as `flag=value`: its own first tests and those of _output_flags, without the two calls)
        if cmd.name not in _WRITERS_BY_NAME and (cmd.name in _READS_ANY_WORDS or not _OUT_FLAGS.isdisjoint(cmd.argv)
                                                 or "=" in "".join(cmd.argv)):
            _written_through_flags(d, cmd, analysis, where, add)
        return
    _escalate(d, cmd, analysis, found, before, name, where, add)


_PATH_SEP = re.compile(r"[\\/]")


def _escalate(d: Detector, cmd: Command, analysis: ShellAnalysis, found: Sequence[Finding],
              before: Sequence[Finding], name: str, where: str, add: Add) -> None:
    """`escalate` for any command (`name`: `_base` of its name), every check."""
    rules = {f.rule for f in found}
    if name in INTERPRETERS or name in ("powershell", "pwsh", "iex", "invoke-expression", "import-module"):
        script = next((w for w in cmd.words[1:] if not w.startswith("-")), "")
        script = _PATH_SEP.split(script)[-1].lower()
        for known in (script, script.removesuffix(".py").removesuffix(".ps1").removesuffix(".exe")):
            if known in _TOOLS:
                name = known
                break
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
    # attack tooling, by name (or by the noun prefix every cmdlet of an attack kit shares)
    tool = _TOOLS.get(name)
    if tool is None and "-" in name and (kit := next((k for p, k in _KIT_NOUNS if name.partition("-")[2].startswith(p)),
                                                     None)) is not None:
        tool = kit
    if tool is not None and tool[0].startswith("confirm."):
        add(Finding(tool[0], Risk.HIGH, f"{cmd.argv[0][:60]} is {tool[1]}{where}", cmd.span))
    elif tool is not None and not _tool_info(cmd):
        add(Finding(tool[0], Risk.CRITICAL, f"{cmd.argv[0][:60]} is {tool[1]}{where}", cmd.span))
    elif name in _WIDE_SCANNERS and (wide := next((w for w in cmd.words[1:] if _wide_range(w)), None)):
        add(Finding("block.shell.attack-tool", Risk.CRITICAL,
                    f"{name} scans {wide}: a large part of the internet, other people's machines{where}", cmd.span))
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
    if (cmd.upstream or cmd.subst) and name in _SINKS and "block.shell.credential-exfiltration" not in rules:
        _secret_sent(cmd, analysis, before, where, add)
    if name in _TRACERS:
        _tracer_on_login(cmd, analysis, where, add)
    if rules & _DEFENCE_CUES or name == "ufw":
        _defences(cmd, analysis, where, add)
    if "confirm.shell.network" in rules or name in _SINKS:
        _exfiltration(d, cmd, analysis, where, add)
    if "confirm.shell.destructive" in rules or "confirm.shell.system-disruption" in rules or \
            (cmd.upstream and name.startswith("remove-") and name[7:] in _HELD_NOUNS):
        _past_undoing(d, cmd, where, add, analysis)
    if rules & _ACCOUNT_CUES or name in ("sysadminctl", "useradd", "usermod", "adduser", "pw", "chpasswd", "passwd"):
        _accounts(d, cmd, analysis, rules, where, add)
    _reach(cmd, analysis, rules, where, add)
    if name == "yes" and not cmd.upstream and any(op in (">", ">>") and t == "/dev/null" for op, t in cmd.redirects):
        add(Finding("confirm.shell.system-disruption", Risk.MEDIUM,
                    f"yes writes to /dev/null without end: it only burns a processor{where}", cmd.span))
    _written_through_flags(d, cmd, analysis, where, add)
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
    if "confirm.shell.system-write" in rules and name in _WRITERS:
        _name_service(cmd, analysis, where, add)
    if (name == "launchctl" and cmd.words[1:2] == ("submit",)) or \
            (name == "defaults" and any(w in ("loginhook", "logouthook") for w in cmd.words[1:]) and
             "write" in cmd.words[1:3]):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{name} {cmd.words[1]}: a job kept running (or a script run as root at every login) that no "
                    f"file on disk declares{where}", cmd.span))
    if name in _COPIERS and any(_WEB_ROOT.search(w) for w in cmd.words[2:]):
        add(Finding("confirm.shell.publish", Risk.HIGH,
                    f"{name} puts files into a web server's root: whatever they are, the web serves them{where}",
                    cmd.span))


_EDITORS = frozenset({"vim", "vi", "nvim", "nano", "pico", "emacs", "ed", "ex", "gedit", "kate", "code", "subl",
                      "mcedit", "micro", "joe", "jed"})


_MODE_WHO = re.compile(r"[ugoa]*")
_SHARED_TMP = re.compile(r"^(/private)?/(tmp|var/tmp|dev/shm)/")


def _root(d: Detector, cmd: Command, analysis: ShellAnalysis, rules: set[str], where: str, add: Add) -> None:
    if "block.shell.suid-shell" in rules:
        return
    if cmd.name in _EDITORS:
        for w in cmd.words[1:]:
            path = resolve_path(w, cmd.cwd or None)
            if path and _CONTROL.search(path):
                add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                            f"{cmd.name} edits {display_path(path)} as root, bypassing visudo/vipw checks: who may "
                            f"log in or act as root is in it{where}", cmd.span))
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
        if not mode or not _SETID_MODE.fullmatch(mode):
            return
        # setgid alone is also how shared directories keep their group (`chmod 2775 /srv/team`): it blocks only
        # on a file in a temporary folder; setuid blocks on anything
        who = _MODE_WHO.match(mode).group(0)
        setuid = mode[0] in "4567" if mode.isdigit() else (who == "" or "u" in who or "a" in who)
        targets = [w for w in cmd.words[1:] if w != mode and not w.startswith("-")]
        if setuid or any(_SHARED_TMP.match(w) for w in targets):
            add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                        f"{cmd.name} {mode} as root: a setuid/setgid root program anyone can run{where}", cmd.span))


_OCTAL_MODE = re.compile(r"[0-7]{3,4}")


def _mode(cmd: Command) -> str:
    words = cmd.words[1:]
    if cmd.name == "install":
        return next((words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-m", "--mode")), "")
    return next((w for w in words if _SETID_MODE.fullmatch(w) or _OCTAL_MODE.fullmatch(w)), "")


_ROOT_OWNER = re.compile(r"^(root|0|wheel)([:.]|$)")


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
        if c.name in ("chown", "chgrp") and len(ops) > 1 and _ROOT_OWNER.match(ops[0]) and \
                targets & set(ops[1:]):
            add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                        f"chmod {mode} on a file just given to root: a setuid/setgid root program{where}", cmd.span))
            return


# a startup-file line that puts something else in place of a program that asks for a password: an alias to
# another program (`alias sudo='~/.cache/.x/sudo'`) or a shell function of that name (`sudo() { ... }`)
_AUTH_PROGRAMS = "sudo|su|doas|ssh|scp|sftp|passwd|pkexec|gpg|login|kinit|ssh-add"
_SHADOW_ALIAS = re.compile(r"(^|[\s;'\"])alias\s+(?P<name>" + _AUTH_PROGRAMS + r")=['\"]?(?P<to>[^'\"\s;]+)")
# an alias that puts a script file in place of a command people type every day (`alias ls='~/.x/ls.sh'`); an alias
# to another program or to the same command with flags (`alias ll='ls -la'`, `alias vim=nvim`) names no file
_DAILY_COMMANDS = ("ls|cd|cat|cp|mv|rm|grep|find|ps|top|htop|git|curl|wget|python3?|pip3?|node|npm|npx|docker|kubectl|"
                   "vim?|nano|less|more|man|which|whoami|id|clear|history|make|go|cargo|apt|apt-get|brew|yum|dnf|"
                   "systemctl|kill|ping|ip|ifconfig|netstat|open|code|tar|unzip|chmod|chown|env|export|source|bash|"
                   "zsh|sh|exit|logout|shutdown|reboot|crontab|aws|gcloud|az|terraform")
_SHADOW_SCRIPT = re.compile(r"(^|[\s;'\"])alias\s+(?P<name>" + _DAILY_COMMANDS +
                            r")=['\"]?(?P<to>(~|\$home|\$\{home\}|\.{0,2}/)[^'\"\s;]*)", re.I)
_SHADOW_FUNCTION = re.compile(r"(^|[\s;'\"])(function\s+(?P<f1>" + _AUTH_PROGRAMS + r")\b|(?P<f2>" + _AUTH_PROGRAMS +
                              r")\s*\(\s*\)\s*\{)")
# a scheduler's or device manager's entry whose program waits in a temporary or hidden folder (a conventional
# tool folder such as ~/.local or ~/.cargo is not hiding)
_ENTRY_DIRS = re.compile(r"/udev/rules\.d/|/systemd/|/cron|/launchagents/|/launchdaemons/|/init\.d/|/rc\.local$|"
                         r"/anacrontab$|/periodic/|/folder action scripts/|/emond\.d/|/startupitems/|"
                         r"/(daily|weekly|monthly)\.local$|/rc\.common$|/\.ssh/rc$|/sshrc$|/dispatcher\.d/|/if-up\.d/")
_PAYLOAD_HIDES = re.compile(r"(^|[\s'\"=:])(/private)?/(tmp|var/tmp|dev/shm)/|/users/shared/\.?[^/\s'\"]|"
                            r"/\.(?!(local|config|cargo|npm|nvm|pyenv|"
                            r"rbenv|rustup|deno|bun|volta|sdkman|asdf|cache|ssh|gem|m2|gradle|yarn|pnpm)/)[^./\s'\"]"
                            r"[^/\s'\"]*/|"
                            # a hidden file as the program itself in a folder of programs: no package installs one
                            r"(^|[\s'\"=:])(/usr(/local)?)?/s?bin/\.[^./\s'\"]", re.I)
_WRITERS = frozenset({"echo", "printf", "cat", "tee"})


def _written_text(cmd: Command, analysis: ShellAnalysis) -> str:
    """What an echo/printf/cat/tee writes: its own words (echo, printf), the here-doc, or what is piped to it."""
    parts = [" ".join(cmd.argv[1:])] if cmd.name in ("echo", "printf") else []
    for i in cmd.upstream:
        up = analysis.commands[i]
        if up.name in ("echo", "printf"):
            parts.append(" ".join(up.argv[1:]))
        elif up.name == "cat" and up.stdin_text:
            parts.append(up.stdin_text)
    if cmd.stdin_text:
        parts.append(cmd.stdin_text)
    return " ".join(parts)


# where this machine learns what a name's address is: its resolver list and its hosts file
_RESOLV = re.compile(r"^(/private)?/etc/(resolv\.conf|resolver/[^/]+)$")
_HOSTS = re.compile(r"^(/private)?/etc/hosts$|/system32/drivers/etc/hosts$")
_NAMESERVER = re.compile(r"\bnameserver\s+(\d{1,3}(?:\.\d{1,3}){3})\b")
# resolvers everyone uses (Cloudflare, Google, Quad9, OpenDNS, AdGuard) and the private, loopback and link-local blocks
_KNOWN_RESOLVER = re.compile(r"^(1\.[01]\.[01]\.1|1\.0\.0\.1|8\.8\.[48]\.[48]|9\.9\.9\.(9|10|11)|149\.112\.112\.112|"
                             r"208\.67\.22[02]\.22[02]|94\.140\.1[45]\.1[45]|10\.\d+\.\d+\.\d+|127\.\d+\.\d+\.\d+|"
                             r"192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|169\.254\.\d+\.\d+|"
                             r"100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.\d+\.\d+)$")
# a hosts line that sends a sign-in, bank, payment, package or update site to an address outside this machine
_HOSTS_REDIRECT = re.compile(
    r"(?<![\d.])(?!127\.|0\.0\.0\.0)(\d{1,3}(?:\.\d{1,3}){3})\s+(\S*(login|signin|accounts?|auth|sso|bank|paypal|"
    r"microsoftonline|live\.com|apple\.com|icloud|google\.com|github\.com|gitlab\.com|npmjs|pypi|update|"
    r"okta|office|outlook)\S*)", re.I)

# where an alias's target is a script the agent can write, not an installed program (`/opt/homebrew/bin/python3`):
# the home or working folder, a hidden or temporary folder, or a script's own suffix
_SCRIPT_PLACE = re.compile(r"^(?:~|\$home|\$\{home\}|\.{1,2}/)|/\.[^./]|^/(?:private/)?(?:tmp|var/tmp|dev/shm)/|"
                           r"\.(?:sh|bash|zsh|py|pl|rb|js|php|command)$", re.I)
# (a hosts line may give one address several names: each is judged)
_HOSTS_ENTRY = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})[ \t]+((?:[a-z0-9-]+\.)+[a-z]{2,}"
                          r"(?:[ \t]+(?:[a-z0-9-]+\.)+[a-z]{2,})*)\b", re.I)
_MONEY_NAME = re.compile(r"pay|bank|checkout|wallet|coin|crypto|exchange|billing|invoice|card|credit|finance|"
                         r"trade|broker|amazon|ebay|shop|store|mail|drive|dropbox|icloud|facebook|instagram|twitter|"
                         r"x\.com$|whatsapp|telegram|steam|microsoft|windowsupdate|adobe|chase|wellsfargo|citi|hsbc",
                         re.I)


def _name_service(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """The resolver list pointed at an unknown outside server, or a hosts line that sends a sign-in, payment,
    package or update site elsewhere: every name the machine looks up (or that one) goes where the writer says
    (`block.shell.system-file-tamper`)."""
    targets = _written_to(cmd)
    if not any(_RESOLV.match(t) or _HOSTS.search(t) for t in targets):
        return
    text = _written_text(cmd, analysis)
    if any(_RESOLV.match(t) for t in targets):
        for ip in _NAMESERVER.findall(text):
            if not _KNOWN_RESOLVER.match(ip):
                add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                            f"{cmd.name} points the machine's name lookups at {ip}: whoever runs it decides where "
                            f"every name leads{where}", cmd.span))
                return
    if not any(_HOSTS.search(t) for t in targets):
        return
    if m := _HOSTS_REDIRECT.search(text):
        add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                    f"{cmd.name} sends {m.group(2)} to {m.group(1)} in the hosts file: a sign-in, payment or update "
                    f"site answered by another machine{where}", cmd.span))
        return
    for ip, names in _HOSTS_ENTRY.findall(text):
        name = next((n for n in names.split() if _MONEY_NAME.search(n)), None)
        if not _KNOWN_RESOLVER.match(ip) and ip != "0.0.0.0" and name is not None:
            # a shop, bank or wallet answered by another machine: every visit, and every card or password typed
            # there, goes to whoever runs it (a staging name pointed at a new server only asks)
            add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                        f"{cmd.name} sends {name} to {ip} in the hosts file: a site where people pay or sign in, "
                        f"answered by another machine{where}", cmd.span))
            return


def _written_to(cmd: Command) -> list[str]:
    targets = [t for op, t in cmd.redirects if op in (">", ">>", ">|")]
    if cmd.name == "tee":
        targets += [w for w in cmd.words[1:] if not w.startswith("-")]
    return [resolve_path(t, cmd.cwd or None) or t for t in targets]


_PROGRAM_PATH = re.compile(r"(/usr)?(/local)?/s?bin/\w+|\w+")


def _startup_lines(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> bool:
    """A line written into a startup file or a scheduler's / device manager's folder that is hostile by what it
    says: it shadows a program that asks for a password, or runs a payload from where payloads hide."""
    if cmd.name not in _WRITERS:
        return False
    content = _written_text(cmd, analysis)
    if not content:
        return False
    m = _SHADOW_ALIAS.search(content)
    if m:
        to = m.group("to").rstrip("'\"")
        first = to.split("/")[-1]
        if first != m.group("name") or not _PROGRAM_PATH.fullmatch(to):
            add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                        f"{cmd.name} makes `{m.group('name')}` run {to[:60]} at every shell start: the password typed "
                        f"to it is captured{where}", cmd.span))
            return True
    m = _SHADOW_SCRIPT.search(content)
    if m and _SCRIPT_PLACE.search(m.group("to").rstrip("'\"")):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} makes `{m.group('name')}` run the script {m.group('to')[:60]} at every shell start: "
                    f"each time the person types {m.group('name')}, that script runs in its place{where}", cmd.span))
        return True
    m = _SHADOW_FUNCTION.search(content)
    if m:
        add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                    f"{cmd.name} defines a shell function named {m.group('f1') or m.group('f2')} at every shell "
                    f"start: it stands in for the program and sees the password typed to it{where}", cmd.span))
        return True
    if any(_ENTRY_DIRS.search(t) for t in _written_to(cmd)):
        m = _PAYLOAD_HIDES.search(content)
        if m:
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"{cmd.name} writes a scheduled or device-triggered entry whose program waits where payloads "
                        f"hide ({m.group(0).strip()[:40]}){where}", cmd.span))
            return True
    return False


def _persistence(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if _startup_lines(cmd, analysis, where, add):
        return
    text = cmd.span
    if cmd.name == "crontab" or cmd.upstream:
        text = " ".join([text, *(analysis.commands[i].span for i in cmd.upstream)])
        if cmd.stdin_text:
            text += " " + cmd.stdin_text
    if cmd.name == "crontab" and not cmd.upstream and any(not w.startswith("-") or w == "-" for w in cmd.words[1:]):
        text = analysis.source  # the table read from stdin or from a file: the line that wrote it says what it holds
    m = (_STAGED if cmd.name in _SCHEDULERS else _HIDDEN_RUN).search(text)
    if m is None and cmd.name == "crontab" and (job := _CRON_HOME_SCRIPT.search(text)):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"crontab schedules {job.group(0).strip()[:60]}, a script in a folder the agent writes: whatever "
                    f"the agent puts in it later runs on schedule, unseen{where}", cmd.span))
    elif m:
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} makes a payload run later from where payloads hide ({m.group(0).strip()[:40]})"
                    f"{where}", cmd.span))
    elif cmd.name == "sc" and _SERVICE_SHELL.search(text):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"sc makes a service whose program is a shell running a command{where}", cmd.span))
    elif (m := _START_FETCH.search(text)) and (cmd.name in _REGISTRY_WRITERS or _RAW_ADDRESS_URL.match(m.group(0))):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"{cmd.name} makes a program run at every start that fetches {m.group(0)[:60]}: code from "
                    f"another machine loaded at each logon{where}", cmd.span))


# a cron line the agent installs that runs a script kept in a home or working folder: the agent can rewrite that
# file whenever it likes, and what it says then runs on schedule, unseen (`*/5 * * * * /home/u/transfer.sh`)
_CRON_HOME_SCRIPT = re.compile(r"(?:@(?:reboot|hourly|daily|weekly|monthly|yearly|annually)\s+|(?:[\d*/,-]+\s+){5})"
                               r"(?:(?:bash|sh|zsh|python3?|perl|ruby|node)\s+)?(?:~|\$home|\$\{home\}|/home/[^/\s]+|"
                               r"/users/[^/\s]+|/root|\.{1,2})/[^\s'\"]*\.(?:sh|bash|py|pl|rb|js|php)\b", re.I)
# a start-up entry whose command line names an address to fetch from (a Run value, a task, a cron line)
_START_FETCH = re.compile(r"\b(?:https?|ftp)://[^\s'\"]+", re.I)
_RAW_ADDRESS_URL = re.compile(r"^(?:https?|ftp)://(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?(?:/|$)", re.I)
_REGISTRY_WRITERS = frozenset({"reg", "new-itemproperty", "set-itemproperty", "sp"})


# -- defences ---------------------------------------------------------------------------------------------

def _secret_sent(cmd: Command, analysis: ShellAnalysis, before: Sequence[Finding], where: str, add: Add) -> None:
    """A secret printed by a vault or cloud CLI (or a cluster's secret) fed straight into a network sender."""
    feeding = {*cmd.upstream, *cmd.subst}
    spans = {analysis.commands[i].span for i in feeding}
    hit = next((f for f in before if f.rule == "confirm.shell.secret-read" and f.span in spans), None)
    dest = risky_destination(cmd.words[1:]) if hit is not None else None
    if dest:  # (a token sent to the service it is for, as a header, is how APIs are called: that only asks)
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} sends what the command before it reads out of a secret store to {dest}, a bare "
                    f"address or a drop site{where}", cmd.span))
        return
    if hit is None:
        return
    host = _sink_host(cmd)
    if host is None or _INTERNAL_HOST.match(host):
        return  # a machine of the organisation's own network, or no host the gate can read
    producers = [analysis.commands[i] for i in feeding if analysis.commands[i].span == hit.span]
    minted = next((c for c in producers if c.name in _ISSUERS and
                   not any(_STORE_VERB.search(w) for w in c.words[1:3])), None)
    issuer = None if minted is None else _ISSUERS[minted.name] + tuple(
        minted.words[k + 1] for k in range(1, len(minted.words) - 1) if minted.words[k] == "--hostname")
    if issuer is not None and (minted.name not in _IDENTITY_ISSUERS or _in_body(cmd, analysis, feeding, producers)):
        if any(host == d or host.endswith("." + d) for d in issuer):
            return  # a token sent to its own issuer's API: how that API is called (asks as a secret read)
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} sends a {minted.name} credential to {host}, which is not {minted.name}'s "
                    f"own service: the token leaves for a host that has no use for it{where}", cmd.span))
        return
    if _in_body(cmd, analysis, feeding, producers):
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{cmd.name} sends what the command before it reads out of a secret store to {host}, as the "
                    f"content of a request: a stored secret handed to another host{where}", cmd.span))


# where a token printed by a provider's own CLI is used: that provider's API and sites (a secret store's secret
# has no issuer of this kind: `vault`, `sops`, `op`, `pass` print what anyone stored)
_ISSUERS: dict[str, tuple[str, ...]] = {
    "gh": ("github.com", "githubusercontent.com", "ghe.com"), "glab": ("gitlab.com",),
    "aws": ("amazonaws.com", "aws.amazon.com", "amazonaws.com.cn"),
    "gcloud": ("googleapis.com", "google.com", "gcr.io", "pkg.dev"),
    "az": ("azure.com", "azure.net", "windows.net", "microsoft.com", "microsoftonline.com", "azurecr.io"),
    "doctl": ("digitalocean.com",), "heroku": ("heroku.com",), "flyctl": ("fly.io", "machines.dev", "fly.dev"),
    "fly": ("fly.io", "machines.dev", "fly.dev"),
    "npm": ("npmjs.org", "npmjs.com"), "vercel": ("vercel.com",), "netlify": ("netlify.com",),
    "supabase": ("supabase.com", "supabase.co", "supabase.io"), "wrangler": ("cloudflare.com",),
    "railway": ("railway.app", "railway.com"), "stripe": ("stripe.com",), "twilio": ("twilio.com",),
    "hcloud": ("hetzner.cloud", "hetzner.com"), "linode-cli": ("linode.com",), "vultr-cli": ("vultr.com",),
    "scw": ("scaleway.com",), "civo": ("civo.com",), "render": ("render.com",),
}
# cloud providers whose access and identity tokens are how one calls one's own services on other host names
# (`Authorization: Bearer $(gcloud auth print-identity-token)` to a Cloud Run URL): in a header they keep asking
_IDENTITY_ISSUERS = frozenset({"gcloud", "az", "aws"})
# a provider CLI's secret store (what it prints was stored by someone, for any service): judged as a store's secret
_STORE_VERB = re.compile(r"secret|^ssm$|keyvault|parameter")
# hosts of the organisation's own network: loopback, private ranges, single-label names, internal suffixes
_INTERNAL_HOST = re.compile(r"^(?:localhost|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|\[?::1\]?$|"
                            r"[^.]+$|.*\.(?:internal|local|lan|corp|intranet|home\.arpa|svc|cluster\.local|"
                            r"localdomain|example)$)", re.IGNORECASE)
_URL_HOST = re.compile(r"^(?:https?|ftps?|wss?)://(?:[^/@\s]*@)?(\[[^\]]+\]|[^/:?#\s]+)", re.IGNORECASE)
_HEADER_FLAGS = frozenset({"-H", "--header", "-u", "--user", "--oauth2-bearer", "--proxy-user", "-Headers",
                           "--header-file"})


def _sink_host(cmd: Command) -> str | None:
    """The host a network sender sends to: the host of its URL, or a raw client's host operand (`nc HOST PORT`)."""
    for a in cmd.argv[1:]:
        m = _URL_HOST.match(a.strip("'\""))
        if m:
            return m.group(1).lower().strip("[]")
    if cmd.name in ("nc", "ncat", "netcat", "telnet"):
        ops = [a for a in cmd.argv[1:] if not a.startswith("-")]
        return ops[0].lower() if ops else None
    return None


def _in_body(cmd: Command, analysis: ShellAnalysis, feeding: set[int], producers: list[Command]) -> bool:
    """Whether the secret is sent as what a request carries (piped in and read as data, or a `$(...)` in a data
    argument), not as a header or login (`-H "Authorization: ..."`, `-u user:$(...)`)."""
    if cmd.name not in ("curl", "wget"):
        return True  # nc, socat, telnet, mail: what they are fed is what they send
    argv = cmd.argv
    piped = any(i in cmd.upstream for i in feeding if analysis.commands[i] in producers)
    if piped and any(a.endswith("@-") or a in ("-", "--post-file=-", "--body-file=-") or a.endswith("=@-")
                     for a in argv[1:]):
        return True
    for k in cmd.dynamic:
        if 0 < k < len(argv) and "$(" in argv[k] and argv[k - 1] not in _HEADER_FLAGS and \
                not argv[k].lower().lstrip("'\"").startswith(("authorization:", "x-api-key:", "private-token:")):
            return not argv[k].startswith(("http://", "https://"))
    return False


# debuggers and tracers that attach to a running process and see its memory or its reads and writes
_TRACERS = frozenset({"strace", "ltrace", "gdb", "lldb", "gcore", "perf", "bpftrace", "ptrace", "pmap", "memdump"})
_ATTACH_FLAGS = frozenset({"-p", "--pid", "--attach-pid", "--attach", "attach", "-pid"})
# processes that hold what a person types to log in, unlock or elevate (passwords, keys, session secrets)
_LOGIN_PROCESSES = re.compile(
    r"\b(sshd|ssh-agent|gpg-agent|sudo|su|login|gdm[\w-]*|lightdm|sddm|polkit\w*|gnome-keyring[\w-]*|"
    r"kwalletd\d*|keepassxc|1password|bitwarden|securityd|loginwindow|lsass(\.exe)?|vault|passwd)\b", re.I)


def _tracer_on_login(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A tracer or debugger attached to a login, keyring or elevation process: it reads the secrets they handle."""
    words = cmd.argv[1:]
    attached = cmd.name == "gcore" or any(w in _ATTACH_FLAGS or w.startswith(("--pid=", "-p=")) for w in words)
    if not attached:
        return
    named = [analysis.commands[i] for i in cmd.subst]
    text = " ".join(" ".join(c.argv[1:]) for c in named if c.name in ("pgrep", "pidof", "pgrep.exe")) + " " + \
        " ".join(w for w in words if not w.startswith("-"))
    m = _LOGIN_PROCESSES.search(text)
    if m:
        add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                    f"{cmd.name} attaches to {m.group(1)}, which holds what people type to log in or unlock: it "
                    f"reads their passwords and keys{where}", cmd.span))


def _host_pod(words: Sequence[str]) -> bool:
    """A pod spec (kubectl run --overrides, kubectl debug node/...) that is privileged or shares the host's
    process space, and runs nsenter/chroot into the host."""
    text = " ".join(words).replace(" ", "")
    shares = '"privileged":true' in text or '"hostpid":true' in text or "--profile=sysadmin" in text or \
        any(w.startswith("node/") for w in words)
    return shares and ("nsenter" in text or "chroot" in text or '"path":"/"' in text)


# roles that own a whole cloud project, subscription or cluster
_ADMIN_ROLE = re.compile(r"^(roles/(owner|editor|resourcemanager\.projectiamadmin|iam\.securityadmin)|owner|"
                         r"user access administrator|cluster-admin|administratoraccess|"
                         r"arn:aws:iam::aws:policy/(administratoraccess|iamfullaccess))$")
# members outside any organisation: personal mail accounts, every user, and a namespace's default account
_OUTSIDER = re.compile(r"(@(gmail|googlemail|outlook|hotmail|yahoo|proton(mail)?|icloud|aol|gmx|yandex|mail)\.[a-z.]+"
                       r"$|^(allusers|allauthenticatedusers)$|:default$|^system:(anonymous|unauthenticated)$)")


_CLOUD_CLIS = frozenset({"gcloud", "az", "kubectl", "oc", "aws"})  # the programs that grant roles
_GRANT_VERB = re.compile(r"add-iam-policy-binding|role assignment create|clusterrolebinding|rolebinding|"
                         r"attach-(user|role|group)-policy|add-cluster-role-to-user")


_MEMBER_KIND = re.compile(r"^(user|serviceaccount|group|domain):")
_MEMBER_KIND_SHORT = re.compile(r"^(user|group|domain):")


def _admin_grant(cmd: Command) -> str:
    """Owner of a cloud project or cluster-admin given to an outsider, every user, or a default service account
    (the classic step from a foothold to the whole account); an empty string if not."""
    if cmd.name not in _CLOUD_CLIS:
        return ""
    words = list(cmd.words[1:])
    joined = " ".join(words)
    if not _GRANT_VERB.search(joined):
        return ""
    values = [w.split("=", 1)[1] if w.startswith("--") and "=" in w else w for w in words]
    values = [v.strip("'\"") for v in values]
    role = next((v for v in values if _ADMIN_ROLE.match(v)), "")
    member = next((_MEMBER_KIND.sub("", v) for v in values
                   if _OUTSIDER.search(_MEMBER_KIND_SHORT.sub("", v))), "")
    if role and member:
        return f"{cmd.name} gives {role} (the whole account or cluster) to {member}, who is outside the organisation"
    return ""


_DEFENCE_CUES = frozenset({"confirm.shell.system-disruption", "confirm.shell.persistence", "confirm.shell.system-write",
                           "confirm.shell.unknown-program", "confirm.shell.privilege-escalation"})
_SECURITY_UNIT = re.compile(r"\b(pf|pfctl|opendns|umbrella|roamingclient|littlesnitch|lulu|santa|xprotect|mrt|"
                            r"falcon|crowdstrike|csagent|sentinel\w*|carbonblack|cbdefense|cylance\w*|sophos\w*|"
                            r"mcafee\w*|symantec\w*|norton\w*|bitdefender\w*|kaspersky\w*|eset\w*|trendmicro\w*|"
                            r"defender|windefend|wdnissvc|mpssvc|sense|sysmon\w*|wazuh\w*|ossec\w*|osquery\w*|"
                            r"auditd|rsyslog\w*|syslog\w*|journald|clamd|clamav\w*|firewalld?|ufw|elastic-agent|"
                            r"cortex\w*|traps\w*|tanium\w*|qualys\w*|eventlog|wecsvc|wscsvc|securityhealth\w*|"
                            # the display names `net stop` and Stop-Service -DisplayName take
                            r"security\s*cent(?:er|re)|windows\s+(?:security|firewall|event\s*log)|"
                            r"(?:windows|microsoft)\s+defender[\w ]*|base\s+filtering\s+engine|"
                            r"sysmon|osqueryd?|jamf\s*protect|protectctl)\b", re.I)
_STOPS = re.compile(r"(^|\s)(stop|disable|mask|kill|unload|bootout|remove|delete)(\s|$)|start=\s*disabled|"
                    r"-startuptype\s+disabled", re.I)
_NRPT_SINK = re.compile(r"-namespace\s+\S*(security|defender|windowsupdate|update\.microsoft|crowdstrike|sentinelone|"
                        r"sophos|mcafee|symantec|eset|kaspersky|bitdefender)\S*.*-nameservers\s+(127\.|0\.0\.0\.0|::1)",
                        re.I)


_NO_STORAGE = re.compile(r"storage\s*=\s*none", re.I)


def _defences(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    name = cmd.name
    text = " ".join(cmd.words[1:])
    if name in ("net", "sc", "service", "systemctl", "launchctl", "stop-service", "spsv", "set-service",
                "pfctl", "svcadm", "rc-service", "rc-update") and _STOPS.search(" " + text + " ") and \
            _SECURITY_UNIT.search(text):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{name} stops or disables a security or logging service "
                    f"({_SECURITY_UNIT.search(text).group(0)}){where}", cmd.span))
    elif name in ("sed", "gsed", "tee", "echo", "printf", "perl") and "journald" in cmd.span and \
            _NO_STORAGE.search(cmd.span):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{name} tells journald to store no logs{where}", cmd.span))
    elif name == "ufw" and cmd.words[1:3] == ("logging", "off"):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"ufw stops logging the firewall's decisions{where}",
                    cmd.span))
    elif name == "add-dnsclientnrptrule" and _NRPT_SINK.search(text):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{name} sends a security vendor's endpoints to a dead resolver: the agent goes silent{where}",
                    cmd.span))


# -- data out -----------------------------------------------------------------------------------------------

_SINKS = frozenset({"nc", "ncat", "netcat", "socat", "telnet", "ssh", "curl", "wget", "mail", "mailx", "sendmail",
                    "mutt", "s-nail"})
_UPLOAD = re.compile(r"(^|\s)(-f|--form|-t|--upload-file|--data-binary|--data|-d|--post-file)(\s|=)\S*@?|"
                     r"=@|(^|\s)@[^\s]")
# a home's personal folders, or a folder named for what is private in it
_PERSONAL = re.compile(r"^(/home/[^/]+|/users/[^/]+)/(documents|desktop|pictures|photos|downloads|library|mail|"
                       r"movies|music|videos)(/|$)|^/home/[^/]+/[^/]*(sensitive|secret|private|confidential|personal|"
                       r"loot|l00t|passwords?)[^/]*(/|$)", re.I)
_ACCOUNT_FILE = re.compile(r"/etc/(passwd|group|shadow|gshadow|master\.passwd|sudoers)\b|/etc/ssh/ssh_host")
_LOOPBACK = re.compile(r"^([\w.-]+@)?(localhost|127\.[\d.]+|::1|\[::1\])(:\d+)?$")
_ARCHIVERS = frozenset({"tar", "ditto", "zip", "7z", "cpio", "pax", "gtar", "bsdtar"})
_RECORDS = re.compile(r"\.(csv|tsv|xlsx?|ods|sql|db|sqlite3?|json|parquet|bak|dump)$", re.I)
_FREEMAIL = re.compile(r"@(gmail|googlemail|outlook|hotmail|live|yahoo|proton|protonmail|pm|gmx|mail|yandex|icloud|"
                       r"aol|zoho|tutanota|qq|163)\.", re.I)


_DUMPS_STATE = frozenset({"env", "printenv", "set", "export", "history", "get-childitem", "gci", "declare",
                          "security", "ps", "netstat", "ifconfig", "ipconfig", "whoami", "id", "uname", "hostname"})


def _sensitive_upload(d: Detector, cmd: Command, analysis: ShellAnalysis) -> str | None:
    """What sensitive a file upload sends: an account, secret or records file, or a file an earlier command
    of the line filled with the environment or system state (`env > e.txt && curl -F f=@e.txt ...`)."""
    words = cmd.words[1:]
    files = [w.split("@", 1)[1] for w in words if "@" in w and not w.startswith("@")] + \
        [w[1:] for w in words if w.startswith("@")] + \
        [words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-t", "--upload-file", "--post-file")]
    files = [f.split(";", 1)[0].strip("'\"") for f in files if f and f != "-"]
    written = {t: c.name for c in analysis.commands if c is not cmd and c.name in _DUMPS_STATE
               for op, t in c.redirects if op in (">", ">>")}
    for f in files:
        if _ACCOUNT_FILE.search(f) or _RECORDS.search(f) or d.secret_path(cmd, f):
            return f
        if f in written:
            return f"{f} (the output of {written[f]})"
    if cmd.upstream and any(analysis.commands[i].name in _DUMPS_STATE for i in cmd.upstream) and "@-" in words:
        return "the output of " + analysis.commands[cmd.upstream[0]].name
    return None


_NUMERIC_SITE = re.compile(r"[\d.]+")


def _exfiltration(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    name = cmd.name
    if name in ("curl", "wget", "http", "https", "curl.exe") and _UPLOAD.search(" " + " ".join(cmd.words[1:])):
        site = risky_destination(cmd.words)
        sent = _sensitive_upload(d, cmd, analysis) if site and not _NUMERIC_SITE.fullmatch(site) else None
        if sent:
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"{name} uploads {sent} to {site}, a public drop site anyone can fetch it from{where}",
                        cmd.span))
            return
    if name in ("mail", "mailx", "sendmail", "mutt", "s-nail") and _FREEMAIL.search(" ".join(cmd.words)) and \
            any(op == "<" and _RECORDS.search(t) for op, t in cmd.redirects):
        add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                    f"{name} mails a data file to a personal free-mail address{where}", cmd.span))
        return
    if name not in _SINKS or not cmd.upstream or any(_LOOPBACK.match(w) for w in cmd.words[1:]):
        return  # (a sink on this machine sends nothing away)
    for i in cmd.upstream:
        up = analysis.commands[i]
        text = " ".join(up.words[1:])
        if _ACCOUNT_FILE.search(text):
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"{name} sends the system's account file ({_ACCOUNT_FILE.search(text).group(0)}) off the "
                        f"machine{where}", cmd.span))
            return
        if up.name in _ARCHIVERS and any(_PERSONAL.search(resolve_path(w, up.cwd or None) or w)
                                          for w in up.words[1:] if not w.startswith("-")):
            add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                        f"{up.name} packs a folder of the home and {name} sends it off the machine{where}", cmd.span))
            return


# -- deletes past undoing ----------------------------------------------------------------------------------

_DATA_DIRS = re.compile(r"^/var/lib/(postgresql|pgsql|mysql|mariadb|mongodb|mongo|redis|elasticsearch|opensearch|"
                        r"cassandra|influxdb|etcd|clickhouse|neo4j|couchdb|rabbitmq)(/|$)|^/var/lib/docker/volumes(/|$)|"
                        r"^/(usr/local/)?var/(postgres|mysql)(/|$)|/pg_?data(/|$)")
MY_FOLDER = re.compile(r"^(/home/[^/]+|/users/[^/]+|/c:/users/[^/]+)/(documents|desktop|pictures|photos|movies|"
                        r"videos|music|onedrive)")
_PRECIOUS = re.compile(r"prod|production|live|backup|bkp|archive|snapshot|kube-system|default$", re.I)
_RECURSIVE_FLAG = re.compile(r"-[a-z]*r[a-z]*|--recursive|-recurse|/s")
WHOLE_FOLDER = re.compile(r"(^|/)\*?$")
_CLOUD_GONE = frozenset({"terminate-instances", "delete-db-instance", "delete-db-cluster", "delete-table",
                         "delete-bucket", "delete-cluster", "delete-file-system", "delete-vault"})


def _past_undoing(d: Detector, cmd: Command, where: str, add: Add, analysis: ShellAnalysis | None = None) -> None:
    name = cmd.name
    words = cmd.words[1:]
    verbs = [w for w in words if not w.startswith("-")]
    if name == "find" and "-delete" in words and verbs:
        path = resolve_path(verbs[0], cmd.cwd or None)
        # from the root or inside the system, whatever it looks for; from a home or other protected folder,
        # only when it deletes everything it walks (no name, path or type filter)
        filtered = any(w in ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-type", "-newer", "-empty")
                       for w in words)
        if path and (path == "/" or d.in_tree(path) or (not filtered and d.is_protected(path.rstrip("/") or "/"))):
            add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                        f"find -delete over {display_path(path)}: deletes across a whole system or home tree{where}",
                        cmd.span))
        return
    if name in ("rm", "shred", "srm", "rmdir", "remove-item", "ri", "del", "rd"):
        recursive = any(_RECURSIVE_FLAG.fullmatch(w) for w in words)
        for w in verbs:
            path = resolve_path(w, cmd.cwd or None)
            # everything in a personal folder (`rm -rf ~/Documents/*`), or files shredded past recovery there
            if path and MY_FOLDER.match(path) and ((recursive and WHOLE_FOLDER.search(path.removeprefix(
                    MY_FOLDER.match(path).group(0)))) or (name in ("shred", "srm") and "*" in path)):
                add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                            f"{name} deletes everything in {display_path(path)}, a folder of personal files{where}",
                            cmd.span))
                return
            if path and _DATA_DIRS.search(path):
                add(Finding("block.shell.database-destruction", Risk.CRITICAL,
                            f"{name} deletes a database's data directory {display_path(path)}{where}", cmd.span))
                return
        return
    what = ""
    if name in ("kubectl", "oc") and verbs[:1] == ["delete"] and len(verbs) > 1 and verbs[1] in ("namespace", "ns",
                                                                                                  "namespaces"):
        if any(_PRECIOUS.search(v) for v in verbs[2:]) or "--all" in words:
            what = f"deletes the namespace {' '.join(verbs[2:4]) or '(all)'} and everything running in it"
    elif name in ("kubectl", "oc") and verbs[:1] == ["delete"] and "--all" in words and \
            any(w in ("--all-namespaces", "-A") for w in cmd.argv[1:]):
        what = f"deletes every {verbs[1] if len(verbs) > 1 else 'object'} in every namespace of the cluster"
    elif name in ("terraform", "tofu", "pulumi", "cdk") and "destroy" in verbs and \
            any(w in ("-auto-approve", "--auto-approve", "--yes", "-y", "--force", "--skip-preview") for w in words) \
            and not any(w.startswith(("-target", "--target")) for w in words):  # one named resource: asks
        what = f"{name} destroy without a review of the plan"
    elif name == "aws" and verbs[:2] == ["s3", "rm"] and "--recursive" in words and \
            any(_PRECIOUS.search(v) for v in verbs[2:]):
        what = "empties a backup or production bucket"
    elif name == "aws" and verbs[:2] == ["s3", "rb"] and "--force" in words:
        what = "deletes a bucket and everything in it"
    elif name == "aws" and len(verbs) > 1 and verbs[1] in _CLOUD_GONE and not _one_named(cmd):
        what = f"aws {verbs[0]} {verbs[1]}: the machines, databases or data are gone for good"
    elif name[7:] in _HELD_NOUNS and name.startswith("remove-") and analysis is not None and \
            _every_one_listed(cmd, analysis):
        what = f"{cmd.name} removes every {name[7:]} that a bare Get-{name[7:]} lists"
    elif name in ("aws", "gcloud", "az") and "xargs" in cmd.via and analysis is not None and \
            _whole_listing(cmd, analysis):
        what = f"{name} {' '.join(verbs[:2])} of everything an unfiltered listing hands it: the account's resources go"
    elif name == "kill" and any(w == "-1" for w in words[1:]) and any(w in ("-9", "-kill", "-sigkill", "-s")
                                                                       for w in words):
        what = "kills every process it may (kill -9 -1): the session and all unsaved work"
    elif name == "killall5" or (name == "pkill" and "-9" in words and "-u" in words and
                                any(w in ("root", "0") for w in words)):
        what = "kills every process"
    if what:
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL, f"{what}{where}", cmd.span))


def _one_named(cmd: Command) -> bool:
    """Whether a cloud delete names exactly one resource by hand (`aws ec2 terminate-instances --instance-ids
    i-0abc`): no second id, no id made at run time (`$(...)`, `$VAR`), no wildcard, no production or backup
    name, and no database's final snapshot skipped (its backups then go with it). One machine or table named
    asks (`confirm.shell.destructive`); several, or whatever a listing hands over, block."""
    ids = 0
    flag = ""
    for k, w in enumerate(cmd.words[1:], start=1):
        if w.startswith("-"):
            flag, _, value = w.partition("=")
            words = [value] if value else []
        else:
            words = [w]
        if not flag.endswith(("-ids", "-id", "-names", "-name", "-arns", "-arn", "-identifiers", "-identifier")):
            continue
        for v in words:
            if k in cmd.dynamic or "*" in v or "?" in v or "$" in v or _PRECIOUS.search(v):
                return False
            ids += len([p for p in v.split(",") if p])
    return ids <= 1 and not cmd.subst and not cmd.found and "--skip-final-snapshot" not in cmd.words


def _whole_listing(cmd: Command, analysis: ShellAnalysis) -> bool:
    """Whether the cloud delete `cmd` (run by xargs) is fed by a listing of the same CLI that names no filter:
    `aws iam list-users ... | xargs -n1 aws iam delete-user --user-name` deletes every user there is."""
    feeders = [analysis.commands[i] for i in cmd.upstream if i < len(analysis.commands)]
    listings = [f for f in feeders if f.name == cmd.name and any(
        w == "list" or w.startswith(("list-", "describe-")) for w in f.words[1:4])]
    filtered = any(f.name in _PICKERS for f in feeders) or any(
        w.startswith(("--filter", "--prefix", "--owner", "--tag", "--resource-group", "-g", "--label",
                      "--name-prefix", "--path-prefix", "--max-items")) or "[?" in w
        for f in listings for w in f.words)
    return bool(listings) and not filtered


# what a host, directory or tenant keeps and cannot get back once every one is removed (not a session's own
# objects: jobs, sessions, modules, drives, breakpoints)
_HELD_NOUNS = frozenset({"vm", "vmsnapshot", "vhd", "appxpackage", "appxprovisionedpackage", "aduser", "adcomputer",
                         "adgroup", "adorganizationalunit", "adobject", "mailbox", "localuser", "localgroup",
                         "smbshare", "netfirewallrule", "gpo", "storagepool", "virtualdisk", "partition",
                         "dnsserverresourcerecord", "azresourcegroup", "azvm", "azstorageaccount", "azsqldatabase",
                         "azkeyvault", "azwebapp", "dbadatabase", "mguser", "mggroup", "clusterresource"})


_SHAPING_FLAGS = frozenset({"-resultsize", "-properties", "-property", "-server", "-erroraction", "-credential",
                            "-computername", "-vmname", "-filter", "-searchscope"})


def _every_one_listed(cmd: Command, analysis: ShellAnalysis) -> bool:
    """Whether PowerShell's `Remove-NOUN` is fed by a `Get-NOUN` that names nothing and is filtered by nothing:
    `Get-VM | Remove-VM -Force` removes every virtual machine of the host."""
    feeders = [analysis.commands[i] for i in cmd.upstream if i < len(analysis.commands)]
    if any(f.name in _PICKERS or f.name in ("select-object", "select") for f in feeders):
        return False
    for f in feeders:
        if f.name != "get-" + cmd.name[7:]:
            continue
        words = f.words[1:]
        # a word that is not a switch names or picks something (`*xbox*`), unless it is the value of a flag
        # that only shapes the listing (`-ResultSize Unlimited`) or a bare `*`
        named = any(not w.startswith("-") and w not in ("*", "'*'", '"*"') and
                    not (k and words[k - 1] in _SHAPING_FLAGS) for k, w in enumerate(words))
        narrowed = any(w.startswith(("-name", "-identity", "-vmname", "-id", "-searchbase", "-ldapfilter",
                                     "-resourcegroupname", "-path", "-literalpath", "-filter")) and
                       not (k + 1 < len(words) and words[k + 1] in ("*", "'*'", '"*"'))
                       for k, w in enumerate(words))
        return not named and not narrowed
    return False


# what picks some lines of a listing out (a grep, an awk pattern, a head): the delete is not of everything
_PICKERS = frozenset({"grep", "egrep", "fgrep", "rg", "head", "tail", "sed", "where-object", "where", "?", "findstr",
                      "jq"})


# -- account backdoors -------------------------------------------------------------------------------------

_ACCOUNT_CUES = frozenset({"confirm.shell.system-write", "confirm.shell.privilege-escalation"})
_SUDOERS = re.compile(r"^/etc/(sudoers|sudoers\.d/\S+|passwd|shadow|group)$")
_ROOT_PAIR = re.compile(r"(^|[\s'\"])root:[^\s'\"]")  # `root:newpassword` fed to chpasswd


# tunnel clients that publish a local port (`ngrok tcp 3389`, `cloudflared tunnel --url tcp://localhost:5900`,
# `lt --port 5900`), and a remote-login service's port or address among their words
_PORT_TUNNELS = frozenset({"ngrok", "pinggy", "bore", "zrok", "cloudflared", "lt", "localtunnel", "devtunnel",
                           "tunnelmole", "localxpose", "loclx", "frpc", "chisel", "rathole", "playit", "tailscale"})
_ROOT_LOGIN = re.compile(r"permitrootlogin\s+yes", re.I)
_ROOT_OWNERSHIP = re.compile(r"^(root|0)?([:.](root|0|wheel|shadow)?)?$")


def _accounts(d: Detector, cmd: Command, analysis: ShellAnalysis, rules: set[str], where: str, add: Add) -> None:
    name = cmd.name
    words = cmd.words[1:]
    if name in ("useradd", "usermod", "adduser") or (name == "pw" and words[:1] in (["useradd"], ["usermod"])):
        for k, w in enumerate(words[:-1]):
            if (w in ("-g", "-G", "--gid", "--groups") and words[k + 1] in ("0", "root")) or \
                    (w in ("-d", "--home", "--home-dir") and words[k + 1] == "/root"):
                add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                            f"{name} makes an account that shares root's group or home{where}", cmd.span))
                return
        return
    if name == "sysadminctl":
        if "-resetpasswordfor" in words or ("-adduser" in words and ("-admin" in words or "-password" in words)):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"sysadminctl makes an account or resets a password with a literal password{where}",
                        cmd.span))
        return
    said = " ".join([cmd.span, cmd.stdin_text or "", *(analysis.commands[i].span for i in cmd.upstream)])
    if (name == "chpasswd" and _ROOT_PAIR.search(said)) or \
            (name == "passwd" and "root" in words and (cmd.upstream or cmd.stdin_text)):
        add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                    f"{name} sets root's password to one the agent chose: the machine's highest account is "
                    f"then the agent's{where}", cmd.span))
        return
    if name in ("sed", "gsed", "tee", "echo", "printf", "perl") and \
            _ROOT_LOGIN.search(said) and "sshd_config" in analysis.source:
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{name} lets root log in over SSH (PermitRootLogin yes){where}", cmd.span))
        return
    if name in ("chown", "chgrp"):
        ops = [w for w in words if not w.startswith("-")]
        if len(ops) > 1 and not _ROOT_OWNERSHIP.match(ops[0]):
            for w in ops[1:]:
                path = resolve_path(w, cmd.cwd or None)
                if path and _SUDOERS.match(path):
                    add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                                f"{name} gives {display_path(path)} to {ops[0]}: who may act as root is theirs to "
                                f"change{where}", cmd.span))
                    return


# -- shells on sockets, libraries loaded from where payloads hide, masquerading, escapes and tunnels --------

_NET_CLIENTS = frozenset({"telnet", "nc", "ncat", "netcat", "openssl", "socat", "cryptcat", "ssh", "sshpass"})
_LIB_LOAD = Guarded(re.compile(r"(loadlibrary|cdll|windll|ctypes\.cdll|dlopen|ffi\.load|ffi\.dlopen|load_extension|"
                       r"(^|\s)-engine|(^|\s)-d|(^|\s)-pkcs11|(^|\s)load|require)[\s('\"=]{0,4}(?P<lib>[^\s'\"()]+\."
                       r"(so|dylib|dll)(\.[\d.]+)?)\b", re.I))
_WHERE_PAYLOADS_HIDE = re.compile(r"^(/private)?/(tmp|var/tmp|dev/shm)/|/downloads/|(^|/)\.[^./][^/]*/|"
                                  r"^\.?/?[^/]+$|\\temp\\|%temp%|\$env:temp", re.I)
_MODULE_HIDES = re.compile(r"^(/private)?/(tmp|var/tmp|dev/shm)/|/downloads/|(^|/)\.[^./][^/]*/", re.I)
_MEDIA = re.compile(r"\.(png|jpe?g|gif|bmp|ico|webp|svg|pdf|docx?|xlsx?|pptx?|mp3|mp4|mov|wav|avi)$", re.I)
_SYSTEM_BINARY = re.compile(r"(system32|syswow64|windowspowershell)[\\/]?(v1\.0[\\/]?)?(?P<exe>[\w.-]+\.exe)$|"
                            r"^/(usr/)?s?bin/(?P<bin>(ba|z|da|k)?sh|python3?|perl|nc)$", re.I)
_REMOTE_LOGIN_PORTS = frozenset({"22", "3389", "5900", "5901", "23", "5985", "5986"})
_REMOTE_LOGIN_ADDRESS = re.compile(rf":({'|'.join(sorted(_REMOTE_LOGIN_PORTS))})/?$")  # `tcp://localhost:3389`


# findings that say a program runs code the gate did not see: only then can a library it loads be the payload
_RUNS_UNSEEN = frozenset({"confirm.shell.indirect-exec", "confirm.shell.unknown-program", "confirm.shell.shell-spawn"})


_ZTCP_REPLY = re.compile(r"[<>]&\s*\$\{?reply", re.I)


def _ztcp_shell(cmd: Command, where: str, add: Add) -> bool:
    """zsh's ztcp with a shell's input or output on its connection (whatever program the parse saw)."""
    span = cmd.span
    if "ztcp" in span and _ZTCP_REPLY.search(span):
        add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                    f"zsh's ztcp wires a shell to a network socket{where}", span))
        return True
    return False


def _masquerading(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> bool:
    """`cmd` runs a system shell that an earlier command copied under another name."""
    renamed = _masquerade(cmd, analysis) if len(analysis.commands) > 1 else None  # (its own first test)
    if renamed:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"runs {renamed}: a system shell copied under another name{where}", cmd.span))
        return True
    return False


_SOCKET_PROGRAM = re.compile(r"(^|\s)-\w*p\w*\s+\S*(sh|bash|zsh|python3?|perl)\b")
_CHANGE_ROOT = re.compile(r"\s(chroot|nsenter)\s")


def _reach(cmd: Command, analysis: ShellAnalysis, rules: set[str], where: str, add: Add) -> None:
    name = cmd.name
    span = cmd.span
    if name in SHELLS and cmd.upstream and any(analysis.commands[i].name in _NET_CLIENTS and
                                               analysis.commands[i].name not in ("ssh", "sshpass")
                                               for i in cmd.upstream):
        add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                    f"{name} runs what a network connection sends it: a reverse shell{where}", span))
        return
    if _ztcp_shell(cmd, where, add):
        return
    if name == "socket" and _SOCKET_PROGRAM.search(" ".join(cmd.words[1:])):
        add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                    f"socket runs a shell on its connection{where}", span))
        return
    if name in ("insmod", "modprobe", "kldload", "kextload"):
        module = next((w for w in cmd.argv[1:] if not w.startswith("-") and ("/" in w or w.endswith((".ko", ".kext")))),
                      "")
        if module and _MODULE_HIDES.search(module.strip("'\"")):  # (./hello.ko, a module being written, asks)
            add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                        f"{name} loads the kernel module {module[:60]} from where payloads hide: its code runs in the "
                        f"kernel, above every defence{where}", span))
            return
    if not rules.isdisjoint(_RUNS_UNSEEN):
        m = _LIB_LOAD.search(span)
        if m and _WHERE_PAYLOADS_HIDE.search(m.group("lib").strip("'\"")):
            add(Finding("block.shell.loader-hook", Risk.CRITICAL,
                        f"{name} loads the library {m.group('lib')[:60]} from where payloads hide: its code runs "
                        f"inside {name}{where}", span))
            return
    if (name in SHELLS or name in INTERPRETERS) and cmd.argv[1:] and not any(
            (w.startswith("-") and not w.startswith("--") and ("c" in w or "e" in w or "m" in w)) or
            w in ("--command", "--eval") for w in cmd.argv[1:]):
        script = next((w for w in cmd.argv[1:] if not w.startswith("-")), "")
        if _MEDIA.search(script):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{name} runs {script[:60]}, a script dressed as a picture or document{where}", span))
            return
    if _masquerading(cmd, analysis, where, add):
        return
    if name in ("docker", "podman") and "confirm.shell.privilege-escalation" in rules and \
            _CHANGE_ROOT.search(" " + " ".join(cmd.words) + " "):
        add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                    f"{name} runs a privileged container that enters the host's root: root on the host{where}", span))
        return
    if name in ("kubectl", "oc") and cmd.words[1:2] in (("run",), ("debug",)) and _host_pod(cmd.words):
        add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                    f"{name} starts a privileged pod that shares the node's processes or root and enters them: root "
                    f"on the node{where}", span))
        return
    grant = _admin_grant(cmd) if name in _CLOUD_CLIS else ""  # (its own first test, without the call)
    if grant:
        add(Finding("block.shell.credential-tamper", Risk.CRITICAL, f"{grant}{where}", span))
        return
    if name in _PORT_TUNNELS and any(w in _REMOTE_LOGIN_PORTS or _REMOTE_LOGIN_ADDRESS.search(w)
                                     for w in cmd.words[1:]):
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"{name} puts this machine's remote-login port on the internet{where}", span))


_SHELL_COPIERS = frozenset({"copy", "cp", "copy-item", "cpi", "xcopy"})


@functools.lru_cache(maxsize=256)
def _copies_anything(analysis: ShellAnalysis) -> bool:
    """Whether any command of the string is a copy that `_masquerade` reads (once per analysis: it is asked for
    every command after the first, and most strings copy nothing)."""
    return any(c.name in _SHELL_COPIERS and len(c.words) >= 3 for c in analysis.commands)


_DEST_SEP = re.compile(r"[\\/:]")


def _masquerade(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """The copy of a system shell under another name that `cmd` runs (as its program or as an argument)."""
    if len(analysis.commands) < 2 or not _copies_anything(analysis):
        return None
    copies: dict[str, str] = {}
    for c in analysis.commands:
        if c is cmd:
            break
        if c.name in _SHELL_COPIERS and len(c.words) >= 3:
            ops = [w for w in c.words[1:] if not w.startswith(("-", "/"))] or list(c.words[1:])
            srcs = [w for w in c.words[1:] if _SYSTEM_BINARY.search(w)]
            if not srcs:
                continue
            m = _SYSTEM_BINARY.search(srcs[0])
            base = (m.group("exe") or m.group("bin") or "").lower()
            dest = next((w for w in reversed(c.words[1:]) if w not in srcs and not w.startswith("/y")), ops[-1])
            tail = _DEST_SEP.split(dest)[-1]
            if tail and tail != base and not tail.endswith(base):
                copies[dest] = base
    if not copies:
        return None
    runs = cmd.words[:1] if cmd.name not in ("cmd", "start", "start-process", "saps", "powershell", "pwsh",
                                             "invoke-item", "ii", "nohup", "exec") else cmd.words
    for w in runs:
        if w in copies:
            return f"{w} (a copy of {copies[w]})"
    return None


# -- writes through output flags, and files put from a transfer session --------------------------------------

_OUT_FLAGS = frozenset({"-o", "-O", "--output", "--out", "-out", "--outfile", "--out-file", "-outfile", "/save",
                        "--save", "-w", "--write", "-f", "--file", "--log-file", "--logfile"})
_CONTROL = re.compile(r"(^|/)\.ssh/authorized_keys2?$|^/etc/(sudoers(\.d/.*)?|passwd|shadow|group|ld\.so\.preload)$|"
                      r"^/etc/pam\.d/")
_WRITERS_BY_NAME = frozenset({"cp", "mv", "install", "tee", "dd", "rsync", "ln", "sed", "gsed", "perl", "truncate"})
# the names _written_through_flags and _output_flags read whatever the words (an ftp session's put, cmd's /save)
_READS_ANY_WORDS = frozenset({"put", "mput", "reput", "save"})


# an output flag as a whole word of the joined words, alone or as `flag=value` (a word with a space inside it
# can only add a false alarm, which the look at each word below then drops)
_ANY_OUT_FLAG = re.compile("(?:^| )(?:" + "|".join(re.escape(f) for f in sorted(_OUT_FLAGS)) + ")(?:[= ]|$)")


def _output_flags(words: tuple[str, ...], name: str) -> list[tuple[str, str]]:
    """Each output flag of `words` (`-o`, `--out=`, `/save`, ...) with the word after it, in order."""
    found = []
    if name != "save" and _OUT_FLAGS.isdisjoint(words) and "=" not in "".join(words):
        return found  # no word is an output flag, nor one with `=value` (set look-ups, no search)
    if name != "save" and _ANY_OUT_FLAG.search(" ".join(words)) is None:
        return found  # no word is an output flag (the words joined: one search instead of a look at each)
    for k in range(len(words) - 1):
        flag = words[k]
        if flag[:1] in ("-", "/"):  # (every output flag starts with one; most words do not)
            base = flag.split("=", 1)[0]
            if base in _OUT_FLAGS:
                found.append((base, words[k + 1]))
    if name == "save":
        found.append(("/save", words[1] if len(words) > 1 else ""))
    return found


# ssh-keygen's modes that only read the file -f names
_KEYGEN_READS = frozenset({"-l", "-lf", "-y", "-e", "-B", "-F", "-lv", "-E", "-Y", "-Q"})


def _written_through_flags(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    name = cmd.name
    if name in _WRITERS_BY_NAME:
        return  # judged by the write checks themselves
    if name == "auditctl":
        return  # (its -w names a file for the kernel to watch: nothing is written to it)
    words = cmd.argv
    if name in ("put", "mput", "reput") and any(c.name in ("sftp", "ftp", "lftp", "tftp") for c in analysis.commands):
        for w in words[1:]:
            path = resolve_path(w, cmd.cwd or None) or w
            if d.credential_files.search(path) or d.secret_path(cmd, w):
                add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                            f"{name} sends {display_path(path)} to the server of the transfer session{where}",
                            cmd.span))
                return
        return
    if name == "ssh-keygen" and _KEYGEN_READS.intersection(words):
        return  # -f names the file it reads in these modes: fingerprints, the public half, an export
    for base, value in _output_flags(words, name):
        path = resolve_path(value, cmd.cwd or None)
        if path and _CONTROL.search(path):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"{name} writes {display_path(path)} through its output flag {base}: it decides who may "
                        f"log in or act as root{where}", cmd.span))
            return


# Every finding (rule id) some check of `_escalate` or `_reach` builds on for a program it does not single out:
# a command with other findings only can still take the short way
_ESCALATING = frozenset({*_DEFENCE_CUES, "confirm.shell.network", "confirm.shell.destructive",
                         "confirm.shell.system-disruption", *_ACCOUNT_CUES, *_RUNS_UNSEEN, "confirm.shell.persistence"})

# Every program name `escalate` and `_reach` single out (as the folded name or its `_base`): a command of any
# other name, with no finding of _ESCALATING and not run as root, meets only `_ztcp_shell`, `_masquerading` and
# `_written_through_flags`. A check added above that names a program (or builds on a finding) must name it
# here (in _ESCALATING) too.
_SINGLED_OUT = frozenset({
    *INTERPRETERS, "powershell", "pwsh", "iex", "invoke-expression", "import-module", *_COPIERS, "find", *_PRINTERS,
    "tar", "zip", "scp", "curl", *_TOOLS, *_REMOTE_EXEC, *_WIDE_SCANNERS, "psexec", "psexec64", "paexec", *_SINKS,
    *_TRACERS, "ufw",
    "sysadminctl", "useradd", "usermod", "adduser", "pw", "yes", "chmod", "install", "setcap", "launchctl",
    "defaults", *SHELLS, "socket", "insmod", "modprobe", "kldload", "kextload", "docker", "podman", "kubectl", "oc",
    *_CLOUD_CLIS, "ngrok", "pinggy", "bore", "zrok"})


# -- history erased --------------------------------------------------------------------------------------

_HISTORY_FILE = re.compile(r"(^|/)\.(bash|zsh|sh|ksh|python|mysql|psql|node_repl|lesshst)_?hist(ory)?$|"
                           r"(^|/)\.zhistory$|(^|/)\.history$|consolehost_history\.txt$|historysavepath", re.I)
_HISTORY_VARS = frozenset({"histfile", "histsize", "histfilesize", "savehist"})
_ERASERS = frozenset({"rm", "shred", "srm", "truncate", "remove-item", "ri", "del", "clear-content", "ln", "unlink",
                      "set-content", "out-file"})


def _history_steps(analysis: ShellAnalysis) -> tuple[int, int, str]:
    """The steps of the line that clear the shell history kept so far (history -c, the history file emptied or
    deleted, PowerShell's saved history removed) and those that stop it recording what comes next (unset
    HISTFILE, HISTFILESIZE=0, set +o history, -HistorySaveStyle SaveNothing), and the span of the first."""
    clears = stops = 0
    first = ""
    for name, value in analysis.assignments:
        if (name in _HISTORY_VARS and value.strip() in ("0", "", "/dev/null")) or \
                (name == "histignore" and value.strip("'\" ") in ("*", "*:*")):
            stops += 1
            first = first or f"{name}={value}"
    for cmd in analysis.commands:
        words = cmd.words[1:]
        clear = (cmd.name == "history" and any(w.startswith(("-c", "-w", "-d")) for w in words)) or \
            cmd.name in ("clear-history", "clhy") or \
            (cmd.name in _ERASERS and any(_HISTORY_FILE.search(w) for w in words if not w.startswith("-"))) or \
            (cmd.name in ("cat", "echo", "printf", ":", "true", "type", "get-content", "write-output") and
             any(op in (">", ">|") and _HISTORY_FILE.search(t) for op, t in cmd.redirects))
        stop = (cmd.name == "unset" and any(w in _HISTORY_VARS for w in words)) or \
            (cmd.name == "set" and "+o" in words and "history" in words) or \
            (cmd.name == "set-psreadlineoption" and "savenothing" in words) or \
            (cmd.name == "ln" and "/dev/null" in words and clear)  # the history file made a sink: both at once
        if stop or clear:
            stops += stop
            clears += clear
            first = first or cmd.span
    return clears, stops, first


def history_wipe(analysis: ShellAnalysis, add: Add) -> None:
    """The shell history both cleared and stopped, or stopped two ways (`history -c; unset HISTFILE`,
    `HISTFILESIZE=0` with `set +o history`): what was run, and what runs next, leaves no record. So does the
    history cleared in both places it is kept (`history -c && rm ~/.bash_history`: the shell's memory and its
    file). One step (`history -c`, the file emptied or removed) is a person's own tidying: it asks."""
    source = analysis.source.lower()
    if "hist" not in source:
        return  # (the common line: one substring test)
    clears, stops, first = _history_steps(analysis)
    if (stops and clears + stops >= 2) or clears >= 2:
        add(Finding("block.shell.anti-forensics", Risk.CRITICAL,
                    f"erases the record of what is run: {clears + stops} steps that clear or stop the shell "
                    f"history, so what runs next leaves no trace ({first[:50]})", first))


# -- a burst of discovery commands ------------------------------------------------------------------------

def _burst_table() -> tuple[int, int, frozenset[str], frozenset[str]]:
    spec = DATA.get("discovery_burst", {})
    return (int(spec.get("at_least", 4)), int(spec.get("others_at_least", 2)),
            frozenset(c.lower() for c in spec.get("commands", ())),
            frozenset(c.lower() for c in spec.get("others", ())))


_BURST_AT_LEAST, _BURST_OTHERS_AT_LEAST, _BURST_SELF, _BURST_OTHERS = _burst_table()


def _discovery_name(cmd: Command) -> tuple[str, bool] | None:
    """The discovery command `cmd` is (its program, or program and first operand, as the table names it) and whether
    it looks past this user's own session, or None."""
    words = [w for w in cmd.words if w]
    if not words:
        return None
    name = cmd.name
    second = next((w for w in words[1:] if not w.startswith("-") or name in ("sudo", "nslookup")), "")
    for key in (f"{name} {second}".strip(), f"{name} {words[1] if len(words) > 1 else ''}".strip(), name):
        if key in _BURST_OTHERS:
            return key, True
        if key in _BURST_SELF:
            return key, False
    if name in ("nslookup", "dig", "host") and any("_ldap" in w or "_kerberos" in w or w in ("srv", "-type=srv",
                                                                                           "-querytype=srv",
                                                                                           "-querytype=all")
                                                     for w in words[1:]):
        return f"{name} (directory records)", True
    return None


def discovery_burst(analysis: ShellAnalysis, add: Add) -> None:
    """Several discovery commands run one after another in one line (`net view & arp -a & net share & net
    localgroup & nslookup _ldap._tcp.dc._msdcs.corp`): the survey of accounts, shares, sessions and neighbours
    an intruder runs first on a machine it reached. Each command alone passes; the burst asks
    (`confirm.shell.recon`). The table is `[discovery_burst]` of resources/programs.toml."""
    if len(analysis.commands) < _BURST_AT_LEAST:
        return  # (the common line: one length test)
    seen: dict[str, bool] = {}
    for cmd in analysis.commands:
        got = _discovery_name(cmd)
        if got is not None:
            seen.setdefault(got[0], got[1])
    others = [k for k, v in seen.items() if v]
    if len(seen) >= _BURST_AT_LEAST and len(others) >= _BURST_OTHERS_AT_LEAST:
        add(Finding("confirm.shell.recon", Risk.HIGH,
                    f"runs {len(seen)} discovery commands in one line ({', '.join(list(seen)[:5])}): a survey of "
                    f"the machine's accounts, shares and neighbours", analysis.source[:80]))


# -- permissions changed on whatever a search of the system finds --------------------------------------------

_PERMISSION_CHANGERS = frozenset({"chmod", "chown", "chgrp", "chattr", "setfacl", "chflags"})
_HANDS_ON = ("xargs", "find", "parallel")
# where a search reaches past the project: the root, a whole system folder, every home, or a folder another command
# names (`xargs -I {} find {}`, fed the mount points `df` lists); one application's folder (/var/www/app) is not
_SYSTEM_START = re.compile(r"^(?:/|/(?:etc|usr|var|bin|sbin|lib\w*|opt|srv|boot|home|root|system|library|private|"
                           r"applications)|\{\}|\$\w+|\$\{\w+\})$")


def _search_starts(cmd: Command) -> list[str]:
    starts = []
    for w in cmd.argv[1:]:
        if w.startswith(("-", "(", "!", ")")):
            break
        starts.append(w)
    return starts


def mass_permissions(analysis: ShellAnalysis, add: Add) -> None:
    """`find / -type d -perm -0002 | xargs chmod a+t`, `find /etc -type f -exec chmod 644 {} +`: a permission,
    owner or attribute change handed every file a search of the system finds. Which files, and how many, is not
    known before it runs: it asks (`confirm.shell.system-state`). The same over the project's own files passes."""
    changers = [c for c in analysis.commands if c.name in _PERMISSION_CHANGERS and
                any(v.split()[0] in _HANDS_ON for v in c.via)]
    if not changers:
        return
    for finder in analysis.commands:
        if finder.name != "find":
            continue
        wide = next((w for w in _search_starts(finder) if _SYSTEM_START.match(w.rstrip("/") or "/")), None)
        if wide is not None:
            add(Finding("confirm.shell.system-state", Risk.HIGH,
                        f"{changers[0].name} changes every file that find {wide} finds: which ones, and how many, is "
                        f"not known before it runs", changers[0].span))
            return


# -- reverse tunnels --------------------------------------------------------------------------------------

_RAW_IP_HOST = re.compile(r"^([\w.-]+@)?(\d{1,3}\.){3}\d{1,3}$")
# a machine of the internal network (RFC 1918): forwarded out, the far side reaches past this machine
_PRIVATE_ADDRESS = re.compile(r"^(10\.\d+|172\.(1[6-9]|2\d|3[01])|192\.168)\.\d+\.\d+$")
_LOOPBACK_HOST = re.compile(r"^(localhost|127\.[\d.]+|0\.0\.0\.0|\[?::1\]?)$")
_PIVOT_AGENTS = frozenset({"ligolo", "ligolo-ng", "ligolo-agent", "revsocks", "rsocx", "rpivot", "gost", "chisel",
                           "frpc", "reverse_ssh", "boringproxy"})
# covert channels: IP carried inside DNS queries (iodine, dnscat2) or ICMP echo (ptunnel), and reverse-proxy
# clients that put local ports on a server (inlets, bore, rathole)
_COVERT = frozenset({"iodine", "dnscat", "dnscat2", "dnscat2-client", "ptunnel", "ptunnel-ng", "icmptunnel",
                     "hans", "inlets", "inlets-pro", "bore", "rathole"})
_TUNNELS = frozenset({"ssh", "autossh", *_PIVOT_AGENTS, "agent", *_COVERT})
TUNNEL_NAMES = _TUNNELS
TUNNEL_PREFIXES = ("chisel", "ligolo", "gost", "revsocks", "frpc")  # release builds: chisel_linux_amd64, ...
# what a release build adds to a program's name: its version, platform and architecture (chisel_1.9_linux_amd64)
_RELEASE_SUFFIX = re.compile(r"([._-](linux|windows|darwin|amd64|x64|x86|arm64|arm|386|exe|ng|v?\d+(\.\d+)*))+$")


def _ssh_options(argv: Sequence[str]) -> tuple[dict[str, list[str]], set[str], str]:
    """ssh's options that take a value (letter: values), its switches, and the destination."""
    valued: dict[str, list[str]] = {}
    switches: set[str] = set()
    k = 1
    while k < len(argv):
        a = argv[k]
        if not a.startswith("-") or len(a) < 2:
            return valued, switches, a
        m = SSH_CLUSTER.match(a)
        if a in SSH_VALUED or m:
            switches.update(a[1:-1])
            valued.setdefault(a[-1], []).append(argv[k + 1] if k + 1 < len(argv) else "")
            k += 2
            continue
        if a[1:2] in "DLR" and a[2:3].isdigit():  # -R8080:host:80
            valued.setdefault(a[1], []).append(a[2:])
        else:
            switches.update(a[1:])
        k += 1
    return valued, switches, ""


def _autossh_as_ssh(argv: Sequence[str]) -> list[str]:
    """autossh's words as ssh reads them: its own `-M port` (the monitoring port; ssh's -M takes no value) and
    `-f` (autossh goes to the background) dropped, the rest handed to ssh as they are."""
    out = [argv[0]]
    k = 1
    while k < len(argv):
        a = argv[k]
        if a == "-M":
            k += 2
            continue
        if not (a.startswith("-M") and a[2:].isdigit()):
            out.append(a)
        k += 1
    return out


# where a config or payload is kept out of sight: memory-backed and temporary folders, which a reboot empties
_TEMP_PLACE = re.compile(r"^(/dev/shm|/run/shm|/var/tmp|/tmp|/private/tmp)/")
_FRPC_PROXIES = frozenset({"tcp", "udp", "stcp", "xtcp", "sudp"})


def _frpc_reverse(argv: Sequence[str]) -> str:
    """frp's client puts local services on its server (a reverse proxy by design): a config kept in a temporary
    folder hides which ones, and a `tcp` proxy named on the command line with a server
    exposes a port of this machine there."""
    words = list(argv[1:])
    for k, w in enumerate(words):
        cfg = words[k + 1] if w in ("-c", "--config") and k + 1 < len(words) else \
            w.split("=", 1)[1] if w.startswith("--config=") else ""
        if cfg and _TEMP_PLACE.search(cfg):
            return f"frpc runs a reverse tunnel from {cfg[:40]}, a config kept in a temporary folder: what it " \
                   "exposes is hidden"
    if words[:1] and words[0] in _FRPC_PROXIES and any(w in ("-s", "--server-addr", "--server_addr") or
                                                       w.startswith(("--server-addr=", "--server_addr="))
                                                       for w in words):
        return f"frpc {words[0]} puts a port of this machine on the frp server named"
    return ""


def _host_of(value: str) -> str:
    """The host a URL, `host:port` or `key=value,...` word names (`wss://203.0.113.4:8123` -> 203.0.113.4)."""
    value = value.split("://", 1)[-1].split("/", 1)[0].split("@")[-1]
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def _far_address(host: str) -> bool:
    """A bare IPv4 address that is neither this machine nor one of the private ranges."""
    return bool(_RAW_IP_HOST.match(host)) and not _LOOPBACK_HOST.match(host) and not _PRIVATE_ADDRESS.match(host)


def _gost_chain(argv: Sequence[str]) -> str:
    """gost's `-F` names the next hop of a forward chain: to a bare address, every connection this machine's
    listeners take is relayed through a machine nobody named."""
    words = list(argv[1:])
    for k, w in enumerate(words):
        hop = w[3:] if w.startswith("-F=") else (words[k + 1] if w == "-F" and k + 1 < len(words) else "")
        if hop and _far_address(_host_of(hop)):
            return f"gost relays its listeners through {_host_of(hop)} (-F {hop[:40]})"
    return ""


# the flags that name the far end of a covert channel or a reverse-proxy client
_FAR_END_FLAGS = frozenset({"--url", "-url", "--to", "-t", "-p", "--proxy", "--remote", "--server", "-s"})
_DNS_TUNNELS = frozenset({"iodine", "dnscat", "dnscat2", "dnscat2-client"})
_ICMP_TUNNELS = frozenset({"ptunnel", "ptunnel-ng", "icmptunnel", "hans"})


def _covert(name: str, argv: Sequence[str]) -> str:
    """A DNS or ICMP tunnel client pointed anywhere but this machine (its traffic hides in name lookups or
    pings, past firewalls: ATT&CK T1572/T1071.004), and a reverse-proxy client whose server is a bare
    address (inlets, bore, rathole with its config in a temporary folder). At localhost they are left to ask."""
    words = list(argv[1:])
    ends: list[str] = []
    for k, w in enumerate(words):
        flag, eq, value = w.partition("=")
        if flag in _FAR_END_FLAGS or flag in ("--dns", "--secret"):
            ends.append(value if eq else (words[k + 1] if k + 1 < len(words) else ""))
        elif not w.startswith("-") and not (k and words[k - 1].startswith("-") and "=" not in words[k - 1]):
            ends.append(w)
    hosts = [h for e in ends for part in e.split(",") for h in [_host_of(part.split("=", 1)[-1])] if h]
    if name in _DNS_TUNNELS or name in _ICMP_TUNNELS:
        # (their switches take no value mostly: every word is looked at)
        hosts += [_host_of(p.split("=", 1)[-1]) for w in words if not w.startswith("-") for p in w.split(",")]
        places = [h for h in hosts if ("." in h and not h.replace(".", "").isdigit()) or _RAW_IP_HOST.match(h)]
        if places and not any(_LOOPBACK_HOST.match(h) or h == "localhost" for h in places):
            road = "DNS lookups" if name in _DNS_TUNNELS else "ICMP echo (ping) packets"
            return f"{name} tunnels this machine's traffic inside {road} to {places[-1][:40]}: past the firewall"
        return ""
    if name == "rathole":
        cfg = next((e for e in ends if e.endswith(".toml")), "")
        if cfg and _TEMP_PLACE.search(cfg):
            return f"rathole runs a reverse tunnel from {cfg[:40]}, a config kept in a temporary folder"
        return ""
    far = next((h for h in hosts if _far_address(h)), "")
    if far and (name != "bore" or "local" in words):
        return f"{name} puts a port of this machine on the server at the bare address {far}"
    return ""


def tunnel(cmd: Command, where: str, add: Add) -> None:
    """A tunnel that puts a service of this machine or its network on another machine: `ssh -R` (or a
    SOCKS proxy with -D -N) to a bare address, and the reverse-pivot clients (chisel `R:` specs, ligolo and
    revsocks agents, gost's reverse listeners)."""
    name = cmd.name
    if name not in _TUNNELS:
        name = _RELEASE_SUFFIX.sub("", name)
        if name not in _TUNNELS:
            return
    words = cmd.words[1:]
    what = ""
    if name in ("ssh", "autossh"):
        valued, switches, host = _ssh_options(_autossh_as_ssh(cmd.argv) if name == "autossh" else cmd.argv)
        raw = bool(_RAW_IP_HOST.match(host)) and not _LOOPBACK_HOST.match(host.split("@")[-1])
        for spec in valued.get("R", ()):
            parts = spec.split(":")
            target = parts[-2] if len(parts) >= 3 else "localhost"
            port = parts[-1]
            if raw or port in _REMOTE_LOGIN_PORTS or _PRIVATE_ADDRESS.match(target):
                what = f"ssh -R {spec[:40]} puts {target}:{port} on {host or 'another machine'}"
                break
        if not what and raw and "N" in switches and "D" in valued:
            what = f"ssh -D opens a proxy into this network for {host}"
    elif name == "chisel":
        spec = next((w for w in words if w.startswith("r:")), "")
        if "client" in words and spec:
            what = f"chisel client with a reverse spec ({spec[:40]}) puts a service of this network on the server"
    elif name in ("ligolo", "ligolo-ng", "ligolo-agent", "agent") and "-connect" in words:
        what = f"{cmd.name} connects a pivoting agent back to a proxy: the other side reaches this whole network"
    elif name in ("revsocks", "rsocx", "rpivot", "reverse_ssh") and any(w in ("-connect", "--connect", "-r", "-c",
                                                                             "--server-ip") for w in words):
        what = f"{cmd.name} connects a reverse SOCKS proxy back to another machine: it reaches this whole network"
    elif name == "gost" and any(re.search(r"(^|=)r(tcp|udp)://", w) for w in words):
        what = "gost listens on another machine for this network (a reverse forward)"
    elif name == "frpc":
        what = _frpc_reverse(cmd.argv)
    elif name == "gost":
        what = _gost_chain(cmd.argv)
    elif name in _COVERT:
        what = _covert(name, cmd.argv)
    if what:
        add(Finding("block.shell.remote-access", Risk.CRITICAL, f"{what}{where}", cmd.span))


# -- deskgate's own files listed by one program and changed by another ---------------------------------------

# what a program fed a list of paths does to them: changes (deletes, empties, moves, re-permissions) or reads
_FED_CHANGERS = frozenset({
    "rm", "unlink", "shred", "srm", "wipe", "truncate", "mv", "rmdir", "chmod", "chown", "chgrp", "chattr",
    "setfacl", "trash", "trash-put", "gio", "rename", "sed", "perl", "tee", "dd", "sqlite3", "sponge", "ln",
    "remove-item", "ri", "del", "erase", "rd", "clear-content", "set-content", "move-item", "rename-item", "mi",
})
_FED_READERS = frozenset({"cat", "cp", "tar", "zip", "base64", "xxd", "od", "strings", "head", "tail", "less",
                          "curl", "scp", "rsync", "gzip", "7z", "get-content", "gc", "copy-item", "cpi"})
# what lists paths: a tree walk with name tests, a listing of named paths, a search of the file index
_FED_LISTERS = frozenset({"find", "fd", "fdfind", "ls", "echo", "printf", "realpath", "readlink", "locate",
                          "plocate", "mlocate", "rg", "grep", "get-childitem", "gci", "dir"})
_FIND_NAME_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex",
                              "-iregex"})
_FD_VALUED = frozenset({"-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth", "--min-depth",
                        "--exact-depth", "-S", "--size", "--changed-within", "--changed-before", "-o", "--owner",
                        "-j", "--threads", "--max-results", "-c", "--color", "--base-directory", "--path-separator",
                        "--ignore-file", "--format", "--batch-size", "--and", "--search-path"})
_FD_EXEC = frozenset({"-x", "--exec", "-X", "--exec-batch"})
_GCI_NAMES = frozenset({"-filter", "-include", "-name"})
_GCI_VALUED = frozenset({"-filter", "-include", "-exclude", "-depth", "-attributes"})
# the names only deskgate's files carry (the folders on the way to them are everyone's)
# a folder named by a variable the gate cannot read, ending in deskgate's own (`${XDG_STATE_HOME:-…}/deskgate`)
_OWN_DIR_WORD = re.compile(r"^\$.*[/\\]deskgate(?:[/\\]|$)", re.IGNORECASE)
_OWN_FILE_WORDS = tuple(w for w in _OWN_WORDS if w not in (".local", ".config", "share", "state", "config"))


def _tree_reaches(d: Detector, cmd: Command, roots: Sequence[str], names: Sequence[str],
                  match: Callable[[str, str], bool]) -> str | None:
    """A root of a tree walk that holds deskgate's files, when the walk's name tests (if any) can match one of
    them; the whole home counts when a name test matches (`find ~ -name 'audit.db*'`)."""
    if names and not any(match(w, n) for w in _OWN_WORDS for n in names):
        return None
    for root in roots:
        path = resolve_path(root, cmd.cwd or None)  # None: `$XDG_DATA_HOME/deskgate`, judged by its name
        whole = names and path is not None and path.rstrip("/") in ("", HOME)
        if whole or _OWN_DIR_WORD.search(root) or _own_path(d, root, cmd) or _own_parent(d, root, cmd) or \
                _glob_reaches(d, root, cmd):
            return root
    return None


def _find_name(word: str, test: str) -> bool:
    return _wild(word, test) or (test.startswith(("/", ".*", "*")) and _wild(word, test.rsplit("/", 1)[-1])) or \
        (re.fullmatch(r"[\w.*?/\\-]+", test) is None and word in test)  # a -regex that spells the name


def _fd_match(word: str, pattern: str) -> bool:
    if pattern.startswith("glob:"):
        return _wild(word, pattern[5:])
    if pattern.startswith("ext:"):
        return word.endswith("." + pattern[4:])
    try:
        return re.search(pattern, word, 0 if pattern != pattern.lower() else re.IGNORECASE) is not None
    except (re.error, RecursionError, OverflowError):
        return pattern in word


def _fd_reaches(d: Detector, cmd: Command) -> str | None:
    """What an `fd` walk starts from when it can find deskgate's files: its pattern (a regex, `-g` a glob, `-e`
    an extension) matched against their names, its paths against their folders."""
    args = cmd.argv[1:]
    positional: list[str] = []
    searched: list[str] = []  # --search-path folders
    glob = False
    names: list[str] = []
    k = 0
    while k < len(args):
        a = args[k]
        if a in _FD_EXEC:
            break
        if a in ("-g", "--glob"):
            glob = True
        elif a in ("-e", "--extension") and k + 1 < len(args):
            names.append("ext:" + args[k + 1].lower().lstrip("."))
            k += 1
        elif a == "--search-path" and k + 1 < len(args):
            searched.append(args[k + 1])
            k += 1
        elif a in _FD_VALUED:
            k += 1
        elif not a.startswith("-"):
            positional.append(a)
        k += 1
    pattern = positional[0] if positional else ""
    if pattern not in ("", ".", "^", ".*"):
        names.append(("glob:" if glob else "") + pattern)
    roots = positional[1:] + searched or ([cmd.cwd] if cmd.cwd else [])
    return _tree_reaches(d, cmd, roots, names, _fd_match)


def _lister_reaches(d: Detector, cmd: Command) -> str | None:
    """The place a command that prints paths lists deskgate's own files from, or None."""
    name, argv = cmd.name, cmd.argv
    if name == "find":
        roots = _find_roots(argv[1:])
        names = [argv[k + 1].lower() for k, a in enumerate(argv[:-1]) if a.lower() in _FIND_NAME_TESTS]
        return _tree_reaches(d, cmd, roots or ([cmd.cwd] if cmd.cwd else []), names, _find_name)
    if name in ("fd", "fdfind"):
        return _fd_reaches(d, cmd)
    operands = [a for a in argv[1:] if not a.startswith("-")]
    if name in ("locate", "plocate", "mlocate"):
        return next((a for a in operands if any(a.lower().strip("*") in w or w in a.lower() for w in _OWN_FILE_WORDS)
                     and a.strip("*.")), None)
    if name in ("get-childitem", "gci", "dir"):
        words = cmd.words
        names = [words[k + 1] for k, a in enumerate(words[:-1]) if a in _GCI_NAMES]
        roots = [a for k, a in enumerate(argv[1:], 1) if not a.startswith("-") and words[k - 1] not in _GCI_VALUED]
        return _tree_reaches(d, cmd, roots, names, _wild)
    if name in ("rg", "grep") and not any(a in ("--files", "-l", "--files-with-matches") or
                                          (a.startswith("-") and not a.startswith("--") and "l" in a)
                                          for a in argv[1:]):
        return None  # lines of text, not paths
    for a in operands:
        if _own_path(d, a, cmd) or _glob_reaches(d, a, cmd) or (name in ("rg", "grep") and _own_parent(d, a, cmd)):
            return a
    return None


def _find_roots(args: Sequence[str]) -> list[str]:
    """A find's starting points: its words before the first test or option."""
    out = []
    for a in args:
        if a.startswith(("-", "(", "!", "\\(")):
            break
        out.append(a)
    return out


_XARGS_FILE = re.compile(r"(?:^|\s)(?:-a|--arg-file)[\s=]+(\S+)")


def _listed_through_file(cmd: Command, analysis: ShellAnalysis) -> list[Command]:
    """The commands of the line that wrote the list this one reads (`find … > l; xargs rm < l`, `xargs -a l`)."""
    wanted = {resolve_path(t, cmd.cwd or None) or t for op, t in cmd.redirects if op == "<"}
    if cmd.found:
        wanted |= {resolve_path(f, cmd.cwd or None) or f for f in _XARGS_FILE.findall(analysis.source)}
    if not wanted:
        return []
    return [c for c in analysis.commands if c is not cmd and any(
        ">" in op and (resolve_path(t, c.cwd or None) or t) in wanted for op, t in c.redirects)]


_FD_PLACEHOLDER = re.compile(r"\{[/.]*\}|\{//\}")


_FD_SPAN = re.compile(r"^(\d+)\s*(min|mins|minutes?|m|h|hours?|d|days?|w|weeks?)$", re.I)


def _fd_age(value: str) -> list[str]:
    """fd's `--changed-before 14d` as find's age test (`-mtime +14`, `-mmin +120` for hours and minutes); a date or
    a form not read here adds no test (the line is then judged without an age)."""
    m = _FD_SPAN.match(value.strip())
    if m is None:
        return []
    n, unit = int(m.group(1)), m.group(2).lower()
    if unit.startswith("w"):
        return ["-mtime", f"+{n * 7}"]
    if unit.startswith("d"):
        return ["-mtime", f"+{n}"]
    return ["-mmin", f"+{n * 60 if unit.startswith('h') else n}"]


def fd_exec(d: Detector, cmd: Command, where: str, add: Add) -> None:
    """`fd PATTERN [PATH...] -x PROG ARGS` / `-X PROG ARGS`: fd runs the program on each path it finds, as `find
    PATH -exec PROG ARGS {} ;` does; the pair is judged as that find line (a delete of what a search lists asks
    whichever tool walked the tree, and a walk from / or the home handed to `rm -rf` is judged as find's is)."""
    argv = list(cmd.argv)
    at = next((k for k, a in enumerate(argv) if a in _FD_EXEC), None)
    if at is None or at + 1 >= len(argv) or d.depth >= 2:
        return
    inner = argv[at + 1:]
    stop = next((k for k, a in enumerate(inner) if a in (";", "\\;")), len(inner))
    inner = inner[:stop]
    if not inner:
        return
    operands, tests, k = [], [], 1
    glob = any(a in ("-g", "--glob") for a in argv[1:at])
    while k < at:
        a = argv[k]
        if a in ("-e", "--extension") and k + 1 < at:
            tests += ["-name", "*." + argv[k + 1].lstrip(".")]
        if a in ("--changed-before", "--older") and k + 1 < at:
            tests += _fd_age(argv[k + 1])
        if a in _FD_VALUED:
            k += 2
            continue
        if not a.startswith("-"):
            operands.append(a)
        k += 1
    roots = operands[1:] or [cmd.cwd or "."]
    if operands and operands[0] not in (".", "", "^", ".*"):  # a pattern narrows what is found
        tests += ["-name", operands[0]] if glob else ["-regex", ".*" + operands[0].strip("^$") + ".*"]
    if not any(_FD_PLACEHOLDER.fullmatch(a) for a in inner):
        inner.append("{}")
    inner = ["{}" if _FD_PLACEHOLDER.fullmatch(a) else a for a in inner]
    line = shlex.join(["find", *roots, "-type", "f", *tests, "-exec", *inner]) + " \\;"
    d.depth += 1
    try:
        found = d.run(analyse(line, cmd.cwd or None))
    finally:
        d.depth -= 1
    for f in found:
        add(Finding(f.rule, f.risk, f"{cmd.name} runs {inner[0]} on each path it finds, as find -exec does: "
                                    f"{f.reason}{where}", cmd.span))


def fed_own_files(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`find … | xargs rm`, `ls … | xargs shred`, `… | parallel rm`, `Get-ChildItem … | Remove-Item`, `fd … -X
    rm`: paths one program lists, another deletes, empties, moves or reads; when the list can hold deskgate's own
    policy, kill state or audit log, the pair is judged as one command that names them."""
    if cmd.name in ("fd", "fdfind"):
        at = next((k for k, a in enumerate(cmd.argv) if a in _FD_EXEC), None)
        if at is None or at + 1 >= len(cmd.argv):
            return
        program = cmd.argv[at + 1].replace("\\", "/").rsplit("/", 1)[-1].lower()
        listed = _fd_reaches(d, cmd) if program in _FED_CHANGERS or program in _FED_READERS else None
    else:
        program = cmd.name
        if program not in _FED_CHANGERS and program not in _FED_READERS:
            return
        cmds = analysis.commands
        listers = [cmds[i] for i in cmd.upstream if i < len(cmds)] + _listed_through_file(cmd, analysis)
        listed = next((hit for c in listers if c.name in _FED_LISTERS and (hit := _lister_reaches(d, c))), None)
    if listed is None:
        return
    if program in _FED_CHANGERS:
        add(Finding("block.shell.supervisor-tamper", Risk.CRITICAL,
                    f"{program} changes what is listed from {listed}: deskgate's own policy, kill state or audit "
                    f"log among it{where}", cmd.span))
    else:
        add(Finding("block.shell.supervisor-read", Risk.CRITICAL,
                    f"{program} reads what is listed from {listed}: deskgate's own audit log, key or state among "
                    f"it{where}", cmd.span))
