"""What opening a URL does (gate/rules/navigate.py) is read from every navigation: no URL may make its word
patterns or its decoding backtrack or blow up. Each shape fills a URL to the wire limit (4,096 characters)
with the start of an operation or of a record that never completes. It runs in a child process under a
generous watchdog: a linear pass takes milliseconds, a quadratic one far longer, so the watchdog detects a
hang, not a speed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SHAPES = {
    "verbs without objects": "'/' + 'delete-' * 700",
    "objects without verbs": "'/' + 'locks-door-' * 400",
    "camel humps": "'/' + 'deleteA' * 580",
    "query of verbs": "'/x?' + '&'.join(f'op{i}=withdraw' for i in range(300))",
    "phone-like digits": "'/x?t=' + '1%202%203%20' * 350",
    "at signs": "'/x?t=' + 'a%40' * 1000",
    "street-like words": "'/x?t=' + '12%20oak%20' * 400",
    "nested percent signs": "'/x?t=' + '%2525' * 800",
    "an unclosed JSON list": "'/x?t=' + '%5B%7B' * 680",
    "base64 run": "'/x?t=' + 'QUJD' * 1000",
    "fragment of verbs": "'/#' + 'unlock/' * 580",
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_reading_a_url_is_linear(shape: str) -> None:
    code = ("from gate import SafetyGate\n"
            "from gate.model import Observation, action_from_dict\n"
            "gate = SafetyGate()\n"
            f"url = ('https://x.example' + {SHAPES[shape]})[:4096]\n"
            "for page in ('', 'https://y.example/'):\n"
            "    gate.assess(action_from_dict({'type': 'navigate', 'url': url}), Observation(url=page))\n")
    try:
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading a 4,096-character {shape!r} URL did not finish: a pattern backtracks")
