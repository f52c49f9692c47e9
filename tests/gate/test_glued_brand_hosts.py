"""A brand glued to an account word or a number inside a hyphenated host part (`apps-netflixid4410.com`) is a
look-alike, as `paypal-login.com` is; tools named after a brand with other words pass."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict
from gate.rules.web import lookalike_of

GATE = SafetyGate()
BRANDS = ("netflix", "amazon", "paypal", "github")


@pytest.mark.parametrize("host", ["apps-netflixid4410.com", "verify-amazon2024.com", "secure-paypalaccount.com",
                                  "mail-loginpaypal.net"])
def test_a_brand_glued_to_a_lure_word_or_number_is_a_lookalike(host: str) -> None:
    assert lookalike_of(host, BRANDS) is not None, host


@pytest.mark.parametrize("host", ["go-github2pdf.io", "awesome-githubactions.dev", "my-amazonian-blog.com",
                                  "www.netflix.com"])
def test_other_names_pass(host: str) -> None:
    assert lookalike_of(host, BRANDS) is None, host


def test_opening_the_sign_in_page_of_such_a_host_blocks() -> None:
    got = GATE.assess(action_from_dict({"type": "navigate", "url": "http://apps-netflixid4410.com/login"}),
                      Observation())
    assert got.decision.value == "block"


@pytest.mark.parametrize("url", ["https://servicenow-sso-login.com/", "https://my-accounts-logmein.com/",
                                 "https://okta-verify-portal.com/", "https://lastpass-vault.net/login"])
def test_single_sign_on_look_alikes_ask(url: str) -> None:
    got = GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation())
    assert got.decision.value in ("confirm", "block"), (url, got.rules)


@pytest.mark.parametrize("host", ["dev271828.service-now.com", "www.servicenow.com", "acme.onelogin.com",
                                  "wd5.myworkday.com", "login.lastpass.com"])
def test_the_providers_own_sites_pass(host: str) -> None:
    from gate import default_policy

    assert lookalike_of(host, tuple(default_policy().web.brands)) is None, host


def test_a_five_letter_word_one_letter_from_a_brand_is_no_look_alike() -> None:
    from gate import default_policy

    brands = tuple(default_policy().web.brands)
    assert lookalike_of("citrix.cloud.com", brands) is None  # "cloud" is a word, not "icloud" misspelt
    assert lookalike_of("amazom.com", brands) is not None
