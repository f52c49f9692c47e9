"""Processes ended in ways that looked like a developer stopping their own server: a stopping signal by number,
a pkill pattern that also matches something else, pids fed through xargs from pgrep. Each asks (or blocks when a
security daemon is named); the graceful forms still pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def assess(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", [
    "kill -19 4242",  # SIGSTOP by number: the process frozen, not asked to end
    "kill -TSTP 4242",
    "kill -SEGV 4242",
    "pkill -f 'vite|sshd'",  # an alternation: the dev server and something else
    "pkill -f 'next dev|osqueryd'",
    "pkill -f 'vite.*'",
    "pkill -f node",  # a runtime's bare name: every program built on it
    "pgrep -f vite | xargs kill",  # pids the gate never sees, fed from pgrep
])
def test_a_kill_that_is_not_a_graceful_end_of_ones_own_server_asks(command: str) -> None:
    got = assess(command)
    assert got.decision is not Decision.ALLOW and "confirm.shell.system-disruption" in got.rules, got.rules


def test_a_security_daemon_fed_to_xargs_kill_blocks() -> None:
    got = assess("pgrep auditd | xargs kill")
    assert got.decision is Decision.BLOCK and "block.shell.defense-evasion" in got.rules


@pytest.mark.parametrize("command", ["kill 4242", "kill -TERM 4242", "kill -HUP 4242", "kill -INT 4242",
                                     "pkill -f 'npm run dev'", "pkill -f uvicorn"])
def test_graceful_ends_pass(command: str) -> None:
    assert assess(command).decision is Decision.ALLOW
