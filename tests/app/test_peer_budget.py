"""PeerBudget: a process's and a uid's sliding windows count the steps inside them, and only those."""

from __future__ import annotations

import msgspec
import pytest

from app.daemon.sessions import PeerBudget
from app.errors import DeskgateError
from gate.policy import LimitsPolicy


def _limits(**over: int) -> LimitsPolicy:
    values = dict(max_steps=100, step_timeout_s=10, session_timeout_s=100, actions_per_minute=5,
                  sessions_per_hour=2, max_errors=5, idle_timeout_s=100, uid_actions_per_minute=8,
                  max_shell_timeout_s=10)
    values.update(over)
    return msgspec.convert(values, LimitsPolicy)


def test_a_minute_holds_at_most_its_limit_and_frees_up_as_entries_expire() -> None:
    budget, limits = PeerBudget(), _limits()
    for t in range(5):
        budget.check("p", 1000, limits, now=float(t))
        budget.charge("p", 1000, now=float(t))
    with pytest.raises(DeskgateError, match="actions_per_minute"):
        budget.check("p", 1000, limits, now=10.0)
    budget.check("p", 1000, limits, now=60.5)  # the step at t=0 left the window: one free place
    budget.charge("p", 1000, now=60.5)
    with pytest.raises(DeskgateError, match="actions_per_minute"):
        budget.check("p", 1000, limits, now=60.9)
    budget.check("p", 1000, limits, now=200.0, steps=5)  # all expired: the whole minute again


def test_steps_count_by_their_number_and_per_uid_across_processes() -> None:
    budget, limits = PeerBudget(), _limits(actions_per_minute=100)
    budget.charge("p1", 7, now=0.0, steps=3)
    budget.charge("p2", 7, now=1.0, steps=4)
    budget.check("p3", 7, limits, now=2.0)  # 7 of the uid's 8
    with pytest.raises(DeskgateError, match="uid 7"):
        budget.check("p3", 7, limits, now=2.0, steps=2)
    budget.check("p3", 8, limits, now=2.0, steps=8)  # another uid has its own
    budget.check("p3", 7, limits, now=60.5, steps=4)  # p1's 3 steps expired, p2's 4 remain


def test_the_hour_cap_is_max_steps_times_sessions_per_hour() -> None:
    budget, limits = PeerBudget(), _limits(max_steps=3, sessions_per_hour=2, actions_per_minute=100,
                                           uid_actions_per_minute=100)
    for t in (0.0, 100.0, 200.0):
        budget.charge("p", 1, now=t, steps=2)
    with pytest.raises(DeskgateError, match="max steps"):
        budget.check("p", 1, limits, now=300.0)
    budget.check("p", 1, limits, now=3600.5, steps=2)  # the first two steps left the hour
