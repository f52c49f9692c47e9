"""Socket round trip with a durable audit row, against a bare baseline measured in the same run.

    .venv/bin/python bench/socket_roundtrip.py [--n 4000] [--dir DIR] [--agents 8 --seconds 3]

deskgate: Client.act → Server (framing, peer check, parse_request with full action validation) → a
handler that does one SQLite INSERT + COMMIT (WAL, synchronous=FULL) → reply → Client.
baseline: a bare Unix socket echo of the same request line whose server thread does the same INSERT +
COMMIT before echoing. Both run interleaved in blocks, so load on the machine hits both alike.

Then, for context, throughput with --agents concurrent clients (in this process, so they share its GIL
with the server; real agents are separate processes).

Targets (DESIGN §6): deskgate p50 ≤ 4 × baseline p50, deskgate p99 ≤ 2 ms. Exit status 1 when missed.
The database goes in --dir (default: a temp dir); the filesystem decides what a commit costs.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from app.agent.client import Client
from app.daemon.server import Server

ACTION = {"type": "click", "x": 640, "y": 400, "button": "left",
          "target": {"label": "Save", "role": "button"}, "confidence": 0.93}
TARGET_RATIO_P50 = 4.0
TARGET_P99_MS = 2.0


def open_db(path: pathlib.Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS decisions (id INTEGER PRIMARY KEY, ts REAL, rid TEXT, action TEXT)")
    return db


def durable_insert(db: sqlite3.Connection, rid: str, action: str) -> int:
    db.execute("BEGIN")
    cur = db.execute("INSERT INTO decisions (ts, rid, action) VALUES (?, ?, ?)", (time.time(), rid, action))
    db.execute("COMMIT")
    return int(cur.lastrowid or 0)


# -- baseline: bare UDS echo + one commit ----------------------------------------------------------


class EchoServer:
    def __init__(self, path: pathlib.Path, db: sqlite3.Connection) -> None:
        self.db = db
        self.commits: list[float] = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen(1)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        conn, _ = self.sock.accept()
        buf = b""
        with conn:
            while True:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                buf += chunk
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    t0 = time.perf_counter_ns()
                    durable_insert(self.db, "echo", line.decode())
                    self.commits.append((time.perf_counter_ns() - t0) / 1e6)
                    conn.sendall(line + b"\n")

    def close(self) -> None:
        self.sock.close()


def echo_round_trip(sock: socket.socket, line: bytes) -> None:
    sock.sendall(line)
    got = b""
    while not got.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("echo server went away")
        got += chunk


# -- deskgate: Server + Client + a handler that commits ---------------------------------------------


class CommitConn:
    def __init__(self, db: sqlite3.Connection, commits: list[float], lock: threading.Lock) -> None:
        self.db = db
        self.commits = commits
        self.lock = lock  # one writer at a time, as in the audit log

    def handle(self, req):
        if req.__struct_config__.tag == "act":
            t0 = time.perf_counter_ns()
            with self.lock:
                audit_id = durable_insert(self.db, req.id, json.dumps(ACTION))
            self.commits.append((time.perf_counter_ns() - t0) / 1e6)
            return {"verdict": "executed", "decision": "allow", "decided_by": "policy", "reason": "",
                    "rules": [], "risk": "low", "audit_id": audit_id, "elapsed_ms": 0.0}
        return {}

    def close(self) -> None:
        pass


def throughput(path: pathlib.Path, agents: int, seconds: float) -> float:
    """Requests/s with `agents` clients acting as fast as they can, each on its own connection."""
    counts = [0] * agents
    stop = threading.Event()

    def agent(n: int) -> None:
        with Client(path, timeout=10) as dg:
            dg.hello(f"bench-{n}")
            while not stop.is_set():
                dg.act(ACTION)
                counts[n] += 1

    threads = [threading.Thread(target=agent, args=(n,), daemon=True) for n in range(agents)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(30)
    return sum(counts) / (time.perf_counter() - t0)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000, help="round trips of each kind (default: %(default)s)")
    ap.add_argument("--block", type=int, default=250, help="interleaving block size")
    ap.add_argument("--dir", help="where the SQLite files go (default: a new temp dir)")
    ap.add_argument("--agents", type=int, default=8, help="concurrent clients for the throughput run (0: skip)")
    ap.add_argument("--seconds", type=float, default=3.0, help="length of the throughput run")
    args = ap.parse_args(argv)

    work = pathlib.Path(tempfile.mkdtemp(prefix="dg-bench-", dir=args.dir))
    try:
        base_db = open_db(work / "baseline.db")
        dg_db = open_db(work / "deskgate.db")
        echo = EchoServer(work / "echo.sock", base_db)
        esock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        esock.connect(str(work / "echo.sock"))
        line = json.dumps({"v": 1, "id": "x-1", "op": "act", "action": ACTION, "execute": True}).encode() + b"\n"

        base: list[float] = []
        dg: list[float] = []
        dg_commits: list[float] = []
        db_lock = threading.Lock()
        with Server(work / "run" / "dg.sock", lambda peer: CommitConn(dg_db, dg_commits, db_lock)) as server:
            client = Client(server.socket_path, timeout=10)
            client.hello("bench")
            for _ in range(200):  # warm-up: caches, WAL file growth, thread start
                echo_round_trip(esock, line)
                client.act(ACTION)
            clock = time.perf_counter_ns
            while len(dg) < args.n:
                for _ in range(args.block):
                    t0 = clock()
                    echo_round_trip(esock, line)
                    base.append((clock() - t0) / 1e6)
                for _ in range(args.block):
                    t0 = clock()
                    reply = client.act(ACTION)
                    dg.append((clock() - t0) / 1e6)
                    if reply["verdict"] != "executed":
                        raise RuntimeError(f"unexpected reply {reply}")
            client.bye()
            lat_commits = dg_commits[200:]  # the warm-up's commits out; a copy, before the throughput run
            rate = throughput(server.socket_path, args.agents, args.seconds) if args.agents else None
        # Per request, the time that is not the commit: each framework's own cost. The first 200
        # commits were the warm-up.
        base_over = [t - c for t, c in zip(base, echo.commits[200:], strict=True)]
        dg_over = [t - c for t, c in zip(dg, lat_commits, strict=True)]
        esock.close()
        echo.close()
        echo_commits = echo.commits[200:]

        # Context: each half of the baseline alone.
        commit_only = []
        for i in range(1000):
            t0 = time.perf_counter_ns()
            durable_insert(base_db, f"c{i}", "x")
            commit_only.append((time.perf_counter_ns() - t0) / 1e6)
        fs = _fs_type(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    b50, b99, d50, d99 = pct(base, 0.5), pct(base, 0.99), pct(dg, 0.5), pct(dg, 0.99)
    ratio = d50 / b50
    print(f"database filesystem: {fs}; {len(dg)} round trips each, interleaved in blocks of {args.block}")
    print(f"sqlite commit alone          p50 {pct(commit_only, 0.5):7.3f} ms  p99 {pct(commit_only, 0.99):7.3f} ms")
    print(f"baseline (UDS echo + commit) p50 {b50:7.3f} ms  p99 {b99:7.3f} ms  mean {statistics.fmean(base):.3f}")
    print(f"deskgate (Server + Client)   p50 {d50:7.3f} ms  p99 {d99:7.3f} ms  mean {statistics.fmean(dg):.3f}")
    print(f"  commit inside baseline     p50 {pct(echo_commits, 0.5):7.3f} ms  p99 {pct(echo_commits, 0.99):7.3f} ms")
    print(f"  commit inside deskgate     p50 {pct(lat_commits, 0.5):7.3f} ms  p99 {pct(lat_commits, 0.99):7.3f} ms")
    print(f"  baseline minus its commit  p50 {pct(base_over, 0.5):7.3f} ms  p99 {pct(base_over, 0.99):7.3f} ms")
    print(f"  deskgate minus its commit  p50 {pct(dg_over, 0.5):7.3f} ms  p99 {pct(dg_over, 0.99):7.3f} ms")
    if rate is not None:
        print(f"throughput: {args.agents} concurrent clients, one durable commit each request: {rate:,.0f} requests/s "
              f"(the full-supervisor target is >= 2,000 decisions/s)")
    ok_ratio = ratio <= TARGET_RATIO_P50
    ok_p99 = d99 <= TARGET_P99_MS
    print(f"p50 ratio {ratio:.2f}x (target <= {TARGET_RATIO_P50:g}x): {'ok' if ok_ratio else 'MISSED'}")
    print(f"p99 {d99:.3f} ms (target <= {TARGET_P99_MS:g} ms): {'ok' if ok_p99 else 'MISSED'}")
    return 0 if ok_ratio and ok_p99 else 1


def _fs_type(path: pathlib.Path) -> str:
    best, kind = "", "unknown"
    try:
        with open("/proc/mounts") as fh:
            for entry in fh:
                parts = entry.split()
                if len(parts) >= 3 and str(path).startswith(parts[1]) and len(parts[1]) > len(best):
                    best, kind = parts[1], parts[2]
    except OSError:
        pass
    return f"{kind} ({best or '?'})" if os.path.exists(path) else kind


if __name__ == "__main__":
    sys.exit(main())
