"""What the GUI rules that read a bare label with its window share: the cue book's `[context.*]` patterns, the
window title's words (once per action) and the clicked label's first line.

Used by gate/rules/gui_windows.py (settings and system surfaces) and gate/rules/gui_dialogs.py (mail rules,
share dialogs, consent screens).
"""

from __future__ import annotations

import re

from gate.fields import text_of
from gate.rules.base import Context
from gate.rules.gui import label_text

__all__ = ["cue", "cue_match", "first_label", "title_words"]

_TITLE_LIMIT = 256  # a window title's start says what the window is


def cue(ctx: Context, name: str) -> re.Pattern[str] | None:
    """The cue book's `[context.NAME]` pattern, None when the book has none."""
    return ctx.compiled.cues.context.get(name)


def cue_match(ctx: Context, name: str, words: str, *, anchored: bool = False) -> re.Match[str] | None:
    """The `[context.NAME]` pattern found in `words` (at their start when `anchored`), or None."""
    pattern = cue(ctx, name)
    if pattern is None or not words:
        return None
    return pattern.match(words) if anchored else pattern.search(words)


def _title(ctx: Context) -> str:
    title = ctx.observation.window_title
    return text_of(title[:_TITLE_LIMIT]).words.replace("\n", " ") if title else ""


def title_words(ctx: Context) -> str:
    """The window title's words on one line, read once per action (every window rule reads them)."""
    return ctx.derived(_title)


def _first(ctx: Context) -> str:
    words = ctx.derived(label_text).words
    return words.split("\n", 1)[0].strip() if words else ""


def first_label(ctx: Context) -> str:
    """The first line of the clicked label's words ("" when there is none), read once per action."""
    return ctx.derived(_first)
