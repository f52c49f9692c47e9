"""What a button commits to in a web app's back office and in a desktop installer, read with its page, its window's
title and its program: a plain "Save" on a sign-in, payments, roles or keys page; money and records moved by a back
office; a secret shown, copied, rotated or downloaded; an installer's "OK" or "Close and restart". And the near
misses: the same words on an ordinary page, buttons that only open the form whose own button commits."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str = "", title: str = "", app: str = ""):
    action = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    if url:
        action["url"] = url
    return GATE.assess(action_from_dict(action), Observation(url=url, window_title=title, app=app))


def key(keys: list[str], title: str, url: str = ""):
    action = {"type": "key", "keys": keys}
    if url:
        action["url"] = url
    return GATE.assess(action_from_dict(action), Observation(url=url, window_title=title))


ASKS = (Decision.CONFIRM, Decision.BLOCK)


@pytest.mark.parametrize(("label", "url", "title"), [
    # a plain commit on a page whose address or title names sign-in methods, payments or roles
    ("Save changes", "https://chat.example.org/#organization/auth-methods", ""),
    ("Save", "https://wiki.example.org/admin/login-methods", ""),
    ("Save Config", "https://shop.example.org/admin/system_config/edit/section/payment/", ""),
    ("Update", "https://crm.example.org/app/x", "Roles & permissions - CRM"),
    ("Apply changes", "https://erp.example.org/web#action=12", "Payment methods"),
    ("Save", "https://hr.example.org/console", "Authentication methods"),
])
def test_a_plain_commit_on_a_guarded_settings_page_asks(label, url, title):
    assert click(label, url, title).decision in ASKS


@pytest.mark.parametrize(("label", "url", "title"), [
    ("Save changes", "https://chat.example.org/#organization/organization-profile", ""),
    ("Save Config", "https://shop.example.org/admin/system_config/edit/section/general/", ""),
    ("Save", "https://crm.example.org/app/x", "Edit contact - CRM"),
    # a dialog's bare "OK" under a settings title closes it as often as it saves
    ("OK", "", "Payment methods"),
])
def test_the_same_commit_on_an_ordinary_page_passes(label, url, title):
    assert click(label, url, title).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url", "title"), [
    # money taken, held or made in a back office
    ("Capture manual transaction", "https://shop.example.org/dashboard/orders/b3JkZXI6OQ==", ""),
    ("Authorize payment", "https://shop.example.org/admin/orders/9", ""),
    ("Issue gift cards", "https://shop.example.org/dashboard/discounts/", ""),
    ("Issue card", "https://shop.example.org/dashboard/gift-cards/", ""),
    ("Resend code", "https://shop.example.org/dashboard/gift-cards/R2lmdDo3", ""),
    ("Send to customer", "https://store.example.net/admin/vouchers/31", ""),
    ("Export codes", "https://shop.example.org/dashboard/gift-cards/", ""),
    ("Export voucher codes", "https://shop.example.org/marketing/", ""),
    ("Save scheduled payment", "https://bank.example.net/scheduled/4", ""),
    # an order cancelled from the back office's list or the order itself
    ("Cancel", "https://store.example.net/admin/sales/order/", ""),
    # a booking turned down by its host
    ("Reject the booking", "https://book.example.org/bookings/upcoming", ""),
    ("Decline reservation", "https://rent.example.org/host/inbox", ""),
])
def test_back_office_money_and_records_ask(label, url, title):
    assert click(label, url, title).decision in ASKS


@pytest.mark.parametrize(("label", "url", "title"), [
    # "Resend code" on a sign-in page sends the person their own code
    ("Resend code", "https://app.example.org/login/verify", ""),
    ("Show", "https://shop.example.org/dashboard/gift-cards/", ""),
    # "Cancel" in a new order's form, or in a dialog asking a question, leaves it
    ("Cancel", "https://store.example.net/admin/sales/order_create/index/", ""),
    ("Cancel", "https://store.example.net/admin/sales/order/view/order_id/4/", "Are you sure you want to do this?"),
    ("Cancel", "https://shop.example.org/cart", ""),
    ("Reject", "https://calendar.example.org/event/5", ""),
    ("Export as PDF", "https://docs.example.org/d/1", ""),
])
def test_the_near_misses_of_back_office_actions_pass(label, url, title):
    assert click(label, url, title).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url", "title"), [
    # a user locked out, let in or switched off from a directory's or a service desk's administration
    ("Locked out", "https://desk.example.org/nav/ui/classic/params/target/sys_user.do", ""),
    ("Suspend user", "https://admin.example.org/admin/users/17", ""),
    ("Active", "https://forum.example.org/admin/users/17/edit", ""),
    # a powerful role picked in a list of members or on a permissions tab
    ("Admin", "https://analytics.example.org/settings/organization", ""),
    ("Owner", "https://git.example.org/acme/-/project_members", ""),
    ("Storage Admin", "https://console.example-cloud.com/storage/browser/b1;tab=permissions", ""),
    ("Project Owner", "https://console.example-cloud.com/iam-admin/iam", ""),
])
def test_an_account_locked_or_a_powerful_role_granted_asks(label, url, title):
    assert click(label, url, title).decision in ASKS


@pytest.mark.parametrize(("label", "url", "title"), [
    ("Member", "https://analytics.example.org/settings/organization", ""),
    ("Viewer", "https://console.example-cloud.com/storage/browser/b1;tab=permissions", ""),
    ("Admin", "https://shop.example.org/products/12", ""),
    ("Active", "https://shop.example.org/products/12", ""),
])
def test_a_lower_role_or_the_same_word_elsewhere_passes(label, url, title):
    assert click(label, url, title).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url"), [
    # a secret put on the screen or in the clipboard, or replaced, on the page that lists it
    ("Show", "https://www.example-notes.com/profile/integrations"),
    ("Reveal", "https://dash.example.com/developers/api-keys"),
    ("Copy token", "https://git.example.org/-/user_settings/personal_access_tokens"),
    ("Rotate", "https://git.example.org/-/user_settings/personal_access_tokens"),
    ("Regenerate", "https://app.example.org/settings/api-keys"),
    # a file that holds a way in, downloaded
    ("Download zuliprc", "https://chat.example.org/#settings/account-and-privacy"),
    ("Download .npmrc", "https://registry.example.org/settings"),
    ("Download kubeconfig", "https://cloud.example.org/clusters/7"),
    ("Download key file", "https://cloud.example.org/iam/service-accounts/3"),
])
def test_a_secret_revealed_rotated_or_downloaded_asks(label, url):
    assert click(label, url).decision in ASKS


@pytest.mark.parametrize(("label", "url"), [
    ("Show", "https://shop.example.org/products"),
    ("Copy", "https://docs.example.org/page/3"),
    ("Rotate", "https://photos.example.org/edit/5"),
    ("Regenerate", "https://chat.example.org/c/42"),
    ("Download src", "https://code.example.org/releases"),
    ("Download Firefox RC", "https://browser.example.org/channel"),
    ("Download report", "https://analytics.example.org/reports/1"),
    # a docs page's link to the console where the key is made
    ("Get API key", "https://docs.example.org/start"),
])
def test_the_same_words_with_no_secret_pass(label, url):
    assert click(label, url).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url", "title"), [
    # buttons that open the form whose own button commits
    ("Add new token", "https://git.example.org/-/user_settings/personal_access_tokens", ""),
    ("New webhook", "https://app.example.org/settings/webhooks", ""),
    ("Create credential", "https://flows.example.org/home/credentials", ""),
    ("Invite team member", "https://analytics.example.org/settings/organization", ""),
    ("Continue checkout", "https://shop.example.org/shop/address", ""),
    # one entry of the person's own notification settings, and an account's picture
    ("Remove", "https://chat.example.org/#settings/notifications", ""),
    ("Remove avatar", "https://chat.example.org/#settings/profile", ""),
])
def test_buttons_that_only_open_a_form_or_touch_a_preference_pass(label, url, title):
    assert click(label, url, title).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url", "title"), [
    # in the form itself, or where the page is not known, the same label may commit
    ("Add new token", "https://git.example.org/-/user_settings/personal_access_tokens/new", ""),
    ("New token", "https://git.example.org/settings/tokens", "New personal access token"),
    ("Add new token", "", ""),
    ("Create token", "https://dash.example.com/profile/api-tokens", ""),
    ("Remove", "https://chat.example.org/#organization/users", ""),
    ("Complete checkout", "https://shop.example.org/shop/payment", ""),
])
def test_the_committing_step_still_asks(label, url, title):
    assert click(label, url, title).decision in ASKS


@pytest.mark.parametrize(("label", "title", "app"), [
    ("OK", "Installing Example Desktop 2.1", "Example Desktop Installer"),
    ("Close and restart", "Installation succeeded", "Example Desktop Installer"),
    ("Finish", "Setup - Example Tool", "setup.exe"),
    ("Restart now", "Example Updater", "example-updater"),
])
def test_an_installer_s_committing_step_asks(label, title, app):
    assert click(label, "", title, app).decision in ASKS


@pytest.mark.parametrize(("label", "url", "title", "app"), [
    ("Next", "", "Example Desktop Installer", "Example Desktop Installer"),
    ("Cancel", "", "Installing Example Desktop 2.1", "Example Desktop Installer"),
    ("OK", "", "Settings", "Example Desktop"),
    # a web page titled "Setup" is the page's own form
    ("OK", "https://app.example.org/onboarding", "Account setup", "Firefox"),
])
def test_an_installer_s_other_buttons_and_other_windows_pass(label, url, title, app):
    assert click(label, url, title, app).decision is Decision.ALLOW


_WARNS = "Are you sure? This order will be canceled and a new one will be created instead."


def test_the_way_on_of_a_warning_dialog_asks_whatever_its_name():
    assert click("Edit", "https://store.example.net/admin/sales/order/view/order_id/4/", _WARNS).decision in ASKS
    assert key(["enter"], _WARNS, "https://store.example.net/admin/sales/order/view/order_id/4/").decision in ASKS


@pytest.mark.parametrize(("label", "title"), [
    ("Cancel", _WARNS),
    ("Edit", "Order #4 - Store admin"),
    ("Stay", "Are you sure you want to leave this page?"),
])
def test_the_way_back_or_no_warning_passes(label, title):
    assert click(label, "https://store.example.net/admin/sales/order/view/order_id/4/", title).decision \
        is Decision.ALLOW


def test_a_subject_that_threatens_closing_is_no_dialog():
    got = click("Urgent: this account will be closed", "https://mail.example.org/#inbox", "Inbox (3) - Mail")
    assert got.decision is Decision.ALLOW


def test_a_gift_card_bought_to_pay_an_authority_blocks():
    got = click("Buy $300 gift card", "https://store.example.com/gift-cards", "Gift card for 'court fine'")
    assert got.decision is Decision.BLOCK
    assert "block.gui.scam-payment" in got.rules


@pytest.mark.parametrize("title", ["Gift card for Mom's birthday", "Fine jewelry gift cards - tax free"])
def test_a_gift_card_bought_as_a_present_asks_as_any_purchase(title):
    got = click("Buy $50 gift card", "https://store.example.com/gift-cards", title)
    assert got.decision is Decision.CONFIRM


def test_a_bare_delete_of_several_selected_messages_asks():
    got = click("Delete", "https://mail.example.org/inbox", "12 conversations selected")
    assert got.decision in ASKS
    # the open message alone goes to the trash, to restore from there
    assert click("Delete", "https://mail.example.org/inbox", "Re: lunch on Friday").decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url"), [
    ("Trash", "https://blog.example.org/wp-admin/edit.php"),
    ("Move to trash", "https://blog.example.org/wp-admin/post.php?post=7&action=edit"),
])
def test_a_wordpress_post_moved_to_the_trash_passes(label, url):
    assert click(label, url).decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "url"), [
    ("Delete permanently", "https://blog.example.org/wp-admin/edit.php?post_status=trash"),
    ("Trash", "https://blog.example.org/admin/posts"),
])
def test_a_post_deleted_for_good_or_elsewhere_still_asks(label, url):
    assert click(label, url).decision in ASKS
