"""A host spelled as a brand's own www address (`www-<brand>.<another site>`) blocks: it is written to pass for
the brand's site at a glance. A `www-1` mirror of an ordinary site and a fan site's name only ask or pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


@pytest.mark.parametrize("url", ["https://www-rakuten.shop-portal.cn/member", "http://www2-paypal.example.org/",
                                 "https://www-binance.example.net/"])
def test_a_brand_spelled_as_its_www_address_on_another_site_blocks(url: str) -> None:
    got = nav(url)
    assert got.decision is Decision.BLOCK and "block.nav.brand-lure" in got.rules, (url, got.rules)


@pytest.mark.parametrize("url", ["https://www-1.example.com/", "https://www.rakuten.co.jp/",
                                 "https://www-staging.mycompany.dev/login"])
def test_a_www_dash_without_a_brand_or_the_brands_own_site_does_not_block(url: str) -> None:
    assert nav(url).decision is not Decision.BLOCK, (url, nav(url).rules)
