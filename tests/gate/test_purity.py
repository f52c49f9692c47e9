"""The gate is a library: it imports and runs with no Qt, no display, no database."""

import json
import os
import subprocess
import sys

FORBIDDEN = ("PySide6", "pynput", "pyautogui", "mss", "pywinctl", "sqlite3", "sqlite_utils", "Xlib", "app", "ui")


def test_gate_imports_and_assesses_without_display_or_qt():
    code = (
        "import json, sys\n"
        "from gate import SafetyGate, action_from_dict\n"
        "g = SafetyGate()\n"
        "for a in ({'type': 'shell', 'command': 'rm -rf /'}, {'type': 'click', 'x': 1, 'y': 2},\n"
        "          {'type': 'type', 'text': 'x', 'target': {'label': 'Password'}},\n"
        "          {'type': 'navigate', 'url': 'https://example.com'},\n"
        "          {'type': 'file_read', 'path': '~/.ssh/id_rsa'}):\n"
        "    g.assess(action_from_dict(a))\n"
        "g.explain(action_from_dict({'type': 'key', 'keys': ['ctrl', 's']}))\n"
        "print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["QT_QPA_PLATFORM"] = ""
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    loaded = set(json.loads(r.stdout.strip().splitlines()[-1]))
    assert not loaded & set(FORBIDDEN), loaded & set(FORBIDDEN)
