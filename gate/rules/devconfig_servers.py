"""Rules: a coding agent's MCP server (or tool-discovery command) that is a shell one-liner, not a server.

An MCP server entry (`mcpServers`, VS Code's `servers`, Zed's `context_servers`, Codex's `mcp_servers`) names a
program the agent's client starts with every session, and Gemini CLI's `tools.discoveryCommand`/`callCommand` a
line it runs to list or call tools. A server is a program (`npx -y pkg`, `uvx pkg`, `node build/index.js`,
`docker run ... image`): any new one asks (`confirm.files.tool-runs-command`). A shell or an interpreter handed
inline code instead (`bash -c '...'`, `sh -c`, `cmd /c whoami`, `powershell -Command ...`, `python -c`, `node -e`)
is no server: it is a command hidden where it runs at every start, and it blocks. A shell that only starts a
server (`cmd /c npx -y pkg`, `bash -c "cd srv && uv run server.py"`) is judged as the server it starts.
"""

from __future__ import annotations

import json
import re
import shlex

from gate.content import runs_later
from gate.model import Risk
from gate.rules import devconfig_batch
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.files import _targets, _text_of
from gate.rules.shell_agent_config import registered_argv
from gate.shell import command_facts

__all__ = ["RULES", "one_liner", "server_one_liner"]

_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "ash", "busybox", "cmd", "powershell",
                     "pwsh", "tcsh", "csh"})
_INTERPRETERS = frozenset({"python", "python2", "python3", "py", "node", "nodejs", "perl", "ruby", "php", "deno",
                           "bun", "osascript", "lua", "tclsh", "wscript", "cscript", "mshta", "rundll32"})
# the flag after which a shell takes its command line: POSIX shells' `-c` (also `-lc`, `-ic`), cmd's `/c` `/k` `/r`,
# PowerShell's `-Command` (any prefix) and `-EncodedCommand`
_POSIX_FLAG = re.compile(r"^-[a-z]*c[a-z]*$")
_CMD_FLAG = re.compile(r"^/[ckr]$", re.IGNORECASE)
_PS_FLAG = re.compile(r"^[-/](?:c|co|com|comm|comma|comman|command|e|ec|en|enc|enco|encod|encode|encoded|encodedc"
                      r"\w*)$", re.IGNORECASE)
_CODE_FLAG = re.compile(r"^(?:-[a-z]*[ce]|--eval|-e|--exec|-r|eval|-command|-x)$", re.IGNORECASE)
# programs that start a server: a shell line that only starts one of these (after `cd DIR &&`, `source FILE &&`)
_LAUNCHERS = frozenset({"npx", "uvx", "uv", "node", "python", "python3", "py", "docker", "podman", "deno", "bun",
                        "bunx", "pnpm", "pnpx", "yarn", "npm", "java", "dotnet", "go", "cargo", "ruby", "php",
                        "pipx", "poetry", "conda", "mamba", "pixi", "hatch", "pdm", "rye", "mvn", "gradle", "exec",
                        "bundle", "mix", "elixir", "julia", "rscript", "bash", "sh", "pwsh", "powershell"})
_OPERATORS = re.compile(r"[;|`<>]|&&|\$\(|\|\||\s&\s|&$|\^")
_SETUP = re.compile(r"^\s*(?:cd\s+\S+|source\s+\S+|\.\s+\S+|set\s+\S+=\S*|export\s+\w+=\S*)\s*&&\s*", re.IGNORECASE)
_SERVER_KEYS = frozenset({"mcpservers", "servers", "context_servers", "mcp_servers", "mcp", "mcp-servers",
                          "mcpserver", "extensions"})
_LINE_KEYS = frozenset({"discoverycommand", "callcommand"})
# any client's MCP server list by its name (Roo's `.roo/mcp.json`, JetBrains' and LM Studio's `mcp.json`, a
# project's Zed settings)
_MCP_FILE = re.compile(r"(^|/)[^/]*mcp[^/]*\.jsonc?$|(^|/)\.zed/settings\.json$", re.IGNORECASE)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def _base(word: str) -> str:
    name = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name[:-4] if name.endswith((".exe", ".cmd", ".bat", ".com")) else name


def _starts_server(line: str, depth: int = 0) -> bool:
    """A shell line that does nothing but start a server program."""
    line = line.strip()
    for _ in range(3):
        stripped = _SETUP.sub("", line, count=1)
        if stripped == line:
            break
        line = stripped
    if not line or _OPERATORS.search(line):
        return False
    try:
        words = shlex.split(line, posix=True)
    except ValueError:
        return False
    if not words or _base(words[0]) not in _LAUNCHERS:
        return False
    return one_liner(words, depth + 1) is None


def one_liner(argv: list[str], depth: int = 0) -> str | None:
    """What makes `argv` a shell or an interpreter handed inline code, not a server program; None for a server."""
    if not argv or depth > 2:
        return None
    name = _base(argv[0])
    if name == "busybox" and len(argv) > 1:
        argv, name = argv[1:], _base(argv[1])
    if name in _SHELLS:
        flag = _CMD_FLAG if name == "cmd" else _PS_FLAG if name in ("powershell", "pwsh") else _POSIX_FLAG
        for k, w in enumerate(argv[1:], 1):
            if flag.match(w):
                rest = argv[k + 1:]
                line = " ".join(rest) if name in ("cmd", "powershell", "pwsh") else (rest[0] if rest else "")
                if w.lower()[1:2] == "e" and name in ("powershell", "pwsh"):
                    return f"{name} {w}: encoded PowerShell"
                if _starts_server(line, depth):
                    return None
                return f"{name} {w} {line[:60]!r}"
        return None
    if name in _INTERPRETERS or re.match(r"^python\d", name):
        for w in argv[1:]:
            if _CODE_FLAG.match(w):
                return f"{name} {w}: inline code"
    return None


def _line_words(line: str) -> list[str]:
    try:
        return shlex.split(line, posix=True)
    except ValueError:
        return line.split()


def _servers(node: object, out: list[list[str]], under: bool = False, depth: int = 0) -> None:
    """The argument vector of every server entry (and discovery line) of a parsed settings tree."""
    if depth > 10:
        return
    if isinstance(node, dict):
        command = node.get("command", node.get("cmd"))
        if under and isinstance(command, dict):  # Zed: {"command": {"path": ..., "args": [...]}}
            node, command = command, command.get("path")
        if under and isinstance(command, str) and command.strip():
            args = node.get("args")
            rest = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
            out.append(_line_words(command) + rest if not rest and " " in command.strip() else [command, *rest])
        elif under and isinstance(command, list):
            out.append([w for w in command if isinstance(w, str)])
        for key, value in node.items():
            low = str(key).lower()
            if low in _LINE_KEYS and isinstance(value, str):
                out.append(_line_words(value))
            _servers(value, out, under or low in _SERVER_KEYS, depth + 1)
    elif isinstance(node, list):
        for value in node:
            _servers(value, out, under, depth + 1)


_YAML_COMMAND = re.compile(r"""^\s*-?\s*["']?(command|cmd|discoveryCommand|callCommand)["']?\s*[:=]\s*(.+?)\s*,?\s*$""",
                           re.MULTILINE | re.IGNORECASE)
_ARGS_KEY = re.compile(r"""^[ \t]*["']?args["']?[ \t]*[:=][ \t]*(\[[^\]]*\])?""", re.MULTILINE)
_YAML_ITEM = re.compile(r"^\s*-\s+(.*?)\s*$")


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _loose(content: str) -> list[list[str]]:
    """Server vectors of a file that does not parse as JSON (YAML, TOML, JSON with comments or trailing commas)."""
    out: list[list[str]] = []
    for m in _YAML_COMMAND.finditer(content):
        command = _unquote(m.group(2))
        if m.group(1).lower() in ("discoverycommand", "callcommand"):
            out.append(_line_words(command))
            continue
        after = content[m.end(): m.end() + 2000]
        words: list[str] = []
        am = _ARGS_KEY.search(after)
        if am is not None and am.group(1):
            try:
                words = [a for a in json.loads(am.group(1)) if isinstance(a, str)]
            except (ValueError, RecursionError):
                words = [_unquote(a) for a in am.group(1).strip("[]").split(",") if a.strip()]
        elif am is not None:
            for line in after[am.end():].splitlines()[1:40]:
                item = _YAML_ITEM.match(line)
                if item is None:
                    if line.strip():
                        break
                    continue
                words.append(_unquote(item.group(1)))
        out.append([command, *words] if words else _line_words(command))
    return out


def server_one_liner(path: str, content: str) -> str | None:
    """The first MCP server or discovery command in an agent's settings that is a shell one-liner, or None."""
    path = path.replace("\\", "/")
    if runs_later(path) != "agent config" and not _MCP_FILE.search(path):
        return None
    text = content[:200_000]
    low = text.lower()
    if "command" not in low and "cmd" not in low:
        return None
    vectors: list[list[str]] = []
    data: object = None
    if path.lower().endswith((".json", ".jsonc")):
        for attempt in (text, _TRAILING_COMMA.sub(r"\1", text)):
            try:
                data = json.loads(attempt)
                break
            except (ValueError, RecursionError):
                continue
    elif path.lower().endswith(".toml"):
        import tomllib

        try:
            data = tomllib.loads(text)
        except (ValueError, RecursionError):
            data = None
    if data is not None:
        _servers(data, vectors)
    else:
        vectors = _loose(text)
    for argv in vectors:
        why = one_liner(argv)
        if why is not None:
            return why
    return None


def _why(path: str, what: str) -> str:
    return (f"{path} makes the agent start {what} with every session: a shell one-liner hidden as an MCP server or "
            f"tool command, not a server")


@rule("block.files.agent-server-one-liner", "a coding agent's MCP server set to a shell one-liner",
      risk=Risk.CRITICAL, types=("file_write",))
def server_one_liner_file(ctx: Context) -> CheckResult:
    """An agent's settings written (`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`, `claude_desktop_config.json`,
    `.gemini/settings.json`, Zed's, Windsurf's, Continue's, Cline's, Codex's) with an MCP server, or Gemini's tool
    discovery or call command, that is a shell or an interpreter handed inline code (`bash -c`, `sh -c`, `cmd /c`,
    `powershell -Command`, `python -c`, `node -e`). A shell that only starts a server (`cmd /c npx -y pkg`) and
    ordinary servers (`npx -y pkg`, `uvx pkg`, `node build/index.js`) are left to the rules that ask."""
    if ctx.type != "file_write":
        return None
    path = getattr(ctx.action, "path", "") or ""
    content = getattr(ctx.action, "content", None)
    if not content:
        return None
    what = server_one_liner(path, content)
    return _why(path, what) if what is not None else None


def _shell_verdict(ctx: Context) -> str | None:
    source = getattr(ctx.action, "command", None) or getattr(ctx.action, "text", None) or ""
    low = source.lower() if isinstance(source, str) else ""
    if "mcp" not in low and "discoverycommand" not in low and "context_servers" not in low:
        return None
    analysis = ctx.derived(command_facts)
    if analysis is None:
        return None
    for cmd in analysis.commands:
        argv = registered_argv(cmd)
        if argv is not None and (what := one_liner(argv)) is not None:
            return f"{cmd.name} registers {what} as an MCP server: a shell one-liner that runs with every session"
        for target in _targets(cmd):
            path = target.strip("'\"")
            text = _text_of(cmd, analysis)
            if text and (what := server_one_liner(path, text)) is not None:
                return "writes " + _why(path, what)
    return None


@rule("block.shell.agent-server-one-liner", "a coding agent's MCP server set to a shell one-liner from the shell",
      risk=Risk.CRITICAL, types=("shell", "type"), batch=devconfig_batch.batch)
def server_one_liner_shell(ctx: Context) -> CheckResult:
    """The same servers registered from the shell (`claude mcp add NAME -- bash -c '...'`, `gemini mcp add`,
    `code --add-mcp '{...}'`) or written into an agent's settings with `echo`, `printf`, `tee` or a here-document."""
    return _shell_verdict(ctx)


RULES: tuple[Rule, ...] = (server_one_liner_file, server_one_liner_shell)
devconfig_batch.register(RULES)
devconfig_batch.member(server_one_liner_shell.id,
                       lambda text, low: "mcp" in low or "discoverycommand" in low or "context_servers" in low)
