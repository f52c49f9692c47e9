"""Kill ends what the agent started.

Before, `open_app` started any program on PATH (`open_app yes` ran `yes`), detached in a session of its
own, and it kept running after `deskgate kill`. Now `open_app` starts only installed desktop
applications (a `.desktop` entry of the system, its own Exec line), each in a process group deskgate owns
(or a systemd scope). The kill switch freezes the group, the program and what it started (desktop
applications the person may be using are not ended under them), and the person then ends or resumes them.
"""

from __future__ import annotations

import time

import msgspec

from app.execute.apps import default_app_dirs, find_app
from app.execute.executor import Executor
from gate.model import action_from_dict
from gate.policy import FencePolicy, default_policy


def _executor(apps) -> Executor:
    policy = msgspec.structs.replace(default_policy(), fence=FencePolicy(enabled=False, required=False,
                                                                         writable=[], network=False,
        networked_programs=[]))
    return Executor(policy, app_dirs=[apps])


def _state(pid: int) -> str:
    """The process's state letter (R, S, T stopped, Z zombie), "" when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return ""


def _alive(pid: int) -> bool:
    return _state(pid) not in ("", "Z")


def _stopped(pid: int) -> bool:
    return _state(pid) == "T"


def _wait_for(pred, what: str) -> None:
    for _ in range(500):  # waits for an event, bounded: not a timing assertion
        if pred():
            return
        time.sleep(0.02)
    raise AssertionError(what)


def test_any_program_is_not_an_app(tmp_path):
    ex = _executor(tmp_path / "applications")
    for name in ("yes", "sh", "python3", "bash"):
        r = ex.execute(action_from_dict({"type": "open_app", "app": name}))
        assert r.error is not None and r.error.code == "unsupported", name


def _launcher_app(tmp_path, body: str = ""):
    """An installed app whose launcher starts a detached child (what a real application's wrapper script
    does) and a child in a session of its own (what a terminal does with its shell), then waits."""
    bindir, apps, pids = tmp_path / "bin", tmp_path / "applications", tmp_path / "pids"
    bindir.mkdir()
    apps.mkdir()
    launcher = bindir / "launcher"
    launcher.write_text(f"#!/bin/sh\nnohup sleep 300 >/dev/null 2>&1 &\necho $! > {pids}.tmp\n"
                        f"setsid sleep 301 >/dev/null 2>&1 &\necho $! >> {pids}.tmp\nmv {pids}.tmp {pids}\n"
                        "exec sleep 302\n")
    launcher.chmod(0o755)
    (apps / "org.example.Launcher.desktop").write_text(
        f"[Desktop Entry]\nType=Application\nName=Launcher\nExec={launcher}\n")
    return apps, pids


def _open(tmp_path):
    apps, pids = _launcher_app(tmp_path)
    ex = _executor(apps)
    r = ex.execute(action_from_dict({"type": "open_app", "app": "Launcher"}))
    assert r.ok, r.detail
    _wait_for(pids.exists, "the launcher never started its children")
    procs = [r.detail["pid"], *map(int, pids.read_text().split())]
    assert all(_alive(p) for p in procs)
    return ex, procs


def test_kill_freezes_an_opened_app_and_what_it_started_and_the_person_ends_them(tmp_path):
    ex, procs = _open(tmp_path)
    try:
        assert ex.cancel_all() >= 1  # the kill switch
        _wait_for(lambda: all(_stopped(p) for p in procs), "the app and its children were not all frozen")
        assert ex.apps.frozen() == ["Launcher"]
        assert ex.apps.end_frozen() == 1  # the tray's "End them"
        _wait_for(lambda: not any(_alive(p) for p in procs), "the frozen app outlived its end")
        assert ex.apps.frozen() == []
    finally:
        ex.apps.end_all()


def test_the_person_resumes_a_frozen_app(tmp_path):
    ex, procs = _open(tmp_path)
    try:
        ex.cancel_all()
        _wait_for(lambda: all(_stopped(p) for p in procs), "the app was not frozen")
        assert ex.apps.resume_frozen() == 1  # the tray's "Resume them"
        _wait_for(lambda: all(_alive(p) and not _stopped(p) for p in procs), "the app did not go on")
        assert ex.apps.frozen() == []
    finally:
        ex.apps.end_all()
        _wait_for(lambda: not any(_alive(p) for p in procs), "the app outlived its end")


def test_the_users_own_application_dir_is_not_searched(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".local/share/applications").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_DIRS", f"{home / '.local/share'}:/usr/share")
    assert all(not str(d).startswith(str(home)) for d in default_app_dirs())
    (home / ".local/share/applications/evil.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=evil\nExec=/bin/sh -c 'touch /tmp/x'\n")
    assert find_app("evil", default_app_dirs()) is None


def test_through_deskgate_a_kill_freezes_the_app_and_the_tray_names_it(tmp_path, monkeypatch):
    """A real deskgate: an agent opens an app (a person approves), `kill` freezes it, the tray's snapshot
    names it, and the person's "End them" ends it."""
    import argparse
    import shutil
    import tempfile
    import threading
    from pathlib import Path

    from app.agent.client import Client
    from app.desktop.screen import NullDesktop
    from app.ports import Answer, Reply
    from app.root.runtime import build_runtime
    from app.root.tray_state import TrayState

    class Person:
        def ask(self, request, timeout):
            return Reply(Answer.APPROVE_ONCE, by="person")

        def cancel_all(self, reason):
            pass

    apps, pids = _launcher_app(tmp_path)
    data = tmp_path / "share"
    data.mkdir()
    (data / "applications").symlink_to(apps)
    monkeypatch.setenv("XDG_DATA_DIRS", str(data))
    for var in ("XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        (tmp_path / var).mkdir()
        monkeypatch.setenv(var, str(tmp_path / var))
    (tmp_path / "policy.toml").write_text("[fence]\nenabled = false\nrequired = false\n")
    short = Path(tempfile.mkdtemp(prefix="dg-"))
    args = argparse.Namespace(headless=True, socket=short / "dg.sock", db=tmp_path / "audit.db",
                              policy=tmp_path / "policy.toml", preset=None, ask_in_terminal=False,
                              approver_rules=None, kill_hotkey="none", verbose=False)
    rt = build_runtime(args, desktop=NullDesktop(), approver=Person())
    thread = threading.Thread(target=rt.server.serve_forever, daemon=True)
    thread.start()
    procs: list[int] = []
    try:
        with Client(short / "dg.sock") as dg:
            dg.hello("opener")
            reply = dg.act({"type": "open_app", "app": "Launcher"})
        assert reply["verdict"] in ("executed", "approved"), reply
        _wait_for(pids.exists, "the launcher never started its children")
        procs = [reply["result"]["pid"], *map(int, pids.read_text().split())]
        rt.supervisor.kill("kill switch (tray)", "person (tray)")
        _wait_for(lambda: all(_stopped(p) for p in procs), "the app was not frozen at the kill")
        snap = TrayState(rt.supervisor, rt.audit.reader, lambda: 0, frozen=rt.apps.frozen).snapshot()
        assert snap.state == "killed" and snap.frozen == ("Launcher",)
        assert rt.apps.end_frozen() == 1
        _wait_for(lambda: not any(_alive(p) for p in procs), "the frozen app outlived its end")
    finally:
        if rt.apps is not None:
            rt.apps.end_all()
        rt.stop()
        thread.join(5)
        shutil.rmtree(short, ignore_errors=True)
