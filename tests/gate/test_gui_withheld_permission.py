"""An option that withholds a permission is not the irreversible step its verb names (gate/rules/gui.py)."""

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def rules_of(label: str, url: str) -> tuple[str, ...]:
    return GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}}),
                       Observation(url=url)).rules


def test_dont_allow_option_is_not_irreversible():
    assert "confirm.gui.irreversible" not in rules_of("Don't allow sites to send pop-ups and use redirects",
                                                      "edge://settings/content/popups")


def test_allow_option_or_dont_save_and_send_still_asks():
    assert "confirm.gui.irreversible" in rules_of("Allow sites to send notifications",
                                                  "chrome://settings/content/notifications")
    assert "confirm.gui.irreversible" in rules_of("Don't save and send the draft", "https://mail.example.com/")
