"""Harm behind a runner: a package program that is a shell command under another name (rimraf, shx), a runner's
own shell-line option (npm exec -c), version and environment managers that run the command after their words
(mise exec, asdf exec, direnv exec), runners handed whole command lines (nix-shell --run, concurrently), `uv tool
run` (uvx) and the run verbs of pnpm, yarn and bun. What they start is judged; the everyday forms still pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict
from tests.gate.known_packages import passes_only_when_known_packages_pass

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "npx rimraf ~",
    "bunx rimraf /",
    "pnpm dlx rimraf ~",
    "yarn rimraf ~",
    "yarn shx rm -rf /",
    "yarn run rimraf ~",
    "npm exec -c 'rm -rf ~'",
    "bun run rm -rf ~",
    "mise exec node@20 -- rm -rf ~",
    "mise x -- rm -rf ~",
    "asdf exec rm -rf ~",
    "direnv exec . rm -rf ~",
    "nix-shell -p hello --run 'rm -rf ~'",
    "concurrently \"npm run dev\" \"rm -rf ~\"",
])
def test_a_destructive_command_behind_a_runner_blocks(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.BLOCK and "block.shell.recursive-delete-root" in got.rules, got.rules


def test_uv_tool_run_of_an_unknown_package_asks_like_uvx() -> None:
    assert assess("uv tool run left-padd").decision is Decision.CONFIRM


@pytest.mark.parametrize("command", [
    "npx rimraf dist",
    "yarn rimraf build",
    "pnpm run build",
    "yarn run test",
    "bun run dev",
    "mise exec -- node --version",
    "direnv exec . make test",
    "concurrently \"npm run dev\" \"npm run watch\"",
    "uv tool run ruff check .",
    # a program widely used packages install, found in the project's node_modules/.bin
    "npx tsc --noEmit", "npx ng build", "npx vitest run", "npx prettier --check .",
    "npx -y @modelcontextprotocol/server-filesystem ./docs",
])
def test_everyday_runner_use_passes(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.ALLOW, got.rules


@pytest.mark.parametrize("command", [
    "uv pip install left-padd",  # uv's pip interface installs like pip
    "uv run --with left-padd python x.py",  # a package installed for the run
    "uvx --with left-padd ruff check .",
    "pnpm dlx left-padd",  # fetched by its name and run, as npx does
    "yarn dlx left-padd",
    "npm exec left-padd",
    # npx and bunx fetch a package they do not find in the project, whatever the words after it (a scoped
    # name, a name that is also a system program, a usage flag)
    "npx -y @someone/mcp-server-notes",
    "npx -y @someone/cli install other-server --client claude",
    "bunx cowsay hi",
    "npx left-padd --version",
    "uvx left-padd --help",
])
def test_a_package_a_runner_fetches_by_name_is_judged_as_an_install(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.CONFIRM, got.rules
    assert {"confirm.shell.install", "confirm.shell.unknown-program"} & set(got.rules), got.rules


@pytest.mark.parametrize("command", [
    "uv pip install requests",
    "uv run --with requests python x.py",
    "uvx --with requests ruff check .",
    "npx -p typescript tsc --version",
])
def test_widely_used_packages_fetched_by_a_runner_pass_when_known_packages_may(command: str) -> None:
    passes_only_when_known_packages_pass(command)


@pytest.mark.parametrize("command", ["uv run format D: /q /y", "pnpm exec format D: /q", "yarn format E: /q"])
def test_a_task_name_given_a_drive_is_the_system_program(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.BLOCK and "block.shell.disk-destruction" in got.rules, got.rules


@pytest.mark.parametrize("command", ["uv run format", "pnpm format", "poetry run install", "uv run serve --port 8000"])
def test_a_projects_own_task_passes(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW
