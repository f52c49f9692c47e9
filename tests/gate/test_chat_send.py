"""A chat application's own "Send" under the message being written passes, as a mail client's does: the message
was judged as it was typed. Money, look-alike hosts and other pages' Send still ask."""

from __future__ import annotations

import pytest

from gate import SafetyGate
from gate.model import Click, Decision, Observation, Target

GATE = SafetyGate()


@pytest.mark.parametrize(("url", "title"), [("https://app.slack.com/client/T1/C1", ""),
                                            ("https://teams.microsoft.com/_#/conversations/19:abc", ""),
                                            ("https://web.whatsapp.com/", ""), ("", "general - Slack")])
def test_a_chat_applications_send_passes(url: str, title: str) -> None:
    got = GATE.assess(Click(x=10, y=10, target=Target(label="Send"), url=url or None),
                      Observation(url=url, window_title=title))
    assert got.decision is Decision.ALLOW, got


@pytest.mark.parametrize(("label", "url"), [("Send money", "https://app.slack.com/client/T1/C1"),
                                            ("Send $500", "https://web.whatsapp.com/"),
                                            ("Send", "https://slack.com.example.top/client"),
                                            ("Send", "https://www.paypal.com/myaccount/transfer/homepage/pay")])
def test_money_lookalikes_and_other_sends_still_ask(label: str, url: str) -> None:
    got = GATE.assess(Click(x=10, y=10, target=Target(label=label), url=url), Observation(url=url))
    assert got.decision is not Decision.ALLOW, got
