r"""Prefilters for alternations of regexes over normalised text: skip a search that cannot match.

    Matcher(patterns)          one regex for a list, plus the prefilter (gate/rules/gui.py's lists)
    Matcher.possible(text, keys) / .search(text, keys)     keys: `text_keys(text)`
    BranchSearch(patterns).search(text, keys)   the alternation's match, searching only branches that can
    text_keys(text)            the first 1.._N characters of every `\w+` run of a text, and each run whole

From each top-level branch of a pattern the literal prefixes a match must start with are derived from
`re`'s parse (`_heads`): a branch at a word boundary can only match a text one of whose words starts with
such a prefix; another branch only a text containing the prefix. A prefilter never changes a result.
"""

from __future__ import annotations

import functools
import hashlib
import re
import re._constants as _c
import re._parser as _parser
from collections.abc import Iterable, Mapping

from gate import regex_store
from gate.patterns import _trie

__all__ = ["BranchSearch", "Guarded", "LiteralSets", "Matcher", "ascii_need", "branch_heads", "literals",
           "required_literals", "text_keys", "word_key"]


def _top_level(pattern: str) -> list[str]:
    """Split a regex on its top-level `|` (outside groups, classes and escapes)."""
    parts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "]":  # "[]...]": a literal ] first
                i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


# prefix length the prefilter keys on: a branch's literal start up to this long, against every word's first 1.._N
# characters (`text_keys` spells them out). Longer keys tell more branches apart: with 3, a label word "all" let
# every branch starting "allow" be searched
_N = 6


_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT)


def _rank(found: frozenset[str]) -> tuple[int, int]:
    return min(map(len, found)), -len(found)  # the longer its shortest string, then the fewer: the more telling


def _required(seq: list) -> list[frozenset[str]]:
    """Sets of literal strings, every match of the parsed sequence `seq` holding one string of each set: its
    literal runs, what each group or repeat (at least once) in it requires, and of an alternation the most
    telling set of each branch, together."""
    out: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in seq:
        if op is _c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            out.append(frozenset(("".join(run),)))
            run = []
        inner: list[frozenset[str]] | None = None
        if op is _c.SUBPATTERN:
            inner = _required(list(av[3]))
        elif op is _c.ATOMIC_GROUP:
            inner = _required(list(av))
        elif op in _REPEATS and av[0] >= 1:
            inner = _required(list(av[2]))
        elif op is _c.BRANCH:
            alternatives = [_required(list(alt)) for alt in av[1]]
            if all(alternatives):
                out.append(frozenset().union(*(max(a, key=lambda f: (*_rank(f), sorted(f))) for a in alternatives)))
        if inner:
            out.extend(inner)  # (the group is part of every match: all it requires, the match requires)
    if run:
        out.append(frozenset(("".join(run),)))
    return out


def required_literals(pattern: str, flags: int = 0) -> tuple[frozenset[str], ...]:
    """Sets of strings, each match of `pattern` (whatever its case flags) holding, in lower case, one string of
    every set in its lower case: a text missing every string of one set is not searched. The most telling set
    first. ASCII strings only, for ASCII texts (under IGNORECASE a non-ASCII letter may match an ASCII one: `ſ`
    matches `s`); empty when nothing of the kind is known."""
    key = f"{flags}:{pattern}"
    stored = regex_store.recall("required-literal-sets", key, False)
    if type(stored) is list and all(type(f) is list and f and all(type(x) is str and x for x in f) for f in stored):
        return tuple(frozenset(f) for f in stored)  # (what a `deskgate check` store kept: no parse)
    found = [f for f in _required(list(_parser.parse(pattern, flags))) if all(s.isascii() for s in f)]
    # (in one order in every process, ties by their strings: what is built from them is the same pattern, which a
    # stored compiled policy then holds)
    sets = {frozenset(s.lower() for s in f) for f in found}
    out = tuple(sorted(sets, key=lambda f: (*_rank(f), sorted(f)), reverse=True))
    regex_store.remember("required-literal-sets", key, [sorted(f) for f in out])
    return out


@functools.cache
def _ascii_twin(ch: str) -> bool:
    """Whether the non-ASCII character `ch`, written in a pattern, could match an ASCII character of a text (under
    IGNORECASE `ſ` matches `s`, `K` (Kelvin) `k`, `İ` `i`): asked of `re` itself, for every ASCII character."""
    rx = re.compile(re.escape(ch), re.IGNORECASE)
    return any(rx.fullmatch(chr(a)) for a in range(128))


def ascii_need(pattern: str, flags: int = 0) -> frozenset[str]:
    """The most telling set of strings (lower case) one of which every match of `pattern` in an ASCII text holds
    in its lower case; empty when none is known. As `required_literals`, except that a string with a character no
    ASCII text can match (`期間限定`, `dernière`) is left out of its set: in an ASCII text it never occurs, so an
    alternation with branches in other scripts still has a set (a set holding a character that may match an ASCII
    one, `ſ`, is not used)."""
    key = f"{flags}:{pattern}"
    stored = regex_store.recall("ascii-literal-set", key, False)
    if type(stored) is list and all(type(x) is str and x for x in stored):
        return frozenset(stored)  # (what a `deskgate check` store kept: no parse)
    best: frozenset[str] = frozenset()
    for found in _required(list(_parser.parse(pattern, flags))):
        kept: set[str] = set()
        for s in found:
            if s.isascii():
                kept.add(s.lower())
            elif any(not ch.isascii() and _ascii_twin(ch) for ch in s):
                break  # it might occur in an ASCII text, spelled otherwise: not a set to test by `in`
            # (else it cannot occur in an ASCII text: the matches there hold one of the others)
        else:
            if kept and (not best or (*_rank(frozenset(kept)), sorted(kept)) > (*_rank(best), sorted(best))):
                best = frozenset(kept)
    regex_store.remember("ascii-literal-set", key, sorted(best))
    return best


def literals(strings: Iterable[str]) -> re.Pattern[str] | None:
    """One regex for whether any of `strings` occurs (None for none): cheaper than an `in` per string. Written
    as a trie (`patterns._trie`): a plain alternation tries every string at every position (~9 µs for a hundred
    strings over a sentence), the trie a character or two (~1.5)."""
    found = sorted(set(strings))
    if not found:
        return None
    # the trie of thousands of strings is itself some 0.2 ms of Python: a `deskgate check` store keeps it, by a
    # digest of exactly these strings (the stored compiled program is then found by the trie's text)
    key = hashlib.sha256("\n".join(found).encode()).hexdigest()
    pattern = regex_store.recall("trie", key)
    if type(pattern) is not str:
        pattern = _trie(found)
        regex_store.remember("trie", key, pattern)
    return regex_store.compile(pattern)


class LiteralSets:
    """Which of several named sets of strings occur in a text, in one pass: `present(text)` is the names of the sets
    that have a string in `text`, what `literals(strings).search(text)` says set by set. Most texts (a command line
    and the cue words of the checks that read a whole line) hold none: one search then answers for every set. Else
    one trie of all the strings finds each place where one starts, the shortest there, and the longer strings that
    begin with it are compared at that place."""

    __slots__ = ("_any", "_at", "_longer")

    def __init__(self, sets: Mapping[str, Iterable[str]]) -> None:
        owners: dict[str, set[str]] = {}
        for name, strings in sets.items():
            for s in strings:
                owners.setdefault(s, set()).add(name)
        every = sorted(owners)
        self._any = literals(every)
        # (a zero-width look-ahead: every place where a string starts is found, overlapping ones too)
        self._at = regex_store.compile(f"(?=({_trie(every)}))") if every else None
        # each string, under the shortest string it begins with (the first such in sorted order), with its sets
        self._longer: dict[str, tuple[tuple[str, frozenset[str]], ...]] = {}
        for s in every:
            head = next(t for t in every if s.startswith(t))
            self._longer[head] = (*self._longer.get(head, ()), (s, frozenset(owners[s])))

    def present(self, text: str) -> frozenset[str]:
        first = self._any.search(text) if self._any is not None else None
        if first is None:
            return frozenset()
        found: set[str] = set()
        for m in self._at.finditer(text, first.start()):  # type: ignore[union-attr]
            at = m.start()
            for s, names in self._longer[m.group(1)]:
                if not names <= found and text.startswith(s, at):
                    found |= names
        return frozenset(found)


class Guarded:
    """A compiled regex whose `search` first asks whether an ASCII text holds one of the strings every match
    holds (`required_literals`, the most telling set): a text with none of them is not searched. The same
    answers; a long alternation at word boundaries tries every branch at every position (~15 µs over a
    command line), the literal test costs ~1. Any other attribute is the regex's own."""

    __slots__ = ("_need", "_rx")

    def __init__(self, rx: re.Pattern[str]) -> None:
        self._rx = rx
        need = ascii_need(rx.pattern, rx.flags)
        self._need = literals(need) if need else None

    def search(self, text: str, *pos: int) -> re.Match[str] | None:
        need = self._need
        if need is not None and text.isascii() and need.search(text.lower()) is None:
            return None
        return self._rx.search(text, *pos)

    def __getattr__(self, name: str) -> object:
        return getattr(self._rx, name)
_WORD = re.compile(r"\w+")


def _heads(seq: list, prefix: str) -> set[str] | None:
    """The literal prefixes (up to _N characters) any match of a parsed regex must start with;
    None when a match could start with anything."""
    for idx, (op, av) in enumerate(seq):
        if len(prefix) >= _N:
            break
        rest = list(seq[idx + 1:])
        if op is _c.LITERAL:
            prefix += chr(av)
        elif op in (_c.AT, _c.ASSERT, _c.ASSERT_NOT):
            continue  # zero-width
        elif op is _c.SUBPATTERN:
            if av[1] & re.IGNORECASE:
                break
            return _heads(list(av[3]) + rest, prefix)
        elif op is _c.BRANCH or (op is _c.IN and len(av) <= 8 and all(o is _c.LITERAL for o, _ in av)):
            alts = av[1] if op is _c.BRANCH else [[item] for item in av]
            out: set[str] = set()
            for alt in alts:
                got = _heads(list(alt) + rest, prefix)
                if got is None:
                    return None
                out |= got
            return out
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            low, _high, item = av
            once = _heads(list(item), prefix)  # one iteration, then stop: more may follow
            if low > 0:
                return once
            skipped = _heads(rest, prefix)
            return None if once is None or skipped is None else once | skipped
        else:
            break
    return {prefix[:_N]} if prefix else None


class Matcher:
    """One alternation for a list, searched only on the branches a text could match.

    From each branch the literal prefixes a match must start with are derived (`_heads`): for a branch that
    starts at a word boundary, a text can only match if one of its words starts with such a prefix (a set
    lookup per word); for other branches, if the prefix occurs in the text. A branch with no literal prefix
    always searches. The branches are searched as `BranchSearch` does, in the order of `regex` (the branches
    that start with `\\b` first, sharing one leading `\\b`): `search` answers what `regex.search` would, the
    leftmost match and at one position the first branch's, without re's try-every-branch-at-every-position
    cost (most labels reach no branch at all).
    """

    __slots__ = ("branches", "ordered")

    def __init__(self, patterns: list[str]) -> None:
        bounded, other = [], []
        for p in patterns:
            for branch, _heads in branch_heads(p):
                (bounded if branch.startswith("\\b") else other).append(branch)
        self.ordered = (*bounded, *other)
        self.branches = BranchSearch(self.ordered)

    @property
    def regex(self) -> re.Pattern[str]:
        """The list as one regex (the tests' reference for `search`). Built on demand: the gate never runs it."""
        bounded = [b for b in self.ordered if b.startswith("\\b")]
        pieces = ["\\b(?:" + "|".join(f"(?:{b[2:]})" for b in bounded) + ")"] if bounded else []
        pieces.extend(f"(?:{b})" for b in self.ordered if not b.startswith("\\b"))
        # MULTILINE: `^` / `$` anchor each line (a label and a name are separate lines)
        return re.compile("|".join(pieces), re.MULTILINE)

    def possible(self, text: str, keys: frozenset[str]) -> bool:
        """Whether a branch could match `text` (`keys`: `text_keys(text)`, or of a text containing it)."""
        b = self.branches
        return bool(b.always) or not b.word_keys.isdisjoint(keys) or \
            (b.substrings_rx is not None and b.substrings_rx.search(text) is not None)

    def search(self, text: str, keys: frozenset[str]) -> re.Match[str] | None:
        """`regex.search(text)`. `keys`: `text_keys(text)`."""
        return self.branches.search(text, keys)


# ASCII non-word bytes (what `\w` does not match) → space: `\w+` runs via bytes.translate and split, no regex
# (a bytes table is one lookup per byte; str.translate with a mapping is several times slower)
_ASCII_NON_W = bytes(c if c < 128 and (chr(c).isalnum() or c == 95) else 32 for c in range(256))


def word_key(head: str) -> str:
    """The key of a branch's literal start `head` (it starts with a word character) in `text_keys`: the word it
    starts with, and when the head goes on past that word (`an ...`, `the ...`), the whole word followed by a
    space: a match holds that word whole, not just a word starting with it ("an" is not "any", "a" not "all")."""
    word = _WORD.match(head).group(0)  # type: ignore[union-attr]
    return word + " " if len(word) < len(head) else word


def text_keys(text: str) -> frozenset[str]:
    r"""The first 1, 2, ... `_N` characters of every `\w+` run of `text`, and each run whole followed by a space
    (`word_key`): what `Matcher` prefilters on."""
    if text.isascii():
        if text.isalnum():  # one word of letters and digits (most labels): itself the one run
            return frozenset((text[:1], text[:2], text[:3], text[:4], text[:5], text[:6], text + " "))
        words = text.encode().translate(_ASCII_NON_W).decode().split()
    else:
        words = _WORD.findall(text)
    keys: set[str] = set()
    update = keys.update
    for w in set(words):  # (each word once: a label's two forms repeat most; 1 .. _N written out)
        update((w[:1], w[:2], w[:3], w[:4], w[:5], w[:6], w + " "))
    return frozenset(keys)


@functools.lru_cache(maxsize=4096)
def branch_heads(pattern: str) -> tuple[tuple[str, frozenset[str] | None], ...]:
    """Each top-level branch of `pattern` with the prefixes a match must start with (None: any).

    A pure function of one pattern string, remembered because parsing is most of what compiling a
    policy costs and a reloaded policy lists mostly the same patterns. Not keyed by a policy."""
    stored = regex_store.heads(pattern)
    if stored is not None:
        return stored
    out = []
    for branch in _top_level(pattern):
        heads = _heads(list(_parser.parse(branch)), "")
        out.append((branch, frozenset(heads) if heads is not None else None))
    regex_store.keep_heads(pattern, tuple(out))
    return tuple(out)


_CASE_BLIND = re.compile(r"\(\?[a-zA-Z-]*i")


def _exact_need(branch: str) -> frozenset[str] | None:
    """The most telling set of strings, as written, one of which every match of a case-sensitive `branch` holds
    (`_required`): then a plain `in` is an exact test, for any text. None for a case-blind branch or none known."""
    if _CASE_BLIND.search(branch):
        return None
    stored = regex_store.recall("exact-literal-set", branch, False)
    if stored is None or (type(stored) is list and stored and all(type(x) is str and x for x in stored)):
        return frozenset(stored) if stored is not None else None  # (what a `deskgate check` store kept: no parse)
    found = _required(list(_parser.parse(branch, re.MULTILINE)))
    need = max(found, key=lambda f: (*_rank(f), sorted(f))) if found else None
    regex_store.remember("exact-literal-set", branch, sorted(need) if need is not None else None)
    return need


class BranchSearch:
    """An alternation of patterns searched branch by branch, only the branches a text could match.

    Each top-level branch is compiled on its own and indexed by the literal prefixes a match of it must
    start with (gate/prefix.py): a word prefix for a branch at a word boundary or a line start, a substring
    otherwise; a branch with no literal start is always searched. `search` returns what `whole.search` would:
    the leftmost match, and at that position the first branch's (a skipped branch cannot match anywhere).
    A set of branches is a bit mask (bit i: branch i): unions are one `|`, and bits come out in order."""

    __slots__ = ("always", "ascii_by_substring", "ascii_substrings", "branches", "by_substring", "by_word",
                 "pats", "substrings_rx", "word_keys")

    def __init__(self, pats: tuple[str, ...] | list[str]) -> None:
        self.pats = tuple(pats)
        branches: list[re.Pattern[str]] = []
        always = 0
        by_word: dict[str, int] = {}
        by_substring: dict[str, int] = {}
        for p in pats:
            for branch, heads in branch_heads(p):
                bit = 1 << len(branches)
                branches.append(regex_store.compile(branch, re.MULTILINE))
                if heads is None:
                    # (no literal start, but maybe a literal inside: searched only where that occurs)
                    need = _exact_need(branch)
                    if need is None:
                        always |= bit
                    for h in need or ():
                        by_substring[h] = by_substring.get(h, 0) | bit
                elif branch.startswith(("\\b", "^")) and all(_WORD.match(h) for h in heads):
                    for h in heads:
                        key = word_key(h)
                        by_word[key] = by_word.get(key, 0) | bit
                else:
                    for h in heads:
                        by_substring[h] = by_substring.get(h, 0) | bit
        self.branches = tuple(branches)
        self.always = always  # the branches with no literal start, searched whatever the text
        self.by_word = by_word
        self.word_keys = frozenset(by_word)
        self.by_substring = tuple(sorted(by_substring.items()))
        self.ascii_by_substring = tuple((k, v) for k, v in self.by_substring if k.isascii())
        # whether any substring occurs, in one search; an ASCII text cannot hold a non-ASCII one (the Chinese
        # and Japanese cues of resources/cues.toml), so for it only the ASCII ones are looked for
        ascii_subs = [k for k in by_substring if k.isascii()]
        self.ascii_substrings = literals(ascii_subs)
        self.substrings_rx = literals(by_substring)

    @property
    def whole(self) -> re.Pattern[str]:
        """The alternation as one regex: what `search` answers like (the tests' reference). Built on
        demand: the gate never runs it, and compiling it would double what loading the cues costs."""
        return re.compile("|".join(f"(?:{p})" for p in self.pats), re.MULTILINE)

    def search(self, words: str, keys: frozenset[str]) -> re.Match[str] | None:
        """`whole.search(words)`. `keys`: `text_keys` of `words`, or of a text holding each of its words."""
        mask = self.always
        for key in keys & self.word_keys:
            mask |= self.by_word[key]
        if words.isascii():  # (only the ASCII substrings can occur in it)
            subs_rx, by_substring = self.ascii_substrings, self.ascii_by_substring
        else:
            subs_rx, by_substring = self.substrings_rx, self.by_substring
        if subs_rx is not None and subs_rx.search(words) is not None:
            for sub, bits in by_substring:
                if sub in words:
                    mask |= bits
        return self.search_among(words, mask) if mask else None

    def search_among(self, words: str, mask: int) -> re.Match[str] | None:
        """`search(words, ...)` when `mask` holds the branches that could match (`KindIndex.branches`,
        gate/cues.py): the leftmost match, and at one position the first branch's."""
        if not mask & (mask - 1):  # one branch (most searches)
            return self.branches[mask.bit_length() - 1].search(words)
        best = None
        while mask:
            low = mask & -mask  # the lowest branch left: branches are tried in order
            m = self.branches[low.bit_length() - 1].search(words)
            if m is not None and (best is None or m.start() < best.start()):
                best = m
            mask ^= low
        return best
