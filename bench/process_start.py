"""Whole processes, the way people and Claude Code run them: the hook, `status`, `kill` and `check`, each
against `python -c pass` and `python -S -c pass` measured in the same run, interleaved round by round so load
on the machine hits all alike.

    .venv/bin/python bench/process_start.py [--rounds 30]

- hook: `deskgate hook claude-code` with one Bash PreToolUse event on stdin, answered by a running headless
  supervisor (a durable decision row, the same as in use).
- status: `deskgate status` against that supervisor.
- kill: `deskgate kill` against a second supervisor (so the first one's hook calls stay ordinary).
- check: `deskgate check` of one shell action (JSON on stdin; the gate runs in the process, no socket). Its
  compiled policy comes from the store the warm-up run wrote (app/policy_cache.py), as on a second run.
- supervisor start (informational): `serve --headless` until its socket is there (imports, compiling the
  policy itself, opening the audit log), for each supervisor this run starts.

Bytecode is written once (warm-up round, under a temporary PYTHONPYCACHEPREFIX), as pip does at install.
Each runs through the installed `deskgate` console script next to this Python when there is one (what a
person and Claude Code run), else `python -m app.cli.main`. Prints p50/p90 of each and the p50 ratio to
`python -c pass`; DESIGN §6: hook and control CLI ≤ 2×.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

EVENT = {"session_id": "bench-session", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
         "hook_event_name": "PreToolUse", "tool_name": "Bash",
         "tool_input": {"command": "git status --short", "description": "Show changes"}}
CHECK_ACTION = {"type": "shell", "command": "rm -rf ~/project/build"}
POLICY = ("[fence]\nenabled = false\nrequired = false\n[limits]\nsessions_per_hour = 100000\n"
          "actions_per_minute = 100000\nuid_actions_per_minute = 100000\n")


def _deskgate() -> list[str]:
    script = pathlib.Path(sys.executable).parent / "deskgate"
    return [str(script)] if script.exists() else [sys.executable, "-m", "app.cli.main"]


def _serve(work: pathlib.Path, name: str, env: dict[str, str]) -> tuple[subprocess.Popen, pathlib.Path, float]:
    (work / name).mkdir(mode=0o700)  # each supervisor has its own control socket beside its agent socket
    sock = work / name / "deskgate.sock"
    cmd = [sys.executable, "-m", "app.cli.main", "serve", "--headless", "--socket", str(sock),
           "--db", str(work / f"{name}.db"), "--policy", str(work / "policy.toml")]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not sock.exists():
        if proc.poll() is not None:
            raise SystemExit(f"the supervisor did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
        if time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("the supervisor did not start within 30 s")
        time.sleep(0.01)
    return proc, sock, (time.perf_counter() - started) * 1000


def _run(argv: list[str], stdin: bytes, env: dict[str, str], extra: dict[str, str]) -> float:
    if extra:
        env = {**env, **extra}
    t = time.perf_counter()
    done = subprocess.run(argv, input=stdin, env=env, capture_output=True)
    elapsed = (time.perf_counter() - t) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    args = ap.parse_args(argv)
    work = pathlib.Path(tempfile.mkdtemp(prefix="dg-start-"))
    env = dict(os.environ)
    env.pop("DISPLAY", None)  # headless supervisors: no desktop, no hotkey
    env["PYTHONPATH"] = str(ROOT)
    # As installed: pip writes the bytecode of every module at install time. A checkout run with
    # PYTHONDONTWRITEBYTECODE would compile deskgate's source in every process instead; the warm-up round
    # writes it once, outside the tree.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    for var in ("XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME"):
        (work / var).mkdir(mode=0o700)
        env[var] = str(work / var)
    (work / "policy.toml").write_text(POLICY)
    dg = _deskgate()
    procs: list[subprocess.Popen] = []
    try:
        served, sock, first_start = _serve(work, "main", env)
        procs.append(served)
        killed, kill_sock, second_start = _serve(work, "killed", env)
        procs.append(killed)
        event = json.dumps(EVENT).encode()
        # The hook as Claude Code runs it: no options, the socket from the environment.
        at_main = {"DESKGATE_SOCKET": str(sock)}
        cases: dict[str, tuple[list[str], bytes, dict[str, str]]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], b"", {}),
            "python -S -c pass": ([sys.executable, "-S", "-c", "pass"], b"", {}),
            "deskgate --version": ([*dg, "--version"], b"", {}),
            "hook claude-code (Bash)": ([*dg, "hook", "claude-code"], event, at_main),
            "status": ([*dg, "status"], b"", at_main),
            "kill": ([*dg, "kill", "--socket", str(kill_sock), "--reason", "bench"], b"", {}),
            "check (one action)": ([*dg, "check", "--policy", str(work / "policy.toml")],
                                   json.dumps(CHECK_ACTION).encode() + b"\n", {}),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for cmd, stdin, extra in cases.values():  # write the bytecode, warm the file cache; not counted
            _run(cmd, stdin, env, extra)
        for r in range(args.rounds):
            names = list(cases)
            names = names[r % len(names):] + names[:r % len(names)]  # rotate: no command always goes first
            for name in names:
                cmd, stdin, extra = cases[name]
                times[name].append(_run(cmd, stdin, env, extra))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(work, ignore_errors=True)

    base = statistics.median(times["python -c pass"])
    print(f"whole processes, {args.rounds} rounds, interleaved; deskgate = {' '.join(dg)}")
    for name, xs in times.items():
        p50 = statistics.median(xs)
        p90 = sorted(xs)[int(0.9 * (len(xs) - 1))]
        goal = ""
        if name.startswith(("hook", "status", "kill", "deskgate --version")):
            goal = f"   goal ≤ 2x: {'ok' if p50 <= 2 * base else 'MISSED'}"
        print(f"  {name:<26} p50 {p50:7.1f} ms   p90 {p90:7.1f} ms   ratio p50 / python -c pass {p50 / base:5.2f}x"
              f"{goal}")
    print(f"  supervisor start (serve --headless until its socket is there): {first_start:7.1f} ms first "
          f"(bytecode not yet written), {second_start:7.1f} ms second; informational")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
