"""Regular expressions whose compiled programs can be stored, so a new process skips compiling them.

    keep()                                     from now on, keep the programs compiled (off: `re.compile`)
    compile(pattern, flags=0) -> re.Pattern    what `re.compile` returns; from a loaded program when one is known
    load(table) -> int                         programs saved by an earlier process (`table()` of it)
    table() -> dict                            the programs this process compiled or loaded, as plain JSON data
    heads(pattern) / keep_heads(pattern, h)    the same for gate/prefix.py's parse of a pattern's branches

Compiling the policy's regexes (the cue book, the catalogue's triggers, the GUI lists) is most of what
starting a gate costs, and almost all of that is `re`'s parser, written in Python. The program it produces
is a list of integers: stored as JSON beside the policy (app/policy_cache.py, keyed by the content of the
policy, the resources, the deskgate and the Python version), the next `deskgate check` hands it straight to
`_sre.compile`, which validates a program before it accepts it. A program is only used for the exact
pattern and flags it was compiled from, and only on the `re` engine it was made by (`engine()`); anything
unexpected falls back to `re.compile`. Pure: no I/O here.
"""

from __future__ import annotations

import base64
import re
import re._compiler as _compiler
import re._parser as _parser
import sys
from array import array

__all__ = ["compile", "engine", "heads", "keep", "keep_heads", "known", "load", "table"]

try:
    import _sre
except ImportError:  # pragma: no cover - every CPython has it; another interpreter just compiles
    _sre = None  # type: ignore[assignment]

_re_compile = re.compile
# (pattern, flags) -> (flags with the pattern's inline ones, code, groups, groupindex, indexgroup)
_Program = tuple[int, list[int], int, dict[str, int], list[str | None]]
_programs: dict[tuple[str, int], _Program] = {}
# Off unless a process will store them: the supervisor compiles its own and would only hold megabytes of code
_keeping = False
# pattern -> its top-level branches with the literal prefixes a match must start with (gate/prefix.py)
_Heads = tuple[tuple[str, frozenset[str] | None], ...]
_heads: dict[str, _Heads] = {}


def heads(pattern: str) -> _Heads | None:
    return _heads.get(pattern)


def keep_heads(pattern: str, value: _Heads) -> None:
    if _keeping:
        _heads[pattern] = value


def keep() -> None:
    """Keep every program compiled from now on (a process that will store them calls this first)."""
    global _keeping
    _keeping = True


def engine() -> str:
    """The `re` engine a stored program belongs to: the Python version and the engine's own version."""
    if _sre is None:
        return ""
    return f"{sys.implementation.name}-{sys.version_info[0]}.{sys.version_info[1]}-{_sre.MAGIC}-{_sre.CODESIZE}"


def _code_type() -> str:
    """The `array` type code of the engine's code words (`_sre.CODESIZE` bytes, unsigned)."""
    return next(t for t in "IL" if array(t).itemsize == _sre.CODESIZE)


def known() -> int:
    """How many programs this process has (compiled or loaded): a store is worth writing when it grew."""
    return len(_programs) + len(_heads)


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
    return rx


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, from a stored program when one was loaded for it."""
    flags = int(flags)
    if not _keeping or _sre is None or flags & re.DEBUG or type(pattern) is not str:
        return _re_compile(pattern, flags)
    program = _programs.get((pattern, flags))
    if program is not None:
        try:
            return _sre.compile(pattern, program[0], program[1], program[2], program[3], tuple(program[4]))
        except (RuntimeError, TypeError, ValueError, OverflowError):  # a damaged program: compile it anew
            del _programs[(pattern, flags)]
    try:
        return _compile_keeping(pattern, flags)
    except re.error:
        raise  # a bad pattern is the caller's error, as from re.compile
    except Exception:  # `re`'s internals changed: the public way, nothing kept
        return _re_compile(pattern, flags)


def table() -> dict:
    """Every program known to this process, as JSON-ready data (`load` reads it back)."""
    code = _code_type()
    return {"engine": engine(),
            # a program's integers as the base64 of their machine words: a fifth of the JSON numbers' load time
            "programs": [[pattern, flags, full, base64.b64encode(array(code, ints).tobytes()).decode(), groups,
                          groupindex, indexgroup]
                         for (pattern, flags), (full, ints, groups, groupindex, indexgroup) in _programs.items()],
            "heads": [[pattern, [[b, sorted(h) if h is not None else None] for b, h in value]]
                      for pattern, value in _heads.items()]}


def load(data: object) -> int:
    """Take the programs of `table()` from an earlier process; returns how many were taken. Data from another
    engine, or not in the shape `table()` writes, is ignored (those patterns are compiled as usual)."""
    if not isinstance(data, dict) or data.get("engine") != engine() or not engine():
        return 0
    rows = data.get("programs")
    if not isinstance(rows, list):
        return 0
    taken = 0
    kind = _code_type()
    for row in rows:
        if not (isinstance(row, list) and len(row) == 7):
            continue
        pattern, flags, full_flags, packed, groups, groupindex, indexgroup = row
        if not (isinstance(pattern, str) and isinstance(flags, int) and isinstance(full_flags, int) and
                isinstance(packed, str) and isinstance(groups, int) and isinstance(groupindex, dict) and
                isinstance(indexgroup, list)):
            continue
        try:
            words = array(kind)
            words.frombytes(base64.b64decode(packed, validate=True))
        except ValueError:
            continue
        code = words.tolist()
        _programs.setdefault((pattern, flags), (full_flags, code, groups, groupindex, indexgroup))
        taken += 1
    for row in data.get("heads") or ():
        if isinstance(row, list) and len(row) == 2 and isinstance(row[0], str) and isinstance(row[1], list) and \
                all(isinstance(b, list) and len(b) == 2 and isinstance(b[0], str) and
                    (b[1] is None or (isinstance(b[1], list) and all(isinstance(x, str) for x in b[1])))
                    for b in row[1]):
            _heads.setdefault(row[0], tuple((b, frozenset(h) if h is not None else None) for b, h in row[1]))
    return taken
