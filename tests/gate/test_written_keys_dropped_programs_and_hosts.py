"""Classes of writes and starts that were asked and now block, with their everyday neighbours:
- a login file (authorized_keys, sudoers) written through a program's own output option or print statement blocks,
  as the same write by a redirect does; reading it (ssh-keygen -l) passes;
- PowerShell running a script from a folder anyone can write to in a hidden window blocks;
- a registry value Windows runs later (a Run key, the screen saver) set by PowerShell asks, and blocks when it starts a
  program kept in such a folder; an app's own setting passes;
- a program or library written outside the work area blocks (DLL side-loading, a dropped screen saver);
- ESXi's inventory reads pass, its snapshots removed block; a coding agent started with its approvals off asks."""

from __future__ import annotations

import pytest
from table_sections import shell

from gate import Observation, SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


@pytest.mark.parametrize(("command", "decision"), [
    ("git log -1 --output=/home/kim/.ssh/authorized_keys", Decision.BLOCK),
    ("find . -fprintf /root/.ssh/authorized_keys 'ssh-ed25519 AAAAC3 k' -quit", Decision.BLOCK),
    ("awk 'BEGIN{print \"kim ALL=(ALL) NOPASSWD:ALL\" > \"/etc/sudoers.d/kim\"}'", Decision.BLOCK),
    ("ssh-keygen -l -f ~/.ssh/authorized_keys", Decision.ALLOW),
    ("ssh-keygen -y -f ~/.ssh/id_ed25519.pub", Decision.ALLOW),
    (r"powershell -WindowStyle Hidden -ExecutionPolicy Bypass -File C:\Users\Public\sync.ps1", Decision.BLOCK),
    (r"powershell -w hidden -File $env:TEMP\job.ps1", Decision.BLOCK),
    (r"Set-ItemProperty -Path 'HKCU:\Control Panel\Desktop' -Name SCRNSAVE.EXE -Value C:\Users\Public\s.scr",
     Decision.BLOCK),
    (r"New-ItemProperty -Path HKCU:\Software\Microsoft\Windows\CurrentVersion\Run -Name Sync -Value C:\Tools\s.exe",
     Decision.CONFIRM),
    (r"Set-ItemProperty -Path HKCU:\Software\Editor -Name Theme -Value dark", Decision.ALLOW),
    ("vim-cmd vmsvc/get.summary 7", Decision.ALLOW),
    ("vim-cmd vmsvc/snapshot.removeall 7", Decision.BLOCK),
    ("vim-cmd vmsvc/power.off 7", Decision.CONFIRM),
    ("copilot --allow-all-tools -p 'clean up the branches'", Decision.CONFIRM),
])
def test_the_decision(command: str, decision: Decision) -> None:
    got = shell(command)
    assert got.decision is decision, (command, got.rules)


def test_a_project_script_in_a_hidden_window_only_asks() -> None:
    assert shell(r"powershell -w hidden -File .\tools\build.ps1").decision is Decision.CONFIRM


@pytest.mark.parametrize(("path", "decision"), [
    (r"C:\Users\Public\Reader\readerhelper.dll", "block"), (r"%LOCALAPPDATA%\Chat\app-2.1\dbghelp.dll", "block"),
    (r"C:\Users\Public\calm.scr", "block"), ("~/deskgate-work/dist/tool.exe", "allow"), ("out/plugin.dll", "allow"),
])
def test_a_program_written_outside_the_work_area_blocks(path: str, decision: str) -> None:
    got = GATE.assess(action_from_dict({"type": "file_write", "path": path, "content": "MZ"}), Observation())
    assert got.decision.value == decision, (path, got.rules)


def test_a_file_named_for_a_site_is_no_program() -> None:
    action = action_from_dict({"type": "file_write", "path": "~/sites/example.com", "content": "server {}"})
    assert "block.files.dropped-program" not in GATE.assess(action, Observation()).rules
