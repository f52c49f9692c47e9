"""What text typed for people to read, or a page opened, does to people: the harm book (resources/harm.toml).

    book = harm_book()                                   # read and compiled once per process (or
                                                         # taken whole from a `deskgate check` store)
    judge(harm_words(text), text, book=book)             -> Harm | None   typed into a field
    judge(url_text, url, where="url", book=book)         -> Harm | None   the words of a URL opened
    harm_words(text)                                     -> the word form the book's patterns read

gate/harm.py reads phishing, harassment, doxxing and false alarms; this module reads the other kinds the
public harm taxonomies name (AgentHarm, HarmBench, MLCommons AILuminate, the OpenAI moderation categories):
trade in stolen identity or card data, malware and attack services, drugs and weapons; extortion; threats
of violence; encouragement of self-harm; dehumanising text and slurs; health and election misinformation
written to spread; fraud offers; sexual content involving minors; instructions for weapons.

A kind is never read from one word. Each is a set of combinations of named parts ("an offer to sell" and "a
stolen good", "a demand for money" and "a threat to expose"), and a combination holds when every one of its
parts is found within the kind's `reach` of the others. A part of the kind's `unless` list found within that
reach of the match (a report, a warning, a quotation, help offered) turns it round. So "sell my old bike",
"kill the process" and "the vaccine schedule" hold one part at most, and "police arrested a man selling
stolen cards" is a report.

A part's patterns are matched against the word form (lower case, homoglyphs folded, punctuation runs one
space), lazily and at most once per text. A pattern is tried only when the text holds a word its match must
start with (`gate.prefix.branch_heads`) and a string every match of it contains (`anchors`); patterns have
bounded gaps, so matching is linear in the text's length. Only the first `_MAX_TEXT` characters are read.
The book is checked when it is loaded: an unknown part, an unknown language, a pattern that does not
compile, a kind with no combination is an error that names the table.
"""

from __future__ import annotations

import functools
import hashlib
import re
import re._constants as _c
import re._parser as _parser
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import NamedTuple

from gate import regex_store
from gate.cues import LANGUAGES  # the languages a part may list, as the cue book's
from gate.normalise import fold, fold_uncached
from gate.prefix import branch_heads, text_keys
from gate.sensitive import find_sensitive

__all__ = ["Harm", "HarmBook", "HarmKind", "anchors", "harm_book", "harm_words", "judge", "parse_harm", "part_match"]

_NO_SPACES = frozenset({"zh", "ja", "ko"})  # written without spaces: no word boundaries around a pattern
_SHAPES = frozenset({"#card-or-id"})  # parts found in the raw text by code, not by words
_PART_REF = re.compile(r"\{([a-z][a-z0-9-]*)\}")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_NON_WORD = re.compile(r"[\W_]+")
_KEY = re.compile(r"\w+")
_MAX_TEXT = 4096  # characters of the word form read
_MAX_HITS = 24  # matches of one part kept
_DEFAULT_REACH = 120
_KIND_KEYS = frozenset({"name", "taxonomy", "block", "confirm", "url_block", "url_confirm", "unless", "reach",
                        "search", "redact"})


@dataclass(frozen=True, slots=True)
class HarmKind:
    """One kind of harm of the book (`[kind.*]`)."""

    key: str  # "extortion"
    name: str  # what a person is told
    taxonomy: tuple[str, ...]  # the public categories it stands for
    block: tuple[tuple[str, ...], ...]  # combinations of parts that block (typed text)
    confirm: tuple[tuple[str, ...], ...]  # combinations that ask (typed text)
    url_block: tuple[tuple[str, ...], ...]  # the same, read in the words of a URL opened
    url_confirm: tuple[tuple[str, ...], ...]
    unless: tuple[str, ...]  # parts that turn a match round within `reach`
    reach: int
    search_blocks: bool  # a block combination typed into a search field still blocks
    redact: bool  # the reason never quotes the text


_MAX_SET = 64  # literal strings an anchor may list


def _literal_set(seq: list) -> set[str] | None:
    """The finite set of strings a parsed regex sequence matches, or None when it is not one (a class, a
    repeat, a category): `(?:kill|murder) ` → {"kill ", "murder "}."""
    out = {""}
    for op, av in seq:
        if op is _c.LITERAL:
            out = {s + chr(av) for s in out}
        elif op is _c.SUBPATTERN:
            inner = _literal_set(list(av[3]))
            if inner is None:
                return None
            out = {s + t for s in out for t in inner}
        elif op is _c.BRANCH:
            alts: set[str] = set()
            for alt in av[1]:
                got = _literal_set(list(alt))
                if got is None:
                    return None
                alts |= got
            out = {s + t for s in out for t in alts}
        elif op is _c.AT:
            continue
        else:
            return None
        if len(out) > _MAX_SET:
            return None
    return out


def _anchor(seq: list) -> set[str] | None:
    """Strings one of which every match of the parsed sequence contains: of its mandatory pieces that match a
    finite set of strings (runs of literals and literal alternations joined), the one whose shortest string
    is longest (three characters at least); None when no piece is such."""
    candidates: list[set[str]] = []
    run: list = []

    def close() -> None:
        got = _literal_set(run) if run else None
        if got:
            candidates.append(got)
        run.clear()

    for op, av in seq:
        if op is _c.AT:
            close()
            continue
        if _literal_set([(op, av)]) is not None:
            run.append((op, av))
            if _literal_set(run) is None:  # the run grew past what is worth listing
                run.pop()
                close()
                run.append((op, av))
            continue
        close()
        if op is _c.SUBPATTERN:
            got = _anchor(list(av[3]))
        elif op is _c.BRANCH:
            per = [_anchor(list(alt)) for alt in av[1]]
            got = None if any(x is None for x in per) else set().union(*per)  # type: ignore[arg-type]
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT) and av[0] >= 1:
            got = _anchor(list(av[2]))
        else:
            got = None
        if got:
            candidates.append(got)
    close()
    best: set[str] | None = None
    for got in candidates:
        if len(got) <= _MAX_SET and _rarity(got) >= 3 and (best is None or _rarity(got) > _rarity(best)):
            best = got
    return best


def _rarity(strings: set[str]) -> int:
    """How rarely the least rare of `strings` occurs by chance: its length, three per character outside ASCII
    (two Chinese characters are as rare as a word)."""
    return min(len(x) if x.isascii() else 3 * len(x) for x in strings)


def anchors(pattern: str) -> re.Pattern[str] | None:
    """A literal alternation one of whose strings any match of `pattern` contains (a cheap test before the
    pattern itself is searched), or None when the pattern has no such strings. One alternation per pattern:
    joined for a whole part they grow to thousands of strings, which `re` searches more slowly than the
    patterns themselves."""
    try:
        found = _anchor(list(_parser.parse(pattern)))
    except (re.error, RecursionError):
        return None
    if not found:
        return None
    return regex_store.compile("|".join(re.escape(x) for x in sorted(found, key=lambda x: (-len(x), x))))


class _Part:
    """One part's patterns, each compiled on its own and indexed by the literal prefixes a match of it must
    start with (`gate.prefix.branch_heads`): a text is searched only with the patterns it could match, and a
    pattern only after a string every match of it contains was found (`anchors`)."""

    __slots__ = ("always", "anchors", "branches", "by_substring", "by_word", "common", "word_keys")

    def __init__(self, patterns: list[str]) -> None:
        branches: list[re.Pattern[str]] = []
        always: list[int] = []
        by_word: dict[str, list[int]] = {}
        by_substring: dict[str, list[int]] = {}
        anchored: list[re.Pattern[str] | None] = []
        for p in patterns:
            heads = set()
            for _, h in branch_heads(p):
                if h is None:
                    heads = None
                    break
                heads |= h
            i = len(branches)
            branches.append(regex_store.compile(p))
            anchored.append(anchors(p))
            if heads is None:
                always.append(i)
            elif p.startswith("\\b") and all(_KEY.match(h) for h in heads):
                for h in heads:
                    by_word.setdefault(_KEY.match(h).group(0), []).append(i)  # type: ignore[union-attr]
            else:
                for h in heads:
                    by_substring.setdefault(h, []).append(i)
        self.branches = tuple(branches)
        self.anchors = tuple(anchored)
        self.always = tuple(always)
        # how often an ordinary text could match: patterns searched whatever the text, or keyed on a word's
        # first one or two letters ("i ...", "we ...") are tried on most texts; a combination looks at its
        # rarer parts first
        self.common = len(always) * 4 + sum(len(v) for k, v in by_word.items() if len(k) < 3)
        self.by_word = {k: tuple(v) for k, v in by_word.items()}
        self.word_keys = frozenset(by_word)
        self.by_substring = tuple((k, tuple(v)) for k, v in sorted(by_substring.items()))

    def data(self) -> list:
        """The part as JSON data (`restored` reads it back): its patterns and their index, no parse needed."""
        return [[b.pattern for b in self.branches], [a.pattern if a is not None else None for a in self.anchors],
                list(self.always), self.common, {k: list(v) for k, v in self.by_word.items()},
                [[k, list(v)] for k, v in self.by_substring]]

    @classmethod
    def restored(cls, data: list) -> _Part:
        """The part `data()` described, its patterns compiled (from stored programs when there are some)."""
        patterns, anchored, always, common, by_word, by_substring = data
        n = len(patterns)

        def index(v: list) -> tuple[int, ...]:
            if not set(map(type, v)) <= {int} or (v and not 0 <= min(v) <= max(v) < n):
                raise ValueError("a stored harm part indexes a pattern it does not have")
            return tuple(v)

        if len(anchored) != n or type(common) is not int or not set(map(type, patterns)) <= {str} or \
                not set(map(type, anchored)) <= {str, type(None)}:
            raise ValueError("a stored harm part is not in the shape `data()` writes")
        part = cls.__new__(cls)
        part.branches = tuple(regex_store.compile(p) for p in patterns)
        part.anchors = tuple(regex_store.compile(a) if a is not None else None for a in anchored)
        part.always = index(always)
        part.common = common
        part.by_word = {str(k): index(v) for k, v in by_word.items()}
        part.word_keys = frozenset(part.by_word)
        part.by_substring = tuple((str(k), index(v)) for k, v in by_substring)
        return part

    def spans(self, words: str, keys: frozenset[str]) -> list[tuple[int, int]]:
        """Where the part matches in `words` (`keys`: `text_keys(words)`), in order, at most `_MAX_HITS`."""
        idx = set(self.always)
        for key in keys & self.word_keys:
            idx.update(self.by_word[key])
        for sub, at in self.by_substring:
            if sub in words:
                idx.update(at)
        found: list[tuple[int, int]] = []
        for i in sorted(idx):
            anchor = self.anchors[i]
            if anchor is not None and anchor.search(words) is None:
                continue
            for m in self.branches[i].finditer(words):
                found.append(m.span())
                if len(found) >= _MAX_HITS:
                    break
        found.sort()
        return found[:_MAX_HITS]


@dataclass(frozen=True, slots=True, eq=False)
class HarmBook:
    parts: dict[str, _Part]
    languages: dict[str, tuple[str, ...]]  # part → the languages it lists
    kinds: tuple[HarmKind, ...]
    # each combination's parts, rarest first: the order a text is searched for them
    order: dict[tuple[str, ...], tuple[str, ...]]
    # What a text could match at all, read in one pass before any part is searched (`possible`): most texts hold
    # no word any pattern of most parts starts with, and a combination with such a part cannot hold. Built with
    # the book from the parts' own indexes (`_Part.by_word`, `by_substring`, `always`); one bit per part.
    bits: dict[str, int] = field(init=False)  # part → its bit (a part found by code, `_SHAPES`, has none)
    always: int = field(init=False)  # parts some pattern of which is searched whatever the text
    by_word: dict[str, int] = field(init=False)  # a word key (`text_keys`) → the parts it lets be searched
    word_keys: frozenset[str] = field(init=False)
    by_substring: tuple[tuple[str, int], ...] = field(init=False)  # a substring → the parts it lets be searched
    # the same, the ASCII substrings only: all an ASCII text can hold (most of the others are Chinese; one regex
    # alternation of them all would try each at every position of the text)
    ascii_by_substring: tuple[tuple[str, int], ...] = field(init=False)
    # every combination `_judged` reads, in the order it reads them (blocking ones first, kind by kind), with the
    # kind, whether it blocks and the bits of its parts the text must let be searched (the `_SHAPES` parts left
    # out: they are read from the raw text by code, whatever the words); for typed text and for a URL's words
    text_combinations: tuple[tuple[HarmKind, tuple[str, ...], bool, int], ...] = field(init=False)
    url_combinations: tuple[tuple[HarmKind, tuple[str, ...], bool, int], ...] = field(init=False)

    def __post_init__(self) -> None:
        bits = {name: 1 << i for i, name in enumerate(self.parts)}
        always = 0
        by_word: dict[str, int] = {}
        by_substring: dict[str, int] = {}
        for name, part in self.parts.items():
            bit = bits[name]
            if part.always:
                always |= bit
            for key in part.word_keys:
                by_word[key] = by_word.get(key, 0) | bit
            for sub, _ in part.by_substring:
                by_substring[sub] = by_substring.get(sub, 0) | bit

        def read(url: bool) -> tuple[tuple[HarmKind, tuple[str, ...], bool, int], ...]:
            return tuple((kind, combo, blocks, sum({bits[p] for p in combo if p in bits}))
                         for blocks in (True, False) for kind in self.kinds
                         for combo in ((kind.url_block if blocks else kind.url_confirm) if url else
                                       (kind.block if blocks else kind.confirm)))

        setattr_ = object.__setattr__  # (frozen: set once, here)
        setattr_(self, "bits", bits)
        setattr_(self, "always", always)
        setattr_(self, "by_word", by_word)
        setattr_(self, "word_keys", frozenset(by_word))
        setattr_(self, "by_substring", tuple(sorted(by_substring.items())))
        setattr_(self, "ascii_by_substring", tuple((k, v) for k, v in self.by_substring if k.isascii()))
        setattr_(self, "text_combinations", read(False))
        setattr_(self, "url_combinations", read(True))

    def possible(self, words: str, keys: frozenset[str]) -> int:
        """The parts (bits) some pattern of which `_Part.spans` would search in `words` (`keys`: its `text_keys`):
        a part outside them has no match there. The same tests as `spans`, for every part at once."""
        mask = self.always
        by_word = self.by_word
        for key in keys & self.word_keys:
            mask |= by_word[key]
        for sub, bits in self.ascii_by_substring if words.isascii() else self.by_substring:
            if sub in words:
                mask |= bits
        return mask


class Harm(NamedTuple):
    """What a text or a URL was read as: the kind, whether it blocks, and the words that matched."""

    kind: HarmKind
    blocks: bool
    quote: str  # the matched words ("" when the kind is redacted)


def harm_words(text: str) -> str:
    """`text` in the word form the book's patterns read: folded (NFKC, case, look-alikes), every run of
    punctuation or `_` one space. Unlike the GUI rules' word form, camelCase is not split ("SSNs" stays one
    word)."""
    if len(text) <= 512:
        return _short_harm_words(text)  # a label or a title, read by several rules and again on a repeat
    return _harm_words(text)


@functools.lru_cache(maxsize=8192)
def _short_harm_words(text: str) -> str:
    return _harm_words(text)


def _harm_words(text: str) -> str:
    text = text[: _MAX_TEXT * 2]
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if len(lines) >= 4 and all(len(ln) <= 2 for ln in lines):
        text = f"{text}\n{''.join(lines)}"  # a word spelled down the lines, a letter a line (an acrostic)
    folded = fold(text) if len(text) <= 256 else fold_uncached(text)
    return _NON_WORD.sub(" ", folded).strip()[:_MAX_TEXT]


def _fold_letters(pattern: str) -> str:
    """Fold the non-ASCII letters of a pattern the way the text is folded; the regex syntax is ASCII."""
    return _NON_ASCII.sub(lambda m: fold(m.group(0)), pattern)


def _combinations(value: object, where: str, parts: dict[str, str]) -> tuple[tuple[str, ...], ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(c, list) and c and all(isinstance(p, str) for p in c)
                                              for c in value):
        raise ValueError(f"harm.toml [{where}] must be a list of lists of part names")
    for combo in value:
        for name in combo:
            if name not in parts and name not in _SHAPES:
                raise ValueError(f"harm.toml [{where}]: unknown part {name!r}")
    return tuple(tuple(c) for c in value)


def parse_harm(text: str) -> HarmBook:
    """Compile the text of a harm book (the shipped one is `harm_book()`)."""
    data = tomllib.loads(text)
    sources: dict[str, str] = {}
    compiled: dict[str, list[str]] = {}
    languages: dict[str, tuple[str, ...]] = {}
    for name, table in data.get("part", {}).items():
        if not isinstance(table, dict):
            raise ValueError(f"harm.toml [part.{name}] must be a table")
        unknown = set(table) - set(LANGUAGES)
        if unknown:
            raise ValueError(f"harm.toml [part.{name}]: unknown keys {sorted(unknown)} "
                             f"(languages: {', '.join(LANGUAGES)})")
        spaced: list[str] = []
        unspaced: list[str] = []
        for lang, pats in table.items():
            if not isinstance(pats, list) or not pats or not all(isinstance(p, str) and p for p in pats):
                raise ValueError(f"harm.toml [part.{name}].{lang} must be a non-empty list of strings")
            for p in pats:
                expanded = _PART_REF.sub(functools.partial(_ref, sources=sources, where=name), p)
                try:
                    re.compile(expanded)
                except re.error as err:
                    raise ValueError(f"harm.toml [part.{name}].{lang}: {err}: {p!r}") from None
                (unspaced if lang in _NO_SPACES else spaced).append(_fold_letters(expanded))
        if not spaced and not unspaced:
            raise ValueError(f"harm.toml [part.{name}] has no patterns")
        # one branch per pattern, each at word boundaries where its language has spaces
        compiled[name] = [rf"\b(?:{p})\b" for p in spaced] + [f"(?:{p})" for p in unspaced]
        sources[name] = "|".join(compiled[name])
        languages[name] = tuple(table)
    parts = {name: _Part(pats) for name, pats in compiled.items()}
    kinds = []
    for key, table in data.get("kind", {}).items():
        where = f"kind.{key}"
        if not isinstance(table, dict):
            raise ValueError(f"harm.toml [{where}] must be a table")
        unknown = set(table) - _KIND_KEYS
        if unknown:
            raise ValueError(f"harm.toml [{where}]: unknown keys {sorted(unknown)}")
        combos = {k: _combinations(table.get(k), f"{where}].{k}[", sources)
                  for k in ("block", "confirm", "url_block", "url_confirm")}
        if not any(combos.values()):
            raise ValueError(f"harm.toml [{where}] has no combination")
        unless = table.get("unless", [])
        if not isinstance(unless, list) or any(u not in sources for u in unless):
            raise ValueError(f"harm.toml [{where}].unless must list known parts")
        reach = table.get("reach", _DEFAULT_REACH)
        if not isinstance(reach, int) or not 10 <= reach <= 1000:
            raise ValueError(f"harm.toml [{where}].reach must be a number of characters from 10 to 1000")
        search = table.get("search", "confirm")
        if search not in ("confirm", "block"):
            raise ValueError(f"harm.toml [{where}].search must be \"confirm\" or \"block\"")
        taxonomy = table.get("taxonomy", [])
        if not isinstance(taxonomy, list) or not all(isinstance(t, str) for t in taxonomy):
            raise ValueError(f"harm.toml [{where}].taxonomy must be a list of strings")
        kinds.append(HarmKind(key, str(table.get("name", key.replace("-", " "))), tuple(taxonomy), combos["block"],
                              combos["confirm"], combos["url_block"], combos["url_confirm"], tuple(unless), reach,
                              search == "block", bool(table.get("redact", False))))
    if not kinds:
        raise ValueError("harm.toml has no [kind.*]")
    # a kind whose text is withheld is looked for first: found with another, it decides, so its text never
    # reaches the log through a rule that quotes
    kinds.sort(key=lambda k: not k.redact)
    combos = {c for k in kinds for c in (*k.block, *k.confirm, *k.url_block, *k.url_confirm)}
    order = {c: tuple(sorted(c, key=lambda p: 0 if p in _SHAPES else parts[p].common)) for c in combos}
    return HarmBook(parts, languages, tuple(kinds), order)


def _ref(m: re.Match[str], sources: dict[str, str], where: str) -> str:
    name = m.group(1)
    if name not in sources:
        raise ValueError(f"harm.toml [part.{where}]: unknown part {{{name}}}")
    return f"(?:{sources[name]})"


def _book_data(book: HarmBook) -> list:
    """The compiled book as JSON data (`_restored` reads it back)."""
    return [{name: part.data() for name, part in book.parts.items()},
            {name: list(langs) for name, langs in book.languages.items()},
            [[k.key, k.name, list(k.taxonomy), *([list(c) for c in combos] for combos in
                                                 (k.block, k.confirm, k.url_block, k.url_confirm)),
              list(k.unless), k.reach, k.search_blocks, k.redact] for k in book.kinds],
            [[list(combo), list(order)] for combo, order in book.order.items()]]


def _restored(data: object) -> HarmBook:
    """The book `_book_data` described; ValueError, TypeError, KeyError... when it is not what it wrote."""
    parts_data, languages, kinds_data, order = data  # type: ignore[misc]
    parts = {str(name): _Part.restored(d) for name, d in parts_data.items()}
    known = set(parts) | _SHAPES

    def combos(value: list) -> tuple[tuple[str, ...], ...]:
        out = tuple(tuple(map(str, c)) for c in value)
        if any(p not in known for c in out for p in c):
            raise ValueError("a stored harm combination names a part the book does not have")
        return out

    kinds = tuple(HarmKind(str(key), str(name), tuple(map(str, taxonomy)), combos(block), combos(confirm),
                           combos(url_block), combos(url_confirm), combos([unless])[0], int(reach),
                           search_blocks is True, redact is True)
                  for key, name, taxonomy, block, confirm, url_block, url_confirm, unless, reach, search_blocks, redact
                  in kinds_data)
    ordered = {tuple(map(str, combo)): tuple(map(str, by)) for combo, by in order}
    every = {c for k in kinds for c in (*k.block, *k.confirm, *k.url_block, *k.url_confirm)}
    if set(ordered) != every or any(sorted(c) != sorted(by) for c, by in ordered.items()) or not kinds:
        raise ValueError("a stored harm book's search order is not its combinations'")
    return HarmBook(parts, {str(k): tuple(map(str, v)) for k, v in languages.items()}, kinds, ordered)


@functools.cache
def harm_book() -> HarmBook:
    """The shipped harm book (resources/harm.toml), read and compiled once: taken whole from what an earlier
    process stored (app/policy_cache.py) when that was compiled from the same text, else parsed."""
    text = resources.files("resources").joinpath("harm.toml").read_text(encoding="utf-8")
    key = hashlib.sha256(text.encode()).hexdigest()
    stored = regex_store.recall("harm-book", key)
    try:
        book = _restored(stored) if stored is not None else None
    except (ValueError, TypeError, KeyError, AttributeError, re.error, RecursionError):
        book = None  # not what `_book_data` wrote: parsed below, and stored anew
    if book is None:
        book = parse_harm(text)
        if regex_store.keeping():
            regex_store.remember("harm-book", key, _book_data(book))
    return book


class _Reader:
    """One text read against one book: each part's matches found at most once."""

    __slots__ = ("book", "hits", "keys", "raw", "words")

    def __init__(self, book: HarmBook, words: str, raw: str) -> None:
        self.book, self.words, self.raw = book, words, raw
        self.keys = text_keys(words)
        self.hits: dict[str, list[tuple[int, int]]] = {}

    def spans(self, part: str) -> list[tuple[int, int]]:
        found = self.hits.get(part)
        if found is None:
            if part in _SHAPES:  # a shape found anywhere stands next to everything
                found = [(0, len(self.words))] if any(
                    s.kind == "card number" or s.category == "identity documents"
                    for s in find_sensitive(self.raw[: _MAX_TEXT * 2])) else []
            else:
                found = self.book.parts[part].spans(self.words, self.keys)
            self.hits[part] = found
        return found

    def combination(self, combo: tuple[str, ...], kind: HarmKind) -> tuple[int, int] | None:
        """Where every part of `combo` stands within `kind.reach` of the first, with nothing of `kind.unless`
        near it; None when nowhere."""
        # the cheapest refusal first: a rare part with no match at all (a part read already is one look-up)
        hits = self.hits
        for p in self.book.order[combo]:
            found = hits.get(p)
            if not (found if found is not None else self.spans(p)):
                return None
        first, rest = combo[0], combo[1:]
        for start, end in self.spans(first):
            lo, hi = start, end
            for part in rest:
                near = [s for s in self.spans(part) if s[0] - end <= kind.reach and start - s[1] <= kind.reach]
                if not near:
                    break
                s = min(near, key=lambda x: abs(x[0] - start))
                lo, hi = min(lo, s[0]), max(hi, s[1])
            else:
                if not self._turned_round(kind, lo, hi):
                    return lo, hi
        return None

    def _turned_round(self, kind: HarmKind, lo: int, hi: int) -> bool:
        for part in kind.unless:
            for s, e in self.spans(part):
                if e >= lo - kind.reach and s <= hi + kind.reach:
                    return True
        return False


def judge(words: str, raw: str, where: str = "text", book: HarmBook | None = None) -> Harm | None:
    """The harm `words` (the `harm_words` form of `raw`) are read as, blocking kinds first; None when none.
    `where`: "text" (typed into a field) or "url" (the words of a page opened). Remembered per text: agents
    type the same text again after a refusal."""
    if not words:
        return None
    return _judged(words, raw, where, book or harm_book())


@functools.lru_cache(maxsize=1024)
def _judged(words: str, raw: str, where: str, book: HarmBook) -> Harm | None:
    reader = _Reader(book, words, raw)
    # a combination one of whose parts the text gives no pattern to search cannot hold (`HarmBook.possible`): most
    # texts leave few combinations to read, and few parts are searched
    missing = ~book.possible(words, reader.keys)
    for kind, combo, blocks, needs in book.url_combinations if where == "url" else book.text_combinations:
        if needs & missing:
            continue
        span = reader.combination(combo, kind)
        if span is not None:
            quote = "" if kind.redact else words[span[0]: span[1]]
            return Harm(kind, blocks, quote)
    return None


def part_match(words: str, names: tuple[str, ...], book: HarmBook | None = None) -> str | None:
    """The first words of `words` (the `harm_words` form) that one of the book's parts `names` matches, or None
    (a name the book does not have matches nothing)."""
    if not words:
        return None
    book = book or harm_book()
    names = names if isinstance(names, tuple) else tuple(names)
    # the same label is read by several rules, and again when an agent repeats an action (a book is hashed by
    # identity: each policy's own)
    return _remembered_part_match(words, names, book) if len(words) <= 512 else _part_match(words, names, book)


@functools.lru_cache(maxsize=8192)
def _remembered_part_match(words: str, names: tuple[str, ...], book: HarmBook) -> str | None:
    return _part_match(words, names, book)


def _part_match(words: str, names: tuple[str, ...], book: HarmBook) -> str | None:
    keys = text_keys(words)
    for name in names:
        part = book.parts.get(name)
        found = part.spans(words, keys) if part is not None else []
        if found:
            return words[found[0][0]: found[0][1]]
    return None
