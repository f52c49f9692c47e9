"""Shell checks: a coding agent's own settings changed from the shell.

A coding agent (Claude Code, Codex, Gemini CLI, Cursor, VS Code's chat, ...) keeps its guard in its settings:
which commands it may run unasked, which MCP servers start with it, which hooks run at each tool call
(gate/content.py, kind "agent config"). An agent that edits them from the shell decides what it may do next:

- a line that names one of those files and a value that switches approvals off or allows every command
  (`bypassPermissions`, `Bash(*)`, `autoApprove`) blocks (`block.shell.defense-evasion`), whatever changes the
  file: `jq ... > s && mv s ~/.claude/settings.json`, `sed -i`, interpreter code. Any other change to them asks as
  a file that runs later does (`shell.persistence_paths` of resources/policy.toml, `confirm.shell.persistence`);
- an agent's own command that registers an MCP server (`claude mcp add NAME -- CMD`, `claude mcp add-json`,
  `gemini mcp add`, `codex mcp add`, `code --add-mcp JSON`) starts that command with every later session: the
  command is judged as the shell line it is, and what blocks there blocks;
- an agent's own command that widens what it may run (`claude config add allowedTools 'Bash(*)'`) blocks.

Literal text written into such a file (`echo '{...}' > .mcp.json`) is judged where every literal write into a
file that runs later is (gate/rules/shell_staging.py).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.content import runs_later
from gate.model import Risk
from gate.prefix import Guarded
from gate.shell import Command, Finding, ShellAnalysis, analyse, resolve_path

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["NAMES", "judge", "line", "registered_argv"]

Add = Callable[[Finding], None]

_AGENTS = frozenset({"claude", "gemini", "codex", "qwen", "code", "code-insiders", "cursor", "windsurf", "codium"})
NAMES = _AGENTS

# a value that switches approvals off or allows every command, anywhere on a line that names an agent's settings
# (searched on every shell line: a line without one of its words is not searched, `Guarded`)
_LOOSE_GUARD_OFF = Guarded(re.compile(
    r"bypasspermissions|dangerously-?skip-?permissions|\bbash\(\s*\*|\bbash\(:\*|autoapprov|alwaysallow|autoaccept|"
    r"\byolo\b|approval_policy|danger-full-access|enableallprojectmcpservers|disableallhooks|\"(?:bash|\*)\"\s*\]",
    re.IGNORECASE))
_WRITE_OPS = (">", ">>", ">|", "&>", "&>>")
# programs that only show a file: naming a settings file to them changes nothing
_READERS = frozenset({"cat", "bat", "less", "more", "head", "tail", "grep", "rg", "ag", "jq", "yq", "diff", "ls",
                      "stat", "file", "wc", "echo", "printf", "code", "vim", "nano"})
_WORDS = re.compile(r"[^\s'\"`(),;=|&<>{}\[\]]+")
_MCP_VERBS = ("add", "add-json")
# options of `mcp add` that take a value before the server's name (`-s user`, `-e KEY=value`, `-t stdio`)
_VALUE_OPTIONS = frozenset({"-s", "--scope", "-e", "--env", "-t", "--transport", "-H", "--header", "--timeout",
                            "--description", "--include-tools", "--exclude-tools"})


def _registered(cmd: Command) -> str | None:
    """The command line an agent's `mcp add` (or an editor's `--add-mcp`) registers, or None."""
    words = list(cmd.argv[1:])
    if cmd.name in ("code", "code-insiders", "cursor", "windsurf", "codium"):
        for k, w in enumerate(words):
            value = w.split("=", 1)[1] if w.startswith("--add-mcp=") else (
                words[k + 1] if w == "--add-mcp" and k + 1 < len(words) else None)
            if value is not None:
                return _json_command(value)
        return None
    if len(words) < 2 or words[0] != "mcp" or words[1] not in _MCP_VERBS:
        return None
    if words[1] == "add-json":
        value = next((w for w in words[2:] if w.lstrip().startswith("{")), None)
        return _json_command(value) if value else None
    if "--" in words:
        rest = words[words.index("--") + 1:]
    else:  # `claude mcp add NAME CMD ARGS...` / `gemini mcp add NAME CMD ARGS...`: the words after the name
        at, name = 2, None
        while at < len(words) and name is None:  # the server's name: the first word that is no option or its value
            w = words[at]
            if w.startswith("-"):
                at += 2 if w in _VALUE_OPTIONS else 1
            else:
                name = at
        rest = words[name + 1:] if name is not None else []
        if rest and rest[0].startswith(("http://", "https://")):
            return None  # a remote server is a URL, not a program started here
    return shlex.join(rest) if rest else None


def registered_argv(cmd: Command) -> list[str] | None:
    """The argument vector an agent's `mcp add` (or an editor's `--add-mcp`) registers, or None."""
    if cmd.name not in _AGENTS:
        return None
    registered = _registered(cmd)
    if registered is None:
        return None
    try:
        return shlex.split(registered)
    except ValueError:
        return None


def _json_command(value: str) -> str | None:
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("command"), str):
        return None
    args = data.get("args")
    return shlex.join([data["command"], *([a for a in args if isinstance(a, str)] if isinstance(args, list) else [])])


def _agent_settings(word: str, cwd: str | None) -> str | None:
    if not ("/" in word or word.startswith((".", "~")) or word.endswith((".json", ".jsonc", ".toml", ".yaml", ".yml"))):
        return None
    path = (resolve_path(word, cwd) or word).replace("\\", "/")
    kind = runs_later(path)
    return path if kind == "agent config" or (kind == "editor config" and path.endswith(".json")) else None


def line(analysis: ShellAnalysis, add: Add) -> None:
    """File `block.shell.defense-evasion` for a line that changes a coding agent's settings file and carries a value
    that switches its approvals off: what changes the file (a redirect, `mv`, `sed -i`, interpreter code) matters
    less than that the two meet on one line. Reading the file (`cat`, `grep`, `jq` to the screen) changes nothing."""
    if _LOOSE_GUARD_OFF.search(analysis.source) is None:
        return
    for cmd in analysis.commands:
        targets = [t for op, t in cmd.redirects if op in _WRITE_OPS]
        if cmd.name not in _READERS:
            targets += [w for a in cmd.argv[1:] for w in _WORDS.findall(a)]
        path = next((p for t in targets if (p := _agent_settings(t, cmd.cwd)) is not None), None)
        if path is not None:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"changes {path}, a coding agent's settings, to let its tools run without asking",
                        cmd.span))
            return


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A coding agent's own command that widens what it may run, or registers an MCP server that blocks."""
    words = cmd.words[1:]
    if cmd.name == "claude" and words[:2] in (("config", "add"), ("config", "set")) and \
            _LOOSE_GUARD_OFF.search(" ".join(words[2:])):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{cmd.name} {' '.join(words[:3])}: lets the agent run every command without asking{where}",
                    cmd.span))
        return
    registered = _registered(cmd)
    if registered is None or d.depth >= 2:
        return
    d.depth += 1
    try:
        found = d.run(analyse(registered))
    finally:
        d.depth -= 1
    blocking = next((f for f in found if f.rule.startswith("block.")), None)
    if blocking is not None:
        add(Finding(blocking.rule, Risk.CRITICAL,
                    f"{cmd.name} registers an MCP server that starts with every session: {blocking.reason}{where}",
                    cmd.span))
