"""Regular expressions whose compiled programs can be stored, so a new process skips compiling them.

    keep()                                     from now on, keep the programs compiled (off: `re.compile`)
    route(on)                                  while on (and keeping), `re.compile` too: the modules' own
    compile(pattern, flags=0) -> re.Pattern    what `re.compile` returns; from a loaded program when one is known
    load(table) -> int                         programs saved by an earlier process (`table()` of it)
    table() -> dict                            the programs this process used, as JSON data and one bytes
    heads(pattern) / keep_heads(pattern, h)    the same for gate/prefix.py's parse of a pattern's branches
    recall(kind, key, default) / remember(kind, key, value)   other JSON data derived from a pattern or a
                                               book's text (gate/harm_content.py, gate/privacy.py)
    toml(text) -> dict                         `tomllib.loads(text)`, from the store when it holds that text's

Compiling the policy's regexes (the cue book, the catalogue's triggers, the GUI lists) is most of what
starting a gate costs, and almost all of that is `re`'s parser, written in Python. The program it produces
is a list of integers: stored beside the policy (app/policy_cache.py, keyed by the content of the
policy, the resources, the deskgate and the Python version), the next `deskgate check` hands it straight to
`_sre.compile`, which validates a program before it accepts it. A program is only used for the exact
pattern and flags it was compiled from, and only on the `re` engine it was made by (`engine()`); anything
unexpected falls back to `re.compile`. Most modules compile their own patterns at import with `re.compile`;
`route(True)` serves and keeps those the same way, by taking the place of the `re._compiler.compile` that
`re.compile` calls when its own cache misses (the supervisor never routes: it does not keep). Data derived
from a text (a parse of a pattern, a whole compiled book) is kept the same way, under the exact text it was
derived from; the store's key names the code that derives it. Pure: no I/O here.
"""

from __future__ import annotations

import hashlib
import json
import re
import re._compiler as _compiler
import re._parser as _parser
import sys
import tomllib
from array import array
from collections.abc import Callable

__all__ = ["compile", "engine", "heads", "keep", "keep_heads", "keeping", "known", "load", "recall", "remember",
           "route", "table"]

try:
    import _sre
except ImportError:  # pragma: no cover - every CPython has it; another interpreter just compiles
    _sre = None  # type: ignore[assignment]

_re_compile = re.compile
_DEBUG = int(re.DEBUG)  # an int: `int & RegexFlag` goes through `enum`, in Python, for every pattern
_re_compiler_compile = _compiler.compile  # what `re.compile` calls on a miss of its cache (`route`)
# (pattern, flags) -> (flags with the pattern's inline ones, code, groups, groupindex, indexgroup)
_Program = tuple[int, list[int] | array, int, dict[str, int], list[str | None]]
_programs: dict[tuple[str, int], _Program] = {}
# Off unless a process will store them: the supervisor compiles its own and would only hold megabytes of code
_keeping = False
# pattern -> its top-level branches with the literal prefixes a match must start with (gate/prefix.py)
_MISSING = object()
_Heads = tuple[tuple[str, frozenset[str] | None], ...]
_heads: dict[str, _Heads] = {}
_heads_stored: dict[str, object] = {}  # as loaded, read when asked for (most of a store's are, not all)
# (kind, the exact text it was derived from) -> JSON data: what a loader derives from a text besides programs
_derived: dict[tuple[str, str], object] = {}
# what this process compiled, derived or took from the store: all `table()` writes (a store never keeps what
# its policy no longer compiles)
_used: set[tuple] = set()


def heads(pattern: str) -> _Heads | None:
    found = _heads.get(pattern)
    if found is None:
        found = _stored_heads(_heads_stored.pop(pattern, None))
        if found is None:
            return None
        _heads[pattern] = found
    _used.add(("h", pattern))
    return found


def _stored_heads(value: object) -> _Heads | None:
    """A pattern's heads as `table()` wrote them; None when they are not in that shape."""
    if isinstance(value, list) and all(
            isinstance(b, list) and len(b) == 2 and isinstance(b[0], str) and
            (b[1] is None or (isinstance(b[1], list) and all(isinstance(x, str) for x in b[1]))) for b in value):
        return tuple((b, frozenset(h) if h is not None else None) for b, h in value)
    return None


def keep_heads(pattern: str, value: _Heads) -> None:
    if _keeping:
        _heads[pattern] = value
        _used.add(("h", pattern))


def recall(kind: str, key: str, default: object = None) -> object:
    """What `remember(kind, key, ...)` kept, in this process or a stored one; `default` when nothing was. The
    caller checks the shape and derives it anew when it is not what it wrote."""
    found = _derived.get((kind, key), _MISSING)
    if found is _MISSING:
        return default
    _used.add(("d", kind, key))
    return found


def remember(kind: str, key: str, value: object) -> None:
    """Keep JSON data derived from exactly `key` (a pattern, a book's text) when this process stores."""
    if _keeping:
        _derived[(kind, key)] = value
        _used.add(("d", kind, key))


def toml(text: str) -> dict:
    """`tomllib.loads(text)`: from the store when a process that kept it parsed this exact text (the shipped
    tables are hundreds of kilobytes, and `tomllib` is written in Python; their JSON is read in C). A fresh
    object on every call, as from `tomllib`."""
    key = hashlib.sha256(text.encode()).hexdigest()
    stored = recall("toml", key)
    data = None
    if type(stored) is str:
        try:
            data = json.loads(stored)
        except ValueError:  # not what was written: parsed below
            data = None
    if type(data) is not dict:
        data = tomllib.loads(text)
        if _keeping:
            try:
                dumped: str | None = json.dumps(data, ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError):  # a date, a time, an infinity: not JSON, so parsed every time
                dumped = None
            if dumped is not None:
                remember("toml", key, dumped)
    return data


def keeping() -> bool:
    """Whether this process keeps what it derives (worth building the data `remember` takes)."""
    return _keeping


def keep() -> None:
    """Keep every program compiled from now on (a process that will store them calls this first)."""
    global _keeping
    _keeping = True


def engine() -> str:
    """The `re` engine a stored program belongs to: the Python version and the engine's own version."""
    if _sre is None:
        return ""
    v = sys.version_info
    return f"{sys.implementation.name}-{v[0]}.{v[1]}.{v[2]}-{_sre.MAGIC}-{_sre.CODESIZE}"


def _code_type() -> str:
    """The `array` type code of the engine's code words (`_sre.CODESIZE` bytes, unsigned)."""
    return next(t for t in "IL" if array(t).itemsize == _sre.CODESIZE)


def known() -> int:
    """How many programs this process has (compiled or loaded): a store is worth writing when it grew."""
    return len(_programs) + len(_heads) + len(_heads_stored) + len(_derived)


def _compile_keeping(pattern: str, flags: int) -> re.Pattern[str]:
    """`re._compiler.compile`, keeping the program it makes."""
    p = _parser.parse(pattern, flags)
    code = _compiler._code(p, flags)
    groupindex = dict(p.state.groupdict)
    indexgroup: list[str | None] = [None] * p.state.groups
    for k, i in groupindex.items():
        indexgroup[i] = k
    program = (flags | p.state.flags, code, p.state.groups - 1, groupindex, indexgroup)
    rx = _sre.compile(pattern, program[0], code, program[2], groupindex, tuple(indexgroup))
    _programs[(pattern, flags)] = program
    _used.add(("p", pattern, flags))
    return rx


def _stored(pattern: str, flags: int) -> re.Pattern[str] | None:
    """The pattern from its stored program; None when there is none (or it was damaged: then forgotten)."""
    program = _programs.get((pattern, flags))
    if program is not None:
        try:
            code = program[1]
            rx = _sre.compile(pattern, program[0], code if type(code) is list else code.tolist(), program[2],
                              program[3], tuple(program[4]))
            _used.add(("p", pattern, flags))
            return rx
        except (RuntimeError, TypeError, ValueError, OverflowError):  # a damaged program: compile it anew
            del _programs[(pattern, flags)]
    return None


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, from a stored program when one was loaded for it."""
    flags = int(flags)
    if not _keeping or _sre is None or flags & _DEBUG or type(pattern) is not str:
        return _re_compile(pattern, flags)
    return _kept_or(pattern, flags, _re_compile)


def _kept_or(pattern: str, flags: int, fallback: Callable[[str, int], re.Pattern[str]]) -> re.Pattern[str]:
    """The stored program for `pattern`, or one compiled and kept; `fallback` when `re`'s internals changed."""
    rx = _stored(pattern, flags)
    if rx is not None:
        return rx
    try:
        return _compile_keeping(pattern, flags)
    except re.error:
        raise  # a bad pattern is the caller's error, as from re.compile
    except Exception:  # `re`'s internals changed: the ordinary way, nothing kept
        return fallback(pattern, flags)


def _routed(pattern: object, flags: int) -> re.Pattern:
    """`re._compiler.compile` while routed: a str pattern's program stored or kept, as `compile` does."""
    if _keeping and type(pattern) is str and type(flags) is int and not flags & _DEBUG:
        return _kept_or(pattern, flags, _re_compiler_compile)
    return _re_compiler_compile(pattern, flags)


def route(on: bool) -> None:
    """Serve and keep what `re.compile` compiles too (on), or stop (off). Only while keeping: a process that
    does not keep (the supervisor) compiles as usual whatever this says."""
    if _sre is None or _compiler.compile not in (_re_compiler_compile, _routed):
        return  # `re` is not the one this was written for, or someone else took the place: leave it
    _compiler.compile = _routed if on else _re_compiler_compile


_FORMAT = 2  # the shape `table()` writes


def table() -> dict:
    """Every program this process compiled or used, as JSON-ready data but for "code", the programs' words as
    bytes (`load` reads it back)."""
    words = array(_code_type())
    rows = []
    for (pattern, flags), (full, code, groups, groupindex, indexgroup) in _programs.items():
        if ("p", pattern, flags) in _used:
            rows.append([pattern, flags, full, len(words), len(code), groups, groupindex, indexgroup])
            words.extend(code)
    return {"engine": engine(), "format": _FORMAT,
            # every program's integers as the machine words of one array (bytes, stored beside the JSON by
            # app/policy_cache.py): read at once, and each program's words taken as a slice
            "code": words.tobytes(),
            "programs": rows,
            "heads": [[pattern, [[b, sorted(h) if h is not None else None] for b, h in value]]
                      for pattern, value in _heads.items() if ("h", pattern) in _used],
            "derived": [[kind, key, value] for (kind, key), value in _derived.items() if ("d", kind, key) in _used]}


def load(data: object) -> int:
    """Take the programs of `table()` from an earlier process; returns how many were taken. Data from another
    engine, or not in the shape `table()` writes, is ignored (those patterns are compiled as usual); a program
    the engine refuses is compiled anew when it is asked for."""
    if not isinstance(data, dict) or data.get("engine") != engine() or not engine() or \
            data.get("format") != _FORMAT:
        return 0
    rows, packed = data.get("programs"), data.get("code")
    if not isinstance(rows, list) or not isinstance(packed, bytes | bytearray | memoryview):
        return 0
    words = array(_code_type())
    try:
        words.frombytes(packed)
    except (ValueError, TypeError):  # not a whole number of words
        return 0
    size = len(words)
    taken = 0
    for row in rows:
        if not (type(row) is list and len(row) == 8):
            continue
        pattern, flags, full_flags, start, length, groups, groupindex, indexgroup = row
        if type(pattern) is str and type(flags) is int and type(full_flags) is int and type(start) is int and \
                type(length) is int and 0 <= start <= start + length <= size and type(groups) is int and \
                type(groupindex) is dict and type(indexgroup) is list:
            # the words as an array slice: made a list (what `_sre.compile` takes) when the pattern is asked for
            _programs.setdefault((pattern, flags), (full_flags, words[start:start + length], groups, groupindex,
                                                    indexgroup))
            taken += 1
    for row in data.get("heads") or ():
        if type(row) is list and len(row) == 2 and type(row[0]) is str and row[0] not in _heads:
            _heads_stored.setdefault(row[0], row[1])
    for row in data.get("derived") or ():
        if isinstance(row, list) and len(row) == 3 and isinstance(row[0], str) and isinstance(row[1], str):
            _derived.setdefault((row[0], row[1]), row[2])
    return taken
