"""Keys judged by what they do where they are pressed: the send key of a mail compose window (as its Send button),
Ctrl+Shift+Enter in the Run box or Start search (as administrator), and the Run box opened over a page that
scares or promises a fix."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict
from gate.model import TypedLine

GATE = SafetyGate()


def _key(keys: list[str], **obs):
    return GATE.assess(action_from_dict({"type": "key", "keys": keys}), Observation(**obs))


def test_the_send_key_asks_when_the_message_is_not_the_one_judged() -> None:
    secret = TypedLine(text="the deploy key is AKIAQ3EXAMPLE7ZX4PLM")
    got = _key(["ctrl", "enter"], app="Thunderbird", window_title="Write: keys - Thunderbird", line=secret)
    assert "confirm.gui.send-key" in got.rules
    lost = TypedLine(text="", known=False)
    got = _key(["ctrl", "enter"], app="Outlook", window_title="Untitled - Message (HTML)", line=lost)
    assert "confirm.gui.send-key" in got.rules


def test_the_send_key_asks_with_the_message_as_typed_too() -> None:
    line = TypedLine(text="see you at noon")
    got = _key(["ctrl", "enter"], app="Thunderbird", window_title="Write: lunch - Thunderbird", line=line)
    assert "confirm.gui.send-key" in got.rules


@pytest.mark.parametrize("obs", [
    {"app": "Code", "window_title": "main.py - Visual Studio Code"},
])
def test_the_send_key_elsewhere_passes(obs: dict) -> None:
    assert "confirm.gui.send-key" not in _key(["ctrl", "enter"], **obs).rules


@pytest.mark.parametrize("title, app", [("Search", "Start"), ("Run", "explorer.exe"), ("Ausführen", "explorer.exe")])
def test_ctrl_shift_enter_in_a_launcher_asks(title: str, app: str) -> None:
    got = _key(["ctrl", "shift", "enter"], window_title=title, app=app)
    assert got.decision.value == "confirm" and "confirm.gui.elevate-key" in got.rules


def test_ctrl_shift_enter_elsewhere_passes() -> None:
    assert _key(["ctrl", "shift", "enter"], window_title="Book1 - Excel", app="Excel").decision.value == "allow"
    assert _key(["enter"], window_title="Search", app="Start").decision.value == "allow"


@pytest.mark.parametrize("title", [
    "Activate Windows for free - Google Chrome", "Your Passwords Have Been Compromised! - Microsoft Edge",
    "Repair HTTPS Security Certificate - Google Chrome", "Virus detected on your PC - Google Chrome",
    "Ich bin kein Roboter - Google Chrome", "Je ne suis pas un robot - Firefox",
])
def test_the_run_box_over_a_scare_or_fix_page_blocks(title: str) -> None:
    got = _key(["win", "r"], window_title=title, app="Google Chrome")
    assert got.decision.value == "block" and "block.gui.run-box-on-lure" in got.rules, got.rules


@pytest.mark.parametrize("title", ["Desktop", "How to open the Run dialog - Microsoft Support",
                                   "Windows 11 release notes - Google Chrome", "Certificate pinning in Android - Blog"])
def test_the_run_box_elsewhere_passes(title: str) -> None:
    assert _key(["win", "r"], window_title=title, app="Google Chrome").decision.value == "allow"


@pytest.mark.parametrize("obs", [
    {"app": "Firefox", "window_title": "Gmail - Compose new message", "url": "http://localhost:8000/email/"},
    {"app": "Chromium", "window_title": "Compose Mail - sam@example.org - Proton Mail",
     "url": "https://mail.proton.me/u/0/inbox"},
])
def test_the_send_key_in_a_webmails_compose_window_asks(obs: dict) -> None:
    assert "confirm.gui.send-key" in _key(["ctrl", "enter"], **obs).rules
