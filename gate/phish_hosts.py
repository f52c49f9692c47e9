"""Phishing kits' host names, read word by word (`[phish-host]` of resources/destinations.toml).

    provider_sign_in(host, path) -> Finding | None   a big provider's sign-in path, or its sign-in host's shape
                                                      (`accounts.google.<elsewhere>`), on a host not the provider's
    title_claim(host, title) -> Finding | None        a page titled as a provider's sign-in on a host not its
    kit_host(host) -> Finding | None                  the words a kit's host is made of: account and security words
                                                      run together or stacked, a brand written short or with digits
                                                      beside them, a dynamic-DNS or free host's site named so, a coin
                                                      giveaway, a wallet maker's name on another domain, a coin beside
                                                      what a drainer offers (transfer, bridge, mint, revoke, fix), a
                                                      project's airdrop, an approval checker's words

A label is cut into the words it is written with (`verificationalertaccount` → verification, alert, account; longest
word first, letters that are no word are skipped), with digits read as the letters they stand for where a brand is
looked up (`app1e` → apple). Everyday words that hold a shorter word (`purchase` holds `chase`) are read whole first.
A word of three letters or fewer counts only as a whole hyphen-part, or at a part's start right before another word
(`eth` in `ethgivers`). A brand counts at a part's start or right after another word, never inside an unknown run of
letters (`pineapple`). Pure; the tables are read once, and each host is read once (remembered).
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from gate.destinations import _ALL_OWN, _BOOK, own_site
from gate.digits import has_digit
from gate.urls import ip_of, is_loopback, registrable

__all__ = ["Finding", "kit_host", "provider_sign_in", "title_claim"]

_PH = _BOOK["phish-host"]
_W = _PH["words"]
_C = _PH["crypto"]


class Finding(NamedTuple):
    level: str  # "block" or "confirm"
    why: str


class _Provider(NamedTuple):
    name: str
    own: frozenset[str]
    paths: tuple[str, ...]
    names: frozenset[str]
    titles: tuple[str, ...]


_PROVIDERS = tuple(_Provider(k, frozenset(v["own"]), tuple(p.lower() for p in v["paths"]), frozenset(v["names"]),
                             tuple(v.get("titles", ()))) for k, v in _PH["providers"].items())
_TITLE_PUNCT = re.compile(r"[\W_]+")
_TITLES = re.compile(r"\b(?:" + "|".join(re.escape(t) for p in _PROVIDERS for t in sorted(p.titles, key=len,
                                                                                          reverse=True)) + r")\b")
_TITLE_OF = {t: p for p in _PROVIDERS for t in p.titles}
_PROVIDER_OWN = frozenset(d for p in _PROVIDERS for d in p.own)
# any provider's sign-in path, literally: one pass over a path before the providers are told apart
_ANY_PATH = re.compile("|".join(re.escape(x) for x in sorted({x for p in _PROVIDERS for x in p.paths},
                                                                key=lambda x: (-len(x), x))))
_SIGNIN_LABELS = frozenset(_W["signin_labels"])
# a provider's name that is no other word: beside a sign-in label it blocks; the rest (`g`, `ms`, `live`) ask
_DISTINCT_NAMES = frozenset(n for p in _PROVIDERS for n in p.names if len(n) >= 5 and n not in
                            {"office", "windows", "prime", "azure", "workspace", "messenger"})

_STRONG = frozenset(_W["strong"])
_WEAK = frozenset(_W["weak"])
_HOME = frozenset(_W["home"])
_DECOYS = frozenset(_W["decoys"])
_ABBREV: dict[str, str] = dict(_W["abbreviations"])
_GLUED_BRANDS = frozenset(_W["glued_brands"])
_FILLERS = frozenset(_W["fillers"])

_COINS = frozenset(_C["coins"]) | frozenset(_C["token_standards"])
_GIVE = frozenset(_C["giveaway"])
_GIVE_STRONG = frozenset(_C["giveaway_strong"])
_AIRDROP = frozenset(_C["airdrop"])
_BESIDE = frozenset(_C["airdrop_beside"])
_MOVES = frozenset(_C["moves"]) | frozenset(_C["moves_more"]) | frozenset(_C["approval_words"])
_APPROVAL = frozenset(_C["approval_words"])
_ALONE = frozenset(_C["airdrop_alone"])
_WALLETS = frozenset(_C["wallets"]) | frozenset(_C["wallets_more"])
_WALLET_OWN = frozenset(_C["wallet_own"]) | frozenset(_C["wallet_own_more"])
_LONG_WALLETS = tuple(sorted(m for m in _WALLETS if len(m) >= 9))  # long enough to be misspelt twice

_FH = _PH["free-hosts"]
_FREE = frozenset(_FH["suffixes"]) | frozenset(_FH["web3_hosts"])
_DYN = frozenset(_FH["dynamic_dns"]) | frozenset(_BOOK["phishing"]["dynamic_dns"])
_DEV = frozenset(_FH["dev_hosts"])
_ACCOUNT_HOSTS = frozenset(_FH["account_hosts"])
_ABUSED = frozenset(_BOOK["tlds"]["abused"])
_LOCAL_TLDS = frozenset({"local", "localhost", "lan", "home", "internal", "test", "example", "invalid", "arpa",
                         "corp", "intranet", "onion"})

# every word the cutter knows, with what it is
_TAGS: dict[str, set[str]] = {}
for _tag, _words in (("strong", _STRONG), ("weak", _WEAK), ("decoy", _DECOYS), ("coin", _COINS), ("give", _GIVE),
                     ("airdrop", _AIRDROP), ("beside", _BESIDE), ("wallet", _WALLETS), ("move", _MOVES),
                     ("alone", _ALONE),
                     ("brand", _GLUED_BRANDS | frozenset(_ABBREV)), ("filler", _FILLERS)):
    for _w in _words:
        _TAGS.setdefault(_w.replace("-", ""), set()).add(_tag)
_VOCAB: dict[str, frozenset[str]] = {w: frozenset(t) for w, t in _TAGS.items()}
_LONGEST = max(map(len, _VOCAB))
# the lengths of the words that begin with each two letters, longest first: the cutter tries only these
_SIZES: dict[str, tuple[int, ...]] = {}
for _w in _VOCAB:
    _SIZES[_w[:2]] = (*_SIZES.get(_w[:2], ()), len(_w))
_SIZES = {k: tuple(sorted(set(v), reverse=True)) for k, v in _SIZES.items()}
_ENDS: dict[str, tuple[int, ...]] = {}  # the same for the words that end with each two letters
for _w in _VOCAB:
    _ENDS[_w[-2:]] = (*_ENDS.get(_w[-2:], ()), len(_w))
_ENDS = {k: tuple(sorted(set(v), reverse=True)) for k, v in _ENDS.items()}
_LEET_L = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"})
_LEET_I = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"})


def _brand_of(word: str) -> str:
    return _ABBREV.get(word, word)


def _cut(part: str) -> list[str]:
    """The known words of one hyphen-part, in order: the reading that covers most letters (a longer word first where
    two cover as many); unknown letters are skipped, and a word after skipped letters is marked with a leading `~`
    (it does not start the part nor follow a word)."""
    n = len(part)
    best = [0] * (n + 1)
    pick: list[int] = [0] * (n + 1)  # the word's length taken at i, 0: the letter is skipped
    for i in range(n - 1, -1, -1):
        best[i], pick[i] = best[i + 1], 0
        for size in _SIZES.get(part[i:i + 2], ()):
            if size > n - i or part[i:i + size] not in _VOCAB:
                continue
            if size <= 3 and not (size == n or ((i == 0 or _word_before(part, i)) and _next_word(part, i + size))):
                continue  # a short word glued anywhere else is letters of something else
            if size + best[i + size] > best[i]:
                best[i], pick[i] = size + best[i + size], size
    out: list[str] = []
    i, gap = 0, False
    while i < n:
        size = pick[i]
        if size:
            out.append(("~" if gap else "") + part[i:i + size])
            i += size
            gap = False
        else:
            i += 1
            gap = True
    return out


def _word_before(part: str, i: int) -> bool:
    return any(4 <= k <= i and part[i - k:i] in _VOCAB for k in _ENDS.get(part[i - 2:i], ()))


def _next_word(part: str, i: int) -> bool:
    rest = part[i:]
    return any(4 <= k <= len(rest) and rest[:k] in _VOCAB for k in _SIZES.get(rest[:2], ()))


class _Words(NamedTuple):
    strong: frozenset[str]
    weak: frozenset[str]
    brands: frozenset[str]
    coins: frozenset[str]
    give: frozenset[str]
    airdrop: frozenset[str]
    beside: frozenset[str]
    wallets: frozenset[str]
    moves: frozenset[str]
    alone: frozenset[str]


def _read(labels: list[str]) -> _Words:
    parts = [_read_label(label) for label in labels]
    return _Words(*(frozenset().union(*(getattr(p, k) for p in parts)) for k in _Words._fields))


@functools.lru_cache(maxsize=8192)
def _read_label(label: str) -> _Words:
    got: dict[str, set[str]] = {k: set() for k in _Words._fields}
    variants = {label}
    if has_digit(label):
        variants |= {label.translate(_LEET_L), label.translate(_LEET_I)}
    if "rn" in label or "vv" in label:
        variants.add(label.replace("rn", "m").replace("vv", "w"))
    for variant in variants:
        for part in variant.split("-"):
            if not part:
                continue
            for token in _cut(part):
                glued_in = token.startswith("~")
                w = token.lstrip("~")
                tags = _VOCAB[w]
                if "decoy" in tags:
                    tags = tags - {"decoy", "brand"}  # read whole: the word inside it is not there
                if "brand" in tags and not glued_in and (w in _GLUED_BRANDS or len(w) >= 6 or w == part):
                    got["brands"].add(_brand_of(w))
                if "strong" in tags:
                    got["strong"].add(w)
                if "weak" in tags:
                    got["weak"].add(w)
                for tag, key in (("coin", "coins"), ("give", "give"), ("airdrop", "airdrop"),
                                 ("beside", "beside"), ("move", "moves"), ("alone", "alone")):
                    if tag in tags:
                        got[key].add(w)
                if "wallet" in tags and not glued_in:
                    got["wallets"].add(w)
    return _Words(**{k: frozenset(v) for k, v in got.items()})


def _skipped(host: str) -> bool:
    if not host or "." not in host or is_loopback(host):
        return True
    ip = ip_of(host)
    if ip is not None:
        return True
    return host.rsplit(".", 1)[-1] in _LOCAL_TLDS


def _under(host: str, domains: frozenset[str]) -> str | None:
    """The listed domain the host is, or is under."""
    labels = host.split(".")
    for i in range(len(labels) - 1):
        suffix = ".".join(labels[i:])
        if suffix in domains:
            return suffix
    return None


@functools.lru_cache(maxsize=4096)
def _provider_host(host: str) -> tuple[_Provider, str] | None:
    """The provider whose sign-in host this one copies (`accounts.g.example.com`), with the name it is written as."""
    labels = host.split(".")
    reg = registrable(host)
    sub = labels[:len(labels) - len(reg.split("."))]
    if len(sub) < 2 or sub[0] not in _SIGNIN_LABELS:
        return None
    for label in sub[1:]:
        for p in _PROVIDERS:
            if label in p.names:
                return (p, label) if _under(host, p.own) is None else None
    return None


def _at_segment(low: str, prefix: str) -> bool:
    """`prefix` starts the path or one of its folders (`/wp-content/x/ServiceLogin` holds `/servicelogin`), and ends
    where a name ends."""
    start = low.find(prefix)
    while start >= 0:
        end = start + len(prefix)
        if prefix[-1] in "/=" or end == len(low) or not low[end].isalnum():
            return True
        start = low.find(prefix, start + 1)
    return False


def provider_sign_in(host: str, path: str, query: str = "") -> Finding | None:
    """A big provider's own sign-in path on a host that is not the provider's blocks; its sign-in host's shape copied
    in front of another domain blocks where the provider's name is distinctive, else asks."""
    host = host.lower().rstrip(".")
    if _skipped(host):
        return None
    low = (path or "").lower() + ("?" + query.lower() if query else "")
    if len(low) > 1 and _ANY_PATH.search(low):
        for p in _PROVIDERS:
            for prefix in p.paths:
                if prefix in low and _at_segment(low, prefix) and _under(host, p.own) is None and not own_site(host):
                    return Finding("block", f"{host} serves {p.name.title()}'s sign-in page {prefix!r}, and is not "
                                            f"{p.name.title()}'s")
    hit = _provider_host(host)
    if hit is None:
        return None
    p, name = hit
    level = "block" if name in _DISTINCT_NAMES else "confirm"
    return Finding(level, f"{host} copies {p.name.title()}'s sign-in host ({host.split('.')[0]}.{name}.…) onto "
                          f"{registrable(host)}, which is not {p.name.title()}'s")


def title_claim(host: str, title: str) -> Finding | None:
    """The page's window title is a big provider's sign-in page's (`Sign in - Google Accounts`) and its host is not
    the provider's: a copy of the provider's sign-in page."""
    host = host.lower().rstrip(".")
    if not title or _skipped(host):
        return None
    titled = _titled(title)
    if titled is None:
        return None
    p = _TITLE_OF[titled]
    if _under(host, p.own) is not None or own_site(host):
        return None
    return Finding("block", f"{host}, a page titled as {p.name.title()}'s sign-in ({titled!r}) on a host that is "
                            f"not {p.name.title()}'s")


@functools.lru_cache(maxsize=1024)
def _titled(title: str) -> str | None:
    """The provider's sign-in title a window title starts with, or None (a window's title repeats from action to
    action, and several rules ask: kept, bounded)."""
    m = _TITLES.match(_TITLE_PUNCT.sub(" ", title[:300].lower()).strip())  # the title is the page's name
    return None if m is None else m.group(0)


def _parent(host: str) -> tuple[str, str] | None:
    """`(suffix, kind)` when the host is a site on a dynamic-DNS zone or a free website host."""
    labels = host.split(".")
    for i in range(1, len(labels) - 1):
        suffix = ".".join(labels[i:])
        if suffix in _DYN:
            return suffix, "a dynamic-DNS name"
        if suffix in _FREE:
            return suffix, "a free website host"
    return None


def _edits_within(a: str, b: str, limit: int) -> bool:
    if abs(len(a) - len(b)) > limit:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return False
        prev = cur
    return prev[-1] <= limit


def _crypto(w: _Words, named: list[str]) -> Finding | None:
    give_strong = w.give & _GIVE_STRONG
    coin = sorted(w.coins)
    if coin and give_strong:
        return Finding("block", f"a coin giveaway ({coin[0]}, {sorted(give_strong)[0]})")
    if coin and len(w.give) >= 2:
        return Finding("confirm", f"free coins ({coin[0]}, {', '.join(sorted(w.give))})")
    if w.airdrop and (coin or (w.beside - w.airdrop) or len(w.airdrop) >= 2 or "wallet" in w.weak):
        lure = sorted(w.airdrop)[0]
        other = sorted((w.coins | w.beside | (w.airdrop - {lure}) | (w.weak & {"wallet"})) - {lure})
        if lure in {"airdrop", "airdrops", "claim", "claims", "claimreward"} or coin or "wallet" in other:
            return Finding("confirm", f"a wallet or airdrop lure ({lure}, {other[0] if other else lure})")
    return _coin_moves(w, named)


def _coin_moves(w: _Words, named: list[str]) -> Finding | None:
    """A free drop named for a project (`<project>airdrop`, `<project>-freemint`: a site that is only the word, a
    listing of drops, passes), or a coin or a token standard beside what a drainer offers to do with it: transfer,
    bridge, swap, mint, revoke, check eligibility, fix (`bnb-transfer`, `erc20-bridge`); two approval checker's
    words (`revoke-approvals`)."""
    alone = [a for a in sorted(w.alone) if any(a in lbl.replace("-", "") and len(lbl.replace("-", "")) > len(a)
                                               for lbl in named)]
    if alone:
        return Finding("confirm", f"an airdrop or a free mint ({alone[0]})")
    moves = sorted(w.moves - w.coins)
    coin = sorted(w.coins - w.moves)
    if moves and coin:
        return Finding("confirm", f"a coin beside what a drainer offers ({coin[0]}, {moves[0]})")
    if len(w.moves & _APPROVAL) >= 2:
        return Finding("confirm", f"an approval checker ({', '.join(sorted(w.moves & _APPROVAL)[:2])})")
    return None


@functools.lru_cache(maxsize=4096)
def kit_host(host: str) -> Finding | None:
    """What a kit's host name says, read from all its labels but the top-level name."""
    host = host.lower().rstrip(".")
    if _skipped(host):
        return None
    labels = host.split(".")
    reg = registrable(host)
    reg_labels = reg.split(".")
    sub = labels[:len(labels) - len(reg_labels)]
    parent = _parent(host)
    named = labels[:len(labels) - len(parent[0].split("."))] if parent is not None else [*sub, reg_labels[0]]
    named = [lbl for lbl in named if lbl not in {"www", "ww", "www2", "m"}]
    if not named:
        return None
    mine = _under(host, _ALL_OWN) or _under(host, _PROVIDER_OWN)
    # a free host's tenant is whoever opened it, even where the host is a listed brand's
    listed_own = mine is not None and (parent is None or len(mine) > len(parent[0]))
    own = listed_own or (parent is None and own_site(host))
    w = _read(named)
    # a wallet maker's name on another domain: the recovery phrase is what that page is for
    wallet_own = _under(host, _WALLET_OWN) is not None or (
        parent is not None and parent[0] in _ACCOUNT_HOSTS and len(named) == 1 and named[0] in _WALLETS)
    if not wallet_own and not listed_own:
        site = reg_labels[0] if parent is None else named[-1]
        plain = site.replace("-", "")
        spellings = {plain, plain.replace("rn", "m").replace("vv", "w"), plain.translate(_LEET_L)}
        for maker in sorted(w.wallets) or [m for m in _LONG_WALLETS for x in spellings
                                            if abs(len(x) - len(m)) <= 2 and (x[:2] == m[:2] or x[-2:] == m[-2:])
                                            and _edits_within(x, m, 2)][:1]:
            # a lure, or the maker's app host copied as one name (`app-<maker>`, `<maker>-official`)
            extra = w.strong | w.give | w.airdrop | w.moves | {p for label in named for p in label.split("-")
                                                               if p in _BESIDE and p != maker}
            level = "block" if extra else "confirm"
            return Finding(level, f"{host} is named for the wallet {maker!r} and is not its maker's site")
    if own:
        return None
    brands = sorted(w.brands)
    words = w.strong | w.weak
    where = f" on {parent[1]} ({parent[0]})" if parent else ""
    if brands:
        if w.strong or len(w.weak) >= 2 or (parent is not None and parent[0] not in _DEV and words):
            return Finding("block", f"{host} writes {brands[0]!r} beside {', '.join(sorted(words)[:3])}{where}")
        if w.weak:
            return Finding("confirm", f"{host} writes {brands[0]!r} beside {sorted(w.weak)[0]!r}{where}")
    if (c := _crypto(w, named)) is not None:
        level = c.level
        if level == "confirm" and w.coins and (host.rsplit(".", 1)[-1] in _ABUSED or
                                               (parent is not None and parent[0] not in _DEV)):
            level = "block"  # a coin lure on a bulk-registered name or a free website host
        return Finding(level, f"{host} is named as {c.why}{where}")
    if parent is not None and (len(w.moves) >= 2 or (w.coins and w.give)):
        return Finding("confirm", f"{host} is named with what a drainer offers ({', '.join(sorted(w.moves)[:2])})"
                                  f"{where}")
    if parent is not None:
        lure = words - _HOME
        if (w.strong - _HOME) and len(words) >= 2 and parent[0] not in _DEV:
            return Finding("block", f"{host} is named with {', '.join(sorted(words)[:3])}{where}")
        if lure and (w.strong - _HOME or len(words) >= 3 or (len(words) >= 2 and _all_words(named))):
            return Finding("confirm", f"{host} is named with {', '.join(sorted(words)[:3])}{where}")
        return None
    sub_words = _read(sub) if sub else None
    stacked = sub_words is not None and len(sub_words.strong | sub_words.weak) >= 2
    if (w.strong and len(words) >= 4) or len(words) >= 5:
        return Finding("block", f"{host} stacks account words: {', '.join(sorted(words)[:4])}")
    if w.strong and (len(words) >= 3 or (stacked and len(words) >= 2)):
        return Finding("confirm", f"{host} is named with account words: {', '.join(sorted(words)[:3])}")
    if stacked and sub_words is not None and any("-" in label and _all_words([label]) for label in sub):
        return Finding("confirm", f"{host} puts account words in front of another site: "
                                  f"{', '.join(sorted(sub_words.strong | sub_words.weak)[:3])}")
    if host.rsplit(".", 1)[-1] in _ABUSED and len(w.coins) + len(w.weak & {"wallet"}) >= 2:
        return Finding("confirm", f"{host} is a coin wallet's name under a bulk-registered top-level name")
    return None


def _all_words(labels: list[str]) -> bool:
    """Every hyphen-part of these labels is a known account word (`service-account`, `secure.login`)."""
    for label in labels:
        for part in label.split("-"):
            if part in _FILLERS:
                continue
            tags = _VOCAB.get(part)
            if tags is None or not (tags & {"strong", "weak"}):
                return False
    return True
