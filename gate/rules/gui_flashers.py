"""Rules: clicks in a program that flashes disks, cards, phones or boards, or strips a phone's apps.

An image writer's "Flash!", Heimdall's "Start", a debloater's uninstall button or an imager's "PROGRAM OTP"
overwrite a whole disk, a phone's partitions or one-time memory with no undo; the same words elsewhere mean
little. The window's title names the program (`[context.flasher-window]` of resources/cues.toml), and its
commit buttons (`flasher-commit`) ask. Its switches that let it write over the machine's own system disk or
silence its warnings (`flasher-safety-off`: Etcher's unsafe mode, an imager's switch that turns its warnings
off, the system drive chosen as the target) block: that is the one disk whose loss takes the machine with it.

Choosing an image or a target, "Next", "Cancel" and the settings that keep system drives hidden pass.
"""

from __future__ import annotations

from gate.fields import short
from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.window_cues import cue_match, first_label, title_words

__all__ = ["RULES"]


def _flasher(ctx: Context) -> str | None:
    """The flashing program the window's title names, else None."""
    m = cue_match(ctx, "flasher-window", title_words(ctx))
    return m.group(0).strip() if m is not None else None


def _label(ctx: Context, name: str) -> str | None:
    first = first_label(ctx)
    if not first:
        return None
    return first if cue_match(ctx, name, first.strip(" !.")) is not None else None


@rule("block.gui.flasher-safety-off", "A flasher told to write over the system disk or to stop warning",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def flasher_safety_off(ctx: Context) -> str | None:
    """In an image writer's or a phone flasher's window, its unsafe mode, the switch that shows system drives as
    targets, the switch that turns its warnings off, or the system drive itself chosen as the target: the next
    "Flash" erases the disk the machine runs from. Keeping system drives excluded passes."""
    label = _label(ctx, "flasher-safety-off")
    if label is None or (tool := _flasher(ctx)) is None:
        return None
    return f"lets {tool!r} write over the machine's own system disk: {short(label)!r}"


@rule("confirm.gui.flasher-commit", "A flasher's button that writes, erases or strips a device",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def flasher_commit(ctx: Context) -> str | None:
    """In an image writer's, a phone flasher's, a board programmer's or a debloater's window, the button that
    writes the image, repartitions, erases, burns one-time memory or removes the chosen apps: the disk's or the
    device's contents are replaced with no undo. Choosing an image or a target, "Next" and "Cancel" pass."""
    label = _label(ctx, "flasher-commit")
    if label is None or (tool := _flasher(ctx)) is None:
        return None
    return f"writes, erases or strips the device in {tool!r}: {short(label)!r}"


RULES: tuple[Rule, ...] = (flasher_safety_off, flasher_commit)
