"""Navigation: an address whose own path is a prize claim (`confirm.nav.prize-claim-path`).

A lottery, giveaway or "you have won" message sends its reader to a page named for collecting the prize:
`/claim-prize`, `/collect-your-winnings`, `/you-won`. The host may look ordinary (scams sit on free hosts and
hacked sites), so the path itself is the tell: no task the person set needs it, and the page is where the fee,
the card or the login is asked for. It asks, since a real contest's claim page exists too. A brand's own
`/rewards` or `/gift-cards` page has no claim verb beside the prize and passes; the words are in
resources/lures.toml [prize_path].
"""

from __future__ import annotations

import re
from importlib import resources

from gate import regex_store
from gate.model import Risk
from gate.rules.base import CheckResult, Context, rule
from gate.urls import split_url

__all__ = ["RULES", "prize_claim_path"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("lures.toml").read_text("utf-8"))["prize_path"]
_VERBS = frozenset(_BOOK["verbs"])
_PRIZES = frozenset(_BOOK["prizes"])
_FILLERS = frozenset(_BOOK["fillers"])
_ANNOUNCED = frozenset(_BOOK["announced"])
_SPLIT = re.compile(r"[-_.+\s]+")


def _claim(segment: str) -> bool:
    """`claim-prize`, `collect_your_winnings`, `redeem-free-reward`: a verb, then only fillers, then a prize."""
    words = [w for w in _SPLIT.split(segment.lower()) if w]
    for k, w in enumerate(words):
        if w in _VERBS:
            rest = words[k + 1:]
            while rest and rest[0] in _FILLERS and not (rest[0] in _PRIZES and len(rest) == 1):
                rest = rest[1:]
            if rest and rest[0] in _PRIZES:
                return True
    return False


@rule("confirm.nav.prize-claim-path", "a page whose address is a prize claim", risk=Risk.HIGH,
      types=("navigate",), confidence=0.7)
def prize_claim_path(ctx: Context) -> CheckResult:
    """A web address whose path names collecting a prize or announces a win (`/claim-prize`, `/you-won`): the page
    a lottery or giveaway scam sends its reader to, whatever the host."""
    parts = split_url(ctx.action.url or "")
    if parts is None or parts.scheme not in ("http", "https", "") or not parts.path or parts.path == "/":
        return None
    for segment in parts.path.lower().split("/"):
        if segment and (segment.removesuffix(".html").removesuffix(".php") in _ANNOUNCED or _claim(segment)):
            return f"opens {parts.host}{parts.path[:60]}: a page named for claiming a prize, where a lottery or " \
                   f"giveaway scam sends its reader"
    return None


RULES = (prize_claim_path,)
