"""Load through a real `deskgate serve --headless`: 8 agents, mixed confirmations, a kill and a resume.

    .venv/bin/python bench/load_agents.py [--agents 8] [--actions 2000] [--execute-every 20]

Each agent opens its own connection and session and sends `act` requests over the raw socket (one at a
time, ids of its own). The mix: allowed `wait 0`; shell commands the policy asks about, approved or denied
by the headless rule file; `format_disk`, which is always blocked. Every `--execute-every`th approved
shell command really runs (inside the fence); the rest are `execute: false`. Halfway through, a person
runs `deskgate kill`, waits, then `deskgate resume` (both through the command line).

Afterwards, with the supervisor stopped, the reply stream is checked against the audit database:

- every request got exactly one reply, with its own id;
- every reply carrying an `audit_id` has exactly one decision row with that id and the request's id;
- no decision row lacks a reply (a request caught by the kill after its row was written is answered
  `denied` by `kill-switch` with its audit_id, so it has one too);
- the hash chain verifies (`deskgate log verify`);
- the supervisor's resident memory, before and after the run.

Printed: decisions/s, p50/p99 latency, replies vs rows, RSS growth, verify. The tests in
tests/hardening/ run the same harness in short form.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import dataclasses
import json
import os
import pathlib
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from app.protocol import encode_request  # noqa: E402

PYTHON = sys.executable

POLICY = """
[gate]
modes = { shell = "ask" }

[loop]
# the agents repeat `wait 0` on an unchanging (null) desktop: that is load here, not a loop
threshold = 1000000

[limits]
max_steps = 100000
actions_per_minute = 100000
uid_actions_per_minute = 999999
sessions_per_hour = 10000
step_timeout_s = 30

[approvals]
timeout_s = 5
"""

RULES = """
[[rule]]
id = "ok-commands"
decision = "approve"
command = "echo ok-*"

[[rule]]
id = "no-commands"
decision = "deny"
command = "echo no-*"
"""


# -- the workspace and the supervisor process -----------------------------------------------------


@dataclasses.dataclass
class Workspace:
    """Every deskgate path in its own directories (the socket in a short one: 108-byte limit)."""

    root: pathlib.Path
    sock_dir: pathlib.Path
    policy_text: str = POLICY
    rules_text: str = RULES

    @classmethod
    def create(cls, root: pathlib.Path, policy: str = POLICY, rules: str = RULES) -> Workspace:
        root.mkdir(parents=True, exist_ok=True)
        ws = cls(root, pathlib.Path(tempfile.mkdtemp(prefix="dgh-")), policy, rules)
        for sub in ("run", "data", "config", "state"):
            (root / sub).mkdir(mode=0o700, exist_ok=True)
        ws.policy.write_text(policy)
        ws.rules.write_text(rules)
        return ws

    @property
    def socket(self) -> pathlib.Path:
        return self.sock_dir / "dg.sock"

    @property
    def db(self) -> pathlib.Path:
        return self.root / "db" / "audit.db"

    @property
    def policy(self) -> pathlib.Path:
        return self.root / "policy.toml"

    @property
    def rules(self) -> pathlib.Path:
        return self.root / "rules.toml"

    @property
    def kill_state(self) -> pathlib.Path:
        return self.root / "state" / "deskgate" / "killed.json"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("DISPLAY", None)  # headless: NullDesktop, no hotkey, nothing touches a desktop
        env.pop("WAYLAND_DISPLAY", None)
        env["PYTHONPATH"] = str(ROOT)
        for var, sub in (("XDG_RUNTIME_DIR", "run"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                         ("XDG_STATE_HOME", "state")):
            env[var] = str(self.root / sub)
        return env

    def cli(self, *argv: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
        """`deskgate ARGV...` against this workspace's socket / database."""
        return subprocess.run([PYTHON, "-m", "app.cli.main", *argv], cwd=ROOT, env=self.env(), capture_output=True,
                              text=True, timeout=timeout)

    def control(self, command: str, *extra: str) -> subprocess.CompletedProcess[str]:
        if command in ("resume", "unpause"):  # these ask the person on a terminal: answer as a person
            return self.on_terminal(command, "--socket", str(self.socket), "--json", *extra)
        return self.cli(command, "--socket", str(self.socket), "--json", *extra)

    def on_terminal(self, *argv: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
        """`deskgate ARGV...` as a person runs it: the foreground job of a terminal of its own, typing back
        the code it shows. The agents of this bench live in this process, and deskgate refuses a resume
        started by an agent's process, so the terminal is opened by a process detached from this one
        (its parent exits at once; it reports back through a pipe)."""
        args = [PYTHON, "-m", "app.cli.main", *argv]
        env = self.env()
        rfd, wfd = os.pipe()
        first = os.fork()
        if first == 0:  # exits at once, so the process below is nobody's child in this bench
            os.close(rfd)
            if os.fork() != 0:
                os._exit(0)
            try:
                code, text = _answer_on_terminal(args, env, timeout)
                os.write(wfd, json.dumps({"code": code, "text": text}).encode())
            finally:
                os._exit(0)
        os.close(wfd)
        os.waitpid(first, 0)
        with os.fdopen(rfd, "rb") as fh:
            raw = fh.read()
        result = json.loads(raw) if raw else {"code": -1, "text": "the terminal helper failed"}
        return subprocess.CompletedProcess(args, result["code"], result["text"], "")

    def verify(self) -> subprocess.CompletedProcess[str]:
        return self.cli("log", "verify", "--db", str(self.db))

    def cleanup(self) -> None:
        shutil.rmtree(self.sock_dir, ignore_errors=True)


def _answer_on_terminal(args: list[str], env: dict[str, str], timeout: float) -> tuple[int, str]:
    import pty
    import re
    import select

    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execve(args[0], args, env)
    seen = b""
    end = time.monotonic() + timeout
    status = None
    try:
        while b"to confirm" not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 0.5)[0]:
                seen += os.read(fd, 4096)
        m = re.search(rb"Type (\w+) and Enter", seen)
        if m:
            os.write(fd, m.group(1) + b"\n")
        while status is None and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                with contextlib.suppress(OSError):
                    seen += os.read(fd, 4096)
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(st)
    finally:
        os.close(fd)
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    return (-1 if status is None else status), seen.decode("utf-8", "replace")


class Serve:
    """`deskgate serve --headless` as a child process."""

    def __init__(self, ws: Workspace, *, preexec_fn: Any = None, log_path: pathlib.Path | None = None) -> None:
        self.ws = ws
        ws.db.parent.mkdir(parents=True, exist_ok=True)
        self.log_path = log_path or ws.root / f"serve-{time.monotonic_ns()}.log"
        self._log = open(self.log_path, "w")  # closed in stop / kill9 / __exit__
        cmd = [PYTHON, "-m", "app.cli.main", "serve", "--headless", "--socket", str(ws.socket), "--db", str(ws.db),
               "--policy", str(ws.policy), "--approver-rules", str(ws.rules), "--kill-hotkey", "none"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=ws.env(), stdout=self._log, stderr=subprocess.STDOUT,
                                     preexec_fn=preexec_fn)
        self.pid = self.proc.pid

    def wait_ready(self, timeout: float = 20.0) -> Serve:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited {self.proc.returncode}: {self.log()}")
            if self.ws.socket.exists():
                with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(str(self.ws.socket))
                    return self
            if time.monotonic() > deadline:
                raise RuntimeError(f"serve did not start within {timeout} s: {self.log()}")
            time.sleep(0.05)

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def rss_kb(self) -> int:
        """Resident set size (VmRSS) of the supervisor process, from /proc."""
        for line in pathlib.Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def stop(self, timeout: float = 20.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        finally:
            self._log.close()

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._log.close()

    def __enter__(self) -> Serve:
        return self.wait_ready()

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._log.close()


# -- agents ------------------------------------------------------------------------------------------


class Lost(Exception):
    """The connection ended (EOF, reset) before a reply."""


class RawAgent:
    """One agent on one connection, speaking the wire protocol directly so every line is seen.

    `exchange` sends one request and reads exactly one line back; every line received is kept, so a
    duplicate or stray reply shows up as an id mismatch."""

    def __init__(self, path: pathlib.Path, name: str, *, timeout: float = 30.0) -> None:
        self.name = name
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.buf = bytearray()
        self.n = 0
        self.sent: list[str] = []
        self.received: list[dict[str, Any]] = []

    def next_id(self) -> str:
        self.n += 1
        return f"{self.name}-{self.n}"

    def exchange(self, op: str, **fields: Any) -> dict[str, Any]:
        rid = self.next_id()
        line = encode_request(op, rid, **fields)
        self.sent.append(rid)
        try:
            self.sock.sendall(line)
        except OSError as err:
            raise Lost(str(err)) from None
        reply = self.read_line()
        self.received.append(reply)
        return reply

    def read_line(self) -> dict[str, Any]:
        while True:
            nl = self.buf.find(b"\n")
            if nl >= 0:
                raw = bytes(self.buf[:nl])
                del self.buf[: nl + 1]
                return msgspec.json.decode(raw)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                raise
            except OSError as err:
                raise Lost(str(err)) from None
            if not chunk:
                raise Lost("EOF")
            self.buf += chunk

    def stray(self) -> bytes:
        """Anything the server sent that no request asked for (must be empty)."""
        self.sock.setblocking(False)
        try:
            return bytes(self.buf) + self.sock.recv(65536)
        except (BlockingIOError, OSError):
            return bytes(self.buf)
        finally:
            self.sock.setblocking(True)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def action_for(agent: str, i: int, execute_every: int) -> tuple[dict[str, Any], bool]:
    """The i-th action of an agent and whether it executes: a fixed mix, different text every time."""
    kind = i % 6
    if kind == 1:
        return {"type": "shell", "command": f"echo ok-{agent}-{i}"}, i % execute_every == 1
    if kind == 3:
        return {"type": "shell", "command": f"echo no-{agent}-{i}"}, True
    if kind == 5:
        return {"type": "system", "name": "format_disk"}, True
    return {"type": "wait", "seconds": 0}, True


@dataclasses.dataclass
class AgentLog:
    name: str
    sent: list[str] = dataclasses.field(default_factory=list)
    replies: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    latencies: list[float] = dataclasses.field(default_factory=list)
    errors: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    stray: bytes = b""
    failure: str | None = None     # how the agent's run ended, if not normally
    lost_at: float | None = None   # when the connection went (monotonic)


def run_agent(path: pathlib.Path, name: str, actions: int, execute_every: int, out: AgentLog,
              progress: list[int], index: int, *, timeout: float = 30.0,
              start: threading.Barrier | None = None, stop: threading.Event | None = None) -> None:
    agent = RawAgent(path, name, timeout=timeout)
    try:
        hello = agent.exchange("hello", agent=name)
        if not hello.get("ok"):
            raise RuntimeError(f"hello refused: {hello}")
        if start is not None:
            start.wait()
        for i in range(actions):
            if stop is not None and stop.is_set():
                break
            action, execute = action_for(name, i, execute_every)
            t0 = time.perf_counter()
            try:
                reply = agent.exchange("act", action=action, execute=execute)
            except Lost as err:
                out.failure, out.lost_at = f"lost: {err}", time.monotonic()
                break
            except TimeoutError:
                out.failure = "client timeout (no reply)"
                break
            out.latencies.append(time.perf_counter() - t0)
            if not reply.get("ok"):
                out.errors[reply["error"]["code"]] += 1
                if reply["error"]["code"] in ("killed", "paused"):
                    time.sleep(0.02)  # as an agent would: back off while a person has stopped it
            progress[index] = i + 1
        out.stray = agent.stray()
    finally:
        out.sent = agent.sent
        out.replies = agent.received
        agent.close()


@dataclasses.dataclass
class LoadResult:
    logs: list[AgentLog]
    seconds: float
    rss_before_kb: int
    rss_after_kb: int
    killed_window: tuple[float, float] | None

    @property
    def replies(self) -> list[dict[str, Any]]:
        return [r for log in self.logs for r in log.replies]

    @property
    def latencies(self) -> list[float]:
        return sorted(x for log in self.logs for x in log.latencies)


def run_load(ws: Workspace, serve: Serve, *, agents: int, actions: int, execute_every: int = 20,
             kill_at: float | None = 0.5, kill_hold_s: float = 5.0, warmup: int = 30) -> LoadResult:
    """Run the agents to completion; with kill_at, a kill (control request) once that fraction of the work
    is done, and `deskgate resume` once every running agent has been refused (at most kill_hold_s later)."""
    # warm the supervisor (imports, caches, first SQLite pages) before the memory baseline
    warm = AgentLog("warmup")
    run_agent(ws.socket, "warmup", warmup, execute_every, warm, [0], 0)
    rss_before = serve.rss_kb()
    logs = [AgentLog(f"agent{k}") for k in range(agents)]
    progress = [0] * agents
    start = threading.Barrier(agents + 1)
    threads = [threading.Thread(target=run_agent, args=(ws.socket, log.name, actions, execute_every, log, progress, k),
                                kwargs={"start": start}, daemon=True) for k, log in enumerate(logs)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    window = None
    if kill_at is not None:
        # the kill goes over a control connection opened beforehand (lands at once); the resume is the CLI
        control = RawAgent(ws.socket, "control")
        try:
            while sum(progress) < kill_at * agents * actions and any(t.is_alive() for t in threads):
                time.sleep(0.005)
            k0 = time.perf_counter() - t0
            reply = control.exchange("control", command="kill", reason="load test kill")
            if not reply.get("ok") or reply.get("state") != "killed":
                raise RuntimeError(f"kill failed: {reply}")
            # hold the kill until every agent still running has been refused at least once
            hold_until = time.monotonic() + kill_hold_s
            while time.monotonic() < hold_until and any(
                    t.is_alive() and not log.errors["killed"] for t, log in zip(threads, logs, strict=True)):
                time.sleep(0.005)
        finally:
            control.close()
        done = ws.control("resume")
        if done.returncode != 0:
            raise RuntimeError(f"deskgate resume failed: {done.stdout} {done.stderr}")
        window = (k0, time.perf_counter() - t0)
    for t in threads:
        t.join(600)
    seconds = time.perf_counter() - t0
    rss_after = serve.rss_kb()
    return LoadResult(logs, seconds, rss_before, rss_after, window)


# -- checking replies against the database -----------------------------------------------------------


@dataclasses.dataclass
class Reconciliation:
    requests: int
    replies: int
    unanswered: list[str]
    mismatched: list[tuple[str, Any]]
    with_audit_id: int
    rows: int
    missing_rows: list[int]          # replies with an audit_id and no such decision row
    wrong_rows: list[int]            # a row whose request_id is not the reply's request
    rows_without_reply: list[int]
    stray: list[str]
    verdicts: collections.Counter[str]
    codes: collections.Counter[str]

    @property
    def ok(self) -> bool:
        return not (self.unanswered or self.mismatched or self.missing_rows or self.wrong_rows
                    or self.rows_without_reply or self.stray)


def decision_rows(db: pathlib.Path) -> dict[int, str]:
    """{decision id: request id} of every decision row, read without writing the file."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return dict(conn.execute("SELECT id, request_id FROM decisions"))
    finally:
        conn.close()


def reconcile(logs: list[AgentLog], db: pathlib.Path, *, lost_ok: bool = False) -> Reconciliation:
    """Replies vs decision rows. With lost_ok, a request sent just before the connection died may be
    unanswered, and its row (if committed) may have no reply: the supervisor died in between."""
    rows = decision_rows(db)
    by_request: dict[str, int] = {}
    unanswered, mismatched, missing, wrong, stray = [], [], [], [], []
    verdicts: collections.Counter[str] = collections.Counter()
    codes: collections.Counter[str] = collections.Counter()
    replied_ids: set[int] = set()
    in_flight: set[str] = set()
    for log in logs:
        for rid, reply in zip(log.sent, log.replies, strict=False):
            if reply.get("id") != rid:
                mismatched.append((rid, reply.get("id")))
            if reply.get("ok"):
                verdicts[reply.get("verdict", reply.get("state", "-"))] += 1
                if reply.get("decided_by") == "kill-switch":
                    verdicts["denied by kill-switch"] += 1
            else:
                codes[reply["error"]["code"]] += 1
            audit_id = reply.get("audit_id")
            if isinstance(audit_id, int):
                replied_ids.add(audit_id)
                by_request[rid] = audit_id
                if audit_id not in rows:
                    missing.append(audit_id)
                elif rows[audit_id] != rid:
                    wrong.append(audit_id)
        extra = log.sent[len(log.replies):]
        if extra:
            if lost_ok and log.failure and len(extra) == 1:
                in_flight.update(extra)
            else:
                unanswered.extend(extra)
        if log.stray:
            stray.append(f"{log.name}: {log.stray[:200]!r}")
    orphans = [i for i, rid in rows.items() if i not in replied_ids and rid not in in_flight
               and rid.split("-")[0] in {log.name for log in logs}]
    return Reconciliation(
        requests=sum(len(log.sent) for log in logs), replies=sum(len(log.replies) for log in logs),
        unanswered=unanswered, mismatched=mismatched, with_audit_id=len(replied_ids),
        rows=sum(1 for rid in rows.values() if rid.split("-")[0] in {log.name for log in logs}),
        missing_rows=missing, wrong_rows=wrong, rows_without_reply=orphans, stray=stray,
        verdicts=verdicts, codes=codes)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--agents", type=int, default=8)
    p.add_argument("--actions", type=int, default=2000, help="actions per agent")
    p.add_argument("--execute-every", type=int, default=20,
                   help="every Nth approved shell command really runs in the fence; the rest are execute:false")
    p.add_argument("--no-kill", action="store_true", help="no kill/resume in the middle")
    args = p.parse_args(argv)
    ws = Workspace.create(pathlib.Path(tempfile.mkdtemp(prefix="deskgate-load-")))
    try:
        with Serve(ws) as serve:
            result = run_load(ws, serve, agents=args.agents, actions=args.actions, execute_every=args.execute_every,
                              kill_at=None if args.no_kill else 0.5)
            code = serve.stop()
        rec = reconcile(result.logs, ws.db)
        verify = ws.verify()
        lat = result.latencies
        decisions = rec.with_audit_id
        print(f"agents {args.agents} x {args.actions} actions, serve exit {code}")
        print(f"wall {result.seconds:.2f} s, decisions {decisions} ({decisions / result.seconds:,.0f} decisions/s), "
              f"requests {rec.requests} ({rec.requests / result.seconds:,.0f} req/s)")
        print(f"latency p50 {percentile(lat, 0.5) * 1000:.2f} ms, p99 {percentile(lat, 0.99) * 1000:.2f} ms, "
              f"max {lat[-1] * 1000:.2f} ms")
        print(f"verdicts {dict(rec.verdicts)}, errors {dict(rec.codes)}")
        if result.killed_window:
            print(f"killed from {result.killed_window[0]:.2f} s to {result.killed_window[1]:.2f} s")
        print(f"replies {rec.replies}/{rec.requests} requests; replies with audit_id {rec.with_audit_id}, "
              f"decision rows {rec.rows}; missing rows {len(rec.missing_rows)}, rows without reply "
              f"{len(rec.rows_without_reply)}, id mismatches {len(rec.mismatched)}, stray lines {len(rec.stray)}")
        print(f"supervisor RSS {result.rss_before_kb / 1024:.1f} MiB -> {result.rss_after_kb / 1024:.1f} MiB "
              f"(+{(result.rss_after_kb - result.rss_before_kb) / 1024:.1f} MiB)")
        print(f"deskgate log verify: exit {verify.returncode}: {(verify.stdout + verify.stderr).strip()}")
        return 0 if rec.ok and verify.returncode == 0 and code == 0 else 1
    finally:
        ws.cleanup()
        shutil.rmtree(ws.root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
