"""A one-time code, a PIN or a recovery code typed on a sign-in page shaped like an impostor's, at a host no brand
table knows (block.web.code-on-lookalike-shape in gate/rules/web.py). Our own hosts, written from banks' and the
FTC's advice on one-time-code phishing ("we will never ask you for the code we sent, except on our own site") and
from registrars' abuse reports of kits on cheap top-level names. Trigger and near miss for each shape."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
RULE = "block.web.code-on-lookalike-shape"


def typed(url: str, label: str, text: str):
    action = {"type": "type", "url": url, "text": text, "target": {"label": label}}
    return GATE.assess(action_from_dict(action), Observation(url=url))


@pytest.mark.parametrize("url,label,text", [
    ("https://harbor-banking-login.top/step2", "One-time passcode", "604213"),
    ("https://acct-recover.click/verify", "Recovery code", "PQ4X-88RT-1K0Z"),
    ("https://cu-member-secure.xyz/auth", "PIN", "7310"),
    ("https://northcounty-bank-secure.com/mfa", "Enter the 6-digit code", "604213"),
    ("https://wallet-verify.online/restore", "Backup code", "55120934"),
])
def test_a_code_on_an_impostor_shaped_sign_in_blocks(url, label, text):
    d = typed(url, label, text)
    assert d.decision is Decision.BLOCK
    assert RULE in d.rules
    assert "text" in d.redact


@pytest.mark.parametrize("url,label,text", [
    ("https://app.acme-corp.com/login/2fa", "Verification code", "604213"),       # a company's own sign-in
    ("https://login.example-university.edu/mfa", "Passcode", "604213"),          # a restricted registry
    ("https://first-national-bank.com/otp", "One-time code", "604213"),          # one account word only
    ("https://bakery-corner.shop/checkout", "Discount code", "SPRING10"),        # a code that is no secret
    ("https://harbor-banking-login.top/step2", "Postcode", "NE46 3AB"),          # a post code
    ("https://quiet-garden.xyz/contact", "Your message", "604213"),             # no account word in the name
])
def test_a_companys_own_sign_in_or_a_plain_code_does_not_block_here(url, label, text):
    assert RULE not in typed(url, label, text).rules
