"""gate/patterns.py: a list of regexes searched as one, prefiltered by the literals their matches contain.
The prefilter only skips searches that cannot succeed: the answer is always the alternation's."""

from __future__ import annotations

import random
import re

import pytest

from gate.patterns import Patterns, _trie

PATTERNS = [r"(^|/)\.ssh/id_[a-z0-9]+$", r"\.aws/credentials", r"\.env(\.|$)", r"/etc/(g?shadow|sudoers)",
            r"(^|/)\.config/(google-chrome|chromium)/", r"\.pem$", r"secret", r"[a-z]+\.kdbx$"]


@pytest.mark.parametrize("text", [
    "/home/~/.ssh/id_rsa", "/home/~/project/src/main.py", "/etc/shadow", "/etc/passwd", "notes/.env", ".envrc",
    "/srv/certs/site.PEM", "TOP_SECRET.txt", "vault.kdbx", "", "/", "x", "/home/~/.config/chromium/Default",
])
def test_search_answers_as_the_alternation_does(text: str) -> None:
    whole = re.compile("|".join(f"(?:{p})" for p in PATTERNS), re.IGNORECASE)
    assert Patterns(PATTERNS, re.IGNORECASE).search(text) == bool(whole.search(text))


def test_the_literal_trie_finds_a_word_wherever_one_occurs() -> None:
    words = [".ssh/", ".ssh", ".aws/credentials", "/etc/", "/etc/ssh/ssh_host_", "shadow", "sh", "a+b", "x.y"]
    trie = re.compile(_trie(words))
    rng = random.Random(7)
    alphabet = [*sorted(set("".join(words))), "z", "Q"]
    for _ in range(5000):
        text = "".join(rng.choice([*words, *alphabet]) for _ in range(rng.randint(0, 6)))
        text = text[rng.randint(0, len(text)):] if rng.random() < 0.3 else text
        assert (trie.search(text) is not None) == any(w in text for w in words), text


def test_a_text_with_no_literal_is_not_searched_further() -> None:
    found = Patterns([r"\.aws/credentials"])
    assert found.any_literal is not None and found.any_literal.search("/home/~/project") is None
    assert not found.search("/home/~/project") and found.search("/home/~/.aws/credentials")
