"""A gate whose policy lets named installs of widely used packages pass (`[shell] known_packages_allowed = true`,
as the `power` preset sets it): the default asks for every named install, so the tests that pin what the
package table knows use this one."""

from __future__ import annotations

import msgspec

from gate import SafetyGate, default_policy
from gate.model import Decision, action_from_dict

_DEFAULT = default_policy()
KNOWN_PACKAGES_GATE = SafetyGate(msgspec.structs.replace(
    _DEFAULT, shell=msgspec.structs.replace(_DEFAULT.shell, known_packages_allowed=True)))
DEFAULT_GATE = SafetyGate(_DEFAULT)


def passes_only_when_known_packages_pass(command: str) -> None:
    """`command` runs unasked under the lenient setting, and the default asks for it as an install."""
    action = action_from_dict({"type": "shell", "command": command})
    lenient = KNOWN_PACKAGES_GATE.assess(action)
    assert lenient.decision is Decision.ALLOW, (command, lenient.rules, lenient.reason)
    strict = DEFAULT_GATE.assess(action)
    assert strict.decision is Decision.CONFIRM and "confirm.shell.install" in strict.rules, (command, strict.rules)
