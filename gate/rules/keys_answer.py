"""Enter on a dialog that asks for a consequential step: the key answers the question the window title asks.

A confirmation dialog is titled with what it will do ("Delete 24 files?", "Confirm payment $499.00", "Transfer
$2,000 to John Smith?", "Remove user from organization?"), and its default button is one key away: Enter (or
Space, or Alt+Y for "Yes"). A click on that button is judged by its label (gate/consequence.py); the key gets the
same judgement from the title, which is the only label it has. It asks, at the risk the step carries.

Only a title that reads as the step itself counts: it asks a question about it, starts "Confirm ..." or "Are you
sure ...", or is the step alone ("Place order"); a question may also say what its answer does to a record ("Are you
sure? This order will be canceled", `[context.dialog-step]` of resources/cues.toml). A page's title names the site
after it ("Transfer money - Chase"), and Enter in its form mostly moves on to a review step, which asks in its turn.
A document, a mailbox or a terminal ("report.docx - Word", "Inbox (3)") names no step, and Enter there types a
new line or opens a message, as it does all day.

Pure: reads the action's keys and the observation's window title.
"""

from __future__ import annotations

from gate.consequence import consequence, moves_only
from gate.fields import short, text_of
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.gui import key_combo

__all__ = ["RULES", "answered_step"]

# keys that press a dialog's default button: Enter (the main and the keypad one), Space on a focused button,
# Alt+Y for "Yes" (Windows), Ctrl+Enter that many forms take as "submit"
_ANSWER_KEYS = frozenset({"enter", "kp_enter", "kpenter", "space", "alt+y", "ctrl+enter"})
_QUESTION_OPENERS = ("are you sure", "do you want", "do you really want", "would you like", "confirm", "really")
# a question a search or an article is titled with ("How to delete a repository? - Stack Overflow"), not a dialog
_ARTICLE_OPENERS = ("how ", "what ", "why ", "when ", "where ", "which ", "who ", "can i ", "can you ", "is it ",
                    "should ", "is there ", "does ", "do i ")
_TITLE_LIMIT = 120  # a dialog's title is short; a long title is a page or a document
# a dialog titled with a destruction alone ("Delete File", "Empty Trash", "Confirm File Delete" asks already)
_STEP_WORDS = 6
_DESTROYING = ("delete", "remove", "erase", "destroy", "purge", "wipe", "shred", "uninstall", "overwrite",
               "permanently", "empty", "discard")


def answered_step(ctx: Context) -> tuple[str, Risk | None] | None:
    """What the active window's title asks to do, when it is a dialog asking for a consequential step (the
    reason a person reads, and the step's risk: None for the rule's own), or None. An answer to it, by key or
    by click, takes that step."""
    title = ctx.observation.window_title.strip()
    if not title or len(title) > _TITLE_LIMIT:
        return None
    text = text_of(title)
    words = text.words.split("\n", 1)[0]
    if moves_only(words, ctx.compiled.cues):
        return None  # "Continue to checkout?", "Proceed to payment?": the step that commits comes later
    asks = (("?" in title or "\uff1f" in title) and not words.startswith(_ARTICLE_OPENERS)) or \
        words.startswith(_QUESTION_OPENERS)  # (U+FF1F: the question mark of Chinese and Japanese titles)
    found = consequence(text.words, keys=text.keys, book=ctx.compiled.cues)
    # a dialog asks, or is titled with the step alone; a page is titled "<what> - <site>" and Enter there mostly
    # moves a form on to its review step
    alone = not any(sep in title for sep in (" - ", " | ", " \u2014 ", " \u2013 ", " : "))
    if found is None:
        # a question about a step that cannot be undone ("Permanently delete this repository?", "Send $500 to
        # Mike?"), or a short title that is a destruction alone ("Delete Multiple Items", "Empty Trash"): the
        # irreversible verbs a click's label is read with
        irreversible = ctx.compiled.gui.irreversible
        m = irreversible.search(text.words, text.keys) if irreversible is not None else None
        if m is None:
            # "Are you sure? This order will be canceled ...": the question says what answering it does to a record
            told = ctx.compiled.cues.context.get("dialog-step")
            said = told.search(text.words) if told is not None and asks else None
            return (f"{short(title, 60)!r}: {said.group(0)}", Risk.MEDIUM) if said is not None else None
        if asks or (alone and m.start() == 0 and len(words.split()) <= _STEP_WORDS and
                    words.startswith(_DESTROYING)):
            return f"{short(title, 60)!r}: {m.group(0)} cannot be undone", None
        return None
    if not (asks or (alone and words.startswith(found.quote))):
        return None
    return f"{short(title, 60)!r}: {found.kind}", found.risk


@rule("confirm.gui.dialog-answer-key", "Enter on a dialog that asks for a consequential step", risk=Risk.HIGH,
      types=("key",), confidence=0.75)
def dialog_answer_key(ctx: Context) -> CheckResult:
    """Enter, Space, Alt+Y or Ctrl+Enter while the active window's title is a consequential step (money, deleting
    in bulk, permissions, people removed: the meanings `[consequence]` of resources/cues.toml gives labels),
    written as the step or asked as a question ("Delete 24 files?", "Confirm payment $499.00"): the key presses the
    dialog's default button, the click on which would ask. A title that only names a document or an app passes."""
    if ctx.derived(key_combo) not in _ANSWER_KEYS:
        return None
    step = answered_step(ctx)
    if step is None:
        return None
    reason, risk = step
    return (f"the key answers {reason}", risk) if risk is not None else f"the key answers {reason}"


RULES: tuple[Rule, ...] = (dialog_answer_key,)
