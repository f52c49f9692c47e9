"""Gaming giveaway hosts, fake human checks and tech-support pages on sites that are not the brand's."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

_GATE = SafetyGate()


def nav(url: str) -> str:
    return _GATE.assess(action_from_dict({"type": "navigate", "url": url})).decision.value


def click(label: str, page: str) -> str:
    action = action_from_dict({"type": "click", "x": 10, "y": 10, "target": {"label": label}})
    return _GATE.assess(action, Observation(url=page)).decision.value


@pytest.mark.parametrize("url", [
    "https://disocrd-gifts.top/",                     # a chat brand misspelt
    "https://steamcommnuity.com.ru/tradeoffer/new/",  # the item-trade community misspelt twice
    "https://stearnpowered.xyz/login",                # rn for m
    "https://robl0x-free.ru/",                        # a digit for a letter
    "https://free-hypesquad-event.com/",              # the badge program's name on another site
    "https://nitro-gift-drop.net/",                   # free Nitro
    "https://discord-nitro.store.example.ru/",
    "https://skins-giveaway.org/",                    # two kit words
    "https://discordapp-verification.com/",           # brand + verification
    "https://epicgames-vbucks-free.com/",
    "https://myshop.example.org/wp/cloudflare/human-verification/",        # a fake Cloudflare check
    "https://cdn.example.net/cf-check/Cloudflare/IsHuman/X9/",
    "https://203.0.113.50/cloudflare/challenge/",
    "https://pages.example.com/verify/ishuman/",     # a human check named twice
])
def test_scam_hosts_block(url: str) -> None:
    assert nav(url) == "block"


@pytest.mark.parametrize("url", [
    "https://captcha-bot.org/",                      # a kit word beside an everyday one
    "https://someone.github.io/windows-defender-alert/",
    "https://msft-helpdesk-online.com/",
    "https://apple-support-call.net/",
    "https://a-b.example.xyz/microsoft-support/",
])
def test_scam_hosts_ask_or_block(url: str) -> None:
    assert nav(url) in {"confirm", "block"}


@pytest.mark.parametrize("url", [
    "https://discord.com/channels/@me",
    "https://discord.gg/someserver",
    "https://discordpy.readthedocs.io/en/stable/",
    "https://steamcommunity.com/market/",
    "https://store.steampowered.com/app/570/",
    "https://steamdb.info/sales/",
    "https://www.cloudflare.com/application-services/products/turnstile/",
    "https://developers.cloudflare.com/waf/reference/cloudflare-challenges/",
    "https://shop.example.com/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1",
    "https://blog.example.com/2024/how-cloudflare-challenge-pages-work",
    "https://learn.microsoft.com/en-us/defender-endpoint/microsoft-defender-antivirus-windows",
    "https://support.microsoft.com/en-us/windows",
    "https://someone.github.io/my-project/",
    "https://someone.github.io/windows-terminal-themes/docs/",
    "https://www.ftc.gov/business-guidance/blog/tech-support-scams",
    "https://en.wikipedia.org/wiki/Technical_support_scam",
    "https://askubuntu.com/questions/12/windows-support",
    "https://gift-shop.com/",
    "https://www.nitrokey.com/",
    "https://www.hcaptcha.com/",
    "https://www.roblox.com/games",
    "https://www.npmjs.com/package/discord-antiscam",
])
def test_benign_neighbours_pass(url: str) -> None:
    assert nav(url) == "allow"


def test_claim_button_on_a_giveaway_host_blocks() -> None:
    assert click("Get free Nitro", "https://nitro-drop-gift.com/claim") == "block"


def test_click_on_a_support_scam_page_asks() -> None:
    assert click("Call now", "https://someone.github.io/windows-defender-alert/") in {"confirm", "block"}


@pytest.mark.parametrize("label", ["Cancel", "キャンセル", "Abbrechen", "down arrow", "Scroll down", "Show more"])
def test_leaving_or_reading_a_support_scam_page_passes(label: str) -> None:
    assert click(label, "https://someone.github.io/windows-defender-alert/") == "allow"


@pytest.mark.parametrize("url", ["https://198.18.0.77/", "https://45.83.12.9/verify"])
def test_a_secure_page_at_a_bare_public_address_asks(url: str) -> None:
    assert nav(url) in {"confirm", "block"}


def test_a_robot_check_on_such_a_page_asks() -> None:
    assert click("I am human", "https://45.83.12.9/") in {"confirm", "block"}


@pytest.mark.parametrize("page", ["https://1.1.1.1/", "https://192.168.1.1/", "http://45.83.12.9:8080/",
                                  "https://45.83.12.9:8443/dashboard", "https://10.0.0.5/admin"])
def test_clicks_on_own_devices_labs_and_resolver_pages_pass(page: str) -> None:
    assert click("Search", page) == "allow"
