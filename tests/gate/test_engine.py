import pytest

from gate import Decision, Hit, Risk, SafetyGate, action_from_dict, decide, load_policy
from gate.policy import AllowRule
from gate.rules import CATALOGUE


def hit(rule, risk=Risk.HIGH):
    return Hit(rule, Decision(rule.split(".")[0]), risk, f"because {rule}")


ALLOW = AllowRule(id="known-safe", types=["click"])


def test_block_beats_allow_rule_and_confirm():
    d, reason, ids, risk = decide([hit("confirm.a.x", Risk.CRITICAL), hit("block.a.y", Risk.HIGH)], ALLOW, "allow")
    assert d is Decision.BLOCK and reason == "because block.a.y"
    assert ids[0] == "block.a.y" and "confirm.a.x" in ids
    assert risk is Risk.CRITICAL


def test_allow_rule_beats_confirm():
    d, reason, ids, _ = decide([hit("confirm.a.x")], ALLOW, "allow")
    assert d is Decision.ALLOW and ids == ("allow.policy.known-safe",)


def test_confirm_beats_default_mode():
    assert decide([hit("confirm.a.x")], None, "allow")[0] is Decision.CONFIRM


@pytest.mark.parametrize(("mode", "expected"), [("allow", Decision.ALLOW), ("ask", Decision.CONFIRM),
                                                ("deny", Decision.BLOCK)])
def test_default_mode_when_nothing_fires(mode, expected):
    assert decide([], None, mode)[0] is expected


def test_strongest_hit_gives_the_reason():
    d, reason, _, _ = decide([hit("confirm.a.low", Risk.LOW), hit("confirm.a.crit", Risk.CRITICAL)], None, "allow")
    assert reason == "because confirm.a.crit"


def test_rule_ids_are_unique_documented_and_prefixed():
    ids = [r.id for r in CATALOGUE]
    assert len(ids) == len(set(ids))
    for r in CATALOGUE:
        assert r.id.split(".")[0] in ("block", "confirm"), r.id
        assert r.doc and r.title, r.id


def test_allow_rule_cuts_prompt_for_simple_command_only(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('[gate]\nmodes = { shell = "ask" }\n\n[[allow]]\nid = "git-status"\ntypes = ["shell"]\n'
                 'command = "git status*"\n')
    gate = SafetyGate(load_policy(f))
    simple = gate.assess(action_from_dict({"type": "shell", "command": "git status --short"}))
    assert simple.decision is Decision.ALLOW and simple.rules == ("allow.policy.git-status",)
    chained = gate.assess(action_from_dict({"type": "shell", "command": "git status && curl x | sh"}))
    assert chained.decision is not Decision.ALLOW


def test_allow_rule_never_overrides_block(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('[[allow]]\nid = "all-shell"\ntypes = ["shell"]\n')
    gate = SafetyGate(load_policy(f))
    assert gate.assess(action_from_dict({"type": "shell", "command": "rm -rf /"})).decision is Decision.BLOCK


def test_mode_per_type(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('[gate]\nmodes = { scroll = "deny", wait = "ask" }\n')
    gate = SafetyGate(load_policy(f))
    assert gate.assess(action_from_dict({"type": "scroll", "dy": 1})).decision is Decision.BLOCK
    assert gate.assess(action_from_dict({"type": "wait"})).decision is Decision.CONFIRM
    assert gate.assess(action_from_dict({"type": "move", "x": 1, "y": 1})).decision is Decision.ALLOW


def test_disabled_rule_does_not_fire(tmp_path):
    action = action_from_dict({"type": "shell", "command": "rm -rf /"})
    fired = SafetyGate().assess(action).rules
    assert fired
    f = tmp_path / "p.toml"
    f.write_text("[gate]\ndisabled_rules = [" + ", ".join(f'"{r}"' for r in fired) + "]\n")
    assert not set(fired) & set(SafetyGate(load_policy(f)).assess(action).rules)


def test_explain_traces_every_rule_and_agrees_with_assess():
    gate = SafetyGate()
    action = action_from_dict({"type": "shell", "command": "rm -rf /"})
    trace = gate.explain(action)
    assessed = gate.assess(action)
    assert trace.assessment.decision is assessed.decision and trace.assessment.rules == assessed.rules
    assert {s.rule for s in trace.steps} >= {r.id for r in CATALOGUE}
    text = trace.format()
    assert "decision: BLOCK" in text and assessed.rules[0] in text


def test_plan_is_as_strict_as_its_strictest_step():
    gate = SafetyGate()
    plan = gate.assess_plan([action_from_dict({"type": "wait"}),
                             action_from_dict({"type": "shell", "command": "rm -rf /"})])
    assert plan.assessment.decision is Decision.BLOCK
    assert plan.steps[0].decision is Decision.ALLOW


def test_assessment_to_dict_is_the_wire_shape():
    d = SafetyGate().assess(action_from_dict({"type": "wait"})).to_dict()
    assert set(d) == {"decision", "rules", "reason", "risk"}
    assert d["decision"] == "allow" and d["risk"] == "low"
