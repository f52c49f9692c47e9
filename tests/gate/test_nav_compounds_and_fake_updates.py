"""Where a navigation or a click goes (gate/destinations.py, gate/rules/navigate.py, gate/rules/web.py,
resources/destinations.toml): a brand's name fused with a product or a lure word in a host that is not the brand's,
a host named with two sign-in or lure words, and a browser's or a program's "update" served by a site that is not
its vendor's. Examples are our own, written from anti-phishing working group guidance, vendors' phishing-awareness
pages and public reports on fake-update campaigns (SocGholish, ClearFake); each rule has triggers and near misses."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict, destinations
from gate.model import Decision, Observation

GATE = SafetyGate()


def navigate(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation())


def click(label: str, url: str):
    return GATE.assess(action_from_dict({"type": "click", "x": 10, "y": 10, "target": {"label": label}, "url": url}),
                       Observation(url=url))


# -- a brand fused with a product or a lure word ----------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://outlook365-signin.example-mailhub.net/common/oauth2/authorize",
    "https://securepaypal-center.example.org/signin",
    "https://dropboxlogin.example-files.top/",
    "https://asana-team-invite.example-work.top/join",
    "https://docusign2-review.example.net/login",
])
def test_a_brand_fused_with_a_lure_blocks(url):
    got = navigate(url)
    assert got.decision is Decision.BLOCK and "block.nav.brand-lure" in got.rules, (url, got.rules)


@pytest.mark.parametrize("url", [
    "https://www.office.com/",
    "https://login.microsoftonline.com/common/oauth2/authorize",
    "https://miro.com/app/board/uXjVabc=/",
    "https://www.dropbox.com/login",
])
def test_the_brands_own_site_passes(url):
    assert navigate(url).decision is Decision.ALLOW, url


def test_fused_names_split_at_the_brand():
    claim = destinations.impersonation("microsoft365-portal.example.top")
    assert claim is not None and claim.token == "microsoft"
    claim = destinations.impersonation("secureamazon-help.example.net")
    assert claim is not None and claim.token == "amazon"
    assert destinations.impersonation("mygardenclub-notes.example.com") is None  # no brand fused in it


# -- two sign-in or lure words, no brand -------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://login-secure.example-portal.com/",
    "https://account-verify-center.example.net/",
    "https://support-update.example-desk.org/",
])
def test_a_host_named_with_two_lures_asks(url):
    got = navigate(url)
    assert got.decision is not Decision.ALLOW and "confirm.nav.lure-compound" in got.rules, (url, got.rules)


@pytest.mark.parametrize("url", [
    "https://login.example-portal.com/",
    "https://support-portal.example-corp.com/",
    "https://status-update.example.com/",
    "https://help-center.example.com/",
])
def test_one_lure_word_passes(url):
    assert "confirm.nav.lure-compound" not in navigate(url).rules, url


# -- fake updates ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://browser-update.example-news.top/ChromeSetup.exe",
    "https://cdn.example-blog.net/wp-content/uploads/FirefoxUpdate.zip",
    "https://edge-upgrade.example.org/download/MicrosoftEdge_Installer.msi",
    "https://files.example-mirror.net/Opera_Update.js",
])
def test_an_update_from_another_site_blocks(url):
    got = navigate(url)
    assert got.decision is Decision.BLOCK and "block.web.fake-update" in got.rules, (url, got.rules)


@pytest.mark.parametrize("url", [
    "https://dl.google.com/chrome/install/ChromeStandaloneSetup64.exe",
    "https://download.mozilla.org/?product=firefox-latest-ssl&os=win64",
    "https://github.com/example-org/example-app/releases/download/v2.1/ExampleApp-Setup.exe",
    "https://downloads.example-corp.com/reports/quarterly.zip",
])
def test_the_vendors_download_or_a_plain_file_passes_the_rule(url):
    assert "block.web.fake-update" not in navigate(url).rules, url


@pytest.mark.parametrize(("label", "url"), [
    ("Update Chrome", "https://news.example-daily.net/article/5521"),
    ("Upgrade your Firefox now", "https://recipes.example-kitchen.org/soup"),
])
def test_an_update_button_on_another_site_blocks(label, url):
    got = click(label, url)
    assert got.decision is Decision.BLOCK and "block.web.fake-update-button" in got.rules, (label, got.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Update Chrome", "https://support.google.com/chrome/answer/95414"),
    ("Install Firefox", "https://news.example-daily.net/browsers-compared"),
    ("Update", "https://news.example-daily.net/article/5521"),
])
def test_the_vendors_page_or_an_install_link_passes(label, url):
    assert "block.web.fake-update-button" not in click(label, url).rules, (label, url)


# -- a URL that says it uploads private data ---------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://metrics-hub.example.net/upload?data=saved_passwords",
    "https://sync.example-cdn.org/collect?d=browser_cookies",
    "https://api.example-reports.com/ingest?payload=patients_dob",
    "https://drop.example.net/exfil/ssn_records",
    "https://stats.example.net/upload?data=c3NoLXJzYSBBQUFBQjNOemFDMXljMkVBQUFBREFRQUJBQUFCQVFD",
])
def test_a_url_naming_private_data_it_sends_asks(url):
    got = navigate(url)
    assert got.decision is not Decision.ALLOW and "confirm.nav.data-named-out" in got.rules, (url, got.rules)


@pytest.mark.parametrize("url", [
    "https://www.example.com/search?q=password+manager",
    "https://www.example.com/settings?p=passwords",
    "https://shop.example.com/cart?c=gift-cards",
    "https://www.example.com/api/data?data=sales_2024",
    "https://docs.example.net/guide?topic=cookies",
])
def test_urls_that_only_name_a_topic_pass(url):
    assert "confirm.nav.data-named-out" not in navigate(url).rules, url


# -- the whole internet as a firewall rule's source ----------------------------------------------------------------

def typed(text: str, label: str, url: str):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}, "url": url}),
                       Observation(url=url))


@pytest.mark.parametrize(("text", "label", "url"), [
    ("0.0.0.0/0", "Inbound rule: SSH source", "https://cloud.example-vps.com/networking/firewalls/7/rules"),
    ("::/0", "Authorized networks", "https://console.example-cloud.com/sql/instances/orders-db/connections"),
    ("0.0.0.0/0", "Source", "https://console.example-cloud.com/vpc/security-groups/sg-01/inbound"),
    ("0.0.0.0/0", "Allowed IPs (port 3389)", "https://portal.example-cloud.com/vm/win01/networking"),
])
def test_the_whole_internet_as_an_admin_ports_source_asks(text, label, url):
    got = typed(text, label, url)
    assert got.decision is Decision.CONFIRM and "confirm.gui.open-to-internet" in got.rules, (text, label, got.rules)


@pytest.mark.parametrize(("text", "label", "url"), [
    ("0.0.0.0/0", "Inbound rule: HTTPS source", "https://cloud.example-vps.com/networking/firewalls/7/rules"),
    ("198.51.100.24/32", "Inbound rule: SSH source", "https://cloud.example-vps.com/networking/firewalls/7/rules"),
    ("0.0.0.0/0", "Search", "https://cloud.example-vps.com/networking/firewalls"),
    ("0.0.0.0/0", "Search docs", "https://docs.example-cloud.com/networking/routes"),
])
def test_a_web_port_an_office_range_or_a_search_passes(text, label, url):
    assert "confirm.gui.open-to-internet" not in typed(text, label, url).rules, (text, label)


@pytest.mark.parametrize(("url", "level"), [
    ("https://chrome-update.example-news.top/", Decision.BLOCK),
    ("https://firefox-upgrade.example-news.net/", Decision.CONFIRM),
])
def test_a_page_named_for_a_products_update_on_another_site(url, level):
    assert navigate(url).decision is level, navigate(url).rules


@pytest.mark.parametrize("url", ["https://edge-update.example.com/", "https://www.mozilla.org/firefox/new/",
                                 "https://update.example-corp.com/"])
def test_an_everyday_word_or_the_vendors_site_passes(url):
    assert navigate(url).decision is Decision.ALLOW, (url, navigate(url).rules)


def test_update_your_browser_on_another_site_blocks():
    got = click("Update your browser", "https://recipes.example-kitchen.org/soup")
    assert got.decision is Decision.BLOCK and "block.web.fake-update-button" in got.rules, got.rules


@pytest.mark.parametrize("url", [
    "https://metrics-hub.example.top/upload?data=saved_passwords",
    "https://collect.example-analytics.net/upload?data=browser_cookies",
])
def test_private_data_named_for_a_hiding_place_blocks(url):
    got = navigate(url)
    assert got.decision is Decision.BLOCK and "block.nav.data-named-drop" in got.rules, (url, got.rules)
    assert "confirm.nav.data-named-out" not in got.rules


def test_private_data_named_for_an_ordinary_host_only_asks():
    got = navigate("https://api.example-reports.com/ingest?payload=patients_dob")
    assert got.decision is Decision.CONFIRM and "block.nav.data-named-drop" not in got.rules, got.rules


@pytest.mark.parametrize("url", [
    "https://the.earth.li/~sgtatham/putty/latest/w64/putty-64bit-0.80-installer.msi",
    "https://downloads.dell.com/FOLDER/Intel-Chipset-Device-Software_setup.exe",
])
def test_a_vendors_own_mirror_or_an_oems_driver_page_is_no_fake_update(url):
    assert "block.web.fake-update" not in navigate(url).rules, url


def test_an_it_page_offering_a_programs_update_is_no_fake_browser_update():
    assert "block.web.fake-update-button" not in click("Update Zoom", "https://it.example-college.edu/software").rules


def test_a_programs_update_file_offered_by_another_page_blocks():
    got = click("Download 'Teams_Update_x64.exe' (from HR)", "https://mail.example-webmail.com/inbox/11")
    assert got.decision is Decision.BLOCK and "block.web.fake-update-button" in got.rules, got.rules


def test_the_vendors_own_installer_link_is_no_fake_update():
    assert "block.web.fake-update-button" not in click("Download ZoomInstaller.exe", "https://zoom.us/download").rules


@pytest.mark.parametrize("host", ["login.yahoomail.com", "www.myworkday.com", "www.googlemail.com"])
def test_a_brands_own_compound_name_is_no_impostor(host):
    assert "block.nav.brand-lure" not in navigate(f"https://{host}/login").rules, host
