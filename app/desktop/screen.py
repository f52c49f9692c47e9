"""Reading the desktop: the active window and app, the screen size, a screen hash, deskgate's own windows.

`X11Desktop` keeps a current state that the X server's change notifications update, so `observe()` is a
cached read (microseconds) and the supervisor can observe on every request. A watcher thread holds its
own X connection and listens for
- PropertyNotify of `_NET_ACTIVE_WINDOW` / `_NET_CLIENT_LIST` on the root window (focus moved, windows
  came or went) and of `_NET_WM_NAME` / `WM_NAME` on the active window (its title changed);
- ConfigureNotify / Map / Unmap / Destroy of deskgate's protected windows (their rects) and of the root
  (screen size).
It sleeps in `select()` on the X socket and a wake-up pipe: no polling. If the server drops its
connection it reconnects with backoff; meanwhile `observe()` reads fresh (slower, never stale).

`observe_fresh()` reads now through pywinctl (~5 ms: an X round trip plus `ps` for the app name), also
re-reads the protected rects, and refreshes the cache with what it saw. The supervisor uses it right
before executing an approved or risky action.

The screen hash (a 16×9 grayscale average hash of a full-screen grab, 36 hex digits) costs a grab plus
~1.5 ms of Python, so it is never computed on the `observe()` path when the X server has the DAMAGE
extension (Xorg and Xvfb do): the server tells the watcher when screen contents change, and a hasher
thread re-hashes `HASH_SETTLE_S` after the change (coalescing bursts of drawing; at most one hash per
`HASH_MIN_INTERVAL_S`). `observe()` returns the latest hash: it reflects the screen as it was at most
~settle + one grab ago, and an idle screen costs nothing. Without DAMAGE, `observe()` re-hashes inline
when the hash is older than `hash_max_age_s` (default 0.25 s) or a window event happened since.
`observe_fresh()` always hashes now.

Deskgate's own windows are protected: every top-level window whose `_NET_WM_PID` is deskgate's process,
plus what `protect()` registers (an X window id, or an exact title), plus named areas
(`protect_area`, e.g. the tray icon's geometry). Their on-screen rects (frame included) go into
`Observation.protected`; `protected_active` is set when the active window is one of them.

pywinctl, mss and python-xlib's display are imported lazily: pywinctl exits the interpreter at import
without a display, so nothing here touches them until an X11Desktop is built.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import queue
import select
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from app.desktop.pixels import (
    MARK_COLOR,
    average_hash,
    bgra_to_rgb,
    downscale_rgb,
    draw_line,
    encode_png,
    mark_point,
    outline_box,
)
from gate.model import EMPTY_OBSERVATION, Action, Observation, Rect

__all__ = [
    "MARK_COLOR",
    "NullDesktop",
    "X11Desktop",
    "average_hash",
    "bgra_to_rgb",
    "display_available",
    "downscale_rgb",
    "draw_line",
    "encode_png",
    "make_desktop",
    "mark_point",
]

log = logging.getLogger(__name__)

PREVIEW_SIZE = (480, 300)       # region around a pointer target
PREVIEW_MAX_WIDTH = 640         # other previews are downscaled to at most this width
HASH_SETTLE_S = 0.03            # after a damage notification, wait for the drawing burst to end
HASH_MIN_INTERVAL_S = 0.1       # at most ten background hashes a second while the screen keeps changing


def pointer_points(action: Action) -> list[tuple[int, int]]:
    """The screen points a pointer action aims at (empty for other actions)."""
    kind = action.type
    if kind in ("click", "move"):
        return [(action.x, action.y)]
    if kind == "scroll" and action.x is not None:
        return [(action.x, action.y)]
    if kind == "drag":
        return [tuple(p) for p in action.path]
    return []


def _region_around(points: list[tuple[int, int]], screen_w: int, screen_h: int) -> tuple[int, int, int, int]:
    """A box of at least PREVIEW_SIZE containing all points, clamped to the screen."""
    pw, ph = PREVIEW_SIZE
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    w = min(screen_w, max(pw, x1 - x0 + 80))
    h = min(screen_h, max(ph, y1 - y0 + 80))
    left = min(max(0, (x0 + x1) // 2 - w // 2), screen_w - w)
    top = min(max(0, (y0 + y1) // 2 - h // 2), screen_h - h)
    return left, top, w, h


def display_available(display: str | None = None) -> bool:
    """True when an X server answers on `display` (default $DISPLAY)."""
    name = display or os.environ.get("DISPLAY")
    if not name:
        return False
    try:
        from Xlib import display as xdisplay

        d = xdisplay.Display(name)
    except Exception:  # Xlib raises DisplayError / ConnectionClosedError / OSError variants
        return False
    d.close()
    return True


def own_process_identity(pid: int | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(names, command lines) a process search finds this process by, for `Observation.own_names` /
    `own_cmdlines`: the kernel's process name (what `pkill NAME` and `killall NAME` compare; `deskgate` when
    started through its script), the base names of argv[0] and of the program file (`python3.11`), and the
    command line as `ps` and `pkill -f` show it. Read once; from /proc where there is one, else from `sys`."""
    import sys

    pid = os.getpid() if pid is None else pid
    names: list[str] = []
    argv: list[str] = []
    proc = f"/proc/{pid}"
    with contextlib.suppress(OSError), open(f"{proc}/comm", encoding="utf-8", errors="replace") as f:
        names.append(f.read().strip())
    with contextlib.suppress(OSError), open(f"{proc}/cmdline", "rb") as f:
        argv = [w.decode("utf-8", "replace") for w in f.read().split(b"\0") if w]
    exe = ""
    with contextlib.suppress(OSError):
        exe = os.readlink(f"{proc}/exe")
    if not argv and pid == os.getpid():
        argv = list(getattr(sys, "orig_argv", None) or [sys.executable, *sys.argv])
    exe = exe or (sys.executable if pid == os.getpid() else "")
    for path in (argv[0] if argv else "", exe, *(argv[1:2] if len(argv) > 1 and not argv[1].startswith("-") else ())):
        base = os.path.basename(path.rstrip("/"))
        if base:
            names.append(base)
            names.append(base.removesuffix(".exe"))
    cmdline = " ".join(argv)
    return tuple(dict.fromkeys(n for n in names if n)), ((cmdline,) if cmdline else ())


# -- no display --------------------------------------------------------------------------------------


class NullDesktop:
    """No display: an empty observation, no preview. GUI actions fail in the executor as `unsupported`."""

    person_input = False  # no mouse or keyboard here: no kill-switch hotkey, no takeover

    def __init__(self) -> None:
        # nothing on a screen to read, but the supervisor's own process is still one an agent must not signal
        names, cmdlines = own_process_identity()
        self._obs = msgspec.structs.replace(EMPTY_OBSERVATION, own_pids=(os.getpid(),), own_names=names,
                                            own_cmdlines=cmdlines)

    def observe(self) -> Observation:
        return self._obs

    def observe_fresh(self) -> Observation:
        return self._obs

    def observe_for(self, action: Action, *, fresh: bool = False) -> Observation:
        return self._obs

    def preview(self, action: Action, outline: Rect | None = None) -> tuple[bytes, tuple[int, int, int, int]] | None:
        return None

    def protect(self, window: str | int) -> None:
        return None

    def unprotect(self, window: str | int) -> None:
        return None

    def protect_area(self, key: str, rect: Rect | None) -> None:
        return None

    def start(self) -> None:
        return None

    def stop(self) -> None:
        return None


# -- X11 -------------------------------------------------------------------------------------------


def _parse_window(window: str | int) -> int | str:
    """An X window id (int, "1234", "0x4a0000f") or else an exact title."""
    if isinstance(window, int):
        return window
    text = window.strip()
    try:
        return int(text, 16) if text.lower().startswith("0x") else int(text)
    except ValueError:
        return window


def _proc_comm(pid: int) -> str:
    """The process name, as `ps -o comm=` prints it (what pywinctl's getAppName returns)."""
    if pid <= 0:
        return ""
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as fh:
            return fh.read().strip()
    except OSError:
        return ""


class _X:
    """Window reads on one python-xlib connection. Not thread-safe: one owner thread or a lock."""

    def __init__(self, name: str) -> None:
        from Xlib import X, Xatom, display, error

        self.X, self.Xatom, self.error = X, Xatom, error
        self.d = display.Display(name)
        self.d.set_error_handler(lambda *_: None)  # async errors on windows that just died are expected
        self.root = self.d.screen().root
        atom = self.d.intern_atom
        self.ACTIVE = atom("_NET_ACTIVE_WINDOW")
        self.CLIENTS = atom("_NET_CLIENT_LIST")
        self.NET_NAME = atom("_NET_WM_NAME")
        self.UTF8 = atom("UTF8_STRING")
        self.PID = atom("_NET_WM_PID")
        self.EXTENTS = atom("_NET_FRAME_EXTENTS")
        self.WM_NAME = Xatom.WM_NAME
        self.damage_event = -1  # event code of DamageNotify when the server has DAMAGE
        self._errors = (error.XError, error.BadWindow, error.BadDrawable, error.BadMatch, error.BadValue)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.d.close()

    def track_damage(self) -> int | None:
        """Ask for a DamageNotify when the screen's contents change (report level: non-empty). The damage
        object stays quiet after one notification until `damage_subtract` re-arms it."""
        try:
            if not self.d.has_extension("DAMAGE"):
                return None
            from Xlib.ext import damage

            self.d.damage_query_version()  # the protocol requires this before any other request
            handle = self.root.damage_create(damage.DamageReportNonEmpty)
            self.damage_event = self.d.query_extension("DAMAGE").first_event + damage.DamageNotifyCode
            self.d.flush()
            return handle
        except Exception as err:
            log.info("no DAMAGE tracking (%s): the screen hash is taken on demand", err)
            return None

    def window(self, wid: int):
        return self.d.create_resource_object("window", wid)

    def screen_size(self) -> tuple[int, int]:
        g = self.root.get_geometry()
        return g.width, g.height

    def active_id(self) -> int:
        prop = self.root.get_full_property(self.ACTIVE, self.X.AnyPropertyType)
        if not prop or not len(prop.value):
            return 0
        return int(prop.value[0])

    def client_ids(self) -> list[int]:
        prop = self.root.get_full_property(self.CLIENTS, self.X.AnyPropertyType)
        return [int(v) for v in prop.value] if prop else []

    def pid_at(self, x: int, y: int) -> int:
        """The pid of the topmost top-level window whose frame holds (x, y); 0 when none says.

        The root's children come in stacking order, bottom to top (X protocol), whatever the window
        manager keeps in its own lists; the pid is on the client window inside the WM's frame."""
        try:
            children = self.root.query_tree().children
        except self._errors:
            return 0
        for top in reversed(children):
            try:
                attrs = top.get_attributes()
                if attrs.map_state != self.X.IsViewable or attrs.win_class == self.X.InputOnly:
                    continue
                g = top.get_geometry()
                if not (g.x <= x < g.x + g.width and g.y <= y < g.y + g.height):
                    continue
            except self._errors:
                continue
            return self._pid_within(top, 3)
        return 0

    def _pid_within(self, window, depth: int) -> int:
        pid = self.pid(window.id)
        if pid or depth == 0:
            return pid
        try:
            children = window.query_tree().children
        except self._errors:
            return 0
        for child in reversed(children):
            pid = self._pid_within(child, depth - 1)
            if pid:
                return pid
        return 0

    def title(self, wid: int) -> str:
        if not wid:
            return ""
        try:
            w = self.window(wid)
            prop = w.get_full_property(self.NET_NAME, self.UTF8)
            if prop and prop.value:
                v = prop.value
                return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
            prop = w.get_full_property(self.WM_NAME, self.X.AnyPropertyType)
            if prop and prop.value:
                v = prop.value
                return v.decode("latin-1") if isinstance(v, bytes) else str(v)
        except self._errors:
            pass
        return ""

    def pid(self, wid: int) -> int:
        if not wid:
            return 0
        try:
            prop = self.window(wid).get_full_property(self.PID, self.X.AnyPropertyType)
        except self._errors:
            return 0
        return int(prop.value[0]) if prop and len(prop.value) else 0

    def rect(self, wid: int) -> Rect | None:
        """The window's on-screen box including the WM frame; None when it is not viewable."""
        try:
            w = self.window(wid)
            if w.get_attributes().map_state != self.X.IsViewable:
                return None
            g = w.get_geometry()
            pos = self.root.translate_coords(w, 0, 0)
            left = right = top = bottom = 0
            prop = w.get_full_property(self.EXTENTS, self.X.AnyPropertyType)
            if prop and len(prop.value) == 4:
                left, right, top, bottom = (int(v) for v in prop.value)
        except self._errors:
            return None
        return Rect(pos.x - left, pos.y - top, g.width + left + right, g.height + top + bottom)

    def select(self, wid: int, mask: int) -> None:
        with contextlib.suppress(*self._errors):
            self.window(wid).change_attributes(event_mask=mask)


class _State(msgspec.Struct, frozen=True):
    active: int = 0
    title: str = ""
    app: str = ""
    width: int = 0
    height: int = 0
    protected_ids: frozenset[int] = frozenset()
    rects: tuple[tuple[int, Rect], ...] = ()


class X11Desktop:
    """The desktop of an X11 session, kept current by a watcher thread. Every method is thread-safe."""

    person_input = True  # the person's mouse and keyboard: the kill-switch hotkey and takeover listen here

    def __init__(self, display: str | None = None, *, hash_max_age_s: float = 0.25,
                 own_pid: int | None = None, clock: Callable[[], float] = time.monotonic,
                 pointer: Any = None) -> None:
        self.display = display or os.environ.get("DISPLAY", "")
        if not self.display:
            raise RuntimeError("no X display: DISPLAY is not set")
        self.hash_max_age_s = hash_max_age_s
        self.own_pid = os.getpid() if own_pid is None else own_pid
        self.own_names, self.own_cmdlines = own_process_identity(self.own_pid)
        self._clock = clock
        self._lock = threading.Lock()           # guards the fields below
        self._state = _State()
        self._obs: Observation | None = None    # cached observation without the screen hash
        self._ids: set[int] = set()             # protect(id)
        self._titles: set[str] = set()          # protect(title)
        self._areas: dict[str, Rect] = {}       # protect_area(key, rect)
        self._hash = ""
        self._hash_at = float("-inf")
        self._hash_lock = threading.Lock()      # one grab at a time; mss is not shared across threads
        self._sct: Any = None
        self._q_lock = threading.Lock()         # the query connection (protect, observe_fresh, preview)
        self._q = _X(self.display)
        self._watch_x: _X | None = None
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = -1, -1
        self._commands: queue.SimpleQueue[Callable[[_X], None]] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._pywinctl: Any = None
        self._damage: int | None = None         # the watcher's damage object, when DAMAGE works
        self._damaged = threading.Event()       # watcher → hasher: the screen changed
        self._hasher: threading.Thread | None = None
        self._connected = False                 # the watcher holds a live X connection
        self.watcher_restarts = 0
        # reads the element at a pointer action's target / the focused field (app/desktop/pointer.py); None: off
        self.pointer = pointer

    # -- lifecycle --------------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stopping.clear()
        self._watch_x = _X(self.display)
        self._wake_r, self._wake_w = os.pipe()
        ready = threading.Event()
        self._thread = threading.Thread(target=self._watch, args=(ready,), name="deskgate-desktop", daemon=True)
        self._thread.start()
        ready.wait(5.0)
        if self._damage is not None:
            self._screen_hash(max_age=0.0)  # so observe() never grabs: from now on the hasher keeps it current
            self._hasher = threading.Thread(target=self._hash_loop, name="deskgate-screen-hash", daemon=True)
            self._hasher.start()

    def stop(self) -> None:
        thread = self._thread
        if thread is None:
            return
        self._stopping.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        thread.join(5.0)
        self._thread = None
        self._damaged.set()  # wake the hasher so it sees _stopping
        if self._hasher is not None:
            self._hasher.join(5.0)
            self._hasher = None
        self._damage = None
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_r = self._wake_w = -1
        with self._hash_lock:
            if self._sct is not None:
                with contextlib.suppress(Exception):
                    self._sct.close()
                self._sct = None

    def close(self) -> None:
        self.stop()
        with self._q_lock:
            self._q.close()
        if self.pointer is not None:
            self.pointer.close()

    @property
    def watching(self) -> bool:
        return self._connected and self._thread is not None and self._thread.is_alive()

    # -- observations -----------------------------------------------------------------------------

    def observe(self) -> Observation:
        """The cached observation (kept current by the watcher), with a screen hash at most hash_max_age_s old.

        Without a running watcher (not started, or its X connection died) this reads fresh: slower, never stale.
        """
        if not self.watching:
            return self.observe_fresh()
        with self._lock:
            obs = self._obs
        if obs is None:
            return self.observe_fresh()
        if self._damage is not None and self._hasher is not None and self._hasher.is_alive():
            return msgspec.structs.replace(obs, screen_hash=self._hash)  # kept current by the hasher
        return msgspec.structs.replace(obs, screen_hash=self._screen_hash(max_age=self.hash_max_age_s))

    def observe_fresh(self) -> Observation:
        """Read the desktop now: active window/app through pywinctl, protected rects, a new screen hash."""
        try:
            title, app, active = self._pywinctl_active()
        except Exception as err:  # a window that vanished mid-read, or the X server went away
            log.warning("active window read failed: %s", err)
            title, app, active = "", "", 0
        with self._q_lock:
            try:
                width, height = self._q.screen_size()
                ids, rects = self._resolve_protected(self._q)
            except Exception as err:
                log.warning("desktop read failed: %s", err)
                width, height, ids, rects = 0, 0, frozenset(), ()
                self._reconnect_query()
        state = _State(active=active, title=title, app=app, width=width, height=height,
                       protected_ids=ids, rects=rects)
        obs = self._publish(state)
        return msgspec.structs.replace(obs, screen_hash=self._screen_hash(max_age=0.0))

    def observe_for(self, action: Action, *, fresh: bool = False) -> Observation:
        """`observe()` (`observe_fresh()` when `fresh`) plus what deskgate reads at the action's target: the
        accessible element under a click or drag, else the text recognised around it; for typing, the
        focused field. Nothing read (no reader, no accessibility bus, no tesseract, another action type)
        leaves those fields empty."""
        obs = self.observe_fresh() if fresh else self.observe()
        reader = self.pointer
        if reader is None:
            return obs
        from app.desktop.pointer import FOCUS_TYPES, POINT_TYPES, ends_line

        if action.type not in POINT_TYPES | FOCUS_TYPES or (action.type == "key" and not ends_line(action)):
            return obs  # a shortcut reads nothing; a line end reads the terminal's prompt line

        def pid_at(x: int, y: int) -> int | None:
            with self._q_lock:
                return self._q.pid_at(x, y) or None

        def active_pid() -> int | None:
            with self._q_lock:
                return self._q.pid(self._q.active_id()) or None

        try:
            got = reader.read(action, pid_at=pid_at, active_pid=active_pid, grab=self._grab,
                              screen=(obs.screen_width, obs.screen_height))
        except Exception as err:  # a reader bug must not cost the observation: judge what the agent said
            log.warning("reading the action's target failed: %s", err)
            return obs
        if not got.source and not got.tried:
            return obs
        if action.type == "key":  # a line end: only the terminal's prompt line is of use (not a target label)
            return msgspec.structs.replace(obs, screen_line=got.screen_line)
        return msgspec.structs.replace(obs, pointer_label=got.label, pointer_role=got.role, label_source=got.source,
                                       label_confidence=got.confidence, pointer_read=got.tried,
                                       target_box=Rect(*got.box) if got.box is not None else None,
                                       screen_line=got.screen_line)

    def _reconnect_query(self) -> None:
        """Replace a dead query connection (caller holds _q_lock)."""
        self._q.close()
        try:
            self._q = _X(self.display)
        except Exception as err:
            log.warning("X display %s unreachable: %s", self.display, err)

    def _pywinctl_active(self) -> tuple[str, str, int]:
        with self._q_lock:
            if self._pywinctl is None:
                import pywinctl

                self._pywinctl = pywinctl
            win = self._pywinctl.getActiveWindow()
            if win is None:
                return "", "", 0
            return win.title or "", win.getAppName() or "", int(win.getHandle())

    def _publish(self, state: _State) -> Observation:
        """Store a new state and its observation (without hash). Called from the watcher and observe_fresh."""
        with self._lock:
            rects = tuple(r for _, r in state.rects) + tuple(self._areas.values())
            active_protected = state.active in state.protected_ids or state.title in self._titles
            obs = Observation(window_title=state.title, app=state.app, screen_width=state.width,
                              screen_height=state.height, protected=rects,
                              protected_active=bool(state.active) and active_protected,
                              window_id=int(state.active or 0), own_pids=(self.own_pid,),
                              own_names=self.own_names, own_cmdlines=self.own_cmdlines)
            if self._damage is None and (state.active != self._state.active or state.title != self._state.title):
                self._hash_at = float("-inf")  # the screen changed: the next observe re-hashes
            self._state, self._obs = state, obs
            return obs

    def _resolve_protected(self, x: _X) -> tuple[frozenset[int], tuple[tuple[int, Rect], ...]]:
        """deskgate's windows: registered ids, clients with a registered title, clients of our own pid."""
        with self._lock:
            ids, titles = set(self._ids), set(self._titles)
        for wid in x.client_ids():
            if wid in ids:
                continue
            if x.pid(wid) == self.own_pid or (titles and x.title(wid) in titles):
                ids.add(wid)
        rects = []
        for wid in sorted(ids):
            r = x.rect(wid)
            if r is not None:
                rects.append((wid, r))
        return frozenset(ids), tuple(rects)

    # -- screen hash ------------------------------------------------------------------------------

    def _grabber(self) -> Any:
        if self._sct is None:
            import mss

            self._sct = mss.MSS(display=self.display)
        return self._sct

    def _drop_grabber(self) -> None:
        if self._sct is not None:
            with contextlib.suppress(Exception):
                self._sct.close()
            self._sct = None

    def _grab(self, box: tuple[int, int, int, int]) -> tuple[bytes, int, int]:
        left, top, w, h = box
        with self._hash_lock:
            try:
                img = self._grabber().grab({"left": left, "top": top, "width": w, "height": h})
            except Exception:
                self._drop_grabber()
                raise
            return img.raw, img.width, img.height

    def _screen_hash(self, *, max_age: float) -> str:
        now = self._clock()
        with self._hash_lock:
            if now - self._hash_at <= max_age and self._hash:
                return self._hash
            try:
                sct = self._grabber()
                mon = sct.monitors[0]  # the whole X screen
                img = sct.grab(mon)
                self._hash = average_hash(img.raw, img.width, img.height)
            except Exception as err:
                log.warning("screen grab failed: %s", err)
                self._hash = ""
                self._drop_grabber()  # reconnect on the next grab
            self._hash_at = now
            return self._hash

    def _hash_loop(self) -> None:
        """Re-hash after the screen changed (DAMAGE), never while it is idle."""
        while True:
            self._damaged.wait()
            if self._stopping.is_set():
                return
            time.sleep(HASH_SETTLE_S)
            self._damaged.clear()
            rearmed = threading.Event()
            self._post(lambda x, done=rearmed: self._rearm(x, done))
            rearmed.wait(1.0)  # re-arm before grabbing, so a change during the grab is not missed
            if self._stopping.is_set():
                return
            started = self._clock()
            self._screen_hash(max_age=0.0)
            rest = HASH_MIN_INTERVAL_S - (self._clock() - started)
            if rest > 0 and self._stopping.wait(rest):
                return

    def _rearm(self, x: _X, done: threading.Event) -> None:
        try:
            if self._damage is not None:
                x.d.damage_subtract(self._damage)
                x.d.flush()
        finally:
            done.set()

    # -- protected windows ------------------------------------------------------------------------

    def protect(self, window: str | int) -> None:
        """Register one of deskgate's own windows (an X window id, or its exact title)."""
        key = _parse_window(window)
        with self._lock:
            if isinstance(key, int):
                self._ids.add(key)
            else:
                self._titles.add(key)
        self._refresh_protected()

    def unprotect(self, window: str | int) -> None:
        key = _parse_window(window)
        with self._lock:
            if isinstance(key, int):
                self._ids.discard(key)
            else:
                self._titles.discard(key)
        self._refresh_protected()

    def protect_area(self, key: str, rect: Rect | None) -> None:
        """A named screen area that is deskgate's (e.g. its tray icon); None removes it."""
        with self._lock:
            if rect is None:
                self._areas.pop(key, None)
            else:
                self._areas[key] = rect
        self._refresh_protected()

    def _refresh_protected(self) -> None:
        """Re-read the protected set now (so the next observe has it), and let the watcher follow it."""
        with self._q_lock:
            try:
                ids, rects = self._resolve_protected(self._q)
            except Exception as err:
                log.warning("protected windows read failed: %s", err)
                return
        with self._lock:
            state = msgspec.structs.replace(self._state, protected_ids=ids, rects=rects)
        self._publish(state)
        if self.watching:
            self._post(lambda x: self._watch_protected(x, ids))

    # -- the watcher thread -----------------------------------------------------------------------

    def _post(self, command: Callable[[_X], None]) -> None:
        self._commands.put(command)
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"c")

    _watched: frozenset[int] = frozenset()
    _active_watched: int = 0

    def _mask_for(self, x: _X, wid: int) -> int:
        mask = 0
        if wid == self._active_watched:
            mask |= x.X.PropertyChangeMask
        if wid in self._watched:
            mask |= x.X.StructureNotifyMask | x.X.PropertyChangeMask
        return mask

    def _watch_protected(self, x: _X, ids: Iterable[int]) -> None:
        new = frozenset(ids)
        old = self._watched
        self._watched = new
        for wid in old | new:
            x.select(wid, self._mask_for(x, wid))
        x.d.flush()

    def _read_state(self, x: _X) -> _State:
        active = x.active_id()
        if active != self._active_watched:
            previous, self._active_watched = self._active_watched, active
            if previous:
                x.select(previous, self._mask_for(x, previous))
            if active:
                x.select(active, self._mask_for(x, active))
        ids, rects = self._resolve_protected(x)
        if ids != self._watched:
            self._watch_protected(x, ids)
        width, height = x.screen_size()
        return _State(active=active, title=x.title(active), app=_proc_comm(x.pid(active)),
                      width=width, height=height, protected_ids=ids, rects=rects)

    def _watch(self, ready: threading.Event) -> None:
        """Run the watcher; if the X connection drops, reconnect (with backoff) until stopped.

        While it is down `watching` is False and observe() reads fresh: slower, never stale.
        """
        backoff = 0.2
        while not self._stopping.is_set():
            x = self._watch_x
            if x is None:
                try:
                    x = self._watch_x = _X(self.display)
                except Exception as err:
                    log.warning("desktop watcher cannot reconnect: %s", err)
                    if self._stopping.wait(backoff):
                        break
                    backoff = min(5.0, backoff * 2)
                    continue
            try:
                self._watch_once(x, ready)
                backoff = 0.2
            except Exception as err:
                log.warning("desktop watcher lost its X connection (%s); reconnecting", err)
                self.watcher_restarts += 1
            finally:
                self._connected = False
                self._damage = None
                x.close()
                self._watch_x = None
            if self._stopping.wait(backoff):
                break
        ready.set()

    def _watch_once(self, x: _X, ready: threading.Event) -> None:
        X = x.X
        x.root.change_attributes(event_mask=X.PropertyChangeMask | X.StructureNotifyMask)
        self._watched, self._active_watched = frozenset(), 0
        self._damage = x.track_damage()
        self._publish(self._read_state(x))
        self._connected = True
        ready.set()
        fd = x.d.fileno()
        while not self._stopping.is_set():
            dirty = False
            while True:
                try:
                    command = self._commands.get_nowait()
                except queue.Empty:
                    break
                command(x)
            while x.d.pending_events():
                dirty |= self._relevant(x, x.d.next_event())
            if dirty:
                self._publish(self._read_state(x))
                continue  # the reads may have queued more events
            readable, _, _ = select.select([fd, self._wake_r], [], [])
            if self._wake_r in readable:
                with contextlib.suppress(OSError):
                    os.read(self._wake_r, 4096)

    def _relevant(self, x: _X, ev: Any) -> bool:
        X = x.X
        kind = ev.type
        if kind == x.damage_event:
            self._damaged.set()  # the hasher re-arms the damage object when it grabs
            return False
        if kind == X.PropertyNotify:
            wid = ev.window.id
            if wid == x.root.id:
                return ev.atom in (x.ACTIVE, x.CLIENTS)
            return ev.atom in (x.NET_NAME, x.WM_NAME, x.EXTENTS)
        return kind in (X.ConfigureNotify, X.MapNotify, X.UnmapNotify, X.DestroyNotify)

    # -- preview ----------------------------------------------------------------------------------

    def preview(self, action: Action, outline: Rect | None = None) -> tuple[bytes, tuple[int, int, int, int]] | None:
        """A PNG of what the action aims at, and its screen box (x, y, w, h).

        Pointer actions: a region of at least 480×300 around the target(s). With `outline` (the element deskgate
        read there, app/desktop/pointer.py) the element is outlined, so its label stays readable; otherwise each
        point is marked with a crosshair and circle. Other actions: the active window (or the whole screen),
        downscaled to at most 640 px wide. None when the screen cannot be grabbed.
        """
        try:
            with self._q_lock:
                sw, sh = self._q.screen_size()
                points = pointer_points(action)
                if points:
                    corners = [(outline.x, outline.y), (outline.x + outline.width, outline.y + outline.height)] \
                        if outline is not None else []
                    box = _region_around(points + corners, sw, sh)
                else:
                    active = self._q.active_id()
                    rect = self._q.rect(active) if active else None
                    box = _clamp_box(rect, sw, sh) if rect is not None else (0, 0, sw, sh)
            raw, w, h = self._grab(box)
            rgb, sw2, sh2 = downscale_rgb(bgra_to_rgb(raw, w, h), w, h, PREVIEW_MAX_WIDTH)
            # Marks go on after downscaling so they keep their size; a drag's path is drawn as a line.
            scaled = [((px - box[0]) * sw2 // w, (py - box[1]) * sh2 // h) for px, py in points]
            for (x0, y0), (x1, y1) in itertools.pairwise(scaled):
                draw_line(rgb, sw2, sh2, x0, y0, x1, y1)
            if outline is not None and len(scaled) == 1:
                ox0, oy0 = (outline.x - box[0]) * sw2 // w, (outline.y - box[1]) * sh2 // h
                ox1 = (outline.x + outline.width - box[0]) * sw2 // w
                oy1 = (outline.y + outline.height - box[1]) * sh2 // h
                outline_box(rgb, sw2, sh2, ox0, oy0, ox1, oy1)
                return encode_png(rgb, sw2, sh2), box
            for px, py in scaled if len(scaled) <= 2 else (scaled[0], scaled[-1]):
                mark_point(rgb, sw2, sh2, px, py)
            return encode_png(rgb, sw2, sh2), box
        except Exception as err:
            log.warning("preview failed: %s", err)
            return None


def _clamp_box(rect: Rect, sw: int, sh: int) -> tuple[int, int, int, int]:
    left, top = max(0, rect.x), max(0, rect.y)
    right, bottom = min(sw, rect.x + rect.width), min(sh, rect.y + rect.height)
    if right - left < 8 or bottom - top < 8:
        return (0, 0, sw, sh)
    return left, top, right - left, bottom - top


def make_desktop(display: str | None = None, *, read_pointer: bool = True) -> X11Desktop | NullDesktop:
    """X11Desktop when an X server answers on `display` (default $DISPLAY), else NullDesktop.

    `read_pointer`: read the element at each click / the focused field for typing (app/desktop/pointer.py)."""
    name = display or os.environ.get("DISPLAY")
    if os.environ.get("WAYLAND_DISPLAY") and not name:
        log.warning("Wayland without XWayland: no desktop observation")
    if name and display_available(name):
        try:
            pointer = None
            if read_pointer:
                from app.desktop.pointer import PointerReader

                pointer = PointerReader()
            return X11Desktop(name, pointer=pointer)
        except Exception as err:
            log.warning("X11 desktop unavailable (%s): using NullDesktop", err)
    return NullDesktop()
