"""Agent-level rules: kiosk, type lists, loops, app/window mismatch, confidence, self-protection, risk
score. Each with a triggering example and a near miss."""

from __future__ import annotations

import msgspec
import pytest

from gate import History, Observation, Rect, SafetyGate, action_from_dict, default_policy
from gate.model import Decision, Hit, Risk
from gate.rules import agent
from gate.rules.base import Context

BALANCED = default_policy()


def gate_with(**gate_fields) -> SafetyGate:
    policy = default_policy()
    return SafetyGate(msgspec.structs.replace(policy, gate=msgspec.structs.replace(policy.gate, **gate_fields)))


def act(data: dict):
    return action_from_dict(data)


CLICK = {"type": "click", "x": 100, "y": 100, "target": {"label": "Refresh"}}


# -- action-type lists and kiosk ---------------------------------------------------------------------


def test_always_block_names_system_actions_and_types():
    gate = SafetyGate()
    got = gate.assess(act({"type": "system", "name": "format_disk"}))
    assert got.decision is Decision.BLOCK and "block.agent.type-blocked" in got.rules
    got = gate.assess(act({"type": "system", "name": "Factory Reset"}))  # spelled differently
    assert "block.agent.type-blocked" in got.rules
    assert "block.agent.type-blocked" not in gate.assess(act({"type": "system", "name": "volume"})).rules
    assert "block.agent.type-blocked" in gate_with(always_block=["shell"]).assess(
        act({"type": "shell", "command": "ls"})).rules


def test_always_confirm():
    got = SafetyGate().assess(act({"type": "file_delete", "path": "/tmp/x.txt"}))
    assert "confirm.agent.type-confirm" in got.rules
    got = SafetyGate().assess(act({"type": "system", "name": "install_software", "params": {"name": "jq"}}))
    assert "confirm.agent.type-confirm" in got.rules
    assert "confirm.agent.type-confirm" not in SafetyGate().assess(act({"type": "wait"})).rules


def test_kiosk_allows_only_whitelisted_types():
    kiosk = SafetyGate(default_policy("kiosk"))
    got = kiosk.assess(act(CLICK))
    assert got.decision is Decision.BLOCK and "block.agent.kiosk" in got.rules
    assert kiosk.assess(act({"type": "wait"})).decision is Decision.ALLOW
    assert kiosk.assess(act({"type": "screenshot"})).decision is Decision.ALLOW
    assert "block.agent.kiosk" not in SafetyGate().assess(act(CLICK)).rules


def test_kiosk_still_applies_the_type_lists():
    kiosk = SafetyGate(default_policy("kiosk"))
    assert kiosk.assess(act({"type": "system", "name": "format_disk"})).decision is Decision.BLOCK
    assert kiosk.assess(act({"type": "system", "name": "shutdown"})).decision is Decision.CONFIRM


# -- loops ---------------------------------------------------------------------------------------


def test_loop_blocks_on_the_third_identical_step_and_reset_clears_it():
    gate, history = SafetyGate(), History()
    obs = Observation(window_title="Inbox", app="thunderbird")
    action = act({**CLICK, "target": {"label": "Refresh"}})
    assert gate.assess(action, obs, history).decision is Decision.ALLOW
    assert gate.assess(action, obs, history).decision is Decision.ALLOW
    third = gate.assess(action, obs, history)
    assert third.decision is Decision.BLOCK and third.rules == ("block.agent.loop",)
    assert "3 times" in third.reason
    history.reset()
    assert gate.assess(action, obs, history).decision is Decision.ALLOW


def test_a_loop_on_a_target_deskgate_read_itself_is_still_a_loop():
    # the label comes from the desktop (accessibility), not from the agent, which sends none
    gate, history = SafetyGate(), History()
    obs = Observation(window_title="Inbox", app="thunderbird", pointer_label="Refresh", pointer_role="push button",
                      label_source="accessibility")
    action = act(CLICK)
    assert gate.assess(action, obs, history).decision is Decision.ALLOW
    assert gate.assess(action, obs, history).decision is Decision.ALLOW
    third = gate.assess(action, obs, history)
    assert third.decision is Decision.BLOCK and third.rules == ("block.agent.loop",)


@pytest.mark.parametrize("action", [{"type": "key", "keys": ["down"]}, {"type": "key", "keys": ["shift", "tab"]},
                                    {"type": "scroll", "x": 5, "y": 5, "dy": -3}, {"type": "wait", "seconds": 0.5}])
def test_repeating_navigation_is_not_a_loop(action):
    gate, history = SafetyGate(), History()
    obs = Observation(window_title="Inbox", app="thunderbird", screen_hash="same")
    for _ in range(6):
        assert gate.assess(act(action), obs, history).decision is Decision.ALLOW


def test_repeating_an_ordinary_key_in_the_same_state_is_still_a_loop():
    gate, history = SafetyGate(), History()
    obs = Observation(window_title="Inbox", app="thunderbird", screen_hash="same")
    decisions = [gate.assess(act({"type": "key", "keys": ["ctrl", "r"]}), obs, history).decision for _ in range(3)]
    assert decisions[-1] is Decision.BLOCK


def test_loop_needs_the_same_state_and_the_same_action():
    gate, history = SafetyGate(), History()
    action = act({**CLICK, "target": {"label": "Next"}})
    for page in range(5):  # the screen changes every time: progress, not a loop
        obs = Observation(window_title="Reader", app="evince", screen_hash=f"page-{page}")
        assert gate.assess(action, obs, history).decision is Decision.ALLOW
    obs = Observation(window_title="Reader", app="evince", screen_hash="same")
    for x in range(5):  # a different point each time
        assert gate.assess(act({"type": "click", "x": x, "y": 1}), obs, history).decision is Decision.ALLOW


def test_loop_ignores_confidence_and_note():
    gate, history = SafetyGate(), History()
    obs = Observation(window_title="Doc", app="writer")
    gate.assess(act({"type": "key", "keys": ["ctrl", "s"], "confidence": 0.9}), obs, history)
    gate.assess(act({"type": "key", "keys": ["ctrl", "s"], "note": "save again"}), obs, history)
    assert gate.assess(act({"type": "key", "keys": ["ctrl", "s"]}), obs, history).decision is Decision.BLOCK


def test_loop_threshold_comes_from_the_policy():
    policy = default_policy()
    policy = msgspec.structs.replace(policy, loop=msgspec.structs.replace(policy.loop, threshold=2))
    gate, history = SafetyGate(policy), History()
    click = act({**CLICK, "target": {"label": "Refresh"}})
    gate.assess(click, None, history)
    assert gate.assess(click, None, history).decision is Decision.BLOCK


def test_no_history_no_loop_rule():
    gate = SafetyGate()
    for _ in range(5):
        assert gate.assess(act(CLICK)).decision is Decision.ALLOW


# -- app / window mismatch -------------------------------------------------------------------------


def test_expect_differs_from_the_observed_app():
    got = SafetyGate().assess(act({**CLICK, "expect": {"app": "firefox"}}),
                              Observation(app="gnome-terminal", window_title="bash"))
    assert got.decision is Decision.CONFIRM and got.rules == ("confirm.agent.app-mismatch",)
    assert "gnome-terminal" in got.reason


@pytest.mark.parametrize(("expect", "obs"), [
    ({"app": "firefox"}, Observation(app="Firefox")),
    ({"app": "firefox"}, Observation(app="Mozilla Firefox")),
    ({"window": "Checkout*"}, Observation(window_title="Checkout — Shop")),
    ({"window": "checkout"}, Observation(window_title="Checkout - Mozilla Firefox")),
    ({"app": "firefox"}, Observation()),  # nothing observed: unknown, not a mismatch
])
def test_matching_or_unknown_app_is_no_mismatch(expect, obs):
    got = SafetyGate().assess(act({**CLICK, "expect": expect}), obs)
    assert "confirm.agent.app-mismatch" not in got.rules


def test_policy_expected_window_glob():
    gate = gate_with(expected_window="*LibreOffice Calc")
    assert "confirm.agent.app-mismatch" in gate.assess(act(CLICK), Observation(window_title="Inbox - Mail")).rules
    assert "confirm.agent.app-mismatch" not in gate.assess(
        act(CLICK), Observation(window_title="budget.ods - LibreOffice Calc")).rules


def test_firefoxish_is_not_firefox():
    got = SafetyGate().assess(act({**CLICK, "expect": {"app": "firefox"}}), Observation(app="firefoxish-phish"))
    assert "confirm.agent.app-mismatch" in got.rules


# -- confidence --------------------------------------------------------------------------------------


def test_low_confidence_asks_and_threshold_is_policy():
    got = SafetyGate().assess(act({**CLICK, "confidence": 0.5}))
    assert got.decision is Decision.CONFIRM and "confirm.agent.low-confidence" in got.rules
    assert SafetyGate().assess(act({**CLICK, "confidence": 0.7})).decision is Decision.ALLOW
    assert SafetyGate(default_policy("power")).assess(act({**CLICK, "confidence": 0.6})).decision is Decision.ALLOW


# -- self-protection ------------------------------------------------------------------------------

DIALOG = Rect(500, 300, 400, 200)
PROTECTED = Observation(window_title="Inbox", app="mail", protected=(DIALOG,))


@pytest.mark.parametrize("data", [
    {"type": "click", "x": 600, "y": 400},
    {"type": "move", "x": 500, "y": 300},
    {"type": "scroll", "x": 899, "y": 499, "dy": -3},
    {"type": "drag", "path": [[10, 10], [700, 350]]},
    {"type": "drag", "path": [[400, 400], [1000, 400]]},  # both ends outside, passes straight over it
])
def test_pointer_on_deskgate_is_blocked(data):
    got = SafetyGate().assess(act(data), PROTECTED)
    assert got.decision is Decision.BLOCK and "block.self.pointer-on-deskgate" in got.rules


@pytest.mark.parametrize("data", [
    {"type": "click", "x": 900, "y": 400},  # just right of it (x + width is outside)
    {"type": "click", "x": 499, "y": 400},
    {"type": "drag", "path": [[10, 10], [400, 250], [450, 290]]},
    {"type": "scroll", "dy": 3},
])
def test_pointer_next_to_deskgate_is_fine(data):
    assert SafetyGate().assess(act(data), PROTECTED).decision is Decision.ALLOW


def test_keys_and_typing_while_deskgate_is_active_are_blocked():
    active = Observation(window_title="deskgate — confirm", app="deskgate", protected=(DIALOG,),
                         protected_active=True)
    for data in ({"type": "key", "keys": ["enter"]}, {"type": "type", "text": "y"},
                 {"type": "scroll", "dy": 3}):
        got = SafetyGate().assess(act(data), active)
        assert got.decision is Decision.BLOCK, data
        assert any(r.startswith("block.self.") for r in got.rules)
    assert SafetyGate().assess(act({"type": "key", "keys": ["enter"]}), PROTECTED).decision is Decision.ALLOW


# -- risk score ------------------------------------------------------------------------------------


def ctx_for(data: dict, history: History | None = None, policy=BALANCED) -> Context:
    return Context(act(data), None, policy, history)


def test_benign_action_with_no_hits_and_no_history_scores_nothing():
    for data in (CLICK, {"type": "type", "text": "hi"}, {"type": "shell", "command": "ls"}, {"type": "wait"}):
        assert agent.score_risk(ctx_for(data), []) is None
        assert agent.score_risk(ctx_for(data, History()), []) is None


def test_recent_rejections_raise_the_score_to_a_confirmation():
    history = History()
    for _ in range(3):
        history.record_answer(False)
    hit = agent.score_risk(ctx_for(CLICK, history), [])
    assert hit is not None and hit.rule == "confirm.agent.risk-score" and hit.risk is Risk.HIGH
    # plain words: the action and why it is worth a look, no score
    assert hit.reason == "Click at (100, 100) on 'Refresh'; you turned down 3 of this agent's recent actions"
    # approvals do not count; inert actions never ask
    calm = History()
    for _ in range(5):
        calm.record_answer(True)
    assert agent.score_risk(ctx_for(CLICK, calm), []) is None
    assert agent.score_risk(ctx_for({"type": "wait"}, history), []) is None


def test_a_risky_hit_with_low_confidence_becomes_critical():
    irreversible = Hit("confirm.gui.irreversible", Decision.CONFIRM, Risk.HIGH, "irreversible: 'Pay'")
    unsure = Hit("confirm.agent.low-confidence", Decision.CONFIRM, Risk.MEDIUM, "confidence 0.40")
    hit = agent.score_risk(ctx_for({**CLICK, "confidence": 0.4}), [irreversible, unsure])
    assert hit is not None and hit.risk is Risk.CRITICAL
    # the same hit with a sure agent adds nothing
    assert agent.score_risk(ctx_for({**CLICK, "confidence": 0.95}), [irreversible]) is None
    # end to end: the assessment's risk is critical
    got = SafetyGate().assess(act({**CLICK, "confidence": 0.4, "target": {"label": "Pay now"}}))
    assert got.decision is Decision.CONFIRM and got.risk is Risk.CRITICAL
    assert "confirm.agent.risk-score" in got.rules


def test_a_block_hit_needs_no_score():
    block = Hit("block.gui.blocklist", Decision.BLOCK, Risk.CRITICAL, "x")
    assert agent.score_risk(ctx_for({**CLICK, "confidence": 0.1}), [block]) is None


def test_power_preset_asks_only_at_critical():
    power = default_policy("power")
    history = History()
    for _ in range(3):
        history.record_answer(False)
    assert agent.score_risk(ctx_for(CLICK, history, power), []) is None
    for _ in range(2):
        history.record_answer(False)
    ctx = ctx_for({**CLICK, "confidence": 0.55}, history, power)
    hit = agent.score_risk(ctx, [])
    assert hit is not None and hit.risk is Risk.CRITICAL


def test_engine_uses_the_score_and_its_meta_rule():
    history = History()
    for _ in range(4):
        history.record_answer(False)
    got = SafetyGate().assess(act(CLICK), None, history)
    assert got.decision is Decision.CONFIRM and got.rules == ("confirm.agent.risk-score",)
    assert got.confidence == agent.risk_score.confidence
    assert {r.id for r in agent.META_RULES} == {"confirm.agent.risk-score"}


def test_disabled_rules_are_honoured():
    gate = gate_with(disabled_rules=["confirm.agent.low-confidence"])
    assert gate.assess(act({**CLICK, "confidence": 0.5})).decision is Decision.ALLOW


# -- deskgate's own kill-switch keys ---------------------------------------------------------------------


def test_the_kill_switch_chord_from_an_agent_is_blocked():
    gate = SafetyGate()  # desktop.kill_hotkey = "ctrl+alt+shift+k"
    for keys in (["ctrl", "alt", "shift", "k"], ["shift", "ctrl", "alt", "K"], ["control+alt+shift+k"],
                 ["ctrl", "alt", "shift", "k", "x"]):
        got = gate.assess(act({"type": "key", "keys": keys}))
        assert got.decision is Decision.BLOCK and "block.self.kill-switch-keys" in got.rules, keys
        assert "kill-switch hotkey" in got.reason
    # near misses: part of the chord, another letter, the same letters typed as text
    for keys in (["ctrl", "alt", "k"], ["ctrl", "alt", "shift", "j"], ["k"]):
        assert "block.self.kill-switch-keys" not in gate.assess(act({"type": "key", "keys": keys})).rules, keys
    assert "block.self.kill-switch-keys" not in gate.assess(act({"type": "type", "text": "ctrl+alt+shift+k"})).rules


def test_the_kill_switch_keys_follow_the_configured_hotkey():
    policy = default_policy()
    moved = SafetyGate(msgspec.structs.replace(
        policy, desktop=msgspec.structs.replace(policy.desktop, kill_hotkey="super+escape")))
    assert "block.self.kill-switch-keys" in moved.assess(act({"type": "key", "keys": ["win", "esc"]})).rules
    assert "block.self.kill-switch-keys" not in moved.assess(
        act({"type": "key", "keys": ["ctrl", "alt", "shift", "k"]})).rules
    off = SafetyGate(msgspec.structs.replace(
        policy, desktop=msgspec.structs.replace(policy.desktop, kill_hotkey="none")))
    chord = act({"type": "key", "keys": ["ctrl", "alt", "shift", "k"]})
    assert "block.self.kill-switch-keys" not in off.assess(chord).rules
    # read once, with the policy: the compiled policy holds the keys (none when there is no hotkey)
    assert moved.compiled.kill_keys == frozenset({"super", "esc"}) and off.compiled.kill_keys is None
