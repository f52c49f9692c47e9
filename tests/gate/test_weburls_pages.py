"""Account pages: opening the page that lists an account's keys and tokens passes (gate/rules/navigate.py
`confirm.nav.consequence` narrowed to addresses that act by being opened), and a click that acts on a credit freeze,
a card, a payment method or a package's access page asks (`confirm.nav.protected-page-action`, `[protected-pages]` of
resources/destinations.toml). Our own pages and labels, both sides."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
RULE = "confirm.nav.protected-page-action"


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def click(label: str, page: str):
    return GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}, "url": page}),
                       Observation(url=page))


# -- opening a keys-and-tokens page ----------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://git.example.com/settings/tokens",
    "https://git.example.com/settings/tokens?type=fine-grained",
    "https://git.example.com/settings/personal-access-tokens/new",
    "https://platform.example-ai.com/api-keys",
    "https://dashboard.example-pay.com/apikeys",
    "https://gitlab.example.org/-/user_settings/personal_access_tokens",
])
def test_opening_a_page_that_lists_or_starts_a_key_passes(url):
    a = nav(url)
    assert "confirm.nav.consequence" not in a.rules and a.decision is Decision.ALLOW, a.rules


@pytest.mark.parametrize("url", [
    "https://dashboard.example-pay.com/apikeys/sk_9921/roll",
    "https://gitlab.example.org/-/user_settings/personal_access_tokens/77/revoke",
    "https://console.example-cloud.com/api-keys/4411/delete",
    "https://id.example.com/account/security/mfa/remove",
    "https://git.example.com/acme/infra/settings/delete",
])
def test_an_address_that_acts_by_being_opened_still_asks(url):
    a = nav(url)
    assert a.decision is Decision.CONFIRM and "confirm.nav.consequence" in a.rules, a.rules


# -- a click that acts on a page that protects an account ------------------------------------------------------------

@pytest.mark.parametrize("label,page", [
    ("Lift my freeze", "https://www.equifax.com/personal/credit-report-services/credit-freeze/"),
    ("Unfreeze credit", "https://www.experian.com/freeze/center.html"),
    ("Add an extended fraud alert", "https://www.experian.com/fraud/center.html"),
    ("Request a security freeze", "https://www.innovis.com/securityFreeze/index"),
    ("Remove credit lock", "https://www.transunion.com/credit-lock"),
    ("Place freeze", "https://bank.example.com/help/credit-freeze"),
    ("Create a card", "https://app.privacy.com/cards"),
    ("Pause card", "https://app.privacy.com/cards/8812"),
    ("Add payment method", "https://shop.example.com/account/payment-methods"),
    ("Remove", "https://shop.example.com/account/payment-methods"),
    ("Set spending limit", "https://bank.example.com/settings/cards/3301"),
    ("Zahlungsmethode hinzufügen", "https://shop.example.de/konto/zahlungsmethoden"),
    ("Update package settings", "https://www.npmjs.com/package/example-lib/access"),
    ("Public", "https://www.npmjs.com/package/@acme/example-lib/access"),
    ("Add collaborator", "https://pypi.org/manage/project/example-lib/collaboration/"),
    ("Add owner", "https://rubygems.org/gems/example-lib/owners"),
    ("Change visibility", "https://huggingface.co/acme/example-model/settings"),
])
def test_a_click_that_acts_on_a_protecting_page_asks(label, page):
    a = click(label, page)
    assert a.decision is not Decision.ALLOW and RULE in a.rules, (label, page, a.rules)


@pytest.mark.parametrize("label,page", [
    ("Learn more about freezes", "https://www.experian.com/freeze/center.html"),
    ("Sign in", "https://www.transunion.com/credit-freeze"),
    ("FAQ", "https://www.equifax.com/personal/credit-report-services/credit-freeze/"),
    ("Cancel", "https://app.privacy.com/cards"),
    ("Back", "https://shop.example.com/account/payment-methods"),
    ("Read the docs", "https://www.npmjs.com/package/example-lib/access"),
    ("Add card", "https://boards.example.com/b/roadmap/cards"),  # a board's cards
    ("Add card", "https://flash.example.com/decks/spanish/cards"),  # a deck's cards
    ("Add to cart", "https://shop.example.com/products/lamp"),
    ("Create issue", "https://github.com/acme/example-lib/issues/new"),
    ("Create a card", "https://www.example-greetings.com/birthday-cards"),
])
def test_reading_leaving_and_other_pages_pass(label, page):
    a = click(label, page)
    assert RULE not in a.rules, (label, page, a.rules)


@pytest.mark.parametrize("url", [
    "https://www.experian.com/freeze/center.html",
    "https://app.privacy.com/cards",
    "https://www.npmjs.com/package/example-lib/access",
])
def test_opening_a_protecting_page_passes(url):
    assert nav(url).decision is Decision.ALLOW
