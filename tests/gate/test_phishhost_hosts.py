"""Phishing kits' host names read word by word, and big providers' sign-in pages on other hosts (gate/phish_hosts.py,
`[phish-host]` of resources/destinations.toml, the rules in gate/rules/navigate.py). Our own hosts, written in the
shapes phishing-kit trackers and anti-phishing feeds describe; each rule with triggers and near misses."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.phish_hosts import kit_host, provider_sign_in

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


def typed(page: str, label: str, text: str):
    action = {"type": "type", "text": text, "target": {"label": label}}
    return GATE.assess(action_from_dict(action), Observation(url=page, app="Google Chrome"))


def clicked(page: str, label: str):
    action = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    return GATE.assess(action_from_dict(action), Observation(url=page, app="Google Chrome"))


def ids(result) -> set[str]:
    return set(result.rules)


# -- a big provider's sign-in page elsewhere ------------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://login.portal-office.example.net/common/oauth2/v2.0/authorize?client_id=1",
    "http://mailbox-team.example.org/ppsecure/post.srf",
    "https://shop.example.biz/wp-includes/js/x/ServiceLogin?continue=mail",
    "https://secure.example-cloud.net/signin/v2/identifier?flowName=GlifWebSignIn",
    "http://store.example.co/ap/signin?openid.mode=checkid_setup",
    "http://id.example.ink/appleauth/auth/signin",
    "http://paying.example.net/cgi-bin/webscr?cmd=_login-run",
])
def test_a_providers_sign_in_path_on_another_host_blocks(url):
    r = nav(url)
    assert r.decision is Decision.BLOCK
    assert "block.nav.provider-sign-in-elsewhere" in ids(r)


@pytest.mark.parametrize("url", [
    "https://accounts.google.com/ServiceLogin?service=mail",
    "https://accounts.google.co.in/signin/v2/identifier",
    "https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=1",
    "https://login.live.com/login.srf",
    "https://idmsa.apple.com/appleauth/auth/signin",
    "https://www.amazon.de/ap/signin?openid.mode=checkid_setup",
    "https://www.paypal.com/cgi-bin/webscr?cmd=_login-run",
    "http://localhost:8080/ServiceLogin",
    "http://127.0.0.1:3000/common/oauth2/authorize",
    "https://mail.example-company.com/owa/auth/logon.aspx",
    "https://sso.example-company.com/adfs/ls/?wa=wsignin1.0",
    "https://blog.example.com/posts/servicelogins-explained",
])
def test_the_providers_own_sign_in_and_self_hosted_sign_ins_pass(url):
    assert not {"block.nav.provider-sign-in-elsewhere", "confirm.nav.provider-sign-in-host"} & ids(nav(url))


def test_a_providers_sign_in_host_copied_in_front_of_another_domain():
    short = provider_sign_in("accounts.g.example-mail.net", "/")
    assert short is not None and short.level == "confirm"
    whole = provider_sign_in("login.microsoftonline.example-mail.net", "/")
    assert whole is not None and whole.level == "block"
    assert provider_sign_in("accounts.example-mail.net", "/") is None
    assert provider_sign_in("login.example.com", "/") is None
    assert "confirm.nav.provider-sign-in-host" in ids(nav("https://login.ms.example-mail.net/"))


# -- kits' host names -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("host", [
    "supportcenter-amzn.hopto.org",                      # a brand written short, on a dynamic-DNS name
    "paypa1-accountupdate.example-shop.net",             # digits for letters, glued to account words
    "appleidsecurelocked.example.org",                   # a brand glued to account words in one label
    "en.netflix.billingupdatesuspended4482.example.com",  # a brand's label in front of run-together words
    "verifynowwellsfargo.example.info",                  # a brand after a word
    "restoreaccess-microsoftaccount.example.site",
    "signin.verify.account.update.session.example.com",  # four account words stacked, one of them a warning
    "secure-account-verification.duckdns.org",           # a warning and account words on a dynamic-DNS name
    "urgent-billing-confirmation.weebly.com",            # ... and on a free website host
    "btc-giveaway-event.example.com",                    # a coin giveaway
    "solanagivers.example.net",
    "metamask-restore.example.app",                      # a wallet maker's name beside a lure
])
def test_kit_host_names_block(host):
    r = nav(f"http://{host}/")
    assert r.decision is Decision.BLOCK, r.rules
    assert "block.nav.kit-host" in ids(r)


@pytest.mark.parametrize("host", [
    "service-security.qzvormplet.com",                   # account words stacked in front of another site
    "client-center.lockedaccessservice.example.com",     # run together, with a warning among them
    "konto-verifizierung-sicherheit.example.de",         # the same words in German
    "myetherwallet.garden",                              # a wallet maker's name under another top-level name
    "myethervvalet.com",                                 # ... misspelt
    "trezorwalletapp.example.com",                       # ... glued to other letters
    "airdrop-hub.example.com",                           # an airdrop
    "coin-wallet.example.top",                           # a coin wallet's name under a bulk-registered name
    "bitcoinexploits.example.net",                       # "exploits" that promise coins
])
def test_kit_host_names_ask(host):
    r = nav(f"http://{host}/")
    assert r.decision is not Decision.ALLOW, r.rules
    assert {"confirm.nav.kit-host", "block.nav.kit-host"} & ids(r)


@pytest.mark.parametrize("host", [
    "myhome.duckdns.org", "auth.myhome.duckdns.org", "login.nas.ddns.net", "vault.home.duckdns.org",
    "mail.myhouse.hopto.org", "jellyfin.mine.dynu.net", "portfolio.weebly.com", "myblog.wordpress.com",
    "accounts.google.com", "myaccount.google.com", "login.microsoftonline.com", "account.microsoft.com",
    "appleid.apple.com", "signin.aws.amazon.com", "www.paypal.com", "secure.booking.com", "accounts.spotify.com",
    "id.atlassian.com", "login.salesforce.com", "accounts.zoho.com", "secure.login.gov", "customerservice.costco.com",
    "www.googletagmanager.com", "www.googleadservices.com", "appleinsider.com", "www.pineapple-recipes.example.com",
    "purchase.example-shop.com", "www.accountingservices.example.com", "unlimited-hosting.example.net",
    "data-recovery-services.com", "www.securityweek.com", "krebsonsecurity.com", "ethereum.org",
    "www.coindesk.com", "airdrops.io", "thegivingblock.com", "www.givewell.org", "metamask.io", "trustwallet.com",
    "www.ledger.com", "support.ledger.com", "www.myetherwallet.com", "trezor.io", "app.uniswap.org",
    "coinmarketcap.com",
    "www.ethernet-alliance.org", "www.citizensbank.com", "www.applied-research.example.com", "localhost",
    "secureserver.net", "www.updatestar.com", "www.helpdesk.com",
])
def test_ordinary_hosts_pass(host):
    assert kit_host(host) is None
    assert not {"confirm.nav.kit-host", "block.nav.kit-host"} & ids(nav(f"https://{host}/"))


def test_words_inside_everyday_words_are_not_read():
    # `purchase` holds `chase`, `pineapple` holds `apple`: neither is the brand
    found = kit_host("purchase-support.example.com")
    assert found is None or "'chase'" not in found.why
    assert kit_host("pineapplesecure.example.com") is None


# -- what is typed and clicked on such a page -----------------------------------------------------------------------

KIT_PAGE = "http://secure-account-verification.duckdns.org/login"
PROVIDER_PAGE = "https://accounts.g.example-mail.net/ServiceLogin"


@pytest.mark.parametrize(("label", "text"), [
    ("Password", "Blue-Heron-72!"),
    ("Card number", "4000 0566 5566 5556"),
    ("PIN", "9137"),
    ("One-time code", "482913"),
    ("Recovery phrase", "apple river cloud stone piano lamp orbit velvet tiger candle ocean mirror"),
    ("Private key", "0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"),
    ("Mot de passe", "Soleil-Rouge-19"),
])
def test_a_secret_typed_on_a_kit_host_blocks(label, text):
    for page in (KIT_PAGE, PROVIDER_PAGE):
        r = typed(page, label, text)
        assert r.decision is Decision.BLOCK, (page, r.rules)
        assert "block.nav.kit-host-secret" in ids(r)


def test_other_typing_and_clicks_there_ask_and_signing_in_on_a_blocking_page_blocks():
    r = typed(KIT_PAGE, "Email or username", "jordan.miles")
    assert r.decision is not Decision.ALLOW
    assert "confirm.nav.kit-host-action" in ids(r)
    r = clicked(PROVIDER_PAGE, "Next")
    assert r.decision is Decision.BLOCK and "block.nav.kit-host-secret" in ids(r)
    asked = clicked("http://airdrop-hub.example.com/", "Connect Wallet")
    assert "confirm.nav.kit-host-action" in ids(asked)
    assert "block.nav.kit-host-secret" not in ids(asked)


def test_the_same_typing_on_a_real_sign_in_page_is_not_judged_here():
    for page in ("https://accounts.google.com/ServiceLogin", "https://www.paypal.com/signin",
                 "https://auth.myhome.duckdns.org/login"):
        assert not {"block.nav.kit-host-secret", "confirm.nav.kit-host-action"} & ids(
            typed(page, "Password", "Blue-Heron-72!"))
        assert not {"block.nav.kit-host-secret", "confirm.nav.kit-host-action"} & ids(clicked(page, "Next"))


def test_a_developers_platform_asks_where_a_dynamic_dns_name_blocks():
    demo = kit_host("email-verification-service.example-demo.netlify.app".replace("example-demo.", ""))
    assert demo is not None and demo.level == "confirm"
    dyn = kit_host("email-verification-service.hopto.org")
    assert dyn is not None and dyn.level == "block"
    assert kit_host("auth-demo.netlify.app") is None
    assert kit_host("johnsmith.github.io") is None
    branded = kit_host("paypal-account-verify.netlify.app")
    assert branded is not None and branded.level == "block"


def typed_titled(page: str, title: str, label: str, text: str):
    action = {"type": "type", "text": text, "target": {"label": label}}
    return GATE.assess(action_from_dict(action), Observation(url=page, window_title=title, app="Google Chrome"))


@pytest.mark.parametrize("title", ["Sign in - Google Accounts - Google Chrome", "Sign in to your Microsoft account",
                                   "Manage your Apple ID", "Log in to your PayPal account", "Amazon Sign-In"])
def test_a_secret_typed_under_a_providers_sign_in_title_on_another_host_blocks(title):
    r = typed_titled("https://files-share.example-docs.net/view", title, "Password", "Maple-Leaf-44!")
    assert r.decision is Decision.BLOCK and "block.nav.kit-host-secret" in ids(r)


def test_the_providers_own_page_and_a_page_about_the_provider_pass():
    own = typed_titled("https://accounts.google.com/v3/signin/challenge/pwd", "Sign in - Google Accounts",
                       "Password", "Maple-Leaf-44!")
    assert "block.nav.kit-host-secret" not in ids(own)
    article = typed_titled("https://blog.example.com/apple-id", "How to reset your Apple ID - Example Blog",
                           "Password", "Maple-Leaf-44!")
    assert "block.nav.kit-host-secret" not in ids(article)
    search = typed_titled("https://files-share.example-docs.net/view", "Sign in - Google Accounts", "Search",
                          "quarterly report")
    assert "block.nav.kit-host-secret" not in ids(search)
