"""Work around a reference-count defect in PySide6's `SignalInstance.emit()`.

In PySide6 6.12.0, `emit()` returns `True` without taking a reference to it, so every emit from Python
drops one reference to `True`; after a few thousand emits CPython aborts with "bool_dealloc". `emit()`
here measures the defect once at first use and, only if present, gives the reference back.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

from PySide6.QtCore import QObject, Signal

__all__ = ["emit"]

_fix: bool | None = None


class _Probe(QObject):
    ping = Signal()


def _measure() -> bool:
    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(8):
        probe.ping.emit()
    return sys.getrefcount(True) < before


def emit(signal: Any, *args: Any) -> None:
    """`signal.emit(*args)`, keeping `True`'s reference count intact on affected PySide6 versions."""
    global _fix
    if _fix is None:
        _fix = _measure()
        if _fix:  # the probe itself already dropped references: return them
            for _ in range(8):
                ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))
    result = signal.emit(*args)
    if _fix and isinstance(result, bool):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(result))
