"""Enter in Windows' Run box (gate/rules/keys_run_box.py) and Win+X on a page whose title says its verification
failed (gate/rules/keys.py). Our own windows, written from Microsoft's description of the Run dialog and the
fake-verification pages' "press Win+R, paste, press Enter" step."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def pressed(keys: list[str], title: str, app: str = ""):
    return GATE.assess(action_from_dict({"type": "key", "keys": keys}), Observation(window_title=title, app=app))


@pytest.mark.parametrize("keys,title", [(["enter"], "Run"), (["ctrl", "shift", "enter"], "Ausführen")])
def test_enter_in_the_run_box_asks(keys, title):
    assert "confirm.gui.run-box-enter" in pressed(keys, title).rules


@pytest.mark.parametrize("keys,title", [(["enter"], "Run configurations - IntelliJ IDEA"), (["esc"], "Run"),
                                        (["enter"], "Untitled - Notepad")])
def test_enter_elsewhere_or_closing_the_run_box_passes(keys, title):
    assert "confirm.gui.run-box-enter" not in pressed(keys, title).rules


def test_win_x_on_a_page_whose_verification_failed_blocks():
    assert "block.gui.run-box-on-lure" in pressed(["win", "x"], "Site verification error - Mozilla Firefox").rules
    assert "block.gui.run-box-on-lure" not in pressed(["win", "x"], "Quarterly report - Word").rules
