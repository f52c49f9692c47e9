"""A chat application's own "Send" under the message being written asks, as a mail client's does: the message was
judged as it was typed, but once sent it is read, and only the person knows it is the message and the recipient
they want. So does Enter in a chat, which sends the message box; Enter elsewhere does not."""

from __future__ import annotations

import pytest

from gate import SafetyGate
from gate.model import Click, Decision, Key, Observation, Target, TypedLine

GATE = SafetyGate()


@pytest.mark.parametrize(("url", "title"), [("https://app.slack.com/client/T1/C1", ""),
                                            ("https://teams.microsoft.com/_#/conversations/19:abc", ""),
                                            ("https://web.whatsapp.com/", ""), ("", "general - Slack")])
def test_a_chat_applications_send_asks(url: str, title: str) -> None:
    got = GATE.assess(Click(x=10, y=10, target=Target(label="Send"), url=url or None),
                      Observation(url=url, window_title=title))
    assert got.decision is Decision.CONFIRM and "confirm.gui.irreversible" in got.rules, got
    got = GATE.assess(Key(keys=["enter"]), Observation(url=url, window_title=title))
    assert got.decision is Decision.CONFIRM and "confirm.gui.send-key" in got.rules, got


@pytest.mark.parametrize(("url", "title", "app"), [("https://www.google.com/search?q=slack", "", ""),
                                                   ("", "main.py - Visual Studio Code", "Code"),
                                                   ("", "~/src - bash", "xterm")])
def test_enter_elsewhere_passes(url: str, title: str, app: str) -> None:
    got = GATE.assess(Key(keys=["enter"]), Observation(url=url, window_title=title, app=app))
    assert got.decision is Decision.ALLOW, got


@pytest.mark.parametrize(("label", "url"), [("Send money", "https://app.slack.com/client/T1/C1"),
                                            ("Send $500", "https://web.whatsapp.com/"),
                                            ("Send", "https://slack.com.example.top/client"),
                                            ("Send", "https://www.paypal.com/myaccount/transfer/homepage/pay")])
def test_money_lookalikes_and_other_sends_still_ask(label: str, url: str) -> None:
    got = GATE.assess(Click(x=10, y=10, target=Target(label=label), url=url), Observation(url=url))
    assert got.decision is not Decision.ALLOW, got


@pytest.mark.parametrize("line", [TypedLine(text="pass: Hunter2024!xyz for the admin account"),
                                  TypedLine(text="the key is AKIAIOSFODNN7EXAMPLE"),
                                  TypedLine(text="meeting moved", known=False)])
def test_pieces_that_make_a_secret_or_an_unknown_message_still_ask(line: TypedLine) -> None:
    url = "https://app.slack.com/client/T1/C1"
    got = GATE.assess(Click(x=10, y=10, target=Target(label="Send"), url=url), Observation(url=url, line=line))
    assert got.decision is not Decision.ALLOW, got
