"""A settings template written with placeholders for its secrets passes; a real value in a template, or a
placeholder-looking key in a file that is no template, still asks."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import action_from_dict
from gate.rules.secret_templates import without_placeholders

GATE = SafetyGate(default_policy())


def write(path: str, content: str) -> str:
    a = GATE.assess(action_from_dict({"type": "file_write", "path": path, "content": content}))
    return a.decision.value


@pytest.mark.parametrize(("path", "content"), [
    ("api/.env.example", "DATABASE_URL=postgres://<user>:<password>@localhost:5432/app\nSESSION_SECRET=<random>\n"),
    ("web/.env.sample", "OPENAI_API_KEY=sk-proj-your-key-here\nSTRIPE_API_KEY=sk_live_...\n"),
    ("deploy/values.template.yaml", "token: ghp_your_token_here\npassword: changeme\n"),
])
def test_a_template_with_placeholders_passes(path, content):
    assert write(path, content) == "allow", (path, content)


@pytest.mark.parametrize(("path", "content"), [
    ("api/.env.example", "GITHUB_TOKEN=ghp_9fK2mQ7rT4vX8zB1nC6hJ3wL5pD0sA2eY7uI\n"),
    ("src/config.py", "OPENAI_API_KEY = 'sk-proj-your-key-here'\n"),
])
def test_a_real_value_or_no_template_still_asks(path, content):
    assert write(path, content) == "confirm", (path, content)


def test_only_template_names_lose_their_placeholder_lines():
    text = "A=<x>\nB=real\n"
    assert without_placeholders("conf/.env.dist", text) == "B=real"
    assert without_placeholders("conf/.env", text) == text
