"""Colours and small style helpers shared by the dialog, tray and viewer (one place for each colour)."""

from __future__ import annotations

import html

__all__ = [
    "DECISION_COLORS",
    "RISK_COLORS",
    "RISK_TEXT_ON",
    "decision_color",
    "risk_badge_html",
    "risk_color",
]

# Risk: low green, medium amber, high orange, critical red. Dark enough to read as text on white.
RISK_COLORS: dict[str, str] = {
    "low": "#2e7d32",
    "medium": "#b58100",
    "high": "#e65100",
    "critical": "#c62828",
}
# Text colour on a badge of that risk colour.
RISK_TEXT_ON: dict[str, str] = dict.fromkeys(("low", "medium", "high", "critical"), "#ffffff")

DECISION_COLORS: dict[str, str] = {
    "allow": "#2e7d32",
    "confirm": "#b58100",
    "block": "#c62828",
}

UNKNOWN_COLOR = "#6d4c41"
# Background of highlighted (risky) spans in a shell command, by risk.
SPAN_BACKGROUNDS: dict[str, str] = {
    "low": "#dcedc8",
    "medium": "#ffecb3",
    "high": "#ffccbc",
    "critical": "#ffcdd2",
}


def _risk_name(risk: object) -> str:
    label = getattr(risk, "label", None)
    text = label if isinstance(label, str) else str(risk)
    return text.lower()


def risk_color(risk: object) -> str:
    return RISK_COLORS.get(_risk_name(risk), UNKNOWN_COLOR)


def decision_color(decision: object) -> str:
    return DECISION_COLORS.get(str(getattr(decision, "value", decision)).lower(), UNKNOWN_COLOR)


def risk_badge_html(risk: object) -> str:
    name = _risk_name(risk)
    bg = RISK_COLORS.get(name, UNKNOWN_COLOR)
    fg = RISK_TEXT_ON.get(name, "#ffffff")
    return (f'<span style="background-color:{bg}; color:{fg}; font-weight:bold;">'
            f"&nbsp;{html.escape(name.upper())} RISK&nbsp;</span>")
