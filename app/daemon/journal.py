"""What the supervisor tells others: events into the audit log, and changes to its subscribers (the tray)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.ports import AuditSink

__all__ = ["Journal"]

log = logging.getLogger("deskgate.supervisor")


class Journal:
    def __init__(self, audit: AuditSink) -> None:
        self.audit = audit
        self._subscribers: list[Callable[[dict[str, Any]], None]] = []

    def subscribe(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """`callback(event)` for state, decision, prompt, session and grant changes (from worker threads)."""
        self._subscribers.append(callback)

    @property
    def listened(self) -> bool:
        """Someone subscribed (the tray): a caller on a hot path builds its event only then."""
        return bool(self._subscribers)

    def notify(self, event: dict[str, Any]) -> None:
        for callback in list(self._subscribers):
            try:
                callback(event)
            except Exception:
                log.exception("subscriber failed on %s", event.get("kind"))

    def event(self, kind: str, *, session_id: int | None = None, decision_id: int | None = None,
              data: dict[str, Any] | None = None, durable: bool = True) -> bool:
        """Record an event; False (and a log line) when the audit log cannot take it."""
        try:
            self.audit.record_event(kind, session_id=session_id, decision_id=decision_id, data=data,
                                    durable=durable)
            return True
        except Exception as err:
            log.error("audit event %r not recorded: %s", kind, err)
            return False
