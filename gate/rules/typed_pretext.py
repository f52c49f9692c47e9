"""Rules: a message that asks its reader for a company's data or their own identity, with the pressure of a pretext.
The vocabulary is resources/lures.toml `[pretext]` (gate/lures.py `data_ask`, `identity_ask`).

    block.typed.pressured-data-ask     a message asking for payroll, bank, tax or customer data with a threat if
                                       the reader does not ("there will be consequences for your position")
    confirm.typed.pressured-data-ask   the same ask made in a claimed name or in secret ("I'm in a meeting",
                                       "keep this between us"), or every employee's W-2s asked for in a hurry
    block.typed.identity-request       a message asking its reader for their Social Security, national insurance
                                       or card number, a passport or a bank login, under a deadline, a threat or a
                                       claim about their account
    confirm.typed.identity-request     the same ask with no pressure

Business e-mail compromise, W-2 phishing and identity theft by message all take this shape (the FBI's IC3, the IRS,
the FTC and the NCSC describe it): an ask for what the reader should not send by message, and a reason not to
check first. A message about the same data with no ask ("please review the budget figures"), a warning about the
fraud, and a request with no pressure for a company's records pass.
"""

from __future__ import annotations

from gate import lures
from gate.fields import short
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.typed_lures import to_a_person

__all__ = ["RULES"]

TYPE = ("type",)
_MAX = 4096


def _text(ctx: Context) -> str:
    text = getattr(ctx.action, "text", "") or ""
    return text if 20 <= len(text) <= _MAX else ""


def _data_ask(ctx: Context) -> lures.Pretext | None:
    text = ctx.derived(_text)
    return lures.data_ask(text) if text and ctx.derived(to_a_person) else None


def _identity_ask(ctx: Context) -> lures.Pretext | None:
    text = ctx.derived(_text)
    return lures.identity_ask(text) if text and ctx.derived(to_a_person) else None


@rule("block.typed.pressured-data-ask", "A message asking for payroll, bank or customer data under a threat",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.8)
def pressured_data_ask_block(ctx: Context) -> CheckResult:
    """A message, a chat or a reply that asks its reader to send a company's payroll, W-2s, bank details, employee
    or customer records, with a threat if they do not ("within the hour ... or there will be consequences for
    your position", "or you will be let go"): the shape of CEO fraud and W-2 phishing. A colleague's ordinary
    ask for the same report has no threat in it."""
    found = ctx.derived(_data_ask)
    if found is None or found.threat is None:
        return None
    return f"a message asking for {short(found.ask, 40)!r} under a threat ({short(found.threat, 40)!r})"


@rule("confirm.typed.pressured-data-ask", "A message asking for payroll, bank or customer data in a claimed name "
      "or in secret", risk=Risk.HIGH, types=TYPE, confidence=0.65)
def pressured_data_ask_confirm(ctx: Context) -> CheckResult:
    """A message asking its reader to send payroll, bank, tax or customer data while the writer speaks as an
    executive or IT, or asks for secrecy or says they cannot be reached ("I'm in a meeting, just send it", "keep
    this between us"), or asking for the whole workforce's W-2s or Social Security numbers in a hurry: an
    impostor's way to stop the reader checking, and the W-2 phishing the IRS warns of. A person decides."""
    found = ctx.derived(_data_ask)
    if found is None or found.threat is not None:
        return None
    why = found.claimed or (f"{found.bulk}, {found.urgency}" if found.bulk and found.urgency else None)
    if why is None:
        return None
    return f"a message asking for {short(found.ask, 40)!r} ({short(why, 40)!r})"


def _pressed(ctx: Context, found: lures.Pretext) -> str | None:
    claim = lures.phishing_claim(ctx.derived(_text))
    return found.threat or found.urgency or claim


@rule("block.typed.identity-request", "A message asking its reader for their Social Security or card number "
      "under pressure", risk=Risk.CRITICAL, types=TYPE, confidence=0.8)
def identity_request_block(ctx: Context) -> CheckResult:
    """A message asking its reader to send their Social Security, social insurance or national insurance number,
    card number or security code, passport or bank login, with a deadline, a threat or a claim about their
    account ("we need your full social security number, please reply today"): no employer, bank or agency asks
    for these by message, and the pressure is the impostor's. A warning ("never send your SSN by e-mail")
    passes."""
    found = ctx.derived(_identity_ask)
    if found is None:
        return None
    pressed = _pressed(ctx, found)
    if pressed is None:
        return None
    return f"a message asking for {short(found.ask, 40)!r}, pressed by {short(pressed, 30)!r}"


@rule("confirm.typed.identity-request", "A message asking its reader for their Social Security or card number",
      risk=Risk.HIGH, types=TYPE, confidence=0.65)
def identity_request_confirm(ctx: Context) -> CheckResult:
    """A message asking its reader for their Social Security or national insurance number, card number, passport
    or bank login, with no deadline or threat: such numbers go through a service's own form, not a message, and
    a person decides."""
    found = ctx.derived(_identity_ask)
    if found is None or _pressed(ctx, found) is not None:
        return None
    return f"a message asking for {short(found.ask, 40)!r}"


RULES: tuple[Rule, ...] = (pressured_data_ask_block, pressured_data_ask_confirm, identity_request_block,
                           identity_request_confirm)
