"""A desktop's application launchers and its default-application map run a program the next time the person opens
an application or a file: writing one asks as the other places that run later do; reading or listing them passes."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


@pytest.mark.parametrize("command", [
    "cp ./build/launcher ~/.local/share/applications/org.gnome.Nautilus.desktop",
    "ln -sf /var/tmp/run.sh ~/.local/share/applications/thunderbird.desktop",
    "cp mimeapps.list ~/.config/mimeapps.list",
])
def test_writing_a_launcher_or_the_default_application_map_asks(command: str) -> None:
    got = GATE.assess(action_from_dict({"type": "shell", "command": command}))
    assert got.decision is not Decision.ALLOW and "confirm.shell.persistence" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", ["cat ~/.local/share/applications/org.gnome.Nautilus.desktop",
                                     "ls ~/.local/share/applications/", "grep -l Exec ~/.config/mimeapps.list"])
def test_reading_them_passes(command: str) -> None:
    assert GATE.assess(action_from_dict({"type": "shell", "command": command})).decision is Decision.ALLOW, command
