"""A program in Downloads run from a command line (gate/rules/shell_downloaded_run.py). Our own commands, written
from cmd.exe's `start`, PowerShell's Start-Process and the NSIS and Windows Installer silent switches."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def run(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}), Observation())


@pytest.mark.parametrize("command", [r'start "" "C:\Users\pat\Downloads\Invoice_0412.scr"',
                                     r"Start-Process $env:USERPROFILE\Downloads\holiday_pics.hta"])
def test_a_disguised_program_from_downloads_blocks(command):
    assert "block.shell.downloaded-disguised-program" in run(command).rules


def test_a_document_from_downloads_passes():
    assert "block.shell.downloaded-disguised-program" not in run(r'start "" "%USERPROFILE%\Downloads\menu.pdf"').rules


@pytest.mark.parametrize("command", [r'"%USERPROFILE%\Downloads\MeetNow-Installer.exe" /verysilent',
                                     r"msiexec /i C:\Users\pat\Downloads\helper.msi /qn"])
def test_a_silent_install_from_downloads_asks(command):
    assert "confirm.shell.downloaded-silent-install" in run(command).rules


def test_an_installer_with_its_windows_passes_this_rule():
    assert "confirm.shell.downloaded-silent-install" not in run(r'"%USERPROFILE%\Downloads\Setup.exe"').rules
