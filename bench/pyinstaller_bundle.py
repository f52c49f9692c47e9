"""Build the PyInstaller bundle (packaging/deskgate.spec) and smoke-test it. A bench script, not a test.

    .venv/bin/python bench/pyinstaller_bundle.py [--keep DIR]

Installs PyInstaller into this venv if it is missing, builds into a temp dir, then runs the bundled
`deskgate`: `check` on a few actions (the answers must match the source tree's gate), `policy show`
(resources read through importlib.resources inside the bundle), `docs policy-reference`, `do --dry-run`,
and an asset lookup through ui.icons.get_asset. Reports build time, bundle size and each smoke result.
Exit status 1 when the build or any smoke test fails.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "deskgate.spec"

ACTIONS = [
    {"type": "shell", "command": "rm -rf /"},
    {"type": "shell", "command": "ls -la"},
    {"type": "click", "x": 10, "y": 10, "target": {"label": "Place order", "role": "button"}},
    {"type": "system", "name": "volume", "params": {"level": 40}},
    {"type": "navigate", "url": "https://paypa1.com/login"},
]


def _ensure_pyinstaller() -> None:
    if importlib.util.find_spec("PyInstaller") is None:
        print("installing pyinstaller into", sys.prefix, flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "pyinstaller"], check=True)


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def _source_answers() -> list[dict]:
    sys.path.insert(0, str(ROOT))
    from gate import SafetyGate, action_from_dict, load_policy

    gate = SafetyGate(load_policy())
    return [{k: v for k, v in gate.assess(action_from_dict(a)).to_dict().items() if k in ("decision", "rules")}
            for a in ACTIONS]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", metavar="DIR", help="build here and keep the result (default: a temp dir)")
    args = ap.parse_args()
    _ensure_pyinstaller()
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="deskgate-bundle-"))
    work.mkdir(parents=True, exist_ok=True)
    failures: list[str] = []
    try:
        started = time.perf_counter()
        build = subprocess.run(
            [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--log-level", "WARN",
             "--distpath", str(work / "dist"), "--workpath", str(work / "build")],
            cwd=ROOT, capture_output=True, text=True)
        build_s = time.perf_counter() - started
        if build.returncode != 0:
            print(build.stdout[-4000:], build.stderr[-8000:], sep="\n")
            print(f"build FAILED after {build_s:.1f} s")
            return 1
        bundle = work / "dist" / "deskgate"
        exe = bundle / "deskgate"
        print(f"build: {build_s:.1f} s; bundle {bundle}: {_size(bundle) / 1e6:.1f} MB "
              f"({sum(1 for _ in bundle.rglob('*'))} files)")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env["HOME"] = str(work / "home")  # a fresh user: no policy file, no audit log

        def run(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess:
            t = time.perf_counter()
            r = subprocess.run([str(exe), *argv], input=stdin, capture_output=True, text=True, env=env,
                               cwd=work, timeout=120)
            print(f"  deskgate {' '.join(argv)[:60]:<60} exit {r.returncode}  {time.perf_counter() - t:.2f} s")
            return r

        r = run("check", stdin="".join(json.dumps(a) + "\n" for a in ACTIONS))
        got = [{k: v for k, v in json.loads(line).items() if k in ("decision", "rules")}
               for line in r.stdout.splitlines()]
        if r.returncode != 0 or got != _source_answers():
            failures.append(f"check: bundle answers {got} differ from the source tree's\n{r.stderr}")
        for line, action in zip(got, ACTIONS, strict=False):
            print(f"    {action['type']:<9} → {line['decision']:<8} {', '.join(line['rules'])}")
        r = run("policy", "show")
        if r.returncode != 0 or "default_mode" not in r.stdout:
            failures.append(f"policy show: {r.stderr.strip()}")
        r = run("policy", "show", "--preset", "kiosk")
        if r.returncode != 0 or "kiosk" not in r.stdout:
            failures.append(f"policy show --preset kiosk: {r.stderr.strip()}")
        r = run("docs", "policy-reference")
        if r.returncode != 0 or r.stdout != (ROOT / "docs" / "policy-reference.md").read_text(encoding="utf-8"):
            failures.append(f"docs policy-reference differs from the committed file: {r.stderr.strip()}")
        r = run("do", "mute and lock the screen", "--dry-run")
        if r.returncode != 0 or '"lock"' not in r.stdout:
            failures.append(f"do --dry-run: {r.stderr.strip()}")
        r = run("--help")
        for sub in ("serve", "run", "act", "do", "doctor", "log"):
            if sub not in r.stdout:
                failures.append(f"subcommand {sub} missing from the bundle's --help")
        for name in ("icons/active.svg", "policy.toml", "presets/kiosk.toml"):
            # PyInstaller 6 puts data under _internal/ (= sys._MEIPASS); 5 put it next to the executable
            if not any((base / "resources" / name).is_file() for base in (bundle / "_internal", bundle)):
                failures.append(f"resources/{name} is not in the bundle")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print("smoke tests:", "all passed" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
