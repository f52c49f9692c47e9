"""No assessment holds up the person's control traffic (issue 10, item 2).

A regex over a long string runs in C holding the GIL; on the server's threads it would stall every
connection, `deskgate kill` and `status` included. A big request is therefore assessed in a worker
process (app/daemon/assessor.py). Covered: while a big command is in the worker, `status` and `kill` over the
control socket are answered and the request ends denied by the kill switch; an assessment that overruns
`limits.step_timeout_s` is refused with `timeout` and its worker replaced; small requests stay inline.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

from app.agent.client import Client, DeskgateError

POLICY = """
[fence]
enabled = false
required = false
"""

# a command whose secret scan is slow: long enough to watch the worker busy with it
BIG = "echo 'pass " + "a-" * 5000 + "'"


@pytest.fixture
def home(deskgate_home):
    return deskgate_home(POLICY)


def control(path: Path, command: str) -> dict:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(str(path))
    try:
        s.sendall(json.dumps({"v": 1, "id": "c", "op": "control", "command": command}).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        return json.loads(data)
    finally:
        s.close()


def wait_for(pred, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.005)
    return pred()


def test_status_and_kill_are_served_while_a_big_request_is_assessed(home, serve_in_process) -> None:
    rt = serve_in_process(home)
    control_sock = home["socket"].with_name("control.sock")
    result: list = []

    def agent() -> None:
        with Client(home["socket"], timeout=120) as dg:
            dg.hello("big")
            try:
                result.append(dg.act({"type": "shell", "command": BIG}, execute=False))
            except DeskgateError as err:
                result.append(err)

    t = threading.Thread(target=agent)
    t.start()
    assert wait_for(lambda: rt.supervisor.assessor.busy)
    status = control(control_sock, "status")
    assert status["ok"] and status["state"] == "active"
    killed = control(control_sock, "kill")
    answered_during = rt.supervisor.assessor.busy
    assert killed["state"] == "killed"
    t.join(120)
    assert answered_during  # both answers came while the big request was still in the worker
    reply = result[0]
    assert isinstance(reply, dict), reply  # assessed, recorded, then stopped: not "allowed"
    assert (reply["verdict"], reply["decided_by"]) == ("denied", "kill-switch")


def test_an_assessment_past_the_step_timeout_is_refused(deskgate_home, serve_in_process, monkeypatch) -> None:
    home = deskgate_home(POLICY + "\n[limits]\nstep_timeout_s = 1\n")
    rt = serve_in_process(home)
    assessor = rt.supervisor.assessor
    run = assessor._run
    # The worker's answer can never come within a millisecond (a fresh worker first starts Python): the
    # deadline passes however fast the gate has become, which is what this test needs.
    monkeypatch.setattr(assessor, "_run", lambda gate, kind, args, timeout_s: run(gate, kind, args, 0.001))
    with Client(home["socket"], timeout=120) as dg:
        dg.hello("slow")
        with pytest.raises(DeskgateError) as err:
            dg.act({"type": "shell", "command": "echo 'pass " + "a-" * 20000 + "'"}, execute=False)
        assert err.value.code == "timeout" and "step_timeout_s" in err.value.message
        assert not assessor.busy and assessor._proc is None  # the overrunning worker is gone
        # the next big request gets a fresh worker (given time to start Python and build its gate, however
        # loaded the machine is: the 1 s step timeout is for the overrun above)
        monkeypatch.setattr(assessor, "_run", lambda gate, kind, args, timeout_s: run(gate, kind, args, 60.0))
        assert dg.check({"type": "shell", "command": "echo " + "b" * 9000})["decision"] in ("allow", "confirm")
        assert assessor._proc is not None


def test_small_requests_stay_inline(home, serve_in_process) -> None:
    rt = serve_in_process(home)
    with Client(home["socket"], timeout=30) as dg:
        dg.hello("small")
        assert dg.act({"type": "wait", "seconds": 0})["verdict"] == "executed"
    assert rt.supervisor.assessor._proc is None  # no worker was ever needed
