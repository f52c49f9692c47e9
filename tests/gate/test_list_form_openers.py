"""The button of a list that opens its blank form (a bare "Add" on the list of credentials): nothing is made until
the form's own button, which asks (gate/rules/gui.py `consequential`)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Observation, action_from_dict

GATE = SafetyGate(default_policy())


def click(label: str, url: str, title: str):
    action = action_from_dict({"type": "click", "x": 10, "y": 10, "target": {"label": label}, "url": url})
    return GATE.assess(action, Observation(url=url, window_title=title, app="Firefox"))


@pytest.mark.parametrize(("label", "url", "title"), [
    ("Add", "https://nas.example.lan/ui/credentials/cloud-credentials", "NAS"),
    ("+ Add", "https://ci.example.com/settings/tokens", "Access tokens"),
])
def test_a_lists_button_that_opens_its_form_passes(label: str, url: str, title: str) -> None:
    assert "confirm.gui.consequential" not in click(label, url, title).rules


@pytest.mark.parametrize(("label", "url", "title"), [
    ("Add user", "https://app.example.com/admin/users/new", "New user"),
    ("Add", "https://nas.example.lan/ui/credentials/ssh-keys/add", "Add SSH key"),
    ("Add", "https://shop.example/admin/orders/1001", "Order 1001"),
])
def test_the_forms_own_button_still_asks(label: str, url: str, title: str) -> None:
    assert click(label, url, title).decision.value != "allow"
