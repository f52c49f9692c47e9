"""The `deskgate` command. Each family of subcommands lives in its own module and registers itself here."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is not imported for it: `deskgate kill` starts like a small program
if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["main"]

# Subcommand modules, in help order. Each has `register(subparsers)`, setting `func(args) -> int`.
_MODULES = ("app.cli.gate", "app.cli.serve", "app.cli.client", "app.cli.log", "app.cli.agent", "app.cli.extra")
# Subcommands run many times a minute (Claude Code runs the hook before every tool call) or in a hurry (kill),
# and the one module that registers each: their parser is built from that module alone, so they never import
# the gate, the audit log or Qt to describe subcommands nobody asked for. Their options and help are the same.
_FAST = {
    "hook": "app.cli.agent", "mcp": "app.cli.agent",
    "act": "app.cli.client", "kill": "app.cli.client", "resume": "app.cli.client", "pause": "app.cli.client",
    "unpause": "app.cli.client", "status": "app.cli.client", "grants": "app.cli.client",
    "revoke": "app.cli.client", "check": "app.cli.gate", "explain": "app.cli.gate",
}


def build_parser(modules: tuple[str, ...] = _MODULES) -> argparse.ArgumentParser:
    import argparse
    import importlib

    from app import __version__

    parser = argparse.ArgumentParser(prog="deskgate", description="A desktop supervisor for AI agents.")
    parser.add_argument("--version", action="version", version=f"deskgate {__version__}")
    parser.set_defaults(func=None)  # each subcommand sets its own
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv == ["--version"]:
        from app import __version__

        print(f"deskgate {__version__}")
        return 0
    from app.cli.quick import parse

    args: Any = parse(argv)  # the hook and the control commands, read without argparse
    if args is None:
        fast = _FAST.get(argv[0]) if argv else None
        parser = build_parser((fast,) if fast else _MODULES)
        args = parser.parse_args(argv)
        if args.func is None:
            parser.print_help()
            return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    import multiprocessing

    multiprocessing.freeze_support()  # a bundled deskgate is also the assessment worker (app/daemon/assessor.py)
    sys.exit(main())
