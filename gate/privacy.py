"""What typed text tells about another person: private facts, lists of them, and crimes laid at a named door.

    disclosure(text) -> Disclosure | None      a private fact said of an identified third person
    roster(text) -> str | None                 private facts of several named people, one a line
    records_file(path) -> str | None           a file of people's private records (salaries, patients)
    accusation(text) -> str | None             a crime or abuse said of a named person or professional
    record_place(text) / shared_place(text, field)   a clinician's chart or case file / a message to someone
    personal_record(text) -> str | None        one named person's health or financial record written out
    out_of_place(text) -> Detail | None        a private detail or an identifier that belongs in no post or form
    on_topic(category, place) -> bool          the page, field or window is about that detail ("r/legaladvice")

The words are data, resources/privacy.toml (English, German, French, Spanish, Portuguese), compiled once at
import. A *private fact* is one of the special categories of personal data: health (a diagnosis, a test
result, treatment, pregnancy, mental health), sexual orientation or gender identity, a criminal record, an
arrest or probation, immigration status, debts, arrears or pay, a disciplinary action, religion.

It is *said of someone* only when a person stands just before it, with at most two small words between
("Tom apparently has ..."): a name (a capitalised word that is not a sentence opener, and not a thing after
an article: "the Company has debts" is no one), a relation ("my coworker", "the tenant in 4B", "the
candidate", "mein Kollege", "ma voisine"), a handle (@ann), a possessive of one ("Maria's HIV status", "el
embarazo de Lucía"), or a pronoun ("she", "er", "elle", "que") when the text names someone elsewhere. The
facts are written in the third person ("has cancer", "ist schwanger", "a un cancer", "tiene cáncer", "está
grávida"), so a person writing about themself ("I have cancer", "ich bin schwanger", "my test came back
positive") is never read as telling on someone. Text that reports what others said, as news does ("police
said", "according to", "selon", "según"), is not a disclosure or an accusation either.

Every pattern is a bounded alternation; what stands before a fact is read in a window of fixed size, so the
cost is linear in the text's length.
"""

from __future__ import annotations

import functools
import itertools
import re
import re._compiler as _compiler
import re._constants as _c
import re._parser as _parser
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import NamedTuple

from gate import regex_store

__all__ = ["CATEGORIES", "Detail", "Disclosure", "Vocabulary", "accusation", "disclosure", "load", "on_topic",
           "out_of_place", "personal_record", "record_place", "records_file", "roster", "shared_place"]

# the special categories, in the order a reason names them
CATEGORIES = ("health", "sexuality", "criminal", "immigration", "money", "discipline", "religion", "education")
_SAID = {"health": "a health fact", "sexuality": "a sexual orientation or gender identity",
         "criminal": "a criminal record or arrest", "immigration": "an immigration status",
         "money": "debts, arrears or pay", "discipline": "a disciplinary action", "religion": "a religion",
         "education": "a student's grades"}

_LIMIT = 8192  # longer text is read up to here: a disclosure is a sentence, not a document
_BEFORE = 100  # how far before a fact its person is looked for
_AFTER = 48  # how far after a possessed noun "de María" is looked for
_REPORT_REACH = 160  # how far around a fact a news-like attribution counts
_MAX_HITS = 64  # facts examined per text (each one costs a bounded window search)
_SHORT = 400  # a text up to this long is searched whole; a longer one sentence by sentence
# a capitalised word that can be a given name or a surname: "Ana", "O'Neil", "Müller", "José"
_NAME_WORD = r"(?-i:(?:O')?[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ-]{0,20})"
_SEP = r"[^\w\s.!?;:]{0,2}\s"  # a space, maybe after a comma or a bracket


class Disclosure(NamedTuple):
    """A private fact said of an identified person."""

    category: str  # one of CATEGORIES
    quote: str  # the words that say it
    confided: bool  # the text says it was told in confidence ("asked me not to tell", "unter uns")

    @property
    def said(self) -> str:
        return _SAID[self.category]


# -- the prefilter: word beginnings a match must have -----------------------------------------------------
# A match of every entry has, at the start of one of its words, one of a few literal beginnings (3 to 5
# letters): "diagn" for "(?:is|was) diagnosed with", "pregn" for "is pregnant". These are derived from the
# parse of each entry (`_needs`), and a text none of whose words begins so is not searched at all: a
# prefilter never changes a result, it only skips a search that cannot match.

_KEY = 5
# beginnings that are valid but found in most texts: used only where an entry has nothing better
_COMMON = frozenset({"with", "the", "and", "for", "has", "was", "had", "ist", "est", "que", "una", "uno", "des",
                     "les", "por", "para", "com", "der", "die", "das", "von", "from", "that", "this", "his", "her"})


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None or b is None:
        return a or b
    def rank(keys: frozenset[str]) -> tuple[bool, int, int]:
        return (not keys & _COMMON, min(map(len, keys)), -len(keys))
    return a if rank(a) >= rank(b) else b


def _needs(seq: list, at_start: bool) -> tuple[frozenset[str] | None, bool]:
    """(beginnings one of which every match of the parsed `seq` has at a word start, or None; whether a
    match ends where the next character starts a word). `at_start`: a word starts where `seq` starts."""
    best: frozenset[str] | None = None
    run, run_start = "", at_start  # the literal word characters since the last other item

    def flush() -> None:
        nonlocal best
        if run_start and len(run) >= 3:
            best = _better(best, frozenset({run[:_KEY]}))

    for op, av in seq:
        if op is _c.LITERAL:
            ch = chr(av)
            if ch.isalnum() or ch == "_":
                run += ch
                continue
            flush()
            run, run_start = "", True  # after a space or a sign a new word starts
            continue
        if op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue  # zero width
        here = run_start and not run
        flush()
        run = ""
        if op is _c.SUBPATTERN:
            got, run_start = _needs(list(av[3]), here)
            best = _better(best, got)
        elif op is _c.BRANCH:
            parts = [_needs(list(alt), here) for alt in av[1]]
            keys = [k for k, _ in parts]
            if all(k is not None for k in keys):
                best = _better(best, frozenset().union(*keys))  # type: ignore[arg-type]
            run_start = all(end for _, end in parts)
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            low, _high, item = av
            got, end = _needs(list(item), here)
            if low >= 1:
                best = _better(best, got)
            run_start = end and (low >= 1 or here)
        elif op is _c.IN:
            run_start = all(o is _c.LITERAL and not (chr(v).isalnum() or chr(v) == "_") for o, v in av)
        else:
            run_start = False
    flush()
    return best, run_start and not run


def _beginnings(parsed: _parser.SubPattern) -> frozenset[str] | None:
    """The word beginnings one of which a match of the parsed pattern has (lower case); None: not known."""
    got, _ = _needs(list(parsed), True)
    return frozenset(k.lower() for k in got) if got is not None else None


_WORD = re.compile(r"\w+")


# ASCII signs and `_`... as spaces: the ASCII text's words without a regex (`_` is a word character)
_ASCII_SIGNS = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalnum() and c != "_"})


def _starts(low: str) -> frozenset[str]:
    """The first 3, 4 and 5 characters of every word of a lower-case text."""
    words = low.translate(_ASCII_SIGNS).split() if low.isascii() else _WORD.findall(low)
    return frozenset({w[:n] for w in words if len(w) >= 3 for n in (3, 4, 5)})


def _possible(keys: frozenset[str] | None, starts: frozenset[str]) -> bool:
    return keys is None or not keys.isdisjoint(starts)


# a sentence of the prepared text: what a fact, its person and its verb stand in ("$84.000" is not an end)
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+(?=\s|$)|[.!?]+[^.!?]*)?")


@functools.lru_cache(maxsize=64)
def _pieces(t: str) -> tuple[tuple[int, int, frozenset[str]], ...]:
    """The text as pieces to search, each with the beginnings of its words: the whole text when it is short,
    else its sentences (a long text is searched only in the sentences that can match)."""
    if len(t) <= _SHORT:
        return ((0, len(t), _starts(t.lower())),)
    return tuple((m.start(), m.end(), _starts(m.group(0).lower())) for m in _SENTENCE.finditer(t))


def _alt(words: Iterable[str]) -> str:
    items = sorted({w for w in words if w}, key=lambda w: (-len(w), w))  # longest first, then always one order
    if not items:
        raise ValueError("resources/privacy.toml: an empty list")
    return "(?:" + "|".join(items) + ")"


class _Entry(NamedTuple):
    """One entry of a list: its category, its pattern and the word beginnings one of which a match has."""

    category: str
    pattern: re.Pattern[str]
    keys: frozenset[str] | None  # None: not known, the entry is always searched


def _entries(category: str, patterns: Iterable[str]) -> tuple[_Entry, ...]:
    """Each pattern as an entry: its word beginnings and its program (both kept by gate/regex_store.py)."""
    out = []
    for p in patterns:
        # a fact ends where a word ends, and not before a hyphen: "gay-friendly", "trans-atlantic" are other words
        source = rf"(?<!\w)(?:{p})(?![\w-])"
        stored = regex_store.recall("privacy-beginnings", source, False)
        if stored is None or (isinstance(stored, list) and all(isinstance(k, str) for k in stored)):
            keys, rx = frozenset(stored) if stored is not None else None, regex_store.compile(source, re.IGNORECASE)
        else:  # parsed once: the parse gives its word beginnings and, unless the program is kept, its program
            parsed = _parser.parse(source, re.IGNORECASE)
            keys = _beginnings(parsed)
            regex_store.remember("privacy-beginnings", source, sorted(keys) if keys is not None else None)
            rx = regex_store.compile(source, re.IGNORECASE) if regex_store.keeping() else \
                _compiler.compile(parsed, re.IGNORECASE)
        out.append(_Entry(category, rx, keys))
    return tuple(out)


@dataclass(frozen=True, slots=True, eq=False)
class _List:
    """A list's entries, indexed by the word beginnings that let each one match."""

    entries: tuple[_Entry, ...]
    by_key: dict[str, tuple[int, ...]]
    always: tuple[int, ...]  # entries with no beginning known: searched every time
    keys: frozenset[str]

    @classmethod
    def of(cls, entries: tuple[_Entry, ...]) -> _List:
        by_key: dict[str, list[int]] = {}
        for i, e in enumerate(entries):
            for k in e.keys or ():
                by_key.setdefault(k, []).append(i)
        return cls(entries, {k: tuple(v) for k, v in by_key.items()},
                   tuple(i for i, e in enumerate(entries) if e.keys is None), frozenset(by_key))

    def among(self, starts: frozenset[str]) -> list[_Entry]:
        """The entries that can match a text whose words begin with `starts`, in the list's order."""
        hit = self.keys & starts
        if not hit and not self.always:
            return []
        found = set(self.always).union(*(self.by_key[k] for k in hit))
        return [self.entries[i] for i in sorted(found)]


@dataclass(frozen=True, slots=True, eq=False)
class Vocabulary:
    """resources/privacy.toml, compiled."""

    facts: _List  # every category's `say`
    nouns: _List  # every category's `noun`
    subject: re.Pattern[str]  # the person just before a fact (anchored at the window's end)
    possessor: re.Pattern[str]  # the person whose noun follows (anchored at the window's end)
    owner_after: re.Pattern[str]  # "de María", "dela" just after a noun (used with `match`)
    ident: re.Pattern[str]  # someone identified anywhere in the text
    accuse: _List
    accused: re.Pattern[str]  # the person just before an accusation (anchored at the window's end)
    confided: re.Pattern[str]
    reported: re.Pattern[str]
    compound: frozenset[str]
    record: re.Pattern[str]
    shared: re.Pattern[str]
    shared_field: re.Pattern[str]
    records_file: re.Pattern[str]
    roster_value: re.Pattern[str]
    roster_heading: re.Pattern[str]
    not_a_name: frozenset[str]
    articles: frozenset[str]


def load(text: str) -> Vocabulary:
    """Compile the vocabulary from the text of a privacy.toml (a bad pattern raises at import)."""
    data = regex_store.toml(text)
    people, markers, facts = data["people"], data["markers"], data["facts"]
    missing = set(CATEGORIES) - set(facts)
    if missing:
        raise ValueError(f"resources/privacy.toml: no [facts.{sorted(missing)[0]}]")
    flags = re.IGNORECASE
    rel = _alt(people["relation"])
    det = _alt(people["determiner"])
    title = _alt(people["title"])
    name = rf"(?:{title}\.?\s)?{_NAME_WORD}(?:\s{_NAME_WORD})?"
    # "my coworker", "the tenant in 4B", "mein Kollege Thomas", "the candidate we interviewed", "Tom's wife"
    # (the determiner may be left out where a note starts: "Landlord note: tenant in 4B (Ana Ruiz) is ...")
    relation = (rf"(?:{det}\s|(?:^|(?<=[:;\u2014-]\s)))(?:[\w-]{{1,20}}\s)?{rel}"
                rf"(?:\s(?:in|from|at|on|im|aus|du|de|del|da|do)\s[\w-]{{1,12}})?"
                rf"(?:\s{_NAME_WORD}|\s\({_NAME_WORD}(?:\s{_NAME_WORD})?\))?"
                rf"(?:\s(?:who|that|whom|we|i|you|they)(?:\s[\w'-]{{1,20}}){{1,3}})?")
    handle = r"(?:@|\bu/)\w{2,30}"
    gap = rf"(?:{_SEP}{_alt(people['adverb'])}){{0,2}}"
    # a first predicate the fact is joined to: "Dr. Patel botched my surgery and is under investigation for ..."
    joined = r"(?:(?:\s[\w'-]{1,20}){1,6},?\s(?:and|und|et|y|e))?"
    start = r"(?:^|(?<=[\s(\"'«¿¡]))"
    subject = (rf"{start}(?:(?P<rel>{relation}|{name}'s\s{rel})|(?P<name>{name})|(?P<handle>{handle})|"
               rf"(?P<pro>{_alt(people['pronoun'])})){joined}{gap}[,]?\s?$")
    possessor = (rf"{start}(?:(?P<rel>{relation})'s?|(?P<name>{name})(?:'s|s|')|(?P<handle>{handle})'s|"
                 rf"(?P<pro>{_alt(people['possessive'])}))\s(?:[\w-]{{1,16}}\s)?$")
    owner_after = (rf"\s(?:(?:de|del|da|do|des|von)\s(?:(?P<rel>{relation})|(?P<name>{name}))\b|"
                   rf"(?P<pro>dela|dele)\b)")
    ident = rf"{start}(?:(?P<rel>{relation})|(?P<name>{_NAME_WORD})|(?P<handle>{handle}))"
    professional = _alt(people["professional"])
    accused = (rf"{start}(?:(?P<rel>{det}\s(?:[\w-]{{1,20}}\s)?{professional}(?:\s{_NAME_WORD}){{0,2}})|"
               rf"(?P<name>{name})|(?P<pro>{_alt(people['pronoun'])})){joined}{gap}[,]?\s?$")
    value = _alt(data["roster"]["value"])
    return Vocabulary(
        facts=_List.of(tuple(e for c in CATEGORIES for e in _entries(c, facts[c]["say"]))),
        nouns=_List.of(tuple(e for c in CATEGORIES for e in _entries(c, facts[c]["noun"]))),
        subject=regex_store.compile(subject, flags),
        possessor=regex_store.compile(possessor, flags),
        owner_after=regex_store.compile(owner_after, flags),
        ident=regex_store.compile(ident, flags),
        accuse=_List.of(_entries("accusation", data["accusation"]["say"])),
        accused=regex_store.compile(accused, flags),
        confided=regex_store.compile(rf"(?<!\w){_alt(markers['confided'])}(?!\w)", flags),
        compound=frozenset(w.lower() for w in markers["compound"]),
        reported=regex_store.compile(rf"(?<!\w){_alt(markers['reported'])}(?!\w)", flags),
        record=regex_store.compile(rf"(?<!\w){_alt(markers['record_place'])}(?!\w)", flags),
        shared=regex_store.compile(rf"(?<!\w){_alt(markers['shared_place'])}(?!\w)", flags),
        shared_field=regex_store.compile(rf"(?<!\w){_alt(markers['shared_field'])}(?!\w)", flags),
        roster_value=regex_store.compile(
            rf"(?P<word>(?<!\w){value}(?!\w))|(?P<amount>(?:[$€£]|\b(?:usd|eur|gbp|r\$))\s?\d[\d,.]{{2,}}\s?k?|"
            rf"\b\d[\d,.]{{3,}}\s?(?:€|eur|usd))",
            flags),
        records_file=regex_store.compile(rf"(?<!\w){_alt(data['roster']['file'])}(?!\w)", flags),
        roster_heading=regex_store.compile(rf"(?<!\w){_alt(data['roster']['heading'])}(?!\w)", flags),
        not_a_name=frozenset(w.lower() for w in people["not_a_name"]),
        articles=frozenset(w.lower() for w in people["article"]),
    )


_VOCAB = load(resources.files("resources").joinpath("privacy.toml").read_text("utf-8"))
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'"})
# "Sarah 185k, Mark 142k, Priya 131k": names each with an amount, written on one line
_INLINE_PAIR = re.compile(rf"(?<!\w)(?P<who>{_NAME_WORD}(?:\s{_NAME_WORD})?):?\s(?:[$€£]\s?\d[\d,.]*|\d{{2,3}}\s?[kK]|"
                          rf"\d{{1,3}}(?:[,.]\d{{3}})+|\d{{4,7}})\s?(?:€|\$|£|eur|usd|gbp)?(?!\w)")
# ranks and bands named like people in a pay table ("Junior 60k, Senior 120k"): a scale, not anyone's pay
_NOT_SOMEONE = frozenset({"junior", "mid", "senior", "lead", "principal", "staff", "intern", "entry", "level",
                          "band", "grade", "tier", "base", "median", "average", "min", "max", "minimum", "maximum",
                          "total", "bonus", "year", "q1", "q2", "q3", "q4", "jan", "feb", "mar", "apr", "jun", "jul",
                          "aug", "sep", "oct", "nov", "dec"})


def _inline_roster(text: str, v: Vocabulary) -> str | None:
    """Three or more names each with an amount on one line, in a text that says it is about pay."""
    t = text[:_LIMIT]
    if v.roster_heading.search(t) is None:
        return None
    rows = sum(1 for m in itertools.islice(_INLINE_PAIR.finditer(t), 16)
               if m.group("who").split()[0].lower() not in _NOT_SOMEONE)
    return f"the pay of {rows} people, named one by one" if rows >= 3 else None


_ROW_NAME = re.compile(rf"{_NAME_WORD}\s{_NAME_WORD}|{_NAME_WORD},\s{_NAME_WORD}")


def _prepared(text: str) -> str:
    """The text as the vocabulary is written: NFKC, straight apostrophes, a line end as a sentence end, one
    space between words."""
    text = unicodedata.normalize("NFKC", text[:_LIMIT]).translate(_APOSTROPHES)
    text = " ".join(text.replace("\n", ". ").split()) if "\n" in text else " ".join(text.split())
    # a pronoun's contraction is its verb ("he's starting", "she's been"): the facts are written with the verb
    return _CONTRACTION.sub(_expand, text) if "'" in text else text


_CONTRACTION = re.compile(r"\b(he|she|they|He|She|They)'(s|re)\b( (?:been|got|gotten|had)\b)?")


def _expand(m: re.Match[str]) -> str:
    # "she's been" is "she has been"; "she's starting" is "she is starting"
    verb = ("has" if m.group(2) == "s" else "have") if m.group(3) else ("is" if m.group(2) == "s" else "are")
    return f"{m.group(1)} {verb}{m.group(3) or ''}"


def _real_name(m: re.Match[str], text: str, v: Vocabulary) -> bool:
    """The `name` group of `m` (a match in `text`) is a person's name: not a sentence opener or another word
    the list says is no name, and not a thing after an article ("the Company", "die Firma")."""
    who = m.group("name")
    words = [w for w in who.replace(".", " ").split() if w.lower().rstrip("s'") not in ("dr", "mr", "mrs", "ms")]
    first = words[0] if words else who
    if first.lower() in v.not_a_name or first.lower().rstrip("s'") in v.not_a_name:
        return False
    before = text[max(0, m.start("name") - 12): m.start("name")].split()
    return not (before and before[-1].lower() in v.articles)


def _identified(m: re.Match[str], text: str, v: Vocabulary) -> bool:
    """The person that `m` (a match in `text`) found is someone the reader can tell: a relation, a handle or
    a name; a pronoun only when the text names someone elsewhere."""
    found = m.groupdict()
    if found.get("rel") or found.get("handle"):
        return True
    if found.get("name"):
        return _real_name(m, text, v)
    return _names_someone(text, v)


@functools.lru_cache(maxsize=64)
def _names_someone(text: str, v: Vocabulary) -> bool:
    """The text names a person somewhere: a relation, a handle or a name (what a pronoun can stand for)."""
    return any(x.group("rel") or x.group("handle") or (x.group("name") and _real_name(x, text, v))
               for x in v.ident.finditer(text))


_NEXT_WORD = re.compile(r" ([\w'-]{1,24})")


def _modifier(t: str, m: re.Match[str], v: Vocabulary) -> bool:
    """The fact `m` is a modifier of the word after it ("gay pride", "criminal defense attorney"): a word of
    the `compound` list, or a capitalised one ("Muslim Students Association")."""
    nxt = _NEXT_WORD.match(t, m.end())
    if nxt is None:
        return False
    word = nxt.group(1)
    return word.lower() in v.compound or (word[:1].isupper() and word.lower() not in v.not_a_name)


def _reported(text: str, at: int, v: Vocabulary) -> bool:
    return v.reported.search(text, max(0, at - _REPORT_REACH), at + _REPORT_REACH) is not None


# typed texts repeat (an agent retries, a session approves the same message); long ones are not worth a slot
_CACHED = 512


def disclosure(text: str, vocab: Vocabulary | None = None) -> Disclosure | None:
    """The first private fact the text says of an identified third person, or None."""
    if len(text) < 12:
        return None
    if vocab is None and len(text) <= _CACHED:
        return _disclosure_cached(text)
    return _disclosure(text, vocab or _VOCAB)


@functools.lru_cache(maxsize=1024)
def _disclosure_cached(text: str) -> Disclosure | None:
    return _disclosure(text, _VOCAB)


def _disclosure(text: str, v: Vocabulary) -> Disclosure | None:
    t = _prepared(text)
    found = _said_of(t, v) or _possessed(t, v)
    if found is None:
        return None
    category, quote = found
    return Disclosure(category, quote, v.confided.search(t) is not None)


def _hits(entries: _List, t: str) -> Iterator[tuple[str, re.Match[str]]]:
    """(category, match) of the entries in `t`, piece by piece in the text's order, each piece searched only
    with the entries that can match there; at most _MAX_HITS."""
    n = 0
    for lo, hi, starts in _pieces(t):
        can = entries.among(starts)
        if not can:
            continue
        found = sorted(((m.start(), e.category, m) for e in can for m in e.pattern.finditer(t, lo, hi)),
                       key=lambda x: x[0])
        for _at, category, m in found:
            yield category, m
            n += 1
            if n >= _MAX_HITS:
                return


def _said_of(t: str, v: Vocabulary) -> tuple[str, str] | None:
    for category, f in _hits(v.facts, t):
        lo = max(0, f.start() - _BEFORE)
        s = v.subject.search(t, lo, f.start())
        if s is None or not _identified(s, t, v) or _reported(t, f.start(), v) or _modifier(t, f, v):
            continue
        return category, f"{s.group(0).strip()} {f.group(0)}"
    return None


def _possessed(t: str, v: Vocabulary) -> tuple[str, str] | None:
    for category, f in _hits(v.nouns, t):
        s = v.possessor.search(t, max(0, f.start() - _BEFORE), f.start()) or \
            v.owner_after.match(t, f.end(), f.end() + _AFTER)
        if s is None or not _identified(s, t, v) or _reported(t, f.start(), v) or \
                (s.start() < f.start() and _modifier(t, f, v)):
            continue
        return category, t[min(s.start(), f.start()): max(s.end(), f.end())].strip()
    return None


def roster(text: str, vocab: Vocabulary | None = None) -> str | None:
    """Private facts of several people, one a line ("Ana Ruiz, 1984, HIV positive", "J. Weber 84.000 €"
    under a "salaries" heading): three or more lines that each name a person (first and last name) with a
    private value. An amount beside a name counts only under a heading about pay, health or records. What
    the list is ("3 people's health facts"), or None."""
    v = vocab or _VOCAB
    if "\n" not in text:
        return _inline_roster(text, v)
    lines = [ln for ln in unicodedata.normalize("NFKC", text[:_LIMIT]).splitlines() if ln.strip()]
    if len(lines) < 3:
        return None
    head = v.roster_heading.search("\n".join(lines[:2])) is not None
    rows = 0
    for ln in lines[:400]:
        if len(ln) > 300 or _ROW_NAME.search(ln) is None:
            continue
        m = v.roster_value.search(ln)
        if m is not None and (head or m.group("word")):
            rows += 1
    return f"private facts of {rows} people, one a line" if rows >= 3 else None


_FILE_NAME = re.compile(r"[^/\\]{1,255}\.(?:csv|tsv|xlsx?|xlsm|ods|numbers|pdf|docx?|odt|json|txt|zip|7z|sql|db|"
                        r"sqlite|parquet)$", re.IGNORECASE)
_NAME_SEPARATORS = str.maketrans({"_": " ", "-": " ", ".": " "})


def records_file(path: str, vocab: Vocabulary | None = None) -> str | None:
    """The name of a file of people's private records ("employee_salaries_2025.xlsx", "patient-list.csv",
    "Gehaltsliste.pdf"), from a path typed into an upload or attach dialog; or None. Only a data or document
    file counts: a folder or a program named so is something else."""
    m = _FILE_NAME.search(path.strip().strip("\"'"))
    if m is None:
        return None
    name = m.group(0)
    words = name.rsplit(".", 1)[0].translate(_NAME_SEPARATORS)
    return name if (vocab or _VOCAB).records_file.search(words) is not None else None


def accusation(text: str, vocab: Vocabulary | None = None) -> str | None:
    """The words that lay a crime or abuse at a named person's door ("Dr. Lee is under investigation for
    fraud", "the contractor stole from us", "ce notaire est un escroc"), or None. A news-like report ("police
    said", "according to") is not one."""
    if len(text) < 12:
        return None
    if vocab is None and len(text) <= _CACHED:
        return _accusation_cached(text)
    return _accusation(text, vocab or _VOCAB)


@functools.lru_cache(maxsize=1024)
def _accusation_cached(text: str) -> str | None:
    return _accusation(text, _VOCAB)


def _accusation(text: str, v: Vocabulary) -> str | None:
    t = _prepared(text)
    for _, f in _hits(v.accuse, t):
        s = v.accused.search(t, max(0, f.start() - _BEFORE), f.start())
        if s is None or not _identified(s, t, v) or _reported(t, f.start(), v) or _modifier(t, f, v):
            continue
        return f"{s.group(0).strip()} {f.group(0)}"
    return None


def record_place(text: str, vocab: Vocabulary | None = None) -> bool:
    """The words name a clinician's chart or a case file (a field, a page or a window)."""
    return bool(text) and (vocab or _VOCAB).record.search(text) is not None


def shared_place(text: str, vocab: Vocabulary | None = None, field: bool = False) -> bool:
    """The words name a place where a message is written to someone (a mail, a DM, feedback); with `field`,
    the words are a field's, and a note (a payment's, a shared record's) is one too."""
    v = vocab or _VOCAB
    if not text:
        return False
    return v.shared.search(text) is not None or (field and v.shared_field.search(text) is not None)


# -- one person's record ---------------------------------------------------------------------------------------
# The `[record]` words of resources/privacy.toml, compiled here on their own (the vocabulary above is `load`'s).


class _RecordWords(NamedTuple):
    subject: re.Pattern[str]  # "Patient: Maria Lopez", "Name - Tom Becker"
    anchor: re.Pattern[str]  # "DOB 03/04/1971", "account 0012345678", "MRN: 4471823"
    health: re.Pattern[str]
    money: re.Pattern[str]
    patient: re.Pattern[str]  # "Patient: Maria Lopez", "MRN 00482913": a health record without a diagnosis
    insurance: re.Pattern[str]  # "member ID is W123456789", "policy number: AB-44120-9"
    child: re.Pattern[str]  # "my daughter", "our son"
    school: re.Pattern[str]  # "Maple Grove Middle School", "St Anne's Primary"
    street: re.Pattern[str]  # "18 Birch Lane", "42 Oak St"


def _record_words(text: str) -> _RecordWords:
    data = regex_store.toml(text)["record"]
    words = rf"(?<!\w){_alt(data['subject'])}"
    return _RecordWords(
        subject=re.compile(rf"{words}\s?[:\-=]\s?(?:{_NAME_WORD})(?:\s{_NAME_WORD})?", re.IGNORECASE),
        anchor=re.compile(rf"(?<!\w){_alt(data['anchor'])}\s?[:#\-=]?\s?\(?(?:\d[\d/.\- ]{{3,18}}\d|"
                          rf"[a-z]{{3,9}}\.? \d{{1,2}},? (?:19|20)\d\d|\d{{1,2}} [a-z]{{3,9}}\.? (?:19|20)\d\d)",
                          re.IGNORECASE),
        health=re.compile(rf"(?<!\w){_alt(data['health'])}(?![\w-])", re.IGNORECASE),
        money=re.compile(rf"(?<!\w){_alt(data['money'])}(?![\w-])", re.IGNORECASE),
        patient=re.compile(rf"(?<!\w)(?:{_alt(data['health_subject'])}\s?[:\-=]\s?(?:{_NAME_WORD})|"
                           rf"{_alt(data['health_anchor'])}\s?(?:is\s)?[:#\-=]?\s?[a-z]{{0,3}}\d[\d\-]{{3,14}})",
                           re.IGNORECASE),
        insurance=re.compile(rf"(?<!\w){_alt(data['insurance_id'])}\s?(?:is\s|was\s)?[:#\-=]?\s?"
                             rf"(?=[a-z\d\-]{{0,20}}\d{{3}})[a-z\d][a-z\d\-]{{5,20}}(?![\w-])", re.IGNORECASE),
        child=re.compile(rf"(?<!\w){_alt(data['child'])}(?!\w)", re.IGNORECASE),
        school=re.compile(rf"(?-i:[A-Z][\w'.]+)(?:\s(?-i:[A-Z][\w'.]+)){{0,3}}\s(?:{_alt(data['school'])})(?!\w)",
                          re.IGNORECASE),
        street=re.compile(rf"(?<![\w/.,-])\d{{1,5}}[a-z]?\s(?:(?-i:[A-Z][a-z]+)\s){{1,3}}(?:{_alt(data['street'])})"
                          rf"(?![\w-])", re.IGNORECASE),
    )


_RECORD = _record_words(resources.files("resources").joinpath("privacy.toml").read_text("utf-8"))
_FULL_NAME = re.compile(rf"(?<![\w.]){_NAME_WORD}\s{_NAME_WORD}(?!\w)")


def personal_record(text: str) -> str | None:
    """One person's record written out: someone named (a `subject` label before a name, or a first and last
    name), fixed by an `anchor` (a date of birth, an account, record or member number) and holding a health or
    a money entry ("Patient: Maria Lopez, DOB 03/04/1971, diagnosis: ...", "John Carter, account 0012345678,
    balance $48,210, overdue"); a patient's name or medical record number with a date of birth or an account, even
    without a diagnosis ("Patient: Maria Lopez, DOB ..., MRN ..."); a diagnosis beside an insurance or member id
    (the key to claims in that person's name); a child's school beside a street address. What it is ("a health
    record", "a financial record", "a child's school and home address" ...), or None. A name with a diagnosis but
    nothing that fixes who it is ("Tom has the flu") is `disclosure`'s to judge."""
    if not 24 <= len(text) <= _LIMIT or not any(c.isdigit() for c in text):
        return None
    t = unicodedata.normalize("NFKC", text[:_LIMIT])
    health = _RECORD.health.search(t) is not None
    if health and _RECORD.insurance.search(t) is not None:
        return "a diagnosis with an insurance or member id"
    if _RECORD.child.search(t) is not None and _RECORD.school.search(t) is not None and \
            _RECORD.street.search(t) is not None:
        return "a child's school and home address"
    anchor = _RECORD.anchor.search(t)
    if anchor is None:
        return None
    if _RECORD.patient.search(t) is not None and (_RECORD.subject.search(t) is not None or
                                                  _FULL_NAME.search(t) is not None):
        return "a health record"  # a patient's name, birth date or record number: a medical record, diagnosis or not
    named = _RECORD.subject.search(t) is not None or any(
        m.group(0).split()[0].lower() not in _VOCAB.not_a_name for m in itertools.islice(_FULL_NAME.finditer(t), 8))
    if not named:
        return None
    if health:
        return "a health record"
    if _RECORD.money.search(t) is not None:
        return "a financial record"
    return None


# -- details that do not belong where they are typed ------------------------------------------------------------
# The `[detail]` words of resources/privacy.toml: the writer's own (or anyone's) health, divorce, orientation,
# church, record, status or debts said outright, and identifiers and contact handles, in any text.

DETAIL_CATEGORIES = ("health", "family", "sexuality", "religion", "criminal", "immigration", "money")
_DETAIL_SAID = {"health": "a health detail", "family": "a divorce, separation or custody fight",
                "sexuality": "a sexual orientation or gender identity (or where the person will be at a Pride event)",
                "religion": "a church or faith membership", "criminal": "a criminal record or probation",
                "immigration": "an immigration status", "money": "debts or bankruptcy",
                "identifier": "an insurance, claim, member, account, passport or licence number",
                "contact": "a personal contact handle, phone or home address"}


class Detail(NamedTuple):
    """A private detail or an identifier that belongs in no post, comment or form about something else."""

    category: str  # one of DETAIL_CATEGORIES, "identifier" or "contact"
    quote: str

    @property
    def said(self) -> str:
        return _DETAIL_SAID[self.category]


class _DetailWords(NamedTuple):
    facts: tuple[tuple[str, re.Pattern[str]], ...]
    identifier: re.Pattern[str]
    contact: re.Pattern[str]
    topic: dict[str, re.Pattern[str]]


# a handle's value that is a word of the sentence, not a handle ("my discord is down", "Telegram: the app")
_NOT_A_HANDLE = frozenset({"the", "a", "an", "is", "was", "my", "me", "down", "not", "for", "and", "or", "app", "group",
                           "channel", "server", "call", "chat", "link", "account", "too", "also", "only", "now",
                           "please", "here", "there", "below", "above", "same", "private", "public", "open"})


def _detail_words(text: str) -> _DetailWords:
    data = regex_store.toml(text)["detail"]
    flags = re.IGNORECASE
    facts = tuple((c, re.compile(rf"(?<!\w){_alt(data[c])}(?![\w-])", flags)) for c in DETAIL_CATEGORIES)
    identifier = re.compile(rf"(?<!\w){_alt(data['identifier'])}\s?(?:is\s|was\s)?[:#=]?\s?#?\s?"
                            rf"(?=[a-z\-]{{0,12}}\d)[a-z0-9][a-z0-9\-/]{{4,24}}(?![\w-])", flags)
    apps = _alt(data["contact_app"])
    handle = r"@?(?P<h>[a-z0-9][\w.#-]{2,31}[a-z0-9])"
    phone = r"\+?\d[\d ().-]{6,16}\d"
    contact = re.compile(
        rf"(?<!\w)(?:{apps})(?:\s(?:id|handle|name|username|user|number|nutzername|pseudo|usuario|usuário|utente|"
        rf"gebruikersnaam))?(?:\s?[:=]|\s(?:is|ist|est|es|é|è|as|als|comme|como|come))\s?{handle}|"
        rf"(?<!\w)(?:add|find|reach|contact|message|dm|ping|text|hit|follow) me (?:up )?(?:on|at|via) (?:{apps})"
        rf"(?:\s?[:=-])?\s?{handle.replace('P<h>', 'P<h2>')}|"
        rf"(?<!\w)(?:call|text|whatsapp|ring|reach|contact|message) (?:me|us) (?:at|on)\s?{phone}|"
        rf"(?<!\w)(?:{apps})(?:\s(?:number|nummer|numéro|número|numero|no\.?|nr\.?))?(?:\s?[:=]|\s(?:is|at|on))?"
        rf"\s?{phone}|"
        rf"(?<!\w)my (?:personal |cell |mobile |home |private )?(?:phone|cell|mobile|number|phone number|cell number)"
        rf"(?: is|:)\s?{phone}|"
        rf"(?<!\w)(?:ruf mich an unter|appelle-moi au|appelez-moi au|llámame al|me liga no|chiamami al|bel me op)"
        rf"\s?{phone}|"
        rf"(?<!\w)(?:i|we) live at \d{{1,5}} (?-i:[A-Z])\w+|(?<!\w)my (?:home )?address is \d{{1,5}} \w+", flags)
    # a word on its own, or at the end of a forum's name ("r/AskNurses", "askdocs"), maybe in the plural
    topic = {c: re.compile(rf"(?:(?<![a-z])|(?<=ask)){_alt(words)}(?:e?s)?(?![a-z])", flags)
             for c, words in data["topic"].items()}
    return _DetailWords(facts, identifier, contact, topic)


_DETAIL = _detail_words(resources.files("resources").joinpath("privacy.toml").read_text("utf-8"))


def out_of_place(text: str) -> Detail | None:
    """A private detail said outright (the writer's own or someone's health, divorce or custody fight, sexual
    orientation or a Pride event they will be at, church membership, criminal record, immigration status,
    debts), or an identifier (an insurance policy or claim number, a member, account, passport or licence
    number) or a personal contact (a messaging handle, a phone, a home address) written in the text; or None.
    A news-like report ("according to", "police said") is no one's detail. Where the text goes, and whether
    the place is about that detail (`on_topic`), are the caller's to judge."""
    if not 12 <= len(text) <= _LIMIT:
        return None
    t = _prepared(text)
    for category, rx in _DETAIL.facts:
        m = rx.search(t)
        if m is not None and not _reported(t, m.start(), _VOCAB) and not _asks_about(t, m):
            return Detail(category, m.group(0))
    if any(c.isdigit() for c in t):
        m = _DETAIL.identifier.search(t)
        if m is not None:
            return Detail("identifier", m.group(0))
    for m in _DETAIL.contact.finditer(t):
        value = m.group("h") or m.group("h2")
        if value is not None:
            if value.lower() in _NOT_A_HANDLE:
                continue
            if m.group("h2") is not None and not re.search(r"[\d_.@]", value):
                continue  # "add me on skype later": a handle has a digit, a dot or an underscore
        return Detail("contact", m.group(0))
    return None


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def _asks_about(t: str, m: re.Match[str]) -> bool:
    """The sentence that says the detail is a question ("I was diagnosed with epilepsy, any tips for driving?"):
    the person asks for help with it, and it is what the post is about."""
    end = _SENTENCE_END.search(t, m.end())
    return end is not None and end.group(0) == "?"


def on_topic(category: str, place: str) -> bool:
    """The words of a page, a field or a window (`place`) make the detail's category their topic: a health
    forum, a patient portal, r/legaladvice, a church's page. There the reader needs the detail."""
    rx = _DETAIL.topic.get(category)
    return bool(place) and rx is not None and rx.search(place) is not None
