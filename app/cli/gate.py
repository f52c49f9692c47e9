"""`deskgate check`, `deskgate explain`, `deskgate policy validate|show`: the gate on the command line.

No UI, no socket, no execution: these only assess.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import msgspec

from gate.model import ActionError, Observation, Shell
from gate.policy import PRESETS, Policy, PolicyError, load_policy

__all__ = ["register"]


def _policy_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--policy", metavar="FILE", help="a policy file (TOML), overlaid on the shipped policy")
    p.add_argument("--preset", choices=PRESETS, help="start from this preset (default: balanced, or the file's)")


def _load(args: argparse.Namespace) -> Policy | None:
    try:
        return load_policy(args.policy, args.preset)
    except PolicyError as err:
        print(f"deskgate: policy error: {err}", file=sys.stderr)
        return None


def _gate(args: argparse.Namespace) -> tuple[Policy, Any] | None:
    """The policy and its gate, the regexes from programs an earlier run stored (app/policy_cache.py);
    None (said on stderr) when the policy does not load."""
    from app.config import default_paths
    from app.policy_cache import PolicyCache

    cache = PolicyCache.for_policy(default_paths().state_dir, args.policy, args.preset)
    cache.load()  # first: loading the policy and importing the rules compile regexes
    policy = _load(args)
    if policy is None:
        return None
    from gate.engine import SafetyGate

    gate = SafetyGate(policy)
    cache.save()
    return policy, gate


def _observation(data: dict[str, Any]) -> tuple[dict[str, Any], Observation]:
    """A line may carry `{"action": {...}, "observation": {...}}` or be the action itself."""
    if "action" in data and isinstance(data.get("action"), dict):
        extra = set(data) - {"action", "observation"}
        if extra:
            raise ActionError(f"unknown field(s) beside action: {', '.join(sorted(extra))}")
        try:
            obs = msgspec.convert(data.get("observation") or {}, Observation, strict=True)
        except msgspec.ValidationError as err:
            raise ActionError(f"observation: {err}") from None
        return data["action"], obs
    return data, Observation()


def _parse_line(line: str) -> tuple[Any, Observation]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as err:
        raise ActionError(f"not valid JSON: {err.msg} (column {err.colno})") from None
    if not isinstance(data, dict):
        raise ActionError("each line must be a JSON object (an action)")
    raw, obs = _observation(data)
    from gate.model import action_from_dict

    return action_from_dict(raw), obs


def cmd_check(args: argparse.Namespace) -> int:
    built = _gate(args)
    if built is None:
        return 2
    _, gate = built
    out = sys.stdout
    errors = 0
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            action, obs = _parse_line(line)
            result: dict[str, Any] = gate.assess(action, obs).to_dict()
        except ActionError as err:
            errors += 1
            result = {"error": {"code": "bad_request", "message": str(err), "line": number}}
        except Exception as err:  # never stop the run for one line; say what happened on it
            errors += 1
            result = {"error": {"code": "internal", "message": f"{type(err).__name__}: {err}", "line": number}}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return 1 if errors else 0


def cmd_explain(args: argparse.Namespace) -> int:
    built = _gate(args)
    if built is None:
        return 2
    policy, gate = built
    text = args.action if args.action is not None else sys.stdin.read()
    try:
        action, obs = _parse_line(text)
    except ActionError as err:
        print(f"deskgate: bad action: {err}", file=sys.stderr)
        return 2
    trace = gate.explain(action, obs)
    effects = _effects(action)
    if args.json:
        from gate.rules import BY_ID

        print(json.dumps({**trace.assessment.to_dict(), "confidence": trace.assessment.confidence,
                          "allow_rule": trace.allow_rule,
                          "effects": [{"command": c, "effects": e} for c, e in effects],
                          "trace": [{"rule": s.rule, "outcome": s.outcome, "reason": s.reason,
                                     "rule_risk": BY_ID[s.rule].risk.label if s.rule in BY_ID else None}
                                    for s in trace.steps if args.all or s.outcome != "not applicable"]},
                         ensure_ascii=False, indent=2))
        return 0
    print(f"action: {json.dumps(msgspec.to_builtins(action), ensure_ascii=False)}")
    print(f"policy: {policy.preset}" + (f" + {args.policy}" if args.policy else ""))
    if effects:
        print("effects (resources/programs.toml):")
        for command, names in effects:
            print(f"  {command}: {', '.join(names) or 'none'}")
    print()
    steps = trace.steps if args.all else tuple(s for s in trace.steps if s.outcome != "not applicable")
    print(type(trace)(steps, trace.allow_rule, trace.assessment).format())
    print(_risk_note(trace))
    return 0


def _risk_note(trace: Any) -> str:
    """How the action's risk relates to the rules' own (the `risk` column of `deskgate rules`)."""
    from gate.rules import BY_ID

    fired = [BY_ID[s.rule] for s in trace.steps if s.outcome == "fired" and s.rule in BY_ID]
    if not fired:
        return f"risk: {trace.assessment.risk.label} (no catalogue rule fired)"
    base = ", ".join(f"{r.id} {r.risk.label}" for r in fired)
    top = max(r.risk for r in fired)
    how = ("the highest of them" if trace.assessment.risk == top else
           "raised by what this action does" if trace.assessment.risk > top else "lowered by the policy")
    return f"risk: {trace.assessment.risk.label}, {how} (rule risk as `deskgate rules` lists it: {base})"


def _effects(action: Any) -> list[tuple[str, list[str]]]:
    """The effects the gate derived for each simple command of a shell action (empty for other actions)."""
    if not isinstance(action, Shell):
        return []
    command = action.argv or action.command
    if not command:
        return []
    from gate.effects import describe
    from gate.shell import analyse

    return describe(analyse(command, action.cwd))


def cmd_policy_validate(args: argparse.Namespace) -> int:
    """Every error (not only the first), a warning for each allow rule that matches everything, and one
    for each host rule whose subdomains are other people's sites."""
    from gate.policy import policy_problems

    errors, warnings = policy_problems(args.file, args.preset)
    for err in errors:
        print(f"invalid: {err}", file=sys.stderr)
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if errors:
        print(f"{args.file}: {len(errors)} error(s)", file=sys.stderr)
        return 1
    policy = load_policy(args.file, args.preset)
    from app.user_policy import shared_host_warnings

    shared = shared_host_warnings(policy)  # the public suffix list is app's: gate/ stays free of it
    for warning in shared:
        print(f"warning: {warning}", file=sys.stderr)
    warnings = [*warnings, *shared]
    print(f"ok: {args.file} (preset {policy.preset}, {len(policy.allow)} allow rule(s)"
          + (f", {len(warnings)} warning(s))" if warnings else ")"))
    return 0


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        if not value:
            return "[]"
        if all(not isinstance(v, (dict, list)) for v in value):
            inner = ", ".join(_toml_value(v) for v in value)
            if len(inner) < 90:
                return f"[{inner}]"
            return "[\n" + "".join(f"    {_toml_value(v)},\n" for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + " }" \
            if value else "{}"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def policy_as_toml(policy: Policy) -> str:
    data = msgspec.to_builtins(policy)
    lines = [f"# effective policy (preset {data.pop('preset')})"]
    tables = {name: data.pop(name, []) for name in ("allow", "ask", "projects")}  # the arrays of tables
    for section, body in data.items():
        lines.append(f"\n[{section}]")
        lines.extend(f"{key} = {_toml_value(value)}" for key, value in body.items())
    for name, rules in tables.items():
        for rule in rules:
            lines.append(f"\n[[{name}]]")
            lines.extend(f"{key} = {_toml_value(value)}" for key, value in rule.items() if value not in (None, []))
    return "\n".join(lines) + "\n"


def cmd_policy_show(args: argparse.Namespace) -> int:
    policy = _load(args)
    if policy is None:
        return 2
    if args.json:
        print(json.dumps(msgspec.to_builtins(policy), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(policy_as_toml(policy))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from gate.rules import CATALOGUE

    rows = [{"id": r.id, "decision": r.decision.value, "risk": r.risk.label,
             "types": sorted(r.types) if r.types else None, "title": r.title} for r in CATALOGUE]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    print(f"{'RULE':<46} {'RISK':<8} {'APPLIES TO':<28} TITLE")
    for r in rows:
        print(f"{r['id']:<46} {r['risk']:<8} {','.join(r['types'] or ['any']):<28} {r['title']}")
    print("\nRISK is the rule's own; what an action does can raise it (`deskgate explain` shows both).")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="assess actions (JSON lines on stdin), one JSON verdict per line",
                       description="Assess actions, one JSON object per line on stdin, and print one JSON "
                                   "verdict per line. Every line is answered; the exit status is 1 when any "
                                   "line was bad (not JSON, not an action), 2 on a policy error.")
    _policy_args(p)
    p.add_argument("--strict", action="store_true",
                   help="kept for old scripts: a bad line always makes the exit status 1 (its reply says why)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("explain", help="the rule-by-rule trace for one action")
    p.add_argument("action", nargs="?", help="the action as JSON (default: read stdin)")
    _policy_args(p)
    p.add_argument("--all", action="store_true", help="also list rules that do not apply to this action type")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("rules", help="list the rule catalogue")
    p.add_argument("--json", action="store_true", help="print the catalogue as JSON")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("policy", help="validate or show a policy")
    psub = p.add_subparsers(dest="policy_command", metavar="SUBCOMMAND", required=True)
    v = psub.add_parser("validate", help="check a policy file; errors name the file, key and line")
    v.add_argument("file")
    v.add_argument("--preset", choices=PRESETS)
    v.set_defaults(func=cmd_policy_validate)
    s = psub.add_parser("show", help="print the effective policy")
    _policy_args(s)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_policy_show)
