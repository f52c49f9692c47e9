"""Typed text that makes an office document run a program: a field code that asks Windows to start one, and a
macro that runs by itself when the document opens.

    block.gui.field-code-command   a DDE or DDEAUTO field code naming a program (`DDEAUTO c:\\windows\\system32\\
                                   cmd.exe "/k ..."`): Word, Outlook and Excel start it when the document opens
    block.gui.auto-macro-command   macro code whose entry point runs on opening (AutoOpen, Document_Open,
                                   Workbook_Open, Auto_Open, AutoExec, onOpen) and that starts a program or fetches a
                                   file from the network: the classic malicious document
    confirm.gui.macro-code         macro code typed into a macro editor (the VBA editor, LibreOffice Basic, Apps
                                   Script) that runs on opening or starts a program; and a paste into a macro
                                   editor, whose code nobody has read

A spreadsheet's `=cmd|' /c ...'!A1` is `block.gui.formula-command` (gate/rules/gui.py). Ordinary macros (a
button's handler that formats a table) typed into the editor pass: the document is the person's and nothing in
it starts on its own.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import PASTE_KEYS, key_combo
from gate.typed import destination

_LIMIT = 20_000  # characters of typed code read

# A field code of dynamic data exchange: the keyword, then the program (a path or a bare name) and its command
# line in quotes. `{ DDEAUTO c:\\windows\\system32\\cmd.exe "/k calc" }`, `DDE "c:\\x.exe" "/c ..."`; "DDE" in a
# sentence ("the DDE protocol") has no program after it.
_FIELD_CODE = re.compile(r"(?:^|[{\s])dde(?:auto)?\s+(?:\"[^\"\n]{1,200}\"|[^\s\"]{1,200})\s+\"[^\"\n]{1,300}\"",
                         re.IGNORECASE)
_FIELD_PROGRAM = re.compile(r"\b(?:cmd|powershell|pwsh|mshta|wscript|cscript|rundll32|regsvr32|certutil|bitsadmin|"
                            r"msiexec|calc|notepad|conhost|bash|sh|python|[\w-]{1,40}\.(?:exe|com|bat|cmd|ps1|vbs|"
                            r"js|hta|scr))\b", re.IGNORECASE)

# macro code: a procedure written out (VBA, LibreOffice Basic) or an Apps Script function
# (each part searched on its own: one pass over the text, however many procedures it opens)
_MACRO_START = re.compile(r"(?:^|\n)[ \t]*(?:(?:public|private)[ \t]+)?(?:sub|function)[ \t]+\w+[ \t]*\(",
                          re.IGNORECASE)
_MACRO_END = re.compile(r"\bend[ \t]+(?:sub|function)\b", re.IGNORECASE)
_APPS_SCRIPT_TRIGGER = re.compile(r"\bfunction[ \t]+on(?:open|edit|install)[ \t]*\(", re.IGNORECASE)


def _macro_shaped(text: str) -> bool:
    start = _MACRO_START.search(text)
    return (start is not None and _MACRO_END.search(text, start.end()) is not None) or \
        _APPS_SCRIPT_TRIGGER.search(text) is not None
# the entry points an office application calls by itself: on opening, closing or a new document
_AUTO_RUN = re.compile(r"\b(?:sub|function)\s+(?:auto_?open|autoexec|autonew|autoclose|auto_close|document_open|"
                       r"document_close|document_new|workbook_open|workbook_activate|workbook_beforeclose|"
                       r"presentation_open|app_startup|onopen|oninstall)\b", re.IGNORECASE)
# what starts a program or fetches a file from inside a macro
_MACRO_RUNS = re.compile(
    r"\bshell\s*(?:\(\s*)?\"|\bshell\s+\w|\bwscript\.shell\b|\bshell\.application\b|\bcreateobject\s*\(\s*\"(?:wscript|"
    r"shell|msxml2|microsoft\.xmlhttp|winhttp|adodb\.stream|scripting\.filesystemobject)|\bgetobject\s*\(\s*\"winmgmts|"
    r"\burldownloadtofile\b|\bshellexecute\b|\bwinexec\b|\bcreateprocess\b|\bmacscript\b|\bapplescripttask\b|"
    r"\.run\s*(?:\(\s*)?\"|\bpowershell\b|\bcmd(?:\.exe)?\s*/c\b|\bmshta\b|\bcertutil\b|\bbitsadmin\b|\bregsvr32\b|"
    r"\brundll32\b|\burlfetchapp\.fetch\b", re.IGNORECASE)
_MACRO_NETWORK = re.compile(r"\b(?:https?|ftp)://|\\\\[\w.-]+\\|\burldownloadtofile\b|\bmsxml2\.|"
                            r"\bmicrosoft\.xmlhttp\b|\bwinhttp\.|\burlfetchapp\.fetch\b|\b(?:iwr|irm|invoke-webrequest|"
                            r"downloadstring|downloadfile|start-bitstransfer)\b", re.IGNORECASE)
# a macro editor: the VBA window, LibreOffice's Basic IDE, Apps Script's editor, a macro recorder's code view
_MACRO_EDITOR = re.compile(r"\bvisual basic(?: for applications| editor)?\b|\bvba\b|\bbasic ide\b|\bbasic macros?\b|"
                           r"\bapps script\b|\bscript\.google\.com\b|\bmacro editor\b|\bmacros? code\b|"
                           r"\(code\)", re.IGNORECASE)
_MACRO_EDITOR = Guarded(_MACRO_EDITOR)


def _typed(ctx: Context) -> str:
    text = getattr(ctx.action, "text", "") or ""
    return text[:_LIMIT]


def _in_document(ctx: Context) -> bool:
    """Typed where a document, a form or an editor takes it: a terminal or a Run box judge the text as commands."""
    where = ctx.derived(destination)
    return not where.runs_commands


def _macro_editor(ctx: Context) -> bool:
    obs = ctx.observation
    url = getattr(ctx.action, "url", None) or obs.url or ""
    return _MACRO_EDITOR.search(f"{obs.app}\n{obs.window_title}\n{url[:200]}") is not None


@rule("block.gui.field-code-command", "A document field code that starts a program", risk=Risk.CRITICAL,
      types=("type",), confidence=0.9)
def field_code_command(ctx: Context) -> str | None:
    """The typed text is a DDE or DDEAUTO field code naming a program and its command line: Word, Outlook and
    Excel ask Windows to start it when the document is opened (DDEAUTO without asking anyone). No letter or
    report needs one; it is how a document is made to run code."""
    text = _typed(ctx)
    if "dde" not in text.lower() or not _in_document(ctx):
        return None
    m = _FIELD_CODE.search(text)
    if m is None or _FIELD_PROGRAM.search(m.group(0)) is None:
        return None
    return f"a field code that starts a program when the document opens: {m.group(0).strip()[:80]!r}"


@rule("block.gui.auto-macro-command", "A macro that runs on opening and starts a program or fetches a file",
      risk=Risk.CRITICAL, types=("type",), confidence=0.9)
def auto_macro_command(ctx: Context) -> str | None:
    """Macro code whose entry point the office application calls by itself (AutoOpen, Document_Open,
    Workbook_Open, Auto_Open, onOpen...) and that starts a program (Shell, WScript.Shell, PowerShell) or fetches
    from the network (URLDownloadToFile, an HTTP object, a share): whoever opens the document runs it. It is the
    shape of a malicious document, wherever the code is typed."""
    text = _typed(ctx)
    if not _in_document(ctx) or not _macro_shaped(text):
        return None
    auto = _AUTO_RUN.search(text)
    if auto is None:
        return None
    runs = _MACRO_RUNS.search(text)
    fetches = _MACRO_NETWORK.search(text)
    if runs is None or (fetches is None and not _macro_editor(ctx)):
        return None
    what = "fetches from the network and starts a program" if fetches else "starts a program"
    return f"a macro that runs when the document opens ({auto.group(0).split()[-1]}) and {what}"


@rule("confirm.gui.macro-code", "Macro code that runs on opening or starts a program, or a paste into a macro "
      "editor", risk=Risk.HIGH, types=("type", "key"), confidence=0.75)
def macro_code(ctx: Context) -> str | None:
    """In a macro editor (the VBA window, LibreOffice's Basic IDE, Apps Script): typed code whose entry point runs
    by itself on opening, or that starts a program or fetches a file; and a paste (Ctrl+V, Shift+Insert, Cmd+V),
    whose code nobody has read. The macro is saved into the document and runs for whoever opens it. Ordinary
    macro code (a handler that formats a table) passes."""
    if not _macro_editor(ctx):
        return None
    if ctx.type == "key":
        if ctx.derived(key_combo) not in PASTE_KEYS:
            return None
        return "a paste into a macro editor: code nobody has read, saved into the document"
    text = _typed(ctx)
    if not _in_document(ctx):
        return None
    auto = _AUTO_RUN.search(text)
    runs = _MACRO_RUNS.search(text) or _MACRO_NETWORK.search(text)
    if auto is None and runs is None:
        return None
    if auto is not None:
        return f"macro code that runs by itself when the document opens ({auto.group(0).split()[-1]})"
    return "macro code that starts a program or fetches from the network"


RULES: tuple[Rule, ...] = (field_code_command, auto_macro_command, macro_code)
