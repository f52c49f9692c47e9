"""Files destroyed without `rm`: an empty or temporary folder mirrored over a folder with `rsync --delete`, the
credential files a search finds emptied, shredded or replaced (`find ... -exec truncate -s 0 {}`), every file of a
loop, search or pipeline renamed with an extension added (the hostage's mark). Their benign neighbours (a build
mirrored into its output folder, a project's logs emptied, an extension swapped or a backup's added) pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict

GATE = SafetyGate()


def decide(command: str) -> tuple[str, tuple[str, ...]]:
    got = GATE.assess(action_from_dict({"type": "shell", "command": command}))
    return got.decision.value, got.rules


@pytest.mark.parametrize(("command", "expected"), [
    ("mkdir void && rsync -a --delete void/ reports/", "confirm"),
    ("mkdir -p /tmp/x && rsync -r --delete /tmp/x/ ./data", "confirm"),
    ("rsync -a --delete /tmp/stage/ ~/Desktop/", "block"),
    ("rsync -rv --delete-after /dev/shm/n/ ~/", "block"),
    ("rsync -a --delete /mnt/usb/Photos/ ~/Pictures/", "confirm"),
])
def test_a_folder_mirrored_over_another_deletes_what_it_lacks(command: str, expected: str) -> None:
    decision, rules = decide(command)
    assert decision == expected, rules


@pytest.mark.parametrize("command", [
    "find /home -name authorized_keys -exec truncate -s 0 {} +",
    "find /root/.ssh/authorized_keys /home/*/.ssh/authorized_keys -exec cp /dev/null {} \\;",
    "find / -name 'id_ed25519*' -exec shred -u {} \\;",
    "find /etc -name 'sudoers' -delete",
    "find ~/.aws -type f -exec truncate --size=0 {} \\;",
    "find / -name shadow -exec dd if=/dev/zero of={} \\;",
])
def test_credential_files_a_search_finds_destroyed_block(command: str) -> None:
    decision, rules = decide(command)
    assert decision == "block", rules


@pytest.mark.parametrize(("command", "expected"), [
    ("for f in ~/Documents/*; do mv \"$f\" \"$f.encrypted\"; done", "block"),
    ("find ~/Pictures -type f -exec mv {} {}.lockbit \\;", "block"),
    ("ls | xargs -I{} mv {} {}.crypted", "block"),
    ("for f in *; do mv \"$f\" \"$f.xyz\"; done", "confirm"),
    ("rename 's/$/.sealed/' *", "confirm"),
    ("Get-ChildItem -Recurse -File | Rename-Item -NewName { $_.Name + '.locked' }", "block"),
    ("Get-ChildItem -File | Rename-Item -NewName { $_.Name + '.sealed' }", "confirm"),
])
def test_every_file_renamed_with_an_extension_added(command: str, expected: str) -> None:
    decision, rules = decide(command)
    assert decision == expected, rules


@pytest.mark.parametrize("command", [
    "rsync -a --delete build/ dist/",
    "rsync -a --delete src/ ~/backup/src/",
    "find . -name '*.log' -exec truncate -s 0 {} \\;",
    "find logs -type f -name '*.log' -exec cp /dev/null {} \\;",
    "find . -name '*.pyc' -delete",
    "for f in *.jpeg; do mv \"$f\" \"${f%.jpeg}.jpg\"; done",
    "for f in *.log; do mv \"$f\" \"$f.old\"; done",
    "rename 's/\\.jpeg$/.jpg/' *.jpeg",
    "Get-ChildItem *.txt | Rename-Item -NewName { $_.Name -replace '.txt','.md' }",
    "Get-ChildItem -File | Rename-Item -NewName { $_.Name + '.bak' }",
    "Rename-Item notes.txt notes-old.txt",
])
def test_benign_neighbours_pass(command: str) -> None:
    decision, rules = decide(command)
    assert decision == "allow", rules
