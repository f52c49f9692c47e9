"""What is at an action's target, read by deskgate itself: the label the gate judges (DESIGN §3).

For a click or drag: the accessibility tree at the point (app/desktop/a11y.py) and, where it names nothing there,
text recognition of the screen around the point (app/desktop/ocr.py; a read less sure than MIN_LABEL_CONFIDENCE
is no reading), with the element's box and how sure the
read is; `tried` says deskgate looked (an empty label then means nobody can read the target). For typing: the
focused field's name and role from the accessibility tree, and for a focused terminal (VTE, Konsole) the prompt
line its text shows; a key that ends a line reads that line too, so the gate can cross-check it. The answer
goes into the Observation (`pointer_label`, `pointer_role`, `label_source`, `label_confidence`, `pointer_read`,
`target_box`, `screen_line`); gate/rules/base.py `Context` makes the label the target the rules judge.

Nothing here fails an action: no bus, no registry, no tesseract → nothing read. For a click that means
nobody can read the target, which the gate asks about (confirm.gui.unreadable-target); `status()` says which
sources work, for `deskgate doctor`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from app.desktop.a11y import A11yReader, A11yUnavailable
from app.desktop.ocr import MIN_LABEL_CONFIDENCE, OcrLabel, OcrUnavailable, Recogniser
from app.desktop.pixels import bgra_to_rgb
from gate.model import Action

__all__ = ["OCR_BOX", "PointerReader", "Read", "element_in_region", "ocr_box", "read_point"]

log = logging.getLogger(__name__)

OCR_BOX = (360, 72)        # the screen region around the point that text recognition reads (w, h)
POINT_TYPES = frozenset({"click", "drag"})
FOCUS_TYPES = frozenset({"type", "key"})  # key: only a line end (the terminal's prompt line is cross-checked)

# (x, y, w, h) → (BGRA bytes, width, height)
Grab = Callable[[tuple[int, int, int, int]], tuple[bytes, int, int]]


@dataclass(frozen=True, slots=True)
class Read:
    label: str = ""
    role: str = ""
    source: str = ""  # "accessibility" | "ocr" | ""
    confidence: float | None = None  # 1.0 for the accessibility tree; OCR's mean word confidence (0-1)
    tried: bool = False  # deskgate read the screen at the target (an empty label then: nobody can read it)
    box: tuple[int, int, int, int] | None = None  # the element's screen extents, where accessibility gives them
    screen_line: str | None = None  # the focused terminal's prompt line as the screen shows it, where readable


NOTHING = Read()


def ends_line(action: Action) -> bool:
    """A key action that ends (or may end: a paste) the line a terminal holds (gate/lines.py)."""
    from gate.lines import key_effect
    from gate.rules.gui import canonical_keys

    return key_effect(canonical_keys(list(action.keys))) in ("end", "paste")  # type: ignore[attr-defined]


def read_point(action: Action) -> tuple[int, int] | None:
    """The point whose element a pointer action acts on (a drag: where it grabs)."""
    kind = action.type
    if kind == "click":
        return action.x, action.y
    if kind == "drag":
        return tuple(action.path[0])  # type: ignore[return-value]
    return None


def ocr_box(x: int, y: int, screen_w: int, screen_h: int) -> tuple[int, int, int, int]:
    """OCR_BOX centred on (x, y), moved inside the screen."""
    w, h = min(OCR_BOX[0], screen_w), min(OCR_BOX[1], screen_h)
    left = min(max(0, x - w // 2), max(0, screen_w - w))
    top = min(max(0, y - h // 2), max(0, screen_h - h))
    return left, top, w, h


def element_in_region(element: tuple[int, int, int, int] | None, region: tuple[int, int, int, int], x: int,
                      y: int) -> tuple[int, int, int, int] | None:
    """The accessible element's screen box (x, y, w, h) as (left, top, right, bottom) in the region read, when
    it holds the point and is the size of a control; None otherwise (a whole canvas says nothing about where
    its drawn button is: the recogniser finds the box from the pixels then)."""
    if element is None:
        return None
    ex, ey, ew, eh = element
    if not (ex <= x < ex + ew and ey <= y < ey + eh) or ew > OCR_BOX[0] or eh > OCR_BOX[1]:
        return None
    rx, ry, rw, rh = region
    left, top = max(ex - rx, 0), max(ey - ry, 0)
    right, bottom = min(ex + ew - rx, rw), min(ey + eh - ry, rh)
    return (left, top, right, bottom) if right - left >= 8 and bottom - top >= 8 else None


class PointerReader:
    """Reads the target of one action. Sources that fail are remembered, and retried after `retry_s`."""

    def __init__(self, a11y: A11yReader | None = None, *, ocr: bool = True, retry_s: float = 30.0,
                 clock: Callable[[], float] | None = None, recogniser: Recogniser | None = None) -> None:
        import time

        self.a11y = a11y if a11y is not None else A11yReader()
        self.ocr = ocr
        # one Tesseract for the supervisor's life, loaded on the first read that needs it
        self.recogniser = recogniser if recogniser is not None else Recogniser()
        self.retry_s = retry_s
        self._clock = clock or time.monotonic
        self._down: dict[str, tuple[float, str]] = {}  # source → (since, why)
        self._lock = threading.Lock()

    def _usable(self, source: str) -> bool:
        with self._lock:
            down = self._down.get(source)
            return down is None or self._clock() - down[0] >= self.retry_s

    def _failed(self, source: str, why: str) -> None:
        with self._lock:
            if source not in self._down:
                log.warning("%s unavailable: %s (deskgate judges the label the agent gives)", source, why)
            self._down[source] = (self._clock(), why)

    def _ok(self, source: str) -> None:
        with self._lock:
            self._down.pop(source, None)

    def status(self) -> dict[str, str]:
        """source → "ok" or why it is not used."""
        with self._lock:
            out = {s: why for s, (_, why) in self._down.items()}
        out.setdefault("accessibility", "ok")
        out.setdefault("ocr", "ok" if self.ocr else "turned off")
        return out

    def read(self, action: Action, *, pid_at: Callable[[int, int], int | None], active_pid: Callable[[], int | None],
             grab: Grab, screen: tuple[int, int]) -> Read:
        kind = action.type
        if kind == "key" and not ends_line(action):
            return NOTHING  # an ordinary shortcut: nothing to read for it
        if kind in FOCUS_TYPES:
            return self._focused(active_pid())
        point = read_point(action)
        if point is None:
            return NOTHING
        x, y = point
        found = self._accessible(x, y, pid_at(x, y))
        if found.label:
            return Read(found.label, found.role, found.source, 1.0, True, found.box)
        got = self._recognise(x, y, grab, screen, found.box)
        if got is not None:
            return Read(got.text, found.role, "ocr", got.confidence, True, found.box)
        return Read("", found.role, "", None, True, found.box)  # looked, and nobody can read it

    def _accessible(self, x: int, y: int, pid: int | None) -> Read:
        if not self._usable("accessibility"):
            return NOTHING
        try:
            el = self.a11y.at_point(x, y, pid)
        except A11yUnavailable as err:
            self._failed("accessibility", str(err))
            return NOTHING
        self._ok("accessibility")
        if el is None:
            return NOTHING
        name = " ".join(el.name.split())
        return Read(name, el.role, "accessibility" if name else "", box=el.box)

    def _focused(self, pid: int | None) -> Read:
        if not self._usable("accessibility"):
            return NOTHING
        try:
            el = self.a11y.focused(pid)
        except A11yUnavailable as err:
            self._failed("accessibility", str(err))
            return NOTHING
        self._ok("accessibility")
        if el is None or not (el.name or el.role):
            return NOTHING
        return Read(" ".join(el.name.split()), el.role, "accessibility", 1.0, screen_line=el.line)

    def _recognise(self, x: int, y: int, grab: Grab, screen: tuple[int, int],
                   element: tuple[int, int, int, int] | None = None) -> OcrLabel | None:
        if not self.ocr or not self._usable("ocr"):
            return None
        box = ocr_box(x, y, *screen)
        try:
            raw, w, h = grab(box)
            rgb = bgra_to_rgb(raw, w, h)
            inside = element_in_region(element, box, x, y)
            if inside is None:
                found = self.recogniser.label_at(rgb, w, h, x - box[0], y - box[1])
            else:
                found = self.recogniser.label_at(rgb, w, h, x - box[0], y - box[1], box=inside)
        except OcrUnavailable as err:
            self._failed("ocr", str(err))
            return None
        except Exception as err:  # the grab failed (display gone): nothing read this time
            log.info("text recognition at (%d, %d) failed: %s", x, y, err)
            return None
        self._ok("ocr")
        if found is not None and found.confidence < MIN_LABEL_CONFIDENCE:
            log.info("text recognition at (%d, %d) read %r only %.0f%% surely: taken as unread", x, y,
                     found.text, 100 * found.confidence)
            return None
        return found

    def close(self) -> None:
        self.a11y.close()
        self.recogniser.close()
