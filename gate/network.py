"""Which shell commands need the network: the programs of `fence.networked_programs`.

    networked(action, policy) -> "npm" | "git clone" | None

A known networked program in a fenced command without network fails (a package manager, a git remote,
curl); the confirmation offers to run it with network, and the error of one that failed says why.
"""

from __future__ import annotations

from typing import Any

from gate.policy import Policy

__all__ = ["networked"]


def networked(action: Any, policy: Policy) -> str | None:
    """The first simple command of a shell action that is a known networked program (as listed: the
    program's name, or its name and first argument), or None."""
    if getattr(action, "type", None) != "shell":
        return None
    from gate.shell import analyse

    command = action.command if action.command is not None else action.argv
    listed = frozenset(p.strip().lower() for p in policy.fence.networked_programs)
    for cmd in analyse(command, action.cwd).commands:
        if cmd.name in listed:
            return cmd.name
        first = next((w for w in cmd.words[1:] if not w.startswith("-")), None)
        if first is not None and f"{cmd.name} {first}" in listed:
            return f"{cmd.name} {first}"
    return None
