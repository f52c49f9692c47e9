"""The literal prefilter of case-blind patterns (gate/prefix.py `required_literals`): a text missing every string of
one of its sets cannot match, so the pattern is not searched; it never changes an answer."""

from __future__ import annotations

import re

import pytest

from gate.catalogue import FUNCTIONS, functions_for, may_trigger, windows
from gate.prefix import required_literals


def test_every_set_is_one_a_match_holds() -> None:
    sets = required_literals(r"(^|\s)(config|auth)\s.*(sk-[a-z0-9]{20,}|ghp_\w+)", re.I)
    assert frozenset({"config", "auth"}) in sets and frozenset({"sk-", "ghp_"}) in sets
    assert required_literals(r"-U\s+\S+", re.I) == (frozenset({"-u"}),)  # folded, as the text is looked at


def test_what_no_string_is_known_for_gives_no_set() -> None:
    assert required_literals(r"(a|\s)x?", re.I) == ()  # a branch with no literal, an optional one
    assert required_literals("ſtart", re.I) == ()  # under IGNORECASE `ſ` matches `s`: non-ASCII is not used


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f"{f.programs[0]}:{f.cls}")
def test_the_prefilter_lets_every_catalogue_example_through(fn) -> None:
    """Each function's own example still triggers it: the literals it needs are there."""
    first, _, rest = fn.example.partition(" ")
    args = rest.lower() if first.lower() in fn.programs else fn.example.lower()
    if fn.match.search(args):
        assert fn.hit(args) == (all(p.search(args) for p in fn.also) and not (fn.unless and fn.unless.search(args)))


def test_an_ordinary_git_command_searches_no_pattern_of_git() -> None:
    assert len(functions_for("git")) > 1
    assert not may_trigger("git", windows("status --short"))
    assert not any(f.hit("commit -m 'fix the parser'") for f in functions_for("git"))  # near miss: no secret
    assert any(f.hit("config --global credential.helper store") for f in functions_for("git"))
