"""Clicks that can be taken back (one message to the trash, a new issue or ticket) and passwords typed into
practice or demo login forms are not asked about; their near misses (a permanent delete, a bare "Delete" off a
mail page, a card number or a real site's password) still are. Our own labels and hosts."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.cues import is_practice_host
from gate.model import Decision

GATE = SafetyGate()


def click(label: str, url: str | None = None):
    data: dict = {"type": "click", "x": 1, "y": 1, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data))


def typed(text: str, field: str, url: str | None = None):
    data: dict = {"type": "type", "text": text, "target": {"label": field}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data))


# -- one message to the trash, a new issue ------------------------------------------------------------

RECOVERABLE = [("Delete message", None), ("Move message to trash", None), ("Delete this email", None),
               ("Trash", "https://mail.example.org/inbox/42"), ("Delete", "https://webmail.acme.test/mail/7"),
               ("Submit new issue", "https://git.acme.dev/team/app/issues/new"), ("Create ticket", None),
               # an open newsletter's unsubscribe link, on the mail page
               ("Unsubscribe", "https://mail.example.org/inbox/913"),
               ("Unsubscribe from this list", "https://webmail.acme.test/mail/7"),
               ("Se désabonner", "https://mail.example.fr/inbox/12")]


@pytest.mark.parametrize(("label", "url"), RECOVERABLE)
def test_a_click_that_can_be_taken_back_is_not_irreversible(label, url):
    a = click(label, url)
    assert "confirm.gui.irreversible" not in a.rules, (label, a.rules)


NOT_RECOVERABLE = [("Delete permanently", None), ("Empty trash", None), ("Delete all messages", None),
                   ("Delete", "https://git.acme.dev/team/app/settings"), ("Trash", None), ("Delete", None),
                   ("Move to trash", None),
                   # off a mail page an unsubscribe may end a paid plan
                   ("Unsubscribe", "https://stream.example.tv/account/plan")]


@pytest.mark.parametrize(("label", "url"), NOT_RECOVERABLE)
def test_a_permanent_or_unplaced_delete_still_asks(label, url):
    a = click(label, url)
    assert a.decision is not Decision.ALLOW, (label, a.rules)


# -- practice and demo login forms --------------------------------------------------------------------

PRACTICE = ["http://localhost:8000/login", "https://the-internet.herokuapp.com/login", "http://intranet.local/login",
            "https://example.com/login", "file:///home/me/forms/login.html", "http://127.0.0.1:5000/signin"]


@pytest.mark.parametrize("url", PRACTICE)
def test_a_password_typed_into_a_practice_login_form_passes(url):
    a = typed("Tr1al-pass", "Password", url)
    assert "confirm.gui.credential-field" not in a.rules, (url, a.rules)


def test_a_real_sites_password_and_a_card_on_a_practice_host_still_ask():
    assert "confirm.gui.credential-field" in typed("Tr1al-pass", "Password", "https://accounts.acme.com/login").rules
    assert "confirm.gui.credential-field" in typed("Tr1al-pass", "Password").rules  # no page known
    # a shop written as a subdomain of example.com stands for a real shop
    assert typed("4111 1111 1111 1111", "Card number", "https://shop.example.com/pay").decision is not Decision.ALLOW
    assert typed("4111 1111 1111 1111", "Card number", "http://localhost/pay").decision is not Decision.ALLOW


def test_practice_hosts_are_exact_or_under_a_listed_suffix():
    assert is_practice_host("example.com") and is_practice_host("gitlab.local") and is_practice_host("a.localhost")
    assert not is_practice_host("shop.example.com")
    assert not is_practice_host("evil.herokuapp.com")
    assert not is_practice_host("local")
