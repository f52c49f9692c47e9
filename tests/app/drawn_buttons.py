"""Drawn buttons: pixels only, no accessibility, the way a canvas, a remote desktop or an image-based app shows
them. Each is drawn into a screen region the size text recognition reads (app/desktop/pointer.py OCR_BOX),
on a window background, with the point a click would aim at.

Kinds: plain, faint, coloured, inverted (light text on a dark or coloured button, a dark theme), small,
icon (no text at all: the right read is nothing), foreign (not English). `destructive` marks what a careful
person would not want clicked unread. Used by tests/app/test_ocr_drawn.py and bench/pointer_read.py.

    for b in BUTTONS: rgb, w, h, (px, py) = render(b)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BUTTONS", "Button", "render"]

REGION = (360, 72)
FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
LIGHT, DARK = "#f2f2f2", "#2b2b2b"


@dataclass(frozen=True)
class Button:
    label: str          # what a person reads ("" for an icon with no text)
    kind: str
    destructive: bool
    fg: str
    bg: str
    window: str = LIGHT
    size: int = 15      # font size in px
    bold: bool = False
    icon: str = ""      # icon-only: "trash" | "gear" | "close" | "dots" | "arrow"


def _b(label: str, kind: str, destructive: bool, fg: str, bg: str, **kw: object) -> Button:
    return Button(label, kind, destructive, fg, bg, **kw)  # type: ignore[arg-type]


BUTTONS: tuple[Button, ...] = (
    # plain: dark text on a light button
    _b("Next", "plain", False, "#000000", "#e1e1e1"),
    _b("Cancel", "plain", False, "#202020", "#e8e8e8"),
    _b("Save changes", "plain", False, "#111111", "#dddddd"),
    _b("Delete account", "plain", True, "#000000", "#e1e1e1"),
    _b("Remove all", "plain", True, "#1a1a1a", "#e6e6e6"),
    _b("Empty trash", "plain", True, "#000000", "#ececec", bold=True),
    # faint: light grey text, little contrast
    _b("Continue", "faint", False, "#a8a8a8", "#ffffff"),
    _b("Sign in", "faint", False, "#b4b4b4", "#fafafa"),
    _b("Erase disk", "faint", True, "#aaaaaa", "#f8f8f8"),
    _b("Discard changes", "faint", True, "#b0b0b0", "#ffffff"),
    _b("Settings", "faint", False, "#bdbdbd", "#f5f5f5", window="#ffffff"),
    _b("Format drive", "faint", True, "#b8b8b8", "#f6f6f6"),
    # coloured text on a light or tinted button
    _b("Download", "coloured", False, "#1a73e8", "#ffffff"),
    _b("Learn more", "coloured", False, "#188038", "#e6f4ea"),
    _b("Delete repository", "coloured", True, "#d93025", "#ffffff"),
    _b("Uninstall", "coloured", True, "#c5221f", "#fce8e6"),
    _b("Refresh", "coloured", False, "#e37400", "#fef7e0"),
    _b("Revoke access", "coloured", True, "#a142f4", "#f3e8fd"),
    # inverted: light text on a saturated or dark button
    _b("Place order", "inverted", True, "#ffffff", "#1a73e8", bold=True),
    _b("Delete forever", "inverted", True, "#ffffff", "#d93025", bold=True),
    _b("Open", "inverted", False, "#ffffff", "#188038"),
    _b("Wipe data", "inverted", True, "#ffffff", "#b00020"),
    _b("Search", "inverted", False, "#f1f1f1", "#5f6368"),
    _b("Close account", "inverted", True, "#dddddd", "#3c3c3c", window=DARK),
    _b("Help", "inverted", False, "#e0e0e0", "#454545", window=DARK),
    _b("Send payment", "inverted", True, "#ffffff", "#6200ee", bold=True),
    # small: 10–11 px text
    _b("Back", "small", False, "#000000", "#e1e1e1", size=11),
    _b("Delete", "small", True, "#000000", "#e1e1e1", size=11),
    _b("Reset all", "small", True, "#333333", "#eeeeee", size=10),
    _b("Details", "small", False, "#1a73e8", "#ffffff", size=11),
    # not English
    _b("Konto löschen", "foreign", True, "#000000", "#e1e1e1"),
    _b("Alle entfernen", "foreign", True, "#ffffff", "#d93025", bold=True),
    _b("Weiter", "foreign", False, "#000000", "#e8e8e8"),
    _b("Speichern", "foreign", False, "#1a73e8", "#ffffff"),
    _b("Supprimer le compte", "foreign", True, "#000000", "#e1e1e1"),
    _b("Annuler", "foreign", False, "#202020", "#eeeeee"),
    _b("Tout effacer", "foreign", True, "#ffffff", "#b00020"),
    # icon only: nothing to read
    _b("", "icon", True, "#000000", "#e1e1e1", icon="trash"),
    _b("", "icon", False, "#000000", "#e1e1e1", icon="gear"),
    _b("", "icon", False, "#ffffff", "#5f6368", icon="close"),
    _b("", "icon", False, "#202020", "#eeeeee", icon="dots"),
    _b("", "icon", False, "#ffffff", "#1a73e8", icon="arrow"),
)


def _icon(draw: object, kind: str, cx: int, cy: int, fg: str) -> None:
    d = draw
    if kind == "trash":
        d.rectangle((cx - 7, cy - 5, cx + 7, cy + 10), outline=fg, width=2)
        d.line((cx - 10, cy - 8, cx + 10, cy - 8), fill=fg, width=2)
        d.rectangle((cx - 3, cy - 11, cx + 3, cy - 8), outline=fg, width=2)
        for x in (cx - 3, cx, cx + 3):
            d.line((x, cy - 2, x, cy + 7), fill=fg, width=1)
    elif kind == "gear":
        d.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), outline=fg, width=3)
        d.ellipse((cx - 3, cy - 3, cx + 3, cy + 3), fill=fg)
        for dx, dy in ((0, -12), (0, 12), (-12, 0), (12, 0)):
            d.rectangle((cx + dx - 2, cy + dy - 2, cx + dx + 2, cy + dy + 2), fill=fg)
    elif kind == "close":
        d.line((cx - 8, cy - 8, cx + 8, cy + 8), fill=fg, width=3)
        d.line((cx - 8, cy + 8, cx + 8, cy - 8), fill=fg, width=3)
    elif kind == "dots":
        for dy in (-8, 0, 8):
            d.ellipse((cx - 2, cy + dy - 2, cx + 2, cy + dy + 2), fill=fg)
    elif kind == "arrow":
        d.line((cx - 10, cy, cx + 9, cy), fill=fg, width=3)
        d.polygon(((cx + 11, cy), (cx + 3, cy - 7), (cx + 3, cy + 7)), fill=fg)


def render(button: Button) -> tuple[bytes, int, int, tuple[int, int]]:
    """(RGB bytes, width, height, the point a click aims at) of the region around the button."""
    from PIL import Image, ImageDraw, ImageFont

    w, h = REGION
    img = Image.new("RGB", (w, h), button.window)
    draw = ImageDraw.Draw(img)
    # a neighbouring label at the region's edge, as on a real screen
    edge = ImageFont.truetype(FONT_DIR + "DejaVuSans.ttf", 13)
    draw.text((4, 4), "File", font=edge, fill="#777777" if button.window == LIGHT else "#999999")
    font = ImageFont.truetype(FONT_DIR + ("DejaVuSans-Bold.ttf" if button.bold else "DejaVuSans.ttf"), button.size)
    cx, cy = w // 2, h // 2 + 4
    if button.icon:
        bw, bh = 40, 36
    else:
        left, top, right, bottom = draw.textbbox((0, 0), button.label, font=font)
        bw, bh = right - left + 2 * max(12, button.size), max(bottom - top + 2 * max(8, button.size // 2), 26)
    draw.rounded_rectangle((cx - bw // 2, cy - bh // 2, cx + bw // 2, cy + bh // 2), radius=5, fill=button.bg)
    if button.icon:
        _icon(draw, button.icon, cx, cy, button.fg)
    else:
        draw.text((cx, cy), button.label, font=font, fill=button.fg, anchor="mm")
    return img.tobytes(), w, h, (cx, cy)
