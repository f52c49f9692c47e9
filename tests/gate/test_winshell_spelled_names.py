"""A PowerShell call whose command name is picked out of other text by index (gate/winshell.py `_SPELLED_NAME`):
the launcher forms of PowerShell obfuscators, read as obfuscation. Computed paths and names that honest scripts
use pass."""

from __future__ import annotations

import pytest

from gate.model import Decision
from tests.gate.table_sections import shell


@pytest.mark.parametrize("command", [
    "powershell -c \"& ($env:ComSpec[4,15,25] -join '') ('Get-Date')\"",
    "powershell -c \"& ($ShellId[1]+$ShellId[13]+'x') ('Get-Date')\"",
    "powershell -c \"& ((Get-Variable '*mdr*').Name[3,11,2] -join '') ('Get-Date')\"",
    "pwsh -c \"& (([string]'xei')[-1..-3] -join '') 'Get-Date'\"",
])
def test_a_command_spelled_from_picked_characters_asks(command):
    got = shell(command)
    assert got.decision is not Decision.ALLOW and "confirm.shell.obfuscated" in got.rules, got.rules


@pytest.mark.parametrize("command", [
    "powershell -c \"& (Join-Path $env:ProgramFiles 'Git\\bin\\git.exe') status\"",
    "powershell -c \"& (Get-Command python).Source --version\"",
    "powershell -c \"& ($tools[0]) --help\"",
])
def test_computed_paths_and_names_pass(command):
    got = shell(command)
    assert "confirm.shell.obfuscated" not in got.rules, got.rules
