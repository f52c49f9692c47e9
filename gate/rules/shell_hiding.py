"""Shell findings about a person's file hidden by its name (read for each command; gate/rules/shell_harvest.py calls
`line`).

A document, a sheet, a picture or a note renamed to the same name with a dot in front (`mv report.pdf .report.pdf`,
`git mv notes.md .notes.md`, `Rename-Item a.docx .a.docx`): nothing is deleted, yet the file vanishes from every
file manager and listing, and the person believes it lost. No task needs it; an injected instruction that wants
the person's work gone without a delete does. It asks (`confirm.shell.defense-evasion`). A dotfile put in place
from its plain copy (`mv gitignore .gitignore`, `mv env.example .env`) is a setting, not a document, and passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.shell import Finding, ShellAnalysis

__all__ = ["line"]

Add = Callable[[Finding], None]

_MOVERS = frozenset({"mv", "rename-item", "ren", "rename", "move", "move-item", "mi", "rni"})
# what a person keeps as their own work (not a program's settings)
_DOCUMENT = re.compile(r"\.(?:md|txt|rtf|pdf|docx?|odt|pages|xlsx?|ods|csv|tsv|numbers|pptx?|odp|key|jpe?g|png|heic|"
                       r"gif|tiff?|mp4|mov|mp3|wav|m4a|zip|epub|tex|ipynb)$", re.I)


def _operands(words: tuple[str, ...] | list[str]) -> list[str]:
    return [w for w in words if not w.startswith("-")]


def line(analysis: ShellAnalysis, add: Add) -> None:
    """The finding of the module docstring, for each move or rename of the line."""
    if "." not in analysis.source:
        return
    for cmd in analysis.commands:
        name = cmd.name
        words = list(cmd.argv[1:])
        if name == "git" and words[:1] == ["mv"]:
            words = words[1:]
        elif name not in _MOVERS:
            continue
        ops = _operands(words)
        if len(ops) != 2:
            continue
        src, dest = (o.replace("\\", "/").strip("'\"") for o in ops)
        s_dir, _, s_name = src.rpartition("/")
        d_dir, _, d_name = dest.rpartition("/")
        if name in ("rename-item", "rni", "ren", "rename"):
            d_dir = d_dir or s_dir  # Rename-Item's new name is a bare name
        if d_dir == s_dir and d_name == "." + s_name and _DOCUMENT.search(s_name):
            add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                        f"renames {s_name} to {d_name}: the person's file is hidden from every listing",
                        cmd.span))
            return
