"""Sending coins (gate/rules/crypto_send.py): a wallet address typed into a transfer's recipient asks, and blocks on
a page the gate judges a lure; an explorer's search, an address to check or report, an allowlist and a faucet pass.
Our own example addresses and pages."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.rules.crypto_send import wallet_address

GATE = SafetyGate()

EVM = "0x52908400098527886E0F7030069857D2E4169EE7"
BTC = "bc1qw508d6qejxtdg4y87ceq8tmz3mlqpx8rwj9z4q"
BTC_LEGACY = "1BoatSLRHtKNngkdXEeobR76b53LETtpyT"
TRON = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW"
SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
ENS = "alice-example.eth"


def typed(text: str, label: str, url: str = "", title: str = ""):
    action: dict = {"type": "type", "text": text, "target": {"label": label}}
    if url:
        action["url"] = url
    return GATE.assess(action_from_dict(action), Observation(url=url, window_title=title))


@pytest.mark.parametrize("text", [EVM, EVM.lower(), BTC, BTC_LEGACY, TRON, SOL, ENS,
                                  "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7"
                                  "drv2xwl2wywfgse35a3x", "rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv"])
def test_wallet_addresses_are_read(text):
    assert wallet_address(text)


@pytest.mark.parametrize("text", ["hello world", "Transformers", "alice@example.com", "12345678901234567890",
                                  "ThisIsJustAWordWithoutDigitsHere", "https://example.com/send", "0x1234"])
def test_other_text_is_not_an_address(text):
    assert not wallet_address(text)


@pytest.mark.parametrize("text,label,url,title", [
    (EVM, "Recipient address", "https://app.example-wallet.io/send", "Send ETH"),
    (EVM, "Send to", "", "Wallet"),
    (BTC, "Pay to", "", "Electrum"),
    (TRON, "Withdrawal address", "https://www.exchange-example.com/withdraw/usdt", "Withdraw USDT"),
    (SOL, "Destinatario", "", "Phantom"),
    (ENS, "To", "", "Rabby - Send"),
    (EVM, "Address", "", "Send tokens"),
    (BTC, "Adresse", "", "Bitcoin senden"),
    (EVM, "收款地址", "", "转账"),
    (EVM, "Empfängeradresse", "", "Überweisen"),
])
def test_a_recipient_address_asks(text, label, url, title):
    assert typed(text, label, url, title).decision in (Decision.CONFIRM, Decision.BLOCK)


def test_a_recipient_address_in_a_wallet_send_window_asks_only():
    r = typed(EVM, "Send to", "", "Example Wallet - Send")
    assert r.decision is Decision.CONFIRM
    assert "confirm.typed.crypto-recipient" in r.rules


@pytest.mark.parametrize("url,title", [
    ("https://btc-double-event.org/", "Send"),
    ("https://eth-claim-portal.vercel.app/", "Claim"),
    ("https://example-nft-drop.com/mint", "Free Mint Giveaway"),
])
def test_a_recipient_address_on_a_lure_page_blocks(url, title):
    r = typed(EVM, "To Address", url, title)
    assert r.decision is Decision.BLOCK
    assert "block.typed.crypto-recipient-on-lure" in r.rules


@pytest.mark.parametrize("text,label,url,title", [
    (EVM, "Search by address, transaction or token", "https://etherscan.io/", "Etherscan"),
    (BTC, "Search", "https://mempool.space/", "mempool - Bitcoin Explorer"),
    (EVM, "Scam address to report", "https://www.chainabuse.com/report", "Report a scam"),
    (EVM, "Address", "https://app.example-wallet.io/settings/allowlist", "Withdrawal allowlist"),
    (EVM, "Your wallet address", "https://faucet.example-testnet.org/", "Testnet Faucet"),
    (EVM, "Address to check", "https://checker.example.org/", "Address checker"),
    ("example-shop.eth", "Search names", "https://app.ens.domains/", "ENS"),
])
def test_looking_up_checking_or_reporting_an_address_passes(text, label, url, title):
    assert typed(text, label, url, title).decision is Decision.ALLOW


def test_a_base58_address_in_an_explorer_search_is_no_transfer():
    r = typed(SOL, "Search", "https://solscan.io/", "Solscan")
    assert not {"confirm.typed.crypto-recipient", "block.typed.crypto-recipient-on-lure"} & set(r.rules)


@pytest.mark.parametrize("text,label,title", [
    ("Hi Sam, the notes are attached", "Message", "Send message"),
    ("alice@example.com", "To", "New message - Send"),
    ("Quarterly report", "Subject", "Send"),
])
def test_ordinary_sending_is_not_a_coin_transfer(text, label, title):
    r = typed(text, label, "", title)
    assert "confirm.typed.crypto-recipient" not in r.rules
    assert "block.typed.crypto-recipient-on-lure" not in r.rules
