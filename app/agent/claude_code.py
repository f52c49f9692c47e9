"""Claude Code PreToolUse hook: every tool call Claude Code is about to make is judged by deskgate first.

Claude Code runs the hook command once per tool call with one JSON object on stdin:

    {"session_id": "...", "transcript_path": "...", "cwd": "/home/me/project",
     "hook_event_name": "PreToolUse", "tool_name": "Bash",
     "tool_input": {"command": "ls -la", "description": "List files", "timeout": 120000}}

and reads the answer as JSON on stdout (exit status 0):

    {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                            "permissionDecisionReason": "deskgate: recursive delete of / (rules: ...)"}}

Exit status 2 is a blocking error: the call is refused and stderr is shown to Claude. That is the answer
to input that is not a PreToolUse event at all. Everything else that goes wrong (no supervisor, no reply
in time, a tool input deskgate cannot represent) is a "deny" with a reason that says how to fix it:
this hook never lets a call through because it could not ask.

Claude Code runs the tool itself; the hook sends an `act` with execute=false, so every tool call is a
decision in deskgate's audit log. Where deskgate's rules have nothing to say, the hook has no opinion:
it exits 0 with nothing on stdout and Claude Code's own permission settings decide (its prompts stay on
for Write, Edit, WebFetch, MCP tools...). Otherwise, by mode:

- `defer` (default): an explicit allow rule of the policy → "allow"; confirm → "ask" (Claude Code asks
  the person in its own prompt, with deskgate's reason); block → "deny".
- `strict`: the same, except that a confirm is decided by deskgate's own approver (the tray dialog, the
  terminal, the rule file): approved → "allow", denied → "deny". A person answers in one place, and the
  answer, and any "approve for 5 min / session" grant, is deskgate's.

Each tool call is a short deskgate session (one process per call) named `<agent>:<claude session>:<pid>`,
in the scope `<agent>:<claude session>`: a grant given for one call covers the same call later in the
same Claude Code session.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import threading
from collections.abc import Mapping
from pathlib import Path

from app.errors import DeskgateError
from app.wire import Verdict

TYPE_CHECKING = False  # typing is not imported at run time: the hook and `deskgate kill` start small
if TYPE_CHECKING:
    from typing import Any, TextIO

__all__ = [
    "DEFAULT_AGENT",
    "DEFAULT_TIMEOUT_S",
    "MODES",
    "SETTINGS_SNIPPET",
    "HookInputError",
    "answer",
    "ask_supervisor",
    "parse_hook_input",
    "run_hook",
    "to_action",
]

DEFAULT_AGENT = "claude-code"
DEFAULT_TIMEOUT_S = 5.0
# Claude Code waits 60 s for a command hook by default; in strict mode a person answers deskgate's own
# dialog (30 s by default), so the hook waits longer but still answers before Claude Code gives up.
ASK_HERE_TIMEOUT_S = 55.0
MODES = ("defer", "strict")

SETTINGS_SNIPPET = """{
  "hooks": {
    "PreToolUse": [
      {"matcher": "*", "hooks": [{"type": "command", "command": "deskgate hook claude-code"}]}
    ]
  }
}"""

_START_HINT = "start `deskgate run` (or `deskgate serve`) and retry"
_NOTE_MAX = 4096  # gate.model.ShortText
_GLOB_CHARS = re.compile(r"[*?\[{]")
_TRAILING_WILDCARDS = re.compile(r"[*?]+$")
# A search whose pattern hunts for secrets is judged as reading the files such secrets live in.
# Bounded repeats only (and a pattern is read up to _PATTERN_MAX characters): linear in the input.
_KEY_SEARCH = re.compile(r"private[\s_.\\-]{0,4}key|begin[ \w]{0,20}key|ssh-(rsa|ed25519|dss)|ecdsa-sha2|"
                         r"id_(rsa|ed25519|ecdsa|dsa)", re.I)
# Whole words, so a search for `tokenize` or `secretary` in code is not taken for a hunt.
_SECRET_SEARCH = re.compile(r"passw(or)?d|passwd|\bsecrets?\b|client_secret|api[\s_.\\-]{0,4}key|"
                            r"access[\s_.\\-]{0,4}key|\b(auth_|access_|refresh_)?tokens?\b|\bcredentials?\b|"
                            r"\bbearer\b|\bAKIA|\bghp_|\bxox[bp]-|\bsk-", re.I)
_PATTERN_MAX = 2000


class HookInputError(ValueError):
    """The hook's stdin is not a PreToolUse event this hook can read."""


# -- input -----------------------------------------------------------------------------------------


def parse_hook_input(raw: bytes | str) -> dict[str, Any]:
    """Decode and check the hook event. Raises HookInputError saying what is wrong."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise HookInputError(f"hook input is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise HookInputError("hook input must be a JSON object")
    event = data.get("hook_event_name")
    if event != "PreToolUse":
        raise HookInputError(f"this hook handles PreToolUse events, not {event!r}; register it under "
                             "\"PreToolUse\" in settings.json")
    name = data.get("tool_name")
    if not isinstance(name, str) or not name:
        raise HookInputError("hook input has no `tool_name`")
    if not isinstance(data.get("tool_input", {}), dict):
        raise HookInputError("hook input `tool_input` must be a JSON object")
    cwd = data.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise HookInputError("hook input `cwd` must be a string")
    return data


# -- Claude Code tool → deskgate action (pure) ------------------------------------------------------


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise HookInputError(f"tool_input.{field} must be a non-empty string")
    return value


def _abs(path: str, cwd: str | None) -> str:
    # Claude Code sends absolute paths; a relative one is read against the session's cwd, as the tool would.
    path = os.path.expanduser(path)
    if not os.path.isabs(path) and cwd:
        path = os.path.join(cwd, path)
    return posixpath.normpath(path)


def _glob_base(pattern: str) -> str:
    """The directory part of a glob pattern before its first wildcard ("/etc/ss*/x" → "/etc")."""
    match = _GLOB_CHARS.search(pattern)
    if match is None:
        return pattern
    head = pattern[: match.start()]
    return head.rsplit("/", 1)[0] or "/" if "/" in head else ""


def _glob_target(root: str, pattern: str) -> str:
    """The files a glob names, as one path the file rules can judge: `**/id_rsa*` under /w → /w/**/id_rsa
    (a trailing wildcard widens a name; the name is what makes a file sensitive)."""
    path = pattern if pattern.startswith("/") else posixpath.join(root, pattern)
    head, _, name = path.rpartition("/")
    stem = _TRAILING_WILDCARDS.sub("", name)
    return f"{head}/{stem or name}"


def _searched_secret(pattern: Any) -> str | None:
    """The credential file a Grep pattern hunts for ("PRIVATE KEY" → a private key), or None."""
    if not isinstance(pattern, str):
        return None
    pattern = pattern[:_PATTERN_MAX]
    if _KEY_SEARCH.search(pattern):
        return "id_rsa"
    if _SECRET_SEARCH.search(pattern):
        return ".env"
    return None


def _search_action(tool_name: str, ti: dict[str, Any], cwd: str | None) -> dict[str, Any]:
    """Glob / Grep / LS, judged by where they look and what they look for."""
    path = ti.get("path")
    if path is not None and not isinstance(path, str):
        raise HookInputError("tool_input.path must be a string")
    pattern = ti.get("pattern")
    if not path and tool_name == "Glob" and isinstance(pattern, str) and pattern.startswith(("/", "~")):
        path = _glob_base(pattern) or None
    if not path and tool_name == "LS":
        raise HookInputError("tool_input.path must be a non-empty string")
    root = path or cwd
    if not root:
        return {"type": "tool", "name": tool_name, "input": ti}
    root = _abs(root, cwd)
    if tool_name == "Glob" and isinstance(pattern, str) and pattern:
        target = _glob_target(root, _abs(pattern, root) if pattern.startswith("~") else pattern)
        return {"type": "file_read", "path": target, "note": f"Glob {pattern[:200]!r} under {root}"}
    if tool_name == "Grep":
        secret = _searched_secret(pattern)
        if secret is not None:
            return {"type": "file_read", "path": f"{root}/**/{secret}",
                    "note": f"Grep for {str(pattern)[:200]!r} under {root}: a search for credentials, judged "
                            f"as reading the files that hold them"}
        file_glob = ti.get("glob")
        if isinstance(file_glob, str) and file_glob:
            return {"type": "file_read", "path": _glob_target(root, file_glob if "/" in file_glob
                                                              else f"**/{file_glob}")}
    return {"type": "file_read", "path": root}


_EDIT_READ_MAX = 512 * 1024  # a bigger file is judged (and shown) by its new text only


def _edited(path: str, edits: list[dict[str, Any]]) -> str | None:
    """The file as it will be after Claude Code applies `edits` (each old_string → new_string, once or
    with replace_all), so the gate judges, and the dialog shows, the file that will be written. None
    when the file cannot be read as text or an edit does not apply (Claude Code will refuse it then)."""
    try:
        if os.path.getsize(path) > _EDIT_READ_MAX:
            return None
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    for e in edits:
        old, new = e.get("old_string", ""), e.get("new_string", "")
        if not old or old not in text:
            return None
        text = text.replace(old, new) if e.get("replace_all") is True else text.replace(old, new, 1)
    return text


def to_action(tool_name: str, tool_input: Mapping[str, Any], cwd: str | None = None) -> dict[str, Any]:
    """The deskgate action for one Claude Code tool call. Raises HookInputError on a malformed input.

    Edits become `file_write` with the whole file as it will be after the edit as content (where the file
    can be read and the edit applies; else the new text alone): the gate reads it (secrets, paths), the
    dialog shows it as a diff, and the audit log stores file_write content only as a digest.
    """
    ti = dict(tool_input)
    if tool_name == "Bash":
        action: dict[str, Any] = {"type": "shell", "command": _text(ti.get("command"), "command")}
        if cwd:
            action["cwd"] = cwd
        timeout_ms = ti.get("timeout")
        if isinstance(timeout_ms, int | float) and not isinstance(timeout_ms, bool) and timeout_ms > 0:
            action["timeout"] = min(float(timeout_ms) / 1000.0, 3600.0)  # Claude Code gives milliseconds
        if isinstance(ti.get("description"), str) and ti["description"]:
            action["note"] = ti["description"][:_NOTE_MAX]
        return action
    if tool_name == "Read":
        return {"type": "file_read", "path": _abs(_text(ti.get("file_path"), "file_path"), cwd)}
    if tool_name == "Write":
        content = ti.get("content", "")
        if not isinstance(content, str):
            raise HookInputError("tool_input.content must be a string")
        return {"type": "file_write", "path": _abs(_text(ti.get("file_path"), "file_path"), cwd),
                "content": content}
    if tool_name in ("Edit", "MultiEdit"):
        if tool_name == "Edit":
            edits = [ti]
        else:
            edits = ti.get("edits")
            if not isinstance(edits, list) or not all(isinstance(e, dict) for e in edits):
                raise HookInputError("tool_input.edits must be a list of objects")
        for e in edits:
            for field in ("old_string", "new_string"):
                if not isinstance(e.get(field, ""), str):
                    raise HookInputError(f"tool_input.{field} must be a string")
        path = _abs(_text(ti.get("file_path"), "file_path"), cwd)
        after = _edited(path, edits)
        content = after if after is not None else "\n".join(e.get("new_string", "") for e in edits)
        return {"type": "file_write", "path": path, "content": content}
    if tool_name == "NotebookEdit":
        source = ti.get("new_source", "")
        if not isinstance(source, str):
            raise HookInputError("tool_input.new_source must be a string")
        return {"type": "file_write", "path": _abs(_text(ti.get("notebook_path"), "notebook_path"), cwd),
                "content": source}
    if tool_name == "WebFetch":
        return {"type": "navigate", "url": _text(ti.get("url"), "url")}
    if tool_name in ("Glob", "Grep", "LS"):
        return _search_action(tool_name, ti, cwd)
    # WebSearch, Task, TodoWrite, mcp__<server>__<tool> and tools this hook does not know yet.
    return {"type": "tool", "name": tool_name[:256], "input": ti}


# -- output ------------------------------------------------------------------------------------------


def answer(decision: str, reason: str) -> dict[str, Any]:
    """The hook's stdout object for Claude Code (decision: allow | deny | ask)."""
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision,
                                   "permissionDecisionReason": reason}}


def _explain(reply: Mapping[str, Any]) -> str:
    reason = str(reply.get("reason") or "no reason given")
    rules = [str(r) for r in reply.get("rules") or []]
    return f"deskgate: {reason}" + (f" (rules: {', '.join(rules)})" if rules else "")


NO_OPINION = ""  # the hook's decision when deskgate's rules have nothing to say: Claude Code decides


def _explicit_allow(reply: Mapping[str, Any]) -> bool:
    return any(str(r).startswith("allow.policy.") for r in reply.get("rules") or [])


def _from_act(reply: Mapping[str, Any]) -> tuple[str, str]:
    """(permissionDecision or NO_OPINION, reason) for an `act` reply with execute=false."""
    verdict, decision, by = reply.get("verdict"), reply.get("decision"), reply.get("decided_by")
    if verdict == Verdict.DENIED:
        return "deny", _explain(reply)
    if verdict == Verdict.DEFERRED and decision == "confirm":
        return "ask", _explain(reply) + " — deskgate asks for a person's confirmation"
    if verdict == Verdict.ALLOWED:
        if decision == "confirm":  # a person, an approver rule or a standing grant said yes
            return "allow", _explain(reply) + (f" (approved by {by})" if by else "")
        if decision == "allow":
            if _explicit_allow(reply):
                return "allow", _explain(reply)
            return NO_OPINION, _explain(reply)
    return "deny", f"deskgate did not approve (verdict {verdict!r}, decision {decision!r}): {_explain(reply)}"


def _from_error(err: BaseException, socket_path: Path | None, timeout: float) -> str:
    from app.agent.client import Killed, Paused, SupervisorUnavailable, Timeout, UntrustedServer

    where = f" at {socket_path}" if socket_path else ""
    if isinstance(err, Timeout):
        return (f"deskgate{where} did not answer within {timeout:g} s, so the call is denied; check that "
                f"`deskgate run`/`serve` is responsive, or raise the hook's --timeout")
    if isinstance(err, UntrustedServer):
        return (f"what listens{where} is not your deskgate ({err.message}), so nothing was sent and the call "
                "is denied; see `deskgate doctor`")
    if isinstance(err, SupervisorUnavailable):
        return f"deskgate is not running{where}, so every tool call is denied: {_START_HINT}"
    if isinstance(err, Killed):
        return f"deskgate kill switch is on ({err.message}); a person can clear it with `deskgate resume`"
    if isinstance(err, Paused):
        return f"deskgate is paused ({err.message}); a person can continue with `deskgate unpause`"
    if isinstance(err, DeskgateError):
        return f"deskgate refused the request ({err.code}): {err.message}"
    return f"deskgate hook failed ({type(err).__name__}: {err}); denied"


# -- talking to the supervisor ------------------------------------------------------------------------


def _session_tag(session_id: Any) -> str:
    return re.sub(r"[^\w.-]", "", session_id)[:64] if isinstance(session_id, str) else ""


def _agent_name(base: str, session_id: Any) -> str:
    # One short-lived session per tool call. Claude Code may run hooks in parallel, and deskgate allows
    # one live session per agent name, so each call gets its own name: base:<claude session>:<pid>.
    sid = _session_tag(session_id)[:12]
    return f"{base}:{sid or 'nosession'}:{os.getpid()}"[:128]


def _scope(base: str, session_id: Any) -> str | None:
    # The Claude Code session: what "approve for 5 min / session" means to the person answering.
    sid = _session_tag(session_id)
    return f"{base}:{sid}"[:200] if sid else None


def _project(cwd: Any) -> str | None:
    # Claude Code's session cwd is the project it works on; deskgate checks it (never home, / or a system dir)
    return posixpath.normpath(cwd) if isinstance(cwd, str) and cwd.startswith("/") and len(cwd) <= 4096 else None


def ask_supervisor(action: dict[str, Any], *, socket_path: Path | None, timeout: float, mode: str = "defer",
                   agent: str, scope: str | None = None, project: str | None = None) -> tuple[str, str]:
    """(permissionDecision or NO_OPINION, reason) for one action. Never raises: every failure is a deny."""
    from app.agent.client import Client

    if socket_path is None:
        from app.config import default_socket

        socket_path = default_socket()
    result: list[tuple[str, str]] = []

    def work() -> None:
        try:
            with Client(socket_path, timeout=timeout, connect_timeout=timeout) as dg:
                # the session's cwd is its project: a work area unless it is home, / or a system dir
                dg.hello(agent, scope=scope, project=project)
                # execute=false: Claude Code runs the tool; the decision is logged like any other
                result.append(_from_act(dg.act(action, execute=False, defer=mode != "strict")))
        except Exception as err:  # every failure answers deny, with what to do about it
            result.append(("deny", _from_error(err, socket_path, timeout)))

    # The client's own timeouts cover each reply; the thread bounds the whole exchange (connect, hello,
    # act) so Claude Code never waits on a hung supervisor longer than `timeout`.
    thread = threading.Thread(target=work, name="deskgate-hook", daemon=True)
    thread.start()
    thread.join(timeout)
    if not result:
        return "deny", (f"deskgate at {socket_path} did not answer within "
                        f"{timeout:g} s, so the call is denied; check that `deskgate run`/`serve` is "
                        "responsive, or raise the hook's --timeout")
    return result[0]


def run_hook(stdin: TextIO, stdout: TextIO, stderr: TextIO, *, socket_path: Path | None = None,
             timeout: float | None = None, mode: str = "defer", agent: str = DEFAULT_AGENT) -> int:
    """The whole hook: read the event, decide, answer. Returns the exit status (0, or 2 on bad input).
    With no opinion, nothing is written to stdout (Claude Code's own permission settings decide)."""
    if mode not in MODES:
        stderr.write(f"deskgate hook: unknown mode {mode!r} (one of {', '.join(MODES)}); the tool call is refused\n")
        return 2
    if timeout is None:
        timeout = ASK_HERE_TIMEOUT_S if mode == "strict" else DEFAULT_TIMEOUT_S
    try:
        event = parse_hook_input(stdin.read())
    except HookInputError as err:
        stderr.write(f"deskgate hook: {err}; the tool call is refused\n")
        return 2
    tool = event["tool_name"]
    try:
        # The wire schema is checked by the supervisor (a `bad_request` reply names the field): the hook
        # imports no gate, so it starts like a small program before every tool call.
        action = to_action(tool, event.get("tool_input") or {}, event.get("cwd"))
    except HookInputError as err:
        decision, reason = "deny", f"deskgate cannot assess this {tool} call ({err}); denied"
    else:
        decision, reason = ask_supervisor(action, socket_path=socket_path, timeout=timeout, mode=mode,
                                          agent=_agent_name(agent, event.get("session_id")),
                                          scope=_scope(agent, event.get("session_id")),
                                          project=_project(event.get("cwd")))
    if decision == NO_OPINION:
        return 0
    stdout.write(json.dumps(answer(decision, reason), ensure_ascii=False) + "\n")
    stdout.flush()
    return 0
