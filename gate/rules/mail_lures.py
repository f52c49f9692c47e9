"""Rules: a link clicked inside a mail message that lures, and payment or identity data typed on a lure's page.
The vocabulary is `[mail-click]` of resources/lures.toml.

    block.gui.lure-message-link     the call to action ("Get Started", "click here", "View your letter") of a mail or
                                    text message, or a notice on no web page, whose subject or sender lures: an
                                    account problem, a payment owed, a prize, or a tax or benefits agency
    block.gui.disguised-attachment  a file named as a document that opens as a web page or runs (`Statement.pdf.html`)
    block.gui.mail-lure-link        a link of an open message whose subject claims a problem with the reader's
                                    account or a payment owed (a parcel's fee, a refund), that itself signs in,
                                    verifies or pays ("Verify now", "Update payment", "Pagar agora")
    confirm.gui.mail-lure-link      any other link or button of an open message whose subject carries a lure
                                    (an account alert, a payment owed, a prize, easy money, an unfilled merge
                                    field), or a sign-in or payment link of a message that presses or lures
    block.typed.payment-on-lure-page  a card, its code, a bank account or an identity document's number typed on a
                                    page whose host is a look-alike's, a hostile or hidden one, or whose title or
                                    text carries a lure (not a brand's own checkout)
    block.typed.password-on-impostor-page  a password or a code typed on a look-alike's page, or on a sign-in page
                                    titled for a brand its host does not belong to
    confirm.typed.payment-data-field  the same data typed into a field that asks for it in another language
    confirm.typed.contact-on-lure-page  an e-mail, a phone number, a name or an address typed on such a page

The mail program's own controls (Reply, Forward, Junk, Delete), the list of messages and a folder's window pass.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import NamedTuple

from gate import regex_store
from gate.destinations import _BOOK as _DESTINATIONS
from gate.destinations import own_site
from gate.fields import ONE_EMAIL, ONE_PHONE, credential_field, field_text, page_host, page_path, scam_named
from gate.hostile_hosts import brand_service, hostile_host, short_link, typo_squat
from gate.lures import words
from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.gui import field_category
from gate.sensitive import find_sensitive
from gate.urls import ip_of, registrable

__all__ = ["RULES", "folder_view", "lure_kinds", "mail_subject"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("lures.toml").read_text("utf-8"))["mail-click"]


def _phrases(items: list[str]) -> re.Pattern[str]:
    """One pattern for a list of phrases, over `words()` (folded the same way), on word boundaries."""
    alts = sorted({r" ".join(map(re.escape, words(p).split())) for p in items if words(p)}, key=lambda p: (-len(p), p))
    return re.compile(r"(?<![^\W_])(?:" + "|".join(alts) + r")(?![^\W_])")


def _whole(items: list[str]) -> frozenset[str]:
    return frozenset(words(p) for p in items)


_APPS = _whole(_BOOK["apps"])
_WEBMAIL = tuple(_BOOK["webmail"])
_WEBMAIL_PATHS = tuple(w for w in _WEBMAIL if w.startswith("/"))  # found anywhere in the address
_WEBMAIL_HOSTS = tuple(w for w in _WEBMAIL if w.endswith("."))  # found anywhere in the host
_FOLDERS = _whole(_BOOK["folders"])
_CONTROLS = _whole(_BOOK["controls"])
_KINDS = {kind: _phrases(_BOOK[kind]) for kind in ("account", "payment", "prize", "urgency", "pressure", "verify")}
_CTA = _phrases(_BOOK["cta"])
_PAYMENT_FIELD = _phrases(_BOOK["payment_fields"])
_IDENTITY_FIELD = _phrases(_BOOK["identity_fields"])
_CONTACT_FIELD = _phrases(_BOOK["contact_fields"])
_PLACEHOLDER = re.compile(_BOOK["placeholder"], re.IGNORECASE)
_SIGNIN_TITLE = _phrases(_BOOK["signin_titles"])
_SIGNIN_TITLE_CJK = re.compile("|".join(map(re.escape, _BOOK["signin_titles_cjk"])))
_WORD_BRANDS = _whole(_BOOK["word_brands"])
_SIGN_IN_SERVICES = frozenset(_BOOK["sign_in_services"])
# "Sign in with Google", "Continuer avec Apple": the brand is the way in, not the page's owner
_WITH_BRAND = re.compile(r"\b(?:with|using|via|through|mit|über|avec|par|con|mediante|com|pelo|pela|met|via)$")
_MAIL_APP = re.compile(r"\b(?:thunderbird|betterbird|outlook|evolution|geary|kmail|kontact|mailspring|apple ?mail|"
                       r"mail\.app|claws|sylpheed|em ?client|postbox|airmail|seamonkey|trojit[aá]|bluemail)\b|^mail$",
                       re.IGNORECASE)
_MAIL_APP = Guarded(_MAIL_APP)
# an account's address or a program's name in a title's last parts ("Subject - dana@example.org - Gmail")
_ADDRESS = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_TITLE_SEPARATOR = re.compile(r"\s+[-–—|]\s+")
_COUNT = re.compile(r"\s*\(\d+\)$")
# what a row of the message list or a folder is, never a link of the message
_LIST_ROLES = re.compile(r"\b(?:list ?item|row|tree ?item|table ?row|cell|grid ?cell|option|tab|menu ?item)\b",
                         re.IGNORECASE)
_MAX_TEXT = 8192
_SELF_HOSTED = _whole(_BOOK["self_hosted"])
_BRANDS: dict[str, frozenset[str]] = {token: frozenset(domains) for kind, table in _DESTINATIONS["brands"].items()
                                      if kind != "dev-platforms" for token, domains in table.items()
                                      if len(token) >= 4 and token not in _WORD_BRANDS and token not in _SELF_HOSTED}
# brands' names in Japanese, Chinese and Korean, longest first, with the domains the brand owns
_SCRIPT_BRANDS: dict[str, frozenset[str]] = {
    name: frozenset(d for table in _DESTINATIONS["brands"].values() for d in table.get(token, ()))
    for name, token in _DESTINATIONS["brand-names"].items()}
_SCRIPT_BRAND_NAMES = re.compile("|".join(re.escape(name) for name in sorted(_SCRIPT_BRANDS, key=len, reverse=True)))


# -- where the click is: an open message, its subject -------------------------------------------


def _webmail(url: str) -> bool:
    low = url[:512].lower()
    if not low.startswith(("http://", "https://")):
        return False
    rest = low.split("://", 1)[1]
    if rest.startswith(_WEBMAIL) or any(w in rest for w in _WEBMAIL_PATHS):
        return True
    host = rest.split("/")[0]
    return any(w in host for w in _WEBMAIL_HOSTS)


def mail_subject(title: str, app: str = "", url: str = "") -> str | None:
    """The subject of the message open in a mail program's window or a webmail page, from the window title
    ("Subject - Thunderbird", "Subject - dana@example.org - Gmail"), or None when no message is open there (a
    folder's list, a compose window, another program)."""
    parts = _TITLE_SEPARATOR.split(title.strip())
    last = parts[-1] if len(parts) > 1 else ""
    in_mail = (bool(app) and (_MAIL_APP.search(app) is not None or words(app) in _APPS)) or \
        (bool(last) and (_MAIL_APP.search(last) is not None or words(last) in _APPS))
    if not in_mail and not (url and _webmail(url)):
        return None
    while len(parts) > 1 and (words(parts[-1]) in _APPS or _ADDRESS.match(parts[-1].strip())
                              or _MAIL_APP.search(parts[-1]) is not None):
        parts.pop()
    if not parts:
        return None
    if parts[-1].strip().lower() in ("write", "compose", "new message", "draft") or \
            title.lower().startswith(("write:", "compose:")):
        return None  # the window where a message is written: its clicks are no link of a received message
    subject = " - ".join(parts).strip()
    if not subject or words(_COUNT.sub("", parts[0])) in _FOLDERS:
        return None
    return subject


def folder_view(title: str, app: str = "", url: str = "") -> bool:
    """A mail program's window or a webmail page that shows a folder's list of messages ("Inbox (3) - Gmail",
    `mail.google.com/mail/u/0/#inbox`): a click on a row there opens the message, whatever its subject says."""
    parts = _TITLE_SEPARATOR.split(title.strip())
    last = parts[-1] if len(parts) > 1 else ""
    in_mail = (bool(app) and (_MAIL_APP.search(app) is not None or words(app) in _APPS)) or \
        (bool(last) and (_MAIL_APP.search(last) is not None or words(last) in _APPS))
    webmail = bool(url) and _webmail(url)
    if not (in_mail or webmail):
        return False
    if parts and words(_COUNT.sub("", parts[0])) in _FOLDERS:
        return True
    tail = url.lower().rsplit("#", 1)[-1] if "#" in url else url.lower().rstrip("/").rsplit("/", 1)[-1]
    return webmail and words(tail) in _FOLDERS


def lure_kinds(text: str) -> frozenset[str]:
    """The lures a subject or a message's text carries: account, payment, prize, urgency, pressure, verify,
    placeholder."""
    if not text:
        return frozenset()
    w = words(text[:_MAX_TEXT])
    found = {kind for kind, pattern in _KINDS.items() if pattern.search(w)}
    if _PLACEHOLDER.search(text[:_MAX_TEXT]):
        found.add("placeholder")
    return frozenset(found)


class _MailClick(NamedTuple):
    subject: str
    label: str
    subject_kinds: frozenset[str]
    page_text: str
    cta: str | None

    @property
    def page_kinds(self) -> frozenset[str]:
        """The lures the message's text carries (read only when the subject alone does not decide)."""
        return lure_kinds(self.page_text)


def _label(ctx: Context) -> str:
    target = ctx.action.target
    return (target.label or target.name or "") if target is not None else ""


def _mail_click(ctx: Context) -> _MailClick | None:
    """The click of a link or a button of an open message (not the program's own controls, not the list)."""
    obs = ctx.observation
    subject = mail_subject(obs.window_title, obs.app, getattr(ctx.action, "url", None) or obs.url)
    if subject is None:
        return None
    label = _label(ctx).strip()
    low = words(label)
    if not low or low in _CONTROLS or len(low) > 80:
        return None
    target = ctx.action.target
    if target is not None and target.role and _LIST_ROLES.search(target.role):
        return None
    if words(subject) in low:
        return None  # the message's own row in the list, named by its subject (and its sender, its date)
    cta = _CTA.fullmatch(low) or (_CTA.match(low) if len(low.split()) <= 7 else None)
    return _MailClick(subject, label, lure_kinds(subject), obs.page_text, cta.group(0) if cta is not None else None)


_STRONG = frozenset({"account", "payment"})
_LURES = frozenset({"account", "payment", "prize", "urgency", "placeholder"})
_PAGE_LURES = frozenset({"account", "payment", "prize", "placeholder"})
_PRESSES = frozenset({"pressure", "verify"})


def _kinds_said(kinds: frozenset[str]) -> str:
    return ", ".join(sorted(kinds))


@rule("block.gui.mail-lure-link", "A sign-in, verification or payment link of a mail whose subject claims an account "
      "or payment problem", risk=Risk.CRITICAL, types=("click",), confidence=0.85, needs="window")
def mail_lure_link_block(ctx: Context) -> CheckResult:
    """A link or button inside an open mail message (Thunderbird, Outlook, Apple Mail, Evolution, a webmail page)
    whose label itself signs in, verifies, renews or pays ("Verify now", "Update payment", "Jetzt verifizieren",
    "Pagar agora"), while the message's subject claims a problem with the reader's account (an unusual
    sign-in, a suspension, an expired password, a full mailbox) or a payment owed (a failed payment, an overdue
    invoice, a parcel's customs fee, a toll, a tax refund). That is the phishing mail's one purpose: the page it
    opens takes the password or the card. A real service's notice is read by going to the site itself."""
    found = ctx.derived(_mail_click)
    if found is None or found.cta is None or not (found.subject_kinds & _STRONG):
        return None
    return (f"{found.label[:40]!r} in a mail whose subject is a lure ({_kinds_said(found.subject_kinds & _STRONG)}): "
            f"{found.subject[:60]!r}", Risk.CRITICAL)


@rule("confirm.gui.mail-lure-link", "A link of a mail whose subject or text carries a phishing or scam lure",
      risk=Risk.HIGH, types=("click",), confidence=0.75, needs="window")
def mail_lure_link_confirm(ctx: Context) -> CheckResult:
    """A link or button inside an open mail message, not the mail program's own controls (Reply, Forward, Junk,
    Delete, Archive), when the subject carries a lure: an account alert, a payment owed or a parcel held for a fee,
    a prize, a bonus or easy money, a deadline or a last warning ("Final notice", "within 24 hours"), or a merge
    field the sender's kit left unfilled ("{firstname}"); or when the label signs in, verifies or pays and the
    subject presses or asks for a check ("Urgent", "Verify your account") or the message's text claims an account
    or payment problem. The link goes where the sender chose: asking is the safe default. An ordinary mail's
    links (a newsletter, a colleague's, a shipping notice) pass."""
    found = ctx.derived(_mail_click)
    if found is None:
        return None
    if found.cta is not None and found.subject_kinds & _STRONG:
        return None  # block.gui.mail-lure-link
    lures = found.subject_kinds & _LURES
    if lures:
        return f"{found.label[:40]!r} in a mail whose subject is a lure ({_kinds_said(lures)}): {found.subject[:60]!r}"
    if found.cta is not None and (found.subject_kinds & _PRESSES or found.page_kinds & _STRONG):
        why = _kinds_said(found.subject_kinds | (found.page_kinds & _STRONG))
        return (f"{found.label[:40]!r} signs in or pays from a mail that presses or lures ({why}): "
                f"{found.subject[:60]!r}")
    return None


# -- a scam message's or notice's call to action, wherever the message is read -----------------------------

_NOTICE_LURES = frozenset({"account", "payment", "prize"})


class _Notice(NamedTuple):
    said: str  # the title's text less the program's name: a subject, a sender, a notice's heading
    why: str  # the lure it carries
    agency: bool  # the sender is an agency that sends no links: any link of it is the lure's
    fees_only: bool = False  # a carrier or a toll operator: only a payment's call to action is the lure's


def _notice_text(title: str, app: str, messaging: re.Pattern[str] | None) -> str:
    """A window's title less the mail or messaging program's name at either end ("Messages - IRS" → "IRS",
    "Mail - 'account restricted'" → "'account restricted'")."""
    parts = [p for p in _TITLE_SEPARATOR.split(title.strip()) if p.strip()]

    def program(part: str) -> bool:
        w = words(part)
        return w in _APPS or _MAIL_APP.search(part) is not None or _ADDRESS.match(part.strip()) is not None or \
            (messaging is not None and messaging.match(w) is not None)

    while len(parts) > 1 and program(parts[-1]):
        parts.pop()
    while len(parts) > 1 and program(parts[0]):
        parts.pop(0)
    return " - ".join(parts).strip()


def _notice(ctx: Context) -> _Notice | None:
    """The lure of the message or notice a click happens in: a mail or text message, or a window on no web page
    (webmail counts as a message), whose title (less the program's name) carries an account, payment or prize lure
    (`[mail-click]` of resources/lures.toml), or names a tax, social security or motoring agency as its sender
    (`[context.agency-sender]` of resources/cues.toml)."""
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    if url and not _webmail(url):
        return None  # a page on a site: its host is judged (gate/rules/navigate.py)
    if not obs.window_title:
        return None
    book = ctx.compiled.cues.context
    said = _notice_text(obs.window_title[:256], obs.app, book.get("messaging-window"))
    if not said:
        return None
    kinds = lure_kinds(said) & _NOTICE_LURES
    if kinds:
        return _Notice(said, f"a lure ({_kinds_said(kinds)})", agency=False)
    agency = book.get("agency-sender")
    m = agency.search(words(said)) if agency is not None else None
    if m is not None:
        return _Notice(said, f"the agency {m.group(0)!r} as its sender, which sends no links", agency=True)
    fees = book.get("fee-sender")
    m = fees.search(words(said)) if fees is not None else None
    if m is not None:
        return _Notice(said, f"{m.group(0)!r} as its sender, which takes no fee through a message's link",
                       agency=False, fees_only=True)
    return None


@rule("block.gui.lure-message-link", "Following the call to action of a scam message or notice", risk=Risk.CRITICAL,
      types=("click",), confidence=0.8, needs="window")
def lure_message_link(ctx: Context) -> CheckResult:
    """The click is the call to action ("Get Started", "View your letter", "Claim now", "Unlock your account", "Track
    your parcel": `[context.lure-call-to-action]` of resources/cues.toml, or the mail lures' sign-in, verify and
    pay links) of a message or a notice, read in a mail or text-message program or a window on no web page, whose
    subject or sender carries a lure: an account restricted or locked, a refund or a fee owed, a prize to claim;
    or any bare link ("click here", "See details": `[context.lure-any-link]`) of a message whose sender is a tax,
    social security or motoring agency (those write by post and send no links); or a payment's call to action
    ("Pay now", "Settle balance": `[context.fee-call-to-action]`) of a message whose sender is a parcel carrier or a
    toll operator (`[context.fee-sender]`), which take no fee through a link.
    The link goes where the sender chose, and the page it opens takes the password, the card or the identity. The
    program's own controls (Reply, Delete, Junk, Close) and a message with no lure pass; a site's own page is judged
    by its host instead."""
    label = _label(ctx).strip()
    low = words(label)
    if not low or len(low) > 80 or low in _CONTROLS:
        return None
    target = ctx.action.target
    if target is not None and target.role and _LIST_ROLES.search(target.role):
        return None
    book = ctx.compiled.cues.context
    cta, bare = book.get("lure-call-to-action"), book.get("lure-any-link")
    starts = _CTA.fullmatch(low) is not None or (cta is not None and cta.match(low) is not None)
    if not starts and (bare is None or bare.match(low) is None):
        return None
    found = ctx.derived(_notice)
    if found is None or words(found.said) in low:
        return None  # (the message's own row in a list, named by its subject)
    if not starts and not found.agency:
        return None  # "click here" in a mail about an unusual sign-in asks (`confirm.gui.mail-lure-link`)
    if found.fees_only and ((pays := book.get("fee-call-to-action")) is None or pays.match(low) is None):
        return None  # a carrier's "Track package" is its own service
    return f"{label[:40]!r} in a message that lures ({found.why}): {found.said[:60]!r}"


# a file name that shows a document's type and ends in another that runs or renders a page: the system shows only
# the first when it hides known extensions ("Statement.pdf.html", "Invoice.docx.exe", "scan.jpg.scr")
_DISGUISED_FILE = re.compile(r"^[^\n/\\]{1,160}?\.(?:pdf|docx?|docm|xlsx?|xlsm|pptx?|odt|ods|rtf|txt|csv|jpe?g|png|gif|"
                             r"tiff?|heic|mp3|mp4|wav|zip|eml|msg|ics)\s?\.(?:html?|shtml|xhtml|svg|exe|scr|com|pif|"
                             r"bat|cmd|js|jse|vbs|vbe|wsf|wsh|hta|lnk|url|iso|img|vhdx?|msi|ps1|jar|cpl|reg)$",
                             re.IGNORECASE)


@rule("block.gui.disguised-attachment", "Opening a file named as a document that is a program or a web page",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def disguised_attachment(ctx: Context) -> CheckResult:
    """The clicked label is a file name with a document's extension followed by one that runs or renders a page
    (`Statement.pdf.html`, `Invoice.docx.exe`, `scan.jpg.scr`): a mail program or a download list that hides known
    extensions shows it as the document. The HTML kind opens a copy of a sign-in or payment page from the disk,
    where no browser warning for the site applies; the program kind runs. A plain `report.pdf`, an `index.html`
    and an archive's `.tar.gz` pass."""
    label = _label(ctx).strip()
    if not label or len(label) > 200:
        return None
    m = _DISGUISED_FILE.match(label)
    if m is None:
        return None
    return f"{label[:60]!r} is named as a document and opens as {label.rsplit('.', 1)[-1].lower()!r}"


# -- what is typed on a lure's page ---------------------------------------------------------------


def _field(ctx: Context) -> str:
    return words(ctx.derived(field_text).raw)


_DIGITS = re.compile(r"\d")


def payment_data(ctx: Context) -> str | None:
    """What payment or identity data the typed text is: a card, a bank account, an identity number found in it, or
    digits typed into a field that asks for a card, its code, a bank account or an identity document."""
    text = (getattr(ctx.action, "text", "") or "")[:_MAX_TEXT]
    if not text.strip():
        return None
    found = find_sensitive(text)
    if found:
        return found[0].kind
    if len(text) > 64 or len(_DIGITS.findall(text)) < 3:
        return None
    field = ctx.derived(_field)
    if not field:
        return None
    m = _PAYMENT_FIELD.search(field) or _IDENTITY_FIELD.search(field)
    return f"{m.group(0)} field" if m is not None else None


def _brand_named(title: str, host: str) -> str | None:
    """A brand the title names whose own domains do not hold the page's host ("Amazon - Update payment" on a
    script host): the page speaks for a company it is not served by."""
    reg = registrable(host)
    if reg in _SIGN_IN_SERVICES:
        return None
    said = words(title).split()
    for i, token in enumerate(said):
        domains = _BRANDS.get(token)
        if domains is None or reg in domains or any(host.endswith("." + d) for d in domains):
            continue
        if i and _WITH_BRAND.search(said[i - 1]):
            continue
        return token
    m = _SCRIPT_BRAND_NAMES.search(title[:256])
    if m is not None:
        domains = _SCRIPT_BRANDS[m.group(0)]
        if reg not in domains and not any(host.endswith("." + d) for d in domains):
            return m.group(0)
    return None


def hostile_page(ctx: Context) -> str | None:
    """Why the page's host is an impostor's or hidden: a look-alike of a brand, a name an attacker's, a brand
    beside a service word, a misspelt carrier or exchange, a shortened link, a scam-named site."""
    host = ctx.derived(page_host).lower()
    if not host or ip_of(host) is not None or "." not in host:
        return None
    path = ctx.derived(page_path)
    why = ctx.compiled.brands.lookalike(host) or hostile_host(host) or typo_squat(host) or short_link(host, path) \
        or scam_named(host)
    if why:
        return str(why)
    claim = brand_service(host)
    return f"{claim[0]} beside {claim[1]} on {host}" if claim else None


class _LurePage(NamedTuple):
    why: str
    own: bool  # a brand's own site speaking for itself: its checkout, its account pages


def lure_page(ctx: Context) -> _LurePage | None:
    """Why the page typed on is a lure's: a hostile host, or a title (or the page's text) that carries an account,
    payment or prize lure. `own` when the host is a known brand's own site and the title names no other brand."""
    hostile = ctx.derived(hostile_page)
    if hostile:
        return _LurePage(f"the page's host: {hostile}", own=False)
    obs = ctx.observation
    kinds = lure_kinds(obs.window_title) & _PAGE_LURES
    page = lure_kinds(obs.page_text) & (_PAGE_LURES - {"payment"})  # every checkout's text says "payment method"
    host = ctx.derived(page_host).lower()
    other = _brand_named(obs.window_title, host) if host and ip_of(host) is None else None
    if not (kinds or page):
        if other is None or own_site(host) or (_SIGNIN_TITLE.search(words(obs.window_title)) is None and
                                               _SIGNIN_TITLE_CJK.search(obs.window_title[:256]) is None):
            return None
        # a brand's sign-in or account page served by a host no brand owns
        return _LurePage(f"a sign-in page titled for {other} on {host}", own=False)
    own = bool(host) and own_site(host) and other is None
    said = obs.window_title[:60] if kinds else "the page's text"
    return _LurePage(f"a lure ({_kinds_said(kinds | page)}) in {said!r}" +
                     (f", naming {other} on {host}" if other else ""), own=own)


@rule("block.typed.payment-on-lure-page", "A card, a bank account or an identity number typed on a lure's page",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.85)
def payment_on_lure_page(ctx: Context) -> CheckResult:
    """A payment card number (Luhn-valid, any grouping), its security code, an IBAN or a bank account number, a
    passport or national identity number, typed (or typed into a field that asks for it, in any language) on a
    page whose host is a look-alike, an attacker's, a shortened link or a scam-named site, or whose title or text
    carries a lure: an account alert, a fee owed for a parcel or a toll, a prize or a gift to claim. That is where
    a phishing mail leads, and the number is what it is after. A known merchant's or payment provider's own
    checkout still only asks (`confirm.gui.sensitive-data`, `confirm.gui.credential-field`). Redacted."""
    what = ctx.derived(payment_data)
    if what is None:
        return None
    page = ctx.derived(lure_page)
    if page is None or page.own:
        return None
    return f"typing {what} on a lure's page: {page.why}"


@rule("block.typed.password-on-impostor-page", "A password or code typed on a page that speaks for a brand it is "
      "not served by", risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.85)
def password_on_impostor_page(ctx: Context) -> CheckResult:
    """A password, a PIN, a one-time code or a recovery phrase typed into its field (in any language) on a page
    whose host is a look-alike's, an attacker's or a scam-named one, or on a sign-in page titled for a brand
    ("PayPal Login", "楽天 ログイン") that the host does not belong to: the form is a copy, and the secret
    goes to whoever runs it. The brand's own sign-in page, and a sign-in page that names no brand, only ask
    (`confirm.gui.credential-field`). Redacted."""
    if not ctx.derived(credential_field) or ctx.derived(payment_data) is not None:
        return None  # a card number there is block.typed.payment-on-lure-page
    page = ctx.derived(lure_page)
    if page is None or page.own:
        return None
    if ctx.derived(hostile_page) is None and not page.why.startswith("a sign-in page titled for"):
        return None  # a lure in the title alone: the site may be the person's own service
    return f"typing a secret on an impostor's page: {page.why}"


@rule("confirm.typed.payment-data-field", "Digits typed into a card, bank account or identity document field, "
      "in any language", risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.8)
def payment_data_field(ctx: Context) -> CheckResult:
    """Digits typed into a field whose label asks for a payment card, its security code or expiry, a bank account,
    or an identity document's number, in German, French, Spanish, Italian, Portuguese or Dutch as well as English
    ("Número do cartão", "Kartennummer", "Numéro de passeport"): a number a person should see leave, whether or
    not it passes a checksum. The typed text is redacted."""
    what = ctx.derived(payment_data)
    if what is None or not what.endswith(" field") or ctx.derived(credential_field) or \
            ctx.derived(field_category) is not None:
        return None  # a field the policy names already asks (`confirm.gui.credential-field`, `critical-point`)
    return f"typing into a {what}: {ctx.derived(field_text).raw[:40]!r}"


@rule("confirm.typed.contact-on-lure-page", "An e-mail, phone number, name or address typed on a lure's page",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.75)
def contact_on_lure_page(ctx: Context) -> CheckResult:
    """An e-mail address, a phone number, a full name or a home address typed into a sign-up or sign-in field on a
    page whose host is a look-alike's or hidden, or whose title or text carries a lure (an account to verify, a
    gift or a bonus to claim, a fee owed), and no brand's own site: the first step of a phishing or scam form,
    the person's identity handed to whoever runs it. The typed text is redacted."""
    text = (getattr(ctx.action, "text", "") or "").strip()
    if not text or len(text) > 200 or ctx.derived(payment_data) is not None:
        return None
    field = ctx.derived(_field)
    if not (ONE_EMAIL.match(text) or ONE_PHONE.match(text) or (field and _CONTACT_FIELD.search(field))):
        return None
    page = ctx.derived(lure_page)
    if page is None or page.own:
        return None
    return f"typing who the person is on a lure's page: {page.why}"


RULES: tuple[Rule, ...] = (mail_lure_link_block, mail_lure_link_confirm, lure_message_link, disguised_attachment,
                           payment_on_lure_page,
                           password_on_impostor_page, payment_data_field, contact_on_lure_page)
