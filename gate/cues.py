"""The cue book: what web pages say to steer an agent, what buttons commit to, and where data goes out,
as data (resources/cues.toml), compiled once.

    book = cue_book()                  # loaded and compiled once per process; gate/compiled.py holds it
    book.steering   → tuple[CueKind, ...]        gate/steering.py reads them
    book.consequence → tuple[ConsequenceKind, ...] gate/consequence.py reads them
    book.navigation.fullmatch(first_line)         labels that only move around or towards a payment
    book.destinations → {category: (host, ...)}   paste, file-sharing, shortener, collector sites
    book.url_consequence → tuple[ConsequenceKind, ...]  what opening a URL does (gate/rules/navigate.py)
    book.setting_fields → tuple[SettingField, ...]  fields whose value is a decision (gate/rules/gui.py)
    book.recoverable.fullmatch(first_line)        clicks that can be taken back (one mail to the trash)
    book.practice_hosts                            practice and test sites (exact host or dot-suffix)
    book.sign_in_words                             path words of a sign-in or account page
    book.interstitial["phishing"|"certificate"|"go-on"]  a browser's security warning page and its way past
    book.interstitial_pages["phishing"|"certificate"]    the start of a browser's own warning page's address
    book.context["share-dialog"|"records-page"|...]   what a page, a dialog or a field is for (gate/rules/webapp.py)

The file is written in our own words: per kind, one list of regexes per language (`en`, `de`, `fr`, `es`,
`pt`, `it`, `nl`, `ru`, `zh`, `ja`, ...), all matched against the normalised word form of a label or typed
text (lower case, homoglyphs folded, punctuation runs one space: `gate.rules.gui.label_text`). A named
fragment of `[parts]` is written `{name}` inside a pattern (a regex quantifier such as `{0,3}` starts with
a digit and is left alone). Letters outside ASCII in a pattern are folded the way the text is
(`gate.normalise.fold`: NFKC, case folding, Cyrillic and Greek look-alikes to Latin), so a Russian cue is
written in Russian and still matches the folded text. A pattern that does not compile, an unknown
language or an unknown part is an error that names the table, at load time.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import TypeVar

from gate import regex_store
from gate.model import Risk
from gate.normalise import fold
from gate.prefix import BranchSearch, branch_heads, literals

__all__ = ["LANGUAGES", "ConsequenceKind", "CueBook", "CueKind", "KindIndex", "SettingField", "cue_book",
           "either_spelling", "is_practice_host", "parse_cues"]

# the languages a table may list (ISO 639-1), English first
LANGUAGES = ("en", "de", "fr", "es", "pt", "it", "nl", "pl", "tr", "ru", "uk", "zh", "ja", "ko")
_PART = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


@dataclass(frozen=True, slots=True)
class CueKind:
    """One kind of steering cue (gate/steering.py)."""

    name: str  # "override"
    aimed_at_agent: bool  # no person writes this to another person
    blocks_alone: bool  # manipulative by itself (a fake verification that has the agent run a command)
    search: BranchSearch
    languages: tuple[str, ...]
    # the kind's phrasings that block by themselves on a click target (`[steering.*.target-blocks]`): no button
    # made for people says them ("Ignore previous instructions", "Vorherige Anweisungen ignorieren")
    target_blocks: BranchSearch | None = None


@dataclass(frozen=True, slots=True)
class ConsequenceKind:
    """One kind of consequence a button commits to (gate/consequence.py)."""

    name: str  # "money"
    risk: Risk
    search: BranchSearch
    languages: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SettingField:
    """One kind of field whose typed value is itself a decision (`[setting-field.*]`, gate/rules/gui.py): its
    patterns are matched against the field's label, `value` (when set) against the typed value's word form."""

    name: str  # "a role or permission"
    risk: Risk
    search: BranchSearch
    value: re.Pattern[str] | None
    languages: tuple[str, ...]
    key: str = ""  # the table's name ("routing" of `[setting-field.routing]`)


_FEW_NON_ASCII = 800  # non-ASCII substrings an index looks for in one alternation; more: by character (KindIndex)


class KindIndex:
    """Which kinds of a list could match a text, and on which of their branches: the kinds' literal word
    prefixes and substrings (gate/prefix.py `BranchSearch`) merged into one index, so a label's words are
    tested once for every kind, not once to pick the kinds and again by each kind's own search."""

    __slots__ = ("always", "ascii_by_substring", "ascii_substrings", "by_rare", "by_substring", "by_word",
                 "rare_chars", "substrings", "word_keys")

    def __init__(self, searches: list[BranchSearch]) -> None:
        # key → (kind, the mask of that kind's branches the key lets match), for every kind with such a key
        by_word: dict[str, list[tuple[int, int]]] = {}
        by_substring: dict[str, list[tuple[int, int]]] = {}
        for i, s in enumerate(searches):
            for key, bits in s.by_word.items():
                by_word.setdefault(key, []).append((i, bits))
            for sub, bits in s.by_substring:
                by_substring.setdefault(sub, []).append((i, bits))
        self.by_word = {k: tuple(v) for k, v in by_word.items()}
        self.word_keys = frozenset(by_word)
        self.by_substring = tuple((k, tuple(v)) for k, v in sorted(by_substring.items()))
        # an ASCII text cannot hold a non-ASCII substring (most of them: the Chinese and Japanese cues)
        self.ascii_by_substring = tuple((k, v) for k, v in self.by_substring if k.isascii())
        self.ascii_substrings = literals([k for k in by_substring if k.isascii()])
        # Many others (the steering cues: over a thousand, most of them Chinese and Japanese): by their first
        # character beyond ASCII, as a text holds one of them only if it holds that character, so a text is
        # looked at for the few its own characters name (one alternation of them all is tens of µs on any text
        # with an accent). A few: one alternation of every substring, which is then the cheaper.
        by_rare: dict[str, list[tuple[str, tuple[tuple[int, int], ...]]]] = {}
        for k, v in self.by_substring:
            if not k.isascii():
                by_rare.setdefault(next(c for c in k if not c.isascii()), []).append((k, v))
        many = sum(map(len, by_rare.values())) > _FEW_NON_ASCII
        self.by_rare = {c: tuple(v) for c, v in by_rare.items()} if many else {}
        self.rare_chars = frozenset(self.by_rare)
        self.substrings = None if many else literals(by_substring)
        self.always = tuple((i, s.always) for i, s in enumerate(searches) if s.always)

    def branches(self, text: str, keys: frozenset[str]) -> list[tuple[int, int]]:
        """The kinds that could match `text` (`keys`: its `text_keys`), in list order, each with the mask
        of branches its own `BranchSearch.search` would try: what `BranchSearch.search_among` takes."""
        found: dict[int, int] = dict(self.always)
        for key in keys & self.word_keys:
            for i, bits in self.by_word[key]:
                found[i] = found.get(i, 0) | bits
        if self.substrings is not None and not text.isascii():  # (a few non-ASCII substrings: all in one search)
            if self.substrings.search(text) is not None:
                for sub, kinds in self.by_substring:
                    if sub in text:
                        for i, bits in kinds:
                            found[i] = found.get(i, 0) | bits
            return sorted(found.items())
        rx = self.ascii_substrings
        if rx is not None and rx.search(text) is not None:
            for sub, kinds in self.ascii_by_substring:
                if sub in text:
                    for i, bits in kinds:
                        found[i] = found.get(i, 0) | bits
        if not text.isascii():
            for c in self.rare_chars.intersection(text):
                for sub, kinds in self.by_rare[c]:
                    if sub in text:
                        for i, bits in kinds:
                            found[i] = found.get(i, 0) | bits
        return sorted(found.items())


@dataclass(frozen=True, slots=True, eq=False)
class CueBook:
    parts: dict[str, str]  # the named fragments, expanded
    steering: tuple[CueKind, ...]
    consequence: tuple[ConsequenceKind, ...]
    navigation: re.Pattern[str]  # fullmatch over a label's first line (`words` form): no consequence
    destinations: dict[str, tuple[str, ...]]  # category → hosts (exact or dot-suffix, or host/path prefix)
    dest_hosts: dict[str, str]  # host → category, for a lookup of a host and each suffix after a dot
    dest_paths: tuple[tuple[str, str], ...]  # (host/path prefix, category)
    steering_index: KindIndex  # which steering kinds could match a text
    consequence_index: KindIndex  # which consequence kinds could match a label
    # what opening a URL does (gate/rules/navigate.py): kinds matched against the words of its path and query
    url_consequence: tuple[ConsequenceKind, ...] = ()
    url_consequence_index: KindIndex = field(default_factory=lambda: KindIndex([]))
    # query keys that prefill where money goes and how much (`[url-prefill]`), lower case
    url_prefill: dict[str, frozenset[str]] = field(default_factory=dict)
    # fields whose typed value is a decision: a role, an amount moved, a DNS record, a payee's account
    setting_fields: tuple[SettingField, ...] = ()
    setting_index: KindIndex = field(default_factory=lambda: KindIndex([]))  # which could match a field's label
    # labels whose click can be taken back or only starts something: fullmatch over the first line
    recoverable: re.Pattern[str] | None = None
    recoverable_on_mail: re.Pattern[str] | None = None  # the same, on a mail page only ("Trash", "Delete")
    practice_hosts: frozenset[str] = frozenset()  # practice and test sites: exact host, or ".suffix"
    sign_in_words: frozenset[str] = frozenset()  # path words of a sign-in or account-verification page
    # a security warning page: "phishing" / "certificate" (search its text), "go-on" (fullmatch a label)
    interstitial: dict[str, re.Pattern[str]] = field(default_factory=dict)
    # what a page, a dialog or a field is for (`[context.*]`): searched over titles, page text, URL words
    context: dict[str, re.Pattern[str]] = field(default_factory=dict)
    # a browser's own warning page by the start of its address ("about:certerror"): kind → prefixes, lower case
    interstitial_pages: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # what other modules compile from this book (`book_table`), built with the policy (`compile_tables`)
    tables: dict[str, object] = field(default_factory=dict, repr=False)


def _fold_letters(pattern: str) -> str:
    """Fold the non-ASCII letters of a pattern the way the matched text is folded; the regex syntax is
    ASCII and stays as written."""
    return _NON_ASCII.sub(lambda m: fold(m.group(0)), pattern)


# a regex's pieces: an escape, a character class, a run of letters outside ASCII, anything else
_REGEX_PIECE = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|[^\W\d_\x00-\x7f]+|.", re.DOTALL)


def either_spelling(pattern: str) -> str:
    """A rule's own regex, made to match its words outside ASCII as written and as `fold` spells them: a Russian
    "пароль" reads "пapoль" once its Latin look-alikes are folded, a German "ß" reads "ss". Each such run of letters
    becomes `(?:as written|folded)`, and a character class gets the folded letters too, so the regex matches the
    folded label and the raw text alike. (The cue book folds its own patterns: `_fold_letters`.)"""
    if pattern.isascii():
        return pattern
    out = []
    for m in _REGEX_PIECE.finditer(pattern):
        piece = m.group(0)
        if piece.isascii() or piece.startswith("\\"):
            out.append(piece)
        elif piece.startswith("[") and len(piece) > 2:
            extra = "".join(dict.fromkeys(f for c in piece[1:-1] if not c.isascii() and (f := fold(c)) != c
                                          and f not in piece and f not in "\\]^"))
            out.append(f"{piece[:-1]}{extra}]" if extra else piece)
        else:
            folded = fold(piece)
            out.append(piece if folded == piece else f"(?:{piece}|{re.escape(folded)})")
    return "".join(out)


def _expand(pattern: str, parts: dict[str, str], where: str) -> str:
    def part(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in parts:
            raise ValueError(f"cues.toml [{where}]: unknown part {{{name}}}")
        return parts[name]
    return _fold_letters(_PART.sub(part, pattern))


def _patterns(table: dict, parts: dict[str, str], where: str) -> tuple[list[str], tuple[str, ...]]:
    """The table's patterns of every language (English first), expanded and checked."""
    out: list[str] = []
    langs: list[str] = []
    for lang, pats in table.items():
        if lang not in LANGUAGES:
            continue
        if not isinstance(pats, list) or not all(isinstance(p, str) for p in pats):
            raise ValueError(f"cues.toml [{where}].{lang} must be a list of strings")
        for p in pats:
            expanded = _expand(p, parts, where)
            try:
                branch_heads(expanded)  # parses every branch (what BranchSearch compiles), remembered for it
            except re.error as err:
                raise ValueError(f"cues.toml [{where}].{lang}: {err}: {p!r}") from None
            out.append(expanded)
        langs.append(lang)
    if not out:
        raise ValueError(f"cues.toml [{where}] has no patterns")
    return out, tuple(langs)


_KNOWN_KEYS = frozenset({"name", "risk", "aimed_at_agent", "blocks_alone", "target-blocks", "value", *LANGUAGES})


def _check_keys(table: dict, where: str) -> None:
    unknown = set(table) - _KNOWN_KEYS
    if unknown:
        raise ValueError(f"cues.toml [{where}]: unknown keys {sorted(unknown)} (languages: {', '.join(LANGUAGES)})")


def parse_cues(text: str) -> CueBook:
    """Compile the text of a cues file (the shipped one is `cue_book()`)."""
    data = regex_store.toml(text)
    raw_parts = data.get("parts", {})
    parts: dict[str, str] = {}
    for name, value in raw_parts.items():  # a part may use the parts defined before it
        # folded here as well as in the patterns that use it: the page-bound verbs are read from `parts` as they
        # are, and a Russian or German answer must match the folded label ("показать", "ß" as "ss")
        parts[name] = _fold_letters(_PART.sub(lambda m: parts[m.group(1)] if m.group(1) in parts else m.group(0),
                                              value))
    steering = []
    for key, table in data.get("steering", {}).items():
        _check_keys(table, f"steering.{key}")
        pats, langs = _patterns(table, parts, f"steering.{key}")
        on_target = table.get("target-blocks")
        if on_target is not None and not isinstance(on_target, dict):
            raise ValueError(f"cues.toml [steering.{key}.target-blocks] must be a table of languages")
        target_blocks = None
        if on_target:
            _check_keys(on_target, f"steering.{key}.target-blocks")
            target_blocks = BranchSearch(_patterns(on_target, parts, f"steering.{key}.target-blocks")[0])
        steering.append(CueKind(table.get("name", key.replace("-", " ")), bool(table.get("aimed_at_agent", False)),
                                bool(table.get("blocks_alone", False)), BranchSearch(pats), langs, target_blocks))
    consequence = _consequence_kinds(data.get("consequence", {}), parts, "consequence")
    url_consequence = _consequence_kinds(data.get("url-consequence", {}), parts, "url-consequence")
    url_prefill: dict[str, frozenset[str]] = {}
    for name, keys in data.get("url-prefill", {}).items():
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ValueError(f"cues.toml [url-prefill].{name} must be a list of strings")
        url_prefill[name] = frozenset(k.strip().lower() for k in keys if k.strip())
    setting_fields = _setting_fields(data.get("setting-field", {}), parts)
    nav = data.get("navigation", {})
    _check_keys(nav, "navigation")
    nav_pats, _ = _patterns(nav, parts, "navigation")
    navigation = regex_store.compile("|".join(f"(?:{p})" for p in nav_pats))
    destinations = {name: tuple(h.strip().lower().rstrip(".").removeprefix("*.") for h in hosts)
                    for name, hosts in data.get("destinations", {}).items()}
    dest_hosts: dict[str, str] = {}
    dest_paths: list[tuple[str, str]] = []
    for name, hosts in destinations.items():
        for h in hosts:
            if "/" in h:
                dest_paths.append((h, name))
            elif h:
                dest_hosts.setdefault(h, name)
    rec = data.get("recoverable", {})
    _check_keys(rec, "recoverable")
    recoverable = regex_store.compile("|".join(f"(?:{p})" for p in _patterns(rec, parts, "recoverable")[0])) \
        if rec else None
    on_mail = data.get("recoverable-on-mail", {})
    _check_keys(on_mail, "recoverable-on-mail")
    recoverable_on_mail = regex_store.compile(
        "|".join(f"(?:{p})" for p in _patterns(on_mail, parts, "recoverable-on-mail")[0])) if on_mail else None
    interstitial: dict[str, re.Pattern[str]] = {}
    for name, table in data.get("interstitial", {}).items():
        _check_keys(table, f"interstitial.{name}")
        interstitial[name] = regex_store.compile(
            "|".join(f"(?:{p})" for p in _patterns(table, parts, f"interstitial.{name}")[0]))
    context: dict[str, re.Pattern[str]] = {}
    for name, table in data.get("context", {}).items():
        _check_keys(table, f"context.{name}")
        context[name] = regex_store.compile("|".join(f"(?:{p})" for p in _patterns(table, parts, f"context.{name}")[0]))
    sign_in = data.get("sign-in-paths", {}).get("words", [])
    if not isinstance(sign_in, list) or not all(isinstance(w, str) for w in sign_in):
        raise ValueError("cues.toml [sign-in-paths].words must be a list of strings")
    practice = data.get("practice-sites", {}).get("hosts", [])
    if not isinstance(practice, list) or not all(isinstance(h, str) for h in practice):
        raise ValueError("cues.toml [practice-sites].hosts must be a list of strings")
    return CueBook(parts, tuple(steering), tuple(consequence), navigation, destinations, dest_hosts,
                   tuple(dest_paths), KindIndex([k.search for k in steering]),
                   KindIndex([k.search for k in consequence]), tuple(url_consequence),
                   KindIndex([k.search for k in url_consequence]), url_prefill, setting_fields,
                   KindIndex([k.search for k in setting_fields]), recoverable, recoverable_on_mail,
                   frozenset(h.strip().lower().rstrip(".").replace("*.", ".", 1) for h in practice if h.strip()),
                   frozenset(w.strip().lower() for w in sign_in if w.strip()), interstitial, context,
                   interstitial_pages=_interstitial_pages(data.get("interstitial-pages", {})))


def _interstitial_pages(table: dict) -> dict[str, tuple[str, ...]]:
    """`[interstitial-pages]`: per kind, the starts of a browser's own warning pages' addresses, lower case."""
    out: dict[str, tuple[str, ...]] = {}
    for kind, prefixes in table.items():
        if not isinstance(prefixes, list) or not all(isinstance(p, str) for p in prefixes):
            raise ValueError(f"cues.toml [interstitial-pages].{kind} must be a list of strings")
        out[kind] = tuple(p.strip().lower() for p in prefixes if p.strip())
    return out


def _setting_fields(tables: dict, parts: dict[str, str]) -> tuple[SettingField, ...]:
    """The kinds of `[setting-field.*]`, in file order, with their `value` patterns compiled."""
    out = []
    for key, table in tables.items():
        (kind,) = _consequence_kinds({key: table}, parts, "setting-field")
        raw = table.get("value")
        if raw is not None and not isinstance(raw, str):
            raise ValueError(f"cues.toml [setting-field.{key}].value must be a string")
        try:
            value = re.compile(_expand(raw, parts, f"setting-field.{key}")) if raw else None
        except re.error as err:
            raise ValueError(f"cues.toml [setting-field.{key}].value: {err}") from None
        out.append(SettingField(kind.name, kind.risk, kind.search, value, kind.languages, key))
    return tuple(out)


def _consequence_kinds(tables: dict, parts: dict[str, str], where: str) -> list[ConsequenceKind]:
    """The kinds of a `[consequence.*]`-style family of tables, in file order."""
    kinds = []
    for key, table in tables.items():
        _check_keys(table, f"{where}.{key}")
        pats, langs = _patterns(table, parts, f"{where}.{key}")
        try:
            risk = Risk.parse(table.get("risk", "medium"))
        except KeyError:
            raise ValueError(f"cues.toml [{where}.{key}]: unknown risk {table.get('risk')!r}") from None
        kinds.append(ConsequenceKind(table.get("name", key.replace("-", " ")), risk, BranchSearch(pats), langs))
    return kinds


# the builders of `book_table`, by name: what `compile_tables` builds for a book
_TABLE_BUILDERS: dict[str, Callable[[CueBook], object]] = {}

_T = TypeVar("_T")


def book_table(build: Callable[[CueBook], _T]) -> Callable[[CueBook], _T]:
    """Decorate a function that compiles something from a cue book (its patterns of [parts], a lookup):
    what it returns is kept in the book's `tables`, built once per book when the policy is compiled
    (`compile_tables`, gate/compiled.py), so the first assessment after a start or a reload finds it
    built. A book no policy was compiled with (a test's own) gets it on first use."""
    name = f"{build.__module__}.{build.__qualname__}"
    _TABLE_BUILDERS[name] = build

    @functools.wraps(build)
    def table(book: CueBook) -> _T:
        try:
            return book.tables[name]  # type: ignore[return-value]
        except KeyError:
            built = book.tables[name] = build(book)
            return built

    return table


def compile_tables(book: CueBook) -> None:
    """Build every `book_table` of the modules imported so far for `book` (those not built yet)."""
    for name, build in _TABLE_BUILDERS.items():
        if name not in book.tables:
            book.tables[name] = build(book)


@functools.cache
def cue_book() -> CueBook:
    """The shipped cue book (resources/cues.toml), read and compiled once."""
    return parse_cues(resources.files("resources").joinpath("cues.toml").read_text(encoding="utf-8"))


def is_practice_host(host: str, book: CueBook | None = None) -> bool:
    """The host (lower case) is a practice or test site of `[practice-sites]`: listed exactly, or under a
    listed "*.suffix"."""
    hosts = (book or cue_book()).practice_hosts
    host = host.rstrip(".")
    if host in hosts:
        return True
    while "." in host:
        host = host[host.index("."):]
        if host in hosts:
            return True
        host = host[1:]
    return False
