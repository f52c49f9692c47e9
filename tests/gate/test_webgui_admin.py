"""Administration in self-hosted web apps (a forge's merge, a forum's backups, a chat server's users, a registry's
releases) asks; reading those pages, a form's next step and a budgeting app's ledger account do not block."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

_GATE = SafetyGate()


def click(label: str, title: str = "", page: str = "") -> str:
    action = action_from_dict({"type": "click", "x": 10, "y": 10, "target": {"label": label}})
    return _GATE.assess(action, Observation(url=page, window_title=title)).decision.value


@pytest.mark.parametrize(("label", "title", "page"), [
    ("Create merge commit", "Add parser - Pull Request #12 - Forgejo", ""),
    ("Create squash commit", "Add parser - Pull Request #12 - Forgejo", ""),
    ("Fast-forward only", "Add parser - Pull Request #12 - Forgejo", ""),
    ("Merge pull request", "Add parser #12 - GitHub", ""),
    ("Pull Request zusammenführen", "Parser #12", ""),
    ("Fusionner la demande de fusion", "Parser !12 - GitLab", ""),
    ("Create User Account", "New account - Site Administration - Forge", ""),
    ("Make administrator", "Users - Admin - Chat", ""),
    ("Enable read-only mode", "Settings - Admin - Forum", ""),
    ("Disable read-only mode", "Backups - Admin - Forum", ""),
    ("Yes, purge them!", "Purge history - Chat", ""),
    ("Prune", "Prune messages - Chat", ""),
    ("Restore", "Backups - Admin - Forum", "https://forum.example.org/admin/backups"),
    ("Restore backup", "Admin - Wiki", ""),
    ("Is site admin", "Edit user - Admin", "https://git.example.org/admin/users/7/edit"),
    ("Administrator", "Ann - Photos", "https://photos.example.org/admin/users/4f1c"),
    ("Two-factor authentication via SMS", "Security - Chat", "https://chat.example.org/account/security"),
    ("Set up two factor authentication", "Account settings - Registry", "https://registry.example.org/manage/account/"),
    ("Yank release", "Release 2.0 - Registry", "https://registry.example.org/manage/project/demo/release/2.0/"),
    ("Unpublish package", "demo - Registry", ""),
    ("Transfer project", "demo settings - Registry", ""),
])
def test_site_administration_asks(label: str, title: str, page: str) -> None:
    assert click(label, title, page) == "confirm"


@pytest.mark.parametrize(("label", "title", "page"), [
    ("View merge commit", "Add parser - Pull Request #12 - Forgejo", ""),
    ("Merge requests", "Parser - GitLab", ""),
    ("Continue reading", "Blog - Admin - Forum", ""),
    ("Continue", "New API key - Admin - Forum", ""),           # the form's next page; the key is made later
    ("Next", "Create webhook - Admin", ""),
    ("Users", "Site Administration - Forge", ""),
    ("Backups", "Admin - Forum", ""),
    ("Download", "Backups - Admin - Forum", "https://forum.example.org/admin/backups"),
    ("Submit name", "Upload files to Shared - Cloud", ""),    # a guest's name given before an upload
    ("Restore", "Untitled - Notepad", ""),                   # a window's restore button
    ("Security", "Account - Chat", "https://chat.example.org/account"),
    ("Two-step verification", "Security - Chat", "https://chat.example.org/account/security"),  # the section's name
])
def test_reading_admin_pages_passes(label: str, title: str, page: str) -> None:
    assert click(label, title, page) == "allow"


def test_continue_still_answers_an_elevation_prompt() -> None:
    assert click("Continue", "User Account Control") == "confirm"


@pytest.mark.parametrize(("label", "title"), [
    ("Close account", "Savings - Actual Budget"),
    ("Close account", "Credit card - YNAB"),
    ("Delete account", "Accounts - GnuCash"),
    ("Remove account", "Account Settings - Thunderbird"),
])
def test_ledger_or_client_account_asks_not_blocks(label: str, title: str) -> None:
    assert click(label, title) == "confirm"


@pytest.mark.parametrize(("label", "page"), [
    ("Delete account", "https://social.example.com/settings/account"),
    ("Close account", "https://mail.example.com/settings/account"),
])
def test_own_online_account_deletion_still_blocks(label: str, page: str) -> None:
    assert click(label, page=page) == "block"
