"""Secrets kept where people do not look for them: command-line AI clients' settings with the API key inline, and
the key that unlocks macOS's System keychain (resources/policy.toml `files.sensitive`, `shell.secret_paths`,
`files.credentials`)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def judge(action: dict):
    return GATE.assess(action_from_dict(action), Observation())


@pytest.mark.parametrize("path", ["~/.config/shell_gpt/.sgptrc", "~/.config/io.datasette.llm/keys.json",
                                  "~/.config/aichat/config.yaml", "~/.config/mods/config.yml",
                                  "~/.gemini/oauth_creds.json"])
def test_an_ai_clients_key_file_read_asks_as_file_and_as_shell(path):
    assert judge({"type": "file_read", "path": path}).decision is Decision.CONFIRM
    assert "confirm.shell.secret-read" in judge({"type": "shell", "command": f"cat {path}"}).rules


# (Gemini CLI's settings.json holds its MCP servers' tokens: it asks, tests/gate/test_harvest_kits_and_names.py)
@pytest.mark.parametrize("path", ["~/.gemini/GEMINI.md", "~/.config/aichat/roles.yaml", "~/proj/sgptrc.md"])
def test_their_other_settings_pass(path):
    assert judge({"type": "file_read", "path": path}).decision is Decision.ALLOW


@pytest.mark.parametrize("path", ["/private/var/db/SystemKey", "/var/db/SystemKey"])
def test_the_system_keychain_key_blocks(path):
    assert judge({"type": "file_read", "path": path}).decision is Decision.BLOCK
    assert judge({"type": "shell", "command": f"sudo cat {path} | xxd"}).decision is Decision.BLOCK
