"""Rules: what a click or typing does given the page it happens on.

One action on a web page can look ordinary by itself (typing a password, an e-mail, a card's code; clicking
"Allow" or "Make public") and still be the harm, because of where it is:

- a password for one site typed on another (`block.web.credential-for-another-site`): the field names a
  brand ("Apple ID password", "Google password") and the page is not that brand's;
- data the page has no use for (`block.gui.data-out-of-place`): a social security number in a shop's
  checkout, a card's number or security code on a prize, reward or survey page;
- an e-mail, phone or identity number typed on a page that imitates another site
  (`block.web.lookalike-personal-data`);
- access or rights granted by a button that gives a remedy as its reason, or that speaks as the system
  (`block.gui.lured-grant`: "Windows Security: Allow remote assistance to fix errors", "Grant full disk
  access to Optimizer");
- something named private made public (`block.gui.private-made-public`);
- a sales pitch with a link to another site posted in the person's name (`confirm.web.promo-link`).

Who is given access, typed into an invite form, is not judged at the typing: the click that sends the
invitation asks (a form being filled commits to nothing yet).

What came before in the session is gate/rules/session.py.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import unquote_plus

from gate import lures
from gate.cues import CueBook, book_table
from gate.dataout import local_ip
from gate.fields import (
    field_text,
    message_field,
    scam_named,
    short,
    text_of,
)
from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import (
    field_category,
    label_consequence,
    label_text,
    steered,
)
from gate.sensitive import find_sensitive
from gate.steering import steering
from gate.typed import Destination
from gate.typed import destination as typed_destination
from gate.urls import action_url, ip_of, is_loopback, site_label, split_url

__all__ = ["RULES", "brand_family", "page_of"]


# -- the page an action happens on -----------------------------------------------------------------------


def page_of(ctx: Context) -> tuple[str, str]:
    """(host, path) of the page the action happens on, lower case host; ("", "") when no page is known."""
    url = action_url(ctx)
    if not url:
        return "", ""
    parts = split_url(url)
    if parts is None or parts.scheme not in ("http", "https", ""):
        return "", ""
    return parts.host or "", parts.path or ""


_PATH_WORDS = re.compile(r"[a-z]+")
_GRANTING = "permissions and access"
# a cloud store's principals that stand for everyone: `allUsers` (anyone on the internet), `allAuthenticatedUsers`
# (anyone with any account); granted a role, the bucket or the object is public
_EVERY_PRINCIPAL = re.compile(r"\ball (?:authenticated )?users\b(?: \w+){0,4} (?:viewer|reader|read|access|role|"
                              r"object|objects|legacy)\b|\b(?:grant|add|give|assign)\b(?: \w+){0,3} all "
                              r"(?:authenticated )?users\b")


@functools.lru_cache(maxsize=1024)
def _path_words(path: str) -> frozenset[str]:
    return frozenset(_PATH_WORDS.findall(path.lower()))


# -- one call per action for the family ----------------------------------------------------------------

_NOTHING: dict[str, tuple[str, Risk, tuple]] = {}


def fired(ctx: Context, rules: tuple[Rule, ...]) -> dict[str, tuple[str, Risk, tuple]]:
    """{rule id: (reason, risk, spans)} of `rules` that fire: what a family's batch returns to the engine."""
    out: dict[str, tuple[str, Risk, tuple]] = {}
    for r in rules:
        hit = r.hit(r.check(ctx))
        if hit is not None:
            out[r.id] = (hit.reason, hit.risk, hit.spans)
    return out


def _batch(ctx: Context) -> dict[str, tuple[str, Risk, tuple]]:
    """The family in one call (gate/engine.py batches): typing on no known page and a click that commits to
    nothing (the common cases) return at once."""
    if ctx.type == "type":
        host, path = ctx.derived(page_of)
        if not host:
            return _NOTHING
        # each rule's first question, asked once here: most typing meets none of them
        field = ctx.derived(field_text).words
        rules = []
        if field and _SECRET_FIELD.search(field):
            rules.append(credential_for_another_site)
        if _path_words(path) & _OUT_OF_PLACE_PAGES:
            rules.append(data_out_of_place)
        if ip_of(host) is None and (ctx.compiled.brands.lookalike(host) or scam_named(host)):
            rules.append(lookalike_personal_data)
        if "://" in ctx.action.text:  # type: ignore[attr-defined]
            rules.append(promo_link)
        return fired(ctx, tuple(rules)) if rules else _NOTHING
    rules = _CLICK_RULES if ctx.derived(label_consequence) is not None else ()
    cued = ctx.derived(steered)
    if cued is not None and _BAIT_CUES.intersection(cued.found.cues) and ctx.derived(_bait_page):
        rules = (*rules, lure_on_bait_page)
    return fired(ctx, rules) if rules else _NOTHING


# -- a password for one site typed on another -------------------------------------------------------------

# The sites a brand signs its users in on: a password named after the brand belongs on one of these.
_FAMILIES: tuple[frozenset[str], ...] = (
    frozenset({"apple", "icloud", "me", "mac"}),
    frozenset({"google", "gmail", "youtube", "googlemail", "withgoogle"}),
    frozenset({"microsoft", "microsoftonline", "live", "outlook", "office", "office365", "hotmail", "msn", "azure",
               "windows", "xbox", "skype", "bing", "windowsazure"}),
    frozenset({"facebook", "instagram", "meta", "messenger", "whatsapp", "fb"}),
    frozenset({"steampowered", "steamcommunity", "steam"}),
    frozenset({"amazon", "aws", "amazonaws"}),
    frozenset({"paypal", "venmo"}),
    frozenset({"twitter", "x"}),
)
# the words a field uses for a brand that is not its domain's name
_BRAND_WORDS = {"apple id": "apple", "appleid": "apple", "icloud": "icloud", "gmail": "gmail", "google": "google",
                "microsoft": "microsoft", "outlook": "outlook", "hotmail": "hotmail", "office 365": "office365",
                "steam": "steampowered", "xbox": "microsoft", "aws": "amazon"}
# password managers keep every site's password: typing one there is where it belongs
_VAULTS = frozenset({"bitwarden", "1password", "lastpass", "dashlane", "keepersecurity", "nordpass", "proton",
                     "roboform", "enpass", "keeper", "zoho"})
_SECRET_FIELD = re.compile(r"\b(?:pass ?word|passwd|passcode|pin|one ?time (?:code|password)|otp|verification code|"
                           r"security code|2fa|mfa|recovery (?:code|key|phrase)|seed phrase)\b")


_TOKENS = re.compile(r"[^\W_]+")


def brand_family(brand: str) -> frozenset[str]:
    """The site names a brand signs in on (`apple` → apple, icloud, me, mac); the brand alone when unknown."""
    for fam in _FAMILIES:
        if brand in fam:
            return fam
    return frozenset({brand})


def _named_brand(ctx: Context, field: str) -> str | None:
    """The brand the field names ("Apple ID password" → apple), from the policy's brands and a few aliases."""
    names = ctx.compiled.brands.names
    for word, brand in _BRAND_WORDS.items():
        if word in field and re.search(rf"\b{word}\b", field):
            return brand
    for word in field.split():
        if word in names:
            return word
    return None


@rule("block.web.credential-for-another-site", "A password for one site typed on another site's page",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.85, batch=_batch)
def credential_for_another_site(ctx: Context) -> str | None:
    """The field asks for a password or a sign-in code by a brand's name ("Apple ID password", "Google
    password", "PayPal one-time code") and the page is on a site that is not that brand's (nor one it signs
    in on: iCloud for Apple, Outlook and Live for Microsoft): a pop-up or a form that borrows a brand's name
    to collect its password. A password manager's vault keeps every site's password and is not judged; with
    no page known (a desktop dialog), `confirm.gui.credential-field` asks as before."""
    host, _ = ctx.derived(page_of)
    if not host or is_loopback(host):
        return None
    field = ctx.derived(field_text).words
    if not field or not _SECRET_FIELD.search(field):
        return None
    brand = _named_brand(ctx, " ".join(_TOKENS.findall(ctx.derived(field_text).norm)))  # "PayPal" is one word
    if brand is None:
        return None
    labels = set(host.split("."))
    site = site_label(host) if ip_of(host) is None else host
    if site in _VAULTS or labels & brand_family(brand):
        return None
    return f"a password for {brand} asked for on {host}, which is not {brand}'s site"


# -- data the page has no use for -------------------------------------------------------------------------

# a shop's cart or checkout: it takes an address and a card, never a social security number
_SHOP_STEPS = frozenset({"cart", "basket", "bag", "checkout", "trolley", "shipping", "order", "orders"})
# a page that gives something away: a prize, a reward, a survey's gift. None of them takes a card to do it
_LURE_PAGES = frozenset({"claim", "prize", "prizes", "reward", "rewards", "giveaway", "giveaways", "sweepstake",
                         "sweepstakes", "survey", "surveys", "winner", "winners", "win", "won", "lottery", "lucky",
                         "congratulations", "congrats", "bonus", "freebie", "free", "gift", "gifts", "promo", "promos"})
# ...unless it sells that gift: a gift card's own checkout takes a card
_PAYS = frozenset({"checkout", "payment", "payments", "billing", "pay", "buy", "purchase", "cart", "basket"})
_OUT_OF_PLACE_PAGES = _SHOP_STEPS | _LURE_PAGES
_NATIONAL_FIELD = re.compile(r"\b(?:ssn|social security|social insurance|national insurance|sin number)\b")
# by its value alone (a Canadian SIN is nine digits in threes, like many phone numbers: only where the field
# names it)
_NATIONAL_KINDS = frozenset({"US social security number", "UK national insurance number"})
_CARD_FIELD = re.compile(r"\b(?:card ?number|credit card|debit card|cvv|cvc|cvv2|csc|card verification|"
                         r"security code|expiry|expiration|exp date|card ?holder)\b")


@rule("block.gui.data-out-of-place", "An identity number or card details typed where the page has no use for them",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8, batch=_batch)
def data_out_of_place(ctx: Context) -> str | None:
    """A social security or national insurance number typed into a shop's cart or checkout (a shop needs an
    address and a card; a field that asks for more was planted there), or a card number, expiry or security
    code typed on a page that gives something away (a prize, a reward, a giveaway, a survey's gift) and does
    not sell it: what the page exists to collect. A card in a checkout, a gift card's own checkout, and an id
    on a tax or bank page do not block."""
    host, path = ctx.derived(page_of)
    if not host or not path or path == "/":
        return None
    words = _path_words(path)
    field = ctx.derived(field_text).words
    text = ctx.action.text  # type: ignore[attr-defined]
    if words & _SHOP_STEPS and ((field and _NATIONAL_FIELD.search(field)) or
                                any(f.kind in _NATIONAL_KINDS for f in find_sensitive(text))):
        return f"a social security or national insurance number typed into a shop's {short(path, 40)!r}"
    if words & _LURE_PAGES and not words & _PAYS and ((field and _CARD_FIELD.search(field)) or
                                                      any(f.kind == "card number" for f in find_sensitive(text))):
        return f"card details typed on a page that gives something away ({short(host + path, 50)!r})"
    return None


# -- personal data on a page that imitates another ------------------------------------------------------

_ONE_EMAIL = re.compile(r"^\s*[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,5}\s*$")
_ONE_PHONE = re.compile(r"^\s*\+?[\d(][\d ().-]{5,18}\d\s*$")
_VERIFIES_IDENTITY = re.compile(r"\b(?:verify|verification|confirm|confirmation|validate|prove|check) (?:\w+ ){0,2}"
                                r"identity\b|\bidentity (?:verification|check|confirmation)\b|\bkyc\b")


@rule("block.web.lookalike-personal-data", "An identity number, or contact data to verify an identity, typed on "
      "a page that imitates another", risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8,
      batch=_batch)
def lookalike_personal_data(ctx: Context) -> str | None:
    """An identity document's number (passport, licence, national id, date of birth), or an e-mail or phone
    typed into a field that says it verifies the person's identity, on a page whose host imitates another
    site or is named like a scam (`confirm.web.lookalike-page`): nothing done on such a page is the errand,
    and this is what it collects to take over an identity. A password or card there is
    `block.web.lookalike-credential`; an e-mail in an ordinary field, a search or a name only asks."""
    host, _ = ctx.derived(page_of)
    if not host or ip_of(host) is not None or is_loopback(host):
        return None
    why = ctx.compiled.brands.lookalike(host) or scam_named(host)
    if not why:
        return None
    text = ctx.action.text  # type: ignore[attr-defined]
    cat = ctx.derived(field_category)
    if cat is None or cat.name != "identity documents":
        # an e-mail or a phone asks there (`confirm.web.lookalike-page`: one to look an order up), unless the
        # field says it verifies who the person is
        field = ctx.derived(field_text).words
        if not (_ONE_EMAIL.match(text) or _ONE_PHONE.match(text)) or not field or not _VERIFIES_IDENTITY.search(field):
            return None
    return f"personal data typed on a page that imitates another site: {why}"


# -- access granted for a lure's reason -----------------------------------------------------------------

_GRANTS = frozenset({"permissions and access", "administrator rights or a standing permission",
                     "authorising an application"})
# a button that speaks as the system: "Windows Security: ...", "Apple Support - ...", "System alert: ..."
_SYSTEM_VOICE = re.compile(
    r"^(?:microsoft |apple |google )?(?:windows|microsoft|macos|mac os|apple|android|google|chrome|system|"
    r"windows defender|microsoft defender)(?: (?:security|defender|support|alert|warning|protection|update|"
    r"firewall|center|centre|helpdesk|help desk|team))* ?[:\-–—|]")
_LURE_CUES = frozenset({"remedy", "scare", "pressure", "lure"})


@rule("block.gui.lured-grant", "A button that grants access or rights for a lure's reason", risk=Risk.CRITICAL,
      types=("click",), confidence=0.8, batch=_batch)
def lured_grant(ctx: Context) -> str | None:
    """The clicked label grants access, control or rights (remote assistance, full disk access, administrator
    rights, a permission: `gate.consequence`) and gives a remedy, a scare or urgency as the reason ("to fix
    errors", "Optimizer", "your PC is at risk", `[steering.remedy]` of resources/cues.toml), or speaks as the
    system itself inside the label ("Windows Security: Allow ..."). A real permission prompt names what it
    grants and to whom; scareware and fake dialogs add the why. A plain "Allow all apps: Full disk access"
    in the settings asks (`confirm.gui.consequential`)."""
    found = ctx.derived(label_consequence)
    if found is None or found.kind not in _GRANTS:
        return None
    label = ctx.derived(label_text)
    cued = ctx.derived(steered)
    if cued is not None and _LURE_CUES.intersection(cued.found.cues):
        return f"{found.kind} granted for a lure's reason ({' + '.join(cued.found.cues)}): {short(label.raw)!r}"
    if _SYSTEM_VOICE.match(label.norm):
        return f"{found.kind} granted by a button that speaks as the system: {short(label.raw)!r}"
    return None


# -- a lure clicked on a page that is bait ------------------------------------------------------------------

# what phishing and scam pages say on their buttons: a request for identity or payment data, a threat, a prize,
# urgency, a remedy, a request for a secret
_BAIT_CUES = frozenset({"credential", "secret request", "scare", "lure", "pressure", "remedy"})


def _bait_page(ctx: Context) -> str | None:
    """Why the page itself is bait: its host imitates a brand or is named like a scam site, is a raw public
    address, or has a top-level name registered in bulk (`[phishing] cheap_tlds` of resources/lures.toml)."""
    host, _ = ctx.derived(page_of)
    if not host or is_loopback(host):
        return None
    ip = ip_of(host)
    if ip is not None:
        return None if local_ip(ip) else f"{host} is a raw address"  # a router's or a NAS's own page is local
    why = ctx.compiled.brands.lookalike(host) or scam_named(host)
    if why:
        return why
    return f"{host} has a top-level name registered in bulk" if lures.cheap_tld(host) else None


@rule("block.web.lure-on-bait-page", "A lure or a request for credentials clicked on a page that is bait",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8, batch=_batch)
def lure_on_bait_page(ctx: Context) -> str | None:
    """Two signs that agree: the clicked label carries what phishing and scam pages say (a request to verify the
    account or the card, a threat, a prize, urgency, a remedy: `[steering.*]` of resources/cues.toml, in any
    language), and the page is bait by its own address (a host that imitates a brand or is named like a scam, a
    raw public address, a top-level name registered in bulk). Each alone asks; together they are the step a
    phishing or scam page exists for. The same label on the brand's own site asks
    (`confirm.gui.steering`)."""
    cued = ctx.derived(steered)
    if cued is None or not _BAIT_CUES.intersection(cued.found.cues):
        return None
    why = ctx.derived(_bait_page)
    if not why:
        return None
    label = ctx.derived(label_text)
    return f"{' + '.join(cued.found.cues)} ({short(label.raw)!r}) on a page that is bait: {why}"


# -- something private made public -------------------------------------------------------------------------

_PRIVATE_WORDS = frozenset({"private", "secret", "secrets", "internal", "confidential", "credentials", "passwords",
                            "vault", "keys", "tokens", "payroll", "salaries", "hr", "medical", "restricted",
                            "sensitive", "intranet", "backup", "backups", "dump", "dumps",
                            # records of people: a store of them made public is a breach notice's first line
                            "customer", "customers", "crm", "pii", "patients", "patient", "employees", "employee",
                            "personnel", "ssn", "payments", "billing", "invoices", "finance", "financial", "tax",
                            "contracts", "legal"})
# what is made private when it is made, and holds everything put in it since: a repository, a dataset, a bucket or a
# database made public publishes its whole history (the hosting services' own warnings before the switch)
_PRIVATE_BY_DEFAULT = frozenset({"repository", "repositories", "repo", "repos", "dataset", "datasets", "bucket",
                                 "buckets", "database", "databases", "container", "blob", "s3", "snapshot",
                                 "snapshots"})
_PUBLISHING = "publishing or sharing publicly"
# a share button whose choice is written beside it ("Share workspace: Public")
_SHARING = "data leaving (export or share)"
# what the label must say it is made: visible to everyone
_PUBLIC_WORDS = frozenset({"public", "publicly", "everyone", "anyone", "anybody", "world", "internet", "öffentlich",
                           "publique", "público", "pública", "pubblico", "openbaar", "публичным", "публичной",
                           "общедоступным"})
_WORDS = re.compile(r"[a-z]+")
# words that say whose a thing is rather than what it holds ("internal-tools", "private-fork"): on the thing's own
# settings page its owner is deciding, and it asks; names of what it holds (secrets, payroll, patients) block
_TEAM_WORDS = frozenset({"private", "internal", "intranet", "restricted"})
# a repository's, a project's or a dataset's own settings page (`/acme/internal-tools/settings`)
_SETTINGS_PAGE = re.compile(r"^/[^/]+/[^/]+/(?:-/)?settings(?:/(?:general|options|visibility|"
                            r"permissions|access|repository))?/?$", re.IGNORECASE)


@rule("block.gui.private-made-public", "Making something named private, secret or internal public",
      risk=Risk.CRITICAL, types=("click",), confidence=0.75, batch=_batch)
def private_made_public(ctx: Context) -> str | None:
    """The clicked label makes something public or shares it with everyone and says so (`gate.consequence`:
    "Make public", "Change visibility to Public", "Anyone with the link") and the page or the label names it
    private, secret, internal, confidential, credentials, keys or payroll (`/acme/secret-infra/edit`), or says
    it holds them ("Share workspace: Public (its environment contains API keys)"): its own name says it was never
    meant for everyone. Making an ordinary project public asks
    (`confirm.gui.consequential`), and so does one whose name only says whose it is ("internal-tools",
    "private-fork") made public on its own settings page, where its owner decides."""
    found = ctx.derived(label_consequence)
    if found is None or found.kind not in (_PUBLISHING, _GRANTING, _SHARING):
        return None
    label = ctx.derived(label_text)
    said = set(label.words.split())
    if not said & _PUBLIC_WORDS and not _EVERY_PRINCIPAL.search(label.words):
        return None  # "Change visibility" opens the choice; "Publish" a post; "... to Private" is the other way
    if found.kind == _SHARING and "public" not in said and "publicly" not in said:
        return None  # "Share workspace with everyone in the team": shared inside, not published
    _, path = ctx.derived(page_of)
    # the label's own "private"/"public" (a visibility toggle) does not name the thing made public; the page's
    # query names the folder a file manager shows (`?dir=/HR/Salaries`)
    label_words = set(label.words.split()) - {"private", "public"}
    named = set(_WORDS.findall(path.lower())) | set(_WORDS.findall(_query_of(ctx))) | label_words
    hit = sorted(named & _PRIVATE_WORDS)
    if hit and _SETTINGS_PAGE.search(path) and not (label_words | set(_WORDS.findall(_query_of(ctx)))) & \
            _PRIVATE_WORDS and set(hit) <= _TEAM_WORDS:
        return None  # "internal-tools" made public on its own settings page: the owner's call, asked as any repository
    if hit:
        return f"making public what is named {hit[0]!r}: {short(label.raw)!r} on {short(path, 50)!r}"
    store = sorted(label_words & _PRIVATE_BY_DEFAULT)
    if store:
        return f"making a {store[0]} public, with everything ever put in it: {short(label.raw)!r}"
    return None


def _query_of(ctx: Context) -> str:
    """The page address's query, decoded and lower case ("" when none): where a file manager names its folder."""
    url = action_url(ctx) or ""
    q = url.partition("?")[2].partition("#")[0][:512]
    return unquote_plus(q).lower() if q else ""


# -- advertising in the person's name --------------------------------------------------------------------

_LINK = re.compile(r"\bhttps?://([a-z0-9.-]{1,253})", re.IGNORECASE)
# a post, a comment or a message in other languages (`message_field` reads the English words)
_COMMENT_FIELD = re.compile(r"\b(?:kommentar|nachricht|beitrag|antwort|bewertung|commentaire|avis|réponse|comentario|"
                            r"mensaje|respuesta|reseña|comentário|mensagem|resposta|commento|messaggio|recensione|"
                            r"reactie|bericht|komentarz|wiadomość|yorum|комментарий|сообщение|отзыв)\b|评论|留言|"
                            r"コメント|メッセージ|レビュー|댓글")


@book_table
def _promo(book: CueBook) -> re.Pattern[str]:
    return re.compile(book.parts["promo"])


@rule("confirm.web.promo-link", "Posting a sales pitch with a link to another site", risk=Risk.HIGH,
      types=("type",), confidence=0.7, batch=_batch)
def promo_link(ctx: Context) -> str | None:
    """Typed into a post, a comment, a review or a message: a link to a site other than the page's, with the
    words that sell ("amazing deal", "50% off", "buy now", "check out this offer", `promo` in [parts] of
    resources/cues.toml, in several languages). It is advertising, or a scam's link, published in the
    person's name; planted instructions ask agents for exactly this. A link shared without a pitch, and a
    pitch for the page's own site, stay quiet."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > 8192 or "://" not in text:
        return None
    if ctx.derived(typed_destination) not in (Destination.FIELD, Destination.UNKNOWN):
        return None
    if not message_field(ctx) and not _COMMENT_FIELD.search(ctx.derived(field_text).words):
        return None
    host, _ = ctx.derived(page_of)
    here = site_label(host) if host else ""
    away = [m.group(1).lower() for m in _LINK.finditer(text) if site_label(m.group(1).lower()) != here]
    if not away:
        return None
    m = _promo(ctx.compiled.cues).search(text_of(text).words)
    if m is None:
        return None
    where = short(ctx.derived(field_text).raw, 30)
    return f"a sales pitch ({short(m.group(0), 30)!r}) with a link to {away[0]} typed into {where!r}"


# -- a whole mailbox, drive or account handed to a program, administrator rights to everyone ------------------------

_WHOLE_STORE = re.compile(
    r"\b(?:full|complete|unrestricted|entire|whole|all|total|unlimited) (?:\w+ ){0,1}(?:mailbox|mailboxes|mail|inbox|"
    r"e ?mails?|drive|files|documents|account|accounts|contacts|calendar|messages|repositories|repos|data|cloud)"
    r"(?: (?:access|control|permissions?|rights|scope))?\b|\b(?:read|send|delete|manage) (?:\w+ ){0,2}(?:all )?"
    r"(?:your |my |the )?(?:e ?mails?|mail|mailbox|messages|files|drive|contacts)(?: on your behalf)?\b.{0,40}\b"
    r"(?:read|send|delete|manage) (?:\w+ ){0,2}(?:e ?mails?|mail|mailbox|messages|files|drive|contacts)\b")
# who is handed it: a program, not a person (an invited colleague with full access asks)
_PROGRAM = re.compile(r"\b(?:plugin|plug in|plugins|app|apps|application|bot|bots|extension|extensions|"
                      r"integration|integrations|add ?on|addon|connector|third party|service account|script|"
                      r"automation|gpt|agent)\b")
# administrator rights handed to everyone at once, or to a bot
_ADMIN = re.compile(r"\b(?:administrator|admin|super ?admin|owner|owners|full control)\b")
_EVERYONE = re.compile(r"(?:@everyone|\beveryone\b|\ball (?:users|members|guests|people)\b|\bpublic\b|\bguests?\b)")
_BOT_NAME = re.compile(r"\b\w*bot\b|\b(?:service|system|maintenance|helper|support) ?(?:account|bot|user)\b")


@rule("block.gui.broad-grant", "Handing a whole mailbox, drive or account to a program, or admin to everyone",
      risk=Risk.CRITICAL, types=("click",), confidence=0.75, batch=_batch)
def broad_grant(ctx: Context) -> str | None:
    """The clicked label grants access (`gate.consequence`: permissions, an application authorised, administrator
    rights) and what it grants is a whole store (full mailbox access, all files, the entire drive, read and send
    mail) to a program (a plugin, a bot, an app, an extension, an integration), or administrator rights to
    everyone (`@everyone`, all members) or to a bot. The providers' own consent guidance says a third-party app
    that asks for the whole mailbox or drive is how mail is read and sent in the owner's name; nobody's errand
    needs the agent to hand it over. A scoped grant ("Allow read access to calendar"), a person invited with full
    access, or administrator rights for a named colleague ask (`confirm.gui.consequential`)."""
    found = ctx.derived(label_consequence)
    if found is None:
        return None
    label = ctx.derived(label_text)
    words = label.words.replace("\n", " ")
    host, path = ctx.derived(page_of)
    consent = bool(path) and _CONSENT_PATH.search(path) is not None
    if found.kind not in _GRANTS and not (consent and _ALLOW_VERB.match(words)):
        return None  # on a consent page, "Allow app to read, send and delete all your email" grants what it names
    if _ADMIN.search(words) and (_EVERYONE.search(words) or _BOT_NAME.search(words)):
        return f"administrator rights to everyone or to a bot: {short(label.raw)!r}"
    m = _WHOLE_STORE.search(words)
    if m is None:
        return None
    if _PROGRAM.search(words) is None and not consent:
        return None
    return f"{m.group(0)!r} handed to a program: {short(label.raw)!r}"


_ALLOW_VERB = re.compile(r"^(?:allow|authori[sz]e|grant|give|accept|approve|permit|continue)\b")
_CONSENT_PATH = re.compile(r"oauth|/authori[sz]e|/consent|/plugins?/|/apps?/[^/]+/(?:install|authori[sz]e)",
                           re.IGNORECASE)


# -- a consequential click on a page that is bait, or under text that steers the agent -------------------------

# what a phishing, scam or drainer page exists to get clicked: money moved, an account's security changed, access,
# an application or a wallet authorised, data sent out, software run, a protection turned off
_BAIT_COMMITS = frozenset({
    "money", "account security", "permissions and access", "authorising an application",
    "administrator rights or a standing permission", "data leaving (export or share)",
    "installing or running software", "sharing or exporting a person's genetic, health or financial data",
    "turning off an account's protection", "turning off a device's or browser's protection",
    "overriding a security warning", "the account, IBAN or wallet money goes to", "moving money out",
    "changing how the account signs in or is recovered", "granting a role, permission or membership",
})


@rule("block.web.commit-on-bait-page", "Paying, granting, signing or sending out on a page that is bait",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8, batch=_batch)
def commit_on_bait_page(ctx: Context) -> str | None:
    """The clicked label commits to what a scam or phishing page exists for (`gate.consequence`: pays, transfers,
    changes an account's security, grants access, authorises an application or a wallet, sends data out, installs
    software, turns a protection off) and the page is bait by its own address: a host that imitates a brand
    (`paypal-billing.example.net`), one named like a scam (`claim-airdrop.`, `account-unlock.`), a raw public
    address, or a hyphenated name under a top-level name registered in bulk (`support-desk.example.xyz`). Each
    alone asks; together they are the step the page was put up for (the consumer-protection advice: pay and sign
    in only on the site you reached yourself). The same "Pay now" on the shop's own site asks
    (`confirm.gui.consequential`), and so does a click that only moves on ("Next", "Continue to payment")."""
    found = ctx.derived(label_consequence)
    if found is None or found.kind not in _BAIT_COMMITS:
        return None
    why = ctx.derived(_bait_page)
    if not why:
        return None
    host, _ = ctx.derived(page_of)
    if why.endswith("registered in bulk") and "-" not in host:
        return None  # a plain name under `.live` or `.xyz` may be anyone's shop; `support-desk.x.xyz` is made up
    return f"{found.kind} ({short(ctx.derived(label_text).raw)!r}) on a page that is bait: {why}"


# where the text that speaks to the agent may sit besides the label: the window's title and the page's own text
_PAGE_TEXT_LIMIT = 4096


def _page_steering(ctx: Context) -> tuple[str, str] | None:
    """(where, quote) of steering aimed at the agent in the window's title or the page's text, or None."""
    obs = ctx.observation
    for where, raw in (("the window's title", obs.window_title), ("the page's text", obs.page_text)):
        if not raw:
            continue
        text = text_of(raw[:_PAGE_TEXT_LIMIT])
        found = steering(text.words, text.norm, text.keys, ctx.compiled.cues)
        if found is not None and (found.aimed_at_agent or found.blocks_alone):
            return where, found.quote
    return None


@rule("block.gui.commit-under-steering", "A consequential click on a window or page whose text gives the agent orders",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8, batch=_batch)
def commit_under_steering(ctx: Context) -> str | None:
    """The clicked label commits to something (`gate.consequence`: pays, grants, shares, sends out, changes an
    account) and the window's title or the page's text speaks to the agent: an address to an AI, an override of
    its instructions, a lure, a fake verification (`[steering.*]` kinds marked `aimed_at_agent`). A page made for
    people does not tell an AI what to press; a prompt injection does, and the consequential click is what it
    asks for. The same click under a page that only pressures ("Offer ends today") asks
    (`confirm.gui.consequential`)."""
    if ctx.derived(label_consequence) is None:
        return None
    hit = ctx.derived(_page_steering)
    if hit is None:
        return None
    return f"{short(ctx.derived(label_text).raw)!r} clicked under text that steers the agent in {hit[0]}: " \
           f"{short(hit[1], 50)!r}"


_TYPE_RULES = (credential_for_another_site, data_out_of_place, lookalike_personal_data, promo_link)
_CLICK_RULES = (lured_grant, private_made_public, commit_on_bait_page, commit_under_steering, broad_grant)
_BAIT_RULES = (lure_on_bait_page,)
RULES: tuple[Rule, ...] = (*_TYPE_RULES, *_CLICK_RULES, *_BAIT_RULES)
