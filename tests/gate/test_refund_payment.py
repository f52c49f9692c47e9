"""A UPI payment link whose payee or note says the money is a refund or a prize (gate/rules/refund_payment.py).
Our own links, written from NPCI's UPI linking spec (pa, pn, tn) and the banks' "no PIN to receive money"."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def pay(label: str, url: str):
    return GATE.assess(action_from_dict({"type": "click", "x": 200, "y": 640, "target": {"label": label}}),
                       Observation(url=url, app="PhonePe"))


@pytest.mark.parametrize("url", ["upi://pay?pa=cashback.desk@okaxis&pn=Cashback%20Team&am=1999",
                                 "upi://pay?pa=store88@paytm&pn=Help%20Centre&tn=Refund%20for%20order&am=750"])
def test_paying_a_refund_or_cashback_blocks(url):
    assert "block.gui.pay-to-receive" in pay("Pay ₹1,999", url).rules


@pytest.mark.parametrize("label,url", [
    ("Pay ₹240", "upi://pay?pa=chaiwala.shop@okicici&pn=Chai%20Point&am=240"),
    ("Decline", "upi://pay?pa=cashback.desk@okaxis&pn=Cashback%20Team&am=1999"),
    ("Pay now", "https://shop.example.in/orders/9921/refund-status"),
])
def test_paying_a_shop_declining_or_a_web_page_passes(label, url):
    assert "block.gui.pay-to-receive" not in pay(label, url).rules
