"""Where typed text goes, and so what it becomes.

    destination(ctx) -> Destination        (`ctx.derived(destination)` for a `type` action)
    as_command(text) -> str | None          the command a terminal or Run dialog would run
    as_url(text) -> str | None              the URL an address bar would open (None: a search)

Text typed into a terminal, a shell prompt or a Run dialog (Alt+F2, krunner, Win+R) is a command once
Enter is pressed; text typed into a browser's address bar is a navigation. Which one it is comes from
what deskgate observed (the active window's app and title: trusted) and from the target the agent names
(its role, label and name: a claim, but one that can only make the gate stricter here). Anything else is
an ordinary field; with neither a target nor an observed window the destination is unknown. A whole
URL typed into a browser with no target named is the address bar (Ctrl+L, then typing).

The text is judged when it is typed, as the whole line it makes (the line so far, which the supervisor keeps
per window: gate/lines.py), and again when a line end runs it (a `key` Return, or a line end inside the text).
A command typed without Enter is judged as if it ran.
"""

from __future__ import annotations

import enum
import re
from typing import TYPE_CHECKING

from gate.normalise import normalise
from gate.shell import is_terminal

if TYPE_CHECKING:
    from gate.rules.base import Context

__all__ = ["Destination", "as_command", "as_url", "destination"]


class Destination(enum.StrEnum):
    TERMINAL = "a terminal"
    RUN_DIALOG = "a Run dialog"
    ADDRESS_BAR = "the address bar"
    FIELD = "a field"
    UNKNOWN = "an unknown place"

    @property
    def runs_commands(self) -> bool:
        return self in (Destination.TERMINAL, Destination.RUN_DIALOG)


# target role / label / name that says "this is a shell" (the agent's own description of the target)
_TERMINAL_TARGET = re.compile(
    # (a console run as administrator is titled "Administrator: Windows PowerShell")
    r"^(?:(?:administrator: ?|admin: ?)?(?:the |a )?(?:terminal|console|shell|command prompt|cmd(?:\.exe)?|"
    r"(?:windows )?powershell|pwsh|bash|zsh|"
    r"fish|sh|xterm|konsole|gnome terminal|command line|cli|tty)(?: (?:input|window|emulator|session|tab|prompt|"
    r"area|text area|pane|panel|view))?)$|\b(?:terminal|shell|console) (?:input|emulator|session|prompt)\b|"
    r"\bcommand (?:line|prompt)\b|^[\w.-]+@[\w.-]+:\S*\s?[$#]|^\S*\s?[$#] ?$|"
    # a shell in a web page or an app's pane: "Cloud Shell", "Web terminal", "Terminal 2", "xterm.js terminal"
    r"\b(?:cloud|web|browser|remote|ssh|jupyter|online|integrated|embedded|xterm(?:[. ]js)?|vs ?code|container|pod|"
    r"serial) (?:shell|terminal|console)\b|^(?:terminal|console|shell) \d{1,2}$")
# a Run dialog: window titles and apps of launchers, or a target that asks for a command to run
_RUN_WINDOW = re.compile(
    r"^(?:run|run application|run a command|run command|execute|execute command|launch|launcher|krunner|gmrun|"
    r"xfrun4|xfce4-appfinder|grun|dmenu|rofi|ulauncher|albert|synapse|wofi|fuzzel|alt\+f2)$|\bkrunner\b|"
    r"\brun dialog\b")
_RUN_TARGET = re.compile(
    r"\b(?:run dialog|run box|enter (?:a |the )?command|type (?:a |the )?command|command to run|run a command|"
    r"execute (?:a |the )?command|name of a program|krunner|alt\+f2|run prompt)\b|^(?:run|command|open:?)$")
# the browser's address bar (role, label or name of the target)
_ADDRESS_TARGET = re.compile(
    r"\b(?:address bar|address and search bar|url bar|urlbar|location bar|omnibox|awesome ?bar|address field|"
    r"search or (?:enter|type) (?:an? )?(?:web )?(?:address|url)|enter (?:an? )?(?:web )?(?:address|url)|"
    r"(?:web|site) address|url field|go to (?:a )?(?:web ?site|url|address))\b|^(?:url|web address)$")


_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_BROWSER = re.compile(r"\b(?:firefox|chrome|chromium|brave|edge|msedge|safari|opera|vivaldi|epiphany|librewolf|"
                      r"waterfox|tor browser|web browser|browser)\b")


def _target_parts(ctx: Context) -> tuple[str, ...]:
    """The target's role, label and name, each normalised on its own (one per line of a multi-line name):
    each is matched alone, so `role: terminal` is a terminal whatever the label says."""
    target = ctx.action.target
    if target is None:
        return ()
    parts = []
    for p in (target.role, target.label, target.name):
        if p:
            parts.extend(n for line in p.split("\n") if (n := normalise(line)))
    return tuple(parts)


def destination(ctx: Context) -> Destination:
    """Where the typed text of `ctx` goes (see the module docstring)."""
    obs = ctx.observation
    if (obs.app or obs.window_title) and is_terminal(ctx.compiled, obs.app, obs.window_title):
        return Destination.TERMINAL
    window = normalise(obs.window_title)
    app = normalise(obs.app)
    if (window and _RUN_WINDOW.search(window)) or (app and _RUN_WINDOW.search(app)):
        return Destination.RUN_DIALOG
    target = _target_parts(ctx)
    if target:
        for line in target:
            if _ADDRESS_TARGET.search(line):
                return Destination.ADDRESS_BAR
            if _RUN_TARGET.search(line):
                return Destination.RUN_DIALOG
            if _TERMINAL_TARGET.search(line):
                return Destination.TERMINAL
        return Destination.FIELD
    if _BROWSER.search(app) or (obs.url and not app):
        # a browser with nothing named as the target: a whole URL typed there is what Ctrl+L then typing does
        text = getattr(ctx.action, "text", "")
        if _SCHEME.match(text.strip()) or text.strip().lower().startswith("www."):
            return Destination.ADDRESS_BAR
    if obs.app or obs.window_title:
        return Destination.FIELD
    return Destination.UNKNOWN


def as_command(text: str) -> str | None:
    """The command typed text runs: line breaks are Enter presses (each line a command); None when blank."""
    command = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    return command or None


_BARE_HOST = re.compile(r"^(?:[\w-]+\.)+[a-z\u00a1-\uffff-]{2,}(?::\d+)?(?:[/?#]\S*)?$|"
                        r"^localhost(?::\d+)?(?:[/?#]\S*)?$|^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?:[/?#]\S*)?$|^[^\s/@]+@[^\s/]+\.[a-z]{2,}/\S*$",
                        re.IGNORECASE)


_RX_AS_URL = re.compile(r"^[\w.-]+:\d")


def as_url(text: str) -> str | None:
    """The URL typed text opens from an address bar: a scheme, or one word that reads as a host (with an
    optional path); None for search terms ("cheap flights to rome") which go to the search engine."""
    url = text.strip()
    if not url or len(url) > 4096:
        return None if not url else url[:4096]
    first = url.split(None, 1)[0]
    if _SCHEME.match(url) and not _RX_AS_URL.match(url):
        return url if " " not in url or url.lower().startswith(("javascript:", "data:", "vbscript:")) else first
    if " " not in url and _BARE_HOST.match(url):
        return url
    return None
