"""Rules over a whole plan (a list of actions sent together): schema, size, complexity, split evasion.

Each action of a plan is also assessed on its own (the engine does that first; a plan is as strict as
its strictest step). These rules only see what no single step shows:

- size: more than `plan.max_actions` actions is refused, an empty plan is malformed;
- complexity: a score from concerns (many kinds of action, shell mixed with GUI input, deleting next to
  network access, steps that already ask, length); at `plan.confirm_complexity` a person looks at the
  whole plan, at `plan.block_complexity` it is refused;
- split evasion: a command cut into pieces that are harmless alone (`type "rm -r"`, `type "f ~"`,
  `key enter`; or `a=/` then `rm -rf $a` as two shell steps) is judged joined, with the same rules that
  judge a single action.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator

from gate.compiled import CompiledPolicy
from gate.model import POINTER_TYPES, Action, Assessment, Decision, Risk, Shell
from gate.policy import Policy
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES", "Concern", "PlanContext", "complexity", "split_candidates"]


@dataclasses.dataclass(frozen=True, slots=True)
class PlanContext:
    actions: tuple[Action, ...]
    steps: tuple[Assessment, ...]  # each action's own assessment, in order
    compiled: CompiledPolicy
    type: str = "plan"

    @property
    def policy(self) -> Policy:
        return self.compiled.policy


# -- size ---------------------------------------------------------------------------------------


@rule("block.plan.empty", "an empty plan", risk=Risk.LOW)
def empty_plan(p: PlanContext) -> CheckResult:
    """A plan with no actions is malformed: there is nothing to approve, so nothing runs."""
    return "the plan has no actions" if not p.actions else None


@rule("block.plan.too-many-actions", "a plan longer than the limit", risk=Risk.MEDIUM)
def too_many_actions(p: PlanContext) -> CheckResult:
    """More actions than `plan.max_actions` in one plan: no person can review that many at once, and a
    long plan is where a harmful step hides."""
    limit = p.policy.plan.max_actions
    if len(p.actions) > limit:
        return f"the plan has {len(p.actions)} actions (limit {limit})"
    return None


# -- complexity ---------------------------------------------------------------------------------

GUI_INPUT = POINTER_TYPES | {"type", "key"}
_NETWORK_COMMANDS = frozenset({"curl", "wget", "nc", "ncat", "netcat", "socat", "scp", "sftp", "rsync", "ssh",
                               "ftp", "tftp", "telnet", "invoke-webrequest", "iwr", "invoke-restmethod",
                               "irm", "bitsadmin", "certutil", "aria2c", "http", "git"})
_DELETE_COMMANDS = frozenset({"rm", "rmdir", "shred", "unlink", "del", "erase", "rd", "remove-item", "srm",
                              "wipe", "truncate"})


@dataclasses.dataclass(frozen=True, slots=True)
class Concern:
    points: int
    what: str


@functools.lru_cache(maxsize=512)
def _shell_names(command: str) -> frozenset[str]:
    """Command names a shell string runs (through wrappers too); empty when it cannot be analysed."""
    from gate.shell import analyse

    try:
        facts = analyse(command)
    except Exception:  # an analyser failure must not make a plan look simpler than it is
        return frozenset({"<unparsable>"})
    names = {c.name for c in facts.commands}
    if any(c.name == "find" and "-delete" in c.words for c in facts.commands):
        names.add("rm")
    return frozenset(names)


def _command_of(a: Action) -> str | None:
    if a.type != "shell":
        return None
    if a.command is not None:  # type: ignore[union-attr]
        return a.command  # type: ignore[union-attr]
    import shlex

    return shlex.join(a.argv)  # type: ignore[union-attr]


def complexity(p: PlanContext) -> tuple[int, tuple[Concern, ...]]:
    """The plan's complexity score and the concerns that make it up."""
    concerns: list[Concern] = []
    kinds = {a.type for a in p.actions}
    if len(kinds) > 3:
        concerns.append(Concern(len(kinds) - 3, f"{len(kinds)} different kinds of action"))
    if "shell" in kinds and kinds & GUI_INPUT:
        concerns.append(Concern(2, "shell commands mixed with mouse/keyboard input"))
    shell_names: set[str] = set()
    for a in p.actions:
        command = _command_of(a)
        if command is not None:
            shell_names |= _shell_names(command)
    deletes = "file_delete" in kinds or bool(shell_names & _DELETE_COMMANDS)
    network = bool(kinds & {"navigate"}) or bool(shell_names & _NETWORK_COMMANDS) or any(
        a.type == "tool" and a.input and any(k in a.input for k in ("url", "uri")) for a in p.actions)  # type: ignore[union-attr]
    if deletes and network:
        concerns.append(Concern(3, "deletes files and reaches the network"))
    writes_outside = any(s.decision is not Decision.ALLOW and "confirm.files.outside-sandbox" in s.rules
                         for s in p.steps)
    if writes_outside and "shell" in kinds:
        concerns.append(Concern(1, "changes files outside the sandbox and runs commands"))
    asking = sum(1 for s in p.steps if s.decision is Decision.CONFIRM)
    if asking:
        concerns.append(Concern(min(asking, 4), f"{asking} step(s) already need a person"))
    if len(p.actions) > 10:
        concerns.append(Concern(len(p.actions) // 10, f"{len(p.actions)} actions"))
    return sum(c.points for c in concerns), tuple(concerns)


def _summary(concerns: tuple[Concern, ...]) -> str:
    return "; ".join(c.what for c in concerns)


@rule("block.plan.too-complex", "a plan too complex to approve", risk=Risk.HIGH)
def too_complex(p: PlanContext) -> CheckResult:
    """A complexity score at or above `plan.block_complexity`: split it into plans a person can follow."""
    score, concerns = complexity(p)
    if score >= p.policy.plan.block_complexity:
        return f"plan complexity {score} (limit {p.policy.plan.block_complexity}): {_summary(concerns)}"
    return None


@rule("confirm.plan.complex", "a complex plan", risk=Risk.MEDIUM)
def complex_plan(p: PlanContext) -> CheckResult:
    """A complexity score at or above `plan.confirm_complexity` (and below the block level): a person
    reviews the plan as a whole."""
    score, concerns = complexity(p)
    if p.policy.plan.confirm_complexity <= score < p.policy.plan.block_complexity:
        return f"plan complexity {score}: {_summary(concerns)}"
    return None


# -- split evasion ------------------------------------------------------------------------------

_ENTER = frozenset({"enter", "return", "kp_enter"})


def split_candidates(actions: tuple[Action, ...]) -> Iterator[tuple[str, str, tuple[int, ...]]]:
    """(kind, joined text, indices of the pieces) for every run of two or more pieces:
    text typed by consecutive `type` actions (a run ends at Enter or at any other action; other keys
    such as shift do not end it), and consecutive `shell` commands (joined as one script)."""
    typed: list[tuple[int, str]] = []
    shell: list[tuple[int, str]] = []

    def flush_typed() -> Iterator[tuple[str, str, tuple[int, ...]]]:
        if len(typed) >= 2:
            yield "type", "".join(t for _, t in typed), tuple(i for i, _ in typed)
        typed.clear()

    def flush_shell() -> Iterator[tuple[str, str, tuple[int, ...]]]:
        if len(shell) >= 2:
            yield "shell", "\n".join(t for _, t in shell), tuple(i for i, _ in shell)
        shell.clear()

    for i, a in enumerate(actions):
        if a.type == "type":
            typed.append((i, a.text))  # type: ignore[union-attr]
        elif a.type == "key":
            if {k.lower() for k in a.keys} & _ENTER:  # type: ignore[union-attr]
                yield from flush_typed()
        else:
            yield from flush_typed()
        if a.type == "shell":
            command = _command_of(a)
            shell.append((i, command or ""))
        else:
            yield from flush_shell()
    yield from flush_typed()
    yield from flush_shell()


def _judge(text: str, kind: str, compiled: CompiledPolicy) -> tuple[Decision, str, str]:
    """The per-action verdict of `text` as a shell command (and, for typed text, as typing)."""
    from gate.model import Type

    probes: list[Action] = [Shell(command=text[:100_000])]
    if kind == "type":
        probes.append(Type(text=text[:100_000]))
    best: tuple[Decision, str, str] = (Decision.ALLOW, "", "")
    order = {Decision.ALLOW: 0, Decision.CONFIRM: 1, Decision.BLOCK: 2}
    for probe in probes:
        ctx = Context(probe, None, compiled, None)
        for r in compiled.by_type[probe.type]:
            hit = r(ctx)
            if hit is None:
                continue
            # typed prose parsed as shell is noisy: only a shell BLOCK counts for typed text
            if kind == "type" and probe.type == "shell" and hit.decision is not Decision.BLOCK:
                continue
            if order[hit.decision] > order[best[0]]:
                best = (hit.decision, hit.rule, hit.reason)
    return best


def _split_evasion(p: PlanContext) -> tuple[Decision, str] | None:
    order = {Decision.ALLOW: 0, Decision.CONFIRM: 1, Decision.BLOCK: 2}
    worst: tuple[Decision, str] | None = None
    for kind, text, pieces in split_candidates(p.actions):
        parts_worst = max((order[p.steps[i].decision] for i in pieces if i < len(p.steps)), default=0)
        decision, rule_id, reason = _judge(text, kind, p.compiled)
        if order[decision] > parts_worst and (worst is None or order[decision] > order[worst[0]]):
            what = "typed text" if kind == "type" else "shell steps"
            worst = (decision, f"{len(pieces)} {what} joined: {reason} [{rule_id}]")
    return worst


def _evasion(p: PlanContext, decision: Decision) -> CheckResult:
    found = _split_evasion(p)
    if found is None or found[0] is not decision:
        return None
    return found[1]


@rule("block.plan.split-evasion", "a blocked command split across steps", risk=Risk.CRITICAL)
def split_evasion_block(p: PlanContext) -> CheckResult:
    """Consecutive typed texts or shell steps that are harmless one by one but, joined, are what the
    single-action rules block (`rm -rf /` typed as `rm -r`, `f /`; `cd /` then `rm -rf *`)."""
    return _evasion(p, Decision.BLOCK)


@rule("confirm.plan.split-evasion", "a risky command split across steps", risk=Risk.HIGH)
def split_evasion_confirm(p: PlanContext) -> CheckResult:
    """The same, where the joined text is something the single-action rules would ask about."""
    return _evasion(p, Decision.CONFIRM)


RULES: tuple[Rule, ...] = (
    empty_plan,
    too_many_actions,
    too_complex,
    complex_plan,
    split_evasion_block,
    split_evasion_confirm,
)
