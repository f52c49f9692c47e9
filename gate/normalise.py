"""Evasion-resistant text normalisation, applied before every text match.

NFKC folds compatibility forms (full-width letters, ligatures), case folding removes case, invisible
format characters (zero-width, bidi controls, soft hyphen, variation selectors) are dropped, and
letters from other scripts that look like Latin ones (Cyrillic 'а', Greek 'ο', ...) become Latin.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["fold", "fold_uncached", "normalise", "strip_invisible"]

# Characters that render as nothing (or only reorder text) and so can split a word a matcher looks for.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e007f]"
)

# Confusables that NFKC leaves alone: lowercase targets (applied after case folding).
_HOMOGLYPHS = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j", "к": "k",
    "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "г": "r", "ѕ": "s", "т": "t",
    "ц": "u", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ё": "e", "ї": "i", "ԍ": "g",
    # Greek
    "α": "a", "β": "b", "ϲ": "c", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ϳ": "j", "ζ": "z", "μ": "u",
    # Armenian / others commonly used for spoofing
    "օ": "o", "ս": "u", "ո": "n", "հ": "h", "ց": "g", "ք": "p",
    # dashes, quotes and spaces that read as their ASCII forms
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
    "\u00a0": " ", "\u2007": " ", "\u202f": " ",
    # fraction / division slashes
    "\u2044": "/", "\u2215": "/", "\u29f8": "/",
})


def strip_invisible(text: str) -> str:
    return _INVISIBLE.sub("", text)


def fold(text: str) -> str:
    """NFKC + casefold + invisible removal + homoglyph folding. Keeps whitespace as it is."""
    if text.isascii():
        return text.lower()  # cheaper than a cache lookup
    return _fold_unicode(text)


def fold_uncached(text: str) -> str:
    """`fold` without the cache, for text too long to be worth a slot."""
    if text.isascii():
        return text.lower()
    return _fold_unicode.__wrapped__(text)


@functools.lru_cache(maxsize=4096)
def _fold_unicode(text: str) -> str:
    text = unicodedata.normalize("NFKC", strip_invisible(text)).casefold()
    return text.translate(_HOMOGLYPHS)


def normalise(text: str) -> str:
    """`fold`, then collapse runs of whitespace to one space and trim: for matching labels and prose."""
    # (`str.split` splits on exactly what `\s` matches, and drops the ends: the same as `\s+` → " " and a trim)
    return " ".join(fold(text).split())
