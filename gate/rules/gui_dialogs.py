"""Rules: a bare label read with the dialog it is on.

"Discard", "Zapisz", "Editor", "作成" say nothing by themselves; the window's title and the page's address say
what they commit: a mail rule that forwards or destroys the matching mail, a share that gives a stranger edit
rights or opens a folder to anyone with its link, an app password made for a mailbox. The title names the
object and the action, the label commits it. What marks each dialog and each label is a `[context.*]` table of
resources/cues.toml (gate/cues.py), in several languages.

- `confirm.gui.mail-rule-effect`: a mail filter's or inbox rule's action that forwards or deletes the matching
  mail, chosen or saved in the rule's dialog; an address typed as its forward target; a condition on money or
  security mail typed into a rule that files mail away unseen; a rule named with no letters;
- `confirm.gui.mass-forward`: a click in a window that forwards many selected messages at once;
- `confirm.gui.empty-folder`: emptying a whole mail folder or the trash;
- `confirm.gui.mail-key-store`: a private key backed up to the mail server, or a key imported into its keyring;
- `confirm.gui.mail-account-add`: another account connected to a mail client;
- `confirm.gui.share-grant`: a role, a new link or the share button in a dialog that shares with someone named
  or with anyone who has the link;
- `confirm.gui.org-consent`: an app's permissions granted for the whole organisation;
- `confirm.gui.app-password`: an app password or a mail authorisation code made;
- `confirm.gui.app-password-typed`: such a password or code written into a message or any ordinary field.
"""

from __future__ import annotations

import re
import unicodedata

from gate.destinations import abused_tld, impersonation, judge
from gate.fields import field_text, short, text_of
from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import label_text
from gate.rules.window_cues import cue_match, first_label, title_words
from gate.urls import action_url, split_url

__all__ = ["RULES"]

_TITLE_LIMIT = 256
_URL_LIMIT = 2048
_MAIL_HOST = re.compile(r"(?:^|\.)(?:mail|webmail|email|outlook|owa|imap)\.|^mail\.|\bmail\b", re.IGNORECASE)
_MAIL_APP = re.compile(r"\b(?:mail|outlook|thunderbird|betterbird|snappymail|rainloop|roundcube|evolution|kmail|"
                       r"geary|mailspring|horde|sogo|zimbra|gmail|webmail)\b", re.IGNORECASE)
# the Google app-password format: four groups of four small letters, as the account page shows it
_APP_PASSWORD = re.compile(r"(?<![a-z])[a-z]{4}(?: [a-z]{4}){3}(?![a-z])")
# three consonants running: a random group has one, an ordinary four-letter word almost never
_CLUSTER = re.compile(r"[bcdfghjklmnpqrstvwxz]{3}")
_CREDENTIAL_FIELD = re.compile(r"\b(?:password|passwort|kennwort|mot de passe|contraseña|senha|пароль|"
                               r"app password|passcode|secret|token)\b|密码|パスワード|授权码", re.IGNORECASE)




def _url_words(ctx: Context) -> str:
    url = action_url(ctx) or ""
    if not url or len(url) > _URL_LIMIT:
        return ""
    return text_of(url.split("://", 1)[-1].replace("/", " ").replace("#", " ").replace("?", " ")
                   .replace("&", " ").replace("=", " ").replace("_", " ").replace("-", " ")).words.replace("\n", " ")



def _found(ctx: Context, name: str, words: str, *, anchored: bool = False) -> str | None:
    m = cue_match(ctx, name, words, anchored=anchored)
    return m.group(0) if m is not None else None


def _mail_place(ctx: Context) -> bool:
    """The action is in a mail client or a webmail: its app, its title or its page's host says so."""
    obs = ctx.observation
    if _MAIL_APP.search(obs.app or "") or _MAIL_APP.search((obs.window_title or "")[:_TITLE_LIMIT]):
        return True
    url = action_url(ctx) or ""
    parts = split_url(url) if url and len(url) <= _URL_LIMIT else None
    return bool(parts is not None and parts.host and _MAIL_HOST.search(parts.host))


# -- a mail rule that takes the mail away --------------------------------------------------------------------


def _rule_dialog(ctx: Context) -> str | None:
    """The words of the window's title that name a mail rule being made or edited, or None."""
    return _found(ctx, "mail-rule-dialog", title_words(ctx))


_RULES_PAGE = re.compile(r"\b(?:rules?|filters?|inboxrules|filter rules|regeln|filtres|reglas|regole|filtri)\b")


def _hidden_rule_name(ctx: Context) -> str | None:
    """A mail rule named with no letters at all (".", "..", "-"), in its dialog or on the rules page: such a
    name is how an intruder's rule hides in the list."""
    words = ctx.derived(field_text).words
    field = words.split("\n", 1)[0].strip() if words else ""
    text = getattr(ctx.action, "text", "") or ""
    if not field or not text.strip() or len(text) > 64 or any(ch.isalnum() for ch in text):
        return None
    if _found(ctx, "rule-name-field", field, anchored=True) is None:
        return None
    if ctx.derived(_rule_dialog) is None and _RULES_PAGE.search(ctx.derived(_url_words)) is None:
        return None
    return f"a mail rule named {text.strip()[:20]!r}: a name of no letters hides the rule in its list"


def _mail_rule_effect(ctx: Context) -> str | None:
    if not ctx.derived(_mail_place):  # a photo editor's "Filter" window is no mail rule
        return None
    if ctx.action.type == "type":
        hidden = _hidden_rule_name(ctx)
        if hidden is not None:
            return hidden
    dialog = ctx.derived(_rule_dialog)
    if dialog is None:
        return None
    title, kind = title_words(ctx), ctx.action.type
    if kind == "click":
        label = first_label(ctx)
        if not label:
            return None
        # the rule's action itself: "Discard", "Forward to", "Уничтожить", "自动删除"
        if (effect := _found(ctx, "mail-rule-effect", label)) is not None:
            return f"a mail rule ({dialog!r}) set to {effect!r}: the matching mail leaves or is destroyed unseen"
        # its bare commit under a title that says what it does: "Save" on "→ Forward: ...", "OK" on "→ Delete"
        if _found(ctx, "rule-commit", label, anchored=True) is not None or \
                _found(ctx, "create-commit", label, anchored=True) is not None:
            effect = _found(ctx, "mail-rule-effect", title.replace(dialog, " ", 1))
            if effect is not None:
                return f"saving a mail rule ({dialog!r}) that does {effect!r}: {short(ctx.derived(label_text).raw)!r}"
        return None
    if kind != "type":
        return None
    field = ctx.derived(field_text).words.split("\n", 1)[0].strip() if ctx.derived(field_text).words else ""
    text = getattr(ctx.action, "text", "") or ""
    if not field or not text or len(text) > 512:
        return None
    if "@" in text and _found(ctx, "mail-rule-effect", field) is not None:
        return f"an address typed as a mail rule's forward target ({field!r} in {dialog!r})"
    hides = _found(ctx, "mail-rule-quiet", title) or _found(ctx, "mail-rule-effect", title.replace(dialog, " ", 1))
    matched = _found(ctx, "mail-rule-condition", text_of(text).words.replace("\n", " "))
    if hides is not None and matched is not None:
        return f"a mail rule ({dialog!r}) that does {hides!r} to mail about {matched!r}"
    return None


@rule("confirm.gui.mail-rule-effect", "A mail rule that forwards, deletes or hides the matching mail, read from its "
      "dialog", risk=Risk.HIGH, types=("click", "type"), confidence=0.75)
def mail_rule_effect(ctx: Context) -> str | None:
    """The window's title names a mail filter or an inbox rule being made ("Create filter — From contains ...",
    "New rule", "Filterregeln", "Создать фильтр": `[context.mail-rule-dialog]`), and the action commits what it
    does to the matching mail: the rule's action itself clicked ("Forward to", "Discard", "Уничтожить", "自动删除":
    `[context.mail-rule-effect]`), or a bare "Save"/"OK"/"Zapisz" under a title that summarises it so; an
    address typed as its forward target; a condition on invoices or security alerts typed into a rule that files
    the mail away unseen (`[context.mail-rule-quiet]`, `[context.mail-rule-condition]`); a rule named with no
    letters at all. Intruders and planted instructions set exactly these rules to keep reading a mailbox and to
    hide what would warn its owner. A rule that labels or files newsletters, and its "Create filter", do not
    ask here."""
    return ctx.derived(_mail_rule_effect)


@rule("confirm.gui.mass-forward", "Forwarding many selected messages at once", risk=Risk.HIGH,
      types=("click", "type"), confidence=0.75)
def mass_forward(ctx: Context) -> str | None:
    """The window forwards a whole selection of messages ("Forward as attachments — 214 messages selected",
    "Doorsturen als bijlage(n)": `[context.mass-forward]`): what is clicked or typed there sends a mailbox's
    worth of mail to one address. Forwarding one open message is not this rule's."""
    found = _found(ctx, "mass-forward", title_words(ctx))
    return f"forwarding many messages at once ({found!r})" if found else None


@rule("confirm.gui.empty-folder", "Emptying a mail folder or the trash", risk=Risk.HIGH, types=("click",),
      confidence=0.75)
def empty_folder(ctx: Context) -> str | None:
    """"Empty folder", "Vider le dossier", "Papierkorb leeren", "清空" (`[context.empty-folder]`): every message or
    file in the folder is deleted for good in one click, past any trash. A bare "Empty" counts only in a mail
    client or on a webmail page; "Move to trash" and "Delete" of one item are other rules'."""
    label = first_label(ctx)
    found = _found(ctx, "empty-folder", label, anchored=True)
    if found is None:
        return None
    if " " not in found and not any(ord(ch) > 0x2E80 for ch in found) and not ctx.derived(_mail_place):
        return None
    return f"emptying a whole folder: {short(ctx.derived(label_text).raw)!r}"


@rule("confirm.gui.mail-key-store", "A private key backed up to the mail server, or a key imported into its keyring",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def mail_key_store(ctx: Context) -> str | None:
    """"Back up the private key on the server", "在服务器上备份私钥", "Import key" (`[context.mail-key-store]`) on a
    mail client's encryption-key page or window (`[context.mail-key-page]`, or the label itself names the private
    key): a private key kept on the server is readable by whoever runs it, and an imported key decides whose
    messages are trusted and to whom mail is encrypted. Viewing or generating a key does not ask."""
    label = first_label(ctx)
    found = _found(ctx, "mail-key-store", label)
    if found is None:
        return None
    where = " ".join((label, title_words(ctx), ctx.derived(_url_words)))
    if _found(ctx, "mail-key-page", where) is None:
        return None
    return f"a mail encryption key handed over: {short(ctx.derived(label_text).raw)!r}"


@rule("confirm.gui.mail-account-add", "Connecting another account to a mail client", risk=Risk.MEDIUM,
      types=("click",), confidence=0.7)
def mail_account_add(ctx: Context) -> str | None:
    """"Add account", "Konto hinzufügen", "添加账户" (`[context.add-account]`) in a mail client or on a webmail's
    accounts settings: the mail client then reads and sends as that account too, and the account's server learns
    what it is given. The same button elsewhere (a bank's, a shop's) is not this rule's."""
    label = first_label(ctx)
    if _found(ctx, "add-account", label, anchored=True) is None or not ctx.derived(_mail_place):
        return None
    return f"adding an account to a mail client: {short(ctx.derived(label_text).raw)!r}"


# -- a share that reaches a stranger or anyone -----------------------------------------------------------------


def _share_grant(ctx: Context) -> str | None:
    label = first_label(ctx)
    if not label:
        return None
    title = title_words(ctx)
    public = _found(ctx, "public-link", title)
    raw_title = (ctx.observation.window_title or "")[:_TITLE_LIMIT]
    shares = _found(ctx, "share-dialog", title)
    named = "@" in raw_title
    if _found(ctx, "share-role", label, anchored=True) is not None:
        if public is not None:
            return f"role {label!r} given on a link anyone can open ({public!r})"
        if shares is not None and (named or _found(ctx, "share-role-edit", label, anchored=True) is not None):
            return f"role {label!r} given in a share dialog ({shares!r})"
        return None
    if _found(ctx, "share-object", label, anchored=True) is not None and shares is not None and named:
        return f"sharing with the address the dialog names: {label!r} ({shares!r})"
    if _found(ctx, "add-link", label, anchored=True) is not None and \
            (public is not None or _found(ctx, "drive-page", ctx.derived(_url_words)) is not None):
        return f"a new link to a file or folder: {label!r}"
    return None


@rule("confirm.gui.share-grant", "A role, a new link or the share button in a dialog that shares", risk=Risk.HIGH,
      types=("click",), confidence=0.75)
def share_grant(ctx: Context) -> str | None:
    """A bare role ("Editor", "Can edit", "Peut modifier", "编辑者": `[context.share-role]`) clicked where the
    title says the object is open to anyone with its link ("Anyone with the link", "Public link without password
    protection": `[context.public-link]`), or an editing role, or any role for a named address, in a share dialog
    (`[context.share-dialog]`); "Share folder" in a share dialog that names an address; "Add link", "Create link"
    (`[context.add-link]`) on a cloud drive's files. Each gives whoever has the link or the address the folder.
    A viewing role in a dialog that names nobody, and "Add link" in a document editor, do not ask."""
    return ctx.derived(_share_grant)


# -- account access ----------------------------------------------------------------------------------------------


@rule("confirm.gui.org-consent", "Granting an app's permissions for the whole organisation", risk=Risk.HIGH,
      types=("click",), confidence=0.75)
def org_consent(ctx: Context) -> str | None:
    """"Consent on behalf of your organization" (`[context.org-consent]`, in several languages): the app gets what
    it asks for (mail, files, offline access) for every account of the tenant at once, past each person's own
    consent. Consent-phishing apps ask an administrator for exactly this. A person's own "Accept" is the consent
    rules' (gate/rules/navigate.py)."""
    found = _found(ctx, "org-consent", first_label(ctx))
    return f"consent for the whole organisation ({found!r})" if found else None


@rule("confirm.gui.app-password", "Making an app password or a mail authorisation code", risk=Risk.HIGH,
      types=("click",), confidence=0.75)
def app_password(ctx: Context) -> str | None:
    """"Generate app password", "生成授权码" (`[context.app-password-label]`), or a bare "Create"/"作成" on the
    page where they are made (`[context.app-password-page]`, read on the title and the address): the result is a
    long-lived credential that reads and sends the mailbox past two-step sign-in. Opening the page does not ask."""
    label = first_label(ctx)
    if (found := _found(ctx, "app-password-label", label)) is not None:
        return f"making an app password ({found!r})"
    if _found(ctx, "create-commit", label, anchored=True) is None:
        return None
    page = _found(ctx, "app-password-page", " ".join((title_words(ctx), ctx.derived(_url_words))))
    return f"making an app password: {label!r} on {page!r}" if page else None


@rule("confirm.gui.app-password-typed", "An app password or a mail authorisation code written into a message",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def app_password_typed(ctx: Context) -> str | None:
    """Typed text that holds an app password in the form the account page shows it (four groups of four letters)
    or writes one out after its name ("授权码：...", "App password: ..." : `[context.code-given-label]`), in a
    field that is not a password field: whoever reads the message can read and send the mailbox. Typed into the
    mail client's own password field it is the credential rules'."""
    text = getattr(ctx.action, "text", "") or ""
    if not text or len(text) > 2048:
        return None
    field = ctx.derived(field_text).raw or ""
    if _CREDENTIAL_FIELD.search(field[:200]):
        return None
    low = unicodedata.normalize("NFKC", text).lower()  # as the cue book's patterns are
    given = _found(ctx, "code-given-label", low)
    if given is not None:
        rest = low[low.find(given) + len(given):].strip()
        if len(rest.split(None, 1)[0] if rest else "") >= 8:
            return f"an app password or authorisation code written out ({given.rstrip(':： ')!r})"
    found = _APP_PASSWORD.fullmatch(text.strip())
    if found is not None and _CLUSTER.search(found.group(0)):
        return "an app password (four groups of four letters) written into an ordinary field"
    return None


# -- the recipient named is a look-alike -----------------------------------------------------------------------

_ADDRESS = re.compile(r"[\w.+-]{1,64}@([\w-]{1,63}(?:\.[\w-]{1,63}){1,5})")


def _lookalike(domain: str) -> str | None:
    """Why `domain` is not a mailbox anyone should be handed mail or files: it borrows a brand's or an agency's
    name, reads like a lure, or sits under a top-level name bulk-registered for abuse; None otherwise."""
    verdict = judge(domain, "/")
    if verdict is not None:
        return verdict.why
    claim = impersonation(domain)
    if claim is not None:
        return f"{domain} uses the name {claim.token!r} but is not its site"
    return f"{domain} is under a top-level name registered in bulk for abuse" if abused_tld(domain) else None


@rule("block.gui.lookalike-recipient", "Mail or a share routed to a look-alike address", risk=Risk.CRITICAL,
      types=("click", "type"), confidence=0.85)
def lookalike_recipient(ctx: Context) -> str | None:
    """A mail rule that forwards or a share that grants (the dialogs `confirm.gui.mail-rule-effect`,
    `confirm.gui.mass-forward` and `confirm.gui.share-grant` read) whose recipient, named in the window's title or
    typed, is on a domain that imitates a brand or an agency ("dropbox-securite", "outlook-secure"), reads like a
    lure ("helpdesk-verify") or sits under a bulk-registered top-level name (gate/destinations.py). Nobody's
    colleague or own second mailbox lives there: it is the address planted instructions name. A recipient on an
    ordinary domain stays with the rules that ask."""
    if ctx.derived(_mail_rule_effect) is None and ctx.derived(_share_grant) is None and \
            _found(ctx, "mass-forward", title_words(ctx)) is None:
        return None
    raw = (ctx.observation.window_title or "")[:_TITLE_LIMIT] + " " + (getattr(ctx.action, "text", "") or "")[:512]
    for domain in _ADDRESS.findall(raw):
        why = _lookalike(domain.lower())
        if why is not None:
            return f"mail or a share routed to a look-alike address: {why}"
    return None


RULES: tuple[Rule, ...] = (mail_rule_effect, mass_forward, empty_folder, mail_key_store, mail_account_add,
                           share_grant, lookalike_recipient, org_consent, app_password, app_password_typed)
