"""Wallets, exchanges and explorers among the brands phishing copies (resources/policy.toml `web.brands`,
resources/destinations.toml `[brands.crypto]`, `[typo-squat]`), and a brand glued to a drainer's word with no
hyphen (`<brand>giveaway`, `<brand>login`): each asks or blocks; the brands' own sites and ordinary names pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation())


@pytest.mark.parametrize("url", ["https://myetherwalet.com/", "https://uniswapp.org/", "https://opensae.io/",
                                 "https://myetherwallet.top/#access", "https://trezorwallet.xyz/",
                                 "https://uniswapairdrop.net/", "https://openseaclaim.com/", "https://paypallogin.net/"])
def test_wallet_and_brand_imitations_do_not_pass(url):
    assert nav(url).decision is not Decision.ALLOW, (url, nav(url).rules)


@pytest.mark.parametrize("url", ["https://www.myetherwallet.com/", "https://etherscan.io/tx/0x12ab",
                                 "https://app.uniswap.org/swap", "https://opensea.io/collection/x",
                                 "https://trezor.io/learn", "https://www.amazonforum.com/", "https://appleinsider.com/",
                                 "https://githubstatus.com/", "https://steampowered.com/"])
def test_the_brands_own_sites_and_ordinary_names_pass(url):
    assert nav(url).decision is Decision.ALLOW, (url, nav(url).rules)


@pytest.mark.parametrize("url", ["https://signin.account.support.portal.shop-example.com/",
                                 "https://secure.account.login.example-store.net/",
                                 "https://verify.account.login.security.example.org/"])
def test_sign_in_words_stacked_as_subdomains_ask(url):
    assert nav(url).decision is not Decision.ALLOW, (url, nav(url).rules)


@pytest.mark.parametrize("url", ["https://api.eu.service.example.com/", "https://mail.support.help.example.org/",
                                 "https://docs.aws.amazon.com/", "https://login.microsoftonline.com/common/oauth2",
                                 "https://auth.login.example.com/"])
def test_ordinary_deep_hosts_pass(url):
    assert nav(url).decision is Decision.ALLOW, (url, nav(url).rules)
