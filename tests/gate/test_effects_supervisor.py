"""Attacks on the supervisor: deskgate control verbs, its own files, stopping it (issue 10, 1b)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict

_GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return _GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "deskgate resume", "deskgate unpause", "until deskgate resume; do sleep 2; done", "nohup deskgate serve &",
    "deskgate run", "deskgate revoke g-12", "deskgate log prune --older-than 0", "deskgate some-future-verb",
    "/usr/local/bin/deskgate resume", "bash -c 'deskgate resume'", "sudo -u me deskgate unpause",
    "rm -f ~/.local/state/deskgate/kill*", "truncate -s0 ~/.local/share/deskgate/audit.db",
    "sqlite3 ~/.local/share/deskgate/audit.db 'delete from decisions'",
    "cp /tmp/mine.toml ~/.config/deskgate/policy.toml", "sed -i 's/confirm/allow/' ~/.config/deskgate/policy.toml",
    "chmod 777 ~/.config/deskgate", "ln -sf /dev/null ~/.local/share/deskgate/audit.db",
    "echo '{}' > /run/user/1000/deskgate/kill.json", "killall deskgate", "pkill -9 -f 'deskgate serve'",
    "systemctl --user disable --now deskgate.service",
])
def test_supervisor_tampering_blocks(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "block" and "block.shell.supervisor-tamper" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "deskgate status", "deskgate kill", "deskgate pause", "deskgate grants", "deskgate explain", "deskgate rules",
    "deskgate policy show", "deskgate log tail -n 5", "deskgate log verify", "deskgate --help", "deskgate doctor",
    "cat ~/.config/deskgate/policy.toml", "ls -la ~/.local/share/deskgate", "grep kill ~/.local/state/deskgate/log",
    "echo 'deskgate notes' > notes.md", "pkill -f webpack", "python -m app run",
])
def test_reading_and_stopping_are_not_tampering(command: str) -> None:
    assert "block.shell.supervisor-tamper" not in shell(command).rules, command


def test_xdg_directories_from_the_environment_are_protected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", "/srv/conf")
    gate = SafetyGate(default_policy())  # the directories are read when a gate compiles its policy
    got = gate.assess(action_from_dict({"type": "shell", "command": "rm /srv/conf/deskgate/policy.toml"}))
    assert "block.shell.supervisor-tamper" in got.rules
