"""Orders typed to an AI agent that acts on accounts with its tools: a request to delete what an account keeps asks.
Our own prompts and places, written from cloud providers' AI playgrounds and MCP clients' documentation."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
RULE = "confirm.typed.agent-destroy-request"


def typed(text: str, field: str = "Message", url: str = "", title: str = ""):
    data: dict = {"type": "type", "text": text, "target": {"label": field}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, window_title=title))


@pytest.mark.parametrize(("text", "url", "title"), [
    ("Remove the KV namespace 'sessions-old' from my account", "https://ai-playground.example.net/chat", ""),
    ("Can you terminate every EC2 instance tagged test?", "", "MCP Inspector"),
    ("now drop the analytics tables in the warehouse", "https://chatgpt.com/c/1", ""),
])
def test_an_order_to_delete_cloud_resources_asks(text, url, title):
    got = typed(text, url=url, title=title)
    assert got.decision is Decision.CONFIRM and RULE in got.rules, got.rules


@pytest.mark.parametrize(("text", "url"), [
    ("How do I delete a KV namespace safely?", "https://ai-playground.example.net/chat"),
    ("List the buckets in my account", "https://ai-playground.example.net/chat"),
    ("Write me a script that deletes old snapshots", "https://chatgpt.com/c/1"),
    ("Delete the draft and start over", "https://ai-playground.example.net/chat"),  # nothing an account keeps
    ("Please delete the old buckets when you are back", "https://mail.example.org/compose"),  # to a person
])
def test_questions_other_orders_and_messages_to_people_pass(text, url):
    assert RULE not in typed(text, url=url).rules
