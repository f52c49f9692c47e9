"""Links to files of this machine typed into notes, messages and issues: judged as reading the file they point at.
Our own paths and texts, written from the note apps' and mail clients' documentation of `file:` links, Markdown
images and UNC paths."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.rules.typed_links import linked_files

GATE = SafetyGate()


def typed(text: str, field: str | None = "Message", url: str = "", app: str = ""):
    data: dict = {"type": "type", "text": text}
    if field:
        data["target"] = {"label": field}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, app=app))


@pytest.mark.parametrize(("text", "field", "app"), [
    ("![diagram](file:///home/dana/.ssh/id_ed25519)", None, "Obsidian"),
    ("logs attached, see file:///Users/dana/.aws/credentials", "Comment", ""),
    ('<img src="~/.ssh/id_rsa">', "Body", ""),
    ("[keys](file://localhost/home/dana/.kube/config) for the cluster", "Issue description", ""),
])
def test_link_to_a_credential_file_blocks(text, field, app):
    got = typed(text, field, app=app)
    assert got.decision is Decision.BLOCK and "block.typed.secret-file-link" in got.rules, got.rules


@pytest.mark.parametrize("text", [
    r"the sheet is on \\files01\it\shared\passwords.xlsx",
    "settings in file:///srv/app/.env for you",
])
def test_link_to_a_sensitive_file_asks(text):
    got = typed(text)
    assert got.decision is Decision.CONFIRM and "confirm.typed.secret-file-link" in got.rules, got.rules


@pytest.mark.parametrize(("text", "field", "app"), [
    ("![cat](file:///home/dana/Pictures/cat.png)", None, "Obsidian"),
    ("report: file:///C:/Users/dana/Documents/q3-report.pdf", "Message", ""),
    ("[setup guide](/docs/setup) has the steps", "Comment", ""),
    ("keep your key in ~/.ssh/id_ed25519 and never share it", "Comment", ""),  # named, not linked
])
def test_link_to_an_ordinary_file_passes(text, field, app):
    got = typed(text, field, app=app)
    assert not {"block.typed.secret-file-link", "confirm.typed.secret-file-link"} & set(got.rules), got.rules


def test_paths_are_read_as_the_file_rules_take_them():
    assert linked_files("file:///C:/Users/x/a.txt and file://nas/share/b.txt") == ("C:/Users/x/a.txt",
                                                                                  "//nas/share/b.txt")
    assert linked_files(r"\\nas\share\c.txt") == ("//nas/share/c.txt",)


# -- a shortened link written to people ------------------------------------------------------------------------

MAIL = "https://mail.example.org/compose"


@pytest.mark.parametrize(("text", "field", "url"), [
    ("Hi all, the slides are here: https://tinyurl.com/q3-slides-final", "Message body", MAIL),
    ("see www.is.gd/abc123 before the call", "Reply", "https://chat.example.org/team/general"),
])
def test_a_shortened_link_in_a_message_asks(text, field, url):
    got = typed(text, field, url)
    assert got.decision is Decision.CONFIRM and "confirm.typed.short-link-in-message" in got.rules, got.rules


@pytest.mark.parametrize(("text", "field", "url"), [
    ("Hi all, the slides are here: https://docs.example.org/q3/slides", "Message body", MAIL),
    ("https://tinyurl.com/q3-slides-final", "Search", "https://www.example-search.org/"),
])
def test_a_full_link_or_a_short_link_searched_for_passes(text, field, url):
    assert "confirm.typed.short-link-in-message" not in typed(text, field, url).rules
