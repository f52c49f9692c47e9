"""What a client needs of wire protocol v1 (DESIGN §4): the version, the limits, the verdict names and the
request encoder. Standard library only, so the hook, the MCP server and `deskgate kill` start small; the
request schema and its validation (msgspec + gate.model) are `app.protocol`, which the server imports.

    >>> encode_request("observe", "7")
    b'{"v":1,"id":"7","op":"observe"}\\n'
"""

from __future__ import annotations

import enum
import json

TYPE_CHECKING = False  # typing is not imported at run time: the hook and `deskgate kill` start small
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_LINE", "PROTOCOL_VERSION", "RESUME_COMMANDS", "SCREENSHOT_MAX_WIDTH", "STOP_COMMANDS",
           "SUPPORTED_VERSIONS", "Verdict", "encode_request"]

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS: frozenset[int] = frozenset({PROTOCOL_VERSION})
MAX_LINE = 1024 * 1024  # bytes, without the newline
SCREENSHOT_MAX_WIDTH = 640  # px: a `screenshot` result is downscaled to at most this width
# Control commands that stop agents: anyone connected may send them (stopping is always allowed).
STOP_COMMANDS = frozenset({"kill", "pause"})
# Control commands that let agents act again: only the person, with the person's proof (app/daemon/person.py).
RESUME_COMMANDS = frozenset({"resume", "unpause"})


class Verdict(enum.StrEnum):
    """What became of a request: the `verdict` of a reply, of an audit outcome row, of a plan's step.

    A StrEnum: it is the string on the wire and in the log (`Verdict.EXECUTED == "executed"`), so readers
    that compare strings keep working. `app.ports` shares it with the rest of app/ and ui/."""

    EXECUTED = "executed"  # it ran and did what it was asked
    ALLOWED = "allowed"    # allowed (or approved) with execute=false: the agent runs it itself
    APPROVED = "approved"  # a person approved it (an outcome the log accepts; the daemon replies `executed`)
    DENIED = "denied"      # by a rule, a person, a timeout, a limit, the kill switch, a changed desktop
    DEFERRED = "deferred"  # a CONFIRM left to the agent's own prompt (act with execute=false and defer)
    KILLED = "killed"      # the kill switch ended it while it ran
    ERROR = "error"        # it ran, or tried to, and failed
    NOT_RUN = "not_run"    # a plan's step that was never reached (a step's verdict only, never an outcome)


def _builtins(obj: Any) -> Any:
    # Only for what json cannot write itself: a gate.model struct (or another msgspec type) an agent passed.
    import msgspec

    return msgspec.to_builtins(obj)


def encode_request(op: str, rid: str, **fields: Any) -> bytes:
    """One request line (with its newline); fields that are None are left out. Actions may be dicts or
    gate.model structs. Compact UTF-8 JSON; control characters are escaped, so no raw newline can leak.
    A value JSON cannot carry (NaN, infinity) is a ValueError: the request is not sent."""
    msg: dict[str, Any] = {"v": PROTOCOL_VERSION, "id": rid, "op": op}
    for key, value in fields.items():
        if value is not None:
            msg[key] = value
    text = json.dumps(msg, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_builtins)
    return text.encode("utf-8") + b"\n"
