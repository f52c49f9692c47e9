"""Colours and small style helpers shared by the dialog, tray and viewer (one place for each colour).

Every colour comes in a light-theme and a dark-theme tone; which one is used follows the application's
palette at the moment it is asked for (`is_dark()`: the window background is darker than its text), so
a desktop in dark mode gets tones that read on dark backgrounds. Neutral colours (muted text, chart
background and axes) are taken from the palette itself rather than chosen here.
"""

from __future__ import annotations

import html

from PySide6.QtGui import QColor, QGuiApplication, QPalette

from gate.model import Risk

__all__ = [
    "DECISION_COLORS",
    "DECISION_COLORS_DARK",
    "RISK_COLORS",
    "RISK_COLORS_DARK",
    "RISK_TEXT_ON",
    "SPAN_BACKGROUNDS",
    "SPAN_BACKGROUNDS_DARK",
    "decision_badge_color",
    "decision_color",
    "diff_colors",
    "is_dark",
    "muted_text",
    "palette_color",
    "risk_badge_html",
    "risk_color",
    "span_colors",
    "warning_color",
]

# Risk: low green, medium amber, high orange, critical red. Dark enough to read as text on white.
RISK_COLORS: dict[str, str] = {
    "low": "#2e7d32",
    "medium": "#946800",
    "high": "#c43e00",
    "critical": "#c62828",
}
# The same scale, light enough to read as text on a dark window.
RISK_COLORS_DARK: dict[str, str] = {
    "low": "#81c784",
    "medium": "#ffd54f",
    "high": "#ffb74d",
    "critical": "#ef9a9a",
}
# Text colour on a badge of that risk colour (the badge keeps the saturated light-theme tone).
RISK_TEXT_ON: dict[str, str] = dict.fromkeys(("low", "medium", "high", "critical"), "#ffffff")

DECISION_COLORS: dict[str, str] = {
    "allow": "#2e7d32",
    "confirm": "#946800",
    "block": "#c62828",
}
DECISION_COLORS_DARK: dict[str, str] = {
    "allow": "#81c784",
    "confirm": "#ffd54f",
    "block": "#ef9a9a",
}

UNKNOWN_COLOR = "#6d4c41"
UNKNOWN_COLOR_DARK = "#bcaaa4"
# Background of highlighted (risky) spans in a shell command, by risk (text in RISK_COLORS).
SPAN_BACKGROUNDS: dict[str, str] = {
    "low": "#dcedc8",
    "medium": "#ffecb3",
    "high": "#ffccbc",
    "critical": "#ffcdd2",
}
# On a dark window: deep tints of the same hues (text in RISK_COLORS_DARK).
SPAN_BACKGROUNDS_DARK: dict[str, str] = {
    "low": "#1b3a1e",
    "medium": "#3d3100",
    "high": "#4a2100",
    "critical": "#4a1414",
}


def is_dark(palette: QPalette | None = None) -> bool:
    """The palette (default: the application's) draws light text on a dark window."""
    if palette is None:
        if QGuiApplication.instance() is None:  # no application yet (text rendered for a test): light
            return False
        palette = QGuiApplication.palette()
    window = palette.color(QPalette.ColorRole.Window)
    text = palette.color(QPalette.ColorRole.WindowText)
    return window.lightness() < text.lightness()


def palette_color(role: QPalette.ColorRole, palette: QPalette | None = None) -> QColor:
    return (palette or QGuiApplication.palette()).color(role)


def muted_text(palette: QPalette | None = None) -> str:
    """Secondary text (rule ids, axis labels): the palette's placeholder tone, readable in either mode."""
    return palette_color(QPalette.ColorRole.PlaceholderText, palette).name()


def _risk_name(risk: object) -> str:
    """A `Risk`, or its label as the audit log stores it ("high")."""
    return (risk.label if isinstance(risk, Risk) else str(risk)).lower()


def risk_color(risk: object, palette: QPalette | None = None) -> str:
    if is_dark(palette):
        return RISK_COLORS_DARK.get(_risk_name(risk), UNKNOWN_COLOR_DARK)
    return RISK_COLORS.get(_risk_name(risk), UNKNOWN_COLOR)


def decision_color(decision: object, palette: QPalette | None = None) -> str:
    name = str(decision).lower()  # a Decision is a StrEnum: its str is its value, as the audit log stores it
    if is_dark(palette):
        return DECISION_COLORS_DARK.get(name, UNKNOWN_COLOR_DARK)
    return DECISION_COLORS.get(name, UNKNOWN_COLOR)


def decision_badge_color(decision: object) -> str:
    """Background of a decision badge with white text: the saturated tone, in either mode."""
    return DECISION_COLORS.get(str(decision).lower(), UNKNOWN_COLOR)


def warning_color(palette: QPalette | None = None) -> str:
    """A warning written as text (an unverifiable host, a queued request)."""
    return decision_color("block", palette)


def span_colors(risk: str, palette: QPalette | None = None) -> tuple[str, str]:
    """(background, text) of a highlighted span of that risk."""
    if is_dark(palette):
        return SPAN_BACKGROUNDS_DARK[risk], RISK_COLORS_DARK[risk]
    return SPAN_BACKGROUNDS[risk], RISK_COLORS[risk]


def risk_badge_html(risk: object) -> str:
    # the badge is white on a saturated colour, which reads on light and dark windows alike
    name = _risk_name(risk)
    bg = RISK_COLORS.get(name, UNKNOWN_COLOR)
    fg = RISK_TEXT_ON.get(name, "#ffffff")
    return (f'<span style="background-color:{bg}; color:{fg}; font-weight:bold;">'
            f"&nbsp;{html.escape(name.upper())} RISK&nbsp;</span>")


def diff_colors(palette: object) -> dict[str, str]:
    """Added / removed / hunk-header colours for a diff, readable on the palette's base colour."""
    if is_dark(palette):
        return {"add": "#81c784", "del": "#ef9a9a", "hunk": "#90caf9"}
    return {"add": "#1b5e20", "del": "#b71c1c", "hunk": "#0d47a1"}

