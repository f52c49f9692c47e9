"""Human takeover: while the person uses the mouse or keyboard, agent input waits for them.

`PersonActivity` is the state: the time of the person's last input (fed by `app.desktop.hotkey.Takeover`, which
listens to the real devices and tells deskgate's own injected input apart). The person is *active* until
`quiet_s` seconds pass with no input.

What it changes (the supervisor consults it, `Supervisor.person`):
- pointer and keyboard actions (`INPUT_TYPES`) wait until the person has been quiet for `quiet_s`, at
  most `max_wait_s` (the policy's `limits.step_timeout_s`); past that they fail with `paused`. A kill
  ends the wait at once.
- every other action (shell, files, tools, navigation, checks) is not affected at all: a person typing
  in their own terminal must not stall or deny an agent's file edit or a Claude Code hook call.
- deskgate's own surfaces are not a takeover: input while deskgate's tray menu is open (`suppress`), the
  input that opened it (`forgive`), and input on deskgate's windows (the caller's `ignore` predicate in
  app/desktop/hotkey.py).

No thread of its own: a waiter computes when the quiet time could end and sleeps until then.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from app.errors import DeskgateError

__all__ = ["INPUT_TYPES", "PersonActivity"]

# Actions that inject input events into the desktop the person is using
INPUT_TYPES = frozenset({"click", "move", "drag", "scroll", "type", "key"})
_SLICE_S = 0.05  # waiters re-check at least this often (a kill, an injected clock that jumps)


class PersonActivity:
    def __init__(self, quiet_s: float = 3.0, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet_s = quiet_s
        self._clock = clock
        self._last = float("-inf")
        self._suppressed = 0
        self.waiting = 0  # actions waiting for the person now (for the tray, and tests)
        self._cv = threading.Condition(threading.Lock())

    # -- what the input listener reports ------------------------------------------------------

    def note(self) -> bool:
        """The person's input, now. Returns True when it started a takeover (they were quiet before)."""
        with self._cv:
            if self._suppressed:
                return False
            now = self._clock()
            started = now - self._last >= self.quiet_s
            self._last = now
            return started

    def forgive(self) -> None:
        """The input just seen was the person reaching for deskgate itself (its tray menu): not a takeover."""
        with self._cv:
            self._last = float("-inf")
            self._cv.notify_all()

    def suppress(self, on: bool) -> None:
        """While on (deskgate's own menu is open), input does not count. Nested calls are counted."""
        with self._cv:
            self._suppressed = max(0, self._suppressed + (1 if on else -1))
            if on:
                self._last = float("-inf")
                self._cv.notify_all()

    # -- what the supervisor asks -------------------------------------------------------------

    def active(self) -> bool:
        with self._cv:
            return self._clock() - self._last < self.quiet_s

    def last_input(self) -> float:
        with self._cv:
            return self._last

    @staticmethod
    def affects(action_type: str) -> bool:
        return action_type in INPUT_TYPES

    def wait_quiet(self, max_wait_s: float, *, stop: Callable[[], BaseException | None] = lambda: None) -> float:
        """Block until the person has been quiet for `quiet_s`. Returns the seconds waited.

        Raises DeskgateError `paused` after `max_wait_s`, or what `stop()` returns (e.g. the kill state)."""
        start = self._clock()
        with self._cv:
            self.waiting += 1
            try:
                return self._wait_locked(start, max_wait_s, stop)
            finally:
                self.waiting -= 1

    def _wait_locked(self, start: float, max_wait_s: float, stop: Callable[[], BaseException | None]) -> float:
        while True:
            err = stop()
            if err is not None:
                raise err
            now = self._clock()
            left = self._last + self.quiet_s - now
            if left <= 0:
                return now - start
            if now - start >= max_wait_s:
                raise DeskgateError(
                    "paused", f"the person has been using the mouse or keyboard for {now - start:.0f} s; "
                              "pointer and keyboard actions wait for them (retry later)")
            self._cv.wait(min(left, max_wait_s - (now - start), _SLICE_S))
