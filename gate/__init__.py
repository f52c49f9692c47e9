"""deskgate's safety gate: a pure library (no Qt, no display, no database, no I/O beyond the policy file).

    from gate import SafetyGate, action_from_dict
    SafetyGate().assess(action_from_dict({"type": "shell", "command": "rm -rf /"})).decision  # block

The names below are loaded on first use (PEP 562), so `import gate.model` alone does not compile the
rule catalogue: a process that only builds or checks an action's shape pays for nothing else.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# public name -> the module that defines it
_WHERE = {
    "PlanAssessment": "gate.engine", "SafetyGate": "gate.engine", "Trace": "gate.engine", "decide": "gate.engine",
    "History": "gate.history",
    "Action": "gate.model", "ActionError": "gate.model", "Assessment": "gate.model", "Decision": "gate.model",
    "Hit": "gate.model", "Observation": "gate.model", "Rect": "gate.model", "Risk": "gate.model",
    "action_from_dict": "gate.model", "action_from_json": "gate.model", "action_to_dict": "gate.model",
    "Policy": "gate.policy", "PolicyError": "gate.policy", "default_policy": "gate.policy",
    "load_policy": "gate.policy",
}

__all__ = [
    "Action", "ActionError", "Assessment", "Decision", "History", "Hit", "Observation", "PlanAssessment",
    "Policy", "PolicyError", "Rect", "Risk", "SafetyGate", "Trace", "action_from_dict", "action_from_json",
    "action_to_dict", "decide", "default_policy", "load_policy",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'gate' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
