"""`text_keys` (gate/prefix.py) reads `\\w+` runs without a regex for ASCII text: the keys must be the ones the
regex reading gives, for every character."""

from __future__ import annotations

import random
import re
import string

from gate.prefix import _N, text_keys, word_key

_WORD = re.compile(r"\w+")


def _reference(text: str) -> frozenset[str]:
    words = _WORD.findall(text)
    return frozenset([w[:n] for w in words for n in range(1, _N + 1)] + [w + " " for w in words])


def test_every_character_between_words() -> None:
    for c in range(512):
        text = f"ab{chr(c)}cde f"
        assert text_keys(text) == _reference(text), c


def test_generated_texts() -> None:
    rng = random.Random(19)
    alphabet = string.printable + "éßΩ中ー\u00a0_"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert text_keys(text) == _reference(text), text


def test_labels() -> None:
    assert text_keys("Place order") == {"P", "Pl", "Pla", "Plac", "Place", "Place ", "o", "or", "ord", "orde",
                                        "order", "order "}
    assert text_keys("OK") == {"O", "OK", "OK "}
    assert text_keys("") == frozenset()
    assert text_keys("snake_case-x") == {"s", "sn", "sna", "snak", "snake", "snake_", "snake_case ", "x", "x "}
    assert text_keys("Unsubscribe") == {"U", "Un", "Uns", "Unsu", "Unsub", "Unsubs", "Unsubscribe "}  # one word


def test_word_keys() -> None:
    """A branch's literal start that goes on past its first word keys on that word whole; one that ends inside
    a word (or is cut at `_N` letters) on the word's start."""
    assert word_key("an important") == "an "
    assert word_key("a i") == "a "
    assert word_key("import") == "import"
    assert word_key("allow") == "allow"
    assert word_key("e-mail") == "e "
    keys = text_keys("agree to all")
    assert word_key("a ") not in keys and word_key("all ") in keys and word_key("agree") in keys


def _sample(parsed: list, rng: random.Random) -> str:
    """A text written from a parsed regex (most match it: lookarounds and word boundaries are not followed)."""
    import re._constants as c

    out = []
    for op, av in parsed:
        if op is c.LITERAL:
            out.append(chr(av))
        elif op is c.NOT_LITERAL or op is c.ANY:
            out.append("x")
        elif op is c.IN:
            items = [(o, a) for o, a in av if o in (c.LITERAL, c.RANGE, c.CATEGORY)]
            o, a = rng.choice(items) if items else (c.LITERAL, ord("x"))
            out.append(chr(a) if o is c.LITERAL else chr(a[0]) if o is c.RANGE else
                       {c.CATEGORY_DIGIT: "1", c.CATEGORY_SPACE: " "}.get(a, "a"))
        elif op is c.CATEGORY:
            out.append({c.CATEGORY_DIGIT: "1", c.CATEGORY_SPACE: " "}.get(av, "a"))
        elif op is c.BRANCH:
            out.append(_sample(list(rng.choice(av[1])), rng))
        elif op is c.SUBPATTERN:
            out.append(_sample(list(av[3]), rng))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, high, item = av
            out.extend(_sample(list(item), rng) for _ in range(rng.randint(low, min(high, low + 2))))
    return "".join(out)


def test_generated_labels_find_what_each_whole_alternation_finds() -> None:
    """The cue book's indexes (word starts up to `_N` letters, whole words) never skip a branch that matches:
    texts written from its own branches (`_sample`), with articles and near misses around them."""
    from gate.cues import cue_book

    book = cue_book()
    families = [(book.steering, book.steering_index), (book.consequence, book.consequence_index),
                (book.url_consequence, book.url_consequence_index), (book.setting_fields, book.setting_index)]
    import re._parser

    branches = [b.pattern for kinds, _ in families for k in kinds for b in k.search.branches]
    extra = ["a", "an", "the", "all", "any", "and", "agree", "allowed", "al", "th", "sel", "select", "create",
             "creates", "x", "1", "ok", "please", "now"]
    rng = random.Random(17)
    for _ in range(300):
        parts = [_sample(list(re._parser.parse(rng.choice(branches))), rng) for _ in range(rng.randint(1, 2))]
        parts += rng.sample(extra, rng.randint(0, 3))
        rng.shuffle(parts)
        words = " ".join(" ".join(parts).split())
        keys = text_keys(words)
        for kinds, index in families:
            found = dict(index.branches(words, keys))
            for i, kind in enumerate(kinds):
                whole = kind.search.whole.search(words)
                got = kind.search.search_among(words, found[i]) if i in found else None
                assert (got and (got.span(), got.group(0))) == (whole and (whole.span(), whole.group(0))), \
                    (words, kind.name)
