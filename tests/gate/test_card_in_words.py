"""A card number stands on its own: the digit runs inside a wallet address, a hash or a key are not cards."""

from __future__ import annotations

import pytest

from gate.sensitive import find_sensitive


@pytest.mark.parametrize("text", [
    "0x52908400098527886E0F7030069857D2E4169EE7",  # an Ethereum address with a Luhn-valid run inside
    "52908400098527886E0F7030069857D2E4169EE7",
    "build_4111111111111111_final",
])
def test_digits_inside_a_word_are_no_card(text: str) -> None:
    assert not any(s.kind == "card number" for s in find_sensitive(text))


@pytest.mark.parametrize("text", ["4242 4242 4242 4242", "card:4111-1111-1111-1111", "pay with 4111111111111111."])
def test_a_card_on_its_own_is_found(text: str) -> None:
    assert any(s.kind == "card number" for s in find_sensitive(text))
