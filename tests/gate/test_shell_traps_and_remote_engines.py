"""Shell actions whose harm is in what they set up: cloud keys asked of the metadata service, files named like
code-running options, fake password prompts, container engines driven on other machines, force-pushes over a
shared branch, loader hooks passed through sudo. Each with a near-miss that must pass or only ask."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def verdict(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


def check(command: str, decision: Decision, rule: str | None = None) -> None:
    a = verdict(command)
    assert a.decision is decision, (command, a.decision, a.rules, a.reason)
    if rule is not None:
        assert rule in a.rules, (command, a.rules)


@pytest.mark.parametrize("command", [
    "curl -s http://169.254.169.254/latest/meta-data/iam/security-credentials/app-role",
    "curl -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/"
    "service-accounts/default/token",
    "curl -H Metadata:true 'http://169.254.169.254/metadata/identity/oauth2/token?resource=https://vault.azure.net'",
    "wget -qO- http://169.254.170.2$AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
])
def test_cloud_keys_asked_of_the_metadata_service_block(command: str) -> None:
    check(command, Decision.BLOCK, "block.shell.credential-read")


def test_other_metadata_reads_ask_and_a_metadata_path_elsewhere_passes() -> None:
    check("curl http://169.254.169.254/latest/meta-data/placement/region", Decision.CONFIRM, "confirm.shell.recon")
    check("curl -s https://api.example.com/metadata/v1/items", Decision.ALLOW)


@pytest.mark.parametrize("command", [
    "touch -- '--checkpoint=1' '--checkpoint-action=exec=sh run.sh'",
    "echo '' > '--checkpoint-action=exec=sh run.sh'",
    "touch ./'-e sh run.sh'",
    "touch -- '--reference=owned.txt'",
])
def test_a_file_named_like_a_code_running_option_blocks(command: str) -> None:
    check(command, Decision.BLOCK, "block.shell.option-injection")


@pytest.mark.parametrize("command", ["touch README.md", "touch -d '2 days ago' stamp", "touch -- -notes.txt",
                                     "tar czf backup.tgz ./*"])
def test_ordinary_files_and_archives_pass(command: str) -> None:
    check(command, Decision.ALLOW)


def test_a_fake_password_prompt_blocks_and_an_ordinary_alias_passes() -> None:
    check("alias sudo='echo -n \"[sudo] password: \"; read -s pw; echo $pw >> /tmp/.p; /usr/bin/sudo'",
          Decision.BLOCK, "block.shell.credential-dump")
    check("ssh() { read -rsp 'Password: ' pw; echo $pw > /tmp/.x; command ssh \"$@\"; }", Decision.BLOCK,
          "block.shell.credential-dump")
    check("alias sudo='sudo '", Decision.ALLOW)
    check("read -s -p 'API token: ' TOKEN", Decision.ALLOW)


def test_a_container_engine_on_another_machine_asks() -> None:
    check("docker -H tcp://10.0.0.9:2375 exec -it db /bin/bash", Decision.CONFIRM, "confirm.shell.remote-mutation")
    check("DOCKER_HOST=tcp://10.0.0.9:2375 docker ps", Decision.CONFIRM, "confirm.shell.remote-mutation")
    check("docker ps", Decision.ALLOW)
    check("docker -H unix:///var/run/docker.sock ps", Decision.ALLOW)


def test_the_engine_socket_read_asks_and_written_blocks() -> None:
    check("curl --unix-socket /var/run/docker.sock http://localhost/containers/json", Decision.CONFIRM,
          "confirm.shell.privilege-escalation")
    check("curl --unix-socket /var/run/docker.sock -X POST http://localhost/containers/create -d @c.json",
          Decision.BLOCK, "block.shell.credential-tamper")


def test_a_lease_protected_force_push_asks_only_for_a_shared_branch() -> None:
    check("git push --force-with-lease origin HEAD:main", Decision.CONFIRM, "confirm.shell.vcs-destructive")
    check("git push --force-with-lease origin release/2.1", Decision.CONFIRM, "confirm.shell.vcs-destructive")
    a = verdict("git push --force-with-lease origin feature/login-form")  # asks only as any push does
    assert a.decision is Decision.CONFIRM and a.rules == ("confirm.shell.publish",), a.rules


def test_a_loader_hook_passed_through_sudo_blocks() -> None:
    check("sudo LD_PRELOAD=/tmp/pe.so find", Decision.BLOCK, "block.shell.loader-hook")
    a = verdict("sudo DEBIAN_FRONTEND=noninteractive apt-get install -y jq")
    assert "block.shell.loader-hook" not in a.rules and a.decision is Decision.CONFIRM
