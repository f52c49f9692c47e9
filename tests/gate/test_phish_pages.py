"""Phishing pages named where they do not belong (gate/rules/navigate.py `block.nav.hosted-sign-in`,
`confirm.nav.hosted-brand-name`, `block.nav.brand-path-sign-in`, `block.nav.agency-payment`, `block.nav.glued-name`,
`confirm.nav.scam-glued-name`, `block.nav.hosted-sign-in-click`; gate/rules/web.py look-alike spellings;
`[phishing]` of resources/destinations.toml). The hosts are our own, written in the shapes anti-phishing feeds list:
a sign-in page in a bucket or on a free host, a kit's folder on a broken-into site, a brand glued to its country
domain, an unpaid-fine page, a gift-code site. Each side has its benign neighbours: the brands' own sites, project
pages and docs, articles, search results, sign-in-with routes, company sign-on tenants and local servers."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def on_page(kind: str, url: str, label: str = "", text: str = ""):
    action: dict = {"type": kind}
    if kind == "click":
        action.update(x=10, y=10)
    else:
        action["text"] = text
    if label:
        action["target"] = {"label": label}
    return GATE.assess(action_from_dict(action), Observation(url=url))


@pytest.mark.parametrize("url", [
    # a sign-in page served as a file from object storage
    "https://pub-9f8e7d6c5b4a39281706f5e4d3c2b1a0.r2.dev/Outlook%20Web%20App%20Sign%20In.html",
    "https://files-7781.s3.amazonaws.com/webmail-login.html",
    "https://storage.googleapis.com/tmp-bkt-88/verify-account.html",
    "https://acct881.blob.core.windows.net/web/roundcube_login.htm",
    "https://bucket-x.s3.eu-west-1.amazonaws.com/connexion-compte.html",
    # a brand's sign-in on a free host or a dynamic-DNS name
    "https://paypal-account.web.app/login.html",
    "https://banq-x1.duckdns.org/www.bnpparibas.fr/espace-client/connexion.php",
    "https://qwe.ddns.net/sharepoint/login.php",
    "https://metamask-wallet-extension.vercel.app/",
    "https://someone.github.io/office365/login.html",
    "https://x9.weebly.com/chase/verify.html",
    # a kit's brand-named folder on someone else's site
    "https://oldbakery-shop.com/wp/x/webmail-gmx/login/index.php",
    "http://plumbing-pros.net/files/outlook-web/signin.html",
    "http://randomsite.org/-/secure.bankofamerica.com/verify/account.php",
    # a brand glued to its own country domain or to banking and sign-in words
    "https://amazoncojp-signin.top/",
    "http://paypalcomau.xyz/",
    "http://smbccardcojp.com/",
    "http://mufgbankcojp.net/login",
    "http://netflix02login-44secure.com/",
    # an agency's fine or fee paid on a host that is not the government's
    "https://avis-amende.paiement-antai-gouv.com/paiement",
    "https://online-dvla.example-fines.com/pay/",
    "https://sunpass-notice.example.net/payment.php",
    "https://portal.espaceimpots.example.net/regler/paiement.php",
    "https://irs-notice.example.org/payment",
])
def test_phishing_pages_block(url):
    assert nav(url).decision is Decision.BLOCK, url


@pytest.mark.parametrize("url", [
    # a free host's tenant named for a brand's app, wallet or support page
    "https://new-ledger-live-app.github.io/",
    "https://trezor-io-start.netlify.app/",
    "https://fb-page-support-5512345.web.app/",
    "https://ig-verify-center.pages.dev/",
    "https://exodus-wallet-desktop.vercel.app/",
    # a gift-code or giveaway site's run-together name
    "http://claimfreerobux.com/",
    "https://redeemgiftcode.net/",
    "https://unlockvouchercodes.org/",
    # look-alike spellings
    "https://steamcomunnity.com/",
    "https://bankofamerlca.com/",
    "https://wlnatsapp-support.com/",
    "https://clropbox.com/",
    "https://microsoft-securesupport01auth-88protection.com/",
    # an agency's payment page named only in the path
    "https://some-host.example.com/ANTAl/paiement.php",
])
def test_imitations_ask_at_least(url):
    assert nav(url).decision in (Decision.CONFIRM, Decision.BLOCK), url


@pytest.mark.parametrize("url", [
    # the brands' own sites and their sign-in pages
    "https://steamcommunity.com/",
    "https://store.steampowered.com/app/570",
    "https://www.rakuten-bank.co.jp/",
    "https://rakuten.co.jp/",
    "https://www.credit-agricole.fr/particulier/acceder-a-mes-comptes.html",
    "https://www.antai.gouv.fr/paiement",
    "https://www.irs.gov/payments",
    "https://www.gov.uk/pay-dvla-fine",
    "https://www.redeem.microsoft.com/",
    "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    # ordinary project pages, apps and docs on free hosts
    "https://paypal.github.io/",
    "https://microsoft.github.io/vscode-docs/",
    "https://google-research.github.io/",
    "https://google-deepmind.github.io/",
    "https://my-portfolio.vercel.app/",
    "https://my-saas-app.vercel.app/login",
    "https://docs-site.netlify.app/guides/authentication",
    "https://myhome.duckdns.org/nextcloud/login",
    "https://storage.googleapis.com/bucket/data.json",
    "https://proj.github.io/demo/login.html",
    "https://www.sunpass.com/en/payment",
    "https://www.taxsoftware.com/irs-payment-options",
    # articles, search results, archives and scanners that mention a brand's sign-in
    "https://www.theverge.com/2024/1/2/paypal-login-outage-explained",
    "https://news.example.com/tech/chase-bank-login-changes-customers",
    "https://blog.example.com/posts/paypal-login-integration.html",
    "https://www.example.org/2023/05/outlook-web/signin-tips.html",
    "https://www.google.com/search?q=paypal+login",
    "https://www.bing.com/search?q=chase+online+banking+login",
    "https://web.archive.org/web/2020/https://www.paypal.com/signin",
    "https://urlscan.io/domain/paypal-login.com",
    # a site's own sign-in-with routes, company sign-on tenants, local servers
    "https://www.example.com/login/google-oauth2/",
    "https://app.example.com/auth/microsoft/callback.php",
    "https://acme.okta.com/app/salesforce/sso/saml",
    "https://dev12345.service-now.com/login.do",
    "https://acme.auth0.com/login",
    "http://localhost:3000/login",
    "https://zimbra.example.edu/login.jsp",
    "https://mail.company.com/owa/auth/logon.aspx",
    # shops named for what they sell, and long names that are no brand's misspelling
    "https://giftcards.com/",
    "https://www.raise.com/gift-cards",
    "https://wellsfargoadvisors.com/",
    "https://capitalonearena.com/",
    "https://servicenowguru.com/",
    "https://capitalgroup.com/",
    "https://kiln.tech/",
    "https://office03.example.com/",
])
def test_benign_neighbours_pass(url):
    assert nav(url).decision is Decision.ALLOW, (url, nav(url).rules)


def test_signing_in_or_typing_a_secret_on_a_phishing_page_blocks():
    bucket = "https://pub-9f8e7d6c5b4a39281706f5e4d3c2b1a0.r2.dev/Outlook%20Web%20App%20Sign%20In.html"
    assert on_page("click", bucket, "Sign In").decision is Decision.BLOCK
    assert on_page("click", bucket, "Close").decision is Decision.ALLOW
    kit = "https://qwe.ddns.net/sharepoint/login.php"
    assert on_page("type", kit, "Password", "Hunter22!x").decision is Decision.BLOCK
    fine = "https://avis-amende.paiement-antai-gouv.com/paiement"
    assert on_page("type", fine, "Numéro de carte", "4111 1111 1111 1111").decision is Decision.BLOCK
    glued = "http://mufgbankcojp.net/login"
    assert on_page("type", glued, "Card number", "5555 5555 5555 4444").decision is Decision.BLOCK
    folder = "https://oldbakery-shop.com/wp/x/webmail-gmx/login/index.php"
    assert on_page("type", folder, "Search", "opening hours").decision is Decision.ALLOW


def test_signing_in_on_an_ordinary_app_is_not_judged_a_phishing_page():
    app = "https://my-saas-app.vercel.app/login"
    assert "block.nav.hosted-sign-in-click" not in on_page("click", app, "Sign in").rules
    assert "block.nav.hosted-sign-in-click" not in on_page("type", app, "Password", "Hunter22!x").rules
    assert on_page("click", "http://localhost:3000/login", "Sign in").decision is Decision.ALLOW


def test_a_brand_with_a_word_after_it_is_no_misspelling_of_it():
    got = nav("https://aadcdn.microsoftonline-p.com/ests/2.1/content/x.js")
    assert not any("misspelling" in h.reason for h in got.hits if h.rule == "confirm.web.lookalike-host")
    assert "confirm.web.lookalike-host" in nav("https://steamcomunnity.com/").rules
