"""A site named for a payment or a booking with hyphens and no brand, opened at its payment page
(`confirm.web.payment-lure-host`). Examples are our own, each with a near miss."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


@pytest.mark.parametrize("url", [
    "https://parcel-customs-fee.example.com/pay?id=2", "https://hotel-reservation-confirm.com/booking/551",
    "https://rental-reservation-payment-verify.example.org/reservation/77", "https://invoice-pay.example/invoice/3310",
])
def test_a_payment_named_host_at_its_payment_page_asks(url):
    got = nav(url)
    assert got.decision is Decision.CONFIRM and "confirm.web.payment-lure-host" in got.rules, got


@pytest.mark.parametrize("url", [
    "https://hotel-reservation-confirm.com/about",  # not the page that takes money
    "https://www.booking.com/reservation/1",  # a brand's own site
    "https://payments.example.com/pay/1",  # no hyphenated name
    "https://secure-payments.bank.example/pay",  # a company's own payment desk under its site
    "https://my-shop.example.com/checkout",  # a shop's own name
])
def test_other_pages_and_names_do_not_ask_for_it(url):
    assert "confirm.web.payment-lure-host" not in nav(url).rules
