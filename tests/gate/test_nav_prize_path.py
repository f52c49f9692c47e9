"""An address whose own path is a prize claim asks (gate/rules/nav_prize_path.py); a shop's rewards or gift-card
pages pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def visit(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


@pytest.mark.parametrize("url", [
    "https://bright.example.net/claim-prize",
    "https://promo.example.org/collect_your_winnings?ref=88",
    "https://promo.example.org/lottery/claim-your-jackpot",
    "http://news.example.info/you-have-won.html",
])
def test_prize_claim_path_asks(url: str) -> None:
    a = visit(url)
    assert a.decision is Decision.CONFIRM
    assert "confirm.nav.prize-claim-path" in a.rules


@pytest.mark.parametrize("url", [
    "https://shop.example.net/rewards",
    "https://shop.example.net/redeem-gift-card",
    "https://shop.example.net/gift-cards/redeem",
    "https://help.example.net/how-to-claim-a-refund",
])
def test_shop_pages_pass(url: str) -> None:
    assert "confirm.nav.prize-claim-path" not in visit(url).rules
