"""A search written for a token's format rather than a word: the issuer's prefix with the shape of what follows
(`AKIA[0-9A-Z]{16}`, `ghp_[A-Za-z0-9]{36}`, `xox[bp]-.*`, `-----BEGIN .* PRIVATE KEY`). What it prints is every key of
that kind in the files searched: credential harvesting (ATT&CK T1552.001) whether the search is recursive or runs
over one export. Read by `credential_search` of gate/rules/shell_effects.py; a search for one literal token (a
leaked key being checked for) has no shape and is not this."""

from __future__ import annotations

import re

__all__ = ["token_format"]

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
