"""Windows registry writes judged by the key they name (the registry table of resources/programs.toml):
hijack keys and defences switched off block, policy keys ask, ordinary application settings and reads pass
as they did."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Print\Monitors\Spool2" /v Driver /d C:\ProgramData\m.dll /f',
    r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Terminal Server\AddIns\Dvc1" /v Path /d C:\x\p.dll /f',
    r'reg add "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Windows" /v AppInit_DLLs /d C:\x\a.dll /f',
    r'reg add "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\SilentProcessExit\calc.exe" '
    r'/v MonitorProcess /d C:\x\m.exe',
    r'New-ItemProperty -Path "HKCU:\Software\Classes\CLSID\{0A1B2C3D-0000-0000-0000-000000000001}\InProcServer32" '
    r'-Name "(Default)" -Value C:\Users\me\x.dll',
    r'Set-ItemProperty -Path "HKCU:\Software\Microsoft\Office\16.0\Outlook\Today" -Name UserDefinedUrl '
    r'-Value http://host.example/p.html',
])
def test_hijack_keys_block(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.BLOCK and "block.shell.malicious-persistence" in got.rules, got.rules


@pytest.mark.parametrize("command", [
    r'New-ItemProperty -Path "HKLM:\Software\Microsoft\.NETFramework" -Name ETWEnabled -Value 0 -PropertyType DWord',
    r'Set-ItemProperty -Path "HKCU:\Software\Microsoft\Windows Script\Settings" -Name AmsiEnable -Value 0',
    r'reg add "HKLM\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU" /v NoAutoUpdate /t REG_DWORD /d 1 /f',
    r'reg add "HKLM\System\CurrentControlSet\Control\SecurityProviders\WDigest" /v UseLogonCredential /d 1 /f',
])
def test_defences_switched_off_in_the_registry_block(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.BLOCK and "block.shell.defense-evasion" in got.rules, got.rules


@pytest.mark.parametrize("command", [
    r'reg add "HKCU\Software\Microsoft\Windows\CurrentVersion\Policies\Explorer" /v NoDrives /t REG_DWORD /d 4 /f',
    r'reg add HKCU\Software\Microsoft\Windows\CurrentVersion\Explorer\Advanced /v Hidden /t REG_DWORD /d 2 /f',
    r'reg add "HKLM\SOFTWARE\Policies\Microsoft\Edge" /v HomepageLocation /d https://intranet.example /f',
])
def test_policy_and_visibility_keys_ask(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.defense-evasion" in got.rules, got.rules


@pytest.mark.parametrize("command", [
    r'reg query "HKLM\SYSTEM\CurrentControlSet\Control\Print\Monitors"',
    r'reg query "HKLM\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU" /v NoAutoUpdate',
    r'reg add "HKCU\Software\Contoso\Editor" /v Theme /d dark /f',
    r'reg delete "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Windows" /v AppInit_DLLs /f',
])
def test_reads_removals_and_application_settings_do_not_block(command: str) -> None:
    got = assess(command)
    assert got.decision is not Decision.BLOCK, got.rules
    assert "confirm.shell.defense-evasion" not in got.rules, got.rules


@pytest.mark.parametrize("command", [
    r'reg add "HKLM\Software\Policies\Microsoft\Windows\PowerShell\ScriptBlockLogging" '
    r'/v EnableScriptBlockLogging /t REG_DWORD /d 0 /f',
    r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Lsa" /v LmCompatibilityLevel /t REG_DWORD /d 1 /f',
])
def test_defences_weakened_by_value_block(command: str) -> None:
    assert assess(command).decision is Decision.BLOCK, assess(command).rules


@pytest.mark.parametrize("command", [
    r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Lsa" /v LmCompatibilityLevel /t REG_DWORD /d 5 /f',
    r'reg add "HKLM\SYSTEM\CurrentControlSet\Control\Lsa" /v RestrictAnonymous /t REG_DWORD /d 1 /f',
    r'reg add HKCU\Software\Microsoft\Windows\CurrentVersion\Explorer\Advanced /v HideFileExt /t REG_DWORD /d 0 /f',
    r'reg add "HKLM\SOFTWARE\Microsoft\Windows\Windows Error Reporting\LocalDumps" /v DumpFolder /d C:\dumps /f',
])
def test_hardening_values_and_developer_settings_pass(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW, assess(command).rules
