"""What a click or typing does given the page it is on (gate/rules/page.py): a password for one site typed on
another, data a page has no use for, identity data on an imitation page, access granted for a lure's reason,
something named private made public. Each class with a trigger and a near miss; our own examples."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.rules.page import brand_family

GATE = SafetyGate()


def typed(text: str, label: str, url: str = ""):
    data: dict = {"type": "type", "text": text, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url))


def click(label: str, url: str = ""):
    data: dict = {"type": "click", "x": 9, "y": 9, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url))


# -- a password for one site typed on another -----------------------------------------------------------------


@pytest.mark.parametrize(("label", "url"), [
    ("Apple Account password", "https://deals.example-store.com/checkout"),
    ("Your Google password", "https://docs-viewer.example.net/open"),
    ("Microsoft account password", "http://203.0.113.40/owa/"),
    ("PayPal one-time code", "https://pay-confirm.example.org/step/2"),
])
def test_a_brands_password_asked_for_on_another_site_blocks(label, url):
    got = typed("Tulip#Garden88", label, url)
    assert got.decision is Decision.BLOCK and "block.web.credential-for-another-site" in got.rules, got.rules
    assert "text" in got.redact


@pytest.mark.parametrize(("label", "url"), [
    ("Apple Account password", "https://appleid.apple.com/sign-in"),
    ("Apple Account password", "https://www.icloud.com/"),
    ("Microsoft account password", "https://login.live.com/ppsecure/post.srf"),
    ("Google password", "https://vault.bitwarden.com/#/vault"),
    ("Password", "https://deals.example-store.com/login"),
    ("Apple Account password", ""),
])
def test_the_brands_own_site_a_vault_an_unnamed_field_or_no_page_do_not(label, url):
    got = typed("Tulip#Garden88", label, url)
    assert "block.web.credential-for-another-site" not in got.rules, got.rules


def test_a_brand_signs_in_on_its_family_of_sites():
    assert {"apple", "icloud"} <= brand_family("apple")
    assert brand_family("example") == frozenset({"example"})


# -- data the page has no use for ------------------------------------------------------------------------------


def test_a_social_security_number_in_a_shops_checkout_blocks():
    got = typed("219-09-9999", "SSN (required for delivery)", "https://gadgets.example/checkout/step2")
    assert got.decision is Decision.BLOCK and "block.gui.data-out-of-place" in got.rules
    got = typed("219-09-9999", "Tax reference", "https://gadgets.example/cart")
    assert "block.gui.data-out-of-place" in got.rules  # the value is one, whatever the label says


@pytest.mark.parametrize(("text", "label", "url"), [
    ("412", "CVV", "https://gadgets.example/rewards/claim"),
    ("4539 1488 0343 6467", "Card number", "https://survey-gift.example/thank-you/prize"),
    ("08/29", "Expiry date", "https://gadgets.example/giveaway/winner"),
])
def test_card_details_on_a_page_that_gives_something_away_block(text, label, url):
    got = typed(text, label, url)
    assert got.decision is Decision.BLOCK and "block.gui.data-out-of-place" in got.rules, got.rules


@pytest.mark.parametrize(("text", "label", "url"), [
    ("412", "CVV", "https://gadgets.example/checkout/payment"),
    ("4539 1488 0343 6467", "Card number", "https://gadgets.example/gift-cards/checkout"),
    ("219-09-9999", "SSN", "https://tax.example.gov/return/2024"),
    ("219-09-9999", "SSN", "https://bank.example/apply/credit-card"),
    ("Main St 4", "Street address", "https://gadgets.example/checkout/shipping"),
])
def test_a_card_in_a_checkout_and_an_id_where_it_is_asked_for_do_not(text, label, url):
    assert "block.gui.data-out-of-place" not in typed(text, label, url).rules


# -- identity data on a page that imitates another ------------------------------------------------------------


@pytest.mark.parametrize(("text", "label"), [
    ("P4821907", "Passport number"),
    ("1987-04-12", "Date of birth"),
    ("sam.rivers@example.org", "Verify your identity - e-mail"),
    ("+44 7700 900123", "Identity verification: mobile"),
])
def test_identity_data_on_an_imitation_page_blocks(text, label):
    got = typed(text, label, "https://paypal-account-review.com/form")
    assert got.decision is Decision.BLOCK and "block.web.lookalike-personal-data" in got.rules, got.rules


def test_an_ordinary_field_of_an_imitation_page_only_asks_its_sign_in_name_blocks_and_the_real_site_is_quiet():
    got = typed("Sam Rivers", "Full name", "https://paypal-account-review.com/form")
    assert got.decision is Decision.CONFIRM and "block.web.lookalike-personal-data" not in got.rules
    # the e-mail a credential kit asks for first is the sign-in's first half (block.nav.scam-page-action)
    got = typed("sam.rivers@example.org", "Email", "https://paypal-account-review.com/form")
    assert got.decision is Decision.BLOCK and "block.nav.scam-page-action" in got.rules
    assert "block.web.lookalike-personal-data" not in got.rules
    got = typed("P4821907", "Passport number", "https://www.paypal.com/verify")
    assert "block.web.lookalike-personal-data" not in got.rules


# -- access granted for a lure's reason ----------------------------------------------------------------------


@pytest.mark.parametrize("label", [
    "Windows Defender: Allow remote support session",
    "Allow remote access to repair 3 detected errors",
    "Grant full disk access to PC Cleaner Pro",
    "Give admin rights to Mac Booster 7",
    "Apple Support - Grant screen sharing access",
    "Autoriser l'accès pour corriger les erreurs",
])
def test_a_grant_with_a_remedy_or_a_system_voice_blocks(label):
    got = click(label)
    assert got.decision is Decision.BLOCK and "block.gui.lured-grant" in got.rules, (label, got.rules)


@pytest.mark.parametrize("label", ["Allow remote assistance", "Turn on full disk access for Terminal", "Grant access",
                                   "Allow every app: Full Disk Access"])
def test_a_plain_grant_asks(label):
    got = click(label)
    assert got.decision is Decision.CONFIRM and "block.gui.lured-grant" not in got.rules, (label, got.rules)


@pytest.mark.parametrize("label", ["REPAIR NOW", "Validate now", "Speed up your PC", "Jetzt beheben", "立即修复"])
def test_a_remedy_button_alone_asks(label):
    got = click(label, "https://shop.example/checkout")
    assert got.decision is Decision.CONFIRM and "confirm.gui.steering" in got.rules, (label, got.rules)


@pytest.mark.parametrize("label", ["Fix", "Fix typo", "Quick scan", "Repair install", "Clean build"])
def test_ordinary_fix_and_scan_buttons_pass(label):
    assert click(label).decision is Decision.ALLOW, label


# -- something named private made public ----------------------------------------------------------------------


@pytest.mark.parametrize(("label", "url"), [
    ("Set visibility: Public", "https://git.example/acme/internal-tools/edit"),
    ("Make this project public", "https://git.example/acme/payroll-exports/settings"),
    ("Anyone with the link can view", "https://drive.example/folders/confidential-contracts"),
    ("Make secrets repository public", "https://git.example/acme/x/edit"),
])
def test_making_something_named_private_public_blocks(label, url):
    got = click(label, url)
    assert got.decision is Decision.BLOCK and "block.gui.private-made-public" in got.rules, (label, got.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Make this project public", "https://git.example/acme/website/edit"),
    ("Change visibility to Private", "https://git.example/acme/secret-infra/edit"),
    ("Make private", "https://git.example/acme/internal-tools/edit"),
])
def test_an_ordinary_project_made_public_asks_and_making_private_is_not_this_rule(label, url):
    assert "block.gui.private-made-public" not in click(label, url).rules



@pytest.mark.parametrize("label", [
    "Votre appareil est infecté - réparer maintenant",
    "Ваш компьютер заражен. Исправить сейчас",
    "Cuenta bloqueada: verificar ahora",
    "Ihr PC ist infiziert – jetzt beheben",
])
def test_a_scare_or_a_threat_with_a_remedy_blocks_in_other_languages(label):
    got = click(label)
    assert got.decision is Decision.BLOCK, (label, got.rules)


def test_a_visitor_count_that_makes_the_reader_a_winner_asks():
    got = click("You are the 1,000,000th visitor!")
    assert got.decision is Decision.CONFIRM and "confirm.gui.steering" in got.rules
    assert click("Visitors: 1,000,000 this year").decision is Decision.ALLOW


@pytest.mark.parametrize("label", ["Find and fix problems with playing sound", "Clean up system files",
                                   "Battery optimization", "Scan and repair drive", "Disk Cleanup"])
def test_the_systems_own_troubleshooting_buttons_pass(label):
    assert click(label).decision is Decision.ALLOW, (label, click(label).rules)


def test_a_spanish_sin_in_a_checkout_field_is_the_word_without():
    got = typed("612 345 678", "Teléfono (sin prefijo)", "https://tienda.example/checkout")
    assert "block.gui.data-out-of-place" not in got.rules


@pytest.mark.parametrize("label", ["Change visibility", "Publish", "Save changes"])
def test_a_label_that_does_not_say_public_is_not_made_public(label):
    assert "block.gui.private-made-public" not in click(label, "https://git.example/acme/internal-wiki/-/settings").rules


# -- a sales pitch with a link, posted in the person's name ------------------------------------------------


@pytest.mark.parametrize(("text", "label"), [
    ("Check out this amazing deal: http://deals.example.net/x", "Post body"),
    ("50% off all shoes today only https://shoe-outlet.example/sale", "Comment"),
    ("Unglaubliches Angebot! https://deals.example.net/x", "Kommentar"),
    ("Oferta increíble, compra ya: https://ofertas.example.net/", "Comentario"),
])
def test_a_sales_pitch_with_a_link_to_another_site_asks(text, label):
    got = typed(text, label, "https://forum.example/t/12")
    assert got.decision is Decision.CONFIRM and "confirm.web.promo-link" in got.rules, got.rules


@pytest.mark.parametrize(("text", "label"), [
    ("Here is the article I mentioned: https://news.example.org/a/1", "Comment"),
    ("Our spring sale: 20% off at https://forum.example/shop", "Post body"),
    ("amazing deal https://deals.example.net/x", "Search"),
    ("Amazing deal on this one, grabbed two", "Comment"),
])
def test_a_plain_link_a_pitch_for_the_same_site_a_search_or_no_link_pass(text, label):
    assert "confirm.web.promo-link" not in typed(text, label, "https://forum.example/t/12").rules


# -- a lure clicked on a page that is bait --------------------------------------------------------------------


@pytest.mark.parametrize(("label", "url"), [
    ("Confirm your billing details", "https://paypa1-billing.example.net/resolve"),
    ("Your parcel is on hold - update your delivery address", "http://198.51.100.71/track"),
    ("Claim your gift now", "https://prize-winner-claim.example.com/"),
    ("Réactivez votre accès", "https://acces-client.example.click/"),
    ("Urgent: account will be suspended", "https://customer-notice.example.xyz/"),
])
def test_a_lure_clicked_on_a_bait_page_blocks(label, url):
    got = click(label, url)
    assert got.decision is Decision.BLOCK and "block.web.lure-on-bait-page" in got.rules, got.rules


@pytest.mark.parametrize(("label", "url"), [
    # the same words on the brand's own site or a home router's page, and an ordinary button on a cheap domain
    ("Confirm your billing details", "https://www.example-shop.com/account/billing"),
    ("Update your payment details", "http://192.168.0.1/admin/billing"),
    ("Next", "https://photos.example.xyz/album/3"),
    ("Read more", "http://198.51.100.71/news"),
])
def test_the_same_clicks_elsewhere_do_not_block_as_bait(label, url):
    assert "block.web.lure-on-bait-page" not in click(label, url).rules


@pytest.mark.parametrize(("label", "url"), [
    ("Grant access: allUsers - Storage Object Viewer", "https://console.example.cloud/storage/browser/hr-backups/perms"),
    ("Add principal allAuthenticatedUsers as Reader", "https://console.example.cloud/storage/browser/db-dumps/perms"),
    ("Make public", "https://git.example.org/acme/nightly-backups/settings"),
])
def test_backups_and_dumps_made_public_block(label, url):
    got = click(label, url)
    assert got.decision is Decision.BLOCK and "block.gui.private-made-public" in got.rules, got.rules


@pytest.mark.parametrize(("label", "url"), [
    ("Grant access: allUsers - Storage Object Viewer", "https://console.example.cloud/storage/browser/site-assets/p"),
    ("Notify all users", "https://console.example.cloud/storage/browser/hr-backups/perms"),
    ("Make public", "https://git.example.org/acme/landing-page/settings"),
])
def test_public_assets_and_ordinary_grants_only_ask(label, url):
    assert "block.gui.private-made-public" not in click(label, url).rules
