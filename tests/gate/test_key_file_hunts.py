"""A search for key and credential files asks, whether the names are written out or come from a loop's list."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()


def _rules(command: str) -> tuple[str, ...]:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}), Observation()).rules


@pytest.mark.parametrize("command", [
    'find / -type f -name "*.keytab"',
    'find /srv -name "*.tfstate"',
    'for ext in .pem .ppk .p12; do find /home -maxdepth 4 -name "*${ext}" 2>/dev/null; done',
    'for e in id_rsa id_ed25519\ndo\n  find / -name "$e"\ndone',
])
def test_a_hunt_for_key_files_asks(command: str) -> None:
    assert "confirm.shell.credential-search" in _rules(command), command


@pytest.mark.parametrize("command", [
    'for ext in .py .js; do find . -name "*$ext"; done',
    'find . -name "keyboard.py"',
    'find src -name "*.ts"',
])
def test_a_search_for_source_files_passes(command: str) -> None:
    assert not _rules(command), command
