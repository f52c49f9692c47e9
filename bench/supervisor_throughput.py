"""Sustained decision throughput: 8 concurrent agents through the Supervisor, every decision durable.

    .venv/bin/python bench/supervisor_throughput.py [--agents 8] [--seconds 3] [--rounds 3]
        [--socket [--clients processes]] [--stages] [--writer audit|handoff|none]

Each agent has its own session and sends allowed actions (`move`, varied so loop detection stays
quiet) as fast as it can; the executor is a no-op (this measures the supervisor and the audit log, not
pyautogui); each makes one decision before the clock starts (the gate compiles its patterns on first
use). Every decision row is committed (synchronous=FULL) before the action runs, and its outcome row
(with the execution event queued before it) is committed before the reply: two durable writes per
request, each shared with the other agents' rows in group commits. With --socket the agents go through
the real Server and Client as well: as threads of this process (their client's CPU then counts in the
supervisor's interpreter) or, with `--clients processes`, as processes of their own, as real agents are.

Baseline, measured in the same run on the same disk: the same number of threads, each decision being
one synchronously committed SQLite row (WAL, synchronous=FULL) through one shared connection: what a
straightforward "commit every row" audit log would sustain. Printed: decisions/s, the ratio to the
baseline, and the DESIGN §6 target (≥ 2,000 decisions/s). After the run every reply's audit id is
checked against the database (its decision row and its outcome row) and the hash chain is verified.

`--writer` takes the audit log apart, to show what bounds the figure (nothing is stored by the two
diagnostic writers, so nothing is checked after them):
  audit    the real log (the default).
  handoff  everything of the log up to the commit (redaction, encoding, the queue, the writer thread,
           its linger and the relay waking the callers one at a time), but the commit stores nothing and
           costs nothing: what handing each row to the writer thread and waiting for it costs by itself.
  none     rows redacted and encoded as for the log, and "committed" at once on the caller's thread:
           the request path alone, with no thread hand-off.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import itertools
import os
import pathlib
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from app.audit.reader import AuditReader
from app.audit.writer import AuditLog
from app.config import Paths
from app.daemon.approvers import DenyAllApprover
from app.daemon.supervisor import Supervisor
from app.protocol import Act, Hello
from gate import SafetyGate, action_from_dict, load_policy
from gate.model import Observation

TARGET = 2000.0
POLICY = """
[limits]
max_steps = 1000000000
actions_per_minute = 1000000000
uid_actions_per_minute = 999999
sessions_per_hour = 1000
"""


@dataclasses.dataclass
class _Result:
    ok: bool = True
    detail: dict = dataclasses.field(default_factory=dict)
    error: Any = None


class NoopExecutor:
    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def execute(self, action: Any, policy: Any) -> _Result:
        with self._lock:
            self.count += 1
        return _Result()

    def cancel_all(self) -> int:
        return 0


class StaticDesktop:
    """A desktop kept current by events costs nothing to observe; this one never changes."""

    def __init__(self) -> None:
        self.obs = Observation(window_title="bench - Editor", app="editor", screen_width=1920,
                               screen_height=1080)

    def observe(self) -> Observation:
        return self.obs

    def observe_fresh(self) -> Observation:
        return self.obs

    def observe_for(self, action: Any, *, fresh: bool = False) -> Observation:
        return self.obs

    def preview(self, action: Any) -> None:
        return None


def _actions(agent: int, n: int) -> list[Any]:
    # distinct per agent and per step: loop detection must not turn the load into blocks
    return [action_from_dict({"type": "move", "x": (i * 7 + agent) % 1900, "y": (i // 1900 + agent) % 1000})
            for i in range(n)]


# --stages: thread CPU (CLOCK_THREAD_CPUTIME_ID) spent inside each stage, per decision. Each entry:
# (label, class path, method). Inclusive: a stage's figure holds the stages listed under it (indented).
STAGES = (
    ("agent: one request, whole (Connection.handle)", "app.daemon.connection:Connection", "handle"),
    ("  limits (session + peer budget)", "app.daemon.pipeline:Pipeline", "_check_limits"),
    ("  desktop read (observe_for)", "app.daemon.pipeline:Pipeline", "_observe"),
    ("  line attach (lines.py)", "app.daemon.lines:LineBook", "attach"),
    ("  gate assess + approval key (decide_one)", "app.daemon.assessor:Assessor", "decide_one"),
    ("    gate assess", "gate.engine:SafetyGate", "assess"),
    ("  decision row: redact + build + hand-off", "app.audit.writer:AuditLog", "record_decision"),
    ("  execute step (executor + execution event)", "app.daemon.steps:StepRunner", "execute"),
    ("    execution event (redact + queue)", "app.audit.writer:AuditLog", "record_event"),
    ("  outcome row: build + hand-off", "app.audit.writer:AuditLog", "record_outcome"),
    ("  every row: queue + wake + wait (_submit)", "app.audit.writer:AuditLog", "_submit"),
    ("writer: one group commit, whole (_commit)", "app.audit.writer:AuditLog", "_commit"),
    ("  chain rows (hash + params)", "app.audit.writer:AuditLog", "_apply"),
    ("  INSERTs (_Head.flush)", "app.audit.writer:_Head", "flush"),
    ("  file checks before the commit", "app.audit.writer:AuditLog", "_files_problem"),
    ("socket: read + parse + dispatch + reply (server)", "app.daemon.server:Server", "_one_line"),
    ("  reply encode + send", "app.daemon.server:Server", "_send"),
    ("  parse + validate (protocol.parse_request)", "app.daemon.server", "parse_request"),
    ("client: one act, whole (Client._request)", "app.agent.client:Client", "_request"),
)


def _staged(totals: dict[str, list[float]]) -> Callable[[], None]:
    """Wrap each stage's function with a thread-CPU counter; returns the undo."""
    import importlib

    undo = []
    for label, where, name in STAGES:
        modname, _, cls = where.partition(":")
        try:
            owner: Any = importlib.import_module(modname)
            if cls:
                owner = getattr(owner, cls)
        except (ImportError, AttributeError):
            continue
        original = owner.__dict__.get(name) if cls else getattr(owner, name, None)
        if original is None:
            continue
        cell = totals.setdefault(label, [0.0, 0])

        def wrapped(*args: Any, __f: Any = original, __c: list = cell, **kw: Any) -> Any:
            t0 = time.thread_time()
            try:
                return __f(*args, **kw)
            finally:
                __c[0] += time.thread_time() - t0
                __c[1] += 1

        setattr(owner, name, wrapped)
        undo.append((owner, name, original))
    return lambda: [setattr(o, n, f) for o, n, f in undo] and None


class _HandoffLog(AuditLog):
    """`--writer handoff`: the log's queue, writer thread, linger and relay, with commits that store
    nothing (ids are counted). A diagnostic: it reaches into the writer's private `_commit`."""

    def _commit(self, batch: list[Any]) -> None:
        relay = []
        for job in batch:
            job.result = next(self._ids)
            if job.kind == "row" and job.wait:
                relay.append(job)
            elif job.kind != "row":
                job.done.release()
        self._commits += 1
        if relay:  # as the real commit wakes them: the first now, each of the others by the one before
            with self._submit_lock:
                self._relay.extend(relay[1:])
            relay[0].done.release()

    _ids = itertools.count(1)


class _UnwrittenLog(AuditLog):
    """`--writer none`: each row is redacted and encoded as for the log, then returned at once on the
    caller's thread (no queue, no writer, no wait). A diagnostic: it replaces the private `_submit`."""

    def _submit(self, job: Any) -> Any:
        self._building.pop(job.thread, None)
        if job.kind != "row":
            return None
        return next(self._ids) if job.wait else None

    _ids = itertools.count(1)


WRITERS = {"audit": AuditLog, "handoff": _HandoffLog, "none": _UnwrittenLog}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def baseline(path: pathlib.Path, threads: int, seconds: float, cpu: list[float] | None = None) -> float:
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, ts REAL, body TEXT)")
    lock = threading.Lock()
    counts = [0] * threads
    stop = time.perf_counter() + seconds
    body = '{"type":"move","x":1,"y":2}'

    def run(k: int) -> None:
        while time.perf_counter() < stop:
            with lock:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("INSERT INTO t (ts, body) VALUES (?, ?)", (time.time(), body))
                conn.execute("COMMIT")
            counts[k] += 1

    started, cpu0 = time.perf_counter(), _cpu()
    ts = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    elapsed = time.perf_counter() - started
    if cpu is not None:  # reporting only: the process's CPU seconds over the run
        cpu.append(_cpu() - cpu0)
    conn.close()
    return sum(counts) / elapsed


def _agent_process(path: str, k: int, barrier: Any, stop_at: Any, out: Any) -> None:
    """One agent as its own process (`--clients processes`): what a real agent is, with its own interpreter."""
    from app.agent.client import Client

    ids: list[int] = []
    bad: list[str] = []
    with Client(path, timeout=30) as dg:
        dg.hello(f"bench-{k}")
        actions = [{"type": "move", "x": (i * 7 + k) % 1900, "y": (i // 1900 + k) % 1000} for i in range(50_000)]
        warm = dg.act(actions[-1])["audit_id"]
        barrier.wait()
        i = 0
        while time.perf_counter() < stop_at.value:  # CLOCK_MONOTONIC: the same clock in every process
            reply = dg.act(actions[i % len(actions)])
            if reply["verdict"] != "executed":
                bad.append(reply["verdict"])
            ids.append(reply["audit_id"])
            i += 1
    out.put((k, warm, ids, bad))


def supervised(root: pathlib.Path, agents: int, seconds: float, use_socket: bool,
               report: dict[str, float] | None = None, client_processes: bool = False,
               writer: str = "audit") -> tuple[float, int, list[int]]:
    root.mkdir(parents=True, exist_ok=True)
    (root / "policy.toml").write_text(POLICY)
    policy = load_policy(root / "policy.toml")
    paths = Paths.for_testing(root)
    audit = WRITERS[writer](paths.db, state_dir=paths.db.parent / "state")  # its chain head beside it, not in ~
    executor = NoopExecutor()
    sup = Supervisor(gate=SafetyGate(policy), audit=audit, desktop=StaticDesktop(), executor=executor,
                     approver=DenyAllApprover(), policy=policy, paths=paths)
    server = None
    if use_socket:
        from app.daemon.server import Server

        sock = pathlib.Path(tempfile.mkdtemp(prefix="dgb-")) / "s.sock"
        server = Server(sock, sup.connect)
        server.start()
        threading.Thread(target=server.serve_forever, daemon=True).start()
    ids: list[list[int]] = [[] for _ in range(agents)]
    bad: list[str] = []
    # one decision per agent before the clock starts: the gate compiles the policy's patterns on first use
    warm: list[int] = []
    barrier = threading.Barrier(agents + 1)
    stop_at = [float("inf")]

    def agent_inprocess(k: int) -> None:
        conn = sup.connect(type("Peer", (), {"pid": os.getpid(), "uid": os.getuid(), "gid": os.getgid()})())
        conn.handle(Hello(v=1, id="h", agent=f"bench-{k}"))
        actions = _actions(k, 200_000)
        warm.append(conn.handle(Act(v=1, id="warm", action=actions[-1]))["audit_id"])
        barrier.wait()
        i = 0
        while time.perf_counter() < stop_at[0]:
            reply = conn.handle(Act(v=1, id=str(i), action=actions[i % len(actions)]))
            if reply["verdict"] != "executed":
                bad.append(reply["verdict"])
            ids[k].append(reply["audit_id"])
            i += 1
        conn.close()

    def agent_socket(k: int) -> None:
        from app.agent.client import Client

        with Client(server.socket_path, timeout=30) as dg:  # type: ignore[union-attr]
            dg.hello(f"bench-{k}")
            actions = _actions(k, 50_000)
            warm.append(dg.act(actions[-1])["audit_id"])
            barrier.wait()
            i = 0
            while time.perf_counter() < stop_at[0]:
                reply = dg.act(actions[i % len(actions)])
                if reply["verdict"] != "executed":
                    bad.append(reply["verdict"])
                ids[k].append(reply["audit_id"])
                i += 1

    if client_processes and server is not None:
        import multiprocessing

        mp = multiprocessing.get_context("spawn")  # this process has threads: no fork
        mp_barrier, mp_stop, out = mp.Barrier(agents + 1), mp.Value("d", float("inf"), lock=False), mp.Queue()
        procs = [mp.Process(target=_agent_process, args=(str(server.socket_path), k, mp_barrier, mp_stop, out))
                 for k in range(agents)]
        for p in procs:
            p.start()
        mp_barrier.wait(timeout=120)  # every agent has its session; the clock starts now
        started, cpu0, commits0 = time.perf_counter(), _cpu(), audit.commits
        mp_stop.value = started + seconds
        for _ in procs:
            k, first, got, refused = out.get(timeout=seconds + 120)
            warm.append(first)
            ids[k] = got
            bad.extend(refused)
        elapsed = time.perf_counter() - started
        for p in procs:
            p.join()
    else:
        target = agent_socket if use_socket else agent_inprocess
        threads = [threading.Thread(target=target, args=(k,)) for k in range(agents)]
        for t in threads:
            t.start()
        barrier.wait()  # every agent has its session; the clock starts now
        started, cpu0, commits0 = time.perf_counter(), _cpu(), audit.commits
        stop_at[0] = started + seconds
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
    if report is not None:  # reporting only: the process's CPU seconds and the group commits over the run
        report.update(cpu=_cpu() - cpu0, commits=audit.commits - commits0)
    if server is not None:
        server.stop()
    audit.close()
    if bad:
        raise SystemExit(f"{len(bad)} decisions were not executed: {sorted(set(bad))}")
    flat = [i for per in ids for i in per]
    return len(flat) / elapsed, executor.count, flat + warm


def _durable(root: pathlib.Path, flat: list[int], executed: int) -> tuple[bool, str]:
    """Every decision the agents were told about is in the file, committed, and the chain holds."""
    db = root / "data" / "audit.db"
    with AuditReader(db, state_dir=pathlib.Path(db).parent / "state") as log:
        stored = log.count()
        verified = log.verify()
    with contextlib.closing(sqlite3.connect(db)) as conn:
        outcomes = {row[0] for row in conn.execute("SELECT decision_id FROM events WHERE kind = 'outcome'")}
    ok = stored == len(flat) == len(set(flat)) == executed and outcomes >= set(flat) and verified.ok
    return ok, (f"{stored} decision rows and {len(outcomes & set(flat))} outcome rows for {len(flat)} replies, "
                f"{executed} executions; chain verifies: {verified.ok} ({verified.rows} rows)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=3.0, help="per run (each round: one baseline, one supervised)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="baseline and supervised runs, taking turns (on a shared machine the disk and the CPU "
                         "change from second to second: the median of each round's ratio is reported)")
    ap.add_argument("--socket", action="store_true", help="go through the real Server and Client too")
    ap.add_argument("--clients", choices=("threads", "processes"), default="threads",
                    help="with --socket: the agents as threads of this process (their CPU counts in its "
                         "interpreter) or as processes of their own, as real agents are")
    ap.add_argument("--dir", type=pathlib.Path, help="where the databases go (default: a temp dir)")
    ap.add_argument("--writer", choices=tuple(WRITERS), default="audit",
                    help="the real audit log, or a diagnostic one that stores nothing (see the module doc)")
    ap.add_argument("--stages", action="store_true",
                    help="also print the thread CPU per decision of each stage (the counters slow the run)")
    args = ap.parse_args(argv)
    root = args.dir or pathlib.Path(tempfile.mkdtemp(prefix="deskgate-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    path = (f"socket + supervisor + audit, clients as {args.clients}" if args.socket
            else "supervisor + audit (in process)")
    print(f"disk: {root}; {args.agents} agents, {path}; {args.rounds} rounds of {args.seconds:g} s each")
    if args.writer != "audit":
        print(f"DIAGNOSTIC: --writer {args.writer}, the decisions are not stored")
    print("baseline: as many threads, one synchronous SQLite commit per decision (WAL, synchronous=FULL)")

    ratios, bases, rates, all_durable = [], [], [], True
    totals: dict[str, list[float]] = {}
    decisions = 0
    for k in range(args.rounds):
        base_cpu: list[float] = []
        report: dict[str, float] = {}

        def run_baseline(k: int = k, base_cpu: list[float] = base_cpu) -> float:
            return baseline(root / f"baseline-{k}.db", args.agents, args.seconds, base_cpu)

        def run_supervised(k: int = k, report: dict[str, float] = report) -> tuple[float, int, list[int]]:
            undo = _staged(totals) if args.stages else None
            try:
                return supervised(root / f"supervised-{k}", args.agents, args.seconds, args.socket, report,
                                  client_processes=args.clients == "processes", writer=args.writer)
            finally:
                if undo is not None:
                    undo()

        if k % 2 == 0:  # the order alternates, so a machine getting busier favours neither
            base = run_baseline()
            rate, executed, flat = run_supervised()
        else:
            rate, executed, flat = run_supervised()
            base = run_baseline()
        if args.writer == "audit":
            durable, detail = _durable(root / f"supervised-{k}", flat, executed)
        else:
            durable, detail = True, f"not checked: --writer {args.writer} stores nothing (a diagnostic)"
        all_durable &= durable
        decisions += len(flat)
        ratios.append(rate / base)
        bases.append(base)
        rates.append(rate)
        timed = len(flat) - args.agents  # the decisions made while the clock ran
        # where the time goes (process CPU, user + system, over each run): on a fast disk the supervised
        # run is bound by the CPU per decision (one interpreter); the baseline by its one commit each
        cpu = (f"; CPU per decision: baseline {base_cpu[0] / max(1.0, base * args.seconds) * 1e6:.0f} µs, "
               f"supervised {report['cpu'] / timed * 1e6:.0f} µs" if timed > 0 and "cpu" in report else "")
        if timed > 0 and report.get("commits"):
            cpu += f", {timed / report['commits']:.1f} decisions per group commit"
        print(f"round {k + 1}: baseline {base:6.0f} commits/s, supervised {rate:6.0f} decisions/s, "
              f"ratio {rate / base:.2f}x{cpu}")
        print(f"  durable: {detail}")
    ratio, base, rate = statistics.median(ratios), statistics.median(bases), statistics.median(rates)
    print(f"median: baseline {base:.0f} commits/s, supervised {rate:.0f} decisions/s; "
          f"ratio supervised / baseline {ratio:.2f}x (rounds: {', '.join(f'{r:.2f}' for r in ratios)})")
    if totals:
        n = max(1, decisions)
        print(f"stages, thread CPU per decision (µs; inclusive, {n} decisions incl. warm-up; counters on):")
        for label, (spent, calls) in totals.items():
            if calls:
                print(f"  {label:<52} {spent / n * 1e6:8.1f}   ({calls / n:.2f} calls each)")
    print(f"target ≥ {TARGET:.0f} decisions/s: {'met' if rate >= TARGET else 'MISSED'}")
    if args.writer == "audit":
        print(f"every round durable and verified: {all_durable}")
    else:
        print(f"nothing stored (--writer {args.writer}): a diagnostic, not a figure of the log")
    return 0 if all_durable and rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
