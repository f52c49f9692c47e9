"""The local socket server: framing, peer check, one thread per connection (DESIGN §4, runtime.md).

The server knows nothing about actions. It accepts connections on a Unix domain socket in a 0700
directory, checks the peer's uid with SO_PEERCRED, cuts the byte stream into lines of at most
`protocol.MAX_LINE`, parses each with `protocol.parse_request`, and hands the typed request to the
connection object the `handler` made for that peer; it writes one reply line per request, in order.
Nothing a client sends (garbage, over-long lines, stalls, disconnects) can crash or block the server or
other clients, and an exception in the handler becomes an `internal` error reply.

Usage::

    class Echo:
        def handle(self, request): return {"op": request.op if hasattr(request, "op") else "?"}
        def close(self): pass

    with Server(Path("/run/user/1000/deskgate/deskgate.sock"), lambda peer: Echo()) as server:
        ...   # serving in a background thread until the block ends

or, as the supervisor does it: `server.start(); server.serve_forever()` and `server.stop()` from
another thread or a signal handler.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import selectors
import socket
import stat
import struct
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from app.errors import DeskgateError
from app.protocol import (
    MAX_LINE,
    Bye,
    Hello,
    Request,
    encode_reply,
    error_reply,
    negotiate_version,
    ok_reply,
    parse_request,
    request_id,
    request_id_from_prefix,
)

__all__ = ["Connection", "Peer", "Server", "ServerError"]

log = logging.getLogger("deskgate.server")

_UNIX_PATH_MAX = 107  # sun_path is 108 bytes including the terminating NUL (Linux)
_RECV = 256 * 1024
_PREFIX_KEEP = 64 * 1024  # of an over-long line, what we keep to find its id
_PEERCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


@dataclasses.dataclass(frozen=True)
class Peer:
    """The process at the other end of a connection, as the kernel reports it (not as it claims)."""

    pid: int
    uid: int
    gid: int


class Connection(Protocol):
    """What `handler(peer)` returns: the supervisor's per-connection session."""

    def handle(self, request: Request) -> Mapping[str, Any]:
        """The reply body (without `id`/`ok`), or raise DeskgateError for an error reply."""
        ...

    def close(self) -> None:
        """The peer went away (or the server stops): end the session. Called exactly once."""
        ...


class ServerError(OSError):
    """The server cannot start: another deskgate is running, or the socket directory is unsafe."""


def _peer_of(sock: socket.socket) -> Peer:
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size)
    return Peer(*_PEERCRED.unpack(raw))


class _Client:
    """One accepted connection: its socket, peer, and (made on its first request) the handler's session."""

    def __init__(self, sock: socket.socket, peer: Peer, number: int) -> None:
        self.sock = sock
        self.peer = peer
        self.number = number
        self.conn: Connection | None = None
        self.thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False

    def open_session(self, handler: Callable[[Peer], Connection]) -> Connection:
        """The handler's Connection for this peer; never one that outlives close_session()."""
        with self._lock:
            if self._closed:
                raise DeskgateError("internal", "deskgate is shutting down; the action did not run")
        conn = handler(self.peer)
        with self._lock:
            if not self._closed:
                self.conn = conn
                return conn
        conn.close()  # stop() closed this client while the handler was making its session
        raise DeskgateError("internal", "deskgate is shutting down; the action did not run")

    def close_session(self) -> None:
        """Connection.close(), exactly once, whoever gets here first (the thread or Server.stop)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            conn = self.conn
        if conn is not None:
            try:
                conn.close()
            except Exception:
                log.exception("closing the session of %s failed", self.peer)

    def shutdown(self) -> None:
        # shutdown() wakes a thread blocked in recv/send on this socket; close() alone would not.
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)


class Server:
    """A Unix domain socket server for protocol v1. See the module docstring.

    socket_path: where to listen (default: `app.config.default_paths().socket`).
    handler: called with the Peer on a connection's first request; returns its Connection.
    on_refused: called with the Peer of a connection from another uid (the supervisor logs an event).
    read_timeout_s: a request line must arrive whole within this time of its first byte; a client that
        stalls mid-line gets a `timeout` error line and is disconnected. Idle clients (no partial line)
        are not timed out. Also bounds how long a reply may wait for a client that does not read.
    max_clients: connections beyond this get a `limit` error line and are closed.
    allowed_uid: the person's uid (default: ours). Injectable for tests.
    agent_uids / agent_gids: other users (by uid, or primary gid) whose agents may connect too. With any,
        the directory becomes 0711 and the socket 0666 so they can reach it; SO_PEERCRED still admits
        only the person and these (policy `[agents]`, resolved by `app.config.agent_ids`).
    idle_timeout_s: a connection with no request in flight for this long gets a `timeout` error line and
        is closed (its session ends). None: idle connections stay.
    dir_mode: the socket directory's mode when another server shares the directory (0700 or 0711).
    on_socket_lost: called (with a message) when the socket path stops being the socket this server bound
        (deleted, or another listener put there): checked every `watch_s` seconds; the server then binds the
        path again so its clients reach it, and the caller treats the swap as an attack (it kills).
    """

    def __init__(
        self,
        socket_path: Path | str | None,
        handler: Callable[[Peer], Connection],
        *,
        on_refused: Callable[[Peer], None] | None = None,
        read_timeout_s: float = 10.0,
        max_clients: int = 64,
        allowed_uid: int | None = None,
        agent_uids: Iterable[int] = (),
        agent_gids: Iterable[int] = (),
        idle_timeout_s: float | None = None,
        dir_mode: int | None = None,
        on_socket_lost: Callable[[str], None] | None = None,
        watch_s: float = 1.0,
    ) -> None:
        if socket_path is None:
            from app.config import default_paths

            socket_path = default_paths().socket
        if read_timeout_s <= 0:
            raise ValueError("read_timeout_s must be positive")
        if max_clients < 1:
            raise ValueError("max_clients must be at least 1")
        if idle_timeout_s is not None and idle_timeout_s <= 0:
            raise ValueError("idle_timeout_s must be positive")
        self.socket_path = Path(socket_path)
        self.handler = handler
        self.on_refused = on_refused
        self.read_timeout_s = float(read_timeout_s)
        self.max_clients = int(max_clients)
        self.allowed_uid = os.geteuid() if allowed_uid is None else int(allowed_uid)
        self.agent_uids = frozenset(int(u) for u in agent_uids)
        self.agent_gids = frozenset(int(g) for g in agent_gids)
        self.idle_timeout_s = None if idle_timeout_s is None else float(idle_timeout_s)
        self.dir_mode = dir_mode
        self.on_socket_lost = on_socket_lost
        self.watch_s = float(watch_s)
        self._listener: socket.socket | None = None
        self._inode: tuple[int, int] | None = None
        self._clients: dict[int, _Client] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._loop_done = threading.Event()
        self._loop_done.set()
        self._wake_r, self._wake_w = -1, -1
        self._count = 0
        self._bg: threading.Thread | None = None
        self._loop_thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self) -> None:
        """Bind and listen: directory 0700, socket 0600. Removes a stale socket; raises ServerError if a
        live deskgate answers at the path or the directory is not safely ours."""
        if self._listener is not None:
            raise RuntimeError("server already started")
        if not hasattr(socket, "SO_PEERCRED"):
            # Without the kernel's word on who connects we cannot keep other users out: do not serve.
            raise ServerError("this platform does not report peer credentials (SO_PEERCRED); not serving")
        path = self.socket_path
        if len(os.fsencode(path)) > _UNIX_PATH_MAX:
            raise ServerError(f"socket path is too long for a Unix socket ({len(os.fsencode(path))} bytes): {path}")
        shared = bool(self.agent_uids or self.agent_gids)
        mode = self.dir_mode if self.dir_mode is not None else (0o711 if shared else 0o700)
        _prepare_dir(path.parent, mode)
        _clear_stale(path)
        sock = self._bind()
        self._listener = sock
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._stopping.clear()
        log.info("listening on %s", path)

    def _bind(self) -> socket.socket:
        path = self.socket_path
        shared = bool(self.agent_uids or self.agent_gids)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            try:
                sock.bind(str(path))
            except OSError as err:
                if err.errno in (98, 48):  # EADDRINUSE: someone bound it since we looked
                    raise ServerError(f"another deskgate is running at {path}") from None
                raise
            # The directory is 0700 (or 0711: no listing) already; SO_PEERCRED is the check that counts.
            os.chmod(path, 0o666 if shared else 0o600)
            st = os.stat(path)
            self._inode = (st.st_dev, st.st_ino)
            sock.listen(min(socket.SOMAXCONN, 128))
            sock.setblocking(False)
        except BaseException:
            sock.close()
            raise
        return sock

    def _socket_lost(self) -> str | None:
        """Why the path is no longer this server's socket (None while it is)."""
        try:
            st = os.lstat(self.socket_path)
        except FileNotFoundError:
            return f"deskgate's socket {self.socket_path} was deleted"
        except OSError as err:
            return f"deskgate's socket {self.socket_path} cannot be checked ({err.strerror or err})"
        if (st.st_dev, st.st_ino) != self._inode:
            return f"deskgate's socket {self.socket_path} was replaced by another file or listener"
        return None

    def _watch(self, sel: selectors.BaseSelector) -> None:
        """A deleted or replaced socket: tell the owner (it kills), then take the path back."""
        why = self._socket_lost()
        if why is None or self._stopping.is_set():
            return
        log.error("%s; taking it back", why)
        if self.on_socket_lost is not None:
            try:
                self.on_socket_lost(why)
            except Exception:
                log.exception("on_socket_lost failed")
        try:
            st = os.lstat(self.socket_path)
            if stat.S_ISSOCK(st.st_mode):
                os.unlink(self.socket_path)  # an impostor's listener: its clients go nowhere now
        except FileNotFoundError:
            pass
        except OSError as err:
            log.error("cannot remove what took %s: %s", self.socket_path, err)
            return
        try:
            new = self._bind()
        except (OSError, ServerError) as err:
            log.error("cannot bind %s again: %s", self.socket_path, err)
            return
        old, self._listener = self._listener, new
        if old is not None:
            with contextlib.suppress(KeyError, ValueError):
                sel.unregister(old)
            old.close()
        sel.register(new, selectors.EVENT_READ)

    def serve_forever(self) -> None:
        """Accept connections until stop(). Each connection gets its own thread."""
        listener = self._listener
        if listener is None:
            raise RuntimeError("call start() first")
        self._loop_thread = threading.current_thread()
        self._loop_done.clear()
        sel = selectors.DefaultSelector()
        try:
            sel.register(listener, selectors.EVENT_READ)
            sel.register(self._wake_r, selectors.EVENT_READ)
            next_watch = time.monotonic() + self.watch_s
            while not self._stopping.is_set():
                for key, _ in sel.select(timeout=self.watch_s):
                    if key.fileobj == self._wake_r or self._stopping.is_set():
                        continue
                    self._accept_ready(key.fileobj)  # type: ignore[arg-type]
                if time.monotonic() >= next_watch:
                    next_watch = time.monotonic() + self.watch_s
                    self._watch(sel)
        finally:
            sel.close()
            self._loop_thread = None
            self._loop_done.set()
            if self._stopping.is_set():
                self._close_wake()

    def stop(self, *, join_timeout_s: float = 2.0) -> None:
        """Stop accepting, close and unlink the socket, disconnect every client and close its session.

        Safe to call more than once and from any thread: a connection's handler, or a signal handler
        that interrupts serve_forever on its own thread."""
        with self._lock:
            if self._stopping.is_set() and self._listener is None:
                return
            self._stopping.set()
        if self._wake_w >= 0:
            with contextlib.suppress(OSError):
                os.write(self._wake_w, b"x")
        me = threading.current_thread()
        on_loop = self._loop_thread is me
        if not on_loop:
            self._loop_done.wait(join_timeout_s)
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
            self._unlink_own_socket()
        with self._lock:
            clients = list(self._clients.values())
        for client in clients:
            client.shutdown()
        deadline = time.monotonic() + join_timeout_s
        for client in clients:
            if client.thread is not None and client.thread is not me:
                client.thread.join(max(0.0, deadline - time.monotonic()))
            # A handler still busy (e.g. waiting for a person) does not keep the session open.
            client.close_session()
        if self._loop_done.is_set():
            self._close_wake()  # else serve_forever closes it on its way out (it may still select on it)
        if self._bg is not None and self._bg is not me:
            self._bg.join(join_timeout_s)
        self._bg = None
        log.info("stopped serving on %s", self.socket_path)

    def _close_wake(self) -> None:
        with self._lock:
            fds, (self._wake_r, self._wake_w) = (self._wake_r, self._wake_w), (-1, -1)
        for fd in fds:
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def __enter__(self) -> Server:
        """start() and serve in a background thread; the block's end calls stop()."""
        self.start()
        self._bg = threading.Thread(target=self.serve_forever, name="deskgate-accept", daemon=True)
        self._bg.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def client_count(self) -> int:
        with self._lock:
            return len(self._clients)

    def _unlink_own_socket(self) -> None:
        # Only remove the socket if it is still the one we bound (a successor may have replaced it).
        try:
            st = os.lstat(self.socket_path)
        except FileNotFoundError:
            return
        if (st.st_dev, st.st_ino) == self._inode:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.socket_path)

    # -- accepting ---------------------------------------------------------------------------------

    def _accept_ready(self, listener: socket.socket) -> None:
        while not self._stopping.is_set():
            try:
                sock, _ = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as err:
                # EMFILE and friends: keep serving the clients we have; try again on the next event.
                log.error("accept failed: %s", err)
                time.sleep(0.05)
                return
            self._admit(sock)

    def _admit(self, sock: socket.socket) -> None:
        sock.setblocking(True)
        try:
            peer = _peer_of(sock)
        except OSError as err:
            log.error("cannot read peer credentials, refusing the connection: %s", err)
            sock.close()
            return
        if not self.admits(peer):
            log.warning("refused a connection from pid %d uid %d", peer.pid, peer.uid)
            # Reported before the refusal goes out: once the peer sees it, the event is on record.
            if self.on_refused is not None:
                try:
                    self.on_refused(peer)
                except Exception:
                    log.exception("on_refused callback failed")
            _refuse(sock, DeskgateError("unauthorized", f"uid {peer.uid} may not use this deskgate"))
            return
        with self._lock:
            if self._stopping.is_set():
                sock.close()
                return
            if len(self._clients) >= self.max_clients:
                full = True
            else:
                full = False
                self._count += 1
                client = _Client(sock, peer, self._count)
                self._clients[client.number] = client
        if full:
            log.warning("refused pid %d: %d clients connected already", peer.pid, self.max_clients)
            _refuse(sock, DeskgateError("limit", f"too many connections (at most {self.max_clients})"))
            return
        client.thread = threading.Thread(
            target=self._serve_client, args=(client,), name=f"deskgate-conn-{client.number}", daemon=True
        )
        client.thread.start()

    def admits(self, peer: Peer) -> bool:
        """The person, or an agent user named in the policy."""
        return peer.uid == self.allowed_uid or peer.uid in self.agent_uids or peer.gid in self.agent_gids

    # -- one connection ----------------------------------------------------------------------------

    def _serve_client(self, client: _Client) -> None:
        try:
            self._read_loop(client)
        except Exception:
            log.exception("connection %d (pid %d) failed", client.number, client.peer.pid)
        finally:
            client.shutdown()
            client.sock.close()
            client.close_session()
            with self._lock:
                self._clients.pop(client.number, None)

    def _read_loop(self, client: _Client) -> None:
        sock = client.sock
        buf = bytearray()          # the partial line so far
        discarding = False         # inside an over-long line: dropping bytes up to its newline
        prefix = b""               # the start of that over-long line, to find its id
        dropped = 0
        line_deadline = 0.0
        while not self._stopping.is_set():
            partial = bool(buf) or discarding
            if partial:
                remaining = line_deadline - time.monotonic()
                if remaining <= 0:
                    self._stalled(client)
                    return
                sock.settimeout(remaining)
            else:
                # between requests: an idle connection holds a slot, so it may idle only so long
                sock.settimeout(self.idle_timeout_s)
            try:
                chunk = sock.recv(_RECV)
            except TimeoutError:
                if partial:
                    self._stalled(client)
                else:
                    self._idle(client)
                return
            except OSError:
                return
            if not chunk:
                return  # EOF: a partial line is dropped, never executed
            start = 0
            while True:
                nl = chunk.find(b"\n", start)
                if nl < 0:
                    rest = chunk[start:]
                    if not rest:
                        break
                    if not partial:
                        line_deadline = time.monotonic() + self.read_timeout_s
                    if discarding:
                        dropped += len(rest)
                    else:
                        buf += rest
                        if len(buf) > MAX_LINE:
                            discarding, prefix, dropped = True, bytes(buf[:_PREFIX_KEEP]), len(buf)
                            buf = bytearray()
                    break
                piece = chunk[start:nl]
                start = nl + 1
                if discarding:
                    size = dropped + len(piece)
                    discarding, dropped = False, 0
                    err = DeskgateError("too_large", f"request line is {size} bytes; the limit is {MAX_LINE}")
                    keep = self._send(client, error_reply(request_id_from_prefix(prefix), err))
                    prefix = b""
                else:
                    if buf:
                        buf += piece
                        line, buf = bytes(buf), bytearray()
                    else:
                        line = piece
                    keep = self._one_line(client, line)
                partial = False
                if not keep:
                    return

    def _stalled(self, client: _Client) -> None:
        log.warning("connection %d (pid %d) stalled mid-line; disconnecting", client.number, client.peer.pid)
        err = DeskgateError(
            "timeout", f"request line not completed within {self.read_timeout_s:g} s; disconnecting"
        )
        self._send(client, error_reply(None, err))

    def _idle(self, client: _Client) -> None:
        log.info("connection %d (pid %d) idle for %g s; disconnecting", client.number, client.peer.pid,
                 self.idle_timeout_s or 0)
        err = DeskgateError("timeout", f"no request for {self.idle_timeout_s:g} s (limit idle_timeout_s); "
                                       "disconnecting, the session ends")
        self._send(client, error_reply(None, err))

    def _one_line(self, client: _Client, line: bytes) -> bool:
        """Handle one complete line. False when the connection should end (bye, or the peer is gone)."""
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip():
            return True  # blank lines are keep-alives, not requests
        try:
            req = parse_request(line)
        except DeskgateError as err:
            return self._send(client, error_reply(request_id(line), err))
        reply = self._dispatch(client, req)
        keep = self._send(client, reply)
        return keep and not isinstance(req, Bye)

    def _dispatch(self, client: _Client, req: Request) -> dict[str, Any]:
        try:
            version = negotiate_version(req) if isinstance(req, Hello) else None
            conn = client.conn if client.conn is not None else client.open_session(self.handler)
            body = conn.handle(req)
            if not isinstance(body, Mapping):
                raise TypeError(f"handler returned {type(body).__name__}, not a mapping")
            reply = ok_reply(req.id, body)
            if version is not None:
                reply["v"] = version
            return reply
        except DeskgateError as err:
            return error_reply(req.id, err)
        except Exception:
            log.exception("handler failed on %s request %r from pid %d", type(req).__name__, req.id,
                          client.peer.pid)
            return error_reply(req.id, DeskgateError("internal", "internal error; the action did not run"))

    def _send(self, client: _Client, reply: Mapping[str, Any]) -> bool:
        try:
            data = encode_reply(reply)
        except Exception:
            log.exception("reply to %r could not be encoded", reply.get("id"))
            data = encode_reply(error_reply(reply.get("id"), DeskgateError("internal", "reply could not be encoded")))
        try:
            # A client that does not read its replies must not hold this thread forever.
            client.sock.settimeout(self.read_timeout_s)
            client.sock.sendall(data)
        except OSError:
            return False
        return True


def _prepare_dir(directory: Path, mode: int = 0o700) -> None:
    """The socket directory: ours, a real directory, not shared, `mode` (fixed if it is ours and wider)."""
    parent = directory.parent
    if not parent.exists():
        parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.mkdir(directory, 0o700)
    st = os.lstat(directory)
    shared_dir_problem = _shared_dir(st)
    if stat.S_ISLNK(st.st_mode):
        raise ServerError(f"socket directory {directory} is a symbolic link; refusing to use it")
    if not stat.S_ISDIR(st.st_mode):
        raise ServerError(f"socket directory {directory} exists and is not a directory")
    if st.st_uid != os.geteuid():
        raise ServerError(f"socket directory {directory} belongs to uid {st.st_uid}, not to us ({os.geteuid()})")
    if shared_dir_problem:
        # A shared directory (like /tmp) is never ours to tighten: others' files live there.
        raise ServerError(f"socket directory {directory} is {shared_dir_problem}; refusing to use or chmod it — "
                          "give deskgate a directory of its own (e.g. $XDG_RUNTIME_DIR/deskgate)")
    if stat.S_IMODE(st.st_mode) != mode:
        os.chmod(directory, mode)


def _shared_dir(st: os.stat_result) -> str | None:
    """Why a directory looks shared with other users (sticky, or writable by others), or None."""
    if st.st_mode & stat.S_ISVTX:
        return "a shared directory (sticky bit set)"
    if st.st_mode & stat.S_IWOTH:
        return "writable by every user"
    return None


def _clear_stale(path: Path) -> None:
    """Remove a socket left by a dead deskgate; raise if a live one answers there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(st.st_mode):
        raise ServerError(f"{path} exists and is not a socket; not touching it")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(str(path))
    except ConnectionRefusedError:
        log.info("removing stale socket %s", path)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    except FileNotFoundError:
        return
    except (TimeoutError, BlockingIOError):
        # Its backlog is full: it is alive, just busy.
        raise ServerError(f"another deskgate is running at {path} (busy)") from None
    finally:
        probe.close()
    raise ServerError(f"another deskgate is running at {path}")


def _refuse(sock: socket.socket, err: DeskgateError) -> None:
    """One error line and close; never blocks the accept loop for long."""
    try:
        sock.settimeout(0.5)
        sock.sendall(encode_reply(error_reply(None, err)))
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()
