"""Digits in a text, counted as `str.isdigit` counts them, without a Python step per character.

Many checks first ask whether a text holds a digit, or how many: a card number, an id, an address. A generator
over the characters is a Python step each; for ASCII text (where `isdigit` is 0-9 alone) a search or ten `count`s
in C give the same answer, and any other text is still read character by character.
"""

from __future__ import annotations

import re

__all__ = ["digit_count", "has_digit"]

_ASCII_DIGIT = re.compile(r"[0-9]")
_DIGITS = "0123456789"


def has_digit(text: str) -> bool:
    """Whether any character of `text` is a digit (`any(c.isdigit() for c in text)`)."""
    return _ASCII_DIGIT.search(text) is not None or (not text.isascii() and any(c.isdigit() for c in text))


def digit_count(text: str) -> int:
    """How many characters of `text` are digits (`sum(c.isdigit() for c in text)`)."""
    if text.isascii():
        return sum(map(text.count, _DIGITS))
    return sum(c.isdigit() for c in text)
