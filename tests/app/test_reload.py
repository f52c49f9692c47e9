"""One runtime per policy: a reload swaps the whole runtime, and a request in flight keeps the one it
started with.

The fence tests run real commands through the real Executor inside real bubblewrap (as test_fence.py
does): after a reload the fence binds the new policy's writable roots and follows its network switch.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from app.audit.writer import AuditLog
from app.config import Paths
from app.daemon.policy_runtime import PolicyRef, PolicyRuntime
from app.daemon.supervisor import Supervisor
from app.execute.executor import Executor
from app.ports import Answer, ApprovalRequest, Reply, Verdict
from app.protocol import Act, Hello, Plan
from gate import SafetyGate, action_from_dict, load_policy
from gate.model import Observation

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")

EDITOR = Observation(window_title="notes.txt - Editor", app="editor", screen_width=1920, screen_height=1080)


def policy_text(writable: list[Path], *, network: bool = False, step_timeout_s: int = 30,
                timeout_s: int = 30) -> str:
    roots = ", ".join(f'"{p}"' for p in writable)
    return f"""
[gate]
modes = {{ shell = "ask" }}
disabled_rules = ["confirm.agent.risk-score"]

[loop]
threshold = 100

[limits]
step_timeout_s = {step_timeout_s}
actions_per_minute = 1000
uid_actions_per_minute = 1000
max_steps = 1000

[approvals]
timeout_s = {timeout_s}

[fence]
enabled = true
required = true
writable = [{roots}]
network = {"true" if network else "false"}
"""


class Desktop:
    def observe(self) -> Observation:
        return EDITOR

    def observe_fresh(self) -> Observation:
        return EDITOR

    def observe_for(self, action: Any, *, fresh: bool = False) -> Observation:
        return EDITOR

    def preview(self, action: Any, outline: Any = None) -> None:
        return None


class Approver:
    """Approves once; `during(request)` runs while the dialog is open."""

    def __init__(self) -> None:
        self.during: Any = None
        self.asked: list[ApprovalRequest] = []

    def ask(self, request: ApprovalRequest, timeout: float) -> Reply:
        self.asked.append(request)
        if self.during is not None:
            self.during(request)
        return Reply(Answer.APPROVE_ONCE)

    def cancel_all(self, reason: str) -> None:
        pass


class Recording(Executor):
    """The real executor, remembering the policy each action ran under."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.policies: list[Any] = []

    def execute(self, action: Any, policy: Any = None, **kw: Any) -> Any:
        self.policies.append(policy)
        return super().execute(action, policy)


class Peer:
    pid = os.getpid()
    uid = os.getuid()
    gid = os.getgid()


class Rig:
    def __init__(self, root: Path, text: str) -> None:
        self.root = root
        self.paths = Paths.for_testing(root)
        root.mkdir(parents=True, exist_ok=True)
        self.policy_file = root / "policy.toml"
        self.policy_file.write_text(text)
        policy = load_policy(self.policy_file)
        self.audit = AuditLog(self.paths.db)
        self.executor = Recording(policy)
        self.approver = Approver()
        self.sup = Supervisor(gate=SafetyGate(policy), audit=self.audit, desktop=Desktop(), executor=self.executor,
                              approver=self.approver, policy=policy, paths=self.paths)
        self.sup.policy_file = self.policy_file
        self.conn = self.sup.connect(Peer())
        self.conn.handle(Hello(v=1, id="h", agent="reload-test"))
        self.n = 0

    def reload(self, text: str) -> None:
        self.policy_file.write_text(text)
        self.sup.reload_policy("test")

    def shell(self, command: str, cwd: Path) -> dict[str, Any]:
        self.n += 1
        action = action_from_dict({"type": "shell", "command": command, "cwd": str(cwd)})
        return self.conn.handle(Act(v=1, id=str(self.n), action=action))

    def close(self) -> None:
        self.conn.close()
        self.sup.close()
        self.audit.close()


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    return first, second


# -- the fence follows a reload -------------------------------------------------------------------------


@needs_bwrap
def test_after_a_reload_the_fence_binds_the_new_writable_roots(tmp_path: Path, dirs: tuple[Path, Path]) -> None:
    first, second = dirs
    rig = Rig(tmp_path / "dg", policy_text([first]))
    try:
        before = rig.shell(f"touch {first}/a; touch {second}/b", cwd=first)
        assert before["verdict"] == "error"            # the second touch fails: only `first` is writable
        assert (first / "a").exists() and not (second / "b").exists()

        rig.reload(policy_text([second]))
        after = rig.shell(f"touch {second}/c; touch {first}/d", cwd=second)
        assert after["verdict"] == "error", after      # now it is `first` that is read-only
        assert (second / "c").exists() and not (first / "d").exists()
        assert f"{first}/d" in after["result"]["stderr"]   # the old root is not bound inside any more
        ok = rig.shell(f"touch {second}/e", cwd=second)
        assert ok["verdict"] == "executed" and ok["result"]["fenced"] is True
    finally:
        rig.close()


@needs_bwrap
def test_after_a_reload_the_fence_follows_the_new_network_switch(tmp_path: Path, dirs: tuple[Path, Path]) -> None:
    first, _ = dirs
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    probe = f"exec 3<>/dev/tcp/127.0.0.1/{server.getsockname()[1]} && echo connected"
    rig = Rig(tmp_path / "dg", policy_text([first], network=False))
    try:
        off = rig.shell(probe, cwd=first)
        assert off["verdict"] == "error" and "connected" not in off["result"]["stdout"]
        rig.reload(policy_text([first], network=True))
        on = rig.shell(probe, cwd=first)
        assert on["verdict"] == "executed" and "connected" in on["result"]["stdout"]
        rig.reload(policy_text([first], network=False))
        again = rig.shell(probe + " # again", cwd=first)  # another text: loop detection stays out of it
        assert again["verdict"] == "error" and "connected" not in again["result"]["stdout"]
    finally:
        rig.close()
        server.close()


# -- a request in flight keeps its runtime ---------------------------------------------------------------


@needs_bwrap
def test_a_request_in_flight_during_a_reload_runs_under_the_policy_it_started_with(
        tmp_path: Path, dirs: tuple[Path, Path]) -> None:
    first, second = dirs
    rig = Rig(tmp_path / "dg", policy_text([first], timeout_s=30))
    old_policy = rig.sup.policy
    # while the person is being asked, the policy is reloaded with other roots and another dialog timeout
    rig.approver.during = lambda request: rig.reload(policy_text([second], timeout_s=45))
    try:
        reply = rig.shell(f"touch {first}/old-roots", cwd=first)
        assert reply["verdict"] == "executed", reply      # the fence of the policy the request started under
        assert (first / "old-roots").exists()
        assert rig.approver.asked[0].timeout_s == 30
        assert rig.executor.policies == [old_policy]
        assert rig.sup.policy is not old_policy and rig.sup.policy.fence.writable == [str(second)]

        rig.approver.during = None
        nxt = rig.shell(f"touch {first}/new-roots", cwd=first)  # the next request: the new policy, whole
        assert nxt["verdict"] == "error" and not (first / "new-roots").exists()
        assert rig.approver.asked[1].timeout_s == 45
        assert rig.executor.policies[1] is rig.sup.policy
    finally:
        rig.close()


def test_a_plan_in_flight_keeps_its_gate_between_steps(tmp_path: Path, dirs: tuple[Path, Path]) -> None:
    """A reload between a plan's steps does not change how its later steps are re-checked: the new policy
    here asks for every `wait`, which the old one allowed, and the plan still runs to its end."""
    first, _ = dirs
    rig = Rig(tmp_path / "dg", policy_text([first]))
    strict = policy_text([first]).replace('modes = { shell = "ask" }', 'modes = { shell = "ask", wait = "ask" }')
    seen: list[Any] = []

    def reload_after_first_step(action: Any, policy: Any) -> Any:
        seen.append(policy)
        if len(seen) == 1:
            rig.reload(strict)
        return Executor.execute(rig.executor, action, policy)

    rig.executor.execute = reload_after_first_step  # type: ignore[method-assign]
    try:
        waits = [action_from_dict({"type": "wait", "seconds": 0}) for _ in range(3)]
        reply = rig.conn.handle(Plan(v=1, id="p", actions=waits))
        assert reply["verdict"] == Verdict.EXECUTED, reply
        assert rig.sup.gate.assess(waits[1], EDITOR, None).decision.value == "confirm"  # the new policy asks
        assert [s["verdict"] for s in reply["steps"]] == ["executed"] * 3
        assert len({id(p) for p in seen}) == 1 and seen[0] is not rig.sup.policy
    finally:
        rig.close()


# -- the runtime itself ------------------------------------------------------------------------------------


def test_a_runtime_is_built_whole_from_one_policy_and_cannot_be_changed(tmp_path: Path) -> None:
    policy = load_policy(preset="balanced")
    rt = PolicyRuntime.build(policy)
    assert rt.gate.policy is policy
    assert (rt.limits, rt.approvals, rt.fence) == (policy.limits, policy.approvals, policy.fence)
    with pytest.raises(AttributeError):
        rt.policy = load_policy(preset="kiosk")  # type: ignore[misc]
    ref = PolicyRef(rt)
    other = PolicyRuntime.build(load_policy(preset="kiosk"))
    assert ref.swap(other) is rt and ref.now is other


def test_a_bad_policy_changes_nothing(tmp_path: Path, dirs: tuple[Path, Path]) -> None:
    first, _ = dirs
    rig = Rig(tmp_path / "dg", policy_text([first]))
    before = rig.sup.runtime.now
    try:
        rig.policy_file.write_text("[limits]\nstep_timeout_s = -1\n")
        with pytest.raises(ValueError):
            rig.sup.reload_policy("test")
        assert rig.sup.runtime.now is before
    finally:
        rig.close()


def test_many_reloads_during_load_never_mix_two_policies_in_one_request(tmp_path: Path,
                                                                        dirs: tuple[Path, Path]) -> None:
    """Requests racing reloads: each one's approval timeout and executor policy come from one runtime."""
    first, second = dirs
    texts = [policy_text([first], timeout_s=30), policy_text([second], timeout_s=45)]
    rig = Rig(tmp_path / "dg", texts[0])
    mixed: list[str] = []
    by_request: dict[str, float] = {}
    rig.approver.during = lambda request: by_request.__setitem__(request.request_id, request.timeout_s)

    def execute(action: Any, policy: Any) -> Any:
        result = Executor.execute(rig.executor, action_from_dict({"type": "wait", "seconds": 0}), policy)
        result.detail["timeout_s"] = policy.approvals.timeout_s
        return result

    rig.executor.execute = execute  # type: ignore[method-assign]
    stop = threading.Event()

    def reloader() -> None:
        i = 0
        while not stop.is_set():
            i += 1
            rig.reload(texts[i % 2])

    t = threading.Thread(target=reloader)
    t.start()
    try:
        for _ in range(40):
            reply = rig.shell(f"true {rig.n}", cwd=first)
            rid = str(rig.n)
            if reply["verdict"] == "executed" and reply["result"]["timeout_s"] != by_request.get(rid):
                mixed.append(rid)
    finally:
        stop.set()
        t.join()
        rig.close()
    assert len(by_request) == 40
    assert not mixed
