"""Rules: typed text judged as what it becomes where it goes (gate/typed.py says where), and a clicked
link whose text is a URL judged as the navigation it shows.

Into a terminal or a Run dialog it is a shell command, and the shell family's own rules judge it: the
text becomes a `shell` action and every catalogued rule for `shell` actions runs over it, so whatever
the shell rules know (and learn later) applies to typed commands too. Into the address bar it is a
navigation, judged by every rule for `navigate` actions. Into an unknown place (no target, no observed
window) a command the shell rules would block still asks: it may well be a terminal.

When deskgate observed a terminal window, `gate.shell.command_facts` already hands the typed text to the
shell rules directly; these rules then stay out of the way, so one finding is not reported twice.
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote, urlsplit

from gate.attack_console import LOOK, THEFT, verbs
from gate.cues import either_spelling
from gate.fields import field_place, field_text, text_of
from gate.lines import EMPTY_LINE, has_controls, judged_text, pressed, typed
from gate.model import Decision, FileRead, Hit, Navigate, Observation, Risk, Shell, TypedLine
from gate.prefix import Guarded
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.gui import key_combo
from gate.rules.shell_vocab import _SQL_BLOCK, _SQL_CONFIRM
from gate.shell import command_facts, env_prefix, line_cwd
from gate.typed import (
    Destination,
    Escape,
    Launch,
    as_command,
    as_url,
    code_step,
    console_program,
    destination,
    escaped,
    field_command,
    in_terminal,
    launched,
    settings_page,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["RULES", "EscapeVerdict", "LineEnd", "Verdict", "code_verdict", "escape_verdict", "judge_as", "line_end",
           "link_verdict", "strongest", "typed_verdict"]

TYPE = ("type",)
_LINE_END_CHARS = frozenset("\n\r\x0b\x0c\x0f")
_LINK_IDS = frozenset({"block.web.link-target", "confirm.web.link-target"})
# a whole text that is one URL with a scheme: typed somewhere unknown, it is judged as that URL too
_URL_ONLY = re.compile(r"^(?:https?|javascript|data|vbscript|file|ftp):\S*$", re.IGNORECASE)


# rules that judge something else as a command or a URL themselves: never run inside such a judgement
_DERIVED = ("block.typed.", "confirm.typed.")


def _rules_for(kind: str, ctx: Context) -> Iterable[Rule]:
    return (r for r in ctx.compiled.by_type[kind] if r.types is not None
            and not r.id.startswith(_DERIVED) and r.id not in _LINK_IDS)


def judge_as(action: Shell | Navigate | FileRead, ctx: Context, observation: Observation | None = None
             ) -> tuple[Hit | None, Hit | None]:
    """The strongest block hit and the strongest confirm hit of the rules for `action`'s type, run over
    `action` in `ctx`'s place (typed text as the command it becomes; a file's content as what it runs), with
    `observation` instead of the context's own when given."""
    return _judge(action, ctx, observation)


def _judge(action: Shell | Navigate | FileRead, ctx: Context, observation: Observation | None = None
           ) -> tuple[Hit | None, Hit | None]:
    """The strongest block hit and the strongest confirm hit of the rules for `action`'s type."""
    sub = Context(action, observation if observation is not None else ctx.observation, ctx.compiled, None)
    return strongest(_rules_for(action.type, sub), sub)


def strongest(rules: Iterable[Rule], sub: Context) -> tuple[Hit | None, Hit | None]:
    """The strongest block hit and the strongest confirm hit of `rules` run over `sub`."""
    block: Hit | None = None
    confirm: Hit | None = None
    for r in rules:
        hit = r(sub)
        if hit is None:
            continue
        if hit.decision is Decision.BLOCK and (block is None or hit.risk > block.risk):
            block = hit
        elif hit.decision is Decision.CONFIRM and (confirm is None or hit.risk > confirm.risk):
            confirm = hit
    return block, confirm


class Verdict(NamedTuple):
    where: Destination
    kind: str  # "command" | "url" | "" (stays text)
    text: str  # the command or URL it becomes
    block: Hit | None  # the strongest block hit of the rules for that command or URL
    confirm: Hit | None  # ... and the strongest confirm hit


_TEXT = Verdict(Destination.FIELD, "", "", None, None)


def typed_verdict(ctx: Context) -> Verdict:
    """What the typed text of `ctx` becomes where it goes, and what the rules for that say. Once per
    context (`ctx.derived`)."""
    where = ctx.derived(destination)
    if where in _LAUNCH_PLACES and (launch := ctx.derived(launched)) is not None:
        return _launch_verdict(launch, ctx)
    text = ctx.action.text  # type: ignore[attr-defined]
    line = ctx.observation.line
    if (where.runs_commands or where is Destination.UNKNOWN) and (line is not None or has_controls(text)):
        # the whole line(s) it makes, control characters applied. Not for the address bar: a browser window's
        # line may hold text typed into the page's own fields, and the URL typed is judged as typed
        text = judged_text(line, text)
    if where is Destination.ADDRESS_BAR or (where is Destination.UNKNOWN and _URL_ONLY.match(text.strip())):
        url = as_url(text)
        if url is None:
            return _TEXT._replace(where=where)
        return Verdict(where, "url", url, *_judge(Navigate(url=url), ctx))
    if where.runs_commands or where is Destination.UNKNOWN:
        if where is Destination.TERMINAL and ctx.derived(command_facts) is not None:
            return _TEXT._replace(where=where)  # the shell rules see this text themselves
        command = as_command(text)
        if command is None:
            return _TEXT._replace(where=where)
        if where is Destination.COMMAND_FIELD:
            command = field_command(ctx, command)  # arguments: with the program they are written for
        block, confirm = _judge(Shell(command=command), ctx)
        if where is Destination.RUN_DIALOG and settings_page(command):
            confirm = None  # it opens a settings page; what is changed there is judged as clicked
        inner = in_terminal(command) if where.runs_commands or where is Destination.UNKNOWN else None
        if inner is not None:
            # a terminal emulator launched with a command: what runs is that command, judged as well
            b, c = _judge(Shell(command=inner), ctx)
            block = b if b is not None and (block is None or b.risk > block.risk) else block
            confirm = c if c is not None and (confirm is None or c.risk > confirm.risk) else confirm
        return Verdict(where, "command", command, block, confirm)
    return _TEXT._replace(where=where)


# where a launcher's search box may be: a field it names, its own window, a Run dialog's label on it
_LAUNCH_PLACES = frozenset({Destination.FIELD, Destination.UNKNOWN, Destination.RUN_DIALOG})


def _launch_verdict(launch: Launch, ctx: Context) -> Verdict:
    """A launcher's command line, judged as typed into a Run dialog. A bare name with no shell prefix (`calc`,
    `notepad`) is the launcher's app search: only a block of the shell rules counts for it."""
    block, confirm = _judge(Shell(command=launch.command), ctx)
    if (not launch.prefixed and len(launch.command.split()) < 2) or settings_page(launch.command):
        confirm = None
    return Verdict(Destination.RUN_DIALOG, "command", launch.command, block, confirm)


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@rule("block.typed.command", "A typed command that the shell rules block", risk=Risk.CRITICAL, types=TYPE)
def typed_command_block(ctx: Context) -> CheckResult:
    """Text typed into a terminal, a shell prompt or a Run dialog runs as a command there: when the shell
    rules block that command (`rm -rf ~`, a reverse shell, curl piped to a shell), typing it is blocked.
    Typed with Enter where deskgate cannot tell the destination (no target, no window), it is blocked too:
    a line submitted that way is meant to run, and the gate fails closed."""
    where, kind, command, block, _ = ctx.derived(typed_verdict)
    if block is None or kind != "command":
        return None
    if where.runs_commands:
        return f"typed into {where.value}, {_short(command)!r} runs: {block.reason}", block.risk
    if where is Destination.UNKNOWN and _submitted(ctx):
        return (f"typed with Enter into an unknown place, {_short(command)!r} runs if it is a terminal: "
                f"{block.reason}"), block.risk
    return None


def _submitted(ctx: Context) -> bool:
    """The typed text ends a line (Enter): it is meant to run, not to sit in a field."""
    return any(c in _LINE_END_CHARS for c in ctx.action.text)  # type: ignore[attr-defined]


@rule("confirm.typed.command", "A typed command that the shell rules ask about", risk=Risk.HIGH, types=TYPE,
      confidence=0.85)
def typed_command_confirm(ctx: Context) -> CheckResult:
    """Text typed into a terminal or Run dialog that the shell rules would ask about, or a command they
    would block typed without Enter where deskgate cannot tell whether it reaches a shell."""
    where, kind, command, block, confirm = ctx.derived(typed_verdict)
    if kind != "command":
        return None
    if where is Destination.UNKNOWN:
        if block is None or _submitted(ctx):
            return None
        return f"typed somewhere unknown, {_short(command)!r} would run if this is a terminal: {block.reason}", \
            Risk.HIGH
    if not where.runs_commands or block is not None or confirm is None:
        return None
    return f"typed into {where.value}, {_short(command)!r} runs: {confirm.reason}", confirm.risk


def _unnamed_window_command(ctx: Context) -> tuple[str, Hit] | None:
    """(the command, the shell rules' block of it) for text typed with Enter into a window deskgate read but could
    not place: no target named, no page, and an app or title that is no browser, editor, document, mail or chat.
    Terminals go by many names (a new emulator, a remote desktop's shell, a console renamed by its user); a line
    the shell rules would block, ended with Enter there, is meant to run. Once per context."""
    if ctx.action.target is not None or ctx.observation.url or not _submitted(ctx):  # type: ignore[attr-defined]
        return None
    if ctx.derived(destination) is not Destination.FIELD or _placed(ctx):
        return None
    command = as_command(ctx.action.text)  # type: ignore[attr-defined]
    if command is None:
        return None
    block, _ = _judge(Shell(command=command), ctx)
    return None if block is None else (command, block)


# programs whose windows are no shell: browsers, editors, office documents, mail and chat clients
_PLACED = re.compile(
    r"\b(?:firefox|chrome|chromium|brave|edge|msedge|safari|opera|vivaldi|browser|code|visual studio|sublime|"
    r"notepad|gedit|kate|textedit|word|winword|excel|powerpoint|libreoffice|soffice|writer|calc|impress|pages|"
    r"numbers|keynote|outlook|thunderbird|mail|evolution|slack|teams|discord|whatsapp|telegram|signal|zoom|skype|"
    r"obsidian|notion|onenote|evernote|gimp|inkscape|photoshop)\b", re.IGNORECASE)


def _placed(ctx: Context) -> bool:
    obs = ctx.observation
    return bool(_PLACED.search(obs.app) or _PLACED.search(obs.window_title[:256]))


@rule("confirm.typed.command-unplaced-window", "A command the shell rules block, typed with Enter into a window "
      "deskgate cannot place", risk=Risk.HIGH, types=TYPE, confidence=0.7)
def unplaced_window_command(ctx: Context) -> CheckResult:
    """Text typed with Enter into a window deskgate read but cannot place (no target named, no page, and no
    browser, editor, document, mail or chat by its app or title) that the shell rules would block if it ran:
    the window may well be a terminal under a name deskgate does not know (a new emulator, a remote desktop's
    shell), so the person decides. Ordinary lines (`ls -la`, a sentence) and the same command typed into an
    editor or a chat pass."""
    found = ctx.derived(_unnamed_window_command)
    if found is None:
        return None
    command, block = found
    return f"typed with Enter into {ctx.observation.window_title or ctx.observation.app!r}, " \
        f"{_short(command)!r} runs if it is a shell: {block.reason}", Risk.HIGH


# -- a phrase typed to confirm a step that cannot be undone -------------------------------------------------

# a field that asks for a phrase or a name before the step runs, in the languages people's consoles speak:
# "Type DELETE to confirm", "Geben Sie LÖSCHEN ein, um zu bestätigen", "Saisissez SUPPRIMER pour confirmer",
# "Escribe ELIMINAR para confirmar", "Digita ELIMINA per confermare", "Typ VERWIJDEREN om te bevestigen",
# "確認のため「削除」と入力", "请输入 删除 以确认"
_ASKS_PHRASE = Guarded(re.compile(
    either_spelling(
        r"\b(?:type|enter|write|retype|re enter|input|key in)\b.{0,80}?\b(?:to|and) (?:confirm|continue|proceed|"
    r"delete|remove|cancel|close|transfer|erase|destroy|disable|deactivate|archive|reset|wipe|verify)\b|"
    r"\b(?:to confirm|confirm by typing|please confirm by|type (?:the )?(?:name|phrase|word|following)|"
    r"enter (?:the )?(?:name|phrase)|(?:repository|project|account|workspace|bucket|database|cluster|instance|"
    r"organi[sz]ation|team|server|app|site|domain|table|index|stack|vault|volume) name to confirm)\b|"
    r"\b(?:geben sie|gib|tippen sie|tipp|schreiben sie)\b.{0,60}?\b(?:ein|um zu bestätigen|zur bestätigung)\b|"
    r"\bzur bestätigung\b|\bum (?:den vorgang )?zu bestätigen\b|"
    r"\b(?:saisissez|saisir|tapez|entrez|écrivez|ecrivez)\b.{0,60}?\bpour (?:confirmer|continuer|supprimer)\b|"
    r"\bpour confirmer\b|"
    r"\b(?:escribe|escriba|introduce|introduzca|ingrese|ingresa|digite|digita|scrivi|inserisci|immetti|"
    r"insira|escreva)\b.{0,60}?\b(?:para|per) (?:confirmar|confermare|continuar|continuare|eliminar|excluir)\b|"
    r"\bpara confirmar\b|\bper confermare\b|"
    r"\b(?:typ|voer)\b.{0,60}?\bom (?:te )?(?:bevestigen|verwijderen|door te gaan)\b|\bter bevestiging\b|"
    r"\b(?:wpisz|wprowadź)\b.{0,60}?\baby potwierdzić\b|\bвведите\b.{0,60}?\bчтобы подтвердить\b|"
    r"確認のため|と入力|を入力して.{0,10}確認|以确认|以確認|进行确认|確定するには|입력하여 확인|확인하려면")))
# the words such a field asks for, in those languages
_PHRASE = re.compile(
    either_spelling(
        r"^(?:(?:yes,? )?(?:permanently )?(?:delete|remove|destroy|erase|wipe|purge|drop|terminate|close|cancel|"
    r"deactivate|disable|transfer|reset|confirm|archive|unsubscribe|leave)(?: (?:my |this |the )?"
    r"(?:account|repository|repo|project|workspace|organi[sz]ation|team|data|everything|all|it|forever|"
    r"permanently|subscription|database|bucket|server|site|app))?|i understand|i understand the consequences|"
    r"i agree|i accept|i am sure|i m sure|yes|yes i am sure|confirm|confirmed|proceed|"
    r"löschen|endgültig löschen|entfernen|bestätigen|ja|kündigen|supprimer|supprimer définitivement|confirmer|"
    r"oui|eliminar|borrar|confirmar|sí|si|elimina|cancella|conferma|excluir|apagar|sim|verwijderen|bevestigen|"
    r"usuń|potwierdzam|удалить|подтверждаю|削除|删除|刪除|確認|确认|삭제|확인)[.!]?$"))
# a window, a page or a field that is about such a step
_STEP_PLACE = Guarded(re.compile(
    either_spelling(
        r"\b(?:delete|deletion|remove|removal|destroy|erase|wipe|purge|drop|terminate|close (?:your |my |the )?account|"
    r"deactivate|cancel (?:your |my |the )?(?:subscription|plan|membership)|transfer (?:ownership|repository|"
    r"project|funds|money)|danger(?: ?zone)?|permanently|irreversible|cannot be undone|can t be undone|"
    r"are you (?:absolutely )?sure|löschen|entfernen|kündigen|supprimer|suppression|eliminar|borrar|elimina|"
    r"cancella|excluir|apagar|"
    r"verwijderen|usuń|удалить|削除|删除|刪除|삭제)\b"), re.IGNORECASE))


_LOOKUP_FIELD = re.compile(r"\b(?:search|filter|find|query|look ?up|suche|recherche|buscar|cerca|pesquisar|zoeken)\b")


def _confirmation(ctx: Context) -> str | None:
    """Why the typed text confirms a step that cannot be undone, or None (see `confirmation_phrase`)."""
    text = ctx.action.text.strip()  # type: ignore[attr-defined]
    if not text or len(text) > 120 or "\n" in text:
        return None
    field = ctx.derived(field_text)
    label = f"{field.raw.lower()}\n{field.words}" if field.raw else ""
    if label and _ASKS_PHRASE.search(label):
        return "the field asks for it to confirm the step"
    if label and _LOOKUP_FIELD.search(label):
        return None
    obs = ctx.observation
    place = f"{obs.window_title[:256]}\n{label}\n{obs.url[:512]}"
    if not _STEP_PLACE.search(place.replace("-", " ").replace("_", " ")):
        return None
    said = " ".join(text_of(text).words.split())
    if _PHRASE.match(said) or _PHRASE.match(text.lower()):
        return "the phrase that confirms the step"
    # the name of what is deleted, typed where the window or the field is about deleting it
    if " " not in text and len(text) >= 3 and (text.lower() in obs.url.lower() or
                                               text.lower() in obs.window_title.lower()):
        return "the name of what the step deletes"
    return None


@rule("confirm.typed.confirmation-phrase", "Typing the phrase or name that confirms a step that cannot be undone",
      risk=Risk.HIGH, types=TYPE, confidence=0.8)
def confirmation_phrase(ctx: Context) -> CheckResult:
    """A field that asks for a phrase or a name before a step runs ("Type DELETE to confirm", "enter the repository
    name to confirm", "Geben Sie LÖSCHEN ein, um zu bestätigen", "Saisissez SUPPRIMER pour confirmer", "確認のため
    「削除」と入力"), or a confirmation word ("DELETE", "I understand", "supprimer") or the name of the thing typed
    where the window, the page or the field is about deleting, closing or transferring it: typing it is the
    confirming click in another form. The same word in a search box or a note, and a name typed into a form that
    creates something, pass."""
    why = _confirmation(ctx)
    if why is None:
        return None
    return f"typing {_short(ctx.action.text, 40)!r} ({why}): it confirms a step that cannot be undone"  # type: ignore[attr-defined]


# -- an amount typed into a form that moves money ----------------------------------------------------------

# a sum as people type it: "2500", "1 250,00", "1.250,00 €", "$ 99.95", "0.5 ETH"
_AMOUNT = re.compile(r"^\s*(?:[$€£¥₹₩₽]|[a-z]{3})?\s*\d{1,3}(?:[ .,'\u00a0\u202f]?\d{3})*(?:[.,]\d{1,8})?\s*"
                     r"(?:[$€£¥₹₩₽]|[a-z]{2,5})?\s*$", re.IGNORECASE)
# a field for the sum, in the languages of banks' and wallets' forms
_AMOUNT_FIELD = re.compile(
    either_spelling(r"\b(?:amount|sum|betrag|summe|montant|somme|importe|cantidad|monto|importo|valor|quantia|bedrag|"
    r"kwota|сумма|tutar|částka|belopp|beløb|beløp|määrä)\b|金額|金额|额度|금액"))
# a form that sends, pays, transfers, withdraws or swaps money, by its page, its window or the field itself
_MONEY_PLACE = re.compile(
    either_spelling(
        r"\b(?:send|pay|payment|transfer|withdraw|withdrawal|wire|remit|remittance|payout|swap|bridge|donate|tip|"
    r"überweisung|ueberweisung|überweisen|auszahlung|senden|zahlung|virement|envoyer|paiement|retrait|"
    r"transferencia|enviar|pago|retiro|bonifico|invia|pagamento|prelievo|transferência|transferencia|"
    r"overboeking|overmaken|betalen|przelew|перевод|havale|převod|överföring)\b|"
    r"振込|送金|振替|转账|转帐|汇款|付款|提现|송금|이체"), re.IGNORECASE)


# a payee the person already has, or a split of a shared bill, named by the amount field
_KNOWN_PAYEE = re.compile(r"\b(?:saved|existing|known|regular|frequent|favou?rite|recent) (?:contact|payee|recipient|"
                          r"friend|biller)\b|\b(?:split|splitting|my share|your share|share of)\b")


def _under(text: str, limit: int) -> bool:
    digits = re.sub(r"[^\d.,]", "", text).replace(",", ".")
    whole = digits.split(".")[0] if digits.count(".") <= 1 else digits.replace(".", "")
    return whole.isdigit() and int(whole) < limit


@rule("confirm.typed.amount-to-send", "An amount typed into a form that sends, pays or transfers money",
      risk=Risk.HIGH, types=TYPE, redact=("text",), confidence=0.75)
def amount_to_send(ctx: Context) -> CheckResult:
    """A sum ("2500", "1 250,00", "0.5") typed into the amount field ("Amount", "Betrag", "Montant", "Importe",
    "金額") of a form that sends, pays, transfers, withdraws or swaps money (its page, its window or the field
    says so, in any of those languages): the sum the step will move. An amount in a price filter, a quantity
    in a basket or a figure in a spreadsheet passes."""
    text = ctx.action.text  # type: ignore[attr-defined]
    if len(text) > 40 or not _AMOUNT.match(text) or not any(c.isdigit() for c in text):
        return None
    field = ctx.derived(field_text)
    if not field.raw or not (_AMOUNT_FIELD.search(field.words) or _AMOUNT_FIELD.search(field.raw.lower())):
        return None
    if _KNOWN_PAYEE.search(field.words) and _under(text, 1000):
        return None  # a small share of a bill for someone the person already pays: the send asks if anything does
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    place = f"{field.raw}\n{obs.window_title[:256]}\n{url[:512]}".replace("-", " ").replace("_", " ").replace("/", " ")
    if not _MONEY_PLACE.search(place):
        return None
    return f"typing an amount into {field_place(ctx)} of a form that moves money", Risk.HIGH


# A command written so that a person cannot read what it does or see it run: PowerShell given an encoded
# command, a hidden window or a downloaded script to evaluate, and the Windows programs that fetch and run
# remote code (mshta, certutil, bitsadmin, regsvr32, rundll32 with a URL). Each is a program and, after it,
# what it is told to do: two searches, so a long line is read once, never once per program name.
_HIDDEN_RUN: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (re.compile(program, re.IGNORECASE), re.compile(then, re.IGNORECASE)) for program, then in (
        (r"\b(?:powershell|pwsh)(?:\.exe)?\b",
         r"\s[-/](?:e|ec|en|enc|enco|encod|encode|encoded|encodedc\w*)\s+[A-Za-z0-9+/=]{8,}|\s[-/]w(?:in\w*)?\s+"
         r"(?:h|hi|hid|hidd|hidde|hidden|1)\b|frombase64string|downloadstring|downloadfile|\biex\b|invoke-expression|"
         r"\birm\b|invoke-restmethod|\biwr\b|invoke-webrequest"),
        (r"\bmshta(?:\.exe)?\s+[\"']?(?:https?|javascript|vbscript):", r""),
        (r"\bcertutil(?:\.exe)?\b", r"\s[-/](?:urlcache|decode|decodehex)\b"),
        (r"\bbitsadmin(?:\.exe)?\b", r"\s/transfer\b"),
        (r"\b(?:regsvr32|rundll32)(?:\.exe)?\b", r"https?://|javascript:|\\\\\w"),
    ))


def _hidden_run(text: str) -> str | None:
    """The part of `text` that runs code nobody can read, or None."""
    for program, then in _HIDDEN_RUN:
        p = program.search(text)
        if p is not None and (m := then.search(text, p.end())) is not None:
            return text[p.start():m.end()]
    return None


@rule("block.typed.hidden-command", "A hidden or encoded command typed into a Run dialog or a terminal",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def typed_hidden_command(ctx: Context) -> CheckResult:
    """Text typed into a Run dialog or a terminal (or with Enter where deskgate cannot tell) that runs
    PowerShell with an encoded command, a hidden window or a downloaded script to evaluate, or a Windows
    program that fetches and runs remote code (mshta with a URL, certutil -urlcache, bitsadmin /transfer,
    regsvr32 or rundll32 with a URL). It is what fake verification pages ("press Win+R, paste, Enter")
    have typed: nobody at the keyboard can read what it does. An ordinary `powershell Get-Process` or a
    `-e` flag of another program does not block here."""
    verdict = ctx.derived(typed_verdict)
    where = verdict.where if verdict.kind == "command" else ctx.derived(destination)
    if not (where.runs_commands or (where is Destination.UNKNOWN and _submitted(ctx))):
        return None
    if verdict.block is not None:
        return None  # block.typed.command says why
    text = verdict.text if verdict.kind == "command" else ctx.action.text  # type: ignore[attr-defined]
    found = _hidden_run(text)
    if found is None:
        return None
    return f"typed into {where.value}, {_short(text)!r} runs code nobody can read: {_short(found, 40)!r}"


@rule("block.typed.url", "A URL typed into the address bar that navigation rules block", risk=Risk.HIGH,
      types=TYPE)
def typed_url_block(ctx: Context) -> CheckResult:
    """Text typed into the browser's address bar opens that URL: a `javascript:` URL, a homograph host or
    a secret in the URL is blocked exactly as the same `navigate` action would be."""
    where, kind, url, block, _ = ctx.derived(typed_verdict)
    if block is None or kind != "url" or where is not Destination.ADDRESS_BAR:
        return None
    return f"typed into the address bar, {_short(url)!r} opens: {block.reason}", block.risk


@rule("confirm.typed.url", "A URL typed into the address bar that navigation rules ask about", risk=Risk.MEDIUM,
      types=TYPE)
def typed_url_confirm(ctx: Context) -> CheckResult:
    """Text typed into the address bar that the navigation rules would ask about (a look-alike host, an
    executable download, a raw IP...), or a URL they would block typed where deskgate cannot tell whether
    it is the address bar. Search terms typed there are not a URL and do not ask."""
    where, kind, url, block, confirm = ctx.derived(typed_verdict)
    if kind != "url":
        return None
    if where is Destination.UNKNOWN and block is not None:
        return f"typed somewhere unknown, {_short(url)!r} would open if this is the address bar: {block.reason}", \
            Risk.HIGH
    if where is not Destination.ADDRESS_BAR or block is not None or confirm is None:
        return None
    return f"typed into the address bar, {_short(url)!r} opens: {confirm.reason}", confirm.risk


# -- links: a click on text that is a URL opens that URL -----------------------------------------------


def link_verdict(ctx: Context) -> Verdict:
    """A clicked target whose whole label (or name) is a URL, judged as that navigation. Once per context."""
    target = ctx.action.target
    for text in (target.label, target.name) if target is not None else ():
        if text and len(text) <= 2048 and " " not in text.strip():
            url = as_url(text)
            if url is not None:
                return Verdict(Destination.FIELD, "url", url, *_judge(Navigate(url=url), ctx))
    return _TEXT


@rule("block.web.link-target", "A clicked link whose text is a URL that navigation rules block", risk=Risk.HIGH,
      types=("click",))
def link_block(ctx: Context) -> CheckResult:
    """The clicked target's text is itself a URL (a link in an e-mail or a chat) that would be blocked as a
    `navigate`: a homograph host, `https://bank.com@evil.example/`, a `javascript:` or `data:` document.
    Where the link really points may differ from its text, but a link that shows one of these is a lure."""
    _, kind, url, block, _ = ctx.derived(link_verdict)
    if kind != "url" or block is None:
        return None
    return f"the link reads {_short(url)!r}: {block.reason}", block.risk


@rule("confirm.web.link-target", "A clicked link whose text is a URL that navigation rules ask about",
      risk=Risk.MEDIUM, types=("click",), confidence=0.8)
def link_confirm(ctx: Context) -> CheckResult:
    """The clicked target's text is a URL that would ask as a `navigate` (a look-alike or scam-named host,
    an executable download, a raw IP, a request collector)."""
    _, kind, url, block, confirm = ctx.derived(link_verdict)
    if kind != "url" or block is not None or confirm is None:
        return None
    return f"the link reads {_short(url)!r}: {confirm.reason}", confirm.risk


# -- line ends: the whole line runs ---------------------------------------------------------------------


class LineEnd(NamedTuple):
    where: Destination
    lines: tuple[TypedLine, ...]  # the lines this action ends, whole (the line so far included)
    block: Hit | None  # the strongest block hit over those lines (their text, and raw form where it differs)
    confirm: Hit | None
    judged: str  # the line judged (the first that fired, else the last), for a person


_NO_END = LineEnd(Destination.FIELD, (), None, None, "")


def _ended(ctx: Context) -> tuple[TypedLine, ...]:
    line = ctx.observation.line
    if ctx.type == "key":
        if line is None:
            return ()
        after = pressed(line, ctx.derived(_combo))
        if not after.ends:
            return ()
        return (line,) if after.line.known else (after.line,)  # a paste ends a line nobody can know
    text = ctx.action.text  # type: ignore[attr-defined]
    if not has_controls(text):
        return ()
    return typed(line or EMPTY_LINE, text).ended


_combo = key_combo  # the key rules of gate/rules/gui.py share the one derived fact


def line_end(ctx: Context) -> LineEnd:
    """The lines a `key` (Return, KP_Enter, ctrl+m, ctrl+j, a paste) or the line ends inside typed text end in a
    terminal, Run dialog or address bar, and what the rules for what they run say. Once per context."""
    if ctx.type == "type" and not has_controls(ctx.action.text):  # type: ignore[attr-defined]
        return _NO_END  # the common case: no line end inside the text
    if ctx.type == "key" and ctx.observation.line is None:
        return _NO_END  # a key with no line followed ends none (`_ended`), wherever it goes
    where = ctx.derived(destination)
    if not where.runs_commands and where is not Destination.ADDRESS_BAR:
        return _NO_END
    lines = _ended(ctx)
    if not lines:
        return _NO_END
    block: Hit | None = None
    confirm: Hit | None = None
    judged = ""
    if ctx.type == "type":  # typed text is judged whole by typed_command_* and the shell rules already
        return LineEnd(where, lines, None, None, lines[-1].text)
    for ln in lines:
        for text in dict.fromkeys((ln.text, ln.raw)):
            if not text.strip():
                continue
            judged = judged or text
            if where is Destination.ADDRESS_BAR:
                url = as_url(text)
                if url is None:
                    continue
                b, c = _judge(Navigate(url=url), ctx)
            else:  # (with the variables earlier lines of the terminal set: gate/lines.py `carried_env`)
                env = ctx.observation.line.env if ctx.observation.line is not None and "$" in text else ()
                command = env_prefix(env, expand=True) + text.strip() if env else text.strip()
                b, c = _judge(Shell(command=command,
                                    cwd=line_cwd(ctx.observation.window_title, ctx.observation.line)), ctx)
            if b is not None and (block is None or b.risk > block.risk):
                block, judged = b, text
            if c is not None and (confirm is None or c.risk > confirm.risk):
                confirm = c
                if block is None:
                    judged = text
    return LineEnd(where, lines, block, confirm, judged)


_KEY_NAMES = {"enter": "Return", "kpenter": "KP_Enter", "kp_enter": "KP_Enter", "numpadenter": "KP_Enter"}


def _how(ctx: Context) -> str:
    if ctx.type == "key":
        combo = ctx.derived(_combo)
        return _KEY_NAMES.get(combo, combo)
    return "a line end in the typed text"


@rule("block.typed.line-end", "A line end runs a line the shell rules block", risk=Risk.CRITICAL,
      types=("key", "type"))
def line_end_block(ctx: Context) -> CheckResult:
    """Return (KP_Enter, ctrl+m, ctrl+j, or a line end inside typed text) runs the whole line the window holds,
    not the last fragment typed: `rm -rf ` then `~` then Return is `rm -rf ~`. When the shell rules (or, in the
    address bar, the navigation rules) block that line, the line end is blocked."""
    end = ctx.derived(line_end)
    if end.block is None:
        return None
    what = "opens" if end.where is Destination.ADDRESS_BAR else "runs"
    return (f"{_how(ctx)} in {end.where.value} {what} the line so far {_short(end.judged)!r}: {end.block.reason}",
            end.block.risk)


@rule("confirm.typed.line-end", "A line end runs a line the shell rules ask about", risk=Risk.HIGH,
      types=("key", "type"), confidence=0.85)
def line_end_confirm(ctx: Context) -> CheckResult:
    """A line end runs a whole line that the shell rules (or the navigation rules) would ask about."""
    end = ctx.derived(line_end)
    if end.block is not None or end.confirm is None:
        return None
    what = "opens" if end.where is Destination.ADDRESS_BAR else "runs"
    return (f"{_how(ctx)} in {end.where.value} {what} the line so far {_short(end.judged)!r}: "
            f"{end.confirm.reason}", end.confirm.risk)


@rule("confirm.typed.unknown-line", "A line end in a terminal whose line deskgate cannot know", risk=Risk.HIGH,
      types=("key", "type"), confidence=0.7)
def unknown_line(ctx: Context) -> CheckResult:
    """Return in a terminal whose line deskgate cannot know runs something nobody judged: after
    history keys (Up, ctrl+r, ctrl+p), Tab completion, escape sequences, a paste, a window switch, or text
    typed before deskgate saw the window. A person decides. ctrl+c first gives a known, empty line. In a Run
    dialog, recalled or pasted text asks; a dialog seen for the first time does not (it opens empty)."""
    end = ctx.derived(line_end)
    if not end.where.runs_commands:
        return None
    # a Run dialog seen for the first time opens empty, or with its last text selected (typing replaces it):
    # only recalled or pasted text makes its line unknown
    terminal = end.where is Destination.TERMINAL
    unknown = next((ln for ln in end.lines if not ln.known and (terminal or not ln.first)), None)
    if unknown is None:
        return None
    seen = f"; deskgate saw {_short(unknown.text)!r} typed" if unknown.text.strip() else ""
    return f"{_how(ctx)} in {end.where.value} runs a line deskgate cannot know ({unknown.why}){seen}"


def _squash(text: str) -> str:
    return " ".join(text.split())


@rule("confirm.typed.screen-line", "The line on the screen differs from the line typed", risk=Risk.HIGH,
      types=("key", "type"), confidence=0.75)
def screen_line(ctx: Context) -> CheckResult:
    """Where the terminal's line can be read from the screen (the accessibility text of a VTE or Konsole
    terminal: `Observation.screen_line`), the line a line end runs must be the one deskgate followed: a line
    changed behind deskgate's back (keys it did not see, a program that wrote into the prompt) asks."""
    screen = ctx.observation.screen_line
    line = ctx.observation.line
    if screen is None or line is None or not line.known:
        return None
    end = ctx.derived(line_end)
    if not end.where.runs_commands or not end.lines:
        return None
    shown, typed_line = _squash(screen), _squash(line.text)
    # the prompt comes before the line; a long line may wrap, so the screen's last row is its tail
    if shown.endswith(typed_line) or (shown and typed_line.endswith(shown) and len(shown) >= 8):
        return None
    return (f"the screen shows {_short(screen)!r} but the line typed is {_short(line.text)!r}: what runs is "
            "not what deskgate followed")


# -- consoles that run another language: a browser's developer console, a database console ----------------

# JavaScript that reads what logs the person in, or what the page keeps for them
_JS_READS = re.compile(r"\bdocument\s*\.\s*cookie\b|\b(?:local|session)Storage\b|\bindexedDB\b|"
                       r"\bnavigator\s*\.\s*credentials\b|\bcookieStore\b|\bchrome\s*\.\s*cookies\b|"
                       r"type\s*=\s*[\\\"']*password|\bautocomplete\s*=\s*[\\\"']*current-password|"
                       # a name spelled in pieces or encoded (`globalThis['doc'+'ument']`, `atob(...)`): what it reads
                       # is hidden, so it is counted as a read of what the page keeps
                       r"\[\s*[`'\"][^`'\"\]\n]{0,40}[`'\"]\s*\+|\batob\s*\(|\bString\s*\.\s*fromCharCode\b|"
                       r"\b(?:document|window|globalThis|self)\s*\[\s*(?![`'\"\d])")
# ... and JavaScript that sends something to a server or another window
_JS_SENDS = re.compile(r"\bfetch\s*\(|\bXMLHttpRequest\b|\bsendBeacon\s*\(|\bnew\s+Image\b|\.src\s*=|"
                       r"\bnew\s+WebSocket\b|\$\s*\.\s*(?:ajax|post|get|getJSON)\s*\(|\baxios\b|"
                       r"\blocation(?:\s*\.\s*(?:href|hash|search))?\s*=(?!=)|\blocation\s*\.\s*(?:assign|replace)\s*\(|"
                       r"\bwindow\s*\.\s*open\s*\(|\.submit\s*\(|\bpostMessage\s*\(|\bimport\s*\(\s*[`'\"]https?:")
# JavaScript that loads and runs code from elsewhere in the page
_JS_LOADS = re.compile(r"createElement\s*\(\s*[`'\"]script|\beval\s*\(|\bnew\s+Function\s*\(|\.then\s*\(\s*eval\b|"
                       r"\bimport\s*\(\s*[`'\"]https?:|\bdocument\s*\.\s*write\s*\(\s*[`'\"]<script")
# JavaScript that asks the site to change something: a request that is not a read, made outside its buttons
_JS_MUTATES = re.compile(r"\bmethod\s*:\s*[`'\"](?:post|put|patch|delete)[`'\"]|"
                         r"(?:\$|\baxios|\bhttp|\bapi|\bclient)\s*\.\s*(?:post|put|patch|delete)\s*\(|"
                         r"\.open\s*\(\s*[`'\"](?:post|put|patch|delete)[`'\"]", re.IGNORECASE)
_JS_LIMIT = 65536


def _script(ctx: Context) -> str:
    return ctx.action.text[:_JS_LIMIT] if ctx.derived(destination) in _SCRIPT_PLACES else ""  # type: ignore[attr-defined]


_SCRIPT_PLACES = frozenset({Destination.SCRIPT_CONSOLE, Destination.UNKNOWN})


@rule("block.typed.console-exfiltration", "JavaScript typed into a developer console that sends cookies or storage out",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.9)
def console_exfiltration(ctx: Context) -> CheckResult:
    """A browser's developer console runs what is typed in the page, as the person who is logged in there.
    JavaScript that reads what logs them in or what the page keeps for them (`document.cookie`,
    `localStorage`, `sessionStorage`, `indexedDB`, stored credentials, the password field) and sends
    something out (`fetch`, `XMLHttpRequest`, `sendBeacon`, an image's `src`, a WebSocket, a navigation, a
    form submit, `postMessage`) hands the session to whoever receives it. Typed where deskgate cannot tell
    the destination, the same script blocks too. Reading `document.title` and logging it does not."""
    text = ctx.derived(_script)
    if not text:
        return None
    read = _JS_READS.search(text)
    sent = _JS_SENDS.search(text) if read is not None else None
    if sent is None:
        return None
    where = ctx.derived(destination)
    return (f"typed into {where.value}, the script reads {read.group(0)!r} and sends it out with "
            f"{sent.group(0).strip()!r}")


@rule("confirm.typed.console-script", "JavaScript typed into a developer console that reads secrets or loads code",
      risk=Risk.HIGH, types=TYPE, redact=("text",), confidence=0.8)
def console_script(ctx: Context) -> CheckResult:
    """JavaScript typed into a browser's developer console that reads the page's cookies, storage or stored
    credentials (the agent then holds the session), loads and runs code from elsewhere (a script element,
    `eval`, `new Function`, a remote `import()`), or sends the site a request that changes something (a POST,
    PUT, PATCH or DELETE made outside the page's buttons and their confirmations): a person decides. Sending
    the secrets out as well is `block.typed.console-exfiltration`. `document.querySelectorAll('a').length`
    and `console.log(...)` pass."""
    if ctx.derived(destination) is not Destination.SCRIPT_CONSOLE:
        return None
    text = ctx.derived(_script)
    read = _JS_READS.search(text)
    if read is not None:
        if _JS_SENDS.search(text) is not None:
            return None  # block.typed.console-exfiltration says why
        return f"typed into {Destination.SCRIPT_CONSOLE.value}, the script reads {read.group(0)!r}"
    loads = _JS_LOADS.search(text)
    if loads is not None:
        return f"typed into {Destination.SCRIPT_CONSOLE.value}, the script loads and runs code: {loads.group(0)!r}"
    mutates = _JS_MUTATES.search(text)
    if mutates is not None:
        return (f"typed into {Destination.SCRIPT_CONSOLE.value}, the script asks the site to change something "
                f"outside its buttons: {mutates.group(0)!r}")
    return None


def _statement(ctx: Context) -> str:
    """The typed text as a database console reads it (lower case, one space), or '' elsewhere."""
    if ctx.derived(destination) is not Destination.DATABASE_CONSOLE:
        return ""
    return " ".join(ctx.action.text[:_JS_LIMIT].lower().split())  # type: ignore[attr-defined]


@rule("block.typed.database-destruction", "A statement typed into a database console that destroys data",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.9)
def database_destruction(ctx: Context) -> CheckResult:
    """A database console (a query editor, a database client's window, a `mysql>` prompt, a page at `/sql`)
    runs what is typed: DROP DATABASE/SCHEMA/TABLE, TRUNCATE, DELETE FROM without WHERE, a document store's
    `drop()`/`dropDatabase()`, redis FLUSHALL/FLUSHDB destroy the data, as the same statement given to a
    database client in a shell does (`block.shell.database-destruction`). A SELECT does not."""
    text = ctx.derived(_statement)
    m = _SQL_BLOCK.search(text) if text else None
    if m is None:
        return None
    return f"typed into {Destination.DATABASE_CONSOLE.value}, it destroys data: {m.group(0).strip()[:60]!r}"


@rule("confirm.typed.database-change", "A statement typed into a database console that changes rows or access",
      risk=Risk.HIGH, types=TYPE, confidence=0.85)
def database_change(ctx: Context) -> CheckResult:
    """A statement typed into a database console that deletes rows, updates every row (UPDATE without WHERE) or
    a row's role, admin flag or password, drops an index, a view or a user, grants or revokes rights, or
    creates or alters a user: a person decides. An UPDATE of one row by its id does not ask."""
    text = ctx.derived(_statement)
    if not text or _SQL_BLOCK.search(text) is not None:
        return None
    m = _SQL_CONFIRM.search(text)
    if m is None:
        return None
    return f"typed into {Destination.DATABASE_CONSOLE.value}, it changes rows or access: {m.group(0).strip()[:60]!r}"


# -- records deleted in bulk from an admin or data console, in the console's own language ----------------------

# Apex DML over a SOQL query (`delete [SELECT Id FROM Account]`): every record the query returns is deleted
_APEX_DELETE = re.compile(r"\b(?:delete|database\s*\.\s*delete\s*\()\s*\[\s*select\b([^\]]{0,2000})\]", re.IGNORECASE)
# a document store's or Firestore's delete of everything: an empty filter, a whole collection, a recursive delete
_STORE_WIPE = re.compile(r"\.(?:deleteMany|remove|delete_many)\s*\(\s*\{\s*\}\s*\)|\bdropDatabase\s*\(|"
                         r"\.drop\s*\(\s*\)|\.recursiveDelete\s*\(|\bdeleteCollection\s*\(|"
                         r"\bcollection\s*\(\s*[`'\"][^`'\"]+[`'\"]\s*\)\s*\.get\s*\(\s*\)[\s\S]{0,300}?"
                         r"\.(?:ref\s*\.\s*)?delete\s*\(\s*\)|"
                         # a Realtime Database's root removed or set to nothing; a framework told to empty its database
                         r"\bref\s*\(\s*(?:[`'\"]/?[`'\"])?\s*\)\s*\.\s*(?:remove\s*\(\s*\)|set\s*\(\s*null\s*\))|"
                         r"\bcall_command\s*\(\s*[`'\"](?:flush|reset_db)[`'\"]|\bdb:(?:drop|reset|purge|schema:load)\b")
# ... and a delete of some records: Apex DML on a list, an emptied recycle bin, a store's filtered delete
_CONSOLE_DELETE = re.compile(r"^\s*delete\s+\w+\s*;|[;{]\s*delete\s+\w+\s*;|\bdatabase\s*\.\s*(?:delete|"
                             r"emptyRecycleBin)\s*\(|\.(?:deleteMany|delete_many|deleteOne|findOneAndDelete)\s*\(|"
                             r"\.remove\s*\(\s*\{|\.(?:ref\s*\.\s*)?delete\s*\(\s*\)|"
                             r"\bref\s*\([^()]{0,200}\)\s*\.\s*remove\s*\(\s*\)", re.IGNORECASE)
_SCOPED_QUERY = re.compile(r"\b(?:where|limit)\b", re.IGNORECASE)
_CONSOLES = frozenset({Destination.DATABASE_CONSOLE, Destination.CODE_CONSOLE, Destination.SCRIPT_CONSOLE})


def _console_code(ctx: Context) -> str:
    """The typed text when it goes to a console that runs it on an organisation's data, or ''. Once per context."""
    if ctx.derived(destination) not in _CONSOLES:
        return ""
    return ctx.action.text[:_JS_LIMIT]  # type: ignore[attr-defined]


def _bulk_delete(code: str) -> str | None:
    """The statement of `code` that deletes every record of an object or collection, or None."""
    for m in _APEX_DELETE.finditer(code):
        if _SCOPED_QUERY.search(m.group(1)) is None:
            return m.group(0)
    m = _STORE_WIPE.search(code)
    if m is not None and _SCOPED.search(code, max(0, m.start() - 300), m.start()) is None:
        return m.group(0)
    return None


@rule("block.typed.console-wipe", "Code typed into an admin or data console that deletes every record",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def console_wipe(ctx: Context) -> CheckResult:
    """Salesforce's anonymous Apex, a MongoDB shell, a Firestore or Node console and the like run typed code on
    the organisation's records. Code that deletes every record of an object or a collection (`delete [SELECT Id
    FROM Account]` with no WHERE or LIMIT, `db.orders.deleteMany({})`, `db.logs.drop()`, a collection fetched
    whole and each document deleted, `recursiveDelete`) destroys the data as DELETE without WHERE does in a SQL
    console (`block.typed.database-destruction`). A query scoped by WHERE or `.where(...)` only asks
    (`confirm.typed.console-delete`); `SELECT Id FROM Account` passes."""
    code = ctx.derived(_console_code)
    if not code:
        return None
    where = ctx.derived(destination)
    if where is Destination.DATABASE_CONSOLE and _SQL_BLOCK.search(" ".join(code.lower().split())) is not None:
        return None  # block.typed.database-destruction says why
    if where is Destination.CODE_CONSOLE and ctx.derived(code_verdict).block is not None:
        return None  # block.typed.console-code says why
    found = _bulk_delete(code)
    if found is None:
        return None
    return f"typed into {where.value}, it deletes every record: {_short(found, 60)!r}"


@rule("confirm.typed.console-delete", "Code typed into an admin or data console that deletes records",
      risk=Risk.HIGH, types=TYPE, confidence=0.8)
def console_delete(ctx: Context) -> CheckResult:
    """Code typed into an admin or data console that deletes some records: Apex DML over a scoped query or a
    list (`delete [SELECT Id FROM Lead WHERE IsConverted = true]`, `delete staleLeads;`), `Database.delete`,
    emptying the recycle bin, a document store's filtered delete, a Firestore document's `.delete()`. What goes
    is chosen by the code, not by the page's buttons and their confirmations: a person decides. Deleting every
    record is `block.typed.console-wipe`; a query alone passes."""
    code = ctx.derived(_console_code)
    if not code or _bulk_delete(code) is not None:
        return None
    where = ctx.derived(destination)
    if where is Destination.CODE_CONSOLE and (ctx.derived(code_verdict).block is not None or _orm_wipe(code)):
        return None  # block.typed.console-code says why
    if where is Destination.DATABASE_CONSOLE and _SQL_CONFIRM.search(" ".join(code.lower().split())) is not None:
        return None  # confirm.typed.database-change says why
    m = _APEX_DELETE.search(code) or _CONSOLE_DELETE.search(code)
    if m is None:
        return None
    return f"typed into {where.value}, it deletes records: {_short(m.group(0).strip(), 60)!r}"


# -- a language console: the typed code is the interpreter's one-liner ----------------------------------------

_CODE_FLAG = {"python3": "-c", "php": "-r"}  # the others take their program with -e
# an ORM told to delete every row of a model: what DELETE without WHERE is in a database console
_ORM_WIPE = re.compile(r"\.(?:destroy_all|delete_all)\b(?!\s*\(\s*[\w\"':])|\.objects(?:\.all\(\))?\.delete\(\)|"
                       r"\.truncate\(\s*\)|\bdrop_table\b|\.drop_all\(|\.query\.delete\(\)|::truncate\(\)|"
                       r"\.(?:deleteMany|remove)\(\s*\{\s*\}\s*\)")


_SCOPED = re.compile(r"\.(?:where|filter|find|find_by|get|exclude|limit|filter_by)\s*\(")


def _orm_wipe(code: str) -> str | None:
    """The call that deletes every row of a model, unless the statement scopes it first (`.where(...)`)."""
    for m in _ORM_WIPE.finditer(code):
        start = max(code.rfind(";", 0, m.start()), code.rfind("\n", 0, m.start())) + 1
        if _SCOPED.search(code, start, m.start()) is None:
            return m.group(0)
    return None


def code_verdict(ctx: Context) -> Verdict:
    """The typed code of a language console judged as its interpreter's one-liner (`python3 -c '...'`), by every
    rule for `shell` actions. Once per context."""
    where = ctx.derived(destination)
    if where is not Destination.CODE_CONSOLE:
        return _TEXT._replace(where=where)
    program = ctx.derived(console_program)
    code = ctx.action.text.strip()  # type: ignore[attr-defined]
    if program is None or not code:
        return _TEXT._replace(where=where)
    code = code[:_JS_LIMIT]
    shell_lines: list[str] = []
    if program == "python3":
        code, shell_lines = _ipython_split(code)
    parts = [f"{program} {_CODE_FLAG.get(program, '-e')} {shlex.quote(code)}"] if code.strip() else []
    command = " ; ".join(parts + shell_lines)
    if not command:
        return _TEXT._replace(where=where)
    return Verdict(where, "code", command, *_judge(Shell(command=command), ctx))


# IPython's shell escapes: `!cmd`, `!!cmd`, `files = !ls`, `%system`/`%sx`/`%sc cmd`; a `%%bash` or `%%sh` cell;
# `%pip`/`%conda` run the installer, `%run x.py` runs a script
_BANG = re.compile(r"^\s*(?:[A-Za-z_]\w*\s*=\s*)?!!?(?P<cmd>.+)$")
_LINE_MAGIC = re.compile(r"^\s*(?:[A-Za-z_]\w*\s*=\s*)?%(?P<name>system|sx|sc|pip|conda|mamba|uv|run)\b\s*"
                         r"(?P<rest>.*)$")
_SHELL_CELL = re.compile(r"^\s*%%(?:bash|sh|zsh|system|script\s+(?:ba|z)?sh)\b[^\n]*\n?")
_MAGIC_PROGRAM = {"pip": "pip", "conda": "conda", "mamba": "mamba", "uv": "uv", "run": "python3"}


def _ipython_split(code: str) -> tuple[str, list[str]]:
    """The Python of a notebook cell or IPython prompt, and the shell lines its escapes and magics run."""
    cell = _SHELL_CELL.match(code)
    if cell is not None:
        return "", [line for line in code[cell.end():].splitlines() if line.strip()]
    python, shell = [], []
    for line in code.splitlines():
        bang = _BANG.match(line)
        magic = _LINE_MAGIC.match(line) if bang is None else None
        if bang is not None:
            shell.append(bang["cmd"].strip())
        elif magic is not None:
            program = _MAGIC_PROGRAM.get(magic["name"])
            shell.append(f"{program} {magic['rest']}" if program else magic["rest"])
        elif not line.lstrip().startswith("%"):  # other magics (%time, %matplotlib) run no program
            python.append(line)
    return "\n".join(python), [line for line in shell if line.strip()]


@rule("block.typed.console-code", "Code typed into a language console that the shell rules block",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def console_code_block(ctx: Context) -> CheckResult:
    """A language console (a Python or IPython shell, a notebook cell, `rails console`, a Node REPL, tinker,
    Jenkins's script console) runs typed code on the machine or the server behind it. The code is judged as the
    same interpreter's one-liner: when the shell rules block `python3 -c '<code>'` (a delete of the home
    folder, a reverse shell, a download run, a credential read), typing it is blocked. So is an ORM told to
    delete every row (`User.delete_all`, `Model.objects.all().delete()`). A notebook's shell escapes (`!cmd`,
    `%system`, a `%%bash` cell) are judged as the shell lines they run. `print(2 + 2)` passes."""
    verdict = ctx.derived(code_verdict)
    if verdict.kind != "code":
        return None
    if verdict.block is not None:
        return f"typed into {verdict.where.value}, it runs as {_short(verdict.text)!r}: {verdict.block.reason}", \
            verdict.block.risk
    wipe = _orm_wipe(ctx.action.text)  # type: ignore[attr-defined]
    if wipe is not None:
        return f"typed into {verdict.where.value}, it deletes every row: {wipe!r}"
    return None


@rule("confirm.typed.console-code", "Code typed into a language console that the shell rules ask about",
      risk=Risk.HIGH, types=TYPE, confidence=0.8)
def console_code_confirm(ctx: Context) -> CheckResult:
    """Code typed into a language console that the shell rules would ask about as the interpreter's one-liner
    (it starts a program, writes outside the project, reaches the network, or its interpreter runs anything
    given to it, as Groovy in Jenkins's script console does)."""
    verdict = ctx.derived(code_verdict)
    if verdict.kind != "code" or verdict.block is not None or verdict.confirm is None:
        return None
    if _orm_wipe(ctx.action.text) is not None:  # type: ignore[attr-defined]
        return None  # block.typed.console-code says why
    return f"typed into {verdict.where.value}, it runs as {_short(verdict.text)!r}: {verdict.confirm.reason}", \
        verdict.confirm.risk


# -- a workflow tool's code step ---------------------------------------------------------------------------

# code that starts a program on the server: Node's child_process, Python's os.system and subprocess, Java's Runtime
_STARTS_PROGRAM = re.compile(r"\bchild_process\b|\b(?:execSync|spawnSync|execFileSync)\s*\(|"
                             r"\bos\s*\.\s*(?:system|popen|exec[lv]p?e?|spawn\w*)\s*\(|\bsubprocess\b|\bpty\s*\.\s*spawn\b|"
                             r"\bRuntime\s*\.\s*getRuntime\s*\(\s*\)\s*\.\s*exec\b|\bProcessBuilder\b|\bDeno\s*\.\s*(?:run|Command)\b")
# what the server keeps that signs in: the tool's own folder and key, the clouds' and SSH's credentials, the system's
# accounts, and its whole environment (where the tool's secrets are set)
_SERVER_SECRETS = re.compile(r"\.n8n\b|\bN8N_ENCRYPTION_KEY\b|\.node-red\b|flows_cred|/\.aws\b|\.aws/|/\.ssh\b|\.ssh/|"
                             r"\bid_(?:rsa|ed25519|ecdsa)\b|/etc/(?:shadow|passwd)\b|\.kube/config|\.docker/config|"
                             r"\.git-credentials|\.netrc\b|(?:^|[/'\"`])\.env\b|\bprocess\s*\.\s*env\s*[);,\]}]|"
                             r"JSON\s*\.\s*stringify\s*\(\s*process\s*\.\s*env\b|\bos\s*\.\s*environ\b(?!\s*(?:\.get|\[))",
                             re.IGNORECASE)


def _code_step_reach(ctx: Context) -> tuple[str | None, str | None]:
    """(what the code of a workflow's code step starts, what server secret it names), either None. Once per
    context."""
    if ctx.derived(destination) is not Destination.CODE_CONSOLE or not ctx.derived(code_step):
        return None, None
    code = ctx.action.text[:_JS_LIMIT]  # type: ignore[attr-defined]
    starts = _STARTS_PROGRAM.search(code)
    secret = _SERVER_SECRETS.search(code)
    return (starts.group(0) if starts else None), (secret.group(0).strip("/'\"`") if secret else None)


@rule("block.typed.code-step-secrets", "A workflow tool's code step that reads the server's credentials",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.8)
def code_step_secrets(ctx: Context) -> CheckResult:
    """Code typed into a workflow or automation tool's code step (n8n's Code node, Node-RED's function, Apps Script)
    that names what the server keeps to sign in: the tool's own folder and encryption key (`~/.n8n/config`,
    `N8N_ENCRYPTION_KEY`, Node-RED's `flows_cred`), the clouds' and SSH's credentials, the system's accounts, or its
    whole environment (`process.env`, `os.environ`). The step runs on the server with every credential of every
    workflow in reach, and its output goes wherever the workflow sends it. Code that maps items passes."""
    if ctx.derived(_code_step_reach)[1] is None or ctx.derived(code_verdict).block is not None:
        return None  # (block.typed.console-code already says why)
    return f"typed into a workflow's code step, it reaches the server's secrets: {ctx.derived(_code_step_reach)[1]!r}"


@rule("confirm.typed.code-step-command", "A workflow tool's code step that starts a program on the server",
      risk=Risk.HIGH, types=TYPE, confidence=0.75)
def code_step_command(ctx: Context) -> CheckResult:
    """Code typed into a workflow tool's code step that starts a program on the server (`child_process`,
    `execSync`, `os.system`, `subprocess`): the step runs it with the tool's rights whenever the workflow runs, so a
    person checks what it runs."""
    starts, secret = ctx.derived(_code_step_reach)
    if starts is None or secret is not None:
        return None
    verdict = ctx.derived(code_verdict)
    if verdict.block is not None or verdict.confirm is not None:
        return None  # (the console-code rules already say why)
    return f"typed into a workflow's code step, it starts a program on the server: {starts!r}"


# -- a shell escape of a program that is not a terminal ----------------------------------------------------


class EscapeVerdict(NamedTuple):
    escape: Escape | None  # the escape judged (the one that fired, else the first)
    block: Hit | None  # the strongest block hit of the shell rules over the command lines the escapes run
    confirm: Hit | None  # ... and the strongest confirm hit
    piped_out: Escape | None = None  # a mail reader's pipe whose command sends the message it is handed away


_NO_ESCAPE = EscapeVerdict(None, None, None)
# the message a mail reader pipes to a command stands as a file of mail read on the command's input
_PIPED_MESSAGE = "cat ~/Mail/message.eml | "


def _sends_input(esc: Escape, ctx: Context) -> bool:
    """The command of a mail reader's pipe sends what it reads away: handed the message on its input, the shell
    rules find it sent to another host, which they do not find for the command alone."""
    return _sends(_PIPED_MESSAGE + esc.command, ctx) and not _sends(esc.command, ctx)


def _sends(command: str, ctx: Context) -> bool:
    """The shell rules find that `command` sends a local file to another host."""
    sub = Context(Shell(command=command), ctx.observation, ctx.compiled, None)
    return any(r.id in _SENDING and r(sub) is not None for r in _rules_for("shell", sub))


# the shell rules that find a local file sent to another host
_SENDING = frozenset({"confirm.shell.network", "block.shell.exfiltration"})


def escape_verdict(ctx: Context) -> EscapeVerdict:
    """The command lines typed text hands to a shell in an editor, a pager, a file manager or a keyboard browser
    (gate/escapes.py), or a Return there runs, judged by every rule for `shell` actions. Once per context."""
    found = ctx.derived(escaped)
    if not found:
        return _NO_ESCAPE
    block: Hit | None = None
    confirm: Hit | None = None
    judged: Escape | None = None
    piped_out: Escape | None = None
    for esc in found:
        if esc.kind not in ("command", "userscript", "pipe") or not esc.command:
            continue
        if esc.kind == "pipe" and piped_out is None and _sends_input(esc, ctx):
            piped_out = esc
        b, c = _judge(Shell(command=esc.command), ctx)
        if b is not None and (block is None or b.risk > block.risk):
            block, judged = b, esc
        if c is not None and (confirm is None or c.risk > confirm.risk):
            confirm = c
            if block is None:
                judged = esc
    return EscapeVerdict(judged or found[0], block, confirm, piped_out)


def _escape_how(ctx: Context, esc: Escape) -> str:
    runs = f"runs {_short(esc.command)!r} in a shell" if esc.command else "runs a shell command"
    if ctx.type == "key":
        return f"{_how(ctx)} in {esc.program} ends {_short(esc.typed)!r}, which {runs}"
    return f"typed into {esc.program}, {_short(esc.typed)!r} {runs}"


@rule("block.typed.shell-escape", "A shell escape typed into an editor, pager or browser that the shell rules block",
      risk=Risk.CRITICAL, types=("key", "type"), confidence=0.9)
def shell_escape_block(ctx: Context) -> CheckResult:
    """Editors, pagers, file managers and keyboard browsers hand lines to a shell themselves: Vim's `:!cmd`,
    `:r !cmd`, `:w !cmd`, `:terminal cmd` and `system()`, Emacs's `M-!` and `M-x shell-command`, Helix's `:sh`,
    Kakoune's `%sh{}`, Nano's `^T`, `!cmd` in less, ranger and lf, qutebrowser's `:spawn`, Tridactyl's
    `:exclaim` (gate/escapes.py). The command line such an escape runs is judged by the shell rules as if typed
    into a terminal: `:!rm -rf ~/notes` or `M-! curl ... | sh` blocks, as `rm -rf ~/notes` would. A Return that
    ends an escape typed in pieces is judged the same way. `:wq`, `:%s/a/b/g` and prose with `!` stay text."""
    esc, block, _, _ = ctx.derived(escape_verdict)
    if block is None or esc is None:
        return None
    return f"{_escape_how(ctx, esc)}: {block.reason}", block.risk


@rule("block.typed.mail-piped-out", "A mail reader's pipe that hands the message to a command sending it away",
      risk=Risk.CRITICAL, types=("key", "type"), confidence=0.85)
def mail_piped_out(ctx: Context) -> CheckResult:
    """Mutt's and NeoMutt's `<pipe-message>cmd` (a macro, or the `|` key) and aerc's `:pipe cmd` hand the message
    on screen to a shell command on its input. When that command sends its input to another host (`curl -d @-`,
    `nc host port`, `ssh host 'cat > x'`), the mail, with whatever it holds, leaves: the shell rules find that
    for the command handed a mail file and not for the command alone. `|less`, `|grep -i invoice` and
    `|git am` stay on the machine."""
    esc, block, _, piped = ctx.derived(escape_verdict)
    if piped is None or block is not None:
        return None
    return (f"typed into {piped.program}, {_short(piped.typed)!r} hands the message shown to "
            f"{_short(piped.command)!r}, which sends what it reads to another host"), Risk.CRITICAL


@rule("confirm.typed.shell-escape", "A shell escape typed into an editor, pager or browser that the shell rules ask "
      "about", risk=Risk.HIGH, types=("key", "type"), confidence=0.85)
def shell_escape_confirm(ctx: Context) -> CheckResult:
    """A shell escape (see `block.typed.shell-escape`) whose command line the shell rules would ask about
    (`:!git push --force`), one that repeats the last command whatever it was (`:!!`), or Tridactyl's
    `:nativeinstall`, which installs the native program that lets the browser run commands, or a qutebrowser
    userscript given by a path or handed an address (`:spawn --userscript ./x.py https://...`), which is handed
    the page and can drive the browser (one the person installed, by its bare name, is judged as a command).
    `:!make test` and
    `:!git status` pass, as they do in a terminal; an escape that only opens an interactive shell (`:sh`,
    `M-x shell`) runs nothing by itself."""
    esc, block, confirm, piped = ctx.derived(escape_verdict)
    if esc is None or block is not None or piped is not None:
        return None
    if confirm is not None:
        return f"{_escape_how(ctx, esc)}: {confirm.reason}", confirm.risk
    for found in ctx.derived(escaped):
        if found.kind == "repeat":
            return f"{_escape_how(ctx, found)}: it repeats the last shell command, which deskgate has not seen"
        if found.kind == "userscript":
            return (f"typed into {found.program}, {_short(found.typed)!r} runs {_short(found.command)!r} with the "
                    "page's text, HTML and address, and a pipe to give the browser commands")
        if found.kind == "installer":
            return (f"typed into {found.program}, {_short(found.typed)!r} installs the native program that lets "
                    "the browser run shell commands")
    return None


# -- a local file opened from the address bar ------------------------------------------------------------


def _file_url(ctx: Context) -> Verdict:
    """A `file:` URL typed into the address bar, judged as reading that file. Once per context."""
    where, kind, url, _, _ = ctx.derived(typed_verdict)
    if kind != "url" or where is not Destination.ADDRESS_BAR or url[:5].lower() != "file:":
        return _TEXT
    parts = urlsplit(url)
    path = unquote(parts.path)
    if len(path) > 3 and path[0] == "/" and path[2] == ":":  # file:///C:/Users/... is C:/Users/...
        path = path[1:]
    if parts.netloc and parts.netloc.lower() != "localhost":
        path = f"//{parts.netloc}{path}"  # a share: file://server/share/x
    if not path.strip("/"):
        return _TEXT
    return Verdict(where, "file", path, *_judge(FileRead(path=path), ctx))


@rule("block.typed.file-url", "A file: URL typed into the address bar that the file rules block", risk=Risk.HIGH,
      types=TYPE)
def file_url_block(ctx: Context) -> CheckResult:
    """A `file:` URL typed into the address bar opens that file in the browser, where the agent reads it: it
    is judged as the agent reading the file. The browser's saved passwords (`Login Data`), an SSH key or
    /etc/shadow are blocked as the same `file_read` would be. A page saved in Downloads opens."""
    _, kind, path, block, _ = ctx.derived(_file_url)
    if kind != "file" or block is None:
        return None
    return f"typed into the address bar, it opens the file {_short(path)!r}: {block.reason}", block.risk


@rule("confirm.typed.file-url", "A file: URL typed into the address bar that the file rules ask about, or a system "
      "file", risk=Risk.MEDIUM, types=TYPE, confidence=0.8)
def file_url_confirm(ctx: Context) -> CheckResult:
    """A `file:` URL typed into the address bar that the file rules would ask about, or one that opens the
    system's account, host or configuration files (`/etc/`, `/proc/`, `C:/Windows/System32/config`): what the
    browser shows, the agent reads."""
    _, kind, path, block, confirm = ctx.derived(_file_url)
    if kind != "file" or block is not None:
        return None
    if confirm is not None:
        return f"typed into the address bar, it opens the file {_short(path)!r}: {confirm.reason}", confirm.risk
    if _SYSTEM_FILE.match(path):
        return f"typed into the address bar, it opens the system file {_short(path)!r}"
    return None


_SYSTEM_FILE = re.compile(r"^(?:/etc/|/proc/|/var/log/|/root/|/sys/|[a-z]:/windows/system32/(?:config|drivers/etc)/)",
                          re.IGNORECASE)


# -- an attack framework's console ------------------------------------------------------------------------

@rule("block.typed.attack-console-theft", "A theft command typed into an attack framework's console",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def attack_console_theft(ctx: Context) -> CheckResult:
    """In an attack framework's console (Sliver, Metasploit's and Meterpreter's, Empire's, a beacon's), what is typed
    runs on a machine the framework controls. A command that takes its credentials, cookies, keystrokes or
    screen, raises privilege or plants persistence there (`hashdump`, `kiwi`, `cursed cookies`, `keyscan_start`,
    `getsystem`) blocks."""
    if ctx.derived(destination) is not Destination.ATTACK_CONSOLE:
        return None
    first, two = verbs(ctx.action.text)  # type: ignore[attr-defined]
    hit = two if two in THEFT else first if first in THEFT else None
    return f"typed into {Destination.ATTACK_CONSOLE.value}, {hit!r} takes from the machine it controls" if hit else None


@rule("confirm.typed.attack-console", "A command typed into an attack framework's console", risk=Risk.HIGH,
      types=TYPE, confidence=0.8)
def attack_console_command(ctx: Context) -> CheckResult:
    """Any other command typed into an attack framework's console acts on a machine the framework controls, or
    builds and serves its implants: it asks. Listing the framework's own sessions, jobs and help passes."""
    if ctx.derived(destination) is not Destination.ATTACK_CONSOLE:
        return None
    first, two = verbs(ctx.action.text)  # type: ignore[attr-defined]
    if not first or first in LOOK or two in LOOK or first in THEFT or two in THEFT:
        return None
    return f"typed into {Destination.ATTACK_CONSOLE.value}, {two!r} acts on the machines it controls"


RULES: tuple[Rule, ...] = (typed_command_block, typed_command_confirm, unplaced_window_command, typed_url_block,
                           typed_url_confirm,
                           link_block, link_confirm, line_end_block, line_end_confirm, unknown_line, screen_line,
                           typed_hidden_command, console_exfiltration, console_script, database_destruction,
                           database_change, file_url_block, file_url_confirm, console_code_block,
                           console_code_confirm, console_wipe, console_delete, shell_escape_block,
                           shell_escape_confirm, mail_piped_out, confirmation_phrase,
                           amount_to_send, attack_console_theft, attack_console_command, code_step_secrets,
                           code_step_command)
