"""`check` without `hello` is bounded and counted like any other request.

Before, a `check` on a connection that never said `hello` was neither limited nor logged: a flood of
them (60 connections of 7.9 kB pipe strings) held the server's threads and nothing in the log said so.
Now each one counts against its process's and its uid's rate, a refusal is logged like any limit refusal
(queued for the next group commit), and each answered check leaves a line (decision and rules only).
"""

from __future__ import annotations

import sqlite3

import pytest

from app.agent.client import Client, LimitExceeded

POLICY = """
[fence]
enabled = false
required = false

[limits]
actions_per_minute = 10
uid_actions_per_minute = 1000
max_steps = 1000
sessions_per_hour = 1000
"""


def _events(db, kind: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("SELECT data FROM events WHERE kind = ?", (kind,))]


def test_sessionless_checks_count_against_the_process_rate_and_are_logged(deskgate_home, serve_in_process):
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    answered, refused = 0, None
    for _ in range(15):  # a new connection each time: no session, no name
        with Client(home["socket"], timeout=30) as dg:
            try:
                dg.check({"type": "shell", "command": "echo hi"})
                answered += 1
            except LimitExceeded as err:
                refused = err
                break
    assert answered == 10
    assert refused is not None and "actions_per_minute" in refused.message
    rt.stop()
    checks = _events(home["db"], "check")
    assert len(checks) == 10 and all('"decision"' in c and "echo hi" not in c for c in checks)
    assert any("actions_per_minute" in e for e in _events(home["db"], "error"))


def test_a_uid_rate_covers_sessionless_checks_too(deskgate_home, serve_in_process):
    home = deskgate_home(POLICY.replace("uid_actions_per_minute = 1000", "uid_actions_per_minute = 4")
                         .replace("actions_per_minute = 10", "actions_per_minute = 100"))
    serve_in_process(home)
    with Client(home["socket"], timeout=30) as dg:
        for _ in range(4):
            dg.check({"type": "wait", "seconds": 0})
        with pytest.raises(LimitExceeded, match="uid_actions_per_minute"):
            dg.check({"type": "wait", "seconds": 0})
