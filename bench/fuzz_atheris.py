"""Coverage-guided fuzzing (atheris / libFuzzer) of the boundary: parse_request, the gate, shell analysis.

    .venv/bin/pip install atheris          # not a runtime dependency
    .venv/bin/python bench/fuzz_atheris.py -atheris_runs=200000 [-max_len=2048] [corpus_dir]

Each input is tried three ways: as a request line (parse_request; a parsed act/check/plan is then
assessed), as a shell command (analyse + assess as a shell action and as text typed into a terminal),
and as an action JSON object (action_from_json + assess). Anything but a typed request or a DeskgateError
/ ActionError is a crash: libFuzzer stops, prints the input and writes it to crash-<sha1>. A segfault in
tree-sitter is caught by libFuzzer itself the same way. Instrumented: app.protocol, gate.*.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

with atheris.instrument_imports(include=["app.protocol", "gate"]):
    from app.errors import DeskgateError
    from app.protocol import Act, Check, Plan, parse_request
    from gate import History, SafetyGate
    from gate.model import ActionError, Decision, Observation, action_from_dict, action_from_json
    from gate.shell import analyse

GATE = SafetyGate()
TERMINAL = Observation(window_title="me@host: ~", app="gnome-terminal")
DECISIONS = frozenset(Decision)


def _assess(action) -> None:
    for obs in (None, TERMINAL):
        a = GATE.assess(action, obs, History())
        if a.decision not in DECISIONS:
            raise AssertionError(f"decision {a.decision!r}")


def one_input(data: bytes) -> None:
    # 1. a request line
    try:
        req = parse_request(data)
    except DeskgateError:
        req = None
    if isinstance(req, Act | Check):
        _assess(req.action)
    elif isinstance(req, Plan):
        GATE.assess_plan(req.actions, TERMINAL)
    # 2. a shell command
    text = data.decode("utf-8", "replace")
    analyse(text)
    _assess(action_from_dict({"type": "shell", "command": text[:100_000]}))
    _assess(action_from_dict({"type": "type", "text": text[:100_000]}))
    # 3. an action object
    try:
        action = action_from_json(data)
    except ActionError:
        return
    _assess(action)


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
