"""A password manager's own window (KeePassXC, Bitwarden, 1Password, a web vault): its "Copy password", "Show",
"Copy TOTP" and "Auto-Type" buttons and the keys that do the same put a stored secret on the screen, the clipboard
or into another window, and ask. The same words and keys elsewhere, and the vault's other buttons, pass. Mail and
chat windows: Ctrl+Enter in any mail client window sends, and Enter in a team chat's channel sends."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def click(label: str, app: str = "", title: str = "", url: str = ""):
    return GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}}),
                       Observation(app=app, window_title=title, url=url))


def key(keys: str, app: str = "", title: str = ""):
    return GATE.assess(action_from_dict({"type": "key", "keys": keys.split("+")}),
                       Observation(app=app, window_title=title))


@pytest.mark.parametrize(("label", "app", "title", "url"), [
    ("Copy Password", "KeePassXC", "family.kdbx - KeePassXC", ""),
    ("Auto-Type", "KeePassXC", "family.kdbx - KeePassXC", ""),
    ("Show password", "Bitwarden", "Bitwarden", ""),
    ("Copy one-time password", "1Password", "Home - 1Password", ""),
    ("Passwort kopieren", "KeePassXC", "privat.kdbx - KeePassXC", ""),
    ("Copy password", "", "My vault", "https://vault.bitwarden.com/#/vault"),
])
def test_revealing_a_stored_password_in_a_vault_asks(label: str, app: str, title: str, url: str) -> None:
    got = click(label, app, title, url)
    assert got.decision is Decision.CONFIRM and "confirm.gui.consequential" in got.rules, (label, got.rules)


@pytest.mark.parametrize(("label", "app", "title"), [
    ("Copy", "gedit", "notes.txt - gedit"), ("Lock database", "KeePassXC", "family.kdbx - KeePassXC"),
    ("Add entry", "KeePassXC", "family.kdbx - KeePassXC"), ("Show", "Files", "Downloads"),
])
def test_the_same_words_elsewhere_and_the_vaults_other_buttons_pass(label: str, app: str, title: str) -> None:
    assert click(label, app, title).decision is Decision.ALLOW, label


@pytest.mark.parametrize(("keys", "app", "title"), [
    ("ctrl+c", "KeePassXC", "family.kdbx - KeePassXC"), ("ctrl+shift+v", "KeePassXC", "family.kdbx - KeePassXC"),
    ("super+shift+c", "1Password", "1Password"), ("ctrl+t", "Bitwarden", "Bitwarden"),
])
def test_a_vaults_copy_and_auto_type_keys_ask(keys: str, app: str, title: str) -> None:
    got = key(keys, app, title)
    assert got.decision is Decision.CONFIRM and "confirm.gui.vault-key" in got.rules, (keys, got.rules)


@pytest.mark.parametrize(("keys", "app", "title"), [
    ("ctrl+c", "gedit", "notes.txt - gedit"), ("ctrl+v", "KeePassXC", "family.kdbx - KeePassXC"),
    ("ctrl+c", "Visual Studio Code", "secrets.yaml - Visual Studio Code"),
    ("ctrl+f", "KeePassXC", "family.kdbx - KeePassXC"),
])
def test_other_keys_and_other_windows_pass(keys: str, app: str, title: str) -> None:
    assert "confirm.gui.vault-key" not in key(keys, app, title).rules, keys


@pytest.mark.parametrize(("keys", "app", "title"), [
    ("ctrl+enter", "Thunderbird", "Inbox - Thunderbird"), ("ctrl+enter", "", "Inbox (4) - Gmail"),
    ("enter", "Larkspur", "#release-planning - Larkspur"), ("enter", "Ops Team Chat", "Ops"),
])
def test_send_keys_in_any_mail_window_and_a_chat_channel_ask(keys: str, app: str, title: str) -> None:
    got = key(keys, app, title)
    assert got.decision is Decision.CONFIRM and "confirm.gui.send-key" in got.rules, (keys, title, got.rules)


@pytest.mark.parametrize(("keys", "app", "title"), [
    ("ctrl+enter", "Visual Studio Code", "main.py - Code"), ("enter", "Terminal", "#1 - bash"),
    ("enter", "Thunderbird", "Inbox - Thunderbird"),
])
def test_the_same_keys_in_an_editor_a_terminal_or_a_mailbox_list_pass(keys: str, app: str, title: str) -> None:
    assert "confirm.gui.send-key" not in key(keys, app, title).rules, (keys, title)
