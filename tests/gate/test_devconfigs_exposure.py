"""Developer tools that open this machine to others (resources/programs.toml section `devconfigs`): an editor's
remote tunnel and a Codespace's public port ask; an editor, notebook, web terminal or file browser served to the
network without a password, or over the whole home, blocks; the same tools used locally pass."""

from __future__ import annotations

import pytest

from gate.model import Decision
from tests.gate.table_sections import examples, marked_once, shell

MARKER = "# ---- devconfigs ----"


def test_the_section_is_marked_once():
    assert marked_once(MARKER)


@pytest.mark.parametrize("risky", examples(MARKER))
def test_every_example_of_the_section_asks(risky):
    assert shell(risky).decision is not Decision.ALLOW, risky


@pytest.mark.parametrize("command", [
    "code-server --auth none --bind-addr 0.0.0.0:9000",
    "openvscode-server --without-connection-token --host 0.0.0.0",
    "marimo edit notebook.py --host 0.0.0.0 --no-token",
    "docker run -d -p 8888:8080 -v $HOME:/srv filebrowser/filebrowser",
    "podman run --rm -p 7000:7681 -v /:/mnt ghcr.io/example/ttyd ttyd bash",
    "docker run -p 2222:80 --mount type=bind,source=/home/ann,target=/data ghcr.io/example/cloudcmd",
    "cursor tunnel service install",
    "jupyter server --ip=* --IdentityProvider.token=",
])
def test_shells_and_homes_served_without_a_password_block(command):
    got = shell(command)
    assert got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    "code-insiders tunnel --accept-server-license-terms",
    "cursor tunnel --name laptop",
    "gh codespace ports visibility 8080:public -c shiny-space",
    "gh cs ports visibility 3000:public 4000:private",
    "code-server --bind-addr 0.0.0.0:8443",
    "ruby -run -e httpd . -p 8000",
])
def test_tunnels_and_public_ports_ask(command):
    got = shell(command)
    assert got.decision is not Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", [
    "code-insiders --version",
    "cursor tunnel status",
    "gh codespace ports visibility 8080:private -c shiny-space",
    "gh codespace ports -c shiny-space",
    "docker run -p 3000:3000 -v ~/project:/app node:20 npm start",
    "docker run --rm -v $HOME:/home ghcr.io/example/ttyd ttyd --version",
    "claude mcp list",
    "gemini mcp remove files",
    "jupyter lab --no-browser --port 8890",
])
def test_local_uses_do_not_block(command):
    got = shell(command)
    assert got.decision is not Decision.BLOCK, (command, got.rules)
    assert "block.shell.public-exposure" not in got.rules
