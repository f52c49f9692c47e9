"""Rules: code typed in pieces into one editor or console, judged as the whole it makes (DESIGN.md 2b).

A terminal's line is followed by the supervisor and judged whole at its end (gate/lines.py). An editor or a
console takes more than one line: a macro typed a line at a time into the VBA editor, a script typed in three
steps into Notepad and saved as `.ps1`, a cookie read in one console statement and sent out in the next. Each
piece looks harmless; the whole is the attack. So the gate remembers, per session, the text typed into the
window the agent is typing into (`note`, called after each step by gate/rules/session.py `remember`), and
judges the text so far with the piece about to be typed by the content rules that know what such text does:

- the macro rules (gate/rules/typed_docs.py: a macro that runs on opening and starts a program, a DDE field);
- the console rules (gate/rules/typed.py: a developer console's script that reads cookies and sends them, a
  database console's statement, a language console's code the shell rules judge);
- the script-file rules (gate/rules/content.py and files.py), when the window names the file the editor holds
  (`update.ps1 - Notepad`, `run.bat`, `~/.bashrc`), the agent types a name into a Save As dialog, or the editor
  is one language's own (PowerShell ISE's script pane, macOS Script Editor): the text so far is that file's
  content; a VBScript, JScript or HTA file and an AppleScript by the command lines they start (`.Run "..."`,
  `ShellExecute`, `do shell script "..."`), judged by the shell rules.

    block.gui.assembled-code     the whole typed so far is what those rules block
    confirm.gui.assembled-code   ... or what they ask about

The whole is judged at the moment it counts: in a console, a notebook or a macro editor at each line typed or
run (a line end in the text, Enter, Shift+Enter); in any editor at the keys that save or run it (Ctrl+S, Cmd+S,
F5, Ctrl+Enter, Cmd+R) and at a name typed into its Save As dialog. The same whole is judged once. The memory
is bounded: one window's text, at most `MAX_TEXT` characters (the newest), forgotten when the agent acts in
another window (a Save As dialog aside), after `MAX_IDLE_STEPS` steps without typing there, after `MAX_IDLE_S`
seconds, and when the session starts again; Ctrl+A then typing or erasing replaces it. A document or a
project's code typed in pieces passes: only what the content rules find counts.
"""

from __future__ import annotations

import re
import threading
import time
import weakref
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from gate.model import Decision, FileWrite, Hit, Risk, Shell, Type
from gate.normalise import normalise
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.gui import key_combo
from gate.rules.typed import strongest
from gate.rules.typed_docs import _MACRO_EDITOR
from gate.typed import Destination, code_editor, destination

if TYPE_CHECKING:
    from gate.model import Assessment

__all__ = ["JUDGED_TEXT", "MAX_IDLE_S", "MAX_IDLE_STEPS", "MAX_TEXT", "RULES", "kept_text", "note", "typed_so_far",
           "wsh_commands"]

MAX_TEXT = 16_384  # characters of one window's typing kept (the newest)
JUDGED_TEXT = 4096  # characters of a console's text read at each line it runs (the newest)
MAX_IDLE_STEPS = 40  # steps of the session without typing into the window before its text is forgotten
MAX_IDLE_S = 1800.0  # seconds without typing into the window before its text is forgotten

# the content rules whose judgement of the whole counts: each reads typed code for what it does
_TYPED_IDS = frozenset({
    "block.gui.field-code-command", "block.gui.auto-macro-command", "confirm.gui.macro-code",
    "block.typed.console-exfiltration", "confirm.typed.console-script",
    "block.typed.database-destruction", "confirm.typed.database-change",
    "block.typed.console-wipe", "confirm.typed.console-delete",
    "block.typed.console-code", "confirm.typed.console-code",
})
# ... and of the file the editor holds: what a script or a file that runs later does
_FILE_IDS = frozenset({
    "block.files.attack-script", "block.files.runs-later", "confirm.files.runs-later-content",
    "block.files.malicious-persistence", "block.files.hidden-autostart", "block.files.agent-guard-off",
    "block.files.planted-instructions",
})

# places that hold what is typed as code, beyond gate/typed.py's code editors and consoles: a notebook, a
# script editor, an office macro editor, a browser's developer tools
_CODE_PLACE = re.compile(r"\.ipynb\b|\bjupyter(?:lab)?\b|\bcolab(?:oratory)?\b|\bpowershell ise\b|"
                         r"\bscript ?editor\b|\bapps script\b|\bdevtools\b|\bdeveloper tools\b|\bweb inspector\b|"
                         r"\bvisual basic\b|\bvba\b|\bbasic ide\b|\bmacro editor\b|\bautohotkey\b")
# the file an editor's title names: a script, or a file a shell or a scheduler runs by itself
_FILE_NAME = re.compile(
    r"(?:^|[\s*•●\[(/\\:])((?:[\w. -]{0,80}[\w-])?\.(?:ps1|psm1|psd1|bat|cmd|vbs|vbe|js|jse|wsf|wsh|hta|sh|bash|zsh|"
    r"command|py|pyw|rb|pl|php|applescript|scpt|reg|desktop|service|timer|plist|ahk|au3|sct|inf|"
    r"bashrc|zshrc|profile|bash_profile|zprofile|zlogin|bash_login|login|cshrc|tcshrc))(?=$|[\s)\]•●*:-])",
    re.IGNORECASE)
_NAMED_FILE = re.compile(r"(?:^|[\s*/\\])(crontab|authorized_keys|config\.fish|rc\.local)(?=$|[\s)\]-])")
# a title's marks of unsaved changes: `*name.ps1 - Notepad`, `● main.py - Code`, `name.txt (modified)`
_UNSAVED = re.compile(r"^[*•●]\s*|\s*[*•●]$|\s*[\[(](?:modified|edited|changed)[\])]$|\s+-\s+(?:modified|edited)$",
                      re.IGNORECASE)
# a dialog that saves the editor's text under a name: it keeps the editor's text, and names its file
_SAVE_DIALOG = re.compile(r"^(?:save(?: file| script| document)?(?: as)?|export(?: as)?|speichern|speichern unter|"
                          r"enregistrer(?: sous)?|guardar(?: como)?|salva(?: con nome)?|salvar(?: como)?|"
                          r"opslaan(?: als)?|名前を付けて保存|保存|另存为|另存為)\W*$|"
                          r"\b(?:save as|speichern unter|enregistrer sous|guardar como|salva con nome|salvar como|"
                          r"opslaan als)\b|名前を付けて保存|另存为|另存為")

_SAVE_KEYS = frozenset({"ctrl+s", "super+s", "ctrl+shift+s", "super+shift+s", "f12"})
_RUN_KEYS = frozenset({"f5", "ctrl+f5", "f8", "f9", "ctrl+enter", "shift+enter", "ctrl+shift+enter", "alt+enter",
                       "super+enter", "ctrl+r", "super+r", "ctrl+shift+f10", "shift+f10"})
_CONSOLES = frozenset({Destination.SCRIPT_CONSOLE, Destination.CODE_CONSOLE, Destination.DATABASE_CONSOLE})
_SELECT_ALL = frozenset({"ctrl+a", "super+a"})
_ERASE = frozenset({"backspace", "delete"})


class _Doc:
    """What was typed into one window: its key, the text, the step and the time of the last piece."""

    __slots__ = ("at", "judged", "key", "selected", "step", "text")

    def __init__(self, key: str, step: int, at: float) -> None:
        self.key = key
        self.text = ""
        self.step = step
        self.at = at
        self.selected = False  # everything was selected (ctrl+a): the next piece or erase replaces it
        self.judged: tuple[tuple, object] | None = None  # the last whole judged and its verdict


_DOCS: weakref.WeakKeyDictionary[object, _Doc] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _window_key(ctx: Context) -> str:
    """Which window the action happens in: its id, or its app and title without the marks of unsaved changes."""
    obs = ctx.observation
    if obs.window_id:
        return f"#{obs.window_id}"
    if not (obs.app or obs.window_title):
        return ""
    return f"{normalise(obs.app)}\x1f{_UNSAVED.sub('', normalise(obs.window_title))}"


def _code_place(ctx: Context) -> bool:
    """The window or the field holds typed text as code: a code editor, a console, a notebook, a macro editor."""
    where = ctx.derived(destination)
    if where.runs_commands and _script_pane(ctx):
        return True  # PowerShell ISE: its script pane runs as a whole at F5, beside the console's lines
    if where.runs_commands or where is Destination.ADDRESS_BAR:
        return False  # a terminal's or an address bar's line is followed and judged whole by gate/lines.py
    if where in _CONSOLES or ctx.derived(code_editor):
        return True
    obs = ctx.observation
    place = f"{normalise(obs.app)}\n{normalise(obs.window_title)}"
    return _CODE_PLACE.search(place) is not None or _MACRO_EDITOR.search(place) is not None


_SCRIPT_PANE = re.compile(r"\bpowershell ise\b|\bpowershell_ise\b")
_APPLESCRIPT = re.compile(r"\bscript editor\b|\bapplescript\b|\bscript debugger\b")


def _script_pane(ctx: Context) -> bool:
    obs = ctx.observation
    return _SCRIPT_PANE.search(f"{normalise(obs.app)}\n{normalise(obs.window_title)}") is not None


_NOTEBOOK = re.compile(r"\.ipynb\b|\bjupyter ?lab\b|\bcolab(?:oratory)?\b|\bkaggle notebook\b|\bdatabricks\b")


def _notebook(ctx: Context) -> bool:
    """A notebook's window that gate/typed.py does not read as a language console (its cells run Python)."""
    obs = ctx.observation
    if ctx.derived(destination) in _CONSOLES:
        return False
    return _NOTEBOOK.search(f"{normalise(obs.app)}\n{normalise(obs.window_title)}") is not None


def _macro_place(ctx: Context) -> bool:
    obs = ctx.observation
    return _MACRO_EDITOR.search(f"{obs.app}\n{obs.window_title}") is not None


def _save_dialog(ctx: Context) -> bool:
    title = ctx.observation.window_title
    return bool(title) and len(title) <= 200 and _SAVE_DIALOG.search(title.strip().lower()) is not None


def _history_of(ctx: Context) -> object | None:
    history = ctx.history
    # a read-only view of a session (a check) reads the session's own memory
    return getattr(history, "_history", history)


def _live(doc: _Doc | None, history: object) -> _Doc | None:
    if doc is None:
        return None
    steps = getattr(history, "steps", 0)
    if steps < doc.step or steps - doc.step > MAX_IDLE_STEPS or time.monotonic() - doc.at > MAX_IDLE_S:
        return None  # the session started again, or the window was left long ago
    return doc


def typed_so_far(ctx: Context) -> tuple[str, str]:
    """The text typed so far into the window of `ctx` this session, and the window's key (("", "") when none is
    kept for it). In a Save As dialog: the text of the editor it saves."""
    history = _history_of(ctx)
    if history is None:
        return "", ""
    with _LOCK:
        doc = _live(_DOCS.get(history), history)
        if doc is None or not doc.text:
            return "", ""
        key = _window_key(ctx)
        if key != doc.key and not _save_dialog(ctx):
            return "", ""
        return ("" if doc.selected else doc.text), doc.key


def kept_text(history: object) -> str:
    """The text kept for the session's current code window ("" when none)."""
    with _LOCK:
        doc = _live(_DOCS.get(history), history)
        return doc.text if doc is not None else ""


def _apply(text: str, typed: str) -> str:
    """`typed` added to `text`, its backspaces taken back and its carriage returns read as line ends."""
    if "\x08" in typed or "\x7f" in typed or "\r" in typed:
        out = list(text)
        for ch in typed.replace("\r\n", "\n").replace("\r", "\n"):
            if ch in "\x08\x7f":
                if out:
                    out.pop()
            else:
                out.append(ch)
        text = "".join(out)
    else:
        text += typed
    return text[-MAX_TEXT:]


def note(ctx: Context, history: object, assessment: Assessment) -> None:
    """After a step: keep what a `type` or a `key` did to the text of a code editor's or a console's window;
    forget it when the agent acts in another window (a Save As dialog aside) or the step was blocked."""
    if ctx.type not in ("type", "key") and not (ctx.observation.app or ctx.observation.window_title):
        return  # a shell command or a file operation: no window involved
    with _LOCK:
        doc = _live(_DOCS.get(history), history)
        key = _window_key(ctx)
        if doc is not None and key != doc.key:
            if _save_dialog(ctx):
                return  # the editor's text is being saved under a name: keep it
            doc = None
        if ctx.type not in ("type", "key") or not key or not _code_place(ctx):
            if doc is None:
                _DOCS.pop(history, None)
            return
        steps = getattr(history, "steps", 0)
        if doc is None:
            doc = _DOCS[history] = _Doc(key, steps, time.monotonic())
        if assessment.decision is Decision.BLOCK:
            return
        doc.step, doc.at = steps, time.monotonic()
        if ctx.type == "type":
            text = getattr(ctx.action, "text", "") or ""
            doc.text = _apply("" if doc.selected else doc.text, text)
            doc.selected = False
            return
        combo = ctx.derived(key_combo)
        if combo in _SELECT_ALL:
            doc.selected = True
        elif combo in ("enter", "kp_enter", "return"):
            doc.text, doc.selected = _apply("" if doc.selected else doc.text, "\n"), False
        elif combo == "tab":
            doc.text, doc.selected = _apply("" if doc.selected else doc.text, "\t"), False
        elif combo in _ERASE:
            doc.text = "" if doc.selected else (doc.text[:-1] if combo == "backspace" else doc.text)
            doc.selected = False
        else:
            doc.selected = False


# Windows Script Host files (VBScript, JScript, .wsf, .hta) and office macros start programs through an object's
# Run or Exec, Shell or ShellExecute with the command line in a string: `o.Run "cmd /c ..."`,
# `sh.ShellExecute "powershell", "-c ..."` (VBScript doubles a quote inside a string)
_WSH_FILE = re.compile(r"\.(?:vbs|vbe|js|jse|wsf|wsh|hta|sct|bas|vba)$", re.IGNORECASE)
_WSH_RUN = re.compile(r"(?:\.(?:run|exec)|\bshell)\s*\(?\s*(\"(?:[^\"\n]|\"\"){1,2000}\"|'[^'\n]{1,2000}')",
                      re.IGNORECASE)
_WSH_EXECUTE = re.compile(r"\.shellexecute\s*\(?\s*(\"[^\"\n]{1,260}\"|'[^'\n]{1,260}')\s*,\s*"
                          r"(\"(?:[^\"\n]|\"\"){0,2000}\"|'[^'\n]{0,2000}')", re.IGNORECASE)
_WSH_LIMIT = 8


def _unquote(s: str) -> str:
    return s[1:-1].replace('""', '"') if s[:1] == '"' else s[1:-1]


def wsh_commands(code: str) -> tuple[str, ...]:
    """The command lines a Windows Script Host file or a macro starts through Run, Exec, Shell or ShellExecute."""
    out = [_unquote(m.group(1)) for m in _WSH_RUN.finditer(code)]
    out += [f"{_unquote(m.group(1))} {_unquote(m.group(2))}" for m in _WSH_EXECUTE.finditer(code)]
    return tuple(c.strip() for c in out[:_WSH_LIMIT] if c.strip())


# AppleScript starts a shell line with `do shell script "..."` (a backslash escapes a quote inside it)
_DO_SHELL = re.compile(r"\bdo shell script\s+\"((?:[^\"\\\n]|\\.){1,2000})\"", re.IGNORECASE)
_APPLESCRIPT_FILE = re.compile(r"\.(?:applescript|scpt|scptd)$", re.IGNORECASE)


def _embedded_block(name: str, code: str, ctx: Context) -> Hit | None:
    """The strongest block of the shell rules over the command lines a script host file (VBScript, JScript, an
    HTA) or an AppleScript starts."""
    if _WSH_FILE.search(name):
        commands = wsh_commands(code)
    elif _APPLESCRIPT_FILE.search(name):
        commands = tuple(re.sub(r"\\(.)", r"\1", m.group(1)) for m in _DO_SHELL.finditer(code))[:_WSH_LIMIT]
    else:
        return None
    if not commands:
        return None
    sub = Context(Shell(command="\n".join(commands)), ctx.observation, ctx.compiled, None)
    block, _ = strongest(tuple(r for r in ctx.compiled.by_type.get("shell", ())
                                if not r.id.startswith(("block.typed.", "confirm.typed."))), sub)
    return block


class _Verdict(NamedTuple):
    block: Hit | None
    confirm: Hit | None
    what: str  # "" or what the whole was judged as ("the macro typed so far", "update.ps1 as typed so far")


_NOTHING = _Verdict(None, None, "")


def _file_name(ctx: Context, saving: bool) -> str:
    """The file the editor's text goes to: the name typed into a Save As dialog, or the one the title shows."""
    if saving:
        name = (getattr(ctx.action, "text", "") or "").strip().strip("\"'")
        return name if name and len(name) <= 260 and "\n" not in name else ""
    title = ctx.observation.window_title
    if not title or len(title) > 300:
        return ""
    m = _FILE_NAME.search(title) or _NAMED_FILE.search(title)
    if m is not None:
        return m.group(1).strip()
    # a script editor's untitled pane holds a script of its own language all the same
    if _script_pane(ctx):
        return "script.ps1"
    place = f"{normalise(ctx.observation.app)}\n{normalise(title)}"
    return "script.applescript" if _APPLESCRIPT.search(place) else ""


def _rules(ctx: Context, kind: str, ids: frozenset[str]) -> tuple[Rule, ...]:
    return tuple(r for r in ctx.compiled.by_type.get(kind, ()) if r.id in ids)


def _verdict(ctx: Context) -> _Verdict:
    """The content rules' judgement of the whole: the text typed so far into this window and this piece, when
    the piece ends a line, at a key that ends a line, saves or runs, and at a name typed into a Save As dialog."""
    if ctx.history is None:
        return _NOTHING
    saving = _save_dialog(ctx)
    if not saving and not _code_place(ctx):
        return _NOTHING
    before, _ = typed_so_far(ctx)
    # a console runs each line it is given (Enter, a line end typed, a notebook's Shift+Enter); a macro editor
    # keeps what it holds in the document; any other editor's text counts when it is saved or run
    running = ctx.derived(destination) in _CONSOLES or _notebook(ctx) or _macro_place(ctx)
    if ctx.type == "key":
        combo = ctx.derived(key_combo)
        if not before or not (combo in _SAVE_KEYS or combo in _RUN_KEYS or (combo == "enter" and running)):
            return _NOTHING
        whole = before
    elif saving:
        whole = before
    else:
        piece = getattr(ctx.action, "text", "") or ""
        if not running or ("\n" not in piece and "\r" not in piece):
            return _NOTHING  # judged when the line is complete, or when the editor's text is saved or run
        whole = _apply(before, piece)
    if not whole.strip():
        return _NOTHING
    name = _file_name(ctx, saving) if (saving or ctx.type == "key") else ""
    notebook = _notebook(ctx)
    obs = ctx.observation
    key = (whole, name, notebook, bool(before), obs.window_title, obs.app, ctx.type)
    found = _judged(ctx, key)
    if found is not None:
        return found
    block = confirm = None
    what = ""
    if (before or notebook) and not saving:
        if notebook:  # a notebook's cell runs its code as a language console does
            obs = msgspec.structs.replace(obs, window_title=f"{obs.window_title} (jupyter)")
        # a console's judgement reads its newest lines (each line run costs a reading of the text)
        console = notebook or ctx.derived(destination) in _CONSOLES
        code = whole[-JUDGED_TEXT:] if console else whole
        sub = Context(Type(text=code, target=ctx.action.target if ctx.type == "type" else None),
                      obs, ctx.compiled, None)
        block, confirm = strongest(_rules(ctx, "type", _TYPED_IDS), sub)
        what = "the code typed so far into this window, taken whole"
    if block is None and name:
        sub = Context(FileWrite(path=name, content=whole), ctx.observation, ctx.compiled, None)
        fblock, fconfirm = strongest(_rules(ctx, "file_write", _FILE_IDS), sub)
        fblock = fblock or _embedded_block(name, whole, ctx)
        if fblock is not None or (confirm is None and fconfirm is not None):
            block, confirm = fblock, (confirm or fconfirm)
            what = f"the text typed {'so far ' if before else ''}into this editor, saved as {name}"
    verdict = _Verdict(block, confirm, what) if (block or confirm) else _NOTHING
    _remember_judged(ctx, key, verdict)
    return verdict


def _judged(ctx: Context, key: tuple) -> _Verdict | None:
    """The verdict last given for the same whole in the same place (a save right after the last line)."""
    with _LOCK:
        doc = _DOCS.get(_history_of(ctx))
        if doc is None or doc.judged is None or doc.judged[0] != key:
            return None
        return doc.judged[1]


def _remember_judged(ctx: Context, key: tuple, verdict: _Verdict) -> None:
    with _LOCK:
        doc = _DOCS.get(_history_of(ctx))
        if doc is not None:
            doc.judged = (key, verdict)


@rule("block.gui.assembled-code", "Code typed in pieces into an editor or a console whose whole is what the content "
      "rules block", risk=Risk.CRITICAL, types=("type", "key"), redact=("text",), confidence=0.85, needs="history")
def assembled_block(ctx: Context) -> CheckResult:
    """The text typed into one code editor, macro editor, notebook or console this session, taken whole (in a
    console or a macro editor at each line, in an editor when it is saved or run, or saved under a name typed
    into the Save As dialog), is what the macro, console or script rules block: a macro that runs on opening
    and starts a program, typed a line at a time; a script saved as `.ps1` whose download-and-run was typed in
    three pieces; a console's cookie read in one statement and sent out in the next; a VBScript or an
    AppleScript whose Run or `do shell script` line the shell rules block. A document or a project's code typed
    in pieces passes."""
    v = ctx.derived(_verdict)
    if v.block is None:
        return None
    return f"{v.what}: {v.block.reason}", v.block.risk


@rule("confirm.gui.assembled-code", "Code typed in pieces into an editor or a console whose whole is what the "
      "content rules ask about", risk=Risk.HIGH, types=("type", "key"), redact=("text",), confidence=0.75,
      needs="history")
def assembled_confirm(ctx: Context) -> CheckResult:
    """As `block.gui.assembled-code`, for a whole the macro, console or script rules ask about (macro code that
    starts a program, a console script that reads the page's storage): a person decides."""
    v = ctx.derived(_verdict)
    if v.block is not None or v.confirm is None:
        return None
    return f"{v.what}: {v.confirm.reason}", v.confirm.risk


RULES: tuple[Rule, ...] = (assembled_block, assembled_confirm)
