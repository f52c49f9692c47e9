"""What a file will run later, read from what is written into it.

    runs_later(path) -> str | None           the kind of file whose content runs later ("git hook", ...)
    later_commands(kind, path, content) -> str   the commands it holds, one shell line each ("" for none)
    script_runs(analysis) -> [(interpreter, path)]  the files a shell command runs (`bash x.sh`, `./x.sh`, ...)
    files_written(analysis) -> [path]        the files a shell command writes whole (`> f`, `tee f`, `curl -o f`)

A git hook, a shell startup file, a cron table, a systemd unit, a launchd job, an autostart or other
`.desktop` entry, a CI workflow, a package's install hooks, an editor or terminal configuration that runs
programs, a coding agent's MCP servers and hooks: each runs what it holds later, as the person, outside any
fence. So what is written there is
judged by the shell rules as the commands it holds (gate/rules/content.py). Ordinary source files
(`setup.py`, `src/app.py`) are not: they run only when someone runs them, and then the command that runs
them is judged (with the content, when the agent wrote the file in this session).

A coding agent's own settings are also where its guard lives: a file that switches its approvals off or allows
it every command (`"defaultMode": "bypassPermissions"`, `"chat.tools.autoApprove": true`, `"allow": ["Bash(*)"]`)
lets the agent run what nobody sees from then on (`guard_off`).

Extraction is deliberately simple and errs towards including a line: a line that is not a command costs at
worst a question (the shell rules do not block words), a command missed costs the person's machine.
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gate.shell import ShellAnalysis

__all__ = [
    "BIN_FOLDER",
    "BLOCK_ONLY",
    "MAX_CONTENT",
    "ON_PATH",
    "files_written",
    "guard_off",
    "is_config",
    "later_commands",
    "package_sources",
    "planted_instructions",
    "program_code",
    "runs_later",
    "script_code",
    "script_runs",
    "tool_of",
    "tool_runs",
    "unofficial_sources",
    "web_shell",
]

MAX_CONTENT = 200_000  # characters of a file judged (the rest of a larger file is not read)

_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((kind, re.compile(rx, re.IGNORECASE)) for kind, rx in (
    ("git hook", r"(^|/)\.git/hooks/[^/]+$|(^|/)\.husky/[^/_][^/]*$|(^|/)\.githooks/[^/]+$"),
    ("git config", r"(^|/)\.git/config$|(^|/)\.gitconfig$|(^|/)\.config/git/config$|^/etc/gitconfig$|"
                   r"(^|/)\.gitmodules$"),
    ("shell startup file", r"(^|/)\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|"
                           r"zlogin|zlogout|cshrc|tcshrc|kshrc|mkshrc|xinitrc|xprofile|xsessionrc|xsession|"
                           r"inputrc|envrc)$|(^|/)\.config/fish/.*\.fish$|^/etc/(profile|bash\.bashrc|zsh/\w+|"
                           r"environment|rc\.local)$|^/etc/profile\.d/"),
    ("cron table", r"^/etc/(crontab|anacrontab)$|^/etc/cron\.[^/]+/|^/var/spool/cron(tabs)?/|(^|/)crontab$"),
    ("systemd unit", r"\.(service|timer|socket|path|mount)$"),
    ("launchd job", r"/library/launch(agents|daemons)/[^/]+\.plist$"),
    ("desktop entry", r"\.desktop$"),
    ("CI workflow", r"(^|/)\.github/workflows/[^/]+\.ya?ml$|(^|/)\.gitlab-ci\.ya?ml$|(^|/)\.circleci/config\.ya?ml$|"
                    r"(^|/)azure-pipelines\.ya?ml$|(^|/)\.travis\.ya?ml$|(^|/)bitbucket-pipelines\.ya?ml$|"
                    r"(^|/)\.drone\.ya?ml$|(^|/)jenkinsfile$|(^|/)\.buildkite/[^/]+\.ya?ml$|"
                    r"(^|/)\.woodpecker(\.ya?ml|/[^/]+\.ya?ml)$"),
    ("package manifest", r"(^|/)package\.json$|(^|/)composer\.json$"),
    # a coding agent's or an editor's MCP server list and hooks: each server's command starts with the agent, and a
    # hook runs at every tool call (Claude Code, Claude Desktop, Cursor, VS Code, Windsurf, Cline, Roo, Kiro, Amazon Q,
    # Gemini CLI, Qwen Code, Codex, Continue, Goose, Zed, opencode, Aider)
    # the instructions a coding agent reads at every start and follows as the person's own (CLAUDE.md, AGENTS.md,
    # Cursor's and Windsurf's rules, Copilot's instructions, custom commands and sub-agents): what they say to run,
    # the agent runs in every later session
    ("agent instructions", r"(^|/)(claude|agents|gemini|qwen|copilot-instructions)\.md$|(^|/)\.cursorrules$|"
                           r"(^|/)\.windsurfrules$|(^|/)\.clinerules(/|$)|(^|/)\.cursor/rules/[^/]+$|"
                           r"(^|/)\.github/instructions/[^/]+\.md$|(^|/)\.(roo|kiro/steering|windsurf/rules)/(?!mcp\.json$)|"
                           r"(^|/)\.claude/(commands|agents)/[^/]+\.md$"),
    ("agent config", r"(^|/)\.mcp\.json$|(^|/)\.claude/settings(\.local)?\.json$|(^|/)\.claude\.json$|"
                     r"(^|/)claude_desktop_config\.json$|(^|/)\.(cursor|vscode|roo|amazonq|kiro/settings)/mcp\.json$|"
                     r"(^|/)\.(gemini|qwen)/settings\.json$|(^|/)\.codex/config\.toml$|"
                     r"(^|/)\.codeium/windsurf/mcp_config\.json$|(^|/)(cline_mcp_settings|mcp_settings)\.json$|"
                     r"(^|/)\.continue/(config\.(json|ya?ml)|mcpServers/[^/]+\.(json|ya?ml))$|"
                     r"(^|/)\.config/(goose/config\.ya?ml|zed/settings\.json|opencode/opencode\.jsonc?)$|"
                     r"(^|/)opencode\.jsonc?$|(^|/)\.aider\.conf\.ya?ml$|(^|/)code/user/(settings|mcp)\.json$|"
                     r"(^|/)\.(cursor|windsurf)/hooks\.json$|(^|/)\.github/hooks/[^/]+\.json$|(^|/)\.kiro/hooks/[^/]+$"),
    ("editor config", r"(^|/)\.(vimrc|exrc|gvimrc|nvimrc)$|(^|/)\.config/nvim/init\.(vim|lua)$|"
                      r"(^|/)\.vscode/(tasks|settings)\.json$|(^|/)\.emacs$|(^|/)\.emacs\.d/init\.el$|"
                      r"(^|/)\.tmux\.conf$|(^|/)\.config/(kitty/kitty\.conf|alacritty/alacritty\.(toml|ya?ml)|"
                      r"wezterm/wezterm\.lua)$|(^|/)\.wezterm\.lua$|(^|/)\.editorconfig-hooks$"),
    ("build hook", r"(^|/)\.npmrc$|(^|/)\.yarnrc(\.yml)?$|(^|/)\.pip/pip\.conf$|(^|/)pip\.conf$"),
    # code an ordinary tool run executes without naming it: pytest loads conftest.py, pip runs setup.py, Python
    # runs sitecustomize.py and the import lines of a .pth file at every start, bundlers and linters load their
    # JavaScript config, bundler evaluates a Gemfile. Judged for what the shell rules block only: such files are
    # the project's code, and ordinary code would ask too often (`BLOCK_ONLY`)
    ("script a tool runs", r"(^|/)(conftest|setup|noxfile|sitecustomize|usercustomize|fabfile)\.py$|\.pth$|"
                          r"(^|/)(jest|vite|vitest|webpack|rollup|babel|eslint|prettier|tailwind|postcss|next|nuxt|"
                          r"svelte|astro|playwright|cypress|karma|metro|gatsby-config|gatsby-node|remix|"
                          r"tsup|esbuild|rspack|vue)\.config\.(c|m)?(js|ts)$|(^|/)\.eslintrc\.c?js$|"
                          r"(^|/)(gulpfile|gruntfile)\.(c|m)?(js|ts)$|(^|/)(rakefile|gemfile|[\w-]+\.gemspec)$"),
    # a developer tool's settings that name commands it runs at its next run (pre-commit's and lefthook's hooks,
    # Terraform's external data and provisioners, a dev container's create commands, Bazel's status command,
    # cargo's runner, MSBuild's Exec in the files every build imports, mise's hooks, pylint's init-hook)
    ("tool settings", r"(^|/)\.pre-commit-(config|hooks)\.ya?ml$|(^|/)\.?lefthook(-local)?\.ya?ml$|\.tf(\.json)?$|"
                      r"(^|/)\.?devcontainer(/[^/]+)?/devcontainer\.json$|(^|/)\.devcontainer\.json$|"
                      r"(^|/)(user)?\.bazelrc$|(^|/)\.cargo/config(\.toml)?$|(^|/)directory\.build\.(props|targets)$|"
                      r"(^|/)\.?mise(\.local)?\.toml$|(^|/)\.?pylintrc$"),
    # recipes a build runs when the person types `make` or `just`: each is a shell line
    ("build file", r"(^|/)(gnu)?makefile$|(^|/)[\w-]+\.mk$|(^|/)\.?justfile$"),
    # a program in a folder found by bare name (`.venv/bin/pytest`, `node_modules/.bin/eslint`, `~/.local/bin/x`):
    # every later `pytest`, `npm test` or `npx eslint` runs it, under a name the gate reads as the real tool
    ("program on PATH", r"(^|/)(\.?venv|env|virtualenv)/(bin|scripts)/[^/]+$|(^|/)node_modules/\.bin/[^/]+$|"
                        r"(^|/)\.(local|cargo|deno|bun|yarn|npm-global|volta|go)/bin/[^/]+$|"
                        r"^/home/[^/]+/(bin|go/bin)/[^/]+$|^/(usr/local|opt/homebrew|opt/local)/s?bin/[^/]+$"),
))


@functools.lru_cache(maxsize=4096)
def runs_later(path: str) -> str | None:
    """The kind of file at `path` (resolved, "/" separators) whose content runs later, or None."""
    for kind, rx in _KINDS:
        if rx.search(path):
            return kind
    return None


# -- extraction, per kind ---------------------------------------------------------------------------------------

_CRON_SCHEDULE = re.compile(r"^\s*(?:@\w+|(?:[\d*/,\-a-z]+\s+){5})", re.IGNORECASE)
_CRON_ENV = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*=")
_UNIT_EXEC = re.compile(r"^\s*(?:Exec\w*|TryExec)\s*=\s*[-@:+!]*(.*)$")
_PLIST_STRING = re.compile(r"<string>(.*?)</string>", re.DOTALL)
_PLIST_ARGS = re.compile(r"<key>\s*(?:ProgramArguments|Program)\s*</key>\s*(<array>.*?</array>|<string>.*?</string>)",
                         re.DOTALL)
_GIT_RUNS = re.compile(r"^\s*(fsmonitor|sshcommand|pager|editor|askpass|hookspath|helper|textconv|clean|smudge|"
                       r"process|cmd|command|tool|program|gpgprogram|sshprogram|proxycommand|uploadpack|"
                       r"receivepack|difftool|mergetool)\s*=\s*(.+)$", re.IGNORECASE)
_GIT_ALIAS = re.compile(r"^\s*[\w.-]+\s*=\s*!(.+)$")
_YAML_RUN = re.compile(r"^(\s*)(?:-\s+)?(?:run|script|before_script|after_script|command|commands|install|"
                       r"before_install|after_success|entrypoint|sh|bat|pwsh|powershell|shell)\s*:\s*(.*)$")
_YAML_ITEM = re.compile(r"^\s*-\s+(.*)$")
_INSTALL_SCRIPTS = ("preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare", "prepublish",
                    "preuninstall", "uninstall", "postuninstall", "prepack", "postpack", "dependencies",
                    "pre-install-cmd", "post-install-cmd", "pre-update-cmd", "post-update-cmd",
                    "post-autoload-dump", "post-root-package-install", "post-create-project-cmd")
_VIM_RUNS = re.compile(r"(?:^|\|)\s*(?:silent!?\s*)?!(.+)$|system\s*\(\s*['\"](.+?)['\"]|"
                       r"(?:autocmd|au)\b.*?\s!(.+)$|jobstart\s*\(\s*['\"](.+?)['\"]|"
                       r"vim\.fn\.system\s*\(\s*['\"](.+?)['\"]|os\.execute\s*\(\s*['\"](.+?)['\"]|"
                       r"shell-command\s+\"(.+?)\"|\(shell-command\s+\"(.+?)\"")
_TMUX_RUNS = re.compile(r"^\s*(?:run-shell|run|if-shell|if)\s+(?:-\w+\s+)*['\"]?(.+?)['\"]?\s*$")
_TERMINAL_RUNS = re.compile(r"^\s*(?:shell|program|default_prog|command)\s*[=: ]\s*(.+)$", re.IGNORECASE)
_NPMRC_RUNS = re.compile(r"^\s*(?:script-shell|shell|git|node-options|onload-script|yarnPath)\s*[=:]\s*(.+)$",
                         re.IGNORECASE)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _yaml_commands(content: str) -> list[str]:
    """`run:` / `script:` values of a CI file: inline, block scalars (`|`, `>`) and lists."""
    out: list[str] = []
    lines = content.splitlines()
    i = 0
    while i < len(lines):
        m = _YAML_RUN.match(lines[i])
        i += 1
        if m is None:
            continue
        indent, value = len(m.group(1)), m.group(2).strip()
        if value and value[0] not in "|>" and not value.startswith("#"):
            if value.startswith("[") and value.endswith("]"):
                out.extend(_unquote(v) for v in value[1:-1].split(","))
            else:
                out.append(_unquote(value))
            continue
        # a block scalar or a list below the key: every more-indented line belongs to it
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            line = lines[i]
            i += 1
            item = _YAML_ITEM.match(line)
            text = item.group(1) if item is not None and value[:1] not in "|>" else line
            if text.strip() and not text.strip().startswith("#"):
                out.append(_unquote(text))
    return out


def _package_commands(content: str) -> list[str]:
    try:
        data = json.loads(content)
    except (ValueError, RecursionError):  # nested deeper than the decoder's stack: not a manifest either
        return [content]  # not JSON: judge it whole rather than not at all
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return []
    out = []
    ordinary = _ordinary_scripts()
    for name in _INSTALL_SCRIPTS:
        value = scripts.get(name)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, str))
    # a project's ordinary build steps (`husky`, `patch-package`, `npx only-allow pnpm`) are not judged as commands
    return [v for v in out if not _ordinary(v, ordinary)]


_RX_VSCODE_COMMANDS = re.compile(
    r'"(?:command|shellArgs|terminal\.integrated\.[\w.]*(?:shell|args)[\w.]*)"\s*:\s*'
    r'("(?:[^"\\]|\\.)*"|\[[^\]]*\])')


def _vscode_commands(content: str) -> list[str]:
    out = []
    for m in _RX_VSCODE_COMMANDS.finditer(content):
        raw = m.group(1)
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        out.extend([value] if isinstance(value, str) else [v for v in value if isinstance(v, str)])
    return out


_RX_COMMAND_KEY = re.compile(r"""^\s*-?\s*["']?(?:command|cmd)["']?\s*[:=]\s*(.+?)\s*,?\s*$""", re.MULTILINE)
_RX_ARGS_KEY = re.compile(r"""^\s*["']?args["']?\s*[:=]\s*(\[.*?\])""", re.MULTILINE | re.DOTALL)


def _command_lines(node: object, out: list[str], depth: int = 0) -> None:
    """Every `command` (with its `args`) of a parsed settings tree: MCP servers and hooks, at any depth."""
    if depth > 12:
        return
    if isinstance(node, dict):
        command = node.get("command", node.get("cmd"))
        if isinstance(command, str) and command.strip():
            args = node.get("args")
            words = [command] + ([a for a in args if isinstance(a, str)] if isinstance(args, list) else [])
            # a hook's command is a shell line already; a server's command and args are an argument vector
            out.append(command if len(words) == 1 else " ".join(_shell_quote(w) for w in words))
        elif isinstance(command, list):
            out.append(" ".join(_shell_quote(w) for w in command if isinstance(w, str)))
        for value in node.values():
            _command_lines(value, out, depth + 1)
    elif isinstance(node, list):
        for value in node:
            _command_lines(value, out, depth + 1)


def _agent_commands(path: str, content: str) -> list[str]:
    """The programs an agent's settings start: MCP servers' `command` + `args`, hooks' `command` lines."""
    data: object = None
    low = path.lower()
    try:
        if low.endswith(".toml"):
            import tomllib

            data = tomllib.loads(content)
        elif low.endswith((".json", ".jsonc")):
            data = json.loads(content)
    except (ValueError, RecursionError):
        data = None
    out: list[str] = []
    if data is not None:
        _command_lines(data, out)
        return out
    # YAML, JSON with comments, or a file that does not parse: each `command:` line with the `args` list after it
    for m in _RX_COMMAND_KEY.finditer(content):
        command = _unquote(m.group(1))
        args = _RX_ARGS_KEY.search(content, m.end(), m.end() + 2000)
        words: list[str] = []
        if args is not None:
            try:
                words = [a for a in json.loads(args.group(1)) if isinstance(a, str)]
            except (ValueError, RecursionError):
                words = [_unquote(a) for a in args.group(1).strip("[]").split(",") if a.strip()]
        out.append(" ".join([command, *(_shell_quote(w) for w in words)]))
    return out


_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"`([^`\n]{2,400})`")
_FORBIDS = re.compile(r"\b(?:never|not|don t|don't|dont|avoid|forbidden|prohibited|must not|instead of|rather than)\b",
                      re.IGNORECASE)


def _quoted_commands(content: str) -> list[str]:
    """The commands a Markdown instruction file quotes: each line of a fenced block, each inline code span."""
    out: list[str] = []
    fenced = False
    for line in content[:MAX_CONTENT].splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(line.strip().removeprefix("$ "))
        elif not _FORBIDS.search(line):  # "never run `rm -rf /`" warns against what it quotes
            out.extend(m.group(1) for m in _INLINE_CODE.finditer(line))
    return out


# words in an agent's instructions that keep something from the person or turn its guard against them: the marks
# of a planted rules file, beside the injection phrases of gate/lures.py
_SECRECY = re.compile(
    r"\b(?:do not|don t|dont|never|must not)\s+(?:\w+\s+){0,2}?(?:tell|mention|reveal|show|inform|disclose|report|"
    r"log|explain)\b[^.\n]{0,40}\b(?:the\s+)?(?:user|human|person|developer|reviewer|operator)s?\b|"
    r"\bwithout\s+(?:telling|informing|notifying|asking|alerting)\s+(?:the\s+)?(?:user|human|person|developer)\b|"
    r"\b(?:hide|conceal)\s+(?:this|it|these|the\s+\w+)\s+from\s+(?:the\s+)?(?:user|human|person|developer|reviewer)\b",
    re.IGNORECASE)
# words that switch off the agent's own oversight for everything: the agents' flags that skip every approval, and
# orders to bypass its permissions, sandbox or hooks, or never to ask about anything (asking no permission for one
# named chore, "no need to ask before running the tests", is a person's convention and passes)
_OVERSIGHT_OFF = re.compile(
    r"--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--yolo\b|"
    r"\b(?:bypass|disable|turn\s+off|switch\s+off|ignore|skip)\s+(?:all\s+|every\s+|any\s+)?(?:the\s+)?(?:permission|"
    r"approval|sandbox|safety|guardrail|hook|confirmation)\s*(?:check|prompt|mode|rule|system)?s?\b"
    r"(?![^.\n]{0,30}\b(?:for|when|in|on)\s+(?:the\s+)?(?:tests?|lint|format|build)\b)|"
    r"\b(?:never|do\s+not|don['\u2019\s]*t)\s+ask\s+(?:the\s+)?(?:user|human|person|developer|anyone|me)?\s*"
    r"(?:for\s+)?(?:permission|confirmation|approval)?\s*(?:for|before|about)\s+(?:anything|any\s+(?:command|action|"
    r"change|step)s?|every\s+(?:command|action|change|step)|all\s+(?:commands|actions|changes|steps))\b",
    re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:never|not|don['\u2019\s]*t|no)\s+(?:\w+\s+)?$", re.IGNORECASE)
# characters that hide text from the person reading the file: Unicode tag characters, bidirectional overrides
_HIDING = re.compile("[\U000e0000-\U000e007f\u202a-\u202e\u2066-\u2069]")


def planted_instructions(content: str) -> str | None:
    """What marks instructions written for an agent as planted: words that override its instructions, keep things
    from the person, or text hidden in invisible characters; or None."""
    from gate.lures import injection_payload

    text = content[:MAX_CONTENT]
    if _HIDING.search(text):
        return "text hidden in invisible characters"
    if (m := _SECRECY.search(text)) is not None:
        return m.group(0)
    for m in _OVERSIGHT_OFF.finditer(text):
        if not _NEGATED.search(text[max(0, m.start() - 24):m.start()]):  # ("never skip hooks" keeps them)
            return m.group(0)
    return injection_payload(text)


# what switches a coding agent's approvals off or allows it every command, written in its settings: beyond the
# typed-text vocabulary (gate/lures.py `auto_approve`), the settings keys of the agents' own documentation:
# Claude Code's `permissions.allow` holding every command (`Bash`, `Bash(*)`, `*`) and its project MCP servers
# enabled unseen, Gemini CLI's `autoAccept` and a server marked `trust`, Roo's and Cline's `alwaysAllow...` and
# auto-approval switches, Codex's `approval_policy = "never"`, Aider's `yes-always`
_GUARD_OFF = re.compile(
    r'"allow"\s*:\s*\[[^\]]*"(?:bash|bash\(\s*\*?\s*:?\s*\*\s*\)|\*|shell|execute|powershell)"|'
    r'"enableallprojectmcpservers"\s*:\s*true|"autoaccept"\s*:\s*true|"trust"\s*:\s*true|'
    r'"(?:alwaysallow\w*|autoapproval\w*|auto_?approve\w*|autorun\w*|yolo\w*)"\s*:\s*(?:true|\[\s*"|"(?:all|\*|always)")|'
    r'\bapproval_policy\s*=\s*"never"|\bsandbox_mode\s*=\s*"danger-full-access"|'
    r'^\s*yes-always\s*:\s*true|"disableallhooks"\s*:\s*true',
    re.IGNORECASE | re.MULTILINE)
# files read as settings (where such a key takes effect): structured config, not prose that quotes one
_CONFIG_FILE = re.compile(r"\.(json|jsonc|json5|toml|ya?ml|ini|cfg|conf|list|sources|config|props|repo)$|"
                          r"(^|/)\.[\w.-]*rc$|(^|/)(pip|uv)/|(^|/)\.pip/", re.IGNORECASE)


def is_config(path: str) -> bool:
    """Whether `path` is a settings file (JSON, TOML, YAML, INI, an rc file, an apt source list, NuGet's config) or an
    agent's settings."""
    return bool(_CONFIG_FILE.search(path)) or runs_later(path) == "agent config"


def guard_off(path: str, content: str) -> str | None:
    """The setting in `content`, written to the settings file `path`, that switches a coding agent's approvals off
    or allows it every command, or None. The agents' own keys count in their settings files (and an editor's); the
    typed-text vocabulary, specific enough on its own, in any settings file."""
    from gate.lures import auto_approve

    if not is_config(path):
        return None
    text = content[:MAX_CONTENT]
    if runs_later(path) in ("agent config", "editor config") and (m := _GUARD_OFF.search(text)) is not None:
        return m.group(0)
    return auto_approve(text)


_RX_LATER_COMMANDS = re.compile(r"\b(?:sh|bat|powershell)\s*\(?\s*['\"]{1,3}(.+?)['\"]", re.DOTALL)


def later_commands(kind: str, path: str, content: str) -> str:
    """The commands `content` holds for a file of `kind` at `path`, one per line (a script: as it is)."""
    content = content[:MAX_CONTENT]
    lines = content.splitlines()
    if kind in ("git hook", "shell startup file"):
        return content
    if kind == "cron table":
        out = []
        for line in lines:
            if not line.strip() or line.lstrip().startswith("#") or _CRON_ENV.match(line):
                continue
            command = _CRON_SCHEDULE.sub("", line)
            out.append(command)
            if path.lower().endswith(("/crontab", "/anacrontab")) or "/cron." in path.lower():
                out.append(command.strip().split(" ", 1)[-1])  # system tables name a user first
        return "\n".join(out)
    if kind in ("systemd unit", "desktop entry"):
        return "\n".join(m.group(1) for line in lines if (m := _UNIT_EXEC.match(line)))
    if kind == "launchd job":
        out = []
        for m in _PLIST_ARGS.finditer(content):
            words = [s.strip() for s in _PLIST_STRING.findall(m.group(1))]
            out.append(" ".join(_shell_quote(w) for w in words))
        return "\n".join(out)
    if kind == "git config":
        out = []
        for line in lines:
            if (m := _GIT_ALIAS.match(line)) is not None:
                out.append(m.group(1))
            elif (m := _GIT_RUNS.match(line)) is not None:
                out.append(_unquote(m.group(2)))
        return "\n".join(out)
    if kind == "CI workflow":
        if path.lower().endswith("jenkinsfile"):
            return "\n".join(m.group(1) for m in _RX_LATER_COMMANDS.finditer(content))
        return "\n".join(_yaml_commands(content))
    if kind == "package manifest":
        return "\n".join(_package_commands(content))
    if kind == "agent config":
        return "\n".join(_agent_commands(path, content))
    if kind == "agent instructions":
        return "\n".join(_quoted_commands(content))
    if kind == "editor config":
        if path.lower().endswith(".json"):
            return "\n".join(_vscode_commands(content))
        out = []
        for line in lines:
            if (m := _VIM_RUNS.search(line)) is not None:
                out.append(next(g for g in m.groups() if g))
            elif (m := _TMUX_RUNS.match(line)) is not None or (m := _TERMINAL_RUNS.match(line)) is not None:
                out.append(_unquote(m.group(1)))
        return "\n".join(out)
    if kind == "build hook":
        return "\n".join(_unquote(m.group(1)) for line in lines if (m := _NPMRC_RUNS.match(line)))
    if kind == "program on PATH":
        return program_code(content)
    if kind == "script a tool runs":
        return _tool_code(path, content)
    if kind == "tool settings":
        return "\n".join(_setting_commands(path, content))
    if kind == "build file":
        return "\n".join(m.group(1) for line in lines if (m := _RECIPE.match(line)))
    return ""


_ENTRY = re.compile(r"^(\s*)(?:-\s+)?entry\s*:\s*(.*)$")
_TF_PROGRAM = re.compile(r"^\s*(?:program|interpreter|inline)\s*=\s*(\[[^\]]*\])", re.MULTILINE | re.DOTALL)
_TF_COMMAND = re.compile(r"^\s*command\s*=\s*(?:<<-?(\w+)\n(.*?)\n\s*\1\b|(\"(?:[^\"\\]|\\.)*\"))",
                         re.MULTILINE | re.DOTALL)
_DEVCONTAINER_KEYS = ("initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand",
                      "postStartCommand", "postAttachCommand")
_BAZEL_COMMAND = re.compile(r"--(?:workspace_status_command|run_under)[= ]([\"'].*?[\"']|\S+)")
_MSBUILD_EXEC = re.compile(r"<Exec\b[^>]*\bCommand\s*=\s*\"([^\"]*)\"", re.IGNORECASE)
_CARGO_RUNNER = re.compile(r"^\s*(?:runner|rustc-wrapper|rustc-workspace-wrapper)\s*=\s*(.+)$", re.MULTILINE)
_MISE_HOOK = re.compile(r"^\s*(?:enter|leave|cd|preinstall|postinstall|run)\s*=\s*(.+)$", re.MULTILINE)
_CACHE_WRAPPER = re.compile(r"^[\"']?(sccache|cachepot|ccache)[\"']?\s*$")
_INIT_HOOK = re.compile(r"^\s*init[-_]hook\s*=\s*(.+)$", re.MULTILINE)


def _json_words(raw: str) -> list[str]:
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return [_unquote(w) for w in raw.strip("[]").split(",") if w.strip()]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else \
        [value] if isinstance(value, str) else []


def _entries(content: str) -> list[str]:
    """pre-commit's `entry:` values (inline or a block scalar below the key)."""
    out: list[str] = []
    lines = content.splitlines()
    i = 0
    while i < len(lines):
        m = _ENTRY.match(lines[i])
        i += 1
        if m is None:
            continue
        value = m.group(2).strip()
        if value and value[0] not in "|>":
            out.append(_unquote(value))
            continue
        block = []
        while i < len(lines) and (not lines[i].strip() or
                                  len(lines[i]) - len(lines[i].lstrip()) > len(m.group(1))):
            block.append(lines[i].strip())
            i += 1
        out.append(" ".join(b for b in block if b) if value.startswith(">") else "\n".join(block))
    return out


def _setting_commands(path: str, content: str) -> list[str]:
    """The command lines a developer tool's settings file names (`tool settings`)."""
    low = path.lower()
    out: list[str] = []
    if "pre-commit" in low:
        out.extend(_entries(content))
    elif "lefthook" in low:
        out.extend(_yaml_commands(content))
    elif low.endswith((".tf", ".tf.json")):
        for m in _TF_PROGRAM.finditer(content):
            out.append(" ".join(_shell_quote(w) for w in _json_words(m.group(1))))
        for m in _TF_COMMAND.finditer(content):
            out.append(m.group(2) if m.group(2) is not None else _json_words(m.group(3))[0])
        if low.endswith(".json"):
            out.extend(_vscode_commands(content))
    elif "devcontainer" in low:
        try:
            data = json.loads(content)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict):
            for key in _DEVCONTAINER_KEYS:
                value = data.get(key)
                for v in value.values() if isinstance(value, dict) else [value]:
                    if isinstance(v, str):
                        out.append(v)
                    elif isinstance(v, list):
                        out.append(" ".join(_shell_quote(w) for w in v if isinstance(w, str)))
    elif "bazelrc" in low:
        out.extend(_unquote(m.group(1)) for m in _BAZEL_COMMAND.finditer(content))
    elif low.endswith((".props", ".targets")):
        import html

        out.extend(html.unescape(m.group(1)) for m in _MSBUILD_EXEC.finditer(content))
    elif "cargo/config" in low:
        for m in _CARGO_RUNNER.finditer(content):
            value = m.group(1).strip()
            if _CACHE_WRAPPER.match(value):
                continue  # a compiler cache (sccache): the build's own compiler, called through it
            out.append(" ".join(_shell_quote(w) for w in _json_words(value)) if value.startswith("[")
                       else _unquote(value))
    elif "mise" in low:
        out.extend(_unquote(m.group(1)) for m in _MISE_HOOK.finditer(content))
    elif "pylintrc" in low:
        out.extend(program_code(_unquote(m.group(1)), "python3") for m in _INIT_HOOK.finditer(content))
    return [c for c in out if c and c.strip()]


# kinds whose content only blocks: what the shell rules merely ask about in a project's own code or recipes is its
# business (a recipe runs when the person types `make publish`)
BLOCK_ONLY = frozenset({"script a tool runs", "build file", "agent instructions"})
_RECIPE = re.compile(r"^(?:\t| {2,})[@+\-]*\s*(\S.*)$")  # a recipe line: indented (make: a tab), prefixes dropped


def _tool_code(path: str, content: str) -> str:
    """A file run by a tool as its interpreter's inline code (a `.pth` file: only its `import` lines run)."""
    low = path.lower()
    if low.endswith(".pth"):
        code = "\n".join(line for line in content.splitlines() if line.startswith(("import ", "import\t")))
        return program_code(code, "python3") if code else ""
    if low.endswith(".py"):
        return program_code(content, "python3")
    if low.endswith(("js", "ts")):
        return program_code(content, "node")
    return program_code(content, "ruby")


_SHELLS = ("sh", "bash", "zsh", "dash", "ksh", "ash")
_CODE_FLAGS = {"perl": "-e", "ruby": "-e", "node": "-e", "nodejs": "-e", "php": "-r", "lua": "-e", "bun": "-e",
               "osascript": "-e", "pwsh": "-Command", "powershell": "-Command"}


def program_code(content: str, interpreter: str = "") -> str:
    """A script's content as the one shell line that runs it: a shell script as it is, any other as its
    interpreter's inline code (`#!/usr/bin/env python3` → `python3 -c '<content>'`)."""
    import shlex

    content = content[:MAX_CONTENT]
    if not interpreter:
        first = content.split("\n", 1)[0]
        if first.startswith("#!"):
            words = first[2:].split()
            interpreter = posixpath.basename(words[-1] if words and posixpath.basename(words[0]) == "env"
                                             else words[0]) if words else "sh"
        else:
            interpreter = "sh"
    if interpreter in _SHELLS or interpreter in ("source", "."):
        return content
    return shlex.join([interpreter, _CODE_FLAGS.get(interpreter, "-c"), content])


# a script by its name: the interpreter that runs it when someone starts it (a shebang line says it for any name)
_SCRIPT_SUFFIX = re.compile(r"\.(sh|bash|zsh|ksh|command|ps1|psm1|bat|cmd|py|pyw|pl|rb|js|mjs|cjs|php|lua)$",
                            re.IGNORECASE)
_SUFFIX_INTERPRETER = {"sh": "sh", "bash": "sh", "zsh": "sh", "ksh": "sh", "command": "sh", "ps1": "pwsh",
                       "psm1": "pwsh", "bat": "sh", "cmd": "sh", "py": "python3", "pyw": "python3", "pl": "perl",
                       "rb": "ruby", "js": "node", "mjs": "node", "cjs": "node", "php": "php", "lua": "lua"}


# A dropper, a reverse shell or a wiper is a few lines. A long script is a program with its own logic (a system
# tool's wrapper, a package's maintainer script deletes its own files under /etc), and interpreter code is judged
# by what it mentions together (a socket and a shell, a download and an exec), which says what a one-liner does
# and nothing of a module of hundreds of lines: only a script this short is judged as a whole
SHORT_PROGRAM = 1500


# -- web shells ---------------------------------------------------------------------------------------------------

# a page a web server runs for each request (PHP, JSP, ASP and ASP.NET, ColdFusion, CGI scripts; Python, Ruby and
# Node handlers under a web root): its code runs as the server, for whoever sends the request
_SERVER_PAGE = re.compile(r"\.(php\d?|phtml|phar|pht|inc|jspx?|jsf|aspx?|ashx|asmx|asa|cer|cshtml|vbhtml|cfml?|"
                          r"cgi|pl|py|rb|js|mjs|cjs|ts|shtml)$", re.IGNORECASE)
_PAGE_ONLY = re.compile(r"\.(php\d?|phtml|phar|pht|jspx?|aspx?|ashx|asmx|asa|cer|cshtml|cfml?|cgi)$", re.IGNORECASE)
_WEB_ROOT = re.compile(r"(^|/)(var/www|srv/www|srv/http|usr/share/nginx|htdocs|wwwroot|inetpub|public_html|"
                       r"webapps|web-inf|cgi-bin)(/|$)", re.IGNORECASE)
# what a request hands the page: PHP's superglobals and raw body, a servlet's and ASP's request, Flask/Django/CGI
# forms, Express's req, Rails' params, ColdFusion's url and form scopes
_REQUEST = re.compile(
    r"\$_(?:get|post|request|cookie|files)\b|\$_server\s*\[\s*['\"]http_|php://input|getallheaders\s*\(|"
    r"\$http_(?:get|post)_vars|request\s*\.\s*(?:getparameter|getheader|getquerystring|getinputstream|getreader|"
    r"querystring|form|params|item|cookies|headers|args|values|get_json|json|data|body|files|servervariables|get|"
    r"post)\b|request\s*[\[(]\s*['\"]|\breq\s*\.\s*(?:query|body|params|headers|cookies)\b|cgi\.fieldstorage|"
    r"\bform\.getvalue|\bform\s*\[|\$request->(?:input|get|query|post)\b|#(?:url|form)\.\w+#|\bparams\s*\[",
    re.IGNORECASE)
# what runs a string as a command or as code: PHP's program and code runners, Java's Runtime.exec and
# ProcessBuilder, .NET's Process.Start, classic ASP's Execute/Eval and WScript.Shell, ColdFusion's cfexecute,
# Python's os/subprocess/eval, Node's child_process, Ruby's and PHP's backticks
_RUNS = re.compile(
    r"(?<![\w>:$.])(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|eval|assert|create_function|"
    r"call_user_func(?:_array)?|execute|executeglobal)\s*\(|"
    r"getruntime\s*\(\s*\)\s*\.\s*exec\s*\(|\bnew\s+processbuilder\s*\(|\bprocess\s*\.\s*start\s*\(|"
    r"\bprocessstartinfo\s*\(|\b(?:w?shell|wsh\w*|objshell|oshell|ws|cp|child_?process|runtime|rt)\s*\.\s*"
    r"(?:exec|run|execsync|spawn|spawnsync|execfile)\s*\(|\bcfexecute\b|"
    r"\bos\s*\.\s*(?:system|popen|exec\w*|spawn\w*)\s*\(|\bsubprocess\s*\.\s*\w+\s*\(|"
    r"(?<![\w.])(?:execsync|spawnsync|execfile|spawn)\s*\(|`[^`\n]{0,200}(?:\$_|#\{\s*params)[^`\n]{0,200}`|"
    r"%x\{[^}\n]{0,200}params|\beval\s+request\b|\bexecute\s+request\b|"
    r"(?P<method>\.\s*(?:exec|run)\s*\()", re.IGNORECASE)
# a program runner in the page: then any object's `.Exec(` / `.Run(` may be it (`o.Exec(Request("c"))`), where
# otherwise `.exec(` is as likely a regular expression's
_RUNNER_MADE = re.compile(r"wscript\.shell|shell\.application|child_process|getruntime|processbuilder", re.IGNORECASE)
# a request value called as a function (`$_GET['f']($_GET['a'])`, `@$_POST[x]($y)`)
_CALLED = re.compile(r"\$_(?:get|post|request|cookie)\s*\[[^\]]{0,40}\]\s*\(", re.IGNORECASE)
# a value cleaned for a command line or made a number before it is used
_CLEANED = re.compile(r"escapeshellarg|escapeshellcmd|intval|\(int\)|is_numeric|ctype_\w+|basename|shlex\.quote|"
                      r"integer\.parseint|\bint\s*\(", re.IGNORECASE)
# `name = value` (PHP's `$name`, a declaration's name): found at every name, so one inside another's value counts too
_ASSIGNED = re.compile(r"(?<![\w$])(?=(?P<var>\$?[A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?(?<![=!<>])=(?!=)\s*"
                       r"(?P<value>[^;\n=]{1,300}))")


def _call_args(text: str, start: int) -> str:
    """The text of a call's arguments from its opening parenthesis (up to the statement's end at most)."""
    depth, out = 0, []
    for ch in text[start:start + 400]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth <= 0:
                break
        elif ch in ";\n" and depth <= 1:
            break
        out.append(ch)
    return "".join(out)


def web_shell(content: str) -> str | None:
    """The call in server-side code that runs what a web request sends, as a command or as code: request input
    handed to `system`, `exec`, `eval`, `Runtime.exec`, `Process.Start`, `os.system`, `child_process.exec`...,
    straight or through a variable it was put in (`$c = $_REQUEST['cmd']; system($c);`), or called as a function
    itself. Input cleaned for a command line first (`escapeshellarg`, `intval`) does not count, nor a page that
    only shows the input (`echo htmlspecialchars($_GET['q'])`) or runs a fixed command. None when there is none."""
    text = content[:MAX_CONTENT]
    if (m := _CALLED.search(text)) is not None:
        return m.group(0)
    if not _REQUEST.search(text):
        return None
    tainted = {m.group("var").lstrip("$").lower() for m in _ASSIGNED.finditer(text)
               if _REQUEST.search(m.group("value")) and not _CLEANED.search(m.group("value"))}
    tainted.discard("")
    names = re.compile(r"(?<![\w>.])\$?(?:" + "|".join(re.escape(v) for v in sorted(tainted)) + r")\b",
                       re.IGNORECASE) if tainted else None
    runner = _RUNNER_MADE.search(text) is not None
    for m in _RUNS.finditer(text):
        if m.group("method") and not runner:
            continue
        if m.group(0).startswith(("`", "%x")):
            args = m.group(0)
        elif m.group(0).endswith("("):
            args = _call_args(text, m.end() - 1)
        else:
            args = text[m.start():m.end() + 200]
        if _CLEANED.search(args):
            continue
        if _REQUEST.search(args) or (names is not None and names.search(args)):
            return " ".join((m.group(0) + args).split())[:80]
    return None


def script_code(path: str, content: str) -> str:
    """A file that is a script (by its name, or by a shebang line) as the one command line that starts it;
    "" for any other file, and for a script longer than SHORT_PROGRAM. A batch file's and a PowerShell
    script's lines are read as they are: the shell rules read their syntax. A server page that runs what a
    request sends (`web_shell`: a PHP, JSP or ASP page anywhere, a Python, Ruby or Node handler under a web root)
    is a shell opened to the network, whatever its length: read as one listening on the web server's port."""
    if _SERVER_PAGE.search(path) and (_PAGE_ONLY.search(path) or _WEB_ROOT.search(path)) and web_shell(content):
        return "nc -l -p 80 -e /bin/sh"
    m = _SCRIPT_SUFFIX.search(path)
    if content.startswith("#!"):
        words = content[2:].split("\n", 1)[0].split()
        name = posixpath.basename(words[-1] if words and posixpath.basename(words[0]) == "env" else
                                  words[0] if words else "sh")
        interpreter = name if name in _SHELLS else "other"
    elif m is None:
        return ""
    else:
        interpreter = _SUFFIX_INTERPRETER[m.group(1).lower()]
    if len(content) > SHORT_PROGRAM:
        return ""
    if interpreter in ("sh", "pwsh") or interpreter in _SHELLS:
        return content
    return program_code(content, "" if interpreter == "other" else interpreter)


def _shell_quote(word: str) -> str:
    import shlex

    return shlex.quote(word)


# -- scripts a command runs ---------------------------------------------------------------------------------------

_SHELL_RUNNERS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "source", "."})
_INTERPRETERS = frozenset({"python", "python2", "python3", "pypy", "pypy3", "perl", "ruby", "node", "nodejs",
                           "php", "lua", "deno", "bun", "tsx", "ts-node", "Rscript", "rscript", "pwsh",
                           "powershell", "osascript", "tclsh", "awk", "gawk", "make"})


def script_runs(analysis: ShellAnalysis) -> list[tuple[str, str]]:
    """(interpreter, path) for every file a shell command runs: `bash x.sh`, `source x`, `python x.py`,
    `./x.sh` and `/abs/x` (interpreter "" then: the file's own #! line says)."""
    out: list[tuple[str, str]] = []
    for cmd in analysis.commands:
        argv = cmd.argv
        if not argv:
            continue
        name = cmd.name
        if name in _SHELL_RUNNERS or name in _INTERPRETERS:
            rest = [a for a in argv[1:] if not a.startswith("-")]
            if name in ("awk", "gawk"):
                rest = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "-f"]
            if name == "make":
                rest = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "-f"] or ["Makefile"]
            if "-c" in argv[1:] or "-e" in argv[1:]:
                continue  # inline code: the shell rules see it themselves
            if rest:
                out.append(("sh" if name in ("source", ".") else name, rest[0]))
        elif "/" in argv[0]:
            out.append(("", argv[0]))
        elif "\\" not in argv[0] and argv[0] not in ("", ".", ".."):
            # a bare name: a program found on PATH, which a project's environment (`.venv/bin`,
            # `node_modules/.bin`) or a user's bin folder puts first (`black`, `npx eslint`, `uv run pytest`)
            out.append((ON_PATH, argv[0]))
            if name == "yarn" and len(argv) > 1 and not argv[1].startswith("-") and argv[1] not in _YARN_VERBS:
                out.append((ON_PATH, argv[1]))  # `yarn eslint`: a package's program from node_modules/.bin
    return out


# a script a command runs by bare name: found in a folder on PATH (script_runs' interpreter for those)
ON_PATH = "(on PATH)"
# folders a program is found in by bare name: a project's environment, a user's own bin folders, the local ones
BIN_FOLDER = re.compile(r"(^|/)(\.?venv|env|virtualenv)/(bin|scripts)/[^/]+$|(^|/)node_modules/\.bin/[^/]+$|"
                        r"(^|/)\.(local|cargo|deno|bun|yarn|npm-global|volta|pyenv/shims|rbenv/shims|go)/bin/[^/]+$|"
                        r"^/home/[^/]+/(bin|go/bin)/[^/]+$|^/(usr/local|opt/homebrew|opt/local)/s?bin/[^/]+$",
                        re.IGNORECASE)
_YARN_VERBS = frozenset({"add", "remove", "install", "upgrade", "up", "run", "dlx", "exec", "workspace",
                         "workspaces", "why", "info", "init", "link", "unlink", "pack", "publish", "config", "cache",
                         "set", "plugin", "node", "bin", "dedupe", "npm", "constraints", "version", "audit",
                         "outdated", "global", "create", "test", "start", "build", "list", "login", "logout"})


_WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>"})
_COPIERS = frozenset({"cp", "mv", "install", "rsync", "ditto"})
_DOWNLOAD_FLAGS = {"curl": ("-o", "--output"), "wget": ("-O", "--output-document"),
                   "wget2": ("-O", "--output-document"), "aria2c": ("-o", "--out")}


def _as_written(source: str, folded: str) -> str | None:
    """A redirect's target as written in the command (the analysis keeps it folded: lower case). Only an
    ASCII target is recovered: folding changes the length of other text."""
    if not folded.isascii():
        return None
    at = source.lower().rfind(folded)
    return source[at:at + len(folded)] if at >= 0 else None


def files_written(analysis: ShellAnalysis) -> list[str]:
    """The files a shell command writes whole, as named in it: redirect targets, `tee` operands, a copy's
    destination, a download's output file. What the supervisor reads back after the command ran, so a later
    `bash f` is judged by what `f` holds (app/daemon/written.py). A name with a variable, a glob or a
    directory destination is left out: what it names is not known from the text."""
    out: list[str] = []
    for cmd in analysis.commands:
        argv = cmd.argv
        for op, target in cmd.redirects:
            if op in _WRITE_OPS and (written := _as_written(analysis.source, target)) is not None:
                out.append(written)
        if not argv:
            continue
        name = cmd.name
        operands = [a for a in argv[1:] if not a.startswith("-")]
        if name == "tee":
            out.extend(operands)
        elif name in _COPIERS and len(operands) >= 2:
            out.append(operands[-1])
        elif name in _DOWNLOAD_FLAGS:
            short, long = _DOWNLOAD_FLAGS[name]
            for k, a in enumerate(argv[1:-1], 1):
                # the flag alone or last of a run of short flags (`-sSLo f`, `-qO f`)
                if a in (short, long) or (len(a) > 2 and a[1] != "-" and a.startswith("-") and a.endswith(short[1])
                                          and a[1:].isalpha()):
                    out.append(argv[k + 1])
            out.extend(a.split("=", 1)[1] for a in argv[1:] if a.startswith(long + "="))
    return [p for p in dict.fromkeys(out) if p and p != "-" and not p.endswith("/") and
            not any(c in p for c in "$`*?[{") and not p.startswith("/dev/")]


# -- what a tool's own settings make it run or fetch next time ----------------------------------------------------

# A developer tool reads settings from the project or the home and does what they say at its next run: an agent
# starts its MCP servers and hooks, an editor its terminal profile and folder-open tasks, pre-commit its `system`
# hooks, Terraform its `external` data sources and `local-exec` provisioners, Yarn the release its `yarnPath`
# names, npm its `script-shell` and the install scripts of a manifest, git its fsmonitor, filters and hooks folder,
# pylint its `init-hook`, Bazel its status command, a dev container its create commands. Each setting below is
# (what runs it, a regex over the file's text); the commands they hold are also read out (`later_commands`) for
# the shell rules, which block what they block.

_TOOL_FILES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((tool, re.compile(rx, re.IGNORECASE)) for tool, rx in (
    ("yarn", r"(^|/)\.yarnrc(\.yml)?$"),
    ("npm", r"(^|/)\.npmrc$"),
    ("pre-commit", r"(^|/)\.pre-commit-(config|hooks)\.ya?ml$"),
    ("lefthook", r"(^|/)\.?lefthook(-local)?\.ya?ml$"),
    ("terraform", r"\.tf(\.json)?$|(^|/)\.terraformrc$|(^|/)terraform\.rc$"),
    ("vscode tasks", r"(^|/)\.vscode/tasks\.json$|(^|/)[^/]+\.code-workspace$"),
    ("vscode settings", r"(^|/)\.vscode/settings\.json$|(^|/)code/user/settings\.json$"),
    ("git attributes", r"(^|/)\.gitattributes$|(^|/)\.git/info/attributes$"),
    ("git config", r"(^|/)\.git/config$|(^|/)\.gitconfig$|(^|/)\.config/git/config$|(^|/)\.gitmodules$"),
    ("pylint", r"(^|/)\.?pylintrc$|(^|/)(setup\.cfg|tox\.ini|pyproject\.toml)$"),
    ("bazel", r"(^|/)\.bazelrc$|(^|/)user\.bazelrc$"),
    ("bun", r"(^|/)bunfig\.toml$"),
    ("cargo", r"(^|/)\.cargo/config(\.toml)?$"),
    ("dev container", r"(^|/)\.?devcontainer(/[^/]+)?/devcontainer\.json$|(^|/)\.devcontainer\.json$"),
    ("gradle", r"(^|/)gradle\.properties$|(^|/)gradle-wrapper\.properties$"),
    ("maven", r"(^|/)\.mvn/(jvm\.config|maven\.config|wrapper/maven-wrapper\.properties)$"),
    ("msbuild", r"(^|/)directory\.build\.(props|targets)$"),
    ("mise", r"(^|/)\.?mise(\.local)?\.toml$|(^|/)\.config/mise/config\.toml$"),
    ("mypy", r"(^|/)(\.?mypy\.ini|setup\.cfg|pyproject\.toml)$"),
    ("flake8", r"(^|/)(\.flake8|setup\.cfg|tox\.ini)$"),
    ("rubocop", r"(^|/)\.rubocop(_todo)?\.ya?ml$"),
    ("golangci", r"(^|/)\.?golangci\.(ya?ml|toml|json)$|(^|/)\.custom-gcl\.ya?ml$"),
    ("tflint", r"(^|/)\.tflint\.hcl$"),
    ("phpstan", r"(^|/)phpstan(\.dist)?\.neon(\.dist)?$"),
    ("goreleaser", r"(^|/)\.?goreleaser\.ya?ml$"),
    ("wget", r"(^|/)\.?wgetrc$"),
    ("maven", r"(^|/)\.mvn/extensions\.xml$"),
    ("rustup", r"(^|/)rust-toolchain(\.toml)?$"),
    ("mkdocs", r"(^|/)mkdocs\.ya?ml$"),
    ("js plugins", r"(^|/)\.(prettierrc|stylelintrc|eslintrc)(\.json|\.ya?ml)?$"),
))


@functools.lru_cache(maxsize=4096)
def tool_of(path: str) -> str | None:
    """The developer tool that reads the settings file at `path` at its next run, or None."""
    return next((tool for tool, rx in _TOOL_FILES if rx.search(path)), None)


def _rx(text: str) -> re.Pattern[str]:
    return re.compile(text, re.IGNORECASE | re.MULTILINE)


# (tool, setting that runs a command or loads code, what it does)
_RUNS_SETTING: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("yarn", _rx(r"^\s*(yarnPath|yarn-path)\s*[:= ]\s*\S"), "Yarn runs the release file its yarnPath names"),
    ("yarn", _rx(r"^\s*plugins\s*:|^\s*-\s*(path|spec)\s*:"), "Yarn loads the plugins the file names"),
    ("yarn", _rx(r"^\s*injectEnvironmentFiles\s*:"), "Yarn loads environment files the file names"),
    ("npm", _rx(r"^\s*(script-shell|shell|git|onload-script|node-options|editor|browser|viewer)\s*=\s*\S"),
     "npm runs the program the setting names"),
    ("pre-commit", _rx(r"^\s*-?\s*language\s*:\s*['\"]?(system|script|unsupported|unsupported_script|docker_image|"
                       r"fail)\b"), "pre-commit runs the hook's entry as a command at every commit"),
    ("lefthook", _rx(r"^\s*(run|script)\s*:"), "lefthook runs the command at every commit"),
    ("terraform", _rx(r"\bdata\s+\"external\"|\bprovisioner\s+\"(local-exec|remote-exec)\"|\"external\"\s*:|"
                      r"\"local-exec\"\s*:"), "Terraform runs the command at the next plan or apply"),
    ("vscode tasks", _rx(r"\"runOn\"\s*:\s*\"folderOpen\""), "the editor runs the task as soon as the folder opens"),
    ("vscode settings", _rx(r"\"terminal\.integrated\.(shell|shellArgs|profiles|automationProfile)\.?[\w.]*\"\s*:|"
                            r"\"terminal\.integrated\.env\.\w+\"\s*:\s*\{[^}]*\"(LD_PRELOAD|BASH_ENV|ENV|NODE_OPTIONS|"
                            r"PYTHONSTARTUP|PERL5OPT|RUBYOPT|PROMPT_COMMAND|DYLD_INSERT_LIBRARIES)\"|\"[\w.-]*\.(executablePath|serverPath|runtime)\"\s*:\s*\"[^\"]*"
                            r"(/tmp/|/dev/shm/|\\temp\\|[;&|`$])"),
     "the editor starts the program the setting names"),
    ("git attributes", _rx(r"\s(filter|merge)=(?!lfs\b|binary\b|text\b|union\b)[\w.-]+"),
     "git runs the filter or merge driver the attribute names"),
    ("git config", _rx(r"^\s*(fsmonitor|hookspath|sshcommand|askpass|gpgprogram|program|textconv|clean|smudge|"
                       r"process|proxycommand|uploadpack|receivepack|cmd)\s*=\s*(?!true\b|false\b)\S|"
                       r"^\s*[\w.-]+\s*=\s*!"), "git runs the command the setting names"),
    ("pylint", _rx(r"^\s*init[-_]hook\s*=|^\s*load[-_]plugins\s*=\s*(?![\"'\[\s]*(pylint[\w.]*|pylint_\w+)"
                   r"([\s,\"'\]]+(pylint[\w.]*|pylint_\w+))*[\s,\"'\]]*$)\S"),
     "pylint runs the code or loads the plug-ins the setting names"),
    ("bazel", _rx(r"--(workspace_status_command|run_under|experimental_repo_remote_exec|host_jvm_args=-javaagent)|"
                  r"^\s*try-import\s+/(tmp|dev/shm|var/tmp)/"), "Bazel runs the command the option names"),
    ("bun", _rx(r"^\s*preload\s*="), "Bun loads the scripts the file names before every run"),
    ("cargo", _rx(r"^\s*(runner|rustc-wrapper|rustc-workspace-wrapper|rustc|rustdoc|linker)\s*=\s*"
                  r"(?![\"']?(sccache|cachepot|clang|gcc|cc|lld|ld\.lld|rust-lld|mold)[\"']?\s*$)\S"),
     "cargo runs the program the setting names at every build"),
    ("dev container", _rx(r"\"(initializeCommand|onCreateCommand|updateContentCommand|postCreateCommand|"
                          r"postStartCommand|postAttachCommand)\"\s*:"),
     "the dev container tooling runs the command when the project opens"),
    ("gradle", _rx(r"-javaagent|-agentpath|-agentlib|-Xbootclasspath"), "the JVM loads the agent the option names"),
    ("maven", _rx(r"-javaagent|-agentpath|-agentlib|-Xbootclasspath"), "the JVM loads the agent the option names"),
    ("msbuild", _rx(r"<Exec\b[^>]*\bCommand\s*="), "every build of the folder runs the command"),
    ("mise", _rx(r"^\s*\[hooks\]|^\s*(enter|leave|cd|preinstall|postinstall)\s*=|^\s*_\.source\s*="),
     "mise runs the hook when a shell enters the folder"),
    # a plug-in named by a path (a file of the project or anywhere) rather than an installed package
    ("mypy", _rx(r"^\s*plugins\s*=.*?([\w.-]*/[\w./-]*|\b[\w-]+\.py\b)"), "mypy loads the plug-in file it names"),
    ("flake8", _rx(r"^\s*\[flake8:local-plugins\]"), "flake8 loads the project's local plug-in code"),
    ("rubocop", _rx(r"^\s*(require|plugins)\s*:(\s*\n\s*-)?\s*['\"]?(\.{0,2}/|[\w/-]+\.rb\b)"),
     "RuboCop loads the Ruby file it names"),
    ("golangci", _rx(r"\bpath\s*:\s*\S+\.so\b|^\s*plugins\s*:"), "golangci-lint loads the plug-in it names"),
    ("tflint", _rx(r"^\s*source\s*=\s*\"(?!github\.com/terraform-linters/)[^\"]+\""),
     "TFLint downloads and runs the plug-in from the source it names"),
    ("phpstan", _rx(r"^\s*(bootstrapFiles|bootstrap)\s*:"), "PHPStan runs the PHP file before it analyses"),
    ("goreleaser", _rx(r"^\s*(before|after|hooks|pre|post)\s*:\s*(\n\s*(hooks\s*:\s*)?\n?\s*-|\S)"),
     "GoReleaser runs the hook commands at every release"),
    ("wget", _rx(r"^\s*use_askpass\s*="), "wget runs the program it names for every password"),
    ("maven", _rx(r"<extension>"), "Maven downloads and loads the build extension at every build"),
    ("rustup", _rx(r"^\s*path\s*="), "rustup runs the toolchain programs from the folder it names"),
    ("mkdocs", _rx(r"^\s*hooks\s*:"), "MkDocs runs the Python hook files at every build"),
    ("js plugins", _rx(r"\"?plugins\"?\s*:\s*\[?[^\]\n]*[\"']\.{0,2}/|^\s*-\s*[\"']?\.{1,2}/"),
     "the linter or formatter loads the plug-in file it names"),
)

_INSTALL_TIME = ("preinstall", "install", "postinstall", "prepare", "prepublish", "preprepare", "postprepare",
                 "pre-install-cmd", "post-install-cmd", "pre-update-cmd", "post-update-cmd",
                 "post-autoload-dump", "post-root-package-install", "post-create-project-cmd")


def _tool_table() -> dict:
    from gate.catalogue import DATA

    return DATA.get("tool_config", {})


def _ordinary_scripts() -> frozenset[str]:
    return frozenset(" ".join(s.split()) for s in _tool_table().get("ordinary_install_scripts", ()))


_CHAIN = re.compile(r"&&|\|\||;")


def _ordinary(script: str, ordinary: frozenset[str]) -> bool:
    """`script` is one of a project's ordinary build steps, or a chain of them (`husky && npm run build`)."""
    parts = [" ".join(p.split()) for p in _CHAIN.split(script)]
    return all(p in ordinary for p in parts if p) and any(parts)


def _install_script(content: str) -> str | None:
    """The first install-time script of a package manifest that is not one of a project's ordinary build steps."""
    try:
        data = json.loads(content)
    except (ValueError, RecursionError):
        return None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return None
    ordinary = _ordinary_scripts()
    for name in _INSTALL_TIME:
        value = scripts.get(name)
        values = [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] \
            if isinstance(value, list) else []
        for v in values:
            if v.strip() and not _ordinary(v, ordinary):
                return f'"{name}": {v.strip()[:60]}'
    return None


def _agent_setting(path: str, content: str) -> str | None:
    commands = [c for c in _agent_commands(path, content) if c.strip()]
    return commands[0][:60] if commands else None


def tool_runs(path: str, content: str) -> str | None:
    """What a tool's settings file written at `path` with `content` makes the tool run or load at its next run
    ("<setting>: <what runs it>"), or None for settings that only shape its behaviour."""
    text = content[:MAX_CONTENT]
    low = path.lower()
    if runs_later(path) == "agent config" and (cmd := _agent_setting(path, text)) is not None:
        return f"{cmd}: a coding agent starts it at its next start or tool call"
    if low.endswith("package.json") or low.endswith("composer.json"):
        if (script := _install_script(text)) is not None:
            return f"{script}: the package manager runs it at every install"
        return None
    tools = {tool for tool, rx in _TOOL_FILES if rx.search(path)}
    if not tools:
        return None
    for name, rx, what in _RUNS_SETTING:
        if name in tools and (m := rx.search(text)) is not None:
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.end())
            line = text[start:end if end != -1 else len(text)]
            return f"{' '.join(line.split())[:60]}: {what}"
    return None


# -- where a tool's settings send it for packages -----------------------------------------------------------------

_URL = re.compile(r"\b(?:https?|git\+https?|git\+ssh|sparse\+https?|registry\+https?|s3|ftp)://[^\s\"'<>,;\]\)]+",
                  re.IGNORECASE)
# (files whose every URL-valued source line is a package source, the lines that set one)
_SOURCE_LINE = _rx(
    r"^\s*(?:@[\w.-]+:)?registry\s*[=: ]|^\s*//[^\s]+:_|^\s*npmRegistryServer\s*:|^\s*npmScopes\s*:|"
    r"^\s*(?:index-url|extra-index-url|index_url|extra_index_url|find-links|trusted-host|repository|url|index|"
    r"registry|replace-with|mirror|channel_alias|default_channels|custom_channels|channels|distributionUrl|"
    r"wrapperUrl|sources?)\s*[=:]|"
    r"^\s*(?:-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host|-r|-c|--requirement|--constraint|"
    r"-e|--editable)(?:\s|=)|"
    r"^\s*-\s*(?:https?|s3|ftp)://|^\s*<add\s+key=|^\s*[\w.-]+\s*@\s*(?:https?|git\+\w+)://|^\s*:sources:|"
    r"--registry[= ]|--remote_cache[= ]|--remote_executor[= ]")
_PIP_OPTION_FILE = _rx(r"\A(?:\s*#[^\n]*\n|\s*\n)*\s*(?:-i|--index-url|--extra-index-url|-f|--find-links|"
                       r"--trusted-host)(?:\s|=)")
_SOURCE_FILES = re.compile(
    r"(^|/)(pip\.(conf|ini)|uv\.toml|\.npmrc|\.yarnrc(\.yml)?|\.condarc|\.mambarc|nuget\.config|\.gemrc|"
    r"bunfig\.toml|\.pypirc|pdm\.toml|poetry\.toml|\.bazelrc|gradle-wrapper\.properties|maven-wrapper\.properties|"
    r"\.terraformrc|terraform\.rc)$|(^|/)\.cargo/config(\.toml)?$|(^|/)\.bundle/config$|(^|/)(requirements|constraints)[\w.-]*\.(txt|in)$|"
    r"(^|/)requirements/[^/]+\.(txt|in)$|(^|/)pyproject\.toml$|\.tf$", re.IGNORECASE)
# requirement-file lines that take requirements from somewhere the file does not show: standard input or a URL
_TOML_HEADER = re.compile(r"^\s*\[\[?([^\]]+)\]\]?\s*$")
_PYPROJECT_SOURCES = ("tool.uv", "tool.poetry.source", "tool.pdm.source", "tool.pdm.resolution", "tool.pip",
                      "tool.hatch.envs", "tool.rye.sources", "tool.pixi")
_TF_SOURCE = re.compile(r"^\s*source\s*=", re.IGNORECASE)
_INCLUDED = _rx(r"^\s*(?:-r|-c|--requirement|--constraint)(?:\s+|=)(-|(?:https?|ftp)://\S+)\s*$")
# the registry a cargo source is replaced with (`[source.crates-io] replace-with = "x"`): a redirect by itself
_CARGO_REPLACE = _rx(r"^\s*\[source\.crates-io\][^\[]*?^\s*replace-with\s*=")


def _official(host: str, path: str) -> bool:
    for entry in _tool_table().get("official_sources", ()):
        site, _, prefix = entry.partition("/")
        if (host == site or host.endswith("." + site)) and (not prefix or path.lstrip("/").startswith(prefix)):
            return True
    return False


def _local(host: str) -> bool:
    return host in ("localhost", "127.0.0.1", "::1", "0.0.0.0") or host.endswith((".local", ".internal",
                                                                                     ".localhost", ".lan")) or \
        bool(re.match(r"^(10|127)\.|^192\.168\.|^172\.(1[6-9]|2\d|3[01])\.", host))


def package_sources(path: str, content: str) -> list[str]:
    """The addresses a settings file written at `path` sends a package manager (or a wrapper download) to, that are
    neither the ecosystem's own hosts nor this machine or the private network, as written; and `-r -` / `-r URL`
    (requirements taken from input or a URL the file does not show) and cargo's `replace-with` (crates.io replaced
    by another registry), whatever the host. Empty for any other file."""
    text = content[:MAX_CONTENT].replace("\\:", ":")  # a Java properties file escapes the colon (`https\://`)
    pip_options = bool(_PIP_OPTION_FILE.match(text))
    if not (_SOURCE_FILES.search(path) or pip_options):
        return []
    out: list[str] = []
    low = path.lower()
    if low.endswith(("requirements.txt", ".in", ".txt")) or pip_options:
        out.extend(f"{m.group(0).strip()}" for m in _INCLUDED.finditer(text))
    if "cargo/config" in low and _CARGO_REPLACE.search(text):
        out.append("replace-with (crates.io replaced)")
    pyproject, terraform = low.endswith("pyproject.toml"), low.endswith(".tf")
    section = ""
    for line in text.splitlines():
        if pyproject and (header := _TOML_HEADER.match(line)) is not None:
            section = header.group(1).strip().lower()
            continue
        if not _SOURCE_LINE.search(line):
            continue
        if (pyproject and not section.startswith(_PYPROJECT_SOURCES)) or (terraform and not _TF_SOURCE.match(line)):
            continue  # a project's own links (`[project.urls]`), a resource's address: not where packages come from
        out.extend(url for url, _ in unofficial_sources(line))
    return list(dict.fromkeys(out))


def unofficial_sources(text: str) -> list[tuple[str, str]]:
    """(URL, host) of every URL in `text` whose host is neither an ecosystem's own package host (`[tool_config]
    official_sources` of programs.toml) nor this machine or the private network."""
    from urllib.parse import urlsplit

    out: list[tuple[str, str]] = []
    for m in _URL.finditer(text):
        url = m.group(0)
        try:
            parts = urlsplit(url.split("+", 1)[-1] if url.lower().startswith(("git+", "sparse+", "registry+")) else url)
            host = (parts.hostname or "").lower()
        except ValueError:
            continue
        if not host or _local(host) or _official(host, parts.path):
            continue
        out.append((url, host))
    return out
