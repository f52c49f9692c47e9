"""A secret read through a glob or a substitution is a secret read: the shell hands the reader the file names
(`cat ~/.aws/*` prints ~/.aws/credentials; `cat $(ls ~/.ssh/id_*)` prints the keys it lists)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def verdict(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize(("command", "rule"), [
    ("cat ~/.aws/*", "block.shell.credential-read"),
    ("head -n 5 ~/.ssh/id_*", "block.shell.credential-read"),
    ("cat $(ls ~/.ssh/id_*)", "block.shell.credential-read"),
    ("cat `ls ~/.aws/*`", "block.shell.credential-read"),
    ("cat ~/.*", "block.shell.credential-read"),
    ("cat /etc/*", "block.shell.credential-read"),
    ("cat ~/.config/gh/*", "block.shell.credential-read"),  # (hosts.yml holds the token)
    ("cat /proc/$(pgrep sshd)/environ", "confirm.shell.secret-read"),
    ("cat .env*", "confirm.shell.secret-read"),
])
def test_secrets_reached_by_a_glob_or_a_substitution(command: str, rule: str) -> None:
    got = verdict(command)
    assert rule in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "cat *.md", "cat logs/*", "grep -rn TODO *", "cat .github/workflows/*", "cat /etc/*.conf",
    "cat $(git rev-parse --show-toplevel)/README.md", "cat build/$(date +%F).log", "ls ~/.ssh/*",
])
def test_ordinary_globs_and_substitutions_pass(command: str) -> None:
    got = verdict(command)
    assert got.decision is Decision.ALLOW, (command, got.rules, got.reason)
