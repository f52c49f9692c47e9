"""A search written for a token's format rather than a word: the issuer's prefix with the shape of what follows
(`AKIA[0-9A-Z]{16}`, `ghp_[A-Za-z0-9]{36}`, `xox[bp]-.*`, `-----BEGIN .* PRIVATE KEY`). What it prints is every key of
that kind in the files searched: credential harvesting (ATT&CK T1552.001) whether the search is recursive or runs
over one export. Read by `credential_search` of gate/rules/shell_effects.py; a search for one literal token (a
leaked key being checked for) has no shape and is not this."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gate.shell import Command, ShellAnalysis

__all__ = ["collected_into", "token_format"]

# an issuer's prefix, as the token formats of resources/secrets.toml begin
_PREFIX = re.compile(r"(?:\bA(?:KIA|SIA|GPA|IDA|ROA)|ghp_|gh[ousr]_|github_pat_|glpat-|xox|sk_live_|rk_live_|"
                     r"sk-(?:live|proj|ant)|\bAIza|ya29|\bhf_|\bnpm_|pypi-|SG\\?\.|\bdop_v1_|\bshpat_|"
                     r"BEGIN.{0,12}PRIVATE)", re.I)
# the shape after it: a character class, a repetition, a wildcard
_SHAPE = re.compile(r"\[[^\]]+\]|\{\d+(?:,\d*)?\}|\\[wdsS]|\.\*|\.\+|[+*]")


def token_format(patterns: list[str]) -> str | None:
    """The first search pattern that describes a token's format by its issuer's prefix."""
    for p in patterns:
        m = _PREFIX.search(p)
        if m and (_SHAPE.search(p[m.end():]) or "PRIVATE" in m.group(0).upper()):
            return p
    return None


_KEEPERS = frozenset({"tee", "tee-object", "out-file", "set-content", "add-content", "sponge"})


def collected_into(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """The file a search's matching lines are kept in (`grep -i password export.csv > found.txt`, `| tee hits`):
    the lines that hold passwords gathered into one place, not shown once on the screen."""
    for op, target in cmd.redirects:
        if op in (">", ">>", ">|", "&>", "&>>") and not target.startswith("/dev/") and target != "-":
            return target
    me = next((i for i, c in enumerate(analysis.commands) if c is cmd), None)
    for c in analysis.commands:
        if me is not None and me in c.upstream and c.name in _KEEPERS:
            target = next((w for w in c.words[1:] if not w.startswith("-") and not w.startswith("/dev/")), None)
            if target:
                return target
    return None
