"""Rules: what typed text tells other people about a third person.

A private fact about someone (health, sexual orientation or gender identity, a criminal record, immigration
status, debts or pay, a disciplinary action, religion; `gate.privacy.disclosure`), a list of several people's
(`gate.privacy.roster`), or a crime laid at a named person's door (`gate.privacy.accusation`), typed where
other people read it. Where it goes decides:

- a public post, a title, a status or a review (`gate.rules.gui._public_post`): everyone reads it. A private
  fact blocks; an accusation asks (a person may stand by what they write, and a reviewer's "the contractor
  stole our deposit" can be true; the gate cannot tell).
- a message, a comment, a chat, a mail or a shared note: one reader or a few. A private fact asks, a list of
  several people's blocks.

Religion counts only with a marker of confidence or secrecy ("between us", "secretly"), in a post as in a
message: saying a friend is Jewish to plan a dinner is ordinary.
- a clinician's chart or a case file (the field, the page or the window says patient chart, EHR, clinical
  notes, case notes, personnel file): that is where such facts are written, by the people who keep them.
  Nothing asks there, unless it is also a public post.

The person writing about themself ("I just started chemo", "my test came back positive"), general text
about illness or the law ("cancer affects millions"), and news-like reports ("police said ...") are not
read as disclosures. The typed text is redacted from the log by every rule here.
"""

from __future__ import annotations

import re
from importlib import resources

from gate import regex_store
from gate.fields import chat_window, label_text, text_of
from gate.model import Risk
from gate.prefix import Guarded
from gate.privacy import Disclosure, accusation, disclosure, record_place, records_file, roster, shared_place
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import (
    _FILE_CHOOSER,
    _PUBLIC_REPLY,
    _credential_field,
    _field_text,
    _into_a_field,
    _message_field,
    _page_path,
    _public_post,
    _short,
    _where,
)

__all__ = ["RULES"]

_MIN = 16  # shorter text says nothing about anyone
_MAX = 8192


def _text(ctx: Context) -> str:
    text = getattr(ctx.action, "text", "") or ""
    return text if _MIN <= len(text) <= _MAX else ""


def _at_record(ctx: Context) -> bool:
    """The field, the page or the window is a clinician's chart or a case file."""
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    return any(record_place(s) for s in (ctx.derived(_field_text).words, url, obs.window_title, obs.app))


def _to_people(ctx: Context) -> bool:
    """A message, a comment, a chat, a mail or a shared note: other people read what is typed."""
    if _message_field(ctx) or shared_place(ctx.derived(_field_text).words, field=True):
        return True
    path = ctx.derived(_page_path)
    obs = ctx.observation
    return shared_place(path.replace("/", " ").replace("-", " ")) or shared_place(obs.window_title) or \
        chat_window(getattr(ctx.action, "url", None) or obs.url or "", obs.window_title, obs.app)  # a chat's box


def _told(ctx: Context) -> Disclosure | None:
    """The private fact the typed text tells about someone, when it goes into a field people read."""
    text = _text(ctx)
    if not text or ctx.derived(_credential_field) or not _into_a_field(ctx):
        return None
    return disclosure(text)


def _listed(ctx: Context) -> str | None:
    text = _text(ctx)
    if not text or ctx.derived(_credential_field) or not _into_a_field(ctx):
        return None
    return roster(text)  # one a line, or names each with an amount on one line under a pay heading


@rule("block.gui.private-facts", "Typing a person's private facts into a public post, or several people's into a "
      "message", risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.7)
def private_facts_block(ctx: Context) -> str | None:
    """A private fact about an identified person (`gate.privacy.disclosure`: "my coworker Dana has breast
    cancer", "the tenant in 4B is behind on rent", "Sarah is gay", "mein Kollege ist vorbestraft") typed into
    a public post, a title, a status or a review: everyone who reads it learns what was that person's to
    tell. Or several people's private facts, one a line (`gate.privacy.roster`: a list of patients with their
    diagnoses, of employees with their salaries under a pay heading) typed into a message, a comment or a
    post. Religion counts only with a marker of confidence or secrecy ("between us", "secretly"). A person
    writing about themself, general text and news-like reports do not block; one person's fact in a message
    to someone asks (`confirm.gui.private-facts`). The text is redacted from the log."""
    told = ctx.derived(_told) if ctx.derived(_public_post) else None
    if told is not None and (told.category != "religion" or told.confided):
        return (f"{told.said} about a person ({_short(told.quote, 40)!r}) typed into a public post "
                f"({_where(ctx)})")
    listed = ctx.derived(_listed)
    if listed is not None and (ctx.derived(_public_post) or _to_people(ctx)) and not _at_record(ctx):
        return f"{listed} typed into {_where(ctx)}"
    return None


@rule("confirm.gui.private-facts", "Typing a person's private facts into a message", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.65)
def private_facts_confirm(ctx: Context) -> str | tuple[str, Risk] | None:
    """A private fact about an identified person (`gate.privacy.disclosure`: health, sexual orientation or
    gender identity, a criminal record, immigration status, debts or pay, a disciplinary action) typed into a
    message, a comment, a chat, a mail or a shared note: it reaches people it was never told to, and "told me
    in confidence" makes it plain (then the risk is critical). Religion asks only with such a marker or one of
    secrecy ("secretly"). A clinician's note in a patient chart or a case file does not ask (that is where it
    is kept), and neither does a person writing about themself ("I just started chemo"), general text or a
    news-like report. In a public post it blocks (`block.gui.private-facts`). The text is redacted from the
    log."""
    if ctx.derived(_public_post) or not _to_people(ctx):
        return None
    told = ctx.derived(_told)
    if told is None or (told.category == "religion" and not told.confided) or _at_record(ctx):
        return None
    told_how = ", told in confidence," if told.confided else ""
    reason = f"{told.said} about a person{told_how} ({_short(told.quote, 40)!r}) typed into {_where(ctx)}"
    # told in confidence: the writer knows it is not theirs to pass on
    return (reason, Risk.CRITICAL) if told.confided else reason


@rule("confirm.gui.accusation", "Posting a crime or abuse laid at a named person's door", risk=Risk.HIGH,
      types=("type",), redact=("text",), confidence=0.6)
def accusation_post(ctx: Context) -> str | None:
    """The text the agent posts where the public reads it (a post, a review, a comment or reply) accuses a
    named person or a professional of a crime or abuse (`gate.privacy.accusation`: "Dr. Lee is under
    investigation for fraud", "this dentist is a thief", "ce notaire est un escroc", "abuses his patients"):
    if it is not true it harms them, and the gate cannot tell. A person looks before it is posted. A review
    of the work ("the repair took three weeks"), a news-like report ("police said ...") and a private message
    do not ask. The text is redacted from the log."""
    text = _text(ctx)
    if not text or ctx.derived(_credential_field):
        return None
    field = ctx.derived(_field_text).words
    if not (ctx.derived(_public_post) or (field and _PUBLIC_REPLY.search(field))):
        return None
    said = accusation(text)
    if said is None or not _into_a_field(ctx):
        return None
    return f"an accusation against a person ({_short(said, 40)!r}) posted in {_where(ctx)}"


@rule("confirm.gui.records-attached", "Attaching a file of people's private records", risk=Risk.HIGH,
      types=("type",), confidence=0.6)
def records_attached(ctx: Context) -> str | None:
    """The path typed into an upload or attach dialog names a file of people's private records
    (`gate.privacy.records_file`: "employee_salaries_2025.xlsx", "patient-list.csv", "background_checks.pdf",
    "Gehaltsliste.xlsx"): every row goes with the message, the post or the form it is attached to. A person
    decides; payroll sent to the accountant is ordinary, and the gate cannot tell. Other files
    ("Q3_report.pdf", "team_photo.jpg") and a chart or case-file page (where such files are kept) do not
    ask."""
    text = (getattr(ctx.action, "text", "") or "").strip()
    if not text or len(text) > 1024 or "\n" in text:
        return None
    field = ctx.derived(_field_text).words
    window = ctx.observation.window_title.lower()
    if not (field and _FILE_CHOOSER.search(field)) and not (window and _FILE_CHOOSER.search(window)):
        return None
    name = records_file(text)
    if name is None or _at_record(ctx):
        return None
    return f"attaching {_short(name, 50)!r}, a file of people's private records"



# ---- a click that hands a service the person's address book, photos or whereabouts ----

def _share_vocab() -> tuple[Guarded, frozenset[str]]:
    data = regex_store.toml(resources.files("resources").joinpath("privacy.toml").read_text("utf-8"))["share_access"]
    access = re.compile("|".join(f"(?:{p})" for p in data["access"]), re.IGNORECASE)
    # (searched on every click: a label without one of the words every phrase holds is not searched)
    return Guarded(access), frozenset(data["grant"])


_SHARE_ACCESS, _GRANT = _share_vocab()
# a button that reads or manages the person's own list ("Contacts", "Add contact", "Sync settings") is no share
_SHARE_LIMIT = 160
_DIALOG_TEXT = 2000  # characters of the page's text read for what a bare "Allow" answers


@rule("confirm.gui.share-personal-access", "Handing a service the address book, the photos or the location",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def share_personal_access(ctx: Context) -> str | None:
    """A click that uploads or syncs the person's contacts to a service ("Upload contacts", "Find friends from
    your address book", "Kontakte synchronisieren", "上传通讯录"), or allows it access to the contacts, the
    photos or the location ("Allow access to contacts", "Autoriser l'accès à vos photos", "位置情報へのアクセス
    を許可"); and the bare "Allow" or "OK" of a permission dialog whose title asks for one of them. Every
    contact's name and number leaves with it, and the service may write to them. The person decides. A
    "Contacts" tab, "Add contact" and a dialog that asks for nothing of the kind pass."""
    label = ctx.derived(label_text).norm
    if not label or len(label) > _SHARE_LIMIT:
        return None
    m = _SHARE_ACCESS.search(label)
    if m is not None:
        return f"the button hands over the person's {_what(m.group(0))}: {_short(label, 60)!r}"
    if label.strip(" .!") not in _GRANT:
        return None
    obs = ctx.observation
    for said in (obs.window_title[:400], obs.page_text[:_DIALOG_TEXT]):
        m = _SHARE_ACCESS.search(text_of(said).norm) if said else None
        if m is not None:
            return f"{label!r} in a dialog that asks for the person's {_what(m.group(0))}: {_short(m.group(0), 60)!r}"
    return None


_WHAT = (("photo", "photos"), ("foto", "photos"), ("写真", "photos"), ("照片", "photos"), ("相册", "photos"),
         ("pellicule", "photos"), ("galer", "photos"), ("bilder", "photos"),
         ("locat", "location"), ("locali", "location"), ("posi", "location"), ("ubica", "location"),
         ("standort", "location"), ("位置", "location"), ("calendar", "calendar"))


def _what(found: str) -> str:
    low = found.lower()
    return next((what for key, what in _WHAT if key in low), "contacts")


RULES: tuple[Rule, ...] = (private_facts_block, private_facts_confirm, accusation_post, records_attached,
                           share_personal_access)
