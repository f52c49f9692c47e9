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
- `mining(url)`: a crypto-mining pool's address or a miner program's download (`[mining]`).
- `product_front(host)`: a product's name as a subdomain of a generic download or sign-in site (`[product-front]`).
- `url_shape(url)`: the signs of a link's shape alone (`[url-shape]`): a page file on a host anyone publishes on, a
  random token as its path, a click-tracking or affiliate redirect, a bulk-registered name, a bare address; whether
  they ask, and whether a brand or a sign-in word beside them blocks.
"""

from __future__ import annotations

import base64
import functools
import itertools
import re
from typing import NamedTuple
from urllib.parse import parse_qsl

from gate.destinations import _BOOK, own_site
from gate.prefix import Guarded
from gate.urls import ip_of, is_loopback, registrable, split_url

__all__ = ["Shape", "brand_service", "command_hosts", "hostile_host", "mining", "one_edit_apart", "product_front",
           "random_token", "sends_out", "short_link", "shortener", "typo_squat", "url_shape"]

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
def shortener(host: str, path: str) -> bool:
    """`host` + `path` is a link through a listed public shortener (`[short-links] hidden`), not a brand's own."""
    host = host.lower().rstrip(".").removeprefix("www.")
    if not host or ip_of(host) is not None or len(path.strip("/")) == 0:
        return False
    sufs = _suffixes(host)
    if not _OWN_SHORT.isdisjoint(sufs) or any((host + path).startswith(o + "/") for o in _OWN_SHORT if "/" in o):
        return False
    return not _HIDDEN.isdisjoint(sufs) or any((host + path).startswith(h) for h in _HIDDEN if "/" in h)


def short_link(host: str, path: str) -> str | None:
    """Why a link to `host` + `path` hides where it goes, or None."""
    host = host.lower().rstrip(".").removeprefix("www.")
    if not host or ip_of(host) is not None or len(path.strip("/")) == 0:
        return None
    if shortener(host, path):
        return f"{host} is a link shortener: where the link goes is hidden"
    sufs = _suffixes(host)
    if not _OWN_SHORT.isdisjoint(sufs) or any((host + path).startswith(o + "/") for o in _OWN_SHORT if "/" in o):
        return None
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


def _label_hostile(label: str, *, site: bool, weak_site: bool = False) -> str | None:
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
    if site and not weak_site and all(w in _WEAK for w in found) and len(found) < 2:
        return None
    return found[0]


@functools.lru_cache(maxsize=2048)
def hostile_host(host: str, *, weak_site: bool = False) -> str | None:
    """The word by which `host` names itself an attacker's, a malware's or a C2 server, or None. With `weak_site`
    (a host data is sent to: gate/dataout.py), a word of `weak` counts as the site's own name too (`payload.io`)."""
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
        word = _label_hostile(label, site=i == site_index, weak_site=weak_site)
        if word is not None:
            return word
    return None


# a host name or URL in a command's words: scheme://host, user@host, or a bare dotted name
# (every part bounded, so a long run of dots and words is read in one pass: no search starts over a long stretch)
_URL_HOST = re.compile(r"(?i)\b(?:[a-z][a-z0-9+.-]{0,15}://)?(?:[^\s/@'\"]{1,64}@)?"
                       r"((?:[a-z0-9-]{1,63}\.){1,16}[a-z][a-z0-9-]{0,62})\b")
# what a command does to send rather than fetch: an upload, a POST body, a pipe or a redirect into a socket
_SENDS = Guarded(re.compile(r"(?i)(?:\s-(?:T|F|d)\b|\s--(?:upload-file|data(?:-binary|-raw|-urlencode)?|form|post-file|"
                    r"post-data|body-file|body-data|json)\b|-Method\s+(?:Post|Put)\b|-InFile\b|\|\s*(?:nc|ncat|netcat|"
                    r"socat|telnet)\b|\bscp\b|\brsync\b|\bsftp\b|/dev/tcp/|/dev/udp/|\bUploadFile|\bUploadString|"
                    r"\bUploadData|\bSend-MailMessage\b|\$\([^)]*\)\.|`[^`]*`\.|\bxargs\s+curl\b|\bnslookup\b|\bdig\b)"))
_FILE_ENDS = frozenset({"sh", "py", "txt", "log", "json", "conf", "cfg", "ini", "yml", "yaml", "xml", "csv", "zip",
                        "gz", "tgz", "tar", "7z", "exe", "dll", "so", "ps1", "bat", "js", "md", "pem", "key",
                        "hta", "html", "php", "bin", "db", "sql", "bak", "old", "tmp", "rb", "pl", "go", "rs", "java",
                        "class", "cpp", "ko", "elf", "out", "pyc", "lua", "vbs", "wsf", "lnk", "cs", "ts", "war",
                        "msi", "scr", "apk", "dmg", "pkg", "deb", "rpm", "iso", "img", "docx", "doc", "xls", "xlsx",
                        "pdf", "jpg", "png", "gif", "toml", "env", "pcap", "cap", "raw", "dat", "dump", "dmp", "git",
                        "jar", "crx", "xpi", "vsix", "whl", "egg", "gem", "nupkg", "plist", "service", "timer"})


def command_hosts(command: str) -> tuple[tuple[str, str], ...]:
    """The hosts a command's text names that say they are hostile, as (host, word)."""
    # two rules ask about every command (fetch and send): remembered for commands of ordinary length
    return _command_hosts_cached(command) if len(command) <= 4096 else _command_hosts(command)


def _command_hosts(command: str) -> tuple[tuple[str, str], ...]:
    if "." not in command:
        return ()  # every host `_URL_HOST` reads holds a dot
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
    return tuple(out)


_command_hosts_cached = functools.lru_cache(maxsize=2048)(_command_hosts)


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


# -- the shape of a link --------------------------------------------------------------------------------------------

_US = _BOOK["url-shape"]
_STORAGE = frozenset(_US["storage"])
_BUILDERS = frozenset(_US["builders"])
_PUBLISHED = tuple(_US["published"])
_CHEAP_SUFFIXES = frozenset(_US["cheap_suffixes"])
_TRACK_FOLDERS = frozenset(_US["track_folders"])
_AFFILIATE = frozenset(_US["affiliate_keys"])
_AFFILIATE_MARKS = frozenset(_US["affiliate_marks"])
_PURPOSE_KEYS = frozenset(_US["purpose_keys"])
_CREDENTIAL = frozenset(_US["credential"]) | frozenset(_BOOK["phishing"]["signin"]) | \
    frozenset(_BOOK["phishing"]["fine_payment"])
_FEE_WORDS = frozenset(_US["fee_words"])
_IDP_WORDS = frozenset(_US["idp_words"])
_KNOWN = frozenset(_US["known"])
_IDP_GENERIC = frozenset(_US["idp_generic"])
_ABUSED_TLDS = frozenset(_BOOK["tlds"]["abused"])
_ARCHIVES = frozenset(_US["archives"])
_DOC_NAMES = frozenset(_US["document_names"])
_TOOL_NAMES = frozenset(_US["tool_names"])
_UPLOAD_FOLDERS = frozenset(_US["upload_folders"])
_FILE_DROPS = frozenset(_US["file_drops"])
# brands whose name alone says what a page imitates, read inside a run-together file name (`...fedex.html`)
_DISTINCT_BRANDS = frozenset(t for t in _BRAND_TOKENS if t not in _PLAIN and len(t) >= 5 and t.isalpha())
_TUNNELS = frozenset(_US["tunnels"])
_DYN_ZONES = frozenset(_BOOK["phishing"]["dynamic_dns"]) - _TUNNELS
_PANEL_FILES = frozenset(_US["panel_files"])
_CMS_FOLDERS = frozenset(_US["cms_folders"])
_CMS_EXTENSION_FOLDERS = frozenset(_US["cms_extension_folders"])
_ASSET_FOLDERS = frozenset(_US["asset_folders"])
_STEALTH_FILES = frozenset(_US["stealth_files"])
_PROGRAM_FILES = frozenset(_US["programs"])
_MACRO_DOCUMENTS = frozenset(_US["macro_documents"])
_FILE_NAMES = frozenset(_US["document_names"]) | frozenset(_US["delivery_names"])
_BRAND_FOLDER_CONTEXT = frozenset(_US["brand_folder_context"])
# the page a kit's folder opens on: its index, or a sign-in or verification step
_KIT_PAGES = frozenset({"index", "default", "home", "main", "start", "auth", "login", "signin", "logon", "verify",
                        "verification", "validate", "account", "secure", "update", "confirm", "next", "step1", "step2",
                        "billing", "payment", "card", "mail", "webmail", "owa", "portal"})
# the words that say a page signs in (`secure`, `update`, `account` also name notes, checkers and services)
_SIGN_IN_WORDS = frozenset({"login", "signin", "logon", "verify", "verification", "validate", "authenticate",
                            "reactivate", "suspended", "unlock", "recovery", "restore", "wallet", "seed", "airdrop"})
_SCRIPT_EXT = frozenset({"php", "asp", "aspx", "jsp", "cgi", "pl", "py"})
_STATIC_EXT = frozenset({"js", "css", "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "woff", "woff2", "ttf", "eot",
                         "map", "json", "txt", "md", "mo", "po", "pot", "xml"})
# a file's stem that is a number, or a short word and a number (`37486`, `INV_0412`, `levering-1245789`): how mail
# malware names a file; a version (`app-1.2.3`) has dots, a year alone is a report's
_ID_STEM = re.compile(r"^(?:([^\W\d_]{1,14})[-_ ]?)?(\d{4,12})(?:[-_ ]?([^\W\d_]{1,14}))?$")
_FOLD_DIGITS = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"})
_FOLD_ONE_I = str.maketrans({"1": "i"})


def _lookalike_index() -> tuple[dict[str, str], frozenset[str]]:
    """Every well-known government or bank domain (`[url-shape] lookalike_targets`, and the own domains of
    `[brands.government]` and `[brands.banks-payments]`) with a site name of six letters or more, under each of its
    names with one character left out (a deletion neighbourhood: two names one edit apart share one of them)."""
    targets = set(_US["lookalike_targets"])
    for table in ("government", "banks-payments"):
        for domains in _BOOK["brands"].get(table, {}).values():
            targets.update(domains)
    index: dict[str, str] = {}
    for domain in sorted(targets):
        site, _, suffix = domain.partition(".")
        if len(site) < 6 or not suffix or site in _PLAIN:
            continue
        for i in range(len(site)):
            index.setdefault(f"{site[:i]}{site[i + 1:]}.{suffix}", domain)
        index.setdefault(domain, domain)
    return index, frozenset(targets)


_LOOKALIKE, _LOOKALIKE_TARGETS = _lookalike_index()


def lookalike_domain(host: str) -> str | None:
    """The well-known government or bank domain the host's site copies with one letter changed, added, dropped or
    swapped (`<agency>as-amt.de` for `<agency>es-amt.de`), under the same top-level name; None for the domain itself."""
    reg = registrable(host)
    if reg in _LOOKALIKE_TARGETS:
        return None
    site, _, suffix = reg.partition(".")
    if len(site) < 6 or not suffix:
        return None
    hits = [_LOOKALIKE.get(reg)]  # the target with one letter more
    hits += [_LOOKALIKE.get(f"{site[:i]}{site[i + 1:]}.{suffix}") for i in range(len(site))]  # changed, or added
    for hit in hits:
        if hit is None:
            continue
        target = hit.partition(".")[0]
        if target == site or not one_edit_apart(target, site) or (len(site) < len(target) and len(target) < 8):
            continue
        # a word's plural or a longer word (`<name>s`, `<name>y`) is another name, not a typing slip
        if site[:-1] == target or target[:-1] == site:
            continue
        return hit
    return None


def _id_named(stem: str) -> bool:
    """A file's stem that is a number or a word and a number (`37486`, `levering-1245789`), not a year, not a tool."""
    m = _ID_STEM.match(stem)
    if m is None:
        return False
    words = {w.lower() for w in (m.group(1), m.group(3)) if w}
    if words & _TOOL_NAMES:
        return False
    digits = m.group(2)
    return not (len(digits) == 4 and digits[:2] in ("19", "20"))


def _delivered_file(name: str, host: str, segs: list[str]) -> str | None:
    """A file that runs code when opened, served by a site the gate has no name for: a screensaver, an HTML
    application, a script or a shortcut by any name; a program, a disk image or a document with macros named as an
    invoice, a delivery or a fax, or as a number (`levering-1245789.doc`, `37486.zip`). A vendor's `setup-2.1.exe`,
    a project's release archive and a plain `report.pdf` are not."""
    stem, dot, ext = name.rpartition(".")
    ext = ext.lower()
    if not dot or not stem or len(stem) > 80:
        return None
    if ext in _STEALTH_FILES:
        return f"a file that runs code when opened ({name[:48]}) served by {host}"
    if ext not in _PROGRAM_FILES and ext not in _MACRO_DOCUMENTS and ext not in _ARCHIVES:
        return None
    low = stem.lower()
    words = set(_WORDS.findall(low))
    named = next((w for w in sorted(words) if w in _FILE_NAMES), None)
    if words & _TOOL_NAMES or (ext in _ARCHIVES and named is not None):
        return None  # an archive named as a document is `_document_archive`'s, with where it is served
    if named is None and (ext == "js" or not _id_named(low)):
        return None  # a site's own numbered script bundle (`chunk-12345.js`)
    kind = "a program" if ext in _PROGRAM_FILES else "an archive" if ext in _ARCHIVES else "a document with macros"
    how = f"as a {named!r}" if named else "as a number"
    return f"{kind} named {how} ({name[:48]}) served by {host}, a site with no name"


def _cms_hideout(segs: list[str], host: str, brands: frozenset[str]) -> tuple[str, str | None] | None:
    """(why, the brand) of a path that hides a kit or a panel in a content system's folders: a botnet panel's
    check-in script (`/<...>/panel/gate.php`), a script in a style-sheet, picture or upload folder
    (`/wp-admin/css/<...>.php`), or a plugin or theme folder named for a brand (`/wp-content/plugins/<bank>/`)."""
    low = [s.lower() for s in segs]
    last = low[-1] if low else ""
    if last in _PANEL_FILES:
        return f"a botnet panel's check-in script ({segs[-1][:32]}) on {host}", None
    cms = any(s in _CMS_FOLDERS or s.startswith("wp-") for s in low[:-1])
    if not cms:
        return None
    ext = last.rpartition(".")[2] if "." in last else ""
    if ext in _SCRIPT_EXT and any(s in _ASSET_FOLDERS for s in low[1:-1]):
        folder = next(s for s in low[1:-1] if s in _ASSET_FOLDERS)
        return f"a script ({segs[-1][:32]}) in the {folder!r} folder of a site's content system", None
    if ext in _STATIC_EXT:
        return None  # a plugin's own style sheet or picture
    for i, seg in enumerate(low[:-1]):
        if seg in _CMS_EXTENSION_FOLDERS and i > 0 and low[i - 1].startswith("wp-"):
            words = _WORDS.findall(low[i + 1])
            brand = next((w for w in words if w in brands), None)
            # the brand alone or beside sign-in words (`<bank>`, `<bank>-login`); a plugin names what it does too
            # (`<shop>-<payment brand>-payments`)
            if brand is not None and brand not in host and all(w == brand or w in _CREDENTIAL for w in words):
                return f"a {seg[:-1] if seg.endswith('s') else seg} folder named for {brand!r} on {host}", brand
    return None


def _brand_folder(segs: list[str], host: str) -> tuple[str, bool] | None:
    """(the brand, a kit's first page follows) of a folder named exactly for a brand (`/<brand>/`,
    `/<brand>365/index.php`) on a site that is not the brand's, where no folder before it makes the page about the
    brand (docs, integrations, a shop's brand pages, a sign-in-with route). The bare folder counts only for a
    distinctive brand (an everyday word is a topic's folder)."""
    low = [s.lower() for s in segs]
    for i, seg in enumerate(low):
        if seg in _BRAND_FOLDER_CONTEXT:
            return None
        word = seg.rstrip("0123456789")
        if word not in _BRAND_TOKENS or len(word) < 5 or word in host or (i == len(low) - 1 and "." in seg):
            continue
        rest = low[i + 1:]
        if not rest and word in _DISTINCT_BRANDS:
            return word, False
        # a page in the brand's folder counts when it is a kit's first page (`index.php`, `login.html`); an article
        # about the brand (`/<brand>/review.html`) does not
        if len(rest) == 1 and rest[0].rpartition(".")[2] in _PAGE_EXT and "." in rest[0] and \
                rest[0].rpartition(".")[0] in _KIT_PAGES:
            return word, True
        return None
    return None


def _digit_brand(label: str) -> str | None:
    """A distinctive brand spelled with digits for letters in a label (`g00gle`, `paypa1`, `micr0soft`)."""
    if not any(c.isdigit() for c in label) or not any(c.isalpha() for c in label):
        return None
    for folded in {label.translate(_FOLD_DIGITS), label.translate(_FOLD_ONE_I).translate(_FOLD_DIGITS)}:
        for piece, raw in zip(folded.split("-"), label.split("-"), strict=True):
            # a brand's name written with a digit is no word, whatever the brand's name is as a word (`g00gle`)
            if piece != raw and len(piece) >= 5 and piece in _BRAND_TOKENS and any(c.isalpha() for c in raw):
                return piece
    return None

_PAGE_EXT = frozenset({"html", "htm", "shtml", "xhtml", "php", "asp", "aspx", "jsp", "cgi", "svg"})
_ALNUM = re.compile(r"[^A-Za-z0-9]")
_RUNS = re.compile(r"[A-Za-z]+|\d+")
_WORDS = re.compile(r"[^\W\d_]+")
_IDS = re.compile(r"^\d+(?:_[a-z]{1,4})?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_HEX = re.compile(r"^[0-9a-fA-F]+$")
_SLUG = re.compile(r"[-_.~+ ]+")
_ESCAPED_PLAIN = re.compile(r"%(?:3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa])")
_DOC_EXT = frozenset({"pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "rtf", "odt", "txt", "csv", "jpg", "png",
                      "eml", "msg"})
_PRIVATE_TLDS = frozenset({"local", "localhost", "internal", "intranet", "lan", "home", "corp", "test", "example",
                           "invalid", "localdomain", "onion"})


class Shape(NamedTuple):
    """What a URL's shape says: `signs` (why, each with its points), `shape` (points of the link's own shape: a page
    file on a free host, a random token, a redirect), `host` (points of its host: a cheap name, a bare address),
    `brand` (a brand the link names on a site not the brand's), `credential` (a sign-in or payment word of its path)."""

    signs: tuple[str, ...]
    shape: int
    host: int
    brand: str | None
    credential: str | None
    free_page: bool
    idp: str | None
    loose: int = 0  # of `shape`, the points of a token deeper in the path or in a query value (shops' and apps' ids)

    @property
    def asks(self) -> bool:
        return self.shape >= 2 or (self.shape - self.loose >= 1 and
                                   (self.host >= 1 or (self.free_page and self.credential is not None)))

    @property
    def blocks(self) -> bool:
        return self.idp is not None or (self.asks and self.brand is not None) or \
            (self.free_page and self.shape >= 2 and self.credential is not None)


def random_token(text: str) -> bool:
    """Text that reads as a generated key, not words or a number: twenty letters and digits or more, upper and lower
    case with digits scattered among them (`4ZhdaM4983QuxQ289...`), or lower case with few vowels and digits in several
    places (`adgchjsa...8234638vsdfh...`). A hexadecimal hash (a commit, a session id), a JSON web token, a title
    written in camel case and a word with a year are not."""
    alnum = _ALNUM.sub("", text)
    if len(alnum) < 20 or _HEX.match(alnum) or alnum.startswith("eyJ"):
        return False
    if sum(len(p) >= 3 and p.isalpha() and p.islower() for p in _SLUG.split(text)) >= 2:
        return False  # a slug of words with an id (`ceramic-mug-<id>`)
    runs = _RUNS.findall(alnum)
    digit_runs = sum(r.isdigit() for r in runs)
    letters = "".join(r for r in runs if not r.isdigit())
    if not letters or digit_runs < 2:
        return False
    upper = sum(c.isupper() for c in letters)
    lower = len(letters) - upper
    vowels = sum(c in "aeiouAEIOU" for c in letters) / len(letters)
    if upper >= 3 and lower >= 3:
        # random mixed case changes case often; a camel-case title changes it once a word
        changes = sum(a.isupper() != b.isupper() for a, b in itertools.pairwise(letters))
        return changes >= len(letters) / 5 or vowels < 0.3
    return vowels < 0.25 and digit_runs >= 2 and len(letters) >= 10


def _suffix_in(host: str, table: frozenset[str]) -> str | None:
    return next((s for s in [host, *_suffixes(host)] if s in table), None)


def _unknown(host: str) -> bool:
    """A host the gate has no name for: not a brand's own, not a listed big site, not this machine or a private net."""
    if is_loopback(host) or "." not in host or host.rsplit(".", 1)[-1] in _PRIVATE_TLDS:
        return False
    ip = ip_of(host)
    if ip is not None:
        return ip.is_global
    return _suffix_in(host, _KNOWN) is None and not own_site(host)


def _brand_named(host: str, segs: list[str], free: bool) -> str | None:
    """A brand named in the host's subdomain labels or in the path (a hyphen-part, a word, or, on a free host, a
    distinctive brand's name inside a run-together page file's name) of a site that is not the brand's."""
    reg = registrable(host)
    sub = host[: -len(reg)].rstrip(".") if host != reg else ""
    parts = [p for label in sub.split(".") for p in label.split("-") if p]
    for seg in segs:
        page = seg.rpartition(".")[2].lower() in _PAGE_EXT
        stem = seg.rsplit(".", 1)[0].lower() if page else seg.lower()
        parts.extend(_WORDS.findall(stem))
        glued = _ALNUM.sub("", stem)
        hit = next((b for b in _DISTINCT_BRANDS if b in glued), None) if free and page and len(glued) <= 80 else None
        if hit is not None:
            return hit
    return next((p for p in parts if p in _BRAND_TOKENS and p not in _PLAIN and len(p) >= 4), None)


def _idp_impostor(host: str) -> str | None:
    """A site's own name that joins a company's name to a single-sign-on word (`<company>-okta`, `<company>-sso`,
    `sso-<company>`): the sign-in portals of help-desk phishing campaigns."""
    site = registrable(host).split(".", 1)[0]
    parts = [p for p in site.split("-") if p]
    if len(parts) < 2 or not any(p in _IDP_WORDS for p in parts):
        return None
    rest = [p for p in parts if p not in _IDP_WORDS]
    joined = "".join(rest)
    if joined in _BRAND_TOKENS or any(p in _BRAND_TOKENS and len(p) >= 3 for p in rest):
        return joined
    # a company the brand tables do not list, beside the two words those campaigns use (`<company>-okta`)
    if len(rest) == 1 and len(joined) >= 5 and joined.isalpha() and {"okta", "sso"} & set(parts) and \
            joined not in _CREDENTIAL and joined not in _SERVICE_WORDS and joined not in _IDP_GENERIC:
        return joined
    return None


_B64 = re.compile(r"^[A-Za-z0-9+/_-]{12,400}={0,2}$")
_MAILBOX = re.compile(r"^[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,4}$")


def _names_mailbox(value: str) -> bool:
    """A value that is a mailbox's address written in base64 (`#dXNlckBleGFtcGxlLmNvbQ==`)."""
    value = value.strip()
    if not _B64.match(value):
        return False
    try:
        text = base64.b64decode(value.replace("-", "+").replace("_", "/") + "=" * (-len(value) % 4),
                                validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    return _MAILBOX.match(text.strip()) is not None


def _document_archive(name: str, host: str, segs: list[str], free: bool) -> str | None:
    """An archive named as an invoice, a scan or a statement (`Invoice_0412.zip`, `Scan-2291.rar`), served from a
    storage or free host, a file drop, a site's upload folder or a bulk-registered name: how mail malware is delivered
    (the archive holds the program its name hides)."""
    stem, dot, ext = name.lower().rpartition(".")
    if not dot or ext not in _ARCHIVES or len(stem) > 80:
        return None
    words = set(_WORDS.findall(stem))
    word = next((w for w in sorted(words) if w in _DOC_NAMES), None)
    if word is None or words & _TOOL_NAMES:
        return None
    where = "a free host" if free else next((f"{s}/" for s in segs[:-1] if s.lower() in _UPLOAD_FOLDERS), None) or \
        (f"the file drop {host}" if _suffix_in(host, _FILE_DROPS) else None) or \
        (f"the bulk-registered .{host.rsplit('.', 1)[-1]}" if host.rsplit(".", 1)[-1] in _ABUSED_TLDS else None) or \
        (f"the bare address {host}" if ip_of(host) is not None else None)
    return f"an archive named {word!r} ({name[:48]}) served from {where}" if where else None


@functools.lru_cache(maxsize=2048)
def url_shape(url: str) -> Shape | None:
    """The signs in a web URL's shape alone, or None when it has none (or is on a host the gate knows)."""
    parts = split_url(url)
    if parts is None or parts.scheme not in ("http", "https", "") or not parts.host:
        return None
    host = parts.host.removeprefix("www.")
    full = host + parts.path
    published = next((p for p in _PUBLISHED if full.startswith(p)), None)
    storage = _suffix_in(host, _STORAGE)
    builder = _suffix_in(host, _BUILDERS) if storage is None else None
    segs = [s for s in parts.path.split("/") if s][:16]
    last = segs[-1] if segs else ""
    if published is None and storage is None and builder is None and not _unknown(host):
        # a known file drop (a brand's own): only what its file is named says anything
        archive = _document_archive(last, host, segs, False) if _suffix_in(host, _FILE_DROPS) else None
        return Shape((archive,), 2, 0, None, None, False, None) if archive else None
    stem, dot, ext = last.rpartition(".")
    page = bool(dot) and ext.lower() in _PAGE_EXT
    signs: list[str] = []
    shape = hostp = loose = 0
    free_page = False
    if published is not None and last.lower() in ("exec", "dev"):
        shape += 2
        free_page = True
        signs.append(f"a script published as a web page on {host}")
    elif storage is not None and page:
        shape += 2
        free_page = True
        signs.append(f"a web page served as a file from the storage host {storage}")
    elif _suffix_in(host, _TUNNELS) not in (None, host) and page:
        free_page = True  # a point only when it takes a sign-in (below): developers share their own pages so
        signs.append(f"a page file served through a tunnel from someone's computer ({_suffix_in(host, _TUNNELS)})")
    elif builder is not None and (page or last.lower() == "exec"):
        shape += 1
        free_page = True
        signs.append(f"a page file on {builder}, where anyone publishes")
    if page and stem.rpartition(".")[2].lower() in _DOC_EXT:
        shape += 2
        signs.append(f"a web page named as a document ({last[:48]})")
    raw_path = parts.raw.split("://", 1)[-1].partition("/")[2].partition("?")[0].partition("#")[0]
    if len(_ESCAPED_PLAIN.findall(raw_path)) >= 4:
        shape += 2
        signs.append("its path spells plain letters in percent escapes")
    archive = _document_archive(last, host, segs, storage is not None or builder is not None)
    if archive is not None:
        shape += 2
        signs.append(archive)
    elif (delivered := _delivered_file(last, host, segs)) is not None:
        shape += 2
        signs.append(delivered)
    hideout = _cms_hideout(segs, host, _DISTINCT_BRANDS) if segs else None
    if hideout is not None:
        shape += 2
        signs.append(hideout[0])
    folder = _brand_folder(segs, host) if segs and hideout is None and ip_of(host) is None else None
    if folder is not None:
        shape += 2 if folder[1] else 1
        signs.append(f"a {'page in a ' if folder[1] else ''}folder named for {folder[0]!r} on {host}")
        if segs[0].startswith("~"):
            shape += 1
            signs.append(f"in a shared host's user folder ({segs[0][:24]})")
    labels = host.split(".")
    ip = ip_of(host)
    tunnel = _suffix_in(host, _TUNNELS)
    zone = _suffix_in(host, _DYN_ZONES) if tunnel is None else None
    tenant = host[: -len(tunnel or zone or "")].rstrip(".") if (tunnel or zone) and host != (tunnel or zone) else ""
    digit_brand = None
    if tenant:
        hostp += 1
        signs.append(f"a {'tunnel from someone' + chr(39) + 's computer' if tunnel else 'dynamic-DNS name'} "
                     f"({tunnel or zone})")
        digit_brand = next((b for lab in tenant.split(".") if (b := _digit_brand(lab)) is not None), None)
        if digit_brand is not None:
            shape += 2
            signs.append(f"{tenant!r} spells {digit_brand!r} with digits")
        if parts.port is not None and parts.port not in (80, 443):
            shape += 1
            loose += 1  # a home server's own port (`:8123`) says nothing alone
            signs.append(f"served on the unusual port {parts.port}")
    if ip is not None:
        hostp += 1
        signs.append(f"a bare address {host}")
    elif labels[-1] in _ABUSED_TLDS or _suffix_in(host, _CHEAP_SUFFIXES):
        hostp += 1
        signs.append(f"the bulk-registered name .{_suffix_in(host, _CHEAP_SUFFIXES) or labels[-1]}")
    if any(lab.startswith("xn--") for lab in labels):
        hostp += 1
        signs.append(f"{host} is written in another script (punycode)")
    if parts.userinfo:
        shape += 2
        signs.append("a name before '@' hides the real host")
    site = registrable(host).split(".", 1)[0] if ip is None else ""
    if site.startswith("xn--"):
        pass  # punycode's own hyphens and digits are counted above
    elif site.count("-") >= 3 or (sum(c.isdigit() for c in site) >= 4 and any(c.isalpha() for c in site)):
        hostp += 1
        signs.append(f"the site's name {site!r} is a run of hyphens or digits")
    lookalike = lookalike_domain(host) if ip is None else None
    if lookalike is not None:
        shape += 2
        signs.append(f"{registrable(host)} is {lookalike} with one letter changed")
    tokens = [s for s in segs if random_token(s.rpartition(".")[0] if s.rpartition(".")[2].lower() in _PAGE_EXT
                                              else s)]
    if segs and len(segs) <= 2 and tokens and tokens[0] is segs[0] and (len(segs) == 1 or len(segs[1]) <= 12):
        shape += 2
        signs.append(f"its whole path is a random token ({segs[0][:24]}...)")
    elif len(segs) == 1 and (builder or storage or tenant) and 12 <= len(segs[0]) <= 40 and segs[0].isalnum() and \
            _random_token(segs[0][:16]) and any(c.isupper() for c in segs[0]) and any(c.isdigit() for c in segs[0]):
        shape += 2
        signs.append(f"its whole path on a free host is a random key ({segs[0][:24]}...)")
    elif tokens:
        shape += 1
        loose += 1
        signs.append(f"a random token in its path ({tokens[0][:24]}...)")
    query = [(k.lower(), v) for k, v in parse_qsl(parts.query, keep_blank_values=True)][:64]
    fed = [v for k, v in query if k not in _PURPOSE_KEYS and not k.startswith("utm_") and random_token(v)]
    if fed and not tokens:
        shape += 1 + (1 if page and ext.lower() == "php" else 0)
        loose += 1
        signs.append(f"a {'script' if page else 'page'} fed a random key ({fed[0][:24]}...)")
    fragment = parts.raw.partition("#")[2]
    told = next((v for v in [fragment, *(v for _, v in query)] if _names_mailbox(v)), None)
    if told is not None:
        shape += 2
        signs.append("it carries a mailbox's address written in base64, the way a kit is told whose sign-in to copy")
    if segs and segs[0].lower() in _TRACK_FOLDERS and len(segs) >= 2:
        rest = segs[1:]
        ids = [s for s in rest if _IDS.match(s)]
        if tokens:
            shape += 1
            signs.append(f"a click-tracking redirect (/{segs[0]}/...)")
        elif len(ids) >= 4 and not _YEAR.match(ids[0]):
            shape += 2
            signs.append(f"a click-tracking redirect carrying {len(ids)} ids (/{segs[0]}/{'/'.join(ids[:3])}/...)")
    keys = {k for k, _ in query}
    if len(keys & _AFFILIATE) >= 3 and keys & _AFFILIATE_MARKS and len(segs) <= 1:
        shape += 2
        signs.append("an affiliate network's redirect (" + "&".join(sorted(keys & _AFFILIATE)) + ")")
    words = {w.lower() for s in segs for w in _WORDS.findall(s)} | {s.lower().rsplit(".", 1)[0] for s in segs}
    fee = next((w for w in sorted(words & _FEE_WORDS) if len(w) >= 5 and w in site), None)  # not `coffee`'s `fee`
    if fee is not None and segs and segs[0].lower() == fee:
        shape += 1
        hostp += 1
        signs.append(f"a site named for a {fee!r} at its {fee!r} page")
    credential = next((w for w in sorted(words) if w in _CREDENTIAL), None)
    if tunnel and tenant and credential is not None:  # a home server's own sign-in page is on a dynamic name
        shape += 1
        signs.append(f"its page takes a {credential!r}")
    if builder is not None and host != builder:
        # an app host's tenant named for signing in (`signin-portal.<app host>`), at a sign-in page or a page file
        named = [p for p in _WORDS.findall(host[: -len(builder)]) if p in _CREDENTIAL]
        if len(named) >= 2 or (_SIGN_IN_WORDS.intersection(named) and (credential is not None or page)):
            shape += 2
            signs.append(f"a tenant of {builder} named {named[0]!r}")
    prefilled = next((k for k, v in query if _MAILBOX.match(v.strip())), None) if page else None
    if prefilled is not None:
        shape += 2 if credential else 1
        signs.append(f"a {'sign-in ' if credential else ''}page file told a mailbox's address ({prefilled}=)")
    free = published is not None or storage is not None or builder is not None
    brand = _brand_named(host, segs, free) if ip is None and (free or not own_site(host)) else None
    if tenant and brand is not None and shape == 0:
        shape += 1  # a brand's name on someone's tunnel or home name
    if folder is not None and credential is None and shape <= 2 and hostp == 0:
        brand = None  # a brand's folder alone asks; beside a sign-in word or another sign it is a kit's
    elif folder is not None and credential is not None:
        brand = brand or folder[0]
    brand = brand or digit_brand or (hideout[1] if hideout else None)
    if lookalike is not None and credential is not None:
        brand = brand or lookalike
    idp = _idp_impostor(host) if ip is None and not own_site(host) and _suffix_in(host, _BUILDERS) is None else None
    if idp is not None:
        signs.append(f"{host} joins {idp!r} to a single-sign-on word, on a site not {idp}'s")
    if not signs:
        return None
    return Shape(tuple(signs), shape, hostp, brand, credential, free_page, idp, loose)


_MINING = _BOOK["mining"]
_POOLS = frozenset(_MINING["pools"])
_POOL_WORDS = frozenset(_MINING["pool_words"])
_COINS = frozenset(_MINING["coins"])
_POOL_PORTS = frozenset(_MINING["ports"])
_MINERS = frozenset(_MINING["miners"])
_MINERS_GLUED = frozenset(m.replace("-", "") for m in _MINERS)
_AMBIGUOUS_MINERS = frozenset(m.replace("-", "") for m in _MINING["ambiguous"])
_MINER_PAGES = frozenset(_MINING["download_paths"])
_MINER_FILES = tuple(f".{f}" for f in _MINING["files"])
_CODE_HOSTS = frozenset(_MINING["code_hosts"])
_SEGMENT_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_HYPHEN_PARTS = re.compile(r"[-_]")
_NAME_PARTS = re.compile(r"[-_.]")


# a coin and a pool word written as one label, either way round (`xmrpool`, `poolxmr`): the whole set, so a label is
# one lookup, not a prefix and a suffix test per coin
_GLUED_POOLS = frozenset({*(c + w for c in _COINS for w in _POOL_WORDS), *(w + c for c in _COINS for w in _POOL_WORDS)})


def _pool_label(label: str) -> bool:
    """A host label that names a pool for a coin: `xmrpool`, `monero-pool`, `pool-eth`, `xmr-mining`."""
    parts = [p for p in _HYPHEN_PARTS.split(label) if p]
    if len(parts) > 1:
        return any(p in _POOL_WORDS for p in parts) and any(p in _COINS for p in parts)
    return label in _GLUED_POOLS


def _miner_name(text: str) -> str | None:
    """The miner program a path segment or a file name starts with (`xmrig-6.22.2-linux-x64.tar.gz`,
    `SRBMiner-Multi`)."""
    low = text.lower()
    m = _SEGMENT_WORD.match(low)
    if m is None:
        return None
    words = m.group(0).split("-")
    for n in range(len(words), 0, -1):
        head = "".join(words[:n])
        if head in _MINERS_GLUED:
            return head
    return None


@functools.lru_cache(maxsize=1024)
def mining(url: str) -> tuple[str, bool] | None:
    """(why, sure) when `url` reaches a crypto-mining pool or fetches a miner program: a stratum address, a listed
    pool's domain, a host that joins a pool word to a coin (`xmrpool.`, `monero-pool.`), a pool word on a pool port;
    a miner's repository at its releases or an archive of it, a miner's file anywhere, a miner's own site. `sure` is
    False for a miner repository's other pages (its readme, its issues), which ask. Pages about mining pass."""
    parts = split_url(url)
    if parts is None or not parts.host:
        return None
    host = parts.host.lower().rstrip(".")
    if parts.scheme.startswith("stratum"):
        return f"{host} is a mining pool's stratum address", True
    if ip_of(host) is None:
        pool = next((s for s in _suffixes(host) if s in _POOLS), None)
        if pool is not None:
            return f"{host} is the mining pool {pool}", True
        labels = host.split(".")[:-1]
        if any(_pool_label(label) for label in labels):
            return f"{host} is named as a mining pool for a coin", True
        if parts.port in _POOL_PORTS and any(p in _POOL_WORDS for label in labels for p in _HYPHEN_PARTS.split(label)):
            return f"{host}:{parts.port} is a pool's stratum port on a host named for mining", True
    low_url = url.lower()
    segments = [s for s in parts.path.split("/") if s]
    site = registrable(host) if ip_of(host) is None else host
    own = site.split(".", 1)[0]
    if own.replace("-", "") in _MINERS_GLUED and own.replace("-", "") not in _AMBIGUOUS_MINERS:
        return f"{host} is the miner {own}'s own site", True
    if segments and segments[-1].lower().endswith(_MINER_FILES):
        words = _NAME_PARTS.split(segments[-1].lower())
        for i in range(len(words)):
            name = _miner_name("-".join(words[i:]))
            if name is not None and (name not in _AMBIGUOUS_MINERS or "miner" in low_url.replace(name, "")):
                return f"{segments[-1]} is the miner {name}", True
    for i, seg in enumerate(segments):
        name = _miner_name(seg)
        if name is None or (name in _AMBIGUOUS_MINERS and "miner" not in low_url.replace(seg.lower(), "", 1)):
            continue
        rest = [s.lower() for s in segments[i + 1:]]
        if host in _CODE_HOSTS or site in _CODE_HOSTS:
            if i == 1 and any(r in _MINER_PAGES for r in rest[:1]):
                return f"the release page of the miner {name}", True
            if i == 1:
                return f"the repository of the miner {name}", False
    return None


_PF = _BOOK["product-front"]
_PF_DOWNLOAD = frozenset(w.replace("-", "") for w in _PF["download"])
_PF_PLACE = frozenset(w.replace("-", "") for w in _PF["place"])
_PF_SIGNIN = frozenset(w.replace("-", "") for w in _PF["signin"])
_PF_HOSTED = frozenset(w.replace("-", "") for w in _PF["hosted"])
_PF_GENERIC = frozenset(_PF["generic"])


def _joins(name: str, first: frozenset[str], second: frozenset[str]) -> bool:
    """The registered name is one of `first` and one of `second`, in either order, hyphenated or glued."""
    parts = [p for p in name.split("-") if p]
    if len(parts) == 2:
        a, b = parts
        return (a in first and b in second) or (a in second and b in first)
    if len(parts) == 1:
        glued = parts[0]
        return any(glued.startswith(w) and (glued[len(w):] in second) for w in first) or \
            any(glued.startswith(w) and (glued[len(w):] in first) for w in second)
    return False


@functools.lru_cache(maxsize=1024)
def product_front(host: str) -> tuple[str, str] | None:
    """(product, what the site is) when `host` puts a product's name as a subdomain of a registered name that only
    says "download an app" or "sign in to a hosted copy" (`<product>-browser.app-download.info`,
    `<product>.selfhost-login.com`), and the host is no listed brand's own site."""
    host = host.lower().rstrip(".")
    if not host or ip_of(host) is not None or own_site(host):
        return None
    site = registrable(host)
    sub = host[: -len(site)].rstrip(".")
    if not sub:
        return None
    product = sub.split(".")[-1]
    if product in _PF_GENERIC or len(product.replace("-", "")) < 3 or product.isdigit():
        return None
    name = site.split(".", 1)[0]
    if _joins(name, _PF_DOWNLOAD, _PF_PLACE):
        return product, "a generic download site"
    if _joins(name, _PF_SIGNIN, _PF_HOSTED):
        return product, "a generic sign-in site"
    return None
