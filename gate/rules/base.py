"""What a rule is, and the context it reads.

A rule is a pure predicate over a `Context` with a stable id (`block.shell.fork-bomb`), a title and a
docstring. Its decision is the first part of its id. It returns None when it does not apply, or the
reason a person reads (optionally with a risk that overrides the rule's default risk).

Rule ids are a contract once they are in an audit log: never rename one, add a new id instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from gate.compiled import CompiledPolicy, compile_policy
from gate.model import EMPTY_OBSERVATION, Action, Decision, Hit, Observation, Risk, Span, Target
from gate.shell import command_facts, command_text

if TYPE_CHECKING:
    from gate.history import History
    from gate.policy import Policy

__all__ = ["NEEDS", "Context", "Rule", "judged_action", "need_mask", "present_needs", "rule"]

T = TypeVar("T")
_MISSING: Any = object()
# the reason; or (reason, risk); or (reason, risk, spans) for a rule that can point at the risky parts
CheckResult = str | tuple[str, Risk] | tuple[str, Risk, tuple[Span, ...]] | None


class Context:
    """One action under assessment, plus what deskgate knows around it.

    Derived facts (a shell parse, a resolved path, a normalised label) are computed once per
    assessment through `derived(fn)`, so every rule that needs them shares the work. What depends on
    the policy alone is in `compiled` (gate/compiled.py), built once per policy; `policy` is its source.
    """

    __slots__ = ("_memo", "action", "claimed", "compiled", "history", "observation", "policy", "type")

    def __init__(self, action: Action, observation: Observation | None = None,
                 policy: CompiledPolicy | Policy | None = None, history: History | None = None) -> None:
        if not isinstance(policy, CompiledPolicy):
            if policy is None:
                from gate.policy import default_policy

                policy = default_policy()
            policy = compile_policy(policy)  # a one-off context (tests, tools): the gate passes its own
        self.compiled: CompiledPolicy = policy
        self.policy: Policy = policy.policy
        self.observation = observation = observation or EMPTY_OBSERVATION
        # What the agent said it aims at; `action.target` becomes what deskgate read there, when it read
        # something, so every rule judges the read label (and the claim too, as a second line of `name`).
        self.claimed = action.target
        self.type: str = action.type
        # (judged_action's own first test, inline: most observations read no label)
        self.action = judged_action(action, observation) if observation.label_source else action
        self.history = history
        self._memo: dict[Callable[..., Any], Any] = {}

    def derived(self, fn: Callable[[Context], T]) -> T:
        """fn(self), computed at most once for this context."""
        value = self._memo.get(fn, _MISSING)  # not try/except: a miss is the first call of every fact
        if value is _MISSING:
            value = self._memo[fn] = fn(self)
        return value


_READ_TYPES = frozenset({"click", "drag", "type"})


def judged_action(action: Action, observation: Observation) -> Action:
    """The action with its target as deskgate read it (`Observation.pointer_label` / `pointer_role`, see
    app/desktop/pointer.py): label and role from the desktop; the agent's own label and name kept in `name`, so
    a claim that sounds worse than what was read is still judged. Unchanged when nothing was read."""
    if not observation.label_source or action.type not in _READ_TYPES:
        return action
    claimed = action.target
    said = [p for p in ((claimed.label, claimed.name) if claimed else ()) if p and p != observation.pointer_label]
    target = Target(label=observation.pointer_label or None,
                    role=observation.pointer_role or (claimed.role if claimed else None),
                    name="\n".join(dict.fromkeys(said)) or None)
    return msgspec.structs.replace(action, target=target)


# What a check may need from its context before it can fire at all (`Rule.needs`). Most actions come with
# no history, no expected window, no confidence, no written scripts and no deskgate window on screen, so
# the engine leaves out the checks whose need is absent (`present_needs`) instead of calling each to hear
# None: fewer calls on every assessment, the first one after a start included.
# The last three are facts of the command line an action runs (`command_facts`: a shell action's command, or text
# typed into a terminal): that there is one ("line"), that it runs two commands or more ("commands"), and that it
# names an address with a scheme, `://`, in its text or its source ("address").
NEEDS = ("history", "window", "confidence", "scripts", "protected", "protected-active", "line", "commands", "address")
_BIT = {need: 1 << i for i, need in enumerate(NEEDS)}
_LINE_TYPES = frozenset({"shell", "type"})  # the actions that may run a command line (gate/shell.py command_facts)


def present_needs(ctx: Context) -> int:
    """The needs this context meets, one bit each (in the order of NEEDS)."""
    obs = ctx.observation
    present = ((ctx.history is not None) | (bool(obs.app or obs.window_title) << 1) |
               ((ctx.action.confidence is not None) << 2) | (bool(obs.scripts) << 3) |
               (bool(obs.protected) << 4) | (obs.protected_active << 5))
    return present | _line_needs(ctx) if ctx.type in _LINE_TYPES else present


def _line_needs(ctx: Context) -> int:
    """The needs the action's command line meets (the command-line rules read it first anyway: no extra work)."""
    facts = ctx.derived(command_facts)
    if facts is None:
        return 0
    present = _BIT["line"]
    if len(facts.commands) > 1:
        present |= _BIT["commands"]
    if "://" in facts.source or "://" in command_text(ctx):
        present |= _BIT["address"]
    return present


def need_mask(needs: str | None) -> int:
    """The bit of one need (0: the check needs nothing, it always runs)."""
    if needs is None:
        return 0
    if needs not in _BIT:
        raise ValueError(f"unknown need {needs!r}: one of {', '.join(NEEDS)}")
    return _BIT[needs]


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    title: str
    risk: Risk
    check: Callable[[Context], CheckResult]
    types: frozenset[str] | None = None  # action types it applies to; None: all
    # action fields this rule marks secret when it fires: they reach the log only as sha256 + length
    redact: tuple[str, ...] = ()
    # how sure the gate is when this rule fires (lower for heuristics than for exact matches)
    confidence: float = 0.95
    # Rules of one family that share their work: `batch(ctx)` returns {rule id: (reason, risk, spans)} for
    # every rule of the family that fired, and the engine calls it once per action instead of once per rule.
    batch: Callable[[Context], Mapping[str, tuple[str, Risk, tuple[Span, ...]]]] | None = None
    # `live(compiled, action type)`: False when, under that policy, the check cannot fire for that type
    # whatever the action (a list it reads is empty, a mode is off); the compiled policy leaves it out
    live: Callable[[CompiledPolicy, str], bool] | None = None
    # the context fact (NEEDS) without which the check returns None whatever the action: the engine does not
    # call it then. None: the check is always called.
    needs: str | None = None
    decision: Decision = field(init=False)
    doc: str = field(init=False)

    def __post_init__(self) -> None:
        prefix = self.id.split(".", 1)[0]
        object.__setattr__(self, "decision", Decision(prefix))
        object.__setattr__(self, "doc", (self.check.__doc__ or "").strip())
        if not self.doc:
            raise ValueError(f"rule {self.id} needs a docstring")
        need_mask(self.needs)  # an unknown need is a mistake in the catalogue, found at import

    def __call__(self, ctx: Context) -> Hit | None:
        if self.types is not None and ctx.type not in self.types:
            return None
        return self.hit(self.check(ctx))

    def hit(self, found: CheckResult) -> Hit | None:
        """A check's result as a Hit (None stays None)."""
        if found is None:
            return None
        if isinstance(found, tuple):
            return Hit(self.id, self.decision, found[1], found[0], found[2] if len(found) > 2 else ())
        return Hit(self.id, self.decision, self.risk, found)


def rule(rule_id: str, title: str, *, risk: Risk, types: Iterable[str] | None = None,
         redact: tuple[str, ...] = (), confidence: float = 0.95,
         batch: Callable[[Context], Mapping[str, tuple[str, Risk, tuple[Span, ...]]]] | None = None,
         live: Callable[[CompiledPolicy, str], bool] | None = None, needs: str | None = None,
         ) -> Callable[[Callable[[Any], CheckResult]], Rule]:
    """Decorator: turn a pure check function into a catalogued Rule."""

    def wrap(fn: Callable[[Any], CheckResult]) -> Rule:
        return Rule(rule_id, title, risk, fn, frozenset(types) if types is not None else None, redact, confidence,
                    batch, live, needs)

    return wrap
