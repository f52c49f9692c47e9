"""A scripted agent (no model) showing deskgate's three answers on a small shop window.

It opens examples/shop_app.py, then asks deskgate, step by step, to:
  1. fill in the Name field            → allow   (executed)
  2. type a password                   → confirm (denied headless, unless a person approves)
  3. press "Place order"               → confirm (irreversible: a person must say yes)
  4. run `rm -rf ~`                    → block   (nobody can approve it)
and prints each verdict. Step 4 is sent with execute=false: deskgate only decides, and never runs it.

    python examples/demo_agent.py --serve                   # its own headless supervisor (temp files)
    python examples/demo_agent.py --serve --ask-in-terminal # … and you answer the confirmations
    python examples/demo_agent.py                           # a running `deskgate run` / `deskgate serve`
    python examples/demo_agent.py --socket /path/to/deskgate.sock

Needs a desktop (DISPLAY): the shop window is real and so are the clicks and keystrokes.
"""

from __future__ import annotations

import argparse
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from app.agent.client import Client, DeskgateError

HERE = Path(__file__).resolve().parent


class ShopWindow:
    """examples/shop_app.py as a subprocess; its stdout lines arrive in a queue."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(HERE / "shop_app.py")], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        ready = self.wait_for("ready", 30)
        if ready is None:
            self.close()
            raise SystemExit("the shop window did not open (is there a DISPLAY?)")
        nx, ny, px, py, bx, by = map(int, ready.split()[1:7])
        self.name, self.password, self.button = (nx, ny), (px, py), (bx, by)

    def _pump(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, prefix: str, timeout: float) -> str | None:
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line.startswith(prefix):
                return line
        return None

    def seen(self, settle: float = 0.5) -> list[str]:
        time.sleep(settle)
        out = []
        while not self.lines.empty():
            out.append(self.lines.get())
        return out

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def show(step: str, reply: dict) -> None:
    """One readable line per verdict."""
    decision, verdict = reply.get("decision", "?"), reply.get("verdict", "?")
    by = reply.get("decided_by", "")
    rules = ", ".join(reply.get("rules") or [])
    line = f"{step:<34} {decision.upper():<8} → {verdict}"
    if verdict != "executed":
        line += f" (by {by})"
    if reply.get("reason") and decision != "allow":
        line += f": {reply['reason']}"
    if rules:
        line += f" [{rules}]"
    print(line, flush=True)


def run_demo(dg: Client, shop: ShopWindow) -> None:
    dg.hello("demo-agent")
    name = {"label": "Name", "role": "textbox"}
    password = {"label": "Password", "role": "textbox"}
    show("click the Name field", dg.act({"type": "click", "x": shop.name[0], "y": shop.name[1], "target": name}))
    show("type the name", dg.act({"type": "type", "text": "Ada Lovelace", "target": name}))
    show("click the Password field",
         dg.act({"type": "click", "x": shop.password[0], "y": shop.password[1], "target": password}))
    show("type the password", dg.act({"type": "type", "text": "hunter2", "target": password}))
    show("press Place order", dg.act({"type": "click", "x": shop.button[0], "y": shop.button[1],
                                      "target": {"label": "Place order", "role": "button"}}))
    # execute=false: deskgate decides and logs, and the agent would run it itself; it never runs here
    show("run `rm -rf ~`", dg.act({"type": "shell", "command": "rm -rf ~"}, execute=False))
    print("the shop window saw:", "; ".join(shop.seen()) or "nothing", flush=True)


def serve_here(ask_in_terminal: bool) -> tuple[object, Path]:
    """A headless supervisor in this process, every file in a temp dir."""
    from app.root.runtime import build_runtime

    root = Path(tempfile.mkdtemp(prefix="deskgate-demo-"))
    args = argparse.Namespace(headless=True, socket=root / "dg.sock", db=root / "audit.db", policy=None, preset=None,
                              ask_in_terminal=ask_in_terminal, approver_rules=None, kill_hotkey="none", verbose=False)
    runtime = build_runtime(args)
    threading.Thread(target=runtime.server.serve_forever, daemon=True).start()
    print(f"deskgate supervisor started (audit log {root / 'audit.db'})", flush=True)
    return runtime, root / "dg.sock"


def main() -> int:
    ap = argparse.ArgumentParser(description="deskgate demo: allow, confirm and block on a shop window")
    ap.add_argument("--socket", type=Path, help="a running supervisor's socket (default: deskgate's own)")
    ap.add_argument("--serve", action="store_true", help="start a headless supervisor in this process")
    ap.add_argument("--ask-in-terminal", action="store_true", help="with --serve: you answer confirmations here")
    args = ap.parse_args()
    if not os.environ.get("DISPLAY"):
        print("demo_agent: needs a desktop (no DISPLAY)", file=sys.stderr)
        return 2
    runtime, socket = serve_here(args.ask_in_terminal) if args.serve else (None, args.socket)
    shop = ShopWindow()
    try:
        with Client(socket, timeout=120) as dg:
            run_demo(dg, shop)
    except DeskgateError as err:
        print(f"demo_agent: deskgate said no to the whole session: {err}", file=sys.stderr)
        return 1
    finally:
        shop.close()
        if runtime is not None:
            runtime.stop()  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main())
