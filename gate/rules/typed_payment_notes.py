"""Rules: what a payment's own note or reference says it is for.

    block.typed.overpayment-refund     a payment's reference or note that says it returns an overpayment, or
                                       forwards money to a shipping agent, a courier or a mover
    confirm.typed.friends-family-goods a purchase (tickets, an item, a deposit "as agreed") paid in a note field
                                       marked friends and family
    confirm.typed.crypto-recharge      an amount typed into a "recharge" or "top up" field counted in a
                                       cryptocurrency (USDT, USDC, BTC, ETH): the task scam's deposit to "unlock"

The overpayment scam's cheque or transfer bounces after the "excess" is refunded, and the "shipping agent" is the
buyer; PayPal's own help says friends-and-family payments carry no purchase protection, so a seller asking for one
asks to keep the money. A note on a bill paid to a known payee, and a gift to a friend, pass.
"""

from __future__ import annotations

import re

from gate.fields import field_text, into_a_field
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES"]

TYPE = ("type",)

# a payment's note, reference, memo or description field
_NOTE_FIELD = re.compile(r"\b(?:reference|memo|note|description|remittance|purpose|message to (?:payee|recipient)|"
                         r"payment details|verwendungszweck|référence|referencia|concepto|causale)\b")
_OVERPAID = re.compile(r"\b(?:overpa(?:id|yment|y)|over ?payment|excess (?:amount|payment|funds)|extra (?:amount|"
                       r"money) (?:sent|paid))\b|\b(?:forward(?:ed|ing)?|send(?:ing)?|pass(?:ing)? on) (?:\w+ ){0,3}?"
                       r"(?:to )?(?:the |a |his |her |their )?(?:shipping|shipment|courier|transport|moving|removal|"
                       r"logistics|freight|pick ?up) (?:agent|company|firm|service)\b", re.IGNORECASE)
# the note field of a friends-and-family payment, and a purchase named in the note
_FRIENDS = re.compile(r"\b(?:friends? (?:and|&) family|family (?:and|&) friends|f ?& ?f|personal payment|"
                      r"sending to a friend)\b", re.IGNORECASE)
_PURCHASE = re.compile(r"\b(?:tickets?|item|items|order|deposit|purchase|shipping|postage|delivery|puppy|kitten|"
                       r"as agreed|as discussed|for the (?:phone|bike|car|laptop|console|sofa|couch|apartment|flat|"
                       r"room|rent)|rent)\b", re.IGNORECASE)


def _note(ctx: Context) -> str | None:
    text = getattr(ctx.action, "text", "") or ""
    if not 4 <= len(text) <= 400 or not into_a_field(ctx):
        return None
    return text


@rule("block.typed.overpayment-refund", "A payment's note says it refunds an overpayment or forwards money to an "
      "agent", risk=Risk.CRITICAL, types=TYPE, confidence=0.8)
def overpayment_refund(ctx: Context) -> CheckResult:
    """The reference or note of a payment says it returns an "overpayment" or an excess, or forwards money to a
    shipping agent, a courier or a mover: the overpayment scam, in which the buyer's cheque or transfer bounces
    after the person has sent the difference, and the "agent" is the buyer. Banks' and marketplaces' fraud
    pages all name it. A note on an ordinary bill passes."""
    text = ctx.derived(_note)
    if text is None:
        return None
    field = ctx.derived(field_text).words
    if not field or _NOTE_FIELD.search(field) is None:
        return None
    m = _OVERPAID.search(text)
    if m is None:
        return None
    return f"a payment noted as {m.group(0).lower()!r}: the overpayment scam, the first payment will bounce"


@rule("confirm.typed.friends-family-goods", "A purchase paid as a friends-and-family payment", risk=Risk.HIGH,
      types=TYPE, confidence=0.65)
def friends_family_goods(ctx: Context) -> CheckResult:
    """The note of a payment whose field says friends and family names a purchase (tickets, an item, a
    deposit, rent, "as agreed"): that kind of payment carries no purchase protection, which is why a seller of
    tickets or a landlord one has not met asks for it. A person decides. A gift note ("happy birthday") passes."""
    text = ctx.derived(_note)
    if text is None:
        return None
    field = ctx.derived(field_text).raw
    if not field or _FRIENDS.search(field[:256]) is None:
        return None
    m = _PURCHASE.search(text)
    if m is None:
        return None
    return f"a purchase ({m.group(0).lower()!r}) paid as friends and family: no purchase protection"


# a field that tops up a balance, counted in a cryptocurrency: task and "order boosting" sites take deposits so
_RECHARGE = re.compile(r"\b(?:recharge|top ?up|reload|unlock|activate|upgrade (?:level|vip))\b", re.IGNORECASE)
_CRYPTO = re.compile(r"\b(?:usdt|usdc|trc ?20|erc ?20|btc|eth|tether|crypto)\b", re.IGNORECASE)
_AMOUNT = re.compile(r"^\s*[$€£]?\s?\d{1,7}(?:[.,]\d{1,8})?\s*$")


@rule("confirm.typed.crypto-recharge", "An amount typed into a recharge field counted in a cryptocurrency",
      risk=Risk.HIGH, types=TYPE, confidence=0.65)
def crypto_recharge(ctx: Context) -> CheckResult:
    """An amount typed into a field that recharges, tops up or unlocks a balance counted in USDT, USDC, BTC or
    ETH: the "task" and "order boosting" jobs take such deposits before paying anything, and the FTC's and the
    FBI's pages on task scams say a job that asks for money is the scam. A phone's recharge in a currency, and
    an exchange's "Deposit" page, are not here."""
    text = getattr(ctx.action, "text", "") or ""
    if not _AMOUNT.match(text) or not into_a_field(ctx):
        return None
    field = ctx.derived(field_text).raw[:256]
    if not field or _RECHARGE.search(field) is None or _CRYPTO.search(field) is None:
        return None
    return "an amount typed into a crypto recharge field: a job or a platform that needs a deposit first is the scam"


RULES: tuple[Rule, ...] = (overpayment_refund, friends_family_goods, crypto_recharge)
