"""A cluster's access taken out of the kubeconfig file, and packages removed by a list xargs feeds to the package
manager, ask (gate/rules/shell_staging.py `_kube_config_removed`, `_fed_removal`); reading the kubeconfig and
other xargs uses keep their decision."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def judge(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "kubectl config delete-context staging-west", "kubectl config delete-cluster kind-dev",
    "kubectl config delete-user ops-admin", "kubectl config unset users.ops-admin",
    "npm ls -g --depth=0 --parseable | xargs -n1 basename | xargs npm uninstall -g",
    "cat old-packages.txt | xargs sudo apt-get purge -y", "pip freeze | cut -d= -f1 | xargs pip uninstall -y",
    "brew leaves | xargs brew uninstall",
])
def test_config_and_fed_removals_ask(command: str) -> None:
    assert judge(command).decision is Decision.CONFIRM, (command, judge(command).rules)


@pytest.mark.parametrize("command", [
    "kubectl config get-contexts", "kubectl config current-context", "kubectl config view --minify",
    "cat names.txt | xargs npm view", "find . -name '*.py' | xargs wc -l", "git ls-files | xargs grep -n TODO",
])
def test_reads_pass(command: str) -> None:
    assert judge(command).decision is Decision.ALLOW, (command, judge(command).rules)
