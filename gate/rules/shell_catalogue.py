"""Shell findings from the catalogue functions of resources/programs.toml (gate/catalogue.py).

A program whose catalogue function is triggered by the command's arguments (`security dump-keychain`,
`csrutil disable`, `osascript -e 'display dialog ... with hidden answer'`) gets the function's finding,
filed under the rule its effect and decision name. The reason says which catalogue function it is, so a
person (and `deskgate explain`) sees where the fact comes from.

Three functions are judged in code for every program, because no single program owns them:
- a download saved where payloads are staged (a system program directory, /dev/shm, a hidden name) or
  fetched from a raw IP address asks (`confirm.shell.staged-download`): the first half of a two-step
  download-and-run;
- miners (by their pool and tuning arguments) block, and loops that start background jobs without end
  ask (`block.shell.miner`, `confirm.shell.system-disruption`);
- a shell handed to a program asks (below).

A program that reads its script from standard input when given none (osascript, sqlite3, m4) is judged with
that script as its code: a here-document or a piped echo triggers the same functions as `-e` would.

One function is common to so many programs that it is judged here for all of them: a program handed a
shell's path as an argument or option value (`scrot -e /bin/sh`, `dhclient -sf /bin/sh`, `gcc -wrapper
/bin/sh,-s`, `hg --config alias.x=!/bin/sh`) will start that shell, whatever the program is
(GTFOBins' "shell" function). Programs whose job is to run a shell somewhere else (containers, remote
hosts) and the wrappers the shell analysis already unwraps are left to their own rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.catalogue import STDIN_SCRIPTS, fed_script, functions_for, may_trigger, windows
from gate.effects import program_effects
from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.shell_effects import download_targets
from gate.rules.shell_guessing import guessing_loop
from gate.rules.shell_vocab import _SECRET_READERS
from gate.shell import DOWNLOADERS, SHELLS, Command, Finding, ShellAnalysis, resolve_path
from gate.web_attack import in_request

__all__ = ["judge", "whole"]

Add = Callable[[Finding], None]

_SHELL_ARG = re.compile(r"(^|[\s=,!{:'\"])!?(/usr/local/bin/|/usr/bin/|/bin/|/system/bin/)(ba|da|z|k|mk|c|tc|a|fi|)sh"
                        r"(?=$|[\s,#'\"}&;<>)])|(^|[\s=,{'\"])!(ba|da|z|)sh(?=$|[\s,#'\"}])|"
                        r"(^|\s)-[a-z]+(/usr/bin/|/bin/)(ba|da|z|)sh\b")
# programs that legitimately take a shell path: they run it in a container, on another host, as a login
# shell setting, or they are unwrapped by the shell analysis (the inner shell is judged there)
_RUNS_SHELLS_ELSEWHERE = frozenset({
    *SHELLS, "docker", "podman", "nerdctl", "kubectl", "oc", "ssh", "lxc", "incus", "vagrant", "multipass",
    "distrobox", "toolbox", "chsh", "useradd", "usermod", "adduser", "echo", "printf", "grep", "rg", "which",
    "whereis", "ls", "file", "stat", "readlink", "realpath", "type", "command", "test", "[", "[[", "cat",
    "head", "tail", "ldd", "strings", "sha256sum", "md5sum", "cmp", "diff", "objdump", "readelf", "nm",
    "getent", "find", "locate", "sudo", "doas", "env", "exec", "nohup", "timeout", "nice", "setsid",
    "script", "su", "runuser", "tmux", "screen", "xterm", "gnome-terminal", "konsole", "kitty", "alacritty",
    "ln", "cp", "install", "chmod", "chown", "xargs", "parallel", "strace", "ltrace", "gdb", "lldb", "valgrind",
    "time", "stdbuf", "unbuffer", "flock", "watch", "firejail", "bwrap", "systemd-run", "machinectl", "chroot",
    "update-alternatives", "dpkg", "rpm", "shellcheck", "shfmt", "bats", "hash", "alias", "export", "set",
})


_SCRIPT_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "busybox", "powershell", "pwsh"})


def _script_functions(cmd: Command, where: str, add: Add) -> None:
    """`bash ./kit.sh -a`: a script handed to a shell is judged by its own name, as if run by path."""
    script = cmd.words[1].rsplit("/", 1)[-1]
    fns = functions_for(script)
    if fns:
        args = " ".join(cmd.words[2:])
        for f in fns:
            if f.hit(args):
                risk = Risk.CRITICAL if f.decision == "block" else Risk.HIGH
                add(Finding(f.rule, risk, f"{script}: {f.why} [{f.cls}]{where}", cmd.span))


# HTTP clients: what their arguments send (headers, body, cookies, the URL) is read for an exploit
_HTTP_CLIENTS = frozenset({"curl", "curlie", "wget", "wget2", "http", "https", "xh", "httpie", "lwp-request",
                           "invoke-webrequest", "iwr", "invoke-restmethod", "irm"})
_OWN_HOST = re.compile(r"^(?:https?://)?(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(?::\d+)?(?:/|$)", re.I)


def _exploit_payload(cmd: Command, where: str, add: Add) -> None:
    """An exploit (Shellshock, Log4Shell, a climb to system files, the metadata service) sent by an HTTP client
    blocks; sent only to this machine's own service, it asks (`block.shell.exploit-payload`)."""
    found = in_request(cmd.argv[1:])
    if found is None or not (found.reads or found.kind == "shellshock"):
        return
    urls = [w for w in cmd.argv[1:] if "://" in w and " " not in w.strip()]
    own = bool(urls) and all(_OWN_HOST.match(u.strip("'\"")) for u in urls)
    what = f"{cmd.name} sends an exploit ({found.kind}: {found.shown[:60]!r})"
    if own:
        add(Finding("confirm.shell.attack-probe", Risk.HIGH, f"{what} to this machine's own service{where}",
                    cmd.span))
    else:
        add(Finding("block.shell.exploit-payload", Risk.CRITICAL, f"{what} to take over or read the server it "
                    f"reaches{where}", cmd.span))


def judge(cmd: Command, where: str, add: Add, analysis: ShellAnalysis | None = None) -> None:
    """Every catalogue function this simple command triggers (`analysis`: the whole string, for what is
    piped into a program that reads its script from standard input)."""
    if cmd.name in _HTTP_CLIENTS and len(cmd.argv) > 1:
        _exploit_payload(cmd, where, add)
    via = cmd.via
    if via and via[-1] in _RUNNERS and _REMOTE_SPEC.match(cmd.words[0]):
        add(Finding("confirm.shell.install", Risk.HIGH,
                    f"{via[-1]} fetches {cmd.argv[0][:80]} from a repository or URL and runs it{where}", cmd.span))
    name = cmd.name
    if name in _SCRIPT_SHELLS and len(cmd.argv) > 1 and cmd.argv[1][:1] not in ("-", "+"):
        _script_functions(cmd, where, add)
    fns = functions_for(name)
    fed = ""
    if fns and name in STDIN_SCRIPTS and (cmd.stdin_text or cmd.upstream):
        fed = fed_script(cmd, analysis.commands if analysis is not None else ())  # as its inline code
    span = cmd.span  # the source text: one cheap look before anything else is built
    cue = _CUES.search(span)
    if cue is None:
        if name in _FETCHES:
            _staged_download(cmd, where, add)
        if fns and (len(cmd.words) > 1 or fed or any(f.hit("") for f in fns)):
            _functions(cmd, name, fns, where, add, fed)
        return
    if "shadow" in span or "passwd" in span:
        m = _HASH_FILE.search(span)
        if m and (name not in _METADATA_ONLY or (name == "find" and "-exec" in span) or
                  (name == "find" and "-ok" in span)):
            add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                        f"{name} is handed the password-hash file {m.group('path')}, as a file to read or inside its "
                        f"code [gtfobins:file-read]{where}", span))
    if "/etc/" in span or "authorized_keys" in span:
        _control_file(cmd, name, span, where, add)
    if name not in _USES_KEYS and name not in _SECRET_READERS and "." in span and \
            _NAMES_ONLY.get(name, frozenset()).isdisjoint(cmd.words[1:2]):  # (every key file has a dot)
        _key_file(name, span, where, add)
    _startup_file(cmd, name, span, where, add)
    if name in _FETCHES:
        _staged_download(cmd, where, add)
    miner = "--" in span or "://" in span
    shell = ("bin/" in span or "!" in span) and name not in _RUNS_SHELLS_ELSEWHERE
    if not (fns or miner or shell):
        return
    args = _functions(cmd, name, fns, where, add, fed)
    if miner and _MINER.search(args):
        add(Finding("block.shell.miner", Risk.CRITICAL,
                    f"{name} mines cryptocurrency with this machine (pool or miner tuning arguments){where}",
                    cmd.span))
    if shell and _SHELL_ARG.search(args):
        add(Finding("confirm.shell.shell-spawn", Risk.HIGH,
                    f"{name} is handed a shell to start: it runs whatever that shell is given "
                    f"[gtfobins:shell]{where}", cmd.span))


# what any of the checks above needs to see in the source text before it can fire
_CUES = re.compile(r"shadow|passwd|/etc/|authorized_keys|--|://|bin/|!|\.ssh/|credentials|netrc|pgpass|private-keys|"
                   r"secring|\.[a-z]*rc\b|profile|zshenv|zlogin|bash_login|autostart|config\.fish")


def _functions(cmd: Command, name: str, fns: tuple, where: str, add: Add, fed: str = "") -> str:
    """File the catalogue functions `fns` of this command triggers (`fed`: its script from standard input);
    returns its folded argument line."""
    args = " ".join(cmd.words[1:]) + fed
    if cmd.redirects:  # `type x > UNC-share-path`: where the output goes is part of what it does
        args += "".join(f" {op} {target}" for op, target in cmd.redirects)
    if fns and may_trigger(name, parts := windows(args)):
        for f in fns:
            if any(f.hit(a) for a in parts):
                risk = Risk.CRITICAL if f.decision == "block" else Risk.HIGH
                add(Finding(f.rule, risk, f"{name}: {f.why} [{f.cls}]{where}", cmd.span))
    return args


_RAW_IP_URL = re.compile(r"^[a-z][a-z0-9+.-]*://(\[[0-9a-f:]+\]|\d{1,3}(\.\d{1,3}){3})(?::\d+)?(/|$)")
_LOOPBACK_URL = re.compile(r"^[a-z][a-z0-9+.-]*://(\[::1\]|127\.|0\.0\.0\.0)")
_STAGING = re.compile(r"^(/usr/(local/)?s?bin|/s?bin|/usr/lib\w*|/lib\w*|/etc|/opt/[^/]+/bin|/library/|/system/|"
                      r"c:\\windows)(/|\\|$)|^/dev/shm/|^/var/tmp/|(^|/)\.[^./][^/]*(/|$)", re.I)
_HASH_FILE = re.compile(r"(^|[\s@<'\"(=:,])(?P<path>/etc/(g?shadow-?|master\.passwd))(?=$|[\s'\")\\;,|&>])")
_METADATA_ONLY = frozenset({"ls", "stat", "test", "[", "[[", "getfacl", "lsattr", "namei", "file", "ll", "echo",
                            "printf", "chmod", "chown", "chgrp", "chattr", "setfacl", "grep", "rg", "find", "locate",
                            "which", "man", "apropos", "sudo", "doas", "cpio", "auditctl"})
# (auditctl's -w names a file for the kernel to watch: its use is recorded, nothing is read from or written to it)
_WATCH_ONLY = frozenset({"auditctl"})
_CONTROL_FILE = re.compile(r"(?P<path>/etc/sudoers(\.d/[^\s'\")]*)?|/etc/passwd|/etc/group|/etc/ld\.so\.preload|"
                           r"/etc/pam\.d/[^\s'\")]+|authorized_keys2?)(?=$|[\s'\")\\;,|&>])")
_OUTPUT_FLAG = re.compile(r"(^|\s)(-o|--output|--outfile|--out-file|-w|--write|-L|--log|-t|--dump-bin|-W|"
                          r"--junit-xml|-filename|--install|-fprintf|-fprint|-fls|-fprint0)(\s*=?\s*|\s+)(?P<path>/etc/sudoers|/etc/passwd|/etc/group|"
                          r"/etc/ld\.so\.preload|/etc/pam\.d|\S*authorized_keys)")


_WRITES_IT = re.compile(r"print[^;]{0,300}>|\bwrite|[\"'](w|wb|a|ab|w\+|r\+)[\"']|(^|\s)-o\b|--out|(^|\s)-w\b")


def _control_file(cmd: Command, name: str, span: str, where: str, add: Add) -> None:
    """A file that decides who may log in or act as root, handed to a program that writes files (as its
    output option, or to one that writes what it is given: awk print >, an interpreter's open)."""
    m = _OUTPUT_FLAG.search(span) if name not in _WATCH_ONLY else None
    if m is None:
        eff = program_effects(name) or frozenset({"exec"})  # a program the table does not know may write
        if not eff & {"write", "exec"} or name in _METADATA_ONLY:
            return
        m = _CONTROL_FILE.search(span)
        if m is None or not _WRITES_IT.search(span):
            return
    # the same file written by a redirect is `block.shell.credential-tamper`: written by the program's own output
    # option, or its print statement, it is the same change
    add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                f"{name} writes {m.group('path')}, a file that decides who may log in or act as root "
                f"[gtfobins:file-write]{where}", span))


# a file in a home directory that holds a private key or a login token (never a public key)
_HOME = r"(?:~|\$\{?home\}?|/home/[^/\s'\"]+|/root|/users/[^/\s'\"]+)"
_KEY_FILE = re.compile(
    r"(?:^|[\s@<'\"(=:,{/])(?P<path>" + _HOME + r"?/?\.ssh/(?:id_[a-z0-9_]+|identity)(?![\w.-])|" +
    _HOME + r"?/?\.(?:aws/credentials|git-credentials|netrc|pgpass|vault-token)(?![\w.-])|" +
    _HOME + r"?/?\.gnupg/(?:private-keys-v1\.d|secring\.gpg)|" +
    _HOME + r"?/?\.config/gcloud/(?:credentials\.db|access_tokens\.db|application_default_credentials\.json)|" +
    _HOME + r"?/?\.azure/(?:accesstokens\.json|msal_token_cache))", re.I)
# verbs that only record how a managed file is kept (its source-state attributes, or that it is no longer
# managed): the file itself is not read
_NAMES_ONLY = {"chezmoi": frozenset({"chattr", "forget", "unmanage", "source-path", "target-path"})}
# the key handed over as the identity to log in with (`ssh -i`, `--private-key`), not as a file to read
_AS_IDENTITY = re.compile(r"(\bssh\b[^;|&]{0,30}\s-i|(^|[\s\"'])[-\w.]*(key|identity)[-\w]*|--ssh[= ]\s*[\w-]+=)"
                          r"\s*[= ]?\s*[\"']?$", re.I)
# programs whose job is to use, make or look after keys (the key is their input by design), and programs that
# only touch a file's name or metadata
_USES_KEYS = frozenset({
    "ssh", "scp", "sftp", "ssh-add", "ssh-keygen", "ssh-copy-id", "ssh-agent", "sshfs", "autossh", "mosh",
    "keychain", "gpg", "gpg2", "age", "sops", "openssl", "ansible", "ansible-playbook", "mv", "rm", "shred", "ln",
    "touch", "unlink", "srm", "trash", "trash-put", *_METADATA_ONLY,
})


def _key_file(name: str, span: str, where: str, add: Add) -> None:
    """A private key or login-token file handed to a program that is not a key tool (`ar r x ~/.ssh/id_rsa`,
    `gcc @~/.ssh/id_rsa`, `php -r 'readfile(...)'`): the program prints, copies or sends what it reads
    (GTFOBins' "file-read", by any of its hundreds of programs)."""
    for m in _KEY_FILE.finditer(span):
        if not _AS_IDENTITY.search(span[max(0, m.start("path") - 40):m.start("path")]):
            add(Finding("confirm.shell.secret-read", Risk.HIGH,
                        f"{name} is handed {m.group('path')}, a private key or credential file, to read or inside "
                        f"its code [gtfobins:file-read]{where}", span))
            return


# a file in a home directory that runs at every login or shell start
_STARTUP = (_HOME + r"/\.(?:(?:bash|zsh|ksh|mksh|tcsh|csh)rc|bash_profile|profile|zprofile|zshenv|zlogin|bash_login|"
            r"config/fish/config\.fish|config/autostart/[^\s'\"]+|ssh/rc)(?![\w.-])")
_STARTUP_BY_FLAG = re.compile(r"(^|\s)(-o|--output|--outfile|--out-file|-w|--write|-L|--log|-t|--dump-bin|-W|"
                              r"--junit-xml|-filename|--target-directory)(\s*=?\s*|\s+)[\"']?"
                              r"(?P<path>" + _STARTUP + ")", re.I)
_STARTUP_BY_CODE = re.compile(r"(>>?|\bopen\w*\s*\(|\bout-file|\bset-content|\badd-content|\bwrite\w*\s*\()\s*"
                              r"[\"'(]?\s*(?P<path>" + _STARTUP + ")", re.I)


def _startup_file(cmd: Command, name: str, span: str, where: str, add: Add) -> None:
    """A shell start-up file or login item written by a program's output option (`pandoc -o ~/.bashrc`,
    `iconv -o`, `strace -o`) or from inside its code (`awk 'BEGIN { print ... > "/home/u/.bashrc" }'`): what
    is written there runs at every shell start (GTFOBins' "file-write" aimed where it persists). A redirect
    of the shell itself is judged with the other writes."""
    # (every start-up file is `/.` something: text without it is not searched)
    m = _STARTUP_BY_FLAG.search(span) if "/." in span else None
    if m is None and name not in _METADATA_ONLY and name not in ("cat", "tee") and \
            (program_effects(name) or frozenset({"exec"})) & {"write", "exec"} and \
            "/." in (args := " ".join(cmd.words[1:])):
        m = _STARTUP_BY_CODE.search(args)
    if m is not None:
        add(Finding("confirm.shell.persistence", Risk.HIGH,
                    f"{name} writes {m.group('path')}: it runs at every login or shell start "
                    f"[gtfobins:file-write]{where}", span))


# a hidden name is a hiding place outside the project; inside it (.github/, .vscode/) it is the project's own
_HIDDEN_ONLY = re.compile(r"^(?!(/usr/(local/)?s?bin|/s?bin|/usr/lib\w*|/lib\w*|/etc|/opt/[^/]+/bin|/library/|/system/|"
                          r"c:\\windows)(/|\\|$)|/dev/shm/|/var/tmp/)", re.I)
_RUNNERS = frozenset({"npx", "bunx", "pnpx", "uvx", "pipx", "npm exec", "pnpm dlx", "yarn dlx"})
_REMOTE_SPEC = re.compile(r"^(github:|gitlab:|bitbucket:|gist:|git\+|git://|https?://|file:|\S+\.(tgz|tar\.gz|whl)$)")
_FETCHES = frozenset({*DOWNLOADERS, "aria2c", "axel", "tftp", "scp", "sftp", "rsync", "nscurl", "certutil",
                      "bitsadmin", "start-bitstransfer"})


def _staged_download(cmd: Command, where: str, add: Add) -> None:
    urls = [w for w in cmd.words[1:] if "://" in w]
    raw = [u for u in urls if _RAW_IP_URL.match(u) and not _LOOPBACK_URL.match(u)]
    targets = download_targets(cmd)
    staged = [t for t in targets if _STAGING.search(resolve_path(t, cmd.cwd or None) or t) and
              (t.startswith(("/", "~", "$")) or not _HIDDEN_ONLY.search(resolve_path(t, cmd.cwd or None) or t))]
    if staged:
        add(Finding("confirm.shell.staged-download", Risk.HIGH,
                    f"{cmd.name} saves a download to {staged[0]}, where payloads are staged to run later{where}",
                    cmd.span))
    elif raw and (targets or cmd.name not in ("curl", "curlie", "http", "https", "xh") or
                  any(op in (">", ">>") for op, _ in cmd.redirects)):
        add(Finding("confirm.shell.staged-download", Risk.HIGH,
                    f"{cmd.name} fetches a file from a bare IP address ({raw[0][:60]}): no name vouches for it{where}",
                    cmd.span))


_MINER = Guarded(re.compile(r"stratum\+(tcp|ssl|tls)://|--donate-level\b|(^|\s)--(algo|coin)(=|\s)(rx/|cn/|randomx|"
                    r"cryptonight|ethash|kawpow|etchash|autolykos)|\b(xmrpool|supportxmr|moneroocean|nanopool|"
                    r"minexmr|hashvault|2miners|f2pool|nicehash|herominers|unmineable)\."))


_ENDLESS_SPAWN = re.compile(
    r"\b(while\s+(true|:|1|\[\s*1\s*\]|\(\(\s*1\s*\)\))|until\s+(false|\[\s*0\s*\]))\s*;?\s*do\b"
    r"(?:(?!\bdone\b)[^&]){0,240}[^&>]&(?!&)|"
    r"\bfor\b[^;\n]{0,200}?(seq\s+(\S+\s+)?\d{4,}|\{\d+\.\.\d{4,}\}|\d{5,})[^;\n]{0,200}?;?\s*do\b"
    r"(?:(?!\bdone\b)[^&]){0,240}[^&>]&(?!&)", re.S)
# a loop with no end (or a six-figure count) that makes a new file, folder or link each turn, or writes an
# endless stream (`yes >`): it fills the disk or the inode table
_ENDLESS_MAKE = re.compile(
    r"\b(?:(?:while\s+(?:true|:|1|\[\s*1\s*\]|\(\(\s*1\s*\)\))|until\s+(?:false|\[\s*0\s*\])|"
    r"for\s*\(\(\s*;\s*;\s*\)\))\s*;?\s*do\b|"
    r"\bfor\b[^;\n]{0,200}?(?:seq\s+(?:\S+\s+)?\d{5,}|\{\d+\.\.\d{5,}\}|\d{6,})[^;\n]{0,200}?;?\s*do\b)"
    r"(?:(?!\bdone\b)[^\n]){0,240}?"
    r"(?:\b(?:mkdir|touch|fallocate|mkfifo|mktemp|cp|dd|ln|git\s+clone|docker\s+run|useradd)\b[^;&|]*\$|"
    r"[^>&2]>>?\s*(?!/dev/null)[^\s;&|]*\$|\byes\b[^;&|]*>)", re.S)
# an endless stream written into a file: `yes > f`, `cat /dev/zero > f`, dd from /dev/zero with no count, tens of
# gigabytes read from /dev/zero or /dev/urandom; a million files or folders made through xargs
_FILLER = re.compile(
    r"\b(?:yes|cat\s+/dev/(?:zero|u?random))\b[^;&|\n]*?(?<![0-9&])>>?\s*(?!/dev/null\b|&)[^\s;&|]+|"
    r"\bhead\s+(?:-c\s*|--bytes[= ])\d{2,}[gGtT]\w*\s[^;&|\n]*/dev/(?:zero|u?random)[^;&|\n]*>|"
    r"\bseq\s+(?:\S+\s+)?\d{6,}\b[^;&\n]*\|\s*xargs\b[^;&|\n]*\b(?:touch|mkdir|fallocate|cp|ln|mkfifo)\b|"
    r"\bdd\s+(?=[^;&|\n]*\bif=/dev/(?:zero|u?random)\b)(?![^;&|\n]*\bcount=)[^;&|\n]*\bof=(?!/dev/)\S+")
_BURNERS = re.compile(r"(\byes\b|\bcat\s+/dev/(zero|u?random)|\bsha\d*sum\s+/dev/(zero|u?random)|"
                      r"\bdd\s+if=/dev/(zero|u?random)\s+of=/dev/null)[^;&|]*&(?!&)")


_CLIPBOARD = re.compile(r"\b(pbpaste|wl-paste|get-clipboard|gcb|xclip\b[^;|&]*-o|xsel\b[^;|&]*(-o|--output)|"
                        r"the clipboard|clipboard info|powershell[^;|&]*get-clipboard)", re.I)
_WHOLE_SPAN = 16384
# PowerShell method calls the command analysis does not keep as commands: a shortcut saved in the Startup
# folder, a file marked hidden or system, an Excel add-in (a DLL) registered
_STARTUP_SHORTCUT = re.compile(r"createshortcut\s*\(\s*['\"][^'\"]*start menu[\\/]programs[\\/]startup[\\/]", re.I)
_HIDDEN_ATTRIBUTE = re.compile(r"\.attributes\s*=\s*[^;\n]{0,80}?\b(hidden|system)\b", re.I)
_EXCEL_ADDIN = re.compile(r"\.registerxll\s*\(", re.I)
# .NET's environment setter aimed at the machine (every user, every process started after), by name or number
_MACHINE_VARIABLE = re.compile(r"\[(?:system\.)?environment\]::setenvironmentvariable\s*\([^\n]{0,240}?"
                               r"(?:['\"]machine['\"]|environmentvariabletarget\]::machine|,\s*2\s*\))", re.I)
# Windows' credential dialog raised from PowerShell or .NET, and the words that make it speak as the system or
# another program (a sign-in that expired, Outlook, Windows Security)
_CREDENTIAL_PROMPT = re.compile(r"\b(promptforcredential|creduipromptforcredentials|creduipromptforwindowscredentials)"
                                r"\s*\([^)]{0,400}\)?", re.I)
_PROMPT_LURE = re.compile(r"passw|kennwort|mot de passe|contrase|senha|wachtwoord|expired|abgelaufen|verif|sign[ -]?in|"
                          r"log[ -]?in|outlook|microsoft|windows|office|teams|onedrive|security|session|update|vpn|"
                          r"domain|admin", re.I)
# a login tried over and over with passwords taken from a list; a folder named like the parent folder (`...`)
_PASSWORD_SPRAY = re.compile(r"\bsshpass\s+(-\S+\s+)*-p\s*['\"]?[`$]")
# documents of a kind gathered from a home, a user folder or the whole disk and copied or packed together
_DOCUMENT_GLOB = re.compile(r"\*\.(docx?|xlsx?|pptx?|pdf|odt|ods|rtf|pst|ost|eml|msg|kdbx|one)\b", re.I)
_WIDE_SEARCH = re.compile(r"\bfind\s+(-[hlp]\s+)*['\"]?(~|\$\{?home\}?|/|/home|/users|/root)['\"]?(/[^\s/]*)?/?\s|"
                          r"-recurse\b|\bfor\s+/r\b|\b(dir|where)\b[^;\n|&]*\s/s\b", re.I)
_GATHERS = re.compile(r"\b(cp|copy|copy-item|cpi|xcopy|robocopy|rsync|ditto|tar|zip|7z|rar|compress-archive)\b", re.I)
# one ping per address of a range, the address made from a loop variable (a sweep of the network)
_PING_SWEEP = re.compile(r"\bping\b[^;&|\n]*?\b\d{1,3}\.\d{1,3}\.\d{1,3}\.(\$\{?\w+\}?|%%?\w+%?)")
_DOTS_FOLDER = re.compile(r"\b(mkdir|cp|mv|install|ln)\b[^;&|\n]*?(\s|/)\.{3,}(/|\s|$)")
# PowerShell: a loop, a password turned into a credential from a variable, and a cmdlet that logs in with it
_PS_LOOP = re.compile(r"\b(foreach|for|while)\s*\(|\|\s*(%|foreach-object)\s*\{", re.I)
_CREDENTIAL_FROM_VARIABLE = re.compile(r"convertto-securestring\s+(-string\s+)?['\"]?\$(?!env:)|"
                                       r"pscredential\b[^\n;]{0,160}\$\w*(pass|pw|pwd|word|secret)", re.I)
_LOGIN_CMDLET = re.compile(r"\b(connect-\w+|new-pssession|enter-pssession|new-smbmapping)\b|\bnet\s+use\b|"
                           r"\binvoke-command\b[^\n;]*-credential|-credential\s+\$", re.I)
# a shell loop; PowerShell's `while (...) {`, `for (;;) {`, `do {`; AppleScript's `repeat`; `watch -n`
_LOOP = re.compile(r"\b(while|until|for)\b[^;]{0,300};?\s*do\b|\b(while|for)\s*\([^)]{0,200}\)\s*\{|\bdo\s*\{|"
                   r"\brepeat\b|\bwatch\s+(-n|--interval)\b", re.S | re.I)


# a script that runs itself twice, at least once in the background (`$0 & $0`, `$0 | $0 &`): the fork bomb of a
# file, written here and run now or later
_SELF_TWICE = re.compile(r"[\"']?\$\{?0\}?[\"']?\s*(?:\||&)\s*[\"']?\$\{?0\}?")

_PACKERS = frozenset({"zip", "tar", "gtar", "bsdtar", "7z", "7za", "7zz", "rar", "ditto", "compress-archive"})
_SENDERS = frozenset({"curl", "wget", "http", "https", "xh", "scp", "sftp", "rsync", "rclone", "nc", "ncat", "socat",
                      "smbclient", "ftp", "lftp", "aws", "gsutil", "az", "azcopy", "s3cmd", "mc", "gh", "transfer",
                      "invoke-restmethod", "irm", "invoke-webrequest", "iwr"})
_PACKED_ARCHIVE = re.compile(r"\.(zip|tar|tgz|tbz2?|txz|gz|bz2|xz|zst|7z|rar|cpgz)$")
# a home as a whole, its personal folders, or the folders that hold its keys and credentials
_PERSONAL = re.compile(r"^/home/~/?$|^/home/~/(documents|desktop|downloads|pictures|photos|movies|music|mail|"
                       r"library/(mail|messages|keychains|application support)|\.ssh|\.gnupg|\.aws|\.kube|"
                       r"\.password-store|\.config|\.mozilla)(/|$)|^/(home|users)/[^/~]+/?$|"
                       # an account named by its path (/home/ann, /Users/ann, C:\Users\ann): its personal folders
                       r"^/(home|users|[a-z]:/users)/(?!(public|shared|default|all users)/)[^/~]+/(documents|desktop|"
                       r"downloads|pictures|photos|movies|music|onedrive[^/]*|mail|library/(mail|messages))(/|$)")


def _packed_and_sent(analysis: ShellAnalysis, add: Add) -> None:
    """An archive made in this line of a whole home, its personal folders or its key folders, then handed to a
    program that sends files to another machine (`zip -r /tmp/d.zip ~/Documents && curl -F f=@/tmp/d.zip URL`):
    the folder leaves the machine (`block.shell.exfiltration`)."""
    packed: dict[str, str] = {}
    for cmd in analysis.commands:
        if cmd.name in _PACKERS:
            archive, personal = None, None
            for k, a in enumerate(cmd.argv[1:], 1):
                if k in cmd.dynamic or a.startswith("-"):
                    continue
                path = resolve_path(a, cmd.cwd or None) or a
                if archive is None and _PACKED_ARCHIVE.search(path.lower()):
                    archive = path
                elif _PERSONAL.search(path.lower()):
                    personal = a
            if archive and personal:
                packed[archive] = personal
        elif packed and cmd.name in _SENDERS:
            for a in cmd.argv[1:]:
                word = a.split("@", 1)[1] if "=@" in a or a.startswith("@") else a
                path = resolve_path(word, cmd.cwd or None) or word
                if path in packed:
                    add(Finding("block.shell.exfiltration", Risk.CRITICAL,
                                f"packs {packed[path]} into {word} and sends it off with {cmd.name}: the folder leaves "
                                f"the machine", cmd.span))
                    return


def whole(analysis: ShellAnalysis, add: Add) -> None:
    """Judged on the whole string: the clipboard read over and over (harvesting what passes through it),
    resource loops (jobs started in the background without end), and PowerShell method calls that persist,
    hide a file or load an Excel add-in, or set a machine-wide environment variable."""
    src = analysis.source[:_WHOLE_SPAN]  # loops are judged in the first part of a long string (bounded cost)
    if "lip" in src or "aste" in src or "gcb" in src.lower():  # clipboard, Get-Clipboard, pbpaste, wl-paste, gcb
        m = _CLIPBOARD.search(src)
        if m and _LOOP.search(src):
            add(Finding("confirm.shell.secret-read", Risk.HIGH,
                        "reads the clipboard over and over: passwords and tokens pass through it "
                        "[loobins:collection]", m.group(0)[:120]))
    if "tartup" in src and (m := _STARTUP_SHORTCUT.search(src)):
        add(Finding("confirm.shell.persistence", Risk.HIGH,
                    "saves a shortcut in the Startup folder: what it points at runs at every logon", m.group(0)[:160]))
    if "ttributes" in src and (m := _HIDDEN_ATTRIBUTE.search(src)):
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                    "marks a file hidden or system: Explorer and dir no longer show it", m.group(0)[:160]))
    if ("achine" in src or "ACHINE" in src or ", 2)" in src) and (m := _MACHINE_VARIABLE.search(src)):
        add(Finding("confirm.shell.system-state", Risk.MEDIUM,
                    "sets a machine-wide environment variable: every user's programs start with it (a changed Path "
                    "decides which program a name runs)", m.group(0)[:160]))
    if ("XLL" in src or "xll" in src or "Xll" in src) and (m := _EXCEL_ADDIN.search(src)):
        add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                    "has Excel load an add-in (an XLL is a DLL): its code runs inside Excel", m.group(0)[:160]))
    if ("rompt" in src or "ROMPT" in src) and (m := _CREDENTIAL_PROMPT.search(src)):
        lure = _PROMPT_LURE.search(m.group(0))
        add(Finding("block.shell.credential-dump" if lure else "confirm.shell.secret-read",
                    Risk.CRITICAL if lure else Risk.HIGH,
                    "shows Windows' own credential dialog" + (" in another program's or the system's name"
                    if lure else "") + ": the password typed goes to whoever runs the line", m.group(0)[:160]))
    if "sshpass" in src and _LOOP.search(src) and (m := _PASSWORD_SPRAY.search(src)):
        add(Finding("confirm.shell.attack-probe", Risk.HIGH,
                    "a loop tries logins with passwords taken from a list, one after another", m.group(0)[:160]))
    elif "$" in src and _LOOP.search(src) and (guess := guessing_loop(src)):
        add(Finding("confirm.shell.attack-probe", Risk.HIGH,
                    "a loop tries a login with one password after another: password guessing", guess[:160]))
    if ("redential" in src or "ecureString" in src or "ecurestring" in src) and _PS_LOOP.search(src) and \
            (m := _CREDENTIAL_FROM_VARIABLE.search(src)) and _LOGIN_CMDLET.search(src):
        add(Finding("confirm.shell.attack-probe", Risk.HIGH,
                    "a loop builds a credential from each password of a list and tries to log in with it: password "
                    "guessing or spraying", m.group(0)[:160]))
    if "*." in src and (m := _DOCUMENT_GLOB.search(src)) and _WIDE_SEARCH.search(src) and _GATHERS.search(src):
        add(Finding("confirm.shell.secret-read", Risk.HIGH,
                    "gathers every document of a kind from a home, the users' folders or the whole disk into one "
                    "place: the first step of taking them", m.group(0)[:160]))
    if "ping" in src and (m := _PING_SWEEP.search(src)) and \
            (_LOOP.search(src) or "for /l" in src.lower() or "foreach" in src.lower()):
        add(Finding("confirm.shell.recon", Risk.MEDIUM,
                    "pings every address of a range: a sweep for the machines on the network", m.group(0)[:160]))
    if "..." in src and (m := _DOTS_FOLDER.search(src)):
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                    "makes or fills a folder named only with dots (`...`): it passes for the parent folder in a "
                    "listing", m.group(0)[:160]))
    if len(analysis.commands) > 1 and ("zip" in src or "tar" in src or "7z" in src or "ditto" in src or
                                      "rchive" in src):
        _packed_and_sent(analysis, add)
    if "$0" in src and (m := _SELF_TWICE.search(src)):
        add(Finding("block.shell.fork-bomb", Risk.CRITICAL,
                    "a script that starts itself twice each time it runs: it fills the process table", m.group(0)))
    if ("do" in src and _ENDLESS_MAKE.search(src)) or _FILLER.search(src):
        m = _ENDLESS_MAKE.search(src) or _FILLER.search(src)
        assert m is not None
        add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                    "makes files, folders or data without end: it fills the disk or runs out of inodes",
                    m.group(0)[:200]))
    if "&" not in src:
        return
    # Every endless-spawn match holds `do` and `while`, `until` or `for`, and every burner one of its four
    # programs (case as written: neither regex ignores case): a chain of `&&` without them is not searched,
    # which on a long one is tens of µs
    m = _ENDLESS_SPAWN.search(src) if "do" in src and ("while" in src or "until" in src or "for" in src) \
        else None
    if m:
        add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                    "a loop starts background jobs without end: it can exhaust processes or memory", m.group(0)[:200]))
    elif ("yes" in src or "cat" in src or "sha" in src or "dd" in src) and len(_BURNERS.findall(src)) >= 2:
        add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                    "several busy loops started in the background: they burn every processor", src[:200]))
