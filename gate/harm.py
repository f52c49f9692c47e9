"""What typed text does to the people who read it: a phishing message sent from the person's own account.

    phishing(words, raw, cues, book=None) -> str | None

`words` is the typed text in normalised word form (`gate.rules.gui`), `raw` the text as typed (where a link is
read), `cues` the steering cue kinds already found in it (`gate.steering`). The vocabulary is data, the
`phish_*` entries of `[parts]` in resources/cues.toml, in several languages. A phishing message has two
parts:

- an ask: the reader is to send back a password, a one-time code or bank details ("reply with your current
  password", "send us the code we texted you": `phish_send_back`, or the `secret request` cue), or to type
  them in somewhere ("log in with your bank details", "verify your account": `phish_enter`, the `credential`
  cue);
- a dressing that makes the reader comply: a borrowed authority ("This is the IT administrator", "[MOD
  NOTICE]", "Security team": `phish_authority`), a threatened loss ("to keep posting", "or your account will
  be closed": `phish_loss`, the `pressure` and `scare` cues), or a lure ("free $500 gift cards", "you have
  won", a shortened link: `phish_lure`, `phish_short_link`, the `lure` cue).

An ask to type the secret in somewhere needs a link to do it; an ask to send it back needs none. A borrowed
authority dresses only an ask that names the secret ("update your billing details" from an account team is
ordinary). A warning ("never reply with your password", "phishing e-mails asking you to reply with your
password are going around": `phish_warning` just before the ask) is the opposite of a lure. Every pattern
is a bounded alternation with bounded gaps: linear in the text's length.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gate.cues import CueBook, book_table, cue_book

__all__ = ["alarm", "doxxing", "harassment", "phishing"]


class _Phish(NamedTuple):
    send_back: re.Pattern[str]
    enter: re.Pattern[str]
    authority: re.Pattern[str]
    loss: re.Pattern[str]
    lure: re.Pattern[str]
    short_link: re.Pattern[str]
    warning: re.Pattern[str]


@book_table
def _phish(book: CueBook) -> _Phish | None:
    """The cue book's phishing parts, compiled once per book; None when the book has none (then nothing is
    read as phishing here, and the steering rules still ask)."""
    names = ("phish_send_back", "phish_enter", "phish_authority", "phish_loss", "phish_lure", "phish_short_link",
             "phish_warning")
    if any(not book.parts.get(n) for n in names):
        return None
    return _Phish(*(re.compile(book.parts[n]) for n in names))


# a link in typed text: where a lure sends its reader (read on the raw text)
_LINK = re.compile(r"\b(?:https?://|www\.)\S{3,}|\b[\w-]{2,63}\.(?:com|net|org|top|xyz|info|io|co|biz|online|site|"
                   r"live|app|link|click|support|help|me|ly|gl|gd|cc|at)/\S*", re.IGNORECASE)
_ASK_CUES = frozenset({"credential", "secret request"})
_PRESS_CUES = frozenset({"pressure", "scare", "lure"})
# how far before an ask a warning word turns it round ("never reply with your password")
_WARNING_REACH = 40


def _unwarned(pattern: re.Pattern[str], words: str, warning: re.Pattern[str]) -> str | None:
    """The first match of `pattern` in `words` that no warning word just before turns round, or None."""
    for m in pattern.finditer(words):
        if warning.search(words, max(0, m.start() - _WARNING_REACH), m.start() + 1) is None:
            return m.group(0)
    return None


def _warned(words: str, quote: str, warning: re.Pattern[str]) -> bool:
    """A warning word stands just before the cue's words `quote` in `words`."""
    at = words.find(quote) if quote else -1
    return at >= 0 and warning.search(words, max(0, at - _WARNING_REACH), at + 1) is not None


def phishing(words: str, raw: str, cues: tuple[str, ...] = (), quote: str = "",
             book: CueBook | None = None) -> str | None:
    """What makes the typed text a phishing message (its ask and its dressing, for a person), or None.
    `cues` and `quote`: the steering cue kinds found in the text and their first matching words."""
    p = _phish(book or cue_book())
    if p is None or not words:
        return None
    cued = bool(_ASK_CUES.intersection(cues)) and not _warned(words, quote, p.warning)
    back = _unwarned(p.send_back, words, p.warning)
    if back is None and cued and "secret request" in cues:
        back = quote
    typed_in = back or _unwarned(p.enter, words, p.warning)
    ask = typed_in or (quote if cued else None)
    if ask is None:
        return None
    short = p.short_link.search(words)
    # an account team asking to "update your billing details" at its own site is ordinary: a borrowed
    # authority dresses only an ask for a secret itself
    dressing = [name for name, found in (
        ("authority", typed_in is not None and p.authority.search(words)),
        ("a threatened loss", p.loss.search(words)),
        ("a lure", p.lure.search(words) or short),
        ("pressure", _PRESS_CUES.intersection(cues))) if found]
    if not dressing:
        return None
    if back is None and short is None and _LINK.search(raw) is None:
        return None
    return f"{ask!r} with {', '.join(dressing)}"


class _Harass(NamedTuple):
    call: re.Pattern[str]
    target: re.Pattern[str]
    intent: re.Pattern[str]
    handle: re.Pattern[str]


@book_table
def _harass(book: CueBook) -> _Harass | None:
    """The cue book's harassment parts, compiled once per book; None when the book has none."""
    names = ("harass_call", "harass_target", "harass_intent", "harass_handle")
    if any(not book.parts.get(n) for n in names):
        return None
    return _Harass(*(re.compile(book.parts[n]) for n in names))


# how far after a crowd's call its target may stand ("everyone go spam u/name's inbox")
_TARGET_REACH = 60
_OBJECT_WORDS = 3


def harassment(words: str, raw: str, book: CueBook | None = None) -> str | None:
    """A call to a crowd to go after one person, or None: a crowd addressed and a verb of attack ("everyone
    go spam", "let's all report", "raid", `harass_call` of [parts]) aimed at a person (a handle written out,
    "him", "her", "this guy", someone's inbox: `harass_target`, `harass_handle`), or such a call with what it
    is for or what it hands the crowd ("until they delete their account", "here is their home address":
    `harass_intent`). "Report bugs on the tracker" and "go check out @ann's talk" are no such call."""
    h = _harass(book or cue_book())
    if h is None or not words:
        return None
    for m in h.call.finditer(words):
        # the verb's object: its first few words, where the person it is aimed at stands
        head = words[m.end(): m.end() + _TARGET_REACH].split()[:_OBJECT_WORDS]
        if h.target.search(" ".join(head)) or h.intent.search(words):
            return m.group(0)
        if any(x.group(0).split("/")[-1].lstrip("@").lower() in head for x in h.handle.finditer(raw, 0, 4096)):
            return m.group(0)
    return None


def doxxing(words: str, book: CueBook | None = None) -> str | None:
    """What hands a person's whereabouts to a crowd ("here is their home address", "she lives at"), or
    None: the address or phone itself is read by `gate.dataout.named_whereabouts`."""
    h = _harass(book or cue_book())
    if h is None or not words:
        return None
    m = h.intent.search(words)
    return m.group(0) if m is not None and not m.group(0).startswith("until") and "life" not in m.group(0) \
        else None


class _Alarm(NamedTuple):
    urgent: re.Pattern[str]
    claim: re.Pattern[str]
    order: re.Pattern[str]


@book_table
def _alarm(book: CueBook) -> _Alarm | None:
    """The cue book's alarm parts, compiled once per book; None when the book has none."""
    names = ("alarm_urgent", "alarm_claim", "alarm_order")
    if any(not book.parts.get(n) for n in names):
        return None
    return _Alarm(*(re.compile(book.parts[n]) for n in names))


def alarm(words: str, book: CueBook | None = None) -> str | None:
    """The public-safety claim of an alarm raised to the public, or None: an urgency marker ("BREAKING",
    "URGENT", "PSA": `alarm_urgent` of [parts]), a claim about public safety ("tap water confirmed poisoned",
    "bomb at the mall", "recall of all ...": `alarm_claim`) and an order to the readers ("do not drink it",
    "evacuate", "withdraw your money", "share this": `alarm_order`), all three. A news headline without an
    order, and a warning with no urgency marker, are not read as an alarm."""
    a = _alarm(book or cue_book())
    if a is None or not words or a.urgent.search(words) is None or a.order.search(words) is None:
        return None
    m = a.claim.search(words)
    return m.group(0) if m is not None else None
