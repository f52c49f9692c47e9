"""A person's rules for folders, programs and apps: `[[allow]]` with `path`, `cwd`, `except_consequential`,
and `[[ask]]` ("always ask for this host"). Each with an example that matches and a near miss; no rule
ever overrides a block."""

from __future__ import annotations

import msgspec

from gate import Observation, SafetyGate, action_from_dict, default_policy
from gate.model import Decision
from gate.policy import AllowRule


def gate(allow=(), ask=()) -> SafetyGate:
    p = default_policy()
    return SafetyGate(msgspec.structs.replace(p, allow=[msgspec.convert(r, AllowRule) for r in allow],
                                              ask=[msgspec.convert(r, AllowRule) for r in ask]))


def decide(g: SafetyGate, action: dict, obs: Observation | None = None):
    return g.assess(action_from_dict(action), obs)


def test_allow_edits_in_this_folder():
    from pathlib import Path

    root = Path("/srv/www")  # outside the sandbox roots: writes there ask unless a rule allows them
    folder = root / "site"
    g = gate(allow=[{"id": "site-edits", "types": ["file_write"], "path": f"{folder}/*"}])
    got = decide(g, {"type": "file_write", "path": str(folder / "css" / "a.css"), "content": "x"})
    assert got.decision is Decision.ALLOW and got.rules == ("allow.policy.site-edits",)
    # near misses: a sibling folder, and a deletion in the folder (not an edit)
    assert decide(g, {"type": "file_write", "path": str(root / "site2" / "a.css"), "content": "x"}
                  ).decision is Decision.CONFIRM
    assert decide(g, {"type": "file_delete", "path": str(folder / "a.css")}).decision is Decision.CONFIRM


def test_a_rule_path_may_start_at_home():
    g = gate(allow=[{"id": "notes", "types": ["file_write"], "path": "~/notes/*"}])
    assert decide(g, {"type": "file_write", "path": "~/notes/today.md", "content": "x"}).decision is Decision.ALLOW
    other = {"type": "file_write", "path": "~/other/today.md", "content": "x"}
    assert "allow.policy.notes" not in decide(g, other).rules
    # (that write passes anyway when nothing is there yet: a new document in a person's folder; a script asks)
    assert decide(g, {"type": "file_write", "path": "~/other/today.sh", "content": "x"}).decision is Decision.CONFIRM


def test_allow_a_program_with_an_argument_prefix_here():
    g = gate(allow=[{"id": "tests-here", "types": ["shell"], "command": "npm run test:*", "cwd": "/srv/app*"}])
    here = {"type": "shell", "command": "npm run test:unit", "cwd": "/srv/app/web"}
    assert decide(g, here).rules == ("allow.policy.tests-here",)
    # near misses: another folder, another script, no folder given
    assert "allow.policy.tests-here" not in decide(g, {**here, "cwd": "/srv/other"}).rules
    assert "allow.policy.tests-here" not in decide(g, {**here, "command": "npm run deploy"}).rules
    assert "allow.policy.tests-here" not in decide(g, {"type": "shell", "command": "npm run test:unit"}).rules


def test_clicks_in_this_app_except_consequential_ones():
    g = gate(allow=[{"id": "shop-clicks", "types": ["click"], "app": "firefox", "except_consequential": True}])
    ff = Observation(app="firefox", window_title="Shop")
    unsure = {"type": "click", "x": 5, "y": 5, "target": {"label": "Next page"}, "confidence": 0.5}
    assert decide(g, unsure, ff).rules == ("allow.policy.shop-clicks",)  # a low-confidence click: allowed
    order = {"type": "click", "x": 5, "y": 5, "target": {"label": "Place order"}}
    assert decide(g, order, ff).decision is Decision.CONFIRM  # consequential: still asks
    assert decide(g, unsure, Observation(app="thunderbird")).decision is Decision.CONFIRM  # another app
    # without except_consequential the same rule would let the order through
    plain = gate(allow=[{"id": "all-clicks", "types": ["click"], "app": "firefox"}])
    assert decide(plain, order, ff).decision is Decision.ALLOW


def test_always_ask_for_this_host():
    g = gate(ask=[{"id": "ask-bank", "host": "bank.example"}],
             allow=[{"id": "bank-ok", "types": ["navigate"], "host": "bank.example"}])
    got = decide(g, {"type": "navigate", "url": "https://login.bank.example/"})
    assert got.decision is Decision.CONFIRM and got.rules[0] == "confirm.policy.ask-bank"
    assert "always asks" in got.reason  # an ask rule beats an allow rule
    assert decide(g, {"type": "navigate", "url": "https://bank.example.org/"}).decision is Decision.ALLOW
    # a command asks even inside a chain
    sh = gate(ask=[{"id": "ask-push", "types": ["shell"], "command": "git push*"}])
    assert decide(sh, {"type": "shell", "command": "git add . && git push origin main"}).rules[0] == \
        "confirm.policy.ask-push"
    assert decide(sh, {"type": "shell", "command": "git status"}).decision is Decision.ALLOW


def test_no_rule_ever_overrides_a_block():
    g = gate(allow=[{"id": "anything", "types": ["shell"], "command": "*"},
                    {"id": "any-file", "types": ["file_write"], "path": "*"}],
             ask=[{"id": "ask-rm", "types": ["shell"], "command": "rm*"}])
    assert decide(g, {"type": "shell", "command": "rm -rf /"}).decision is Decision.BLOCK
    assert decide(g, {"type": "file_write", "path": "/etc/passwd", "content": "x"}).decision is Decision.BLOCK
