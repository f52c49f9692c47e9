"""A named folder in /tmp or /var/tmp, written out, is scratch space: deleting it passes. The directory itself, a
wildcard over it, a trailing slash that follows a link, and the desktop's and services' session folders ask."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()


def _decide(command: str) -> str:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}), Observation()).decision.value


@pytest.mark.parametrize("command", [
    "rm -rf /tmp/build", "rm -rf /var/tmp/cache-x", "rm -r /tmp/pytest-of-user",
])
def test_a_scratch_folder_is_deleted_without_asking(command: str) -> None:
    assert _decide(command) == "allow", command


@pytest.mark.parametrize("command", [
    "rm -rf /tmp", "rm -rf /tmp/*", "rm -rf $TMPDIR", "rm -rf /tmp/build/*",
    "rm -rf /tmp/h/", "ln -s ~ /tmp/h && rm -rf /tmp/h/", "rm -rf /tmp/h/.",  # a trailing slash follows a link
    "rm -rf /tmp/.X11-unix", "rm -rf /tmp/tmux-1000", "rm -rf /tmp/ssh-AbCd1234", "rm -rf /tmp/systemd-private-x",
    "rm -rf $TMPDIR/../var",
    'rm -rf "$TMPDIR/unit-run"',  # the variable is whatever was set before (`export TMPDIR=~`)
    'echo "$(rm -rf /tmp/scratch-out)"',  # hidden inside another command's substitution
])
def test_the_directory_itself_links_and_session_folders_still_ask(command: str) -> None:
    assert _decide(command) in ("confirm", "block"), command


def test_climbing_out_of_tmp_blocks() -> None:
    assert _decide("rm -rf /tmp/../etc") == "block"
    assert _decide("rm -rf /tmp/x/../../home/someone") == "block"


def test_a_temporary_directory_variable_set_elsewhere_is_not_trusted() -> None:
    action = {"type": "shell", "command": 'rm -rf "$TMPDIR/Documents"', "env": {"TMPDIR": "/home/someone"}}
    assert GATE.assess(action_from_dict(action), Observation()).decision.value != "allow"


@pytest.mark.parametrize("command", [
    "mv ~/Photos /tmp/p", "mv ~/Notes/plan.md /tmp/", "mv $HOME/Desktop/* /var/tmp/",
    "mv /home/sam/thesis /dev/shm/t", "mv -t /tmp ~/Recordings",
])
def test_moving_the_persons_files_into_a_folder_the_system_empties_asks(command: str) -> None:
    # nothing is deleted yet, but /tmp is emptied at restart, and a later `rm -rf /tmp/p` looks like scratch
    assert _decide(command) == "confirm", command


@pytest.mark.parametrize("command", [
    "mv ~/Photos ~/Pictures/2019", "mv /tmp/a /tmp/b", "mv ./dist /tmp/dist-old", "mv ~/.cache/yarn /tmp/y",
    "mv ~/code/app/node_modules /tmp/nm",
])
def test_moves_within_the_home_of_scratch_and_of_build_output_pass(command: str) -> None:
    assert _decide(command) == "allow", command


@pytest.mark.parametrize("command", ["rm -rf ..", "rm -rf ../*", "rm -r ../../", "rm -fr ../.", "rm -rf ../../.."])
def test_deleting_the_folder_that_holds_the_working_directory_blocks(command: str) -> None:
    # every project beside this one goes with it
    assert _decide(command) == "block", command


@pytest.mark.parametrize("command", ["rm -rf ../build", "rm ../notes.txt", "rmdir .."])
def test_a_named_folder_beside_it_still_only_asks(command: str) -> None:
    assert _decide(command) in ("confirm", "allow"), command
