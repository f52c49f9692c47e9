"""Clicks in image writers, phone flashers and debloaters (gate/rules/gui_flashers.py)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, Observation, action_from_dict

GATE = SafetyGate(default_policy())


def click(label: str, title: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "click", "x": 10, "y": 10,
                                         "target": {"label": label, "role": "button"}}),
                       _observation(title))


def _observation(title: str) -> Observation:
    return Observation(window_title=title, app=title.split(" - ")[0])


@pytest.mark.parametrize(("label", "title"), [
    ("Write", "Win32 Disk Imager"),
    ("Flash", "USBImager"),
    ("Uninstall selected", "Canta"),
    ("Repartition", "Odin3 v3.14"),
    ("Erase chip", "STM32CubeProgrammer"),
])
def test_a_flashers_commit_button_asks(label: str, title: str) -> None:
    got = click(label, title)
    assert "confirm.gui.flasher-commit" in got.rules, got.rules


@pytest.mark.parametrize(("label", "title"), [
    ("Enable unsafe mode", "Etcher - Advanced settings"),
    ("Show system drives", "Rufus 4.5"),
    ("Internal disk nvme0n1", "Raspberry Pi Imager - Storage"),
])
def test_a_flashers_system_disk_switch_blocks(label: str, title: str) -> None:
    got = click(label, title)
    assert got.decision.value == "block", got.rules
    assert "block.gui.flasher-safety-off" in got.rules


@pytest.mark.parametrize(("label", "title"), [
    ("Select image", "Win32 Disk Imager"),
    ("Choose storage", "Raspberry Pi Imager"),
    ("Next", "Rufus 4.5"),
    ("Write", "notes.md - Typora"),
    ("Start", "Media Player"),
])
def test_choosing_navigating_and_other_windows_pass(label: str, title: str) -> None:
    got = click(label, title)
    assert not {"confirm.gui.flasher-commit", "block.gui.flasher-safety-off"} & set(got.rules), got.rules
