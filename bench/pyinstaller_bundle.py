"""Build the PyInstaller bundle (packaging/deskgate.spec) and smoke-test it. A bench script, not a test.

    .venv/bin/python bench/pyinstaller_bundle.py [--keep DIR]

Installs PyInstaller into this venv if it is missing, builds into a temp dir, then runs the bundled
`deskgate`: `--version`, `check` on a few actions (the answers must match the source tree's gate),
`policy show` (resources read through importlib.resources inside the bundle), `docs policy-reference`,
`do --dry-run`, and an asset lookup through ui.icons.get_asset. Then, on a real X desktop (Xvfb + JWM,
as the desktop tests start it): the bundled `doctor` must pass its display and pynput checks, and the
bundled `serve` (with its kill hotkey listening through pynput) must click and type into a real window,
driven by the bundled `deskgate act` found through DESKGATE_SOCKET. Reports build time, bundle size and
each smoke result. Exit status 1 when the build or any smoke test fails.

Not a CI test: the build alone takes 20-60 s and the bundle is ~230 MB; run it before a release.
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


def _source_version() -> str:
    sys.path.insert(0, str(ROOT))
    from app import __version__

    return __version__


def _desktop_smoke(exe: Path, env: dict[str, str], work: Path) -> list[str]:
    """The bundle on a real X desktop: doctor's display checks, then click and type into a real window."""
    sys.path.insert(0, str(ROOT))
    from tests.app.winapp_driver import WinApp
    from tests.conftest import _start_desktop

    failures: list[str] = []
    desktop, procs = _start_desktop()
    env = {**env, "DISPLAY": desktop.display, "XDG_SESSION_TYPE": "x11", "QT_QPA_PLATFORM": "xcb",
           "XDG_RUNTIME_DIR": str(work / "run")}
    (work / "run").mkdir(mode=0o700, exist_ok=True)
    server = window = None
    try:
        r = subprocess.run([str(exe), "doctor", "--json"], capture_output=True, text=True, env=env, timeout=120)
        checks = {c["name"]: c for c in json.loads(r.stdout)["checks"]} if r.stdout.strip() else {}
        for name in ("display", "x connection", "window manager", "pynput backend"):
            status = checks.get(name, {}).get("status")
            print(f"    doctor {name:<16} {status}: {checks.get(name, {}).get('detail', r.stderr.strip()[-200:])}")
            if status != "ok":
                failures.append(f"bundled doctor: {name} is {status}")

        sock = Path(tempfile.mkdtemp(prefix="dg-")) / "dg.sock"  # AF_UNIX paths are short
        (work / "policy.toml").write_text("[loop]\nthreshold = 50\n")
        env["DESKGATE_SOCKET"] = str(sock)  # the server and every client below find each other through it
        server = subprocess.Popen([str(exe), "serve", "--headless", "--db", str(work / "audit.db"),
                                   "--policy", str(work / "policy.toml")], env=env, stdout=subprocess.DEVNULL,
                                  stderr=open(work / "serve.log", "w"))
        end = time.monotonic() + 60
        while not sock.exists() and server.poll() is None and time.monotonic() < end:
            time.sleep(0.1)
        log_text = (work / "serve.log").read_text()
        if not sock.exists():
            return [*failures, f"bundled serve did not start:\n{log_text[-3000:]}"]
        if "kill switch: ctrl+alt+shift+k" not in log_text:
            time.sleep(1)
            log_text = (work / "serve.log").read_text()
        if "kill switch: ctrl+alt+shift+k" not in log_text:
            failures.append(f"bundled serve has no kill hotkey (pynput):\n{log_text[-2000:]}")
        window = WinApp(desktop, "Bundle smoke", 150, 150)
        desktop.xdotool("windowactivate", "--sync", str(window.wid), check=False)
        time.sleep(0.5)  # the supervisor's cached active window follows the window manager's notification
        steps = [({"type": "click", "x": window.edit[0], "y": window.edit[1]}, None),
                 ({"type": "type", "text": "from the bundle"}, "text from the bundle"),
                 ({"type": "click", "x": window.button[0], "y": window.button[1]}, "clicked from the bundle")]
        for action, line in steps:
            r = subprocess.run([str(exe), "act", json.dumps(action), "--json"], capture_output=True, text=True,
                               env=env, timeout=60)
            verdict = json.loads(r.stdout).get("verdict") if r.stdout.strip() else None
            if verdict != "executed":
                failures.append(f"act {action['type']}: {verdict} {r.stdout.strip()[:300]} {r.stderr.strip()[:300]}")
                break
            if line is not None:
                try:
                    window.expect(line, timeout=10)
                except AssertionError as err:
                    failures.append(f"act {action['type']} executed but the window did not see it: {err}")
                    break
        else:
            print("    click, type, click through the bundled supervisor reached the real window")
    finally:
        if window is not None:
            window.close()
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        for p in reversed(procs):
            p.terminate()
            p.wait(5)
        shutil.rmtree(desktop.workdir, ignore_errors=True)
    return failures


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
        r = run("--version")
        if r.returncode != 0 or _source_version() not in r.stdout:
            failures.append(f"--version: {r.stdout.strip()} {r.stderr.strip()}")
        failures += _desktop_smoke(exe, env, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print("smoke tests:", "all passed" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
