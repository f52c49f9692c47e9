"""A Tor hidden service asks; a supplier's invoice, a remittance or a document shared for signature on a site under
a bulk-registered top-level name asks (two such words block), while the same words on an ordinary site pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def test_a_hidden_service_asks() -> None:
    got = nav("http://forumxyzabc2kq.onion/thread/12")
    assert got.decision is Decision.CONFIRM and "confirm.nav.hidden-service" in got.rules, got.rules


def test_a_name_that_only_says_onion_passes() -> None:
    assert "confirm.nav.hidden-service" not in nav("https://onion.example.org/recipes").rules


@pytest.mark.parametrize("url", ["https://northwind-supply.top/vendor-portal", "https://docs-share.icu/view-document/7"])
def test_an_invoice_or_shared_document_page_under_an_abused_name_asks(url: str) -> None:
    got = nav(url)
    assert got.decision is not Decision.ALLOW and "confirm.nav.lure-word" in got.rules, (url, got.rules)


def test_two_such_words_under_an_abused_name_block() -> None:
    got = nav("https://pay-invoice.cfd/remittance-advice")
    assert got.decision is Decision.BLOCK and "block.nav.lure-words" in got.rules, got.rules


@pytest.mark.parametrize("url", ["https://billing.example.com/invoices/2024-11", "https://example.org/remittance"])
def test_the_same_words_on_an_ordinary_site_pass(url: str) -> None:
    assert nav(url).decision is Decision.ALLOW, url
