"""Writing the audit log: every decision, answer and outcome, durable before anything runs, in one
SQLite file.

    log = AuditLog(paths.db)                       # 0600 file, WAL, synchronous=FULL, migrated
    sid = log.open_session("my-agent", pid=1, uid=1000, expect=None)
    did = log.record_decision(session_id=sid, ..., execute=True)   # committed (fsync'd) when it returns
    log.record_outcome(did, verdict="executed", decided_by="policy", reason="...", elapsed_ms=3.1)
    log.reader.query(decision="block", limit=50)   # reading: an AuditReader (app/audit/reader.py)

Writes go through one writer thread that owns the write connection and commits in groups: it takes
everything queued, appends each row to the hash chain, commits once (one fsync), then wakes every
caller whose row that transaction held. A caller returns only once its row is durable; a failed commit
raises AuditError in every caller of that transaction, and the caller (the supervisor) does not act.
The writer does not read for people: `log.reader` is an AuditReader on the same file, with its own
connection, so the viewer never waits for the writer.

What is stored is sanitised (gate.redact): secrets reach the file only as a keyed fingerprint
(HMAC-SHA-256 under a per-install key kept 0600 in the state dir) + length; command output and file
contents stay out unless the policy's `[audit] store_outputs` asks for them.

The log cannot vanish unnoticed: before each group commit the writer checks that the database (and its
WAL, and the chain head file) are still the files it opened (device + inode), and that the database
and the WAL are no smaller than after its last commit (nothing of deskgate's shrinks either file while
it runs: no vacuum, no WAL size limit; truncating or emptying one loses history); if one was deleted,
replaced, emptied or shrunk it stops for good (every caller gets AuditError, so nothing runs) and
raises an alarm. After
each commit, before the commit's callers are released, it records the chain's head (last position + hash)
outside the database (app/audit/anchor.py: in the page cache at once, fsync'd at least every
_HEAD_SYNC_S; `flush` returns only once it is written), and `verify` compares the database with it, so a
cut tail is caught.

What a commit costs is one fsync of the WAL: the WAL is copied into the database file by the writer
between two commits, after the last batch's callers are released (never inside a commit), and the rows
of a batch go in one INSERT per table. The checkpoint is the writer's own, not a concurrent thread's, so
that it is complete when the next batch begins: SQLite then rewrites the WAL from its start, which costs
an fsync of blocks already allocated; a WAL that only grows (a concurrent checkpoint never catches up
with a writer that never pauses) costs an fsync that also commits the file system's block allocation.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import hashlib
import hmac
import itertools
import json
import logging
import math
import os
import queue
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from app.audit import schema as sql
from app.audit.anchor import ChainHead, ChainHeadFile, default_state_dir, head_path, install_key
from app.audit.reader import AuditReader, iso
from app.audit.schema import VERDICTS, AuditError, check_schema, connect, create_private, hash_at, migrate
from gate.describe import describe_action, describe_read
from gate.redact import (
    canonical_json,
    find_secrets,
    redact_name,
    redact_text,
    sanitize_action,
    sanitize_data,
    secret_field,
    typed_piece_hidden,
)

__all__ = ["AuditError", "AuditLog"]

log = logging.getLogger("deskgate.audit")

_RESERVED_KINDS = frozenset({"retention", "preview_retention"})  # written by the log itself only
_MAX_BATCH = 1024
_MAINTAIN_EVERY_S = 3600.0
_HIDDEN_MAX = 4096  # decisions whose redacted values are remembered to scrub their later events
_LINGER_S = 0.001  # longest the writer waits for rows other callers are about to queue
_ACTIVE_BATCHES = 3  # a caller who waited in one of the last this many batches counts as active
_HEAD_SYNC_S = 1.0  # longest the chain head stays in the page cache only (app/audit/anchor.py)
_CHECKPOINT_EVERY = 64  # commits between two WAL checkpoints (by the writer, between commits)
_ROWS_PER_INSERT = 64  # rows per INSERT statement (one statement step per group of rows)


# -- rows for people ---------------------------------------------------------------------------------

# The summary column: one line a person can scan in a list, from the sanitised action (secrets are already
# fingerprints there, so no second search for them).
SUMMARY_LIMIT = 240
READ_LIMIT = 640  # the summary with what deskgate read for the action (app/audit: `_with_read`)


@functools.lru_cache(maxsize=1024)
def _rules_json(rules: tuple[str, ...]) -> str:
    # few distinct rule lists occur (most decisions match none): encoded once each
    return json.dumps(list(rules), separators=(",", ":"))


@functools.lru_cache(maxsize=1024)
def _redacted_name(text: str, key: bytes) -> str:
    """An agent's name as stored (the same for every row of its session)."""
    return redact_name(text, key=key)


@functools.lru_cache(maxsize=1024)
def _redacted_text(text: str, key: bytes) -> str:
    """A window title or address as stored (most rows repeat the last one's)."""
    return redact_text(text, key=key)


_SCALARS = frozenset({bool, int, type(None)})  # not float: -0.0 and 0.0 are one cache key


@functools.lru_cache(maxsize=4096)
def _scalar_field(name: str, kind: type, value: Any, key: bytes) -> tuple[str, Any]:
    """One key of event data whose value is an int, a bool or null, as sanitize_data leaves it (it
    treats each key on its own: the name may be a secret, a secret-sounding name hides its value). `kind`
    keeps True and 1 apart."""
    ((clean_name, clean_value),) = sanitize_data({name: value}, key=key).items()
    return clean_name, clean_value


@functools.lru_cache(maxsize=512)
def _outcome_fields(decided_by: str, reason: str, key: bytes) -> dict[str, Any]:
    """An outcome's words as sanitize_data leaves them (read only: callers copy it)."""
    return sanitize_data({"decided_by": decided_by, "reason": reason}, key=key)


def _hide_values(text: str, secrets: list[str] | tuple[str, ...], key: bytes | None) -> str:
    for secret in secrets:
        if secret and len(secret) >= 3:
            text = text.replace(secret, "«redacted»")
    return redact_text(text, key=key)


def _typed_piece(action: Mapping[str, Any], observation: Any) -> frozenset[str]:
    """{"text"} when typed text may be a piece of a secret (gate.redact.typed_piece_hidden): read after what the
    window's line already holds (a key typed in two actions), the start of a key with an issuer's prefix whose
    rest may come next, one or two characters (or the rest of a word begun earlier) typed onto a line before it
    ends, or anything typed into a password or other secret field (as deskgate read the focused field, or as the
    action names it). Each piece is stored as a digest, so no row holds part of the key in the clear, and the
    row of the line end shows the line whole (or hidden, when it is a secret)."""
    text = action.get("type") == "type" and action.get("text")
    if not isinstance(text, str) or not text:
        return frozenset()
    line = getattr(observation, "line", None)
    before = str(getattr(line, "raw", "") or "") if line is not None else ""
    target = action.get("target")
    claimed = (str(target.get("role", "") or ""), str(target.get("label", "") or ""),
               str(target.get("name", "") or "")) if isinstance(target, Mapping) else ()
    secret = secret_field(str(getattr(observation, "pointer_role", "") or ""), *claimed)
    if typed_piece_hidden(before, text, on_line=line is not None, secret=secret):
        return frozenset({"text"})
    return frozenset()


def _line_secrets(action: Mapping[str, Any], observation: Any) -> list[str]:
    """The secrets a followed line holds once this typing or key is read after it, each with its starts of six
    characters or more: a reason may quote the line cut short (`line so far 'Hq8vT2mZ…'`), and that start is as
    much a piece of the key as the typed pieces are."""
    line = getattr(observation, "line", None)
    kind = action.get("type")
    if line is None or kind not in ("type", "key"):
        return []
    text = action.get("text") if kind == "type" else ""
    joined = str(getattr(line, "raw", "") or "") + (text if isinstance(text, str) else "")
    if len(joined) < 8:
        return []
    out: list[str] = []
    for start, end in find_secrets(joined):
        secret = joined[start:end]
        out += [secret[:n] for n in range(len(secret), 5, -1)]
    return out


def _hidden_values(action: Mapping[str, Any], redact: frozenset[str]) -> list[str]:
    """The plain values an action's redaction hides: they must not come back through reasons or output."""
    if not redact and action.get("type") not in ("file_write", "shell"):
        return []  # most actions (pointer, keys, reads): nothing redacted, no content, no environment
    hidden = [v for k, v in action.items() if k in redact and isinstance(v, str)]
    if action.get("type") == "file_write" and isinstance(action.get("content"), str):
        hidden.append(action["content"])
    env = action.get("env")
    if action.get("type") == "shell" and isinstance(env, Mapping):
        hidden += [v for v in env.values() if isinstance(v, str)]
    return sorted((h for h in hidden if len(h) >= 3), key=len, reverse=True)


def _replace_strings(value: Any, secrets: tuple[str, ...]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, "«redacted»")
        return value
    if isinstance(value, Mapping):
        return {k: _replace_strings(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_replace_strings(v, secrets) for v in value]
    return value


# -- the writer ----------------------------------------------------------------------------------------



def _with_read(summary: str, read: str, key: bytes) -> str:
    """The summary with what deskgate read appended (secrets in it keyed, as everywhere in the log)."""
    if not read:
        return summary
    return f"{summary} · {redact_text(read, key=key)}"[:READ_LIMIT]

class _NobodyWaits:
    """The `done` of a row queued without waiting: nothing to build, nobody to wake."""

    @staticmethod
    def release() -> None:
        return None


_NOBODY_WAITS = _NobodyWaits()


def _taken_lock() -> Any:
    # The hand-off to a waiting caller: a lock taken now, released by the writer once the row is
    # committed; the caller waits by acquiring it. Cheaper than an Event (no Condition, no waiter list).
    lock = threading.Lock()
    lock.acquire()
    return lock


class _Job:
    __slots__ = ("done", "encoded", "error", "kind", "outcome", "png", "result", "table", "thread", "values", "wait")

    def __init__(self, kind: str, table: str = "", values: tuple[Any, ...] = (), png: bytes | None = None,
                 wait: bool = True, outcome: tuple[str, str] | None = None, encoded: bytes | None = None):
        self.kind = kind          # "row" | "retention" | "previews" | "barrier"
        self.table = table
        self.values = values      # the hashed columns after ts, in schema.HASHED order
        self.encoded = encoded    # their JSON array (schema.encode_values), built by the caller, not the writer
        self.png = png
        self.outcome = outcome    # a decision's (verdict, data) outcome event, chained right after it
        self.result: Any = None
        self.error: AuditError | None = None
        self.wait = wait  # its caller waits for the commit (False: queued by record_*(durable=False))
        # released exactly once, by the writer, when the job is finished (committed or failed)
        self.done: Any = _taken_lock() if wait else _NOBODY_WAITS
        self.thread = threading.get_ident()  # distinct callers per batch: how many will likely come back


_STOP = object()
_WAKE = object()  # "the batch the writer waits for is complete" (or the first row came): see _submit


@dataclasses.dataclass
class _Head:
    seq: int            # last chain position written
    hash: bytes         # its hash
    ts: float           # its timestamp (the chain's clock never goes back)
    next_id: dict[str, int]
    data_version: int
    # rows chained but not yet inserted, per table: one multi-row INSERT each per batch
    pending: dict[str, list[tuple[Any, ...]]] = dataclasses.field(default_factory=dict)
    inserted: list[tuple[str, tuple[Any, ...]]] = dataclasses.field(default_factory=list)  # for on_commit

    def copy(self) -> _Head:
        """The head a batch builds on (the committed one stays as it is until the batch commits)."""
        return _Head(self.seq, self.hash, self.ts, dict(self.next_id), self.data_version)

    def flush(self, conn: sqlite3.Connection) -> None:
        # One statement for many rows rather than executemany: sqlite3 releases and retakes the GIL
        # around every statement step, and under load each retake waits behind the agents' threads.
        for table, rows in self.pending.items():
            for start in range(0, len(rows), _ROWS_PER_INSERT):
                chunk = rows[start:start + _ROWS_PER_INSERT]
                conn.execute(sql.insert_rows(table, len(chunk)), list(itertools.chain.from_iterable(chunk)))
            self.inserted.extend((table, r) for r in rows)
        self.pending = {}


_PLAIN = frozenset({str, int, type(None)})  # exact types always storable and hashable as they are
_OUTPUT_KEYS = frozenset({"stdout", "stderr", "content", "content_base64", "png", "png_base64", "image"})


def _without_outputs(data: Mapping[str, Any]) -> dict[str, Any]:
    """An execution result without what the action produced (command output, file contents, images):
    kept out of the log unless `[audit] store_outputs`; their sizes stay."""
    out = {}
    for key, value in data.items():
        if key in _OUTPUT_KEYS:
            out[f"{key}_len"] = len(value) if isinstance(value, str | bytes) else None
        else:
            out[key] = value
    return out


def _counted(method: Callable[..., Any]) -> Callable[..., Any]:
    """A public write: the caller counts as building a row until it is queued (see the writer's linger).
    `_submit` uncounts it when it queues the row; this uncounts a caller that never got that far.
    A row nobody waits for (durable=False) is not counted: the writer does not wait for it, and its
    caller (an agent recording what already ran) still counts among the active callers of the last
    commits, whom the writer waits for anyway."""

    @functools.wraps(method)
    def wrapper(self: AuditLog, *args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("durable", True):
            return method(self, *args, **kwargs)
        # one entry per building thread; a dict's setitem and pop are atomic, so no lock on every write
        building, me = self._building, threading.get_ident()
        building[me] = True
        try:
            return method(self, *args, **kwargs)
        finally:
            building.pop(me, None)

    return wrapper


class AuditLog:
    """The writing side (see the module doc). One per process; other processes may read, or prune.
    `reader`: an AuditReader on the same file, for whoever holds the writer and needs to read."""

    def __init__(self, path: Path | str, *, keep_days: int = 30, preview_keep_days: int = 7,
                 busy_timeout_s: float = 5.0, write_timeout_s: float = 30.0,
                 clock: Callable[[], float] = time.time, state_dir: Path | str | None = None,
                 store_outputs: bool = False) -> None:
        self.path = Path(path)
        self.store_outputs = store_outputs  # [audit] store_outputs: command output / file contents in events
        state = Path(state_dir) if state_dir else default_state_dir()
        self.head_file = ChainHeadFile(head_path(state, self.path))
        self._alarm_listeners: list[Callable[[str], None]] = []
        self._identity: dict[Path, tuple[int, int]] = {}
        self._sizes: dict[Path, int] = {}  # the database's and the WAL's size after the last commit
        self.verify_problem: str | None = None  # set when the chain failed verification at start
        try:
            self._key = install_key(state)
        except (OSError, ValueError) as err:
            raise AuditError(f"cannot read or create the audit log's key in {state}: {err}") from err
        self._hmac = hmac.new(self._key, digestmod="sha256")  # keyed once: each digest copies it
        self._clock = clock  # UTC epoch seconds; tests pass a controllable one
        self.keep_days = keep_days
        self.preview_keep_days = preview_keep_days
        self._busy_timeout_s = busy_timeout_s
        self._write_timeout_s = write_timeout_s
        # Every job waits in `_pending`, in the order its caller queued it. The writer sleeps on `_wakes`
        # and is woken once per batch, not once per row: by the first job when it is idle (`_idle`), and
        # while it lingers for the callers it expects, by the row that makes `_want` waiting rows
        # (`_waiting`: pending rows whose callers wait). A wake-up per row would cost a thread switch
        # (and a GIL hand-off) per row, with every agent's thread contending for the GIL meanwhile.
        self._wakes: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._pending: list[_Job] = []
        self._waiting = 0
        self._idle = False
        self._want = 0
        self._closing = False
        self._submit_lock = threading.Lock()
        self._broken: str | None = None
        self._head: _Head | None = None
        self.backup_path: Path | None = None
        self._hidden: OrderedDict[int, tuple[str, ...]] = OrderedDict()
        self._building: dict[int, bool] = {}  # threads between entering record_* and queueing their row
        # callers of the last commit not yet woken: each is woken by the one before it (see _submit)
        self._relay: collections.deque[_Job] = collections.deque()
        conn: sqlite3.Connection | None = None
        try:
            create_private(self.path)
            conn = connect(self.path, busy_timeout_s)
            check_schema(conn, self.path)  # before anything writes to a file that may not be ours
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise AuditError(f"cannot put the audit log {self.path} in WAL mode (got {mode})")
            conn.execute("PRAGMA synchronous = FULL")  # every commit is fsync'd before record_* returns
            # the writer checkpoints the WAL itself between two commits (_checkpoint), never inside a
            # COMMIT: a checkpoint there (copy + fsync of the database file) would stall a batch
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            self.backup_path = migrate(conn, self.path)
            conn.execute("BEGIN IMMEDIATE")  # proves the file is writable now, not at the first decision
            self._head = self._load_head(conn)
            self._check_head(conn, self._head)
            conn.execute("ROLLBACK")
            self.head_file.write(ChainHead(self._head.seq, self._head.hash))
            self._remember_files()
        except (OSError, sqlite3.Error, ValueError) as err:
            if conn is not None:
                conn.close()
            self.head_file.close()
            raise AuditError(f"cannot open the audit log {self.path} for writing: {err}") from err
        except AuditError:
            if conn is not None:
                conn.close()
            self.head_file.close()
            raise
        self._conn = conn
        # called on the writer thread with [(table, insert params)] after each commit; must not block
        # (app/audit/syslog.SyslogForwarder.submit only enqueues)
        self.on_commit: Callable[[list[tuple[str, tuple[Any, ...]]]], None] | None = None
        try:
            self.reader = AuditReader(self.path, busy_timeout_s=busy_timeout_s, state_dir=state)
        except AuditError:
            conn.close()
            self.head_file.close()
            raise
        self._commits = 0
        self.checkpoints = 0  # WAL checkpoints done (each: (busy, wal frames, frames checkpointed) below)
        self.last_checkpoint: tuple[int, int, int] | None = None
        self._checkpointed = threading.Event()  # set after each checkpoint (tests wait on it)
        self._writer = threading.Thread(target=self._run, name="deskgate-audit-writer", daemon=True)
        self._writer.start()
        try:
            if keep_days > 0:
                self.apply_retention(keep_days)
            if preview_keep_days > 0:
                self._submit(_Job("previews", values=(preview_keep_days,)))
        except AuditError:
            self.close()
            raise

    # -- public writes ---------------------------------------------------------------------------------

    @_counted
    def open_session(self, agent: str, *, pid: int | None, uid: int | None, expect: dict | None) -> int:
        expect_json = canonical_json(sanitize_data(expect, key=self._key)) if expect else None
        return self._row("sessions", (_redacted_name(str(agent), self._key), _int(pid), _int(uid), expect_json))

    @_counted
    def close_session(self, session_id: int, reason: str) -> None:
        self._row("events", ("session_end", int(session_id), None, None, _data({"reason": reason}, self._key)))

    @_counted
    def record_decision(self, *, session_id: int | None, agent: str, request_id: str, op: str,
                        action: Mapping[str, Any], assessment: Any, observation: Any, approval_key: str,
                        execute: bool, outcome: Mapping[str, Any] | None = None) -> int:
        """Sanitise and durably record one decision; returns its id (the reply's audit_id).

        `outcome` ({verdict, decided_by, reason, elapsed_ms}, as record_outcome takes them): a decision
        whose outcome is known before anything runs or anyone is asked (a block; a check-only act) is
        committed with its outcome event, in one commit."""
        try:
            redact = frozenset(getattr(assessment, "redact", ()) or ()) | _typed_piece(action, observation)
            clean = sanitize_action(action, redact, key=self._key)
            hidden = _hidden_values(action, redact)
            if observation is not None and getattr(observation, "line", None) is not None:
                hidden = sorted(hidden + _line_secrets(action, observation), key=len, reverse=True)
            risk = assessment.risk
            values = (
                _int(session_id), _redacted_name(str(agent), self._key), redact_name(str(request_id), key=self._key),
                str(op), str(clean.get("type", "")),
                canonical_json(clean),
                # the action, then what deskgate read for it (label, role, source, confidence, window, the line
                # a line end runs): a pointer or typing row names what it acted on
                _hide_values(_with_read(describe_action(clean, style="line", limit=SUMMARY_LIMIT, detect_secrets=False),
                                        describe_read(observation, clean, redact), self._key), hidden, self._key),
                str(getattr(assessment.decision, "value", assessment.decision)),
                _hide_values(str(assessment.reason), hidden, self._key),
                _rules_json(tuple(map(str, assessment.rules))),
                str(getattr(risk, "label", risk)),
                None if assessment.confidence is None else float(assessment.confidence),
                _redacted_text(str(getattr(observation, "window_title", "") or ""), self._key),
                str(getattr(observation, "app", "") or ""),
                _redacted_text(str(getattr(observation, "url", "") or ""), self._key),
                str(getattr(observation, "screen_hash", "") or ""),
                # keyed too: the approval key is a plain digest over the action, secrets' digests included
                self._keyed_digest(str(approval_key).encode()), int(bool(execute)),
            )
            then = None
            if outcome is not None:
                verdict = outcome["verdict"]
                if verdict not in VERDICTS:
                    raise AuditError(f"verdict {verdict!r} is not one of {sorted(VERDICTS)}")
                data = sanitize_data({"decided_by": str(outcome["decided_by"]), "reason": str(outcome["reason"]),
                                      "elapsed_ms": round(float(outcome["elapsed_ms"]), 3)}, key=self._key)
                then = (str(verdict), canonical_json(_replace_strings(data, tuple(hidden)) if hidden else data))
        except AuditError:
            raise
        except Exception as err:  # a value we cannot record is a failed record: nothing runs
            raise AuditError(f"cannot record decision: {err}") from err
        decision_id = self._row("decisions", values, outcome=then)
        if hidden:  # its execution output may echo them (`env`, `cat`): scrub that too
            with self._submit_lock:
                self._hidden[decision_id] = tuple(hidden)
                while len(self._hidden) > _HIDDEN_MAX:
                    self._hidden.popitem(last=False)
        return decision_id

    def _keyed_digest(self, message: bytes) -> str:
        """HMAC-SHA-256 of `message` under the install key, hex (hmac.digest, without keying it again)."""
        mac = self._hmac.copy()
        mac.update(message)
        return mac.hexdigest()

    def _event_data(self, data: Mapping[str, Any] | None, decision_id: int | None) -> str | None:
        if data is None:
            return None
        hidden = self._hidden.get(decision_id) if decision_id is not None else None
        if not hidden and all(type(v) in _SCALARS and type(k) is str for k, v in data.items()):
            # an execution's result for most actions ({"ok": true}, coordinates, a pid): key by key, cached
            key = self._key
            return canonical_json(dict([_scalar_field(k, type(v), v, key) for k, v in data.items()]))
        clean = sanitize_data(dict(data), key=self._key)
        if hidden:
            clean = _replace_strings(clean, hidden)
        return canonical_json(clean)

    @_counted
    def record_event(self, kind: str, *, session_id: int | None = None, decision_id: int | None = None,
                     data: dict | None = None, durable: bool = True) -> int | None:
        """Record one event. `durable=False` queues it for the next group commit without waiting (and
        returns None): for rows written after an action already ran, where waiting adds latency and
        protects nothing. A failed commit then shows in the log and fails the next durable write."""
        if not isinstance(kind, str) or not kind or not kind.replace("_", "").isalnum():
            raise AuditError(f"bad event kind {kind!r}")
        if kind in _RESERVED_KINDS:
            raise AuditError(f"event kind {kind!r} is written by the audit log itself")
        verdict = None
        if kind == "outcome":
            verdict = (data or {}).get("verdict")
            if verdict not in VERDICTS:
                raise AuditError(f"an outcome needs a verdict in {sorted(VERDICTS)}")
        if kind == "execution" and data is not None and not self.store_outputs:
            data = _without_outputs(data)
        return self._row("events", (kind, _int(session_id), _int(decision_id), verdict,
                                    self._event_data(data, _int(decision_id))), wait=durable)

    @_counted
    def record_outcome(self, decision_id: int, *, verdict: str, decided_by: str, reason: str,
                       elapsed_ms: float, durable: bool = True) -> int | None:
        if verdict not in VERDICTS:
            raise AuditError(f"verdict {verdict!r} is not one of {sorted(VERDICTS)}")
        decision_id = int(decision_id)
        elapsed = round(float(elapsed_ms), 3)
        if decision_id in self._hidden:  # values its action hid may come back in the reason: scrub them too
            data = self._event_data({"decided_by": str(decided_by), "reason": str(reason), "elapsed_ms": elapsed},
                                    decision_id)
        else:  # the few reasons there are, sanitised once each (sanitize_data treats each key on its own)
            data = canonical_json({**_outcome_fields(str(decided_by), str(reason), self._key), "elapsed_ms": elapsed})
        return self._row("events", ("outcome", None, decision_id, verdict, data), wait=durable)

    @_counted
    def add_preview(self, decision_id: int, png: bytes) -> None:
        png = bytes(png)
        self._row("previews", (int(decision_id), hashlib.sha256(png).hexdigest(), len(png)), png=png)

    def flush(self) -> None:
        """Wait until every row queued so far (durable or not) is committed."""
        self._submit(_Job("barrier"))

    def apply_retention(self, days: int) -> int:
        """Delete the chain's prefix older than `days` days; records a `retention` event. Returns rows pruned."""
        if days < 0:
            raise ValueError("days must be >= 0")
        return self._submit(_Job("retention", values=(days,)))

    def close(self) -> None:
        with self._submit_lock:
            already = self._closing
            self._closing = True
            if not already:
                self._wakes.put(_STOP)
        if not already:
            self._writer.join(timeout=self._write_timeout_s)
            if not self._writer.is_alive():  # else the writer still owns the connection
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("PRAGMA optimize")
                self._conn.close()
                self.head_file.close()  # makes the head durable
        self.reader.close()

    def __enter__(self) -> AuditLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- machinery -------------------------------------------------------------------------------------

    def _row(self, table: str, values: tuple[Any, ...], png: bytes | None = None, wait: bool = True,
             outcome: tuple[str, str] | None = None) -> Any:
        # a value the chain cannot hash or SQLite cannot store fails this caller only, not the whole group
        for value in (*values, *outcome) if outcome else values:
            if type(value) in _PLAIN:  # most values: no isinstance chain for them
                continue
            if not (isinstance(value, str | int) or (isinstance(value, float) and math.isfinite(value))):
                raise AuditError(f"cannot record a {table} row: {value!r} is not a storable value")
        try:
            # the JSON the chain hashes (but for ts), encoded here on the caller's thread, not in the writer's batch
            encoded = sql.encode_values(values)
            if outcome:
                msgspec.json.encode(outcome)
        except (TypeError, ValueError, msgspec.EncodeError) as err:
            raise AuditError(f"cannot record a {table} row: {err}") from err
        return self._submit(_Job("row", table, values, png, wait=wait, outcome=outcome, encoded=encoded))

    def _submit(self, job: _Job) -> Any:
        with self._submit_lock:
            self._building.pop(job.thread, None)  # its caller has queued its row: no longer building one
            if self._closing:
                raise AuditError("the audit log is closed")
            if self._broken:
                raise AuditError(f"the audit log is out of service: {self._broken}")
            self._pending.append(job)
            if job.wait:
                self._waiting += 1
            if self._idle:
                self._idle = False
                self._wakes.put(_WAKE)
            elif self._want and self._waiting >= self._want:
                self._want = 0
                self._wakes.put(_WAKE)
            relay = self._relay.popleft() if job.wait and self._relay else None
        if not job.wait:
            return None
        if relay is not None:
            # This thread is about to give up the interpreter lock: the next caller of the last commit
            # runs now, rather than every caller of it being woken at once to queue for the lock.
            relay.done.release()
        if not job.done.acquire(timeout=self._write_timeout_s):
            raise AuditError(f"the audit log did not commit within {self._write_timeout_s:.0f} s")
        if job.error is not None:
            raise job.error
        return job.result

    def _run(self) -> None:
        next_maintenance = time.monotonic() + _MAINTAIN_EVERY_S
        self._head_synced = time.monotonic()
        active: collections.deque[set[int]] = collections.deque(maxlen=_ACTIVE_BATCHES)
        lock, wakes = self._submit_lock, self._wakes
        # True right after a commit that released waiting callers: they usually come straight back, so
        # the writer waits for their batch at once rather than going idle and being woken by the first
        # of them, then again by the last (one wake-up per batch instead of two).
        returning = False
        try:
            while True:
                with lock:
                    idle = self._idle = not self._pending and not returning
                stop = False
                if idle:
                    self._release_relay()
                    wake = next_maintenance
                    if self.head_file.dirty:
                        wake = min(wake, self._head_synced + _HEAD_SYNC_S)
                    try:
                        stop = wakes.get(timeout=max(0.0, wake - time.monotonic())) is _STOP
                    except queue.Empty:
                        with lock:
                            self._idle = False
                        self._sync_head()
                        if time.monotonic() >= next_maintenance:
                            self._maintain()
                            next_maintenance = time.monotonic() + _MAINTAIN_EVERY_S
                        continue
                if not stop:
                    # The callers who waited in the last few commits usually come straight back (agents in
                    # a loop), and some are building a row now: wait a moment for them so one fsync covers
                    # their rows too. Counting only the last commit's would split steady agents into two
                    # groups that take turns, each commit half as full, the writer's every step contending
                    # with the other group for the GIL. Only waiting callers count (rows queued without
                    # waiting ride along). A lone agent never waits (nobody else waited, nobody else is
                    # building). The row that completes the batch wakes the writer (_submit); the linger
                    # bounds the wait for a caller who does not come.
                    with lock:
                        expected = max(len(set().union(*active)), self._waiting + len(self._building))
                        self._want = expected if self._waiting < expected else 0
                        linger = bool(self._want)
                    if linger:
                        # from the commit's end, the callers it released have their whole turn to come back
                        try:
                            stop = wakes.get(timeout=_LINGER_S * (2 if returning else 1)) is _STOP
                        except queue.Empty:
                            pass
                self._release_relay()  # whoever the relay has not reached yet: no later than now
                with lock:
                    batch, self._pending = self._pending, []
                    self._waiting = self._want = 0
                returning = False
                if batch:
                    for start in range(0, len(batch), _MAX_BATCH):
                        self._commit(batch[start:start + _MAX_BATCH])
                    callers = {job.thread for job in batch if job.wait}
                    active.append(callers)
                    returning = bool(callers)
                if time.monotonic() - self._head_synced >= _HEAD_SYNC_S:
                    self._sync_head()
                if stop:
                    return
        except BaseException as err:  # the writer itself failed: nothing may be recorded any more
            self._broken = f"writer stopped: {err!r}"
            log.exception("audit writer stopped")
        finally:
            self._fail_pending()

    def _release_relay(self) -> None:
        """Wake every caller of the last commit still waiting for its turn (its row is committed): the
        caller before it is busy elsewhere (an action, its socket). The writer does this before it
        commits again or goes idle, so the relay never delays anyone by more than the linger."""
        with self._submit_lock:
            relay, self._relay = self._relay, collections.deque()
        for job in relay:
            job.done.release()

    def _fail_pending(self) -> None:
        self._release_relay()
        with self._submit_lock:
            self._closing = True
            pending, self._pending = self._pending, []
            self._waiting = 0
        for job in pending:
            job.error = AuditError(self._broken or "the audit log is closed")
            job.done.release()

    def _maintain(self) -> None:
        jobs = []
        if self.keep_days > 0:
            jobs.append(_Job("retention", values=(self.keep_days,)))
        if self.preview_keep_days > 0:
            jobs.append(_Job("previews", values=(self.preview_keep_days,)))
        for job in jobs:
            self._commit([job])
            if job.error:
                log.warning("audit retention failed: %s", job.error)

    def _commit(self, batch: list[_Job]) -> None:
        conn = self._conn
        problem = self._files_problem()
        if problem is not None:
            self._out_of_service(problem, batch)
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                dv = conn.execute("PRAGMA data_version").fetchone()[0]
                if self._head is None or dv != self._head.data_version:
                    self._head = self._load_head(conn)  # another process (log prune) wrote meanwhile
                head = self._head.copy()
                committed_seq = head.seq
                for job in batch:
                    job.result = self._apply(conn, head, job)
                head.flush(conn)
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        except BaseException as err:
            self._head = None  # reload what is really committed before the next batch
            failure = AuditError(f"audit log write failed: {err}")
            failure.__cause__ = err
            log.error("audit commit of %d row(s) failed: %s", len(batch), err)
            for job in batch:
                job.result = None
                job.error = failure
                job.done.release()
            if not isinstance(err, Exception):
                raise
            return
        self._head = head
        self._commits += 1
        self._note_sizes()  # before anyone hears of the commit: a file cut after it must be caught
        # The chain head is written first (a pwrite into the page cache, no fsync: durable within
        # _HEAD_SYNC_S, see _sync_head), while every caller of this batch still waits, so nobody holds the
        # interpreter lock the writer needs back after the system call; written after waking them, the
        # writer would queue for it behind the caller it just woke. A reader never finds the head behind
        # a commit its caller heard of. flush() and maintenance return once it is written too.
        # Waiting callers are woken one at a time, each by the one before it as that one blocks again
        # (_submit): woken together they would only queue for the interpreter lock, each paying a thread
        # switch more. The writer wakes the rest itself before its next commit (_release_relay).
        head_error: OSError | None = None
        if head.seq != committed_seq:
            try:
                self.head_file.write(ChainHead(head.seq, head.hash), sync=False)
            except OSError as err:
                head_error = err
        later, relay = [], []
        for job in batch:
            if job.kind != "row":
                later.append(job)
            elif job.wait:
                relay.append(job)
        if relay:  # their rows are on disk whatever becomes of the head
            with self._submit_lock:
                self._relay.extend(relay[1:])
            relay[0].done.release()
        if head_error is not None:  # every later write fails: nothing runs on a log whose end cannot be kept
            self._out_of_service(f"the chain head {self.head_file.path} cannot be written: {head_error}", later)
            return
        for job in later:
            job.done.release()
        if self._commits % _CHECKPOINT_EVERY == 0:
            self._checkpoint()  # its callers are on their way: it overlaps their building the next batch
        if self.on_commit is not None and head.inserted:
            try:
                self.on_commit(head.inserted)
            except Exception:  # a copy elsewhere failing never touches the local log
                log.exception("audit on_commit hook failed")

    def _sync_head(self) -> None:
        """Make the chain head durable (the writer thread, at most every _HEAD_SYNC_S while busy)."""
        self._head_synced = time.monotonic()
        try:
            self.head_file.sync()
        except OSError as err:
            self._out_of_service(f"the chain head {self.head_file.path} cannot be written: {err}", [])

    def _checkpoint(self) -> None:
        """Copy the WAL into the database file (the writer thread, between two commits). PASSIVE: it
        never waits for a reader; what a reader still uses stays in the WAL for the next one."""
        try:
            busy, frames, copied = self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error as err:  # the WAL just grows until the next one succeeds
            log.warning("audit WAL checkpoint failed: %s", err)
            return
        self.last_checkpoint = (busy, frames, copied)
        self.checkpoints += 1
        self._checkpointed.set()

    # -- tamper checks ---------------------------------------------------------------------------------

    def verify_in_background(self) -> threading.Thread:
        """Recompute the whole chain once, on a thread, as deskgate starts (the open itself checks only the
        end against the chain head). A log that fails is continued, loudly: `verify_problem` says why (the
        person's `status`), the alarm listeners hear it (the tray) and an event records it in the log."""
        thread = threading.Thread(target=self._verify_at_start, name="audit-verify", daemon=True)
        thread.start()
        return thread

    def _alarm(self, message: str) -> None:
        """Tell the log and every alarm listener (the tray) at once; a listener's failure silences no other."""
        log.critical("%s", message)
        for callback in list(self._alarm_listeners):
            try:
                callback(message)
            except Exception:
                log.exception("audit alarm listener failed")

    def _verify_at_start(self) -> None:
        try:
            result = self.reader.verify(check_head=False)
        except Exception as err:  # an unreadable log at start is as loud as a broken one
            problem = f"the audit log could not be verified at start: {err}"
        else:
            if result.ok:
                return
            problem = f"the audit log failed verification at start: {result.problem}"
        message = (f"AUDIT LOG FAILED VERIFICATION: {problem}. deskgate continues it; run `deskgate log verify` "
                   "and keep the files for inspection")
        self.verify_problem = message
        self._alarm(message)
        with contextlib.suppress(AuditError):
            self.record_event("log_verify_failed", data={"problem": problem})

    @property
    def commits(self) -> int:
        """Group commits done since the log was opened (each: one fsync for every row it held)."""
        return self._commits

    @property
    def out_of_service(self) -> str | None:
        """Why the log stopped taking writes (files deleted or replaced, head unwritable); None while sound."""
        return self._broken

    def add_alarm_listener(self, callback: Callable[[str], None]) -> None:
        """`callback(message)` when the log goes out of service because its files were deleted or replaced
        or its head cannot be kept (the supervisor forwards it to the tray)."""
        self._alarm_listeners.append(callback)

    @functools.cached_property
    def _watched(self) -> tuple[Path, ...]:
        # built once: checked before every group commit
        return (self.path, Path(f"{self.path}-wal"), self.head_file.path)

    def _remember_files(self) -> None:
        for path in self._watched:
            with contextlib.suppress(FileNotFoundError):
                st = os.stat(path)
                self._identity[path] = (st.st_dev, st.st_ino)
        self._note_sizes()

    def _note_sizes(self) -> None:
        """After a commit: the sizes the database and the WAL may only grow from."""
        for path in self._watched[:2]:
            with contextlib.suppress(OSError):
                self._sizes[path] = os.stat(path).st_size

    def _files_problem(self) -> str | None:
        """Is every file this writer opened still there, the same file? (A deleted or replaced database
        keeps taking writes through the open handle, and they vanish with it.)"""
        for path, ident in self._identity.items():
            try:
                st = os.stat(path)
            except FileNotFoundError:
                return f"{path} was deleted while deskgate was writing to it"
            except OSError as err:
                return f"{path} cannot be checked: {err}"
            if (st.st_dev, st.st_ino) != ident:
                return f"{path} was replaced by another file while deskgate was writing to it"
            if st.st_size < self._sizes.get(path, 0):
                what = "emptied" if st.st_size == 0 else f"shrunk from {self._sizes[path]} to {st.st_size} bytes"
                return f"{path} was {what} while deskgate was writing to it (history in it is lost)"
        if len(self._identity) < len(self._watched):
            self._remember_files()  # the WAL appears with the first write
        return None

    def _out_of_service(self, problem: str, batch: list[_Job]) -> None:
        """Stop for good: this batch and every later write fail (nothing runs), and raise the alarm."""
        message = f"AUDIT LOG OUT OF SERVICE: {problem}; nothing will run until deskgate is restarted"
        first = False
        with self._submit_lock:
            if self._broken is None:
                self._broken = message
                first = True
        if first:  # the alarm is up before any caller hears of the failure
            self._alarm(message)
        failure = AuditError(message)
        for job in batch:
            job.result = None
            job.error = failure
            job.done.release()

    def _check_head(self, conn: sqlite3.Connection, head: _Head) -> None:
        """At open: the database must reach the head recorded outside it. AuditError otherwise."""
        try:
            stored = self.head_file.read()
        except (OSError, ValueError) as err:
            raise AuditError(f"the audit chain head {self.head_file.path} cannot be read ({err}); "
                             "refusing to write to a log whose end cannot be checked") from err
        if stored is None:
            return
        advice = (f"Run `deskgate log verify --db {self.path}` and keep the files for inspection; to start "
                  f"a new log, move {self.path} (and -wal/-shm) and {self.head_file.path} aside.")
        if head.seq < stored.seq:
            raise AuditError(f"the audit log {self.path} lost its end: it stops at chain position {head.seq} but "
                             f"{stored.seq} rows were written. {advice}")
        if stored.seq and hash_at(conn, stored.seq) != stored.hash:
            raise AuditError(f"the audit log {self.path} does not match its chain head (rewritten or replaced). "
                             f"{advice}")

    def _load_head(self, conn: sqlite3.Connection) -> _Head:
        seq, last_hash, ts = 0, sql.GENESIS, 0.0
        for table in sql.TABLES:
            row = conn.execute(sql.LAST_LINK[table]).fetchone()
            if row is not None and row[0] > seq:
                seq, last_hash = row[0], row[1]
            last = conn.execute(f"SELECT ts FROM {table} ORDER BY id DESC LIMIT 1").fetchone()
            if last is not None:
                ts = max(ts, last[0])
        if seq == 0:
            anchor = conn.execute(sql.LAST_RETENTION).fetchone()
            if anchor is not None:  # everything pruned but the anchor event itself cannot be: defensive
                data = json.loads(anchor[0])
                seq, last_hash = int(data["anchor_seq"]), bytes.fromhex(data["anchor_hash"])
        next_id = {}
        for table in sql.TABLES:
            row = conn.execute(sql.NEXT_ID, (table,)).fetchone()
            next_id[table] = (row[0] if row else 0) + 1
        dv = conn.execute("PRAGMA data_version").fetchone()[0]
        return _Head(seq, last_hash, ts, next_id, dv)

    def _append(self, conn: sqlite3.Connection, head: _Head, table: str, values: tuple[Any, ...],
                png: bytes | None = None, encoded: bytes | None = None) -> int:
        ts = max(self._clock(), head.ts)  # the chain's clock never goes back: time ranges are id ranges
        row_id, seq = head.next_id[table], head.seq + 1
        hashed = (ts, *values)
        digest = sql.row_hash_encoded(head.hash, table, seq, row_id, ts, encoded or sql.encode_values(values))
        params = (row_id, seq, *hashed, *((png,) if table == "previews" else ()), head.hash, digest)
        head.pending.setdefault(table, []).append(params)
        head.seq, head.hash, head.ts = seq, digest, ts
        head.next_id[table] = row_id + 1
        return row_id

    def _apply(self, conn: sqlite3.Connection, head: _Head, job: _Job) -> Any:
        if job.kind == "row":
            row_id = self._append(conn, head, job.table, job.values, job.png, job.encoded)
            if job.outcome is not None:
                verdict, data = job.outcome
                self._append(conn, head, "events", ("outcome", None, row_id, verdict, data))
            return row_id
        if job.kind == "barrier":
            return None
        head.flush(conn)  # maintenance reads the tables: everything chained so far must be in them
        if job.kind == "retention":
            return self._prune(conn, head, int(job.values[0]))
        if job.kind == "previews":
            cutoff = self._clock() - int(job.values[0]) * 86400
            cleared = conn.execute(sql.CLEAR_PREVIEWS, (cutoff,)).rowcount
            if cleared:
                self._append(conn, head, "events", ("preview_retention", None, None, None,
                                                    _data({"cleared": cleared, "cutoff_at": iso(cutoff)})))
            return cleared
        raise AssertionError(f"unknown job {job.kind}")

    def _prune(self, conn: sqlite3.Connection, head: _Head, days: int) -> int:
        """Delete every row before the first one at or after the cutoff (a prefix of the chain).

        The new first row's prev_hash is the last pruned row's hash: the retention event keeps it as
        the anchor, so verify still checks the rest from there.
        """
        cutoff = self._clock() - days * 86400
        keep_from = head.seq + 1
        first_present = None
        for table in sql.TABLES:
            row = conn.execute(sql.FIRST_SINCE[table], (cutoff,)).fetchone()
            if row is not None:
                keep_from = min(keep_from, row[1])
            first = conn.execute(f"SELECT seq FROM {table} ORDER BY id LIMIT 1").fetchone()
            if first is not None:
                first_present = first[0] if first_present is None else min(first_present, first[0])
        if first_present is None or keep_from <= first_present:
            return 0
        boundary: dict[str, int] = {}
        anchor_seq, anchor_hash = 0, sql.GENESIS
        for table in sql.TABLES:
            row = conn.execute(sql.FIRST_SEQ_FROM[table], (keep_from,)).fetchone()
            boundary[table] = row[0] if row is not None else sys.maxsize
            last = conn.execute(sql.LAST_BEFORE_ID[table], (boundary[table],)).fetchone()
            if last is not None and last[0] > anchor_seq:
                anchor_seq, anchor_hash = last[0], last[1]
        pruned = {t: conn.execute(sql.DELETE_BEFORE_ID[t], (boundary[t],)).rowcount for t in sql.TABLES}
        total = sum(pruned.values())
        self._append(conn, head, "events", ("retention", None, None, None, _data({
            "anchor_seq": anchor_seq, "anchor_hash": anchor_hash.hex(), "keep_days": days,
            "cutoff_at": iso(cutoff), "pruned": pruned,
        })))
        return total


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _data(data: Mapping[str, Any] | None, key: bytes | None = None) -> str | None:
    return None if data is None else canonical_json(sanitize_data(dict(data), key=key))
