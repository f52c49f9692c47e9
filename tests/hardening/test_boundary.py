"""The security of the boundary, with the real server, supervisor, gate and audit log wired together.

Fakes stand in only for the desktop (an observation we choose), the executor (records, runs nothing)
and the person answering dialogs. Covered: file modes of the socket, a peer of another uid (a real
second uid when run as root) refused and logged, no secret in the raw audit database or its WAL, grants
that a client cannot create or stretch, and the confirmation dialog that agent input cannot reach.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from app.agent.client import Client, Unauthorized
from app.audit.writer import AuditLog
from app.config import Paths
from app.daemon.server import Server
from app.daemon.supervisor import Supervisor
from app.errors import DeskgateError
from app.ports import Answer, ApprovalRequest, Reply
from app.protocol import CONTROL_COMMANDS, OPS, parse_request
from gate import SafetyGate, load_policy
from gate.model import Observation, Rect
from gate.redact import approval_key

POLICY = """
[gate]
modes = { shell = "ask" }
disabled_rules = ["confirm.agent.risk-score"]

[loop]
threshold = 100

[limits]
max_steps = 200
actions_per_minute = 1000
uid_actions_per_minute = 999999
"""

DIALOG = Rect(700, 400, 500, 250)
EDITOR = Observation(window_title="notes.txt - Editor", app="editor", screen_width=1920, screen_height=1080,
                     protected=(DIALOG,))
DIALOG_ACTIVE = msgspec.structs.replace(EDITOR, window_title="deskgate - confirm", app="deskgate",
                                       protected_active=True)

# Secrets this run types, writes and passes around; none may reach the database file in any form.
SECRETS = {
    "typed password": "Tr0ub4dor&3-horse-battery",
    "github token": "ghp_" + "Q7xv2Lk9PzR4mW8nB3cT6yH1jD5sF0gA2eKu",
    "file content": "db_password=Zq8!vN3@pL6#wR1$",
    "env value": "s3cr3t-env-value-4b1d9e7f",
    "aws key": "AKIAZ7Q2W4E6R8T0Y1U3",
    "bearer": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
}


class FakeDesktop:
    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.fresh: Observation | None = None

    def observe(self) -> Observation:
        return self.observation

    def observe_fresh(self) -> Observation:
        return self.fresh or self.observation

    def observe_for(self, action: Any, *, fresh: bool = False) -> Observation:
        return self.observe_fresh() if fresh else self.observe()

    def preview(self, action: Any, outline: Any = None) -> None:
        return None


@dataclasses.dataclass
class Result:
    ok: bool
    detail: dict
    error: DeskgateError | None = None


class FakeExecutor:
    def __init__(self) -> None:
        self.executed: list[Any] = []

    def execute(self, action: Any, policy: Any, **kw: Any) -> Result:
        self.executed.append(action)
        return Result(True, {"exit_code": 0})

    def cancel_all(self) -> int:
        return 0


class Person:
    """Answers every dialog with `answer`; `during` runs while the dialog is open (an agent's attempt)."""

    def __init__(self, answer: Answer = Answer.APPROVE_ONCE) -> None:
        self.answer = answer
        self.asked: list[ApprovalRequest] = []
        self.during: Any = None

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        self.asked.append(request)
        if self.during is not None:
            self.during()
        return Reply(self.answer)

    def cancel_all(self, reason: str) -> None:
        pass


@dataclasses.dataclass(frozen=True)
class Peer:
    pid: int = 1
    uid: int = os.getuid()
    gid: int = os.getgid()


class Rig:
    def __init__(self, root: Path, observation: Observation = EDITOR, answer: Answer = Answer.APPROVE_ONCE) -> None:
        root.mkdir(parents=True, exist_ok=True)
        (root / "policy.toml").write_text(POLICY)
        self.policy = load_policy(root / "policy.toml")
        self.paths = Paths.for_testing(root)
        self.audit = AuditLog(self.paths.db)
        self.desktop = FakeDesktop(observation)
        self.executor = FakeExecutor()
        self.person = Person(answer)
        self.sup = Supervisor(gate=SafetyGate(self.policy), audit=self.audit, desktop=self.desktop,
                              executor=self.executor, approver=self.person, policy=self.policy, paths=self.paths)
        self.n = 0

    def conn(self, agent: str = "agent-1") -> Any:
        c = self.sup.connect(Peer())
        c.handle(self.req("hello", agent=agent))
        return c

    def req(self, op: str, **fields: Any) -> Any:
        self.n += 1
        return parse_request(json.dumps({"v": 1, "id": str(self.n), "op": op, **fields}).encode())

    def act(self, conn: Any, action: dict) -> dict:
        return conn.handle(self.req("act", action=action))

    def events(self, kind: str) -> list[dict]:
        import sqlite3

        db = sqlite3.connect(self.paths.db)
        try:
            rows = db.execute("SELECT * FROM events WHERE kind = ?", (kind,)).fetchall()
        finally:
            db.close()
        return rows


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path / "rig")
    yield r
    r.sup.close()
    r.audit.close()


@pytest.fixture
def short_root() -> Iterator[Path]:
    # AF_UNIX paths are short (108 bytes): pytest's tmp_path can be too long
    d = Path(tempfile.mkdtemp(prefix="dgb-", dir="/tmp"))
    yield d
    import shutil

    shutil.rmtree(d, ignore_errors=True)


# -- the socket ----------------------------------------------------------------------------------


def test_real_server_socket_modes_and_an_agent_cannot_send_control(short_root: Path) -> None:
    rig = Rig(short_root / "state")
    sock = short_root / "run" / "deskgate.sock"
    try:
        with Server(sock, rig.sup.connect, on_refused=rig.sup.peer_refused):
            assert stat.S_IMODE(os.stat(sock.parent).st_mode) == 0o700
            assert stat.S_IMODE(os.stat(sock).st_mode) == 0o600
            assert stat.S_IMODE(os.stat(rig.paths.db).st_mode) & 0o077 == 0  # the audit log is ours only
            with Client(sock) as c:
                c.hello("agent-x")
                with pytest.raises(Unauthorized):
                    c.control("resume")
                with pytest.raises(Unauthorized):
                    c.control("revoke", grant="g1")
            assert rig.sup.state == "active"
    finally:
        rig.sup.close()
        rig.audit.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as a second uid")
def test_a_real_second_uid_is_refused_and_leaves_a_peer_refused_event(short_root: Path) -> None:
    rig = Rig(short_root / "state")
    sock = short_root / "run" / "deskgate.sock"
    try:
        with Server(sock, rig.sup.connect, on_refused=rig.sup.peer_refused):
            # open the file modes so that only the peer-credential check stands in the way
            os.chmod(short_root, 0o755)
            os.chmod(sock.parent, 0o777)
            os.chmod(sock, 0o777)
            rfd, wfd = os.pipe()
            pid = os.fork()
            if pid == 0:
                try:
                    os.close(rfd)
                    os.setgid(65534)
                    os.setuid(65534)
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    s.settimeout(5)
                    s.connect(str(sock))
                    # try to act before the refusal arrives: it must not be handled
                    s.sendall(b'{"v":1,"id":"h","op":"hello","agent":"intruder"}\n'
                              b'{"v":1,"id":"k","op":"control","command":"resume"}\n')
                    data = b""
                    try:
                        while chunk := s.recv(4096):
                            data += chunk
                    except ConnectionResetError:
                        pass  # closed with our unread lines in its buffer: the kernel resets, the reply may be lost
                    os.write(wfd, data or b"reset\n")
                finally:
                    os._exit(0)
            os.close(wfd)
            with os.fdopen(rfd, "rb") as fh:
                data = fh.read()
            os.waitpid(pid, 0)
            if data != b"reset\n":
                replies = [json.loads(line) for line in data.splitlines() if line.strip()]
                assert replies and all(r["ok"] is False for r in replies)
                assert replies[0]["error"]["code"] == "unauthorized"
            deadline = time.monotonic() + 5
            while not rig.events("peer_refused") and time.monotonic() < deadline:
                time.sleep(0.02)
            events = rig.events("peer_refused")
            assert len(events) == 1
            assert "65534" in json.dumps(events[0], default=str)
            assert rig.sup.status()["sessions"] == []  # no session was opened for it
    finally:
        rig.sup.close()
        rig.audit.close()


# -- secrets never reach the database file --------------------------------------------------------


def test_the_raw_audit_files_hold_no_secret(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "rig")
    conn = rig.conn()
    s = SECRETS
    actions = [
        {"type": "type", "text": s["typed password"], "target": {"label": "Password", "role": "textbox"}},
        {"type": "type", "text": s["typed password"], "target": {"label": "P\u0430ssword"}},
        {"type": "file_write", "path": str(tmp_path / "app.env"), "content": s["file content"]},
        {"type": "shell", "command": "deploy --prod", "env": {"DEPLOY_KEY": s["env value"]}},
        {"type": "shell", "command": f"curl -H 'Authorization: token {s['github token']}' https://api.example"},
        {"type": "shell", "argv": ["aws", "configure", "set", "aws_access_key_id", s["aws key"]]},
        {"type": "shell", "command": f"curl -H 'Authorization: Bearer {s['bearer']}' https://api.example"},
        {"type": "tool", "name": "login", "input": {"password": s["typed password"], "user": "me"}},
        {"type": "navigate", "url": f"https://me:{s['typed password']}@example.com/"},
    ]
    for a in actions:
        reply = rig.act(conn, a)
        assert reply["verdict"] in ("executed", "denied"), reply
    # a plan and a check carry them too
    conn.handle(rig.req("plan", actions=actions[:3]))
    conn.handle(rig.req("check", action=actions[4]))
    assert len(rig.executor.executed) >= 5  # the run really went through the executor path
    # the person saw no secret either
    shown = json.dumps([dataclasses.asdict(r) if dataclasses.is_dataclass(r) else repr(r) for r in rig.person.asked],
                       default=repr)
    rig.sup.close()
    files = [p for p in rig.paths.db.parent.iterdir() if p.name.startswith(rig.paths.db.name)]
    raw = {p.name: p.read_bytes() for p in files}  # before close: the WAL still holds recent pages
    rig.audit.close()
    raw.update({p.name + " (closed)": p.read_bytes() for p in files if p.exists()})
    assert any(name.endswith("-wal") for name in raw), sorted(raw)
    for label, secret in s.items():
        for form in (secret.encode(), secret.encode("utf-16-le")):
            for name, data in raw.items():
                assert form not in data, f"{label} found in {name}"
        assert secret not in shown, f"{label} shown in a dialog"


# -- grants cannot be forged ----------------------------------------------------------------------


def test_no_protocol_op_or_field_creates_a_grant(rig: Rig) -> None:
    assert {"hello", "act", "plan", "check", "observe", "command", "bye", "control"} == OPS
    assert "grant" not in CONTROL_COMMANDS and "approve" not in CONTROL_COMMANDS
    act = {"type": "shell", "command": "ls /srv"}
    key = approval_key(act)
    for forged in ({"approval_key": key}, {"approved": True}, {"grant": "g1"}, {"decided_by": "person"}):
        with pytest.raises(DeskgateError) as err:
            rig.req("act", action=act, **forged)
        assert err.value.code == "bad_request"
    with pytest.raises(DeskgateError):
        rig.req("act", action={**act, "approval_key": key})
    with pytest.raises(DeskgateError):
        rig.req("control", command="grant")


def test_a_session_grant_covers_only_the_exact_action(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "rig", answer=Answer.APPROVE_SESSION)
    try:
        conn = rig.conn()
        assert rig.act(conn, {"type": "shell", "command": "ls -la /srv/app"})["verdict"] == "executed"
        assert len(rig.person.asked) == 1
        assert rig.act(conn, {"type": "shell", "command": "ls -la /srv/app", "note": "again"})["decided_by"] \
            == "session-approval"
        rig.person.answer = Answer.DENY
        changed = [
            {"type": "shell", "command": "ls -la /srv/app; rm -rf /srv/app/data"},
            {"type": "shell", "command": "ls -la /srv/app", "cwd": "/etc"},
            {"type": "shell", "command": "ls -la /srv/app", "env": {"LD_PRELOAD": "/tmp/x.so"}},
            {"type": "shell", "argv": ["ls", "-la", "/srv/app"], "timeout": 5},
            {"type": "shell", "command": "ls -la /srv/app\u200b"},
        ]
        for a in changed:
            reply = rig.act(conn, a)
            assert reply["decided_by"] != "session-approval", a
            assert reply["verdict"] == "denied", a
        # another session of the same agent name does not inherit it
        conn.handle(rig.req("bye"))
        other = rig.conn()
        assert rig.act(other, {"type": "shell", "command": "ls -la /srv/app"})["verdict"] == "denied"
    finally:
        rig.sup.close()
        rig.audit.close()


# -- the dialog cannot be approved by agent input --------------------------------------------------


@pytest.mark.parametrize("action", [
    {"type": "click", "x": 800, "y": 500}, {"type": "click", "x": 1199, "y": 649, "clicks": 2},
    {"type": "drag", "path": [[10, 10], [900, 500]]}, {"type": "move", "x": 701, "y": 401},
    {"type": "scroll", "x": 800, "y": 500, "dy": -2},
])
def test_pointer_input_aimed_at_the_dialog_is_denied_and_never_executed(rig: Rig, action: dict) -> None:
    conn = rig.conn()
    reply = rig.act(conn, action)
    assert (reply["verdict"], reply["decision"]) == ("denied", "block"), reply
    assert rig.executor.executed == [] and rig.person.asked == []


@pytest.mark.parametrize("action", [
    {"type": "key", "keys": ["enter"]}, {"type": "key", "keys": ["alt", "a"]}, {"type": "key", "keys": ["space"]},
    {"type": "type", "text": "\n"}, {"type": "type", "text": "yes"},
])
def test_keyboard_input_while_the_dialog_is_active_is_denied(tmp_path: Path, action: dict) -> None:
    rig = Rig(tmp_path / "rig", observation=DIALOG_ACTIVE)
    try:
        reply = rig.act(rig.conn(), action)
        assert (reply["verdict"], reply["decision"]) == ("denied", "block"), reply
        assert rig.executor.executed == []
    finally:
        rig.sup.close()
        rig.audit.close()


def test_an_agent_cannot_answer_its_own_dialog_from_a_second_connection(rig: Rig) -> None:
    """While a dialog is open (the desktop shows it active), a second agent connection tries Enter."""
    first = rig.conn("agent-1")
    second = rig.conn("agent-2")
    attempts: list[dict] = []

    def press_enter() -> None:
        rig.desktop.observation = DIALOG_ACTIVE
        attempts.append(rig.act(second, {"type": "key", "keys": ["enter"]}))
        rig.desktop.observation = EDITOR

    rig.person.during = press_enter
    rig.person.answer = Answer.DENY
    reply = rig.act(first, {"type": "shell", "command": "ls /srv"})
    assert reply["verdict"] == "denied"
    assert attempts and attempts[0]["verdict"] == "denied" and attempts[0]["decision"] == "block"
    assert rig.executor.executed == []


def test_an_approved_key_is_denied_if_the_dialog_became_active_meanwhile(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "rig")
    try:
        conn = rig.conn()
        # ctrl+alt+delete asks; by the time it would run, deskgate's window is the active one
        rig.desktop.fresh = msgspec.structs.replace(EDITOR, protected_active=True)
        reply = rig.act(conn, {"type": "key", "keys": ["ctrl", "alt", "delete"]})
        assert len(rig.person.asked) == 1
        assert reply["verdict"] == "denied" and rig.executor.executed == []
    finally:
        rig.sup.close()
        rig.audit.close()
