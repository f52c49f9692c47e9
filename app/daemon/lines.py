"""The line each window holds: what the agent typed there since the last line end (DESIGN §2b "Lines").

The gate judges a line end as the whole line, but the gate keeps nothing between actions: the supervisor does.
`LineBook` keeps one `TypedLine` per window (X11 window id) and hands it to the gate in `Observation.line`;
after an action ran it follows the line with the gate's own rules (gate/lines.py `advance`), so what the gate
judged and what the supervisor follows cannot drift apart.

The line is unknown (a terminal then asks at Enter) when deskgate cannot know it:
- a window deskgate sees for the first time (text may have been typed before deskgate started, or by the
  person); ctrl+c in it gives a known, empty line;
- a window the agent comes back to after acting in another one (the person may have typed meanwhile);
- after an action in it failed midway, and after history keys, Tab, escape sequences or a paste;
- after the person used the keyboard or mouse (human takeover, app/desktop/takeover.py: deskgate's own
  injected input is told apart), since they may have typed into it.

Only `act` and `plan` move the book; `check` reads it. Nothing here reads the desktop: the window id comes
from the observation.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable

import msgspec

from gate.lines import advance
from gate.model import Action, Observation, TypedLine

__all__ = ["LineBook"]

MAX_WINDOWS = 256  # windows followed at once; the least recently used is forgotten (and is unknown again)
FIRST_SEEN = "deskgate has not seen this window's line start (text may have been typed before); ctrl+c clears it"
SWITCHED = "the agent acted in another window meanwhile (the line may have changed)"
FAILED = "an action in this window failed midway"
PERSON = "the person used the keyboard or mouse since (they may have typed into it)"


class LineBook:
    """One typed line per window. Thread-safe.

    `person`: the monotonic time of the person's last input (-inf: none; app/desktop/takeover.py); `clock`: the
    same clock, to stamp when each line was last followed."""

    def __init__(self, person: Callable[[], float] | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._lines: OrderedDict[int, TypedLine] = OrderedDict()
        self._stamps: dict[int, float] = {}
        self._last = 0  # the window of the last act/plan
        self._lock = threading.Lock()
        self._person = person
        self._clock = clock

    def line(self, window_id: int) -> TypedLine | None:
        """The line kept for `window_id` (None: none kept)."""
        with self._lock:
            return self._lines.get(window_id)

    def attach(self, observation: Observation, *, moving: bool) -> Observation:
        """`observation` with its window's line. `moving`: an act or a plan is about to run in this window (a
        window switch makes the line unknown, and is remembered); False for a check, which changes nothing."""
        wid = observation.window_id
        if not wid:
            return observation  # no window id (no desktop): lines are not followed, the gate judges text alone
        with self._lock:
            line = self._lines.get(wid)
            if line is None:
                line = TypedLine(known=False, why=FIRST_SEEN, first=True)
            elif self._last not in (0, wid) and line.known:
                line = TypedLine(text=line.text, raw=line.raw, known=False, why=SWITCHED, env=line.env,
                                 cwd=line.cwd)
            elif line.known and self._person is not None and self._person() >= self._stamps.get(wid, 0.0):
                line = TypedLine(text=line.text, raw=line.raw, known=False, why=PERSON)
            if moving:
                self._last = wid
                self._put(wid, line)
        return msgspec.structs.replace(observation, line=line)

    def after(self, observation: Observation, action: Action, ok: bool) -> None:
        """Follow the line of the observation's window once `action` ran there (`ok`: it completed)."""
        wid = observation.window_id
        if not wid:
            return
        with self._lock:
            line = self._lines.get(wid) or observation.line or TypedLine(known=False, why=FIRST_SEEN, first=True)
            line = advance(line, action) if ok else TypedLine(text=line.text, raw=line.raw, known=False, why=FAILED)
            self._put(wid, line)

    def _put(self, wid: int, line: TypedLine) -> None:
        self._lines[wid] = line
        self._stamps[wid] = self._clock()
        self._lines.move_to_end(wid)
        while len(self._lines) > MAX_WINDOWS:
            old, _ = self._lines.popitem(last=False)
            self._stamps.pop(old, None)
