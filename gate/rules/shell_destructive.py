"""Shell checks: deletes, overwrites and disk or database destruction.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gate.catalogue import risky_destination
from gate.content import later_commands, runs_later
from gate.effects import WRITE_FLAG_PROGRAMS, flag_written
from gate.model import Risk
from gate.paths import is_within
from gate.rules import shell_effects
from gate.rules.shell_startup import HOME_TOOL_BINS, STARTUP_FILE, path_hijack, settings_only
from gate.rules.shell_vocab import (
    _DB_CODE_FLAGS,
    _DELETERS,
    _GLOB_CHARS,
    _HARMLESS_DEV,
    _HISTORY_FILE,
    _REDIS_DELETE,
    _SQL_BLOCK,
    _SQL_CONFIRM,
    _SQL_PLANTS,
    _SQL_RUNS_PROGRAM,
    _SQL_SERVER_FILES,
    _WIN_PROGRAM_FILE,
    _WRITING_ARCHIVERS_AND_DOWNLOADERS,
    LEGACY_AUTORUN,
    _build_junk_only,
    _split_flags,
)
from gate.shell import (
    DOWNLOADERS,
    HOME,
    SHELLS,
    Command,
    Finding,
    ShellAnalysis,
    analyse,
    display_path,
    resolve_path,
)

__all__ = ["DestructiveChecks", "piped_text"]

# logs and temporary files a program wrote and forgot (`app.log`, `server.log.3`, `x.tmp`): their names only
_LEFTOVER_NAME = re.compile(r"^[\w.*-]*\.(?:log|out|tmp|temp|trace|dmp|pid)(?:\.\*|\.\d+|\.\[0-9\]\*?|\.gz|\*)?$")
# a project's log folder, where the rotated and compressed copies of its logs are kept (`logs/app.3.gz`)
_LOG_FOLDERS = frozenset({"log", "logs"})
_ROTATED_NAME = re.compile(r"^[\w.*-]*\*[\w.*-]*\.(?:gz|bz2|xz|zst|old|\d+)$")
# age tests that keep what is recent: only files untouched for more than the given time match (`-mtime +14`)
_AGE_TESTS = frozenset({"-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin"})
# what widens a search beyond the names it lists, or reaches a repository's own files
_NOT_JUST_NAMES = frozenset({"-path", "-ipath", "-regex", "-iregex", "-wholename", "-iwholename", "-o", "-or",
                             "-not", "!", ",", "-lname", "-ilname"})


def _old_leftovers(root: str, words: list[str]) -> bool:
    """`find ./logs -name '*.log' -mtime +14 -delete`: logs and temporary files older than an age, under a
    folder of the project (a relative path that does not climb out, nor into the repository's .git). Each name
    test names such leftovers, at least one age test asks for files older than its value (`+N`), and nothing
    widens the match (`-o`, `-path`, `!`)."""
    parts = [p for p in root.replace("\\", "/").split("/") if p not in ("", ".")]
    if root.startswith(("/", "~", "$", "-", "%")) or ".." in parts or ".git" in parts or \
            any(w in _NOT_JUST_NAMES for w in words):
        return False
    names = [words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-name", "-iname")]
    aged = any(w in _AGE_TESTS and words[k + 1].startswith("+") and words[k + 1][1:].isdigit()
               for k, w in enumerate(words[:-1]))
    in_logs = any(p.lower() in _LOG_FOLDERS for p in parts)
    return bool(names) and aged and all(_LEFTOVER_NAME.match(n.strip("'\"")) or
                                        (in_logs and _ROTATED_NAME.match(n.strip("'\""))) for n in names)

# one macOS application's own cache folder in the home (~/Library/Caches/NAME) or what is inside it: the app fills
# it again when it next needs it. The cache root itself, a glob in place of the app's name, and a secret kept
# among the cached files stay out. XDG's ~/.cache is not: tools keep downloads there that are slow or costly to
# fetch again (models, package archives, whole build caches) and some keep their login beside them.
# A named folder in the temporary directories, written out (`/tmp/build`, `/var/tmp/cache-x`): scratch space a
# build, a test run or a throwaway clone made. Not `$TMPDIR/x`: the variable is whatever an earlier line, the
# action's environment or a prefix set it to (`export TMPDIR=~` first). Not the directory itself, not a wildcard
# over it, and not the sockets and session folders the desktop, ssh, tmux and systemd keep there (their names start
# with a dot or a service's name): deleting those breaks a running session.
_TMP_FOLDER = re.compile(r"/(?:var/)?tmp/([^/]+)(?:/.*)?")
_SESSION_FOLDER = re.compile(r"\.|(?:tmux|ssh|systemd-private|snap-private|pulse|dbus|krb5cc|gdm|orbit|vscode-ipc|"
                             r"deskgate|runtime)", re.IGNORECASE)


# a relative path written plainly (no variable, no wildcard): for the places that run later by their name alone
# (`.git/hooks/x`, `../.github/workflows/y`) what it names does not depend on where it is resolved
_PLAIN_RELATIVE = re.compile(r"^(?![/~$])[^*?\[$`]+$")


def _substituted(cmd: Command, analysis: ShellAnalysis) -> bool:
    """`cmd` runs inside another command's `$(...)` or backticks: a delete hidden in an echo is no scratch clean-up
    done in the open."""
    k = next((n for n, c in enumerate(analysis.commands) if c is cmd), -1)
    return any(k in c.subst for c in analysis.commands)


# the working directory's parent (or one above it) itself, or everything in it: `..`, `../*`, `../../.`
_PARENT_WHOLE = re.compile(r"^(?:\.\./)*\.\.(?:/(?:\*|\.)?)?$")

_MOVERS = frozenset({"mv", "gmv", "rsync", "move-item", "mi", "move", "ditto"})


def _moved_into(d: Any, cmd: Command, analysis: ShellAnalysis, path: str) -> bool:
    """An earlier command of the line moved something into `path` (`mv ~/Documents /tmp/x && rm -rf /tmp/x`): the
    folder holds what was brought there, not scratch."""
    for c in analysis.commands:
        if c is cmd:
            return False
        if c.name in _MOVERS and any(is_within((d.resolve(c, a) or "").rstrip("/"), path.rstrip("/"))
                                     for a in c.argv[2:] if not a.startswith("-")):
            return True
    return False


# Folders the system empties: at every restart (/tmp on most systems, /dev/shm, /run/user), or of what has not been
# touched for some days (/tmp and /var/tmp under systemd-tmpfiles).
_VOLATILE = re.compile(r"/(?:tmp|var/tmp|dev/shm|run/user/[^/]+|private/tmp|private/var/tmp)(?:/|$)")
# The person's own files: in their home, written as `~`/$HOME or by its absolute path (/home/NAME, /Users/NAME).
_PERSONAL = re.compile("^(?:" + re.escape(HOME) + r"|/home/[^/]+|/users/[^/]+)/(?!\.cache(?:/|$))[^/]")


def _into_volatile(d: Any, cmd: Command, sources: list[str], dest: str, where: str,
                   add: Callable[[Finding], None]) -> None:
    """A move of the person's files into a folder the system empties (`mv ~/Documents /tmp/x`): nothing is
    deleted now, but it is gone at the next restart or clean-up, and a later delete there looks like scratch."""
    into = d.resolve(cmd, dest)
    if not into or not _VOLATILE.match(into):
        return
    for src in sources:
        path = d.resolve(cmd, src) if src.startswith(("/", "~", "$")) else None
        if not path or not _PERSONAL.match(path) or (_GLOB_CHARS.search(src) is None and (
                d.regenerable_target(cmd, src) or _HOME_CACHE.match(path))):
            continue
        add(Finding("confirm.shell.destructive", Risk.HIGH, f"moves {display_path(path)} into {display_path(into)}, "
                    f"a folder the system empties: it is lost at the next restart or clean-up{where}", cmd.span))


def _scratch_folder(path: str) -> bool:
    """`path` (as written, or resolved) names a folder in /tmp or /var/tmp, and only it: a trailing `/`, a `/.`
    or a wildcard would follow the name into wherever a link there points (`ln -s ~ /tmp/h; rm -rf /tmp/h/`)."""
    m = _TMP_FOLDER.fullmatch(path)
    return m is not None and not _GLOB_CHARS.search(path) and not _SESSION_FOLDER.match(m.group(1)) and \
        not path.endswith(("/", "/.")) and ".." not in path.split("/")


_HOME_CACHE = re.compile("^" + re.escape(HOME) +
                         r"/library/caches/(?![.*?\[]|\.\.?(?:/|$))[^/*?\[]+(?:/.*)?$")
# a package manager's download cache and index: the manager fetches them again when next needed, and emptying
# them is the last step of every container image recipe (`rm -rf /var/lib/apt/lists/*`). The package database
# beside them (/var/lib/dpkg, /var/lib/rpm) is not a cache and stays out.
_PACKAGE_CACHE = re.compile(
    r"^(?:/var/lib/apt/lists|/var/cache/(?:apt|apk|yum|dnf|zypp|pacman/pkg|debconf/templates\.dat-old|man)"
    r"|(?:/root|/home/[^/]+)/(?:\.cache/(?:pip|pypoetry|pipenv|uv|yarn|pnpm|go-build|node-gyp|composer|bazel)"
    r"|\.npm/_cacache|\.npm/_logs|\.gradle/caches|\.cargo/registry/cache|\.composer/cache|\.bundle/cache))"
    r"(?:/[^/]+)*$")
# Xcode's derived data (every project's build products and index, by project) and the simulators' caches: Xcode
# builds them again on the next build, so deleting them, whole or one project's, is what its guides say to try
# first. The Xcode archives and the simulators' devices beside them hold what is not rebuilt, and stay out.
_XCODE_DERIVED = re.compile("^" + re.escape(HOME) +
                            r"/library/developer/(?:xcode/deriveddata|coresimulator/caches)(?:/.*)?$")


_RX_SED = re.compile(r"-[a-zA-Z]*i[a-zA-Z]*")
_RX_TRUNCATE = re.compile(r"(-s|--size=?)0")
_RX_TRUNCATE_2 = re.compile(r"[-+<>/%]?\d+[kmgtpezy]?b?", re.I)
# a path that starts with a variable and a slash (`$DIR/`, `${DIR}/*`): empty, it is `/` or `/*`
# (`${DIR:?}/` stops when it is empty, and is not matched)
_UNSET_ROOT = re.compile(r"^\$\{?(?P<var>[A-Za-z_][A-Za-z0-9_]*)\}?/\*?$")
_ALWAYS_SET = frozenset({"HOME", "PWD"})  # the shell sets these itself
# statements that change a database (SQL, and the mongo shell's write calls)
_SQL_WRITE = re.compile(r"\b(insert\s+into|update\s+\S+\s+set|delete\s+from|merge\s+into|upsert|replace\s+into|"
                        r"alter\s+\w+|create\s+\w+|drop\s+\w+|truncate)\b|\.(update|delete|insert|replace|drop|"
                        r"remove|bulkwrite)\w*\s*\(")
# a host, database or connection string named as production's (prod, production, live)
_PRODUCTION = re.compile(r"(^|[^a-z0-9])(prod|production|live)([^a-z0-9]|$)")
_RX_TRUNCATE_3 = re.compile(r"\.(db|sqlite3?|sql|mdb|accdb|bak|tar|gz|zip|dump|ldb|frm|ibd)$", re.I)
_RX_DISK_ERASE = re.compile(r"[a-z]:")
# the flag that makes a mkfs family only print what it would do; mkfs.fat's -n is a volume label, so by family
_MKFS_NO_OP = (
    (re.compile(r"^(?:mke2fs|mkfs\.ext[234]|mke4fs)$"), frozenset({"-n"})),
    (re.compile(r"^(?:mkfs\.xfs)$"), frozenset({"-N"})),
    (re.compile(r"^(?:mkntfs|mkfs\.ntfs)$"), frozenset({"-n", "--no-action"})),
)
_MKFS_FRONT_TYPE = re.compile(r"^(?:-t|--type=?)(?P<t>\w*)$")
_DISK_IMAGE = re.compile(r"\.(?:img|image|iso|raw|bin|fs|ext[234]|xfs|btrfs|vfat|fat|swap|vhdx?|qcow2?)$", re.I)


def _mkfs_dry_run(cmd: Command, flags: set[str]) -> bool:
    """`mkfs.ext4 -n`, `mkfs.xfs -N`, `mkntfs --no-action`: report the layout, write nothing."""
    name = cmd.name
    if name == "mkfs":  # the front end hands flags to `mkfs.TYPE`
        words = cmd.words[1:]
        for i, w in enumerate(words):
            m = _MKFS_FRONT_TYPE.match(w)
            if m:
                kind = m.group("t") or (words[i + 1] if i + 1 < len(words) else "")
                name = f"mkfs.{kind}"
                break
    return any(family.match(name) and flags & no_op for family, no_op in _MKFS_NO_OP)


def _image_file(path: str) -> bool:
    """A regular file made to hold a filesystem: a project-relative path, a scratch-folder file or an image name."""
    if path.startswith("/dev/") or path.startswith("$"):
        return False
    return bool(_DISK_IMAGE.search(path)) or bool(_VOLATILE.match(path)) or \
        (not path.startswith(("/", "~", "..")) and "/../" not in path)
_RX_DRIVE_WORD = re.compile(r"^[a-z]:", re.I)



# One throwaway file in the working directory, named as one: a script written to reproduce or try something
# (reproduce_bug.py, scratch.js, tmp_test.py, debug.sh), an editor or patch leftover (x.orig, x.rej, x~, .swp)
# or a compiled or logged output (x.pyc, x.o, run.log). Deleting it asks nothing; any other plain file, a
# path into another folder, a hidden name, a glob or a recursive delete still asks.
# where the Macs' device-management and endpoint security agents live (Kandji, Addigy, Jamf, Mosyle, CrowdStrike,
# SentinelOne, Microsoft Defender), and their launch daemons
_MAC_AGENT_DIR = re.compile(r"^/library/(kandji|addigy|cs|sentinel|application support/(jamf|jamf protect|mosyle\w*|"
                            r"crowdstrike|sentinelone|microsoft/defender)|launchdaemons/(io\.kandji|com\.jamf|"
                            r"com\.jamfsoftware|com\.addigy|com\.mosyle|com\.crowdstrike|com\.sentinelone|"
                            r"com\.microsoft\.fresno|com\.microsoft\.wdav))(/|\.|$)")
# Windows' cache folders (`...\SoftwareDistribution\Download\*`, `C:\Windows\Temp\*`; the update store and catroot2,
# which the update troubleshooter renames or deletes whole): never a path that climbs out
_WINDOWS_CACHE = re.compile(r"^/[a-z]:/windows/(?!.*/\.\.(?:/|$))(?:(?:softwaredistribution|system32/catroot2)(?:/.+)?|"
                            r"(?:temp|prefetch|logs/(?:cbs|dism|windowsupdate)|servicing/lcu|installer/\$patchcache\$)"
                            r"/.+)$")
_SCRATCH_FILE = re.compile(r"^(\./)?(repro(duce)?|scratch|tmp|temp|debug)([_-][\w.-]*)?\.(py|js|mjs|ts|rb|sh|pl|php|go|"
                           r"rs|c|cc|cpp|java|txt|log|out|json)$|^(\./)?[^/.][^/]*\.(tmp|bak|orig|rej|pyc|o|swp|log|out)$|"
                           r"^(\./)?[^/.][^/]*~$", re.I)
# a glob of compiled, logged or leftover files: what a clean step deletes
_JUNK_GLOB = re.compile(r"^(?:[\w.-]+/)*\*\.(?:pyc|pyo|o|obj|class|log|tmp|bak|orig|rej|swp|gcda|gcno|pdb|ilk|"
                        r"tsbuildinfo)$", re.I)


# where one program makes the file or folder it names: a downloader's output, an archive written, a folder made
_MAKERS_OUT = frozenset({"-o", "--output", "-O", "--output-document", "-f", "--file"})
_SYSTEM_BIN = re.compile(r"^(/usr(/local)?)?/s?bin/[^/]+$|^/opt/[^/]+(/[^/]+)*/bin/[^/]+$")
_VERSION_TAIL = re.compile(r"[-._]?v?\d+(\.\d+)*$")


_DISK_FILL = 20 * 2**30  # a file this large, written at once, fills most disks
_SIZE = re.compile(r"^(\d+)([kmgtp]?)(i?b)?$")


def _size(text: str) -> int:
    m = _SIZE.match(text)
    if m is None:
        return 0
    return int(m.group(1)) * {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40, "p": 2**50}[m.group(2)]


def _dd_bytes(words: tuple[str, ...]) -> int:
    """How many bytes `dd bs=1G count=100` writes (0 when it does not say: it copies its input to the end)."""
    opts = dict(w.split("=", 1) for w in words if "=" in w)
    if "count" not in opts:
        return 0
    block = _size(opts.get("bs", opts.get("obs", "512")))
    count = _size(opts["count"])
    return block * count


def _made_here(cmd: Command, analysis: ShellAnalysis, word: str) -> bool:
    """`curl -LO .../tool.zip && unzip tool.zip && rm tool.zip`, `mkdir out && ... && rm -rf out`: what the
    command deletes is a file or folder an earlier step of the same command made (a download's output, an
    archive or folder it wrote, a clone): nothing that was there before is lost."""
    if not word or word.startswith(("/", "~", "-", "$")) or ".." in word.split("/") or _GLOB_CHARS.search(word):
        return False
    want = word.rstrip("/").removeprefix("./")
    for other in analysis.commands:
        if other is cmd:
            return False
        if other.found or other.remote or other.cwd != cmd.cwd:
            continue
        argv = [a.removeprefix("./").rstrip("/") for a in other.argv]
        name = other.name
        if name in DOWNLOADERS:
            named = [argv[k + 1] for k in range(len(argv) - 1) if "://" not in argv[k + 1] and (
                     argv[k] in _MAKERS_OUT or (argv[k][:1] == "-" and argv[k][1:2] != "-" and argv[k][-1:] in "oO"))]
            named += [a.split("=", 1)[1] for a in argv if a.startswith(("--output=", "--output-document="))]
            remote_named = not named and (name == "wget" or any(a.startswith("-") and not a.startswith("--") and
                                                              "O" in a for a in other.argv[1:]))
            urls = [a.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] for a in argv if "://" in a]
            if want in named or (remote_named and want in urls):
                return True
        elif name in ("mkdir", "git", "tar", "zip", "7z", "mktemp") and want in argv[1:]:
            if (name == "git" and "clone" not in argv) or \
                    (name == "mkdir" and any((a.startswith("-") and "p" in a) or a == "--parents" for a in argv[1:])):
                continue  # (`mkdir -p` makes nothing when the folder is already there: its files would be lost)
            if name == "tar" and not any((a.startswith("-") and "c" in a) or a in ("c", "--create") or
                                         (not a.startswith("-") and "c" in a and k == 1)
                                         for k, a in enumerate(argv[1:], 1)):
                continue
            return True
    return False


def _alias_link(cmd: Command, sources: list[str], dest: str) -> str | None:
    """`ln -s /usr/bin/python3 /usr/bin/python`, `ln -sf /usr/local/bin/gcc-12 /usr/local/bin/gcc`: a symbolic
    link in a system program folder that gives an installed program its short name. The program named is the
    one the link points to, so nothing is replaced by another's code (the name of the program, or None)."""
    if cmd.name != "ln" or len(sources) != 1 or not any(
            (a.startswith("-") and not a.startswith("--") and "s" in a) or a == "--symbolic" for a in cmd.argv[1:]):
        return None
    src, dst = sources[0], dest.rstrip("/")
    if not (_SYSTEM_BIN.match(src) and _SYSTEM_BIN.match(dst)):
        return None
    a, b = src.rsplit("/", 1)[1].lower(), dst.rsplit("/", 1)[1].lower()
    a, b = _VERSION_TAIL.sub("", a) or a, _VERSION_TAIL.sub("", b) or b
    if len(a) >= 2 and len(b) >= 2 and (a == b or a.startswith(b) or b.startswith(a)):
        return src
    return None


def _project_junk(d: DestructiveChecks, cmd: Command, word: str) -> bool:
    """A relative glob, inside the project, of junk by its suffix (`*.pyc`, `build/*.o`) or of anything inside a
    folder a build makes again (`dist/*`, `node_modules/.cache/*`): what `make clean` deletes."""
    if not _GLOB_CHARS.search(word):
        return False
    rel = word.replace("\\", "/").removeprefix("./")
    if not rel or rel.startswith(("/", "~", "$", "-")) or ".." in rel.split("/") or _RX_DRIVE_WORD.match(rel) or \
            "{" in rel:  # (a brace list names other folders: `dist/{*,../src}`)
        return False
    if cmd.cwd:  # a folder changed into on the line: the project's only where it is not the system's or a home
        folder = d.resolve(cmd, rel.rsplit("/", 1)[0] if "/" in rel else ".")
        if not folder or folder.count("/") < 3 or d.is_protected(folder.rstrip("/") or "/"):
            return False
    return bool(_JUNK_GLOB.match(rel)) or ("/" in rel and d.inside_regenerable(rel))


_SENSITIVE_NAME = re.compile(r"cred|secret|passw|token|auth|id_(rsa|dsa|ecdsa|ed25519)|\.(pem|key|env|kdbx|p12|pfx)\b|"
                             r"wallet|keychain|shadow|history|sudoers", re.I)


# the system's own and the user's (~/.local/bin, ~/bin): a program put there runs by name from then on
_SEARCH_PATH_BIN = re.compile(r"^(?:/usr/local/s?bin|/opt/homebrew/s?bin|/opt/local/s?bin|"
                              r"(?:/home/[^/]+|/root|/users/[^/]+|~)/(?:" + HOME_TOOL_BINS + r"))(?:/[^/]+)?/?$", re.I)

# the root folder itself, or a loose file at the top of /usr: no installer puts anything there (its programs,
# libraries and data go in the standard folders below), so a file landing there is the system tampered with,
# as a write into /bin or /lib is
_SYSTEM_TOP = re.compile(r"^/$|^/usr/?$|^/usr/(?!(?:local|share|include|src|games|bin|sbin|lib\w*|libexec)/?$)[^/]+/?$")
# the rest of the installed system's folders: a write there changes the machine for everyone, as one in /etc does
# (/usr/src holds source trees and is the working folder container images build apps in)
_SYSTEM_FOLDER = re.compile(r"^/(?:usr/(?!local(?:/|$)|src(?:/|$))|opt/(?!homebrew(?:/|$)|local(?:/|$)))[^/]")


# database clients that talk to a server (a local sqlite or duckdb file is the project's own)
_SERVER_CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlcmd", "clickhouse-client", "cockroach", "mongo",
                             "mongosh", "cqlsh", "snowsql", "osql", "isql", "sqlplus", "usql", "pgcli", "mycli"})
_SCRIPT_FLAGS = frozenset({"-f", "--file", "-i", "--input-file", "source"})


def _unseen_script(cmd: Command, analysis: ShellAnalysis) -> bool:
    """The client reads statements the gate does not see: from a file (`-f x.sql`, `< dump.sql`) or from
    another program's output (`gunzip -c dump.gz | psql`)."""
    if any(op == "<" for op, _ in cmd.redirects) or any(w.split("=", 1)[0] in _SCRIPT_FLAGS for w in cmd.words[1:]):
        return True
    return any(analysis.commands[i].name not in ("echo", "printf") and not analysis.commands[i].stdin_text
               for i in cmd.upstream)


def _appended_text(cmd: Command) -> str:
    """The text an `echo`, `printf` or here-document appends ("" when the gate cannot read it)."""
    if cmd.name == "echo":
        words = list(cmd.argv[1:])
        while words and words[0] in ("-n", "-e", "-E", "-ne", "-en"):
            words.pop(0)
        return " ".join(words)
    if cmd.name == "printf" and len(cmd.argv) == 2 and "%" not in cmd.argv[1]:
        return cmd.argv[1]
    if cmd.name in ("cat", "tee") and cmd.stdin_text:
        return cmd.stdin_text
    return ""


def piped_text(cmd: Command, analysis: ShellAnalysis, partial: bool = False) -> str:
    """The literal text the commands feeding `cmd` print (`echo x | tee -a f`, `printf 'a\\n' | sudo tee f`),
    or "" when one of them prints what the gate cannot read (`partial`: the literal part of it, as for `(crontab
    -l; echo '...') | crontab -`, where the rest is the table already installed)."""
    texts = [_appended_text(analysis.commands[i]) for i in cmd.upstream]
    return "\n".join(t for t in texts if t) if texts and (partial or all(texts)) else ""


# what removing asks of a system package manager, and the switches that skip its checks
_REMOVE_WORDS = frozenset({"remove", "purge", "autoremove", "erase", "del", "rm", "-r", "-p", "--purge", "--remove",
                           "-e", "--erase"})
_FORCED_REMOVAL = frozenset({"--force-all", "--force-remove-essential", "--force-depends", "--nodeps",
                             "--allow-remove-essential", "-rdd", "-rndd"})
# packages a Linux system cannot start, log in or install without
_ESSENTIAL_PACKAGE = re.compile(
    r"^(?:libc6|libc-bin|glibc(?:-common)?|systemd|systemd-sysv|init|sysvinit-core|coreutils|bash|dash|util-linux|"
    r"login|passwd|shadow-utils|base-files|base-passwd|dpkg|apt|rpm|yum|dnf|pacman|apk-tools|zypper|sudo|"
    r"linux-image-generic|linux-generic|grub(?:2)?(?:-[\w-]+)?|openssh-server|pam|libpam\S*|"
    r"libpam-runtime|busybox|musl|glibc-minimal-langpack|filesystem|setup|tzdata|libselinux\S*)(?::\w+)?$")


# PowerShell's profile variable (any of its four scopes), and the profile files themselves
_PS_PROFILE = re.compile(r"^\$profile(\.(current|all)users(current|all)hosts)?$|(^|[/\\])(microsoft\.(powershell|"
                         r"vscode)_)?profile\.ps1$", re.I)


def _extracted_into(cmd: Command) -> list[str]:
    """The folder an unpacking archiver writes into (`tar -x -C DIR`, `unzip -d DIR`, `7z x -oDIR`)."""
    argv = cmd.argv
    if cmd.name in ("tar", "gtar", "bsdtar"):
        return [argv[k + 1] if a in ("-C", "--directory") else a.split("=", 1)[1]
                for k, a in enumerate(argv[:-1] if len(argv) > 1 else ()) if a in ("-C", "--directory") or
                a.startswith("--directory=")] + [a.split("=", 1)[1] for a in argv[-1:] if a.startswith("--directory=")]
    if cmd.name in ("unzip", "bsdunzip"):
        return [argv[k + 1] for k, a in enumerate(argv[:-1]) if a == "-d"]
    if cmd.name in ("7z", "7za", "7zz"):
        return [a[2:] for a in argv[1:] if a.startswith("-o") and len(a) > 2]
    return []


def _every_key(cmd: Command) -> bool:
    """`redis-cli --scan` with no pattern or `*`, or `redis-cli KEYS *`: every key of the store."""
    if cmd.name != "redis-cli":
        return False
    words = list(cmd.words[1:])
    if "--scan" in words:
        k = words.index("--pattern") if "--pattern" in words else -1
        return k < 0 or (k + 1 < len(words) and words[k + 1].strip("'\"") in ("*", ""))
    plain = [w for w in words if not w.startswith("-")]
    return "keys" in plain and plain[plain.index("keys") + 1:plain.index("keys") + 2] in (["*"], ["'*'"], ['"*"'])


# MongoDB's deletes with an empty filter: every document of the collection (`db.orders.deleteMany({})`)
_EMPTY_FILTER_DELETE = re.compile(r"\.(?:deletemany|remove)\(\s*\{\s*\}\s*[,)]", re.I)


# SQL that writes a query's rows straight to another machine: DuckDB's `COPY ... TO 's3://...'`, Snowflake's
# `COPY INTO 's3://...'`, BigQuery's `EXPORT DATA OPTIONS (uri = 'gs://...')`, ClickHouse's `INSERT INTO
# FUNCTION s3(...)` / url / remote / another server's table function
_SQL_COPY_OUT = re.compile(
    r"\bcopy\b[\s\S]{0,600}?\b(?:to|into)\s+['\"](?P<url>(?:s3a?|gs|gcs|r2|az|azure|abfss?|hf|https?|ftp|sftp)://[^'\"]+)|"
    r"\bexport\s+data\b[\s\S]{0,300}?\buri\s*=\s*['\"](?P<uri>[a-z0-9]+://[^'\"]+)|"
    r"\binsert\s+into\s+(?:table\s+)?function\s+(?:s3|s3cluster|url|gcs|azureblobstorage|hdfs|remote|remotesecure|"
    r"mysql|postgresql|mongodb)\s*\(\s*['\"](?P<fn>[^'\"]+)", re.I)
_LOCAL_SQL_DEST = re.compile(r"^(?:[a-z0-9]+://)?(?:localhost|127\.[\d.]+|\[::1\]|0\.0\.0\.0)(?:[:/]|$)", re.I)
# where rows written out are there for anyone: a bare address, or a bucket or host named as a drop or a public place
_OPEN_SQL_DEST = re.compile(r"^(?:[a-z0-9]+://)?(?:(?:\d{1,3}\.){3}\d{1,3}(?:[:/]|$)|[^/]*\b(?:public|drop|dropbox|"
                            r"share|shared|anon|anonymous|open|paste|transfer|temp-upload|upload)\b)", re.I)


def _copied_out(texts: list[str]) -> str | None:
    """Where SQL in `texts` writes a query's rows on another machine (a URL), or None."""
    for text in texts:
        for m in _SQL_COPY_OUT.finditer(text):
            dest = m.group("url") or m.group("uri") or m.group("fn") or ""
            if dest and not _LOCAL_SQL_DEST.match(dest):
                return dest
    return None


# a condition that holds for every row (`WHERE 1`, `WHERE 1=1`, `WHERE true`, `WHERE 'a'='a'`): a DELETE with it
# empties the table as surely as one with no WHERE, and so does ClickHouse's `ALTER TABLE t DELETE WHERE 1` (its
# deletes are mutations of the table); InfluxQL's and other stores' whole measurements, series and keyspaces dropped
# (a row id above zero, or one that is set, is every row of a table whose ids count from one: `WHERE id > 0`)
_ALWAYS_TRUE = r"(?:1|true|not\s+false|(?P<lit>\d+|'[^']*')\s*=\s*(?P=lit)|\(\s*1\s*=\s*1\s*\)|" \
               r"[\"`\[]?(?:\w+_)?(?:id|rowid|oid)[\"`\]]?\s*(?:>\s*0|>=\s*[01]|is\s+not\s+null))"
_SQL_EVERY_ROW = re.compile(
    r"\bdelete\s+from\s+[^\s;]+(?:\s+(?:as\s+)?\w+)?\s+where\s+" + _ALWAYS_TRUE + r"\s*(?:;|$)|"
    r"\balter\s+table\s+[^\s;]+(?:\s+on\s+cluster\s+\S+)?\s+delete\s+where\s+"
    + _ALWAYS_TRUE.replace("lit", "lit2") + r"\s*(?:;|$)|"
    r"\bdrop\s+(?:measurement|series|retention\s+policy)\b", re.S)
# ClickHouse's mutations (`ALTER TABLE t DELETE WHERE ...`, `ALTER TABLE t UPDATE c = v WHERE ...`) and an UPDATE
# whose WHERE holds for every row: rows changed or deleted, as a DELETE ... WHERE is
_SQL_MUTATION = re.compile(
    r"\balter\s+table\s+[^\s;]+(?:\s+on\s+cluster\s+\S+)?\s+(?:delete|update)\b|"
    r"\bupdate\s+[^\s;]+\s+set\b[^;]*\bwhere\s+" + _ALWAYS_TRUE.replace("lit", "lit3") + r"\s*(?:;|$)", re.S)
# an UPDATE whose WHERE picks rows by what they hold (a range, a department, several conditions), not one row by
# its key: every matching record changed at once (salaries, orders cancelled, customers deactivated); one row
# updated by its id, key or e-mail passes
_SQL_BULK_UPDATE = re.compile(
    r"\bupdate\s+[^\s;]+\s+set\b[^;]*?\bwhere\s+(?!(?:[\w\"`.\[\]]*?(?:id|uuid|guid|key|email|username|sku|slug)"
    r"[\"`\]]?)\s*=\s*(?:'[^']*'|\"[^\"]*\"|[\w.@-]+)\s*(?:limit\s+1\s*)?(?:;|$))", re.S | re.I)

# the servers' own tables of logins and password hashes (PostgreSQL, MySQL/MariaDB, SQL Server, Oracle, MongoDB,
# ClickHouse), read by a query: a dump of every account's hash, as /etc/shadow is
_SQL_LOGIN_TABLES = re.compile(
    r"\b(?:from|join|table)\s+(?:[\"`\[]?\w+[\"`\]]?\.){0,2}[\"`\[]?(?:pg_shadow|pg_authid|pg_user_mappings?|"
    r"global_priv|sql_logins|syslogins|linked_logins|user\$|system\.users)(?![\w$])|"
    r"\bselect\s+\*\s+from\s+mysql\.user\b|\bselect\b[^;]{0,200}\b(?:authentication_string|password_hash)\b"
    r"[^;]{0,200}\bfrom\s+(?:mysql\.)?user\b|\bdb\.system\.users\.find\b|\bgetusers\s*\(\s*\{[^}]*showcredentials",
    re.I | re.S)
# a SELECT of the columns that hold people's secrets (the statement reads them out, whatever table holds them)
_SQL_SECRET_COLUMNS = re.compile(
    r"\bselect\b(?:(?!\bfrom\b)[^;]){0,300}?\b(?:password|passwd|password_?hash|pwd_?hash|hashed_?password|api_?key|"
    r"secret_?key|client_?secret|access_?token|refresh_?token|auth_?token|private_?key|otp_?secret|totp_?secret|"
    r"mfa_?secret|card_?number|credit_?card|cvv|ssn|social_security)\b(?:(?!\bfrom\b)[^;]){0,300}?\bfrom\b",
    re.I | re.S)

# a UNION joined to a query to read the secret columns of another table: the shape of a SQL injection that reads
# every account's password out through a search or lookup (`... WHERE sku = '' UNION SELECT user, password FROM x`)
_SQL_UNION_SECRETS = re.compile(
    r"\bunion\s+(?:all\s+)?select\b(?:(?!\bfrom\b)[^;]){0,300}?\b(?:password|passwd|pass|pwd|password_?hash|"
    r"hashed_?password|api_?key|secret_?key|access_?token|auth_?token|private_?key|card_?number|credit_?card|cvv|"
    r"ssn)\b", re.I | re.S)

# what SQL given to a database client does, strongest first: (statement, rule, risk, what it is said to do)
_SQL_VERDICTS = (
    (_SQL_RUNS_PROGRAM, "block.shell.database-runs-program", Risk.CRITICAL,
     "makes the database server run a program: {}"),
    (_SQL_PLANTS, "block.shell.malicious-persistence", Risk.CRITICAL,
     "has the database server write {}, a file that is served or run: a web shell or a hook planted"),
    (_SQL_SERVER_FILES, "confirm.shell.database-file-access", Risk.HIGH,
     "reads or writes the database server's own files, or sends from it: {}"),
    (_SQL_LOGIN_TABLES, "block.shell.credential-dump", Risk.CRITICAL,
     "reads the database server's own logins and password hashes: {}"),
    (_SQL_UNION_SECRETS, "block.shell.credential-dump", Risk.CRITICAL,
     "joins a UNION to the query to read another table's passwords or keys, as a SQL injection does: {}"),
    (_SQL_BLOCK, "block.shell.database-destruction", Risk.CRITICAL, "destroys database data: {}"),
    (_SQL_EVERY_ROW, "block.shell.database-destruction", Risk.CRITICAL,
     "deletes every row or series (a condition that holds for all of them, or none): {}"),
    (_SQL_CONFIRM, "confirm.shell.destructive", Risk.HIGH, "changes or deletes database rows: {}"),
    (_SQL_MUTATION, "confirm.shell.destructive", Risk.HIGH, "changes or deletes database rows: {}"),
    (_SQL_BULK_UPDATE, "confirm.shell.destructive", Risk.MEDIUM,
     "changes every row its condition picks, not one row by its key: {}"),
    (_SQL_SECRET_COLUMNS, "confirm.shell.secret-read", Risk.HIGH,
     "reads the passwords, keys or tokens a database keeps: {}"),
)


# find tests that pick some files out of a tree (`-type` alone does not: every file or every folder)
_NARROWING = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex", "-user", "-uid",
                        "-group", "-gid", "-nouser", "-nogroup", "-newer", "-mtime", "-mmin", "-perm", "-size",
                        "-samefile", "-inum", "-links", "-maxdepth"})
_LISTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "git"})


# encrypting verbs of gpg, openssl, age, ccrypt and 7z/zip with a password
_ENCRYPTS = re.compile(r"(^|\s)(-c|--symmetric|-e|--encrypt|enc|-p|--passphrase|-r|--recipient|-p\S+|-e)(\s|$)")
_LOOP_SPAN = 8192
_FOR_LOOP = re.compile(r"\bfor\s+(?P<var>[A-Za-z_]\w*)\s+in\s+(?P<items>[^;\n]{1,400}?)\s*[;\n]\s*do\b"
                       r"(?P<body>(?:(?!\bdone\b).){1,600}?)\bdone\b", re.S)
# the folders a loop's list walks: absolute or home paths (a glob there, or the root of a find in a $(...))
_LOOP_ROOTS = re.compile(r"(?:(?<=\s)|(?<=^)|(?<=\())(?:find\s+)?([\"']?(?:/|~|\$home\b|\$\{home\})[^\s;)|]*)", re.I)


# the tests of a find that narrow what it picks (`-type f` alone picks every file: it narrows nothing)
# Tests that pick files by what they are (a name, a path, emptiness, one inode): the others (age, size, owner,
# permissions) still pick most of a tree, so over a whole home or the system they narrow nothing that matters.
_FIND_NARROWING = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename", "-iwholename",
                             "-empty", "-inum", "-samefile", "-lname", "-ilname"})
_WHOLE_TREE = re.compile("^(?:/|" + re.escape(HOME) + r"|/home(?:/[^/]+)?|/users(?:/[^/]+)?|/root|/c:/users/[^/]+)/?$",
                         re.I)
_FIND_FILTERS = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-mtime", "-mmin", "-atime",
                           "-ctime", "-newer", "-size", "-user", "-group", "-perm", "-empty", "-wholename", "-links",
                           "-inum", "-samefile", "-cmin", "-amin", "-newermt", "-nouser"})


def _searched_from(cmd: Command, analysis: ShellAnalysis) -> tuple[Command, list[str]] | None:
    """The search whose results `cmd` is run on, and the folders it searches: find -exec, find piped into
    xargs, or a recursive grep's list of files (`grep -rl x /etc | xargs sed -i ...`)."""
    cmds = analysis.commands
    if "find -exec" in cmd.via or "find -execdir" in cmd.via:
        at = next((i for i, c in enumerate(cmds) if c is cmd), 0)
        finder = next((cmds[i] for i in range(at - 1, -1, -1) if cmds[i].name == "find"), None)
    else:
        finder = next((cmds[i] for i in cmd.upstream if cmds[i].name == "find" or cmds[i].name in _LISTERS), None)
    if finder is None:
        return None
    if finder.name == "find":
        roots = []
        for i, a in enumerate(finder.argv[1:], 1):
            if a.startswith(("-", "(", "!", ")", "\\(")):
                break
            if i not in finder.dynamic:
                roots.append(a)
        return finder, roots or ["."]
    if finder.name == "git":
        return None  # git grep: the repository's own files
    _, operands = _split_flags(finder)
    given = any(a in ("-e", "--regexp", "-f", "--file") for a in finder.argv)
    words = [a for i, a in (operands if given else operands[1:]) if i not in finder.dynamic]
    return (finder, words) if words else None


# a folder that is only a temporary one (what it holds is whatever was put there, or nothing)
def _empty_folders_only(words: list[str], exec_deleter: str | None) -> bool:
    """A find that removes only empty folders: `-type d -empty -delete`, or any match handed to `rmdir` (which
    refuses a folder that holds anything). `-o` could widen the match past the tests, so it is not read as one."""
    if any(w in ("-o", "-or", ",") for w in words):
        return False
    folders = any(w == "-type" and words[k + 1:k + 2] == ["d"] for k, w in enumerate(words))
    if exec_deleter is not None:
        if exec_deleter != "rmdir":
            return False
        return sum(w in ("-exec", "-execdir", "-ok", "-okdir") for w in words) == 1 and "-delete" not in words
    return folders and "-empty" in words


_SCRATCH_SOURCE = re.compile(r"^(?:/private)?/(?:tmp|var/tmp|dev/shm|run/shm)(?:/|$)")
_PERSON_FOLDER = shell_effects._PERSON_FOLDER
_EMPTY_NAME = shell_effects._EMPTY_NAME


def _mirror_over(d: Any, cmd: Command, analysis: ShellAnalysis, src: str, dest: str, where: str,
                 add: Callable[[Finding], None]) -> None:
    """`rsync --delete SRC/ DEST/` makes DEST hold what SRC holds and nothing else: every file of DEST that SRC lacks
    is deleted. A source made on the same line or named as empty (`mkdir empty && rsync -r --delete empty/ x`) is
    the wiping trick: it asks for any folder, and over the person's own folders (home, Documents, Desktop,
    Pictures, ...) the mirror blocks when its source is empty or a temporary folder (`block.shell.mass-destruction`,
    with gate/rules/shell_effects.py) and asks from any other folder, a backup restored over newer files included.
    A build mirrored into its output folder (`rsync -a --delete build/ dist/`) passes."""
    src_path = (d.resolve(cmd, src) or src).rstrip("/")
    dest_path = (d.resolve(cmd, dest) or dest).rstrip("/") or "/"
    folder = src.replace("\\", "/").rstrip("/")
    made = any(c.name in ("mkdir", "md", "new-item", "ni") and
               any(a.replace("\\", "/").rstrip("/") == folder for a in c.argv[1:])
               for c in analysis.commands if c is not cmd)
    empty = made or bool(_EMPTY_NAME.match(folder.rsplit("/", 1)[-1]))
    person = bool(_PERSON_FOLDER.match(dest.replace("\\", "/").rstrip("/") or "/")) or \
        bool(_PERSON_FOLDER.match(dest_path.replace(HOME, "~", 1) if HOME else dest_path))
    if person and (empty or _SCRATCH_SOURCE.match(src_path)):
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                    f"rsync --delete mirrors {src} over {dest}: every file there that {src} lacks is deleted{where}",
                    cmd.span))
    elif person or empty:
        add(Finding("confirm.shell.destructive", Risk.HIGH,
                    f"rsync --delete mirrors {src} over {dest}: every file there that {src} lacks is deleted{where}",
                    cmd.span))


# a loop's or a search's item (`"$f"`, `${file}`, find's and xargs' `{}`) and the same item with an extension added
_EACH_ITEM = re.compile(r"^(?:\$\w+|\$\{\w+\}|\{\}|%\w|%%\w)$")
_ADDED_EXTENSION = re.compile(r"^\.(?P<ext>[\w-]{1,16})$")
# what a rename leaves when a backup or a switch-off is meant (`x.log.old`, `x.conf.disabled`)
_KEPT_EXTENSION = frozenset({"bak", "old", "orig", "backup", "disabled", "tmp", "save", "prev", "sav", "off", "1",
                             "done", "processed", "imported", "sent", "seen", "skip", "skipped", "failed", "part"})
# extensions that mark files taken hostage, as ransomware and its imitations name them
_HOSTAGE_EXTENSION = re.compile(r"^(?:locked|lock|lck|encrypted|encrypt|enc|crypt|crypted|crypto|cry|crypz|ransom|"
                                r"pay|paynow|payme|hacked|hack|pwned|owned|takeover|wncry|wnry|locky|cerber|zepto|"
                                r"ryk|ryuk|conti|lockbit|darkside|clop|akira|gotcha|rip|dead|doomed|virus|"
                                r"vault|xtbl|aes|rsa|[a-z]*locker|[a-z]*crypt[a-z]*)$", re.IGNORECASE)
_PERSON_TREE = re.compile(r"(?:^|[\s'\"=(])(?:~|\$home|\$\{home\}|/home/[^/\s]+|/users/[^/\s]+|%userprofile%)"
                          r"(?:/[^\s'\"]*)?(?=[\s'\";)]|$)", re.IGNORECASE)


def _renamed_to_new_extension(cmd: Command, analysis: ShellAnalysis, src: str, dest: str, where: str,
                              add: Callable[[Finding], None]) -> None:
    """`mv "$f" "$f.locked"` in a loop, `find ... -exec mv {} {}.enc \\;`, `xargs -I{} mv {} {}.x`: every file a loop
    or search yields renamed with an extension added, so that nothing opens it any more: the mark ransomware and
    its pranks leave. A hostage's extension (`.locked`, `.encrypted`, `.crypt`...) or a loop over the person's
    folders blocks (`block.shell.mass-destruction`); any other added extension asks, and a backup's (`.bak`, `.old`)
    or an extension swapped (`"${f%.jpeg}.jpg"`) passes."""
    item = src.strip("'\"")
    if not _EACH_ITEM.match(item) or not dest.strip("'\"").startswith(item):
        return
    m = _ADDED_EXTENSION.match(dest.strip("'\"")[len(item):])
    if m is None or m.group("ext").lower() in _KEPT_EXTENSION:
        return
    ext = m.group("ext")
    if _HOSTAGE_EXTENSION.match(ext) or _PERSON_TREE.search(analysis.source):
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                    f"renames every file it is given to *.{ext}: nothing opens them any more, the mark of files taken "
                    f"hostage{where}", cmd.span))
    else:
        add(Finding("confirm.shell.destructive", Risk.HIGH,
                    f"renames every file it is given to *.{ext}: the programs that open them no longer do{where}",
                    cmd.span))


# the names of the files that say who may log in or hold the keys to do it: SSH's authorized keys and private keys,
# the account and password databases, sudo's rules, stored logins (searched for by name: `find / -name shadow`)
_CREDENTIAL_NAME = re.compile(r"^(?:\.\*|\*)?(?:authorized_keys2?|id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?\*?|id_\*|"
                              r"g?shadow-?|passwd-?|master\.passwd|sudoers|\.?netrc|\.pgpass|\.git-credentials|"
                              r"credentials|known_hosts|\*\.kdbx|\*\.pem|\*\.ppk|wallet\.dat)\*?$", re.IGNORECASE)
_ANY_NAME = re.compile(r"\*+")


# a file name's extension: `truncate notes.txt` names a file (coreutils), not a table
_FILE_SUFFIX = re.compile(r"\.(txt|log|csv|tsv|json|md|dat|out|bin|img|iso|raw|tmp|bak|xml|ya?ml|html?|qcow2|vmdk)$")

# the system's logging and audit configuration (syslog, rsyslog, syslog-ng, journald, auditd, macOS's asl and
# BSM audit): what is recorded, and whether it is kept
_LOGGING_SETUP = re.compile(r"^(/private)?/etc/(r?syslog(-ng)?\.conf$|rsyslog\.d/|syslog-ng/|audit/|"
                            r"systemd/journald\.conf(\.d/|$)|asl\.conf$|asl/|security/audit_(control|class|event|user)$|"
                            r"newsyslog\.conf$|newsyslog\.d/)")


# what turns logging down or off there: journald keeping nothing, rsyslog's discard actions, audit rules deleted or
# disabled, lines deleted or commented out by sed
_LOGGING_OFF = re.compile(r"\bstorage\s*=\s*(none|volatile)\b|\*\.\*\s+~|&\s*~|\bstop\b|(^|\s)-e\s+0\b|"
                          r"(^|\s)-d\b|/d['\"]?(\s|$)|s/\^[^/]*/#|forwardtosyslog\s*=\s*no\b|"
                          r"maxlevelstore\s*=\s*(emerg|alert|crit|[0-2])\b|>\s*/dev/null")


class DestructiveChecks:
    """Deletes, overwrites and disk or database destruction."""

    # -- redirects and reads --------------------------------------------------------------------

    def hostile_later(self, cmd: Command, path: str, text: str) -> str | None:
        """What blocks in `text` written into `path`, a file whose content runs later (a startup file, a cron
        table, a unit, a hook): read as gate/content.py reads such a file (a cron line without its schedule, a
        unit's Exec lines) and judged by the shell rules as the command it will be. A fork bomb, a reverse shell,
        a download run, a delete of home or of the disk: the reason of the block, or None."""
        if self.depth >= 2 or len(text) > 4000:
            return None
        content = text.replace("\\n", "\n").replace("\\t", "\t")
        kind = runs_later(path)
        commands = later_commands(kind, path, content) if kind else content
        if not commands.strip():
            return None
        self.depth += 1
        try:
            found = self.run(analyse(commands, cmd.cwd or None))  # type: ignore[attr-defined]
        finally:
            self.depth -= 1
        blocking = next((f for f in found if f.rule.startswith("block.")), None)
        return None if blocking is None else blocking.reason

    def write_target(self, cmd: Command, target: str, mode: str, where: str, add: Callable[[Finding], None],
                     how: str, written: str | None = None) -> None:
        """Classify one file `cmd` writes (`mode`: overwrite | append | edit, an in-place rewrite); `written`: the
        text it writes when another command of the line passes it on (`echo x | tee -a f`)."""
        if target[:1] == "-" and self.option_named_file(cmd, target, where, add):  # type: ignore[attr-defined]
            return
        path = self.resolve(cmd, target)
        if path is None:
            if _PS_PROFILE.search(target):  # PowerShell's $PROFILE: a script run at every PowerShell start
                add(Finding("confirm.shell.persistence", Risk.HIGH,
                            f"{how} {target}: it runs automatically later{where}", cmd.span))
                return
            relative = target.removeprefix("./")
            if _PLAIN_RELATIVE.match(relative) and (
                    (self.persistence is not None and self.persistence.search(relative)) or
                    (self.runs_later is not None and self.runs_later.search(relative))):
                # `.git/hooks/pre-commit`, `.claude/settings.json`, `.github/workflows/x.yml` wherever the command
                # runs: the name alone says it runs later
                add(Finding("confirm.shell.persistence", Risk.HIGH,
                            f"{how} {relative}: it runs automatically later{where}", cmd.span))
                return
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
        if _LOGGING_SETUP.search(path) and _LOGGING_OFF.search(" ".join(cmd.words[1:])):
            # what the system logs and keeps, turned down or off: the person is blind to what follows (a size
            # limit or a new destination is ordinary administration, and asks as any system file does)
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{how} {shown} so that less is logged or kept (the system's logging or audit "
                        f"set-up){where}", cmd.span))
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
            elif mode == "append" and cmd.name in ("echo", "printf", "tee"):
                # the shell writes its history itself: a line added by hand records a command nobody ran
                add(Finding("block.shell.anti-forensics", Risk.CRITICAL,
                            f"writes a made-up line into the shell history {shown}: the record of what was run is "
                            f"forged{where}", cmd.span))
            return
        if (self.persistence is not None and self.persistence.search(path)) or \
                (self.runs_later is not None and self.runs_later.search(path)):
            if LEGACY_AUTORUN.search(path):
                add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                            f"{how} {shown}, a start-up place macOS keeps only for old software: nothing current "
                            f"installs there, malware does{where}", cmd.span))
                return
            text = _appended_text(cmd) if written is None else written
            if text and (hostile := self.hostile_later(cmd, path, text)) is not None:
                add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                            f"{how} {shown} what runs later, at each start or on schedule: {hostile}{where}",
                            cmd.span))
            elif text and STARTUP_FILE.search(path) and (folder := path_hijack(text)) is not None:
                add(Finding("block.shell.credential-dump", Risk.CRITICAL,
                            f"{how} {shown} a line that puts {folder} first on PATH: a `sudo` or `ssh` placed there "
                            f"is found before the real one in every new shell and catches the password{where}",
                            cmd.span))
            elif mode == "append" and STARTUP_FILE.search(path) and settings_only(text):
                return  # a PATH, a tool's home, an alias or a tool manager's hook: what install guides add
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
        elif _SEARCH_PATH_BIN.match(path):
            # a program folder the system searches that a user may own (Homebrew's): a command for every user
            add(Finding("confirm.shell.system-write", Risk.MEDIUM,
                        f"{how} {shown}: a program the shell then finds and runs by name{where}", cmd.span))
        elif _SYSTEM_TOP.match(path):
            add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                        f"{how} {shown}: the top of the system's own folders, where nothing is installed{where}",
                        cmd.span))
        elif _SYSTEM_FOLDER.match(path):
            add(Finding("confirm.shell.system-write", Risk.HIGH, f"{how} the system file {shown}{where}", cmd.span))

    def redirects(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        for folder in _extracted_into(cmd):
            path = self.resolve(cmd, folder)
            if path is not None and _SEARCH_PATH_BIN.match(path.rstrip("/") + "/x"):
                # unpacked straight into a folder on the search path: each program in the archive (a `sudo`) is then
                # found by name before the system's
                add(Finding("confirm.shell.system-write", Risk.MEDIUM, f"{cmd.name} unpacks programs into "
                            f"{display_path(path)}, where the shell finds them by name{where}", cmd.span))
        if not cmd.redirects and cmd.name not in _WRITING_ARCHIVERS_AND_DOWNLOADERS and \
                cmd.name not in WRITE_FLAG_PROGRAMS:
            return  # no redirect, and not a program whose own output file is judged below
        for target in flag_written(cmd.name, cmd.argv):
            # a report flag (`trivy -o`, `gitleaks --report-path`) writes its file like a redirect would
            self.write_target(cmd, target, "overwrite", where, add, f"{cmd.name} writes its output over")
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
            elif op in ("<", "<>", "<&") and target.startswith(("/dev/tcp/", "/dev/udp/")):
                if cmd.name in SHELLS or "-i" in cmd.argv:
                    add(Finding("block.shell.reverse-shell", Risk.CRITICAL, f"connects a shell to {target}{where}",
                                cmd.span))
                else:  # `cat < /dev/tcp/host/80 > x`: a download over a bare socket, whatever reads it
                    add(Finding("confirm.shell.network", Risk.MEDIUM, f"reads from the network at {target}{where}",
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

    def essential_removal(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        """A system package manager told to remove what the system cannot run without (the C library, the init
        system, the shell, the package manager itself, the kernel, sudo), or to remove past its own safety checks
        (`--force-all`, `--nodeps`, `--force-remove-essential`): the machine may not boot or log anyone in again."""
        words = cmd.words[1:]
        removing = any(w in _REMOVE_WORDS for w in words) or (cmd.name == "pacman" and any(
            w.startswith("-r") for w in words))
        if not removing:
            return
        forced = next((w for w in words if w in _FORCED_REMOVAL), None)
        essential = next((w for w in words if not w.startswith("-") and _ESSENTIAL_PACKAGE.match(w)), None)
        if essential or forced:
            what = f"the essential package {essential}" if essential else f"packages past the safety checks ({forced})"
            add(Finding("block.shell.system-file-tamper", Risk.CRITICAL, f"{cmd.name} removes {what}: the system may "
                        f"no longer start or let anyone in{where}", cmd.span))

    # -- command families -----------------------------------------------------------------------

    def delete(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        flags, operands = _split_flags(cmd)
        name = cmd.name
        if name in ("remove-item", "ri") and any("," in a for _, a in operands):
            # PowerShell's list of paths (`Remove-Item .\bin, .\obj`): each item is a path of its own
            operands = [(i, part.strip()) for i, a in operands for part in a.split(",") if part.strip()]
        if name in ("shred", "gshred"):
            # shred's passes and size take a value (`-n 1`, `-s 4K`, `--random-source FILE`): not files to shred
            operands = [(i, a) for i, a in operands if not (cmd.argv[i - 1] in ("--random-source", "--iterations",
                                                                                 "--size") or
                                                          re.fullmatch(r"-[a-zA-Z]*[ns]", cmd.argv[i - 1]))]
        words = set(cmd.words[1:])
        recursive = bool(flags & {"-r", "-R", "--recursive"}) or (name in ("rd", "rmdir") and "/s" in words) or \
            (name in ("remove-item", "ri") and any(w.startswith("-r") for w in words)) or \
            (name == "del" and "/s" in words)
        verb = "shreds" if name in ("shred", "srm", "wipe") else "recursive delete of" if recursive else "delete of"
        if name in ("del", "erase", "rd") or (name == "rmdir" and words & {"/s", "/q"}):
            # cmd's switches (`rmdir /s /q build`); `rmdir /s` on Unix would name a folder at the root nobody has
            operands = [(i, a) for i, a in operands if not a.startswith("/") or ":" in a]
        if not operands:
            if cmd.found and "xargs" in cmd.via and not self.fed_leftovers(cmd, analysis):
                searched = _searched_from(cmd, analysis)
                root = next((hit for r in (searched[1] if searched else ()) if (hit := self.protected_target(cmd, r))),
                            None)
                if root is not None and searched is not None and searched[0].name == "find" and \
                        not any(w in _FIND_FILTERS for w in searched[0].words):
                    # `find "$HOME" -type f | xargs shred -u`: every file a search of a home or a system tree finds
                    add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                                f"{verb} every file a search of {root} finds (xargs){where}", cmd.span))
                    return
                add(Finding("confirm.shell.destructive", Risk.HIGH,
                            f"{name} {'-r ' if recursive else ''}on whatever xargs is given{where}", cmd.span))
            return
        for i, word in operands:
            if word == "{}":
                continue  # find -exec: judged with the find command
            if i in cmd.dynamic:
                m = _UNSET_ROOT.match(word)
                if recursive and m and m.group("var").upper() not in _ALWAYS_SET:
                    # `rm -rf $STEAMROOT/*`: set nowhere on this line, and empty it deletes from `/`
                    add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                                f"{verb} {word}: ${m.group('var')} is set nowhere here, and if it is empty this "
                                f"deletes from / down{where}", cmd.span))
                    continue
                add(Finding("confirm.shell.destructive", Risk.HIGH,
                            f"{verb} {word}: its value is only known at run time{where}", cmd.span))
                continue
            path = self.resolve(cmd, word)
            if path and path.startswith("/dev/") and not _HARMLESS_DEV.match(path) and name in ("shred", "wipe"):
                add(Finding("block.shell.disk-destruction", Risk.CRITICAL, f"shreds the device {path}{where}",
                            cmd.span))
                continue
            if path and _WINDOWS_CACHE.match(path):
                # Windows' own caches, emptied by its troubleshooting guides (downloaded updates, temp, prefetch,
                # servicing logs): the system refills them, so it asks rather than blocks as a system folder would
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"{verb} {display_path(path)}: a Windows cache "
                            f"folder (the system fills it again){where}", cmd.span))
                continue
            hit = self.protected_target(cmd, word)
            if hit:
                add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL, f"{verb} {hit}{where}", cmd.span))
                continue
            if recursive and _PARENT_WHOLE.match(word):
                add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL, f"{verb} {word}: the folder that holds "
                            f"the working directory, with everything beside it{where}", cmd.span))
                continue
            if path and path.startswith("/library/") and _MAC_AGENT_DIR.match(path):
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{verb} {display_path(path)}: a device-"
                            f"management or endpoint security agent of the Mac; the organisation no longer sees or "
                            f"manages it{where}", cmd.span))
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
            if path and name not in ("shred", "srm", "wipe") and ".." not in word.split("/") and \
                    _PACKAGE_CACHE.match(path):
                continue  # a package manager's cache or index: fetched again when next needed
            if name in ("shred", "srm", "wipe"):
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"shreds {word} (unrecoverable){where}", cmd.span))
                continue
            if name in ("rmdir", "rd") and not recursive:
                continue  # removes a folder only when it is empty: nothing is lost
            if _project_junk(self, cmd, word):
                continue  # build output or leftovers by pattern inside the project (`*.pyc`, `build\\*.obj`, `dist/*`)
            if _made_here(cmd, analysis, word):
                continue  # made by an earlier step of this command (a download unpacked, then its archive removed)
            if recursive:
                if path and _scratch_folder(word) and _scratch_folder(path) and not _substituted(cmd, analysis) \
                        and not _moved_into(self, cmd, analysis, path):
                    continue  # a named folder in /tmp or /var/tmp: scratch space, for a build, a test or a clone
                if self.regenerable_target(cmd, word) or (cmd.cwd is None and ".." not in word and "{" not in word
                                                          and not _GLOB_CHARS.search(word)
                                                          and self.inside_regenerable(word)):
                    continue  # a build output, or a folder inside one (`build/tmp`, `.angular/cache`)
                if path and ".." not in word.split("/") and (_HOME_CACHE.match(path) or _XCODE_DERIVED.match(path)) \
                        and not self.secret_path(cmd, word):
                    continue  # an app's own cache in the home: rebuilt when next needed
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
                    not self.inside_regenerable(word) and \
                    not (_SCRATCH_FILE.match(word) and not _SENSITIVE_NAME.search(word) and
                         not self.secret_path(cmd, word)):
                # wrapper parity: the same as a `file_delete` action, which always asks
                add(Finding("confirm.shell.destructive", Risk.LOW, f"deletes {word}{where}", cmd.span))

    def fed_leftovers(self, cmd: Command, analysis: ShellAnalysis) -> bool:
        """`find . -name '*.pyc' | xargs rm -f`, `find logs -name '*.log' -mtime +7 | xargs rm`: what xargs hands the
        deleter is only what a search of build junk or old leftovers under the project finds (the search alone on
        the left of the pipe, with the same tests `-delete` is allowed with)."""
        cmds = analysis.commands
        feeders = [cmds[i] for i in cmd.upstream]
        if len(feeders) != 1 or feeders[0].name != "find" or feeders[0].redirects:
            return False
        search = feeders[0]
        words = list(search.words)
        if any(w in ("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls")
               for w in words):
            return False
        roots = []
        for i, a in enumerate(search.argv[1:], 1):
            if a.startswith(("-", "(", "!", ")", "\\(")):
                break
            if i in search.dynamic:
                return False
            roots.append(a)
        return all(not self.protected_target(search, r) and
                   (_build_junk_only(r, words, self.regenerable_name) or _old_leftovers(r, words))
                   for r in roots or ["."])

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
        # (`-type f` alone picks every file: it narrows nothing)
        filters = any(w in _FIND_FILTERS for w in words)
        if _empty_folders_only(words, exec_deleter):
            # `find build -type d -empty -delete`, `-exec rmdir {} +`: only folders with nothing in them go, so
            # nothing is lost; from a whole tree or a top system folder it still asks (mount points, /var/empty)
            roots_seen = roots or [(0, ".")]
            if all(i not in cmd.dynamic and ((self.resolve(cmd, r) or r).rstrip("/").count("/") >= 3 or
                                             (not self.protected_target(cmd, r) and
                                              not _WHOLE_TREE.match(self.resolve(cmd, r) or "")))
                   for i, r in roots_seen):
                return
        how = "-delete" if "-delete" in words else f"-exec {exec_deleter}"
        named = self.credentials_searched(cmd, [r for i, r in roots if i not in cmd.dynamic])
        if named is not None:
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"find {how} destroys every {named} it finds: the keys and accounts that let people log in"
                        f"{where}", cmd.span))
            return
        if not roots:
            roots = [(0, ".")]
        for i, root in roots:
            hit = None if i in cmd.dynamic else self.protected_target(cmd, root)
            if hit and not filters:
                add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                            f"find {hit} {how}: deletes everything under {hit}{where}", cmd.span))
            elif hit and not any(w in _FIND_NARROWING for w in words) and \
                    _WHOLE_TREE.match(self.resolve(cmd, root) or ""):
                # `find ~ -type f -mtime +1 -delete`: every file of the home older than a day
                add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                            f"find {hit} {how}: deletes most of {hit} (an age or size test picks nearly every file)"
                            f"{where}", cmd.span))
            elif hit and self.logs is not None and self.logs.search(self.resolve(cmd, root) or ""):
                add(Finding("block.shell.anti-forensics", Risk.CRITICAL, f"deletes system logs under {hit}{where}",
                            cmd.span))
            elif not hit and i not in cmd.dynamic and (_build_junk_only(root, words, self.regenerable_name) or
                                                       _old_leftovers(root, words)):
                continue  # `find . -name '*.pyc' -delete`: build and editor leftovers inside the project
            else:
                shown = hit or root
                add(Finding("confirm.shell.destructive", Risk.HIGH if hit or i in cmd.dynamic else Risk.MEDIUM,
                            f"find {shown} {how}: deletes every match under {shown}{where}", cmd.span))

    def move(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        """mv/cp/install/ln: sources that disappear (mv), destinations that get written."""
        flags, operands = _split_flags(cmd)
        if cmd.name == "mv" and len(operands) == 2:
            _renamed_to_new_extension(cmd, analysis, operands[0][1], operands[1][1], where, add)
        ops = [a for i, a in operands if i not in cmd.dynamic]
        target_dir = next((cmd.argv[i + 1] for i, a in enumerate(cmd.argv[:-1]) if a in ("-t", "--target-directory")),
                          None)
        if target_dir is None and (len(operands) < 2 or operands[-1][0] in cmd.dynamic):
            return  # (a source the gate cannot read still lands at a destination it can: `ln -s $PWD/x ~/bin/git`)
        dest = target_dir or operands[-1][1]
        sources = ops if target_dir else [a for i, a in operands[:-1] if i not in cmd.dynamic]
        if cmd.found and cmd.name in ("cp", "mv") and ("{}" in dest or (cmd.name == "mv" and "{}" in sources)):
            # `find /etc -exec cp /dev/null {} ;` empties, `find / -exec mv {} {}.locked ;` moves away, every match
            self.mass_rewrite(cmd, analysis, "empties or replaces" if cmd.name == "cp" else "moves away", where, add)
        if cmd.name == "rsync" and (":" in dest.split("/", 1)[0] or "::" in dest):
            return  # to another machine (`host:path`, `host::module`): judged as data sent, not a local write
        if cmd.name == "rsync" and len(sources) == 1 and any(f.startswith("--delete") for f in cmd.argv[1:]):
            _mirror_over(self, cmd, analysis, sources[0], dest, where, add)
        if cmd.name in _MOVERS and cmd.name not in ("rsync", "ditto"):
            _into_volatile(self, cmd, sources, dest, where, add)
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
        alias = _alias_link(cmd, sources, dest) if target_dir is None else None
        if alias is not None:
            add(Finding("confirm.shell.system-write", Risk.MEDIUM, f"links {dest} to {alias}: another name for an "
                        f"installed program, in a system folder{where}", cmd.span))
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
        written = _appended_text(cmd) or piped_text(cmd, analysis)
        for i, a in operands:
            if i not in cmd.dynamic:
                self.write_target(cmd, a, mode, where, add, "appends to" if mode == "append" else "overwrites",
                                  written)

    def sed(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if not any(a == "-i" or a.startswith(("-i", "--in-place")) or _RX_SED.fullmatch(a)
                   for a in cmd.argv[1:]):
            return
        if cmd.found:
            self.mass_rewrite(cmd, analysis, f"{cmd.name} edits in place", where, add)
        flags, operands = _split_flags(cmd)
        has_script = any(a in ("-e", "--expression", "-f") for a in cmd.argv)
        files = operands if has_script else operands[1:]
        for i, a in files:
            if i not in cmd.dynamic:
                self.write_target(cmd, a, "edit", where, add, "edits")

    def credentials_searched(self, finder: Command, roots: list[str]) -> str | None:
        """What credential file a search looks for: a root that is one (`find /home/*/.ssh/authorized_keys`), or a
        name or path test that names one (`-name authorized_keys`, `-path '*/.ssh/id_*'`, `-name shadow`), of
        every user when the search spans homes; None for any other search."""
        for root in roots:
            path = self.resolve(finder, root)
            if path is not None and self.credential is not None and self.credential.search(path.rstrip("/")):
                return display_path(path)
            if path is not None and (hit := self.secret_path(finder, root)) is not None:  # type: ignore[attr-defined]
                return f"file under {hit}"
        words = list(finder.argv[1:])
        for k, w in enumerate(words[:-1]):
            if w.lower() in ("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex"):
                test = words[k + 1].strip("'\"")
                if _CREDENTIAL_NAME.search(test.rsplit("/", 1)[-1]) and not _ANY_NAME.fullmatch(test):
                    return test
        return None

    def mass_rewrite(self, cmd: Command, analysis: ShellAnalysis, how: str, where: str,
                     add: Callable[[Finding], None], strict: bool = False) -> None:
        """An in-place edit or emptying run by find -exec or xargs on what a search finds (`find / -name
        '*.conf' -exec sed -i ... {} +`, `grep -rl x /etc | xargs perl -pi -e ...`): every match is rewritten
        at once, with no copy kept. From /, a system tree, or a home with nothing narrowing the search, it
        blocks (`block.shell.mass-overwrite`); from a folder below a system tree or narrowed in a home, it asks
        (`strict`: narrowed in a home blocks too, for encryption)."""
        search = _searched_from(cmd, analysis)
        if search is None:
            return
        finder, roots = search
        if (named := self.credentials_searched(finder, roots)) is not None:
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"{how} every {named} a search finds: the keys and accounts that let people log in, "
                        f"wiped or rewritten at once{where}", cmd.span))
            return
        for root in roots:
            path = self.resolve(finder, root)
            hit = self.protected_target(finder, root)
            if hit is None or path is None:
                continue
            path = path.rstrip("/") or "/"
            exact = bool(self.protected and self.protected.match(path))  # type: ignore[attr-defined]
            narrowed = any(w in _NARROWING for w in finder.words[1:]) if finder.name == "find" else True
            if exact and (path == "/" or self.in_tree(path + "/") or not narrowed or strict):
                add(Finding("block.shell.mass-overwrite", Risk.CRITICAL,
                            f"{how} every file a search of {hit} finds: rewrites them all at once, with no copy "
                            f"kept{where}", cmd.span))
            else:
                add(Finding("confirm.shell.system-write", Risk.HIGH,
                            f"{how} the files a search of {hit} finds{where}", cmd.span))
            return

    def encrypt_found(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        """An encrypter run by find -exec or xargs on what a search finds (`find ~ -type f -exec gpg -c {} ;`):
        every file of the tree is replaced by a copy only the key opens, what ransomware does."""
        if cmd.found and _ENCRYPTS.search(" ".join(cmd.words[1:])):
            self.mass_rewrite(cmd, analysis, f"{cmd.name} encrypts", where, add, strict=True)

    def loop_rewrite(self, analysis: ShellAnalysis, add: Callable[[Finding], None]) -> None:
        """A `for` loop over the files of a system tree or a home (a glob there, or a find of one) whose body
        writes, edits, empties, encrypts or deletes each one (`for f in /etc/*.conf; do : > $f; done`)."""
        src = analysis.source[:_LOOP_SPAN]
        for m in _FOR_LOOP.finditer(src):
            var, items, body = m.group("var"), m.group("items"), m.group("body")
            ref = rf"(?:\$\{{{var}\}}|\${var}\b)"
            if not re.search(ref, body):
                continue
            roots = [w.strip("\"'") for w in _LOOP_ROOTS.findall(items)]
            first = analysis.commands[0] if analysis.commands else None
            hit, root = next(((h, r) for r in roots if first and (h := self.protected_target(first, r))),
                             (None, ""))
            if hit is None or first is None:
                continue
            # the folder the loop walks: a protected path itself (/etc, /usr/bin, a home) blocks; a folder below
            # one (/etc/nginx/sites-enabled) asks, as a search narrowed to it does
            folder = (resolve_path(_GLOB_CHARS.split(root, 1)[0], first.cwd or None) or "").rstrip("/")
            folder = folder.rsplit("/", 1)[0] if _GLOB_CHARS.search(root) else folder
            whole = bool(self.protected and self.protected.match(folder or "/"))  # type: ignore[attr-defined]
            if re.search(rf"(?:^|[;&|\s])(?:rm|shred|unlink|srm|wipe)\b[^;&|]*{ref}", body):
                add(Finding("block.shell.recursive-delete-root", Risk.CRITICAL,
                            f"a loop deletes every file of {hit} one by one", m.group(0)[:200]))
            elif not whole and re.search(rf">\s*[\"']?{ref}|\b(?:sed|gsed|perl|truncate|cp|mv)\b[^;&|]*{ref}", body):
                add(Finding("confirm.shell.system-write", Risk.HIGH,
                            f"a loop rewrites the files of {hit}", m.group(0)[:200]))
            elif re.search(rf">\s*[\"']?{ref}[\"']?(?=[\s;&|)]|$)|\b(?:sed|gsed)\s+(?:-\w*i|--in-place)[^;&|]*{ref}|"
                           rf"\bperl\s+-\w*i[^;&|]*{ref}|\btruncate\b[^;&|]*{ref}|\bcp\s+/dev/null\s+[\"']?{ref}|"
                           rf"\bmv\s+[\"']?{ref}|\b(?:gpg2?|openssl|age|ccrypt)\b[^;&|]*{ref}", body):
                add(Finding("block.shell.mass-overwrite", Risk.CRITICAL,
                            f"a loop rewrites, empties, moves or encrypts every file of {hit}: no copy is kept",
                            m.group(0)[:200]))

    def truncate(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        flags, operands = _split_flags(cmd)
        if cmd.found:
            self.mass_rewrite(cmd, analysis, "truncate empties", where, add)
        empties = any(_RX_TRUNCATE.fullmatch(a) for a in cmd.argv[1:]) or \
            any(a in ("-s", "--size") and b == "0" for a, b in zip(cmd.argv[1:], cmd.argv[2:], strict=False))
        for i, a in operands:
            if i not in cmd.dynamic and not _RX_TRUNCATE_2.fullmatch(a):
                self.write_target(cmd, a, "overwrite", where, add, "truncates")
                if empties and _RX_TRUNCATE_3.search(a):
                    add(Finding("confirm.shell.destructive", Risk.HIGH, f"truncate empties the data file {a}{where}",
                                cmd.span))

    def dd(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if cmd.found and "of={}" in cmd.words[1:]:  # `find / -name shadow -exec dd if=/dev/zero of={} ;`
            self.mass_rewrite(cmd, analysis, "dd writes over", where, add)
        for a in cmd.words[1:]:
            if a.startswith("of="):
                self.write_target(cmd, a[3:], "overwrite", where, add, "dd writes over")
        size = _dd_bytes(cmd.words[1:])
        if size >= _DISK_FILL and any(a.startswith("of=") and not a.startswith("of=/dev/") for a in cmd.words[1:]):
            add(Finding("confirm.shell.system-disruption", Risk.HIGH, f"dd writes {size // 2**30} GiB into one file: "
                        f"enough to fill the disk{where}", cmd.span))

    def mkfs(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        flags, operands = _split_flags(cmd)
        if _mkfs_dry_run(cmd, flags):
            return
        devices = [a for _, a in operands
                   if a.lower().startswith("/dev/") or (resolve_path(a, cmd.cwd or None) or "").startswith("/dev/")]
        paths = [a for _, a in operands if not a.isdigit()]
        if not devices and paths and _image_file(paths[-1]):
            return  # a filesystem laid into a disk image: the image is the only thing it writes
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
        if name == "format" and not any(_RX_DISK_ERASE.fullmatch(w) for w in words):
            return
        if name in ("diskpart",) and not any(w in ("clean", "format", "delete") for w in words) and words[1:]:
            return
        if name == "diskutil" and not any(w in ("erasedisk", "erasevolume", "zerodisk", "randomdisk",
                                                "secureerase", "partitiondisk", "reformat") for w in words):
            return
        add(Finding("block.shell.disk-destruction", Risk.CRITICAL, f"{name} erases a disk{where}", cmd.span))

    def sql(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        texts: list[str] = []
        for i in cmd.upstream:  # echo "DROP TABLE x" | psql
            up = analysis.commands[i]
            if up.name in ("echo", "printf") or up.stdin_text:
                texts.append(" ".join(up.words[1:]) + " " + (up.stdin_text or "").lower())
        words = list(cmd.words)
        name = cmd.name
        if name == "truncate" and any(w.startswith("-") or "/" in w or _FILE_SUFFIX.search(w) for w in words[1:]):
            pass  # coreutils' truncate (`-s 0`, a path, `notes.txt`): judged as a file write, not as SQL
        elif name in ("drop", "truncate", "delete", "alter", "update"):
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
        if name == "redis-cli":
            verbs = [w for k, w in enumerate(words[1:], 1) if not w.startswith("-") and
                     words[k - 1] not in ("-h", "-p", "-a", "-n", "-u", "--user", "--pass")]
            if verbs[:1] and verbs[0] in _REDIS_DELETE:
                if verbs[0] in ("del", "unlink") and "xargs" in cmd.via and \
                        any(_every_key(analysis.commands[i]) for i in cmd.upstream):
                    add(Finding("block.shell.database-destruction", Risk.CRITICAL, f"redis-cli {verbs[0]} of every "
                                f"key a whole-keyspace listing hands it: the store is emptied{where}", cmd.span))
                    return
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"redis-cli {verbs[0]}: deletes or expires "
                            f"keys{where}", cmd.span))
                return
        if name in ("mongo", "mongosh") and any(_EMPTY_FILTER_DELETE.search(t) for t in texts):
            add(Finding("block.shell.database-destruction", Risk.CRITICAL, f"{name} deletes every document of a "
                        f"collection (an empty filter){where}", cmd.span))
            return
        self.statements_judged(cmd, analysis, texts, where, add, client=True)

    def statements_judged(self, cmd: Command, analysis: ShellAnalysis, texts: list[str], where: str,
                          add: Callable[[Finding], None], client: bool = False) -> None:
        """What the statements `texts` do to the store they reach, whatever program carries them (a database
        client's `-c`, a cloud or serverless database CLI's `--command`, a here-document): rows written to another
        machine, a program or file of the server's, data destroyed or changed (gate/rules/shell_stores.py finds
        the statements of programs that are not database clients). `client`: `cmd` is a database client."""
        name = cmd.name
        words = cmd.words
        if not client and any(_EMPTY_FILTER_DELETE.search(t) for t in texts):
            add(Finding("block.shell.database-destruction", Risk.CRITICAL, f"{name} deletes every document of a "
                        f"collection (an empty filter){where}", cmd.span))
            return
        # (BigQuery's client takes its SQL as an operand of `bq query`)
        dest = _copied_out([*texts, *(cmd.words[2:] if name == "bq" and cmd.words[1:2] == ("query",) else ())])
        if dest:
            host = dest.split("://", 1)[-1]
            if _OPEN_SQL_DEST.match(dest) or risky_destination((host,)):
                add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"{name} writes query rows to {dest[:60]}: "
                            f"a bare address, or a place named as a drop or public{where}", cmd.span))
            else:
                add(Finding("confirm.shell.network", Risk.HIGH, f"{name} writes query rows to {dest[:60]}, on "
                            f"another machine{where}", cmd.span))
        for text in texts:
            for pattern, rule, risk, said in _SQL_VERDICTS:
                m = pattern.search(text)
                if m:
                    what = m.group("path") if "path" in pattern.groupindex else m.group(0).strip()
                    add(Finding(rule, risk, said.format(what[:60]) + where, cmd.span))
                    return
        if client and name in _SERVER_CLIENTS and not texts and _unseen_script(cmd, analysis):
            # a dump or a script fed in from a file or a pipe: its statements reach a server the gate never reads
            add(Finding("confirm.shell.destructive", Risk.MEDIUM, f"{name} runs a SQL script the gate cannot read "
                        f"against a database: it may change or drop data{where}", cmd.span))
            return
        m = next((w for t in texts if (w := _SQL_WRITE.search(t))), None)
        if m and name not in ("drop", "truncate", "delete", "alter", "update"):
            target = next((w for w in words[1:] if _PRODUCTION.search(w) and not _SQL_WRITE.search(w)), None)
            if target:
                # even a targeted UPDATE ... WHERE changes data people rely on now when the database is production's
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"{name} writes to a production database "
                            f"({target[:60]}): {m.group(0).strip()[:40]}{where}", cmd.span))

    def db_tools(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name in ("dropdb", "dropuser") or \
                (cmd.name == "mysqladmin" and any(w in ("drop", "-f") for w in words[:3]) \
                and "drop" in words):
            add(Finding("block.shell.database-destruction", Risk.CRITICAL, f"{cmd.name} drops a database{where}",
                        cmd.span))
        elif cmd.name in ("pg_restore", "mongorestore") and words and \
                not any(w in ("-l", "--list", "--dryrun", "--help", "--version") for w in words) and \
                (cmd.name == "mongorestore" or any(w.startswith(("-d", "--dbname")) for w in words)):
            # a dump restored into a live database; --clean / --drop first removes what is there
            dropping = any(w in ("-c", "--clean", "--drop") for w in words)
            add(Finding("confirm.shell.destructive", Risk.HIGH if dropping else Risk.MEDIUM,
                        f"{cmd.name} restores a dump into a database{' and drops what it replaces' if dropping else ''}"
                        f"{where}", cmd.span))

    def frameworks(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "php" and not (words[:1] and words[0].endswith("artisan")):
            return
        if cmd.name in ("dotnet", "dotnet-ef") and "database" in words and "drop" in words:
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} ef database drop: deletes the "
                        f"database{where}", cmd.span))
            return
        if (cmd.name == "prisma" and words[:2] == ["db", "push"] and
                any(w in ("--accept-data-loss", "--force-reset") for w in words)) or \
                (cmd.name == "drizzle-kit" and words[:1] == ["push"] and "--force" in words):
            # a schema pushed with its data-loss warnings accepted in advance: columns and tables it drops go
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} {' '.join(words[:2])}: applies a schema "
                        f"change that drops data, its warnings accepted in advance{where}", cmd.span))
            return
        if (cmd.name == "knex" and "migrate:rollback" in words and "--all" in words) or \
                ((cmd.name == "django-admin" or (words[:1] and words[0].endswith("manage.py"))) and
                 "migrate" in words and "zero" in words[words.index("migrate"):]):
            # every migration undone (knex's --all, Django's `migrate APP zero`): the tables they made are dropped
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} {' '.join(words[:2])}: undoes every "
                        f"migration, dropping the tables they made{where}", cmd.span))
            return
        if cmd.name == "flask" and words[:2] in (["db", "drop"], ["db", "downgrade"]):
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"flask {' '.join(words[:2])}: removes tables or "
                        f"their data{where}", cmd.span))
            return
        if any(w in ("db:drop", "db:reset", "db:schema:load", "db:purge", "flush", "reset_db", "migrate:fresh",
                     "db:wipe", "db:drop:all", "schema:drop",
                     "migrate:reset", "migrate:refresh") for w in words) or (cmd.name in ("prisma",) and \
                words[:2] == ["migrate", "reset"]):
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} {' '.join(words[:2])}: wipes a "
                        f"database{where}", cmd.span))
