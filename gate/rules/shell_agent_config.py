"""Shell checks: a coding agent's own settings changed from the shell.

A coding agent (Claude Code, Codex, Gemini CLI, Cursor, VS Code's chat, ...) keeps its guard in its settings:
which commands it may run unasked, which MCP servers start with it, which hooks run at each tool call
(gate/content.py, kind "agent config"). An agent that edits them from the shell decides what it may do next:

- a settings file edited in place or replaced (`jq ... > s && mv s ~/.claude/settings.json`, `sed -i`, `cp`,
  `tee`) asks (`confirm.shell.persistence`); with a value on the line that switches approvals off or allows
  every command (`bypassPermissions`, `Bash(*)`, `autoApprove`) it blocks (`block.shell.defense-evasion`);
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
from gate.shell import Command, Finding, ShellAnalysis, analyse, resolve_path

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["NAMES", "judge"]

Add = Callable[[Finding], None]

_AGENTS = frozenset({"claude", "gemini", "codex", "qwen", "code", "code-insiders", "cursor", "windsurf", "codium"})
_EDITORS = frozenset({"sed", "gsed", "perl", "ruby", "mv", "cp", "install", "rsync", "ln", "tee", "sponge", "dd"})
NAMES = _AGENTS | _EDITORS

# a value that switches approvals off or allows every command, anywhere on a line that changes an agent's settings
_LOOSE_GUARD_OFF = re.compile(
    r"bypasspermissions|dangerously-?skip-?permissions|\bbash\(\s*\*|\bbash\(:\*|autoapprov|alwaysallow|autoaccept|"
    r"\byolo\b|approval_policy|danger-full-access|enableallprojectmcpservers|disableallhooks|\"(?:bash|\*)\"\s*\]",
    re.IGNORECASE)
_WRITE_OPS = (">", ">>", ">|", "&>", "&>>")
_IN_PLACE = ("-i", "--in-place")
_MCP_VERBS = ("add", "add-json")


def _is_agent_config(path: str, cwd: str | None) -> str | None:
    full = (resolve_path(path, cwd) or path).replace("\\", "/")
    return full if runs_later(full) == "agent config" else None


def _changed(cmd: Command) -> list[str]:
    """The files `cmd` replaces or edits: redirect targets, a copy's or move's destination, in-place edits."""
    out = [t for op, t in cmd.redirects if op in _WRITE_OPS]
    ops = [a for a in cmd.argv[1:] if not a.startswith("-")]
    if cmd.name in ("mv", "cp", "install", "rsync", "ln") and len(ops) >= 2:
        out.append(ops[-1])
    elif cmd.name in ("tee", "sponge"):
        out.extend(ops)
    elif cmd.name in ("sed", "gsed", "perl", "ruby") and any(a.startswith(_IN_PLACE) or
                                                             (a.startswith("-") and "i" in a[1:] and len(a) <= 4)
                                                             for a in cmd.argv[1:]):
        out.extend(ops[1:] if ops else [])
    elif cmd.name == "dd":
        out.extend(a[3:] for a in cmd.argv[1:] if a.startswith("of="))
    return out


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
        plain = [w for w in words[2:] if not w.startswith("-")]
        rest = plain[1:] if len(plain) > 1 else []
        if rest and rest[0].startswith(("http://", "https://")):
            return None  # a remote server is a URL, not a program started here
    return shlex.join(rest) if rest else None


def _json_command(value: str) -> str | None:
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("command"), str):
        return None
    args = data.get("args")
    return shlex.join([data["command"], *([a for a in args if isinstance(a, str)] if isinstance(args, list) else [])])


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if cmd.name in _AGENTS:
        words = cmd.words[1:]
        if cmd.name == "claude" and words[:2] in (("config", "add"), ("config", "set")) and \
                _LOOSE_GUARD_OFF.search(" ".join(words[2:])):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{cmd.name} {' '.join(words[:3])}: lets the agent run every command without asking{where}",
                        cmd.span))
            return
        line = _registered(cmd)
        if line is None or d.depth >= 2:
            return
        d.depth += 1
        try:
            found = d.run(analyse(line))
        finally:
            d.depth -= 1
        blocking = next((f for f in found if f.rule.startswith("block.")), None)
        if blocking is not None:
            add(Finding(blocking.rule, Risk.CRITICAL,
                        f"{cmd.name} registers an MCP server that starts with every session: {blocking.reason}{where}",
                        cmd.span))
        return
    for target in _changed(cmd):
        path = _is_agent_config(target, cmd.cwd)
        if path is None:
            continue
        if _LOOSE_GUARD_OFF.search(analysis.source):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{cmd.name} changes {path}, a coding agent's settings, to let its tools run without asking"
                        f"{where}", cmd.span))
        else:
            add(Finding("confirm.shell.persistence", Risk.HIGH,
                        f"{cmd.name} changes {path}, a coding agent's settings: what it may run and what starts with "
                        f"it{where}", cmd.span))
        return
