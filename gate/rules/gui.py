"""Rules: GUI actions (click / type / key) judged by the target the agent names and the text it types.

The patterns are data (`[gui]` in resources/policy.toml); this module only decides which text each list
is matched against. Text is normalised once per action (`ctx.derived`) into two lowercase forms:

- `norm`: NFKC, case folding, zero-width / bidi removal, homoglyph folding, whitespace collapsed.
  Punctuation survives, so code payloads (`os.popen(`, `'; drop table`) can be seen.
- `words`: `norm` with camelCase humps split first and every run of non-word characters or `_` turned
  into one space: `current_password` → "current password", `email-reply` → "email reply". Word-boundary
  patterns (irreversible verbs, credential fields) are written against this form.

A label is the target's `label` and `name` (one per line). Every list is one compiled alternation, so
one search per list per action. Typed secrets are matched on the raw text (their prefixes are
case-sensitive: `AKIA...`, `ghp_...`).

Three models read the same normalised text by meaning rather than by list: `gate.sensitive` (what typed
text carries: card numbers, national ids, bank numbers, password-shaped strings, each with its checksum),
`gate.steering` (text that orders, pressures or lures the agent) and `gate.consequence` (what a button
commits to: money, account security, access, data leaving, publishing, cancellation, bulk changes,
installs). The cues and consequences are data (resources/cues.toml, in several languages). `gate.dataout`
judges what typed text sends out (credential lists, credential files, records; a credential file or a whole
home typed into a file chooser). Where typed text goes (a terminal, a Run dialog, the address bar) is
gate/rules/typed.py; a paste into a terminal or Run dialog asks here.

Key combinations: ordinary shortcuts (ctrl+s, esc, f10, alt+f10, f11, enter, alt+f4, ctrl+w) stay
allowed; combinations that end, lock or reboot the session (ctrl+alt+delete, ctrl+alt+backspace,
super+l, ctrl+alt+f1 terminal switches, magic SysRq) ask, because a person loses the desktop they are
watching; they are not blocked, since a person may well want them.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass

from gate.consequence import consequence, moves_only
from gate.cues import CueBook
from gate.dataout import Payload, carried
from gate.dataout import destination as data_destination
from gate.model import Risk
from gate.normalise import _INVISIBLE, fold, fold_uncached
from gate.policy import GuiPolicy
from gate.prefix import Matcher as _Matcher
from gate.prefix import text_keys
from gate.rules.base import Context, Rule, rule
from gate.sensitive import find_sensitive, password_shaped
from gate.steering import Steering, steering
from gate.typed import Destination, destination
from gate.urls import split_url

__all__ = ["RULES", "canonical_keys", "label_text", "secret_patterns", "shannon_entropy"]

# -- compiled policy ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Category:
    name: str  # "financial data"
    risk: Risk
    targets: _Matcher | None
    fields: _Matcher | None


@dataclass(frozen=True, slots=True)
class _Compiled:
    blocklist: _Matcher | None
    label_blocklist: _Matcher | None
    suspicious: _Matcher | None
    irreversible: _Matcher | None
    credential: _Matcher | None
    credential_allow: _Matcher | None
    secrets: _Matcher | None
    session_keys: _Matcher | None
    categories: tuple[_Category, ...]
    min_length: int
    min_entropy: float


def _alternation(patterns: list[str]) -> _Matcher | None:
    return _Matcher(patterns) if patterns else None


def compile_gui(gui: GuiPolicy) -> _Compiled:
    """The `[gui]` lists as prefiltered matchers: built once per policy (gate/compiled.py holds them)."""
    return _Compiled(
        blocklist=_alternation(gui.blocklist),
        label_blocklist=_alternation(gui.label_blocklist),
        suspicious=_alternation(gui.suspicious_labels),
        irreversible=_alternation(gui.irreversible),
        credential=_alternation(gui.credential_labels),
        credential_allow=_alternation(gui.credential_allowlist),
        secrets=_alternation(gui.secret_patterns),
        session_keys=_alternation(gui.session_keys),
        categories=tuple(
            _Category(name.replace("-", " "), Risk.parse(cat.risk), _alternation(cat.targets), _alternation(cat.fields))
            for name, cat in gui.critical.items()
        ),
        min_length=gui.secret_min_length,
        min_entropy=gui.secret_min_entropy,
    )


def _patterns(ctx: Context) -> _Compiled:
    return ctx.compiled.gui


# -- normalised text, once per action -----------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")  # newPassword, AXSecureText
_NON_WORD = re.compile(r"(?:[^\w\n]|_)+")  # keeps line breaks: a label and a name stay two lines
_SPACES = re.compile(r"[^\S\n]+")
_BLANK_LINES = re.compile(r" ?\n[\s]*")
# fold() is cached per string; text longer than this is folded without the cache, so one huge typed
# text cannot fill it. Nothing is ever truncated: a payload at the end of a long text is still seen.
_CACHE_LIMIT = 4096


def _fold(text: str) -> str:
    if len(text) > _CACHE_LIMIT:
        return fold_uncached(text)
    return fold(text)


@dataclass(frozen=True, slots=True)
class Text:
    """One piece of text in both matching forms (see the module docstring)."""

    raw: str
    norm: str
    words: str
    both: str  # both forms, for one search; just one when they are the same (most labels)
    keys: frozenset[str]  # `text_keys(both)`: the matchers' prefilter


_EMPTY = Text("", "", "", "", frozenset())


# ASCII punctuation (and `_`) → space, for the `words` form without a regex
_ASCII_NON_WORD = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalnum() and c != "\n"})


def _lines(text: str) -> str:
    """Whitespace runs → one space, per line; blank lines dropped."""
    if "\n" not in text:
        return " ".join(text.split())
    return "\n".join(line for raw in text.split("\n") if (line := " ".join(raw.split())))


def _text_uncached(raw: str) -> Text:
    norm = _lines(_fold(raw))
    split = _CAMEL.sub(" ", raw) if raw != raw.lower() else raw  # every hump has an A-Z after it
    if split.isascii():
        words = _lines(split.lower().translate(_ASCII_NON_WORD))
    else:
        words = _BLANK_LINES.sub("\n", _NON_WORD.sub(" ", _fold(split))).strip()
    both = norm if norm == words else f"{norm}\n{words}"
    if not raw.isascii() and _INVISIBLE.search(raw):
        # an invisible character may stand for a word break ("Place\u200border"), not only hide one
        # inside a word ("Pass\u200bword"): match the reading with a space there as well
        spaced = _BLANK_LINES.sub("\n", _NON_WORD.sub(" ", _fold(_CAMEL.sub(" ", _INVISIBLE.sub(" ", raw))))).strip()
        if spaced != words:
            words = f"{words}\n{spaced}"
            both = f"{both}\n{spaced}"
    return Text(raw, norm, words, both, text_keys(both))


_text_cached = functools.lru_cache(maxsize=2048)(_text_uncached)


def _text(raw: str) -> Text:
    if not raw:
        return _EMPTY
    # labels repeat (agents click the same buttons); long typed text is not worth a cache slot
    return _text_cached(raw) if len(raw) <= 256 else _text_uncached(raw)


def label_text(ctx: Context) -> Text:
    """The target's label and name (one per line), normalised. Empty when the agent names no target."""
    target = ctx.action.target
    if target is None:
        return _EMPTY
    parts = [p for p in (target.label, target.name) if p]
    return _text("\n".join(parts)) if parts else _EMPTY


def _field_text(ctx: Context) -> Text:
    """What describes the field being typed into: label, name and role."""
    target = ctx.action.target
    if target is None:
        return _EMPTY
    parts = [p for p in (target.label, target.name, target.role) if p]
    return _text("\n".join(parts)) if parts else _EMPTY


def _typed(ctx: Context) -> Text:
    return _text(getattr(ctx.action, "text", "") or "")


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- derived facts shared by several rules ------------------------------------------------------


def _credential_field(ctx: Context) -> bool:
    """The field being typed into is a credential field (and not on the allowlist)."""
    p = _patterns(ctx)
    field = ctx.derived(_field_text)
    if not field.words or p.credential is None or not p.credential.search(field.words, field.keys):
        return False
    return not (p.credential_allow is not None and p.credential_allow.search(field.words, field.keys))


def _field_category(ctx: Context) -> _Category | None:
    field = ctx.derived(_field_text)
    if not field.words:
        return None
    for cat in _patterns(ctx).categories:
        if cat.fields is not None and cat.fields.search(field.words, field.keys):
            return cat
    return None


def _target_category(ctx: Context) -> _Category | None:
    label = ctx.derived(label_text)
    if not label.words:
        return None
    best: _Category | None = None
    for cat in _patterns(ctx).categories:
        if (best is None or cat.risk > best.risk) and cat.targets is not None \
                and cat.targets.search(label.words, label.keys):
            best = cat
    return best


# -- secrets ------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[A-Za-z0-9+/=_.~-]+")


def shannon_entropy(token: str) -> float:
    """Bits per character of `token`'s own character distribution."""
    n = len(token)
    if n == 0:
        return 0.0
    return -sum(c / n * math.log2(c / n) for c in Counter(token).values())


def _looks_random(token: str, min_length: int, min_entropy: float) -> bool:
    """A long token mixing letters and digits with high entropy: a key, not a word, hash or UUID."""
    if len(token) < min_length or not any(ch.isdigit() for ch in token):
        return False
    if not any(ch.isupper() for ch in token) or not any(ch.islower() for ch in token):
        return False  # hex digests, UUIDs and lowercase slugs are not secrets by themselves
    return shannon_entropy(token) >= min_entropy


def secret_patterns(ctx: Context) -> _Matcher | None:
    """The compiled `[gui] secret_patterns` (live secrets by their shape), for other families that look for
    the same secrets in other text (a file's content: gate/rules/content.py)."""
    return _patterns(ctx).secrets


def _secret_in(ctx: Context) -> str | None:
    """What kind of secret the typed text holds, or None."""
    raw = ctx.derived(_typed).raw
    if not raw:
        return None
    p = _patterns(ctx)
    if p.secrets is not None and p.secrets.search(raw, text_keys(raw)):
        return "a credential or token"
    if len(raw) >= p.min_length:
        for token in _TOKEN.findall(raw):
            if _looks_random(token, p.min_length, p.min_entropy):
                return "a long random string (likely a key)"
    return None


# -- rules --------------------------------------------------------------------------------------


@rule("block.gui.blocklist", "Malicious or catastrophic target, or malicious typed text", risk=Risk.CRITICAL,
      types=("click", "type", "drag", "scroll", "move"), confidence=0.9)
def blocklisted(ctx: Context) -> str | None:
    """The target's label/name holds an instruction aimed at the agent (prompt injection), a code or SQL
    payload, scareware, a bulk data operation or a catastrophic action (delete account, format disk,
    factory reset, wipe all); or the typed text holds a prompt or SQL injection. Evaluated after
    normalisation, so homoglyphs and zero-width characters do not hide a phrase."""
    p = _patterns(ctx)
    label = ctx.derived(label_text)
    if label.raw:
        both, keys = label.both, label.keys
        m = (p.blocklist.search(both, keys) if p.blocklist is not None else None) or \
            (p.label_blocklist.search(both, keys) if p.label_blocklist is not None else None)
        if m:
            return f"blocked target {_short(label.raw)!r}: matches {_short(m.group(0), 40)!r}"
    if ctx.type == "type" and p.blocklist is not None:
        typed = ctx.derived(_typed)
        if typed.raw and (m := p.blocklist.search(typed.both, typed.keys)):
            return f"typed text holds an injection: {_short(m.group(0), 40)!r}"
    return None


@rule("confirm.gui.suspicious-label", "Label that reads like an instruction to the agent", risk=Risk.HIGH,
      types=("click", "type", "drag", "scroll", "move"), confidence=0.7)
def suspicious_label(ctx: Context) -> str | None:
    """The target's label is a weaker injection cue ("New task", "System message:", "IMPORTANT:") that a
    real interface might also show: a person decides, rather than a block."""
    p = _patterns(ctx)
    label = ctx.derived(label_text)
    if not label.raw or p.suspicious is None:
        return None
    m = p.suspicious.search(label.both, label.keys)
    return f"the target reads like an instruction to the agent: {_short(label.raw)!r}" if m else None


@rule("block.gui.secret-exposure", "A live secret typed into a field that is not a credential field",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.85)
def secret_exposure(ctx: Context) -> str | None:
    """The typed text looks like a live credential (a token with a known prefix, a JWT, a PEM private
    key, a password in a connection string, a long high-entropy string) and the field is not a
    credential field: pasting a secret into a description or chat box exposes it. Into an actual
    password / token field it is `confirm.gui.credential-field` instead."""
    if ctx.derived(_credential_field):
        return None
    kind = ctx.derived(_secret_in)
    if kind is None:
        return None
    field = ctx.derived(_field_text).raw
    where = f"field {_short(field, 40)!r}" if field else "a field that is not a credential field"
    return f"credential exposure: typing {kind} into {where}"


@rule("confirm.gui.credential-field", "Typing into a password / token / secret field", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.9)
def credential_field(ctx: Context) -> tuple[str, Risk] | None:
    """The field's label, name or role says password, passcode, PIN, token, secret, API key, credential,
    private key, 2FA/OTP/verification code, recovery code, security answer or card number/CVV (and it is
    not on the allowlist, e.g. "password hint", "search"). The typed text never reaches the log."""
    if not ctx.derived(_credential_field):
        return None
    cat = ctx.derived(_field_category)
    label = _short(ctx.derived(_field_text).raw, 40)
    if cat is not None:
        return f"typing into a credential field ({cat.name}): {label!r}", max(cat.risk, Risk.HIGH)
    return f"typing into a credential field (passwords and security answers): {label!r}", Risk.HIGH


@rule("confirm.gui.critical-point", "Typing personal, financial or identity data", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.85)
def critical_point(ctx: Context) -> tuple[str, Risk] | None:
    """The field belongs to a critical-point category of the policy (`[gui.critical.*].fields`:
    financial data such as IBAN or transfer amount, identity documents such as passport or SSN) and is
    not already a credential field. The category's risk is the hit's risk; the typed text is redacted."""
    if ctx.derived(_credential_field):
        return None
    cat = ctx.derived(_field_category)
    if cat is None:
        return None
    return f"critical point ({cat.name}): typing into {_short(ctx.derived(_field_text).raw, 40)!r}", cat.risk


@rule("confirm.gui.irreversible", "Irreversible click: submit, send, pay, delete, ...", risk=Risk.MEDIUM,
      types=("click",), confidence=0.8)
def irreversible(ctx: Context) -> tuple[str, Risk] | None:
    """The clicked label means something that cannot be undone: submit, send, apply, confirm, purchase,
    buy, checkout, pay, place order, book, transfer, delete, remove, trash, invite, publish, post,
    agree to terms, sign, discard / close without saving. The critical-point category of the label
    (`[gui.critical.*].targets`) sets the risk and is named in the reason; without one, medium. A label
    that only moves towards a payment (`[navigation]` of resources/cues.toml: "Continue to checkout",
    "Proceed to shipping", "Apply", "Next") is not the irreversible step."""
    p = _patterns(ctx)
    label = ctx.derived(label_text)
    if not label.words or p.irreversible is None or not p.irreversible.search(label.words, label.keys):
        return None
    if moves_only(label.words, ctx.compiled.cues):
        return None  # "Continue to checkout", "Apply", "Next": the step that commits comes later
    cat = ctx.derived(_target_category)
    if cat is None:
        return f"irreversible: {_short(label.raw)!r}", Risk.MEDIUM
    return f"irreversible ({cat.name}): {_short(label.raw)!r}", cat.risk


_KEY_ALIASES = {
    "control": "ctrl", "ctl": "ctrl", "lctrl": "ctrl", "rctrl": "ctrl", "ctrlleft": "ctrl", "ctrlright": "ctrl",
    "option": "alt", "opt": "alt", "lalt": "alt", "ralt": "alt", "altleft": "alt", "altright": "alt",
    "altgr": "alt", "meta": "super", "win": "super", "windows": "super", "cmd": "super", "command": "super",
    "winleft": "super", "winright": "super", "lsuper": "super", "rsuper": "super", "hyper": "super",
    "shiftleft": "shift", "shiftright": "shift", "lshift": "shift", "rshift": "shift",
    "del": "delete", "return": "enter", "escape": "esc", "bksp": "backspace", "back_space": "backspace",
    "prtsc": "print", "printscreen": "print", "prtscr": "print", "print_screen": "print", "sys_req": "sysrq",
}
_MODIFIER_ORDER = {"ctrl": 0, "alt": 1, "shift": 2, "super": 3}


def canonical_keys(keys: list[str]) -> str:
    """A key combination written one way: aliases resolved, modifiers first in a fixed order
    (ctrl, alt, shift, super), then the other keys sorted; e.g. ["Del", "Alt", "control"] →
    "ctrl+alt+delete". A key given as "ctrl+s" in one string is split."""
    names: set[str] = set()
    for key in keys:
        for part in key.split("+") if len(key) > 1 else [key]:
            part = fold(part.strip()).replace(" ", "")
            if part:
                names.add(_KEY_ALIASES.get(part, part))
    mods = sorted((k for k in names if k in _MODIFIER_ORDER), key=_MODIFIER_ORDER.__getitem__)
    rest = sorted(k for k in names if k not in _MODIFIER_ORDER)
    return "+".join(mods + rest)


def key_combo(ctx: Context) -> str:
    """The keys of a `key` action as `canonical_keys` writes them: once per action, for every key rule."""
    return canonical_keys(ctx.action.keys)  # type: ignore[attr-defined]


@rule("confirm.gui.session-key", "Key combination that ends, locks or reboots the session", risk=Risk.HIGH,
      types=("key",), confidence=0.9)
def session_key(ctx: Context) -> str | None:
    """The keys are a combination that logs out, locks the screen, kills the display server, switches to
    a text console or triggers a magic SysRq (reboot, kill all): the person would lose the desktop
    they are supervising. Ordinary shortcuts (ctrl+s, esc, f10, alt+f10, f11, enter) do not match."""
    pattern = _patterns(ctx).session_keys
    if pattern is None:
        return None
    combo = ctx.derived(key_combo)
    if pattern.search(combo, text_keys(combo)):
        return f"session-ending key combination: {combo}"
    return None


_PASTE_KEYS = frozenset({"ctrl+v", "ctrl+shift+v", "shift+insert", "super+v", "shift+super+v", "ctrl+alt+v"})


@rule("confirm.gui.paste-to-run", "Pasting the clipboard into a terminal or a Run dialog", risk=Risk.HIGH,
      types=("key",), confidence=0.8)
def paste_to_run(ctx: Context) -> str | None:
    """A paste shortcut (Ctrl+V, Ctrl+Shift+V, Shift+Insert, Cmd+V) while the active window is a terminal
    or a Run dialog: what runs is the clipboard, which the gate never saw. It is how fake verifications
    ("press Win+R, paste, press Enter") get a page's command run by whoever is at the keyboard. A paste
    into an ordinary window (an editor, a form) does not ask."""
    combo = ctx.derived(key_combo)
    if combo not in _PASTE_KEYS:
        return None
    where = ctx.derived(destination)
    if not where.runs_commands:
        return None
    return f"pasting the clipboard into {where.value}: the command it holds was never judged"


# -- what typed text carries, what a target says, what a button commits to ----------------------


@rule("confirm.gui.sensitive-data", "Typing a card number, national id, bank account number or internal address",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.9)
def sensitive_data(ctx: Context) -> str | None:
    """The typed text holds a payment card number (Luhn-valid, a card network's prefix), a national id
    (US SSN, Canadian SIN, UK NINO, Spanish DNI, each with its own validity check) or a bank account
    number (IBAN with a valid mod-97, a US routing number with a valid ABA checksum), or a private
    network address (the layout of an internal network): data a person should see leave. The text is
    redacted from the log."""
    text = ctx.action.text  # type: ignore[attr-defined]
    found = find_sensitive(text)
    if not found:
        return None
    kinds = ", ".join(dict.fromkeys(f.kind for f in found))
    where = ctx.derived(_field_text).raw
    return f"typing {found[0].category} ({kinds}) into {_short(where, 40)!r}" if where else \
        f"typing {found[0].category} ({kinds})"


# fields whose values are names and codes that legitimately look like passwords ("Summer2024" coupons)
_SEARCHLIKE = re.compile(r"\b(search|query|find|filter|url|address|location|user ?name|login|e ?mail|user id|"
                         r"code|coupon|promo|voucher|tracking|reference|sku|serial|model|nick ?name|handle|"
                         r"name|display name|screen name|alias|id|slug|tag)\b")


@rule("confirm.gui.password-shaped", "A password-shaped string typed into an ordinary field", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.7)
def password_in_field(ctx: Context) -> str | None:
    """The whole typed text is one token that reads like a password (mixed case with digits, or letters,
    digits and a symbol: `gate.sensitive.password_shaped`) and the field is not a password field (that
    is `confirm.gui.credential-field`), a search box, a user-name or nickname field, or a field for codes
    (coupon, tracking, SKU): a password pasted into a comment, chat or description is exposed. The text
    is redacted from the log."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if len(text) > 80 or not password_shaped(text) or ctx.derived(_credential_field) or ctx.derived(_secret_in):
        return None
    if ctx.derived(destination) is not Destination.FIELD and ctx.derived(destination) is not Destination.UNKNOWN:
        return None  # a terminal or address bar: judged as the command or URL it becomes
    field = ctx.derived(_field_text)
    if field.words and _SEARCHLIKE.search(field.words):
        return None
    where = f"field {_short(field.raw, 40)!r}" if field.raw else "a field that is not a password field"
    return f"typing a password-shaped string into {where}"


@dataclass(frozen=True, slots=True)
class _Steered:
    found: Steering
    where: str  # "the target" | "the typed text"
    blocks: bool  # manipulative enough to block


# digits and symbols standing for letters inside a word ("1gn0re prev10us instruct1ons", "@dmin p@$$word")
_LEET = re.compile(r"[a-z][0-9@$|!]|[0-9@$|!][a-z]")
_LEET_READINGS = (str.maketrans("0134578@$|!", "oieastbasli"), str.maketrans("0134578@$|!", "oleastbasli"))
_NON_WORD_RUN = re.compile(r"[^\w\n]+|_")


def _leet_steering(norm: str, book: CueBook) -> Steering | None:
    """Steering cues in a label read with its digits and symbols as the letters they stand for."""
    for table in _LEET_READINGS:
        words = _NON_WORD_RUN.sub(" ", norm.translate(table)).strip()
        found = steering(words, book=book)
        if found is not None:
            return found
    return None


def _steering(ctx: Context) -> _Steered | None:
    """Steering cues in the target's label, or (for `type`) in the typed text as the agent's writing.
    A target with two kinds of cue blocks; typed text blocks only when one of them is aimed at an AI or
    asks for a secret (an e-mail that says "urgent, please verify your account" may be a real one)."""
    label = ctx.derived(label_text)
    book = ctx.compiled.cues
    found = steering(label.words, label.norm, label.keys, book) if label.words else None
    if found is None and label.norm and _LEET.search(label.norm):
        found = _leet_steering(label.norm, book)
    if found is not None:
        return _Steered(found, "the target", found.manipulative)
    if ctx.type == "type":
        typed = ctx.derived(_typed)
        found = steering(typed.words, typed.norm, typed.keys, book) if typed.words else None
        if found is not None and (found.manipulative or found.aimed_at_agent):
            return _Steered(found, "the typed text", found.manipulative and found.aimed_at_agent)
    return None


def _cue_names(found: Steering) -> str:
    return " + ".join(found.cues)


@rule("block.gui.steering", "A target or typed text that manipulates the agent", risk=Risk.CRITICAL,
      types=("click", "type", "drag"), confidence=0.8)
def steering_block(ctx: Context) -> str | None:
    """Two different kinds of steering cue together (`gate.steering`): an order with pressure ("urgent:
    click OK"), a threat with a request for credentials ("your account will be suspended, confirm your
    identity"), an address to the AI with an override, a fake infection with a call to act. Real
    interfaces do not talk like this; scareware, phishing and prompt injection do. In typed text, one of
    the kinds must be one no person writes to another (an address to an AI, an override, a request for a
    secret, a scare, a lure)."""
    hit = ctx.derived(_steering)
    if hit is None or not hit.blocks:
        return None
    return f"{hit.where} manipulates the agent ({_cue_names(hit.found)}): {_short(hit.found.quote, 50)!r}"


@rule("confirm.gui.steering", "A target or typed text that gives the agent orders or pressure", risk=Risk.HIGH,
      types=("click", "type", "drag"), confidence=0.7)
def steering_confirm(ctx: Context) -> str | None:
    """One steering cue (`gate.steering`): text addressed to an AI, an order to act ("you need to click
    OK"), an override of its instructions, urgency or a threat, a request to confirm an identity or
    card, a fake system alert or update, a prize to claim. In typed text (the agent's own writing) only
    the cues no person writes to another (an address to an AI, an override, a request for a secret, a
    scare, a lure) count, or two kinds together."""
    hit = ctx.derived(_steering)
    if hit is None or hit.blocks:
        return None
    return f"{hit.where} steers the agent ({_cue_names(hit.found)}): {_short(hit.found.quote, 50)!r}"


@rule("confirm.gui.consequential", "A button that spends money or changes an account, access or visibility",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def consequential(ctx: Context) -> tuple[str, Risk] | None:
    """The clicked label commits to something by its meaning (`gate.consequence`): paying, subscribing,
    upgrading or starting a trial, transferring or withdrawing money, saving a card; changing an
    account's e-mail, password, phone or second factor; authorising an application or granting access,
    inviting users, changing roles; publishing or sharing publicly; cancelling or closing a service;
    bulk changes to selected records. Moving around (navigation, search, "Add to cart", "Remove from
    cart", "Cancel") does not."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    found = consequence(label.words, getattr(ctx.action, "url", None) or ctx.observation.url, label.keys,
                        ctx.compiled.cues)
    if found is None:
        return None
    return f"{found.kind}: {_short(label.raw)!r}", found.risk


# A field that asks for a phrase before something irreversible happens: "Type DELETE to confirm", "Enter
# the repository name to confirm", "To confirm, type 'permanently delete'".
_CONFIRMATION_FIELD = re.compile(
    r"\b(?:type|enter|write|retype|re enter) (?:\w+ ){0,6}(?:to|and) (?:confirm|continue|proceed|delete|remove|"
    r"cancel|close|transfer|erase)\b|\bto confirm,? (?:please )?(?:type|enter|write)\b|\bconfirm (?:the )?"
    r"(?:deletion|removal|cancellation|transfer) by typing\b")


@rule("confirm.gui.typed-confirmation", "Typing the phrase that confirms an irreversible action",
      risk=Risk.HIGH, types=("type",), confidence=0.85)
def typed_confirmation(ctx: Context) -> str | None:
    """The field asks for a phrase before something irreversible happens ("Type DELETE to confirm",
    "enter the project name to confirm"): typing it is the confirmation click in another form."""
    field = ctx.derived(_field_text)
    if not field.words or not _CONFIRMATION_FIELD.search(field.words):
        return None
    return f"typing the confirmation of an irreversible action into {_short(field.raw, 50)!r}"


# -- data typed out: credential lists and customer records in messages ------------------------------


@dataclass(frozen=True, slots=True)
class _TypedOut:
    payload: Payload
    where: str | None  # the page is a place data hides (paste site, file drop, collector, raw IP)


def _typed_out(ctx: Context) -> _TypedOut | None:
    """What typed text sends out (gate/dataout.py), when it goes into an ordinary field: a terminal or the
    address bar are judged as the command or URL the text becomes, a credential field by its own rule."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or ctx.derived(_credential_field):
        return None
    where = ctx.derived(destination)
    if where is not Destination.FIELD and where is not Destination.UNKNOWN:
        return None
    found = carried(text) or _credential_upload(ctx, text)
    if found is None:
        return None
    url = getattr(ctx.action, "url", None) or ctx.observation.url
    parts = split_url(url) if url else None
    host, path = (parts.host, parts.path) if parts is not None else ("", "")
    page = data_destination(host, path, ctx.compiled.cues, ctx.compiled.collector_hosts) if host else None
    return _TypedOut(found, page)


# a file chooser: what is typed into it is the file that gets uploaded or attached
_FILE_CHOOSER = re.compile(r"\b(?:file ?name|file name|file to upload|upload|attach|attachment|choose (?:a )?file|"
                           r"select (?:a )?file|open file|file upload|browse)\b|^(?:open|file|location)$", re.MULTILINE)
# the home folder or a root, written as an upload dialog takes it: everything under it goes
_WHOLE_TREE = re.compile(r"^(?:~|\$HOME|%USERPROFILE%|/|/home/[^/]+|/Users/[^/]+|/root|[A-Za-z]:|"
                         r"[A-Za-z]:/Users/[^/]+)/?$", re.IGNORECASE)
_PATH_START = re.compile(r"^(?:~|\.{0,2}/|[A-Za-z]:[\\/]|\\\\|%\w+%|\$HOME\b)")


def _credential_upload(ctx: Context, text: str) -> Payload | None:
    """A credential file's path typed into a file chooser (an upload or attach dialog): the file goes out."""
    token = text.strip()
    if not token or len(token) > 1024 or "\n" in token or not _PATH_START.match(token):
        return None
    field = ctx.derived(_field_text).words
    window = ctx.observation.window_title.lower()
    if not (field and _FILE_CHOOSER.search(field)) and not (window and _FILE_CHOOSER.search(window)):
        return None
    from gate.rules.files import credential_match, sensitive_match

    path = token.replace("\\", "/")
    hit = credential_match(ctx.compiled, path)
    if hit:
        return Payload(f"the path of a credential file ({hit}) into a file chooser", 3)
    if _WHOLE_TREE.match(path):
        return Payload(f"a whole directory ({token}) into a file chooser", 2)
    hit = sensitive_match(ctx.compiled, path)
    return Payload(f"the path of a sensitive file or folder ({hit}) into a file chooser", 2) if hit else None


@rule("block.gui.data-out", "Typing a credential list or a credential file into a field", risk=Risk.CRITICAL,
      types=("type",), redact=("text",), confidence=0.85)
def data_out_block(ctx: Context) -> str | None:
    """The typed text is a credential list (two or more user/password pairs), the contents of a credential
    file (passwd or shadow lines, a private key, an `.env` full of secrets), a credential file's path typed
    into a file chooser (an upload or attach dialog sends that file), or a password with its user
    name or personal records typed on a page where data hides (a paste site, a file drop, a request
    collector, a raw IP): into a message, comment, issue body or chat it hands every account over. A live
    token alone is `block.gui.secret-exposure`. The text is redacted from the log."""
    out = ctx.derived(_typed_out)
    if out is None or ctx.derived(_secret_in) is not None:
        return None
    p = out.payload
    if p.severity >= 3:
        return f"typing {p.kind} into {_where(ctx)}"
    if p.severity >= 2 and out.where is not None:
        return f"typing {p.kind} on {out.where}"
    return None


@rule("confirm.gui.data-out", "Typing credentials or personal records into a message", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.75)
def data_out_confirm(ctx: Context) -> str | None:
    """The typed text holds a user name with its password written out ("username admin, password ..."),
    or personal records (two or more lines that each hold an e-mail, phone, card or national id; five or
    more e-mail addresses): customer data leaving through a comment, a chat or an issue. Or a whole home
    folder, a root or a folder of secrets (`~/.ssh`, `~/.gnupg`) typed into a file chooser: everything in
    it would be uploaded. One card number or national id alone is `confirm.gui.sensitive-data`. The text
    is redacted from the log."""
    out = ctx.derived(_typed_out)
    if out is None or ctx.derived(_secret_in) is not None:
        return None
    p = out.payload
    if p.severity != 2 or out.where is not None or p.kind.startswith("personal data"):
        return None
    return f"typing {p.kind} into {_where(ctx)}"


def _where(ctx: Context) -> str:
    field = ctx.derived(_field_text).raw
    return f"field {_short(field, 40)!r}" if field else "a field"


RULES: tuple[Rule, ...] = (blocklisted, suspicious_label, secret_exposure, credential_field, critical_point,
                           irreversible, session_key, sensitive_data, password_in_field, steering_block,
                           steering_confirm, consequential, typed_confirmation, data_out_block, data_out_confirm,
                           paste_to_run)
