"""One runtime per policy: what every request reads of the policy, built whole and swapped whole.

A `PolicyRuntime` is immutable: the policy, its SafetyGate, and the sections the supervisor's steps read
(limits, approvals, the shell fence). A reload builds a new one completely (a bad policy raises before
anything changes) and `PolicyRef.swap` puts it in place with one assignment. A request reads
`ref.now` once when it starts and passes that runtime down every step, so a reload midway never mixes
two policies in one request: the gate, the dialog's timeout, the grant's length and the executor's
fence all come from the policy the request started under.
"""

from __future__ import annotations

import dataclasses

from gate.engine import SafetyGate
from gate.policy import ApprovalsPolicy, FencePolicy, LimitsPolicy, Policy

__all__ = ["PolicyRef", "PolicyRuntime"]


@dataclasses.dataclass(frozen=True, slots=True)
class PolicyRuntime:
    policy: Policy
    gate: SafetyGate
    limits: LimitsPolicy
    approvals: ApprovalsPolicy
    fence: FencePolicy  # the executor's fence: writable roots and the network switch (app/execute/fence.py)

    @classmethod
    def build(cls, policy: Policy, gate: SafetyGate | None = None) -> PolicyRuntime:
        """The runtime of `policy`; `gate` when the caller already built the policy's gate."""
        return cls(policy=policy, gate=gate if gate is not None else SafetyGate(policy), limits=policy.limits,
                   approvals=policy.approvals, fence=policy.fence)


class PolicyRef:
    """The runtime new requests start with."""

    __slots__ = ("now",)

    def __init__(self, runtime: PolicyRuntime) -> None:
        self.now = runtime

    def swap(self, runtime: PolicyRuntime) -> PolicyRuntime:
        """Put `runtime` in place (one assignment: a reader sees the old one or the new one, whole)."""
        old, self.now = self.now, runtime
        return old
