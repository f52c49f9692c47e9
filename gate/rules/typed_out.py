"""Typed text that leaves by where it is typed: a document marked confidential or internal, typed into a
public post or an AI chatbot's prompt box; a live secret typed anywhere but a credential field.

    confirm.gui.confidential-out   the marker (`[context.confidential-marker]` of resources/cues.toml) in text
                                   typed into a public post (gate/rules/gui.py) or a chatbot's prompt box
                                   (`[context.ai-assistant]`)
    block.typed.secret-out         a secret `gate.sensitive.find_secret` knows (resources/secrets.toml, a session
                                   cookie, a seed phrase, recovery codes), a named recovery key or a privileged
                                   account's password written out, typed into a message, a comment, a
                                   search box, the address bar, a form or somewhere unknown
    confirm.typed.secret-into-file the same secret typed into a code or text editor: it lands in a file
    block.typed.partial-secret-out a key written partly (`gate.sensitive.partial_secret`: "sk_live_51Hx...")
                                   typed into a message, a comment, a post or somewhere unknown
    confirm.typed.partial-secret   the same typed into another field: a document, a form, a search box, an editor
    block.typed.data-out-as-instructed  a message that says it sends all of some documents or data because an
                                   e-mail, a message or a page told it to
    confirm.typed.bulk-data-out    a message that says it sends all of some documents, or people's personal data
    block.typed.identity-numbers-bulk-out  the same with a group's SSNs, tax ids, IBANs or bank accounts in it
    block.typed.personal-record    one named person's health or financial record (gate.privacy.personal_record)
                                   typed into a public post; confirm.typed.personal-record: into a message, a
                                   comment, a form or somewhere unknown
    block.typed.card-number-public a full payment card number (it passes the card check) typed into a public post
                                   or a reply the field calls public
    block.typed.credential-given-away  a login (a user name with its password, a password with the account it
                                   opens, a password written out, a one-time code) or answers to security
                                   questions typed into a message, a comment, a post, a review, a ticket, a
                                   mail, or any field of a web page that is not where the password goes
    block.typed.identity-on-lookalike  security answers, a date of birth with an address, a bank account or an
                                   identity number typed on a page whose host imitates another or is named like
                                   a scam
    block.typed.identity-to-unofficial-form  an identity number, bank details, a card with its code or a date of
                                   birth with an address typed into a job, onboarding, survey, giveaway, prize or
                                   refund form on a host no organisation would run it on
    block.typed.code-secret-public a key assigned in code or config (`export DEPLOY_TOKEN=9b8c...`) typed where
                                   others read it: an issue or review comment, a gist, a forum, a shared notebook
    confirm.typed.code-secret-hosted  the same typed into a notebook or an editor on a web page not marked shared
    block.typed.records-to-chatbot a national id in a list or record of other people, typed into an AI chatbot
    block.typed.identity-number-public  a national id, an IBAN or a bank account typed into a post, a comment, an
                                   issue or a forum
    confirm.typed.private-detail   a private detail (health, divorce, orientation or a Pride event, church, record,
                                   immigration status, debts; gate.privacy.out_of_place) typed into a post, a
                                   comment, a review or a support form about something else; an insurance, claim,
                                   member, account, passport or licence number or a personal contact handle typed
                                   into a post, a comment or a forum
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gate.cues import either_spelling
from gate.dataout import Payload, birth_and_address, carried, local_ip, security_answers
from gate.dataout import destination as data_destination
from gate.digits import digit_count
from gate.fields import (
    ai_prompt_box,
    compose_window,
    credential_field,
    field_place,
    field_text,
    into_a_field,
    page_host,
    page_path,
    public_post,
    scam_named,
    secret_in,
    short,
    text_of,
    typed_text,
)
from gate.lures import cheap_tld
from gate.model import Risk
from gate.prefix import Guarded
from gate.privacy import Detail, on_topic, out_of_place, personal_record, record_place
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import password_in_message
from gate.rules.typed_lures import stranger, to_a_person
from gate.sensitive import _BIP39 as _BIP39_WORDS
from gate.sensitive import assigned_secret, find_secret, find_sensitive, partial_secret, password_shaped
from gate.typed import Destination, as_url, code_editor, destination
from gate.urls import action_url, ip_of, site_label, split_url

_MIN_TEXT = 12
_MAX_TEXT = 16384
_TITLE_LIMIT = 256
_QUESTION_LIMIT = 240  # a short question about a marker ("what does 'internal use only' mean?") carries no document


# a field that uploads, publishes or shares to everyone ("Upload to public Scribd", "Share publicly"), or the
# upload page of a site where every document is public
_PUBLIC_UPLOAD_FIELD = re.compile(r"\b(?:upload|uploads|publish|share|post|submit)\b(?: \w+){0,3}? public(?:ly)?\b|"
                                  r"\bpublic(?:ly)? (?:upload|share|sharing|link|document|library|gallery)\b|"
                                  r"\banyone with the link\b|\bshare (?:it )?with everyone\b")
_PUBLIC_DOC_SITES = frozenset({"scribd", "slideshare", "issuu", "docdroid", "yumpu", "calameo", "studocu",
                               "coursehero", "academia", "docplayer", "pdfcoffee", "dokumen", "fliphtml5"})
_UPLOAD_PATH = re.compile(r"/(?:upload|uploads|publish|new|submit)[\w-]*(?:/|$|\?|#)", re.IGNORECASE)


def _public_upload(ctx: Context) -> bool:
    """The field uploads, publishes or shares to everyone, or the page is a public document site's upload page."""
    field = ctx.derived(field_text).words
    if field and _PUBLIC_UPLOAD_FIELD.search(field):
        return True
    host = ctx.derived(page_host)
    return bool(host) and site_label(host) in _PUBLIC_DOC_SITES and \
        _UPLOAD_PATH.search(ctx.derived(page_path)) is not None


@rule("confirm.gui.confidential-out", "Typing text marked confidential or internal into a public post or a chatbot",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.7)
def confidential_out(ctx: Context) -> str | None:
    """The typed text carries a marker that it is not to leave the organisation ("CONFIDENTIAL", "internal
    use only", "do not distribute", "under NDA", "embargoed until", "streng vertraulich", "usage interne
    uniquement", "solo para uso interno", "não distribuir": `[context.confidential-marker]`) and goes into a
    public post, a review or a title, a field that uploads or shares to the public ("Upload to public", "Share
    publicly", a document-sharing site's upload page), or into an AI chatbot's prompt box
    (`[context.ai-assistant]`: by the chatbot's host, a label such as "Message ChatGPT" or "Ask anything").
    Either way it leaves: everyone reads the post, the chatbot's provider keeps the prompt. The same text in a
    mail or a chat message to a colleague, "we keep your data confidential" in a post, and a short question to
    a chatbot about what a marker means, pass.
    The text is redacted from the log."""
    text = getattr(ctx.action, "text", "") or ""
    if not _MIN_TEXT <= len(text) <= _MAX_TEXT:
        return None
    if len(text) < _QUESTION_LIMIT and text.rstrip().endswith("?"):
        return None
    marker = ctx.compiled.cues.context.get("confidential-marker")
    if marker is None:
        return None
    found = marker.search(ctx.derived(typed_text).words)
    if found is None:
        return None
    if ctx.derived(public_post):
        where = "a public post"
    elif ctx.derived(_public_upload):
        where = "a public upload"
    elif ctx.derived(ai_prompt_box):
        where = "an AI chatbot's prompt"
    else:
        return None
    if not into_a_field(ctx):
        return None
    return f"text marked {found.group(0).strip()!r} typed into {where} ({field_place(ctx)})"


_SEED = "a wallet seed phrase"
_RECOVERY = "an account's recovery key"
# a recovery, backup or master key written out with what it is: "our recovery key is EsTc 9xQ2 ...", "backup
# code: 4821-9932-1100-2231". The value is what follows, in groups of letters and digits
_NAMED_RECOVERY = re.compile(
    r"\b(?:recovery|backup|master|encryption|restore|rescue|emergency|vault) (?:key|keys|passphrase|pass phrase|"
    r"code|codes|password)\b(?: \w+){0,2}?\s*(?:is|are|was|:|=|-)\s*[\"'\u201c]?"
    r"((?:[A-Za-z0-9]{2,12}[ -]?){4,16})", re.IGNORECASE)
_PLACEHOLDER_WORDS = re.compile(r"\b(?:your|here|xxxx|example|placeholder|redacted|hidden|stored|saved|kept|"
                                r"printed|shown|written|in|on|the)\b", re.IGNORECASE)


_PRIVILEGED_PASSWORD = "a privileged account's password"
# the password of an account that runs things, written out with its value: "the admin password for the portal is
# Winter2026!", "user admin / password Sup3rS3cret!", "root pw: T0ps3cret#"
_NAMED_PASSWORD = re.compile(
    r"\b(?:admin|administrator|root|superuser|sudo|domain admin|vpn|server|database|db|sql|sa|portal|master|"
    r"service account|ssh|s?ftp|router|firewall|console|dashboard|prod|production|owner)\W{1,3}(?:\w+\W{1,3})?"
    r"(?:password|passwd|pwd|pw|pass|passcode)\b(?: (?:for|of|on|to) (?:the |our |my )?[\w.-]+(?: [\w.-]+)?)?"
    r"\s*(?:is|was|:|=|-)?\s*[\"'\u201c]?(\S{8,64})", re.IGNORECASE)
_TRAILING = ".,;:)]}\"'\u201d!?"


def named_password(text: str) -> str | None:
    """A privileged account's password written out after its name ("the admin password for the portal is
    Winter2026!", "user admin / password Sup3rS3cret!"): whoever reads it runs the system. The value must read
    as a password: eight or more characters with letters and digits or symbols ("the admin password is changed
    every 90 days", "root password required" and "admin password: <your password>" are none)."""
    for m in _NAMED_PASSWORD.finditer(text[:4096]):
        value = m.group(1)
        core = value.rstrip(_TRAILING) if len(value.rstrip(_TRAILING)) >= 8 else value
        if len(core) < 8 or _PLACEHOLDER_WORDS.search(core) or core.startswith(("<", "{", "$", "%", "*")):
            continue
        letters = any(c.isalpha() for c in core)
        others = any(c.isdigit() for c in core) or any(not c.isalnum() for c in core)
        if letters and others and not core.lower().startswith(("http", "www.")):
            return _PRIVILEGED_PASSWORD
    return None


def named_recovery_key(text: str) -> str | None:
    """An account's recovery, backup or master key written out after its name ("our recovery key is EsTc 9xQ2
    mRkL ...", "backup codes: 4821 9932 1100 2231"): whoever reads it can take the account or open the vault.
    The value must read as a key: 16 or more letters and digits in groups, digits among them, and no word of
    prose ("the recovery key is stored in the settings", "recovery key: YOUR-KEY-HERE" are no key)."""
    if len(text) > 4096:
        text = text[:4096]
    for m in _NAMED_RECOVERY.finditer(text):
        value = m.group(1).strip()
        groups = value.replace("-", " ").split()
        alnum = "".join(groups)
        if len(alnum) < 16 or _PLACEHOLDER_WORDS.search(value):
            continue
        keyish = sum(1 for g in groups if any(c.isdigit() for c in g) or (g != g.lower() and g != g.upper()
                                                                          and g[1:] != g[1:].lower()))
        if sum(c.isdigit() for c in alnum) >= 2 and keyish * 2 >= len(groups):
            return _RECOVERY
    return None


def _secret(ctx: Context) -> str | None:
    """The kind of secret the typed text holds that no other rule has named, where it would leave; else None.
    A credential field is where a secret belongs (`confirm.gui.credential-field`); a terminal or a Run dialog
    runs the text, and the shell rules judge it; a secret the policy's `[gui] secret_patterns` already find is
    `block.gui.secret-exposure`. A wallet's seed phrase has no field on any web page: wallets keep it on the
    device, and a page that asks for it is draining the wallet, so there the credential field counts too."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 12:
        return None
    if ctx.derived(credential_field):
        url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
        if not url.lower().startswith(("http://", "https://")) or find_secret(text) != _SEED:
            return None
        return _SEED
    where = ctx.derived(destination)
    if where.runs_commands:
        return None
    if where is Destination.ADDRESS_BAR and as_url(text) is not None:
        return None  # a URL opened: the navigation rules judge a secret in it (typed as a search, it leaves here)
    kind = find_secret(text) or named_recovery_key(text) or named_password(text)
    if kind is None or ctx.derived(secret_in) is not None:
        return None
    return kind


@rule("block.typed.secret-out", "A live secret typed where it leaves: a message, a post, a search, a form",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.85)
def secret_out(ctx: Context) -> str | None:
    """The typed text holds a live secret (a token in one of the issuers' formats of resources/secrets.toml,
    an Azure storage key, a database connection string with its password, the base64 body of a private key,
    a session cookie, a wallet's seed phrase, two-factor recovery codes, an account's recovery or master key
    written out after its name, a privileged account's password written out after its name: "the admin password
    for the portal is ...") and goes into a message, a comment,
    an issue, a post, a search box, the address bar, a form or a place deskgate cannot tell: whoever reads it
    there can sign in as the person. Into a password or token field it is `confirm.gui.credential-field`
    (except a seed phrase into a web page's field: no real wallet asks for it on a page);
    into a code editor it asks (`confirm.typed.secret-into-file`). Text about secrets ("rotate the Stripe
    key", "what is a seed phrase") and placeholders ("api key: YOUR_KEY_HERE") pass. The text is redacted."""
    kind = ctx.derived(_secret)
    if kind is None or ctx.derived(code_editor):
        return None
    return f"credential exposure: typing {kind} into {field_place(ctx) if ctx.derived(field_text).raw else 'a field'}"


@rule("confirm.typed.secret-into-file", "A live secret typed into a code or text editor", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.8)
def secret_into_file(ctx: Context) -> str | None:
    """A secret `block.typed.secret-out` knows, typed into a code or text editor: it lands in a file, which
    may be committed or shared. A `.env` file kept out of the repository is a fair place, so a person
    decides."""
    kind = ctx.derived(_secret)
    if kind is None or not ctx.derived(code_editor) or \
            ctx.derived(destination) not in (Destination.FIELD, Destination.UNKNOWN):
        return None
    return f"typing {kind} into a code editor: it lands in a file"


# -- a key written partly ------------------------------------------------------------------------------------


def _partial(ctx: Context) -> str | None:
    """The kind of key the typed text writes partly, in a field or a place deskgate cannot tell; None where
    another rule already names a whole secret in it, or where it is no text to read (a terminal, a Run dialog,
    the address bar, a credential field)."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 6 or ctx.derived(credential_field):
        return None
    where = ctx.derived(destination)
    if where not in (Destination.FIELD, Destination.UNKNOWN):
        return None
    kind = partial_secret(text)
    if kind is None or ctx.derived(_secret) is not None or ctx.derived(secret_in) is not None:
        return None
    return kind


def _goes_out(ctx: Context) -> bool:
    """The field sends what is typed to people: a message, a comment, an issue, a post, a mail being written, a
    messaging page; or a place deskgate cannot tell."""
    if ctx.derived(destination) is Destination.UNKNOWN:
        return True
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    return ctx.derived(to_a_person) or compose_window(url)


@rule("block.typed.partial-secret-out", "A key written partly, typed into a message, a comment or a post",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.75)
def partial_secret_out(ctx: Context) -> str | None:
    """The typed text writes a key partly: its issuer's prefix, its first characters and an elision
    ("sk_live_51Hx...", "ghp_7Qa…", "AKIA4T2R****"; resources/secrets.toml `[partial]`), into a message, a
    comment, an issue, a post or a place deskgate cannot tell. It names the live key and gives its start to
    whoever reads there, and the elided rest is what the agent was holding: treated as the key itself
    (`block.typed.secret-out`). "Stripe live keys start with sk_live_..." (a prefix alone) passes. The text is
    redacted from the log."""
    kind = ctx.derived(_partial)
    if kind is None or not _goes_out(ctx):
        return None
    place = field_place(ctx) if ctx.derived(field_text).raw else "a field"
    return f"credential exposure: {kind}, written partly, typed into {place}"


@rule("confirm.typed.partial-secret", "A key written partly, typed into a document, a form or an editor",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.7)
def partial_secret_in(ctx: Context) -> str | None:
    """The same key written partly (`block.typed.partial-secret-out`) typed into a field that sends it to no one
    at once: a document, a form, a search box, a code editor. A runbook may name a key by its start; a person
    decides."""
    kind = ctx.derived(_partial)
    if kind is None or _goes_out(ctx):
        return None
    return f"{kind}, written partly, typed into {field_place(ctx) if ctx.derived(field_text).raw else 'a field'}"


# -- a message that says what it sends out -----------------------------------------------------------------

_SENDS = r"(?:forward(?:s|ing|ed)?|send(?:s|ing)?|sent|attach(?:es|ing|ed)?|attached (?:are|is)|shar(?:e|es|ing|ed)|" \
    r"upload(?:s|ing|ed)?|export(?:s|ing|ed)?|transferr?(?:s|ing|ed)?|cc(?:'?ing|'?d)?|mail(?:s|ing|ed)?|" \
    r"here (?:are|is)|enclosed (?:are|is)|please find)"
# all of a kind of business document or data ("all Q2 supplier invoices", "the entire customer list"); the
# `_SENSITIVE_DOCUMENTS` are private by themselves, the others ("all the files") only when content asked for them
_DOCUMENTS = (r"invoices?|contracts?|files|documents|records|statements|payroll|bank (?:details|statements|accounts?)|"
              r"credentials|passwords|logins|customer (?:data|list|records|details)|contacts|e-?mails|messages|"
              r"attachments|receipts|reports|spreadsheets|folders?|tax returns|payslips|pay stubs|w-?2s|w-?2 forms|"
              r"p60s|1099s")
_ALL_DOCUMENTS = re.compile(
    rf"\b{_SENDS}\b.{{0,60}}?\b(?:all|every|the entire|the whole|the complete|the full)\s+(?:of\s+)?"
    rf"(?:(?:the|our|my|your|its)\s+)?(?:[\w-]+\s+){{0,3}}?(?:{_DOCUMENTS})\b", re.IGNORECASE)
_SENSITIVE_DOCUMENTS = re.compile(
    r"\b(?:invoices?|contracts?|payroll|bank (?:details|statements|accounts?)|credentials|passwords|logins|customer "
    r"(?:data|list|records|details)|tax returns|payslips|pay stubs|w-?2s|w-?2 forms|p60s|1099s|"
    r"(?:financial|medical|personnel|hr|customer|patient|client) (?:records|files|documents|data)|records)$",
    re.IGNORECASE)
# the people's data of a whole group ("all candidates ... home addresses", "every employee's salary", "the phone
# numbers of all our volunteers")
_GROUP = (r"(?:all|every|each|the entire list of|the whole list of)\s+(?:(?:the|our|my)\s+)?(?:[\w-]+\s+){0,2}?"
          r"(?:candidates?|employees?|staff|customers?|clients?|patients?|users?|members?|applicants?|students?|"
          r"tenants?|donors?|subscribers?|volunteers?)(?:'s?)?")
_PERSONAL = (r"(?:home addresses|addresses|salar(?:y|ies)|ssns?|social security numbers?|phone numbers|dates? of birth|"
             r"birth ?dates|medical|health|diagnos\w+|passports?|bank details|card numbers|credit cards?|passwords|"
             r"id numbers|national ids?|national insurance numbers?|tax ids?|ibans?|bank accounts?|"
             r"background checks?|criminal records?)")
_PEOPLES_DATA = re.compile(rf"\b{_GROUP}\b.{{0,80}}?\b{_PERSONAL}\b|\b{_PERSONAL}\s+(?:of|for|from)\s+{_GROUP}\b",
                           re.IGNORECASE)
# the message says it does this because an e-mail, a message or a page asked
_AS_TOLD = re.compile(
    r"\b(?:as (?:instructed|directed|demanded)|as (?:requested|asked) (?:by|in) (?:the|this|that) (?:e-?mail|message|"
    r"page|ticket|note|document|sender|website|site|instructions?)|per the (?:instructions?|request) (?:in|from) the "
    r"(?:e-?mail|message|page|ticket|note|document)|per the (?:note|message|e-?mail|comment) (?:in|on|from) (?:the )?"
    r"(?:ticket|issue|e-?mail|message|page|document|case)|according to the (?:instructions?|e-?mail|message)|"
    r"as (?:the|this) (?:e-?mail|message|page|ticket|note) (?:says|said|asks|asked|requests|requested|instructs|"
    r"instructed))\b", re.IGNORECASE)
_BULK_WORDS = ("all", "every", "each", "entire", "whole", "complete", "full")
_SENDS_RE = re.compile(rf"\b{_SENDS}\b", re.IGNORECASE)
_SEARCH_FIELD = re.compile(r"\b(?:search|query|find|filter)\b")
_PROSE_LIMIT = 4096


def _sent_out(ctx: Context) -> tuple[str, bool] | None:
    """(what the message says it sends, whether it says an e-mail, a message or a page asked for it), or None."""
    text = getattr(ctx.action, "text", "") or ""
    if not 20 <= len(text) <= _PROSE_LIMIT or not into_a_field(ctx) or ctx.derived(credential_field):
        return None
    field = ctx.derived(field_text).words
    if field and _SEARCH_FIELD.search(field):
        return None
    t = " ".join(text.split())
    low = t.lower()
    if not any(w in low for w in _BULK_WORDS):
        return None  # every pattern below names all, every, each, entire, whole or complete
    told = _AS_TOLD.search(t) is not None
    found = _ALL_DOCUMENTS.search(t)
    if found is not None and (told or _SENSITIVE_DOCUMENTS.search(found.group(0))):
        return found.group(0), told
    people = _PEOPLES_DATA.search(t)
    if people is None or _SENDS_RE.search(t) is None:
        return None
    return people.group(0), told


@rule("block.typed.data-out-as-instructed", "A message that sends all of some data because an e-mail or a page said so",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.75)
def data_out_as_instructed(ctx: Context) -> str | None:
    """The typed message says it forwards, sends, attaches or shares all of some documents or data ("all Q2
    invoices and the bank details", "every customer record") or a group's personal data, and that it does so
    because an e-mail, a message, a page or a ticket asked ("as instructed", "as requested by the email"): the
    shape of an instruction planted in content the agent read and is now carrying out. "Sending the Q2 report
    as you asked" passes; without the planted request it asks (`confirm.typed.bulk-data-out`). The text is
    redacted."""
    found = ctx.derived(_sent_out)
    if found is None or not found[1]:
        return None
    return f"the message sends {found[0]!r} because content it read asked: typed into {field_place(ctx)}"


@rule("confirm.typed.bulk-data-out", "A message that sends all of some documents, or a group's personal data",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.65)
def bulk_data_out(ctx: Context) -> str | None:
    """The typed message says it forwards, sends or attaches all of some private documents or data ("forwarding
    all the contracts", "every customer record", "all payslips") or a group's personal data ("all candidates,
    with their home addresses"): data leaving in bulk. A person decides; one report sent to a colleague, and
    "attached are all the receipts" (no private kind), do not ask. The text is redacted."""
    found = ctx.derived(_sent_out)
    if found is None or found[1]:
        return None
    return f"the message sends {found[0]!r}: typed into {field_place(ctx)}"


# what identifies a person to a bank or a tax office: a group's of these, sent in one message, is the payroll and
# W-2 theft that tax agencies warn employers of
_ID_NUMBERS = re.compile(r"\b(?:ssns?|social security(?: numbers?)?|national (?:id|insurance)(?: numbers?)?|"
                         r"nino|tax (?:id|ids|numbers?)|tins?|ibans?|bank (?:details|accounts?|account numbers?)|"
                         r"account numbers?|routing numbers?|passport numbers?|passports?|"
                         r"driver'?s licen[cs]e numbers?|card numbers?|w-?2s?|p60s?|sozialversicherungsnummer|"
                         r"steuer-?id|numéro de sécurité sociale|número de seguridad social)\b", re.IGNORECASE)
# a count of people ("300 employees", "every staff member")
_MANY_PEOPLE = re.compile(r"\b(?:\d[\d,]{1,6}|all|every|each|entire|whole)\s+(?:(?:the|our|my|of)\s+)?"
                          r"(?:[\w-]+\s+){0,2}?(?:employees?|staff|workers?|customers?|clients?|patients?|users?|members?|applicants?|"
                          r"students?|tenants?|donors?|people|payroll)\b", re.IGNORECASE)


@rule("block.typed.identity-numbers-bulk-out", "A message that sends a group's identity or bank numbers",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.75)
def identity_numbers_bulk_out(ctx: Context) -> str | None:
    """A message that says it sends all of some records or a group's personal data (`confirm.typed.bulk-data-out`)
    and what it sends holds numbers that identify people to a bank or a tax office, for many of them: SSNs,
    national insurance or tax ids, IBANs or bank accounts, passport numbers, W-2s ("all staff payroll records
    below: name, IBAN, salary, SSN for 300 employees"). It is the payroll and W-2 theft tax agencies warn
    employers of: one mail hands a whole staff's identities over. All payslips without those numbers, and one
    person's own details, ask or pass as before. The text is redacted."""
    found = ctx.derived(_sent_out)
    if found is None:
        return None
    text = " ".join((getattr(ctx.action, "text", "") or "")[:_PROSE_LIMIT].split())
    ids = _ID_NUMBERS.search(text)
    if ids is None or _MANY_PEOPLE.search(text) is None:
        return None
    return f"the message sends {found[0]!r} with {ids.group(0)!r} of many people: typed into {field_place(ctx)}"


def _record(ctx: Context) -> str | None:
    """The record the typed text holds, where it leaves: a field people read or a place deskgate cannot tell;
    not a credential field, and not a chart or a case file (where records are kept)."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 24 or not into_a_field(ctx) or ctx.derived(credential_field):
        return None
    found = personal_record(text)
    if found is None:
        return None
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    if any(record_place(s) for s in (ctx.derived(field_text).words, url, obs.window_title, obs.app)):
        return None
    return found


def _record_read_by_many(ctx: Context) -> bool:
    """A public post, or a comment, an issue or a forum's thread (`_read_by_many`) that is no support ticket."""
    if ctx.derived(public_post):
        return True
    field = ctx.derived(field_text).words
    return _read_by_many(ctx) and not (field and _TICKET.search(field))


@rule("block.typed.personal-record", "One person's health or financial record typed into a public post",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.75)
def personal_record_public(ctx: Context) -> str | None:
    """The typed text is one named person's record: who it is (a name, "Patient: ..."), what fixes it to them
    (a date of birth, an account, record or member number) and a health or money entry (a diagnosis, lab
    results, medication; a balance, arrears, a debt): `gate.privacy.personal_record`, which also reads a patient's
    name or medical record number with a birth date (no diagnosis needed), a diagnosis beside an insurance or
    member id, and a child's school beside a street address. Into a post, a title, a status, a review, or a
    comment, an issue or a thread that others read (a support ticket aside), everyone there reads it. "Lab
    results are ready" and an order's shipping address are no record. The text is redacted."""
    if not _record_read_by_many(ctx):
        return None
    found = ctx.derived(_record)
    return f"{found} of a named person typed into a public post ({field_place(ctx)})" if found else None


@rule("confirm.typed.personal-record", "One person's health or financial record typed into a message or a form",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.7)
def personal_record_out(ctx: Context) -> str | None:
    """The same record (`block.typed.personal-record`) typed into a message, a comment, an issue, a form or a
    place deskgate cannot tell: it reaches whoever reads there. A clinician's chart or a case file is where it
    belongs, and does not ask."""
    if _record_read_by_many(ctx):
        return None
    found = ctx.derived(_record)
    return f"{found} of a named person typed into {field_place(ctx)}" if found else None


# a field that says its text is public: a public reply, comment or note (a help desk's reply to a customer is
# one, and so is a forum's)
_PUBLIC_WORD = re.compile(r"\bpublic\b")


@rule("block.typed.card-number-public", "A full payment card number typed into a public post or a public reply",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def card_number_public(ctx: Context) -> str | None:
    """A full payment card number (one that passes the card check, `gate.sensitive.find_sensitive`) typed into a
    post, a title, a review, or a reply or comment the field calls public ("Public reply"): everyone who reads
    the thread can pay with it, and card rules forbid showing it. A card number typed into a checkout's card
    field, and "the card ending 4242", pass; in a private message it asks (`confirm.gui.sensitive-data`). The
    text is redacted."""
    text = ctx.derived(typed_text).raw
    if not 13 <= len(text) <= 4096 or digit_count(text[:4096]) < 13 or not into_a_field(ctx) \
            or ctx.derived(credential_field):
        return None
    field = ctx.derived(field_text).words
    if not (ctx.derived(public_post) or (field and _PUBLIC_WORD.search(field))):
        return None
    if not any(f.kind == "card number" for f in find_sensitive(text)):
        return None
    return f"a full card number typed into {field_place(ctx)}: everyone who reads it can pay with it"


# -- a login or what resets one, given away ------------------------------------------------------------------

# what `gate.dataout.carried` calls a login handed over
_LOGIN_KINDS = frozenset({"a user name with its password", "a password with the account it opens",
                          "a credential list", "a one-time security code"})
# where a login is kept, not given away: a password manager's vault, a secure note
_VAULT = re.compile(r"\b(?:vault|password manager|secure note|1password|bitwarden|lastpass|keepass(?:xc)?|dashlane|"
                    r"keeper|proton pass|nordpass|enpass|roboform)\b")
# a support ticket, a case, a help request: read by staff and by the tools that summarise tickets
_TICKET = re.compile(r"\b(?:ticket|tickets|case|support request|help request|issue|issues|bug report|feedback|"
                     r"incident|request details|describe (?:your|the) (?:issue|problem))\b")


def _carried(ctx: Context) -> Payload | None:
    """What the typed text carries out (`gate.dataout.carried`), read once per action."""
    text = getattr(ctx.action, "text", "") or ""
    return carried(text[:16384]) if text else None


def _login_given(ctx: Context) -> str | None:
    """What opens an account that the typed text writes out, or None: a user name with its password, a
    password with the account it opens, a list of logins, a one-time code (`gate.dataout.carried`), answers to
    security questions, or a password written after its word (`confirm.gui.password-in-message`)."""
    text = getattr(ctx.action, "text", "") or ""
    if not 6 <= len(text) <= 4096 or not into_a_field(ctx) or ctx.derived(credential_field):
        return None
    found = ctx.derived(_carried)
    if found is not None and found.kind in _LOGIN_KINDS:
        return found.kind
    if security_answers(text):
        return "answers to security questions"
    if password_in_message(ctx) is not None:
        return "a password"
    if len(text) <= 64 and password_shaped(text) and _PATH_LIKE.search(text) is None and \
            ctx.derived(secret_in) is None:
        return _SHAPED
    return None


_SHAPED = "a password-shaped string"
# a file's path or name ("~/Documents/CV_2025.pdf", "C:\\Reports\\Q3.xlsx", "scan_0412.jpg"): no password
_PATH_LIKE = re.compile(r"^\s*(?:~|\.{0,2}/|[A-Za-z]:[\\/]|\\\\)|[\\/]\S*\.\w{1,5}\s*$|\.[A-Za-z][A-Za-z0-9]{1,4}\s*$")


def _kept(ctx: Context) -> bool:
    """The field, the page or the window is a password manager's vault or a secure note: where logins are kept."""
    obs = ctx.observation
    place = " ".join((ctx.derived(field_text).words, ctx.derived(page_host).replace(".", " "),
                      text_of(obs.window_title[:_TITLE_LIMIT]).words if obs.window_title else "",
                      obs.app.lower()[:64]))
    return _VAULT.search(place) is not None


# the writer's own login ("my password is", "here are my bank login details"): no one, not the bank's own staff,
# needs it; a shared team login ("the staging login is ...") is a person's call
_OWN = re.compile(r"\b(?:my|mine|meine?|mon|ma|mes|mi|mis|meu|minha)\b", re.IGNORECASE)
# a field whose text others read: a comment, a review, a ticket, a post
_READ_BY_MANY = Guarded(re.compile(r"\b(?:comment|comments|review|reviews|post|thread|answer|forum|public|ticket|issue|"
                           r"discussion|feedback)\b"))


# a forum or a question-and-answer site, by its host: every reply there is public
_FORUM_HOST = Guarded(re.compile(r"(?:^|\.)(?:forum|forums|community|communities|discuss|discourse|board|boards)\.|"
                         r"(?:^|\.)(?:reddit|stackoverflow|stackexchange|quora|superuser|serverfault)\."))


# a forum's private messages: read by the one member they go to
_PRIVATE_PATH = re.compile(r"/(?:messages?|dm|direct|inbox|chat|conversations?|pm|private)(?:/|$)", re.IGNORECASE)


def _given_to(ctx: Context, kind: str) -> str | None:
    """Who reads the login where it is typed, when that gives it away: the public (a post, a comment, a review,
    a ticket), a stranger or a support chat, or anyone at all when it is the writer's own login or the answers
    that reset it; None where a person decides (a shared login in a message to a colleague)."""
    field = ctx.derived(field_text).words
    if ctx.derived(public_post) or (field and (_TICKET.search(field) or _READ_BY_MANY.search(field))) or \
            (_FORUM_HOST.search(ctx.derived(page_host)) and not _PRIVATE_PATH.search(ctx.derived(page_path))):
        return "where others read it"
    if kind == _SHAPED:
        return None  # alone, a password-shaped string elsewhere asks (confirm.gui.password-shaped)
    who = stranger(ctx)
    if who is not None:
        return "to a support chat" if who == "support" else "to a stranger"
    if not ctx.derived(to_a_person):
        return "into a page's field, where a sign-in form asks for each part in its own field" \
            if ctx.derived(page_host) else None
    text = getattr(ctx.action, "text", "") or ""
    if kind == "answers to security questions" or _OWN.search(text[:4096]):
        return "in a message: no bank or provider asks for it"
    return None


@rule("block.typed.credential-given-away",
      "A login or the answers that reset it, typed into a message, a post, a ticket or a page's field",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def credential_given_away(ctx: Context) -> str | None:
    """The typed text writes out what opens an account: a user name with its password, a password with the
    account it names, a list of logins, a password after its word ("my password is ..."), a one-time code, or
    the answers to security questions ("mother's maiden name: ...", "first pet: ..."); or, into a comment, a
    post or a review, a password-shaped string alone. It goes where others read it (a comment, a post, a
    review, a support ticket), to a stranger or a support chat, into a field of a
    web page that is not a password field, or, when it is the writer's own login or the reset answers, into
    any message or mail. Banks and providers say it plainly: no one from them asks for a password, a code or
    the answers by message, and a login form asks for each part in its own field. Whoever reads it signs in,
    or resets the account. The parts typed into the sign-in form's own fields, a password manager's vault or
    secure note, a local document, and talk about passwords ("never share your password") pass; a shared team
    login sent to a colleague, and a field named with no page or app around it, ask (`confirm.gui.data-out`,
    `confirm.gui.password-in-message`). The text is redacted."""
    obs = ctx.observation
    if not (ctx.derived(page_host) or obs.app or obs.window_title):
        return None
    kind = ctx.derived(_login_given)
    if kind is None or ctx.derived(code_editor) or ctx.derived(_kept):
        return None
    where = _given_to(ctx, kind)
    return f"{kind} typed {where} ({field_place(ctx)}): whoever reads it signs in as the person" if where else None


# -- identity and bank details where they do not belong ------------------------------------------------------

# the field asks for what resets an account or proves who someone is
_IDENTITY_FIELD = re.compile(r"\b(?:security (?:question|questions|answer|answers)|secret (?:question|answer)|"
                             r"maiden name|date of birth|birth ?date|dob|social security|ssn|national id|"
                             r"(?:account|routing|sort|iban|bic|swift|transit) (?:number|no|code)|iban|"
                             r"bank (?:account|details)|direct deposit|tax (?:id|number))\b")


def _identity_typed(ctx: Context) -> str | None:
    """What proves who someone is or reaches their money, in the typed text: security answers, a date of birth
    with an address, a national id, a bank account or IBAN, a card with its code; None otherwise."""
    text = getattr(ctx.action, "text", "") or ""
    if not 4 <= len(text) <= 4096 or not into_a_field(ctx):
        return None
    if security_answers(text):
        return "answers to security questions"
    if birth_and_address(text):
        return "a date of birth with a home address"
    if any(ch.isdigit() for ch in text):
        found = ctx.derived(_carried)
        if found is not None and found.severity >= 3 and found.kind.startswith(("a card number", "a national id")):
            return found.kind
        ids = [f for f in find_sensitive(text) if f.category in ("identity documents", "financial data")]
        if ids:
            return ids[0].kind
    return None


def _imitating(ctx: Context) -> str | None:
    host = ctx.derived(page_host)
    if not host or ip_of(host) is not None:
        return None
    return ctx.compiled.brands.lookalike(host) or scam_named(host)


@rule("block.typed.identity-on-lookalike",
      "Security answers, a birth date with an address, or bank or id numbers typed on a page that imitates another",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.85)
def identity_on_lookalike(ctx: Context) -> str | None:
    """On a page whose host imitates another site or is named like a scam (`confirm.web.lookalike-page`), the
    typed text answers security questions, writes a date of birth with a street address, or holds a national
    id or a bank account; or the field asks for those ("Security questions", "Date of birth") and gets an
    answer. Phishing kits ask for these after the password: with them the account is reset and credit is
    opened in the person's name. A name or an e-mail typed there asks as today. The text is redacted."""
    why = ctx.derived(_imitating)
    if why is None:
        return None
    kind = ctx.derived(_identity_typed)
    if kind is None:
        field = ctx.derived(field_text).words
        text = (getattr(ctx.action, "text", "") or "").strip()
        if not (field and _IDENTITY_FIELD.search(field)) or len(text) < 2 or not into_a_field(ctx):
            return None
        kind = f"an answer to {short_label(ctx)!r}"
    return f"{kind} typed on a page that imitates another site: {why}"


def short_label(ctx: Context) -> str:
    raw = ctx.derived(field_text).raw.split("\n", 1)[0]
    return raw if len(raw) <= 40 else raw[:39] + "\u2026"


# what a form says it is for, where scams ask for ids and bank details: a job or onboarding, a survey, a giveaway
# or prize, a refund or a claim
_PRETEXT = re.compile(r"\b(?:job|jobs|career|careers|hiring|hire|new hire|recruit\w*|interview|onboarding|"
                      r"employment|applicant|application|payroll|direct deposit|work from home|remote work|"
                      r"survey|questionnaire|poll|giveaway|give away|sweepstakes?|prize|prizes|winner|winners|won|"
                      r"reward|rewards|gift|bonus|lottery|raffle|contest|free|claim|refund|refunds|rebate|"
                      r"reimbursement|compensation|grant|stimulus|unclaimed|redelivery|remboursement|gewinn|"
                      r"gewinnspiel|erstattung|reembolso|premio|sorteo)\b")
# builders where anyone publishes a form: a form there speaks for whoever made it
_FORM_BUILDERS = frozenset({"typeform", "jotform", "surveymonkey", "tally", "wufoo", "formstack", "123formbuilder",
                            "forms", "formsite", "cognitoforms", "paperform", "zohoforms", "forms.gle"})


def _unofficial(ctx: Context) -> str | None:
    """Why the page's host is one no organisation would run its job, survey or refund form on, or None: it
    imitates another site, is named like a scam, is a bulk-registered name, a bare public address, or a
    builder where anyone publishes a form."""
    host = ctx.derived(page_host)
    if not host:
        return None
    ip = ip_of(host)
    if ip is not None:
        return None if local_ip(ip) else f"{host} is a bare address"
    why = ctx.derived(_imitating)
    if why:
        return why
    if cheap_tld(host):
        return f"{host} is a bulk-registered name"
    path = ctx.derived(page_path).lower()
    if site_label(host) in _FORM_BUILDERS or host == "forms.gle" or \
            (host.endswith("google.com") and path.startswith(("/forms", "/a/", "/form"))):
        return f"{host} publishes anyone's form"
    return None


@rule("block.typed.identity-to-unofficial-form",
      "An id number, bank details or a birth date with an address typed into a job, survey, prize or refund form "
      "on an unofficial host", risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def identity_to_unofficial_form(ctx: Context) -> str | None:
    """A national id, a bank account, routing number or IBAN, a card with its code, or a date of birth with a
    street address typed into a form that says it is for a job or onboarding, a survey, a giveaway or prize, a
    refund or a claim, on a host no employer, bank or agency runs it on: a bulk-registered name, one that
    imitates a brand or is named like a scam, a bare address, or a form builder where anyone publishes. Tax
    agencies, banks and job boards warn of these: a refund or prize that needs the account number first, a job
    that needs the SSN and bank details before any interview. The employer's or the bank's own site asks as
    today (`confirm.gui.critical-point`); a shipping address on a shop passes. The text is redacted."""
    why = ctx.derived(_unofficial)
    if why is None:
        return None
    kind = ctx.derived(_identity_typed)
    if kind is None or kind == "answers to security questions":
        return None
    obs = ctx.observation
    place = " ".join((ctx.derived(field_text).words, ctx.derived(page_host).replace(".", " ").replace("-", " "),
                      text_of(ctx.derived(page_path)[:_TITLE_LIMIT]).words,
                      text_of(obs.window_title[:_TITLE_LIMIT]).words if obs.window_title else ""))
    pretext = _PRETEXT.search(place)
    if pretext is None:
        return None
    return f"{kind} typed into a {pretext.group(0)!r} form: {why}"


def _read_by_many(ctx: Context) -> bool:
    """Others read what the field holds: a post, a comment, a review, an issue, a thread, a field that says it
    is public, or any field of a forum (its private messages aside)."""
    field = ctx.derived(field_text).words
    return ctx.derived(public_post) or bool(field and _READ_BY_MANY.search(field)) or \
        bool(_FORUM_HOST.search(ctx.derived(page_host)) and not _PRIVATE_PATH.search(ctx.derived(page_path)))


_ACCOUNT_NUMBER = re.compile(
    r"\b(?:account|acct|a/c|kontonummer|numéro de compte|número de cuenta)\b\D{0,20}\d{6,17}\b", re.IGNORECASE)


@rule("block.typed.identity-number-public",
      "A national id or a bank account typed into a post, a comment, an issue or a forum",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def identity_number_public(ctx: Context) -> str | None:
    """A national identity number that passes its check (a US SSN, a UK NINO, a Spanish DNI, ...), an IBAN, or a
    routing number with an account number, typed into a post, a comment, a review, an issue, a thread or a
    forum: everyone who reads it can open credit, file taxes or take payments in the person's name. A support
    ticket or a message to one person asks as today (`confirm.gui.sensitive-data`), and a card number has its
    own rule (`block.typed.card-number-public`). The text is redacted."""
    text = ctx.derived(typed_text).raw
    if not 8 <= len(text) <= 4096 or digit_count(text[:4096]) < 8 or not into_a_field(ctx) \
            or ctx.derived(credential_field) or not ctx.derived(_read_by_many):
        return None
    for found in find_sensitive(text):
        if found.category == "identity documents" or found.kind == "IBAN" or \
                (found.kind == "US bank routing number" and _ACCOUNT_NUMBER.search(text[:4096])):
            return f"{found.kind} typed into {field_place(ctx)}, where others read it"
    return None


# records of other people: a list or a record of customers, patients, employees ...
_OTHERS_RECORDS = re.compile(r"\b(?:customers?|clients?|patients?|employees?|staff|students?|tenants?|applicants?|"
                             r"members?|users?|donors?|subscribers?|candidates?|residents?|policyholders?|"
                             r"kunden|patienten|mitarbeiter|clientes?|pacientes?|empleados?)\b(?:'s?)?"
                             r"(?: \w+){0,2}? ?(?:list|lists|records?|data|details|database|export|sheet|table|file|:)",
                             re.IGNORECASE)


@rule("block.typed.records-to-chatbot", "Other people's identity numbers typed into an AI chatbot",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.75)
def records_to_chatbot(ctx: Context) -> str | None:
    """A national identity number that passes its check (a US SSN, a UK NINO ...) in text that is a list or a
    record of other people (customers, patients, employees, tenants: "Customer list: Jane Roe 555-0134 ... SSN
    078-05-1120"), typed into an AI chatbot's prompt box: the chatbot's provider keeps the prompt, and the people
    never agreed to it. Data-protection regulators and the providers' own terms say not to paste other people's
    identity data into a chatbot. One's own number typed there asks as today (`confirm.gui.sensitive-data`); a
    customer list without identity numbers passes. The text is redacted."""
    text = ctx.derived(typed_text).raw
    if not 12 <= len(text) <= 8192 or digit_count(text[:8192]) < 8 or not into_a_field(ctx) or \
            ctx.derived(credential_field) or not ctx.derived(ai_prompt_box):
        return None
    records = _OTHERS_RECORDS.search(text[:4096])
    if records is None:
        return None
    for found in find_sensitive(text):
        if found.category == "identity documents":
            return f"{found.kind} in {records.group(0).strip()!r} typed into an AI chatbot: the provider keeps it"
    return None


# -- keys written into code, where others read it ---------------------------------------------------------------

# a field, page or window others read: public or shared, a gist or a snippet, a forum, a review's discussion
_SHARED_PLACE = re.compile(r"\b(?:public|shared|share|gist|gists|snippet|snippets|paste|pastebin|forum|forums|"
                           r"discussion|discussions|issue|issues|pull|pulls|merge requests?|comment|comments|answer|"
                           r"answers|question|questions|community|thread)\b")
# a notebook or an editor served by a web page
_HOSTED_CODE = re.compile(r"\b(?:notebook|notebooks|cell|colab|kaggle|jupyter|jupyterlab|deepnote|databricks|"
                          r"replit|repl|codepen|codesandbox|stackblitz|jsfiddle|glitch|playground|sandbox|"
                          r"editor|ide|code)\b")


def _code_secret(ctx: Context) -> tuple[str, bool] | None:
    """(the secret's name, whether others read where it goes) for a key assigned in code or config typed on a
    web page or into a message; None elsewhere (a local editor or a terminal judge it as today)."""
    text = getattr(ctx.action, "text", "") or ""
    if not 20 <= len(text) <= 16384 or ctx.derived(credential_field):
        return None
    where = ctx.derived(destination)
    if where.runs_commands or where is Destination.ADDRESS_BAR:
        return None
    name = assigned_secret(text)
    if name is None:
        return None
    host = ctx.derived(page_host)
    url = action_url(ctx) or ctx.observation.url or ""
    parts = split_url(url) if url else None
    obs = ctx.observation
    place = " ".join((ctx.derived(field_text).words, text_of(ctx.derived(page_path)[:_TITLE_LIMIT]).words,
                      host.replace(".", " "),
                      text_of(obs.window_title[:_TITLE_LIMIT]).words if obs.window_title else ""))
    if ctx.derived(to_a_person) or ctx.derived(public_post) or compose_window(url) or _SHARED_PLACE.search(place) or \
            (parts is not None and parts.host and data_destination(parts.host, parts.path, ctx.compiled.cues,
                                                                   ctx.compiled.collector_hosts)):
        return name, True
    if host and ip_of(host) is None and _HOSTED_CODE.search(place):
        return name, False
    return None


@rule("block.typed.code-secret-public", "A key assigned in code or config, typed where others read it",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def code_secret_public(ctx: Context) -> str | None:
    """The typed text gives a name that says key, token, secret or password a value that reads as a generated
    key (`export DEPLOY_TOKEN=9b8c...`, `os.environ['HF_KEY'] = '3f9a...'`, `api_key: "..."`;
    `gate.sensitive.assigned_secret`), and goes where others read it: an issue or review comment, a gist or a
    snippet, a forum post, a chat, a notebook or a page marked public or shared, a paste site. Secret-scanning
    services exist because keys pasted this way are found and used within minutes. The same line typed into a
    local editor or a terminal is judged as today; a name with no value (`DATABASE_URL`), a value read from the
    environment (`os.getenv("X")`, `${{ secrets.X }}`) and placeholders pass. The text is redacted."""
    found = ctx.derived(_code_secret)
    if found is None or not found[1]:
        return None
    return f"the value of {found[0]} typed into {field_place(ctx)}, where others read it"


@rule("confirm.typed.code-secret-hosted", "A key assigned in code, typed into a notebook or editor on a web page",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.7)
def code_secret_hosted(ctx: Context) -> str | None:
    """The key of `block.typed.code-secret-public` typed into a notebook or a code editor served by a web page
    (a hosted notebook, an online playground) that does not say it is shared: notebooks are published and
    forked with their cells, so a person decides. The site's own secrets store is where the key belongs."""
    found = ctx.derived(_code_secret)
    if found is None or found[1]:
        return None
    return f"the value of {found[0]} typed into a notebook or editor on {ctx.derived(page_host)}"


# a password told: the word for it in many languages, what it opens, then "is" or a colon and the value
# ("the password for the staging box is Kx7!pQ2mWz", "la contraseña de la base de datos es ...", "a senha do admin
# é ...", "het wachtwoord van de server: ...", "服务器的密码是 ...")
_TOLD_PASSWORD = re.compile(
    either_spelling(
        r"(?:\b(?:password|passwort|kennwort|passwd|passcode|passphrase|pwd|pw|mot de passe|mdp|contraseña|contrasena|"
    r"clave|senha|wachtwoord|hasło|haslo|пароль|parola|şifre|sifre|heslo|lösenord|adgangskode|salasana)\b"
    r"|密码|密碼|パスワード|暗証番号|비밀번호)"
    r"[^\n.!?]{0,60}?(?:\b(?:is|was|is now|will be|ist|lautet|heißt|est|c est|es|era|é|è|sera|será|is nu|jest|"
    r"это|to)\b\s*[:=]?|[:=：]|是|为|は|为：)\s*[\"'“‘«]?([^\s\"'”’»]{6,64})"), re.IGNORECASE)
# what a sentence about passwords, not one password, names after the word: "the password policy is ..."
_ABOUT_PASSWORDS = re.compile(r"\b(?:polic(?:y|ies)|requirements?|rules?|manager|reset|change|length|strength|"
                              r"hint|expir\w*|format|field|richtlinie|politique|política|politica|regels)\b",
                              re.IGNORECASE)
# a login written as one pair: "admin / Kx7!pQ2mWz", "ana@example.org : Kx7!pQ2mWz"
_LOGIN_PAIR = re.compile(r"^\s*([\w.@+-]{2,64})(?:\s*[/|]\s*|:)([^\s/]\S{7,63})\s*$")


def told_password(text: str) -> str | None:
    """The password the text tells (after the word for it, in one of many languages, and "is" or a colon), or a
    login written as one pair (`user / password`), when the value reads as a password; None for talk about
    passwords ("the password is stored in the vault", "password: at least 12 characters")."""
    if len(text) > 4096:
        return None
    for m in _TOLD_PASSWORD.finditer(text):
        value = m.group(1).rstrip(_TRAILING)
        if _ABOUT_PASSWORDS.search(m.group(0)[:-len(m.group(1))]):
            continue
        if password_shaped(value) and not _PLACEHOLDER_WORDS.search(value):
            return "a password written out"
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) == 1 and (m := _LOGIN_PAIR.match(lines[0])) is not None and \
            not m.group(1).lower().startswith(("http", "www")) and password_shaped(m.group(2).rstrip(_TRAILING)):
        return "a login and its password"
    return None


# what names a wallet's recovery phrase, in the languages wallets are used in
_SEED_NAMED = re.compile(
    r"\b(?:seed|recovery|secret|backup|mnemonic|wallet) (?:phrase|words|sentence)\b|\bmnemonic\b|\b(?:12|24)[- ]word\b|"
    r"\bwiederherstellungs(?:phrase|sätze|satz)\b|\bseed[- ]phrase\b|\bphrase (?:de (?:récupération|recuperation|"
    r"secrète|secrete)|mnémonique)\b|\bfrase (?:semilla|de recuperaci[oó]n|secreta|de recupera[cç][aã]o|"
    r"mnemonica|di recupero|segreta)\b|\bherstelzin\b|\bherstelfrase\b|助记词|助記詞|復元フレーズ|リカバリーフレーズ|"
    r"シードフレーズ|복구 구문|시드 구문", re.IGNORECASE)
# a wallet's own restore screen: the one place the phrase is typed into (an app on the machine, not a web page)
_WALLET_RESTORE = re.compile(r"\b(?:import|restore|recover|recovery)\b", re.IGNORECASE)
_PHRASE_WORD = re.compile(r"[a-z]{3,8}")


def seed_words(text: str, named: bool) -> bool:
    """The text is a run of 12, 15, 18, 21 or 24 short lower-case words that reads as a wallet's recovery phrase:
    most of its words are BIP39 words, or the text or its field names a seed or recovery phrase (`named`), so a
    phrase written from memory or made up is one too. Prose has articles, verbs and long words among them."""
    body = _SEED_NAMED.sub(" ", text[:1024]).lower()
    tokens = [w for w in re.split(r"[\s,;.:\d)(\-]+", body) if w]
    runs: list[list[str]] = [[]]
    for w in tokens:  # the longest run of short words: "my recovery phrase is" does not belong to it
        if _PHRASE_WORD.fullmatch(w):
            runs[-1].append(w)
        elif runs[-1]:
            runs.append([])
    run = max(runs, key=len)
    if not 12 <= len(run) <= 28 or len(run) * 2 < len(tokens):
        return False
    # the phrase ends the run ("keep this safe: word word ..."): its usual lengths, longest first
    for n in (24, 21, 18, 15, 12):
        if len(run) < n or len(run) - n > 4:
            continue
        words = run[-n:]
        if len(set(words)) < n * 0.8:
            continue
        known = sum(1 for w in words if w in _BIP39_WORDS)
        if known == n or (len(run) == n and known >= n * 0.6) or (named and known >= n * 0.3):
            return True
    return False


def _seed_out(ctx: Context) -> str | None:
    """Where a recovery phrase `find_secret` does not know (`seed_words`) is typed away, or None."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 40 or find_secret(text) is not None or ctx.derived(code_editor):
        return None
    if ctx.derived(destination).runs_commands:
        return None
    field = ctx.derived(field_text).raw
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    named = bool(_SEED_NAMED.search(text[:200]) or (field and _SEED_NAMED.search(field)))
    if not seed_words(text, named):
        return None
    if not url and obs.app and _WALLET_RESTORE.search(f"{field}\n{obs.window_title}"):
        return None  # a wallet program's own import or restore screen
    return field_place(ctx) if field else "a field"


@rule("block.typed.seed-words-out", "A wallet's recovery phrase typed anywhere but the wallet's own restore screen",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def seed_words_out(ctx: Context) -> str | None:
    """Twelve to twenty-four short words that read as a wallet's recovery phrase (mostly BIP39 words, or named a
    seed or recovery phrase in the text or the field, in any of many languages) typed into a message, a post, a
    form or a web page's field: whoever reads it empties the wallet; no real wallet asks for it on a page. A wallet
    program's own import or restore screen on the machine, and prose, pass. The text is redacted from the log."""
    where = ctx.derived(_seed_out)
    if where is None:
        return None
    return f"credential exposure: typing a wallet recovery phrase into {where}"


# one person's contact entry: a name (two capitalised words, in any Latin script), and an e-mail address or a phone
# number written the way any country writes one ("06 12 34 56 78", "11 98765-4321", "+49 151 2345678")
_NAME = re.compile(r"\b[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’-]+"
                   r"(?: (?:de |da |van |von |del |di |le |la )?[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’-]+)+")
_EMAIL = re.compile(r"\b[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+\b")
_PHONE = re.compile(r"(?<![\w.])\+?\(?\d[\d ().-]{6,20}\d(?![\w.])")
_ENTRY_SPLIT = re.compile(r"[\n;]+")
_DATE = re.compile(r"\d{4}[./-]\d{1,2}[./-]\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{4}")


def contact_entries(text: str) -> int:
    """How many people's contact entries the text lists: entries (lines, or parts between semicolons) with a name
    and an e-mail address or a phone number of 8 to 15 digits; 0 for fewer than two."""
    count = 0
    for entry in _ENTRY_SPLIT.split(text[:8192]):
        if not _NAME.search(entry):
            continue
        email = _EMAIL.search(entry) is not None
        phone = any(8 <= sum(c.isdigit() for c in m.group(0)) <= 15 and not _DATE.fullmatch(m.group(0).strip())
                    for m in _PHONE.finditer(entry))
        if email or phone:
            count += 1
    return max(count, _address_with_number(text))


# an e-mail address with its phone beside it, "a.b@x.io (+1 415 555 0142)": a person's contact even unnamed
_ADDRESS_NUMBER = re.compile(_EMAIL.pattern + r"\s{0,2}[(\[:,/-]?\s{0,2}\+?\(?\d[\d ().-]{6,20}\d(?![\w.])")


def _address_with_number(text: str) -> int:
    """How many people's addresses the text lists when two or more have a phone number written right after them
    (then the rest are entries of the same list); 0 otherwise."""
    if text.count("@") < 2:
        return 0
    head = text[:8192]
    if len({m.group(0).lower() for m in _ADDRESS_NUMBER.finditer(head)}) < 2:
        return 0
    return len({m.group(0).lower() for m in _EMAIL.finditer(head)})


# a table's row: fields split by commas, tabs, semicolons, bars or a spaced dash (a CSV or TSV export, a pasted
# table, a list written out: "Ann Roe - ann@example.com - 555 0100")
_ROW_SPLIT = re.compile(r"\s*[,\t;|]\s*|\s+[-–—/]\s+")
_NAME_FIELD = re.compile(r"^[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’-]+(?: [A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ'’.-]+){0,3}$|"
                         r"^[\u3040-\u30ff\u4e00-\u9fff]{2,6}$")
_FIELD_LABEL = re.compile(r"^[^\W\d][\w .-]{0,24}:\s*")  # "Name: ", "E-mail: ", "Tel.: "
_FIELD_MARKS = " \"'<>()[]*•·-–—"
# a header row's column names of a contact list: name, e-mail, phone, address, company, birth date, SSN
_CONTACT_COLUMNS = re.compile(
    r"^(?:(?:first|last|full|given|family|sur)[ _-]?name|name|names|e[ _-]?mail(?: address)?|email address|mail|"
    r"phone(?: number)?|mobile|cell|tel|telephone|address|street|city|zip|postcode|company|organi[sz]ation|"
    r"birth ?date|date of birth|dob|birthday|ssn|social security(?: number)?|"
    r"vorname|nachname|telefon|handy|adresse|firma|geburtsdatum|prénom|nom|téléphone|courriel|société|"
    r"date de naissance|nombre|apellidos?|teléfono|correo(?: electrónico)?|dirección|empresa|"
    r"fecha de nacimiento|cognome|telefono|indirizzo|azienda|data di nascita|sobrenome|endereço|"
    r"data de nascimento|naam|voornaam|achternaam|telefoon|adres|bedrijf|geboortedatum|"
    r"姓名|名前|氏名|電話|电话|電話番号|手机|邮箱|メール|住所|地址|会社|公司)$", re.IGNORECASE)


class ContactRows(NamedTuple):
    entries: int  # people's entries: a name with an e-mail address or a phone number
    full: int  # of which with both an e-mail address and a phone number
    header: bool  # a header row names contact columns (name, e-mail, phone...)


def _phone_like(field: str) -> bool:
    m = _PHONE.fullmatch(field)
    return m is not None and 7 <= sum(c.isdigit() for c in field) <= 15 and not _DATE.fullmatch(field)


def contact_rows(text: str) -> ContactRows:
    """The rows of a contact table the text holds (a CSV or TSV export, a pasted table, a list written one person
    a line: their fields split by commas, tabs, semicolons, bars or a spaced dash, each perhaps after its label),
    and whether a header row names its contact columns."""
    entries = full = 0
    header = False
    for line in text[:8192].splitlines():
        raw = [f.strip(_FIELD_MARKS) for f in _ROW_SPLIT.split(line.strip())]
        raw = [f for f in raw if f]
        if len(raw) < 2:
            continue
        if sum(1 for f in raw if _CONTACT_COLUMNS.match(f)) >= 2:
            header = True
            continue
        email = phone = name = False
        for f in raw:
            f = _FIELD_LABEL.sub("", f).strip(_FIELD_MARKS)
            found = _EMAIL.search(f)
            if found is not None:
                email = True
                f = (f[:found.start()] + f[found.end():]).strip(_FIELD_MARKS)
            if not f:
                continue
            if _phone_like(f):
                phone = True
            elif _NAME_FIELD.match(f):
                name = True
        if name and (email or phone):
            entries += 1
            full += email and phone
    return ContactRows(entries, full, header)


_MESSAGE_BOX = re.compile(r"\b(?:reply|message|chat|write a|send a)\b")


class _Contacts(NamedTuple):
    people: int  # the people whose entries are listed (0: no list)
    many: bool  # many records: five people or more, or two full rows (a name, an e-mail address and a phone)


_NO_CONTACTS = _Contacts(0, False)


def _contacts_out(ctx: Context) -> _Contacts:
    """The contact list the typed text holds where it goes to people. Once per context. Three entries make a list;
    so do two full rows of a table (an e-mail and a phone each), or one row under a header naming contact columns."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 30 or ctx.derived(code_editor):
        return _NO_CONTACTS
    if ctx.derived(destination).runs_commands:
        # a page whose title speaks of a terminal may still be a forum's thread: a field the target names as a
        # comment, a reply, a post or a message takes text, not commands
        field = ctx.derived(field_text).words
        if not (field and (_READ_BY_MANY.search(field) or _MESSAGE_BOX.search(field))):
            return _NO_CONTACTS
    if not (_goes_out(ctx) or _read_by_many(ctx)):
        return _NO_CONTACTS
    n = contact_entries(text)
    rows = contact_rows(text) if "\n" in text.strip() else ContactRows(0, 0, False)
    people = max(n, rows.entries)
    if n >= 3 or rows.full >= 2 or (rows.header and rows.entries >= 1) or rows.entries >= 3:
        return _Contacts(people, people >= 5 or rows.full >= 2)
    return _NO_CONTACTS


def _contacts_public(ctx: Context) -> bool:
    found = ctx.derived(_contacts_out)
    return found.many and _record_read_by_many(ctx)


@rule("block.typed.contact-list-public", "Many people's contact records typed into a public post, a comment or a "
      "forum", risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.75)
def contact_list_public(ctx: Context) -> str | None:
    """Many people's contact records (five or more names with e-mail addresses or phone numbers, or two or more
    full rows of a contact table: a name, an e-mail address and a phone, as a CSV or TSV export or a list written
    out) typed into a public post, a comment, a reply, an issue or a forum's thread: everyone who reads there can
    harvest them. A shorter list there asks (`confirm.typed.contact-list-out`). A person's own shipping details in
    a checkout form, one address in a To field and a table of products pass. The text is redacted from the log."""
    if not ctx.derived(_contacts_public):
        return None
    n = ctx.derived(_contacts_out).people
    return f"{n} people's contact records typed into a public place ({field_place(ctx)})"


@rule("confirm.typed.contact-list-out", "Several people's contact details typed into a message, a comment or a post",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.75)
def contact_list_out(ctx: Context) -> str | None:
    """The typed text lists three or more people's contact entries (a name with an e-mail address or a phone number
    written as any country writes it), two full rows of a contact table (a CSV or TSV export, a list written one
    person a line: a name, an e-mail address and a phone each) or rows under a header naming contact columns, and
    goes to people: a message, a chat, a mail being written, a comment, a post or a place deskgate cannot tell
    (many records in a public place block: `block.typed.contact-list-public`). A customer or staff list leaving
    is the person's to decide. One person's details, a list of names alone, and the same list typed into a
    spreadsheet or an editor pass. The text is redacted from the log."""
    n = ctx.derived(_contacts_out).people
    if not n or ctx.derived(_contacts_public):
        return None
    return f"{n} people's contact details typed into {field_place(ctx) if ctx.derived(field_text).raw else 'a field'}"


def _told(ctx: Context) -> str | None:
    """What `told_password` finds in the typed text where it goes to people, or None. Once per context."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 8 or ctx.derived(credential_field) or ctx.derived(code_editor):
        return None
    if ctx.derived(destination).runs_commands or ctx.derived(secret_in) is not None:
        return None  # a key or a connection string: the secret rules name it
    return told_password(text)


@rule("block.typed.password-told-public", "A password told in a public post, a comment or an issue",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def password_told_public(ctx: Context) -> str | None:
    """The typed text tells a password that reads as one (after the word for it in any of many languages: "la
    contraseña de la base de datos es ...", "a senha do admin é ...", "密码是 ...", or as a login pair "admin /
    ...") and goes where everyone reads it: a post, a comment, a review, an issue or a forum's thread. Anyone
    signs in with it. Told in a message to one person it asks (`confirm.typed.password-told`); talk about
    passwords passes. The text is redacted from the log."""
    if not _read_by_many(ctx):
        return None
    what = ctx.derived(_told)
    if what is None:
        return None
    return f"credential exposure: {what}, typed into {field_place(ctx) if ctx.derived(field_text).raw else 'a field'}"


@rule("confirm.typed.password-told", "A password told in a message, a chat or a mail", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.75)
def password_told(ctx: Context) -> str | None:
    """The password of `block.typed.password-told-public` told in a message, a chat, a mail being written, or a
    place deskgate cannot tell: the person decides whether its reader should have it. Into a password field, a
    code editor or a terminal it is not this rule's. The text is redacted from the log."""
    if not _goes_out(ctx) or _read_by_many(ctx):
        return None
    what = ctx.derived(_told)
    if what is None:
        return None
    return f"{what}, typed into {field_place(ctx) if ctx.derived(field_text).raw else 'a field'}"


# a support or contact form, by its page: what is typed there goes to the shop's or the provider's staff
_SUPPORT_PAGE = re.compile(r"/(?:contact|contact-us|contactus|support|help|helpdesk|feedback|ticket|tickets|"
                           r"complaints?|refunds?|returns?|case|cases|kontakt|contacto|contato|contatti)"
                           r"(?:/|$|\?|#|\.)", re.IGNORECASE)
# a field that searches: a question there goes to a search engine, not to readers
_SEARCH_FIELD = re.compile(r"\b(?:search|find|query|look up|lookup|suche|suchen|rechercher|recherche|buscar|busca|"
                           r"pesquisar|cerca|cercare|zoeken|zoek)\b")
# a profile's or an account's own fields and pages: a contact handle typed there is where it belongs
_OWN_PROFILE = re.compile(r"\b(?:profile|settings|account|contact|contacts|contact info|about me|skype|telegram|"
                          r"whatsapp|discord|phone|mobile|signal|wechat|instagram|snapchat|profil|perfil|profilo|profiel|"
                          r"kontakt|contato|contacto|contatto)\b")


def _detail(ctx: Context) -> Detail | None:
    """The private detail or identifier (`gate.privacy.out_of_place`) the typed text carries to readers who do
    not need it, or None."""
    text = getattr(ctx.action, "text", "") or ""
    if not 16 <= len(text) <= 8192 or not into_a_field(ctx) or ctx.derived(credential_field) or \
            ctx.derived(code_editor) or ctx.derived(ai_prompt_box):
        return None
    field = ctx.derived(field_text).words
    if field and _SEARCH_FIELD.search(field):
        return None
    ticket = bool(field and _TICKET.search(field)) or _SUPPORT_PAGE.search(ctx.derived(page_path)) is not None
    public = ctx.derived(public_post) or (ctx.derived(_read_by_many) and not ticket)
    support = ticket
    if not (public or support):
        return None  # a message, a mail or a chat to someone: the writer chooses whom to tell
    found = out_of_place(text)
    if found is None:
        return None
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    path = ctx.derived(page_path).replace("/", " ").replace("_", " ").replace("-", " ")
    title = text_of(obs.window_title[:_TITLE_LIMIT]).words if obs.window_title else ""
    places = (field, path, ctx.derived(page_host), title)
    if any(record_place(s) for s in (field, url, obs.window_title, obs.app)):
        return None
    if found.category in ("identifier", "contact"):
        if not public or (field and _OWN_PROFILE.search(field)) or _OWN_PROFILE.search(path):
            return None
        return found
    if any(on_topic(found.category, s) for s in places):
        return None  # a health forum, a patient portal, r/legaladvice, a church's page: there it is the topic
    return found


@rule("confirm.typed.private-detail", "A private detail or an identifier typed where it is not needed",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.6)
def private_detail(ctx: Context) -> str | None:
    """The typed text says a private detail outright (`gate.privacy.out_of_place`: the writer's own or someone's
    health, a divorce or custody fight, sexual orientation or a Pride event they will be at, church membership,
    a criminal record, immigration status, debts) and goes into a post, a comment, a review, a forum reply or a
    support form about something else: a refund request, a code review, a travel question. Or it drops an
    insurance policy or claim number, a member, account, passport or licence number, or a personal contact
    handle or phone into a post, a comment or a forum, where strangers read it. A person looks first. Where the
    page is about the detail (a health forum, a patient portal, r/legaladvice, a church's own page), a search
    box, a message to someone, a chart, a profile's own contact fields, an order number in a support form and
    news-like reports pass. The text is redacted."""
    found = ctx.derived(_detail)
    if found is None:
        return None
    return f"{found.said} ({short(found.quote, 40)!r}) typed into {field_place(ctx)}, where it is not needed"


RULES: tuple[Rule, ...] = (password_told_public, password_told, seed_words_out, contact_list_out,
                           contact_list_public, confidential_out,
                           secret_out,
                           secret_into_file,
                           personal_record_public, personal_record_out,
                           data_out_as_instructed, bulk_data_out, identity_numbers_bulk_out, partial_secret_out,
                           partial_secret_in,
                           card_number_public, credential_given_away, identity_on_lookalike,
                           identity_to_unofficial_form, code_secret_public, code_secret_hosted,
                           identity_number_public, records_to_chatbot, private_detail)
