"""Lines appended to a shell's startup file that only set it up: what install guides tell people to add.

    settings_only(text) -> bool     every line is a setting (below), a comment or blank

A startup file (`~/.bashrc`, `~/.zshrc`, `~/.profile`, fish's config.fish) runs in every new shell, so a line
written there asks (`confirm.shell.persistence`) and a hostile one blocks. These lines change no more than
where programs are found or how tools behave, and pass when appended:

- `export NAME=VALUE` setting one variable (`export A=1 B=2` sets two): a locale or a tool's switch (`LANG`,
  `NODE_ENV`, ...), a tool's home in a system folder or where that tool's guide puts it in the home
  (`PYENV_ROOT=$HOME/.pyenv`, never `$HOME/x` or /tmp: its shims, programs or configuration would be loaded),
  Go's module proxy only when it is Google's or none, or `PATH` when it keeps `$PATH` and adds folders in the
  home or the system's program folders, or such a tool's own `bin` (never a temporary, relative or current
  folder);
- an alias to a plain command line (`alias gs='git status'`): no substitution, redirect, pipe or chain, no path,
  file, `+cmd` or option that names a program, file, hook or server, no plain word at all when the alias is
  over the command's own name (`alias npm='npm install x'` changes every later `npm`), and never over a command
  that asks for a password (`sudo`, `su`, `ssh`, `passwd`, ...);

- a tool's own set-up file sourced from where its guide installs it (`source ~/powerlevel10k/powerlevel10k.zsh-
  theme`, `[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"`, `. "$HOME/.cargo/env"`, a plug-in under a system
  `share` folder); never a script elsewhere (`source /tmp/x.sh`, `. ~/x`).

A tool's shell hook (`eval "$(starship init bash)"`, `starship init fish | source`, PowerShell's `Invoke-Expression
(&starship init powershell)` in `$PROFILE`) asks even for a well-known tool: every new shell runs whatever that
program prints, which changes with each of its updates, and an install hook adds the same line for its own program.
Run once in the current shell it is a set-up (`tool_hook`) and passes.

Anything else (a variable that makes programs load or run code, a prompt command, any other sourced script, a
download) keeps the ask.
"""

from __future__ import annotations

import re

__all__ = ["HOME_TOOL_BINS", "STARTUP_FILE", "path_hijack", "settings_only", "tool_hook"]

STARTUP_FILE = re.compile(r"(?:^|/)\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|"
                          r"config/fish/config\.fish|bash_aliases|bashrc\.local|zshrc\.local|(?:bashrc|zshrc)\.d/[^/]+|"
                          r"oh-my-zsh/custom/[^/]+\.zsh)$")
# variables that say where a tool lives or how it speaks; none of them makes a program load or run code
_SETTING_NAMES = frozenset({
    "GOPATH", "GOROOT", "GOBIN", "JAVA_HOME", "ANDROID_HOME", "ANDROID_SDK_ROOT", "ANDROID_NDK_HOME", "NVM_DIR",
    "PYENV_ROOT", "RBENV_ROOT", "CARGO_HOME", "RUSTUP_HOME", "DENO_INSTALL", "BUN_INSTALL", "PNPM_HOME",
    "VOLTA_HOME", "DOTNET_ROOT", "FLUTTER_ROOT", "CUDA_HOME", "MAVEN_HOME", "M2_HOME", "GRADLE_HOME", "SDKMAN_DIR",
    "NODE_ENV", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TERM", "CLICOLOR", "COLORTERM", "TZ", "AWS_PROFILE",
    "AWS_REGION", "AWS_DEFAULT_REGION", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PIP_REQUIRE_VIRTUALENV",
    "VIRTUAL_ENV_DISABLE_PROMPT", "HOMEBREW_NO_ANALYTICS", "HOMEBREW_NO_AUTO_UPDATE", "DOCKER_BUILDKIT",
    "COMPOSE_DOCKER_CLI_BUILD", "DOTNET_CLI_TELEMETRY_OPTOUT", "NEXT_TELEMETRY_DISABLED", "GOPROXY", "GOPRIVATE",
    "CONDA_AUTO_ACTIVATE_BASE", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "EDITOR", "VISUAL",
})
_EDITORS = frozenset({"vim", "nvim", "vi", "nano", "emacs", "code", "code --wait", "subl -w", "micro", "hx", "kak",
                      "helix", "gedit", "mate -w"})
_EXPORT = re.compile(r"^(?:export\s+|set\s+-gx\s+)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:=|\s+)(?P<value>.*)$")
_PLAIN_VALUE = re.compile(r"^[\w@%+=:,./~${}\- ]*$")  # no substitution, quote games, chain or redirect
# the home's program folders that install guides put on PATH (a folder of one's own choosing could hold a `sudo`
# that catches the password; writing a program into one of these asks: gate/rules/shell_destructive.py)
HOME_TOOL_BINS = (r"\.local/bin|bin|\.cargo/bin|go/bin|\.go/bin|\.deno/bin|\.bun/bin|\.npm-global/bin|\.yarn/bin|"
                  r"\.pyenv/bin|\.pyenv/shims|\.rbenv/bin|\.rbenv/shims|\.nodenv/bin|\.poetry/bin|\.dotnet/tools|"
                  r"\.krew/bin|\.volta/bin|\.pub-cache/bin|flutter/bin|\.config/composer/vendor/bin|"
                  r"\.composer/vendor/bin|\.fly/bin|\.pulumi/bin|\.tfenv/bin|\.nix-profile/bin|\.local/share/pnpm|"
                  r"\.rd/bin|\.asdf/shims|\.asdf/bin|\.linkerd2/bin|\.istioctl/bin|\.foundry/bin|\.sdkman/candidates/\w+/current/bin")
_PATH_ENTRY = re.compile(r"^(?:(?:\$HOME|\$\{HOME\}|~)/(?:" + HOME_TOOL_BINS + r")|/usr/local/(?:s?bin|go/bin)|"
                         r"/opt/homebrew/s?bin|/opt/[\w.+-]+(?:/[\w.+-]+)?/bin|/snap/bin|/usr/lib/jvm/[\w.+-]+/bin)/?$")
_ALIAS = re.compile(r"^alias\s+(?P<name>[\w.-]+)=(?P<q>['\"])(?P<value>[^'\"]*)(?P=q)$")
# commands that read a password: an alias over one of them is how a password is caught
_PASSWORD_COMMANDS = frozenset({"sudo", "su", "doas", "ssh", "scp", "sftp", "passwd", "gpg", "kinit", "login",
                                "mysql", "psql", "pkexec", "git", "op", "bw", "pass", "vault", "aws", "gcloud", "az"})
_UNPLAIN = re.compile(r"[`|;&<>]|\$\(|\b(?:curl|wget|nc|ncat|base64|eval|exec|bash|sh|zsh)\b|/tmp/|/dev/|\s-c\b")
_ALIAS_TOOLS = frozenset({"ls", "ll", "la", "exa", "eza", "lsd", "tree", "cat", "bat", "less", "grep", "rg", "cd",
                          "pwd", "clear", "history", "git", "docker", "kubectl", "helm", "terraform", "tofu", "make",
                          "npm", "yarn", "pnpm", "npx", "python3", "python", "pip", "pip3", "uv", "poetry", "cargo",
                          "go", "code", "vim", "nvim", "vi", "nano", "emacs", "du", "df", "free", "top", "htop",
                          "btop", "open", "xdg-open", "tmux", "jq", "fd", "fzf", "lazygit", "gh", "glab"})
_FORCEFUL = re.compile(r"--force\b|--hard\b|-delete\b|--delete\b|--prune\b|\s-f\b|\s-[a-z]*(?:rf|fr|fd|df)[a-z]*\b|"
                       r"\b(?:clean|reset|push|rm|rmi|prune|destroy|delete|kill|uninstall|apply)\b")
# `eval "$(TOOL VERB ...)"`: the tool prints its shell set-up (an init, a hook, its environment, completions) for
# the shell it is run in (`tool_hook`); any other verb of the same tool runs whatever it names (`mise x -- ./a`)
_HOOK = re.compile(r"^eval\s+\"\$\((?P<tool>pyenv|rbenv|nodenv|goenv|jenv|direnv|starship|zoxide|fnm|mise|rtx|"
                   r"/opt/homebrew/bin/brew|/usr/local/bin/brew|brew|atuin|thefuck|oh-my-posh|pipenv|"
                   r"register-python-argcomplete|kubectl|helm|gh|uv|rustup|poetry|opam|mcfly|phpenv|plenv|"
                   r"swiftenv|nodenv|vfox|pixi)"
                   r"\s+(?P<verb>init|virtualenv-init|hook|shell-hook|shellenv|activate|env|completion|completions|"
                   r"generate-shell-completion|--alias|--completion|[\w-]+)(?P<rest>(?:\s+[\w=-]+)*)\s*\)\"$")
# the same `eval` run as a command, as the shell reads it back (quotes gone): `eval $(direnv hook bash)`
_HOOK_RUN = re.compile(_HOOK.pattern.replace(r"^eval\s+\"\$\(", r"^eval\s+\"?\$\(").replace(r"\)\"$", r"\)\"?$"))
_HOOK_VERBS = frozenset({"init", "virtualenv-init", "hook", "shell-hook", "shellenv", "activate", "env", "completion",
                         "completions", "generate-shell-completion", "--alias", "--completion"})


_PATH_SEPARATORS = re.compile(r"[:\s]+")
_VAR_ENTRY = re.compile(r"^\$\{?(?P<name>[A-Z_]+)\}?(?:/[\w.+@-]+)*/?$")


_SYSTEM_HOME = re.compile(r"^(?:/usr|/opt|/Library|/Applications|/snap)/[\w./+-]+$")
# where each tool's home sits inside the home when an install guide puts it there; a home variable pointing
# anywhere else in the home (or in a temporary folder) names a folder of the agent's choosing, whose programs,
# shims or configuration every later build or shell would load (`PYENV_ROOT=~/x` puts ~/x/shims first on PATH)
_IN_HOME = r"^(?:\$HOME|\$\{HOME\}|~)/(?:"
_TOOL_HOMES = {name: re.compile(_IN_HOME + where + r")/?$") for name, where in {
    "GOPATH": r"go|\.go", "GOBIN": r"go/bin|\.go/bin|\.local/bin", "GOROOT": r"go|\.go|sdk/go[\w.]*|\.local/go",
    "JAVA_HOME": r"\.sdkman/candidates/java/[\w.+-]+|\.jdks/[\w.+-]+|\.local/share/jdk[\w.+-]*|jdk[\w.+-]*",
    "ANDROID_HOME": r"Android/Sdk|Library/Android/sdk|android-sdk|Android/sdk",
    "ANDROID_SDK_ROOT": r"Android/Sdk|Library/Android/sdk|android-sdk|Android/sdk",
    "ANDROID_NDK_HOME": r"(?:Android/Sdk|Library/Android/sdk)/ndk(?:/[\w.+-]+)?|android-ndk[\w.+-]*",
    "NVM_DIR": r"\.nvm|\.config/nvm", "PYENV_ROOT": r"\.pyenv", "RBENV_ROOT": r"\.rbenv", "CARGO_HOME": r"\.cargo",
    "RUSTUP_HOME": r"\.rustup", "DENO_INSTALL": r"\.deno", "BUN_INSTALL": r"\.bun",
    "PNPM_HOME": r"\.local/share/pnpm|Library/pnpm", "VOLTA_HOME": r"\.volta", "DOTNET_ROOT": r"\.dotnet",
    "FLUTTER_ROOT": r"flutter|development/flutter|\.flutter|snap/flutter/common/flutter",
    "MAVEN_HOME": r"\.sdkman/candidates/maven/current|apache-maven[\w.+-]*",
    "M2_HOME": r"\.sdkman/candidates/maven/current|apache-maven[\w.+-]*",
    "GRADLE_HOME": r"\.sdkman/candidates/gradle/current|gradle[\w.+-]*", "SDKMAN_DIR": r"\.sdkman",
    "CUDA_HOME": r"(?!)", "XDG_CONFIG_HOME": r"\.config", "XDG_DATA_HOME": r"\.local/share",
    "XDG_CACHE_HOME": r"\.cache",
}.items()}
# the module proxy every `go get` downloads from: Google's, or none
_GOPROXY_ENTRY = re.compile(r"^(?:direct|off|https://proxy\.golang\.org/?)$")


def _home_value(name: str, value: str) -> bool:
    """A tool's home in a system folder, or in the home where that tool's own guide puts it."""
    if ".." in value.split("/") or "/tmp" in value or value.startswith("/var/"):
        return False
    return bool(_SYSTEM_HOME.match(value)) or bool(_TOOL_HOMES[name].match(value))


def _path_entry(entry: str, homes: dict[str, str]) -> bool:
    """A folder added to PATH: a known program folder of the home or the system, or the program folder of a tool
    whose home the same text puts in a system folder or where its guide puts it (`JAVA_HOME=/usr/lib/jvm/...`,
    then `$JAVA_HOME/bin`; `PYENV_ROOT=$HOME/.pyenv`, then `$PYENV_ROOT/bin`): `homes` holds only such homes."""
    if "/tmp" in entry or ".." in entry.split("/"):
        return False
    m = _VAR_ENTRY.match(entry)
    return bool(_PATH_ENTRY.match(entry)) or (m is not None and m.group("name") in homes)


# a word an alias may add after its program: an option (`-alF`, `--color=auto`) or a plain verb (`git status`);
# never a path, a file, a `+cmd`/`!cmd` or an option that names a program, a file, a hook or a server
_ALIAS_WORD = re.compile(r"^(?:-{1,2}[A-Za-z][\w-]*(?:=[\w,:-]*)?|-[A-Za-z0-9]+|[A-Za-z][\w:-]*)$")
_ALIAS_RISKY_OPTION = re.compile(r"exec|path|config|plugin|init|rc|hook|pager|editor|load|require|import|script|"
                                 r"command|cmd|shell|eval|pack|proxy|registry|index|server|host|remote|url|output|"
                                 r"install|extension|upload|privileged|volume|mount|file|dir", re.I)


def _plain_alias(name: str, value: str) -> bool:
    """The alias runs a listing, an editor or a developer tool, or the command it is named for, with options
    and plain verbs only; an alias over a command's own name changes every later use of it, so it adds options
    only (`alias ls='ls --color'`, never `alias npm='npm install x'`)."""
    words = value.split()
    if not words or name in _PASSWORD_COMMANDS or _UNPLAIN.search(value) or _FORCEFUL.search(value):
        return False
    first, rest = words[0], words[1:]
    if first != name and first not in _ALIAS_TOOLS:
        return False
    if not all(_ALIAS_WORD.match(w) for w in rest):
        return False
    if any(w.startswith("-") and _ALIAS_RISKY_OPTION.search(w) for w in rest):
        return False
    if first == name and any(not w.startswith("-") for w in rest):
        return False
    return len([w for w in rest if not w.startswith("-")]) <= 2


def _single_value(line: str, raw: str) -> str | None:
    """The one value an `export NAME=VALUE` sets (None when the line sets more than one: `export A=1 B=2`)."""
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] in "'\"" and raw[-1] == raw[0] and raw[0] not in raw[1:-1]:
        return raw[1:-1]
    if any(ch.isspace() for ch in raw) and not line.startswith("set "):
        return None
    return raw.strip("'\"")


# `source FILE` / `. FILE`, alone or behind an existence test (`[ -s "$NVM_DIR/nvm.sh" ] && \\. "$NVM_DIR/nvm.sh"`)
_SOURCE_LINE = re.compile(r"^(?:(?:\[\[?\s+-[fsr]\s+(?P<tested>[^\]]+?)\s*\]\]?|"
                          r"test\s+-[fsr]\s+(?P<tested2>\S+))\s*&&\s*)?(?:source|\\?\.)\s+(?P<file>\S+)$")
# the files tools' install guides have one source from a startup file: their own, where they install them (a
# theme, a version manager's loader, a package's shell integration under a system share folder)
_SOURCED_FILE = re.compile(
    r"^[\"']?(?:(?:\$HOME|\$\{HOME\}|~)/(?:powerlevel10k/powerlevel10k\.zsh-theme|\.p10k\.zsh|\.nvm/nvm\.sh|"
    r"\.nvm/bash_completion|\.cargo/env|\.fzf\.(?:zsh|bash)|\.sdkman/bin/sdkman-init\.sh|\.rvm/scripts/rvm|"
    r"\.ghcup/env|\.asdf/asdf\.sh|\.asdf/completions/asdf\.bash|\.bun/_bun|\.deno/env|\.iterm2_shell_integration\.(?:zsh|bash)|"
    r"(?:mini|ana)conda3/etc/profile\.d/conda\.sh|google-cloud-sdk/(?:path|completion)\.(?:zsh|bash)\.inc|"
    r"\.oh-my-zsh/oh-my-zsh\.sh|\.zsh/[\w.-]+/[\w.-]+\.zsh|\.local/bin/env|\.orbstack/shell/init\.(?:zsh|bash))|"
    r"\$NVM_DIR/(?:nvm\.sh|bash_completion)|\$\{NVM_DIR\}/nvm\.sh|\$ZSH/oh-my-zsh\.sh|"
    r"(?:/usr/share|/usr/local/share|/opt/homebrew/share|\$\(brew --prefix\)/share|\$HOMEBREW_PREFIX/share)/"
    r"[\w.+/-]+\.(?:zsh|bash|sh|zsh-theme))[\"']?$")


def _sourced_setup(line: str) -> bool:
    """A startup file line that sources a tool's own set-up file from where its guide installs it."""
    m = _SOURCE_LINE.match(line)
    if m is None:
        return False
    tested = m.group("tested") or m.group("tested2")
    if tested and tested.strip("'\"") != m.group("file").strip("'\""):
        return False  # tests one file, loads another
    return ".." not in m.group("file") and bool(_SOURCED_FILE.match(m.group("file")))


def _setting(line: str, homes: dict[str, str]) -> bool:
    if _sourced_setup(line):
        return True
    if m := _ALIAS.match(line):
        return _plain_alias(m.group("name"), m.group("value").strip())
    if line.startswith("fish_add_path "):
        return all(_path_entry(p.strip("'\""), homes) for p in line.split()[1:] if not p.startswith("-"))
    m = _EXPORT.match(line)
    if m is None:
        return False
    name, value = m.group("name"), _single_value(line, m.group("value"))
    if value is None or not _PLAIN_VALUE.match(value):
        return False
    if name == "PATH":
        entries = [e for e in _PATH_SEPARATORS.split(value) if e]
        kept = [e for e in entries if e in ("$PATH", "${PATH}", "$path")]
        added = [e for e in entries if e not in kept]
        return bool(kept) and bool(added) and all(_path_entry(e, homes) for e in added)
    if name in ("EDITOR", "VISUAL"):
        return value in _EDITORS
    if name in _TOOL_HOMES:
        return _home_value(name, value)
    if name == "GOPROXY":
        return all(_GOPROXY_ENTRY.match(e) for e in re.split(r"[,|]", value))
    return name in _SETTING_NAMES and "$(" not in value


# programs whose documented use is `eval "$(...)"` of the variables they print: the ssh agent's socket, the
# container engine of a local cluster, OPAM's and LuaRocks' paths, conda's shell functions
_ENV_PRINTER_RUN = re.compile(r"^eval\s+\"?\$\((?:ssh-agent(?:\s+-[sc])?|"
                              r"minikube(?:\s+(?:-p|--profile)\s+[\w-]+)?\s+(?:docker|podman)-env"
                              r"(?:\s+(?:-p|--profile)\s+[\w-]+)?|opam\s+env(?:\s+--switch[= ][\w.-]+)?|"
                              r"luarocks\s+path(?:\s+--bin)?|conda\s+shell\.(?:bash|zsh|fish)\s+hook)\s*\)\"?$")


# a prompt theme named by a local file (`oh-my-posh init pwsh --config ~/x.omp.json`): the set-up printed is the
# same, with the theme's look; a theme fetched from a URL is left to ask
_THEME_FILE = re.compile(r"\s+(?:--config|-c)(?:=|\s+)(?![\w+.-]*://)['\"]?[\w.~/\\${}:-]+?\.(?:omp\.)?(?:json|ya?ml|toml)"
                         r"['\"]?(?=\s|\)|\"|$)", re.I)
# PowerShell's form of the same line, as the tools' guides write it for a profile:
# `Invoke-Expression (&starship init powershell)` (also seen after the walker's "code evaluates ...: " label)
_PS_HOOK_RUN = re.compile(r"(?:^|: )(?:invoke-expression|iex)\s*\(\s*&\s*(?P<cmd>[\w./-]+(?:\s+[\w=-]+)*)\s*\)$", re.I)


def tool_hook(text: str) -> bool:
    """`eval "$(TOOL VERB ...)"` run now: a known tool manager printing its shell set-up (an init, a hook, its
    completions, the variables it documents being evaluated) for this shell. It is the line install guides
    put in a startup file; run once, it changes this shell only. Any other verb of the tool runs what it
    names (`eval "$(mise x -- ./a)"`): False."""
    text = text.strip()
    if "config" in text:
        text = _THEME_FILE.sub("", text)
    if m := _PS_HOOK_RUN.search(text):
        text = f'eval "$({m.group("cmd")})"'
    if _ENV_PRINTER_RUN.match(text):
        return True
    m = _HOOK_RUN.match(text)
    return bool(m) and m.group("verb") in _HOOK_VERBS and "/" not in m.group("rest")


def settings_only(text: str) -> bool:
    """Every line of `text` only sets the shell up (see the module docstring); False for no line at all."""
    lines = [ln.strip() for ln in text.replace("\\n", "\n").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    homes = {m.group("name"): m.group("value").strip().strip("'\"") for ln in lines if (m := _EXPORT.match(ln))}
    homes = {k: v for k, v in homes.items() if k in _TOOL_HOMES and _home_value(k, v)}
    return bool(lines) and len(lines) <= 20 and all(_setting(ln, homes) for ln in lines)


# a folder put before the system's on PATH that is named for a program people type their password into, or that
# anyone may write (a temporary folder, the current or a relative folder): a `sudo` placed there is found first
# and catches the password (the sudo backdoor of a PATH line); the tools' own bin folders are named `bin`
_PASSWORD_FOLDER = re.compile(r"(?:^|/)\.?(?:sudo|su|doas|pkexec|passwd|ssh|scp|sftp|login|gpg|kinit)/?$")
_SHARED_FOLDER = re.compile(r"^(?:/private)?/(?:tmp|var/tmp|dev/shm|run/shm)(?:/|$)|^/users/shared(?:/|$)", re.I)
_PATH_LINE = re.compile(r"(?:^|[\s;&])(?:export\s+|set\s+-gx\s+|declare\s+-x\s+)?PATH(?:=|\s+)(?P<value>[^;&|\n]+)")


def path_hijack(text: str) -> str | None:
    """The folder a startup-file line puts on PATH before the system's folders that shadows a password prompt:
    one named for `sudo`, `su`, `ssh`, `passwd`, ... (`export PATH=~/.config/sudo:$PATH`), or a temporary,
    shared or current folder (`PATH=/tmp/.x:$PATH`, `PATH=.:$PATH`); or None. A folder added after
    `$PATH` is found only when nothing else has the name, and the tools' own bin folders pass."""
    for m in _PATH_LINE.finditer(text):
        value = m.group("value").strip().strip("'\"")
        entries = [e.strip("'\"") for e in re.split(r"[:\s]+", value) if e.strip("'\"")]
        kept = next((k for k, e in enumerate(entries) if e in ("$PATH", "${PATH}", "$path")), None)
        if kept is None:
            continue
        for entry in entries[:kept]:
            if entry in (".", "./") or _PASSWORD_FOLDER.search(entry) or _SHARED_FOLDER.search(entry):
                return entry
    return None
