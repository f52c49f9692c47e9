"""One list of secret places for file actions and shell reads: what `cat` asks or blocks for, a `file_read`
asks or blocks for too, and the logins of coding agents, VPNs, Wi-Fi and domain controllers are credentials."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict, default_policy

GATE = SafetyGate()


def _read(path: str) -> str:
    return GATE.assess(action_from_dict({"type": "file_read", "path": path}), Observation()).decision.value


def _cat(path: str) -> str:
    return GATE.assess(action_from_dict({"type": "shell", "command": f"cat '{path}'"}), Observation()).decision.value


CREDENTIALS = [
    "~/.claude/.credentials.json", "~/.codex/auth.json", "~/.config/github-copilot/hosts.json",
    "~/.config/solana/id.json", "/etc/wireguard/wg0.conf", "/etc/NetworkManager/system-connections/Office.nmconnection",
    "~/.purple/accounts.xml", "/etc/krb5.keytab", "~/.vnc/passwd", "~/.mylogin.cnf", "~/infra/.vault_pass",
    "/etc/ssl/private/site.key.bak", "~/.pulumi/credentials.json", "~/.config/composer/auth.json",
    "/usr/local/samba/private/smbpasswd", "/srv/tomcat9/conf/tomcat-users.xml", "/data/mysql/mysql/user.MYD",
    "/etc/mysql/debian.cnf",
]


@pytest.mark.parametrize("path", CREDENTIALS)
def test_logins_and_private_keys_block_as_a_file_read_and_as_a_shell_read(path: str) -> None:
    assert _read(path) == "block", path
    assert _cat(path) == "block", path


@pytest.mark.parametrize("path", [
    "C:\\Windows\\NTDS\\ntds.dit", "C:\\Windows\\System32\\config\\RegBack\\SAM", "C:\\Windows\\repair\\SYSTEM",
    "C:\\ProgramData\\Microsoft\\Crypto\\RSA\\MachineKeys\\6de9cb26d2b98c01",
])
def test_windows_password_databases_and_key_stores_block(path: str) -> None:
    assert _read(path) == "block", path


@pytest.mark.parametrize("path", [
    "~/.config/rclone/rclone.conf", "~/.s3cfg", "~/.boto", "~/.config/hub", "~/.m2/settings.xml",
    "~/.gradle/gradle.properties", "~/.config/ngrok/ngrok.yml", "~/.dbt/profiles.yml", "~/.kube/config-staging",
    "~/.histfile", "/Users/ana/Library/Messages/chat.db", "~/Library/Application Support/com.apple.TCC/TCC.db",
    "C:\\Users\\ana\\NTUSER.DAT", "~/.config/filezilla/sitemanager.xml", "/etc/mysql/my.cnf",
    "/var/www/html/wp-config.php",
])
def test_settings_that_keep_a_password_beside_them_ask(path: str) -> None:
    assert _read(path) in ("confirm", "block"), path


def test_a_place_only_the_shell_list_names_is_a_sensitive_file_too() -> None:
    """The file rules read `shell.secret_paths`: a place added there for `cat` needs no second entry."""
    policy = default_policy()
    assert any("s3cfg" in p for p in policy.shell.secret_paths)
    assert not any("s3cfg" in p for p in (*policy.files.sensitive, *policy.files.credentials))
    assert _read("~/.s3cfg") == "confirm"
    assert _read("~/.config/doctl/config.yaml") == "confirm"


@pytest.mark.parametrize("path", [
    "~/project/gradle.properties", "~/project/settings.xml", "~/project/docs/history.md", "/etc/hostname",
    "~/project/vault.py", "~/project/wireguard/README.md", "~/project/deploy/netplan-example.md",
    "~/project/src/kube_config.py",
])
def test_project_files_of_the_same_names_pass(path: str) -> None:
    assert _read(path) == "allow", path
