"""The account's password typed to let a step of its settings through (deleting the account, changing its e-mail):
it asks, on a local or practice site too. Our own pages and labels, written from web apps' account-deletion and
re-authentication help."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
RULE = "confirm.typed.reauth-password"


def typed(text: str, field: str, url: str, title: str = ""):
    data = {"type": "type", "text": text, "target": {"label": field}, "url": url}
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title))


@pytest.mark.parametrize(("field", "url", "title"), [
    ("Password", "http://localhost:8080/settings/account", ""),
    ("Enter your password to confirm", "https://notes.example.org/app#/account/delete", ""),
    ("Current password", "https://forum.example.org/u/dana/preferences/security", ""),
    ("Password", "https://app.example.org/dashboard", "Delete your account?"),
])
def test_the_password_that_lets_a_settings_step_through_asks(field, url, title):
    got = typed("Orchid-Lamp-42", field, url, title)
    assert got.decision is Decision.CONFIRM and RULE in got.rules, got.rules
    assert "text" in got.redact


@pytest.mark.parametrize(("field", "url"), [
    ("Password", "http://localhost:8080/login"),  # a practice sign-in form
    ("New password", "http://localhost:8080/settings/account"),  # a new one, chosen
    ("Password hint", "https://app.example.org/settings/account"),
    ("Display name", "https://app.example.org/settings/profile"),
])
def test_sign_in_forms_new_passwords_and_other_fields_pass(field, url):
    assert RULE not in typed("Orchid-Lamp-42", field, url).rules
