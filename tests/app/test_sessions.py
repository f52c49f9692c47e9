"""PeerBudget: per-process and per-uid sliding windows, with plan steps charged as several actions."""

from __future__ import annotations

import pytest

from app.daemon.sessions import PeerBudget
from app.errors import DeskgateError
from gate.policy import default_policy


def limits(**kw: int):
    import msgspec

    return msgspec.structs.replace(default_policy().limits, **kw)


def test_the_minute_window_slides_and_counts_plan_steps() -> None:
    budget, lim = PeerBudget(), limits(actions_per_minute=5, uid_actions_per_minute=1000)
    budget.check("p", 1, lim, 0.0, 3)
    budget.charge("p", 1, 0.0, 3)            # a plan of three steps
    budget.check("p", 1, lim, 10.0, 2)
    budget.charge("p", 1, 10.0, 2)
    with pytest.raises(DeskgateError, match="submitted 5 actions"):
        budget.check("p", 1, lim, 59.0, 1)
    budget.check("p", 1, lim, 60.5, 3)       # the plan of three left the window; the two remain
    with pytest.raises(DeskgateError, match="submitted 2 actions"):
        budget.check("p", 1, lim, 60.5, 4)
    budget.check("p", 1, lim, 70.5, 5)       # and now those two have left as well


def test_the_uid_window_adds_every_process_of_the_uid() -> None:
    budget, lim = PeerBudget(), limits(actions_per_minute=100, uid_actions_per_minute=4)
    for pid in ("a", "b", "c", "d"):
        budget.check(pid, 7, lim, 1.0)
        budget.charge(pid, 7, 1.0)
    with pytest.raises(DeskgateError, match="uid 7 submitted 4"):
        budget.check("e", 7, lim, 2.0)
    budget.check("e", 8, lim, 2.0)            # another uid has its own budget
    budget.check("e", 7, lim, 61.5)           # the minute has passed


def test_the_hour_window_caps_steps_across_sessions() -> None:
    budget, lim = PeerBudget(), limits(max_steps=2, sessions_per_hour=2, actions_per_minute=100,
                                       uid_actions_per_minute=100)
    for t in (0.0, 100.0, 200.0, 300.0):
        budget.check("p", 1, lim, t)
        budget.charge("p", 1, t)
    with pytest.raises(DeskgateError, match="max steps"):
        budget.check("p", 1, lim, 400.0)
    budget.check("p", 1, lim, 3600.5)         # the first step left the hour
