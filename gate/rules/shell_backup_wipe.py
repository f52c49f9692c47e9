"""Every backup of a store deleted at once (read for each line; gate/rules/shell_harvest.py calls `line`).

`rm -rf /mnt/backups/*`, `rm -f /var/lib/vz/dump/vzdump-*`, `find /srv/backup -name '*.tar.gz' -delete`: each
archive of one of the machine's backup stores goes (a folder of the project the agent works in is not one), with
no age or count that keeps the newest. It is the step ransomware and wipers take before they encrypt or destroy
(ATT&CK T1490, inhibit system recovery), as `vssadmin delete shadows /all` and `zfs destroy pool@%` are, and it
blocks the same way (`block.shell.mass-destruction`). Pruning by age (`find ... -mtime +30 -delete`), one named
archive, or a backup tool's own retention (`restic forget --keep-daily 7`) is upkeep and is judged as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.prefix import literals
from gate.shell import Finding, ShellAnalysis

__all__ = ["line"]

Add = Callable[[Finding], None]

# a folder of backups: by its name, or a hypervisor's or a NAS's dump folder
_STORE = re.compile(r"(?:^|/)(?:[\w.-]*backups?[\w.-]*|dumps?|vzdump|snapshots?|\.snapshots|borg|restic|"
                    r"time ?machine|backups\.backupdb|veeam|bacula)(?:/|$)", re.I)
_ARCHIVE_NAME = re.compile(r"^(?:\*|vzdump[-\w]*\*.*|\*\.(?:tar|tgz|gz|zst|lzo|vma|bak|zip|7z|img|qcow2|vhdx?|dump|"
                           r"sql|tar\.\w+)|[\w.-]*\*)$", re.I)
_AGE = frozenset({"-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-newermt", "-not", "!",
                  "-size", "-maxdepth"})
# a store of the machine's (not a folder of the project the agent works in)
_ROOTED = re.compile(r"^(?:/|~|\$\{?home\b|[a-z]:[\\/]|\\\\)", re.I)
CUES = ("backup", "dump", "snapshot", "borg", "restic", "machine", "veeam", "bacula")
_ANY_CUE = literals(CUES)  # whether a line holds one of them, in one search (not a scan per cue)


def _wiped(analysis: ShellAnalysis) -> str | None:
    for cmd in analysis.commands:
        words = [w.strip("'\"") for w in cmd.argv[1:]]
        if cmd.name in ("rm", "remove-item", "del", "erase"):
            for w in words:
                if w.startswith("-"):
                    continue
                folder, _, last = w.rstrip("/").rpartition("/")
                if folder and _ROOTED.match(w) and _STORE.search(folder + "/") and _ARCHIVE_NAME.match(last):
                    return w
        elif cmd.name == "find" and ("-delete" in words or ("-exec" in words and "rm" in words)):
            if any(w in _AGE for w in words):
                continue
            roots = [w for w in words if not w.startswith("-")][:1]
            names = [words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-name", "-iname")]
            if roots and _ROOTED.match(roots[0]) and _STORE.search(roots[0].rstrip("/") + "/") and (not names or all(
                    _ARCHIVE_NAME.match(n) for n in names)):
                return f"{roots[0]} {' '.join(names)}".strip()
    return None


def line(analysis: ShellAnalysis, add: Add) -> None:
    """The finding of the module docstring."""
    low = analysis.source.lower()
    if _ANY_CUE is None or _ANY_CUE.search(low) is None:
        return
    if (what := _wiped(analysis)) is not None:
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                    f"deletes every backup in {what[:80]}, with nothing kept: what ransomware does before it "
                    f"encrypts", what[:200]))
