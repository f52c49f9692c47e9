"""Characters the keyboard map lacks, held on spare keycodes while a text is typed through xdotool.

`xdotool type` puts such a character on a scratch keycode, presses it and clears the keycode at once. A client
learns of a new map by asking the server for it when told the map changed; a busy client asks late, after the
keycode was cleared, finds no symbol on it and drops the character, while xdotool reports success. Holding every
character the text needs on a keycode of its own from before the typing until a moment after it closes that gap:
xdotool finds the characters in the map and changes nothing itself.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

# How long the characters stay mapped after xdotool exits: time for a slow client to read the map it was told of.
HOLD_AFTER_S = 0.5


def keysym_of(ch: str) -> int:
    """X keysym of one character: Latin-1 keysyms equal the code point, every other one is 0x01000000 + it."""
    cp = ord(ch)
    if 0x20 <= cp <= 0x7E or 0xA0 <= cp <= 0xFF:
        return cp
    return 0x01000000 | cp


def plan(keymap: list[tuple[int, ...]], first: int, wanted: list[int]) -> dict[int, int]:
    """keycode → keysym for each wanted keysym the map lacks, on keycodes that hold nothing.

    One empty keycode is always left over: xdotool needs it as scratch for anything not held here.
    """
    present = {ks for row in keymap for ks in row if ks}
    spare = [first + i for i, row in enumerate(keymap) if not any(row)]
    missing = [ks for ks in dict.fromkeys(wanted) if ks not in present]
    return dict(zip(spare[:-1], missing, strict=False))


@contextlib.contextmanager
def held(text: str) -> Iterator[int]:
    """Map the characters of `text` the keyboard lacks for the duration of the block (and HOLD_AFTER_S after it).

    Yields how many were held. Without an X connection nothing is held and xdotool remaps as it always does.
    """
    try:
        from Xlib import display as xdisplay

        disp = xdisplay.Display()
    except Exception:  # no python-xlib or no display: typing still works, only without the hold
        yield 0
        return
    mapped: dict[int, int] = {}
    width = 1
    try:
        first = disp.display.info.min_keycode
        count = disp.display.info.max_keycode - first + 1
        keymap = [tuple(row) for row in disp.get_keyboard_mapping(first, count)]
        width = len(keymap[0]) if keymap else 1
        for keycode, keysym in plan(keymap, first, [keysym_of(c) for c in text if not c.isascii()]).items():
            disp.change_keyboard_mapping(keycode, [(keysym,) * width])
            mapped[keycode] = keysym
        disp.sync()
    except Exception:  # the map could not be read or changed: type without the hold (what was mapped is undone)
        pass
    try:
        yield len(mapped)
        if mapped:
            time.sleep(HOLD_AFTER_S)
    finally:
        with contextlib.suppress(Exception):  # the typing is done: a lost connection only leaves spare keycodes
            for keycode in mapped:
                disp.change_keyboard_mapping(keycode, [(0,) * width])
            disp.sync()
        with contextlib.suppress(Exception):
            disp.close()
