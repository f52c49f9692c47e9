"""`deskgate run` on a real X desktop (Xvfb + JWM): idle memory and CPU, and kill-switch latency.

    .venv/bin/python bench/tray_figures.py [--idle-seconds 10] [--presses 10]

- Idle: RSS of the tray app after start-up, and the CPU time it uses over an idle period (no agent, no
  person): busy polling would show as CPU time. Target ≤ 150 MB RSS, no busy polling.
- Kill switch: the hotkey pressed with XTEST (xdotool), then requests sent as fast as possible; the time
  from the key press to the first request answered `killed`. Target ≤ 50 ms. Baseline, measured in the
  same run: the round trip of one `status` control request (the resolution of this measurement).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def _proc_stat(pid: int) -> tuple[float, float]:
    """(RSS in MB, user+system CPU seconds) of a process."""
    rss = 0.0
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, (int(fields[11]) + int(fields[12])) / ticks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--idle-seconds", type=float, default=10.0)
    ap.add_argument("--presses", type=int, default=10)
    args = ap.parse_args(argv)
    import conftest  # the tests' Xvfb + JWM starter

    desktop, procs = conftest._start_desktop()
    work = pathlib.Path(tempfile.mkdtemp(prefix="deskgate-tray-bench-"))
    env = dict(desktop.env, XDG_RUNTIME_DIR=str(work / "run"), XDG_DATA_HOME=str(work / "data"),
               XDG_CONFIG_HOME=str(work / "config"), XDG_STATE_HOME=str(work / "state"))
    (work / "run").mkdir(mode=0o700)
    sock = work / "run" / "deskgate" / "deskgate.sock"
    log = open(work / "run.log", "w")
    proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "app.cli.main", "run", "--no-takeover"],
                            cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + 30
        while not sock.exists() and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(2.0)  # let start-up work (imports, first paint, watcher threads) finish
        rss0, cpu0 = _proc_stat(proc.pid)
        time.sleep(args.idle_seconds)
        rss1, cpu1 = _proc_stat(proc.pid)
        cpu_pct = (cpu1 - cpu0) / args.idle_seconds * 100
        print(f"idle: RSS {rss1:.1f} MB (target ≤ 150 MB {'ok' if rss1 <= 150 else 'MISSED'}); "
              f"CPU {cpu1 - cpu0:.3f} s over {args.idle_seconds:g} s idle = {cpu_pct:.2f}% "
              f"({'no busy polling' if cpu_pct < 1 else 'BUSY'})")

        from app.agent.client import Client, Killed

        client_env_sock = str(sock)
        base = []
        with Client(client_env_sock) as c:
            for _ in range(50):
                t = time.perf_counter()
                c.control("status")
                base.append((time.perf_counter() - t) * 1000)
        latencies = []
        for _ in range(args.presses):
            with Client(client_env_sock) as c:
                c.hello("bench-agent")
                t0 = time.perf_counter()
                subprocess.Popen(["xdotool", "key", "ctrl+alt+shift+k"], env=desktop.env)
                while True:
                    try:
                        c.act({"type": "wait", "seconds": 0}, execute=False)
                    except Killed:
                        latencies.append((time.perf_counter() - t0) * 1000)
                        break
                    if time.perf_counter() - t0 > 5:
                        raise SystemExit("the hotkey did not kill within 5 s")
            with Client(client_env_sock) as c:
                c.control("resume")
        xdo = []
        for _ in range(10):  # what xdotool itself takes to start and send the key (part of the figure above)
            t = time.perf_counter()
            subprocess.run(["xdotool", "key", "shift"], env=desktop.env, check=True)
            xdo.append((time.perf_counter() - t) * 1000)
        print(f"xdotool's own run (start, connect, send a key, exit): p50 {statistics.median(xdo):.1f} ms")
        b50 = statistics.median(base)
        p50, worst = statistics.median(latencies), max(latencies)
        print(f"kill switch: key press → first `killed` reply: p50 {p50:.1f} ms, max {worst:.1f} ms over "
              f"{len(latencies)} presses (target ≤ 50 ms {'ok' if worst <= 50 else 'MISSED'}); "
              f"includes xdotool's own start-up")
        print(f"baseline: one control round trip p50 {b50:.2f} ms; ratio p50 / baseline {p50 / b50:.1f}x")
    finally:
        t = time.perf_counter()
        proc.terminate()
        try:
            proc.wait(15)
            print(f"shutdown: exited {time.perf_counter() - t:.2f} s after SIGTERM")
        except subprocess.TimeoutExpired:
            import signal

            proc.send_signal(signal.SIGABRT)  # faulthandler writes every thread's stack to the log
            proc.wait(5)
            print(f"shutdown: still running 15 s after SIGTERM; thread stacks in {work / 'run.log'}")
        log.close()
        for p in reversed(procs):
            p.terminate()
            p.wait(5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
