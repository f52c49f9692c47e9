"""Lines appended to a shell's startup file that only set it up: what install guides tell people to add.

    settings_only(text) -> bool     every line is a setting (below), a comment or blank

A startup file (`~/.bashrc`, `~/.zshrc`, `~/.profile`, fish's config.fish) runs in every new shell, so a line
written there asks (`confirm.shell.persistence`) and a hostile one blocks. These lines change no more than
where programs are found or how tools behave, and pass when appended:

- `export NAME=VALUE` of a tool's home or a locale (`GOPATH`, `JAVA_HOME`, `NVM_DIR`, `LANG`, ...), or of
  `PATH` when it keeps `$PATH` and adds folders in the home or the system's program folders (never a
  temporary, relative or current folder);
- an alias to a plain command line (`alias gs='git status'`): no substitution, redirect, pipe or chain, and
  never over a command that asks for a password (`sudo`, `su`, `ssh`, `passwd`, ...);
- the shell hook of a known tool manager (`eval "$(pyenv init -)"`, `eval "$(direnv hook bash)"`).

Anything else (a variable that makes programs load or run code, a prompt command, a sourced script, a
download) keeps the ask.
"""

from __future__ import annotations

import re

__all__ = ["HOME_TOOL_BINS", "STARTUP_FILE", "settings_only"]

STARTUP_FILE = re.compile(r"(?:^|/)\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin|"
                          r"config/fish/config\.fish)$")
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
_HOOK = re.compile(r"^eval\s+\"\$\((?P<tool>pyenv|rbenv|nodenv|goenv|jenv|direnv|starship|zoxide|fnm|mise|rtx|"
                   r"/opt/homebrew/bin/brew|/usr/local/bin/brew|brew|atuin|thefuck|oh-my-posh|pipenv|"
                   r"register-python-argcomplete|kubectl|helm|gh|uv|rustup|poetry)\s[\w .=/-]*\)\"$")


_PATH_SEPARATORS = re.compile(r"[:\s]+")
_VAR_ENTRY = re.compile(r"^\$\{?(?P<name>[A-Z_]+)\}?(?:/[\w.+@-]+)*/?$")


_SYSTEM_HOME = re.compile(r"^(?:/usr|/opt|/Library|/Applications|/snap)/[\w./+-]+$")


def _path_entry(entry: str, homes: dict[str, str]) -> bool:
    """A folder added to PATH: a known program folder of the home or the system, or the program folder of a tool
    whose home the same text puts in a system folder (`JAVA_HOME=/usr/lib/jvm/...`, then `$JAVA_HOME/bin`)."""
    if "/tmp" in entry:
        return False
    m = _VAR_ENTRY.match(entry)
    home = homes.get(m.group("name"), "") if m is not None else ""
    return bool(_PATH_ENTRY.match(entry)) or bool(_SYSTEM_HOME.match(home))


def _setting(line: str, homes: dict[str, str]) -> bool:
    if _HOOK.match(line):
        return True
    if m := _ALIAS.match(line):
        value = m.group("value").strip()
        first = value.split(None, 1)[0] if value else ""
        # the alias runs a listing, an editor or a developer tool, or the command it is named for with options
        return bool(value) and m.group("name") not in _PASSWORD_COMMANDS and not _UNPLAIN.search(value) and \
            (first == m.group("name") or first in _ALIAS_TOOLS) and not _FORCEFUL.search(value)
    if line.startswith("fish_add_path "):
        return all(_path_entry(p.strip("'\""), homes) for p in line.split()[1:] if not p.startswith("-"))
    m = _EXPORT.match(line)
    if m is None:
        return False
    name, value = m.group("name"), m.group("value").strip().strip("'\"")
    if not _PLAIN_VALUE.match(value):
        return False
    if name == "PATH":
        entries = [e for e in _PATH_SEPARATORS.split(value) if e]
        kept = [e for e in entries if e in ("$PATH", "${PATH}", "$path")]
        added = [e for e in entries if e not in kept]
        return bool(kept) and bool(added) and all(_path_entry(e, homes) for e in added)
    if name in ("EDITOR", "VISUAL"):
        return value in _EDITORS
    return name in _SETTING_NAMES and "$(" not in value


def settings_only(text: str) -> bool:
    """Every line of `text` only sets the shell up (see the module docstring); False for no line at all."""
    lines = [ln.strip() for ln in text.replace("\\n", "\n").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    homes = {m.group("name"): m.group("value").strip().strip("'\"") for ln in lines if (m := _EXPORT.match(ln))}
    return bool(lines) and len(lines) <= 20 and all(_setting(ln, homes) for ln in lines)
