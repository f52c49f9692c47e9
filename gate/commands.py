"""Simple commands in plain words → a plan of `system` / `open_app` actions (the `command` op, DESIGN §4).

A deterministic rule parser, no model: a request either matches one of the forms below, clause by
clause, or it is refused with a `CommandError` that lists what is understood. It never guesses, and it
never produces a shell action: the only outputs are `system` actions with the params the executor
takes (app/execute/systemactions.py) and `open_app` with one program name.

    >>> [(a.name, a.params) for a in parse_command("Please mute and lock the screen.")]
    [('mute', {'state': 'on'}), ('lock', None)]

Tolerated: case, extra whitespace, trailing punctuation, polite words ("please", "could you", "thanks"),
numbers as digits or small words ("fifty", "twenty five"), "%"/"percent". Clauses join with "and",
"then", "and then" or a comma. A character a command never needs (`;|&$<>` ...) refuses the whole
request, so "open firefox && rm" runs nothing at all.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from gate.model import Action, OpenApp, System

__all__ = ["MAX_CLAUSES", "UNDERSTOOD", "CommandError", "parse_command"]

MAX_CLAUSES = 10
MAX_DELAY_S = 24 * 3600  # a power action further out than a day is not a "simple command"
VOLUME_STEP = 10
BRIGHTNESS_STEP = 10

UNDERSTOOD: tuple[str, ...] = (
    "open <app> / launch <app> / start <app> (one program name, e.g. 'open firefox', 'launch the terminal')",
    "set volume to <0-100> / volume up / volume down [by <n>]",
    "mute / unmute",
    "lock the screen",
    "set brightness to <1-100> / brightness up / brightness down [by <n>]",
    "turn wifi on|off / turn bluetooth on|off",
    "sleep / suspend / hibernate",
    "shut down / restart [in <n> seconds|minutes|hours] [now]",
    "several of these joined by 'and', 'then' or a comma",
)


class CommandError(ValueError):
    """A request that is not understood or out of range. `understood` lists the forms that are."""

    def __init__(self, message: str, *, unknown: bool = True) -> None:
        # an unknown phrasing says what would have been understood; an out-of-range number names its range
        full = f"{message}. Understood: " + "; ".join(UNDERSTOOD) if unknown else message
        super().__init__(full)
        self.message = full
        self.unknown = unknown
        self.understood = UNDERSTOOD


# -- normalising ---------------------------------------------------------------------------------

# Letters, digits, spaces and the punctuation a sentence uses. Anything else is refused outright.
_ALLOWED = re.compile(r"[a-z0-9 ,.!?'%-]*")
_POLITE = re.compile(
    r"\b(?:please|pls|plz|kindly|thanks|thank you|could you|can you|would you|will you|i want you to|"
    r"i'd like you to|for me|hey deskgate|deskgate)\b")
_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?(?:then\s+)?|\band then\b|\bthen\b|\band\b)\s*")

_UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "a": 1, "an": 1}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_NUM_WORD = "|".join(sorted([*_UNITS, *_TENS, "hundred"], key=len, reverse=True))
# a number as digits, or as up to three number words ("one hundred", "twenty five")
NUM = rf"(?:\d{{1,6}}|(?:{_NUM_WORD})(?: (?:{_NUM_WORD})){{0,2}})"


def _number(text: str) -> int | None:
    """'50' / 'fifty' / 'twenty five' / 'one hundred' / 'a hundred' / 'an' (hour) → int; None otherwise."""
    if text.isdigit():
        return int(text)
    words = text.split()
    if words in (["a"], ["an"]):
        return 1
    total = 0
    if len(words) >= 2 and words[1] == "hundred" and 1 <= _UNITS.get(words[0], 0) <= 9:
        total, words = 100 * _UNITS[words[0]], words[2:]
    if not words:
        return total
    head, rest = words[0], words[1:]
    if head in ("a", "an", "hundred"):
        return None
    if head in _TENS and not rest:
        return total + _TENS[head]
    if head in _TENS and len(rest) == 1 and 1 <= _UNITS.get(rest[0], 0) <= 9 and rest[0] not in ("a", "an"):
        return total + _TENS[head] + _UNITS[rest[0]]
    if head in _UNITS and not rest:
        return total + _UNITS[head]
    return None


_RX_NORMALISE = re.compile(r"(?<=\d) ?%|(?<=\d) percent\b|(?<=[a-z]) percent\b")


def _normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = folded.replace("\u2019", "'").replace("wi-fi", "wifi").replace("wi fi", "wifi")
    folded = " ".join(folded.split())
    if not _ALLOWED.fullmatch(folded):
        bad = sorted({c for c in folded if not _ALLOWED.fullmatch(c)})
        shown = " ".join(repr(c) for c in bad[:5])
        raise CommandError(f"a simple command never contains {shown}; nothing was run")
    folded = _POLITE.sub(" ", folded)
    folded = _RX_NORMALISE.sub("", folded)
    return " ".join(folded.split())


# -- clause forms ----------------------------------------------------------------------------------

_THE = r"(?:(?:the|my|this) )?"
_DEVICE = r"(?: (?:the )?(?:computer|pc|machine|system|laptop|desktop))?"
# A program name: one word the desktop finds on PATH. No '/', no leading '-': never a path or an option.
_APP = re.compile(r"[a-z0-9][a-z0-9._+]*(?:-[a-z0-9._+]+)*")
_APP_ALIASES = {
    "terminal": "x-terminal-emulator", "a terminal": "x-terminal-emulator", "terminal emulator":
    "x-terminal-emulator", "browser": "x-www-browser", "web browser": "x-www-browser",
    "a browser": "x-www-browser", "vs code": "code", "visual studio code": "code",
}


def _level(name: str, raw: str, lo: int) -> int:
    n = _number(raw)
    if n is None:
        raise CommandError(f"{raw!r} is not a {name} level; say a number from {lo} to 100")
    if not lo <= n <= 100:
        raise CommandError(f"{name} level {n} is out of range: it must be from {lo} to 100", unknown=False)
    return n


def _step(name: str, raw: str | None, default: int) -> int:
    if raw is None:
        return default
    n = _number(raw)
    if n is None or not 1 <= n <= 100:
        raise CommandError(f"a {name} change must be from 1 to 100, not {raw!r}", unknown=False)
    return n


def _delay(raw_n: str | None, unit: str | None) -> int:
    if raw_n is None:
        return 0
    n = _number(raw_n)
    if n is None:
        raise CommandError(f"{raw_n!r} is not a number of {unit}")
    seconds = n * {"s": 1, "m": 60, "h": 3600}[(unit or "s")[0]]
    if seconds > MAX_DELAY_S:
        raise CommandError(f"a delay of {n} {unit} is out of range: it must be from 0 seconds to 24 hours",
                           unknown=False)
    return seconds


_RX_OPEN = re.compile(r"^(?:the |an? |my )")
_RX_OPEN_2 = re.compile(r" (?:app|application|program)$")
_RX_OPEN_3 = re.compile(r"^(?:app|application|program) ")


def _open(m: re.Match[str]) -> Action:
    app = m["app"]
    app = _RX_OPEN.sub("", app)
    app = _RX_OPEN_2.sub("", app)
    app = _RX_OPEN_3.sub("", app)
    if app in _APP_ALIASES:
        return OpenApp(app=_APP_ALIASES[app])
    if not _APP.fullmatch(app):
        raise CommandError(f"{app!r} is not one program name (say e.g. 'open firefox'); nothing was run")
    return OpenApp(app=app)


def _level_action(name: str, lo: int) -> Callable[[re.Match[str]], Action]:
    def build(m: re.Match[str]) -> Action:
        return System(name=name, params={"level": _level(name, m["n"], lo)})
    return build


def _change_action(name: str, default: int) -> Callable[[re.Match[str]], Action]:
    def build(m: re.Match[str]) -> Action:
        step = _step(name, m["n"], default)
        down = m["dir"] in ("down", "decrease", "lower", "reduce", "dim")
        return System(name=name, params={"change": -step if down else step})
    return build


def _power(name: str) -> Callable[[re.Match[str]], Action]:
    def build(m: re.Match[str]) -> Action:
        delay = _delay(m["n"], m["unit"])
        return System(name=name, params={"delay_s": delay}) if delay else System(name=name)
    return build


_BY = rf"(?: by (?P<n>{NUM}))?"
_UP = r"(?P<dir>up|down)"
_MORE = r"(?P<dir>increase|raise|decrease|lower|reduce|dim)"
_IN = rf"(?: in (?P<n>{NUM}) (?P<unit>seconds?|secs?|minutes?|mins?|hours?|hrs?))?(?: now| right now)?"
_STATE = r"(?P<state>on|off)"


def _dim(m: re.Match[str]) -> Action:
    return System(name="brightness", params={"change": -_step("brightness", m["n"], BRIGHTNESS_STEP)})


def _radio(m: re.Match[str]) -> Action:
    name = "bluetooth" if m["x"] == "bluetooth" else "wifi"
    state = m["state"]
    return System(name=name, params={"state": {"enable": "on", "disable": "off"}.get(state, state)})


_RADIO = r"(?P<x>wifi|wireless|bluetooth)"
_VOL = rf"{_THE}(?:volume|sound)"
_BRI = rf"{_THE}(?:screen )?brightness"

# Each form must match a whole clause (fullmatch). Order only matters for readability: no two overlap.
_FORMS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Action]], ...] = tuple(
    (re.compile(p), f) for p, f in [
        (r"(?:open|launch|start|run) (?P<app>[a-z0-9 ._+-]+)", _open),
        # volume
        (rf"(?:set|change|put|turn) {_VOL} (?:to|at) (?P<n>.+)", _level_action("volume", 0)),
        (rf"{_VOL}(?: to)? (?P<n>{NUM})", _level_action("volume", 0)),
        (rf"(?:turn )?{_VOL} {_UP}{_BY}", _change_action("volume", VOLUME_STEP)),
        (rf"turn {_UP} {_VOL}{_BY}", _change_action("volume", VOLUME_STEP)),
        (rf"{_MORE} {_VOL}{_BY}", _change_action("volume", VOLUME_STEP)),
        (r"mute(?: (?:the )?(?:sound|audio|volume|speakers?))?", lambda m: System(name="mute", params={"state": "on"})),
        (r"unmute(?: (?:the )?(?:sound|audio|volume|speakers?))?", lambda m: System(name="unmute")),
        # screen
        (rf"lock(?: {_THE}(?:screen|session|computer|desktop|pc))?", lambda m: System(name="lock")),
        (rf"(?:set|change|put|turn) {_BRI} (?:to|at) (?P<n>.+)", _level_action("brightness", 1)),
        (rf"{_BRI}(?: to)? (?P<n>{NUM})", _level_action("brightness", 1)),
        (rf"(?:turn )?{_BRI} {_UP}{_BY}", _change_action("brightness", BRIGHTNESS_STEP)),
        (rf"turn {_UP} {_BRI}{_BY}", _change_action("brightness", BRIGHTNESS_STEP)),
        (rf"{_MORE} {_BRI}{_BY}", _change_action("brightness", BRIGHTNESS_STEP)),
        (rf"dim {_THE}screen{_BY}", _dim),
        # radios
        (rf"(?:turn|switch) {_THE}{_RADIO} {_STATE}", _radio),
        (rf"(?:turn|switch) {_STATE} {_THE}{_RADIO}", _radio),
        (rf"(?P<state>enable|disable) {_THE}{_RADIO}", _radio),
        (rf"{_THE}{_RADIO} {_STATE}", _radio),
        # power
        (rf"(?:sleep|suspend|go to sleep|put {_THE}(?:computer|pc|machine|system|laptop) to sleep)(?: now)?",
         lambda m: System(name="sleep")),
        (rf"hibernate{_DEVICE}(?: now)?", lambda m: System(name="hibernate")),
        (rf"(?:shut ?down|power ?off){_DEVICE}{_IN}", _power("shutdown")),
        (rf"turn off {_THE}(?:computer|pc|machine|system|laptop){_IN}", _power("shutdown")),
        (rf"(?:restart|reboot){_DEVICE}{_IN}", _power("restart")),
    ])


def _clause(text: str) -> Action:
    for pattern, build in _FORMS:
        m = pattern.fullmatch(text)
        if m is not None:
            return build(m)
    raise CommandError(f"not understood: {text!r}; nothing was run")


def parse_command(text: str) -> tuple[Action, ...]:
    """A plain request → its actions, in order. Raises CommandError (nothing understood is half-run:
    one clause that is not understood refuses the whole request)."""
    norm = _normalise(text)
    clauses = [c.strip(" .!?'-") for c in _SPLIT.split(norm.strip(" .!?"))]
    clauses = [c for c in clauses if c]
    if not clauses:
        raise CommandError("the request is empty")
    if len(clauses) > MAX_CLAUSES:
        raise CommandError(f"{len(clauses)} commands in one request; at most {MAX_CLAUSES}", unknown=False)
    return tuple(_clause(c) for c in clauses)
