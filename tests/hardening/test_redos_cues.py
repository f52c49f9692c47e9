"""The cue book (steering, consequences) and the data-out judge run on every label, typed text and URL an
agent sends: no input may make their patterns backtrack quadratically. Each shape repeats the start of a
cue, or a piece of what the data-out judge looks for, without ever completing it. The scan runs in a
child process with a generous watchdog: a linear scan of these takes well under a second, a quadratic
one minutes, so the watchdog detects a hang, not a speed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
N = 200_000

SHAPES = {
    "at signs": "'a@' * (N // 2)",
    "long local parts": "('x' * 63 + '@') * (N // 64)",
    "pair-like lines": "'ab:cd1!\\n' * (N // 8)",
    "digit runs": "'1 2 3 ' * (N // 6)",
    "press win r without paste": "'press win r ' * (N // 12)",
    "override verbs without rules": "'ignore the ' * (N // 11)",
    "chinese override verb": "'忽略' * (N // 2)",
    "password labels without values": "'password: ' * (N // 10)",
    "env secret lines": "'A_TOKEN=xxxx\\n' * (N // 13)",
    "click and a number": "'click 12 ' * (N // 9)",
    "key headers": "'-----BEGIN ' * (N // 11)",
    "base64 run": "'QUJD' * (N // 4)",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_cues_and_data_out_are_linear(shape: str) -> None:
    code = (f"N = {N}\ntext = {SHAPES[shape]}\n"
            "from gate.consequence import consequence\n"
            "from gate.dataout import carried, url_payload\n"
            "from gate.rules.gui import _text\n"
            "from gate.steering import steering\n"
            "from gate.urls import split_url\n"
            "carried(text)\n"
            "t = _text(text); steering(t.words, t.norm); consequence(t.words)\n"
            "url_payload(split_url('https://x.example/p?d=' + text[:4000]))\n")
    _finishes(code, f"judging a {N}-character {shape!r} input")


# The same malformed stretches the shell tests use, reaching the gate through other fields: text typed into a
# terminal is a command there, a git hook's content is a script, a manifest's is JSON, a label is read by the
# cue book and the blocklists. Every field, whole gate, at the largest size the field may hold (a label deskgate
# reads itself has no cap; 100 kB here).
FIELD_N = 99_000
FIELD_STRETCHES = ("'>' * N", "('a(' * N)[:N]", "('a $( ' * N)[:N]", "('[' * N)", "('a${ ' * N)[:N]")
FIELDS = {
    "typed into a terminal": "({'type': 'type', 'text': text + '\\n'}, "
                             "Observation(app='gnome-terminal-server', window_title='user@host: ~'))",
    "a click on a long label": "({'type': 'click', 'x': 1, 'y': 1}, Observation(pointer_label=text, "
                               "pointer_role='push button', label_source='accessibility', pointer_read=True))",
    "a git hook": "({'type': 'file_write', 'path': '.git/hooks/pre-commit', 'content': text}, None)",
    "a package manifest": "({'type': 'file_write', 'path': 'package.json', 'content': text}, None)",
}


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_the_whole_gate_is_linear_in_every_field(field: str) -> None:
    code = (f"N = {FIELD_N}\n"
            "from gate import SafetyGate\n"
            "from gate.model import Observation, action_from_dict\n"
            "gate = SafetyGate()\n"
            f"for k, shape in enumerate(({', '.join(FIELD_STRETCHES)})):\n"
            "    text = f'{k} ' + shape[:N]\n"
            f"    action, seen = {FIELDS[field]}\n"
            "    gate.assess(action_from_dict(action), seen)\n")
    _finishes(code, f"judging {FIELD_N}-character stretches in {field}")


def _finishes(code: str, what: str) -> None:
    """Run `code` in a fresh interpreter under a watchdog: a backtracking pattern shows as a hang."""
    try:
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what} did not finish: a pattern backtracks")
