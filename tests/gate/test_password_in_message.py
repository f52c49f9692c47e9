"""A password written out in a message or an ordinary field asks (`confirm.gui.password-in-message`); talk about
passwords does not. Our own examples, in several languages."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def typed(text: str, label: str = "Message"):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}}))


@pytest.mark.parametrize("text", [
    "my password is Quartz!Lamp77",
    "new pw Rv8#mqLs2 for the router",
    "Passwort: Sommer2024!",
    "mot de passe : Plage#Bleu9",
    "пароль Zima2024!x",
    "密码是 Tulip#Garden88",
])
def test_a_password_written_out_asks_and_is_redacted(text):
    got = typed(text)
    assert got.decision is Decision.CONFIRM and "confirm.gui.password-in-message" in got.rules, (text, got.rules)
    assert "text" in got.redact


@pytest.mark.parametrize("text", [
    "my wifi password is sunflower",
    "I changed my password yesterday",
    "Password requirements: at least 8 characters, one digit, one symbol",
    "reset the password via the link, then sign in",
    "PIN: ask Maria",
])
def test_talk_about_passwords_stays_quiet(text):
    assert typed(text).decision is Decision.ALLOW, text


def test_a_password_field_is_the_credential_rule_and_a_named_account_is_data_out():
    assert "confirm.gui.password-in-message" not in typed("my password is Quartz!Lamp77", "Password").rules
    got = typed("fyi my dropbox password is Kite#4412")
    assert "confirm.gui.data-out" in got.rules and "confirm.gui.password-in-message" not in got.rules
