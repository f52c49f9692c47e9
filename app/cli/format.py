"""The command line's one output convention: text and tables for people, `--json` for scripts.

Every command that talks to the running deskgate (`act`, `do`, `status`, `grants`, `kill`, `resume`,
`pause`, `unpause`, `revoke`) prints, by default, a few aligned `key  value` lines or a table; with
`--json` it prints the supervisor's reply unchanged as one JSON object (pretty on a terminal). Errors go
to stderr as one `deskgate: code: message` line either way; with `--json` the error reply is also on
stdout, so a script always has one object to parse. Exit statuses do not depend on the format.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

TYPE_CHECKING = False  # typing is not imported at run time: the hook and `deskgate kill` start small
if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["add_json_flag", "emit", "emit_error", "format_reply", "format_status", "table"]


def add_json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the reply as one JSON object (for scripts)")


def _json(data: Any) -> str:
    indent = 2 if sys.stdout.isatty() else None
    return json.dumps(data, indent=indent, ensure_ascii=False)


def _cell(value: Any) -> str:
    if value is None or value == "":
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return ", ".join(_cell(v) for v in value) or "-"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value).replace("\n", " ")


def table(rows: Sequence[dict[str, Any]], columns: Sequence[tuple[str, str]], empty: str) -> str:
    """Rows as an aligned table with an upper-case header; `columns` = (key, header)."""
    if not rows:
        return empty + "\n"
    cells = [[_cell(r.get(key)) for key, _ in columns] for r in rows]
    heads = [h.upper() for _, h in columns]
    widths = [max(len(heads[i]), *(len(c[i]) for c in cells)) for i in range(len(columns))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    return "\n".join(lines) + "\n"


def _pairs(pairs: Sequence[tuple[str, Any]]) -> str:
    shown = [(k, _cell(v)) for k, v in pairs if v is not None and v != "" and v != []]
    width = max((len(k) for k, _ in shown), default=0)
    return "".join(f"{k:<{width}}  {v}\n" for k, v in shown)


def format_reply(reply: dict[str, Any]) -> str:
    """An `act` / `command` reply: the verdict first, then why."""
    rules = reply.get("rules") or []
    out = _pairs([
        ("verdict", reply.get("verdict")),
        ("decision", f"{reply.get('decision')} by {reply.get('decided_by')}" if reply.get("decided_by")
         else reply.get("decision")),
        ("reason", reply.get("reason")),
        ("rules", rules),
        ("risk", reply.get("risk")),
        ("error", (reply.get("result") or {}).get("error") if isinstance(reply.get("result"), dict) else None),
        ("audit id", reply.get("audit_id")),
        ("took", f"{reply['elapsed_ms']:.0f} ms" if isinstance(reply.get("elapsed_ms"), int | float) else None),
    ])
    result = reply.get("result")
    if isinstance(result, dict):
        out += _produced(result)
    steps = reply.get("steps")
    if isinstance(steps, list) and steps:
        plan = (reply.get("command") or {}).get("plan") if isinstance(reply.get("command"), dict) else None
        plan = plan if isinstance(plan, list) and len(plan) == len(steps) else steps
        rows = [{"n": s.get("index", i), "step": _step_name(a if isinstance(a, dict) else s),
                 "verdict": s.get("verdict"), "detail": _step_detail(s)}
                for i, (s, a) in enumerate(zip(steps, plan, strict=True)) if isinstance(s, dict)]
        out += "\n" + table(rows, [("n", "#"), ("step", "step"), ("verdict", "verdict"), ("detail", "detail")], "")
    return out


def _produced(result: dict[str, Any]) -> str:
    """What the action produced, as it produced it: a command's exit status, output and errors, a file's
    text (after the verdict lines, so a person reads both the decision and what it gave)."""
    out = ""
    if isinstance(result.get("exit_code"), int):
        out += f"exit status: {result['exit_code']}\n"
    for key, title in (("stdout", "output"), ("stderr", "errors"), ("content", "content")):
        text = result.get(key)
        if isinstance(text, str) and text:
            more = " (cut: only the first part was kept)" if result.get(f"{key}_truncated") else ""
            out += f"--- {title}{more} ---\n{text}" + ("" if text.endswith("\n") else "\n")
    return out


def _step_name(action: dict[str, Any]) -> str:
    name = action.get("name") or action.get("app") or ""
    return f"{action.get('type', '?')} {name}".strip()


def _step_detail(step: dict[str, Any]) -> str:
    result = step.get("result")
    error = result.get("error") if isinstance(result, dict) else None
    if isinstance(error, dict):
        return f"{error.get('code')}: {error.get('message')}"
    return str(step.get("reason") or "")


def format_status(status: dict[str, Any]) -> str:
    """`status` and the replies of kill / resume / pause / unpause (they answer with the status)."""
    state = status.get("state")
    if status.get("reason") or status.get("by"):
        state = f"{state} by {status.get('by') or '?'}" + (f": {status['reason']}" if status.get("reason") else "")
    out = _pairs([("state", state), ("policy", status.get("policy")), ("asking", status.get("asking")),
                  ("queued", status.get("queued"))])
    out += "\n" + table(status.get("sessions") or [],
                        [("id", "session"), ("agent", "agent"), ("pid", "pid"), ("steps", "steps"),
                         ("errors", "errors"), ("age_s", "age s")], "no agent sessions")
    out += "\n" + format_grants(status.get("grants") or [])
    return out


def format_grants(grants: list[dict[str, Any]]) -> str:
    rows = [{**g, "expires": "end of session" if g.get("expires_in_s") is None else f"{g['expires_in_s']:g} s"}
            for g in grants]
    return table(rows, [("id", "grant"), ("agent", "agent"), ("summary", "action"), ("app", "app"),
                        ("window", "window"), ("expires", "expires")], "no active grants")


def emit(data: dict[str, Any], args: argparse.Namespace, human: str) -> None:
    """`data` as JSON with --json, else the `human` text."""
    sys.stdout.write((_json(data) + "\n") if getattr(args, "json", False) else human)
    sys.stdout.flush()


def emit_error(reply: dict[str, Any], args: argparse.Namespace, line: str) -> None:
    """A failure: the reply on stdout for --json, and one line for a person on stderr always."""
    if getattr(args, "json", False):
        sys.stdout.write(_json(reply) + "\n")
        sys.stdout.flush()
    print(f"deskgate: {line}", file=sys.stderr)
