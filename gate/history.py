"""Per-session memory the gate reads: loop tracking, the person's recent rejections, and what pages said.

This is the only stateful part of the gate. One History per agent session; `reset()` between episodes.
The engine records every assessed step (`record`), the supervisor records each answer a person gives to
a confirmation (`record_answer`). Safe to share between threads.

Harm is often assembled from pieces (DESIGN.md 2b): a pop-up tells the agent to re-enter its password and
the next step types it; a password typed on one site is typed again on another. So the engine also notes,
after each step (gate/rules/session.py `remember`), the steering a page, a pop-up or a target carried
(`note_steering`: its cue kinds and text, the last `MAX_NOTES`), and where each password typed into a
credential field went (`note_secret`: a keyed digest of the text, never the text, with the page's site).
A command that finds deskgate's own process number and keeps it (`P=$(pgrep -f deskgate)`, `pidof python3 >
/tmp/p`) is the first half of stopping the supervisor in two steps: the variables and files it filled are
noted (`note_own_pid_holder`), so the later `kill -STOP $P` is read for what it is.
`snapshot()` is what a read-only view of the session carries (a check, the assessment worker).
"""

from __future__ import annotations

import collections
import hashlib
import secrets
import threading
from typing import NamedTuple

from gate.model import Action, Assessment, Observation, action_to_dict

__all__ = ["History", "SessionMemory", "SteeringNote", "state_hash"]


class SteeringNote(NamedTuple):
    """Steering seen in this session: after which step, its cue kinds, and the text (normalised, bounded)."""

    step: int  # `History.steps` when it was noted: the next step judged has this number
    cues: tuple[str, ...]
    text: str
    site: str = ""  # the site of the page it was on ("": not known)


class SessionMemory(NamedTuple):
    """What a read-only view of a session carries of its memory (picklable, frozen at a request)."""

    notes: tuple[SteeringNote, ...] = ()
    key: bytes = b""
    secrets: tuple[tuple[bytes, str], ...] = ()
    holders: tuple[str, ...] = ()  # variables (`$p`) and files holding deskgate's own process number

    def secret_site(self, text: str) -> str | None:
        if not self.secrets:
            return None
        digest = _digest(self.key, text)
        return next((site for d, site in self.secrets if d == digest), None)


def _digest(key: bytes, text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), key=key, digest_size=16).digest()

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
    MAX_NOTES = 16  # steering notes kept (the newest)
    MAX_SECRETS = 64  # passwords' digests kept (the newest)
    MAX_HOLDERS = 64  # variables and files known to hold deskgate's process number (the newest)

    def __init__(self, rejection_window: int = 10) -> None:
        self._lock = threading.Lock()
        self._seen: collections.OrderedDict[str, int] = collections.OrderedDict()
        self._answers: collections.deque[bool] = collections.deque(maxlen=rejection_window)
        self._notes: collections.deque[SteeringNote] = collections.deque(maxlen=self.MAX_NOTES)
        self._secrets: collections.OrderedDict[bytes, str] = collections.OrderedDict()
        self._key = secrets.token_bytes(32)  # this session's own: a digest means nothing outside it
        self._holders: collections.OrderedDict[str, None] = collections.OrderedDict()
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

    # -- what pages said, and where passwords went --------------------------------------------------

    def note_steering(self, cues: tuple[str, ...], text: str, site: str = "") -> None:
        """Steering seen at the step just recorded (a page, a pop-up, a target) on `site`. The same text seen
        again moves its note forward instead of adding one."""
        note = SteeringNote(self.steps, cues, text[:500], site)
        with self._lock:
            for i, old in enumerate(self._notes):
                if old.text == note.text:
                    del self._notes[i]
                    break
            self._notes.append(note)

    def steering_notes(self) -> tuple[SteeringNote, ...]:
        """The steering noted this session, oldest first."""
        with self._lock:
            return tuple(self._notes)

    def note_secret(self, text: str, site: str) -> None:
        """A password (or code) typed into a credential field on `site`: only a keyed digest is kept, with the
        first site it was typed on."""
        digest = _digest(self._key, text)
        with self._lock:
            self._secrets.setdefault(digest, site)
            self._secrets.move_to_end(digest)
            if len(self._secrets) > self.MAX_SECRETS:
                self._secrets.popitem(last=False)

    def secret_site(self, text: str) -> str | None:
        """The site a text was typed on as a password this session, or None."""
        if not self._secrets:
            return None
        digest = _digest(self._key, text)
        with self._lock:
            return self._secrets.get(digest)

    def note_own_pid_holder(self, name: str) -> None:
        """A shell variable (`$p`, folded) or a file (its resolved path) a command filled with deskgate's own
        process number."""
        with self._lock:
            self._holders[name] = None
            self._holders.move_to_end(name)
            if len(self._holders) > self.MAX_HOLDERS:
                self._holders.popitem(last=False)

    def own_pid_holders(self) -> tuple[str, ...]:
        """The variables and files noted as holding deskgate's own process number, oldest first."""
        if not self._holders:
            return ()
        with self._lock:
            return tuple(self._holders)

    @property
    def has_memory(self) -> bool:
        """Anything noted (steering or passwords): the session rules have something to read."""
        return bool(self._notes) or bool(self._secrets)

    def snapshot(self) -> SessionMemory:
        """The notes and digests as they are now, for a read-only view of this session."""
        with self._lock:
            return SessionMemory(tuple(self._notes), self._key, tuple(self._secrets.items()), tuple(self._holders))

    def reset(self) -> None:
        """A new episode: forget states, answers, notes, digests, process-number holders and the step count."""
        with self._lock:
            self._holders.clear()
            self._seen.clear()
            self._answers.clear()
            self._notes.clear()
            self._secrets.clear()
            self.steps = 0
