"""The hot subcommands' arguments read without building argparse parsers.

Claude Code runs `deskgate hook claude-code` before every tool call, and `deskgate kill` is run in a hurry.
Building an argparse parser costs more than the whole exchange with the supervisor (help formatters,
gettext, locale, shutil), so `parse(argv)` reads the plain forms of these few command lines itself and
returns the same namespace the subcommand's argparse parser would. Anything else (`--help`, a value that
is not valid, an unknown option, a repeated positional) returns None and goes to argparse, which says
what is wrong in its usual words. tests/app/test_cli_quick.py holds each form against argparse.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import SimpleNamespace

TYPE_CHECKING = False  # typing is not imported at run time: the hook and `deskgate kill` start small
if TYPE_CHECKING:
    from typing import Any

__all__ = ["parse"]

# option → (dest, kind). Kinds: path, str, float, positive (float > 0), mode, flag (True), strict (mode=strict)
_HOOK = {"--socket": ("socket", "path"), "--timeout": ("timeout", "positive"), "--mode": ("mode", "mode"),
         "--ask-here": ("mode", "strict"), "--agent": ("agent", "str")}
_CONTROL = {"--json": ("json", "flag"), "--socket": ("socket", "str"), "--timeout": ("timeout", "float")}
_STOPPING = {**_CONTROL, "--reason": ("reason", "str")}
_HOOK_MODES = ("defer", "strict")  # app.agent.claude_code.MODES (checked equal in the tests)

# subcommand → (module, function, options, positional dest or None, defaults)
_SPECS: dict[tuple[str, ...], tuple[str, str, dict[str, tuple[str, str]], str | None, dict[str, Any]]] = {
    ("hook", "claude-code"): ("app.cli.agent", "cmd_hook_claude_code", _HOOK, None,
                              {"command": "hook", "hook_kind": "claude-code", "socket": None, "timeout": None,
                               "mode": "defer", "agent": "claude-code"}),
    **{(c,): ("app.cli.client", "cmd_control", _STOPPING, None,
              {"command": c, "control": c, "json": False, "socket": None, "timeout": 120.0, "reason": None})
       for c in ("kill", "pause", "resume", "unpause")},
    **{(c,): ("app.cli.client", "cmd_control", _CONTROL, None,
              {"command": c, "control": c, "json": False, "socket": None, "timeout": 120.0})
       for c in ("status", "grants")},
    ("revoke",): ("app.cli.client", "cmd_control", _CONTROL, "grant",
                  {"command": "revoke", "control": "revoke", "json": False, "socket": None, "timeout": 120.0}),
}


def _value(kind: str, text: str) -> Any:
    """The option's value, or None when argparse should be the one to answer."""
    if kind == "path":
        return Path(text)
    if kind == "str":
        return text
    if kind == "mode":
        return text if text in _HOOK_MODES else None
    try:
        number = float(text)
    except ValueError:
        return None
    if kind == "positive" and not number > 0:
        return None
    return number


def parse(argv: list[str]) -> SimpleNamespace | None:
    """The namespace for a plain hook or control command line (with `func` set), else None."""
    for words in ((tuple(argv[:2])), (tuple(argv[:1]))):
        spec = _SPECS.get(words)
        if spec is not None:
            break
    else:
        return None
    module, func, options, positional, defaults = spec
    values: dict[str, Any] = dict(defaults)
    rest = argv[len(words):]
    i = 0
    while i < len(rest):
        word = rest[i]
        name, eq, inline = word.partition("=")
        if word.startswith("-"):
            if name not in options or (name != word and options[name][1] in ("flag", "strict")):
                return None  # unknown, abbreviated, -h/--help, or `--flag=value`: argparse answers
            dest, kind = options[name]
            if kind == "flag":
                values[dest] = True
            elif kind == "strict":
                values[dest] = "strict"
            else:
                if eq:
                    text = inline
                elif i + 1 < len(rest) and not rest[i + 1].startswith("-"):
                    i += 1
                    text = rest[i]
                else:
                    return None
                value = _value(kind, text)
                if value is None:
                    return None
                values[dest] = value
        elif positional is not None and positional not in values:
            values[positional] = word
        else:
            return None
        i += 1
    if positional is not None and positional not in values:
        return None
    values["func"] = getattr(importlib.import_module(module), func)
    return SimpleNamespace(**values)
