"""Shell checks: a known program told to publish, deploy, send or share by its own sub-command, when its table entry
says nothing of it.

Part of the shell Detector (gate/rules/shell.py), called per simple command that no other check found anything in,
beside the delete-verb fallback (gate/rules/shell_verbs.py).

By the convention every command-line program shares (clig.dev; cobra, click, clap), a sub-command is a verb, and
the verbs that put something in front of other people mean that in every program: `mkdocs gh-deploy`, `expo
publish`, `op item share`, `bw send create`, `slack chat send`, `prisma migrate deploy`. What they do leaves this
machine and cannot be taken back by the agent (a site is live, a message is read, a link is out), so such a use
asks, as publishing and sending do in the programs the table knows. The verb may be joined to a namespace
(`heroku apps:deploy`, `mix hex.publish`, `gh-deploy`). Not here: programs whose operands are text, files, build
targets or another command (`make deploy` runs the project's own target; `echo publish` prints a word), version
control and package managers (their own rules), pages of documentation (`tldr send`), a dry run or help, and a
flag's value (`--channel release`: gate/rules/shell_verbs.py `subcommand` reads the sub-command past global flags).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.effects import program_effects
from gate.model import Risk
from gate.rules.shell_verbs import WEIGHED_ELSEWHERE, subcommand
from gate.shell import Command, Finding

__all__ = ["judge"]

Add = Callable[[Finding], None]

# verbs that put the named thing where others see it: a site, a registry, a store
_PUBLISH = frozenset({"publish", "deploy", "upload", "submit", "release", "promote", "unpublish"})
# verbs that hand something to other people: a message, a share link, a grant, an invitation, money
_SEND = frozenset({"send", "share", "sharelink", "invite", "grant", "post", "transfer", "tweet", "toot", "pay",
                   "payout", "broadcast"})
# compound sub-commands whose verb part means something local (`tmux send-keys` types into a pane of this
# terminal; `git-lfs post-checkout` is a hook's name)
_LOCAL = frozenset({"send-keys", "send-prefix", "post-checkout", "post-commit", "post-merge", "post-receive",
                    "release-lock", "release-notes", "release-info"})
# programs left to other rules or whose words are never a sub-command: version control, pages of documentation and
# programs whose operands are text, files, targets or another command (the delete-verb fallback's groups), the
# readers, editors and wrappers beside them, and the package managers whose publishing gate/packages.py weighs
# (the others' `hex.publish`, `pub publish`, `upload` are judged here)
_NOT_HERE = frozenset().union(
    *(WEIGHED_ELSEWHERE[group] for group in ("version control", "pages", "operands")),
    {"grep", "rg", "ag", "echo", "printf", "cat", "less", "more", "head", "tail", "rake", "ninja", "sudo", "doas",
     "open", "xdg-open", "code", "vim", "nvim", "nano", "emacs", "which", "type", "command",
     "npm", "npx", "yarn", "pnpm", "bun", "pip", "pip3", "pipx", "uv", "poetry", "cargo", "go", "gem", "composer",
     "dotnet", "conda", "brew", "apt", "apt-get", "dnf", "yum", "pacman", "snap", "flatpak", "choco", "scoop",
     "winget", "nix",
     "cargo-release"})  # (cargo-release: a dry run unless told `--execute`)
_QUIET = frozenset({"--dry-run", "--dryrun", "-n", "--help", "-h", "help", "--version", "--what-if", "-whatif",
                    "--check", "--list", "--preview", "--noop", "--no-op", "--plan", "--snapshot",
                    "--skip-publish", "--skip=publish", "--no-publish"})  # (a snapshot build publishes nothing)
# sub-command words that make the use a look at what was published or sent (`gh release list`, `fj release view`)
_LOOKS = frozenset({"list", "ls", "show", "view", "get", "status", "info", "describe", "inspect", "history", "logs",
                    "log", "download", "pull", "fetch", "search", "diff", "notes"})
_SEGMENT = re.compile(r"[:.\-]")
_FILE_NAME = re.compile(r"\.[a-z0-9]{1,5}$|[/\\=@]")


def _verb(word: str) -> str | None:
    """The publishing or sending verb a sub-command word carries, alone or joined to a namespace."""
    if word in _PUBLISH or word in _SEND:
        return word
    if word in _LOCAL or not _SEGMENT.search(word) or _FILE_NAME.search(word):
        return None  # (`release.zip`, `deploy.py`, `src/release`: a file the program reads, not its verb)
    parts = _SEGMENT.split(word)  # (the verb leads or ends a joined word: `upload-file`, `apps:deploy`; inside
    # a name it is part of the name: `key-share-2`)
    return next((p for p in (parts[0], parts[-1]) if p in _PUBLISH or p in _SEND), None)


# the verbs that can mean nothing else, weighed for a program the shell rules have a check of their own for too
# (`netlify deploy`, `mvn site-deploy`): "post", "upload", "submit", "share" there are as often an HTTP method, a
# copy into one's own guest machine or a model's name (`xh post URL`, `vagrant upload`, `rails generate scaffold
# Post`), which those checks weigh
_ONLY_PUBLISHING = frozenset({"publish", "deploy", "unpublish", "release", "promote"})


def judge(cmd: Command, where: str, add: Add, checked: bool = False) -> None:
    """A publishing or sending verb among the first sub-command words of a program the table knows (`checked`: the
    shell rules have a check of their own for the program, which found nothing: only the verbs that can mean
    nothing but publishing)."""
    name = cmd.name
    if name in _NOT_HERE or program_effects(name) is None:
        return  # (unknown programs ask already)
    words = cmd.words
    verb = next((v for v in map(_verb, subcommand(cmd)[0]) if v is not None), None)
    if verb is None or not _QUIET.isdisjoint(words) or not _LOOKS.isdisjoint(words[1:5]) or \
            (checked and verb not in _ONLY_PUBLISHING):
        return
    if verb in _PUBLISH:
        add(Finding("confirm.shell.publish", Risk.HIGH,
                    f"{name} {verb}: puts what it names where others see it (a site, a registry, a store){where}",
                    cmd.span))
    else:
        add(Finding("confirm.shell.remote-mutation", Risk.HIGH,
                    f"{name} {verb}: hands what it names to other people (a message, a link, a grant){where}",
                    cmd.span))
