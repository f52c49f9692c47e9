"""Programs that run full-screen in a terminal (lazygit, tig, k9s, htop, ranger, mc, mutt, vim, tmux), and the
consoles and web admins of phishing and exploitation frameworks (the Social-Engineer Toolkit, Metasploit, gophish,
evilginx, BeEF, king-phisher). The facts are resources/tui.toml. Pure.

In such a program a key is a command: lazygit's shift+P pushes, k9s's ctrl+D deletes, htop's F9 kills. Text typed
there is the program's input (a commit message, a menu's number, a payload), not a shell line.

    program(app, title) -> str | None          the terminal program the window runs (a [tui-keys] table's name)
    key_effect(program, keys) -> str | None    what the keys of a key action do there ("push", "delete", ...)
    typed_effect(program, text) -> str | None  what a short run of keys typed as text does there (`dD`, `:q!`)
    RISKY                                      the effects that ask
    repl(app, title) -> str | None             the interpreter whose console the terminal shows (`python3`, `node`)
    program_input(app, title, labels) -> bool  text typed into this terminal is the program's input, no shell line
    command_prompt(labels), remote_prompt(labels) a prompt that runs a shell line; one that takes a remote's address
    offensive_place(app, title, url, labels)   the window, page or prompt is an offensive framework's
    OFFENSIVE                                  its compiled patterns and word lists
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import NamedTuple

from gate import regex_store
from gate.normalise import normalise

__all__ = ["OFFENSIVE", "RISKY", "command_prompt", "key_effect", "offensive_place", "own_input", "program",
           "program_input", "remote_prompt", "repl", "typed_effect"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("tui.toml").read_text("utf-8"))
RISKY = frozenset(_BOOK["risky"])


class _Program(NamedTuple):
    names: frozenset[str]
    anywhere: re.Pattern[str] | None
    prefix: str
    keys: dict[str, str]
    shell_line: bool


_PROGRAMS: dict[str, _Program] = {
    name: _Program(frozenset(t["names"]),
                   re.compile(r"(?<![\w./~-])(?:" + "|".join(re.escape(n) for n in t["names"]) + r")(?![\w/-])")
                   if t.get("anywhere") else None,
                   t.get("prefix", ""), dict(t["keys"]), bool(t.get("shell_line")))
    for name, t in _BOOK["tui-keys"].items()
}
_BY_NAME = {n: name for name, t in _PROGRAMS.items() for n in t.names}
# a title's parts: "user@host: htop", "lazygit - Tags", "vim notes.md — VIM"
_TITLE_SPLIT = re.compile(r"\s+[-—–|]\s+|:\s+|\s*[\[(]")
_LEAD = re.compile(r"^(?:sudo\s+(?:-\S+\s+)*|doas\s+|exec\s+|[\w.-]+@[\w.-]+\S*\s*[$#]\s*)")
# the names xdotool and the agents' key lists give symbols
_SYMBOLS = {"question": "?", "slash": "/", "exclam": "!", "exclamation": "!", "ampersand": "&", "dollar": "$",
            "minus": "-", "underscore": "_", "backslash": "\\", "colon": ":", "del": "delete", "return": "enter",
            "escape": "esc", "bracketright": "]", "bracketleft": "[", "space": "space", "control": "ctrl",
            "percent": "%"}
_MODS = ("ctrl", "alt", "shift", "super")


@functools.lru_cache(maxsize=512)
def program(app: str, title: str) -> str | None:
    """The [tui-keys] program the window titled `title` of `app` runs: the app's own name, the first word of a
    part of the title, or (for names that only these programs use) a word anywhere in it."""
    app_n, title_n = normalise(app), normalise(title)
    if app_n in _BY_NAME:
        return _BY_NAME[app_n]
    if not title_n:
        return None
    for part in _TITLE_SPLIT.split(title_n):
        part = _LEAD.sub("", part.strip())
        if part in _BY_NAME:
            return _BY_NAME[part]
        first = part.split(" ", 1)[0] if part else ""
        if first in _BY_NAME:
            return _BY_NAME[first]
    for name, t in _PROGRAMS.items():
        if t.anywhere is not None and t.anywhere.search(title_n):
            return name
    return None


def _chord(keys: list[str]) -> str:
    """One chord written as the table writes it: modifiers first (ctrl, alt, shift, super), an upper-case letter
    as shift and its letter, a named symbol as the symbol ("question" is "?")."""
    names: list[str] = []
    for key in keys:
        for part in key.split("+") if len(key) > 1 else [key]:
            part = part.strip()
            if not part:
                continue
            if len(part) == 1 and part.isalpha() and part.isupper():
                names += ["shift", part.lower()]
                continue
            low = part.lower()
            names.append(_SYMBOLS.get(low, "ctrl" if low in ("control", "ctl") else low))
    mods = [m for m in _MODS if m in names]
    rest = sorted({n for n in names if n not in _MODS})
    return "+".join(mods + rest)


def own_input(name: str | None) -> bool:
    """Text typed into program `name` is its own input (a prompt, a menu), not a line a shell runs."""
    return name is not None and not _PROGRAMS[name].shell_line


def key_effect(name: str, keys: list[str]) -> str | None:
    """What pressing `keys` does in program `name`, or None (moves, views, stages, opens a prompt)."""
    t = _PROGRAMS.get(name)
    if t is None or not keys:
        return None
    if t.prefix:
        # the program's prefix first (tmux's ctrl+b, screen's ctrl+a), then the key, in one action
        first = _chord(keys[:1])
        if first != t.prefix or len(keys) < 2:
            return None
        return t.keys.get(_chord(keys[1:]))
    return t.keys.get(_chord(keys))


def typed_effect(name: str, text: str) -> str | None:
    """What a short run of keys typed as text (`dD`, `x`, `:q!`, `:wq!`) does in program `name`, or None."""
    t = _PROGRAMS.get(name)
    text = text.strip()
    if t is None or t.prefix or not text or len(text) > 8 or " " in text:
        return None
    if text in t.keys:
        return t.keys[text]
    if len(text) == 1:
        return t.keys.get(_chord([text]))
    return None


_PROMPTS = _BOOK["prompts"]
_COMMAND_LABEL = re.compile(_PROMPTS["command_label"])
_REMOTE_LABEL = re.compile(_PROMPTS["remote_label"])


def command_prompt(labels: tuple[str, ...]) -> bool:
    """A target label names a prompt whose line the program runs in a shell (lazygit's "Execute custom command")."""
    return any(_COMMAND_LABEL.search(label) for label in labels)


def remote_prompt(labels: tuple[str, ...]) -> bool:
    """A target label names a prompt that takes a remote's or a mirror's address (where pushes go)."""
    return any(_REMOTE_LABEL.search(label) for label in labels)


def program_input(app: str, title: str, labels: tuple[str, ...] = ()) -> bool:
    """Text typed into this terminal is a program's own input: the terminal runs a full-screen program or a
    framework's menu, and the target (its normalised `labels`) is none of its prompts that run a shell line."""
    return (own_input(program(app, title)) or repl(app, title) is not None or
            offensive_place(app, title, "", labels)) and not command_prompt(labels)


_REPLS = {n: program for program, names in _BOOK["repl"].items() for n in names}
_VERSION = re.compile(r"^(?:v?\d+(?:\.\d+)*\+?|\(.*|\[.*|on \w.*)$")


@functools.lru_cache(maxsize=512)
def repl(app: str, title: str) -> str | None:
    """The interpreter (`python3`, `node`, `ruby`, `php`) whose console the terminal titled `title` shows: a part
    of the title that is its name alone or with a version ("Python 3.12.1 (main, ...)", "IPython: ~/src"), or None."""
    app_n = normalise(app)
    if app_n in _REPLS:
        return _REPLS[app_n]
    for part in _TITLE_SPLIT.split(normalise(title)):
        part = part.strip()
        if part in _REPLS:
            return _REPLS[part]
        name, _, rest = part.partition(" ")
        if name in _REPLS and rest and _VERSION.match(rest):
            return _REPLS[name]
    return None


class _Offensive(NamedTuple):
    place: re.Pattern[str]
    url: re.Pattern[str]
    payload: re.Pattern[str]
    verbs: re.Pattern[str]
    armed: re.Pattern[str]
    listener: re.Pattern[str]
    victim: re.Pattern[str]
    message: re.Pattern[str]
    clone: re.Pattern[str]
    start: re.Pattern[str]
    look: frozenset[str]
    click_block: re.Pattern[str]
    click_confirm: re.Pattern[str]


_O = _BOOK["offensive"]
OFFENSIVE = _Offensive(
    re.compile(_O["place"]), re.compile(_O["url"], re.IGNORECASE), re.compile(_O["payload"], re.IGNORECASE),
    re.compile(_O["verbs"], re.IGNORECASE), re.compile(_O["armed"]), re.compile(_O["listener_label"]),
    re.compile(_O["victim_label"]), re.compile(_O["message_label"]), re.compile(_O["clone_label"]),
    re.compile(_O["start_label"]),
    frozenset(_O["look"]), re.compile(_O["clicks"]["block"]), re.compile(_O["clicks"]["confirm"]))


def offensive_place(app: str, title: str, url: str = "", labels: tuple[str, ...] = (), *, page: bool = False) -> bool:
    """The window (its app or title), the page (its address) or the prompt typed at (a target label) is a phishing
    or exploitation framework's. On a web `page` only the address or a title that starts with the framework's
    name counts ("Gophish - Campaigns"): a page about one ("Campaigns - Gophish User Guide") is no console."""
    if url and OFFENSIVE.url.search(url):
        return True
    if page:
        return bool(OFFENSIVE.place.match(normalise(title)))
    return any(p and OFFENSIVE.place.search(p) for p in (normalise(title), normalise(app), *labels))
