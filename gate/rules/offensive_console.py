"""Rules: what is typed, pressed or clicked in a phishing or exploitation framework (the Social-Engineer Toolkit,
Metasploit's console, gophish's admin, evilginx, BeEF, king-phisher, zphisher and the like).

    block.typed.offensive-console   a payload (`windows/meterpreter/reverse_tcp`), `set LHOST`, `exploit`, `run`;
                                    the listener's or harvester's address; a victim's e-mail address; a lure's
                                    subject or body; a real sign-in site (or its look-alike) as the page to clone;
                                    `yes` to start the listener or send
    confirm.typed.offensive-console any other menu choice or value typed there (leaving, help, search, info and
                                    show pass, as does a search field)
    block.gui.offensive-console     "Capture Submitted Data", "Capture Passwords", "Launch Campaign", "Send Emails",
                                    BeEF's "Execute" on a hooked browser
    confirm.gui.offensive-console   "Import Site", "Send Test Email", "Complete", "Delete", "New Campaign"
    confirm.gui.offensive-console-key  Enter in a framework's terminal menu: it submits what the gate did not see

The framework is known by the terminal's title, a prompt as the target's label (`set:webattack>`, `msf6 >`), or
its web admin's address (gophish's :3333) or title. Facts: resources/tui.toml `[offensive]`.

A credential-theft tool's console (mimikatz, kekeo), known by its program, its window's title or its prompt:

    block.typed.credential-console    a module's or the driver's command (`privilege::debug`,
                                      `sekurlsa::logonpasswords`, `!processprotect /remove`)
    confirm.typed.credential-console  any other line typed there (leaving, help, version and `cls` pass)

Facts: resources/credential_consoles.toml. Pure.
"""

from __future__ import annotations

import re
from importlib import resources

from gate import regex_store
from gate.attack_console import LOOK, verbs
from gate.destinations import impersonation, judge, own_site
from gate.model import Risk
from gate.normalise import fold, normalise
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.shell import BROWSER_APP, is_terminal
from gate.tui import OFFENSIVE, offensive_place
from gate.typed import Destination, destination

__all__ = ["RULES"]


def _labels(ctx: Context) -> tuple[str, ...]:
    target = ctx.action.target
    if target is None:
        return ()
    return tuple(normalise(p) for p in (target.label, target.name) if p)


def _place(ctx: Context) -> bool:
    """The action lands in a framework: its terminal menu or console, its web admin, its own app."""
    obs = ctx.observation
    if BROWSER_APP.search(normalise(obs.app)) or (obs.url and not obs.app):
        return offensive_place(obs.app, obs.window_title, obs.url, page=True)
    if ctx.type == "type" and ctx.derived(destination) not in (Destination.PROGRAM, Destination.ATTACK_CONSOLE,
                                                               Destination.FIELD):
        return False
    if is_terminal(ctx.compiled, obs.app, obs.window_title):
        return offensive_place(obs.app, obs.window_title, obs.url, ctx.derived(_labels))
    # another app: the framework's own (King Phisher's client, Armitage), not an editor or a chat that names one
    return offensive_place(obs.app, "", obs.url) or (not obs.app and offensive_place("", obs.window_title, page=True))


_ADDRESS = re.compile(r"^\[?(?:\d{1,3}\.){3}\d{1,3}\]?(?::\d{1,5})?$|^[0-9a-f:]{3,39}$|^\d{2,5}$|"
                      r"^(?:[\w-]+\.)+[a-z]{2,}(?::\d{1,5})?$", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(r"^(?:https?://)?(?P<host>(?:[\w-]+\.)+[a-z]{2,}|(?:\d{1,3}\.){3}\d{1,3})(?::\d+)?(?:[/?#]\S*)?$",
                  re.IGNORECASE)
_YES = frozenset({"y", "yes", "yep", "ok", "oui", "ja", "si", "sí", "sim", "1"})
_SEARCH = re.compile(r"\b(?:search|filter|find|suche|rechercher|buscar|cerca)\b")
_LOOK_FIRST = frozenset({"search", "info", "help", "show", "back", "exit", "quit", "?"})


def _looks(text: str) -> bool:
    low = " ".join(text.lower().split())
    return low in OFFENSIVE.look or (low.split(" ", 1)[0] in _LOOK_FIRST if low else True)


def _cloned_site(text: str) -> str | None:
    """The real sign-in site (or a look-alike of one) a URL typed as the page to clone names, or None."""
    m = _URL.match(text.strip())
    if m is None:
        return None
    host = m.group("host").lower()
    if own_site(host) or impersonation(host) is not None or judge(host, "/") is not None:
        return host
    return None


def _attack_input(ctx: Context) -> str | None:
    text = ctx.action.text.strip()  # type: ignore[attr-defined]
    if not text or len(text) > 2000:
        return None
    if _looks(text):
        return None
    if OFFENSIVE.payload.search(text) or OFFENSIVE.verbs.search(text):
        return f"{text[:50]!r} picks a payload or starts the attack"
    labels = ctx.derived(_labels)
    label = " ".join(labels)
    if text.lower().split(" ", 1)[0] in ("run", "rerun") and \
            OFFENSIVE.armed.search(" ".join((label, normalise(ctx.observation.window_title)))):
        return f"{text[:20]!r} launches the selected exploit or payload handler"
    if not label:
        return None
    if OFFENSIVE.listener.search(label) and _ADDRESS.match(text):
        return f"{text[:40]!r} is the address the payload or the harvester reports to"
    if OFFENSIVE.victim.search(label) and _EMAIL.search(text):
        return f"{text[:40]!r} is a victim the lure is sent to"
    if OFFENSIVE.message.search(label) and not _SEARCH.search(label):
        return f"{text[:40]!r} is the lure's own message"
    if OFFENSIVE.clone.search(label) and (site := _cloned_site(text)) is not None:
        return f"{site!r} is a real sign-in site, or one dressed as it, made into a page that takes passwords"
    if OFFENSIVE.start.search(label) and text.lower() in _YES:
        return f"{text!r} starts the listener or sends the lure"
    return None


@rule("block.typed.offensive-console", "A payload, a listener, a victim or a lure typed into a phishing or "
      "exploitation framework", risk=Risk.CRITICAL, types=("type",), confidence=0.85)
def offensive_typed_block(ctx: Context) -> CheckResult:
    """In a phishing or exploitation framework (the Social-Engineer Toolkit's menus, Metasploit's console, gophish's
    admin, evilginx, BeEF): a payload (`windows/meterpreter/reverse_tcp`), `set LHOST`, `exploit` or `run`; the
    address the payload or the credential harvester reports to; a victim's e-mail address; the lure's subject or
    body; a real sign-in site (or a look-alike of one) as the page to clone; `yes` to start the listener or send.
    Each builds or starts an attack on people or machines: it blocks."""
    if not ctx.derived(_place):
        return None
    why = _attack_input(ctx)
    return f"typed into a phishing or exploitation framework: {why}" if why else None


@rule("confirm.typed.offensive-console", "A menu choice or value typed into a phishing or exploitation framework",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def offensive_typed_confirm(ctx: Context) -> CheckResult:
    """Any other menu choice or value typed into a phishing or exploitation framework (a menu's number, a campaign's
    name, a sending server, another site to clone) walks it towards an attack: it asks. Leaving the menu (`99`,
    `exit`, `back`), help, `search`, `info`, `show options` and a search field pass."""
    if not ctx.derived(_place) or ctx.derived(destination) is Destination.ATTACK_CONSOLE:
        return None  # (an attack console's prompt: `confirm.typed.attack-console` asks there)
    text = ctx.action.text.strip()  # type: ignore[attr-defined]
    first, two = verbs(text)
    if not text or _looks(text) or first in LOOK or two in LOOK or \
            any(_SEARCH.search(label) for label in ctx.derived(_labels)):
        return None
    return f"typed into a phishing or exploitation framework, {text[:40]!r} takes it a step towards an attack"


def _button(ctx: Context) -> str:
    target = ctx.action.target
    label = (target.label or target.name or "") if target else ""
    return " ".join(fold(label).split())[:80]


@rule("block.gui.offensive-console", "Harvesting passwords or launching a campaign in a phishing framework",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def offensive_click_block(ctx: Context) -> CheckResult:
    """In a phishing or browser-exploitation framework's admin (gophish, BeEF, king-phisher, evilginx's): "Capture
    Submitted Data" and "Capture Passwords" make a landing page keep what victims type; "Launch Campaign" and
    "Send Emails" send the lures; BeEF's "Execute" runs a module in a hooked browser. It blocks."""
    label = _button(ctx)
    if not label or not OFFENSIVE.click_block.match(label) or not ctx.derived(_place):
        return None
    return f"clicking {label[:40]!r} in a phishing framework harvests credentials or sends the attack"


@rule("confirm.gui.offensive-console", "Preparing or ending a campaign in a phishing framework", risk=Risk.HIGH,
      types=("click",), confidence=0.8)
def offensive_click_confirm(ctx: Context) -> CheckResult:
    """In a phishing framework's admin: "Import Site" (a page copied to take passwords), "Send Test Email", "New
    Campaign", saving a template or a landing page, "Complete" or "Delete" of a campaign and its results: it
    asks. Moving between the admin's pages and viewing the dashboard pass."""
    label = _button(ctx)
    if not label or not OFFENSIVE.click_confirm.match(label) or OFFENSIVE.click_block.match(label) or \
            not ctx.derived(_place):
        return None
    return f"clicking {label[:40]!r} in a phishing framework prepares, sends or ends a campaign"


_SUBMIT = frozenset({"enter", "return", "kp_enter", "kpenter", "ctrl+m"})


@rule("confirm.gui.offensive-console-key", "Enter in a phishing or exploitation framework's terminal menu",
      risk=Risk.HIGH, types=("key",), confidence=0.75)
def offensive_key(ctx: Context) -> CheckResult:
    """Enter in a phishing or exploitation framework's terminal menu (the Social-Engineer Toolkit, Metasploit)
    takes the menu's default or runs the line on its prompt, which the gate did not see typed: it asks.
    Ctrl+C (leaving), arrows and Escape pass."""
    keys = ctx.action.keys  # type: ignore[attr-defined]
    if "+".join(k.lower() for k in keys) not in _SUBMIT:
        return None
    obs = ctx.observation
    if not is_terminal(ctx.compiled, obs.app, obs.window_title) or \
            not offensive_place(obs.app, obs.window_title):
        return None
    return "Enter in a phishing or exploitation framework's menu submits a choice the gate did not see"


# -- a credential-theft tool's console ----------------------------------------------------------------------

_CREDS = regex_store.toml(resources.files("resources").joinpath("credential_consoles.toml").read_text("utf-8"))
_CREDS_PROGRAM = re.compile(_CREDS["program"])
_CREDS_PROMPT = re.compile(_CREDS["prompt"])
_CREDS_COMMAND = re.compile(_CREDS["command"])
_CREDS_LOOK = frozenset(_CREDS["look"])


def _credential_console_line(ctx: Context) -> str | None:
    """The line typed into a credential-theft tool's console (lower case, its prompt left out), or None when the
    typing does not land in one: the tool is the app, starts the window's title, or its prompt is the target's
    label, or the text starts with the prompt in a terminal."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > 2000:
        return None
    obs = ctx.observation
    low = " ".join(text.lower().split())
    prompted = _CREDS_PROMPT.match(low)
    place = bool(_CREDS_PROGRAM.match(normalise(obs.app)) or _CREDS_PROGRAM.match(normalise(obs.window_title)) or
                 any(_CREDS_PROMPT.match(label) for label in ctx.derived(_labels)) or
                 (prompted and (not obs.app or is_terminal(ctx.compiled, obs.app, obs.window_title))))
    if not place:
        return None
    return low[prompted.end():] if prompted else low


@rule("block.typed.credential-console", "A module command typed into a credential-theft tool's console",
      risk=Risk.CRITICAL, types=("type",), confidence=0.9)
def credential_console_block(ctx: Context) -> CheckResult:
    """In mimikatz's or kekeo's console each module command acts on this machine: `privilege::debug` takes the
    right to read any process, `sekurlsa::` and `lsadump::` read the passwords and hashes in memory and in the
    registry, `kerberos::` and `crypto::` forge or export tickets and keys, `!processprotect /remove` and `!+`
    load the tool's driver to strip LSASS's protection. It blocks."""
    line = ctx.derived(_credential_console_line)
    if not line or line in _CREDS_LOOK or not _CREDS_COMMAND.match(line):
        return None
    return f"typed into a credential-theft tool's console, {line[:50]!r} reads or forges this machine's credentials"


@rule("confirm.typed.credential-console", "A line typed into a credential-theft tool's console", risk=Risk.HIGH,
      types=("type",), confidence=0.8)
def credential_console_confirm(ctx: Context) -> CheckResult:
    """Any other line typed into mimikatz's or kekeo's console (a bare word it reads as a command of its standard
    module, a file to log to) asks. Leaving it, its help, its version and clearing its screen pass."""
    line = ctx.derived(_credential_console_line)
    if not line or line in _CREDS_LOOK or _CREDS_COMMAND.match(line) or line.split(" ", 1)[0] in _CREDS_LOOK:
        return None
    return f"typed into a credential-theft tool's console: {line[:50]!r}"


RULES: tuple[Rule, ...] = (offensive_typed_block, offensive_typed_confirm, offensive_click_block,
                           offensive_click_confirm, offensive_key, credential_console_block,
                           credential_console_confirm)
