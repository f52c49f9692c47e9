"""`deskgate doctor`: headless (display checks fail with their fix, the rest pass) and on a real X
desktop (display checks pass); each non-display check's failure modes, with the fix it prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.audit.writer import AuditLog
from app.cli import doctor
from app.cli.main import main
from app.config import Paths
from app.daemon.killstate import KillRecord, KillStateFile
from app.execute.fence import Fence
from gate import load_policy

# checks that need a desktop session (the accessibility bus comes with one)
DISPLAY_CHECKS = {"display", "x connection", "window manager", "system tray", "pynput backend", "accessibility"}


def headless_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}


def by_name(checks: list[doctor.Check]) -> dict[str, doctor.Check]:
    return {c.name: c for c in checks}


def test_headless_display_checks_fail_with_the_fix_and_others_pass(tmp_path: Path) -> None:
    checks = by_name(doctor.run_checks(Paths.for_testing(tmp_path), headless_env()))
    assert checks["display"].status == "fail" and "Xvfb" in checks["display"].fix
    assert checks["x connection"].status == "fail" and "DISPLAY" in checks["x connection"].fix
    assert checks["window manager"].status == "fail"
    assert checks["pynput backend"].status == "fail"
    assert checks["system tray"].status == "warn"
    fence_ok = Fence(load_policy().fence).check().available
    for name, c in checks.items():
        if name in DISPLAY_CHECKS:
            continue
        if name == "shell fence" and not fence_ok:  # this machine cannot run bwrap: doctor must say so
            assert c.status == "fail" and "bubblewrap" in c.fix
            continue
        if name.startswith("tool ") and c.status == "warn":
            continue  # a missing optional tool is this machine's, not doctor's, problem
        assert c.status == "ok", c


def test_cli_exits_1_on_a_fail_and_prints_fixes(monkeypatch, capsys) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  display" in out and "fix: start deskgate inside your desktop session" in out
    assert out.rstrip().splitlines()[-1].endswith("ok")


@pytest.mark.desktop
def test_on_a_real_desktop_display_checks_pass(desktop, tmp_path: Path) -> None:
    checks = by_name(doctor.run_checks(Paths.for_testing(tmp_path), desktop.env))
    for name in ("display", "x connection", "window manager", "system tray", "pynput backend"):
        assert checks[name].status == "ok", checks[name]
    assert "JWM" in checks["window manager"].detail or "jwm" in checks["window manager"].detail.lower()
    assert "_xorg" in checks["pynput backend"].detail


def test_x_connection_refused_fails(tmp_path: Path) -> None:
    checks = by_name(doctor.check_x({"DISPLAY": ":987"}))
    assert checks["x connection"].status == "fail" and "XAUTHORITY" in checks["x connection"].fix


def test_missing_tools_warn_with_the_package(tmp_path: Path) -> None:
    checks = by_name(doctor.check_tools(which=lambda t: None))
    assert checks["tool xrandr"].status == "warn" and checks["tool xrandr"].fix == "apt install x11-xserver-utils"
    assert checks["tool xdotool"].fix == "apt install xdotool"
    assert checks["tool ps"].fix == "apt install procps"
    assert all(c.status == "ok" for c in doctor.check_tools(which=lambda t: f"/usr/bin/{t}"))


def test_qt_plugin_with_missing_libraries_fails_naming_packages() -> None:
    def fake_ldd(argv, **kw):
        out = ("\tlibxcb-cursor.so.0 => not found\n\tlibQt6Gui.so.6 => /x/libQt6Gui.so.6 (0x1)\n"
               "\tlibfoo.so.9 => not found\n")
        return subprocess.CompletedProcess(argv, 0, out, "")

    c = doctor.check_qt_xcb(run=fake_ldd)
    assert c.status == "fail"
    assert "libxcb-cursor.so.0" in c.detail and "libfoo.so.9" in c.detail
    assert c.fix == "apt install libfoo.so.9 libxcb-cursor0"
    assert doctor.check_qt_xcb().status == "ok"  # this environment has them all


def test_socket_dir_permissions(tmp_path: Path) -> None:
    paths = Paths.for_testing(tmp_path)
    assert doctor.check_socket_dir(paths).status == "ok"  # not created yet
    paths.runtime_dir.mkdir(mode=0o755)
    paths.runtime_dir.chmod(0o755)
    c = doctor.check_socket_dir(paths)
    assert c.status == "fail" and "0755" in c.detail and "chmod 700" in c.fix
    paths.runtime_dir.chmod(0o700)
    assert doctor.check_socket_dir(paths).status == "ok"
    c = doctor.check_socket_dir(paths, uid=os.getuid() + 1)
    assert c.status == "fail" and "owned by" in c.detail


def test_audit_log_opens_writes_and_verifies_then_detects_tampering(tmp_path: Path) -> None:
    paths = Paths.for_testing(tmp_path)
    assert [c.status for c in doctor.check_audit(paths)] == ["ok"]  # not there yet, creatable
    log = AuditLog(paths.db)
    sid = log.open_session("doctor-test", pid=1, uid=os.getuid(), expect=None)
    log.record_event("pause", session_id=sid, data={"by": "test"})
    log.close()
    checks = by_name(doctor.check_audit(paths))
    assert {n: c.status for n, c in checks.items()} == {"audit log": "ok", "audit writable": "ok",
                                                       "audit chain": "ok"}
    import sqlite3

    conn = sqlite3.connect(paths.db)
    conn.execute("UPDATE sessions SET agent = 'someone-else'")
    conn.commit()
    conn.close()
    assert by_name(doctor.check_audit(paths))["audit chain"].status == "fail"


def test_kill_state_warns(tmp_path: Path) -> None:
    paths = Paths.for_testing(tmp_path)
    assert doctor.check_kill_state(paths).status == "ok"
    KillStateFile(paths.kill_state).save(KillRecord("runaway", "hotkey", 0.0))
    c = doctor.check_kill_state(paths)
    assert c.status == "warn" and "runaway" in c.detail and "deskgate resume" in c.fix


def test_broken_policy_fails(tmp_path: Path) -> None:
    paths = Paths.for_testing(tmp_path)
    paths.config_dir.mkdir()
    paths.policy.write_text("[gate]\ndefault_mode = 'maybe'\n")
    c, policy = doctor.check_policy(paths)
    assert c.status == "fail" and policy is None


def test_required_fence_that_cannot_start_fails(tmp_path: Path, monkeypatch) -> None:
    import app.execute.fence as fence_mod

    monkeypatch.setattr(fence_mod.shutil, "which", lambda name: None)  # no bwrap on this "machine"
    Fence._status_cache.clear()
    try:
        c = doctor.check_fence(load_policy())
    finally:
        Fence._status_cache.clear()  # later tests probe the real bwrap again
    assert c.status == "fail" and "not found" in c.detail and "apt install bubblewrap" in c.fix


def test_format_marks_each_check() -> None:
    text = doctor.format_checks([doctor.Check("a", "ok", "fine"), doctor.Check("bb", "fail", "broken", "do x")])
    assert "OK    a   fine" in text and "FAIL  bb  broken" in text and "fix: do x" in text
    assert text.rstrip().endswith("1 failed, 0 warnings, 1 ok")


def test_no_accessibility_bus_warns_with_the_packages(tmp_path: Path) -> None:
    check = doctor.check_accessibility({"DBUS_SESSION_BUS_ADDRESS": f"unix:path={tmp_path}/no-such-bus"})
    assert check.status == "warn" and "at-spi2-core" in check.fix and "text recognition" in check.detail
    assert doctor.check_accessibility({}).status == "warn"


@pytest.mark.desktop
def test_accessibility_and_text_recognition_pass_on_the_test_desktop(desktop) -> None:
    check = doctor.check_accessibility(dict(os.environ))
    assert check.status == "ok" and "AT-SPI registry answers" in check.detail, check
    check = doctor.check_ocr()
    assert check.status == "ok" and check.detail.startswith("tesseract "), check


def test_missing_tesseract_warns_with_the_packages(monkeypatch) -> None:
    import pytesseract

    monkeypatch.setitem(sys.modules, "tesserocr", None)  # neither the kept engine nor the program
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    check = doctor.check_ocr()
    assert check.status == "warn" and check.fix == "apt install tesseract-ocr tesseract-ocr-eng"


def test_missing_language_data_warns(monkeypatch, tmp_path: Path) -> None:
    from app.desktop import ocr

    monkeypatch.setattr(ocr, "_TESSDATA", ())
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path))  # a directory with no language data
    check = doctor.check_ocr()
    assert check.status == "warn" and "English data" in check.detail


def test_text_recognition_lists_the_languages_it_reads() -> None:
    from app.desktop.ocr import installed_languages

    check = doctor.check_ocr()
    assert check.status == "ok" and all(lang in check.detail for lang in installed_languages()), check


# -- the tools the simple commands need ---------------------------------------------------------------


def _which_only(*tools: str):
    return lambda tool: f"/usr/bin/{tool}" if tool in tools else None


def test_system_tools_warn_with_the_package_that_fixes_them() -> None:
    checks = by_name(doctor.check_system_tools(_which_only(), systemd=True))
    assert {c.status for c in checks.values()} == {"warn"}
    assert "pulseaudio-utils or alsa-utils" in checks["tool for volume"].fix
    assert "volume, mute" in checks["tool for volume"].detail
    assert checks["tool for brightness"].fix == "apt install brightnessctl"
    assert "systemd" in checks["tool for sleep"].fix
    checks = by_name(doctor.check_system_tools(_which_only("amixer", "brightnessctl", "nmcli"), systemd=True))
    assert checks["tool for volume"].status == "ok" and checks["tool for volume"].detail.endswith("amixer")
    assert checks["tool for wifi"].status == "ok" and checks["tool for bluetooth"].status == "warn"


def test_readiness_table_names_exactly_the_tools_plan_system_picks() -> None:
    from app.errors import DeskgateError
    from app.execute.systemactions import PACKAGES, READINESS, plan_system

    for name, params, _covers, tools in READINESS:
        for tool in tools:  # each listed tool alone is enough ...
            cmd = plan_system(name, params, max_delay_s=600, which=_which_only(tool), systemd=True)
            assert cmd.argv[0] == f"/usr/bin/{tool}"
            assert tool in PACKAGES
        # ... and every tool but the listed ones is not
        everything_else = [t for t in PACKAGES if t not in tools]
        with pytest.raises(DeskgateError) as err:
            plan_system(name, params, max_delay_s=600, which=_which_only(*everything_else), systemd=True)
        assert err.value.code == "unsupported"


def test_frozen_bundle_probes_through_its_own_executable(monkeypatch) -> None:
    import sys

    assert doctor.probe_argv("pynput")[1] == "-c"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert doctor.probe_argv("pynput") == [sys.executable, "doctor", "--probe", "pynput"]


@pytest.mark.desktop
def test_probe_subcommand_runs_the_probe(desktop) -> None:
    import sys

    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-m", "app.cli.main", "doctor", "--probe", "pynput"], cwd=root, env=desktop.env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "_xorg" in r.stdout, r.stderr


def test_syslog_forwarding_check(tmp_path: Path) -> None:
    import json

    paths = Paths.for_testing(tmp_path)
    assert doctor.check_syslog(load_policy(), paths) is None  # off by default: nothing to say
    policy_file = tmp_path / "policy.toml"
    policy_file.write_text('[audit.syslog]\nenabled = true\ntarget = "tcp:127.0.0.1:6514"\n')
    policy = load_policy(policy_file)
    assert doctor.check_syslog(policy, paths).status == "ok"
    paths.syslog_stats.parent.mkdir(parents=True)
    paths.syslog_stats.write_text(json.dumps({"sent": 10, "dropped": 0}))
    assert "10 row(s) delivered" in doctor.check_syslog(policy, paths).detail
    paths.syslog_stats.write_text(json.dumps({"sent": 10, "dropped": 2, "last_error": "send: refused"}))
    c = doctor.check_syslog(policy, paths)
    assert c.status == "warn" and "2 of 12" in c.detail and "send: refused" in c.detail
