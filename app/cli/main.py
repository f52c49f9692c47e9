"""The `deskgate` command. Each family of subcommands lives in its own module and registers itself here."""

from __future__ import annotations

import argparse
import sys

__all__ = ["main"]

# Subcommand modules, in help order. Each has `register(subparsers)`, setting `func(args) -> int`.
_MODULES = ("app.cli.gate", "app.cli.serve", "app.cli.client", "app.cli.log", "app.cli.agent", "app.cli.extra")


def build_parser() -> argparse.ArgumentParser:
    import importlib

    from app import __version__

    parser = argparse.ArgumentParser(prog="deskgate", description="A desktop supervisor for AI agents.")
    parser.add_argument("--version", action="version", version=f"deskgate {__version__}")
    parser.set_defaults(func=None)  # each subcommand sets its own
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
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
