"""Attacks on a web site carried in what is sent to it (resources/web_attacks.toml).

    in_url(url) -> Finding | None           the attack a URL's path or parameters carry against its site
    in_value(value, name="") -> Finding | None   the attack one value carries (a parameter, a typed field)
    in_request(words) -> Finding | None      the attack an HTTP client's arguments carry (headers, body, URL)
    subject_site(host) -> bool               a site where these strings are what the page is about
    decoded(value) -> str                    the value as a server reads it (escapes undone, slashes folded)

A `Finding` says what the payload does (`kind`), whether it reads the server's system or secret files or a
cloud's credentials (`reads`: the gate blocks), and the piece that shows it. Pure: no I/O beyond the book.
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import NamedTuple
from urllib.parse import unquote

from gate import regex_store
from gate.urls import ip_of, is_loopback, site_label, split_url

__all__ = ["Finding", "decoded", "in_request", "in_url", "in_value", "subject_site"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("web_attacks.toml").read_text("utf-8"))
_SITES = _BOOK["sites"]
_TRAV = _BOOK["traversal"]
_P = _BOOK["probes"]
_I = re.IGNORECASE


class Finding(NamedTuple):
    # traversal | file-read | metadata | jndi | shellshock | sql | command | template | ssrf | wrapper | xxe | crlf |
    # ldap | pollution | exposed
    kind: str
    reads: bool  # it reads system or secret files, or instance credentials: the gate blocks
    shown: str  # the piece of the value that shows it


_SEARCH = frozenset(_SITES["search"])
_SUBJECT = frozenset(_SITES["subject"])


def subject_site(host: str) -> bool:
    """A search engine, a question site, a code host, a security reference or an AI chat (`[sites]`): the
    strings are what its pages are about."""
    host = host.lower().rstrip(".")
    if site_label(host) in _SEARCH:
        return True
    labels = host.split(".")
    return any(".".join(labels[i:]) in _SUBJECT for i in range(len(labels) - 1))


# overlong UTF-8 and %u forms of a dot and of the slashes, which a server may decode where a filter did not
_ODD_DOT = re.compile(r"%c0%ae|%e0%80%ae|%c0%2e|%u002e|%uff0e|%u2024", _I)
_ODD_SLASH = re.compile(r"%c0%af|%e0%80%af|%c1%9c|%c0%5c|%c1%1c|%u2215|%u2216|%u2044|%uff0f|%uefc8|%uf025", _I)
# filter-evading spellings of "../": "....//" (a "../" removed once leaves one), "..;/" (Tomcat), "..\"
_DOUBLED = re.compile(r"\.\.\.\./+|\.\.\./\./|\.\.;/")


@functools.lru_cache(maxsize=1024)
def decoded(value: str) -> str:
    """`value` as a server reads it: percent-escapes undone up to three times (`%252e` is `.`), overlong and
    %u forms of dots and slashes, a NUL as the end of a name, backslashes as slashes, "....//" as "../"; lower case."""
    text = _ODD_SLASH.sub("/", _ODD_DOT.sub(".", value))
    for _ in range(3):
        out = unquote(text)
        if out == text:
            break
        text = _ODD_SLASH.sub("/", _ODD_DOT.sub(".", out))
    text = text.replace("\x00", " ").replace("\\", "/").lower()
    return _DOUBLED.sub("../", text)


# a name ends where no letter, digit or further extension follows ("etc/hosts.html" is a page)
_SYSTEM_FILE = re.compile(r"(?:^|/|file:/*)(?:" + "|".join(_TRAV["system_files"]) + r")(?![\w-]|\.[a-z])", _I)
_CLIMB = re.compile(r"(?:^|/)\.\.(?=/|$)")
_ABSOLUTE = re.compile(r"^\s*(?:file:/*|/|[a-z]:/|~/|%systemroot%/|\$home/)", _I)
_SEARCH_PARAMS = frozenset(_TRAV["search_params"])
_ESCAPE = int(_TRAV["escape_levels"])
_SQL = tuple(re.compile(p, _I) for p in _P["sql"])
_COMMAND = tuple(re.compile(p, _I) for p in _P["command"])
_TEMPLATE = tuple(re.compile(p, _I) for p in _P["template"])
_WRAPPER = re.compile(_P["wrappers"], _I)
_JNDI = re.compile(_P["jndi"], _I)
_SHELLSHOCK = re.compile(_P["shellshock"], _I)
_XXE = re.compile(_P["xxe"], _I)
_CRLF = re.compile(_P["crlf"], _I)
_LOCAL_PATH = re.compile(_P["ssrf_local_paths"], _I)
_LOCAL_PORTS = frozenset(_P["ssrf_local_ports"])
_SSRF_SCHEMES = frozenset(_P["ssrf_schemes"])
_META_IPS = frozenset(_P["metadata_ips"])
_META_HOSTS = frozenset(_P["metadata_hosts"])
_META_REBIND = re.compile(_P["metadata_rebind"], _I)
_SQL_COMMENT = re.compile(r"/\*!?\d*|\*/")
_LDAP = tuple(re.compile(p, _I) for p in _P["ldap"])
_POLLUTION = tuple(re.compile(p, _I) for p in _P["pollution"])
_EXPOSED = tuple(re.compile(p, _I) for p in _BOOK["exposed"]["paths"])
_META_IN_TEXT = re.compile(r"(?:^|//|@|\[)(?:" + "|".join(re.escape(h) for h in sorted(_META_IPS | _META_HOSTS)
                                                        if "." in h or ":" in h) + r")(?![\w-]|\.\w)", _I)
_URL_VALUE = re.compile(r"^\s*([a-z][a-z0-9+.-]*):/*", _I)
# Log4j lookups that spell "jndi" in pieces: ${lower:j}, ${::-n}, ${env:X:-d}
_LOOKUP_PIECE = re.compile(r"\$\{(?:[^${}:]*:)*-?([^${}]*)\}")


def _lookups_folded(text: str) -> str:
    for _ in range(4):
        out = _LOOKUP_PIECE.sub(lambda m: m.group(1) if not m.group(0).startswith("${jndi") else m.group(0), text)
        if out == text:
            break
        text = out
    return text


def _escape(text: str) -> int:
    """How many folders above its starting point a path climbs (`a/b/../../../x` climbs one)."""
    depth = lowest = 0
    for seg in text.split("?", 1)[0].split("/"):
        if seg == "..":
            depth -= 1
            lowest = min(lowest, depth)
        elif seg not in ("", "."):
            depth += 1
    return -lowest


def _system_file(text: str) -> str | None:
    m = _SYSTEM_FILE.search(text)
    return m.group(0).lstrip("/") if m else None


def _ssrf(text: str) -> Finding | None:
    """A value that is an address the server would fetch: a cloud's metadata service, a scheme only an
    attack uses, or one of the machine's own services."""
    m = _META_IN_TEXT.search(text) or _META_REBIND.search(text)
    if m:
        return Finding("metadata", True, m.group(0))
    u = _URL_VALUE.match(text)
    if not u:
        return None
    scheme = u.group(1).lower()
    if scheme in _SSRF_SCHEMES:
        return Finding("ssrf", False, text[:60])
    if scheme not in ("http", "https"):
        return None
    parts = split_url(text.strip())
    if parts is None or not parts.host:
        return None
    ip = ip_of(parts.host)
    if ip is not None and ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if parts.host in _META_HOSTS or (ip is not None and str(ip) in _META_IPS):
        return Finding("metadata", True, parts.host)
    local = is_loopback(parts.host) or (ip is not None and (ip.is_private or ip.is_unspecified))
    if local and (parts.port in _LOCAL_PORTS or _LOCAL_PATH.match(parts.path or "")):
        return Finding("ssrf", False, text[:60])
    return None


@functools.lru_cache(maxsize=1024)
def in_value(value: str, name: str = "", path: bool = False) -> Finding | None:
    """The attack one value carries, judged as a server reads it; None for an ordinary value. `name` is the
    parameter's name (a search's words are not read as a path); `path`: the value is the URL's own path,
    where a system file counts only after a climb."""
    if not value or len(value) < 2:
        return None
    text = decoded(value)
    raw = unquote(value)
    folded = _lookups_folded(raw.lower())
    if _JNDI.search(folded):
        return Finding("jndi", True, _JNDI.search(folded).group(0))
    if "(" in raw and (shock := _SHELLSHOCK.search(raw)):
        # (it takes over a CGI server through a header, not through a query string: judged by the sender, `in_request`)
        return Finding("shellshock", False, shock.group(0))
    searched = name.lower() in _SEARCH_PARAMS
    ssrf = None if searched else _ssrf(text)
    if ssrf is not None and ssrf.reads:
        return ssrf
    climbs = len(_CLIMB.findall(text))
    target = _system_file(text)
    if target and climbs:
        return Finding("traversal", True, target)
    if target and not searched and not path and _ABSOLUTE.match(text):
        return Finding("file-read", True, target)
    wrapper = _WRAPPER.search(text)
    if wrapper and target:
        return Finding("wrapper", True, target)
    unfolded = _SQL_COMMENT.sub(" ", raw)  # "union/**/select", "/*!50000union*/ select"
    for kind, group in (("command", _COMMAND), ("sql", _SQL), ("template", _TEMPLATE), ("ldap", _LDAP),
                        ("pollution", _POLLUTION)):
        for rx in group:
            m = rx.search(text) or (rx.search(unfolded) if kind == "sql" else None)
            if m:
                return Finding(kind, bool(target) and kind == "command", target or m.group(0).strip()[:60])
    xxe = _XXE.search(raw)
    if xxe:
        return Finding("xxe", bool(target), target or xxe.group(0)[:60])
    if ssrf is not None:
        return ssrf
    if wrapper:
        return Finding("wrapper", False, wrapper.group(0))
    if climbs >= _ESCAPE and _escape(text) >= _ESCAPE:
        return Finding("traversal", False, "../" * _escape(text))
    if _CRLF.search(raw):
        return Finding("crlf", False, _CRLF.search(raw).group(0).strip()[:60])
    return None


def _rank(f: Finding) -> int:
    return 2 if f.reads or f.kind == "shellshock" else 1


_QUERY_START = re.compile(r"[?#]")


@functools.lru_cache(maxsize=1024)
def in_url(url: str) -> Finding | None:
    """The attack a web URL carries against its own site, in its path or its parameters; None for an
    ordinary URL and for any URL of a subject site (`subject_site`)."""
    parts = split_url(url)
    if parts is None or parts.scheme not in ("http", "https", "") or not parts.host or subject_site(parts.host):
        return None
    best: Finding | None = None
    raw_path = parts.raw.split("//", 1)[-1]
    raw_path = raw_path[raw_path.find("/"):] if "/" in raw_path else ""
    raw_path = _QUERY_START.split(raw_path, maxsplit=1)[0]
    found = [in_value(raw_path, "", path=True)] if raw_path not in ("", "/") else []
    path = decoded(raw_path)
    exposed = next((m.group(0) for rx in _EXPOSED if (m := rx.search(path))), None)
    if exposed:
        found.append(Finding("exposed", False, exposed.lstrip("/")))
    query = parts.query
    if query:
        # each value as sent (the escapes undone by `decoded`, so overlong forms survive to be read)
        for piece in query.split("&"):
            name, _, value = piece.replace("+", " ").partition("=")
            found.append(in_value(value, unquote(name)) or in_value(name))
    host_ip = ip_of(parts.host)
    own = is_loopback(parts.host) or (host_ip is not None and host_ip.is_private)
    for f in found:
        if f is not None and own and f.kind == "ssrf":
            continue  # a local page sending on to a local address: a sign-in's way back, not a forged fetch
        if f is not None and (best is None or _rank(f) > _rank(best)):
            best = f
    return best


# a header written `Name: value`, a field `name=value` (httpie's `name:=value` and `name==value` too)
_HEADER = re.compile(r"^\s*[\w-]{1,60}\s*:(?!//)\s?(.*)$", re.S)
_FIELD = re.compile(r"^[\w.\[\]-]{1,60}(?::?=|==)(.*)$", re.S)
_WEB_URL = re.compile(r"^\s*https?://", re.I)


def in_request(words: tuple[str, ...] | list[str]) -> Finding | None:
    """The attack an HTTP client's arguments carry to the host they go to: a header's value (`-H`, `-A`, wget's
    `--header=`), a body or form field (`-d`, `--post-data=`), a cookie, or the URL itself. The strongest found
    (one that reads files, plants a lookup or runs a command first); None for an ordinary request."""
    best: Finding | None = None
    hosts = [p.host for w in words if _WEB_URL.match(w) and (p := split_url(w.strip())) is not None and p.host]
    if hosts and all(subject_site(h) for h in hosts):
        return None  # (a search engine or a security reference asked about the string)
    for word in words:
        if not word or len(word) < 4:
            continue
        value = word.split("=", 1)[1] if word.startswith("--") and "=" in word else word
        if _WEB_URL.match(value) and " " not in value.strip():
            found = [in_url(value.strip())]
        else:
            found = [in_value(value)]
            for shape in (_HEADER, _FIELD):
                m = shape.match(value)
                if m and m.group(1):
                    found.append(in_value(m.group(1)))
        for f in found:
            if f is not None and (best is None or _rank(f) > _rank(best)):
                best = f
    return best
