"""Rules: a link to a file of this machine typed into a note, a message, an issue or a post.

    block.typed.secret-file-link    a `file:` URL, a UNC path (`\\\\server\\share\\...`) or a Markdown or HTML link or
                                    embed whose target is a file the file rules block reading (an SSH key, a cloud's
                                    credentials, a browser's saved logins)
    confirm.typed.secret-file-link  the same for a file the file rules ask about (an `.env`, a file named for the
                                    passwords it keeps)
    confirm.typed.short-link-in-message  a link on a URL shortener (bit.ly, tinyurl) written into a mail, a message
                                    or a post to people: its readers cannot see where it leads
    block.typed.dressed-link-in-message  a link whose host dresses as a file (`screenshots-png.example`) or holds
                                    an underscore, offered to readers as screenshots, logs or a document

A note app or a mail client that renders the text shows, embeds or syncs what the link points at (Joplin and
Obsidian render `file:` images, a mail client fetches a UNC path and hands the share the person's sign-in), and
whoever reads the issue or the message learns where the keys are kept. The path is judged as the file rules judge
reading it, so a link to a picture or a document of the person's own passes.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from gate.dataout import destination
from gate.destinations import registrable
from gate.fields import field_place, into_a_field, short
from gate.model import FileRead, Hit, Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.typed import judge_as
from gate.rules.typed_lures import to_a_person
from gate.typed import code_editor
from gate.urls import split_url

__all__ = ["RULES", "linked_files"]

TYPE = ("type",)
_LIMIT = 16384
_MOST = 8  # links judged in one text
# a `file:` URL (`file:///home/me/x`, `file://server/share/x`, `file:/C:/x`) up to where a link's markup ends
_FILE_URL = re.compile(r"\bfile:(/{0,3})([^\s()<>\[\]\"'`]+)", re.IGNORECASE)
# a UNC path: `\\server\share\folder\file`
_UNC = re.compile(r"(?<![\w\\])\\\\([\w.$-]{1,253})\\([^\s<>\"'`|*?)\]]+)")
# a Markdown link's or image's target, or an HTML `src`/`href`, that is a path of this machine: the home folder, a
# user's folder, a drive, the system's configuration
_MARKUP_PATH = re.compile(r"\]\(\s*<?((?:~|/home/|/Users/|/root/|/etc/|/var/|[A-Za-z]:[\\/])[^\s)>]*)|"
                          r"\b(?:src|href|data|poster)\s*=\s*[\"']((?:~|/home/|/Users/|/root/|/etc/|/var/|"
                          r"[A-Za-z]:[\\/])[^\"']*)", re.IGNORECASE)


def _file_url_path(slashes: str, rest: str) -> str:
    path = unquote(rest)
    if slashes == "//":  # file://host/share/x: a share, unless the host is this machine
        host, _, tail = path.partition("/")
        return f"/{tail}" if host.lower() in ("", "localhost") else f"//{host}/{tail}"
    if re.match(r"^/?[A-Za-z]:[\\/]", path):  # file:///C:/Users/... is C:/Users/...
        return path.lstrip("/").replace("\\", "/")
    return "/" + path.lstrip("/")


def linked_files(text: str) -> tuple[str, ...]:
    """The paths of this machine's (or a share's) files that `text` links to: `file:` URLs, UNC paths and
    Markdown or HTML link targets, each as the file rules take a path."""
    if len(text) > _LIMIT:
        text = text[:_LIMIT]
    low = text.lower()
    found: list[str] = []
    if "file:" in low:
        found.extend(_file_url_path(m.group(1), m.group(2)) for m in _FILE_URL.finditer(text))
    if "\\\\" in text:
        found.extend(f"//{m.group(1)}/{m.group(2).replace(chr(92), '/')}" for m in _UNC.finditer(text))
    if "](" in text or "=" in text:
        for m in _MARKUP_PATH.finditer(text):
            found.append((m.group(1) or m.group(2)).replace("\\", "/"))
    return tuple(dict.fromkeys(p.rstrip(".,;:!?") for p in found if p.strip("/")))[:_MOST]


def _linked(ctx: Context) -> tuple[str, Hit | None, Hit | None] | None:
    """The first linked file the file rules judge, with their strongest block and confirm hits. Once per context."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 8 or not into_a_field(ctx) or ctx.derived(code_editor):
        return None
    paths = linked_files(text)
    if not paths:
        return None
    asked: tuple[str, Hit | None, Hit | None] | None = None
    for path in paths:
        block, confirm = judge_as(FileRead(path=path), ctx)
        if block is not None:
            return path, block, confirm
        if confirm is not None and asked is None:
            asked = (path, None, confirm)
    return asked


@rule("block.typed.secret-file-link", "A link to a credential file of this machine typed into a note or a message",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.8)
def secret_file_link(ctx: Context) -> CheckResult:
    """The text links to a file the file rules block reading, by a `file:` URL, a UNC path or a Markdown or HTML
    link or image (`![x](file:///home/me/.ssh/id_rsa)`, `<img src="~/.aws/credentials">`): a note app that
    renders it shows or syncs the key, and whoever reads the message or the issue is pointed at it. A link to
    the person's own picture or document passes."""
    got = ctx.derived(_linked)
    if got is None or got[1] is None:
        return None
    path, block, _ = got
    return f"a link to {short(path, 60)!r} typed into {ctx.derived(field_place)}: {block.reason}", block.risk


@rule("confirm.typed.secret-file-link", "A link to a sensitive file of this machine typed into a note or a message",
      risk=Risk.HIGH, types=TYPE, confidence=0.75)
def sensitive_file_link(ctx: Context) -> CheckResult:
    """The text links to a file the file rules ask about reading (an `.env`, a file named for the passwords it
    keeps, a share's), by a `file:` URL, a UNC path or a Markdown or HTML link: rendered or synced, what it
    holds goes with the note. The person decides."""
    got = ctx.derived(_linked)
    if got is None or got[1] is not None or got[2] is None:
        return None
    path, _, confirm = got
    return f"a link to {short(path, 60)!r} typed into {ctx.derived(field_place)}: {confirm.reason}"


# a web link written in a text, up to where prose or markup ends it
_WEB_LINK = re.compile(r"\b(?:https?://|www\.)[^\s<>()\[\]\"'`]{3,2048}", re.IGNORECASE)
_SHORTENER = "a URL shortener"  # what gate.dataout.destination calls one


@rule("confirm.typed.short-link-in-message", "A shortened link written into a mail or a message to people",
      risk=Risk.HIGH, types=TYPE, confidence=0.7)
def short_link_in_message(ctx: Context) -> CheckResult:
    """A mail, a message, a reply or a post to people that holds a link on a URL shortener (bit.ly, tinyurl,
    is.gd: the cue book's `shortener` destinations). Its readers cannot see where the link leads, and a shortened
    link is how a phishing page, a tracker (grabify, iplogger) or a download is sent past their eye and their mail
    filter; an agent writes one because a page or a mail gave it. A link written out in full, and a short link
    typed into a search box or the address bar, pass."""
    text = getattr(ctx.action, "text", "") or ""
    if not 8 <= len(text) <= _LIMIT or ("://" not in text and "www." not in text.lower()):
        return None
    if not ctx.derived(to_a_person):
        return None
    for m in _WEB_LINK.finditer(text):
        link = m.group(0).rstrip(".,;:!?")
        parts = split_url(link if "://" in link else f"https://{link}")
        if parts is None or not parts.host:
            continue
        if destination(parts.host, parts.path or "/", ctx.compiled.cues, ctx.compiled.collector_hosts) == _SHORTENER:
            return f"a shortened link written into {ctx.derived(field_place)}: {short(link, 60)!r} hides where it " \
                   f"leads from whoever reads it"
    return None


# the words of a host's name that dress it as a file ("screenshots-png.example", "invoice_pdf.example"): a page, not
# a picture or a document, waits behind it
_FILE_WORDS = frozenset({"png", "jpg", "jpeg", "gif", "bmp", "webp", "heic", "pdf", "doc", "docx", "xls", "xlsx",
                         "ppt", "pptx", "zip", "rar", "7z", "exe", "msi", "apk", "dmg", "iso", "mp4", "mov", "avi",
                         "mp3", "wav", "txt", "csv", "log", "html", "htm", "eml"})
# the reader invited to look at, open or fetch what the link holds
_INVITED = re.compile(r"\b(?:take a look|have a look|look at|see (?:the|my|attached|here|below)|view|open|click|"
                      r"download|check (?:out|it|them|this|here)|here|below|attached|screenshots?|recording|logs?|"
                      r"the (?:file|document|invoice|report|photos?|video))\b", re.IGNORECASE)


def _dressed_host(host: str) -> str | None:
    """Why a linked host is no site it seems: an underscore no registrar allows in a domain's name, or a file's
    extension as a word of its registrable name. None otherwise."""
    name = registrable(host).split(".", 1)[0]
    words = re.split(r"[-_]", name)
    ext = next((w for w in words if w in _FILE_WORDS), None)
    if ext is not None and len(words) > 1:
        return f"its name is dressed as a {ext} file"
    if "_" in name:
        return "its name holds an underscore, which no registered domain does"
    return None


@rule("block.typed.dressed-link-in-message", "A link to a host dressed as a file, written into a message, an issue "
      "or a post", risk=Risk.CRITICAL, types=TYPE, confidence=0.75)
def dressed_link_in_message(ctx: Context) -> CheckResult:
    """A message, an issue, a comment or a post that invites its readers to look at screenshots, logs or a file at a
    link whose host only dresses as one: a file's extension made a word of the domain's name
    (`screenshots-png.example`) or an underscore no registered domain holds. What waits there is a page, and a
    lure to a page dressed as evidence is how a phishing or malware link is slipped to maintainers and
    colleagues. A screenshot on a known host (`github.com`'s attachments, `i.imgur.com/x.png`) passes: the
    extension is the path's, not the host's."""
    text = getattr(ctx.action, "text", "") or ""
    if not 12 <= len(text) <= _LIMIT or ("://" not in text and "www." not in text.lower()):
        return None
    if not ctx.derived(to_a_person) or _INVITED.search(text) is None:
        return None
    for m in _WEB_LINK.finditer(text):
        link = m.group(0).rstrip(".,;:!?")
        parts = split_url(link if "://" in link else f"https://{link}")
        if parts is None or not parts.host or "." not in parts.host:
            continue
        why = _dressed_host(parts.host.lower().rstrip("."))
        if why is not None:
            return f"a link to {parts.host!r} written into {ctx.derived(field_place)}: {why}"
    return None


RULES: tuple[Rule, ...] = (secret_file_link, sensitive_file_link, short_link_in_message, dressed_link_in_message)
