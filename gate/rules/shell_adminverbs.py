"""Shell checks: what a command's names say it does when no program's table can.

Part of the shell Detector (gate/rules/shell.py), called per simple command:

- a named remote tool called from the shell: an MCP client (`mcpcurl ... tools merge_pull_request`, `mcptools call
  delete_file`, the MCP inspector's `--method tools/call --tool-name X`) runs the tool its words name on another
  service. The tool's name is judged as a tool call is (gate/rules/system.py: a tool that sends, merges or posts,
  or one that deletes, wipes or pays, asks); reading tools (`get_file_contents`, `list_issues`) pass.
- a local script whose file name announces its effect: `send_email.py --recipient ...`, `delete_all_users.py`,
  `post_tweet.py`, `transfer_funds.py` ask; a script named for switching off a protection
  (`disable-windows-defender.ps1`, `kill_edr.sh`) blocks. The name's words are read with the tool-name verbs of
  gate/rules/system.py and the consequence book of resources/cues.toml (what a button labelled so would commit to).
- a backup's content streamed out: `borg export-tar ARCHIVE - | curl ...`, `restic dump latest / | ssh ...`, `borg
  extract --stdout | nc ...` hand the whole backup to the program on the right: data out, as a database dump is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING

from gate.catalogue import DATA as _TABLE
from gate.catalogue import risky_destination
from gate.consequence import consequence
from gate.model import Risk
from gate.rules import system as _tools
from gate.rules.shell_staging import _purpose_words, _script_run
from gate.shell import NET_SENDERS, Command, Finding, ShellAnalysis

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["MCP_CLIENTS", "judge", "mcp_tool_name", "script_purpose"]

Add = Callable[[Finding], None]

_SPEC = _TABLE.get("adminverbs", {})

# -- a named remote tool called from the shell ------------------------------------------------------------------

# MCP clients of the shell, and how each names the tool it calls: the word after one of their verbs (`mcptools call
# X`, `mcpcurl ... tools X`, `mcp-cli call-tool server:X`), or the value of a tool-name option (`--tool-name X`)
MCP_CLIENTS = frozenset(_SPEC.get("mcp_clients", ()))
_MCP_VERBS = frozenset(_SPEC.get("mcp_call_verbs", ()))
_MCP_TOOL_FLAGS = frozenset(_SPEC.get("mcp_tool_flags", ()))
_MCP_NAME = re.compile(r"^[A-Za-z][\w.:/-]{0,120}$")


def mcp_tool_name(cmd: Command) -> str | None:
    """The tool an MCP client's command line calls by name, or None (a listing, a server started, no tool)."""
    argv = cmd.argv
    for k, a in enumerate(argv[1:], start=1):
        flag, eq, value = a.partition("=")
        if flag in _MCP_TOOL_FLAGS:
            name = value if eq else (argv[k + 1] if k + 1 < len(argv) else "")
            return name if _MCP_NAME.match(name) else None
    words = [a.lower() for a in argv]
    for k, w in enumerate(words[1:], start=1):
        if w in _MCP_VERBS and k + 1 < len(argv) and _MCP_NAME.match(argv[k + 1]) and \
                not argv[k + 1].startswith("-"):
            return argv[k + 1]
    return None


def _tool_verdict(name: str) -> tuple[str, str] | None:
    """(rule, reason) when a tool of this name sends, merges, posts, deletes, wipes or pays (the tool-call rules of
    gate/rules/system.py, given the name alone)."""
    probe = SimpleNamespace(action=SimpleNamespace(name=name, input={}))
    if why := _tools.tool_destructive.check(probe):  # type: ignore[arg-type]
        return "confirm.shell.destructive", why
    if why := _tools.tool_sends.check(probe):  # type: ignore[arg-type]
        return "confirm.shell.remote-mutation", why
    return None


def _mcp_call(cmd: Command, where: str, add: Add) -> None:
    name = mcp_tool_name(cmd)
    if name and (verdict := _tool_verdict(name)):
        add(Finding(verdict[0], Risk.HIGH, f"{cmd.name} calls the remote {verdict[1]}{where}", cmd.span))


# -- a local script whose name says what it does ----------------------------------------------------------------

# words of a name that make it a module, a library or a tool set rather than one act (`email_client.py`,
# `message_parser.py`, `tool_manager.py`), and objects a clean-up script removes that are regenerated anyway
_MODULE_WORDS = frozenset(_SPEC.get("module_words", ()))
_REGENERATED = frozenset(_SPEC.get("regenerated_objects", ()))
# what a protection is called in a name (`defender`, `edr`, `amsi`, `firewall`, a product's name)
_PROTECTIONS = frozenset(_SPEC.get("protections", ()))
_ALONE = frozenset(_SPEC.get("protections_alone", ()))
_OFF_VERBS = frozenset(_SPEC.get("protection_off_verbs", ()))
# the consequence kinds of resources/cues.toml a script's name may say it commits to
_ASKING_KINDS = frozenset(_SPEC.get("asking_consequences", ()))
# the tool-name verbs that read (gate/rules/system.py): a name that starts with one only looks
_LOOKS = _tools._READ_VERBS


def _protection_off(words: list[str]) -> str | None:
    """`disable_windows_defender`, `kill-edr`, `amsi_bypass`, `defender_off`: a verb of switching off beside a
    protection's name."""
    hit = next((w for w in words if w in _PROTECTIONS), None)
    if hit is None and len(words) == 2 and words[1] in _ALONE:
        hit = words[1]
    if hit is None:
        return None
    off = next((w for w in words if w in _OFF_VERBS), None)
    if off is None and words[-1] not in ("off", "bypass", "killer", "disabler", "remover", "blinder"):
        return None
    return f"{off or words[-1]} {hit}"


# tests, detectors and checks named for the act they look for (`test_send_email`, `detect_firewall_off`)
_AGAINST_NAME = re.compile(r"(?:^|_)(?:tests?|spec|detect(?:or|ion|s)?|scan(?:ner)?|check(?:er|s)?|audit|verify|mock|"
                           r"fake|dummy|demo|example|sample|simulat(?:e|ion|or)|dry|preview|draft|status)(?:_|$)")
# verbs that are also nouns or prefixes in names (`post_process`, `comment_stripper`, `merge_weights`, `mail_merge`):
# they count only before the objects listed for them in programs.toml
_QUALIFIED = {k: frozenset(v) for k, v in _SPEC.get("qualified_verbs", {}).items()}
_NOUNS = frozenset(_SPEC.get("noun_verbs", ()))


def _first_verb(words: list[str]) -> int | None:
    """Where the name's verb is: the first word that is a verb of the tool-name vocabularies, skipping the words
    that are nouns there (`email_send_email`: the service's name, then its verb)."""
    for i, w in enumerate(words):
        if w in _NOUNS:
            continue
        if w in _QUALIFIED:
            if i + 1 < len(words) and words[i + 1] in _QUALIFIED[w]:
                return i
            continue
        if w in _LOOKS or w in _tools._SEND_VERBS or w in _tools._MAKE_VERBS or w in _tools._DESTRUCTIVE:
            return i
    return None


def script_purpose(script: str) -> tuple[str, Risk, str] | None:
    """(rule, risk, what) when a script's file name says it sends, deletes, pays, publishes or switches off a
    protection; None for a name that names a module or a test, or only looks."""
    joined = _purpose_words(script)
    if not joined or _AGAINST_NAME.search(joined):
        return None
    words = joined.split("_")
    if (off := _protection_off(words)) is not None:
        return "block.shell.defense-evasion", Risk.CRITICAL, f"switches off a protection ({off})"
    if len(words) < 2 or _REGENERATED.intersection(words):
        return None
    first = _first_verb(words)
    if first is None or words[first] in _LOOKS or first + 1 >= len(words):
        plain = first is None and not any(w in _NOUNS or w in _QUALIFIED for w in words)
        found = consequence(" ".join(words)) if plain else None
        if found is not None and found.kind in _ASKING_KINDS and words[-1] not in _MODULE_WORDS:
            return "confirm.shell.destructive", Risk.HIGH, f"commits to {found.kind} ({found.quote})"
        return None
    rest = words[first + 1:]
    if (rest[-1] in _MODULE_WORDS or rest[-1].rstrip("s") in _MODULE_WORDS) and words[first] not in _tools._DESTRUCTIVE:
        return None  # `email_client`, `message_parser`, `deploy_config`: a module, not an act
    verdict = _tool_verdict("_".join(words[first:]))
    if verdict is None:
        return None
    what = "deletes, wipes, stops or pays" if verdict[0] == "confirm.shell.destructive" else \
        "sends, posts, publishes or merges"
    return verdict[0], Risk.HIGH, f"{what} ({' '.join(words[first:first + 3])})"


def _named_script(cmd: Command, where: str, add: Add) -> None:
    script = _script_run(cmd)
    if not script:
        return
    if script == (cmd.argv[0] if cmd.argv else "") and "/" not in script and "\\" not in script and \
            "." not in script:
        return  # a program found by name: its table entry judges it, not its name's words
    verdict = script_purpose(script)
    if verdict is not None:
        rule, risk, what = verdict
        add(Finding(rule, risk, f"runs {script[-80:]}, a script whose name says it {what}{where}", cmd.span))


# -- a backup's content streamed out -----------------------------------------------------------------------------

_STREAMERS = {p: re.compile(rx) for p, rx in _SPEC.get("backup_streams", {}).items()}
_REMOTE_SHELLS = frozenset({"ssh", "autossh", "plink", "dbclient"})


def _streamed_backup(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """The backup command upstream of `cmd` that writes an archive's content to its output, or None."""
    for i in cmd.upstream:
        up = analysis.commands[i]
        rx = _STREAMERS.get(up.name)
        if rx is not None and rx.search(" ".join(up.argv[1:]).lower()):
            return up.name
    return None


def _backup_out(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    if not cmd.upstream or (cmd.name not in NET_SENDERS and cmd.name not in _REMOTE_SHELLS):
        return
    tool = _streamed_backup(cmd, analysis)
    if tool is None:
        return
    dest = risky_destination(tuple(cmd.words[1:]))
    if dest:
        add(Finding("block.shell.exfiltration", Risk.CRITICAL, f"sends a backup's content ({tool}) to {dest}, a "
                    f"bare address or a file-drop site ({cmd.name}){where}", cmd.span))
    else:
        add(Finding("confirm.shell.network", Risk.HIGH, f"sends a backup's content ({tool}) to another machine "
                    f"({cmd.name}){where}", cmd.span))


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """The checks of this module for one simple command (the caller has tested `wanted`)."""
    if cmd.name in MCP_CLIENTS:
        _mcp_call(cmd, where, add)
    if cmd.upstream:
        _backup_out(cmd, analysis, where, add)
    _named_script(cmd, where, add)


_SCRIPT_SUFFIX = re.compile(r"\.(?:py|js|mjs|cjs|ts|rb|pl|php|sh|bash|zsh|ps1|bat|cmd|vbs)$", re.I)


def wanted(cmd: Command) -> bool:
    """One cheap test before `judge`: an MCP client, a command fed by a pipe, a script run by its path or name."""
    argv0 = cmd.argv[0] if cmd.argv else ""
    return cmd.name in MCP_CLIENTS or bool(cmd.upstream) or "/" in argv0 or "\\" in argv0 or \
        _SCRIPT_SUFFIX.search(argv0) is not None or any(_SCRIPT_SUFFIX.search(a) for a in cmd.argv[1:6])
