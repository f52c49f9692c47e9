"""Rules: what an ordinary action in a web app does, read from where it happens.

A bare "Export" button, an e-mail address typed into an "Email" field, a click on "Pop-ups and redirects"
say nothing by themselves; the page says what they do. The page is read as deskgate sees it: the URL's
path (`/admin/customers`), the window's or dialog's title ('Share "Q3 budget"'), the top of the page's text
and the field's label. What marks a share dialog, a list of people, a bare export, a backup download and a
browser's protection switches are the `[context.*]` tables of resources/cues.toml (gate/cues.py), in
several languages.

- `confirm.gui.records-export`: a bare export ("Export", "Export to CSV", "Download list") on a page that
  lists people (contacts, leads, customers, users, employees), or a backup download anywhere;
- `confirm.nav.records-export`: opening a URL that exports such a list (`/contacts/export?format=csv`,
  `/admin/users.csv`);
- `confirm.gui.share-outside`: an address on another site typed into a share, invite or add-collaborator
  dialog, even where the field's own label is only "Email" or "Add people";
- `confirm.gui.share-commit`: the bare "Share", "Send" or "Invite" that sends such a dialog's invitations;
- `confirm.gui.forwarding-rule`: saving a mail filter or an inbox rule whose dialog forwards mail on;
- `block.gui.alert-filter`: a mail filter or inbox rule that deletes or hides the account's security mail;
- `block.gui.hook-out`: a webhook's or an endpoint's address typed as a raw public IP, a collector or a catcher;
- `confirm.gui.collector-url`: a request collector's or tunnel's URL typed into a field (a webhook's "URL",
  an "Endpoint");
- `confirm.gui.warning-bypass-phrase`: the phrase typed on a browser's warning page that loads the site
  anyway (`thisisunsafe`);
- `confirm.gui.browser-protection`: a click on a browser's settings page that flips one of its protections
  (Safe Browsing, HTTPS-only, pop-up blocking, dangerous-download warnings).

Opening a page (a contacts list, a compose form, a settings page) is not judged here: only the action that
takes data out or switches a protection is.
"""

from __future__ import annotations

import re

from gate.cues import either_spelling
from gate.dataout import destination, local_ip
from gate.destinations import abused_tld, confidential_name, own_site, public_upload
from gate.fields import (
    field_text,
    short,
    text_of,
)
from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import label_text
from gate.urls import action_url, ip_of, is_loopback, registrable, site_label, split_url

__all__ = ["RULES", "url_words"]

_PAGE_TEXT_TOP = 1200  # a dialog's heading and its first lines: what it is for
_TITLE_LIMIT = 256
_URL_LIMIT = 2048
_COLLECTOR = "a request collector"  # what gate.dataout.destination calls one


def _context(ctx: Context, name: str) -> re.Pattern[str] | None:
    return ctx.compiled.cues.context.get(name)


def url_words(url: str, skip_keys: frozenset[str] = frozenset()) -> str:
    """The words of a URL after its host: the path, the fragment, and the query's keys and values (the
    values of `skip_keys` left out: what a person searched for is not what the page is). "" when `url` is
    not a URL. `/admin/customers/export?format=csv` reads "admin customers export format csv"."""
    if not url or len(url) > _URL_LIMIT:
        return ""
    parts = split_url(url)
    if parts is None:
        return ""
    raw_after = parts.raw.split("#", 1)
    fragment = raw_after[1] if len(raw_after) == 2 else ""
    pieces = [parts.path, fragment.replace("/", " ")]
    for pair in parts.query.split("&") if parts.query else ():
        key, _, value = pair.partition("=")
        pieces.append(key)
        if key.lower() not in skip_keys:
            pieces.append(value.replace("+", " "))
    return text_of(" ".join(p for p in pieces if p)).words.replace("\n", " ")


def _page_words(ctx: Context) -> str:
    """The words of the page the action happens on (or of the URL it opens)."""
    prefill = ctx.compiled.cues.url_prefill
    skip = prefill.get("search", frozenset()) | prefill.get("redirect", frozenset())
    return url_words(action_url(ctx) or "", skip)


def _host_words(ctx: Context) -> tuple[str, str]:
    """(the host's labels before its site, the whole host) as words: `contacts.google.com` reads
    ("contacts", "contacts google com"); ("", "") without a web page."""
    url = action_url(ctx) or ""
    parts = split_url(url) if url and len(url) <= _URL_LIMIT else None
    if parts is None or not parts.host or parts.scheme not in ("http", "https", ""):
        return "", ""
    labels = parts.host.split(".")
    site = site_label(parts.host)
    below = labels[:labels.index(site)] if site in labels else []
    return " ".join(below), " ".join(labels)


def _title_words(ctx: Context) -> str:
    title = ctx.observation.window_title
    return text_of(title[:_TITLE_LIMIT]).words if title else ""


def _dialog_words(ctx: Context) -> str:
    page = ctx.observation.page_text
    return text_of(page[:_PAGE_TEXT_TOP]).words if page else ""


# -- a list of people taken out ----------------------------------------------------------------------------


def _bare_export(ctx: Context) -> str | None:
    """"export" when the label is a bare export, "backup" when it downloads a whole backup, else None."""
    label = ctx.derived(label_text)
    if not label.words:
        return None
    first = label.words.split("\n", 1)[0].strip()
    backup = _context(ctx, "backup-download")
    if backup is not None and backup.match(first):
        return "backup"
    bare = _context(ctx, "export-label")
    return "export" if bare is not None and bare.match(first) else None


def _records_named(ctx: Context, words: str) -> str | None:
    """The list of people the words name (a title, a URL's path), or None."""
    records = _context(ctx, "records-page")
    m = records.search(words) if words and records is not None else None
    return m.group(0) if m else None


def _records_page(ctx: Context) -> str | None:
    """The list of people the page's URL names (its path, query, fragment, or the host's labels before the
    site: `contacts.google.com`), or an administration console's (`/wp-admin`, `admin.` hosts:
    `[context.admin-page]`), whose exports are the whole site's data; None otherwise. Documentation, code,
    package and data set pages name none."""
    below, host = ctx.derived(_host_words)
    words = ctx.derived(_page_words)
    help_page = _context(ctx, "help-path")
    if help_page is not None and help_page.search(f"{host} {words}"):
        return None
    named = _records_named(ctx, f"{below} {words}".strip())
    if named is None and (admin := _context(ctx, "admin-page")) is not None:
        m = admin.search(f"{below} {words}")
        named = f"the {m.group(0)} console's data" if m else None
    return named


@rule("confirm.gui.records-export", "A bare export or a backup download on a page that lists people",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def records_export(ctx: Context) -> str | None:
    """The clicked label exports without naming what ("Export", "Export to CSV", "Download list",
    "Exportieren", "导出": `[context.export-label]`) and the page lists people: its URL or its window's
    title names contacts, leads, customers, users, employees, members, patients (`[context.records-page]`).
    The file that comes down is every one of their records, the usual way a customer list leaves a CRM, an
    HR system or a shop's admin; a bare export in an administration console (`[context.admin-page]`) is the
    site's data too. A backup or database download (`[context.backup-download]`) is the whole
    site's data and asks on any page. "Export as PDF" in a document, "Export chart" on a dashboard and a
    help article about exporting do not ask."""
    kind = ctx.derived(_bare_export)
    if kind is None:
        return None
    label = short(ctx.derived(label_text).raw)
    if kind == "backup":
        return f"downloading a whole backup: {label!r}"
    named = ctx.derived(_records_page) or _records_named(ctx, ctx.derived(_title_words))
    if named is None:
        return None
    return f"exporting a list of people ({named}): {label!r}"


@rule("confirm.nav.records-export", "A URL that exports a list of people", risk=Risk.HIGH,
      types=("navigate",), confidence=0.7)
def records_export_url(ctx: Context) -> str | None:
    """The URL opened names an export or a download (`export`, `download`, `.csv`, `format=xlsx`, `backup`:
    `[context.export-path]`) of a list of people (`[context.records-page]`): `/crm/contacts/export`,
    `/admin/users.csv`, `/employees/download?all=1`. Opening it hands the file over as a click on
    "Export" would. The list itself (`/contacts?page=2`) and a help page about exports do not ask."""
    words = ctx.derived(_page_words)
    export = _context(ctx, "export-path")
    if not words or export is None or ctx.derived(_local_file):
        return None
    m = export.search(words)
    if m is None:
        return None
    named = ctx.derived(_records_page)
    if named is None or _only_in_identifiers(words, named):
        return None
    return f"a URL that exports a list of people ({named}, {m.group(0)})"


def _local_file(ctx: Context) -> bool:
    """The URL opens a file already on this machine (`file:///Users/ann/Downloads/...`): nothing is exported."""
    url = action_url(ctx) or ""
    return url[:5].lower() == "file:"


def _only_in_identifiers(words: str, named: str) -> bool:
    """Every place the list's word stands it ends an identifier with digits in it: a build's or a platform's
    name (`os=win32-x64-user` reads "win32 x64 user"), not a list of people."""
    start = words.find(named)
    if start == -1:
        return False  # named by the host (`contacts.` of `contacts.google.com`) or an admin console
    while start != -1:
        end = start + len(named)
        whole = (start == 0 or words[start - 1] == " ") and (end == len(words) or words[end] == " ")
        if whole:
            before = words[:start].rstrip().rpartition(" ")[2]
            if not any(ch.isdigit() for ch in before):
                return False
        start = words.find(named, end)
    return True


# -- an address given a share ------------------------------------------------------------------------------

_EMAILS = re.compile(r"^\s*(?:[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,5}\s*[,;]?\s*){1,20}$")
_DOMAIN = re.compile(r"@([\w-]{1,63}(?:\.[\w-]{1,63}){1,5})")


def _share_context(ctx: Context) -> str | None:
    """What marks the action as happening in a share, invite or add-collaborator dialog: the quoted words of
    the window's title, the dialog's text, the field's label or the page's URL; None when nothing does. A
    page where the person takes up an invitation or signs in is not one."""
    dialog, path = _context(ctx, "share-dialog"), _context(ctx, "share-path")
    if dialog is None:
        return None
    page = ctx.derived(_page_words)
    accepting = _context(ctx, "accepting-path")
    if page and accepting is not None and accepting.search(page):
        return None
    found = _share_heading(ctx)
    if found is None:
        field = ctx.derived(field_text).words
        for line in field.split("\n") if field else ():
            if (m := dialog.search(line.strip())) is not None:
                return m.group(0)
    if found is None and page and path is not None and (m := path.search(page)) is not None:
        return m.group(0)
    return found


def _share_heading(ctx: Context) -> str | None:
    """The words of the window's title or of a line of the dialog's text that say it shares
    (`[context.share-dialog]`), or None. A one-word line of a page's text is a toolbar's button ("Share"),
    not the dialog's heading, and does not count."""
    dialog = _context(ctx, "share-dialog")
    if dialog is None:
        return None
    title = ctx.derived(_title_words)
    for line in title.split("\n") if title else ():
        if (m := dialog.search(line.strip())) is not None:
            return m.group(0)
    text = ctx.derived(_dialog_words)
    for line in text.split("\n") if text else ():
        line = line.strip()
        if " " in line and (m := dialog.search(line)) is not None:
            return m.group(0)
    return None


def _page_site(ctx: Context) -> str:
    url = ctx.observation.url or getattr(ctx.action, "url", None) or ""
    parts = split_url(url) if url else None
    return parts.host if parts is not None and parts.host and parts.scheme in ("http", "https") else ""


@rule("confirm.gui.share-outside", "An outside address typed into a share, invite or add-collaborator dialog",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def share_outside(ctx: Context) -> str | None:
    """One or more e-mail addresses typed where a file, a folder, a workspace or a repository is shared: the
    window's title, the dialog's text, the field's label or the page's URL says so ('Share "Q3 budget"',
    "People with access", "Add collaborators", "Freigeben", "Partager avec des personnes":
    `[context.share-dialog]`, `[context.share-path]`), and an address is on another site than the page's
    (any address, where the page is unknown or is a big provider's, such as docs.google.com: its sharing
    reaches anyone). Whoever is named gets the data; planted instructions name an address of their own.
    A colleague on the page's own domain, a search or "Your e-mail" field (`[context.own-field]`) and the
    page where a person accepts an invitation do not ask."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > 2048 or "@" not in text or _EMAILS.match(text) is None:
        return None
    field = ctx.derived(field_text).words
    own = _context(ctx, "own-field")
    if field and own is not None and own.search(field.split("\n", 1)[0].strip()):
        return None
    where = ctx.derived(_share_context)
    if where is None:
        return None
    page = ctx.derived(_page_site)
    page_site = site_label(page) if page else ""
    for domain in _DOMAIN.findall(text):
        domain = domain.lower()
        if is_loopback(domain) or (page_site and site_label(domain) == page_site):
            continue
        return f"shared with an outside address: {domain!r} ({where!r})"
    return None


@rule("confirm.gui.share-commit", "The button that sends a share dialog's invitations", risk=Risk.HIGH,
      types=("click",), confidence=0.7)
def share_commit(ctx: Context) -> str | None:
    """A bare "Share", "Send", "Invite" or "Add" (`[context.share-commit]`, in several languages) clicked in a
    window or dialog that shares a file, a folder or a workspace: its title or a line of its text says so
    ('Share "Finance"', "People with access", "Add collaborators", "Freigeben": `[context.share-dialog]`).
    This click gives whoever was named the data. The toolbar's "Share" that only opens the dialog (a page
    whose text has "Share" as a one-word button), "Done" and "Cancel" do not ask."""
    label = ctx.derived(label_text)
    commit = _context(ctx, "share-commit")
    if not label.words or commit is None or commit.match(label.words.split("\n", 1)[0].strip()) is None:
        return None
    where = ctx.derived(_share_heading)
    if where is None:
        return None
    return f"sending a share: {short(label.raw)!r} in a dialog that shares ({where!r})"


@rule("confirm.gui.forwarding-rule", "Saving a mail filter or inbox rule that forwards mail on",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def forwarding_rule(ctx: Context) -> str | None:
    """The click saves a mail filter or an inbox rule ("Create filter", "Save", "OK":
    `[context.rule-commit]`) in a dialog whose title or text forwards or redirects the matching mail to an
    address ("Forward it to", "Redirect the message to", "Weiterleiten an": `[context.forwarding-rule]`).
    From then on, every message that matches leaves the mailbox silently: the way planted instructions keep
    reading a person's mail. A filter dialog that offers forwarding among its options asks too: which box
    is ticked cannot be read from its text. A filter that labels, archives or deletes in a dialog that does
    not mention forwarding, and a "Forward" of one open message, do not ask here."""
    label = ctx.derived(label_text)
    commit, forwarding = _context(ctx, "rule-commit"), _context(ctx, "forwarding-rule")
    if not label.words or commit is None or forwarding is None:
        return None
    if commit.match(label.words.split("\n", 1)[0].strip()) is None:
        return None
    for words in (ctx.derived(_title_words), ctx.derived(_dialog_words)):
        m = forwarding.search(words.replace("\n", " ")) if words else None
        if m is not None:
            return f"a mail rule that forwards mail on ({m.group(0)!r}): {short(label.raw)!r}"
    return None


# -- a mail rule that hides security alerts ------------------------------------------------------------------

# a filter's or an inbox rule's action that keeps the matching mail from being seen: deleted, archived, read, junked
_HIDES = re.compile(r"\b(?:delete it|delete them|delete (?:the )?(?:message|messages|mail|e ?mails?)|trash|"
                    r"move (?:\w+ ){0,10}?to (?:the )?(?:deleted items|trash|bin|junk|spam|archive|rss|"
                    r"conversation history)|"
                    r"skip (?:the )?inbox|archive it|mark (?:it |them )?as read|never (?:show|notify)|"
                    r"permanently delete)\b")
# what the rule matches: the account's own security mail (sign-in and security alerts, resets, codes, fraud notices)
_SECURITY_MAIL = re.compile(r"\b(?:security|fraud|sign ?in|signin|login|log ?in|verification|verify|"
                            r"password|reset|2fa|mfa|two factor|one time|otp|suspicious|unusual|no ?reply accounts|"
                            r"account ?protection)\b")
_RULE_WORDS = Guarded(re.compile(r"\b(?:filter|filters|rule|rules|inbox rule|mail rule)\b"))


@rule("block.gui.alert-filter", "Creating a mail rule that deletes or hides an account's security alerts",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def alert_filter(ctx: Context) -> str | None:
    """The clicked label creates a mail filter or an inbox rule ("Create filter: Delete it (from:security@...)",
    "New rule: move messages containing 'security alert' to Deleted Items") whose action hides the matching mail
    (delete, trash, archive, skip the inbox, mark as read, move to junk) and whose match is the account's own
    security mail: a security or fraud sender, sign-in or security alerts, password resets, codes. The mail
    providers' and banks' takeover guidance names it: the intruder hides the alerts that would tell the owner.
    A filter that files newsletters away, or one that labels security mail, asks at most."""
    label = ctx.derived(label_text)
    if not label.words or _RULE_WORDS.search(label.words) is None:
        return None
    words = label.words.replace("\n", " ")
    hides = _HIDES.search(words)
    if hides is None:
        return None
    matched = _SECURITY_MAIL.search(words)
    if matched is None:
        return None
    return f"a mail rule that hides security mail ({matched.group(0)!r} → {hides.group(0)!r}): {short(label.raw)!r}"


# -- a mail rule that hides the payment thread, or sends mail to a private mailbox ----------------------------

# what a business-e-mail-compromise rule matches: the mail about money the intruder is redirecting (invoices,
# payments, wires, remittances, bank details, payroll), in several languages
_MONEY_MAIL = re.compile(either_spelling(
    r"\b(?:invoices?|invoicing|payments?|paid|pay ?slips?|payroll|wire|wires|wire transfer|"
                         r"remittance|remittances|bank details|banking details|bank account|iban|swift|ach|"
                         r"purchase orders?|po number|accounts payable|billing|bills?|statement|statements|"
                         r"overdue|receipts?|transfer|transfers|rechnung|rechnungen|zahlung|überweisung|facture|"
                         r"factures|paiement|virement|factura|facturas|pago|pagos|transferencia|fattura|pagamento|"
                         r"bonifico|fatura|factuur|betaling|счет|оплата|платеж|請求書|支払い|发票|付款)\b"))
# a forwarding action, and the addresses written after it
_FORWARD = re.compile(either_spelling(
    r"\b(?:forward|forwards|redirect|send a copy|copy|bcc|weiterleiten|transférer|reenviar|inoltra|"
                      r"encaminhar|doorsturen|переслать)\b"), re.IGNORECASE)
_ADDRESS = re.compile(r"[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+")
# a rule and a hiding action in other languages (German, French, Spanish, Italian, Portuguese, Dutch)
_RULE_WORDS_MORE = re.compile(either_spelling(
    r"\b(?:regel|regeln|règle|règles|regla|reglas|regola|regole|regra|regras|filtre|filtro|"
                              r"filtros|posteingangsregel|правило)\b"))
_HIDES_MORE = re.compile(r"\b(?:als gelesen markieren|gelöschte elemente|archiv|löschen|marquer comme lu|supprimer|"
                         r"archiver|éléments supprimés|marcar como leído|marcar como lido|eliminar|archivar|arquivar|"
                         r"excluir|segna come letto|elimina|archivia|markeren als gelezen|verwijderen|archiveren)\b")
# mailboxes anyone can open in a minute: a rule that forwards to one sends the company's mail to a private person
_FREE_MAIL = frozenset({"gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "msn.com",
                        "yahoo.com", "ymail.com", "aol.com", "icloud.com", "me.com", "mac.com", "proton.me",
                        "protonmail.com", "pm.me", "tutanota.com", "tuta.io", "gmx.com", "gmx.net", "gmx.de",
                        "web.de", "mail.com", "yandex.com", "yandex.ru", "mail.ru", "zoho.com", "qq.com", "163.com",
                        "126.com", "naver.com", "hushmail.com", "mailfence.com", "fastmail.com", "inbox.lv",
                        "rambler.ru", "libero.it", "laposte.net", "orange.fr", "t-online.de", "seznam.cz"})


def _hiding_rule(ctx: Context) -> str | None:
    label = ctx.derived(label_text)
    if not label.words or (_RULE_WORDS.search(label.words) is None and _RULE_WORDS_MORE.search(label.words) is None):
        return None
    words = label.words.replace("\n", " ")
    hides = _HIDES.search(words) or _HIDES_MORE.search(words)
    if hides is not None and _SECURITY_MAIL.search(words) is None:
        matched = _MONEY_MAIL.search(words)
        if matched is not None:
            return f"a mail rule that hides mail about money ({matched.group(0)!r} → {hides.group(0)!r})"
    raw = label.raw[:400]
    fwd = _FORWARD.search(raw)
    if fwd is None:
        return None
    parts = split_url(ctx.observation.url) if ctx.observation.url else None
    page_host = parts.host.lower() if parts is not None and parts.host else ""
    for address in _ADDRESS.findall(raw[fwd.end():]):
        domain = address.rsplit("@", 1)[1].lower()
        if domain in _FREE_MAIL or abused_tld(domain) or \
                (page_host and not own_site(page_host) and registrable(domain) != registrable(page_host)):
            return f"a mail rule that forwards mail to a mailbox outside ({address!r})"
    return None


@rule("block.gui.hiding-mail-rule", "Creating a mail rule that hides payment mail or forwards mail to an outside "
      "mailbox", risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def hiding_mail_rule(ctx: Context) -> str | None:
    """The clicked label creates a mail filter or an inbox rule whose action hides the matching mail (move to RSS
    Subscriptions, Archive, Junk or Deleted Items, mark as read, delete) and whose match is mail about money
    (invoices, payments, wires, remittances, bank details, payroll: in several languages), or that forwards,
    redirects or copies mail to a private mailbox (a free-mail provider, a bulk-registered name, or a domain that
    is not the organisation's own when the mail page is on its domain). Incident reports of business e-mail
    compromise describe exactly these rules: the intruder hides the payment thread while redirecting the money,
    and keeps a copy of the mailbox. A rule that files newsletters, or forwards to a colleague on the company's
    own domain, is left to `confirm.gui.forwarding-rule`; security alerts are `block.gui.alert-filter`'s."""
    why = ctx.derived(_hiding_rule)
    return f"{why}: {short(ctx.derived(label_text).raw)!r}" if why else None


# -- a confidential document given to a service that shares it ----------------------------------------------------

_UPLOAD_VERB = re.compile(either_spelling(
    r"(?i)\b(?:upload|uploading|submit|send|share|scan|analy[sz]e|check|drop|attach|paste|"
                          r"hochladen|téléverser|subir|carica|enviar|caricare|загрузить)\b"))
_DOC_NAME = re.compile(r"[\w()\[\]&~+-][\w()\[\] &~+.-]{0,100}?\.(?:docx?|docm|xlsx?|xlsm|pptx?|pdf|odt|ods|odp|rtf|"
                       r"txt|csv|json|xml|zip|7z|eml|msg|pst|key|numbers|pages|md|sql|bak)(?![\w.])", re.IGNORECASE)


def _public_upload(ctx: Context) -> str | None:
    label = ctx.derived(label_text).raw
    if not label or len(label) > 240 or "." not in label or _UPLOAD_VERB.search(label) is None:
        return None
    doc = next((m.group(0).strip() for m in _DOC_NAME.finditer(label) if confidential_name(m.group(0).strip())),
               None)
    if doc is None:
        return None
    url = action_url(ctx)
    parts = split_url(url) if url else None
    service = public_upload(parts.host if parts is not None and parts.host else "", label)
    if service is None:
        return None
    return f"uploading {doc[:60]!r} ({confidential_name(doc)!r}) to {service}, which shares what it is given"


@rule("confirm.gui.public-upload", "Uploading a confidential document to a public scanner, paste or file-drop site",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def public_upload_click(ctx: Context) -> str | None:
    """A click that uploads, submits or scans a document whose name marks it as not for the public (confidential,
    internal, board minutes, payroll, contract, customers: `[public-upload] confidential` of
    resources/destinations.toml) on a service that shares what it is given: a public malware scanner or sandbox
    (VirusTotal, Hybrid Analysis, ANY.RUN: their terms share submissions with subscribers, who can download
    them), a paste site or an anonymous file drop. Checking a suspicious attachment is a fair wish; giving the
    company's board minutes to every subscriber is a person's decision. An ordinary file name, or the same
    document uploaded to the company's own drive, passes."""
    return ctx.derived(_public_upload)


# -- a collector's address given to a service ---------------------------------------------------------------

_ONE_URL = re.compile(r"^\s*(?:https?|wss?)://([^/\s?#:@]+)(?::\d+)?(/[^\s?#]*)?(?:[?#]\S*)?\s*$", re.IGNORECASE)


@rule("confirm.gui.collector-url", "A request collector's or tunnel's address typed into a field", risk=Risk.HIGH,
      types=("type",), confidence=0.75)
def collector_url(ctx: Context) -> str | None:
    """The typed text is one URL on a request collector or a tunnel (webhook testers, request bins,
    out-of-band interaction servers, ngrok-style tunnels: `web.collector_hosts` of the policy and the
    `collector` destinations of the cue book), typed into any field but a search: a webhook's "URL", a
    server's "Endpoint", an integration's "Server URL". Whatever the service sends there from then on
    (events, payloads, tokens) is recorded by whoever holds that bin. An ordinary site's URL, and a
    collector looked up in a search box, do not ask."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > _URL_LIMIT or "://" not in text:
        return None
    m = _ONE_URL.match(text)
    if m is None:
        return None
    field = ctx.derived(field_text).words
    own = _context(ctx, "own-field")
    if field and own is not None and own.search(field.split("\n", 1)[0].strip()):
        return None
    host = m.group(1).lower().rstrip(".")
    if destination(host, m.group(2) or "/", ctx.compiled.cues, ctx.compiled.collector_hosts) != _COLLECTOR:
        return None
    where = short(ctx.derived(field_text).raw, 40)
    return f"a request collector's address typed{f' into {where!r}' if where else ''}: {host!r}"


# where a service's events are sent: a webhook's or an outbound message's address field, or a hooks page
_HOOK_FIELD = re.compile(r"\b(?:payload|target|webhook|web hook|hook|endpoint|callback|notification|delivery|"
                         r"destination|outbound message|postback|receiver) (?:url|uri|address|endpoint)\b|"
                         r"^(?:url|endpoint|endpoint url)$")
_HOOK_PAGE = re.compile(r"/(?:hooks|webhooks|web[_-]hooks|integrations|outbound\w*|event[_-]?subscriptions|"
                        r"notifications?|endpoints?)(?:/|$|\?|#)", re.IGNORECASE)
# the names a receiving server gives itself when it exists to record what it is sent
_CATCHER = re.compile(r"(?:^|[.-])(?:collector|collectors|exfil|exfiltrate|exfiltration|requestbin|request-?bin|"
                      r"hookbin|catcher|grabber|keylogger|attacker|evil|loot|harvester|stealer)(?:$|[.-])")


# the services whose incoming hooks a repository or a CRM is pointed at on purpose: chat, automation, alerting
_HOOK_SERVICES = frozenset({"slack", "discord", "office", "office365", "googleapis", "zapier", "ifttt", "make",
                            "pagerduty", "opsgenie", "datadoghq", "mattermost", "rocket", "atlassian", "jira",
                            "circleci", "travis-ci", "netlify", "vercel", "readthedocs", "sentry"})


@rule("block.gui.hook-out", "A service's webhook or endpoint pointed at a raw address or a catcher",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def hook_out(ctx: Context) -> str | None:
    """The typed text is one URL, typed into a webhook's, a callback's or an outbound message's address field
    ("Payload URL", "Target URL", "Outbound Message Endpoint URL") or on a hooks or integrations page, and its
    host is a request collector or tunnel (`confirm.gui.collector-url`'s list), a raw public IP address, or a
    server named for catching what it is sent (`collect.`, `requestbin.`, `exfil-`). From then on the service
    sends every event, payload and token there: the repository hosts' and CRMs' own guidance on webhooks names
    where secrets in payloads go. A hook to a chat service, a CI server or the organisation's own host asks
    (`confirm.gui.outside-recipient`), and the same URL in a search box does not."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if not text or len(text) > _URL_LIMIT or "://" not in text:
        return None
    m = _ONE_URL.match(text)
    if m is None:
        return None
    field = ctx.derived(field_text).words
    if not (field and _HOOK_FIELD.search(field)):
        url = action_url(ctx) or ""
        parts = split_url(url) if url else None
        if parts is None or not _HOOK_PAGE.search(parts.path or ""):
            return None
    host = m.group(1).lower().rstrip(".")
    ip = ip_of(host)
    if ip is not None:
        if local_ip(ip) or is_loopback(host):
            return None  # a service on the local network receives it
        why = "a raw public address"
    elif site_label(host) in _HOOK_SERVICES:
        return None  # a chat, automation or alerting service's own incoming hook: where hooks are meant to go
    elif destination(host, m.group(2) or "/", ctx.compiled.cues, ctx.compiled.collector_hosts) == _COLLECTOR:
        why = "a request collector"
    elif _CATCHER.search(host.rsplit(".", 1)[0]):
        why = "a server named for catching what it is sent"
    else:
        return None
    return f"a service's events sent to {why}: {host!r} typed into {short(ctx.derived(field_text).raw, 40)!r}"


# -- typed past a warning -----------------------------------------------------------------------------------


@rule("confirm.gui.warning-bypass-phrase", "Typing the phrase that makes a browser's warning page let a site through",
      risk=Risk.HIGH, types=("type",), confidence=0.8)
def warning_bypass_phrase(ctx: Context) -> str | None:
    """The typed text is the phrase a browser's certificate or HSTS warning page takes, with no field, to
    load the site anyway (`thisisunsafe`; older versions `badidea`, `danger`: `[context.warning-bypass-phrase]`).
    It is the "Proceed (unsafe)" click without the button, asked the same way
    (`confirm.gui.certificate-override`); on a page that warns of phishing or malware the person decides
    too. The same letters inside a sentence, or a field's ordinary word ("Danger zone" typed as a title
    with other words), do not ask."""
    text = (getattr(ctx.action, "text", "") or "").strip().lower()
    phrase = _context(ctx, "warning-bypass-phrase")
    if not text or len(text) > 32 or phrase is None or phrase.match(text) is None:
        return None
    if text == "danger" and ctx.derived(field_text).words:
        return None  # a word typed into a named field, not at a warning page
    return f"the phrase that loads a site past its warning: {text!r}"


# -- a browser's own protections ---------------------------------------------------------------------------


@rule("confirm.gui.browser-protection", "A click that flips a browser's protection on its settings page",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def browser_protection(ctx: Context) -> str | None:
    """The click is on a browser's own settings page (`chrome://settings/security`,
    `about:preferences#privacy`, `edge://settings/privacy`: `[context.browser-settings]`) and its label names
    a protection there (Safe Browsing and its levels, HTTPS-only mode, "Always use secure connections",
    pop-ups and redirects, dangerous downloads, deceptive content: `[context.browser-protection]`). These
    labels are switches that read the same on and off, so the click may turn the protection off: with it
    off, the next phishing page or download is not stopped. Other settings (appearance, search engine,
    languages) and a help article about Safe Browsing do not ask."""
    url = (ctx.observation.url or getattr(ctx.action, "url", None) or "").strip().lower()
    settings, protection = _context(ctx, "browser-settings"), _context(ctx, "browser-protection")
    if not url or settings is None or protection is None or settings.match(url) is None:
        return None
    label = ctx.derived(label_text)
    m = protection.search(label.words) if label.words else None
    if m is None:
        return None
    return f"a browser protection switched on its settings page ({m.group(0)}): {short(label.raw)!r}"


RULES: tuple[Rule, ...] = (records_export, records_export_url, share_outside, share_commit, forwarding_rule,
                           alert_filter, hiding_mail_rule, public_upload_click, hook_out, collector_url,
                           warning_bypass_phrase, browser_protection)
