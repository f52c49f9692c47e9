"""A one-time code written with its own name before it ("TAN: 123 456", "OTP 5521", "验证码：847201") is the same
code handed over in a chat as the bare digits are; a time, an order's words or a zip in a sentence are not."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()


def _chat(text: str):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": "Message"}}),
                       Observation(url="https://web.whatsapp.com/"))


@pytest.mark.parametrize("text", ["mobileTAN: 730 114", "OTP 58214", "验证码：847201", "pushTAN 4471 0923"])
def test_a_named_code_in_a_chat_asks(text: str) -> None:
    assert _chat(text).decision.value != "allow"


@pytest.mark.parametrize("text", ["see you at 1530", "order 4471 shipped today", "Room 2207"])
def test_numbers_in_a_sentence_are_no_code(text: str) -> None:
    assert _chat(text).decision.value == "allow"
