"""The cue searches of the typed-text checks (gate/rules/typed_lures.py, gate/sensitive.py): each is one search for
a list of words that used to be an `in` per word, so each must find a word exactly where the `in` found one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate import sensitive
from gate.rules import typed_lures as tl

# the lists written inline beside their search
_INLINE = {
    "_APPROVE_CUE": ("approv", "allow", "permission", "yolo", "trust", "never", "danger"),
    "_OVERRIDE_CUE": ("ignore", "disregard", "forget", "override", "skip", "verbatim", "prompt", "you are now"),
    "_CONTACTS_CUE": ("contact", "address", "adress", "book", "friends", "customer", "client", "member", "employee",
                      "colleague", "coworker", "co-worker", "neighbo", "classmate", "follower", "user", "patient",
                      "student", "subscriber", "donor", "guest", "people", "kontakt", "agenda", "contato",
                      "connection", "family", "phonebook", "mailing list"),
}
_PAIRS = [(getattr(tl, name.replace("_KEYS", "_CUE")), getattr(tl, name)) for name in dir(tl)
          if name.endswith("_KEYS") and hasattr(tl, name.replace("_KEYS", "_CUE"))]
_PAIRS += [(getattr(tl, cue), words) for cue, words in _INLINE.items()]
_PAIRS += [(sensitive._PARTIAL_CUE, sensitive._PARTIAL_KEYS)]
_PAIRS += [(cue, hints) for cue, hints in zip(sensitive._HINT_CUES, sensitive._HINTS, strict=True) if hints]


def test_every_cue_list_has_its_search() -> None:
    assert len(_PAIRS) >= 14
    assert all(cue is not None for cue, _ in _PAIRS)


@pytest.mark.parametrize(("cue", "words"), _PAIRS, ids=lambda x: str(x)[:30])
def test_each_word_is_found_however_the_text_writes_it(cue, words) -> None:
    for w in words:
        for text in (w, f"Hello, {w.upper()}!", f"'{w}'", f"see https://x.example/{w}?a=1", f"x{w}y\n"):
            assert cue.search(text.lower()), (w, text)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_search_agrees_with_its_words_one_by_one(data) -> None:
    for cue, words in _PAIRS:
        letters = sorted(set("".join(words)) | {" ", "-"})
        text = data.draw(st.text(alphabet=letters, max_size=16))
        assert (cue.search(text) is not None) == any(w in text for w in words), (words, text)
