"""A folder's own code made to run by itself (direnv allow, mise trust, git's safe.directory for every folder,
an editor with workspace trust off) asks: trusting a folder is the person's choice, not one an agent makes for
itself. Reading the state, revoking trust, naming one folder and running a command once pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def decide(command: str) -> Decision:
    return GATE.assess(action_from_dict({"type": "shell", "command": command})).decision


@pytest.mark.parametrize("command", [
    "direnv allow", "direnv allow ~/src/other-project", "direnv permit .", "mise trust", "mise trust --all",
    "rtx trust ./.rtx.toml", "git config --global --add safe.directory '*'",
    "git config --system safe.directory \\*", "code --disable-workspace-trust ~/Downloads/repo",
    "cursor --disable-workspace-trust .",
])
def test_trusting_a_folder_asks(command: str) -> None:
    assert decide(command) is Decision.CONFIRM, command


@pytest.mark.parametrize("command", [
    "direnv status", "direnv deny", "direnv revoke", "direnv exec . make test", "mise trust --untrust",
    "mise install", "mise ls", "git config --global --add safe.directory /workspace", "code .",
    "code --diff a.txt b.txt",
])
def test_reading_revoking_and_running_once_pass(command: str) -> None:
    assert decide(command) is Decision.ALLOW, command
