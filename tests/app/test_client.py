"""The sync and asyncio clients against the real server with a fake handler."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from app.agent import client as C
from app.agent.client import AsyncClient, Client
from app.daemon.server import Server
from app.errors import CODES, DeskgateError
from app.protocol import MAX_LINE

# -- fake supervisor -------------------------------------------------------------------------------


class FakeConn:
    def __init__(self, log: list, requests: list) -> None:
        self.log = log
        self.requests = requests
        self.closed = False

    def handle(self, req):
        op = req.__struct_config__.tag
        self.log.append((op, req.id))
        self.requests.append(req)
        if op == "hello":
            return {"session": len([e for e in self.log if e[0] == "hello"])}
        if op in ("act", "check") and req.action.type == "tool":
            do = (req.action.input or {}).get("do", "")
            if do.startswith("error:"):
                raise DeskgateError(do[6:], f"fake {do[6:]}")
            if do == "deny":
                return {"verdict": "denied", "decision": "block", "decided_by": "policy",
                        "reason": "not today", "rules": ["block.fake"], "risk": "high", "audit_id": 42}
            if do == "fail":
                return {"verdict": "error", "decision": "allow", "reason": "fence missing",
                        "result": {"error": {"code": "sandbox_denied", "message": "no bwrap"}}}
            if do == "sleep":
                time.sleep(req.action.input["s"])
        if op == "plan" and any(a.type == "tool" and (a.input or {}).get("do") == "deny" for a in req.actions):
            return {"verdict": "denied", "decision": "block", "reason": "not today", "rules": ["block.fake"]}
        if op == "control":
            return {"command": req.command, "reason": req.reason, "grant": req.grant}
        verdict = "executed" if op in ("act", "plan") and req.execute else "allowed"
        return {"verdict": verdict, "decision": "allow", "op": op}

    def close(self) -> None:
        self.closed = True


class Factory:
    def __init__(self) -> None:
        self.log: list = []
        self.requests: list = []  # every request as the server decoded it
        self.conns: list[FakeConn] = []

    def __call__(self, peer):
        conn = FakeConn(self.log, self.requests)
        self.conns.append(conn)
        return conn


def tool(do: str, **extra) -> dict:
    return {"type": "tool", "name": "t", "input": {"do": do, **extra}}


CLICK = {"type": "click", "x": 1, "y": 2}


@pytest.fixture
def sock_path():
    d = Path(tempfile.mkdtemp(prefix="dgc-"))
    yield d / "run" / "deskgate.sock"
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def factory():
    return Factory()


@pytest.fixture
def server(sock_path, factory):
    with Server(sock_path, factory, read_timeout_s=5) as srv:
        yield srv


# -- basics ----------------------------------------------------------------------------------------


def test_session_round_trip(server, sock_path, factory):
    with Client(sock_path) as dg:
        hello = dg.hello("agent-1", expect={"app": "firefox"})
        assert hello["ok"] is True and hello["v"] == 1
        assert dg.session == hello
        assert dg.act(CLICK)["verdict"] == "executed"
        assert dg.act(CLICK, execute=False)["verdict"] == "allowed"
        assert dg.check(CLICK)["op"] == "check"
        assert dg.plan([CLICK, CLICK])["op"] == "plan"
        assert dg.observe()["op"] == "observe"
        assert dg.command("set volume to 50")["op"] == "command"
    assert [op for op, _ in factory.log] == ["hello", "act", "act", "check", "plan", "observe", "command", "bye"]
    ids = [rid for _, rid in factory.log]
    assert len(set(ids)) == len(ids)  # a fresh id per call
    end = time.monotonic() + 5
    while not factory.conns[0].closed and time.monotonic() < end:
        time.sleep(0.01)
    assert factory.conns[0].closed  # bye ended the session


def test_gate_structs_are_accepted_as_actions(server, sock_path, factory):
    from gate.model import Expect, action_from_dict

    with Client(sock_path) as dg:
        dg.hello("a", expect=Expect(app="gedit"))
        assert dg.act(action_from_dict(CLICK))["verdict"] == "executed"


def test_control(server, sock_path):
    with Client(sock_path) as dg:
        assert dg.control("kill", "stop it")["command"] == "kill"
        assert dg.control("revoke", grant="g1")["grant"] == "g1"
        with pytest.raises(C.BadRequest, match="grant"):
            dg.control("revoke")


# -- typed errors ----------------------------------------------------------------------------------


WIRE = {
    "bad_request": C.BadRequest, "too_large": C.TooLarge, "unknown_op": C.UnknownOp,
    "unauthorized": C.Unauthorized, "disabled": C.Disabled, "killed": C.Killed, "paused": C.Paused,
    "limit": C.LimitExceeded, "timeout": C.Timeout, "unsupported": C.Unsupported,
    "sandbox_denied": C.SandboxDenied, "internal": C.InternalError,
}


def test_every_wire_code_has_a_class():
    assert set(WIRE) == set(CODES)
    assert C.LimitError is C.LimitExceeded


@pytest.mark.parametrize("code", sorted(WIRE))
def test_each_error_code_raises_its_class(server, sock_path, code):
    with Client(sock_path) as dg:
        dg.hello("a")
        with pytest.raises(WIRE[code]) as info:
            dg.act(tool(f"error:{code}"))
        err = info.value
        assert isinstance(err, DeskgateError)
        assert err.code == code and err.message == f"fake {code}"
        assert err.reply["ok"] is False and err.request_id == err.reply["id"]
        assert dg.observe()["ok"]  # the connection is still good


def test_server_side_validation_errors_are_typed(server, sock_path):
    with Client(sock_path) as dg:
        with pytest.raises(C.BadRequest, match=r"action\.x"):
            dg.act({"type": "click", "x": "1", "y": 2})
        with pytest.raises(C.Unsupported):
            dg.hello("a", versions=[7])


def test_too_large_is_refused_before_sending(server, sock_path, factory):
    with Client(sock_path) as dg:
        dg.hello("a")
        with pytest.raises(C.TooLarge, match="not sent"):
            dg.act({"type": "tool", "name": "x", "input": {"b": "a" * MAX_LINE}})
    assert [op for op, _ in factory.log] == ["hello", "bye"]


def test_denied_is_a_reply_unless_asked_to_raise(server, sock_path):
    with Client(sock_path) as dg:
        dg.hello("a")
        assert dg.act(tool("deny"))["verdict"] == "denied"
        with pytest.raises(C.Denied) as info:
            dg.act(tool("deny"), raise_on_deny=True)
        assert (info.value.reason, info.value.rules, info.value.audit_id) == ("not today", ["block.fake"], 42)
        assert info.value.decided_by == "policy" and isinstance(info.value, DeskgateError)
        with pytest.raises(C.Denied):
            dg.perform(tool("deny"))
        assert dg.plan([CLICK, tool("deny")])["verdict"] == "denied"
        with pytest.raises(C.Denied, match="not today"):
            dg.plan([CLICK, tool("deny")], raise_on_deny=True)
        assert dg.plan([CLICK], raise_on_deny=True)["verdict"] == "executed"
        assert dg.perform(CLICK)["verdict"] == "executed"


def test_a_failed_execution_raises_its_error_when_asked(server, sock_path):
    with Client(sock_path) as dg:
        dg.hello("a")
        assert dg.act(tool("fail"))["verdict"] == "error"
        with pytest.raises(C.SandboxDenied, match="no bwrap"):
            dg.perform(tool("fail"))


# -- failing closed --------------------------------------------------------------------------------


def test_no_supervisor_is_supervisor_unavailable(sock_path):
    dg = Client(sock_path)
    with pytest.raises(C.SupervisorUnavailable) as info:
        dg.act(CLICK)
    assert isinstance(info.value, DeskgateError) and isinstance(info.value, ConnectionError)
    assert str(sock_path) in str(info.value)


def test_a_stale_socket_file_is_supervisor_unavailable(sock_path):
    sock_path.parent.mkdir(parents=True)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(sock_path))
    dead.close()
    with pytest.raises(C.SupervisorUnavailable):
        Client(sock_path).hello("a")


def test_another_uid_is_unauthorized(sock_path, factory):
    with Server(sock_path, factory, allowed_uid=os.getuid() + 1), pytest.raises(C.Unauthorized):
        Client(sock_path).hello("a")


def test_full_server_is_limit(sock_path, factory):
    with Server(sock_path, factory, max_clients=1) as srv:
        first = Client(sock_path)
        first.hello("a")
        assert srv.client_count == 1
        with pytest.raises(C.LimitExceeded):
            Client(sock_path).hello("b")
        assert first.observe()["ok"]
        first.close()


# -- reconnecting ----------------------------------------------------------------------------------


def test_reconnects_once_and_replays_hello_after_a_restart(sock_path, factory):
    dg = Client(sock_path)
    with Server(sock_path, factory):
        dg.hello("agent-r", expect={"app": "gedit"})
        dg.act(CLICK)
    second = Factory()
    with Server(sock_path, second):
        assert dg.act(CLICK)["verdict"] == "executed"
        assert [op for op, _ in second.log] == ["hello", "act"]
        assert dg.session["session"] == 1
    with pytest.raises(C.SupervisorUnavailable):
        dg.act(CLICK)  # nobody to reconnect to: fail closed
    dg.close()


class OneShotServer:
    """Accepts connections; on each, reads one line and then behaves as told (close, or reply)."""

    def __init__(self, path: Path, behaviours: list[str]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen(8)
        self.behaviours = behaviours
        self.lines: list[dict] = []
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        for behaviour in self.behaviours:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return  # closed by the test
            with conn:
                buf = b""
                while b"\n" not in buf:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    buf += chunk
                if not buf:
                    continue
                msg = json.loads(buf.split(b"\n")[0])
                self.lines.append(msg)
                if behaviour == "reply":
                    conn.sendall(json.dumps({"id": msg["id"], "ok": True, "op": msg["op"]}).encode() + b"\n")
                    time.sleep(0.05)
                elif behaviour == "stale-then-reply":
                    conn.sendall(b'{"id":"someone-else","ok":true}\n')
                    conn.sendall(json.dumps({"id": msg["id"], "ok": True}).encode() + b"\n")
                    time.sleep(0.05)
                elif behaviour == "garbage":
                    conn.sendall(b"<html>\n")
                    time.sleep(0.05)

    def close(self) -> None:
        self.sock.close()


def test_an_act_whose_reply_was_lost_is_not_resent(sock_path):
    srv = OneShotServer(sock_path, ["close", "reply"])
    try:
        dg = Client(sock_path, timeout=5)
        with pytest.raises(C.ConnectionLost, match="not re-sent"):
            dg.act(CLICK)
        time.sleep(0.1)
        assert [m["op"] for m in srv.lines] == ["act"]
    finally:
        srv.close()


def test_a_read_only_request_is_resent_once(sock_path):
    srv = OneShotServer(sock_path, ["close", "reply"])
    try:
        with Client(sock_path, timeout=5) as dg:
            reply = dg.check(CLICK)
        assert reply["op"] == "check"
        assert [m["op"] for m in srv.lines] == ["check", "check"]
        assert srv.lines[0]["id"] == srv.lines[1]["id"]
    finally:
        srv.close()


def test_a_read_only_request_is_not_resent_twice(sock_path):
    srv = OneShotServer(sock_path, ["close", "close", "reply"])
    try:
        with pytest.raises(C.SupervisorUnavailable):
            Client(sock_path, timeout=5).observe()
        assert len(srv.lines) == 2
    finally:
        srv.close()


def test_replies_to_other_ids_are_skipped(sock_path):
    srv = OneShotServer(sock_path, ["stale-then-reply"])
    try:
        with Client(sock_path, timeout=5) as dg:
            assert dg.observe()["ok"] is True
    finally:
        srv.close()


def test_a_reply_that_is_not_json_is_internal(sock_path):
    srv = OneShotServer(sock_path, ["garbage"])
    try:
        with pytest.raises(C.InternalError, match="not JSON"):
            Client(sock_path, timeout=5).observe()
    finally:
        srv.close()


def test_reply_timeout_closes_and_the_next_request_starts_clean(server, sock_path, factory):
    dg = Client(sock_path, timeout=0.3)
    dg.hello("slowpoke")
    t0 = time.monotonic()
    with pytest.raises(C.Timeout, match=r"within 0\.3"):
        dg.act(tool("sleep", s=1.0))
    assert time.monotonic() - t0 < 0.9
    # The late reply must never be taken for the next request's.
    reply = dg.observe()
    assert reply["op"] == "observe"
    assert [op for op, _ in factory.log][-2:] == ["hello", "observe"]
    dg.close()


def test_one_client_shared_by_threads(server, sock_path):
    dg = Client(sock_path)
    dg.hello("shared")
    errors: list[BaseException] = []

    def work():
        try:
            for _ in range(50):
                assert dg.observe()["op"] == "observe"
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    dg.close()


def test_bye_without_a_connection_is_none(sock_path):
    assert Client(sock_path).bye() is None


# -- asyncio ---------------------------------------------------------------------------------------


def test_async_client(server, sock_path, factory):
    async def main():
        async with AsyncClient(sock_path) as dg:
            assert (await dg.hello("async-agent"))["v"] == 1
            assert (await dg.act(CLICK))["verdict"] == "executed"
            assert (await dg.check(CLICK))["op"] == "check"
            assert (await dg.observe())["op"] == "observe"
            assert (await dg.plan([CLICK]))["op"] == "plan"
            assert (await dg.command("mute"))["op"] == "command"
            assert (await dg.control("status"))["command"] == "status"
            with pytest.raises(C.Killed):
                await dg.act(tool("error:killed"))
            with pytest.raises(C.Denied):
                await dg.perform(tool("deny"))
            # Concurrent tasks on one client take turns.
            replies = await asyncio.gather(*(dg.observe() for _ in range(20)))
            assert len({r["id"] for r in replies}) == 20

    asyncio.run(main())
    assert [op for op, _ in factory.log][:3] == ["hello", "act", "check"]
    assert factory.log[-1][0] == "bye"


def test_both_clients_send_scope_and_defer(server, sock_path, factory):
    with Client(sock_path) as dg:
        dg.hello("sync-agent", scope="conversation-1")
        dg.act(CLICK, execute=False, defer=True)

    async def main():
        async with AsyncClient(sock_path) as dg:
            await dg.hello("async-agent", scope="conversation-2")
            await dg.act(CLICK, execute=False, defer=True)

    asyncio.run(main())
    sent = [(r.__struct_config__.tag, r) for r in factory.requests if r.__struct_config__.tag in ("hello", "act")]
    assert [(op, r.scope) for op, r in sent if op == "hello"] == [("hello", "conversation-1"),
                                                                  ("hello", "conversation-2")]
    assert [(r.execute, r.defer) for op, r in sent if op == "act"] == [(False, True), (False, True)]


def test_async_unavailable_and_reconnect(sock_path, factory):
    async def main():
        dg = AsyncClient(sock_path)
        with pytest.raises(C.SupervisorUnavailable):
            await dg.observe()
        with Server(sock_path, factory):
            await dg.hello("a")
        second = Factory()
        with Server(sock_path, second):
            await asyncio.sleep(0.05)  # let the loop see the EOF from the old server
            assert (await dg.act(CLICK))["verdict"] == "executed"
            assert [op for op, _ in second.log] == ["hello", "act"]
        await dg.close()

    asyncio.run(main())


def test_async_timeout_and_lost_act(sock_path, factory):
    async def main():
        with Server(sock_path, factory):
            dg = AsyncClient(sock_path, timeout=0.2)
            await dg.hello("a")
            with pytest.raises(C.Timeout):
                await dg.act(tool("sleep", s=0.8))
            assert (await dg.observe())["op"] == "observe"
            await dg.close()

    asyncio.run(main())
    other = sock_path.parent / "other.sock"
    srv = OneShotServer(other, ["close", "reply"])
    try:
        async def lost():
            dg = AsyncClient(other, timeout=5)
            with pytest.raises(C.ConnectionLost):
                await dg.act(CLICK)
            await dg.close()

        asyncio.run(lost())
        assert [m["op"] for m in srv.lines] == ["act"]
    finally:
        srv.close()


# -- imports ---------------------------------------------------------------------------------------


def test_the_client_imports_no_gui_or_display_code():
    code = (
        "import sys, app.agent.client\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'pyautogui', 'pynput', 'mss', 'pywinctl', 'Xlib', 'tkinter')]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


# -- the command line ------------------------------------------------------------------------------


def run_cli(argv: list[str]) -> int:
    import argparse

    from app.cli import client as cli_client

    parser = argparse.ArgumentParser(prog="deskgate")
    cli_client.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_act_exit_codes(server, sock_path, factory, capsys):
    s = ["--socket", str(sock_path), "--json"]
    assert run_cli(["act", json.dumps(CLICK), "--agent", "cli-test", *s]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["ok"], out["verdict"]) == (True, "executed")
    assert [op for op, _ in factory.log] == ["hello", "act", "bye"]

    assert run_cli(["act", json.dumps(CLICK), "--no-execute", *s]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "allowed"

    assert run_cli(["act", json.dumps(tool("deny")), *s]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["verdict"] == "denied" and "not today" in captured.err

    assert run_cli(["act", json.dumps(tool("fail")), *s]) == 2
    assert json.loads(capsys.readouterr().out)["verdict"] == "error"

    assert run_cli(["act", json.dumps(tool("error:killed")), *s]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["error"]["code"] == "killed" and "killed" in captured.err

    assert run_cli(["act", "{not json", *s]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_request"


def test_cli_act_reads_stdin(server, sock_path, monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(CLICK)))
    assert run_cli(["act", "-", "--socket", str(sock_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "executed"


def test_cli_without_a_supervisor_fails_closed(sock_path, capsys):
    assert run_cli(["act", json.dumps(CLICK), "--socket", str(sock_path), "--json"]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["ok"] is False and "no deskgate" in captured.err
    assert run_cli(["kill", "--socket", str(sock_path)]) == 2
    assert "nothing can act" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "sent"),
    [
        (["kill", "--reason", "wrong window"], ("kill", "wrong window", None)),
        (["resume"], ("resume", None, None)),
        (["pause", "--reason", "lunch"], ("pause", "lunch", None)),
        (["unpause"], ("unpause", None, None)),
        (["status"], ("status", None, None)),
        (["grants"], ("grants", None, None)),
        (["revoke", "g-42"], ("revoke", None, "g-42")),
    ],
)
def test_cli_control_commands(server, sock_path, factory, capsys, monkeypatch, argv, sent):
    from app.cli import client as cli_client

    asked: list[str] = []
    monkeypatch.setattr(cli_client, "ask_on_terminal", asked.append)  # the person typed the code
    assert run_cli([*argv, "--socket", str(sock_path), "--json"]) == 0
    assert bool(asked) == (argv[0] in ("resume", "unpause"))
    reply = json.loads(capsys.readouterr().out)
    assert (reply["command"], reply["reason"], reply["grant"]) == sent
    assert [op for op, _ in factory.log] == ["control"]  # no session is opened for a person's command


def test_a_killed_verdict_is_a_failure_for_code_that_must_not_go_on() -> None:
    from app.agent.client import Killed, _verdict_check

    reply = {"id": "3", "ok": True, "verdict": "killed", "decided_by": "kill-switch",
             "reason": "the kill switch ended the running action"}
    with pytest.raises(Killed) as err:
        _verdict_check(reply)
    assert err.value.reply == reply and "ended the running action" in err.value.message
    assert _verdict_check({"id": "4", "ok": True, "verdict": "executed"})["verdict"] == "executed"
