"""A drop-in for the `pyautogui` module whose every action goes through deskgate.

An agent written against pyautogui changes one line:

    import pyautogui                      # before
    from app.agent import pyautogui       # after: same calls, same arguments, same return values

    pyautogui.click(640, 400)
    pyautogui.write("hello")
    pyautogui.hotkey("ctrl", "s")

Each call becomes one (or a few) `act` requests on one lazily opened session (`configure()` sets the
socket, agent name and expected app/window). The supervisor decides; a refusal raises `ActionRefused`
(a `app.agent.client.Denied`, with `.reason` and `.rules`) and nothing happens on screen. With no supervisor the
client raises `SupervisorUnavailable` and nothing happens either: there is no fallback to real input.

Differences from pyautogui, all on the side of doing less:
- `duration`, `tween` and `typewrite(interval=)` are accepted and ignored: the executor moves and types
  at its own pace. `PAUSE` is honoured (slept after each call), `FAILSAFE` too (pointer in a corner →
  `FailSafeException`, checked locally before anything is sent; the executor checks again).
- `keyDown` / `keyUp` are approximated: keys held with `keyDown` are combined with the next `press`,
  `hotkey` or `write` key (keyDown('ctrl'); press('c'); keyUp('ctrl') → ctrl+c); a `keyUp` of a key that
  was combined with nothing presses it once. `mouseDown` … `moveTo` … `mouseUp` becomes one `drag` (or a
  click when the pointer did not move). A click while keys are held raises: the wire's click has no
  modifiers.
- `screenshot()` goes through deskgate's `screenshot` action (gated and logged like any other) and returns
  a `Screenshot` (PNG bytes, at most 640 px wide, plus the screen size), not a PIL image; `.to_pil()`
  converts when Pillow is installed, `imageFilename` saves the PNG. `region` is refused.
- Image arguments (`click("button.png")`, `locateOnScreen`) are not supported.
- `position()` reads the real pointer (read-only, through X); `size()` asks deskgate (`observe`).
"""

from __future__ import annotations

import base64
import collections
import contextlib
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.agent.adapters import normalise_key, normalise_keys
from app.agent.client import Client, Denied

__all__ = [
    "FAILSAFE", "FAILSAFE_POINTS", "KEYBOARD_KEYS", "LEFT", "MIDDLE", "PAUSE", "PRIMARY", "RIGHT", "SECONDARY",
    "ActionRefused", "FailSafeException", "Point", "PyAutoGUIException", "Screenshot", "Size",
    "click", "configure", "disconnect", "doubleClick", "drag", "dragRel", "dragTo", "hotkey", "hscroll",
    "isValidKey", "keyDown", "keyUp", "leftClick", "middleClick", "mouseDown", "mouseUp", "move", "moveRel",
    "moveTo", "onScreen", "position", "press", "rightClick", "screenshot", "scroll", "size", "tripleClick",
    "typewrite", "vscroll", "write",
]

# -- what pyautogui users touch --------------------------------------------------------------------

FAILSAFE = True
PAUSE = 0.1  # seconds slept after every call, as pyautogui does
LEFT, MIDDLE, RIGHT, PRIMARY, SECONDARY = "left", "middle", "right", "primary", "secondary"

Point = collections.namedtuple("Point", "x y")
Size = collections.namedtuple("Size", "width height")

# pyautogui's key names that deskgate can press (pyautogui's own list also has media and IME keys).
KEYBOARD_KEYS = [
    "\t", "\n", "\r", " ", "!", '"', "#", "$", "%", "&", "'", "(", ")", "*", "+", ",", "-", ".", "/",
    *"0123456789", ":", ";", "<", "=", ">", "?", "@", "[", "\\", "]", "^", "_", "`", *"abcdefghijklmnopqrstuvwxyz",
    "{", "|", "}", "~", "add", "alt", "altleft", "altright", "apps", "backspace", "capslock", "command", "ctrl",
    "ctrlleft", "ctrlright", "decimal", "del", "delete", "divide", "down", "end", "enter", "esc", "escape",
    *(f"f{n}" for n in range(1, 25)), "home", "insert", "left", "multiply", *(f"num{n}" for n in range(10)),
    "numlock", "option", "optionleft", "optionright", "pagedown", "pageup", "pause", "pgdn", "pgup", "print",
    "printscreen", "prntscrn", "prtsc", "prtscr", "return", "right", "scrolllock", "shift", "shiftleft",
    "shiftright", "space", "subtract", "tab", "up", "win", "winleft", "winright",
]


class PyAutoGUIException(Exception):
    """pyautogui's base exception (kept so `except pyautogui.PyAutoGUIException` still works)."""


class FailSafeException(PyAutoGUIException):
    """The pointer is in a screen corner: a person's stop gesture. Nothing was sent."""


class ActionRefused(Denied):
    """deskgate refused the action (`verdict: denied`): `.reason`, `.rules`, `.decision`, `.decided_by`,
    `.audit_id`. Nothing reached the screen."""


@dataclass(frozen=True)
class Screenshot:
    """What deskgate's `screenshot` action returned: a PNG (downscaled) and the real screen size."""

    png: bytes
    width: int
    height: int
    screen_width: int
    screen_height: int
    sha256: str

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def save(self, path: str | Path) -> Path:
        out = Path(path)
        out.write_bytes(self.png)
        return out

    def to_pil(self) -> Any:
        """A PIL image (needs Pillow)."""
        import io

        from PIL import Image

        return Image.open(io.BytesIO(self.png))


# -- the one connection ---------------------------------------------------------------------------


class _Gate:
    """The module's session with deskgate: made on first use, re-made by `configure`."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.socket: str | Path | None = None
        self.agent = "pyautogui-agent"
        self.expect: dict[str, str] | None = None
        self.timeout: float | None = 120.0
        self.client: Client | None = None
        self.last_position: tuple[int, int] | None = None  # where our own actions left the pointer
        self.held_keys: list[str] = []   # keyDown without keyUp
        self.held_used = False           # a held key was combined with another
        self.pressed: list[tuple[int, int]] | None = None  # mouseDown … mouseUp path
        self.pressed_button = "left"

    def session(self) -> Client:
        with self.lock:
            if self.client is None:
                client = Client(self.socket, timeout=self.timeout)
                try:
                    client.hello(self.agent, expect=self.expect)
                except BaseException:
                    client.close()
                    raise
                self.client = client
            return self.client

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """One action; a refusal raises ActionRefused, a failed execution its typed error."""
        with self.lock:
            try:
                return self.session().act(action, raise_on_deny=True)
            except ActionRefused:
                raise
            except Denied as no:
                raise ActionRefused(no.reply) from None

    def close(self) -> None:
        with self.lock:
            client, self.client = self.client, None
            self.held_keys, self.held_used, self.pressed = [], False, None
            if client is not None:
                with contextlib.suppress(Exception):
                    client.bye()
                client.close()


_gate = _Gate()


def configure(socket: str | Path | None = None, agent: str = "pyautogui-agent",
              expect: dict[str, str] | None = None, *, timeout: float | None = 120.0) -> None:
    """Where deskgate is and who is asking. Ends the current session; the next call opens a new one.

    socket: default `$XDG_RUNTIME_DIR/deskgate/deskgate.sock`; expect: e.g. {"app": "firefox"}."""
    with _gate.lock:
        _gate.close()
        _gate.socket, _gate.agent, _gate.timeout = socket, agent, timeout
        _gate.expect = dict(expect) if expect is not None else None


def disconnect() -> None:
    """End the session (it also ends when the process exits)."""
    _gate.close()


# -- reading the desktop (read-only) ----------------------------------------------------------------

_xlib: dict[str, Any] = {}


def _read_pointer() -> tuple[int, int] | None:
    """The real pointer position through X (a query, never input), or None without a display."""
    try:
        if "display" not in _xlib:
            from Xlib import display

            _xlib["display"] = display.Display()
        pointer = _xlib["display"].screen().root.query_pointer()
        return int(pointer.root_x), int(pointer.root_y)
    except Exception:  # no X, or the connection broke: forget it and fall back to our own record
        _xlib.pop("display", None)
        return None


def position(x: float | None = None, y: float | None = None) -> Point:
    """The pointer position (x / y given: those replace the read values, as in pyautogui)."""
    here = _read_pointer() or _gate.last_position
    if here is None:
        raise PyAutoGUIException("the pointer position cannot be read (no X display) and no action moved it yet")
    return Point(int(x) if x is not None else here[0], int(y) if y is not None else here[1])


def size() -> Size:
    """The screen size as deskgate sees it."""
    seen = _gate.session().observe()
    width, height = int(seen.get("screen_width") or 0), int(seen.get("screen_height") or 0)
    if not width or not height:
        raise PyAutoGUIException("deskgate sees no screen (is it running without a display?)")
    return Size(width, height)


def onScreen(x: Any, y: Any = None) -> bool:
    px, py = _xy(x, y)
    width, height = size()
    return 0 <= px < width and 0 <= py < height


# -- helpers -----------------------------------------------------------------------------------------

FAILSAFE_POINTS: list[tuple[int, int]] = [(0, 0)]  # pyautogui's default: the top-left corner


def _failsafe_check() -> None:
    if not FAILSAFE:
        return
    here = _read_pointer()
    if here is None:
        return
    if here in FAILSAFE_POINTS:
        raise FailSafeException(f"fail-safe triggered: the pointer is at {here}; nothing was sent. Set "
                                "pyautogui.FAILSAFE = False to turn this off (not recommended)")


def _after() -> None:
    if PAUSE:
        time.sleep(PAUSE)


def _xy(x: Any, y: Any) -> tuple[int, int]:
    """pyautogui's argument forms: (x, y), a point as x, None for the current position."""
    if isinstance(x, str):
        raise PyAutoGUIException("image arguments (locating a picture on screen) are not supported through "
                                 "deskgate: give coordinates")
    if isinstance(x, Sequence) and y is None:
        if len(x) < 2:
            raise PyAutoGUIException(f"a point needs x and y, not {x!r}")
        x, y = x[0], x[1]
    if x is None or y is None:
        here = position()
        x = here.x if x is None else x
        y = here.y if y is None else y
    return int(x), int(y)


def _button(button: str) -> str:
    b = str(button).lower()
    if b in ("left", "primary"):
        return "left"
    if b in ("right", "secondary"):
        return "right"
    if b == "middle":
        return "middle"
    raise PyAutoGUIException(f"button must be left, middle, right, primary or secondary, not {button!r}")


def _no_held_keys(what: str) -> None:
    if _gate.held_keys:
        raise PyAutoGUIException(f"{what} while keys are held ({'+'.join(_gate.held_keys)}): deskgate's pointer "
                                 "actions carry no modifiers; release them with keyUp first")


def _key_name(key: str) -> str:
    try:
        return normalise_key(key)
    except ValueError as err:
        raise PyAutoGUIException(str(err)) from None


def _press_combo(keys: list[str]) -> None:
    combo = [*_gate.held_keys, *[k for k in keys if k not in _gate.held_keys]]
    if _gate.held_keys:
        _gate.held_used = True
    _gate.act({"type": "key", "keys": combo})


# -- mouse --------------------------------------------------------------------------------------------


def click(x: Any = None, y: Any = None, clicks: int = 1, interval: float = 0.0, button: str = PRIMARY,
          duration: float = 0.0, tween: Any = None, logScreenshot: Any = None, _pause: bool = True) -> None:
    _failsafe_check()
    _no_held_keys("click")
    px, py = _xy(x, y)
    btn = _button(button)
    with _gate.lock:
        left = int(clicks)
        while left > 0:  # the wire takes 1-3 clicks per action
            n = min(left, 3)
            _gate.act({"type": "click", "x": px, "y": py, "button": btn, "clicks": n})
            _gate.last_position = (px, py)
            left -= n
            if left and interval:
                time.sleep(interval)
    if _pause:
        _after()


def leftClick(x: Any = None, y: Any = None, interval: float = 0.0, duration: float = 0.0, tween: Any = None,
              logScreenshot: Any = None, _pause: bool = True) -> None:
    click(x, y, 1, interval, LEFT, duration, tween, logScreenshot, _pause)


def rightClick(x: Any = None, y: Any = None, duration: float = 0.0, tween: Any = None, logScreenshot: Any = None,
               _pause: bool = True) -> None:
    click(x, y, 1, 0.0, RIGHT, duration, tween, logScreenshot, _pause)


def middleClick(x: Any = None, y: Any = None, duration: float = 0.0, tween: Any = None, logScreenshot: Any = None,
                _pause: bool = True) -> None:
    click(x, y, 1, 0.0, MIDDLE, duration, tween, logScreenshot, _pause)


def doubleClick(x: Any = None, y: Any = None, interval: float = 0.0, button: str = LEFT, duration: float = 0.0,
                tween: Any = None, logScreenshot: Any = None, _pause: bool = True) -> None:
    click(x, y, 2, interval, button, duration, tween, logScreenshot, _pause)


def tripleClick(x: Any = None, y: Any = None, interval: float = 0.0, button: str = LEFT, duration: float = 0.0,
                tween: Any = None, logScreenshot: Any = None, _pause: bool = True) -> None:
    click(x, y, 3, interval, button, duration, tween, logScreenshot, _pause)


def moveTo(x: Any = None, y: Any = None, duration: float = 0.0, tween: Any = None, logScreenshot: bool = False,
           _pause: bool = True) -> None:
    _failsafe_check()
    px, py = _xy(x, y)
    with _gate.lock:
        if _gate.pressed is not None:
            _gate.pressed.append((px, py))  # a button is down: this is part of a drag, sent on mouseUp
        else:
            _gate.act({"type": "move", "x": px, "y": py})
        _gate.last_position = (px, py)
    if _pause:
        _after()


def moveRel(xOffset: Any = None, yOffset: Any = None, duration: float = 0.0, tween: Any = None,
            logScreenshot: bool = False, _pause: bool = True) -> None:
    if isinstance(xOffset, Sequence) and yOffset is None:
        xOffset, yOffset = xOffset[0], xOffset[1]
    here = position()
    moveTo(here.x + int(xOffset or 0), here.y + int(yOffset or 0), duration, tween, logScreenshot, _pause)


move = moveRel


def dragTo(x: Any = None, y: Any = None, duration: float = 0.0, tween: Any = None, button: str = PRIMARY,
           logScreenshot: Any = None, _pause: bool = True, mouseDownUp: bool = True) -> None:
    _failsafe_check()
    _no_held_keys("dragTo")
    start = position()
    px, py = _xy(x, y)
    with _gate.lock:
        _gate.act({"type": "drag", "path": [[start.x, start.y], [px, py]], "button": _button(button)})
        _gate.last_position = (px, py)
    if _pause:
        _after()


def dragRel(xOffset: Any = 0, yOffset: Any = 0, duration: float = 0.0, tween: Any = None, button: str = PRIMARY,
            logScreenshot: Any = None, _pause: bool = True, mouseDownUp: bool = True) -> None:
    if isinstance(xOffset, Sequence) and not isinstance(xOffset, str):
        xOffset, yOffset = xOffset[0], xOffset[1]
    here = position()
    dragTo(here.x + int(xOffset), here.y + int(yOffset), duration, tween, button, logScreenshot, _pause,
           mouseDownUp)


drag = dragRel


def mouseDown(x: Any = None, y: Any = None, button: str = PRIMARY, duration: float = 0.0, tween: Any = None,
              logScreenshot: Any = None, _pause: bool = True) -> None:
    """Starts a press that `mouseUp` finishes: together one click or drag (nothing is sent until then)."""
    _no_held_keys("mouseDown")
    px, py = _xy(x, y)
    with _gate.lock:
        if _gate.pressed is not None:
            raise PyAutoGUIException("mouseDown while a button is already down")
        _gate.pressed, _gate.pressed_button = [(px, py)], _button(button)
        _gate.last_position = (px, py)


def mouseUp(x: Any = None, y: Any = None, button: str = PRIMARY, duration: float = 0.0, tween: Any = None,
            logScreenshot: Any = None, _pause: bool = True) -> None:
    _failsafe_check()
    with _gate.lock:
        if _gate.pressed is None:
            raise PyAutoGUIException("mouseUp without mouseDown")
        here = _xy(x, y) if x is not None or y is not None else _gate.pressed[-1]
        path, btn = _gate.pressed, _gate.pressed_button
        _gate.pressed = None
        if path[-1] != here:
            path.append(here)
        if len(path) == 1:
            _gate.act({"type": "click", "x": here[0], "y": here[1], "button": btn, "clicks": 1})
        else:
            _gate.act({"type": "drag", "path": [list(p) for p in path], "button": btn})
        _gate.last_position = here
    if _pause:
        _after()


def scroll(clicks: float, x: Any = None, y: Any = None, logScreenshot: Any = None, _pause: bool = True) -> None:
    """pyautogui: positive `clicks` scroll up. (The wire's `dy` is positive down.)"""
    _failsafe_check()
    _no_held_keys("scroll")
    action: dict[str, Any] = {"type": "scroll", "dy": -int(clicks)}
    if x is not None or y is not None:
        px, py = _xy(x, y)
        action.update(x=px, y=py)
    _gate.act(action)
    if _pause:
        _after()


vscroll = scroll


def hscroll(clicks: float, x: Any = None, y: Any = None, logScreenshot: Any = None, _pause: bool = True) -> None:
    """pyautogui: positive `clicks` scroll right."""
    _failsafe_check()
    _no_held_keys("hscroll")
    action: dict[str, Any] = {"type": "scroll", "dx": int(clicks)}
    if x is not None or y is not None:
        px, py = _xy(x, y)
        action.update(x=px, y=py)
    _gate.act(action)
    if _pause:
        _after()


# -- keyboard -------------------------------------------------------------------------------------------


def isValidKey(key: str) -> bool:
    return key in KEYBOARD_KEYS


def typewrite(message: str | Iterable[str], interval: float = 0.0, logScreenshot: Any = None,
              _pause: bool = True) -> None:
    """A string is typed as text; a list mixes characters (typed) and key names (pressed), as in pyautogui."""
    _failsafe_check()
    if isinstance(message, str):
        parts: list[str] = [message]
    else:
        parts = list(message)
    text = ""
    with _gate.lock:
        for part in parts:
            if isinstance(message, str) or len(part) == 1:
                text += part
                continue
            if text:
                _type(text)
                text = ""
            _press_combo([_key_name(part)])
        if text:
            _type(text)
    if _pause:
        _after()


write = typewrite


def _type(text: str) -> None:
    if _gate.held_keys:
        # typing with keys held (shift, ctrl) is a key combination per character
        for ch in text:
            _press_combo([_key_name(ch)])
    else:
        _gate.act({"type": "type", "text": text})


def press(keys: str | Iterable[str], presses: int = 1, interval: float = 0.0, logScreenshot: Any = None,
          _pause: bool = True) -> None:
    """Each key pressed and released in turn, `presses` times."""
    _failsafe_check()
    names = [keys] if isinstance(keys, str) else list(keys)
    mapped = [_key_name(k) for k in names]
    with _gate.lock:
        for n in range(int(presses)):
            for i, key in enumerate(mapped):
                _press_combo([key])
                if interval and (i < len(mapped) - 1 or n < presses - 1):
                    time.sleep(interval)
    if _pause:
        _after()


def hotkey(*args: str, **kwargs: Any) -> None:
    """The keys pressed together (one combination), e.g. hotkey('ctrl', 'shift', 'esc')."""
    _failsafe_check()
    if not args:
        raise PyAutoGUIException("hotkey needs at least one key")
    try:
        keys = normalise_keys(args)
    except ValueError as err:
        raise PyAutoGUIException(str(err)) from None
    with _gate.lock:
        _press_combo(keys)
    if kwargs.get("_pause", True):
        _after()


def keyDown(key: str, logScreenshot: Any = None, _pause: bool = True) -> None:
    """Held until keyUp; combined with the keys pressed meanwhile (see the module notes)."""
    name = _key_name(key)
    with _gate.lock:
        if name not in _gate.held_keys:
            _gate.held_keys.append(name)


def keyUp(key: str, logScreenshot: Any = None, _pause: bool = True) -> None:
    name = _key_name(key)
    with _gate.lock:
        if name not in _gate.held_keys:
            return  # released without being held: pyautogui sends a release, which changes nothing
        if not _gate.held_used:
            _gate.act({"type": "key", "keys": list(_gate.held_keys)})  # held alone: pressed once
            _gate.held_used = True
        _gate.held_keys.remove(name)
        if not _gate.held_keys:
            _gate.held_used = False
    if _pause:
        _after()


# -- screen ----------------------------------------------------------------------------------------------


def screenshot(imageFilename: str | Path | None = None, region: Any = None, **_ignored: Any) -> Screenshot:
    """deskgate's `screenshot` action (gated and logged); see `Screenshot`."""
    if region is not None:
        raise PyAutoGUIException("screenshot(region=...) is not supported through deskgate: take the whole "
                                 "screen (the PNG is at most 640 px wide)")
    reply = _gate.act({"type": "screenshot"})
    result = reply.get("result") or {}
    shot = Screenshot(png=base64.b64decode(result["png_base64"]), width=int(result["png_width"]),
                      height=int(result["png_height"]), screen_width=int(result["width"]),
                      screen_height=int(result["height"]), sha256=str(result.get("sha256", "")))
    if imageFilename is not None:
        shot.save(imageFilename)
    return shot
