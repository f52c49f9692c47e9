"""How a decided request ends: its Outcome (verdict, who decided, why), and Stop, which ends it early."""

from __future__ import annotations

import dataclasses
from typing import Any

from app.ports import Verdict

__all__ = ["INPUT_TYPES", "READ_TARGET_TYPES", "REPLY_BY", "Outcome", "Stop", "ended_by_kill"]

# Actions that inject input events: a confirmation dialog waits until none of these is running.
INPUT_TYPES = frozenset({"click", "move", "drag", "scroll", "type", "key"})
# Actions whose target deskgate reads itself (app/desktop/pointer.py): the element clicked or dragged, the focused field
READ_TARGET_TYPES = frozenset({"click", "drag", "type"})
# decided_by values an approver's Reply.by may carry into the log as is
REPLY_BY = frozenset({"person", "headless-rule", "session-approval", "kill-switch"})


class Stop(Exception):
    """Ends a decided request early with verdict `denied` (kill switch, a limit, a changed desktop)."""

    def __init__(self, decided_by: str, reason: str) -> None:
        super().__init__(reason)
        self.decided_by = decided_by
        self.reason = reason


@dataclasses.dataclass
class Outcome:
    verdict: Verdict
    decided_by: str
    reason: str
    result: dict[str, Any] | None = None


def ended_by_kill(result: dict[str, Any]) -> bool:
    """Did the kill switch end this execution (the executor's `killed` error)?"""
    err = result.get("error")
    return isinstance(err, dict) and err.get("code") == "killed"
