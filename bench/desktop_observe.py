"""Cost of reading the desktop: cached `observe()` vs `observe_fresh()` (pywinctl), on a private Xvfb + JWM.

    .venv/bin/python -m bench.desktop_observe [--runs 20000] [--fresh-runs 300]

Starts its own Xvfb and JWM (like tests/conftest.py) and two small Qt windows (tests/app/winapp.py), then
reports p50 / p99 of
- observe()            cached state; the screen hash is re-taken when older than 0.25 s (the default)
- observe() no hash    cached state only (hash_max_age_s = inf): the pure cache read
- observe_fresh()      pywinctl active window + app name, protected rects, a new screen hash
- screen hash          one full-screen grab + 16×9 average hash
- preview(click)       480×300 grab, mark, PNG
- focus → cache        from asking the WM to activate the other window until observe() reports it
"""

from __future__ import annotations

import argparse
import os
import pathlib
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

JWMRC = """<?xml version="1.0"?>
<JWM>
  <Tray x="0" y="-1" height="24" autohide="off"><TaskList maxwidth="256"/><Dock/></Tray>
  <FocusModel>click</FocusModel>
  <Desktops width="1" height="1"/>
</JWM>
"""


def start_x(work: pathlib.Path) -> tuple[str, list[subprocess.Popen]]:
    for tool in ("Xvfb", "jwm"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed")
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=open(work / "xvfb.log", "w"))
    os.close(w)
    buf = b""
    while not buf.endswith(b"\n"):  # read to the newline: closing the pipe early kills Xvfb
        if not select.select([r], [], [], 15)[0]:
            sys.exit("Xvfb did not start")
        chunk = os.read(r, 32)
        if not chunk:
            sys.exit("Xvfb exited")
        buf += chunk
    os.close(r)
    display = f":{buf.decode().strip()}"
    os.environ["DISPLAY"] = display
    os.environ["XDG_SESSION_TYPE"] = "x11"
    (work / "jwmrc").write_text(JWMRC)
    jwm = subprocess.Popen(["jwm", "-f", str(work / "jwmrc")], stdout=subprocess.DEVNULL,
                           stderr=open(work / "jwm.log", "w"))
    from Xlib import X
    from Xlib import display as xdisplay

    d = xdisplay.Display(display)
    check = d.intern_atom("_NET_SUPPORTING_WM_CHECK")
    end = time.monotonic() + 10
    while not d.screen().root.get_full_property(check, X.AnyPropertyType):
        if time.monotonic() > end:
            sys.exit("JWM did not start")
        time.sleep(0.05)
    d.close()
    return display, [xvfb, jwm]


def start_window(title: str, x: int) -> tuple[subprocess.Popen, int]:
    env = dict(os.environ, QT_QPA_PLATFORM="xcb")
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests/app/winapp.py"), "--title", title, "--x", str(x)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ready"):
            return proc, int(line.split()[1])
    sys.exit(f"window {title} did not start")


def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e6)
    return out


def pct(samples: list[float], p: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


def activate(display: str, wid: int) -> None:
    """Ask the WM to activate a window (_NET_ACTIVE_WINDOW client message, as a pager would)."""
    from Xlib import X, protocol
    from Xlib import display as xdisplay

    d = xdisplay.Display(display)
    root = d.screen().root
    ev = protocol.event.ClientMessage(window=d.create_resource_object("window", wid), client_type=d.intern_atom(
        "_NET_ACTIVE_WINDOW"), data=(32, [2, X.CurrentTime, 0, 0, 0]))
    root.send_event(ev, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
    d.flush()
    d.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20000)
    ap.add_argument("--fresh-runs", type=int, default=300)
    args = ap.parse_args(argv)
    work = pathlib.Path(tempfile.mkdtemp(prefix="deskgate-bench-x11-"))
    display, procs = start_x(work)
    windows = []
    try:
        windows = [start_window("Bench One", 100), start_window("Bench Two", 650)]
        from app.desktop.screen import X11Desktop
        from gate.model import Click

        rows: list[tuple[str, list[float]]] = []
        desk = X11Desktop(display)
        desk.start()
        desk.observe_fresh()  # imports pywinctl, warms mss
        rows.append(("observe()", timed(desk.observe, args.runs)))
        rows.append(("observe_fresh()", timed(desk.observe_fresh, args.fresh_runs)))
        rows.append(("screen hash", timed(lambda: desk._screen_hash(max_age=0.0), args.fresh_runs)))
        rows.append(("preview(click)", timed(lambda: desk.preview(Click(x=300, y=200)), args.fresh_runs // 3)))
        focus: list[float] = []
        resent = 0
        for i in range(60):
            proc, wid = windows[i % 2]
            title = "Bench One" if i % 2 == 0 else "Bench Two"
            for _attempt in range(5):
                t0 = time.perf_counter()
                activate(display, wid)
                while desk.observe().window_title != title and time.perf_counter() - t0 < 1.0:
                    time.sleep(0.0002)  # poll, but leave the watcher thread the GIL
                if desk.observe().window_title == title:
                    focus.append((time.perf_counter() - t0) * 1e6)
                    break
                resent += 1  # the WM did not act on the request: ask again, time the new request
            else:
                sys.exit("the focus change never reached the cached observation")
            time.sleep(0.05)  # people and agents do not switch windows every few ms
        rows.append(("focus → cache", focus))
        restarts = desk.watcher_restarts
        desk.close()
        bare = X11Desktop(display, hash_max_age_s=float("inf"))
        bare.start()
        bare.observe()
        rows.insert(1, ("observe() no hash", timed(bare.observe, args.runs)))
        bare.close()

        print(f"display {display}, 1280×800, JWM, 2 Qt windows; times in µs")
        print(f"{'':22}{'runs':>7}{'p50':>10}{'p99':>10}{'mean':>10}")
        for name, samples in rows:
            print(f"{name:22}{len(samples):>7}{pct(samples, 50):>10.1f}{pct(samples, 99):>10.1f}"
                  f"{statistics.fmean(samples):>10.1f}")
        o, f = dict(rows)["observe()"], dict(rows)["observe_fresh()"]
        print(f"observe_fresh / observe (p50): {pct(f, 50) / pct(o, 50):.0f}×")
        print(f"watcher reconnects during the run: {restarts}; activation requests the WM ignored: {resent}")
    finally:
        for proc, _ in windows:
            proc.terminate()
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
