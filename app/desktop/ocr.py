"""Text recognition of the screen around a point (Tesseract through pytesseract), for elements that expose
no accessibility: a canvas, an image of a button, a remote desktop, a game.

`label_at(rgb, width, height, px, py)` takes an RGB crop of the screen and the point inside it, and
returns the words nearest the point: the recognised line that contains the point (or is closest to it),
cut at wide gaps so a neighbouring button's label does not join in. A run longer than `MAX_WORDS` is
running text, not a control's label, and reads as nothing (a sentence in a document that happens to say
"delete your account" is not a button). The crop is scaled up 2× first:
Tesseract reads ~20–30 px tall glyphs best, and interface text is 10–14 px.

Tesseract runs as a process per call (~50–300 ms): this path is only taken where the accessibility tree
had no answer. Errors (no tesseract binary, no language data) raise `OcrUnavailable`.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass

__all__ = ["OcrUnavailable", "OcrWord", "label_at", "tesseract_version"]

SCALE = 2
MIN_CONFIDENCE = 40.0     # Tesseract's per-word confidence (0–100); below it a "word" is usually noise
GAP_FACTOR = 1.6          # a gap wider than this many line heights separates two labels on one line
MAX_WORDS = 6             # a longer run is prose (a document, a mail body), not the label of a control
TIMEOUT_S = 5


class OcrUnavailable(RuntimeError):
    """Tesseract or its binding is not installed, or it failed to run."""


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    left: int
    top: int
    width: int
    height: int
    confidence: float
    line: tuple[int, int, int]  # (block, paragraph, line)


def tesseract_version() -> str:
    """The installed Tesseract's version; raises OcrUnavailable."""
    try:
        import pytesseract
    except ImportError as err:
        raise OcrUnavailable(f"pytesseract is not installed ({err})") from None
    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        raise OcrUnavailable("the tesseract program is not installed (apt install tesseract-ocr tesseract-ocr-eng)")
    try:
        version = str(pytesseract.get_tesseract_version())
        languages = pytesseract.get_languages(config="")
    except Exception as err:
        raise OcrUnavailable(f"tesseract does not run ({err})") from None
    if "eng" not in languages:
        raise OcrUnavailable(f"tesseract {version} has no English data (apt install tesseract-ocr-eng)")
    return version


def words(rgb: bytes | bytearray, width: int, height: int) -> list[OcrWord]:
    """Every word Tesseract finds in the RGB image, in the image's own pixel coordinates."""
    try:
        import pytesseract
        from PIL import Image
    except ImportError as err:
        raise OcrUnavailable(f"pytesseract / Pillow are not installed ({err})") from None
    img = Image.frombytes("RGB", (width, height), bytes(rgb)).convert("L")
    img = img.resize((width * SCALE, height * SCALE), Image.Resampling.LANCZOS)
    try:
        data = pytesseract.image_to_data(img, lang="eng", config="--psm 11", timeout=TIMEOUT_S,
                                         output_type=pytesseract.Output.DICT)
    except Exception as err:  # TesseractNotFoundError, TesseractError, a timeout (RuntimeError)
        raise OcrUnavailable(f"tesseract failed: {err}") from None
    out = []
    for i, text in enumerate(data["text"]):
        text = text.strip()
        conf = float(data["conf"][i])
        if not text or conf < MIN_CONFIDENCE or not any(ch.isalnum() for ch in text):
            continue
        out.append(OcrWord(text, data["left"][i] // SCALE, data["top"][i] // SCALE, data["width"][i] // SCALE,
                           data["height"][i] // SCALE, conf,
                           (data["block_num"][i], data["par_num"][i], data["line_num"][i])))
    return out


def _distance(w: OcrWord, px: int, py: int) -> float:
    dx = max(w.left - px, 0, px - (w.left + w.width))
    dy = max(w.top - py, 0, py - (w.top + w.height))
    return (dx * dx + dy * dy) ** 0.5


def nearest_label(found: list[OcrWord], px: int, py: int, max_distance: float) -> tuple[str, float] | None:
    """The run of words on one line nearest (px, py), and its mean confidence; None when nothing is within
    `max_distance` pixels."""
    if not found:
        return None
    anchor = min(found, key=lambda w: _distance(w, px, py))
    if _distance(anchor, px, py) > max_distance:
        return None
    line = sorted((w for w in found if w.line == anchor.line), key=lambda w: w.left)
    i = line.index(anchor)
    start, end = i, i
    while start > 0 and line[start].left - (line[start - 1].left + line[start - 1].width) \
            <= GAP_FACTOR * max(line[start].height, 1):
        start -= 1
    while end + 1 < len(line) and line[end + 1].left - (line[end].left + line[end].width) \
            <= GAP_FACTOR * max(line[end].height, 1):
        end += 1
    run = line[start:end + 1]
    if len(run) > MAX_WORDS:
        return None  # a click into running text: no control label to judge, and prose must not pose as one
    return " ".join(w.text for w in run), sum(w.confidence for w in run) / len(run)


def label_at(rgb: bytes | bytearray, width: int, height: int, px: int, py: int,
             max_distance: float = 64.0) -> tuple[str, float] | None:
    """The label nearest (px, py) in the image (point in image coordinates), with its confidence."""
    return nearest_label(words(rgb, width, height), px, py, max_distance)
