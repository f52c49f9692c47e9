"""Every decision the gate makes on a set of actions, one line each: the check that a speed-up changed nothing.

    .venv/bin/python bench/gate_decisions.py CORPUS.jsonl ... > after.tsv       (rows of the corpus format)
    .venv/bin/python bench/gate_decisions.py --record actions.pickle [tests/gate]   (the actions the tests assess)
    .venv/bin/python bench/gate_decisions.py --replay actions.pickle [CORPUS.jsonl ...] > after.tsv

Each line is `where<TAB>decision<TAB>rules<TAB>reason<TAB>risk`. Run it on the tree before a change and on
the tree after (`PYTHONPATH` naming each: this script judges the tree it names), then compare the two
outputs: any line that differs is a verdict the change altered. `--record` runs pytest on the given test
directories with `SafetyGate.assess` watched, and keeps every distinct (policy, action, observation) it was
asked about (a pickle: read it only where it was written, unpickling runs code). `--replay` assesses each of
those again, one gate per policy, with no history. Rows without an `id` (probe files) are numbered by line.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import pickle
import sys
from collections.abc import Iterator

if not os.environ.get("PYTHONPATH"):  # (set: the tree it names is the one judged, this script run from anywhere)
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.corpus import to_action
from gate import SafetyGate, action_from_dict
from gate.model import Assessment


def _line(where: str, a: Assessment) -> str:
    return f"{where}\t{a.decision.value}\t{','.join(a.rules)}\t{a.reason}\t{int(a.risk)}"


def corpus_lines(path: str, gate: SafetyGate) -> Iterator[str]:
    with open(path, encoding="utf-8") as fh:
        for i, text in enumerate(fh):
            if not text.strip():
                continue
            row = json.loads(text)
            action, observation = to_action(row)
            yield _line(f"{path}:{i}:{row.get('id', '')}", gate.assess(action_from_dict(action), observation))


def record(out: str, test_dirs: list[str]) -> int:
    import pytest

    from gate import engine

    seen: set[bytes] = set()
    kept: list[bytes] = []
    assess = engine.SafetyGate.assess

    def watched(self: SafetyGate, action, observation=None, history=None):  # type: ignore[no-untyped-def]
        key = pickle.dumps((self.compiled.policy, action, observation))
        if key not in seen:
            seen.add(key)
            kept.append(key)
        return assess(self, action, observation, history)

    engine.SafetyGate.assess = watched  # type: ignore[method-assign]
    try:
        status = pytest.main([*test_dirs, "-p", "no:cacheprovider", "-q"])
    finally:
        engine.SafetyGate.assess = assess  # type: ignore[method-assign]
    with open(out, "wb") as fh:
        pickle.dump(kept, fh)
    print(f"{len(kept)} distinct actions recorded in {out} (pytest exit status {int(status)})", file=sys.stderr)
    return int(status)


def replay_lines(path: str) -> Iterator[str]:
    with open(path, "rb") as fh:
        kept = pickle.load(fh)  # (our own file, written by --record here)
    gates: dict[bytes, SafetyGate] = {}
    for i, key in enumerate(kept):
        policy, action, observation = pickle.loads(key)
        pk = pickle.dumps(policy)
        gate = gates.get(pk)
        if gate is None:
            gate = gates[pk] = SafetyGate(policy)
        try:
            yield _line(f"recorded:{i}", gate.assess(action, observation))
        except Exception as e:  # (an error is compared like a verdict)
            yield f"recorded:{i}\terror\t{type(e).__name__}: {e}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="corpus files (or, with --record, test directories)")
    ap.add_argument("--record", metavar="FILE", help="run pytest on the given directories and keep what it assessed")
    ap.add_argument("--replay", metavar="FILE", help="assess the actions a --record kept")
    args = ap.parse_args(argv)
    if args.record:
        return record(args.record, args.paths or ["tests/gate"])
    gate = SafetyGate()
    out = sys.stdout
    for path in args.paths:
        for line in corpus_lines(path, gate):
            out.write(line + "\n")
    if args.replay:
        for line in replay_lines(args.replay):
            out.write(line + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
