"""A person's everyday errands read with their window: messengers, browser resets, bulk file tools, payees, gift
cards, screen sharing, browser updates from web pages and permission prompts a page asks for
(gate/rules/gui_errands.py)."""

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def clicked(label: str, title: str = "", app: str = "", url: str = "") -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}}),
                    Observation(window_title=title, app=app, url=url))
    return a.decision.value, a.rules


def typed(text: str, field: str, title: str, url: str = "") -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": field}}),
                    Observation(window_title=title, url=url))
    return a.decision.value, a.rules


@pytest.mark.parametrize(("text", "field", "title"), [
    ("j.rivera", "User ID", "Credit Union Sign In - remote support session"),
    ("5500 0000 0000 0004", "Card number", "Checkout (screen shared with Support Desk)"),
])
def test_login_typed_while_screen_shared_blocks(text, field, title):
    decision, rules = typed(text, field, title)
    assert decision == "block" and "block.gui.login-while-screen-shared" in rules


def test_login_typed_with_no_one_watching_is_not_that_rule():
    assert "block.gui.login-while-screen-shared" not in typed("j.rivera", "User ID", "Credit Union Sign In")[1]


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Update now", "Your Chrome is out of date", "https://recipes-daily.example.org/soup"),
    ("Download", "Firefox security update required", "https://weather.example.com/today"),
    ("Install", "Browser", "https://browser-update-now.example.net/"),
])
def test_browser_update_from_a_web_page_blocks(label, title, url):
    decision, rules = clicked(label, title, url=url)
    assert decision == "block" and "block.gui.fake-browser-update" in rules


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Download", "Download Firefox", "https://www.mozilla.org/firefox/new/"),
    ("Relaunch", "Settings - About Chrome", "chrome://settings/help"),
    ("Download", "Quarterly report", "https://intranet.example.com/reports"),
])
def test_vendor_update_or_ordinary_download_is_not_that_rule(label, title, url):
    assert "block.gui.fake-browser-update" not in clicked(label, title, url=url)[1]


def test_allow_pressed_because_the_page_said_so_blocks():
    decision, rules = clicked("Allow", "Tap Allow to continue to the download", url="https://files.example.net/get")
    assert decision == "block" and "block.gui.notification-lure-allow" in rules
    assert "block.gui.notification-lure-allow" not in clicked(
        "Allow", "mail.example.com wants to show notifications", url="https://mail.example.com/inbox")[1]


@pytest.mark.parametrize(("label", "title", "app"), [("Clear history", "", "WhatsApp"),
                                                     ("Delete", "Delete this conversation?", "Threema")])
def test_chat_deleted_in_a_messenger_without_trash_asks(label, title, app):
    assert "confirm.gui.chat-deleted" in clicked(label, title, app)[1]


@pytest.mark.parametrize(("label", "title", "app"), [("Delete", "Message options", "Signal"),
                                                     ("Archive chat", "", "Telegram Desktop"),
                                                     ("Delete conversation", "", "Outlook")])
def test_one_message_archive_or_mail_is_not_that_rule(label, title, app):
    assert "confirm.gui.chat-deleted" not in clicked(label, title, app)[1]


def test_browser_reset_asks_and_troubleshooting_passes():
    assert "confirm.gui.browser-reset" in clicked("Reset settings", "Reset settings?", "Microsoft Edge",
                                                  "edge://settings/reset")[1]
    assert "confirm.gui.browser-reset" not in clicked("Troubleshoot Mode…", "", "Firefox", "about:support")[1]


def test_bulk_file_tool_over_many_or_originals_asks():
    assert "confirm.gui.bulk-file-change" in clicked("Rename", "Bulk Rename Utility - 560 files selected")[1]
    assert "confirm.gui.bulk-file-change" in clicked("OK", "Image Resizer - overwrite the originals")[1]
    assert "confirm.gui.bulk-file-change" not in clicked("Rename", "Bulk Rename Utility - 3 files selected")[1]


def test_new_payee_asks_and_saved_payee_page_passes():
    assert "confirm.gui.new-payee" in clicked("Add payee", url="https://bank.example.com/billpay")[1]
    assert "confirm.gui.new-payee" not in clicked("View payees", url="https://bank.example.com/billpay")[1]


def test_gift_card_purchase_asks_and_redeem_passes():
    assert "confirm.gui.gift-card-purchase" in clicked("Buy now", "Steam Wallet Card $100 - Electronics Store",
                                                       url="https://shop.example.com/p/123")[1]
    assert "confirm.gui.gift-card-purchase" not in clicked("Add to cart", "USB-C cable 2m",
                                                           url="https://shop.example.com/p/9")[1]
    assert "confirm.gui.gift-card-purchase" not in clicked("Redeem", "Redeem a gift card",
                                                           url="https://store.example.com/redeem")[1]


def test_recovery_field_with_a_prompt_asks():
    decision, rules = typed("backup.person@mail.example", "Enter recovery email", "Two-Step Verification")
    assert "confirm.typed.account-address" in rules


@pytest.mark.parametrize(("label", "title"), [("Keep anyway", "invoice_viewer.msi may be dangerous"),
                                              ("Download anyway", "This file could harm your device")])
def test_dangerous_download_kept_blocks(label, title):
    decision, rules = clicked(label, title, "Microsoft Edge", "edge://downloads")
    assert decision == "block" and "block.gui.dangerous-download-kept" in rules


def test_keep_elsewhere_or_discard_is_not_that_rule():
    assert "block.gui.dangerous-download-kept" not in clicked("Keep", "Keep these display settings?", "Settings")[1]
    assert "block.gui.dangerous-download-kept" not in clicked("Delete", "setup.exe may be dangerous", "Chrome")[1]


def test_caught_threat_restored_blocks():
    decision, rules = clicked("Restore", "Quarantine - Worm:Win32/Example", "Antivirus")
    assert decision == "block" and "block.gui.threat-restored" in rules


def test_history_opened_or_threat_removed_is_not_that_rule():
    assert "block.gui.threat-restored" not in clicked("Remove", "Protection history - Trojan:JS/Example",
                                                      "Windows Security")[1]
    assert "block.gui.threat-restored" not in clicked("Restore", "Version history - Notes.docx", "Word")[1]
