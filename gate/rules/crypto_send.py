"""Sending coins: a wallet address typed where a transfer's recipient goes.

    confirm.typed.crypto-recipient   a wallet address (Ethereum and its chains' `0x…`, Bitcoin's `bc1…`/`1…`/`3…`,
                                     Tron's `T…`, Solana's base58, XRP's `r…`, Litecoin's, Dogecoin's, Cardano's,
                                     Cosmos chains', TON's, an ENS name) typed into a recipient, "send to", "to
                                     address" or withdrawal field, or any address field of a page or window titled
                                     for sending: the first step of a transfer nobody can take back
    block.typed.crypto-recipient-on-lure  the same on a page the gate already judges a lure: a phishing kit's host,
                                     a site named like a scam, a giveaway, airdrop or "double your coins" page

A block explorer's search box, an address to look up, check or report, an allowlist and a faucet's "your address"
field pass: they send nothing. Pure.
"""

from __future__ import annotations

import re

from gate.fields import field_text, into_a_field, page_host, page_path, scam_named
from gate.model import Risk
from gate.normalise import fold
from gate.rules.base import CheckResult, Context, rule
from gate.rules.navigate import _lure_page, _page_destination, _page_kit

__all__ = ["RULES", "wallet_address"]

_B58 = "1-9A-HJ-NP-Za-km-z"
_ADDRESS = re.compile(
    r"^(?:0x[0-9a-fA-F]{40}"                                # Ethereum, BNB Chain, Polygon, Arbitrum, Base ...
    r"|(?:bc1|tb1|ltc1|bcrt1)[ac-hj-np-z02-9]{11,71}"       # Bitcoin's and Litecoin's bech32
    r"|(?:BC1|TB1|LTC1)[AC-HJ-NP-Z02-9]{11,71}"
    rf"|[13][{_B58}]{{25,34}}"                              # Bitcoin's legacy and script addresses
    rf"|[LM][{_B58}]{{26,33}}|D[{_B58}]{{33}}"              # Litecoin, Dogecoin
    rf"|T[{_B58}]{{33}}"                                    # Tron
    rf"|r[{_B58}]{{24,34}}"                                 # XRP
    r"|addr1[0-9a-z]{50,110}"                               # Cardano
    r"|(?:cosmos|osmo|inj|sei|celestia|juno|atom|terra|kava|evmos)1[0-9a-z]{38,58}"  # Cosmos chains
    r"|(?:EQ|UQ|kQ|0Q)[A-Za-z0-9_-]{46}"                    # TON
    rf"|[{_B58}]{{32,44}}"                                  # Solana and other base58 keys
    r"|[a-z0-9-]{1,63}\.(?:eth|sol|bnb|ton|crypto|wallet|nft|x)"  # ENS and other chains' names
    r")$")
# a base58 run that is a word or a number is not an address: it needs a digit and both cases
_PLAIN = re.compile(r"^[a-z]+$|^[A-Z]+$|^\d+$")
_BASE58_KEY = re.compile(rf"[{_B58}]{{32,44}}")


def wallet_address(text: str) -> bool:
    """The text is one wallet address, nothing else."""
    text = text.strip()
    if not 5 <= len(text) <= 120 or not _ADDRESS.match(text) or (len(text) >= 14 and _PLAIN.match(text)):
        return False
    mixed = any(c.isdigit() for c in text) and any(c.isupper() for c in text) and any(c.islower() for c in text)
    return mixed or _BASE58_KEY.fullmatch(text) is None  # a bare base58 key needs digits and both cases


# where a transfer's recipient goes (a field's label, name or role; lower case, folded)
_RECIPIENT = re.compile(
    r"\b(?:send(?:ing)? to|to address|to wallet|recipient|recipients|receiver|receiving address|payee|pay to|"
    r"destination(?: address| wallet)?|beneficiary|withdraw(?:al)? (?:to|address)|transfer to|address to send|"
    r"send address|deposit to|"
    r"empfanger|empfangeradresse|zieladresse|an adresse|destinataire|adresse de destination|envoyer a|"
    r"destinatario|direccion de destino|enviar a|endereco de destino|indirizzo (?:del )?destinatario|invia a|"
    r"ontvanger|ontvangstadres|verzenden naar)\b|收款|接收地址|转账地址|提币地址|送金先|受取人|宛先|받는 ?주소|수신")
# a window or page for sending coins
_SEND_PLACE = re.compile(
    r"\b(?:send|sending|transfer|withdraw|withdrawal|pay|payout|senden|uberweisen|auszahlung|auszahlen|envoyer|"
    r"virement|retrait|enviar|transferir|retirar|retiro|inviare|invia|prelievo|verzenden|opnemen)\b|"
    r"发送|转账|提币|提现|送金|出金|보내기|출금")
_SEND_PATH = re.compile(r"/(?:send|transfer|withdraw|withdrawal|payout)(?:[/?#]|$)", re.IGNORECASE)
# an address field: where the recipient's address may go once the window says it is a transfer
_ADDRESS_FIELD = re.compile(r"\b(?:address|to|wallet|adresse|direccion|endereco|indirizzo|adres|public address|"
                            r"ens)\b|地址|アドレス|주소")
# what looks an address up, checks, reports or allows it: nothing is sent
_LOOKUP = re.compile(
    r"\b(?:search|lookup|look up|find|explore|explorer|filter|check|checker|verify|scan|report|reported|flag|"
    r"scam|scammer|phishing|fraud|abuse|blocklist|blacklist|denylist|allowlist|whitelist|watch|watchlist|"
    r"track|label|contact|address book|my address|your address|receive|faucet|"
    r"suchen|rechercher|buscar|pesquisar|cerca|zoeken|melden|signaler|denunciar|segnala)\b|搜索|検索|검색")
_LURE_TITLE = re.compile(
    r"\b(?:giveaway|give away|airdrop|double|doubler|2x|x2|free (?:btc|eth|bitcoin|crypto|coins?|tokens?)|"
    r"claim|reward|rewards|bonus|promo|event|sorteo|regalo|verlosung|gewinnspiel|cadeau|concours|omaggio|"
    r"drainer|exploit|recovery service)\b")


def _field(ctx: Context) -> str:
    return fold(ctx.derived(field_text).words or "").lower()


def _title(ctx: Context) -> str:
    return fold((ctx.observation.window_title or "")[:300]).lower()


def _recipient(ctx: Context) -> str | None:
    """Why the typing fills a transfer's recipient: a wallet address typed into a recipient field, or into an
    address field (or an unnamed one) of a page or window for sending; None for a look-up, a report, an allowlist."""
    if ctx.type != "type" or not into_a_field(ctx):
        return None
    text = (getattr(ctx.action, "text", "") or "").strip()
    if not wallet_address(text):
        return None
    field = _field(ctx)
    title = _title(ctx)
    named = _RECIPIENT.search(field)
    if named is None and (_LOOKUP.search(field) or _LOOKUP.search(title)):
        return None
    if named is not None:
        return f"a wallet address typed into {named.group(0)!r}"
    sending = _SEND_PLACE.search(title) or _SEND_PATH.search(ctx.derived(page_path))
    if sending is not None and (not field or _ADDRESS_FIELD.search(field)):
        return "a wallet address typed into the recipient of a transfer"
    return None


def _lure(ctx: Context) -> str | None:
    """Why the page is already judged a lure, or None."""
    kit = ctx.derived(_page_kit)
    if kit is not None:
        return kit.why
    dest = ctx.derived(_page_destination)
    if dest is not None:
        return dest.why
    why = ctx.derived(_lure_page)
    if why is not None:
        return why
    host = ctx.derived(page_host)
    if host and (named := scam_named(host)):
        return named
    m = _LURE_TITLE.search(_title(ctx))
    return f"the page is titled as a {m.group(0)!r}" if m else None


@rule("block.typed.crypto-recipient-on-lure", "a wallet address typed as a transfer's recipient on a lure's page",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def recipient_on_lure(ctx: Context) -> CheckResult:
    """A wallet address typed into a "send to" field on a page the gate judges a lure: a phishing kit's host, a site
    named like a scam or a brand's look-alike, a giveaway or airdrop page ("send 1, get 2 back"). The coins go to
    the scammer and cannot be called back."""
    why = ctx.derived(_recipient)
    if why is None:
        return None
    lure = ctx.derived(_lure)
    return f"{why} on a lure's page: {lure}" if lure else None


@rule("confirm.typed.crypto-recipient", "a wallet address typed as a transfer's recipient", risk=Risk.HIGH,
      types=("type",), confidence=0.7)
def recipient(ctx: Context) -> CheckResult:
    """A wallet address (`0x…`, `bc1…`, `T…`, a base58 key, an ENS name) typed into a recipient, "send to", "to
    address" or withdrawal field of a wallet or an exchange, or into the address field of a window or page for
    sending: a transfer's first step, and a transfer cannot be undone; the person checks the address. A block
    explorer's search box, an address to check or report, an allowlist, a faucet's "your address" pass."""
    why = ctx.derived(_recipient)
    if why is None or ctx.derived(_lure):
        return None
    return why


RULES = (recipient_on_lure, recipient)
