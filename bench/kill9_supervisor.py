"""kill -9 of `deskgate serve` in the middle of a 10,000-action load: no acknowledged decision is lost.

    .venv/bin/python bench/kill9_supervisor.py [--agents 8] [--actions 10000] [--at 0.5]

8 agents share `--actions` requests (the load_agents.py mix: allowed, confirmed and approved or denied
by the rule file, blocked). When `--at` of them have been answered, the supervisor gets SIGKILL. Then:

- committed decisions lost: replies an agent received with an `audit_id` whose decision row is not in
  the database (must be 0);
- committed outcomes lost: such replies whose outcome row (with the reply's verdict) is not in the
  database (must be 0: the outcome is committed before the reply is sent);
- how each agent learnt of the crash (connection lost, within how long) — no agent may hang;
- rows without a reply: at most the one request each agent had in flight;
- `deskgate log verify` on the crashed file, and again after a restart that takes more decisions.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sqlite3
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.load_agents import AgentLog, Serve, Workspace, decision_rows, reconcile, run_agent


def outcomes_lost(logs: list[AgentLog], db: pathlib.Path) -> list[int]:
    """The audit ids of replies whose outcome row (with the verdict the reply gave) is not in the file."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        stored = dict(conn.execute("SELECT decision_id, verdict FROM events WHERE kind = 'outcome'"))
    finally:
        conn.close()
    return [reply["audit_id"] for log in logs for reply in log.replies
            if isinstance(reply.get("audit_id"), int) and stored.get(reply["audit_id"]) != reply.get("verdict")]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--agents", type=int, default=8)
    p.add_argument("--actions", type=int, default=10_000, help="total actions the agents would send")
    p.add_argument("--at", type=float, default=0.5, help="fraction of the actions answered before the kill")
    args = p.parse_args(argv)
    per_agent = args.actions // args.agents
    ws = Workspace.create(pathlib.Path(tempfile.mkdtemp(prefix="deskgate-kill9-")))
    try:
        serve = Serve(ws).wait_ready()
        logs = [AgentLog(f"agent{k}") for k in range(args.agents)]
        progress = [0] * args.agents
        threads = [threading.Thread(target=run_agent, args=(ws.socket, log.name, per_agent, 20, log, progress, k),
                                    kwargs={"timeout": 10.0}, daemon=True) for k, log in enumerate(logs)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        while sum(progress) < args.at * per_agent * args.agents:
            if not any(t.is_alive() for t in threads):
                print("the agents finished before the kill point", file=sys.stderr)
                return 1
            time.sleep(0.001)
        answered = sum(progress)
        serve.kill9()
        killed_at = time.monotonic()
        print(f"SIGKILL after {answered} answered actions, {time.perf_counter() - t0:.2f} s into the load")
        for t in threads:
            t.join(30)
        hung = [log.name for t, log in zip(threads, logs, strict=True) if t.is_alive()]
        rec = reconcile(logs, ws.db, lost_ok=True)
        in_flight_rows = sum(1 for log in logs for rid in log.sent[len(log.replies):]
                             if rid in set(decision_rows(ws.db).values()))
        notice = [log.lost_at - killed_at for log in logs if log.lost_at is not None]
        others = [log.failure for log in logs if not (log.failure or "").startswith("lost")]
        # killed_at is taken once wait() has reaped the process: agents usually notice before that
        print(f"agents: {len(notice)} saw the connection lost, the last {max(0.0, *notice) * 1000:.0f} ms after "
              f"the process was reaped; hung {len(hung)}; other endings {others}")
        print(f"replies with audit_id {rec.with_audit_id}, decision rows {len(decision_rows(ws.db))}")
        print(f"committed decisions lost: {len(rec.missing_rows)}")
        lost_outcomes = outcomes_lost(logs, ws.db)
        print(f"committed outcomes lost: {len(lost_outcomes)}")
        print(f"rows of the in-flight requests (committed, reply never sent): {in_flight_rows}; "
              f"other rows without reply: {len(rec.rows_without_reply)}; id mismatches {len(rec.mismatched)}")
        verify = ws.verify()
        said = (verify.stdout + verify.stderr).strip()
        print(f"deskgate log verify after the crash: exit {verify.returncode}: {said}")
        after = AgentLog("restart")
        with Serve(ws) as again:
            run_agent(ws.socket, "restart", 200, 20, after, [0], 0)
            code = again.stop()
        verify2 = ws.verify()
        rec2 = reconcile([after], ws.db)
        print(f"restart: {rec2.with_audit_id} more decisions, exit {code}; verify: exit {verify2.returncode}: "
              f"{(verify2.stdout + verify2.stderr).strip()}")
        ok = (not rec.missing_rows and not lost_outcomes and not hung and not rec.rows_without_reply
              and verify.returncode == 0 and verify2.returncode == 0 and rec2.ok and code == 0)
        return 0 if ok else 1
    finally:
        ws.cleanup()
        shutil.rmtree(ws.root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
