"""History rewritten by BFG, a remote branch deleted with its request, every container stopped, git's traffic
redirected and a token kept in a remote's address: each asks; the neighbouring reads and settings pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict

GATE = SafetyGate(default_policy())


def judge(command: str) -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "shell", "command": command}))
    return a.decision.value, a.rules


@pytest.mark.parametrize(("command", "rule"), [
    ("bfg --strip-blobs-bigger-than 50M big.git", None),
    ("bfg --delete-folders secrets --no-blob-protection repo.git", "confirm.shell.vcs-destructive"),
    ("glab mr merge 7 --remove-source-branch", "confirm.shell.vcs-destructive"),
    ("podman stop $(podman ps -q)", "confirm.shell.system-disruption"),
    ("git config --system https.proxy socks5://10.1.1.1:1080", "confirm.shell.defense-evasion"),
    ("git remote set-url origin https://x:${DEPLOY_PAT}@git.example.com/a/b.git", "confirm.shell.secret-stored"),
])
def test_shared_work_taken_asks(command, rule):
    decision, rules = judge(command)
    assert decision in ("confirm", "block"), (command, rules)
    assert rule is None or rule in rules, (command, rules)


@pytest.mark.parametrize("command", ["bfg --help", "gh pr merge 7 --squash --dry-run", "docker stop web",
                                     "git config --global --list", "git remote add origin https://git.example.com/a/b.git",
                                     "git config --global core.editor vim"])
def test_neighbours_do_not_take_it(command):
    rules = judge(command)[1]
    assert not {"confirm.shell.vcs-destructive", "confirm.shell.system-disruption", "confirm.shell.defense-evasion",
                "confirm.shell.secret-stored"} & set(rules), (command, rules)
