"""Crypto-scam hosts (gate/phish_hosts.py `kit_host`, `[phish-host.crypto]` of resources/destinations.toml) and
anti-phishing sites (gate/rules/navigate.py `confirm.nav.hostile-host`). Our own example hosts, in the shapes the
scam feeds list: a coin beside what a drainer offers to do with it (transfer, bridge, mint, revoke, fix), an airdrop
named alone, a misspelt approval checker, a dapp's app host copied. Benign neighbours: the wallets', exchanges' and
explorers' own sites, their docs and account pages, banks' transfer pages, insurers' claims pages, anti-phishing
projects."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.phish_hosts import kit_host

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


@pytest.mark.parametrize("url", [
    # a coin or a token standard beside a transfer, bridge, swap, mint, revoke or fix
    "https://press-here-to-transfer-trc20.vercel.app/",
    "https://usdt-erc20-bridge.netlify.app/",
    "https://nft-mint-live.pages.dev/",
    "https://sol-refund.web.app/",
    "https://token-revoke.example-dapp.net/",
    "https://polygon-dex.net/",
    "https://bnbwithdraw.site/",
    "https://eth-staking-rewards.pages.dev/",
    "https://dappfixer.net/",
    "https://mainfixdapps.org/",
    # an airdrop named by itself, a free mint
    "https://zorblexairdrop.com/",
    "https://freemint-season.xyz/",
    # approval checkers, explorers and dapps misspelt or copied onto another domain
    "https://revokecashs.app/",
    "https://rev0kecash.org/",
    "https://app-1inch.net/",
    "https://zerion-app.org/",
    "https://bscscan-verify.com/",
    # two drainer offers on a free host; an approval checker's words anywhere
    "https://revoke-approvals.vercel.app/",
    "https://allowance-checker.com/",
    "https://approvalrevoker.net/",
    # cloud mining, and coin rewards on a web3 host
    "https://btc-cloudmining.net/",
    "https://sol-rewards.4everland.app/",
    "https://trc20-usdt-claim.on-fleek.app/",
])
def test_crypto_lure_hosts_ask_or_block(url):
    assert nav(url).decision in (Decision.CONFIRM, Decision.BLOCK), url


@pytest.mark.parametrize("url", [
    "https://eth-transfer-bonus.xyz/",
    "https://claim-crypto-now.lol/",
    "https://usdt-bridge.000webhostapp.com/",
    "https://app-zerion.net/",
    "https://pancakeswap-official.org/",
])
def test_crypto_lure_on_cheap_or_free_hosts_blocks(url):
    assert nav(url).decision is Decision.BLOCK, url


@pytest.mark.parametrize("url", [
    "https://metamask.io/", "https://support.metamask.io/hc/en-us", "https://revoke.cash/",
    "https://revoke.cash/learn/approvals/what-are-token-approvals", "https://etherscan.io/tokenapprovalchecker",
    "https://app.uniswap.org/swap", "https://docs.uniswap.org/", "https://www.coinbase.com/", "https://1inch.io/",
    "https://app.1inch.io/", "https://zerion.io/", "https://bscscan.com/", "https://opensea.io/",
    "https://bridge.arbitrum.io/", "https://portalbridge.com/", "https://www.myetherwallet.com/",
    "https://ethereum.org/en/staking/", "https://bitcoin.org/en/",
    # a wallet maker's own account pages on a host named by account
    "https://metamask.github.io/", "https://trustwallet.github.io/docs/",
    # ordinary words: a bank's transfer page, an insurer's claims, a file transfer service, a budgeting app
    "https://www.bankofamerica.com/online-banking/transfer-money/", "https://claims.geico.com/",
    "https://www.allstate.com/claims", "https://wetransfer.com/", "https://wise.com/transfer",
    "https://www.mint.com/", "https://mintlify.com/docs", "https://www.traderjoes.com/",
    "https://www.database-upgrade.com/", "https://coincheck.com/", "https://swapfiets.nl/",
    "https://www.revolut.com/money-transfer/", "https://www.tokenmetrics.com/",
    # pages about airdrops and approvals on news, data and exchange sites
    "https://www.kraken.com/learn/what-is-an-airdrop", "https://defillama.com/airdrops",
    "https://www.coingecko.com/en/airdrops", "https://docs.metamask.io/wallet/how-to/send-transactions/",
    "https://support.apple.com/guide/iphone/airdrop", "https://www.example-news.com/2025/airdrop-season",
])
def test_real_wallets_and_ordinary_words_pass(url):
    assert nav(url).decision is Decision.ALLOW, url


def test_a_wallet_maker_name_on_someone_elses_free_host_still_asks():
    assert kit_host("metamask-wallet.github.io") is not None
    assert kit_host("metamask.vercel.app") is not None
    assert kit_host("metamask.github.io") is None


@pytest.mark.parametrize("url", [
    "https://phishing-detect.github.io/", "https://example-sec.github.io/phishing-checker/",
    "https://anti-phishing-list.netlify.app/", "https://phishing-report.example.org/",
    "https://antiphishing.example.org/", "https://phishcheck.pages.dev/", "https://malwarescanner.example.com/",
    "https://phishing-awareness-training.example.com/",
])
def test_anti_phishing_sites_are_not_kits(url):
    assert nav(url).decision is Decision.ALLOW, url


@pytest.mark.parametrize("url", [
    "https://phishing-login.example.com/", "https://evil.com/", "https://malware-drop.example.net/",
    "https://phishing-site.example.net/",
])
def test_hosts_named_as_attackers_still_ask(url):
    assert nav(url).decision in (Decision.CONFIRM, Decision.BLOCK), url


def test_checking_a_domain_on_a_wallet_makers_checker_page_passes():
    action = {"type": "type", "text": "ethwallet-example.com", "target": {"label": "domain to check"},
              "url": "https://metamask.github.io/phishing-warning/check"}
    r = GATE.assess(action_from_dict(action),
                    Observation(url="https://metamask.github.io/phishing-warning/check", window_title="phishing check"))
    assert r.decision is Decision.ALLOW


def test_a_transfer_click_on_a_coin_transfer_host_asks():
    action = {"type": "click", "x": 5, "y": 5, "target": {"label": "Transfer USDT"},
              "url": "https://usdt-to-transfer.vercel.app/"}
    r = GATE.assess(action_from_dict(action), Observation(url="https://usdt-to-transfer.vercel.app/"))
    assert r.decision in (Decision.CONFIRM, Decision.BLOCK)
