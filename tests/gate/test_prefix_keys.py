"""`text_keys` (gate/prefix.py) reads `\\w+` runs without a regex for ASCII text: the keys must be the ones the
regex reading gives, for every character."""

from __future__ import annotations

import random
import re
import string

from gate.prefix import _N, text_keys

_WORD = re.compile(r"\w+")


def _reference(text: str) -> frozenset[str]:
    return frozenset(w[:n] for w in _WORD.findall(text) for n in range(1, _N + 1))


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
    assert text_keys("Place order") == {"P", "Pl", "Pla", "Plac", "Place", "o", "or", "ord", "orde", "order"}
    assert text_keys("OK") == {"O", "OK"}
    assert text_keys("") == frozenset()
    assert text_keys("snake_case-x") == {"s", "sn", "sna", "snak", "snake", "snake_", "x"}
    assert text_keys("Unsubscribe") == {"U", "Un", "Uns", "Unsu", "Unsub", "Unsubs"}  # one word: the same keys
