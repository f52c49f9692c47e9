"""Scam destinations that borrow no brand, and brands on top-level names that read as a department
(gate/destinations.py, resources/destinations.toml; the rules in gate/rules/navigate.py). Our own hosts, written
from public guidance: the FTC's pages on investment, recovery, tech-support and toll-text scams, Action Fraud's
investment-fraud advice and IC3's alerts on crypto-investment platforms that ask for a "withdrawal fee". Each rule
has a trigger and a near miss.
"""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.destinations import brand_favoured_tld, own_site
from gate.model import Decision

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def rules(url: str) -> set[str]:
    return set(nav(url).rules)


# -- investment, trading and fund-recovery sites at a money page ---------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://northstar-coinrecovery.com/fee",          # recovery + coin in a hyphenated name
    "https://silverleaf-forex-trading.net/withdrawal",  # crypto + trading
    "https://quickyield.top/withdraw/fee",             # one scheme word under an abused name
    "https://lunarprofit.xyz/deposit",
    "https://asset-recovery-desk.online/register",
])
def test_a_scheme_named_site_at_a_money_page_blocks(url):
    d = nav(url)
    assert d.decision is Decision.BLOCK
    assert "block.nav.money-scheme" in d.rules


@pytest.mark.parametrize("url", ["https://orbit-invest.net/withdraw", "https://helios-fxtrade.com/deposit"])
def test_one_scheme_word_in_a_hyphenated_ordinary_name_asks(url):
    d = nav(url)
    assert d.decision is Decision.CONFIRM
    assert "confirm.nav.money-scheme" in d.rules


@pytest.mark.parametrize("url", [
    "https://www.interactivebrokers.com/en/trading/deposit.php",  # a broker's own name carries no scheme word
    "https://orbit-invest.net/about",                             # no money page
    "https://lunarprofit.xyz/blog/how-we-pick-stocks",            # an article, no money page
    "https://investor.acme.com/deposit",                          # a company's investor pages, no hyphenated name
    "https://acme-labs.com/register",                             # no scheme word
])
def test_a_broker_an_article_or_a_plain_sign_up_is_not_a_scheme(url):
    assert not rules(url) & {"block.nav.money-scheme", "confirm.nav.money-scheme"}


# -- a lure or a notice's word with a pay or fee page under an abused name -----------------------------------------

@pytest.mark.parametrize("url", [
    "https://ez-toll-notice.click/pay",
    "https://parcel-desk.xyz/fee",
    "https://refund-portal.icu/payment",
    "https://wallet-sync.top/unlock",
])
def test_a_lure_named_site_at_a_pay_or_fee_page_under_an_abused_name_blocks(url):
    d = nav(url)
    assert d.decision is Decision.BLOCK
    assert "block.nav.lure-fee" in d.rules or "block.nav.lure-words" in d.rules


def test_the_same_path_on_an_ordinary_name_or_a_plain_shop_passes():
    assert "block.nav.lure-fee" not in rules("https://ez-toll-notice.click/faq")
    assert nav("https://parcel-desk.com/pay").decision is Decision.ALLOW
    assert "block.nav.lure-fee" not in rules("https://bakery-corner.shop/pay")


# -- a help desk's name under a cheap top-level name ---------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://pc-helpdesk.online/", "https://customer-care-247.xyz/call", "https://techsupport-now.site/",
    "https://printer-support-center.top/",
])
def test_a_help_desk_named_site_under_an_abused_name_blocks(url):
    d = nav(url)
    assert d.decision is Decision.BLOCK
    assert "block.nav.fake-support-desk" in d.rules


@pytest.mark.parametrize("url", [
    "https://helpdesk.acme-corp.com/", "https://support.microsoft.com/", "https://acme.help/",
    "https://customer-care.acme-insurance.com/",
])
def test_a_companys_own_help_desk_passes(url):
    assert "block.nav.fake-support-desk" not in rules(url)


# -- brands on top-level names that read as one of their departments -----------------------------------------------

@pytest.mark.parametrize("url", [
    "https://coinbase.services/login", "https://paypal.center/", "https://netflix-billing.center/",
    "https://amazon-refunds.support/",
])
def test_a_brand_on_a_department_like_top_level_name_blocks(url):
    assert nav(url).decision is Decision.BLOCK


def test_department_like_names_decide_nothing_without_a_brand():
    assert brand_favoured_tld("acme.services")
    assert nav("https://acme.services/login").decision is Decision.ALLOW
    assert nav("https://plumbing-experts.center/").decision is Decision.ALLOW
    assert not own_site("coinbase.services")
    assert own_site("www.coinbase.com")
    assert nav("https://www.coinbase.com/signin").decision is Decision.ALLOW
