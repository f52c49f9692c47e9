"""Assessing a big request in a worker process, so no assessment can hold up control traffic.

The gate and the redaction are pure Python and `re`; a single regex match over a long string runs in C
while holding the GIL, so on the server's own threads it would stall every other connection, `deskgate
kill` and `status` included, for as long as it takes. Small actions (nearly all) are assessed inline:
their cost is microseconds. An action (or plan) whose encoded size reaches `inline_bytes` is assessed in
one worker process instead, one at a time, bounded by `timeout_s`; past it the worker is killed (and
started again for the next one) and the request is refused with `timeout` (fail closed). Meanwhile the
server's threads are free: the thread waiting for the worker releases the GIL.

The worker sees the session's history as a read-only snapshot (`_HistoryView`: the count for this
action's state and the person's recent rejections); the real history is updated here, as the inline
gate would have done.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import queue
import threading
from collections.abc import Sequence
from typing import Any

import msgspec

from app.errors import DeskgateError
from gate.history import History, SessionMemory, SteeringNote, state_hash
from gate.model import Action, Assessment, Decision, Observation, action_to_dict
from gate.redact import approval_key, sanitize_action
from gate.rules.base import judged_action

__all__ = ["Assessor", "Decided", "ReadOnlyHistory"]

log = logging.getLogger("deskgate.assessor")

INLINE_BYTES = 8 * 1024  # an action this big or bigger is assessed in the worker process
INLINE_AT_ONCE = 2        # inline assessments running at the same time (the others wait, off the GIL)
_encoder = msgspec.json.Encoder()


class _HistoryView:
    """What the gate reads of a History, frozen at the time of the request (picklable, records nothing)."""

    def __init__(self, seen: dict[str, int], recent_rejections: int, steps: int,
                 memory: SessionMemory | None = None) -> None:
        self._seen = seen
        self.recent_rejections = recent_rejections
        self.steps = steps
        self._memory = memory or SessionMemory()

    def seen(self, key: str) -> int:
        return self._seen.get(key, 0)

    def steering_notes(self) -> tuple[SteeringNote, ...]:
        return self._memory.notes

    def secret_site(self, text: str) -> str | None:
        return self._memory.secret_site(text)

    def own_pid_holders(self) -> tuple[str, ...]:
        return self._memory.holders

    @property
    def has_memory(self) -> bool:
        return bool(self._memory.notes) or bool(self._memory.secrets)

    def record(self, key: str, assessment: Assessment) -> None:
        pass

    def record_answer(self, approved: bool) -> None:
        pass

    def note_steering(self, cues: tuple[str, ...], text: str, site: str = "") -> None:
        pass

    def note_secret(self, text: str, site: str) -> None:
        pass

    def note_own_pid_holder(self, name: str) -> None:
        pass


Decided = tuple[Assessment, str, dict[str, Any]]  # assessment, approval key, what a person is shown


def keyed(action_dict: dict[str, Any], observation: Observation) -> str:
    """The approval key of an action in its context: what it means depends on the line its window holds
    (a Return runs that line, with the variables earlier lines set) and on the content of the files it runs, so
    both enter the key, and a grant for one Return or one `bash x.sh` never covers another line or a rewritten
    x.sh."""
    line, scripts = observation.line, observation.scripts
    if (line is None or action_dict.get("type") not in ("type", "key")) and not scripts:
        return approval_key(action_dict)
    context: dict[str, Any] = {}
    if line is not None and action_dict.get("type") in ("type", "key"):
        context["line"] = [line.raw, line.text, line.known]
        if line.env:  # (`cat $K` means another file once an earlier line set K to another path)
            context["env"] = [list(pair) for pair in line.env]
    if scripts:
        context["scripts"] = [[s.path, hashlib.sha256(s.content.encode("utf-8", "surrogatepass")).hexdigest()]
                              for s in scripts]
    return approval_key({**action_dict, "in_context": context})


def decide_one(gate: Any, action: Action, observation: Observation, history: Any) -> Decided:
    """The pure half of an `act`: the gate's assessment, the approval key, the sanitised action."""
    assessment = gate.assess(action, observation, history)
    action_dict = action_to_dict(action)
    key = keyed(action_dict, observation)  # secrets enter it only as digests
    # only a confirmation shows the action to a person: the allow path does not pay for sanitising
    shown = sanitize_action(action_dict, assessment.redact) if assessment.decision is Decision.CONFIRM else {}
    return assessment, key, shown


def decide_plan(gate: Any, actions: Sequence[Action], observation: Observation, history: Any) -> tuple:
    """The pure half of a `plan`: its assessment, each step's approval key and sanitised form."""
    pa = gate.assess_plan(list(actions), observation, history)
    keys = [keyed(action_to_dict(a), observation) for a in actions]
    shown = [sanitize_action(action_to_dict(a), s.redact) for a, s in zip(actions, pa.steps, strict=True)]
    return pa, keys, shown


def _worker(conn: Any) -> None:
    """The worker process: (policy or None, kind, args) in, ("ok", result) or ("error", text) out."""
    from gate import SafetyGate

    gate = None
    while True:
        try:
            policy, kind, args = conn.recv()
        except EOFError:
            return
        try:
            if policy is not None:
                gate = SafetyGate(policy)
            if gate is None:
                raise RuntimeError("no policy")
            if kind == "one":
                result: Any = decide_one(gate, *args)
            elif kind == "plan":
                result = decide_plan(gate, *args)
            else:
                result = gate.assess(*args)
            conn.send(("ok", result))
        except Exception as err:  # the parent turns it into a refusal
            conn.send(("error", f"{type(err).__name__}: {err}"))


class _Slots:
    """At most `n` holders at once (`with slots:`). A queue of `n` tokens: taking a free one and giving it
    back are one C call each, where a threading.Semaphore runs Python code under a Condition for both (on
    every request); a thread that finds none free waits for one off the GIL, as with a semaphore."""

    __slots__ = ("_free",)

    def __init__(self, n: int) -> None:
        self._free: queue.SimpleQueue[None] = queue.SimpleQueue()
        for _ in range(n):
            self._free.put(None)

    def __enter__(self) -> None:
        self._free.get()

    def __exit__(self, *exc: object) -> None:
        self._free.put(None)


class Assessor:
    """Runs the pure part of a request inline or in the worker process (see the module docstring)."""

    def __init__(self, *, inline_bytes: int = INLINE_BYTES) -> None:
        self.inline_bytes = inline_bytes
        self._lock = threading.Lock()  # one request in the worker at a time
        # Inline assessments at once: the rest wait off the GIL, so that however many agent connections
        # send work, the person's control thread competes with a few runnable threads, not with all.
        self._inline = _Slots(INLINE_AT_ONCE)
        self._proc: Any = None
        self._conn: Any = None
        self._sent_policy: Any = None

    @staticmethod
    def size(value: Any) -> int:
        return len(_encoder.encode(value))

    def decide_one(self, gate: Any, action: Action, observation: Observation, history: History | None,
                   timeout_s: float) -> Decided:
        if self.size(action) < self.inline_bytes:
            with self._inline:
                return decide_one(gate, action, observation, history)
        view, keys = self._view(gate, [action], observation, history)
        result = self._run(gate, "one", (action, observation, view), timeout_s)
        self._record(history, keys, [result[0]])
        return result

    def decide_plan(self, gate: Any, actions: Sequence[Action], observation: Observation,
                    history: History | None, timeout_s: float) -> tuple:
        if self.size(list(actions)) < self.inline_bytes:
            with self._inline:
                return decide_plan(gate, actions, observation, history)
        view, keys = self._view(gate, list(actions), observation, history)
        pa, step_keys, shown = self._run(gate, "plan", (list(actions), observation, view), timeout_s)
        self._record(history, keys, list(pa.steps))
        return pa, step_keys, shown

    def assess(self, gate: Any, action: Action, observation: Observation, history: Any,
               timeout_s: float) -> Assessment:
        """gate.assess with a history that records nothing (a `check`)."""
        if self.size(action) < self.inline_bytes:
            with self._inline:
                return gate.assess(action, observation, history)
        view, _ = self._view(gate, [action], observation, history)
        return self._run(gate, "assess", (action, observation, view), timeout_s)

    @property
    def busy(self) -> bool:
        """A request is in the worker now."""
        return self._lock.locked()

    def close(self) -> None:
        """Stop the worker; a request in it now ends with an `internal` refusal instead of being waited for."""
        proc = self._proc
        if proc is not None:
            proc.kill()
        with self._lock:
            self._stop_worker()

    # -- plumbing --

    @staticmethod
    def _view(gate: Any, actions: list[Action], observation: Observation,
              history: Any) -> tuple[_HistoryView | None, list[str]]:
        if history is None:
            return None, []
        use_screen = gate.policy.loop.use_screen_hash
        # the keys the loop rule looks up: each action as judged (gate.engine.SafetyGate.assess records these)
        keys = [state_hash(judged_action(a, observation), observation, use_screen) for a in actions]
        seen = {k: history.seen(k) for k in keys}
        return _HistoryView(seen, history.recent_rejections, history.steps, history.snapshot()), keys

    @staticmethod
    def _record(history: History | None, keys: list[str], assessments: list[Assessment]) -> None:
        if history is None:
            return
        for key, assessment in zip(keys, assessments, strict=True):
            history.record(key, assessment)

    def _run(self, gate: Any, kind: str, args: tuple, timeout_s: float) -> Any:
        with self._lock:
            try:
                self._ensure_worker()
                policy = gate.policy if self._sent_policy is not gate.policy else None
                self._conn.send((policy, kind, args))
                self._sent_policy = gate.policy
                if not self._conn.poll(timeout_s):
                    self._stop_worker()
                    raise DeskgateError("timeout", f"assessing this request took longer than {timeout_s:g} s "
                                                   "(limit step_timeout_s); nothing was executed")
                status, value = self._conn.recv()
            except (OSError, EOFError) as err:
                self._stop_worker()
                raise DeskgateError("internal", f"the assessment worker failed ({err}); nothing was "
                                                "executed") from None
        if status != "ok":
            raise DeskgateError("internal", f"assessment failed ({value}); nothing was executed")
        return value

    def _ensure_worker(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            return
        self._stop_worker()
        # spawn, not fork: the server has threads (a forked child could inherit a held lock)
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child,), name="deskgate-assess", daemon=True)
        proc.start()
        child.close()
        self._proc, self._conn, self._sent_policy = proc, parent, None
        log.info("assessment worker started (pid %s)", proc.pid)

    def _stop_worker(self) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = self._sent_policy = None
        if conn is not None:
            conn.close()
        if proc is not None:
            proc.kill()
            proc.join(5)


class ReadOnlyHistory:
    """A session's History as the gate reads it, with recording turned off (for `check`)."""

    def __init__(self, history: History) -> None:
        self._history = history

    def seen(self, key: str) -> int:
        return self._history.seen(key)

    @property
    def recent_rejections(self) -> int:
        return self._history.recent_rejections

    @property
    def steps(self) -> int:
        return self._history.steps

    def steering_notes(self) -> tuple[SteeringNote, ...]:
        return self._history.steering_notes()

    def secret_site(self, text: str) -> str | None:
        return self._history.secret_site(text)

    def own_pid_holders(self) -> tuple[str, ...]:
        return self._history.own_pid_holders()

    @property
    def has_memory(self) -> bool:
        return self._history.has_memory

    def snapshot(self) -> SessionMemory:
        return self._history.snapshot()

    def record(self, key: str, assessment: Assessment) -> None:
        pass

    def record_answer(self, approved: bool) -> None:
        pass

    def note_steering(self, cues: tuple[str, ...], text: str, site: str = "") -> None:
        pass

    def note_secret(self, text: str, site: str) -> None:
        pass

    def note_own_pid_holder(self, name: str) -> None:
        pass
