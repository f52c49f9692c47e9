"""The harm book taken whole from a `deskgate check` store (gate/harm_content.py `_book_data` / `_restored`)
is the book parsed from resources/harm.toml: the same parts, index, kinds and search order, and the same
judgements."""

from __future__ import annotations

import json

import pytest

from gate import harm_content as hc

TEXTS = ["selling fresh stolen credit card dumps with cvv, bulk discount, escrow accepted",
         "pay 2 bitcoin by friday or the photos go to your family and your employer",
         "sell my old bike, barely used", "kill the process that holds the port",
         "police arrested a man selling stolen cards at the market",
         "the vaccine schedule for toddlers is on the clinic's page"]


@pytest.fixture(scope="module")
def books() -> tuple[hc.HarmBook, hc.HarmBook]:
    parsed = hc.harm_book()
    return parsed, hc._restored(json.loads(json.dumps(hc._book_data(parsed))))  # through JSON, as stored


def test_the_restored_book_is_the_parsed_one(books: tuple[hc.HarmBook, hc.HarmBook]) -> None:
    parsed, restored = books
    assert hc._book_data(restored) == hc._book_data(parsed)
    assert restored.kinds == parsed.kinds and restored.order == parsed.order
    assert len(restored.parts) == len(parsed.parts) > 10


def test_the_restored_book_judges_alike(books: tuple[hc.HarmBook, hc.HarmBook]) -> None:
    parsed, restored = books
    results = []
    for text in TEXTS:
        words = hc.harm_words(text)
        for where in ("text", "url"):
            a, b = hc._judged(words, text, where, parsed), hc._judged(words, text, where, restored)
            assert (a and (a.kind.key, a.blocks, a.quote)) == (b and (b.kind.key, b.blocks, b.quote)), text
            results.append(a)
    assert any(r is not None for r in results) and any(r is None for r in results)  # both outcomes were seen


@pytest.mark.parametrize("damage", [None, [], {"x": 1}, [{}, {}, [], []], [{"p": [["x"], [None], [5], 0, {}, []]},
                                                                         {}, [], []]])
def test_data_not_in_the_shape_written_is_refused(damage: object) -> None:
    with pytest.raises((ValueError, TypeError, KeyError, AttributeError)):
        hc._restored(damage)
