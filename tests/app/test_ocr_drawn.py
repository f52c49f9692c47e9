"""Text recognition reads what people see (app/desktop/ocr.py): drawn buttons with no accessibility, faint,
coloured, white on colour, small, not English and icon-only (tests/app/drawn_buttons.py), read by the
kept-loaded engine and by the process-per-read fallback."""

from __future__ import annotations

import sys

import pytest

from app.desktop.ocr import MIN_LABEL_CONFIDENCE, OcrLabel, Recogniser, installed_languages, tesseract_version
from tests.app.drawn_buttons import BUTTONS, Button, render

FOREIGN = {"Konto löschen": "deu", "Alle entfernen": "deu", "Weiter": "deu", "Speichern": "deu",
           "Supprimer le compte": "fra", "Annuler": "fra", "Tout effacer": "fra"}


def _same(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def _reading(got: OcrLabel | None) -> str:
    """What a reader takes from the recogniser: the label, or "" when unread (none, or too unsure)."""
    return got.text if got is not None and got.confidence >= MIN_LABEL_CONFIDENCE else ""


@pytest.fixture(scope="module")
def ocr():
    tesseract_version()  # raises, naming the package to install, when tesseract or English data is missing
    missing = sorted(set(FOREIGN.values()) - set(installed_languages()))
    assert not missing, f"install tesseract-ocr-{' tesseract-ocr-'.join(missing)} (.ci/sysdeps.sh)"
    recogniser = Recogniser()
    yield recogniser
    recogniser.close()


@pytest.fixture(scope="module")
def readings(ocr) -> dict[Button, str]:
    out = {}
    for button in BUTTONS:
        rgb, w, h, (px, py) = render(button)
        out[button] = _reading(ocr.label_at(rgb, w, h, px, py))
    return out


def test_the_set_covers_every_kind_and_both_sorts():
    kinds = {b.kind for b in BUTTONS}
    assert len(BUTTONS) >= 40
    assert kinds == {"plain", "faint", "coloured", "inverted", "small", "foreign", "icon"}
    for kind in kinds:
        assert {b.destructive for b in BUTTONS if b.kind == kind} == {True, False}, kind


def test_most_drawn_buttons_are_read_as_people_read_them(readings):
    right = [b for b, got in readings.items() if _same(got, b.label)]
    wrong = {b.label or b.icon: got for b, got in readings.items() if b not in right}
    assert len(right) / len(BUTTONS) >= 0.9, wrong


@pytest.mark.parametrize("kind", ["faint", "coloured", "inverted", "small", "foreign"])
def test_each_kind_of_hard_label_is_read(readings, kind):
    of_kind = [b for b in BUTTONS if b.kind == kind]
    right = [b for b in of_kind if _same(readings[b], b.label)]
    assert len(right) >= len(of_kind) - 1, {b.label: readings[b] for b in of_kind if b not in right}


def test_a_destructive_button_is_read_right_or_not_at_all(readings):
    # Never a confident wrong reading of a destructive label: unread is what makes the gate ask.
    misread = {b.label: got for b, got in readings.items() if b.destructive and got and not _same(got, b.label)}
    assert misread == {}


def test_an_icon_reads_as_nothing(readings):
    assert {b.icon: readings[b] for b in BUTTONS if b.kind == "icon"} == {b.icon: "" for b in BUTTONS
                                                                          if b.kind == "icon"}


def test_white_on_colour_is_read_in_the_inverted_pass(ocr):
    button = next(b for b in BUTTONS if b.label == "Delete forever")
    rgb, w, h, (px, py) = render(button)
    got = ocr.label_at(rgb, w, h, px, py)
    assert got is not None and got.text == "Delete forever" and got.variant == "inverted"
    assert MIN_LABEL_CONFIDENCE <= got.confidence <= 1


def test_installed_languages_put_english_first():
    langs = installed_languages()
    assert langs[0] == "eng" and "osd" not in langs


def test_the_process_engine_reads_the_same_labels(ocr, monkeypatch):
    monkeypatch.setitem(sys.modules, "tesserocr", None)  # as if tesserocr were not installed
    fallback = Recogniser()
    assert fallback.engine == "tesseract process"
    for label in ("Delete account", "Place order", "Continue"):
        button = next(b for b in BUTTONS if b.label == label)
        rgb, w, h, (px, py) = render(button)
        assert _reading(fallback.label_at(rgb, w, h, px, py)) == label


def test_the_kept_engine_is_loaded_once_and_reused(ocr):
    pytest.importorskip("tesserocr")
    assert ocr.engine == "tesserocr"
    engine = ocr._engine
    rgb, w, h, (px, py) = render(BUTTONS[0])
    ocr.label_at(rgb, w, h, px, py)
    assert ocr._engine is engine
