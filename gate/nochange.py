"""Uses of unknown programs that change nothing: no-change modes named as data, and two conventions.

The shell rules ask about a program the table (resources/programs.toml) does not describe, because the
gate cannot tell what it does (`confirm.shell.unknown-program`). Some uses of such programs are known to
only read, check or show, and asking about them teaches a person to approve without reading. This module
says which, and the shell rules (gate/rules/shell_effects.py `unknown`) then drop that one ask. Every
other finding of the command (what it reads, where it writes, what it sends, how it is run) still counts:
nothing here lowers a block or any other rule's ask.

1. Named no-change modes (`[[no_change]]` in programs.toml): a program's read-only verbs (`knife node
   list`, `fsutil fsinfo drives`), or a mode its documentation says changes nothing (`puppet agent --noop`,
   `chef-client --why-run`, salt's `state.apply test=True`), unless a flag that runs code or changes
   something is given too (`puppet apply --noop -e ...`). Only for the program found on the search path or
   in a system or vendor folder (`/opt/puppetlabs/bin/puppet`): a file of that name in /tmp is not it. Never
   with `--` (another command line follows), a network target (`https://`, `user@host:`), or a Windows switch
   that changes something the entry does not name itself (`sfc /verifyonly /scannow`).
   A Windows switch is compared without its value (`/l:5000` is `/l`, in `with` and `unless` alike), and
   the word `=` in `unless` stands for any argument that assigns (`assoc .txt=exefile`, `mode con cols=80`).
   An entry marked `plain` names a program that hands its words on to another shell (`adb shell getprop`
   runs `getprop` in the device's shell): there every word must be plain, with nothing that shell would read
   as its own syntax (`;`, `|`, `&`, `>`, `$`, quotes, globs), so the named read is all that runs.
2. Help, version and listing: `tool --help`, `tool sub --help`, `tool --version`, `tool --list` as the
   last word, after nothing but sub-command words. Command-line programs print and exit on these by
   convention. PowerShell's `-WhatIf` is the third kind below: a cmdlet either honours it or refuses it.
3. A dry-run flag on a program nothing describes. `--dry-run` changes nothing only for a program that
   honours it, and an unknown program is not known to; so the flag lowers the ask only when the rest of the
   command leaves nothing for a careless program to do harm with: the program is found by name (not a path,
   not a catalogue living-off-the-land program), runs as the agent's own user, on this machine, with every
   word known (no `$VAR`, no `$(...)`), no network destination among its words (URL, bare IP, user@host:),
   no word that hands it code (`-c`, `--exec`, `--script`, ...) and no output redirected to a file. A
   program that ignored the flag could then only change files of the project it was pointed at, the same
   as any build tool the table already allows. Short forms (`-n`) and `--check` are left out: they mean
   other things to other programs.
4. Cmdlets of a PowerShell module named as data (`[cmdlet_modules]`: dbatools' `Get-Dba*`, `Test-Dba*`
   read; `Backup-Dba*`, `Export-Dba*` write a copy), except nouns about logins, credentials and keys; and a
   cmdlet of any module whose verb only reads (`[cmdlet_reads]`: `Get-Mailbox`, `Test-Path`), except nouns
   about secrets and the switches that make it change something.
5. Cmdlets of cloud and SaaS modules (`[cloud_cmdlets]`: Az, Microsoft Graph, Exchange Online, AWS.Tools, ...):
   signing in with scopes that only read (`Connect-MgGraph -Scopes User.Read.All`), starting a machine or app
   (`Start-AzVM`), choosing the subscription or region the next commands use (`Set-AzContext`), and stopping or
   restarting one named for development or tests. What the other verbs of
   these modules do is judged by gate/rules/shell_windows.py (`cloud_cmdlet`).
6. A reading sub-command of a program nothing describes (`[read_verbs]`): by the convention of command-line
   programs (clig.dev; the verbs of kubectl, docker, gh and the cobra/click programs built like them) `tool
   list`, `tool status`, `tool tunnel list`, `tool describe-instances` only show. The verb is the first
   operand, or comes after at most two noun words (or, with noun words alone, a listing flag such as
   `--list-devices` or `--show-config`); no operand is a changing verb (`tool rm list`) or a word
   about secrets (`tool token list`), no flag changes something (`status --fix`), and a flag that writes the
   listing names no file outside the project. The rest is rule 3's: found by name, not a catalogue
   living-off-the-land program nor a password manager, as the agent's own user, on this machine, every word
   known, no network destination (and `get` with no host- or path-like operand), no code-running flag, no
   output redirected to a file outside the project. PowerShell's approved verbs that look or reshape output
   (`Search-`, `Format-`, `ConvertTo-`, `Group-`, `Wait-`) join [cmdlet_reads]'s, and nouns about replication,
   memory and stored logons are left out of every reading cmdlet.
7. A cmdlet whose verb changes something, on a noun that is only the person's own screen or session
   (`[cmdlet_display]`): PowerShell's convention names a cmdlet for what it acts on, so `New-XyzNotification`,
   `Set-XyzPrompt`, `Add-XyzColorTheme`, `New-XyzChartDefinition` make a notification, a prompt, a theme or a
   chart definition of the module, and `Import-XyzExcel` or `Import-XyzYaml` read a data file. Never with a web
   or share address among the words (a notification that opens a page), a switch that hands it code
   (`-ScriptBlock`), a file named outside the project, or a noun about secrets before the display word.
9. A Windows server cmdlet asked only to switch a protection on (`[[cmdlet_protection]]`): `Set-NetFirewallProfile
   -Enabled True`, `Set-SmbServerConfiguration -EnableSMB1Protocol $false`. Every parameter chooses what the
   setting applies to, is a common switch (`-Force`, `-Confirm:$false`), or sets a protection to its protective
   value; the cmdlet is found by name. Hardening is routine; the same cmdlet turning anything off is not this.
8. A program the table describes, asked only to show (`[reading_uses]`; gate/rules/shell_reading.py drops the
   findings about what the program's verbs do, and the shell rules keep every other): a. its usage (`taskkill
   /?`, `systemctl kill --signal help`, `aws s3 cp help`, `killall --list` alone); b. a [[no_change]] mode
   marked `described` (`kubectl annotate pod web --list`, `wipefs --no-act`), or a reading sub-command by
   convention 6 read more strictly (`cloudflared tunnel list`, `az tag list`, `frpc completion bash`): not for
   a program whose operands are files or the thing it acts on, with no changing verb among the operands.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from gate.catalogue import DATA, functions_for, risky_destination
from gate.prefix import literals

if TYPE_CHECKING:
    from gate.shell import Command

__all__ = ["CLOUD", "DISPLAY", "READING_USES", "READ_VERBS", "RULES", "CloudFamily", "CmdletDisplay", "NoChange",
           "ReadVerbs", "ReadingUses", "cloud_parts", "described_mode", "described_reading", "load", "load_cloud",
           "load_display", "load_read_verbs", "load_reading_uses", "named_use", "quiet_use", "reading_verb",
           "system_script_use", "usage_print"]


class NoChange(NamedTuple):
    programs: tuple[str, ...]
    verbs: tuple[tuple[str, ...], ...]  # each a sequence of leading operands; () = any
    skip: int  # leading operands that are not the verb (salt's target)
    with_: frozenset[str]  # one of these words must be present too; empty = none needed
    unless: frozenset[str]  # flags that run code or change something even in this mode
    why: str
    example: str
    plain: bool = False  # the words are handed on to another shell: each must be free of its syntax
    described: bool = False  # holds for a program the table describes too, against what its verbs are judged to do


_KEYS = frozenset({"program", "verbs", "skip", "with", "unless", "why", "example", "plain", "described"})
# a word another shell reads as itself: no separator, redirect, quote, substitution or glob in it
_PLAIN_WORD = re.compile(r"^[\w.,:/=@+%-]+$")


def load(data: dict) -> tuple[NoChange, ...]:
    """The [[no_change]] entries of a program table; a malformed one raises ValueError naming it."""
    out = []
    for k, spec in enumerate(data.get("no_change", ())):
        where = f"programs.toml [[no_change]] #{k + 1} ({spec.get('program')})"
        if set(spec) - _KEYS:
            raise ValueError(f"{where}: unknown keys {sorted(set(spec) - _KEYS)}")
        programs = spec["program"]
        programs = (programs,) if isinstance(programs, str) else tuple(programs)
        verbs = tuple(tuple(v.lower().split()) for v in spec.get("verbs", ()))
        with_ = frozenset(w.lower() for w in spec.get("with", ()))
        if not verbs and not with_:
            raise ValueError(f"{where}: give verbs, or words (with) that make any use change nothing")
        if not spec.get("example") or not spec.get("why"):
            raise ValueError(f"{where}: an example and a why are required")
        out.append(NoChange(programs, verbs, int(spec.get("skip", 0)), with_,
                            frozenset(u.lower() for u in spec.get("unless", ())), spec["why"], spec["example"],
                            bool(spec.get("plain", False)), bool(spec.get("described", False))))
    return tuple(out)


RULES = load(DATA)  # data shipped with the package, read once at import


class CmdletModule(NamedTuple):
    prefix: str  # the noun prefix the module's cmdlets share (`dba`)
    reads: frozenset[str]
    copies: frozenset[str]
    secret_nouns: tuple[str, ...]


def load_modules(data: dict) -> tuple[CmdletModule, ...]:
    """The [cmdlet_modules.NAME] tables of a program table; a malformed one raises ValueError naming it."""
    out = []
    for name, spec in data.get("cmdlet_modules", {}).items():
        if set(spec) - {"noun_prefix", "reads", "copies", "secret_nouns", "example"} or not spec.get("noun_prefix"):
            raise ValueError(f"programs.toml [cmdlet_modules.{name}]: unknown keys or no noun_prefix")
        out.append(CmdletModule(spec["noun_prefix"].lower(), frozenset(v.lower() for v in spec.get("reads", ())),
                                frozenset(v.lower() for v in spec.get("copies", ())),
                                tuple(n.lower() for n in spec.get("secret_nouns", ()))))
    return tuple(out)


MODULES = load_modules(DATA)


class CmdletReads(NamedTuple):
    reads: frozenset[str]
    secret_nouns: tuple[str, ...]
    exact_nouns: frozenset[str]
    unless: frozenset[str]


def load_cmdlet_reads(data: dict) -> CmdletReads:
    """The [cmdlet_reads] table of a program table; a malformed one raises ValueError."""
    spec = data.get("cmdlet_reads", {})
    if set(spec) - {"reads", "secret_nouns", "exact_nouns", "unless", "example"}:
        raise ValueError("programs.toml [cmdlet_reads]: unknown keys")
    return CmdletReads(frozenset(v.lower() for v in spec.get("reads", ())),
                       tuple(n.lower() for n in spec.get("secret_nouns", ())),
                       frozenset(n.lower() for n in spec.get("exact_nouns", ())),
                       frozenset(v.lower() for v in spec.get("unless", ())))


CMDLET_READS = load_cmdlet_reads(DATA)


class CmdletProtection(NamedTuple):
    select: frozenset[str]  # parameters that choose what the setting applies to
    on: dict[str, frozenset[str]]  # a protection's parameter → its protective values


_COMMON_SWITCHES = frozenset({"force", "confirm", "whatif", "verbose", "passthru", "asjob", "cimsession",
                              "throttlelimit"})


def load_protections(data: dict) -> dict[str, CmdletProtection]:
    """The [[cmdlet_protection]] entries of a program table (module docstring, 9.), by cmdlet; a malformed one
    raises ValueError."""
    out: dict[str, CmdletProtection] = {}
    for spec in data.get("cmdlet_protection", ()):
        if set(spec) - {"cmdlets", "select", "on", "example"} or not spec.get("on") or not spec.get("example"):
            raise ValueError(f"programs.toml [[cmdlet_protection]] {spec.get('cmdlets')}: give on and an example")
        entry = CmdletProtection(frozenset(p.lower() for p in spec.get("select", ())),
                                 {k.lower(): frozenset(v.lower() for v in vs) for k, vs in spec["on"].items()})
        for name in spec["cmdlets"]:
            out[name.lower()] = entry
    return out


PROTECTIONS = load_protections(DATA)


def _protection_on(cmd: Command) -> str | None:
    """Why a cmdlet only switches protections on (module docstring, 9.), else None."""
    entry = PROTECTIONS.get(cmd.name)
    if entry is None or cmd.redirects:
        return None
    args = [a.lower() for a in cmd.argv[1:]]
    turned_on = False
    k = 0
    while k < len(args):
        a = args[k]
        if not a.startswith("-") or len(a) < 2:
            return None  # a positional word: not a parameter this convention knows
        name, colon, value = a[1:].partition(":")
        has_next = k + 1 < len(args) and not args[k + 1].startswith("-")
        if not colon and name in entry.on:
            if not has_next:
                return None
            value = args[k + 1]
            k += 1
        elif not colon and name in entry.select and has_next:
            k += 1  # (the selection's value: `-Profile Domain,Public`; `-All` takes none)
        k += 1
        if name in _COMMON_SWITCHES:
            continue
        if name in entry.select:
            continue
        if name not in entry.on or value.strip("'\"") not in entry.on[name]:
            return None
        turned_on = True
    return "switches a protection on, and only that" if turned_on else None


class PublicNouns(NamedTuple):
    nouns: tuple[str, ...]  # words of a noun that name only what is public, longest first
    unless_nouns: tuple[str, ...]  # a noun with one of these keeps its secret word
    unless: frozenset[str]  # switches that make such a reading cmdlet change something


def load_public_nouns(data: dict) -> PublicNouns:
    """The [cmdlet_public_nouns] table of a program table; a malformed one raises ValueError."""
    spec = data.get("cmdlet_public_nouns", {})
    if set(spec) - {"nouns", "unless_nouns", "unless", "example"}:
        raise ValueError("programs.toml [cmdlet_public_nouns]: unknown keys")
    return PublicNouns(tuple(sorted((n.lower() for n in spec.get("nouns", ())), key=len, reverse=True)),
                       tuple(n.lower() for n in spec.get("unless_nouns", ())),
                       frozenset(v.lower() for v in spec.get("unless", ())))


PUBLIC_NOUNS = load_public_nouns(DATA)


def _public_part_removed(noun: str, words: tuple[str, ...]) -> str:
    """The noun without the words that name only what is public (`sslcertificatebinding` → `sslbinding`), so
    that its secret words are looked for in the rest; as it is when it names a private part or an export."""
    if not any(p in noun for p in PUBLIC_NOUNS.nouns) or any(u in noun for u in PUBLIC_NOUNS.unless_nouns) or \
            any(w.split(":", 1)[0] in PUBLIC_NOUNS.unless for w in words):
        return noun
    for p in PUBLIC_NOUNS.nouns:
        noun = noun.replace(p, "-")
    return noun


class ReadVerbs(NamedTuple):
    verbs: frozenset[str]
    prefixes: tuple[str, ...]
    changing: frozenset[str]
    unless: frozenset[str]
    write_flags: frozenset[str]
    secret_words: frozenset[str]
    never: frozenset[str]
    cmdlet_verbs: frozenset[str]
    cmdlet_nouns: tuple[str, ...]
    flags: tuple[str, ...] = ()  # listing flags (`--list-devices`), matched whole or up to a hyphen
    cmdlet_media_nouns: tuple[str, ...] = ()  # nouns of disks and devices, left out of cmdlet_verbs' cmdlets


_READ_VERB_KEYS = frozenset({"verbs", "prefixes", "changing", "unless", "write_flags", "secret_words", "never",
                             "cmdlet_verbs", "cmdlet_secret_nouns", "cmdlet_media_nouns", "flags", "example"})


def load_read_verbs(data: dict) -> ReadVerbs:
    """The [read_verbs] table of a program table (module docstring, 6.); a malformed one raises ValueError."""
    spec = data.get("read_verbs", {})
    if set(spec) - _READ_VERB_KEYS:
        raise ValueError(f"programs.toml [read_verbs]: unknown keys {sorted(set(spec) - _READ_VERB_KEYS)}")
    if set(spec.get("verbs", ())) & set(spec.get("changing", ())):
        raise ValueError("programs.toml [read_verbs]: a verb cannot both read and change")

    def words(key: str) -> frozenset[str]:
        return frozenset(w.lower() for w in spec.get(key, ()))

    return ReadVerbs(words("verbs"), tuple(p.lower() for p in spec.get("prefixes", ())), words("changing"),
                     words("unless"), words("write_flags"), words("secret_words"), words("never"),
                     words("cmdlet_verbs"), tuple(n.lower() for n in spec.get("cmdlet_secret_nouns", ())),
                     tuple(f.lower() for f in spec.get("flags", ())),
                     tuple(n.lower() for n in spec.get("cmdlet_media_nouns", ())))


READ_VERBS = load_read_verbs(DATA)
_CMDLET = re.compile(r"^(?P<verb>[a-z]+)-(?P<noun>[a-z][a-z0-9]{2,})$")


def _reading_cmdlet(cmd: Command) -> str | None:
    """Why a cmdlet of any module with a reading verb (`get-mailbox`) changes nothing, else None."""
    m = _CMDLET.match(cmd.name)
    if m is None or (m.group("verb") not in CMDLET_READS.reads and m.group("verb") not in READ_VERBS.cmdlet_verbs):
        return None
    noun = m.group("noun")
    if m.group("verb") not in CMDLET_READS.reads and any(s in noun for s in READ_VERBS.cmdlet_media_nouns):
        return None  # `Format-Disk`, `Format-SDCard`: the verb's other sense, on a disk or a device
    noun = _public_part_removed(noun, cmd.words[1:])
    if noun in CMDLET_READS.exact_nouns or any(noun == module.prefix for module in MODULES) or \
            any(s in noun for s in CMDLET_READS.secret_nouns) or any(s in noun for s in READ_VERBS.cmdlet_nouns) or \
            any(w.split(":", 1)[0] in CMDLET_READS.unless for w in cmd.words[1:]):
        return None
    return f"a {m.group('verb')}- cmdlet: PowerShell's reading verbs look and report"


def _module_cmdlet(name: str, words: tuple[str, ...] = ()) -> str | None:
    """Why a module cmdlet (`get-dbadatabase`) changes nothing it reads, else None. A copy written to a web or
    share address (`Backup-DbaDatabase -AzureBaseUrl https://...`, `-Path \\\\nas\\dumps`) leaves the machine:
    not this convention's."""
    verb, _, noun = name.partition("-")
    for m in MODULES:
        if noun.startswith(m.prefix) and len(noun) > len(m.prefix) and not any(s in noun for s in m.secret_nouns):
            if verb in m.reads:
                return f"a {verb}- cmdlet of a module that only reads"
            if verb in m.copies and not any(_ADDRESS.search(w) for w in words):
                return f"a {verb}- cmdlet: writes a backup or export copy and changes nothing it reads"
    return None
class CloudFamily(NamedTuple):
    prefixes: tuple[str, ...]  # noun prefixes of the modules, longest first
    not_nouns: frozenset[str]
    connect_nouns: frozenset[str]
    connect_writes: re.Pattern[str]
    start_verbs: frozenset[str]
    stop_verbs: frozenset[str]
    lifecycle_nouns: re.Pattern[str]
    dev_names: re.Pattern[str]
    remove_verbs: frozenset[str]
    context_nouns: frozenset[str]
    context_unless: re.Pattern[str]


_CLOUD_KEYS = frozenset({"noun_prefixes", "not_nouns", "connect_nouns", "connect_writes", "start_verbs",
                         "stop_verbs", "lifecycle_nouns", "dev_names", "remove_verbs", "context_nouns",
                         "context_unless"})


def load_cloud(data: dict) -> CloudFamily:
    """The [cloud_cmdlets] table of a program table; a malformed one raises ValueError."""
    spec = data.get("cloud_cmdlets", {})
    if set(spec) != _CLOUD_KEYS:
        raise ValueError(f"programs.toml [cloud_cmdlets]: keys must be {sorted(_CLOUD_KEYS)}")
    return CloudFamily(tuple(sorted((p.lower() for p in spec["noun_prefixes"]), key=len, reverse=True)),
                       frozenset(n.lower() for n in spec["not_nouns"]),
                       frozenset(n.lower() for n in spec["connect_nouns"]),
                       re.compile(spec["connect_writes"], re.I), frozenset(spec["start_verbs"]),
                       frozenset(spec["stop_verbs"]), re.compile(spec["lifecycle_nouns"], re.I),
                       re.compile(spec["dev_names"], re.I), frozenset(spec["remove_verbs"]),
                       frozenset(n.lower() for n in spec["context_nouns"]), re.compile(spec["context_unless"], re.I))


CLOUD = load_cloud(DATA)


class CmdletDisplay(NamedTuple):
    verbs: frozenset[str]
    nouns: tuple[str, ...]  # what the noun ends with: the display or session thing acted on
    data_verbs: frozenset[str]
    data_nouns: tuple[str, ...]  # what the noun of a data verb ends with: a data file's format
    unless: frozenset[str]
    path_flags: frozenset[str]


_DISPLAY_KEYS = frozenset({"verbs", "nouns", "data_verbs", "data_nouns", "unless", "path_flags", "example"})


def load_display(data: dict) -> CmdletDisplay:
    """The [cmdlet_display] table of a program table (module docstring, 7.); a malformed one raises ValueError."""
    spec = data.get("cmdlet_display", {})
    if set(spec) - _DISPLAY_KEYS:
        raise ValueError(f"programs.toml [cmdlet_display]: unknown keys {sorted(set(spec) - _DISPLAY_KEYS)}")

    def words(key: str) -> tuple[str, ...]:
        return tuple(w.lower() for w in spec.get(key, ()))

    return CmdletDisplay(frozenset(words("verbs")), tuple(sorted(words("nouns"), key=len, reverse=True)),
                         frozenset(words("data_verbs")), tuple(sorted(words("data_nouns"), key=len, reverse=True)),
                         frozenset(words("unless")), frozenset(words("path_flags")))


DISPLAY = load_display(DATA)
_ADDRESS = re.compile(r"://|^\\\\|^www\.", re.I)


def _display_cmdlet(cmd: Command) -> str | None:
    """Why a cmdlet with a changing verb acts only on the person's own screen or session, or reads a data
    file (module docstring, 7.), else None."""
    m = _CMDLET.match(cmd.name)
    if m is None:
        return None
    verb, noun = m.group("verb"), m.group("noun")
    if verb in DISPLAY.verbs:
        end = next((n for n in DISPLAY.nouns if noun.endswith(n)), None)
        what = "acts on the person's own screen or session"
    elif verb in DISPLAY.data_verbs:
        end = next((n for n in DISPLAY.data_nouns if noun.endswith(n)), None)
        what = "reads a data file into objects"
    else:
        return None
    if end is None:
        return None
    head = noun[: len(noun) - len(end)]
    if cloud_parts(cmd.name, cmd.argv[0]) is not None:
        return None  # a cloud or SaaS module's cmdlet: judged as its family (shell_windows.py `cloud_cmdlet`)
    if any(s in head for s in CMDLET_READS.secret_nouns) or any(s in head for s in READ_VERBS.cmdlet_nouns):
        return None
    args = cmd.words[1:]
    for k, a in enumerate(args):
        flag = a.split(":", 1)[0]
        if _ADDRESS.search(a) or flag in DISPLAY.unless:
            return None
        if flag in DISPLAY.path_flags and k + 1 < len(args) and _outside_project(args[k + 1]):
            return None
    return f"a {verb}- cmdlet whose noun ({end}) {what}"


def cloud_parts(name: str, written: str = "") -> tuple[str, str] | None:
    """(verb, noun) of a cmdlet of a cloud or SaaS module (`remove-azvm` → ("remove", "azvm")), else None.
    `written`: the name as typed; when it has capitals, the prefix must end where the next word starts
    (`Export-Csv` is not Teams' `Cs`)."""
    verb, dash, noun = name.partition("-")
    if not dash or not verb.isalpha() or noun in CLOUD.not_nouns or "-" in noun:
        return None
    typed = written.rpartition("-")[2] if written and written.lower().endswith(noun) else ""
    cased = typed != typed.lower()
    for prefix in CLOUD.prefixes:
        if noun.startswith(prefix) and len(noun) > len(prefix):
            if cased and not (typed[len(prefix)].isupper() or typed[len(prefix)].isdigit()):
                continue
            return verb, noun
    return None


def _cloud_quiet(cmd: Command) -> str | None:
    """Why a cloud module's cmdlet changes nothing worth asking about (module docstring, 5.), else None."""
    verb, _, noun = cmd.name.partition("-")
    args = " ".join(cmd.words[1:])
    if verb in ("connect", "disconnect") and noun not in CLOUD.connect_nouns:
        return None  # (the sign-in cmdlets are named: `Connect-ExchangeOnline` has no module prefix)
    if verb not in ("connect", "disconnect") and noun not in CLOUD.context_nouns and \
            cloud_parts(cmd.name, cmd.argv[0]) is None:
        return None
    if verb == "connect":
        if CLOUD.connect_writes.search(args):
            return None
        return "signs in to a cloud service with scopes that only read: the token changes nothing by itself"
    if verb == "disconnect":
        return "signs out of a cloud service"
    if verb in ("set", "select", "use") and noun in CLOUD.context_nouns and not CLOUD.context_unless.search(args):
        return "chooses the subscription, account, profile or region the next commands use"
    if CLOUD.lifecycle_nouns.search(noun):
        if verb in CLOUD.start_verbs:
            return "starts a cloud machine or app: nothing is lost, and it is stopped as easily"
        if verb in CLOUD.stop_verbs and CLOUD.dev_names.search(args):
            return "stops or restarts a cloud machine or app named for development or tests"
    return None


_BY_PROGRAM: dict[str, tuple[NoChange, ...]] = {}
for _r in RULES:
    for _p in _r.programs:
        _BY_PROGRAM[_p] = (*_BY_PROGRAM.get(_p, ()), _r)
# the same for the modes marked `described` only (`_named(..., described=True)`): a program with none is absent
_DESCRIBED_BY_PROGRAM: dict[str, tuple[NoChange, ...]] = {
    p: kept for p, rules in _BY_PROGRAM.items() if (kept := tuple(r for r in rules if r.described))}

# where a named program is itself: found by name, or in a system or vendor folder
_INSTALLED = re.compile(r"^(/usr/|/bin/|/sbin/|/opt/|/snap/bin/|/nix/store/|/home/linuxbrew/|"
                        r"c:\\program files( \(x86\))?\\|c:\\windows\\system32\\|"
                        # the same folders named through Windows' own variables (%windir%\System32\inetsrv\...)
                        r"%(windir|systemroot)%\\system32\\|%(programfiles|programfiles\(x86\))%\\)", re.I)
_HELP = frozenset({"--help", "-h", "-help", "help", "--version", "-version", "version", "/?", "-?", "--list",
                   "--list-all"})
_SUBCOMMAND = re.compile(r"[a-z][a-z0-9_.:-]*")
# (`--preview` is left out: to some deploy tools it means a preview deployment, published all the same)
_DRY = frozenset(f for f in DATA.get("dry_run", {}).get("flags", ())
                 if (f.startswith("--") or f == "-whatif") and f != "--preview")
_CODE_WORDS = frozenset({"-c", "-e", "-x", "--exec", "--execute", "--command", "--cmd", "--eval", "--script",
                         "--run", "--shell", "--hook", "--plugin", "--load", "--require", "--import", "--pre",
                         "--post", "--then", "--on-success", "--on-failure"})
_QUIET_SINKS = frozenset({"/dev/null", "nul", "$null", "-"})
_REMOTE_WORD = re.compile(r"://|^[\w.-]+@[\w.-]+:|^\\\\")


def _operands(words: tuple[str, ...]) -> list[str]:
    return [w for w in words if not w.startswith("-")]


# a word that reads as a flag's value rather than a verb: a path, a number, an address or an assignment
_VALUE_WORD = re.compile(r"^[^a-z]|[/\\.:@=~]", re.I)


def _operands_after_values(words: tuple[str, ...]) -> list[str]:
    """The operands with each value-looking word right after a flag left out (`pg_ctl -D /srv/db status`):
    a bare word after a flag stays, since it may be the verb of a flag that takes no value."""
    out = []
    for k, w in enumerate(words):
        if w.startswith("-"):
            continue
        if k and words[k - 1].startswith("-") and "=" not in words[k - 1] and _VALUE_WORD.search(w):
            continue
        out.append(w)
    return out


def _verb_is(verb: tuple[str, ...], operands: list[str]) -> bool:
    if len(operands) < len(verb):
        return False
    for want, got in zip(verb, operands, strict=False):
        if want.endswith("*") and got.startswith(want[:-1]):
            continue
        if want != got:
            return False
    return True


_SWITCH_VALUE = re.compile(r"[:=]")


def _switch(word: str) -> str:
    """A Windows switch without its value (`/l:5000` → `/l`, `/scanfile=x` → `/scanfile`); other words as
    they are."""
    return _SWITCH_VALUE.split(word, maxsplit=1)[0] if word.startswith("/") and len(word) > 1 else word


# the switches each mode names itself (`_only_known_words`), read once
_MODE_SWITCHES: dict[NoChange, frozenset[str]] = {
    r: frozenset(_switch(w) for w in (*r.with_, *(w for v in r.verbs for w in v))) for r in RULES}


def _named(name: str, words: tuple[str, ...], described: bool = False) -> str | None:
    """The why of a [[no_change]] mode `words` (folded, argv[0] first) are in, else None; `described`: only the
    modes marked to hold against the table's judgement of the program (convention 8b)."""
    # (the modes of this program, looked up first: most names have none, and then no word needs reading)
    rules = _DESCRIBED_BY_PROGRAM.get(name) if described else _BY_PROGRAM.get(name)
    if rules is None:
        return None
    args = words[1:]
    if "--" in args or any(_NETWORK_TARGET.match(a) for a in args):
        return None  # another program's command line follows, or a host is named: not a reading of this machine
    readings: tuple[list[str], list[str]] | None = None  # the two readings of the operands, made once if needed
    # the Windows switches of the words that change something (`_CHANGING_SWITCH`), read once for every mode
    changing = [sw for a in args if _WIN_SWITCH.match(a) and _CHANGING_SWITCH.match(sw := _switch(a))]
    for rule in rules:
        if not _only_known_words(rule, changing) or (rule.plain and not all(_PLAIN_WORD.match(a) for a in args)):
            continue
        if rule.unless and any(_switch(a).split("=", 1)[0] in rule.unless or ("=" in rule.unless and "=" in a)
                               for a in args):
            continue
        if rule.with_ and not any(a in rule.with_ or _switch(a) in rule.with_ for a in args):
            continue
        if rule.verbs:
            if readings is None:
                readings = (_operands(args), _operands_after_values(args))
            if not any(_verb_is(v, ops[rule.skip:]) for v in rule.verbs for ops in readings):
                continue
        return rule.why
    return None


# a target on the network: a URL of a network scheme or user@host:
_NETWORK_TARGET = re.compile(r"^(?:https?|ftp|ftps|ssh|sftp|s3|gs|smb|ldap)://|^[\w.-]+@[\w.-]+:", re.I)
_WIN_SWITCH = re.compile(r"^/[a-z?][\w-]*(?:[:=].*)?$")
# Windows switches that change something, whatever the program: given beside a listing the entry did not name
# them for, the command is not that listing any more (`sfc /verifyonly /scannow`, `pnputil /enum-drivers
# /delete-driver x`, `chkdsk C: /scan /f`)
_CHANGING_SWITCH = re.compile(r"^/(?:delete|remove|add|install|uninstall|set|reset|clear|purge|disable|enable|change|"
                              r"create|import|restorehealth|scannow|fix|f|r|x|b|apply|update|force|unregister|register|"
                              r"kill|stop|start|run|repair|restore|revert|offline|online-repair)(?![a-z])")


def _only_known_words(rule: NoChange, changing: list[str]) -> bool:
    """No switch that changes something beyond those the mode names itself (see `_CHANGING_SWITCH`; `changing`: the
    changing switches of the words, `_switch` of each)."""
    return not changing or all(sw in _MODE_SWITCHES[rule] for sw in changing)


def _help(args: tuple[str, ...]) -> bool:
    return bool(args) and args[-1] in _HELP and all(_SUBCOMMAND.fullmatch(a) for a in args[:-1])


def _dry_run_alone(args: tuple[str, ...], redirects: tuple[tuple[str, str], ...]) -> bool:
    dry = False
    for a in args:
        if a == "--":
            return False  # what follows is another program's command line
        base = a.split("=", 1)[0]
        if base in _DRY:
            dry = True
        elif base in _CODE_WORDS or _REMOTE_WORD.search(a):
            return False
    if not dry or risky_destination(args):
        return False
    return all(op.startswith("<") or target.isdigit() or target.startswith("&") or target in _QUIET_SINKS
               for op, target in redirects)


def named_use(cmd: Command) -> str | None:
    """The why of the named [[no_change]] mode this use of the program itself is in, else None: no help or
    dry-run convention, only what the table names (the shell rules let such a use run as root, since it reads)."""
    if not cmd.argv:
        return None
    first = cmd.argv[0]
    if ("/" in first or "\\" in first) and not _INSTALLED.match(first):
        return None
    return _named(cmd.name, cmd.words)


# Windows' own administration scripts, run by the script host from the system folder (`cscript //nologo
# C:\Windows\System32\slmgr.vbs /xpr`): judged as the script's own [[no_change]] mode
_SCRIPT_HOSTS = frozenset({"cscript", "wscript"})
_SYSTEM_SCRIPT = re.compile(r"^(?:c:|%systemroot%|%windir%|\$env:windir|\$env:systemroot)(?:\\windows)?\\system32\\"
                            r"([\w-]+\.vbs)$", re.I)


def system_script_use(cmd: Command) -> str | None:
    """The why of the [[no_change]] mode a Windows system script run by cscript/wscript is in, else None."""
    if cmd.name not in _SCRIPT_HOSTS:
        return None
    args = [w for w in cmd.words[1:] if not w.startswith("//")]  # the host's own options (//nologo, //b)
    m = _SYSTEM_SCRIPT.match(args[0]) if args else None
    if m is None:
        return None
    script = m.group(1).lower()
    return _named(script, (script, *args[1:]))


def quiet_use(cmd: Command) -> str | None:
    """Why this use of a program the table does not describe changes nothing (see the module docstring),
    or None."""
    if not cmd.argv:
        return None
    first = cmd.argv[0]
    bare = "/" not in first and "\\" not in first
    if not bare and not _INSTALLED.match(first):
        return None  # a file of that name somewhere else is not the program the data speaks of
    why = _named(cmd.name, cmd.words) or system_script_use(cmd)
    if why is not None:
        return why
    if "-" in cmd.name and bare:
        module = _module_cmdlet(cmd.name, cmd.words[1:]) if MODULES else None
        why = module or _reading_cmdlet(cmd) or _cloud_quiet(cmd) or _display_cmdlet(cmd) or _protection_on(cmd)
        if why is not None:
            return why
    args = cmd.words[1:]
    if _help(args):
        return "prints its help or version and exits"
    # (a program named by its installed path, `/usr/bin/xprotect status`, is the one its bare name finds)
    if not (cmd.dynamic or cmd.privileged or cmd.remote or cmd.found) and not functions_for(cmd.name):
        if _dry_run_alone(args, cmd.redirects):
            return "a dry run, with no code, no network destination and no file written beside it"
        verb = _reading_verb(cmd.name, args, cmd.redirects)
        if verb is not None:
            return f"`{verb}` is a sub-command that only reads or shows, by the convention of command-line programs"
    return None


# a word split into its parts (`list-api-keys` → list, api, keys) to look for words about secrets
_PARTS = re.compile(r"[-_.:/=]+")
# an operand that names something to fetch rather than a local thing (`github.com/x/y`, `host:path`, `a@b`)
_FETCHED = re.compile(r"[/\\@:]|^[\w-]+(?:\.[\w-]+)+$")


# the secret words long enough to count inside another word, as one search (not an `in` per word, for every word
# of every undescribed program's use)
_LONG_SECRET_WORDS = literals(s for s in READ_VERBS.secret_words if len(s) >= 6)


def _secret_word(word: str) -> bool:
    return not READ_VERBS.secret_words.isdisjoint(_PARTS.split(word)) or \
        (_LONG_SECRET_WORDS is not None and _LONG_SECRET_WORDS.search(word) is not None)


_DRIVE = re.compile(r"^[a-z]:")


def _outside_project(path: str) -> bool:
    """A file named outside the project: absolute, in a home, a drive, climbing out, or a variable's."""
    p = path.replace("\\", "/")
    return p.startswith(("/", "~", "$", "%")) or ".." in p.split("/") or bool(_DRIVE.match(p))


def _reading_verb(name: str, args: tuple[str, ...], redirects: tuple[tuple[str, str], ...],
                  extra: frozenset[str] = frozenset()) -> str | None:
    """The reading sub-command verb this use of an undescribed program is, else None (module docstring, 6.)."""
    if not READ_VERBS.verbs or name in READ_VERBS.never:
        return None
    # the verb the operands would make it first (most uses have none: no word of the use needs reading then), then
    # every condition that still makes it none
    verb = _verb_candidate(args, extra)
    if verb is None or _secret_word(name):
        return None
    for op, target in redirects:
        if not (op.startswith("<") or target.isdigit() or target.startswith("&") or target in _QUIET_SINKS) and \
                _outside_project(target):
            return None
    for k, a in enumerate(args):
        if a == "--" or _REMOTE_WORD.search(a) or _NETWORK_TARGET.match(a):
            return None  # another program's command line follows, or a host is named
        if a.startswith("-"):
            base = a.split("=", 1)[0]
            if base in _CODE_WORDS or base in READ_VERBS.unless or base in _DRY:
                return None
            if base in READ_VERBS.write_flags:
                value = a.split("=", 1)[1] if "=" in a else (args[k + 1] if k + 1 < len(args) else "")
                if _outside_project(value):
                    return None
        if _secret_word(a):
            return None
    if risky_destination(args):
        return None
    return verb


def _verb_candidate(args: tuple[str, ...], extra: frozenset[str]) -> str | None:
    """The reading verb (or listing flag) among the operands of `args`, before `_reading_verb`'s other conditions."""
    operands = _operands_after_values(args)
    if any(o in READ_VERBS.changing for o in operands):
        return None
    for k, o in enumerate(operands[:3]):
        verb = o if o in READ_VERBS.verbs or o in extra else next((o for p in READ_VERBS.prefixes if o.startswith(p) and
                                                     len(o) > len(p)), None)
        if verb is not None:
            if verb == "get" and any(_FETCHED.search(w) for w in operands[k + 1:]):
                return None  # `tool get github.com/x/y`: a fetch, not a look
            return verb
        if not _NOUN.fullmatch(o):
            return None  # a path, a number, a quoted phrase: not a noun word before the verb
    if all(_NOUN.fullmatch(o) for o in operands):  # `tool --list-devices`, `tool --show-config`: a listing flag
        return next((f for a in args if a.startswith("--") and
                     any((f := a.split("=", 1)[0]) == p or f.startswith(p + "-") for p in READ_VERBS.flags)), None)
    return None


_NOUN = re.compile(r"[a-z][a-z0-9_-]*")


def reading_verb(name: str, args: tuple[str, ...], redirects: tuple[tuple[str, str], ...] = ()) -> str | None:
    """The reading sub-command verb (convention 6.) `args` (folded, after the program) start with, else None:
    the shell rules use it for a described program run as root (`sudo tool status`)."""
    return _reading_verb(name, args, redirects)


class ReadingUses(NamedTuple):
    target_first: frozenset[str]  # programs whose first operand is what they act on: never read as a verb
    changing: frozenset[str]  # verbs that change something, beyond [read_verbs] changing
    usage_values: frozenset[str]  # a flag's value that makes the program list what the flag accepts
    verbs: frozenset[str] = frozenset()  # verbs that print, beyond [read_verbs] verbs, for a described program
    help_last: frozenset[str] = frozenset()  # programs for which a last `help` is the help page, whatever precedes


_READING_USE_KEYS = frozenset({"target_first", "changing", "usage_values", "verbs", "help_last", "example"})


def load_reading_uses(data: dict) -> ReadingUses:
    """The [reading_uses] table of a program table (convention 8. below); a malformed one raises ValueError."""
    spec = data.get("reading_uses", {})
    if set(spec) - _READING_USE_KEYS:
        raise ValueError(f"programs.toml [reading_uses]: unknown keys {sorted(set(spec) - _READING_USE_KEYS)}")
    if set(spec.get("changing", ())) & (READ_VERBS.verbs | set(spec.get("verbs", ()))):
        raise ValueError("programs.toml [reading_uses]: a verb cannot both read and change")

    def words(key: str) -> frozenset[str]:
        return frozenset(w.lower() for w in spec.get(key, ()))

    return ReadingUses(words("target_first"), words("changing"), words("usage_values"), words("verbs"),
                       words("help_last"))


READING_USES = load_reading_uses(DATA)
# effects whose operands are files: a word there is a file's name (`rm logs`), never a verb
_FILE_EFFECTS = frozenset({"read", "write", "delete", "chmod"})
_ASKS_USAGE = frozenset({"/?", "-?"})
_BARE_SWITCH = re.compile(r"/[a-z][a-z0-9-]*")  # a Windows switch with no value (`schtasks /create /?`)


def _plain_program(cmd: Command) -> bool:
    """The program itself, found by name or in a system folder, with every word known, on this machine."""
    if not cmd.argv or cmd.dynamic or cmd.remote or cmd.found or cmd.stdin_text is not None:
        return False
    first = cmd.argv[0]
    return ("/" not in first and "\\" not in first) or bool(_INSTALLED.match(first))


def _quiet_redirects(redirects: tuple[tuple[str, str], ...]) -> bool:
    return all(op.startswith("<") or target.isdigit() or target.startswith("&") or target in _QUIET_SINKS
               for op, target in redirects)


def usage_print(cmd: Command, effects: frozenset[str] | None) -> str | None:
    """8a. Why a use of a described program only prints what it accepts, else None: Windows' `/?` after
    sub-command words (`taskkill /?`); `help` as a flag's value (`systemctl kill --signal help` lists the
    signals) or after sub-command words (`aws s3 cp help`), for a program whose operands are not files nor the
    thing it acts on; a listing flag alone (`killall --list`, `sgdisk --list-types`). `tool --help` and
    `tool --version` are the shell rules' own (gate/rules/shell_vocab.py `_prints_usage`)."""
    args = cmd.words[1:]
    if not args or len(args) > 5 or not _plain_program(cmd) or not _quiet_redirects(cmd.redirects):
        return None
    last, before = args[-1], args[:-1]
    if last in _ASKS_USAGE and all(_SUBCOMMAND.fullmatch(a) or _BARE_SWITCH.fullmatch(a) for a in before):
        return "prints its usage and exits (/?)"
    if last == "-help" and before and all(_SUBCOMMAND.fullmatch(a) for a in before):
        # (Go's flag package: `terraform apply -help`; after a sub-command word only, where no letters combine)
        return "prints the sub-command's usage and exits (-help)"
    if len(args) == 1 and effects is not None and not _secret_word(last) and \
            (last in ("--list", "--list-all") or last.startswith(("--list-", "--help-"))):
        return f"`{last}` alone lists what the program accepts and exits"
    if last not in READING_USES.usage_values or effects is None or effects & _FILE_EFFECTS or \
            cmd.name in READING_USES.target_first:
        return None
    if before and len(before) <= 2 and before[-1].startswith("--") and "=" not in before[-1] and \
            "net" not in effects and all(_SUBCOMMAND.fullmatch(a) for a in before[:-1]):
        # (after one sub-command word at most: `systemctl kill --signal help`, not `apt-get install pkg
        # --target-release help`; and not for a program that reaches a service, where the flag may be an identity)
        return f"`{before[-1]} {last}` lists the values the flag accepts"
    if before and cmd.name in READING_USES.help_last and all(_SUBCOMMAND.fullmatch(a) for a in before):
        return "prints the sub-command's help page (its help command comes last)"
    if before and all(_SUBCOMMAND.fullmatch(a) and a not in READ_VERBS.changing and a not in READING_USES.changing
                      for a in before):
        # (`kubectl delete pod help` deletes a pod called help: no changing verb before the word)
        return "prints the sub-command's help page"
    return None


def described_mode(cmd: Command) -> str | None:
    """The why of a [[no_change]] mode marked `described` this use of the program itself is in, else None."""
    return _named(cmd.name, cmd.words, described=True) if _plain_program(cmd) else None


def _changing_word(word: str) -> bool:
    """A verb that changes something, alone or leading a hyphenated sub-command (`create-export-task`)."""
    head = word.split("-", 1)[0]
    return any(w in READ_VERBS.changing or w in READING_USES.changing for w in (word, head))


def described_reading(cmd: Command, effects: frozenset[str] | None) -> str | None:
    """8b. Why a use of a program the table describes only reads or shows, else None: a [[no_change]] mode named
    for it (`kubectl annotate pod web --list`, `forfiles /p logs /m *.log` with no `/c`), or a reading
    sub-command by convention 6 (`cloudflared tunnel list`, `az tag list`, `zrok status`, `frpc verify`). The
    table's entry judges what the program's other verbs do; a reading verb does none of it. Convention 6 is
    read more strictly here, since the program is known to do something: its operands are not files (`rm logs`
    deletes a folder called logs) nor the thing it acts on (`userdel status`, `ssh status`); every flag is taken
    to have a value (`--allow view` is no verb); no operand is a changing verb, alone or leading a hyphenated
    one (`launchctl load list`, `aws logs create-export-task`); the program's own name is no changing verb
    (`Install-Module x -RequiredVersion 2`); and a listing flag counts only alone (convention 8a)."""
    if not _plain_program(cmd):
        return None
    why = described_mode(cmd)
    if why is not None:
        return why
    if effects is None or effects & _FILE_EFFECTS or cmd.name in READING_USES.target_first or \
            _changing_word(cmd.name):
        return None
    args = cmd.words[1:]
    operands = [w for k, w in enumerate(args) if not w.startswith("-") and not (k and args[k - 1].startswith("-")
                                                                               and "=" not in args[k - 1])]
    if not operands or any(_changing_word(o) for o in operands):
        return None
    verb = _reading_verb(cmd.name, args, cmd.redirects, READING_USES.verbs)
    if verb is None or verb.startswith("-") or verb not in operands[:3]:
        return None
    if verb == "get" and any(_FETCHED.search(a) for a in args if not a.startswith("-")):
        return None  # `go get -u example.com/pkg`: a fetch, whatever the flag before it
    return f"`{verb}` is a sub-command that only reads or shows, by the convention of command-line programs"
