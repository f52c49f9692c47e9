"""Shell findings from the catalogue functions of resources/programs.toml (gate/catalogue.py).

A program whose catalogue function is triggered by the command's arguments (`security dump-keychain`,
`csrutil disable`, `osascript -e 'display dialog ... with hidden answer'`) gets the function's finding,
filed under the rule its effect and decision name. The reason says which catalogue function it is, so a
person (and `deskgate explain`) sees where the fact comes from.
"""

from __future__ import annotations

from collections.abc import Callable

from gate.catalogue import matching
from gate.model import Risk
from gate.shell import Command, Finding

__all__ = ["judge"]

Add = Callable[[Finding], None]


def judge(cmd: Command, where: str, add: Add) -> None:
    """Every catalogue function this simple command triggers."""
    hits = matching(cmd.name, " ".join(cmd.words[1:]))
    for f in hits:
        risk = Risk.CRITICAL if f.decision == "block" else Risk.HIGH
        add(Finding(f.rule, risk, f"{cmd.name}: {f.why} [{f.cls}]{where}", cmd.span))
