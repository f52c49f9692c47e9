"""`deskgate hook claude-code` and `deskgate mcp`: plugging real agents into deskgate.

    deskgate hook claude-code < event.json     # a Claude Code PreToolUse hook (see docs/claude-code.md)
    deskgate mcp --agent my-assistant          # an MCP server over stdio whose tools go through deskgate
"""

from __future__ import annotations

import sys
from pathlib import Path

TYPE_CHECKING = False  # typing is not imported at run time: the hook and `deskgate kill` start small
if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["register"]

_SOCKET_HELP = "socket path (default: $XDG_RUNTIME_DIR/deskgate/deskgate.sock)"


def _positive(text: str) -> float:
    import argparse

    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, not {text}")
    return value


def register(subparsers: Any) -> None:
    import argparse  # here: `deskgate hook claude-code` is read without argparse (app/cli/quick.py)

    from app.agent.claude_code import DEFAULT_AGENT, DEFAULT_TIMEOUT_S, MODES, SETTINGS_SNIPPET

    hook = subparsers.add_parser("hook", help="agent hooks that ask deskgate before a tool runs")
    kinds = hook.add_subparsers(dest="hook_kind", metavar="AGENT", required=True)
    cc = kinds.add_parser(
        "claude-code", help="Claude Code PreToolUse hook (JSON on stdin, decision on stdout)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Reads one Claude Code PreToolUse event on stdin and answers allow / ask / deny on "
                    "stdout, or nothing where deskgate's rules have no opinion (Claude Code decides). Every "
                    "call is logged by deskgate. No deskgate running, no answer in time, or bad input: deny.",
        epilog="Add to ~/.claude/settings.json (or .claude/settings.json in a project):\n\n"
               + SETTINGS_SNIPPET + "\n\nMore: docs/claude-code.md",
    )
    cc.add_argument("--socket", type=Path, help=_SOCKET_HELP)
    cc.add_argument("--timeout", type=_positive, metavar="SECONDS",
                    help=f"deny when deskgate has not answered by then (default {DEFAULT_TIMEOUT_S:g}; "
                         "55 in strict mode)")
    cc.add_argument("--mode", choices=MODES, default="defer",
                    help="defer (default): a confirm becomes 'ask' in Claude Code's own prompt; strict: "
                         "deskgate's own dialog or approver decides a confirm (allow or deny)")
    cc.add_argument("--ask-here", dest="mode", action="store_const", const="strict",
                    help="the same as --mode strict")
    cc.add_argument("--agent", default=DEFAULT_AGENT, metavar="NAME",
                    help=f"agent name prefix in deskgate's log (default {DEFAULT_AGENT})")
    cc.set_defaults(func=cmd_hook_claude_code)

    mcp = subparsers.add_parser(
        "mcp", help="MCP server over stdio: desktop tools that go through deskgate",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Serves the tools screenshot, click, type, key, scroll, shell and open_url over MCP "
                    "(stdio). Every call is an `act` in one deskgate session; refusals come back as error "
                    "results.",
        epilog='Claude Code: claude mcp add deskgate -- deskgate mcp\n'
               'Other clients: {"mcpServers": {"deskgate": {"command": "deskgate", "args": ["mcp"]}}}',
    )
    mcp.add_argument("--socket", type=Path, help=_SOCKET_HELP)
    mcp.add_argument("--agent", default="mcp", metavar="NAME", help="agent name of the session (default mcp)")
    mcp.add_argument("--project", type=Path, metavar="DIR",
                     help="the directory the agent works on (e.g. `.`): a work area for its files and commands "
                          "(never your home itself, / or a system directory)")
    mcp.add_argument("--timeout", type=_positive, default=120.0, metavar="SECONDS",
                     help="longest wait for one reply, a person's confirmation included (default 120)")
    mcp.set_defaults(func=cmd_mcp)


def cmd_hook_claude_code(args: argparse.Namespace) -> int:
    from app.agent.claude_code import run_hook

    try:
        return run_hook(sys.stdin, sys.stdout, sys.stderr, socket_path=args.socket, timeout=args.timeout,
                        mode=args.mode, agent=args.agent)
    except Exception as err:  # a crash must still refuse the call: exit 2 blocks it in Claude Code
        print(f"deskgate hook failed ({type(err).__name__}: {err}); the tool call is refused", file=sys.stderr)
        return 2


def cmd_mcp(args: argparse.Namespace) -> int:
    try:
        from app.agent.mcp_server import run_mcp
    except ModuleNotFoundError as err:
        if not (err.name or "").startswith(("mcp", "mcp_types")):
            raise
        print("deskgate mcp: the MCP SDK is not installed: pip install 'deskgate[mcp]'", file=sys.stderr)
        return 2

    import logging

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    project = args.project.resolve() if args.project is not None else None
    return run_mcp(socket_path=args.socket, agent=args.agent, timeout=args.timeout, project=project)
