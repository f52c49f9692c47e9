"""The harm book's one-pass precheck (gate/harm_content.py `HarmBook.possible`) never hides a match: a part it
leaves out has no match in the text, and judging with it gives what reading every combination in order gives."""

from __future__ import annotations

import pytest

from gate import harm_content as hc
from gate.prefix import text_keys

# our own sentences: harmful combinations, near misses, reports, plain work text, other scripts and shapes
TEXTS = [
    "selling fresh stolen credit card dumps with cvv, bulk discount, escrow accepted",
    "pay 2 bitcoin by friday or the photos go to your family and your employer",
    "I know where you live and I will hurt you",
    "sell my old bike, barely used", "kill the process that holds the port",
    "police arrested a man selling stolen cards at the market",
    "the vaccine schedule for toddlers is on the clinic's page",
    "send your gift cards to double your crypto, guaranteed returns",
    "出售信用卡资料，价格私聊", "哪里能买到处方药", "5G towers spread the virus, share this before they delete it",
    "card 4111 1111 1111 1111 exp 12/29 for sale", "fix the flaky test in the login form", "", "a",
]


@pytest.fixture(scope="module")
def book() -> hc.HarmBook:
    return hc.harm_book()


def _every_combination_in_order(book: hc.HarmBook, words: str, raw: str, where: str) -> hc.Harm | None:
    """What `_judged` returns when every combination is read, none skipped (the reference)."""
    reader = hc._Reader(book, words, raw)
    for blocks in (True, False):
        for kind in book.kinds:
            combos = ((kind.url_block if blocks else kind.url_confirm) if where == "url" else
                      (kind.block if blocks else kind.confirm))
            for combo in combos:
                span = reader.combination(combo, kind)
                if span is not None:
                    return hc.Harm(kind, blocks, "" if kind.redact else words[span[0]: span[1]])
    return None


@pytest.mark.parametrize("text", TEXTS)
def test_a_part_left_out_has_no_match(book: hc.HarmBook, text: str) -> None:
    words = hc.harm_words(text)
    keys = text_keys(words)
    possible = book.possible(words, keys)
    for name, part in book.parts.items():
        if not possible & book.bits[name]:
            assert part.spans(words, keys) == [], (name, text)


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("where", ["text", "url"])
def test_judging_with_the_precheck_is_reading_every_combination(book: hc.HarmBook, text: str, where: str) -> None:
    words = hc.harm_words(text)
    assert hc._judged.__wrapped__(words, text, where, book) == _every_combination_in_order(book, words, text, where)


def test_the_harmful_examples_are_still_found(book: hc.HarmBook) -> None:
    found = [hc._judged.__wrapped__(hc.harm_words(t), t, "text", book) for t in TEXTS[:3]]
    assert all(h is not None and h.blocks for h in found)
    assert hc._judged.__wrapped__(hc.harm_words(TEXTS[3]), TEXTS[3], "text", book) is None


def test_combinations_are_laid_out_in_the_order_they_are_read(book: hc.HarmBook) -> None:
    expected = [(kind.key, combo, blocks) for blocks in (True, False) for kind in book.kinds
                for combo in (kind.block if blocks else kind.confirm)]
    assert [(k.key, c, b) for k, c, b, _ in book.text_combinations] == expected
    expected_url = [(kind.key, combo, blocks) for blocks in (True, False) for kind in book.kinds
                    for combo in (kind.url_block if blocks else kind.url_confirm)]
    assert [(k.key, c, b) for k, c, b, _ in book.url_combinations] == expected_url
