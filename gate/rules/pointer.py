"""Rules: what the agent says it aims at against what deskgate read there itself.

deskgate reads the element under a click or drag (accessibility tree, else text recognition) and the
focused field for typing (app/desktop/pointer.py); the read label is what the other GUI rules judge
(`Context.action`). The agent's own claim survives in `Context.claimed`. When both exist and do not
name the same thing, the agent is either confused about the screen or describing it falsely: a person
decides.

"The same thing" is lenient, because agents paraphrase and text recognition misreads: after folding
(case, homoglyphs, punctuation) one contains the other, they share most of their words, or they are
close as strings (a misread letter or two).
"""

from __future__ import annotations

import difflib
import re

from gate.model import Risk
from gate.normalise import fold
from gate.rules.base import Context, Rule, rule

__all__ = ["RULES", "labels_agree", "read_status"]

_NON_WORD = re.compile(r"[\W_]+")
SIMILAR = 0.75         # difflib ratio at or above which two labels are the same (a misread character or two)
SHARED_WORDS = 0.5     # share of the shorter label's words found in the other


def _words(text: str) -> str:
    return " ".join(_NON_WORD.sub(" ", fold(text)).split())


def labels_agree(claimed: str, read: str) -> bool:
    """True when the claim and the read label plausibly name the same element."""
    a, b = _words(claimed), _words(read)
    if not a or not b:
        return True  # nothing to compare: not a finding
    if a in b or b in a:
        return True
    wa, wb = set(a.split()), set(b.split())
    if len(wa & wb) >= SHARED_WORDS * min(len(wa), len(wb)):
        return True
    return difflib.SequenceMatcher(None, a, b).ratio() >= SIMILAR


def _short(text: str, limit: int = 50) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@rule("confirm.gui.label-mismatch", "The agent's target differs from what deskgate reads there", risk=Risk.MEDIUM,
      types=("click", "drag", "type"), confidence=0.75)
def label_mismatch(ctx: Context) -> str | None:
    """The agent names a target (`target.label`, else `target.name`) and deskgate read a different label at
    the point it clicks or drags (accessibility tree or text recognition), or in the focused field it
    types into. Paraphrases and small misreadings are not a mismatch (`labels_agree`)."""
    obs = ctx.observation
    claimed = ctx.claimed
    if not obs.label_source or not obs.pointer_label or claimed is None:
        return None
    said = claimed.label or claimed.name
    if not said or labels_agree(said, obs.pointer_label):
        return None
    where = "in the focused field" if ctx.type == "type" else "at the point"
    return (f"the agent says {_short(said)!r} but deskgate reads {_short(obs.pointer_label)!r} {where} "
            f"({obs.label_source})")


# roles of elements whose whole purpose is to take text: a click there focuses a field, it commits nothing, and
# what is typed next is judged with the field (its name may well be empty: an unlabelled search box)
_INPUT_ROLES = frozenset({"text", "entry", "terminal", "document text", "paragraph", "editbar", "password text",
                          "text field", "textbox", "combo box", "spin button"})


def read_status(ctx: Context) -> str:
    """What deskgate knows of the target: "read" (a label it read itself, or an input field), "unread"
    (it read the screen there and nobody could read it), "claimed" (no screen read; the agent names a
    target), "later" (a desktop, the target not read yet), "unnamed" (no screen at all and no target named)."""
    obs = ctx.observation
    if obs.pointer_read or obs.label_source:
        if obs.pointer_label and obs.label_source and (
                obs.label_source != "ocr" or (obs.label_confidence is not None
                                               and obs.label_confidence >= ctx.policy.gui.ocr_min_confidence)):
            return "read"
        if obs.pointer_role.lower() in _INPUT_ROLES:  # roles come from the accessibility tree only
            return "read"
        return "unread"
    claimed = ctx.claimed
    if claimed is not None and (claimed.label or claimed.name or claimed.role):
        return "claimed"
    if obs.app or obs.window_title:
        # a desktop, but its target not read yet (a plan is judged before its steps are): the supervisor reads
        # it before the step runs and judges the step again (app/daemon/steps.py)
        return "later"
    return "unnamed"


@rule("confirm.gui.unreadable-target", "A click on a target nobody can read", risk=Risk.MEDIUM,
      types=("click", "drag"), confidence=0.6, live=lambda c, kind: c.policy.gui.unreadable_target == "confirm")
def unreadable_target(ctx: Context) -> str | None:
    """deskgate reads what a click or drag lands on (accessibility tree, then text recognition); when neither
    reads it (no accessible name, text recognised with too little confidence, an icon, a label drawn on a
    canvas, faint or non-Latin text), the rules would only judge what the agent claims, and an agent that
    claims nothing would pass. A person decides, with the preview. Input fields (a click that only focuses)
    count as read. With no screen to read (`deskgate check`), a pointer action that names no target asks.
    `[gui] unreadable_target = "allow"` (the `power` preset) turns this off."""
    status = ctx.derived(read_status)
    if status in ("read", "claimed", "later"):
        return None
    obs = ctx.observation
    claimed = ctx.claimed
    said = (claimed.label or claimed.name) if claimed is not None else None
    tail = f"; the agent says {_short(said)!r}" if said else "; the agent names no target"
    if status == "unnamed":
        return "deskgate cannot read the screen here and the agent names no target: nobody knows what this hits"
    if obs.label_source == "ocr" and obs.pointer_label:
        conf = obs.label_confidence if obs.label_confidence is not None else 0.0
        return (f"nobody can read what this lands on: text recognition reads {_short(obs.pointer_label)!r} with "
                f"confidence {conf:.2f} only{tail}")
    role = f" (a {obs.pointer_role} with no name)" if obs.pointer_role else ""
    return f"nobody can read what this lands on{role}: no accessible name and no text recognised{tail}"


RULES: tuple[Rule, ...] = (label_mismatch, unreadable_target)
