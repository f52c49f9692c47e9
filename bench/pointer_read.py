"""Added latency of reading a click's target (app/desktop/pointer.py), on a private Xvfb + JWM + AT-SPI desktop.

    .venv/bin/python -m bench.pointer_read [--runs 300] [--ocr-runs 30]

Starts its own Xvfb, JWM, D-Bus session bus and AT-SPI bus launcher, a Qt window with accessible buttons
and a Tk canvas with drawn buttons (tests/app/buttonsapp.py), then reports p50 / p99 (ms) of
- bare grab          one mss grab of the region text recognition reads (360×72): the baseline
- full screenshot    one mss grab of the whole 1280×800 screen
- observe()          the cached observation every request already pays
- a11y path          observe_for(click) on a Qt button: observe() + AT-SPI at the point
- ocr path           observe_for(click) on the canvas: observe() + AT-SPI (nothing there) + Tesseract
- focused field      observe_for(type) in the Qt window: the focused object from the tree
and each as a ratio to the bare grab and to the full screenshot, measured in the same run.
Target (DESIGN): a11y path p50 ≤ 30 ms.
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

from bench.desktop_observe import pct, start_x  # noqa: E402


def start_bus(work: pathlib.Path) -> list[subprocess.Popen]:
    launcher = "/usr/libexec/at-spi-bus-launcher"
    if shutil.which("dbus-daemon") is None or not os.path.exists(launcher):
        sys.exit("dbus-daemon / at-spi2-core are not installed (.ci/sysdeps.sh)")
    r, w = os.pipe()
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", f"--print-address={w}"],
                           pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=open(work / "dbus.log", "w"))
    os.close(w)
    buf = b""
    while not buf.endswith(b"\n"):
        if not select.select([r], [], [], 10)[0]:
            sys.exit("dbus-daemon did not start")
        buf += os.read(r, 256)
    os.close(r)
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = buf.decode().strip()
    spi = subprocess.Popen([launcher, "--launch-immediately"], stdout=subprocess.DEVNULL,
                           stderr=open(work / "at-spi.log", "w"))
    from app.desktop.a11y import A11yReader

    reader, end = A11yReader(), time.monotonic() + 10
    while True:
        try:
            reader.probe()
            break
        except Exception:
            if time.monotonic() > end:
                sys.exit("the AT-SPI registry did not answer")
            time.sleep(0.05)
    reader.close()
    return [bus, spi]


def start_buttons(toolkit: str, x: int, y: int) -> tuple[subprocess.Popen, dict[str, tuple[int, int]]]:
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1")
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests/app/buttonsapp.py"), "--toolkit", toolkit,
                             "--title", f"bench {toolkit}", "--x", str(x), "--y", str(y),
                             "--buttons", "Delete account", "Next"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ready"):
            at = {k: tuple(map(int, v.split(","))) for k, v in (kv.split("=") for kv in line.split()[1:])}
            return proc, at  # type: ignore[return-value]
    sys.exit(f"the {toolkit} window did not start")


def timed_ms(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--ocr-runs", type=int, default=30)
    args = ap.parse_args(argv)
    work = pathlib.Path(tempfile.mkdtemp(prefix="deskgate-bench-pointer-"))
    display, procs = start_x(work)
    windows: list[subprocess.Popen] = []
    try:
        procs += start_bus(work)
        qt, qt_at = start_buttons("qt", 100, 120)
        canvas, canvas_at = start_buttons("canvas", 700, 300)
        windows = [qt, canvas]
        from app.desktop.pointer import PointerReader, ocr_box
        from app.desktop.screen import X11Desktop
        from gate.model import action_from_dict

        desk = X11Desktop(display, pointer=PointerReader())
        desk.start()
        desk.observe_fresh()
        qx, qy = qt_at["Delete_account"]
        cx, cy = canvas_at["Delete_account"]
        on_qt = action_from_dict({"type": "click", "x": qx, "y": qy})
        on_canvas = action_from_dict({"type": "click", "x": cx, "y": cy})
        typing = action_from_dict({"type": "type", "text": "x"})
        checks = {"a11y path": desk.observe_for(on_qt), "ocr path": desk.observe_for(on_canvas)}
        for name, obs in checks.items():
            if obs.pointer_label != "Delete account":
                sys.exit(f"{name} read {obs.pointer_label!r} ({obs.label_source}), not 'Delete account'")
        subprocess.run(["xdotool", "search", "--sync", "--name", "bench qt", "windowactivate", "--sync"],
                       capture_output=True, timeout=20)
        box = ocr_box(cx, cy, 1280, 800)
        rows = [
            ("bare grab", timed_ms(lambda: desk._grab(box), args.runs)),
            ("full screenshot", timed_ms(lambda: desk._grab((0, 0, 1280, 800)), args.runs // 3)),
            ("observe()", timed_ms(desk.observe, args.runs)),
            ("a11y path", timed_ms(lambda: desk.observe_for(on_qt), args.runs)),
            ("focused field", timed_ms(lambda: desk.observe_for(typing), args.runs)),
            ("ocr path", timed_ms(lambda: desk.observe_for(on_canvas), args.ocr_runs)),
        ]
        focus = desk.observe_for(typing)
        desk.close()
        base, full = statistics.median(rows[0][1]), statistics.median(rows[1][1])
        print(f"display {display}, 1280×800, JWM + AT-SPI; a Qt window and a Tk canvas; times in ms")
        print(f"{'':18}{'runs':>6}{'p50':>9}{'p99':>9}{'× bare grab':>13}{'× screenshot':>14}")
        for name, samples in rows:
            p50 = statistics.median(samples)
            print(f"{name:18}{len(samples):>6}{p50:>9.2f}{pct(samples, 99):>9.2f}{p50 / base:>13.1f}"
                  f"{p50 / full:>14.2f}")
        a11y = statistics.median(rows[3][1])
        print(f"a11y path p50 {a11y:.2f} ms: {'within' if a11y <= 30 else 'OVER'} the 30 ms target; "
              f"focused field read {focus.pointer_label!r} ({focus.pointer_role})")
    finally:
        for p in windows:
            p.terminate()
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
