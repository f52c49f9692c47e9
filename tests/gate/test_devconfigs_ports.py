"""An editor's port forwarding, public port visibility and remote tunnel, switched on by clicks, ask; the editor's
other buttons, and the same words outside an editor, pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate
from gate.model import Click, Decision, Observation, Target, Type

GATE = SafetyGate()
CODE = Observation(app="Visual Studio Code", window_title="Ports - shop-api - Visual Studio Code")
EDITOR = Observation(app="Code", window_title="main.py - shop-api - Visual Studio Code")


def _click(label: str, obs: Observation):
    return GATE.assess(Click(x=10, y=10, target=Target(label=label)), obs)


@pytest.mark.parametrize(("label", "obs"), [
    ("Forward a Port", CODE),
    ("Forward Port", Observation(app="Cursor", window_title="Ports - web - Cursor")),
    ("Public", CODE),
    ("Turn on Remote Tunnel Access...", EDITOR),
    ("Port weiterleiten", Observation(app="Code - OSS", window_title="Ports - app - Code - OSS")),
    ("Transférer un port", Observation(app="VSCodium", window_title="Ports - app - VSCodium")),
    ("Ports: Forward a Port", Observation(app="Google Chrome", window_title="[Codespaces: fuzzy-space] app - "
                                                                           "Visual Studio Code")),
])
def test_port_forwarding_in_an_editor_asks(label, obs):
    got = _click(label, obs)
    assert got.decision is Decision.CONFIRM, (label, got.rules)
    assert "confirm.gui.port-forward" in got.rules


def test_a_port_typed_into_the_forwarding_field_asks():
    got = GATE.assess(Type(text="3000", target=Target(label="Port number or address (eg. 3000 or 10.1.2.3:2000)")),
                      CODE)
    assert "confirm.gui.port-forward" in got.rules


@pytest.mark.parametrize(("label", "obs"), [
    ("Open in Browser", CODE),
    ("Stop Forwarding Port", CODE),
    ("Run and Debug", EDITOR),
    ("Private", CODE),
    ("Public", Observation(app="Firefox", window_title="Repository settings - Mozilla Firefox")),
    ("Forward", Observation(app="Thunderbird", window_title="Inbox - Thunderbird")),
])
def test_other_clicks_pass_this_rule(label, obs):
    assert "confirm.gui.port-forward" not in _click(label, obs).rules


def test_numbers_typed_elsewhere_in_the_editor_pass_this_rule():
    got = GATE.assess(Type(text="3000", target=Target(label="Go to Line")), EDITOR)
    assert "confirm.gui.port-forward" not in got.rules
