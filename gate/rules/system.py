"""Rules: system actions (`system`), opening apps (`open_app`) and generic tool calls (`tool`).

System actions are sanitised, not rewritten: the gate is pure and only answers. An out-of-range level
or an injected package name blocks; a delay above the cap asks, and `sanitize_system` is the pure helper
the executor uses to clamp what a person approved. Which system names are always blocked or always
asked (`gate.always_block`, `gate.always_confirm`) and kiosk mode are agent-level rules, not these.

A `tool` call is mapped to the action it obviously is, where that is cheap: an input with a `path` /
`file_path` to a file action (by the verb in the tool's name, with the content it writes), a `url` to
`navigate`, a command line (`command`, `cli_command`, `commandLine`, ...) to `shell`; code a tool runs
(`execute_python`, `browser_evaluate`) to the interpreter one-liner that runs it, a database tool's
statement to the client line that runs it; text a tool sends, posts or fills in (`send_email`'s body,
`create_issue`'s title and body, a computer tool's `{"action": "type"}`) to typed text in a field named for
it. The input is read whatever its shape: keys compared folded (`commandLine`, `c-m-d`, `target_file`), objects
nested three levels (`{"params": {"command": ...}}`, Slack's blocks), a command given as a list of words or as a
program and its arguments, every command key at once (a benign `command` does not hide a second `cmd`), a
terminal tool's typed input, code in the language its label names (code that cannot be the Python it is said to
be, a notebook's `!` escapes and a label nobody knows are read as shell lines too), SQL behind comments, files a
message attaches and an HTTP request's body. The rules of that action's families then judge it, as they judge
the action sent directly. A tool whose
name or input says it destroys or pays (delete, drop, wipe, format, transfer, pay, ...) asks.
"""

from __future__ import annotations

import ast
import base64
import binascii
import json
import math
import re
import shlex
from collections.abc import Iterator, Mapping
from typing import Any

import msgspec

from gate.model import (
    Action,
    Click,
    Decision,
    FileDelete,
    FileMove,
    FileRead,
    FileWrite,
    Hit,
    Navigate,
    Risk,
    Shell,
    Target,
    Type,
)
from gate.model import System as SystemAction
from gate.normalise import fold
from gate.paths import is_within, resolve
from gate.policy import Policy
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES", "sanitize_system", "tool_as_action"]

SYS = ("system",)
LEVEL_NAMES = frozenset({"volume", "brightness"})
LEVEL_KEYS = ("level", "value", "percent", "volume", "brightness")
DELAYED_NAMES = frozenset({"shutdown", "restart", "reboot", "sleep", "suspend", "hibernate", "logout"})
# (key, seconds per unit) for a delay given in params
DELAY_KEYS = (("delay", 1), ("delay_s", 1), ("seconds", 1), ("delay_seconds", 1), ("minutes", 60),
              ("delay_minutes", 60))
PACKAGE_NAMES = frozenset({"install_software", "uninstall_software", "update_software"})
PACKAGE_KEYS = ("package", "packages", "name", "names", "app", "id")
# A package name: letters, digits and the punctuation real package managers use (npm scopes, apt
# architectures, pip pins). Nothing a shell would interpret, nothing that starts like an option.
_PACKAGE = re.compile(r"^[A-Za-z0-9@][A-Za-z0-9@._+:=/~-]{0,213}$")
_SHELL_META = re.compile(r"[;|&$`<>(){}\[\]*?!\\\n\r\t'\"]")
_APP_META = re.compile(r"[;|&$`<>\n\r\0]")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _params(action: Any) -> Mapping[str, Any]:
    return action.params or {}


def _name(action: Any) -> str:
    return action.name.strip().lower().replace("-", "_").replace(" ", "_")


# -- system -------------------------------------------------------------------------------------


@rule("block.system.invalid-level", "a volume/brightness level out of range", risk=Risk.MEDIUM, types=SYS)
def invalid_level(ctx: Context) -> CheckResult:
    """Volume and brightness are percentages: a level that is not a number from 0 to 100 is invalid,
    not something to guess at."""
    a = ctx.action
    if _name(a) not in LEVEL_NAMES:
        return None
    for key in LEVEL_KEYS:
        if key in _params(a):
            n = _number(_params(a)[key])
            if n is None or not 0 <= n <= 100:
                return f"{_name(a)} {key}={_params(a)[key]!r} is not a level from 0 to 100"
    return None


def _delay(params: Mapping[str, Any]) -> tuple[str, float | None] | None:
    for key, unit in DELAY_KEYS:
        if key in params:
            n = _number(params[key])
            return key, (n * unit if n is not None else None)
    return None


@rule("block.system.invalid-delay", "a delay that is not a number of seconds", risk=Risk.MEDIUM, types=SYS)
def invalid_delay(ctx: Context) -> CheckResult:
    """A shutdown/restart/sleep delay that is negative or not a number cannot be honoured as asked."""
    found = _delay(_params(ctx.action))
    if found is None:
        return None
    key, seconds = found
    if seconds is None or seconds < 0:
        return f"{_name(ctx.action)} {key}={_params(ctx.action)[key]!r} is not a delay"
    return None


@rule("confirm.system.delay-over-cap", "a delayed shutdown/restart beyond the cap", risk=Risk.MEDIUM, types=SYS)
def delay_over_cap(ctx: Context) -> CheckResult:
    """A power action scheduled further out than `system.max_delay_s` fires long after anyone looked at
    it; a person confirms, and the executor clamps it (`sanitize_system`)."""
    a = ctx.action
    if _name(a) not in DELAYED_NAMES:
        return None
    found = _delay(_params(a))
    if found is None or found[1] is None:
        return None
    cap = ctx.policy.system.max_delay_s
    if found[1] > cap:
        return f"{_name(a)} in {found[1]:.0f} s is beyond the {cap} s cap"
    return None


def _package_values(params: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    for key in PACKAGE_KEYS:
        if key not in params:
            continue
        value = params[key]
        if isinstance(value, list | tuple):
            yield from ((key, v) for v in value)
        else:
            yield key, value


def package_problem(name: Any) -> str | None:
    """Why `name` is not a safe package name, or None."""
    if not isinstance(name, str):
        return f"{name!r} is not a package name"
    if name.startswith("-"):
        return f"{name!r} starts with '-': option injection"
    if _SHELL_META.search(name) or any(c.isspace() for c in name):
        return f"{name!r} contains shell metacharacters or spaces"
    if not _PACKAGE.match(name):
        return f"{name!r} is not a valid package name"
    return None


@rule("block.system.package-injection", "shell metacharacters or options in a package name", risk=Risk.HIGH,
      types=SYS)
def package_injection(ctx: Context) -> CheckResult:
    """Install/uninstall names are handed to a package manager: a name with `;|&$` or a backtick, a
    space, or a leading `-` (`--force`, `-y`) injects commands or options."""
    a = ctx.action
    if _name(a) not in PACKAGE_NAMES:
        return None
    values = list(_package_values(_params(a)))
    if not values:
        return f"{_name(a)} without a package name"
    for _, value in values:
        if (problem := package_problem(value)) is not None:
            return problem
    return None


@rule("confirm.system.unknown", "an unknown system action", risk=Risk.MEDIUM, types=SYS)
def unknown_system(ctx: Context) -> CheckResult:
    """A system action name the gate does not know (`system.known`): it cannot judge it, so a person does."""
    name = _name(ctx.action)
    if name in ctx.compiled.system_known:
        return None
    return f"unknown system action {ctx.action.name!r}"  # type: ignore[union-attr]


def known_names(names: list[str]) -> frozenset[str]:
    return frozenset(n.lower() for n in names)


def sanitize_system(action: Action, policy: Policy | None = None) -> Action:
    """The action as the executor should run it: a power-action delay clamped to `system.max_delay_s`,
    volume/brightness clamped to 0..100, package names trimmed. Anything else is returned unchanged.
    Pure: the gate's verdict is still what decides whether it runs."""
    if not isinstance(action, SystemAction) or not action.params:
        return action
    if policy is None:
        from gate.policy import default_policy

        policy = default_policy()
    params = dict(action.params)
    name = _name(action)
    if name in DELAYED_NAMES:
        for key, unit in DELAY_KEYS:
            n = _number(params.get(key))
            if n is not None:
                params[key] = min(max(n, 0.0), policy.system.max_delay_s / unit)
    if name in LEVEL_NAMES:
        for key in LEVEL_KEYS:
            n = _number(params.get(key))
            if n is not None:
                params[key] = min(max(n, 0.0), 100.0)
    if name in PACKAGE_NAMES:
        for key in PACKAGE_KEYS:
            v = params.get(key)
            if isinstance(v, str):
                params[key] = v.strip()
            elif isinstance(v, list):
                params[key] = [x.strip() if isinstance(x, str) else x for x in v]
    return msgspec.structs.replace(action, params=params)


# -- open_app -----------------------------------------------------------------------------------


@rule("block.system.app-injection", "shell metacharacters or options in an app name", risk=Risk.HIGH,
      types=("open_app",))
def app_injection(ctx: Context) -> CheckResult:
    """An app name with `;|&$`, a backtick, redirections or a newline, or one that starts with `-`, is a
    command line in disguise, not an app."""
    app = ctx.action.app.strip()  # type: ignore[union-attr]
    if app.startswith("-"):
        return f"app {app!r} starts with '-': option injection"
    if _APP_META.search(app):
        return f"app {app!r} contains shell metacharacters"
    return None


def app_dirs(dirs: list[str]) -> tuple[str, ...]:
    """`system.app_dirs` resolved, once per policy (gate/compiled.py)."""
    out = []
    for d in dirs:
        try:
            out.append(resolve(d))
        except ValueError:
            continue
    return tuple(out)


_RX_APP_PATH = re.compile(r"^[a-z]:/", re.IGNORECASE)
_RX_APP_PATH_2 = re.compile(r"^[a-z]:/", re.IGNORECASE)


@rule("confirm.system.app-path", "an app started from outside the app directories", risk=Risk.MEDIUM,
      types=("open_app",))
def app_path(ctx: Context) -> CheckResult:
    """`open_app` given a path runs whatever file is there: outside the standard app directories
    (`system.app_dirs`) that may be something the agent just wrote or downloaded."""
    app = ctx.action.app.strip()  # type: ignore[union-attr]
    if "/" not in app and "\\" not in app and not app.startswith("~"):
        return None  # a name, looked up by the desktop
    try:
        real = resolve(app)
    except ValueError:
        return f"app path {app!r} cannot be resolved"
    dirs = ctx.compiled.app_dirs
    probe = real.lower() if _RX_APP_PATH.match(real) else real
    if any(is_within(probe, d.lower() if _RX_APP_PATH_2.match(d) else d) for d in dirs):
        return None
    return f"app {real} is outside the app directories"


# -- tool ---------------------------------------------------------------------------------------

_DESTRUCTIVE = frozenset({
    "delete", "remove", "rm", "rmdir", "unlink", "drop", "destroy", "wipe", "truncate", "purge",
    "erase", "shred", "kill", "terminate", "shutdown", "reboot", "uninstall", "revoke", "reset",
    "transfer", "pay", "payment", "withdraw", "refund", "charge", "purchase", "checkout", "wire",
})
# "format" destroys only what it formats: a disk, not a date
_FORMAT_TARGETS = frozenset({"disk", "drive", "volume", "partition", "device", "fs", "filesystem", "sd", "usb"})
_VERB_KEYS = ("action", "operation", "op", "method", "mode", "verb", "type", "command_type")
_DESTRUCTIVE_TEXT = re.compile(
    r"\b(?:drop\s+(?:table|database|schema|index|user)|truncate\s+(?:table\s+)?\w|delete\s+from\s+\w+\s*(?:;|$)"
    r"|rm\s+-[a-z]*[rf]|mkfs|format\s+[a-z]:|dd\s+if=)", re.IGNORECASE)
_WORDS = re.compile(r"[a-z]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _tokens(text: str) -> set[str]:
    return set(_WORDS.findall(fold(_CAMEL.sub("_", text))))


def _destructive(tokens: set[str]) -> set[str]:
    hit = tokens & _DESTRUCTIVE
    if "format" in tokens and tokens & _FORMAT_TARGETS:
        hit.add("format")
    return hit


def _strings(value: Any, depth: int = 0) -> Iterator[str]:
    """String values of a tool input, two levels deep, each cut to 4 KiB (enough to find a verb)."""
    if isinstance(value, str):
        yield value[:4096]
    elif depth < 2 and isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v, depth + 1)
    elif depth < 2 and isinstance(value, list | tuple):
        for v in value[:64]:
            yield from _strings(v, depth + 1)


@rule("confirm.tool.destructive", "a tool call that destroys, wipes or pays", risk=Risk.HIGH, types=("tool",),
      confidence=0.75)
def tool_destructive(ctx: Context) -> CheckResult:
    """The tool's name (`delete_file`, `dropTable`, `transfer_funds`), a verb field of its input
    (`{"action": "wipe"}`) or a SQL/shell text in it (`DROP TABLE`, `rm -rf`) is destructive or moves
    money. A tool named for a command-line program and its verb (`git_reset`, `git_checkout`) is judged by the
    line it runs (`*.tool.mapped`), which knows `--soft` from `--hard`."""
    a = ctx.action
    if _cli_tool_line(a.name, a.input or {}) is not None and _command_of(a.input or {}, set()) is None:  # type: ignore[union-attr]
        return None
    hit = _destructive(_tokens(a.name))  # type: ignore[union-attr]
    if hit:
        return f"tool {a.name!r} looks destructive ({', '.join(sorted(hit))})"  # type: ignore[union-attr]
    data = a.input or {}  # type: ignore[union-attr]
    for key in _VERB_KEYS:
        v = data.get(key)
        if isinstance(v, str) and (hit := _destructive(_tokens(v))):
            return f"tool {a.name!r} asked to {', '.join(sorted(hit))}"  # type: ignore[union-attr]
    for text in _strings(data):
        if m := _DESTRUCTIVE_TEXT.search(text):
            return f"tool {a.name!r} input contains {m.group(0).strip()!r}"  # type: ignore[union-attr]
    return None


# a tool whose own name starts with one of these sends, posts, publishes or merges: other people read it, act on it
# or build from it, and nothing takes it back (`send_email`, `post_message`, `merge_pull_request`, `push_files`)
_SEND_VERBS = frozenset({"send", "post", "reply", "comment", "publish", "tweet", "retweet", "forward", "dm", "share",
                         "submit", "upload", "merge", "push", "invite", "approve", "broadcast", "notify", "message",
                         "email", "mail", "sms", "text", "release", "deploy"})
# ... or starts with making one of these (`create_issue`, `add_issue_comment`, `create_pull_request`, `add_member`)
_MAKE_VERBS = frozenset({"create", "add", "open", "new", "make", "write"})
_SENT_THINGS = frozenset({"issue", "pull", "pr", "comment", "release", "post", "tweet", "message", "review",
                          "discussion", "gist", "email", "mail", "invite", "invitation", "webhook", "collaborator",
                          "member", "key", "tag", "reply", "status", "story", "announcement", "repository", "repo"})
_CLICKS = frozenset({"click", "tap", "press", "dblclick"})


def _own_tool_name(name: str) -> list[str]:
    """The words of a tool's own name, its server's prefix cut (`mcp__github__create_issue` → create, issue)."""
    own = re.split(r"__|\.|/|:", name)[-1]
    return _WORDS.findall(fold(_CAMEL.sub("_", own)))


@rule("confirm.tool.sends", "a tool call that sends, posts, publishes or merges", risk=Risk.MEDIUM, types=("tool",),
      confidence=0.8)
def tool_sends(ctx: Context) -> CheckResult:
    """A tool whose own name says it sends a message or an e-mail, posts, comments, publishes, uploads, merges or
    pushes (`send_email`, `post_message`, `merge_pull_request`, `push_files`), or makes something other people
    then read (`create_issue`, `add_issue_comment`, `create_pull_request`, `add_collaborator`): the same as
    clicking Send or Merge, or running `git push`, which ask. Reading tools (`get_`, `list_`, `search_`) and
    drafts pass; what the text says is judged besides (`*.tool.mapped`)."""
    words = _own_tool_name(ctx.action.name)  # type: ignore[union-attr]
    if not words or "draft" in words:
        return None
    # the first word that is a verb (`slack_post`, `github_create_issue`: the service named before it)
    at = next((i for i, w in enumerate(words) if w in _SEND_VERBS or w in _MAKE_VERBS or w in _READ_VERBS), None)
    verb = words[at] if at is not None else ""
    if verb in _SEND_VERBS or (verb in _MAKE_VERBS and _SENT_THINGS.intersection(words[at + 1:])):  # type: ignore[operator]
        return f"tool {ctx.action.name!r} {verb}s: what it sends cannot be taken back"  # type: ignore[union-attr]
    if verb not in _READ_VERBS and (what := _made_public(ctx.action.input or {})):  # type: ignore[union-attr]
        return f"tool {ctx.action.name!r} makes {what} public: everyone can read it from now on"  # type: ignore[union-attr]
    return None


_VISIBILITY_KEYS = frozenset({"visibility", "visible_to", "access", "access_level", "privacy", "audience", "sharing",
                              "share_with", "permission", "permissions", "acl"})
_PUBLIC_VALUES = frozenset({"public", "everyone", "anyone", "anyone_with_link", "anyonewithlink", "world",
                            "public-read", "public_read", "public-read-write", "internet", "unlisted"})


def _made_public(data: Mapping[str, Any]) -> str | None:
    """What an update tool's input opens to everyone: `{"private": false}`, `{"visibility": "public"}`,
    `{"access": "anyone_with_link"}`, a sharing grant `{"type": "anyone", "role": "reader"}` (a repository, a file,
    a bucket, a page)."""
    for key, value in _flat(data):
        if key in ("private", "is_private", "isprivate") and value is False:
            return "it (private: false)"
        if key in ("public", "is_public", "ispublic") and value is True:
            return "it (public: true)"
        if (key in _VISIBILITY_KEYS or (key == "type" and "role" in data)) and isinstance(value, str) and \
                value.strip().lower() in _PUBLIC_VALUES:
            return f"it ({key}: {value.strip()[:30]})"
    return None


_READ_VERBS = frozenset({"read", "view", "cat", "open", "get", "load", "glob", "grep", "search", "list", "ls",
                         "find", "stat", "head", "tail"})
_WRITE_VERBS = frozenset({"write", "edit", "create", "save", "append", "update", "put", "patch", "replace",
                          "insert", "multiedit", "notebookedit", "touch", "mkdir", "upload", "str"})
_DELETE_VERBS = frozenset({"delete", "remove", "rm", "rmdir", "unlink", "trash", "shred"})
_MOVE_VERBS = frozenset({"move", "rename", "mv"})
_PATH_KEYS = ("file_path", "path", "filepath", "filename", "file", "notebook_path")
_TO_KEYS = ("to", "destination", "dest", "dst", "new_path", "target", "destination_path", "dest_path", "target_path")
# any other spelling of a file's key (`filePath`, `target_file`, `absolute_path`), compared folded
_PATH_KEY = re.compile(r"^(?:[a-z]+_)?(?:file_?path|path|file_?name|file)$")
_URL_KEYS = ("url", "uri", "href", "link")
_COMMAND_KEYS = ("command", "cmd", "script", "shell")
# other spellings of a command line's key (`cli_command`, `commandLine`, `shell_command`, `bash`, `c-m-d`), compared
# folded and without separators; the plural ones hold several lines
_COMMAND_KEY = re.compile(r"^[a-z]*(?:command|cmd)(?:line)?$|^(?:bash|powershell|pwsh|sh|zsh|shell|script)$")
_COMMAND_LINES_KEY = re.compile(r"^[a-z]*(?:commands|cmds|commandlines|scripts)$")
# a program and its arguments given apart (`{"program": "rm", "args": ["-rf", "~"]}`)
_PROGRAM_KEYS = frozenset({"program", "executable", "exe", "binary", "bin", "command", "cmd"})
_ARGS_KEYS = frozenset({"args", "arguments", "argv", "argument", "params", "parameters", "flags", "options"})
_ENV_KEYS = frozenset({"env", "environment", "env_vars", "envs", "environment_variables", "extra_env"})
_STDIN_KEYS = frozenset({"stdin", "input", "stdin_text", "input_text"})
# what a terminal, console or shell tool is handed as the text it types (`{"input": "curl ... | sh\n"}`)
_TERMINAL = frozenset({"terminal", "shell", "bash", "sh", "zsh", "console", "tty", "pty", "pwsh", "powershell", "cmd",
                      "exec", "ssh", "tmux", "screen"})
_TERMINAL_TEXT = frozenset({"input", "text", "keys", "line", "stdin", "data", "chars", "command_text", "send_keys"})
_RUNS_FILE = frozenset({"run", "execute", "exec", "launch", "start", "source"})
_CONTENT_KEYS = ("content", "contents", "text", "data", "body", "new_source", "source", "file_text", "new_string",
                 "new_str", "code_edit", "code", "patch", "diff", "replacement", "insert_text", "new_content",
                 "updated_content")
# the editor tool's own verbs under its `command` key (`{"command": "create", "path": ..., "file_text": ...}`)
_EDITOR_COMMANDS = frozenset({"view", "create", "str_replace", "insert", "undo_edit", "write", "append"})
# code a tool runs: the key, and the words in the tool's name that say it runs what it is given
_CODE_KEYS = ("code", "source", "program", "python", "javascript", "js", "expression", "function", "snippet",
              "source_code", "expr", "cell", "src", "script_code", "input", "typescript", "ruby", "bash", "sh")
_RUNS_CODE = frozenset({"execute", "exec", "run", "eval", "evaluate", "python", "javascript", "js", "node", "repl",
                        "interpreter", "sandbox", "jupyter", "ipython", "notebook", "cell", "code", "ruby"})
_JS = frozenset({"javascript", "js", "node", "browser", "page", "evaluate", "playwright", "puppeteer"})
# the interpreter line that runs code in a language a tool names (`language`, `lang`, a file's suffix)
_INTERPRETERS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("python", "python3", "py", "ipython"), ("python3", "-c")),
    **dict.fromkeys(("javascript", "js", "node", "nodejs", "typescript", "ts", "mjs", "cjs"), ("node", "-e")),
    **dict.fromkeys(("ruby", "rb"), ("ruby", "-e")), **dict.fromkeys(("perl", "pl"), ("perl", "-e")),
    "php": ("php", "-r"), "r": ("Rscript", "-e"), "lua": ("lua", "-e"),
    **dict.fromkeys(("powershell", "pwsh", "ps1", "ps"), ("pwsh", "-Command")),
}
# languages whose code no shell runs as it stands (a label not known here is read as a shell line as well)
_OTHER_LANGUAGES = frozenset({"rust", "rs", "go", "golang", "c", "cpp", "c++", "cc", "java", "kotlin", "kt", "swift",
                              "csharp", "c#", "cs", "scala", "haskell", "hs", "sql", "julia", "jl", "dart", "elixir",
                              "erlang", "clojure", "zig", "html", "css", "json", "yaml", "markdown", "md",
                              "latex", "tex", "matlab", "octave", "fortran", "nim", "ocaml",
                              "fsharp", "vb", "groovy", "objc", "solidity", "wasm", "toml", "xml", "csv"})
_SHELL_LANGUAGES = frozenset({"bash", "sh", "shell", "zsh", "console", "terminal", "fish", "cmd", "bat"})
# a statement a database tool runs
_SQL_KEYS = ("sql", "query", "statement", "statements")
_SQL_KEY = re.compile(r"^(?:sql|query|q|statements?|sqlquery|querytext|sqltext|sqlstatement|querystring)$")
_DB_WORDS = frozenset({"sql", "query", "db", "database", "postgres", "postgresql", "pg", "mysql", "mariadb", "sqlite",
                       "mssql", "sqlserver", "bigquery", "snowflake", "redshift", "duckdb", "supabase", "clickhouse",
                       "oracle", "execute", "run", "neon", "turso", "cockroach", "migration", "migrate", "psql"})
# (or a client's own backslash command: psql's `\!` runs a shell line)
_SQL_START = re.compile(r"^\s*(?:\\[!a-z]|(?:with|select|insert|update|delete|drop|truncate|alter|create|grant|revoke|"
                        r"copy|exec|execute|call|merge|replace|load|attach|pragma|set|do|begin|vacuum|declare)\b)",
                        re.I)
# comments, blanks and brackets before a statement's first word (`/* x */ DROP ...`, `(SELECT 1); COPY ...`)
_SQL_LEAD = re.compile(r"^(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/|\(|#[^\n]*(?:\n|$))*", re.S)
# what a tool sends or publishes: the verb in its name, and the keys of the text that goes
_SENDS = frozenset({"send", "post", "reply", "comment", "publish", "tweet", "message", "email", "mail", "chat", "share",
                    "submit", "forward", "dm", "draft", "review", "issue", "pr", "pull", "note", "status", "fill",
                    "type", "write", "create", "update", "add", "edit", "upload"})
_TEXT_KEYS = ("text", "body", "message", "content", "comment", "description", "markdown", "html", "caption",
              "status", "subject", "title", "value", "prompt", "note", "reply", "msg", "html_body", "text_body",
              "plain_text", "summary", "blocks", "attachments_text", "payload")
_TARGET_KEYS = ("element", "selector", "field", "label", "name", "ref", "placeholder")
# tools that send a message somewhere (a file under `files` of a `write` tool is the file written, not attached)
_MESSAGES = frozenset({"send", "post", "reply", "comment", "publish", "tweet", "message", "email", "mail", "chat",
                       "share", "forward", "dm", "upload", "attach"})
# files a message carries (`attachments`, `attachment_path`): what leaves with it
_ATTACH_KEY = re.compile(r"^(?:[a-z]+_)?(?:attachments?|attach(?:ed)?_?(?:files?|paths?)?|files?_?paths?|files)$")
# a tool that makes an HTTP request, and the parts of it that go out
_HTTP = frozenset({"http", "request", "fetch", "api", "webhook", "curl", "rest", "graphql"})
_HTTP_BODY = frozenset({"body", "data", "json", "payload", "form", "content"})


def _folded_key(key: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", _CAMEL.sub("_", key.strip()).lower()).strip("_")


def _flat(data: Mapping[str, Any], depth: int = 0) -> list[tuple[str, Any]]:
    """(folded key, value) of a tool input and of the objects nested in it (`{"params": {"command": ...}}`,
    Slack's blocks), the outer ones first, three levels deep."""
    out: list[tuple[str, Any]] = []
    inner: list[Mapping[str, Any]] = []
    for k, v in list(data.items())[:256]:
        if not isinstance(k, str):
            continue
        out.append((_folded_key(k), v))
        if depth < 3 and isinstance(v, Mapping):
            inner.append(v)
        elif depth < 3 and isinstance(v, list | tuple):
            inner.extend(x for x in v[:16] if isinstance(x, Mapping))
    for v in inner:
        out.extend(_flat(v, depth + 1))
    return out


def _string_at(data: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[str, str] | None:
    for k in keys:
        v = data.get(k)
        if isinstance(v, str) and v.strip():
            return k, v
    return None


def _flat_string(flat: list[tuple[str, Any]], keys: tuple[str, ...] | frozenset[str]) -> tuple[str, str] | None:
    """The first non-blank string under one of `keys`, in the order of `keys`, outer objects first."""
    for k in keys:
        for fk, v in flat:
            if fk == k and isinstance(v, str) and v.strip():
                return k, v
    return None


def _argv(value: Any) -> list[str] | None:
    if isinstance(value, list | tuple) and value and all(isinstance(w, str | int | float) for w in value[:256]):
        return [str(w) for w in value[:256]]
    return None


def _command_of(data: Mapping[str, Any], verbs: set[str] = frozenset()) -> str | None:  # type: ignore[assignment]
    """Every command line the input carries, one a line: under any command key's spelling, at any of the first
    levels; a list under a singular key is one command's words, under a plural key several lines; a program
    and its arguments given apart make one line; a terminal tool's typed input is a line too."""
    flat = _flat(data)
    lines: list[str] = []
    program: str | None = None
    args: list[str] | str | None = None
    for k, v in flat:
        bare = k.replace("_", "")
        if k in _COMMAND_KEYS or _COMMAND_KEY.match(bare):
            if isinstance(v, str) and v.strip():
                lines.append(v)
            elif (words := _argv(v)) is not None:
                lines.append(shlex.join(words))
        elif _COMMAND_LINES_KEY.match(bare) and isinstance(v, list | tuple):
            lines.extend(str(x) for x in v[:64] if isinstance(x, str) and x.strip())
        elif verbs & _TERMINAL and k in _TERMINAL_TEXT and isinstance(v, str) and v.strip():
            lines.append(v)
        if k in _PROGRAM_KEYS and isinstance(v, str) and v.strip() and program is None:
            program = v
        if k in _ARGS_KEYS and args is None and (isinstance(v, str) or _argv(v) is not None):
            args = v if isinstance(v, str) else _argv(v)
    if args:
        words = args if isinstance(args, str) else shlex.join(args)
        if program is not None:
            lines = [ln for ln in lines if ln != program]
            lines.insert(0, f"{program} {words}")
        elif not isinstance(args, str):
            lines.append(words)  # `{"argv": ["rm", "-rf", "/"]}`
    if not lines:
        return None
    # a command key that names an editor's verb is not a command line (`{"command": "create", "path": ...}`)
    lines = [ln.rstrip("\r\n") for ln in dict.fromkeys(lines) if ln.strip() not in _EDITOR_COMMANDS]
    if not lines:
        return None
    # the environment it runs with is part of the command (`{"env": {"LD_PRELOAD": ...}}`), and so is what it reads
    env = next((v for k, v in flat if k in _ENV_KEYS and isinstance(v, Mapping)), None)
    if env:
        prefix = shlex.join(["env", *(f"{k}={v}" for k, v in list(env.items())[:64]
                                      if isinstance(k, str) and isinstance(v, str | int | float))])
        lines = [f"{prefix} {ln}" for ln in lines]
    fed = next((v for k, v in flat if k in _STDIN_KEYS and isinstance(v, str) and v.strip()), None)
    if fed is not None and not verbs & _TERMINAL and len(lines) == 1:
        lines = [f"echo {shlex.quote(fed)} | {lines[0]}"]
    return "\n".join(lines)


def _interpreter_line(language: str, code: str) -> str:
    """`code` as the line that runs it in `language`; code that cannot be the Python it is said to be (or in a
    language not known) is judged as a shell line as well: a tool may run it as one."""
    language = language.lower().strip().lstrip(".")
    if language in _SHELL_LANGUAGES:
        return code
    runner = _INTERPRETERS.get(language)
    line = shlex.join([*(runner or ("python3", "-c")), code])
    if runner is None and language and language not in _OTHER_LANGUAGES:
        return f"{line}\n{_as_shell(code)}"
    if runner is None and language:
        return line
    if runner is not None and runner[0] != "python3":
        return line
    try:
        ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return f"{line}\n{_as_shell(code)}"  # not Python (`!rm -rf ~` in a notebook cell, a shell line called python)
    return line


def _as_shell(code: str) -> str:
    """Code read as shell lines. In a notebook cell (Python with `!cmd` escapes and `%magic` lines) only the
    escaped lines and a `%%bash` / `%%sh` / `%%script` cell's body are shell; other code is read whole."""
    escaped: list[str] = []
    rest: list[str] = []
    shell_cell = False
    for ln in code.splitlines()[:2000]:
        bare = ln.lstrip()
        if bare.startswith("%%"):
            shell_cell = bare[2:].split()[:1] in (["bash"], ["sh"], ["script"], ["system"], ["zsh"])
            continue
        if shell_cell:
            escaped.append(ln)
        elif bare.startswith("!"):
            escaped.append(bare.lstrip("!"))
        elif bare.startswith("%"):
            escaped.append(bare.split(None, 1)[1] if bare.split()[0] in ("%sx", "%system") and " " in bare else "")
        else:
            rest.append(ln)
    try:
        ast.parse("\n".join(rest))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code if not escaped else "\n".join([*escaped, *rest])
    return "\n".join(e for e in escaped if e)


def _code_as_command(verbs: set[str], data: Mapping[str, Any]) -> str | None:
    """A tool that runs code it is given (`execute_python`, `browser_evaluate`, `run_code`): the code as the
    interpreter one-liner that runs it, so the shell rules read what it deletes, writes and sends."""
    if not verbs & _RUNS_CODE:
        return None
    flat = _flat(data)
    lang = next((v for k, v in flat if k in ("language", "lang", "runtime", "kernel") and isinstance(v, str)), "")
    hit = _flat_string(flat, _CODE_KEYS)
    if hit is None:
        # files handed to the runner (`{"files": [{"name": "main.py", "content": ...}]}`): each as its language
        files = [(str(f.get("name") or f.get("path") or ""), f.get("content") or f.get("code") or f.get("text"))
                 for k, v in flat if k == "files" and isinstance(v, list | tuple) for f in v[:16]
                 if isinstance(f, Mapping)]
        runs = [_interpreter_line(lang or n.rsplit(".", 1)[-1] if "." in n else lang, c) for n, c in files
                if isinstance(c, str) and c.strip()]
        return "\n".join(runs) if runs else None
    key, code = hit
    if verbs & {"bash", "shell", "sh", "terminal"} or key in ("bash", "sh"):
        return code
    if not lang and (verbs & _JS or key in ("javascript", "js", "typescript")):
        lang = "javascript"
    if not lang and ("ruby" in verbs or key == "ruby"):
        lang = "ruby"
    return _interpreter_line(lang or "python", code)


# a browser automation tool (Playwright's, Puppeteer's, a CDP or Selenium bridge): code it evaluates runs in the
# page, as the person logged in there, not on the machine
_BROWSER_TOOL = frozenset({"browser", "page", "playwright", "puppeteer", "selenium", "webdriver", "chrome", "tab",
                           "webview", "cdp", "frame"})
_PAGE_OBJECTS = re.compile(r"\b(?:document|window|localStorage|sessionStorage|indexedDB|navigator|location|"
                           r"cookieStore|globalThis|self|top|parent|frames)\b")
_PAGE_CODE_KEYS = ("function", "script", "expression", "code", "js", "javascript", "source", "snippet")


def _page_script(verbs: set[str], data: Mapping[str, Any]) -> Type | None:
    """A browser tool's script (`browser_evaluate {"function": ...}`, `playwright_evaluate {"script": ...}`) as
    JavaScript typed into the page's developer console: the console rules judge what it reads and sends."""
    if not (verbs & _BROWSER_TOOL and verbs & {"evaluate", "eval", "execute", "exec", "run", "inject", "script"}):
        return None
    hit = _flat_string(_flat(data), _PAGE_CODE_KEYS)
    if hit is None or not _PAGE_OBJECTS.search(hit[1]):
        return None  # code that names nothing of a page is judged as the Node one-liner it may as well be
    return Type(text=hit[1][:100_000], target=Target(label="JavaScript to run in the page", name="browser_evaluate"))


def _sql_as_command(verbs: set[str], data: Mapping[str, Any]) -> str | None:
    """A database tool's statement as the database client line that runs it (sqlite3 for a local file,
    psql for a server), so the SQL rules judge it."""
    if not verbs & _DB_WORDS:
        return None
    flat = _flat(data)
    hit = _flat_string(flat, _SQL_KEYS) or next(((k, v) for k, v in flat if _SQL_KEY.match(k.replace("_", "")) and
                                                  isinstance(v, str) and v.strip()), None)
    if hit is None:
        return None
    statement = hit[1][_SQL_LEAD.match(hit[1]).end():]  # type: ignore[union-attr]
    if not _SQL_START.match(statement):
        return None
    client = ["sqlite3", "db.sqlite"] if verbs & {"sqlite", "duckdb", "turso"} else ["psql"]
    return shlex.join([*client, "-c" if client == ["psql"] else hit[1], *([hit[1]] if client == ["psql"] else [])])


def _http_body(verbs: set[str], data: Mapping[str, Any], url: str) -> Type | None:
    """A tool that makes an HTTP request with a body (`http_request`, `fetch` with POST): the body as text typed
    into a field named for where it goes, so the rules for typed text judge the secrets and records in it."""
    if not verbs & _HTTP:
        return None
    flat = _flat(data)
    body = next((v for k, v in flat if k in _HTTP_BODY and v not in (None, "", {}, [])), None)
    if body is None:
        return None
    text = body if isinstance(body, str) else "\n".join(f"{k}: {v}" for k, v in _flat(body)
                                                         if isinstance(v, str | int | float)) \
        if isinstance(body, Mapping) else msgspec.json.encode(body).decode()
    return Type(text=text[:100_000], target=Target(label=f"request body to {url[:200]}", role="textbox",
                                                   name="http request"))


def _sent_text(verbs: set[str], name: str, data: Mapping[str, Any]) -> Type | None:
    """What a tool that sends, posts or fills in puts out (`send_email` body, `create_issue` title and body,
    `browser_type` text), as text typed into a field named for it: the rules for typed text judge secrets,
    personal records, harmful content and injected instructions in it. Nested parts count (Slack's blocks)."""
    if not verbs & _SENDS:
        return None
    flat = _flat(data)
    parts = [(k, v) for k in _TEXT_KEYS for fk, v in flat if fk == k and isinstance(v, str) and v.strip()]
    if not parts:
        return None
    text = "\n".join(v for _, v in parts)[:100_000]
    where = _string_at(data, _TARGET_KEYS)
    label = where[1][:200] if where is not None else f"{parts[0][0]} of {name[:120]}"
    role = "textbox" if where is None else None
    return Type(text=text, target=Target(label=label, role=role, name=name[:200]))


_SECRET_FILE = re.compile(r"(?:^|/)(?:\.ssh|\.aws|\.gnupg|\.kube|\.docker)/|id_(?:rsa|dsa|ecdsa|ed25519)|\.(?:pem|key|"
                          r"p12|pfx|kdbx)$|(?:^|/)\.env\b|credential|secret|token|passw", re.I)


def _attached(verbs: set[str], flat: list[tuple[str, Any]]) -> str | None:
    """The file a message carries (the one whose name reads like a secret first), for a tool that sends."""
    if not verbs & _MESSAGES:
        return None
    paths: list[str] = []
    for k, v in flat:
        if _ATTACH_KEY.match(k):
            for x in (v if isinstance(v, list | tuple) else [v])[:32]:
                p = x if isinstance(x, str) else (x.get("path") or x.get("file_path") or x.get("filename")) \
                    if isinstance(x, Mapping) else None
                if isinstance(p, str) and p.strip() and ("/" in p or "\\" in p or "." in p):
                    paths.append(p)
    return next((p for p in paths if _SECRET_FILE.search(p)), paths[0] if paths else None)


def _path_of(data: Mapping[str, Any]) -> str | None:
    hit = _string_at(data, _PATH_KEYS)
    if hit is not None:
        return hit[1]
    return next((v for k, v in data.items() if isinstance(k, str) and isinstance(v, str) and v and
                 _folded_key(k) not in _TO_KEYS and _PATH_KEY.match(_folded_key(k))), None)


def tool_as_action(ctx: Context) -> Action | None:
    """The action a `tool` call obviously is (file / navigate / shell / typed text), or None."""
    a = ctx.action
    if a.type != "tool" or not a.input:  # type: ignore[union-attr]
        return None
    data: Mapping[str, Any] = a.input  # type: ignore[union-attr]
    verbs = _tokens(a.name)  # type: ignore[union-attr]
    if isinstance(data.get("action"), str):  # a computer-use tool's {"action": "type", "text": ...}
        verbs |= _tokens(data["action"][:64])
    editor = data.get("command") if isinstance(data.get("command"), str) else None
    if editor in _EDITOR_COMMANDS:  # the editor tool: {"command": "create", "path": ..., "file_text": ...}
        verbs |= _tokens(editor)
    command = _command_of(data, verbs)
    try:
        if (container := _container_run(verbs, data)) is not None:
            return container
        if command is None and (line := _cli_tool_line(a.name, data)) is not None:  # type: ignore[union-attr]
            return line
        if (script := _page_script(verbs, data)) is not None:
            return script
        if command is not None:
            cwd = data.get("cwd")
            return Shell(command=command[:100_000], cwd=cwd if isinstance(cwd, str) else None)
        path = _path_of(data)
        if path is not None:
            to = next((data[k] for k in _TO_KEYS if isinstance(data.get(k), str) and data[k]), None)
            if verbs & _MOVE_VERBS and to is not None:
                return FileMove(path=path, to=to)
            if verbs & _DELETE_VERBS:
                return FileDelete(path=path)
            if verbs & _RUNS_FILE and not verbs & (_READ_VERBS | _WRITE_VERBS):
                # `run_script {"path": ...}`: the file run, as the line that runs it (a file the agent wrote is
                # then judged by what it holds)
                runner = _INTERPRETERS.get(path.rsplit(".", 1)[-1].lower(), ("sh",))[0] if "." in path else "sh"
                return Shell(command=shlex.join([runner, path]))
            if verbs & _WRITE_VERBS:
                content = [v for k in _CONTENT_KEYS if isinstance(v := data.get(k), str) and v]
                return FileWrite(path=path, content="\n".join(content)[:1_000_000])
            return FileRead(path=path)  # Glob/Grep/Read and tools we cannot place: at least the read rules
        attached = _attached(verbs, _flat(data))
        if attached is not None:
            return FileRead(path=attached)  # what a message carries out is read first
        url = next((data[k] for k in _URL_KEYS if isinstance(data.get(k), str) and data[k]), None)
        if url is not None and (sent := _http_body(verbs, data, url)) is not None:
            return sent
        if url is not None and not verbs & _SENDS:
            return Navigate(url=url)
        code = _code_as_command(verbs, data) or _sql_as_command(verbs, data)
        if code is not None:
            return Shell(command=code[:100_000])
        typed = _sent_text(verbs, a.name, data)  # type: ignore[union-attr]
        if typed is not None:
            return typed
        if url is not None:
            return Navigate(url=url)
        if verbs & _CLICKS and (where := _string_at(data, _TARGET_KEYS)) is not None:
            # a browser tool's click on an element it names (`browser_click {"element": "Delete account button"}`):
            # the click rules judge what it names
            return Click(x=0, y=0, target=Target(label=where[1][:200], name=a.name[:200]))  # type: ignore[union-attr]
    except (msgspec.ValidationError, ValueError):
        return None
    return None


# the families a mapped action is judged by: what the action is, never the agent's history or the kiosk lists
_MAPPED_FAMILIES = ("gui", "privacy", "harmful", "page", "webapp", "typed_out", "typed", "shell", "files",
                    "content", "web", "navigate")


def _family_rules(kind: str) -> tuple[Rule, ...]:
    import importlib

    out: list[Rule] = []
    for family in _MAPPED_FAMILIES:
        module = importlib.import_module(f"gate.rules.{family}")
        out.extend(r for r in module.RULES if r.types is None or kind in r.types)
    return tuple(out)


_FAMILY_RULES: dict[str, tuple[Rule, ...]] = {}


# what else a tool input holds, judged besides the action it maps to: paths anywhere in it (`{"paths": [...]}`,
# a copy's source, a files list), command lines under keys no mapping names (`{"steps": [{"run": ...}]}`, a
# schedule's job), a patch's files
_PATH_VALUE = re.compile(r"^(?:~|/|\$HOME\b|\$\{HOME\}|file://|[A-Za-z]:[\\/]|%USERPROFILE%)", re.I)
_SOURCE_KEYS = frozenset({"source", "src", "from", "source_path", "old_path", "origin"})
_DEST_KEYS = frozenset({"destination", "dest", "dst", "to", "target", "new_path", "destination_path", "dest_path",
                        "target_path"})
_PATCH_FILE = re.compile(r"^(?:\*\*\* (?:Update|Add) File: |\+\+\+ (?:b/)?)(?P<path>\S[^\n]*)$", re.M)
_RUNS_SOMETHING = frozenset({"run", "exec", "execute", "shell", "terminal", "bash", "eval", "script", "command",
                             "cmd", "job", "task", "cron", "schedule", "workflow", "pipeline"})
_SCHEDULES = frozenset({"cron", "crontab", "schedule", "scheduled", "timer", "recurring", "periodic"})
MAX_EXTRA = 16


def _strings_with_keys(value: Any, key: str = "", parent: Mapping[str, Any] | None = None,
                       depth: int = 0) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """(folded key, string, the object it is in) for every string of a tool input, eight levels deep. A string
    that is itself a JSON object or list (`{"options": "{\\"command\\": ...}"}`) is read as what it holds: a
    tool may parse it and find its command or path there."""
    if isinstance(value, str):
        inner = _json_inside(value) if depth < 8 else None
        if inner is not None:
            yield from _strings_with_keys(inner, key, parent, depth + 1)
        else:
            yield key, value[:100_000], parent or {}
    elif depth < 8 and isinstance(value, Mapping):
        for k, v in list(value.items())[:256]:
            if isinstance(k, str):
                yield from _strings_with_keys(v, _folded_key(k), value, depth + 1)
    elif depth < 8 and isinstance(value, list | tuple):
        for v in value[:32]:
            yield from _strings_with_keys(v, key, parent, depth + 1)


def _json_inside(value: str) -> Any:
    """The object or list a string holds as JSON, or None (only a string that starts and ends like one)."""
    text = value.strip()
    if 16 <= len(text) <= 65_536 and text[:2] in ("ey", "W3", "Wy") and _ENCODED.match(text):
        # base64 of a JSON object or list (`eyJjb21tYW5kIjog…` is `{"command": …`): read as what it holds
        try:
            text = base64.b64decode(text.replace("-", "+").replace("_", "/") + "=" * (-len(text) % 4),
                                    validate=True).decode("utf-8").strip()
        except (binascii.Error, ValueError):
            return None
    if len(text) < 2 or len(text) > 1_000_000 or (text[0], text[-1]) not in (("{", "}"), ("[", "]")):
        return None
    try:
        got = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return got if isinstance(got, dict | list) and got else None


def _runs_key(key: str) -> bool:
    """A key whose value a tool runs, whatever the tool is called (`exec`, `command`, `shell_cmd`, `scripts`)."""
    bare = key.replace("_", "")
    return key in _RUNS_SOMETHING or bool(_COMMAND_KEY.match(bare) or _COMMAND_LINES_KEY.match(bare))


def _shell_like(text: str) -> bool:
    """A command line a tool would run: a program the table describes (or a shell) first, with arguments."""
    from gate.effects import program_effects
    from gate.shell import SHELLS

    first = text.strip().split(None, 1)
    if len(first) < 2 or "\n\n" in text:
        return False
    name = first[0].rsplit("/", 1)[-1].lower()
    return name in SHELLS or name in ("sudo", "doas") or program_effects(name) is not None


_ENCODED = re.compile(r"^[A-Za-z0-9+/_-]{8,}={0,2}$")
_HEX = re.compile(r"^(?:0x|\\x)?(?:[0-9a-fA-F]{2}(?:\\x)?){8,}$")


def _encoded_line(value: str) -> str | None:
    """The command line a base64 value stands for (`{"payload": "cm0gLXJmIH4="}`): a tool that runs what it is
    handed may decode it first, so the line is judged as if it were given plainly."""
    if len(value) > 65_536:
        return None
    if _HEX.match(value) and not value.isdigit():  # hex (`6375726c...`, `\x63\x75...`): the same line, another spelling
        try:
            text = bytes.fromhex(value.removeprefix("0x").replace("\\x", "")).decode("utf-8")
        except ValueError:
            text = ""
        if text and text.isprintable() and _shell_like(text):
            return text
    if not _ENCODED.match(value) or value.isalpha():
        return None
    try:
        raw = base64.b64decode(value.replace("-", "+").replace("_", "/") + "=" * (-len(value) % 4), validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    return text if text.isprintable() and _shell_like(text) else None


def extra_actions(ctx: Context) -> tuple[Action, ...]:
    """The other actions a tool input carries beside the one it maps to (see `_PATH_VALUE` above)."""
    a = ctx.action
    if a.type != "tool" or not a.input:  # type: ignore[union-attr]
        return ()
    data: Mapping[str, Any] = a.input  # type: ignore[union-attr]
    primary = ctx.derived(tool_as_action)
    verbs = _tokens(a.name)  # type: ignore[union-attr]
    sends = bool(verbs & _SENDS)
    # a search or a read is given a pattern, not a command (`search_code {"query": "rm -rf"}`)
    looks_up = bool(verbs & _READ_VERBS) and not verbs & _RUNS_SOMETHING
    seen = {getattr(primary, "path", None), getattr(primary, "to", None), getattr(primary, "url", None)}
    command = getattr(primary, "command", None) or ""
    seen.update(ln.strip() for ln in command.splitlines())
    # a line the mapping wrote around what the input gave (`psql -c '<sql>'`), not one the input gave itself
    mapped = bool(command) and _command_of(data, verbs) is None
    out: list[Action] = []
    paths: list[str] = []
    try:
        for key, text, parent in _strings_with_keys(data):
            if len(out) >= MAX_EXTRA:
                break
            value = text.strip()
            if "\n" not in value and _PATH_VALUE.match(value) and key not in ("cwd", "workdir", "working_directory"):
                paths.append(value)
            # a search is handed a pattern, but a value under a key a tool runs (`exec`, `command`) is a command
            # line whatever the tool is called (`view {"path": ..., "exec": ...}`)
            runs = not looks_up or _runs_key(key)
            if runs and "\n" not in value and (decoded := _encoded_line(value)):
                out.append(Shell(command=decoded))
                continue
            if not value or value in seen or (mapped and shlex.quote(value) in command):
                continue  # (a statement or code the mapped line hands its runner whole: judged there)
            if key in ("patch", "diff") and (files := _PATCH_FILE.findall(value)):
                added = "\n".join(ln[1:] for ln in value.splitlines() if ln.startswith("+") and
                                  not ln.startswith("+++"))
                out.extend(FileWrite(path=f.strip(), content=added[:1_000_000]) for f in files[:4])
                continue
            if "\n" not in value and _PATH_VALUE.match(value):
                path = value[7:] if value.lower().startswith("file://") else value
                if verbs & _DELETE_VERBS:
                    out.append(FileDelete(path=path))
                elif key in _DEST_KEYS or (verbs & _WRITE_VERBS and key not in _SOURCE_KEYS):
                    content = next((v for k in _CONTENT_KEYS if isinstance(v := parent.get(k), str)), "")
                    out.append(FileWrite(path=path, content=content[:1_000_000]))
                else:
                    out.append(FileRead(path=path))
                continue
            if not (sends and key in _TEXT_KEYS) and runs and _shell_like(value):
                if verbs & _SCHEDULES or key in ("job", "cron", "schedule"):
                    when = next((v for k, v in parent.items() if isinstance(v, str) and _folded_key(k) in
                                 ("schedule", "cron", "when", "expression", "interval")), "* * * * *")
                    out.append(Shell(command=f"echo {shlex.quote(f'{when} {value}')} | crontab -"))
                else:
                    out.append(Shell(command=value))
        if command and "\n" not in command and paths:
            # the command with the paths its input names elsewhere (`{"cmd": "rm -rf", "path": "/"}`): a tool may
            # hand them to it as its arguments
            out.append(Shell(command=f"{command} {shlex.join(paths[:8])}"))
    except (msgspec.ValidationError, ValueError):
        return tuple(out)
    return tuple(out)


# A tool named for a command-line program and its verb (`git_clean`, `mcp__git__git_reset`, `kubectl_delete`): the
# command line it runs, so the shell rules judge it as they judge the same line typed (`git clean -f -d`).
_CLI_TOOLS = frozenset({"git", "docker", "podman", "kubectl", "helm", "npm", "pnpm", "yarn", "pip", "gh", "glab",
                        "terraform", "cargo", "brew", "systemctl", "apt", "redis", "aws", "gcloud", "az"})
# the input keys that name where it runs (its working folder), not what it acts on
_CLI_WHERE = frozenset({"path", "repo_path", "repo", "repository_path", "cwd", "workdir", "working_directory",
                        "directory", "dir", "project_path", "root"})
# boolean inputs whose flag is not `--<key>`
_CLI_SWITCHES = {"directories": "-d", "dirs": "-d", "remove_directories": "-d", "ignored": "-x",
                 "include_ignored": "-x", "remove_ignored": "-x", "dry_run": "--dry-run", "no_verify": "--no-verify",
                 "set_upstream": "--set-upstream", "create_branch": "-b", "new_branch": "-b", "include_untracked": "-u"}
# values of a `mode`/`action` input that are a flag of the verb (`git_reset {"mode": "hard"}`)
_CLI_MODE_FLAGS = frozenset({"hard", "soft", "mixed", "keep", "merge"})
_CLI_DELETES = frozenset({"delete", "remove", "rm", "del"})


def _cli_tool_line(name: str, data: Mapping[str, Any]) -> Shell | None:
    words = _own_tool_name(name)
    if len(words) < 2 or words[0] not in _CLI_TOOLS:
        return None
    program, verb = words[0], "-".join(words[1:])
    argv = [program, verb]
    cwd = None
    force = False
    for k, v in list(data.items())[:64]:
        key = _folded_key(k) if isinstance(k, str) else ""
        if key in _CLI_WHERE and isinstance(v, str):
            cwd = v
        elif key in ("mode", "action", "operation", "subcommand", "command") and isinstance(v, str) and v.strip():
            mode = v.strip().lower()
            if mode in _CLI_MODE_FLAGS:
                argv.append(f"--{mode}")
            elif mode in _CLI_DELETES and verb in ("branch", "tag"):
                argv.append("-d")
            else:
                argv.append(mode.split()[0][:64])
        elif isinstance(v, bool):
            if v:
                force = force or key == "force"
                argv.append(_CLI_SWITCHES.get(key, "--" + key.replace("_", "-")))
        elif key in ("message", "msg", "commit_message") and isinstance(v, str):
            argv += ["-m", v[:4096]]
        elif isinstance(v, str) and v and not key.endswith(("token", "password", "secret")):
            argv.append(v[:4096])
        elif isinstance(v, list | tuple):
            argv += [x[:4096] for x in v[:32] if isinstance(x, str)]
    if force and "-d" in argv and verb == "branch":
        argv[argv.index("-d")] = "-D"
    return Shell(command=shlex.join(argv), cwd=cwd)


_CONTAINER = frozenset({"docker", "podman", "container", "containers"})
_CONTAINER_FLAGS = {"privileged": "--privileged", "pid_mode": "--pid", "pid": "--pid", "network_mode": "--network",
                    "network": "--network", "ipc_mode": "--ipc", "userns_mode": "--userns", "cap_add": "--cap-add",
                    "security_opt": "--security-opt", "devices": "--device", "device": "--device", "user": "--user"}
_VOLUME_KEYS = frozenset({"volumes", "volume", "mounts", "binds", "bind", "mount"})


def _container_run(verbs: set[str], data: Mapping[str, Any]) -> Shell | None:
    """A tool that starts a container (`docker_run {"image": ..., "privileged": true, "volumes": ["/:/h"]}`): the
    `docker run` line it amounts to, so the container rules judge the host it reaches."""
    image = data.get("image")
    if not (verbs & _CONTAINER and verbs & {"run", "create", "start", "exec"}) or not isinstance(image, str):
        return None
    argv = ["docker", "run"]
    for k, v in list(data.items())[:64]:
        key = _folded_key(k) if isinstance(k, str) else ""
        values = v if isinstance(v, list | tuple) else [v]
        if key in _VOLUME_KEYS:
            for x in values[:16]:
                if isinstance(x, str):
                    argv += ["-v", x]
                elif isinstance(x, Mapping) and isinstance(host := x.get("source") or x.get("host"), str):
                    argv += ["-v", f"{host}:{x.get('target') or x.get('container') or '/m'}"]
            if isinstance(v, Mapping):  # {"/": {"bind": "/host"}}
                argv += [arg for host, spec in list(v.items())[:16] for arg in
                         ("-v", f"{host}:{spec.get('bind', '/m') if isinstance(spec, Mapping) else spec}")]
        elif key in _CONTAINER_FLAGS:
            flag = _CONTAINER_FLAGS[key]
            if v is True:
                argv.append(flag)
            else:
                argv += [f"{flag}={x}" for x in values[:16] if isinstance(x, str | int) and not isinstance(x, bool)]
    argv.append(image)
    cmd = data.get("command") or data.get("cmd")
    if isinstance(cmd, str):
        argv += shlex.split(cmd, posix=True) if cmd.count("'") % 2 == 0 and cmd.count('"') % 2 == 0 else [cmd]
    elif (words := _argv(cmd)) is not None:
        argv += words
    return Shell(command=shlex.join(argv))


def _mapped_hits(ctx: Context) -> tuple[tuple[Hit, str], ...]:
    """Each hit of the families' rules on the action a tool call maps to and on the others it carries, with
    the type of the action it was found on."""
    mapped = ctx.derived(tool_as_action)
    actions = (*((mapped,) if mapped is not None else ()), *ctx.derived(extra_actions))
    disabled = ctx.compiled.disabled
    out: list[tuple[Hit, str]] = []
    for action in actions:
        family = _FAMILY_RULES.get(action.type)
        if family is None:
            family = _FAMILY_RULES[action.type] = _family_rules(action.type)
        inner = Context(action, ctx.observation, ctx.compiled, None)
        out.extend((h, action.type) for r in family if r.id not in disabled and (h := r(inner)) is not None)
    return tuple(out)


def _strongest(ctx: Context, decision: Decision) -> CheckResult:
    hits = [(h, kind) for h, kind in ctx.derived(_mapped_hits) if h.decision is decision]
    if not hits:
        return None
    top, kind = max(hits, key=lambda hk: hk[0].risk)
    return f"as {kind}: {top.reason} [{top.rule}]", top.risk


@rule("block.tool.mapped", "a tool call the file/web/shell rules block", risk=Risk.HIGH, types=("tool",))
def tool_mapped_block(ctx: Context) -> CheckResult:
    """A tool call read as the file, navigation or shell action it is (by its input's `path`, `url` or
    `command` and the verb in its name), and blocked by that family's rules. What else the input carries is
    judged too: paths and command lines under any key, also inside a string that holds JSON, written in
    base64 or hex, or under a key a tool runs (`exec`, `post_command`) on a tool named like a reader."""
    return _strongest(ctx, Decision.BLOCK)


@rule("confirm.tool.mapped", "a tool call the file/web/shell rules ask about", risk=Risk.MEDIUM,
      types=("tool",))
def tool_mapped_confirm(ctx: Context) -> CheckResult:
    """The same mapping, where that family's rules ask a person."""
    return _strongest(ctx, Decision.CONFIRM)


@rule("block.tool.supervisor-tamper", "a tool call aimed at deskgate itself", risk=Risk.CRITICAL,
      types=("tool",))
def tool_supervisor_tamper(ctx: Context) -> CheckResult:
    """A tool whose input names deskgate's own files or sockets in any field (`{"source":
    ".../deskgate/killed.json"}`, code that deletes the kill state, a Read, Grep or Glob of the audit log or
    the key): the agent attacking its supervisor, whichever key or tool it goes through."""
    from gate.rules.shell_effects import OWN_NAMES

    a = ctx.action
    verbs = _tokens(a.name)  # type: ignore[union-attr]
    # a reader (Read, Grep, Glob) is judged by the paths it names, not by a search pattern that mentions a name
    reader = bool(verbs & _READ_VERBS and not verbs & (_WRITE_VERBS | _DELETE_VERBS | _MOVE_VERBS))
    patterns = ctx.compiled.supervisor_exact
    for text in _strings(a.input or {}):  # type: ignore[union-attr]
        if not reader and (m := OWN_NAMES.search(text)):
            return f"tool {a.name!r} names deskgate's own {m.group(0)!r}"  # type: ignore[union-attr]
        if text.startswith(("/", "~", "$")) and "\n" not in text:
            try:
                real = resolve(text).lower()
            except ValueError:
                continue
            if any(p.search(real) for p in patterns):
                return f"tool {a.name!r} acts on {real}: deskgate's own files"  # type: ignore[union-attr]
    return None


RULES: tuple[Rule, ...] = (
    invalid_level,
    invalid_delay,
    delay_over_cap,
    package_injection,
    unknown_system,
    app_injection,
    app_path,
    tool_destructive,
    tool_sends,
    tool_mapped_block,
    tool_mapped_confirm,
    tool_supervisor_tamper,
)
