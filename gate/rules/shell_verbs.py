"""Shell checks: a known program told to delete by its own sub-command, or to serve on every network interface,
when its table entry says nothing of it.

Part of the shell Detector (gate/rules/shell.py), called per simple command that no other check found anything in.

The table (resources/programs.toml) describes many programs by what they usually do (a task runner, a password
manager's CLI, a cluster tool), and a new version or a less common one adds verbs the table does not name. By the
convention of command-line programs (clig.dev; the cobra/click/clap programs) a sub-command is a verb, and the
verbs that delete or tear down mean that in every program: `kaggle models delete`, `keepassxc-cli rm`, `b2 rm`,
`tuckr rm *`. Such a use asks, as deleting does in the programs the table knows. Not here: the programs
`WEIGHED_ELSEWHERE` names, each group with the place its delete verbs are weighed (package and version managers,
version control, infrastructure tools, pages of documentation, programs whose operands are never a sub-command),
caches (`uv cache prune`), a dry run or help, and a flag's value (`curl -X DELETE`).

Likewise a server address flag (`--address`, `--host`, `--bind`, `--listen`, `--ip`) given every interface
(`0.0.0.0`, `::`, `*`): the service is open to whoever reaches the machine, not to this user alone, which asks as
the table's own listeners do (`kopia server start --address 0.0.0.0:51515`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.effects import program_effects
from gate.model import Risk
from gate.packages import ECOSYSTEMS, TEARDOWN_PROGRAMS
from gate.rules.shell_vocab import _INFRA_DESTROY, DEV_CLUSTERS
from gate.shell import Command, Finding, ShellAnalysis

__all__ = ["WEIGHED_ELSEWHERE", "exposes", "judge", "judged_here", "subcommand"]

Add = Callable[[Finding], None]

# sub-command verbs that delete or tear down what they name (not `revoke`: revoking a trust or a key is as often
# the careful step)
_VERBS = frozenset({"delete", "del", "remove", "rm", "destroy", "purge", "prune", "wipe", "erase", "drop", "nuke",
                    "unregister", "deregister", "shred", "rmdir", "terminate", "uninstall",
                    "expunge", "obliterate"})
# Which programs' delete verbs are weighed where. This check weighs every program the table describes except these
# groups, each left to the place named, and the programs the shell rules have a check of their own for by name
# (gate/rules/shell.py `_BY_NAME`: netsh, systemctl, git). A program a family of checks weighs (`_COMMAND_STEPS`: an
# object-store client's copies, a network tool's uploads) is weighed here too when that check found nothing: the
# family weighs other verbs (`s3cmd put`), not `s3cmd rm`.
WEIGHED_ELSEWHERE: dict[str, frozenset[str]] = {
    # a removed dependency comes back with the next install: gate/packages.py (`judge_removal` for removals, through
    # gate/rules/shell_programs.py `packages`; `teardown` for a manager removing itself or a runtime version, through
    # gate/rules/shell_installs.py)
    "package and version managers": frozenset({
        *(m for eco in ECOSYSTEMS.values() for m in (*eco.managers, *eco.itself)), *TEARDOWN_PROGRAMS,
        "npm", "npx", "yarn", "pnpm", "bun", "pip", "pip3", "pipx", "uv", "poetry", "pipenv", "pdm", "hatch", "rye",
        "conda", "mamba", "micromamba", "pixi", "cargo", "rustup", "go", "gem", "bundle", "bundler", "composer",
        "phive", "dotnet", "nuget", "flutter", "dart", "pub", "cordova", "ionic", "mix", "hex", "opam", "cabal",
        "stack", "nvm", "fnm", "volta", "n", "rvm", "rbenv", "pyenv", "goenv", "nodenv", "jenv", "sdk", "asdf",
        "mise", "rtx", "juliaup", "ghcup", "fvm", "cs", "coursier", "wapm", "wasmer", "deno", "brew", "port", "apt",
        "apt-get", "dnf", "yum", "zypper", "pacman", "yay", "paru", "apk", "snap", "flatpak", "choco", "scoop",
        "winget", "nix", "nix-env", "guix", "spack", "vcpkg", "conan", "omf", "fisher", "zplug", "antigen", "pecl",
        "pear", "haxelib", "bower", "meteor", "pipwin", "gup", "luarocks", "cpan", "cpanm", "raco", "nimble", "elm",
        "julia", "r"}),
    # version control: gate/rules/shell_programs.py `git` and the version-control rules
    "version control": frozenset({"git", "hg", "svn", "jj", "fossil", "bzr", "darcs", "sl", "ghq"}),
    # infrastructure, hosting, cloud and container tools: gate/rules/shell_programs.py `deploys` by their verbs
    # (gate/rules/shell_vocab.py `_INFRA_DESTROY`), where a throwaway local cluster and a container image pass
    "infrastructure": frozenset({*_INFRA_DESTROY, *DEV_CLUSTERS}),
    # pages of documentation: their words only name a page (`tldr kill`)
    "pages": frozenset({"tldr", "man", "info", "help", "whatis", "apropos", "cheat", "navi"}),
    # operands are text, files, targets or another command, never a sub-command: what they run or touch is judged as
    # that (gate/rules/shell.py)
    "operands": frozenset({
        "sed", "gsed", "awk", "gawk", "mawk", "sort", "tee", "cut", "tr", "paste", "split", "csplit", "uniq", "perl",
        "find", "fd", "xargs", "parallel", "make", "gmake", "just", "task", "watch", "env", "nohup", "time",
        "timeout", "nice", "python", "python3", "node", "ruby", "php", "bash", "sh", "zsh", "fish", "pwsh",
        "powershell", "cmd", "touch", "mkdir", "cp", "mv", "ln", "install", "chmod", "chown", "diff", "patch", "tar",
        "zip", "unzip", "7z"}),
}
_ELSEWHERE = frozenset().union(*WEIGHED_ELSEWHERE.values())
_ONLY_SHOWS = frozenset({"read", "none"})

# words that make the use a look, not a deletion
_QUIET = frozenset({"cache", "--dry-run", "--dryrun", "-n", "--help", "-h", "help", "--version", "--what-if",
                    "-whatif", "--check", "--list"})


# global flags that take no value (clig.dev's standard names): the word after one is still a sub-command (`mkdocs
# --verbose gh-deploy`). After any other flag the next word may be its value (`--channel release`, `-X DELETE`).
_SWITCHES = frozenset({"-v", "-vv", "-vvv", "--verbose", "-q", "--quiet", "--silent", "--debug", "--trace", "-y",
                       "--yes", "--assume-yes", "--force", "--no-color", "--no-colour", "--color", "--json",
                       "--plain", "--no-input", "--non-interactive", "--no-interaction", "--insecure", "--no-pager",
                       "--offline", "--ci", "--batch", "--quiet-mode", "--no-prompt", "--unsafe"})


# a sub-command word whose verb is a value: a namespace joined to a variable (`gh-$V`, `apps:${X}`, `hex.$(cat f)`).
# A word that is all variable is as often a file, a host or flags (`ffmpeg -i $IN $OUT`, `hugo $ARGS`): not this.
_EXPANSION = re.compile(r"\$(?:\{[^}]*\}|\([^)]*\)|[a-z_][a-z0-9_]*)")
_NAMESPACE = re.compile(r"^[a-z][a-z0-9]*[-:.]$")


# sub-commands that run another program with the words after them (a project's own tool, a script)
_RUNNERS = frozenset({"run", "exec", "x", "run-script"})


def subcommand(cmd: Command) -> tuple[tuple[str, ...], bool]:
    """The words that name what a program is told to do (up to three: `kaggle models delete`), read past global
    flags and their values, stopping at a path; and whether the first of them is a value the gate cannot know
    (`gh-$V`: a verb from a variable this line does not set, joined to its namespace)."""
    words = cmd.words
    ops: list[str] = []
    hidden = False
    value_next = False
    for k in range(1, min(len(words), 9)):
        w = words[k]
        if value_next:
            value_next = False
            continue
        if w.startswith("-"):
            value_next = "=" not in w and w not in _SWITCHES
            continue
        if w.startswith("/"):
            break  # (a path, or a Windows switch: operands from here)
        if k in cmd.dynamic:  # (the literal part still names its verb: `${X}deploy`)
            hidden = hidden or (not ops and bool(_NAMESPACE.match(_EXPANSION.sub("", w))))
            w = _EXPANSION.sub("-", w).strip("-")
        ops.append(w)
        if len(ops) == 3 or w in _RUNNERS:
            break  # (`swift run mytool delete`: what follows `run` is another program's words)
    return tuple(ops), hidden


def judged_here(name: str) -> bool:
    """Whether the verb fallbacks weigh this program's sub-commands: the table knows it, it is in no group weighed
    elsewhere, and the table does not say it only reads or prints."""
    effects = program_effects(name)
    return not (effects is None or name in _ELSEWHERE or effects <= _ONLY_SHOWS)


def judge(cmd: Command, where: str, add: Add, own_check: bool = False) -> None:
    """A delete verb among the first sub-command words of a program the table knows, when no other check judged
    (called when no other check found anything in the command); or a sub-command the line hides in a
    variable it does not set, so that nobody can tell what the program is told to do."""
    name = cmd.name
    if own_check or not judged_here(name):
        return  # (unknown programs ask already; one the table says only reads or prints has no verb that deletes;
        # a program with a check of its own by name, `own_check`, has its verbs weighed there: `netsh … delete rule`)
    words = cmd.words
    ops, hidden = subcommand(cmd)
    if not _QUIET.isdisjoint(words):
        return
    verb = next((w for w in ops if w in _VERBS), None)
    if verb is not None:
        add(Finding("confirm.shell.destructive", Risk.HIGH,
                    f"{name} {verb}: deletes what it names{where}", cmd.span))
    elif hidden:
        add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                    f"{name} is told what to do by a variable this line does not set ({ops[0]}): "
                    f"what it does cannot be seen{where}", cmd.span))


# a server's address flag, with its value joined (`--address=0.0.0.0:80`) or as the next word
_ADDRESS_FLAG = re.compile(r"^--?(?:address|addr|host|bind|bind-addr|bind-address|listen|listen-addr|"
                           r"listen-address|ip|http-addr|http-address|web\.listen-address|server-address)(?:=(.*))?$")
_EVERY_INTERFACE = re.compile(r"^(?:0\.0\.0\.0|::|\[::\]|\*)(?::\d+)?$|^:\d+$")


_VARIABLE = re.compile(r"^\$\{?([a-z_][a-z0-9_]*)\}?((?::\d+)?)$")


def exposes(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A known program's server address flag given every interface, written out or through a variable the line set
    (`H=0.0.0.0; hugo server --bind $H`: the analysis reads the value in; `HOST=0.0.0.0 app --bind $HOST` sets it
    for the program only, after the shell expanded the word, which the line's assignments still tell)."""
    if program_effects(cmd.name) is None:
        return
    words = cmd.words
    for k, w in enumerate(words[1:], 1):
        m = _ADDRESS_FLAG.match(w)
        if m is None:
            continue
        value = m.group(1) if m.group(1) is not None else (words[k + 1] if k + 1 < len(words) else "")
        var = _VARIABLE.match(value)
        if var is not None:  # the last value the line gave it
            value = next((v.strip("'\"") + var.group(2) for n, v in reversed(analysis.assignments)
                          if n == var.group(1)), value)
        if _EVERY_INTERFACE.match(value):
            add(Finding("confirm.shell.network", Risk.MEDIUM,
                        f"{cmd.name} serves on every network interface ({value}): whoever reaches this machine "
                        f"can connect{where}", cmd.span))
            return
