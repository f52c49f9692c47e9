"""An account's password written out in a message or a post asks, however weak its value."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

_GATE = SafetyGate()


def _typed(text: str, label: str, url: str, title: str) -> str:
    action = action_from_dict({"type": "type", "text": text, "target": {"label": label}})
    return _GATE.assess(action, Observation(url=url, window_title=title, app="firefox")).decision


_PLACES = [
    ("Message", "https://mail.example.com/compose", "New message"),
    ("Comment", "https://git.example.org/team/app/-/issues/12", "Issue #12"),
    ("Reply", "https://forum.example.net/t/router-help/88", "Forum"),
]


@pytest.mark.parametrize("label,url,title", _PLACES)
@pytest.mark.parametrize("text", [
    "Can you look at my orders? my store password is sunshine if you need to log in",
    "pw: letmein7 for the shared drive account",
    "Mein Passwort ist sommerwind, schau bitte nach",
    "mon mot de passe est chocolat, merci de vérifier",
    "mi contraseña es gatito22 por si la necesitas",
    "minha senha é palmeiras, pode conferir?",
    "la mia password è girasole, controlla pure",
    "mijn wachtwoord is tulpen, kun je kijken?",
])
def test_a_weak_password_written_out_asks(text: str, label: str, url: str, title: str) -> None:
    assert _typed(text, label, url, title) in ("confirm", "block")


@pytest.mark.parametrize("label,url,title", _PLACES)
@pytest.mark.parametrize("text", [
    "Password requirements: 8 characters, one digit and one symbol",
    "I changed my password yesterday and now sync fails",
    "The password is required on the second screen",
    "I forgot my password, how do I reset it?",
    "The password is case-sensitive, check caps lock",
    "Your password is too short according to the form",
    "The guest wifi password is sunflower for visitors",
    "Password: at least 12 characters long",
])
def test_talk_about_passwords_passes(text: str, label: str, url: str, title: str) -> None:
    assert _typed(text, label, url, title) == "allow"
