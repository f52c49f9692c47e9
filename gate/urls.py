"""URLs and origins: parse the hostname properly and match it exactly or by dot-suffix, never by substring.

Parsing follows what a browser does with the same text (the WHATWG URL rules that matter for a gate):
tabs and newlines inside a URL are dropped, a backslash is a slash in http(s) URLs, `https:evil.com` has
the host `evil.com`, the host is the part after the *last* `@` of the authority, percent-escapes in a
host are decoded, and a Unicode host is NFKC-folded and IDNA-encoded (`xn--...`), which is the name the
browser actually connects to. Homoglyphs are deliberately NOT folded into Latin letters here: `pаypal.com`
with a Cyrillic `а` is a different host from `paypal.com`, and an allow list must not confuse them.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import unicodedata
from typing import NamedTuple
from urllib.parse import unquote, urlsplit

from gate.normalise import strip_invisible

__all__ = [
    "RELEASE_HOST",
    "SPECIAL_SCHEMES",
    "USER_CONTENT_HOST",
    "UrlParts",
    "action_url",
    "host_matches",
    "host_of",
    "ip_of",
    "is_loopback",
    "parse_host",
    "registrable",
    "site_label",
    "split_url",
]

# hosts that publish releases and packages: a download from them is what an install guide says to run (the
# shell rules and the web rules read it)
RELEASE_HOST = re.compile(
    r"^(?:[\w-]+\.)*(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|k8s\.io|storage\.googleapis\.com|"
    r"dl\.google\.com|hashicorp\.com|docker\.com|helm\.sh|nodejs\.org|python\.org|go\.dev|golang\.org|"
    r"rust-lang\.org|rustup\.rs|pypi\.org|pythonhosted\.org|npmjs\.org|npmjs\.com|microsoft\.com|aka\.ms|"
    r"apple\.com|mozilla\.org|debian\.org|ubuntu\.com|fedoraproject\.org|sourceforge\.net|jetbrains\.com|"
    r"adoptium\.net|gradle\.org|apache\.org|kernel\.org|gnu\.org|bun\.sh|deno\.land|astral\.sh|getcomposer\.org|"
    r"brew\.sh|launchpad\.net|nvidia\.com|mise\.run|sdkman\.io|terraform\.io|cloud\.google\.com)$")
# of those, the hosts where anyone may publish (a release or a raw file there is whoever uploaded it)
USER_CONTENT_HOST = re.compile(r"^(?:[\w-]+\.)*(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|"
                               r"storage\.googleapis\.com|sourceforge\.net|launchpad\.net)$")


# Schemes with an authority (host) in the WHATWG sense: backslashes count as slashes in them.
SPECIAL_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})
_NO_AUTHORITY = frozenset({"javascript", "data", "about", "mailto", "vbscript", "blob", "tel", "sms"})
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):", re.IGNORECASE)
_TAB_NL = re.compile(r"[\t\n\r]")
_C0_SPACE = "".join(chr(c) for c in range(0x21))


class UrlParts(NamedTuple):
    """A URL as a browser reads it. `host` is IDNA-encoded lower case (or an IP); empty when absent."""

    scheme: str  # lower case, "" when the text has none (read as a bare host)
    userinfo: str  # "user:pass" part of the authority, "" when absent
    host: str
    port: int | None
    path: str  # percent-decoded
    query: str  # raw
    raw: str  # the preprocessed text


def _host_fold(host: str) -> str:
    """What a browser does to a host before DNS: percent-decode, drop invisibles, NFKC, lower, IDNA."""
    host = unquote(host)
    if not host.isascii():
        host = unicodedata.normalize("NFKC", strip_invisible(host)).casefold()
        # full-width and ideographic dots are label separators too (UTS 46)
        host = host.replace("\u3002", ".").replace("\uff0e", ".").replace("\uff61", ".")
    host = host.lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host  # not encodable: keep the Unicode form, the lookalike rule treats it as suspicious


_RX_SPLIT_URL = re.compile(r"\d+(?:[/?#]|$)")


@functools.lru_cache(maxsize=2048)
def split_url(url: str) -> UrlParts | None:
    """Parse `url` the way a browser would; None when it is not a URL at all (or cannot be parsed)."""
    text = _TAB_NL.sub("", url.strip(_C0_SPACE))
    if not text:
        return None
    m = _SCHEME.match(text)
    scheme = m.group(1).lower() if m else ""
    after = text[m.end():] if m else text
    if scheme and _RX_SPLIT_URL.match(after):
        scheme, after = "", text  # "localhost:8000/x" is host:port, not a scheme
    if scheme in _NO_AUTHORITY or (scheme and scheme not in SPECIAL_SCHEMES and scheme != "file"
                                  and not after.startswith("//")):
        # opaque URLs (javascript:, data:, mailto:, custom handlers): no host
        return UrlParts(scheme, "", "", None, unquote(after), "", text)
    if scheme in SPECIAL_SCHEMES:
        # "https:evil.com" and "https:///evil.com" both have the host evil.com
        text = f"{scheme}://" + after.replace("\\", "/").lstrip("/")
    elif not scheme:
        text = "//" + text.replace("\\", "/").lstrip("/")  # a bare "example.com/path" is a host
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    netloc = parts.netloc
    userinfo, _, hostport = netloc.rpartition("@")
    host = hostport
    if host.startswith("["):
        host = host[: host.find("]") + 1] if "]" in host else host
    elif ":" in host:
        host = host.rsplit(":", 1)[0]
    return UrlParts(scheme, userinfo, _host_fold(host), port, unquote(parts.path), parts.query, text)


@functools.lru_cache(maxsize=2048)
def parse_host(url: str) -> str | None:
    """The lower-case hostname of `url` (IDNA-encoded, trailing dot dropped), or None if there is none.

    `https://user@evil.com@good.com/` → `good.com` the way a browser reads it; a bare `example.com/path`
    is read as a host.
    """
    parts = split_url(url)
    return parts.host or None if parts is not None else None


def host_matches(host: str, pattern: str) -> bool:
    """Exact host or dot-suffix: `example.com` matches `example.com` and `a.example.com`,
    never `badexample.com`."""
    pattern = pattern.strip().lower().rstrip(".").removeprefix("*.")
    if not pattern or not host:
        return False
    return host == pattern or host.endswith("." + pattern)


_IP_CHARS = frozenset("0123456789abcdefx.")


_RX_IP_OF = re.compile(r"0x[0-9a-f]*|[0-9]+")


@functools.lru_cache(maxsize=1024)
def ip_of(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The IP address a host literal stands for, including the legacy forms a browser still accepts
    (`2130706433`, `0x7f.1`, `0177.0.0.1`); None for a name."""
    if ":" not in host and not _IP_CHARS.issuperset(host):
        return None  # an IPv6 literal has a colon; an IPv4 one, in any form below, only these characters
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(_RX_IP_OF.fullmatch(p) for p in parts):
        return None
    try:
        nums = [int(p, 16) if p.startswith("0x") else int(p, 8) if len(p) > 1 and p.startswith("0")
                else int(p) for p in parts]
    except ValueError:
        return None
    *head, last = nums
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(nums)):
        return None
    value = 0
    for n in head:
        value = value * 256 + n
    value = value * 256 ** (5 - len(nums)) + last
    try:
        return ipaddress.IPv4Address(value)
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    """`localhost`, `*.localhost` and loopback IPs. `evil-localhost.com` is not one of them."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    ip = ip_of(host)
    return ip is not None and ip.is_loopback


_CC_SECOND_LEVEL = frozenset({"co", "com", "net", "org", "gov", "ac", "edu", "ne", "or", "go", "gob", "mil"})


def site_label(host: str) -> str:
    """The label that names the site a host belongs to: `github` for `someone.github.io`,
    `bbc` for `www.bbc.co.uk`. An approximation of the registrable domain without the public suffix list."""
    labels = host.split(".")
    if len(labels) < 2:
        return host
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _CC_SECOND_LEVEL:
        return labels[-3]
    return labels[-2]


def registrable(host: str) -> str:
    """The site a host belongs to (`shop.example.co.uk` → `example.co.uk`), without the public suffix list: the
    last two labels, or three under a country's second-level name (`co.uk`, `com.au`); an IP is itself."""
    labels = host.split(".")
    if ip_of(host) is not None or len(labels) <= 2:
        return host
    if len(labels[-1]) == 2 and labels[-2] in _CC_SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def action_url(ctx) -> str | None:  # ctx: a gate.rules.base.Context
    """The URL an action is about: the one it navigates to, else the page it says it acts on."""
    url = getattr(ctx.action, "url", None)
    return url or (ctx.observation.url or None)


def host_of(ctx) -> str | None:
    url = action_url(ctx)
    return parse_host(url) if url else None
