"""What the tray shows, from the supervisor and the audit log: the state, today's counts, the recent
decisions, the grants, the agents connected. No Qt (app/root/tray.py hands it to ui/tray.py)."""

from __future__ import annotations

import datetime
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from app.ports import GrantView, RecentDecision, TraySnapshot

__all__ = ["TrayState", "kill_notice"]

log = logging.getLogger("deskgate.run")


def kill_notice(reason: str, by: str) -> str:
    """Who or what stopped the agents, and why, in a person's words: "Stopped by the kill-switch hotkey
    (ctrl+alt+shift+k)", "Stopped by agent 'bot' (pid 42) over the control socket: ..."."""
    who = by.strip()
    if who == "hotkey":
        who = "the kill-switch hotkey, pressed on the keyboard"
    elif who == "person (tray)":
        who = "you, from the tray menu"
    elif who == "socket watch":
        who = "deskgate itself, guarding its socket"
    elif who.startswith("command line"):
        who = "the `deskgate kill` command" + who[len("command line"):]
    elif not who:
        who = "an unknown source"
    reason = reason.strip()
    same = reason.lower() in ("", "kill switch", "kill-switch hotkey", "kill switch (tray)",
                              "kill from the command line")
    return f"Stopped by {who}" + ("" if same else f": {reason}")


def _local_now() -> datetime.datetime:
    return datetime.datetime.now().astimezone()


class TrayState:
    """Today's counts start from the log (so a restart keeps them) and then follow the supervisor's decision
    events; they start over at local midnight."""

    def __init__(self, supervisor: Any, audit: Any, asking: Callable[[], int], *,  # audit: an AuditReader
                 now: Callable[[], datetime.datetime] = _local_now,
                 frozen: Callable[[], Sequence[str]] = tuple) -> None:
        self.supervisor = supervisor
        self.audit = audit
        self.asking = asking  # confirmations open or waiting in the dialog (QtApprover.pending)
        self.frozen = frozen  # the names of the apps frozen at a kill (AppGroups.frozen)
        self._now = now
        self._lock = threading.Lock()
        self._day = ""
        self._counts = {"allow": 0, "confirm": 0, "block": 0}
        self._reset_counts_if_new_day()

    def _reset_counts_if_new_day(self) -> None:
        now = self._now()
        day = now.date().isoformat()
        if day == self._day:
            return
        since = now.replace(hour=0, minute=0, second=0, microsecond=0).timestamp()
        counts = {}
        for decision in self._counts:
            try:
                counts[decision] = self.audit.count(decision=decision, since=since)
            except Exception:  # the tray must open even when the log cannot be read
                log.exception("cannot count today's decisions")
                counts[decision] = 0
        with self._lock:
            self._day, self._counts = day, counts

    def count_decision(self, decision: str) -> None:
        self._reset_counts_if_new_day()
        with self._lock:
            if decision in self._counts:
                self._counts[decision] += 1

    def snapshot(self) -> TraySnapshot:
        self._reset_counts_if_new_day()
        status = self.supervisor.status()
        state = status["state"]
        if state == "active" and (status.get("asking") or self.asking()):
            state = "asking"
        recent = []
        try:
            for row in self.audit.query(limit=10):
                recent.append(RecentDecision(id=row["id"], when=row["ts"], agent=row["agent"] or "",
                                             summary=row["summary"] or row["type"], decision=row["decision"],
                                             verdict=row["verdict"] or "pending"))
        except Exception:
            log.exception("cannot read recent decisions")
        grants = tuple(GrantView(id=g["id"], agent=g["agent"], summary=g["summary"], expires_in_s=g["expires_in_s"])
                       for g in status.get("grants", ()))
        with self._lock:
            counts = dict(self._counts)
        agents = tuple(sorted({s["agent"] for s in status.get("sessions", ())}))
        try:
            frozen = tuple(self.frozen())
        except Exception:  # the tray must open whatever fails here
            log.exception("cannot list the frozen apps")
            frozen = ()
        return TraySnapshot(state=state, agents=agents, allowed=counts["allow"], asked=counts["confirm"],
                            blocked=counts["block"], recent=tuple(recent), grants=grants, frozen=frozen,
                            reason=kill_notice(str(status.get("reason") or ""), str(status.get("by") or ""))
                            if state == "killed" else str(status.get("reason") or status.get("by") or ""))
