"""A program started from a Windows staging folder (the public profile, the temporary folders, roaming
application data, ProgramData, the folders any user may write under C:\\Windows) is judged as one started from
/tmp: it asks whatever its name, a borrowed system process name or a hidden start blocks, and given an address
and a port it blocks. A package's own folder there, and a program run from where it is installed, pass
(gate/rules/shell_staging.py)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    r"C:\Users\Public\Videos\hg.exe version",  # a known program's name, from the public profile
    r"%PUBLIC%\wget.exe --version",
    r"$env:PUBLIC\Documents\node.exe app.js",
    r"%TEMP%\python.exe -V",  # the temporary folder by its variable, either spelling
    r"%tmp%\rg.exe pattern",
    r"$env:TEMP\notepad.exe",
    r"$env:TMP\jq.exe .",
    r"${env:TEMP}\hg.exe version",  # PowerShell's braced spelling of the same variable
    r'& "$env:TEMP\perl.exe" run.pl',
    r"C:\Users\dana\AppData\Local\Temp\7z.exe x pack.zip",
    r"%LOCALAPPDATA%\Temp\curl.exe -V",
    r"%APPDATA%\Microsoft\Windows\tar.exe -tf a.tar",  # roaming application data
    r"C:\ProgramData\Updater\git.exe status",
    r"%ProgramData%\ssh.exe -V",
    r"C:\Windows\Temp\ipconfig.exe",
    r"%SystemRoot%\Tasks\whoami.exe",
    r"C:\PerfLogs\hostname.exe",
    "C:/Users/Public/Music/go.exe version",  # forward slashes name the same folder
    r"cmd /c %TEMP%\git.exe status",  # through a wrapper
    r'Start-Process -FilePath "C:\Users\Public\git.exe" -ArgumentList status',
])
def test_a_known_program_from_a_windows_staging_folder_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is not Decision.ALLOW and "confirm.shell.unknown-program" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    r"C:\Users\Public\svchost.exe",  # a system process's name borrowed
    r"%TEMP%\lsass.exe",
    r"%APPDATA%\Microsoft\RuntimeBroker.exe",
    r"$env:TEMP\.cache\git.exe",  # a hidden folder
    r"start /b %TEMP%\git.exe",  # started with no window
    r"Start-Process -WindowStyle Hidden $env:TEMP\node.exe",
    r"C:\ProgramData\x.exe 192.0.2.10 8443",  # told where to call back
    r"${env:TEMP}\x.exe 192.0.2.10 8443",
])
def test_a_hiding_windows_payload_blocks_as_one_from_tmp_does(command: str) -> None:
    assert assess(command).decision is Decision.BLOCK, command


@pytest.mark.parametrize("command", [
    r"C:\Windows\System32\ipconfig.exe",  # installed programs from their install folders
    r"C:\Python311\python.exe --version",
    r'"C:\Program Files\Git\bin\git.exe" status',
    r"%LOCALAPPDATA%\Programs\Python\Python312\python.exe -m pip list",
    r"%ProgramFiles%\7-Zip\7z.exe l a.zip",
    r"C:\ProgramData\chocolatey\bin\choco.exe list",  # package managers' own folders under ProgramData/AppData
    r"C:\ProgramData\Miniconda3\python.exe --version",
    r"%APPDATA%\npm\npm.cmd ls",
    r"%APPDATA%\Python\Python312\Scripts\black.exe --version",
    r".\gradlew.bat build",
])
def test_a_program_from_where_it_is_installed_passes(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW, command
