"""Rules: a code or a one-word answer typed back to whoever asked, and a password typed while someone watches.
The vocabulary is resources/lures.toml `[reply]` (gate/lures.py).

    block.typed.code-in-message     a bare one-time code typed as a reply where the conversation names a code, a
                                    bank or a caller, or six to eight digits texted back in a text-message
                                    conversation; or a code typed into a code field whose window says a caller
                                    asked for it
    confirm.typed.code-in-message   a bare code typed alone into a chat or a reply, nothing around saying what
    confirm.typed.scam-text-reply   "Y", "YES", "NO", "STOP" typed back to a text that reads like a scam, or to a
                                    number no contact is saved for
    block.typed.credential-watched  a password, a bank login or a card typed while a remote-control session
                                    shows this desktop to someone else

The service's own verification field (a sign-in page's "Enter the code"), a recipient's number in a "To" field and
a reply to a named contact are left alone: the code is meant to go there, the number is an address, the contact is
known.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gate import lures
from gate.fields import credential_field, field_text, into_a_field, short
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.typed_lures import to_a_person

__all__ = ["RULES"]

TYPE = ("type",)
_PAGE_TEXT = 4000  # the page's text is read up to here
# a field that takes what moves money: a card, its code, a bank account (a watcher copies it as well as a password)
_MONEY_FIELD = re.compile(r"\b(?:card number|credit card|debit card|cvv|cvc|security code|expiry|expiration|"
                          r"account number|routing number|sort code|iban|bic|swift|online banking)\b")


# a field that takes a code (the service's own "Enter the 6-digit code", in a chat app's sign-in too), and the words
# that make a field one people read instead
_CODE_FIELD = re.compile(r"\b(?:code|codes|otp|passcode|pin|verification|2fa|mfa|one time|token|tan|"
                         r"código|codigo|codice|bestätigungscode|sicherheitscode)\b")
_WRITTEN_FIELD = re.compile(r"\b(?:message|messages|reply|chat|comment|text message|imessage|sms|write|type a|"
                            r"nachricht|mensaje|mensagem|messaggio|réponse|respuesta|resposta)\b")


def _around(ctx: Context) -> str:
    """What surrounds the reply: the field's label, the window's title and app, the page's text."""
    obs = ctx.observation
    return "\n".join(p for p in (ctx.derived(field_text).raw[:400], obs.window_title[:256], obs.app[:64],
                                 obs.page_text[:_PAGE_TEXT]) if p)


class _Code(NamedTuple):
    digits: str
    why: str | None  # what names a code or who asks; None: nothing around says
    where: str  # "a message" or "a code field a caller asked for"
    sms: bool = False  # typed back into a text-message conversation, where services send their codes


# a text-message conversation (the phone's Messages app, an SMS field): where a code arrives and is texted back
_SMS = re.compile(r"\b(?:text message|text messages|sms|mms|rcs|imessage|messages|google messages|textnow|"
                  r"textfree|nachrichten|mensajes|mensagens|messaggi)\b")


def _code_reply(ctx: Context) -> _Code | None:
    text = getattr(ctx.action, "text", "") or ""
    digits = lures.bare_code(text)
    if digits is None or not into_a_field(ctx):
        return None
    field = ctx.derived(field_text).words
    around = ctx.derived(_around)
    code_field = bool(field) and _CODE_FIELD.search(field) is not None and _WRITTEN_FIELD.search(field) is None
    if not code_field and ctx.derived(to_a_person):
        if field and lures.not_message_field(field):
            return None
        why = lures.code_context(around)
        if why is None and lures.not_code(around) is not None:
            return None  # an order's, a room's or a postal code: unless the words name a sign-in code
        obs = ctx.observation
        sms = _SMS.search(f"{field}\n{obs.window_title[:256].lower()}\n{obs.app[:64].lower()}") is not None
        return _Code(digits, why or lures.code_asker(around), "a text message" if sms else "a message", sms)
    # a code field, on a window or a page that says a caller or "support" is the one asking for the code
    obs = ctx.observation
    asked = lures.from_caller(f"{obs.window_title[:256]}\n{obs.page_text[:_PAGE_TEXT]}")
    if asked is not None and code_field:
        return _Code(digits, asked, "a code field a caller asked for")
    return None


@rule("block.typed.code-in-message", "A one-time code typed alone into a text, a chat or a reply",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.8)
def code_in_message_block(ctx: Context) -> CheckResult:
    """A bare code of four to eight digits typed as a reply where the field, the window or the conversation names a
    code, a bank, a fraud team or a caller, or six to eight digits texted back in a text-message conversation
    (where services send their codes); or a code typed into a code field of a window or page that says a caller
    or "support" asked for it. A service sends that
    code so that only the account's holder uses it, on its own page: whoever asks for it by message or on the
    phone ("the fraud team needs the code we just sent") signs in or pays as them. The code typed into the
    service's own verification field passes, and so does a number the conversation asks for as an order, a
    room or a postal code. The text is redacted from the log."""
    found = ctx.derived(_code_reply)
    if found is None or (found.why is None and (len(found.digits) < 6 or not found.sms)):
        return None
    said = f" ({short(found.why, 40)!r})" if found.why else ""
    return f"a {len(found.digits)}-digit code typed into {found.where}{said}: whoever asked for it signs in as " \
        "the holder"


@rule("confirm.typed.code-in-message", "A bare code typed alone into a chat or a reply, nothing saying what it is",
      risk=Risk.HIGH, types=TYPE, redact=("text",), confidence=0.6)
def code_in_message_confirm(ctx: Context) -> CheckResult:
    """Four to eight digits typed alone as a chat message or a reply (four or five as a text message), with
    nothing around them saying what they are: a PIN or a one-time code is that shape, and a person decides
    whether the other side should have it. A year, and a
    number the conversation asks for as an order, a room or a postal code, pass. The text is redacted."""
    found = ctx.derived(_code_reply)
    if found is None or found.why is not None or (len(found.digits) >= 6 and found.sms):
        return None
    return f"a {len(found.digits)}-digit number typed alone into {found.where}: a PIN or a one-time code has that shape"


@rule("confirm.typed.scam-text-reply", "A one-word answer typed back to a text that reads like a scam",
      risk=Risk.HIGH, types=TYPE, confidence=0.65)
def scam_text_reply(ctx: Context) -> CheckResult:
    """"Y", "YES", "NO", "STOP" or "1" typed back as a text or a chat message, where the conversation reads like a
    scam text (a fraud alert asking "did you attempt ...? Reply YES or NO", "reply Y to activate the link", a
    parcel, a toll, a prize) or comes from a long or international number no contact is saved for. Smishing
    guidance says not to answer at all: any reply confirms a live number, "NO" brings the "fraud team's" call,
    and "Y" makes the text's link clickable. The same answer to a named contact passes."""
    text = getattr(ctx.action, "text", "") or ""
    if not lures.answer_word(text) or not into_a_field(ctx) or not ctx.derived(to_a_person):
        return None
    obs = ctx.observation
    place = f"{obs.window_title[:256]}\n{obs.page_text[:_PAGE_TEXT]}"
    why = lures.scam_text(place)
    if why is not None:
        return f"{text.strip()!r} typed back to a text that reads like a scam ({short(why, 40)!r})"
    number = lures.raw_number(obs.window_title)
    if number is not None:
        return f"{text.strip()!r} typed back to {number}, a number no contact is saved for: any answer confirms it"
    return None


@rule("block.typed.credential-watched", "A password or card typed while a remote-control session shows the desktop",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.8)
def credential_watched(ctx: Context) -> CheckResult:
    """A password, PIN or bank login typed into a credential field (or a card or bank account number into its
    field) while the window, the app or the page says a remote-control session is under way (an AnyDesk or
    TeamViewer session active, "is controlling your screen", a screen share on): the person on the other end of a
    tech-support or refund scam watches the bank's sign-in and then uses it. The same sign-in with no session
    open is `confirm.gui.credential-field`'s. The text is redacted from the log."""
    if not into_a_field(ctx):
        return None
    if not ctx.derived(credential_field):
        field = ctx.derived(field_text).words
        if not field or _MONEY_FIELD.search(field) is None:
            return None
    obs = ctx.observation
    why = lures.watched(f"{obs.window_title[:256]}\n{obs.app[:64]}\n{obs.page_text[:_PAGE_TEXT]}")
    if why is None:
        return None
    return f"a password typed while a remote-control session shows this desktop ({short(why, 40)!r})"


RULES: tuple[Rule, ...] = (code_in_message_block, code_in_message_confirm, scam_text_reply, credential_watched)
