"""Reading the desktop: pixel helpers and NullDesktop without a display; X11Desktop and the executor's GUI
actions on the real test desktop (Xvfb + JWM) with real Qt windows (tests/app/winapp.py) as subprocesses."""

from __future__ import annotations

import contextlib
import os
import struct
import threading
import time
import uuid
import zlib

import msgspec
import pytest
from winapp_driver import WinApp

from app.desktop.screen import (
    MARK_COLOR,
    NullDesktop,
    _parse_window,
    _region_around,
    average_hash,
    bgra_to_rgb,
    downscale_rgb,
    draw_line,
    make_desktop,
    mark_point,
    own_process_identity,
)
from gate.model import EMPTY_OBSERVATION, Click, Drag, Observation, Rect, Type


def wait_until(pred, timeout: float = 5.0, what: str = "condition"):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = pred()
        if last:
            return last
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def decode_png(png: bytes) -> tuple[int, int, bytes]:
    """Our PNGs (8-bit RGB, filter 0 on every line) → width, height, RGB bytes."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", data[:8])
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    raw = zlib.decompress(idat)
    line = width * 3 + 1
    assert all(raw[y * line] == 0 for y in range(height))
    return width, height, b"".join(raw[y * line + 1:(y + 1) * line] for y in range(height))


def pixel(rgb: bytes, width: int, x: int, y: int) -> tuple[int, int, int]:
    i = (y * width + x) * 3
    return tuple(rgb[i:i + 3])


def bgra(width: int, height: int, fill=(0, 0, 0)) -> bytearray:
    r, g, b = fill
    return bytearray(bytes((b, g, r, 255)) * (width * height))


# -- pure pixel helpers ------------------------------------------------------------------------------


def test_bgra_to_rgb_swaps_channels_and_drops_alpha():
    assert bgra_to_rgb(bytes([1, 2, 3, 255, 4, 5, 6, 255]), 2, 1) == bytearray([3, 2, 1, 6, 5, 4])


def test_average_hash_uniform_and_half_bright():
    w, h = 160, 90
    assert average_hash(bgra(w, h), w, h) == "0" * 36
    img = bgra(w, h)
    for y in range(h):
        img[y * w * 4:(y * w + w // 2) * 4] = bytes((255, 255, 255, 255)) * (w // 2)
    assert average_hash(img, w, h) == "ff00" * 9  # left half of every row of cells is brighter than the mean


def test_average_hash_sees_a_window_appear():
    w, h = 320, 180
    before = bgra(w, h, (20, 20, 20))
    after = bytearray(before)
    for y in range(40, 80):  # a bright 60×40 box inside cells (3..4, 2..3)
        after[(y * w + 60) * 4:(y * w + 120) * 4] = bytes((250, 250, 250, 255)) * 60
    hb, ha = average_hash(before, w, h), average_hash(after, w, h)
    assert hb != ha
    assert bin(int(ha, 16)).count("1") in range(2, 7)


def test_downscale_keeps_every_nth_pixel():
    w, h = 100, 10
    rgb = bytearray()
    for y in range(h):
        for x in range(w):
            rgb += bytes((x, y, 7))
    out, w2, h2 = downscale_rgb(rgb, w, h, 40)
    assert (w2, h2) == (33, 3)
    assert pixel(out, w2, 5, 2) == (15, 6, 7)
    same, w3, h3 = downscale_rgb(rgb, w, h, 200)
    assert (w3, h3) == (100, 10) and same == rgb


def test_mark_point_draws_around_the_target_and_leaves_it_visible():
    w, h = 100, 80
    rgb = bytearray(w * h * 3)
    mark_point(rgb, w, h, 50, 40)
    assert pixel(rgb, w, 50, 40) == (0, 0, 0)
    assert pixel(rgb, w, 60, 40) == MARK_COLOR       # crosshair, right arm
    assert pixel(rgb, w, 50, 30) == MARK_COLOR       # crosshair, upper arm
    assert pixel(rgb, w, 5, 5) == (0, 0, 0)          # far away: untouched
    corner = bytearray(10 * 10 * 3)
    mark_point(corner, 10, 10, 0, 0)                 # clipped at the edges, no error
    assert pixel(corner, 10, 5, 0) == MARK_COLOR


def test_draw_line_joins_the_points():
    w, h = 40, 30
    rgb = bytearray(w * h * 3)
    draw_line(rgb, w, h, 2, 3, 32, 23)
    assert pixel(rgb, w, 2, 3) == MARK_COLOR and pixel(rgb, w, 32, 23) == MARK_COLOR
    assert pixel(rgb, w, 17, 13) == MARK_COLOR   # the midpoint
    assert pixel(rgb, w, 30, 5) == (0, 0, 0)


def test_preview_region_contains_the_points_and_stays_on_screen():
    assert _region_around([(5, 5)], 1280, 800) == (0, 0, 480, 300)
    assert _region_around([(1275, 795)], 1280, 800) == (800, 500, 480, 300)
    x, y, w, h = _region_around([(100, 100), (900, 700)], 1280, 800)
    assert x <= 100 and y <= 100 and x + w > 900 and y + h > 700
    assert x >= 0 and y >= 0 and x + w <= 1280 and y + h <= 800
    assert _region_around([(10, 10)], 300, 200) == (0, 0, 300, 200)


def test_parse_window_ids_and_titles():
    assert _parse_window("0x4a0000f") == 0x4A0000F
    assert _parse_window("12345") == 12345
    assert _parse_window(77) == 77
    assert _parse_window("deskgate — confirm") == "deskgate — confirm"


def test_null_desktop_is_empty_but_names_its_own_process():
    d = NullDesktop()
    d.start()
    d.protect("anything")
    names, cmdlines = own_process_identity()
    own = msgspec.structs.replace(EMPTY_OBSERVATION, own_pids=(os.getpid(),), own_names=names, own_cmdlines=cmdlines)
    assert d.observe() == own
    assert d.observe_fresh() == Observation(own_pids=(os.getpid(),), own_names=names, own_cmdlines=cmdlines)
    assert d.preview(Click(x=1, y=1)) is None
    assert d.observe_for(Click(x=1, y=1)) == own
    d.stop()


def test_make_desktop_without_a_display_is_null(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    assert isinstance(make_desktop(), NullDesktop)
    assert isinstance(make_desktop(":4242"), NullDesktop)  # nothing answers there


# -- the real desktop ---------------------------------------------------------------------------------


@pytest.fixture
def windows(desktop):
    opened: list[WinApp] = []

    def open_window(prefix: str, x: int = 200, y: int = 150) -> WinApp:
        win = WinApp(desktop, f"{prefix}-{uuid.uuid4().hex[:6]}", x, y)
        opened.append(win)
        return win

    yield open_window
    for win in opened:
        win.close()


@pytest.fixture
def xdesk(desktop):
    from app.desktop.screen import X11Desktop

    d = X11Desktop(desktop.display)
    d.start()
    yield d
    d.close()


def activate(desktop, win: WinApp) -> None:
    desktop.xdotool("windowactivate", "--sync", str(win.wid), check=False)


@pytest.mark.desktop
def test_observe_reports_the_active_window_and_app(desktop, xdesk, windows):
    win = windows("Alpha")
    activate(desktop, win)
    wait_until(lambda: xdesk.observe().window_title == win.title, what="cached title")
    cached, fresh = xdesk.observe(), xdesk.observe_fresh()
    for obs in (cached, fresh):
        assert obs.window_title == win.title
        assert obs.app == win.comm  # what `ps -o comm=` says: pywinctl's getAppName
        assert (obs.screen_width, obs.screen_height) == (1280, 800)
        assert len(obs.screen_hash) == 36 and int(obs.screen_hash, 16) > 0
        assert obs.protected == () and not obs.protected_active


@pytest.mark.desktop
def test_cached_observe_follows_activation_and_title_changes_without_rereading(desktop, xdesk, windows,
                                                                               monkeypatch):
    a, b = windows("First", x=100), windows("Second", x=650)
    activate(desktop, a)
    wait_until(lambda: xdesk.observe().window_title == a.title, what="first window active")
    assert xdesk.watching

    def no_fresh_reads():
        raise AssertionError("observe() read the desktop instead of using the watcher's state")

    monkeypatch.setattr(xdesk, "_pywinctl_active", no_fresh_reads)
    activate(desktop, b)
    wait_until(lambda: xdesk.observe().window_title == b.title, what="second window active")
    desktop.xdotool("set_window", "--name", "Renamed by test", str(b.wid))
    wait_until(lambda: xdesk.observe().window_title == "Renamed by test", what="title change")
    activate(desktop, a)
    wait_until(lambda: xdesk.observe().window_title == a.title, what="first window again")


@pytest.mark.desktop
def test_watcher_reconnects_after_the_server_drops_it(desktop, xdesk, windows):
    from Xlib import display as xdisplay

    a, b = windows("Before", x=100), windows("After", x=650)
    activate(desktop, a)
    wait_until(lambda: xdesk.observe().window_title == a.title, what="first window active")
    killer = xdisplay.Display(desktop.display)
    killer.create_resource_object("window", xdesk._damage).kill_client()  # a resource the watcher owns
    killer.sync()
    killer.close()
    wait_until(lambda: xdesk.watcher_restarts >= 1, what="the watcher to notice")
    assert xdesk.observe().window_title == a.title  # meanwhile: fresh reads, still correct
    wait_until(lambda: xdesk.watching, what="the watcher to reconnect")
    activate(desktop, b)
    wait_until(lambda: xdesk.observe().window_title == b.title, what="the reconnected watcher to follow")


@pytest.mark.desktop
def test_screen_hash_changes_when_the_screen_does(desktop, xdesk, windows):
    before = xdesk.observe_fresh().screen_hash
    win = windows("Hashy", x=700, y=400)
    activate(desktop, win)
    wait_until(lambda: xdesk.observe_fresh().screen_hash != before, what="a new screen hash")


@pytest.mark.desktop
def test_cached_screen_hash_follows_damage_without_grabbing_on_the_observe_path(desktop, xdesk, windows,
                                                                                  monkeypatch):
    assert xdesk._damage is not None  # Xvfb has the DAMAGE extension
    real = xdesk._screen_hash
    grabbed_in: list[str] = []

    def spy(*, max_age: float) -> str:
        grabbed_in.append(threading.current_thread().name)
        return real(max_age=max_age)

    monkeypatch.setattr(xdesk, "_screen_hash", spy)
    before = xdesk.observe().screen_hash
    windows("Damage", x=600, y=420)
    after = wait_until(lambda: (h := xdesk.observe().screen_hash) != before and h, what="hash to follow")
    assert len(after) == 36
    assert grabbed_in and set(grabbed_in) == {"deskgate-screen-hash"}  # never the caller's thread


@pytest.mark.desktop
def test_executor_types_presses_keys_and_clicks_in_a_real_window(desktop, windows):
    from app.execute.executor import Executor
    from gate.model import action_from_dict
    from gate.policy import default_policy

    win = windows("Typing")
    activate(desktop, win)
    ex = Executor(default_policy())
    run = lambda **a: ex.execute(action_from_dict(a))  # noqa: E731
    r = run(type="click", x=win.edit[0], y=win.edit[1])
    assert r.ok, r.to_dict()
    assert run(type="type", text="hello deskgate").ok
    win.expect("text hello deskgate")
    assert run(type="key", keys=["ctrl", "a"]).ok
    assert run(type="type", text="Z").ok
    win.expect("text Z")  # ctrl+a selected everything, so Z replaced it
    assert run(type="key", keys=["BackSpace"]).ok
    win.expect("text ")
    assert run(type="type", text="ok").ok
    r = run(type="click", x=win.button[0], y=win.button[1])
    assert r.ok
    win.expect("clicked ok")
    off = run(type="click", x=5000, y=10)
    assert off.error is not None and off.error.code == "bad_request"


@pytest.mark.desktop
def test_executor_types_non_ascii_through_xdotool(desktop, windows):
    import pywinctl

    from app.execute.executor import Executor
    from gate.model import action_from_dict
    from gate.policy import default_policy

    win = windows("Unicode")
    activate(desktop, win)
    # the window manager activates asynchronously: type only once the field's window really has focus
    wait_until(lambda: pywinctl.getActiveWindowTitle() == win.title, what="the Unicode window active")
    ex = Executor(default_policy())
    assert ex.execute(action_from_dict({"type": "click", "x": win.edit[0], "y": win.edit[1]})).ok
    r = ex.execute(action_from_dict({"type": "type", "text": "café"}))
    assert r.ok and r.detail["via"] == "xdotool"
    win.expect("text café")


@pytest.mark.desktop
def test_characters_the_keymap_lacks_arrive_and_the_map_is_given_back(desktop, windows):
    """xdotool alone clears its scratch keycode before a busy client reads the map (the character is dropped):
    deskgate holds each such character on a spare keycode through the typing, then clears what it mapped."""
    import pywinctl
    from Xlib import display as xdisplay

    from app.execute.executor import Executor
    from gate.model import action_from_dict
    from gate.policy import default_policy

    def keymap() -> list[tuple[int, ...]]:
        disp = xdisplay.Display(desktop.env["DISPLAY"])
        try:
            first = disp.display.info.min_keycode
            return [tuple(r) for r in disp.get_keyboard_mapping(first, disp.display.info.max_keycode - first + 1)]
        finally:
            disp.close()

    before = keymap()
    win = windows("Held")
    activate(desktop, win)
    wait_until(lambda: pywinctl.getActiveWindowTitle() == win.title, what="the Held window active")
    ex = Executor(default_policy())
    assert ex.execute(action_from_dict({"type": "click", "x": win.edit[0], "y": win.edit[1]})).ok
    text = "ñandú €5 — Łódź ✓"
    r = ex.execute(action_from_dict({"type": "type", "text": text}))
    assert r.ok and r.detail["via"] == "xdotool", r.detail
    win.expect(f"text {text}")
    assert keymap() == before


@pytest.mark.desktop
def test_screenshot_action_returns_a_bounded_png(desktop):
    import base64

    from app.execute.executor import Executor
    from gate.model import action_from_dict
    from gate.policy import default_policy

    r = Executor(default_policy()).execute(action_from_dict({"type": "screenshot"}))
    assert r.ok
    assert (r.detail["width"], r.detail["height"]) == (1280, 800)
    w, h, _ = decode_png(base64.b64decode(r.detail["png_base64"]))
    assert (w, h) == (r.detail["png_width"], r.detail["png_height"]) == (640, 400)


@pytest.mark.desktop
def test_preview_marks_the_click_target(desktop, xdesk, windows, artifacts):
    import mss

    win = windows("Preview")
    activate(desktop, win)
    time.sleep(0.3)  # the WM reports a window active before Qt has painted it
    tx, ty = win.edit
    png, box = xdesk.preview(Click(x=tx, y=ty))
    (artifacts / "desktop_preview_click.png").write_bytes(png)
    bx, by, bw, bh = box
    assert (bw, bh) == (480, 300) and bx <= tx < bx + bw and by <= ty < by + bh
    w, h, rgb = decode_png(png)
    assert (w, h) == (480, 300)
    px, py = tx - bx, ty - by
    assert pixel(rgb, w, px + 10, py) == MARK_COLOR
    assert pixel(rgb, w, px, py - 10) == MARK_COLOR
    with mss.MSS(display=desktop.display) as sct:
        shot = sct.grab({"left": bx, "top": by, "width": bw, "height": bh})
    screen = bgra_to_rgb(shot.raw, shot.width, shot.height)
    assert pixel(rgb, w, px, py) == pixel(screen, bw, px, py)       # the target itself stays visible
    assert pixel(rgb, w, 2, h - 3) == pixel(screen, bw, 2, h - 3)   # away from the mark: the real screen


@pytest.mark.desktop
def test_preview_of_a_drag_and_of_typing(desktop, xdesk, windows, artifacts):
    win = windows("Preview2", x=300, y=200)
    activate(desktop, win)
    wait_until(lambda: xdesk.observe().window_title == win.title, what="window active")
    time.sleep(0.3)
    png, box = xdesk.preview(Drag(path=[(320, 260), (900, 650)]))
    (artifacts / "desktop_preview_drag.png").write_bytes(png)
    x, y, w, h = box
    assert x <= 320 and y <= 260 and x + w > 900 and y + h > 650
    png, box = xdesk.preview(Type(text="secret"))
    (artifacts / "desktop_preview_type.png").write_bytes(png)
    x, y, w, h = box
    assert x <= win.edit[0] < x + w and y <= win.edit[1] < y + h  # the active window
    assert w < 600 and h < 300
    pw, _, _ = decode_png(png)
    assert pw == w


@pytest.mark.desktop
def test_protected_window_rect_follows_the_window(desktop, xdesk, windows):
    win = windows("Guarded")
    activate(desktop, win)
    wait_until(lambda: xdesk.observe().window_title == win.title, what="window active")
    xdesk.protect(str(win.wid))
    obs = xdesk.observe()
    assert obs.protected_active
    assert any(r.contains(*win.edit) for r in obs.protected)
    frame = next(r for r in obs.protected if r.contains(*win.edit))
    assert frame.width >= 360 and frame.height >= 120  # the frame is included
    desktop.xdotool("windowmove", str(win.wid), "700", "450")
    moved = wait_until(lambda: [r for r in xdesk.observe().protected if r.x >= 650 and r.y >= 400],
                       what="protected rect to follow the move")
    assert not moved[0].contains(*win.edit)
    xdesk.unprotect(hex(win.wid))
    obs = xdesk.observe()
    assert obs.protected == () and not obs.protected_active


@pytest.mark.desktop
def test_protect_by_title_and_named_area(desktop, xdesk, windows):
    mine, other = windows("Mine", x=100), windows("Other", x=650)
    activate(desktop, other)
    wait_until(lambda: xdesk.observe().window_title == other.title, what="other active")
    xdesk.protect(mine.title)
    obs = xdesk.observe()
    assert any(r.contains(*mine.edit) for r in obs.protected)
    assert not any(r.contains(*other.edit) for r in obs.protected)
    assert not obs.protected_active
    activate(desktop, mine)
    wait_until(lambda: xdesk.observe().protected_active, what="protected window active")
    xdesk.protect_area("tray", Rect(1250, 776, 24, 24))
    assert Rect(1250, 776, 24, 24) in xdesk.observe().protected
    xdesk.protect_area("tray", None)
    assert Rect(1250, 776, 24, 24) not in xdesk.observe().protected


@pytest.mark.desktop
def test_windows_of_deskgates_own_process_are_protected_without_registration(desktop, windows):
    from app.desktop.screen import X11Desktop

    win = windows("OwnPid")
    d = X11Desktop(desktop.display, own_pid=win.proc.pid)  # pretend the window's process is deskgate
    d.start()
    try:
        activate(desktop, win)
        obs = wait_until(lambda: (o := d.observe()).protected_active and o, what="own window protected")
        assert any(r.contains(*win.edit) for r in obs.protected)
    finally:
        d.close()


@pytest.mark.desktop
def test_observe_is_thread_safe(desktop, xdesk, windows):
    win = windows("Threads")
    activate(desktop, win)
    errors: list[BaseException] = []

    def hammer() -> None:
        try:
            for i in range(200):
                obs = xdesk.observe_fresh() if i % 50 == 0 else xdesk.observe()
                assert obs.screen_width == 1280
        except BaseException as err:  # collected and re-raised in the test thread
            errors.append(err)

    threads = [threading.Thread(target=hammer) for _ in range(6)]
    for t in threads:
        t.start()
    with contextlib.suppress(Exception):
        xdesk.protect(win.title)
    for t in threads:
        t.join(60)
    assert not errors, errors[0]


@pytest.mark.desktop
def test_pid_at_names_the_topmost_window_under_the_point(desktop, xdesk, windows):
    back = windows("back", 200, 150)
    front = windows("front", 260, 180)
    activate(desktop, front)
    with xdesk._q_lock:
        assert xdesk._q.pid_at(*front.edit) == front.proc.pid
        assert xdesk._q.pid_at(back.edit[0] - 160, back.edit[1]) == back.proc.pid  # left of front: only back
        assert xdesk._q.pid_at(1200, 700) == 0  # the bare root window


@pytest.mark.desktop
def test_observe_for_without_a_reader_or_for_other_actions_is_observe(desktop, xdesk, windows):
    win = windows("plain")
    activate(desktop, win)
    assert xdesk.pointer is None
    assert xdesk.observe_for(Click(x=win.button[0], y=win.button[1])).label_source == ""

    class Reader:
        def __init__(self):
            self.calls = 0

        def read(self, action, **_):
            self.calls += 1
            from app.desktop.pointer import Read

            return Read("Go", "push button", "accessibility")

        def close(self):
            pass

    xdesk.pointer = reader = Reader()
    obs = xdesk.observe_for(Click(x=win.button[0], y=win.button[1]))
    assert (obs.pointer_label, obs.label_source, obs.window_title) == ("Go", "accessibility", win.title)
    from gate.model import action_from_dict

    assert xdesk.observe_for(action_from_dict({"type": "key", "keys": ["a"]})).label_source == ""
    assert reader.calls == 1  # a key press reads nothing


def test_own_process_identity_names_what_a_process_search_finds() -> None:
    """The names `pkill`/`killall` compare and the command line `pkill -f`/`ps` search, of this process."""
    import sys

    names, cmdlines = own_process_identity()
    exe = os.path.basename(sys.executable)
    assert names and cmdlines
    assert exe in names or os.path.basename(os.path.realpath(sys.executable)) in names
    assert "pytest" in cmdlines[0]  # this test runs under pytest: its command line says so
    assert own_process_identity(os.getpid()) == (names, cmdlines)
