"""Load through a real `deskgate serve --headless` subprocess: the short form of bench/load_agents.py.

8 agents on their own connections send a mix of allowed, confirmed (approved / denied by the rule file)
and blocked actions; halfway through a person kills deskgate and resumes it from the command line. Every
request must get exactly one reply with its own id, the replies and the decision rows must match one to
one, the hash chain must verify and the supervisor's memory must stay bounded.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench.load_agents import Serve, Workspace, reconcile, run_load

AGENTS = 8
ACTIONS = 60  # per agent: 480 decisions asked for, plus the warm-up


@pytest.fixture
def ws(tmp_path: Path):
    workspace = Workspace.create(tmp_path / "ws")
    yield workspace
    workspace.cleanup()


def test_eight_agents_with_confirmations_and_a_kill(ws: Workspace) -> None:
    with Serve(ws) as serve:
        result = run_load(ws, serve, agents=AGENTS, actions=ACTIONS, execute_every=5, kill_at=0.4)
        assert serve.stop() == 0, serve.log()
    rec = reconcile(result.logs, ws.db)
    assert all(log.failure is None for log in result.logs), [log.failure for log in result.logs]
    assert rec.requests == AGENTS * (ACTIONS + 1)  # hello + the actions
    assert rec.replies == rec.requests and not rec.unanswered
    assert not rec.mismatched, rec.mismatched[:5]
    assert not rec.stray, rec.stray
    # one decision row per reply that names one, and no row that no reply names
    assert not rec.missing_rows and not rec.wrong_rows, (rec.missing_rows[:5], rec.wrong_rows[:5])
    assert not rec.rows_without_reply, rec.rows_without_reply[:5]
    assert rec.with_audit_id == rec.rows
    # the mix really happened: executions, approvals that only check, denials, blocks, and the kill
    assert rec.verdicts["executed"] > 0 and rec.verdicts["allowed"] > 0 and rec.verdicts["denied"] > 0
    assert rec.codes["killed"] > 0, "the kill landed after the agents finished"
    assert set(rec.codes) <= {"killed"}, rec.codes
    assert rec.verdicts["executed"] > rec.codes["killed"] / 10  # and it resumed
    verify = ws.verify()
    assert verify.returncode == 0, verify.stdout + verify.stderr
    growth_mb = (result.rss_after_kb - result.rss_before_kb) / 1024
    assert growth_mb < 50, f"supervisor RSS grew {growth_mb:.1f} MiB"


def test_without_a_kill_every_request_is_decided_and_logged(ws: Workspace) -> None:
    """No kill: every request decided and logged, the verdicts exactly what the mix and the rules say."""
    with Serve(ws) as serve:
        result = run_load(ws, serve, agents=AGENTS, actions=25, kill_at=None)
        assert serve.stop() == 0
    rec = reconcile(result.logs, ws.db)
    assert rec.ok, rec
    assert not rec.codes
    assert rec.rows == AGENTS * 25 == rec.with_audit_id
    # per agent, of 25: 13 `wait` + 1 approved and run `echo ok-…` executed; 3 more approved with
    # execute:false; 4 `echo no-…` denied by the rule file; 4 format_disk blocked by the policy
    assert rec.verdicts["executed"] == AGENTS * 14
    assert rec.verdicts["allowed"] == AGENTS * 3
    denied_by = Counter(r["decided_by"] for log in result.logs for r in log.replies if r.get("verdict") == "denied")
    assert denied_by == {"headless-rule": AGENTS * 4, "policy": AGENTS * 4}
    replies = [r for log in result.logs for r in log.replies]
    ran = [r for r in replies if r.get("verdict") == "executed" and r["decision"] == "confirm"]
    assert len(ran) == AGENTS and all(r["result"]["exit_code"] == 0 for r in ran), ran[:2]
