"""Fixtures for the widget tests (offscreen Qt: see tests/conftest.py)."""

from __future__ import annotations

import pytest
from ui_support import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
