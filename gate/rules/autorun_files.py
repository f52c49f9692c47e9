"""Rules: a file that starts something by itself, a CI pipeline, an infrastructure file or a system-looking file,
judged by what is written into it (gate/autorun.py reads them).

`confirm.files.runs-later` asks for every file written where it runs later. These refuse the members of that
class whose content says what they are for:

- `block.files.autostart-script`: a launchd job, a systemd unit, an autostart entry, a cron table, a coding agent's
  hook (Claude Code, Gemini CLI, Cursor, Copilot, Windsurf, Kiro, Codex), an editor task run when the folder opens,
  a dev container's start command, a git hook or a direnv file whose command runs a script kept where the agent
  writes (home, working, hidden or temporary folder, a script's own suffix), or fetches code and runs it: whatever
  the agent puts in that script later starts by itself (ATT&CK T1543, T1547, T1053). A git hook, a dev container
  and a direnv file running the project's own scripts is their ordinary use and only asks.
- `block.files.startup-sabotage`: a shell's start-up file (`.bashrc`, `.zshrc`, `.profile`, fish's config, a
  PowerShell profile) written with a power-off, a restart, a kill of the session or of every process, a wipe, a
  fork loop or an `exit` at its top level: every terminal the person opens dies or takes the machine with it.
- `block.files.ci-attack`: a CI pipeline (GitHub Actions, GitLab, CircleCI, Azure, Jenkins, Bitbucket, Drone,
  Buildkite...) written to dump every secret (`toJSON(secrets)`, the environment piped out, a secret encoded past
  the log's masking), to send to a request catcher, tunnel or paste site, to run the text of an issue, a comment,
  a pull request or a branch name as code, or to register a machine as the repository's runner.
- `block.files.iac-state-tamper` / `confirm.files.iac-outside-code`: a Terraform state written by hand blocks;
  a module from a repository or an address outside the registry, a provider from a namespace the registry does
  not vouch for, and `nonsensitive()` of a secret ask.
- `block.files.vendor-masquerade`: a file named as the OS vendor's own (`com.apple.*`, Apple's daemons, a
  `systemd-*` program, a kernel thread, a Windows system process or a name one letter off one) written where the
  vendor never puts it (ATT&CK T1036.005).
- `block.shell.autorun-write`: the same files written from the shell (`echo`, `printf`, `tee`, a here-document).
"""

from __future__ import annotations

import re

from gate.autorun import (
    autostart,
    ci_attack,
    fetch_run,
    iac_risk,
    is_ci,
    plain_ci,
    playbook_commands,
    sabotage,
    vendor_masquerade,
    writable_script,
)
from gate.content import files_written
from gate.model import Risk
from gate.paths import file_facts
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.files import _targets, _text_of
from gate.rules.shell_vocab import SHELL_TYPES
from gate.shell import command_facts

__all__ = ["RULES", "ci_is_plain", "written_verdict"]


def _collectors(ctx: Context) -> frozenset[str]:
    from gate.catalogue import DATA

    hosts = set(ctx.compiled.collector_hosts)
    hosts.update(h for h in DATA.get("data_out", {}).get("sharing_hosts", ()) if "/" not in h)
    return frozenset(h.lower() for h in hosts)


def written_verdict(ctx: Context, path: str, content: str) -> str | None:
    """Why `content` written at `path` blocks, by what it starts, leaks or runs (classes of this module), or None."""
    if not content:
        return None
    entry = autostart(path, content)
    if entry is not None:
        for command in entry.commands[:100]:
            if not command.strip() or command.lstrip().startswith("#"):
                continue
            if (fetched := fetch_run(command)) is not None:
                return f"{path} is a {entry.kind}: it starts `{fetched[:60]}`, code fetched and run at each start"
            if (script := writable_script(command, entry.project_ok)) is not None:
                return f"{path} is a {entry.kind}: it starts {script[:70]}, a script kept where the agent writes: " \
                       "whatever is put in it later runs by itself"
    if (why := sabotage(path, content)) is not None:
        return f"{path} is a shell's start-up file: {why}"
    if is_ci(path) and (why := ci_attack(path, content, _collectors(ctx))) is not None:
        return f"{path} is a CI pipeline that {why}"
    block, _ = iac_risk(path, content)
    if block is not None:
        return block
    commands = playbook_commands(path, content)
    if commands:
        from gate.model import Shell
        from gate.rules.typed import judge_as

        hit, _ = judge_as(Shell(command="\n".join(commands)), ctx)
        if hit is not None:
            return f"{path} is a playbook whose tasks run on the machines it manages: {hit.reason}"
    return None


def _paths(ctx: Context) -> list[str]:
    """The destination of a write or move: as written (`\\` read as `/`) and resolved."""
    facts = ctx.derived(file_facts)
    if facts is None:
        return []
    if ctx.type == "file_move":
        raw, real = facts.to_raw, facts.to_real
    else:
        raw, real = facts.raw, facts.real
    out = []
    for p in (raw, real):
        if p and p.replace("\\", "/") not in out:
            out.append(p.replace("\\", "/"))
    return out


def _file_block(ctx: Context) -> str | None:
    content = getattr(ctx.action, "content", None) or ""
    if ctx.type == "file_move":
        from gate.rules.content import content_verdict  # what the agent wrote to the source in this session

        content = ctx.derived(content_verdict).content or ""
    if not content:
        return None
    for path in _paths(ctx):
        if (why := written_verdict(ctx, path, content)) is not None:
            return why
    return None


@rule("block.files.autorun-content", "A file that starts by itself, a CI pipeline or a start-up file written to "
      "run the agent's script, leak secrets or sabotage", risk=Risk.CRITICAL, types=("file_write", "file_move"))
def autorun_content(ctx: Context) -> CheckResult:
    """A launchd job, systemd unit, autostart entry, cron table, coding agent's hook, folder-open editor task, dev
    container start command, git hook or direnv file whose command runs a script kept where the agent writes, or
    fetches code and runs it; a shell's start-up file or PowerShell profile written with a power-off, a kill of the
    session, a wipe, a fork loop or a top-level `exit`; a CI pipeline written to dump every secret, send to a request
    catcher or paste site, run an issue's, comment's or branch's text as code, or register a runner; a Terraform
    state written by hand; an Ansible playbook or Pulumi YAML program whose tasks run what the shell rules block. A
    file written in this session and moved into such a place is judged the same. Each runs later, unseen, or hands
    the project's secrets or its real resources over."""
    return ctx.derived(_file_block)


def _iac_confirm(ctx: Context) -> str | None:
    content = getattr(ctx.action, "content", None) or ""
    if ctx.type != "file_write" or not content:
        return None
    for path in _paths(ctx):
        block, confirm = iac_risk(path, content)
        if block is None and confirm is not None:
            return f"{path} {confirm}"
    return None


@rule("confirm.files.iac-outside-code", "Terraform written to load code from outside the registry or print a secret",
      risk=Risk.HIGH, types=("file_write",))
def iac_outside_code(ctx: Context) -> CheckResult:
    """A Terraform file written with a module sourced from a git, ssh or web address (not the registry, not a local
    folder), a provider from a namespace the registry does not vouch for (`source = "someone/thing"`), or an output
    of `nonsensitive(var.secret)`: the module's and the provider's code run with the cloud keys at init, plan and
    apply, and the secret lands in every plan's log."""
    return _iac_confirm(ctx)


@rule("block.files.vendor-masquerade", "A file named as the operating system's own, where the system never puts it",
      risk=Risk.CRITICAL, types=("file_write", "file_move"))
def vendor_masquerade_rule(ctx: Context) -> CheckResult:
    """A file written or moved to a path whose name wears the OS vendor's: `com.apple.*` or an Apple daemon's name in
    /Library, /Users/Shared, a temporary or hidden folder or the user's caches; a `systemd-*` program outside
    systemd's folders; a kernel thread's name (`kworker`, `kswapd0`); a system daemon's name in a temporary or hidden
    folder; a Windows system process's name (`svchost`, `lsass`...) or one a letter off it outside Windows' own
    folders. A process started from it hides among the system's (ATT&CK T1036.005)."""
    for path in _paths(ctx):
        if (why := vendor_masquerade(path)) is not None:
            return why
    return None


def ci_is_plain(ctx: Context) -> bool:
    """The file written is a GitHub Actions workflow of the project that only builds, lints and tests."""
    facts = ctx.derived(file_facts)
    content = getattr(ctx.action, "content", None) or ""
    if ctx.type != "file_write" or facts is None or not facts.in_sandbox or not content:
        return False
    return plain_ci(facts.raw.replace("\\", "/"), content) and _file_block(ctx) is None


_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1[^\n]*\n(.*?)^\s*\2\s*$", re.S | re.M)


def _heredoc(source: str) -> str:
    """The body of the one here-document of a line the shell reader did not attach to its command."""
    found = _HEREDOC.findall(source[:100_000])
    return found[0][2] if len(found) == 1 else ""


def _shell_block(ctx: Context) -> str | None:

    analysis = ctx.derived(command_facts)
    if analysis is None:
        return None

    for path in files_written(analysis):  # a download's output, a copy's or a move's destination, a redirect
        if (why := vendor_masquerade(path.strip("'\"").replace("\\", "/"))) is not None:
            return why
    if "redirect" not in analysis.features and "tee" not in analysis.source and \
            "-content" not in analysis.source.lower():
        return None
    for cmd in analysis.commands:
        targets = _targets(cmd)
        if not targets:
            continue
        text = _text_of(cmd, analysis).replace("\\n", "\n").replace("\\t", "\t")
        if not text.strip() and "heredoc" in analysis.features and cmd.name in ("cat", "tee"):
            text = _heredoc(analysis.source)
        for target in targets:
            path = target.strip("'\"").replace("\\", "/")
            if (why := vendor_masquerade(path)) is not None:
                return why
            if text.strip() and (why := written_verdict(ctx, path, text)) is not None:
                return why
    return None


@rule("block.shell.autorun-write", "A shell write of a file that starts by itself, a CI pipeline or a start-up file "
      "that runs the agent's script, leaks secrets or sabotages", risk=Risk.CRITICAL, types=SHELL_TYPES, needs="line")
def shell_autorun_write(ctx: Context) -> CheckResult:
    """`echo`, `printf`, `tee`, `Add-Content` or a here-document writing what `block.files.autorun-content` and
    `block.files.vendor-masquerade` refuse as a file: `echo 'shutdown -h now' >> ~/.zshrc`, a launchd job running a
    script in home, a workflow sending `toJSON(secrets)` out; and a download, copy or move that names its file as the
    system's own (`curl -o /Library/Caches/com.apple.x`, `cp x /tmp/.cache/kworker`)."""
    return ctx.derived(_shell_block)


RULES: tuple[Rule, ...] = (autorun_content, iac_outside_code, vendor_masquerade_rule, shell_autorun_write)
