"""Windows' own signed programs that run code handed to them are known programs: an HTML application, a library's
installer class run with its log hidden, a connection profile installed without a prompt, a library injected into
another program, a command run by the deployment tool, code kept in a hidden stream: each blocks. Their everyday
uses (the Control Panel, a help file, a site synchronised) are not "unknown"."""

from __future__ import annotations

import pytest
from table_sections import shell

from gate.model import Decision


@pytest.mark.parametrize("command", [
    r"mshta C:\Users\Public\invoice.hta", r"mshta.exe \\files.example.org\share\menu.hta",
    r"installutil.exe /logfile= /LogToConsole=false /U C:\Users\Public\svc.dll",
    r"cmstp /s /ns C:\Users\Public\vpn.inf", r"ieexec.exe https://tools.example.org/runner.exe",
    r"tracker.exe /d C:\Users\Public\hook.dll /c C:\Windows\System32\calc.exe",
    r'msdeploy -verb:sync -source:RunCommand -dest:runCommand="C:\Users\Public\a.exe"',
    r"rundll32.exe C:\Users\Public\readme.txt:lib.dll,Start", r"odbcconf /a {REGSVR C:\Users\Public\lib.dll}",
    r"presentationhost.exe https://apps.example.net/app.xbap",
])
def test_code_run_through_a_trusted_windows_program_blocks(command: str) -> None:
    got = shell(command)
    assert got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    "control.exe", "control printers", "msdeploy -verb:sync -source:contentPath=site -dest:contentPath=site2",
    "msdt /?", "installutil MyService.exe", "regsvr32 mycomp.dll", "regsvr32 /s msxml6.dll",
    "hh help.chm", "cmstp /?",
])
def test_their_everyday_uses_are_known(command: str) -> None:
    got = shell(command)
    assert "confirm.shell.unknown-program" not in got.rules and got.decision is not Decision.BLOCK, \
        (command, got.rules)
