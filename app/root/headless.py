"""`deskgate serve`: the supervisor behind the local socket, without the tray (headless).

Logs to stderr; SIGINT / SIGTERM stop it cleanly (pending confirmations are denied, sessions closed, the
socket removed, the audit log closed).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import Any

from app.root.runtime import build_runtime

__all__ = ["run"]

log = logging.getLogger("deskgate.serve")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from app.audit.writer import AuditError
    from app.daemon.server import ServerError
    from gate import PolicyError

    if not args.headless:
        log.warning("`serve` is the headless supervisor; `deskgate run` starts the tray app")
    try:
        runtime = build_runtime(args)
    except (PolicyError, ValueError) as err:
        print(f"deskgate serve: {err}", file=sys.stderr)
        return 2
    except (AuditError, ServerError, OSError) as err:
        print(f"deskgate serve: {err}", file=sys.stderr)
        return 1

    stopping = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        if stopping.is_set():
            return
        stopping.set()
        log.info("%s: stopping", signal.Signals(signum).name)
        # server.stop() waits for the accept loop, which runs on this (main) thread: stop from another
        threading.Thread(target=runtime.server.stop, name="deskgate-stop", daemon=True).start()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        runtime.server.serve_forever()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        runtime.stop("deskgate stopped")
        log.info("stopped")
    return 0
