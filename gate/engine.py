"""The safety gate: run the catalogue over one action and combine what fired into one decision.

    SafetyGate(policy).assess(action, observation, history) -> Assessment
    SafetyGate(policy).explain(action, observation) -> Trace  (rule by rule, for a person)
    SafetyGate(policy).assess_plan(actions, observation, history) -> PlanAssessment

Precedence (`decide`): BLOCK hits → the policy's allow rules → CONFIRM hits → the policy's default
mode. Kill state and session limits come before all of this, in the supervisor (app/), which owns them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from gate.compiled import CompiledPolicy, compile_policy
from gate.history import History
from gate.model import FILE_TYPES, Action, Assessment, Decision, Hit, Observation, Risk
from gate.paths import new_personal_file
from gate.policy import AllowRule, Policy, default_policy
from gate.rules import BY_ID, CATALOGUE, Rule
from gate.rules import agent as agent_rules
from gate.rules import plan as plan_rules
from gate.rules import session as session_rules
from gate.rules.base import NEEDS, Context, need_mask, present_needs

__all__ = ["PlanAssessment", "SafetyGate", "Trace", "decide"]

_DECISION_ORDER = {Decision.ALLOW: 0, Decision.CONFIRM: 1, Decision.BLOCK: 2}


# enum members read once: `Decision.BLOCK` is an attribute lookup through the enum's metaclass, per use
_ALLOW, _CONFIRM, _BLOCK = Decision.ALLOW, Decision.CONFIRM, Decision.BLOCK
_LOW, _MEDIUM = Risk.LOW, Risk.MEDIUM
_NO_FIELDS: frozenset[str] = frozenset()
# when the gate itself fails: every free-text field is kept out of the log, since no rule said which holds a secret
_EVERY_TEXT: frozenset[str] = frozenset({"text", "command", "content", "url", "label"})
_SCORE_ID = "confirm.agent.risk-score"  # a sum of small worries, not a consequence of its own
_SCORED = need_mask("history") | need_mask("confidence")  # the context facts the risk score adds up


def decide(hits: Sequence[Hit], allow_rule: AllowRule | None, mode: str,
           ask_rule: AllowRule | None = None) -> tuple[Decision, str, tuple[str, ...], Risk]:
    """The one precedence function. Returns (decision, reason, rule ids, risk).

    1. any BLOCK hit blocks; nothing overrides it;
    2. else a matching "always ask" rule of the policy (`[[ask]]`) asks a person;
    3. else a matching allow rule of the policy allows (the caller never passes one for a complex
       shell string);
    4. else any CONFIRM hit asks a person;
    5. else the policy's default mode for this action type: allow, ask (confirm) or deny (block).
    """
    if ask_rule is not None and not any(h.decision is _BLOCK for h in hits):
        ids = (f"confirm.policy.{ask_rule.id}", *(h.rule for h in hits))
        risk = max((h.risk for h in hits), default=_MEDIUM)
        return _CONFIRM, f"your policy rule '{ask_rule.id}' always asks about this", ids, max(risk, _MEDIUM)
    if not hits and allow_rule is None:  # the common case: nothing fired
        if mode == "ask":
            return _CONFIRM, "the policy asks for every action of this type", ("confirm.policy.default-mode",), _MEDIUM
        if mode == "deny":
            return _BLOCK, "the policy denies actions of this type", ("block.policy.default-mode",), _MEDIUM
        return _ALLOW, "no rule applies", (), _LOW
    # one pass: the block and confirm hits in order, the highest risk (the first of equals, as max()), and
    # the strongest of each kind (its first hit of the highest risk: within a kind the decision is equal)
    blocks: list[str] = []
    confirms: list[str] = []
    risk = None
    top_block = top_confirm = None
    for h in hits:
        r = h.risk
        if risk is None or r > risk:
            risk = r
        d = h.decision
        if d is _BLOCK:
            blocks.append(h.rule)
            if top_block is None or r > top_block.risk:
                top_block = h
        elif d is _CONFIRM:
            confirms.append(h.rule)
            if top_confirm is None or r > top_confirm.risk:
                top_confirm = h
    if risk is None:
        risk = _LOW
    ids = (*blocks, *confirms)
    if top_block is not None:
        return _BLOCK, top_block.reason, ids, risk
    if allow_rule is not None:
        return _ALLOW, f"allowed by policy rule '{allow_rule.id}'", (f"allow.policy.{allow_rule.id}",), risk
    if top_confirm is not None:
        return _CONFIRM, top_confirm.reason, ids, risk
    if mode == "ask":
        return _CONFIRM, "the policy asks for every action of this type", ("confirm.policy.default-mode",), \
            max(risk, _MEDIUM)
    if mode == "deny":
        return _BLOCK, "the policy denies actions of this type", ("block.policy.default-mode",), \
            max(risk, _MEDIUM)
    return _ALLOW, "no rule applies", (), risk


@dataclasses.dataclass(frozen=True, slots=True)
class TraceStep:
    rule: str
    title: str
    outcome: str  # "fired" | "passed" | "not applicable" | "disabled"
    reason: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class Trace:
    steps: tuple[TraceStep, ...]
    allow_rule: str | None
    assessment: Assessment

    def format(self) -> str:
        lines = []
        for s in self.steps:
            mark = {"fired": "✗", "passed": "·", "not applicable": " ", "disabled": "-"}[s.outcome]
            tail = f": {s.reason}" if s.reason else ""
            lines.append(f" {mark} {s.rule:<44} {s.outcome}{tail}")
        a = self.assessment
        lines.append("")
        lines.append("precedence: block rules → policy allow rules → confirm rules → default mode")
        if self.allow_rule:
            lines.append(f"policy allow rule matched: {self.allow_rule}")
        lines.append(f"decision: {a.decision.value.upper()}  risk: {a.risk.label}  confidence: {a.confidence:.2f}")
        lines.append(f"reason: {a.reason}")
        if a.rules:
            lines.append(f"rules: {', '.join(a.rules)}")
        return "\n".join(lines)


@dataclasses.dataclass(frozen=True, slots=True)
class PlanAssessment:
    """A whole plan: the plan-level verdict plus each action's own assessment, in order."""

    assessment: Assessment
    steps: tuple[Assessment, ...]


class SafetyGate:
    """Deterministic and pure (apart from the History passed in). Build once per policy; thread-safe.

    The gate compiles its policy once (`self.compiled`, gate/compiled.py) and every assessment reads
    that: a gate built for another policy shares nothing with this one."""

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy = policy or default_policy()
        self.compiled: CompiledPolicy = compile_policy(self.policy)
        disabled = self.compiled.disabled
        self.rules: tuple[Rule, ...] = tuple(r for r in CATALOGUE if r.id not in disabled)
        self.disabled: frozenset[str] = disabled
        # Rules indexed by the action type they apply to, so the hot path never meets the rest; rules
        # of a family that share a batch function are evaluated by one call of it.
        # The single rules also by the context facts present (`present_needs`, a bit mask): a rule whose need
        # is absent is not called (its check would return None).
        self._singles: dict[str, tuple[tuple[Rule, ...], ...]] = {}
        self._batches: dict[str, tuple[tuple[Callable[[Context], Any], dict[str, Rule]], ...]] = {}
        for kind, applicable in self.compiled.by_type.items():
            singles = [r for r in applicable if r.batch is None]
            # (one tuple per combination of the needs this type's rules have, shared by the masks that differ
            # only in needs none of them has)
            used = 0
            for r in singles:
                used |= need_mask(r.needs)
            by_used: dict[int, tuple[Rule, ...]] = {}
            for present in range(1 << len(NEEDS)):
                if present & used not in by_used:
                    by_used[present & used] = tuple(r for r in singles if need_mask(r.needs) & ~present == 0)
            self._singles[kind] = tuple(by_used[present & used] for present in range(1 << len(NEEDS)))
            groups: dict[Callable[[Context], Any], dict[str, Rule]] = {}
            for r in applicable:
                if r.batch is not None:
                    groups.setdefault(r.batch, {})[r.id] = r
            self._batches[kind] = tuple(groups.items())
        self._plan_rules = tuple(r for r in plan_rules.RULES if r.id not in disabled)
        # read once: the policy is frozen, and every assessment asks for these
        self._allow_rules = self.policy.allow
        self._ask_rules = self.policy.ask
        self._modes = {kind: self.policy.mode_for(kind) for kind in self.compiled.by_type}

    # -- one action ---------------------------------------------------------------------------

    def _hits(self, ctx: Context) -> list[Hit]:
        hits = []
        present = present_needs(ctx)
        for r in self._singles[ctx.type][present]:
            found = r.check(ctx)
            if found is not None:
                hits.append(r.hit(found))
        for batch, members in self._batches[ctx.type]:
            for rule_id, (reason, risk, spans) in batch(ctx).items():
                r = members.get(rule_id)
                if r is not None:  # a disabled rule is not a member
                    hits.append(Hit(rule_id, r.decision, risk, reason, spans))
        # the score of a bare action is its type's points alone, below every level: with no hit, no confidence
        # and no history (score_risk's own first test) there is nothing to score
        if hits or present & _SCORED:
            scored = agent_rules.score_risk(ctx, hits)
            if scored is not None and scored.rule not in self.disabled:
                hits.append(scored)
        return hits

    def _allow_rule(self, ctx: Context) -> AllowRule | None:
        from gate.allow import matching_allow_rule

        return matching_allow_rule(ctx, self._allow_rules)

    def _assessment(self, ctx: Context, hits: list[Hit]) -> tuple[Assessment, AllowRule | None]:
        allow = self._allow_rule(ctx) if self._allow_rules else None
        if allow is not None and allow.except_consequential and any(
                h.decision is _CONFIRM and h.risk >= Risk.HIGH and h.rule != _SCORE_ID for h in hits):
            allow = None  # "except consequential ones": a high-risk confirmation still asks
        ask = None
        if self._ask_rules:
            from gate.allow import matching_ask_rule

            ask = matching_ask_rule(ctx, self._ask_rules)
        kind = ctx.type
        mode = self._modes.get(kind)
        decision, reason, ids, risk = decide(hits, allow, mode if mode is not None else self.policy.mode_for(kind),
                                             ask)
        if ask is not None:
            allow = None
        paths = _judged_paths(ctx) if kind in FILE_TYPES else ()
        new_file = kind == "file_write" and ctx.derived(new_personal_file)
        if not hits:
            return Assessment(decision=decision, reason=reason, rules=ids, risk=risk, confidence=0.9,
                              paths=paths, new_file=new_file), allow
        redact: set[str] = set()
        confidence = 1.0
        for h in hits:
            r = BY_ID.get(h.rule) or _META_RULES[h.rule]  # a catalogue rule, or a meta rule (risk score, plan)
            if r.redact:
                redact.update(r.redact)
            if r.confidence < confidence:
                confidence = r.confidence
        return Assessment(decision=decision, reason=reason, rules=ids, risk=risk, confidence=confidence,
                          hits=tuple(hits), redact=frozenset(redact) if redact else _NO_FIELDS,
                          paths=paths, new_file=new_file), allow

    def assess(self, action: Action, observation: Observation | None = None,
               history: History | None = None) -> Assessment:
        ctx = Context(action, observation, self.compiled, history)
        try:
            assessment, _ = self._assessment(ctx, self._hits(ctx))
        except Exception as err:  # fail closed: a rule that breaks must not let the action through
            return Assessment(decision=Decision.BLOCK, risk=Risk.CRITICAL, confidence=1.0, rules=(),
                              reason=f"the gate failed while judging this action ({type(err).__name__}): it does "
                                     f"not run", redact=_EVERY_TEXT)
        if history is not None:
            # recorded under the key the loop rule looks up: the action as judged (with the label deskgate
            # read at the target), so a repeated click on a read button is counted like any other step
            history.record(ctx.derived(agent_rules.loop_key), assessment)
            # what this step met (steering on the page, a password and its site), for the steps after it
            session_rules.remember(ctx, history, assessment)
        return assessment

    def explain(self, action: Action, observation: Observation | None = None,
                history: History | None = None) -> Trace:
        ctx = Context(action, observation, self.compiled, history)
        steps: list[TraceStep] = []
        hits: list[Hit] = []
        for r in CATALOGUE:
            if r.id in self.disabled:
                steps.append(TraceStep(r.id, r.title, "disabled"))
            elif r.types is not None and ctx.type not in r.types:
                steps.append(TraceStep(r.id, r.title, "not applicable"))
            elif (h := r(ctx)) is not None:
                hits.append(h)
                steps.append(TraceStep(r.id, r.title, "fired", h.reason))
            else:
                steps.append(TraceStep(r.id, r.title, "passed"))
        scored = agent_rules.score_risk(ctx, hits)
        if scored is not None and scored.rule not in self.disabled:
            hits.append(scored)
            steps.append(TraceStep(scored.rule, "risk score", "fired", scored.reason))
        assessment, allow = self._assessment(ctx, hits)
        return Trace(tuple(steps), allow.id if allow else None, assessment)

    # -- a plan -------------------------------------------------------------------------------

    def assess_plan(self, actions: Sequence[Action], observation: Observation | None = None,
                    history: History | None = None) -> PlanAssessment:
        from gate.rules.plan import PlanContext

        steps = tuple(self.assess(a, obs, history) for a, obs in zip(
            actions, _step_observations(actions, observation, self.compiled), strict=True))
        pctx = PlanContext(tuple(actions), steps, self.compiled)
        plan_hits = [h for r in self._plan_rules if (h := r(pctx)) is not None]
        all_hits = plan_hits + [h for s in steps for h in s.hits]
        # a plan is as strict as its strictest step; plan rules can only add to that
        decision, reason, ids, risk = decide(all_hits, None, "allow")
        worst_step = max(steps, key=lambda s: _DECISION_ORDER[s.decision], default=None)
        if worst_step is not None and _DECISION_ORDER[worst_step.decision] > _DECISION_ORDER[decision]:
            decision, reason = worst_step.decision, worst_step.reason
            ids = tuple(dict.fromkeys((*ids, *worst_step.rules)))
        redact: frozenset[str] = frozenset()
        summary = Assessment(decision=decision, reason=reason, rules=tuple(dict.fromkeys(ids)), risk=risk,
                             confidence=min((s.confidence for s in steps), default=1.0),
                             hits=tuple(plan_hits), redact=redact)
        return PlanAssessment(summary, steps)


def _step_observations(actions: Sequence[Action], observation: Observation | None,
                       compiled: CompiledPolicy) -> list[Observation | None]:
    """The observation each step of a plan is judged with: the same desktop, with the typed line followed
    from step to step (gate/lines.py), so `rm -rf ` then `~` then Return in one plan is one line; and the
    files the plan's earlier steps write, so a later step that runs one is judged by its content."""
    line = observation.line if observation is not None else None
    writes = any(a.type == "file_write" for a in actions[:-1])
    if line is None and not writes:
        return [observation] * len(actions)
    import msgspec

    from gate.lines import advance
    from gate.model import Script
    from gate.paths import compute_facts

    base = observation or Observation()
    scripts = list(base.scripts)
    out: list[Observation | None] = []
    for a in actions:
        out.append(msgspec.structs.replace(base, line=line, scripts=tuple(scripts)))
        if line is not None:
            line = advance(line, a)
        if a.type == "file_write":
            try:
                real = compute_facts(a.path, None, compiled).real  # type: ignore[union-attr]
            except (ValueError, OSError):
                continue
            scripts = [s for s in scripts if s.path != real]
            scripts.append(Script(real, a.content))  # type: ignore[union-attr]
    return out


def _judged_paths(ctx: Context) -> tuple[str, ...]:
    """The real paths a file action was judged on (its path, a move's destination): the executor acts on
    exactly these. Empty when the path could not be resolved (the action is blocked then)."""
    from gate.paths import file_facts

    facts = ctx.derived(file_facts)
    if facts is None:
        return ()
    return (facts.real,) if facts.to_real is None else (facts.real, facts.to_real)


_META_RULES: dict[str, Rule] = {r.id: r for r in (*agent_rules.META_RULES, *plan_rules.RULES)}
