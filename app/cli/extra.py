"""`deskgate do`, `deskgate doctor`, `deskgate docs`: simple commands, a readiness check, generated docs.

    deskgate do "set volume to 50"            # hello + command + bye over the socket
    deskgate do "mute and lock the screen" --dry-run   # parse here, print the plan, send nothing
    deskgate doctor                           # ok / warn / fail per check, with the fix; exit 1 on a fail
    deskgate docs policy-reference > docs/policy-reference.md

`do` exits like `act`: 0 executed (or allowed), 1 denied, 2 error (not understood, no deskgate running, a
step failed: the reply's `steps` say which and why, and its JSON says `"ok": false`).
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import tomllib
from importlib import resources
from typing import Any

from app.errors import DeskgateError

__all__ = ["policy_reference", "register"]

def _print(data: dict[str, Any]) -> None:
    indent = 2 if sys.stdout.isatty() else None
    sys.stdout.write(json.dumps(data, indent=indent, ensure_ascii=False) + "\n")
    sys.stdout.flush()


# -- do ------------------------------------------------------------------------------------------


def cmd_do(args: argparse.Namespace) -> int:
    from gate.commands import CommandError, parse_command
    from gate.model import action_to_dict

    if args.dry_run:
        try:
            actions = parse_command(args.text)
        except CommandError as err:
            print(f"deskgate: not understood: {err}", file=sys.stderr)
            return 2
        plan = [action_to_dict(a) for a in actions]
        if args.json:
            _print({"text": args.text, "plan": plan})
        else:
            sys.stdout.write("".join(f"{i + 1}. {json.dumps(a, ensure_ascii=False)}\n" for i, a in enumerate(plan)))
        return 0
    from app.agent.client import Client
    from app.cli.client import fail, report_verdict

    try:
        with Client(args.socket, timeout=args.timeout) as dg:
            dg.hello(args.agent)
            reply = dg.command(args.text, execute=not args.no_execute)
    except DeskgateError as err:
        return fail(err, args)
    return report_verdict(reply, args)


# -- doctor --------------------------------------------------------------------------------------


def cmd_doctor(args: argparse.Namespace) -> int:
    from app.cli import doctor
    from app.config import default_paths

    if args.probe:
        return doctor.run_probe(args.probe)
    checks = doctor.run_checks(default_paths())
    if args.json:
        _print({"checks": [c.to_dict() for c in checks]})
    else:
        sys.stdout.write(doctor.format_checks(checks))
    return 1 if any(c.status == doctor.FAIL for c in checks) else 0


def doctor_probes() -> dict[str, str]:
    from app.cli.doctor import PROBES

    return PROBES


# -- docs: the policy reference ------------------------------------------------------------------


def _toml_entries(text: str) -> list[tuple[str, str, list[str], str]]:
    """(table, key, comment lines above it, the value as written) for every key of a TOML file, in order.

    A value may span lines (arrays): lines are added until the key alone parses. Comments right above a
    key (no blank line between) belong to it; a blank line or a table header drops them.
    """
    lines = text.splitlines()
    out: list[tuple[str, str, list[str], str]] = []
    table = ""
    comments: list[str] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if not stripped:
            comments = []
        elif stripped.startswith("#"):
            comments.append(stripped[1:].strip())
        elif stripped.startswith("["):
            table = stripped.strip("[]").strip()
            comments = []
        elif "=" in stripped:
            key = stripped.split("=", 1)[0].strip()
            j = i
            while True:
                chunk = "\n".join(lines[i:j + 1])
                try:
                    tomllib.loads(chunk)
                    break
                except tomllib.TOMLDecodeError:
                    j += 1
                    if j >= len(lines):
                        raise ValueError(f"cannot find the end of `{table}.{key}` (line {i + 1})") from None
            value = chunk.split("=", 1)[1].strip()
            out.append((table, key, comments, value))
            comments = []
            i = j
        i += 1
    return out


def _md_value(value: str) -> str:
    if "\n" in value or "`" in value or len(value) > 90:
        return f"\n```toml\n{value}\n```\n"
    return f" `{value}`\n"


def _one_line(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def policy_reference() -> str:
    """The policy reference in Markdown, from the rule catalogue and resources/policy.toml (deterministic)."""
    from gate.policy import PRESETS
    from gate.rules import CATALOGUE
    from gate.rules import plan as plan_rules

    rules = [(r, "plan" if r in plan_rules.RULES else None) for r in (*CATALOGUE, *plan_rules.RULES)]
    out = [
        "# deskgate policy reference",
        "",
        "<!-- Generated by `deskgate docs policy-reference` from the rule catalogue (gate/rules/) and",
        "     resources/policy.toml. Do not edit by hand: tests/app/test_docs.py fails when it is stale. -->",
        "",
        "Every built-in rule and every policy key with its shipped default. How they combine (DESIGN §3):",
        "kill state → limits → BLOCK rules → the policy's `[[allow]]` rules → CONFIRM rules → the default",
        "mode. Nothing overrides a block. Switch a rule off with `gate.disabled_rules` (knowingly).",
        "",
        "Besides the rules below, a decision can name `confirm.policy.default-mode` /",
        "`block.policy.default-mode` (no rule fired and `gate.default_mode` or `gate.modes` says ask / deny)",
        "or `allow.policy.<id>` (one of your `[[allow]]` rules matched).",
        "",
        f"## Rules ({len(rules)})",
        "",
        "| id | decision | risk | applies to | title |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r, kind in rules:
        applies = "whole plans" if kind else (", ".join(sorted(r.types)) if r.types is not None else "every action")
        out.append(f"| [`{r.id}`](#{r.id.replace('.', '')}) | {r.decision.value} | {r.risk.label} | {applies} "
                   f"| {_one_line(r.title)} |")
    out.append("")
    for r, kind in rules:
        applies = "whole plans" if kind else (", ".join(sorted(r.types)) if r.types is not None else "every action")
        out += [f"### {r.id}", "",
                f"**{r.decision.value}** · risk **{r.risk.label}** · applies to: {applies} · {r.title}", "",
                inspect.cleandoc(r.doc), ""]
    entries = _toml_entries(resources.files("resources").joinpath("policy.toml").read_text(encoding="utf-8"))
    out += ["## Policy keys", "",
            "Defaults as shipped in `resources/policy.toml`. Your policy file (`deskgate policy show` prints the",
            "result) and the presets overlay it: a table merges key by key, a list or a value replaces the",
            "shipped one.", ""]
    table = None
    for tbl, key, comments, value in entries:
        if tbl != table:
            table = tbl
            out += [f"### [{tbl}]", ""]
        out.append(f"#### `{tbl}.{key}`" if tbl else f"#### `{key}`")
        out.append("")
        if comments:
            # a bare "#" line separates paragraphs of one comment
            paragraphs = " ".join(c if c else "\n\n" for c in comments).replace(" \n\n ", "\n\n")
            out += [paragraphs.strip(), ""]
        out.append("Default:" + _md_value(value))
    out += ["## Presets", "",
            "`preset = \"...\"` in your policy file (or `--preset`) starts from one of these overlays.", ""]
    for name in PRESETS:
        text = resources.files("resources").joinpath(f"presets/{name}.toml").read_text(encoding="utf-8")
        out += [f"### {name}", "", "```toml", text.rstrip("\n"), "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def cmd_docs(args: argparse.Namespace) -> int:
    sys.stdout.write(policy_reference())
    return 0


# -- registration --------------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("do", help="send a simple command in plain words (e.g. 'set volume to 50')",
                       description="Parse a simple command into system/open_app actions and send it to the "
                                   "running deskgate as one plan (hello, command, bye). Exit status: 0 "
                                   "executed/allowed, 1 denied, 2 error or not understood.")
    p.add_argument("text", help="the command, e.g. \"mute and lock the screen\"")
    p.add_argument("--dry-run", action="store_true", help="parse here and print the plan; send nothing")
    p.add_argument("--no-execute", action="store_true", help="ask for the decision only")
    p.add_argument("--agent", default="deskgate-cli", help="the agent name for the session (default: %(default)s)")
    p.add_argument("--socket", metavar="PATH", help="the deskgate socket (default: the per-user runtime dir)")
    p.add_argument("--timeout", type=float, default=120.0, metavar="S",
                   help="seconds to wait for the reply (default: 120, longer than a confirmation)")
    p.add_argument("--json", action="store_true", help="print the reply (or the --dry-run plan) as JSON")
    p.set_defaults(func=cmd_do)

    d = sub.add_parser("doctor", help="check that this machine is ready for deskgate",
                       description="Check the display, window manager, tray, tools, Qt, pynput, the socket "
                                   "directory, the audit log, the shell fence and the kill state. Prints each "
                                   "with ok/warn/fail and a fix; exit status 1 if any check fails.")
    d.add_argument("--json", action="store_true", help="print the checks as JSON")
    d.add_argument("--probe", choices=sorted(doctor_probes()), help=argparse.SUPPRESS)  # the bundle's child probes
    d.set_defaults(func=cmd_doctor)

    g = sub.add_parser("docs", help="print generated documentation")
    gsub = g.add_subparsers(dest="docs_command", metavar="DOC", required=True)
    r = gsub.add_parser("policy-reference", help="every rule and policy key, as Markdown")
    r.set_defaults(func=cmd_docs)
