"""What a written file makes start by itself, what a CI pipeline or an infrastructure file makes run, and what a
file's name pretends to be: read from the path and the content (rules in gate/rules/autorun_files.py).

    autostart(path, content) -> Autostart | None   a file that starts commands by itself: which kind, which commands
    writable_script(command, project) -> str | None  the script a command runs from a place the agent can write
    fetch_run(command) -> str | None                a download run as code (`curl ... | sh`, `iex (iwr ...)`)
    sabotage(path, content) -> str | None           a shell's start-up file made to power off, kill or wipe
    ci_attack(path, content, collector) -> str | None  a CI pipeline made to leak secrets or run event text
    plain_ci(path, content) -> bool                 a CI workflow that only checks out, sets up, builds and tests
    iac_risk(path, content) -> (block, confirm)     Terraform that loads outside code, or a hand-written state
    playbook_commands(path, content) -> [str]       the shell lines an Ansible playbook's or Pulumi YAML's tasks run
    vendor_masquerade(path) -> str | None           a file named as the OS vendor's own, where the vendor never puts it

An agent-writable place is the one the shell rules use for cron lines and aliases (`_SCRIPT_PLACE` of
gate/rules/shell_context.py: home, working or hidden folder, a temporary folder, a script's own suffix), plus the
same home written out (`/home/<u>/`, `/Users/<u>/`, `C:/Users/<u>/`, `%APPDATA%`) and the project's own variables
(`$CLAUDE_PROJECT_DIR`, `${workspaceFolder}`).
"""

from __future__ import annotations

import functools
import json
import re
import shlex
from typing import NamedTuple

__all__ = ["Autostart", "autostart", "ci_attack", "fetch_run", "iac_risk", "is_ci", "plain_ci", "playbook_commands",
           "sabotage", "vendor_masquerade", "writable_script"]

_MAX = 100_000
_HOME_SHORT = re.compile(r"^(?:~|\$\{?home\}?)/", re.IGNORECASE)
_ABSOLUTE = re.compile(r"^(?:/|[a-z]:/)", re.IGNORECASE)
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
_HOOKS_KEY = re.compile(r"\"hooks\"\s*:")
_HOOK_COMMAND = re.compile(r"\"(?:command|bash|powershell)\"\s*:\s*\"((?:[^\"\\]|\\.)*)\"")
_FOLDER_OPEN = re.compile(r"\"runOn\"\s*:\s*\"folderOpen\"")
_COMMAND_VALUE = re.compile(r"\"command\"\s*:\s*\"((?:[^\"\\]|\\.)*)\"")
_WORKFLOW = re.compile(r"(?:^|/)\.github/workflows/[^/]+\.ya?ml$")
_JOBS = re.compile(r"^jobs\s*:", re.MULTILINE)
_WORD = re.compile(r"[a-z_]+")
_TOP_KEY = re.compile(r"^\S", re.MULTILINE)
_EVENT_ITEM = re.compile(r"^ {2}-\s*([a-z_]+)", re.MULTILINE)
_SELF_HOSTED = re.compile(r"self-hosted", re.IGNORECASE)
_OTHER_SECRET = re.compile(r"\$\{\{\s*secrets\.(?!GITHUB_TOKEN\b)", re.IGNORECASE)
_STEP_SPLIT = re.compile(r"&&|\|\||;|\|")
_YAML_FILE = re.compile(r"\.ya?ml$", re.IGNORECASE)
_HOSTS_KEY = re.compile(r"^\s*-?\s*hosts\s*:", re.MULTILINE)
_TASKS_KEY = re.compile(r"^\s*tasks\s*:", re.MULTILINE)
_BITS = re.compile(r"(?:32|64|\d)$")
_MAC_PREFS = re.compile(r"^/library/(?:managed )?preferences/")
_USER_CACHE = re.compile(r"^(?:~|/users/[^/]+|\$home)/library/caches/[^/]+$")
_USER_LIBRARY = re.compile(r"^(?:~|/users/[^/]+)/library/")
_SYSTEMD_NAME = re.compile(r"^systemd-[\w.-]+$", re.IGNORECASE)
_UNIT_SUFFIX = re.compile(r"\.(?:service|socket|timer|path|mount|automount|target|slice|scope|conf|network|netdev|"
                          r"link|d|preset|rules|xml|json|txt|md|log|ya?ml)$", re.IGNORECASE)
_PLAIN_TEMP = re.compile(r"^(?:/tmp|/var/tmp|/dev/shm|/run)/|/\.[^/]+/")
_WINDOWS_EXPLORER = re.compile(r"^[a-z]:/windows/explorer\.exe$")


def _table() -> dict:
    from gate.catalogue import DATA

    return DATA.get("autorun", {})


# -- an agent-writable place -------------------------------------------------------------------------------------

_HOME_ABS = re.compile(r"^(?:/home/[^/]+|/users/[^/]+|/root|/var/root|[a-z]:/users/[^/]+)/|^%(?:appdata|localappdata|"
                       r"userprofile|temp|tmp|public|programdata)%|^\$env:(?:appdata|localappdata|userprofile|temp|"
                       r"tmp|public|programdata)\b|^[a-z]:/(?:programdata|windows/temp|users/public)/|^%h/",
                       re.IGNORECASE)
_PROJECT_VAR = re.compile(r"^[\"']?\$\{?(?:claude_project_dir|pwd|workspacefolder|workspaceroot|"
                          r"containerworkspacefolder|localworkspacefolder|cursor_project_dir|gemini_project_dir|"
                          r"project_dir|github_workspace)\}?|^\$\(pwd\)", re.IGNORECASE)
_ROOTED = re.compile(r"^(?:/|~|\$home|\$\{home\}|[a-z]:/|%\w+%|\$env:)", re.IGNORECASE)
# a temporary folder, or a hidden one that is no known tool's own (`~/.nvm/nvm.sh`, `~/.cargo/env` are not hiding)
_TOOL_DIRS = r"(?:local|config|cargo|npm|nvm|pyenv|rbenv|rustup|deno|bun|volta|sdkman|asdf|cache|gem|m2|gradle|" \
             r"yarn|pnpm|conda|miniconda3|anaconda3|mamba|jenv|goenv|nodenv|fnm|mise|rye|poetry|venv|direnv|" \
             r"nix-profile|git|github|husky|devcontainer|vscode|docker)"
_TEMP_OR_HIDDEN = re.compile(r"^(?:/private)?/(?:tmp|var/tmp|dev/shm)/|/\.(?!" + _TOOL_DIRS + r"/)[^./][^/]*/|"
                             r"^[a-z]:/windows/temp/|^%te?mp%|^\$env:te?mp", re.IGNORECASE)
_SCRIPTISH = re.compile(r"\.(?:sh|bash|zsh|ksh|command|py|pyw|pl|rb|js|mjs|cjs|ts|mts|php|lua|ps1|psm1|bat|cmd|vbs|"
                        r"vbe|jse|wsf|hta|applescript|scpt|jar)$", re.IGNORECASE)


@functools.cache
def _script_place() -> re.Pattern[str]:
    from gate.rules.shell_context import _SCRIPT_PLACE  # the notion the cron and alias rules use

    return _SCRIPT_PLACE


_TOOL_HOOKS_DIR = re.compile(r"(?:^|/)\.(?:claude|gemini|qwen|cursor|github|kiro|windsurf|codex|augment)/hooks/[^/]+$")


def _agent_place(word: str, project_ok: bool) -> bool:
    """`word` (a program or a script) lies where the agent can write it. With `project_ok`, a script of the
    project itself (a relative path, the project's variable) does not count: only home, hidden and temporary
    folders outside it."""
    w = word.strip("'\"").replace("\\", "/")
    if not w or w.startswith("-") or "://" in w:
        return False
    if _TOOL_HOOKS_DIR.search(w):
        return False  # the folder the tool's documentation keeps hook scripts in (`.claude/hooks/format.sh`): asks
    if project_ok:
        return bool(_ROOTED.match(w)) and bool(_TEMP_OR_HIDDEN.search(w))
    if "/" not in w and not _SCRIPTISH.search(w):
        return False  # a bare word: an installed program or a subcommand (`serve`, `test`)
    if _TEMP_OR_HIDDEN.search(w):
        return True  # a temporary folder, or a hidden one no tool of its own keeps
    if _HOME_ABS.search(w) or _HOME_SHORT.match(w):
        return bool(_SCRIPTISH.search(w))  # a script kept in home (`~/bin/x.sh`); a program there is installed
    if _ABSOLUTE.match(w):
        return False  # an installed program's folder (`/usr/local/bin/backup.sh`, `/opt/app/run.py`): as for cron
        # lines, which ask about those and block home, working, hidden and temporary places
    return bool(_script_place().search(w) or _PROJECT_VAR.search(w) or _SCRIPTISH.search(w))


_INTERPRETERS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python2", "python3", "pythonw", "py",
                           "pypy", "pypy3", "node", "nodejs", "bun", "deno", "ruby", "perl", "php", "pwsh",
                           "powershell", "osascript", "tsx", "ts-node", "wscript", "cscript", "mshta", "cmd",
                           "rundll32", "regsvr32", "java", "lua", "source", ".", "call", "start"})
_RUNNERS = frozenset({"npx", "bunx", "pnpx", "uvx"})
_RUN_VERBS = frozenset({"uv", "poetry", "pipenv", "pnpm", "yarn", "pdm", "hatch", "rye"})
_PREFIXES = frozenset({"sudo", "nohup", "exec", "env", "setsid", "nice", "command", "time", "caffeinate", "doas",
                       "timeout", "stdbuf", "ionice", "/usr/bin/env", "/bin/sh", "-c"})
_CODE_FLAGS = frozenset({"-c", "-e", "-command", "/c", "/k", "--eval", "-r"})
_SPLIT = re.compile(r"&&|\|\||;|\||\n|&")


def _words(segment: str) -> list[str]:
    try:
        return shlex.split(segment, posix=True)
    except ValueError:
        return segment.split()


def writable_script(command: str, project_ok: bool = False, depth: int = 0) -> str | None:
    """The program or script `command` runs from a place the agent can write, or None."""
    if depth > 2:
        return None
    for segment in _SPLIT.split(command[:4000]):
        words = _words(segment)
        while words and (words[0] in _PREFIXES or _ASSIGNMENT.match(words[0]) or
                         (words[0].startswith("-") and len(words) > 1)):
            words = words[1:]
        hit = _runs(words, project_ok, depth)
        if hit is not None:
            return hit
    return None


def _runs(words: list[str], project_ok: bool, depth: int) -> str | None:
    if not words:
        return None
    program = words[0]
    if _agent_place(program, project_ok) and ("/" in program.replace("\\", "/") or _SCRIPTISH.search(program)):
        return program
    name = program.replace("\\", "/").rsplit("/", 1)[-1].lower()
    name = name[:-4] if name.endswith(".exe") else name
    base = name.rstrip("0123456789.") or name
    rest = words[1:]
    if name in _RUNNERS:
        rest = [w for w in rest if not w.startswith("-")]
        return _runs(rest, project_ok, depth)
    if name in _RUN_VERBS and rest[:1] and rest[0] in ("run", "exec", "dlx", "node", "x"):
        return _runs(rest[1:], project_ok, depth)
    if name not in _INTERPRETERS and base not in _INTERPRETERS:
        return None
    k = 0
    while k < len(rest):
        w = rest[k]
        low = w.lower()
        if low in _CODE_FLAGS and k + 1 < len(rest):
            return writable_script(rest[k + 1], project_ok, depth + 1)  # code given inline: what it runs
        if low in ("-m", "--module"):
            return None  # an installed module
        if low in ("run", "x", "-file", "-f", "/b", "/min", '""') or low.startswith("-"):
            k += 1
            continue
        return w if _agent_place(w, project_ok) else None
    return None


_FETCH_RUN = re.compile(
    r"\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b|"
    r"\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:python[\d.]*|node|perl|ruby|php|bun|deno)\b|"
    r"\|\s*(?:iex|invoke-expression)\b|\biex\s*[\(\s]\s*[\(\"']?\s*(?:\(?new-object\s+net\.webclient|iwr|irm|"
    r"invoke-webrequest|invoke-restmethod)|\.downloadstring\(|"
    r"(?:ba|z|da)?sh\s+(?:-c\s+)?[\"']?(?:<\(|\$\()\s*(?:curl|wget)\b|"
    r"\b(?:deno\s+run|bunx?|npx\s+-y|uvx|pipx\s+run)\s+[^\n|;]*\bhttps?://|"
    r"\b(?:python[\d.]*|node|perl|ruby)\s+-[ce]\s+[\"']?\$\((?:curl|wget)", re.IGNORECASE)


def fetch_run(command: str) -> str | None:
    """The part of `command` that downloads code and runs it, or None."""
    m = _FETCH_RUN.search(command[:8000])
    return None if m is None else m.group(0)


# -- files that start commands by themselves --------------------------------------------------------------------

class Autostart(NamedTuple):
    kind: str  # what starts it ("launchd job", "agent hook", ...)
    commands: tuple[str, ...]  # the command lines it starts
    project_ok: bool  # a script of the project itself is its ordinary use (git hooks, dev containers, .envrc)


_LAUNCHD = re.compile(r"/library/launch(?:agents|daemons)/[^/]+\.plist$", re.IGNORECASE)
_PLIST_ARGS = re.compile(r"<key>\s*(ProgramArguments|Program)\s*</key>\s*(<array>.*?</array>|<string>.*?</string>)",
                         re.S | re.I)
_PLIST_STRING = re.compile(r"<string>(.*?)</string>", re.S)
_UNIT = re.compile(r"(?:^|/)systemd/(?:user|system)/[^/]+\.(?:service|timer|socket|path)$|"
                   r"(?:^|/)\.config/systemd/user/|^/(?:etc|usr/lib|lib|usr/local/lib)/systemd/", re.IGNORECASE)
_UNIT_EXEC = re.compile(r"^\s*Exec\w*\s*=\s*[-@:+!]*(.+)$", re.MULTILINE)
_AUTOSTART_DESKTOP = re.compile(r"(?:^|/)autostart/[^/]+\.desktop$|(?:^|/)autostart-scripts/|"
                                r"(?:^|/)lxsession/[^/]+/autostart$|(?:^|/)openbox/autostart(?:\.sh)?$|"
                                r"(?:^|/)plasma-workspace/env/[^/]+\.sh$", re.IGNORECASE)
_DESKTOP_EXEC = re.compile(r"^\s*Exec\s*=\s*(.+)$", re.MULTILINE)
_CRON = re.compile(r"^/etc/(?:crontab|anacrontab)$|^/etc/cron\.d/|^/var/spool/cron(?:tabs)?/|"
                   r"^/usr/lib/cron/tabs/|^/private/var/at/tabs/", re.IGNORECASE)
_CRON_LINE = re.compile(r"^\s*(?:@\w+|(?:[\d*/,\-a-z]+\s+){5})(?:(?:root|[a-z_][\w-]*)\s+(?=[/~$.]))?(.+)$",
                        re.IGNORECASE)
_AGENT_HOOKS = re.compile(r"(?:^|/)\.(?:claude|gemini|qwen)/settings(?:\.local)?\.json$|(?:^|/)\.cursor/hooks\.json$|"
                          r"(?:^|/)\.windsurf/hooks\.json$|(?:^|/)\.github/hooks/[^/]+\.json$|"
                          r"(?:^|/)\.kiro/hooks/[^/]+$|(?:^|/)\.codex/config\.toml$|(?:^|/)\.augment/settings\.json$",
                          re.IGNORECASE)
_VSCODE_TASKS = re.compile(r"(?:^|/)\.vscode/tasks\.json$|\.code-workspace$", re.IGNORECASE)
_DEVCONTAINER = re.compile(r"(?:^|/)\.?devcontainer(?:/[^/]+)?/devcontainer\.json$|(?:^|/)\.devcontainer\.json$",
                           re.IGNORECASE)
_DEVCONTAINER_KEYS = ("initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand",
                      "postStartCommand", "postAttachCommand")
_GIT_HOOK = re.compile(r"(?:^|/)\.git/hooks/(?!.*\.sample$)[^/]+$|(?:^|/)\.husky/[^/_][^/]*$|(?:^|/)\.githooks/[^/]+$",
                       re.IGNORECASE)
_ENVRC = re.compile(r"(?:^|/)\.envrc$", re.IGNORECASE)
_COMMENT = re.compile(r"^\s*//[^\n]*$|(?<=[,{\[\s])//[^\n\"]*$", re.MULTILINE)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def _json(content: str) -> object:
    text = content[:_MAX]
    for attempt in (text, _TRAILING_COMMA.sub(r"\1", _COMMENT.sub("", text))):
        try:
            return json.loads(attempt)
        except (ValueError, RecursionError):
            continue
    return None


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        words = [v for v in value if isinstance(v, str)]
        return [" ".join(shlex.quote(w) for w in words)] if words else []
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


_HOOK_KEYS = frozenset({"command", "bash", "powershell", "cmd", "run", "script", "shell"})


def _hook_commands(node: object, out: list[str], inside: bool = False, depth: int = 0) -> None:
    """The command lines under a `hooks` key (Claude Code, Gemini CLI, Cursor, Copilot, Windsurf, Kiro)."""
    if depth > 10 or len(out) > 50:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            low = str(key).lower()
            now = inside or low in ("hooks", "then", "notify")
            if now and low in _HOOK_KEYS | {"notify"} and isinstance(value, (str, list)):
                out.extend(_strings(value))
            else:
                _hook_commands(value, out, now, depth + 1)
    elif isinstance(node, list):
        for value in node:
            _hook_commands(value, out, inside, depth + 1)


def _agent_hooks(path: str, content: str) -> list[str]:
    data: object
    if path.lower().endswith(".toml"):
        import tomllib

        try:
            data = tomllib.loads(content[:_MAX])
        except (ValueError, RecursionError):
            data = None
    else:
        data = _json(content)
    out: list[str] = []
    if data is not None:
        _hook_commands(data, out)
        return out
    if _HOOKS_KEY.search(content):
        out.extend(m.group(1) for m in _HOOK_COMMAND.finditer(content))
    return out


def _folder_open_tasks(content: str) -> list[str]:
    data = _json(content)
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if isinstance(data, dict) and isinstance(data.get("tasks"), dict):
        tasks = data["tasks"].get("tasks")  # a .code-workspace's "tasks" section
    if not isinstance(tasks, list):
        if _FOLDER_OPEN.search(content):
            return [m.group(1) for m in _COMMAND_VALUE.finditer(content)]
        return []
    out = []
    for task in tasks:
        if not isinstance(task, dict):
            continue
        run_on = task.get("runOptions", {}).get("runOn") if isinstance(task.get("runOptions"), dict) else None
        if run_on != "folderOpen":
            continue
        for key in ("command", "windows", "linux", "osx"):
            value = task.get(key)
            if isinstance(value, dict):
                value = value.get("command")
            if isinstance(value, str) and value.strip():
                args = task.get("args") if key == "command" else None
                words = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
                out.append(" ".join([value, *(shlex.quote(w) for w in words)]))
    return out


def autostart(path: str, content: str) -> Autostart | None:
    """The commands a file written at `path` starts by itself (at login, on a schedule, when a folder opens or an
    agent starts), or None."""
    p = path.replace("\\", "/")
    text = content[:_MAX]
    if _LAUNCHD.search(p):
        commands = []
        for m in _PLIST_ARGS.finditer(text):
            words = [w.strip() for w in _PLIST_STRING.findall(m.group(2))]
            commands.append(" ".join(shlex.quote(w) for w in words if w))
        return Autostart("launchd job", tuple(commands), False)
    if _UNIT.search(p):
        return Autostart("systemd unit", tuple(m.group(1).strip() for m in _UNIT_EXEC.finditer(text)), False)
    if _AUTOSTART_DESKTOP.search(p):
        lines = [m.group(1).strip() for m in _DESKTOP_EXEC.finditer(text)] if p.endswith(".desktop") else \
            [line.strip().lstrip("@") for line in text.splitlines()]
        return Autostart("autostart entry", tuple(lines), False)
    if _CRON.search(p):
        lines = [m.group(1) for line in text.splitlines() if (m := _CRON_LINE.match(line)) and
                 not line.lstrip().startswith("#")]
        return Autostart("cron table", tuple(lines), False)
    if _AGENT_HOOKS.search(p):
        return Autostart("coding agent's hook", tuple(_agent_hooks(p, text)), False)
    if _VSCODE_TASKS.search(p):
        return Autostart("task run when the folder opens", tuple(_folder_open_tasks(text)), False)
    if _DEVCONTAINER.search(p):
        data = _json(text)
        if not isinstance(data, dict):
            return None
        host = tuple(_strings(data.get("initializeCommand")))  # runs on the host, before any container
        inside = tuple(c for key in _DEVCONTAINER_KEYS[1:] for c in _strings(data.get(key)))
        return Autostart("dev container's start command", host + inside, False) if host and any(
            writable_script(c) for c in host) else Autostart("dev container's start command", host + inside, True)
    if _GIT_HOOK.search(p):
        return Autostart("git hook", tuple(text.splitlines()), True)
    if _ENVRC.search(p):
        return Autostart("direnv file run when the folder is entered", tuple(text.splitlines()), True)
    return None


# -- shell start-up files made to sabotage ------------------------------------------------------------------------

_STARTUP = re.compile(r"(?:^|/)\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|kshrc|mkshrc|"
                      r"cshrc|tcshrc)$|(?:^|/)\.bashrc\.d/[^/]+$|(?:^|/)\.config/fish/(?:config\.fish|conf\.d/[^/]+)$|"
                      r"^/etc/(?:profile|bash\.bashrc|zsh/zshrc|zsh/zprofile|zshrc|zprofile)$|^/etc/profile\.d/|"
                      r"(?:^|/)(?:documents/(?:windows)?powershell|\.config/powershell|system32/windowspowershell/"
                      r"v1\.0)/(?:[\w.]+_)?profile\.ps1$|\$profile$", re.IGNORECASE)
_SABOTAGE = re.compile(
    # the machine powered off or restarted
    r"(?:^|[;&|(`]\s*|\b(?:then|do|else|sudo|doas|exec|nohup)\s+)(?:sudo\s+(?:-\S+\s+)*)?(?:shutdown|poweroff|halt|reboot)"
    r"(?:\.exe)?(?=$|[\s;&|)`])|"
    r"\bsystemctl\s+(?:--\S+\s+)*(?:poweroff|reboot|halt|kexec|emergency|rescue)\b|\b(?:tel)?init\s+[06]\b|"
    r"\bloginctl\s+(?:terminate|kill)-(?:session|user)\b|\b(?:stop|restart)-computer\b|"
    r"/proc/sysrq-trigger|tell\s+(?:app(?:lication)?\s+)?[\"']?(?:system events|finder)[\"']?\s+to\s+"
    r"(?:shut\s*down|restart|log\s*out)|\bpmset\s+(?:sleepnow|halt)|"
    # the session (or every process) killed
    r"\bkill\s+(?:-(?!0\s)\S+\s+)*(?:\$\$|\$\{?PPID\}?|-1|0|\$\(\s*pgrep\s+-u)(?=$|[\s;&|)'\"`])|"
    r"\b(?:pkill|killall)\s+(?:-\S+\s+)*(?:-u|--user)\b|"
    r"\b(?:pkill|killall)\s+(?:-\S+\s+)*(?:bash|zsh|sh|fish|login|sshd|terminal|iterm2|gnome-terminal|konsole|"
    r"loginwindow|windowserver|finder|dock|explorer(?:\.exe)?|gnome-shell|xorg|plasmashell)(?=$|[\s;&|)'\"`])|"
    r"\bstop-process\s+(?:-\S+\s+)*(?:-id\s+)?\$pid\b|\bstop-process\s+(?:-\S+\s+)*-name\s+['\"]?"
    r"(?:explorer|powershell|pwsh|winlogon|csrss)|\btaskkill\s+(?:/\S+\s+)*/im\s+(?:explorer|powershell|pwsh|"
    r"cmd|winlogon|csrss)(?:\.exe)?\b|\bexec\s+(?:/(?:usr/)?bin/)?(?:false|true|kill|exit)\b|"
    r"\btsdiscon\b|\blogoff(?:\.exe)?\b|rundll32(?:\.exe)?\s+user32\.dll,\s*lockworkstation|"
    # home, the disk or the working tree wiped
    r"\brm\s+(?:-\S+\s+)*-\w*[rR]\w*\s+(?:-\S+\s+)*(?:--no-preserve-root\s+)?[\"']?(?:~/?|\$\{?HOME\}?/?|/|\*|\.|"
    r"~/(?:documents|desktop|downloads|pictures|projects|code|src|work|\*)/?|/home/?\*?|/users/?\*?)[\"']?"
    r"(?=$|[\s;&|)`])|\bremove-item\s+[^\n]*-recurse[^\n]*(?:\$home|~|\$env:userprofile|[a-z]:\\\s|[a-z]:/\s)|"
    r"\b(?:rd|rmdir)\s+/s\s+/q\s+(?:[a-z]:\\|%userprofile%)|\bmkfs(?:\.\w+)?\s+/dev/|\bdd\s+[^\n]*of=/dev/(?:sd|nvme|disk|hd)|"
    # a fork loop
    r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}|\b(\w+)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&|"
    r"while\s+(?:true|:|1)\s*;?\s*do\s+[^\n]*&\s*(?:;\s*)?done|\bfork\s+while\s+fork|%0\s*\|\s*%0|\$0\s*&\s*\$0|"
    r"\bexec\s+\$0\b|"
    # no process or no program found any more
    r"^ulimit\s+(?:-\w*\s+)*-[un]\s+[01]\b|^(?:export\s+)?PATH=(?:''|\"\"|/dev/null|/nonexistent\S*)?\s*$",
    re.IGNORECASE)
_BARE_EXIT = re.compile(r"^(?:exit|logout)(?:\s+-?\d+)?\s*;?\s*$|^\[?\s*environment\]::exit\(", re.IGNORECASE)


_ALIAS = re.compile(r"^(?:alias\s+(?:-g\s+)?|abbr\s+(?:-a\s+)?|set-alias\s+(?:-name\s+)?)['\"]?([\w.-]+)['\"]?[=\s]\s*"
                    r"(?:-value\s+)?(.*)$", re.IGNORECASE)
_FUNCTION = re.compile(r"^(?:function\s+[\w:.-]+|[\w:.-]+\s*\(\s*\))\s*(?:\(\s*\))?\s*\{?\s*$|"
                       r"^function\s+[\w:.-]+\s*(?:\([^)]*\))?\s*\{", re.IGNORECASE)
_ONE_LINE_FUNCTION = re.compile(r"^(?:function\s+)?[\w:.-]+\s*(?:\(\s*\))?\s*\{.*\}\s*;?\s*$")
_FORK = re.compile(r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&|\b(\w+)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&")
_WRAPPED = re.compile(r"^(?:trap|eval|nohup|setsid|(?:ba|z)?sh\s+-c|exec)\s+", re.IGNORECASE)
_DAILY = frozenset({"ls", "cd", "cat", "cp", "mv", "rm", "grep", "find", "ps", "top", "git", "vim", "vi", "nano",
                    "less", "clear", "history", "make", "python", "python3", "pip", "node", "npm", "code", "ssh",
                    "sudo", "man", "echo", "pwd", "which", "exit"})


def sabotage(path: str, content: str) -> str | None:
    """What a shell's start-up file written at `path` does that stops every later shell: a power-off or restart,
    a kill of the session or of every process, a wipe, a fork loop, or an `exit` at its top level. Lines inside a
    function or an `if` (indented) and aliases of other names (`alias off='sudo poweroff'`) run only when typed."""
    p = path.replace("\\", "/")
    if not _STARTUP.search(p):
        return None
    depth = 0
    for line in content[:_MAX].splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if depth > 0 or line[:1] in (" ", "\t"):
            depth = max(0, depth + line.count("{") - line.count("${") - line.count("}"))
            continue
        if _FUNCTION.match(stripped):
            depth = max(0, line.count("{") - line.count("${") - line.count("}"))
            if depth == 0 and not stripped.endswith("}"):
                depth = 1 if "{" not in stripped else 0
            continue
        if _BARE_EXIT.match(stripped):
            return f"`{stripped[:40]}` at its top level ends every shell as soon as it opens"
        if _ONE_LINE_FUNCTION.match(stripped) and not stripped.startswith(("trap", "alias")):
            if _FORK.search(stripped):
                return f"`{stripped[:60]}` starts a fork loop at every shell start"
            continue  # a function defined on one line: it runs only when typed
        alias = _ALIAS.match(stripped)
        if alias is not None:
            value = alias.group(2).strip("'\" ")
            if alias.group(1).lower() in _DAILY and (_SABOTAGE.search(value) or _BARE_EXIT.match(value)):
                return f"`{stripped[:60]}` makes a command typed every day take the machine or the session down"
            continue
        text = stripped.replace("'", " ").replace('"', " ") if _WRAPPED.match(stripped) else stripped
        if _SABOTAGE.search(text) is not None:
            return f"`{stripped[:60]}` runs at every shell start"
    return None


# -- CI pipelines ----------------------------------------------------------------------------------------------

_CI = re.compile(r"(?:^|/)\.github/workflows/[^/]+\.ya?ml$|(?:^|/)\.github/actions/[^/]+/action\.ya?ml$|"
                 r"(?:^|/)\.gitlab-ci\.ya?ml$|(?:^|/)\.gitlab/ci/[^/]+\.ya?ml$|(?:^|/)\.circleci/config\.ya?ml$|"
                 r"(?:^|/)azure-pipelines[\w.-]*\.ya?ml$|(?:^|/)\.azure-pipelines/[^/]+\.ya?ml$|"
                 r"(?:^|/)\.travis\.ya?ml$|(?:^|/)bitbucket-pipelines\.ya?ml$|(?:^|/)\.drone\.ya?ml$|"
                 r"(?:^|/)jenkinsfile[^/]*$|(?:^|/)\.buildkite/[^/]+\.ya?ml$|(?:^|/)\.woodpecker(?:\.ya?ml|/[^/]+)$|"
                 r"(?:^|/)cloudbuild\.ya?ml$|(?:^|/)buildspec\.ya?ml$|(?:^|/)\.tekton/|(?:^|/)codemagic\.ya?ml$",
                 re.IGNORECASE)
# text of an event that anyone who can open an issue, a pull request or a comment writes
_EVENT_TEXT = re.compile(
    r"\$\{\{\s*(?:github\.event\.(?:issue\.(?:title|body)|pull_request\.(?:title|body|head\.(?:ref|label)|"
    r"head\.repo\.default_branch)|comment\.body|review\.body|review_comment\.body|discussion\.(?:title|body)|"
    r"discussion_comment\.body|pages\.[^}]*?\.page_name|commits\.[^}]*?\.(?:message|author\.(?:email|name))|"
    r"head_commit\.(?:message|author\.(?:email|name))|workflow_run\.(?:head_branch|display_title|"
    r"head_commit\.(?:message|author\.(?:email|name)))|release\.(?:name|body)|"
    r"(?:issue|pull_request)\.labels[^}]*?\.name)|github\.head_ref)\s*\}\}|"
    # the same on GitLab, Azure and Bitbucket: a merge request's title, description or source branch
    r"\$\{?CI_MERGE_REQUEST_(?:TITLE|DESCRIPTION|SOURCE_BRANCH_NAME)\}?|\$\{?CI_COMMIT_(?:MESSAGE|TITLE|DESCRIPTION|"
    r"BRANCH|REF_NAME)\}?|\$\(System\.PullRequest\.SourceBranch\)|\$\(Build\.SourceVersionMessage\)",
    re.IGNORECASE)
_ALL_SECRETS = re.compile(r"\b(?:to|from)json\s*\(\s*secrets\s*\)|\$\{\{\s*secrets\s*\}\}", re.IGNORECASE)
# a pull request's own code checked out and run by a trigger that hands it the repository's secrets
_PR_TARGET = re.compile(r"\bpull_request_target\b")
_PR_HEAD = re.compile(r"ref\s*:\s*['\"]?\$\{\{\s*(?:github\.event\.pull_request\.head\.(?:sha|ref)|github\.head_ref)"
                      r"\s*\}\}|"
                      r"refs/pull/\$\{\{\s*github\.event\.(?:pull_request\.)?number\s*\}\}/(?:head|merge)")
_ENV_OUT = re.compile(r"(?:^|[\s;&(`]|\$\()(?:env|printenv|export\s+-p|declare\s+-x|set|get-childitem\s+env:|"
                      r"gci\s+env:|dir\s+env:)\s*\|\s*(?:sudo\s+)?(?:curl|wget|nc|ncat|netcat|socat|base64|base32|xxd|od|hexdump|"
                      r"rev|gzip|openssl|gpg|invoke-webrequest|invoke-restmethod|iwr|irm|convertto-json|"
                      r"python[\d.]*\s+-c|node\s+-e)\b", re.IGNORECASE | re.MULTILINE)
_SECRET_REF = re.compile(r"\$\{\{\s*secrets\.[\w-]+\s*\}\}|\$\(System\.AccessToken\)|"
                         r"\$\(\w*(?:TOKEN|SECRET|PASSWORD|KEY)\w*\)|\$CI_JOB_TOKEN\b|\$\{?[A-Z_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|"
                         r"PRIVATE_?KEY|ACCESS_?KEY|CREDENTIALS?)[A-Z_]*\}?|%[A-Z_]*(?:TOKEN|SECRET|PASSWORD)[A-Z_]*%|"
                         r"\$env:[A-Z_]*(?:TOKEN|SECRET|PASSWORD|KEY)\w*", re.IGNORECASE)
_ENCODED = re.compile(r"\|\s*(?:base64|base32|basenc|xxd|od|hexdump|rev|gzip|openssl\s+(?:enc|base64))\b|"
                      r"\|\s*sed\s+['\"]?s/\./|\bbase64\s+<<<", re.IGNORECASE)
_DECODED = re.compile(r"\b(?:base64|base32|basenc|openssl\s+(?:enc|base64))\b[^|\n]*\s(?:-d|-D|--decode)\b|"
                      r"\bxxd\s+-r|\bgunzip\b|\bgzip\s+-d", re.IGNORECASE)
# a secret written to a file that the run then publishes (an artifact, a release, a gist)
_TO_FILE = re.compile(r">>?\s*[\w./$~{}-]+|\btee\s+(?:-a\s+)?[\w./$~{}-]+")
_PUBLISH = re.compile(r"\buses:\s*actions/upload-artifact\b|\bgh\s+(?:gist\s+create|release\s+(?:create|upload))\b|"
                      r"^\s*artifacts\s*:|\bpublish(?:Pipeline|Build)Artifacts?\b|\bstore_artifacts\b|"
                      r"\barchiveArtifacts\b", re.IGNORECASE | re.MULTILINE)
_RUNNER = re.compile(r"(?:^|[\s/])config\.(?:sh|cmd)\s[^\n]*--token\b|\bactions-runner-(?:linux|osx|win)-|"
                     r"\bsvc\.sh\s+install\b|\bgitlab-runner\s+register\b|\brunsvc\.sh\b|"
                     r"api\.github\.com/(?:repos|orgs)/[^\s'\"]+/actions/runners/registration-token", re.IGNORECASE)
_HOST = re.compile(r"\b(?:https?|wss?|ftp)://([\w.-]+)|\b((?:[a-z0-9-]+\.)+(?:site|net|com|io|app|dev|fun|pro|live|me|"
                   r"online|sh|st|lt|run|link|cn|in|org))\b", re.IGNORECASE)
_SENDS = re.compile(r"\b(?:curl|wget|nc|ncat|socat|scp|rsync|invoke-webrequest|invoke-restmethod|iwr|irm|http|"
                    r"https|xh|nslookup|dig|ssh|ftp|sftp)\b", re.IGNORECASE)
_SHARING = ("pastebin.com", "paste.ee", "hastebin.com", "ix.io", "sprunge.us", "dpaste.org", "dpaste.com",
            "paste.rs", "rentry.co")
# where a pipeline reports its result: a team's own chat channel, not a catcher
_NOTIFY = frozenset({"hooks.slack.com", "api.telegram.org", "discord.com", "discordapp.com", "outlook.office.com"})


def _collector(host: str, collectors: frozenset[str]) -> bool:
    host = host.lower().rstrip(".")
    if host in _NOTIFY:
        return False
    parts = host.split(".")
    return any(".".join(parts[i:]) in collectors for i in range(len(parts) - 1))


def is_ci(path: str) -> bool:
    """`path` is a CI pipeline's file (a workflow, `.gitlab-ci.yml`, a Jenkinsfile...)."""
    return _CI.search(path.replace("\\", "/")) is not None


def ci_attack(path: str, content: str, collectors: frozenset[str]) -> str | None:
    """What a CI pipeline written at `path` does that hands the project over: dumps every secret, sends to a
    request catcher or a paste site, runs text of an issue, a comment or a branch name as code, or registers the
    machine as a runner."""
    p = path.replace("\\", "/")
    if not _CI.search(p):
        return None
    text = content[:_MAX]
    if (m := _ALL_SECRETS.search(text)) is not None:
        return f"`{m.group(0)[:40]}` hands every secret of the repository to the step, where its log or a request " \
               "takes them"
    from gate.content import _yaml_commands  # the run: / script: values, as the CI runner reads them

    runs = _yaml_commands(text) if not p.lower().split("/")[-1].startswith("jenkinsfile") else text.splitlines()
    for line in runs:
        if (m := _EVENT_TEXT.search(line)) is not None:
            return f"runs `{m.group(0)[:50]}` as part of a command: whoever writes that issue, comment or branch " \
                   "name runs code with the pipeline's secrets"
    if _PR_TARGET.search(text) and (m := _PR_HEAD.search(text)) is not None and runs:
        return "checks out a pull request's own code on `pull_request_target`, which hands the run the repository's " \
               "secrets and write token: anyone who opens a pull request runs code with them"
    for line in text.splitlines():
        if (m := _RUNNER.search(line)) is not None:
            return f"registers a machine as the repository's runner ({m.group(0).strip()[:50]}): every later job " \
                   "runs there"
        stripped = line.strip()
        if _ENV_OUT.search(stripped):
            return f"`{stripped[:60]}` sends the whole environment, secrets included, out of the step"
        if _TO_FILE.search(stripped) and not _DECODED.search(stripped) and (
                _SECRET_REF.search(stripped.split(">", 1)[0].split("tee", 1)[0]) or
                _ALL_SECRETS.search(stripped)) and _PUBLISH.search(text):
            return f"`{stripped[:60]}` writes a secret to a file the run then publishes for anyone who can see it"
        if _ENCODED.search(stripped) and not _DECODED.search(stripped) and \
                _SECRET_REF.search(stripped.split("|", 1)[0]):
            return f"`{stripped[:60]}` prints a secret encoded past the log's masking"
        for hm in _HOST.finditer(line):
            if hm.group(2) and (line[hm.start() - 1:hm.start()] in ("/", ".", "-", "_") or not _SENDS.search(line)):
                continue  # a file's name (`./scripts/transfer.sh`), not a host a request goes to
            host = hm.group(1) or hm.group(2) or ""
            if _collector(host, collectors) or any(s.split("/")[0] == host.lower() and (
                    "/" not in s or s.split("/", 1)[1] in line.lower()) for s in _SHARING):
                return f"sends to {host}, a request catcher, tunnel or paste site: whatever the step sends, with " \
                       "its secrets, lands with whoever reads it"
    return None


_ON = re.compile(r"^on\s*:\s*(.*)$|^\"?on\"?\s*:\s*(.*)$", re.MULTILINE)
_PLAIN_EVENTS = frozenset({"push", "pull_request", "workflow_dispatch", "schedule", "merge_group", "release",
                           "workflow_call", "create", "page_build", "check_suite"})
_EVENT_KEY = re.compile(r"^ {2}([a-z_]+)\s*:", re.MULTILINE)
_USES = re.compile(r"^\s*(?:-\s+)?uses\s*:\s*['\"]?([^@\s'\"#]+)", re.MULTILINE)
_WRITE_PERMISSION = re.compile(r"\bwrite-all\b|^\s*[\w-]+\s*:\s*write\b", re.MULTILINE)


def plain_ci(path: str, content: str) -> bool:
    """A GitHub Actions workflow that only checks out, sets up, installs, builds, lints and tests: its triggers are
    the repository's own, its actions come from known publishers, its steps run build and test tools, and it
    neither takes secrets nor writes to the repository, nor runs on the organisation's own machines."""
    p = path.replace("\\", "/").lower()
    if not _WORKFLOW.search(p):
        return False
    text = content[:_MAX]
    if not _JOBS.search(text) or not _ON.search(text):
        return False
    on = _ON.search(text)
    inline = (on.group(1) or on.group(2) or "").strip() if on else ""
    if inline:
        events = set(_WORD.findall(inline.lower()))
    else:
        block = text[on.end():] if on else ""
        end = _TOP_KEY.search(block)
        events = set(_EVENT_KEY.findall(block[: end.start()] if end else block))
        events |= set(_EVENT_ITEM.findall(block[: end.start()] if end else block))
    if not events or not events <= _PLAIN_EVENTS:
        return False
    if _SELF_HOSTED.search(text) or _WRITE_PERMISSION.search(text):
        return False
    if _OTHER_SECRET.search(text):
        return False
    owners = frozenset(o.lower() for o in _table().get("ci_action_owners", ()))
    for uses in _USES.findall(text):
        if uses.startswith("./") or uses.split("/", 1)[0].lower() not in owners:
            return False
    from gate.content import _yaml_commands

    programs = frozenset(_table().get("ci_plain_programs", ()))
    steps = [c for c in _yaml_commands(text) if c.strip()]
    for step in steps:
        for segment in _STEP_SPLIT.split(step):
            words = _words(segment)
            while words and _ASSIGNMENT.match(words[0]):
                words = words[1:]
            if words and (words[0] not in programs or words == ["set"]):
                return False
    return bool(steps) or bool(_USES.search(text))


# -- infrastructure as code -------------------------------------------------------------------------------------

_TF = re.compile(r"\.tf(?:\.json)?$|\.tofu$", re.IGNORECASE)
_STATE = re.compile(r"(?:^|/)[^/]*\.tfstate(?:\.backup)?$", re.IGNORECASE)
_BLOCK_HEAD = re.compile(r"^\s*(module|required_providers|provider)\b[^{\n]*\{", re.MULTILINE)
_SOURCE = re.compile(r"^\s*source\s*=\s*\"([^\"]+)\"", re.MULTILINE)
_PROVIDER_SOURCE = re.compile(r"source\s*=\s*\"([^\"]+)\"")
_REMOTE_MODULE = re.compile(r"^(?:git::|hg::|s3::|gcs::|git@|ssh://|https?://|github\.com/|bitbucket\.org/|"
                            r"gitlab\.com/)|\.git(?:$|[/?])|\?ref=|\.(?:zip|tar\.gz|tgz|tar)(?:$|\?)", re.IGNORECASE)
_CLI_CONFIG = re.compile(r"(?:^|/)(?:\.terraformrc|terraform\.rc|\.tofurc|tofu\.rc)$", re.IGNORECASE)
_PROVIDER_SWAP = re.compile(r"^\s*(dev_overrides|network_mirror|filesystem_mirror)\b", re.MULTILINE)
_NONSENSITIVE = re.compile(r"\bnonsensitive\s*\(\s*([^)\n]{1,80})\)", re.IGNORECASE)


def _block_body(text: str, start: int) -> str:
    depth = 0
    for i in range(start, min(len(text), start + 20_000)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return text[start:start + 20_000]


def iac_risk(path: str, content: str) -> tuple[str | None, str | None]:
    """(block, confirm) for an infrastructure file written at `path`: a hand-written Terraform state blocks (a
    resource put in or taken out of it is one `terraform apply` or `destroy` from the real thing); a module loaded
    from a repository or an address outside the registry, a provider from a namespace the registry does not vouch
    for, and a secret made printable by `nonsensitive()` ask."""
    p = path.replace("\\", "/")
    if _STATE.search(p):
        return f"{p.rsplit('/', 1)[-1]} is Terraform's record of real resources: written by hand, the next apply " \
               "or destroy acts on what it says, not on what exists", None
    text = content[:_MAX]
    if _CLI_CONFIG.search(p) and (m := _PROVIDER_SWAP.search(text)) is not None:
        return None, f"sets `{m.group(1)}`, which takes every provider from another place than the registry: its " \
                     "code runs with the cloud keys at every init and plan"
    if not _TF.search(p):
        return None, None
    namespaces = frozenset(n.lower() for n in _table().get("terraform_namespaces", ()))
    for m in _BLOCK_HEAD.finditer(text):
        body = _block_body(text, m.end() - 1)
        if m.group(1) == "module":
            src = _SOURCE.search(body)
            if src is not None and _REMOTE_MODULE.search(src.group(1)):
                return None, f"loads the module {src.group(1)[:70]} from outside the registry: its provisioners and " \
                             "external programs run at plan and apply"
        elif m.group(1) == "required_providers":
            for src in _PROVIDER_SOURCE.findall(body):
                parts = src.lower().split("/")
                ns = parts[-2] if len(parts) >= 2 else ""
                host = parts[0] if len(parts) == 3 else "registry.terraform.io"
                if host not in ("registry.terraform.io", "registry.opentofu.org") or ns not in namespaces:
                    return None, f"takes the provider {src[:60]} from a namespace the registry does not vouch " \
                                 "for: its plug-in runs with the cloud keys at init and plan"
    if (m := _NONSENSITIVE.search(text)) is not None:
        return None, f"`nonsensitive({m.group(1)[:40]})` prints a secret in the plan's and the apply's output"
    return None, None


# -- playbooks and YAML programs: the commands their tasks run ------------------------------------------------------

_PLAYBOOK_PATH = re.compile(r"(?:^|/)roles/[^/]+/(?:tasks|handlers)/[^/]+\.ya?ml$|(?:^|/)(?:playbooks?/[^/]+|"
                            r"[\w-]*playbook[\w-]*|site|main|deploy|setup|provision)\.ya?ml$|(?:^|/)pulumi\.ya?ml$",
                            re.IGNORECASE)
_PLAYBOOK_SHAPE = re.compile(r"^\s*-?\s*(?:hosts|tasks|ansible\.builtin\.\w+|type\s*:\s*command:local:Command)\b",
                             re.MULTILINE | re.IGNORECASE)
_TASK_KEY = re.compile(r"^(\s*)(?:-\s+)?(?:ansible\.(?:builtin|windows|posix)\.)?(?:shell|command|raw|win_shell|"
                       r"win_command|script|cmd|create|update|delete)\s*:\s*(.*)$", re.IGNORECASE)


def playbook_commands(path: str, content: str) -> list[str]:
    """The shell lines an Ansible playbook's tasks (`shell:`, `command:`, `raw:`, `win_shell:`) or a Pulumi YAML
    program's local commands (`create:`, `update:`, `delete:`) run, or [] for any other file."""
    p = path.replace("\\", "/")
    text = content[:_MAX]
    if not _YAML_FILE.search(p) or not (_PLAYBOOK_PATH.search(p) or (
            _HOSTS_KEY.search(text) and _TASKS_KEY.search(text))):
        return []
    if not _PLAYBOOK_SHAPE.search(text):
        return []
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines) and len(out) < 200:
        m = _TASK_KEY.match(lines[i])
        i += 1
        if m is None:
            continue
        indent, value = len(m.group(1)), m.group(2).strip()
        if value and value[0] not in "|>" and not value.startswith("#"):
            out.append(value.strip("'\""))
            continue
        if value[:1] not in "|>":
            continue  # a mapping below (`command:` with `cmd:` under it): its `cmd:` line is read on its own
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            if lines[i].strip():
                out.append(lines[i].strip())
            i += 1
    return out


# -- a file dressed as the system's own --------------------------------------------------------------------------

_APPLE_ID = re.compile(r"^com\.apple\.", re.IGNORECASE)
_APPLE_DAEMONS = frozenset({"mdworker", "mdworker_shared", "mds", "mds_stores", "launchd", "kernel_task",
                            "windowserver", "softwareupdated", "softwareupdate", "cfprefsd", "trustd", "syspolicyd",
                            "xprotect", "xprotectservice", "mrt", "coreaudiod", "airportd", "bluetoothd",
                            "usereventagent", "loginwindow", "systemuiserver", "appleupdate", "apple_update",
                            "icloudhelper", "securityd", "opendirectoryd", "configd", "notifyd", "distnoted",
                            "tccd", "amfid", "nsurlsessiond", "rapportd", "sharingd", "cloudd", "bird",
                            "keychainhelper", "spotlight", "finderhelper", "dockhelper"})
_LINUX_KTHREADS = re.compile(r"^\[?(?:kworker|kthreadd|ksoftirqd|kswapd\d*|kdevtmpfsi|kauditd|khugepaged|kblockd|"
                             r"rcu_(?:sched|preempt|bh)|jbd2|kintegrityd|ksmd|kcompactd\d*)(?:[/:\d\]-].*)?$",
                             re.IGNORECASE)
_LINUX_DAEMONS = frozenset({"sshd", "crond", "dbus-daemon", "rsyslogd", "systemd", "udevd",
                            "polkitd", "networkmanager", "accounts-daemon", "gvfsd", "atd", "snapd", "agetty",
                            "auditd", "chronyd", "ntpd", "containerd", "dockerd", "systemd-journald", "journald",
                            "syslogd", "xorg", "gdm", "lightdm", "pulseaudio", "pipewire", "upowerd", "udisksd",
                            "thermald", "avahi-daemon", "cupsd"})
_WINDOWS_PROCS = ("svchost", "lsass", "csrss", "winlogon", "services", "smss", "wininit", "spoolsv", "taskhostw",
                  "taskhost", "dllhost", "conhost", "rundll32", "dwm", "ctfmon", "sihost", "runtimebroker",
                  "searchindexer", "msmpeng", "wuauclt", "audiodg", "explorer", "lsm", "taskmgr", "regsvr32",
                  "mshta", "wscript", "cscript", "powershell", "winupdate", "windowsupdate", "msedgeupdate",
                  "googleupdate", "onedriveupdate")
_WINDOWS_HOME = re.compile(r"^[a-z]:/windows/(?:system32|syswow64|winsxs|servicing)/|"
                           r"^%(?:systemroot|windir)%/(?:system32|syswow64)/", re.IGNORECASE)
_WINDOWSISH = re.compile(r"^[a-z]:/|^%\w+%|^\$env:|\\", re.IGNORECASE)
_PROGRAM_SUFFIX = re.compile(r"\.(?:exe|dll|scr|sys|com|cpl|ocx|ps1|vbs|vbe|jse|bat|cmd|hta|wsf|lnk)$",
                             re.IGNORECASE)
_MAC_SYSTEM = re.compile(r"^/(?:private/)?(?:system|usr/(?:bin|sbin|lib|libexec|share))/", re.IGNORECASE)
_MAC_HIDES = re.compile(r"^(?:/private)?/(?:tmp|var/tmp|var/folders)/|^/users/shared/|^/library/|^/usr/local/|"
                        r"^/opt/|/\.[^/]+/|/library/caches/[^/]+$|^/var/(?:db|root)/", re.IGNORECASE)
_LINUX_HIDES = re.compile(r"^(?:/tmp|/var/tmp|/dev/shm|/run/user/\d+|/var/run|/run)/|/\.[^/]+/|^/usr/local/|^/opt/|"
                          r"^/var/lib/[^/]+$|^/etc/[^/]+$|^/lib(?:64)?/[^/]+$|^/usr/lib(?:64)?/[^/]+$|"
                          r"^(?:~|/home/[^/]+|/root)/\.(?:cache|local|config)/", re.IGNORECASE)


# the processes every Windows runs, whose name a dropped program copies with a letter changed (`svch0st`, `lsas`)
_CORE_PROCS = frozenset({"svchost", "lsass", "csrss", "winlogon", "wininit", "spoolsv", "explorer", "dllhost",
                         "conhost", "rundll32", "taskhostw", "smss"})


def _windows_lookalike(stem: str) -> str | None:
    from gate.hostile_hosts import one_edit_apart

    low = stem.lower()
    trimmed = _BITS.sub("", low) or low
    for name in _WINDOWS_PROCS:
        if low == name:
            return name
        if name in _CORE_PROCS and (trimmed == name or one_edit_apart(trimmed, name) or
                                    trimmed == name.replace("o", "0") or trimmed == name.replace("l", "1")):
            return name
    return None


def vendor_masquerade(path: str) -> str | None:
    """Why a file written at `path` is dressed as the OS vendor's own where the vendor never puts one: an Apple
    `com.apple.*` or daemon name outside /System, a `systemd-*` program or a kernel thread's name outside systemd's
    folders, a Windows system process's name (or one letter off it) outside Windows' own folders."""
    p = path.replace("\\", "/")
    name = p.rstrip("/").rsplit("/", 1)[-1]
    if not name or "/" not in p:
        return None
    low = p.lower()
    stem = name.lstrip(".").split(".", 1)[0] if not _APPLE_ID.match(name.lstrip(".")) else name
    # Apple
    if _APPLE_ID.match(name.lstrip(".")) or name.lstrip(".").lower() in _APPLE_DAEMONS:
        if _MAC_SYSTEM.match(low) or "/launchagents/" in low or "/launchdaemons/" in low or \
                _MAC_PREFS.match(low):
            return None  # Apple's own place, or a launchd job (judged by its own rule)
        user_cache = _USER_CACHE.search(low)
        if user_cache or (_MAC_HIDES.search(low) and not _USER_LIBRARY.search(low)):
            return f"{name} wears Apple's name in {p.rsplit('/', 1)[0] or '/'}, where Apple keeps nothing of its own"
        return None
    # Linux
    if _SYSTEMD_NAME.match(name) and not _UNIT_SUFFIX.search(name) and "/systemd/" not in low and \
            not low.startswith(("/usr/lib/", "/lib/", "/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/")) and \
            (low.startswith(("/usr/local/", "/opt/", "/var/", "/etc/", "/tmp/", "/dev/shm/")) or
             _LINUX_HIDES.search(low)):
        return f"{name} wears systemd's name outside systemd's own folders"
    if _LINUX_KTHREADS.match(name.lstrip(".")) and not _WINDOWSISH.search(path) and _ROOTED.match(p):
        return f"{name} wears the name of a kernel thread, which has no file: a process started from it hides " \
               "among the kernel's"
    if stem.lower() in _LINUX_DAEMONS and name.lstrip(".").lower() == stem.lower() and _LINUX_HIDES.search(low) \
            and not _WINDOWSISH.search(path) and (name.startswith(".") or _PLAIN_TEMP.search(low)):
        return f"{name} wears a system daemon's name in {p.rsplit('/', 1)[0]}, where no daemon is installed"
    # Windows
    if (_WINDOWSISH.search(path) or _PROGRAM_SUFFIX.search(name)) and _PROGRAM_SUFFIX.search(name) and \
            (real := _windows_lookalike(stem)) is not None:
        if _WINDOWS_HOME.match(low) and stem.lower() == real:
            return None
        if real == "explorer" and _WINDOWS_EXPLORER.match(low):
            return None
        if stem.lower() == real and not _WINDOWSISH.search(path):
            return None  # a program of that name outside a Windows path: not enough to tell
        return f"{name} wears the name of Windows' own {real} outside Windows' folders: a process of that name " \
               "hides among the system's"
    return None

