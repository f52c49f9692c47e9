"""`text_keys` (gate/prefix.py) reads `\\w+` runs without a regex for ASCII text: the keys must be the ones the
regex reading gives, for every character."""

from __future__ import annotations

import random
import re
import string

from gate.prefix import _N, text_keys, word_key

_WORD = re.compile(r"\w+")


def _reference(text: str) -> frozenset[str]:
    words = _WORD.findall(text)
    return frozenset([w[:n] for w in words for n in range(1, _N + 1)] + [w + " " for w in words])


def test_every_character_between_words() -> None:
    for c in range(512):
        text = f"ab{chr(c)}cde f"
        assert text_keys(text) == _reference(text), c


def test_generated_texts() -> None:
    rng = random.Random(19)
    alphabet = string.printable + "éßΩ中ー\u00a0_"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert text_keys(text) == _reference(text), text


def test_labels() -> None:
    assert text_keys("Place order") == {"P", "Pl", "Pla", "Plac", "Place", "Place ", "o", "or", "ord", "orde",
                                        "order", "order "}
    assert text_keys("OK") == {"O", "OK", "OK "}
    assert text_keys("") == frozenset()
    assert text_keys("snake_case-x") == {"s", "sn", "sna", "snak", "snake", "snake_", "snake_case ", "x", "x "}
    assert text_keys("Unsubscribe") == {"U", "Un", "Uns", "Unsu", "Unsub", "Unsubs", "Unsubscribe "}  # one word


def test_word_keys() -> None:
    """A branch's literal start that goes on past its first word keys on that word whole; one that ends inside
    a word (or is cut at `_N` letters) on the word's start."""
    assert word_key("an important") == "an "
    assert word_key("a i") == "a "
    assert word_key("import") == "import"
    assert word_key("allow") == "allow"
    assert word_key("e-mail") == "e "
    keys = text_keys("agree to all")
    assert word_key("a ") not in keys and word_key("all ") in keys and word_key("agree") in keys
