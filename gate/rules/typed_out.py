"""Typed text that leaves by where it is typed: a document marked confidential or internal, typed into a
public post or an AI chatbot's prompt box; a live secret typed anywhere but a credential field.

    confirm.gui.confidential-out   the marker (`[context.confidential-marker]` of resources/cues.toml) in text
                                   typed into a public post (gate/rules/gui.py) or a chatbot's prompt box
                                   (`[context.ai-assistant]`)
    block.typed.secret-out         a secret `gate.sensitive.find_secret` knows (resources/secrets.toml, a session
                                   cookie, a seed phrase, recovery codes) typed into a message, a comment, a
                                   search box, the address bar, a form or somewhere unknown
    confirm.typed.secret-into-file the same secret typed into a code or text editor: it lands in a file
    block.typed.personal-record    one named person's health or financial record (gate.privacy.personal_record)
                                   typed into a public post; confirm.typed.personal-record: into a message, a
                                   comment, a form or somewhere unknown
"""

from __future__ import annotations

from gate.model import Risk
from gate.privacy import personal_record, record_place
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import (
    _credential_field,
    _field_text,
    _into_a_field,
    _public_post,
    _secret_in,
    _text,
    _typed,
    _where,
)
from gate.sensitive import find_secret
from gate.typed import Destination, as_url, code_editor, destination
from gate.urls import action_url, split_url

_MIN_TEXT = 12
_MAX_TEXT = 16384
_TITLE_LIMIT = 256
_QUESTION_LIMIT = 240  # a short question about a marker ("what does 'internal use only' mean?") carries no document


def _ai_prompt_box(ctx: Context) -> bool:
    """The field is an AI chatbot's prompt box: by the site's host, the field's label or the window's title."""
    pattern = ctx.compiled.cues.context.get("ai-assistant")
    if pattern is None:
        return False
    url = action_url(ctx) or ctx.observation.url or ""
    parts = split_url(url) if url else None
    places = [_text(parts.host).words if parts is not None else "", ctx.derived(_field_text).words,
              _text(ctx.observation.window_title[:_TITLE_LIMIT]).words if ctx.observation.window_title else ""]
    return any(place and pattern.search(place) for place in places)


@rule("confirm.gui.confidential-out", "Typing text marked confidential or internal into a public post or a chatbot",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.7)
def confidential_out(ctx: Context) -> str | None:
    """The typed text carries a marker that it is not to leave the organisation ("CONFIDENTIAL", "internal
    use only", "do not distribute", "under NDA", "embargoed until", "streng vertraulich", "usage interne
    uniquement", "solo para uso interno", "não distribuir": `[context.confidential-marker]`) and goes into a
    public post, a review or a title, or into an AI chatbot's prompt box (`[context.ai-assistant]`: by the
    chatbot's host, a label such as "Message ChatGPT" or "Ask anything"). Either way it leaves: everyone reads
    the post, the chatbot's provider keeps the prompt. The same text in a mail or a chat message to a
    colleague, "we keep your data confidential" in a post, and a short question to a chatbot about what a marker
    means, pass.
    The text is redacted from the log."""
    text = getattr(ctx.action, "text", "") or ""
    if not _MIN_TEXT <= len(text) <= _MAX_TEXT:
        return None
    if len(text) < _QUESTION_LIMIT and text.rstrip().endswith("?"):
        return None
    marker = ctx.compiled.cues.context.get("confidential-marker")
    if marker is None:
        return None
    found = marker.search(ctx.derived(_typed).words)
    if found is None:
        return None
    if ctx.derived(_public_post):
        where = "a public post"
    elif _ai_prompt_box(ctx):
        where = "an AI chatbot's prompt"
    else:
        return None
    if not _into_a_field(ctx):
        return None
    return f"text marked {found.group(0).strip()!r} typed into {where} ({_where(ctx)})"


def _secret(ctx: Context) -> str | None:
    """The kind of secret the typed text holds that no other rule has named, where it would leave; else None.
    A credential field is where a secret belongs (`confirm.gui.credential-field`); a terminal or a Run dialog
    runs the text, and the shell rules judge it; a secret the policy's `[gui] secret_patterns` already find is
    `block.gui.secret-exposure`."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 12 or ctx.derived(_credential_field):
        return None
    where = ctx.derived(destination)
    if where.runs_commands:
        return None
    if where is Destination.ADDRESS_BAR and as_url(text) is not None:
        return None  # a URL opened: the navigation rules judge a secret in it (typed as a search, it leaves here)
    kind = find_secret(text)
    if kind is None or ctx.derived(_secret_in) is not None:
        return None
    return kind


@rule("block.typed.secret-out", "A live secret typed where it leaves: a message, a post, a search, a form",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.85)
def secret_out(ctx: Context) -> str | None:
    """The typed text holds a live secret (a token in one of the issuers' formats of resources/secrets.toml,
    an Azure storage key, a database connection string with its password, the base64 body of a private key,
    a session cookie, a wallet's seed phrase, two-factor recovery codes) and goes into a message, a comment,
    an issue, a post, a search box, the address bar, a form or a place deskgate cannot tell: whoever reads it
    there can sign in as the person. Into a password or token field it is `confirm.gui.credential-field`;
    into a code editor it asks (`confirm.typed.secret-into-file`). Text about secrets ("rotate the Stripe
    key", "what is a seed phrase") and placeholders ("api key: YOUR_KEY_HERE") pass. The text is redacted."""
    if code_editor(ctx):
        return None
    kind = ctx.derived(_secret)
    if kind is None:
        return None
    return f"credential exposure: typing {kind} into {_where(ctx) if ctx.derived(_field_text).raw else 'a field'}"


@rule("confirm.typed.secret-into-file", "A live secret typed into a code or text editor", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.8)
def secret_into_file(ctx: Context) -> str | None:
    """A secret `block.typed.secret-out` knows, typed into a code or text editor: it lands in a file, which
    may be committed or shared. A `.env` file kept out of the repository is a fair place, so a person
    decides."""
    if not code_editor(ctx) or ctx.derived(destination) not in (Destination.FIELD, Destination.UNKNOWN):
        return None
    kind = ctx.derived(_secret)
    if kind is None:
        return None
    return f"typing {kind} into a code editor: it lands in a file"


def _record(ctx: Context) -> str | None:
    """The record the typed text holds, where it leaves: a field people read or a place deskgate cannot tell;
    not a credential field, and not a chart or a case file (where records are kept)."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 24 or not _into_a_field(ctx) or ctx.derived(_credential_field):
        return None
    found = personal_record(text)
    if found is None:
        return None
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    if any(record_place(s) for s in (ctx.derived(_field_text).words, url, obs.window_title, obs.app)):
        return None
    return found


@rule("block.typed.personal-record", "One person's health or financial record typed into a public post",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.75)
def personal_record_public(ctx: Context) -> str | None:
    """The typed text is one named person's record: who it is (a name, "Patient: ..."), what fixes it to them
    (a date of birth, an account, record or member number) and a health or money entry (a diagnosis, lab
    results, medication; a balance, arrears, a debt): `gate.privacy.personal_record`. Into a post, a title, a
    status or a review, everyone reads it. "Lab results are ready" and an order's shipping address are no
    record. The text is redacted."""
    if not ctx.derived(_public_post):
        return None
    found = ctx.derived(_record)
    return f"{found} of a named person typed into a public post ({_where(ctx)})" if found else None


@rule("confirm.typed.personal-record", "One person's health or financial record typed into a message or a form",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.7)
def personal_record_out(ctx: Context) -> str | None:
    """The same record (`block.typed.personal-record`) typed into a message, a comment, an issue, a form or a
    place deskgate cannot tell: it reaches whoever reads there. A clinician's chart or a case file is where it
    belongs, and does not ask."""
    if ctx.derived(_public_post):
        return None
    found = ctx.derived(_record)
    return f"{found} of a named person typed into {_where(ctx)}" if found else None


RULES: tuple[Rule, ...] = (confidential_out, secret_out, secret_into_file, personal_record_public, personal_record_out)
