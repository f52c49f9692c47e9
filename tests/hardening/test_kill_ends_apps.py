"""Kill ends what the agent started.

Before, `open_app` started any program on PATH (`open_app yes` ran `yes`), detached in a session of its
own, and it kept running after `deskgate kill`. Now `open_app` starts only installed desktop
applications (a `.desktop` entry of the system, its own Exec line), each in a process group deskgate owns
(or a systemd scope), and the kill switch ends the group: the program and what it started.
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


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


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


def test_kill_ends_an_opened_app_and_what_it_started(tmp_path):
    bindir, apps, pids = tmp_path / "bin", tmp_path / "applications", tmp_path / "pids"
    bindir.mkdir()
    apps.mkdir()
    launcher = bindir / "launcher"
    # a launcher that starts a child which detaches from the launcher (background, ignores SIGHUP), then
    # waits: what a real application's wrapper script does
    launcher.write_text(f"#!/bin/sh\nnohup sleep 300 >/dev/null 2>&1 &\necho $! > {pids}\nexec sleep 300\n")
    launcher.chmod(0o755)
    (apps / "org.example.Launcher.desktop").write_text(
        f"[Desktop Entry]\nType=Application\nName=Launcher\nExec={launcher}\n")
    ex = _executor(apps)
    r = ex.execute(action_from_dict({"type": "open_app", "app": "Launcher"}))
    assert r.ok, r.detail
    _wait_for(pids.exists, "the launcher never started its child")
    child = int(pids.read_text())
    leader = r.detail["pid"]
    assert _alive(child) and _alive(leader)
    assert ex.cancel_all() >= 1  # the kill switch
    _wait_for(lambda: not _alive(child) and not _alive(leader), "the app outlived the kill")


def test_the_users_own_application_dir_is_not_searched(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".local/share/applications").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_DIRS", f"{home / '.local/share'}:/usr/share")
    assert all(not str(d).startswith(str(home)) for d in default_app_dirs())
    (home / ".local/share/applications/evil.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=evil\nExec=/bin/sh -c 'touch /tmp/x'\n")
    assert find_app("evil", default_app_dirs()) is None
