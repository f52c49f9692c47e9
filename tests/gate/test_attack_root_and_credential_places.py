"""Two ways around an ask: a tool told by a variable to sign in with credentials kept somewhere the gate would
ask to read (gate/rules/shell_env.py `credential_place`), and root reached through `wsl -u root` rather than
sudo (gate/shell.py, the wsl unwrap). Each trigger has a near miss that keeps its decision."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def judge(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "DOCKER_CONFIG=/srv/registry-token docker pull alpine:3.20",
    "DOCKER_CONFIG=/root/.docker docker image ls",
    "export DOCKER_CONFIG=~/.ssh; docker info",
    "env DOCKER_CONFIG=/opt/ci/credentials docker pull alpine",
    "KUBECONFIG=/etc/kubernetes/admin.conf kubectl get nodes",
    "KUBECONFIG=/etc/rancher/k3s/k3s.yaml kubectl config view --raw",
    "AWS_SHARED_CREDENTIALS_FILE=/tmp/stolen-creds aws sts get-caller-identity",
    "GOOGLE_APPLICATION_CREDENTIALS=/var/run/secrets/gcp/sa.json gcloud auth list",
    "GNUPGHOME=/root/.gnupg gpg --list-secret-keys",
])
def test_a_tool_pointed_at_a_foreign_secret_asks(command: str) -> None:
    got = judge(command)
    assert got.decision is not Decision.ALLOW and "confirm.shell.secret-read" in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "DOCKER_CONFIG=~/.docker docker pull alpine:3.20",  # the tool's own place
    "DOCKER_CONFIG=./ci/docker docker pull alpine",  # the project's own config
    "DOCKER_CONFIG=/opt/ci/docker-cfg docker image ls",  # an ordinary folder
    "KUBECONFIG=~/.kube/staging.yaml kubectl get pods",
    "KUBECONFIG=~/clusters/dev.yaml kubectl get pods",
    "KUBECONFIG=$HOME/.kube/config:$HOME/.kube/lab kubectl get pods",
    "GOOGLE_APPLICATION_CREDENTIALS=./service-account.json python3 main.py",
])
def test_the_tools_own_place_or_the_project_keeps_its_decision(command: str) -> None:
    assert "confirm.shell.secret-read" not in judge(command).rules, command


@pytest.mark.parametrize("command", ["wsl -u root", "wsl --user root", "wsl -d Debian -u root"])
def test_wsl_as_root_with_no_command_opens_roots_shell(command: str) -> None:
    got = judge(command)
    assert got.decision is Decision.CONFIRM and "confirm.shell.privilege-escalation" in got.rules, got.rules


@pytest.mark.parametrize(("command", "as_sudo"), [
    ("wsl -u root -e apt-get install -y nmap", "sudo apt-get install -y nmap"),
    ("wsl --user root -- ls /root", "sudo ls /root"),  # a root-only read passes under sudo too
    ("wsl -d Ubuntu --user root systemctl stop sshd", "sudo systemctl stop sshd"),
    ("wsl -u root -- rm -rf /opt/tool/cache", "sudo rm -rf /opt/tool/cache"),
])
def test_wsl_as_root_is_judged_as_sudo(command: str, as_sudo: str) -> None:
    got, want = judge(command), judge(as_sudo)
    assert got.decision is want.decision, (command, got.rules, want.rules)
    assert ("confirm.shell.privilege-escalation" in got.rules) == ("confirm.shell.privilege-escalation" in want.rules)


@pytest.mark.parametrize("command", ["wsl ls -la", "wsl -u builder ls /srv", "wsl -d Ubuntu -- uname -a"])
def test_wsl_as_another_user_is_not_root(command: str) -> None:
    assert "confirm.shell.privilege-escalation" not in judge(command).rules, command
