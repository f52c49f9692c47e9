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


# -- a password over plain HTTP to a host named for signing in ----------------------------------------------------


@pytest.mark.parametrize("url", ["http://www.danaauthorization.com/", "http://login-portal-mail.net/start"])
def test_a_password_on_a_plain_http_sign_in_named_host_blocks(url):
    got = typed("Orchid-Lamp-42", "Password", url)
    assert got.decision is Decision.BLOCK and "block.typed.password-over-http" in got.rules, got.rules


@pytest.mark.parametrize(("field", "url"), [
    ("Password", "https://www.danaauthorization.com/"),  # encrypted: the credential-field rule asks
    ("Password", "http://auth.intranet/login"),  # a local name
    ("Password", "http://192.168.1.10/login"),
    ("Password", "http://notes.example.net/login"),  # no sign-in word in the host's name
    ("Search", "http://www.loginhelp.net/"),
])
def test_https_local_hosts_plain_names_and_other_fields_pass(field, url):
    assert "block.typed.password-over-http" not in typed("Orchid-Lamp-42", field, url).rules


def test_a_new_users_first_password_in_an_admins_create_dialog_passes():
    page = "http://localhost:8088/settings/members"
    assert RULE not in typed("Orchid-Lamp-42", "Password", page, "Create user").rules
    assert RULE in typed("Orchid-Lamp-42", "Password", page, "Edit user").rules
