"""Property tests over the gate: shell analysis, assessment and redaction never raise on any input.

Shell analysis runs in a worker subprocess: tree-sitter-bash is C, and a crash in it is a segfault that
would take pytest down with it. Here a dead or stuck worker is a test failure naming the input, and the
worker is restarted for the next one.

Example counts are small here (CI); bench/fuzz_hypothesis_long.py runs the same properties at scale by
setting DESKGATE_FUZZ_EXAMPLES. `CALLS` counts the inputs each property saw.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gate import History, SafetyGate, action_from_dict
from gate.model import Decision, Observation, Rect
from gate.redact import approval_key, canonical_json, sanitize_action, sanitize_data

EXAMPLES = int(os.environ.get("DESKGATE_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
CALLS: Counter[str] = Counter()
GATE = SafetyGate()
ROOT = Path(__file__).resolve().parents[2]
PER_INPUT_S = 5.0  # one analysis taking longer than this is a failure (the gate is on the hot path)

# -- the shell worker ---------------------------------------------------------------------------

WORKER = r"""
import json, sys, time
from gate import SafetyGate, action_from_dict
from gate.model import Observation
from gate.shell import analyse
gate = SafetyGate()
term = Observation(window_title="me@host: ~/src", app="gnome-terminal")
for line in sys.stdin:
    text = json.loads(line)
    t0 = time.perf_counter()
    a = analyse(text)
    a.commands, a.features, a.complex, a.text  # touch what the rules read
    decisions = [gate.assess(action_from_dict({"type": "shell", "command": text})).decision.value]
    if len(text) <= 100_000:
        decisions.append(gate.assess(action_from_dict({"type": "type", "text": text}), term).decision.value)
    print(json.dumps({"ms": (time.perf_counter() - t0) * 1000, "d": decisions}), flush=True)
"""


class ShellWorker:
    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        return subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)

    def run(self, text: str) -> dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(text) + "\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], PER_INPUT_S + 10)  # +10: the first import
        line = proc.stdout.readline() if ready else ""
        if not line:
            proc.kill()
            proc.wait()
            err = proc.stderr.read()[-2000:] if proc.stderr else ""
            self.proc = None
            what = f"died with {proc.returncode}" if ready else "timed out"
            raise AssertionError(f"shell analysis {what} on {text!r}\n{err}")
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(10)
            self.proc = None


_WORKER = ShellWorker()


@pytest.fixture(scope="module", autouse=True)
def _worker():
    yield
    _WORKER.close()


# Shell-flavoured text: operators, quotes, expansions, and the Unicode that broke parsers before
# (private use, unassigned, surrogate-adjacent, bidi, zero-width, full-width).
SHELL_PIECES = ["rm", " -rf ", "/", "{", "}", "$(", ")", "`", "'", '"', "|", "&&", ";", "&", ">", "<<", "<<<",
                "$'\\x72m'", "\\", "\n", "${IFS}", "$", "(", "[[", "]]", "eval ", "bash -c ", "base64 -d",
                "\u202e", "\u200b", "\ue000", "\U000f0000", "\ufffd", "ｒｍ", "\x00", "\x1b[31m", "#", "*", "?",
                "a=", "<(", "function f", "case x in", "esac", "for i in", "do ", "done", "if ", "then ", "fi"]
shell_text = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(st.sampled_from(SHELL_PIECES), st.text(max_size=4)), max_size=40).map("".join),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=60),
)


@FUZZ
@given(shell_text)
@example("{\ue000")  # private use after `{` crashed tree-sitter-bash's scanner before gate/shell.py _clean
@example("${\U000f0000}")
@example("$'\\c'")  # a bare \c ending an ANSI-C string raised IndexError (found by bench/fuzz_atheris.py)
@example("printf '\\c' | sh")
@example("x" * 100_000)
@example("$(" * 2000)
@example("'" + "\\" * 5000)
def test_shell_analysis_never_crashes_and_is_bounded(text: str) -> None:
    CALLS["shell.analyse"] += 1
    out = _WORKER.run(text)
    assert out["ms"] < PER_INPUT_S * 1000, (text[:200], out["ms"])
    assert set(out["d"]) <= {"allow", "confirm", "block"}


# -- valid actions -------------------------------------------------------------------------------

coord = st.integers(-100_000, 100_000)
short = st.text(max_size=60)
target = st.one_of(st.none(), st.fixed_dictionaries({}, optional={"label": short, "role": short, "name": short}))


def _with(kind: str, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    optional = {"target": target, "confidence": st.floats(0, 1), "note": short, "url": short,
                "expect": st.fixed_dictionaries({}, optional={"app": short, "window": short})}
    return st.fixed_dictionaries({"type": st.just(kind), **fields},
                                 optional={k: v for k, v in optional.items() if k not in fields})


actions = st.one_of(
    _with("click", x=coord, y=coord, button=st.sampled_from(["left", "right", "middle"]), clicks=st.integers(1, 3)),
    _with("move", x=coord, y=coord),
    _with("drag", path=st.lists(st.tuples(coord, coord), min_size=2, max_size=5)),
    _with("scroll", dx=st.integers(-1000, 1000), dy=st.integers(-1000, 1000)),
    _with("type", text=st.one_of(short, shell_text)),
    _with("key", keys=st.lists(st.one_of(st.sampled_from(["ctrl", "alt", "super", "delete", "enter", "f4", "l",
                                                          "shift", "tab", "escape", "q", "w"]),
                                         st.text(min_size=1, max_size=8)), min_size=1, max_size=4)),
    _with("wait", seconds=st.floats(0, 60)),
    _with("screenshot"),
    _with("shell", command=st.text(max_size=80)),  # arbitrary-text parsing is the worker's job above
    _with("shell", argv=st.lists(short, min_size=1, max_size=5),
          env=st.dictionaries(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True), short, max_size=3)),
    _with("file_read", path=short),
    _with("file_write", path=short, content=st.text(max_size=200)),
    _with("file_delete", path=short),
    _with("file_move", path=short, to=short),
    _with("navigate", url=st.one_of(short, st.sampled_from(["https://example.com", "javascript:alert(1)",
                                                           "file:///etc/shadow", "http://[::1", "data:,x"]))),
    _with("open_app", app=st.text(min_size=1, max_size=30)),
    _with("system", name=st.text(min_size=1, max_size=20), params=st.dictionaries(short, short, max_size=2)),
    _with("tool", name=st.text(min_size=1, max_size=20), input=st.dictionaries(short, short, max_size=3)),
)
rects = st.builds(Rect, coord, coord, st.integers(0, 5000), st.integers(0, 5000))
observations = st.builds(Observation, window_title=short, app=st.one_of(short, st.just("gnome-terminal")),
                         url=short, screen_width=st.integers(0, 8000), screen_height=st.integers(0, 8000),
                         protected=st.lists(rects, max_size=2).map(tuple), protected_active=st.booleans())


def _safe_action(data: dict[str, Any]) -> Any:
    # shell commands in valid actions are arbitrary text: parse them in the worker first, so a parser crash
    # shows up as a failed test rather than killing this process in the assess call below
    if data["type"] == "shell" and "command" in data:
        _WORKER.run(data["command"])
    if data["type"] == "type":
        _WORKER.run(data["text"])
    return action_from_dict(data)


@FUZZ
@given(st.lists(actions, min_size=1, max_size=4), observations, st.booleans())
def test_assess_never_raises_and_decides(batch: list[dict[str, Any]], obs: Observation, use_history: bool) -> None:
    CALLS["gate.assess"] += len(batch)
    history = History() if use_history else None
    parsed = [_safe_action(a) for a in batch]
    for action in parsed:
        a = GATE.assess(action, obs, history)
        assert a.decision in (Decision.ALLOW, Decision.CONFIRM, Decision.BLOCK)
        assert 0.0 <= a.confidence <= 1.0
        if a.decision is not Decision.ALLOW:
            assert a.rules and a.reason
    plan = GATE.assess_plan(parsed, obs)
    assert plan.assessment.decision in (Decision.ALLOW, Decision.CONFIRM, Decision.BLOCK)
    assert len(plan.steps) == len(parsed)


@FUZZ
@given(actions, observations)
def test_a_protected_area_never_takes_agent_input(data: dict[str, Any], obs: Observation) -> None:
    """Whatever the action, input that would land in deskgate's own window is never allowed."""
    CALLS["gate.protected"] += 1
    action = _safe_action(data)
    if action.type in ("key", "type"):
        active = Observation(window_title=obs.window_title, app=obs.app, protected_active=True)
        assert GATE.assess(action, active).decision is Decision.BLOCK
    if action.type == "click":
        inside = Observation(window_title=obs.window_title, app=obs.app, screen_width=200_000,
                             screen_height=200_000, protected=(Rect(action.x, action.y, 1, 1),))
        assert GATE.assess(action, inside).decision is Decision.BLOCK


# -- redaction -----------------------------------------------------------------------------------

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
secrets = st.one_of(
    st.text(ALNUM, min_size=36, max_size=36).map(lambda s: "ghp_" + s),
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=16, max_size=16).map(lambda s: "AKIA" + s),
    st.text(ALNUM, min_size=32, max_size=48).map(lambda s: "sk-" + s),
    st.text(ALNUM, min_size=24, max_size=30).map(lambda s: "glpat-" + s),
    st.text(ALNUM, min_size=20, max_size=30).map(lambda s: "xoxb-" + s),
    st.tuples(st.text(ALNUM, min_size=10, max_size=20), st.text(ALNUM, min_size=10, max_size=20),
              st.text(ALNUM, min_size=16, max_size=30)).map(lambda t: f"eyJ{t[0]}.eyJ{t[1]}.{t[2]}"),
)
# Where a secret sits in a string: anything before and after, cut off by a separator.
framing = st.tuples(st.text(max_size=30), st.sampled_from([" ", "=", ":", "'", '"', "\n", "(", ","]),
                    st.sampled_from([" ", "'", '"', "\n", ")", ";", ","]), st.text(max_size=30))
# Free text typed in a credential field is a secret however it looks.
any_password = st.text(min_size=1, max_size=40)


def _leaks(out: Any, secret: str) -> bool:
    return secret in canonical_json(out)


@FUZZ
@given(secrets, framing, st.sampled_from(["shell", "shell-argv", "type", "navigate", "tool", "system", "env",
                                          "file_write", "key-name"]))
def test_sanitize_never_lets_a_recognisable_secret_through(secret: str, frame: tuple, where: str) -> None:
    CALLS["redact.sanitize"] += 1
    before, left, right, after = frame
    framed = f"{before}{left}{secret}{right}{after}"
    action: dict[str, Any] = {
        "shell": {"type": "shell", "command": framed},
        "shell-argv": {"type": "shell", "argv": ["curl", "-H", framed, "https://x.example"]},
        "type": {"type": "type", "text": framed},
        "navigate": {"type": "navigate", "url": f"https://x.example/?q={left}{secret}{right}"},
        "tool": {"type": "tool", "name": "t", "input": {"note": framed, "nested": {"deep": [framed]}}},
        "system": {"type": "system", "name": "s", "params": {"value": framed}},
        "env": {"type": "shell", "command": "deploy", "env": {"ANYTHING": framed}},
        "file_write": {"type": "file_write", "path": "/tmp/x", "content": framed},
        "key-name": {"type": "tool", "name": "t", "input": {"api_token": secret}},
    }[where]
    out = sanitize_action(action)
    assert not _leaks(out, secret), (where, out)
    assert not _leaks(sanitize_data(action), secret) or where in ("env", "file_write")
    approval_key(action)  # never raises either


@FUZZ
@given(any_password, st.sampled_from(["text"]), actions)
def test_a_field_named_for_redaction_never_appears(password: str, field: str, other: dict[str, Any]) -> None:
    CALLS["redact.field"] += 1
    out = sanitize_action({"type": "type", "text": password, "target": {"label": "Password"}}, {field})
    assert out["text"]["redacted"] is True and out["text"]["len"] == len(password)
    # and redaction of arbitrary valid actions never raises
    sanitize_action(other, {"text", "content", "input.password"})


def test_a_bare_control_escape_is_analysed_in_process() -> None:
    # regression (bench/fuzz_atheris.py): `\c` at the end of $'...' raised IndexError out of assess
    for command in ("$'\\c'", "bc $'`\\c'", "echo -e 'a\\c' | sh", "printf '\\c'"):
        a = GATE.assess(action_from_dict({"type": "shell", "command": command}))
        assert a.decision in (Decision.ALLOW, Decision.CONFIRM, Decision.BLOCK)
