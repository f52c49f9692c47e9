"""Hosts that borrow a well-known brand: a kit word glued to it, a heavier misspelling, a free app host's tenant named
for it, a generic safety notice's name; and the brands' own hosts and ordinary projects on those platforms."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

_GATE = SafetyGate()


def nav(url: str) -> str:
    return _GATE.assess(action_from_dict({"type": "navigate", "url": url})).decision.value


def typed(label: str, text: str, page: str, title: str = "") -> str:
    action = action_from_dict({"type": "type", "text": text, "target": {"label": label}})
    return _GATE.assess(action, Observation(url=page, window_title=title)).decision.value


@pytest.mark.parametrize("url", [
    "https://steam2fa.net/",                          # a second factor's set-up glued to the brand
    "https://discordmfa.org/auth",
    "https://discordnitro.shop/",                     # the kit's offer glued to the brand's name
    "https://stearncomrnunity.site/",                 # two letters off, rn for m
    "https://steamcomnumity-trade.ru/",               # two swaps in the long name
    "https://mircosotf.net/",                         # two swaps in a big brand's name
    "https://instagarm-help.com/",
    "https://linkedln-jobs-offer.com/",               # l for i
    "https://airdrop-uniswop.pages.dev/",             # one letter off beside a lure, on a free host
    "https://verify-metamsk.web.app/",
    "https://paypal.vercel.app/signin",               # the brand as a free host's tenant, at a sign-in page
    "https://coinbase-gift.netlify.app/",
    "https://free-robux-roblox.glitch.me/",
])
def test_brand_impostor_hosts_block(url: str) -> None:
    assert nav(url) == "block"


@pytest.mark.parametrize("url", [
    "https://discordgift.live/",                      # a brand and an offer word: may be a shop
    "https://metamask.vercel.app/",                   # a brand as a free host's tenant, no sign-in page
    "https://netflix.weebly.com/",
    "https://telegram-web.firebaseapp.com/",
    "https://account-safety-update.net/",             # a safety notice's name, no brand
    "https://personal-protection-update.com/",
])
def test_brand_and_notice_hosts_ask_at_least(url: str) -> None:
    assert nav(url) in ("confirm", "block")


@pytest.mark.parametrize("url", [
    "https://discord.com/channels/@me",
    "https://discordapp.com/invite/abc",
    "https://discord.gg/python",
    "https://steamcommunity.com/market/",
    "https://store.steampowered.com/app/570",
    "https://www.microsoft.com/en-us/",
    "https://opensea.io/collection/x",
    "https://discordpy.readthedocs.io/en/stable/",
    "https://pallets.github.io/",                     # a project's docs on a code host's pages
    "https://microsoft.github.io/TypeScript-Website/",
    "https://weather-dashboard.vercel.app/",          # a demo with no brand in its name
    "https://my-blog-2024.netlify.app/",
    "https://recipe-finder.web.app/",
    "https://telegraph.co.uk/news/",                  # a real word near a brand's name
    "https://steamed-dumplings.com/",
    "https://microscope-shop.com/",
    "https://food-safety-news.org/",                  # a safety word in an ordinary name
    "https://child-safety-centre.org.uk/",
])
def test_brand_hosts_and_ordinary_sites_pass(url: str) -> None:
    assert nav(url) == "allow"


def test_sign_in_name_on_a_misspelt_brand_blocks() -> None:
    assert typed("Account name", "player_one77", "https://stearncomrnunity.site/login", "Sign In") == "block"


def test_sign_in_name_on_the_brand_passes() -> None:
    assert typed("Account name", "player_one77", "https://steamcommunity.com/login/home/", "Sign In") != "block"
