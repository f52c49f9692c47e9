"""Drive tests/app/winapp.py (a real window on the test display) from a test: its stdout, line by line."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

WINAPP = Path(__file__).resolve().parent / "winapp.py"


class WinApp:
    """The window's events arrive in a queue; `edit` and `button` are the screen centres of its widgets."""

    def __init__(self, desktop, title: str, x: int = 200, y: int = 150) -> None:
        self.title = title
        self.proc = subprocess.Popen([sys.executable, str(WINAPP), "--title", title, "--x", str(x), "--y", str(y)],
                                     env=desktop.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        parts = self.expect("ready", timeout=30).split()
        self.wid = int(parts[1])
        ex, ey, ew, eh, bx, by, bw, bh = map(int, parts[2:10])
        self.edit = (ex + ew // 2, ey + eh // 2)
        self.button = (bx + bw // 2, by + bh // 2)

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def expect(self, prefix: str, timeout: float = 10.0) -> str:
        end = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{self.title}: no line starting {prefix!r}; saw {seen[-8:]!r}") from None
            seen.append(line)
            if line.startswith(prefix):
                return line

    def quiet(self, seconds: float) -> list[str]:
        """Lines that arrive within `seconds` other than focus changes (should be none after a refusal)."""
        time.sleep(seconds)
        out = []
        while not self.lines.empty():
            line = self.lines.get()
            if not line.startswith("focus"):
                out.append(line)
        return out

    @property
    def comm(self) -> str:
        return Path(f"/proc/{self.proc.pid}/comm").read_text().strip()

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
