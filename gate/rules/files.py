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
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from gate.model import FILE_TYPES, Risk
from gate.paths import FileFacts, default_home, file_facts, is_within
from gate.patterns import Patterns
from gate.rules.base import CheckResult, Context, Rule, rule

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
    outside the sandbox roots: tampering with or destroying secrets, or planting access."""
    return _sensitive_change(ctx, inside=False)


@rule("confirm.files.sensitive-write", "changing a sensitive file inside the sandbox", risk=Risk.MEDIUM,
      types=CHANGING)
def sensitive_write_inside(ctx: Context) -> CheckResult:
    """The same change to a sensitive file inside the sandbox (a project's own `.env`) asks."""
    return _sensitive_change(ctx, inside=True)


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


@rule("block.files.system-dir", "changing a system directory", risk=Risk.CRITICAL, types=CHANGING)
def system_dir(ctx: Context) -> CheckResult:
    """Writing into, deleting in, or moving into or out of /etc, /usr, /bin, /boot, /sys, /proc, /dev
    (and the other `files.system_dirs`): that breaks or backdoors the system."""
    f = _facts(ctx)
    if f is None:
        return None
    for real, lex, _ in changed_paths(f):
        d = system_dir_of(ctx.compiled, real) or system_dir_of(ctx.compiled, lex)
        if d is not None:
            return f"{_VERB[ctx.type]} {real}: inside the system directory {d}"
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
    body = path.split(":", 1)[1] if _DRIVE_ROOT.match(path[:3]) else path
    if body.count("/") == 1:
        return "a top-level directory"
    return None


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
    outside the session's project directories (`Observation.work_dirs`: the work area)."""
    f = _facts(ctx)
    if f is None:
        return None
    outside = [real for real, _, inside in changed_paths(f) if not inside]
    if not outside:
        return None
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
    delete_root,
    outside_sandbox,
    traversal,
    symlink_escape,
)
