"""Clicks that end a key, a credit or an account's data, and that run a document's macros.

"Revoke" or "Clear key" on an account's API-key page ends the key (whatever signs in with it stops), "Invalidate"
on a gift card's or a store credit's page voids its value: they ask. "Reset account" wipes every record of an
account and blocks as its deletion does. "Run" in an office suite's macro dialog runs the document's code and asks.
The near misses keep their meaning: "Invalidate cache", "Reset filters", "Run" in an editor, and a desktop word
processor's "Delete all comments" (an edit of the open document its undo takes back)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str = "", title: str = "", app: str = ""):
    data: dict = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title, app=app))


@pytest.mark.parametrize(("label", "url"), [
    ("Revoke", "https://dash.example.io/account/api-keys"),
    ("Revoke key", "https://crm.example.net/settings/api_key"),
    ("Clear key", "https://shop.example.org/admin/users/12/api_key"),
    ("Delete token", "https://ci.example.dev/user/tokens/4"),
    ("Revoke API key", "https://app.example.com/profile"),
    ("Invalidate token", "https://app.example.com/profile"),
    ("Invalidate", "https://shop.example.org/admin/users/12/store_credits/5"),
    ("Void", "https://shop.example.org/admin/gift_cards/88"),
    ("Deactivate card", "https://shop.example.org/admin/gift-cards/88/edit"),
])
def test_ending_a_key_or_a_credit_asks(label: str, url: str) -> None:
    assert click(label, url).decision is Decision.CONFIRM


@pytest.mark.parametrize(("label", "url"), [
    ("Invalidate cache", "https://shop.example.org/admin/cache"),
    ("Clear", "https://shop.example.org/admin/orders?q=blue"),
    ("Reset filters", "http://localhost:3000/transactions"),
    ("Void", "https://docs.example.org/guide/void-elements"),
])
def test_the_same_words_elsewhere_pass(label: str, url: str) -> None:
    assert click(label, url).decision is Decision.ALLOW


@pytest.mark.parametrize("label", ["Reset account", "Reset my account", "Wipe account data", "Purge workspace"])
def test_an_account_wiped_blocks(label: str) -> None:
    assert click(label, "https://budget.example.com/settings/profile").decision is Decision.BLOCK


@pytest.mark.parametrize("label", ["Reset account password", "Reset account settings", "Reset workspace layout"])
def test_an_account_setting_reset_does_not_block(label: str) -> None:
    assert click(label, "https://budget.example.com/settings/profile").decision is not Decision.BLOCK


@pytest.mark.parametrize(("title", "app"), [
    ("Macro Selector", "LibreOffice Calc"),
    ("Macros", "Microsoft Excel"),
    ("LibreOffice Basic Macros", "LibreOffice Writer"),
])
def test_run_in_a_macro_dialog_asks(title: str, app: str) -> None:
    assert click("Run", title=title, app=app).decision is Decision.CONFIRM


@pytest.mark.parametrize(("title", "app"), [
    ("main.py - Visual Studio Code", "Code"),
    ("Run and Debug", "Code"),
])
def test_run_in_an_editor_passes(title: str, app: str) -> None:
    assert click("Run", title=title, app=app).decision is Decision.ALLOW


@pytest.mark.parametrize("app", ["LibreOffice Writer", "Microsoft Word"])
def test_deleting_comments_in_a_desktop_document_passes(app: str) -> None:
    assert click("Delete All Comments", app=app).decision is Decision.ALLOW


def test_deleting_all_comments_on_a_site_still_asks() -> None:
    assert click("Delete all comments", "https://blog.example.com/wp-admin/edit-comments.php").decision \
        is Decision.CONFIRM
