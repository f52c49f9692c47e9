"""Shell findings for the secrets kept in a cloud's configuration: a function's, app's or service's settings.

- Settings read out (`[cloud_config] readers`: `aws lambda get-function-configuration`, `gcloud functions
  describe`, `gcloud run services describe`, `az webapp show`, launch templates' user data): shown on the
  screen they pass; kept in a file, fed to a program other than a pager, or picked out by a query, a format or
  a filter that names the environment, a password, a key or a token (`picks`), they ask
  (`confirm.shell.secret-read`).
- Listings whose every line is a setting's value (`values`: `az webapp config appsettings list`, `az
  containerapp secret show`; `value_listers` given `--show-values`): they ask on the screen too.
- Either one fed to a program that sends over the network blocks (`block.shell.credential-exfiltration`).

The facts live in resources/programs.toml, section `# ---- cloudops ----`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.catalogue import DATA
from gate.model import Risk
from gate.shell import NET_SENDERS, Command, Finding, ShellAnalysis

__all__ = ["PROGRAMS", "judge"]

Add = Callable[[Finding], None]

_TABLE: dict = DATA.get("cloud_config", {})


def _verbs(lines: list[str]) -> dict[str, tuple[tuple[str, ...], ...]]:
    out: dict[str, list[tuple[str, ...]]] = {}
    for line in lines:
        program, *verbs = line.split()
        out.setdefault(program, []).append(tuple(verbs))
    return {k: tuple(v) for k, v in out.items()}


_READERS = _verbs(_TABLE.get("readers", []))
_VALUES = _verbs(_TABLE.get("values", []))
_VALUE_LISTERS = _verbs(_TABLE.get("value_listers", []))
_VALUE_FLAGS = frozenset(_TABLE.get("value_flags", ()))
_PICKS = re.compile(_TABLE.get("picks", r"(?i)environment|secret|password|token"))
PROGRAMS = frozenset({*_READERS, *_VALUES, *_VALUE_LISTERS})

# the switches whose value picks what a cloud CLI prints (`--query Environment.Variables`, `--format=value(...)`)
_QUERY_FLAGS = frozenset({"--query", "--format", "--flatten", "--filter", "-o", "--output"})
# what may read the output on the screen without keeping or passing it on
_VIEWERS = frozenset({"less", "more", "most", "head", "tail", "wc", "sort", "uniq", "column", "cat", "bat", "batcat",
                      "nl", "fzf", "out-host", "out-gridview", "measure-object", "format-table", "format-list", "ft",
                      "fl", "ogv"})
# what picks part of the output: judged by what it picks
_FILTERS = frozenset({"jq", "yq", "jp", "gron", "grep", "egrep", "fgrep", "rg", "ag", "awk", "gawk", "sed", "cut",
                      "findstr", "select-string", "sls", "select-object", "select", "where-object", "where",
                      "convertfrom-json", "foreach-object", "%", "?", "tr", "xq", "dasel", "fx", "jless"})
_FILE_WRITERS = frozenset({"tee", "tee-object", "out-file", "set-content", "add-content", "export-csv", "sponge"})


def _names(cmd: Command, table: dict[str, tuple[tuple[str, ...], ...]]) -> str | None:
    """The verbs of `table` that `cmd` runs, as one text (`aws lambda get-function`), or None: the verbs found one
    after another among its words, whatever global switches come first (`aws --profile p lambda ...`)."""
    words = cmd.words[1:]
    for verbs in table.get(cmd.name, ()):
        n = len(verbs)
        for k in range(len(words) - n + 1):
            if words[k:k + n] == verbs:
                return f"{cmd.name} {' '.join(verbs)}"
    return None


def _query_picks(cmd: Command) -> bool:
    """A query or format switch whose value names the secrets (`--query Configuration.Environment`)."""
    words = cmd.words
    for k, w in enumerate(words[1:], 1):
        flag, eq, value = w.partition("=")
        if flag in _QUERY_FLAGS:
            value = value if eq else (words[k + 1] if k + 1 < len(words) else "")
            if _PICKS.search(value):
                return True
    return False


# a query that keeps only the settings' names (`--query "[].name"`): their values are not printed
_NAMES_ONLY = re.compile(r"^\[\*?\]\.(name|slotsetting)$|^keys\(.*\)$")


def _names_only(cmd: Command) -> bool:
    words = cmd.words
    for k, w in enumerate(words[1:], 1):
        flag, eq, value = w.partition("=")
        if flag == "--query":
            value = value if eq else (words[k + 1] if k + 1 < len(words) else "")
            return bool(_NAMES_ONLY.match(value.strip("\"' ")))
    return False


def _kept(cmd: Command) -> str | None:
    for op, target in cmd.redirects:
        if op in (">", ">>", ">|", "&>", "&>>") and target not in ("/dev/null", "/dev/stdout", "/dev/stderr",
                                                                   "nul", "$null"):
            return target
    return None


def _downstream(cmd: Command, analysis: ShellAnalysis) -> list[Command]:
    me = next((k for k, c in enumerate(analysis.commands) if c is cmd), None)
    if me is None:
        return []
    return [c for c in analysis.commands[me + 1:] if me in c.upstream]


def _fate(cmd: Command, analysis: ShellAnalysis) -> tuple[str, str] | None:
    """What becomes of what `cmd` prints: ("sends", program), ("keeps", file), ("feeds", program), ("picks",
    filter), or None when it is only looked at."""
    later = _downstream(cmd, analysis)
    for c in later:
        if c.name in NET_SENDERS:
            return "sends", c.name
    if (kept := _kept(cmd)) is not None:
        return "keeps", kept
    fate: tuple[str, str] | None = None
    for c in later:
        if c.name in _FILE_WRITERS:
            return "keeps", next((w for w in c.argv[1:] if not w.startswith("-")), c.name)
        if (kept := _kept(c)) is not None:
            return "keeps", kept
        if c.name in _FILTERS:
            if fate is None and _PICKS.search(" ".join(c.words[1:])):
                fate = ("picks", c.name)
        elif c.name not in _VIEWERS and fate is None:
            fate = ("feeds", c.name)
    return fate


def judge(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A cloud function's or app's settings, where its secrets are kept, read out and kept, passed on or sent."""
    shown = _names(cmd, _VALUES)
    if shown is None and any(w in _VALUE_FLAGS for w in cmd.words):
        shown = _names(cmd, _VALUE_LISTERS)
    values = shown is not None and not _names_only(cmd)
    if shown is None:
        shown = _names(cmd, _READERS)
        if shown is None:
            return
    fate = _fate(cmd, analysis)
    if fate is not None and fate[0] == "sends":
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"{fate[1]} sends what {shown} prints (settings that hold the app's keys and passwords) off the "
                    f"machine{where}", cmd.span))
        return
    if fate is not None and fate[0] == "keeps":
        what = f"writes the settings that hold the app's keys and passwords into {fate[1][:60]}"
    elif fate is not None and fate[0] == "picks":
        what = f"prints settings whose keys and passwords {fate[1]} picks out"
    elif fate is not None and (values or fate[0] == "feeds"):
        what = f"prints settings that hold the app's keys and passwords into {fate[1]}"
    elif values:
        what = "prints the app's settings, keys and passwords with their values"
    elif _query_picks(cmd):
        what = "picks the environment variables, keys or passwords out of the settings"
    else:
        return
    add(Finding("confirm.shell.secret-read", Risk.HIGH, f"{shown} {what}{where}", cmd.span))
