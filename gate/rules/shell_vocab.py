"""The shell rules' vocabulary: what commands and their words mean, shared by the Detector
(gate/rules/shell.py) and its effect modules (shell_destructive, shell_credentials, ...)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from gate.catalogue import dry_run
from gate.model import Risk, Span
from gate.nochange import named_use
from gate.patterns import Patterns
from gate.shell import (
    DOWNLOADERS,
    HOME,
    Command,
)

SHELL_TYPES = ("shell", "type")

# -- vocabulary (what commands mean; the tunable lists live in the [shell] policy) ----------------

_DELETERS = frozenset({"rm", "rmdir", "unlink", "shred", "srm", "del", "erase", "rd", "remove-item", "ri", "wipe"})
_READERS = frozenset({
    "cat", "tac", "less", "more", "head", "tail", "bat", "batcat", "strings", "xxd", "hexdump", "od", "base64",
    "base32", "grep", "egrep", "fgrep", "rg", "ag", "awk", "gawk", "sed", "cut", "sort", "uniq", "nl", "vim",
    "vi", "nvim", "nano", "emacs", "code", "gedit", "cp", "scp", "rsync", "tar", "zip", "7z", "gzip", "openssl",
    "gpg", "jq", "yq", "sqlite3", "python", "python3", "type", "get-content", "gc", "view", "pr", "fold",
    "paste", "column", "diff", "cmp", "wc", "source", ".", "dd", "pv", "mail", "install", "gron", "dasel", "jc",
    "htmlq", "pup", "ugrep", "jless", "fx", "man", "select-string", "sls", "findstr", "cpio",
})
# programs that print or encode a file's content (the agent then holds it); copying/archiving is not this
_DUMPERS = frozenset({"cat", "tac", "head", "tail", "less", "more", "most", "bat", "batcat", "strings", "xxd",
                      "hexdump", "od", "base64", "base32", "basenc", "nl", "type", "get-content", "gc", "pr",
                      "fold", "view", "awk", "gawk", "sed", "grep", "egrep", "rg", "tee", "dd", "gron",
                      "dasel", "jc", "ugrep", "select-string", "sls", "findstr",
                      # the clipboard: every other program of the session reads it, and clipboard managers keep it
                      "xclip", "xsel", "wl-copy", "pbcopy", "clip", "set-clipboard", "scb", "copyq",
                      "termux-clipboard-set", "clipcopy", "lemonade"})
# every program reads_secret can name a secret for without a `<` redirect
_WRITING_ARCHIVERS_AND_DOWNLOADERS = frozenset({"tar", "gtar", "bsdtar", *DOWNLOADERS, "certutil", "bitsadmin",
                                                "start-bitstransfer", "aria2c"})
_SECRET_READERS = frozenset({*_READERS, "curl", "wget", "scp", "rsync", "sftp", "env", "printenv", "set", "export",
                             "history", "security", "secret-tool", "gpg"})
_OUTPUT_FLAGS = frozenset({"-out", "-keyout", "--output", "-o", "--out", "--keyout"})
_DISK_TOOLS = frozenset({"fdisk", "gdisk", "cfdisk", "sfdisk", "sgdisk", "parted", "gparted"})
_HARMLESS_DEV = re.compile(r"^/dev/(null|zero|u?random|stdin|stdout|stderr|tty\w*|pts/.*|fd/.*|shm(/.*)?|full|ptmx|"
                           r"console|log|kmsg|tcp/.*|udp/.*)$")
# macOS start-up places left for old software: the event monitor's rules and StartupItems (run as root at boot)
LEGACY_AUTORUN = re.compile(r"^(/private)?/etc/emond\.d/rules/|^/library/startupitems/")
_HISTORY_FILE = re.compile(r"(^|/)\.(bash|zsh|sh|ksh|ash|mksh|python|psql|mysql|sqlite|node_repl|rediscli)_history$|"
                           r"(^|/)\.history$|"
                           r"(^|/)\.zhistory$|fish_history$|psreadline/consolehost_history\.txt$")
_DB_CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "clickhouse",
                         "cockroach", "duckdb", "mongo", "mongosh", "redis-cli", "cqlsh", "snowsql", "bq", "osql",
                         "isql", "trino", "presto", "sqlplus", "usql", "pgcli", "mycli", "litecli", "turso",
                         # PowerShell's: SqlServer's Invoke-Sqlcmd, dbatools' Invoke-DbaQuery, PowerUpSQL's
                         # Get-SQLQuery (its verb says get; its -Query is any statement)
                         "invoke-sqlcmd", "invoke-dbaquery", "get-sqlquery", "get-sqlquerythreaded",
                         "invoke-sqlquery"})
_DB_CODE_FLAGS = frozenset({"-c", "--command", "-e", "--execute", "-q", "--query", "-Q", "--eval", "-x", "-query"})
_SQL_BLOCK = re.compile(
    r"\bdrop\s+(database|schema|table|keyspace)\b|\btruncate\s+(table\s+)?[a-z_\"`\[]|"
    r"\bdelete\s+from\s+[^\s;]+\s*(;|$)|dropdatabase\s*\(|\bflushall\b|\.drop\s*\(\s*\)", re.S)
# statements that make the database server run a program of the machine it runs on: a shell command (COPY ...
# PROGRAM, xp_cmdshell, sys_exec), an OLE or external-script call, or native code loaded into the server (an
# untrusted-language or C function, a library extension, an unsafe assembly, a scheduler job of type executable)
_SQL_RUNS_PROGRAM = re.compile(
    r"\bcopy\b[^;]{0,300}?\b(from|to)\s+program\b|\bxp_cmdshell\b|\bsp_oacreate\b|\bsp_execute_external_script\b|"
    r"\bsys_(exec|eval)\s*\(|\blanguage\s+['\"]?(plpython\d?u|plperlu|pltclu|plsh|c)\b['\"]?|"
    r"\bcreate\s+(or\s+replace\s+)?function\b[^;]{0,300}\bsoname\b|\bload_extension\s*\(|"
    r"\bcreate\s+assembly\b[^;]{0,300}\b(unsafe|external_access)\b|\bdbms_java\.|java\.lang\.runtime|"
    r"\bdbms_scheduler\.create_job\b[^;]{0,300}executable|\bxp_regwrite\b", re.S)
# statements that read or write the server machine's files, or make it send data out over the network
_SQL_SERVER_FILES = re.compile(
    r"\binto\s+(outfile|dumpfile)\b|\bload_file\s*\(|\bpg_read_(binary_)?file\s*\(|\blo_(import|export)\s*\(|"
    r"\bpg_ls_dir\s*\(|\bopenrowset\s*\(\s*bulk\b|\butl_(file|http)\.|\bxp_dirtree\b|\bdblink(_exec)?\s*\(|"
    r"\balter\s+system\s+set\s+(archive_command|restore_command|(shared|local|session)_preload_libraries)\b|"
    r"\battach\s+database\s+['\"][^'\"]*\.(php\d?|jsp|aspx?|sh|py|pl|cgi)['\"]", re.S)
# a server file written where it runs: a page in a web root or of a script type, a cron file, authorized_keys
_SQL_PLANTS = re.compile(
    r"\binto\s+(outfile|dumpfile)\s+['\"](?P<path>[^'\"]*(/var/www/|/srv/|/usr/share/nginx/|htdocs|wwwroot|"
    r"/cron|authorized_keys|\.(php\d?|phtml|jsp|jspx|aspx?|cgi|pl|sh))[^'\"]*)['\"]", re.S)
_SQL_CONFIRM = re.compile(r"\bdelete\s+from\b|\bupdate\s+\S+\s+set\b(?!.*\bwhere\b)|\bdrop\s+(index|view|user|role|"
                          r"function|procedure|trigger|column|sequence)\b|\balter\s+table\b.*\bdrop\b|"
                          r"\bgrant\s+(all|select|insert|update|delete|super|usage|[a-z_]+\s+on)\b|\brevoke\b|"
                          r"\balter\s+(user|role|login)\b|\bcreate\s+(user|role|login)\b|\bset\s+password\b|"
                          r"\bconfig\s+set\b|\bslaveof\b|\breplicaof\b|\bmodule\s+load\b|"
                          # a row's access changed (role, admin flag, password), and document stores' deletes
                          r"\bupdate\s+\S+\s+set\b[^;]*\b(role|is_?admin|is_?superuser|is_?staff|admin|"
                          r"password|passwd|password_hash|permissions?)\s*=|"
                          r"\.(deletemany|deleteone|remove|findoneanddelete|updatemany)\s*\(", re.S)
# redis commands that delete keys or end their life (the client's words are the command itself)
_REDIS_DELETE = frozenset({"del", "unlink", "hdel", "expire", "pexpire", "getdel", "rename", "lrem", "srem", "zrem"})
_NET_TOOLS = frozenset({"nc", "ncat", "netcat", "telnet", "socat", "openssl", "cryptcat", "pwncat"})
_LOLBINS = frozenset({"certutil", "bitsadmin", "esentutl", "mshta", "regsvr32", "rundll32", "wmic", "cscript",
                      "wscript", "installutil", "msbuild", "cmstp", "odbcconf", "forfiles", "msiexec", "regasm",
                      "regsvcs", "hh", "pcalua", "msxsl", "expand", "extrac32", "findstr", "replace", "makecab"})
_PKG_INSTALL = {  # manager → verbs that add software
    "pip": {"install"}, "pip3": {"install"}, "pipx": {"install", "inject", "upgrade"}, "uv": {"add", "install"},
    "poetry": {"add"}, "pdm": {"add"}, "conda": {"install"}, "mamba": {"install"}, "micromamba": {"install"},
    "gem": {"install"}, "bundle": {"add"}, "cargo": {"install", "add"}, "go": {"install", "get"},
    "npm": {"install", "i", "add", "isntall"}, "pnpm": {"add", "install", "i"}, "bun": {"add", "install", "i"},
    "yarn": {"add"}, "brew": {"install", "reinstall", "tap"}, "port": {"install"}, "apt": {"install", "reinstall"},
    "apt-get": {"install", "reinstall"},
    "aptitude": {"install"}, "dnf": {"install", "in"}, "yum": {"install"}, "zypper": {"install", "in"},
    "apk": {"add"}, "snap": {"install"}, "flatpak": {"install"}, "choco": {"install"}, "winget": {"install"},
    "scoop": {"install"}, "dpkg": {"-i", "--install"}, "rpm": {"-i", "-u", "--install", "--upgrade", "-ivh", "-uvh"},
    "nix-env": {"-i", "--install"}, "pacman": {"-s", "-u", "-sy", "-syu"}, "yay": {"-s"}, "paru": {"-s"},
    "add-apt-repository": {"*"}, "composer": {"require"}, "dotnet": {"add", "install"}, "mvn": set(), "r": set(),
    # Lua's and Perl's managers (`cpanm Module::Name`: the module is its first word)
    "luarocks": {"install"}, "cpanm": {"*"}, "cpan": {"install", "-i"},
    "playwright": {"install-deps"},
}
_PKG_REMOVE = {
    "pip": {"uninstall"}, "pip3": {"uninstall"}, "pipx": {"uninstall", "uninstall-all"}, "npm": {"uninstall", "remove",
    "rm", "un"}, "brew": {"uninstall", "remove", "rm"}, "apt": {"remove", "purge", "autoremove"}, "apt-get": {"remove",
    "purge", "autoremove"}, "dnf": {"remove", "erase"}, "yum": {"remove", "erase"}, "snap": {"remove"},
    "gem": {"uninstall"}, "cargo": {"uninstall"}, "choco": {"uninstall"}, "winget": {"uninstall"},
    "scoop": {"uninstall", "rm"},
    "flatpak": {"uninstall"}, "zypper": {"remove", "rm"}, "apk": {"del"}, "pacman": {"-r", "-rs", "-rns"},
    "dpkg": {"-r", "-p", "--purge", "--remove"}, "rpm": {"-e", "--erase"}, "conda": {"remove", "uninstall"},
    "emerge": {"--unmerge", "-C", "--prune", "-P", "--rage-clean"},  # (flags: gate/rules/shell_programs.py)
}
_UNTRUSTED_FLAGS = frozenset({"--index-url", "-i", "--extra-index-url", "--trusted-host", "--registry",
                              "--allow-unauthenticated", "--force-yes", "--nogpgcheck", "--no-gpg-checks",
                              "--insecure", "--dangerous", "--allow-untrusted", "--no-verify", "--source", "-s",
                              "--allow-downgrades", "--break-system-packages",
                              # the installer's own integrity check switched off (choco, winget)
                              "--ignore-checksums", "--allow-empty-checksums", "--allow-empty-checksums-secure",
                              "--ignore-security-hash"})
_PUBLISH = {
    "npm": {"publish", "unpublish", "deprecate"}, "yarn": {"publish", "npm"}, "pnpm": {"publish"},
    "bun": {"publish"}, "twine": {"upload"}, "cargo": {"publish", "yank"}, "gem": {"push", "yank"},
    "poetry": {"publish"}, "flit": {"publish"}, "uv": {"publish"}, "hatch": {"publish"}, "pdm": {"publish"},
    "docker": {"push"}, "podman": {"push"},
    "cosign": {"sign", "attest", "attach", "copy", "upload"}, "helm": {"push", "install", "upgrade", "rollback"},
    "vsce": {"publish"}, "ovsx": {"publish"}, "mvn": {"deploy"}, "gradle": {"publish"}, "gradlew": {"publish"},
    "firebase": {"deploy"}, "fly": {"deploy"}, "flyctl": {"deploy"}, "serverless": {"deploy"}, "sls": {"deploy"},
    "cdk": {"deploy"}, "pulumi": {"up", "update"}, "terraform": {"apply", "import", "taint"},
    "tofu": {"apply", "import"}, "kubectl": {"apply", "create", "replace", "patch", "scale", "rollout", "set", "edit",
    "annotate", "label", "expose", "run"}, "oc": {"apply", "create", "replace", "patch", "scale", "rollout"},
    "make": {"deploy", "release", "publish", "upload", "push"}, "dotnet": {"nuget"}, "gh": {"release"},
    "eb": {"deploy"}, "heroku": {"deploy"}, "ansible-playbook": {"*"}, "vercel": {"--prod", "deploy"},
    "netlify": {"deploy"}, "wrangler": {"deploy", "publish"}, "git": set(), "packer": {"build"},
    "sam": {"deploy"}, "copilot": {"deploy"}, "amplify": {"publish", "push"},
}
_INFRA_DESTROY = {
    "kubectl": {"delete", "drain"}, "oc": {"delete"}, "helm": {"uninstall", "delete"}, "terraform": {"destroy"},
    "tofu": {"destroy"}, "pulumi": {"destroy"}, "cdk": {"destroy"}, "docker": {"rm", "rmi", "prune"},
    "podman": {"rm", "rmi"}, "gh": {"delete"}, "heroku": {"apps:destroy", "pg:reset", "*"}, "gsutil": {"rm", "rb"},
    "rclone": {"delete", "purge", "deletefile", "sync"}, "eksctl": {"delete"}, "minikube": {"delete"},
    "kind": {"delete"}, "vagrant": {"destroy"}, "virsh": {"destroy", "undefine"}, "multipass": {"delete", "purge"},
    "serverless": {"remove"}, "sls": {"remove"}, "firebase": {"firestore:delete", "database:remove", "*"},
    # hosting, database and cloud CLIs: any verb that deletes (`fly apps destroy`, `doctl compute droplet delete`,
    # `netlify sites:delete`, `wrangler r2 bucket delete`) is judged by _SAAS_DESTROY
    # (only programs the effect table describes: an undescribed one asks whatever its verb)
    **{name: {"*"} for name in ("doctl", "linode-cli", "hcloud", "flyctl", "fly", "vercel", "netlify", "wrangler",
                                "glab")},
}
# the local Kubernetes clusters made and thrown away as a development chore (in containers or a local VM): deleting
# one loses nothing (gate/rules/shell_programs.py `deploys`)
DEV_CLUSTERS = frozenset({"kind", "minikube", "k3d"})
# a verb that deletes, alone or as one part of a compound verb (`apps:destroy`, `delete-batch`,
# `schedule-key-deletion`); `droplet`, `dropdown`, `remover` are not
_SAAS_DESTROY = re.compile(r"(?:^|[-:_.])(?:delete|deletion|destroy|remove|rm|terminate|purge|drop|wipe|erase|nuke|"
                           r"teardown|deprovision|decommission|uninstall|rb|reset)(?:$|[-:_.])")
_SERVICE_VERBS = frozenset({"stop", "disable", "mask", "kill", "restart", "reload", "try-restart",
                            "reload-or-restart", "isolate", "start"})
_POWER = frozenset({"shutdown", "reboot", "halt", "poweroff", "stop-computer", "restart-computer", "suspend"})
_KILLERS = frozenset({"kill", "pkill", "killall", "killall5", "xkill", "taskkill", "stop-process", "skill", "slay"})
_ADMIN_GROUPS = frozenset({"sudo", "wheel", "admin", "root", "administrators", "adm"})
_CHMOD_MODE = re.compile(r"[0-7]{3,4}|[ugoa]*[-+=][rwxXst]*(,[ugoa]*[-+=][rwxXst]*)*")
_REMOTE_REF = re.compile(r"https?://|\\\\")
_ARCHIVES = (".deb", ".rpm", ".whl", ".tar.gz", ".tgz", ".zip", ".pkg", ".msi", ".apk")
_CLOUD_MUTATION = re.compile(r"^(create|put|update|modify|attach|detach|set|add|run|start|stop|reboot|authorize|"
                             r"revoke|enable|disable|associate|import|replace|reset|restore|invoke|publish|"
                             r"send|tag|untag|upload|cp|mv|mb|sync|grant|assign|register)(-|$)")
_GIT_VALUED = frozenset({"-c", "-C", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"})


# -- helpers ------------------------------------------------------------------------------------


def _split_flags(cmd: Command) -> tuple[set[str], list[tuple[int, str]]]:
    """(flags, operands): short flags exploded (`-rf` → -r -f), long flags kept; operands with index."""
    flags: set[str] = set()
    operands: list[tuple[int, str]] = []
    ended = False
    for i, a in enumerate(cmd.argv[1:], 1):
        if ended or a == "-" or not a.startswith("-") or i in cmd.dynamic:
            operands.append((i, a))
        elif a == "--":
            ended = True
        elif a.startswith("--"):
            flags.add(a.split("=", 1)[0].lower())
        else:
            flags.update(f"-{ch}" for ch in a[1:])
    return flags, operands


_TRANSPARENT = frozenset({"nohup", "nice", "timeout", "stdbuf", "time", "env", "command", "builtin", "exec"})


def _where(cmd: Command) -> str:
    if not cmd.via:
        return ""
    hops = [v for v in cmd.via if v not in _TRANSPARENT]
    return f" (via {' → '.join(hops)})" if hops else ""


def _risk(block: bool) -> Risk:
    return Risk.CRITICAL if block else Risk.HIGH


def _seg_glob(pattern: str) -> str:
    """A path glob as a regex where `*` and `?` stay within one path component."""
    out = []
    for ch in pattern:
        out.append("[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch))
    return "".join(out)


def _any(patterns: Iterable[str]) -> Patterns | None:
    """The patterns searched as one (prefiltered by their literals), or None for an empty list."""
    found = Patterns(patterns)
    return found if found else None


_GLOB_CHARS = re.compile(r"[*?\[]")
_WHOLE = re.compile(r"^(\*|\.\*|\*\.\*|\{\*,\.\*\}|\.\[!.\]\*|\.\?\*|\{\.\*,\*\}|\.\[\^.\]\*)$")



_HTTP_CLIENTS = frozenset({"curl", "curlie", "http", "https", "xh", "wget", "wget2"})
# HTTPie's and xh's request item that sends a file as a form field: `field@path` (`@` the first separator,
# before any `=`, `:` or `==`); `field=@path` and `field:=@path` embed a file's text and are read above
_HTTPIE_FILE = re.compile(r"^[\w.\[\]-]+@(?P<path>[^=@;]+?)(;type=[\w/.+-]+)?$")
_HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
# HTTPie's options that take a value as the next word
_HTTPIE_VALUED = frozenset({"-a", "--auth", "-A", "--auth-type", "-o", "--output", "-v", "--session",
                            "--session-read-only", "--proxy", "--cert", "--cert-key", "--verify", "--timeout",
                            "-p", "--print", "--pretty", "-s", "--style", "--format-options", "--boundary",
                            "--raw", "--max-redirects", "--ssl", "--ciphers", "--default-scheme", "--response-charset",
                            "--response-mime"})


def _httpie_items(words: list[str]) -> set[int]:
    """The indices of HTTPie's / xh's request items: the words after the (optional METHOD and the) URL."""
    positional = []
    skip = False
    for k, w in enumerate(words):
        if skip:
            skip = False
        elif w.startswith("-") and len(w) > 1:
            skip = w in _HTTPIE_VALUED and "=" not in w
        else:
            positional.append(k)
    if positional and words[positional[0]] in _HTTP_METHODS:
        positional = positional[1:]
    return set(positional[1:])


def _uploaded_files(cmd: Command) -> list[str]:
    """Local files an HTTP client sends in its request body (`-d @file`, `-F f=@file`, `-T file`, ...)."""
    name = cmd.name
    if name not in _HTTP_CLIENTS:
        return []
    words = cmd.argv[1:]
    out = []
    for k, a in enumerate(words):
        al = a.lower()
        value = None
        if al in ("-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "-f", "--form", "-t",
                  "--upload-file", "--json", "--form-string") and k + 1 < len(words):
            value = words[k + 1]
        elif al.startswith(("-d@", "--data=@", "--data-binary=@", "--post-file=", "--body-file=",
                            "--upload-file=")) or (al.startswith("-d") and len(al) > 2 and al[2] != "-"):
            value = a.split("=", 1)[1] if "=" in a and not a.startswith("-d") else a[2:]
        elif "@" in a and not a.startswith("-") and name in ("http", "https", "xh") and "=@" in a:
            value = "@" + a.split("=@", 1)[1]  # `field=@path`, `field:=@path`: the file's text as the field's value
        elif name in ("http", "https", "xh") and k in _httpie_items(words) and (m := _HTTPIE_FILE.match(a)):
            value = "@" + m.group("path")  # `field@path`: the file itself, sent as a form's file field
        if value is None:
            continue
        path = value.split("@", 1)[1] if "@" in value else value
        if value.startswith("@-") or path == "-" or not path:
            continue
        if "@" in value or al in ("-t", "--upload-file") or al.startswith(("--post-file", "--body-file")):
            out.append(path)
    return out


_LISTENERS = frozenset({"nc", "ncat", "netcat", "cryptcat", "pwncat"})
# what the shell rules report for one rule: (reason, risk, where in the judged text)
Verdict = tuple[str, Risk, tuple[Span, ...]]
_SECRET_VAR = re.compile(r"(secret|token|passw|api_?key|access_?key|private|credential|auth)", re.I)

def _no_match(_text: str) -> None:
    return None



_WIN_PROGRAM_FILE = re.compile(r"\.(exe|dll|scr|hta|msi|ps1|vbs|vbe|bat|cmd|com|cpl|jse?|wsf|lnk|sct)$", re.I)
# openssl commands that use a key or read a certificate without printing key material
_OPENSSL_KEEPS_KEYS = frozenset({"x509", "req", "verify", "crl", "s_client", "s_server", "dgst", "ciphers", "version",
                                 "speed", "rand", "ocsp", "ca", "cms", "smime", "ts", "crl2pkcs7", "sess_id",
                                 "genrsa", "genpkey", "ecparam", "dhparam", "prime", "list", "errstr", "storeutl"})


# what a dry run or a listing of one's own rights does not do: install, publish, delete, upload, escalate
_DRY_RUN_DROPS = frozenset({"confirm.shell.publish", "confirm.shell.install", "confirm.shell.destructive",
                            "confirm.shell.remote-mutation", "confirm.shell.vcs-destructive", "confirm.shell.network",
                            "confirm.shell.privilege-escalation", "confirm.shell.system-disruption"})
_SETS_VARIABLES = frozenset({"set", "setx", "setenv", "launchctl", "hash"})
_SUDO_INFO = frozenset({"-l", "-ll", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp",
                        "--remove-timestamp", "-V", "--version", "-h", "--help", "-n", "--non-interactive"})


# hardware and system information that needs root to read, and only reads (`sudo lshw`, `sudo dmidecode`)
_ROOT_INFO = frozenset({"lshw", "dmidecode", "lspci", "lsusb", "lsblk", "lscpu", "hwinfo", "inxi", "blkid",
                        "biosdecode", "system_profiler", "ss", "netstat", "lsof", "iotop", "iftop",
                        "nethogs", "smartctl", "nvme", "fdisk", "parted", "sfdisk", "dmesg", "lsmod", "lsns"})
_INFO_ONLY = {"smartctl": frozenset({"-a", "-i", "-h", "-x", "--all", "--info", "--health", "-c", "--capabilities"}),
              "nvme": frozenset({"list", "smart-log", "id-ctrl", "id-ns", "error-log"}),
              "fdisk": frozenset({"-l", "--list"}), "parted": frozenset({"-l", "--list", "print"}),
              "sfdisk": frozenset({"-l", "--list", "-d", "--dump"})}
_WRITES_SOMETHING = frozenset({"-c", "-C", "--clear", "--read-clear", "-D", "--console-off", "-E", "--console-on",
                               "-n", "--console-level", "-w", "-o", "--output", "-k", "--kill", "-K"})


# package managers whose only verbs here refresh or read the package index (`sudo apt-get update`)
_INDEX_ONLY = {n: frozenset({"update", "check", "list", "search", "show", "policy", "makecache", "check-update",
                             "info", "madison", "showpkg", "history", "depends", "rdepends", "stats", "repolist",
                             "provides", "whatprovides", "repoquery", "updateinfo", "lr", "repos", "se", "if", "lu",
                             "list-updates", "lp", "list-patches", "pa", "packages", "pd", "products", "wp",
                             "what-provides"})
               for n in ("apt", "apt-get", "apt-cache", "dnf", "yum", "zypper", "apk", "brew")}
# what may follow a listing verb: package names, globs and the listing's own words (`dnf list installed`), never
# an option setting (`-o APT::Update::Pre-Invoke::=...`) or a path
_PACKAGE_ARG = re.compile(r"^[\w.+@*-]+(?::[\w.+-]+)?$")


# services, logs, firewall and audit rules, containers, files: root only to read them. Their first verb (or,
# for flag-driven programs, a listing flag) says the use reads; what they read is still judged (a credential
# file read as root blocks as it does without root)
_ROOT_READ_VERBS = {
    "systemctl": frozenset({"status", "list-units", "list-unit-files", "list-timers", "list-sockets", "is-active",
                            "is-enabled", "is-failed", "show", "cat", "list-dependencies"}),
    "ufw": frozenset({"status"}), "nft": frozenset({"list"}),
    "iptables": frozenset({"-l", "--list", "-s", "--list-rules"}),
    "ip6tables": frozenset({"-l", "--list", "-s", "--list-rules"}),
    "auditctl": frozenset({"-l", "-s"}), "aureport": frozenset(), "ausearch": frozenset(),
    "docker": frozenset({"ps", "images", "logs", "inspect", "info", "version", "stats", "top", "events"}),
    "podman": frozenset({"ps", "images", "logs", "inspect", "info", "version", "stats", "top"}),
    "tmutil": frozenset({"status", "listbackups", "latestbackup", "destinationinfo", "machinedirectory", "compare",
                         "isexcluded", "listlocalsnapshots", "startbackup", "version"}),
    "pwpolicy": frozenset({"-getaccountpolicies", "-getglobalpolicy", "-getpolicy", "-authentication-allowed"}),
    "lynis": frozenset({"audit", "show"}), "aide": frozenset({"--check", "-c", "--compare"}),
    "rkhunter": frozenset({"--check", "-c", "--list", "--versioncheck"}), "chkrootkit": frozenset(),
    "clamscan": frozenset(), "debsums": frozenset(), "needrestart": frozenset({"-r", "-b"}),
    "fdesetup": frozenset({"status", "list", "isactive", "haspersonalrecoverykey", "hasinstitutionalrecoverykey",
                           "showdeferralinfo", "supportsauthrestart", "usingrecoverykey"}),
    "spctl": frozenset({"--status", "--assess", "-a", "--list"}), "csrutil": frozenset({"status"}),
    "systemextensionsctl": frozenset({"list"}), "kmutil": frozenset({"showloaded"}),
    "journalctl": frozenset(), "ls": frozenset(), "du": frozenset(), "stat": frozenset(), "cat": frozenset(),
    "zpool": frozenset({"status", "list", "iostat", "get", "history"}),
    "zfs": frozenset({"list", "get", "holds", "userspace", "groupspace"}),
    "mdadm": frozenset({"--detail", "-d", "--examine", "-e", "--query", "-q"}),
    "cryptsetup": frozenset({"status", "isluks", "luksuuid"}),
    "pvs": frozenset(), "vgs": frozenset(), "lvs": frozenset(), "pvdisplay": frozenset(), "vgdisplay": frozenset(),
    "lvdisplay": frozenset(), "lvm": frozenset({"pvs", "vgs", "lvs", "pvdisplay", "vgdisplay", "lvdisplay"}),
    "dumpe2fs": frozenset({"-h"}), "xfs_info": frozenset(), "smbstatus": frozenset(),
    "virsh": frozenset({"list", "dominfo", "domstate", "net-list", "pool-list", "vol-list", "nodeinfo"}),
    "sestatus": frozenset(), "aa-status": frozenset(), "apparmor_status": frozenset(),
    "mokutil": frozenset({"--sb-state", "--list-enrolled"}), "sshd": frozenset({"-t"}),
    "udevadm": frozenset({"info"}), "dkms": frozenset({"status"}), "modinfo": frozenset(),
    "pwck": frozenset({"-r"}), "grpck": frozenset({"-r"}), "chage": frozenset({"-l", "--list"}),
    "last": frozenset(), "lastb": frozenset(), "dpkg": frozenset({"-l", "--list", "-s", "--status", "--listfiles"}),
    "sysctl": frozenset({"-a", "--all"}), "crontab": frozenset({"-l"}), "praudit": frozenset(),
    "auditreduce": frozenset(), "fs_usage": frozenset(), "tlp-stat": frozenset(), "arcstat": frozenset(),
    "lvmdiskscan": frozenset(), "getsebool": frozenset(), "semodule": frozenset({"-l", "--list-modules"}),
    "multipath": frozenset({"-ll", "-l"}), "iscsiadm": frozenset({"session"}),
    "snapper": frozenset({"list", "list-configs", "status"}), "timeshift": frozenset({"--list", "--list-devices"}),
    "head": frozenset(), "tail": frozenset(), "grep": frozenset(),
    "zcat": frozenset(), "wc": frozenset(), "getfacl": frozenset(), "lsattr": frozenset(), "file": frozenset(),
    # package, repository, session and boot reports; syntax checks of root-owned configuration
    "visudo": frozenset({"-c", "--check"}), "passwd": frozenset({"-s", "--status"}),
    "swapon": frozenset({"--show", "-s", "--summary"}), "getenforce": frozenset(), "ps": frozenset(),
    "top": frozenset({"-b"}), "iotop": frozenset(),
    "snap": frozenset({"list", "info", "find", "services", "changes", "connections", "version"}),
    "flatpak": frozenset({"list", "info", "search", "remotes", "ps"}),
    "tailscale": frozenset({"status", "ip", "netcheck", "version"}),
    "resolvectl": frozenset({"status", "query", "statistics"}),
    "systemd-analyze": frozenset({"blame", "critical-chain", "time", "security", "verify", "cat-config",
                                  "unit-paths", "calendar", "timespan"}),
    "loginctl": frozenset({"list-sessions", "list-users", "list-seats", "show-session", "show-user",
                           "session-status", "user-status", "seat-status"}),
    "launchctl": frozenset({"list", "print", "print-disabled", "blame", "dumpstate", "managerpid", "version"}),
    "fwupdmgr": frozenset({"get-devices", "get-updates", "get-upgrades", "get-history", "get-remotes", "get-topology",
                           "get-releases", "get-details", "security", "refresh"}),
    "perf": frozenset({"top", "list"}),
    "kubectl": frozenset({"get", "describe", "logs", "top", "version", "cluster-info", "api-resources", "explain"}),
    "find": frozenset(),
    "firewall-cmd": frozenset({"--state", "--list-all", "--list-ports", "--list-services", "--get-active-zones",
                               "--get-default-zone", "--list-all-zones", "--get-zones", "--list-rich-rules",
                               "--query-port", "--query-service"}),
}
# flag-driven readers that need root to see a device or the kernel's counters: every flag given must be one of
# these, and none at all is a plain report (`sudo ethtool eth0`, `sudo hdparm -I /dev/sda`, `sudo powermetrics -n
# 1`); their setting flags (`ethtool -s`, `hdparm -W`, `powermetrics -o`) are not here
_ROOT_FLAG_READS = {
    "ethtool": frozenset({"-i", "--driver", "-S", "--statistics", "-k", "--show-features", "--show-offload", "-g",
                          "--show-ring", "-a", "--show-pause", "-c", "--show-coalesce", "-l", "--show-channels", "-m",
                          "--module-info", "--dump-module-eeprom", "-P", "--show-permaddr", "-T",
                          "--show-time-stamping",
                          "--show-eee", "--show-fec", "--show-priv-flags", "--phy-statistics", "-d", "--register-dump",
                          "--json", "-h", "--help", "--version"}),
    "hdparm": frozenset({"-I", "-i", "-g", "-C", "-t", "-T", "--direct", "-h", "-V"}),
    "mtr": frozenset({"-r", "--report", "-w", "--report-wide", "-c", "--report-cycles", "-n", "--no-dns", "-b",
                      "--show-ips", "-z", "--aslookup", "-4", "-6", "-T", "--tcp", "-u", "--udp", "-P", "--port",
                      "-j", "--json", "-C", "--csv", "-x", "--xml", "-e", "--mpls"}),
    "powermetrics": frozenset({"-n", "--sample-count", "-i", "--sample-rate", "-s", "--samplers", "-a", "--poweravg",
                               "-f", "--format", "-b", "--buffer-size", "--show-all", "--show-initial-usage",
                               "--show-process-energy", "--show-process-gpu", "--show-process-coalition",
                               "--show-process-io", "--show-process-netstats", "--hide-cpu-duty-cycle", "-h",
                               "--help"}),
    "badblocks": frozenset({"-s", "-v", "-b", "-c", "-e", "-p", "-sv", "-vs"}),
}
# flag-driven package queries: every flag must be one of these (`rpm -qa`, `pacman -Qi linux`); `rpm -e`,
# `pacman -Syu` change the system
_ROOT_QUERY_FLAGS = {
    "rpm": frozenset({"-q", "-qa", "-qi", "-ql", "-qf", "-qc", "-qd", "-qr", "-qai", "-qal", "-qip", "-qlp",
                      "--query", "--all", "--info", "--list", "--file", "--changelog", "--requires", "--provides",
                      "--last", "-v", "-va", "--verify", "-k", "--checksig"}),
    "pacman": frozenset({"-q", "-qi", "-qii", "-ql", "-qs", "-qo", "-qk", "-qe", "-qm", "-qdt", "-qdtq", "-qu",
                         "-qq", "-qet", "-qen", "-ss", "-si", "-sii", "--query", "--info", "--list", "--search"}),
}
# root reads that show their output in a pager unless told not to (GTFOBins: systemctl, journalctl, dpkg -l)
_PAGED = frozenset({"systemctl", "journalctl", "dpkg"})
_ROOT_READ_UNLESS = frozenset({"--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate", "--flush",
                               "--relinquish-var", "--setup-keys",
                               # find's actions: run a command, delete, or write a listing
                               "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf",
                               "-fls",
                               # firewall-cmd changes written after a listing flag
                               "--add-port", "--remove-port", "--add-service", "--remove-service", "--add-rich-rule",
                               "--remove-rich-rule", "--set-default-zone", "--add-source", "--add-interface",
                               "--change-interface", "--add-masquerade", "--add-forward-port", "--panic-on",
                               "--reload", "--complete-reload"})


# programs that, run as root, only refresh a data file of their own (virus signatures, the file-name or manual
# index, filter rules, a GeoIP or hardware-id list, the font cache): each with the switches that keep it so
_DATA_REFRESHERS = {
    "freshclam": frozenset({"--quiet", "--verbose", "-v", "--stdout", "--show-progress", "--no-warnings", "--debug",
                            "--foreground", "-f", "--list-mirrors"}),
    "updatedb": frozenset({"-v", "--verbose"}), "mandb": frozenset({"-q", "--quiet", "-c", "--create"}),
    "sa-update": frozenset({"-v", "--verbose", "-D", "--debug"}),
    "geoipupdate": frozenset({"-v", "--verbose"}), "fc-cache": frozenset({"-f", "-v", "-r", "-fv", "-rv", "-vf"}),
    "update-pciids": frozenset({"-q"}), "update-usbids": frozenset({"-q"}), "update-ca-certificates": frozenset(),
    "rkhunter": frozenset({"--update", "--propupd", "--check", "-c", "--sk", "--skip-keypress", "--rwo",
                           "--report-warnings-only", "--versioncheck", "--quiet", "--nocolors"}),
    "apt-file": frozenset({"update"}), "pkgfile": frozenset({"-u", "--update", "-uu"}),
    "tldr": frozenset({"--update", "-u"}),
}


def _refresh_only(cmd: Command) -> bool:
    """`sudo freshclam`, `sudo updatedb`, `sudo rkhunter --update`: root only to refresh the program's own data
    (signatures, indexes), with no switch beyond those that keep it so."""
    allowed = _DATA_REFRESHERS.get(cmd.name)
    return allowed is not None and not cmd.redirects and all(w in allowed for w in cmd.words[1:])


def _root_info(cmd: Command) -> bool:
    """`sudo lshw -short`, `sudo dmidecode -t memory`, `sudo fdisk -l`: root only to read system information;
    `sudo apt-get update`: root only to refresh the package index; `sudo systemctl status nginx`, `sudo
    ufw status`, `sudo journalctl -u ssh`, `sudo ls /root`: root only to read services, rules, logs, files;
    `sudo fail2ban-client status sshd`, `sudo k3s crictl ps`: a read-only mode the program table names
    (`[[no_change]]` in programs.toml, with the flags that change something left out)."""
    if not cmd.redirects and cmd.name not in _PAGED and named_use(cmd) is not None:
        return True
    if cmd.name in _DATA_REFRESHERS:
        return _refresh_only(cmd)
    if cmd.name in _INDEX_ONLY and not cmd.redirects:
        verbs = [w for w in cmd.words[1:] if not w.startswith("-")]
        if not verbs or verbs[0] not in _INDEX_ONLY[cmd.name] or any(w in ("-o", "--option") for w in cmd.words):
            return False
        if verbs[0] == "history":  # `dnf history undo 5` changes what `dnf history list` shows
            return all(v in ("list", "info") or v.isdigit() for v in verbs[1:])
        return all(_PACKAGE_ARG.match(v) for v in verbs[1:])
    if cmd.name in _ROOT_QUERY_FLAGS and not cmd.redirects:
        flags = [w for w in cmd.words[1:] if w.startswith("-")]
        return bool(flags) and all(w in _ROOT_QUERY_FLAGS[cmd.name] for w in flags)
    if cmd.name in _ROOT_READ_VERBS and not cmd.redirects and not cmd.upstream:
        words = cmd.words[1:]
        if cmd.name in _PAGED and "--no-pager" not in words and not (
                cmd.name == "journalctl" and any(w in ("-f", "--follow") for w in words)):  # following never pages
            return False  # its pager runs as root, and `!sh` typed into it is a root shell
        if any(w.split("=", 1)[0] in _ROOT_READ_UNLESS for w in words):
            return False
        verbs = _ROOT_READ_VERBS[cmd.name]
        first = next((w for w in words if not w.startswith("-") or w in verbs), None)
        return not verbs or first in verbs
    if cmd.name in _ROOT_FLAG_READS and not cmd.redirects and not cmd.upstream:
        # (case kept: `ethtool -S` shows counters, `ethtool -s` sets the link)
        return all(w in _ROOT_FLAG_READS[cmd.name] for w in cmd.argv[1:] if w.startswith("-"))
    if cmd.name not in _ROOT_INFO or cmd.redirects:
        return False
    words = cmd.words[1:]
    if cmd.name in _INFO_ONLY:
        return any(w in _INFO_ONLY[cmd.name] for w in words)
    return not any(w in _WRITES_SOMETHING for w in words)


# `tool --help`, `tool sub --version`: a command-line program prints its usage or version and exits. Only the long
# forms: `-h` is `halt` to shutdown and `human-readable` to many; a bare `help` operand is a file name to rm
_USAGE_FLAGS = frozenset({"--help", "--version"})
_SUB_WORD = re.compile(r"[a-z][a-z0-9-]*$")
# programs whose first operands name another program to fetch or run, which gets the flag instead
_RUNS_ANOTHER = frozenset({"npx", "bunx", "pnpx", "uvx", "pipx", "dlx", "exec", "run", "x", "env", "xargs",
                           "parallel", "ssh", "watch", "nohup", "time", "timeout", "nice", "strace", "ltrace",
                           "valgrind", "hyperfine", "flatpak-spawn", "start", "call", "invoke", "eval"})


def _prints_usage(cmd: Command) -> bool:
    """`tool --help` / `tool sub --version`, found by name, with nothing but sub-command words before the flag and no
    redirect: the program prints and exits, whatever its other verbs would do. Not a program that runs the next
    word (`npx pkg --help` fetches and runs pkg; `docker run img --help` starts a container)."""
    words = cmd.words
    if len(words) < 2 or len(words) > 5 or words[-1] not in _USAGE_FLAGS or cmd.redirects or cmd.found:
        return False
    if "/" in cmd.argv[0] or "\\" in cmd.argv[0] or cmd.name in _RUNS_ANOTHER:
        return False
    return all(_SUB_WORD.match(w) and w not in _RUNS_ANOTHER for w in words[1:-1])


def _changes_nothing(cmd: Command) -> bool:
    """A dry run, or `sudo -l` / `sudo -v` (lists or refreshes one's own rights; runs nothing)."""
    if cmd.name in ("sudo", "doas") and len(cmd.words) > 1:
        words = list(cmd.words[1:])
        if "-U" in cmd.argv[1:] and any(w in ("-l", "-ll", "--list") for w in words):
            # (`sudo -l -U alice`: lists another account's rights, as root may; the name after -U runs nothing)
            at = cmd.argv.index("-U")
            words = words[:at - 1] + words[at + 1:]
        words = [w for w in words if not w.startswith("--other-user=")]
        return all(w in _SUDO_INFO for w in words)
    return dry_run(cmd.name, cmd.words)


_JUNK_NAME = re.compile(
    r"^(\*\.(pyc|pyo|py\[co\]|o|obj|class|swp|swo|gcda|gcno|lo|la|pyd|tsbuildinfo|"
    r"coverage|egg-info)|\*~|\.\*\.swp|__pycache__|\.ds_store|\._\*|thumbs\.db|desktop\.ini|\.pytest_cache|"
    r"\.mypy_cache|\.ruff_cache|\.hypothesis|\.tox|\.nox|\.coverage|htmlcov|\.ipynb_checkpoints|"
    r"\.sass-cache|\.parcel-cache|\.turbo|\.next|\.nuxt|\*\.egg-info|\.eslintcache|\.stylelintcache|node_modules)$")
# copies and leftovers someone made (backups, merge leftovers, temporary files): no build makes them again,
# so they go without asking only under a regenerable folder (build/, dist/, tmp/ ...), not anywhere in a project
_KEPT_COPY_NAME = re.compile(r"^\*\.(tmp|orig|rej|bak)$")
_NAME_TESTS = frozenset({"-name", "-iname"})
# tests that widen what a find matches beyond its names (-prune alone only stops the descent into a match)
_WIDENING = frozenset({"-path", "-ipath", "-regex", "-iregex", "-wholename", "-o", "-or", "-not", "!"})


def _build_junk_only(root: str, words: list[str], regenerable: Callable[[str], object] | None = None) -> bool:
    """`find ROOT ... -delete` limited to build and editor leftovers (`-name '*.pyc'`, `-name __pycache__`)
    under a directory of the project (a relative path that does not climb out); backups and temporary
    copies (`*.bak`, `*.tmp`) only under a regenerable folder (`regenerable` matches its name). An absolute
    root (`find /workspace -name '*.pyc' -delete`) counts for build and editor leftovers alone: the caller has
    found it outside every protected path and system tree."""
    if root.startswith(("~", "$", "-")) or ".." in root.split("/"):
        return False
    if root.startswith("/"):
        regenerable = None  # (a kept copy under an absolute folder is someone's file, not a build's)
    names = [words[k + 1] for k, w in enumerate(words[:-1]) if w in _NAME_TESTS]
    if not names or any(w in _WIDENING for w in words):
        return False
    in_regenerable = regenerable is not None and any(
        regenerable(part) for part in root.split("/") if part not in ("", "."))
    return all(_JUNK_NAME.match(n) or (in_regenerable and _KEPT_COPY_NAME.match(n)) for n in names)


def _last_operand(cmd: Command) -> int | None:
    ops = [i for i, a in enumerate(cmd.argv[1:], 1) if not a.startswith("-")]
    return ops[-1] if len(ops) >= 2 else None


def _with_nested(cmds: list[Command], indices: tuple[int, ...]) -> list[int]:
    """`indices` and the commands nested in each (`cmd /c curl ...` is recorded as cmd, then curl inside it)."""
    out = []
    for i in indices:
        out.append(i)
        depth = len(cmds[i].via)
        j = i + 1
        while j < len(cmds) and len(cmds[j].via) > depth and j not in indices:
            out.append(j)
            j += 1
    return out


# the folders of the home a sync client uploads as they change (Dropbox, Google Drive, OneDrive, iCloud Drive and
# the File Provider folders of macOS, Nextcloud, Box, MEGA, Syncthing's default): a file put there leaves
_SYNCED_FOLDER = re.compile(r"(dropbox|google ?drive|my drive|onedrive[^/]*|library/mobile documents|"
                            r"library/cloudstorage|icloud ?drive|pcloud drive|nextcloud|owncloud|box|box sync|mega|"
                            r"megasync|sync|yandex\.disk|seafile|tresorit)(/|$)", re.I)


def synced_folder(path: str | None) -> bool:
    """`path` (resolved, absolute) is in a folder of the home that a sync client uploads."""
    return bool(path) and path.startswith(HOME + "/") and _SYNCED_FOLDER.match(path[len(HOME) + 1:]) is not None
