"""A container engine's open API at an outside address named by a variable or a context, not `-H`
(gate/rules/shell_engine_host.py): it blocks as `docker -H tcp://...:2375` does; one's own engines pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "DOCKER_HOST=tcp://198.51.100.23:2375 docker images",
    "export DOCKER_HOST=tcp://198.51.100.23:2375",
    "CONTAINER_HOST=tcp://198.51.100.23:2375 podman ps",
    "docker context create remote --docker host=tcp://198.51.100.23:2375",
    "$env:DOCKER_HOST = 'tcp://198.51.100.23:2375'",
])
def test_an_outside_engines_open_api_blocks(command: str) -> None:
    a = assess(command)
    assert a.decision.value == "block" and "block.shell.remote-access" in a.rules, a


@pytest.mark.parametrize("command", [
    "DOCKER_HOST=unix:///run/user/1000/docker.sock docker ps",
    "export DOCKER_HOST=tcp://192.168.1.20:2375",
    "export DOCKER_HOST=tcp://198.51.100.23:2376",
    "DOCKER_HOST=ssh://me@build.example.com docker ps",
])
def test_ones_own_engines_do_not_block_as_that(command: str) -> None:
    assert "block.shell.remote-access" not in assess(command).rules
