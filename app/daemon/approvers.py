"""Approvers that need no GUI: deny-all (the headless default), a rule file, and a terminal prompt.

Every approver here fails closed and never raises from `ask`: anything unexpected is a DENY.
The Qt dialog approver lives in ui/.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
import logging
import os
import select
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

from app.ports import Answer, ApprovalRequest, Reply
from gate.describe import describe_action
from gate.model import ACTION_TYPES, Assessment, Observation
from gate.normalise import normalise
from gate.policy import glob_match
from gate.shell import ShellAnalysis, analyse

__all__ = ["DenyAllApprover", "RuleFileApprover", "TerminalApprover", "describe_request"]

log = logging.getLogger(__name__)

NO_APPROVER = "no approver: start `deskgate run` or use --ask-in-terminal / --approver-rules"


class DenyAllApprover:
    """The headless default: every confirmation is denied at once (`mode=ask` never hangs)."""

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        return Reply(Answer.DENY, by="headless-rule", note=NO_APPROVER)

    def cancel_all(self, reason: str) -> None:
        pass  # nothing ever waits here


# -- rule file ----------------------------------------------------------------------------------

_RULE_FIELDS = {"id", "decision", "types", "rules", "command", "label", "app", "window"}


@dataclasses.dataclass(frozen=True)
class ApproverRule:
    """Every field given must match; `rules`: every rule that fired must match one of these globs."""

    id: str
    approve: bool
    types: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    command: str | None = None
    label: str | None = None
    app: str | None = None
    window: str | None = None

    def matches(self, action: dict[str, Any], assessment: Assessment, observation: Observation) -> bool:
        if self.types and action.get("type") not in self.types:
            return False
        if self.rules and not all(any(fnmatch.fnmatchcase(r, g) for g in self.rules) for r in assessment.rules):
            return False
        if self.command is not None:
            facts = _shell_facts(action)
            # the policy's allow-rule matcher: never a complex string, globbed over the normalised text
            if facts is None or facts.complex or not glob_match(normalise(self.command), facts.text):
                return False
        if self.label is not None:
            label = (action.get("target") or {}).get("label")
            if not isinstance(label, str) or not fnmatch.fnmatchcase(label, self.label):
                return False
        if self.app is not None and not fnmatch.fnmatchcase(observation.app, self.app):
            return False
        return self.window is None or fnmatch.fnmatchcase(observation.window_title, self.window)


def _shell_facts(action: dict[str, Any]) -> ShellAnalysis | None:
    """The gate's analysis of a shell action's command, as for policy allow rules (gate/allow.py)."""
    if action.get("type") != "shell":
        return None
    command = action.get("command")
    argv = action.get("argv")
    cwd = action.get("cwd") if isinstance(action.get("cwd"), str) else None
    if isinstance(command, str):
        return analyse(command, cwd)
    if isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv):
        return analyse(argv, cwd)
    return None  # redacted or odd: never matches, so it is denied


class RuleFileApprover:
    """Unattended runs: a TOML file of rules, first match wins, default deny.

        [[rule]]
        id = "save-files"
        decision = "approve"          # approve | deny
        types = ["key"]               # action types (optional)
        rules = ["confirm.gui.*"]     # every rule that fired must match one of these (optional)
        command = "git status*"       # glob over a simple shell command, as policy allow rules (optional;
                                      # never matches chains, pipes, substitutions or redirects)
        label = "Save*"               # glob over target.label (optional)
        app = "gedit"                 # glob over the active app, as deskgate read it (optional)
        window = "*.txt*"             # glob over the active window title (optional)

    A plan is approved only when every step is approved by some rule.
    """

    def __init__(self, rules: list[ApproverRule], source: str = "") -> None:
        self.rules = rules
        self.source = source

    @classmethod
    def from_file(cls, path: str | Path) -> RuleFileApprover:
        p = Path(path).expanduser()
        try:
            doc = tomllib.loads(p.read_text(encoding="utf-8"))
        except OSError as err:
            raise ValueError(f"{p}: cannot read approver rules: {err.strerror}") from None
        except tomllib.TOMLDecodeError as err:
            raise ValueError(f"{p}: not valid TOML: {err}") from None
        return cls(parse_rules(doc, str(p)), str(p))

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        try:
            steps = request.plan or ((request.action, request.assessment),)
            names = []
            for action, assessment in steps:
                rule = next((r for r in self.rules if r.matches(action, assessment, request.observation)), None)
                if rule is None:
                    return Reply(Answer.DENY, by="headless-rule",
                                 note=f"no approver rule matched {action.get('type')!r} (default deny)")
                if not rule.approve:
                    return Reply(Answer.DENY, by="headless-rule", note=f"denied by approver rule {rule.id!r}")
                names.append(rule.id)
            return Reply(Answer.APPROVE_ONCE, by="headless-rule",
                         note=f"approved by approver rule {', '.join(dict.fromkeys(names))!r}")
        except Exception as err:  # fail closed: a bug here must deny, never approve or raise
            log.exception("approver rule evaluation failed")
            return Reply(Answer.DENY, by="headless-rule", note=f"approver rules failed: {err}")

    def cancel_all(self, reason: str) -> None:
        pass  # answers are instant


def parse_rules(doc: dict[str, Any], source: str = "") -> list[ApproverRule]:
    where = f"{source}: " if source else ""
    unknown = set(doc) - {"rule", "default"}
    if unknown:
        raise ValueError(f"{where}unknown key(s) {', '.join(sorted(unknown))} (expected [[rule]] tables)")
    if doc.get("default", "deny") != "deny":
        raise ValueError(f"{where}`default` can only be \"deny\": unmatched requests are always denied")
    raw = doc.get("rule", [])
    if not isinstance(raw, list):
        raise ValueError(f"{where}`rule` must be an array of tables ([[rule]])")
    out = []
    for i, item in enumerate(raw):
        at = f"{where}rule[{i}]"
        if not isinstance(item, dict):
            raise ValueError(f"{at}: must be a table")
        extra = set(item) - _RULE_FIELDS
        if extra:
            raise ValueError(f"{at}: unknown key(s) {', '.join(sorted(extra))}")
        decision = item.get("decision")
        if decision not in ("approve", "deny"):
            raise ValueError(f"{at}: `decision` must be \"approve\" or \"deny\"")
        types = item.get("types", [])
        rules = item.get("rules", [])
        if not isinstance(types, list) or not all(isinstance(t, str) and t in ACTION_TYPES for t in types):
            raise ValueError(f"{at}: `types` must be a list of action types ({', '.join(sorted(ACTION_TYPES))})")
        if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
            raise ValueError(f"{at}: `rules` must be a list of rule id globs")
        globs = {}
        for key in ("command", "label", "app", "window"):
            value = item.get(key)
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{at}: `{key}` must be a string glob")
            globs[key] = value
        if not types and not rules and not any(v is not None for v in globs.values()):
            # a rule that matches everything would be a blanket approval hidden in a file
            raise ValueError(f"{at}: give at least one of types, rules, command, label, app, window")
        out.append(ApproverRule(id=str(item.get("id", f"rule-{i}")), approve=decision == "approve",
                                types=tuple(types), rules=tuple(rules), **globs))
    return out


# -- terminal prompt ----------------------------------------------------------------------------


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_request(request: ApprovalRequest) -> str:
    """A person-readable account of a request (plain text, for a terminal)."""
    a = request.assessment
    obs = request.observation
    lines = [
        "",
        f"deskgate: agent {request.agent!r} (session {request.session_id}) asks to:",
    ]
    if request.plan:
        lines.append(f"  run a plan of {len(request.plan)} steps:")
        for i, (step, sa) in enumerate(request.plan, 1):
            lines.append(f"   {i:>2}. {describe_action(step, sa.redact, style='line', limit=200)}   "
                         f"[{sa.decision.value}: {_short(sa.reason, 80)}]")
    else:
        lines.append(f"  {describe_action(request.action, a.redact, style='line', limit=400)}")
        if request.action.get("cwd"):
            lines.append(f"  in: {_short(request.action['cwd'], 120)}")
    if request.intent:
        lines.append(f"  intent: {_short(request.intent)}")
    lines.append(f"  why asked: {a.reason}  (risk {a.risk.label}; rules: {', '.join(a.rules) or '-'})")
    lines.append(f"  active window: {_short(obs.window_title, 80)!r}  app: {obs.app!r}")
    if request.queued:
        lines.append(f"  ({request.queued} more waiting)")
    return "\n".join(lines) + "\n"


class TerminalApprover:
    """`--ask-in-terminal`: prompt on the controlling terminal, read y / N / s(ession) with a timeout.

    Input typed before the prompt appeared is discarded (it cannot approve). No terminal → deny.
    """

    PROMPT = "  approve? [y]es once / [s]ession / [N]o / [x] deny and stop agent ({secs:.0f} s): "

    def __init__(self, tty_path: str = "/dev/tty") -> None:
        self.tty_path = tty_path
        self._lock = threading.Lock()  # one prompt at a time on one terminal
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._generation = 0

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        try:
            return self._ask(request, timeout)
        except Exception as err:  # fail closed
            log.exception("terminal prompt failed")
            return Reply(Answer.DENY, by="person", note=f"terminal prompt failed: {err}")

    def _ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        with self._lock:
            generation = self._generation
            try:
                fd = os.open(self.tty_path, os.O_RDWR | os.O_NOCTTY)
            except OSError as err:
                return Reply(Answer.DENY, by="headless-rule", note=f"no terminal to ask on ({err.strerror}); denied")
            try:
                os.write(fd, describe_request(request).encode("utf-8", "replace"))
                os.write(fd, self.PROMPT.format(secs=timeout).encode())
                with contextlib.suppress(OSError):
                    import termios

                    termios.tcflush(fd, termios.TCIFLUSH)  # keystrokes from before the prompt cannot approve
                answer = self._read_line(fd, timeout, generation)
                if answer is None:
                    os.write(fd, b"\n  -> cancelled: denied\n")
                    return Reply(Answer.DENY, by="kill-switch", note="cancelled")
                if answer is False:
                    os.write(fd, b"\n  -> no answer in time: denied\n")
                    return Reply(Answer.TIMEOUT, by="person", note=f"no answer within {timeout:.0f} s")
                choice = answer.strip().lower()
                reply = {
                    "y": Reply(Answer.APPROVE_ONCE), "yes": Reply(Answer.APPROVE_ONCE),
                    "s": Reply(Answer.APPROVE_SESSION), "session": Reply(Answer.APPROVE_SESSION),
                    "x": Reply(Answer.DENY_AND_STOP, note="deny and stop agent"),
                }.get(choice, Reply(Answer.DENY, note="denied in the terminal"))
                os.write(fd, f"  -> {reply.answer.value}\n".encode())
                return reply
            finally:
                os.close(fd)

    def _read_line(self, fd: int, timeout: float, generation: int) -> str | bool | None:
        """The line typed, False on timeout, None when cancelled."""
        deadline = time.monotonic() + timeout
        buf = b""
        while True:
            if self._generation != generation:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            ready, _, _ = select.select([fd, self._wake_r], [], [], remaining)
            if self._wake_r in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(self._wake_r, 64)
                continue  # re-check the generation
            if fd in ready:
                chunk = os.read(fd, 1024)
                if not chunk:
                    return ""  # terminal closed: an empty answer, i.e. deny
                buf += chunk
                if b"\n" in buf or b"\r" in buf:
                    return buf.splitlines()[0].decode("utf-8", "replace")

    def cancel_all(self, reason: str) -> None:
        self._generation += 1
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
