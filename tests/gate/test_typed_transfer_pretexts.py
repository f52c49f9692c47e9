"""Typed text that moves money or a desktop where an impostor points it (gate/rules/typed_lures.py,
resources/lures.toml): a transfer's memo stating a scam's reason, a remote-support session opened to a lure
host, a store's outgoing mail or payment account pointed at an outsider. Examples are our own, written from the
FTC's and banks' scam advice and the programs' documentation; each rule has a trigger and a near miss."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict, lures
from gate.model import Decision, Observation

GATE = SafetyGate()


def assess(text: str, label: str, url: str = "", app: str = "", title: str = ""):
    data: dict = {"type": "type", "text": text, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, app=app, window_title=title))


TRANSFER = "https://online.example-bank.com/transfers/new"

# -- a transfer's memo ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "label", "url"), [
    ("Moving my savings to the safe account the fraud team opened", "Memo", TRANSFER),
    ("Funds to the protected account per Officer Reyes", "Note", "https://www.example-cu.org/payments/transfer"),
    ("Deposit to Federal Reserve holding account", "Description", TRANSFER),
    ("Sent as instructed by the bank investigator", "Reference", "https://bank.example.net/wire"),
    ("McAfee renewal refund returned", "Memo", "https://bank.example.net/zelle/send"),
    ("Refund for Geek Squad subscription cancellation", "Purpose of payment", TRANSFER),
    ("Returning the extra refund amount you sent by mistake", "Memo", TRANSFER),
])
def test_a_transfer_memo_stating_an_impostors_reason_blocks(text, label, url):
    got = assess(text, label, url)
    assert got.decision is Decision.BLOCK
    assert "block.typed.scam-memo" in got.rules


@pytest.mark.parametrize(("text", "label", "url"), [
    ("March rent, flat 4B", "Memo", TRANSFER),
    ("Invoice 2231 - web design", "Reference", TRANSFER),
    ("Refund for the returned jacket", "Memo", TRANSFER),
    ("Savings for the holiday", "Note", TRANSFER),
    ("Move to overdraft protection account", "Memo", TRANSFER),
    ("IRS estimated tax deposit Q3", "Memo", TRANSFER),
    ("Refund of excess deposit, flat 2", "Memo", TRANSFER),
    ("Crypto investment top-up, urgent", "Memo", TRANSFER),
    # the same words outside a payment: a note about a scam in a notes app
    ("Bank warning: nobody legit asks you to move money to a safe account", "Note",
     "https://notes.example.org/n/12"),
])
def test_an_ordinary_memo_or_a_note_elsewhere_passes(text, label, url):
    assert "block.typed.scam-memo" not in assess(text, label, url).rules


@pytest.mark.parametrize(("text", "label"), [("Safe account - fraud hold", "Payee name"),
                                             ("Secure holding account", "Beneficiary name")])
def test_a_new_payee_named_for_the_script_blocks(text, label):
    assert "block.typed.scam-memo" in assess(text, label, TRANSFER).rules


@pytest.mark.parametrize("text", ["Jordan Lee", "Northside Property Management"])
def test_an_ordinary_payee_name_passes(text):
    assert "block.typed.scam-memo" not in assess(text, "Payee name", TRANSFER).rules


def test_the_memo_pretexts_read_in_the_book():
    assert lures.memo_pretext("transfer to the protected Federal Reserve account") is not None
    assert lures.memo_pretext("Norton subscription refund") is not None
    assert lures.memo_pretext("Norton 360 yearly plan") is None


# -- a remote-support session opened to a host --------------------------------------------------------------


@pytest.mark.parametrize(("text", "app", "title"), [
    ("refund-desk.example-help.link", "TeamViewer", ""),
    ("irs-case-review.example.com", "AnyDesk", ""),
    ("refund-team@ad", "AnyDesk", ""),
    ("geeksquad-renewals.screenconnect.com", "", "ScreenConnect Client"),
])
def test_a_lure_host_typed_into_a_remote_support_program_blocks(text, app, title):
    got = assess(text, "Partner ID", app=app, title=title)
    assert got.decision is Decision.BLOCK
    assert "block.typed.remote-access-id" in got.rules


@pytest.mark.parametrize("text", ["it-helpdesk.acme-corp.com", "office-pc@ad"])
def test_a_company_host_typed_into_a_remote_support_program_asks(text):
    got = assess(text, "Partner ID", app="AnyDesk")
    assert got.decision is Decision.CONFIRM
    assert "confirm.typed.remote-access-id" in got.rules


def test_a_word_typed_into_a_remote_support_program_passes():
    assert assess("notepad", "Search", app="AnyDesk").decision is Decision.ALLOW


# -- a store's outgoing mail and payment account ------------------------------------------------------------

STORE = "https://shop.example.com/admin/stores/1/edit"


@pytest.mark.parametrize("text", ["orders@acme-payments-verify.com", "help@northwind-billing-secure.net"])
def test_a_look_alike_desk_address_as_the_stores_sender_blocks(text):
    got = assess(text, "Mail From Address", STORE)
    assert got.decision is Decision.BLOCK
    assert "block.typed.account-takeover" in got.rules


def test_an_ordinary_sender_address_asks():
    got = assess("orders@acme-shop.com", "Reply-To Address", STORE)
    assert got.decision is Decision.CONFIRM
    assert "block.typed.account-takeover" not in got.rules


def test_a_desk_domain_without_a_checking_word_is_no_look_alike():
    assert lures.desk_lookalike("acme-payments.com") is None
    assert lures.desk_lookalike("acme-payments-verify.com") is not None


PAYMENT_SETTINGS = "https://shop.example.com/admin/payment_methods/3/edit"


def test_an_outsiders_payment_account_in_payment_settings_blocks():
    got = assess("acct_9Zq2ThirdParty77", "Stripe Account ID", PAYMENT_SETTINGS)
    assert got.decision is Decision.BLOCK
    assert "block.typed.payout-account" in got.rules


@pytest.mark.parametrize(("text", "label"), [("acct_1Mx8kLp42Qa", "Account ID"), ("Q7PX4KLM2N9ZT", "Merchant ID")])
def test_a_payment_account_in_payment_settings_asks(text, label):
    got = assess(text, label, PAYMENT_SETTINGS)
    assert got.decision is Decision.CONFIRM
    assert "confirm.typed.payout-account" in got.rules


def test_a_product_code_elsewhere_passes():
    got = assess("SKU12345678", "Product ID", "https://shop.example.com/admin/products/3/edit")
    assert "confirm.typed.payout-account" not in got.rules


def test_a_gateways_settings_tab_is_payment_settings():
    url = "https://shop.example.com/wp-admin/admin.php?page=wc-settings&tab=checkout&section=stripe"
    assert "confirm.typed.payout-account" in assess("acct_1Mx8kLp42Qa", "Account ID", url).rules


def test_an_account_number_typed_to_pay_a_bill_is_no_payout_account():
    got = assess("4410028831", "Account ID", "https://power.example-utility.com/billing/pay")
    assert "confirm.typed.payout-account" not in got.rules
