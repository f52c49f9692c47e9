"""A shell string nested deeper than the analysis can walk (`$($($(...)))`, `((((...))))`) is not an
internal error that skips the audit log and the person: the gate judges it as a string it could not
analyse (confirm.shell.unparsable), on the direct path, in a tool call and in a plan."""

from __future__ import annotations

import pytest

from app.agent.client import Client
from gate import SafetyGate, default_policy
from gate.model import action_from_dict

DEEP = {
    "command substitution": "$(" * 2600 + "rm -rf ~" + ")" * 2600,
    "subshells": "(" * 3000 + "rm -rf ~" + ")" * 3000,
    "backquoted in quotes": "echo \"$(echo \"" * 1300 + "x" + "\")" * 1300,
    "groups": "{ " * 2500 + "rm -rf ~; " + "}; " * 2500,
}


@pytest.mark.parametrize("command", DEEP.values(), ids=DEEP.keys())
def test_deep_nesting_is_judged_not_an_error(command: str) -> None:
    got = SafetyGate(default_policy()).assess(action_from_dict({"type": "shell", "command": command}))
    assert got.decision.value in ("confirm", "block"), got
    assert "confirm.shell.unparsable" in got.rules or got.decision.value == "block", got.rules


POLICY = """
[fence]
enabled = false
required = false
"""


def test_deep_nesting_over_the_socket_is_a_logged_decision(deskgate_home, serve_in_process) -> None:
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    with Client(home["socket"], timeout=60) as dg:
        dg.hello("nester")
        reply = dg.act({"type": "shell", "command": DEEP["command substitution"]}, execute=False)
        assert reply["decision"] in ("confirm", "block"), reply
        assert reply.get("audit_id"), reply
        tool = dg.act({"type": "tool", "name": "Bash", "input": {"command": DEEP["subshells"]}}, execute=False)
        assert tool["decision"] in ("confirm", "block"), tool
    assert rt.supervisor.state == "active"
