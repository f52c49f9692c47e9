"""A service's own settings in a system directory (resources/policy.toml `files.system_config`): writing one asks
(`confirm.files.system-config`), as `sudo tee` of the same file does. Account, privilege, startup and program files
in the same directories keep blocking, and so does deleting a service's settings."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def write(path: str, content: str = "x = 1\n"):
    return GATE.assess(action_from_dict({"type": "file_write", "path": path, "content": content}), Observation())


@pytest.mark.parametrize("path", ["/etc/nginx/sites-available/shop.conf", "/etc/apache2/conf-available/gzip.conf",
                                  "/etc/issue.net", "/etc/motd", "/etc/cups/cupsd.conf", "/etc/chrony/chrony.conf",
                                  "/usr/local/etc/privoxy/match-all.action", "/usr/local/etc/nginx/servers/a.conf"])
def test_a_services_settings_ask(path):
    got = write(path)
    assert got.decision is Decision.CONFIRM and "confirm.files.system-config" in got.rules, got.rules


@pytest.mark.parametrize("path", ["/etc/passwd", "/etc/sudoers.d/ops", "/etc/pam.d/login", "/etc/ssh/sshd_config",
                                  "/etc/cron.d/job", "/etc/profile.d/env.sh", "/etc/vim/vimrc", "/etc/hosts",
                                  "/etc/docker/daemon.json", "/usr/bin/ls", "/usr/local/etc/sudoers",
                                  "/usr/local/etc/php/8.3/php.ini", "/usr/local/etc/profile.d/x.sh",
                                  "/etc/nginx.bak/../ld.so.preload"])
def test_account_privilege_startup_and_program_files_still_block(path):
    assert write(path).decision is Decision.BLOCK, path


def test_deleting_a_services_settings_still_blocks():
    got = GATE.assess(action_from_dict({"type": "file_delete", "path": "/etc/nginx/nginx.conf"}), Observation())
    assert got.decision is Decision.BLOCK and "block.files.system-dir" in got.rules
