"""Paths of file actions: resolve `~`, `$HOME`, relative paths, `..` and symlinks once per action.

    resolve(path, cwd=None, home=None) -> str        the real absolute path (pure apart from symlinks)
    resolved_path(ctx) / resolved_to(ctx)            the same for a file action, memoised per assessment
    file_facts(ctx) -> FileFacts | None              everything the file rules need, computed once
    new_personal_file(ctx) -> bool                   a write that creates a new document in a person's folders

Symlinks are the one piece of I/O the gate allows itself: without reading them a path inside the sandbox
can point anywhere (`work/link -> /home/me/.ssh`). `os.path.realpath` resolves the part of a path that
exists and keeps the rest lexical, so a file that is about to be created resolves too. What the gate
resolves is what it judges, and what is acted on: the real path(s) go out with the assessment
(`Assessment.paths`) and the executor walks exactly those without following a symlink swapped in since.

Windows-style paths (`C:\\Users\\x`) are handled lexically (no symlinks), with `/` as the separator.
"""

from __future__ import annotations

import dataclasses
import functools
import ntpath
import os
import posixpath
import re
from typing import TYPE_CHECKING

from gate.model import FILE_TYPES

if TYPE_CHECKING:
    from gate.compiled import CompiledPolicy
    from gate.rules.base import Context

__all__ = [
    "FileFacts",
    "default_home",
    "file_facts",
    "is_within",
    "new_personal_file",
    "resolve",
    "resolved_path",
    "resolved_to",
    "sandbox_pairs",
    "supervisor_dirs",
    "work_area_refusal",
    "work_pairs",
]

_WINDOWS = re.compile(r"^[A-Za-z]:(?:[\\/]|$)|^\\\\")
_HOME_VAR = re.compile(r"^(?:\$HOME|\$\{HOME\}|%USERPROFILE%|%HOMEPATH%)(?=$|[\\/])", re.IGNORECASE)
# Windows' ways of naming the home and the per-user folders in it: cmd's %VAR%, PowerShell's $env:VAR /
# ${env:VAR} (any case), $HOME and `~\`. A path written so is the person's home on any system the gate runs on:
# the folder named, then the rest with its separators made `/` (`%APPDATA%\x` is ~/AppData/Roaming/x).
_WIN_HOME_VAR = re.compile(
    r"^(?:%(?:homedrive%%)?(userprofile|homepath|appdata|localappdata)%|"
    r"\$env:(userprofile|home|homepath|appdata|localappdata)\b|\$\{env:(userprofile|home|homepath|appdata|localappdata)\}|"
    r"\$(home)\b|\$\{(home)\}|(~))(?=[\\/]|$)", re.IGNORECASE)
_WIN_HOME_FOLDERS = {"appdata": "/AppData/Roaming", "localappdata": "/AppData/Local"}
# the machine's own folders by their variables (`%ProgramData%\AnyDesk`, `$env:windir\System32`), as the
# drive paths they name on a standard install
_WIN_SYSTEM_VAR = re.compile(r"^(?:%([a-z0-9()]+)%|\$env:([a-z0-9()]+)|\$\{env:([a-z0-9()]+)\})(?=[\\/]|$)",
                             re.IGNORECASE)
_WIN_SYSTEM_FOLDERS = {
    "programdata": "C:\\ProgramData", "allusersprofile": "C:\\ProgramData", "public": "C:\\Users\\Public",
    "windir": "C:\\Windows", "systemroot": "C:\\Windows", "systemdrive": "C:", "programfiles": "C:\\Program Files",
    "programfiles(x86)": "C:\\Program Files (x86)", "programw6432": "C:\\Program Files",
    "commonprogramfiles": "C:\\Program Files\\Common Files",
}


@functools.cache
def default_home() -> str:
    """The user's home directory, read once (the gate runs as the user it protects)."""
    return os.path.realpath(os.path.expanduser("~"))


def _windows_home(path: str, home: str) -> str | None:
    """`path` written from a Windows home variable with a `\\` after it (`%USERPROFILE%\\.aws\\credentials`,
    `$env:APPDATA\\Mozilla`, `~\\.ssh`), as a path under `home`; None for any other path."""
    m = _WIN_HOME_VAR.match(path)
    if m is None or (m.lastindex is not None and m.lastindex > 3 and path[m.end():m.end() + 1] != "\\"):
        return None  # `~/x`, `$HOME/x`: the POSIX spellings, read below
    name = next(g for g in m.groups() if g is not None).lower()
    rest = path[m.end():].replace("\\", "/")
    if _WINDOWS.match(home):
        return home.rstrip("\\/") + _WIN_HOME_FOLDERS.get(name, "").replace("/", "\\") + rest.replace("/", "\\")
    return home.rstrip("/") + _WIN_HOME_FOLDERS.get(name, "") + rest


def _expand(path: str, home: str) -> str:
    windows = _windows_home(path, home)
    if windows is not None:
        return windows
    m = _WIN_SYSTEM_VAR.match(path)
    folder = _WIN_SYSTEM_FOLDERS.get(next(g for g in m.groups() if g is not None).lower()) if m else None
    if m is not None and folder is not None:
        return folder + path[m.end():]
    path = _HOME_VAR.sub(lambda _: home.replace("\\", "\\\\"), path, count=1)
    if path == "~" or path.startswith(("~/", "~\\")):
        return home + path[1:]
    if path.startswith("~"):
        # ~user/...: another user's home. Reading the passwd database is allowed (it is not the desktop).
        return os.path.expanduser(path)
    return path


def _windows(path: str) -> str:
    """A Windows path, lexically normalised, with forward slashes: `C:/Users/x`."""
    return ntpath.normpath(path).replace("\\", "/")


def lexical(path: str, cwd: str | None = None, home: str | None = None) -> str:
    """`path` made absolute with `~` expanded and `..` collapsed, without looking at the filesystem."""
    if not path or "\0" in path:
        raise ValueError("empty path or a NUL byte in the path")
    home = home or default_home()
    path = _expand(path.strip(), home)
    if _WINDOWS.match(path):
        return _windows(path)
    if not path.startswith("/"):
        path = posixpath.join(cwd or home, path)
    return posixpath.normpath(path).replace("//", "/")


def resolve(path: str, cwd: str | None = None, home: str | None = None) -> str:
    """The absolute real path of `path`: `~` and `$HOME` expanded, relative to `cwd` (default: home),
    `..` collapsed, symlinks of the existing part resolved. Raises ValueError for an empty path or NUL."""
    if not path or "\0" in path:
        raise ValueError("empty path or a NUL byte in the path")
    home = home or default_home()
    expanded = _expand(path.strip(), home)
    if _WINDOWS.match(expanded):
        return _windows(expanded)
    if not expanded.startswith("/"):
        expanded = posixpath.join(cwd or home, expanded)
    # realpath follows symlinks before applying "..": `link/..` is the link target's parent, as the OS does
    return os.path.realpath(expanded)


def is_within(path: str, root: str) -> bool:
    """`path` is `root` or below it (component-wise: `/tmpfoo` is not in `/tmp`)."""
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root + "/")


def sandbox_pairs(roots: tuple[str, ...], home: str) -> tuple[tuple[str, str], ...]:
    """Each sandbox root as (written form made absolute, real form): `/tmp` may really be `/private/tmp`.
    Computed once per policy (gate/compiled.py)."""
    out = []
    for r in roots:
        try:
            out.append((lexical(r, None, home), resolve(r, home=home)))
        except ValueError:
            continue  # an empty root in the policy grants nothing
    return tuple(out)


@dataclasses.dataclass(frozen=True, slots=True)
class FileFacts:
    """One file action's paths, resolved once. For `file_move`, `to_*` describe the destination."""

    raw: str
    lexical: str  # absolute, `..` collapsed, symlinks NOT followed
    real: str  # absolute, symlinks followed
    in_sandbox: bool  # the real path is inside a sandbox root
    roots: tuple[str, ...]
    traversal: bool  # `..` climbs out of where the path starts
    symlink_escape: bool  # lexically inside the sandbox, really outside it
    to_raw: str | None = None
    to_lexical: str | None = None
    to_real: str | None = None
    to_in_sandbox: bool = True
    to_traversal: bool = False
    to_symlink_escape: bool = False


_RX_SEGMENTS = re.compile(r"[\\/]+")


def _segments(path: str) -> list[str]:
    return [s for s in _RX_SEGMENTS.split(path) if s not in ("", ".")]


def _traversal(raw: str, lex: str, roots: tuple[str, ...], cwd: str, home: str) -> bool:
    """`..` that climbs out of the directory the path starts in.

    A relative path starts in the working directory: any `..` that leaves it is traversal. An absolute
    path starts at its first named directory: `..` reaching `/` is traversal, and so is `..` that leaves
    a sandbox root the path started in (`/tmp/../etc`).
    """
    if ".." not in raw or ".." not in _segments(raw):
        return False
    expanded = _expand(raw.strip(), home)
    absolute = expanded.startswith("/") or bool(_WINDOWS.match(expanded))
    if not absolute:
        return not is_within(lex, cwd)
    depth = 0
    for s in _segments(expanded):
        if s == "..":
            depth -= 1
            if depth <= 0:
                return True
        elif not (depth == 0 and s.endswith(":")):  # a drive letter is the root, not a directory
            depth += 1
    head = expanded.replace("\\", "/").split("/..", 1)[0] or "/"
    try:
        start = lexical(head, cwd, home)
    except ValueError:
        return True
    return any(is_within(start, r) and not is_within(lex, r) for r in roots)


def _facts_for(raw: str, roots: tuple[tuple[str, str], ...], cwd: str, home: str
               ) -> tuple[str, str, bool, bool, bool]:
    lex = lexical(raw, cwd, home)
    if _WINDOWS.match(lex):
        real = lex  # no symlinks to follow from here
    else:
        # realpath of the joined path, not of `lex`: symlinks apply before `..` does
        expanded = _expand(raw.strip(), home)
        real = os.path.realpath(expanded if expanded.startswith("/") else posixpath.join(cwd, expanded))
    in_sandbox = False
    lex_inside = False
    for written, root in roots:
        in_sandbox = in_sandbox or is_within(real, root)
        lex_inside = lex_inside or is_within(lex, written) or is_within(lex, root)
    # lexically inside a sandbox root (as written or as resolved), really outside every root
    escape = lex_inside and not in_sandbox
    trav = _traversal(raw, lex, tuple(r for _, r in roots), cwd, home) if ".." in raw else False
    return lex, real, in_sandbox, trav, escape


@functools.lru_cache(maxsize=256)
def work_pairs(dirs: tuple[str, ...], home: str) -> tuple[tuple[str, str], ...]:
    """A session's work directories (Observation.work_dirs) as sandbox pairs, resolved once per set: a
    project swapped for a symlink later still means the directory it was when the session named it."""
    return sandbox_pairs(dirs, home)


def work_area_refusal(path: str, home: str, system: tuple[str, ...], *, person: bool = False) -> str | None:
    """Why the directory `path` (absolute, real) cannot be a work area, or None when it can: not `/`, the
    home directory or a directory above it, a system directory or one inside it; nor, unless a person
    named it in the policy (`person`), a hidden directory of the home (`~/.ssh`, `~/.config`: where
    secrets and settings live)."""
    if not path.startswith("/") or "\0" in path:
        return "not an absolute path"
    path = posixpath.normpath(path)
    if path == "/":
        return "the filesystem root"
    if path == home:
        return "the home directory itself"
    if is_within(home, path):
        return "a directory that contains the home directory"
    hit = next((d for d in system if d.startswith("/") and is_within(path, d)), None)
    if hit is not None:
        return f"inside the system directory {hit}"
    if not person and is_within(path, home) and path[len(home) + 1:].startswith("."):
        return "a hidden directory of the home (settings and secrets live there)"
    return None


def compute_facts(path: str, to: str | None, compiled: CompiledPolicy, cwd: str | None = None,
                  home: str | None = None, work_dirs: tuple[str, ...] = ()) -> FileFacts:
    """FileFacts for a path (and a move's destination). Raises ValueError for an unusable path.
    `work_dirs`: the session's project directories, inside the sandbox like its roots; a relative path
    starts in the first of them (the supervisor makes paths absolute before the executor sees them)."""
    if home is None or home == compiled.home:
        home, roots = compiled.home, compiled.sandbox
    else:
        roots = sandbox_pairs(tuple(compiled.policy.files.sandbox_roots), home)
    if work_dirs:
        projects = work_pairs(work_dirs, home)
        roots = (*projects, *roots)
    reals = tuple(r for _, r in roots)
    start = cwd or (reals[0] if reals else home)
    lex, real, inside, trav, esc = _facts_for(path, roots, start, home)
    if to is None:
        return FileFacts(path, lex, real, inside, reals, trav, esc)
    tlex, treal, tinside, ttrav, tesc = _facts_for(to, roots, start, home)
    return FileFacts(path, lex, real, inside, reals, trav, esc, to, tlex, treal, tinside, ttrav, tesc)


def file_facts(ctx: Context) -> FileFacts | None:
    """The resolved paths of a file action (None for other actions, or a path that cannot be resolved:
    the file rules block those). Relative paths are relative to the first sandbox root."""
    if ctx.type not in FILE_TYPES:
        return None
    action = ctx.action
    try:
        return compute_facts(action.path, getattr(action, "to", None), ctx.compiled,  # type: ignore[union-attr]
                             work_dirs=ctx.observation.work_dirs)
    except (ValueError, OSError):
        return None


def resolved_path(ctx: Context) -> str | None:
    """The real absolute path a file action acts on, or None (not a file action / unresolvable)."""
    facts = ctx.derived(file_facts)
    return facts.real if facts is not None else None


def resolved_to(ctx: Context) -> str | None:
    """The real absolute destination of a `file_move`, or None."""
    facts = ctx.derived(file_facts)
    return facts.to_real if facts is not None else None


def supervisor_dirs() -> tuple[str, ...]:
    """deskgate's own directories named by the XDG environment (the same logic as app/config.py: each of
    XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME, XDG_RUNTIME_DIR + "/deskgate"), as regexes over
    folded paths. Read once per policy compilation; the fixed defaults are `[files] supervisor_paths`."""
    out = []
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"):
        base = os.environ.get(var, "").strip()
        if base.startswith("/"):
            out.append("^" + re.escape(posixpath.normpath(base).lower() + "/deskgate") + "(/|$)")
    return tuple(out)


# -- a new file in a person's own folders ------------------------------------------------------------------------
# Creating a document, a sheet, a picture or a source file on the Desktop, in Documents or in a project folder of
# a home directory is everyday work: it destroys nothing and runs nothing. What runs later (scripts, shortcuts,
# programs, settings) and what lives in hidden or program folders keeps asking, and so does writing over a file
# that exists: the executor then refuses to replace one that appears between the judgement and the write.
_PERSONAL_EXTENSIONS = frozenset({
    "txt", "text", "md", "markdown", "rst", "org", "adoc", "tex", "bib", "csv", "tsv", "json", "jsonl", "ndjson",
    "yaml", "yml", "toml", "xml", "html", "htm", "css", "log", "odt", "ods", "odp", "odg", "docx", "xlsx", "pptx",
    "doc", "xls", "ppt", "rtf", "pdf", "epub", "pages", "numbers", "png", "jpg", "jpeg", "gif", "webp", "bmp",
    "tif", "tiff", "svg", "heic", "mp3", "wav", "flac", "ogg", "m4a", "mp4", "mov", "mkv", "webm", "py", "ipynb",
    "r", "rmd", "jl", "js", "mjs", "ts", "tsx", "jsx", "java", "kt", "scala", "c", "h", "cc", "cpp", "hpp", "cs",
    "go", "rs", "rb", "php", "swift", "m", "sql"
})
# folders where programs, their settings or their startup entries live, even inside a home directory
_PROGRAM_FOLDERS = frozenset({"appdata", "library", "bin", "sbin", "lib", "lib64", "snap", "applications",
                              "node_modules", "site-packages", "dist-packages", "vendor", "start menu", "startup",
                              "templates", "autostart", "public", "venv", "virtualenvs", "go", "cargo"})
# files a tool runs or loads by their name when the person builds, tests or installs in that folder: a new one is
# code that runs later, so writing one keeps asking (`conftest.py` at the next `pytest`, `setup.py` at `pip install .`)
_RUN_BY_NAME = frozenset({"conftest.py", "setup.py", "noxfile.py", "tasks.py", "fabfile.py", "dodo.py", "manage.py",
                          "sitecustomize.py", "usercustomize.py", "build.rs", "cmakelists.txt", "package.json",
                          "pyproject.toml", "cargo.toml", "pom.xml", "composer.json", "gulpfile.js", "gruntfile.js",
                          "jakefile.js", "deno.json", "bunfig.toml", "pubspec.yaml", "mix.exs", "docker-compose.yml",
                          "docker-compose.yaml", "compose.yml", "compose.yaml", "tox.ini", "meson.build"})
_CONFIG_SCRIPT = re.compile(r"\.config\.(?:js|mjs|cjs|ts|mts|cts)$|^(?:vite|webpack|rollup|jest|babel|eslint|next|nuxt|"
                            r"svelte|astro|playwright|vitest|tailwind|postcss)\.")
# /home/<name>, /Users/<name>, /root, C:/Users/<name>: a person's home, whoever's it is
_HOME_SHAPED = re.compile(r"(?i)^(?:/home/[^/]+|/users/[^/]+|/root|/var/home/[^/]+|[a-z]:/users/[^/]+)(?=/)")


def _in_own_folder(real: str, home: str) -> bool:
    """`real` is an ordinary file in a home directory: no hidden or program folder on the way, an everyday kind."""
    if is_within(real, home) and real != home:
        rest = real[len(home):]
    elif (m := _HOME_SHAPED.match(real)) is not None:
        rest = real[m.end():]
    else:
        return False
    parts = [p.lower() for p in rest.split("/") if p]
    if not parts or any(p.startswith(".") or p in _PROGRAM_FOLDERS or p.startswith("python") for p in parts):
        return False
    name = parts[-1]
    if name in _RUN_BY_NAME or _CONFIG_SCRIPT.search(name):
        return False
    stem, dot, ext = name.rpartition(".")
    return bool(dot and stem) and ext in _PERSONAL_EXTENSIONS


def new_personal_file(ctx: Context) -> bool:
    """A `file_write` outside the work area that creates a new everyday file in a person's own folders
    (`files.personal_new_files`). The file must not exist yet: writing over one stays a question. A session with
    a project (a Claude Code session's folder, hello's `project`) was given that folder to work in: its writes
    elsewhere keep asking."""
    if ctx.type != "file_write" or not ctx.policy.files.personal_new_files or ctx.observation.work_dirs:
        return False
    facts = ctx.derived(file_facts)
    if facts is None or facts.in_sandbox or facts.symlink_escape:
        return False
    home = ctx.compiled.home
    if not (_in_own_folder(facts.real, home) and _in_own_folder(facts.lexical, home)):
        return False
    return not (os.path.lexists(facts.lexical) or os.path.lexists(facts.real))
