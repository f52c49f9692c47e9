"""Everyday GUI steps that only move through a checkout, take an item off one of the person's own lists, or edit
an open office document pass; the step that commits (placing the order, paying, deleting for good, a desktop
spreadsheet's "Delete Sheet") still asks. Our own labels, hosts and window titles, written from the shops' and
office programs' public help pages."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.consequence import moves_only, office_edit
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str | None = None, title: str = ""):
    data: dict = {"type": "click", "x": 1, "y": 1, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url or "", window_title=title))


# -- a checkout's generic step buttons ------------------------------------------------------------------

CHECKOUT_STEPS = [
    ("Continue", "https://shop.example-outfitters.test/checkout"),
    ("Next", "https://tickets.example-rail.test/checkout/passengers"),
    ("Save and continue", "https://www.example-electronics.test/checkout/r/fulfillment"),
    ("Change", "https://www.example-market.test/checkout"),
    ("Edit", "https://www.example-market.test/checkout/review"),
    ("Back", "https://www.example-market.test/basket"),
]


@pytest.mark.parametrize(("label", "url"), CHECKOUT_STEPS)
def test_a_checkout_step_button_passes(label, url):
    a = click(label, url)
    assert a.decision is Decision.ALLOW, (label, url, a.rules)


CHECKOUT_COMMITS = [
    ("Place order", "https://shop.example-outfitters.test/checkout"),
    ("Pay now", "https://shop.example-outfitters.test/checkout"),
    ("Confirm", "https://www.example-market.test/checkout/review"),
    ("Submit", "https://www.example-market.test/checkout/review"),
    # the same "Continue" on an account's payment or password page is that page's change
    ("Continue", "https://bank.example-credit.test/transfers/new"),
    ("Save", "https://www.example-market.test/account/payment-methods"),
    ("Continue", "https://accounts.example-mail.test/security/password"),
]


@pytest.mark.parametrize(("label", "url"), CHECKOUT_COMMITS)
def test_the_step_that_commits_still_asks(label, url):
    a = click(label, url)
    assert a.decision is not Decision.ALLOW, (label, url)


# -- one entry off the person's own cart, wish list or library ------------------------------------------------

OFF_A_LIST = [
    ("Remove", "https://www.example-crafts.test/cart"),
    ("Delete", "https://www.example-grocer.test/cart"),
    ("Remove", "https://www.example-market.test/hz/wishlist/ls/7QX2"),
    ("Remove item", "https://www.example-books.test/wishlist"),
    ("Remove from library", "https://music.example-stream.test/collection/tracks"),
    ("Remove from Watch later", "https://video.example-tube.test/playlist?list=WL"),
    ("Remove from saved", "https://photos.example-social.test/me/saved/"),
    ("Remove bookmark", "https://micro.example-blog.test/i/bookmarks"),
    ("Unstar", "https://code.example-forge.test/someone/project"),
    ("Unsave", "https://forum.example-board.test/r/cooking/comments/abc/"),
]


@pytest.mark.parametrize(("label", "url"), OFF_A_LIST)
def test_taking_an_entry_off_a_personal_list_passes(label, url):
    a = click(label, url)
    assert a.decision is Decision.ALLOW, (label, url, a.rules)


NOT_OFF_A_LIST = [
    # a bare remove or delete anywhere else may remove anything
    ("Remove", "https://code.example-forge.test/org/project/settings/collaborators"),
    ("Delete", "https://drive.example-cloud.test/drive/folders/1"),
    ("Delete", "https://www.example-market.test/account"),
    ("Remove payment method", "https://www.example-market.test/cart"),
    ("Delete account", "https://www.example-market.test/wishlist"),
]


@pytest.mark.parametrize(("label", "url"), NOT_OFF_A_LIST)
def test_a_remove_that_is_not_off_a_personal_list_still_asks(label, url):
    assert click(label, url).decision is not Decision.ALLOW, (label, url)


def test_moves_only_reads_the_list_page():
    assert moves_only("remove", url="https://www.example-crafts.test/cart")
    assert moves_only("remove", url="https://www.example-books.test/wishlist/3")
    assert not moves_only("remove", url="https://www.example-books.test/account")
    assert not moves_only("remove")


# -- a label read from an accessibility tree, with its role in front -------------------------------------------


@pytest.mark.parametrize(("label", "url"), [("link 'Checkout'", "https://www.example-crafts.test/cart"),
                                            ("button 'Next'", "https://www.example-market.test/checkout"),
                                            ("link: Continue to payment", "https://www.example-market.test/cart")])
def test_a_step_named_with_its_role_passes(label, url):
    a = click(label, url)
    assert a.decision is Decision.ALLOW, (label, url, a.rules)


@pytest.mark.parametrize("label", ["link 'Place order'", "button 'Pay now'", "button Buy now"])
def test_a_commit_named_with_its_role_still_asks(label):
    assert click(label, "https://www.example-market.test/checkout").decision is not Decision.ALLOW, label


# -- editing an open document in a desktop office program ---------------------------------------------------

OFFICE_EDITS = [
    ("Accept", "minutes.docx - Word"),
    ("Reject", "minutes.docx - Word"),
    ("Accept All Changes", "contract draft.docx - Microsoft Word"),
    ("Delete Slide", "pitch.pptx - PowerPoint"),
    ("Delete Rows", "ledger.xlsx - Excel"),
    ("Clear Contents", "ledger.ods - LibreOffice Calc"),
]


@pytest.mark.parametrize(("label", "title"), OFFICE_EDITS)
def test_an_edit_in_a_desktop_office_window_passes(label, title):
    a = click(label, title=title)
    assert a.decision is Decision.ALLOW, (label, title, a.rules)


@pytest.mark.parametrize(("label", "title"), OFFICE_EDITS[:2])
def test_an_office_window_title_in_the_address_field_reads_the_same(label, title):
    # some recorders put the window's title where a page's address goes
    a = GATE.assess(action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": label}}),
                    Observation(url=title))
    assert a.decision is Decision.ALLOW, (label, title, a.rules)


OFFICE_NEAR_MISSES = [
    # a desktop spreadsheet cannot undo a deleted sheet
    ("Delete Sheet", "ledger.xlsx - Excel"),
    # the same words outside an office program keep their meaning
    ("Accept", "Terms of Service - Installer"),
    ("Delete", "minutes.docx - Word"),
    ("Send", "minutes.docx - Word"),
]


@pytest.mark.parametrize(("label", "title"), OFFICE_NEAR_MISSES)
def test_outside_an_office_edit_the_click_still_asks(label, title):
    assert click(label, title=title).decision is not Decision.ALLOW, (label, title)


def test_office_edit_needs_both_the_command_and_the_window():
    assert office_edit("accept", "minutes.docx - Word")
    assert not office_edit("accept", "Setup - License Agreement")
    assert not office_edit("delete sheet", "ledger.xlsx - Excel")
    assert not office_edit("accept", "")


# -- the everyday steps beside the consequential ones ------------------------------------------------------------

EVERYDAY = [
    ("Add to cart", "https://www.example-market.test/dp/B0X1"),
    ("Proceed to checkout", "https://www.example-market.test/cart"),
    ("Continue to shipping", "https://shop.example-outfitters.test/checkouts/cn/77"),
    ("Review order", "https://www.example-market.test/checkout"),
    ("Apply filter", "https://www.example-market.test/s?k=lamp"),
    ("Save draft", "https://mail.example-mail.test/mail/compose"),
    ("Archive", "https://mail.example-mail.test/mail/inbox"),
    ("Mark as read", "https://chat.example-team.test/client/T1/C2"),
    ("Star", "https://code.example-forge.test/someone/project"),
    ("Follow", "https://micro.example-blog.test/someone"),
    ("Bookmark", "https://micro.example-blog.test/someone/status/1"),
    ("Undo", "https://mail.example-mail.test/mail/inbox"),
    ("Settings", "https://mail.example-mail.test/mail/inbox"),
    ("Accept all cookies", "https://news.example-paper.test/"),
]


@pytest.mark.parametrize(("label", "url"), EVERYDAY)
def test_an_everyday_or_reversible_step_passes(label, url):
    a = click(label, url)
    assert a.decision is Decision.ALLOW, (label, url, a.rules)


CONSEQUENTIAL = [
    ("Send", "https://chat.example-team.test/client/T1/C2"),
    ("Send money", "https://pay.example-wallet.test/send"),
    ("Delete permanently", "https://drive.example-cloud.test/drive/trash"),
    ("Empty trash", "https://drive.example-cloud.test/drive/trash"),
    ("Publish", "https://blog.example-writer.test/editor/post/12"),
    ("Make public", "https://code.example-forge.test/me/project/settings"),
    ("Share with anyone with the link", "https://docs.example-office.test/document/d/1/edit"),
    ("Turn off 2-Step Verification", "https://accounts.example-mail.test/security/2sv"),
    ("Save", "https://accounts.example-mail.test/security/password"),
    ("Merge pull request", "https://code.example-forge.test/me/project/pull/7"),
]


@pytest.mark.parametrize(("label", "url"), CONSEQUENTIAL)
def test_a_consequential_step_still_asks(label, url):
    assert click(label, url).decision is not Decision.ALLOW, (label, url)


# -- a generic button on a page that is read, not a setting ------------------------------------------------------

READING = [
    ("Continue", "https://encyclopedia.example.test/wiki/Payment_card"),
    ("Save", "https://developer.example.test/en-US/docs/Web/API/Credentials"),
    ("Continue", "https://school.example.test/lesson/security-basics"),
    ("Done", "https://academy.example.test/learn/budgeting/billing-cycles"),
]


@pytest.mark.parametrize(("label", "url"), READING)
def test_a_generic_button_on_a_reading_page_passes(label, url):
    a = click(label, url)
    assert a.decision is Decision.ALLOW, (label, url, a.rules)


SETTINGS = [
    ("Save", "https://team.example.test/wiki/spaces/OPS/settings/permissions"),
    ("Save", "https://help.example.test/docs/account/security"),
    ("Continue", "https://bank.example-credit.test/transfers/new"),
    ("Save", "https://accounts.example-mail.test/security/password"),
]


@pytest.mark.parametrize(("label", "url"), SETTINGS)
def test_the_same_button_on_a_settings_page_still_asks(label, url):
    assert click(label, url).decision is not Decision.ALLOW, (label, url)


# -- an app's own plans, cards or scheduled posts are not an account's -----------------------------------------

OWN_THINGS = [
    ("Save", "https://trips.example-travel.test/app/plans/12345"),
    ("Add", "https://study.example-flash.test/decks/spanish/cards"),
    ("Save", "https://run.example-sport.test/athletes/9/training/plans"),
]


@pytest.mark.parametrize(("label", "url"), OWN_THINGS)
def test_a_generic_button_on_an_apps_own_plans_or_cards_passes(label, url):
    a = click(label, url)
    assert a.decision is Decision.ALLOW, (label, url, a.rules)


ACCOUNT_PLANS = [
    ("Continue", "https://video.example-stream.test/plans"),
    ("Save", "https://code.example-forge.test/settings/billing/plans"),
    ("Add", "https://bank.example-credit.test/cards"),
    ("Save", "https://bank.example-credit.test/my/cards/4411"),
    ("Save", "https://shop.example-market.test/account/cards"),
]


@pytest.mark.parametrize(("label", "url"), ACCOUNT_PLANS)
def test_the_same_button_on_an_accounts_plans_or_cards_still_asks(label, url):
    assert click(label, url).decision is not Decision.ALLOW, (label, url)
