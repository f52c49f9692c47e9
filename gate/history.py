"""Per-session memory the gate reads: loop tracking and the person's recent rejections.

This is the only stateful part of the gate. One History per agent session; `reset()` between episodes.
"""

from __future__ import annotations

import collections
import hashlib

from gate.model import Action, Assessment, Observation, action_to_dict

__all__ = ["History", "state_hash"]


def state_hash(action: Action, observation: Observation, use_screen_hash: bool = True) -> str:
    """What makes two steps 'the same': the desktop state (title, app, URL, screen) and the action."""
    parts = [observation.window_title, observation.app, observation.url or (action.url or "")]
    if use_screen_hash:
        parts.append(observation.screen_hash)
    fields = action_to_dict(action)
    for noise in ("confidence", "note"):
        fields.pop(noise, None)
    parts.append(repr(sorted(fields.items())))
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


class History:
    """Counts of states seen this session, and the person's recent answers."""

    def __init__(self, rejection_window: int = 10) -> None:
        self._seen: collections.Counter[str] = collections.Counter()
        self._answers: collections.deque[bool] = collections.deque(maxlen=rejection_window)
        self.steps = 0

    def seen(self, key: str) -> int:
        """How many times this state was recorded before."""
        return self._seen[key]

    def record(self, key: str, assessment: Assessment) -> None:
        self._seen[key] += 1
        self.steps += 1

    def record_answer(self, approved: bool) -> None:
        """A person's answer to a confirmation (approve / deny): feeds the risk score."""
        self._answers.append(approved)

    @property
    def recent_rejections(self) -> int:
        return sum(1 for ok in self._answers if not ok)

    def reset(self) -> None:
        self._seen.clear()
        self._answers.clear()
        self.steps = 0
