"""Hosts that say what they are: a link that hides its destination, a host named as an attacker's.

Pure functions over `[short-links]`, `[hostile-hosts]`, `[brand-service]` and `[typo-squat]` of
resources/destinations.toml, for the navigation rules (gate/rules/navigate.py, gate/rules/web.py) and the shell
network rules (a command's hosts, `command_hosts`):

- `short_link(host, path)`: a listed URL shortener with a path, or the shape of one (a name of six letters or fewer
  under a two-letter top-level name, its path one random token or a redirect folder and tokens), or a random
  `/r/<token>` redirect on a site named for service or help. A brand's own short links (`youtu.be`) pass.
- `hostile_host(host)`: a label or a label part that names an attacker's, a malware's or a C2 server
  (`evil.com`, `attacker-h9.example`, `c2.example.net`).
- `brand_service(host)`: a brand's name beside a service or help word on a site not the brand's.
- `typo_squat(host)`: an exchange's or a carrier's name misspelt by one letter.
"""

from __future__ import annotations

import functools
import re

from gate.destinations import _BOOK, own_site
from gate.urls import ip_of, registrable

__all__ = ["brand_service", "command_hosts", "hostile_host", "one_edit_apart", "sends_out", "short_link", "typo_squat"]

_SL = _BOOK["short-links"]
_HIDDEN = frozenset(_SL["hidden"])
_OWN_SHORT = frozenset(_SL["own"])
_SITE_TLDS = frozenset(_SL["site_tlds"])
_REDIRECT = frozenset(_SL["redirect_folders"])
_SERVICE_NAMES = tuple(sorted(_SL["service_names"], key=len, reverse=True))

_HH = _BOOK["hostile-hosts"]
_HOSTILE = frozenset(_HH["words"])
_WEAK = frozenset(_HH["weak"])
_TAILS = tuple(_HH["tails"])
_BENIGN_PARTS = tuple(_HH["benign_parts"])
_RESEARCH = frozenset(_HH["research"])

_BRAND_TOKENS = frozenset(t for table in _BOOK["brands"].values() for t in table)
_SERVICE_WORDS = frozenset(w.replace("-", "") for w in _BOOK["brand-service"]["words"])
_STRONG_SERVICE = frozenset(w.replace("-", "") for w in _BOOK["brand-service"]["strong"])
_PLAIN = frozenset(_BOOK["plain"]["tokens"])

_TYPO = tuple(_BOOK["typo-squat"]["brands"])
_PARCEL = frozenset(_BOOK["typo-squat"]["parcel_words"])

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{4,16}$")


def _suffixes(host: str) -> list[str]:
    labels = host.split(".")
    return [".".join(labels[i:]) for i in range(len(labels) - 1)]


def _random_token(seg: str) -> bool:
    """A path segment that reads as a generated key, not a word: letters and digits mixed, or mixed case, or
    digits only (`8hK2p`, `Zq81L`, `Tmxvb`, `93812`)."""
    if not _TOKEN.match(seg):
        return False
    has_digit = any(c.isdigit() for c in seg)
    has_alpha = any(c.isalpha() for c in seg)
    mixed_case = any(c.isupper() for c in seg[1:]) and any(c.islower() for c in seg)
    return (has_digit and has_alpha) or mixed_case or (seg.isdigit() and len(seg) >= 4)


def _token_path(path: str) -> tuple[bool, bool]:
    """(the path is random tokens only, possibly behind a redirect folder; it starts with a redirect folder)."""
    segs = [s for s in path.split("/") if s]
    if not segs or len(segs) > 4:
        return False, False
    folder = segs[0].lower() in _REDIRECT and len(segs) > 1
    rest = segs[1:] if folder else segs
    return (len(rest) <= 3 and all(_random_token(s) for s in rest)), folder


@functools.lru_cache(maxsize=1024)
def short_link(host: str, path: str) -> str | None:
    """Why a link to `host` + `path` hides where it goes, or None."""
    host = host.lower().rstrip(".").removeprefix("www.")
    if not host or ip_of(host) is not None or len(path.strip("/")) == 0:
        return None
    sufs = _suffixes(host)
    if not _OWN_SHORT.isdisjoint(sufs) or any((host + path).startswith(o + "/") for o in _OWN_SHORT if "/" in o):
        return None
    if not _HIDDEN.isdisjoint(sufs) or any((host + path).startswith(h) for h in _HIDDEN if "/" in h):
        return f"{host} is a link shortener: where the link goes is hidden"
    tokens, folder = _token_path(path)
    if not tokens:
        return None
    labels = host.split(".")
    tld = labels[-1]
    if len(labels) == 2 and len(tld) == 2 and tld not in _SITE_TLDS and len(labels[0]) <= 6 \
            and labels[0].isalnum() and not own_site(host):
        return f"{host} is shaped like a link shortener (a short name, a random path): where the link goes is hidden"
    if folder:
        site = registrable(host).split(".", 1)[0]
        named = next((w for w in _SERVICE_NAMES if w in site), None)
        if named is not None and site != named and not own_site(host):
            return f"{host} forwards through a random redirect ({path[:40]}) under a site named for {named}"
    return None


def _label_hostile(label: str, *, site: bool) -> str | None:
    for benign in _BENIGN_PARTS:
        label = label.replace(benign, "")
    parts = [p for p in label.split("-") if p]
    found = []
    for p in parts:
        core = p if p in _HOSTILE else (p.rstrip("0123456789") or p)
        word = core if core in _HOSTILE else next(
            (w for w in _HOSTILE if core.startswith(w) and core[len(w):] in _TAILS and len(w) >= 4), None)
        if word is not None:
            found.append(word)
    if not found:
        return None
    if site and all(w in _WEAK for w in found) and len(found) < 2:
        return None
    return found[0]


@functools.lru_cache(maxsize=2048)
def hostile_host(host: str) -> str | None:
    """The word by which `host` names itself an attacker's, a malware's or a C2 server, or None."""
    host = host.lower().rstrip(".")
    if not host or "." not in host or ip_of(host) is not None:
        return None
    if not _RESEARCH.isdisjoint([host, *_suffixes(host)]):
        return None
    labels = host.split(".")
    reg = registrable(host)
    n_site = len(reg.split("."))
    site_index = len(labels) - n_site
    for i, label in enumerate(labels[: site_index + 1]):
        word = _label_hostile(label, site=i == site_index)
        if word is not None:
            return word
    return None


# a host name or URL in a command's words: scheme://host, user@host, or a bare dotted name
# (every part bounded, so a long run of dots and words is read in one pass: no search starts over a long stretch)
_URL_HOST = re.compile(r"(?i)\b(?:[a-z][a-z0-9+.-]{0,15}://)?(?:[^\s/@'\"]{1,64}@)?"
                       r"((?:[a-z0-9-]{1,63}\.){1,16}[a-z][a-z0-9-]{0,62})\b")
# what a command does to send rather than fetch: an upload, a POST body, a pipe or a redirect into a socket
_SENDS = re.compile(r"(?i)(?:\s-(?:T|F|d)\b|\s--(?:upload-file|data(?:-binary|-raw|-urlencode)?|form|post-file|"
                    r"post-data|body-file|body-data|json)\b|-Method\s+(?:Post|Put)\b|-InFile\b|\|\s*(?:nc|ncat|netcat|"
                    r"socat|telnet)\b|\bscp\b|\brsync\b|\bsftp\b|/dev/tcp/|/dev/udp/|\bUploadFile|\bUploadString|"
                    r"\bUploadData|\bSend-MailMessage\b|\$\([^)]*\)\.|`[^`]*`\.|\bxargs\s+curl\b|\bnslookup\b|\bdig\b)")
_FILE_ENDS = frozenset({"sh", "py", "txt", "log", "json", "conf", "cfg", "ini", "yml", "yaml", "xml", "csv", "zip",
                        "gz", "tgz", "tar", "7z", "exe", "dll", "so", "ps1", "bat", "js", "md", "pem", "key",
                        "hta", "html", "php", "bin", "db", "sql", "bak", "old", "tmp", "rb", "pl", "go", "rs", "java",
                        "class", "cpp", "ko", "elf", "out", "pyc", "lua", "vbs", "wsf", "lnk", "cs", "ts", "war",
                        "msi", "scr", "apk", "dmg", "pkg", "deb", "rpm", "iso", "img", "docx", "doc", "xls", "xlsx",
                        "pdf", "jpg", "png", "gif", "toml", "env", "pcap", "cap", "raw", "dat", "dump", "dmp", "git",
                        "jar", "crx", "xpi", "vsix", "whl", "egg", "gem", "nupkg", "plist", "service", "timer"})


def command_hosts(command: str) -> list[tuple[str, str]]:
    """The hosts a command's text names that say they are hostile, as (host, word)."""
    out = []
    for m in _URL_HOST.finditer(command):
        host = m.group(1).lower()
        if "://" not in m.group(0):
            tld = host.rsplit(".", 1)[-1]
            before = command[m.start() - 1] if m.start() > 0 else " "
            if tld in _FILE_ENDS or len(tld) < 2 or before in "/\\":
                continue  # a file's name or a path's part (`evil.dll`, `/tmp/payload.sh`, `repo/evil.git`)
        word = hostile_host(host)
        if word is not None:
            out.append((host, word))
    return out


def sends_out(command: str) -> bool:
    """The command uploads, posts or pipes data to where it connects (not a plain download)."""
    return _SENDS.search(command) is not None


def one_edit_apart(a: str, b: str) -> bool:
    """One letter added, dropped, changed, or two neighbours swapped (web.py's brand check reads it too)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _two_changes(a: str, b: str) -> bool:
    """Same length, two letters changed, first three and last kept (a seven-letter exchange's name retyped)."""
    return len(a) == len(b) >= 7 and a[:3] == b[:3] and a[-1] == b[-1] and \
        sum(x != y for x, y in zip(a, b, strict=True)) == 2


@functools.lru_cache(maxsize=2048)
def typo_squat(host: str) -> str | None:
    """The exchange or carrier whose name `host`'s own name misspells by a letter, or None."""
    host = host.lower().rstrip(".")
    if not host or ip_of(host) is not None or own_site(host):
        return None
    site = registrable(host).split(".", 1)[0]
    parts = [p for p in site.split("-") if p]
    for brand in _TYPO:
        for p in parts:
            if p in _BRAND_TOKENS:
                continue
            if p[:1] != brand[:1]:
                continue  # a misspelling keeps the first letter; another first letter is another word (`finance`)
            if len(brand) >= 5 and (one_edit_apart(p, brand) or _two_changes(p, brand)):
                return brand
            if len(brand) == 4 and len(p) >= 4 and one_edit_apart(p, brand) and p[:2] == brand[:2]:
                return brand
            if len(brand) <= 3 and len(parts) > 1 and one_edit_apart(p, brand) and len(p) >= 3 and \
                    p[0] == brand[0] and any(q in _PARCEL for q in parts if q != p):
                return brand
    return None


@functools.lru_cache(maxsize=2048)
def brand_service(host: str) -> tuple[str, str] | None:
    """(brand, word) when the site's own name joins a listed brand to a service or help word (`<bank>-assist`,
    `<bank>-helpservice`, `<bank>-user-protect`) and the host is not the brand's."""
    host = host.lower().rstrip(".")
    if not host or ip_of(host) is not None or own_site(host):
        return None
    site = registrable(host).split(".", 1)[0]
    parts = [p for p in site.split("-") if p]
    if len(parts) < 2:
        return None
    brand = next((p for p in parts if p in _BRAND_TOKENS), None)
    if brand is None:
        return None
    rest = [p for p in parts if p != brand]
    joined = "".join(rest)
    word = next((p for p in rest if p in _SERVICE_WORDS), None) or (joined if joined in _SERVICE_WORDS else None)
    if word is None or any(not (p in _SERVICE_WORDS or p.isdigit() or len(p) <= 3 or p in _BRAND_TOKENS or
                                p in {"user", "my", "your", "team", "centre", "center", "online", "desk"})
                           for p in rest):
        return None
    if brand in _PLAIN and word not in _STRONG_SERVICE and joined not in _STRONG_SERVICE:
        return None  # `remote-support`, `free-help`: an everyday word beside a service word
    return brand, word
