"""A kill reaches a shell command that is already running: its whole process group is terminated and
the agent's reply for it says "killed" (real server, supervisor, executor and audit log)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from app.agent.client import Client
from app.audit.reader import AuditReader

POLICY = """
[gate]
modes = { shell = "allow" }

[fence]
enabled = false
required = false
"""


def _wait_for(path: Path, deadline_s: float = 20.0) -> None:
    end = time.monotonic() + deadline_s
    while not path.exists():
        if time.monotonic() > end:
            pytest.fail(f"{path} never appeared")
        time.sleep(0.02)


def _group_members(pgid: int) -> list[int]:
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(entry))
    return members


def test_kill_terminates_a_running_shell_command_and_replies_killed(deskgate_home, serve_in_process, tmp_path):
    home = deskgate_home(POLICY)
    rt = serve_in_process(home)
    started, marker, pidfile = tmp_path / "started", tmp_path / "marker", tmp_path / "pid"
    # a background child as well: it is in the same process group and must die with the command
    command = f"echo $$ > {pidfile}; touch {started}; sleep 60 & sleep 60; touch {marker}"
    replies: list[dict] = []

    def agent() -> None:
        with Client(home["socket"], timeout=120) as c:
            c.hello("kill-test")
            replies.append(c.act({"type": "shell", "command": command}))

    t = threading.Thread(target=agent)
    t.start()
    _wait_for(started)
    pgid = int(pidfile.read_text())
    assert _group_members(pgid), "the command should be running"
    with Client(home["socket"], timeout=30) as person:
        person.control("kill", "stop everything")
    t.join(30)
    assert not t.is_alive(), "the kill did not end the running command"
    (reply,) = replies
    assert reply["verdict"] == "killed"
    assert reply["decided_by"] == "kill-switch"
    assert _group_members(pgid) == []
    assert not marker.exists()
    rt.audit.flush()
    with AuditReader(home["db"]) as log:
        (row,) = log.query(limit=1)
    assert row["verdict"] == "killed"

