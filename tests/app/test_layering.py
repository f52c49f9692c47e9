"""The rooms' layering: the import-linter contracts in pyproject.toml hold, and what runs without a desktop
(the CLI, `deskgate serve`'s composition root) does not load Qt or ui/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    r = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "0 broken" in r.stdout


def test_the_cli_and_the_headless_root_start_without_qt() -> None:
    code = (
        "import json, sys\n"
        "from app.cli.main import build_parser\n"
        "build_parser()\n"
        "import app.root.headless, app.root.runtime, app.root.policy_files\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    loaded = set(json.loads(r.stdout.strip().splitlines()[-1]))
    assert not loaded & {"PySide6", "shiboken6", "ui"}, loaded & {"PySide6", "shiboken6", "ui"}
