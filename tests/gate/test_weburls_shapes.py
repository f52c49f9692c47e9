"""Links shaped like malware and phishing delivery, judged by structure (gate/hostile_hosts.py `url_shape`,
`lookalike_domain`; `[url-shape]` of resources/destinations.toml; gate/rules/navigate.py `confirm.nav.url-shape`,
`block.nav.url-shape`, `confirm.nav.shaped-page-action`, `block.nav.hosted-sign-in-click`): a sign-in page served
through a tunnel from someone's computer, a brand spelled with digits on a dynamic-DNS name, a botnet panel's script
or a brand's plugin folder on a content system, a program, a macro document or an archive named as a delivery or a
number on a site with no name, a government's or a bank's domain with one letter changed. Our own hosts, with the
benign neighbours of each shape."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.hostile_hosts import lookalike_domain
from gate.model import Decision, Observation

GATE = SafetyGate()
SHAPE_RULES = ("confirm.nav.url-shape", "block.nav.url-shape")


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def click(label: str, page: str, title: str = ""):
    return GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}, "url": page}),
                       Observation(url=page, window_title=title))


# -- tunnels and dynamic names --------------------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://quiet-violet-hamster.trycloudflare.com/signin.php",
    "https://5f2a-81-20-11-4.ngrok-free.app/account/verify.html",
    "https://brave-otter-42.loclx.io/login/index.html",
    "https://d8e1c2a7b3.lhr.life/logon.htm",
    "https://portal-7x2.devtunnels.ms/secure/login",
])
def test_a_sign_in_page_through_a_tunnel_asks(url):
    a = nav(url)
    assert a.decision is not Decision.ALLOW and any(r in a.rules for r in SHAPE_RULES), a.rules


@pytest.mark.parametrize("url", [
    "https://paypa1-help.ddns.net/",
    "http://amaz0n.hopto.org:8443/",
    "https://micr0soft-office.duckdns.org/home",
    "https://netf1ix.serveo.net/login.html",
])
def test_a_brand_spelled_with_digits_on_a_dynamic_name_blocks(url):
    a = nav(url)
    assert a.decision is Decision.BLOCK, a.rules


@pytest.mark.parametrize("url", [
    "https://localhost.run/docs",  # the tunnel service's own pages
    "https://my-demo-app.loclx.io/",  # a developer's own page, shared
    "https://my-demo-app.loclx.io/index.html",
    "https://3c1a-2001-db8.ngrok-free.app/api/webhook",
    "https://homelab.duckdns.org:8123/",  # a home server on its own port
    "https://nas-at-home.ddns.net/login",  # a home server's own sign-in page
    "http://localhost:8000/login.html",
    "http://127.0.0.1:5000/signin",
])
def test_own_tunnels_home_servers_and_local_servers_pass(url):
    a = nav(url)
    assert not any(r in a.rules for r in SHAPE_RULES), a.rules


def test_signing_in_on_a_tunnel_page_titled_as_a_provider_blocks():
    page = "https://tidy-canyon-river.trycloudflare.com/login.html"
    a = click("Sign in", page, "Outlook")
    assert a.decision is Decision.BLOCK and "block.nav.hosted-sign-in-click" in a.rules, a.rules
    a = click("Anmelden", page, "Netflix")
    assert a.decision is Decision.BLOCK, a.rules


def test_signing_in_on_an_untitled_tunnel_sign_in_page_asks():
    a = click("Log in", "https://tidy-canyon-river.trycloudflare.com/login.html", "Welcome")
    assert a.decision is not Decision.ALLOW and "confirm.nav.shaped-page-action" in a.rules, a.rules


@pytest.mark.parametrize("label", ["Search", "Back", "Read more", "Close"])
def test_other_clicks_on_a_tunnel_sign_in_page_pass(label):
    a = click(label, "https://tidy-canyon-river.trycloudflare.com/login.html", "Netflix")
    assert "confirm.nav.shaped-page-action" not in a.rules and "block.nav.hosted-sign-in-click" not in a.rules, a.rules


def test_signing_in_on_a_developers_tunnel_without_a_sign_in_path_passes():
    a = click("Sign in", "https://my-demo-app.loclx.io/", "My Demo")
    assert a.decision is Decision.ALLOW, a.rules


# -- content systems: panels, scripts in asset folders, a brand's plugin folder --------------------------------------

@pytest.mark.parametrize("url", [
    "http://bakery-example.com/wp-content/uploads/panel/gate.php",
    "http://florist-example.net/admin/fre.php",
    "http://garden-example.org/wp-admin/images/cp/gate.php",
    "http://garden-example.org/wp-includes/css/tmp/shell.php",
    "http://garden-example.org/wp-content/uploads/2024/06/x.php",
])
def test_a_panel_script_or_a_script_in_asset_folders_asks(url):
    a = nav(url)
    assert a.decision is not Decision.ALLOW and any(r in a.rules for r in SHAPE_RULES), a.rules


@pytest.mark.parametrize("url", [
    "http://cycling-club-example.com/wp-content/plugins/sparkasse/",
    "http://cycling-club-example.com/wp-content/plugins/netflix-login/index",
    "http://cycling-club-example.com/wp-content/themes/paypal/verify",
])
def test_a_brands_plugin_or_theme_folder_on_another_site_blocks(url):
    assert nav(url).decision is Decision.BLOCK


@pytest.mark.parametrize("url", [
    "https://bakery-example.com/wp-admin/",
    "https://bakery-example.com/wp-login.php",
    "https://bakery-example.com/wp-content/plugins/woocommerce/assets/js/frontend/cart.min.js",
    "https://bakery-example.com/wp-content/plugins/woocommerce-paypal-payments/",
    "https://bakery-example.com/wp-content/themes/twentytwentyfour/style.css",
    "https://bakery-example.com/wp-content/uploads/2024/05/cake.jpg",
    "https://bakery-example.com/wp-includes/js/tinymce/wp-tinymce.php",
    "https://bakery-example.com/wp-content/plugins/contact-form-7/readme.txt",
    "https://shop-example.com/gateway/checkout.php",
])
def test_ordinary_wordpress_and_shop_paths_pass(url):
    a = nav(url)
    assert not any(r in a.rules for r in SHAPE_RULES), a.rules


# -- files that run code, named as a delivery or a number, from a site with no name ----------------------------------

@pytest.mark.parametrize("url", [
    "http://cargo-example.biz/dl/90817.zip",
    "http://cargo-example.biz/files/Lieferung_447812.docm",
    "http://cargo-example.biz/tmp/factura-20931.xls",
    "http://cargo-example.biz/docs/4410-2281.iso",
    "http://cargo-example.biz/a/photo.scr",
    "http://cargo-example.biz/a/readme.hta",
    "http://cargo-example.biz/a/Rechnung.js",
])
def test_a_program_or_macro_document_named_as_a_delivery_or_number_asks(url):
    a = nav(url)
    assert a.decision is not Decision.ALLOW, a.rules


@pytest.mark.parametrize("url", [
    "https://github.com/acme/tool/releases/download/v2.1.0/tool-2.1.0.zip",
    "https://releases.example-distro.org/24.04/example-24.04-desktop-amd64.iso",
    "https://files.example.net/report2023.xls",
    "https://app.example.net/static/chunk-88213.js",
    "https://files.example.net/photos-2024.zip",
    "https://files.example.net/manual-12345.pdf",
])
def test_release_archives_reports_and_bundles_pass(url):
    a = nav(url)
    assert not any(r in a.rules for r in SHAPE_RULES), a.rules


# -- a government's or a bank's domain with one letter changed -------------------------------------------------------

@pytest.mark.parametrize("host,target", [
    ("bundesregierunq.de", "bundesregierung.de"),
    ("servlce-public.fr", "service-public.fr"),
    ("wellsfarqo.com", "wellsfargo.com"),
    ("bankofamreica.com", "bankofamerica.com"),
    ("belastingdients.nl", "belastingdienst.nl"),
])
def test_a_letter_changed_in_a_well_known_domain_is_read(host, target):
    assert lookalike_domain("www." + host) == target


@pytest.mark.parametrize("host", [
    "www.bundesregierung.de", "stripes.com", "discovery.com", "trust.com", "commerzbanking.de", "example.com",
    "service-public.fr", "www.wellsfargo.com",
])
def test_the_domains_themselves_and_other_words_are_not(host):
    assert lookalike_domain(host) is None


def test_a_lookalike_asks_and_blocks_with_a_sign_in_page():
    assert nav("https://www.bundesregierunq.de/").decision is Decision.CONFIRM
    assert nav("https://www.bundesregierunq.de/konto/anmelden.php").decision is Decision.BLOCK


# -- a brand's name as a folder of an unrelated site -----------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "http://choir-example.org/dropbox/index.php",
    "http://choir-example.org/docusign/index.html",
    "http://choir-example.org/Office365/index.html",
    "http://choir-example.org/~member/wellsfargo/",
])
def test_a_kit_page_in_a_brand_named_folder_asks(url):
    a = nav(url)
    assert a.decision is not Decision.ALLOW and any(r in a.rules for r in SHAPE_RULES), a.rules


@pytest.mark.parametrize("url", [
    "http://choir-example.org/microsoft/login.php",
    "http://choir-example.org/paypal/signin.html",
    "http://choir-example.org/~member/chase/logon.htm",
])
def test_a_sign_in_page_in_a_brand_named_folder_blocks(url):
    assert nav(url).decision is Decision.BLOCK


@pytest.mark.parametrize("url", [
    "https://choir-example.org/integrations/dropbox/",
    "https://choir-example.org/blog/paypal/index.html",
    "https://choir-example.org/auth/google/callback",
    "https://choir-example.org/login/microsoft/index.html",
    "https://choir-example.org/docs/netflix/index.html",
    "https://choir-example.org/netflix/review.html",
    "https://choir-example.org/apple/watch.html",
    "https://choir-example.org/brands/apple/index.html",
    "https://choir-example.org/stripe/webhook",
    "https://www.paypal.com/signin",
])
def test_pages_about_a_brand_and_its_own_site_pass(url):
    a = nav(url)
    assert not any(r in a.rules for r in SHAPE_RULES), a.rules


# -- an app host's tenant named for signing in ------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://signin-desk.workers.dev/login",
    "https://logon-center.pages.dev/index.html",
    "https://verify-account.glitch.me/",
    "https://secure-login.repl.co/",
])
def test_an_app_host_tenant_named_for_signing_in_asks(url):
    a = nav(url)
    assert a.decision is not Decision.ALLOW, a.rules


@pytest.mark.parametrize("url", [
    "https://secure-notes.pages.dev/index.html",
    "https://update-checker.workers.dev/",
    "https://auth-demo.pages.dev/",
    "https://my-portfolio.pages.dev/",
    "https://docs-site.pages.dev/getting-started",
    "https://login.pages.dev/",
])
def test_app_host_projects_pass(url):
    a = nav(url)
    assert not any(r in a.rules for r in SHAPE_RULES), a.rules
