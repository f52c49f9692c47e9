"""What a SaaS product's administration pages are for, and which of their clicks and fields change who gets in,
what leaves or how people sign in (resources/saas_admin.toml).

The book is phrases; each table here is one compiled pattern over "words": folded, lower-case text with every
run of punctuation read as one space, so `/admin/access/identity-providers/add` and "Identity Providers" read
alike. Pure: the book is read once at import.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

from gate import regex_store
from gate.normalise import fold
from gate.urls import split_url

__all__ = ["matches", "phrase", "place_words", "switched", "topics", "whole", "words"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("saas_admin.toml").read_text("utf-8"))
_NON_WORD = re.compile(r"[\W_]+")
_LIMIT = 4096  # a page's address and title, a label, a field: longer text is read up to here


def words(text: str) -> str:
    """Lower-case words separated by one space; "" for no text."""
    if not text:
        return ""
    return _NON_WORD.sub(" ", fold(text[:_LIMIT])).strip()


def _word(token: str) -> str:
    if token == "*":
        return r"\w+"
    body = r"\s".join(re.escape(w) for w in words(token.rstrip("*")).split())
    return body + (r"\w*" if token.endswith("*") else "")


def _alternative(item: str) -> str:
    """A phrase as a pattern: a word ending in `*` matches any word that starts so, a lone `*` any one word."""
    return r"\s".join(p for p in (_word(t) for t in item.split()) if p)


def _compile(items: list[str], anchored: bool) -> re.Pattern[str]:
    alts = sorted({_alternative(i) for i in items if words(i.rstrip("*"))}, key=lambda a: (-len(a), a))
    body = "(?:" + "|".join(alts) + ")"
    return re.compile(("^" + body + "$") if anchored else (r"(?<!\w)" + body + r"(?!\w)"))


# every list of the book, compiled once at import (an assessment never compiles): found anywhere, and whole
_FOUND: dict[tuple[str, str], re.Pattern[str]] = {
    (t, k): _compile(v, anchored=False) for t, table in _BOOK.items() for k, v in table.items()}
_WHOLE: dict[tuple[str, str], re.Pattern[str]] = {
    (t, k): _compile(v, anchored=True) for t, table in _BOOK.items() for k, v in table.items()}


def phrase(table: str, key: str) -> re.Pattern[str]:
    """The book's `[table] key` list as one pattern found anywhere in words."""
    return _FOUND[table, key]


def whole(table: str, key: str) -> re.Pattern[str]:
    """The book's `[table] key` list as one pattern that must be the whole of the words."""
    return _WHOLE[table, key]


def matches(table: str, key: str, text: str) -> bool:
    return bool(text) and phrase(table, key).search(text) is not None


_TOPICS: tuple[str, ...] = tuple(_BOOK["topic"])


@functools.lru_cache(maxsize=1024)  # pages repeat within a session; addresses are unbounded
def topics(place: str) -> frozenset[str]:
    """The `[topic]` names a page's words (`place_words`) speak of."""
    return frozenset(t for t in _TOPICS if matches("topic", t, place))


def place_words(url: str, title: str) -> str:
    """The words of a page's address after its host (path, fragment, query) and of its window's title."""
    after = ""
    if url:
        parts = split_url(url[:_LIMIT])
        if parts is not None:
            raw = parts.raw.split("#", 1)
            after = " ".join((parts.path, parts.query, raw[1] if len(raw) == 2 else ""))
    return words(after + " \n " + (title or ""))


_SWITCH = "(?:" + "|".join(sorted((_alternative(i) for i in _BOOK["commit"]["switch-on"]),
                                  key=lambda a: (-len(a), a))) + ")"
_SWITCH_AFTER = re.compile(r"\s" + _SWITCH + "$")
_SWITCH_BEFORE = re.compile("^" + _SWITCH + r"\s")


def switched(label: str) -> tuple[str, bool]:
    """A label's words without the switch an agent names: "login message switch on" → ("login message", True)."""
    for pattern in (_SWITCH_AFTER, _SWITCH_BEFORE):
        m = pattern.search(label)
        if m:
            return (label[:m.start()] + label[m.end():]).strip(), True
    return label, False
