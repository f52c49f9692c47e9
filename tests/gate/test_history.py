"""History: counting states, rejections, reset; state_hash: what makes two steps the same."""

from __future__ import annotations

import threading

from gate import History, Observation, action_from_dict
from gate.history import state_hash
from gate.model import Assessment, Decision, Risk

ALLOW = Assessment(decision=Decision.ALLOW, reason="", rules=(), risk=Risk.LOW, confidence=0.9)


def click(x: int = 1, **extra):
    return action_from_dict({"type": "click", "x": x, "y": 1, **extra})


def test_state_hash_depends_on_window_app_url_screen_and_action():
    obs = Observation(window_title="Inbox", app="mail", url="https://mail.example", screen_hash="abc")
    base = state_hash(click(), obs)
    assert state_hash(click(), obs) == base
    assert state_hash(click(2), obs) != base
    for other in (Observation(window_title="Sent", app="mail", url="https://mail.example", screen_hash="abc"),
                  Observation(window_title="Inbox", app="web", url="https://mail.example", screen_hash="abc"),
                  Observation(window_title="Inbox", app="mail", url="https://other.example", screen_hash="abc"),
                  Observation(window_title="Inbox", app="mail", url="https://mail.example", screen_hash="xyz")):
        assert state_hash(click(), other) != base


def test_screen_hash_can_be_left_out():
    a = Observation(window_title="T", screen_hash="1")
    b = Observation(window_title="T", screen_hash="2")
    assert state_hash(click(), a, use_screen_hash=False) == state_hash(click(), b, use_screen_hash=False)
    assert state_hash(click(), a) != state_hash(click(), b)


def test_state_hash_ignores_confidence_and_note_and_uses_action_url_when_unobserved():
    obs = Observation()
    assert state_hash(click(confidence=0.2, note="x"), obs) == state_hash(click(), obs)
    assert state_hash(click(url="https://a.example"), obs) != state_hash(click(url="https://b.example"), obs)


def test_seen_record_and_reset():
    h = History()
    assert h.seen("k") == 0
    h.record("k", ALLOW)
    h.record("k", ALLOW)
    h.record("j", ALLOW)
    assert (h.seen("k"), h.seen("j"), h.steps) == (2, 1, 3)
    h.record_answer(False)
    h.record_answer(True)
    assert h.recent_rejections == 1
    h.reset()
    assert (h.seen("k"), h.steps, h.recent_rejections) == (0, 0, 0)


def test_rejections_are_a_sliding_window():
    h = History(rejection_window=3)
    for ok in (False, False, False, True, True):
        h.record_answer(ok)
    assert h.recent_rejections == 1


def test_states_are_bounded():
    h = History()
    h.MAX_STATES = 5
    for i in range(10):
        h.record(f"s{i}", ALLOW)
    assert h.seen("s0") == 0 and h.seen("s9") == 1


def test_concurrent_records_are_not_lost():
    h = History()

    def work():
        for _ in range(2000):
            h.record("same", ALLOW)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert h.seen("same") == 8000 and h.steps == 8000
