"""deskgate's safety gate: a pure library (no Qt, no display, no database, no I/O beyond the policy file).

    from gate import SafetyGate, action_from_dict
    SafetyGate().assess(action_from_dict({"type": "shell", "command": "rm -rf /"})).decision  # block
"""

from gate.engine import PlanAssessment, SafetyGate, Trace, decide
from gate.history import History
from gate.model import (
    Action,
    ActionError,
    Assessment,
    Decision,
    Hit,
    Observation,
    Rect,
    Risk,
    action_from_dict,
    action_from_json,
    action_to_dict,
)
from gate.policy import Policy, PolicyError, default_policy, load_policy

__all__ = [
    "Action", "ActionError", "Assessment", "Decision", "History", "Hit", "Observation", "PlanAssessment",
    "Policy", "PolicyError", "Rect", "Risk", "SafetyGate", "Trace", "action_from_dict", "action_from_json",
    "action_to_dict", "decide", "default_policy", "load_policy",
]
