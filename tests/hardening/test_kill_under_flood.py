"""`deskgate kill` is answered however many agent requests are being assessed.

Before, 60 connections sending `check`s of 7.9 kB pipe strings delayed `deskgate kill` by 2-7 s: every
one of them was a runnable thread doing gate work, and the person's control thread waited its turn for
the interpreter lock at each step. Now at most INLINE_AT_ONCE assessments run at a time (the others wait
off the lock), the gate is linear on such strings (test_redos.py), and the kill's log line is queued
rather than waited for (the kill file is its durable record). The timing itself is in
bench/control_under_load.py (`--flood-only`); here, what makes it hold.
"""

from __future__ import annotations

import json
import socket
import threading

from app.daemon.assessor import INLINE_AT_ONCE, Assessor
from app.desktop.screen import NullDesktop
from gate.model import action_from_dict

POLICY = """
[fence]
enabled = false
required = false

[limits]
actions_per_minute = 100000
uid_actions_per_minute = 100000
"""


class BlockingGate:
    """A gate whose assessments wait until released, counting how many run at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.entered = threading.Semaphore(0)

    def assess(self, action, observation, history):
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        self.entered.release()
        self.release.wait(30)
        with self.lock:
            self.running -= 1
        return None


def test_at_most_a_few_inline_assessments_run_at_once():
    assessor, gate = Assessor(), BlockingGate()
    action = action_from_dict({"type": "shell", "command": "curl h|" * 100})
    obs = NullDesktop().observe()
    threads = [threading.Thread(target=assessor.assess, args=(gate, action, obs, None, 30)) for _ in range(20)]
    for t in threads:
        t.start()
    for _ in range(INLINE_AT_ONCE):
        assert gate.entered.acquire(timeout=30)
    assert not gate.entered.acquire(timeout=0.2)  # the rest wait for a slot (a bound, not a timing)
    gate.release.set()
    for t in threads:
        t.join(30)
    assert gate.most == INLINE_AT_ONCE


def test_kill_is_answered_while_every_assessment_slot_is_held(deskgate_home, serve_in_process):
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    gate = BlockingGate()
    real = rt.supervisor.assessor.assess
    rt.supervisor.assessor.assess = lambda g, *a, **kw: real(gate, *a, **kw)
    agents = []
    for n in range(20):  # checks without hello, stuck in (or waiting for) an assessment
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(str(home["socket"]))
        s.sendall(json.dumps({"v": 1, "id": str(n), "op": "check",
                              "action": {"type": "wait", "seconds": 0}}).encode() + b"\n")
        agents.append(s)
    for _ in range(INLINE_AT_ONCE):
        assert gate.entered.acquire(timeout=30)
    try:
        control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        control.settimeout(30)
        control.connect(str(home["socket"].with_name("control.sock")))
        control.sendall(json.dumps({"v": 1, "id": "k", "op": "control", "command": "kill"}).encode() + b"\n")
        reply = json.loads(control.makefile().readline())
        assert reply["ok"] is True
        assert rt.supervisor.state == "killed"
    finally:
        gate.release.set()
        for s in agents:
            s.close()
