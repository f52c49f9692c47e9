"""deskgate's own controls are the person's: an agent's press of the kill-switch chord is refused like a
click on deskgate's windows, through the pyautogui drop-in as through the wire, and nothing reaches the
executor (so the kill switch is not pressed)."""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from app.agent import pyautogui
from app.agent.client import Client
from app.desktop.screen import NullDesktop
from app.execute.executor import ExecResult
from app.root.runtime import build_runtime


class Recorder:
    def __init__(self) -> None:
        self.done: list = []

    def execute(self, action, policy) -> ExecResult:
        self.done.append(action)
        return ExecResult(True, {})

    def cancel_all(self) -> int:
        return 0


@pytest.fixture
def serve(tmp_path: Path, monkeypatch):
    """Start deskgate with `policy` as the person's file and `--kill-hotkey ctrl+alt+shift+k`."""
    started = []
    short = Path(tempfile.mkdtemp(prefix="dg-"))
    for var in ("XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        (tmp_path / var).mkdir()
        monkeypatch.setenv(var, str(tmp_path / var))
    monkeypatch.delenv("DISPLAY", raising=False)

    def start(policy: str = ""):
        (tmp_path / "policy.toml").write_text("[fence]\nenabled = false\nrequired = false\n" + policy)
        rec = Recorder()
        args = argparse.Namespace(headless=True, socket=short / "dg.sock", db=tmp_path / "audit.db",
                                  policy=tmp_path / "policy.toml", preset=None, ask_in_terminal=False,
                                  approver_rules=None, kill_hotkey="ctrl+alt+shift+k", verbose=False)
        rt = build_runtime(args, desktop=NullDesktop(), executor=rec)
        thread = threading.Thread(target=rt.server.serve_forever, daemon=True)
        thread.start()
        started.append((rt, thread))
        return short / "dg.sock", rec, rt

    yield start
    pyautogui.configure(None)
    for rt, thread in started:
        rt.stop()
        thread.join(5)
    shutil.rmtree(short, ignore_errors=True)


@pytest.fixture
def served(serve):
    sock, rec, _ = serve()
    return sock, rec


def test_the_kill_chord_from_an_agent_is_refused(served, monkeypatch) -> None:
    sock, rec = served
    monkeypatch.setattr(pyautogui, "PAUSE", 0)
    pyautogui.configure(sock, agent="chord-agent")
    with pytest.raises(pyautogui.ActionRefused) as refused:
        pyautogui.hotkey("ctrl", "alt", "shift", "k")
    assert refused.value.decision == "block" and "block.self.kill-switch-keys" in refused.value.rules
    assert "only the person presses it" in refused.value.reason
    pyautogui.hotkey("ctrl", "s")  # a near miss goes through
    assert [a.keys for a in rec.done] == [["ctrl", "s"]]


def test_the_chord_is_refused_on_the_wire_too(served) -> None:
    sock, rec = served
    with Client(sock) as dg:
        dg.hello("wire-agent")
        reply = dg.act({"type": "key", "keys": ["shift", "alt", "ctrl", "k"]})
    assert reply["verdict"] == "denied" and reply["decided_by"] == "policy"
    assert rec.done == []


def test_a_reload_keeps_the_command_line_kill_hotkey(serve) -> None:
    """The listener keeps `--kill-hotkey` for the whole run, so a reload of a file that names another
    hotkey still refuses an agent's press of the one really in use."""
    sock, rec, rt = serve('\n[desktop]\nkill_hotkey = "ctrl+alt+j"\n')
    assert rt.supervisor.policy.desktop.kill_hotkey == "ctrl+alt+shift+k"
    policy = rt.supervisor.reload_policy()
    assert policy.desktop.kill_hotkey == "ctrl+alt+shift+k"
    assert rt.supervisor.policy.desktop.kill_hotkey == "ctrl+alt+shift+k"
    with Client(sock) as dg:
        dg.hello("reload-agent")
        refused = dg.act({"type": "key", "keys": ["ctrl", "alt", "shift", "k"]})
        near = dg.act({"type": "key", "keys": ["ctrl", "s"]})
    assert refused["verdict"] == "denied" and "block.self.kill-switch-keys" in refused["rules"]
    assert near["verdict"] == "executed"
    assert [a.keys for a in rec.done] == [["ctrl", "s"]]


def test_a_signal_to_the_supervisors_own_number_is_refused(served) -> None:
    """The number learned from an earlier step's `pgrep` output: the gate never saw it, the supervisor knows
    its own process and hands that to the gate."""
    sock, rec = served
    own = os.getpid()  # the supervisor runs in this process here
    with Client(sock) as dg:
        dg.hello("pid-agent")
        stop = dg.act({"type": "shell", "command": f"kill -STOP {own}"})
        other = dg.act({"type": "shell", "command": f"kill {own + 1}"})
    assert stop["verdict"] == "denied" and "block.shell.own-process" in stop["rules"]
    assert other["verdict"] == "executed"
    assert [a.command for a in rec.done] == [f"kill {own + 1}"]


def test_a_signal_to_the_supervisor_found_by_name_is_refused(served) -> None:
    """`pkill -f` with a pattern that matches the supervisor's own command line (here pytest's, the process
    the supervisor runs in) is refused before anything runs; a pattern that matches something else runs."""
    sock, rec = served
    with Client(sock) as dg:
        dg.hello("name-agent")
        stop = dg.act({"type": "shell", "command": "pkill -STOP -f 'py[t]est'"})
        lookup = dg.act({"type": "shell", "command": "kill -STOP $(pgrep -f pytest)"})
        other = dg.act({"type": "shell", "command": "pkill -f webpack-dev-server"})
    assert stop["verdict"] == "denied" and "block.shell.own-process-name" in stop["rules"]
    assert lookup["verdict"] == "denied" and "block.shell.own-process-name" in lookup["rules"]
    assert other["verdict"] == "executed"
    assert [a.command for a in rec.done] == ["pkill -f webpack-dev-server"]


def test_root_through_wsl_a_foreign_credential_store_and_the_log_through_a_parent_are_refused(served) -> None:
    """Over the wire, headless with no approver: what asks is denied, what blocks is denied by policy with its
    rule, and the near misses run."""
    sock, rec = served
    with Client(sock) as dg:
        dg.hello("attack-agent")
        root = dg.act({"type": "shell", "command": "wsl -u root -e apt-get install -y nmap"})
        creds = dg.act({"type": "shell", "command": "DOCKER_CONFIG=/root/.docker docker image ls"})
        erase = dg.act({"type": "shell", "command": "find ~/.local -name 'audit*' -exec truncate -s0 {} +"})
        as_user = dg.act({"type": "shell", "command": "wsl -u builder ls /srv"})
        own_config = dg.act({"type": "shell", "command": "DOCKER_CONFIG=./ci/docker docker image ls"})
    assert root["verdict"] == "denied" and "confirm.shell.privilege-escalation" in root["rules"]
    assert creds["verdict"] == "denied" and "confirm.shell.secret-read" in creds["rules"]
    assert erase["verdict"] == "denied" and "block.shell.supervisor-tamper" in erase["rules"]
    assert as_user["verdict"] == own_config["verdict"] == "executed"
    assert [a.command for a in rec.done] == ["wsl -u builder ls /srv", "DOCKER_CONFIG=./ci/docker docker image ls"]


def test_the_kill_switch_undone_through_the_interpreter_is_refused(served) -> None:
    sock, rec = served
    with Client(sock) as dg:
        dg.hello("resume-agent")
        module = dg.act({"type": "shell", "command": "python3 -m app.cli.main resume"})
        script = dg.act({"type": "shell", "command": f"{os.sys.executable} /opt/venv/bin/deskgate unpause"})
        status = dg.act({"type": "shell", "command": "python3 -m app.cli.main status"})
    for reply in (module, script):
        assert reply["verdict"] == "denied" and "block.shell.supervisor-tamper" in reply["rules"], reply
    assert status["verdict"] == "executed"
    assert [a.command for a in rec.done] == ["python3 -m app.cli.main status"]
