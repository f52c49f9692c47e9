"""Rules: a shell line that sets a developer tool or an interpreter up to run code later, or at once by a detour.

- A shell's start-up file variable (`BASH_ENV`, `ENV`) holding a command substitution (`$(...)`, backticks): the
  shell expands the value when it starts, so the substitution runs with every script. And Python's warning filter
  that imports a module which opens the browser (`PYTHONWARNINGS=::antigravity.x::`) with `BROWSER` set to a
  shell or an interpreter on the same line: starting Python runs that program. Both block
  (`block.shell.env-code-exec`): nothing ordinary is set up that way.
- A tool's setting that names a command it runs later, set from the shell: git's `core.fsmonitor`,
  `core.sshCommand`, `core.pager`, `core.editor`, `sequence.editor`, `diff.external`, `credential.helper`, filters,
  `uploadpack.packObjectsHook`, an alias starting with `!`; npm's lifecycle scripts (`npm pkg set
  scripts.postinstall=...`, `npm set-script`); the value is judged as the command line it is, and what the shell
  rules block blocks (`block.shell.tool-command-config`). A lifecycle script that runs at install (`preinstall`,
  `install`, `postinstall`, `prepare`) or a runner swapped for another file (`yarn config set yarnPath`, pnpm's and
  npm's `script-shell`) asks (`confirm.shell.tool-command-config`). `git config alias.co checkout`, `core.pager
  'less -R'` and `npm pkg set scripts.test=jest` pass.
- An environment file (`.env`, `prod.env`, `~/.pam_environment`, `environment.d`, `/etc/default/*`) written with a
  loader variable blocks (`block.files.env-file-hook`: every program started with it loads the library); with a
  variable that makes interpreters or tools run code it asks (`confirm.files.env-file-hook`).
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules import devconfig_batch
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.files import _judge_shell
from gate.shell import command_facts

__all__ = ["RULES"]

_SUBSTITUTION = re.compile(r"\$\(|`")
_STARTUP = frozenset({"bash_env", "env", "zdotdir"})
_BROWSERS = frozenset({"browser", "www_browser"})
_SHELLISH = re.compile(r"(^|/)(ba|z|da|k|c|tc|a|fi)?sh(\s|$)|(^|/)(python[\d.]*|perl|ruby|node|php|lua|osascript|"
                       r"pwsh|powershell|cmd(\.exe)?)(\s|$)|\s-c\s|\$\(|`|;", re.IGNORECASE)
_IMPORTING_FILTER = re.compile(r"^[^:,]*:[^:,]*:\s*(antigravity|webbrowser|this)\b", re.IGNORECASE)

# git settings whose value is a command line git runs (alias: when it starts with `!`)
_GIT_RUN_KEYS = re.compile(r"^(core\.(fsmonitor|sshcommand|pager|editor|askpass|hookspath|gitproxy)|sequence\.editor|"
                           r"diff\.external|diff\.[^.]+\.(command|textconv)|merge\.[^.]+\.driver|"
                           r"credential(\.[^ ]+)?\.helper|filter\.[^.]+\.(clean|smudge|process)|"
                           r"uploadpack\.packobjectshook|gpg(\.[^.]+)?\.program|pager\.[^.]+|"
                           r"difftool\.[^.]+\.cmd|mergetool\.[^.]+\.cmd|alias\.[^.]+|remote\.[^.]+\.(uploadpack|"
                           r"receivepack)|ssh\.variant|web\.browser|browser\.[^.]+\.cmd|instaweb\.httpd)$")
_GIT_PATH_KEYS = frozenset({"core.hookspath"})
# npm lifecycle scripts that run by themselves at `npm install` (and git dependencies' `prepare`)
_INSTALL_SCRIPTS = frozenset({"preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare",
                              "prepublish", "dependencies", "prepack", "postpack"})
_RUNNER_KEYS = frozenset({"yarnpath", "script-shell", "shell", "node-options", "plugins", "globalconfig",
                          "userconfig", "onlybuiltdependencies"})
_PM = frozenset({"npm", "pnpm", "yarn", "bun"})
# what a command that does harm later names: an address, a host, a device socket, a file
_REACHES = re.compile(r"://|\b\d{1,3}(?:\.\d{1,3}){3}\b|/dev/(?:tcp|udp)/|[\w-]\.[a-z]{2,}\b|/")


def _env_code(ctx: Context) -> str | None:
    source = getattr(ctx.action, "command", None) or getattr(ctx.action, "text", None) or ""
    if not isinstance(source, str) or "=" not in source:
        return None
    analysis = ctx.derived(command_facts)
    if analysis is None or not analysis.assignments:
        return None
    names = dict(analysis.assignments)
    for name, value in analysis.assignments:
        if name in _STARTUP and _SUBSTITUTION.search(value):
            return f"{name.upper()} holds a command substitution: the shell runs it as it expands the value at start"
    warn = names.get("pythonwarnings", "")
    browser = next((names[b] for b in _BROWSERS if b in names), "")
    if warn and browser and _IMPORTING_FILTER.match(warn.strip().strip("'\"")) and \
            _SHELLISH.search(browser.strip().strip("'\"")):
        return (f"PYTHONWARNINGS imports a module that opens the browser, and BROWSER={browser[:40]} is a shell or "
                f"an interpreter: starting Python runs it")
    return None


@rule("block.shell.env-code-exec", "environment variables chained to run code when a program starts",
      risk=Risk.CRITICAL, types=("shell", "type"), batch=devconfig_batch.batch)
def env_code_exec(ctx: Context) -> CheckResult:
    """`BASH_ENV` or `ENV` holding a command substitution (the shell runs it while expanding the value at every
    start), or Python's warning filter importing `antigravity`/`webbrowser` with `BROWSER` set to a shell or an
    interpreter (starting Python opens the "browser", which is that program). A start-up file named plainly
    (`BASH_ENV=~/.bash_env`) asks elsewhere (`confirm.shell.env-hook`)."""
    return _env_code(ctx)


def _git_setting(argv: tuple[str, ...]) -> tuple[str, str] | None:
    """(key, value) a `git config` line sets, or None."""
    words = list(argv[1:])
    if not words or words[0] != "config":
        return None
    plain: list[str] = []
    k = 1
    while k < len(words):
        w = words[k]
        if w in ("-f", "--file", "--blob", "--type", "--default", "--comment"):
            k += 2
            continue
        if w.startswith("-"):
            if w in ("--unset", "--unset-all", "--get", "--get-all", "--get-regexp", "-l", "--list", "--remove-section",
                     "--rename-section", "-e", "--edit"):
                return None
            k += 1
            continue
        plain.append(w)
        k += 1
    if plain and plain[0] == "set":
        plain = plain[1:]
    if len(plain) < 2:
        return None
    return plain[0].lower(), plain[1]


def _npm_script(argv: tuple[str, ...], name: str) -> tuple[str, str] | None:
    """(lifecycle name, command) an `npm pkg set scripts.X=...` or `npm set-script X ...` line sets, or None."""
    words = list(argv[1:])
    if name in ("npm", "pnpm", "bun") and words[:2] == ["pkg", "set"]:
        for w in words[2:]:
            key, eq, value = w.partition("=")
            if eq and key.lower().startswith("scripts."):
                return key[8:].lower(), value
    if name == "npm" and words[:1] == ["set-script"] and len(words) >= 3:
        return words[1].lower(), " ".join(words[2:])
    return None


def _tool_config(ctx: Context) -> tuple[str | None, str | None]:
    source = getattr(ctx.action, "command", None) or getattr(ctx.action, "text", None) or ""
    if not isinstance(source, str) or not (("config" in source and ("git" in source or " set" in source)) or
                                           "pkg" in source or "set-script" in source):
        return None, None
    analysis = ctx.derived(command_facts)
    if analysis is None:
        return None, None
    confirm: str | None = None
    for cmd in analysis.commands:
        command: str | None = None
        what = ""
        if cmd.name == "git" and (setting := _git_setting(cmd.argv)) is not None:
            key, value = setting
            if not _GIT_RUN_KEYS.match(key) or key in _GIT_PATH_KEYS:
                continue
            if key.startswith("alias."):
                if not value.startswith("!"):
                    continue
                value = value[1:]
            command, what = value, f"git's {key}"
        elif cmd.name in _PM and (script := _npm_script(cmd.argv, cmd.name)) is not None:
            stage, command = script
            what = f"the package's {stage} script"
            if stage in _INSTALL_SCRIPTS and confirm is None:
                confirm = f"{cmd.name} sets {what}, which runs by itself at every install: {command[:60]}"
        elif cmd.name in _PM and len(cmd.words) >= 4 and cmd.words[1] == "config" and cmd.words[2] == "set" and \
                cmd.words[3].split("=", 1)[0] in _RUNNER_KEYS:
            confirm = confirm or (f"{cmd.name} config set {cmd.words[3].split('=', 1)[0]}: the package manager runs "
                                  f"another program in its own place from now on")
            continue
        if not command or not command.strip():
            continue
        if not _REACHES.search(command):
            continue  # a value that names no host, address or file (`nc -e docs`) is judged by the rules that ask
        block, _ = _judge_shell(ctx, command.strip().strip("'\""))
        if block is not None:
            return f"sets {what} to a command it runs later: {block.reason}", None
    return None, confirm


@rule("block.shell.tool-command-config", "a developer tool set from the shell to run a command the shell rules block",
      risk=Risk.CRITICAL, types=("shell", "type"), batch=devconfig_batch.batch)
def tool_command_config_block(ctx: Context) -> CheckResult:
    """`git config` of a setting git runs as a command (`core.fsmonitor`, `core.sshCommand`, `core.pager`, an alias
    starting with `!`, filters, `credential.helper`), or `npm pkg set scripts.X=...`, whose command is one the shell
    rules block (`curl ... | sh`, a reverse shell): it runs at the tool's next use."""
    return ctx.derived(_tool_config)[0]


@rule("confirm.shell.tool-command-config", "a package's install script or a package manager's runner set from the "
      "shell", risk=Risk.HIGH, types=("shell", "type"), batch=devconfig_batch.batch)
def tool_command_config_confirm(ctx: Context) -> CheckResult:
    """`npm pkg set scripts.postinstall=...` (any script that runs by itself at install), `yarn config set yarnPath`,
    `npm config set script-shell`: the next install runs it. Other scripts (`scripts.test=jest`) pass."""
    block, confirm = ctx.derived(_tool_config)
    return None if block is not None else confirm




# files whose `NAME=value` lines become a process's environment: dotenv files a program or `docker --env-file`
# loads, systemd's and PAM's environment files, a login's environment.d
_ENV_FILE = re.compile(r"(^|/)\.env(\.[\w.-]+)?$|(^|/)[\w.-]+\.env$|(^|/)\.pam_environment$|"
                       r"(^|/)environment\.d/[^/]+\.conf$|^/etc/(default/[^/]+|sysconfig/[^/]+|environment)$",
                       re.IGNORECASE)
_ENV_ASSIGN = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")
_HOOK_NAMES = re.compile(r"^(ld_|dyld_|node_options$|java_tool_options$|_java_options$|jdk_java_options$|perl5opt$|"
                         r"rubyopt$|python(startup|path|warnings|inspect|home)$|bash_env$|env$|prompt_command$|"
                         r"git_ssh_command$|git_config|dotnet_startup_hooks$|cor_|coreclr_|lessopen$|browser$)",
                         re.IGNORECASE)


def _env_file(ctx: Context) -> tuple[str | None, str | None]:
    if ctx.type != "file_write":
        return None, None
    path = (getattr(ctx.action, "path", "") or "").replace("\\", "/")
    content = getattr(ctx.action, "content", None) or ""
    if not content or not _ENV_FILE.search(path):
        return None, None
    lines = []
    for line in content[:100_000].splitlines():
        m = _ENV_ASSIGN.match(line)
        if m is not None and _HOOK_NAMES.match(m.group(1)):
            value = m.group(2)
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]
            lines.append(f"export {m.group(1)}={_quote(value)}")
    if not lines:
        return None, None
    block, confirm = _judge_shell(ctx, "\n".join(lines[:40]))
    if block is not None:
        return f"{path} hands every program started with it {block.reason}", None
    if confirm is not None:
        return None, f"{path} hands every program started with it {confirm.reason}"
    return None, None


def _quote(value: str) -> str:
    import shlex

    return shlex.quote(value)


@rule("block.files.env-file-hook", "an environment file written with a variable that loads code into every program",
      risk=Risk.CRITICAL, types=("file_write",))
def env_file_block(ctx: Context) -> CheckResult:
    """A dotenv file (`.env`, `prod.env`), `~/.pam_environment`, an `environment.d` file or a service's
    `/etc/default` file written with a loader variable (`LD_PRELOAD`, `DYLD_INSERT_LIBRARIES`) or another variable
    whose value the shell rules block: every program started with that environment loads it."""
    return ctx.derived(_env_file)[0]


@rule("confirm.files.env-file-hook", "an environment file written with a variable that makes programs run code",
      risk=Risk.HIGH, types=("file_write",))
def env_file_confirm(ctx: Context) -> CheckResult:
    """The same files with a variable that makes interpreters or tools run code (`NODE_OPTIONS=--require`,
    `JAVA_TOOL_OPTIONS=-javaagent:`, `PYTHONSTARTUP`, `BASH_ENV`, `PERL5OPT=-M`). `NODE_ENV=production`, `PORT=3000`
    and a database address pass."""
    block, confirm = ctx.derived(_env_file)
    return None if block is not None else confirm


RULES: tuple[Rule, ...] = (env_code_exec, tool_command_config_block, tool_command_config_confirm, env_file_block,
                           env_file_confirm)


def _configures(text: str, low: str) -> bool:
    return ("config" in text and ("git" in text or " set" in text)) or "pkg" in text or "set-script" in text


devconfig_batch.register(RULES)
devconfig_batch.member(env_code_exec.id, lambda text, low: "=" in text)
devconfig_batch.member(tool_command_config_block.id, _configures)
devconfig_batch.member(tool_command_config_confirm.id, _configures)
