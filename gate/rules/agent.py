"""Rules: agent-level (confidence, app/window mismatch, risk score, self-protection)."""

from __future__ import annotations

from collections.abc import Sequence

from gate.model import Hit
from gate.rules.base import Context, Rule

RULES: tuple[Rule, ...] = ()
# Rules the engine evaluates after the catalogue, over its hits (see `score_risk`).
META_RULES: tuple[Rule, ...] = ()


def score_risk(ctx: Context, hits: Sequence[Hit]) -> Hit | None:
    """Combine category, confidence, action type and recent rejections into a risk score."""
    return None
