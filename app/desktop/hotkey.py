"""The person's controls that work whatever has focus: the kill-switch hotkey and human takeover.

Both use pynput's X listeners on their own threads (imported lazily: pynput fails at import without a
display). The kill switch calls its callback on the listener thread; the callback must be quick and
thread-safe (Supervisor.kill is).

Human takeover: when the person moves the mouse, clicks or types, agent pointer and keyboard actions
wait until a quiet time has passed (app/desktop/takeover.py); other actions are not affected. deskgate's own
synthetic input (pyautogui goes through XTEST, which X reports like a real device) is told apart by
time: the executor runs inside `SyntheticInput.injecting()`, and events during it (plus a short grace
for the X server to deliver them) are not the person's.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator

from app.desktop.takeover import PersonActivity

__all__ = ["KillSwitch", "SyntheticInput", "Takeover", "to_pynput_combo"]

log = logging.getLogger(__name__)

_NAMES = {"ctrl": "<ctrl>", "control": "<ctrl>", "alt": "<alt>", "shift": "<shift>", "super": "<cmd>",
          "win": "<cmd>", "cmd": "<cmd>", "meta": "<cmd>"}


def to_pynput_combo(combo: str) -> str:
    """'ctrl+alt+shift+k' → '<ctrl>+<alt>+<shift>+k' (pynput's HotKey syntax)."""
    parts = [p.strip().lower() for p in combo.split("+") if p.strip()]
    if not parts:
        raise ValueError("empty hotkey")
    out = []
    for p in parts:
        if p in _NAMES:
            out.append(_NAMES[p])
        elif len(p) == 1 or (p.startswith("<") and p.endswith(">")):
            out.append(p)
        else:
            out.append(f"<{p}>")
    return "+".join(out)


def _wake_listener(pointer: bool = False) -> None:
    """On Xorg a stopped listener only notices at the next input event: send one (via XTEST)."""
    from pynput import keyboard, mouse

    keyboard.Controller().tap(keyboard.Key.shift)
    if pointer:
        m = mouse.Controller()
        m.move(1, 0)
        m.move(-1, 0)


class KillSwitch:
    """A global hotkey that calls `on_trigger` (default combo ctrl+alt+shift+k)."""

    def __init__(self, combo: str, on_trigger: Callable[[], None]) -> None:
        self.combo = to_pynput_combo(combo)
        self._on_trigger = on_trigger
        self._listener = None

    def _fire(self) -> None:
        try:
            self._on_trigger()
        except Exception:  # the listener thread must survive, and the failure must be seen
            log.exception("kill switch callback failed")

    def start(self) -> None:
        from pynput import keyboard

        self._listener = keyboard.GlobalHotKeys({self.combo: self._fire})
        self._listener.start()
        self._listener.wait()

    def stop(self) -> None:
        if self._listener is None:
            return
        self._listener.stop()
        with contextlib.suppress(Exception):
            _wake_listener()
        self._listener.join(2)
        self._listener = None

    @property
    def running(self) -> bool:
        return self._listener is not None and self._listener.is_alive()


class SyntheticInput:
    """Marks the spans of time in which deskgate itself injects input."""

    def __init__(self, grace_s: float = 0.25, clock: Callable[[], float] = time.monotonic) -> None:
        self._grace = grace_s
        self._clock = clock
        self._depth = 0
        self._until = 0.0
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def injecting(self) -> Iterator[None]:
        with self._lock:
            self._depth += 1
        try:
            yield
        finally:
            with self._lock:
                self._depth -= 1
                self._until = self._clock() + self._grace

    def active(self) -> bool:
        with self._lock:
            return self._depth > 0 or self._clock() < self._until


class Takeover:
    """Listens for the person's mouse and keyboard input and reports it to a `PersonActivity`
    (app/desktop/takeover.py), which the supervisor consults: agent input waits while the person is active.

    `on_pause` / `on_resume` are notifications (the person became active / has been quiet for `quiet_s`),
    called from the monitor threads. `feed()` is the single entry for input events (the pynput listeners
    call it; tests call it directly). Not the person's: injected events, deskgate's own injection, and
    events for which `ignore(x, y)` is true (deskgate's own windows and tray, a dialog being answered;
    x and y are None for keys).
    """

    def __init__(self, on_pause: Callable[[], None], on_resume: Callable[[], None], *, quiet_s: float = 3.0,
                 synthetic: SyntheticInput | None = None, clock: Callable[[], float] = time.monotonic,
                 activity: PersonActivity | None = None,
                 ignore: Callable[[int | None, int | None], bool] | None = None) -> None:
        self._on_pause, self._on_resume = on_pause, on_resume
        self.activity = activity if activity is not None else PersonActivity(quiet_s, clock=clock)
        self.quiet_s = self.activity.quiet_s
        self.synthetic = synthetic or SyntheticInput(clock=clock)
        self._ignore = ignore
        self._clock = clock
        self._paused = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._listeners: list = []
        self._timer: threading.Thread | None = None

    @property
    def paused(self) -> bool:
        return self._paused

    def feed(self, injected: bool = False, x: int | None = None, y: int | None = None) -> None:
        """One input event. Injected (XSendEvent), during deskgate's own injection, or ignored: not the person."""
        if injected or self.synthetic.active():
            return
        if self._ignore is not None:
            try:
                if self._ignore(x, y):
                    return
            except Exception:  # a failing predicate must not hide the person's input: count it
                log.exception("takeover ignore predicate failed")
        self.activity.note()
        fire = False
        with self._lock:
            if self.activity.active() and not self._paused:
                self._paused = fire = True
        if fire:
            self._wake.set()
            self._on_pause()

    def tick(self) -> None:
        """Report the end of a takeover once the person has been quiet long enough (the timer thread)."""
        fire = False
        with self._lock:
            if self._paused and not self.activity.active():
                self._paused = False
                fire = True
        if fire:
            self._on_resume()

    def _run_timer(self) -> None:
        # Sleeps until a pause starts (no polling while idle), then until the quiet time could be over.
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            while self._paused and not self._stop.is_set():
                remaining = self.activity.last_input() + self.quiet_s - self._clock()
                if self._stop.wait(max(0.02, remaining)):
                    return
                self.tick()

    def start(self) -> None:
        from pynput import keyboard, mouse

        def on_move(x, y, injected=False):
            self.feed(injected, x, y)

        def on_click(x, y, button, pressed, injected=False):
            self.feed(injected, x, y)

        def on_scroll(x, y, dx, dy, injected=False):
            self.feed(injected, x, y)

        def on_key(key, injected=False):
            self.feed(injected)

        self._listeners = [mouse.Listener(on_move=on_move, on_click=on_click, on_scroll=on_scroll),
                           keyboard.Listener(on_press=on_key)]
        for lst in self._listeners:
            lst.start()
            lst.wait()
        self._stop.clear()
        self._timer = threading.Thread(target=self._run_timer, name="deskgate-takeover", daemon=True)
        self._timer.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for lst in self._listeners:
            lst.stop()
        if self._listeners:
            with contextlib.suppress(Exception):
                _wake_listener(pointer=True)
        for lst in self._listeners:
            lst.join(2)
        self._listeners = []
        if self._timer is not None:
            self._timer.join(2)
            self._timer = None
