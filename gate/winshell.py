"""Windows command lines (cmd.exe and PowerShell) read into the same commands as a bash line.

    dialect(text)                  -> "cmd" | "ps" | None   (None: read it as bash, as before)
    nested_dialect(text, label)    -> "cmd" | "ps" | None   (a command line found inside another one)
    walk(walker, text, dialect)    -> bool                  (records its commands; True: it did not read cleanly)

A bash parser eats what Windows lines are made of: backslashes (`C:\\Users\\x\\a.exe` becomes
`C:Usersxa.exe`), `^` escapes, `%VARIABLE%`s, PowerShell's `'...'`/`"..."` strings with backtick escapes,
`(...)`, `{...}` script blocks and `$x = ...` statements. This module reads those lines itself and hands
each simple command to the walker of gate/shell.py (`_Walker.emit`), so a Windows command becomes the same
`Command` a bash one does (program name, argv with its paths intact, redirects, pipeline neighbours, and the
command lines nested in it: `cmd /c "..."`, `powershell -enc ...`, `schtasks /tr "..."`), and every rule
that judges commands applies unchanged. PowerShell aliases are read as the cmdlet they name (`iwr` is
Invoke-WebRequest): resources/winshell.toml.

When a line is Windows (`dialect`): its first word is cmd/powershell/pwsh, a Windows-only program
(`reg`, `schtasks`, `certutil`, ...), a `.exe` or a Windows path, or a PowerShell cmdlet (`Verb-Noun`)
or statement (`$x = ...`, `[Type]::...`); or the line names a Windows path (`C:\\...`, `\\\\server`, `.\\x`)
or a `%VARIABLE%`. A bash line with none of these (any `\\` in it is an escape) is read by bash as before:
the test is a few string searches, and the common simple command never reaches it.

Pure: no I/O beyond reading resources/winshell.toml once at import.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import TYPE_CHECKING

import msgspec

from gate import regex_store

if TYPE_CHECKING:
    from gate.shell import _Walker

__all__ = ["ALIASES", "Partial", "dialect", "known_folder", "nested_dialect", "walk"]

_DATA = regex_store.toml(resources.files("resources").joinpath("winshell.toml").read_text(encoding="utf-8"))
ALIASES: dict[str, str] = dict(_DATA["powershell"]["aliases"])
_VERBS = frozenset(_DATA["powershell"]["verbs"])
_KEYWORDS = frozenset(_DATA["powershell"]["keywords"])
_SAFE_TYPES = frozenset(_DATA["powershell"]["safe_types"])
# a line that is a PowerShell automatic variable, alone or piped on (`$PSVersionTable`, `$PROFILE | Get-Item`)
_PS_AUTOMATIC = re.compile(r"\s*\$(?:" + "|".join(sorted(_DATA["powershell"]["automatic"], key=len, reverse=True)) +
                           r")\s*(?:$|\|)", re.I)
_WIN_PROGRAMS = frozenset(_DATA["cmd"]["programs"])
_HOSTS = frozenset({"powershell", "pwsh", "powershell_ise"})

MAX_NEST = 8  # (...), {...} and $(...) nested deeper than this are not followed (the line asks as too deep)

# a Windows path or variable anywhere: C:\x, \\server\share, .\x, %NAME% (two letters or more: `%Y%m` is date's)
_WIN_MARK = re.compile(r"(?<![\w/])[A-Za-z]:\\|(?<![\w\\])\\\\[\w.?$-]+\\|(?:^|[\s\"'=(])\.\.?\\[\w$%.-]|"
                       r"%[A-Za-z_][A-Za-z0-9_()]+%")
# the first word of a line (after `@`, `&`, `.` and an opening quote)
_FIRST = re.compile(r"\s*[@&]?\s*[\"']?([^\s\"'|;&<>()]+)")
_CMDLET = re.compile(r"([A-Za-z]+)-[A-Za-z][A-Za-z0-9]*")
# `if (...) {`, `foreach (...) {`, `try {`: a PowerShell statement (bash writes `if [`, `for ((`, `then`, `do`)
_PS_KEYWORD = re.compile(r"\s*(?:(?:if|elseif|foreach|while|switch|for)\s*\((?!\()[^\n]*?\)\s*\{|(?:try|do)\s*\{)",
                         re.I)
_PS_STATEMENT = re.compile(r"\s*(?:\$(?:[\w:]+|\{[^}]*\})\s*(?:[-+*/%]?=|\.\w|\[)|\[[\w.`]+(?:\[\])?\]\s*(?:::|\$)|"
                           r"\((?:\(?\[[\w.]+\]|new-object\b|[a-z]+-[a-z]+\b)|@\(|@\{|&\s*\(\s*\[)", re.I)
# what only PowerShell writes (for a Windows line that could be either: cmd reads `'`, `;` and `$x` literally)
_PS_SIGNS = re.compile(r"\$[A-Za-z_{(]|(?:^|[\s;|(])[A-Za-z]+-[A-Za-z]+(?=[\s(]|$)|'|;|@[({]|\]::|`[^\s]|"
                       r"\s-[A-Za-z]+:\S")
# cmd.exe's own statements: `for /f ... do`, `for %i in (...) do`, `if exist ...`, `if errorlevel ...`
_CMD_START = re.compile(r"\s*@?(?:for\s+(?:/[dlrf]\b|%%?\w\s+in\b)|if\s+(?:/i\s+)?(?:not\s+)?(?:exist|defined|"
                        r"errorlevel)\b|rem\s)", re.I)
# a string, a list of strings or a variable piped into a cmdlet (`'srv1','srv2' | Get-Xyz`, `$servers | Get-Xyz`)
_PS_STRING = r"""(?:"(?:[^"`]|`.)*"|'(?:[^']|'')*')"""
_PS_STRING_PIPE = re.compile(rf"""\s*@?(?:{_PS_STRING}@?(?:\s*,\s*{_PS_STRING})*|\$[A-Za-z_]\w*(?:\.\w+)*)"""
                             r"""\s*\|\s*([A-Za-z]+)-[A-Za-z]+\b""", re.S)
_ENV_DRIVE = re.compile(r"\$env:[A-Za-z_]\w*", re.I)
_BASH_SIGNS = re.compile(r"\$\(|\$\{|`|<<|\[\[|\$[A-Za-z_][A-Za-z0-9_]*/|\|\||&&|\s2>/dev/null")


def _first_name(word: str) -> str:
    name = word.lower().replace("/", "\\").rsplit("\\", 1)[-1]
    for ext in (".exe", ".com", ".bat", ".cmd"):
        if name.endswith(ext) and len(name) > len(ext):
            return name[: -len(ext)]
    return name


def _is_cmdlet(name: str) -> bool:
    m = _CMDLET.fullmatch(name)
    return m is not None and m.group(1).lower() in _VERBS


def dialect(text: str) -> str | None:
    """"cmd" or "ps" when `text` is a Windows command line, None when it is read as bash. Cheap: a bash line
    with no backslash, `%`, `$` statement, `Verb-Noun` or Windows program name costs a few string tests."""
    if _PS_STATEMENT.match(text) or _PS_KEYWORD.match(text):
        if not _BASH_SIGNS.search(text) or _is_ps_statement(text):
            return "ps"
        return None
    if _PS_AUTOMATIC.match(text):
        return "ps"
    if text.lstrip()[:1] in "\"'@$" and (m := _PS_STRING_PIPE.match(text)) and m.group(1).lower() in _VERBS:
        return "ps"  # `"text" | Out-File x`: a value piped into a cmdlet is PowerShell (bash would run "text")
    m = _FIRST.match(text)
    if not m:
        return None
    word = m.group(1)
    name = _first_name(word)
    lowered = word.lower()
    if name in ("for", "if", "rem") and _CMD_START.match(text):
        return "cmd"
    if name in _HOSTS:
        return "ps"  # powershell's own options and -Command line: read the way PowerShell reads them
    if _is_cmdlet(name) or (name in ALIASES and name in _PS_ONLY_ALIASES):
        return "ps"
    windows = name in _WIN_PROGRAMS or lowered.endswith((".exe", ".ps1", ".bat", ".cmd", ".vbs", ".msi")) or \
        bool(_WIN_MARK.match(word)) or lowered.startswith(("%", "\\\\"))
    if not windows:
        if _ENV_DRIVE.search(text) and not _BASH_SIGNS.search(text):
            return "ps"  # `python x.py -d "$env:APPDATA\x"`: only PowerShell reads `$env:NAME`
        if ":\\" not in text and "\\\\" not in text and ".\\" not in text and "%" not in text:
            return None
        if not _WIN_MARK.search(text) or _BASH_SIGNS.search(text):
            return None
    elif "\\" not in text and "%" not in text and "^" not in text and "'" not in text and "$" not in text:
        return None  # nothing in it that bash would read differently
    return "ps" if _PS_SIGNS.search(text) else "cmd"


# aliases that are no Unix program: a line starting with one is PowerShell
_PS_ONLY_ALIASES = frozenset({"iwr", "irm", "iex", "saps", "ni", "ri", "cpi", "mi", "rni", "gci", "gi", "gp", "sp",
                              "ii", "icm", "ipmo", "iwmi", "gwmi", "gcim", "icim", "spps", "gps", "gsv", "sasv",
                              "spsv", "sls", "sal", "nal", "clc", "clp", "rp", "nsn", "etsn", "sajb", "rcjb",
                              "clhy", "scb", "gcb", "ogv"})


_PS_ASSIGN_START = re.compile(r"\s*(\$[\w:]+\s*[-+*/%]?=[^=~]|\[[\w.`]+(\[\])?\]::)")


def _is_ps_statement(text: str) -> bool:
    return bool(_PS_ASSIGN_START.match(text))


def nested_dialect(text: str, label: str) -> str | None:
    """The dialect of a command line found inside another: what a PowerShell host runs is PowerShell, what
    `cmd /c` or a Windows program's argument (`schtasks /tr`, `sc binPath=`) runs is a Windows command line."""
    if label.endswith("-Command") or label.startswith(("powershell", "pwsh")):
        return "ps"
    if label.startswith(("cmd /c", "schtasks", "reg add", "sc ", "wmic", "forfiles", "pcalua", "conhost",
                         "start-process", "saps", "runas")):
        return dialect(text) or ("ps" if _PS_SIGNS.search(text) else "cmd")
    return dialect(text)


# Windows' known folders by the variable that names them (cmd `%NAME%`, PowerShell `$env:NAME`), as the path
# gate/shell.py `resolve_path` then reads: the per-user ones under %USERPROFILE% (the home). %TEMP% is left
# as written: the rules know it by name as a temporary folder, which a path under the home would hide.
_FOLDERS = {
    "appdata": "%userprofile%\\appdata\\roaming", "localappdata": "%userprofile%\\appdata\\local",
    "public": "c:\\users\\public", "programdata": "c:\\programdata", "allusersprofile": "c:\\programdata",
    "windir": "c:\\windows", "systemroot": "c:\\windows", "systemdrive": "c:", "programfiles": "c:\\program files",
    "programfiles(x86)": "c:\\program files (x86)", "programw6432": "c:\\program files",
    "commonprogramfiles": "c:\\program files\\common files", "comspec": "c:\\windows\\system32\\cmd.exe",
}
_FOLDER_VAR = re.compile(r"^(?:%([a-z0-9_()]+)%|\$env:([a-z0-9_()]+|\{[^}]+\}))(?=$|[\\/])")


def known_folder(word: str) -> str:
    """A folded word that starts with a known folder's variable (`%appdata%\\x`, `$env:temp\\x`), with the
    folder written out (`%userprofile%\\appdata\\roaming\\x`); any other word as it is."""
    m = _FOLDER_VAR.match(word)
    if not m:
        return word
    folder = _FOLDERS.get((m.group(1) or m.group(2)).strip("{}").removeprefix("env:"))
    return word if folder is None else folder + word[m.end():]


# -- scanning -----------------------------------------------------------------------------------------

_CLOSE = {"(": ")", "{": "}", "[": "]"}


def _skip_dq(text: str, i: int, ps: bool) -> int:
    """Index after the double-quoted string starting at text[i] (len(text) when left open)."""
    n = len(text)
    i += 1
    while i < n:
        c = text[i]
        if ps and c == "`":
            i += 2
            continue
        if c == "\\" and i + 1 < n and text[i + 1] == '"' and i + 2 < n and text[i + 2] not in " \t\r\n;|)&":
            i += 2  # \" inside a quoted argument (the C runtime's escape), not its end
            continue
        if c == '"':
            if ps and i + 1 < n and text[i + 1] == '"':
                i += 2
                continue
            return i + 1
        if ps and c == "$" and i + 1 < n and text[i + 1] == "(":
            i = _skip_group(text, i + 1, True)
            continue
        i += 1
    return n


def _skip_sq(text: str, i: int) -> int:
    n = len(text)
    i += 1
    while i < n:
        if text[i] == "'":
            if i + 1 < n and text[i + 1] == "'":
                i += 2
                continue
            return i + 1
        i += 1
    return n


def _skip_here(text: str, i: int) -> int:
    """Index after a PowerShell here-string `@'...'@` / `@"..."@` starting at text[i]."""
    q = text[i + 1]
    end = text.find("\n" + q + "@", i + 2)
    return len(text) if end < 0 else end + 3


def _skip_group(text: str, i: int, ps: bool) -> int:
    """Index after the bracket group opening at text[i] ((, { or [), strings and comments inside skipped."""
    stack = [_CLOSE[text[i]]]
    n = len(text)
    i += 1
    while i < n and stack:
        c = text[i]
        if c == '"':
            i = _skip_dq(text, i, ps)
            continue
        if ps and c == "'":
            i = _skip_sq(text, i)
            continue
        if ps and c == "`":
            i += 2
            continue
        if ps and c == "@" and i + 2 < n and text[i + 1] in "'\"" and text[i + 2] in "\r\n":
            i = _skip_here(text, i)
            continue
        if ps and c == "#" and (i == 0 or text[i - 1] in " \t\n;({"):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if c in _CLOSE:
            stack.append(_CLOSE[c])
        elif c == stack[-1]:
            stack.pop()
        i += 1
    return i


class _Broken(Exception):
    """The line does not read cleanly (a quote or bracket left open)."""


# the characters `_split` acts on, in PowerShell and in cmd.exe: a run of any others is passed over in one search
# (what it does at each of them depends only on where it stands, never on the characters passed over)
_SPLIT_STOPS = {True: re.compile(r"""["'`@<#({\[$|;&\n]"""), False: re.compile(r'["^(|;&\n]')}
# the characters a word of `ps_words` or `cmd_words` ends at or reads specially (any other is taken as it is)
_PS_WORD_STOPS = re.compile(r"""[ \t\r\n'@"`$(){}]""")
_CMD_WORD_STOPS = re.compile(r'[ \t\r\n^"<>]')


def _split(text: str, ps: bool) -> list[tuple[str, str]]:
    """Top-level pieces of a line and the operator after each: `|`, `;`, newline, `&&`, `||`, `&` (cmd)."""
    out: list[tuple[str, str]] = []
    n = len(text)
    start = i = 0
    stops = _SPLIT_STOPS[ps]
    while i < n:
        c = text[i]
        if c == '"':
            i = _skip_dq(text, i, ps)
            continue
        if ps:
            if c == "'":
                i = _skip_sq(text, i)
                continue
            if c == "`":
                i += 2
                continue
            if c == "@" and i + 2 < n and text[i + 1] in "'\"" and text[i + 2] in "\r\n":
                i = _skip_here(text, i)
                continue
            if c == "<" and text.startswith("<#", i):
                end = text.find("#>", i + 2)
                i = n if end < 0 else end + 2
                continue
            if c == "#" and (i == start or text[i - 1] in " \t"):
                nl = text.find("\n", i)
                i = n if nl < 0 else nl
                continue
            if c in "({[" or (c == "$" and text.startswith("(", i + 1)):
                i = _skip_group(text, i + (c == "$"), True)
                continue
        else:
            if c == "^":
                i += 2
                continue
            if c == "(" and not text[start:i].strip():
                i = _skip_group(text, i, False)
                continue
        if c in "|;&\n" and (c != ";" or ps) and (c != "&" or not ps or text.startswith("&&", i)):
            if c == "&" and (text[i - 1:i] in (">", "<") or text.startswith(">", i + 1)):
                i += 1  # 2>&1: a redirect
                continue
            if c == "&" and ps and not text.startswith("&&", i):
                i += 1
                continue
            op = text[i:i + 2] if text[i:i + 2] in ("&&", "||") else c
            out.append((text[start:i], op))
            i += len(op)
            start = i
            continue
        stop = stops.search(text, i + 1)  # (the characters up to the next one it acts on: nothing to do)
        i = stop.start() if stop is not None else n
    out.append((text[start:], ""))
    return out


# -- words --------------------------------------------------------------------------------------------

class Partial(str):
    """A variable's value known only in part: `$p = "HKLM:\\...\\Image File Execution Options\\$item"` with `$item`
    unknown. Where the variable is used, the rules read the known text (a registry key, a startup folder), and
    the word stays dynamic. A value with a command's output in it (`$(...)`) is not kept: its text is not data."""

    __slots__ = ()


def partial(value: str) -> Partial | None:
    return None if "$(" in value or "`" in value or not value.strip("$ ") else Partial(value)


# Characters picked out of other text by index (`$env:ComSpec[4,15,25]`, `$PSHome[4]+$PSHome[30]`,
# `(gv '*mdr*').Name[3,11,2]`), joined or reversed into a name: no honest line spells a command so.
_SPELLED_NAME = re.compile(r"\[\s*-?\d{1,3}\s*(?:,\s*-?\d{1,3}\s*)+\]|\[\s*-?\d{1,3}\s*\]\s*\+|"
                           r"\[\s*-\s*1\s*\.\.|-join\s*\(?\s*\[char|\[char\]\s*\d{2,3}\s*\+", re.IGNORECASE)


class _Word(msgspec.Struct, frozen=True):
    value: str
    dynamic: bool = False
    raw: str = ""
    kind: str = "word"  # word | group (a (...) / $(...) / @(...)) | block ({...}) | redir | call


_PS_ESC = {"n": "\n", "t": "\t", "r": "\r", "0": "", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v"}
_VAR = re.compile(r"\$(?:\{([^}]*)\}|([A-Za-z_][\w]*(?::[\w]+)?))")
_KNOWN_VARS = frozenset({"true", "false", "null"})
# PowerShell's $HOME is the person's home; a variable not set on the line and named for the home
# (`$userProfile`, `$homeDir`) is taken for it too: a path built on it is a path in the home
_HOME_NAMES = frozenset({"home", "userprofile", "user_profile", "userhome", "user_home", "homedir", "home_dir",
                         "homepath", "profiledir", "profilepath", "userdir", "user_dir"})


_FOR_DO = re.compile(r"\)\s+do\s+", re.I)


class _Reader:
    """Reads one line of one dialect and records its commands through the walker."""

    def __init__(self, walker: _Walker, ps: bool) -> None:
        self.w, self.ps = walker, ps
        self.broken = False
        self.nest = 0
        self.subst: tuple[int, ...] = ()
        self.var_cmds: dict[str, tuple[int, ...]] = {}  # a variable -> the commands its value came from
        self.used: list[int] = []  # those commands, for the variables the statement being read uses

    # -- PowerShell words ---------------------------------------------------------------------------

    def var(self, name: str) -> tuple[str, bool]:
        """A $variable's value: $env:NAME stays as written (the rules know %TEMP%-like folders by name), a
        variable set earlier in the line is its value, $true/$false/$null are constants; else unknown."""
        low = name.lower()
        if low.startswith("env:") and low in self.w.vars:  # `$env:K = '...'; Get-Content $env:K`: set on the line
            value = self.w.vars[low]
            return value, isinstance(value, Partial)
        if low.startswith("env:") or low in _KNOWN_VARS:
            return "$" + name, False
        self.used.extend(self.var_cmds.get(low, ()))
        if low in self.w.vars:  # PowerShell's names are case-blind: stored in lower case
            value = self.w.vars[low]
            return value, isinstance(value, Partial)
        if low in _HOME_NAMES:
            return "$env:USERPROFILE", False
        return "$" + name, True

    def dollar(self, text: str, i: int) -> tuple[str, bool, int] | None:
        """What a `$` at `i` stands for: a `$(...)` (its commands read, the text kept, unknown) or a variable's
        value; with where the text goes on. None: a lone `$`."""
        if text.startswith("(", i + 1):
            end = _skip_group(text, i + 1, True)
            self.nested(text[i + 2:end - 1])
            return text[i:end], True, end
        m = _VAR.match(text, i)
        if m is None:
            return None
        value, dyn = self.var(m.group(1) or m.group(2))
        return value, dyn, m.end()

    def expand(self, text: str) -> tuple[str, bool]:
        """The value of a double-quoted PowerShell string's body: escapes, variables, $(...) read."""
        out: list[str] = []
        dyn = False
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c == "`" and i + 1 < n:
                out.append(_PS_ESC.get(text[i + 1], text[i + 1]))
                i += 2
                continue
            if c == "$" and (got := self.dollar(text, i)) is not None:
                value, d, i = got
                out.append(value)
                dyn |= d
                continue
            if c == '"' and text.startswith('"', i + 1):
                out.append('"')
                i += 2
                continue
            out.append(c)
            i += 1
        return "".join(out), dyn

    def ps_words(self, text: str) -> list[_Word]:
        words: list[_Word] = []
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c in " \t\r\n":
                i += 1
                continue
            if c == "`" and text.startswith("\n", i + 1):
                i += 2
                continue
            m = _REDIRECT_PS.match(text, i)
            if m and (i == 0 or text[i - 1] in " \t"):
                words.append(_Word(m.group(0), kind="redir", raw=m.group(0)))
                i = m.end()
                continue
            if c == "&" and not words:
                words.append(_Word("&", kind="call", raw="&"))
                i += 1
                continue
            if c == "{" or (c in "($@" and text.startswith(("(", "$(", "@(", "@{"), i) and
                            (c != "$" or text.startswith("$(", i))):
                start = i
                open_at = i if c in "({" else i + 1
                end = _skip_group(text, open_at, True)
                if end > n or (end == n and text[n - 1:n] != _CLOSE[text[open_at]]):
                    self.broken = True
                body = text[open_at + 1:end - 1]
                raw = text[start:end]
                if text.startswith("@{", start):
                    self.hashtable(body)
                    words.append(_Word(raw, raw=raw, kind="group"))  # a hashtable's `key = value` pairs: data
                elif text[open_at] == "{":
                    self.nested(body)
                    words.append(_Word(raw, raw=raw, kind="block"))
                else:
                    self.nested(body)
                    words.append(_Word(raw, dynamic=True, raw=raw, kind="group"))
                i = end
                continue
            # a word: quoted parts, bare characters and variables, up to a space or an operator
            start = i
            parts: list[str] = []
            dyn = False
            while i < n and text[i] not in " \t\r\n":
                c = text[i]
                if c == "'":
                    end = _skip_sq(text, i)
                    if (end == n and not text.endswith("'")) or end - i < 2:
                        self.broken = True
                    parts.append(text[i + 1:end - 1].replace("''", "'"))
                    i = end
                elif c == "@" and i + 2 < n and text[i + 1] in "'\"" and text[i + 2] in "\r\n":
                    end = _skip_here(text, i)
                    parts.append(text[i + 3:end - 3])
                    i = end
                elif c == '"':
                    end = _skip_dq(text, i, True)
                    if end == n and (not text.endswith('"') or end - i < 2):
                        self.broken = True
                    value, d = self.expand(text[i + 1:end - 1].replace('\\"', '"'))
                    parts.append(value)
                    dyn |= d
                    i = end
                elif c == "`":
                    if i + 1 < n:
                        parts.append(text[i + 1])
                    i += 2
                elif c == "$":
                    got = self.dollar(text, i)
                    if got is not None:
                        value, d, i = got
                        parts.append(value)
                        dyn |= d
                    else:
                        parts.append(c)
                        i += 1
                elif c in "(){}":
                    member = _MEMBER.search(text, max(start, i - 80), i)  # `.Method(`: its arguments are code
                    if c == "(" and i > start and (words or text[start] in "$[" or member):
                        # a member call on a word (`(New-Object Net.WebClient).DownloadString(...)` reaches here
                        # as `.DownloadString`): the arguments are code, kept in the word
                        end = _skip_group(text, i, True)
                        self.nested(text[i + 1:end - 1])
                        parts.append(text[i:end])
                        dyn = True
                        i = end
                        continue
                    if c == "{" and i > start and text[i - 1] == "@":
                        # a hashtable among a list's items (`Select Name,@{n='MB';e={$_.WS/1MB}}`, a calculated
                        # property): its pairs are data, what its `{...}` values run is judged as code
                        end = _skip_group(text, i, True)
                        if end > n or (end == n and text[n - 1:n] != "}"):
                            self.broken = True
                        self.hashtable(text[i + 1:end - 1])
                        parts.append(text[i:end])
                        i = end
                        continue
                    break
                else:  # (this character and those up to the next one read specially or ending the word, as they are)
                    stop = _PS_WORD_STOPS.search(text, i + 1)
                    end = stop.start() if stop is not None else n
                    parts.append(text[i:end])
                    i = end
            if i == start:  # a stray closing bracket
                self.broken = True
                i += 1
                continue
            words.append(_Word("".join(parts), dyn, text[start:i]))
        return words

    # -- cmd.exe words ------------------------------------------------------------------------------

    def cmd_words(self, text: str) -> list[_Word]:
        words: list[_Word] = []
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c in " \t\r\n,;":  # cmd splits words at spaces, commas and semicolons
                i += 1
                continue
            m = _REDIRECT_CMD.match(text, i)
            if m:
                words.append(_Word(m.group(0), kind="redir", raw=m.group(0)))
                i = m.end()
                continue
            start = i
            parts: list[str] = []
            while i < n and text[i] not in " \t\r\n":
                c = text[i]
                if c == "^" and i + 1 < n:
                    parts.append(text[i + 1])
                    i += 2
                elif c == '"':
                    end = _skip_dq(text, i, False)
                    if end == n and (not text.endswith('"') or end - i < 2):
                        self.broken = True
                    parts.append(text[i + 1:end - 1].replace('\\"', '"'))
                    i = end
                elif c in "<>" and parts:
                    break
                else:  # (this character and those up to the next one read specially or ending the word, as they are)
                    stop = _CMD_WORD_STOPS.search(text, i + 1)
                    end = stop.start() if stop is not None else n
                    parts.append(text[i:end])
                    i = end
            value = "".join(parts)
            if len(value) > 1 and value[0] == value[-1] == "'" and " " not in value:
                value = value[1:-1]  # 'x': literal in cmd, a quoted word to a program or PowerShell
            words.append(_Word(value, False, text[start:i]))
        return words

    # -- statements ---------------------------------------------------------------------------------

    def hashtable(self, body: str) -> None:
        """A hashtable's values are data, but a `(...)` or `{...}` among them runs: `@{ code = (Get-Content f) }`."""
        i, n = 0, len(body)
        while i < n:
            c = body[i]
            if c == "'":
                i = _skip_sq(body, i)
            elif c == '"':
                i = _skip_dq(body, i, True)
            elif c in "({":
                end = _skip_group(body, i, True)
                self.nested(body[i + 1:end - 1])
                i = end
            else:
                i += 1

    def nested(self, body: str) -> None:
        """Commands inside (...), $(...), {...}: run in the same process, judged like the line's own."""
        if not body.strip():
            return
        if self.nest >= MAX_NEST:
            self.w.st.features.add("too-deep")
            self.w.st.notes.append(("too-deep", body[:200]))
            return
        self.nest += 1
        outer = self.used  # the statement around this one keeps the variables it has met so far
        try:
            self.line(body)
        finally:
            self.nest -= 1
            self.used = outer

    def line(self, text: str) -> list[int]:
        st = self.w.st
        pieces = _split(text, self.ps)
        mains: list[int] = []
        upstream: list[int] = []
        statements = 0
        for piece, op in pieces:
            start = len(st.commands)
            stage = self.statement(piece)
            if stage is not None:
                statements += 1
                if upstream:
                    for k in range(start, len(st.commands)):
                        c = st.commands[k]
                        if not c.upstream:
                            st.commands[k] = msgspec.structs.replace(c, upstream=tuple(upstream[-64:]))
                mains.append(stage)
            if op == "|":
                st.features.add("pipe")
                upstream.extend(range(start, len(st.commands)))
            else:
                upstream = []
                if op in ("&&", "||", "&") or (op in (";", "\n") and statements and piece.strip()):
                    st.features.add("chain")
        return mains

    def statement(self, text: str) -> int | None:
        text = text.strip()
        if not text:
            return None
        if self.ps:
            return self.ps_statement(text)
        return self.cmd_statement(text)

    def ps_statement(self, text: str) -> int | None:
        st = self.w.st
        if "historysavepath" in text.lower():
            # PSReadLine's history file named through its options: every command typed, secrets typed in included
            text = _HISTORY_OPTION.sub(lambda _: _HISTORY_FILE, text)
        if "::get" in text.lower():
            text = _dotnet_folders(text)
        m = _ASSIGN.match(text)
        if m:
            st.features.add("assignment")
            rest = text[m.end():].strip()
            name = m.group(1) or m.group(2)
            start = len(st.commands)
            self.used = []
            words = self.ps_words(rest) if rest else []
            self.subst = (*range(start, len(st.commands)), *self.used)
            # `$p = $env:USERPROFILE + '\.aws\credentials'`, `$p = Join-Path $HOME .ssh`: the string it makes
            joined = _joined(words)
            kept = [joined] if joined is not None else words
            value = kept[0].value if len(kept) == 1 and kept[0].kind == "word" else rest
            if name.lower().startswith("env:"):  # an environment variable, for what the line starts next
                st.assignments.append((name[4:].lower(), value))
            key = name.lower()
            if len(kept) == 1 and not kept[0].dynamic and kept[0].kind == "word":
                self.w.vars[key] = kept[0].value
            elif len(kept) == 1 and kept[0].kind == "word" and (known := partial(kept[0].value)) is not None:
                self.w.vars[key] = known
            else:
                self.w.vars.pop(key, None)
            made = self.ps_command(words, rest) if words and words[0].kind == "word" and _commandlike(words[0]) \
                else None
            # what the value was made from: a later `-Body $c` sends what `$c = Get-Content x` read
            self.var_cmds[key] = (*range(start, len(st.commands)), *self.used)[-64:]
            return made
        start = len(st.commands)
        self.used = []
        words = self.ps_words(text)
        if not words:
            return None
        # the commands its (...) and $(...) ran, and those that made the variables it uses
        self.subst = (*range(start, len(st.commands)), *self.used)[-64:]
        first = words[0]
        if len(words) == 1 and first.kind == "word" and first.raw[:1] in "\"'" and not self.nest:
            # a string alone is PowerShell's output (`"text" | Out-File x` writes it), as `echo text` is
            return self.w.emit(["Write-Output", first.value], frozenset({1}) if first.dynamic else frozenset(), text,
                               (), self.subst, None)
        if first.kind == "word" and first.raw.lower() in _KEYWORDS:
            st.features.add("compound")
            if first.raw.lower() in ("function", "filter"):
                st.features.add("function")
            return None  # its (...) and {...} were read as they were met
        if first.kind in ("group", "block") or (first.kind == "word" and not _commandlike(first)):
            return None  # an expression: the commands in its brackets were read already
        return self.ps_command(words, text)

    def ps_command(self, words: list[_Word], span: str) -> int | None:
        if words[0].kind == "call":
            words = words[1:]
            if words and words[0].kind == "group" and _SPELLED_NAME.search(words[0].raw):
                # `& ($env:ComSpec[4,15,25] -join '')`: the name of what runs is put together from characters
                # of other text, so that no word of the line names it (Invoke-Obfuscation's launcher forms)
                self.w.st.notes.append(("obfuscated", f"a command named by characters picked from other text: "
                                                      f"{words[0].raw[:80]}"))
            if not words or words[0].kind in ("block", "group"):
                return None  # `& { ... }`, `& (...)`: what they run was read with them
        elif words[0].raw == "." and len(words) > 1:
            words = words[1:]  # dot-sourcing a script runs it in this scope
        argv: list[str] = []
        dynamic: set[int] = set()
        redirects: list[tuple[str, str]] = []
        k = 0
        while k < len(words):
            w = words[k]
            if w.kind == "redir":
                op = w.value
                target = ""
                if not op.endswith(("&1", "&2")) and k + 1 < len(words):
                    target = words[k + 1].value
                    k += 1
                if target:
                    redirects.append((">>" if ">>" in op else ">", _null(target)))
                    self.w.st.features.add("redirect")
                k += 1
                continue
            if w.dynamic:
                dynamic.add(len(argv))
            if argv and "," in w.value and w.raw[:1] not in ("'", '"') and (paths := _path_list(w.value)):
                argv.extend(paths)  # `.\bin, .\obj` or `.\bin,.\obj`: an array of paths, each its own operand
            else:
                argv.append(w.value)
            k += 1
        if not argv:
            return None
        head = argv[0].lower()
        if head in ("$env:comspec", "%comspec%"):
            argv[0] = "cmd.exe"
        elif head in ALIASES and not words[0].raw.startswith(("'", '"', "&")) and "\\" not in head and "/" not in head:
            argv[0] = ALIASES[head]
        if 0 in dynamic:
            self.w.st.notes.append(("dynamic-command", words[0].raw[:120]))
        return self.w.emit(argv, frozenset(dynamic), span, tuple(redirects), self.subst, None)

    def cmd_statement(self, text: str) -> int | None:
        if self.nest >= MAX_NEST:  # `if ... if ... (...)` nested deeper than is followed
            self.w.st.features.add("too-deep")
            self.w.st.notes.append(("too-deep", text[:200]))
            return None
        self.nest += 1
        try:
            return self.cmd_simple(text)
        finally:
            self.nest -= 1

    def cmd_simple(self, text: str) -> int | None:
        st = self.w.st
        while text.startswith("@"):
            text = text[1:].lstrip()
        low = text.lower()
        if not text or low.startswith(("rem ", "::")) or low == "rem":
            return None
        if text.startswith("("):
            end = _skip_group(text, 0, False)
            st.features.add("subshell")
            self.nested(text[1:end - 1])
            rest = text[end:].strip()
            return self.cmd_statement(rest) if rest and not _REDIRECT_CMD.match(rest) else None
        head = low.split(None, 1)[0] if low.split() else ""
        if head == "if":
            st.features.add("compound")
            return self.cmd_if(text)
        if head == "for":
            st.features.add("compound")
            m = _FOR_DO.search(text)
            if m:
                return self.cmd_statement(text[m.end():])
            self.broken = True
            return None
        words = self.cmd_words(text)
        if head == "set" and len(words) > 1 and "=" in words[1].value and not words[1].value.startswith("/"):
            name, _, value = words[1].value.partition("=")
            st.features.add("assignment")
            st.assignments.append((name.lower(), value))
            return None
        argv: list[str] = []
        redirects: list[tuple[str, str]] = []
        k = 0
        while k < len(words):
            w = words[k]
            if w.kind == "redir":
                op = w.value
                target = ""
                if "&" not in op and k + 1 < len(words):
                    target = words[k + 1].value
                    k += 1
                if target:
                    st.features.add("redirect")
                    redirects.append(("<" if "<" in op else ">>" if ">>" in op else ">", _null(target)))
                k += 1
                continue
            argv.append(w.value)
            k += 1
        if not argv:
            return None
        if argv[0].lower() == "%comspec%":
            argv[0] = "cmd.exe"  # the command processor, named by its variable
        return self.w.emit(argv, frozenset(), text, tuple(redirects), (), None)

    def cmd_if(self, text: str) -> int | None:
        """`if [/i] [not] COND COMMAND [else COMMAND]`: the commands it may run."""
        rest = text[2:].lstrip()
        for opt in ("/i ", "not "):
            if rest.lower().startswith(opt):
                rest = rest[len(opt):].lstrip()
        m = _IF_COND.match(rest)
        if not m:
            self.broken = True
            return None
        rest = rest[m.end():].strip()
        then, _, other = _cut_else(rest)
        first = None
        for part in (then, other):
            if part.strip():
                i = self.cmd_statement(part)
                first = i if first is None else first
        return first


def _joined(words: list[_Word]) -> _Word | None:
    r"""The string an assignment's value makes of its words when it joins them: `A + B + C` (strings
    concatenated) and `Join-Path A B` (a path and a child, joined by `\`); None for any other value."""
    if len(words) >= 3 and len(words) % 2 == 1 and all(w.kind == "word" for w in words) and \
            all(w.raw == "+" for w in words[1::2]) and not any(w.raw == "+" for w in words[0::2]):
        parts = words[0::2]
        return _Word("".join(w.value for w in parts), any(w.dynamic for w in parts), " + ".join(w.raw for w in parts))
    if len(words) == 3 and words[0].raw.lower() == "join-path" and all(w.kind == "word" and
                                                                      not w.raw.startswith("-") for w in words[1:]):
        head, child = words[1].value.rstrip("\\/"), words[2].value.lstrip("\\/")
        return _Word(head + "\\" + child, words[1].dynamic or words[2].dynamic, words[1].raw + "\\" + words[2].raw)
    return None


_MEMBER = re.compile(r"\.[A-Za-z_]\w*$")  # `.Method` before `(`: a method call, its arguments are code
_ASSIGN = re.compile(r"(?:\[[\w.`\[\]]+\]\s*)*\$(?:\{([^}]*)\}|([\w:]+))\s*(?:[-+*/%?]?=)(?!=)")
_REDIRECT_PS = re.compile(r"(?:[1-6*]?>>|[1-6*]?>(?:&[12])?)")
_REDIRECT_CMD = re.compile(r"(?:[0-9]?>>|[0-9]?>(?:&[0-9])?|<(?!<))")
_IF_COND = re.compile(r"(?:(?:exist|defined)\s+(?:\"[^\"]*\"|\S+)|errorlevel\s+\S+|cmdextversion\s+\S+|"
                      r"(?:\"[^\"]*\"|[^\s=]+)\s*(?:==|\s(?:equ|neq|lss|leq|gtr|geq)\s)\s*(?:\"[^\"]*\"|\S+))\s*", re.I)


def _cut_else(text: str) -> tuple[str, str, str]:
    """`(a) else (b)` / `a else b` → (a, "else", b), outside quotes and brackets."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i = _skip_dq(text, i, False)
            continue
        if c == "(":
            i = _skip_group(text, i, False)
            continue
        if text[i:i + 6].lower() == " else " or (text[i:i + 5].lower() == "else " and i > 0 and text[i - 1] == ")"):
            j = i + (6 if text[i] == " " else 5)
            return text[:i], "else", text[j:]
        i += 1
    return text, "", ""


# `(Get-PSReadLineOption).HistorySavePath`: the file PSReadLine keeps every typed command in, by its default place
_HISTORY_OPTION = re.compile(r"\(\s*get-psreadlineoption\s*\)\.historysavepath\b", re.IGNORECASE)
_HISTORY_FILE = r"$env:APPDATA\Microsoft\Windows\PowerShell\PSReadLine\ConsoleHost_history.txt"


# .NET's names for the known folders (`[Environment]::GetFolderPath('LocalApplicationData')`) and environment
# variables (`[Environment]::GetEnvironmentVariable('USERPROFILE')`): written as the variables that name them
_SPECIAL_FOLDERS = {
    "userprofile": "$env:USERPROFILE", "applicationdata": "$env:APPDATA", "localapplicationdata": "$env:LOCALAPPDATA",
    "desktop": "$env:USERPROFILE\\Desktop", "desktopdirectory": "$env:USERPROFILE\\Desktop",
    "mydocuments": "$env:USERPROFILE\\Documents", "personal": "$env:USERPROFILE\\Documents",
    "commonapplicationdata": "$env:ProgramData", "windows": "$env:windir", "system": "$env:windir\\System32",
    "programfiles": "$env:ProgramFiles", "programfilesx86": "${env:ProgramFiles(x86)}",
    "startup": "$env:APPDATA\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",
    "commonstartup": "$env:ProgramData\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",
}
_DOTNET_FOLDER = (r"\[(?:system\.)?environment\]::(getfolderpath|getenvironmentvariable)\(\s*(?:\[[\w.]+\]::)?"
                  r"['\"]?(\w+)['\"]?\s*\)")
_DOTNET_FOLDER_IN_STRING = re.compile(r"\$\(\s*" + _DOTNET_FOLDER + r"\s*\)", re.I)
_DOTNET_FOLDER_BARE = re.compile(_DOTNET_FOLDER, re.I)


def _dotnet_folder(m: re.Match[str], quote: str) -> str:
    name = m.group(2).lower()
    value = _SPECIAL_FOLDERS.get(name) if m.group(1).lower() == "getfolderpath" else "$env:" + m.group(2)
    return m.group(0) if value is None else quote + value + quote


def _dotnet_folders(text: str) -> str:
    """A line with .NET's known-folder and environment look-ups written as the variables they read."""
    text = _DOTNET_FOLDER_IN_STRING.sub(lambda m: _dotnet_folder(m, ""), text)
    return _DOTNET_FOLDER_BARE.sub(lambda m: _dotnet_folder(m, '"'), text)


# one element of a PowerShell array of paths: it starts `.\`, `..\`, `~`, a drive or a separator, or holds one
_PATH_ITEM = re.compile(r"(?:\.{1,2}[\\/]|~|[a-z]:[\\/]|[\\/])[^,]*|[^,\\/]*[\\/][^,]*", re.IGNORECASE)


def _path_list(value: str) -> list[str] | None:
    r"""`.\bin,.\obj` or `.\bin,` (the array's next item in the next word): the paths, or None."""
    items = value.rstrip(",").split(",")
    return items if all(_PATH_ITEM.fullmatch(i) for i in items) else None


def _commandlike(word: _Word) -> bool:
    """A statement's first word names a command (not a number, a string literal or a variable's value)."""
    raw = word.raw
    if raw[:1] == "$":
        return bool(_VAR_PATH.match(raw))  # `$dir\tool.exe`: a program named by a path under a variable
    return bool(raw) and raw[0] not in "'\"0123456789-[" and not raw.startswith("@")


_VAR_PATH = re.compile(r"\$(?:env:)?\w+\\")


def _null(target: str) -> str:
    low = target.lower()
    return "/dev/null" if low in ("$null", "nul", "nul:") else low


_CHAR_CODE_NUMBERS = re.compile(r"0x[0-9a-f]+|\d+", re.I)


def walk(walker: _Walker, text: str, dialect: str) -> bool:
    """Record the commands of a Windows line through `walker`; True when it did not read cleanly (a quote or
    bracket left open): the caller treats it as unparsable, as a bash line bash cannot parse."""
    reader = _Reader(walker, dialect == "ps")
    text = text.replace("`\r\n", " ").replace("`\n", " ") if reader.ps else \
        text.replace("^\r\n", "").replace("^\n", "")
    try:
        reader.line(text)
    except RecursionError:
        walker.st.features.add("too-deep")
        return True
    m = _FIRST.match(text)
    if m and _first_name(m.group(1)) in _HOSTS:
        return reader.broken  # powershell -c CODE: its code is read where it is unwrapped (gate/shell.py)
    if reader.ps and ("[" in text or "load" in text.lower()):
        _dotnet(walker, text)
        for m in _CHAR_CODES.finditer(text):
            # `[char[]](112,111,119,...)`: text spelled as character codes, as `$'\x72\x6d'` is in bash
            codes = [int(c, 0) for c in _CHAR_CODE_NUMBERS.findall(m.group(1))[:400]]
            spelled = "".join(chr(c) for c in codes if 0 < c < 0x110000)
            walker.st.notes.append(("obfuscated", f"text spelled as character codes: {spelled[:80]}"))
            if " " in spelled.strip():
                walker.script(spelled, "[char[]] codes")
    if reader.ps and _SCRIPTBLOCK.search(text) and _FETCH.search(text):
        # [ScriptBlock]::Create((iwr URL).Content): code fetched and made runnable, as `iwr URL | iex`
        walker.st.notes.append(("code-fetch-exec", text[:200]))
    if reader.ps and _CODE_HINT.search(text):
        # .NET calls and expressions (`(New-Object Net.WebClient).DownloadString(...)`, `[Convert]::...`) are no
        # commands: the interpreter-code reading of gate/shell.py judges what they fetch, run and send
        walker.code(text, "powershell", text[:200], frozenset())
    return reader.broken


# a .NET type's static member called (`[Type]::Member(`), or an accelerator that queries the directory or WMI
_DOTNET = re.compile(r"\[([A-Za-z][\w.`]*)(?:\[\])?\]\s*::\s*([A-Za-z_]\w*)\s*\(|"
                     r"\[(adsisearcher|adsi|wmi|wmiclass|wmisearcher)\]", re.I)


_WEBCLIENT = re.compile(r"\.(download|upload)(file|string|data)(?:async)?\s*\(\s*(['\"])([^'\"]{1,2000})\3"
                        r"(?:\s*,\s*(?:['\"](?:post|put)['\"]\s*,\s*)?(['\"]?)([^'\")]{1,2000})\5)?", re.I)


def _dotnet(walker: _Walker, text: str) -> None:
    """Each .NET type whose member the line calls, and that only computes (resources/winshell.toml
    `safe_types`) is not, recorded as a command named `[Type]::Member`: the gate cannot tell what it does,
    so it asks like an unknown program."""
    seen: set[str] = set()
    for m in _WEBCLIENT.finditer(text):
        # WebClient's transfers are what Invoke-WebRequest / Invoke-RestMethod do: recorded as those cmdlets,
        # so the download and upload rules judge the URL, the file saved and the data sent
        verb, what, url, arg = m.group(1).lower(), m.group(2).lower(), m.group(4), m.group(6)
        if verb == "download":
            argv = ["invoke-webrequest", url, *(["-OutFile", arg] if what == "file" and arg else [])]
        else:
            argv = ["invoke-restmethod", url, "-Method", "Post", *(["-InFile" if what == "file" else "-Body", arg]
                                                                   if arg else [])]
        walker.emit(argv, frozenset(), m.group(0), (), (), None)
    for m in _DOTNET.finditer(text):
        kind = (m.group(1) or m.group(3)).lower().replace("`", "").removeprefix("system.") \
            if m.group(1) else m.group(3).lower()
        if kind in _SAFE_TYPES or "system." + kind in _SAFE_TYPES:
            continue
        name = f"[{kind}]::{m.group(2).lower()}" if m.group(2) else f"[{kind}]"
        if name in seen or len(seen) >= 8:
            continue
        seen.add(name)
        walker.emit([name], frozenset(), m.group(0), (), (), None)


_CHAR_CODES = re.compile(r"\[char\[\]\]\s*\(\s*((?:(?:0x[0-9a-f]+|\d+)\s*,\s*){3,}(?:0x[0-9a-f]+|\d+))\s*\)", re.I)
_SCRIPTBLOCK = re.compile(r"\[scriptblock\]\s*::\s*create\s*\(", re.I)
_FETCH = re.compile(r"\b(iwr|irm|invoke-webrequest|invoke-restmethod|start-bitstransfer)\b|"
                    r"\.download(string|data|file)\b|https?://", re.I)
_CODE_HINT = re.compile(r"new-object|\]::|\.(download|upload)(string|file|data)|\biex\b|invoke-expression|"
                        r"frombase64string|\[char\[?\]?\]|-join\b|\.invoke\(|getstream\(|tcpclient|socket", re.I)
