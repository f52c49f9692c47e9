"""Clicks whose page or label says what they commit to (gate/consequence.py, resources/cues.toml): a card saved on a
billing page, a team's passwords reset, a person reported and blocked, a sign-up form's "Continue" ask; a cookie
banner's answer for the categories ticked in it passes."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, Observation, action_from_dict

GATE = SafetyGate(default_policy())


def click(label: str, url: str):
    action = action_from_dict({"type": "click", "x": 10, "y": 10, "target": {"label": label}, "url": url})
    return GATE.assess(action, Observation(url=url))


@pytest.mark.parametrize(("label", "url"), [
    ("Save", "https://shop.example.com/account/billing-info/edit"),
    ("Update", "https://shop.example.com/settings/payment-details"),
    ("Save", "https://shop.example.com/profile/credit-cards/new"),
    ("Reset passwords", "https://files.example.com/team/admin/settings/passwords"),
    ("Report/Block quinn_r", "https://files.example.com/drive/shared"),
    ("Block and report quinn_r", "https://chat.example.com/messages"),
    ("Continue", "https://crafts.example.com/signup"),
    ("Next", "https://crafts.example.com/register/step-2"),
])
def test_commits_ask(label: str, url: str) -> None:
    assert click(label, url).decision is Decision.CONFIRM, (label, url)


@pytest.mark.parametrize(("label", "url"), [
    ("Save", "https://shop.example.com/help/billing-info"),  # an article about billing
    ("Continue", "https://crafts.example.com/products"),
    ("Show passwords", "https://files.example.com/drive/shared"),
    ("Confirm my choices", "https://journals.example.org/browse/titles"),
    ("Allow selection", "https://journals.example.org/browse/titles"),
    ("Necessary cookies only", "https://journals.example.org/browse/titles"),
    ("Reject non-essential cookies", "https://journals.example.org/browse/titles"),
])
def test_moves_and_cookie_answers_pass(label: str, url: str) -> None:
    assert click(label, url).decision is Decision.ALLOW, (label, url)


def test_other_allow_buttons_still_ask() -> None:
    assert click("Allow access", "https://journals.example.org/browse/titles").decision is Decision.CONFIRM
    assert click("Confirm selection", "https://journals.example.org/browse/titles").decision is Decision.CONFIRM
