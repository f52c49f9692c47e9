"""A guarded regex answers as the regex itself; its words leave out what no ASCII text can hold."""

from __future__ import annotations

import re

import pytest

from gate.normalise import normalise
from gate.prefix import Guarded, ascii_need

_MIXED = re.compile(r"(?i)\b(?:only \d+ left|hurry|last chance|letzte chance|derni[eè]re chance)\b|残り|期間限定")


def test_words_in_other_scripts_are_left_out_of_the_need() -> None:
    need = ascii_need(_MIXED.pattern, _MIXED.flags)
    assert need and all(w.isascii() for w in need)
    assert "hurry" in need and "letzte chance" in need


def test_a_letter_that_may_match_an_ascii_one_gives_no_need() -> None:
    # under IGNORECASE the long s matches "s": a need without it would skip a text that matches
    rx = re.compile(r"(?i)\bpaſſword\b|\bkennwort\b")
    assert rx.search("PASSWORD")
    assert Guarded(rx).search("PASSWORD") is not None


@pytest.mark.parametrize("text", [
    "Only 3 left - order now", "hurry!", "Letzte Chance", "dernière chance", "Derniere chance", "残り2時間",
    "期間限定セール", "Next", "", "chance", "LAST CHANCE", "a last-chance offer", "lastchance",
])
def test_a_guarded_search_finds_what_the_regex_finds(text: str) -> None:
    guarded = Guarded(_MIXED)
    for t in (text, text.lower(), normalise(text)):
        got, want = guarded.search(t), _MIXED.search(t)
        assert (got is None) == (want is None)
        assert got is None or want is None or got.span() == want.span()


def test_other_attributes_are_the_regex_own() -> None:
    guarded = Guarded(_MIXED)
    assert guarded.pattern == _MIXED.pattern and guarded.flags == _MIXED.flags
    assert guarded.match("hurry") is not None
