"""A click on a dialog's plain answer ("OK", "Yes", "Confirm") takes the step the dialog's title asks about.

"Permanently delete 3 items?" answered with OK, "Empty Trash?" with Yes, "Are you sure you want to delete your
account?" with Confirm: the button's own label says nothing, the question says everything; pressing Enter there
asks already (`confirm.gui.dialog-answer-key`), and the click on the button Enter would press asks the same way.
A button labelled with the step itself ("Delete", "Empty Trash") is judged by its label (gate/consequence.py);
an answer button gets the same judgement from the title it answers (gate/rules/keys_answer.py reads the title,
for Enter and for this click alike). A dialog that opens "Are you sure?" has two answers, the way back and the way
on; its way on may carry any name ("Edit" under "Are you sure? This order will be canceled ..."), so any short
label there that is not the way back answers it too. A negative answer (Cancel, No, Keep) or a title naming no
step passes.

Pure: reads the target's label and the observation's window title.
"""

from __future__ import annotations

import re

from gate.fields import label_text
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.keys_answer import answered_step

__all__ = ["AFFIRMATIVE", "RULES"]

# A dialog's yes-button, as its label reads once folded to lower-case words (gate/fields.py `words`), in the
# languages dialogs are shown in. Whole labels only: "OK, show me how" is another button. "Continue" and its kin
# are left out: in a window titled with a step they mostly lead to the step's own form, which asks in its turn.
AFFIRMATIVE = frozenset({
    "ok", "okay", "yes", "y", "confirm", "accept", "agree", "i agree", "allow", "go ahead", "do it", "sure",
    "yes i m sure", "yes im sure", "yes i am sure", "i m sure", "im sure", "yes confirm", "yes do it",
    # a web admin's form button under the step its panel is titled with (phpMyAdmin's "Go")
    "go",
    # de, fr, es, it, pt, nl, sv/da/no, pl, tr, ru
    "ja", "bestätigen", "bestaetigen", "zulassen", "akzeptieren", "ja sicher",
    "oui", "confirmer", "valider", "accepter", "autoriser", "d accord",
    "sí", "si", "aceptar", "confirmar", "permitir", "de acuerdo",
    "conferma", "consenti", "accetta",
    "sim", "aceitar",
    "bevestigen", "toestaan", "akkoord",
    "bekräfta", "tillåt", "bekræft", "bekreft",
    "tak", "potwierdź", "potwierdz", "zezwól",
    "evet", "tamam", "onayla",
    "да", "подтвердить", "разрешить",
    # ja, zh, ko
    "はい", "確認", "許可", "同意する", "是", "确定", "確定", "确认", "允许", "允許", "예", "확인",
})


# a warning that asks before it acts: its other button, whatever its name, goes ahead
_WARNING_OPENERS = ("are you sure", "do you really want", "really ")
# ... and the ways back out of it
_WAY_BACK = re.compile(r"^(?:cancel|no|no thanks|no cancel|not now|never mind|nevermind|keep|keep it|stay|back|go back|"
                       r"close|dismiss|abort|stop|don t|do not|leave it|undo|return|later|skip|x|nein|non|abbrechen|"
                       r"annuler|cancelar|annulla|annuleren)\b")
_ANSWER_WORDS = 3  # a dialog's buttons are a word or three; a longer label is something else on the page


def _goes_ahead(ctx: Context, first: str) -> bool:
    """The label is the way on of a dialog whose title warns before it acts ("Are you sure? ..."): not one of its
    ways back, and short as a dialog's button is."""
    title = ctx.observation.window_title.strip().lower()
    return bool(first) and title.startswith(_WARNING_OPENERS) and len(first.split()) <= _ANSWER_WORDS and \
        _WAY_BACK.match(first) is None


@rule("confirm.gui.dialog-answer-click", "A click on OK or Yes in a dialog that asks for a consequential step",
      risk=Risk.HIGH, types=("click",), confidence=0.75, needs="window")
def dialog_answer_click(ctx: Context) -> CheckResult:
    """A click on a plain answer button (OK, Yes, Confirm, Allow, in many languages) while the active
    window's title asks for a consequential step, as a question or as the step alone ("Permanently delete 3
    items?", "Empty Trash?", "Format Volume", "Do you want to allow this app to make changes to your device?"):
    the click takes the step, as a click on a button named for it would, and asks the same way. Under a title that
    warns "Are you sure? ...", any short label that is not a way back ("Cancel", "No", "Keep") is the way on."""
    label = ctx.derived(label_text)
    first = label.words.split("\n", 1)[0].strip() if label.raw else ""
    if not first or (first not in AFFIRMATIVE and not _goes_ahead(ctx, first)):
        return None
    step = answered_step(ctx)
    if step is None:
        return None
    reason, risk = step
    why = f"{label.raw.splitlines()[0][:30]!r} answers {reason}"
    return (why, risk) if risk is not None else why


RULES: tuple[Rule, ...] = (dialog_answer_click,)
