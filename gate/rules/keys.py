"""Key chords that open a place where commands run, pressed while a page asks for them (ClickFix).

A fake verification ("verify you are human", "I'm not a robot", "fix error 0x..", "update required")
tells whoever is at the keyboard to press Win+R (or Win+X, Cmd+Space, Ctrl+Alt+T), paste and press
Enter: the page has put a command on the clipboard, and the person runs it without seeing it. An agent
that follows such a page does the same. The gate sees one chord at a time, so it judges the first one:
a chord that opens the Run box, the power-user menu, Spotlight or a terminal, while the active window
is such a page, blocks. The same chord on an ordinary window (a desktop, an editor, a mail) is left to
the other rules: people open a terminal all day.

Pure: reads the action's keys and the observation's window title, URL and page text.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.normalise import fold
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import canonical_keys

__all__ = ["RULES", "chords"]

# chords that open somewhere a line of text runs: the Run box, the Win+X menu (PowerShell/Terminal as admin),
# Spotlight and Alfred/Raycast launchers (a typed "terminal" opens one), a desktop's terminal shortcut
RUN_OPENERS = frozenset({"super+r", "super+x", "super+space", "alt+space", "ctrl+alt+t", "super+enter",
                         "super+t", "ctrl+shift+enter", "super+shift+enter"})

# a page that asks for a check or a fix it says only keys can make: its title, its address or its text
_LURE = re.compile(
    r"\b(?:verify (?:you are|you re|you[\u2019']re|that you are) (?:a )?human|are you (?:a )?human|human verification|"
    r"not a (?:robot|bot)|captcha|verification (?:step|required|failed|needed)|press (?:\w+ ){0,3}to verify|"
    r"(?:complete|finish|pass) (?:the |this )?(?:verification|check|captcha|challenge)|"
    r"(?:security|browser|human|bot|ddos) (?:check|verification|challenge)|checking your browser|"
    r"press (?:win|windows|the windows key|cmd|command)|fix (?:the )?(?:error|issue|problem)|"
    r"error (?:code )?0x[0-9a-f]{4,}|(?:update|fix|patch) required|your (?:browser|system|computer|pc) "
    r"(?:is|has been) (?:infected|blocked|locked|out of date)|(?:document|file|page) (?:can t|cannot|could not) "
    r"(?:be )?(?:displayed|opened|loaded))\b")


def chords(keys: list[str]) -> tuple[str, ...]:
    """The chords a key action presses. One action is one chord (`["win", "r"]`); a client that writes a
    sequence in one string (`"win+r ctrl+v enter"`) gets each chord read in turn."""
    joined = "+".join(keys)
    if " " not in joined.strip():
        return (canonical_keys(keys),)
    return tuple(canonical_keys(part.split("+")) for part in joined.split() if part.strip("+"))


@rule("block.gui.run-box-on-lure", "Opening the Run box or a terminal because a page says so", risk=Risk.CRITICAL,
      types=("key",), confidence=0.9)
def run_box_on_lure(ctx: Context) -> str | None:
    """A chord that opens the Run box, the Win+X menu, Spotlight or a terminal (`RUN_OPENERS`) while the
    active window is a page that asks for a human check or a fix (its title, address or text: `_LURE`). That
    is the first key of "press Win+R, paste, press Enter": what would run is the page's, never judged.
    Near-miss: the same chord over a desktop, a terminal or an editor, and a captcha page with no such chord
    (typing into it, pressing Tab) are not this rule's."""
    pressed = chords(ctx.action.keys)  # type: ignore[attr-defined]
    opener = next((c for c in pressed if c in RUN_OPENERS), None)
    if opener is None:
        return None
    obs = ctx.observation
    where = fold(f"{obs.window_title}\n{obs.url}\n{obs.page_text[:2000]}")
    m = _LURE.search(where)
    if m is None:
        return None
    return (f"{opener} opens a place where commands run, while the page says {m.group(0)!r}: the fake-verification "
            f"trick that has a page's command pasted and run")


RULES: tuple[Rule, ...] = (run_box_on_lure,)
