"""A link whose path carries a person's contact record or a sentence (gate/rules/url_path_data.py)."""

from __future__ import annotations

import pytest

from gate.model import action_from_dict
from gate.policy import default_policy
from gate.rules import url_path_data
from gate.rules.base import Context


def fired(url: str) -> set[str]:
    ctx = Context(action_from_dict({"type": "navigate", "url": url}), policy=default_policy())
    return {h.rule for r in url_path_data.RULES if (h := r(ctx)) is not None}


@pytest.mark.parametrize("url", [
    "https://pix.example-cdn.net/Maria%20Lopez/+44%207700%20900123/maria.lopez@example.org/",
    "https://collect.example.io/a/b/5550100199/jdoe@example.com",
])
def test_a_contact_record_in_the_path_blocks(url: str) -> None:
    assert fired(url) == {"block.web.path-exfiltration"}


@pytest.mark.parametrize("url", [
    "https://log.example.net/the%20user%20is%20planning%20a%20trip%20to%20Lisbon",
    "https://notes.example.org/summary=quarterly%20numbers%20look%20weak",
])
def test_a_sentence_as_the_whole_path_asks(url: str) -> None:
    assert fired(url) == {"confirm.web.path-exfiltration"}


@pytest.mark.parametrize("url", [
    "https://mail.example.com/mail/u/jdoe@example.com/",  # a mailbox's own address, no phone
    "https://jobs.example.com/openings/5429000001",  # an id, no email
    "https://files.example.com/Quarterly%20Report%20for%20the%20Board.pdf",  # a document named with spaces
    "https://shop.example.com/search/red%20running%20shoes%20for%20men",  # a search folder
    "https://blog.example.com/how-to-plan-a-trip-to-lisbon",  # a slug
    "http://localhost:8081/the%20guest%20list%20for%20saturday",  # this machine
    "https://social.example/@jdoe",
])
def test_ordinary_paths_pass(url: str) -> None:
    assert fired(url) == set()
