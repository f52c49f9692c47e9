"""macOS security agents (Santa, osquery, Falcon, SentinelOne, Jamf Protect, LuLu, BlockBlock) turned off by their
own programs or their state deleted block; one uninstalled through Homebrew asks; reading their status passes."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict

GATE = SafetyGate(default_policy("balanced"))


def act(action: dict) -> Assessment:
    return GATE.assess(action_from_dict(action))


def decision(command: str) -> str:
    return act({"type": "shell", "command": command}).decision.value


@pytest.mark.parametrize("command", [
    "sudo /Applications/Santa.app/Contents/MacOS/Santa --unload-system-extension",
    "sudo /Applications/LuLu.app/Contents/MacOS/LuLu --uninstall",
    "sudo protectctl uninstall",
    "sudo osqueryctl stop",
    "sudo rm -rf /var/db/santa",
    "sudo rm -f /private/var/db/santa/events.db",
    "sudo rm -rf /var/db/osquery",
    "sudo falconctl unload",
    "sudo launchctl bootout system /Library/LaunchDaemons/com.northpolesec.santa.bundleservice.plist",
])
def test_agents_switched_off_block(command: str) -> None:
    assert decision(command) == "block", act({"type": "shell", "command": command})


@pytest.mark.parametrize("action", [
    {"type": "file_delete", "path": "/var/db/santa"},
    {"type": "file_delete", "path": "/private/var/db/santa/rules.db"},
    {"type": "file_move", "path": "/Applications/BlockBlock Helper.app", "to": "/tmp/bb"},
])
def test_agent_files_removed_by_file_action_block(action: dict) -> None:
    assert act(action).decision.value == "block", act(action)


@pytest.mark.parametrize("command", [
    "brew uninstall --zap --cask santa",
    "brew uninstall --cask lulu",
    "brew remove --cask little-snitch",
    "/Applications/Santa.app/Contents/MacOS/Santa --help",
])
def test_homebrew_uninstall_and_unknown_runs_ask(command: str) -> None:
    assert decision(command) == "confirm", act({"type": "shell", "command": command})


@pytest.mark.parametrize("command", [
    "brew list --cask",
    "santactl status",
    "santactl fileinfo /usr/bin/ssh",
    "osqueryctl status",
    "systemextensionsctl list",
    "ls /var/db/santa",
])
def test_status_reads_pass(command: str) -> None:
    assert decision(command) == "allow", act({"type": "shell", "command": command})


def test_other_files_under_var_db_are_not_agents() -> None:
    assert act({"type": "file_delete", "path": "/tmp/santa-notes.txt"}).decision.value != "block"
    assert decision("sudo rm -rf /var/db/sudo/lectured") == "confirm"
