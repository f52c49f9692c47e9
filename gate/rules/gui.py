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
judges what typed text sends out (credential lists, credential files, records, whole identities, sign-in
codes; a credential file or a whole home typed into a file chooser). Where typed text goes (a terminal, a
Run dialog, the address bar) is gate/rules/typed.py; a paste into a terminal or Run dialog asks here.

What a field hands over is read from the field and the page together: an outside address as a message's
recipient asks, and as a forwarding address blocks; a public key typed into a key field blocks (it lets a
machine in); an e-mail or phone typed into an account's own contact field on its profile or security page
asks (it receives every reset). Turning off a second factor blocks.

A label written as a menu path ("Settings > Account > Two-step verification > Turn off", `menu_path`) is read as
its last step on the page the steps before it name: the control with its state ("Real-time protection Off" →
"turn off real time protection") or its object ("Turn off" → "turn off two step verification"), the choice or
the question the step before it asks ("Add administrator > Super Administrator", "Permanently delete > Yes").
The steps before only say where it is: "Settings > Display > Brightness" and "Edit > Delete > Cancel" pass.
Tabs that list things ("Merge requests", "Issues") and a plain form's "Submit" are navigation; the page says
when a Submit commits.

Key combinations: ordinary shortcuts (ctrl+s, esc, f10, alt+f10, f11, enter, alt+f4, ctrl+w) stay
allowed, and so does a switch to a text console (ctrl+alt+f1-f6: the desktop keeps running on its own);
combinations that end or reboot the session (ctrl+alt+delete, ctrl+alt+backspace, a logout, magic SysRq)
ask, because a person loses the desktop they are watching and whatever was unsaved on it; they are not
blocked, since a person may well want them. Locking the screen (super+l, ctrl+super+q) loses nothing and is
allowed; ctrl+alt+l is an editor's "reformat code" as often as a desktop's lock.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from gate import lures
from gate.approvals import approval_command, approval_tool
from gate.catalogue import DATA as catalogue_data
from gate.consequence import Consequence, consequence, editor_command, moves_only, of_kind, office_edit, system_update
from gate.cues import CueBook, book_table, either_spelling, is_practice_host
from gate.dataout import Payload, carried, named_whereabouts
from gate.dataout import destination as data_destination
from gate.destinations import own_site
from gate.device_admin import on_local_network
from gate.fields import MAIL_PAGE as _MAIL_PAGE
from gate.fields import ONE_EMAIL as _ONE_EMAIL
from gate.fields import ONE_PHONE as _ONE_PHONE
from gate.fields import PASSWORD_WORD as _PASSWORD_WORD
from gate.fields import Text, assistant_chat, label_text, shannon_entropy
from gate.fields import credential_field as _credential_field
from gate.fields import field_place as _where
from gate.fields import field_text as _field_text
from gate.fields import into_a_field as _into_a_field
from gate.fields import message_field as _message_field
from gate.fields import page_host as _page_host
from gate.fields import page_path as _page_path
from gate.fields import public_post as _public_post
from gate.fields import secret_in as _secret_in
from gate.fields import short as _short
from gate.fields import text_of as _text
from gate.fields import typed_text as _typed
from gate.harm import alarm, doxxing, harassment, phishing
from gate.model import Risk
from gate.normalise import fold
from gate.policy import GuiPolicy
from gate.prefix import Guarded, text_keys
from gate.prefix import Matcher as _Matcher
from gate.rules.base import Context, Rule, rule
from gate.sensitive import find_sensitive, password_shaped
from gate.steering import Steering, steering
from gate.typed import Destination, destination, mail_auth_record
from gate.urls import is_loopback, registrable, site_label, split_url

__all__ = ["RULES", "canonical_keys", "field_category", "label_consequence", "label_text",
           "secret_patterns", "shannon_entropy", "steered"]

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
    # what the blocklists found in a label or a short typed text, by its normalised form: labels repeat (agents
    # click the same buttons), and the lists are this policy's, so the answer is too. An lru_cache like every
    # other per-input memory of the gate (bench/gate_latency.py clears them all for its cold figures).
    found: Callable[[bool, str, frozenset[str]], str | None] = field(init=False)

    def __post_init__(self) -> None:
        def found(label: bool, both: str, keys: frozenset[str]) -> str | None:
            return _search_lists(self, both, keys, label)
        object.__setattr__(self, "found", functools.lru_cache(maxsize=_FOUND_LIMIT)(found))


_FOUND_LIMIT = 4096


def _alternation(patterns: list[str]) -> _Matcher | None:
    # a policy's words outside ASCII ("пароль", "Geheimzahl mit ß") match the folded label too
    return _Matcher([either_spelling(p) for p in patterns]) if patterns else None


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


# -- derived facts shared by several rules ------------------------------------------------------


# a login form's password field ("Password", "Enter password", "pwd"); a card, a PIN or a token is not one
_LOGIN_PASSWORD = re.compile(r"\b(?:pass ?word|passwd|pwd|passphrase|kennwort|passwort|mot de passe|contraseña)\b")


def _practice_page(ctx: Context) -> bool:
    """The action happens on a local file's page, on this machine, or on a practice or test site
    (`[practice-sites]` of resources/cues.toml: example.com, *.local, the-internet.herokuapp.com)."""
    url = getattr(ctx.action, "url", None) or ctx.observation.url
    if not url:
        return False
    parts = split_url(url)
    if parts is None:
        return False
    if parts.scheme == "file":
        return True
    host = (parts.host or "").lower()
    return bool(host) and (is_loopback(host) or is_practice_host(host, ctx.compiled.cues))


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

def secret_patterns(ctx: Context) -> _Matcher | None:
    """The compiled `[gui] secret_patterns` (live secrets by their shape), for other families that look for
    the same secrets in other text (a file's content: gate/rules/content.py)."""
    return _patterns(ctx).secrets


# -- rules --------------------------------------------------------------------------------------


@rule("block.gui.blocklist", "Malicious or catastrophic target, or malicious typed text", risk=Risk.CRITICAL,
      types=("click", "type", "drag", "scroll", "move"), confidence=0.9)
def blocklisted(ctx: Context) -> str | None:
    """The target's label/name holds an instruction aimed at the agent (prompt injection), a code or SQL
    payload, scareware, a bulk data operation or a catastrophic action (delete account, format disk,
    factory reset, wipe all); or the typed text holds a prompt or SQL injection. Evaluated after
    normalisation, so homoglyphs and zero-width characters do not hide a phrase. A program's own reset
    (`_app_reset`) and an account of a budgeting app's books or a mail client's settings (`_ledger_account`) ask
    instead."""
    p = _patterns(ctx)
    label = ctx.derived(label_text)
    if label.raw:
        hit = _listed(p, label, True)
        if hit and not _app_reset(ctx, hit) and not _ledger_account(ctx, hit):
            return f"blocked target {_short(label.raw)!r}: matches {_short(hit, 40)!r}"
    if ctx.type == "type" and p.blocklist is not None:
        typed = ctx.derived(_typed)
        if typed.raw and (hit := _listed(p, typed, False)):
            return f"typed text holds an injection: {_short(hit, 40)!r}"
    return None


# a factory reset as the blocklist finds it, and the windows where it is the whole machine's or a device's: the
# system's settings, a phone's, a router's or a camera's admin page
_FACTORY_HIT = re.compile(r"^(?:factory (?:data )?(?:reset|defaults|settings)|restore (?:to )?factory|"
                          r"reset (?:to )?factory|reset (?:all|the entire) data)$")
_OS_APP = re.compile(r"^(?:settings|system settings|system preferences|control panel|gnome control center|"
                     r"systemsettings|ms settings|recovery|bios|uefi|setup utility|launcher|android|ios|ipados)$|"
                     r"\b(?:settings app|control center|control panel)\b")
_DEVICE = re.compile(r"\b(?:reset this pc|router|modem|access point|printer|camera|nas|phone|tablet|iphone|ipad|"
                     r"firmware|bios|uefi|recovery)\b")


def _app_reset(ctx: Context, hit: str) -> bool:
    """A factory reset that the blocklist found in the label is one program's own ("Reset to factory defaults" or
    "Reset all data" in Docker Desktop's Troubleshoot screen: its images, containers and settings deleted, the
    machine untouched): that asks as a deletion of data (`confirm.gui.consequential`), where the system's, a phone's
    or a device's reset (a settings app, a page on a router) stays blocked. Needs a named desktop program and no
    page."""
    obs = ctx.observation
    if not _FACTORY_HIT.match(hit) or obs.url or getattr(ctx.action, "url", None) or not obs.app:
        return False
    app = " ".join(fold(obs.app[:128]).lower().replace(".exe", "").replace("-", " ").split())
    place = f"{app} {fold(obs.window_title[:256]).lower()}"
    return not _OS_APP.search(app) and not _DEVICE.search(place)


# an account closed or removed as the blocklist finds it, and the programs where an "account" is a record of the
# person's own: a budgeting or bookkeeping app's ledger account, a mail or chat client's configured account
_ACCOUNT_HIT = re.compile(r"^(?:close|delete|remove|archive) (?:this |the )?account$")


def _ledger_account(ctx: Context, hit: str) -> bool:
    """"Close account" in a budgeting app ("Roth IRA - <budget app>", a ledger's account page) closes a record of the
    person's own books, and "Remove account" in a mail client drops its settings on this machine: the online
    account itself lives on. They ask as a change (`confirm.gui.consequential`); the person's own online account
    deleted or closed on its site stays blocked. The program is read from the window's title, the app and the
    page's address (`[context.ledger-app]` of resources/cues.toml)."""
    if not _ACCOUNT_HIT.match(hit):
        return False
    where = ctx.compiled.cues.context.get("ledger-app")
    obs = ctx.observation
    place = _text(f"{obs.app[:128]} {obs.window_title[:256]} {obs.url[:256]}").words
    return where is not None and where.search(place) is not None


def _listed(p: _Compiled, text: Text, label: bool) -> str | None:
    """What the blocklist (and, for a label, the label blocklist) finds in `text`, remembered per policy for
    labels and short texts."""
    if len(text.both) <= 512:
        return p.found(label, text.both, text.keys)
    return _search_lists(p, text.both, text.keys, label)


def _search_lists(p: _Compiled, both: str, keys: frozenset[str], label: bool) -> str | None:
    m = (p.blocklist.search(both, keys) if p.blocklist is not None else None) or \
        (p.label_blocklist.search(both, keys) if label and p.label_blocklist is not None else None)
    return m.group(0) if m else None


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
    if m is not None and ctx.action.type == "type" and _TASK_FIELD.match(label.words.strip()) and \
            not _planted_task(ctx.derived(_typed)):
        return None  # text typed into a to-do list's "New task" box: the title of the person's own task
    if m is not None and ctx.action.type == "click" and ctx.derived(_in_folder_list) and \
            _TASK_OVERRIDE.search(label.words) is None:
        return None  # a mail's subject in a folder's list ("IMPORTANT: invoice"): the click opens the message
    return f"the target reads like an instruction to the agent: {_short(label.raw)!r}" if m else None


# the input box of a to-do list or a task board, named for what is typed into it
_TASK_FIELD = re.compile(r"^(?:new|add(?: a)?(?: new)?) (?:task|to ?do|item|card|subtask)(?: (?:name|title))?$")
# ... unless what is typed there overrides the agent's orders, or orders something sent, paid, run or opened
# somewhere named (an address, a link, an account number): then it may be a planted task. "Pay the electricity
# bill", "Email Anna about Friday" are a person's own to-dos.
_TASK_OVERRIDE = re.compile(r"\b(?:ignore|disregard|forget|override)\b")
_TASK_ORDER = re.compile(r"\b(?:send|e ?mail|forward|transfer|wire|pay|upload|share|delete|run|execute|click|visit|"
                         r"open|go to|download|install)\b")
_TASK_WHERE = re.compile(r"@|\bhttps?:|\bwww\.|\b[a-z0-9-]{1,63}\.[a-z]{2,24}\b|\d{6,}|\$\(|"
                         r"\|\s{0,4}(?:ba)?sh\b")


def _planted_task(typed: Text) -> bool:
    words = typed.words[:512]
    if _TASK_OVERRIDE.search(words):
        return True
    return _TASK_ORDER.search(words) is not None and _TASK_WHERE.search(typed.raw[:512].lower()) is not None


@rule("block.gui.secret-exposure", "A live secret typed into a field that is not a credential field",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.85)
def secret_exposure(ctx: Context) -> str | None:
    """The typed text looks like a live credential (a token with a known prefix, a JWT, a PEM private
    key, a password in a connection string, a long high-entropy string) and the field is not a
    credential field: pasting a secret into a description or chat box exposes it. Into an actual
    password / token field it is `confirm.gui.credential-field` instead."""
    if ctx.derived(_credential_field) or _public_key_only(ctx.action.text):  # type: ignore[attr-defined]
        return None  # a public key is no secret: what it grants is `confirm.gui.access-key`'s
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
    not on the allowlist, e.g. "password hint", "search"). The typed text never reaches the log. A practice
    or demo login form (a local file, localhost, *.local, example.com, a known practice site) is not asked
    about: nothing real is handed over there (a card number there still asks, and a brand's password asked
    for there is still `block.web.credential-for-another-site`)."""
    if not ctx.derived(_credential_field):
        return None
    cat = ctx.derived(_field_category)
    if cat is None and _LOGIN_PASSWORD.search(ctx.derived(_field_text).words) and ctx.derived(_practice_page):
        return None  # a practice login form's password: a card number or an identity number there still asks
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
    if cat is None or _small_amount_to_known(ctx):
        return None
    return f"critical point ({cat.name}): typing into {_short(ctx.derived(_field_text).raw, 40)!r}", cat.risk


# a payee the person already has (a saved contact, a split of a shared bill), named by the amount field
_KNOWN_PAYEE = re.compile(r"\b(?:saved|existing|known|regular|frequent|favou?rite|recent) (?:contact|payee|recipient|"
                          r"friend|biller)\b|\b(?:split|splitting|my share|your share|share of)\b")
_SMALL_AMOUNT = re.compile(r"^\s*[$€£¥₹]?\s*(\d{1,4}(?:[.,]\d{1,2})?)\s*(?:[$€£¥₹]|[A-Za-z]{3})?\s*$")
_SMALL = 1000  # what a person splits with a friend; larger sums are what scams ask for


def _small_amount_to_known(ctx: Context) -> bool:
    """A small amount (under 1,000) typed into an amount field that names a payee the person already has ("Amount
    to send to Ana (saved contact, rent split)"): typing it moves nothing, and the send asks if anything does."""
    m = _SMALL_AMOUNT.match(getattr(ctx.action, "text", "") or "")
    if m is None or float(m.group(1).replace(",", ".")) >= _SMALL:
        return False
    return _KNOWN_PAYEE.search(ctx.derived(_field_text).words) is not None


# "Submit" with nothing after it but the kind of form, or "Send feedback": it sends what the form holds, and only
# the page says whether that commits to anything
_BARE_SUBMIT = re.compile(r"^submit(?: (?:form|query|search|answer|answers|feedback|survey|response|responses|"
                          r"details|info|information|entry|ticket|(?:your |my )?(?:name|nickname|display name|"
                          r"user ?name|guest name|e ?mail|e ?mail address)))?$|^send (?:us )?(?:your )?feedback$")


# A reply to an invitation: accepting or declining a meeting, an event or an invitation to join. It tells the
# organiser an answer and can be changed later; an offer, a transfer or terms are not replies and still ask.
_RSVP = re.compile(
    either_spelling(
        r"^(?:accept|decline|reject|tentative|tentatively accept|maybe|rsvp(?: yes| no)?|yes i ll attend|going|"
    r"not going|join)(?: the| this| meeting| event| calendar| team| group| channel| workspace| project"
    r"| organi[sz]ation| org"
    r"| repository| repo| friend| connection| follow){0,3} (?:invite|invites|invitation|invitations|meeting|event|"
    r"request|requests)(?: request)?$"
    r"|^(?:einladung|termin|besprechung) (?:annehmen|ablehnen|zusagen|absagen)$|^(?:zusagen|absagen)$"
    r"|^(?:accepter|refuser|décliner) (?:l |la |cette )?(?:invitation|réunion|événement)$"
    r"|^(?:aceptar|rechazar) (?:la |esta )?(?:invitación|reunión|evento)$"
    r"|^(?:aceitar|recusar) (?:o |a |este |esta )?(?:convite|reunião|evento)$"
    r"|^(?:принять|отклонить) (?:приглашение|встречу)$|^(?:接受|拒绝)(?:会议)?邀请$|^招待を(?:承諾|辞退)(?:する)?$"))


# a bare answer on a calendar's event page is a reply to that event's invitation ("Accept", "Maybe", "Decline")
_BARE_RSVP = re.compile(r"^(?:accept|decline|maybe|tentative|yes|no|going|not going)$")
_CALENDAR_PAGE = re.compile(r"(?:^|[/.])(?:calendar|calendars|cal)(?:[/.?#]|$)|/(?:events?|meetings?|invites?|"
                            r"invitations?)(?:/|$|\?|#)", re.IGNORECASE)


# a token, a key, an app password or a session revoked: whoever held it can no longer use it, and the owner makes a new
# one when needed ("Revoke API token", "Revoke all sessions" is a sign-out and not here). Removing a saved card is a
# change of the account's wallet and still asks
_LESS_EXPOSURE = re.compile(r"^(?!.*\b(?:and|then|plus|also|all)\b)revoke(?: this| the| my| an?| old| unused)* "
                            r"(?:api |access |personal access |app |oauth |refresh |deploy )?(?:tokens?|keys?|"
                            r"passwords?|grants?)(?: [\w ]{0,40})?$"
                            # a browser's or a system's option that withholds a permission ("Don't allow sites to
                            # send notifications"): the "send" is what is refused
                            r"|^(?:don t|dont|do not) allow (?:any )?(?:sites?|apps?|websites?|pages?) to [\w ]{1,60}$")
# mail a person stops receiving: a newsletter, marketing mail, a digest ("Unsubscribe from newsletter", "Opt out of
# promotional emails"); a paid subscription is `[consequence.cancellation-or-closing]` and still asks
_UNSUBSCRIBE_MAIL = re.compile(r"^(?:unsubscribe|opt out|stop (?:receiving|getting|sending me))(?: me)?"
                               r"(?: (?:from|of))? "
                               r"(?:(?:this|the|all|our|these|those|marketing|promotional|weekly|daily|monthly) )*"
                               r"(?:newsletters?|e ?mails?|mailing lists?|mail|digests?|updates|notifications|"
                               r"marketing(?: e ?mails?)?|promotions?|offers|alerts about \w+)(?: \w+){0,3}$")
_BARE_UNSUBSCRIBE = re.compile(r"^(?:unsubscribe|unsubscribe me|yes unsubscribe|confirm unsubscribe|unsubscribe all|"
                               r"unsubscribe from all)$")
# a mailing's own preferences or unsubscribe page, where a bare "Unsubscribe" stops that mail
_MAIL_PREFS = re.compile(r"(?:unsubscribe|email[_-]?preferences|mail[_-]?preferences|subscription[_-]?preferences|"
                         r"manage[_-]?preferences|list-manage\.com|optout|opt-out|email[_-]?settings)", re.IGNORECASE)


# a cloud drive's own pages, and the bare buttons that move the selection to its trash or recycle bin (kept there for
# 30 days or more, restored in a click): Google Drive and Photos, Dropbox, OneDrive and SharePoint, Box, iCloud Drive
_STORAGE_PAGE = re.compile(r"^https?://(?:drive\.google\.com|photos\.google\.com|(?:www\.)?dropbox\.com/home|"
                           r"onedrive\.live\.com|[\w-]+\.sharepoint\.com|[\w-]+-my\.sharepoint\.com|(?:app\.)?box\.com/"
                           r"(?:folder|file)|(?:www\.)?icloud\.com/iclouddrive)(?:[/?#]|$)", re.IGNORECASE)
_STORAGE_TRASH = re.compile(r"(?:move (?:to|into) (?:the )?(?:trash|bin|recycle bin)|trash|remove|delete|move to trash "
                            r"icon)(?: (?:\d+ )?(?:items?|files?|folders?|photos?|selected))?")


# a mail list's selection of several messages (the window's title counts them): a bare "Delete" then takes them all
_MANY_SELECTED = re.compile(r"\b(?:[2-9]|\d{2,}) (?:conversations?|messages?|e ?mails?|mails|threads|items) "
                            r"selected\b|\ball (?:\d+ )?(?:conversations|messages|e ?mails|threads) (?:\w+ ){0,3}"
                            r"(?:are )?selected\b")
# a WordPress post's or page's editor and its list, where a bare "Trash" moves the post to the site's trash, to be
# restored from there (media deleted from the library is gone, and is not here)
_CMS_TRASH_PAGE = re.compile(r"/wp-admin/(?:edit|post)\.php(?:[?#]|$)", re.IGNORECASE)
_CMS_TRASH = re.compile(r"(?:trash|move to trash|move to the trash)(?: (?:post|page|posts|pages|selected))?")


# a label that tells its reader which button to press ("... and click Submit", "then press Send"): the verb is the
# name of another button, and the text around it describes a task
_NAMES_A_BUTTON = re.compile(r"\b(?:click|press|tap|hit)(?: on)?(?: the)? (?!here\b|to\b|this\b)\w+(?: button)?\b")


# a list page's button that opens the invitation form ("Invite people" on a staff or members page): the form's own
# "Send invitation" asks. In the form itself (its window's title says invite or invitation), or where the page is
# not known, the same label may send
_INVITE_OPENER = re.compile(r"^(?:\+ )?invite (?:new )?(?:people|users?|members?|staff(?: users?| members?)?|"
                            r"team ?mates?|team members?|collaborators?|someone|others|"
                            r"a (?:new )?(?:user|member|staff user|teammate))$")
# "Add a new user", "Create new member": the word "new" names the blank record the link opens, wherever the link is
# (a dashboard's shortcut, an admin menu); the form's own "Create user" or "Save" adds the person
_NEW_PERSON_OPENER = re.compile(r"^(?:\+ )?(?:add|create|register) (?:a )?new (?:user|member|staff user|staff member|"
                                r"teammate|team member|collaborator|account|person|contact)$")
_INVITE_FORM = re.compile(r"\b(?:invit\w*|einlad\w*|inviter|invitar|convidar|invitare|uitnodig\w*)\b",
                          re.IGNORECASE)


# ... on the page that lists those people (its address or title)
_PEOPLE_LIST = re.compile(r"\b(?:staff|members?|team|teams|users|people|collaborators|organi[sz]ation|workspace|"
                          r"membres|mitglieder|miembros|"
                          r"membri|leden|membros|équipe|equipo|mitarbeiter)\b")


# a list page's button that opens the form for a new key, token, stored credential or hook ("Add new token", "New
# webhook", "Create credential"): the form's own "Create token" or "Save" asks. A stored credential or connection is
# what the person types in (another service's key, kept for a workflow), so its "Create" opens that form too; a
# key's or a token's "Create" may make it at once, and asks
_FORM_OPENER = re.compile(r"^(?:\+ )?(?:add new|add a new|add another|new) (?:\w+ ){0,3}?"
                          r"(?:tokens?|keys?|credentials?|integrations?|connections?|webhooks?|hooks?|bots?|"
                          r"oauth apps?|clients?)$|^(?:\+ )?(?:create|add) (?:a |an )?(?:new )?(?:credentials?|"
                          r"connections?)$|"
                          # "Create API token", "Generate new token": a token's form is opened by its list's
                          # button (a console's "Create new key" may make a key in its dialog, and asks)
                          r"^(?:\+ )?(?:create|generate) (?:a )?new (?:\w+ ){0,3}?tokens?$|"
                          # a bare "Add" on the list of credentials: the list's own button, whose form saves
                          r"^(?:\+ )?add$")
# ... on the page that lists them (its address or title), and not in the form itself ("/tokens/new", "New token")
_KEYS_LIST = re.compile(r"\b(?:tokens?|keys|credentials?|integrations?|connections|webhooks?|hooks|bots|"
                        r"developer|developers|oauth|applications|api)\b")
_FORM_PLACE = re.compile(r"\b(?:new|create|add|edit|generate)\b")


# a dialog that shows a key or token just made, once, for copying ("Copy and save this API key", "Your new
# personal access token", "Token created"): the key exists already, and its "Done" or "Close" only shuts the dialog
_KEY_SHOWN_TITLE = re.compile(r"\b(?:copy|save|store|note)(?: (?:and|&) (?:copy|save|store))? (?:down )?"
                              r"(?:this|your|the)(?: new)?(?: \w+){0,2}? (?:key|token|secret|password)s?\b|"
                              r"\byour new(?: \w+){0,2}? (?:key|token|secret)s?\b|"
                              r"\b(?:key|token|secret)s? (?:was |has been )?(?:created|generated)\b|"
                              r"\b(?:won ?t|will not|cannot|can ?t) (?:be )?(?:shown|see (?:it|this))"
                              r"(?: \w+){0,2}? again\b")
_DISMISS = re.compile(r"^(?:done|close|ok|okay|got it|i ve copied it|i have copied it|i ve saved it|"
                      r"i have saved it|i ve copied the key|i have copied the key|finish|dismiss)$")


def key_shown_dismissed(ctx: Context, first: str) -> bool:
    """The click closes a dialog that showed a key or token just made ("Done" under "Copy and save this API key"):
    the making asked at its own button, and closing the dialog changes nothing."""
    title = ctx.observation.window_title
    return bool(title) and _DISMISS.match(first) is not None and \
        _KEY_SHOWN_TITLE.search(_text(title[:256]).words) is not None


def _opens_key_form(ctx: Context, first: str) -> bool:
    obs = ctx.observation
    if _FORM_OPENER.match(first) is None or _FORM_PLACE.search(_text(obs.window_title[:256]).words):
        return False
    url = (getattr(ctx.action, "url", None) or obs.url or "")[:256]
    path = _text(url.split("://", 1)[-1].partition("/")[2]).words
    return _FORM_PLACE.search(path) is None and _KEYS_LIST.search(f"{path} {_text(obs.window_title[:256]).words}") \
        is not None


def _own_preference(ctx: Context, first: str, url: str) -> bool:
    """A bare "Remove" or "Delete" on the person's own notification, display or sound settings (`[context.personal-
    settings-page]` of resources/cues.toml, read on the address and the title)."""
    book = ctx.compiled.cues.context
    verb, page = book.get("personal-settings-page-verb"), book.get("personal-settings-page")
    if verb is None or page is None or verb.match(first) is None:
        return False
    return page.search(_text(f"{url[:256]} {ctx.observation.window_title[:256]}").words) is not None


def _opens_invite_form(ctx: Context, first: str) -> bool:
    obs = ctx.observation
    if _NEW_PERSON_OPENER.match(first) is not None:
        # "Add a new user" outside the form for one (its address or title says new, create, add or edit)
        url = (getattr(ctx.action, "url", None) or obs.url or "")[:256]
        path = _text(url.split("://", 1)[-1].partition("/")[2]).words
        return _FORM_PLACE.search(f"{path} {_text(obs.window_title[:256]).words}") is None
    return _INVITE_OPENER.match(first) is not None and not _INVITE_FORM.search(obs.window_title[:256]) and \
        _PEOPLE_LIST.search(_text(f"{obs.url[:256]} {obs.window_title[:256]}").words) is not None


_TITLE_PARTS = re.compile(r"\s+[-–—|]\s+")


def _message_window(ctx: Context) -> bool:
    """The active window is a desktop mail or text-message program (`[context.mail-window]`,
    `[context.messaging-window]` of resources/cues.toml, read on the title's parts and the program)."""
    book = ctx.compiled.cues.context
    obs = ctx.observation
    names = [p for p in (book.get("mail-window"), book.get("messaging-window")) if p is not None]
    parts = [_text(p).words for p in _TITLE_PARTS.split(obs.window_title[:256]) if p.strip()]
    if obs.app:
        parts.append(_text(obs.app[:60]).words)
    return any(n.match(part) for n in names for part in parts)


@rule("confirm.gui.irreversible", "Irreversible click: submit, send, pay, delete, ...", risk=Risk.MEDIUM,
      types=("click",), confidence=0.8)
def irreversible(ctx: Context) -> tuple[str, Risk] | None:
    """The clicked label means something that cannot be undone: submit, send, apply, confirm, purchase,
    buy, checkout, pay, place order, book, transfer, delete, remove, trash, invite, publish, post,
    agree to terms, sign, discard / close without saving. The critical-point category of the label
    (`[gui.critical.*].targets`) sets the risk and is named in the reason; without one, medium. A label
    that only moves towards a payment (`[navigation]` of resources/cues.toml: "Continue to checkout",
    "Proceed to shipping", "Apply", "Next") is not the irreversible step, and neither is a reply to an
    invitation ("Accept meeting invite", "Decline invitation", a bare "Accept" on a calendar's event page): an
    offer, a transfer or terms still ask. An editing command on its editor's page ("Delete sheet" in a
    spreadsheet, "Accept all suggestions" in a document: `editor_verb` of resources/cues.toml; "Accept", "Delete
    slide" in a desktop office program's window: `office_verb`) is an edit; a desktop spreadsheet's "Delete Sheet",
    which its undo cannot restore, is not. A bare "Remove" on a cart, a wish list or a library takes one entry
    off the person's own list. Nor are the person's own errands (`_own_errand`): a delivery or collection slot
    booked ("Choose a delivery window", "Book a click & collect slot": changed on the same page until the
    cut-off), money moved between their own accounts, a recurring transfer's form opened (a recurring payment to
    a payee still asks), a restaurant's table reserved on its booking site with no price on the button.
    Nor is a click that can be taken back (`[recoverable]` of resources/cues.toml: a message or a file to the trash,
    "Submit new issue", a consent banner's "Accept all" or "Reject all"); "Delete permanently", "Empty trash" and
    "Delete all" still ask, and so does agreeing to terms. A label that names another button for its reader to
    press ("Scroll to the bottom and click Submit", a practice page's task) describes a step and is not that
    button. A mail or chat client's plain "Send" asks too, although the typing rules judged the message as it was
    typed: once sent it is read, and only the person knows whether this is the message and the recipient they
    want. A menu path is judged by its last two steps
    ("Permanently delete > Yes", "Send to > Mail recipient"): "Edit > Delete > Cancel" cancels; a last step that
    is a switch set to a state ("Roles > @members > Send messages (on)") is a setting, flipped back as easily, and
    what it switches is `confirm.gui.consequential`'s."""
    p = _patterns(ctx)
    label = ctx.derived(label_text)
    if not label.words or p.irreversible is None or not p.irreversible.search(label.words, label.keys):
        return None
    if assistant_chat(ctx):
        return None  # "Send" in a coding assistant's chat panel: a prompt to the person's own assistant, no mail
    if _NAMES_A_BUTTON.search(label.words) and not p.irreversible.search(
            stripped := _NAMES_A_BUTTON.sub(" ", label.words), text_keys(stripped)):
        return None  # "Scroll to the bottom and click Submit": a task's description names a button, it is not one
    if moves_only(label.words, ctx.compiled.cues, getattr(ctx.action, "url", None) or ctx.observation.url):
        return None  # "Continue to checkout", "Apply", "Next": the step that commits comes later
    if family_invite(ctx) or revokes_app_access(ctx):
        return None  # a family group's invitation, an app's access taken back: nothing lost that cannot be given again
    if _opens_invite_form(ctx, label.words.split("\n", 1)[0].strip()):
        return None  # "Invite people" on a staff page opens the invitation form; its "Send invitation" asks
    if _RSVP.match(label.words.split("\n", 1)[0].strip()):
        return None  # "Accept meeting invite", "Decline invitation": an answer to an organiser, not a commitment
    if (answer := _DIALOG_ANSWER.match(first_line := label.words.split("\n", 1)[0].strip())) is not None and \
            not p.irreversible.search(asked := first_line[answer.end():].strip(), text_keys(asked)):
        return None  # "Accept dialog: 'Leave site? Changes you made may not be saved.'": the page's question answered
    if (path := ctx.derived(menu_path)) is not None and (
            _SWITCHED.match(path.control) or _DECLINES.match(path.control) or
            not p.irreversible.search(tail := f"{path.last_step} {path.control}", text_keys(tail))):
        # "Roles > @members > Send messages (on)": a setting's switch, flipped back as easily; "Edit > Delete >
        # Cancel" turns it down; "Settings > Sound > Delete sound > Yes" and "Send to > Mail recipient" are read
        # as their last two steps, the earlier ones only say where it is
        return None
    first = label.words.split("\n", 1)[0].strip()
    book = ctx.compiled.cues
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    if url and _BARE_RSVP.match(first) and _CALENDAR_PAGE.search(url[:512]):
        return None  # a bare "Accept" on a calendar's event page: the answer to that event's invitation
    if url and editor_command(label.words, url, book):
        return None  # "Accept all suggestions", "Delete sheet" in an open document: an edit its undo takes back
    if office_edit(label.words, _office_window(ctx), book):
        return None  # "Accept", "Delete slide" in a desktop office program's window: an edit its undo takes back
    if book.recoverable is not None and book.recoverable.fullmatch(first):
        return None  # "Delete message", "Move to trash", "Submit new issue": it can be restored, edited or closed
    if book.recoverable_on_mail is not None and book.recoverable_on_mail.fullmatch(first) \
            and (_MAIL_PAGE.search(url) or (not url and _message_window(ctx))) \
            and not _MANY_SELECTED.search(_text(ctx.observation.window_title[:256]).words):
        return None  # a bare "Trash" on a mail page or in a mail or messages program: the open message goes to the
        # trash (Recently Deleted), to restore from there
    if _CMS_TRASH.fullmatch(first) and _CMS_TRASH_PAGE.search(url[:256]):
        return None  # "Move to trash" on a WordPress post or its list: the post waits in the site's trash
    if _STORAGE_TRASH.fullmatch(first) and _STORAGE_PAGE.search(url[:256]):
        return None  # "Move to trash" in a cloud drive: the file waits in the drive's trash (30 days or more)
    if _own_preference(ctx, first, url):
        return None  # a bare "Remove" on the person's notification settings: one preference entry, put back in a click
    if _everyday_submit(ctx, first):
        return None  # "Submit application" on a job's page, "Submit assignment", a booking link's "Confirm"
    if _own_errand(ctx, first):
        return None  # "Choose a delivery window", "Move €100 to my savings account": changed or moved back at will
    if _LESS_EXPOSURE.match(first):
        return None  # a token or a key revoked: less that can be used, made again when needed
    if _UNSUBSCRIBE_MAIL.match(first) or (_BARE_UNSUBSCRIBE.match(first) and _MAIL_PREFS.search(url[:512])):
        return None  # a newsletter or marketing mail stopped: signed up for again in a click, no money moves
    if _BARE_SUBMIT.match(label.words.split("\n", 1)[0].strip()):
        # an ordinary form's "Submit": what it commits to is the page's (a payment, an account's security,
        # members), and `confirm.gui.consequential` reads that from the page's address
        return None
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


# the secure attention keys: on Windows they open the security screen (lock, switch user, sign out, Task Manager),
# which does nothing until one of its choices is clicked; on a Linux desktop they open a log-out dialog that logs out
# by itself when its countdown runs out, and on a text console they reboot
_SECURE_ATTENTION = frozenset({"ctrl+alt+delete"})
_WINDOWS_DESKTOP = re.compile(r"^(?:microsoft )?windows(?: \d+| 1[01])?(?: (?:desktop|explorer|settings|shell|"
                              r"security))?$|^(?:explorer|file explorer|program manager|task manager|"
                              r"windows settings)(?:\.exe)?$|\.exe$", re.IGNORECASE)


def _on_windows(ctx: Context) -> bool:
    """The active program, as deskgate read it, is Windows' own desktop or a Windows program (`explorer.exe`)."""
    app = ctx.observation.app.strip()
    return bool(app) and _WINDOWS_DESKTOP.search(app[:80]) is not None


@rule("confirm.gui.session-key", "Key combination that ends or reboots the session", risk=Risk.HIGH,
      types=("key",), confidence=0.9)
def session_key(ctx: Context) -> str | None:
    """The keys are a combination that logs out, kills the display server or
    triggers a magic SysRq (reboot, kill all) (`[gui] session_keys` of resources/policy.toml): the person would
    lose the desktop they are supervising and what was unsaved on it. Ordinary shortcuts (ctrl+s, esc, f10,
    alt+f10, f11, enter) do not match, nor a switch to a text console (ctrl+alt+f1-f6: the desktop keeps running
    on its own console), and neither does locking the screen (super+l): a lock keeps every window
    as it was, and ctrl+alt+l is a code editor's "reformat" as often as a lock."""
    pattern = _patterns(ctx).session_keys
    if pattern is None:
        return None
    combo = ctx.derived(key_combo)
    if combo in _SECURE_ATTENTION and _on_windows(ctx):
        return None  # Windows' own security screen: lock, sign out or Task Manager are further choices on it
    if pattern.search(combo, text_keys(combo)):
        return f"session-ending key combination: {combo}"
    return None


PASTE_KEYS = frozenset({"ctrl+v", "ctrl+shift+v", "shift+insert", "super+v", "shift+super+v", "ctrl+alt+v"})


@rule("confirm.gui.paste-to-run", "Pasting the clipboard into a terminal or a Run dialog", risk=Risk.HIGH,
      types=("key",), confidence=0.8)
def paste_to_run(ctx: Context) -> str | None:
    """A paste shortcut (Ctrl+V, Ctrl+Shift+V, Shift+Insert, Cmd+V) while the active window is a terminal
    or a Run dialog: what runs is the clipboard, which the gate never saw. It is how fake verifications
    ("press Win+R, paste, press Enter") get a page's command run by whoever is at the keyboard. A paste
    into an ordinary window (an editor, a form) does not ask."""
    combo = ctx.derived(key_combo)
    if combo not in PASTE_KEYS:
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
    if not found or (all(f.kind == "internal IP address" for f in found) and on_local_network(ctx.observation.url)):
        return None  # (an address of the network typed into a page of that network's own device stays there)
    kinds = ", ".join(dict.fromkeys(f.kind for f in found))
    where = ctx.derived(_field_text).raw
    return f"typing {found[0].category} ({kinds}) into {_short(where, 40)!r}" if where else \
        f"typing {found[0].category} ({kinds})"


# fields whose values are names and codes that legitimately look like passwords ("Summer2024" coupons)
_SEARCHLIKE = re.compile(r"\b(search|query|find|filter|url|address|location|user ?name|login|e ?mail|user id|"
                         r"code|coupon|promo|voucher|tracking|reference|sku|serial|model|nick ?name|handle|"
                         r"name|display name|screen name|alias|id|slug|tag|"
                         # a record's own number: an order, a booking, a ticket ("Order number", "Case no.")
                         r"(?:order|invoice|confirmation|booking|reservation|ticket|case|claim|receipt|transaction|"
                         r"shipment|parcel|flight|item|part|product|article|bestell|auftrags|commande|pedido|"
                         r"ordine) ?(?:number|no|nr|num|nummer|numéro|numero|número))\b")


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


# words that can only mean an AI (an "agent" or an "assistant" alone may be a person at a help desk)
_NAMES_AN_AI = re.compile(r"\b(?:ai|a i|llm|llms|language models?|chatgpt|gpt|claude|gemini|chatbots?|autonomous|"
                          r"automated (?:agents?|assistants?|systems?|bots?))\b")


def _in_folder_list(ctx: Context) -> bool:
    from gate.rules.mail_lures import folder_view  # mail_lures reads this module's fields: imported when used

    obs = ctx.observation
    return folder_view(obs.window_title, obs.app, getattr(ctx.action, "url", None) or obs.url)


def _steering(ctx: Context) -> _Steered | None:
    """Steering cues in the target's label, or (for `type`) in the typed text as the agent's writing.
    A target with two kinds of cue blocks; typed text blocks only when one of them is aimed at an AI or
    asks for a secret (an e-mail that says "urgent, please verify your account" may be a real one)."""
    label = ctx.derived(label_text)
    book = ctx.compiled.cues
    found = steering(label.words, label.norm, label.keys, book) if label.words else None
    if found is None and label.norm and _LEET.search(label.norm):
        found = _leet_steering(label.norm, book)
    if found is not None and ctx.type == "click" and not found.aimed_at_agent and ctx.derived(_in_folder_list):
        found = None  # a phishing mail's subject in the inbox: the click opens it (its links are judged there)
    if found is not None:
        if not found.manipulative and found.aimed_at_agent and ctx.type == "click" and _commits(ctx, label):
            # text that speaks to the AI on a button that commits (pays, grants, shares, deletes): no real
            # interface does both, a planted instruction does
            return _Steered(found._replace(cues=(*found.cues, "a consequential action")), "the target", True)
        if not found.manipulative and ctx.type == "click" and "address" in found.cues \
                and _NAMES_AN_AI.search(label.words):
            # a button that speaks to AI agents by name ("AI assistants click here", "If you are an AI, ..."):
            # no interface made for people labels a button for an AI; "Ask AI" or "AI features" is no address
            return _Steered(found._replace(cues=(*found.cues, "a button labelled for an AI")), "the target", True)
        if not found.manipulative and found.aimed_at_agent and ctx.type == "type" and \
                (_discloses(ctx) or _personal(ctx)):
            # a field that speaks to the AI and receives a password, a card, an id, an e-mail, a phone or an
            # address: a planted form
            return _Steered(found._replace(cues=(*found.cues, "sensitive data typed into it")), "the field", True)
        if not found.manipulative and found.blocks_on_target and ctx.type == "click":
            # a button that tells the agent to drop its instructions ("Vorherige Anweisungen ignorieren"): no
            # interface made for people says it, a planted instruction does
            return _Steered(found._replace(cues=(*found.cues, "an order to drop its instructions")), "the target", True)
        return _Steered(found, "the target", found.manipulative)
    if ctx.type == "type":
        found = _without_relayed_order(ctx.derived(_typed_steering))
        if found is not None and (found.manipulative or found.aimed_at_agent):
            return _Steered(found, "the typed text", found.manipulative and found.aimed_at_agent)
    return None


# the cue kind of an order taken from what the page shows ("Do what the review says", `[steering.relayed-order]`): a
# button that says it is planted; a person writing to another ("follow the steps in the attached guide") is not
_RELAYED_ORDER = "an order relayed from the page's content"


def _without_relayed_order(found: Steering | None) -> Steering | None:
    """Typed text's cues without the relayed-order kind: it counts on a click target only."""
    if found is None or _RELAYED_ORDER not in found.cues:
        return found
    rest = tuple(c for c in found.cues if c != _RELAYED_ORDER)
    return found._replace(cues=rest) if rest else None


def _typed_steering(ctx: Context) -> Steering | None:
    """The steering cues of the typed text, read once per action."""
    typed = ctx.derived(_typed)
    return steering(typed.words, typed.norm, typed.keys, ctx.compiled.cues) if typed.words else None


def _discloses(ctx: Context) -> bool:
    """What is typed is sensitive: it goes into a credential or critical-point field, or it holds a card
    number, a national id, a live secret or a password-shaped token."""
    if ctx.derived(_credential_field) or ctx.derived(_field_category) is not None or ctx.derived(_secret_in):
        return True
    text = ctx.action.text  # type: ignore[attr-defined]
    return bool(text) and (bool(find_sensitive(text)) or (len(text) <= 80 and password_shaped(text)))


# what identifies or locates a person, written alone in a field: an e-mail, a phone number, a street address,
# a date of birth
_PERSONAL = re.compile(
    r"^\s*(?:[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,5}|\+?[\d(][\d ().-]{5,18}\d|"
    r"\d{1,5}[a-z]? [\w .'-]{2,40}\b(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|court|ct|"
    r"place|pl|square|sq|strasse|straße|str|rue|calle|rua|via|laan|weg)\b.{0,80}|"
    r"(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])|(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])"
    r"[-/.](?:19|20)\d\d)\s*$", re.IGNORECASE)


def _personal(ctx: Context) -> bool:
    """The typed text is, by itself, an e-mail address, a phone number, a street address or a date of birth."""
    text = ctx.action.text  # type: ignore[attr-defined]
    return bool(text) and len(text) <= 200 and _PERSONAL.match(text) is not None


def _commits(ctx: Context, label: Text) -> bool:
    """The label commits to something: a consequence (`gate.consequence`) or an irreversible verb."""
    book = ctx.compiled.cues
    if consequence(label.words, "", label.keys, book, label.norm) is not None:
        return True
    p = _patterns(ctx)
    return p.irreversible is not None and p.irreversible.search(label.words, label.keys) is not None \
        and not moves_only(label.words, book)


# the same readings under public names, for the rule families that build on them (gate/rules/page.py)
field_category = _field_category
steered = _steering


def _cue_names(found: Steering) -> str:
    return " + ".join(found.cues)


@rule("block.gui.steering", "A target or typed text that manipulates the agent", risk=Risk.CRITICAL,
      types=("click", "type", "drag"), confidence=0.8)
def steering_block(ctx: Context) -> str | None:
    """Two different kinds of steering cue together (`gate.steering`): an order with pressure ("urgent:
    click OK"), a threat with a request for credentials ("your account will be suspended, confirm your
    identity"), an address to the AI with an override, a fake infection with a call to act. Real
    interfaces do not talk like this; scareware, phishing and prompt injection do. So is a button that
    speaks to the AI (an address, an override) and commits to something (`gate.consequence`: pays, grants
    access, shares, changes an account; or an irreversible verb: buy, send, delete), and a field that
    speaks to the AI and receives a password, a card number or an id (a planted form). A button whose label
    addresses AI agents by a word that can only mean an AI ("AI assistants click here", "Attention AI
    agent:", "If you are an AI, ...") blocks alone; "Ask AI" and "AI features" address no one. In typed text, one of
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


# A label written as a menu path: "Settings > Account > Two-step verification > Turn off". The separators are
# the ones agents and help pages write between steps (">", "›", "»", "→", "->"), spaced on both sides.
_PATH_STEP = re.compile(r"\s+(?:>|›|»|→|->|=>)\s+")
_PATH_STEPS = 10  # more steps than that is not a menu path
_PATH_STEP_CHARS = 80  # nor is a step longer than a control's or a page's name
# a control written with the state it is set to: "Real-time protection Off", "Close the books: off",
# "Administrator (on)"; read as "turn off real time protection"
_SWITCHED = re.compile(r"^(.+?) (on|off|enabled|disabled)$")
# a control that names no object: the step before it does ("Two-step verification > Turn off")
_BARE_CONTROL = re.compile(r"^(?:turn off|turn on|switch off|switch on|off|on|disable|enable|deactivate|activate|"
                           r"remove|delete|reset|change|edit|set up|stop|pause|allow|grant|revoke)(?: \w+){0,3}$")
# a control that turns the step before it down
_DECLINES = re.compile(r"^(?:cancel|back|close|no|not now|dismiss|keep|skip|never|later|go back|done)\b")
_SLUG = re.compile(r"[^a-z0-9]+")
# a saved reply or template chosen by its name ("Macros > Apply 'Password reset instructions'"): the name in quotes
# is the template's title, not what the click does; applying one only fills in a reply that is still to be sent
_NAMED_TEMPLATE = re.compile(r"^(apply|insert|use|select|choose|preview|open)\s+['\"‘“«][^'\"’”»]{1,70}['\"’”»]$",
                             re.IGNORECASE)
# a member invited into the person's own family group (Family Sharing, a family plan): the household's shared
# purchases and storage, not a workspace's or an organisation's rights
_FAMILY_INVITE = re.compile(r"\bfamily (?:sharing|group|plan|library|circle|hub|account)\b.{0,40}\b(?:invite|add)\b|"
                            r"\b(?:invite|add) (?:a |new |another )?(?:family members?|"
                            r"(?:\w+ )?to (?:my |your |the )?family(?: group| sharing| plan)?)\b")


@dataclass(frozen=True, slots=True)
class MenuPath:
    """A label read as a path: `control` the last step's word form, `readings` what clicking it means in
    words (the control with its state or its object from the steps before), `page` an address standing for
    the steps before it (`settings:/settings/apps/device-admin-apps`) where the action names none."""

    control: str
    readings: tuple[str, ...]
    page: str
    last_step: str  # the step before the control: the menu it sits in, or the question it answers


def menu_path(ctx: Context) -> MenuPath | None:
    """The clicked label as a menu path (`A > B > C > Control`), or None for an ordinary label. The last step
    is the control; the steps before are the page it is on, as a window title or an address would say. Once
    per action."""
    target = ctx.action.target
    raw = target.label if target is not None else ""
    if not raw or (">" not in raw and not any(c in raw for c in "›»→")):
        return None
    steps = [s.strip() for s in _PATH_STEP.split(raw.strip())]
    if not 2 <= len(steps) <= _PATH_STEPS or any(not s or len(s) > _PATH_STEP_CHARS for s in steps):
        return None
    if (named := _NAMED_TEMPLATE.match(steps[-1])) is not None:
        steps[-1] = named.group(1)  # "Apply 'Password reset instructions'": the verb, not the template's title
    words = [_text(s).words.split("\n", 1)[0].strip() for s in steps]
    control, pages = words[-1], [w for w in words[:-1] if w]
    if not control:
        return None
    readings = [control]
    switched = _SWITCHED.match(control)
    if switched is not None:
        state = "off" if switched.group(2) in ("off", "disabled") else "on"
        readings.append(f"turn {state} {switched.group(1)}")
    if _BARE_CONTROL.match(control):
        readings.extend(f"{control} {page}" for page in reversed(pages[-3:]))
    elif pages and not _DECLINES.match(control):
        readings.append(f"{pages[-1]} {control}")  # "Add administrator > Super Administrator": the choice the step asks
        if _BARE_CONFIRM.match(control) or _BARE_YES.match(control):
            readings.append(pages[-1])  # "Permanently delete > Yes": the question answered
    page = "settings:/" + "/".join(_SLUG.sub("-", w).strip("-") for w in pages)
    return MenuPath(control, tuple(readings), page, pages[-1] if pages else "")


# an application's access taken back on the page that lists the apps signed in to the account: less exposure
_REVOKE_APP = re.compile(r"^(?:revoke|remove|disconnect|unlink|deauthori[sz]e|disable)(?: the| this| app s| its)?"
                         r"(?: app| application)?(?: access| connection| permissions?)?$")
_APPS_PAGE = re.compile(r"connected[ _/-]?(?:apps|applications|accounts|services)|apps?[ _/-]?with[ _/-]?access|"
                        r"third[ _/-]?party[ _/-]?(?:apps|applications|access|connections)|authori[sz]ed[ _/-]?"
                        r"(?:apps|applications|oauth)|/settings/(?:applications|apps|connections|installations)\b|"
                        r"(?:^|/)(?:oauth[ _/-]?apps|app[ _-]?permissions)\b", re.IGNORECASE)


def revokes_app_access(ctx: Context) -> bool:
    """The click takes an application's access back ("Revoke access", "Disconnect", "Connected apps > Remove
    access") on the page that lists the apps signed in to the account: the exposure ends, nothing is granted."""
    label = ctx.derived(label_text)
    if not label.words:
        return False
    path = ctx.derived(menu_path)
    control = path.control if path is not None else label.words.split("\n", 1)[0].strip()
    if _REVOKE_APP.match(control) is None:
        return False
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    return _APPS_PAGE.search(url) is not None or (path is not None and _APPS_PAGE.search(path.page) is not None)


def family_invite(ctx: Context) -> bool:
    """The click invites or adds a member to the person's own family group ("Family Sharing > Invite member",
    "Add family member"): a household's shared purchases and storage, not rights over a workspace."""
    label = ctx.derived(label_text)
    return bool(label.words) and "famil" in label.words and _FAMILY_INVITE.search(label.words) is not None


# the person's own errands that a click's words make look like commitments: a delivery or collection slot booked
# (changed or cancelled on the same page until the cut-off), money moved between the person's own accounts or
# added from their own linked account, the form of a recurring transfer opened, contacts exported from the
# person's own mailing tool to a file
_SLOT = re.compile(r"^(?:book|reserve|choose|select|confirm|pick|hold|secure|change)(?: (?:a|the|this|your|my))?"
                   r"(?: \w+){0,2}? (?:slot|time ?slot|(?:delivery|collection|pickup|pick up|curbside|"
                   r"click and collect|click collect) (?:window|time|date))(?: \w+){0,5}$")
# a restaurant table reserved on a booking site, with no price on the button
_TABLE_BOOKING = re.compile(r"^(?:complete|confirm|make|book|finish|reserve)(?: (?:the|my|this|your|a))? "
                            r"(?:reservation|table|booking)(?: for \d+)?(?: (?:now|today|tonight))?$")
_TABLE_SITES = frozenset({"opentable", "resy", "thefork", "sevenrooms", "quandoo", "bookatable", "tablecheck",
                          "yelp", "eatapp", "tablein", "dineplan"})
_OWN_ACCOUNTS = re.compile(
    r"\bbetween (?:my |your |our )?(?:own )?(?:accounts|pots|savings and checking|checking and savings)\b|"
    r"^(?:(?:set up|setup|schedule|create|start)(?: a| an| new)* )?"
    r"(?:recurring |scheduled |automatic |monthly |weekly )?"
    r"(?:transfer|move|send|add|save)(?: \d[\d ]*)?(?: (?:money|funds|cash))?(?: (?:monthly|weekly|daily|fortnightly|"
    r"every (?:week|month|payday|friday)|each (?:week|month)))? (?:from (?:my|your) (?:checking|chequing|"
    r"current|savings|everyday|main)(?: account)? )?(?:to|into) (?:my |your )(?:own )?(?:savings|checking|chequing|"
    r"current|isa|everyday|money market|pot|vault|space|goal|rainy day)(?: (?:account|pot|space|goal))?$|"
    r"^(?:(?:set up|setup|schedule|create|start)(?: a| an| new)* )?"
    r"(?:recurring |scheduled |automatic |monthly |weekly )?"
    r"(?:transfer|move|save)(?: \d[\d ]*)?(?: (?:monthly|weekly|every (?:week|month|payday)))? (?:to|into) "
    r"(?:savings|my savings|your savings|isa|rainy day fund|emergency fund)(?: account)?$")
_NOT_OWN = re.compile(r"\b(?:safe|secure|secured|protected|protection|holding|new|temporary|quarantine|fraud|"
                      r"verification|verified|escrow)\b")
# (a bank's "transfer" moves money between the person's own accounts; a recurring "payment" or a standing order
# goes to a payee and still asks)
_SET_UP_FORM = re.compile(r"^(?:set up|setup|create|new|add)(?: a| an| new)* (?:recurring|scheduled|automatic|"
                          r"automated|repeating|regular|future dated)? ?(?:transfers?|savings plan)$")
_ADD_FROM_OWN = re.compile(r"^(?:add|top up|load|transfer in|move in|deposit|fund)(?: (?:money|funds|cash|balance))?"
                           r"(?: \d[\d ]*)?(?: \w+)? from (?:my |your |a |the )?(?:linked|own|connected|external|"
                           r"verified) (?:bank )?(?:account|card|bank)s?$")
_EXPORT_CONTACTS = re.compile(r"^(?:export|download)(?: all| selected)?(?: \d[\d ]*)? (?:contacts|subscribers|audience|"
                              r"leads|list members|members list|contact list|mailing list)(?: \d[\d ]*)?"
                              r"(?: (?:to|as) (?:a )?(?:csv|excel|xlsx|vcf|vcard|file|spreadsheet))?$")
_CONTACTS_PAGE = re.compile(r"/(?:contacts?|audience|audiences|subscribers|lists|people|crm|leads)(?:/|$|\?|#|\.)",
                            re.IGNORECASE)


def _own_errand(ctx: Context, first: str) -> bool:
    """The label's first line is one of the person's own errands that only look like a commitment: a delivery or
    collection slot booked, money moved between the person's own accounts or added from their own linked account,
    a recurring transfer's form opened, contacts exported to a file on the mailing tool's contacts page, a table
    reserved on a restaurant's booking site."""
    if len(first) > 160:
        return False
    if _SLOT.match(first) is not None:
        return True
    if _TABLE_BOOKING.match(first) is not None and _PRICE_SIGN.search(ctx.derived(label_text).norm[:240]) is None \
            and site_label(ctx.derived(_page_host) or "x") in _TABLE_SITES:
        return True  # "Complete reservation" on a restaurant's booking site: a table held, cancelled in a click
    if _OWN_ACCOUNTS.search(first) is not None and _NOT_OWN.search(first) is None and \
            not any(q in ctx.derived(label_text).raw for q in "'\"‘“«"):
        return True
    if _SET_UP_FORM.match(first) is not None or _ADD_FROM_OWN.match(first) is not None:
        return True
    return _EXPORT_CONTACTS.match(first) is not None and \
        _CONTACTS_PAGE.search(getattr(ctx.action, "url", None) or ctx.observation.url or "") is not None


def _office_window(ctx: Context) -> str:
    """The title of the desktop window the click is in, when no web page is: the observed title, or a page
    address that is a title and not an address ("report.docx - Word"); with no title, the program's name
    ("LibreOffice Writer"), which says as much."""
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    if "://" in url[:64] or url.startswith(("about:", "chrome:", "edge:", "file:")):
        return ""
    return url or ctx.observation.window_title or ctx.observation.app


def label_consequence(ctx: Context) -> Consequence | None:
    """What the clicked label commits to (`gate.consequence`), read with the page it is on: once per action,
    for every rule that asks what a button does. A menu path (`menu_path`) is read as its last step on the
    page the steps before it name: each reading of the control, the first that commits. An access change that
    only invites into the person's own family group (`family_invite`) or takes an app's access back on the apps
    page (`revokes_app_access`) grants nothing."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    found = _label_consequence(ctx, label)
    if found is not None and found.kind == _ACCESS and (family_invite(ctx) or revokes_app_access(ctx)):
        return None  # "Family Sharing > Invite member", "Connected apps > Revoke access": nothing is granted
    return found


_ACCESS = "permissions and access"


def _label_consequence(ctx: Context, label: Text) -> Consequence | None:
    url = getattr(ctx.action, "url", None) or ctx.observation.url
    path = ctx.derived(menu_path)
    if path is not None:
        if system_update(path.control, url or path.page, ctx.compiled.cues):
            return None  # "Software Updater > Install Now": the system's own updates, whatever the steps say
        for reading in path.readings:
            found = consequence(reading, url or path.page, None, ctx.compiled.cues)
            if found is not None:
                return found
        return None
    found = consequence(label.words, url, label.keys, ctx.compiled.cues, label.norm)
    if found is not None and found.kind == "installing or running software" and not url and _os_updater(ctx, label):
        return None  # "Install all" in Windows Update: the system's own signed updates
    if found is None and not url and (verb := _vault_reveal(ctx, label)) is not None:
        return Consequence("revealing or exporting saved passwords", Risk.HIGH, verb)
    return found


@book_table
def _passwords_verb(book: CueBook) -> re.Pattern[str] | None:
    """The cue book's answers that reveal, copy, type or export a stored password (`passwords_verb` of [parts]),
    compiled once per book."""
    verb = book.parts.get("passwords_verb")
    return re.compile(verb) if verb else None


def _vault_reveal(ctx: Context, label: Text) -> str | None:
    """The click's label, when it is a bare "Copy", "Show", "Copy TOTP" or "Auto-Type" (`passwords_verb` of
    resources/cues.toml) in a password manager's own window (`[context.vault-window]`, read on the title and the
    program where no page is open): it puts a stored password on the screen, the clipboard or another window."""
    first = label.words.split("\n", 1)[0].strip()
    verb = _passwords_verb(ctx.compiled.cues)
    if verb is None or verb.match(first) is None or not in_vault_window(ctx):
        return None
    return first


def in_vault_window(ctx: Context) -> bool:
    """The window is a password manager's own (`[context.vault-window]` of resources/cues.toml, on its title and
    its program)."""
    window = ctx.compiled.cues.context.get("vault-window")
    obs = ctx.observation
    if window is None or not (obs.window_title or obs.app):
        return False
    return window.search(f"{_text(obs.window_title[:160]).words} {_text(obs.app[:60]).words}".strip()) is not None


@book_table
def _updater_verb(book: CueBook) -> re.Pattern[str] | None:
    """The cue book's updater answers (`updater_verb` of [parts]), compiled once per book."""
    verb = book.parts.get("updater_verb")
    return re.compile(verb) if verb else None


def _os_updater(ctx: Context, label: Text) -> bool:
    """The click is an updater's answer (`updater_verb` of resources/cues.toml) in the operating system's own
    updater window (`[context.os-updater-window]`, read on the title and the program where no page is open)."""
    window = ctx.compiled.cues.context.get("os-updater-window")
    verb = _updater_verb(ctx.compiled.cues)
    obs = ctx.observation
    if window is None or verb is None or not obs.window_title:
        return False
    first = label.words.split("\n", 1)[0].strip()
    if verb.match(first) is None:
        return False
    title = _text(obs.window_title[:120]).words
    return window.search(f"{title} {_text(obs.app[:60]).words}".strip()) is not None or window.search(title) is not None


@rule("confirm.gui.consequential", "A button that spends money or changes an account, access or visibility",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def consequential(ctx: Context) -> tuple[str, Risk] | None:
    """The clicked label commits to something by its meaning (`gate.consequence`): paying, subscribing,
    upgrading or starting a trial, transferring or withdrawing money, saving a card; changing an
    account's e-mail, password, phone or second factor; authorising an application or granting access,
    inviting users, changing roles, transferring ownership; publishing or sharing publicly; cancelling or
    closing a service; bulk changes to selected records; unlocking a door, opening a garage, disarming an
    alarm or turning off a camera (a bare "Unlock" on a lock's own page too); shutting down, restarting or
    powering off a server, a cluster, a mainframe or a service; sharing, exporting or downloading a person's
    genetic, health or financial records. Done right after steering aimed at the agent that asked for it,
    it is `block.gui.steered-follow-up`. A bare "Yes", "OK" or "Continue" means what its dialog's title asks
    when that grants administrator rights or access ("User Account Control", "Allow access to all
    files?"), a bare "Continue" or "Next" only when the title asks it ("New API key" is a form whose next page
    follows); a bare switch means what its page is for (`_page_switch`: "Restore" on a site's backups page,
    "Admin User" on a site's administration of a user, a second factor's switch or "Require two-factor
    authentication" on a security page; "Update status", a status value ("Payment accepted", "Refunded") or a bare
    "Add" on an order in a shop's back office; "Upload everything" on a migration page; "Data scrubber" on a
    privacy settings page);
    a plain "Yes" or "OK" means the change its dialog's title names when that is not money ("Turn off
    the firewall?", "Delete all recordings?", "Make this folder public?"). Moving around (navigation, search, "Add
    to cart", "Remove from cart", "Cancel", a checkout's bare "Continue", "Next", "Change" or "Edit") does not, nor
    does a button that opens a form or a menu ("Invite people" on a staff page, whose form's own button asks; "Bulk
    actions"). A bare switch or answer on the system's own settings pages, a browser's downloads page or its
    password manager means what that page is for; so does a "Sign up" on the sign-up form. A review command in a
    desktop office program's window ("Accept all changes" in "minutes.docx - Word") is an edit of the open file. The
    person's own study set, deck or playlist made public (`own_content_public` of resources/cues.toml) is what the
    site is for; a repository, a folder or an album made public still asks. The person's own errands (`_own_errand`:
    money between their own accounts or added from their own linked account, a recurring transfer's form opened,
    contacts exported to a file on their mailing tool's contacts page) do not ask; money to a "safe" or "new"
    account of their own still does. A go-ahead on a coding agent's prompt to run the command or the tool it names
    ("Allow once" under "Allow Claude to run `pytest`?", "wants to use list_issues") is judged as that command or
    tool (`gate/rules/agent_prompts.py`), not as a grant."""
    label = ctx.derived(label_text)
    if not label.words or ctx.derived(approval_command) is not None or ctx.derived(approval_tool) is not None:
        return None  # an agent's "Allow"/"Approve" of a command or a tool it shows: judged by what runs (agent_prompts)
    found = ctx.derived(label_consequence)
    first = label.words.split("\n", 1)[0].strip()
    if key_shown_dismissed(ctx, first):
        return None  # "Done" under "Copy and save this API key": the key was made at its own button, which asked
    if found is None and not (getattr(ctx.action, "url", None) or ctx.observation.url) and _os_updater(ctx, label):
        return None  # "Install now" in the system's Software Updater: not an installer's step, the vendor's updates
    if found is None and (switched := _page_switch(ctx, first)) is not None:
        return f"{switched}: {_short(label.raw)!r}", Risk.HIGH
    if found is None and ctx.observation.window_title and (
            _BARE_YES.match(first) or _BARE_CONFIRM.match(first) or _echoes_title(ctx, first)) and \
            not _next_step(ctx, first):
        # "Yes" in a dialog titled "User Account Control" or "Allow access to all files?": the title says
        # what the answer grants; a plain "Yes" or "OK" in one titled "Turn off the firewall?" or "Delete
        # all recordings?" is that change ("Continue" there may only be a step towards it), and so is the
        # title's own verb given back ("Enable" in "Enable macros?", "Turn off" in "Turn off the firewall?")
        title = _text(ctx.observation.window_title[:256])
        asked = consequence(title.words, "", title.keys, ctx.compiled.cues)
        if asked is not None and (asked.kind in _GRANTING or (asked.kind in _ANSWERED_CHANGES and (
                _BARE_CONFIRM.match(first) or _echoes_title(ctx, first))) or (
                # "OK" to "Confirm payment of $45.00?": the payment itself, asked as a question to confirm
                asked.kind == "money" and _BARE_CONFIRM.match(first)
                and _ASKS_TO_CONFIRM.search(ctx.observation.window_title[:256]))):
            return f"{asked.kind}: {_short(label.raw)!r} in {_short(ctx.observation.window_title, 50)!r}", asked.risk
        if asked is None and _BARE_CONFIRM.match(first) and _ASKS_TO_CONFIRM.search(ctx.observation.window_title[:256]):
            # "Yes" to "Are you sure you want to delete this repository?": the question's own irreversible verb
            p = _patterns(ctx)
            if p.irreversible is not None and p.irreversible.search(title.words, title.keys) is not None \
                    and not moves_only(title.words, ctx.compiled.cues):
                return (f"irreversible: {_short(label.raw)!r} to {_short(ctx.observation.window_title, 50)!r}",
                        Risk.MEDIUM)
    if found is None or _opens_invite_form(ctx, first):
        return None  # nothing committed, or "Invite people" on a staff page: it opens the invitation form
    if _opens_key_form(ctx, first):
        return None  # "Add new token" on the tokens page: it opens the form whose own button makes the token
    if office_edit(label.words, _office_window(ctx), ctx.compiled.cues):
        return None  # "Accept all changes" in a desktop word processor's window: an edit of the open document
    if _CONNECT_WALLET.match(first) and _official_wallet_app(ctx):
        return None  # "Connect wallet" on the protocol's own app: what its owner came there to do
    if _everyday_submit(ctx, first):
        return None  # a forum's "Post" on its submit form, a booking link's "Confirm": the person's own errand
    if _own_errand(ctx, first):
        return None  # "Top up from my bank account", "Schedule a monthly transfer to savings": the person's own money
    if found.kind == "publishing or sharing publicly" and _scam_parts(ctx.compiled.cues).own_public.match(first):
        return None  # "Make set public" on a flash-card site: the person's own study set, written to be shared
    return f"{found.kind}: {_short(label.raw)!r}", found.risk


# the pages whose bare switch or answer means what the page is for (`[context.<page>]` and `[context.<page>-verb]`
# of resources/cues.toml, or the verb table named third), what it then does, and what the page is read from: its
# address and title ("page"), its title alone ("title"), or a desktop window's title and program ("window")
_PAGE_SWITCHES = (("backups-page", "", "repository or site administration (a backup restored over the site)", "page"),
                  ("admin-users-page", "", "repository or site administration (a user made an administrator)", "page"),
                  ("admin-users-page", "account-lock-verb",
                   "permissions and access (a user's account locked, unlocked or switched off by an administrator)",
                   "page"),
                  ("account-security-page", "",
                   "account security (a second factor or a sign-in method switched)", "page"),
                  ("order-admin-page", "", "money (an order's status or its money changed in the shop's back office)",
                   "page"),
                  ("order-record-page", "", "money (an order's status or its money changed in the shop's back office)",
                   "page"),
                  ("order-list-page", "order-cancel-verb", "money (an order cancelled in the shop's back office)",
                   "page"),
                  ("members-page", "role-grant-verb", "permissions and access (a member given a role over everything)",
                   "page"),
                  ("settings-title", "settings-commit-verb",
                   "what this page is for (signing in, payments, roles or keys): its change saved", "title"),
                  ("migration-page", "", "data leaving (the whole instance copied to another service)", "page"),
                  ("privacy-settings-page", "", "data retention or privacy (what the site keeps of people switched)",
                   "page"),
                  ("installer-window", "installer-verb",
                   "installing or running software (an installer's step that installs or restarts the machine)",
                   "window"),
                  ("macro-window", "macro-verb",
                   "installing or running software (a macro or script run from an office suite's dialog)", "window"))


def _page_switch(ctx: Context, first: str) -> str | None:
    """What a bare switch or answer does on the page it is on: "Restore" on a site's backups page puts a backup over
    the live site; "Admin User" or "Is site admin" on a site's administration of a user raises that user, and
    "Locked out" or "Active" there locks them out or lets them in; a second factor's switch ("Two-factor
    authentication via e-mail") on an account's security page changes how the account is kept; "Admin" or "Storage
    Admin" picked on a members or permissions page grants that role; a plain "Save" under a title that names
    sign-in methods, payment methods, roles or API keys saves that change; "OK" or "Close and restart" in an
    installer's window installs or restarts. The page is read from its address and the window's title (an
    installer from its window's title and program, on no web page). A "Cancel" that answers a dialog's question
    only turns it down."""
    if not first or len(first) > 80:
        return None
    book = ctx.compiled.cues.context
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    places: dict[str, str] = {}
    for page, verb_name, kind, reads in _PAGE_SWITCHES:
        verb, where = book.get(verb_name or f"{page}-verb"), book.get(page)
        if verb is None or where is None or verb.search(first) is None:
            continue
        if reads == "window" and url.startswith(("http:", "https:")):
            continue  # an installer is a program's window; "OK" on a web page titled "Setup" is that page's
        if _DECLINES.match(first) and _ASKS_TO_CONFIRM.search(obs.window_title[:256]):
            continue  # "Cancel" in a dialog that asks "Are you sure?": the question turned down
        if reads not in places:
            raw = {"page": f"{url[:256]} {obs.window_title[:256]}", "title": obs.window_title[:256],
                   "window": f"{obs.window_title[:256]} {obs.app[:128]}"}[reads]
            places[reads] = _text(raw).words if raw.strip() else ""
        if places[reads] and where.search(places[reads]) is not None:
            return kind
    return None


# a bare step forward: it answers a dialog's question ("Allow access to all files?", a User Account Control prompt)
# and is otherwise the next page of a form ("Continue" in "New API key - Admin": the key is made on a later step)
_STEP_ON = re.compile(r"^(?:continue|proceed|next)$")


def _next_step(ctx: Context, first: str) -> bool:
    title = ctx.observation.window_title[:256]
    return _STEP_ON.match(first) is not None and not _ASKS_TO_CONFIRM.search(title) and \
        _ELEVATION_TITLE.search(title) is None


_ELEVATION_TITLE = re.compile(r"\b(?:user account control|benutzerkontensteuerung|contrôle de compte d utilisateur|"
                              r"control de cuentas de usuario|controllo dell account utente|"
                              r"controle de conta de usu[aá]rio|gebruikersaccountbeheer|authentication required|"
                              r"authenticate|administrator|admin rights|sudo|polkit|elevat\w+|"
                              r"wants? to (?:make changes|install|access|control|modify)|"
                              r"make changes to (?:your|this) (?:device|computer|pc|mac|system))\b", re.IGNORECASE)


# a plain wallet connection: it shares the wallet's address, and signs and approves nothing yet
_CONNECT_WALLET = re.compile(r"^connect(?: (?:your |a |my )?(?:crypto )?wallet| metamask| with "
                             r"(?:metamask|walletconnect|phantom|coinbase wallet|rainbow))?$")


# a bare answer to a dialog, and the kinds of dialog whose "Yes" grants rights or access
# a dialog's title that asks to confirm: a question, or "Are you sure ...", "Confirm ..." without the mark
_ASKS_TO_CONFIRM = re.compile(r"\?\s*$|^\s*(?:are you sure|do you (?:really )?want|confirm\b|really\b)", re.IGNORECASE)
_ECHO_WORDS = 3  # an answer that gives back its dialog's verb is a word or three ("Enable", "Turn off")


def _echoes_title(ctx: Context, first: str) -> bool:
    """The label is the first words of its window's title, the title's question answered by its own verb:
    "Enable" in "Enable macros?", "Turn off" in "Turn off real-time protection?"."""
    if not first or first.count(" ") >= _ECHO_WORDS:
        return False
    title = ctx.derived(_title_words)
    return title.startswith(first + " ")


def _title_words(ctx: Context) -> str:
    raw = ctx.observation.window_title
    return _text(raw[:256]).words.split("\n", 1)[0].strip() if raw else ""


_BARE_YES = re.compile(either_spelling(
    r"^(?:yes|ok|okay|continue|allow|confirm|proceed|accept|agree|authenticate|unlock|sure|"
                       r"yes continue|ja|oui|sí|si|sim|да|是|はい|확인|예)$"))
_GRANTING = frozenset({"administrator rights or a standing permission", "permissions and access"})
# the kinds of change a dialog's title can name for its plain "Yes": not money (a checkout window's title names a
# payment its "Continue" only leads to) and not navigation
_ANSWERED_CHANGES = frozenset({
    "turning off an account's protection", "turning off a device's or browser's protection", "account security",
    "data retention or privacy", "cancellation or closing", "data leaving (export or share)",
    "publishing or sharing publicly", "overriding a security warning", "installing or running software",
    "shutting down or restarting a server, system or service", "bulk change",
    "unlocking, opening or disarming something in the physical world",
    "sharing or exporting a person's genetic, health or financial data",
})
# a plain yes that answers the question it is asked, with no step after it
_BARE_CONFIRM = re.compile(either_spelling(r"^(?:yes|ok|okay|confirm|sure|yes i m sure|yes i am sure|yes confirm|"
                           r"ja|oui|sí|si|sim|да|是|はい|확인|예)$"))


# who a scam says money should go to: the bank's own fraud or security team, a "safe" account or a company's tech
# support. No bank or support desk takes a payment to protect an account
_IMPOSTOR_PAYEE = re.compile(
    r"\bto (?:the |a |my |your |our |an )?(?:(?:bank s? |banks |account |fraud |anti fraud |security |fraud prevention "
    r"|account protection |protection )(?:security |fraud |protection |safety |prevention |verification |"
    r"investigation )?(?:dept|department|team|desk|unit|officer|agent|division|center|centre)|"
    r"(?:safe|secure|protected|holding|safety|temporary protected) account|tech(?:nical)? support|"
    r"(?:microsoft|apple|amazon|windows|geek squad|norton|mcafee|paypal|bank) (?:support|security|refunds?))\b"
    # a payee named for undoing a fraud or paying a refund out ("TD Fraud Reversal", "Refund Dept", "Revenue
    # Refund"): a bank reverses a fraud on its own books, and no refund is collected by paying
    r"|\bto (?:the |a |my |your |our )?(?:\w+ ){0,3}?(?:fraud|anti fraud|chargeback|dispute|scam) "
    r"(?:reversals?|refunds?|recovery|reimbursements?|claims?|returns?|resolution)\b"
    r"|\bto (?:the |a )?(?:\w+ ){0,3}?(?:refunds?|reversals?|recovery|reimbursement) "
    r"(?:dept|department|team|desk|unit|center|centre|agent|officer|holding|account|wallet)\b"
    r"|\bto (?:the )?(?:\w+ ){0,3}?(?:revenue|tax|irs|hmrc|cra|ato|customs|government) (?:refunds?|rebates?|"
    r"reimbursements?)\b")
# a click that moves money: paying or transferring, or sending an amount, cash or a payment app's transfer
_PAYS = re.compile(r"^(?:pay|transfer|wire|remit|deposit)\b|^(?:send|move)\b(?:.{0,40}?)\b(?:money|funds|cash|payment|"
                   r"zelle|venmo|cash app|wire|savings|retirement savings|life savings|401 ?k|ira|pension|balance|"
                   r"bitcoin|btc|eth|usdt|usdc|crypto|\d[\d,.]*)\b")
_MONEY = "money"


@rule("block.gui.impostor-payee", "Paying a bank's fraud team, a safe account or tech support",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def impostor_payee(ctx: Context) -> str | None:
    """The click sends money (pay, transfer, wire, or send an amount, cash or a payment app's transfer) and its
    label names the payee as a bank's own fraud or security team, a "safe" or "protected" account or a company's
    tech support ("Send via Zelle to 'Bank Security Dept'", "Transfer to safe account"). Those are the
    impostors of consumer-protection warnings: no bank or support desk asks to be paid to protect an account.
    Paying a named person, a shop or a tax office only asks; a report sent to a fraud team sends no money."""
    label = ctx.derived(label_text)
    if not label.words or " to " not in label.words:
        return None
    m = _IMPOSTOR_PAYEE.search(label.words)
    if m is None:
        return None
    if _PAYS.search(label.words.split("\n", 1)[0]) is None:
        found = ctx.derived(label_consequence)
        if found is None or found.kind != _MONEY:
            return None
    return f"paying {m.group(0)[3:]!r}: a payee scams pose as ({_short(label.raw)!r})"


class _ScamParts(NamedTuple):
    payment: re.Pattern[str]
    crypto_address: re.Pattern[str]
    wallet_verb: re.Pattern[str]
    wallet_blanket: re.Pattern[str]
    wallet_official: re.Pattern[str]
    submit_page: re.Pattern[str]
    submit_verb: re.Pattern[str]
    post_verb: re.Pattern[str]
    post_page: re.Pattern[str]
    say_so: re.Pattern[str]
    order_verb: re.Pattern[str]
    order_page: re.Pattern[str]
    appointment: re.Pattern[str]
    appointment_when: re.Pattern[str]
    own_public: re.Pattern[str]
    review_verb: re.Pattern[str]
    review_page: re.Pattern[str]


@book_table
def _scam_parts(book: CueBook) -> _ScamParts:
    """The cue book's scam payments, wallet words and everyday submits (`scam_payment`, `crypto_address`,
    `wallet_*`, `everyday_submit_*`, `scam_say_so`, `order_step_*`, `appointment_*`, `own_content_public`,
    `review_*` of [parts]), compiled once per book."""
    p = book.parts
    return _ScamParts(re.compile(p["scam_payment"]), re.compile(p["crypto_address"]), re.compile(p["wallet_verb"]),
                      re.compile(p["wallet_blanket"]), re.compile(p["wallet_official"], re.IGNORECASE),
                      re.compile(p["everyday_submit_page"], re.IGNORECASE), re.compile(p["everyday_submit_verb"]),
                      re.compile(p["forum_post_verb"]), re.compile(p["forum_post_page"], re.IGNORECASE),
                      re.compile(p["scam_say_so"]), re.compile(p["order_step_verb"]),
                      re.compile(p["order_step_page"], re.IGNORECASE), re.compile(p["appointment_slot"]),
                      re.compile(p["appointment_when"]), re.compile(p["own_content_public"]),
                      re.compile(p["review_verb"]), re.compile(p["review_page"], re.IGNORECASE))


def _moves_money(ctx: Context, label: Text) -> bool:
    """The label moves money: its consequence is money, or it pays, transfers, sends or deposits an amount."""
    found = ctx.derived(label_consequence)
    if found is not None and found.kind in _MONEY_KINDS:
        return True
    first = label.words.split("\n", 1)[0]
    return _PAYS.search(first) is not None or lures.pays(first) or _SCAM_VERB.search(first) is not None


_MONEY_KINDS = frozenset({_MONEY, "moving money out", "an amount deposited, withdrawn or sent",
                          "the account, IBAN or wallet money goes to"})
# the other verbs a scam's payment step is labelled with: a check accepted or deposited, a trade, tickets handed over
_SCAM_VERB = re.compile(r"^(?:accept|deposit|cash|buy|purchase|transfer|send|give|trade|withdraw|pay|wire|refund|"
                        r"return|pagar|paga|pague|payer|bezahlen|zahlen|überweisen|transferir|transférer|virer|"
                        r"betalen|overmaken|pagare|bonifico)\b")


# a change of the account a refund, a salary, a payout or a payee is paid to, and a message that asked for it
# ("... (per email from 'preparer')"): the payment-diversion fraud of tax-season and payroll warnings (IRS, FBI IC3)
_REDIRECTS_MONEY = re.compile(r"^(?:change|update|switch|edit|replace|redirect|set|move|add)\b.{0,40}\b(?:refund|"
                              r"deposit|payroll|salary|paycheck|payout|payouts|wage|payee|bank details|bank account|"
                              r"routing|iban|remittance)\b")
_PER_MESSAGE = re.compile(r"\b(?:per|as per|according to|as requested in|as instructed in|as asked in|following|"
                          r"requested (?:in|by|via)|instructed (?:in|by|via)) (?:an? |the |their |his |her )?"
                          r"(?:e ?mail|message|letter|text|sms|call|phone call|dm|chat|note)\b(?: from\b)?")


@rule("block.gui.scam-payment", "Paying the way scams ask: gift cards, an overpayment sent back, a release fee",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def scam_payment(ctx: Context) -> str | None:
    """The click moves money (pays, transfers, sends, deposits, accepts a check or a trade) and its label names a
    method or a pretext that consumer-protection agencies give as a scam's sign (`scam_payment` of
    resources/cues.toml, and the fraud pretexts of resources/lures.toml read by `gate.lures`): paying with gift
    cards ("only scammers ask for gift cards"), buying gift cards to send their codes or several high-value cards
    at once ("5 x $500 gift cards"), an overpayment to send back,
    a check to deposit and forward, a deposit sight unseen to an owner abroad, a fee to release a parcel, a prize or
    a refund, paying a marketplace's seller outside the marketplace, a trade that gives items for nothing, or crypto
    sent to an address written out in the label; or money, points or a new payee sent on a stranger's say-so
    (`scam_say_so`): a payee named like a bank's fraud department, a "secure holding" account, a refund agent or a
    prize's fees, or a label that says a caller, a text or someone met on a forum asked for it; or where a
    refund, a salary or a payee's money goes changed because a message asked for it. Each is
    irreversible and goes to a stranger. Paying a shop, a friend by a payment app or an invoice on the biller's
    site asks (`confirm.gui.consequential`); redeeming a
    gift card or paying with a gift card's balance at the store that sold it does not block. Paying outside the
    marketplace's checkout is read in several languages ("por fuera de Mercado Pago", "außerhalb der Plattform"),
    and so is a bank transfer or a payment app paid "as the seller asked". Accepting a transfer whose sender is
    named like a tax office's or a government's refund ("accept $740 from 'IRS Tax Refund Dept'") blocks too:
    tax offices pay refunds by direct deposit or cheque, and the e-transfer is the phishing link."""
    label = ctx.derived(label_text)
    if not label.words or len(label.words) > 512:
        return None
    first = label.words.split("\n", 1)[0]
    sender = _REFUND_SENDER.search(first) if _P2P_MONEY.search(first) is not None else None
    if sender is None and _BARE_ACCEPT.match(first) is not None and ctx.observation.window_title:
        # a bare "Deposit" under a window titled "Interac e-Transfer: $500 from 'CRA Refund'"
        title = _text(ctx.observation.window_title[:256]).words
        sender = _REFUND_SENDER.search(f"accept {title}") if _P2P_MONEY.search(title) is not None else None
    if sender is not None:
        # "Accept the e-Transfer from 'HMRC Refunds'": no tax office pays by e-transfer
        return f"money accepted from a sender named like an authority's refund ({_short(sender.group(1), 40)!r}): " \
               f"{_short(label.raw)!r}"
    if not _moves_money(ctx, label):
        return None
    parts = _scam_parts(ctx.compiled.cues)
    why = None
    if (m := parts.payment.search(first)) is not None:
        why = m.group(0)
    elif (pretext := lures.scam_pretext(first)) is not None:
        why = pretext
    elif (say_so := parts.say_so.search(first)) is not None:
        why = say_so.group(0)
    elif _REDIRECTS_MONEY.search(first) is not None and (per := _PER_MESSAGE.search(first)) is not None:
        why = f"where the money goes changed {per.group(0)}"
    elif (cards := lures.gift_card_request(first) or lures.gift_cards_in_bulk(label.raw)) is not None:
        why = cards
    elif (off := lures.paid_to_their_account(first, True) or lures.off_platform(first)) is not None:
        why = f"paid {off}"
    elif (asked := lures.seller_asked(first)) is not None:
        why = f"paid the way the other side asked ({asked})"
    elif _STRANGER_PAYEE.search(first) is not None and (rail := lures.paid_off_platform(first, True)) is not None:
        why = f"a seller or a host paid by {rail}"
    elif (addr := parts.crypto_address.search(label.raw[:512])) is not None:
        why = f"crypto sent to the address {addr.group(0)[:12]}..."
    elif (payee := _gift_card_payee(ctx, first)) is not None:
        why = f"a gift card to pay {payee}"
    if why is None:
        return None
    return f"a payment the way scams ask ({_short(why, 50)!r}): {_short(label.raw)!r}"


@book_table
def _gift_card_parts(book: CueBook) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The cue book's gift card names and the authorities, bills and desks no gift card pays (`gift_card`,
    `gift_card_payee` of [parts]), compiled once per book."""
    card, payee = book.parts.get("gift_card"), book.parts.get("gift_card_payee")
    return (re.compile(card), re.compile(payee)) if card and payee else None


def _gift_card_payee(ctx: Context, first: str) -> str | None:
    """The authority, bill or desk a gift card bought by this click is for, read on the label and the window's
    title ("Buy $500 gift card" under "Gift card for 'IRS settlement'"), or None."""
    parts = _gift_card_parts(ctx.compiled.cues)
    if parts is None:
        return None
    both = f"{first} {_text(ctx.observation.window_title[:256]).words}" if ctx.observation.window_title else first
    if parts[0].search(both) is None:
        return None
    m = parts[1].search(both)
    return m.group(0) if m is not None else None


# the other side of a marketplace or a rental: paid by a rail outside its checkout, the money has no protection
_STRANGER_PAYEE = re.compile(r"\b(?:seller|sellers|vendor|host|landlord|breeder|buyer|owner|lister|advertiser)\b")
# money accepted from a sender named like an authority's or a fraud desk's refund, and the transfer it comes by
_REFUND_SENDER = re.compile(r"\b(?:accept|deposit|claim|receive|collect|get|take)\b(?: \w+){0,6}? from (?:the |a )?"
                            r"((?:\w+ ){0,3}?(?:revenue|tax|taxes|irs|hmrc|cra|ato|arc|government|gov|treasury|customs|"
                            r"service canada|social security|ssa|stimulus|rebate|rebates|fraud|security|reversal)"
                            r"(?: \w+){0,3})")
_BARE_ACCEPT = re.compile(r"^(?:accept|deposit|claim|receive|collect)(?: (?:it|now|money|funds|transfer|e ?transfer|"
                          r"payment|deposit|to account|into account|to my account))*$")
_P2P_MONEY = re.compile(r"\b(?:e ?transfer|interac|zelle|venmo|cash app|paypal|transfer|payment|money|funds|deposit|"
                        r"refund|rebate|\d+)\b")


# a secret no bank, shop or support desk ever asks a person to hand over: a card's PIN or security code, a one-time
# or verification code, a wallet's seed phrase, a private key
_NEVER_SHARED = (r"(?:card )?pin|pin code|cvv|cvc|security code|one time (?:code|password|passcode)|otp|"
                 r"verification code|2fa code|mfa code|sign ?in code|login code|authenticator code|seed phrase|"
                 r"recovery phrase|secret recovery phrase|mnemonic|private key|wallet key")
_HANDS_OVER = re.compile(
    r"^(?:share|send|give|tell|read out|read|reveal|forward|provide|disclose|hand over|text|dictate|submit)\b"
    r"(?: \w+){0,3}? (?:the |my |your |our |this |a )?(?:\w+ )?(?:" + _NEVER_SHARED + r")s?\b(?: \w+){0,2}? "
    r"(?:with|to)\b")
# an authenticator's prompt to approve a sign-in that happens somewhere else: a push, a request, a number to match
_SIGN_IN_PUSH = re.compile(
    r"^(?:approve|allow|accept|yes|yes it s me|yes it was me|it s me|it was me|confirm|verify)\b.{0,80}"
    r"\b(?:push|sign ?in (?:request|attempt)|log ?in (?:request|attempt)|sign ?in from|log ?in from|trying to sign ?in|"
    r"try(?:ing)? to (?:sign|log) ?in|did you just|are you trying|is this you|number matching|approve sign ?in)\b|"
    r"^(?:approve|allow|accept) (?:the |this )?(?:sign ?in|log ?in) (?:request|attempt|prompt)s?\b")
_AUTHENTICATOR = re.compile(r"\b(?:authenticator|okta verify|duo mobile|duo push|microsoft authenticator|"
                            r"google prompt|sign ?in request|log ?in request|push notification|sign ?in attempt|"
                            r"trying to (?:sign|log) ?in|is (?:this|it) you|did you just)\b")


@rule("block.gui.secret-handover", "Handing a card PIN, a one-time code or a seed phrase to someone",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def secret_handover(ctx: Context) -> str | None:
    """The clicked label shares, sends, tells or reads out a secret that no bank, shop, support desk or employer
    ever asks a person for ("Share card PIN with agent", "Send the verification code to support", "Give seed
    phrase to wallet support"): a card's PIN or security code, a one-time or sign-in code, a wallet's recovery
    phrase, a private key. Every bank's and wallet maker's security page says it: whoever asks for one of these
    is the fraud. Sharing a document, a photo or a password with a family member in a password manager is not
    here."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    m = _HANDS_OVER.search(label.words.split("\n", 1)[0])
    if m is None:
        return None
    return f"a secret handed over that nobody may ask for: {_short(label.raw)!r}"


@rule("block.gui.push-approval", "Approving a sign-in push or request that another device started",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def push_approval(ctx: Context) -> str | None:
    """The click approves an authenticator's push or a sign-in request ("Approve sign-in request", "Yes, it's me"
    under "Are you trying to sign in?", an Okta Verify or Duo push): it lets in whoever is signing in elsewhere
    with the password. The identity providers' guidance on push fatigue says to deny a prompt one did not start;
    an agent never starts one on another device. A bare "Approve" counts only in a window or label that names
    the authenticator or the request; "Approve" of an expense or a merge request is not here."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    words = label.words.replace("\n", " ")
    if _SIGN_IN_PUSH.search(words) is None:
        title = ctx.observation.window_title
        if not title or _BARE_APPROVE.match(words.strip()) is None or \
                _AUTHENTICATOR.search(_text(title[:256]).words) is None:
            return None
    return f"approving a sign-in that happens elsewhere: {_short(label.raw)!r}"


_BARE_APPROVE = re.compile(r"^(?:approve|allow|yes|yes it s me|it s me|accept|confirm)$")


def _host_path(ctx: Context) -> str:
    """The page's address without its scheme (host and path), lower case, bounded; "" when no page is known."""
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    if not url.startswith(("http:", "https:")):
        return ""
    return url.split("://", 1)[-1][:512].lower()


def _official_wallet_app(ctx: Context) -> bool:
    """The page is one of the largest wallets', exchanges', marketplaces' or protocols' own apps
    (`wallet_official` of resources/cues.toml)."""
    host = ctx.derived(_page_host).lower()
    return bool(host) and _scam_parts(ctx.compiled.cues).wallet_official.search(host) is not None


@rule("block.gui.wallet-off-app", "Connecting, signing or approving a wallet where no known app is, or for every token",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def wallet_off_app(ctx: Context) -> str | None:
    """The click hands a crypto wallet to a page: an approval of a whole collection or a raised allowance ("Set
    approval for all", "Increase allowance", "Unlimited approval") anywhere, or connecting, signing, approving,
    claiming or minting (`wallet_verb` of resources/cues.toml: "Connect wallet", "Sign", "Claim airdrop", "Verify
    wallet") on a page that names a claim, an airdrop or a wallet "verification" in its address and is no known
    app (`wallet_official`). Wallet makers' own safety pages say it: drainers live on sites reached from a
    message or an ad, and one signature empties the wallet. A plain "Connect wallet" on a known app
    (`app.uniswap.org`, `opensea.io`) is allowed; a signature or an approval there asks."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    parts = _scam_parts(ctx.compiled.cues)
    first = label.words.split("\n", 1)[0].strip()
    if (m := parts.wallet_blanket.search(first)) is not None and _TAKES_BACK.match(first) is None:
        return f"a wallet approval of every token or a raised allowance ({m.group(0)!r}): {_short(label.raw)!r}"
    if parts.wallet_verb.match(first) is None or _official_wallet_app(ctx):
        return None
    where = ctx.derived(_host_path)
    bait = _WALLET_BAIT.search(where) if where else None
    if bait is None:
        return None
    return f"{_short(label.raw)!r} on a page that offers a wallet {bait.group(1)!r} and is no known app"


# an approval taken back or lowered ("Revoke unlimited approval", "Set allowance to 0"): what revoke tools are for
_TAKES_BACK = re.compile(r"^(?:revoke|remove|cancel|reset|decrease|reduce|lower|disable|turn off|withdraw|undo)\b")
# what a drainer's page names itself for: a claim, an airdrop, a reward, a wallet to "verify", "sync" or "fix"
_WALLET_BAIT = re.compile(r"(?:^|[/.?&=_-])(claim|claims|airdrop|airdrops|giveaway|reward|rewards|free[_-]?mint|"
                          r"wallet[_-]?(?:verify|verification|sync|connect|validate|rectify|restore|recovery)|"
                          r"(?:verify|validate|sync|rectify|restore|migrate)[_-]?wallet|dapp[_-]?(?:fix|sync|connect)|"
                          r"revoke[_-]?approvals?)(?=$|[/.?&=_#-])")


_PRICE_SIGN = re.compile(r"[$€£¥₹]|\b(?:usd|eur|gbp|fee|price|paid|pay|deposit)\b", re.IGNORECASE)


def _everyday_submit(ctx: Context, first: str) -> bool:
    """A course site's or a scheduling page's own submit ("Submit assignment" on a course, "Confirm" on a booking
    link: `everyday_submit_*` of resources/cues.toml), a forum's own "Post" or "Reply" on its submit form or a
    thread (`forum_post_*`), an after-purchase step on the person's own order page ("Return item - drop-off",
    "Accept delivery": `order_step_*`), a review's own submit on its page (`review_*`), or an appointment booked by
    its time with no price in the label ("Book Tue 9:40 AM video visit": `appointment_*`)."""
    parts = _scam_parts(ctx.compiled.cues)
    if len(first) <= 120 and parts.appointment.match(first) is not None and \
            parts.appointment_when.search(first) is not None:
        label = ctx.derived(label_text)
        if _PRICE_SIGN.search(label.norm[:240]) is None:
            return True
    where = ctx.derived(_host_path)
    if not where:
        return False
    if parts.order_verb.match(first) is not None and \
            parts.order_page.search("/" + where.partition("/")[2]) is not None:
        return True
    if parts.review_verb.match(first) is not None and \
            parts.review_page.search("/" + where.partition("/")[2]) is not None:
        return True  # a review's own submit where it was written: its text was judged as it was typed
    if parts.submit_verb.match(first) is not None and parts.submit_page.search(where) is not None:
        return True
    # a forum's own "Post" or "Reply" on its submit form or a thread: the text was judged as it was typed
    return parts.post_verb.match(first) is not None and \
        parts.post_page.search("/" + where.partition("/")[2]) is not None


_PROTECTION_OFF = "turning off an account's protection"


# an agent's note that it answered a page's own dialog (a browser's alert, confirm or "Leave site?" prompt):
# "Accept dialog: '<its message>'", "Dismiss alert"; what is answered is the message after it
_DIALOG_ANSWER = re.compile(r"^(?:accept|dismiss|ok|confirm|answer|handle)(?: the| js| javascript| browser| page s)? "
                            r"(?:dialog|alert|prompt|confirm|confirmation|beforeunload)(?: box| dialog| prompt)?\b")
# an account's second-factor settings page, where a bare "Turn off" or "Disable" turns the second factor off
_SECOND_FACTOR_PAGE = re.compile(
    r"[/#?&=](?:two[_-]?factor|2fa|mfa|multi[_-]?factor|two[_-]?step|2[_-]?step|2sv|two[_-]?step[_-]?(?:login|verification)|"
    r"login[_-]?(?:verification|approvals)|sign[_-]?in[_-]?verification|authenticator|totp|security[_-]?keys?)"
    r"(?:[/?#&._-]|$)", re.IGNORECASE)
_SECOND_FACTOR_OFF = re.compile(r"^(?:turn off|disable|deactivate|switch off|off|turn it off|disable it)$")


_SECOND_FACTOR_TITLE = re.compile(r"\b(?:two[- ]?factor|two[- ]step|2[- ]?step|2fa|multi[- ]?factor|mfa)\b", re.I)


@rule("block.gui.protection-off", "A button that turns off an account's second factor or sign-in alerts",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def protection_off(ctx: Context) -> str | None:
    """The clicked label turns off what stops an account being taken over (`[consequence.protection-off]` of
    resources/cues.toml, in several languages): two-factor or two-step verification, sign-in or security
    alerts. It is the first step of a takeover and no errand needs it; a person can do it themselves. A menu
    path ("Settings > Two-step verification > Turn off") is read as its last step with the steps before it,
    and a bare "Turn off" or "Disable" on the account's own two-factor settings page (`/settings/two-factor`,
    `#/settings/security/two-step-login`) is that page's second factor turned off. Changing or adding a second
    factor ("Set up authenticator app") is `confirm.gui.consequential`."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    path = ctx.derived(menu_path)
    if path is not None:
        # "Settings > Account > Two-step verification > Turn off": the last step on the page the others name
        if not any(of_kind(reading, _PROTECTION_OFF, None, ctx.compiled.cues) for reading in path.readings):
            return None
    elif of_kind(label.words, _PROTECTION_OFF, label.keys, ctx.compiled.cues) is None:
        url = getattr(ctx.action, "url", None) or ctx.observation.url
        # a bare "Turn off" on the account's own two-factor settings page, or in a window titled for it
        if not (_SECOND_FACTOR_OFF.match(label.words.split("\n", 1)[0].strip()) and (
                (url and _SECOND_FACTOR_PAGE.search(url.split("://", 1)[-1][:512].partition("/")[2] or "")) or
                _SECOND_FACTOR_TITLE.search(ctx.observation.window_title[:200]))):
            return None
    return f"{_PROTECTION_OFF}: {_short(label.raw)!r}"


# a document's own request to turn its macros on, and the reason it gives the reader: "Enable macros to view the
# invoice", "Enable editing and content to see the protected document"
_ENABLE_MACROS = re.compile(r"^(?:please |click |press |you must |you need to )?enable (?:the |all |vba |active |"
                            r"document )?(?:macros?|content|editing(?: (?:and|&) (?:content|macros))?)\b")
_MACRO_LURE = re.compile(r"\bto (?:view|see|read|open|display|access|unlock|decrypt|show|load|preview|print) "
                         r"|\b(?:protected|encrypted|secured|locked) (?:document|invoice|file|content|message)\b|"
                         r"\b(?:document|invoice|file|content|message) (?:is |was )?"
                         r"(?:protected|encrypted|secured|locked)\b")


@rule("block.gui.enable-macros", "A document's request to turn on its macros so that it can be read",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def enable_macros(ctx: Context) -> str | None:
    """The clicked label turns on a document's macros or active content and gives the reason the document gave:
    to view, open or unlock what it holds ("Enable macros to view the invoice", "Enable content to see the
    protected document"). A document needs no code to be read; a picture telling its reader to enable content is
    how macro malware gets started, which is why Office blocks macros in files from the internet and says not to
    turn them on because a file asks. So is turning on the macros or the content (not only editing) of a file the
    window shows in Protected View, where Office opens files from the internet and mail attachments (Microsoft's
    own guidance: leave Protected View only for a file from a source you trust; a macro-laden invoice is not
    one). A bare "Enable Content" on the message bar of one's own workbook, or a label alone that says the file
    came from outside, still asks (`confirm.gui.consequential`)."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or (m := _ENABLE_MACROS.match(first)) is None:
        return None
    if _MACRO_LURE.search(first + " ") is not None:
        return f"a document asks for its macros to be turned on so it can be read: {_short(label.raw)!r}"
    if "editing" in m.group(0) and _ACTIVE_CONTENT.search(first) is None:
        return None  # "Enable Editing" leaves Protected View for typing; the macros stay off
    title = ctx.observation.window_title[:256].lower()
    if not title or (view := _PROTECTED_VIEW.search(title)) is None:
        return None  # a label alone saying the file is from outside asks (`confirm.gui.consequential`)
    origin = _OUTSIDE_ORIGIN.search(first)
    return f"macros turned on in a file opened in {view.group(0)!r}" + \
        (f" ({origin.group(0)!r})" if origin else "") + f": {_short(label.raw)!r}"


# what the label says turns on code: macros or active content, not the editing of the text
_ACTIVE_CONTENT = re.compile(r"\b(?:macros?|content|active content|vba)\b")
# where the file came from, as a label says it: an unknown or outside sender, a mail, a download (named in the reason)
_OUTSIDE_ORIGIN = re.compile(r"\b(?:from (?:an? )?(?:unknown|unverified|untrusted|external|outside|new|unexpected) "
                             r"(?:sender|source|contact|address|publisher)|(?:unknown|unverified|untrusted|external) "
                             r"sender|from (?:an? |the )?(?:e ?mail|email attachment|attachment|the internet|internet|"
                             r"download|web|website)|(?:e ?mail|mail) attachment|downloaded (?:from|file))\b")
# Office's read-only view for files from the internet and attachments, and its message bars
_PROTECTED_VIEW = re.compile(r"protected view|\bmark of the web\b|files from the internet can contain viruses|"
                             r"this file originated from an internet location")


# a label that tells its reader to run a command the page shows them ("Run the command shown in the description to
# unlock", "Copy and run the fix command in Terminal"), and what says it is the page's command or the page's reason
_RUN_SHOWN = re.compile(r"^(?:please |now |just )?(?:(?:copy|paste)(?: and| &| then)? )?"
                        r"(?:run|execute|paste|enter|type)(?: and run)? (?:the |this |that |our |a )?"
                        r"(?:following |shown |given |provided |below |above |fix |verification |unlock |install )?"
                        r"(?:command|commands|script|code snippet|snippet|one liner|line|powershell|terminal command|"
                        r"fix)\b")
_RUN_SHOWN_WHY = re.compile(r"\b(?:shown|below|above|displayed|provided|given|"
                            r"from the (?:video|description|comment|page|post|site|message)|"
                            r"in the (?:description|video|comments?|pinned comment|page)|"
                            r"in (?:your |the )?(?:terminal|power ?shell|cmd|command prompt|run dialog|run box|shell)|"
                            r"to (?:unlock|verify|prove|fix|continue|access|download|get|claim|activate|install|"
                            r"repair|view|see|restore))\b")


@rule("block.gui.run-shown-command", "A button telling the agent to run a command the page shows",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def run_shown_command(ctx: Context) -> str | None:
    """The clicked label tells its reader to run, paste or execute a command the page, a video's description
    or a comment shows ("Run the command shown in the description to unlock", "Copy and run the fix command in
    Terminal", "Run the command below to verify you are human"). That is the ClickFix lure: a page cannot run
    code on the visitor's machine, so it asks the visitor to. What the command does is never read on the way;
    no errand's step is a page's instruction to run its text. A console's own "Run command" or "Run the test
    suite" names no shown command and passes."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or _RUN_SHOWN.match(first) is None or _RUN_SHOWN_WHY.search(first) is None:
        return None
    return f"the page tells the reader to run a command it shows: {_short(label.raw)!r}"


# the system's own protections, by the names their settings give them
_DEVICE_PROTECTION = (r"(?:(?:windows |microsoft )?defender(?: antivirus| firewall)?|(?:windows |network |domain |"
                      r"public |private )?firewall|anti ?virus|anti ?malware|malware protection|real ?time protection|"
                      r"virus (?:and |& )?threat protection|play protect|gatekeeper|smart ?screen|"
                      r"system integrity protection|tamper protection|controlled folder access|memory integrity|"
                      r"core isolation|cloud ?delivered protection|xprotect|endpoint protection|"
                      r"(?:enhanced |standard )?safe browsing|user account control|file ?vault|bit ?locker|"
                      r"(?:disk |device |drive )encryption|audit (?:logging|logs?)|security (?:logging|auditing))")
_DEVICE_PROTECTION_OFF = re.compile(
    # "Turn off the firewall", "Pause protection for 10 minutes", a menu path's "off real time protection"
    r"^(?:turn off|disable|deactivate|switch off|pause|stop|uninstall|off) (?:the |your |all )?(?:\w+ ){0,2}"
    r"(?:" + _DEVICE_PROTECTION + r"|(?:antivirus |virus |malware |threat |device )?protection)"
    r"(?: (?:protection|service|now|temporarily|not recommended|"
    r"for (?:\w+ ){0,3}(?:networks?|minutes?|hours?|days?)))*$|"
    # "Real-time protection Off", "Windows Firewall: disabled"
    r"^" + _DEVICE_PROTECTION + r"(?: for (?:\w+ ){0,3}networks?)? (?:off|disabled)$|"
    r"^allow apps (?:downloaded )?from anywhere$|^no protection not recommended$|"
    # the antivirus told to skip a folder, a firewall opened to every address, apps from anywhere on a phone
    r"^add (?:an? )?(?:exclusion|exclusions|exception)\b.{0,80}"
    r"\b(?:folder|file|process|extension|path|drive|[a-z] users)\b|"
    r"\ballow all (?:inbound|incoming)(?: traffic| connections| ports)?\b|"
    r"^allow (?:install(?:s|ing|ation)? )?(?:of apps )?from unknown sources$")


@rule("block.gui.device-protection-off", "A button that switches off the system's antivirus, firewall or app checks",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def device_protection_off(ctx: Context) -> str | None:
    """The clicked label switches off a protection of the machine itself: the antivirus or its real-time
    protection, the firewall, Play Protect, Gatekeeper ("Allow apps from anywhere"), SmartScreen, tamper
    protection, controlled folder access, safe browsing ("No protection"), User Account Control. It is what
    `Set-MpPreference -DisableRealtimeMonitoring $true`, `netsh advfirewall set allprofiles state off` or `spctl
    --master-disable` do in a shell (`block.shell.defense-evasion`), and no errand needs it. A menu path is read
    as its last step with the steps before it. Turning one on, opening its settings or allowing one app through
    the firewall does not block (an app allowed through asks as `confirm.gui.consequential`). In Windows
    Security's own window, a switch Windows keeps on (real-time, tamper and cloud protection, sample submission,
    Defender Firewall) clicked bare blocks: the click turns it off."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    path = ctx.derived(menu_path)
    readings = path.readings if path is not None else (label.words.split("\n", 1)[0].strip(),)
    hit = next((r for r in readings if _DEVICE_PROTECTION_OFF.search(r)), None)
    if hit is None:
        first = label.words.split("\n", 1)[0].strip().replace("-", " ")
        if _DEFAULT_ON_SWITCH.match(first) and _in_security_window(ctx):
            # (on by default: the switch clicked bare turns it off)
            return f"flips a protection Windows keeps on, off: {_short(label.raw)!r}"
        return None
    return f"switches off the machine's own protection: {_short(label.raw)!r}"


# Windows Security (and Defender's, the firewall's) own windows, by their titles in several languages and the app
_SECURITY_WINDOW = re.compile(
    r"\b(?:windows security|windows defender|microsoft defender|virus (?:&|and) threat protection|"
    r"firewall (?:&|and) network protection|windows-sicherheit|viren- (?:&|und) bedrohungsschutz|sécurité windows|"
    r"seguridad de windows|sicurezza di windows|segurança do windows|windows-beveiliging|windows セキュリティ|"
    r"windows 安全中心|windows 安全性)", re.I)
_SECURITY_APP = re.compile(r"(?:^|[\\/])(?:sechealthui|securityhealthhost|windowsdefender)(?:\.exe)?$", re.I)
# the switches of those windows, bare (a toggle flips what it is set to) or with the state they show
_SECURITY_SWITCH = re.compile(
    r"^(?:(?:microsoft |windows )?defender )?(?:real ?time protection|tamper protection|cloud ?delivered protection|"
    r"automatic sample submission|controlled folder access|memory integrity|core isolation|local security authority "
    r"protection|dev drive protection|check apps and files|smart ?screen(?: for microsoft edge| for microsoft store "
    r"apps)?|potentially unwanted app blocking|phishing protection|(?:microsoft |windows )?defender firewall|"
    r"firewall|echtzeitschutz|manipulationsschutz|cloudbasierter schutz|protection en temps réel|protection contre "
    r"les falsifications|protection fournie par le cloud|protección en tiempo real|protección contra alteraciones|"
    r"protección basada en la nube|protezione in tempo reale|protezione antimanomissione|proteção em tempo real|"
    r"proteção contra adulterações|realtimebeveiliging|manipulatiebeveiliging|リアルタイム保護|改ざん防止|实时保护|"
    r"篡改防护)(?:\W+(?:on|off|ein|aus|activé|activée|désactivé|désactivée|activado|desactivado|attivato|"
    r"disattivato|ativado|desativado|aan|uit|オン|オフ|开|关))?$|"
    # a bare off answer on those windows: "Off", "Turn off", "Disable"
    r"^(?:off|turn off|switch off|disable|deactivate|aus|ausschalten|désactiver|desactivar|disattiva|desativar|"
    r"uitschakelen|オフ|关闭)$", re.I)


# the switches Windows Security keeps on by default (real-time, tamper, cloud protection, sample submission, the
# firewall), clicked bare: a click turns them off
_DEFAULT_ON_SWITCH = re.compile(
    r"^(?:(?:microsoft |windows )?defender )?(?:real ?time protection|tamper protection|cloud ?delivered protection|"
    r"automatic sample submission|(?:microsoft |windows )?defender firewall|echtzeitschutz|manipulationsschutz|"
    r"cloudbasierter schutz|protection en temps réel|protection contre les falsifications|protection fournie par le "
    r"cloud|protección en tiempo real|protección contra alteraciones|protección basada en la nube|protezione in tempo "
    r"reale|protezione antimanomissione|proteção em tempo real|proteção contra adulterações|realtimebeveiliging|"
    r"manipulatiebeveiliging|リアルタイム保護|改ざん防止|实时保护|篡改防护)$", re.I)


def _in_security_window(ctx: Context) -> bool:
    obs = ctx.observation
    return bool(_SECURITY_WINDOW.search(fold(obs.window_title[:256])) or
                _SECURITY_APP.search((obs.app or "").strip()))


@rule("confirm.gui.security-switch", "A switch of Windows Security clicked: a protection may be turned off",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def security_switch(ctx: Context) -> str | None:
    """In Windows Security (Defender's, the firewall's own window) a click on a protection's switch
    ("Real-time protection", "Tamper Protection", "Cloud-delivered protection", a firewall's "Off") flips it:
    on a machine where it is on, as it is by default, it goes off, what `Set-MpPreference
    -DisableRealtimeMonitoring $true` does in a shell. Opening a page of the window ("Manage settings",
    "Virus & threat protection") and the same words on any other window pass."""
    obs = ctx.observation
    title = fold(obs.window_title[:256])
    if not (_SECURITY_WINDOW.search(title) or _SECURITY_APP.search((obs.app or "").strip())):
        return None
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or not _SECURITY_SWITCH.match(first.replace("-", " ")):
        return None
    return f"flips a protection switch of Windows Security: {_short(label.raw)!r}"


_REGEDIT_WINDOW = re.compile(r"^(?:registry editor|registrierungs-editor|éditeur du registre|editor del registro|"
                             r"editor di registro di sistema|editor do registro|register-editor|レジストリ エディター|"
                             r"注册表编辑器|登錄編輯程式)(?:\s*[-–—:]\s*(.*))?$", re.I)
_REGEDIT_APP = Guarded(re.compile(r"(?:^|[\\/])regedit(?:\.exe)?$", re.I))
_REGISTRY_DATA = catalogue_data.get("windows_registry", {})
_REGISTRY_NAMES = {n: v["decision"] for v in _REGISTRY_DATA.get("value", ()) for n in v["names"]}
_REGISTRY_GUARDED = frozenset(_REGISTRY_DATA.get("security_services", ()))
_REGISTRY_SERVICE = re.compile(r"\\services\\([^\\]+)\\?$")
_REGISTRY_PATH = re.compile(r"^(?:computer\\)?(?:hkey_|hk(?:lm|cu|cr|u|cc)\b)", re.I)


def _registry_typed(ctx: Context) -> tuple[str, str] | None:
    """(decision, why) for text typed into Registry Editor: a protection's value name (DisableAntiSpyware,
    TamperProtection, UseLogonCredential) as the shell forms judge it, 4 (disabled) typed in a service's key,
    any other text typed under HKEY_LOCAL_MACHINE (a machine setting) asks; a key path typed to go there passes."""
    obs = ctx.observation
    m = _REGEDIT_WINDOW.match(fold(obs.window_title[:512]).strip())
    if m is None and not _REGEDIT_APP.search((obs.app or "").strip()):
        return None
    key = (m.group(1) or "") if m is not None else ""
    text = fold((getattr(ctx.action, "text", "") or "")[:256]).strip()
    if not text or _REGISTRY_PATH.match(text):
        return None
    decision = _REGISTRY_NAMES.get(text.replace(" ", ""))
    if decision is not None:
        return decision, f"types the registry value {text!r}, which switches a Windows protection off when set"
    service = _REGISTRY_SERVICE.search(key)
    if service is not None and text in ("4", "0x4", "0x00000004"):
        name = service.group(1)
        if name in _REGISTRY_GUARDED:
            return "block", f"sets the {name} service, a security or logging service, to disabled (Start = 4)"
        return "confirm", f"sets the {name} service to disabled (Start = 4)"
    if key.startswith(("hkey_local_machine", "computer\\hkey_local_machine", "hklm")):
        return "confirm", f"types {_short(text, 40)!r} into the machine's registry ({_short(key, 60)})"
    return None


@rule("block.gui.registry-defence-off", "A protection switched off by typing into Registry Editor",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def registry_defence_off(ctx: Context) -> str | None:
    """Typing into Registry Editor what the shell's `reg add` would block: a Defender, UAC, LSA or logging value's
    name (DisableAntiSpyware, DisableRealtimeMonitoring, TamperProtection, SafeDllSearchMode, UseLogonCredential;
    `[windows_registry]` of resources/programs.toml) or a security or logging service's Start set to 4."""
    got = _registry_typed(ctx)
    return got[1] if got is not None and got[0] == "block" else None


@rule("confirm.gui.registry-edit", "Typing a machine setting into Registry Editor", risk=Risk.HIGH,
      types=("type",), confidence=0.75)
def registry_edit(ctx: Context) -> str | None:
    """Typing into Registry Editor under HKEY_LOCAL_MACHINE changes a setting of the whole machine, as `reg add
    HKLM\\...` does (which asks); a weaker safeguard's value name (NoLMHash, SubmitSamplesConsent) and another
    service disabled ask too. A key path typed into the address bar only goes there and passes."""
    got = _registry_typed(ctx)
    return got[1] if got is not None and got[0] == "confirm" else None


# what the admin consoles call a defence or a record: in a Group Policy setting's title or a service's name
_DEFENCE_WORDS = (r"(?:defender|antivirus|anti ?malware|anti ?spyware|real ?time protection|behaviou?r monitoring|"
                  r"tamper protection|cloud ?delivered protection|spynet|maps|smart ?screen|firewall|security center|"
                  r"security health|windows security|user account control|uac|event ?log|(?:script block |module )?"
                  r"logging|transcription|auditing|audit|windows update|automatic updates|update orchestrator|"
                  r"sysmon|base filtering engine|credential guard|lsa protection|virtuali[sz]ation based security|"
                  r"exploit protection|controlled folder access|network protection|attack surface reduction)")
# a Group Policy setting whose Enabled switches a defence off, and one whose Disabled does
_POLICY_OFF_WHEN_ENABLED = re.compile(r"^(?:turn off|disable|do not allow|prevent|remove|hide|allow antimalware "
                                      r"service to remain running always)\b.{0,120}?\b" + _DEFENCE_WORDS + r"\b")
_POLICY_OFF_WHEN_DISABLED = re.compile(r"^(?:turn on|enable|configure|scan|monitor|join|allow)\b.{0,120}?\b" +
                                       _DEFENCE_WORDS + r"\b")
_SERVICE_PROPERTIES = re.compile(r"^(.{2,120}?) properties(?: \((?:local computer|lokaler computer|ordinateur "
                                 r"local|equipo local|computer locale|computador local)\))?$")
_CONSOLE_APP = re.compile(r"(?:^|[\\/])(?:mmc|services)(?:\.exe|\.msc)?$")
_DEFENCE_NAME = re.compile(r"\b" + _DEFENCE_WORDS + r"\b")
_CLEAR_LOG = re.compile(r"^(?:clear log|clear|save and clear|protokoll löschen|löschen|effacer le journal|effacer|"
                        r"borrar registro|borrar)\b")
_EVENT_VIEWER = re.compile(r"^(?:event viewer|ereignisanzeige|observateur d.événements|visor de eventos|"
                           r"visualizzatore eventi|visualizador de eventos|logboeken)\b")


def _console_change(ctx: Context) -> tuple[str, str] | None:
    """(decision, why) for a click in an admin console (the Group Policy editor, Services, Event Viewer) that
    switches a defence or a log off, as the registry, `sc config` and `wevtutil cl` forms do."""
    obs = ctx.observation
    title = fold(obs.window_title[:256]).replace("-", " ").strip()
    if not title:
        return None
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if first in ("enabled", "aktiviert", "activé", "habilitada", "habilitado", "attivata", "ingeschakeld") and \
            _POLICY_OFF_WHEN_ENABLED.search(title):
        return "block", f"enables the policy {_short(obs.window_title, 80)!r}: a defence or a log switched off"
    if first in ("disabled", "deaktiviert", "désactivé", "deshabilitada", "deshabilitado", "disattivata",
                 "uitgeschakeld") and _POLICY_OFF_WHEN_DISABLED.search(title):
        return "block", f"disables the policy {_short(obs.window_title, 80)!r}: a defence or a log switched off"
    service = _SERVICE_PROPERTIES.match(title)
    if service is not None and not (service.group(0) != service.group(1) + " properties" or
                                    _CONSOLE_APP.search((obs.app or "").lower())):
        service = None  # "Document Properties" in a word processor: no service's
    if service is not None and first in ("disabled", "stop", "deaktiviert", "beenden", "désactivé", "arrêter",
                                         "deshabilitado", "detener"):
        name = service.group(1)
        if _DEFENCE_NAME.search(name):
            return "block", f"{first} for the service {name!r}: a security or logging service switched off"
        return "confirm", f"{first} for the service {name!r}"
    if _EVENT_VIEWER.match(title) and _CLEAR_LOG.match(first):
        return "confirm", f"clears an event log in {_short(obs.window_title, 40)!r}: the record of what happened"
    return None


@rule("block.gui.console-defence-off", "A defence or a log switched off in an admin console", risk=Risk.CRITICAL,
      types=("click",), confidence=0.8)
def console_defence_off(ctx: Context) -> str | None:
    """In the Group Policy editor, "Enabled" on a setting that turns a defence off ("Turn off Microsoft Defender
    Antivirus", "Turn off real-time protection") or "Disabled" on one that turns it on ("Turn on PowerShell Script
    Block Logging", "Turn on behavior monitoring"); in Services, "Disabled" or "Stop" for a security or logging
    service (Defender, the firewall, Windows Event Log, Security Center, Windows Update): what the registry and
    `sc config ... start= disabled` forms do in a shell, blocked as they are."""
    got = _console_change(ctx)
    return got[1] if got is not None and got[0] == "block" else None


@rule("confirm.gui.console-change", "A service disabled or an event log cleared in an admin console",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def console_change(ctx: Context) -> str | None:
    """Any other service disabled or stopped in its Properties, and "Clear Log" or "Clear" in Event Viewer (the
    record of what happened gone, as `wevtutil cl` does): they ask. Opening a setting or a log to read it passes."""
    got = _console_change(ctx)
    return got[1] if got is not None and got[0] == "confirm" else None


# -- the system's settings apps: a protection or a way in switched, a power granted; a process's memory dumped ------
_SETTINGS = catalogue_data.get("settings_security", {})


def _plain(text: str) -> str:
    """Words without their accents (`sécurité` → `securite`), as the lists of `[settings_security]` write them."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _words_of(key: str) -> str:
    return "|".join(f"(?:{_plain(p)})" for p in _SETTINGS.get(key, ()))


_SETTINGS_APP = re.compile(r"^(?:" + _words_of("apps") + r")$")
_SETTINGS_TITLE = re.compile(r"(?:^|\s)(?:" + _words_of("apps") + r")(?:\s|$)")
_SETTING = _words_of("settings")
_VERB = _words_of("verbs")
_SETTING_CHANGED = re.compile(r"^(?:" + _VERB + r")(?: (?:the|your|my|all|und|de|du|la|le|el|il|o|a))? (?:" +
                              _SETTING + r")\b|^(?:" + _SETTING + r")(?: \S+){0,2} (?:" + _VERB + r")$")
_TOGGLE = re.compile(r"^(?:" + _words_of("toggles") + r")$")
_BARE_VERB = re.compile(r"^(?:" + _VERB + r")$")
_SETTING_NAMED = re.compile(r"(?:^|\s)(?:" + _SETTING + r")(?:\s|$)")
# a page's own name: clicked where its page is not open, it only opens it
_PAGE_NAME = re.compile(r"^(?:file ?vault|fire ?wall|lockdown mode|location services|remote desktop|remotedesktop|"
                        r"screen lock|escritorio remoto|bureau a distance)$")
# the pages that hold those switches: Sharing, the firewall's options, the remote tab, updates, UAC, the lock screen
_SWITCH_PAGE = re.compile(r"\b(?:sharing|freigaben?|partage|compartir|condivisione|compartilhamento|partilha|delen|"
                          r"共有|共享|fire ?wall|pare feu|coupe feu|cortafuegos|remote|remoto|a distance|extern|"
                          r"system properties|systemeigenschaften|software ?update|softwareaktualisierung|"
                          r"mise a jour de logiciels|actualizacion de software|automatic updates|user account control|"
                          r"benutzerkontensteuerung|lock screen|screen lock|security privacy|privacy security|"
                          r"core isolation|kernisolierung|isolation du noyau|aislamiento del nucleo|"
                          r"windows update|users groups|users|benutzer gruppen|for developers|"
                          r"sicherheit|securite|seguridad|sicurezza|seguranca|beveiliging|セキュリティ|安全)\b")
_GRANT_PAGE = re.compile(r"(?:^|\s)(?:" + _words_of("grants") + r")(?:\s|$)")
_HARMLESS = re.compile(r"^(?:" + _words_of("harmless") + r")$")
_NAVIGATION = re.compile(r"^(?:" + _words_of("navigation") + r")$")
_ADD_APP = frozenset({"+", "add", "hinzufügen", "ajouter", "añadir", "aggiungi", "adicionar", "toevoegen", "追加",
                      "添加"})


def _settings_title(ctx: Context) -> str | None:
    """The window title's words when the click is in one of the system's settings apps (not on a web page)."""
    obs = ctx.observation
    if (obs.url or "").startswith(("http://", "https://")):
        return None
    app = _plain(_text((obs.app or "")[:128]).words)
    title = _plain(_text(obs.window_title[:256]).words)
    if _SETTINGS_APP.match(app) or (not _BROWSER_APP.search(app) and _SETTINGS_TITLE.search(title)):
        return title
    return None


def _closes_a_way_in(ctx: Context, words: str) -> bool:
    """A bare "off" (`[context.switch-off]`) on a page that opens the machine to another computer (remote desktop,
    screen sharing: `[context.remote-access-window]`): it closes the way in, what a careful person does."""
    cues = ctx.compiled.cues.context
    window, off = cues.get("remote-access-window"), cues.get("switch-off")
    first = words.split("\n", 1)[0].strip() if words else ""
    title = ctx.observation.window_title
    return (window is not None and off is not None and bool(first) and bool(title) and off.search(first) is not None
            and window.search(_text(title[:256]).words) is not None)


@rule("confirm.gui.security-setting", "A protection, a way in or a power over the machine changed in its settings app",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def security_setting(ctx: Context) -> str | None:
    """A click that switches one of the machine's own protections or ways in, in the system's settings apps:
    FileVault, BitLocker, the firewall and its stealth mode, Gatekeeper's choice of apps and "Open Anyway", Lockdown
    Mode, Remote Login, Screen Sharing, Remote Management, Remote Desktop, automatic updates, the screen lock, the UAC
    slider, core isolation; or a grant of Full Disk Access, Accessibility, Screen Recording or Input Monitoring to an
    app (a setting's name with a verb, or a switch's bare name on the page that holds it). Turning a protection on
    changes the machine too (FileVault's recovery key, a firewall that cuts a service),
    so both ways ask; what turns one off still blocks where `block.gui.device-protection-off` says so. The words
    are data (`[settings_security]` of resources/programs.toml, several languages). Opening a page, the sidebar,
    "Learn more", "Cancel" and "Done" pass, and so does a bare "Off" on a way in's own page (remote desktop, screen
    sharing): it closes the way in."""
    label = ctx.derived(label_text)
    first = _plain(label.words.split("\n", 1)[0].strip()) if label.words else ""
    raw = (label.raw or "").split("\n", 1)[0].strip()
    obs = ctx.observation
    title = _settings_title(ctx)
    if title is None or _closes_a_way_in(ctx, label.words):
        return None
    if first and _SETTING_CHANGED.search(first) and not _HARMLESS.match(first):
        return f"changes a protection or a way into the machine: {_short(label.raw)!r}"
    if _GRANT_PAGE.search(title) and (raw.lower() in _ADD_APP or (first and not _HARMLESS.match(first) and
                                                                  not _NAVIGATION.match(first))):
        return f"grants an app a power over the machine on {_short(obs.window_title, 60)!r}: {_short(raw or '+')!r}"
    if first and _BARE_VERB.match(first) and (setting := _SETTING_NAMED.search(title)) is not None:
        # "Turn On…" on Lockdown Mode's page, "Enable" on the firewall's
        return f"{first} for {setting.group(0).strip()!r} on {_short(obs.window_title, 60)!r}"
    if not first or _HARMLESS.match(first) or raw.endswith(("...", "…")) or not _TOGGLE.match(first):
        return None
    on_its_page = first in title
    if _PAGE_NAME.match(first) and not on_its_page:
        return None
    if on_its_page or _SWITCH_PAGE.search(title):
        return f"flips a protection or a way into the machine: {_short(label.raw)!r} on " \
            f"{_short(obs.window_title, 60)!r}"
    return None


_DUMP_LABEL = re.compile(r"^(?:" + _words_of("dump_labels") + r")$")
_CREDENTIAL_PROCESS = re.compile(r"(?:^|\s)(?:" + _words_of("credential_processes") + r")(?:\s|$)")


def _process_dump(ctx: Context) -> tuple[str, str] | None:
    """(decision, why) for a click that writes a process's memory to a file."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    path = ctx.derived(menu_path)
    readings = path.readings if path is not None else (label.words.split("\n", 1)[0].strip(),)
    if not any(_DUMP_LABEL.match(_plain(r)) for r in readings):
        return None
    where = " ".join((label.words.replace("\n", " "), _text(ctx.observation.window_title[:256]).words))
    holder = _CREDENTIAL_PROCESS.search(where)
    if holder is not None:
        return "block", f"dumps the memory of {holder.group(0).strip()}, which holds the machine's credentials"
    return "confirm", f"writes a process's memory to a file: {_short(label.raw)!r}"


@rule("block.gui.process-dump", "Dumping the memory of the process that holds the machine's credentials",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def process_dump_block(ctx: Context) -> str | None:
    """"Create dump file" (Task Manager), "Create Full Dump" (Process Explorer), "Create dump file" (System
    Informer, Process Hacker), "Save Dump As" (a debugger) on LSASS, Winlogon, securityd, a keychain or a password
    manager, as the window or the label names it: the dump holds its passwords, hashes and tickets, what
    `procdump -ma lsass.exe` and comsvcs.dll's MiniDump do in a shell (`block.shell.credential-dump`)."""
    got = _process_dump(ctx)
    return got[1] if got is not None and got[0] == "block" else None


@rule("confirm.gui.process-dump", "Dumping a process's memory to a file", risk=Risk.HIGH, types=("click",),
      confidence=0.75)
def process_dump_confirm(ctx: Context) -> str | None:
    """The same dump of any other process: whatever it holds (documents, tokens, keys) is written to a file."""
    got = _process_dump(ctx)
    return got[1] if got is not None and got[0] == "confirm" else None


# Keys that open a browser's "clear browsing data" (Ctrl+Shift+Delete, Cmd+Shift+Backspace on a Mac)
_CLEAR_DATA_KEYS = frozenset({"ctrl+shift+delete", "shift+super+delete", "shift+super+backspace",
                              "ctrl+shift+backspace"})
# the keys that answer a dialog with its default button, and the titles of a browser's "clear browsing data" dialog
# (Chrome's and Edge's "Clear browsing data", Firefox's "Clear recent history" / "Clear data", Safari's "Clear History")
_DIALOG_ANSWER_KEYS = frozenset({"enter", "kpenter", "space"})
_CLEAR_DATA_DIALOG = re.compile(
    r"\bclear (?:browsing data|recent history|all history|history|data|cookies and site data|site data)\b|"
    r"\b(?:delete|erase|remove) (?:browsing (?:data|history)|history)\b|\bbrowserdaten (?:löschen|entfernen)\b|"
    r"\beffacer (?:les données de navigation|l historique)\b|\bborrar datos de navegación\b")
# the programs whose Ctrl+Shift+Delete is that dialog; elsewhere (the Finder's "Empty Trash?", an editor's "delete
# line") the same keys do something else, and ask there if at all
_BROWSER_APP = re.compile(r"\b(?:firefox|chrome|chromium|brave|edge|msedge|safari|opera|vivaldi|epiphany|librewolf|"
                          r"waterfox|tor browser|arc|browser)\b")
_BROWSER_APP = Guarded(_BROWSER_APP)


@rule("confirm.gui.clear-data-key", "A key combination that clears browsing data", risk=Risk.MEDIUM,
      types=("key",), confidence=0.8)
def clear_data_key(ctx: Context) -> str | None:
    """Ctrl+Shift+Delete (Cmd+Shift+Delete on a Mac) in a browser, or where deskgate cannot tell which program
    has the keys, opens "Clear browsing data" with its last choices ticked, one Enter away from wiping history,
    cookies and every signed-in session: the record of what was done goes with it. That Enter (or Space) in the
    dialog itself (its title says so) asks too. In a program deskgate read that is no browser (the Finder, whose
    "Empty Trash" asks its own question; an editor) the keys stay quiet; Ctrl+Delete (delete a word) does not
    ask; Shift+Delete is `confirm.gui.permanent-delete-key`."""
    combo = ctx.derived(key_combo)
    obs = ctx.observation
    if combo in _DIALOG_ANSWER_KEYS:
        title = obs.window_title
        if title and _CLEAR_DATA_DIALOG.search(fold(title[:256])):
            return f"{combo} in {_short(title, 50)!r} clears the browser's history, cookies and sessions"
        return None
    if combo not in _CLEAR_DATA_KEYS:
        return None
    place = fold((obs.app or obs.window_title)[:256]).strip()
    if place and not _BROWSER_APP.search(place):
        return None
    return f"{combo} clears the browser's history, cookies and sessions"


@rule("confirm.gui.removal-dialog-key", "Enter in a dialog that removes a whole account, organisation or project",
      risk=Risk.HIGH, types=("key",), confidence=0.8)
def removal_dialog_key(ctx: Context) -> str | None:
    """Enter (or Space) while the window's title is the removal of a whole account, organisation, project,
    repository, workspace or store ("Remove Organization", "Delete project", "Delete account":
    `[context.removal-dialog]` of resources/cues.toml) answers that dialog: what goes cannot be brought back. A help
    article about it ("How to delete your account - Help") is not the dialog."""
    combo = ctx.derived(key_combo)
    title = ctx.observation.window_title
    if combo not in _DIALOG_ANSWER_KEYS or not title:
        return None
    where = ctx.compiled.cues.context.get("removal-dialog")
    if where is None or where.search(_text(title[:256]).words) is None:
        return None
    return f"{combo} in {_short(title, 50)!r} answers a removal that cannot be undone"


# Shift+Delete in a file manager deletes for good: the files skip the trash (Recycle Bin), nothing restores them;
# in the Finder Option+Cmd+Backspace does that to the selection and Option+Shift+Cmd+Backspace empties the trash
# without asking
_PERMANENT_DELETE_KEYS = frozenset({"shift+delete", "alt+super+backspace", "alt+shift+super+backspace",
                                    "alt+shift+super+delete"})
_FILE_MANAGER = re.compile(
    r"\b(?:file explorer|explorer|files|nautilus|finder|dolphin|thunar|nemo|caja|pcmanfm|konqueror|total commander|"
    r"double commander|midnight commander|file manager|this pc|my computer|desktop|downloads|documents|pictures|"
    r"recycle bin|trash)\b", re.IGNORECASE)


@rule("confirm.gui.permanent-delete-key", "A key combination that deletes files without the trash",
      risk=Risk.HIGH, types=("key",), confidence=0.75)
def permanent_delete_key(ctx: Context) -> str | None:
    """Shift+Delete (Option+Cmd+Backspace on a Mac) in a file manager deletes the selection for good, past the
    trash or the Recycle Bin; where deskgate cannot tell which window has the keys, it may be one. In an editor,
    a browser or a terminal (an app deskgate read that is not a file manager) the same keys cut text or drop a
    suggestion, and stay quiet."""
    combo = ctx.derived(key_combo)
    if combo not in _PERMANENT_DELETE_KEYS:
        return None
    obs = ctx.observation
    # the app says which program has the keys; a title alone ("Downloads - Firefox") only where it is not known
    place = (obs.app or obs.window_title).strip()
    if place and not _FILE_MANAGER.search(place):
        return None
    where = f"in {_short(place, 40)!r}" if place else "where the active window is unknown"
    return f"{combo} {where} deletes the selected files without the trash"


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
    if not _into_a_field(ctx):
        return None
    found = carried(text) or _credential_upload(ctx, text)
    if found is None:
        return None
    if found.kind in _OPENS_AN_ACCOUNT and _SEARCH_OPERATORS.match(text) is not None:
        return None  # "from:billing@example.org": a mail search's operators, not a user name and its password
    if found.kind == _ONE_TIME_CODE and _MEETING_CODE.search(text[:2048]) is not None:
        return None  # "Meeting ID 845 2290 1176, passcode 7781": a meeting's invitation, written to be shared
    url = getattr(ctx.action, "url", None) or ctx.observation.url
    parts = split_url(url) if url else None
    host, path = (parts.host, parts.path) if parts is not None else ("", "")
    page = data_destination(host, path, ctx.compiled.cues, ctx.compiled.collector_hosts) if host else None
    return _TypedOut(found, page)


# a meeting's own ID and passcode, which its invitation is written to share (the host sends them to every guest)
_ONE_TIME_CODE = "a one-time security code"
_MEETING_CODE = re.compile(r"(?i)\b(?:meeting id|meeting number|meeting code|webinar id|conference id|zoom|webex|"
                           r"teams meeting|google meet|gotomeeting|dial[- ]in|join (?:the |my |our )?(?:meeting|call|"
                           r"webinar))\b")
# a mail or web search written with its operators ("from:alerts@example.org has:attachment", "site:example.com")
_SEARCH_OPERATORS = re.compile(r"^\s*(?:-?(?:from|to|cc|bcc|subject|label|in|is|has|list|filename|deliveredto|"
                               r"older_than|newer_than|after|before|larger|smaller|category|site|intitle|inurl|"
                               r"folder|sender|recipient)\s*:\s*\S+\s*|\w+\s+)*?-?(?:from|to|cc|bcc|sender|recipient|"
                               r"deliveredto|list)\s*:\s*\S+(?:\s+\S+){0,8}\s*$", re.IGNORECASE)


# a file chooser: what is typed into it is the file that gets uploaded or attached
_FILE_CHOOSER = re.compile(r"\b(?:file ?name|file name|file to upload|upload|attach|attachment|choose (?:a )?file|"
                           r"select (?:a )?file|open file|file upload|browse)\b|^(?:open|file|location)$", re.MULTILINE)
_FILE_CHOOSER = Guarded(_FILE_CHOOSER)
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
    collector, a raw IP): into a message, comment, issue body or chat it hands every account over. So does
    what lets someone spend a card or take on an identity (a card number with its security code or expiry
    date, a national id with a date of birth), a one-time sign-in code written out in a message, and a home
    address with a phone number, or a password with the account it opens, typed into a public post. So are
    personal records of several people (phone lists, home addresses, ids or cards of two or more people;
    `gate.dataout.people_listed`) typed into a message, comment, post or issue body. A live
    token alone is `block.gui.secret-exposure`.
    The text is redacted from the log."""
    out = ctx.derived(_typed_out)
    if out is None or ctx.derived(_secret_in) is not None:
        return None
    p = out.payload
    if p.severity >= 3:
        return f"typing {p.kind} into {_where(ctx)}"
    if p.severity >= 2 and out.where is not None:
        return f"typing {p.kind} on {out.where}"
    if p.kind in _LOCATES_A_PERSON and ctx.derived(_public_post) and _message_field(ctx):
        return f"typing {p.kind} into a public post ({_where(ctx)})"
    if p.kind == _RECORDS and _message_field(ctx):
        return f"typing {p.kind} of several people into {_where(ctx)}"
    if p.kind in _OPENS_AN_ACCOUNT and ctx.derived(_public_post):
        return f"typing {p.kind} into a public post ({_where(ctx)}): everyone who reads it can sign in"
    return None


_LOCATES_A_PERSON = frozenset({"a home address with a phone number"})
_RECORDS = "personal records"
# a password written out with what it opens: in a message to one person a person decides, in a public post it
# is handed to every reader
_OPENS_AN_ACCOUNT = frozenset({"a user name with its password", "a password with the account it opens"})
@rule("confirm.gui.data-out", "Typing credentials or personal records into a message", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.75)
def data_out_confirm(ctx: Context) -> str | None:
    """The typed text holds a user name with its password written out ("username admin, password ..."),
    or personal records (two or more lines that each hold an e-mail, phone, card or national id; five or
    more e-mail addresses; a home address with a phone number): customer data leaving through a comment, a
    chat or an issue. Or a whole home
    folder, a root or a folder of secrets (`~/.ssh`, `~/.gnupg`) typed into a file chooser: everything in
    it would be uploaded. One card number or national id alone is `confirm.gui.sensitive-data`. The text
    is redacted from the log."""
    out = ctx.derived(_typed_out)
    if out is None or ctx.derived(_secret_in) is not None:
        return None
    p = out.payload
    if p.severity != 2 or out.where is not None or p.kind.startswith("personal data"):
        return None
    if p.kind == _RECORDS and _message_field(ctx):
        return None  # block.gui.data-out
    if p.kind in _LOCATES_A_PERSON and (ctx.derived(_public_post) or not _message_field(ctx)):
        return None  # block.gui.data-out in a public post; where an address is asked for, it is expected
    return f"typing {p.kind} into {_where(ctx)}"




@rule("block.gui.phishing-lure", "Typing a phishing lure into a message: verify your account here, or lose it",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def phishing_lure(ctx: Context) -> str | None:
    """The text the agent writes to other people is itself a phishing message (`gate.harm.phishing`): it
    asks the reader to send back a password, a one-time code or bank details ("reply with your current
    password"), or to type them in at a link ("verify your account at http://...", "log in with your bank
    details here: bit.ly/..."), and dresses the ask with a borrowed authority ("This is the IT
    administrator", "[MOD NOTICE]"), a threatened loss ("to keep posting", "or your account will be
    closed", a deadline) or a lure ("free $500 gift cards", "you have won", a shortened link). Sent from the
    person's own account it carries their name to everyone who receives it. A reminder with a deadline and a
    link that asks for nothing ("confirm your attendance by Friday: ..."), a helpdesk reply that points to
    the password reset ("reset your password using the link the portal sends you") and a warning ("we will
    never ask for your password") do not block."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) < 24 or len(text) > 8192:
        return None
    found = ctx.derived(_typed_steering)  # read once per action, for the steering rules too
    said = phishing(ctx.derived(_typed).words, text, found.cues if found else (), found.quote if found else "",
                    ctx.compiled.cues)
    if said is None or ctx.derived(_credential_field):
        return None
    if not _into_a_field(ctx):
        return None
    return f"a phishing message typed into {_where(ctx)}: {_short(said, 80)}"


@rule("block.gui.callback-lure", "Following a message's request to phone a number to dispute a charge or cancel a "
      "subscription", risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def callback_lure(ctx: Context) -> str | None:
    """A label or a link in a mail page that asks to phone a number (`[context.callback-call]` of
    resources/cues.toml) to dispute a charge, cancel a subscription or a renewal, or stop an order the reader never
    made (`[context.callback-reason]`): the callback scam, where the person who answers talks the caller into
    remote access or a "refund" payment. The same holds for a link whose text is a phone number, off any web page
    (a mail program's message, a notice), when the label or the message's subject gives such a reason ("Cancel &
    Refund: 1-808-555-0199" under "Norton 360 Auto-Renewal Invoice"); and for a number or a "Call now" on a scare
    pop-up (`[context.scare-window]`: "Your computer has been locked", on a web page or off one), the tech-support
    scam's way in. Companies send cancellations and disputes to their own site, not to a number in an e-mail. A
    number in a support page, or one in mail with no such reason, is not this."""
    label = ctx.derived(label_text)
    if not label.raw or len(label.raw) > 400:
        return None
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    if (_PHONE_NUMBER.search(label.words) is not None or _CALL_LABEL.match(label.words) is not None) and \
            len(label.words) <= 120 and (scare := ctx.derived(scare_window)) is not None:
        # "Call now: 1-888-555-0100" on "Your computer has been locked": the tech-support scam's number
        return f"a scare pop-up's number to phone ({scare!r}): {_short(label.raw)!r}"
    if url and not _MAIL_PAGE.search(url[:512]):
        return None
    book = ctx.compiled.cues.context
    call, reason = book.get("callback-call"), book.get("callback-reason")
    if call is None or reason is None:
        return None
    title = _text(ctx.observation.window_title[:256]).words if not url else ""
    if call.search(label.words) is not None and reason.search(label.words) is not None:
        return f"a message asks to phone a number about a charge or a cancellation: {_short(label.raw)!r}"
    if _PHONE_NUMBER.search(label.words) is None or len(label.words) > 120:
        return None
    why = reason.search(label.words) or (reason.search(title) if title else None)
    if why is None:
        return None
    # "Stop renewal and refund: +1 877 555 0142" as a link, in an "Auto-Renewal Invoice" read in a mail program
    return f"a message's link is a number to phone about {why.group(0)!r}: {_short(label.raw)!r}"


# a label that dials: "Call now", "Call support", "Call Microsoft", "Call toll free"
_CALL_LABEL = re.compile(r"^(?:call|phone|dial|ring|contact)(?: (?:now|us|support|tech(?:nical)? support|"
                         r"the help ?desk|microsoft|apple|windows|toll free|a technician|an agent|the number|"
                         r"this number))*$")


def scare_window(ctx: Context) -> str | None:
    """The scare pop-up the active window is, read on its title (`[context.scare-window]` of resources/cues.toml)."""
    pattern = ctx.compiled.cues.context.get("scare-window")
    title = ctx.observation.window_title
    if pattern is None or not title:
        return None
    host = ctx.derived(_page_host).lower()
    if host and own_site(host):
        return None  # a known site's own page about the error ("Fix error 0x80070643 - Microsoft Support")
    m = pattern.search(_text(title[:256]).words)
    return m.group(0) if m is not None else None


# a phone number as the label reads it ("1-808-555-0199" reads "1 808 555 0199", "+44 20 7946 0958" "44 20 7946 0958")
_PHONE_NUMBER = re.compile(r"\b(?:\d{1,3} )?\d{3} \d{3} \d{4}\b|\b(?:\d{1,3} )?\(?\d{3}\)? \d{3} \d{4}\b|"
                           r"\b(?:44|33|49|61|1) \d{2,4} \d{3,4} \d{3,4}\b|\b0\d{2,4} \d{3,4} \d{3,4}\b")


@rule("block.gui.harassment", "Typing a call to a crowd to go after one person into a message or post",
      risk=Risk.CRITICAL, types=("type",), confidence=0.75)
def harassment_call(ctx: Context) -> str | None:
    """The text the agent writes calls on its readers to go after one person (`gate.harm.harassment`):
    "everyone go spam u/name's inbox", "let's all report him", a raid or a brigade, a campaign "until they
    delete their account", or a call that hands the crowd their home address. A request to report bugs, a
    moderator's "report this post if it breaks the rules" and "go check out @ann's talk" do not block."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) < 16 or len(text) > 8192 or ctx.derived(_credential_field):
        return None
    said = harassment(ctx.derived(_typed).words, text, ctx.compiled.cues)
    if said is None:
        return None
    if not _into_a_field(ctx):
        return None
    return f"a call to go after a person typed into {_where(ctx)}: {_short(said, 50)!r}"


@rule("block.gui.doxxing", "Typing a named person's home address or phone number into a public post",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.75)
def doxxing_post(ctx: Context) -> str | None:
    """A named person's home address or phone number (`gate.dataout.named_whereabouts`), or words that hand
    a crowd someone's whereabouts ("here is their home address": `gate.harm.doxxing`), typed into a public
    post, a title, a status or a review: everyone who reads it can find them. In a message to one person
    it is `confirm.gui.whereabouts`; a shop's or an office's address in a post does not block. The text is
    redacted from the log."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) < 12 or not ctx.derived(_public_post) or ctx.derived(_typed_out) is not None:
        return None
    said = named_whereabouts(text) or doxxing(ctx.derived(_typed).words, ctx.compiled.cues)
    if said is None:
        return None
    if not _into_a_field(ctx):
        return None
    return f"a person's whereabouts ({_short(said, 30)!r}) typed into a public post ({_where(ctx)})"


@rule("confirm.gui.false-alarm", "Posting an alarm to the public: an urgent public-safety claim with an order",
      risk=Risk.HIGH, types=("type",), confidence=0.6)
def false_alarm(ctx: Context) -> str | None:
    """The text the agent posts where the public reads it (a post, a title, a comment or reply) raises an
    alarm (`gate.harm.alarm`): an urgency marker, a claim about public safety and an order to the readers
    ("BREAKING: tap water confirmed poisoned, do not drink it", "URGENT: bomb at the mall, evacuate now").
    If it is false it frightens everyone who reads it, and the gate cannot tell: a person looks before it is
    posted. A headline quoted in a private note or message, and a warning without an urgency marker, pass."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) < 20 or len(text) > 8192:
        return None
    field = ctx.derived(_field_text).words
    if not (ctx.derived(_public_post) or (field and _PUBLIC_REPLY.search(field))):
        return None
    said = alarm(ctx.derived(_typed).words, ctx.compiled.cues)
    if said is None:
        return None
    if not _into_a_field(ctx):
        return None
    return f"an alarm posted to the public ({_short(said, 40)!r}) in {_where(ctx)}"


# a comment or reply under a public post: read by everyone who reads the thread
_PUBLIC_REPLY = re.compile(r"\b(?:comment|comments|add a comment|write a comment|reply|post|thread|discussion)\b")


@rule("confirm.gui.whereabouts", "Typing a named person's home address or phone number into a message or post",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.7)
def whereabouts(ctx: Context) -> str | None:
    """The typed text says where a named person lives or how to ring them ("Jane Roe lives at 12 Oak Street",
    "Tom's number is 555-0101"; `gate.dataout.named_whereabouts`) and goes into a message, a comment or a
    post: one person's whereabouts handed on, and in a public post to everyone (doxxing). Several people's
    are `block.gui.data-out`. An address typed into a shipping, billing or contact form, and an office's
    address ("our office is at ..."), do not ask. The text is redacted from the log."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) < 12 or (said := named_whereabouts(text)) is None:
        return None
    if not _message_field(ctx) or ctx.derived(_typed_out) is not None:
        return None
    if not _into_a_field(ctx):
        return None
    return f"a named person's whereabouts ({_short(said, 30)!r}) typed into {_where(ctx)}"


# a password written out after the word for it: "my password is Hunter!2024", "PIN: 4471", "Passwort: ..."
_SAID_PASSWORD = re.compile(
    either_spelling(
        r"\b(?:password|passwd|passcode|pass code|pwd|pw|pin|passphrase|passwort|kennwort|mot de passe|contraseña|"
    r"contrasena|senha|password di|wachtwoord|hasło|пароль|parola|şifre)\b(?: (?:is|was|will be|would be|ist|est|es|"
    r"é|è|is now|lautet|heißt|war|était|sera|era|será|:|=|это|to))?\s*[:=]?\s*[\"'“‘«]?([^\s\"'”’»]{4,64})"
    r"|(?:密码|密碼|パスワード|비밀번호)(?:是|は|:|：)?\s*(\S{4,64})"
    # the word, then what it is for, then the value after a colon: "here's my AOL password so you can fix my
    # email: Sunflower#1962"
    r"|\b(?:password|passwd|passcode|passwort|kennwort|mot de passe|contraseña|senha|wachtwoord)\b[^:=\n]{1,60}?"
    r"[:=]\s*[\"'“‘«]?([^\s\"'”’»]{6,64})"),
    re.IGNORECASE)


@rule("confirm.gui.password-in-message", "A password written out in a message or an ordinary field",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.75)
def password_in_message(ctx: Context) -> str | None:
    """The typed text names a password and writes it out ("my password is Quartz!Lamp77", "PIN: 4471-Xk",
    "Passwort: ..."): whoever reads the message, the comment or the chat can sign in. The value must read like
    a password (`gate.sensitive.password_shaped`) or follow the word for it after a colon; talk about
    passwords ("my wifi password is sunflower", "password requirements: 8 characters") stays quiet. With the
    account it opens, or a list of them, it is `confirm.gui.data-out` / `block.gui.data-out`. The text is
    redacted from the log."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > 4096 or _PASSWORD_WORD.search(text) is None:
        return None
    if ctx.derived(_credential_field) or ctx.derived(_secret_in) is not None:
        return None
    if ctx.derived(destination) is not Destination.FIELD and ctx.derived(destination) is not Destination.UNKNOWN:
        return None
    if password_shaped(text) or ctx.derived(_typed_out) is not None:
        return None  # the whole text is one password (`confirm.gui.password-shaped`), or data-out judges it
    text = _LINK.sub(" ", text)
    for m in _SAID_PASSWORD.finditer(text):
        value = (m.group(1) or m.group(2) or m.group(3) or "").rstrip(".,;!?)")
        if value and password_shaped(value):
            return f"a password written out in {_where(ctx)}"
    # the word, what it is for, then the value after a colon, read on its own: "voici mon mot de passe pour que
    # tu regardes: ..." (the first reading took "pour" for the value)
    m = _SAID_PASSWORD_AFTER.search(text)
    if m is not None and password_shaped(m.group(1).rstrip(".,;!?)")):
        return f"a password written out in {_where(ctx)}"
    # an account's password with any value, weak ones too ("my password is sunshine1", "pw: qwerty1"): not a
    # wifi, guest or door code, and not talk about one ("the password is required", "is case-sensitive")
    for m in _ANY_PASSWORD.finditer(text):
        if _weak_password_said(m, text):
            return f"a password written out in {_where(ctx)}"
    return None


_SAID_PASSWORD_AFTER = re.compile(
    r"\b(?:password|passwd|passcode|passwort|kennwort|mot de passe|contraseña|senha|wachtwoord)\b[^:=\n]{1,60}?"
    r"[:=]\s*[\"'“‘«]?([^\s\"'”’»]{6,64})", re.IGNORECASE)
# the word for a password, then "is" or a colon, then a value of any strength: "my password is sunshine1",
# "pw: qwerty1", "mein Passwort ist sommer2024", "mi contraseña es gato123", "la mia password è ..."
_ANY_PASSWORD = re.compile(
    r"(?P<before>(?:[\w'-]{1,20} ){0,3})\b(?:password|passwd|passcode|pwd|pw|passwort|kennwort|mot de passe|"
    r"contraseña|contrasena|clave|senha|wachtwoord|parola d'ordine|hasło|haslo)\b"
    r"(?: (?:is|was|is now|is still|ist|lautet|est|es|era|é|è|is nu|to)\b ?:?| ?[:=])\s*[\"'“‘«]?"
    r"(?P<value>[^\s\"'”’»]{3,64})(?P<after> [\w-]{1,16})?", re.IGNORECASE)
# the words before it that make it a shared code, a sample or another thing's lock, not a person's account
_NOT_AN_ACCOUNT = frozenset({
    "wifi", "wi-fi", "wlan", "wireless", "network", "guest", "router", "hotspot", "door", "gate", "garage",
    "alarm", "locker", "lock", "safe", "zip", "pdf", "archive", "file", "excel", "document", "default",
    "example", "sample", "dummy", "placeholder", "fake", "test", "demo", "temporary", "new", "strong", "weak",
    "good", "bad", "secure", "wlan-", "gäste", "invité", "invités", "invitados", "convidados", "ospiti", "gasten",
})
# what follows "password is" / "password:" when the text is about passwords, not one written out
_NOT_A_VALUE = frozenset({
    "is", "was", "required", "requested", "needed", "mandatory", "optional", "incorrect", "wrong", "invalid",
    "expired", "expiring", "too", "not", "case", "changed", "reset", "strong", "weak", "correct", "the", "a", "an",
    "same", "different", "missing", "empty", "blank", "saved", "hidden", "stored", "set", "sent", "protected",
    "encrypted", "hashed", "must", "should", "will", "can", "cannot", "can't", "at", "least", "minimum", "min",
    "max", "maximum", "longer", "shorter", "now", "still", "being", "updated", "secure", "insecure", "mine",
    "yours", "below", "above", "attached", "in", "on", "for", "of", "and", "or", "to", "with", "field", "forgotten",
    "unknown", "unchanged", "visible", "masked", "my", "your", "his", "her", "their", "our", "this", "that",
    "what", "something", "nothing", "long", "short", "easy", "hard", "simple", "complex", "good", "bad", "fine",
    "ok", "okay", "locked", "working", "accepted", "rejected", "valid", "only", "also", "very", "really",
    "just", "already", "never", "always", "please", "enter", "type", "use", "change", "like",
    "similar", "based", "shown", "displayed", "written", "here", "there", "below:", "policy", "manager",
    "erforderlich", "falsch", "ungültig", "abgelaufen", "zu", "nicht", "geändert", "requis", "obligatoire",
    "invalide", "expiré", "trop", "pas", "changé", "requerida", "incorrecta", "obligatoria", "inválida",
    "caducada", "demasiado", "obrigatória", "incorreta", "expirada", "muito", "obbligatoria", "errata",
    "scaduta", "troppo", "verplicht", "onjuist", "ongeldig", "verlopen", "te", "niet",
    # "lautet wie immer", "es la de siempre": the usual one, not written out
    "as", "usual", "before", "wie", "immer", "comme", "toujours", "como", "siempre", "sempre", "zoals", "altijd",
    "la", "le", "el", "de", "der", "die", "das", "het", "il",
    # a type or a value in code ("password: str", "password = None")
    "str", "string", "int", "none", "null", "nil", "true", "false", "undefined", "bytes", "secretstr", "text",
    "varchar", "getpass", "input", "env", "self", "this.password", "request", "config", "settings", "args",
})
# "password: 8 characters", "Passwort: 12 Zeichen": a rule about passwords
_LENGTH_WORD = re.compile(r"^ (?:characters?|chars?|digits?|letters?|symbols?|zeichen|stellen|caractères|caracteres|"
                          r"caratteri|tekens|dígitos|digitos|cifre|cijfers)$", re.IGNORECASE)


def _weak_password_said(m: re.Match[str], text: str) -> bool:
    """`m` (of `_ANY_PASSWORD`) writes out an account's password: its value is not a word of talk about
    passwords, a length rule or a mask, and the words before it name no wifi, guest or door code."""
    value = m.group("value").rstrip(".,;!?)").lower()
    if len(value) < 3 or set(value) <= set("*•●x·.-_") or value in _NOT_A_VALUE or \
            value.split("-")[0] in _NOT_A_VALUE or value.startswith(("<", "[", "{", "$", "%")) or \
            any(c in value for c in "([{") or value.split(".")[0] in _NOT_A_VALUE or value.startswith("os."):
        return False
    if m.group("after") and _LENGTH_WORD.match(m.group("after")) and value.isdigit():
        return False
    before = {w.strip("'").lower() for w in m.group("before").split()}
    return not before & _NOT_AN_ACCOUNT and not any(w.endswith(("wifi", "wlan")) for w in before)


# a link, read as no words: its scheme's and port's colons are not the colon before a value
_LINK = re.compile(r"(?i)\b(?:https?|ftp)://\S+|\bwww\.\S+")


# -- access and mail going out through what is typed into a field -----------------------------------

# a field that names who a message goes to (one line of the field's label, name or role)
_RECIPIENT_FIELD = re.compile(either_spelling(
    r"^(?:to|cc|bcc|recipients?|send to|recipient (?:e ?mail|address)(?: address)?|"
                              r"to (?:e ?mail )?address|e ?mail recipients?|add recipients?|mail to|share with|"
                              r"invite by e ?mail|empfänger|destinataire|destinatario|para|destinatário|кому|收件人)$|"
                              r"\b(?:invite|add (?:a |new )?(?:member|members|people|person|user|users|collaborators?|"
                              r"guests?)|share with)\b"), re.MULTILINE)
# a field that names where a service sends its events or its users: a webhook, a callback, a redirect
_HOOK_FIELD = re.compile(r"\b(?:payload|webhook|web hook|hook|callback|redirect|notification|endpoint|target|"
                         r"destination|forwarding|postback|ipn) (?:url|uri|address|endpoint)s?\b")
_ONE_URL = re.compile(r"^\s*(?:https?|wss?)://([^/\s?#:@]+)(?::\d+)?(?:[/?#]\S*)?\s*$", re.IGNORECASE)
# a field that sends every later message somewhere else
_FORWARD_FIELD = re.compile(either_spelling(
    r"\b(?:forwarding (?:address|e ?mail|destination)|forward all (?:mail |e ?mail |"
                            r"messages |incoming (?:mail |messages )?)?to|forward (?:a )?cop(?:y|ies) (?:of )?"
                            r"(?:all |incoming |new )?(?:mail |e ?mail |e ?mails |messages )?to|auto ?forward\w*|"
                            r"redirect (?:all )?(?:mail |"
                            r"e ?mail |messages )?to|forwarding|weiterleitung\w*|adresse de transfert|reenv[ií]o|"
                            r"encaminhamento|inoltro|doorstuur\w*|doorsturen|przekazywani\w*|przekierowani\w*|"
                            r"пересылк\w*|переадресаци\w*)\b"
                            # no word break inside Chinese or Japanese: "转发地址", "転送先アドレス"
                            r"|转发(?:地址|规则|到)|自动转发|転送(?:先|設定|アドレス)|自動転送"))
# "Forward to" means the standing rule only on a mailbox's settings; in a compose window it is one message's To
_FORWARD_TO = re.compile(r"\bforward (?:mail |e ?mail |messages? |it |them )?to\b")
# a desktop mail client's filter or rule dialog ("Filter Rules", "Message Filters", "Rules and Alerts")
_RULES_WINDOW = re.compile(r"\b(?:filter rules?|message filters?|mail filters?|rules and alerts|inbox rules?|"
                           r"nachrichtenfilter|filterregeln|regeln und benachrichtigungen|filtres de messages|"
                           r"règles|reglas y alertas|filtros de mensajes|regole)\b", re.IGNORECASE)
_SETTINGS_PAGE = re.compile(r"/(?:settings|preferences|prefs|options|rules|filters|forwarding|mailbox-settings|"
                            r"account-settings)(?:/|$|\?|#)|[#?&](?:settings|prefs)\b", re.IGNORECASE)


def _forwarding_field(ctx: Context) -> bool:
    """The field sets where every later message goes (a forwarding rule), not one message's recipient."""
    field = _field_lines(ctx)
    if not field:
        return False
    if _FORWARD_FIELD.search(field):
        return True
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    if _FORWARD_TO.search(field) is not None and (_SETTINGS_PAGE.search(url) is not None or
                                                  _RULES_WINDOW.search(ctx.observation.window_title[:200])):
        return True
    # an address field ("Email", "Address") on a mailbox's forwarding page: the page says what it is for
    first = field.split("\n", 1)[0].strip()
    return _ADDRESS_FIELD.match(first) is not None and _FORWARDING_PAGE.search(url) is not None


_ADDRESS_FIELD = re.compile(r"(?:(?:new |add (?:a )?)?(?:e ?mail|e ?mail address|email address|address|to|destination|"
                            r"recipient|forward to)\s*)$")
_FORWARDING_PAGE = re.compile(r"[/#](?:forwarding|fwdandpop|auto[_-]?forward(?:ing)?|mail[_-]?forwarding|"
                              r"forwarding[_-]?rules)(?:/|$|\?|#)", re.IGNORECASE)
# a field that takes a key which lets a machine in (a deploy key, an account's SSH or GPG key)
_KEY_FIELD = re.compile(r"^(?:key|keys|public key|ssh key|ssh public key|deploy key|gpg key|pgp key|signing key|"
                        r"authorized keys?|key content|key contents|key value)$|\b(?:ssh|deploy|gpg|pgp|public|signing)"
                        r" keys?\b", re.MULTILINE)
_KEY_PAGE = re.compile(r"/(?:keys|ssh[_-]?keys|gpg[_-]?keys|deploy[_-]?keys|authorized[_-]?keys|settings/repository|"
                       r"settings/ci_cd|credentials)(?:/|$|\?|#)", re.IGNORECASE)
_PUBLIC_KEY = re.compile(r"^\s*(?:(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)"
                         r"@openssh\.com) AAAA[0-9A-Za-z+/]{8,}|-----BEGIN PGP PUBLIC KEY BLOCK-----|"
                         r"---- BEGIN SSH2 PUBLIC KEY ----)")
# an account's own contact and recovery fields, and the pages where they are changed
_CONTACT_FIELD = re.compile(r"^(?:(?:new |primary |recovery |backup |secondary |notification |contact |commit |public |"
                            r"account |alternate |alternative )?(?:e ?mail|e ?mail address|email address|phone|"
                            r"phone number|mobile|mobile number|mobile phone)(?: address)?)$", re.MULTILINE)
# a recovery or backup address is the account's own on whatever page it is asked for
_RECOVERY_FIELD = re.compile(r"^(?:recovery|backup|secondary|alternate|alternative) ", re.MULTILINE)
_ACCOUNT_PAGE = re.compile(r"/(?:profile|account|accounts|settings|security|preferences|me|user/edit|users/edit|"
                           r"personal[_-]?info|contact[_-]?info|recovery|myaccount)(?:/|$|\?|#)", re.IGNORECASE)
# mailbox providers anyone can sign up to: an address there belongs to a person, not to an organisation
_FREE_MAIL = frozenset({"gmail", "googlemail", "outlook", "hotmail", "live", "msn", "yahoo", "ymail", "aol",
                        "icloud", "me", "mac", "proton", "protonmail", "pm", "gmx", "yandex", "zoho", "tutanota",
                        "tuta", "fastmail", "mailfence", "hushmail", "qq", "163", "126", "mail", "inbox", "web",
                        "rambler", "naver", "seznam", "libero", "orange", "laposte", "t-online", "freenet"})


def _outside(domain: str, page_host: str) -> bool:
    """An address at `domain` is outside the organisation whose page this is: another site, or, where the page
    is unknown, a personal mailbox anyone can open. A webmail of a free provider is a personal mailbox
    itself: every address is someone else's there, and the Send click asks."""
    mail_site = site_label(domain.lower())
    if not page_host:
        return mail_site in _FREE_MAIL
    page_site = site_label(page_host)
    if page_site in _FREE_MAIL or page_site in ("google", "microsoft", "office", "office365", "live", "yahoo"):
        return False
    return mail_site != page_site


def _field_lines(ctx: Context) -> str:
    return ctx.derived(_field_text).words


@rule("confirm.gui.outside-recipient", "An outside address typed as where messages, invitations or events go",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def outside_recipient(ctx: Context) -> str | None:
    """An e-mail address typed into a recipient field (To, Cc, Bcc, Recipient, Share with, Invite, Add
    member) whose domain is not the organisation of the page (a company's mail or workspace sending to
    another domain), or, with no page known, a personal mailbox at a free provider: where a message, a file,
    an invitation or a forwarded thread goes is decided here, and planted instructions name an address of
    their own. Likewise a URL on another site typed into a webhook, callback or redirect field: every event
    (pushes, issues, payments) or every sign-in is sent there. A colleague's address on the company's own
    domain, a hook on the same site or this machine, and a place name typed into a flight search's "To", do
    not ask."""
    text = ctx.action.text  # type: ignore[attr-defined]
    field = _field_lines(ctx)
    hook = _ONE_URL.match(text)
    if hook is not None:
        if not field or not _HOOK_FIELD.search(field):
            return None
        host, page = hook.group(1).lower(), ctx.derived(_page_host)
        if is_loopback(host) or (page and site_label(host) == site_label(page)):
            return None
        return f"events or sign-ins sent outside: {host!r} typed into {_short(ctx.derived(_field_text).raw, 40)!r}"
    m = _ONE_EMAIL.match(text)
    if m is None:
        return None
    if not field or not (_RECIPIENT_FIELD.search(field) or _FORWARD_TO.search(field)) or ctx.derived(_forwarding_field):
        return None
    if not _outside(m.group(1), ctx.derived(_page_host)):
        return None
    return f"a message addressed outside: {m.group(1)!r} typed into {_short(ctx.derived(_field_text).raw, 40)!r}"


@rule("block.gui.access-out", "Typing what lets mail out to an outside address: a forwarding address",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def access_out(ctx: Context) -> str | None:
    """An outside e-mail address typed into a forwarding field: every later message goes there, silently. It
    outlives the task and is how planted instructions keep reading the mailbox. An address on the page's own
    domain does not block. (A public key typed into a key field asks: `confirm.gui.access-key`.)"""
    text = ctx.action.text  # type: ignore[attr-defined]
    m = _ONE_EMAIL.match(text)
    if m is not None and ctx.derived(_forwarding_field) and _outside_forward(m.group(1), ctx.derived(_page_host)):
        return f"mail forwarded outside: {m.group(1)!r} typed into {_short(ctx.derived(_field_text).raw, 40)!r}"
    return None


# a private key anywhere in the text: never "only a public key"
_PRIVATE_KEY = re.compile(r"PRIVATE KEY|PuTTY-User-Key-File|\bPrivate-Lines:", re.IGNORECASE)


def _public_key_only(text: str) -> bool:
    """The typed text is a public key (an OpenSSH `ssh-ed25519 AAAA...` line, an ECDSA or security-key one, a PGP
    PUBLIC KEY BLOCK) and holds no private key: published by design, not a secret."""
    return _PUBLIC_KEY.match(text) is not None and _PRIVATE_KEY.search(text) is None


@rule("confirm.gui.access-key", "Typing a public key into a key field: whoever holds its private half gets in",
      risk=Risk.HIGH, types=("type",), confidence=0.8)
def access_key(ctx: Context) -> str | None:
    """A public SSH or PGP key typed into a key field or on a keys page (a deploy key, an account's SSH keys, a
    server's authorized keys): whoever holds the private half gets in, with no password, long after the task. It
    is no secret (it is not blocked as one), but the access it grants is the person's call. A key pasted into a
    chat message, or a private key (blocked as a secret), is not this rule's."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not _public_key_only(text):
        return None
    field = _field_lines(ctx)
    if (field and _KEY_FIELD.search(field)) or _KEY_PAGE.search(ctx.derived(_page_path)):
        where = _short(ctx.derived(_field_text).raw, 40) or ctx.derived(_page_path)
        return f"a public key typed into {where!r}: whoever holds its private half gets in"
    return None


def _outside_forward(domain: str, page_host: str) -> bool:
    """Forwarding to `domain` leaves the page's organisation (any address, where the page is unknown or is a
    personal mailbox: forwarding all of it elsewhere is never the errand)."""
    if not page_host:
        return True
    page_site = site_label(page_host)
    domain = domain.lower()
    if page_site in _FREE_MAIL or site_label(domain) != page_site:
        return True
    # the same name under another top-level name (example.com's page, an example.net address) is another owner
    return domain.rsplit(".", 1)[-1] != page_host.lower().rsplit(".", 1)[-1]


# "Forward all to external address": the mailbox's mail, though the label does not say "mail"
_FORWARD_ALL_BARE = re.compile(r"\b(?:forward|forwarding|redirect|auto ?forward) (?:of )?(?:all|everything|every "
                               r"message)\b")
# what makes a forwarding button every later message's, not one thread's
_ALL_MAIL = re.compile(r"\b(?:all|every|each|incoming|future|new|entire|whole)\b")
# where a forwarding button says the mail goes, without an address: outside the organisation
_OUTSIDE_IN_WORDS = re.compile(r"\bto (?:an? |my |the |your |their |some )?(?:external|outside|personal|private|"
                               r"third party|off ?site|non company|non corporate|gmail|yahoo|outlook com|"
                               r"proton(?:mail)?)"
                               r"(?: e ?mail| mail)?(?: address(?:es)?| accounts?| mailbox(?:es)?| inbox(?:es)?)?\b")


# a button that sets every later message to go elsewhere: forwarding, auto-forwarding, a redirect of all mail
_FORWARDS_ALL = re.compile(r"\b(?:forward|forwarding|auto ?forward|autoforward|redirect|redirection|relay)\b"
                           r"(?: \w+){0,6}? (?:all|every|each|incoming|future|new)?\b ?(?:e ?mails?|mail|mails|"
                           r"messages|inbox|mailbox)\b|\b(?:all|every|incoming) (?:e ?mails?|mail|messages) "
                           r"(?:\w+ ){0,2}(?:forwarded|redirected) to\b|\b(?:weiterleitung|weiterleiten|transférer|"
                           r"transfert|reenviar|reenvío|redirigir|encaminhar|inoltra|inoltro|doorsturen)\b")
_EMAIL_IN_LABEL = re.compile(r"[\w.+-]{1,64}@([\w-]{1,63}(?:\.[\w-]{1,63}){1,5})")


@rule("block.gui.forward-out-click", "A button that forwards a mailbox's mail to an outside address it names",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def forward_out_click(ctx: Context) -> str | None:
    """The clicked label sets up forwarding or a redirect of a mailbox's mail ("Forward all mail to
    x@example.net", "Add forwarding rule (incoming mail to ...)") and names the address, which is outside the
    page's organisation (any address where the page is unknown or is a personal mailbox): the click is the
    forwarding address typed and saved at once (`block.gui.access-out`). Every later message, resets and codes
    too, goes there silently. Forwarding to an address on the page's own domain asks (`confirm.gui.consequential`).
    One suspicious or phishing message forwarded to a reporting mailbox (`abuse@`, `phishing@`, `spam@`) at a
    listed brand's own domain, a government's or an anti-phishing group's is the report every bank and mail
    provider asks for, and passes."""
    label = ctx.derived(label_text)
    if "@" not in label.raw or _EMAIL_IN_LABEL.search(label.raw) is None:
        if _OUTSIDE_IN_WORDS.search(label.words) is None or _ALL_MAIL.search(label.words) is None or \
                not (_FORWARDS_ALL.search(label.words) or _FORWARD_ALL_BARE.search(label.words)):
            # "Forward all mail to an external address": the address is outside by the label's word; one thread
            # forwarded to a personal address is one message, and asks
            return None
        return f"mail forwarded outside by a button: {_short(label.raw, 60)!r}"
    if not _FORWARDS_ALL.search(label.words):
        return None
    m = _EMAIL_IN_LABEL.search(label.raw)
    if m is None or not _outside_forward(m.group(1), ctx.derived(_page_host)):
        return None
    if _REPORTS_ONE.search(label.words) is not None and _REPORT_MAILBOX.match(m.group(0)) is not None and \
            (own_site(m.group(1).lower()) or registrable(m.group(1).lower()) in _REPORTING_ORGS):
        return None  # one phishing mail reported to a brand's or an agency's abuse or phishing mailbox
    return f"mail forwarded outside by a button: {m.group(0)!r} in {_short(label.raw, 60)!r}"


# one message forwarded as a report: "Forward suspicious email to ...", "Forward this phishing message to ..."
_REPORTS_ONE = re.compile(r"^(?:forward|report|send)(?: as (?:phishing|spam|junk))? (?:this |the |that |a )?"
                          r"(?:suspicious|phishing|phishy|spam|scam|fraudulent|fake|spoofed|junk|suspected phishing|"
                          r"suspected spam|suspected scam)(?: \w+)? (?:e ?mail|mail|message|text|sms|attachment)\b")
# the anti-phishing working groups that take reports from anyone (a government's own domain is `own_site`)
_REPORTING_ORGS = frozenset({"apwg.org", "antiphishing.org", "spamcop.net", "phishtank.org", "phishtank.com"})
# the mailboxes brands, banks and agencies publish for phishing reports (abuse@, phishing@, spam@, reportphishing@)
_REPORT_MAILBOX = re.compile(r"(?:abuse|phishing|phish|reportphishing|report-phishing|report\.phishing|phishing-report|"
                             r"reportspam|report-spam|spam|spoof|spoofing|reportfraud|report-fraud|fraud|scam|scams|"
                             r"security-report|report|reportabuse|report-abuse|antiphishing|anti-phishing)@",
                             re.IGNORECASE)


@rule("confirm.gui.account-contact", "Changing an account's e-mail or phone", risk=Risk.HIGH, types=("type",),
      redact=("text",), confidence=0.75)
def account_contact(ctx: Context) -> str | None:
    """An e-mail address or phone number typed into an account's e-mail or phone field on its profile, account
    or security page, or into a recovery or backup e-mail or phone field on any page: the new address receives
    every password reset and sign-in code, so changing it hands the account over. An ordinary e-mail or phone
    field on a sign-up, sign-in, checkout or contact form does not ask."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if _ONE_EMAIL.match(text) is None and _ONE_PHONE.match(text) is None:
        return None
    field = _field_lines(ctx)
    if not field or not _CONTACT_FIELD.search(field):
        return None
    if not _RECOVERY_FIELD.search(field) and not _ACCOUNT_PAGE.search(ctx.derived(_page_path)):
        return None
    return f"changing the account's contact: typing into {_short(ctx.derived(_field_text).raw, 40)!r}"


# -- a setting whose value is the decision -------------------------------------------------------------


@rule("confirm.gui.setting-value", "Typing the value of a setting that decides access, money or where traffic goes",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def setting_value(ctx: Context) -> str | None:
    """The field's label names a consequential setting (`[setting-field.*]` of resources/cues.toml, in several
    languages) and the typed text is its value: an administrator's role ("admin", "owner", "root",
    "superuser") typed into a role, permission or group field; an amount typed into a deposit, withdrawal,
    transfer or payment amount; anything typed into a DNS record, a name server or mail server, a webhook,
    redirect or forwarding address; the account, IBAN or wallet address money is sent to. The Save comes
    later, but the value is the choice a person makes. A search box, a name, a shop's quantity and a note,
    a viewer's role, and figures in a spreadsheet or a calculator, do not ask."""
    field = ctx.derived(_field_text)
    if not field.words or ctx.derived(_credential_field) or _small_amount_to_known(ctx):
        return None
    book = ctx.compiled.cues
    candidates = book.setting_index.branches(field.words, field.keys)  # kinds with the branches to search
    if not candidates:
        return None
    if not _into_a_field(ctx):
        return None
    typed = ctx.derived(_typed)
    value = typed.words.strip()
    if not value or len(value) > 512:
        return None
    for i, branches in candidates:
        kind = book.setting_fields[i]
        if kind.search.search_among(field.words, branches) is None:
            continue
        if kind.value is not None and kind.value.search(value) is None:
            continue
        if _FIGURES_PLACE.search(f"{ctx.observation.app}\n{ctx.observation.window_title}"):
            return None  # a spreadsheet's or a calculator's cell: a figure, not a setting
        if kind.key == "routing" and mail_auth_record(typed.raw):
            return None  # SPF, DKIM or DMARC naming only known mail services: it sends no traffic elsewhere
        return f"{kind.name}: {_short(typed.raw, 40)!r} typed into {_short(field.raw, 40)!r}"
    return None


# -- money leaving through a transfer or payment form ---------------------------------------------------

# a field that names who receives money (one line of the field's label, name or role)
_PAYEE_FIELD = re.compile(
    either_spelling(
        r"^(?:payee|payees|payee name|beneficiary|beneficiary name|recipient|recipient name|recipient s name|"
    r"recipient (?:e ?mail|email address|phone|phone number|account|username|tag|handle|id)|pay to|pay whom|"
    r"send (?:money )?to|transfer to|to account|destination account|receiving account|receiver|account holder|"
    r"account holder name|(?:zahlungs)?empfänger|begünstigter|bénéficiaire|destinataire|beneficiario|"
    r"destinatario|favorecido|beneficiário|destinatário|получатель|收款人|收款方|受取人|振込先)$"), re.MULTILINE)
# a field that takes how much is sent
_AMOUNT_FIELD = re.compile(
    either_spelling(
        r"^(?:amount|sum|transfer amount|payment amount|amount to (?:send|pay|transfer|withdraw)|send amount|"
    r"you send|you pay|payout amount|withdrawal amount|amount \w{1,3}|amount in \w{1,10}|betrag|"
    r"überweisungsbetrag|montant|montant du virement|importe|monto|valor|quantia|importo|bedrag|сумма|"
    r"сумма перевода|金额|转账金额|金額|送金額|振込金額)$"), re.MULTILINE)
_AMOUNT = re.compile(r"^\s*(?:[$€£¥₹]|[A-Z]{3} )?\s*\d[\d ,.']{0,18}\s*(?:[$€£¥₹]|[A-Za-z]{3})?\s*$")
# a page or window that moves money out: a transfer, a payment to someone, a payout
_MONEY_PLACE = re.compile(
    either_spelling(
        r"\b(?:transfers?|send money|send payment|pay (?:someone|a friend|bills?|people)|payments?|wire|wires|"
    r"remit|remittance|payouts?|withdraw(?:al)?|zelle|überweisung|virement|transferencia|transferência|"
    r"bonifico|overboeking|перевод|转账|汇款|振込|送金)\b|/(?:transfer|transfers|send|send-money|sendmoney|"
    r"pay|payments?|payouts?|wire|remit|withdraw|move-money|p2p|zelle|bill-?pay)(?:[/?#\s]|$)"), re.IGNORECASE)
# a place where an amount is only a number: a spreadsheet, a calculator, a budget, a shop's cart
_FIGURES_PLACE = re.compile(
    r"\b(?:sheets?|spreadsheets?|excel|calc|libreoffice|numbers|calculator|budget|budgeting|converter|"
    r"estimator|planner|cart|basket|bag|quote|invoice editor|ledger|notebook|jupyter)\b|/(?:spreadsheets?|"
    r"calculator|cart|basket)(?:[/?#\s]|$)", re.IGNORECASE)


@rule("confirm.gui.money-out", "Typing who receives money or how much, on a transfer or payment form",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def money_out(ctx: Context) -> str | None:
    """A payee, recipient or beneficiary (on a transfer, payment or payout form, or where nothing is known of
    the page), or an amount (on such a form, as its address or the window's title says): who money goes to and
    how much is decided here, and planted instructions name an account of their own. An account number or
    an IBAN field is `confirm.gui.critical-point`. A quantity in a shop's cart, and an amount in a
    spreadsheet, a calculator or a budget, do not ask."""
    field = _field_lines(ctx)
    if not field or ctx.derived(_field_category) is not None:
        return None
    payee = _PAYEE_FIELD.search(field) is not None
    if not payee and (_AMOUNT_FIELD.search(field) is None or
                      _AMOUNT.match(ctx.action.text) is None):  # type: ignore[attr-defined]
        return None
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    place = f"{url}\n{ctx.observation.window_title}\n{ctx.observation.app}"
    if _FIGURES_PLACE.search(place):
        return None
    if place.strip() and not _MONEY_PLACE.search(place):
        return None  # a page known, and not one that moves money (an e-mail's recipient is outside-recipient)
    if not payee and not place.strip():
        return None  # an amount alone, on a page nobody knows: typing it moves nothing (the send asks)
    what = "who receives the money" if payee else "how much is sent"
    return f"money leaving: {what}, typed into {_short(ctx.derived(_field_text).raw, 40)!r}"


# -- spreadsheet formulas that run a program or send cells away --------------------------------------

# A dynamic data exchange call: `=cmd|' /c calc'!A1`, `@SUM(1)*cmd|'/c ...'!Z0`. The part before `|` names a
# program that the spreadsheet application asks Windows to start; no ordinary formula has `|'...'!`.
_DDE = re.compile(r"^\s*[=+\-@].{0,80}?\b[a-z][\w.]{1,40}\s*\|\s*'[^'\n]{0,200}'\s*!", re.IGNORECASE)
# A function that fetches a URL, with the URL built by joining cells to it: what the cells hold goes out in the
# request. A fixed URL (`=IMPORTXML("https://example.org/page", "//h1")`) only brings data in.
_FORMULA_OUT = re.compile(
    r"^\s*[=+@].{0,200}?\b(importxml|importdata|importhtml|importfeed|image|webservice)\s*\(\s*"
    r"(?:\"(?:https?:)?//[^\"\n]{1,300}\"\s*&"
    # or the URL and the cells joined by a function: CONCAT("https://x/?d=", A1), TEXTJOIN("", TRUE, "https://..", A1)
    r"|(?:concat|concatenate|textjoin|join)\s*\(\s*(?:\"[^\"\n]{0,10}\"\s*[,;]\s*(?:true|false|1|0)\s*[,;]\s*)?"
    r"\"(?:https?:)?//[^\"\n]{1,300}\"\s*[,;&])", re.IGNORECASE)


def _formula_field(ctx: Context) -> bool:
    """Typed into a form field or a spreadsheet cell; a terminal or an address bar judge the text otherwise."""
    where = ctx.derived(destination)
    return where is Destination.FIELD or where is Destination.UNKNOWN


@rule("block.gui.formula-command", "A spreadsheet formula that starts a program", risk=Risk.CRITICAL,
      types=("type",), confidence=0.9)
def formula_command(ctx: Context) -> str | None:
    """The typed text is a formula with a dynamic data exchange call (`=cmd|' /c calc'!A1`, a program's name,
    a bar and a quoted topic): when the sheet is opened or recalculated the spreadsheet asks the system to
    start that program with that command line. It is how a poisoned cell or an injected instruction runs
    code through an office application; no calculation needs it."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > 2048 or not _formula_field(ctx):
        return None
    m = _DDE.search(text)
    return f"a formula that starts a program: {_short(m.group(0), 50)!r}" if m else None


@rule("confirm.gui.formula-out", "A spreadsheet formula that sends cells to a web address", risk=Risk.HIGH,
      types=("type",), confidence=0.8)
def formula_out(ctx: Context) -> str | None:
    """The typed text is a formula that fetches a URL by itself (IMPORTXML, IMPORTDATA, IMAGE, WEBSERVICE...)
    built by joining cells onto it (with `&`, CONCAT, CONCATENATE or TEXTJOIN): every recalculation sends what
    those cells hold to that site. A formula with a fixed URL only brings data in and stays quiet, and so does
    HYPERLINK, which goes nowhere until a person clicks it."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > 2048 or not _formula_field(ctx):
        return None
    m = _FORMULA_OUT.search(text)
    return f"a formula that sends cells out in a request ({m.group(1).upper()})" if m else None


# a range of cells rather than one (`A2:A200`, a whole column `B:B`, `Sheet1!A:D`, a named table's column
# `Table1[Email]`), written after the URL a fetching formula builds
_CELL_RANGE = re.compile(r"(?:\b(?:'[^'\n]{1,60}'|[a-z_][\w.]{0,60})!)?\$?\b[a-z]{1,3}\$?\d*\s*:\s*"
                         r"\$?[a-z]{1,3}\$?\d*\b|\b[a-z_]\w{0,60}\[[^\]\n]{1,60}\]", re.IGNORECASE)


@rule("block.gui.formula-range-out", "A spreadsheet formula that sends a whole range of cells to a web address",
      risk=Risk.CRITICAL, types=("type",), confidence=0.85)
def formula_range_out(ctx: Context) -> str | None:
    """A formula that fetches a URL by itself (`confirm.gui.formula-out`) with a range of cells joined onto that
    URL (`"https://.../?d="&A2:A200`, `TEXTJOIN(",",TRUE,B:B)` after the address, a table's column): every
    recalculation sends a column of records, not one value, to that site. One cell joined on still asks, a
    range only read into a formula that fetches nothing (`=SUM(A2:A200)`) passes."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > 2048 or not _formula_field(ctx):
        return None
    m = _FORMULA_OUT.search(text)
    if m is None:
        return None
    found = _CELL_RANGE.search(text, m.end())
    if found is None:
        return None
    return f"a formula that sends the cells {found.group(0).strip()!r} out in a request ({m.group(1).upper()})"


# -- past a browser's security warning -------------------------------------------------------------------

_WARNING_TEXT_LIMIT = 4000  # a warning page says what it warns of at its top


def _goes_past_a_warning(ctx: Context) -> bool:
    """The clicked label leaves a warning page towards the site: an override by its meaning ("Proceed to x
    (unsafe)", "Accept the risk and continue") or a plain way on (`[interstitial.go-on]`: "Continue to site")."""
    label = ctx.derived(label_text)
    if not label.words:
        return False
    found = ctx.derived(label_consequence)
    if found is not None and found.kind == "overriding a security warning":
        return True
    go_on = ctx.compiled.cues.interstitial.get("go-on")
    return go_on is not None and go_on.fullmatch(label.words.split("\n", 1)[0].strip()) is not None


_ERROR_PAGE_SCHEMES = ("about:", "chrome:", "edge:", "chrome-error:", "edge-error:")


def _warning_page(ctx: Context) -> str | None:
    """What the page warns of: "phishing" (a deceptive or malware site) or "certificate" (a connection whose
    certificate does not check out), read from the window's title, the top of the page's text, and a browser's own
    error page's address ("about:certerror", "about:blocked")."""
    obs = ctx.observation
    url = obs.url or getattr(ctx.action, "url", None) or ""
    # a browser's own warning page is named by its address (`[interstitial-pages]`: "about:certerror") when its
    # text is not at hand: string tests only, and only for a browser's own addresses
    own = None
    if url.startswith(_ERROR_PAGE_SCHEMES):
        start = url[:64].lower()
        own = next((kind for kind, prefixes in ctx.compiled.cues.interstitial_pages.items()
                    if prefixes and start.startswith(prefixes)), None)
    if not obs.window_title and not obs.page_text:
        return own
    book = ctx.compiled.cues.interstitial
    texts = [_text(raw).words for raw in (obs.window_title, obs.page_text[:_WARNING_TEXT_LIMIT]) if raw]
    for kind in ("phishing", "certificate"):
        pattern = book.get(kind)
        if pattern is not None and any(pattern.search(t) for t in texts):
            return kind
    return own


# the way on that a phishing or malware warning offers, named with the danger: "visit this unsafe site", "continue to
# the deceptive site" (a certificate warning's "Proceed to x (unsafe)" names no site as dangerous)
_PAST_A_PHISHING_WARNING = re.compile(
    r"\b(?:visit|open|go to|continue to|proceed to|enter|load) (?:this|the) (?:unsafe|dangerous|deceptive|harmful|"
    r"malicious|phishing|suspicious) (?:site|web ?site|page)\b")


@rule("block.gui.unsafe-site-override", "Clicking past a warning that the site is phishing or malware",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def unsafe_site_override(ctx: Context) -> str | None:
    """The page is a browser's or the system's warning that the site ahead is deceptive, phishing or carries
    malware (`[interstitial.phishing]` of resources/cues.toml: "Deceptive site ahead", "reported as unsafe",
    "contains malware") and the click goes past it ("Proceed to x (unsafe)", "Visit this unsafe site",
    "Continue to site"), or the label itself names the danger it goes past ("visit this unsafe site", a Safe
    Browsing page's link under Details). The browser stopped the page for a reason; no task needs the agent past
    it."""
    # (the page first: most clicks are on no warning page, and reading that costs no search of the label)
    if ctx.derived(_warning_page) != "phishing":
        # a warning page's own link names the danger it goes past ("visit this unsafe site" under Details): the
        # label says which warning it is when neither the page's text nor its title is at hand
        label = ctx.derived(label_text)
        if not label.words or "site" not in label.words or _PAST_A_PHISHING_WARNING.search(label.words) is None:
            return None
    elif not ctx.derived(_goes_past_a_warning):
        return None
    return f"going past a phishing or malware warning: {_short(ctx.derived(label_text).raw)!r}"


@rule("confirm.gui.certificate-override", "Clicking past a certificate warning", risk=Risk.HIGH,
      types=("click",), confidence=0.8)
def certificate_override(ctx: Context) -> str | None:
    """The page warns that the connection's certificate does not check out (`[interstitial.certificate]`:
    "Your connection is not private", "Potential security risk ahead", an ERR_CERT code) and the click goes
    on to the site ("Accept the risk and continue", "Proceed to x (unsafe)", "Continue"). A person's own
    test server often has such a certificate; a person decides. A phishing warning is
    `block.gui.unsafe-site-override`."""
    if ctx.derived(_warning_page) != "certificate" or not ctx.derived(_goes_past_a_warning):
        return None
    return f"going past a certificate warning: {_short(ctx.derived(label_text).raw)!r}"


# a wallet's signature that hands an operator every token of a kind: a collection's approval for all, an allowance
# of the largest number there is ("approve(spender, 2**256-1)"), or the wallet's own words for it
_BLANKET_APPROVAL = re.compile(
    r"\bsetapprovalforall\s*\(\s*[^,()]{1,80},\s*true\s*\)|"
    r"\b(?:approve|increaseallowance|permit)\s*\(\s*[^,()]{1,80},\s*(?:0x[f]{32,64}|1157920892373161954235709850086879"
    r"07853269984665640564039457584007913129639935|max(?:_?uint(?:256)?)?|type\s*\(\s*uint256\s*\)\s*\.\s*max|"
    r"unlimited|2\s*\*\*\s*256\s*-\s*1|uint256\.max)\s*[,)]", re.IGNORECASE)
_BLANKET_WORDS = re.compile(r"\b(?:access|withdraw|transfer|spend|move) (?:to |and transfer )?(?:all|any amount) "
                            r"(?:of )?your (?:\w+ )?(?:nfts?|tokens|collectibles|assets|funds|coins|balance|usdc|usdt|"
                            r"dai|eth|weth|sol|crypto)\b|\bset approval for all\b.{0,40}\btrue\b")


# a wallet prompt's own answer that signs what it shows
_WALLET_ANSWER = re.compile(r"^(?:confirm|approve|sign|accept|allow|yes|ok|continue|submit|sign and approve)$")
# a prompt whose title says the approval is taken back or lowered ("Revoke setApprovalForAll", "..., false")
_TITLE_TAKES_BACK = re.compile(r"\b(?:revoke|revoking|remove|cancel|reset|decrease|reduce|lower|disable|false)\b")


@rule("block.gui.wallet-blanket-approval", "Signing a wallet approval of every token or an unlimited allowance",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def wallet_blanket_approval(ctx: Context) -> str | None:
    """The clicked label confirms a wallet call that lets another address move every token of a collection
    (`setApprovalForAll(operator, true)`) or an unlimited amount of a token (`approve(spender, 2**256-1)`,
    `type(uint256).max`, "unlimited"), or the wallet's own words for it ("Give access to all your NFTs"): the
    drainer's signature, after which the operator empties the wallet with no further prompt. An approval of a
    stated amount, or taking one back (`setApprovalForAll(operator, false)`), does not block here. A wallet's
    prompt names the call in its window's title ("MetaMask Notification - setApprovalForAll"): its bare "Confirm",
    "Approve" or "Sign" is that call signed; its "Reject" is not."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    if _WALLET_ANSWER.match(label.words.split("\n", 1)[0].strip()) is not None:
        title = (ctx.observation.window_title or "")[:256].lower()
        if title and (m := _scam_parts(ctx.compiled.cues).wallet_blanket.search(_SLUG.sub(" ", title))) is not None \
                and _TITLE_TAKES_BACK.search(title) is None:
            return f"{_short(label.raw)!r} on a wallet prompt for {m.group(0)!r}: every token or an unlimited amount"
    raw = label.raw[:2048]
    if _BLANKET_APPROVAL.search(raw) is None and _BLANKET_WORDS.search(_SLUG.sub(" ", raw.lower())) is None:
        return None
    return f"a wallet approval that hands over every token or an unlimited amount: {_short(label.raw)!r}"


# the whole internet as an address range, IPv4 or IPv6 ("0.0.0.0/0", "::/0"), maybe with "Anywhere" beside it
_EVERYWHERE = re.compile(r"^\s*(?:0\.0\.0\.0/0|::/0|0::/0|0\.0\.0\.0/0\s*,\s*::/0|\*)\s*$")
# a field or a page that sets who may connect: an inbound rule's source, a security group, an allow list
_SOURCE_FIELD = re.compile(r"\b(?:source|sources|inbound|ingress|allowed ips?|allow from|allowed from|cidr|ip range|"
                           r"ip ranges|firewall|security group|authori[sz]ed networks?|whitelist|allowlist|allow list|"
                           r"trusted ips?|ip address range|address prefix|remote ip|ip rules?|access list|acl)\b")
_SOURCE_PAGE = re.compile(r"(?:firewall|security-?groups?|securitygroup|network-?security|ingress|inbound|"
                          r"authorized-?networks|networking|acl|access-?control)", re.IGNORECASE)
# a port or a service a stranger must never reach from anywhere: remote shells and desktops, databases, caches
_ADMIN_SERVICE = re.compile(r"\b(?:ssh|rdp|remote desktop|winrm|telnet|vnc|smb|22|3389|5985|5986|23|5900|445|"
                            r"database|db|mysql|mariadb|postgres|postgresql|mssql|sql server|mongo|mongodb|redis|"
                            r"elasticsearch|memcached|3306|5432|1433|27017|6379|9200|11211|all traffic|all ports|"
                            r"all tcp|all udp|all protocols|any port|0 65535|1 65535)\b")
_NOT_SOURCE = re.compile(r"\b(?:search|filter|find|query|name|description|tag|tags|label|note|comment)\b")
_WEB_SERVICE = re.compile(r"\b(?:http|https|80|443|web|website)\b")


@rule("confirm.gui.open-to-internet", "The whole internet typed as who may reach a remote shell, desktop or database",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def open_to_internet(ctx: Context) -> str | None:
    """`0.0.0.0/0` or `::/0` typed as the source of a firewall or security-group rule (the field or the page says
    so: an inbound rule's source, an allow list, authorised networks) for SSH, RDP, a database or all ports, or
    for a rule whose field and page name no port: cloud providers' security guidance says admin and database
    ports are never opened to everyone, and scanners find such a port within minutes. The same range for a web
    port (80, 443) passes, and so does a single address or an office's range."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) > 24 or _EVERYWHERE.match(text) is None:
        return None
    field = ctx.derived(_field_text).words
    if not (field and _SOURCE_FIELD.search(field)):
        # a field the page alone says sets a rule's source: a firewall or security-group page, not its search box
        path = f"{ctx.derived(_page_host)}{ctx.derived(_page_path)}"
        if (field and _NOT_SOURCE.search(field)) or not _into_a_field(ctx) or not _SOURCE_PAGE.search(path):
            return None
    about = f"{field} {ctx.observation.window_title.lower()}"
    service = _ADMIN_SERVICE.search(about)
    if service is None and _WEB_SERVICE.search(about):
        return None
    what = f"for {service.group(0)!r}" if service else "for a rule that names no port"
    return f"{text.strip()!r} lets anyone on the internet connect {what}"


# -- a card that is not the person's, a token nobody vouches for, records sent to a site the label names ------------

# a card or a payment method added, saved or used ("Add payment method", "Save card", "Use this card")
_ADDS_CARD = re.compile(r"^(?:add|save|use|link|enter|register|attach|store|set up|add new|add a new|add another)\b"
                        r"(?: \w+){0,3}? (?:payment methods?|payment cards?|cards?|credit cards?|debit cards?|"
                        r"bank cards?|card details|card number|virtual cards?|gift cards? as payment)\b")
# where its details came from, when they are not the person's own card in hand: a picture or a message someone sent,
# a chat, a post; another person's card; a card found, bought or leaked
_NOT_OWN_CARD = re.compile(
    r"\b(?:from|in|off|out of|using|via|per|off of) (?:a |an |the |this |that |my |our |their |his |her |some )?"
    r"(?:\w+ ){0,3}?(?:screenshot|screen shot|screengrab|group chat|chat|chats|message|messages|text message|text|"
    r"texts|sms|e ?mail|dm|dms|direct message|post|forum|thread|whats ?app|telegram|discord|slack|paste|pastebin|"
    r"dump|leak)\b|"
    r"\b(?:someone|somebody|someone else|another person|another user|a stranger|stranger|friend|coworker|co worker|"
    r"colleague|neighbou?r|roommate|boss|client|customer|buyer|seller|caller|tenant|landlord|other person) s "
    r"(?:\w+ )?(?:card|cards|credit card|debit card|card details|payment method)\b|"
    r"\b(?:found|stolen|leaked|dumped|borrowed|shared|forwarded|received|bought|purchased|cloned) "
    r"(?:\w+ )?(?:card|cards|card details|card number|cc|ccs)\b|\bcard (?:details |number )?"
    r"(?:shared|sent|posted|forwarded|texted|received) (?:in|on|by|via|from|over)\b")


@rule("block.gui.borrowed-card", "Adding a payment card whose details came from someone else or a picture of it",
      risk=Risk.CRITICAL, types=("click",), confidence=0.75)
def borrowed_card(ctx: Context) -> str | None:
    """The clicked label adds, saves or uses a card or a payment method and says its details came from
    somewhere that is not the person's own card: a screenshot or a message someone sent, a chat or a forum post,
    another person's card, a card found, bought or leaked ("Add payment method from the group chat screenshot",
    "Save card details sent in DM", "Use coworker's credit card"). A card used without its holder's say is card
    fraud whoever meant well, and a card passed around in a picture is how stolen numbers travel. Adding one's own
    card, scanning it with the camera or adding it from a phone's wallet asks as any payment method does
    (`confirm.gui.consequential`)."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or len(first) > 300 or _ADDS_CARD.match(first) is None or "gift" in first:
        return None  # a gift card is meant to be passed on: one received by mail or message is the person's to use
    m = _NOT_OWN_CARD.search(first)
    if m is None:
        return None
    return f"a card added whose details are not the person's own ({m.group(0)!r}): {_short(label.raw)!r}"


# a trade into a token: a swap, a buy, a bridge ("Swap 1 ETH for PEPE", "Buy $XYZ", "Confirm swap")
_TRADES_TOKEN = re.compile(r"^(?:confirm |review |approve )?(?:swap|buy|trade|exchange|convert|bridge|ape|ape into|"
                           r"purchase|snipe|get|mint)\b")
# what a wallet or an exchange says of a token nobody vouches for: not on its lists, unverified, imported by its
# address, an airdrop nobody asked for, a warning of a scam or a token that cannot be sold again
_UNVETTED_TOKEN = re.compile(
    r"\b(?:unverified|not verified|unknown|unlisted|not listed|unrecogni[sz]ed|imported|custom|unsupported|"
    r"new|suspicious|flagged|spam|scam|fake|honeypot|rug ?pull|low liquidity|no liquidity|high risk|warning)"
    r"(?: \w+)? (?:token|tokens|coin|coins|asset|contract)\b|\b(?:token|coin|asset)s? (?:is |are )?(?:unverified|"
    r"not verified|unknown|unlisted|flagged|suspicious)\b|\bairdrop(?:ped|s)?\b|"
    r"\b(?:unverified|not verified|unlisted|unrecogni[sz]ed|honeypot|rug ?pull)\b|\bnot on (?:the |any |your )?"
    r"(?:default |verified )?token lists?\b|\bisn t traded on (?:leading|major)\b|\bnot traded on (?:leading|major)\b")


@rule("confirm.gui.unverified-token", "Trading into a token the wallet or exchange does not vouch for",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def unverified_token(ctx: Context) -> str | None:
    """The clicked label swaps, buys or bridges into a token the label calls unverified, unknown, imported, an
    airdrop or flagged ("Swap 2 ETH for 'FREE-AIRDROP' (unverified token)", "Buy imported token"). Exchanges' and
    wallets' help pages warn that anyone can create a token with any name, that airdropped tokens are bait for a
    site that drains the wallet, and that some cannot be sold again: the money is gone in one click. A swap
    between well-known tokens passes; an approval of every token blocks (`block.gui.wallet-off-app`)."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or len(first) > 300 or _TRADES_TOKEN.match(first) is None:
        return None
    m = _UNVETTED_TOKEN.search(first)
    if m is None:
        return None
    return f"a trade into a token nobody vouches for ({m.group(0)!r}): {_short(label.raw)!r}"


_SENSITIVE_OUT = "sharing or exporting a person's genetic, health or financial data"
# an identity document sent somewhere: a passport's or a licence's photo or scan uploaded, shared or mailed. Uploaded
# on the site that asks for it (a renewal, an exchange's check) it passes; to another site the label names it blocks
_ID_DOCUMENT_SENT = re.compile(r"^(?:upload|send|share|email|e mail|mail|forward|submit|transfer)\b(?: \w+){0,4}? "
                               r"(?:passport|passports|driver s licen[cs]e|drivers licen[cs]e|driving licen[cs]e|"
                               r"national id|id card|identity card|social security card|ssn card|residence permit|"
                               r"birth certificate|green card)\b")
# a site the label names as where something goes: "... to records-helper.example.net", "... upload to example.top"
_TO_SITE = re.compile(r"\b(?:to|with|into|onto|via|on) (?:https?://|[\w.+-]{1,64}@)?"
                      r"((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,6}[a-z]{2,24})\b")
# a file's name is not a site: "report.pdf", "records.zip"
_FILE_SUFFIX = frozenset({"pdf", "doc", "docx", "xls", "xlsx", "xlsm", "csv", "txt", "zip", "rar", "7z", "gz", "tar",
                          "json", "xml", "jpg", "jpeg", "png", "gif", "heic", "tif", "tiff", "ppt", "pptx", "odt",
                          "ods", "rtf", "html", "htm", "dcm", "hl7", "ccd", "ccda", "fhir", "md", "zipx", "eml", "msg"})


@rule("block.gui.records-to-named-site", "A person's health, tax or financial records sent to another site",
      risk=Risk.CRITICAL, types=("click",), confidence=0.75)
def records_to_named_site(ctx: Context) -> str | None:
    """The clicked label shares, uploads, sends or downloads-and-uploads a person's health, genetic, tax or
    financial records (`[consequence.sensitive-data-out]` of resources/cues.toml: a medical record, a medication
    history, employees' W-2s) or an identity document (a passport's or a licence's photo) and names the site they
    go to (or an address there), which is not the site the page is on ("Download
    full medical record and upload to symptom-check.example.net"). Nothing an errand needs sends a chart to a
    site the record's own portal never named; patient-portal and tax-filing help pages warn of exactly these
    "helper" sites. Sharing records inside the portal, or with no site named, asks (`confirm.gui.consequential`)."""
    label = ctx.derived(label_text)
    if not label.words or "." not in label.raw or len(label.raw) > 512:
        return None
    if of_kind(label.words, _SENSITIVE_OUT, label.keys, ctx.compiled.cues) is None and \
            _ID_DOCUMENT_SENT.search(label.words) is None:
        return None
    page_site = registrable(ctx.derived(_page_host).lower())
    for m in _TO_SITE.finditer(label.raw.lower()):
        host = m.group(1)
        if host.rsplit(".", 1)[-1] in _FILE_SUFFIX or registrable(host) == page_site:
            continue
        return f"a person's records sent to {host!r}, another site than the page's: {_short(label.raw)!r}"
    return None


_SOFTWARE_OR_ACCESS = frozenset({"installing or running software", "permissions and access",
                                 "administrator rights or a standing permission"})
# a remote-control program or a screen share named in the label: what tech-support scams have their victims install
# (read on the word form, where "TeamViewer" is "team viewer")
_REMOTE_TOOL = re.compile(r"\b(?:any ?desk|team ?viewer|screen ?connect|connect ?wise|ultra ?viewer|supremo|rust ?desk|"
                          r"log ?me ?in|splashtop|zoho assist|quick assist|remote ?pc|ammyy|"
                          r"remote (?:access|desktop|control|support)|screen ?(?:share|sharing|control))\b")


@rule("block.gui.install-on-say-so", "Installing software or granting access because a caller or a message said to",
      risk=Risk.CRITICAL, types=("click",), confidence=0.75)
def install_on_say_so(ctx: Context) -> str | None:
    """The clicked label installs or runs software, grants access or rights, or names a remote-control tool, and
    says a stranger asked for it (`scam_say_so` of resources/cues.toml: a caller, a text, someone met on a forum,
    "as the pop-up says"): "Install AnyDesk as instructed by the support caller", "Allow screen control as the
    pop-up says"; or it installs or grants such access, or shares the screen ("Share screen", "Give control"),
    while the active window shows a call with someone presenting as the person's bank, an account's fraud desk or
    tech support (`[context.support-call]`: "Call with 'Bank Security'", "Zoom - Account Support"), or downloads or
    starts anything from a scare pop-up (`[context.scare-window]`: "VIRUS ALERT FROM MICROSOFT"). The FTC's and
    Microsoft's tech-support-scam pages: no company calls to have a program installed or a screen shared, and
    the program hands the machine to the caller. Installing a program the person chose asks
    (`confirm.gui.consequential`)."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or len(first) > 300:
        return None
    found = ctx.derived(label_consequence)
    shares = _SHARES_SCREEN.match(first) is not None or _GIVE_CONTROL.search(first) is not None
    if (found is None or found.kind not in _SOFTWARE_OR_ACCESS) and _REMOTE_TOOL.search(first) is None and \
            not shares and not (_FETCHES.match(first) and ctx.derived(scare_window) is not None):
        return None
    m = _scam_parts(ctx.compiled.cues).say_so.search(first)
    if m is not None:
        return f"software or access given because a stranger asked ({m.group(0)!r}): {_short(label.raw)!r}"
    what = "the screen shared" if shares else "software or access given"
    call = ctx.derived(support_call)
    if call is not None:
        return f"{what} during a call with someone presenting as support ({call!r}): {_short(label.raw)!r}"
    scare = ctx.derived(scare_window)
    if scare is not None:
        return f"{what} from a scare pop-up ({scare!r}): {_short(label.raw)!r}"
    return None


# a label that fetches or starts a program ("Download support tool", "Run the fix"): from a scare pop-up, the scam's
# tool
_FETCHES = re.compile(r"^(?:download|install|run|get|open|start|launch)\b")
# sharing the screen or the desktop in a call or a meeting
_SHARES_SCREEN = re.compile(r"^(?:share (?:(?:your|my|the|this|entire|whole|full) ){0,2}(?:screen|desktop|display|"
                            r"window)s?|"
                            r"start (?:screen )?sharing|screen ?share|present (?:now|(?:your |my )?screen))\b")


def support_call(ctx: Context) -> str | None:
    """The call or meeting the active window shows, when the other side presents as the person's bank, an
    account's security or fraud desk or a company's tech support (`[context.support-call]` of resources/cues.toml,
    read on the window's title and program)."""
    pattern = ctx.compiled.cues.context.get("support-call")
    obs = ctx.observation
    if pattern is None or not (obs.window_title or obs.app):
        return None
    m = pattern.search(_text(f"{obs.window_title[:256]} - {obs.app[:80]}").words)
    return m.group(0) if m is not None else None


def _remote_session(ctx: Context) -> str | None:
    """A remote-control session in progress, as the active window's title or program says it
    (`[context.remote-session-active]`)."""
    pattern = ctx.compiled.cues.context.get("remote-session-active")
    obs = ctx.observation
    if pattern is None or not (obs.window_title or obs.app):
        return None
    m = pattern.search(_text(f"{obs.window_title[:256]} - {obs.app[:80]}").words)
    return m.group(0) if m is not None else None


_BARE_GO_ON = re.compile(r"^(?:confirm|continue|submit|send|next|ok|yes|approve|authori[sz]e|done)$")
_PAYMENT_PAGE = re.compile(r"^[a-z]+://[^/]*(?:zelle|venmo|paypal|wise|westernunion|moneygram|remitly|cash\.app)\b|"
                           r"/(?:send|send-money|transfer|transfers|payments?|pay|wire|withdraw|payees?)(?:[/?#]|$)",
                           re.IGNORECASE)


@rule("block.gui.pay-under-remote-control", "Moving money while a remote-control session or a support caller is on",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8, needs="window")
def pay_under_remote_control(ctx: Context) -> str | None:
    """The click sends, pays or transfers money while the active window says a remote-control program is connected
    ("AnyDesk session active", "Someone is controlling your computer") or shows a call with someone presenting as
    the person's bank, its fraud desk or tech support ("Call with 'Bank Security'"). That is the refund and
    safe-account scam's last step: the caller watches, or drives, the transfer "to protect the money". The same
    payment with no session or such call on asks (`confirm.gui.consequential`)."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or len(first) > 200:
        return None
    if not _moves_money(ctx, label):
        url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
        if not (_BARE_GO_ON.match(first) and _PAYMENT_PAGE.search(url[:256])):
            return None  # (a bare "Confirm" or "Send" on a transfer or payment page is that payment)
    session = ctx.derived(_remote_session)
    if session is not None:
        return f"money moved while a remote-control session is on ({session!r}): {_short(label.raw)!r}"
    call = ctx.derived(support_call)
    if call is not None:
        return f"money moved during a call with someone presenting as support ({call!r}): {_short(label.raw)!r}"
    return None


# -- money and account safeguards taken down by a click ----------------------------------------------------

# a go-ahead: continuing, paying or sending (in the languages of the banks that check a payee's name)
_GO_AHEAD = re.compile(r"^(?:yes |ok |i understand(?: the risks?)? |understood )?(?:continue|proceed|pay|send|transfer|"
                       r"submit|confirm|make (?:the |this )?payment|go ahead|carry on|approve|authori[sz]e|add payee|"
                       r"save payee|weiter|fortfahren|trotzdem|überweisen|ausführen|continuer|payer|envoyer|valider|"
                       r"continuar|pagar|enviar|transferir|procedi|continua|paga|invia|doorgaan|betalen|overmaken|"
                       r"toch)\b")
# what a confirmation-of-payee, NameCheck or verification-of-payee answer says when the name is not the account's
_PAYEE_MISMATCH = re.compile(
    r"\b(?:name|names|payee|payee s name|account name|account holder|holder|recipient|beneficiary)(?: \w+){0,3}? "
    r"(?:doesn t|does not|didn t|did not|don t|do not|won t|may not|might not) match\b|\b(?:no match|not a match|"
    r"close match|partial match|partly matches|likely mismatch|possible mismatch|name mismatch|mismatch|mismatched|"
    r"could not (?:be )?(?:check|verif)\w*|unable to (?:check|verify) (?:the )?(?:name|payee)|"
    r"stimmt nicht überein|keine übereinstimmung|teilweise übereinstimmung|empfängerüberprüfung|"
    r"ne correspond pas|no coincide|não corresponde|nao corresponde|não confere|non corrisponde|"
    r"komt niet overeen|niet overeen)\b")
# the names of the check itself: with "anyway" on the button, the check said no
_PAYEE_CHECK = re.compile(r"\b(?:name check|namecheck|confirmation of payee|verification of payee|payee check|"
                          r"payee verification|empfängerüberprüfung|vérification du bénéficiaire|"
                          r"verification du beneficiaire|verificación del beneficiario|verificacion del beneficiario|"
                          r"verifica del beneficiario|naamcontrole|naam check)\b")
# a bank's own warning before a payment that its checks flagged
_SCAM_WARNING = re.compile(r"\b(?:(?:this|it) (?:could|may|might) be (?:a )?(?:scam|fraud)|looks like (?:a )?scam|"
                           r"scam warning|fraud warning|high risk payment|possible scam|likely scam|suspected scam|"
                           r"(?:purchase|impersonation|investment|safe account|romance) scam|is this a scam|"
                           r"betrugswarnung|möglicher betrug|arnaque possible|posible estafa|possibile truffa)\b")
_ANYWAY = re.compile(r"\b(?:anyway|anyways|regardless|despite|nonetheless|even so|trotzdem|quand m[eê]me|malgr[eé]|"
                     r"de todos modos|de todas formas|igualmente|mesmo assim|comunque|lo stesso|toch)\b")


@rule("block.gui.payee-mismatch-override", "Paying on after the bank said the payee's name does not match",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def payee_mismatch_override(ctx: Context) -> str | None:
    """The click goes ahead with a payment ("Continue anyway", "Pay anyway", "Trotzdem überweisen") that the
    bank's payee check (the UK's Confirmation of Payee, Australia's NameCheck, the EU's Verification of Payee)
    answered with "no match", "close match" or "the name doesn't match the account": the label, the window's
    title or the page says so; or "anyway" past the bank's own scam warning ("This could be a scam"). That
    answer is how banks catch invoice redirection and impostors, and money sent
    past it is the sender's loss. "Cancel payment", "Edit payee details" and a plain "Continue" where the name
    matched pass."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or len(first) > 300 or _GO_AHEAD.match(first) is None:
        return None
    title = _text(ctx.observation.window_title[:256]).words if ctx.observation.window_title else ""
    said = _PAYEE_MISMATCH.search(label.words) or (_PAYEE_MISMATCH.search(title) if title else None)
    if said is None and _ANYWAY.search(first) is not None:
        # "Pay anyway (NameCheck)": the button goes on past the check, which said no; "Continue anyway" under
        # the bank's own "This could be a scam" warning
        said = _PAYEE_CHECK.search(label.words) or (_PAYEE_CHECK.search(title) if title else None) or \
            _SCAM_WARNING.search(label.words) or (_SCAM_WARNING.search(title) if title else None)
    if said is None:
        return None
    return f"a payment continued after the payee check said {said.group(0)!r}: {_short(label.raw)!r}"


# a card's or an account's protection against fraud: online payment security, 3-D Secure, card controls, alerts
_CARD_GUARD = (r"(?:online (?:payment|purchase|shopping|transaction)s? (?:security|protection|verification)|"
               r"3 ?d ?secure|3ds|verified by visa|visa secure|mastercard (?:securecode|identity check)|safekey|"
               r"protectbuy|card controls?|card lock|card security|payment (?:security|protection|verification)|"
               r"(?:transaction|purchase|spending|card) (?:alerts|notifications|verification)|"
               r"fraud (?:alerts|protection|monitoring|detection|checks?|screening)|location (?:based )?security|"
               r"geo ?(?:blocking|security|protection)|travel (?:lock|block)|strong customer authentication|"
               r"secure (?:payments?|checkout) (?:verification|authentication)|security lock|payment lock|"
               r"(?:account|security|balance|payment|login|sign in|withdrawal|card) alerts|gambling (?:block|blocker)|"
               r"spending (?:block|controls?)|merchant (?:block|blocking))")
_GUARD_OFF = re.compile(r"^(?:disable|turn off|switch off|deactivate|remove|opt out of|bypass|skip|stop|pause|"
                        r"unsubscribe from|deaktivieren|ausschalten|désactiver|desactivar|desativar|disattiva|"
                        r"uitschakelen)\b(?: \w+){0,3}? " + _CARD_GUARD + r"\b|^" + _CARD_GUARD +
                        r"(?: \w+){0,3}? (?:off|disabled|deaktiviert|désactivé|desactivado|desativado|disattivato)$")
# a limit on what leaves an account raised or taken away
_LIMIT_UP = re.compile(r"^(?:increase|raise|lift|boost|extend|up|remove|max out|erhöhen|augmenter|aumentar|aumentare|"
                       r"verhogen)\b(?: \w+){0,4}? (?:limit|limits|cap|ceiling|maximum|limite|límite|limiet)\b|"
                       r"^(?:set|change)\b(?: \w+){0,4}? (?:limit|limits) to (?:no limit|unlimited|maximum|max)\b|"
                       r"^(?:remove|disable|turn off)\b(?: \w+){0,3}? "
                       r"(?:daily |transfer |payment |withdrawal |spending |"
                       r"transaction |atm )?(?:limit|limits|cap)\b")
# (a credit or an overdraft limit is borrowing, asked of the lender, and is not here)
_MONEY_LIMIT = re.compile(r"\b(?:daily|weekly|monthly|transfer|payment|payments|withdrawal|atm|spending|transaction|"
                          r"sending|send|zelle|interac|e transfer|pay anyone|bpay|wire|online|contactless|"
                          r"cash|purchase)\b")
# a folder, a project or a space made visible to people outside the organisation
_OUTSIDE_VISIBLE = re.compile(
    r"\b(?:visible|accessible|available|open|shared|viewable|discoverable|searchable|editable)\b(?: \w+){0,2}? "
    r"(?:to|with|for|by) (?:all |every |any |the )?(?:external|outside|guest|guests|public|people outside|"
    r"non members|anyone (?:outside|with the link|on the internet)|everyone outside|the whole internet|"
    r"collaborators outside|partners|vendors|contractors)\b"
    r"|^(?:allow|enable|turn on|permit|open up)\b(?: \w+){0,2}? (?:external|guest|outside|anonymous|public) "
    r"(?:sharing|access|collaborators?|users|links?|viewers?)\b(?! (?:alerts?|notifications?|reports?|warnings?|"
    r"audit|audits|logs?|review|reviews)\b)")
_LESS_VISIBLE = re.compile(r"^(?:hide|remove|revoke|restrict|limit|disable|turn off|stop|block|disallow|"
                           r"make private)\b")
# an organisation's top role given to an address or a user ("Add 'x@...' as Global Admin", "Make owner")
_TOP_ROLE = re.compile(r"^(?:add|assign|make|grant|set|invite|promote|give)\b(?: \w+){0,12}? (?:as |to |the )?(?:an? )?"
                       r"(?:global (?:admin|administrator)|super ?(?:admin|administrator|user)|(?:org|organi[sz]ation|"
                       r"tenant|domain|workspace|company|enterprise) (?:admin|administrator|owner)|primary owner|"
                       r"account owner|organi[sz]ation owner)s?(?: role| rights| access| permissions?)?"
                       r"(?: to \w+(?: \w+){0,3})?$")
# a storage bucket's or container's grant to anyone on the internet (S3's "Everyone (public access)", Google Cloud's
# allUsers, Azure's anonymous access level)
_PUBLIC_GRANT = re.compile(r"^(?!.*\b(?:private|no anonymous|no public)\b)(?:.*)\b(?:everyone public access|"
                           r"anonymous (?:read )?access|allusers|allauthenticatedusers|public read(?: write)?"
                           r"(?: access)?)\b(?!.{0,20}\b(?:off|none|disabled)\b)")
# ... Google Cloud's allUsers and allAuthenticatedUsers (read "all users" once camel case is split), on a cloud console
_ALL_USERS = re.compile(r"^(?!.*\b(?:remove|revoke|delete)\b).*\ball (?:authenticated )?users\b")
_CLOUD_CONSOLE = re.compile(r"(?:^|\.)(?:console\.cloud\.google\.com|console\.aws\.amazon\.com|portal\.azure\.com|"
                            r"cloud\.digitalocean\.com|console\.wasabisys\.com|dash\.cloudflare\.com)$")
# a password manager's vault written out unencrypted
_VAULT_EXPORT = re.compile(r"^(?:export|download|save|back up|backup|dump|exportieren|exporter|exportar|esporta|"
                           r"exporteren)\b")
_PLAIN = re.compile(r"\b(?:unencrypted|not encrypted|without encryption|no encryption|plain ?text|cleartext|"
                    r"unverschlüsselt|non chiffré|non chiffre|sin cifrar|sem criptografia|non crittografato|"
                    r"onversleuteld)\b")
_PLAIN_FORMAT = re.compile(r"\b(?:csv|json|txt|xlsx?|html)\b")
_ENCRYPTED = re.compile(r"\b(?:encrypted|password protected|passphrase protected|verschlüsselt|chiffré|cifrado|"
                        r"criptografado|crittografato|versleuteld)\b")
_VAULT_WORDS = re.compile(r"\b(?:vault|vaults|passwords|password|logins|credentials|passkeys|secrets|items|"
                          r"keychain)\b")
_PASSWORD_MANAGER = re.compile(r"\b(?:1password|bitwarden|lastpass|dashlane|keeper|nordpass|proton ?pass|roboform|"
                               r"enpass|keepass(?:xc)?|kee ?pass|passbolt|zoho vault|sticky password|"
                               r"password manager|passwords|keychain|vault)\b", re.IGNORECASE)


@rule("confirm.gui.safeguard-lowered", "Turning off a card's fraud protection, raising a transfer limit, opening "
      "a folder to outsiders or exporting a password vault unencrypted", risk=Risk.HIGH, types=("click",),
      confidence=0.75)
def safeguard_lowered(ctx: Context) -> str | None:
    """The click takes down what limits a loss. A card's online-payment security, 3-D Secure, card controls or
    fraud alerts turned off ("Turn off 3-D Secure for online purchases"); a daily, transfer or withdrawal limit
    raised or removed ("Raise my daily transfer limit to €25,000"); a folder, a space or a project made visible
    to external collaborators, guests or the public, or external sharing turned on; a password manager's vault
    exported unencrypted (to CSV or plain text: NordPass, Bitwarden, 1Password, LastPass name the risk on the
    same screen); a bucket or a container granted to anyone ("Everyone (public access): Read", "allUsers",
    an anonymous access level); an organisation's top role (global or super administrator, owner) given to someone ("Add
    '...' as Global Admin": the help-desk social engineering of incident reports). Banks' and providers' help
    pages describe each as the step a scam asks for first; a person decides. Lowering a limit, hiding a folder
    from outsiders, an encrypted export and an issue's owner set pass."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or len(first) > 300:
        return None
    if _GUARD_OFF.search(first) is not None:
        return f"a card's or an account's fraud protection turned off: {_short(label.raw)!r}"
    if _LIMIT_UP.search(first) is not None and _MONEY_LIMIT.search(first) is not None:
        return f"a limit on money leaving raised: {_short(label.raw)!r}"
    if _LESS_VISIBLE.match(first) is None and _OUTSIDE_VISIBLE.search(first) is not None:
        return f"made visible to people outside the organisation: {_short(label.raw)!r}"
    if _TOP_ROLE.search(first) is not None:
        return f"an organisation's top role given: {_short(label.raw)!r}"
    if (_PUBLIC_GRANT.search(first) is not None or
            (_ALL_USERS.search(first) is not None and _CLOUD_CONSOLE.search(ctx.derived(_page_host)))) and \
            _LESS_VISIBLE.match(first) is None and "block public" not in first and "block all public" not in first:
        return f"a bucket or a container opened to anyone: {_short(label.raw)!r}"
    if _VAULT_EXPORT.match(first) is not None and _ENCRYPTED.search(first.replace("unencrypted", "")) is None:
        place = f"{ctx.observation.app}\n{ctx.observation.window_title}\n{ctx.derived(_page_host)}"
        plain = _PLAIN.search(first) is not None
        vault = _VAULT_WORDS.search(first) is not None or _PASSWORD_MANAGER.search(place) is not None
        if vault and (plain or (_PLAIN_FORMAT.search(first) is not None and
                                _PASSWORD_MANAGER.search(place) is not None)):
            return f"a password vault exported unencrypted: {_short(label.raw)!r}"
    return None


# control of the person's keyboard and mouse handed over in a meeting, and a participant from outside
_GIVE_CONTROL = re.compile(r"^(?:give|grant|pass|hand over|hand|transfer|share|allow|let)\b(?: \w+){0,3}? "
                           r"(?:keyboard|mouse|remote|screen|desktop|computer)?(?: and (?:keyboard|mouse))? ?"
                           r"control\b|^(?:allow|accept|approve)\b(?: \w+){0,3}? (?:remote control|control request|"
                           r"request (?:for|to) control|to (?:take )?control)\b")
_OUTSIDER = re.compile(r"\b(?:external|guest|outside(?: your)? (?:org|organi[sz]ation|company)|unverified|unknown|"
                       r"anonymous|visitor|not in your (?:org|organi[sz]ation|company)|extern|externe|externo|"
                       r"esterno)\b")


# an incoming remote-control session or connection let in, in a remote-support program's own prompt
_REMOTE_SESSION = re.compile(r"^(?:allow|accept|approve|grant|start|join|connect)\b(?: \w+){0,3}? (?:remote (?:support|"
                             r"control|access|session|desktop|assistance)|incoming (?:connection|session|request)|"
                             r"(?:session|connection|control|access) request|full access|unattended access|"
                             r"control (?:of|over) (?:my |the |this |your )?"
                             r"(?:mouse|keyboard|computer|screen|desktop|pc))\b")


# a bare go-ahead, and a remote-support program's window that asks it for a session someone else started ("AnyDesk -
# Incoming session request", "ScreenConnect - Allow remote control?", "TeamViewer: <name> wants to connect")
_BARE_GO = re.compile(r"^(?:accept|allow|approve|yes|ok|okay|grant|connect|join|let in|admit|start|continue|"
                      r"allow access|grant access|accept and connect|always allow)$")
_SESSION_ASKED = re.compile(r"\b(?:incoming (?:session|connection|request|call)|(?:session|connection|access|control|"
                            r"support) request|requests? (?:to )?(?:connect|control|access|a session)|"
                            r"wants? to (?:connect|control|access|view|see|share)|(?:allow|accept|approve|grant) "
                            r"(?:remote|this|the|an?)? ?(?:control|access|session|connection|support)|"
                            r"remote (?:control|"
                            r"access|session|connection|support)\b.{0,20}(?:request|\?))", re.IGNORECASE)


# the remote-support programs themselves (a meeting app's own "remote control" is a participant's request)
_REMOTE_PROGRAM = re.compile(r"\b(?:any ?desk|team ?viewer|screen ?connect|connect ?wise control|ultra ?viewer|supremo|"
                             r"rust ?desk|log ?me ?in(?: rescue)?|splashtop|zoho assist|quick ?assist|remote ?pc|ammyy|"
                             r"remote utilities|dwservice|getscreen|aeroadmin|chrome remote desktop)\b")
REMOTE_PROGRAM = _REMOTE_PROGRAM  # (also read on an address opened: gate/rules/navigate.py)


@rule("block.gui.remote-control-external", "Handing the keyboard and mouse to a meeting's outside participant",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def remote_control_external(ctx: Context) -> str | None:
    """The click gives control of the person's keyboard and mouse to a meeting participant marked external,
    guest, unverified or from outside the organisation ("Let 'Support Desk (Guest)' control your screen" in a
    meeting, Zoom's and Teams' "Give control"): the help-desk impostor's way in, as the
    meeting vendors' own security notes say. So is an incoming session let in at a remote-support program's
    own prompt ("Allow remote support session" in AnyDesk, "Accept" a TeamViewer or Quick Assist request, a bare
    "Accept" or "Allow" in a window titled "AnyDesk - Incoming session request" or "ScreenConnect - Allow remote
    control?"): the tech-support scam's callback ends there, and the session was started by the other side. Giving
    control to a colleague in the organisation asks (`confirm.gui.consequential`); taking control back, stopping
    the share and requesting control pass."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or len(first) > 300:
        return None
    if _REMOTE_SESSION.search(first) is not None and \
            _REMOTE_PROGRAM.search(f"{first}\n{ctx.observation.window_title[:256]}\n{ctx.observation.app}".lower()):
        # "Accept incoming session" in a remote-support program: whoever dialled in gets the desktop
        return f"a remote-control session let in: {_short(label.raw)!r}"
    title = ctx.observation.window_title[:256]
    if _BARE_GO.match(first) is not None and title and _SESSION_ASKED.search(title) is not None and \
            _REMOTE_PROGRAM.search(f"{title}\n{ctx.observation.app[:80]}".lower()):
        # "Accept" in "AnyDesk - Incoming session request": the window asks, the answer lets the other side in
        return f"a remote-control session let in: {_short(label.raw)!r} in {_short(title, 60)!r}"
    if _GIVE_CONTROL.search(first) is None:
        return None
    who = _OUTSIDER.search(label.words) or _OUTSIDER.search(_text(ctx.observation.window_title[:256]).words)
    if who is None:
        return None
    return f"control of the keyboard and mouse given to an outside participant ({who.group(0)!r}): " \
           f"{_short(label.raw)!r}"


# markup that runs in every visitor's browser: a script, a frame, an embedded object, an event handler, a
# `javascript:` link or a refresh that sends visitors elsewhere
_RUNS_IN_PAGE = re.compile(r"<\s*(?:script|iframe|frame|object|embed|applet|base)\b|\bjavascript\s*:|"
                           r"<[a-z][^>]{0,400}\son[a-z]{3,20}\s*=|<\s*meta[^>]{0,200}http-equiv\s*=\s*[\"']?refresh",
                           re.IGNORECASE)


def _site_code(ctx: Context) -> str | None:
    """The markup that runs in visitors' browsers, typed into a field whose code goes into every page of a site
    (the site-code fields and pages of resources/lures.toml, or `[context.site-code-field]` of resources/cues.toml
    read in the field's label, the page's address and the window's title)."""
    text = getattr(ctx.action, "text", "") or ""
    found = _RUNS_IN_PAGE.search(text[:65536]) if text else None
    if found is None:
        return None
    obs = ctx.observation
    field = ctx.derived(_field_text).words
    if lures.site_code_field(field, f"{ctx.derived(_page_host)}{ctx.derived(_page_path)}"):
        return found.group(0)
    where = ctx.compiled.cues.context.get("site-code-field")
    place = _text(f"{field[:256]} {obs.url[:256]} {obs.window_title[:256]}").words
    return found.group(0) if where is not None and where.search(place) is not None else None


@rule("confirm.gui.site-code", "A script or a frame typed into a site's code injection, header or footer field",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.8)
def site_code(ctx: Context) -> str | None:
    """A `<script>`, an `<iframe>`, an embedded object, an event handler or a `javascript:` link typed into a field
    whose code goes into every page of a site: a CMS's code injection, a theme's header or footer, custom HTML, a
    tracking snippet, a theme's template (`[context.site-code-field]` of resources/cues.toml: Ghost's "Site header",
    WordPress's custom HTML, Shopify's theme.liquid, Blogger's HTML widget). Every visitor then runs it, so a person
    decides, whoever hosts the script (a well-known CDN's too: what it serves changes under the site); one that
    steals sessions or mines is `block.typed.site-script`. Plain CSS or text there passes."""
    found = ctx.derived(_site_code)
    if found is None:
        return None
    return f"code that every visitor of the site runs ({found!r}) typed into a site-wide code field"


# a mention that notifies every member of a channel or a workspace at once, in any of the chats' spellings
_EVERYONE_MENTION = re.compile(r"(?<![\w@.])@(?:all|everyone|channel|here|room)(?![\w-])", re.IGNORECASE)


@rule("confirm.gui.everyone-mention", "A chat message that notifies every member of a channel or a workspace",
      risk=Risk.MEDIUM, types=("type",), confidence=0.7)
def everyone_mention(ctx: Context) -> str | None:
    """A message typed with `@all`, `@everyone`, `@channel`, `@here` or `@room` (Slack, Teams, Discord, Mattermost,
    Rocket.Chat, Matrix): it pings every member of the channel at once, often the whole company, and chats ask the
    sender themselves before it goes. A mention of one person, or an address (`ops@all.example`), passes."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > 4096:
        return None
    m = _EVERYONE_MENTION.search(text)
    if m is None or not _message_field(ctx):
        return None
    return f"{m.group(0)!r} in {_where(ctx)} notifies every member of the channel at once"


RULES: tuple[Rule, ...] = (blocklisted, suspicious_label, secret_exposure, credential_field, critical_point,
                           irreversible, session_key, sensitive_data, password_in_field, steering_block,
                           steering_confirm, consequential, impostor_payee, typed_confirmation, data_out_block,
                           data_out_confirm,
                           paste_to_run, run_shown_command, protection_off, enable_macros, device_protection_off,
                           security_switch, registry_defence_off, registry_edit, console_defence_off, console_change,
                           security_setting, process_dump_block, process_dump_confirm, clear_data_key,
                           permanent_delete_key,
                           password_in_message,
                           outside_recipient, access_out, access_key, forward_out_click, account_contact, money_out,
                           setting_value,
                           formula_command,
                           formula_out, formula_range_out, phishing_lure, whereabouts,
                           harassment_call, doxxing_post, false_alarm, unsafe_site_override,
                           certificate_override, wallet_blanket_approval, scam_payment, wallet_off_app,
                           secret_handover, push_approval, open_to_internet, borrowed_card, unverified_token,
                           records_to_named_site, install_on_say_so, pay_under_remote_control, payee_mismatch_override,
                           safeguard_lowered,
                           remote_control_external, removal_dialog_key, site_code, callback_lure, everyone_mention)
