"""The shared readers of a GUI action (gate/fields.py): what a field is, where a page is, and that the rule
families read them from that one public module rather than from each other's private names."""

from __future__ import annotations

import ast
import pathlib

import pytest

from gate import action_from_dict, fields
from gate.model import Observation
from gate.rules.base import Context

ROOT = pathlib.Path(__file__).resolve().parents[2]


def ctx(kind: str = "type", label: str | None = None, url: str | None = None, text: str = "hello") -> Context:
    data: dict = {"type": kind, "x": 1, "y": 1} if kind == "click" else {"type": kind, "text": text}
    if label:
        data["target"] = {"label": label}
    if url:
        data["url"] = url
    return Context(action_from_dict(data), Observation(url=url or ""))


@pytest.mark.parametrize("module", ["typed_lures", "typed_out", "page", "webapp"])
def test_rule_families_read_fields_from_the_public_module(module):
    tree = ast.parse((ROOT / "gate" / "rules" / f"{module}.py").read_text(encoding="utf-8"))
    private = [(node.module, alias.name) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               and node.module in ("gate.rules.gui", "gate.rules.web")
               for alias in node.names if alias.name.startswith("_")]
    assert private == [], private


def test_a_message_field_and_a_form_field():
    assert fields.message_field(ctx(label="Write a comment"))
    assert fields.message_field(ctx(label="Message body"))
    # a shipping or contact form is where an address is asked for
    assert not fields.message_field(ctx(label="Shipping address"))
    assert not fields.message_field(ctx(label="Search"))


def test_the_page_host_and_path():
    c = ctx(label="Reply", url="https://mail.example.org/inbox/compose?id=4")
    assert fields.page_host(c) == "mail.example.org"
    assert fields.page_path(c) == "/inbox/compose"
    assert fields.page_host(ctx(label="Reply")) == ""
    assert fields.compose_window("https://mail.example.org/compose/new")
    assert not fields.compose_window("https://shop.example.org/compose/new")  # no mail page


def test_text_forms_and_the_place_a_field_names():
    t = fields.text_of("Current_Password")
    assert t.words == "current password"
    assert fields.text_of("") is fields.EMPTY
    assert fields.field_place(ctx(label="Notes")) == "field 'Notes'"
    assert fields.field_place(ctx()) == "a field"
    assert fields.short("x" * 100, 10) == "x" * 9 + "…"


def test_a_host_named_like_a_scam_site():
    assert fields.scam_named("secure-login-verify.example.net")
    assert fields.scam_named("account-verify.example") is not None
    assert fields.scam_named("secure.example.com") is None  # one scam word as a subdomain
    assert fields.scam_named("freecodecamp.org") is None
