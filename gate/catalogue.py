"""What a program can be made to do: the catalogue functions of resources/programs.toml.

Living-off-the-land programs are ordinary programs with a use an attacker wants: a dialog that asks for
the login password, a flag that loads a library, a verb that trusts a root certificate. The public
catalogues (GTFOBins for Unix, LOLBAS for Windows, LOOBins for macOS) list those uses as *functions*
(shell, file-download, library-load, credential access, ...). programs.toml keeps each one we know of
as a fact, in our own words:

    [[function]]
    program  = "security"                      # or a list of names (folded basenames)
    class    = "loobins:credential-access"     # catalogue:function class, mapped to an effect in [classes]
    match    = 'dump-keychain'                 # regex over the command's folded arguments, joined by spaces
    unless   = '...'                           # optional: the ordinary use this regex excludes
    decision = "block"                         # or "confirm"
    effect   = "credentials"                   # optional: the class's effect by default
    rule     = "..."                           # optional: the rule id; else chosen by effect and decision
    why      = "prints every keychain password" # for a person (reason and `deskgate explain`)
    example  = "security dump-keychain -d"     # a command that triggers it (the tests run every one)

    functions_for(name) -> tuple[Function, ...]       the functions of one program
    matching(name, args) -> list[Function]            those whose trigger is in the arguments
    may_trigger(name, windows(args)) -> bool          one search: could any of them be triggered
    fed_script(cmd, commands) -> str                  the script piped or here-doc'd into a program that reads
                                                      its code from standard input (STDIN_SCRIPTS)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any, NamedTuple

from gate import regex_store
from gate.prefix import literals, required_literals

__all__ = ["CLASSES", "COPY", "DATA", "FUNCTIONS", "RULE_FOR", "STDIN_SCRIPTS", "WINDOW", "CopyTable", "Function",
           "dry_run", "fed_script", "functions_for", "matching", "may_trigger", "risky_destination", "windows"]

# effect × decision → the rule a catalogue function is filed under (ids of gate/rules/shell.py)
RULE_FOR: dict[tuple[str, str], str] = {
    ("exec", "confirm"): "confirm.shell.indirect-exec",
    ("exec", "block"): "block.shell.remote-code-exec",
    ("load", "confirm"): "confirm.shell.indirect-exec",
    ("load", "block"): "block.shell.loader-hook",
    ("credentials", "confirm"): "confirm.shell.secret-read",
    ("credentials", "block"): "block.shell.credential-dump",
    ("collect", "confirm"): "confirm.shell.secret-read",
    ("evasion", "confirm"): "confirm.shell.defense-evasion",
    ("evasion", "block"): "block.shell.defense-evasion",
    ("persistence", "confirm"): "confirm.shell.persistence",
    ("persistence", "block"): "block.shell.malicious-persistence",
    ("privilege", "confirm"): "confirm.shell.privilege-escalation",
    ("privilege", "block"): "block.shell.credential-tamper",
    ("net", "confirm"): "confirm.shell.network",
    ("listen", "confirm"): "confirm.shell.network",
    ("data-out", "confirm"): "confirm.shell.network",
    ("data-out", "block"): "block.shell.exfiltration",
    ("remote", "confirm"): "confirm.shell.remote-mutation",
    ("remote", "block"): "block.shell.remote-access",
    ("system", "confirm"): "confirm.shell.system-state",
    ("system", "block"): "block.shell.defense-evasion",
    ("delete", "confirm"): "confirm.shell.destructive",
    ("delete", "block"): "block.shell.disk-destruction",
    ("write", "confirm"): "confirm.shell.system-write",
    ("write", "block"): "block.shell.system-file-tamper",
    ("install", "confirm"): "confirm.shell.install",
    ("input", "confirm"): "confirm.shell.desktop-input",
    ("recon", "confirm"): "confirm.shell.recon",
}


class Function(NamedTuple):
    programs: tuple[str, ...]
    cls: str  # catalogue:function class
    effect: str
    decision: str  # "block" | "confirm"
    rule: str
    why: str
    example: str
    match: re.Pattern[str]
    unless: re.Pattern[str] | None
    also: tuple[re.Pattern[str], ...] = ()  # further patterns that must all be found too (`match` as a list)
    # literal strings every match of `match` holds one of, set by set (gate/prefix.py `required_literals`), each
    # set as one search of the lower case: an ASCII text missing a set is not searched with `match`, whose
    # case-blind scan costs microseconds
    need: tuple[re.Pattern[str], ...] = ()
    need_strings: frozenset[str] = frozenset()  # the strings of the first (most telling) set; empty: none known

    def hit(self, args: str) -> bool:
        """The function is triggered by these (folded, space-joined) arguments."""
        if self.need and args.isascii():
            low = args.lower()
            for rx in self.need:
                if rx.search(low) is None:
                    return False
        return bool(self.match.search(args)) and all(p.search(args) for p in self.also) and \
            not (self.unless and self.unless.search(args))


# Arguments are matched in two windows (the first and the last WINDOW characters) when they are longer:
# every pattern then costs a bounded time, whatever an agent sends.
WINDOW = 1024


_DATA = regex_store.toml(resources.files("resources").joinpath("programs.toml").read_text(encoding="utf-8"))
DATA = _DATA  # the whole table, read once: gate/nochange.py reads its [[no_change]] and [dry_run] from it


def _load() -> tuple[dict[str, str], tuple[Function, ...]]:
    data = _DATA
    classes: dict[str, str] = dict(data.get("classes", {}))
    out = []
    for k, spec in enumerate(data.get("function", ())):
        where = f"programs.toml [[function]] #{k + 1} ({spec.get('program')})"
        cls = spec["class"]
        if cls not in classes:
            raise ValueError(f"{where}: class {cls!r} is not in [classes]")
        effect = spec.get("effect", classes[cls])
        decision = spec["decision"]
        if decision not in ("block", "confirm"):
            raise ValueError(f"{where}: decision must be block or confirm")
        rule = spec.get("rule") or RULE_FOR.get((effect, decision))
        if rule is None:
            raise ValueError(f"{where}: no rule for effect {effect!r} with decision {decision!r}")
        programs = spec["program"]
        programs = (programs,) if isinstance(programs, str) else tuple(programs)
        patterns = spec["match"] if isinstance(spec["match"], list) else [spec["match"]]
        compiled = [regex_store.compile(p, re.I | re.S) for p in patterns]
        need = required_literals(patterns[0], re.I | re.S)
        need_rx = tuple(rx for n in need if (rx := literals(n)) is not None)
        out.append(Function(programs, cls, effect, decision, rule, spec["why"], spec["example"], compiled[0],
                            regex_store.compile(spec["unless"], re.I | re.S) if spec.get("unless") else None,
                            tuple(compiled[1:]), need_rx, need[0] if need else frozenset()))
    return classes, tuple(out)


CLASSES, FUNCTIONS = _load()  # data shipped with the package, read once at import
_BY_PROGRAM: dict[str, tuple[Function, ...]] = {}
for _f in FUNCTIONS:
    for _p in _f.programs:
        _BY_PROGRAM[_p] = (*_BY_PROGRAM.get(_p, ()), _f)


_OWN_GROUPS = re.compile(r"\(\?P|\\[1-9]|\(\?[a-zA-Z]")  # named groups, numbered references, inline flags


def _any_trigger(fns: tuple[Function, ...]) -> re.Pattern[str] | None:
    """One search for a program with several functions: whether any of their `match` patterns is found (none
    found: none of them can be triggered, whatever `also` and `unless` say). None when one is enough, or
    when the patterns cannot share one regex (a group name, a reference or a flag of their own)."""
    if len(fns) < 2 or any(_OWN_GROUPS.search(f.match.pattern) for f in fns):
        return None
    return regex_store.compile("|".join(f"(?:{f.match.pattern})" for f in fns), re.I | re.S)


_ANY_TRIGGER = {name: rx for name, fns in _BY_PROGRAM.items() if (rx := _any_trigger(fns)) is not None}


def _triggers(fns: tuple[Function, ...]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | bool]:
    """For an ASCII text: the literals every match of some function holds (`Function.need`) as one search, and
    what decides for the functions with none: one pattern (theirs, or their alternation), True (cannot say),
    or False (there are none). Far cheaper than the functions' own patterns: case-blind alternations scan
    slowly."""
    needs = [f.need_strings for f in fns if f.need_strings]
    rest = tuple(f for f in fns if not f.need_strings)
    need = literals(set().union(*needs)) if needs else None
    if not rest:
        return need, False
    if len(rest) == 1:
        return need, rest[0].match
    joined = _any_trigger(rest)
    return need, joined if joined is not None else True


_TRIGGERS = {name: _triggers(fns) for name, fns in _BY_PROGRAM.items()}


def may_trigger(name: str, parts: tuple[str, ...]) -> bool:
    """Whether any function of program `name` could be triggered by one of these argument windows
    (`windows(args)`): False lets a caller skip trying the functions one by one."""
    # (`parts` is one or two windows: plain loops, not generators, which are a function call each)
    if name not in _BY_PROGRAM:
        name = catalogue_name(name)
    triggers = _TRIGGERS.get(name)
    if triggers is not None and "".join(parts).isascii():  # (every part is ASCII: their concatenation is)
        need, rest = triggers
        if need is not None:
            for a in parts:
                if need.search(a.lower()):
                    return True  # (each function then looks for its own strings first: cheaper than their
                    # joined patterns)
        if isinstance(rest, bool):
            return rest
        for a in parts:  # noqa: SIM110 - a loop: any() over a generator is one more function call
            if rest.search(a):
                return True
        return False
    rx = _ANY_TRIGGER.get(name)
    if rx is None:
        return True
    for a in parts:  # noqa: SIM110 - a loop: any() over a generator is one more function call
        if rx.search(a):
            return True
    return False


# a program name with a version or copy number: python3.12, gcc-13, pip3, security2, sdelete64 (gate/effects.py too)
NUMBERED = re.compile(r"^(?P<base>[a-z][a-z0-9+_-]*?)[-.]?\d+(\.\d+)*$")


@functools.lru_cache(maxsize=8192)
def catalogue_name(name: str) -> str:
    """The name the catalogue knows program `name` by: itself, or the name without a version or copy number
    (`security2` is `security`, `mkfs.ext4` is `mkfs`), as gate/effects.py `program_effects` reads it. A copy
    under a numbered name keeps its functions."""
    if name in _BY_PROGRAM:
        return name
    m = NUMBERED.match(name)
    if m and m.group("base") in _BY_PROGRAM:
        return m.group("base")
    head = name.split(".", 1)[0]
    return head if head != name and head in _BY_PROGRAM else name


def functions_for(name: str) -> tuple[Function, ...]:
    """The catalogue functions of program `name` (a folded basename, or a numbered copy of one), in table order."""
    fns = _BY_PROGRAM.get(name)
    if fns is not None:
        return fns
    return _BY_PROGRAM.get(catalogue_name(name), ())


def windows(args: str) -> tuple[str, ...]:
    """`args` itself, or its first and last WINDOW characters when it is longer (bounded matching cost)."""
    if len(args) <= WINDOW:
        return (args,)
    return args[:WINDOW], args[-WINDOW:]


# programs that read their script from standard input when given none: a here-document or a piped echo is
# their code (`osascript <<EOF`, `sqlite3 db <<EOF .shell id EOF`, `echo 'esyscmd(id)' | m4`, ed's commands,
# put commands fed to a file-transfer client)
STDIN_SCRIPTS = frozenset({"osascript", "sqlite3", "sqlite", "m4", "gm4", "cpan", "tclsh", "wish", "bc", "ed", "ex",
                           "sftp", "ftp", "tftp"})


def fed_script(cmd: Any, commands: Sequence[Any] = ()) -> str:
    """The script fed to `cmd` (a gate.shell Command) on standard input, folded and ready to be appended to its
    arguments: its here-document or here-string, or what an echo, printf or a here-document cat piped into it
    writes (`commands`: the analysis's commands, which `cmd.upstream` indexes). osascript's is marked as
    inline code (` -e `), as if given with -e. "" when nothing literal is fed."""
    parts = [cmd.stdin_text] if cmd.stdin_text else []
    for i in cmd.upstream if commands else ():
        up = commands[i]
        if up.name in ("echo", "printf"):
            # printf, `echo -e` and sh's own echo turn `\n` into a line break: the script has those lines
            parts.append(" ".join(up.argv[1:]).replace("\\n", "\n").replace("\\t", "\t"))
        elif up.name == "cat" and up.stdin_text:
            parts.append(up.stdin_text)
    text = " ".join(parts).lower()
    if not text:
        return ""
    return (" -e " if cmd.name == "osascript" else " ") + text


def matching(name: str, args: str) -> list[Function]:
    """The functions of `name` whose trigger is in `args` (its folded arguments joined by spaces)."""
    fns = _BY_PROGRAM.get(name)
    if fns is None:
        name = catalogue_name(name)
        fns = _BY_PROGRAM.get(name)
    if not fns:
        return []
    parts = windows(args)
    if not may_trigger(name, parts):
        return []
    return [f for f in fns if any(f.hit(a) for a in parts)]


_DRY_FLAGS = frozenset(_DATA.get("dry_run", {}).get("flags", ()))
_DRY_BY_PROGRAM = {p: frozenset(f) for p, f in _DATA.get("dry_run", {}).get("programs", {}).items()}
_NO_FLAGS: frozenset[str] = frozenset()


def dry_run(name: str, words: tuple[str, ...]) -> bool:
    """The command only shows what it would do (`--dry-run`, `ansible-playbook --check`, `make -n`)."""
    own = _DRY_BY_PROGRAM.get(name, _NO_FLAGS)
    if _DRY_FLAGS.isdisjoint(words) and own.isdisjoint(words) and "=" not in "".join(words):
        return False  # no word is a dry-run flag, nor one with `=value` (set look-ups, no loop over the words)
    for w in words[1:]:
        if w == "--":
            return False
        if w in _DRY_FLAGS or w in own or (w.startswith("--") and w.split("=", 1)[0] in _DRY_FLAGS):
            return True
    return False


_SHARING = tuple(_DATA.get("data_out", {}).get("sharing_hosts", ()))
_DESTINATION = re.compile(
    r"(^|@|//|\s)(?P<ip>(?!127\.|0\.0\.0\.0)\d{1,3}(\.\d{1,3}){3})(?=$|[:/\s])|"
    r"(^|@|//|\.|\s)(?P<site>" + "|".join(re.escape(h) for h in _SHARING) + r")(?=$|[:/\s?])" if _SHARING else
    r"(^|@|//|\s)(?P<ip>(?!127\.|0\.0\.0\.0)\d{1,3}(\.\d{1,3}){3})(?=$|[:/\s])")


def risky_destination(words: tuple[str, ...]) -> str | None:
    """A bare IP address (not loopback) or a paste / file-drop / request-catcher site among `words`."""
    for w in words:
        if "." in w:
            m = _DESTINATION.search(w)
            if m:
                return m.group("ip") or m.group("site")
    return None


class CopyTable(NamedTuple):
    """`[cloud_copy]` of programs.toml: how object-store, sync and backup clients copy, and the words that say
    what goes (a business's private records) and where (a personal file-sharing account, a private bucket)."""

    verbs: dict[str, tuple[tuple[str, ...], ...]]  # program → its copy verbs, as word tuples (() = no verb)
    dest: dict[str, str]  # program → "first" | "second" | "flag" | "smbclient" (default: the last operand)
    dest_flags: dict[str, frozenset[str]]  # program → flags whose value is where the copy goes
    source_flags: dict[str, frozenset[str]]  # program → flags whose value is what the copy takes
    uploaders: frozenset[str]  # HTTP clients: the files they upload go to their URL
    loaders: dict[str, frozenset[str]]  # database client → the flags that name the server it loads into
    remote_flags: dict[str, frozenset[str]]  # program → flags whose value names a bucket (`--bucket b`)
    slash_options: frozenset[str]  # programs whose options start with `/`
    share_only: frozenset[str]  # programs that reach another machine only through a share path
    repository_variables: frozenset[str]
    valued: frozenset[str]  # long flags that take the next word as their value
    short_valued: dict[str, frozenset[str]]
    sensitive_names: frozenset[str]
    records_suffixes: tuple[str, ...]
    dumpers: frozenset[str]
    personal_remote: re.Pattern[str]
    sensitive_bucket: re.Pattern[str]


def _copy_table() -> CopyTable:
    spec = _DATA.get("cloud_copy", {})

    def named(words: list[str]) -> re.Pattern[str]:
        # a name matched whole, or as one part of a name joined by - _ . / (or digits after it)
        alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        return regex_store.compile(rf"(^|[-_./])({alts})(\d*)($|[-_./])", re.I)

    return CopyTable(
        {p: tuple(tuple(v.split()) for v in vs) for p, vs in spec.get("verbs", {}).items()},
        dict(spec.get("dest", {})), {p: frozenset(f) for p, f in spec.get("dest_flags", {}).items()},
        {p: frozenset(f) for p, f in spec.get("source_flags", {}).items()}, frozenset(spec.get("uploaders", ())),
        {p: frozenset(f) for p, f in spec.get("loaders", {}).items()},
        {p: frozenset(f) for p, f in spec.get("remote_flags", {}).items()},
        frozenset(spec.get("slash_options", ())), frozenset(spec.get("share_only", ())),
        frozenset(spec.get("repository_variables", ())),
        frozenset(spec.get("valued_flags", ())),
        {p: frozenset(f) for p, f in spec.get("short_valued", {}).items()},
        frozenset(spec.get("sensitive_names", ())), tuple(spec.get("records_suffixes", ())),
        frozenset(spec.get("dumpers", ())), named(list(spec.get("personal_remotes", ()))),
        named(list(spec.get("sensitive_buckets", ()))))


COPY = _copy_table()
