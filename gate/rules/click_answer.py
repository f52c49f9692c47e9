"""A click on a dialog's plain answer ("OK", "Yes", "Confirm") takes the step the dialog's title asks about.

"Permanently delete 3 items?" answered with OK, "Empty Trash?" with Yes, "Are you sure you want to delete your
account?" with Confirm: the button's own label says nothing, the question says everything; pressing Enter there
asks already (`confirm.gui.dialog-answer-key`), and the click on the button Enter would press asks the same way.
A button labelled with the step itself ("Delete", "Empty Trash") is judged by its label (gate/consequence.py);
an answer button gets the same judgement from the title it answers (gate/rules/keys_answer.py reads the title,
for Enter and for this click alike). A negative answer (Cancel, No, Keep) or a title naming no step passes.

Pure: reads the target's label and the observation's window title.
"""

from __future__ import annotations

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


@rule("confirm.gui.dialog-answer-click", "A click on OK or Yes in a dialog that asks for a consequential step",
      risk=Risk.HIGH, types=("click",), confidence=0.75, needs="window")
def dialog_answer_click(ctx: Context) -> CheckResult:
    """A click on a plain answer button (OK, Yes, Confirm, Allow, in many languages) while the active
    window's title asks for a consequential step, as a question or as the step alone ("Permanently delete 3
    items?", "Empty Trash?", "Format Volume", "Do you want to allow this app to make changes to your device?"):
    the click takes the step, as a click on a button named for it would, and asks the same way."""
    label = ctx.derived(label_text)
    if not label.raw or label.words.split("\n", 1)[0].strip() not in AFFIRMATIVE:
        return None
    step = answered_step(ctx)
    if step is None:
        return None
    reason, risk = step
    why = f"{label.raw.splitlines()[0][:30]!r} answers {reason}"
    return (why, risk) if risk is not None else why


RULES: tuple[Rule, ...] = (dialog_answer_click,)
