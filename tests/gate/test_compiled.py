"""One compiled policy per gate: a gate built for a new policy sees only that policy, in every rule family.

Two policies that differ in sandbox roots, GUI and shell lists, terminals, brands, listed action types,
disabled rules and loop limits are loaded from files; gates for each are used in turn (A, B, A again), so
anything one of them left behind in a module-level cache would show up in the other's verdicts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gate import History, Observation, SafetyGate, action_from_dict, load_policy
from gate.compiled import CompiledPolicy, compile_policy
from gate.model import Decision


def _policy_file(path: Path, body: str) -> Path:
    path.write_text(body, encoding="utf-8")
    return path


@pytest.fixture
def two_policies(tmp_path: Path):
    a_root, b_root = tmp_path / "work-a", tmp_path / "work-b"
    a_root.mkdir()
    b_root.mkdir()
    a = load_policy(_policy_file(tmp_path / "a.toml", f"""
[gate]
always_block = ["screenshot"]
disabled_rules = ["confirm.gui.credential-field"]

[loop]
threshold = 2
use_screen_hash = false

[files]
sandbox_roots = ["{a_root}"]

[gui]
irreversible = ["\\\\bfrobnicate\\\\b"]

[shell]
block_patterns = ["\\\\bzorkctl\\\\s+purge\\\\b"]
terminal_windows = ["\\\\bquuxterm\\\\b"]

[web]
brands = ["plinkbank"]
"""))
    b = load_policy(_policy_file(tmp_path / "b.toml", f"""
[loop]
threshold = 4

[files]
sandbox_roots = ["{b_root}"]
"""))
    return a, b, a_root, b_root


def act(**fields):
    return action_from_dict(fields)


def _verdicts(gate: SafetyGate, a_root: Path, b_root: Path) -> dict[str, set[str]]:
    """The rules each probe fires under `gate`."""
    probes = {
        "write in a": (act(type="file_write", path=str(a_root / "x.txt"), content="hi"), None),
        "write in b": (act(type="file_write", path=str(b_root / "x.txt"), content="hi"), None),
        "click frobnicate": (act(type="click", x=5, y=5, target={"label": "Frobnicate"}), None),
        "zorkctl purge": (act(type="shell", command="zorkctl purge --all"), None),
        "typed in quuxterm": (act(type="type", text="rm -rf /"),
                              Observation(app="quuxterm", window_title="quuxterm: ~")),
        "plinkbank lookalike": (act(type="navigate", url="https://plinkbank-login.example/"), None),
        "screenshot": (act(type="screenshot"), None),
        "password field": (act(type="type", text="hello", target={"label": "Password"}), None),
    }
    return {name: set(gate.assess(a, o).rules) for name, (a, o) in probes.items()}


def _expect_a(v: dict[str, set[str]]) -> None:
    assert "confirm.files.outside-sandbox" not in v["write in a"]
    assert "confirm.files.outside-sandbox" in v["write in b"]
    assert "confirm.gui.irreversible" in v["click frobnicate"]
    assert "block.shell.policy-pattern" in v["zorkctl purge"]
    assert any(r.startswith("block.") for r in v["typed in quuxterm"])
    assert "confirm.web.lookalike-host" in v["plinkbank lookalike"]
    assert "block.agent.type-blocked" in v["screenshot"]
    assert "confirm.gui.credential-field" not in v["password field"]


def _expect_b(v: dict[str, set[str]]) -> None:
    assert "confirm.files.outside-sandbox" in v["write in a"]
    assert "confirm.files.outside-sandbox" not in v["write in b"]
    assert "confirm.gui.irreversible" not in v["click frobnicate"]
    assert "block.shell.policy-pattern" not in v["zorkctl purge"]
    assert not any(r.startswith("block.") for r in v["typed in quuxterm"])
    assert "confirm.web.lookalike-host" not in v["plinkbank lookalike"]
    assert "block.agent.type-blocked" not in v["screenshot"]
    assert "confirm.gui.credential-field" in v["password field"]


def test_a_gate_for_a_new_policy_sees_only_that_policy(two_policies) -> None:
    a, b, a_root, b_root = two_policies
    _expect_a(_verdicts(SafetyGate(a), a_root, b_root))
    _expect_b(_verdicts(SafetyGate(b), a_root, b_root))  # after A: nothing of A's lists or roots left
    _expect_a(_verdicts(SafetyGate(a), a_root, b_root))  # and the reverse


def test_both_gates_side_by_side_keep_their_own_policy(two_policies) -> None:
    a, b, a_root, b_root = two_policies
    gate_a, gate_b = SafetyGate(a), SafetyGate(b)
    for _ in range(2):  # interleaved, warm: per-input caches must not carry one policy's answer to the other
        _expect_b(_verdicts(gate_b, a_root, b_root))
        _expect_a(_verdicts(gate_a, a_root, b_root))


def test_loop_detection_follows_the_gates_own_limits(two_policies) -> None:
    a, b, _, _ = two_policies
    click = act(type="click", x=10, y=10, target={"label": "Next"})

    def loops_after(gate: SafetyGate, screens: list[str]) -> int | None:
        """The 1-based step at which the loop rule first fires, or None."""
        history = History()
        for i, screen in enumerate(screens, 1):
            got = gate.assess(click, Observation(window_title="Inbox", screen_hash=screen), history)
            if "block.agent.loop" in got.rules:
                return i
        return None

    same = ["s"] * 5
    changing = [f"s{i}" for i in range(5)]  # only the screen changes between steps
    assert loops_after(SafetyGate(a), same) == 2  # A: threshold 2
    assert loops_after(SafetyGate(b), same) == 4  # B: threshold 4, whatever A did before
    assert loops_after(SafetyGate(a), changing) == 2  # A ignores the screen hash
    assert loops_after(SafetyGate(b), changing) is None  # B counts a changed screen as a new state
    assert loops_after(SafetyGate(a), same) == 2


def test_the_gate_owns_one_compiled_policy_built_from_its_policy(two_policies) -> None:
    a, b, a_root, b_root = two_policies
    gate_a, gate_b = SafetyGate(a), SafetyGate(b)
    assert isinstance(gate_a.compiled, CompiledPolicy) and gate_a.compiled.policy is a
    assert gate_b.compiled.policy is b
    assert gate_a.compiled.sandbox_roots == (str(a_root.resolve()),)
    assert gate_b.compiled.sandbox_roots == (str(b_root.resolve()),)
    assert gate_a.compiled.shell is not gate_b.compiled.shell


def test_a_compiled_policy_is_immutable() -> None:
    compiled = compile_policy(load_policy())
    with pytest.raises(AttributeError):
        compiled.policy = load_policy(preset="kiosk")  # type: ignore[misc]


def test_kiosk_and_balanced_gates_do_not_share_verdicts() -> None:
    shell = act(type="shell", command="ls")
    kiosk, balanced = SafetyGate(load_policy(preset="kiosk")), SafetyGate(load_policy(preset="balanced"))
    first = kiosk.assess(shell).decision
    assert balanced.assess(shell).decision is Decision.ALLOW
    assert kiosk.assess(shell).decision is first is not Decision.ALLOW


def test_rules_by_type_leave_out_the_disabled_ones() -> None:
    import msgspec

    base = load_policy()
    off = msgspec.structs.replace(base, gate=msgspec.structs.replace(
        base.gate, disabled_rules=["block.shell.recursive-delete-root"]))
    ids = {r.id for r in compile_policy(off).by_type["shell"]}
    assert "block.shell.recursive-delete-root" not in ids and "block.shell.fork-bomb" in ids
    assert "block.shell.recursive-delete-root" in {r.id for r in compile_policy(base).by_type["shell"]}
    assert all(r.types is None or "click" in r.types for r in compile_policy(base).by_type["click"])
    rm = act(type="shell", command="rm -rf /")
    assert "block.shell.recursive-delete-root" not in SafetyGate(off).assess(rm).rules
    assert "block.shell.recursive-delete-root" in SafetyGate(base).assess(rm).rules


def test_rules_that_cannot_fire_under_a_policy_are_left_out_and_come_back_with_it() -> None:
    import msgspec

    base = load_policy()
    busy = msgspec.structs.replace(
        base,
        gate=msgspec.structs.replace(base.gate, always_confirm=["shell"], always_block=["format_disk"]),
        web=msgspec.structs.replace(base.web, blocked_origins=["evil.example"], allowed_origins=["ok.example"]))
    quiet_ids = {r.id for r in compile_policy(base).by_type["navigate"]}
    busy_ids = {r.id for r in compile_policy(busy).by_type["navigate"]}
    for rid in ("block.web.blocked-origin", "confirm.web.origin-not-allowed"):
        assert rid not in quiet_ids and rid in busy_ids
    assert "confirm.agent.type-confirm" in {r.id for r in compile_policy(busy).by_type["shell"]}
    assert "block.agent.type-blocked" in {r.id for r in compile_policy(busy).by_type["system"]}
    assert "block.agent.type-blocked" not in {r.id for r in compile_policy(busy).by_type["shell"]}
    gate = SafetyGate(busy)
    assert "block.web.blocked-origin" in gate.assess(act(type="navigate", url="https://www.evil.example/")).rules
    assert "confirm.web.origin-not-allowed" in gate.assess(act(type="navigate", url="https://other.example/")).rules
    assert "confirm.agent.type-confirm" in gate.assess(act(type="shell", command="ls")).rules
    assert "block.agent.type-blocked" in gate.assess(act(type="system", name="Format Disk")).rules
    kiosk = SafetyGate(load_policy(preset="kiosk"))
    assert "block.agent.kiosk" in kiosk.assess(act(type="shell", command="ls")).rules
    assert "block.agent.kiosk" not in kiosk.assess(act(type="wait")).rules
