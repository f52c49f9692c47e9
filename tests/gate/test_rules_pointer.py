"""What deskgate read at the target (Observation.pointer_label / pointer_role / label_source) is what the
GUI rules judge, and a claim that disagrees with it is `confirm.gui.label-mismatch`. Our own examples."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.rules.base import Context, judged_action
from gate.rules.pointer import labels_agree

GATE = SafetyGate()


def read(label: str, role: str = "push button", source: str = "accessibility") -> Observation:
    return Observation(window_title="Settings", app="demo", pointer_label=label, pointer_role=role,
                       label_source=source)


def click(**target):
    data = {"type": "click", "x": 10, "y": 10}
    if target:
        data["target"] = target
    return action_from_dict(data)


def test_an_unlabelled_click_is_judged_by_the_read_label():
    assert GATE.assess(click(label="Next")).decision is Decision.ALLOW  # nothing read: the claim is judged
    a = GATE.assess(click(), read("Remove my workspace"))
    assert a.decision is Decision.BLOCK and "Remove my workspace" in a.reason
    a = GATE.assess(click(), read("Submit payment"))
    assert a.decision is Decision.CONFIRM and "confirm.gui.irreversible" in a.rules
    assert GATE.assess(click(), read("Continue reading")).decision is Decision.ALLOW


def test_text_recognition_counts_like_the_accessibility_tree():
    a = GATE.assess(click(), read("Send invitation", role="", source="ocr"))
    assert a.decision is Decision.CONFIRM and "irreversible" in a.reason


def test_typing_is_judged_by_the_focused_field_read_from_the_desktop():
    typed = action_from_dict({"type": "type", "text": "correct horse", "target": {"label": "Notes"}})
    a = GATE.assess(typed, read("Account PIN", role="password text"))
    assert a.decision is Decision.CONFIRM and "confirm.gui.credential-field" in a.rules and "text" in a.redact
    plain = action_from_dict({"type": "type", "text": "correct horse"})
    assert GATE.assess(plain, read("Search", role="text")).decision is Decision.ALLOW


def test_a_claim_that_sounds_worse_than_what_was_read_is_still_judged():
    a = GATE.assess(click(label="Delete my account"), read("OK"))
    assert a.decision is Decision.BLOCK  # the claim is kept in the judged target's name
    assert "confirm.gui.label-mismatch" in a.rules


def test_label_mismatch_fires_on_a_different_element_and_not_on_a_paraphrase_or_misread():
    a = GATE.assess(click(label="Cancel"), read("Transfer funds"))
    assert a.decision is Decision.CONFIRM and "confirm.gui.label-mismatch" in a.rules
    hit = next(h for h in a.hits if h.rule == "confirm.gui.label-mismatch")
    assert "'Cancel'" in hit.reason and "'Transfer funds'" in hit.reason and "accessibility" in hit.reason
    for claimed, seen in (("Next", "Next >"), ("the Next button", "Next"), ("Save changes", "Save"),
                          ("Download report", "Downl0ad report")):
        assert "confirm.gui.label-mismatch" not in GATE.assess(click(label=claimed), read(seen)).rules, claimed
    # nothing read, or nothing claimed: no finding
    assert "confirm.gui.label-mismatch" not in GATE.assess(click(label="Cancel")).rules
    assert "confirm.gui.label-mismatch" not in GATE.assess(click(), read("Transfer funds")).rules


def test_judged_action_keeps_the_claim_and_changes_nothing_when_nothing_was_read():
    action = click(label="Cancel", role="button")
    assert judged_action(action, Observation()) is action
    judged = judged_action(action, read("Transfer funds", role=""))
    assert (judged.target.label, judged.target.role, judged.target.name) == ("Transfer funds", "button", "Cancel")
    ctx = Context(action, read("Transfer funds"))
    assert ctx.claimed == action.target and ctx.action.target.label == "Transfer funds"
    move = action_from_dict({"type": "move", "x": 1, "y": 1})
    assert judged_action(move, read("Transfer funds")) is move


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Place order", "PLACE ORDER", True), ("OK", "Cancel", False), ("", "Cancel", True),
    ("Delete", "Keep", False), ("Open file…", "Open file", True),
])
def test_labels_agree(a, b, same):
    assert labels_agree(a, b) is same


# -- a target nobody can read ----------------------------------------------------------------------------


def unread(**kw) -> Observation:
    return Observation(window_title="Settings", app="demo", pointer_read=True, **kw)


def test_a_click_nobody_can_read_asks_whatever_the_agent_claims():
    for obs in (unread(), unread(pointer_role="push button"),
                unread(pointer_label="Konto l0schen", label_source="ocr", label_confidence=0.31)):
        for action in (click(), click(label="Next")):
            a = GATE.assess(action, obs)
            assert a.decision is Decision.CONFIRM and "confirm.gui.unreadable-target" in a.rules, (obs, a)
    assert "confidence 0.31" in GATE.assess(click(), unread(pointer_label="x", label_source="ocr",
                                                            label_confidence=0.31)).reason


def test_a_read_label_or_an_input_field_is_not_unreadable():  # near misses
    assert GATE.assess(click(), unread(pointer_label="Next", label_source="accessibility",
                                       label_confidence=1.0)).decision is Decision.ALLOW
    assert GATE.assess(click(), unread(pointer_label="Next", label_source="ocr",
                                       label_confidence=0.9)).decision is Decision.ALLOW
    assert GATE.assess(click(), unread(pointer_role="text")).decision is Decision.ALLOW  # focuses a field
    assert GATE.assess(action_from_dict({"type": "scroll", "dy": 3}), unread()).decision is Decision.ALLOW


def test_with_no_screen_a_click_that_names_no_target_asks():
    a = GATE.assess(click())  # `deskgate check`: no desktop, no claim
    assert a.decision is Decision.CONFIRM and a.rules == ("confirm.gui.unreadable-target",)
    assert GATE.assess(click(label="Next")).decision is Decision.ALLOW
    # a desktop whose target is read later (a plan's step is judged again before it runs)
    assert GATE.assess(click(), Observation(app="demo", window_title="Settings")).decision is Decision.ALLOW


def test_an_unreadable_destructive_button_asks_in_kiosk_and_balanced_and_power_may_allow():
    from gate.policy import default_policy

    for preset, expected in (("kiosk", Decision.CONFIRM), ("balanced", Decision.CONFIRM), ("power", Decision.ALLOW)):
        gate = SafetyGate(default_policy(preset))
        a = gate.assess(click(), unread(pointer_role="push button"))
        assert a.decision is expected or (preset == "kiosk" and a.decision is not Decision.ALLOW), (preset, a)
