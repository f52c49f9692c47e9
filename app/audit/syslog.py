"""Forward every committed audit row to the system log as RFC 5424 structured data (opt-in).

    fwd = SyslogForwarder(SyslogTarget.parse("udp:127.0.0.1:514"), app_name="deskgate")
    fwd.start()
    audit.on_commit = fwd.submit            # called by the audit writer after each group commit
    ...
    fwd.stop()

The audit database stays the truth: forwarding is a copy that happens after the commit, on a thread
of its own, through a bounded queue. The writer only appends to that queue and never waits on the
network; when the queue is full or the collector cannot be reached the row is counted as dropped
(`stats()`, written to a small state file that `deskgate log stats` and `deskgate doctor` read) and
the local log is unaffected.

One message per row: `<PRI>1 TIMESTAMP HOST APP PROCID MSGID [deskgate@32473 table=… id=… seq=… …] summary`.
MSGID is the table (`decision`, `event`, `session`, `preview`); the SD-PARAMs are the row's hashed
columns plus its chain hash, so a collector can verify or correlate rows without the database. 32473
is the enterprise number RFC 5612 reserves for documentation: the SD-ID is a private one.
"""

from __future__ import annotations

import dataclasses
import datetime
import errno
import json
import logging
import os
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from app.audit import schema as sql

__all__ = ["FACILITIES", "SD_ID", "SyslogForwarder", "SyslogTarget", "format_row", "read_stats"]

log = logging.getLogger("deskgate.syslog")

SD_ID = "deskgate@32473"
FACILITIES = {name: code for code, name in enumerate(
    ("kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
     "ntp", "audit", "alert", "clock", "local0", "local1", "local2", "local3", "local4", "local5", "local6",
     "local7"))}
_MSGID = {"decisions": "decision", "events": "event", "sessions": "session", "previews": "preview"}
# RFC 5424 severities: a block or a denial is a notice, everything else informational
_NOTICE, _INFO = 5, 6
_MAX_VALUE = 2048          # long values (actions with file content are already hashed) are cut here
_STATS_EVERY_S = 2.0       # the state file is rewritten at most this often


class SyslogError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class SyslogTarget:
    scheme: str            # unix | udp | tcp
    address: str           # a socket path, or a host
    port: int = 0

    @classmethod
    def parse(cls, text: str) -> SyslogTarget:
        scheme, _, rest = str(text).partition(":")
        if scheme == "unix" and rest:
            return cls("unix", rest)
        if scheme in ("udp", "tcp") and rest:
            host, _, port = rest.rpartition(":")
            host = host.strip("[]")  # [::1]:514
            if host and port.isdigit() and 0 < int(port) < 65536:
                return cls(scheme, host, int(port))
        raise SyslogError(f"syslog target {text!r} is not unix:/path, udp:host:port or tcp:host:port")

    def __str__(self) -> str:
        return f"unix:{self.address}" if self.scheme == "unix" else f"{self.scheme}:{self.address}:{self.port}"


# -- the message --------------------------------------------------------------------------------------


def _sd_escape(value: str) -> str:
    # RFC 5424 §6.3.3: inside PARAM-VALUE, '"', '\' and ']' are escaped with a backslash
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("]", "\\]")


def _header_field(value: str, limit: int) -> str:
    # header fields are PRINTUSASCII (33..126), NILVALUE when empty
    text = "".join(c for c in value if 33 <= ord(c) <= 126)[:limit]
    return text or "-"


def _timestamp(ts: float) -> str:
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).isoformat(timespec="microseconds").replace(
        "+00:00", "Z")


def _value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.hex()
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= _MAX_VALUE else text[:_MAX_VALUE] + "…"


def _row_fields(table: str, params: Sequence[Any]) -> dict[str, Any]:
    """The audit writer's insert parameters → column name → value: (id, seq, *HASHED, [png], prev_hash, hash)."""
    hashed = sql.HASHED[table]
    fields: dict[str, Any] = {"table": table, "id": params[0], "seq": params[1]}
    fields.update(zip(hashed, params[2:2 + len(hashed)], strict=True))
    fields["hash"] = params[-1]
    return fields


def _severity(table: str, fields: dict[str, Any]) -> int:
    if table == "decisions" and fields.get("decision") == "block":
        return _NOTICE
    if table == "events" and (fields.get("verdict") in ("denied", "error") or fields.get("kind") == "kill"):
        return _NOTICE
    return _INFO


def _summary(table: str, fields: dict[str, Any]) -> str:
    if table == "decisions":
        return f"{fields.get('agent')}: {fields.get('decision')} {fields.get('summary')} ({fields.get('reason')})"
    if table == "events":
        verdict = f" {fields['verdict']}" if fields.get("verdict") else ""
        ref = f" decision {fields['decision_id']}" if fields.get("decision_id") else ""
        return f"{fields.get('kind')}{verdict}{ref}"
    if table == "sessions":
        return f"session {fields.get('id')} opened by {fields.get('agent')}"
    return f"preview for decision {fields.get('decision_id')}"


def format_row(table: str, params: Sequence[Any], *, app_name: str = "deskgate", facility: str = "user",
               hostname: str | None = None, procid: int | None = None) -> bytes:
    """One committed audit row as an RFC 5424 message (UTF-8, no framing)."""
    fields = _row_fields(table, params)
    pri = FACILITIES[facility] * 8 + _severity(table, fields)
    sd = " ".join(f'{name}="{_sd_escape(_value(v))}"' for name, v in fields.items() if v is not None)
    header = " ".join((
        f"<{pri}>1", _timestamp(float(fields["ts"])),
        _header_field(hostname if hostname is not None else socket.gethostname(), 255),
        _header_field(app_name, 48), _header_field(str(procid if procid is not None else os.getpid()), 128),
        _MSGID[table]))
    # BOM: RFC 5424 §6.4 marks an UTF-8 MSG so collectors need not guess
    return f"{header} [{SD_ID} {sd}] ".encode() + b"\xef\xbb\xbf" + _summary(table, fields).encode()


# -- the transport ------------------------------------------------------------------------------------


class _Sender:
    """One connection to the collector, opened lazily and again after a failure."""

    def __init__(self, target: SyslogTarget, timeout_s: float) -> None:
        self.target = target
        self.timeout_s = timeout_s
        self._sock: socket.socket | None = None

    def _open(self) -> socket.socket:
        t = self.target
        if t.scheme == "unix":
            for kind in (socket.SOCK_DGRAM, socket.SOCK_STREAM):  # /dev/log is a datagram socket; some are streams
                s = socket.socket(socket.AF_UNIX, kind)
                s.settimeout(self.timeout_s)
                try:
                    s.connect(t.address)
                    return s
                except OSError as err:
                    s.close()
                    if err.errno != errno.EPROTOTYPE:
                        raise
            raise OSError(f"cannot connect to {t.address}")
        family, kind, _, _, addr = socket.getaddrinfo(
            t.address, t.port, type=socket.SOCK_DGRAM if t.scheme == "udp" else socket.SOCK_STREAM)[0]
        s = socket.socket(family, kind)
        s.settimeout(self.timeout_s)
        try:
            s.connect(addr)
        except OSError:
            s.close()
            raise
        return s

    def send(self, message: bytes) -> None:
        if self._sock is None:
            self._sock = self._open()
        try:
            if self._sock.type == socket.SOCK_STREAM:
                # RFC 6587 octet counting: a message may contain newlines
                self._sock.sendall(b"%d " % len(message) + message)
            else:
                self._sock.send(message)
        except OSError:
            self.close()
            raise

    def close(self) -> None:
        if self._sock is not None:
            try:
                self._sock.close()
            finally:
                self._sock = None


# -- the forwarder ------------------------------------------------------------------------------------


class SyslogForwarder:
    """A bounded queue and one thread that sends. `submit` never blocks and never raises."""

    def __init__(self, target: SyslogTarget, *, app_name: str = "deskgate", facility: str = "user",
                 queue_size: int = 10_000, timeout_s: float = 2.0, retry_s: float = 5.0,
                 stats_path: Path | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        if facility not in FACILITIES:
            raise SyslogError(f"unknown syslog facility {facility!r} (one of {', '.join(FACILITIES)})")
        self.target = target
        self.app_name = app_name
        self.facility = facility
        self.retry_s = retry_s
        self.stats_path = stats_path
        self._clock = clock
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=queue_size)
        self._sender = _Sender(target, timeout_s)
        self._lock = threading.Lock()
        self._sent = 0
        self._dropped = 0
        self._last_error: str | None = None
        self._down_until = 0.0
        self._stats_written = 0.0
        self._thread: threading.Thread | None = None
        self._hostname = socket.gethostname()
        self._pid = os.getpid()

    # the audit writer's hook: (table, insert params) per committed row
    def submit(self, rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
        for table, params in rows:
            # keep what the message needs (id, seq, the hashed columns, the hash): not a preview's PNG
            kept = (*params[:2 + len(sql.HASHED[table])], params[-1])
            try:
                self._queue.put_nowait((table, kept))
            except queue.Full:
                self._count_drop("queue full")

    def start(self) -> SyslogForwarder:
        self._thread = threading.Thread(target=self._run, name="deskgate-syslog", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout_s: float = 5.0) -> None:
        """Send what is queued (within `timeout_s`), then close."""
        if self._thread is None:
            return
        self._queue.put(None)
        self._thread.join(timeout_s)
        self._thread = None
        self._sender.close()
        self._write_stats(force=True)

    def flush(self, timeout_s: float = 5.0) -> bool:
        """Wait until everything queued so far was sent or dropped (tests, shutdown)."""
        done = threading.Event()
        try:
            self._queue.put(done, timeout=timeout_s)
        except queue.Full:
            return False
        return done.wait(timeout_s)

    def stats(self) -> dict[str, Any]:
        with self._lock:
            return {"target": str(self.target), "sent": self._sent, "dropped": self._dropped,
                    "queued": self._queue.qsize(), "last_error": self._last_error}

    def _count_drop(self, error: str) -> None:
        with self._lock:
            self._dropped += 1
            self._last_error = error

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if isinstance(item, threading.Event):
                self._write_stats(force=True)
                item.set()
                continue
            table, params = item
            try:
                message = format_row(table, params, app_name=self.app_name, facility=self.facility,
                                     hostname=self._hostname, procid=self._pid)
            except Exception as err:  # a row we cannot format is dropped here, never in the database
                log.warning("cannot format audit row for syslog: %s", err)
                self._count_drop(f"format: {err}")
                continue
            self._send(message)
            self._write_stats()

    def _send(self, message: bytes) -> None:
        # after a failure the collector is considered down for retry_s: rows are counted, not waited on
        if self._clock() < self._down_until:
            self._count_drop(self._last_error or "collector down")
            return
        try:
            self._sender.send(message)
        except OSError as err:
            self._down_until = self._clock() + self.retry_s
            if self._last_error is None or not self._last_error.startswith("send"):
                log.warning("syslog forwarding to %s failed (%s); the audit database keeps every row", self.target,
                            err)
            self._count_drop(f"send: {err}")
            return
        with self._lock:
            self._sent += 1
            if self._last_error and self._last_error.startswith("send"):
                log.info("syslog forwarding to %s works again", self.target)
                self._last_error = None

    def _write_stats(self, force: bool = False) -> None:
        if self.stats_path is None:
            return
        now = self._clock()
        if not force and now - self._stats_written < _STATS_EVERY_S:
            return
        self._stats_written = now
        data = {**self.stats(), "updated_at": _timestamp(time.time())}
        tmp = self.stats_path.with_suffix(".tmp")
        try:
            self.stats_path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data), encoding="utf-8")
            tmp.replace(self.stats_path)
        except OSError as err:
            log.warning("cannot write %s: %s", self.stats_path, err)


def read_stats(path: Path) -> dict[str, Any] | None:
    """The last counters a forwarder wrote (None: forwarding never ran here)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
