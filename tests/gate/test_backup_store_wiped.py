"""Every backup of one of the machine's stores deleted at once (gate/rules/shell_backup_wipe.py) blocks as wiping
shadow copies does; pruning by age, one archive, or a project's own folder is judged as before."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "rm -rf /srv/backups/*",
    "rm -f /var/lib/vz/dump/vzdump-lxc-*",
    "find /volume1/backup -name '*.tar.gz' -delete",
    "find /mnt/nas/dumps -type f -exec rm -f {} +",
])
def test_every_backup_of_a_store_deleted_blocks(command: str) -> None:
    a = assess(command)
    assert a.decision.value == "block" and "block.shell.mass-destruction" in a.rules, a


@pytest.mark.parametrize("command", [
    "find /srv/backups -name '*.tar.gz' -mtime +30 -delete",
    "rm /srv/backups/db-2024-01-01.sql.gz",
    "rm -rf backups/*",
    "rm -rf /tmp/build/*",
])
def test_pruning_one_archive_or_a_projects_folder_does_not(command: str) -> None:
    assert "block.shell.mass-destruction" not in assess(command).rules
