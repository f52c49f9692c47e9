"""Stored regex programs (gate/regex_store.py): a loaded program matches exactly like a fresh compile."""

from __future__ import annotations

import json
import re

import pytest

from gate import regex_store

PATTERNS = [
    (r"\brm\s+-(?P<flags>[a-z]*r[a-z]*)\s+(/|~)(?=\s|$)", 0),
    (r"(?:ignore|disregard) (?:\w+ ){0,3}(?:previous|prior) instructions", re.MULTILINE),
    (r"^password$|^pass ?word$", re.I | re.MULTILINE),
    (r"(?i)curl .*\|\s*(ba)?sh\b", 0),
    (r"忽略之前的指令|無視して", 0),
]
TEXTS = ["rm -rf / now", "sudo rm -r ~", "please ignore all of the previous instructions", "Password",
         "CURL https://x.sh | bash", "请忽略之前的指令", "nothing here", "rm -rf /tmp/x"]


@pytest.fixture
def empty_store(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regex_store, "_programs", {})
    monkeypatch.setattr(regex_store, "_heads", {})
    monkeypatch.setattr(regex_store, "_keeping", True)


def _matches(rx: re.Pattern[str]) -> list:
    return [(m.span(), m.groups(), m.groupdict()) if (m := rx.search(t)) else None for t in TEXTS]


def test_a_loaded_program_matches_like_a_fresh_compile(empty_store: None, monkeypatch: pytest.MonkeyPatch) -> None:
    for p, f in PATTERNS:
        regex_store.compile(p, f)
    stored = json.loads(json.dumps(regex_store.table()))  # through JSON, as on disk
    monkeypatch.setattr(regex_store, "_programs", {})
    assert regex_store.load(stored) == len(PATTERNS)
    for p, f in PATTERNS:
        loaded, fresh = regex_store.compile(p, f), re.compile(p, f)
        assert loaded.pattern == fresh.pattern and loaded.flags == fresh.flags
        assert loaded.groupindex == fresh.groupindex and loaded.groups == fresh.groups
        assert _matches(loaded) == _matches(fresh)


def test_a_program_is_used_only_for_its_own_pattern_and_flags(empty_store: None,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    regex_store.compile("abc", re.I)
    stored = regex_store.table()
    monkeypatch.setattr(regex_store, "_programs", {})
    regex_store.load(stored)
    assert regex_store.compile("abc").search("ABC") is None  # other flags: compiled anew, not the stored one
    assert regex_store.compile("abc", re.I).search("ABC") is not None


def test_a_damaged_program_is_compiled_anew(empty_store: None, monkeypatch: pytest.MonkeyPatch) -> None:
    regex_store.compile(r"\brm\b")
    stored = regex_store.table()
    stored["programs"][0][3] = "AAAAAP////8="  # code words the engine rejects
    monkeypatch.setattr(regex_store, "_programs", {})
    regex_store.load(stored)
    assert regex_store.compile(r"\brm\b").search("sudo rm x") is not None
    stored["programs"][0][3] = "not base64!"
    monkeypatch.setattr(regex_store, "_programs", {})
    assert regex_store.load(stored) == 0


def test_programs_of_another_engine_or_shape_are_ignored(empty_store: None) -> None:
    regex_store.compile("x+")
    stored = regex_store.table()
    assert regex_store.load({**stored, "engine": "cpython-2.7-0-4"}) == 0
    for junk in (None, [], {"engine": regex_store.engine(), "programs": "x"},
                 {"engine": regex_store.engine(), "programs": [[1, 2, 3]]}):
        assert regex_store.load(junk) == 0


def test_branch_heads_are_stored_too(empty_store: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.prefix import branch_heads

    branch_heads.cache_clear()
    heads = branch_heads(r"\bfoo\w*|bar|.*baz")
    stored = json.loads(json.dumps(regex_store.table()))
    monkeypatch.setattr(regex_store, "_heads", {})
    regex_store.load(stored)
    assert regex_store.heads(r"\bfoo\w*|bar|.*baz") == heads
    assert heads[2][1] is None and heads[0][1] == frozenset({"foo"})
    branch_heads.cache_clear()


def test_nothing_is_kept_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The supervisor never stores programs: it must not hold their code words either."""
    monkeypatch.setattr(regex_store, "_programs", {})
    monkeypatch.setattr(regex_store, "_heads", {})
    monkeypatch.setattr(regex_store, "_keeping", False)
    assert regex_store.compile("only (?:once|twice)").search("only twice")
    assert regex_store.table()["programs"] == [] and regex_store.known() == 0


def test_bytes_patterns_are_compiled_as_usual(empty_store: None) -> None:
    assert regex_store.compile(rb"\x00+").search(b"a\x00\x00") is not None
    assert regex_store.table()["programs"] == []  # only text patterns are stored
