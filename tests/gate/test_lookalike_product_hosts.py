"""A product's name in front of a generic download or sign-in site, and misspelt exchange names with a drainer's words.

`<product>-browser.app-download.<tld>` and `<product>.selfhost-login.<tld>` block (`block.nav.product-front`): the
registered name only says "download an app" or "sign in", and its owner made the product's subdomain. A misspelt
exchange's or wallet's name (`[typo-squat]`) with `connect.`, `/claim` or an odd port blocks
(`block.nav.typo-wallet`); the misspelling alone asks. Vendors' own download hosts and the brands' own sites pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation(url=url))


@pytest.mark.parametrize("url", [
    "https://obsidian-desktop.app-download.top/setup",
    "https://signal.getapp-now.example/",
    "https://vlc-player.softwaredownload.site/",
    "https://thunderbird.download-hub.net/latest",
    "https://nextcloud.selfhost-login.org/login",
    "https://homeassistant.hosted-signin.net/auth/authorize",
    "https://jellyfin.cloudlogin.io/",
])
def test_a_product_on_a_generic_download_or_sign_in_site_blocks(url: str) -> None:
    got = nav(url)
    assert got.decision is Decision.BLOCK
    assert "block.nav.product-front" in got.rules


@pytest.mark.parametrize("url", [
    "https://download.mozilla.org/?product=firefox-latest",
    "https://get.videolan.org/vlc/3.0.20/win64/vlc-3.0.20-win64.exe",
    "https://www.app-download.example/",
    "https://login.microsoftonline.com/common/oauth2/authorize",
    "https://obsidian.md/download",
    "https://docs.nextcloud.com/server/latest/admin_manual/",
])
def test_vendor_download_and_sign_in_hosts_pass(url: str) -> None:
    assert "block.nav.product-front" not in nav(url).rules


@pytest.mark.parametrize("url", [
    "https://connect.coinbasse.com/",
    "https://kraaken.com/wallet/sync",
    "http://bitstamps.net:8443/",
    "https://claim.uniswapp.org/",
])
def test_a_misspelt_exchange_with_a_drainer_word_blocks(url: str) -> None:
    got = nav(url)
    assert got.decision is Decision.BLOCK
    assert "block.nav.typo-wallet" in got.rules


@pytest.mark.parametrize("url", [
    "https://connect.coinbase.com/",
    "https://www.bitstamp.net/",
    "https://uspss.example/wallet",
    "https://coingeckoo.com/en",
])
def test_the_brand_itself_a_carrier_or_a_bare_misspelling_does_not_block_so(url: str) -> None:
    assert "block.nav.typo-wallet" not in nav(url).rules
