"""Plan rules: size, complexity and split evasion, each with a triggering example and a near miss."""

from __future__ import annotations

import msgspec

from gate import SafetyGate
from gate.compiled import compile_policy
from gate.model import Decision, action_from_dict
from gate.policy import default_policy
from gate.rules import plan

COMPILED = compile_policy(default_policy())


def acts(*specs):
    return [action_from_dict(s) for s in specs]


def plan_rules(actions, policy=None) -> set[str]:
    result = SafetyGate(policy).assess_plan(actions)
    return {h.rule for h in result.assessment.hits}


def test_empty_plan_blocks():
    assert "block.plan.empty" in plan_rules([])
    assert "block.plan.empty" not in plan_rules(acts({"type": "wait"}))


def test_plan_size_limit():
    limit = default_policy().plan.max_actions
    assert "block.plan.too-many-actions" in plan_rules(acts(*[{"type": "wait"}] * (limit + 1)))
    assert "block.plan.too-many-actions" not in plan_rules(acts(*[{"type": "wait"}] * limit))


def test_complexity_concerns_add_up():
    simple = acts({"type": "click", "x": 1, "y": 1, "target": {"label": "Next"}}, {"type": "type", "text": "hello"},
                  {"type": "key", "keys": ["tab"]})
    ctx = plan.PlanContext(tuple(simple), tuple(SafetyGate().assess(a) for a in simple), COMPILED)
    score, concerns = plan.complexity(ctx)
    assert score == 0 and concerns == ()

    mixed = acts({"type": "shell", "command": "ls"}, {"type": "click", "x": 1, "y": 1, "target": {"label": "Next"}},
                 {"type": "navigate", "url": "https://example.com"}, {"type": "file_delete", "path": "/tmp/x"},
                 {"type": "type", "text": "x"})
    ctx = plan.PlanContext(tuple(mixed), tuple(SafetyGate().assess(a) for a in mixed), COMPILED)
    score, concerns = plan.complexity(ctx)
    whats = " | ".join(c.what for c in concerns)
    assert "shell commands mixed" in whats and "deletes files and reaches the network" in whats
    assert score >= default_policy().plan.confirm_complexity
    assert "confirm.plan.complex" in plan_rules(mixed)
    assert "confirm.plan.complex" not in plan_rules(simple)


def test_shell_deletes_next_to_network_count_as_a_concern():
    steps = acts({"type": "shell", "command": "curl -s https://example.com/x -o /tmp/x"},
                 {"type": "shell", "command": "rm /tmp/y"})
    ctx = plan.PlanContext(tuple(steps), tuple(SafetyGate().assess(a) for a in steps), COMPILED)
    assert any("network" in c.what for c in plan.complexity(ctx)[1])


def test_too_complex_plans_are_refused():
    p = default_policy()
    strict = msgspec.structs.replace(p, plan=msgspec.structs.replace(p.plan, confirm_complexity=2,
                                                                    block_complexity=3))
    mixed = acts({"type": "shell", "command": "ls"}, {"type": "click", "x": 1, "y": 1, "target": {"label": "Next"}},
                 {"type": "navigate", "url": "https://example.com"}, {"type": "file_delete", "path": "/tmp/x"})
    got = plan_rules(mixed, strict)
    assert "block.plan.too-complex" in got and "confirm.plan.complex" not in got


def test_split_candidates_join_typed_runs_and_shell_runs():
    seq = acts({"type": "type", "text": "ab"}, {"type": "key", "keys": ["shift"]}, {"type": "type", "text": "cd"},
               {"type": "key", "keys": ["enter"]}, {"type": "type", "text": "ef"},
               {"type": "click", "x": 1, "y": 1, "target": {"label": "Next"}},
               {"type": "shell", "command": "a=1"}, {"type": "shell", "argv": ["echo", "x y"]})
    found = list(plan.split_candidates(tuple(seq)))
    assert ("type", "abcd", (0, 2)) in found
    assert ("shell", "a=1\necho 'x y'", (6, 7)) in found
    assert all(text != "ef" for _, text, _ in found)  # a single piece is judged as itself


def test_typed_text_split_to_dodge_a_block_is_caught():
    p = default_policy()
    policy = msgspec.structs.replace(p, gui=msgspec.structs.replace(p.gui, blocklist=[r"\bself destruct\b"]))
    pieces = acts({"type": "type", "text": "self des"}, {"type": "type", "text": "truct now"},
                  {"type": "key", "keys": ["enter"]})
    gate = SafetyGate(policy)
    assert all(gate.assess(a).decision is Decision.ALLOW for a in pieces)
    result = gate.assess_plan(pieces)
    assert "block.plan.split-evasion" in result.assessment.rules
    assert result.assessment.decision is Decision.BLOCK
    # the same words across an Enter are two separate lines, not one command
    apart = acts({"type": "type", "text": "self des"}, {"type": "key", "keys": ["enter"]},
                 {"type": "type", "text": "truct now"})
    assert "block.plan.split-evasion" not in gate.assess_plan(apart).assessment.rules


def test_shell_steps_split_to_dodge_a_block_are_caught():
    steps = acts({"type": "shell", "command": "TARGET=/"}, {"type": "shell", "command": "rm -rf $TARGET"})
    result = SafetyGate().assess_plan(steps)
    assert "block.plan.split-evasion" in result.assessment.rules
    assert result.assessment.decision is Decision.BLOCK
    typed = acts({"type": "type", "text": "rm -r"}, {"type": "type", "text": "f /"}, {"type": "key", "keys": ["enter"]})
    assert "block.plan.split-evasion" in SafetyGate().assess_plan(typed).assessment.rules
    harmless = acts({"type": "shell", "command": "ls"}, {"type": "shell", "command": "pwd"})
    assert not {"block.plan.split-evasion", "confirm.plan.split-evasion"} & plan_rules(harmless)
