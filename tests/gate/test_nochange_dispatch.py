"""The no-change readings (gate/nochange.py) look up what can apply before reading words: a program's [[no_change]]
modes by its name first (`_BY_PROGRAM`, `_DESCRIBED_BY_PROGRAM`), and the reading verb the operands would make
before the other conditions of `_reading_verb`. These tests hold the shortcuts to the readings they stand for."""

from __future__ import annotations

import itertools

from gate import nochange
from gate.nochange import _BY_PROGRAM, _DESCRIBED_BY_PROGRAM, READ_VERBS


def test_the_described_modes_are_those_marked_described() -> None:
    for program, rules in _BY_PROGRAM.items():
        assert _DESCRIBED_BY_PROGRAM.get(program, ()) == tuple(r for r in rules if r.described), program
    assert set(_DESCRIBED_BY_PROGRAM) <= set(_BY_PROGRAM)


def test_a_program_with_no_mode_is_in_none() -> None:
    assert "no-such-program" not in _BY_PROGRAM
    assert nochange._named("no-such-program", ("no-such-program", "list", "--all")) is None


def _reading_verb_in_full(name: str, args: tuple[str, ...], redirects: tuple[tuple[str, str], ...],
                          extra: frozenset[str] = frozenset()) -> str | None:
    """`_reading_verb` with every condition read before the verb, in the order the module docstring gives them."""
    if not READ_VERBS.verbs or name in READ_VERBS.never or nochange._secret_word(name):
        return None
    for op, target in redirects:
        if not (op.startswith("<") or target.isdigit() or target.startswith("&") or target in nochange._QUIET_SINKS) \
                and nochange._outside_project(target):
            return None
    for k, a in enumerate(args):
        if a == "--" or nochange._REMOTE_WORD.search(a) or nochange._NETWORK_TARGET.match(a):
            return None
        if a.startswith("-"):
            base = a.split("=", 1)[0]
            if base in nochange._CODE_WORDS or base in READ_VERBS.unless or base in nochange._DRY:
                return None
            if base in READ_VERBS.write_flags:
                value = a.split("=", 1)[1] if "=" in a else (args[k + 1] if k + 1 < len(args) else "")
                if nochange._outside_project(value):
                    return None
        if nochange._secret_word(a):
            return None
    if nochange.risky_destination(args):
        return None
    return nochange._verb_candidate(args, extra)


# our own words: reading verbs, changing verbs, nouns, flags (listing, code, dry-run, output), paths, hosts, secrets
_WORDS = ["list", "show", "status", "get", "describe", "delete", "create", "apply", "pods", "config", "users",
          "--all", "--list-devices", "-o", "--output=/etc/x", "-e", "--dry-run", "./out.txt", "/etc/passwd",
          "https://example.org/x", "github.com/x/y", "token", "api-keys", "--", "user@host:/tmp", "42", "--verbose"]


def test_the_verb_first_finds_what_every_condition_first_finds() -> None:
    names = ("tool", "zrok", "secretctl", "frpc")
    redirects = ((), ((">", "/etc/out"),), ((">", "out.txt"),), (("2>", "/dev/null"),))
    checked = 0
    for n in range(0, 4):
        for args in itertools.product(_WORDS, repeat=n) if n < 3 else itertools.islice(
                itertools.product(_WORDS, repeat=n), 0, None, 7):
            for name in names:
                for redirect in redirects:
                    for extra in (frozenset(), frozenset({"pods"})):
                        assert nochange._reading_verb(name, args, redirect, extra) == \
                            _reading_verb_in_full(name, args, redirect, extra), (name, args, redirect, extra)
                        checked += 1
    assert checked > 50_000


def _only_known_words_in_full(rule: nochange.NoChange, args: tuple[str, ...]) -> bool:
    """`_only_known_words` reading every word for every mode, the mode's own switches built each time."""
    named = {nochange._switch(w) for w in (*rule.with_, *(w for v in rule.verbs for w in v))}
    return not any(nochange._WIN_SWITCH.match(a) and nochange._switch(a) not in named and
                   nochange._CHANGING_SWITCH.match(nochange._switch(a)) for a in args)


def test_the_changing_switches_read_once_find_what_each_mode_reading_them_finds() -> None:
    switches = sorted({w for r in nochange.RULES for w in (*r.with_, *(w for v in r.verbs for w in v))
                       if w.startswith("/")})
    words = [*switches[:40], "/delete", "/f", "/scannow", "/verifyonly", "/l:5000", "/set=x", "/?", "list", "-x"]
    rng = __import__("random").Random(3)
    for rule in nochange.RULES:
        for _ in range(20):
            args = tuple(rng.sample(words, rng.randint(0, 4)))
            changing = [nochange._switch(a) for a in args
                        if nochange._WIN_SWITCH.match(a) and nochange._CHANGING_SWITCH.match(nochange._switch(a))]
            assert nochange._only_known_words(rule, changing) == _only_known_words_in_full(rule, args), (rule, args)
