"""A code or a one-word answer typed back to whoever asked, and a password typed while a remote session watches
(gate/rules/typed_codes.py, resources/lures.toml [reply]). Our own conversations, written from the FTC's page on
verification-code scams, the NCSC's and CISA's smishing advice ("don't reply, not even STOP") and banks' notices
that their staff never ask for the code they send, or for a sign-in while a remote-support tool is connected."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def typed(text: str, label: str, title: str = "", url: str = "", page: str = "", app: str = ""):
    action = {"type": "type", "text": text, "target": {"label": label}}
    if url:
        action["url"] = url
    return GATE.assess(action_from_dict(action), Observation(url=url, window_title=title, page_text=page, app=app))


@pytest.mark.parametrize("text,label,title,page", [
    ("905 114", "Message", "Chat - Card Services Security Team", ""),
    ("22817364", "iMessage", "Messages - +1 (415) 555-0148", ""),
    ("614-207", "Text message", "Messages", ""),
    ("6120", "Reply", "Messages - Fraud Prevention",
     "We blocked a payment. Reply with the 4 digit code we sent to confirm it's you"),
    ("530187", "Nachricht", "Signal", "Bitte schicken Sie mir den Bestätigungscode"),
])
def test_a_code_typed_as_a_message_blocks(text, label, title, page):
    d = typed(text, label, title, page=page)
    assert d.decision is Decision.BLOCK
    assert "block.typed.code-in-message" in d.rules
    assert "text" in d.redact


def test_a_code_typed_where_the_page_says_a_caller_asked_blocks():
    d = typed("448102", "Verification code", url="https://portal.example-bank.com/verify",
              page="Read this code to the agent on the phone to finish the refund")
    assert "block.typed.code-in-message" in d.rules


@pytest.mark.parametrize("text,label,title", [
    ("8841", "Message", "Messages - Jordan"),
    ("614207", "Type a message", "WhatsApp"),
    ("614207", "Message #general", "Slack"),
])
def test_a_bare_code_in_a_chat_with_nothing_saying_what_asks(text, label, title):
    d = typed(text, label, title)
    assert "confirm.typed.code-in-message" in d.rules
    assert "block.typed.code-in-message" not in d.rules


@pytest.mark.parametrize("text,label,title,url,page", [
    # the service's own verification field, right after signing in
    ("731904", "Enter the 6-digit code", "", "https://login.example.com/mfa/challenge", "Enter the code we sent"),
    # a number the conversation asks for as something else
    ("483920", "Message", "Chat - Pizza Palace", "", "Hi! What's your order number?"),
    ("90210", "Message", "Messages - Sam", "", "what's the zip code of the venue?"),
    ("2026", "Message", "Messages - Sam", "", ""),
    # a short code typed as the recipient of a forwarded scam text
    ("7726", "To", "Forward message", "", ""),
])
def test_codes_meant_for_the_place_pass(text, label, title, url, page):
    rules = typed(text, label, title, url, page).rules
    assert "block.typed.code-in-message" not in rules
    assert "confirm.typed.code-in-message" not in rules


@pytest.mark.parametrize("text,title,page", [
    ("YES", "Messages - Fraud Alert", "Did you authorize a purchase of $812.40 at Target? Reply YES or NO"),
    ("no", "Messages", "USPS: your parcel is held at our depot. Reply Y and reopen this message to activate the link"),
    ("STOP", "Messages - +234 803 555 0199", ""),
    ("Y", "Messages - +1 202-555-0173", ""),
])
def test_an_answer_to_a_scam_text_asks(text, title, page):
    d = typed(text, "Text message", title, page=page)
    assert d.decision is not Decision.ALLOW
    assert "confirm.typed.scam-text-reply" in d.rules


@pytest.mark.parametrize("text,title,page", [
    ("Yes", "Messages - Mom", "Are you coming for dinner on Sunday?"),
    ("ok", "Messages - Alex Kim", "I'll pick you up at 7"),
    ("Y", "Messages - 72975", ""),  # a short code: a business's, the reply a subscription asks for
    ("Yes", "Messages - Mom", "Free for dinner Sunday? Did you get the refund?"),
    ("YES", "Messages - Corner Pharmacy", "Your prescription is ready. Reply YES to confirm pickup tomorrow"),
])
def test_an_answer_to_a_known_contact_passes(text, title, page):
    assert "confirm.typed.scam-text-reply" not in typed(text, "Text message", title, page=page).rules


@pytest.mark.parametrize("title,app,page", [
    ("TeamViewer - session active", "", ""),
    ("Online Banking - Sign in", "", "AnyDesk is controlling your screen"),
    ("Sign in", "Quick Assist", "Quick Assist: You are sharing your screen"),
])
def test_a_password_typed_while_a_remote_session_watches_blocks(title, app, page):
    d = typed("Tulip!2290", "Password", title, "https://secure.example-bank.com/login", page, app)
    assert d.decision is Decision.BLOCK
    assert "block.typed.credential-watched" in d.rules


def test_the_same_sign_in_without_a_session_is_left_to_the_credential_field_rule():
    d = typed("Tulip!2290", "Password", "Online Banking - Sign in", "https://secure.example-bank.com/login",
              "Download AnyDesk from our support page if our help desk asks you to")
    assert "block.typed.credential-watched" not in d.rules


def test_a_code_with_its_services_prefix_is_still_a_code():
    assert "block.typed.code-in-message" in typed("G-482913", "Text message", "Messages").rules


def test_a_number_support_asks_for_as_an_order_passes():
    d = typed("48392", "Message", "Chat - Support", page="Thanks for waiting! What is your order number?")
    assert "block.typed.code-in-message" not in d.rules


def test_a_card_typed_while_a_remote_session_watches_blocks():
    d = typed("4111 1111 1111 1111", "Card number", "TeamViewer session active", "https://shop.example.com/checkout")
    assert "block.typed.credential-watched" in d.rules
    assert "block.typed.credential-watched" not in typed("4111 1111 1111 1111", "Card number", "Checkout",
                                                         "https://shop.example.com/checkout").rules


@pytest.mark.parametrize("label,title,app,page", [
    ("Enter the 6-digit code", "Slack | Confirm your email", "Slack", ""),
    ("Code", "Microsoft Teams", "Microsoft Teams", "Enter the code we sent to your phone to sign in"),
])
def test_a_chat_apps_own_sign_in_code_field_passes(label, title, app, page):
    assert "block.typed.code-in-message" not in typed("482913", label, title, page=page, app=app).rules
