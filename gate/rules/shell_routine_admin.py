"""Administration that is routine: a protection switched on, or a chore that needs root or a prompt.

`setenforce Enforcing`, `auditctl -w /etc/nftables.conf -p wa`, `ufw enable`, `systemctl enable --now
auditd` switch a protection on; `snap refresh firefox`, `cryptsetup open`, `udisksctl unlock`, `flatpak
uninstall --unused`, `sudo -ll`, `crontab -u bob -l` as root are chores an administrator does every week. Asking
about them teaches a person to approve without reading, and hides the asks that matter: the same programs
switching a protection off, writing a secret, or opening a root shell. So the exact forms of such uses are data
(resources/admin_routine.toml, mirroring the Windows side's `[[cmdlet_protection]]`), and a command in one of
them loses the asks its entry names and the ask about running as administrator through a plain sudo or doas.
Every other finding stays; a block is never lowered; any other flag or value is judged as before.

A reading pipeline fed to one of these explainers (`sudo ausearch -m avc | audit2allow -w`) keeps root only to
print: its root ask goes too, when everything it feeds only prints.
"""

from __future__ import annotations

import fnmatch
from importlib import resources
from typing import TYPE_CHECKING, NamedTuple

from gate import regex_store

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gate.shell import Command, Finding, ShellAnalysis

__all__ = ["NAMES", "RoutineUse", "after", "load"]

_HOPS = frozenset({"sudo", "doas"})
_ROOT_ASK = "confirm.shell.privilege-escalation"
# where a program run by its path is still the system's own (macOS keeps its firewall tool in /usr/libexec)
_SYSTEM_DIRS = ("/usr/bin/", "/usr/sbin/", "/bin/", "/sbin/", "/usr/libexec/applicationfirewall/")
# readers of the audit log whose output, fed to an explainer, is only printed
_LOG_READERS = frozenset({"ausearch", "aureport", "journalctl"})


class RoutineUse(NamedTuple):
    forms: tuple[tuple[str, ...], ...]
    unless: frozenset[str]
    drops: frozenset[str]
    why: str
    root: bool = False  # holds only through sudo or doas


def load(data: dict) -> dict[str, RoutineUse]:
    """The [[use]] entries of resources/admin_routine.toml, by program; a malformed one raises ValueError."""
    out: dict[str, RoutineUse] = {}
    for k, spec in enumerate(data.get("use", ())):
        where = f"admin_routine.toml [[use]] #{k + 1} ({spec.get('programs')})"
        if set(spec) - {"programs", "forms", "units", "unless", "drops", "root", "why", "example"}:
            raise ValueError(f"{where}: unknown keys")
        if not spec.get("forms") or not spec.get("why") or not spec.get("example") or "drops" not in spec:
            raise ValueError(f"{where}: give forms, drops, why and an example")
        if any(not d.startswith("confirm.") for d in spec["drops"]):
            raise ValueError(f"{where}: only asks may be dropped, never a block")
        forms: list[tuple[str, ...]] = []
        for form in spec["forms"]:
            words = tuple(form.lower().split())
            if "{unit}" in words:
                forms.extend(tuple(u.lower() if w == "{unit}" else w for w in words) for u in spec.get("units", ()))
            else:
                forms.append(words)
        entry = RoutineUse(tuple(forms), frozenset(spec.get("unless", ())),
                           frozenset(spec["drops"]), spec["why"], bool(spec.get("root")))
        for name in spec["programs"]:
            out[name.lower()] = entry
    return out


USES = load(regex_store.toml(resources.files("resources").joinpath("admin_routine.toml").read_text("utf-8")))
NAMES = frozenset(USES) | _LOG_READERS


def _word_fits(pattern: str, word: str) -> bool:
    if pattern == "*":
        return word != "--" and not word.startswith("-") and not any(c in word for c in "*?[")
    if "*" in pattern:
        return fnmatch.fnmatchcase(word, pattern)
    return word == pattern


def _form_fits(form: tuple[str, ...], words: Sequence[str], unless: frozenset[str]) -> bool:
    if any(w in unless for w in words):
        return False
    if form and form[-1] == "...":
        head = form[:-1]
        return len(words) >= len(head) and all(_word_fits(p, w) for p, w in zip(head, words, strict=False)) and \
            all(w != "--" and not any(c in w for c in "*?[") for w in words[len(head):])
    return len(words) == len(form) and all(_word_fits(p, w) for p, w in zip(form, words, strict=True))


def _plain(cmd: Command) -> bool:
    """Reached as written: no variable or substitution among its words, nothing redirected or fed in, not run by
    find or xargs nor on another machine, through at most one plain sudo or doas, and the program found by name or
    in a system folder."""
    first = cmd.argv[0].lower() if cmd.argv else ""
    if cmd.dynamic or cmd.redirects or cmd.found or cmd.remote or cmd.stdin_text is not None:
        # (on another machine a firewall switched on may cut the very session that runs it)
        return False
    if ("/" in first or "\\" in first) and not first.startswith(_SYSTEM_DIRS):
        return False
    return not cmd.via or (len(cmd.via) == 1 and cmd.via[0] in _HOPS)


def routine(cmd: Command) -> RoutineUse | None:
    """The entry whose form `cmd` matches, else None."""
    entry = USES.get(cmd.name)
    if entry is None or not _plain(cmd) or (entry.root and not cmd.privileged):
        return None
    # (case folded for matching; the unless words keep their case: auditctl's -d and -D differ)
    words = cmd.words[1:]
    if entry.unless and any(a in entry.unless for a in cmd.argv[1:]):
        return None
    return entry if any(_form_fits(f, words, frozenset()) for f in entry.forms) else None


def _feeds_only_explainers(cmd: Command, analysis: ShellAnalysis) -> bool:
    commands = analysis.commands
    try:
        me = commands.index(cmd)
    except ValueError:
        return False
    fed = [c for c in commands if me in c.upstream]
    return bool(fed) and all(c.name in ("audit2allow", "audit2why") and routine(c) is not None and not c.privileged
                             for c in fed)


def after(cmd: Command, analysis: ShellAnalysis, found: Sequence[Finding]) -> list[Finding]:
    """`found` (the findings of `cmd`) without the asks a routine use of it does not earn."""
    if cmd.name in _LOG_READERS:
        if cmd.privileged and _plain(cmd) and _feeds_only_explainers(cmd, analysis):
            return [f for f in found if f.rule != _ROOT_ASK]
        return list(found)
    entry = routine(cmd)
    if entry is None:
        return list(found)
    drops = entry.drops | {_ROOT_ASK}
    return [f for f in found if f.rule not in drops]
