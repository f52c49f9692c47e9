"""An editor's "Auto-run prompt" (what its agent may run unasked) is a settings field: instructions typed there are
text, not a command for a Run dialog (gate/typed.py `_RUN_TARGET`); a "Run prompt" still runs what is typed."""

from __future__ import annotations

from gate import SafetyGate, default_policy
from gate.model import Observation, action_from_dict

GATE = SafetyGate(default_policy())


def typed(text: str, label: str, app: str = ""):
    action = action_from_dict({"type": "type", "text": text, "target": {"label": label}})
    return GATE.assess(action, Observation(app=app))


def test_instructions_in_the_auto_run_setting_pass() -> None:
    a = typed("Ask before any git push, rm -rf or database migration.", "Auto-run prompt", "Cursor")
    assert a.decision.value == "allow"


def test_a_run_prompt_still_runs_what_is_typed() -> None:
    assert typed("rm -rf ~\n", "Run prompt").decision.value == "block"
