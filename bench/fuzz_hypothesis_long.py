"""The hardening fuzz properties at scale: every property of tests/hardening/test_fuzz_*.py, many inputs.

    .venv/bin/python bench/fuzz_hypothesis_long.py [--examples N]

Sets DESKGATE_FUZZ_EXAMPLES (default 12,000 per property: about 130,000 inputs over the 11 properties)
before importing the test modules, runs each property, and reports per property: inputs seen, seconds,
and the failure (with hypothesis's minimal example) if any. Shell analysis runs in the test module's
worker subprocess, so a parser segfault is reported as a failure, not a crash of this script.
Exit status 1 when any property failed.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("test_fuzz_protocol.py", "test_fuzz_gate.py")


def _load(name: str):
    path = ROOT / "tests" / "hardening" / name
    spec = importlib.util.spec_from_file_location(f"hardening_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", type=int, default=12_000, help="examples per property (default 12000)")
    args = ap.parse_args(argv)
    os.environ["DESKGATE_FUZZ_EXAMPLES"] = str(args.examples)
    sys.path.insert(0, str(ROOT))
    total_inputs = 0
    failures = 0
    t_all = time.perf_counter()
    print(f"{'property':<62} {'inputs':>9} {'seconds':>8}  result")
    for name in MODULES:
        module = _load(name)
        for attr in sorted(dir(module)):
            fn = getattr(module, attr)
            if not attr.startswith("test_") or not hasattr(fn, "hypothesis"):
                continue
            before = sum(module.CALLS.values())
            t0 = time.perf_counter()
            try:
                fn()
                result = "ok"
            except BaseException as err:  # a property failure; report and go on to the next
                failures += 1
                result = f"FAILED: {type(err).__name__}: {str(err)[:400]}"
                traceback.print_exc(limit=3)
            seen = sum(module.CALLS.values()) - before
            total_inputs += seen
            print(f"{name[:-3] + '::' + attr:<62} {seen:>9} {time.perf_counter() - t0:>8.1f}  {result}", flush=True)
        worker = getattr(module, "_WORKER", None)
        if worker is not None:
            worker.close()
    print(f"\ntotal: {total_inputs} inputs in {time.perf_counter() - t_all:.0f} s, {failures} failing properties")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
