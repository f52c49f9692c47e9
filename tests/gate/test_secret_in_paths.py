"""A web address typed into a field is judged segment by segment for a key: its host and path together mix
cases and digits without any one part being a secret, and a key in one of its segments is still one."""

from __future__ import annotations

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()


def _typed(text: str):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": "Link to check"}}),
                       Observation(url="https://checker.example.org/"))


def test_an_address_with_a_mixed_case_path_is_no_key() -> None:
    got = _typed("https://tickets.example-city.org/notice/Ref-2031-55821/Pay")
    assert "block.gui.secret-exposure" not in got.rules


def test_a_key_in_one_segment_of_an_address_is_still_a_key() -> None:
    got = _typed("https://files.example.org/share/9fQ2xLm7Rt4ZpW8vK1sN3bY6cH0dJ5gA/view")
    assert "block.gui.secret-exposure" in got.rules


def test_a_base64_key_with_slashes_is_still_a_key() -> None:
    got = _typed("secret=Zq8/Lm4TxR2vN9/pW3sK7yB1fH6/gD0cJ5aE")
    assert "block.gui.secret-exposure" in got.rules
