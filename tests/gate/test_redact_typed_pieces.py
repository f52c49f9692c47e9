"""Which typed text reaches the audit log only as a digest (gate/redact.py `typed_piece_hidden`)."""

from __future__ import annotations

import pytest

from gate.redact import secret_field, typed_piece_hidden


@pytest.mark.parametrize("before, text", [
    ("export TOKEN=", "q"),  # one or two characters onto a line before it ends
    ("export TOKEN=q", "7X"),
    ("", "a"),
    ("pass=Zt9", "Lm4Rx"),  # goes on with the word the line holds
    ("git push https://x:glpat-Ab", "cD"),
])
def test_pieces_of_a_word_typed_onto_a_line_are_hidden(before: str, text: str) -> None:
    assert typed_piece_hidden(before, text, on_line=True)


@pytest.mark.parametrize("before, text, on_line", [
    ("", "make test\n", True),  # a whole line
    ("git", " status", True),  # a whole word after a space
    ("git status", " ", True),  # whitespace
    ("", "y\n", True),  # an answer that ends its line
    ("", "a", False),  # no line followed: a document, a chat box (their secrets are found whole)
    ("", "Q3", False),
])
def test_whole_words_line_ends_and_untracked_fields_pass(before: str, text: str, on_line: bool) -> None:
    assert not typed_piece_hidden(before, text, on_line=on_line)


def test_a_secret_field_hides_everything_typed_into_it() -> None:
    assert typed_piece_hidden("", "correct horse", on_line=False, secret=True)
    assert secret_field("password text") and secret_field("", "One-time passcode") and secret_field("AXSecureTextField")
    assert not secret_field("text", "Search", "") and not secret_field("entry", "Passing lane notes")
