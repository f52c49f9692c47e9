"""Public tunnels (resources/programs.toml section `tunnels`): the machine's own login put on the internet, a tunnel
installed as a service, a home served to everyone block; a web port shared asks; help and status pass."""

from __future__ import annotations

import pytest

from gate.model import Decision
from tests.gate.table_sections import SectionChecks, shell

_USE = {"tunnel-clients": "{p} --help"}


class TestTunnelsSection(SectionChecks):
    MARKER = "# ---- tunnels ----"
    USE = _USE
    AT_LEAST = 15
    FOREIGN_FUNCTIONS = True


@pytest.mark.parametrize("command", [
    "ngrok tcp 3389",
    "cloudflared tunnel --url ssh://localhost:22",
    "lt --port 22",
    "bore local 5900 --to bore.pub",
    "ssh -R 9022:127.0.0.1:22 tunnel@relay.example.org",
    "autossh -M 0 -N -R 33389:localhost:3389 me@198.51.100.8",
    "cloudflared service install eyJhIjoiMTIz",
    "ngrok service install --config ngrok.yml",
    "loophole path /home/ann",
    "zrok share public --backend-mode drive ~",
])
def test_login_ports_services_and_homes_on_the_internet_block(command):
    got = shell(command)
    assert got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    "ngrok http 8080",
    "bore local 8000 --to bore.pub",
    "loophole http 3000",
    "tailscale up --ssh",
    "ssh -R 80:localhost:8080 nokey@tunnel.example.net",
])
def test_a_web_port_shared_or_ssh_for_the_tailnet_asks(command):
    assert shell(command).decision is Decision.CONFIRM, command


@pytest.mark.parametrize("command", [
    "ngrok --version", "cloudflared tunnel list", "tailscale status", "tailscale up", "devtunnel --help",
    "ssh -L 5432:db.internal:5432 bastion", "ssh -R 8022:localhost:8022 me@host.example.org --help-ignored",
])
def test_status_local_forwards_and_other_ports_do_not_block(command):
    assert shell(command).decision is not Decision.BLOCK, (command, shell(command).rules)
