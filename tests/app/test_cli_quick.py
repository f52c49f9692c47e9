"""The hook and control commands read without argparse (app/cli/quick.py) mean exactly what argparse reads,
and everything else is left to argparse."""

from __future__ import annotations

import pytest

from app.agent.claude_code import DEFAULT_AGENT, MODES
from app.cli import quick
from app.cli.main import _FAST, build_parser

SAME = [
    ["hook", "claude-code"],
    ["hook", "claude-code", "--socket", "/run/x.sock", "--timeout", "2.5", "--mode", "strict"],
    ["hook", "claude-code", "--ask-here", "--agent", "cc-2"],
    ["hook", "claude-code", "--mode=defer", "--socket=/tmp/s"],
    ["kill"],
    ["kill", "--reason", "typing into the wrong window", "--json"],
    ["pause", "--socket", "/tmp/s", "--timeout", "3"],
    ["resume", "--reason", "ok"],
    ["unpause"],
    ["status", "--json"],
    ["grants", "--timeout=1"],
    ["revoke", "g-42"],
    ["revoke", "--json", "g-42", "--socket", "/tmp/s"],
]

LEFT_TO_ARGPARSE = [
    ["hook", "claude-code", "--help"],
    ["hook", "claude-code", "--timeout", "0"],        # not > 0: argparse says so
    ["hook", "claude-code", "--timeout", "soon"],
    ["hook", "claude-code", "--mode", "loud"],
    ["hook", "claude-code", "--sock", "/tmp/s"],      # an abbreviation: argparse's to resolve
    ["hook", "claude-code", "extra"],
    ["hook", "claude-code", "--socket"],              # no value
    ["status", "--reason", "x"],                       # status has no --reason
    ["status", "-h"],
    ["kill", "--json=yes"],
    ["kill", "--reason", "--json"],                    # argparse reads that as a missing value
    ["revoke"],
    ["revoke", "a", "b"],
    ["act", "{}"],
    ["check"],
    [],
]


@pytest.mark.parametrize("argv", SAME, ids=" ".join)
def test_quick_reads_what_argparse_reads(argv: list[str]) -> None:
    fast = quick.parse(argv)
    assert fast is not None
    slow = build_parser((_FAST[argv[0]],)).parse_args(argv)
    assert vars(fast) == vars(slow)


@pytest.mark.parametrize("argv", LEFT_TO_ARGPARSE, ids=lambda a: " ".join(a) or "(none)")
def test_anything_else_goes_to_argparse(argv: list[str]) -> None:
    assert quick.parse(argv) is None


def test_quick_knows_the_hooks_modes_and_default_agent() -> None:
    assert quick._HOOK_MODES == MODES
    assert quick._SPECS[("hook", "claude-code")][4]["agent"] == DEFAULT_AGENT
