"""deskgate's own audit log, kill state and policy listed by one program and destroyed by another: `find … |
xargs rm`, `-print0 | xargs -0 shred`, `ls … | xargs rm`, `fd … -x|-X rm`, `… | parallel rm`, `Get-ChildItem …
| Remove-Item`. Each blocks as `find … -delete` does (gate/rules/shell_context.py `fed_own_files`); the same
pipelines over a project's own files keep their decision."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "find ~/.local/share/deskgate -type f | xargs rm -f",  # the data folder itself
    "find ~/.local/share/deskgate -type f | xargs -I{} rm {}",
    "find ~/.local/share/deskgate -print0 | xargs -0 shred -zu",
    "find ~/.local/share -iname 'AUDIT.DB*' -print0 | xargs -0 rm",  # a parent, with a name test that matches
    "find ~ -name 'killed.*' | xargs rm",  # the whole home, with a name test that matches
    "find ~/.local/state -path '*deskgate*' | xargs unlink",
    "find $XDG_DATA_HOME/deskgate -type f | xargs truncate -s 0",  # a folder named by its variable
    'find "${XDG_STATE_HOME:-$HOME/.local/state}/deskgate" -type f | xargs rm',
    "find ~/.local/share/deskgate -type f | xargs -I% sh -c 'rm %'",  # through a shell
    "find ~/.local/share/deskgate -type f | xargs mv -t /tmp/old",  # moved away
    "ls ~/.local/share/deskgate/* | xargs rm",  # a listing of its files
    "ls -d ~/.local/state/deskgate | xargs rm -r",
    "echo ~/.config/deskgate/policy.toml | xargs -n1 shred",
    "fd . ~/.local/share/deskgate -x rm",  # fd's own exec flags
    "fd audit ~/.local/share -X rm",
    "fd -e db . ~/.local/share --exec-batch shred -u",
    "fdfind -H -g 'killed.json' ~/.local -x rm {}",
    "find ~/.local/share/deskgate -type f | parallel rm",  # GNU parallel fed by a pipe
    "find ~/.local/share/deskgate -print0 | parallel -0 shred -u {}",
    "locate audit.db | xargs rm",  # the file index
    "rg --files ~/.local/share | xargs rm",
    "gci -Path ~/.local/share -Filter audit.db* -Recurse | Remove-Item",  # PowerShell's pipeline
    "find ~/.local/share/deskgate -type f > /tmp/l; xargs rm < /tmp/l",  # the list kept in a file on the way
    "find ~/.local/state/deskgate -type f > /tmp/l && xargs -a /tmp/l shred -u",
])
def test_own_files_listed_and_destroyed_block(command: str) -> None:
    got = assess(command)
    assert got.decision is Decision.BLOCK and "block.shell.supervisor-tamper" in got.rules, (command, got.rules)


def test_own_files_listed_and_read_block_as_a_read() -> None:
    got = assess("find ~/.local/share/deskgate -type f | xargs cat")
    assert got.decision is Decision.BLOCK and "block.shell.supervisor-read" in got.rules, got.rules


@pytest.mark.parametrize("command", [
    "find ./build -name '*.o' | xargs rm",  # a project's own files
    "find . -name '*.pyc' -print0 | xargs -0 rm -f",
    "find ~ -name '*.pyc' -print0 | xargs -0 rm -f",  # a name deskgate's files never carry
    "find ~/.local/share -name '*.desktop' | xargs rm",
    "ls *.log | xargs rm",
    "fd -e pyc . ~/.local/share -X rm",
    "parallel rm ::: a.tmp b.tmp",
    "gci -Path ~/.local/share -Filter *.txt -Recurse | Remove-Item",
    "find ./build -name '*.o' > /tmp/l; xargs rm < /tmp/l",
])
def test_the_same_pipelines_over_other_files_keep_their_decision(command: str) -> None:
    got = assess(command)
    assert got.decision is not Decision.BLOCK and "block.shell.supervisor-tamper" not in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "find ~/.local/share/deskgate -name '*.db' | xargs ls -l",  # listed, only looked at
    "fd . src -x wc -l",
])
def test_a_listing_fed_to_a_program_that_only_looks_passes(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW, command
