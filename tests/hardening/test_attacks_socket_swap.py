"""A same-uid agent deletes deskgate's control socket and binds its own there, so the person's
`deskgate kill` reaches an impostor that answers "killed" (the client's uid check passes: same uid).
deskgate watches the socket paths it serves: a removed or replaced socket is an attack on the
supervisor; it kills (nothing more runs), raises an alarm for the person and takes the path back, so the
person's next `deskgate kill`/`status` reaches the real supervisor again. Real runtime, real sockets."""

from __future__ import annotations

import os
import socket
import time

import pytest

from app.agent.client import Client

POLICY = """
[fence]
enabled = false
required = false
"""


def _wait(pred, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if pred():
                return True
        except FileNotFoundError:  # the socket path is briefly absent while the supervisor binds it anew
            pass
        time.sleep(0.05)
    return pred()


@pytest.mark.parametrize("which", ["control", "agent"])
def test_a_replaced_socket_kills_alarms_and_is_taken_back(deskgate_home, serve_in_process, which) -> None:
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    alarms: list[dict] = []
    rt.supervisor.subscribe(lambda e: alarms.append(e) if e.get("kind") == "alarm" else None)
    path = home["socket"].with_name("control.sock") if which == "control" else home["socket"]
    os.unlink(path)
    fake = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    fake.bind(str(path))
    fake.listen(4)
    try:
        assert _wait(lambda: rt.supervisor.state == "killed"), "the replaced socket went unnoticed"
        assert _wait(lambda: any("socket" in a.get("message", "") for a in alarms)), alarms
        # the path is deskgate's again: the person's client reaches the real supervisor
        assert _wait(lambda: os.stat(path).st_ino != os.fstat(fake.fileno()).st_ino)
        with Client(home["socket"], timeout=20) as dg:
            assert dg.control("status")["state"] == "killed"
    finally:
        fake.close()
