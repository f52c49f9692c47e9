"""The `command` op: plain words → the parser's plan → the supervisor's plan path (gate, audit, approval),
in the default and the kiosk preset, and `deskgate do` over a real socket."""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from app.audit.writer import AuditLog
from app.cli.main import main
from app.config import Paths
from app.daemon.approvers import DenyAllApprover
from app.daemon.server import Server
from app.daemon.supervisor import Supervisor
from app.errors import DeskgateError
from app.protocol import Act, CommandReq, Hello
from gate import SafetyGate, action_from_dict, load_policy
from gate.model import Observation

DESK = Observation(window_title="Desktop", app="desktop", screen_width=1280, screen_height=800)


class Desktop:
    def observe(self) -> Observation:
        return DESK

    def observe_fresh(self) -> Observation:
        return DESK

    def observe_for(self, action: Any, *, fresh: bool = False) -> Observation:
        return DESK

    def preview(self, action: Any, outline: Any = None):
        return None


@dataclasses.dataclass
class Result:
    ok: bool
    detail: dict
    error: DeskgateError | None = None


class Executor:
    def __init__(self) -> None:
        self.executed: list[Any] = []

    def execute(self, action: Any, policy: Any, **kw: Any) -> Result:
        self.executed.append(action)
        return Result(True, {"summary": getattr(action, "name", getattr(action, "app", ""))})

    def cancel_all(self) -> int:
        return 0


@pytest.fixture
def root():
    d = Path(tempfile.mkdtemp(prefix="dgcmd-"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


def make(root: Path, preset: str = "balanced") -> tuple[Supervisor, Executor, AuditLog]:
    policy = load_policy(preset=preset)
    paths = Paths.for_testing(root)
    audit = AuditLog(paths.db)
    executor = Executor()
    sup = Supervisor(gate=SafetyGate(policy), audit=audit, desktop=Desktop(), executor=executor,
                     approver=DenyAllApprover(), policy=policy, paths=paths)
    return sup, executor, audit


def session(sup: Supervisor):
    conn = sup.connect(None)
    conn.handle(Hello(v=1, id="h", agent="t"))
    return conn


def test_command_runs_as_a_plan_and_reply_carries_it(root: Path) -> None:
    sup, executor, audit = make(root)
    try:
        conn = session(sup)
        reply = conn.handle(CommandReq(v=1, id="c1", text="Please set the volume to fifty and lock the screen"))
        assert reply["verdict"] == "executed" and reply["decision"] == "allow"
        assert reply["command"]["plan"] == [{"type": "system", "name": "volume", "params": {"level": 50}},
                                            {"type": "system", "name": "lock"}]
        assert [s["verdict"] for s in reply["steps"]] == ["executed", "executed"]
        assert [(a.name, a.params) for a in executor.executed] == [("volume", {"level": 50}), ("lock", None)]
        row = audit.reader.get(reply["audit_id"])
        assert row is not None and row["op"] == "plan"
    finally:
        audit.close()


def test_not_understood_is_bad_request_listing_forms_and_nothing_is_recorded(root: Path) -> None:
    sup, executor, audit = make(root)
    try:
        conn = session(sup)
        for text in ("set volume to loud", "open firefox && rm -rf ~", "open; rm -rf /"):
            with pytest.raises(DeskgateError) as info:
                conn.handle(CommandReq(v=1, id="c", text=text))
            assert info.value.code == "bad_request"
        assert "set volume to <0-100>" in info.value.message or "set volume to <0-100>" in str(info.value)
        assert executor.executed == []
        assert audit.reader.count() == 0
    finally:
        audit.close()


def test_no_execute_decides_only(root: Path) -> None:
    sup, executor, audit = make(root)
    try:
        reply = session(sup).handle(CommandReq(v=1, id="c", text="mute", execute=False))
        assert reply["verdict"] == "allowed" and executor.executed == []
    finally:
        audit.close()


def test_confirmed_command_goes_to_the_approver(root: Path) -> None:
    """shutdown is always-confirm; the headless approver denies it, and nothing runs."""
    sup, executor, audit = make(root)
    try:
        reply = session(sup).handle(CommandReq(v=1, id="c", text="shut down in 5 minutes"))
        assert reply["decision"] == "confirm" and reply["verdict"] == "denied"
        assert "confirm.agent.type-confirm" in reply["rules"]
        assert executor.executed == []
    finally:
        audit.close()


def test_killed_refuses_commands(root: Path) -> None:
    sup, executor, audit = make(root)
    try:
        conn = session(sup)
        sup.kill("test", "tester")
        with pytest.raises(DeskgateError) as info:
            conn.handle(CommandReq(v=1, id="c", text="mute"))
        assert info.value.code == "killed" and executor.executed == []
    finally:
        audit.close()


def test_kiosk_runs_commands_but_blocks_other_direct_acts(root: Path) -> None:
    sup, executor, audit = make(root, "kiosk")
    try:
        conn = session(sup)
        ok = conn.handle(CommandReq(v=1, id="c1", text="mute and lock the screen"))
        assert ok["verdict"] == "executed", ok
        click = conn.handle(Act(v=1, id="a1", action=action_from_dict({"type": "click", "x": 5, "y": 5})))
        assert click["verdict"] == "denied" and "block.agent.kiosk" in click["rules"]
        shell = conn.handle(Act(v=1, id="a2", action=action_from_dict({"type": "shell", "command": "ls"})))
        assert shell["verdict"] == "denied" and "block.agent.kiosk" in shell["rules"]
        # open_app is not a kiosk type: the command parses but the gate refuses it
        app = conn.handle(CommandReq(v=1, id="c2", text="open firefox"))
        assert app["verdict"] == "denied" and "block.agent.kiosk" in app["rules"]
        assert [a.name for a in executor.executed] == ["mute", "lock"]
    finally:
        audit.close()


def test_deskgate_do_over_the_socket(root: Path, capsys) -> None:
    sup, executor, audit = make(root)
    sock = root / "run" / "deskgate.sock"
    try:
        with Server(sock, sup.connect, read_timeout_s=5):
            assert main(["do", "set volume to 50", "--socket", str(sock), "--json"]) == 0
            out = json.loads(capsys.readouterr().out)
            assert out["verdict"] == "executed" and out["command"]["text"] == "set volume to 50"
            assert main(["do", "set volume to loud", "--socket", str(sock), "--json"]) == 2
            captured = capsys.readouterr()
            assert json.loads(captured.out)["error"]["code"] == "bad_request"
            assert "not a volume level" in captured.err
            assert main(["do", "shut down", "--socket", str(sock)]) == 1  # asked, headless denial
            capsys.readouterr()
        assert [(a.name, a.params) for a in executor.executed] == [("volume", {"level": 50})]
        # the refused text never reached the gate: two decisions (volume, shut down), no third
        assert audit.reader.count() == 2
    finally:
        audit.close()


def test_deskgate_do_dry_run_parses_locally(root: Path, capsys) -> None:
    # no socket anywhere: a dry run never connects
    assert main(["do", "mute and lock the screen", "--dry-run", "--json", "--socket", str(root / "none.sock")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["plan"] == [{"type": "system", "name": "mute", "params": {"state": "on"}},
                           {"type": "system", "name": "lock"}]
    assert main(["do", "open firefox; reboot", "--dry-run"]) == 2
    assert "never contains" in capsys.readouterr().err


def test_deskgate_do_without_deskgate_fails_closed(root: Path, capsys) -> None:
    assert main(["do", "mute", "--socket", str(root / "none.sock"), "--timeout", "2"]) == 2
    capsys.readouterr()
