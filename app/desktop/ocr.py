"""Text recognition of the screen around a point, for elements that expose no accessibility: a canvas, an image
of a button, a remote desktop, a game.

    ocr = Recogniser()                      # one per supervisor; Tesseract is loaded on the first read
    ocr.label_at(rgb, width, height, px, py)  # OcrLabel("Delete account", 0.96, "normalised") or None

How one region is read:
1. **The element.** The fill colour at the point (the commonest colour close around it) marks the element:
   the rows and columns around the point where that colour runs are its box, and the crop is cut to it, so
   a neighbouring label or the window around a coloured button does not join in. Where no box stands out
   (flat text on the window), the whole region is read. A caller that knows the box passes `box`.
2. **Two passes, one read.** The crop is turned to grey with its contrast stretched over the range found
   around the point (faint grey text on white becomes black on white), and the same again inverted (white
   or light text on a coloured or dark button becomes dark on light). Both, scaled 2× (Tesseract reads
   20–30 px glyphs best; interface text is 10–16 px), are stacked into one image that Tesseract reads once.
3. **The label.** In each pass, the recognised line that contains the point (or is nearest it), cut at wide
   gaps so a neighbouring button's label does not join in; the pass whose label Tesseract is surer of wins.
   A run longer than `MAX_WORDS` is running text, not a control's label, and reads as nothing.

The languages are the installed Tesseract data (`installed_languages()`; `deskgate doctor` lists them), or
$DESKGATE_OCR_LANGUAGES (`eng+deu`). The confidence (0–1, the mean of the words' own) comes with every
label; a reader treats one under `MIN_LABEL_CONFIDENCE` as nothing read (app/desktop/pointer.py).

The engine: `tesserocr` keeps one Tesseract loaded for the life of the process (~10–20 ms a read); without
it, `pytesseract` runs a tesseract process per read (~100–250 ms). Errors (no tesseract, no language data)
raise `OcrUnavailable`.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["MIN_LABEL_CONFIDENCE", "OcrLabel", "OcrUnavailable", "OcrWord", "Recogniser", "installed_languages",
           "nearest_label", "tesseract_version"]

SCALE = 2
MIN_CONFIDENCE = 40.0     # Tesseract's per-word confidence (0–100); below it a "word" is usually noise
MIN_LABEL_CONFIDENCE = 0.75  # a label read less surely than this (mean word confidence, 0–1) is not a reading
GAP_FACTOR = 1.6          # a gap wider than this many line heights separates two labels on one line
MAX_WORDS = 6             # a longer run is prose (a document, a mail body), not the label of a control
TIMEOUT_S = 5
FILL_TOLERANCE = 10       # per channel: a pixel this close to the fill colour is the element's own
FILL_PATCH = (40, 12)     # half-size of the patch around the point whose commonest colour is the fill
CONTRAST_PATCH = (60, 12)  # half-size of the patch whose grey range the contrast is stretched over
SHEET_GAP = 16            # blank rows between the stacked passes
PASSES = ("normalised", "inverted")
LANGUAGES_ENV = "DESKGATE_OCR_LANGUAGES"
_NOT_TEXT = frozenset({"osd", "equ"})  # orientation / equation data, not a language
_TESSDATA = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata",
             "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata", "/opt/local/share/tessdata")


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


class OcrLabel(NamedTuple):
    text: str
    confidence: float  # 0–1: the mean of the words' own confidences
    variant: str       # the pass it was read in: "normalised" | "inverted"


# -- what is installed ---------------------------------------------------------------------------------


def tessdata_dir() -> Path | None:
    """Where Tesseract's language data is: $TESSDATA_PREFIX, else the usual system directories."""
    env = os.environ.get("TESSDATA_PREFIX", "").strip()
    candidates = ([env, os.path.join(env, "tessdata")] if env else []) + list(_TESSDATA)
    for candidate in candidates:
        if candidate and any(Path(candidate).glob("*.traineddata")):
            return Path(candidate)
    return None


def installed_languages() -> tuple[str, ...]:
    """The text languages of the installed Tesseract data, English first (empty when there is none)."""
    where = tessdata_dir()
    if where is None:
        return ()
    names = sorted(p.name.removesuffix(".traineddata") for p in where.glob("*.traineddata"))
    langs = [n for n in names if n not in _NOT_TEXT]
    return tuple(sorted(langs, key=lambda n: (n != "eng", n)))


def _chosen_languages(languages: Sequence[str] | None) -> tuple[str, ...]:
    if languages:
        return tuple(languages)
    env = os.environ.get(LANGUAGES_ENV, "").strip()
    if env:
        return tuple(part for part in env.split("+") if part)
    return installed_languages()


def tesseract_version() -> str:
    """The installed Tesseract's version and languages, e.g. "5.3.0 (eng, deu; engine tesserocr)"; raises
    OcrUnavailable."""
    langs = installed_languages()
    if "eng" not in langs:
        raise OcrUnavailable("tesseract has no English data (apt install tesseract-ocr-eng)")
    try:
        import tesserocr

        version = tesserocr.tesseract_version().split()[1]
        engine = "tesserocr"
    except ImportError:
        try:
            import pytesseract
        except ImportError as err:
            raise OcrUnavailable(f"neither tesserocr nor pytesseract is installed ({err})") from None
        if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
            raise OcrUnavailable("the tesseract program is not installed (apt install tesseract-ocr "
                                 "tesseract-ocr-eng)") from None
        try:
            version = str(pytesseract.get_tesseract_version())
        except Exception as err:
            raise OcrUnavailable(f"tesseract does not run ({err})") from None
        engine = "a tesseract process per read (pip install tesserocr: one engine kept loaded)"
    return f"{version} ({', '.join(langs)}; {engine})"


# -- engines -------------------------------------------------------------------------------------------


class _Loaded:
    """One Tesseract kept loaded (tesserocr). Not thread-safe by itself: the Recogniser holds the lock."""

    name = "tesserocr"

    def __init__(self, languages: tuple[str, ...]) -> None:
        import tesserocr

        where = tessdata_dir()
        if where is None:
            raise OcrUnavailable("no Tesseract language data found (apt install tesseract-ocr-eng)")
        try:
            self._api = tesserocr.PyTessBaseAPI(path=str(where) + os.sep, lang="+".join(languages),
                                                psm=tesserocr.PSM.SPARSE_TEXT)
        except RuntimeError as err:
            raise OcrUnavailable(f"tesseract did not load {'+'.join(languages)} from {where}: {err}") from None

    def tsv(self, image: Image) -> str:
        self._api.SetImageBytes(image.tobytes(), image.width, image.height, 1, image.width)
        return self._api.GetTSVText(0)

    def close(self) -> None:
        self._api.End()


class _Process:
    """A tesseract process per read (pytesseract): where tesserocr is not installed."""

    name = "tesseract process"

    def __init__(self, languages: tuple[str, ...]) -> None:
        try:
            import pytesseract
        except ImportError as err:
            raise OcrUnavailable(f"neither tesserocr nor pytesseract is installed ({err})") from None
        if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
            raise OcrUnavailable("the tesseract program is not installed (apt install tesseract-ocr tesseract-ocr-eng)")
        self._pt = pytesseract
        self._lang = "+".join(languages)

    def tsv(self, image: Image) -> str:
        try:
            text = self._pt.image_to_data(image, lang=self._lang, config="--psm 11", timeout=TIMEOUT_S)
        except Exception as err:  # TesseractNotFoundError, TesseractError, a timeout (RuntimeError)
            raise OcrUnavailable(f"tesseract failed: {err}") from None
        return text.split("\n", 1)[1] if text.startswith("level") else text  # without the header

    def close(self) -> None:
        pass


# -- the image -----------------------------------------------------------------------------------------


def _fill(img: Image, px: int, py: int) -> tuple[int, int, int]:
    w, h = img.size
    fx, fy = FILL_PATCH
    patch = img.crop((max(0, px - fx), max(0, py - fy), min(w, px + fx + 1), min(h, py + fy + 1)))
    colours = patch.getcolors(patch.width * patch.height) or [(1, (255, 255, 255))]
    return max(colours)[1]


def element_box(img: Image, px: int, py: int) -> tuple[int, int, int, int] | None:
    """The box of the element at (px, py) as its fill colour shows it, or None where none stands out."""
    from PIL import Image as PILImage
    from PIL import ImageChops

    w, h = img.size
    fill = _fill(img, px, py)
    r, g, b = ImageChops.difference(img, PILImage.new("RGB", img.size, fill)).split()
    distance = ImageChops.lighter(ImageChops.lighter(r, g), b)
    mask = distance.point([255 if v <= FILL_TOLERANCE else 0 for v in range(256)])
    rows = mask.resize((1, h), PILImage.Resampling.BOX).tobytes()  # the share of fill in each row (0–255)
    top = bottom = py
    while top > 0 and rows[top - 1] > 8:
        top -= 1
    while bottom < h - 1 and rows[bottom + 1] > 8:
        bottom += 1
    # inside the element every column has fill above and below the text: more than ~30 %
    cols = mask.crop((0, top, w, bottom + 1)).resize((w, 1), PILImage.Resampling.BOX).tobytes()
    left = right = px
    while left > 0 and cols[left - 1] > 70:
        left -= 1
    while right < w - 1 and cols[right + 1] > 70:
        right += 1
    if right - left < 8 or bottom - top < 8 or (left, top, right, bottom) == (0, 0, w - 1, h - 1):
        return None
    return left, top, right + 1, bottom + 1


def passes(img: Image, px: int, py: int) -> list[tuple[str, Image]]:
    """The crop in grey, contrast stretched over the range around the point; and the same inverted."""
    from PIL import ImageOps

    w, h = img.size
    gray = img.convert("L")
    cx, cy = CONTRAST_PATCH
    lo, hi = gray.crop((max(0, px - cx), max(0, py - cy), min(w, px + cx + 1), min(h, py + cy + 1))).getextrema()
    span = max(hi - lo, 1)
    normalised = gray.point([min(255, max(0, (v - lo) * 255 // span)) for v in range(256)])
    return [("normalised", normalised), ("inverted", ImageOps.invert(normalised))]


def _words(tsv: str, band: int, count: int) -> list[list[OcrWord]]:
    """The words of each stacked pass (TSV level 5 rows), in the pass's own unscaled coordinates."""
    per: list[list[OcrWord]] = [[] for _ in range(count)]
    for row in tsv.splitlines():
        f = row.split("\t")
        if len(f) < 12 or f[0] != "5":
            continue
        text = f[11].strip()
        try:
            conf = float(f[10])
            left, top, width, height = (int(v) for v in f[6:10])
        except ValueError:
            continue
        if not text or conf < MIN_CONFIDENCE or not any(ch.isalnum() for ch in text):
            continue
        k = min(top // band, count - 1)
        top -= k * band
        per[k].append(OcrWord(text, left // SCALE, top // SCALE, width // SCALE, height // SCALE, conf,
                              (int(f[2]), int(f[3]), int(f[4]))))
    return per


def _distance(w: OcrWord, px: int, py: int) -> float:
    dx = max(w.left - px, 0, px - (w.left + w.width))
    dy = max(w.top - py, 0, py - (w.top + w.height))
    return (dx * dx + dy * dy) ** 0.5


def nearest_label(found: list[OcrWord], px: int, py: int, max_distance: float) -> tuple[str, float] | None:
    """The run of words on one line nearest (px, py), and its mean confidence (0–100); None when nothing is
    within `max_distance` pixels."""
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


# -- the recogniser ------------------------------------------------------------------------------------


class Recogniser:
    """Reads the label at a point of a screen region. One Tesseract, loaded on first use and kept (tesserocr),
    else a process per read. Thread-safe: one read at a time."""

    def __init__(self, languages: Sequence[str] | None = None, *, engine: str = "auto") -> None:
        if engine not in ("auto", "tesserocr", "process"):
            raise ValueError(f"engine must be auto, tesserocr or process, not {engine!r}")
        self._want = engine
        self._languages = tuple(languages) if languages else None
        self._engine: Any = None
        self._lock = threading.Lock()

    @property
    def engine(self) -> str:
        """The engine in use ("tesserocr" | "tesseract process"), loading it if need be."""
        with self._lock:
            return self._load().name

    @property
    def languages(self) -> tuple[str, ...]:
        return _chosen_languages(self._languages)

    def _load(self) -> Any:
        if self._engine is not None:
            return self._engine
        langs = _chosen_languages(self._languages)
        if not langs:
            raise OcrUnavailable("no Tesseract language data is installed (apt install tesseract-ocr-eng)")
        if self._want in ("auto", "tesserocr"):
            try:
                self._engine = _Loaded(langs)
                return self._engine
            except ImportError as err:
                if self._want == "tesserocr":
                    raise OcrUnavailable(f"tesserocr is not installed ({err})") from None
        self._engine = _Process(langs)
        return self._engine

    def read(self, sheet: Image) -> str:
        """Tesseract's TSV for one grey image."""
        with self._lock:
            return self._load().tsv(sheet)

    def label_at(self, rgb: bytes | bytearray, width: int, height: int, px: int, py: int, *,
                 box: tuple[int, int, int, int] | None = None, max_distance: float = 64.0) -> OcrLabel | None:
        """The label nearest (px, py) in the RGB image (the point in image coordinates), or None. `box`: the
        element's box in the image where the caller knows it (e.g. from the accessibility tree)."""
        try:
            from PIL import Image as PILImage
            from PIL import ImageOps
        except ImportError as err:
            raise OcrUnavailable(f"Pillow is not installed ({err})") from None
        img = PILImage.frombytes("RGB", (width, height), bytes(rgb))
        if box is None:
            box = element_box(img, px, py)
        if box is not None:
            left, top, right, bottom = box
            # inset past rounded corners and the border, then a margin of the fill: Tesseract wants room
            inset = (min(3, (right - left) // 8), min(2, (bottom - top) // 8))
            img = img.crop((left + inset[0], top + inset[1], right - inset[0], bottom - inset[1]))
            img = ImageOps.expand(img, border=8, fill=_fill(img, px - left - inset[0], py - top - inset[1]))
            px, py = px - left - inset[0] + 8, py - top - inset[1] + 8
        variants = passes(img, px, py)
        w, h = img.size
        band = h * SCALE + SHEET_GAP
        sheet = PILImage.new("L", (w * SCALE, band * len(variants)), 255)
        for i, (_, variant) in enumerate(variants):
            sheet.paste(variant.resize((w * SCALE, h * SCALE), PILImage.Resampling.LANCZOS), (0, i * band))
        best: OcrLabel | None = None
        for (name, _), found in zip(variants, _words(self.read(sheet), band, len(variants)), strict=True):
            got = nearest_label(found, px, py, max_distance)
            if got is not None and (best is None or got[1] / 100 > best.confidence):
                best = OcrLabel(got[0], round(got[1] / 100, 3), name)
        return best

    def close(self) -> None:
        with self._lock:
            if self._engine is not None:
                self._engine.close()
                self._engine = None
