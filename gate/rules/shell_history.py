"""Shell checks: version-control history taken away from others or from the branch.

Called by the git check of gate/rules/shell_programs.py. A force-push (`--force`, `-f`, a `+refspec`) to a branch
others build on (main, master, trunk, develop, production, release/...) or to a release's version tag replaces the
history everyone has fetched: their commits and the released code the tag named are gone from the remote, and their
next pull fights the rewrite. That is beyond any task an agent is given, so it refuses; a force-push of one's own
feature branch, or one with `--force-with-lease`, asks (confirm.shell.vcs-destructive). A `git reset` back by more
than one commit (`HEAD~3`, `HEAD^^`) takes those commits off the branch even when their changes stay in the files.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.shell import Command, Finding

__all__ = ["SHARED_BRANCH", "commits_dropped", "shared_rewrite"]

# the branch a refspec pushes to (`main`, `HEAD:main`, `refs/heads/release/2.1`): one others build on
SHARED_BRANCH = re.compile(r"(?:^|:|refs/heads/)(?:main|master|trunk|develop|development|production|prod|stable|"
                           r"release(?:/[^:]*)?|releases/[^:]*)$", re.IGNORECASE)
# a release's version tag (`v1.4.2`, `refs/tags/2.0.0`, `HEAD:v3.1`)
_RELEASE_TAG = re.compile(r"(?:^|:|refs/tags/)v?\d+(?:\.\d+)+(?:[-+][\w.]+)?$", re.IGNORECASE)
# a commit some steps back from where the branch is (`HEAD~3`, `HEAD^^`, `@~2`, `main~4`)
_BACK = re.compile(r"^[\w./@-]*?(?:(~(\d*))|(\^+))$")
_DRY = frozenset({"--dry-run", "-n", "--help"})


def shared_rewrite(refs: list[str], flags: set[str], cmd: Command, where: str,
                   add: Callable[[Finding], None]) -> None:
    """A force-push's refspecs (after the remote) naming a shared branch or a release tag."""
    if flags & _DRY:
        return
    hit = next((r for r in refs if SHARED_BRANCH.search(r.lstrip("+")) or _RELEASE_TAG.search(r.lstrip("+"))), None)
    if hit is None:
        return
    what = "a release tag" if _RELEASE_TAG.search(hit.lstrip("+")) else "a shared branch"
    add(Finding("block.shell.shared-history-rewrite", Risk.CRITICAL,
                f"git push --force to {hit[:40]}: rewrites {what} everyone else has fetched{where}", cmd.span))


def commits_dropped(args: list[str]) -> str | None:
    """The commit a soft or mixed `git reset` moves the branch back to, when that drops more than one commit."""
    if any(a in ("--hard", "--merge", "--keep", "-p", "--patch") for a in args) or "--" in args:
        return None
    target = next((a for a in args if not a.startswith("-")), None)
    m = _BACK.match(target or "")
    if not m:
        return None
    steps = int(m.group(2) or 1) if m.group(1) else len(m.group(3) or "")
    return target if steps > 1 else None
