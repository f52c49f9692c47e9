"""Redaction is linear in its input: time to sanitise adversarial shapes at N and 4·N characters.

    .venv/bin/python bench/redact_scaling.py [--n 50000]

Each shape is one that made a pattern rescan a long run from each of its positions (quadratic). The
ratio t(4N) / t(N) is ~4 for a linear scan and ~16 for a quadratic one; the baseline, measured in the
same run, is the same ratio for `str.lower` over the same text (a scan that is linear by construction).
Target: every ratio within 2× of the baseline's.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from gate import redact

SHAPES = {
    "keyword then a dashed run": lambda n: "pass " + "a-" * (n // 2),
    "scheme-like run": lambda n: "a+" * (n // 2) + "://x",
    "repeated keyword names": lambda n: "pass_" * (n // 5),
    "unclosed quoted values": lambda n: 'password="' * (n // 10),
    "repeated mysql": lambda n: "mysql " * (n // 6),
    "header without value end": lambda n: "authorization: " * (n // 15),
    "docker words": lambda n: "docker login " * (n // 13),
    "env assignments": lambda n: "A_TOKEN_" * (n // 8) + "=",
}


def _time(fn, text: str, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - start)
    return best


def _sanitise(text: str) -> None:
    redact.sanitize_action({"type": "shell", "command": text})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    n = parser.parse_args().n
    worst = 0.0
    for name, make in SHAPES.items():
        small, large = make(n), make(4 * n)
        base = max(_time(str.lower, large), 1e-9) / max(_time(str.lower, small), 1e-9)
        t_small, t_large = _time(_sanitise, small), _time(_sanitise, large)
        ratio = t_large / max(t_small, 1e-9)
        worst = max(worst, ratio / base)
        print(f"{name:28s} {n:>8,} chars {t_small * 1000:8.1f} ms   {4 * n:>8,} chars {t_large * 1000:8.1f} ms"
              f"   ratio {ratio:5.1f} (baseline {base:4.1f})")
    print(f"worst ratio / baseline: {worst:.2f}  target ≤ 2 (quadratic would be ~4)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
