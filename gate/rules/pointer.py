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

__all__ = ["RULES", "labels_agree"]

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


RULES: tuple[Rule, ...] = (label_mismatch,)
