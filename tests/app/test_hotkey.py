import threading
import time

import pytest

from app.desktop.hotkey import KillSwitch, SyntheticInput, Takeover, to_pynput_combo


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize(("combo", "expected"), [
    ("ctrl+alt+shift+k", "<ctrl>+<alt>+<shift>+k"),
    ("Super+F12", "<cmd>+<f12>"),
    ("<ctrl>+x", "<ctrl>+x"),
])
def test_combo_translation(combo, expected):
    assert to_pynput_combo(combo) == expected


def test_empty_combo_is_refused():
    with pytest.raises(ValueError):
        to_pynput_combo(" + ")


def test_takeover_pauses_on_human_input_and_resumes_after_quiet():
    clock = Clock()
    events = []
    t = Takeover(lambda: events.append("pause"), lambda: events.append("resume"), quiet_s=3, clock=clock)
    t.feed()
    t.feed()
    assert events == ["pause"] and t.paused
    clock.now += 2
    t.feed()  # still active: the quiet time restarts
    clock.now += 2.5
    t.tick()
    assert events == ["pause"]
    clock.now += 1
    t.tick()
    assert events == ["pause", "resume"] and not t.paused


def test_takeover_ignores_injected_and_deskgates_own_input():
    clock = Clock()
    synthetic = SyntheticInput(grace_s=0.2, clock=clock)
    events = []
    t = Takeover(lambda: events.append("pause"), lambda: events.append("resume"), synthetic=synthetic, clock=clock)
    t.feed(injected=True)
    with synthetic.injecting():
        t.feed()
    clock.now += 0.1
    t.feed()  # within the grace after our own injection
    assert events == []
    clock.now += 0.2
    t.feed()
    assert events == ["pause"]


@pytest.mark.desktop
def test_kill_switch_fires_on_real_key_press(desktop):
    hit = threading.Event()
    ks = KillSwitch("ctrl+alt+shift+k", hit.set)
    ks.start()
    try:
        for _ in range(3):  # the XRecord context may need a moment after start
            desktop.xdotool("key", "ctrl+alt+shift+k")
            if hit.wait(2):
                break
    finally:
        ks.stop()
    assert hit.is_set() and not ks.running


@pytest.mark.desktop
def test_takeover_sees_a_real_mouse_move(desktop):
    paused = threading.Event()
    t = Takeover(paused.set, lambda: None, quiet_s=0.2)
    t.start()
    try:
        for i in range(5):
            desktop.xdotool("mousemove", str(200 + i * 10), "300")
            if paused.wait(1):
                break
    finally:
        t.stop()
    assert paused.is_set()
    time.sleep(0)  # nothing to wait for: the listener threads have been joined
