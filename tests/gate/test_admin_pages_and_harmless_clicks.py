"""Clicks, keys and pages that only show, open a form or close something pass, and the step that makes a credential
still asks. Our own examples, written from the programs' documentation: a token list's "Create new token" opens the
form whose own "Save" or "Generate token" makes it; "Done" under a key shown once closes the dialog; Windows' own
updater and its secure-attention keys; a scare page's "Close tab"; a message moved to the trash in a mail or
messages program; a local server reached at 0.0.0.0 or [::]."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str = "", title: str = "", app: str = ""):
    data: dict = {"type": "click", "x": 10, "y": 10, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title, app=app))


def key(keys: list[str], app: str = "", title: str = ""):
    return GATE.assess(action_from_dict({"type": "key", "keys": keys}), Observation(app=app, window_title=title))


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation())


# -- a form for a new token or a new person is opened, not filled in ---------------------------------------------


@pytest.mark.parametrize(("label", "url"), [
    ("New API token", "https://cms.example.org/admin/settings/api-tokens"),
    ("Generate new token", "https://git.example.org/settings/tokens"),
    ("Create new deploy token", "https://git.example.org/group/-/settings/deploy_tokens"),
    ("Add a new user", "https://lms.example.edu/my/"),
    ("Create new member", "https://crm.example.com/dashboard"),
])
def test_a_button_that_opens_the_form_for_a_new_one_passes(label: str, url: str) -> None:
    assert click(label, url).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url", "title"), [
    # in the form itself its own button makes the token or adds the person
    ("Create new token", "https://git.example.org/settings/tokens/new", "New personal access token"),
    ("Add a new user", "https://lms.example.edu/user/editadvanced.php?id=-1", "Add a new user"),
    # a console's "Create new key" may make the key in its dialog
    ("Create new key", "https://console.cloud.example.com/iam/service-accounts/keys", ""),
    ("Add user", "https://admin.example.com/admin/users", ""),
])
def test_the_button_that_makes_it_still_asks(label: str, url: str, title: str) -> None:
    assert click(label, url, title).decision is not Decision.ALLOW


@pytest.mark.parametrize("url", [
    "https://cms.example.org/admin/settings/transfer-tokens/create",
    "https://git.example.org/group/-/settings/repository/deploy_tokens/new",
    "https://ci.example.com/user/api-keys/create",
])
def test_saving_the_form_that_makes_a_token_asks(url: str) -> None:
    got = click("Save", url)
    assert got.decision is Decision.CONFIRM, got.rules


def test_saving_an_ordinary_record_s_form_passes() -> None:
    assert click("Save", "https://cms.example.org/admin/content-manager/articles/create").decision is Decision.ALLOW


@pytest.mark.parametrize("url", [
    "https://cms.example.org/admin/settings/transfer-tokens/create",
    "https://git.example.org/settings/tokens/new",
    "https://analytics.example.org/admin/people",
    "https://analytics.example.org/admin/settings/authentication/api-keys",
])
def test_opening_a_settings_list_or_a_creation_form_passes(url: str) -> None:
    # a GET shows the page; the token is made by the form's own button, which asks
    assert nav(url).decision is Decision.ALLOW


# -- the dialog that shows a key just made ------------------------------------------------------------------------


@pytest.mark.parametrize(("label", "title"), [
    ("Done", "Copy and save this API key"),
    ("Close", "Your new personal access token"),
    ("Done", "Make sure to copy your token now. You won't be able to see it again!"),
    ("I've copied it", "API key created"),
])
def test_closing_the_dialog_that_shows_a_new_key_passes(label: str, title: str) -> None:
    got = click(label, "https://analytics.example.org/admin/settings/authentication/api-keys", title)
    assert got.decision is Decision.ALLOW, got.rules


@pytest.mark.parametrize(("label", "title"), [
    ("Save", "Copy and save this API key"),
    ("Done", "Create a new API key"),
])
def test_a_save_or_the_form_for_a_key_still_asks(label: str, title: str) -> None:
    got = click(label, "https://analytics.example.org/admin/settings/authentication/api-keys", title)
    assert got.decision is Decision.CONFIRM, got.rules


def test_a_prize_is_still_a_lure() -> None:
    assert "confirm.gui.page-speaks-to-agent" in click("OK", "", "You won a free iPhone! Claim it now").rules


# -- the system's own updater, its security screen ----------------------------------------------------------------


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Install all", "Windows Update", "Windows Settings"),
    ("Install now", "Software Updater", "update-manager"),
    ("Update now", "Software Update", "System Settings"),
])
def test_installing_the_system_s_own_updates_passes(label: str, title: str, app: str) -> None:
    assert click(label, "", title, app).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url", "title", "app"), [
    ("Install all", "https://fix-my-pc.example.top/update", "Windows Update", "Google Chrome"),
    ("Install now", "", "Setup - Media Player", "setup.exe"),
])
def test_an_update_on_a_web_page_or_an_installer_still_asks(label: str, url: str, title: str, app: str) -> None:
    assert click(label, url, title, app).decision is not Decision.ALLOW


@pytest.mark.parametrize("app", ["Windows", "explorer.exe", "Windows Security"])
def test_ctrl_alt_delete_on_windows_opens_its_security_screen(app: str) -> None:
    assert key(["ctrl", "alt", "delete"], app).decision is Decision.ALLOW


@pytest.mark.parametrize(("keys", "app"), [
    (["ctrl", "alt", "delete"], "gnome-shell"),  # a log-out dialog that logs out when its countdown ends
    (["ctrl", "alt", "delete"], ""),
    (["ctrl", "alt", "backspace"], "Windows"),
])
def test_the_same_keys_elsewhere_still_ask(keys: list[str], app: str) -> None:
    assert "confirm.gui.session-key" in key(keys, app).rules


# -- leaving a scare page, a message to the trash, a local server ---------------------------------------------------


@pytest.mark.parametrize("label", ["Close tab", "Close this window", "Close page"])
def test_closing_a_scare_page_passes(label: str) -> None:
    assert click(label, "", "WARNING: your computer is infected - call Microsoft").decision is Decision.ALLOW


def test_answering_a_scare_page_still_asks() -> None:
    assert click("Call now", "", "WARNING: your computer is infected").decision is not Decision.ALLOW


@pytest.mark.parametrize(("title", "app"), [("Messages", ""), ("Inbox - Thunderbird", ""),
                                             ("Weekly report", "Evolution")])
def test_a_message_moved_to_the_trash_in_its_program_passes(title: str, app: str) -> None:
    assert click("Delete", "", title, app).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "title"), [("Delete", "Customers - Sales CRM"), ("Delete all", "Messages")])
def test_a_record_or_every_message_deleted_still_asks(label: str, title: str) -> None:
    assert click(label, "", title).decision is Decision.CONFIRM


@pytest.mark.parametrize("url", ["http://0.0.0.0:8000/", "http://[::]:8080/mail/index.html"])
def test_a_local_server_at_the_unspecified_address_passes(url: str) -> None:
    assert nav(url).decision is Decision.ALLOW


def test_a_device_on_the_network_passes_and_a_link_that_writes_its_settings_asks() -> None:
    assert nav("http://192.168.50.1/").decision is Decision.ALLOW
    assert "confirm.web.ip-host" in nav("http://192.168.50.1/apply.cgi?action=save&ssid=guest").rules
