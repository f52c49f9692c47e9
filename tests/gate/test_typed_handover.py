"""A code, a wallet's recovery phrase or a phone number written into a message to someone
(gate/rules/typed_handover.py), the IFSC bank details of resources/lures.toml and a remote-support program's
"control of my mouse" grant (gate/rules/gui.py). Our own conversations, written from the FTC's "never share a
verification code", wallet makers' "no one will ever ask for your recovery phrase", marketplaces' and rental sites'
"keep the conversation on the site" and the RBI's NEFT page."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def typed(text: str, label: str, url: str = "", title: str = ""):
    action = {"type": "type", "text": text, "target": {"label": label}}
    if url:
        action["url"] = url
    return GATE.assess(action_from_dict(action), Observation(url=url, window_title=title))


@pytest.mark.parametrize("text,label,url,title", [
    ("ok the verification code is 417 352", "Write a message", "https://www.kleinanzeigen.example/chat/5501", ""),
    ("here is the passcode they texted me 583920", "Reply", "https://forum.example.net/messages/inbox/77", ""),
    ("G-771205", "Message", "https://chat.example.org/t/3321", "Chat"),
    ("my recovery phrase: <the twelve words written on my backup card>", "Type a message",
     "https://web.telegram.org/k/", "Telegram"),
])
def test_a_secret_in_a_message_blocks(text, label, url, title):
    d = typed(text, label, url, title)
    assert d.decision is Decision.BLOCK
    assert "block.typed.secret-in-message" in d.rules


@pytest.mark.parametrize("text,label,url", [
    ("the door code is on the key box, flat 1204", "Send a message to your host", "https://www.stays.example/messaging/12"),
    ("your order number is 58213377, code for pickup at the desk", "Reply", "https://shop.example/messages/4"),
    ("the seed packets arrived, thanks!", "Type a message", "https://web.whatsapp.com/"),
])
def test_a_message_naming_an_order_or_no_secret_passes(text, label, url):
    assert "block.typed.secret-in-message" not in typed(text, label, url).rules


@pytest.mark.parametrize("text", ["Message me on Telegram: +49 151 2345 6789",
                                  "my number is 0161 496 0732, text me there"])
def test_a_number_to_move_the_talk_elsewhere_asks(text):
    d = typed(text, "Message the seller", "https://www.marketplace.example/inbox/thread/910")
    assert "confirm.typed.contact-off-platform" in d.rules


@pytest.mark.parametrize("text,label", [
    ("Is it still available? I can pick it up Sunday", "Message the seller"),
    ("+44 20 7946 0321", "Phone number"),
])
def test_no_number_or_a_phone_field_passes(text, label):
    d = typed(text, label, "https://www.marketplace.example/inbox/thread/910")
    assert "confirm.typed.contact-off-platform" not in d.rules


def test_ifsc_and_an_account_number_are_bank_details():
    d = typed("IFSC SBIN0004321, account 32109876543", "Bank details", "https://payouts.example.in/settings")
    assert "confirm.typed.payee-bank-details" in d.rules
    assert "confirm.typed.payee-bank-details" not in typed("SBIN0004321", "Branch search",
                                                           "https://bankfinder.example.in/").rules


def _click(label: str, title: str, app: str):
    return GATE.assess(action_from_dict({"type": "click", "x": 400, "y": 300, "target": {"label": label}}),
                       Observation(window_title=title, app=app))


def test_control_of_the_mouse_granted_in_a_remote_support_program_blocks():
    d = _click("Allow control of the keyboard", "RustDesk - Permissions", "RustDesk")
    assert "block.gui.remote-control-external" in d.rules
    assert "block.gui.remote-control-external" not in _click("Take back control of my mouse", "RustDesk",
                                                            "RustDesk").rules
