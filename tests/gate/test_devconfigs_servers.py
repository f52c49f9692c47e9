"""A coding agent's MCP server, or Gemini's tool command, that is a shell or an interpreter handed inline code blocks,
written as a file or registered from the shell; a server program (and a shell that only starts one) still asks."""

from __future__ import annotations

import json

import pytest

from gate import SafetyGate
from gate.model import Decision, FileWrite, Shell
from gate.rules.devconfig_servers import one_liner

GATE = SafetyGate()
HOME = "/home/dev"


def _server(command, args=None, key="mcpServers"):
    entry = {"command": command} if args is None else {"command": command, "args": args}
    return json.dumps({key: {"tools": entry}}, indent=2)


@pytest.mark.parametrize(("path", "content"), [
    (".mcp.json", _server("bash", ["-c", "touch /tmp/marker; sleep 999"])),
    (f"{HOME}/.cursor/mcp.json", _server("/usr/bin/zsh", ["-lc", "printf hi"])),
    (".vscode/mcp.json", _server("pwsh", ["-NoProfile", "-c", "Get-ChildItem env: | Out-File x"], key="servers")),
    (".roo/mcp.json", _server("cmd.exe", ["/c", "type %USERPROFILE%\\.aws\\credentials"])),
    (f"{HOME}/.config/Claude/claude_desktop_config.json", _server("python3", ["-c", "import os; os.getcwd()"])),
    (".mcp.json", _server("node", ["-e", "require('fs').readdirSync('.')"])),
    (".mcp.json", _server("powershell.exe", ["-enc", "SQBFAFgA"])),
    (f"{HOME}/.config/zed/settings.json", json.dumps({"context_servers": {"s": {"command": {
        "path": "sh", "args": ["-c", "echo ok"]}}}})),
    (".gemini/settings.json", '{"tools": {"discoveryCommand": "sh -c \'echo []\'",}}'),
    (f"{HOME}/.continue/config.yaml", "mcpServers:\n  - name: s\n    command: sh\n"
                                      "    args:\n      - -c\n      - echo hi\n"),
    (f"{HOME}/.codex/config.toml", '[mcp_servers.s]\ncommand = "bash"\nargs = ["-c", "id"]\n'),
])
def test_a_server_that_is_a_shell_one_liner_blocks(path, content):
    got = GATE.assess(FileWrite(path=path, content=content))
    assert got.decision is Decision.BLOCK, (path, got.rules)
    assert "block.files.agent-server-one-liner" in got.rules


@pytest.mark.parametrize(("path", "content"), [
    (".mcp.json", _server("npx", ["-y", "@modelcontextprotocol/server-memory"])),
    (".mcp.json", _server("cmd", ["/c", "npx", "-y", "@modelcontextprotocol/server-filesystem", "C:\\work"])),
    (".mcp.json", _server("bash", ["-c", "cd ~/servers/notes && uv run server.py"])),
    (".vscode/mcp.json", _server("uvx", ["mcp-server-git", "--repository", "."], key="servers")),
    (".mcp.json", _server("docker", ["run", "-i", "--rm", "ghcr.io/example/mcp-server"])),
    (".mcp.json", _server("bash", ["./scripts/start-server.sh"])),
    (".mcp.json", _server("python", ["-m", "my_server"])),
    (".claude/settings.json", json.dumps({"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [
        {"type": "command", "command": "bash -c 'npx prettier --write .'"}]}]}})),
    ("tools/config.json", _server("bash", ["-c", "id"])),
])
def test_server_programs_and_launches_do_not_block_here(path, content):
    got = GATE.assess(FileWrite(path=path, content=content))
    assert "block.files.agent-server-one-liner" not in got.rules, (path, got.rules)


@pytest.mark.parametrize("command", [
    "claude mcp add helper -- bash -c 'cat ~/.netrc'",
    "gemini mcp add helper sh -c 'echo hi'",
    "code --add-mcp '{\"name\":\"h\",\"command\":\"node\",\"args\":[\"-e\",\"process.exit(0)\"]}'",
    "echo '{\"mcpServers\":{\"h\":{\"command\":\"sh\",\"args\":[\"-c\",\"id\"]}}}' > .mcp.json",
])
def test_the_same_servers_from_the_shell_block(command):
    got = GATE.assess(Shell(command=command))
    assert got.decision is Decision.BLOCK, (command, got.rules)


@pytest.mark.parametrize("command", [
    "claude mcp add memory -- npx -y @modelcontextprotocol/server-memory",
    "claude mcp add --transport http notes https://mcp.example.com/mcp",
    "claude mcp list",
])
def test_ordinary_registrations_do_not_block_here(command):
    assert "block.shell.agent-server-one-liner" not in GATE.assess(Shell(command=command)).rules


@pytest.mark.parametrize(("argv", "hit"), [
    (["bash", "-e", "serve.sh"], False),
    (["bash", "--login", "serve.sh"], False),
    (["busybox", "sh", "-c", "id"], True),
    (["pwsh", "-File", "server.ps1"], False),
    (["pwsh", "-Command", "Start-Process calc"], True),
    (["cmd", "/k", "dir"], True),
    (["python", "server.py"], False),
])
def test_what_counts_as_inline_code(argv, hit):
    assert (one_liner(argv) is not None) is hit
