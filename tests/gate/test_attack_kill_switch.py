"""Undoing the person's kill switch or pause without typing `deskgate`: its command line run as a module of
its package, its script handed to the interpreter, its code imported (gate/rules/shell_effects.py
`supervisor`). Its read-only verbs, and another project's modules, keep their decision."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())
RULE = "block.shell.supervisor-tamper"


def judge(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "python3 -m app.cli.main resume", "python -m app.cli unpause",
    "/opt/tools/venv/bin/python3 /opt/tools/venv/bin/deskgate resume",
    "python3 ~/.local/bin/deskgate log prune --days 0",
    "python3 -c \"from app.cli.main import main; main(['unpause'])\"",
])
def test_the_kill_switch_undone_through_the_interpreter_blocks(command: str) -> None:
    got = judge(command)
    assert got.decision is Decision.BLOCK and RULE in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "python3 -m app.cli.main status", "python3 ~/.local/bin/deskgate log verify",
    "python3 -m app.main resume",  # another project's module
    "python3 -c \"from app.cli import build_parser; print(build_parser())\"",
])
def test_reading_verbs_and_other_projects_keep_their_decision(command: str) -> None:
    assert RULE not in judge(command).rules, command
