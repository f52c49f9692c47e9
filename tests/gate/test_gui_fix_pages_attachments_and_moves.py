"""Clicks that hand the desktop or the account to a page: a button that copies a "fix" and opens the Run dialog
or PowerShell (ClickFix), a web page or drawing opened as a mail attachment, a downloaded script run by a
program, an account moved to another one (resources/cues.toml, gate/rules/web.py). Examples are our own, written
from public reports on ClickFix and HTML-attachment phishing, office and 3D programs' own warnings about scripts
from outside, and fediverse servers' account-migration help; each has a trigger and a near miss."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str = "", window: str = ""):
    data: dict = {"type": "click", "x": 10, "y": 10, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=window))


ERROR_PAGE = "https://viewer-error.example-docs.net/fix/0x80070"
MAILBOX = "https://mail.example-webmail.com/inbox/77120"


@pytest.mark.parametrize("label", [
    "Copy the fix and open PowerShell",
    "Copy verification code, then open the Run dialog",
    "Copy repair script and press Win+R",
])
def test_a_button_that_copies_a_fix_and_opens_a_shell_blocks(label):
    got = click(label, ERROR_PAGE)
    assert got.decision is Decision.BLOCK and "block.gui.steering" in got.rules, (label, got.rules)


@pytest.mark.parametrize("label", ["Copy command", "Copy link and open in new tab", "Open terminal"])
def test_copying_or_opening_alone_passes(label):
    assert "block.gui.steering" not in click(label, "https://docs.example-tools.org/install").rules, label


@pytest.mark.parametrize("label", [
    "Open attachment (Remittance_0412.htm)",
    "Download statement.svg",
    "Payment_advice.html",
])
def test_a_web_page_opened_as_a_mail_attachment_asks(label):
    got = click(label, MAILBOX)
    assert got.decision is not Decision.ALLOW and "confirm.web.mail-page-attachment" in got.rules, (label, got.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Download report.pdf", MAILBOX),
    ("index.html", "https://code.example-git.org/acme/site/tree/main"),
    ("Open attachment (photo.jpg)", MAILBOX),
])
def test_a_document_or_a_page_file_elsewhere_passes(label, url):
    assert "confirm.web.mail-page-attachment" not in click(label, url).rules, label


@pytest.mark.parametrize(("label", "window"), [
    ("Scripting > Run Script (downloaded add-on 'grass_pack.py')", "Blender [~/scenes/park.blend]"),
    ("Run script from the internet (untrusted)", "GIMP"),
    ("Enable macro from unknown sender", "Budget.xlsm - LibreOffice Calc"),
])
def test_running_a_script_the_label_says_came_from_outside_asks(label, window):
    got = click(label, window=window)
    assert got.decision is Decision.CONFIRM and "confirm.gui.consequential" in got.rules, (label, got.rules)


def test_running_ones_own_script_passes():
    assert click("Run Script", window="Blender [~/scenes/park.blend]").decision is Decision.ALLOW


@pytest.mark.parametrize("label", ["Move to a different account", "Move followers to another account"])
def test_moving_the_account_to_another_asks(label):
    got = click(label, "https://social.example-fedi.org/settings/migration")
    assert got.decision is Decision.CONFIRM and "confirm.gui.consequential" in got.rules, (label, got.rules)


@pytest.mark.parametrize("label", ["Move to folder", "Move to trash", "Move card to Done"])
def test_moving_things_inside_the_account_passes(label):
    assert "confirm.gui.consequential" not in click(label, MAILBOX).rules, label
