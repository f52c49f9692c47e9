"""Added latency of reading a click's target (app/desktop/pointer.py), on a private Xvfb + JWM + AT-SPI desktop.

    .venv/bin/python -m bench.pointer_read [--runs 300] [--ocr-runs 100] [--drawn-only]

Starts its own Xvfb, JWM, D-Bus session bus and AT-SPI bus launcher, a Qt window with accessible buttons
and a Tk canvas with drawn buttons (tests/app/buttonsapp.py), then reports p50 / p99 (ms) of
- bare grab          one mss grab of the region text recognition reads (360×72): the baseline
- full screenshot    one mss grab of the whole 1280×800 screen
- observe()          the cached observation every request already pays
- a11y path          observe_for(click) on a Qt button: observe() + AT-SPI at the point
- ocr path           observe_for(click) on the canvas: observe() + AT-SPI (nothing there) + Tesseract kept
                     loaded (tesserocr), alternating between the canvas's two buttons
- ocr, process       the same with a tesseract process per read (the fallback, and what deskgate did before)
- focused field      observe_for(type) in the Qt window: the focused object from the tree
and each as a ratio to the bare grab and to the full screenshot, measured in the same run. Then the drawn set
(tests/app/drawn_buttons.py: 42 buttons, faint, coloured, white on colour, small, not English, icon-only)
read by each engine: p50 / p99 and the share read as people read them (an icon: read as nothing).
Targets (DESIGN): a11y path p50 ≤ 30 ms; ocr path p50 ≤ 30 ms and p99 ≤ 60 ms.
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


def drawn_set(engine: str, rounds: int) -> tuple[list[float], int, int, dict[str, str]]:
    """(times in ms, read right, total, what was misread) for the drawn set, read `rounds` times."""
    from app.desktop.ocr import MIN_LABEL_CONFIDENCE, Recogniser
    from tests.app.drawn_buttons import BUTTONS, render

    ocr = Recogniser(engine=engine)
    rendered = [(b, render(b)) for b in BUTTONS]
    ocr.label_at(*rendered[0][1][:3], *rendered[0][1][3])  # load the engine: not counted
    times, right, wrong = [], 0, {}
    for _ in range(rounds):
        for button, (rgb, w, h, (px, py)) in rendered:
            t0 = time.perf_counter()
            got = ocr.label_at(rgb, w, h, px, py)
            times.append((time.perf_counter() - t0) * 1e3)
            text = got.text if got is not None and got.confidence >= MIN_LABEL_CONFIDENCE else ""
            if " ".join(text.casefold().split()) == " ".join(button.label.casefold().split()):
                right += 1
            else:
                wrong[button.label or f"<{button.icon} icon>"] = text
    ocr.close()
    return times, right, rounds * len(BUTTONS), wrong


def report_drawn(rounds: int) -> None:
    print(f"drawn set (tests/app/drawn_buttons.py), {rounds} round(s); times in ms")
    print(f"{'':18}{'reads':>6}{'p50':>9}{'p99':>9}{'read right':>14}")
    for engine in ("tesserocr", "process"):
        try:
            times, right, total, wrong = drawn_set(engine, rounds if engine == "tesserocr" else 1)
        except Exception as err:  # OcrUnavailable: say so, and go on with the other engine
            print(f"{engine:18}  unavailable: {err}")
            continue
        print(f"{engine:18}{len(times):>6}{statistics.median(times):>9.2f}{pct(times, 99):>9.2f}"
              f"{right:>7}/{total:<4} {100 * right / total:3.0f}%")
        if wrong:
            print(f"{'':18}misread: {wrong}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--ocr-runs", type=int, default=100)
    ap.add_argument("--drawn-rounds", type=int, default=3)
    ap.add_argument("--drawn-only", action="store_true", help="only the drawn set (no desktop needed)")
    args = ap.parse_args(argv)
    if args.drawn_only:
        report_drawn(args.drawn_rounds)
        return 0
    work = pathlib.Path(tempfile.mkdtemp(prefix="deskgate-bench-pointer-"))
    display, procs = start_x(work)
    windows: list[subprocess.Popen] = []
    try:
        procs += start_bus(work)
        qt, qt_at = start_buttons("qt", 100, 120)
        canvas, canvas_at = start_buttons("canvas", 700, 300)
        windows = [qt, canvas]
        from app.desktop.ocr import Recogniser
        from app.desktop.pointer import PointerReader, ocr_box
        from app.desktop.screen import X11Desktop
        from gate.model import action_from_dict

        desk = X11Desktop(display, pointer=PointerReader())
        desk.start()
        desk.observe_fresh()
        qx, qy = qt_at["Delete_account"]
        cx, cy = canvas_at["Delete_account"]
        nx, ny = canvas_at["Next"]
        on_qt = action_from_dict({"type": "click", "x": qx, "y": qy})
        on_canvas = action_from_dict({"type": "click", "x": cx, "y": cy})
        on_next = action_from_dict({"type": "click", "x": nx, "y": ny})
        canvas_clicks = [(on_canvas, "Delete account"), (on_next, "Next")]
        typing = action_from_dict({"type": "type", "text": "x"})
        checks = {"a11y path": desk.observe_for(on_qt), "ocr path": desk.observe_for(on_canvas)}
        for name, obs in checks.items():
            if obs.pointer_label != "Delete account":
                sys.exit(f"{name} read {obs.pointer_label!r} ({obs.label_source}), not 'Delete account'")
        subprocess.run(["xdotool", "search", "--sync", "--name", "bench qt", "windowactivate", "--sync"],
                       capture_output=True, timeout=20)
        box = ocr_box(cx, cy, 1280, 800)
        ocr_read: dict[str, list[int]] = {}

        def ocr_path(reader_desk, key: str):
            turn = [0]

            def once() -> None:
                action, want = canvas_clicks[turn[0] % 2]
                turn[0] += 1
                got = reader_desk.observe_for(action)
                tally = ocr_read.setdefault(key, [0, 0])
                tally[0] += got.pointer_label == want and got.label_source == "ocr"
                tally[1] += 1
            return once

        process_desk = X11Desktop(display, pointer=PointerReader(recogniser=Recogniser(engine="process")))
        process_desk.start()
        process_desk.observe_fresh()
        rows = [
            ("bare grab", timed_ms(lambda: desk._grab(box), args.runs)),
            ("full screenshot", timed_ms(lambda: desk._grab((0, 0, 1280, 800)), args.runs // 3)),
            ("observe()", timed_ms(desk.observe, args.runs)),
            ("a11y path", timed_ms(lambda: desk.observe_for(on_qt), args.runs)),
            ("focused field", timed_ms(lambda: desk.observe_for(typing), args.runs)),
            ("ocr path", timed_ms(ocr_path(desk, "ocr path"), args.ocr_runs)),
            ("ocr, process", timed_ms(ocr_path(process_desk, "ocr, process"), max(4, args.ocr_runs // 10))),
        ]
        focus = desk.observe_for(typing)
        desk.close()
        process_desk.close()
        base, full = statistics.median(rows[0][1]), statistics.median(rows[1][1])
        print(f"display {display}, 1280×800, JWM + AT-SPI; a Qt window and a Tk canvas; times in ms")
        print(f"{'':18}{'runs':>6}{'p50':>9}{'p99':>9}{'× bare grab':>13}{'× screenshot':>14}")
        for name, samples in rows:
            p50 = statistics.median(samples)
            right, total = ocr_read.get(name, (0, 0))
            print(f"{name:18}{len(samples):>6}{p50:>9.2f}{pct(samples, 99):>9.2f}{p50 / base:>13.1f}"
                  f"{p50 / full:>14.2f}" + (f"   read right {right}/{total}" if total else ""))
        a11y = statistics.median(rows[3][1])
        ocr50, ocr99 = statistics.median(rows[5][1]), pct(rows[5][1], 99)
        print(f"a11y path p50 {a11y:.2f} ms: {'within' if a11y <= 30 else 'OVER'} the 30 ms target; "
              f"focused field read {focus.pointer_label!r} ({focus.pointer_role})")
        print(f"ocr path p50 {ocr50:.2f} ms, p99 {ocr99:.2f} ms: {'within' if ocr50 <= 30 and ocr99 <= 60 else 'OVER'}"
              f" the 30 / 60 ms targets")
        print()
        report_drawn(args.drawn_rounds)
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
