"""Enter (Space, Alt+Y, Ctrl+Enter) on a dialog that asks for a consequential step asks, as the click on its
default button would (confirm.gui.dialog-answer-key)."""

from __future__ import annotations

import pytest

from gate import SafetyGate
from gate.model import Decision, Key, Observation

GATE = SafetyGate()
RULE = "confirm.gui.dialog-answer-key"


def _press(keys: list[str], title: str):
    return GATE.assess(Key(keys=keys), Observation(window_title=title))


@pytest.mark.parametrize(("keys", "title"), [
    (["enter"], "Delete 24 files? - Files"),
    (["enter"], "Confirm payment $499.00 - Checkout"),
    (["space"], "Transfer $2,000 to John Smith?"),
    (["alt", "y"], "Do you want to allow this app to make changes to your device?"),
    (["enter"], "Remove user from organization?"),
    (["enter"], "Are you sure you want to delete this repository?"),
    (["enter"], "Empty Trash?"),
    (["return"], "Place order"),
    (["ctrl", "enter"], "Send $500 to Mike?"),
])
def test_the_key_on_a_consequential_dialog_asks(keys: list[str], title: str) -> None:
    got = _press(keys, title)
    assert got.decision is Decision.CONFIRM and RULE in got.rules, (title, got)


@pytest.mark.parametrize(("keys", "title"), [
    (["enter"], "report.docx - Word"),
    (["enter"], "Inbox (3) - Gmail"),
    (["enter"], "bash - Terminal"),
    (["enter"], "Save changes to report.docx?"),
    (["enter"], "Close tab?"),
    (["enter"], "Transfer money - Chase"),
    (["enter"], "How to delete a GitHub repository? - Stack Overflow"),
    (["enter"], "Can I delete my account? - Help Center"),
    (["escape"], "Delete 24 files? - Files"),
    (["ctrl", "s"], "Confirm payment $499.00 - Checkout"),
])
def test_other_windows_and_other_keys_pass(keys: list[str], title: str) -> None:
    assert RULE not in _press(keys, title).rules, title

