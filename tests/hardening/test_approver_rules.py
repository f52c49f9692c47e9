"""The approver rule file approves with the same matcher as the policy's allow rules: never a complex
shell string (chains, pipes, substitutions, redirects), whatever its glob says. Real server, supervisor,
gate and rule file."""

from __future__ import annotations

import pytest

from app.agent.client import Client

POLICY = """
[gate]
modes = { shell = "ask" }

[fence]
enabled = false
required = false
"""

RULES = """
[[rule]]
id = "git-status"
decision = "approve"
command = "git status*"
"""


@pytest.mark.parametrize("command", [
    "git status; touch ~/projects/planted",
    "git status && touch ~/projects/planted",
    "git status | tee ~/projects/planted",
    "git status > ~/projects/planted",
    "git status $(touch ~/projects/planted)",
    "git status `touch ~/projects/planted`",
    "git status\ntouch ~/projects/planted",
])
def test_a_glob_never_approves_a_complex_command(deskgate_home, serve_in_process, command):
    home = deskgate_home(POLICY, RULES)
    serve_in_process(home)
    with Client(home["socket"], timeout=30) as c:
        c.hello("approver-test")
        reply = c.act({"type": "shell", "command": command}, execute=False)
        assert reply["verdict"] == "denied", reply
        simple = c.act({"type": "shell", "command": "git status --short"}, execute=False)
        assert simple["verdict"] == "allowed" and simple["decided_by"] == "headless-rule", simple
