"""Readers of what a GUI action names: its label, the field typed into, the typed text, the page it is on.

Shared by every GUI rule family (gate/rules/gui.py, typed_lures.py, typed_out.py, page.py, webapp.py, ...):
one place that says what a field is (a message, a credential field, a public post), where a page is (its host
and path, a mail client's compose window) and how text is normalised for matching.

Text is normalised once per action (`ctx.derived`) into two lowercase forms:

- `norm`: NFKC, case folding, zero-width / bidi removal, homoglyph folding, whitespace collapsed.
  Punctuation survives, so code payloads (`os.popen(`, `'; drop table`) can be seen.
- `words`: `norm` with camelCase humps split first and every run of non-word characters or `_` turned
  into one space: `current_password` → "current password", `email-reply` → "email reply". Word-boundary
  patterns (irreversible verbs, credential fields) are written against this form.

A label is the target's `label` and `name` (one per line); a field is described by its label, name and role.
Pure: no I/O; the compiled `[gui]` lists are read from `ctx.compiled.gui`.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from typing import TYPE_CHECKING

import msgspec

from gate.cues import either_spelling
from gate.normalise import _INVISIBLE, fold, fold_uncached
from gate.prefix import Guarded, text_keys
from gate.sensitive import variable_name
from gate.typed import Destination, destination
from gate.urls import site_label, split_url

if TYPE_CHECKING:
    from gate.rules.base import Context

__all__ = [
    "EMPTY", "MAIL_PAGE", "ONE_EMAIL", "ONE_PHONE", "PASSWORD_WORD", "SCAM_WORDS", "Text", "ai_prompt_box",
    "assistant_chat", "chat_window", "compose_window",
    "credential_field", "field_place", "field_text", "into_a_field", "label_text", "message_field", "page_host",
    "page_path", "public_post", "scam_named", "secret_in", "shannon_entropy", "short", "text_of", "typed_text",
]


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


class Text(msgspec.Struct, frozen=True):
    """One piece of text in both matching forms (see the module docstring). A msgspec Struct: built in C,
    once per label or typed text of every assessment (a frozen dataclass sets each field in Python)."""

    raw: str
    norm: str
    words: str
    both: str  # both forms, for one search; just one when they are the same (most labels)
    keys: frozenset[str]  # `text_keys(both)`: the matchers' prefilter


EMPTY = Text("", "", "", "", frozenset())


# ASCII punctuation (and `_`) → space, for the `words` form without a regex: a bytes table, one lookup per byte
# (str.translate with a mapping looks each character up in a dict)
_ASCII_NON_WORD = bytes(c if c >= 128 or chr(c).isalnum() or c == 10 else 32 for c in range(256))


def _lines(text: str) -> str:
    """Whitespace runs → one space, per line; blank lines dropped."""
    if "\n" not in text:
        return " ".join(text.split())
    return "\n".join(line for raw in text.split("\n") if (line := " ".join(raw.split())))


def _text_uncached(raw: str) -> Text:
    norm = _lines(_fold(raw))
    split = _CAMEL.sub(" ", raw) if raw != raw.lower() else raw  # every hump has an A-Z after it
    if split.isascii():
        words = _lines(split.lower().encode().translate(_ASCII_NON_WORD).decode())
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


def text_of(raw: str) -> Text:
    if not raw:
        return EMPTY
    # labels repeat (agents click the same buttons); long typed text is not worth a cache slot
    return _text_cached(raw) if len(raw) <= 256 else _text_uncached(raw)


def label_text(ctx: Context) -> Text:
    """The target's label and name (one per line), normalised. Empty when the agent names no target."""
    target = ctx.action.target
    if target is None:
        return EMPTY
    parts = [p for p in (target.label, target.name) if p]
    return text_of("\n".join(parts)) if parts else EMPTY


def field_text(ctx: Context) -> Text:
    """What describes the field being typed into: label, name and role."""
    target = ctx.action.target
    if target is None:
        return EMPTY
    parts = [p for p in (target.label, target.name, target.role) if p]
    return text_of("\n".join(parts)) if parts else EMPTY


def typed_text(ctx: Context) -> Text:
    return text_of(getattr(ctx.action, "text", "") or "")


def short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def credential_field(ctx: Context) -> bool:
    """The field being typed into is a credential field (and not on the allowlist). A variable's name typed
    into it (`DATABASE_URL` into a secrets page's "Secret key" box) names where a secret is kept: no secret is
    typed, so the field is not judged as one."""
    p = ctx.compiled.gui
    field = ctx.derived(field_text)
    if not field.words or p.credential is None or not p.credential.search(field.words, field.keys):
        return False
    if variable_name(ctx.derived(typed_text).raw):
        return False
    if booking_reference(field.words, ctx.derived(typed_text).raw):
        return False
    return not (p.credential_allow is not None and p.credential_allow.search(field.words, field.keys))


# A "confirmation code" is two things: the one-time code a service sends to sign in (a credential), and the
# reference of a booking, an order or a ticket (an airline's record locator, a hotel's or a rental's booking
# code), printed on every itinerary and receipt and typed to look the booking up. The field names a booking's
# reference, or the code typed is the shape of one (five to eight capitals and digits, a letter among them;
# the codes services send to sign in are digits): a booking reference is typed, no credential.
_REFERENCE_FIELD = re.compile(r"\b(?:confirmation|booking|reservation|record locator|itinerary|trip|ticket|order|"
                              r"pnr|locator)\b")
_BOOKING_WORDS = re.compile(r"\b(?:booking|reservation|record locator|itinerary|trip|flight|ticket|order|pnr|"
                            r"locator|hotel|rental|check in)\b")
_ONE_TIME = re.compile(r"\b(?:one time|otp|2fa|mfa|sign in|signin|log in|login|verification|verify|security|sms|"
                       r"texted|sent to your|authenticat\w*)\b")
_LOCATOR = re.compile(r"(?=[A-Z0-9]*[A-Z])[A-Z0-9]{5,8}")


def booking_reference(field: str, typed: str) -> bool:
    """The field (its words) asks for a booking's, an order's or a ticket's reference, and no one-time code to
    sign in: a record locator (`K7QX2M`) in a "Confirmation code" field, or anything in a "Booking code"."""
    if not field or _REFERENCE_FIELD.search(field) is None or _ONE_TIME.search(field) is not None:
        return False
    return _BOOKING_WORDS.search(field) is not None or _LOCATOR.fullmatch(typed.strip()) is not None


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


# the prefixes of integrity digests (npm lockfiles, Subresource Integrity): a hash of public content
_DIGEST_PREFIXES = ("sha1-", "sha256-", "sha384-", "sha512-")


def secret_in(ctx: Context) -> str | None:
    """What kind of secret the typed text holds, or None. A variable's name alone (`OPENAI_API_KEY`) is where
    a secret is kept, not the secret."""
    raw = ctx.derived(typed_text).raw
    if not raw or variable_name(raw):
        return None
    p = ctx.compiled.gui
    if p.secrets is not None and p.secrets.search(raw, text_keys(raw)):
        return "a credential or token"
    if len(raw) >= p.min_length:
        for token in _TOKEN.findall(raw):
            if token.startswith(_DIGEST_PREFIXES):
                continue  # a package's or a script's integrity digest ("sha512-..."): public, no key
            # a web address's segments are judged one by one: its host and path mix cases and digits as a whole
            # without any one part of it being a key (a base64 key's own slashes are no address's)
            parts = token.split("/") if token.startswith("//") else (token,)
            if any(_looks_random(part, p.min_length, p.min_entropy) for part in parts):
                return "a long random string (likely a key)"
    return None


# a mail client's window or page for writing a message: compose, reply, forward, a draft
_COMPOSE = re.compile(r"(?:^|[/.?#=&_:-])(?:compose|composer|new-?message|newmail|reply|replyall|forward|drafts?)"
                      r"(?:[/.?#=&_-]|$)", re.IGNORECASE)
_COMPOSE = Guarded(_COMPOSE)


def compose_window(url: str) -> bool:
    """The page is a mail client's compose, reply or draft window (webmail, or a mail app's own address)."""
    head = url[:512]
    return _COMPOSE.search(head) is not None and \
        (MAIL_PAGE.search(head) is not None or "outlook" in head.lower() or "thunderbird" in head.lower())


# a chat application's page or window, where the message being written is sent by a plain "Send" (or Enter)
_CHAT_PAGE = re.compile(r"^https?://(?:[\w-]+\.)*(?:slack\.com|teams\.microsoft\.com|teams\.live\.com|discord\.com/"
                        r"channels|web\.whatsapp\.com|(?:www\.)?messenger\.com|web\.telegram\.org|chat\.google\.com|"
                        r"mail\.google\.com/chat|app\.element\.io|zulipchat\.com|web\.skype\.com|"
                        r"(?:www\.)?linkedin\.com/messaging|(?:www\.)?facebook\.com/messages)(?:[/?#]|$)",
                        re.IGNORECASE)
_CHAT_APP = re.compile(r"\b(?:slack|microsoft teams|discord|whatsapp|signal|telegram|element|mattermost|zulip|skype|"
                       r"messenger|google chat|rocket\.chat|[\w-]+ chat)\b", re.IGNORECASE)


# a team chat's channel, named first in its window's title as every such client names it ("#general - Acme",
# "#ops | Team Chat")
_CHANNEL_TITLE = re.compile(r"^\s*#[a-z][\w.-]{0,79}\s+[-–—|:]\s", re.IGNORECASE)


def chat_window(url: str, title: str = "", app: str = "") -> bool:
    """The page or window is a chat application's, where the message being written is the one a "Send" sends."""
    if url:
        return _CHAT_PAGE.search(url[:512]) is not None
    return _CHAT_APP.search(app[:128] or title[:256]) is not None or _CHANNEL_TITLE.match(title[:256]) is not None


# an address of a mail client or a messages page: webmail, an inbox, a conversation
MAIL_PAGE = re.compile(r"(?:^|[/.?#=_-])(?:mail|email|e-mail|webmail|inbox|messages?|conversations?)(?:[/.?#=_&-]|$)",
                        re.IGNORECASE)
MAIL_PAGE = Guarded(MAIL_PAGE)


def into_a_field(ctx: Context) -> bool:
    """Typed into a field of an app or a page (or nowhere named): text that people will read, not a command
    line, an address bar or a Run box."""
    where = ctx.derived(destination)
    return where is Destination.FIELD or where is Destination.UNKNOWN


def message_field(ctx: Context) -> bool:
    """The field is a message, comment or post: somewhere a person's whereabouts do not belong. A shipping,
    billing or contact form is where an address and a phone are asked for."""
    field = ctx.derived(field_text).words
    if field and _ADDRESS_FORM.search(field):
        return False
    return bool(field and _MESSAGE_FIELD.search(field)) or ctx.derived(public_post)


_MESSAGE_FIELD = Guarded(re.compile(r"\b(?:message|messages|comment|comments|reply|post|title|body|tweet|status|chat|"
                            r"description|bio|about|review|caption|subject|text|write|compose|discussion|thread|"
                            # the same fields in German, French, Spanish, Portuguese, Italian and Dutch
                            r"nachricht|nachrichten|kommentar|kommentare|antwort|antworten|betreff|beitrag|"
                            r"commentaire|commentaires|répondre|réponse|objet|publication|"
                            r"mensaje|mensajes|comentario|comentarios|responder|respuesta|asunto|publicación|"
                            r"mensagem|mensagens|comentário|resposta|assunto|"
                            r"messaggio|messaggi|commento|commenti|rispondi|risposta|oggetto|"
                            r"bericht|berichten|reactie|antwoord|onderwerp)\b"))
_ADDRESS_FORM = Guarded(re.compile(r"\b(?:address|addresses|shipping|delivery|billing|contact|courier|pickup|pick up|"
                           r"recipient|location|"
                           r"adresse|lieferadresse|rechnungsadresse|lieferung|versand|empfänger|kontakt|"
                           r"livraison|facturation|destinataire|dirección|envío|entrega|facturación|destinatario|"
                           r"contacto|endereço|contato|indirizzo|spedizione|consegna|contatto|adres|bezorging|"
                           r"verzending)\b"))
# a field or page that publishes what is typed to everyone: a post's title or body, a status, a review
_PUBLIC_FIELD = re.compile(r"^(?:title|post|post title|post body|body text|tweet|status|caption|headline|review|"
                           r"your review|what s on your mind|what s happening|what is happening|write a post|"
                           r"create a post|share an update|start a post|post your reply|write a review|"
                           r"share your thoughts|what s new|whats happening|start a thread|write something)$",
                           re.MULTILINE)
_PUBLIC_PAGE = re.compile(r"/(?:submit|post|posts|compose/tweet|compose/post|status|statuses|reviews?|write-review|"
                          r"new-post|create-post|share)(?:/|$|\?|#)", re.IGNORECASE)


def public_post(ctx: Context) -> bool:
    field = ctx.derived(field_text).words
    return bool(field and _PUBLIC_FIELD.search(field)) or _PUBLIC_PAGE.search(ctx.derived(page_path)) is not None


# the cheap first look: a word for a password appears at all
PASSWORD_WORD = Guarded(re.compile(either_spelling(
    r"\b(?:pass(?:word|wd|code| code|phrase|wort)?|pwd?|pin|kennwort|mot de passe|"
                            r"contrase[ñn]a|senha|wachtwoord|has[łl]o|пароль|parola|şifre)\b|密码|密碼|パスワード|비밀번호"),
                            re.IGNORECASE))


ONE_EMAIL = re.compile(r"^\s*[\w.+-]{1,64}@([\w-]{1,63}(?:\.[\w-]{1,63}){1,5})\s*$")
ONE_PHONE = re.compile(r"^\s*\+?[\d(][\d ().-]{5,18}\d\s*$")


def ai_prompt_box(ctx: Context) -> bool:
    """The field is an AI chatbot's prompt box: by the site's host, the field's label or the window's title
    (`[context.ai-assistant]` of resources/cues.toml)."""
    pattern = ctx.compiled.cues.context.get("ai-assistant")
    if pattern is None:
        return False
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    parts = split_url(url) if url else None
    title = ctx.observation.window_title
    places = [text_of(parts.host).words if parts is not None else "", ctx.derived(field_text).words,
              text_of(title[:256]).words if title else ""]
    return any(place and pattern.search(place) for place in places)


def page_host(ctx: Context) -> str:
    url = getattr(ctx.action, "url", None) or ctx.observation.url
    parts = split_url(url) if url else None
    return parts.host if parts is not None and parts.host else ""


def page_path(ctx: Context) -> str:
    url = getattr(ctx.action, "url", None) or ctx.observation.url
    parts = split_url(url) if url else None
    return parts.path if parts is not None else ""


def field_place(ctx: Context) -> str:
    field = ctx.derived(field_text).raw
    return f"field {short(field, 40)!r}" if field else "a field"


# Words that phishing and scam sites put in their names; an honest registrable domain rarely has two.
SCAM_WORDS = frozenset({
    "verify", "verification", "secure", "security", "login", "signin", "logon", "account", "accounts", "update",
    "updates", "support", "helpdesk", "wallet", "free", "gift", "gifts", "prize", "bonus", "claim", "reward",
    "rewards", "robux", "vbucks", "generator", "recovery", "unlock", "unblock", "suspended", "alert", "alerts",
    "refund", "billing", "confirm", "validate", "authenticate", "webscr", "password", "flash", "player",
    "antivirus", "cleaner", "giveaway", "airdrop", "activation", "activate", "reactivate", "restore", "helpline",
    "techsupport", "checkout", "flashplayer",
})
_SITE_WORDS = re.compile(r"[a-z]+")


@functools.lru_cache(maxsize=1024)
def scam_named(host: str) -> str | None:
    """Why `host`'s own name reads like a scam site's (three scam words, or two joined by hyphens), or None."""
    site = site_label(host)
    hits = [w for w in _SITE_WORDS.findall(site) if w in SCAM_WORDS]
    if len(hits) >= 3 or (len(hits) >= 2 and "-" in site):
        return f"{host} is named like a scam site ({', '.join(hits)})"
    # the scam words in a subdomain label of someone else's site: "secure-login-verify.example-bank.co"
    for label in host.split(".")[:-2]:
        words = [w for w in _SITE_WORDS.findall(label) if w in SCAM_WORDS]
        if len(words) >= 3 or (len(words) >= 2 and "-" in label):
            return f"{host} is named like a scam site ({', '.join(words)} in {label!r})"
    return None


# a coding assistant's chat panel: the window's title names the chat, the app is an editor or an assistant's app
_CHAT_TITLE = re.compile(r"^(?:(?:github )?copilot chat|copilot|chat|agent|composer|cascade|claude code|cline|"
                         r"roo code|continue|assistant|ai chat|ai assistant|junie|codex)\b(?:\s*[-—|:]|$)")
_EDITOR_APP = re.compile(r"\b(?:visual studio code|vs ?code|vscodium|code - oss|zed|intellij(?: idea)?|pycharm|"
                         r"webstorm|goland|clion|rider|phpstorm|rubymine|android studio|visual studio)\b|"
                         r"^code(?:\.exe)?$")
# an app that is itself a coding agent or a chat with an assistant: its "Send" goes to the assistant
_ASSISTANT_APP = re.compile(r"^(?:claude|chatgpt|codex|cursor|windsurf|kiro|trae|void|github copilot|copilot)"
                            r"(?:\.exe|\.app)?$")
_SEND = re.compile(r"^(?:send|send message|send prompt|submit|ask|↑|➤|⏎|senden|envoyer|enviar|invia|verzenden|"
                   r"送信|发送|傳送)(?:\s*\((?:enter|⏎|ctrl\s*\+?\s*enter|cmd\s*\+?\s*enter)\))?$")


def assistant_chat(ctx: Context) -> bool:
    """The click sends a prompt in a coding assistant's own chat (VS Code's Copilot Chat, a JetBrains AI panel,
    Cursor, Windsurf, the Claude or ChatGPT desktop app): the person's assistant gets the message, no one else. Not
    on a page (a web chat's "Send" reaches people), nor in an editor's window that is no chat."""
    label = ctx.derived(label_text)
    if not label.raw or not _SEND.match(label.raw.strip().split("\n", 1)[0].strip().lower()):
        return False
    obs = ctx.observation
    if obs.url or getattr(ctx.action, "url", None):
        return False
    app = fold(obs.app[:128]).lower().strip()
    if _ASSISTANT_APP.match(app):
        return True
    title = fold(obs.window_title[:256]).lower().strip()
    return bool(_EDITOR_APP.search(app) and _CHAT_TITLE.match(title))
