"""Bare editing commands of document, spreadsheet and design editors and of task boards, beside the same words
where they commit.

"Freeze" in a spreadsheet fixes rows in view and "Add card" on a task board adds a task; on an admin console's
users page "Freeze" suspends a person, and on a wallet's or a billing page "Add card" stores a payment card: those
still ask. "Remove background" is an image editor's cut-out, "Accept all suggestions" and "Delete sheet" edits of
the open document, all undone in the editor. The editor pages and the
commands are data (`editor_page`, `editor_verb` and `[recoverable]` of resources/cues.toml)."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str):
    data: dict = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url))


SHEET = "https://docs.google.com/spreadsheets/d/1Xyz/edit#gid=0"
EXCEL = "https://excel.cloud.microsoft/open/onedrive/?docId=42"
BOARD = "https://trello.com/b/Ab12Cd/sprint-board"
JIRA_BOARD = "https://acme.atlassian.net/jira/software/projects/WEB/boards/3"
DESIGN = "https://www.canva.com/design/DAF1/edit"

EDITING = (
    ("Freeze", SHEET),
    ("Freeze first row", SHEET),
    ("Freeze 2 columns", SHEET),
    ("Unfreeze", SHEET),
    ("Freeze panes", EXCEL),
    ("Freeze top row", EXCEL),
    ("Add card", BOARD),
    ("Add a card", BOARD),
    ("Archive card", BOARD),
    ("Create card", JIRA_BOARD),
    ("Remove background", DESIGN),
    ("Remove image background", "https://www.figma.com/design/K3y/landing"),
    ("Accept all suggestions", "https://docs.google.com/document/d/1Doc/edit"),
    ("Reject all suggestions", "https://docs.google.com/document/d/1Doc/edit"),
    ("Delete sheet", SHEET),
    ("Duplicate slide", "https://docs.google.com/presentation/d/1Deck/edit"),
)

COMMITTING = (
    ("Freeze", "https://admin.google.com/ac/users"),
    ("Freeze", "https://app.monzo.com/cards"),
    ("Freeze", ""),
    ("Add card", "https://trello.com/w/acme/billing"),
    ("Add card", "https://pay.google.com/gp/w/home/paymentmethods"),
    ("Add card", ""),
    ("Add payment card", BOARD),
    ("Suspend", SHEET),
    ("Buy now", SHEET),
    ("Delete", DESIGN),
    ("Remove member", BOARD),
    ("Accept all suggestions", ""),
    ("Delete sheet", ""),
    ("Delete", SHEET),
    ("Delete document", "https://docs.google.com/document/d/1Doc/edit"),
    ("Delete all", SHEET),
    ("Accept", "https://docs.google.com/document/d/1Doc/edit"),
)


@pytest.mark.parametrize(("label", "url"), EDITING)
def test_editing_command_on_its_editor_page_passes(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (label, url, got.rules, got.reason)


@pytest.mark.parametrize(("label", "url"), COMMITTING)
def test_same_words_where_they_commit_ask(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is not Decision.ALLOW, (label, url, got.reason)


# A bare "Reload" refreshes the page; with money's object, or on a prepaid card's or a wallet's page, it adds money.
# "Subscribe" on an issue or a pull request follows its notifications; on a pricing or billing page it pays.
# A bare "Accept" on a calendar's event page answers the invitation; elsewhere, or "Accept terms", it agrees.
# A help desk's "Apply macro" fills in the open ticket; "Enable macros" runs a document's code.
EVERYDAY_PAGES = (
    ("Reload", "https://news.ycombinator.com/"),
    ("Reload page", "https://status.example-cloud.com/"),
    ("Subscribe", "https://github.com/acme/widgets/issues/412"),
    ("Subscribe", "https://gitlab.com/acme/widgets/-/merge_requests/77"),
    ("Accept", "https://calendar.google.com/calendar/r/eventedit/MTIz"),
    ("Maybe", "https://outlook.office.com/calendar/item/AAMk"),
    ("Apply macro", "https://acme.zendesk.com/agent/tickets/1042"),
)
COMMITTING_PAGES = (
    ("Reload", "https://www.starbucks.com/account/cards"),
    ("Reload", "https://wallet.example.com/balance"),
    ("Reload card", "https://www.starbucks.com/"),
    ("Reload $25", "https://www.starbucks.com/"),
    ("Subscribe", "https://github.com/pricing"),
    ("Subscribe", "https://github.com/acme/widgets/issues/412/billing"),
    ("Accept", ""),
    ("Accept", "https://app.docusign.com/signing/documents/1"),
    ("Accept offer", "https://calendar.google.com/calendar/r/eventedit/MTIz"),
    ("Accept terms", "https://calendar.google.com/calendar/r/eventedit/MTIz"),
    ("Enable macros", ""),
    ("Apply now", "https://jobs.example.com/posting/77"),
)


@pytest.mark.parametrize(("label", "url"), EVERYDAY_PAGES)
def test_everyday_meaning_on_its_page_passes(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (label, url, got.rules, got.reason)


@pytest.mark.parametrize(("label", "url"), COMMITTING_PAGES)
def test_committing_meaning_still_asks(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is not Decision.ALLOW, (label, url, got.reason)
