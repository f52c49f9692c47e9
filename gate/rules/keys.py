"""Key chords that open a place where commands run, pressed while a page asks for them (ClickFix).

A fake verification ("verify you are human", "I'm not a robot", "fix error 0x..", "update required")
tells whoever is at the keyboard to press Win+R (or Win+X, Cmd+Space, Ctrl+Alt+T), paste and press
Enter: the page has put a command on the clipboard, and the person runs it without seeing it. An agent
that follows such a page does the same. The gate sees one chord at a time, so it judges the first one:
a chord that opens the Run box, the power-user menu, Spotlight or a terminal, while the active window
is such a page, blocks. The same chord on an ordinary window (a desktop, an editor, a mail) is left to
the other rules: people open a terminal all day.

The same holds for the browser's downloads list: the chord that opens it (Ctrl+J, Cmd+Shift+J, Cmd+Option+L,
Ctrl+Shift+Y) and Enter run the newest download. While the window's title names a program just downloaded from a
site that ships no software, that is the fake-update page's last step (`block.gui.run-latest-download`).

Pure: reads the action's keys and the observation's window title, URL and page text.
"""

from __future__ import annotations

import re

from gate.destinations import own_site
from gate.model import Risk
from gate.normalise import fold
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import canonical_keys
from gate.urls import RELEASE_HOST, USER_CONTENT_HOST

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


# chords that open a browser's downloads list or panel (Chrome, Edge and Firefox on Windows and Linux; Chrome and
# Safari on macOS; Firefox's Library on Linux; the menu key some builds bind), where Enter opens the newest item
DOWNLOAD_LIST = frozenset({"ctrl+j", "shift+super+j", "alt+super+l", "ctrl+shift+y", "alt+e", "super+j"})
# a program or an installer named in a window's title ("ChromeUpdate.exe downloaded - news.example.top")
_PROGRAM_FILE = re.compile(r"([\w()\[\] .~+-]{1,80}?\.(?:exe|msi|msix|msixbundle|appx|appxbundle|dmg|pkg|mpkg|apk|"
                           r"scr|bat|cmd|com|pif|js|jse|vbs|vbe|wsf|hta|ps1|lnk|jar|iso|img|vhdx?|run|bin|sh|"
                           r"appimage|deb|rpm))(?![\w.])", re.IGNORECASE)
_HOST_IN_TITLE = re.compile(r"(?<![\w.@-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})(?![\w-])",
                            re.IGNORECASE)
_DOWNLOADED = re.compile(r"\b(?:downloaded|download (?:complete|finished|done)|downloads?|saved|finished|"
                         r"heruntergeladen|téléchargé|descargado|scaricato|baixado|загружен|скачан)\b", re.IGNORECASE)


def _fresh_program(title: str) -> tuple[str, str] | None:
    """(file, host) when the window's title names a program or an installer just downloaded and the site it came
    from is none that ships software (a vendor's release host or a listed brand's own site); "" for the host when
    the title names none."""
    if not title or len(title) > 400 or not _DOWNLOADED.search(title):
        return None
    m = _PROGRAM_FILE.search(title)
    if m is None:
        return None
    name = m.group(1).strip()
    rest = title[:m.start()] + " " + title[m.end():]
    for host in (h.lower() for h in _HOST_IN_TITLE.findall(rest)):
        if (RELEASE_HOST.match(host) and not USER_CONTENT_HOST.match(host)) or own_site(host):
            return None
        return name, host
    return name, ""


@rule("block.gui.run-latest-download", "Opening the downloads list to run a program just fetched from an unknown "
      "site", risk=Risk.CRITICAL, types=("key",), confidence=0.8)
def run_latest_download(ctx: Context) -> str | None:
    """A chord that opens the browser's downloads list (`DOWNLOAD_LIST`: Ctrl+J, Cmd+Shift+J, Cmd+Option+L,
    Ctrl+Shift+Y), alone or followed by Enter, while the window's title names a program, a script or an installer
    just downloaded (`ChromeUpdate.exe downloaded`) from a site that is no vendor's release host and no listed
    brand's own site. Fake browser updates and cracked-software pages end so: the file is fetched, and the
    agent is told to open it from the downloads list. A title with no site named, the same keys over an
    ordinary page, and an installer from the vendor (`python.org`, `microsoft.com`) are not this rule's."""
    # a client may write the opener and Enter as one list (`["ctrl+j", "enter"]`): Enter is read as the next key
    pressed = [c.replace("+enter", "").replace("enter+", "") for c in chords(ctx.action.keys)]  # type: ignore[attr-defined]
    opener = next((c for c in pressed if c in DOWNLOAD_LIST), None)
    if opener is None:
        return None
    got = _fresh_program(ctx.observation.window_title or "")
    if got is None or not got[1]:
        return None
    return (f"{opener} opens the downloads list while {got[0]!r} from {got[1]} was just downloaded: the newest "
            f"item runs with Enter, a program from a site that ships none")


RULES: tuple[Rule, ...] = (run_box_on_lure, run_latest_download)
