"""The callback scam followed from a mail page: a label or link that asks to phone a number to dispute a charge or
cancel a subscription blocks (`block.gui.callback-lure`); a number on a company's support page, a number in mail
with no such reason and a cancellation link with no number do not. Cues: `[context.callback-call]` and
`[context.callback-reason]` of resources/cues.toml."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()
GMAIL = "https://mail.google.com/mail/u/0/#inbox/QgrcJHsTfRRf"
OUTLOOK = "https://outlook.office.com/mail/inbox/id/AAQkAD"


def click(label: str, url: str):
    data = {"type": "click", "x": 5, "y": 5, "target": {"label": label}, "url": url}
    return GATE.assess(action_from_dict(data), Observation(url=url))


@pytest.mark.parametrize(("label", "url"), [
    ("If you did not authorize this purchase call +1 (855) 201-4477", GMAIL),
    ("Call 1-877-552-0193 to cancel your auto-renewal", OUTLOOK),
    ("Dispute this charge: call our billing desk at 888 410 2231", GMAIL),
    ("Pour annuler votre abonnement appelez le 01 84 88 12 34", GMAIL),
])
def test_phoning_about_a_charge_from_mail_blocks(label: str, url: str) -> None:
    assert "block.gui.callback-lure" in click(label, url).rules


@pytest.mark.parametrize(("label", "url"), [
    ("Call 1-800-275-2273", "https://support.apple.com/contact"),
    ("To cancel your subscription call 1-877-552-0193", "https://www.example-isp.com/help/cancel"),
    ("Call me at 415 555 0132 about lunch", GMAIL),
    ("Cancel subscription", GMAIL),
    ("Manage your subscription", OUTLOOK),
])
def test_other_numbers_and_cancellations_do_not(label: str, url: str) -> None:
    assert "block.gui.callback-lure" not in click(label, url).rules
