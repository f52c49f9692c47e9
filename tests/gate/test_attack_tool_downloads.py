"""A download or clone that names an attack tool or kit (gate/rules/shell_context.py `_fetched_kit`) asks: the
first step of using it. Other downloads, and names that only contain a tool's word, pass."""

from __future__ import annotations

import pytest

from gate.model import Decision
from tests.gate.table_sections import shell


@pytest.mark.parametrize("command", [
    "wget https://github.com/someone/Rubeus/releases/download/v2/Rubeus.exe",
    "curl -L -o kit.zip https://github.com/someone/evilginx2/archive/refs/heads/master.zip",
    "git clone https://github.com/someone/gophish",
    "git clone git@gitlab.com:someone/sliver.git",
    "curl -sLO https://files.example.net/tools/lazagne.exe",
    "Invoke-WebRequest https://files.example.net/x/SharpHound-v2.3.zip -OutFile sh.zip",
    "wget https://raw.githubusercontent.com/someone/linpeas/main/linpeas.sh",
])
def test_fetching_an_attack_kit_asks(command):
    got = shell(command)
    assert got.decision is not Decision.ALLOW and "confirm.shell.attack-tool-download" in got.rules, got.rules


@pytest.mark.parametrize("command", [
    "git clone https://github.com/someone/sliver-of-cake",
    "curl -O https://files.example.net/people/john/cv.pdf",
    "curl -O https://files.example.net/books/merlin.epub",
    "wget https://github.com/someone/ripgrep/releases/download/14.1.0/ripgrep-14.1.0-x86_64.tar.gz",
    "git clone https://github.com/someone/empire-state-building-model",
])
def test_other_downloads_pass(command):
    assert "confirm.shell.attack-tool-download" not in shell(command).rules
