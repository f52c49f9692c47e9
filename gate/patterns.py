"""A list of regexes searched as one, skipping the ones that cannot match.

Each pattern is compiled on its own and indexed by the literals every match of it must contain: a text
without any of them skips that pattern (a long alternation costs ~15 µs per search, 30 `in` checks ~2).
Whether a text holds any literal at all is one search of the literals as a trie (`_trie`, ~0.2-1 µs).
The prefilter never changes an answer, it only avoids searches that cannot succeed. Built once per policy
(gate/compiled.py); `search` remembers its answers for this list only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from gate import regex_store

__all__ = ["Patterns"]


def _required_literals(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """Strings one of which every match of this parsed regex sequence contains, or None if unknown.
    Walks the `re` parser's tree: literal runs, groups, alternations and repeats of at least one."""
    from re import _constants as c  # the parser's opcodes (stable since 3.11; any surprise → None)

    candidates: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in items:
        if op is c.LITERAL:
            if av >= 128:  # case-insensitive matching of non-ASCII is not `str.lower`: no prefilter
                return None
            run.append(chr(av).lower())
            continue
        if run:
            candidates.append(frozenset({"".join(run)}))
            run = []
        sub: frozenset[str] | None = None
        if op is c.SUBPATTERN:
            sub = _required_literals(list(av[-1]))
        elif op is c.BRANCH:
            alts = [_required_literals(list(b)) for b in av[1]]
            sub = frozenset().union(*alts) if alts and all(alts) else None  # type: ignore[arg-type]
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
            sub = _required_literals(list(av[2]))
        if sub:
            candidates.append(sub)
    if run:
        candidates.append(frozenset({"".join(run)}))
    return max(candidates, key=lambda s: min(map(len, s)), default=None)


@functools.lru_cache(maxsize=4096)
def _literals_of(pattern: str) -> frozenset[str] | None:
    """The literals one of which every match of `pattern` contains (None: unknown). A pure function of the
    pattern string, remembered (and kept in a `deskgate check` store, gate/regex_store.py): parsing is most of
    what compiling a policy costs. Not keyed by a policy."""
    stored = regex_store.recall("required-literals", pattern, False)
    if stored is None or (type(stored) is list and all(type(x) is str for x in stored)):
        return frozenset(stored) if stored is not None else None
    try:
        from re import _parser

        found = _required_literals(list(_parser.parse(pattern, re.IGNORECASE)))
    except Exception:  # an unfamiliar parser: no prefilter, the regex always runs (slower, still right)
        return None
    regex_store.remember("required-literals", pattern, sorted(found) if found is not None else None)
    return found


def _trie(words: list[str]) -> str:
    """A regex (no groups captured) that matches where any of `words` starts: the words sharing a first
    character share one branch, so a search tries a handful of characters per position, not every word."""
    ordered = sorted(words)
    return _branch(ordered, 0, len(ordered), 0) if ordered else "(?:)"


_ESCAPED: dict[str, str] = {}


def _branch(words: list[str], lo: int, hi: int, depth: int) -> str:
    """The trie of `words[lo:hi]` (sorted, sharing their first `depth` characters) after those characters: read
    in place, one pass over the run per character (the words are built into thousands of tries at start)."""
    if len(words[lo]) == depth:
        return ""  # a word ends here (sorted first, as the shortest): it has matched, whatever follows
    branches = []
    while lo < hi:
        head = words[lo][depth]
        end = lo + 1
        while end < hi and words[end][depth] == head:
            end += 1
        escaped = _ESCAPED.get(head)
        if escaped is None:
            escaped = _ESCAPED[head] = re.escape(head)
        branches.append(escaped + _branch(words, lo, end, depth + 1))
        lo = end
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


class Patterns:
    """`search(text)`: whether any of the patterns finds something in `text` (as `re.search` would with
    `flags`, on the alternation of them all)."""

    __slots__ = ("always", "any_literal", "by_literal", "literals", "search")

    def __init__(self, patterns: Iterable[str], flags: int = 0) -> None:
        always: list[re.Pattern[str]] = []
        by_literal: dict[str, list[re.Pattern[str]]] = {}
        for p in patterns:
            rx = regex_store.compile(p, flags)
            literals = _literals_of(p)
            if literals is None:
                always.append(rx)
            for lit in literals or ():
                by_literal.setdefault(lit, []).append(rx)
        self.always: tuple[re.Pattern[str], ...] = tuple(always)
        self.literals: tuple[str, ...] = tuple(by_literal)
        self.by_literal = {k: tuple(v) for k, v in by_literal.items()}
        # whether the text holds any literal at all, in one search: most texts hold none, and looking for the
        # literals one by one touches every one of them (tens of strings scattered in memory)
        self.any_literal = re.compile(_trie(list(by_literal))) if by_literal else None
        self.search: Callable[[str], bool] = functools.lru_cache(maxsize=4096)(self._search)

    def __bool__(self) -> bool:
        return bool(self.literals or self.always)

    def _search(self, text: str) -> bool:
        for rx in self.always:
            if rx.search(text):
                return True
        low = text.lower()
        if self.any_literal is None or self.any_literal.search(low) is None:
            return False
        by_literal = self.by_literal
        for lit in self.literals:  # plain loops: this runs for every path argument of every command
            if lit in low:
                for rx in by_literal[lit]:
                    if rx.search(text):
                        return True
        return False

    def first(self, *texts: str | None) -> str | None:
        """The first of `texts` one of the patterns finds something in, or None."""
        if not self:
            return None
        seen: set[str] = set()
        for t in texts:
            if t and t not in seen:
                seen.add(t)
                if self.search(t):
                    return t
        return None
