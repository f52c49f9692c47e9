"""The `serve` and `run` subcommands: their options only. What they run is the composition root's
(app/root/headless.py and app/root/tray.py), imported when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["register", "serve"]

DEFAULT_KILL_HOTKEY = "ctrl+alt+shift+k"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "serve", help="run the supervisor on the local socket (headless: no tray)",
        description="Run the supervisor: agents connect over the local socket; every action is gated, "
                    "asked about where needed, executed if allowed and logged.")
    p.add_argument("--headless", action="store_true",
                   help="no tray or dialog (the only mode `serve` has for now; `deskgate run` has the tray)")
    p.add_argument("--socket", type=Path, help="socket path (default: $XDG_RUNTIME_DIR/deskgate/deskgate.sock)")
    p.add_argument("--db", type=Path, help="audit database (default: the user data dir)")
    p.add_argument("--policy", type=Path, help="policy file (default: the user config dir's policy.toml if any)")
    p.add_argument("--preset", choices=("balanced", "kiosk", "power"), help="policy preset")
    ask = p.add_mutually_exclusive_group()
    ask.add_argument("--ask-in-terminal", action="store_true",
                     help="ask confirmations on this terminal (y / N / s(ession) / x = deny and stop)")
    ask.add_argument("--approver-rules", type=Path, metavar="FILE",
                     help="answer confirmations from a TOML rule file (unmatched: deny)")
    p.add_argument("--kill-hotkey", default=None, metavar="COMBO",
                   help=f"global kill-switch hotkey when a display is available (default: the policy's "
                        f"desktop.kill_hotkey, {DEFAULT_KILL_HOTKEY}; 'none' to turn it off)")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug detail")
    p.set_defaults(func=serve)

    p = subparsers.add_parser("run", help="start deskgate in the system tray (supervisor, dialogs, audit viewer)",
                              description="Start the supervisor with its tray icon, confirmation dialogs, audit "
                                          "viewer and kill switch. Needs a desktop session; see `serve --headless`.")
    p.add_argument("--socket", type=Path, help="socket path (default: $XDG_RUNTIME_DIR/deskgate/deskgate.sock)")
    p.add_argument("--db", type=Path, help="audit database (default: the user data dir)")
    p.add_argument("--policy", type=Path, help="policy file (default: the user config dir's policy.toml if any)")
    p.add_argument("--preset", choices=("balanced", "kiosk", "power"), help="policy preset")
    p.add_argument("--kill-hotkey", default=None, metavar="COMBO",
                   help=f"global kill-switch hotkey (default: the policy's desktop.kill_hotkey, "
                        f"{DEFAULT_KILL_HOTKEY}; 'none' to turn it off)")
    p.add_argument("--no-takeover", action="store_true",
                   help="do not make agent mouse/keyboard actions wait while you use the mouse or keyboard")
    p.add_argument("--takeover-quiet", type=float, default=None, metavar="SECONDS",
                   help="seconds of quiet after your own mouse/keyboard use before agent input continues "
                        "(default: the policy's desktop.takeover_quiet_s, 3)")
    p.add_argument("--tray-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for a system tray at startup (default 10)")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug detail")
    p.set_defaults(func=_run_tray)


def serve(args: argparse.Namespace) -> int:
    """`deskgate serve`: the composition root's headless run (app/root/headless.py)."""
    from app.root.headless import run

    return run(args)


def _run_tray(args: argparse.Namespace) -> int:
    """`deskgate run`: the composition root's tray run. Qt is imported only there, so the other commands
    start without it."""
    from app.root.tray import run

    return run(args)


