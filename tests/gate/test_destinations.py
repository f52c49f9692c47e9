"""A destination judged by what it claims to be (gate/destinations.py, resources/destinations.toml; the rules in
gate/rules/navigate.py). Examples are our own hosts, written from consumer-protection guidance on impostor scams: a
text about a parcel that "could not be delivered" with a link to reschedule and pay a fee, a tax office's refund
or a benefit office's suspension notice, a marketplace's "safe payment" or escrow page, a job offer's onboarding
and direct-deposit form, a wallet "sync" or airdrop claim page, a fund-recovery service. Each rule has a trigger and
a near miss."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from gate import SafetyGate, action_from_dict
from gate.destinations import abused_tld, impersonation, judge, lure_words, own_site
from gate.model import Decision, Observation
from gate.urls import registrable, split_url

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def on_page(kind: str, url: str, label: str = "", text: str = ""):
    action: dict = {"type": kind, "url": url}
    if kind == "click":
        action.update(x=10, y=10)
    else:
        action["text"] = text
    if label:
        action["target"] = {"label": label}
    return GATE.assess(action_from_dict(action), Observation(url=url))


def verdict(url: str):
    parts = split_url(url)
    assert parts is not None
    return judge(parts.host, parts.path)


# -- the table ---------------------------------------------------------------------------------------------------

BOOK = tomllib.loads(resources.files("resources").joinpath("destinations.toml").read_text("utf-8"))


def test_the_brand_table_is_broad_and_every_category_is_there():
    brands = BOOK["brands"]
    assert sum(len(t) for t in brands.values()) >= 400
    for category in ("tech-accounts", "banks-payments", "government", "postal-carriers", "marketplaces", "crypto",
                     "jobs-payroll", "travel-ticketing", "streaming-subscriptions", "dev-platforms", "telecoms",
                     "retailers"):
        assert len(brands[category]) >= 20, category
    for table in brands.values():
        for token, domains in table.items():
            assert token == token.lower() and "-" not in token and "." not in token, token
            assert all(d == d.lower() and " " not in d for d in domains), token


def test_lure_words_come_in_several_languages_and_the_abused_names_are_listed():
    words = set(BOOK["lures"]["words"])
    assert {"verify", "refund", "escrow", "onboarding", "redelivery", "airdrop", "wallet-sync"} <= words
    assert {"remboursement", "rückerstattung", "reembolso", "rimborso", "terugbetaling"} <= words
    assert {"top", "xyz", "cfd", "sbs", "icu"} <= set(BOOK["tlds"]["abused"])
    assert not {"com", "org", "net", "io", "dev", "app", "co"} & set(BOOK["tlds"]["abused"])


def test_registrable_is_the_site_under_its_public_suffix():
    assert registrable("pay.sub.harbourline.co.uk") == "harbourline.co.uk"
    assert registrable("a.b.kestrel.top") == "kestrel.top"
    assert registrable("203.0.113.9") == "203.0.113.9"


# -- impersonation: whose name, on whose site ------------------------------------------------------------------

@pytest.mark.parametrize("host", [
    "www.paypal.com", "paypal.me", "www.amazon.co.uk", "amazon.de", "smile.amazon.de", "tools.usps.com",
    "www.royalmail.com", "secure.chase.com", "www.gov.uk", "www.tax.service.gov.uk", "opensea.io",
    "hub.docker.com", "help.coinbase.com", "sellercentral.amazon.com",
])
def test_a_brand_on_its_own_site_or_a_country_site_of_its_name_is_its_own(host):
    assert own_site(host) or impersonation(host) is None
    assert impersonation(host) is None


@pytest.mark.parametrize("host", [
    "google.github.io",  # a brand's own project pages on a hosting platform
    "aws-samples.github.io",
    "stripe-docs.netlify.app",
    "acme.okta.com",  # a company's tenant
    "gitlab.tallgrass.net",  # a company's own install of a product
    "docker-curriculum.com",  # an everyday word beside a product's name
    "target-practice.com",  # an everyday word that is also a shop
    "capital-one-arena-events.com",  # a venue named for its sponsor
])
def test_hosting_tenants_own_installs_and_everyday_words_are_no_strong_claim(host):
    claim = impersonation(host)
    assert claim is None or not claim.strong


@pytest.mark.parametrize("host, token", [
    ("royalmail-parcel.kestrel.top", "royalmail"), ("coinbase.lindenfield.xyz", "coinbase"),
    ("hmrc-rebate-online.com", "hmrc"), ("metamask-sync.harbourline.net", "metamask"),
    ("wells-fargo-alert.harbourline.net", "wellsfargo"),  # a name written apart with hyphens
])
def test_a_distinctive_brand_on_someone_elses_site_is_a_strong_claim(host, token):
    claim = impersonation(host)
    assert claim is not None and claim.token == token and claim.strong


def test_the_words_a_brand_is_spelled_with_are_no_lure_of_their_own():
    assert verdict("https://bank-of-america.tallgrass.net/") is None  # "bank" is the brand's own word here
    v = verdict("https://bank-of-america-alerts.tallgrass.net/")
    assert v is not None and v.level == "block" and "alerts" in v.why


# -- lure words ----------------------------------------------------------------------------------------------------

def test_lure_words_are_read_in_the_host_and_the_path_and_phrases_count_once():
    got = lure_words("secure-login.quarry.cfd", "/wallet-sync/validate")
    assert "secure login" in got.strong and "wallet sync" in got.strong and "validate" in got.strong
    assert "secure" not in got.weak_host  # read as the phrase


def test_an_articles_title_and_a_documentation_path_are_not_read():
    assert lure_words("blog.kestrel.top", "/posts/claim-your-airdrop-safely").strong == ()
    assert lure_words("meadow.xyz", "/guides/how-to-recover-a-locked-account").strong == ()


def test_abused_tlds_are_names_not_addresses():
    assert abused_tld("wallet.quarry.cfd") and not abused_tld("wallet.quarry.org") and not abused_tld("203.0.113.7")


# -- block.nav.brand-lure --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    # a parcel "could not be delivered": reschedule and pay the fee
    "https://evri-redelivery.kestrel.top/fee",
    "https://dhl.paket-zustellung.lindenfield.xyz/",
    # a tax refund and a benefit suspension notice
    "https://hmrc-rebate.northwind.click/claim",
    "https://socialsecurity-suspended.harbourline.net/",
    # a marketplace's "safe payment" page
    "https://gumtree-escrow.meadowlark.org/deal/41",
    # a job offer's onboarding paperwork
    "https://ziprecruiter-onboarding.ferrous.shop/direct-deposit",
    # a wallet sync page and a fake support desk
    "https://metamask-sync.harbourline.net/",
    "https://binance-helpdesk.bramble.online/",
    # a brand on a hosting platform with the lure in the name
    "https://paypal-verify-account.vercel.app/",
    # a brand's name in the path of a bare public address
    "http://203.0.113.80/santander/secure-login/",
])
def test_a_brand_on_another_site_with_a_lure_blocks(url):
    got = nav(url)
    assert got.decision is Decision.BLOCK and "block.nav.brand-lure" in got.rules, got


@pytest.mark.parametrize("url", [
    "https://www.paypal.com/myaccount/settings/verify-email",  # the brand's own site
    "https://www.amazon.de/gp/css/account/verify",  # the brand's country site
    "https://tools.usps.com/redelivery.htm",
    "https://paypal.github.io/sdk-docs/claims/",  # a tenant's path is its own business
    "https://gitlab.tallgrass.net/users/password/recover",  # a company's own install
    "http://192.168.1.1/santander/secure-login/",  # the local network
])
def test_the_brands_own_sites_tenants_and_own_installs_do_not_block(url):
    assert "block.nav.brand-lure" not in nav(url).rules


# -- block.nav.brand-cheap-tld / confirm.nav.brand-elsewhere ----------------------------------------------------------

@pytest.mark.parametrize("url", ["https://coinbase.lindenfield.xyz/", "https://royalmail-uk.kestrel.top/",
                                 "https://trezor.quarry.cfd/"])
def test_a_distinctive_brand_alone_under_an_abused_name_blocks(url):
    got = nav(url)
    assert got.decision is Decision.BLOCK and "block.nav.brand-cheap-tld" in got.rules, got


def test_an_everyday_word_brand_under_an_abused_name_only_asks():
    got = nav("https://target-practice.lindenfield.xyz/")
    assert "block.nav.brand-cheap-tld" not in got.rules and "confirm.nav.brand-elsewhere" in got.rules


@pytest.mark.parametrize("url", ["https://klarna-outlet.tallgrass.net/", "https://etsy-makers.meadowlark.org/shop"])
def test_a_distinctive_brand_on_another_site_elsewhere_asks(url):
    got = nav(url)
    assert got.decision is Decision.CONFIRM and "confirm.nav.brand-elsewhere" in got.rules, got


@pytest.mark.parametrize("url", ["https://www.klarna.com/us/shopping/", "https://google.github.io/styleguide/",
                                 "https://stripe-docs.netlify.app/api", "https://docker-curriculum.com/"])
def test_own_sites_and_project_pages_do_not_ask_as_elsewhere(url):
    got = nav(url)
    assert "confirm.nav.brand-elsewhere" not in got.rules and "block.nav.brand-cheap-tld" not in got.rules


# -- block.nav.lure-words / confirm.nav.lure-word ---------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://funds-recovery.quarry.cfd/claim",  # a fund-recovery service
    "https://airdrop-claim.harbourline.sbs/",  # an airdrop that drains the wallet that connects
    "https://kestrel.top/wallet-connect/validate",
    "https://remboursement-amende.northwind.click/",  # a refund and a fine, in French
    "http://198.51.100.61/unlock/verify",
])
def test_two_lure_terms_under_an_abused_name_or_at_a_bare_address_block(url):
    got = nav(url)
    assert got.decision is Decision.BLOCK and "block.nav.lure-words" in got.rules, got


@pytest.mark.parametrize("url", ["https://giveaway.bramble.online/", "https://quarry.cfd/account/unlock"])
def test_one_lure_term_under_an_abused_name_asks(url):
    got = nav(url)
    assert "confirm.nav.lure-word" in got.rules and "block.nav.lure-words" not in got.rules, got


@pytest.mark.parametrize("url", [
    "https://funds-recovery.meadowlark.org/claim",  # not an abused top-level name
    "https://blog.kestrel.top/posts/airdrop-scams-explained",  # an article
    "https://status.ferrous.shop/",  # no lure
    "https://ferrous.shop/account/login",  # everyday words only
    "https://www.tallgrass.net/account/verify-email",
    "https://quarry.cfd/account/verify-email",  # a site's own e-mail check, whatever its top-level name
    "https://quarry.cfd/help/refund-policy",
])
def test_lure_words_elsewhere_articles_and_everyday_pages_do_not_ask(url):
    got = nav(url)
    assert "confirm.nav.lure-word" not in got.rules and "block.nav.lure-words" not in got.rules


# -- a click or typing on such a page ---------------------------------------------------------------------------------

def test_a_click_on_a_page_that_blocks_blocks_and_leaving_it_passes():
    page = "https://airdrop-claim.harbourline.sbs/"
    got = on_page("click", page, "Connect wallet")
    assert got.decision is Decision.BLOCK and "block.nav.scam-page-action" in got.rules, got
    assert "block.nav.scam-page-action" not in on_page("click", page, "Close").rules
    # the way out of a browser's dangerous-site warning, in several languages
    for label in ("Back to safety", "Zurück zur Sicherheit", "安全なページに戻る", "Leave site"):
        left = on_page("click", page, label).rules
        assert "block.nav.scam-page-action" not in left and "confirm.nav.scam-page-action" not in left, label


def test_typing_a_code_or_an_address_on_a_page_that_blocks_blocks_and_other_typing_asks():
    page = "https://evri-redelivery.kestrel.top/fee"
    got = on_page("type", page, "Delivery address", "12 Sample Road")
    assert got.decision is Decision.BLOCK and "block.nav.scam-page-action" in got.rules, got
    other = on_page("type", page, "Name on parcel", "Sam")
    assert "block.nav.scam-page-action" not in other.rules and "confirm.nav.scam-page-action" in other.rules


def test_a_click_on_a_page_that_asks_asks_and_on_the_brands_own_page_passes():
    got = on_page("click", "https://klarna-outlet.tallgrass.net/", "Pay now")
    assert "confirm.nav.scam-page-action" in got.rules, got
    own = on_page("click", "https://www.klarna.com/us/shopping/", "Pay now")
    assert "confirm.nav.scam-page-action" not in own.rules and "block.nav.scam-page-action" not in own.rules


def test_an_executable_from_a_destination_that_lures_blocks_as_a_malware_drop():
    got = nav("https://trezor-suite-update.quarry.cfd/download/suite-setup.exe")
    assert got.decision is Decision.BLOCK and "block.web.malware-download" in got.rules, got
    assert "block.web.malware-download" not in nav("https://trezor.io/download/suite-setup.exe").rules


def test_an_everyday_word_brand_reads_the_path_only_under_an_abused_name_or_beside_a_host_lure():
    assert verdict("https://kayak-rentals.tallgrass.net/account/verify") is None
    v = verdict("https://kayak-rentals.lindenfield.xyz/account/verify")
    assert v is not None and v.level == "block"
    v = verdict("https://secure-kayak-alerts.tallgrass.net/verify")
    assert v is not None and v.level == "block"
    v = verdict("https://secure-kayak-alerts.tallgrass.net/")
    assert v is not None and v.level == "confirm"


def test_the_verdict_names_the_brand_and_the_lure():
    v = verdict("https://hmrc-rebate.northwind.click/claim")
    assert v is not None and v.level == "block" and "hmrc" in v.why and "rebate" in v.why


def test_a_message_linking_to_a_destination_that_blocks_asks():
    got = GATE.assess(action_from_dict({"type": "type", "text": "Your parcel is waiting: "
                                        "https://evri-redelivery.kestrel.top/fee", "target": {"label": "Message"}}),
                      Observation(url="https://chat.tallgrass.net/room/4"))
    assert "confirm.web.lure-link" in got.rules, got
    plain = GATE.assess(action_from_dict({"type": "type", "text": "Tracking: https://www.evri.com/track/parcel",
                                          "target": {"label": "Message"}}),
                        Observation(url="https://chat.tallgrass.net/room/4"))
    assert "confirm.web.lure-link" not in plain.rules
