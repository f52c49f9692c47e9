"""The headless supervisor on a real X desktop: deskgate reads the active window itself, so an action
aimed at the wrong window is caught, and a refused `type` types nothing into the real field."""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.agent.client import Client
from tests.app.test_run_e2e import Lines

pytestmark = pytest.mark.desktop
ROOT = Path(__file__).resolve().parents[2]
POLICY = """
[loop]
threshold = 50
"""


def _window(desktop, title: str, x: int, y: int):
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "app" / "winapp.py"), "--title", title,
                             "--x", str(x), "--y", str(y)], env=desktop.env, stdout=subprocess.PIPE, text=True)
    lines = Lines(proc)
    ready = lines.wait_for("ready").split()
    return proc, lines, ready[1], [int(v) for v in ready[2:6]]


@pytest.fixture
def supervised(desktop, deskgate_home):
    from app.root.runtime import build_runtime

    home = deskgate_home(POLICY)
    args = argparse.Namespace(headless=True, socket=home["socket"], db=home["db"], policy=home["policy"],
                              preset=None, ask_in_terminal=False, approver_rules=None, kill_hotkey="none",
                              verbose=False)
    rt = build_runtime(args)  # the real desktop reader and executor on the test display
    assert type(rt.desktop).__name__ == "X11Desktop"
    thread = threading.Thread(target=rt.server.serve_forever, daemon=True)
    thread.start()
    yield home
    rt.stop()
    thread.join(5)


def _activate(desktop, wid: str, title: str) -> None:
    import pywinctl

    for _ in range(3):
        desktop.xdotool("windowactivate", "--sync", wid, check=False)
        end = time.monotonic() + 3
        while time.monotonic() < end:
            if pywinctl.getActiveWindowTitle() == title:
                time.sleep(0.3)  # the supervisor's cached state follows the window manager's notification
                return
            time.sleep(0.05)
    raise AssertionError(f"could not activate {title}")


def test_wrong_window_is_caught_and_a_refused_type_types_nothing(desktop, supervised):
    shop, shop_lines, shop_wid, edit = _window(desktop, "Shop checkout", 120, 120)
    other, _other_lines, other_wid, _ = _window(desktop, "Terminal notes", 700, 300)
    try:
        with Client(supervised["socket"], timeout=30) as dg:
            dg.hello("window-agent", expect={"window": "Shop checkout"})
            _activate(desktop, shop_wid, "Shop checkout")
            ex, ey = edit[0] + edit[2] // 2, edit[1] + edit[3] // 2
            assert dg.act({"type": "click", "x": ex, "y": ey})["verdict"] == "executed"
            r = dg.act({"type": "type", "text": "right"})
            assert r["verdict"] == "executed", r
            shop_lines.wait_for("text right")

            _activate(desktop, other_wid, "Terminal notes")  # the person (or a popup) switched windows
            r = dg.act({"type": "type", "text": "wrong"})
            assert r["decision"] == "confirm" and "confirm.agent.app-mismatch" in r["rules"], r
            assert r["verdict"] == "denied"  # headless: nobody to ask

            _activate(desktop, shop_wid, "Shop checkout")
            r = dg.act({"type": "type", "text": "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"})
            assert r["decision"] == "block" and r["verdict"] == "denied", r
        time.sleep(0.5)
        assert not any("wrong" in x or "ghp_" in x for x in shop_lines.lines), shop_lines.lines
    finally:
        for p in (shop, other):
            p.terminate()
            p.wait(10)
