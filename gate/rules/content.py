"""Rules: files judged by what they will contain (gate/content.py says what runs later, and how to read it).

- A secret written into any file (`file_write`, the Claude Code hook's Write/Edit/MultiEdit, which arrive as
  `file_write` with the whole file after the edit): the same detector as typed text (`[gui] secret_patterns`:
  keys, tokens, private keys, passwords in connection strings) asks.
- Content that runs later (a git hook, a shell startup file, a cron table, a systemd unit, a CI workflow, a
  package's install hooks, ...) is judged by every shell rule as the commands it holds: what the shell rules
  block is blocked, what they ask about asks. A `file_move` into such a place is judged by the content the
  supervisor saw written to its source in this session; a file deskgate has not seen moved there asks.
- A shell command that runs a file the agent wrote in this session (`bash x.sh`, `./x.sh`, `python x.py`,
  `source x`) is judged by that file's content (`Observation.scripts`, which the supervisor fills:
  app/daemon/written.py).

Programs a project's build or environment made (`./build/x`, `.venv/bin/*`, `node_modules/.bin/*`,
`target/release/*`) run without asking: they are the project's code, which the agent may run anyway
(`python x.py`, `npm test`). What must not pass is code the agent itself just wrote, put where a program is found
by bare name. Decided by effect:
- a file written in this session into a folder found by bare name (a project's `.venv/bin` or
  `node_modules/.bin`, `~/.local/bin`, `~/.cargo/bin`, `~/go/bin`, `/usr/local/bin`) is judged by what it holds
  when it is written (`runs_later` kind "program on PATH"), and again whenever it runs: by path, by bare name
  (`pytest`, with the environment on PATH) or through a runner (`npx eslint`, `uv run pytest`, `yarn eslint`);
  a bare name matches only a file in such a folder, so `src/black` does not make `black` judged by it;
- a program installed onto PATH by a build (`cargo install --path .`, `pip install -e .`, `go install`) is not
  a free pass by its bare name: a name the program table does not describe asks as an unknown program, and
  under a name it does describe, a file the agent wrote is caught by the rule above. A build that installs the
  project's code nobody wrote in this session runs as the project's code does.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

import msgspec

from gate.content import (
    BIN_FOLDER,
    BLOCK_ONLY,
    MAX_CONTENT,
    ON_PATH,
    guard_off,
    is_config,
    later_commands,
    planted_instructions,
    program_code,
    runs_later,
    script_code,
    script_runs,
)
from gate.model import Hit, Risk, Script, Shell
from gate.paths import file_facts
from gate.prefix import text_keys
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.secret_templates import without_placeholders
from gate.rules.shell_vocab import SHELL_TYPES
from gate.rules.typed import judge_as
from gate.sensitive import partial_secret
from gate.shell import command_facts

__all__ = ["RULES", "content_verdict", "script_verdict"]

WRITES = ("file_write", "file_move")


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ContentVerdict(NamedTuple):
    path: str  # where the content lands (resolved)
    kind: str | None  # what runs it later (gate/content.py), None: an ordinary file
    content: str | None  # the content judged (None: not known: a move of a file deskgate did not see written)
    commands: str  # the commands it holds
    block: Hit | None
    confirm: Hit | None


_NONE = ContentVerdict("", None, None, "", None, None)


def _script_for(ctx: Context, path: str) -> Script | None:
    return next((s for s in ctx.observation.scripts if s.path == path), None)


def content_verdict(ctx: Context) -> ContentVerdict:
    """Where a write or move lands, what runs it later, and what the shell rules say of what it holds."""
    facts = ctx.derived(file_facts)
    if facts is None:
        return _NONE
    if ctx.type == "file_write":
        path, content = facts.real, ctx.action.content  # type: ignore[attr-defined]
        lexical = facts.lexical
    else:
        if facts.to_real is None:
            return _NONE
        path, lexical = facts.to_real, facts.to_lexical or facts.to_real
        seen = _script_for(ctx, facts.real) or _script_for(ctx, facts.lexical)
        content = seen.content if seen is not None else None
    kind = runs_later(path) or runs_later(lexical)
    if kind is None or content is None:
        return ContentVerdict(path, kind, content, "", None, None)
    commands = later_commands(kind, path, content)
    if not commands.strip():
        return ContentVerdict(path, kind, content, "", None, None)
    block, confirm = judge_as(Shell(command=commands), ctx)
    return ContentVerdict(path, kind, content, commands, block, confirm)


@rule("block.files.runs-later", "A file written where it runs later, holding what the shell rules block",
      risk=Risk.CRITICAL, types=WRITES)
def runs_later_block(ctx: Context) -> CheckResult:
    """A git hook, shell startup file, cron table, systemd unit, launchd job, `.desktop` entry, CI workflow,
    package install hook (`preinstall`/`postinstall`...), git config command (`core.fsmonitor`,
    `core.sshCommand`, `!` aliases), editor/terminal configuration that runs programs, a program put in a
    folder found by bare name (`.venv/bin/pytest`, `node_modules/.bin/eslint`, `~/.local/bin`), code an ordinary
    tool run executes (`conftest.py`, `setup.py`, `sitecustomize.py`, a `.pth` file, a bundler's or linter's
    JavaScript config, a Gemfile) or a Makefile's or justfile's recipes, written (or moved into place) with a
    command the shell rules block: a download piped to a shell, a reverse shell, a delete of home. It would run
    later, as the person, outside any fence."""
    v = ctx.derived(content_verdict)
    if v.block is None:
        return None
    return f"{v.path} is a {v.kind}: what it holds runs later, and {v.block.reason}", v.block.risk


def attack_script_verdict(ctx: Context) -> tuple[str, Hit | None]:
    """For a write of a script that runs nowhere by itself (`run.sh`, `tool.py`): where it lands, and the
    strongest block of the shell rules over what starting it would run."""
    if ctx.type != "file_write":
        return "", None
    v = ctx.derived(content_verdict)
    if v.kind is not None or not v.path:
        return "", None  # a file that runs later is judged by the rules above
    content = ctx.action.content  # type: ignore[attr-defined]
    commands = script_code(v.path, content) if content else ""
    if not commands.strip():
        return "", None
    block, _ = judge_as(Shell(command=commands), ctx)
    return v.path, block


@rule("block.files.attack-script", "A script written holding what the shell rules block", risk=Risk.CRITICAL,
      types=("file_write",))
def attack_script(ctx: Context) -> CheckResult:
    """A script (by its name, `.sh`, `.ps1`, `.bat`, `.py`, `.js`..., or by a `#!` line) written with code the
    shell rules block: a reverse shell, a download run unseen, secrets or the environment sent away, home or
    the disk wiped, a miner. Nothing runs it yet, but the file is the attack, staged for the agent or a person
    to start (the command that later starts it is judged by it too: `block.shell.written-script`). Only blocks
    count: what the shell rules merely ask about is a project's own business until it runs."""
    path, block = ctx.derived(attack_script_verdict)
    if block is None:
        return None
    return f"{path} is a script, and starting it {block.reason}", block.risk


@rule("confirm.files.runs-later-content", "A file written where it runs later, holding what the shell rules ask about",
      risk=Risk.HIGH, types=WRITES, confidence=0.8)
def runs_later_confirm(ctx: Context) -> CheckResult:
    """Content that runs later (see block.files.runs-later) holding a command the shell rules would ask
    about; or a file deskgate did not see written moved into such a place (its content is unknown)."""
    v = ctx.derived(content_verdict)
    if v.kind is None or v.block is not None or v.kind in BLOCK_ONLY:
        return None
    if v.content is None:
        return f"moves a file deskgate has not seen written into {v.path}, a {v.kind} that runs later"
    if v.confirm is None:
        return None
    return f"{v.path} is a {v.kind}: what it holds runs later, and {v.confirm.reason}", v.confirm.risk


@rule("block.files.agent-guard-off", "A coding agent's approvals switched off in its settings", risk=Risk.CRITICAL,
      types=WRITES)
def agent_guard_off(ctx: Context) -> CheckResult:
    """A settings file written (or a file written in this session moved into place) with a key that switches a
    coding agent's approvals off or allows it every command: Claude Code's `"defaultMode": "bypassPermissions"`
    or `"allow": ["Bash(*)"]`, an editor's `"chat.tools.autoApprove": true`, an MCP server's `"alwaysAllow"` list,
    Gemini CLI's `"autoAccept": true`, Codex's `approval_policy = "never"`. From then on the agent runs what
    nobody sees: it takes its own guard down, which is what planted instructions ask for. A note or README that
    quotes such a key is not a settings file and passes; the key turned off (`false`, an empty list) passes."""
    v = ctx.derived(content_verdict)
    if not v.path or v.content is None:
        return None
    hit = guard_off(v.path, v.content)
    if hit is None:
        return None
    return f"{v.path} is read as settings, and {_short(hit, 50)!r} lets an agent's tools run without asking"


# files whose addresses are all package sources: package managers' settings, apt/yum/zypper/apk repository lists
_SOURCE_FILE = re.compile(
    r"(^|/)(pip\.(conf|ini)|\.npmrc|\.yarnrc(\.yml)?|\.condarc|\.mambarc|nuget\.config|\.gemrc|bunfig\.toml|\.pypirc|"
    r"sources\.list|repositories|pacman\.conf)$|(^|/)\.cargo/config(\.toml)?$|(^|/)sources\.list\.d/|"
    r"(^|/)(yum\.repos\.d|zypp/repos\.d)/|\.sources$", re.IGNORECASE)
_PYPROJECT_INDEX = re.compile(r"^\s*\[\[?tool\.(uv\.index|poetry\.source|pdm\.source|hatch\.[\w.]*index)", re.MULTILINE)


@rule("block.files.planted-instructions", "Instructions for a coding agent written with planted orders",
      risk=Risk.CRITICAL, types=WRITES)
def planted_instructions_rule(ctx: Context) -> CheckResult:
    """A file a coding agent reads as the person's own instructions at every start (CLAUDE.md, AGENTS.md, Cursor's
    or Windsurf's rules, Copilot's instructions, a custom command) written with the marks of a planted rules file:
    words that override the agent's instructions ("ignore previous instructions"), orders to keep something from
    the person ("do not mention this to the user"), or text hidden in Unicode tag characters or bidirectional
    overrides. Every later session would follow them. Ordinary project conventions ("use pytest", "tell the user
    when tests fail") pass; commands the file quotes are judged by `block.files.runs-later`."""
    v = ctx.derived(content_verdict)
    if v.kind != "agent instructions" or v.content is None:
        return None
    found = planted_instructions(v.content)
    if found is None:
        return None
    return f"{v.path} holds a coding agent's standing instructions, and {_short(found, 50)!r} is planted there"


@rule("block.files.untrusted-source", "A package source set to a bare public address in a settings file",
      risk=Risk.CRITICAL, types=WRITES)
def untrusted_source(ctx: Context) -> CheckResult:
    """A settings file written (pip.conf, .npmrc, .yarnrc.yml, .condarc, .cargo/config.toml, NuGet.config, an apt
    source list, pyproject's index) with a package index, registry or repository line that points at a bare public
    IP address: every later install by anyone takes what that address serves. As `pip config set
    global.index-url http://203.0.113.5/simple` does from the shell (`block.shell.untrusted-source`). A company
    mirror by name, or an address on the private network or this machine, is ordinary configuration and passes."""
    from gate.rules.shell_sources import public_address, public_source

    v = ctx.derived(content_verdict)
    if not v.path or v.content is None or not is_config(v.path):
        return None
    text = v.content[:MAX_CONTENT]
    address = public_source(text)
    if address is None and (_SOURCE_FILE.search(v.path) or (v.path.lower().endswith("pyproject.toml") and
                                                             _PYPROJECT_INDEX.search(text))):
        address = public_address(text)  # a file that holds nothing but sources: any address in it is one
    if address is None:
        return None
    return f"{v.path} would take software from the bare address {address}: every later install runs what it serves"


def _secret_kind(ctx: Context, text: str) -> str | None:
    from gate.rules.gui import secret_patterns  # the typed-text detector's compiled list

    matcher = secret_patterns(ctx)
    if matcher is None or not text:
        return None
    text = text[:MAX_CONTENT]
    m = matcher.search(text, text_keys(text))
    if m:
        return "a credential or token"
    # a live key written with its issuer's prefix and its first characters ("sk_live_51Hx..."): a key the
    # agent hardcodes, shortened only in what it shows, and the start of one in the file when it is not
    partial = partial_secret(text)
    return f"{partial} (its start)" if partial else None


@rule("confirm.files.secret-content", "A secret written into a file", risk=Risk.HIGH, types=WRITES,
      redact=("content",), confidence=0.85)
def secret_content(ctx: Context) -> CheckResult:
    """The content written holds what the typed-text detector calls a live secret (a token with a known
    prefix, a private key, a password in a connection string): a key committed in `src/settings.py` is
    a leak waiting for the next push. A person decides; the content reaches the log only as a digest.
    A file that holds secrets by its nature (`.env`, a credentials file) asks through the sensitive-path
    rules as well."""
    if ctx.type == "file_write":
        content = ctx.action.content  # type: ignore[attr-defined]
    else:
        v = ctx.derived(content_verdict)
        content = v.content or ""
    path = getattr(ctx.action, "to", None) or ctx.action.path  # type: ignore[attr-defined]
    kind = _secret_kind(ctx, without_placeholders(path, content))
    if kind is None:
        return None
    return f"writes {kind} into {path}"


# -- a file the agent wrote, run later in the session -------------------------------------------------------------


class ScriptVerdict(NamedTuple):
    path: str
    block: Hit | None
    confirm: Hit | None


_NO_SCRIPT = ScriptVerdict("", None, None)


def _match(ctx: Context, word: str, on_path: bool = False) -> Script | None:
    scripts = ctx.observation.scripts
    if not scripts or not word:
        return None
    if on_path:  # a bare name: only a file the agent put in a folder programs are found in by name
        return next((s for s in scripts if posixpath.basename(s.path) == word and BIN_FOLDER.search(s.path)), None)
    cwd = getattr(ctx.action, "cwd", None)
    norm = posixpath.normpath(word)
    for s in scripts:
        if s.path == word or (cwd and posixpath.normpath(posixpath.join(cwd, word)) == s.path):
            return s
        if not word.startswith("/") and s.path.endswith("/" + norm.lstrip("./")):
            return s
    return None


def _as_command(interpreter: str, script: Script) -> str:
    return program_code(script.content, interpreter)


def script_verdict(ctx: Context) -> ScriptVerdict:
    """For a shell command that runs a file the agent wrote in this session: what the shell rules say of
    that file's content, run the way the command runs it."""
    if not ctx.observation.scripts:
        return _NO_SCRIPT
    facts = ctx.derived(command_facts)  # a shell action, or text typed into a terminal (the line it makes)
    if facts is None:
        return _NO_SCRIPT
    # the content judged with no scripts of its own: a file that runs itself is judged once, not forever
    bare = msgspec.structs.replace(ctx.observation, scripts=())
    block: Hit | None = None
    confirm: Hit | None = None
    path = ""
    for interpreter, word in script_runs(facts):
        on_path = interpreter == ON_PATH
        script = _match(ctx, word, on_path)
        if script is None:
            continue
        interpreter = "" if on_path else interpreter
        b, c = judge_as(Shell(command=_as_command(interpreter, script)), ctx, bare)
        if b is not None and (block is None or b.risk > block.risk):
            block, path = b, script.path
        if c is not None and (confirm is None or c.risk > confirm.risk):
            confirm, path = c, path or script.path
    return ScriptVerdict(path, block, confirm)


@rule("block.shell.written-script", "Runs a file the agent wrote, holding what the shell rules block",
      risk=Risk.CRITICAL, types=("shell", "type"), needs="scripts")
def written_script_block(ctx: Context) -> CheckResult:
    """`bash x.sh`, `./x.sh`, `python x.py`, `source x` where the agent wrote `x` earlier in this session, and a
    bare name (`black`, `npx eslint`, `uv run pytest`) found in a folder on PATH where the agent wrote it:
    the command is harmless on its face, the harm is in the file. Its content is judged as what runs: a
    download piped to a shell or a delete of home in it blocks the command that runs it, as a `shell`
    action or as a line typed into a terminal (at Return too: the line-end rules judge the line with it)."""
    v = ctx.derived(script_verdict)
    if v.block is None:
        return None
    return f"runs {v.path}, which the agent wrote: {v.block.reason}", v.block.risk


@rule("confirm.shell.written-script", "Runs a file the agent wrote, holding what the shell rules ask about",
      risk=Risk.HIGH, types=("shell", "type"), confidence=0.8, needs="scripts")
def written_script_confirm(ctx: Context) -> CheckResult:
    """A command runs a file the agent wrote in this session, and the shell rules would ask about what that
    file holds."""
    v = ctx.derived(script_verdict)
    if v.block is not None or v.confirm is None:
        return None
    return f"runs {v.path}, which the agent wrote: {v.confirm.reason}", v.confirm.risk


# a project's own scripts that come with its checkout and are made executable after a clone or an unzip
_PROJECT_SCRIPTS = frozenset({"gradlew", "mvnw", "configure", "autogen.sh", "bootstrap", "bootstrap.sh", "sbt",
                              "build.sh", "test.sh", "run-tests.sh", "x.py", "manage.py", "setup.sh"})
_EXEC_MODE = re.compile(r"^(?:[ugoa]*\+[rwst]*x[rwxst]*|[0-7]?[0-7][1357][0-7][0-7]|[0-7]?[1357][0-7][0-7])$")


@rule("confirm.shell.fresh-executable", "Makes a file executable and runs it at once, its content unseen",
      risk=Risk.MEDIUM, types=SHELL_TYPES, confidence=0.8, needs="commands")
def fresh_executable(ctx: Context) -> CheckResult:
    """`chmod +x F && ./F`: a file that was not a program a moment ago is made one and started in the same
    line, and deskgate saw nothing of what it holds (a file the agent wrote in this session is judged by its
    content instead: `*.shell.written-script`). Whatever was put there (a download, an archive's payload, a
    file a page told the agent to run) runs. A project's own wrapper scripts (`gradlew`, `configure`) pass."""
    facts = ctx.derived(command_facts)
    if facts is None or len(facts.commands) < 2:
        return None
    made: set[str] = set()
    # a file this same line writes (`cat > x.sh <<EOF ... EOF`) is judged by what the line writes into it
    written = {posixpath.normpath(t) for c in facts.commands for op, t in c.redirects if op in (">", ">>", ">|")}
    for cmd in facts.commands:
        if cmd.name == "chmod":
            ops = [a for a in cmd.argv[1:] if not a.startswith("-") or _EXEC_MODE.match(a)]
            if ops and _EXEC_MODE.match(ops[0]):
                made.update(posixpath.normpath(a) for a in ops[1:])
            continue
        run = cmd.argv[0] if cmd.argv else ""
        if "/" in run and posixpath.normpath(run) in made and posixpath.normpath(run) not in written:
            base = posixpath.basename(run)
            if base in _PROJECT_SCRIPTS or _match(ctx, run, False) is not None:
                continue
            return f"makes {base} executable and runs it at once: what it holds was never shown"
    return None


RULES: tuple[Rule, ...] = (runs_later_block, runs_later_confirm, attack_script, agent_guard_off,
                           planted_instructions_rule, untrusted_source, secret_content,
                           written_script_block, written_script_confirm, fresh_executable)
