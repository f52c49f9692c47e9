"""History taken from others: a force-push to a shared branch or a release tag refuses; a force-push of one's own
branch or with a lease asks; a reset that moves the branch back by several commits asks."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict

GATE = SafetyGate(default_policy())


def judge(command: str) -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "shell", "command": command}))
    return a.decision.value, a.rules


@pytest.mark.parametrize("command", [
    "git push --force origin master",
    "git push -f upstream develop",
    "git push origin +HEAD:main",
    "git push --force origin HEAD:refs/heads/release/2.3",
    "git push -f origin v2.0.1",
    "git rebase -i HEAD~4 && git push -fu origin trunk",
])
def test_force_push_to_shared_history_blocks(command):
    decision, rules = judge(command)
    assert decision == "block" and "block.shell.shared-history-rewrite" in rules, (command, rules)


@pytest.mark.parametrize("command", [
    "git push --force origin fix/login-timeout",
    "git push upstream trunk --force-with-lease",
    "git push --force",
    "git push --force --dry-run origin main",
    "git push upstream release/2.3",
])
def test_own_branch_lease_or_dry_run_does_not_block(command):
    decision, rules = judge(command)
    assert decision != "block", (command, rules)


@pytest.mark.parametrize("command", ["git reset HEAD~5", "git reset --soft HEAD~3", "git reset HEAD^^"])
def test_reset_back_several_commits_asks(command):
    decision, rules = judge(command)
    assert decision == "confirm" and "confirm.shell.vcs-destructive" in rules, (command, rules)


@pytest.mark.parametrize("command", ["git reset --soft HEAD~1", "git reset HEAD src/app.py", "git reset",
                                     "git reset HEAD^"])
def test_undoing_the_last_commit_or_unstaging_passes(command):
    assert judge(command)[0] == "allow", command
