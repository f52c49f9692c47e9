"""The executor without a display: key names, shell (fenced and not), files, programs, system actions.

GUI actions on a real desktop are in test_desktop.py.
"""

from __future__ import annotations

import os
import shutil
import stat
import time

import msgspec
import pytest

from app.errors import DeskgateError
from app.execute.executor import ExecResult, Executor, map_key, map_keys
from app.execute.systemactions import plan_system
from gate.model import action_from_dict
from gate.policy import FencePolicy, default_policy

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


def make_executor(tmp_path, *, fence: bool = True, required: bool = True, bwrap: str = "bwrap",
                  step_timeout: int = 30, max_shell_timeout: int = 1800, **kw) -> Executor:
    base = default_policy()
    policy = msgspec.structs.replace(
        base,
        fence=FencePolicy(enabled=fence, required=required, writable=[str(tmp_path)], network=False,
                           networked_programs=[]),
        limits=msgspec.structs.replace(base.limits, step_timeout_s=step_timeout,
                                       max_shell_timeout_s=max_shell_timeout),
    )
    return Executor(policy, bwrap=bwrap, **kw)


def act(executor: Executor, **fields) -> ExecResult:
    result = executor.execute(action_from_dict(fields))
    assert isinstance(result, ExecResult)
    assert "elapsed_ms" in result.detail
    return result


def fake_tool(bindir, name: str, script: str) -> None:
    bindir.mkdir(exist_ok=True)
    path = bindir / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)


# -- key names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("given", "expected"), [
    ("ctrl", "ctrl"), ("Control", "ctrl"), ("cmd", "win"), ("super", "win"), ("Meta", "win"),
    ("option", "alt"), ("Return", "enter"), ("enter", "enter"), ("Escape", "esc"), ("esc", "esc"),
    ("Page_Up", "pageup"), ("page down", "pagedown"), ("PgUp", "pgup"), ("ArrowLeft", "left"),
    ("BackSpace", "backspace"), ("Delete", "delete"), ("del", "del"), ("F5", "f5"), ("f24", "f24"),
    ("space", "space"), ("Tab", "tab"), ("A", "a"), ("7", "7"), ("/", "/"), ("plus", "+"),
    ("Super_L", "winleft"), ("caps_lock", "capslock"), ("Print", "print"),
])
def test_map_key(given, expected):
    assert map_key(given) == expected


@pytest.mark.parametrize("bad", ["hyper", "f25", "é", "ctrl-alt-nope", "\x00"])
def test_unknown_keys_are_unsupported(bad):
    with pytest.raises(DeskgateError) as err:
        map_key(bad)
    assert err.value.code == "unsupported"


def test_map_keys_splits_combinations():
    assert map_keys(["ctrl", "shift", "t"]) == ["ctrl", "shift", "t"]
    assert map_keys(["ctrl+s"]) == ["ctrl", "s"]
    assert map_keys(["cmd+shift+Page_Up"]) == ["win", "shift", "pageup"]
    assert map_keys(["ctrl++"]) == ["ctrl", "+"]
    assert map_keys(["+"]) == ["+"]
    with pytest.raises(DeskgateError):
        map_keys(["ctrl+"])


def test_key_action_with_unknown_key_is_refused_before_any_display_use(tmp_path, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    r = act(make_executor(tmp_path), type="key", keys=["ctrl", "hyperdrive"])
    assert not r.ok and r.error.code == "unsupported"
    assert "hyperdrive" in r.error.message


# -- refusals without a display / for tools ----------------------------------------------------------


@pytest.mark.parametrize("action", [
    {"type": "click", "x": 10, "y": 10}, {"type": "move", "x": 10, "y": 10},
    {"type": "drag", "path": [[1, 1], [5, 5]]}, {"type": "scroll", "dy": 3}, {"type": "type", "text": "hi"},
    {"type": "key", "keys": ["enter"]}, {"type": "screenshot"},
])
def test_gui_actions_without_display_are_unsupported(tmp_path, monkeypatch, action):
    monkeypatch.delenv("DISPLAY", raising=False)
    r = make_executor(tmp_path).execute(action_from_dict(action))
    assert not r.ok and r.error.code == "unsupported"
    assert "display" in r.error.message


def test_tool_calls_are_not_executed_by_deskgate(tmp_path):
    r = act(make_executor(tmp_path), type="tool", name="Bash", input={"command": "ls"})
    assert not r.ok and r.error.code == "unsupported"


def test_execute_never_raises_on_unknown_objects(tmp_path):
    class Odd:
        type = "teleport"

    r = make_executor(tmp_path).execute(Odd())
    assert not r.ok and r.error.code == "unsupported"


def test_wait_is_bounded_by_the_step_timeout(tmp_path):
    ex = make_executor(tmp_path, step_timeout=1)
    t0 = time.monotonic()
    r = act(ex, type="wait", seconds=5)
    assert r.ok and r.detail["slept_s"] == 1.0
    assert 0.9 < time.monotonic() - t0 < 3


# -- shell ----------------------------------------------------------------------------------------------


@needs_bwrap
def test_shell_command_string_runs_in_bash_inside_the_fence(tmp_path):
    r = act(make_executor(tmp_path), type="shell", command="echo out; echo err >&2; exit 3", cwd=str(tmp_path))
    assert not r.ok and r.error is None
    assert r.detail["fenced"] is True
    assert r.detail["exit_code"] == 3
    assert r.detail["stdout"] == "out\n" and r.detail["stderr"] == "err\n"
    assert r.detail["stdout_bytes"] == 4 and not r.detail["stdout_truncated"]


@needs_bwrap
def test_argv_form_runs_without_a_shell(tmp_path):
    r = act(make_executor(tmp_path), type="shell", argv=["echo", "$HOME;", "`id`"], cwd=str(tmp_path))
    assert r.ok
    assert r.detail["stdout"] == "$HOME; `id`\n"  # nothing expanded: no shell in between


@needs_bwrap
def test_fenced_shell_cannot_write_outside_writable_dirs(tmp_path):
    r = act(make_executor(tmp_path), type="shell", command="touch /usr/deskgate-exec-probe", cwd=str(tmp_path))
    assert not r.ok and r.detail["exit_code"] != 0
    assert not os.path.exists("/usr/deskgate-exec-probe")
    ok = act(make_executor(tmp_path), type="shell", command="echo hi > made.txt", cwd=str(tmp_path))
    assert ok.ok and (tmp_path / "made.txt").read_text() == "hi\n"


@needs_bwrap
def test_each_call_runs_under_the_policy_it_is_given_not_the_one_at_construction(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    ex = make_executor(first)
    other = msgspec.structs.replace(
        ex.policy, fence=FencePolicy(enabled=True, required=True, writable=[str(second)], network=False,
                                     networked_programs=[]),
        limits=msgspec.structs.replace(ex.policy.limits, step_timeout_s=1))
    touch = action_from_dict({"type": "shell", "command": f"touch {first}/a {second}/b", "cwd": "/"})
    r = ex.execute(touch, other)
    assert not r.ok and (second / "b").exists() and not (first / "a").exists()
    r = ex.execute(touch)  # no policy named: the one given at construction
    assert not r.ok and (first / "a").exists()
    slow = action_from_dict({"type": "shell", "command": "sleep 5", "cwd": "/"})
    r = ex.execute(slow, other)
    assert r.error is not None and r.error.code == "timeout" and "after 1 s" in r.error.message


def test_required_fence_unavailable_is_sandbox_denied_and_nothing_runs(tmp_path):
    ex = make_executor(tmp_path, bwrap=str(tmp_path / "missing-bwrap"))
    marker = tmp_path / "ran"
    r = act(ex, type="shell", command=f"touch {marker}", cwd=str(tmp_path))
    assert not r.ok and r.error.code == "sandbox_denied"
    assert "not found" in r.error.message
    assert not marker.exists()


def test_optional_fence_unavailable_runs_unfenced_and_says_so(tmp_path):
    ex = make_executor(tmp_path, required=False, bwrap=str(tmp_path / "missing-bwrap"))
    r = act(ex, type="shell", command="echo ran", cwd=str(tmp_path))
    assert r.ok and r.detail["fenced"] is False
    assert "not found" in r.detail["fence_unavailable"]


def test_fence_disabled_runs_directly(tmp_path):
    r = act(make_executor(tmp_path, fence=False), type="shell", command="touch direct", cwd=str(tmp_path))
    assert r.ok and r.detail["fenced"] is False
    assert (tmp_path / "direct").exists()


def test_environment_is_minimal_plus_the_actions_vars(tmp_path, monkeypatch):
    monkeypatch.setenv("DESKGATE_TEST_PARENT_SECRET", "s3cret")
    r = act(make_executor(tmp_path, fence=False), type="shell", argv=["env"], env={"GREETING": "hello"},
            cwd=str(tmp_path))
    env = dict(line.split("=", 1) for line in r.detail["stdout"].splitlines())
    assert env["GREETING"] == "hello"
    assert "DESKGATE_TEST_PARENT_SECRET" not in env
    assert "DISPLAY" not in env and "XDG_RUNTIME_DIR" not in env
    assert set(env) <= {"PATH", "HOME", "USER", "LOGNAME", "LANG", "TERM", "GREETING", "PWD", "SHLVL", "_"}


def test_timeout_kills_the_command_and_reports_timeout(tmp_path):
    ex = make_executor(tmp_path, fence=False)
    t0 = time.monotonic()
    r = act(ex, type="shell", command="echo started; sleep 20; echo never", timeout=0.5, cwd=str(tmp_path))
    assert time.monotonic() - t0 < 3
    assert not r.ok and r.error.code == "timeout"
    assert r.detail["timed_out"] and r.detail["exit_code"] is None
    assert r.detail["stdout"] == "started\n"


def test_an_actions_timeout_cannot_exceed_the_shell_timeout_ceiling(tmp_path):
    ex = make_executor(tmp_path, fence=False, step_timeout=1, max_shell_timeout=2)
    t0 = time.monotonic()
    r = act(ex, type="shell", command="sleep 20", timeout=600, cwd=str(tmp_path))
    assert r.error.code == "timeout"
    assert time.monotonic() - t0 < 5


def test_an_actions_own_timeout_may_be_longer_than_the_step_timeout(tmp_path):
    ex = make_executor(tmp_path, fence=False, step_timeout=1)
    r = act(ex, type="shell", command="sleep 1.5; echo done", timeout=10, cwd=str(tmp_path))
    assert r.ok and r.detail["stdout"] == "done\n"


def test_background_jobs_do_not_outlive_the_step(tmp_path):
    ex = make_executor(tmp_path, fence=False)
    r = act(ex, type="shell", command="sleep 60 >/dev/null 2>&1 & echo $!", cwd=str(tmp_path))
    assert r.ok
    pid = int(r.detail["stdout"])
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().split()[2] == "Z":
                    break  # killed, waiting to be reaped by init
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"background job {pid} is still running")


def test_output_is_truncated_but_counted(tmp_path):
    ex = make_executor(tmp_path, fence=False, output_limit=1000)
    r = act(ex, type="shell", command="head -c 500000 /dev/zero | tr '\\0' x", cwd=str(tmp_path))
    assert r.ok
    assert len(r.detail["stdout"]) == 1000
    assert r.detail["stdout_bytes"] == 500000 and r.detail["stdout_truncated"]


def test_missing_working_directory_is_refused(tmp_path):
    r = act(make_executor(tmp_path, fence=False), type="shell", command="true", cwd=str(tmp_path / "nope"))
    assert r.error.code == "bad_request"


def test_unknown_program_in_argv_form_fails_cleanly(tmp_path):
    r = act(make_executor(tmp_path, fence=False), type="shell", argv=["no-such-program-xyz"], cwd=str(tmp_path))
    assert not r.ok and r.error is None
    assert "cannot start" in r.detail["error"]


# -- files ------------------------------------------------------------------------------------------------


def test_file_write_is_atomic_and_needs_an_existing_parent(tmp_path):
    ex = make_executor(tmp_path)
    target = tmp_path / "notes.txt"
    r = act(ex, type="file_write", path=str(target), content="héllo\n")
    assert r.ok and r.detail["created"] and r.detail["bytes"] == len("héllo\n".encode())
    assert target.read_text() == "héllo\n"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]  # no temp file left behind
    missing = act(ex, type="file_write", path=str(tmp_path / "no" / "such" / "f.txt"), content="x")
    assert not missing.ok and "does not exist" in missing.detail["error"]
    assert not (tmp_path / "no").exists()


def test_file_write_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "script.sh"
    target.write_text("old")
    target.chmod(0o750)
    r = act(make_executor(tmp_path), type="file_write", path=str(target), content="new")
    assert r.ok and not r.detail["created"]
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750


def test_a_write_judged_as_a_new_file_never_replaces_one(tmp_path):
    """The gate lets a new document in a person's folders pass (gate/paths.py `new_personal_file`): a file that
    appears at that path between the judgement and the write stays as it is."""
    ex = make_executor(tmp_path)
    fresh = tmp_path / "agenda.md"
    write = action_from_dict({"type": "file_write", "path": str(fresh), "content": "monday"})
    r = ex.execute(write, judged=(str(fresh),), new_file=True)
    assert r.ok and r.detail["created"] and fresh.read_text() == "monday"
    again = ex.execute(write, judged=(str(fresh),), new_file=True)
    assert not again.ok and "not replaced" in again.detail["error"]
    fresh.unlink()
    (tmp_path / "elsewhere.txt").write_text("keep")
    fresh.symlink_to(tmp_path / "elsewhere.txt")
    assert not ex.execute(write, judged=(str(fresh),), new_file=True).ok
    assert (tmp_path / "elsewhere.txt").read_text() == "keep" and fresh.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agenda.md", "elsewhere.txt"]  # no temp file left


def test_file_write_goes_to_the_resolved_path(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    (tmp_path / "link.txt").symlink_to(real)
    r = act(make_executor(tmp_path), type="file_write", path=str(tmp_path / "link.txt"), content="new")
    assert r.ok and r.detail["path"] == str(real)  # the path the gate judges is the path written
    assert real.read_text() == "new"
    assert (tmp_path / "link.txt").is_symlink()


def test_file_read_text_binary_and_limit(tmp_path):
    ex = make_executor(tmp_path, file_read_limit=10)
    (tmp_path / "t.txt").write_text("0123456789abcdef")
    r = act(ex, type="file_read", path=str(tmp_path / "t.txt"))
    assert r.ok and r.detail["content"] == "0123456789"
    assert r.detail["size"] == 16 and r.detail["truncated"]
    (tmp_path / "b.bin").write_bytes(b"\xff\x00\xfe")
    b = act(ex, type="file_read", path=str(tmp_path / "b.bin"))
    assert b.ok and b.detail["content_base64"] == "/wD+"
    d = act(ex, type="file_read", path=str(tmp_path))
    assert not d.ok and "not a regular file" in d.detail["error"]
    os.mkfifo(tmp_path / "fifo")
    f = act(ex, type="file_read", path=str(tmp_path / "fifo"))  # must not block waiting for a writer
    assert not f.ok and "not a regular file" in f.detail["error"]
    m = act(ex, type="file_read", path=str(tmp_path / "missing"))
    assert not m.ok and m.error is None


def test_file_read_of_relative_path_is_relative_to_home(tmp_path, monkeypatch):
    from gate import paths

    monkeypatch.setattr(paths, "default_home", lambda: str(tmp_path))
    (tmp_path / "rel.txt").write_text("from home")
    r = act(make_executor(tmp_path), type="file_read", path="rel.txt")
    assert r.ok and r.detail["content"] == "from home"


def test_file_delete_deletes_files_only(tmp_path):
    ex = make_executor(tmp_path)
    f = tmp_path / "gone.txt"
    f.write_text("x")
    assert act(ex, type="file_delete", path=str(f)).ok
    assert not f.exists()
    d = tmp_path / "dir"
    d.mkdir()
    (d / "keep").write_text("k")
    r = act(ex, type="file_delete", path=str(d))
    assert r.error.code == "unsupported"
    assert (d / "keep").exists()
    missing = act(ex, type="file_delete", path=str(tmp_path / "never"))
    assert not missing.ok


def test_file_move_does_not_overwrite(tmp_path):
    ex = make_executor(tmp_path)
    a, b, c = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    a.write_text("A")
    b.write_text("B")
    r = act(ex, type="file_move", path=str(a), to=str(b))
    assert not r.ok and "exists" in r.detail["error"]
    assert a.read_text() == "A" and b.read_text() == "B"
    assert act(ex, type="file_move", path=str(a), to=str(c)).ok
    assert not a.exists() and c.read_text() == "A"


# -- desktop programs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["ftp://example.com/x", "file:///etc/passwd", "javascript:alert(1)", "https://"])
def test_navigate_refuses_non_web_urls(tmp_path, url):
    r = act(make_executor(tmp_path), type="navigate", url=url)
    assert r.error.code == "unsupported"


def test_navigate_uses_xdg_open(tmp_path, monkeypatch):
    bindir, log = tmp_path / "bin", tmp_path / "opened"
    fake_tool(bindir, "xdg-open", f'echo "$1" > {log}\n')
    monkeypatch.setenv("PATH", f"{bindir}:/usr/bin:/bin")
    r = act(make_executor(tmp_path), type="navigate", url="https://example.com/a?b=1")
    assert r.ok and r.detail["via"] == "xdg-open"
    deadline = time.monotonic() + 5
    while not log.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert log.read_text() == "https://example.com/a?b=1\n"


def test_navigate_reports_a_failing_opener(tmp_path, monkeypatch):
    fake_tool(tmp_path / "bin", "xdg-open", "exit 4\n")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    r = act(make_executor(tmp_path), type="navigate", url="http://example.com/")
    assert not r.ok and r.detail["exit_code"] == 4


def desktop_entry(appdir, app_id: str, exe, name: str = "") -> None:
    appdir.mkdir(exist_ok=True)
    (appdir / f"{app_id}.desktop").write_text(
        f"[Desktop Entry]\nType=Application\nName={name or app_id}\nExec={exe} %U\n")


def test_open_app_starts_an_installed_desktop_application(tmp_path):
    bindir, marker, apps = tmp_path / "bin", tmp_path / "started", tmp_path / "applications"
    fake_tool(bindir, "myeditor", f"touch {marker}\nsleep 2\n")
    desktop_entry(apps, "org.example.MyEditor", bindir / "myeditor", "My Editor")
    for name in ("org.example.MyEditor", "My Editor", "myeditor"):
        marker.unlink(missing_ok=True)
        r = act(make_executor(tmp_path, app_dirs=[apps]), type="open_app", app=name)
        assert r.ok and r.detail["app"] == str(bindir / "myeditor") and r.detail["desktop_id"] == "org.example.MyEditor"
        deadline = time.monotonic() + 5
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists()


@pytest.mark.parametrize("app", ["no-such-app-xyz", "firefox --new-tab evil", "/nonexistent/bin/app", "sh"])
def test_open_app_unknown_or_with_arguments_is_unsupported(tmp_path, app):
    r = act(make_executor(tmp_path, app_dirs=[tmp_path / "applications"]), type="open_app", app=app)
    assert r.error.code == "unsupported"


def test_open_app_that_dies_at_once_is_reported(tmp_path):
    fake_tool(tmp_path / "bin", "crashy", "exit 9\n")
    desktop_entry(tmp_path / "applications", "crashy", tmp_path / "bin" / "crashy")
    r = act(make_executor(tmp_path, app_dirs=[tmp_path / "applications"]), type="open_app", app="crashy")
    assert not r.ok and r.detail["exit_code"] == 9


# -- system actions -----------------------------------------------------------------------------------


def which_of(*available: str):
    return lambda tool: f"/usr/bin/{tool}" if tool in available else None


def test_volume_prefers_pactl_then_amixer():
    assert plan_system("volume", {"level": 40}, max_delay_s=600, which=which_of("pactl", "amixer")).argv == (
        "/usr/bin/pactl", "set-sink-volume", "@DEFAULT_SINK@", "40%")
    assert plan_system("volume", {"change": -5}, max_delay_s=600, which=which_of("amixer")).argv == (
        "/usr/bin/amixer", "-q", "sset", "Master", "5%-")
    with pytest.raises(DeskgateError) as err:
        plan_system("volume", {"level": 40}, max_delay_s=600, which=which_of())
    assert err.value.code == "unsupported" and "pactl" in err.value.message


@pytest.mark.parametrize(("name", "params"), [
    ("volume", {"level": 101}), ("volume", {"level": "50"}), ("volume", {}), ("volume", {"level": 1, "change": 1}),
    ("volume", {"level": 50, "sink": "x"}), ("brightness", {"level": 0}), ("wifi", {}), ("wifi", {"state": "up"}),
    ("mute", {"state": "maybe"}), ("shutdown", {"delay_s": -1}), ("lock", {"now": True}),
])
def test_bad_system_params_are_bad_requests(name, params):
    with pytest.raises(DeskgateError) as err:
        plan_system(name, params, max_delay_s=600, which=which_of("pactl", "brightnessctl", "nmcli", "shutdown",
                                                                    "systemctl", "xdg-screensaver"), systemd=True)
    assert err.value.code == "bad_request"


def test_radio_and_mute_commands():
    w = which_of("nmcli", "rfkill", "pactl")
    assert plan_system("wifi", {"state": "off"}, max_delay_s=0, which=w).argv == (
        "/usr/bin/nmcli", "radio", "wifi", "off")
    assert plan_system("bluetooth", {"state": "on"}, max_delay_s=0, which=w).argv == (
        "/usr/bin/rfkill", "unblock", "bluetooth")
    assert plan_system("mute", None, max_delay_s=0, which=w).argv[-1] == "toggle"
    assert plan_system("unmute", None, max_delay_s=0, which=w).argv[-1] == "0"


def test_lock_without_systemd_uses_the_screensaver():
    w = which_of("loginctl", "xdg-screensaver")
    assert plan_system("lock", None, max_delay_s=0, which=w, systemd=False).argv == (
        "/usr/bin/xdg-screensaver", "lock")
    assert plan_system("lock", None, max_delay_s=0, which=w, systemd=True).argv == (
        "/usr/bin/loginctl", "lock-session")


def test_shutdown_delay_is_capped_by_policy():
    w = which_of("shutdown", "systemctl")
    now = plan_system("shutdown", None, max_delay_s=600, which=w, systemd=True)
    assert now.argv == ("/usr/bin/systemctl", "poweroff")
    later = plan_system("restart", {"delay_s": 90}, max_delay_s=600, which=w, systemd=True)
    assert later.argv == ("/usr/bin/shutdown", "-r", "+2") and later.detail == {"delay_s": 120, "capped": False}
    capped = plan_system("shutdown", {"delay_s": 86400}, max_delay_s=600, which=w, systemd=True)
    assert capped.argv == ("/usr/bin/shutdown", "-h", "+10") and capped.detail == {"delay_s": 600, "capped": True}
    with pytest.raises(DeskgateError) as err:
        plan_system("shutdown", None, max_delay_s=600, which=w, systemd=False)
    assert err.value.code == "unsupported"


@pytest.mark.parametrize("name", ["install_software", "format_disk", "delete_account"])
def test_system_actions_deskgate_does_not_do(name):
    with pytest.raises(DeskgateError) as err:
        plan_system(name, None, max_delay_s=600, which=which_of("pactl"))
    assert err.value.code == "unsupported"


def test_executor_runs_the_system_command(tmp_path, monkeypatch):
    bindir, log = tmp_path / "bin", tmp_path / "pactl.log"
    fake_tool(bindir, "pactl", f'echo "$@" > {log}\n')
    monkeypatch.setenv("PATH", f"{bindir}:/usr/bin:/bin")
    r = act(make_executor(tmp_path), type="system", name="volume", params={"level": 30})
    assert r.ok, r.detail
    assert log.read_text() == "set-sink-volume @DEFAULT_SINK@ 30%\n"
    assert r.detail["summary"] == "volume 30%"


def test_executor_reports_missing_system_tools(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    r = act(make_executor(tmp_path), type="system", name="brightness", params={"level": 50})
    assert r.error.code == "unsupported" and "brightnessctl" in r.error.message


# -- the kill switch reaching running commands ------------------------------------------------------


def _run_in_thread(argv: list[str], running, results: list) -> object:
    import threading

    from app.execute.executor import minimal_env, run_limited

    t = threading.Thread(target=lambda: results.append(
        run_limited(argv, cwd="/", env=minimal_env(), timeout=60, running=running)))
    t.start()
    return t


def _wait_until(pred, what: str) -> None:
    end = time.monotonic() + 20
    while not pred():
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.01)


def test_cancel_all_ends_the_whole_process_group_and_marks_the_run_killed(tmp_path) -> None:
    from app.execute.executor import Running

    running = Running(grace_s=0.2)
    results: list = []
    started = tmp_path / "started"
    t = _run_in_thread(["bash", "-c", f"sleep 60 & touch {started}; wait"], running, results)
    _wait_until(started.exists, "the command to start")
    assert running.cancel_all() == 1
    t.join(20)
    (run,) = results
    assert run.killed and run.detail()["killed"]
    assert running.cancel_all() == 0  # nothing left registered


def test_cancel_all_kills_a_command_that_ignores_sigterm(tmp_path) -> None:
    from app.execute.executor import Running

    running = Running(grace_s=0.2)
    results: list = []
    started = tmp_path / "started"
    t = _run_in_thread(["bash", "-c", f"trap '' TERM; touch {started}; while :; do sleep 0.05; done"],
                       running, results)
    _wait_until(started.exists, "the command to start")
    running.cancel_all()
    t.join(20)
    assert not t.is_alive() and results[0].killed


def test_an_ordinary_run_is_not_marked_killed() -> None:
    from app.execute.executor import Running, minimal_env, run_limited

    running = Running()
    run = run_limited(["true"], cwd="/", env=minimal_env(), timeout=10, running=running)
    assert run.exit_code == 0 and not run.killed


def test_cancel_all_ends_a_wait_in_progress() -> None:
    import threading

    from app.execute.executor import Running

    running = Running()
    outcome: list[bool] = []
    t = threading.Thread(target=lambda: outcome.append(running.sleep(60)))
    t.start()
    end = time.monotonic() + 20
    while t.is_alive() and time.monotonic() < end:  # a kill before the wait began does not end it: again
        running.cancel_all()
        t.join(0.05)
    assert outcome == [True]
    assert running.sleep(0) is False  # a later wait is not cancelled by an old kill


class RecordingGui:
    """pyautogui's typing and key calls, recorded."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def write(self, text: str) -> None:
        self.calls.append(("write", text))

    def press(self, key: str) -> None:
        self.calls.append(("press", key))

    def hotkey(self, *keys: str) -> None:
        self.calls.append(("hotkey", *keys))


def test_control_characters_in_typed_text_are_pressed_as_the_keys_they_are():
    from gate import action_from_dict
    from gate.policy import default_policy

    ex = Executor(default_policy())
    gui = RecordingGui()
    ex._gui_module = gui  # no display here: the calls are what matters
    res = ex.execute(action_from_dict({"type": "type", "text": "echo hi\rrm\x03ls\x1b\x7f\n"}), default_policy())
    assert res.ok and res.detail["control_keys"] == 4
    assert gui.calls == [("write", "echo hi"), ("press", "enter"), ("write", "rm"), ("hotkey", "ctrl", "c"),
                         ("write", "ls"), ("press", "esc"), ("press", "backspace"), ("write", "\n")]
