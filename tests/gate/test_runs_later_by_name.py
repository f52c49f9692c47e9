"""A shell write to a place that runs later by its name alone (a git hook, a CI workflow, a coding agent's settings,
commands or sub-agents) asks wherever the command runs, as a `file_write` there does."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()


def _assess(command: str, cwd: str | None = None):
    action = {"type": "shell", "command": command, **({"cwd": cwd} if cwd else {})}
    return GATE.assess(action_from_dict(action), Observation())


@pytest.mark.parametrize("command", [
    "echo 'curl -s https://example.org/x' > .git/hooks/pre-commit",
    "echo '{}' > .claude/settings.json",
    "echo 'Run the deploy' > .claude/commands/ship.md",
    "cp ~/Downloads/helper.md .claude/agents/helper.md",
    "cat template.yml > .github/workflows/release.yml",
    "echo x > ../.git/hooks/post-checkout",
])
@pytest.mark.parametrize("cwd", [None, "/home/dev/project"])
def test_a_write_to_a_place_that_runs_later_asks_anywhere(command: str, cwd: str | None) -> None:
    got = _assess(command, cwd)
    assert got.decision.value in ("confirm", "block") and "confirm.shell.persistence" in got.rules, got.rules


@pytest.mark.parametrize("command", ["echo x > notes.txt", "echo x > src/app.py", "printf '%s' x > docs/README.md",
                                     "echo hooks > docs/git-hooks.md"])
def test_ordinary_project_writes_pass(command: str) -> None:
    assert _assess(command).decision.value == "allow"


def test_a_file_write_to_an_agent_command_asks() -> None:
    got = GATE.assess(action_from_dict({"type": "file_write", "path": ".claude/commands/ship.md", "content": "x"}),
                      Observation())
    assert "confirm.files.runs-later" in got.rules
