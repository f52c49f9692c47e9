"""One describer: an action in a person's words, for every place that shows one.

    describe_action(action)                          "Click at (640, 400) on 'Place order'"
    describe_action(action, style="line")            'click (640,400) left "Place order"'

`action` is the action as a dict: as the agent sent it, or as the audit log keeps it (sanitised).
- style "sentence" (the default): a sentence to judge (the confirmation dialog, the viewer). Values that
  may be long or secret (typed text, file content, the command) are left to the dialog's own boxes.
- style "line": one compact line with the values, to scan in a list (audit rows, tray, terminal prompts).

Secrets are never shown: a value the sanitiser replaced ({"hmac"/"sha256", "len"}), a field named in
`redact`, or (`detect_secrets`, on by default) a value the secret detector flags appears as its length
only. `limit` cuts the result to that many characters, ending in "…". Pure: no Qt, no I/O.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from gate.redact import canonical_json, looks_secret

__all__ = ["MASK", "describe_action", "describe_read", "headline", "hidden_fields", "read_source", "secret_length",
           "shell_command_text", "target_source"]

MASK = "••••"
_SECRET_FIELDS = ("text", "content", "command", "argv", "env", "input", "params")
Style = Literal["sentence", "line"]


def _is_sanitised(value: Any) -> bool:
    # {"redacted", "hmac", "len"} from the keyed sanitiser; {"sha256", "len"} in logs written before it
    return isinstance(value, Mapping) and ("hmac" in value or "sha256" in value)


def secret_length(value: Any) -> int:
    """The length of a hidden value: the sanitiser's `len`, or the plain value's length."""
    if _is_sanitised(value):
        try:
            return int(value.get("len", 0))
        except (TypeError, ValueError):
            return 0
    return len(value) if isinstance(value, str | list | tuple) else 0


def hidden_fields(action: Mapping[str, Any], redact: Iterable[str] = (), *, detect_secrets: bool = True
                  ) -> frozenset[str]:
    """Fields of `action` that must never be shown in plain text."""
    hidden = set(redact)
    for key in _SECRET_FIELDS:
        value = action.get(key)
        if value is None:
            continue
        if _is_sanitised(value):
            hidden.add(key)
        elif detect_secrets and isinstance(value, str):
            try:
                if looks_secret(value):
                    hidden.add(key)
            except Exception:  # a detector failure must hide, not show
                hidden.add(key)
    return frozenset(hidden)


def shell_command_text(action: Mapping[str, Any]) -> str:
    """The command line of a shell action (an argv shell-quoted), or "" when there is none."""
    if action.get("command") is not None:
        cmd = action["command"]
        return cmd if isinstance(cmd, str) else ""
    argv = action.get("argv")
    if isinstance(argv, list | tuple) and all(isinstance(a, str) for a in argv):
        return shlex.join(argv)
    return ""


def describe_action(action: Mapping[str, Any], redact: Iterable[str] = (), *, style: Style = "sentence",
                    limit: int | None = None, detect_secrets: bool = True) -> str:
    """`action` in words (see the module docstring for the styles and the options)."""
    hidden = hidden_fields(action, redact, detect_secrets=detect_secrets)
    text = _line(action, hidden) if style == "line" else _sentence(action, hidden)
    if limit is not None and len(text) > limit:
        return text[: max(limit - 1, 0)] + "…"
    return text


# -- "sentence" ---------------------------------------------------------------------------------------


def _target_name(action: Mapping[str, Any]) -> str:
    target = action.get("target") or {}
    if not isinstance(target, Mapping):
        return ""
    return str(target.get("label") or target.get("name") or target.get("role") or "")


def _quoted(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return "'" + (text if len(text) <= limit else text[: limit - 1] + "…") + "'"


def _point(action: Mapping[str, Any]) -> str:
    return f"({action.get('x')}, {action.get('y')})"


def _sentence(action: Mapping[str, Any], hidden: frozenset[str]) -> str:
    kind = str(action.get("type", "?"))
    target = _target_name(action)
    on = f" on {_quoted(target)}" if target else ""
    into = f" into {_quoted(target)}" if target else ""
    if kind == "click":
        button = action.get("button", "left")
        clicks = int(action.get("clicks", 1) or 1)
        verb = {1: "Click", 2: "Double-click", 3: "Triple-click"}.get(clicks, "Click")
        if button != "left":
            verb = f"{button.capitalize()}-{verb.lower()}"
        return f"{verb} at {_point(action)}{on}"
    if kind == "move":
        return f"Move the pointer to {_point(action)}{on}"
    if kind == "drag":
        path = action.get("path") or []
        if len(path) >= 2:
            (x0, y0), (x1, y1) = path[0], path[-1]
            return f"Drag from ({x0}, {y0}) to ({x1}, {y1}){on}"
        return f"Drag{on}"
    if kind == "scroll":
        where = f" at {_point(action)}" if action.get("x") is not None else ""
        return f"Scroll by ({action.get('dx', 0)}, {action.get('dy', 0)}){where}{on}"
    if kind == "type":
        n = secret_length(action.get("text"))
        noun = "character" if n == 1 else "characters"
        tail = " (hidden)" if "text" in hidden else ""
        return f"Type {n} {noun}{into}{tail}"
    if kind == "key":
        keys = action.get("keys") or []
        return "Press " + "+".join(str(k) for k in keys)
    if kind == "wait":
        return f"Wait {action.get('seconds', 1.0)} s"
    if kind == "screenshot":
        return "Take a screenshot"
    if kind == "shell":
        cwd = action.get("cwd")
        return "Run shell command" + (f" in {cwd}" if cwd else "")
    if kind == "file_read":
        return f"Read file {action.get('path')}"
    if kind == "file_write":
        size = secret_length(action.get("content"))
        return f"Write file {action.get('path')} ({size} characters)"
    if kind == "file_delete":
        return f"Delete file {action.get('path')}"
    if kind == "file_move":
        return f"Move file {action.get('path')} → {action.get('to')}"
    if kind == "navigate":
        return f"Open {action.get('url')}"
    if kind == "open_app":
        return f"Open app {_quoted(str(action.get('app', '')))}"
    if kind == "system":
        return f"System: {action.get('name')}"
    if kind == "tool":
        return f"Call tool {_quoted(str(action.get('name', '')))}"
    return f"{kind} action"


# -- "line" -------------------------------------------------------------------------------------------


def _short(value: Any, limit: int = 80) -> str:
    if isinstance(value, Mapping) and value.get("redacted"):
        return f"«redacted len:{value.get('len')}»"
    text = value if isinstance(value, str) else canonical_json(value)
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(action: Mapping[str, Any], key: str, hidden: frozenset[str], default: Any = "") -> Any:
    """The field as it may be shown: a hidden plain value becomes its length only."""
    value = action.get(key, default)
    if key in hidden and not (isinstance(value, Mapping) and value.get("redacted")):
        return {"redacted": True, "len": secret_length(value)}
    return value


def _line(action: Mapping[str, Any], hidden: frozenset[str]) -> str:
    kind = action.get("type", "?")
    target = action.get("target") or {}
    label = f' "{_short(target.get("label") or target.get("name"), 40)}"' \
        if isinstance(target, Mapping) and (target.get("label") or target.get("name")) else ""
    if kind in ("click", "move"):
        extra = f" {action.get('button', 'left')}" if kind == "click" else ""
        return f"{kind} ({action.get('x')},{action.get('y')}){extra}{label}"
    if kind == "scroll":
        return f"scroll dx={action.get('dx', 0)} dy={action.get('dy', 0)}{label}"
    if kind == "drag":
        path = action.get("path") or []
        return f"drag {len(path)} points{label}"
    if kind == "type":
        return f"type {_short(_value(action, 'text', hidden), 120)!s}{label}"
    if kind == "key":
        return "key " + "+".join(str(k) for k in action.get("keys") or [])
    if kind == "shell":
        if "command" in hidden or "argv" in hidden:
            cmd = _short(_value(action, "command" if action.get("command") is not None else "argv", hidden))
        else:
            cmd = action.get("command")
            if cmd is None:
                cmd = " ".join(_short(a, 60) for a in action.get("argv") or [])
        return f"shell {_short(cmd, 160)}"
    if kind in ("file_read", "file_write", "file_delete"):
        return f"{kind} {_short(action.get('path', ''), 160)}"
    if kind == "file_move":
        return f"file_move {_short(action.get('path', ''), 80)} → {_short(action.get('to', ''), 80)}"
    if kind == "navigate":
        return f"navigate {_short(action.get('url', ''), 160)}"
    if kind == "open_app":
        return f"open_app {_short(action.get('app', ''), 80)}"
    if kind == "system":
        params = _value(action, "params", hidden, None)
        return f"system {action.get('name')}" + (f" {_short(params, 80)}" if params else "")
    if kind == "tool":
        return f"tool {action.get('name')} {_short(_value(action, 'input', hidden, None) or {}, 120)}"
    return f"{kind} {_short({k: v for k, v in action.items() if k != 'type'}, 120)}"


# -- what deskgate read, and the headline a person reads first -------------------------------------------------

_SOURCES = {"accessibility": "a11y", "ocr": "ocr"}
_POINTER = frozenset({"click", "drag"})
_LINE_TYPES = frozenset({"type", "key"})


def read_source(observation: Any, action: Mapping[str, Any]) -> tuple[str, str, str, float | None]:
    """(label, role, source, confidence) of the action's target: what deskgate read itself ("a11y" / "ocr"),
    else what the agent claimed ("agent"); source "" when neither names it (nobody can read it)."""
    label = getattr(observation, "pointer_label", "") or ""
    source = getattr(observation, "label_source", "") or ""
    role = getattr(observation, "pointer_role", "") or ""
    if label and source:
        return label, role, _SOURCES.get(source, source), getattr(observation, "label_confidence", None)
    target = action.get("target") or {}
    claimed = (target.get("label") or target.get("name") or "") if isinstance(target, Mapping) else ""
    if claimed:
        confidence = action.get("confidence")
        return str(claimed), role or str(target.get("role") or ""), "agent", \
            float(confidence) if isinstance(confidence, int | float) else None
    return "", role, "", None


def _window(observation: Any) -> str:
    title = getattr(observation, "window_title", "") or ""
    app = getattr(observation, "app", "") or ""
    return title or app


def _line_judged(observation: Any, action: Mapping[str, Any], hidden: frozenset[str]) -> tuple[str, bool] | None:
    """(the line the action makes or ends, known) for typing and line-end keys where lines are followed."""
    line = getattr(observation, "line", None)
    kind = action.get("type")
    if line is None or kind not in _LINE_TYPES or "text" in hidden:
        return None
    from gate.lines import key_effect, typed

    if kind == "key":
        from gate.rules.gui import canonical_keys

        keys = action.get("keys") or []
        if key_effect(canonical_keys([str(k) for k in keys])) not in ("end", "paste"):
            return None
        return line.text, line.known
    text = action.get("text")
    if not isinstance(text, str):
        return None
    done = typed(line, text)
    last = done.ended[-1] if done.ended else done.rest
    return last.text, last.known


def _safe(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    try:
        if looks_secret(text):
            return f"{MASK} ({len(text)} characters, hidden)"
    except Exception:  # a detector failure hides
        return f"{MASK} ({len(text)} characters, hidden)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_read(observation: Any, action: Mapping[str, Any], redact: Iterable[str] = ()) -> str:
    """What deskgate read for a pointer or typing action, for the audit row: `read “Place order” push button
    [a11y 1.00] in “Checkout — Firefox”`, `nothing readable [ocr 0.31]`, the line judged at a line end."""
    kind = action.get("type")
    if kind not in _POINTER and kind not in _LINE_TYPES:
        return ""
    hidden = hidden_fields(action, redact, detect_secrets=False)
    parts = []
    if kind in _POINTER or (kind == "type" and getattr(observation, "label_source", "")):
        label, role, source, confidence = read_source(observation, action)
        conf = f" {confidence:.2f}" if confidence is not None else ""
        if label:
            parts.append(f"read “{_safe(label, 60)}”" + (f" {role}" if role else "") + f" [{source}{conf}]")
        else:
            tried = getattr(observation, "pointer_read", False)
            parts.append("read nothing" + (f" ({role})" if role else "") + (" [a11y+ocr]" if tried else " [none]"))
    line = _line_judged(observation, action, hidden)
    if line is not None:
        text, known = line
        parts.append(f"line “{_safe(text)}”" + ("" if known else " (not known)"))
    elif kind == "key":
        return ""  # a key that ends no line: nothing was read for it
    window = _window(observation)
    if window:
        parts.append(f"in “{_safe(window, 60)}”")
    return " · ".join(parts)


def headline(action: Mapping[str, Any], observation: Any, redact: Iterable[str] = ()) -> str:
    """The dialog's first line: the action with what it lands on, named: "Click “Place order” in Checkout —
    Firefox", "Press Return in bash — runs the line “rm -rf ~”". Falls back to `describe_action`."""
    kind = action.get("type")
    hidden = hidden_fields(action, redact)
    window = _window(observation)
    where = f" in {_safe(window, 60)}" if window else ""
    if kind in _POINTER:
        verb = describe_action(action, redact).split(" at ", 1)[0].split(" from ", 1)[0]
        label, _role, source, _conf = read_source(observation, action)
        if label:
            return f"{verb} “{_safe(label, 60)}”{where}"
        if getattr(observation, "pointer_read", False):
            return f"{verb} an unreadable target at {_point(action)}{where}"
        return f"{describe_action(action, redact)}{where}"
    line = _line_judged(observation, action, hidden)
    if kind == "key" and line is not None:
        keys = "+".join(str(k) for k in action.get("keys") or [])
        text, known = line
        runs = f"runs the line “{_safe(text)}”" if known else "runs a line deskgate cannot know"
        return f"Press {keys}{where} — {runs}"
    if kind == "type" and line is not None:
        text, known = line
        so_far = f"the line so far: “{_safe(text)}”" if known else "the line so far is not known"
        return f"Type into {_safe(window, 60) or 'the focused field'} — {so_far}"
    return describe_action(action, redact) + (where if kind in ("type", "key") else "")


def target_source(action: Mapping[str, Any], observation: Any) -> str | None:
    """Where the target's name came from, for the dialog under the headline (None: nothing to say)."""
    kind = action.get("type")
    if kind not in _POINTER and kind != "type":
        return None
    label, role, source, confidence = read_source(observation, action)
    noun = "Field" if kind == "type" else "Target"
    what = f"{noun} “{_safe(label, 60)}”" + (f" ({role})" if role else "")
    if source == "a11y":
        return f"{what}, read from the accessibility tree"
    if source == "ocr":
        conf = f", confidence {confidence:.2f}" if confidence is not None else ""
        return f"{what}, recognised on the screen (text recognition{conf})"
    if source == "agent":
        tried = getattr(observation, "pointer_read", False)
        return f"{what}, as the agent names it" + (" (deskgate could not read it)" if tried else "")
    if kind in _POINTER and getattr(observation, "pointer_read", False):
        return "Nobody can read this target: no accessible name and no text recognised" + \
            (f" (a {role})" if role else "")
    return None
