"""What a payment's own note says it is for (gate/rules/typed_payment_notes.py). Our own notes, written from banks'
pages on the overpayment scam and PayPal's help on friends-and-family payments."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def typed(text: str, label: str, url: str = "https://bank.example.co.uk/payments/new"):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}, "url": url}),
                       Observation(url=url))


@pytest.mark.parametrize("text,label", [("returning the overpaid amount for the sofa", "Reference"),
                                        ("pass on to the courier company for collection", "Memo")])
def test_an_overpayment_refund_or_money_for_an_agent_blocks(text, label):
    assert "block.typed.overpayment-refund" in typed(text, label).rules


@pytest.mark.parametrize("text,label", [("Invoice 2291 electricity", "Reference"),
                                        ("overpaid council tax", "Search payees")])
def test_an_ordinary_note_or_another_field_passes(text, label):
    assert "block.typed.overpayment-refund" not in typed(text, label).rules


def test_a_purchase_paid_as_friends_and_family_asks():
    url = "https://wallet.example.com/send"
    assert "confirm.typed.friends-family-goods" in typed("concert tickets, thanks", "Note (friends & family)",
                                                         url).rules
    assert "confirm.typed.friends-family-goods" not in typed("happy birthday Sam!", "Note (friends & family)",
                                                             url).rules


def test_an_amount_in_a_crypto_recharge_field_asks():
    url = "https://earn.example.net/wallet"
    assert "confirm.typed.crypto-recharge" in typed("250", "Top up balance (USDC TRC20)", url).rules
    assert "confirm.typed.crypto-recharge" not in typed("250", "Mobile recharge amount (INR)", url).rules
