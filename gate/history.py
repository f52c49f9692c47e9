"""Per-session memory the gate reads: loop tracking and the person's recent rejections.

This is the only stateful part of the gate. One History per agent session; `reset()` between episodes.
The engine records every assessed step (`record`), the supervisor records each answer a person gives to
a confirmation (`record_answer`). Safe to share between threads.
"""

from __future__ import annotations

import collections
import hashlib
import threading

from gate.model import Action, Assessment, Observation, action_to_dict

__all__ = ["History", "state_hash"]

def state_hash(action: Action, observation: Observation, use_screen_hash: bool = True) -> str:
    """What makes two steps 'the same': the desktop state (window title, app, URL, optionally the screen
    hash) and the action, without what does not change its effect (`confidence`, `note`). The loop rule
    and the engine share one per assessment through `gate.rules.agent.loop_key`."""
    parts = [observation.window_title, observation.app, observation.url or (action.url or "")]
    if use_screen_hash:
        parts.append(observation.screen_hash)
    fields = action_to_dict(action)
    for noise in ("confidence", "note"):
        fields.pop(noise, None)
    parts.append(repr(sorted(fields.items())))
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


class History:
    """Counts of states seen this session, and the person's recent answers (approve / deny)."""

    # distinct states remembered; beyond this the oldest are forgotten (a long session stays bounded)
    MAX_STATES = 10_000

    def __init__(self, rejection_window: int = 10) -> None:
        self._lock = threading.Lock()
        self._seen: collections.OrderedDict[str, int] = collections.OrderedDict()
        self._answers: collections.deque[bool] = collections.deque(maxlen=rejection_window)
        self.steps = 0

    def seen(self, key: str) -> int:
        """How many times this state was recorded before."""
        with self._lock:
            return self._seen.get(key, 0)

    def record(self, key: str, assessment: Assessment) -> None:
        """One assessed step. Blocked steps count too: an agent retrying a refused action is looping."""
        with self._lock:
            self._seen[key] = self._seen.get(key, 0) + 1
            self._seen.move_to_end(key)
            if len(self._seen) > self.MAX_STATES:
                self._seen.popitem(last=False)
            self.steps += 1

    def record_answer(self, approved: bool) -> None:
        """A person's answer to a confirmation (approve / deny): feeds the risk score."""
        with self._lock:
            self._answers.append(approved)

    @property
    def recent_rejections(self) -> int:
        """Denials among the last `rejection_window` answers."""
        with self._lock:
            return sum(1 for ok in self._answers if not ok)

    def reset(self) -> None:
        """A new episode: forget states, answers and the step count."""
        with self._lock:
            self._seen.clear()
            self._answers.clear()
            self.steps = 0
