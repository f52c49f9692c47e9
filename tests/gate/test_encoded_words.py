"""Base64 of readable words typed into a field (an encoder's input, a decoding exercise) is data, not a password;
base64 of a credential or of random bytes still reads as one (gate/sensitive.py `password_shaped`)."""

import base64

import pytest

from gate import Observation, SafetyGate, action_from_dict
from gate.model import Decision
from gate.sensitive import password_shaped


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize("plain", ["good morning", "The quick brown fox.", "see you at ten", "Lorem ipsum dolor"])
def test_encoded_readable_words_are_not_a_password(plain):
    token = b64(plain)
    assert not password_shaped(token)
    a = SafetyGate().assess(action_from_dict({"type": "type", "text": token, "target": {"label": "Input"}}),
                            Observation(app="Firefox", url="https://encoder.example/"))
    assert a.decision is Decision.ALLOW, a.rules


@pytest.mark.parametrize("token", [b64("deploy:Winter2026!"), b64("P4ssw0rd!x9"), "Zm9vYmFyQmF6OTk4Nw3x",
                                   "Winter2026!Blue"])
def test_encoded_credentials_and_passwords_still_read_as_passwords(token):
    assert password_shaped(token)
