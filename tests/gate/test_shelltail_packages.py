"""Installs from a distribution's own archive: reviewed by its maintainers, so a name the gate does not list
passes, unless the tool's everyday work is attack, interception, hidden remote access or mining; pip's
`--break-system-packages` says where an install goes, not where it comes from, and asks for what it overrides."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict
from tests.gate.known_packages import passes_only_when_known_packages_pass

GATE = SafetyGate(default_policy())


def decide(command: str) -> Decision:
    return GATE.assess(action_from_dict({"type": "shell", "command": command})).decision


@pytest.mark.parametrize("command", [
    "apt-get install -y openjdk-8-jdk-headless", "apt-get install -y gcc-12 g++-12 libomp-dev",
    "apt-get install -y --no-install-recommends gnuplot texlive-science", "dnf install -y perl-Test-Harness",
    "apk add --no-cache libstdc++ musl-dev", "pacman -S --noconfirm lua53", "zypper install -y libopenssl-devel",
    "apt-get install -y llvm-15-dev lld-15", "yum install -y which procps-ng",
])
def test_archive_packages_pass_when_known_packages_may(command: str) -> None:
    passes_only_when_known_packages_pass(command)


@pytest.mark.parametrize("command", [
    "apt-get install -y masscan", "apt install -y aircrack-ng", "dnf install -y john", "apk add tor torsocks",
    "apt-get install -y proxychains4", "pacman -S metasploit", "apt-get install -y x11vnc",
    "apt-get install -y openssh-server", "apt-get install -y xmrig", "zypper in hydra",
    "pip3 install --break-system-packages reqeusts", "pip install --break-system-packages acme-internal-tool",
    "pip3 install --break-system-packages numpy", "pip install --break-system-packages --no-cache-dir flask",
    "pip3 install --break-system-packages --index-url http://10.0.0.9/simple flask",
    "sudo apt-get install -y binutils",
])
def test_attack_tools_typos_other_indexes_and_sudo_still_ask(command: str) -> None:
    assert decide(command) is not Decision.ALLOW, command
