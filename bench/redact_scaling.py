"""Redaction and the whole gate are linear in their input: adversarial shapes at growing sizes.

    .venv/bin/python bench/redact_scaling.py [--n 50000] [--gate-only]

Each shape is one that made a pattern rescan a long run from each of its positions (quadratic). The
ratio t(4N) / t(N) is ~4 for a linear scan and ~16 for a quadratic one; the baseline, measured in the
same run, is the same ratio for `str.lower` over the same text (a scan that is linear by construction).
Target: every ratio within 2× of the baseline's.

The second table is the whole gate (`SafetyGate.assess`: parse, every shell rule) plus redaction on
pipe-, quote- and bracket-heavy command strings, long malformed stretches (runs of redirections,
brackets left open) and other fields (typed text, a terminal line, a click label, file content) at
2, 4, 8 and 16 kB, the sizes an agent's request is
judged at on the server's own threads (from 8 kB in the worker process). Ratio t(16 kB) / t(2 kB): ~8
for a linear pass, ~64 for a quadratic one; the baseline is the same ratio for `str.lower`.
Target: ≤ 2× the baseline's ratio, and the 8 kB time well under a second.
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


GATE_SHAPES = {
    "curl pipeline": lambda n: ("curl h|" * (n // 7 + 1))[:n],
    "bare pipes": lambda n: ("a|" * (n // 2 + 1))[:n],
    "pipes then an open quote": lambda n: ("a|" * (n // 2 + 1))[:n - 1] + '"',
    "an open bracket then pipes": lambda n: "(" + ("a|" * (n // 2 + 1))[:n - 1],
    "nested brackets": lambda n: ("[(" * (n // 4) + ")]" * (n // 4))[:n],
    "quotes": lambda n: ("'a'\"b\"" * (n // 6 + 1))[:n],
    "substitutions": lambda n: ("$(a)" * (n // 4 + 1))[:n],
    "chained with && and ;": lambda n: ("a && b; " * (n // 8 + 1))[:n],
    # one long stretch with nothing to cut at, that the parser's error recovery took quadratic time on
    "a run of redirections": lambda n: ">" * n,
    "a run of input redirections": lambda n: "<" * n,
    "words opening subshells": lambda n: ("a(" * (n // 2 + 1))[:n],
    "unclosed subshells": lambda n: ("(a " * (n // 3 + 1))[:n],
    "words opening brackets": lambda n: ("a[" * (n // 2 + 1))[:n],
    "open test brackets": lambda n: ("[ " * (n // 2 + 1))[:n],
    "a here-document then redirections": lambda n: "cat <<E\nx\nE\n" + ">" * n,
    "subshells in an open bash -c": lambda n: "bash -c '" + ("a(" * (n // 2 + 1))[:n],
    "a dns name of slashes": lambda n: 'dig "$(x)' + "/" * n + '"',
    "pipes of one program": lambda n: ("powershell|" * (n // 11 + 1))[:n],
    "a repeated wrapper": lambda n: ("powershell " * (n // 11 + 1))[:n],
}

# other fields than a shell command, each with its shape: (what the agent sends, what deskgate observes)
FIELD_SHAPES = {
    "typed into a terminal: open substitutions": lambda n: (
        {"type": "type", "text": ("a $( " * (n // 5 + 1))[:n] + "\n"}, "terminal"),
    "typed text: redirections": lambda n: ({"type": "type", "text": ">" * n}, None),
    "click label: substitutions": lambda n: ({"type": "click", "x": 1, "y": 1}, ("a$(" * (n // 3 + 1))[:n]),
    "package.json nested arrays": lambda n: (
        {"type": "file_write", "path": "package.json", "content": "[" * n}, None),
    "git hook: variables": lambda n: (
        {"type": "file_write", "path": ".git/hooks/pre-commit", "content": ("a ${ " * (n // 5 + 1))[:n]}, None),
}
GATE_SIZES = (2048, 4096, 8192, 16384)


def _gate_table() -> float:
    from gate import SafetyGate
    from gate.model import Observation, action_from_dict

    gate = SafetyGate()

    rounds = iter(range(1_000_000))

    def judge(text: str) -> None:
        # a fresh string each round (a leading no-op that differs): the gate's caches must not answer
        action = {"type": "shell", "command": f": {next(rounds)}; {text}"}
        gate.assess(action_from_dict(action))
        redact.sanitize_action(action)

    def judge_field(shape: tuple[dict, object]) -> None:
        action, seen = dict(shape[0]), shape[1]
        if "text" in action:  # a fresh string each round, as above
            action["text"] = f"{next(rounds)} {action['text']}"
        elif "content" in action:
            action["content"] = f"{action['content']}{next(rounds)}"
        if seen == "terminal":
            observation = Observation(app="gnome-terminal-server", window_title="user@host: ~")
        elif isinstance(seen, str):  # the label deskgate read at the target (a web page can make it long)
            observation = Observation(pointer_label=f"{next(rounds)} {seen}", pointer_role="push button",
                                      label_source="accessibility", pointer_read=True)
        else:
            observation = None
        gate.assess(action_from_dict(action), observation)
        redact.sanitize_action(action)

    print("\nwhole gate + redaction, ms at " + " / ".join(f"{s // 1024} kB" for s in GATE_SIZES))
    worst = 0.0
    for name, make in GATE_SHAPES.items():
        texts = [make(s) for s in GATE_SIZES]
        times = [_time(judge, t, rounds=2) for t in texts]
        base = max(_time(str.lower, texts[-1]), 1e-9) / max(_time(str.lower, texts[0]), 1e-9)
        ratio = times[-1] / max(times[0], 1e-9)
        worst = max(worst, ratio / max(base, 1.0))
        cols = " ".join(f"{t * 1000:8.1f}" for t in times)
        print(f"{name:28s} {cols}   ratio {ratio:5.1f} (baseline {base:4.1f})")
    for name, make in FIELD_SHAPES.items():
        texts = [make(s) for s in GATE_SIZES]
        times = [_time(judge_field, t, rounds=2) for t in texts]
        ratio = times[-1] / max(times[0], 1e-9)
        worst = max(worst, ratio / 8)
        cols = " ".join(f"{t * 1000:8.1f}" for t in times)
        print(f"{name:28.28s} {cols}   ratio {ratio:5.1f}")
    print(f"worst gate ratio / baseline: {worst:.2f}  target ≤ 2 (quadratic would be ~8)")
    return worst


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
    parser.add_argument("--gate-only", action="store_true", help="only the whole-gate table")
    args = parser.parse_args()
    n = args.n
    if args.gate_only:
        _gate_table()
        return 0
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
    _gate_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
