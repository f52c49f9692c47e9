"""An editor extension installed from the command line by its release (gate/rules/shell_delivery.py): a release an
attacker published blocks, one pinned by its number asks, the id alone installs the marketplace's current one."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "code --install-extension AmazonWebServices.amazon-q-vscode@1.84.0",
    "codium --install-extension ellacrity.recoil@0.7.4 --force",
])
def test_a_release_an_attacker_published_blocks(command: str) -> None:
    a = assess(command)
    assert a.decision.value == "block" and "block.shell.compromised-package" in a.rules


@pytest.mark.parametrize("command", [
    "code --install-extension acme-tools.deploy-helper@1.10.1",
    "cursor --install-extension someone.tiny-theme@0.0.3",
])
def test_a_release_pinned_by_its_number_asks(command: str) -> None:
    assert "confirm.shell.install" in assess(command).rules


@pytest.mark.parametrize("command", [
    "code --install-extension esbenp.prettier-vscode",
    "code --install-extension amazonwebservices.amazon-q-vscode",
    "code --install-extension esbenp.prettier-vscode@9.0.0",
    "code --list-extensions --show-versions",
])
def test_the_marketplaces_current_release_passes(command: str) -> None:
    assert assess(command).decision.value == "allow"
