"""Terminal emulators and Windows' launchers run the command they are given (gate/effects.py): that command is
judged as if typed, whichever flag, `--` or operand carries it."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    'xterm -e "rm -rf ~"', "xterm -e rm -rf ~", "alacritty -e rm -rf ~", "wezterm start -- rm -rf ~",
    'gnome-terminal -- bash -c "rm -rf ~"', 'kitty sh -c "rm -rf ~"', 'xfce4-terminal -e "rm -rf ~"',
    "konsole -e 'bash -c \"rm -rf ~/Documents/*\"'", "gnome-terminal --title x -- rm -rf ~",
    'start cmd /c "del /s /q C:\\Users\\me\\*"', 'start "" cmd /c "del /s /q C:\\Users\\me\\*"',
    'start x cmd /c "del /s /q C:\\Users\\me\\*"',  # a one-word title before the program
    'start /b powershell -c "Remove-Item -Recurse -Force C:\\Users\\me"',
    'wt new-tab -p "Windows PowerShell" powershell -c "Remove-Item -Recurse -Force C:\\Users\\me"',
])
def test_what_a_terminal_or_launcher_is_told_to_run_is_judged(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    "xterm", "gnome-terminal", "kitty", "xterm -e htop", "gnome-terminal -- htop", "wt",
    "start notepad.exe", "start https://example.com", 'start "" "C:\\Users\\me\\report.pdf"',
])
def test_a_terminal_or_launcher_opening_something_ordinary_passes(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW, command


def test_a_launcher_opening_a_download_from_a_bare_address_asks() -> None:
    assert assess("start http://198.51.100.4/setup.exe").decision is not Decision.ALLOW
