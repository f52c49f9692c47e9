"""An Anthropic computer-use loop whose every action goes through deskgate.

Each `tool_use` block of the `computer` tool is translated (app.agent.adapters.from_anthropic), run
through deskgate (one `act` per step, stopping at the first refusal) and answered with a `tool_result`
(a refusal is `is_error` with deskgate's reason, so the model reads why).

    python examples/anthropic_loop.py                 # canned tool_use blocks, no model, no network
    python examples/anthropic_loop.py --live "Open the text editor"   # needs `anthropic` + ANTHROPIC_API_KEY

Both need a running supervisor (`deskgate run`, or `deskgate serve --headless`; `--socket` to pick one).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from app.agent.adapters import Pointer, from_anthropic, run, to_tool_result
from app.agent.client import Client, DeskgateError


def _use(n: int, **tool_input: object) -> dict:
    return {"type": "tool_use", "id": f"toolu_{n:02d}", "name": "computer", "input": tool_input}


# tool_use blocks as the model sends them (computer_20250124); the last three are refused or unknown.
CANNED = [
    _use(1, action="screenshot"),
    _use(2, action="mouse_move", coordinate=[640, 300]),
    _use(3, action="cursor_position"),
    _use(4, action="scroll", coordinate=[640, 300], scroll_direction="down", scroll_amount=2),
    _use(5, action="key", text="ctrl+alt+Delete"),
    _use(6, action="type", text="AKIAIOSFODNN7EXAMPLE"),
    _use(7, action="zoom", region=[0, 0, 10, 10]),
]


def answer(dg: Client, block: dict, pointer: Pointer) -> dict:
    """One tool_use block → its tool_result. Nothing the adapter cannot express is sent."""
    try:
        replies = run(dg, from_anthropic(block["input"], pointer=pointer), pointer=pointer)
    except (ValueError, DeskgateError) as err:
        return to_tool_result(block["id"], err)
    return to_tool_result(block["id"], replies)


def summary(result: dict) -> str:
    parts = [c["text"] if c["type"] == "text" else f"<{c['source']['media_type']} image>" for c in result["content"]]
    return ("ERROR " if result.get("is_error") else "ok    ") + " ".join(parts)


def canned(dg: Client) -> None:
    pointer = Pointer()
    for block in CANNED:
        result = answer(dg, block, pointer)
        print(f"{block['id']} {json.dumps(block['input'])}\n    → {summary(result)}", flush=True)


def live(dg: Client, task: str) -> None:  # pragma: no cover - needs the network and an API key
    import anthropic

    width, height = dg.observe()["screen_width"], dg.observe()["screen_height"]
    tool = {"type": "computer_20250124", "name": "computer", "display_width_px": width, "display_height_px": height}
    model, pointer = anthropic.Anthropic(), Pointer()
    messages: list[dict] = [{"role": "user", "content": task}]
    while True:
        response = model.beta.messages.create(model=os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-4-5"),
                                              max_tokens=1024, tools=[tool], messages=messages,
                                              betas=["computer-use-2025-01-24"])
        messages.append({"role": "assistant", "content": [b.model_dump() for b in response.content]})
        uses = [b.model_dump() for b in response.content if b.type == "tool_use"]
        if not uses:
            print("".join(b.text for b in response.content if b.type == "text"))
            return
        results = [answer(dg, block, pointer) for block in uses]
        for block, result in zip(uses, results, strict=True):
            print(f"{block['id']} {json.dumps(block['input'])} → {summary(result)[:200]}", flush=True)
        messages.append({"role": "user", "content": results})


def main() -> int:
    ap = argparse.ArgumentParser(description="Anthropic computer-use tool calls through deskgate")
    ap.add_argument("--socket", type=Path, help="the supervisor's socket (default: deskgate's own)")
    ap.add_argument("--live", metavar="TASK", help="ask the model (needs `anthropic` and ANTHROPIC_API_KEY)")
    args = ap.parse_args()
    with Client(args.socket, timeout=120) as dg:
        dg.hello("anthropic-loop")
        if args.live:
            if not os.environ.get("ANTHROPIC_API_KEY"):
                print("anthropic_loop: --live needs ANTHROPIC_API_KEY", file=sys.stderr)
                return 2
            live(dg, args.live)
        else:
            canned(dg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
