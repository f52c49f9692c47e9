"""A wallet's recovery phrase typed anywhere but the wallet's own restore screen blocks, also when its words are
not all BIP39 words but the text or the field names it (`block.typed.seed-words-out`, gate/rules/typed_out.py);
lists and prose of the same length pass. Examples are our own."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation
from gate.rules.typed_out import seed_words

GATE = SafetyGate()
# twelve BIP39 words that fail the phrase's checksum, as a made-up phrase does
MADE_UP = "orbit canvas lemon drift velvet harbor quiz mango sketch trophy wander ivory"
# twelve ordinary words, typed where a phrase is asked for
NAMED_ONLY = "apple river stone cloud window orange tiger pencil garden silver rocket candle"


def decide(text: str, label: str, url: str = "", window: str = "", app: str = "") -> tuple[str, tuple[str, ...]]:
    got = GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}}),
                      Observation(url=url, window_title=window, app=app))
    return got.decision.value, got.rules


@pytest.mark.parametrize(("text", "label", "url"), [
    (MADE_UP, "Comment", "https://forum.example.org/t/wallet-help/12"),
    (MADE_UP, "Your answer", "https://forms.example.com/f/33"),
    (f"my recovery phrase is {NAMED_ONLY}", "Message", "https://chat.example.com/dm/support"),
    (NAMED_ONLY, "Wiederherstellungsphrase", "https://wallet-sync.example.top/restore"),
    (NAMED_ONLY, "助记词", "https://airdrop.example.xyz/claim"),
])
def test_a_recovery_phrase_typed_away_blocks(text: str, label: str, url: str) -> None:
    decision, rules = decide(text, label, url)
    assert decision == "block", rules


def test_the_wallet_programs_own_restore_screen_passes() -> None:
    assert "block.typed.seed-words-out" not in decide(MADE_UP, "Restore wallet: enter your 12 words",
                                                      window="Restore - Electrum", app="electrum")[1]


@pytest.mark.parametrize("text", [
    "milk eggs bread butter apples onions rice pasta beans coffee sugar flour",
    "We walked to the river and then had lunch at the small cafe near the old church",
    "red green blue", "Meeting notes: budget approved, hiring paused, offsite moved to May, retro on Friday",
])
def test_lists_and_prose_pass(text: str) -> None:
    assert not seed_words(text, named=False)
    assert decide(text, "Message", "https://chat.example.com/dm/ana")[0] == "allow"
