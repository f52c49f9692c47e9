"""Limits that real agents live with, under the shipped `balanced` policy: a 500-step scripted agent runs
to its end, bursts of 20 actions in 2 s and 120 a minute pass, 60 sessions an hour open; a rate limit's
refusal carries `retry_after`, and the client waits it out within step_timeout_s instead of failing.

The supervisor runs on a controllable clock: the executor advances it as an action takes time, and the
client's waits advance it instead of sleeping.
"""

from __future__ import annotations

import functools

import pytest

from app.agent import pyautogui
from app.agent.client import Client, LimitExceeded
from app.desktop.screen import NullDesktop
from app.execute.executor import ExecResult
from gate.model import Observation

# the shipped limits, untouched: only the fence is off (nothing here runs a command)
POLICY = """
[fence]
enabled = false
required = false
"""


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


class ReadableDesktop(NullDesktop):
    """No display, but every pointer target reads as an ordinary button, as the accessibility tree would
    say on a real desktop (an unread target would ask: confirm.gui.unreadable-target)."""

    def observe_for(self, action, *, fresh: bool = False) -> Observation:
        return Observation(app="app", window_title="Form", pointer_label="Next", pointer_role="push button",
                           label_source="accessibility", label_confidence=1.0, pointer_read=True)


class TimedExecutor:
    """Runs nothing; each action takes `step_s` of the clock's time (an agent's pace)."""

    def __init__(self, clock: Clock, step_s: float) -> None:
        self.clock, self.step_s, self.done = clock, step_s, 0

    def execute(self, action, policy) -> ExecResult:
        self.done += 1
        self.clock.now += self.step_s
        return ExecResult(True, {})

    def cancel_all(self) -> int:
        return 0


@pytest.fixture
def supervisor(deskgate_home, serve_in_process, monkeypatch):
    """start(step_s) runs a headless deskgate on the shipped limits and the controllable clock."""
    monkeypatch.delenv("DISPLAY", raising=False)
    home = deskgate_home(POLICY)
    clock = Clock()

    def start(step_s: float):
        executor = TimedExecutor(clock, step_s)
        serve_in_process(home, desktop=ReadableDesktop(), executor=executor, clock=clock)
        return home["socket"], executor

    return clock, start


def test_a_500_step_scripted_agent_runs_to_the_end_under_balanced(supervisor, monkeypatch) -> None:
    clock, start = supervisor
    sock, executor = start(step_s=0.4)  # 150 attempts a minute: above the rate, so it has to wait
    monkeypatch.setattr(pyautogui, "Client", functools.partial(Client, sleep=clock.sleep))
    monkeypatch.setattr(pyautogui, "PAUSE", 0)
    pyautogui.configure(sock, agent="scripted-500")
    try:
        for i in range(500):
            pyautogui.click(10 + i % 400, 20 + i // 400)
    finally:
        pyautogui.configure(None)
    assert executor.done == 500
    assert clock.waits, "the rate limit was reached and waited out"
    assert max(clock.waits) <= 120  # each wait within the session's step_timeout_s


def test_bursts_of_20_in_2_s_and_120_a_minute_pass(supervisor) -> None:
    clock, start = supervisor
    sock, executor = start(step_s=0.1)  # 20 actions in 2 s
    with Client(sock, sleep=clock.sleep) as dg:
        dg.hello("bursty")
        for burst in range(6):  # 6 bursts of 20 in one minute: 120
            for i in range(20):
                assert dg.act({"type": "click", "x": burst, "y": i})["verdict"] == "executed"
            clock.now += 8.0
    assert executor.done == 120 and clock.waits == []


def test_a_rate_refusal_says_when_to_retry(supervisor) -> None:
    clock, start = supervisor
    sock, _ = start(step_s=0.0)
    with Client(sock, sleep=clock.sleep) as dg:
        dg.hello("fast")
        dg.wait_on_limits = False
        for i in range(120):
            dg.act({"type": "click", "x": i, "y": 1})
        with pytest.raises(LimitExceeded) as refused:
            dg.act({"type": "click", "x": 999, "y": 1})
        assert refused.value.retry_after == pytest.approx(60.0, abs=0.01)
        assert "actions_per_minute=120" in refused.value.message
        dg.wait_on_limits = True
        assert dg.act({"type": "click", "x": 999, "y": 1})["verdict"] == "executed"  # waited, then passed
        assert clock.waits and clock.waits[-1] == pytest.approx(60.05, abs=0.01)


def test_60_sessions_an_hour_open_and_the_61st_says_when(supervisor) -> None:
    clock, start = supervisor
    sock, _ = start(step_s=0.0)
    for _ in range(60):
        with Client(sock) as dg:
            dg.hello("restarts")
        clock.now += 1.0
    with Client(sock) as dg, pytest.raises(LimitExceeded) as refused:
        dg.hello("restarts")
    assert refused.value.retry_after == pytest.approx(3600.0 - 60.0, abs=0.01)
