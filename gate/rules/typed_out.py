"""Typed text that leaves the organisation by where it is typed: a document marked confidential or internal,
typed into a public post or an AI chatbot's prompt box.

    confirm.gui.confidential-out   the marker (`[context.confidential-marker]` of resources/cues.toml) in text
                                   typed into a public post (gate/rules/gui.py) or a chatbot's prompt box
                                   (`[context.ai-assistant]`)
"""

from __future__ import annotations

from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import _field_text, _into_a_field, _public_post, _text, _typed, _where
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


RULES: tuple[Rule, ...] = (confidential_out,)
