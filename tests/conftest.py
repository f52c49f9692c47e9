"""Test environment.

- Qt widgets in this process always run offscreen (`QT_QPA_PLATFORM=offscreen`), one QApplication.
- The `desktop` fixture starts a real X server (Xvfb) and an EWMH window manager with a system tray
  (JWM) once per session and points DISPLAY at it. Tests that need real windows start them as
  subprocesses (a small Qt app, or `deskgate run`) and drive them with xdotool / pyautogui.
- Every path deskgate would touch (data dir, runtime dir, config) points into a temp dir.
"""

from __future__ import annotations

import os
import pathlib
import select
import shutil
import subprocess
import tempfile
import time

import pytest

os.environ["QT_QPA_PLATFORM"] = "offscreen"
_SANDBOX = pathlib.Path(tempfile.mkdtemp(prefix="deskgate-test-"))
for _var, _sub in (("XDG_RUNTIME_DIR", "run"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                   ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")):
    (_SANDBOX / _sub).mkdir(mode=0o700)
    os.environ[_var] = str(_SANDBOX / _sub)
os.environ.pop("DESKGATE_DISABLED", None)
os.environ["DESKGATE_KEYRING"] = "off"  # never the real OS keyring; tests pass a store of their own

ARTIFACTS = pathlib.Path(os.environ.get("DESKGATE_ARTIFACTS", pathlib.Path(__file__).parent / "artifacts"))

JWMRC = """<?xml version="1.0"?>
<JWM>
  <Tray x="0" y="-1" height="24" autohide="off"><TaskList maxwidth="256"/><Dock/></Tray>
  <FocusModel>click</FocusModel>
  <Desktops width="1" height="1"/>
</JWM>
"""


def _wait(pred, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if pred():
                return
        except Exception:  # the server may not answer yet
            pass
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


class Desktop:
    """A running Xvfb + JWM. `env` is os.environ with DISPLAY set, for subprocesses."""

    def __init__(self, display: str, workdir: pathlib.Path) -> None:
        self.display = display
        self.workdir = workdir
        self.env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", XDG_SESSION_TYPE="x11")

    @property
    def a11y_env(self) -> dict[str, str]:
        """`env` for an app that should expose its accessibility tree (Qt does only when asked)."""
        return dict(self.env, DBUS_SESSION_BUS_ADDRESS=os.environ.get("DBUS_SESSION_BUS_ADDRESS", ""),
                    QT_ACCESSIBILITY="1", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1")

    def xdotool(self, *args: str, check: bool = True) -> str:
        r = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20)
        if check and r.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout.strip()

    def screenshot(self, name: str) -> pathlib.Path:
        import mss
        import mss.tools

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        out = ARTIFACTS / name
        with mss.MSS(display=self.display) as sct:
            img = sct.grab(sct.monitors[1])
            mss.tools.to_png(img.rgb, img.size, output=str(out))
        return out


def _start_desktop() -> tuple[Desktop, list[subprocess.Popen]]:
    for tool in ("Xvfb", "jwm", "xdotool"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is not installed: run `make test` (it installs the desktop test packages)")
    work = pathlib.Path(tempfile.mkdtemp(prefix="deskgate-x11-"))
    procs: list[subprocess.Popen] = []
    r, w = os.pipe()  # -displayfd: Xvfb picks a free display number and writes it here
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=open(work / "xvfb.log", "w"))
    os.close(w)
    procs.append(xvfb)
    buf, end = b"", time.monotonic() + 15
    while not buf.endswith(b"\n"):  # read to the newline: closing the pipe early kills Xvfb
        if not select.select([r], [], [], max(0.0, end - time.monotonic()))[0]:
            raise RuntimeError("Xvfb did not start: " + (work / "xvfb.log").read_text())
        chunk = os.read(r, 32)
        if not chunk:
            raise RuntimeError("Xvfb exited: " + (work / "xvfb.log").read_text())
        buf += chunk
    os.close(r)
    display = f":{buf.decode().strip()}"
    os.environ["DISPLAY"] = display
    os.environ["XDG_SESSION_TYPE"] = "x11"
    os.environ.pop("WAYLAND_DISPLAY", None)
    (work / "jwmrc").write_text(JWMRC)
    procs.append(subprocess.Popen(["jwm", "-f", str(work / "jwmrc")], env=dict(os.environ),
                                  stdout=subprocess.DEVNULL, stderr=open(work / "jwm.log", "w")))
    from Xlib import X
    from Xlib import display as xdisplay

    d = xdisplay.Display(display)
    root = d.screen().root
    _wait(lambda: root.get_full_property(d.intern_atom("_NET_SUPPORTING_WM_CHECK"), X.AnyPropertyType),
          10, "JWM (EWMH)")
    tray = d.intern_atom("_NET_SYSTEM_TRAY_S0")
    _wait(lambda: d.get_selection_owner(tray) not in (0, X.NONE), 10, "JWM system tray")
    d.close()
    _start_accessibility(work, procs)
    return Desktop(display, work), procs


def _start_accessibility(work: pathlib.Path, procs: list[subprocess.Popen]) -> None:
    """A D-Bus session bus and the AT-SPI bus launcher (accessibility bus + registry) for the desktop, so
    deskgate can read what is under the pointer. Without them (packages missing) the desktop still runs:
    tests that need accessibility check for DBUS_SESSION_BUS_ADDRESS."""
    launcher = next((p for p in ("/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher")
                     if os.path.exists(p)), None)
    if shutil.which("dbus-daemon") is None or launcher is None:
        os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
        return
    r, w = os.pipe()
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--print-address={w}"],
                           pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=open(work / "dbus.log", "w"))
    os.close(w)
    procs.append(bus)
    buf, end = b"", time.monotonic() + 10
    while not buf.endswith(b"\n"):
        if not select.select([r], [], [], max(0.0, end - time.monotonic()))[0]:
            raise RuntimeError("dbus-daemon did not start: " + (work / "dbus.log").read_text())
        chunk = os.read(r, 256)
        if not chunk:
            raise RuntimeError("dbus-daemon exited: " + (work / "dbus.log").read_text())
        buf += chunk
    os.close(r)
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = buf.decode().strip()
    procs.append(subprocess.Popen([launcher, "--launch-immediately"], env=dict(os.environ),
                                  stdout=subprocess.DEVNULL, stderr=open(work / "at-spi.log", "w")))
    from app.desktop.a11y import A11yReader

    reader = A11yReader()
    try:
        _wait(lambda: reader.probe() >= 0, 10, "the AT-SPI registry")
    finally:
        reader.close()


_desktop_state: dict[str, object] = {}


@pytest.fixture(scope="session")
def desktop():
    """A real X desktop (Xvfb + JWM), started once for the whole session."""
    if "desktop" not in _desktop_state:
        dsk, procs = _start_desktop()
        _desktop_state.update(desktop=dsk, procs=procs)
    return _desktop_state["desktop"]


@pytest.fixture(scope="session")
def artifacts() -> pathlib.Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def pytest_unconfigure(config):
    for p in reversed(_desktop_state.get("procs", [])):  # stop exactly the processes we started
        p.terminate()
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill()
    if "desktop" in _desktop_state:
        shutil.rmtree(_desktop_state["desktop"].workdir, ignore_errors=True)
    shutil.rmtree(_SANDBOX, ignore_errors=True)


@pytest.fixture
def deskgate_home(tmp_path, monkeypatch, request):
    """Factory: every deskgate path of this test in its own directories, with the given policy (and
    approver rules), the socket in a short directory (AF_UNIX paths are limited to 108 bytes)."""

    def make(policy: str = "", rules: str | None = None) -> dict[str, pathlib.Path]:
        short = pathlib.Path(tempfile.mkdtemp(prefix="dg-"))
        request.addfinalizer(lambda: shutil.rmtree(short, ignore_errors=True))
        for var, sub in (("XDG_RUNTIME_DIR", "run"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                         ("XDG_STATE_HOME", "state")):
            (tmp_path / sub).mkdir(mode=0o700, exist_ok=True)
            monkeypatch.setenv(var, str(tmp_path / sub))
        (tmp_path / "policy.toml").write_text(policy)
        home = {"root": tmp_path, "socket": short / "dg.sock", "policy": tmp_path / "policy.toml",
                "db": tmp_path / "audit.db"}
        if rules is not None:
            (tmp_path / "rules.toml").write_text(rules)
            home["rules"] = tmp_path / "rules.toml"
        return home

    return make


@pytest.fixture
def serve_in_process():
    """Factory: what `deskgate serve --headless` runs, wired in this process (no desktop) and serving on
    a thread; stopped at the end of the test."""
    import argparse
    import threading

    started = []

    def start(home: dict[str, pathlib.Path], *, desktop=None, approver=None, executor=None, clock=None, **options):
        """`approver` stands for the person (a scripted one); `desktop`, `executor`, `clock` as in build_runtime."""
        from app.desktop.screen import NullDesktop
        from app.root.runtime import build_runtime

        args = argparse.Namespace(**{
            "headless": True, "socket": home["socket"], "db": home["db"], "policy": home["policy"],
            "preset": None, "ask_in_terminal": False, "approver_rules": home.get("rules"), "kill_hotkey": "none",
            "verbose": False, **options})
        rt = build_runtime(args, desktop=desktop if desktop is not None else NullDesktop(), approver=approver,
                           executor=executor, clock=clock)
        thread = threading.Thread(target=rt.server.serve_forever, daemon=True)
        thread.start()
        started.append((rt, thread))
        return rt

    def stop(rt) -> None:
        """Stop one started supervisor now (a restart: the next `start` reads the files anew)."""
        for i, (r, thread) in enumerate(started):
            if r is rt:
                del started[i]
                rt.stop()
                thread.join(5)
                return

    start.stop = stop
    yield start
    for rt, thread in started:
        rt.stop()
        thread.join(5)
