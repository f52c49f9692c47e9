"""What syslog forwarding costs the audit commit path: durable decisions/s with 8 concurrent agents,
forwarding off vs on (UDP to a local receiver that drains, and TCP to a port where nobody listens, i.e. a
collector that is down). Printed as ratios against the run without forwarding, measured in the same run.

    .venv/bin/python bench/syslog_forward.py [--threads 8] [--per-thread 400] [--rounds 3]

The forwarder only enqueues on the writer thread, so the ratio should stay near 1.0 in both cases.
"""

from __future__ import annotations

import argparse
import pathlib
import socket
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from app.audit.syslog import SyslogForwarder, SyslogTarget
from app.audit.writer import AuditLog
from gate.model import Assessment, Decision, Observation, Risk

ACTION = {"type": "shell", "command": "git status --short && ls -la src"}
ASSESSMENT = Assessment(decision=Decision.ALLOW, reason="no rule applies", rules=(), risk=Risk.LOW, confidence=None)
OBSERVATION = Observation(window_title="Terminal", app="xterm", screen_hash="0" * 16)


def run(path: pathlib.Path, threads: int, per_thread: int, target: str | None) -> tuple[float, dict | None]:
    fwd = SyslogForwarder(SyslogTarget.parse(target), queue_size=100_000).start() if target else None
    log = AuditLog(path, keep_days=0, preview_keep_days=0, state_dir=path.parent / "state")  # not in ~
    log.on_commit = fwd.submit if fwd else None
    barrier = threading.Barrier(threads + 1)

    def agent(n: int) -> None:
        barrier.wait()
        for i in range(per_thread):
            log.record_decision(session_id=None, agent=f"a{n}", request_id=str(i), op="act", action=ACTION,
                                assessment=ASSESSMENT, observation=OBSERVATION, approval_key="k", execute=True)

    workers = [threading.Thread(target=agent, args=(n,)) for n in range(threads)]
    for w in workers:
        w.start()
    barrier.wait()
    start = time.perf_counter()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - start
    log.close()
    stats = None
    if fwd:
        fwd.flush(30)
        fwd.stop()
        stats = fwd.stats()
    return threads * per_thread / elapsed, stats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--per-thread", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    received = [0]

    def drain() -> None:
        while True:
            try:
                receiver.recv(65536)
            except OSError:
                return
            received[0] += 1

    threading.Thread(target=drain, daemon=True).start()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead_port = s.getsockname()[1]  # closed again: nothing listens there
    targets = {"off": None, "udp (collector up)": f"udp:127.0.0.1:{receiver.getsockname()[1]}",
               "tcp (collector down)": f"tcp:127.0.0.1:{dead_port}"}
    rates: dict[str, list[float]] = {k: [] for k in targets}
    last: dict[str, dict | None] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):  # interleaved, so drift on a shared machine hits every variant
            for name, target in targets.items():
                rate, stats = run(pathlib.Path(tmp) / f"{r}-{len(rates[name])}-{name[:3]}.db", args.threads,
                                  args.per_thread, target)
                rates[name].append(rate)
                last[name] = stats
    base = statistics.median(rates["off"])
    print(f"{args.threads} agents x {args.per_thread} durable decisions, median of {args.rounds} rounds")
    for name in targets:
        med = statistics.median(rates[name])
        extra = ""
        if last[name]:
            extra = f"  (last round: sent {last[name]['sent']}, dropped {last[name]['dropped']})"
        print(f"  forwarding {name:<22} {med:8.0f} decisions/s  ratio {med / base:.2f}{extra}")
    receiver.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
