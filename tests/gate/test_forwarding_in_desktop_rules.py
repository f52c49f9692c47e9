"""A forwarding address typed into a desktop mail client's filter or rule dialog sends every later message on,
as one typed on a webmail's forwarding settings page does."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()


def _type(label: str, text: str, title: str, app: str = "Thunderbird"):
    action = action_from_dict({"type": "type", "text": text, "target": {"label": label}})
    return GATE.assess(action, Observation(app=app, window_title=title))


@pytest.mark.parametrize("label, title, app", [
    ("Forward message to", "Filter Rules", "Thunderbird"),
    ("Forward it to", "Rules and Alerts", "Outlook"),
    ("Forward messages to", "Message Filters", "Evolution"),
])
def test_a_forwarding_address_in_a_rule_dialog_blocks(label: str, title: str, app: str) -> None:
    got = _type(label, "collector.2024@gmail.com", title, app)
    assert got.decision.value == "block" and "block.gui.access-out" in got.rules, got.rules


def test_one_message_forwarded_by_hand_only_asks_for_an_outside_address() -> None:
    got = _type("To", "collector.2024@gmail.com", "Write: Fwd: invoice - Thunderbird")
    assert got.decision.value == "confirm" and "block.gui.access-out" not in got.rules
