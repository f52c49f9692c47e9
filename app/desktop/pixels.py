"""Pixels: pure functions over raw screen bytes (no Qt, no PIL), shared by the desktop, the pointer reader
and the executor's screenshots."""

from __future__ import annotations

import math

__all__ = ["MARK_COLOR", "average_hash", "bgra_to_rgb", "downscale_rgb", "draw_line", "encode_png", "mark_point"]

HASH_COLS, HASH_ROWS = 16, 9
MARK_COLOR = (255, 0, 64)


def bgra_to_rgb(raw: bytes | bytearray | memoryview, width: int, height: int) -> bytearray:
    """mss's BGRA buffer → packed RGB (three strided copies, done in C)."""
    n = width * height
    rgb = bytearray(n * 3)
    rgb[0::3] = raw[2:n * 4:4]
    rgb[1::3] = raw[1:n * 4:4]
    rgb[2::3] = raw[0:n * 4:4]
    return rgb


def downscale_rgb(rgb: bytes | bytearray, width: int, height: int, max_width: int) -> tuple[bytearray, int, int]:
    """Nearest-neighbour downscale by an integer factor so the width is at most `max_width`."""
    factor = -(-width // max_width) if width > max_width else 1
    if factor == 1:
        return bytearray(rgb), width, height
    w2, h2 = width // factor, height // factor
    out = bytearray(w2 * h2 * 3)
    line = width * 3
    for y in range(h2):
        src = y * factor * line
        dst = y * w2 * 3
        for c in range(3):  # every factor-th pixel of the row, one channel at a time
            out[dst + c:dst + w2 * 3:3] = rgb[src + c:src + w2 * factor * 3:3 * factor]
    return out, w2, h2


def average_hash(raw: bytes | bytearray | memoryview, width: int, height: int,
                 cols: int = HASH_COLS, rows: int = HASH_ROWS, samples: int = 4) -> str:
    """A perceptual average hash of a BGRA image: cols×rows cells, 1 bit per cell (brighter than the mean).

    Each cell's brightness is the sum of B+G+R over a samples×samples grid of pixels in it, so one
    full-screen hash reads ~2,300 pixels, not a million.
    """
    if width < cols or height < rows:
        return ""
    stride = width * 4
    cell_w, cell_h = width / cols, height / rows
    sums = [0] * (cols * rows)
    xs = [(int(c * cell_w), int((c + 1) * cell_w)) for c in range(cols)]
    for r in range(rows):
        for s in range(samples):
            y = int((r + (s + 0.5) / samples) * cell_h)
            base = y * stride
            acc = r * cols
            for c, (x0, x1) in enumerate(xs):
                step = max(1, (x1 - x0) // samples) * 4
                a, b = base + x0 * 4, base + x1 * 4
                sums[acc + c] += sum(raw[a:b:step]) + sum(raw[a + 1:b:step]) + sum(raw[a + 2:b:step])
    mean = sum(sums) / len(sums)
    bits = 0
    for value in sums:
        bits = (bits << 1) | (value > mean)
    return f"{bits:0{(cols * rows + 3) // 4}x}"


def _put(rgb: bytearray, width: int, height: int, x: int, y: int, color: tuple[int, int, int]) -> None:
    if 0 <= x < width and 0 <= y < height:
        i = (y * width + x) * 3
        rgb[i:i + 3] = bytes(color)


def mark_point(rgb: bytearray, width: int, height: int, x: int, y: int, *,
               color: tuple[int, int, int] = MARK_COLOR, radius: int = 14) -> None:
    """Draw a crosshair and a circle centred on (x, y), 2 px wide, with a white halo to show on any colour."""
    white = (255, 255, 255)
    for pen, grow in ((white, 1), (color, 0)):
        for d in range(-radius - 6, radius + 7):
            if abs(d) < 4:
                continue  # leave the exact target pixel visible
            for t in range(-1 - grow, 1 + grow):
                _put(rgb, width, height, x + d, y + t, pen)
                _put(rgb, width, height, x + t, y + d, pen)
        steps = max(32, radius * 8)
        for k in range(steps):
            ang = 2 * math.pi * k / steps
            for rr in range(radius - 1 - grow, radius + 1 + grow):
                _put(rgb, width, height, round(x + rr * math.cos(ang)), round(y + rr * math.sin(ang)), pen)


def outline_box(rgb: bytearray, width: int, height: int, x0: int, y0: int, x1: int, y1: int, *,
                color: tuple[int, int, int] = MARK_COLOR, margin: int = 4) -> None:
    """A 3 px rectangle `margin` px outside the box (x0, y0)-(x1, y1), with a white halo: the element is
    shown, and its own text is left uncovered."""
    x0, y0, x1, y1 = x0 - margin, y0 - margin, x1 + margin - 1, y1 + margin - 1
    for pen, grow in (((255, 255, 255), 1), (color, 0)):
        for t in range(-1 - grow, 2 + grow):
            for x in range(x0 - 1 - grow, x1 + 2 + grow):
                _put(rgb, width, height, x, y0 - t, pen)
                _put(rgb, width, height, x, y1 + t, pen)
            for y in range(y0 - 1 - grow, y1 + 2 + grow):
                _put(rgb, width, height, x0 - t, y, pen)
                _put(rgb, width, height, x1 + t, y, pen)


def draw_line(rgb: bytearray, width: int, height: int, x0: int, y0: int, x1: int, y1: int, *,
              color: tuple[int, int, int] = MARK_COLOR) -> None:
    """A 2 px line from (x0, y0) to (x1, y1) (a drag's path)."""
    n = max(abs(x1 - x0), abs(y1 - y0), 1)
    for k in range(n + 1):
        x, y = x0 + (x1 - x0) * k // n, y0 + (y1 - y0) * k // n
        for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
            _put(rgb, width, height, x + dx, y + dy, color)


def encode_png(rgb: bytes | bytearray, width: int, height: int, level: int = 3) -> bytes:
    import mss.tools

    png = mss.tools.to_png(bytes(rgb), (width, height), level=level)
    assert png is not None  # to_png returns the bytes when no output file is given
    return png
