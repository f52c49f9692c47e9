"""The simple-command parser: every form, its tolerances, and the near misses it must refuse."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate import SafetyGate, load_policy
from gate.commands import MAX_CLAUSES, UNDERSTOOD, CommandError, parse_command
from gate.model import Observation, action_to_dict


def plan(text: str) -> list[dict]:
    return [action_to_dict(a) for a in parse_command(text)]


def sysa(name: str, **params) -> dict:
    return {"type": "system", "name": name, **({"params": params} if params else {})}


@pytest.mark.parametrize(("text", "expected"), [
    ("open firefox", [{"type": "open_app", "app": "firefox"}]),
    ("launch the terminal", [{"type": "open_app", "app": "x-terminal-emulator"}]),
    ("start gedit", [{"type": "open_app", "app": "gedit"}]),
    ("open the firefox app", [{"type": "open_app", "app": "firefox"}]),
    ("open libreoffice-writer", [{"type": "open_app", "app": "libreoffice-writer"}]),
    ("open a web browser", [{"type": "open_app", "app": "x-www-browser"}]),
    ("set volume to 50", [sysa("volume", level=50)]),
    ("set the volume to 0", [sysa("volume", level=0)]),
    ("volume 30%", [sysa("volume", level=30)]),
    ("set volume to 40 percent", [sysa("volume", level=40)]),
    ("volume up", [sysa("volume", change=10)]),
    ("volume down", [sysa("volume", change=-10)]),
    ("turn the volume down by 5", [sysa("volume", change=-5)]),
    ("turn up the volume", [sysa("volume", change=10)]),
    ("lower the volume by twenty", [sysa("volume", change=-20)]),
    ("mute", [sysa("mute", state="on")]),
    ("mute the sound", [sysa("mute", state="on")]),
    ("unmute", [sysa("unmute")]),
    ("lock screen", [sysa("lock")]),
    ("lock the screen", [sysa("lock")]),
    ("lock", [sysa("lock")]),
    ("set brightness to 75", [sysa("brightness", level=75)]),
    ("set screen brightness to 100", [sysa("brightness", level=100)]),
    ("brightness up", [sysa("brightness", change=10)]),
    ("decrease brightness by 15", [sysa("brightness", change=-15)]),
    ("dim the screen", [sysa("brightness", change=-10)]),
    ("turn wifi off", [sysa("wifi", state="off")]),
    ("turn wifi on", [sysa("wifi", state="on")]),
    ("turn off the wifi", [sysa("wifi", state="off")]),
    ("disable wi-fi", [sysa("wifi", state="off")]),
    ("bluetooth on", [sysa("bluetooth", state="on")]),
    ("switch bluetooth off", [sysa("bluetooth", state="off")]),
    ("sleep", [sysa("sleep")]),
    ("suspend", [sysa("sleep")]),
    ("put the computer to sleep", [sysa("sleep")]),
    ("hibernate", [sysa("hibernate")]),
    ("shutdown", [sysa("shutdown")]),
    ("shut down now", [sysa("shutdown")]),
    ("shut down in 5 minutes", [sysa("shutdown", delay_s=300)]),
    ("shut down the computer in thirty seconds", [sysa("shutdown", delay_s=30)]),
    ("power off in an hour", [sysa("shutdown", delay_s=3600)]),
    ("turn off the computer", [sysa("shutdown")]),
    ("restart", [sysa("restart")]),
    ("reboot in 2 hours", [sysa("restart", delay_s=7200)]),
])
def test_each_form(text: str, expected: list[dict]) -> None:
    assert plan(text) == expected


@pytest.mark.parametrize("text", [
    "Set Volume To 50", "  set   volume to 50  ", "set volume to 50.", "Please set volume to 50!",
    "could you set the volume to fifty please?", "set volume to fifty, thanks", "SET VOLUME TO 50%",
    "set volume to ５０",  # full-width digits fold to ASCII (NFKC)
])
def test_tolerant_of_case_space_punctuation_politeness_and_words(text: str) -> None:
    assert plan(text) == [sysa("volume", level=50)]


@pytest.mark.parametrize(("words", "n"), [
    ("zero", 0), ("seven", 7), ("fifteen", 15), ("twenty", 20), ("twenty five", 25), ("ninety nine", 99),
    ("one hundred", 100), ("a hundred", 100),
])
def test_numbers_in_words(words: str, n: int) -> None:
    assert plan(f"set volume to {words}") == [sysa("volume", level=n)]


@pytest.mark.parametrize(("text", "expected"), [
    ("mute and lock the screen", [sysa("mute", state="on"), sysa("lock")]),
    ("Please mute and lock the screen.", [sysa("mute", state="on"), sysa("lock")]),
    ("open firefox, then set volume to twenty", [{"type": "open_app", "app": "firefox"}, sysa("volume", level=20)]),
    ("turn wifi off and then bluetooth off", [sysa("wifi", state="off"), sysa("bluetooth", state="off")]),
    ("unmute, volume up, brightness down", [sysa("unmute"), sysa("volume", change=10),
                                            sysa("brightness", change=-10)]),
])
def test_conjunctions(text: str, expected: list[dict]) -> None:
    assert plan(text) == expected


@pytest.mark.parametrize(("text", "range_text"), [
    ("set volume to 150", "from 0 to 100"),
    ("set volume to one hundred five", "from 0 to 100"),
    ("set brightness to 0", "from 1 to 100"),
    ("volume up by 500", "from 1 to 100"),
    ("shut down in 3000 minutes", "24 hours"),
])
def test_out_of_range_names_the_range(text: str, range_text: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_command(text)
    assert range_text in str(info.value)
    assert not info.value.unknown


@pytest.mark.parametrize("text", [
    "set volume to loud", "volume to max", "open", "open visual studio", "make it louder", "delete my files",
    "shut down in 3 days", "turn wifi sideways", "lock the door", "rm -rf", "open firefox and rm",
    "sudo reboot", "run bash -c reboot", "", "   ", "please", "set volume to twenty hundred",
])
def test_unknown_phrasing_lists_what_is_understood(text: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_command(text)
    assert info.value.unknown
    for form in UNDERSTOOD:
        assert form in str(info.value)


@pytest.mark.parametrize("text", [
    "open; rm -rf /", "open firefox && rm", "open firefox; reboot", "open $(reboot)", "open `id`",
    "open firefox | sh", "open firefox > /etc/passwd", "open /usr/bin/firefox", "open ~/evil",
    "open firefox\nrm -rf ~", "set volume to 50 & reboot", "open -rf", "open \u202efirefox",
])
def test_shell_shaped_requests_run_nothing(text: str) -> None:
    with pytest.raises(CommandError):
        parse_command(text)


def test_more_than_the_clause_limit_is_refused() -> None:
    assert len(parse_command(" and ".join(["mute"] * MAX_CLAUSES))) == MAX_CLAUSES
    with pytest.raises(CommandError, match="at most"):
        parse_command(" and ".join(["mute"] * (MAX_CLAUSES + 1)))


_SAFE_APP = re.compile(r"[a-z0-9][a-z0-9._+-]*")


_PIECES = [*"abcdefghijklmnopqrstuvwxyz0123456789 ,.;&|$-/%'!?", "open ", "volume ", " and ", "set ", " to ",
           "wifi ", "rm ", "-rf "]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES),
                max_size=30).map("".join))
def test_any_text_gives_only_system_or_a_plain_program(text: str) -> None:
    try:
        actions = parse_command(text)
    except CommandError:
        return
    for a in actions:
        assert a.type in ("system", "open_app")
        if a.type == "open_app":
            assert _SAFE_APP.fullmatch(a.app) and not a.app.startswith("-")


def test_produced_actions_pass_the_gate_rules() -> None:
    """What the parser makes is valid for the executor's params and the gate's system rules."""
    gate = SafetyGate(load_policy())
    for text in ("set volume to 50", "brightness down", "turn wifi off", "mute", "unmute", "lock",
                 "open firefox"):
        for a in parse_command(text):
            assert gate.assess(a, Observation()).decision.value == "allow", text
    delayed = gate.assess(parse_command("shut down in 2 hours")[0], Observation())
    assert "confirm.system.delay-over-cap" in delayed.rules


def test_plans_fit_the_executor() -> None:
    """Every system action the parser makes is one app/execute/systemactions.py can plan (bar missing tools)."""
    from app.errors import DeskgateError
    from app.execute.systemactions import plan_system

    texts = ["set volume to 5", "volume down by 3", "mute", "unmute", "lock", "set brightness to 9",
             "brightness up", "wifi on", "bluetooth off", "sleep", "hibernate", "shutdown",
             "restart in 5 minutes"]
    for text in texts:
        for a in parse_command(text):
            try:
                cmd = plan_system(a.name, a.params, max_delay_s=600, which=lambda t: f"/usr/bin/{t}",
                                  systemd=True)
            except DeskgateError as err:  # pragma: no cover - the assertion message says which
                pytest.fail(f"{text!r}: {err}")
            assert cmd.argv[0].startswith("/usr/bin/")
