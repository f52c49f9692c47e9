"""Rules: a hidden program run from the home folder.

Malware that lives in a person's account hides by name: a dot file (`~/.jupdate.jar`, `~/Library/.agent`,
`~/.local/.helper`) or a dot folder no tool made (`~/.x/run.py`), started directly or through an interpreter
(java -jar, python, node, ruby, perl, php, osascript, a shell). Starting one asks
(`confirm.shell.hidden-program`). The folders where tools install themselves pass: ~/.local/bin and share,
~/.cargo, ~/.rustup, ~/.nvm, ~/.pyenv, ~/.rbenv, ~/.sdkman, ~/.vscode, ~/.deno, ~/.bun, ~/.volta, ~/.asdf,
~/.config and the like, unless the program's own name is hidden. A shell's rc file sourced is not a program.

A program copied from a mounted volume (a disk image under /Volumes, /media, /run/media) into ~/Library, with a
hidden file made there on the same line (a marker or pid file that says it is installed), is how a Mac dropper
settles in: it asks too.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.shell import command_facts

__all__ = ["RULES", "hidden_program"]

_HOME = re.compile(r"^(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|/Users/[^/]+|/home/[^/]+|/Users/Shared)/(.+)$", re.I)
# hidden folders tools install themselves in (their programs run from there by design)
_TOOL_HOMES = re.compile(
    r"^\.(?:local/(?:bin|share|lib|pipx)|cargo|rustup|nvm|pyenv|rbenv|goenv|jenv|nodenv|sdkman|vscode|vscode-server|"
    r"vscode-insiders|cursor|cursor-server|windsurf|deno|bun|volta|asdf|mise|proto|fnm|n|nvs|pnpm|npm|npm-global|yarn|"
    r"gradle|m2|conda|miniconda3?|anaconda3?|mambaforge|miniforge3?|poetry|pixi|dotnet|ghcup|cabal|stack|opam|"
    r"nimble|krew|tfenv|tgenv|rye|uv|config|oh-my-zsh|zsh|zinit|antigen|tmux|vim|emacs\.d|dotfiles|virtualenvs|"
    r"venv|git|claude|codex|gemini|platformio|espressif|arduino15|kube|docker|minikube|android|sonar|jbang|"
    r"juliaup|julia|elan|foundry|solana|wasmtime|wasmer|fly|encore|temporalio|serverless|terraform\.d|"
    r"pulumi|ollama|cache/pre-commit|cache/ms-playwright)(?:/|$)")
_RUNNERS = frozenset({"java", "javaw", "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "ruby",
                      "perl", "php", "osascript", "bash", "sh", "zsh", "dash", "ksh", "fish", "deno", "bun", "pwsh",
                      "lua", "tclsh", "jrunscript", "jshell", "groovy", "kotlin", "scala", "dotnet", "mono", "wine"})
# the value flags of these runners that are not the file they run (`java -cp lib.jar`, `python -m mod`)
_VALUE_FLAGS = frozenset({"-cp", "-classpath", "--class-path", "-m", "-W", "-X", "-r", "--require", "-I", "--module"})
_RC_FILE = re.compile(r"^\.(?:bash|zsh|profile|bashrc|zshrc|zprofile|zshenv|bash_profile|bash_login|bash_aliases|"
                      r"profile|kshrc|cshrc|tcshrc|inputrc|xinitrc|xprofile|xsession|envrc|env|nvmrc)\S*$", re.I)
_VOLUME = re.compile(r"^(?:/Volumes|/media|/run/media|/mnt)/", re.I)
_LIBRARY = re.compile(r"^(?:~|\$HOME|\$\{HOME\}|/Users/[^/]+)/Library/", re.I)
_LIBRARY_HIDDEN = re.compile(r"(?:~|\$HOME|\$\{HOME\}|/Users/[^/\s]+)/Library/(?:[^/\s'\"]+/)*\.[\w-]", re.I)
_COPIERS = frozenset({"cp", "ditto", "mv", "rsync", "install"})


def _run_file(name: str, argv: list[str]) -> str | None:
    """The file a runner is given to run (`java -jar X`, `python X`), or None (inline code, a module)."""
    if name in ("java", "javaw"):
        for i, a in enumerate(argv[1:-1], start=1):
            if a == "-jar":
                return argv[i + 1]
    skip = False
    for a in argv[1:]:
        if skip:
            skip = False
            continue
        if a in ("-c", "-e", "--eval", "-Command", "-EncodedCommand"):
            return None
        if a in _VALUE_FLAGS:
            skip = True
            continue
        if a.startswith("-"):
            continue
        return a
    return None


def hidden_program(path: str) -> str | None:
    """What hides the program at `path` in the home folder: its hidden name or a hidden folder no tool made;
    None for a program in the open or in a tool's own folder."""
    m = _HOME.match(path.strip("'\""))
    if m is None:
        return None
    rel = m.group(1)
    parts = [p for p in rel.split("/") if p]
    if not parts:
        return None
    base = parts[-1]
    if base.startswith(".") and base not in (".", "..") and not _RC_FILE.match(base):
        return f"its name {base} starts with a dot"
    hidden = [p for p in parts[:-1] if p.startswith(".") and p not in (".", "..")]
    if hidden and not _TOOL_HOMES.match(rel):
        return f"it sits in the hidden folder {hidden[0]}"
    return None


@rule("confirm.shell.hidden-program", "Runs a hidden program from the home folder", risk=Risk.HIGH,
      types=("shell", "type"), needs="line")
def hidden_home_program(ctx: Context) -> CheckResult:
    """A program with a hidden name, or in a hidden folder no tool made, in the home folder (`~/.x.jar`,
    `~/Library/.agent`, `~/.x/run.py`), started directly or by an interpreter (java -jar, python, node, ruby, perl,
    osascript, a shell); a program copied from a mounted disk image into ~/Library with a hidden file made there
    on the same line. Malware that settles in an account hides so; tools' own folders (~/.local/bin, ~/.cargo,
    ~/.nvm, ~/.pyenv, ~/.sdkman, ~/.vscode, ...) pass."""
    analysis = command_facts(ctx)
    if analysis is None:
        return None
    src = analysis.source
    if "." not in src:
        return None
    for cmd in analysis.commands:
        argv = list(cmd.argv)
        if not argv:
            continue
        name = cmd.name
        if name in _RUNNERS:
            target = _run_file(name, argv)
        elif "/" in argv[0]:
            target = argv[0]
        else:
            target = None
        if target and (why := hidden_program(target)):
            return f"runs {target[:80]}, a program hidden in the home folder ({why})"
        if name in _COPIERS and len(argv) > 2 and _LIBRARY.match(argv[-1]) and \
                any(_VOLUME.match(a) for a in argv[1:-1]) and _LIBRARY_HIDDEN.search(src):
            return f"copies {argv[-2][:60]} from a mounted disk into ~/Library and leaves a hidden file there: " \
                "how a dropper settles in an account"
    return None


RULES: tuple[Rule, ...] = (hidden_home_program,)
