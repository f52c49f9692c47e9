"""Rules: a secret or a way to reach the person, written into a message to someone on a site.

    block.typed.secret-in-message     a message that hands over a one-time code, a PIN or a wallet's recovery
                                      phrase in words ("here is the code: 123 456", "seed: ...") or a code with
                                      the service's own prefix (Google's "G-123456")
    confirm.typed.contact-off-platform a message that gives a phone number to move the talk to another app or to
                                      the phone ("add me on WhatsApp: +1 ...", "my number is ...")

A code or a phrase typed into the service's own sign-in or wallet field, and a number typed into a "To" or a
"Phone" field, are left alone: there the secret or the number is meant to go.
"""

from __future__ import annotations

import re

from gate import lures
from gate.fields import field_text, short
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.typed_lures import to_a_person

__all__ = ["RULES"]

TYPE = ("type",)

# what names the secret in the message itself, in the languages the code rules read
_CODE_WORD = re.compile(r"\b(?:code|codes|otp|passcode|pin|verification|2fa|mfa|tan|código|codigo|codice|"
                        r"bestätigungscode|sicherheitscode|kod|код|验证码)\b", re.IGNORECASE)
# a code's digits: four to eight, in groups of three or four at most, standing alone
_CODE_DIGITS = re.compile(r"(?<![\d+])(?:G-)?(?:\d{4,8}|\d{3}[ -]\d{3}|\d{4}[ -]\d{4}|\d{3}[ -]\d{4})(?![\d])")
# Google's verification texts put "G-" before the digits: nothing else is written that way
_G_CODE = re.compile(r"^\s*G-\d{6}\s*$")
# a wallet's recovery phrase named, and what stands for it (a placeholder, or twelve or more plain words)
_SEED_WORD = re.compile(r"\b(?:seed(?: phrase| words)?|recovery phrase|secret recovery phrase|mnemonic|"
                        r"backup phrase|private key|wallet key|12 word|24 word|twelve word)\b", re.IGNORECASE)
_PHRASE = re.compile(r"<[^>]{3,}>|(?:\b[a-z]{3,8}\b[ ,]+){11,}\b[a-z]{3,8}\b")

# a phone number: a + or a leading 0 and nine or more digits, spaces, dots, dashes or brackets between them
_PHONE = re.compile(r"(?:\+\d[\d ().-]{8,18}\d|\b0\d[\d ().-]{7,14}\d)")
# what says the number is given to be reached elsewhere: a chat app named, or "my number"
_ELSEWHERE = re.compile(r"\b(?:whatsapp|whats app|telegram|signal|wechat|viber|kik|line id|imo|"
                        r"my (?:number|phone|mobile|cell|cellphone|whatsapp|telegram)|text me|call me|"
                        r"mi (?:número|numero|whatsapp)|meine nummer|mon numéro)\b", re.IGNORECASE)


def _message(ctx: Context) -> str | None:
    """The text typed into a message to a person, or None when it goes into a field of another kind."""
    text = getattr(ctx.action, "text", "") or ""
    if not text or len(text) > 600 or not ctx.derived(to_a_person):
        return None
    field = ctx.derived(field_text).words
    if field and lures.not_message_field(field):
        return None
    return text


@rule("block.typed.secret-in-message", "A one-time code or a wallet's recovery phrase handed over in a message",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.8)
def secret_in_message(ctx: Context) -> CheckResult:
    """A message to a person that names a one-time code or a PIN and carries its digits ("here is the code you
    asked for: 123 456"), a code with Google's "G-" before it, or a message that names a wallet's seed or recovery
    phrase and carries it. A service sends a code so only the holder uses it on its own page, and a recovery
    phrase is the wallet itself: whoever asks for either in a chat (a buyer "proving you are real", a match
    "setting up" a trading account) takes the account. An order's, a room's or a postal code passes. The text is
    redacted."""
    text = ctx.derived(_message)
    if text is None:
        return None
    if _G_CODE.match(text):
        return "a Google verification code typed into a message: whoever asked for it registers a number as the holder"
    seed = _SEED_WORD.search(text)
    if seed is not None and _PHRASE.search(text[seed.end():]) is not None:
        return f"a wallet's {seed.group(0).lower()} typed into a message: whoever has it empties the wallet"
    if lures.bare_code(text) is not None:
        return None  # a bare code is weighed by the code rules, with what surrounds it
    word = _CODE_WORD.search(text)
    if word is None or _CODE_DIGITS.search(text) is None or lures.not_code(text) is not None:
        return None
    return f"a one-time code handed over in a message ({short(word.group(0), 20)!r}): whoever asked for it signs " \
        "in as the holder"


@rule("confirm.typed.contact-off-platform", "A phone number given in a message to move the talk elsewhere",
      risk=Risk.HIGH, types=TYPE, confidence=0.6)
def contact_off_platform(ctx: Context) -> CheckResult:
    """A message to a person that gives a phone number with a chat app or "my number" around it ("add me on
    WhatsApp: +44 ...", "my number is 0161 ..."). Marketplaces, rental and dating sites warn that a stranger who
    moves the talk off the site does it to leave its payment protection and its moderators behind, and the number
    is the person's own: a person decides. A number typed into a "Phone" or a "To" field passes."""
    text = ctx.derived(_message)
    if text is None:
        return None
    phone = _PHONE.search(text)
    if phone is None or len(re.sub(r"\D", "", phone.group(0))) < 9:
        return None
    where = _ELSEWHERE.search(text)
    if where is None:
        return None
    return f"a phone number given in a message ({where.group(0).lower()!r}): the talk leaves the site"


RULES: tuple[Rule, ...] = (secret_in_message, contact_off_platform)
