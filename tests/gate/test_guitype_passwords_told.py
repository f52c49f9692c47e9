"""A password told in a message or a chat asks, and in a public comment or post blocks, in whichever language it is
told and as a login pair (`confirm.typed.password-told`, `block.typed.password-told-public`,
gate/rules/typed_out.py); talk about passwords and the same password typed into its own field do not. Examples
are our own."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation
from gate.rules.typed_out import told_password

GATE = SafetyGate()
CHAT = "https://chat.example.com/team/general"


def decide(text: str, label: str, url: str = CHAT) -> tuple[str, tuple[str, ...]]:
    got = GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}}),
                      Observation(url=url))
    return got.decision.value, got.rules


@pytest.mark.parametrize(("text", "label"), [
    ("la contraseña del servidor de correo es Rt5#kW9q!Zp", "Mensaje"),
    ("a senha do painel é Rt5#kW9q!Zp", "Mensagem"),
    ("le mot de passe du NAS est Rt5#kW9q!Zp", "Message"),
    ("das Passwort für den Router lautet Rt5#kW9q!Zp", "Nachricht"),
    ("la password del wifi dell'ufficio è Rt5#kW9q!Zp", "Messaggio"),
    ("het wachtwoord van de server: Rt5#kW9q!Zp", "Bericht"),
    ("服务器的密码是 Rt5#kW9q!Zp", "消息"),
    ("nasadmin / Rt5#kW9q!Zp", "Reply"),
    ("backup@example.org:Rt5#kW9q!Zp", "Comment"),
])
def test_a_password_told_to_people_asks_and_in_public_blocks(text: str, label: str) -> None:
    decision, _ = decide(text, label)
    assert decision != "allow"
    decision, rules = decide(text, "Add a comment", "https://code.example.com/ana/site/issues/7")
    assert decision == "block" and "block.typed.password-told-public" in rules


@pytest.mark.parametrize("text", [
    "the password is stored in the team vault", "password: at least 12 characters and one digit",
    "The new password policy is Effective2025 onwards", "and/or", "12:30 / Room B",
    "la contraseña es la de siempre", "Das Passwort lautet wie immer", "see you at 10 / bring the slides",
    "Re: Release2024b", "Version: Build2025rc1",
])
def test_talk_about_passwords_passes(text: str) -> None:
    assert told_password(text) is None
    assert decide(text, "Add a comment", "https://code.example.com/ana/site/issues/7")[0] == "allow"
    assert decide(text, "Message")[0] == "allow"


def test_the_password_in_its_own_field_or_an_editor_is_not_told() -> None:
    assert "confirm.typed.password-told" not in decide("Rt5#kW9q!Zp", "Password", "https://id.example.com/login")[1]
    got = GATE.assess(action_from_dict({"type": "type", "text": "the password is Rt5#kW9q!Zp"}),
                      Observation(window_title="notes.txt - gedit", app="gedit"))
    assert not {"confirm.typed.password-told", "block.typed.password-told-public"} & set(got.rules)


def test_a_told_password_in_a_direct_message_asks() -> None:
    decision, rules = decide("la contraseña del servidor de correo es Rt5#kW9q!Zp", "Mensaje")
    assert decision == "confirm" and "confirm.typed.password-told" in rules
