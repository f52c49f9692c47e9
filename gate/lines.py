"""The line a terminal, a Run dialog or an address bar holds, and what typing and keys do to it.

A shell runs a line at its end, not a fragment: `rm -rf ` typed, then `~`, then Return is one command. The
supervisor (app/daemon/lines.py) follows, per window, the text typed since the last line end and hands it to
the gate as data (`Observation.line`, a `TypedLine`); the functions here are pure and shared by both: the gate
uses them to see which lines an action ends, the supervisor to follow the line once the action ran.

    typed(line, text) -> Typed     the lines a `type` action ends (each whole), and the line after it
    pressed(line, keys) -> Pressed what a `key` action does to the line: ends it, clears it, edits it, or
                                   leaves it unknowable

Control characters inside typed text are the keys they are: `\\r`, `\\n`, `\\x0b`, `\\x0c` and ctrl+o end a line
(as Return does), ctrl+c abandons it, backspace / ctrl+w / ctrl+u edit it. Anything else that moves the cursor
or recalls text (escape sequences, Tab completion, history keys, a paste) leaves the line unknown: the gate
then cannot know what Return runs, and a terminal asks.

`raw` keeps every printable character seen since the last line end, edits and cancels not applied: a cancel
the terminal did not honour (a program that ignores ctrl+c, a bracketed paste that takes it literally) cannot
hide a command from the gate, because the line judged at the end is both the edited line and the raw one.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

import msgspec

from gate.escapes import follow_up, opener, prompt_closed, prompt_key, prompt_why
from gate.model import Action, TypedLine

__all__ = [
    "EMPTY_LINE",
    "LINE_MAX",
    "UNKNOWN_LINE",
    "Pressed",
    "Typed",
    "advance",
    "carried_cwd",
    "carried_env",
    "has_controls",
    "judged_text",
    "key_effect",
    "pressed",
    "typed",
]

LINE_MAX = 8192  # a longer line is not followed: it becomes unknown (its tail is kept for judging)
UNKNOWN_LINE = TypedLine(known=False, why="deskgate has not seen this window's line start", first=True)
EMPTY_LINE = TypedLine()

_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")
_LINE_ENDS = frozenset("\n\r\x0b\x0c\x0f")  # \x0f: ctrl+o, readline's operate-and-get-next (accepts the line)
_CANCEL = "\x03"  # ctrl+c: the shell abandons the line
_KILL_LINE = "\x15"  # ctrl+u: kills back to the start (the cursor is at the end when the line is known)
_BACKSPACE = frozenset("\x08\x7f")
_KILL_WORD = "\x17"  # ctrl+w
_ESC = "\x1b"


def has_controls(text: str) -> bool:
    """True when `text` holds a control character (the slow path of `typed`)."""
    return _CONTROLS.search(text) is not None


class Typed(NamedTuple):
    ended: tuple[TypedLine, ...]  # every line a line end in the text completed, whole (prefix included)
    rest: TypedLine  # the line after the text: what the next action continues


def _cap(line: TypedLine) -> TypedLine:
    if len(line.text) <= LINE_MAX and len(line.raw) <= LINE_MAX:
        return line
    return TypedLine(text=line.text[-LINE_MAX:], raw=line.raw[-LINE_MAX:], known=False,
                     why=f"the line is longer than {LINE_MAX} characters")


def _unknown(line: TypedLine, why: str) -> TypedLine:
    """The line made unknown by `why` (history keys, a paste...): text was recalled or inserted unseen."""
    if not line.known and not line.first:
        return line
    return TypedLine(text=line.text, raw=line.raw, known=False, why=why)


def _drop_word(text: str) -> str:
    stripped = text.rstrip(" ")
    cut = stripped.rfind(" ")
    return stripped[: cut + 1] if cut >= 0 else ""


def typed(line: TypedLine, text: str) -> Typed:
    """The lines `text` typed onto `line` ends, and the line after it (see the module docstring)."""
    if not has_controls(text):  # the common case: plain text continues the line
        return Typed((), _cap(TypedLine(text=line.text + text, raw=line.raw + text, known=line.known, why=line.why,
                                        first=line.first)))
    ended: list[TypedLine] = []
    cur, raw, known, why, first = [line.text], [line.raw], line.known, line.why, line.first
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        if not _CONTROLS.match(ch):
            j = i
            while j < n and not _CONTROLS.match(text[j]):
                j += 1
            run = text[i - 1:j]
            cur.append(run)
            raw.append(run)
            i = j
            continue
        if ch in _LINE_ENDS:
            done = _cap(TypedLine(text="".join(cur), raw="".join(raw), known=known, why=why, first=first))
            ended.append(done)
            cur, raw, known, why, first = [], [], True, "", False
            if (nxt := _next_prompt(done)) is not None:
                known, why = False, nxt
        elif ch == _CANCEL:
            cur, known, why, first = [], True, "", False
        elif ch == _KILL_LINE:
            if known:
                cur = []
        elif ch in _BACKSPACE:
            if known:
                joined = "".join(cur)
                cur = [joined[:-1]]
        elif ch == _KILL_WORD:
            if known:
                cur = [_drop_word("".join(cur))]
        elif ch == _ESC:
            # an escape sequence (arrow keys, bracketed-paste markers, meta-keys): skipped as text, and the
            # line is no longer known (the cursor may have moved, or a paste mode started)
            # Only printable characters belong to the sequence: a control character after ESC (a line end
            # above all) is still the key it is, so no sequence can swallow a Return.
            if i < n and text[i] == "[":
                j = i + 1
                while j < n and "\x20" <= text[j] <= "\x3f":  # parameter and intermediate bytes
                    j += 1
                i = j + 1 if j < n and "\x40" <= text[j] <= "\x7e" else j
                if known or first:
                    known, why, first = False, "an escape sequence was typed (cursor keys, a paste marker)", False
                continue
            # Escape alone, or with the key after it: a meta key to a terminal, a modal editor's Escape then that
            # key (`\x1b:` opens Vim's command line). The line after it starts anew (what came before stays in
            # `raw`), and remembers how it was opened (gate/escapes.py reads it)
            key = ""
            if i < n and not _CONTROLS.match(text[i]):
                key = text[i]
                i += 1
            cur, known, first = [], False, False
            why = prompt_why(f"esc+{key}" if key and not key.isspace() else "esc")
        elif ch == "\t":
            if known or first:
                known, why, first = False, "Tab completes the line in the shell", False
        else:
            if known or first:
                known, why, first = False, f"control character ^{chr(ord(ch) + 64)} was typed", False
    rest = _cap(TypedLine(text="".join(cur), raw="".join(raw), known=known, why=why, first=first))
    return Typed(tuple(ended), rest)


# -- keys --------------------------------------------------------------------------------------------

_MODIFIERS = frozenset({"ctrl", "alt", "shift", "super"})
_ENTER = frozenset({"enter", "kpenter", "kp_enter", "numpadenter", "ctrl+m", "ctrl+j", "ctrl+o", "ctrl+enter",
                    "shift+enter", "ctrl+kpenter", "ctrl+kp_enter"})
_ENTER_KEYS = frozenset({"enter", "kpenter", "kp_enter", "numpadenter", "return"})
_PASTE = frozenset({"ctrl+shift+v", "shift+insert", "ctrl+v", "super+v", "ctrl+shift+insert", "alt+shift+v"})
_UNCHANGED = frozenset({"ctrl+l", "ctrl+shift+c", "ctrl+insert", "shift", "ctrl", "alt", "super", "capslock",
                        "numlock", "ctrl+shift", "printscreen", "print"})
_NAMED_CHARS = {"space": " ", "plus": "+", "minus": "-", "period": ".", "comma": ",", "slash": "/",
                "backslash": "\\", "equal": "=", "semicolon": ";", "apostrophe": "'", "grave": "`",
                "bracketleft": "[", "bracketright": "]", "asciitilde": "~", "tilde": "~"}


class Pressed(NamedTuple):
    ends: bool  # the keys end the line (Return...): what it holds runs
    line: TypedLine  # the line after the keys


def key_effect(combo: str) -> str:
    """What a key combination (gate/rules/gui.py `canonical_keys` form) does to a line: "end", "paste",
    "cancel", "kill", "backspace", "word", "char:<c>", "none" (leaves it as it is) or "unknown"."""
    if combo in _ENTER:
        return "end"
    parts = combo.split("+")
    keys = [p for p in parts if p not in _MODIFIERS]
    mods = [p for p in parts if p in _MODIFIERS]
    # Return with any modifier (alt+Return is ESC then Return to a program without readline), and the
    # control keys that are Return to a terminal (ctrl+m, ctrl+j, ctrl+o) whatever else is held
    if keys and keys[-1] in _ENTER_KEYS and len(keys) == 1:
        return "end"
    if "ctrl" in mods and keys in (["m"], ["j"], ["o"]):
        return "end"
    if combo in _PASTE:
        return "paste"
    if combo == "ctrl+c":
        return "cancel"
    if combo == "ctrl+u":
        return "kill"
    if combo in ("backspace", "ctrl+h"):
        return "backspace"
    if combo == "ctrl+w":
        return "word"
    if combo in _UNCHANGED:
        return "none"
    if len(keys) == 1 and (not mods or mods == ["shift"]):
        key = keys[0]
        char = _NAMED_CHARS.get(key, key if len(key) == 1 and key.isprintable() else "")
        if char:
            return f"char:{char.upper() if mods and char.isalpha() else char}"
    return "unknown"


def _next_prompt(line: TypedLine) -> str | None:
    """The `why` of the line after `line` ended, when its prompt opens another (Emacs's `M-x shell-command`)."""
    if not line.why or line.known:
        return None
    return follow_up(opener(line.why), line.text)


def pressed(line: TypedLine, combo: str) -> Pressed:
    """What the key combination `combo` does to `line` (see `key_effect`). A key that opens a program's prompt
    or leaves a modal editor's insert mode (gate/escapes.py `prompt_key`: Escape, Emacs's M-! and M-x, Nano's
    ^T, VS Code's ctrl+`) starts the line anew: what is typed next is that prompt's line. What came before stays
    in `raw`, and the line is unknown, as after any key deskgate cannot follow."""
    effect = key_effect(combo)
    if effect == "end":
        nxt = _next_prompt(line)
        return Pressed(True, EMPTY_LINE if nxt is None else TypedLine(known=False, why=nxt))
    before = opener(line.why) if not line.known else ""
    if prompt_closed(combo, before):
        return Pressed(False, TypedLine(raw=line.raw, known=False, why=_FOCUS_BACK))
    before = before if not line.text else ""
    if prompt_key(combo, before):
        return Pressed(False, TypedLine(raw=line.raw, known=False, why=prompt_why(combo, before)))
    if effect == "paste":
        # the clipboard may hold anything, line ends included: the line is unknown, and may have ended
        return Pressed(True, _unknown(line, "text was pasted"))
    if effect == "cancel":  # a key press (not a character in typed text): the terminal gets ctrl+c itself
        return Pressed(False, EMPTY_LINE)
    if effect == "none":
        return Pressed(False, line)
    if effect.startswith("char:"):
        return Pressed(False, typed(line, effect[5:]).rest)
    if not line.known:
        return Pressed(False, line)
    if effect == "kill":
        return Pressed(False, EMPTY_LINE)
    if effect == "backspace":
        return Pressed(False, TypedLine(text=line.text[:-1], raw=line.raw))
    if effect == "word":
        return Pressed(False, TypedLine(text=_drop_word(line.text), raw=line.raw))
    return Pressed(False, _unknown(line, f"{combo} was pressed (history, completion or cursor keys)"))


def judged_text(line: TypedLine | None, text: str) -> str:
    """What text typed onto `line` puts before a shell: every line it ends, whole (its raw form too where
    edits or a cancel changed it), then the line it leaves (judged as if it ran), one per line."""
    if line is None or not (line.text or line.raw):
        if not has_controls(text):
            return text
        line = EMPTY_LINE
    done = typed(line, text)
    parts: list[str] = []
    for ln in (*done.ended, done.rest):
        if ln.text.strip():
            parts.append(ln.text)
        if ln.raw != ln.text and ln.raw.strip():
            parts.append(ln.raw)
    return "\n".join(parts)


def advance(line: TypedLine, action: Action) -> TypedLine:
    """The line after `action` ran in its window: typing and keys as above; a middle click pastes the
    selection (the line is unknown). Other clicks leave a terminal's line as it is (a click that moves the
    focus to another window is a window switch, which the supervisor sees on the next action). The shell
    variables the lines it ended set are carried on (`carried_env`)."""
    kind = action.type
    if kind == "type":
        done = typed(line, action.text)  # type: ignore[attr-defined]
        return _with_shell(done.rest, line, done.ended)
    if kind == "key":
        from gate.rules.gui import canonical_keys

        combo = canonical_keys(action.keys)  # type: ignore[attr-defined]
        key = pressed(line, combo)
        # (a paste may end lines deskgate cannot read: what they set is not known)
        ended = ((line if key_effect(combo) == "end" else _UNREAD),) if key.ends else ()
        return _with_shell(key.line, line, ended)
    if kind == "click" and action.button == "middle":  # type: ignore[attr-defined]
        return _with_shell(_unknown(line, "a middle click pasted the selection"), line, (_UNREAD,))
    if kind == "click" and not line.known and opener(line.why):
        # a prompt or a terminal panel a key opened inside another program: a click may have moved the focus out
        return TypedLine(text=line.text, raw=line.raw, known=False, why=_FOCUS_MOVED, env=line.env, cwd=line.cwd)
    return line


ENV_MAX = 64  # variables carried per window; the oldest are forgotten first
_UNREAD = TypedLine(known=False, why="a line deskgate could not read ended")
# one simple command that sets shell variables: `X=v`, `export X=v Y=w`, `declare -x X=v`, `readonly X=v`
# (a value may name other variables, `K=$HOME/.ssh/id_rsa`, or be one simple substitution, `X=$(cat name.txt)`:
# both are kept as written and read again with the line that uses them)
_SUBST = r"\$\([^()`\"']*\)"
_SETS = re.compile(r"^\s*(?:(?:export|declare|typeset|readonly|local)(?:\s+-[a-zA-Z]+)*\s+)?"
                   r"((?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|\"(?:[^\"`$]|\$(?!\()|" + _SUBST + r")*\"|"
                   r"(?:[^\s'\"`;&|<>()$]|\$(?!\()|" + _SUBST + r")*)\s*)+)$")
_ONE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=('[^']*'|\"(?:[^\"$]|\$(?!\()|" + _SUBST + r")*\"|(?:[^\s$]|\$(?!\()|" +
                  _SUBST + r")*)")
_UNSET = re.compile(r"^\s*unset(?:\s+-v)?((?:\s+[A-Za-z_][A-Za-z0-9_]*)+)\s*$")
_SEPARATORS = re.compile(r"\s*(?:;|&&|\|\||\n)\s*")
# what else may set a variable of the shell: an assignment of another form (a backtick substitution, `X+=v`, `X=(a b)`,
# `X=$((n))`), the builtins that read or set one (`read X`, `for X in`, `printf -v X`, `mapfile`, `let`), and
# what runs code in this shell (`eval`, `source`, `.`)
_MAY_SET = re.compile(r"(?:^|[\s;&|({])(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=|"
                      r"(?:export|declare|typeset|readonly|local|read|mapfile|readarray|let|eval|source|getopts|for|"
                      r"select|printf\s+-v|set)\b|\.\s)")
# assignments in front of a command (`CC=clang make`): they are that command's environment, not the shell's
_FOR_COMMAND = re.compile(r"^\s*(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|\"[^\"`$]*\"|[^\s'\"`;&|<>()$]*)\s+)+"
                          r"(?=[^\s=]+(?:\s|$))(?![A-Za-z_][A-Za-z0-9_]*\+?=)")


def carried_env(env: tuple[tuple[str, str], ...], ended: tuple[TypedLine, ...]) -> tuple[tuple[str, str], ...]:
    """The shell variables a window's shell holds after `ended` ran: `env`, then each plain assignment of those
    lines (`X=v`, `export X=v`; a value that names other variables, `$HOME/x`, or runs one simple substitution is
    kept as written and read again with the line that uses it; `unset X` forgets one). A line deskgate did not
    follow whole (an edited or recalled one, a paste) may have set anything, and so may a part of a line that sets
    variables in another way (`X+=v`, `read X`, `source f`): every variable is forgotten then, and a variable
    left unknown stays `$X`, which the rules read as a value they cannot see."""
    for ln in ended:
        if not ln.known:
            env = ()
            continue
        for part in _SEPARATORS.split(ln.text):
            m = _SETS.match(part)
            if m is not None:
                names = {n: v[1:-1] if v[:1] in "'\"" and v[-1:] == v[:1] and len(v) > 1 else v
                         for n, v in _ONE.findall(m.group(1))}
            elif (u := _UNSET.match(part)) is not None:
                names = dict.fromkeys(u.group(1).split())
            elif _MAY_SET.search(_FOR_COMMAND.sub("", part, count=1)):
                # set in a way not followed here: a kept value could be stale (`D=build`, then D=`echo ~`, then
                # `rm -rf $D`), so every variable becomes unknown
                env = ()
                continue
            else:
                continue
            env = tuple((n, v) for n, v in env if n not in names) + \
                tuple((n, v) for n, v in names.items() if v is not None)
    return env[-ENV_MAX:]


# a line that moves the shell: `cd DIR`, `pushd DIR`, or `cd` alone (home)
_CD = re.compile(r"^\s*(?:cd|pushd|chdir)(?:\s+(?:-[LPe@]+\s+)*(\S+))?\s*$")
# what else may move it: the same builtins written otherwise, the directory stack, jump tools, code run in this shell
_MAY_MOVE = re.compile(r"(?:^|[\s;&|{])(?:cd|pushd|popd|chdir|z|zi|j|jo|autojump|source|eval)(?:\s|$)|^\s*\.\s")


def carried_cwd(cwd: str | None, ended: tuple[TypedLine, ...]) -> str | None:
    """The directory a window's shell is in after `ended` ran, as far as its `cd` lines tell (`cd ~`, `cd /srv`,
    `cd src` from a known directory, `cd` alone: home). A `cd` to a place made at run time, `cd -`, or any line
    not followed whole makes it unknown (None)."""
    for ln in ended:
        if not ln.known:
            cwd = None  # (a line not followed whole may have moved the shell anywhere)
            continue
        for part in _SEPARATORS.split(ln.text):
            m = _CD.match(part)
            if m is None:
                if _MAY_MOVE.search(part):
                    cwd = None  # (moved in a way not followed: `popd`, `z proj`, `builtin cd x`, `source f`)
                continue
            where = m.group(1) or "~"
            if where == "-" or any(c in where for c in "$`*?"):
                cwd = None
            elif where.startswith(("/", "~")):
                cwd = where.strip("'\"")
            else:
                cwd = posixpath.join(cwd, where.strip("'\"")) if cwd is not None else None
    return cwd


def _with_shell(after: TypedLine, before: TypedLine, ended: tuple[TypedLine, ...]) -> TypedLine:
    """`after` with the shell state `before` had, and what the lines `ended` set (variables, directory)."""
    env, cwd = carried_env(before.env, ended), carried_cwd(before.cwd, ended)
    return after if after.env == env and after.cwd == cwd else msgspec.structs.replace(after, env=env, cwd=cwd)


_FOCUS_BACK = "the key closed the prompt it had opened (the focus went back)"
_FOCUS_MOVED = "a click may have moved the focus out of the prompt a key opened"
