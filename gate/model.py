"""The gate's data model: actions (wire protocol v1), observations and assessments.

Actions are msgspec Structs decoded strictly: unknown fields, wrong types and missing fields are
rejected with an error that names the field. Everything here is immutable.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import msgspec

__all__ = [
    "ACTION_TYPES",
    "POINTER_TYPES",
    "Action",
    "ActionError",
    "Assessment",
    "Decision",
    "Expect",
    "Hit",
    "Observation",
    "Rect",
    "Risk",
    "Script",
    "Span",
    "Target",
    "TypedLine",
    "action_from_dict",
    "action_from_json",
    "action_to_dict",
]


class ActionError(ValueError):
    """An action that does not fit the schema. The message names the offending field."""


class Decision(enum.StrEnum):
    ALLOW = "allow"
    CONFIRM = "confirm"
    BLOCK = "block"


class Risk(enum.IntEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2
    CRITICAL = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Risk:
        return cls[text.upper()]


# -- pieces shared by actions -------------------------------------------------------------------

Coord = Annotated[int, msgspec.Meta(ge=-100_000, le=100_000)]
ShortText = Annotated[str, msgspec.Meta(max_length=4096)]
LongText = Annotated[str, msgspec.Meta(max_length=1_000_000)]


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, omit_defaults=True):
    pass


class Target(_Strict):
    """What the agent says it is aiming at (a UI element). Claimed by the agent, never trusted alone."""

    label: ShortText | None = None
    role: ShortText | None = None
    name: ShortText | None = None


class Expect(_Strict):
    """The app / window the agent expects to be acting on (glob patterns)."""

    app: ShortText | None = None
    window: ShortText | None = None


class _Action(_Strict, tag_field="type"):
    target: Target | None = None
    confidence: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] | None = None
    url: ShortText | None = None
    expect: Expect | None = None
    note: ShortText | None = None

    @property
    def type(self) -> str:
        return self.__struct_config__.tag  # type: ignore[return-value]


Button = Literal["left", "right", "middle"]


class Click(_Action, tag="click", kw_only=True):
    x: Coord
    y: Coord
    button: Button = "left"
    clicks: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1


class Move(_Action, tag="move", kw_only=True):
    x: Coord
    y: Coord


class Drag(_Action, tag="drag", kw_only=True):
    path: Annotated[list[tuple[Coord, Coord]], msgspec.Meta(min_length=2, max_length=1000)]
    button: Button = "left"


class Scroll(_Action, tag="scroll", kw_only=True):
    x: Coord | None = None
    y: Coord | None = None
    dx: Annotated[int, msgspec.Meta(ge=-1000, le=1000)] = 0
    dy: Annotated[int, msgspec.Meta(ge=-1000, le=1000)] = 0

    def __post_init__(self) -> None:
        if (self.x is None) != (self.y is None):
            raise ValueError("scroll needs both `x` and `y`, or neither")


class Type(_Action, tag="type", kw_only=True):
    text: Annotated[str, msgspec.Meta(max_length=100_000)]


class Key(_Action, tag="key", kw_only=True):
    keys: Annotated[list[Annotated[str, msgspec.Meta(min_length=1, max_length=32)]],
                    msgspec.Meta(min_length=1, max_length=8)]


class Wait(_Action, tag="wait", kw_only=True):
    seconds: Annotated[float, msgspec.Meta(ge=0, le=60)] = 1.0


class Screenshot(_Action, tag="screenshot", kw_only=True):
    pass


class Shell(_Action, tag="shell", kw_only=True):
    command: Annotated[str, msgspec.Meta(max_length=100_000)] | None = None
    argv: Annotated[list[ShortText], msgspec.Meta(min_length=1, max_length=4096)] | None = None
    cwd: ShortText | None = None
    env: dict[Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")], ShortText] | None = None
    timeout: Annotated[float, msgspec.Meta(gt=0, le=3600)] | None = None

    def __post_init__(self) -> None:
        if (self.command is None) == (self.argv is None):
            raise ValueError("shell needs exactly one of `command` or `argv`")


class FileRead(_Action, tag="file_read", kw_only=True):
    path: ShortText


class FileWrite(_Action, tag="file_write", kw_only=True):
    path: ShortText
    content: LongText = ""


class FileDelete(_Action, tag="file_delete", kw_only=True):
    path: ShortText


class FileMove(_Action, tag="file_move", kw_only=True):
    path: ShortText
    to: ShortText


class Navigate(_Action, tag="navigate", kw_only=True):
    url: ShortText  # type: ignore[assignment]  # required here, optional elsewhere


class OpenApp(_Action, tag="open_app", kw_only=True):
    app: Annotated[str, msgspec.Meta(min_length=1, max_length=256)]


class System(_Action, tag="system", kw_only=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    params: dict[str, Any] | None = None


class Tool(_Action, tag="tool", kw_only=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=256)]
    input: dict[str, Any] | None = None


Action = (Click | Move | Drag | Scroll | Type | Key | Wait | Screenshot | Shell | FileRead | FileWrite
          | FileDelete | FileMove | Navigate | OpenApp | System | Tool)

ACTION_CLASSES: dict[str, type] = {c.__struct_config__.tag: c for c in Action.__args__}  # type: ignore[attr-defined]
ACTION_TYPES: frozenset[str] = frozenset(ACTION_CLASSES)
POINTER_TYPES: frozenset[str] = frozenset({"click", "move", "drag", "scroll"})
FILE_TYPES: frozenset[str] = frozenset({"file_read", "file_write", "file_delete", "file_move"})

_json_decoder = msgspec.json.Decoder(Action)


def _explain(err: msgspec.ValidationError | msgspec.DecodeError) -> str:
    msg = str(err)
    # msgspec says "Object contains unknown field `foo` - at `$.target`"; keep it, but speak of "action".
    if " - at `" not in msg:
        msg += " - at `$`"
    return msg.replace("`$.", "`action.").replace("`$`", "`action`")


def action_from_dict(data: Any) -> Action:
    """Validate a decoded JSON object as an action. Raises ActionError naming the field."""
    if not isinstance(data, dict):
        raise ActionError("action must be a JSON object")
    kind = data.get("type")
    if kind is None:
        raise ActionError("action.type is required")
    if not isinstance(kind, str):  # a list or object here is unhashable: say so, do not crash
        raise ActionError(f"action.type must be a string, not {type(kind).__name__}")
    if kind not in ACTION_TYPES:
        raise ActionError(f"action.type {kind!r} is unknown (known: {', '.join(sorted(ACTION_TYPES))})")
    try:
        return msgspec.convert(data, ACTION_CLASSES[kind], strict=True)
    except msgspec.ValidationError as err:
        raise ActionError(_explain(err)) from None


def action_from_json(raw: bytes | str) -> Action:
    try:
        return _json_decoder.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as err:
        raise ActionError(_explain(err)) from None
    except UnicodeDecodeError as err:  # msgspec decodes the `type` tag itself, and raises this for bad UTF-8
        raise ActionError(f"action is not valid UTF-8 (byte {err.start})") from None


def action_to_dict(action: Action) -> dict[str, Any]:
    return msgspec.to_builtins(action)


# -- what deskgate observes itself --------------------------------------------------------------


class Rect(msgspec.Struct, frozen=True):
    x: int
    y: int
    width: int
    height: int

    def contains(self, px: int, py: int) -> bool:
        return self.x <= px < self.x + self.width and self.y <= py < self.y + self.height


class TypedLine(msgspec.Struct, frozen=True, kw_only=True):
    """The line a terminal, Run dialog or address bar holds, as the supervisor followed it (app/daemon/lines.py):
    what was typed into that window since its last line end, with edits applied (gate/lines.py)."""

    text: str = ""
    raw: str = ""  # every printable character seen since the line end, edits and cancels not applied
    known: bool = True  # False: history keys, a paste, a window switch, text typed before deskgate saw it
    why: str = ""  # why it is not known, for a person
    first: bool = False  # unknown only because deskgate sees the window for the first time (nothing recalled)
    # the shell variables earlier whole lines of this window set (`X=v`, `export X=v`), as (name, value), the latest
    # last: the shell keeps them, so a later line's `$X` is that value (gate/lines.py `carried_env`)
    env: tuple[tuple[str, str], ...] = ()
    # the directory earlier whole lines of this window moved the shell to (`cd ~`), or None: not known
    cwd: str | None = None


class Script(msgspec.Struct, frozen=True):
    """A file an agent wrote in this session that a command runs (app/daemon/written.py): judged by content."""

    path: str
    content: str


class Observation(msgspec.Struct, frozen=True, kw_only=True):
    """The desktop as deskgate read it (never as the agent claims it)."""

    window_title: str = ""
    app: str = ""
    url: str = ""
    screen_hash: str = ""
    screen_width: int = 0
    screen_height: int = 0
    # deskgate's own windows, dialog and tray: an agent pointer action inside one is blocked.
    protected: tuple[Rect, ...] = ()
    # True when the active window is one of deskgate's own (keys/typing would land in it).
    protected_active: bool = False
    # What deskgate read at the action's target itself (app/desktop/pointer.py), never what the agent claims:
    # for a pointer action the element under the point, for typing the focused field. Empty: nothing read.
    pointer_label: str = ""
    pointer_role: str = ""
    label_source: str = ""  # "accessibility" | "ocr" | "" (nothing read)
    # how sure the read is (OCR's own confidence, 0-1; a read under app/desktop/ocr.py MIN_LABEL_CONFIDENCE is
    # dropped; accessibility 1.0); None: nothing was read
    label_confidence: float | None = None
    # True when deskgate tried to read the target (a reader works): an empty label then means nobody can read it
    pointer_read: bool = False
    # The text of the page, dialog or pop-up the action happens in, as deskgate read it (accessibility text or
    # text recognition), bounded by the reader; empty: not read. What it tells the agent to do is judged with
    # the action and remembered for the next steps (gate/rules/session.py).
    page_text: str = ""
    # the read element's screen box (accessibility extents), for the preview's outline; None: not known
    target_box: Rect | None = None
    # the active window's id (X11), so the supervisor can keep one typed line per window; 0: unknown
    window_id: int = 0
    # deskgate's own processes (the supervisor): a signal, debugger or priority change aimed at one by its number
    # is an attack on the person's control (gate/rules/own_process.py)
    own_pids: tuple[int, ...] = ()
    # ... and the names a process search finds it by: its process names (`comm`, the program file's base
    # name: what `pkill NAME`, `killall NAME`, `pidof NAME` compare) and its whole command lines (what
    # `pkill -f`, `pgrep -f` and `ps | grep` search), read by the supervisor about itself
    own_names: tuple[str, ...] = ()
    own_cmdlines: tuple[str, ...] = ()
    # the focused terminal's prompt line as the screen shows it (accessibility text); None: not readable
    screen_line: str | None = None
    # the line this window holds (gate/lines.py); None: the supervisor does not follow lines here
    line: TypedLine | None = None
    # files written by the agent in this session that the action (a shell command) runs
    scripts: tuple[Script, ...] = ()
    # The session's work area besides `files.sandbox_roots`: its project directory (the Claude Code hook's
    # `cwd`, hello's `project`) and the policy's `[[projects]]`, each checked by the supervisor (never
    # home itself, `/` or a system directory). File changes inside one do not ask; sensitive paths in it
    # keep their rules.
    work_dirs: tuple[str, ...] = ()


EMPTY_OBSERVATION = Observation()


# -- the gate's answer --------------------------------------------------------------------------


class Span(msgspec.Struct, frozen=True):
    """Where in the action a finding is: `action.<field>[start:end]`. For `argv` the offsets are into the
    shell-quoted command line (`shlex.join(argv)`), the form the gate analysed and a person reads."""

    field: str  # "command" | "argv" | "text"
    start: int
    end: int


class Hit(msgspec.Struct, frozen=True):
    """One rule that fired: its id, what it asks for, how risky, and why (for a person); `spans`: the
    risky parts of the text it judged, when the rule can point at them (shell findings do)."""

    rule: str
    decision: Decision
    risk: Risk
    reason: str
    spans: tuple[Span, ...] = ()


class Assessment(msgspec.Struct, frozen=True, kw_only=True):
    decision: Decision
    reason: str
    rules: tuple[str, ...]
    risk: Risk
    confidence: float
    hits: tuple[Hit, ...] = ()
    # action fields that must never reach the log in plain text (e.g. "text" typed into a password field)
    redact: frozenset[str] = frozenset()
    # a file action: the real path(s) judged (path, a move's destination); the executor acts on these
    paths: tuple[str, ...] = ()
    # a write judged as creating a new file (gate/paths.py `new_personal_file`): the executor must not replace
    # a file that appears at the path after the judgement
    new_file: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "decision": self.decision.value,
            "rules": list(self.rules),
            "reason": self.reason,
            "risk": self.risk.label,
        }
