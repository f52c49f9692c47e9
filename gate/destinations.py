"""What a web destination claims to be, read from its host and path (resources/destinations.toml).

    impersonation(host) -> Claim | None       a brand's or an agency's name on a site that is not theirs
    lure_words(host, path) -> Lures           the words a scam destination names itself or its page with
    abused_tld(host) -> bool                  the host's top-level name is one registered in bulk for scams
    own_site(host) -> bool                    the host is under a listed brand's own domain
    judge(host, path) -> Verdict | None       the two read together: block, confirm or nothing
    fake_update(host, path) -> str | None     a browser's or a program's update or installer served by another site
    update_offer(words, host) -> str | None   a label offering a product's update on a site not its vendor's

A brand's token (`paypal`, `royalmail`, `ssa`) counts where it is a whole label or a hyphen-part of a label
(`paypal-verify.example.top`, `ssa.benefits.example.net`), on a registrable domain (gate/urls.py `registrable`)
that is none of the brands' own and is not `<token>.<country>`. Pure: the table is read once, at import.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from importlib import resources
from typing import NamedTuple

from gate import regex_store
from gate.urls import ip_of, is_loopback, registrable

__all__ = [
    "Claim", "Lures", "Verdict", "abused_tld", "agent_check_host", "brand_favoured_tld", "brand_name",
    "confidential_name", "cracked_software", "fake_update", "impersonation", "judge", "lure_words", "malware_sample",
    "money_site", "own_site", "public_upload", "update_offer",
]

_BOOK = regex_store.toml(resources.files("resources").joinpath("destinations.toml").read_text("utf-8"))


_WWW_DASH = re.compile(r"(?:^|\.)www\d?[-_]")  # `www-brand.`, `www2-brand.`, `www_brand.`

def _own_table() -> dict[str, frozenset[str]]:
    own: dict[str, set[str]] = {}
    for table in _BOOK["brands"].values():
        for token, domains in table.items():
            own.setdefault(token, set()).update(d.lower() for d in domains)
    return {t: frozenset(d) for t, d in own.items()}


_OWN = _own_table()
_ALL_OWN = frozenset(d for ds in _OWN.values() for d in ds)
_AGENCY = frozenset(_BOOK["brands"]["government"])  # tax, benefit, health and motoring offices


# the brands whose sites hold money or a person's standing: banks, payment services, crypto exchanges, governments
_MONEY_DOMAINS = frozenset(d.lower() for cat in ("banks-payments", "crypto", "government", "credit-insurance-services")
                           for ds in _BOOK["brands"].get(cat, {}).values() for d in ds)


def money_site(host: str) -> bool:
    """The host is under the own domain of a bank, a payment service, a crypto exchange or a government office."""
    labels = host.lower().rstrip(".").split(".")
    return any(".".join(labels[i:]) in _MONEY_DOMAINS for i in range(len(labels) - 1))


def brand_name(word: str) -> bool:
    """`word` (any case, spaces and dots ignored: "GitHub", "Bank of America") is a listed brand's name."""
    return word.lower().replace(" ", "").replace(".", "").replace("-", "") in _OWN
_PLAIN = frozenset(_BOOK["plain"]["tokens"])
_HOSTING = frozenset(_BOOK["hosting"]["suffixes"])
_SERVICE = frozenset(_BOOK["hosting"]["service_words"])
_ABUSED = frozenset(_BOOK["tlds"]["abused"])
_FAVOURED = frozenset(_BOOK["tlds"]["brand_favoured"])
_SCHEME = tuple(_BOOK["lures"]["scheme_stems"])
_SCHEME_CORE = tuple(_BOOK["lures"]["scheme_core"])
_MONEY_PATH = frozenset(_BOOK["lures"]["money_path"])
_FEE_NOTICE = frozenset(_BOOK["lures"]["fee_notice"])
_PERMIT_NOTICE = frozenset(_BOOK["lures"]["permit_notice"])
_WORD = re.compile(r"[^\W_]+")
_SUPPORT_DESK = frozenset("".join(_WORD.findall(w.lower())) for w in _BOOK["lures"]["support_desk"])


def _phrases(items: list[str]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """First word → the phrases (as word tuples) that start with it, longest first."""
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for item in items:
        words = tuple(_WORD.findall(item.lower()))
        if words:
            by_first.setdefault(words[0], []).append(words)
    return {k: tuple(sorted(set(v), key=len, reverse=True)) for k, v in by_first.items()}


_STRONG = _phrases(_BOOK["lures"]["words"])
_WEAK = _phrases(_BOOK["lures"]["weak"])
_NEUTRAL = _phrases(_BOOK["lures"]["neutral"])
_HOST_ONLY = frozenset(" ".join(_WORD.findall(w.lower())) for w in _BOOK["lures"]["host_only"])
_SIGNIN = frozenset(" ".join(_WORD.findall(w.lower())) for w in _BOOK["lures"]["signin"])
_SIGNIN_PATH = frozenset(_BOOK["lures"]["signin_path"])
_ACCOUNT = frozenset(" ".join(_WORD.findall(w.lower())) for w in _BOOK["lures"]["account"])
_GLUED = tuple(sorted(_BOOK["lures"]["glued"], key=len, reverse=True))
_OFFER_ACTION = frozenset({"update", "updates", "updater", "upgrade", "patch"})
_DIGITS = re.compile(r"^(\d*)([a-z]{4,}?)(\d+)$|^(\d+)([a-z]{4,})$")


class Claim(NamedTuple):
    """A brand's name on someone else's site."""

    token: str  # the brand's token as written in the host ("royalmail")
    strong: bool  # a distinctive name written as a hyphen-part or as the site's own name on an abused TLD;
    # False: an ordinary word ("target"), a bare subdomain label, or a name on a hosting platform
    hosted: bool  # the site is a tenant of a hosting platform (github.io, vercel.app, okta.com ...)
    spelled: tuple[str, ...] = ()  # the hyphen-parts the name is written with ("bank", "of", "america")


class Lures(NamedTuple):
    strong: tuple[str, ...]  # lure terms, each once, host first ("verify", "safe pay")
    weak_host: tuple[str, ...]  # everyday words in the host's own labels ("login", "wallet")


class Verdict(NamedTuple):
    level: str  # "block" or "confirm"
    kind: str  # "brand-lure", "brand-cheap-tld", "brand-elsewhere", "lure-words", "lure-word"
    why: str


def abused_tld(host: str) -> bool:
    return ip_of(host) is None and host.rsplit(".", 1)[-1] in _ABUSED


def brand_favoured_tld(host: str) -> bool:
    """The top-level name reads as a brand's department (`.services`, `.center`, `.help`): ordinary for a business,
    a look-alike's choice for a brand's name (`[tlds] brand_favoured`)."""
    return ip_of(host) is None and host.rsplit(".", 1)[-1] in _FAVOURED


def _suffixes(host: str) -> list[str]:
    """`a.b.c` → a.b.c, b.c, c: every name the host is under (set lookups instead of scanning the tables)."""
    labels = host.split(".")
    return [".".join(labels[i:]) for i in range(len(labels))]


def _hosted(host: str) -> bool:
    return any(s in _HOSTING for s in _suffixes(host)[1:])


# registries that register only governments, armed forces, schools and treaty bodies (`.gov`, `.gov.uk`, `.gouv.fr`,
# `.edu`, `.ac.uk`): a brand's or an agency's name under them is that body's own
_RESTRICTED_TLDS = frozenset({"gov", "mil", "edu", "int"})
_RESTRICTED_SECOND = frozenset({"gov", "gob", "govt", "gouv", "gc", "mil", "edu", "ac", "go", "nic", "admin"})


@functools.lru_cache(maxsize=4096)  # (asked of the same host by a dozen checks of one navigation)
def own_site(host: str) -> bool:
    """The host is under a listed brand's own domain, is `<token>.<country or generic name>` of a brand, or is under
    a registry for governments and schools only."""
    labels = host.split(".")
    if labels[-1] in _RESTRICTED_TLDS or (len(labels) >= 3 and len(labels[-1]) == 2 and
                                           labels[-2] in _RESTRICTED_SECOND):
        return True
    suffixes = [".".join(labels[i:]) for i in range(len(labels) - 1)]
    if not _HOSTING.isdisjoint(suffixes[1:]):
        return False  # a tenant of a hosting platform is whoever opened it, whoever owns the platform
    if not _ALL_OWN.isdisjoint(suffixes):
        return True
    reg = registrable(host)
    site, _, suffix = reg.partition(".")
    tld = suffix.rsplit(".", 1)[-1]
    return site in _OWN and tld not in _ABUSED and tld not in _FAVOURED


def _labels(host: str) -> list[str]:
    """The host's own labels, left to right, without its public suffix (`a.b.example.co.uk` → a, b, example), or a
    hosting platform's tenant's labels without the platform's (`docs.acme.github.io` → docs, acme)."""
    labels = host.split(".")
    for i in range(1, len(labels)):
        if ".".join(labels[i:]) in _HOSTING:
            return labels[:i]
    reg = registrable(host)
    head = host[: -len(reg)].rstrip(".") if host != reg else ""
    return [*(head.split(".") if head else []), reg.split(".", 1)[0]]


@functools.lru_cache(maxsize=4096)
def _split(part: str) -> tuple[str, ...]:
    """A hyphen-part with a brand's name fused to digits or an everyday word, split at the name
    (`microsoft365` → microsoft, 365; `securepaypal` → secure, paypal; `paypallogin` → paypal, login); any other
    part as it is."""
    if part in _OWN or len(part) < 6:
        return (part,)
    m = _DIGITS.match(part)
    if m is not None:
        if m.group(2) is not None and m.group(2) in _OWN:
            return tuple(p for p in (m.group(1), m.group(2), m.group(3)) if p)
        if m.group(5) is not None and m.group(5) in _OWN:
            return m.group(4), m.group(5)
    for word in _GLUED:
        if part.startswith(word) and len(part) - len(word) >= 4:
            rest = _split(part[len(word):])
            if rest[0] in _OWN:
                return word, *rest
        if part.endswith(word) and len(part) - len(word) >= 4 and part[:-len(word)] in _OWN:
            return part[:-len(word)], word
    return (part,)


def _parts(label: str, fused: bool = False) -> list[str]:
    """A label's hyphen-parts, each split where a brand's name is fused to digits or an everyday word. A label
    without a hyphen is left whole unless `fused` (the host is under a bulk-registered name): brands own such
    compounds themselves (`yahoomail`, `myworkday`), while a look-alike fuses the name inside a hyphenated one
    (`microsoft365-login`, `securepaypal-center`) or registers it where names are cheap (`dropboxlogin.top`)."""
    if "-" not in label and not fused:
        return [label] if label else []
    return [q for p in label.split("-") if p for q in _split(p)]


def _pieces(labels: list[str]) -> set[str]:
    """Every hyphen-part of the labels, and every two or three neighbours joined (`wells-fargo` → wellsfargo)."""
    out: set[str] = set()
    for label in labels:
        parts = _parts(label)
        out.update(parts)
        out.update(a + b for a, b in itertools.pairwise(parts))
        out.update(a + b + c for a, b, c in zip(parts, parts[1:], parts[2:], strict=False))
    return out


def _brand_in(parts: list[str]) -> tuple[str, int, int] | None:
    """(token, first part, past its last part) of the first brand in a label's hyphen-parts: one part (`paypal`), or
    two or three written apart (`wells-fargo`, `bank-of-america`) that spell a token of six letters or more."""
    for i, part in enumerate(parts):
        if part in _OWN:
            return part, i, i + 1
        for n in (2, 3):
            if i + n <= len(parts):
                joined = "".join(parts[i:i + n])
                if len(joined) >= 6 and joined in _OWN:
                    return joined, i, i + n
    return None


@functools.lru_cache(maxsize=1024)
def impersonation(host: str) -> Claim | None:
    """A brand's or agency's token written into a host that is none of the brands' own sites, or None."""
    if not host or ip_of(host) is not None or is_loopback(host) or "." not in host or own_site(host):
        return None
    labels = _labels(host)
    hosted = _hosted(host)
    abused = abused_tld(host) or brand_favoured_tld(host)
    best: Claim | None = None
    for label in labels:
        parts = _parts(label, abused)
        found = _brand_in(parts)
        if found is None:
            continue
        token, start, end = found
        rest = parts[:start] + parts[end:]
        if rest and not abused and all(p in _OWN or p in _SERVICE for p in rest) and \
                not (token in _AGENCY and any(p in _AGENCY for p in rest)):
            continue  # `<brand>-cdn`, `<brand>-docs`: a brand's own plumbing or project name (two offices' names
            # together are no office's plumbing)
        # a hyphen-part, or a whole label under an abused name (`paypal.top`, `paypal.example.top`); a bare
        # subdomain label elsewhere is as often a company's own install of a product (`gitlab.example.com`)
        strong = (bool(rest) or abused) and not hosted
        strong = strong and token not in _PLAIN
        claim = Claim(token, strong, hosted, tuple(parts[start:end]))
        if strong:
            return claim
        best = best or claim
    return best


def _drop_neutral(words: list[str]) -> list[str]:
    """`words` without the everyday phrases of `[lures] neutral` ("verify email" of "account verify email")."""
    if _NEUTRAL.keys().isdisjoint(words):
        return words
    kept: list[str] = []
    i = 0
    while i < len(words):
        hit = next((p for p in _NEUTRAL.get(words[i], ()) if tuple(words[i:i + len(p)]) == p), None)
        if hit is None:
            kept.append(words[i])
            i += 1
        else:
            kept.append("")  # a gap: the words on either side are no phrase
            i += len(hit)
    return kept


def _scan(words: list[str], table: dict[str, tuple[tuple[str, ...], ...]], other: dict | None = None) -> list[str]:
    """The terms of `table` in `words`, each once, a phrase read whole; an everyday phrase (`[lures] neutral`:
    "verify email", "refund policy") and, when given, a phrase of `other` are read as themselves and skipped."""
    found: list[str] = []
    words = _drop_neutral(words)
    i = 0
    while i < len(words):
        skip = None
        if other is not None:
            # a phrase of the other table starting here ("secure login") is read as that phrase
            skip = next((p for p in other.get(words[i], ()) if len(p) > 1 and tuple(words[i:i + len(p)]) == p), None)
        if skip is not None:
            i += len(skip)
            continue
        hit = next((p for p in table.get(words[i], ()) if tuple(words[i:i + len(p)]) == p), None)
        if hit is None:
            i += 1
            continue
        term = " ".join(hit)
        if term not in found:
            found.append(term)
        i += len(hit)
    return found


# a path segment that names an article or documentation, not the page's business
_DOC_SEGMENTS = frozenset({"docs", "doc", "documentation", "help", "kb", "faq", "faqs", "article", "articles", "blog",
                           "blogs", "wiki", "guide", "guides", "tutorial", "tutorials", "learn", "news", "reference",
                           "howto", "how-to", "questions", "forum", "forums", "t", "threads", "tags", "tag", "search",
                           "posts", "post", "stories", "press", "resources", "insights", "research"})
# hosts whose pages are articles or documentation (`blog.`, `docs.`): their paths are titles
_DOC_HOSTS = frozenset({"docs", "doc", "developer", "developers", "learn", "wiki", "blog", "kb", "knowledge", "news",
                        "help", "man", "manual", "documentation", "community", "forum", "forums"})
# words that make a short slug a title ("spot-fake-refund-calls", "airdrop-scams-explained")
_TITLE_WORDS = frozenset({"how", "why", "what", "when", "guide", "tips", "ways", "vs", "explained", "scam", "scams",
                          "avoid", "spot", "beware", "warning", "protect", "recognize", "recognise", "fake", "fraud"})
_SLUG = re.compile(r"[-_+ .]+")


def _path_words(path: str) -> list[str]:
    """The words of a path's segments, up to an article or documentation segment (whose words are a title)."""
    words: list[str] = []
    for seg in [s for s in path.lower().split("/") if s][:8]:
        if seg in _DOC_SEGMENTS or len(seg) > 80:
            break
        pieces = [w for w in _SLUG.split(seg) if w]
        if len(pieces) >= 5 or (len(pieces) >= 3 and any(w in _TITLE_WORDS for w in pieces)):
            break  # "how-to-recover-a-locked-account", "airdrop-scams-explained": an article's title
        words.extend(w for p in pieces for w in _WORD.findall(p))
    return words


@functools.lru_cache(maxsize=1024)
def lure_words(host: str, path: str, *, with_path: bool = True) -> Lures:
    """The lure terms of the host's own labels and of the path (words the host counts only in the host)."""
    host_words = [] if ip_of(host) is not None else \
        [w for lbl in _labels(host) for p in _WORD.findall(lbl) for w in _split(p)]
    strong = _scan(host_words, _STRONG)
    if with_path and host.split(".", 1)[0] not in _DOC_HOSTS:
        for term in _scan(_path_words(path), _STRONG):
            if term not in strong and term not in _HOST_ONLY:
                strong.append(term)
    weak = _scan(host_words, _WEAK, _STRONG)
    return Lures(tuple(strong), tuple(weak))


def _ip_path_brand(path: str) -> str | None:
    """A brand's token as a word of a path segment at a bare address (`/dhl/track`, `/login.microsoftonline.com/`)."""
    for seg in [s for s in path.lower().split("/") if s][:4]:
        for w in _WORD.findall(seg):
            if w in _OWN and w not in ("com", "net", "org"):
                return w
    return None


def _public_ip(host: str) -> bool:
    ip = ip_of(host)
    return (ip is not None and not (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified)) or \
        (ip is not None and str(ip).startswith(("192.0.2.", "198.51.100.", "203.0.113.")))


# -- gaming and giveaway hosts, fake human checks, tech-support pages (`[scam-hosts]`) ----------------------------
_SC = _BOOK["scam-hosts"]
_SC_OWN = frozenset(_SC["own"])
_SC_NAMES = frozenset(_SC["names"])
_SC_MISSPELT = tuple(_SC["misspelt"])
_SC_DECOYS = frozenset(_SC["misspelt_decoys"])
_SC_STRONG = frozenset(_SC["strong"])
_SC_SOFT = frozenset(_SC["soft"])
_SC_WORDS = _SC_NAMES | _SC_STRONG | _SC_SOFT
_CF = frozenset(_SC["cloudflare"])
_CF_OWN = frozenset(_SC["cloudflare_own"])
_CF_CHALLENGE = frozenset(_SC["challenge"])
_HUMAN_CHECK = frozenset(_SC["human_check"])
_TS_VENDORS = frozenset(_SC["support_vendors"])
_TS_WORDS = frozenset(_SC["support_words"])
_TS_OWN = frozenset(_SC["support_own"])
_PART = re.compile(r"2fa|[a-z]+|[0-9]+")  # `2fa` is a word of its own (`<brand>2fa`)
_SC_DIGITS = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t"})


def _under_any(host: str, domains: frozenset[str]) -> bool:
    labels = host.split(".")
    return any(".".join(labels[i:]) in domains for i in range(len(labels)))


def _one_off(word: str, name: str) -> bool:
    """`word` is `name` with one letter changed, added, dropped or two swapped (two edits for twelve letters or
    more), and is not `name` itself."""
    limit = 2 if len(name) >= 12 else 1
    if word == name or abs(len(word) - len(name)) > limit or word[0] != name[0]:
        return False
    if len(word) == len(name) and any(word == name[:i] + name[i + 1] + name[i] + name[i + 2:]
                                      for i in range(len(name) - 1)):
        return True  # two letters swapped
    prev = list(range(len(name) + 1))
    for i, a in enumerate(word, 1):
        cur = [i]
        for j, b in enumerate(name, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a != b)))
        prev = cur
    return prev[-1] <= limit


# letters that read as others at a glance (`rn` for `m`, `vv` for `w`, `l` and `1` for `i`): folded on both sides
# before two names are compared
_LOOKS = (("rn", "m"), ("vv", "w"), ("1", "i"), ("l", "i"), ("0", "o"))


def _fold(word: str) -> str:
    for a, b in _LOOKS:
        word = word.replace(a, b)
    return word


def _edits(a: str, b: str) -> int:
    """Letters changed, added or dropped between `a` and `b`, two neighbours swapped counting once."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def _folded_off(word: str, name: str, limit: int = 2) -> bool:
    """`word` misspells `name` (of nine letters or more) by up to `limit` changes once look-alike letters are folded,
    keeping its first letter (`staemcomnunlty`, `rnicrosoft`, `linkedln`): a name typed to pass at a glance."""
    folded, target = _fold(word), _FOLDED_NAMES.get(name) or _fold(name)
    if word == name or len(name) < 9 or folded[:1] != target[:1] or abs(len(folded) - len(target)) > 1:
        return False
    prefixes = _BRAND_PREFIXES.get(name)
    if prefixes is None:
        prefixes = _brand_prefixes(name)
    if word.startswith(prefixes):
        return False  # `discordpy` beside `discordapp`: the brand written whole, another word after it
    return _edits(folded, target) <= limit


_BT = _BOOK["brand-typo"]
_SHORT_BRANDS = frozenset(t for t in (*_SC_NAMES, *_OWN) if len(t) >= 5)
_BT_LONG = tuple(_BT["long"])
_BT_SHORT = tuple(n for n in _BT["short"] if len(n) >= 6)
_BT_DECOYS = frozenset(_BT["decoys"])


def _brand_prefixes(name: str) -> tuple[str, ...]:
    """The shorter brands `name` starts with, up to four letters shorter (`discord` of `discordapp`)."""
    return tuple(t for t in _SHORT_BRANDS if len(name) - len(t) <= 4 and name.startswith(t))


def _by_initial(initial: Callable[[str, str], str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """The misspelt-brand names with their folded spellings, in table order, grouped by `initial(name, folded)`."""
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for name in (*_BT_LONG, *_BT_SHORT):
        folded = _fold(name)
        key = initial(name, folded)
        out[key] = (*out.get(key, ()), (name, folded))
    return out


# a part is only ever compared with the names that fold to its own first letter (`_folded_off` and the folded
# equality both require it) or, beside a lure, that start with it: not with all of them; and each name's shorter
# brands are looked up once
_BT_FOLDED = _by_initial(lambda name, folded: folded[:1])
_BT_INITIAL = _by_initial(lambda name, folded: name[:1])
_BRAND_PREFIXES = {name: _brand_prefixes(name) for name in (*_BT_LONG, *_BT_SHORT)}
_SC_FOLDED = tuple((name, _fold(name)) for name in _SC_MISSPELT)  # the gaming names, each folded once
_FOLDED_NAMES = {name: folded for name, folded in (*_SC_FOLDED, *(pair for group in _BT_FOLDED.values()
                                                                 for pair in group))}
_BT_LURES = frozenset(_BT["lures"])


@functools.lru_cache(maxsize=2048)
def misspelt_brand(host: str) -> Verdict | None:
    """A big brand's name misspelt in the host's own labels (a hosting platform's tenant's too), on a site that is
    not the brand's: two or three letters off a long name (`[brand-typo] long`, look-alike letters folded) blocks;
    one letter off a name of six or more (`long`, `short`) blocks beside a lure word in the same label
    (`claim-<misspelt>`, `<misspelt>-verify`). A brand's own site, its exact name and real words (`decoys`) pass."""
    if not host or ip_of(host) is not None or is_loopback(host) or "." not in host or own_site(host):
        return None
    for label in _labels(host):
        parts = [p for p in _PART.findall(label.translate(_SC_DIGITS) if any(c.isalpha() for c in label) else label)]
        for p in parts:
            if len(p) < 6 or p in _BT_DECOYS or p in _OWN or p in _SC_WORDS:
                continue
            folded = _fold(p)
            for name, target in _BT_FOLDED.get(folded[:1], ()):
                if _folded_off(p, name) or (len(name) >= 6 and p != name and folded == target):
                    return Verdict("block", "brand-lure", f"{host} misspells {name!r}, and is not its site")
            lure = next((q for q in parts if q != p and q in _BT_LURES), None)
            if lure is None:
                continue
            for name, target in _BT_INITIAL.get(p[:1], ()):
                if p != name and abs(len(p) - len(name)) <= 1 and _edits(folded, target) <= 1:
                    return Verdict("block", "brand-lure", f"{host} misspells {name!r} beside {lure!r}, and is not "
                                                          f"its site")
    return None


_PB = _BOOK["platform-brand"]
_PB_PLATFORMS = frozenset(_PB["platforms"])
_PB_BRANDS = frozenset(_PB["brands"])
_PB_OWN_WORK = frozenset(_PB["own_work"])


@functools.lru_cache(maxsize=2048)
def platform_brand(host: str, path: str) -> Verdict | None:
    """A brand's name (a distinctive listed one, or one of `[platform-brand] brands`) as the name or a hyphen-part
    of a tenant of a free app host or site builder (`<brand>.vercel.app`, `<brand>-gift.web.app`): asks; at a
    sign-in page, or beside a lure word, it blocks. A brand that is an everyday word counts alone or beside a lure
    (`steam.web.app`, `apple-verify.weebly.com`), not among other words (`apple-pie-recipes`). The brand's own
    plumbing words (`<brand>-docs`, `-cdn`) and code-hosting pages (`<org>.github.io`) pass."""
    labels = host.split(".")
    at = next((i for i in range(1, len(labels)) if ".".join(labels[i:]) in _PB_PLATFORMS), None)
    if at is None:
        return None
    for label in labels[:at]:
        parts = [q for p in label.split("-") if p for q in _glued(p) or _split(p)]
        joined = {*parts, *(a + b for a, b in itertools.pairwise(parts))}
        brand = next((w for w in sorted(joined) if w in _PB_BRANDS or (w in _OWN and w not in _PLAIN and len(w) >= 4)),
                     None)
        if brand is None:
            continue
        rest = [p for p in parts if p not in brand]
        if rest and all(p in _SERVICE or p in _PB_OWN_WORK for p in rest):
            continue  # `<brand>-docs`, `<brand>-cdn`: a project's own plumbing; `<brand>-clone`: a study project
        lure = next((p for p in rest if p in _BT_LURES or p in _SC_STRONG), None)
        if rest and lure is None and (brand in _PLAIN or brand not in _OWN):
            continue  # an everyday word's brand beside other words (`steam-deck-guide`, `apple-pie-recipes`)
        named = f"{host} names {brand!r} on the free host {'.'.join(labels[at:])}"
        if lure is not None:
            return Verdict("block", "brand-lure", f"{named}, beside {lure!r}")
        if _signin_path(path):
            return Verdict("block", "brand-lure", f"{named}, and opens a sign-in page")
        return Verdict("confirm", "brand-elsewhere", named)
    return None


def _glued(part: str) -> list[str]:
    """The known words of a run-together part: the part itself, or two known words end to end (`hypesquadjoin`)."""
    split = next(([part[:i], part[i:]] for i in range(3, len(part) - 1)
                  if part[:i] in _SC_WORDS and part[i:] in _SC_WORDS), None)
    if part in _SC_NAMES and split is not None:
        return split  # a name that is a brand and a kit's word (`discordnitro`, `discordgift`): both count
    if part in _SC_WORDS:
        return [part]
    if split is not None:
        return split
    if not part.startswith(_SC_STRONG_STARTS):
        return []  # (no strong lure starts it: the loop below finds none)
    for w in _SC_STRONG_STARTS:
        if part.startswith(w) and len(part) - len(w) >= 2:
            return [w]  # a strong lure with letters after it (`nitroshopru`, `hypesquadform`)
    return []


# the strong lures a run-together part may start with, in the set's own order (the first that fits is the one kept)
_SC_STRONG_STARTS = tuple(w for w in _SC_STRONG if len(w) >= 5 and w not in ("skins", "badge"))


def gaming_lure(host: str) -> Verdict | None:
    """A gaming, chat or giveaway brand's name misspelt (`dlscord-`, `steamcommunlty.`), or written beside what its
    kits offer (`<brand>-nitro`, `<brand>-testers`), or those offers alone (`hypesquad-<x>`, `nitro-gift`,
    `badges-verification`) on a host that is not the brand's: block; one kit word beside an ordinary one asks."""
    if _under_any(host, _SC_OWN):
        return None
    reg = registrable(host)
    labels = host.split(".")
    named = [*labels[:len(labels) - len(reg.split("."))], reg.split(".")[0]]
    parts = [p for label in named if label not in ("www", "m")
             for p in _PART.findall(label.translate(_SC_DIGITS) if any(c.isalpha() for c in label) else label)]
    words: list[str] = []
    for p in parts:
        if p in _SC_NAMES and p not in host:  # digits written for its letters (`r0blox`)
            return Verdict("block", "brand-lure", f"{host} writes {p!r} with digits for letters, and is not its site")
        if p not in _SC_DECOYS and len(p) >= 6:
            folded = _fold(p)
            for name, target in _SC_FOLDED:
                if p[0] != name[0] and folded[:1] != target[:1]:
                    continue  # (each test below needs the name's first letter, as written or folded)
                if _one_off(p, name) or _folded_off(p, name) or (
                        len(p) > len(name) and _one_off(p[:len(name)], name) and p[len(name):] in _SC_WORDS):
                    return Verdict("block", "brand-lure", f"{host} misspells {name!r}, and is not its site")
        words += _glued(p)
    brands = [w for w in words if w in _SC_NAMES]
    strong = [w for w in words if w in _SC_STRONG]
    soft = [w for w in words if w in _SC_SOFT]
    if brands and (strong or soft) and not own_site(host):
        level = "block" if strong or len(set(soft)) >= 2 else "confirm"
        return Verdict(level, "brand-lure" if level == "block" else "brand-elsewhere",
                       f"{host} writes {brands[0]!r} beside {(strong or soft)[0]!r}, and is not {brands[0]}'s site")
    if any(w.startswith("hypesq") for w in strong) or len(set(strong)) >= 2 or ("nitro" in strong and soft):
        return Verdict("block", "lure-words", f"{host} is named with what giveaway kits offer: "
                                              f"{', '.join(sorted(set(strong + soft))[:3])}")
    if strong and soft and len(parts) <= 3:
        return Verdict("confirm", "lure-word", f"{host} is named with {strong[0]!r} and {soft[0]!r}")
    return None


_NON_WORD = re.compile(r"[^a-z0-9]+")  # compiled at import: a first assessment compiles nothing


def _segment_words(seg: str) -> list[str]:
    return [w for w in _NON_WORD.split(seg.lower()) if w]


def fake_human_check(host: str, path: str) -> Verdict | None:
    """A path that copies Cloudflare's "verify you are human" check (`/cloudflare/challenge/`, `/ishuman/`,
    `/humanverification/`) on a host that is not Cloudflare's and outside `/cdn-cgi/`, where Cloudflare's own check
    runs on the site it guards: the ClickFix page that has the visitor paste a command. Blocks."""
    low = (path or "").lower()
    if len(low) < 4 or low.startswith("/cdn-cgi/") or _under_any(host, _CF_OWN):
        return None
    segs = [_segment_words(s) for s in low.split("/") if s]
    segs = [s for s in segs if 0 < len(s) <= 3]  # a slug of prose (`how-cloudflare-challenges-work`) is a page name
    flat = [w for s in segs for w in s]
    joined = ["".join(s) for s in segs]
    human = next((j for j in joined + flat if j in _HUMAN_CHECK), None)
    names_cf = any(w in _CF or any(w.startswith(c) for c in _CF if len(c) >= 9) for w in flat)
    step = next((w for w in flat if w in _CF_CHALLENGE), None)
    if names_cf and (step or human):
        return Verdict("block", "brand-lure", f"{host} serves a page named as Cloudflare's human check "
                                              f"({step or human!r}) and is not Cloudflare's")
    if human and sum(j in _HUMAN_CHECK or j in _CF_CHALLENGE for j in joined) >= 2:
        return Verdict("block", "lure-words", f"{host} serves a page named as a human check ({human!r})")
    return None


def support_scam(host: str, path: str) -> Verdict | None:
    """A software vendor's name beside a support, alert or call word in one short host label, or path segment of a
    hosting platform's tenant, a bulk-registered name or a bare address (`microsoft-support`,
    `windows-defender-alert`), on a site that is not the vendor's: a tech-support scam's page. Asks."""
    if _under_any(host, _TS_OWN):
        return None
    reg = registrable(host)
    labels = host.split(".")
    pieces = [*labels[:len(labels) - len(reg.split("."))], reg.split(".")[0]]
    if ip_of(host) is not None or abused_tld(host) or any(".".join(labels[i:]) in _HOSTING
                                                           for i in range(1, len(labels))):
        pieces += (path or "").split("/")  # a path names the page only where anyone may publish one
    for piece in pieces:
        words = _segment_words(piece)
        if not 2 <= len(words) <= 4:
            continue
        vendor = next((w for w in words if w in _TS_VENDORS), None)
        word = next((w for w in words if w in _TS_WORDS and w != vendor), None)
        if vendor and word:
            return Verdict("confirm", "brand-elsewhere", f"{host} names a {vendor!r} {word!r} page and is not "
                                                         f"{vendor}'s site")
    return None


def scam_host(host: str, path: str) -> Verdict | None:
    """A gaming giveaway's host, a fake human check's page or a tech-support scam's page, in that order."""
    if ip_of(host) is None:
        found = gaming_lure(host)
        if found is not None:
            return found
    return fake_human_check(host, path) or support_scam(host, path)


@functools.lru_cache(maxsize=2048)
def judge(host: str, path: str) -> Verdict | None:
    """What the destination claims to be, and whether that blocks or asks:

    - a brand's name on a site not its own, with a lure word → block;
    - a distinctive brand name alone under an abused top-level name → block; elsewhere → confirm (an ordinary
      word or a bare subdomain label under an abused name asks; a hosting platform's tenant passes);
    - two lure terms under an abused top-level name or at a public bare address → block; one → confirm;
    - first of all (`scam_host`): a gaming or giveaway brand misspelt or beside its kits' offers, a copy of
      Cloudflare's human check, a vendor's support or alert page on a site not the vendor's.
    """
    if not host or is_loopback(host):
        return None
    scam = scam_host(host, path) if ip_of(host) is None or _public_ip(host) else None
    if scam is not None and scam.level == "block":
        return scam
    typo = misspelt_brand(host) if ip_of(host) is None else None
    if typo is not None:
        return typo
    found = _judge(host, path) or scam
    if found is None or found.level != "block":
        found = platform_brand(host, path) or found
    if (found is None or found.level != "block") and ip_of(host) is None:
        # a name borrowed from a brand's domain or a crisis, or made by a program: read after the brand's rules,
        # whose reasons say more when both apply
        for more in (borrowed_domain(host, path), crisis_name(host), machine_name(host), free_name(host, path),
                     impossible_name(host)):
            if more is not None and (found is None or more.level == "block"):
                found = more
                if found.level == "block":
                    break
    return found


def _judge(host: str, path: str) -> Verdict | None:
    if ip_of(host) is not None:
        if not _public_ip(host):
            return None
        brand = _ip_path_brand(path)
        words = _scan(_path_words(path), _STRONG)
        weak = _scan(_path_words(path), _WEAK, _STRONG)
        if brand and (words or weak):
            return Verdict("block", "brand-lure", f"{brand!r} and {(words or weak)[0]!r} in a page at the bare "
                                                  f"address {host}")
        if len(words) + min(len(weak), 1) >= 2 and words:
            return Verdict("block", "lure-words", f"the page at the bare address {host} is named "
                                                  f"{', '.join(words + weak[:1])!r}")
        return None
    if abused_tld(host) and (plain := _letters_for_digits(host)) is not None:
        # `m1crosoft-365-login.<bulk-registered name>`: read as the name it imitates, then judged like that brand's
        # compound; under an ordinary name the look-alike asks (`confirm.web.lookalike-host`)
        found = judge(plain, path)
        if found is not None:
            return Verdict(found.level, found.kind, f"{host} spells {plain} with digits for letters: {found.why}")
    abused = abused_tld(host)
    if not abused and _OWN.keys().isdisjoint(_pieces(_labels(host))):
        # most hosts: no brand's name in them and an ordinary top-level name
        # (a host with no hyphen is read only for sign-in words stacked as subdomains: four labels or more)
        return (_scheme(host, path, abused=False) or _lure_compound(host, path)) if "-" in host or \
            host.count(".") >= 3 else None
    if own_site(host):
        return None
    claim = impersonation(host)
    if claim is not None:
        abused = abused or brand_favoured_tld(host)
        # an everyday word's or a bare label's claim reads the path only under an abused name or beside a lure of
        # the host's own (`secure-<word>-alerts.example.net/verify`), never alone (`<word>-tools.com/verify`)
        lures = lure_words(host, path, with_path=False)
        if not claim.hosted and (claim.strong or abused or _without(lures.weak_host, claim)):
            lures = lure_words(host, path)
        lures = Lures(_without(lures.strong, claim), _without(lures.weak_host, claim))
        named = f"{host} uses the name {claim.token!r} but is not {claim.token}'s site"
        other = next((p for p in sorted(_pieces(_labels(host))) if p in _AGENCY and p != claim.token and
                      p not in claim.spelled), None) if claim.token in _AGENCY and not claim.hosted else None
        if other is not None:
            # `<tax office>-<social security>.com`: no government office shares a private name with another
            return Verdict("block", "brand-lure", f"{named}, and names a second public office, {other!r}")
        if claim.hosted:
            if lures.strong or (claim.strong and lures.weak_host):
                return Verdict("block", "brand-lure", f"{named}: a page on a hosting platform named "
                                                      f"{(lures.strong or lures.weak_host)[0]!r}")
            return None
        if lures.strong or (lures.weak_host and (claim.strong or abused)):
            word = (lures.strong or lures.weak_host)[0]
            return Verdict("block", "brand-lure", f"{named}, and is named {word!r}")
        account = next((w for w in lures.weak_host if w in _ACCOUNT), None)
        if account is not None and claim.token not in _PLAIN:
            # a distinctive brand anywhere in the host, and an account word in its labels: `<brand>-id.`,
            # `<brand>.review-document.`, `passport-<brand>.` name a credential page
            return Verdict("block", "brand-lure", f"{named}, and is named {account!r}")
        signin = next((w for w in lures.weak_host if w in _SIGNIN), None)
        if signin is not None and _signin_path(path):
            return Verdict("block", "brand-lure", f"{named}, is named {signin!r} and opens a sign-in page")
        if claim.strong and _WWW_DASH.search(host):
            # `www-<brand>.<other>`: a name written to pass for the brand's own www address at a glance
            return Verdict("block", "brand-lure", f"{named}: it is spelled as the brand's own www address")
        if claim.strong:
            return Verdict("block", "brand-cheap-tld", f"{named}, under the bulk-registered .{_tld(host)}") \
                if abused else Verdict("confirm", "brand-elsewhere", named)
        if abused or lures.weak_host:
            return Verdict("confirm", "brand-elsewhere", named)
        return None
    if not abused:
        return _scheme(host, path, abused=False) or _lure_compound(host, path)
    found = _scheme(host, path, abused=True) or _support_desk(host)
    if found is not None:
        return found
    lures = lure_words(host, path)
    count = len(lures.strong) + (1 if lures.strong and lures.weak_host else 0)
    terms = ", ".join((*lures.strong, *lures.weak_host[:1]))
    named = lure_words(host, path, with_path=False).strong or \
        tuple(w for w in lures.weak_host if w in _FEE_NOTICE) or _permit_named(host)
    # the site's own name, never its path, is the lure
    if named and (money := _money_path(path)):
        return Verdict("block", "lure-fee", f"{host} under the bulk-registered .{_tld(host)} is named "
                                            f"{named[0]!r} and its page takes a {money!r}")
    if count >= 2:
        return Verdict("block", "lure-words", f"{host} under the bulk-registered .{_tld(host)} is named {terms!r}")
    software = _software_host(host)
    if software is not None:
        return Verdict("block", "lure-words", f"{software}, under the bulk-registered .{_tld(host)}")
    if count == 1:
        return Verdict("confirm", "lure-word", f"{host} under the bulk-registered .{_tld(host)} is named {terms!r}")
    return None


# a single digit written for the letter it looks like, between letters, at a word's end or a zero at its start
# (`m1crosoft`, `paypa1`, `g00gle`, `0utlook`); a number of its own (`office365`, `web3`, `s3`) is left alone
_DIGIT_FOR_LETTER = re.compile(r"(?<=[a-z])[01345](?=[a-z]|[-.])|(?<![a-z0-9])0(?=[a-z]{3})|"
                               r"(?<=[a-z])0(?=0[a-z])|(?<=[a-z]0)0(?=[a-z])")
_DIGIT_LETTERS = ({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s"},
                  {"0": "o", "1": "l", "3": "e", "4": "a", "5": "s"})


def _letters_for_digits(host: str) -> str | None:
    """The host with look-alike digits read as letters, when that reveals a brand's name the host does not
    already spell and the result is not that brand's own site (`paypa1.com` is `confirm.web.lookalike-host`'s);
    None otherwise."""
    if _DIGIT_FOR_LETTER.search(host) is None:
        return None
    have = _pieces(_labels(host))
    for letters in _DIGIT_LETTERS:
        plain = _DIGIT_FOR_LETTER.sub(lambda m, t=letters: t[m.group(0)], host)
        if plain != host and not _OWN.keys().isdisjoint(_pieces(_labels(plain)) - have) and not own_site(plain):
            return plain
    return None


def _permit_named(host: str) -> tuple[str, ...]:
    """The words of the host's labels (all but the top-level name) that name a government permit or
    travel document (`[lures] permit_notice`: `passport-renew-fast.`, `esta-application.`)."""
    labels = [lab for lab in host.lower().split(".") if lab][:-1]
    return tuple(w for lab in labels for w in _WORD.findall(lab) if w in _PERMIT_NOTICE)


def _money_path(path: str) -> str | None:
    """The first path word that moves or locks money (`[lures] money_path`: deposit, withdraw, fee, unlock, pay)."""
    for seg in [s for s in path.lower().split("/") if s][:8]:
        if seg in _DOC_SEGMENTS:
            return None
        joined = "".join(_WORD.findall(seg.split("?", 1)[0].rsplit(".", 1)[0] if "." in seg else seg))
        if joined in _MONEY_PATH:
            return joined
    for w in _path_words(path):
        if w in _MONEY_PATH:
            return w
    return None


def _scheme(host: str, path: str, *, abused: bool) -> Verdict | None:
    """An investment, trading or fund-recovery site (`[lures] scheme_stems`) whose page takes a deposit, a fee or a
    withdrawal (`money_path`): under an abused top-level name one scheme word blocks; elsewhere the site's own name
    must be hyphenated (`<x>-invest`, `apex-fxtrade`), and it blocks with two scheme words (`coinrecovery-pros`,
    `crypto-profit`) and asks with one. A hosting platform's tenant and a brand's own site are not read here."""
    if _hosted(host) or own_site(host):
        return None
    labels = _labels(host)
    site = labels[-1]
    if not abused and "-" not in site:
        return None
    name = "".join(labels) if abused else site
    if not any(stem in name for stem in _SCHEME_CORE):
        return None
    money = _money_path(path)
    if money is None:
        return None
    stems = {stem for stem in _SCHEME if stem in name}
    stems -= {s for s in stems if any(s != o and s in o for o in stems)}  # "trade" inside "trading" counts once
    what = f"{host} is named for {', '.join(sorted(stems))!r} and its page takes a {money!r}"
    if abused or len(stems) >= 2:
        return Verdict("block", "money-scheme", what)
    return Verdict("confirm", "money-scheme", what)


def _support_desk(host: str) -> Verdict | None:
    """A help desk's or customer care's name (`[lures] support_desk`) as the site's own name under an abused
    top-level name: the fake tech-support and refund-support pages that give a phone number or take remote access."""
    if _hosted(host):
        return None
    for label in _labels(host)[-1:]:
        parts = [p for p in label.split("-") if p]
        joined = {"".join(parts[i:i + n]) for n in (1, 2, 3) for i in range(len(parts) - n + 1)}
        hit = next((j for j in sorted(joined) if j in _SUPPORT_DESK), None)
        if hit is None:
            hit = next((d for d in sorted(_SUPPORT_DESK) if len(d) >= 8 and d in label.replace("-", "")), None)
        if hit is not None:
            return Verdict("block", "support-desk", f"{host} under the bulk-registered .{_tld(host)} is named as a "
                                                    f"help desk ({hit!r})")
    return None


def _signin_path(path: str) -> bool:
    """The path opens a sign-in page (`/login`, `/common/oauth2`, `/signin`)."""
    return any(w in _SIGNIN_PATH for seg in path.lower().split("/")[:6] for w in _SLUG.split(seg.split("?", 1)[0]))


def _lure_compound(host: str, path: str = "") -> Verdict | None:
    """A host label that joins two sign-in words, or one with a strong lure (`login-secure`, `account-verify`,
    `support-update`): what credential-phishing hosts call themselves when they borrow no brand. It asks: a real
    site may be named so. Three such words (`secure-login-verify`), or two with a strong lure opened at a sign-in
    page (`account-verify.../login.php`), block."""
    if _hosted(host) or own_site(host):
        return None
    software = _software_host(host)
    if software is not None:
        return Verdict("confirm", "lure-compound", software)
    for label in _labels(host):
        if "-" not in label:
            continue
        words = [w for p in _WORD.findall(label) for w in _split(p)]
        strong = _scan(words, _STRONG)
        signin = [w for w in _scan(words, _WEAK, _STRONG) if w in _SIGNIN]
        distinct = {w for t in (*strong, *signin) for w in t.split()}
        if len(distinct) >= 2 and (strong or signin):
            terms = ", ".join((*strong, *signin))
            if len(distinct) >= 3 or (strong and _signin_path(path)):
                return Verdict("block", "lure-compound", f"{host} names itself {terms!r} and opens a sign-in page"
                               if len(distinct) < 3 else f"{host} names itself {terms!r}: three sign-in lure words")
            return Verdict("confirm", "lure-compound", f"{host} names itself {terms!r}: a sign-in lure's name")
    # the same words stacked as subdomains in front of a site they do not belong to
    # (`signin.account.support.service.example-shop.com`): three ask, four block
    labels = _labels(host)
    if len(labels) >= 4:
        words = [w for label in labels[:-1] for p in _WORD.findall(label) for w in _split(p)]
        terms = (*_scan(words, _STRONG), *(w for w in _scan(words, _WEAK, _STRONG) if w in _SIGNIN))
        distinct = {w for t in terms for w in t.split()}
        if len(distinct) >= 3:
            what = f"{host} stacks sign-in words in front of its site ({', '.join(terms)!r})"
            return Verdict("block" if len(distinct) >= 4 else "confirm", "lure-compound", what)
    return None


def _software_host(host: str) -> str | None:
    """Why a host label that joins a browser's or a program's name (`[software]`, not an everyday word) with an
    update word (`chrome-update`, `firefoxupgrade`) on a site not its vendor's reads as a fake update's page, or
    None."""
    for label in _labels(host):
        words = [w for p in _WORD.findall(label) for w in _split(p)]
        product = next((w for w in words if w in _SOFTWARE and w not in _SOFTWARE_PLAIN), None)
        action = next((w for w in words if w in _OFFER_ACTION), None) if product is not None else None
        if action is not None and not _vendor_host(product, host):
            return f"{host} names itself {product!r} {action!r}: a fake update's page, not {product}'s vendor"
    return None


def _without(terms: tuple[str, ...], claim: Claim) -> tuple[str, ...]:
    """The lure terms that are not the words the brand's own name is spelled with ("bank" of bank-of-america)."""
    return tuple(t for t in terms if t not in claim.spelled) if claim.spelled else terms


def _tld(host: str) -> str:
    return host.rsplit(".", 1)[-1]


# -- software updates -------------------------------------------------------------------------------------------------

_SOFTWARE = {k: frozenset(v) for k, v in _BOOK["software"].items() if isinstance(v, list) and k not in
             ("action", "files", "host_plain", "offered")}
_SOFTWARE_PLAIN = frozenset(_BOOK["software"]["host_plain"])
_SOFTWARE_OFFERED = frozenset(_BOOK["software"]["offered"])
_UPDATE_ACTION = frozenset("".join(_WORD.findall(w.lower())) for w in _BOOK["software"]["action"])
_UPDATE_FILES = frozenset(_BOOK["software"]["files"])
_FILE_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


def _file_words(name: str) -> list[str]:
    """The words of a file's name (`ChromeSetup_x64` → chrome, setup, x, 64), lower case."""
    return [w.lower() for piece in _WORD.findall(_FILE_CAMEL.sub(" ", name)) for w in piece.split()]


def _vendor_host(product: str, host: str) -> bool:
    reg = registrable(host.lower())
    return reg in _SOFTWARE[product] or reg.split(".", 1)[0] == product


def fake_update(host: str, path: str) -> str | None:
    """A program, installer or archive (`[software] files`) whose file name, or the host serving it, names a
    browser or a program of `[software]` and an update or an install (`ChromeSetup.zip`,
    `firefox-update.example/setup.exe`), served by a host that is not the product's vendor: what it says
    ("'ChromeSetup.zip', chrome's update from ..."), or None."""
    if not host or ip_of(host) is not None or is_loopback(host):
        return None
    name = path.rsplit("/", 1)[-1].split("?", 1)[0]
    if "." not in name or name.rsplit(".", 1)[1].lower() not in _UPDATE_FILES:
        return None
    words = _file_words(name.rsplit(".", 1)[0])
    host_words = [w for lbl in _labels(host.lower()) for p in _WORD.findall(lbl) for w in _split(p)]
    product = next((w for w in (*words, *host_words) if w in _SOFTWARE), None)
    if product is None or _vendor_host(product, host):
        return None
    action = next((w for w in (*words, *host_words) if w in _UPDATE_ACTION), None)
    if action is None:
        return None
    return f"{name[:48]!r}, {product}'s {action} served by {host}, not by its vendor"


def update_offer(words: list[str], host: str) -> str | None:
    """A button's words that offer a browser's or an old plug-in's update ("Update Chrome", "Upgrade your
    Firefox", `[software] offered`) on a page whose host is not the product's vendor, or None. An install offer
    is not one: pages link to installers all the time; nobody's browser is updated from a web page's button."""
    if not words or len(words) > 8:
        return None
    action = next((w for w in words if w in _OFFER_ACTION), None)
    product = next((w for w in words if w in _SOFTWARE_OFFERED), None)
    if action is None or product is None or (host and _vendor_host(product, host)):
        return None
    return f"{action} {product}"


# -- malware sample archives ------------------------------------------------------------------------------------

_SAMPLES = _BOOK["malware-samples"]
_SAMPLE_WORDS = frozenset(w.lower() for w in _SAMPLES["words"])
_SAMPLE_BESIDE = frozenset(w.lower() for w in _SAMPLES["beside"])
_SAMPLE_FILES = frozenset(w.lower() for w in _SAMPLES["files"])
_RESEARCH = frozenset(w.lower() for w in _SAMPLES["research"])
_SAMPLE_JOINED = frozenset(w.lower() for w in _SAMPLES["joined"]) | _SAMPLE_WORDS | _SAMPLE_BESIDE
_FOLDER_PARTS = re.compile(r"[-_.]+")


def _sample_folder(folder: str) -> str | None:
    """The sample word a folder is named with: the whole name, or a part of it when every other part is one of
    `joined` or a number ("infostealer-pack", "malware_bazaar", "stealers-2024")."""
    if folder in _SAMPLE_WORDS:
        return folder
    parts = [p for p in _FOLDER_PARTS.split(folder) if p]
    word = next((p for p in parts if p in _SAMPLE_WORDS), None)
    if word is None or not all(p in _SAMPLE_JOINED or p.isdigit() for p in parts):
        return None
    return word
_HOST_PARTS = re.compile(r"[.-]")


def malware_sample(host: str, path: str) -> tuple[str, bool] | None:
    """(why, research) when the URL fetches an archive or a program from a malware-sample collection: a host or a
    path folder named with a sample word (`vx-archive`, `/malware/`, `/stealers/`), or a `samples` folder on such a
    host, opened at a file of `files`; `research` when the host is a listed research collection. None otherwise."""
    name = path.rsplit("/", 1)[-1].lower()
    if "." not in name:
        return None
    exts = name.split(".")[1:]
    if not any(e in _SAMPLE_FILES for e in exts[-2:]):
        return None
    host = host.lower()
    labels = host.split(".")
    pieces = set(_HOST_PARTS.split(".".join(labels[:-1]))) | set(labels[:-1])
    folders = [f.lower() for f in path.split("/")[1:-1] if f][:12]
    named = next((w for w in sorted(pieces) if w in _SAMPLE_WORDS), None) or \
        next((w for w in map(_sample_folder, folders) if w is not None), None)
    if named is None:
        return None
    research = any(host == r or host.endswith("." + r) for r in _RESEARCH)
    in_host = named in pieces
    if not in_host and not any(f in _SAMPLE_BESIDE or f in _SAMPLE_WORDS for f in folders if f != named) and \
            named in {"rat", "rats", "payload", "payloads", "virus", "viruses"}:
        return None  # one ambiguous folder ("/payloads/", "/rat/") alone: a project's own files
    return f"{name!r} from a folder or host named for malware samples ({named!r})", research


# -- sites named for checking agents ----------------------------------------------------------------------------

_AGENT_CHECK = _BOOK["agent-check"]
_AGENT_WORDS = frozenset(_AGENT_CHECK["agent"])
_CHECK_WORDS = frozenset(_AGENT_CHECK["check"])
_AGENT_TASK_KEYS = frozenset(_AGENT_CHECK["task_keys"])
# the two run together (`aiverify`, `botvalidate`), each way round: looked up whole, not built per host
_AGENT_FUSED = {a + c: (a, c) for a in _AGENT_WORDS for c in _CHECK_WORDS if len(a) >= 3} | \
    {c + a: (a, c) for a in _AGENT_WORDS for c in _CHECK_WORDS if len(a) >= 3}


def agent_check_host(host: str, query_keys: frozenset[str]) -> tuple[str, bool] | None:
    """(why, blocks) when a label of the host joins an agent word and a check word (`agent-verify`, `aiverify`,
    `bot-checkpoint`): blocks with the agent's task in the query or under an abused top-level name; None
    otherwise. A listed brand's own site is not judged."""
    host = host.lower()
    if own_site(host):
        return None
    for label in host.split(".")[:-1]:
        parts = label.split("-")
        agent = next((p for p in parts if p in _AGENT_WORDS), None)
        check = next((p for p in parts if p in _CHECK_WORDS), None)
        if agent is None or check is None:
            fused = _AGENT_FUSED.get(label)
            if fused is None:
                continue
            agent, check = fused
        task = sorted(query_keys & _AGENT_TASK_KEYS)
        why = f"{host} is named for checking agents ({agent!r} + {check!r})"
        if task:
            return f"{why} and its link carries the agent's {task[0]!r}", True
        return (f"{why}, under the bulk-registered .{_tld(host)}", True) if abused_tld(host) else (why, False)
    return None


# -- services that share what is uploaded -------------------------------------------------------------------------

_PUBLIC = _BOOK["public-upload"]
_PUBLIC_HOSTS = frozenset(h.lower() for h in _PUBLIC["hosts"])
_PUBLIC_NAMES = re.compile(r"(?i)(?<![\w.])(?:" +
                           "|".join(re.escape(n) for n in sorted(_PUBLIC["names"], key=len, reverse=True)) +
                           r")(?![\w])")
_CONFIDENTIAL = frozenset(w.lower() for w in _PUBLIC["confidential"])
_NAME_PARTS = re.compile(r"[^\w&]+|_")


def public_upload(host: str, label: str) -> str | None:
    """The service a label or a page puts a file on, when it shares what is uploaded (a public scanner, a paste
    site, an anonymous file drop): its host or its name in the label; None otherwise."""
    host = host.lower()
    for h in _PUBLIC_HOSTS:
        if host == h or host.endswith("." + h):
            return h
    m = _PUBLIC_NAMES.search(label)
    return m.group(0) if m else None


def confidential_name(name: str) -> str | None:
    """The word that marks a document's name as not for the public (`board_minutes_confidential.docx`)."""
    stem = name.rsplit(".", 1)[0].lower()
    return next((p for p in _NAME_PARTS.split(stem) if p in _CONFIDENTIAL), None)


# -- cracked software -------------------------------------------------------------------------------------------

_CRACKED = _BOOK["cracked-software"]
_CRACKED_WORDS = re.compile(r"(?<![a-z0-9])(?:" + "|".join(
    re.escape(w).replace(r"\ ", r"[\s_.-]*") for w in sorted(_CRACKED["words"], key=len, reverse=True)) +
    r")(?![a-z0-9])", re.IGNORECASE)
_CRACK = frozenset(_CRACKED["crack"])
_CRACK_BESIDE = frozenset(_CRACKED["beside"])
_TEXT_WORDS = re.compile(r"[a-z0-9]+")


def cracked_software(text: str) -> str | None:
    """The words that name `text` (a label, a file name, a URL's path) as cracked or unlocked software: a key
    generator, an activator, "nulled", "warez"; or "crack" beside a product or a download word. None otherwise."""
    m = _CRACKED_WORDS.search(text)
    if m is not None:
        return m.group(0)
    words = _TEXT_WORDS.findall(text.lower())
    for i, w in enumerate(words):
        if w in _CRACK and any(x in _CRACK_BESIDE for x in words[max(0, i - 3):i + 4] if x != w):
            return w
    return None


# -- a crisis in the site's name -----------------------------------------------------------------------------------

_CR = _BOOK["crisis"]
_CR_TOPICS = tuple(sorted(_CR["topics"], key=len, reverse=True))
_CR_WEAK = tuple(sorted(_CR["weak_topics"], key=len, reverse=True))
_CR_HEALTH = frozenset(_CR["health"])
_CR_GOODS = tuple(sorted(_CR["goods"], key=len, reverse=True))
_CR_DECOYS = tuple(sorted(_CR["decoys"], key=len, reverse=True))
_EDGE_DIGITS = re.compile(r"^\d+|\d+$")
_CHEAP_SUFFIXES = frozenset(_BOOK["url-shape"]["cheap_suffixes"])


def _site_name(host: str) -> tuple[str, str]:
    """(the site's own name, the suffix it is registered under): `example` and `com` of `shop.example.com`; under a
    second-level name sold like a top-level one (`<name>.us.org`), the name before it."""
    labels = host.split(".")
    if len(labels) >= 3 and ".".join(labels[-2:]) in _CHEAP_SUFFIXES:
        return labels[-3], ".".join(labels[-2:])
    site, _, suffix = registrable(host).partition(".")
    return site, suffix


def _cut_out(text: str, words: tuple[str, ...]) -> tuple[list[str], str]:
    """The words of `words` found in `text` (longest first, each place once) and the text with each replaced by a
    hyphen, so what is left falls apart into the pieces around them."""
    found: list[str] = []
    for w in words:
        while w in text:
            found.append(w)
            text = text.replace(w, "-", 1)
    return found, text


def _good_in(piece: str) -> str | None:
    """A thing a crisis site sells in `piece`: the whole piece, its start or its end, or a longer word anywhere."""
    for g in _CR_GOODS:
        if piece == g or piece.startswith(g) or piece.endswith(g) or (len(g) >= 6 and g in piece):
            return g
    return None


# offices whose short names are everyday words too (`nav`, `sat`, `arc`): beside a crisis they name nothing
_WORD_OFFICES = frozenset({"nav", "sat", "arc", "ants", "caf", "sars", "treasury", "mygov", "linkt", "dian"})


def _brand_piece(piece: str, raw: str = "") -> str | None:
    """A brand's or an office's token as the piece, or a distinctive one at its start or end (`paypaluk`). A brand
    that is an everyday word too (`free`, `line`, `signal`) counts only with digits stuck to it (`<brand>7`, `raw`),
    an office's acronym (`cdc`, `hhs`) as it is."""
    if len(piece) >= 3 and piece in _OWN and (piece not in _PLAIN or raw != piece or
                                              (piece in _AGENCY and piece not in _WORD_OFFICES)):
        return piece
    for size in range(len(piece) - 2, 4, -1):
        for cand in (piece[:size], piece[-size:]):
            if cand in _OWN and cand not in _PLAIN:
                return cand
    return None


@functools.lru_cache(maxsize=1024)
def crisis_name(host: str) -> Verdict | None:
    """A site whose own name trades on a crisis (`[crisis]` of resources/destinations.toml): joined to a brand's or an
    agency's name, or to what it sells or pays out (loans, test kits, masks, vaccines), it blocks; named for the
    crisis alone, it asks. Government registries, brands' own sites and hosting platforms' tenants pass."""
    if not host or ip_of(host) is not None or is_loopback(host) or "." not in host or own_site(host) or \
            _hosted(host):
        return None
    site, suffix = _site_name(host)
    _, text = _cut_out(site, _CR_DECOYS)
    topics, text = _cut_out(text, _CR_TOPICS)
    weak, text = _cut_out(text, _CR_WEAK)
    if not topics and not weak:
        return None
    raws = [p for p in text.split("-") if p]
    brand = next((b for r in raws if (b := _brand_piece(_EDGE_DIGITS.sub("", r), r)) is not None), None)
    pieces = [p for p in (_EDGE_DIGITS.sub("", r) for r in raws) if p] + [p for p in suffix.split(".") if p]
    topic = (topics or weak)[0]
    if brand is not None:
        return Verdict("block", "crisis-name", f"{host} joins the name {brand!r} to {topic!r} and is not "
                                               f"{brand}'s site: a relief or refund lure's name")
    good = next((g for p in pieces if (g := _good_in(p)) is not None), None)
    if good is not None:
        return Verdict("block", "crisis-name", f"{host} is named for {topic!r} and {good!r}: a crisis shop's or "
                                               f"loan page's name")
    if topics or any(p in _CR_HEALTH or any(p.startswith(h) or p.endswith(h) for h in _CR_HEALTH if len(h) >= 4)
                     for p in pieces):
        return Verdict("confirm", "crisis-name", f"{host} is named for {topic!r}")
    return None


# -- a name made by a program ------------------------------------------------------------------------------------

_MN = _BOOK["machine-names"]
_HEX_RUN = re.compile(rf"[0-9a-f]{{{int(_MN['min_run'])},}}")
_ALPHA = re.compile(r"^[a-z]{3,}$")


def _coded(part: str) -> bool:
    """A hyphen-part with a random run: hexadecimal of letters and digits (`37f0d`, `6de8af`), or five digits."""
    if part.isdigit():
        return len(part) >= 5
    for m in _HEX_RUN.finditer(part):
        run = m.group(0)
        if (any(c.isdigit() for c in run) and any(c.isalpha() for c in run)) or \
                (run.isdigit() and len(run) >= 5):
            return True
    return False


@functools.lru_cache(maxsize=1024)
def machine_name(host: str) -> Verdict | None:
    """A registrable name of several hyphen-parts, some of them words and some random hexadecimal runs
    (`[machine-names]`): the throwaway names tech-support-scam and malvertising kits register by the hundred. Blocks
    with the counts of the table; two random parts in a shorter name ask."""
    if not host or ip_of(host) is not None or is_loopback(host) or "." not in host or own_site(host) or \
            _hosted(host):
        return None
    site = _site_name(host)[0]
    parts = [p for p in site.split("-") if p]
    coded = [p for p in parts if _coded(p)]
    words = [p for p in parts if _ALPHA.match(p)]
    if len(coded) < int(_MN["min_coded"]):
        return None
    what = f"{site} is a made name: {len(coded)} of its {len(parts)} parts are random runs " \
           f"({', '.join(coded[:3])})"
    if len(parts) >= int(_MN["min_parts"]) and len(words) >= int(_MN["min_words"]):
        return Verdict("block", "machine-name", what)
    if len(parts) >= 3:
        return Verdict("confirm", "machine-name", what)
    return None


# -- names anyone gets for nothing ---------------------------------------------------------------------------------

_FREE = _BOOK["free-names"]
_FREE_DYNAMIC = frozenset(_FREE["dynamic"])
_FREE_TLDS = frozenset(_FREE["free_tlds"])
_HOME_NAMES = tuple(sorted(_FREE["home_names"], key=len, reverse=True))
_HOME_PARTS = re.compile(r"[a-z]+")


def _home_server(labels: list[str]) -> bool:
    """A tenant's name that says it is someone's own server (`nas`, `myhome`, `plex-home`, `homeassistant2`)."""
    for label in labels:
        for part in _HOME_PARTS.findall(label):
            if any(part == h or (len(h) >= 3 and (part.startswith(h) or part.endswith(h))) for h in _HOME_NAMES):
                return True
    return False


def free_zone(host: str) -> str | None:
    """The free dynamic-DNS zone the host is a name under (`duckdns.org`, `ddns.net`), or None."""
    labels = host.split(".")
    return next((z for i in range(1, len(labels)) if (z := ".".join(labels[i:])) in _FREE_DYNAMIC), None)


@functools.lru_cache(maxsize=1024)
def free_name(host: str, path: str) -> Verdict | None:
    """A name under a free dynamic-DNS zone asks, unless it names a home server (`[free-names] home_names`); a name
    under a top-level name once given away free (`.tk`, `.ml`) asks, and blocks at a sign-in page."""
    if not host or ip_of(host) is not None or is_loopback(host) or "." not in host:
        return None
    zone = free_zone(host)
    if zone is not None:
        tenant = [t for t in host[: -len(zone) - 1].split(".") if t]
        if not tenant or tenant == ["www"] or _home_server(tenant):
            return None  # the provider's own site, or a person's home server named as one
        return Verdict("confirm", "free-name", f"{host} is a free dynamic-DNS name under {zone}: anyone points one "
                                               f"at any machine")
    tld = host.rsplit(".", 1)[-1]
    if tld not in _FREE_TLDS or own_site(host):
        return None
    if _signin_path(path):
        return Verdict("block", "free-name", f"a sign-in page under .{tld}, a top-level name once given away free")
    return Verdict("confirm", "free-name", f"{host} is under .{tld}, a top-level name once given away free")


# -- a brand's own domain name, or a bank's name run together with another word --------------------------------

# the names of the brands' own registrable domains (`ggpht` of ggpht.com, `paypalobjects`), five letters or more
_OWN_SITE_NAMES = {d.partition(".")[0]: t for t, ds in _OWN.items() for d in ds
                   if len(d.partition(".")[0]) >= 5 and "." in d}
_BANKS = frozenset(t for t in _BOOK["brands"]["banks-payments"] if t not in _PLAIN and len(t) >= 4)
_GOVERNMENT = tuple(_BOOK["tlds"]["government"])
_GOVERNMENT_SET = frozenset(_GOVERNMENT)


@functools.lru_cache(maxsize=1024)
def borrowed_domain(host: str, path: str) -> Verdict | None:
    """A brand's own domain's name registered under a bulk-registered top-level name (`ggpht.<cheap name>`, a
    Google domain's name), a public office's name run into `gov` (`<office>gov.com`), or a bank's name run together
    with another word (`<town><bank>`) opened at a sign-in page: each spells the brand for a site not the brand's."""
    if not host or ip_of(host) is not None or is_loopback(host) or "." not in host or own_site(host) or \
            _hosted(host):
        return None
    reg = registrable(host)
    if reg in _ALL_OWN:
        return None
    site = reg.partition(".")[0]
    brand = _OWN_SITE_NAMES.get(site)
    if brand is not None and abused_tld(host):
        return Verdict("block", "brand-cheap-tld", f"{host} spells {site}, a domain of {brand}, under the "
                                                   f"bulk-registered .{_tld(host)}")
    parts = [p for p in site.split("-") if p]
    if len(parts) > 1 and not _GOVERNMENT_SET.isdisjoint(parts):
        office = next((p for p in parts if p in _AGENCY and p not in _WORD_OFFICES), None)
        if office is not None:
            return Verdict("block", "brand-lure", f"{host} writes {office!r} beside a government's name, spelling "
                                                  f"the office's address on a private name")
    for part in parts:
        for word in _GOVERNMENT:
            office = part.removesuffix(word) if part.endswith(word) else \
                part.removeprefix(word) if part.startswith(word) else ""
            if office in _AGENCY:
                return Verdict("block", "brand-lure", f"{host} runs {office!r} into {word!r}, spelling the office's "
                                                      f"government address on a private name")
    if "-" in site or not _signin_path(path):
        return None
    for bank in _BANKS:
        if len(site) - len(bank) >= 3 and (site.startswith(bank) or site.endswith(bank)):
            return Verdict("block", "brand-lure", f"{host} runs the bank's name {bank!r} into another word and "
                                                  f"opens a sign-in page; it is not {bank}'s site")
    return None


# top-level names a public registry sells names under (a host under `.local`, `.internal`, `.lan` or no dot is a
# network's own, where an underscore is a service's name)
_PUBLIC_TLD = re.compile(r"^(?:[a-z]{2}|com|net|org|info|biz|io|ai|app|dev|co|xyz|top|online|site|shop|store)$")


@functools.lru_cache(maxsize=1024)
def impossible_name(host: str) -> Verdict | None:
    """A site's own name with an underscore (`my_site.com`): registries issue no such name, so the link was made up
    or is meant to resolve somewhere other than a registered site (a planted instruction's made-up address)."""
    if "_" not in host or ip_of(host) is not None or "." not in host:
        return None
    site, suffix = _site_name(host)
    if "_" not in site or not _PUBLIC_TLD.match(suffix.rsplit(".", 1)[-1]):
        return None
    return Verdict("confirm", "impossible-name", f"{site}.{suffix} has an underscore in its name, which no registry "
                                                 f"issues: the address was made up")
