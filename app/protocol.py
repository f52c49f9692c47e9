"""Wire protocol v1: one JSON object per line, UTF-8, at most 1 MiB a line (DESIGN §4).

`parse_request(line)` turns one line into a typed request or raises DeskgateError with a clear message.
Unknown fields are rejected, not ignored. The server frames lines and builds replies with `ok_reply` /
`error_reply` / `encode_reply`; the client builds requests with `encode_request`.

    >>> req = parse_request(b'{"v":1,"id":"7","op":"observe"}')
    >>> type(req).__name__, req.id
    ('Observe', '7')
    >>> encode_reply(ok_reply(req.id, {"app": "firefox"}))
    b'{"id":"7","ok":true,"app":"firefox"}\\n'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

import msgspec

from app.errors import DeskgateError
from app.wire import (
    MAX_LINE,
    PROTOCOL_VERSION,
    RESUME_COMMANDS,
    SCREENSHOT_MAX_WIDTH,
    STOP_COMMANDS,
    SUPPORTED_VERSIONS,
    encode_request,
)
from gate.model import Action, ActionError, Expect, action_from_dict

__all__ = [
    "CONTROL_COMMANDS",
    "MAX_LINE",
    "OPS",
    "PROTOCOL_VERSION",
    "RESUME_COMMANDS",
    "SCREENSHOT_MAX_WIDTH",
    "STOP_COMMANDS",
    "SUPPORTED_VERSIONS",
    "Act",
    "Bye",
    "Check",
    "CommandReq",
    "Control",
    "Hello",
    "Observe",
    "Plan",
    "Request",
    "encode_reply",
    "encode_request",
    "error_reply",
    "negotiate_version",
    "ok_reply",
    "parse_request",
    "request_id",
    "request_id_from_prefix",
]

RequestId = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
ControlCommand = Literal["kill", "resume", "pause", "unpause", "status", "grants", "revoke"]
CONTROL_COMMANDS: tuple[str, ...] = get_args(ControlCommand)


class _Req(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag_field="op"):
    v: int
    id: RequestId


class Hello(_Req, tag="hello", kw_only=True):
    agent: Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=r"^[\w .@:/+-]+$")]
    expect: Expect | None = None
    versions: Annotated[list[int], msgspec.Meta(max_length=16)] | None = None  # versions the agent speaks
    # A longer-lived conversation this session belongs to (a hook opens one session per tool call): grants a
    # person gives in one session of the scope cover the same action in later sessions of that scope.
    scope: Annotated[str, msgspec.Meta(min_length=1, max_length=200)] | None = None
    # The directory the agent works on (the Claude Code hook sends its session's `cwd`): a work area for
    # this session's file actions and commands, unless it is `/`, the home directory itself or a system
    # directory (the reply's `work_area` lists what was accepted, `project_refused` says why not).
    project: Annotated[str, msgspec.Meta(min_length=1, max_length=4096)] | None = None


class Act(_Req, tag="act", kw_only=True):
    action: Action
    execute: bool = True
    # With execute=false: a CONFIRM is not put to deskgate's approver; the reply's verdict is `deferred` and
    # the agent asks its own person (Claude Code's permission prompt). Recorded like any decision.
    defer: bool = False

    def __post_init__(self) -> None:
        if self.defer and self.execute:
            raise ValueError("`defer` is only valid with execute=false (the agent runs the action itself)")


class Plan(_Req, tag="plan", kw_only=True):
    actions: Annotated[list[Action], msgspec.Meta(min_length=1, max_length=1000)]
    execute: bool = True


class Check(_Req, tag="check", kw_only=True):
    action: Action


class Observe(_Req, tag="observe", kw_only=True):
    pass


class CommandReq(_Req, tag="command", kw_only=True):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=1000)]
    execute: bool = True


class Bye(_Req, tag="bye", kw_only=True):
    pass


class Control(_Req, tag="control", kw_only=True):
    """A person's command from the CLI over the socket: kill, resume, pause, unpause, status, grants, revoke."""

    # An exact value: a regex `$` would let "kill\n" through and then match no command.
    command: ControlCommand
    reason: Annotated[str, msgspec.Meta(max_length=500)] | None = None
    grant: Annotated[str, msgspec.Meta(min_length=1, max_length=128)] | None = None
    # "tty": the person answered `deskgate resume`'s prompt on a terminal (checked again by the server).
    person: Literal["tty"] | None = None

    def __post_init__(self) -> None:
        # msgspec turns a ValueError here into a ValidationError naming the request.
        if self.command == "revoke" and self.grant is None:
            raise ValueError("`grant` is required for command 'revoke'")
        if self.command != "revoke" and self.grant is not None:
            raise ValueError(f"`grant` is only valid with command 'revoke', not {self.command!r}")


Request = Hello | Act | Plan | Check | Observe | CommandReq | Bye | Control
_OP_CLASS: dict[str, type] = {c.__struct_config__.tag: c for c in Request.__args__}  # type: ignore[attr-defined]
OPS: frozenset[str] = frozenset(_OP_CLASS)

# The fast path: one C-level pass from bytes to a typed request. Anything it rejects goes through the
# slow path below, which finds the precise error code and message.
_decoder = msgspec.json.Decoder(Request)
_encoder = msgspec.json.Encoder()


def _describe(err: Exception) -> str:
    msg = str(err)
    if " - at `" not in msg:
        msg += " - at `$`"
    return msg.replace("`$.", "`").replace("`$`", "`request`")


def _check_version(req: Request) -> None:
    # A hello may carry any `v`: version negotiation (negotiate_version) answers it with `unsupported`.
    if req.v != PROTOCOL_VERSION and not isinstance(req, Hello):
        raise DeskgateError("unsupported", f"protocol version {req.v} is not supported (this is v{PROTOCOL_VERSION})")


def parse_request(line: bytes) -> Request:
    """One line (without its newline) → a typed request.

    Raises DeskgateError with code `too_large` (over MAX_LINE), `bad_request` (not UTF-8, not JSON, not an
    object, a missing/unknown field, a wrong type or value), `unknown_op`, or `unsupported` (`v` ≠ 1).
    """
    if len(line) > MAX_LINE:
        raise DeskgateError("too_large", f"request line is {len(line)} bytes; the limit is {MAX_LINE}")
    try:
        # msgspec does not check UTF-8 inside strings it does not keep, so check it here, once.
        line.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DeskgateError("bad_request", f"request is not valid UTF-8 (byte {err.start})") from None
    try:
        req = _decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        req = None
    if req is None:
        _raise_precise(line)
        raise DeskgateError("bad_request", "request is not valid")  # unreachable: _raise_precise raises
    _check_version(req)
    return req


def _raise_precise(line: bytes) -> None:
    """The slow path: decode to plain data and say exactly what is wrong. Always raises."""
    try:
        data = msgspec.json.decode(line)
    except (msgspec.DecodeError, RecursionError) as err:
        raise DeskgateError("bad_request", f"request is not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise DeskgateError("bad_request", "request must be a JSON object")
    op = data.get("op")
    if op is None:
        raise DeskgateError("bad_request", "`op` is required")
    if not isinstance(op, str):
        raise DeskgateError("bad_request", f"`op` must be a string, not {type(op).__name__}")
    if op not in OPS:
        raise DeskgateError("unknown_op", f"unknown op {op!r} (known: {', '.join(sorted(OPS))})")
    v = data.get("v")
    if isinstance(v, int) and not isinstance(v, bool) and v != PROTOCOL_VERSION and op != "hello":
        raise DeskgateError("unsupported", f"protocol version {v} is not supported (this is v{PROTOCOL_VERSION})")
    # Actions first, with the gate's own validator: its messages name the action field and list the types.
    try:
        if isinstance(data.get("action"), dict):
            action_from_dict(data["action"])
        if isinstance(data.get("actions"), list):
            for i, a in enumerate(data["actions"]):
                try:
                    action_from_dict(a)
                except ActionError as err:
                    raise ActionError(str(err).replace("`action", f"`actions[{i}]", 1)) from None
    except ActionError as err:
        raise DeskgateError("bad_request", str(err)) from None
    try:
        req = msgspec.convert(data, _OP_CLASS[op], strict=True)
    except msgspec.ValidationError as err:
        raise DeskgateError("bad_request", _describe(err)) from None
    _check_version(req)
    # The fast decoder and the slow path disagree only on something neither should accept.
    raise DeskgateError("bad_request", "request is not valid")


def negotiate_version(hello: Hello) -> int:
    """The protocol version for this session: the highest both sides speak. Raises `unsupported`.

    An agent lists what it speaks in `versions`; without it, its `v` is the only version it speaks.
    """
    offered = set(hello.versions) if hello.versions is not None else {hello.v}
    common = offered & SUPPORTED_VERSIONS
    if not common:
        raise DeskgateError(
            "unsupported",
            f"no common protocol version: agent speaks {sorted(offered)}, deskgate speaks "
            f"{sorted(SUPPORTED_VERSIONS)}",
        )
    return max(common)


def request_id(line: bytes) -> str | None:
    """Best effort: the `id` of a line that failed to parse, so the error reply can carry it."""
    try:
        data = msgspec.json.decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return request_id_from_prefix(line)
    rid = data.get("id") if isinstance(data, dict) else None
    return rid if isinstance(rid, str) and 0 < len(rid) <= 128 else None


def request_id_from_prefix(prefix: bytes, *, scan: int = 64 * 1024) -> str | None:
    """The top-level `"id": "..."` of a JSON object from the start of a line that is cut short or broken.

    Used for over-long lines, which the server never holds whole. Walks the first `scan` bytes tracking
    nesting and strings, so an `id` inside an action is not mistaken for the request's.
    """
    text = prefix[:scan]
    n = len(text)
    i = 0
    while i < n and text[i] in b" \t\r\n":
        i += 1
    if i >= n or text[i] != ord("{"):
        return None
    depth = 0
    expect_key = False
    while i < n:
        c = text[i]
        if c == ord('"'):
            end = _string_end(text, i)
            if end is None:
                return None
            if depth == 1 and expect_key:
                key = text[i : end + 1]
                j = end + 1
                while j < n and text[j] in b" \t\r\n":
                    j += 1
                if key == b'"id"' and j < n and text[j] == ord(":"):
                    j += 1
                    while j < n and text[j] in b" \t\r\n":
                        j += 1
                    if j < n and text[j] == ord('"'):
                        vend = _string_end(text, j)
                        if vend is None:
                            return None
                        try:
                            rid = msgspec.json.decode(text[j : vend + 1])
                        except (msgspec.DecodeError, UnicodeDecodeError):
                            return None
                        return rid if isinstance(rid, str) and 0 < len(rid) <= 128 else None
                    return None
                expect_key = False
            i = end + 1
            continue
        if c in b"{[":
            depth += 1
            expect_key = c == ord("{") and depth == 1
        elif c in b"}]":
            depth -= 1
            if depth <= 0:
                return None
        elif c == ord(",") and depth == 1:
            expect_key = True
        i += 1
    return None


def _string_end(text: bytes, start: int) -> int | None:
    """Index of the quote closing the JSON string that opens at `start`, or None if it is cut off."""
    i = start + 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == ord("\\"):
            i += 2
            continue
        if c == ord('"'):
            return i
        i += 1
    return None


def ok_reply(rid: str | None, body: Mapping[str, Any]) -> dict[str, Any]:
    """A success reply: `id` and `ok` first, then the handler's body (which must not set them itself)."""
    reply: dict[str, Any] = {"id": rid, "ok": True}
    for key, value in body.items():
        if key not in ("id", "ok"):
            reply[key] = value
    return reply


def error_reply(request_id: str | None, err: DeskgateError, **extra: Any) -> dict[str, Any]:
    return {"id": request_id, "ok": False, "error": err.to_dict(), **extra}


def encode_reply(reply: Mapping[str, Any]) -> bytes:
    """One reply line (with its newline). msgspec escapes control characters, so no raw newline can leak."""
    return _encoder.encode(reply) + b"\n"
