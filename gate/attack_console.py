"""An attack framework's console running in a terminal (Sliver, Metasploit's and Meterpreter's, Empire's, a
beacon's): what is typed there runs on machines the framework controls, not in a shell. The facts are
resources/attack_consoles.toml. Pure.

    hosts_console(title, labels) -> bool   the terminal's title or the target's label is such a console's prompt
    console_verb(text) -> bool             the text is one plain console command (no shell syntax in it)
    THEFT, LOOK                            the commands that take from the controlled machine; those that only look

A terminal's title is the agent's to set, so the shell rules step aside only for a console's own command
words typed plainly: `rm -rf ~` typed under a title that says "sliver" is still judged as a shell line.
"""

from __future__ import annotations

import re
from importlib import resources

from gate import regex_store
from gate.normalise import normalise

__all__ = ["LOOK", "THEFT", "console_verb", "hosts_console", "verbs"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("attack_consoles.toml").read_text("utf-8"))
_PROMPT = re.compile(_BOOK["prompt"])
THEFT = frozenset(_BOOK["theft"])
LOOK = frozenset(_BOOK["look"])
_SHELL_SYNTAX = re.compile(r"[;|&$`<>(){}\\\n*?~]")


def hosts_console(title: str, labels: tuple[str, ...] = ()) -> bool:
    """The terminal titled `title`, typed into at a target labelled `labels`, runs an attack framework's console."""
    return any(_PROMPT.search(normalise(p)) for p in (title, *labels) if p)


def verbs(text: str) -> tuple[str, str]:
    """The typed line's first word and its first two words (lower case)."""
    parts = text.strip().lower().split()
    return (parts[0], " ".join(parts[:2])) if parts else ("", "")


def console_verb(text: str) -> bool:
    """The text is one of a console's own commands (`sessions -i 1`, `cursed cookies`), typed plainly."""
    if len(text) > 200 or _SHELL_SYNTAX.search(text):
        return False
    first, two = verbs(text)
    return bool(first) and bool({first, two} & (LOOK | THEFT))
