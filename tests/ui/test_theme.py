"""ui.theme follows the palette: light and dark desktops both get colours that read on their background."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage, QPalette

from ui import theme
from ui.describe import shell_highlight
from ui.viewer import TimelineChart

RISKS = ("low", "medium", "high", "critical")


def _palette(window: str, text: str, base: str) -> QPalette:
    p = QPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        p.setColor(group, QPalette.ColorRole.Window, QColor(window))
        p.setColor(group, QPalette.ColorRole.WindowText, QColor(text))
        p.setColor(group, QPalette.ColorRole.Base, QColor(base))
        p.setColor(group, QPalette.ColorRole.Text, QColor(text))
        p.setColor(group, QPalette.ColorRole.PlaceholderText, QColor("#9e9e9e" if base < "#8" else "#616161"))
    return p


LIGHT = _palette("#efefef", "#000000", "#ffffff")
DARK = _palette("#2b2b2b", "#f0f0f0", "#1e1e1e")


def _luminance(color: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    q = QColor(color)
    return 0.2126 * channel(q.red()) + 0.7152 * channel(q.green()) + 0.0722 * channel(q.blue())


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_dark_is_read_from_the_palette(qapp) -> None:
    assert theme.is_dark(DARK) and not theme.is_dark(LIGHT)


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_text_colours_read_on_their_background(qapp, palette) -> None:
    window = palette.color(QPalette.ColorRole.Window).name()
    for risk in RISKS:
        assert contrast(theme.risk_color(risk, palette), window) >= 3.0, risk
        background, text = theme.span_colors(risk, palette)
        assert contrast(text, background) >= 3.0, risk
    for decision in ("allow", "confirm", "block"):
        assert contrast(theme.decision_color(decision, palette), window) >= 3.0, decision
    # badges are white on the saturated tone in both modes
    for decision in ("allow", "block"):
        assert contrast("#ffffff", theme.decision_badge_color(decision)) >= 4.5


def test_dark_tones_differ_from_light_ones(qapp) -> None:
    assert theme.risk_color("critical", DARK) != theme.risk_color("critical", LIGHT)
    assert theme.muted_text(DARK) != theme.muted_text(LIGHT)


def test_application_palette_drives_rendered_html(qapp) -> None:
    before = qapp.palette()
    try:
        qapp.setPalette(DARK)
        dark_html = shell_highlight("rm -rf ~/projects")[0]
        qapp.setPalette(LIGHT)
        light_html = shell_highlight("rm -rf ~/projects")[0]
    finally:
        qapp.setPalette(before)
    assert any(bg in dark_html for bg in theme.SPAN_BACKGROUNDS_DARK.values())
    assert not any(bg in light_html for bg in theme.SPAN_BACKGROUNDS_DARK.values())


def test_chart_background_follows_the_palette(qapp) -> None:
    chart = TimelineChart()
    chart.resize(300, 100)
    chart.set_data([(0.0, "allow", 3), (3600.0, "block", 1)], 3600)
    for palette, dark in ((DARK, True), (LIGHT, False)):
        chart.setPalette(palette)
        image = QImage(chart.size(), QImage.Format.Format_RGB32)
        chart.render(image)
        corner = QColor(image.pixel(chart.width() - 2, chart.height() - 2))
        assert (corner.lightness() < 100) is dark
