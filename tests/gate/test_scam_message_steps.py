"""The steps a scam message or a scam caller wants taken, judged by the context that makes them consequential.
Our own examples, written from consumer-protection advice (tax offices, social security agencies, banks, the FTC):

- a message's or a notice's call to action, in any phrasing, where the subject or the sender lures
  (`block.gui.lure-message-link`), a file named as a document that is a page or a program
  (`block.gui.disguised-attachment`), a number to phone about a renewal (`block.gui.callback-lure`), a host named
  for an agency's fine (`block.nav.agency-payment`);
- remote access and money during a call with "support" or a remote session (`block.gui.install-on-say-so`,
  `block.gui.remote-control-external`, `block.gui.pay-under-remote-control`).

Near misses: the same buttons on a site's own page, in ordinary mail, in a team's meeting, with no call on."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, title: str = "", url: str = "", app: str = ""):
    data: dict = {"type": "click", "x": 10, "y": 10, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title, app=app))


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation())


# -- a lure's call to action -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Get Started", "Your tax refund is pending", ""),
    ("Start now", "Refund notification - Outlook", ""),
    ("Claim it", "Claim your refund - Thunderbird", ""),
    ("Unlock your account", "Mail - Your account has been restricted", ""),
    ("Track your parcel", "Parcel on hold: customs fee unpaid", "Messages"),
    ("View your notice", "HMRC - Thunderbird", ""),
    ("click here", "Messages - Social Security Administration", ""),
    ("See details", "IRS", "Messages"),
    ("Collect prize", "Congratulations, you have won!", ""),
])
def test_a_lure_s_call_to_action_blocks(label: str, title: str, app: str) -> None:
    got = click(label, title, app=app)
    assert got.decision is Decision.BLOCK and "block.gui.lure-message-link" in got.rules, got.rules


@pytest.mark.parametrize(("label", "title", "url", "app"), [
    ("Get Started", "Payments infrastructure for the internet", "https://stripe.com/", ""),
    ("Get Started", "Refunds | Internal Revenue Service", "https://www.irs.gov/refunds", ""),
    ("Track package", "Your order has shipped - Thunderbird", "", ""),
    ("View invoice", "Invoice 1042 from a supplier - Thunderbird", "", ""),
    ("click here", "Messages - Mum", "", ""),
    ("Reply", "HMRC - Thunderbird", "", ""),
    ("Delete", "Messages - IRS", "", ""),
])
def test_the_same_buttons_elsewhere_do_not_block(label: str, title: str, url: str, app: str) -> None:
    assert "block.gui.lure-message-link" not in click(label, title, url, app).rules


def test_a_bare_link_of_an_account_alert_only_asks() -> None:
    # real services send sign-in alerts too: their other links ask (`confirm.gui.mail-lure-link`)
    got = click("click here", "New sign-in to your account from an unknown device - Thunderbird")
    assert got.decision is Decision.CONFIRM


@pytest.mark.parametrize("label", ["Benefits_Letter.pdf.html", "Invoice 0421.docx.exe", "scan_0007.jpg.scr",
                                   "Payment advice.xlsx.htm"])
def test_a_document_named_file_that_is_a_page_or_a_program_blocks(label: str) -> None:
    assert "block.gui.disguised-attachment" in click(label, "Your statement - Thunderbird").rules


@pytest.mark.parametrize("label", ["report.pdf", "backup.tar.gz", "index.html", "photo.jpeg"])
def test_an_ordinary_file_name_does_not(label: str) -> None:
    assert "block.gui.disguised-attachment" not in click(label, "Files").rules


def test_a_number_to_phone_about_a_renewal_blocks() -> None:
    got = click("Cancel & refund: 1-877-555-0142", "Antivirus Auto-Renewal Invoice #88213")
    assert "block.gui.callback-lure" in got.rules


@pytest.mark.parametrize(("label", "title"), [
    ("1-877-555-0142", "Your order receipt - Thunderbird"),
    ("1-800-555-0100", "Contact us - Support"),
])
def test_a_number_with_no_such_reason_does_not(label: str, title: str) -> None:
    assert "block.gui.callback-lure" not in click(label, title).rules


@pytest.mark.parametrize("url", ["https://dmv-citation-pay.example.com/case/4471", "https://ezpass-toll.example.com/"])
def test_a_host_named_for_an_agency_s_fine_blocks(url: str) -> None:
    assert "block.nav.agency-payment" in nav(url).rules


@pytest.mark.parametrize("url", ["https://www.dmv.org/pay-ticket.php", "https://my-fee-calculator.example.com/"])
def test_an_agency_s_own_site_or_a_fee_alone_does_not(url: str) -> None:
    assert "block.nav.agency-payment" not in nav(url).rules


# -- remote access and money during a "support" call ---------------------------------------------------------------


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Install AnyDesk", "Call with 'Bank Security'", ""),
    ("Download TeamViewer QuickSupport", "Microsoft Support - Teams", "Microsoft Teams"),
    ("Share screen", "Zoom - Account Support", "Zoom"),
    ("Share your entire screen", "Video call - Fraud Department", ""),
    ("Give control", "Amazon Security Team - call", ""),
])
def test_remote_access_during_a_support_call_blocks(label: str, title: str, app: str) -> None:
    got = click(label, title, app=app)
    assert got.decision is Decision.BLOCK and "block.gui.install-on-say-so" in got.rules, got.rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Share screen", "Zoom Meeting - Support team standup", "Zoom"),
    ("Share screen", "Zoom Meeting", "Zoom"),
    ("Install AnyDesk", "AnyDesk downloads", ""),  # the person's own choice: asks, as any install does
])
def test_the_same_outside_such_a_call_only_asks(label: str, title: str, app: str) -> None:
    assert click(label, title, app=app).decision is Decision.CONFIRM


def test_downloading_the_tool_from_its_site_with_no_lure_is_as_any_download() -> None:
    got = nav("https://download.anydesk.com/AnyDesk.exe")
    assert got.decision is Decision.CONFIRM and "block.gui.install-on-say-so" not in got.rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Accept", "AnyDesk - Incoming session request", "AnyDesk"),
    ("Allow", "ScreenConnect Client - Allow remote control?", ""),
    ("Yes", "TeamViewer - Partner wants to control your computer", "TeamViewer"),
])
def test_letting_in_a_session_the_other_side_started_blocks(label: str, title: str, app: str) -> None:
    assert "block.gui.remote-control-external" in click(label, title, app=app).rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Dismiss", "AnyDesk - Incoming session request", "AnyDesk"),
    ("Accept", "Incoming call - Zoom", "Zoom"),
    ("Connect", "TeamViewer", "TeamViewer"),
])
def test_turning_it_down_or_another_prompt_does_not(label: str, title: str, app: str) -> None:
    assert "block.gui.remote-control-external" not in click(label, title, app=app).rules


@pytest.mark.parametrize(("label", "title"), [
    ("Send $4,800.00", "AnyDesk session active"),
    ("Transfer now", "Transfer - on a call with the Fraud Department"),
    ("Pay", "Someone is controlling your computer"),
])
def test_money_moved_during_a_remote_session_or_a_support_call_blocks(label: str, title: str) -> None:
    got = click(label, title, "https://bank.example.com/transfer")
    assert "block.gui.pay-under-remote-control" in got.rules, got.rules


@pytest.mark.parametrize(("label", "title"), [
    ("Send $48.00", "Send money"),
    ("Transfer now", "Transfer to external account"),
])
def test_the_same_payment_with_nothing_on_only_asks(label: str, title: str) -> None:
    got = click(label, title, "https://bank.example.com/transfer")
    assert got.decision is Decision.CONFIRM and "block.gui.pay-under-remote-control" not in got.rules


# -- a scare pop-up's number and tool -------------------------------------------------------------------------------


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Call now: +1 888 555 0100", "Your computer has been locked", ""),
    ("1-888-555-0100", "VIRUS ALERT FROM MICROSOFT", ""),
    ("Call support", "Windows Defender Security Warning", "https://pc-alert.example.top/"),
])
def test_phoning_a_scare_pop_up_s_number_blocks(label: str, title: str, url: str) -> None:
    assert "block.gui.callback-lure" in click(label, title, url).rules


@pytest.mark.parametrize(("label", "title"), [
    ("Download support tool", "VIRUS ALERT FROM MICROSOFT"),
    ("Download AnyDesk", "Call support - error 0x80070643"),
])
def test_a_tool_fetched_from_a_scare_pop_up_blocks(label: str, title: str) -> None:
    assert "block.gui.install-on-say-so" in click(label, title).rules


@pytest.mark.parametrize(("label", "title", "url", "app"), [
    ("Call 1-800-555-0100", "Pizza Palace - Order online", "https://www.pizza.example.com/", ""),
    ("Download", "Fix Windows Update error 0x80070643 - Microsoft Support", "https://support.microsoft.com/kb/1", ""),
    ("Retry", "Windows Update - error 0x80070643", "", "Windows Settings"),
    ("Close", "VIRUS ALERT FROM MICROSOFT", "", ""),
])
def test_a_number_or_a_download_with_no_scare_does_not_block(label: str, title: str, url: str, app: str) -> None:
    assert click(label, title, url, app).decision is not Decision.BLOCK


def test_a_bare_confirm_on_a_payment_page_during_a_remote_session_blocks() -> None:
    got = click("Confirm", "AnyDesk session active", "https://pay.example.com/send")
    assert "block.gui.pay-under-remote-control" in got.rules
    got = click("Confirm", "Send money", "https://pay.example.com/send")
    assert "block.gui.pay-under-remote-control" not in got.rules


def nav_in(url: str, title: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation(window_title=title))


@pytest.mark.parametrize(("url", "title"), [
    ("https://download.anydesk.com/AnyDesk.exe", "Call with 'Bank Security'"),
    ("https://www.teamviewer.com/en/download/", "VIRUS ALERT FROM MICROSOFT"),
])
def test_a_remote_tool_s_download_opened_on_a_support_call_or_a_scare_blocks(url: str, title: str) -> None:
    assert "block.nav.remote-tool-on-call" in nav_in(url, title).rules


@pytest.mark.parametrize(("url", "title"), [
    ("https://www.teamviewer.com/en/download/", "Zoom Meeting - Weekly sync"),
    ("https://bank.example.com/", "Call with 'Bank Security'"),
])
def test_the_download_in_a_team_meeting_or_another_site_on_the_call_does_not(url: str, title: str) -> None:
    assert "block.nav.remote-tool-on-call" not in nav_in(url, title).rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Pay now", "Messages - USPS", ""),
    ("Pay $1.99", "E-ZPass", "Messages"),
    ("Settle balance", "SunPass - Thunderbird", ""),
])
def test_a_fee_asked_by_a_post_or_a_toll_operator_s_message_blocks(label: str, title: str, app: str) -> None:
    assert "block.gui.lure-message-link" in click(label, title, app=app).rules


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Track package", "Messages - USPS", ""),
    ("Pay now", "Messages - Mum", ""),
    ("Pay duties", "Your DHL shipment - Thunderbird", ""),
    ("Pay now", "USPS - Pay", "https://www.usps.com/pay"),
])
def test_tracking_another_sender_or_the_site_itself_does_not(label: str, title: str, url: str) -> None:
    assert "block.gui.lure-message-link" not in click(label, title, url).rules
