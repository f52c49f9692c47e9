"""A click named as a menu path ("Settings > Privacy > Location > Turn off"): the last step is the control, the
steps before it the page it is on. And the dialogs of the system's own updater, blocking someone who writes to
the person, and a domain's name servers handed elsewhere. Examples are our own, each with a near miss."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.consequence import system_update
from gate.model import Decision, Observation
from gate.rules.base import Context
from gate.rules.gui import menu_path

GATE = SafetyGate()


def click(label: str, url: str = ""):
    data: dict = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url))


def path_of(label: str):
    ctx = Context(action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": label}}), None,
                  GATE.compiled, None)
    return menu_path(ctx)


def test_a_path_is_read_as_its_last_step_on_the_page_before_it():
    path = path_of("Preferences › Security › Login approvals › Turn off")
    assert path is not None
    assert path.control == "turn off"
    assert "turn off login approvals" in path.readings
    assert path.page == "settings:/preferences/security/login-approvals"


@pytest.mark.parametrize("label", ["Save", "Next >", "a > b", "Price > 100", "> Settings", "Settings >"])
def test_a_label_that_is_no_path_is_left_alone(label):
    # a lone step, a comparison ("a > b" has one-letter steps, read as a path, but no control commits there),
    # or a dangling separator
    path = path_of(label)
    assert path is None or not click(label).rules


@pytest.mark.parametrize("label", [
    "Account Center > Password and security > Two-factor authentication > Turn off",
    "Profile > Security > 2-Step Verification > Disable",
    "Settings > Security > Sign-in alerts > Turn off",
    "Security > Game Guard > Remove authenticator", "Account > Login approvals > Disable",
])
def test_turning_off_a_second_factor_through_a_path_blocks(label):
    got = click(label)
    assert got.decision is Decision.BLOCK and "block.gui.protection-off" in got.rules, got


@pytest.mark.parametrize("label", [
    "Settings > Security > Two-factor authentication > Set up",
    "Settings > Security > Sign-in alerts > Turn on",
    "Settings > Notifications > Turn off",
    "Security > Authenticator app > Set up", "Security > Authenticator > Add another authenticator",
])
def test_turning_a_second_factor_on_or_muting_notifications_does_not_block(label):
    assert click(label).decision is not Decision.BLOCK


@pytest.mark.parametrize(("label", "kind"), [
    ("Windows Security > Firewall & network protection > Public network > Defender Firewall: Off", None),
    ("Community Settings > Roles > @members > Administrator (on)", "permissions and access"),
    ("Settings > Security > Device admin apps > Activate 'Remote Helper'",
     "administrator rights or a standing permission"),
    ("Company > Account settings > Advanced > Closing date: off", "data retention or privacy"),
    ("My domains > example.org > Nameservers > Change", "where a domain's traffic and mail go"),
    ("DNS > Name servers > Use my own nameservers: ns1.other-host.example", "account security"),
])
def test_a_consequential_last_step_asks(label, kind):
    got = click(label)
    assert got.decision is not Decision.ALLOW and "confirm.gui.consequential" in got.rules, got
    assert kind is None or kind in got.reason, got.reason


@pytest.mark.parametrize("label", [
    "Settings > Display > Brightness", "File > Save As", "View > Zoom in", "Edit > Preferences > Appearance > Dark",
    "Settings > Sound > Output volume (on)", "Community Settings > Roles > @members > Send messages (on)",
    "Settings > Apps > Default apps > Web browser", "Format > Text > Bold",
])
def test_ordinary_paths_pass(label):
    got = click(label)
    assert got.decision is Decision.ALLOW, got


# -- the system's own updater ------------------------------------------------------------------------------


@pytest.mark.parametrize(("label", "url"), [
    ("Software Updater > Install Now", ""), ("System Settings > General > Software Update > Update Now", ""),
    ("Install now", "ms-settings:windowsupdate"), ("Update and restart", ""), ("Restart and update", ""),
    ("Update and shut down", ""), ("Install", "https://play.google.com/store/apps/details?id=org.example.notes"),
])
def test_installing_the_systems_own_updates_passes(label, url):
    assert click(label, url).decision is Decision.ALLOW, click(label, url)


@pytest.mark.parametrize(("label", "url"), [
    ("Install now", ""), ("Restart and update", "https://browser-update.example.net/chrome"),
    ("Install now", "https://codec-pack.example.org/player"), ("Downloads > Player Setup > Install Now", ""),
    ("Install", "https://chromewebstore.google.com/detail/example-helper/abc"),  # an extension reads every page
    ("Install", "https://apps.example.net/store/apps/details?id=x"),
])
def test_an_install_outside_the_updater_still_asks(label, url):
    assert click(label, url).decision is Decision.CONFIRM, click(label, url)


def test_system_update_reads_the_page_and_the_answer():
    assert system_update("install now", "ms-settings:windowsupdate")
    assert not system_update("install now", "https://updates.example.net/windowsupdate")
    assert system_update("update and restart", "")
    assert not system_update("update and restart", "https://example.net/")


# -- blocking someone who writes to the person --------------------------------------------------------------


@pytest.mark.parametrize("label", ["Block contact", "Block this caller", "Block number", "Block sender"])
def test_blocking_whoever_writes_to_the_person_passes(label):
    assert click(label).decision is Decision.ALLOW, click(label)


@pytest.mark.parametrize("label", ["Ban user", "Block this member", "Remove contact", "Unfriend"])
def test_banning_or_removing_people_still_asks(label):
    assert click(label).decision is Decision.CONFIRM, click(label)


# -- a domain's name servers ------------------------------------------------------------------------------


@pytest.mark.parametrize("label", ["Use custom nameservers", "Enter my own name servers",
                                   "Switch to third-party DNS servers"])
def test_handing_a_domains_name_servers_elsewhere_asks(label):
    assert click(label).decision is Decision.CONFIRM, click(label)


@pytest.mark.parametrize("label", ["Use default nameservers", "View nameservers", "Nameservers"])
def test_looking_at_or_restoring_the_name_servers_passes(label):
    assert click(label).decision is Decision.ALLOW, click(label)


# -- a page's own dialog answered, and a second factor's own settings page -----------------------------------


@pytest.mark.parametrize("label", ["Accept dialog: 'Leave site? Changes you made may not be saved.'",
                                   "Accept dialog: 'Reload site?'", "Dismiss alert: 'Your changes were saved'"])
def test_answering_a_pages_leave_or_notice_dialog_passes(label):
    assert click(label).decision is Decision.ALLOW, click(label)


def test_answering_a_dialog_that_deletes_still_asks():
    got = click("Accept dialog: 'Permanently delete all 12 drafts?'")
    assert got.decision is Decision.CONFIRM, got


@pytest.mark.parametrize(("label", "url"), [
    ("Turn off", "https://id.example.com/settings/security/two-factor"),
    ("Disable", "https://passwords.example.org/#/settings/security/two-step-login"),
    ("Turn off", "https://example.net/account/mfa"),
])
def test_a_bare_off_on_a_second_factors_page_blocks(label, url):
    got = click(label, url)
    assert got.decision is Decision.BLOCK and "block.gui.protection-off" in got.rules, got


@pytest.mark.parametrize(("label", "url"), [
    ("Turn off", "https://id.example.com/settings/notifications"),
    ("Turn off", "https://example.com/blog/why-2fa-matters"),
    ("Set up", "https://id.example.com/settings/security/two-factor"),
])
def test_the_same_words_elsewhere_or_setting_up_do_not_block(label, url):
    assert click(label, url).decision is not Decision.BLOCK


# -- the last two steps: a choice the step before asks for, a question answered ---------------------------------


@pytest.mark.parametrize("label", [
    "Admin console > Roles > Assign role > Organization Owner",  # the choice the step before asks for
    "Recycle Bin > Delete all items > Yes",  # the question answered
    "File > Send to > Mail recipient (every file in ~/Documents/Tax)",
])
def test_the_step_before_the_last_says_what_it_does(label):
    assert click(label).decision is Decision.CONFIRM, click(label)


@pytest.mark.parametrize("label", [
    "Recycle Bin > Delete all items > Cancel", "Edit > Delete > Cancel",
    "Privacy > Direct messages > Allow messages from friends", "Games > Library > Install",
    "Preferences > Store > Get",
])
def test_a_declined_question_a_privacy_switch_or_a_store_install_passes(label):
    assert click(label).decision is Decision.ALLOW, click(label)


def test_adding_a_dns_record_opens_its_form_and_passes():
    # the record's value is typed into the form and judged there (`confirm.gui.setting-value`)
    got = click("Add record", "https://dns.example.com/zones/example.org/dns/records")
    assert got.decision is Decision.ALLOW, got
    assert click("Save", "https://dns.example.com/zones/example.org/dns/records").decision is Decision.CONFIRM
