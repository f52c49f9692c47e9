"""Rules: what opening a URL does (navigate).

gate/rules/web.py judges where a navigation goes: its scheme, its host (look-alikes, raw IPs, hiding places)
and the secrets written plainly in it. This module reads what opening the URL does, in two ways:

- **Data it carries out.** Query and fragment values are decoded once more where they are still
  percent-encoded, from base64 or hex where they look encoded, and from JSON where a parameter holds an
  object or a list; what they hold is judged by the data-out classifiers (gate/dataout.py: secrets,
  credential lists, credential files, personal records) and by the people counted in it (a line, a JSON
  object, a phone number or a street address is one person). Where it goes matters: this machine and the
  site the person is on (an analytics beacon of the page's own site) are not "out"; any other host is.
  Search terms (`?q=`), sign-in redirects (`?next=`, OAuth's `redirect_uri`, `state`, `login_hint`) and
  tracking tags are never read as data.
- **The operation it names.** Path segments, fragment, query keys and short values are read as words
  ("api locks front door unlock"), and matched against `[url-consequence.*]` of resources/cues.toml
  (gate/cues.py): moving money, controlling a lock or an alarm, deleting infrastructure or an account,
  exporting personal data, granting a role, changing how an account signs in. Documentation pages, articles
  (a segment that reads as a title: five words or more, or "how to ..."), and the owner/repository names of
  code hosts are not read: a page about deleting a cluster deletes nothing.

Each URL is read once and remembered (agents revisit pages); a URL with neither a path nor a query costs a
parse and nothing else, and a query value is classified as data only when it can hold some (`_MAYBE_DATA`).
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from typing import NamedTuple
from urllib.parse import parse_qsl, unquote

from gate.cues import CueBook
from gate.dataout import _EMAIL as EMAIL
from gate.dataout import _PHONE as PHONE
from gate.dataout import _STREET as STREET
from gate.dataout import COLLECTING_HOST, Payload, carried, collector_named, destination, local_ip
from gate.dataout import _decoded as decoded_text
from gate.dataout import _named_login as named_login
from gate.destinations import _BOOK as _DESTINATIONS
from gate.destinations import Verdict, abused_tld, agent_check_host, judge, malware_sample, own_site
from gate.fields import label_text
from gate.hostile_hosts import brand_service, hostile_host, mining, product_front, short_link, typo_squat, url_shape
from gate.model import Risk
from gate.normalise import fold
from gate.phish_hosts import Finding, kit_host, provider_sign_in, title_claim
from gate.prefix import Guarded, text_keys
from gate.rules.base import CheckResult, Context, rule
from gate.rules.gui import REMOTE_PROGRAM, key_shown_dismissed, scare_window, support_call
from gate.rules.web import SECRET_FIELD as _SECRET_FIELD
from gate.sensitive import find_sensitive, password_shaped
from gate.urls import UrlParts, action_url, ip_of, is_loopback, registrable, site_label, split_url

__all__ = ["MONEY", "RULES", "UrlReading", "reading", "url_words"]

NAV = ("navigate",)
_WEB = frozenset({"http", "https", ""})
_MAX_VALUE = 16384  # a value longer than this is read only up to here
_MAX_WORD_VALUE = 64  # query values longer than this are data, not the name of an operation

# -- reading a URL as words -----------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_WORD = re.compile(r"[\W_]+")


# ASCII punctuation (and `_`) → space: a bytes table, one lookup per byte (str.translate with a mapping looks each
# character up in a dict)
_ASCII_NON_WORD = bytes(c if c >= 128 or chr(c).isalnum() else 32 for c in range(256))


def url_words(text: str) -> str:
    """`text` (a path segment, a key, a value) as lower-case words: camelCase humps and punctuation split."""
    if text != text.lower():
        text = _CAMEL.sub(" ", text)
    if text.isascii():
        return " ".join(text.lower().encode().translate(_ASCII_NON_WORD).decode().split())
    return _NON_WORD.sub(" ", fold(text)).strip()


# a page about something rather than a page that does it: documentation, help, articles, questions
_DOC_HOST_LABELS = frozenset({"docs", "doc", "developer", "developers", "learn", "wiki", "blog", "kb", "knowledge",
                              "man", "manual", "documentation"})
_DOC_SEGMENTS = frozenset({"docs", "doc", "documentation", "help", "kb", "faq", "faqs", "article", "articles", "blog",
                           "blogs", "wiki", "guide", "guides", "tutorial", "tutorials", "learn", "manual", "manuals",
                           "answers", "questions", "community", "forum", "forums", "news", "reference", "howto",
                           "how-to", "knowledge-base", "knowledgebase", "discussions", "t", "threads"})
_DOC_EXTENSIONS = frozenset({"html", "htm", "md", "txt", "pdf", "rst", "shtml", "xhtml", "mdx", "adoc"})
# words that make a hyphenated segment a title ("how-to-delete-your-account"), not an operation
_TITLE_WORDS = frozenset({"how", "why", "what", "when", "guide", "tutorial", "tips", "best", "ways", "vs", "can",
                          "should", "does", "do", "is", "are", "will", "i"})
_SLUG_SPLIT = re.compile(r"[-_+ .]+")
# code hosts: the first two segments name an owner and a repository (`/acme/delete-old-branches`); these
# first segments are the host's own pages instead
_CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gitea.com", "sr.ht",
                         "git.sr.ht", "huggingface.co"})
_CODE_HOST_PAGES = frozenset({"settings", "organizations", "orgs", "account", "admin", "-", "profile", "user",
                              "users", "dashboard", "notifications", "new", "login", "sessions", "marketplace",
                              "apps", "sponsors", "security", "enterprises"})


def _doc_page(parts: UrlParts, segments: list[str]) -> bool:
    labels = parts.host.split(".")
    if labels and labels[0] in _DOC_HOST_LABELS:
        return True
    if any(seg.lower() in _DOC_SEGMENTS for seg in segments):
        return True
    last = segments[-1] if segments else ""
    _, dot, ext = last.rpartition(".")
    return bool(dot) and ext.lower() in _DOC_EXTENSIONS


def _title_segment(seg: str) -> bool:
    """A segment that reads as the title of an article, a product or a question, not an operation: five words
    or more, three with a question word ("how-to-..."), or three written with spaces (a wiki page's title)."""
    words = [w for w in _SLUG_SPLIT.split(seg.lower()) if w]
    return len(words) >= 5 or (len(words) >= 3 and (any(w in _TITLE_WORDS for w in words) or " " in seg or "+" in seg))


# a segment after one of these is a name (a package, a product, a wiki page, a person), not an operation
_NAME_BEFORE = frozenset({"project", "package", "packages", "crates", "gems", "product", "products", "dp", "display",
                          "page", "pages", "wiki", "spaces", "item", "items", "listing", "r", "u", "user", "users",
                          "channel", "c", "watch", "playlist", "album", "artist", "book", "books", "title"})


def _code_host(host: str) -> bool:
    return host in _CODE_HOSTS or host.split(".", 1)[0].startswith(("git", "gitlab", "gitea", "forgejo"))


def _operation_segments(parts: UrlParts, segments: list[str]) -> list[str]:
    """The path segments that can name an operation (a code host's owner and repository names cannot)."""
    if not _code_host(parts.host) or not segments or segments[0].lower() in _CODE_HOST_PAGES:
        return segments
    if "-" in segments:  # GitLab: /group/sub/project/-/settings/members
        return segments[segments.index("-") + 1:]
    return segments[2:]


# a path segment that ends in the site's own session id (`cart;jsessionid=9F3A...`): its cookie written into its links
_SESSION_SEGMENT = re.compile(r";(?:jsessionid|phpsessid|sessionid|session_id|sid|aspsessionid\w*)=[\w.-]*$",
                              re.IGNORECASE)


class UrlReading(NamedTuple):
    """A `navigate` URL read once for both rule families of this module."""

    parts: UrlParts
    words: str  # the operation-bearing words ("" on a documentation page)
    keys: frozenset[str]  # text_keys(words)
    values: tuple[tuple[str, str], ...]  # (key, decoded value) that can carry data out ("" for a path segment)
    params: tuple[tuple[str, str], ...]  # every query and fragment (key lower case, value)


def _fragment(raw: str) -> str:
    return raw.split("#", 1)[1] if "#" in raw else ""


def _params(text: str) -> list[tuple[str, str]]:
    # `;` separates parameters in fragments of single-page apps ("#database:id=prod;action=delete")
    return parse_qsl(text.replace(";", "&"), keep_blank_values=True) if "=" in text else []


def _matrix(seg: str) -> list[tuple[str, str]]:
    """A path segment with its matrix parameters apart: [("", name), (key, value), ...] (`settings;tab=billing`)."""
    if ";" not in seg or "=" not in seg:
        return [("", seg)]
    head, *params = seg.split(";")
    return [("", head), *((k, v) for k, _, v in (p.partition("=") for p in params))]


def reading(ctx: Context) -> UrlReading | None:
    """The URL of a `navigate` action read as words and values; None when there is nothing past the host."""
    return read_url(ctx.action.url, ctx.compiled.cues)  # type: ignore[union-attr]


@functools.lru_cache(maxsize=1024)
def read_url(url: str, book: CueBook) -> UrlReading | None:
    """`url` read as words and values with the cue book's key lists (remembered per URL: agents revisit)."""
    parts = split_url(url)
    if parts is None or parts.scheme not in _WEB or not parts.host:
        return None
    fragment = _fragment(parts.raw)
    if len(parts.path) <= 1 and not parts.query and not fragment:
        return None
    prefill = book.url_prefill
    search, redirect = prefill.get("search", frozenset()), prefill.get("redirect", frozenset())
    segments = [s for s in parts.path.split("/") if s]
    doc = _doc_page(parts, segments)
    frag_path, _, frag_query = fragment.partition("?")
    if "=" in frag_path and not frag_query:
        frag_path, frag_query = "", frag_path
    params = [(k.lower(), v) for k, v in (*_params(parts.query), *_params(frag_query))][:64]
    words: list[str] = []
    if not doc:
        before = ""
        for seg in (*_operation_segments(parts, segments), *(s for s in frag_path.split("/") if s)):
            if len(seg) <= 80 and not _title_segment(seg) and before not in _NAME_BEFORE:
                words.append(url_words(seg))
            before = seg.lower()
        for key, value in params:
            # a search names what is looked for; a redirect where a sign-in goes next: neither is done here
            if key in search or (key in redirect and value.startswith(("/", "http", "%2f", "%2F"))):
                continue
            words.append(url_words(key))
            if value and len(value) <= _MAX_WORD_VALUE and "://" not in value and "@" not in value \
                    and not _title_segment(value):
                words.append(url_words(value))
    text = " ".join(w for w in words if w)
    values = [(k, v[:_MAX_VALUE]) for k, v in params if v and k not in search and k not in redirect]
    # data can ride in the path too (`/api/post/<record>`, `/c/<base64>`), or in a fragment of its own
    # (a segment's matrix parameters, `settings;tab=billing`, are read value by value, as a query's are)
    values += [(key, piece[:_MAX_VALUE]) for seg in segments if len(seg) >= 16 and not _SESSION_SEGMENT.search(seg)
               for key, piece in _matrix(seg) if len(piece) >= 16 or not key]
    if len(fragment) >= 16 and "&" not in fragment and "=" not in fragment.rstrip("="):  # base64 ends in "="
        values.append(("", unquote(fragment)[:_MAX_VALUE]))
    return UrlReading(parts, text, text_keys(text) if text else frozenset(), tuple(values), tuple(params))


# -- data carried out -----------------------------------------------------------------------------------


def _json_lines(value: str) -> list[str] | None:
    """A JSON object or list in a parameter, one line per object (one person's record is one object)."""
    if value[:1] not in "{[" or len(value) > _MAX_VALUE:
        return None
    try:
        data = json.loads(value)
    except ValueError:
        return None
    items = data if isinstance(data, list) else [data]
    lines: list[str] = []
    for item in items[:200]:
        if isinstance(item, dict):
            lines.append(" ; ".join(f"{k} {v}" for k, v in list(item.items())[:32] if not isinstance(v, (dict, list))))
        elif not isinstance(item, list):
            lines.append(str(item))
    return lines


def _value_lines(value: str) -> list[str]:
    """What one parameter value says, decoded: percent-encoding left over, JSON, base64 or hex."""
    if "%" in value:
        value = unquote(value)
    got = _json_lines(value)
    if got is not None:
        return got
    if len(value) >= 16 and " " not in value:
        text = decoded_text(value) if len(value) >= 24 else None
        text = text or decoded_text(value, short=True)
        if text is not None:
            return _json_lines(text) or text.splitlines()
    return value.splitlines() or [value]


# the parameter of a signed request (S3 SigV4, GCS V4) that names the signing key and its scope
_SIGNED_CREDENTIAL = frozenset({"x-amz-credential", "x-goog-credential"})


class Carried(NamedTuple):
    payload: Payload
    blocks: bool  # never leaves for another site: a secret, a credential, several people's records


_CREDENTIAL_KINDS = ("a user name with its password", "a password with the account it opens")
_PERSON_MARK = re.compile(r"\d")


def _people(lines: list[str]) -> int:
    """How many people's records the lines hold. A line (a value, or a JSON object) with a phone number, a
    street address, a card or a national id and something more about the person (a name, an e-mail, another
    item) is one record; several phone numbers or addresses in one line are several. A value that is one bare
    phone number (`to=+1...`, a call log's filter) is not a record; three or more such values are a list."""
    people = bare = 0
    for line in lines:
        if not _PERSON_MARK.search(line):
            continue
        phones = PHONE.findall(line)
        streets = STREET.findall(line)
        ids = len(find_sensitive(line)) if not phones and not streets else 0
        items = max(len(phones), len(streets), 1 if ids else 0)
        if items == 1 and len(phones) + len(streets) + ids <= 1:
            rest = line
            for item in (*phones, *streets):
                rest = rest.replace(item, " ")
            if len(_LETTERS.findall(rest)) < 2 and "@" not in rest:
                bare += 1  # one bare item says nothing about whose it is
                continue
        people += items
    return people + (bare if bare >= 3 else 0)


_LETTERS = re.compile(r"[^\W\d_]{2,}")


# what a value needs to hold before it is read as data: an e-mail, nine digits (a phone's or an id's; a date has
# eight), a house number with words, an encoded run or a JSON document (most values are ids, dates and words)
_MAYBE_DATA = re.compile(r"@|%40|\d(?:[^\d&]{0,3}\d){8}|\d[^&]{0,8}[\s+]|%20|^[\[{]|%5B|%7B|[A-Za-z0-9+/_-]{16}",
                         re.IGNORECASE)


@functools.lru_cache(maxsize=1024)
def carried_by(url: str, book: CueBook) -> Carried | None:
    """`carried_out` of a URL (remembered per URL)."""
    r = read_url(url, book)
    if r is None or not r.values:
        return None
    return carried_out(r, book.url_prefill.get("recipients", frozenset()))


def carried_out(r: UrlReading, recipients: frozenset[str]) -> Carried | None:
    """What the URL's parameters carry, read the way gate/dataout.py reads any text, plus the people in it."""
    if not r.values:
        return None
    if any(k.lower() in _SIGNED_CREDENTIAL for k, _ in r.values):
        # a presigned bucket URL: its credential names the signing key (an access key id or a service account),
        # public and signed for this one object; the rest of the URL is still read
        r = r._replace(values=tuple((k, v) for k, v in r.values if k.lower() not in _SIGNED_CREDENTIAL))
        if not r.values:
            return None
    login = named_login([(k.replace("_", " ").replace("-", " "), v) for k, v in r.values if k])
    if not login and not any(_MAYBE_DATA.search(v) for _, v in r.values):
        return None
    lines: list[str] = []
    emails = street = 0
    listed = 0  # e-mail addresses outside the keys that name recipients
    per_value: list[str] = []
    for key, value in r.values:
        got = _value_lines(value)
        lines.extend(got)
        if len(r.values) > 1 and got:
            per_value.append("\n".join(got))
        for line in got:
            n = len(EMAIL.findall(line)) if "@" in line else 0
            emails += n
            listed += n if key not in recipients else 0
            street += 1 if STREET.search(line) else 0
    text = "\n".join(lines)
    found = carried(text)
    # one value read alone: a compose link's body of credentials is not hidden by the other fields beside it
    # (`?view=cm&to=...&body=...`)
    for value_text in per_value:
        alone = carried(value_text)
        if alone is not None and (found is None or alone.severity > found.severity):
            found = alone
    if login and (found is None or found.severity < 2):
        found = Payload(_CREDENTIAL_KINDS[0], 2)
    people = _people(lines)
    if found is not None and found.severity >= 3:
        return Carried(found, True)
    if people >= 2 or listed >= 5 or (found is not None and found.kind == "personal records"):
        # several people's records: lines of them, or named people with a phone or an address written as a
        # list in one value ("Ann 555-0101; Raj 555-0177", gate.dataout.people_listed)
        return Carried(Payload("personal records of several people", 2), True)
    if found is not None and found.kind in _CREDENTIAL_KINDS:
        return Carried(found, True)
    if emails and street:
        return Carried(Payload("personal data (an e-mail with a home address)", 2), False)
    if found is not None and found.severity >= 2:
        return Carried(found, False)
    if found is not None and found.kind.startswith("personal data"):  # an e-mail with a phone in one value
        return Carried(Payload(found.kind, 2), False)
    return None


# what names private data when a URL carries it: a value ("?data=ssn_list", "?d=cookies") or a path segment after an
# upload or collect step ("/upload/passwords") that says what is sent, rather than the data itself
_PRIVATE_NAMED = re.compile(
    r"\b(?:ssns?|social security|passwords?|passwd|pwds?|credentials?|creds|cookies?|session tokens?|tokens|"
    r"api keys?|apikeys?|private keys?|ssh keys?|id rsa|seed phrases?|mnemonic|wallets?|keychain|login data|"
    r"card numbers?|cvv|credit cards?|customers?|customer list|contacts|address book|browser history|dotenv|"
    r"secrets?|medical|patients?|dob|birthdates?|payroll|salaries|tax returns?|passports?|bank accounts?|"
    r"user list|emails|inbox|db dump|database)\b")
# parameters that carry a payload by their name, anywhere ...
_CARRIER_KEYS = frozenset({"data", "payload", "dump", "exfil", "leak", "loot", "upload", "blob", "b64", "base64"})
# ... and the short or generic ones that do after an upload or collect step in the path
_STEP_KEYS = _CARRIER_KEYS | {"d", "p", "c", "v", "x", "content", "body", "file", "info", "msg", "text", "log"}
_CARRIER_PATH = re.compile(r"(?:^|/)(?:upload|uploads|collect|collector|ingest|exfil|drop|dump|steal|grab|loot|c2|"
                           r"beacon|recv|receive)(?:[/?.]|$)", re.IGNORECASE)
# a long encoded blob (base64, base64url or hex) as the value: data packed for the trip
_BLOB = re.compile(r"^(?:[A-Za-z0-9+/]{40,}={0,2}|[A-Za-z0-9_-]{48,}|[0-9a-fA-F]{64,})$")


def _named_out(ctx: Context) -> str | None:
    """What a navigation says it sends to a host other than the page's site: a carrier parameter (`data=`,
    `payload=`) or an upload or collect step in the path, whose value or next segment names private data
    (`ssn_list`, `passwords`, `cookies`), or an encoded blob sent to such a step; None otherwise."""
    r = ctx.derived(reading)
    if r is None:
        return None
    step = _CARRIER_PATH.search(r.parts.path) is not None
    if not step and not r.params:
        return None
    host = r.parts.host
    ip = ip_of(host)
    if is_loopback(host) or (ip is not None and local_ip(ip)):
        return None
    page = split_url(ctx.observation.url) if ctx.observation.url else None
    if page is not None and page.host and registrable(page.host) == registrable(host):
        return None
    for key, value in r.params:
        if not value or len(value) > 4096 or key not in (_STEP_KEYS if step else _CARRIER_KEYS):
            continue
        if len(value) <= 80 and _PRIVATE_NAMED.search(url_words(unquote(value))):
            return f"{key}={_short(value, 32)}"
        if step and _BLOB.match(value):
            return f"{key}=<{len(value)} encoded characters>"
    return _named_in_path(r) if step else None


def _named_in_path(r: UrlReading) -> str | None:
    segments = [s for s in r.parts.path.lower().split("/") if s][:8]
    for i, seg in enumerate(segments[:-1]):
        if _CARRIER_PATH.search("/" + seg) and _PRIVATE_NAMED.search(url_words(segments[i + 1])):
            return f"/{seg}/{_short(segments[i + 1], 32)}"
    return None


def _named_drop(ctx: Context) -> str | None:
    """Where the data `_named_out` finds lands, when that is a place data hides: a raw public address, a paste
    site or a request collector, a host named for collecting, or a bulk-registered name; None otherwise."""
    if ctx.derived(_named_out) is None:
        return None
    parts = ctx.derived(reading).parts
    host = parts.host.lower()
    hiding = destination(host, parts.path, ctx.compiled.cues, ctx.compiled.collector_hosts)
    if hiding is not None and hiding != "a URL shortener":
        return f"{hiding} ({host})"
    if collector_named(host, ctx.compiled.cues):
        return f"a host named for collecting ({host})"
    return f"a bulk-registered name ({host})" if abused_tld(host) else None


@rule("block.nav.data-named-drop", "a URL that says it uploads private data, to a place data hides",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def data_named_drop(ctx: Context) -> CheckResult:
    """Two signs that agree (see `confirm.nav.data-named-out`): the URL names private data as what it uploads
    (`?data=ssn_list`, `/upload/passwords`), and it goes to a place data hides: a raw public address, a paste or
    request-collector site, a host named for collecting (`collect.`, `track.`), or a name under a bulk-registered
    top-level name. No service a person uses takes their passwords or identity numbers by a link there."""
    where = ctx.derived(_named_drop)
    if where is None or _web_data_out(ctx, blocking=True):
        return None
    return f"opening the URL sends what it names ({ctx.derived(_named_out)!r}) to {where}"


@rule("confirm.nav.data-named-out", "a URL that says it uploads passwords, cookies or personal data to another site",
      risk=Risk.HIGH, types=NAV, confidence=0.7)
def data_named_out(ctx: Context) -> CheckResult:
    """A URL to a host other than the page's site whose carrier parameter (`data=`, `payload=`, `d=`) or upload,
    collect or drop step (`/upload/`, `/collect`, `/exfil`) names private data as what it sends (`ssn_list`,
    `passwords`, `cookies`, `customers`), or packs an encoded blob for such a step: the shape of a prompt-injected
    agent asked to "report" data by opening a link. The data itself, when it is in the URL, is judged by the
    data-out rules (a secret or records block); a search for "passwords" (`?q=`) and the page's own site pass."""
    found = ctx.derived(_named_out)
    if found is None or ctx.derived(_named_drop) is not None or _web_data_out(ctx, blocking=False):
        return None
    return f"opening the URL on {ctx.derived(reading).parts.host} sends what it names ({found!r})"


class Leaving(NamedTuple):
    carried: Carried
    where: str  # "another site (x.example)", "a paste site (pastebin.com)"
    known_elsewhere: bool  # the person is on a page of another site, or the host is a hiding place
    dropped: bool = False  # the host is a place data hides (a paste site, a collector, a host named for collecting)


def leaving(ctx: Context) -> Leaving | None:
    """What the navigation carries to a host other than this machine and the site the person is on."""
    r = ctx.derived(reading)
    if r is None or not r.values:
        return None
    host = r.parts.host
    ip = ip_of(host)
    if is_loopback(host) or (ip is not None and local_ip(ip)):
        return None
    page = split_url(ctx.observation.url) if ctx.observation.url else None
    page_host = page.host if page is not None else ""
    if page_host and registrable(page_host) == registrable(host):
        return None  # the page's own site (its analytics, its search, its forms)
    got = carried_by(ctx.action.url, ctx.compiled.cues)  # type: ignore[union-attr]
    if got is None:
        return None
    hiding = destination(host, r.parts.path, ctx.compiled.cues, ctx.compiled.collector_hosts) or \
        (COLLECTING_HOST if got.payload.severity >= 2 and collector_named(host, ctx.compiled.cues) else None)
    where = f"{hiding} ({host})" if hiding else f"another site ({host})"
    return Leaving(got, where, bool(hiding) or bool(page_host), bool(hiding) and hiding != "a URL shortener")


def _personal_dropped(out: Leaving) -> bool:
    """One person's details sent to a place data hides (a paste site, a request collector, a host named for
    collecting or tracking: `collect.`, `track.`, `beacon.`, `telemetry.`): nothing there is a service the
    person uses, so it is a drop."""
    p = out.carried.payload
    return out.dropped and p.severity >= 2 and p.kind.startswith("personal data")


def _web_data_out(ctx: Context, *, blocking: bool) -> bool:
    """The web family already says this (block.web.data-out or block.web.secret-in-url; or, for asking, any of
    its data rules): one finding is reported once."""
    from gate.rules import web

    if web.data_out_block.check(ctx) is not None or web.secret_value_in_url.check(ctx) is not None:
        return True
    return not blocking and (web.data_out_confirm.check(ctx) is not None or web.secret_param.check(ctx) is not None)


@rule("block.nav.records-out", "a URL that carries several people's records, a credential or a secret to another site",
      risk=Risk.CRITICAL, types=NAV, confidence=0.85)
def records_out(ctx: Context) -> CheckResult:
    """The URL's parameters, decoded (percent-encoding left over, base64 or hex, JSON objects and lists),
    carry a secret, a credential list or file, or the records of several people (two or more lines, JSON
    objects, phone numbers or street addresses, named people with their phone numbers written as a list in one
    value, short local numbers included: "Ann 555-0101; Raj 555-0177"; five e-mail addresses outside a
    recipients list), to a host that is neither this machine nor the site the person is on; or one person's
    details (an e-mail with a home address or a phone) to a place data hides: a paste site, a request
    collector, or a host named for collecting or tracking (`collect.`, `track.`, `beacon.`, `telemetry.`).
    A user name with its password blocks when the page the person is on is another site's, or the host is a
    place data hides; otherwise it asks
    (`confirm.nav.personal-data-out`). Search terms and sign-in redirects are not read."""
    out = ctx.derived(leaving)
    if out is None or not (out.carried.blocks or _personal_dropped(out)):
        return None
    p = out.carried.payload
    if p.kind in _CREDENTIAL_KINDS and not out.known_elsewhere:
        return None
    if _web_data_out(ctx, blocking=True):
        return None
    return f"opening the URL sends {p.kind} to {out.where}"


@rule("confirm.nav.personal-data-out", "a URL that carries one person's details to another site", risk=Risk.HIGH,
      types=NAV, confidence=0.75)
def personal_data_out(ctx: Context) -> CheckResult:
    """The URL's decoded parameters carry one person's details (an e-mail with a home address or a phone
    number, a card number, a national id, a user name with its password) to a host that is neither this
    machine nor the site the person is on: a person decides whether it goes. An e-mail alone (a sign-in hint,
    an unsubscribe link), a search and an analytics beacon of the page's own site do not ask."""
    out = ctx.derived(leaving)
    if out is None:
        return None
    p = out.carried.payload
    if (out.carried.blocks and not (p.kind in _CREDENTIAL_KINDS and not out.known_elsewhere)) or \
            _personal_dropped(out):
        return None  # blocked by block.nav.records-out
    if _web_data_out(ctx, blocking=False):
        return None
    return f"opening the URL sends {p.kind} to {out.where}"


# -- a message or a person's details packed into a link -------------------------------------------------------
# An injected page or message has the agent open (or render as an image) a link whose query holds what it read:
# a mail's headers, a form's fields written as `name=...,card=...`, an address. Tracking-pixel paths (`pixel.png`,
# `/l`, `/t.gif`, `/collect`) are the classic carrier: they answer with one transparent pixel and log the query.

# a path that is a tracking pixel: an image file, or a step named for one (`/pixel`, `/beacon`, `/collect`, `/1x1`)
_BEACON_PATH = re.compile(
    r"(?:^|/)(?:px|pixel|pixels|beacon|beacons|collect|collector|track|tracker|tracking|1x1|spacer|clear|blank|"
    r"open|opened)(?:\.(?:png|gif|jpe?g|webp|svg|ico|bmp|php|aspx?))?/?$"
    r"|\.(?:png|gif|jpe?g|webp|svg|ico|bmp)$", re.IGNORECASE)
# the header lines of a mail or a message, written inside a value ("Subject: Payroll, From: hr@...")
_MAIL_HEADER = re.compile(r"(?:^|[\s,;|&>\[(])(subject|from|to|cc|bcc|reply-to|date|message-id|betreff|von|an|objet|"
                          r"de|para|asunto|oggetto|da|onderwerp|van|тема|от|件名|差出人|主题|发件人)\s*:\s*\S",
                          re.IGNORECASE)
_HEADER_STRONG = frozenset({"subject", "from", "betreff", "von", "objet", "asunto", "oggetto", "onderwerp", "тема",
                            "от", "件名", "差出人", "主题", "发件人", "message-id", "reply-to"})
# a person's details written as labelled fields inside one value ("name=Alex Kim,card=5500,addr=12 Oak St")
_PERSON_FIELD = re.compile(
    r"(?:^|[\s,;|&{\"'(])(full ?name|first ?name|last ?name|surname|name|card|card ?number|cc|ccnum|pan|cvv|cvc|exp|"
    r"expiry|addr|address|street|zip|postcode|postal|city|phone|tel|mobile|email|e-mail|mail|dob|birth ?date|"
    r"birthday|ssn|sin|nino|iban|account|acct|routing|passport|license|licence|pass|password|pwd|pin|"
    r"nombre|nom|adresse|tarjeta|karte|telefono|téléphone|telefon)[\"']?\s*[=:]\s*[\"']?[^\s,;|&=:\"']", re.IGNORECASE)
_NAME_FIELDS = frozenset({"name", "full name", "fullname", "first name", "firstname", "last name", "lastname",
                          "surname", "nombre", "nom"})
# search engines: what is typed into them is a search, whatever it looks like
_SEARCH_ENGINES = frozenset({"google", "bing", "duckduckgo", "yahoo", "baidu", "yandex", "ecosia", "startpage", "brave",
                             "qwant", "ask", "aol", "naver", "kagi", "seznam", "sogou", "so", "mojeek"})
# the fields that make labelled details a person's record to take: a name, or what pays or identifies (an e-mail with
# a street alone is a contact form's, judged by `confirm.nav.personal-data-out`)
_WHO_OR_MONEY = _NAME_FIELDS | frozenset({"card", "card number", "cardnumber", "cc", "ccnum", "pan", "cvv", "cvc",
                                          "exp",
                                          "expiry", "dob", "birth date", "birthdate", "birthday", "ssn", "sin", "nino",
                                          "iban", "account", "acct", "routing", "passport", "license", "licence",
                                          "pass", "password", "pwd", "pin", "tarjeta", "karte"})
_UTM = re.compile(r"^(?:utm_\w+|gclid|fbclid|msclkid|mc_cid|mc_eid|_ga|ref|source|campaign|medium)$", re.IGNORECASE)


# what a URL needs before its values are read for packed data: a colon or an equals sign inside a value (plain or
# percent-encoded), an at-sign, a phone-length run of digits, or a long run that may be base64
_MAYBE_PACKED = re.compile(r"%3[aAdD]|[?&][^=&#]*=[^&#]*[:=]|@|%40|\d(?:[\d ().+-]|%20|%2[bB]){8,}\d|"
                           r"[A-Za-z0-9+/_-]{24}")


def _packed(text: str) -> str | None:
    """What a value packs: a message's headers (two header lines, or one with an address), or a person's details as
    labelled fields (two kinds of detail, one a name or what pays or identifies); None otherwise."""
    if ":" not in text and "=" not in text:
        return None  # a header and a labelled field both need one
    headers = {m.group(1).lower() for m in _MAIL_HEADER.finditer(text)}
    if headers & _HEADER_STRONG and (len(headers) >= 2 or EMAIL.search(text)):
        return "a message's headers (" + ", ".join(sorted(headers)[:3]) + ")"
    fields = {" ".join(m.group(1).lower().split()) for m in _PERSON_FIELD.finditer(text)}
    if len(fields) >= 2 and fields - _NAME_FIELDS and fields & _WHO_OR_MONEY:
        return "a person's details as fields (" + ", ".join(sorted(fields)[:4]) + ")"
    return None


def packed_out(ctx: Context) -> tuple[str, str, bool] | None:
    """(what, where, beacon): a message's headers or a person's labelled details that the URL's query or path
    carries to a host other than this machine and the page's own site; on a beacon path also a bare e-mail
    address or phone number. A search engine's terms are a search; another site's search parameter counts only with
    a message's headers, and fully on a beacon path (`pixel.png?q=` searches nothing); tracking tags never."""
    r = ctx.derived(reading)
    if r is None or (not r.params and len(r.parts.path) < 16) or not _MAYBE_PACKED.search(ctx.action.url):  # type: ignore[union-attr]
        return None
    host = r.parts.host
    ip = ip_of(host)
    if is_loopback(host) or (ip is not None and local_ip(ip)):
        return None
    page = split_url(ctx.observation.url) if ctx.observation.url else None
    if page is not None and page.host and registrable(page.host) == registrable(host):
        return None
    beacon = _BEACON_PATH.search(r.parts.path) is not None
    search = ctx.compiled.cues.url_prefill.get("search", frozenset())
    engine = site_label(host.lower()) in _SEARCH_ENGINES
    values = [(k, v) for k, v in r.params if v and not _UTM.match(k) and (beacon or not engine or k not in search)]
    values += [(k, v) for k, v in r.values if not k]  # path segments and a fragment of their own
    for key, value in values[:32]:
        searched = not beacon and key in search  # a search box's terms: only a message's headers count there
        plain = unquote(value) if "%" in value else value
        decoded = (decoded_text(plain) if len(plain) >= 24 else None) or decoded_text(plain, short=True) \
            if len(plain) >= 16 and " " not in plain else None
        for text in (plain, *((decoded,) if decoded else ())):
            text = text[:_MAX_VALUE]
            what = _packed(text)
            if searched and what is not None and not what.startswith("a message"):
                what = None
            if what is None and beacon and ("@" in text or PHONE.search(text)):
                if EMAIL.search(text):
                    what = "an e-mail address"
                elif PHONE.search(text):
                    what = "a phone number"
            if what is not None:
                return what, f"{key}=" if key else "the path", beacon
    return None


@rule("block.nav.packed-out", "a link that carries a message's headers or a person's details to another site, or "
      "an address or a phone number to a tracking pixel", risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def packed_data_out(ctx: Context) -> CheckResult:
    """The URL's query or path (decoded from percent-encoding, base64 or hex) holds a mail's or a message's
    headers (`Subject: ... From: ...`, in several languages), or a person's details written as labelled fields
    (`name=...,card=...,addr=...`: two kinds of detail beyond a name), and it goes to a host that is neither this
    machine nor the site the person is on; or, on a tracking-pixel path (`pixel.png`, `/t.gif`, `/collect`,
    `/beacon`), an e-mail address or a phone number. That is how an injected page or message has an agent "load
    an image" or "open a link" to send what it read. A search (`?q=` on a search path), tracking tags (`utm_*`),
    an e-mail given as a sign-in hint to an ordinary page, and the page's own analytics pass."""
    got = ctx.derived(packed_out)
    if got is None:
        return None
    what, where, beacon = got
    kind = "a tracking pixel's address" if beacon else "a link"
    return f"{kind} on {ctx.derived(reading).parts.host} carries {what} in {where}"


# -- the operation a URL names --------------------------------------------------------------------------

# where money goes, by its shape: a Bitcoin, Ethereum-style, Tron, Litecoin or Solana address, or an IBAN
_MONEY_DESTINATION = re.compile(
    r"^(?:bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34}|0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33}|"
    r"ltc1[02-9ac-hj-np-z]{11,71}|[LM][1-9A-HJ-NP-Za-km-z]{26,33}|[A-Z]{2}\d{2}[A-Z0-9]{11,30})$")
_AMOUNT = re.compile(r"^\s*[$€£¥]?\s*\d{1,12}(?:[.,]\d{1,18})?\s*[a-zA-Z]{0,5}\s*$")


MONEY = "moving money out"  # the name of `[url-consequence.money]`: it counts only with a prefilled payee


class Operation(NamedTuple):
    kind: str
    risk: Risk
    quote: str
    destination: str  # a prefilled money destination ("" when none)
    amount: str  # a prefilled amount ("" when none)


def _money_prefill(r: UrlReading, dest_keys: frozenset[str], amount_keys: frozenset[str]) -> tuple[str, str]:
    """(destination, amount) the query fills in. A destination is shaped like a wallet address or an IBAN, or is
    a recipient-named value with an e-mail or an account number in it (`to=EUR` is a currency, not a payee)."""
    dest = amount = ""
    for key, value in r.params:
        value = value.strip()
        if not value:
            continue
        if not dest and len(value) <= 128 and (_MONEY_DESTINATION.match(value) or (key in dest_keys and (
                "@" in value or sum(ch.isdigit() for ch in value) >= 6))):
            dest = value
        elif not amount and key in amount_keys and _AMOUNT.match(value) and \
                any(ch != "0" for ch in value if ch.isdigit()):
            amount = value
    return dest, amount


def operations(ctx: Context) -> tuple[Operation, ...]:
    """The consequential operations the URL names: `[url-consequence.*]` kinds whose words are in it; money
    counts only with a prefilled destination."""
    return operations_of(ctx.action.url, ctx.compiled.cues)  # type: ignore[union-attr]


@functools.lru_cache(maxsize=1024)
def operations_of(url: str, book: CueBook) -> tuple[Operation, ...]:
    """`operations` of a URL (remembered per URL)."""
    r = read_url(url, book)
    if r is None or not r.words:
        return ()
    found: list[Operation] = []
    for i, branches in book.url_consequence_index.branches(r.words, r.keys):  # (one pass over the words)
        kind = book.url_consequence[i]
        m = kind.search.search_among(r.words, branches)
        if m is None:
            continue
        if kind.name == MONEY:
            dest, amount = _money_prefill(r, book.url_prefill.get("destination", frozenset()),
                                          book.url_prefill.get("amount", frozenset()))
            if not dest:  # an amount alone is a price or a calculator ("send-money?amount=100")
                continue
            found.append(Operation(kind.name, kind.risk, m.group(0), dest, amount))
        else:
            found.append(Operation(kind.name, kind.risk, m.group(0), "", ""))
    return tuple(found)


def _short(text: str, limit: int = 48) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@rule("block.nav.prefilled-payment", "a URL that moves money with its destination and amount filled in",
      risk=Risk.CRITICAL, types=NAV, confidence=0.85)
def prefilled_payment(ctx: Context) -> CheckResult:
    """The URL names a money operation (withdraw, transfer, send, pay out, wire: `[url-consequence.money]`)
    and its query fills in both where the money goes (a recipient, IBAN or wallet parameter, or a value shaped
    like a crypto address or an IBAN) and how much: one click on the page it opens sends someone's money to
    whoever wrote the link. The same page without them only asks (`confirm.nav.consequence`)."""
    for op in ctx.derived(operations):
        if op.destination and op.amount:
            return (f"opening the URL prepares '{op.quote}' of {_short(op.amount, 24)} to {_short(op.destination)}"
                    f" on {ctx.derived(reading).parts.host}")  # type: ignore[union-attr]
    return None


# the `[url-consequence.*]` kind of the pages that list an account's keys and tokens, and what an address does to one
# by being opened (a GET link that revokes, rolls or reveals it); an app password is a password, not a listing
_KEYS_PAGE = "showing or making the account's API keys and tokens"
_KEY_ONE_CLICK = frozenset({"revoke", "revoked", "delete", "destroy", "remove", "regenerate", "rotate", "roll",
                            "reset", "reveal", "show", "download", "export", "plaintext", "expire", "disable"})
_APP_PASSWORDS = re.compile(r"\bapp ?passwords?\b|\bapppasswords\b")


def _keys_acted_on(ctx: Context) -> bool:
    """The keys-and-tokens address itself acts on a key (its words name a revoke, a roll, a reveal, a download), or
    is an app-password page."""
    r = ctx.derived(reading)
    if r is None:
        return False
    return bool(_KEY_ONE_CLICK.intersection(r.words.split())) or _APP_PASSWORDS.search(r.words) is not None


@rule("confirm.nav.consequence", "a URL that names an operation on money, a device, an account or its data",
      risk=Risk.HIGH, types=NAV, confidence=0.75)
def url_consequence(ctx: Context) -> CheckResult:
    """The URL's path, fragment or query names a consequential operation (`[url-consequence.*]` of
    resources/cues.toml, in several languages): money with its recipient filled in; unlocking a
    door, opening a garage or disarming an alarm; deleting a cluster, a database, a repository or an account;
    exporting genetic, health, banking or contact data; granting a role or membership; changing a password,
    an e-mail, two-factor sign-in or recovery. Many web apps do it on a plain GET, and the rest open the form
    the agent then submits. A documentation page, an article, a search and a settings page that only shows
    (`/settings/access`, `/accounts/statements`) do not ask. Nor does the page that lists an account's API keys
    or tokens or opens the form for a new one (`/settings/tokens`, `/api-keys`, `/personal-access-tokens/new`):
    opening it makes and shows nothing, the click that creates or reveals one is asked about where it happens;
    an address that itself revokes, rolls, reveals or downloads a key (`/api-keys/<id>/roll`) still asks."""
    ops = [op for op in ctx.derived(operations) if op.kind != _KEYS_PAGE or _keys_acted_on(ctx)]
    if not ops:
        return None
    op = ops[0]
    if op.destination and op.amount:
        return None  # blocked by block.nav.prefilled-payment
    host = ctx.derived(reading).parts.host  # type: ignore[union-attr]
    return f"opening the URL on {host} means {op.kind}: '{_short(op.quote)}'", op.risk


# a bare answer: it says yes to whatever the page it is on is for
_BARE_ANSWER = re.compile(
    r"^(?:yes|ok|okay|confirm|continue|proceed|submit|save|save changes|done|apply|go ahead|do it|i understand|"
    r"i m sure|i am sure|yes i m sure|yes i am sure|yes continue|i agree|agree|accept|"
    r"ja|weiter|bestätigen|speichern|oui|continuer|confirmer|enregistrer|valider|sí|si|continuar|confirmar|guardar|"
    r"sim|salvar|conferma|continua|salva|doorgaan|bevestigen|opslaan|はい|確認|続行|是|确认|继续|保存)$")


@rule("confirm.gui.answer-on-operation-page", "A bare yes, continue or save on a page named for an operation on "
      "an account, its data or a device", risk=Risk.HIGH, types=("click",), confidence=0.7)
def answer_on_operation_page(ctx: Context) -> CheckResult:
    """The label only answers ("Continue", "Yes", "Save", "Bestätigen") and the page's address names what it
    answers (`[url-consequence.*]`, as `confirm.nav.consequence` reads an address opened): two-factor sign-in
    switched off (`/settings/two_factor_authentication/disable`), an account or a repository deleted
    (`/settings/delete`), a key or a member added. The same answer on a sign-in, a password-reset or a
    settings page that only shows passes."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.words else ""
    if not first or len(first) > 24 or not _BARE_ANSWER.match(first) or key_shown_dismissed(ctx, first):
        return None  # (a "Done" that closes the dialog showing a key just made changes nothing)
    url = action_url(ctx)
    if not url:
        return None
    ops = operations_of(url, ctx.compiled.cues)
    if not ops:
        return None
    return f"{label.raw[:40]!r} on a page for {ops[0].kind}: '{_short(ops[0].quote)}'", ops[0].risk


# -- where a link really lands, and who publishes the page it opens ---------------------------------------------

# query keys that hand the browser on to another address; `q` and `u` only on a redirect endpoint (`/url`,
# `/out`, `/l.php`), elsewhere they are search terms. OAuth's `redirect_uri` names the app's own callback.
_REDIRECT_KEYS = frozenset({"url", "redirect", "redirect_url", "redirecturl", "redirect_to", "redirectto", "next",
                            "return", "return_to", "returnto", "return_url", "returnurl", "continue", "dest",
                            "destination", "goto", "go", "target", "link", "out", "forward", "rurl", "redir",
                            "jump", "to", "uri"})
_REDIRECT_ENDPOINTS = frozenset({"url", "redirect", "redir", "out", "link", "away", "exit", "leave", "go", "l.php",
                                 "r", "click", "outgoing", "external"})
_ABSOLUTE = re.compile(r"(?i)^(?:https?:)?//[^/\s]")


def _redirect_targets(r: UrlReading) -> list[UrlParts]:
    last = r.parts.path.rstrip("/").rsplit("/", 1)[-1].lower()
    targets: list[UrlParts] = []
    for key, value in r.params:
        k = key.lower()
        if k not in _REDIRECT_KEYS and not (k in ("q", "u") and last in _REDIRECT_ENDPOINTS):
            continue
        value = value.strip()
        if "%" in value[:12]:
            value = unquote(value)
        if not _ABSOLUTE.match(value):
            continue
        t = split_url(value if value.startswith(("http", "HTTP")) else "https:" + value)
        if t is not None and t.host:
            targets.append(t)
    return targets


def _bait_in(ctx: Context, t: UrlParts) -> str | None:
    """Why the address a link lands on is a page that wants something: a host imitating a brand, a bare public
    IP, or a sign-in, verification or payment word in its name or path. A brand's own site (`github.com/login`)
    is not bait."""
    brands = ctx.compiled.brands
    why = brands.lookalike(t.host)
    if why:
        return why
    ip = ip_of(t.host)
    if ip is not None:
        return None if ip.is_private or ip.is_loopback else f"a bare address ({t.host})"
    site = registrable(t.host).split(".", 1)[0]
    if site in brands.names:
        return None
    name = t.host.rsplit(".", 1)[0]
    words = set(_PATH_WORD.findall(f"{name} {t.path} {unquote(t.query)}".lower()))
    signin = sorted(words & ctx.compiled.cues.sign_in_words)
    return f"a {signin[0]!r} page" if signin else None


_PATH_WORD = re.compile(r"[a-z0-9]+")


@rule("confirm.nav.open-redirect", "a link that another site's redirect sends to a sign-in page elsewhere",
      risk=Risk.HIGH, types=NAV, confidence=0.75)
def open_redirect(ctx: Context) -> CheckResult:
    """The URL is a redirect (`?url=`, `?redirect=`, `?next=`, `/url?q=`, `/out?u=`) whose target is an
    absolute address on another site, and that address is a sign-in, verification or payment page, a bare
    public IP, or a host imitating a brand: the known host in front is how phishing links pass filters and a
    reader's eye (OWASP: unvalidated redirects and forwards). A redirect within the same site
    (`?next=/dashboard`, youtube.com to youtube.com), an OAuth `redirect_uri`, a redirect to a brand's own
    sign-in, and a redirect to an ordinary page elsewhere do not ask."""
    r = ctx.derived(reading)
    if r is None or r.parts.scheme not in _WEB or not r.params:
        return None
    here = registrable(r.parts.host)
    for t in _redirect_targets(r):
        if registrable(t.host) == here:
            continue
        why = _bait_in(ctx, t)
        if why:
            return f"{r.parts.host} forwards to {_short(t.host)}: {why}"
    return None


# folders of a content system that hold its code and uploads: a sign-in page inside them was put there by
# whoever broke in (phishing kits unpack into `wp-includes/`, `wp-content/uploads/`, `.well-known/`)
_KIT_FOLDERS = frozenset({"wp-includes", "wp-content", "uploads", ".well-known", "cgi-bin", "wp-admin"})
_PAGE_EXTENSIONS = frozenset({"php", "html", "htm", "shtml", "aspx", "asp", "jsp"})


@rule("confirm.nav.kit-path", "a sign-in page hidden in a website's code or upload folders", risk=Risk.HIGH,
      types=NAV, confidence=0.75)
def kit_path(ctx: Context) -> CheckResult:
    """A page (`.php`, `.html`, `.aspx`) inside a content system's code or upload folders (`wp-includes`,
    `wp-content`, `uploads`, `.well-known`, `cgi-bin`) whose path names a brand or a sign-in, verification
    or payment word: phishing kits are unpacked into broken-into sites there
    (`/wp-includes/js/office365/login.php`). WordPress's own `/wp-login.php` and `/wp-admin/`, and images
    and documents in uploads, do not ask."""
    r = ctx.derived(reading)
    return _kit(ctx, r.parts) if r is not None and r.parts.scheme in _WEB else None


def _kit(ctx: Context, parts: UrlParts) -> str | None:
    segs = [s.lower() for s in parts.path.split("/") if s]
    if len(segs) < 2 or not any(s in _KIT_FOLDERS for s in segs[:-1]):
        return None
    stem, dot, ext = segs[-1].rpartition(".")
    if not dot or ext not in _PAGE_EXTENSIONS:
        return None
    if segs[0] == "wp-admin" and len(segs) == 2:
        return None  # WordPress's own admin pages
    words = set(_PATH_WORD.findall(" ".join(segs[:-1]) + " " + stem))
    hit = sorted(words & (ctx.compiled.cues.sign_in_words | ctx.compiled.brands.names))
    return f"{segs[-1]!r} on {parts.host} sits in its {'/'.join(segs[:-1])} folder ({hit[0]})" if hit else None


# hosts anyone publishes a page on without owning a site: object storage, content-addressed gateways and site
# builders. A page there that names a brand or a sign-in is a phishing page far more often than the brand's.
_STORAGE_HOST = re.compile(r"(?:^|\.)(?:storage\.googleapis\.com|firebasestorage\.googleapis\.com|"
                           r"blob\.core\.windows\.net|web\.core\.windows\.net|s3[.-][a-z0-9.-]*amazonaws\.com|"
                           r"s3\.amazonaws\.com|r2\.dev|digitaloceanspaces\.com|backblazeb2\.com|"
                           r"objectstorage\.[a-z0-9-]+\.oraclecloud\.com|storage\.yandexcloud\.net)$")
_BUILDER_HOST = Guarded(re.compile(r"(?:^|\.)(?:sites\.google\.com|weebly\.com|wixsite\.com|000webhostapp\.com|"
                           r"firebaseapp\.com|web\.app|netlify\.app|vercel\.app|pages\.dev|workers\.dev|"
                           r"github\.io|gitlab\.io|glitch\.me|repl\.co|replit\.app|square\.site|"
                           r"godaddysites\.com|webflow\.io|blogspot\.com|wordpress\.com|herokuapp\.com|"
                           r"onrender\.com|azurewebsites\.net|framer\.website|carrd\.co|mystrikingly\.com|"
                           r"yolasite\.com|jimdosite\.com|ukit\.me|tilda\.ws)$"))
_CID = re.compile(r"^(?:Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{50,})$")
_RAW_PASTE = {"pastebin.com": "raw", "paste.ee": "r", "hastebin.com": "raw", "pastebin.pl": "view/raw",
              "rentry.co": "raw", "controlc.com": "raw", "paste.rs": "", "dpaste.org": "raw", "ghostbin.com": "raw"}


def _hosted(ctx: Context, parts: UrlParts) -> str | None:
    host = parts.host
    segs = [s for s in parts.path.split("/") if s]
    labels = host.split(".")
    if (len(segs) >= 2 and segs[0].lower() in ("ipfs", "ipns") and (_CID.match(segs[1]) or segs[0] == "ipns")) or \
            any(lab in ("ipfs", "ipns") and i >= 1 and i < len(labels) - 2 for i, lab in enumerate(labels)):
        return "a page on IPFS, which anyone publishes to and nobody takes down"
    raw = _RAW_PASTE.get(host[4:] if host.startswith("www.") else host)
    if raw is not None and segs and (raw == "" or "/".join(segs[:-1]).lower() == raw):
        return f"a raw paste on {host}, text anyone wrote and the agent would read as given"
    last = segs[-1].lower() if segs else ""
    if _STORAGE_HOST.search(host) and last.rpartition(".")[2] in ("html", "htm", "shtml", "svg", "xhtml", "php"):
        return f"a web page served from cloud storage at {host}"
    if _BUILDER_HOST.search(host):
        text = f"{host.rsplit('.', 2)[0]} {parts.path}".lower()
        words = set(_PATH_WORD.findall(text))
        brands = sorted(words & ctx.compiled.brands.names)
        signin = sorted(words & ctx.compiled.cues.sign_in_words)
        if brands and signin:
            return f"a {signin[0]!r} page for {brands[0]!r} on the free host {host}"
    return None


@rule("confirm.nav.hosted-page", "a page on IPFS, a raw paste, a page served from cloud storage, or a brand's "
      "sign-in on a free site builder", risk=Risk.MEDIUM, types=NAV, confidence=0.7)
def hosted_page(ctx: Context) -> CheckResult:
    """Opening a page that nobody owns a site for: a content-addressed IPFS page (`/ipfs/<cid>`,
    `<cid>.ipfs.dweb.link`), a raw paste (`pastebin.com/raw/...`), an HTML or SVG page served straight from
    object storage (`storage.googleapis.com`, `*.blob.core.windows.net`, S3), or a page on a free site builder
    (`sites.google.com`, `*.weebly.com`, `*.web.app`) whose name or path puts a brand beside a sign-in word.
    Phishing feeds list these hosts because takedown is slow and the host's name is trusted. The IPFS
    project's own site, a paste's ordinary page, a data file in a bucket and a builder's site about anything
    else do not ask."""
    r = ctx.derived(reading)
    parts = r.parts if r is not None else split_url(ctx.action.url)  # type: ignore[union-attr]
    if parts is None or parts.scheme not in _WEB or not parts.host:
        return None
    return _hosted(ctx, parts)


# OAuth scopes that hand an app a whole mailbox, drive, directory or code account (Google, Microsoft, GitHub,
# Slack, Dropbox): a consent screen that asks for one is how consent phishing takes an account without a password
_BROAD_SCOPE = re.compile(r"(?i)(?:mail\.google\.com|/auth/gmail|/auth/drive(?!\.file)|/auth/cloud-platform|"
                          r"/auth/admin\.|/auth/contacts|/auth/calendar(?!\.readonly)|^mail\.|^files\.\w+\.all|"
                          r"^sites\.|^directory\.|^user\.readwrite\.all|full_access|^ews\.|^mailboxsettings|"
                          r"^contacts\.readwrite|^repo$|^delete_repo$|^admin:|^write:org$|^workflow$|^files\.content\.|"
                          r"^channels:history$|^admin$)")
_SCOPE_SPLIT = re.compile(r"[\s+,]+")


@rule("confirm.nav.broad-consent", "an OAuth consent screen asking for a whole mailbox, drive or account",
      risk=Risk.HIGH, types=NAV, confidence=0.75)
def broad_consent(ctx: Context) -> CheckResult:
    """The URL opens an OAuth authorisation (`client_id` with `scope`) whose scopes give an app a whole
    mailbox, drive, directory, calendar or code account (`https://mail.google.com/`, `.../auth/drive`,
    `Mail.ReadWrite`, `Files.ReadWrite.All`, GitHub `repo` or `admin:org`): one click on Allow hands the app
    the account for as long as the token lives, with no password asked. Sign-in with `openid email
    profile` and a per-file drive scope do not ask. An admin-consent page (`/adminconsent`,
    `prompt=admin_consent`) grants it for every account of the organisation and asks too."""
    r = ctx.derived(reading)
    return _consent(r) if r is not None and r.parts.scheme in _WEB else None


def _consent(r: UrlReading) -> str | None:
    keys = {k.lower(): v for k, v in r.params}
    if "client_id" in keys and (r.parts.path.rstrip("/").lower().endswith("adminconsent") or
                                keys.get("prompt", "").lower() == "admin_consent"):
        return f"the page on {r.parts.host} grants an app consent for the whole organisation"
    if "client_id" not in keys or "scope" not in keys:
        return None
    broad = [s for s in _SCOPE_SPLIT.split(unquote(keys["scope"])) if s and _BROAD_SCOPE.search(s)]
    return f"the consent page on {r.parts.host} asks for {_short(', '.join(broad))}" if broad else None


# pages where a code shown on another device is typed in: whoever started the sign-in gets the session
_DEVICE_CODE_PAGES = frozenset({"microsoft.com/devicelogin", "aka.ms/devicelogin", "github.com/login/device",
                                "google.com/device", "login.microsoftonline.com/common/oauth2/deviceauth",
                                "login.live.com/oauth20_remoteconnect.srf", "microsoft.com/link"})


@rule("confirm.nav.device-code", "a code typed into a device sign-in page, handing a session to another device",
      risk=Risk.HIGH, types=("navigate", "type"), confidence=0.75)
def device_code(ctx: Context) -> CheckResult:
    """A code typed into a device-code sign-in page (`microsoft.com/devicelogin`, `github.com/login/device`,
    `google.com/device`, AWS `device.sso`), or a URL that carries one (`user_code=`): the code signs in whichever
    device asked for it, which in device-code phishing is the attacker's. Opening the page alone, and the
    provider's ordinary sign-in page, pass."""
    if ctx.action.type == "type":
        text = (ctx.action.text or "").strip()  # type: ignore[attr-defined]
        r = read_url(ctx.observation.url, ctx.compiled.cues) if ctx.observation.url and _DEVICE_CODE.match(text) \
            else None
        why = _device_page(r) if r is not None and r.parts.scheme in _WEB and r.parts.host else None
        return f"typing a code: {why}" if why else None
    r = ctx.derived(reading)
    if r is None or r.parts.scheme not in _WEB or not r.parts.host or \
            not any(k.lower() == "user_code" and v for k, v in r.params):
        return None
    return _device_page(r)


# what a device code looks like: letters and digits, in one to three groups (`WDJB-MJHT`, `FQK 29XZ`)
_DEVICE_CODE = re.compile(r"^[A-Za-z0-9]{3,12}(?:[- ][A-Za-z0-9]{3,12}){0,2}$")


def _device_page(r: UrlReading) -> str | None:
    host = r.parts.host[4:] if r.parts.host.startswith("www.") else r.parts.host
    page = f"{host}{r.parts.path.rstrip('/')}".lower()
    if page in _DEVICE_CODE_PAGES or host.startswith("device.sso.") or page.endswith("/oauth2/deviceauth") or \
            any(k.lower() == "user_code" for k, _ in r.params):
        return f"{page} is a device sign-in page: the code entered there signs in another device"
    return None


# what a button says when it approves a consent or a device sign-in
_APPROVE = re.compile(r"^(?:allow|accept|approve|authori[sz]e|grant|continue|confirm|yes|next|sign in|connect|"
                      r"install|agree|ok)\b", re.IGNORECASE)


@rule("confirm.nav.consent-click", "approving a broad OAuth consent or a device sign-in on its page",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def consent_click(ctx: Context) -> CheckResult:
    """A click on Allow, Accept, Continue or Authorize on the page `confirm.nav.broad-consent` or
    `confirm.nav.device-code` asks before opening (the observed page's URL): this click is the one that hands
    an app the mailbox, the drive or the organisation, or signs in someone else's device. Cancel and Deny, and
    the same buttons on an ordinary sign-in page, pass."""
    page = ctx.observation.url
    target = ctx.action.target
    if not page or target is None:
        return None
    label = (target.label or target.name or "").strip()
    if not label or not _APPROVE.match(label):
        return None
    r = read_url(page, ctx.compiled.cues)
    if r is None:
        return None
    why = _consent(r) or _device_page(r)
    return f"clicking {_short(label, 24)!r}: {why}" if why else None


# an OAuth or app-consent page, by its address: an authorisation endpoint of any identity provider
_CONSENT_PAGE = re.compile(r"(?i)(?:/oauth2?/(?:v2\.0/)?(?:authorize|auth|consent|approve)|/o/oauth2/|/signin/oauth|"
                           r"/login/oauth/authorize|/oauth/authorize|/oauth/v2/authorize|/authorize\b|/consent\b|"
                           r"/adminconsent|/oauth2/allow|/apps/install|/oauth/request_token)")
# what the consent hands over, in the words consent screens use: the whole mailbox (read, send, delete, manage),
# the files or the drive (in several languages); a calendar or the contacts alone ask (`confirm.gui.*`)
_MAIL_OR_FILES = re.compile(
    r"(?i)\b(?:(?:read|send|delete|manage|access|modify|write|view|move)\w*(?: \w+){0,5}? (?:(?:your|all|the|my) )?"
    r"(?:mail|e-?mails?|emails|mailbox(?:es)?|inbox|messages|mail settings)\b(?! address)|"
    r"(?:read|write|delete|manage|access|modify|edit|view)\w*(?: \w+){0,5}? (?:(?:your|all|the|my) )?"
    r"(?:files|documents|drive|onedrive|sharepoint|dropbox|google drive)\b|"
    r"full access to (?:your )?(?:mailbox|account|files|drive)|mail\.readwrite|mail\.send|files\.readwrite|"
    r"(?:lesen|senden|löschen|verwalten)\w*(?: \w+){0,4}? (?:ihre |deine )?(?:e-?mails?|nachrichten|dateien)|"
    r"(?:ihre|deine) (?:e-?mails?|nachrichten|dateien) (?:\w+ ){0,2}(?:lesen|senden|löschen|verwalten)|"
    r"(?:lire|envoyer|supprimer|gérer)\w*(?: \w+){0,4}? (?:vos |tes )?(?:e-?mails|courriels|messages|fichiers)|"
    r"(?:leer|enviar|eliminar|borrar|gestionar)\w*(?: \w+){0,4}? (?:tus |sus )?(?:correos|mensajes|archivos))")
_CONSENT_APPROVE = re.compile(r"^\W*(?:allow|accept|approve|authori[sz]e|grant|continue|confirm|yes|agree|install|"
                              r"trust|permit|zulassen|akzeptieren|autoriser|accepter|permitir|aceptar|consenti|"
                              r"accetta|permitir|toestaan)\b", re.IGNORECASE)


def _grants_mailbox(ctx: Context) -> str | None:
    page = ctx.observation.url
    target = ctx.action.target
    if not page or target is None:
        return None
    label = (target.label or target.name or "").strip()
    if not label or not _CONSENT_APPROVE.match(label):
        return None
    parts = split_url(page)
    if parts is None or parts.scheme not in _WEB or not _CONSENT_PAGE.search(parts.path[:300]):
        return None
    for text in (label[:400], (ctx.observation.page_text or "")[:3000]):
        m = _MAIL_OR_FILES.search(text) if text else None
        if m is not None:
            return f"clicking {_short(label, 40)!r} on the consent page on {parts.host} hands an app " \
                   f"{_short(m.group(0), 48)!r}"
    return None


@rule("block.nav.mailbox-consent-click", "approving an app's consent to read, send or delete mail or reach files",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def mailbox_consent_click(ctx: Context) -> CheckResult:
    """A click on Accept, Allow or Authorize on an OAuth or app-consent page (an identity provider's
    `/oauth2/v2.0/authorize`, `/o/oauth2/`, `/login/oauth/authorize`, `/consent`), where the button or the page
    says the app will read, send or delete the person's mail, or reach their files or drive.
    Consent phishing takes a mailbox this way without a password, and the token outlives a password change
    (Microsoft's and Google's guidance on illicit consent grants). The person's own choice to connect an app is
    theirs to make, not an agent's. Deny and Cancel, and a sign-in that asks only for the name and e-mail
    address (`openid email profile`), pass."""
    return ctx.derived(_grants_mailbox)


# person-to-person payment pages that take the payee from the path: with an amount in the link, opening it is one
# tap from sending that amount to whoever wrote it
_P2P_HOSTS = frozenset({"paypal.me", "www.paypal.me", "cash.app", "venmo.com", "account.venmo.com", "revolut.me",
                        "monzo.me", "paypal.com", "www.paypal.com"})
_P2P_AMOUNT = re.compile(r"(?i)^(?:[$£€]|usd|eur|gbp)?\d+(?:[.,]\d{1,2})?(?:[a-z]{3})?$")
_P2P_AMOUNT_KEYS = frozenset({"amount", "amt", "am", "value"})


@rule("confirm.nav.payment-link", "a person-to-person payment link with its amount filled in", risk=Risk.HIGH,
      types=NAV, confidence=0.8)
def payment_link(ctx: Context) -> CheckResult:
    """A PayPal.me, Cash App, Venmo, Revolut or Monzo link that names a person and fills in an amount
    (`paypal.me/name/250USD`, `venmo.com/name?txn=pay&amount=300`, `cash.app/$name/40`): the page it opens is
    one tap from sending that amount to whoever wrote the link. The same person's page without an amount, and
    the services' own home and help pages, do not ask. (`bitcoin:` and `upi:` payment links ask as external
    handlers.)"""
    r = ctx.derived(reading)
    if r is None or r.parts.host not in _P2P_HOSTS:
        return None
    segs = [s for s in r.parts.path.split("/") if s]
    if r.parts.host.endswith("paypal.com"):
        if not segs or segs[0].lower() != "paypalme":
            return None
        segs = segs[1:]
    amount = next((v for k, v in r.params if k in _P2P_AMOUNT_KEYS and _P2P_AMOUNT.match(v.strip())), "")
    if not amount and len(segs) >= 2 and _P2P_AMOUNT.match(segs[-1]):
        amount = segs[-1]
    if not amount or not any(ch in "123456789" for ch in amount) or not (segs or r.params):
        return None
    return f"a payment of {_short(amount, 16)} prepared on {r.parts.host}"


# a file name that shows one type and is another: a document's extension before an archive's
# (`invoice.pdf.zip`), or a right-to-left override that turns `photo\u202egnp.zip` into "photopiz.png" on screen
# (data compressors, .gz .xz .bz2, are left out: `data.csv.gz` and `log.txt.gz` are how data is shipped)
_DOCUMENT_EXT = frozenset({"pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "rtf", "odt", "jpg", "jpeg", "png",
                           "gif", "mp3", "mp4", "eml"})
_ARCHIVE_EXT = frozenset({"zip", "rar", "7z", "cab", "arj", "ace", "lzh", "lha", "r00", "uue", "img", "iso"})
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200f\u061c]")


@rule("confirm.nav.disguised-download", "a download whose name shows a document and is an archive",
      risk=Risk.HIGH, types=NAV, confidence=0.8)
def disguised_download(ctx: Context) -> CheckResult:
    """The URL's file name puts a document's or picture's extension before an archive's (`invoice.pdf.zip`,
    `scan.jpg.rar`), or holds a right-to-left override or another direction mark that reorders what is shown:
    malware feeds list these because the person sees a document and the archive holds the program.
    (Executables under any name ask as `confirm.web.executable-download`.) `report.pdf`, `photos-2024.zip` and
    `python-3.12.0.tar.gz` pass."""
    parts = split_url(ctx.action.url)  # type: ignore[union-attr]
    if parts is None or parts.scheme not in _WEB or not parts.path:
        return None
    name = parts.path.rstrip("/").rsplit("/", 1)[-1]
    if not name or "." not in name:
        return None
    if _BIDI.search(name):
        return f"the file name {name!r} holds a direction mark that reorders how it is shown"
    pieces = name.lower().split(".")
    if len(pieces) >= 3 and pieces[-1] in _ARCHIVE_EXT and pieces[-2] in _DOCUMENT_EXT:
        return f"{name!r} shows a .{pieces[-2]} and is a .{pieces[-1]} archive"
    return None


# the instance credential services under other names: the ECS task-role endpoint, AWS's internal host names, and
# wildcard DNS services that answer any name with the address written in it (`169.254.169.254.nip.io`)
_TASK_ROLE_IPS = frozenset({"169.254.170.2", "169.254.170.23", "fd00:ec2::23"})
_METADATA_IPS = _TASK_ROLE_IPS | {"169.254.169.254", "fd00:ec2::254", "100.100.100.200"}
_METADATA_NAMES = frozenset({"instance-data", "instance-data.ec2.internal", "metadata.google.internal.",
                             "metadata.azure.internal", "metadata.tencentyun.com", "metadata.packet.net"})
_IP_IN_NAME_DNS = re.compile(r"^(.+)\.(?:nip\.io|sslip\.io|xip\.io|traefik\.me|nip\.direct|ip\.addr\.tools)$")
_DOTTED = re.compile(r"(?:^|[.-])(\d{1,3}[.-]\d{1,3}[.-]\d{1,3}[.-]\d{1,3})$")


@rule("block.nav.metadata-by-name", "the cloud credential service reached by another name or address",
      risk=Risk.CRITICAL, types=NAV)
def metadata_by_name(ctx: Context) -> CheckResult:
    """The URL reaches a cloud instance's credential service by a road `block.web.metadata-endpoint` does not
    name: the container task-role endpoint (169.254.170.2), AWS's `instance-data` host name, or a wildcard DNS
    name that answers with the address written in it (`169.254.169.254.nip.io`, `169-254-169-254.sslip.io`).
    What it returns signs in as the machine (OWASP: server-side request forgery). A `nip.io` name for a
    device on the local network passes."""
    parts = split_url(ctx.action.url)  # type: ignore[union-attr]
    if parts is None or not parts.host:
        return None
    host = parts.host
    if host in _METADATA_NAMES or host.rstrip(".") in _METADATA_NAMES:
        return f"{host} is the cloud metadata service (instance credentials)"
    ip = ip_of(host)
    if ip is not None and str(ip) in _TASK_ROLE_IPS:
        return f"{host} is the container credential service (task-role keys)"
    m = _IP_IN_NAME_DNS.match(host)
    if m:
        d = _DOTTED.search(m.group(1))
        inner = d.group(1).replace("-", ".") if d else ""
        if inner in _METADATA_IPS:
            return f"{host} resolves to {inner}, the cloud metadata service"
    return None


@rule("block.nav.secret-on-hosted-page", "typing a password, card or code on a page nobody owns a site for",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def secret_on_hosted_page(ctx: Context) -> CheckResult:
    """A password, card number, security or one-time code or seed phrase typed on a page that
    `confirm.nav.hosted-page` or `confirm.nav.kit-path` would ask before opening: an IPFS page, a web page
    served from cloud storage, a brand's sign-in on a free site builder, a sign-in page inside a site's code or
    upload folders. No bank or mail provider signs people in there; the field is what the page was made for.
    Ordinary text typed there (a search, a name) and secrets typed on the brand's own site pass. The typed
    text is redacted."""
    page = ctx.observation.url
    if not page:
        return None
    parts = split_url(page)
    if parts is None or parts.scheme not in _WEB or not parts.host:
        return None
    text = ctx.action.text  # type: ignore[attr-defined]
    target = ctx.action.target
    field = " ".join(p for p in (target.label, target.name, target.role) if p).lower() if target else ""
    field = _NON_WORD.sub(" ", field)
    if not (_SECRET_FIELD.search(field) or (text and (find_sensitive(text) or
                                                     (len(text) <= 80 and password_shaped(text))))):
        return None
    why = _hosted(ctx, parts) or _kit(ctx, parts)
    return f"typing a secret on {why}" if why else None


# -- what the destination claims to be ------------------------------------------------------------------------------
# gate/destinations.py reads a host and its path against resources/destinations.toml: a brand's or an agency's name
# on a site that is not theirs, the words scam pages name themselves with, and the top-level names registered in
# bulk for them. Five rules say what it found for a navigation, two for a click or typing on such a page.


def _destination(url: str | None) -> Verdict | None:
    parts = split_url(url) if url else None
    if parts is None or parts.scheme not in _WEB or not parts.host:
        return None
    found = judge(parts.host, parts.path)
    if found is None and parts.scheme == "https" and parts.port in (None, 443) and _public_address(parts.host):
        # a certificate is for a name: a secure page at a bare public address on the default port is a throwaway
        # server's (a fake human check, a kit), where a person's own device or a lab is reached by name or port
        return Verdict("confirm", "lure-word", f"a secure page at the bare public address {parts.host}")
    return found


def _public_address(host: str) -> bool:
    ip = ip_of(host)
    return ip is not None and ip.is_global and str(ip) not in _RESOLVERS


# public resolvers whose own pages answer at their address
_RESOLVERS = frozenset({"1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4", "9.9.9.9", "149.112.112.112", "208.67.222.222",
                        "94.140.14.14", "2606:4700:4700::1111"})


def _nav_destination(ctx: Context) -> Verdict | None:
    return _destination(ctx.action.url)  # type: ignore[union-attr]


def _verdict(ctx: Context, kind: str) -> str | None:
    v = ctx.derived(_nav_destination)
    return v.why if v is not None and v.kind == kind else None


@rule("block.nav.brand-lure", "a brand's or an agency's name on another site, named or pathed with a lure",
      risk=Risk.CRITICAL, types=NAV, confidence=0.85)
def brand_lure(ctx: Context) -> CheckResult:
    """The host writes a bank's, a tax office's, a parcel carrier's, a marketplace's, an exchange's or another
    listed brand's name (`[brands.*]` of resources/destinations.toml) as a label or a hyphen-part of a site that is
    none of the brand's own, and its name or page says what the scam wants: verify, refund, claim, escrow,
    onboarding, redelivery, wallet sync (`[lures]`). Both together are what phishing, wallet-drain, fake-escrow and
    fake-job pages are. The brand's own domains and `<brand>.<country>` pass; a hosting platform's tenant
    (`<brand>.github.io`) counts only with the lure in its own name; at a bare public address, the brand's name in
    the path counts."""
    return _verdict(ctx, "brand-lure")


@rule("block.nav.brand-cheap-tld", "a distinctive brand's name on another site under a bulk-registered top-level name",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def brand_cheap_tld(ctx: Context) -> CheckResult:
    """A distinctive brand's name (not an everyday word: `[plain]`) as a hyphen-part or a label of a site under a
    top-level name abuse reports find registered in bulk for scams (`[tlds] abused`: `.top`, `.xyz`, `.cfd` ...):
    no bank, exchange or carrier puts its sign-in there. The same name elsewhere asks
    (`confirm.nav.brand-elsewhere`)."""
    return _verdict(ctx, "brand-cheap-tld")


@rule("confirm.nav.brand-elsewhere", "a brand's name on a site that is not the brand's", risk=Risk.HIGH, types=NAV,
      confidence=0.7)
def brand_elsewhere(ctx: Context) -> CheckResult:
    """A listed brand's name as a hyphen-part of another site's name (`<brand>-deals.example.com`), or an
    everyday-word brand or a bare label under an abused top-level name, with no lure word: it may be a fan site, a
    reseller or an impostor, so it asks. A brand's own project on a hosting platform and a company's own install of
    a product (`gitlab.example.com`) pass."""
    return _verdict(ctx, "brand-elsewhere")


@rule("block.nav.lure-words", "a site under a bulk-registered top-level name or a bare address named with two lures",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def lure_words_host(ctx: Context) -> CheckResult:
    """Two lure terms (`[lures]`: claim and airdrop, unlock and recover, refund and fine, in several languages) in
    the host's own name and its page's path, under an abused top-level name or at a bare public address: the way
    fund-recovery, airdrop, parcel-fee and account-unlock pages are named when they borrow no brand. Articles
    and documentation paths are not read."""
    return _verdict(ctx, "lure-words")


@rule("confirm.nav.lure-word", "a site under a bulk-registered top-level name named with a lure", risk=Risk.MEDIUM,
      types=NAV, confidence=0.6)
def lure_word_host(ctx: Context) -> CheckResult:
    """One lure term (`[lures]`) in the host's own name or its page's path, under an abused top-level name: a sign
    worth a look, not proof (real sites use those names too). The same words on any other top-level name pass. A
    secure (https) page at a bare public address on the default port asks too: certificates are for names, and
    fake human checks and kits are served so."""
    return _verdict(ctx, "lure-word")


@rule("confirm.nav.lure-compound", "a site whose name joins two sign-in or lure words", risk=Risk.MEDIUM, types=NAV,
      confidence=0.6)
def lure_compound(ctx: Context) -> CheckResult:
    """A host label that joins two sign-in words, or one with a lure (`login-secure`, `account-verify`,
    `support-update`, `[lures] signin` and `words` of resources/destinations.toml), on a site that is no listed
    brand's and under any top-level name: how credential-phishing hosts name themselves when they borrow no brand,
    per anti-phishing guidance. A real site may be named so, so it asks. One word (`login.example.com`,
    `support-portal`) passes; three words, or two with a lure at a sign-in page, block
    (`block.nav.lure-compound-signin`)."""
    return _verdict_at(ctx, "lure-compound", "confirm")


@rule("block.nav.lure-compound-signin", "a site whose name joins three sign-in or lure words, or two at a sign-in page",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def lure_compound_signin(ctx: Context) -> CheckResult:
    """A host label that joins three sign-in or lure words (`secure-login-verify`, `account-security-update`), or
    two with a strong lure (`account-verify`) opened at a sign-in page (`/login.php`, `/signin`, `/auth`): no
    business names its site that way; a credential kit's host does. Two words at any other page ask
    (`confirm.nav.lure-compound`)."""
    return _verdict_at(ctx, "lure-compound", "block")


def _verdict_at(ctx: Context, kind: str, level: str) -> str | None:
    v = ctx.derived(_nav_destination)
    return v.why if v is not None and v.kind == kind and v.level == level else None


@rule("block.nav.money-scheme", "an investment, trading or fund-recovery site's deposit, fee or withdrawal page",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def money_scheme(ctx: Context) -> CheckResult:
    """A site named for trading, profit, mining or getting lost money back (`[lures] scheme_stems` of
    resources/destinations.toml, also run together: `quantumprofit`, `fxtrade`, `coinrecovery`), opened at a page
    that takes money (`money_path`: deposit, withdraw, fee, unlock, register, pay), under an abused top-level name,
    or with two scheme words in a hyphenated name elsewhere. Consumer-protection guidance (FTC on investment and
    recovery scams, Action Fraud on investment fraud, IC3's crypto-investment alerts) describes exactly this: a
    platform that shows gains and then asks for a deposit, a "tax" or an unlock fee before a withdrawal. A broker's
    own site (no hyphenated scheme name) and the same site's other pages pass."""
    return _verdict_at(ctx, "money-scheme", "block")


@rule("confirm.nav.money-scheme", "a hyphenated investment or trading site's deposit, fee or withdrawal page",
      risk=Risk.HIGH, types=NAV, confidence=0.6)
def money_scheme_confirm(ctx: Context) -> CheckResult:
    """One scheme word (`[lures] scheme_core`: invest, trading, forex, profit, mining, recover) in a hyphenated
    site name under an ordinary top-level name, opened at a deposit, fee, withdrawal or sign-up page: real brokers
    rarely name themselves that way, some do, so it asks. Without a money path it passes."""
    return _verdict_at(ctx, "money-scheme", "confirm")


@rule("block.nav.fake-support-desk", "a help desk or customer-care site under a bulk-registered top-level name",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def fake_support_desk(ctx: Context) -> CheckResult:
    """The site's own name is a help desk's (`[lures] support_desk`: helpdesk, support-desk, customer-care,
    tech-support, help-center) under a top-level name abuse reports find registered in bulk (`.online`, `.site`,
    `.xyz`): the pages that tech-support and refund scams send people to, with a number to call or a remote-access
    download (FTC "tech support scams"). A company's help desk on its own domain (`helpdesk.example.com`) and a
    `helpdesk.` subdomain of another name pass here."""
    return _verdict_at(ctx, "support-desk", "block")


@rule("block.nav.lure-fee", "a lure-named site under a bulk-registered top-level name at a pay or fee page",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def lure_fee(ctx: Context) -> CheckResult:
    """One lure term (`[lures] words`) or a notice's word (`fee_notice`: toll, parcel, fine, tax, wallet) in the
    site's name under an abused top-level name, opened at a page that takes money (`money_path`: pay, fee,
    deposit, unlock, release): the unpaid-toll, parcel-fee, refund-fee and wallet-unlock texts all link to exactly
    that. The same name at any other page asks (`confirm.nav.lure-word`); the same path on an ordinary top-level
    name passes."""
    return _verdict_at(ctx, "lure-fee", "block")


@rule("block.nav.crisis-shop", "a site named for a crisis and what it sells, or for a crisis and a brand or an office",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def crisis_shop(ctx: Context) -> CheckResult:
    """The site's own name joins a crisis (`[crisis] topics` of resources/destinations.toml: a pandemic, an outbreak,
    stimulus payments) to what it sells or pays out (loans, test kits, masks, vaccines, a cure, refunds), also run
    together (`buy<crisis>test`, `<crisis>loansnow`) or in its top-level name (`<crisis>.loans`), or to a brand's or a
    public office's name (`<bank>7-<crisis>`, `<ride app><crisis>protection`): the names registered by the
    thousand in the weeks a crisis breaks, for fake shops, loan and relief pages (FTC, CISA and Europol alerts). The
    health bodies' own sites are under government names and pass."""
    return _verdict_at(ctx, "crisis-name", "block")


@rule("confirm.nav.crisis-name", "a site named for a crisis", risk=Risk.MEDIUM, types=NAV, confidence=0.6)
def crisis_name_confirm(ctx: Context) -> CheckResult:
    """The site's own name is a crisis's (`<crisis>-information`, `am-i-infected-with-<crisis>`) and sells nothing by
    its name: most such names were scams or parked for one, some are trackers or charities, so a person decides. A
    word that is the crisis only sometimes (`corona` is a beer too) counts beside a health word; a crisis page on
    another site (`news.example/<crisis>`) is not read."""
    return _verdict_at(ctx, "crisis-name", "confirm")


@rule("block.nav.machine-name", "a site whose name is words run into random hexadecimal", risk=Risk.CRITICAL,
      types=NAV, confidence=0.8)
def machine_name_block(ctx: Context) -> CheckResult:
    """The registrable name has several hyphen-parts, words beside random hexadecimal runs
    (`<word>-<word>4f0a2-<word>9c1e7-<digits>`, `[machine-names]` of resources/destinations.toml): a name made by a
    program, how tech-support-scam and malvertising kits register their fake virus-alert pages by the hundred.
    Machine-made names of cloud hosts sit under the provider's domain and are not read."""
    return _verdict_at(ctx, "machine-name", "block")


@rule("confirm.nav.machine-name", "a short site name with two random hexadecimal parts", risk=Risk.MEDIUM, types=NAV,
      confidence=0.6)
def machine_name_confirm(ctx: Context) -> CheckResult:
    """Two random runs in a registrable name of three parts (`<word>-7f3a9c-91b2e.<tld>`): made by a program, too
    short to be sure, so it asks."""
    return _verdict_at(ctx, "machine-name", "confirm")


@rule("block.nav.free-name-sign-in", "a sign-in page under a top-level name once given away free", risk=Risk.CRITICAL,
      types=NAV, confidence=0.8)
def free_name_sign_in(ctx: Context) -> CheckResult:
    """A sign-in, OAuth or password page (`/login`, `/signin`, `/oauth/authorize`) on a site under `.tk`, `.ml`,
    `.ga`, `.cf` or `.gq` (`[free-names] free_tlds`): those names were given away free and held most of the phishing
    names of their time; no bank or mail provider signs people in there."""
    return _verdict_at(ctx, "free-name", "block")


@rule("confirm.nav.free-name", "a free dynamic-DNS name, or a site under a top-level name once given away free",
      risk=Risk.MEDIUM, types=NAV, confidence=0.6)
def free_name_confirm(ctx: Context) -> CheckResult:
    """A name under a free dynamic-DNS zone (`[free-names] dynamic`: Duck DNS, No-IP's zones, Dynu, FreeDNS) points
    at whatever machine its owner likes, changed in a minute, and malware-hosting feeds are full of them; a site under
    a once-free top-level name is as cheap. It may be the person's own home server, so it asks. Developers' tunnels
    (ngrok, Cloudflare's quick tunnels) are not read here."""
    return _verdict_at(ctx, "free-name", "confirm")


@rule("confirm.nav.impossible-name", "a site name no registry issues", risk=Risk.MEDIUM, types=NAV, confidence=0.6)
def impossible_name_confirm(ctx: Context) -> CheckResult:
    """The site's own name, under a public top-level name, has an underscore (`my_site.com`): no registry issues
    such a name, so the address was made up (as the addresses planted instructions give are) or resolves only where
    someone arranged it. A service's name on the local network (`my_service`, `db_1.internal`) is not read."""
    return _verdict_at(ctx, "impossible-name", "confirm")


@rule("confirm.nav.hidden-service", "a Tor hidden service", risk=Risk.MEDIUM, types=NAV, confidence=0.7)
def hidden_service(ctx: Context) -> CheckResult:
    """The site is a Tor hidden service (`.onion`): who runs it is hidden by design, and the markets, leak sites and
    forums there are where stolen data, malware and worse are traded. A person may have their reasons, so it asks."""
    parts = split_url(ctx.action.url) if ctx.action.url else None  # type: ignore[union-attr]
    if parts is None or not parts.host.rstrip(".").endswith(".onion"):
        return None
    return f"{parts.host[:70]} is a Tor hidden service: who runs it is hidden by design"


def _sample(ctx: Context) -> tuple[str, bool] | None:
    parts = split_url(ctx.action.url) if ctx.action.url else None  # type: ignore[union-attr]
    if parts is None or parts.scheme not in (*_WEB, "ftp") or not parts.host:
        return None
    return malware_sample(parts.host, unquote(parts.path))


@rule("block.nav.malware-sample", "an archive or a program from a malware-sample collection on an unknown host",
      risk=Risk.CRITICAL, types=NAV, confidence=0.85)
def malware_sample_block(ctx: Context) -> CheckResult:
    """The URL fetches an archive or a program (`.zip`, `.7z`, `.exe`, `.js` ...: `[malware-samples] files` of
    resources/destinations.toml) from a host or a folder named for malware samples (`vx-archive-mirror.`,
    `/malware/`, `/stealers/`, `theZoo`), on a host that is no listed research collection: a mirror of live
    samples, or a dropper dressed as one. An agent has no task that needs a live sample, and a copy on an unknown
    host may not even be the sample. Research collections ask (`confirm.nav.malware-sample`); a project's
    `/samples/data.zip` and an antivirus vendor's installer (`malwarebytes`) pass."""
    got = ctx.derived(_sample)
    return got[0] if got is not None and not got[1] else None


@rule("confirm.nav.malware-sample", "a file from a malware research collection", risk=Risk.HIGH, types=NAV,
      confidence=0.75)
def malware_sample_confirm(ctx: Context) -> CheckResult:
    """The same fetch from a listed research collection (`[malware-samples] research`: MalwareBazaar, VirusShare,
    vx-underground): the file is live malware shared for analysis, so a person decides whether it is fetched onto
    this machine. Their report and search pages pass."""
    got = ctx.derived(_sample)
    return got[0] if got is not None and got[1] else None


def _agent_host(ctx: Context) -> tuple[str, bool] | None:
    r = ctx.derived(reading)
    parts = r.parts if r is not None else split_url(ctx.action.url)  # type: ignore[union-attr]
    if parts is None or parts.scheme not in _WEB or not parts.host or ip_of(parts.host) is not None:
        return None
    keys = frozenset(k for k, _ in r.params) if r is not None else frozenset()
    return agent_check_host(parts.host, keys)


@rule("block.nav.agent-check-host", "a site named for checking AI agents, given the agent's task or under a "
      "bulk-registered name", risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def agent_check_block(ctx: Context) -> CheckResult:
    """The host's own name joins a word for an AI agent with a check (`agent-verify`, `ai-checkpoint`,
    `botvalidate`: `[agent-check]` of resources/destinations.toml), and the link hands it the agent's task
    (`?task=checkout`, `?goal=`, `?instruction=`) or the name is under a top-level name registered in bulk. Ads
    and injected pages send agents to such "verification" pages to take over the task; no site checks an agent
    by its task. The same name under an ordinary top-level name with no task in the link (a product about
    agents), and a name with a single word (`agent.example.com`, `verify.example.com`), pass."""
    got = ctx.derived(_agent_host)
    return got[0] if got is not None and got[1] else None


# a click that leaves or refuses a page: never the step a scam page wants
_LEAVE = re.compile(r"^\W*(?:close|cancel|back|go back|exit|leave|dismiss|no thanks|not now|report(?: \w+)?|x|×|✕|"
                    r"decline|deny|reject|block|skip|"
                    # a call, a chat or a remote session ended: the way out of a "support" session
                    r"end (?:the |this )?(?:session|call|chat|meeting|remote session|support session|connection)|"
                    r"hang up|disconnect|stop sharing|leave (?:the )?(?:call|chat|meeting|session)|"
                    r"sitzung beenden|anruf beenden|auflegen|verbindung trennen|terminer la session|"
                    r"mettre fin à la session|raccrocher|finalizar (?:la )?sesión|terminar (?:la )?sesión|colgar|"
                    r"termina (?:la )?sessione|riaggancia|encerrar (?:a )?sessão|desligar|sessie beëindigen|"
                    r"ophangen|セッションを終了|通話を終了|切断|结束会话|结束通话|挂断|断开连接|"
                    # the same in other languages
                    r"abbrechen|schließen|zurück|annuler|fermer|retour|cancelar|cerrar|volver|fechar|voltar|"
                    r"annulla|chiudi|indietro|annuleren|sluiten|terug|キャンセル|閉じる|戻る|取消|关闭|關閉|返回|"
                    # a browser's dangerous-site warning: the way out
                    r"back to safety|go back to safety|leave (?:this )?site|close (?:this )?(?:tab|page)|"
                    r"get me out of here|take me back|zurück zur sicherheit|retour en lieu sûr|"
                    r"volver a un sitio seguro|volver a seguridad|torna in sicurezza|voltar à segurança|"
                    r"terug naar veilige pagina|安全なページに戻る|返回安全页面|返回安全網頁|"
                    r"안전한 페이지로 돌아가기)\W*$",
                    re.IGNORECASE)


def _page_destination(ctx: Context) -> Verdict | None:
    return _destination(action_url(ctx))


# what a scam page's form harvests besides a password or a card (gate/rules/web.py SECRET_FIELD): the details that
# reset an account or open a new one in the victim's name
_HARVEST_FIELD = Guarded(re.compile(r"\b(?:(?<!mail )(?<!ip )address|delivery details|shipping details|postcode|zip|"
                            r"identity|identit[eé]|identidad|identit[aä]t|security (?:question|answer)s?|"
                            r"date of birth|dob|birth ?date|"
                            r"mother s maiden|passport|driver s licen[cs]e|licen[cs]e number|national id|tax id|"
                            r"routing|iban|sort code|account number|bank|seed|recovery|phrase|wallet|private key|"
                            r"code|pin|ssn|sin|nino|social security|card|card number|credit card|debit card|cvv|cvc|"
                            r"expiry|expiration|karte|carte|tarjeta|cartão|carta)\b"))
# a payment card written with its expiry and code after it ("5555 5555 5555 4444 08/29 737")
_CARD_RUN = re.compile(r"^\s*(?:\d{4}[ -]?){3}\d{1,7}\b")


# the sign-in name a credential page asks for first (its password page follows): an e-mail address, a user name
_SIGNIN_FIELD = re.compile(r"\b(?:e ?mail|email address|user ?name|login|sign in|account|phone or email|"
                           r"apple id|microsoft account|correo|courriel|adresse e ?mail|e ?mail adresse|benutzername|"
                           r"nome utente|usuario|identifiant|логин|почта|メール|이메일|邮箱)\b")
_SIGNIN_NAME = re.compile(r"^\s*[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*$")


# a click that moves through a page or unfolds it, and does nothing there
_READ_ON = re.compile(r"^\W*(?:(?:scroll )?(?:down|up|left|right)(?: arrow)?|scroll(?: down| up)?|(?:show|read|see) "
                      r"more|more|expand|collapse|next page|previous page|page \d+)\W*$", re.I)


def _harvest(ctx: Context) -> bool:
    """The typing hands over what opens or resets an account: the field asks for it or the text is one; on a
    credential page the account's name (an e-mail address, or a name typed into its e-mail or user-name field) is
    the first half of the sign-in the kit collects."""
    target = ctx.action.target
    field = _NON_WORD.sub(" ", " ".join(p for p in (target.label, target.name, target.role) if p).lower()) \
        if target else ""
    text = ctx.action.text or ""  # type: ignore[attr-defined]
    return bool(_SECRET_FIELD.search(field) or _HARVEST_FIELD.search(field) or
                (text and (find_sensitive(text) or _CARD_RUN.match(text) or
                           (len(text) <= 80 and password_shaped(text)))) or
                (text and len(text) <= 120 and (_SIGNIN_NAME.match(text) or _SIGNIN_FIELD.search(field[:120]))))


def _acted_on(ctx: Context) -> str | None:
    """What the click or the typing does on the page ("clicking 'Connect wallet'", "typing"), None for leaving."""
    target = ctx.action.target
    label = " ".join(p for p in (target.label, target.name) if p).strip() if target else ""
    if ctx.action.type == "type":
        return f"typing into {_short(label, 32)!r}" if label else "typing"
    if label and _LEAVE.match(label):
        return None
    return f"clicking {_short(label, 32)!r}" if label else "a click"


@rule("block.nav.scam-page-action", "clicking, or typing a secret or identity details, on a page whose destination "
      "blocks", risk=Risk.CRITICAL, types=("click", "type"), redact=("text",), confidence=0.8)
def scam_page_action(ctx: Context) -> CheckResult:
    """A click on a page (the URL the action names, else the one observed) that opening would block as
    `block.nav.brand-lure`, `block.nav.brand-cheap-tld` or `block.nav.lure-words`, or typing there a password, a
    code, a card, an address, identity details, a wallet's phrase, or the account's sign-in name (an e-mail
    address, a name in the e-mail or user-name field: a credential kit's first page): whatever the agent
    approves, connects, signs or enters there goes to the impostor. Close, Cancel, Back and Report pass; other
    typing there asks (`confirm.nav.scam-page-action`). The typed text is redacted."""
    v = ctx.derived(_page_destination)
    if v is None or v.level != "block":
        return None
    if ctx.action.type == "type" and not _harvest(ctx):
        return None
    act = _acted_on(ctx)
    return f"{act} on a page that imitates or lures: {v.why}" if act else None


@rule("confirm.nav.scam-page-action", "clicking or typing on a page whose destination asks", risk=Risk.HIGH,
      types=("click", "type"), redact=("text",), confidence=0.65)
def scam_page_action_confirm(ctx: Context) -> CheckResult:
    """A click or typing on a page that opening would ask about as `confirm.nav.brand-elsewhere` or
    `confirm.nav.lure-word`, or ordinary typing (a name, an e-mail to look up) on a page that opening would block.
    Close, Cancel, Back and Report pass (in several languages), and so does scrolling or unfolding the page. The typed
    text is redacted."""
    v = ctx.derived(_page_destination)
    if v is None or (v.level != "confirm" and not (ctx.action.type == "type" and not _harvest(ctx))):
        return None
    if v.level == "confirm" and v.kind == "free-name":
        return None  # a free name is often the person's own server: opening it asked, its pages are theirs
    target = ctx.action.target
    if ctx.action.type == "click" and target is not None and target.label and _READ_ON.match(target.label):
        return None  # scrolling or unfolding the page only reads it
    act = _acted_on(ctx)
    return f"{act} on a page that may imitate another: {v.why}" if act else None


# -- phishing pages where nobody owns a site, brands where they do not belong -------------------------------------
# `[phishing]` of resources/destinations.toml: dynamic-DNS zones and tunnels, the sign-in and payment words of kits in
# several languages, webmail products, a fake download's tenant words, a brand glued to its own country domain, the
# run-together names of gift-code sites.
_PH = _DESTINATIONS["phishing"]
_DYN_DNS = frozenset(_PH["dynamic_dns"])
_PH_SIGNIN = frozenset(_PH["signin"])
_FINE_PAY = frozenset(_PH["fine_payment"])
_WEBMAIL = frozenset(_PH["webmail"])
_IMITATION = frozenset(_PH["imitation"])
_SHORT_NAMES: dict[str, str] = dict(_PH["short_names"])
_SPELLED = tuple(sorted(_PH["spelled_domains"], key=len, reverse=True))
_PH_GLUED = tuple(sorted(set(_PH["glued"]) | set(_DESTINATIONS["lures"]["glued"]), key=len, reverse=True))
_SCAM_VERBS = frozenset(_PH["scam_verbs"])
_SCAM_OBJECTS = frozenset(_PH["scam_objects"])
_SCAM_FILL = frozenset(_PH["scam_fillers"])
_PLAIN_TOKENS = frozenset(_DESTINATIONS["plain"]["tokens"])
_ALL_TOKENS = frozenset(t for table in _DESTINATIONS["brands"].values() for t in table)
# brands whose name alone says what a page imitates (an everyday word, `target`, `office`, does not)
_DISTINCT = frozenset(t for t in _ALL_TOKENS if t not in _PLAIN_TOKENS and len(t) >= 4) | _WEBMAIL
_AGENCIES = frozenset(t for t in _DESTINATIONS["brands"]["government"] if t not in _PLAIN_TOKENS)
# the agencies whose short name is also a word elsewhere (`dmv`, `nhs`, `fbi`): counted only as a whole hyphenated
# piece of a host beside a fine or fee word (`dmv-citation-pay`)
_PLAIN_AGENCIES = frozenset(t for t in _DESTINATIONS["brands"]["government"] if t in _PLAIN_TOKENS and len(t) >= 3)
_PH_WORD = re.compile(r"[^\W_]+")
_ARTICLE_SEGMENTS = frozenset({"posts", "post", "stories", "story", "press", "tags", "tag", "search", "category",
                               "insights", "research", "resources", "wiki"})
_DATE_SEGMENT = re.compile(r"^(?:19|20)\d\d$|^\d{1,2}$")  # a dated article's /2024/05/
_PAGE_FILE = frozenset({"php", "html", "htm", "shtml", "asp", "aspx", "jsp", "cgi", "xhtml"})
# the words an OAuth or single-sign-on route puts beside a provider's name (`/auth/google/callback`,
# `/login/google-oauth2/`): a site's own "sign in with" button, not an imitation
_ROUTE_WORDS = frozenset({"oauth", "oauth2", "openid", "oidc", "saml", "saml2", "sso", "callback", "auth", "connect",
                          "login", "signin", "complete", "redirect", "provider", "social", "with"})
# hosts whose paths hold other sites' addresses by design: archives, caches, translators, scanners
_ADDRESS_HOLDERS = frozenset({"archive.org", "archive.ph", "archive.today", "archive.is", "archive.li",
                              "googleusercontent.com", "urlscan.io", "virustotal.com", "phishtank.org",
                              "phishtank.com", "openphish.com", "urlhaus.abuse.ch", "abuse.ch", "similarweb.com",
                              "builtwith.com", "whois.com", "domaintools.com", "who.is", "isitdownrightnow.com",
                              "downforeveryoneorjustme.com", "downdetector.com", "web-check.xyz", "crt.sh"})
_DOMAIN_END = frozenset({"com", "net", "org", "fr", "de", "es", "it", "nl", "be", "uk", "jp", "br", "pt", "ca", "au",
                         "ch", "at", "pl", "us", "in", "mx", "ar", "co", "io", "eu", "gouv", "gov"})


def _joined(words: list[str]) -> set[str]:
    """The words, and every two or three neighbours written as one (`sign in` reads `signin`, `credit agricole`
    reads `creditagricole`)."""
    out = set(words)
    out.update(a + b for a, b in itertools.pairwise(words))
    out.update(a + b + c for a, b, c in zip(words, words[1:], words[2:], strict=False))
    return out


def _brand_words(ctx: Context) -> frozenset[str]:
    return _DISTINCT | ctx.compiled.brands.names


def _free_host(host: str) -> tuple[str, list[str]] | None:
    """(what kind of free host, the labels its tenant chose) for object storage, a site builder or app host, or a
    dynamic-DNS zone or tunnel; None for any other host."""
    labels = host.split(".")
    for i in range(1, len(labels) - 1):
        if ".".join(labels[i:]) in _DYN_DNS:
            return "dynamic-DNS", labels[:i]
    m = _STORAGE_HOST.search(host) or _BUILDER_HOST.search(host)
    if m is None:
        return None
    kind = "cloud-storage" if _STORAGE_HOST.search(host) else "free-hosting"
    tenant = host[: m.start()].split(".") if m.start() > 0 else []
    return kind, [t for t in tenant if t]


def _segments(path: str) -> list[str]:
    """The path's segments up to a documentation or article one (the rest is a title)."""
    out = []
    for seg in [s for s in unquote(path).split("/") if s][:10]:
        if seg.lower() in _DOC_SEGMENTS or seg.lower() in _ARTICLE_SEGMENTS:
            break
        out.append(seg)
    return out


def _page_file(segs: list[str]) -> bool:
    return bool(segs) and segs[-1].rpartition(".")[2].lower() in _PAGE_FILE and "." in segs[-1]


def _spelled_domain(seg: str) -> bool:
    """A segment written as a whole domain name (`www.bank.example.fr`, `Accounts.Brand.com`)."""
    labels = [x for x in seg.lower().split(".") if x]
    return len(labels) >= 3 and labels[-1] in _DOMAIN_END and all(_PH_WORD.fullmatch(x) or "-" in x for x in labels)


def _path_brand(segs: list[str], vocab: frozenset[str], *, bare: bool) -> str | None:
    """A brand named in a path segment as a compound (`mail-<brand>`, `<brand>_login`), in a whole domain name spelled
    as a segment (`secure.<brand>.com`), or, when `bare`, as a segment of its own; not beside the words of a site's
    own sign-in-with route (`/login/<brand>-oauth2/`)."""
    for seg in segs:
        if len(seg) > 80:
            continue
        stem = seg.rpartition(".")[0] if seg.rpartition(".")[2].lower() in _PAGE_FILE else seg
        words = _PH_WORD.findall(stem.lower())
        if not words or len(words) >= 6:
            continue  # an article's title
        hit = next((w for w in sorted(_joined(words)) if w in vocab), None)
        if hit is None:
            continue
        rest = [w for w in words if w not in hit]
        if _spelled_domain(stem):
            return hit
        if rest and not all(w in _ROUTE_WORDS or w.isdigit() for w in rest):
            return hit
        if bare and not rest:
            return hit
    return None


def _signin_in(words: set[str]) -> str | None:
    return next((w for w in sorted(words) if w in _PH_SIGNIN), None)


def _hosted_sign_in(ctx: Context, parts: UrlParts) -> str | None:
    """A sign-in, verification, payment or wallet page on a free host that names what it imitates: a web page in a
    bucket whose file name says sign in; a brand in a site builder's tenant name (not the brand's own bare
    `<brand>.github.io`) or in a dynamic-DNS page's path, beside a sign-in word."""
    if parts.scheme not in _WEB or not parts.host or ip_of(parts.host) is not None:
        return None
    free = _free_host(parts.host)
    if free is None:
        return None
    kind, tenant = free
    segs = _segments(parts.path)
    path_words = _joined(_PH_WORD.findall(" ".join(segs).lower()))
    signin = _signin_in(path_words)
    vocab = _brand_words(ctx)
    if kind == "cloud-storage":
        if signin and _page_file(segs):
            brand = _path_brand(segs, vocab, bare=True)
            named = f" for {brand!r}" if brand else ""
            return f"a {signin!r} page{named} served as a file from cloud storage at {parts.host}"
        return None
    brand = None
    for label in tenant:
        pieces = [p for p in label.split("-") if p]
        if len(pieces) > 1:
            brand = next((w for w in sorted(_joined(pieces)) if w in vocab), None)
            if brand is not None:
                break
    tenant_words = _joined([p for label in tenant for p in label.split("-") if p])
    signin = signin or _signin_in(tenant_words - {brand or ""})
    if brand is None and kind == "dynamic-DNS":
        brand = _path_brand(segs, vocab, bare=_page_file(segs))
    elif brand is None and _page_file(segs) and not any(_DATE_SEGMENT.match(s) or _title_segment(s) for s in segs):
        brand = _path_brand(segs[:-1], vocab, bare=True)  # a builder site's `/<brand>/login.html` folder
    if brand and signin:
        return f"a {signin!r} page for {brand!r} on the {kind} host {parts.host}"
    return None


@rule("block.nav.hosted-sign-in", "a brand's sign-in or payment page on a free host, or a sign-in page in a bucket",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def hosted_sign_in(ctx: Context) -> CheckResult:
    """A page on a host anyone names for free, that says what it imitates and that it takes a sign-in, a verification,
    a payment or a wallet (`[phishing] signin` of resources/destinations.toml, in several languages): an HTML page in
    object storage (`*.r2.dev`, S3, `storage.googleapis.com`, `*.blob.core.windows.net`) whose file name says sign in;
    a site-builder or app-host tenant (`github.io`, `vercel.app`, `web.app`, `netlify.app`) whose name joins a brand
    to other words, beside a sign-in word; a dynamic-DNS or tunnel host (`duckdns.org`, `ngrok-free.app`) whose page
    names a brand or a webmail. No bank or mail provider signs people in there. A brand's own bare
    `<brand>.github.io`, a project's docs and a sign-in-with route (`/auth/<provider>/callback`) pass."""
    r = ctx.derived(reading)
    parts = r.parts if r is not None else split_url(ctx.action.url)  # type: ignore[union-attr]
    return _hosted_sign_in(ctx, parts) if parts is not None else None


def _tenant_brand(ctx: Context, host: str) -> str | None:
    """A free host's tenant named for a brand's product page (`<brand>-suite`, `new-<brand>-app`, `fb-ads-<digits>`):
    a distinctive brand, or a brand's short name, beside a download, wallet or support word or a run of digits."""
    free = _free_host(host)
    if free is None or free[0] == "cloud-storage":
        return None
    vocab = _brand_words(ctx)
    for label in free[1]:
        pieces = [p for p in label.split("-") if p]
        if len(pieces) < 2:
            continue
        brand = next((w for w in sorted(_joined(pieces)) if w in vocab), None)
        plain = next((p for p in pieces if p in _PLAIN_TOKENS and len(p) >= 5), None) if brand is None else None
        short = next((p for p in pieces if p in _SHORT_NAMES), None) if brand is None and plain is None else None
        name = brand or plain or (_SHORT_NAMES[short] if short else None)
        if name is None:
            continue
        rest = [p for p in pieces if p not in (brand or plain or short or "") and (brand is None or p not in brand)]
        marks = sum(p in _IMITATION or (p.isdigit() and len(p) >= 5) for p in rest)
        if marks >= (2 if plain else 1):  # an everyday word (`ledger`) needs two: `<word>-live-app`
            return f"{host} names {name!r} beside {'-'.join(rest)!r} on the free host {registrable(host)}"
    return None


@rule("confirm.nav.hosted-brand-name", "a free host's site named for a brand's app, wallet or support page",
      risk=Risk.MEDIUM, types=NAV, confidence=0.65)
def hosted_brand_name(ctx: Context) -> CheckResult:
    """A tenant of a site builder, an app host or a dynamic-DNS zone whose name joins a brand (or its short name:
    `fb`, `ig`, `o365`) to the words of a fake download, wallet or support page (`suite`, `live`, `app`, `extension`,
    `support`, `ads`, a spelled top-level name) or a long run of digits: how fake wallet apps and "page appeal" forms
    are published. A brand's own bare project page (`<brand>.github.io`) and its docs (`<brand>-docs`) pass."""
    r = ctx.derived(reading)
    parts = r.parts if r is not None else split_url(ctx.action.url)  # type: ignore[union-attr]
    if parts is None or parts.scheme not in _WEB or not parts.host or ip_of(parts.host) is not None:
        return None
    return _tenant_brand(ctx, parts.host)


def _brand_path_sign_in(ctx: Context, parts: UrlParts) -> str | None:
    """A page file on a site that is none of the brand's whose path names a brand as a compound or a spelled domain
    (`/-/mail-<brand>/login/index.html`, `/secure.<bank>.fr/client/acces.php`) and says sign in or pay."""
    host = parts.host
    if parts.scheme not in _WEB or not host or ip_of(host) is not None or is_loopback(host) or own_site(host):
        return None
    reg = registrable(host)
    if reg in _ADDRESS_HOLDERS or reg in _CODE_HOSTS or site_label(host) in _SEARCH_ENGINES:
        return None
    segs = _segments(parts.path)
    if not _page_file(segs) or any((_title_segment(s) and not _spelled_domain(s)) or _DATE_SEGMENT.match(s)
                                   for s in segs) or host.split(".", 1)[0] in _DOC_HOST_LABELS:
        return None
    # the brand in a folder: a kit's own directory (a page named for the brand is as often an article's slug)
    brand = _path_brand(segs[:-1], _brand_words(ctx), bare=False)
    if brand is None or brand in site_label(host):
        return None
    signin = _signin_in(_joined(_PH_WORD.findall(" ".join(segs).lower())) - {brand})
    return f"{segs[-1]!r} on {host} names {brand!r} in its path and is a {signin!r} page" if signin else None


@rule("block.nav.brand-path-sign-in", "a sign-in page in the path of a site that is not the brand's",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def brand_path_sign_in(ctx: Context) -> CheckResult:
    """A page (`.php`, `.html`, `.aspx`) whose path writes a brand's or a webmail's name as a compound
    (`mail-<brand>`, `<brand>-online`) or inside a whole domain name spelled as a folder (`www.<brand>.com`), and
    says sign in, verify, account or pay (in several languages), on a site that is not the brand's: the folder a
    phishing kit is unpacked into on a broken-into site. Articles (a title slug, `/blog/`), sign-in-with routes
    (`/auth/<provider>/callback`), archives and scanners that hold other sites' addresses, and the brand's own
    site pass."""
    r = ctx.derived(reading)
    parts = r.parts if r is not None else split_url(ctx.action.url)  # type: ignore[union-attr]
    return _brand_path_sign_in(ctx, parts) if parts is not None else None


def _agency_in(word: str) -> str | None:
    """A government agency's token in one host or path word: the word itself, its letters swapped for look-alikes
    (`antal`, `1rs`), or glued to another word (`online<agency>`, `<agency>pay`)."""
    w = word.lower()
    if w in _AGENCIES:
        return w
    folded = w.translate(_FOLD_DIGITS)
    for agency in _AGENCIES:
        if len(agency) < 4:
            continue  # a short name (`irs`) counts only written whole
        if len(agency) == len(w) and folded.replace("l", "i") == agency.replace("l", "i"):
            return agency
        if len(agency) >= 5 and len(w) > len(agency) + 2 and (w.startswith(agency) or w.endswith(agency)):
            return agency
    return None


_FOLD_DIGITS = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t"})


def _agency_payment(parts: UrlParts) -> tuple[str, str, bool] | None:
    """(agency, payment word, named in the host) for a page that pays a fine, a toll or a fee to an agency on a host
    that is none of the government's."""
    host = parts.host
    if parts.scheme not in _WEB or not host or ip_of(host) is not None or is_loopback(host) or own_site(host):
        return None
    for label in host.split(".")[:-1]:
        pieces = label.split("-")
        if len(pieces) < 2:
            continue
        agency = next((p for p in pieces if p in _PLAIN_AGENCIES or _agency_in(p) is not None), None)
        fee = next((p for p in pieces if p in _FINE_PAY), None)
        if agency is not None and fee is not None:
            # `dmv-citation-pay.com`: the host itself names the agency and the fine it takes, at any page of it
            return _agency_in(agency) or agency, fee, True
    segs = _segments(parts.path)
    if any(_title_segment(s) for s in segs):
        return None
    path_words = _PH_WORD.findall(" ".join(segs).lower())
    pay = next((w for w in path_words if w in _FINE_PAY), None)
    if pay is None:
        return None
    for label in host.split(".")[:-1]:
        for piece in label.split("-"):
            agency = _agency_in(piece)
            if agency is not None:
                return agency, pay, True
    if _page_file(segs):
        agency = next((a for w in path_words if (a := _agency_in(w)) is not None), None)
        if agency is not None:
            return agency, pay, False
    return None


@rule("block.nav.agency-payment", "paying a government fine, toll or fee on a host that is not the government's",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def agency_payment(ctx: Context) -> CheckResult:
    """A tax office's, a fines agency's or a motoring agency's name (`[brands.government]`, also written with
    look-alike letters or glued to another word) in a host that is none of the government's, opened at a page that
    pays a fine, a toll, a fee or a tax (`paiement`, `amende`, `pay`, `multa`, `Bußgeld`, `toll`): the unpaid-fine
    text message's landing page; or a host whose hyphenated name joins the agency (its short name too: `dmv`) and
    such a word (`dmv-citation-pay.com`, `ezpass-toll.com`), at any page. Governments take payment on their own
    domains; the agency's own site and an article about the scam pass."""
    r = ctx.derived(reading)
    parts = r.parts if r is not None else split_url(ctx.action.url)  # type: ignore[union-attr]
    hit = _agency_payment(parts) if parts is not None else None
    if hit is None or not hit[2]:
        return None
    return f"{parts.host} names the agency {hit[0]!r} and its page takes a {hit[1]!r}"  # type: ignore[union-attr]


@rule("confirm.nav.agency-payment-path", "a page named for an agency's fine or fee on a host that is not the "
      "government's", risk=Risk.HIGH, types=NAV, confidence=0.7)
def agency_payment_path(ctx: Context) -> CheckResult:
    """A page file whose path names a government agency (`/<AGENCY>/paiement.php`) and a payment, on a host that is
    none of the government's and does not name the agency itself (`block.nav.agency-payment` does)."""
    r = ctx.derived(reading)
    parts = r.parts if r is not None else split_url(ctx.action.url)  # type: ignore[union-attr]
    hit = _agency_payment(parts) if parts is not None else None
    if hit is None or hit[2]:
        return None
    return f"a {hit[1]!r} page for the agency {hit[0]!r} on {parts.host}"  # type: ignore[union-attr]


_RUNS = re.compile(r"[a-z]+|\d+")


@functools.lru_cache(maxsize=2048)
def _unglued(label: str) -> str | None:
    """A label with a brand's name glued to everyday or domain words, hyphenated where they meet
    (`<brand>bankcojp` → `<brand>-bank-cojp`, `office03auth` → `office-03-auth`); None when it is no such thing."""
    if "-" in label:
        pieces = label.split("-")
        out = [_unglued(p) or p for p in pieces]
        return "-".join(out) if out != pieces else None
    runs = _RUNS.findall(label)
    if len(runs) > 1:  # letters and digits: split at the digits when a letter run is a brand or a glue word
        if any(r in _ALL_TOKENS or r in _PH_GLUED or r in _PH_SIGNIN for r in runs if not r.isdigit()):
            return "-".join(runs)
        return None
    tail = next((s for s in _SPELLED if label.endswith(s) and len(label) - len(s) >= 3), None)
    head = label[: -len(tail)] if tail else label
    words: list[str] = []
    while head and head not in _ALL_TOKENS:
        glue = next((g for g in _PH_GLUED if head.endswith(g) and len(head) - len(g) >= 3), None)
        if glue is None:
            break
        words.insert(0, glue)
        head = head[: -len(glue)]
    if head not in _ALL_TOKENS or (not tail and (head in _PLAIN_TOKENS or len(words) < 2)):
        return None  # a brand's own compound (`<brand>pay`) is its name; its address spelled after it is not
    return "-".join([head, *words, *([tail] if tail else [])])


def _glued_verdict(ctx: Context) -> Verdict | None:
    """The destination's verdict read with its glued brand names hyphenated."""
    parts = split_url(ctx.action.url) if ctx.action.url else None  # type: ignore[union-attr]
    if parts is None or parts.scheme not in _WEB or not parts.host or ip_of(parts.host) is not None:
        return None
    labels = parts.host.split(".")
    changed = [(_unglued(lbl) or lbl) for lbl in labels[:-1]]
    if changed == labels[:-1]:
        return None
    host = ".".join([*changed, labels[-1]])
    v = judge(host, parts.path)
    if v is None:
        return None
    return Verdict(v.level, v.kind, f"{parts.host} glues a brand's name to other words (read as {host}): {v.why}")


@rule("block.nav.glued-name", "a brand's name glued to its country domain or to sign-in words, with a lure",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def glued_name_block(ctx: Context) -> CheckResult:
    """A host label that runs a brand's name together with its own country domain (`<brand>cojp`, `<brand>comau`),
    with banking or account words (`<brand>bankcojp`), or with digits and a sign-in word (`<brand>03auth`), read as
    the hyphenated name it spells and judged like one (`block.nav.brand-lure`, `block.nav.brand-cheap-tld`): the
    site spells the brand's address inside its own name."""
    v = ctx.derived(_glued_verdict)
    return v.why if v is not None and v.level == "block" else None


@rule("confirm.nav.glued-name", "a brand's name glued to its country domain or to sign-in words", risk=Risk.HIGH,
      types=NAV, confidence=0.7)
def glued_name_confirm(ctx: Context) -> CheckResult:
    """The same glued host (`block.nav.glued-name`) where its hyphenated reading only asks
    (`confirm.nav.brand-elsewhere`, `confirm.nav.lure-compound`)."""
    v = ctx.derived(_glued_verdict)
    return v.why if v is not None and v.level == "confirm" else None


@functools.lru_cache(maxsize=2048)
def _scam_split(label: str) -> tuple[str, ...] | None:
    """`label` read wholly as gift-code words (`redeem`, `wallet`, `code`, `free`), or None."""
    best: list[tuple[str, ...] | None] = [None] * (len(label) + 1)
    best[0] = ()
    vocab = _SCAM_VERBS | _SCAM_OBJECTS | _SCAM_FILL
    for i in range(1, len(label) + 1):
        for j in range(max(0, i - 12), i):
            prev = best[j]
            if prev is not None and label[j:i] in vocab:
                cand = (*prev, label[j:i])
                if best[i] is None or len(cand) < len(best[i]):  # type: ignore[arg-type]
                    best[i] = cand
    return best[-1]


def _scam_glued(host: str) -> str | None:
    labels = host.split(".")
    if ip_of(host) is not None or len(labels) < 2 or own_site(host):
        return None
    site = site_label(host)
    words = _scam_split(site.replace("-", "")) if len(site) >= 8 else None
    if not words:
        return None
    if any(w in _SCAM_VERBS for w in words) and any(w in _SCAM_OBJECTS for w in words):
        return f"{host} is named {' '.join(words)!r}: what a gift-code or giveaway scam asks for and offers"
    return None


@rule("confirm.nav.scam-glued-name", "a site named for redeeming or claiming a gift, a code or a wallet",
      risk=Risk.MEDIUM, types=NAV, confidence=0.65)
def scam_glued_name(ctx: Context) -> CheckResult:
    """The site's own name is made only of what a gift-code, giveaway or airdrop scam asks and offers, run together or
    hyphenated: a verb (`redeem`, `claim`, `activate`, `unlock`, in several languages) and a prize (`gift`, `code`,
    `wallet`, `robux`, `voucher`): `redeemgiftcode`, `claim-free-robux`. A shop named for what it sells
    (`giftcards`) has no verb and passes; a brand's own redemption page (`redeem.<brand>.com`) is its site."""
    r = ctx.derived(reading)
    parts = r.parts if r is not None else split_url(ctx.action.url)  # type: ignore[union-attr]
    if parts is None or parts.scheme not in _WEB or not parts.host:
        return None
    return _scam_glued(parts.host)


# a button that signs in, continues or pays
_SIGN_IN_CLICK = re.compile(r"\b(?:sign ?in|log ?in|log ?on|login|signin|continue|next|proceed|verify|validate|"
                            r"confirm|submit|pay|pay now|checkout|unlock|restore|connect|import|authenticate|"
                            r"connexion|anmelden|iniciar|accedi|entrar|inloggen|valider|weiter|continuer|payer)\b")


def _phish_page(ctx: Context) -> str | None:
    """Why the page an action happens on (the URL it names, else the one observed) would block before opening as a
    phishing page: `block.nav.hosted-sign-in`, `block.nav.brand-path-sign-in`, `block.nav.agency-payment` or
    `block.nav.glued-name`."""
    page = action_url(ctx)
    parts = split_url(page) if page else None
    if parts is None or not parts.host or parts.scheme not in _WEB:
        return None
    why = _hosted_sign_in(ctx, parts) or _brand_path_sign_in(ctx, parts)
    if why is None and (hit := _agency_payment(parts)) is not None and hit[2]:
        why = f"{parts.host}, which names the agency {hit[0]!r} and takes a {hit[1]!r}"
    if why is None and (shape := url_shape(page)) is not None and shape.asks:
        if shape.blocks:
            why = f"a page shaped like phishing: {_shape_why(shape)}"
        elif shape.free_page and shape.credential is not None and (claimed := _title_brand(ctx)) is not None:
            why = f"a {shape.credential!r} page titled {claimed!r} served from {parts.host}: {_shape_why(shape)}"
    if why is None:
        labels = parts.host.split(".")
        changed = [(_unglued(lbl) or lbl) for lbl in labels[:-1]]
        if changed != labels[:-1] and (v := judge(".".join([*changed, labels[-1]]), parts.path)) is not None \
                and v.level == "block":
            why = f"{parts.host}, a brand's name glued to other words: {v.why}"
    return why


def _title_brand(ctx: Context) -> str | None:
    """A brand or a webmail the window's title names (`Sign in - <brand>`)."""
    title = ctx.observation.window_title
    if not title:
        return None
    words = _PH_WORD.findall(fold(title[:120]).lower())
    vocab = _brand_words(ctx)
    return next((w for w in sorted(_joined(words)) if w in vocab), None)


@rule("block.nav.hosted-sign-in-click", "signing in, paying or typing a secret on a phishing page",
      risk=Risk.CRITICAL, types=("click", "type"), redact=("text",), confidence=0.8)
def hosted_sign_in_click(ctx: Context) -> CheckResult:
    """A click that signs in, continues, verifies or pays, or typing a password, a card, a code, a wallet's phrase or
    the account's sign-in name, on a page that opening would block as `block.nav.hosted-sign-in` (a sign-in page in a
    bucket, a brand's sign-in on a free host), `block.nav.brand-path-sign-in`, `block.nav.agency-payment` or
    `block.nav.glued-name`, or `block.nav.url-shape` (a sign-in page through a tunnel, a brand on a dynamic-DNS name),
    or on a sign-in page served through a tunnel or a free host whose window title names a brand or a webmail
    (`/login.html` through a tunnel, titled as a mail provider's): the step the page exists for. Other typing (a
    search) and leaving pass. The typed text is redacted."""
    target = ctx.action.target
    label = " ".join(p for p in (target.label, target.name) if p) if target else ""
    if ctx.action.type == "type":
        if not _harvest(ctx):
            return None
    elif not _SIGN_IN_CLICK.search(_NON_WORD.sub(" ", fold(label[:200]).lower())):
        return None
    why = ctx.derived(_phish_page)
    act = "typing" if ctx.action.type == "type" else repr(label[:40])
    return f"{act} on {why}" if why else None



def _shaped_page(ctx: Context):  # -> gate.hostile_hosts.Shape | None
    page = action_url(ctx)
    return url_shape(page) if page else None


@rule("confirm.nav.shaped-page-action", "signing in, paying or typing a secret on a page shaped like phishing",
      risk=Risk.HIGH, types=("click", "type"), redact=("text",), confidence=0.7)
def shaped_page_action(ctx: Context) -> CheckResult:
    """A click that signs in, continues, verifies or pays, or typing a password, a card, a code or the account's
    sign-in name, on a page whose address opening would ask about for its shape (`confirm.nav.url-shape`: a sign-in
    page through a tunnel from someone's computer, a botnet panel's script, a government's or a bank's domain with
    one letter changed, a random key on a free host). Searching, reading and leaving pass; what would block is
    `block.nav.hosted-sign-in-click`. The typed text is redacted."""
    shape = ctx.derived(_shaped_page)  # (remembered per address: most pages have no shape, and that is cheap)
    if shape is None or not shape.asks:
        return None
    if ctx.action.type == "type":
        if not _harvest(ctx):
            return None
    else:
        target = ctx.action.target
        label = " ".join(p for p in (target.label, target.name) if p) if target else ""
        if not _SIGN_IN_CLICK.search(_NON_WORD.sub(" ", fold(label[:200]).lower())):
            return None
    act = "typing" if ctx.action.type == "type" else "signing in"
    return f"{act} on a page shaped like phishing: {_shape_why(shape)}"


# -- pages where a click changes what protects an account, its money or who may publish as it -----------------------
_PP = _DESTINATIONS["protected-pages"]
_BUREAUS = frozenset(_PP["bureaus"])
_BUREAU_WORDS = frozenset(_PP["bureau_words"])
_FREEZE_COMPOUNDS = tuple(_PP["compounds"])
_PAYMENT_FOLDERS = frozenset(_PP["payment_folders"])
_CARD_HOSTS = frozenset(_PP["card_hosts"])
_REGISTRIES = frozenset(_PP["registries"])
_ACCESS_FOLDERS = frozenset(_PP["access_folders"])
_CARD_CONTEXT = frozenset({"settings", "account", "accounts", "my", "myaccount", "billing", "wallet", "payments",
                           "payment", "profile", "manage", "finance", "banking"})
# a click that acts: places, lifts, creates, changes, removes, requires, publishes (its first words), in several
# languages; or, on a registry's access page, a choice of who may see or publish ("Public", "2FA not required")
_ACTS = re.compile(
    r"^(?:\w+ ){0,2}?(?:add|place|create|generate|issue|request|freeze|unfreeze|lift|thaw|remove|delete|cancel|close|"
    r"pause|unpause|lock|unlock|update|change|edit|save|submit|confirm|apply|enable|disable|turn (?:on|off)|set|"
    r"require|make|transfer|grant|invite|publish|unpublish|deprecate|link|connect|replace|extend|renew|reissue|"
    r"increase|raise|lower|limit|block|unblock|report|continue|yes|ok|"
    r"hinzufügen|erstellen|beantragen|sperren|entsperren|ändern|speichern|löschen|bestätigen|aufheben|"
    r"ajouter|créer|demander|bloquer|débloquer|modifier|enregistrer|supprimer|confirmer|lever|"
    r"añadir|agregar|crear|solicitar|congelar|descongelar|bloquear|desbloquear|cambiar|guardar|eliminar|confirmar|"
    r"adicionar|criar|solicitar|alterar|salvar|excluir|aggiungere|creare|richiedere|bloccare|sbloccare|modificare|"
    r"salvare|eliminare|toevoegen|aanmaken|aanvragen|blokkeren|wijzigen|opslaan|verwijderen|bevestigen)\b")
_ACCESS_CHOICE = re.compile(r"\b(?:public|private|internal|visibility|(?:not )?required|two factor|2fa|mfa|"
                            r"publish(?:ing)? access)\b")


def _protected_page(url: str) -> str | None:
    """What the page at `url` protects, when a click on it changes that: a credit bureau's freeze, lock or fraud-alert
    page (or such a page anywhere, named by its compound); a page of cards, payment methods, billing or payouts; a
    package registry's or a code host's page that sets who may publish or see."""
    parts = split_url(url)
    if parts is None or parts.scheme not in _WEB or not parts.host or is_loopback(parts.host):
        return None
    reg = registrable(parts.host)
    segs = [s.lower() for s in unquote(parts.path).split("/") if s][:12]
    words = [w for s in segs for w in _PH_WORD.findall(s.rsplit(".", 1)[0])]
    if reg in _BUREAUS and _BUREAU_WORDS.intersection(words):
        return f"{reg}'s credit freeze, lock or fraud-alert page"
    glued = "".join(words)
    if any(c in glued for c in _FREEZE_COMPOUNDS):
        return f"a credit freeze or fraud-alert page on {parts.host}"
    if reg in _REGISTRIES and len(segs) >= 2 and _ACCESS_FOLDERS.intersection(segs[1:]):
        folder = next(s for s in segs[1:] if s in _ACCESS_FOLDERS)
        return f"the {folder!r} page of a package or repository on {reg}"
    for i, seg in enumerate(segs):
        if seg in _PAYMENT_FOLDERS:
            return f"the {seg!r} page of an account on {parts.host}"
        if seg in ("cards", "card") and (reg in _CARD_HOSTS or i == 0 or _CARD_CONTEXT.intersection(segs[:i])):
            return f"the cards page of an account on {parts.host}"
    return None


@functools.lru_cache(maxsize=512)
def _protected_page_cached(url: str) -> str | None:
    return _protected_page(url)


@rule("confirm.nav.protected-page-action", "a click that acts on a credit freeze, a card, a payment method or a "
      "package's access page", risk=Risk.HIGH, types=("click",), confidence=0.7)
def protected_page_action(ctx: Context) -> CheckResult:
    """A click that places, lifts, creates, changes, removes or requires something (its first words, in several
    languages) on a page that protects an account (`[protected-pages]` of resources/destinations.toml): a credit
    bureau's freeze, lock or fraud-alert page ("Add a security freeze", "Lift a freeze"); a page of cards, payment
    methods, billing or payouts ("Create virtual card", "Remove card"); a package registry's or a code host's page
    that sets who may publish or see ("Update package settings", or a choice such as "Public" or "Two-factor
    authentication not required" on its access page). Reading, signing in, searching and leaving pass, and so does
    opening these pages."""
    url = action_url(ctx)
    target = ctx.action.target
    if not url or target is None:
        return None
    page = _protected_page_cached(url)
    if page is None:
        return None
    label = _NON_WORD.sub(" ", fold(" ".join(p for p in (target.label, target.name) if p)[:160]).lower()).strip()
    if not label or _LEAVE.match(label):
        return None
    acts = _ACTS.match(label) is not None
    if not acts and not ("package or repository" in page and _ACCESS_CHOICE.search(label)):
        return None
    return f"{target.label[:40]!r} on {page}"


# -- SMS lures: short links, brands beside service words, misspelt carriers and exchanges, hostile names ------------
# gate/hostile_hosts.py reads the host against `[short-links]`, `[brand-service]`, `[typo-squat]` and `[hostile-hosts]`
# of resources/destinations.toml.


def _web_parts(url: str | None) -> UrlParts | None:
    parts = split_url(url) if url else None
    return parts if parts is not None and parts.scheme in _WEB and parts.host else None


def _nav_web(ctx: Context) -> UrlParts | None:
    return _web_parts(ctx.action.url)  # type: ignore[union-attr]


def _brand_service_why(parts: UrlParts) -> tuple[str, bool] | None:
    """(why, at a sign-in or payment page) for a brand's name beside a service word on a site not the brand's."""
    hit = brand_service(parts.host)
    if hit is None:
        return None
    brand, word = hit
    words = _joined(_PH_WORD.findall(" ".join(_segments(parts.path)).lower()))
    signin = _signin_in(words)
    why = f"{parts.host} joins {brand!r} to {word!r} on a site that is not {brand}'s"
    return (f"{why}, at its {signin!r} page" if signin else why), bool(signin)


@rule("block.nav.brand-service-sign-in", "a sign-in or payment page on a site named for a brand's help or security",
      risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def brand_service_sign_in(ctx: Context) -> CheckResult:
    """A site whose own name joins a listed bank's, carrier's, telco's or other brand's name to a service, help or
    security word (`<bank>-assist`, `<bank>-helpservice`, `<bank>-user-protect`, `<brand>-support`,
    `<brand>-secure-login`: `[brand-service]` of resources/destinations.toml) and is not the brand's, opened at a
    sign-in, verification or payment page (`[phishing] signin`): the page SMS phishing sends people to. The same
    site's other pages ask (`confirm.nav.brand-service`)."""
    parts = ctx.derived(_nav_web)
    hit = _brand_service_why(parts) if parts is not None else None
    return hit[0] if hit is not None and hit[1] else None


@rule("confirm.nav.brand-service", "a site named for a brand's help, support or security that is not the brand's",
      risk=Risk.HIGH, types=NAV, confidence=0.7)
def brand_service_site(ctx: Context) -> CheckResult:
    """A site whose own name joins a listed brand's name to a service, help or security word
    (`<bank>-assist.com`, `<telco>-helpservice.net`) and is none of the brand's own domains: a brand has no help
    desk under someone else's name. A brand's own sites and its venues or plumbing (`<brand>-arena`,
    `<brand>-analytics`) pass."""
    parts = ctx.derived(_nav_web)
    hit = _brand_service_why(parts) if parts is not None else None
    return hit[0] if hit is not None and not hit[1] else None


@rule("block.nav.mining", "a crypto-mining pool's address, or a miner program's download", risk=Risk.CRITICAL,
      types=NAV, confidence=0.85)
def mining_block(ctx: Context) -> CheckResult:
    """The URL reaches a mining pool (a `stratum+tcp://` address, a listed pool's domain, a host that joins a pool
    word to a coin such as `xmrpool.` or `monero-pool.`, a host named for mining on a pool's port) or fetches a
    miner (xmrig and its peers: their release pages, their archives, their own sites; `[mining]` of
    resources/destinations.toml). That is how cryptojacking starts: the machine works for someone else. Pages
    about mining (an encyclopedia's, a coin's own site, a wallet's releases) pass."""
    got = mining(ctx.action.url or "")  # type: ignore[union-attr]
    return got[0] if got is not None and got[1] else None


@rule("confirm.nav.miner-repository", "a miner program's repository page", risk=Risk.HIGH, types=NAV, confidence=0.7)
def miner_repository(ctx: Context) -> CheckResult:
    """A page of a miner's repository that hands out no program (its readme, its issues): a person decides; its
    releases and archives block (`block.nav.mining`)."""
    got = mining(ctx.action.url or "")  # type: ignore[union-attr]
    return got[0] if got is not None and not got[1] else None


@rule("block.nav.product-front", "a product's name in front of a generic download or sign-in site", risk=Risk.CRITICAL,
      types=NAV, confidence=0.8)
def product_front_block(ctx: Context) -> CheckResult:
    """The host puts a product's name as a subdomain of a registered name that only says "download an app" or "sign
    in to a hosted copy" (`<product>-browser.app-download.<tld>`, `<product>.selfhost-login.<tld>`; `[product-front]`
    of resources/destinations.toml): whoever owns that name made the subdomain, and no vendor ships its installer
    or its sign-in page so. A vendor's own download host (`download.<vendor>.org`) and the generic site's own
    `www.` pass."""
    parts = ctx.derived(_nav_web)
    got = product_front(parts.host) if parts is not None else None
    return f"{parts.host} names {got[0]!r} in front of {got[1]}" if got is not None and parts is not None else None


_WALLET_WORDS = frozenset(_DESTINATIONS["typo-squat"]["wallet_words"])
_CARRIERS = frozenset(_DESTINATIONS["typo-squat"]["carriers"])


@rule("block.nav.typo-wallet", "a misspelt exchange's or wallet's name with a wallet-connect or sign-in word, or on "
      "an odd port", risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def typo_wallet(ctx: Context) -> CheckResult:
    """The site's own name misspells a crypto exchange's, a wallet's or a trading app's name (`[typo-squat]` of
    resources/destinations.toml) and a subdomain or the first folder says what a drainer asks for (`connect.`,
    `/wallet/`, `/claim`: `wallet_words`), or the page is served on a port no exchange uses: a fake sign-in or a
    wallet drainer. The misspelling alone asks (`confirm.nav.carrier-typo`)."""
    parts = ctx.derived(_nav_web)
    if parts is None:
        return None
    brand = typo_squat(parts.host)
    if not brand or brand in _CARRIERS:
        return None
    site = registrable(parts.host)
    subs = parts.host[: -len(site)].rstrip(".").split(".") if parts.host != site else []
    first = next((s.lower() for s in parts.path.split("/") if s), "")
    said = next((w for w in (*subs, first) if w in _WALLET_WORDS), None)
    if said is None and parts.port not in (None, 80, 443):
        said = f"port {parts.port}"
    return f"{parts.host} misspells {brand}, with {said!r}" if said else None


@rule("confirm.nav.carrier-typo", "a site named with a parcel carrier's or a crypto exchange's name misspelt",
      risk=Risk.HIGH, types=NAV, confidence=0.7)
def carrier_typo(ctx: Context) -> CheckResult:
    """The site's own name is a parcel carrier's or a crypto exchange's name with one letter swapped, added,
    dropped or changed (`[typo-squat]` of resources/destinations.toml; a seven-letter name also with two letters
    changed); a short carrier name (`dhl`, `ups`) only beside a parcel word: the hosts of "your parcel is held" and
    "your withdrawal is pending" SMS. The brands' own domains pass."""
    parts = ctx.derived(_nav_web)
    brand = typo_squat(parts.host) if parts is not None else None
    return f"{parts.host} misspells {brand}" if brand and parts is not None else None


_DEFENCE = frozenset(_DESTINATIONS["hostile-hosts"]["defence"])
_DEFENCE_LONG = tuple(sorted((w for w in _DEFENCE if len(w) >= 4), key=len, reverse=True))


_LABEL_PARTS = re.compile(r"[-_]")  # the hyphen- and underscore-parts of a host's label


def defended(host: str, word: str) -> bool:
    """The label that holds the hostile word also names the defence against it (`phishing-detect`, `antiphishing`,
    `malware-scanner`, `phishcheck`): a site that checks, lists or reports such hosts, not one of them."""
    word = word.lower().replace("-", "")
    for label in host.lower().split(".")[:-1]:
        glued = label.replace("-", "").replace("_", "")
        at = glued.find(word)
        if at < 0:
            continue
        if any(p in _DEFENCE for p in _LABEL_PARTS.split(label) if p and word not in p):
            return True
        rest = (glued[:at], glued[at + len(word):])
        if any(rest[0].endswith(d) or rest[1].startswith(d) or rest[1].removeprefix("ing").startswith(d)
               for d in _DEFENCE_LONG) or rest[0] in _DEFENCE:
            return True
    return False


@rule("confirm.nav.hostile-host", "a site whose name says it is an attacker's, a malware's or a C2 server",
      risk=Risk.HIGH, types=NAV, confidence=0.75)
def hostile_host_nav(ctx: Context) -> CheckResult:
    """A host whose label or label part is one of the words test suites, detection rules and write-ups name an
    attacker's server with (`evil.com`, `attacker-h9.example`, `malware.example`, `c2.example.net`, `exfil.`:
    `[hostile-hosts]` of resources/destinations.toml). A page about the "evil twin" attack, the word in a
    security blog's path or a repository's name, and security projects (`exploit-db.com`, `pwn.college`) pass, and
    so does a site named for the defence beside the word (`phishing-detect`, `anti-phishing-list`, `malwarescan`)."""
    parts = ctx.derived(_nav_web)
    word = hostile_host(parts.host) if parts is not None else None
    if not word or parts is None or defended(parts.host, word):
        return None
    return f"{parts.host} names itself hostile ({word})"


# gate/hostile_hosts.py `url_shape` reads a link's shape alone against `[url-shape]` of resources/destinations.toml.


def _shape(ctx: Context):  # -> gate.hostile_hosts.Shape | None
    return url_shape(ctx.action.url)  # type: ignore[union-attr]


def _shape_why(shape) -> str:
    return "; ".join(shape.signs)


@rule("block.nav.url-shape", "a link shaped like a phishing page that names a brand, a sign-in or a company's "
      "single sign-on", risk=Risk.CRITICAL, types=NAV, confidence=0.75)
def url_shape_block(ctx: Context) -> CheckResult:
    """A link whose shape alone asks (`confirm.nav.url-shape`) and that names a brand on a site not the brand's (in
    its subdomain or path, or inside a run-together file name on a storage host: `.../<...>fedex.html`), or a page
    file on a host anyone publishes on whose path takes a sign-in, an account or a payment (`/<...>/login.html` on
    `*.web.app`); or a site named for a company's single sign-on (`<company>-okta.com`, `<company>-sso.net`,
    `sso-<company>.net`: the portals of help-desk phishing). A company's own `<company>.okta.com` tenant passes."""
    shape = ctx.derived(_shape)
    if shape is None or not shape.blocks:
        return None
    if shape.idp is not None:
        return _shape_why(shape)
    named = f"it names {shape.brand!r}" if shape.brand else f"its page takes a {shape.credential!r}"
    return f"{_shape_why(shape)}, and {named}"


@rule("confirm.nav.url-shape", "a link shaped like phishing, scam or malware delivery", risk=Risk.HIGH, types=NAV,
      confidence=0.65)
def url_shape_confirm(ctx: Context) -> CheckResult:
    """A link whose shape, read without its page, is what phishing and spam feeds list (`[url-shape]` of
    resources/destinations.toml), on a host the gate has no name for: two points of shape, or one beside a sign of
    its host. Shape: a web page file or a published script (`/macros/s/<id>/exec`) on object storage (two points) or
    on an app host or site builder (one); a random token as the whole path of an unknown site (two) or in its path
    or a query value (one, never enough beside a host's sign alone: shops' ids); a click-tracking folder (`/track/`,
    `/cl/`) before a token (one) or a run of ids (two); an affiliate network's redirect (`?a=&oc=&c=&s1=`, two); a
    PHP script fed a random key (two); a mailbox's address in base64 (two), or plainly given to a sign-in page file
    (two); a web page named as a document (`.pdf.html`, two); plain letters spelt in percent escapes (two); an
    archive named as an invoice or a scan from storage, a file drop, an upload folder or a cheap name (two); a site
    named for a fee at its fee page; a sign-in page through a tunnel from someone's computer (`trycloudflare.com`,
    `loclx.io`); a brand spelled with digits on a dynamic-DNS or tunnel name (two), an unusual port there (one, never
    enough alone: a home server's); a botnet panel's check-in script (`gate.php`), a script in a content system's
    style-sheet, picture or upload folder, or a WordPress plugin or theme folder named for a brand (two); a program, a
    disk image, a document with macros or an archive named as a delivery, an invoice or a number on a site with no
    name, or a screensaver, HTML application, script or shortcut by any name (two); a government's or a bank's domain
    with one letter changed (two; it blocks with a sign-in word); a kit's first page in a folder named for a brand
    (two; one for the bare folder); an app host's tenant named for signing in, at a sign-in page or a page file
    (two). Host: a bulk-registered top-level name (`.shop`, `.top`, `.sa.com`), a bare
    address, punycode, a name of many hyphens or digits, a tenant of a tunnel or a dynamic-DNS zone. Brands' own
    sites, big sites with long ids (documents,
    products, videos, searches), hexadecimal hashes, slugs of words with an id, tokens of sign-in and reset links,
    this machine and private networks pass."""
    shape = ctx.derived(_shape)
    if shape is None or not shape.asks or shape.blocks:
        return None
    return _shape_why(shape)


def _lure_page(ctx: Context) -> str | None:
    """Why the page an action happens on is an SMS lure's: a short link's own page, a brand's help-named site, a
    misspelt carrier or exchange, a hostile-named host."""
    parts = _web_parts(action_url(ctx))
    if parts is None:
        return None
    hit = _brand_service_why(parts)
    if hit is not None:
        return hit[0]
    why = short_link(parts.host, parts.path)
    if why is not None:
        return why
    brand = typo_squat(parts.host)
    if brand is not None:
        return f"{parts.host} misspells {brand}"
    word = hostile_host(parts.host)
    return f"{parts.host} names itself hostile ({word})" if word else None


@rule("block.nav.lure-page-entry", "typing a password, a card or identity details on an SMS lure's page",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def lure_page_entry(ctx: Context) -> CheckResult:
    """Typing a password, a code, a card, a tax or identity number or an address on a page served at a short link's
    own host, on a site named for a brand's help or security, on a misspelt carrier's or exchange's site, or on a
    host named as hostile (`confirm.web.shortened-link`, `confirm.nav.brand-service`, `confirm.nav.carrier-typo`,
    `confirm.nav.hostile-host`): what is typed goes to whoever made the lure. An e-mail address typed there asks
    (`confirm.nav.lure-page-action`). The typed text is redacted."""
    if not _harvest(ctx):
        return None
    text = ctx.action.text or ""  # type: ignore[attr-defined]
    if _SIGNIN_NAME.match(text):
        return None
    why = ctx.derived(_lure_page)
    return f"typing a secret or identity details on {why}" if why else None


@rule("confirm.nav.lure-page-action", "clicking or typing on an SMS lure's page", risk=Risk.HIGH,
      types=("click", "type"), redact=("text",), confidence=0.7)
def lure_page_action(ctx: Context) -> CheckResult:
    """A click (a sign-in, a verify, a pay button) or typing on a page whose host is a short link's, a brand's
    help-named site, a misspelt carrier or exchange, or named as hostile. Close, Cancel, Back and Report pass."""
    why = ctx.derived(_lure_page)
    if why is None:
        return None
    act = _acted_on(ctx)
    return f"{act} on a page that may be a lure: {why}" if act else None

# -- phishing kits' host names and big providers' sign-in pages elsewhere --------------------------------------------
# gate/phish_hosts.py reads the host word by word against `[phish-host]` of resources/destinations.toml.


def _kit_finding(url: str | None) -> Finding | None:
    parts = split_url(url) if url else None
    if parts is None or parts.scheme not in _WEB or not parts.host:
        return None
    return provider_sign_in(parts.host, parts.path, parts.query) or kit_host(parts.host)


def _nav_kit(ctx: Context) -> Finding | None:
    return _kit_finding(ctx.action.url)  # type: ignore[union-attr]


def _page_kit(ctx: Context) -> Finding | None:
    return _kit_finding(action_url(ctx))


def _page_title_claim(ctx: Context) -> Finding | None:
    title = ctx.observation.window_title
    parts = split_url(action_url(ctx) or "") if title else None
    if parts is None or parts.scheme not in _WEB or not parts.host:
        return None
    return title_claim(parts.host, title)


def _provider_nav(ctx: Context) -> Finding | None:
    parts = _nav_web(ctx)
    return provider_sign_in(parts.host, parts.path, parts.query) if parts is not None and parts.host else None


@rule("block.nav.provider-sign-in-elsewhere", "a big provider's sign-in page, or its sign-in host's name, on a site "
      "that is not the provider's", risk=Risk.CRITICAL, types=NAV, confidence=0.85)
def provider_sign_in_elsewhere(ctx: Context) -> CheckResult:
    """Google's `/ServiceLogin` or `/signin/v2/`, Microsoft's `/common/oauth2/` or `login.srf`, Apple's `/appleauth/`,
    PayPal's `/cgi-bin/webscr`, Amazon's `/ap/signin` ... on a host that is not the provider's, or the provider's
    sign-in host written in front of another domain (`accounts.google.<elsewhere>`): a copy of its sign-in page.
    The providers' own domains, this machine and private names pass."""
    f = ctx.derived(_provider_nav)
    return f.why if f is not None and f.level == "block" else None


@rule("confirm.nav.provider-sign-in-host", "a sign-in host shaped like a big provider's, in front of another domain",
      risk=Risk.HIGH, types=NAV, confidence=0.75)
def provider_sign_in_host(ctx: Context) -> CheckResult:
    """`accounts.g.<elsewhere>`, `login.ms.<elsewhere>`: a sign-in label followed by a provider's short name, on a
    domain that is not the provider's. The short name may be something else's: asks."""
    f = ctx.derived(_provider_nav)
    return f.why if f is not None and f.level == "confirm" else None


@rule("block.nav.kit-host", "a host named like a phishing kit's: a brand beside account words, a coin giveaway, "
      "account words stacked or on a free host", risk=Risk.CRITICAL, types=NAV, confidence=0.8)
def kit_host_block(ctx: Context) -> CheckResult:
    """A brand, written whole, short (`amz`) or with digits for letters (`app1e`), beside account or security words
    in the host of a site that is not the brand's (`accountservice-amz.<dyn-dns>`, `amazon.verificationalert...`);
    a coin beside a giveaway (`eth-giveaway`, `btc-doubler`); four account words stacked with a warning among them;
    a dynamic-DNS or free host's site named with a warning and another account word. A wallet maker's name on
    another domain beside a lure. Brands' own domains and a home server's plain name pass."""
    f = ctx.derived(_nav_kit)
    return f.why if f is not None and f.level == "block" and ctx.derived(_provider_nav) is None else None


@rule("confirm.nav.kit-host", "a host named with account words run together or stacked, a wallet maker's name "
      "elsewhere, or an airdrop", risk=Risk.HIGH, types=NAV, confidence=0.7)
def kit_host_confirm(ctx: Context) -> CheckResult:
    """Account and security words run together or stacked in front of another site (`service-account.<...>`,
    `<...>lockedappservice`), a brand beside one of them, a wallet maker's name on another domain or misspelt, an
    airdrop or a wallet's "fix" in a site's name, a coin wallet's name under a bulk-registered top-level name, a coin
    or a token standard beside a transfer, bridge, swap, mint, revoke or eligibility check (`bnb-transfer`,
    `erc20-bridge`), a project's airdrop (`<project>airdrop`), two approval checker's words (`revoke-approvals`): the
    shapes kits take without one brand's exact name. Asks: an ordinary site may be named so; on a bulk-registered
    top-level name or a free website host a coin lure blocks. A wallet maker's own account pages
    (`<maker>.github.io`) pass."""
    f = ctx.derived(_nav_kit)
    return f.why if f is not None and f.level == "confirm" and ctx.derived(_provider_nav) is None else None


_KIT_SECRET_FIELD = re.compile(r"\b(?:mnemonic|keystore|secret (?:recovery )?phrase|wallet phrase|backup phrase|"
                               r"passphrase|\d{2} ?word|private ?key|seed|kennwort|passwort|geheimzahl|mot de passe|"
                               r"contrase(?:ñ|n)a|senha|wachtwoord|codice|c(?:ó|o)digo|tan|cvv2|expir\w*|"
                               r"atm|security (?:question|answer)|date of birth|birth ?date|birthday|geburtsdatum|"
                               r"date de naissance|fecha de nacimiento|maiden name)\b")
_KIT_CLICK = re.compile(r"\b(?:sign ?in|log ?in|log ?on|login|signin|continue|next|proceed|verify|validate|confirm|"
                        r"submit|pay|checkout|unlock|restore|connect|import|authenticate|claim|access|update|send|"
                        r"secure|recover|sync|accept|get|join|buy|unlock|connexion|anmelden|iniciar|accedi|entrar|"
                        r"inloggen|valider|weiter|continuer|payer|continuar|verificar|transfer|mint|swap|bridge|"
                        r"revoke|approve|withdraw|stake|migrate|rectify|sign)\b")


def _kit_secret(ctx: Context) -> bool:
    target = ctx.action.target
    field = _NON_WORD.sub(" ", " ".join(p for p in (target.label, target.name, target.role) if p).lower()) \
        if target else ""
    text = ctx.action.text or ""  # type: ignore[attr-defined]
    return bool(_SECRET_FIELD.search(field) or _KIT_SECRET_FIELD.search(field) or
                (text and (find_sensitive(text) or _CARD_RUN.match(text) or
                           (len(text) <= 80 and password_shaped(text)))))


@rule("block.nav.kit-host-secret", "typing a password, card, PIN, code or wallet secret on a phishing kit's host, "
      "or signing in there", risk=Risk.CRITICAL, types=("click", "type"), redact=("text",), confidence=0.8)
def kit_host_secret(ctx: Context) -> CheckResult:
    """On a page whose host opening would ask or block as a kit's (`confirm.nav.kit-host`, `block.nav.kit-host`,
    the provider sign-in rules): typing a password, a card number, a PIN, a one-time code, a seed phrase or a private
    key is what the page collects; a sign-in, continue or verify click on a page that would block is the same step.
    A secret typed on a page whose window title is a big provider's sign-in page's (`Sign in - Google Accounts`,
    `Manage your Apple ID`) on a host that is not the provider's blocks too. The typed text is redacted."""
    f = ctx.derived(_page_kit)
    if f is None:
        if ctx.action.type == "type" and (t := ctx.derived(_page_title_claim)) is not None and _kit_secret(ctx):
            return f"typing a secret on {t.why}"
        return None
    if ctx.action.type == "type":
        return f"typing a secret on {f.why}" if _kit_secret(ctx) else None
    target = ctx.action.target
    label = " ".join(p for p in (target.label, target.name) if p) if target else ""
    if f.level == "block" and _KIT_CLICK.search(_NON_WORD.sub(" ", fold(label[:200]).lower())):
        return f"{label[:40]!r} on {f.why}"
    return None


@rule("confirm.nav.kit-host-action", "typing or signing in on a phishing kit's host", risk=Risk.HIGH,
      types=("click", "type"), redact=("text",), confidence=0.7)
def kit_host_action(ctx: Context) -> CheckResult:
    """Any typing (an account's name, an address) or a sign-in, continue, claim or connect click on a page whose
    host opening would ask as a kit's: the person decides. Leaving passes."""
    f = ctx.derived(_page_kit)
    if f is None:
        return None
    if ctx.action.type == "type":
        return f"typing on {f.why}" if (ctx.action.text or "").strip() else None  # type: ignore[attr-defined]
    target = ctx.action.target
    label = " ".join(p for p in (target.label, target.name) if p) if target else ""
    if _KIT_CLICK.search(_NON_WORD.sub(" ", fold(label[:200]).lower())) and not _LEAVE.match(label.lower()):
        return f"{label[:40]!r} on {f.why}"
    return None


@rule("block.nav.remote-tool-on-call", "a remote-control program's download opened during a support call or from a "
      "scare pop-up", risk=Risk.CRITICAL, types=NAV, confidence=0.8, needs="window")
def remote_tool_on_call(ctx: Context) -> CheckResult:
    """The address opened names a remote-control program (AnyDesk, TeamViewer, ScreenConnect, Quick Assist, ...) in
    its host or path, while the active window shows a call with someone presenting as the person's bank, an
    account's security desk or tech support (`[context.support-call]` of resources/cues.toml), or a scare pop-up
    (`[context.scare-window]`): the caller's next step is the session it opens. The same download with no such
    window asks as any program's download does (`confirm.web.executable-download`)."""
    parts = _nav_web(ctx)
    if parts is None or not parts.host:
        return None
    tool = REMOTE_PROGRAM.search(_NON_WORD.sub(" ", f"{parts.host} {parts.path[:256]}".lower()))
    if tool is None:
        return None
    why = ctx.derived(support_call)
    if why is not None:
        return f"{tool.group(0)!r} opened during a call with someone presenting as support ({why!r})"
    scare = ctx.derived(scare_window)
    return f"{tool.group(0)!r} opened from a scare pop-up ({scare!r})" if scare is not None else None


RULES = (
    remote_tool_on_call,
    answer_on_operation_page,
    records_out,
    packed_data_out,
    personal_data_out,
    prefilled_payment,
    url_consequence,
    open_redirect,
    kit_path,
    hosted_page,
    broad_consent,
    device_code,
    payment_link,
    secret_on_hosted_page,
    disguised_download,
    metadata_by_name,
    consent_click,
    mailbox_consent_click,
    brand_lure,
    brand_cheap_tld,
    brand_elsewhere,
    lure_words_host,
    lure_word_host,
    lure_compound,
    lure_compound_signin,
    data_named_drop,
    data_named_out,
    money_scheme,
    money_scheme_confirm,
    fake_support_desk,
    lure_fee,
    crisis_shop,
    crisis_name_confirm,
    machine_name_block,
    machine_name_confirm,
    free_name_sign_in,
    free_name_confirm,
    hidden_service,
    impossible_name_confirm,
    malware_sample_block,
    malware_sample_confirm,
    agent_check_block,
    scam_page_action,
    scam_page_action_confirm,
    hosted_sign_in,
    hosted_brand_name,
    brand_path_sign_in,
    agency_payment,
    agency_payment_path,
    glued_name_block,
    glued_name_confirm,
    scam_glued_name,
    hosted_sign_in_click,
    brand_service_sign_in,
    brand_service_site,
    mining_block,
    miner_repository,
    product_front_block,
    typo_wallet,
    carrier_typo,
    hostile_host_nav,
    url_shape_block,
    url_shape_confirm,
    shaped_page_action,
    protected_page_action,
    lure_page_entry,
    lure_page_action,
    provider_sign_in_elsewhere,
    provider_sign_in_host,
    kit_host_block,
    kit_host_confirm,
    kit_host_secret,
    kit_host_action,
)
