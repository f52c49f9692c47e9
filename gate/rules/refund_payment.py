"""Rule: a payment whose payee or note says it is a refund, a cashback or a prize to the person.

    block.gui.pay-to-receive    "Pay" or "Approve" on a payment request (a UPI `upi://pay` or collect link, a
                                wallet's request) whose payee or note names a refund, a cashback, a reward or a prize

Money owed to the person arrives without a PIN, a "Pay" or an approval on their side: India's NPCI and the banks'
UPI advice ("you never need to enter your PIN to receive money") describe the fake support desk and the fake buyer
who send a collect request named "refund". A refund the shop sends to a card shows no "Pay" at all, and paying a
merchant whose payee name is its own passes.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote_plus, urlsplit

from gate.fields import label_text, short
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES"]

# the go-ahead of a payment: pay, send, approve, proceed, confirm, in a few languages
_PAY = re.compile(r"^(?:pay|send|approve|accept|proceed|confirm|authori[sz]e|continue|pagar|payer|zahlen|bezahlen|"
                  r"भुगतान)\b", re.IGNORECASE)
# what the payee or note says the money is: owed to the person, so nothing should leave
_OWED = re.compile(r"(?:refund|cashback|cash back|reward|prize|lottery|winning|rebate|reimburse|compensation|"
                   r"kyc|receive)", re.IGNORECASE)
# the fields of a UPI deep link (NPCI's linking spec) that say whom and what for: payee address, name, note
_UPI_FIELDS = ("pa", "pn", "tn")


def _payee(url: str) -> str | None:
    """The payee and note of a UPI payment link, or None when the address is no such link."""
    if not url.lower().startswith(("upi://pay", "upi://collect", "upi:pay")):
        return None
    query = parse_qs(urlsplit(url[:2048]).query)
    return " ".join(unquote_plus(v) for k in _UPI_FIELDS for v in query.get(k, ()))


@rule("block.gui.pay-to-receive", "Paying a request whose payee or note says the money is a refund or a prize",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def pay_to_receive(ctx: Context) -> CheckResult:
    """The click pays or approves a UPI payment link or collect request whose payee address, payee name or note
    names a refund, a cashback, a reward, a prize or a "KYC" check: money owed to the person never needs their
    payment or PIN, so the request is the fraud's. Paying a shop's own payee, with nothing of the kind in its
    name, passes."""
    label = ctx.derived(label_text)
    if not label.words or _PAY.match(label.words.strip()) is None:
        return None
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    payee = _payee(url.strip())
    if not payee:
        return None
    owed = _OWED.search(payee)
    if owed is None:
        return None
    return f"a payment approved whose payee says it is a {owed.group(0).lower()} ({short(payee, 50)!r}): money " \
        "owed arrives without paying"


RULES: tuple[Rule, ...] = (pay_to_receive,)
