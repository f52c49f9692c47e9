"""Shell findings about a line that starts the same thing over and over in the background (read from the whole line;
gate/rules/shell_harvest.py calls `line`).

- A busy loop (`while true; do :; done`, `while :; do ...; done`, `until false`) with no pause in it, started in
  the background from a counted loop (`for i in {1..100}; do (while true; do :; done) & done`): one processor
  burnt per turn, the machine made unusable. A loop that waits (`sleep`, `read`, `wait`) is a watcher and passes.
- A desktop program (a terminal, a browser, an office suite, a file manager) started in the background each turn
  of a counted loop (`for n in $(seq 50); do xterm & done`): windows opened until the session chokes,
  which no task asks for. Parallel work over files (`for f in *.log; do gzip "$f" & done; wait`) passes.

Both ask (`confirm.shell.system-disruption`); the endless `for` of thousands of jobs is gate/rules/shell_catalogue.py's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.shell import Finding, ShellAnalysis

__all__ = ["line"]

Add = Callable[[Finding], None]

# a loop counted by numbers, not over files or items: `{1..10}`, `$(seq 10)`, `for ((i=0; i<10; i++))`
_COUNTED = re.compile(r"\bfor\s+(?:\w+\s+in\s+(?:\{\d+\.\.\d+(?:\.\.\d+)?\}|\$\(\s*seq\b[^)]*\)|`seq\b[^`]*`|"
                      r"(?:\d+\s+){2,}\d+)|\(\([^)]*\)\))\s*;?\s*do\b")
# a loop with no end and no pause, put in the background as a whole (a subshell, a group or the loop itself)
_BUSY_BACKGROUND = re.compile(r"(?:while\s+(?:true|:|1|\[\s*1\s*\])|until\s+false)\s*;\s*do\b"
                              r"(?P<body>[^()]{0,120}?)\bdone\s*[)}]?\s*(?:;\s*\}\s*)?&(?!&)")
_PAUSES = re.compile(r"\b(?:sleep|read|wait|timeout|inotifywait|select)\b")
# desktop programs that open a window each time they start
_WINDOWED = re.compile(
    r"(?:^|[;&|(\s])(?:gnome-terminal|konsole|xterm|xfce4-terminal|mate-terminal|tilix|terminator|alacritty|kitty|"
    r"wezterm|urxvt|lxterminal|google-chrome(?:-stable)?|chromium(?:-browser)?|firefox|microsoft-edge|brave-browser|"
    r"opera|vivaldi|libreoffice|soffice|gedit|code|nautilus|thunar|dolphin|gimp|vlc|xdg-open|open\s+-n(?:a)?)"
    r"\b[^;&|]{0,160}?(?<![&>])&(?!&)")


def line(analysis: ShellAnalysis, add: Add) -> None:
    """The findings of the module docstring, for the line as a whole."""
    src = analysis.source
    if "&" not in src or "do" not in src:
        return
    for m in _BUSY_BACKGROUND.finditer(src):
        if not _PAUSES.search(m.group("body")) and ("for" in src[:m.start()] or "while" in src[:m.start()]):
            add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                        "a loop starts busy loops in the background, one per turn: every processor is burnt",
                        m.group(0)[:200]))
            return
    counted = _COUNTED.search(src)
    if counted is None:
        return
    body = src[counted.end():]
    m = _WINDOWED.search(body)
    if m is not None:
        add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                    "a counted loop starts a desktop program in the background each turn: window after window "
                    "is opened", src[:200]))
