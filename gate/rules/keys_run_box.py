"""Rule: Enter pressed in Windows' Run box, which runs whatever the box holds.

    confirm.gui.run-box-enter   Enter (or OK's Alt+O) in the Run dialog: the command it runs was pasted or typed
                                before and is not in the action, so a person reads it first

The fake-verification pages end on this key ("press Win+R, Ctrl+V, then Enter"); the gate sees the key, not the
command. Enter in any other window, and in a Run box of a program's own search, is not this rule's.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.keys import chords

__all__ = ["RULES"]

# Windows' Run dialog, by the title or the app the observation names it (English and the common localisations)
_RUN_BOX = re.compile(r"^\s*(?:run|ausführen|exécuter|ejecutar|executar|esegui|uitvoeren|uruchamianie|выполнить)\s*$",
                      re.IGNORECASE)
_GO = frozenset({"enter", "return", "alt+o", "ctrl+shift+enter"})


@rule("confirm.gui.run-box-enter", "Enter pressed in the Run box, which runs a command the action does not show",
      risk=Risk.HIGH, types=("key",), confidence=0.7)
def run_box_enter(ctx: Context) -> CheckResult:
    """Enter (Alt+O, or Ctrl+Shift+Enter to run it elevated) while the active window is Windows' Run dialog: what
    it runs was put there before, often pasted from a page's clipboard, and the action does not show it. A person
    reads the box first."""
    obs = ctx.observation
    if not (_RUN_BOX.match(obs.window_title or "") or (not obs.window_title and _RUN_BOX.match(obs.app or ""))):
        return None
    pressed = chords(ctx.action.keys)  # type: ignore[attr-defined]
    go = next((c for c in pressed if c in _GO), None)
    if go is None:
        return None
    return f"{go} in the Run box runs a command the action does not show"


RULES: tuple[Rule, ...] = (run_box_enter,)
