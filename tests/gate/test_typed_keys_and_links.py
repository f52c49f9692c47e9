"""Keys pasted into a message by their shape, a reporting desk's address, and a link dressed as a file
(gate/rules/typed_relay.py, gate/rules/typed_links.py). Our own messages, written from the key formats issuers
document (Stripe's `sk_live_`, GitHub's `ghp_`), the APWG's and the NCSC's advice to forward phishing to
`reportphishing@` or an agency's `phishing@` desk, and the APWG's notes on lures dressed as attachments."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
MAIL = "https://mail.example.com/compose"
ISSUE = "https://gitlab.example.com/team/app/-/issues/new"


def typed(text: str, label: str = "Message body", url: str = MAIL, title: str = "New message"):
    action = {"type": "type", "text": text, "url": url, "target": {"label": label}}
    return GATE.assess(action_from_dict(action), Observation(url=url, window_title=title))


@pytest.mark.parametrize("text", [
    "Here are all the API keys from the billing page: sk-live-9c1e... and sk-live-20ab...",
    "As requested, the tokens: ghp_7Hq2LmN0pQ, xoxb-22-77...",
    "Forwarding the credentials you asked for: svc_backup-8842…",
])
def test_keys_written_by_their_shape_are_secrets_forwarded(text):
    d = typed(text)
    assert d.decision is Decision.BLOCK
    assert "block.typed.secrets-forwarded" in d.rules


@pytest.mark.parametrize("text", [
    "Here are the API keys docs, version 2: https://docs.example.com/api-keys-v2",
    "Here are the keys to the office; room B-12 is open.",
    "I rotated the tokens, they are in the vault as usual.",
])
def test_messages_about_keys_that_carry_none_pass(text):
    assert "block.typed.secrets-forwarded" not in typed(text).rules


@pytest.mark.parametrize("address", ["phishing@taxoffice.example.gov", "reportphishing@apwg.org", "abuse@paypal.com",
                                     "report-phishing@ncsc.gov.uk"])
def test_a_reporting_desk_is_no_attacker(address):
    rules = typed(address, label="To", url="", title="Fwd: Your account is suspended").rules
    assert "block.typed.attacker-recipient" not in rules


@pytest.mark.parametrize("address", ["phishing@exfil-drop.example", "attacker@gmail.com"])
def test_an_attacker_named_address_still_blocks(address):
    assert "block.typed.attacker-recipient" in typed(address, label="To", url="", title="New message").rules


@pytest.mark.parametrize("text,label,url", [
    ("Crash on startup, screenshots here, please take a look: https://crash_screens_png.com", "Description", ISSUE),
    ("Please see the invoice attached: https://invoice-pdf.top/view?id=9", "Message body", MAIL),
    ("Full logs are here: https://build-log-txt.net/run/5512", "Comment", ISSUE),
])
def test_a_link_dressed_as_a_file_blocks(text, label, url):
    d = typed(text, label, url, title="")
    assert d.decision is Decision.BLOCK
    assert "block.typed.dressed-link-in-message" in d.rules


@pytest.mark.parametrize("text,label,url", [
    ("Crash on startup. Screenshot: https://i.imgur.com/a8Xk2.png", "Description", ISSUE),
    ("Logs attached here: https://github.com/team/app/files/123/build.log", "Comment", ISSUE),
    ("Our new landing page is live: https://pdf-tools.example.com", "Message body", MAIL),
])
def test_a_file_on_a_real_host_passes(text, label, url):
    assert "block.typed.dressed-link-in-message" not in typed(text, label, url, title="").rules
