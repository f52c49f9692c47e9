"""The agent side of the socket: a small sync `Client` and an asyncio `AsyncClient` (DESIGN §4).

Every call sends one request and waits for its reply. Errors come back as typed exceptions, all
subclasses of `app.errors.DeskgateError`; in every case the action did not run, except `ConnectionLost`
after an `act`/`plan`/`command` that was sent (the reply was lost: it may or may not have run, and the
client never re-sends it). No supervisor → `SupervisorUnavailable`, nothing is performed (fail closed).

    from app.agent.client import Client, Denied

    with Client() as dg:                       # default socket: $XDG_RUNTIME_DIR/deskgate/deskgate.sock
        dg.hello("my-agent", expect={"app": "firefox"})
        reply = dg.act({"type": "click", "x": 640, "y": 400})   # the reply dict; "verdict" says what happened
        try:
            dg.perform({"type": "key", "keys": ["ctrl", "s"]})  # raises Denied instead of returning it
        except Denied as no:
            print("refused:", no.reason, no.rules)

    async with AsyncClient() as dg:
        await dg.hello("my-agent")
        reply = await dg.check({"type": "shell", "command": "ls"})
"""

from __future__ import annotations

import abc
import contextlib
import itertools
import json
import os
import select
import socket
import stat as statmod
import struct
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from app.errors import DeskgateError
from app.wire import MAX_LINE, Verdict, encode_request

TYPE_CHECKING = False  # typing is not imported at run time: the hook and `deskgate kill` start small
if TYPE_CHECKING:
    import asyncio
    import logging
    from typing import Any

__all__ = [
    "AsyncClient",
    "BadRequest",
    "Client",
    "ClientError",
    "ConnectionLost",
    "Denied",
    "Disabled",
    "InternalError",
    "Killed",
    "LimitError",
    "LimitExceeded",
    "Paused",
    "SandboxDenied",
    "SupervisorUnavailable",
    "Timeout",
    "TooLarge",
    "Unauthorized",
    "UnknownOp",
    "Unsupported",
    "UntrustedServer",
    "error_from_reply",
]

_DEFAULT_STEP_TIMEOUT_S = 120.0  # before a hello reply says the session's own
_RETRY_SLACK_S = 0.05  # past the moment the window frees up, not on it


def _log() -> logging.Logger:
    # logging (and asyncio, in AsyncClient) load on first use: a hook or `deskgate kill` never needs them
    import logging

    return logging.getLogger("deskgate.client")


DEFAULT_TIMEOUT_S = 120.0  # longer than a person's confirmation window (approvals.timeout_s, 30 s default)
MAX_REPLY = 64 * 1024 * 1024


# -- typed errors ----------------------------------------------------------------------------------


class _WireError(DeskgateError):
    """An error reply from the supervisor, as its own class. `reply` is the whole reply line."""

    CODE = "internal"

    def __init__(self, message: str, *, reply: Mapping[str, Any] | None = None) -> None:
        err = reply.get("error") if reply is not None else None
        after = err.get("retry_after") if isinstance(err, Mapping) else None
        ok = isinstance(after, int | float) and not isinstance(after, bool) and after >= 0
        super().__init__(self.CODE, message, retry_after=float(after) if ok else None)
        self.reply = dict(reply) if reply is not None else None
        self.request_id = reply.get("id") if reply is not None else None


class BadRequest(_WireError):
    CODE = "bad_request"


class TooLarge(_WireError):
    CODE = "too_large"


class UnknownOp(_WireError):
    CODE = "unknown_op"


class Unauthorized(_WireError):
    CODE = "unauthorized"


class Disabled(_WireError):
    CODE = "disabled"


class Killed(_WireError):
    CODE = "killed"


class Paused(_WireError):
    CODE = "paused"


class LimitExceeded(_WireError):
    """A limit refused the request (nothing ran). `retry_after`: seconds after which the same request
    would pass (a rate limit), or None when waiting does not help (the session's step budget is spent)."""

    CODE = "limit"


LimitError = LimitExceeded  # the name runtime.md uses


class Timeout(_WireError):
    """The supervisor answered `timeout`, or no reply came within the client's `timeout` (the client then
    closes the connection, which ends the session on the supervisor's side)."""

    CODE = "timeout"


class Unsupported(_WireError):
    CODE = "unsupported"


class SandboxDenied(_WireError):
    CODE = "sandbox_denied"


class InternalError(_WireError):
    CODE = "internal"


_BY_CODE: dict[str, type[_WireError]] = {
    c.CODE: c
    for c in (BadRequest, TooLarge, UnknownOp, Unauthorized, Disabled, Killed, Paused, LimitExceeded,
              Timeout, Unsupported, SandboxDenied, InternalError)
}


class ClientError(DeskgateError):
    """A condition seen only by the client; its `code` is not a wire code."""

    CODE = "client"

    def __init__(self, message: str) -> None:
        # DeskgateError only takes wire codes; these codes never go on the wire.
        Exception.__init__(self, message)
        self.code = self.CODE
        self.message = message


class SupervisorUnavailable(ClientError, ConnectionError):
    """No deskgate answers at the socket (not running, or gone). Nothing was performed."""

    CODE = "unavailable"


class UntrustedServer(SupervisorUnavailable):
    """What listens at the socket is not the person's deskgate (another uid, or a directory others can
    write or squat in). Nothing was sent; nothing was performed (fail closed)."""

    CODE = "untrusted"


class ConnectionLost(SupervisorUnavailable):
    """The connection dropped after a request that acts was sent and before its reply came. It may or may
    not have run; it is not re-sent (ask `observe`, or look in the audit log)."""

    CODE = "connection_lost"


class Denied(ClientError):
    """The supervisor decided not to run the action (`verdict: denied`). Raised only on request
    (`raise_on_deny=True`, `perform`). `reply` holds the whole reply."""

    CODE = "denied"

    def __init__(self, reply: Mapping[str, Any]) -> None:
        self.reply = dict(reply)
        self.reason: str = str(reply.get("reason", ""))
        self.rules: list[str] = list(reply.get("rules") or [])
        self.decision: str | None = reply.get("decision")
        self.decided_by: str | None = reply.get("decided_by")
        self.audit_id: int | None = reply.get("audit_id")
        by = f" by {self.decided_by}" if self.decided_by else ""
        super().__init__(f"denied{by}: {self.reason or 'no reason given'}")


def error_from_reply(reply: Mapping[str, Any]) -> DeskgateError:
    """The typed exception for an error reply (`ok: false`)."""
    err = reply.get("error")
    code = err.get("code") if isinstance(err, Mapping) else None
    message = str(err.get("message", "")) if isinstance(err, Mapping) else "malformed error reply"
    cls = _BY_CODE.get(code) if isinstance(code, str) else None
    if cls is None:
        return InternalError(f"unknown error code {code!r}: {message}", reply=reply)
    return cls(message, reply=reply)


def _verdict_check(reply: dict[str, Any]) -> dict[str, Any]:
    """For raise_on_deny: a denied verdict raises Denied, a failed execution raises its error."""
    verdict = reply.get("verdict")
    if verdict == Verdict.DENIED:
        raise Denied(reply)
    if verdict == Verdict.KILLED:  # the kill switch ended the action while it ran: it did not complete
        raise Killed(reply.get("reason") or "the kill switch ended the running action", reply=reply)
    if verdict == Verdict.ERROR:
        for holder in (reply, reply.get("result")):
            if isinstance(holder, Mapping) and isinstance(holder.get("error"), Mapping):
                raise error_from_reply({"id": reply.get("id"), "ok": False, "error": holder["error"]})
        raise InternalError(f"the action failed: {reply.get('reason', 'no reason given')}", reply=reply)
    return reply


def _expect(expect: Any) -> Any:
    # A mapping is copied (the replayed hello must not change under us); a gate.model.Expect is frozen.
    return dict(expect) if isinstance(expect, Mapping) else expect


# -- shared between the two clients ---------------------------------------------------------------

_SAFE_TO_RESEND = frozenset({"hello", "check", "observe"})  # read-only: re-sending cannot act twice


_PEERCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


def expected_server_uid(server_uid: int | None = None) -> int:
    """Whose deskgate a client trusts: `server_uid`, else $DESKGATE_SERVER_UID (an agent running as
    another user names the person's uid), else our own uid."""
    if server_uid is not None:
        return int(server_uid)
    env = os.environ.get("DESKGATE_SERVER_UID", "").strip()
    if env:
        try:
            return int(env)
        except ValueError:
            raise UntrustedServer(f"DESKGATE_SERVER_UID={env!r} is not a uid; not connecting") from None
    return os.geteuid()


def check_socket_dir(socket_path: Path, uid: int) -> None:
    """The socket's directory must be a real directory of `uid` that nobody else can write (so nobody
    else can have put the socket there). A shared directory (sticky, like /tmp) is refused, never fixed."""
    directory = socket_path.parent
    try:
        st = os.lstat(directory)
    except FileNotFoundError:
        raise SupervisorUnavailable(f"no deskgate at {socket_path}: its directory does not exist") from None
    except OSError as err:
        raise UntrustedServer(f"cannot inspect the socket directory {directory}: {err.strerror or err}") from None
    if statmod.S_ISLNK(st.st_mode) or not statmod.S_ISDIR(st.st_mode):
        raise UntrustedServer(f"socket directory {directory} is not a real directory; not connecting")
    if st.st_uid != uid:
        raise UntrustedServer(f"socket directory {directory} belongs to uid {st.st_uid}, not to the deskgate "
                              f"uid {uid}; someone else may be listening there — not connecting")
    if st.st_mode & statmod.S_ISVTX or st.st_mode & (statmod.S_IWGRP | statmod.S_IWOTH):
        raise UntrustedServer(f"socket directory {directory} is shared (mode {statmod.S_IMODE(st.st_mode):o}): "
                              "others could put a fake deskgate there — not connecting; use a directory of "
                              "your own (0700)")


def check_server_peer(sock: Any, uid: int, socket_path: Path) -> None:
    """The process that accepted our connection must run as `uid` (the kernel's SO_PEERCRED)."""
    try:
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size)
        _pid, peer_uid, _gid = _PEERCRED.unpack(raw)
    except (OSError, AttributeError, struct.error) as err:
        raise UntrustedServer(f"cannot read who listens at {socket_path} ({err}); not trusting it") from None
    if peer_uid != uid:
        raise UntrustedServer(f"the process listening at {socket_path} runs as uid {peer_uid}, not as the "
                              f"deskgate uid {uid}: not trusting it; nothing was sent")


def _hello_fields(agent: str, expect: Any, versions: Sequence[int] | None, scope: str | None,
                  project: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    fields = {"agent": agent, "expect": _expect(expect), "versions": list(versions) if versions is not None else None}
    if scope is not None:
        fields["scope"] = scope
    if project is not None:
        fields["project"] = os.fspath(project)
    return fields


def _act_fields(action: Any, execute: bool, defer: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {"action": action, "execute": execute}
    if defer:
        fields["defer"] = True
    return fields


class _Base(abc.ABC):
    def __init__(self, socket_path: Path | str | None, timeout: float | None, connect_timeout: float,
                 server_uid: int | None = None) -> None:
        if socket_path is None:
            from app.config import default_socket

            socket_path = default_socket()
        self.socket_path = Path(socket_path)
        self.server_uid = server_uid
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self._ids = itertools.count(1)
        self._prefix = os.urandom(3).hex()
        self._hello: dict[str, Any] | None = None  # replayed after a reconnect
        self.session: dict[str, Any] | None = None  # the last hello reply

    def _next_id(self) -> str:
        return f"{self._prefix}-{next(self._ids)}"

    # A rate limit's refusal says when the same request would pass (`retry_after`); an act, plan or
    # command waits that long and sends it again, as long as all its waiting stays within the session's
    # step_timeout_s. Nothing ran when a limit refused it, so sending it again cannot act twice.
    wait_on_limits = True

    def _limit_pause(self, err: LimitExceeded, waited: float) -> float | None:
        """Seconds to wait before sending a request a limit refused again, or None: give up."""
        if not self.wait_on_limits or err.retry_after is None:
            return None
        limits = (self.session or {}).get("limits") or {}
        budget = float(limits.get("step_timeout_s") or _DEFAULT_STEP_TIMEOUT_S)
        pause = err.retry_after + _RETRY_SLACK_S
        return pause if waited + pause <= budget else None

    def _encode(self, op: str, fields: Mapping[str, Any]) -> tuple[str, bytes]:
        rid = self._next_id()
        line = encode_request(op, rid, **fields)
        if len(line) - 1 > MAX_LINE:
            raise TooLarge(f"request is {len(line) - 1} bytes; the limit is {MAX_LINE} (not sent)")
        return rid, line

    @staticmethod
    def _decode_reply(raw: bytes) -> dict[str, Any]:
        try:
            reply = json.loads(raw)
        except (ValueError, RecursionError) as err:
            raise InternalError(f"the supervisor sent a line that is not JSON: {err}") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise InternalError("the supervisor sent a reply without `ok`")
        return reply

    @staticmethod
    def _matches(reply: Mapping[str, Any], rid: str) -> bool:
        # An error the server could not tie to a request (id null) answers the one we have outstanding:
        # we never have more than one.
        return reply.get("id") == rid or (reply.get("id") is None and reply.get("ok") is False)

    def _finish(self, op: str, reply: dict[str, Any]) -> dict[str, Any]:
        if not reply["ok"]:
            if reply.get("id") is None:
                # An error the server could not tie to a request is about the connection (refused, full,
                # stalled): it is closing it. A later request starts afresh.
                self._drop()
            raise error_from_reply(reply)
        if op == "hello":
            self.session = reply
        return reply

    @abc.abstractmethod
    def _drop(self) -> None:
        """Forget the connection at once (no bye): the server is closing it, or the stream is corrupt."""

    def _unavailable(self, err: OSError) -> SupervisorUnavailable:
        return SupervisorUnavailable(f"no deskgate at {self.socket_path}: {err.strerror or err}")


# -- sync -------------------------------------------------------------------------------------------


class Client(_Base):
    """A blocking client. Thread-safe (one request at a time per client); connects on first use.

    socket_path: default `app.config.default_paths().socket`.
    timeout: seconds to wait for a reply (None: forever). On expiry → `Timeout`, connection closed.

        with Client() as dg:
            dg.hello("my-agent")
            print(dg.act({"type": "type", "text": "hello"})["verdict"])
    """

    def __init__(self, socket_path: Path | str | None = None, *, timeout: float | None = DEFAULT_TIMEOUT_S,
                 connect_timeout: float = 5.0, server_uid: int | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(socket_path, timeout, connect_timeout, server_uid)
        self._sleep = sleep  # waiting out a rate limit (tests pass a clock's advance)
        self._sock: socket.socket | None = None
        self._buf = bytearray()
        self._lock = threading.RLock()

    # -- the protocol's ops --

    def hello(self, agent: str, expect: Any = None, *, versions: Sequence[int] | None = None,
              scope: str | None = None, project: str | os.PathLike[str] | None = None) -> dict[str, Any]:
        """Open a session. Replayed automatically if the client has to reconnect.
        `scope`: the longer-lived conversation this session belongs to (grants cover all its sessions).
        `project`: the directory the agent works on, a work area for its file actions and commands (the
        reply's `work_area`; `project_refused` says why not, e.g. for the home directory itself)."""
        fields = _hello_fields(agent, expect, versions, scope, project)
        reply = self._request("hello", fields)
        self._hello = fields
        return reply

    def act(self, action: Any, execute: bool = True, *, raise_on_deny: bool = False,
            defer: bool = False) -> dict[str, Any]:
        """Ask for one action. Returns the reply (`verdict`: executed | allowed | denied | deferred | error).
        `defer` (with execute=False): a confirm is left to the agent's own prompt (verdict `deferred`)."""
        reply = self._acting("act", _act_fields(action, execute, defer))
        return _verdict_check(reply) if raise_on_deny else reply

    def _acting(self, op: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """A request that acts; refused by a rate limit, it waits `retry_after` and is sent again."""
        waited = 0.0
        while True:
            try:
                return self._request(op, fields)
            except LimitExceeded as err:
                pause = self._limit_pause(err, waited)
                if pause is None:
                    raise
                _log().info("deskgate rate limit: waiting %.1f s before sending %s again", pause, op)
                self._sleep(pause)
                waited += pause

    def perform(self, action: Any, execute: bool = True) -> dict[str, Any]:
        """`act` for code that must not go on after a refusal: raises Denied (or the execution error)."""
        return self.act(action, execute, raise_on_deny=True)

    def plan(self, actions: Sequence[Any], execute: bool = True, *,
             raise_on_deny: bool = False) -> dict[str, Any]:
        reply = self._acting("plan", {"actions": list(actions), "execute": execute})
        return _verdict_check(reply) if raise_on_deny else reply

    def check(self, action: Any) -> dict[str, Any]:
        """The gate's decision only: nothing runs, nobody is asked."""
        return self._request("check", {"action": action})

    def observe(self) -> dict[str, Any]:
        return self._request("observe", {})

    def command(self, text: str, execute: bool = True) -> dict[str, Any]:
        return self._acting("command", {"text": text, "execute": execute})

    def control(self, command: str, reason: str | None = None, *, grant: str | None = None,
                person: str | None = None) -> dict[str, Any]:
        """A person's command: kill, resume, pause, unpause, status, grants, revoke (with `grant`).
        `person="tty"`: the person confirmed on a terminal (resume/unpause need it; app/daemon/person.py)."""
        return self._request("control", {"command": command, "reason": reason, "grant": grant,
                                         "person": person})

    def bye(self) -> dict[str, Any] | None:
        """End the session and disconnect. None if there was no connection to end."""
        with self._lock:
            if self._sock is None:
                return None
            try:
                return self._request("bye", {})
            finally:
                self._hello = None
                self.close()

    def _drop(self) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            sock, self._sock = self._sock, None
            self._buf.clear()
            if sock is not None:
                sock.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self._sock is not None and self._hello is not None:  # only a session has a bye
                self.bye()
        except DeskgateError:
            pass  # the session ends with the connection anyway
        finally:
            self.close()

    # -- plumbing --

    def _request(self, op: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        with self._lock:
            rid, line = self._encode(op, fields)
            reconnected = False
            if self._sock is None and self._hello is None:
                self._connect()
            elif self._sock is None or self._peer_gone():
                self._reconnect()  # the session's hello goes first again
                reconnected = True
            try:
                self._sock_send(line)
            except OSError:
                if reconnected:
                    raise SupervisorUnavailable(f"deskgate at {self.socket_path} closed the connection") from None
                self._raise_pending_error()
                self._reconnect()
                reconnected = True
                try:
                    self._sock_send(line)
                except OSError as err:
                    self.close()
                    raise self._unavailable(err) from None
            try:
                reply = self._read_reply(rid)
            except _Lost:
                self.close()
                if op in _SAFE_TO_RESEND and not reconnected:
                    self._reconnect()
                    try:
                        self._sock_send(line)
                        reply = self._read_reply(rid)
                    except (OSError, _Lost):
                        self.close()
                        raise SupervisorUnavailable(
                            f"deskgate at {self.socket_path} closed the connection") from None
                else:
                    raise ConnectionLost(
                        f"connection to deskgate lost before the reply to {op} {rid!r}; not re-sent") from None
            return self._finish(op, reply)

    def _connect(self) -> None:
        uid = expected_server_uid(self.server_uid)
        check_socket_dir(self.socket_path, uid)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.connect_timeout)
        try:
            sock.connect(str(self.socket_path))
            check_server_peer(sock, uid, self.socket_path)
        except UntrustedServer:
            sock.close()
            raise
        except OSError as err:
            sock.close()
            raise self._unavailable(err) from None
        self._sock = sock
        self._buf.clear()

    def _reconnect(self) -> None:
        """Once per request: a fresh connection, and the session's hello again."""
        self.close()
        self._connect()
        if self._hello is not None:
            _log().info("reconnected to %s; re-sending hello", self.socket_path)
            rid, line = self._encode("hello", self._hello)
            try:
                self._sock_send(line)
                reply = self._read_reply(rid)
            except (OSError, _Lost):
                self.close()
                raise SupervisorUnavailable(f"deskgate at {self.socket_path} closed the connection") from None
            self._finish("hello", reply)

    def _peer_gone(self) -> bool:
        """Between requests: has the supervisor closed our connection? (Then reconnect before sending.)"""
        assert self._sock is not None
        poller = select.poll()  # not select(): it fails on descriptors above 1023
        poller.register(self._sock, select.POLLIN)
        try:
            events = poller.poll(0)
        except OSError:
            return True
        if not events:
            return False
        # Something arrived unasked: an error line before a close (stall timeout, shutdown) or EOF.
        self._raise_pending_error()
        return True

    def _raise_pending_error(self) -> None:
        """Read what the server sent unasked. A refusal (unauthorized, limit) is raised as its error."""
        if self._sock is None:
            return
        try:
            self._sock.setblocking(False)
            data = self._sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            data = b""
        except OSError:
            data = b""
        finally:
            with contextlib.suppress(OSError):
                self._sock.settimeout(self.timeout)
        for raw in (bytes(self._buf) + data).split(b"\n"):
            if not raw.strip():
                continue
            try:
                reply = self._decode_reply(raw)
            except InternalError:
                continue
            if not reply["ok"]:
                err = error_from_reply(reply)
                if isinstance(err, Unauthorized | LimitExceeded | Disabled):
                    self.close()
                    raise err
                _log().info("deskgate said before closing: %s", err)
        self._buf.clear()

    def _sock_send(self, line: bytes) -> None:
        assert self._sock is not None
        self._sock.settimeout(self.timeout)
        self._sock.sendall(line)

    def _read_reply(self, rid: str) -> dict[str, Any]:
        assert self._sock is not None
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        while True:
            nl = self._buf.find(b"\n")
            while nl < 0:
                if len(self._buf) > MAX_REPLY:
                    self.close()
                    raise InternalError(f"reply larger than {MAX_REPLY} bytes")
                if deadline is not None:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        self._timed_out(rid)
                    self._sock.settimeout(remaining)
                try:
                    chunk = self._sock.recv(256 * 1024)
                except TimeoutError:
                    self._timed_out(rid)
                except OSError:
                    raise _Lost() from None
                if not chunk:
                    raise _Lost()
                start = len(self._buf)
                self._buf += chunk
                nl = self._buf.find(b"\n", start)
            raw = bytes(self._buf[:nl])
            del self._buf[: nl + 1]
            if not raw.strip():
                continue
            try:
                reply = self._decode_reply(raw)
            except InternalError:
                self.close()  # the stream is not the protocol: nothing after this can be trusted
                raise
            if self._matches(reply, rid):
                return reply
            _log().warning("ignoring a reply to another request: %r", reply.get("id"))

    def _timed_out(self, rid: str) -> None:
        # The reply may still come; a later request must never take it for its own, so drop the connection.
        self.close()
        raise Timeout(f"no reply to request {rid!r} within {self.timeout:g} s; connection closed")


class _Lost(Exception):
    """The connection ended before the reply (internal: turned into ConnectionLost or a resend)."""


# -- asyncio ----------------------------------------------------------------------------------------


class AsyncClient(_Base):
    """The asyncio twin of `Client` (same methods, awaited). Requests on one client run one at a time.

        async with AsyncClient() as dg:
            await dg.hello("my-agent")
            reply = await dg.act({"type": "scroll", "x": 10, "y": 10, "dy": -3})
    """

    def __init__(self, socket_path: Path | str | None = None, *, timeout: float | None = DEFAULT_TIMEOUT_S,
                 connect_timeout: float = 5.0, server_uid: int | None = None) -> None:
        super().__init__(socket_path, timeout, connect_timeout, server_uid)
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock: asyncio.Lock | None = None

    async def hello(self, agent: str, expect: Any = None, *, versions: Sequence[int] | None = None,
                    scope: str | None = None, project: str | os.PathLike[str] | None = None) -> dict[str, Any]:
        """As Client.hello."""
        fields = _hello_fields(agent, expect, versions, scope, project)
        reply = await self._request("hello", fields)
        self._hello = fields
        return reply

    async def act(self, action: Any, execute: bool = True, *, raise_on_deny: bool = False,
                  defer: bool = False) -> dict[str, Any]:
        """As Client.act."""
        reply = await self._acting("act", _act_fields(action, execute, defer))
        return _verdict_check(reply) if raise_on_deny else reply

    async def _acting(self, op: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """As Client._acting."""
        waited = 0.0
        while True:
            try:
                return await self._request(op, fields)
            except LimitExceeded as err:
                pause = self._limit_pause(err, waited)
                if pause is None:
                    raise
                _log().info("deskgate rate limit: waiting %.1f s before sending %s again", pause, op)
                await asyncio.sleep(pause)
                waited += pause

    async def perform(self, action: Any, execute: bool = True) -> dict[str, Any]:
        return await self.act(action, execute, raise_on_deny=True)

    async def plan(self, actions: Sequence[Any], execute: bool = True, *,
                   raise_on_deny: bool = False) -> dict[str, Any]:
        reply = await self._acting("plan", {"actions": list(actions), "execute": execute})
        return _verdict_check(reply) if raise_on_deny else reply

    async def check(self, action: Any) -> dict[str, Any]:
        return await self._request("check", {"action": action})

    async def observe(self) -> dict[str, Any]:
        return await self._request("observe", {})

    async def command(self, text: str, execute: bool = True) -> dict[str, Any]:
        return await self._acting("command", {"text": text, "execute": execute})

    async def control(self, command: str, reason: str | None = None, *,
                      grant: str | None = None, person: str | None = None) -> dict[str, Any]:
        return await self._request("control", {"command": command, "reason": reason, "grant": grant,
                                               "person": person})

    async def bye(self) -> dict[str, Any] | None:
        if self._writer is None:
            return None
        try:
            return await self._request("bye", {})
        finally:
            self._hello = None
            await self.close()

    def _drop(self) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()

    async def close(self) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            if self._writer is not None and self._hello is not None:
                await self.bye()
        except DeskgateError:
            pass
        finally:
            await self.close()

    async def _request(self, op: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        import asyncio

        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            rid, line = self._encode(op, fields)
            reconnected = False
            if self._writer is None and self._hello is None:
                await self._connect()
            elif self._writer is None or self._peer_gone():
                await self._reconnect()  # the session's hello goes first again
                reconnected = True
            try:
                await self._send(line)
            except OSError:
                if reconnected:
                    raise SupervisorUnavailable(f"deskgate at {self.socket_path} closed the connection") from None
                await self._reconnect()
                reconnected = True
                try:
                    await self._send(line)
                except OSError as err:
                    await self.close()
                    raise self._unavailable(err) from None
            try:
                reply = await self._read_reply(rid)
            except _Lost:
                await self.close()
                if op in _SAFE_TO_RESEND and not reconnected:
                    await self._reconnect()
                    try:
                        await self._send(line)
                        reply = await self._read_reply(rid)
                    except (OSError, _Lost):
                        await self.close()
                        raise SupervisorUnavailable(
                            f"deskgate at {self.socket_path} closed the connection") from None
                else:
                    raise ConnectionLost(
                        f"connection to deskgate lost before the reply to {op} {rid!r}; not re-sent") from None
            return self._finish(op, reply)

    async def _connect(self) -> None:
        import asyncio

        uid = expected_server_uid(self.server_uid)
        check_socket_dir(self.socket_path, uid)
        try:
            async with asyncio.timeout(self.connect_timeout):
                self._reader, self._writer = await asyncio.open_unix_connection(
                    str(self.socket_path), limit=MAX_REPLY)
        except (OSError, TimeoutError) as err:
            self._reader = self._writer = None
            if isinstance(err, OSError) and not isinstance(err, TimeoutError):
                raise self._unavailable(err) from None
            raise SupervisorUnavailable(f"no deskgate answers at {self.socket_path}") from None
        try:
            check_server_peer(self._writer.get_extra_info("socket"), uid, self.socket_path)
        except UntrustedServer:
            self._drop()
            raise

    async def _reconnect(self) -> None:
        await self.close()
        await self._connect()
        if self._hello is not None:
            _log().info("reconnected to %s; re-sending hello", self.socket_path)
            rid, line = self._encode("hello", self._hello)
            try:
                await self._send(line)
                reply = await self._read_reply(rid)
            except (OSError, _Lost):
                await self.close()
                raise SupervisorUnavailable(f"deskgate at {self.socket_path} closed the connection") from None
            self._finish("hello", reply)

    def _peer_gone(self) -> bool:
        # at_eof(): the supervisor closed while we were idle and nothing unread is left. A refusal line
        # sent before a close stays unread and is taken as the next request's (id-less) error reply.
        assert self._reader is not None and self._writer is not None
        return self._writer.is_closing() or self._reader.at_eof()

    async def _send(self, line: bytes) -> None:
        assert self._writer is not None
        self._writer.write(line)
        await self._writer.drain()

    async def _read_reply(self, rid: str) -> dict[str, Any]:
        import asyncio

        assert self._reader is not None
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    try:
                        raw = await self._reader.readuntil(b"\n")
                    except asyncio.IncompleteReadError:
                        raise _Lost() from None
                    except asyncio.LimitOverrunError:
                        await self.close()
                        raise InternalError(f"reply larger than {MAX_REPLY} bytes") from None
                    except OSError:
                        raise _Lost() from None
                    if not raw.strip():
                        continue
                    try:
                        reply = self._decode_reply(raw)
                    except InternalError:
                        self._drop()
                        raise
                    if self._matches(reply, rid):
                        return reply
                    _log().warning("ignoring a reply to another request: %r", reply.get("id"))
        except TimeoutError:
            await self.close()
            raise Timeout(f"no reply to request {rid!r} within {self.timeout:g} s; connection closed") from None

