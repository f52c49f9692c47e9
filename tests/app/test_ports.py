"""The supervisor's ports (app/ports.py) and the verdicts (app/protocol.py).

Every real implementation has every member its port names, with parameters the supervisor's calls fit,
so the supervisor never has to ask an object what it can do; and the verdict enum is the vocabulary of
the wire and of the audit log both.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from app.audit.schema import VERDICTS
from app.audit.writer import AuditLog
from app.desktop.screen import NullDesktop, X11Desktop
from app.execute.executor import Executor
from app.ports import OUTCOME_VERDICTS, ActionExecutor, Approver, AuditSink, DesktopView, Verdict
from app.protocol import encode_reply, ok_reply
from gate.policy import default_policy


def members(port: type) -> set[str]:
    names = {n for n in vars(port) if not n.startswith("_")}
    return names | set(getattr(port, "__annotations__", {}))


def assert_implements(obj: Any, port: type) -> None:
    for name in members(port):
        assert hasattr(obj, name), f"{type(obj).__name__} lacks {port.__name__}.{name}"
        wanted = vars(port).get(name)
        if not inspect.isfunction(wanted):
            continue
        given = inspect.signature(getattr(obj, name))
        accepts_any = any(p.kind is p.VAR_KEYWORD for p in given.parameters.values())
        for param in list(inspect.signature(wanted).parameters.values())[1:]:  # after self
            assert accepts_any or param.name in given.parameters, \
                f"{type(obj).__name__}.{name} does not take {param.name!r} ({port.__name__})"


def test_the_audit_log_is_an_audit_sink(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.db")
    try:
        assert_implements(log, AuditSink)
        assert log.out_of_service is None
    finally:
        log.close()


@pytest.mark.parametrize("desktop", [NullDesktop, X11Desktop])
def test_the_desktops_are_desktop_views(desktop: type) -> None:
    for name in members(DesktopView):
        assert inspect.isfunction(getattr(desktop, name, None)), f"{desktop.__name__} lacks {name}"
    assert_implements(NullDesktop(), DesktopView)


def test_the_executor_is_an_action_executor() -> None:
    assert_implements(Executor(default_policy()), ActionExecutor)


def test_a_port_check_catches_a_missing_member() -> None:
    class Half:
        def execute(self, action: Any) -> None: ...

    with pytest.raises(AssertionError, match=r"cancel_all|policy"):
        assert_implements(Half(), ActionExecutor)


def test_approvers_are_approvers() -> None:
    from app.daemon.approvers import DenyAllApprover

    assert_implements(DenyAllApprover(), Approver)


# -- verdicts ---------------------------------------------------------------------------------------------


def test_a_verdict_is_the_string_on_the_wire_and_in_the_log() -> None:
    assert Verdict.EXECUTED == "executed" and Verdict.DENIED == "denied"
    assert {"executed": 1}[Verdict.EXECUTED] == 1  # same hash: string-keyed tables still find it
    assert json.loads(encode_reply(ok_reply("1", {"verdict": Verdict.KILLED, "steps": [Verdict.NOT_RUN]}))) == \
        {"id": "1", "ok": True, "verdict": "killed", "steps": ["not_run"]}


def test_the_outcome_verdicts_are_the_ones_the_audit_log_accepts() -> None:
    assert set(OUTCOME_VERDICTS) == set(VERDICTS)
    assert Verdict.NOT_RUN not in OUTCOME_VERDICTS  # a plan step's only
