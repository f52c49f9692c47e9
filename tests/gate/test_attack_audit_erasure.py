"""Erasing or emptying deskgate's audit log without naming it: a glob the shell expands to its directory, a
`find` that deletes or truncates what it finds there, interpreter code that removes a tree holding it
(gate/rules/shell_effects.py `supervisor_parent`, `_glob_reaches`, `_find_reaches`). The same shapes aimed
elsewhere keep their decision."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())
RULE = "block.shell.supervisor-tamper"


def judge(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "rm -rf ~/.local/share/*", "rm -rf ~/.local/state/d*", "rm -rf ~/.local/*/deskgate",
    "truncate -s 0 ~/.local/share/desk?ate/audit.db",
    "find ~ -name '*.db' -delete", "find ~/.local -iname 'AUDIT*' -exec truncate -s0 {} +",
    "find / -name audit.key -exec shred -u {} \\;", "find ~/.local/state -type f -delete",
    "python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~/.local/state'))\"",
    "node -e \"require('fs').rmSync('/home/me/.local/share', {recursive: true})\"",
])
def test_the_audit_log_reached_through_a_parent_blocks(command: str) -> None:
    got = judge(command)
    assert got.decision is Decision.BLOCK and RULE in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "rm -rf ~/.cache/*", "rm -rf ./build/*", "rm -f *.log", "find ~ -name '*.pyc' -delete",
    "find . -name '*.db' -delete", "find ~/projects -name '*.sqlite' -delete", "find ~/.cache -atime +30 -delete",
    "find ~/.local/share -name '*.tmp'", "ls ~/.local/share/*",
    "python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~/.cache/pip'))\"",
])
def test_the_same_shapes_elsewhere_keep_their_decision(command: str) -> None:
    assert RULE not in judge(command).rules, command
