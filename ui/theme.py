"""Colours and small style helpers shared by the dialog, tray and viewer (one place for each colour)."""

from __future__ import annotations

import html

__all__ = [
    "DECISION_COLORS",
    "RISK_COLORS",
    "RISK_TEXT_ON",
    "decision_color",
    "diff_colors",
    "is_dark",
    "muted_text",
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


def is_dark(palette: object) -> bool:
    """Whether a QPalette's window is dark (text is then light): pick colours that read on it."""
    from PySide6.QtGui import QPalette

    return palette.color(QPalette.ColorRole.Window).lightness() < 128  # type: ignore[attr-defined]


def diff_colors(palette: object) -> dict[str, str]:
    """Added / removed / hunk-header colours for a diff, readable on the palette's base colour."""
    if is_dark(palette):
        return {"add": "#81c784", "del": "#ef9a9a", "hunk": "#90caf9"}
    return {"add": "#1b5e20", "del": "#b71c1c", "hunk": "#0d47a1"}


def muted_text(palette: object) -> str:
    """The palette's placeholder-text colour (a quiet grey in light and dark themes), as #rrggbb."""
    from PySide6.QtGui import QPalette

    return palette.color(QPalette.ColorRole.PlaceholderText).name()  # type: ignore[attr-defined]
