"""Assets: one resolver for files under resources/ (source tree, installed package or PyInstaller bundle)
and the tray's state icons."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from PySide6.QtGui import QIcon, QPixmap

__all__ = ["STATES", "get_asset", "state_icon", "state_pixmap"]

STATES: tuple[str, ...] = ("active", "asking", "paused", "killed")


def _resources_root() -> Path:
    # Inside a PyInstaller bundle data files live under sys._MEIPASS; the spec copies resources/ there.
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is not None:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def get_asset(relative: str) -> Path:
    """The path of `resources/<relative>`. Raises FileNotFoundError so a missing asset is loud, not blank."""
    path = _resources_root() / relative
    if not path.is_file():
        raise FileNotFoundError(f"deskgate asset missing: {path}")
    return path


@functools.cache
def state_icon(state: str) -> QIcon:
    """The tray icon for a supervisor state (active / asking / paused / killed). Unknown states → killed,
    so a state the tray does not understand never looks reassuring."""
    name = state if state in STATES else "killed"
    icon = QIcon(str(get_asset(f"icons/{name}.svg")))
    if icon.isNull():
        raise RuntimeError(f"cannot load icon {name}.svg (is the Qt SVG plugin installed?)")
    return icon


def state_pixmap(state: str, size: int = 32) -> QPixmap:
    return state_icon(state).pixmap(size, size)
