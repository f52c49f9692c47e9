"""A described program asked only to show: its usage, or a reading sub-command (gate/nochange.py, 8.).

The table (resources/programs.toml) says what a program's verbs do, and the shell rules judge those verbs as a
whole: a tunnel opens one, `az tag` changes cloud resources, `killall` kills, `sfdisk` rewrites a partition
table. A use that only prints the program's usage (`sfdisk --help`, `taskkill /?`) or lists and shows (`az tag
list`, `cloudflared tunnel list`, `frpc verify --config frpc.toml`) does none of that, and asking about it teaches
a person to approve without reading. The shell rules (gate/rules/shell.py) drop, for such a use, the findings
about what the program's verbs do; what it reads (secrets), where it writes, who runs it (root) and where it
connects are judged as before.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gate.catalogue import matching
from gate.effects import program_effects
from gate.nochange import described_mode, described_reading, usage_print
from gate.shell import DOWNLOADERS, INTERPRETERS, NET_SENDERS, SHELLS

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gate.shell import Command, Finding, ShellAnalysis

__all__ = ["READING_DROPS", "USAGE_BLOCK_DROPS", "after_reading", "after_usage", "prints_usage", "reads_only"]

# what a program's verbs do to this machine or another, judged from the program's table entry or its verb: a
# reading does none of it (secret reads, privilege, destinations, paths and code are other rules' and stay)
READING_DROPS = frozenset({"confirm.shell.network", "confirm.shell.remote-mutation", "confirm.shell.publish",
                           "confirm.shell.install", "confirm.shell.system-state", "confirm.shell.system-disruption",
                           "confirm.shell.defense-evasion", "confirm.shell.persistence",
                           "confirm.shell.unknown-program"})
# blocks about what the program's verbs would do to disks, logs, protections and accounts: a usage print does
# none of it (a block about the program itself, an attack tool or a credential dumper, stays)
USAGE_BLOCK_DROPS = frozenset({"block.shell.disk-destruction", "block.shell.defense-evasion",
                               "block.shell.anti-forensics", "block.shell.key-destruction",
                               "block.shell.mass-destruction", "block.shell.database-destruction",
                               "block.shell.system-file-tamper", "block.shell.credential-tamper",
                               "block.shell.insecure-permissions-root", "block.shell.sysrq"})
# a mode the table names for the program (a dry run, a preview, a skeleton) deletes nothing either
# (a credential written or assumed, `--as=system:admin`, is not what the mode is about: it stays)
_MODE_DROPS = frozenset({*READING_DROPS, *(USAGE_BLOCK_DROPS - {"block.shell.credential-tamper"}),
                         "confirm.shell.destructive"})
# and, for an account tool of this machine run as the agent's own user, no ask about the rights its other verbs
# would change (`passwd -S`, `visudo -c`): under sudo that ask is about root, and the shell rules' own test of a
# root read decides it; for a program that reaches a service, rights are a token or an identity it is handed
_OWN_MODE_DROPS = frozenset({*_MODE_DROPS, "confirm.shell.privilege-escalation"})
_USAGE_FLAGS = frozenset({"--help", "--version"})
_ASKS_USAGE = frozenset({"/?", "-?"})
# programs whose operands are hosts, URLs or a command line: `ssh status` logs in to a host called status
_ADDRESSED = frozenset({*NET_SENDERS, *DOWNLOADERS, *SHELLS, *INTERPRETERS})
# a value that names another machine: a URL of any scheme (tcp://, ssh://, https://) or user@host
_ADDRESS = re.compile(r"://|^[\w.-]+@[\w.-]+")


def _effects(cmd: Command) -> frozenset[str] | None:
    return program_effects(cmd.name)


def prints_usage(cmd: Command) -> bool:
    """Convention 8a of gate/nochange.py: `taskkill /?`, `systemctl kill --signal help`, `killall --list`."""
    return cmd.name not in _ADDRESSED and usage_print(cmd, _effects(cmd)) is not None


def reads_only(cmd: Command, analysis: ShellAnalysis) -> bool:
    """Convention 8b of gate/nochange.py: `az tag list`, `zrok status`, `kubectl annotate pod web --list`. A
    reading verb by convention only when no catalogue function of the program sees its use in the words
    (`gotty top` serves `top` to the network), and no variable of the line points the program at another
    machine (`DOCKER_HOST=tcp://10.0.0.9:2375 docker ps` lists another machine's containers, through its engine)."""
    if cmd.name in _ADDRESSED or any(_ADDRESS.search(value) for _, value in analysis.assignments) or \
            described_reading(cmd, _effects(cmd)) is None:
        return False
    return described_mode(cmd) is not None or not matching(cmd.name, " ".join(cmd.words[1:]))


def _bare_usage(cmd: Command) -> bool:
    """The usage flag right after the program, or after one sub-command word (`vgremove --help`): every program
    reads it before anything else; further words may be another program's operands it acts on first. Windows'
    `/?` after sub-command words alone (`vssadmin delete shadows /?`): its programs show the page and stop."""
    words = cmd.words
    if words[-1] in _ASKS_USAGE:
        return not any(w.startswith(("/", "-")) for w in words[1:-1])
    if len(words) == 2 and words[-1].startswith(("--list", "--help")):
        return True  # a listing flag alone (`sgdisk --list-types`)
    return len(words) <= 3 and words[-1] in _USAGE_FLAGS


def after_usage(cmd: Command, found: Sequence[Finding]) -> list[Finding]:
    """The findings that stay for a usage print: no ask about what the verbs do, and no block about what they
    would do to the machine when the flag comes first."""
    bare = _bare_usage(cmd)
    return [f for f in found if not f.rule.startswith("confirm.") and not (bare and f.rule in USAGE_BLOCK_DROPS)]


def after_reading(cmd: Command, found: Sequence[Finding]) -> list[Finding]:
    """The findings that stay for a reading sub-command: all but those about what the program's verbs do; for a
    no-change mode the table names (`wipefs --no-act`, `pulumi destroy --preview-only`), no block or ask about
    what they would delete either: the program's documentation says it does none of it."""
    named = described_mode(cmd) is not None
    local = not cmd.privileged and "net" not in (_effects(cmd) or ())
    drops = (_OWN_MODE_DROPS if local else _MODE_DROPS) if named else READING_DROPS
    return [f for f in found if f.rule not in drops]
