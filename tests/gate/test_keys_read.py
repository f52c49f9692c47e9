"""Reading every key pressed (xinput's test modes, evtest, showkey, libinput's event dump) asks, and a
keylogger blocks: what the person types in any window, passwords included, is read. Listing the devices,
changing a device's setting and a tool's help pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def decide(command: str) -> Decision:
    return GATE.assess(action_from_dict({"type": "shell", "command": command})).decision


@pytest.mark.parametrize("command", ["xinput test 11", "xinput test-xi2 --root", "evtest /dev/input/event4",
                                     "showkey --scancodes", "libinput debug-events --show-keycodes"])
def test_reading_the_keys_asks(command: str) -> None:
    assert decide(command) is Decision.CONFIRM, command


@pytest.mark.parametrize("command", ["logkeys --start --output /var/tmp/.k.log", "lkl -l -k us_km -o out.txt"])
def test_a_keylogger_blocks(command: str) -> None:
    assert decide(command) is Decision.BLOCK, command


@pytest.mark.parametrize("command", ["xinput list", "xinput set-prop 11 'libinput Tapping Enabled' 1",
                                     "libinput list-devices", "evtest --help"])
def test_listing_and_settings_pass(command: str) -> None:
    assert decide(command) is Decision.ALLOW, command
