"""What logging every Claude Code hook call costs: the hook's exchange with the supervisor (connect,
hello with a scope, act execute=false defer=true, bye: two durable audit rows and a session) against an
unlogged `check` on a fresh connection (what the hook sent before), measured in the same run, in blocks
interleaved so load on the machine hits both alike. The Python start-up of the hook process (the same
for both, tens of ms) is left out.

    .venv/bin/python bench/hook_decision.py [--n 300]

Prints p50/p99 of each and the ratio. Informational: no target in DESIGN §6.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from app.agent.client import Client

ACTION = {"type": "file_write", "path": "/tmp/bench-notes.md", "content": "hello"}


def serve(work: pathlib.Path):
    import os

    from app.desktop.screen import NullDesktop
    from app.root.runtime import build_runtime

    for var in ("XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        (work / var).mkdir(mode=0o700)
        os.environ[var] = str(work / var)
    policy = work / "policy.toml"
    # one process sends every request: the per-process and per-uid rate limits must not cut the run short
    policy.write_text("[fence]\nenabled = false\nrequired = false\n[limits]\nsessions_per_hour = 100000\n"
                      "actions_per_minute = 100000\nuid_actions_per_minute = 100000\n")
    args = argparse.Namespace(headless=True, socket=work / "dg.sock", db=work / "audit.db", policy=policy,
                               preset=None, ask_in_terminal=False, approver_rules=None, kill_hotkey="none",
                               verbose=False)
    rt = build_runtime(args, desktop=NullDesktop())
    threading.Thread(target=rt.server.serve_forever, daemon=True).start()
    return rt


def check_once(sock: pathlib.Path) -> None:
    with Client(sock, timeout=10) as dg:
        dg.check(ACTION)


def logged_once(sock: pathlib.Path, i: int) -> None:
    with Client(sock, timeout=10) as dg:
        dg.hello(f"claude-code:bench:{i}", scope="claude-code:bench")
        reply = dg.act(ACTION, execute=False, defer=True)
        assert reply["verdict"] in ("allowed", "deferred"), reply


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    n = ap.parse_args().n
    work = pathlib.Path(tempfile.mkdtemp(prefix="dg-bench-"))
    rt = serve(work)
    try:
        base: list[float] = []
        logged: list[float] = []
        i = 0
        for _ in range(max(1, n // 50)):
            for _ in range(50):
                t = time.perf_counter()
                check_once(rt.server.socket_path)
                base.append((time.perf_counter() - t) * 1000)
            for _ in range(50):
                i += 1
                t = time.perf_counter()
                logged_once(rt.server.socket_path, i)
                logged.append((time.perf_counter() - t) * 1000)
    finally:
        rt.stop()
        shutil.rmtree(work, ignore_errors=True)

    def p(values: list[float], q: float) -> float:
        return statistics.quantiles(values, n=100)[int(q) - 1]

    b50, l50 = statistics.median(base), statistics.median(logged)
    print(f"check (unlogged, before): p50 {b50:.2f} ms  p99 {p(base, 99):.2f} ms  n={len(base)}")
    print(f"hello+act+bye (logged):   p50 {l50:.2f} ms  p99 {p(logged, 99):.2f} ms  n={len(logged)}")
    print(f"ratio p50: {l50 / b50:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
