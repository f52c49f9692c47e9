"""The socket server with a fake handler: permissions, stale/live sockets, framing, limits, failures."""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import stat
import tempfile
import threading
import time
from pathlib import Path

import pytest

from app.daemon.server import Peer, Server, ServerError
from app.errors import DeskgateError
from app.protocol import MAX_LINE

# -- a fake supervisor -----------------------------------------------------------------------------


class FakeConn:
    """Echoes the op; `tool` actions steer it: crash, refuse, sleep, bad reply."""

    def __init__(self, peer: Peer, log: list) -> None:
        self.peer = peer
        self.log = log
        self.closed = 0
        self.seen: list[str] = []

    def handle(self, req):
        op = req.__struct_config__.tag
        self.seen.append(req.id)
        if op == "act" and req.action.type == "tool":
            name = req.action.input.get("do") if req.action.input else None
            if name == "crash":
                raise RuntimeError("boom in the handler")
            if name == "refuse":
                raise DeskgateError("killed", "kill switch is on")
            if name == "sleep":
                time.sleep(req.action.input["s"])
            if name == "not-a-dict":
                return ["nope"]
        return {"echo": op, "pid": self.peer.pid}

    def close(self) -> None:
        self.closed += 1
        self.log.append(("closed", self))


class Factory:
    def __init__(self) -> None:
        self.conns: list[FakeConn] = []
        self.log: list = []
        self.refuse_with: DeskgateError | None = None

    def __call__(self, peer: Peer) -> FakeConn:
        if self.refuse_with is not None:
            raise self.refuse_with
        conn = FakeConn(peer, self.log)
        self.conns.append(conn)
        return conn


_OPEN: list[socket.socket] = []


@pytest.fixture(autouse=True)
def _close_raw_sockets():
    yield
    while _OPEN:
        _OPEN.pop().close()


class Raw:
    """A bare socket client: send bytes, read reply lines."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        _OPEN.append(self.sock)
        self.sock.connect(str(path))
        self.sock.settimeout(5)
        self.buf = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def req(self, rid: str, op: str = "observe", **fields) -> None:
        self.send(json.dumps({"v": 1, "id": rid, "op": op, **fields}).encode() + b"\n")

    def line(self) -> dict:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError(self.buf)
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\n", 1)
        return json.loads(raw)

    def eof(self, timeout: float = 5) -> bool:
        self.sock.settimeout(timeout)
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
                self.buf += chunk
        except (TimeoutError, ConnectionResetError):
            return False

    def close(self) -> None:
        self.sock.close()


def tool(do: str, **extra) -> dict:
    return {"type": "tool", "name": "t", "input": {"do": do, **extra}}


@pytest.fixture
def short_dir():
    # tmp_path can exceed the 107-byte limit of a Unix socket path.
    d = Path(tempfile.mkdtemp(prefix="dg-"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def sock_path(short_dir):
    return short_dir / "run" / "deskgate.sock"


@pytest.fixture
def factory():
    return Factory()


@pytest.fixture
def server(sock_path, factory):
    srv = Server(sock_path, factory, read_timeout_s=5)
    with srv:
        yield srv


def wait_for(pred, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.01)
    return False


# -- files and permissions -------------------------------------------------------------------------


def test_directory_0700_and_socket_0600(server, sock_path):
    assert stat.S_IMODE(os.stat(sock_path.parent).st_mode) == 0o700
    st = os.lstat(sock_path)
    assert stat.S_ISSOCK(st.st_mode)
    assert stat.S_IMODE(st.st_mode) == 0o600


def test_a_wider_directory_of_ours_is_tightened(sock_path, factory):
    sock_path.parent.mkdir(mode=0o755)
    os.chmod(sock_path.parent, 0o755)
    with Server(sock_path, factory):
        assert stat.S_IMODE(os.stat(sock_path.parent).st_mode) == 0o700


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to chown a directory to another uid")
def test_a_directory_of_another_uid_is_refused(sock_path, factory):
    sock_path.parent.mkdir(mode=0o700)
    os.chown(sock_path.parent, 65534, 65534)
    with pytest.raises(ServerError, match="belongs to uid 65534"):
        Server(sock_path, factory).start()
    assert not sock_path.exists()


def test_a_symlinked_directory_is_refused(short_dir, factory):
    real = short_dir / "real"
    real.mkdir(mode=0o700)
    (short_dir / "run").symlink_to(real)
    with pytest.raises(ServerError, match="symbolic link"):
        Server(short_dir / "run" / "deskgate.sock", factory).start()


def test_a_regular_file_at_the_socket_path_is_left_alone(sock_path, factory):
    sock_path.parent.mkdir(mode=0o700)
    sock_path.write_text("mine")
    with pytest.raises(ServerError, match="not a socket"):
        Server(sock_path, factory).start()
    assert sock_path.read_text() == "mine"


def test_a_too_long_path_is_a_clear_error(short_dir, factory):
    with pytest.raises(ServerError, match="too long"):
        Server(short_dir / ("x" * 120) / "s.sock", factory).start()


def test_default_path_is_the_runtime_dir(factory):
    from app.config import default_paths

    assert Server(None, factory).socket_path == default_paths().socket


# -- one supervisor per user -----------------------------------------------------------------------


def test_stale_socket_is_removed(sock_path, factory):
    sock_path.parent.mkdir(mode=0o700)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(sock_path))  # bound, never listening, then gone: what a killed process leaves
    dead.close()
    assert sock_path.exists()
    with Server(sock_path, factory):
        c = Raw(sock_path)
        c.req("1")
        assert c.line()["ok"] is True


def test_a_live_supervisor_is_detected_and_keeps_running(server, sock_path, factory):
    with pytest.raises(ServerError, match=f"another deskgate is running at {sock_path}"):
        Server(sock_path, Factory()).start()
    assert sock_path.exists()
    c = Raw(sock_path)
    c.req("still-there")
    assert c.line() == {"id": "still-there", "ok": True, "echo": "observe", "pid": os.getpid()}


def test_stop_unlinks_closes_clients_and_sessions(sock_path, factory):
    srv = Server(sock_path, factory)
    srv.__enter__()
    clients = [Raw(sock_path) for _ in range(3)]
    for i, c in enumerate(clients):
        c.req(str(i))
        assert c.line()["ok"]
    idle = Raw(sock_path)  # connected, never asked anything: no session was made for it
    assert wait_for(lambda: srv.client_count == 4)
    srv.stop()
    assert not sock_path.exists()
    assert all(c.eof() for c in [*clients, idle])
    assert [conn.closed for conn in factory.conns] == [1, 1, 1]
    srv.stop()  # idempotent
    assert [conn.closed for conn in factory.conns] == [1, 1, 1]


def test_stop_does_not_wait_forever_for_a_busy_handler(sock_path, factory):
    srv = Server(sock_path, factory)
    srv.__enter__()
    c = Raw(sock_path)
    c.req("slow", "act", action=tool("sleep", s=3))
    assert wait_for(lambda: factory.conns and factory.conns[0].seen)
    t0 = time.monotonic()
    srv.stop(join_timeout_s=0.3)
    assert time.monotonic() - t0 < 2
    assert factory.conns[0].closed == 1  # the session ends even while its handler is still busy
    time.sleep(3.2)  # let the handler finish: it must not close the session a second time
    assert factory.conns[0].closed == 1


def test_stop_leaves_a_successors_socket_alone(sock_path, factory):
    srv = Server(sock_path, factory)
    srv.__enter__()
    os.unlink(sock_path)
    other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    other.bind(str(sock_path))
    try:
        srv.stop()
        assert sock_path.exists()
    finally:
        other.close()


# -- requests and replies --------------------------------------------------------------------------


def test_hello_negotiates_the_version_and_handler_sees_the_real_peer(server, sock_path, factory):
    c = Raw(sock_path)
    c.req("h", "hello", agent="a", versions=[1, 2])
    assert c.line() == {"id": "h", "ok": True, "echo": "hello", "pid": os.getpid(), "v": 1}
    assert factory.conns[0].peer == Peer(os.getpid(), os.getuid(), os.getgid())


def test_hello_without_a_common_version_is_unsupported(server, sock_path, factory):
    c = Raw(sock_path)
    c.req("h", "hello", agent="a", versions=[2])
    reply = c.line()
    assert (reply["id"], reply["error"]["code"]) == ("h", "unsupported")
    c.send(b'{"v":2,"id":"h2","op":"hello","agent":"a"}\n')
    assert c.line()["error"]["code"] == "unsupported"
    assert all(not conn.seen for conn in factory.conns)  # the handler never saw them


def test_bad_lines_get_errors_with_the_id_when_known(server, sock_path):
    c = Raw(sock_path)
    c.send(b"this is not json\n")
    r = c.line()
    assert (r["id"], r["ok"], r["error"]["code"]) == (None, False, "bad_request")
    c.send(b'{"v":1,"id":"u1","op":"teleport"}\n')
    r = c.line()
    assert (r["id"], r["ok"], r["error"]["code"]) == ("u1", False, "unknown_op")
    c.send(b'{"v":1,"id":"u2","op":"observe","extra":1}\n')
    r = c.line()
    assert (r["id"], r["error"]["code"]) == ("u2", "bad_request") and "extra" in r["error"]["message"]
    c.send(b'{"v":1,"id":"u3","op":"observe","x":"\xff"}\n')
    r = c.line()
    assert (r["id"], r["error"]["code"]) == ("u3", "bad_request") and "UTF-8" in r["error"]["message"]
    c.send(b"[1,2,3]\n")
    assert c.line()["id"] is None
    c.req("fine")
    assert c.line()["ok"] is True


def test_invalid_json_reply_is_id_null_bad_request(server, sock_path):
    c = Raw(sock_path)
    c.send(b"{nope\n")
    r = c.line()
    assert r["id"] is None and r["ok"] is False and r["error"]["code"] == "bad_request"
    assert "JSON" in r["error"]["message"]


def test_blank_lines_and_crlf_are_tolerated(server, sock_path):
    c = Raw(sock_path)
    c.send(b"\n\r\n   \n" + b'{"v":1,"id":"crlf","op":"observe"}\r\n')
    assert c.line()["id"] == "crlf"


def test_pipelined_requests_in_one_packet(server, sock_path):
    c = Raw(sock_path)
    c.send(b"".join(json.dumps({"v": 1, "id": str(i), "op": "observe"}).encode() + b"\n" for i in range(100)))
    assert [c.line()["id"] for _ in range(100)] == [str(i) for i in range(100)]


def test_a_line_split_into_single_bytes_is_reassembled(server, sock_path):
    c = Raw(sock_path)
    for b in b'{"v":1,"id":"slow","op":"observe"}\n':
        c.send(bytes([b]))
    assert c.line()["id"] == "slow"


def test_oversize_line_is_answered_and_the_connection_stays_usable(server, sock_path):
    c = Raw(sock_path)
    head = b'{"v":1,"id":"big","op":"act","action":{"type":"tool","name":"x","input":{"b":"'
    c.send(head)
    chunk = b"a" * 65536
    for _ in range(MAX_LINE // len(chunk) + 4):  # well past the limit, sent in pieces
        c.send(chunk)
    c.send(b'"}}}\n')
    r = c.line()
    assert (r["id"], r["ok"], r["error"]["code"]) == ("big", False, "too_large")
    assert str(MAX_LINE) in r["error"]["message"]
    c.req("next")
    assert c.line() == {"id": "next", "ok": True, "echo": "observe", "pid": os.getpid()}


def test_oversize_line_without_a_recoverable_id(server, sock_path):
    c = Raw(sock_path)
    c.send(b"x" * (MAX_LINE + 1) + b"\n")
    r = c.line()
    assert (r["id"], r["error"]["code"]) == (None, "too_large")
    c.req("after")
    assert c.line()["id"] == "after"


def test_each_connection_gets_its_replies_in_order(server, sock_path):
    results: dict[int, list[str]] = {}

    def agent(n: int) -> None:
        c = Raw(sock_path)
        ids = [f"{n}-{i}" for i in range(40)]
        for i, rid in enumerate(ids):
            # Mixed slow and fast requests, pipelined: a fast one must not overtake a slow one.
            if i % 7 == 0:
                c.req(rid, "act", action=tool("sleep", s=0.01 * (n % 3)))
            else:
                c.req(rid)
        results[n] = [c.line()["id"] for _ in ids]
        c.close()

    threads = [threading.Thread(target=agent, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == list(range(8))
    for n, got in results.items():
        assert got == [f"{n}-{i}" for i in range(40)]


def test_a_slow_request_does_not_hold_up_other_clients(server, sock_path):
    slow = Raw(sock_path)
    slow.req("slow", "act", action=tool("sleep", s=1.5))
    time.sleep(0.05)
    fast = Raw(sock_path)
    t0 = time.monotonic()
    fast.req("fast")
    assert fast.line()["id"] == "fast"
    assert time.monotonic() - t0 < 0.5
    assert slow.line()["id"] == "slow"


def test_stalled_client_is_disconnected_while_others_are_served(sock_path, factory):
    with Server(sock_path, factory, read_timeout_s=0.4):
        stalled = Raw(sock_path)
        stalled.send(b'{"v":1,"id":"half","op":"obs')
        idle = Raw(sock_path)  # no partial line: may stay as long as it likes
        other = Raw(sock_path)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 0.8:
            other.req("x")
            assert other.line()["id"] == "x"
            time.sleep(0.05)
        r = stalled.line()
        assert (r["id"], r["ok"], r["error"]["code"]) == (None, False, "timeout")
        assert stalled.eof()
        idle.req("still-here")
        assert idle.line()["id"] == "still-here"


def test_a_line_trickled_within_the_deadline_is_fine_but_not_forever(sock_path, factory):
    with Server(sock_path, factory, read_timeout_s=0.5):
        c = Raw(sock_path)
        c.send(b'{"v":1,')
        time.sleep(0.2)
        c.send(b'"id":"ok","op":"observe"}\n')
        assert c.line()["id"] == "ok"
        # Slow-loris: a byte every 0.2 s never completes the line; the deadline counts from its first byte.
        t0 = time.monotonic()
        with pytest.raises((EOFError, BrokenPipeError, ConnectionResetError)):
            for b in b'{"v":1,"id":"drip","op":"observe","pad":"' + b"a" * 100:
                c.send(bytes([b]))
                time.sleep(0.2)
                if c.eof(0.001):
                    raise EOFError
        assert time.monotonic() - t0 < 2
        assert c.line()["error"]["code"] == "timeout"


def test_a_client_that_disconnects_mid_request_ends_its_session(server, sock_path, factory):
    c = Raw(sock_path)
    c.req("a")
    c.line()
    c.send(b'{"v":1,"id":"partial"')
    c.close()
    assert wait_for(lambda: factory.conns[0].closed == 1)
    assert factory.conns[0].seen == ["a"]  # the partial line never reached the handler


def test_bye_replies_then_closes(server, sock_path, factory):
    c = Raw(sock_path)
    c.req("b", "bye")
    assert c.line() == {"id": "b", "ok": True, "echo": "bye", "pid": os.getpid()}
    assert c.eof()
    assert wait_for(lambda: factory.conns[0].closed == 1)


# -- peers -----------------------------------------------------------------------------------------


def test_another_uid_is_refused_and_reported(sock_path, factory):
    refused: list[Peer] = []
    with Server(sock_path, factory, on_refused=refused.append, allowed_uid=os.getuid() + 1):
        c = Raw(sock_path)
        r = c.line()
        assert (r["id"], r["ok"], r["error"]["code"]) == (None, False, "unauthorized")
        assert c.eof()
        assert refused == [Peer(os.getpid(), os.getuid(), os.getgid())]
        assert factory.conns == []  # no session for it


def test_a_failing_on_refused_callback_does_not_stop_the_server(sock_path, factory):
    def explode(peer):
        raise RuntimeError("log write failed")

    with Server(sock_path, factory, on_refused=explode, allowed_uid=os.getuid() + 1):
        for _ in range(2):
            c = Raw(sock_path)
            assert c.line()["error"]["code"] == "unauthorized"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as a second uid")
def test_a_real_second_uid_is_refused(sock_path, factory):
    refused: list[Peer] = []
    with Server(sock_path, factory, on_refused=refused.append):
        # Open the file permissions so only SO_PEERCRED stands between uid 65534 and the server.
        os.chmod(sock_path.parent.parent, 0o711)
        os.chmod(sock_path.parent, 0o777)
        os.chmod(sock_path, 0o777)
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: become nobody and try
            try:
                os.close(rfd)
                os.setgid(65534)
                os.setuid(65534)
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(5)
                s.connect(str(sock_path))
                data = b""  # the refusal comes unasked
                while b"\n" not in data:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                os.write(wfd, data)
            finally:
                os._exit(0)
        os.close(wfd)
        with os.fdopen(rfd, "rb") as fh:
            data = fh.read()
        os.waitpid(pid, 0)
        reply = json.loads(data.split(b"\n")[0])
        assert reply["error"]["code"] == "unauthorized"
        assert [(p.pid, p.uid) for p in refused] == [(pid, 65534)]
        assert factory.conns == []


def test_max_clients(sock_path, factory):
    with Server(sock_path, factory, max_clients=2) as srv:
        a, b = Raw(sock_path), Raw(sock_path)
        assert wait_for(lambda: srv.client_count == 2)
        c = Raw(sock_path)
        r = c.line()
        assert (r["id"], r["error"]["code"]) == (None, "limit")
        assert c.eof()
        for x in (a, b):
            x.req("ok")
            assert x.line()["ok"]
        a.close()
        assert wait_for(lambda: srv.client_count == 1)
        d = Raw(sock_path)
        d.req("in")
        assert d.line()["id"] == "in"


# -- handler failures ------------------------------------------------------------------------------


def test_handler_crash_is_an_internal_reply_and_everything_goes_on(server, sock_path, caplog):
    c, other = Raw(sock_path), Raw(sock_path)
    with caplog.at_level(logging.ERROR, logger="deskgate.server"):
        c.req("x", "act", action=tool("crash"))
        r = c.line()
    assert (r["id"], r["ok"], r["error"]["code"]) == ("x", False, "internal")
    assert "boom" not in r["error"]["message"]  # internals stay in the log, not on the wire
    assert any("boom in the handler" in (rec.exc_text or "") or rec.exc_info for rec in caplog.records)
    c.req("y")
    assert c.line()["id"] == "y"
    other.req("z")
    assert other.line()["id"] == "z"


def test_deskgate_errors_from_the_handler_become_their_codes(server, sock_path):
    c = Raw(sock_path)
    c.req("k", "act", action=tool("refuse"))
    assert c.line() == {"id": "k", "ok": False, "error": {"code": "killed", "message": "kill switch is on"}}


def test_a_handler_returning_garbage_is_internal(server, sock_path):
    c = Raw(sock_path)
    c.req("g", "act", action=tool("not-a-dict"))
    assert c.line()["error"]["code"] == "internal"


def test_a_handler_factory_refusal_answers_the_first_request(sock_path, factory):
    factory.refuse_with = DeskgateError("disabled", "acting is off (DESKGATE_DISABLED)")
    with Server(sock_path, factory):
        c = Raw(sock_path)
        c.req("h", "hello", agent="a")
        assert c.line() == {"id": "h", "ok": False,
                            "error": {"code": "disabled", "message": "acting is off (DESKGATE_DISABLED)"}}


def test_a_reply_that_cannot_be_encoded_is_internal(sock_path):
    class Weird:
        def handle(self, req):
            return {"thing": object()}

        def close(self):
            pass

    with Server(sock_path, lambda peer: Weird()):
        c = Raw(sock_path)
        c.req("w")
        assert c.line()["error"]["code"] == "internal"
        c.req("w2")
        assert c.line()["id"] == "w2"


def test_garbage_from_many_clients_never_kills_the_server(server, sock_path):
    import random

    rng = random.Random(7)
    for _ in range(30):
        c = Raw(sock_path)
        c.send(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000))) + b"\n")
        c.close()
    c = Raw(sock_path)
    c.req("alive")
    assert c.line()["id"] == "alive"


def test_stop_from_a_signal_handler_on_the_serving_thread(sock_path, factory):
    import signal

    srv = Server(sock_path, factory)
    srv.start()
    c = Raw(sock_path)
    c.req("before")
    old = signal.signal(signal.SIGALRM, lambda *_: srv.stop())
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        t0 = time.monotonic()
        srv.serve_forever()  # returns once the handler has stopped the server
        assert time.monotonic() - t0 < 3
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert c.line()["id"] == "before"
    assert c.eof()
    assert not sock_path.exists()
    assert factory.conns[0].closed == 1


def test_a_client_that_never_reads_its_replies_is_dropped(sock_path, factory):
    with Server(sock_path, factory, read_timeout_s=0.5):
        hog = Raw(sock_path)
        payload = b'{"v":1,"id":"h","op":"observe"}\n' * 100_000  # far more replies than socket buffers hold

        def flood():
            try:
                hog.sock.settimeout(10)
                hog.sock.sendall(payload)
            except OSError:
                pass  # dropped by the server: expected

        t = threading.Thread(target=flood, daemon=True)
        t.start()
        assert wait_for(lambda: factory.conns and factory.conns[0].closed == 1, timeout=10)
        other = Raw(sock_path)
        other.req("fine")
        assert other.line()["id"] == "fine"
        hog.close()
        t.join(10)


def test_a_session_made_while_stopping_is_closed_and_never_used(sock_path):
    release = threading.Event()
    made: list[FakeConn] = []

    def slow_factory(peer):
        release.wait(5)
        conn = FakeConn(peer, [])
        made.append(conn)
        return conn

    srv = Server(sock_path, slow_factory)
    srv.__enter__()
    c = Raw(sock_path)
    c.req("first")
    time.sleep(0.1)  # the connection thread is now inside the factory
    srv.stop(join_timeout_s=0.2)
    release.set()
    assert wait_for(lambda: made and made[0].closed == 1)
    assert made[0].seen == []  # the request was not handled by a session nobody would close
    time.sleep(0.1)
    assert made[0].closed == 1
