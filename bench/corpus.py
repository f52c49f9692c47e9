"""Read a labelled corpus (the format of ../shared/eval/dev.jsonl) into gate actions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gate.model import Action, Observation, action_from_dict


@dataclass(frozen=True)
class Case:
    id: str
    category: str
    expected: str
    acceptable: tuple[str, ...]
    action: Action
    observation: Observation
    source: str = ""  # where the case comes from ("github:owner/repo:path@commit", "pkg==1.0", ...)


def to_action(row: dict[str, Any]) -> tuple[dict[str, Any], Observation]:
    """One corpus row → (action dict in wire protocol v1, what deskgate would observe)."""
    kind = row["kind"]
    url = row.get("url_context") or ""
    target = {"label": row["target_label"]} if row.get("target_label") else None
    if kind == "shell":
        action: dict[str, Any] = {"type": "shell", "command": row["command"]}
    elif kind == "click":
        action = {"type": "click", "x": 400, "y": 300}
    elif kind == "type":
        action = {"type": "type", "text": row["text"]}
    elif kind == "key":
        keys = row["keys"] if isinstance(row["keys"], list) else row["keys"].split("+")
        # (an upper-case letter is that letter with Shift: lazygit's P is not its p)
        action = {"type": "key", "keys": [k.strip() if len(k.strip()) == 1 else k.strip().lower() for k in keys]}
    elif kind == "file":
        op = row["operation"]
        action = {"type": f"file_{op}", "path": row["path"]}
        if op == "write":
            action["content"] = row.get("content", "")
        if op == "move":
            action["to"] = row["to"]
    elif kind == "navigate":
        action = {"type": "navigate", "url": row["url"]}
    else:
        raise ValueError(f"unknown corpus kind {kind!r}")
    if target and action["type"] in ("click", "type"):
        action["target"] = target
    if url and action["type"] != "navigate":
        action["url"] = url
    # what deskgate would read of the desktop itself: the page, and the active window and app where a row names them
    return action, Observation(url=url, window_title=str(row.get("window_title") or ""), app=str(row.get("app") or ""))


def read_corpus(path: str | Path) -> Iterator[Case]:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            action, obs = to_action(row)
            yield Case(row["id"], row.get("category", ""), row["expected"], tuple(row["acceptable"]),
                       action_from_dict(action), obs, row.get("source", ""))
