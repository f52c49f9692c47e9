"""What the tray shows (app/root/tray_state.py), without Qt: state, today's counts, recent decisions, grants."""

from __future__ import annotations

import datetime

from app.ports import GrantView, RecentDecision
from app.root.tray_state import TrayState

TZ = datetime.timezone(datetime.timedelta(hours=2))


class Clock:
    def __init__(self) -> None:
        self.at = datetime.datetime(2026, 3, 14, 23, 50, tzinfo=TZ)

    def __call__(self) -> datetime.datetime:
        return self.at


class Log:
    """The audit log's count/query, over rows kept here."""

    def __init__(self, rows: list[dict]) -> None:
        self.rows = rows
        self.broken = False
        self.counted_since: list[float] = []

    def count(self, *, decision: str, since: float) -> int:
        if self.broken:
            raise OSError("disk I/O error")
        self.counted_since.append(since)
        return sum(1 for r in self.rows if r["decision"] == decision and r["ts"] >= since)

    def query(self, *, limit: int) -> list[dict]:
        if self.broken:
            raise OSError("disk I/O error")
        return sorted(self.rows, key=lambda r: -r["id"])[:limit]


class Supervisor:
    def __init__(self) -> None:
        self.status_reply: dict = {"state": "active"}

    def status(self) -> dict:
        return self.status_reply


def _row(i: int, ts: float, decision: str, verdict: str | None = "executed", summary: str | None = "ls") -> dict:
    return {"id": i, "ts": ts, "agent": "writer", "summary": summary, "type": "shell", "decision": decision,
            "verdict": verdict}


def test_counts_start_from_todays_log_and_follow_decisions() -> None:
    clock = Clock()
    midnight = clock.at.replace(hour=0, minute=0).timestamp()
    log = Log([_row(1, midnight - 60, "block"), _row(2, midnight + 60, "allow"), _row(3, midnight + 120, "confirm")])
    state = TrayState(Supervisor(), log, lambda: 0, now=clock)
    snap = state.snapshot()
    assert (snap.allowed, snap.asked, snap.blocked) == (1, 1, 0)  # yesterday's block is not today's
    state.count_decision("block")
    state.count_decision("allow")
    state.count_decision("nonsense")
    snap = state.snapshot()
    assert (snap.allowed, snap.asked, snap.blocked) == (2, 1, 1)


def test_counts_start_over_at_local_midnight() -> None:
    clock = Clock()
    state = TrayState(Supervisor(), Log([]), lambda: 0, now=clock)
    state.count_decision("allow")
    assert state.snapshot().allowed == 1
    clock.at += datetime.timedelta(minutes=20)  # 00:10 the next day
    log_since = clock.at.replace(hour=0, minute=0).timestamp()
    assert state.snapshot().allowed == 0
    assert state.audit.counted_since[-1] == log_since


def test_snapshot_reports_state_agents_grants_and_recent_decisions() -> None:
    sup = Supervisor()
    sup.status_reply = {"state": "active", "sessions": [{"agent": "b"}, {"agent": "a"}, {"agent": "b"}],
                        "grants": [{"id": "g1", "agent": "a", "summary": "click Save", "expires_in_s": 30.0}]}
    pending = [0]
    state = TrayState(sup, Log([_row(1, 1.0, "allow"), _row(2, 2.0, "confirm", verdict=None, summary=None)]),
                      lambda: pending[0], now=Clock())
    snap = state.snapshot()
    assert snap.state == "active" and snap.agents == ("a", "b")
    assert snap.grants == (GrantView("g1", "a", "click Save", 30.0),)
    assert snap.recent == (RecentDecision(2, 2.0, "writer", "shell", "confirm", "pending"),
                           RecentDecision(1, 1.0, "writer", "ls", "allow", "executed"))
    pending[0] = 1
    assert state.snapshot().state == "asking"  # a dialog is open or waiting
    sup.status_reply = {"state": "killed", "reason": "kill switch (tray)", "by": "person (tray)"}
    snap = state.snapshot()
    # killed wins over asking, and the tray says who stopped the agents
    assert snap.state == "killed" and snap.reason == "Stopped by you, from the tray menu"


def test_the_kill_notice_says_who_or_what_triggered_it() -> None:
    from app.root.tray_state import kill_notice

    assert kill_notice("kill-switch hotkey", "hotkey") == "Stopped by the kill-switch hotkey, pressed on the keyboard"
    assert kill_notice("tests failing", "command line (pid 42)") == \
        "Stopped by the `deskgate kill` command (pid 42): tests failing"
    assert kill_notice("runaway", "agent 'bot' (pid 7)") == "Stopped by agent 'bot' (pid 7): runaway"
    assert kill_notice("socket replaced: an attack on the supervisor", "socket watch") == \
        "Stopped by deskgate itself, guarding its socket: socket replaced: an attack on the supervisor"
    assert kill_notice("", "") == "Stopped by an unknown source"


def test_an_unreadable_log_still_gives_a_snapshot() -> None:
    log = Log([_row(1, 1.0, "allow")])
    log.broken = True
    state = TrayState(Supervisor(), log, lambda: 0, now=Clock())
    snap = state.snapshot()
    assert snap.state == "active" and snap.recent == () and (snap.allowed, snap.asked, snap.blocked) == (0, 0, 0)


def test_the_apps_frozen_at_a_kill_are_in_the_snapshot() -> None:
    frozen = ["Text Editor"]
    state = TrayState(Supervisor(), Log([]), lambda: 0, now=Clock(), frozen=lambda: list(frozen))
    assert state.snapshot().frozen == ("Text Editor",)
    frozen.clear()
    assert state.snapshot().frozen == ()


def test_a_failing_frozen_list_still_opens_the_tray() -> None:
    def broken():
        raise OSError("/proc unreadable")

    assert TrayState(Supervisor(), Log([]), lambda: 0, now=Clock(), frozen=broken).snapshot().frozen == ()
