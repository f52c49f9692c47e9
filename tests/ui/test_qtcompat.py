"""Emitting signals from Python must not drain `True`'s reference count (PySide6 6.12 defect)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal

from ui.qtcompat import emit


class _Source(QObject):
    changed = Signal(object)


def test_emit_keeps_the_reference_count_of_true(qapp) -> None:
    src = _Source()
    got: list[object] = []
    src.changed.connect(got.append)
    emit(src.changed, 0)  # the first call calibrates
    before = sys.getrefcount(True)
    for i in range(500):
        emit(src.changed, i)
    assert abs(sys.getrefcount(True) - before) <= 2  # unpatched, it would be 500 lower
    assert got[-1] == 499 and len(got) == 501
