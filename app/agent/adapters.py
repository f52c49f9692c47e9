"""Computer-use tool calls from model APIs → deskgate wire actions, and replies → the tool results they expect.

Two action schemas are accepted as their APIs send them, unchanged:

- Anthropic's computer-use tool (`computer_20241022`, `computer_20250124`): the `input` of a `tool_use`
  block, e.g. `{"action": "left_click", "coordinate": [640, 400]}`. Keys are xdotool keysyms
  ("ctrl+s", "Return", "Page_Down", "KP_0", "super"); scrolling is in wheel notches
  (`scroll_direction` + `scroll_amount`). Reference:
  https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/computer-use-tool
- OpenAI's computer use (`computer_call` items of the Responses API): the `action` object, e.g.
  `{"type": "click", "button": "left", "x": 640, "y": 400}`, `{"type": "keypress", "keys": ["CTRL", "S"]}`;
  scrolling is in pixels (`scroll_x`, `scroll_y`). Reference:
  https://platform.openai.com/docs/guides/tools-computer-use and github.com/openai/openai-cua-sample-app

`from_anthropic` / `from_openai` return a list: one call can expand to several deskgate steps (a `wait`
over 60 s, an xdotool key sequence "ctrl+a BackSpace"). Each item is a wire action (has `type`), or the
read-only marker `{"op": "cursor_position"}` (the wire has no pointer query; `run` answers it locally).
Every wire action is validated against gate.model before it is returned, so what comes back is what the
supervisor accepts. Anything that cannot be expressed faithfully raises ValueError naming what is
supported: an approximation that changes what happens on screen (a shift-click sent as a plain click)
is worse than a refusal the model can read and work around.

`run(client, items, pointer=...)` performs the items in order and stops at the first one that did not
execute (fail closed: the rest of a refused sequence never runs). `to_tool_result` /
`to_openai_output` turn the replies into what each loop sends back to its model; a refusal becomes an
error the model reads (`is_error` with deskgate's reason and rules).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.wire import Verdict

__all__ = [
    "ANTHROPIC_ACTIONS",
    "OPENAI_ACTIONS",
    "PIXELS_PER_NOTCH",
    "Pointer",
    "from_anthropic",
    "from_openai",
    "normalise_key",
    "normalise_keys",
    "run",
    "to_openai_output",
    "to_tool_result",
]

# OpenAI scrolls in pixels, deskgate (like the X wheel) in notches. Browsers scroll ~100 px a notch.
PIXELS_PER_NOTCH = 100
MAX_WAIT_STEP_S = 60.0  # the wire's limit for one `wait`; longer waits become several steps
OPENAI_WAIT_S = 2.0     # OpenAI's `wait` has no duration; the reference sample app sleeps about this long

# -- key names ------------------------------------------------------------------------------------

# deskgate's key names (what the gate's key rules and the executor both read).
_NAMED = frozenset({
    "ctrl", "alt", "shift", "super", "enter", "esc", "tab", "backspace", "delete", "insert", "space",
    "home", "end", "pageup", "pagedown", "up", "down", "left", "right", "capslock", "numlock", "scrolllock",
    "printscreen", "pause", "apps", *(f"f{n}" for n in range(1, 25)), *(f"num{n}" for n in range(10)),
})
# xdotool keysyms, browser / Playwright names, OpenAI's upper-case names, Mac names → deskgate's.
_ALIASES = {
    "control": "ctrl", "ctl": "ctrl", "lctrl": "ctrl", "rctrl": "ctrl", "controll": "ctrl", "controlr": "ctrl",
    "ctrlleft": "ctrl", "ctrlright": "ctrl",
    "option": "alt", "opt": "alt", "altl": "alt", "altr": "alt", "altgr": "alt", "lalt": "alt", "ralt": "alt",
    "altleft": "alt", "altright": "alt",
    "cmd": "super", "command": "super", "meta": "super", "win": "super", "windows": "super", "os": "super",
    "superl": "super", "superr": "super", "metal": "super", "metar": "super", "winleft": "super",
    "winright": "super", "lsuper": "super", "rsuper": "super",
    "shiftl": "shift", "shiftr": "shift", "lshift": "shift", "rshift": "shift", "shiftleft": "shift",
    "shiftright": "shift",
    "return": "enter", "ret": "enter", "kpenter": "enter", "escape": "esc", "backspace": "backspace",
    "bksp": "backspace", "bs": "backspace", "del": "delete", "kpdelete": "delete", "ins": "insert",
    "spacebar": "space", "pgup": "pageup", "prior": "pageup", "kppageup": "pageup", "pgdn": "pagedown",
    "next": "pagedown", "kppagedown": "pagedown",
    "arrowup": "up", "arrowdown": "down", "arrowleft": "left", "arrowright": "right",
    "kpup": "up", "kpdown": "down", "kpleft": "left", "kpright": "right", "kphome": "home", "kpend": "end",
    "print": "printscreen", "prtsc": "printscreen", "prtscr": "printscreen", "sysreq": "printscreen",
    "menu": "apps", "contextmenu": "apps",
    **{f"kp{n}": f"num{n}" for n in range(10)},
    # keysym names of printable characters
    "plus": "+", "minus": "-", "equal": "=", "comma": ",", "period": ".", "slash": "/", "backslash": "\\",
    "semicolon": ";", "colon": ":", "apostrophe": "'", "quotedbl": '"', "grave": "`", "asciitilde": "~",
    "bracketleft": "[", "bracketright": "]", "braceleft": "{", "braceright": "}", "parenleft": "(",
    "parenright": ")", "less": "<", "greater": ">", "question": "?", "bar": "|", "underscore": "_",
    "exclam": "!", "at": "@", "numbersign": "#", "dollar": "$", "percent": "%", "asciicircum": "^",
    "ampersand": "&", "asterisk": "*", "add": "+", "subtract": "-", "multiply": "*", "divide": "/",
    "decimal": ".", "kpdecimal": ".", "prntscrn": "printscreen", "optionleft": "alt", "optionright": "alt",
    "kpadd": "+", "kpsubtract": "-", "kpmultiply": "*", "kpdivide": "/",
}


_CONTROL_CHARS = {"\n": "enter", "\r": "enter", "\t": "tab"}


def normalise_key(name: str) -> str:
    """One key name in any of the common spellings → deskgate's name. ValueError for a non-key."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"key name must be a non-empty string, not {name!r}")
    if name in _CONTROL_CHARS:
        return _CONTROL_CHARS[name]
    if len(name) == 1:
        if not (" " <= name <= "~"):
            raise ValueError(f"key {name!r} is not a key on the keyboard (type it as text instead)")
        return "space" if name == " " else name.lower()
    key = name.strip().lower().replace("_", "").replace("-", "").replace(" ", "")
    key = _ALIASES.get(key, key)
    if key in _NAMED or (len(key) == 1 and " " < key <= "~"):
        return key
    raise ValueError(f"unknown key name {name!r}")


def _split_combo(combo: str) -> list[str]:
    if len(combo) == 1:
        return [combo]
    # "ctrl++" is ctrl and the plus key itself
    parts = [*combo[:-2].split("+"), "+"] if combo.endswith("++") else combo.split("+")
    if any(not p.strip() for p in parts):
        raise ValueError(f"cannot read key combination {combo!r}")
    return parts


def normalise_keys(keys: Iterable[str]) -> list[str]:
    """A key combination (each element a key, or "ctrl+s" in one string) → deskgate names, in order."""
    out: list[str] = []
    for item in keys:
        if not isinstance(item, str):
            raise ValueError(f"key names must be strings, not {item!r}")
        out.extend(normalise_key(k) for k in _split_combo(item))
    if not out:
        raise ValueError("no keys given")
    return out


def _xdotool_sequence(text: Any) -> list[list[str]]:
    """xdotool `key` syntax: combinations joined by '+', several of them separated by spaces."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("`text` must name the key(s) to press, e.g. \"ctrl+s\" or \"Return\"")
    if text == " ":
        return [["space"]]
    return [normalise_keys([combo]) for combo in text.split()]


# -- shared helpers -------------------------------------------------------------------------------


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{what} must be a number, not {value!r}")
    return float(value)


def _scaled(value: Any, factor: float, what: str) -> int:
    return round(_number(value, what) * factor)


def _factors(scale: float | Sequence[float]) -> tuple[float, float]:
    if isinstance(scale, int | float) and not isinstance(scale, bool):
        return float(scale), float(scale)
    sx, sy = scale  # type: ignore[misc]
    return _number(sx, "scale"), _number(sy, "scale")


def _checked(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every wire action as the supervisor would parse it: a bad one fails here, before anything is sent."""
    from gate.model import ActionError, action_from_dict  # here: importing the drop-in loads no gate

    for item in actions:
        if "type" in item:
            try:
                action_from_dict(item)
            except ActionError as err:
                raise ValueError(f"cannot express this as a deskgate action: {err}") from None
    return actions


def _waits(seconds: float) -> list[dict[str, Any]]:
    if seconds < 0:
        raise ValueError(f"a wait cannot be negative ({seconds:g} s)")
    steps = []
    while seconds > MAX_WAIT_STEP_S:
        steps.append({"type": "wait", "seconds": MAX_WAIT_STEP_S})
        seconds -= MAX_WAIT_STEP_S
    steps.append({"type": "wait", "seconds": round(seconds, 3)})
    return steps


def _unexpected(data: Mapping[str, Any], allowed: set[str], what: str) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise ValueError(f"{what}: unexpected field(s) {', '.join(extra)} (accepted: {', '.join(sorted(allowed))})")


@dataclass
class Pointer:
    """What a translation needs to remember between calls: where the pointer is (as far as the agent's own
    actions moved it, or as read), and the path while a button is held (`left_mouse_down` …
    `left_mouse_up`, which the wire expresses as one `drag`)."""

    position: tuple[int, int] | None = None
    held: list[tuple[int, int]] | None = field(default=None)

    def at(self, what: str) -> tuple[int, int]:
        if self.position is None:
            raise ValueError(f"{what} has no coordinate and the pointer position is not known; give a coordinate")
        return self.position


# -- Anthropic ------------------------------------------------------------------------------------

ANTHROPIC_ACTIONS = ("key", "hold_key", "type", "cursor_position", "mouse_move", "left_mouse_down",
                     "left_mouse_up", "left_click", "left_click_drag", "right_click", "middle_click",
                     "double_click", "triple_click", "scroll", "wait", "screenshot")
_ANTHROPIC_FIELDS = {"action", "coordinate", "start_coordinate", "text", "duration", "scroll_direction",
                     "scroll_amount"}
_ANTHROPIC_CLICKS = {"left_click": ("left", 1), "right_click": ("right", 1), "middle_click": ("middle", 1),
                     "double_click": ("left", 2), "triple_click": ("left", 3)}
_SCROLL_SIGN = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def _xy(value: Any, what: str, factors: tuple[float, float]) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"`{what}` must be [x, y], not {value!r}")
    return _scaled(value[0], factors[0], f"{what}[0]"), _scaled(value[1], factors[1], f"{what}[1]")


def from_anthropic(tool_input: Mapping[str, Any], *, pointer: Pointer | None = None,
                   scale: float | Sequence[float] = 1.0) -> list[dict[str, Any]]:
    """The `input` of an Anthropic computer-use `tool_use` block → deskgate steps.

    `scale` multiplies the model's coordinates (it sees screenshots scaled to `display_width_px` ×
    `display_height_px`; pass screen size / that size). `pointer` carries the pointer position and a held
    button across calls; without one, actions that need it (a click without `coordinate`,
    `left_mouse_down`/`up`) must give a coordinate or raise ValueError."""
    if not isinstance(tool_input, Mapping):
        raise ValueError("a computer-use tool input must be a JSON object")
    action = tool_input.get("action")
    if action not in ANTHROPIC_ACTIONS:
        raise ValueError(f"unsupported Anthropic computer-use action {action!r}; supported: "
                         f"{', '.join(ANTHROPIC_ACTIONS)}")
    _unexpected(tool_input, _ANTHROPIC_FIELDS, f"computer-use action {action!r}")
    stateful = pointer is not None
    ptr = pointer if pointer is not None else Pointer()
    f = _factors(scale)
    coord = _xy(tool_input["coordinate"], "coordinate", f) if tool_input.get("coordinate") is not None else None
    text = tool_input.get("text")
    steps: list[dict[str, Any]]

    if action in _ANTHROPIC_CLICKS:
        if text:  # modifier keys held during the click: the wire's click has none
            raise ValueError(f"{action} with modifier keys ({text!r}) is not supported: deskgate's click has "
                             "no held modifiers; press the keys as a `key` action or click without them")
        button, clicks = _ANTHROPIC_CLICKS[action]
        x, y = coord if coord is not None else ptr.at(action)
        steps = [{"type": "click", "x": x, "y": y, "button": button, "clicks": clicks}]
        ptr.position = (x, y)
    elif action == "mouse_move":
        if coord is None:
            raise ValueError("mouse_move needs `coordinate`")
        if ptr.held is not None:
            ptr.held.append(coord)  # part of a drag: it runs when the button is released
            steps = []
        else:
            steps = [{"type": "move", "x": coord[0], "y": coord[1]}]
        ptr.position = coord
    elif action == "left_click_drag":
        if coord is None:
            raise ValueError("left_click_drag needs `coordinate` (where to drag to)")
        start = (_xy(tool_input["start_coordinate"], "start_coordinate", f)
                 if tool_input.get("start_coordinate") is not None else ptr.at(action))
        steps = [{"type": "drag", "path": [list(start), list(coord)]}]
        ptr.position = coord
    elif action in ("left_mouse_down", "left_mouse_up"):
        if not stateful:
            raise ValueError(f"{action} needs a Pointer to carry the held button across calls "
                             "(from_anthropic(..., pointer=Pointer()))")
        here = coord if coord is not None else ptr.at(action)
        if action == "left_mouse_down":
            if ptr.held is not None:
                raise ValueError("left_mouse_down while the left button is already down")
            ptr.held = [here]
            steps = []
        else:
            if ptr.held is None:
                raise ValueError("left_mouse_up without a left_mouse_down")
            path, ptr.held = ptr.held, None
            if path[-1] != here:
                path.append(here)
            # pressed and released on one spot is a click; anything else a drag along the path
            steps = ([{"type": "click", "x": here[0], "y": here[1], "button": "left", "clicks": 1}]
                     if len(path) == 1 else [{"type": "drag", "path": [list(p) for p in path]}])
        ptr.position = here
    elif action == "scroll":
        if text:
            raise ValueError(f"scroll with modifier keys ({text!r}) is not supported: deskgate's scroll has no "
                             "held modifiers")
        direction = tool_input.get("scroll_direction")
        if direction not in _SCROLL_SIGN:
            raise ValueError(f"scroll_direction must be one of up, down, left, right, not {direction!r}")
        amount = int(_number(tool_input.get("scroll_amount", 3), "scroll_amount"))
        sx, sy = _SCROLL_SIGN[direction]
        step: dict[str, Any] = {"type": "scroll", "dx": sx * amount, "dy": sy * amount}
        if coord is not None:
            step.update(x=coord[0], y=coord[1])
            ptr.position = coord
        steps = [step]
    elif action == "key":
        steps = [{"type": "key", "keys": combo} for combo in _xdotool_sequence(text)]
    elif action == "hold_key":
        # The wire has no key holds: one press, then the rest of the duration waited out.
        duration = _number(tool_input.get("duration", 0), "duration")
        steps = [{"type": "key", "keys": combo} for combo in _xdotool_sequence(text)]
        if duration > 0:
            steps += _waits(duration)
    elif action == "type":
        if not isinstance(text, str) or text == "":
            raise ValueError("type needs `text`")
        steps = [{"type": "type", "text": text}]
    elif action == "wait":
        steps = _waits(_number(tool_input.get("duration", 1), "duration"))
    elif action == "screenshot":
        steps = [{"type": "screenshot"}]
    else:  # cursor_position
        steps = [{"op": "cursor_position"}]
    if coord is not None and action in ("key", "type", "hold_key", "wait", "screenshot", "cursor_position"):
        raise ValueError(f"{action} takes no `coordinate`")
    return _checked(steps)


# -- OpenAI ---------------------------------------------------------------------------------------

OPENAI_ACTIONS = ("click", "double_click", "scroll", "type", "keypress", "wait", "drag", "move", "screenshot")
_OPENAI_FIELDS = {
    "click": {"type", "button", "x", "y"}, "double_click": {"type", "button", "x", "y"},
    "scroll": {"type", "x", "y", "scroll_x", "scroll_y"}, "type": {"type", "text"},
    "keypress": {"type", "keys"}, "wait": {"type"}, "drag": {"type", "path"}, "move": {"type", "x", "y"},
    "screenshot": {"type"},
}
_OPENAI_BUTTONS = {"left": "left", "right": "right", "wheel": "middle"}
# Mouse buttons 8 / 9 mean history back / forward; the desktop's shortcut for that is alt+left / alt+right.
_OPENAI_NAV_BUTTONS = {"back": ["alt", "left"], "forward": ["alt", "right"]}


def _notches(pixels: Any, what: str) -> int:
    px = _number(pixels, what)
    if px == 0:
        return 0
    n = round(px / PIXELS_PER_NOTCH)
    return n if n != 0 else (1 if px > 0 else -1)  # a small scroll still scrolls, in its direction


def from_openai(action: Mapping[str, Any], *, pointer: Pointer | None = None,
                scale: float | Sequence[float] = 1.0) -> list[dict[str, Any]]:
    """An OpenAI computer-use `action` object (or a whole `computer_call` item, with `action` or `actions`)
    → deskgate steps. `scale` as for `from_anthropic`; `pointer` (optional) is kept current."""
    if not isinstance(action, Mapping):
        raise ValueError("a computer-use action must be a JSON object")
    if action.get("type") == "computer_call":
        if isinstance(action.get("actions"), list):
            return [s for a in action["actions"] for s in from_openai(a, pointer=pointer, scale=scale)]
        if not isinstance(action.get("action"), Mapping):
            raise ValueError("computer_call item without an `action`")
        return from_openai(action["action"], pointer=pointer, scale=scale)
    kind = action.get("type")
    if kind not in OPENAI_ACTIONS:
        raise ValueError(f"unsupported OpenAI computer-use action {kind!r}; supported: {', '.join(OPENAI_ACTIONS)}")
    _unexpected(action, _OPENAI_FIELDS[kind], f"computer-use action {kind!r}")
    ptr = pointer if pointer is not None else Pointer()
    fx, fy = _factors(scale)

    def point(a: Mapping[str, Any], what: str) -> tuple[int, int]:
        if "x" not in a or "y" not in a:
            raise ValueError(f"{what} needs `x` and `y`")
        return _scaled(a["x"], fx, f"{what}.x"), _scaled(a["y"], fy, f"{what}.y")

    steps: list[dict[str, Any]]
    if kind in ("click", "double_click"):
        button = action.get("button", "left")
        x, y = point(action, kind)
        if kind == "click" and button in _OPENAI_NAV_BUTTONS:
            steps = [{"type": "key", "keys": list(_OPENAI_NAV_BUTTONS[button])}]
        elif button in _OPENAI_BUTTONS and (kind == "click" or button == "left"):
            steps = [{"type": "click", "x": x, "y": y, "button": _OPENAI_BUTTONS[button],
                      "clicks": 2 if kind == "double_click" else 1}]
            ptr.position = (x, y)
        else:
            raise ValueError(f"{kind} button {button!r} is not supported (left, right, wheel, back, forward; "
                             "double_click: left)")
    elif kind == "move":
        x, y = point(action, kind)
        steps = [{"type": "move", "x": x, "y": y}]
        ptr.position = (x, y)
    elif kind == "drag":
        path = action.get("path")
        if not isinstance(path, list) or len(path) < 2 or not all(isinstance(p, Mapping) for p in path):
            raise ValueError("drag needs `path`: at least two points [{\"x\": …, \"y\": …}, …]")
        points = [point(p, "drag.path[]") for p in path]
        steps = [{"type": "drag", "path": [list(p) for p in points]}]
        ptr.position = points[-1]
    elif kind == "scroll":
        x, y = point(action, kind)
        steps = [{"type": "scroll", "x": x, "y": y, "dx": _notches(action.get("scroll_x", 0), "scroll_x"),
                  "dy": _notches(action.get("scroll_y", 0), "scroll_y")}]
        ptr.position = (x, y)
    elif kind == "type":
        text = action.get("text")
        if not isinstance(text, str) or text == "":
            raise ValueError("type needs `text`")
        steps = [{"type": "type", "text": text}]
    elif kind == "keypress":
        keys = action.get("keys")
        if not isinstance(keys, list) or not keys:
            raise ValueError("keypress needs `keys`, e.g. [\"CTRL\", \"S\"]")
        steps = [{"type": "key", "keys": normalise_keys(keys)}]  # pressed together, as one combination
    elif kind == "wait":
        steps = _waits(OPENAI_WAIT_S)
    else:  # screenshot
        steps = [{"type": "screenshot"}]
    return _checked(steps)


# -- performing and answering ---------------------------------------------------------------------


def run(client: Any, items: Sequence[Mapping[str, Any]], *, pointer: Pointer | None = None,
        read_pointer: Any = None) -> list[dict[str, Any]]:
    """Send the steps through `client` (app.agent.client.Client) in order; stop at the first that did not execute.

    Returns the replies (the last one says why it stopped). `{"op": "cursor_position"}` is answered from
    `read_pointer()` (a read-only look at the real pointer) or else the pointer the agent's own actions
    left, as `{"verdict": "observed", "x": …, "y": …}`. Errors the client raises (killed, paused,
    no supervisor, …) propagate: nothing after them runs."""
    replies: list[dict[str, Any]] = []
    for item in items:
        if item.get("op") == "cursor_position":
            where = read_pointer() if read_pointer is not None else None
            if where is None:
                if pointer is None or pointer.position is None:
                    raise ValueError("the pointer position is not known (no pointer reader, no earlier action)")
                where = pointer.position
            replies.append({"verdict": "observed", "x": int(where[0]), "y": int(where[1])})
            continue
        reply = client.act(dict(item))
        replies.append(reply)
        if reply.get("verdict") != Verdict.EXECUTED:
            break
    return replies


def _refusal_text(reply: Mapping[str, Any]) -> str:
    rules = ", ".join(reply.get("rules") or []) or "none"
    by = reply.get("decided_by") or "deskgate"
    if reply.get("verdict") == Verdict.DENIED:
        return (f"deskgate refused this action ({reply.get('decision')}, decided by {by}): "
                f"{reply.get('reason') or 'no reason given'} [rules: {rules}]. Do not retry it unchanged.")
    err = reply.get("result", {}).get("error") if isinstance(reply.get("result"), Mapping) else None
    detail = err.get("message") if isinstance(err, Mapping) else err
    return f"the action failed: {detail or reply.get('reason') or 'no detail'}"


def _screenshot_png(replies: Sequence[Mapping[str, Any]]) -> str | None:
    for reply in reversed(replies):
        result = reply.get("result")
        if isinstance(result, Mapping) and isinstance(result.get("png_base64"), str):
            return result["png_base64"]
    return None


def _as_b64(png: bytes | str | None) -> str | None:
    if png is None or isinstance(png, str):
        return png
    return base64.b64encode(png).decode("ascii")


def to_tool_result(tool_use_id: str, outcome: Sequence[Mapping[str, Any]] | BaseException, *,
                   screenshot: bytes | str | None = None) -> dict[str, Any]:
    """An Anthropic `tool_result` content block for one computer-use call.

    `outcome` is what `run` returned, or the exception translating / performing it raised (a ValueError
    from the adapter, a client error such as Killed): both come back as `is_error` with the message, so
    the model learns why. A screenshot (from a `screenshot` step, or passed in) goes as an image block."""
    if isinstance(outcome, BaseException):
        return {"type": "tool_result", "tool_use_id": tool_use_id, "is_error": True,
                "content": [{"type": "text", "text": f"{type(outcome).__name__}: {outcome}"}]}
    if not outcome:
        return {"type": "tool_result", "tool_use_id": tool_use_id, "content": [{"type": "text", "text": "done"}]}
    last = outcome[-1]
    if last.get("verdict") not in (Verdict.EXECUTED, "observed"):
        return {"type": "tool_result", "tool_use_id": tool_use_id, "is_error": True,
                "content": [{"type": "text", "text": _refusal_text(last)}]}
    content: list[dict[str, Any]] = []
    if last.get("verdict") == "observed":
        content.append({"type": "text", "text": f"X={last['x']},Y={last['y']}"})
    png = _as_b64(screenshot) or _screenshot_png(outcome)
    if png is not None:
        content.append({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}})
    if not content:
        content.append({"type": "text", "text": "done"})
    return {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}


def to_openai_output(call_id: str, outcome: Sequence[Mapping[str, Any]] | BaseException, *,
                     screenshot: bytes | str | None = None) -> list[dict[str, Any]]:
    """The input items answering one OpenAI `computer_call`: a `computer_call_output` carrying a screenshot
    (the API requires one: pass it, or end the steps with a `screenshot` action), and, when deskgate
    refused or the action failed, a user message saying why (the output item has no error field)."""
    png = _as_b64(screenshot)
    if png is None and not isinstance(outcome, BaseException):
        png = _screenshot_png(outcome)
    if png is None:
        raise ValueError("a computer_call_output needs a screenshot: pass `screenshot=` or run a screenshot step")
    items: list[dict[str, Any]] = [{"type": "computer_call_output", "call_id": call_id,
                                    "output": {"type": "input_image", "image_url": f"data:image/png;base64,{png}"}}]
    if isinstance(outcome, BaseException):
        problem = f"{type(outcome).__name__}: {outcome}"
    elif outcome and outcome[-1].get("verdict") not in (Verdict.EXECUTED, "observed"):
        problem = _refusal_text(outcome[-1])
    else:
        problem = None
    if problem is not None:
        items.append({"role": "user", "content": [{"type": "input_text", "text": problem}]})
    return items
