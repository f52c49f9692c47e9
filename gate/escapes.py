"""Shell escapes of programs that are not terminals: the command line a typed escape hands to a shell.

    program(places) -> str | None              the program with a shell escape that the window, the app or the
                                               target names (`vim - notes.md`, `emacs@host`, `qutebrowser`)
    escapes(program, text, opener, prompt) -> tuple[Escape, ...]
                                               the shell escapes `text` typed there makes, each with the command
                                               line it runs (opener "shell": typed at its shell-command prompt)
    shell_prompt(target) -> bool               the target is a program's prompt for a shell command
    opener(why) -> str                         the prompt key a followed line was opened by (gate/lines.py)
    prompt_key(combo) -> bool                  the key opens a program's prompt, or a modal editor's normal mode
    follow_up(opener, text) -> str | None      the prompt a line ended at a prompt opens next (`M-x shell-command`)

Editors, pagers, file managers and keyboard browsers run shell lines themselves. What each program's own
documentation says it hands to a shell:

- Vim and Neovim: `:!cmd` and `:{range}!cmd` (a filter), `:r !cmd`, `:w !cmd` (the space matters: `:w!` only
  forces a write), `:silent !cmd`, `:terminal cmd`, `:execute "!cmd"`, `system()`, `systemlist()`, `jobstart()`,
  `termopen()` in any expression (`:call`, `:echo`, `:let`), the script interfaces (`:lua`, `:python3`,
  `:perl`, `:ruby`: the code is that interpreter's one-liner, and a `os.execute`/`os.system` in it is a
  command), `:make`; in normal mode `!!cmd` and `!{motion}cmd`.
- Emacs: `M-!` (shell-command), `M-&` (async), `M-|` (on the region), each after `C-u` too, `M-x` with
  shell-command, async-shell-command, compile and the project variants, `M-:` with `(shell-command "...")`,
  `(call-process ...)`; a shell buffer (`*shell*`, `*eshell*`, `*vterm*`, a terminal's `term://`) runs every line.
- Helix `:sh`/`:run-shell-command`/`:pipe`/`:pipe-to`/`:insert-output`/`:append-output`, and `!`, `|`, `$` in
  normal mode; Kakoune `%sh{...}` in any command, and `!`, `|`, `$` in normal mode; Nano's Execute Command
  (`^T`, or `^R ^X`); micro's command bar (`^E`) `run`, `term`, `textfilter`; Emacs's `M-x` prompt given the
  command and its line as one text (`shell-command rm -rf x`); VS Code's terminal (ctrl+`).
- Pagers and file managers: less, more and man `!cmd` and `|<mark>cmd`; ranger `!cmd` and `:shell cmd`; lf
  `$cmd`, `%cmd`, `!cmd`, `&cmd`; nnn `]cmd`; Midnight Commander's command line; lazygit's `:` prompt; tig `:!cmd`.
- Mail readers: Mutt and NeoMutt `<pipe-message>cmd`, `<pipe-entry>cmd`, `<shell-escape>cmd` in a macro or a
  binding (up to `<enter>`), and their default keys `|cmd` (pipe the message) and `!cmd` (the shell escape); aerc
  `:pipe cmd` (with its `-b`, `-m`, `-p` flags), `:term cmd`, `:exec cmd`.
- Keyboard browsers: qutebrowser `:spawn cmd`, and `:spawn --userscript cmd` (the script is handed the page's
  text, HTML, address and selection, and a pipe to give the browser commands); Tridactyl `:exclaim`, `:!`,
  `:exclaim_quiet`, `:!s`, and `:nativeinstall` (it installs the native messenger that lets the browser run
  commands); vimb `:shellcmd`.

A bare `!`, `|` or `$` only opens a prompt in a modal editor's normal mode: there it counts after an Escape
(typed, or a key), never at the start of ordinary typing, so `!important` or a Markdown table typed into an
editor stays text. Pagers and file managers have no insert mode: their keys are commands. An escape that only
opens an interactive shell (`:sh`, `M-x shell`) runs nothing by itself; what is typed into the shell buffer
then is judged line by line. Everything here is pure string work over text that is already in memory.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Callable
from typing import NamedTuple

__all__ = ["EVERY_LINE", "Escape", "command_line", "dialog_field", "escapes", "follow_up", "opener", "program",
           "prompt_closed", "prompt_key", "prompt_why", "shell_prompt"]

LIMIT = 8192  # text beyond this is not parsed for escapes (a line is followed up to gate/lines.py LINE_MAX)


class Escape(NamedTuple):
    program: str  # the program as a person knows it ("Vim", "Emacs")
    typed: str  # the escape as it was typed (`:!rm -rf ~`)
    command: str  # the command line it hands to a shell ("" when it only opens an interactive shell)
    kind: str = "command"  # "command" | "shell" (an interactive shell) | "repeat" (the last command again) |
    #                        "installer" (installs what lets the program run commands) | "userscript" (a command
    #                        that is handed the page's text, HTML and address, and can drive the browser)
    #                        | "pipe" (a command handed the message a mail reader shows on its input)


# -- the programs, by what the window, the app or the target says ----------------------------------------------

# (program, the words a place must hold for the pattern to be tried, pattern over a normalised place); for one
# place the first program that matches is the one. "(" and "!" stand for a place holding `(` or opening with `!`.
_PROGRAMS: tuple[tuple[str, frozenset[str], re.Pattern[str]], ...] = tuple(
    (name, frozenset(words.split()), re.compile(p)) for name, words, p in (
        # a shell buffer of an editor: every line runs
        ("a shell buffer", "shell eshell terminal ansi vterm eat term !",
         r"\*(?:shell|eshell|terminal|ansi-term|vterm|eat|term)\*|\bterm://|^!/\S*(?:sh|bash|zsh|fish)\b"),
        ("Vim", "vim nvim gvim neovim neovide macvim mvim vimr ideavim vscodevim vi view ex",
         r"(?<![\w.])(?:n?vim|gvim|neovim|neovide|macvim|mvim|vimr|ideavim|vscodevim|vim (?:command|cmdline|ex))\b|"
         r"^(?:vi|view|ex)(?: |$)"),
        ("Emacs", "emacs spacemacs xemacs minibuffer", r"\b(?:emacs|spacemacs|xemacs)\b|^emacs@|\bminibuffer\b"),
        ("Helix", "hx helix", r"^hx(?: |$)|^helix(?: - .*| \S*[./~]\S*)?$"),
        ("Kakoune", "kakoune kak", r"\bkakoune\b|^kak(?: |$)"),
        # a terminal's title while the program runs (`nano notes.txt`, `GNU nano 7.2`), not a page about an iPod nano
        ("Nano", "nano", r"^(?:gnu )?nano(?: |$)|\bgnu nano\b"),
        # micro's terminal title (`micro notes.md`, `micro - notes.md`), or a target naming its command bar
        ("micro", "micro", r"^micro(?: - .*| [\w./~-]+)?$|^micro(?:'s)? (?:command bar|command prompt|prompt)\b"),
        ("less", "less more most man (", r"^(?:less|more|most)(?: \S*[./~]\S*)?$|^man \S+$|^[\w.-]+\(\d\w*\)$"),
        ("ranger", "ranger", r"^ranger(?:\b|:)"),
        ("lf", "lf", r"^lf(?: |$)"),
        ("nnn", "nnn", r"^nnn\b"),
        ("Midnight Commander", "midnight mc", r"\bmidnight commander\b|^mc(?: |$)"),
        ("lazygit", "lazygit", r"\blazygit\b"),
        # mail readers: Mutt and NeoMutt (`|` pipes the message, `!` is the shell escape), aerc (`:pipe`, `:term`)
        ("Mutt", "mutt neomutt", r"\b(?:neo)?mutt\b"),
        ("aerc", "aerc", r"\baerc\b"),
        ("tig", "tig", r"^tig(?: |$)"),
        ("qutebrowser", "qutebrowser", r"\bqutebrowser\b"),
        ("Tridactyl", "tridactyl", r"\btridactyl\b"),
        ("vimb", "vimb", r"\bvimb\b"),
        ("VS Code", "visual vs vscode vscodium code",
         r"\b(?:visual studio code|vs ?code|vscodium|code - oss)\b|^code$"),
    ))
_NEEDED = frozenset().union(*(needs for _, needs, _ in _PROGRAMS))
_WORD = re.compile(r"[a-z0-9]+")
# a target that is the program's own command line: the `:` is already typed there
_COMMAND_LINE = re.compile(r"\b(?:command ?line|cmdline|command bar|command prompt|minibuffer|ex command|"
                           r"command mode|prompt)\b|^(?:command|console|:)$|"
                           r"^(?:m-x|alt-x|meta-x|execute-extended-command)(?:\W|$)")
# a target that is the program's prompt for a shell command itself, by the words the prompt shows (Emacs's "Shell
# command:", Nano's "Command to execute:", lazygit's "Shell command:", Helix's "sh:", Kakoune's "pipe:")
_SHELL_PROMPT = re.compile(r"^(?:async )?shell command(?: on region)?\W{0,3}$|^compile command\W{0,3}$|"
                           r"^command to execute\W{0,3}$|^(?:sh|run-shell-command|pipe|pipe-to|insert-output|"
                           r"append-output|shell|!|\|)\s?:$")


# programs where every line typed runs (a file manager's command line, an editor's shell buffer): a target they
# name that is neither their command line nor a terminal is one of their dialogs' fields (a path to copy to)
EVERY_LINE = frozenset({"Midnight Commander", "a shell buffer"})
_TERMINAL_PART = re.compile(r"\b(?:terminal|shell|console|command|cmdline|prompt)\b")


# mail readers whose keys are commands: a target naming one of a message's fields is text being written there
_MAIL_READERS = frozenset({"Mutt", "aerc"})
_MAIL_FIELD = re.compile(r"\b(?:body|subject|to|cc|bcc|message text|draft|signature)\b")


def dialog_field(name: str, places: tuple[str, ...]) -> bool:
    """In program `name`, where every line runs, the target (`places`: its parts) is a dialog's field; in a mail
    reader, the target is a field of the message being written."""
    if name in _MAIL_READERS:
        return any(_MAIL_FIELD.search(p) for p in places if p) and not any(
            _TERMINAL_PART.search(p) for p in places if p)
    return name in EVERY_LINE and bool(places) and not any(_TERMINAL_PART.search(p) for p in places if p)


def shell_prompt(places: tuple[str, ...]) -> bool:
    """One of `places` (the target's parts) is a program's prompt for a shell command: what is typed is one."""
    return any(_SHELL_PROMPT.match(p) for p in places if p)


def program(places: tuple[str, ...]) -> str | None:
    """The program with a shell escape named by the first of `places` (normalised target parts, window title,
    app) that names one, or None."""
    for place in places:
        if place and (name := _named(place)) is not None:
            return name
    return None


@functools.lru_cache(maxsize=1024)
def _named(place: str) -> str | None:
    """The program one place names (a window's title repeats from action to action: kept, bounded)."""
    words = set(_WORD.findall(place))
    if "(" in place:
        words.add("(")
    if place[0] == "!":
        words.add("!")
    if _NEEDED.isdisjoint(words):
        return None  # the common place holds none of the words: no pattern is tried
    for name, needs, pattern in _PROGRAMS:
        if not needs.isdisjoint(words) and pattern.search(place):
            return name
    return None


def command_line(places: tuple[str, ...]) -> bool:
    """One of `places` (the target's parts) is the program's own command line."""
    return any(_COMMAND_LINE.search(p) for p in places if p)


# -- keys that open a prompt ------------------------------------------------------------------------------------

# key combinations (gate/rules/gui.py `canonical_keys` form) that open a program's prompt, or that leave a modal
# editor's insert mode: what is typed after them is that prompt's line, not the text before
_PROMPT_KEYS = {
    "esc": "esc", "ctrl+[": "esc",
    "alt+!": "m-!", "alt+shift+1": "m-!", "alt+shift+!": "m-!", "m-!": "m-!", "alt+exclam": "m-!",
    "alt+&": "m-&", "alt+shift+7": "m-&", "alt+shift+&": "m-&", "m-&": "m-&", "alt+ampersand": "m-&",
    "alt+|": "m-|", "alt+shift+backslash": "m-|", "alt+shift+\\": "m-|", "alt+shift+|": "m-|", "m-|": "m-|",
    "alt+bar": "m-|",
    "alt+:": "m-:", "alt+shift+semicolon": "m-:", "alt+shift+;": "m-:", "alt+shift+:": "m-:", "m-:": "m-:",
    "alt+colon": "m-:",
    "alt+x": "m-x", "m-x": "m-x",
    "ctrl+t": "ctrl+t", "ctrl+r": "ctrl+r", "ctrl+e": "ctrl+e",
    "ctrl+`": "terminal", "ctrl+grave": "terminal", "ctrl+backquote": "terminal", "ctrl+shift+`": "terminal",
    "ctrl+shift+grave": "terminal", "ctrl+shift+backquote": "terminal", "ctrl+'": "terminal",
}
_WHY = "a key opened a program's prompt or left an editor's insert mode: "
_WHY_RE = re.compile(re.escape(_WHY) + r"(\S+(?: \S+)?)$")


# prompts that stay open for the next line: an editor's terminal panel keeps the focus after a command ran
_STICKY = frozenset({"terminal"})
# keys that close the prompt they opened when pressed in it: ctrl+` toggles VS Code's terminal panel
_TOGGLES = frozenset({"terminal"})


def prompt_closed(combo: str, before: str) -> bool:
    """Pressed on a line that prompt `before` opened, the key closes that prompt (the focus goes back)."""
    return before in _TOGGLES and _PROMPT_KEYS.get(combo) == before


# keys that open a prompt only in the prompt another key opened: Nano's ^X in its Read File prompt (^R)
_CHAINED = {"ctrl+x": "ctrl+r"}


def prompt_key(combo: str, before: str = "") -> bool:
    """The key combination opens a program's prompt or leaves a modal editor's insert mode (`before`: the prompt
    the line it is pressed on was opened by)."""
    return combo in _PROMPT_KEYS or (before != "" and _CHAINED.get(combo) == before)


def prompt_why(combo: str, before: str = "") -> str:
    """The `why` of a line a prompt key opened (`before`: the opener of the empty line it was pressed on).
    `combo` "esc+<c>": an Escape typed in text with the printable key after it, which a terminal reads as one
    meta key and a modal editor as Escape, then that key."""
    if combo.startswith("esc+") and len(combo) == 5 and not combo[4].isspace():
        return _WHY + combo
    key = _PROMPT_KEYS.get(combo, combo)
    chained = f"{before} {key}" if _CHAINED.get(key) == before else key
    return _WHY + chained


def opener(why: str) -> str:
    """The prompt a followed line was opened by (`m-!`, `esc`, `ctrl+r ctrl+x`, `emacs:shell-command`), from its
    `why`; '' when no prompt key opened it."""
    m = _WHY_RE.match(why) if why else None
    return m.group(1) if m is not None else ""


# M-x commands that prompt for a shell command, and those that open an interactive shell
_EMACS_COMMANDS = frozenset({
    "shell-command", "async-shell-command", "shell-command-on-region", "compile", "recompile", "project-compile",
    "project-shell-command", "project-async-shell-command", "dired-do-shell-command", "dired-do-async-shell-command",
    "eshell-command", "executable-interpret"})
# (`term` and `ansi-term` ask which shell to start: that is an interactive shell too)
_EMACS_SHELLS = frozenset({"shell", "eshell", "vterm", "vterm-other-window", "project-shell", "project-eshell", "eat",
                           "term", "ansi-term"})
_EMACS_ELISP = frozenset({"eval-expression"})


def follow_up(opener_: str, text: str) -> str | None:
    """The prompt a line that ended at prompt `opener_` holding `text` opens next (`M-x` then `shell-command`
    opens the shell-command prompt; a terminal panel keeps the focus for its next line), or None."""
    if opener_ in _STICKY:
        return _WHY + opener_
    if opener_ not in ("m-x", "esc"):
        return None
    name = text.strip()
    if opener_ == "esc":  # ESC x is M-x in Emacs
        if not name.startswith("x"):
            return None
        name = name[1:].strip()
    if name in _EMACS_COMMANDS or name in _EMACS_ELISP:
        return f"{_WHY}emacs:{name}"
    return None


# -- the text, cut into the lines and prompts it types -----------------------------------------------------------

# line ends (control characters and the key notations agents write), an Escape, other control characters
_CUT = re.compile(r"\r\n|[\r\n\x0b\x0c]|(?i:<(?:cr|enter|return|nl|kenter)>)|<RET>|\bRET\b|"
                  r"(?P<esc>\x1b|(?i:<(?:esc|c-\[)>)|\bESC\b)|(?P<ctl>[\x00-\x08\x0e-\x1a\x1c-\x1f])")
# `M-x NAME` written out in the text (the agent's notation for Emacs keys), before a line end
_TEXT_MX = re.compile(r"^\s*(?:C-u\s+)*(?:M-x|Alt-x|A-x|Alt\+x|Meta-x)\s+([\w-]+)\s*$", re.IGNORECASE)


class _Piece(NamedTuple):
    opener: str  # "" (a line's start), "esc", "ctrl+t", "m-!", "emacs:shell-command", ...
    text: str


def _pieces(text: str, first: str, prompt: bool) -> list[_Piece]:
    pieces: list[_Piece] = []
    start, current = 0, first
    for m in _CUT.finditer(text):
        piece = text[start:m.start()]
        if m.group("esc"):
            nxt = "esc"
        elif m.group("ctl"):
            nxt = f"ctrl+{chr(ord(m.group('ctl')) + 96)}"
        else:
            nxt = ""
        if nxt == "ctrl+c":  # the prompt is abandoned
            piece, nxt = "", ""
        if not piece.strip() and nxt and current in ("ctrl+r",):
            nxt = f"{current} {nxt}"  # nano: ^R then ^X
        pieces.append(_Piece(current, piece))
        if not nxt:
            if current in ("m-x", "esc") or current in _STICKY:
                nxt = opener(follow_up(current, piece) or "")
            elif (mx := _TEXT_MX.match(piece)) is not None or (prompt and current == ""):
                nxt = opener(follow_up("m-x", mx.group(1) if mx is not None else piece) or "")
        start, current = m.end(), nxt
    pieces.append(_Piece(current, text[start:]))
    return [p for p in pieces if p.text.strip()]


# -- what a piece hands to a shell --------------------------------------------------------------------------------

_MAKE_PROCESS = re.compile(r":command\s+'?\(([^()]*)\)")
# `:r !cmd` and `:r!cmd` read a command's output; `:w !cmd` writes to one (the space: `:w!` forces a write)
_READ_WRITE = re.compile(r"^r(?:e(?:a(?:d)?)?)?(?:\s+\+\+\S+)*\s*!(.*)$|"
                         r"^w(?:r(?:i(?:t(?:e)?)?)?)?(?:\s+\+\+\S+)*\s+!(.*)$", re.DOTALL)
_TERMINAL = re.compile(r"^te(?:r(?:m(?:i(?:n(?:a(?:l)?)?)?)?)?)?!?(?:\s+\+\+\S+)*(?:\s+(.*))?$", re.DOTALL)
_SHELL = re.compile(r"^sh(?:e(?:l(?:l)?)?)?\s*$")
_MAKE = re.compile(r"^mak(?:e)?!?(?:\s+(.*))?$", re.DOTALL)
_UNIVERSAL = re.compile(r"^(?:C-u\s+)+")
_PAGER_BANG = re.compile(r"^:?!(.*)$", re.DOTALL)
_PAGER_PIPE = re.compile(r"^\|[a-z^$.]\s*(.+)$", re.DOTALL)
_RANGER = re.compile(r"^(?:!|:\s*shell\b|shell\s)\s*((?:-[a-z]+\s+)*)(.*)$", re.DOTALL)
_LF = re.compile(r"^:?\s*[$%!&]\s*(.*)$|^:\s*shell(?:-pipe|-wait|-async)?\s+(.*)$", re.DOTALL)
_TIG = re.compile(r"^:?\s*!(.+)$", re.DOTALL)
_SPAWN = re.compile(r"^:\s*spawn\s+(.*)$", re.DOTALL)
_EXCLAIM = re.compile(r"^:\s*(?:exclaim_quiet|exclaim|!s|!)(?:\s+|(?<=!)(?!s\s))(.*)$", re.DOTALL)
_NATIVE_INSTALL = re.compile(r"^:\s*nativeinstall\b")
_VIMB = re.compile(r"^:?\s*sh(?:ellcmd)?!?\s+(.+)$", re.DOTALL)

_STRING = r"(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
_LIST = r"(?:\[[^\]]*\]|\{[^{}]*\})"
# calls that run a command line or an argument vector, in Vim script, Lua, Python, Perl, Ruby and Emacs Lisp
_CALL = re.compile(
    r"(?<![\w.-])(?:vim\.fn\.|vim\.|fn\.)?(?:system(?:list)?|jobstart|termopen|job_start|term_start|popen|"
    r"os\.execute|io\.popen|os\.system|os\.popen|subprocess\.(?:run|call|Popen|check_output|check_call|getoutput)|"
    r"shell-command(?:-to-string)?|async-shell-command|call-process-shell-command|process-lines)\s*\(?\s*"
    r"(?P<arg>" + _STRING + "|" + _LIST + ")")
# Emacs Lisp's process calls: the program and its arguments as strings after the name (and buffer) they take
_ELISP_PROCESS = re.compile(r"\(\s*(?P<fn>start-process-shell-command|call-process|start-process|process-file|"
                            r"make-process)(?![\w-])(?P<rest>[^()]*(?:\([^()]*\)[^()]*)*)")
_ATOM = re.compile(_STRING + r"|[^\s()\"']+")
_BACKTICK = re.compile(r"`([^`]{1,2000})`")  # Ruby's and Perl's command substitution


def _unquote(literal: str) -> str:
    body = literal[1:-1]
    return body.replace("\\\\", "\x00").replace('\\"', '"').replace("\\'", "'").replace("\x00", "\\")


def _argument(arg: str) -> str:
    if arg[0] in "[{":
        words = [_unquote(s) for s in re.findall(_STRING, arg)]
        return shlex.join(words) if words else ""
    return _unquote(arg)


def _called(code: str) -> list[str]:
    """The command lines the calls in `code` run."""
    found = [c for m in _CALL.finditer(code) if (c := _argument(m.group("arg")).strip())]
    for m in _ELISP_PROCESS.finditer(code):
        fn, rest = m.group("fn"), m.group("rest")
        if fn == "make-process":
            listed = _MAKE_PROCESS.search(rest)
            atoms = _ATOM.findall(listed.group(1)) if listed else []
        else:
            atoms = _ATOM.findall(rest)[2 if fn.startswith("start-process") else 0:]
        words = [_unquote(a) for a in atoms if a[0] in "'\""]
        if fn == "start-process-shell-command":
            found.extend(words[:1])
        elif words:
            found.append(shlex.join(words))
    found.extend(m.group(1) for m in _BACKTICK.finditer(code))
    return found


_RANGE = re.compile(r"^(?:\s|[%.$\d,;+\-*]|'[a-z<>\[\]]|/(?:[^/\\]|\\.)*/|\?(?:[^?\\]|\\.)*\?|\\[/?&])*")
_MODIFIERS = re.compile(r"^(?:sil(?:e(?:n(?:t)?)?)?!?|uns(?:i(?:l(?:e(?:n(?:t)?)?)?)?)?|noa(?:utocmd)?|"
                        r"keepa(?:lt)?|keepj(?:umps)?|keepp(?:atterns)?|lockm(?:arks)?|verb(?:ose)?|"
                        r"conf(?:irm)?|hid(?:e)?|vert(?:ical)?|hor(?:izontal)?|tab|bo(?:tright)?|to(?:pleft)?|"
                        r"abo(?:veleft)?|bel(?:owright)?|lefta(?:bove)?|rightb(?:elow)?|sandbox|noswap(?:file)?)"
                        r"(?:\s+|(?=!))")
_INTERPRETERS = (
    (re.compile(r"^(?:lua|luado|luafile)\b\s*"), "lua"),
    (re.compile(r"^(?:py(?:thon)?3?|pyx|pythonx|py3do|pydo|pyxdo)\b\s*"), "python3"),
    (re.compile(r"^(?:pe(?:rl)?|perldo)\b\s*"), "perl"),
    (re.compile(r"^(?:rub(?:y)?|rubydo)\b\s*"), "ruby"),
)
_CODE_FLAG = {"python3": "-c"}
_EXPRESSION = re.compile(r"^(?:cal(?:l)?|ec(?:ho)?|echom(?:sg)?|echon|let|exe(?:c(?:u(?:t(?:e)?)?)?)?|if|"
                         r"elsei(?:f)?|wh(?:ile)?|retu(?:rn)?|eval|cex(?:pr)?|lex(?:pr)?|cgete(?:xpr)?)\b\s*(.*)$",
                         re.DOTALL)


def _vim_ex(typed: str, line: str, depth: int = 0) -> list[Escape]:
    """The escapes of one Ex command line (after its `:`)."""
    rest = _RANGE.sub("", line, count=1).lstrip(": \t")
    while (m := _MODIFIERS.match(rest)) is not None:
        rest = rest[m.end():].lstrip()
    found: list[Escape] = []
    if rest.startswith("!"):
        command = rest[1:].strip()
        if command.startswith("!"):
            return [Escape("Vim", typed, command[1:].strip(), "repeat")]
        return [Escape("Vim", typed, command, "command" if command else "shell")]
    if (m := _READ_WRITE.match(rest)) is not None:
        command = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        return [Escape("Vim", typed, command, "command" if command else "repeat")]
    if (m := _TERMINAL.match(rest)) is not None:
        command = (m.group(1) or "").strip()
        return [Escape("Vim", typed, command, "command" if command else "shell")]
    if _SHELL.match(rest):
        return [Escape("Vim", typed, "", "shell")]
    if (m := _MAKE.match(rest)) is not None:
        return [Escape("Vim", typed, f"make {m.group(1) or ''}".strip())]
    for pattern, interpreter in _INTERPRETERS:
        if (m := pattern.match(rest)) is not None:
            code = rest[m.end():].strip()
            if not code or code.startswith("<<"):
                return []
            one_liner = f"{interpreter} {_CODE_FLAG.get(interpreter, '-e')} {shlex.quote(code)}"
            found.append(Escape("Vim", typed, one_liner))
            found.extend(Escape("Vim", typed, c) for c in _called(code))
            return found
    if (m := _EXPRESSION.match(rest)) is not None:
        expr = m.group(1)
        found.extend(Escape("Vim", typed, c) for c in _called(expr))
        if rest.startswith("exe") and depth < 2:
            # `:execute "!cmd"`: the string is an Ex command line of its own
            joined = "".join(_unquote(s) for s in re.findall(_STRING, expr))
            if joined:
                found.extend(_vim_ex(typed, joined, depth + 1))
    return found


_VIM_FILTER = re.compile(r"^\d*!(?:!|\d*(?:[jkhlwbeWBE}{()G$0%]|gg|[ia][wWsp\[\](){}<>'\"`bB]|[ftFT].|'[a-z]))(.*)$",
                         re.DOTALL)


def _vim(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if text.startswith(":"):
        return _vim_ex(text, text[1:])
    if prompt and piece.opener == "":
        return _vim_ex(text, text)
    if piece.opener == "esc" and (m := _VIM_FILTER.match(text)) is not None:
        command = m.group(1).strip()
        return [Escape("Vim", text, command)] if command else []
    return []


_EMACS_KEY = re.compile(r"^(?:C-u\s+)*(?:M-|ESC\s*|A-|Alt-|Alt\+|Meta-)(?P<key>[!&|:]|x\s+(?P<name>[\w-]+))\s*"
                        r"(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)
_EMACS_PROMPTS = {"m-!": "!", "m-&": "&", "m-|": "|", "m-:": ":"}


def _emacs(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    key = _EMACS_PROMPTS.get(piece.opener, "")
    name = ""
    if piece.opener.startswith("emacs:"):
        name = piece.opener[6:]
    elif piece.opener == "esc" and text[:1] in "!&|:":
        key, text = text[0], text[1:].strip()
    elif piece.opener in ("m-x",) or (prompt and not key and piece.opener == ""):
        head, _, rest = text.partition(" ")
        if head in _EMACS_COMMANDS or head in _EMACS_SHELLS or head in _EMACS_ELISP:
            name, text = head, rest.strip()
            if not text:
                return [Escape("Emacs", head, "", "shell")] if head in _EMACS_SHELLS else []
    if not key and not name:
        text = _UNIVERSAL.sub("", text)
        m = _EMACS_KEY.match(text)
        if m is None:
            return []
        key, name, text = m.group("key")[0], m.group("name") or "", m.group("rest").strip()
        if key == "x" and name:
            if name in _EMACS_SHELLS and not text:
                return [Escape("Emacs", piece.text.strip(), "", "shell")]
            if name not in _EMACS_COMMANDS and name not in _EMACS_ELISP:
                return []
            if not text:
                return []  # the command's prompt comes next (a line end, then the command)
    typed = piece.text.strip()
    if key == ":" or name in _EMACS_ELISP:
        return [Escape("Emacs", typed, c) for c in _called(text)]
    if name in _EMACS_SHELLS:
        return [Escape("Emacs", typed, "", "shell")]
    return [Escape("Emacs", typed, text)] if text else []


_HELIX = re.compile(r"^:\s*(?:sh|run-shell-command|pipe|\||pipe-to|insert-output|append-output)(?:\s+(.*))?$",
                    re.DOTALL)


def _helix(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if prompt and piece.opener == "" and not text.startswith(":"):
        text = ":" + text
    if (m := _HELIX.match(text)) is not None:
        return [Escape("Helix", text, m.group(1).strip())] if m.group(1) and m.group(1).strip() else []
    if piece.opener == "esc" and text[:1] in "!|$" and text[1:].strip():
        return [Escape("Helix", text, text[1:].strip())]
    return []


_KAK_SH = re.compile(r"%sh(?P<open>[{(\[<])")
_CLOSE = {"{": "}", "(": ")", "[": "]", "<": ">"}


def _kak_blocks(text: str) -> list[str]:
    blocks = []
    for m in _KAK_SH.finditer(text):
        open_, close, depth = m.group("open"), _CLOSE[m.group("open")], 1
        i = m.end()
        while i < len(text) and depth:
            depth += (text[i] == open_) - (text[i] == close)
            i += 1
        blocks.append(text[m.end():i - 1 if depth == 0 else i])
    return blocks


def _kakoune(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if text.startswith(":") or (prompt and piece.opener == ""):
        return [Escape("Kakoune", text, b.strip()) for b in _kak_blocks(text) if b.strip()]
    if piece.opener == "esc" and text[:1] in "!|$" and text[1:].strip():
        return [Escape("Kakoune", text, text[1:].strip())]
    return []


def _nano(piece: _Piece, prompt: bool) -> list[Escape]:
    if piece.opener in ("ctrl+t", "ctrl+r ctrl+x"):
        text = piece.text.strip()
        return [Escape("Nano", text, text)]
    return []


_MICRO = re.compile(r"^>?\s*(run|term|textfilter)\b\s*(.*)$", re.DOTALL)


def _micro(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if piece.opener == "ctrl+e" or text.startswith(">") or prompt:
        m = _MICRO.match(text)
        if m is not None:
            command = m.group(2).strip()
            if command:
                return [Escape("micro", text, command)]
            return [Escape("micro", text, "", "shell")] if m.group(1) == "term" else []
    return []


# Mutt and NeoMutt: the functions that hand a shell command to run, as a macro or a key binding writes them
# (`<pipe-message>cmd<enter>`), and the default keys that open their prompts (`|`, `!`) at a line's start
_MUTT_FUNCTION = re.compile(r"<(pipe-message|pipe-entry|shell-escape)>\s*(.*)$", re.DOTALL)
_MUTT_KEY = re.compile(r"^([|!])\s*(.*)$", re.DOTALL)


def _mutt(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    m = _MUTT_FUNCTION.search(text)
    if m is None and (piece.opener in ("", "esc")):
        m = _MUTT_KEY.match(text)
    if m is None:
        return []
    command = m.group(2).strip().strip("\"'").strip()
    if command:
        return [Escape("Mutt", text, command, "command" if m.group(1) in ("!", "shell-escape") else "pipe")]
    return [Escape("Mutt", text, "", "shell")] if m.group(1) in ("!", "shell-escape") else []


_AERC = re.compile(r"^:?\s*(pipe|term|terminal|exec)\b((?:\s+-[a-z]+)*)\s*(.*)$", re.DOTALL)


def _aerc(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if not (text.startswith(":") or prompt):
        return []
    m = _AERC.match(text)
    if m is None:
        return []
    command = m.group(3).strip()
    if command:
        return [Escape("aerc", text, command, "pipe" if m.group(1) == "pipe" else "command")]
    return [Escape("aerc", text, "", "shell")] if m.group(1).startswith("term") else []


def _vscode(piece: _Piece, prompt: bool) -> list[Escape]:
    if piece.opener == "terminal":
        text = piece.text.strip()
        return [Escape("VS Code's terminal", text, text)]
    return []


def _pager(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if (m := _PAGER_BANG.match(text)) is not None:
        command = m.group(1).strip()
        if command == "!":
            return [Escape("less", text, "", "repeat")]
        return [Escape("less", text, command, "command" if command else "shell")]
    if (m := _PAGER_PIPE.match(text)) is not None:
        return [Escape("less", text, m.group(1).strip())]
    return []


def _ranger(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    m = _RANGER.match(text)
    if m is None:
        return []
    command = m.group(2).strip()
    return [Escape("ranger", text, command, "command" if command else "shell")]


def _lf(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    m = _LF.match(text)
    if m is None:
        return []
    command = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
    return [Escape("lf", text, command)] if command else []


def _nnn(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if text.startswith("]") and text[1:].strip():
        return [Escape("nnn", text, text[1:].strip())]
    return [Escape("nnn", text, "", "shell")] if text == "!" else []


def _mc(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    return [Escape("Midnight Commander", text, text)] if piece.opener == "" else []


def _lazygit(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if text.startswith(":") and text[1:].strip():
        return [Escape("lazygit", text, text[1:].strip())]
    if prompt and piece.opener == "":
        return [Escape("lazygit", text, text)]
    return []


def _tig(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    m = _TIG.match(text)
    if m is None or not (text.startswith(":") or prompt):
        return []
    return [Escape("tig", text, m.group(1).strip())]


_ADDRESS = re.compile(r"^[a-z][a-z0-9+.-]*://|^(?:\d{1,3}\.){3}\d{1,3}\b|@[\w-]+\.[\w.-]+", re.IGNORECASE)
_SPAWN_FLAGS = frozenset({"-u", "--userscript", "-v", "--verbose", "-o", "--output", "-m", "--output-messages",
                          "-d", "--detach"})


def _qutebrowser(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if prompt and not text.startswith(":"):
        text = ":" + text
    m = _SPAWN.match(text)
    if m is None:
        return []
    words = m.group(1).split()
    userscript = False
    while words and words[0] in _SPAWN_FLAGS:
        userscript |= words.pop(0) in ("-u", "--userscript")
        if userscript and words and words[0] not in _SPAWN_FLAGS:
            break
    if not words:
        return []
    # a userscript the person installed is found by its bare name; one given by a path (the agent may have written
    # it) or handed an address is handed the page too, and asks
    handed = userscript and ("/" in words[0] or "\\" in words[0] or any(_ADDRESS.search(w) for w in words[1:]))
    return [Escape("qutebrowser", text, " ".join(words), "userscript" if handed else "command")]


def _tridactyl(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    if prompt and not text.startswith(":"):
        text = ":" + text
    if (m := _EXCLAIM.match(text)) is not None:
        command = m.group(1).strip()
        return [Escape("Tridactyl", text, command)] if command else []
    if _NATIVE_INSTALL.match(text):
        return [Escape("Tridactyl", text, "", "installer")]
    return []


def _vimb(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    m = _VIMB.match(text)
    return [Escape("vimb", text, m.group(1).strip())] if m is not None and (text.startswith(":") or prompt) else []


def _shell_buffer(piece: _Piece, prompt: bool) -> list[Escape]:
    text = piece.text.strip()
    return [Escape("a shell buffer", text, text)] if piece.opener in ("", "esc") else []


_GRAMMARS = {
    "Vim": _vim, "Emacs": _emacs, "Helix": _helix, "Kakoune": _kakoune, "Nano": _nano, "micro": _micro,
    "VS Code": _vscode, "less": _pager, "ranger": _ranger, "lf": _lf, "nnn": _nnn, "Midnight Commander": _mc,
    "lazygit": _lazygit, "tig": _tig, "Mutt": _mutt, "aerc": _aerc,
    "qutebrowser": _qutebrowser, "Tridactyl": _tridactyl, "vimb": _vimb,
    "a shell buffer": _shell_buffer,
}


# what text typed with no prompt open must hold for a program's grammar to find anything (None: every line runs).
# Plain substring tests first: this runs on every text typed into these programs, code included.
_NL_COLON = re.compile(r"\n[ \t]*:")
_CR_COLON = re.compile(r"\r[ \t]*:")


def _escape_mark(text: str) -> bool:
    return "\x1b" in text or "<" in text or "ESC" in text


def _colon_line(text: str) -> bool:
    """A line of `text` starts with `:` (or an Escape is typed): a modal program's command line may open."""
    if _escape_mark(text):
        return True
    if ":" not in text:
        return False
    return (text.lstrip(" \t")[:1] == ":" or _NL_COLON.search(text) is not None or "\x0b" in text
            or "\x0c" in text or ("\r" in text and _CR_COLON.search(text) is not None))


def _holding(*marks: str) -> Callable[[str], bool]:
    return lambda text: any(m in text for m in marks)


_TRIGGERS: dict[str, Callable[[str], bool] | None] = {
    "Vim": _colon_line, "Helix": _colon_line, "Kakoune": _colon_line, "lazygit": _colon_line,
    "Emacs": _holding("M-", "A-", "Alt", "Meta", "\x1b", "<", "ESC"), "Nano": _holding("\x14", "\x12"),
    "micro": _holding("\x05", ">"), "VS Code": _holding(), "less": _holding("!", "|"),
    "ranger": _holding("!", "shell"), "lf": _holding("$", "%", "!", "&", "shell"), "nnn": _holding("]", "!"),
    "Midnight Commander": None, "tig": _holding("!"), "Mutt": _holding("<", "|", "!"),
    "aerc": _colon_line, "qutebrowser": _holding("spawn"),
    "Tridactyl": _holding("!", "exclaim", "nativeinstall"), "vimb": _holding("sh"), "a shell buffer": None,
}


def escapes(name: str, text: str, first: str = "", prompt: bool = False) -> tuple[Escape, ...]:
    """The shell escapes `text` typed into program `name` makes. `first`: the prompt the text starts in (a key
    pressed before it: `opener`); `prompt`: the target is the program's own command line (the `:` is typed)."""
    grammar = _GRAMMARS.get(name)
    if grammar is None or not text:
        return ()
    triggers = _TRIGGERS[name]
    if not first and not prompt and triggers is not None and not triggers(text):
        return ()  # the common case: ordinary typing, no prompt open and nothing that opens one
    if first.startswith("esc+"):  # an Escape typed with the key after it (`\x1b:`): that key starts the line
        text, first = first[4:] + text, "esc"
    if first == "shell":  # the program's own shell-command prompt: its first line is the command
        pieces = _pieces(text[:LIMIT], "", False)
        head = pieces[0].text.strip() if pieces and pieces[0].opener == "" else ""
        return (Escape(name, head, head),) if head else ()
    found: list[Escape] = []
    for piece in _pieces(text[:LIMIT], first, prompt):
        found.extend(grammar(piece, prompt))
    return tuple(dict.fromkeys(found))
