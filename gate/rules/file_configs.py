"""Rules: project and tool files judged by what their content makes happen, and when (resources/config_files.toml).

A CI pipeline, a pre-commit config, an editor's tasks or a dev container runs commands later, unseen; most of them
only build and test. `plain_config` tells those apart so `confirm.files.runs-later` and
`confirm.files.tool-runs-command` keep asking for the rest. The rules here refuse the members whose content says
what they are for:

- `block.files.tool-hook-blocked`: a release tool's hook, a scheduler's job, a container workload or a terminal
  UI's plug-in whose command the shell rules block (a reverse shell, code fetched and run, a key read out).
- `confirm.files.release-hook`: a release tool's hook that runs anything but a build or test program.
- `block.files.pipeline-host-root`: a CI step that mounts the runner host's root, home or system folders.
- `block.files.build-script-leak`: a build script that reads a key or a secret and talks to another machine.
- `block.files.sql-runs-program`: SQL written to run a server-side shell command that reaches the network.
- `confirm.files.iac-trust-outside` / `confirm.files.iac-state-elsewhere`: Terraform written to let another
  account assume an administrator role, or to keep the state (and its secrets) on a web address.
- `confirm.files.client-credentials-read`: reading a client program's settings that hold its token inline.
"""

from __future__ import annotations

import functools
import itertools
import re
from importlib import resources

from gate import regex_store
from gate.model import Risk, Shell
from gate.paths import file_facts
from gate.prefix import Guarded
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES", "plain_config"]

_MAX = 100_000


_DATA = regex_store.toml(resources.files("resources").joinpath("config_files.toml").read_text("utf-8"))


def _rx(patterns: list[str] | str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    if isinstance(patterns, str):
        patterns = [patterns]
    return re.compile("|".join(f"(?:{p})" for p in patterns), flags)


_PIPELINES = _rx(_DATA["pipelines"]["paths"])
_PIPELINE_NOT_PLAIN = _rx(_DATA["pipelines"]["not_plain"], re.IGNORECASE | re.MULTILINE)
_PRECOMMIT = re.compile(r"(?:^|/)\.pre-commit-config\.ya?ml$", re.IGNORECASE)
_PUBLISHERS = frozenset(p.lower() for p in _DATA["precommit"]["publishers"])
_FLOATING = frozenset(_DATA["precommit"]["floating_revs"])
_INERT = frozenset(_DATA["precommit"]["inert_languages"])
_GUARDS = frozenset(_DATA["precommit"]["guard_hooks"])
_HOOK_ID = re.compile(r"^\s*-?\s*id\s*:\s*['\"]?([\w.-]+)", re.MULTILINE)
_TASKS = re.compile(r"(?:^|/)\.vscode/tasks\.json$", re.IGNORECASE)
_DEVCONTAINER = re.compile(r"(?:^|/)\.?devcontainer(?:/[^/]+)?/devcontainer\.json$|(?:^|/)\.devcontainer\.json$",
                           re.IGNORECASE)
_DEVCONTAINER_NOT_PLAIN = _rx(_DATA["devcontainer"]["not_plain"])
_FEATURE_SOURCES = tuple(_DATA["devcontainer"]["feature_sources"])
_FETCH = re.compile("|".join(f"(?:{p})" for p in _DATA["devcontainer"]["fetch_commands"]))
_CREATE_KEYS = ("onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand",
                "postAttachCommand")
_STEP_SPLIT = re.compile(r"&&|\|\||;|\|")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")


@functools.cache
def _plain_programs() -> frozenset[str]:
    from gate.catalogue import DATA

    return frozenset(DATA.get("autorun", {}).get("ci_plain_programs", ()))


def _plain_command(command: str) -> bool:
    """Every piece of `command` starts a build, test or packaging program (the CI table's plain programs)."""
    programs = _plain_programs()
    for segment in _STEP_SPLIT.split(command):
        words = segment.split()
        while words and _ASSIGNMENT.match(words[0]):
            words = words[1:]
        if words and (words[0] not in programs or words == ["set"]):
            return False
    return True


def _plain_pipeline(content: str) -> bool:
    from gate.content import _yaml_commands

    if _PIPELINE_NOT_PLAIN.search(content):
        return False
    steps = [(m.group(1) if (m := _ITEM.match(c)) else c) for c in _yaml_commands(content) if c.strip()]
    return bool(steps) and all(_plain_command(s) for s in steps)


_REPO = re.compile(r"^\s*-?\s*repo\s*:\s*['\"]?([^\s'\"#]+)", re.MULTILINE)
_REV = re.compile(r"^\s*-?\s*rev\s*:\s*['\"]?([^\s'\"#]+)", re.MULTILINE)
_LANGUAGE = re.compile(r"^\s*-?\s*language\s*:\s*['\"]?([\w-]+)", re.MULTILINE)
_GIT_HOST = re.compile(r"^https://(?:github\.com|gitlab\.com)/([\w.-]+)/[\w.-]+?(?:\.git)?/?$", re.IGNORECASE)


def _plain_precommit(content: str) -> bool:
    """Hooks only from the everyday publishers, each at a fixed revision; local hooks only match text; and a
    secret or key scan among them (a list without one may be the old one with its scan dropped)."""
    repos = _REPO.findall(content)
    if not repos or not _GUARDS & set(_HOOK_ID.findall(content)):
        return False
    for repo in repos:
        if repo in ("local", "meta"):
            continue
        m = _GIT_HOST.match(repo)
        if m is None or m.group(1).lower() not in _PUBLISHERS:
            return False
    if any(rev.lower() in _FLOATING for rev in _REV.findall(content)):
        return False
    return "local" not in repos or set(_LANGUAGE.findall(content)) <= _INERT


def _json(content: str) -> object:
    from gate.autorun import _json as read

    return read(content)


def _plain_tasks(content: str) -> bool:
    """No task runs when the folder opens, and every task runs a build or test program."""
    if "folderopen" in content.lower():
        return False
    data = _json(content)
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, list):
        return False
    for task in tasks:
        if not isinstance(task, dict):
            return False
        command = task.get("command", "")
        args = task.get("args", [])
        if not isinstance(command, str) or not isinstance(args, list):
            return False
        if command and not _plain_command(" ".join([command, *map(str, args)])):
            return False
    return True


def _plain_devcontainer(content: str) -> bool:
    """Create commands that only fetch the dependencies the project's lock file or manifest names, inside the
    container; published features only."""
    if _DEVCONTAINER_NOT_PLAIN.search(content):
        return False
    data = _json(content)
    if not isinstance(data, dict):
        return False
    features = data.get("features") or {}
    if not isinstance(features, dict) or not all(f.startswith(_FEATURE_SOURCES) for f in features):
        return False
    for key in _CREATE_KEYS:
        value = data.get(key)
        if value is None:
            continue
        commands = value.values() if isinstance(value, dict) else [value]
        for command in commands:
            text = " ".join(map(str, command)) if isinstance(command, list) else command
            if not isinstance(text, str) or not all(_FETCH.fullmatch(" ".join(part.split()))
                                                    for part in _STEP_SPLIT.split(text) if part.strip()):
                return False
    return True


def plain_config(ctx: Context) -> bool:
    """The file written is a project's own pipeline, pre-commit config, editor tasks or dev container that only
    fetches dependencies, builds, lints and tests (GitHub workflows are `autorun_files.ci_is_plain`)."""
    facts = ctx.derived(file_facts)
    content = getattr(ctx.action, "content", None) or ""
    if ctx.type != "file_write" or facts is None or not facts.in_sandbox or not content:
        return False
    path = facts.raw.replace("\\", "/")
    text = content[:_MAX]
    if _PIPELINES.search(path):
        return _plain_pipeline(text)
    if _PRECOMMIT.search(path):
        return _plain_precommit(text)
    if _TASKS.search(path):
        return _plain_tasks(text)
    if _DEVCONTAINER.search(path):
        return _plain_devcontainer(text)
    return False


# -- package-manager settings that only harden installs ------------------------------------------------------------

_HARDENING = tuple(
    (_rx(entry["path"]), entry["separator"],
     {k.lower(): re.compile(v, re.IGNORECASE) for k, v in entry["keys"].items()}, frozenset(entry.get("sections", ())))
    for entry in _DATA["hardening"].values())
_SECTION = re.compile(r"^\[([\w.-]+)\]$")


def hardening_only(path: str, content: str) -> bool:
    """`content` for the package-manager settings file at `path` sets only keys that make installs stricter."""
    for where, sep, keys, sections in _HARDENING:
        if not where.search(path):
            continue
        seen = False
        for raw in content[:_MAX].splitlines():
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if (m := _SECTION.match(line)) is not None:
                if m.group(1).lower() not in sections:
                    return False
                continue
            key, found, value = line.partition(sep)
            pattern = keys.get(key.strip().lower())
            value = value.strip()
            if not found or pattern is None or not (pattern.fullmatch(value) or pattern.fullmatch(value.strip("\"'"))):
                return False
            seen = True
        return seen
    return False


# -- a tool's hooks and a scheduler's jobs -------------------------------------------------------------------------

_HOOKS = tuple((entry["tool"], _rx(entry["path"]), entry["keys"], bool(entry.get("ask", False)))
               for entry in _DATA["hooks"])
_QUOTED = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'([^']*)'")
_ITEM = re.compile(r"^\s*-\s+(.*)$")


@functools.cache
def _key_line(keys: str) -> re.Pattern[str]:
    return re.compile(r"^(?P<indent>\s*)(?:-\s+)?[\"']?(?:" + keys + r")[\"']?\s*[=:]\s*(?P<value>.*)$",
                      re.IGNORECASE)


def _unquote(text: str) -> str:
    text = text.strip().rstrip(",")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1].replace('\\"', '"')
    return text


def hook_commands(keys: str, content: str) -> list[str]:
    """The commands under `keys` in a TOML, HCL, JSON or YAML file: a string, an array (its items, and joined as one
    command line) or a YAML list below the key."""
    out: list[str] = []
    lines = content[:_MAX].splitlines()
    key_line = _key_line(keys)
    i = 0
    while i < len(lines):
        m = key_line.match(lines[i])
        i += 1
        if m is None:
            continue
        indent, value = len(m.group("indent")), m.group("value").strip()
        if value.startswith("["):
            text = value
            while text.count("[") > text.count("]") and i < len(lines):
                text += " " + lines[i].strip()
                i += 1
            items = [a or b for a, b in _QUOTED.findall(text)]
            out.extend(items)
            if len(items) > 1:
                out.append(" ".join(items))
        elif value and value[0] not in "|>{":
            out.append(_unquote(value))
        else:
            items = []
            scalar = value[:1] in ("|", ">")
            while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
                item = _ITEM.match(lines[i])
                text = item.group(1) if item is not None and not scalar else lines[i]
                if text.strip() and not text.strip().startswith("#"):
                    items.append(_unquote(text))
                i += 1
            out.extend(items)
            if len(items) > 1:
                out.append(" ".join(items))
    return [c for c in out if c.strip()]


def _written(ctx: Context) -> tuple[str, str] | None:
    facts = ctx.derived(file_facts)
    content = getattr(ctx.action, "content", None) or ""
    if ctx.type != "file_write" or facts is None or not content:
        return None
    return facts.raw.replace("\\", "/"), content[:_MAX]


def _hooks(ctx: Context) -> tuple[str | None, str | None]:
    """(block reason, confirm reason) of the commands the written file hands a tool to run later."""
    written = _written(ctx)
    if written is None:
        return None, None
    path, content = written
    from gate.rules.typed import judge_as

    asked = None
    for tool, where, keys, ask in _HOOKS:
        if not where.search(path):
            continue
        for command in hook_commands(keys, content)[:50]:
            hit, _ = judge_as(Shell(command=command), ctx)
            if hit is not None:
                return f"{path} hands {tool} `{command[:60]}` to run later: {hit.reason}", None
            if ask and asked is None and not _plain_command(command):
                asked = f"{path} hands {tool} `{command[:60]}` to run at its next run, unseen"
    return None, asked


@rule("block.files.tool-hook-blocked", "a tool's hook or a scheduler's job written with a command the shell rules "
      "block", risk=Risk.CRITICAL, types=("file_write",))
def tool_hook_blocked(ctx: Context) -> CheckResult:
    """A release tool's hook (cargo-release, release-it, semantic-release), a Nomad job, a Kubernetes or Compose
    workload or a k9s plug-in written with a command that opens a reverse shell, runs fetched code or reads keys
    out: the tool runs it at the next release, deploy or key press, where nobody reads it."""
    return ctx.derived(_hooks)[0]


@rule("confirm.files.release-hook", "a release tool's hook written to run a command", risk=Risk.HIGH,
      types=("file_write",))
def release_hook(ctx: Context) -> CheckResult:
    """A release tool's settings (cargo-release's `pre-release-hook`, release-it's `before:` hooks,
    semantic-release's exec commands) or a k9s plug-in written with a command that is no build or test program:
    it runs at the next release with the publishing credentials. Settings without hooks pass."""
    block, confirm = ctx.derived(_hooks)
    return None if block is not None else confirm


# -- CI steps that reach the runner's host ------------------------------------------------------------------------

_HOST_MOUNT = re.compile(r"^\s*-\s*['\"]?(/|/etc|/root|/home|/var|/usr|/proc|/sys|/boot|~)(?::|/:)\S*['\"]?\s*$|"
                         r"^\s*-\s*['\"]?/(?:[:]|$)", re.MULTILINE)


@rule("block.files.pipeline-host-root", "a CI step written that mounts the runner host's root or system folders",
      risk=Risk.CRITICAL, types=("file_write",))
def pipeline_host_root(ctx: Context) -> CheckResult:
    """A pipeline step (Woodpecker, Drone, GitLab, Bitbucket...) whose volumes put the runner host's `/`, `/etc`,
    `/root` or `/home` into the job's container: the job reads the host's keys and the runner's own settings, and
    can change the host. A cache folder or the workspace mounted is not this rule."""
    written = _written(ctx)
    if written is None or not _PIPELINES.search(written[0]):
        return None
    if (m := _HOST_MOUNT.search(written[1])) is not None:
        return f"{written[0]} mounts the runner host's {m.group(0).strip(' -')[:40]} into a job"
    return None


# -- build scripts that read keys and send -------------------------------------------------------------------------

_BUILD = _rx(_DATA["build_scripts"]["paths"])
_BUILD_READS = _rx(_DATA["build_scripts"]["reads"])
_BUILD_SENDS = _rx(_DATA["build_scripts"]["sends"])


@rule("block.files.build-script-leak", "a build script written that reads keys or secrets and talks to another host",
      risk=Risk.CRITICAL, types=("file_write",))
def build_script_leak(ctx: Context) -> CheckResult:
    """A `build.rs`, `setup.py` or install script, which every build or install runs, written to read a person's
    key or credentials file (or a secret from the environment) and also to open a network client anywhere in the
    file: a key read in one statement and sent in the next is the same theft as one line that does both."""
    written = _written(ctx)
    if written is None or not _BUILD.search(written[0]):
        return None
    read = _BUILD_READS.search(written[1])
    sent = _BUILD_SENDS.search(written[1])
    if read is None or sent is None:
        return None
    return f"{written[0]} is run by every build: it reads {read.group(0)[:40]} and sends with {sent.group(0)[:30]}"


# -- SQL that runs a shell command on the server -----------------------------------------------------------------

_SQL_PROGRAM = re.compile(r"\b(?:to|from)\s+program\s+(?:E?'((?:[^']|'')*)'|\$\$(.*?)\$\$)|"
                          r"\bxp_cmdshell\b\s*\(?\s*N?'((?:[^']|'')*)'|\bsys_(?:exec|eval)\s*\(\s*'((?:[^']|'')*)'",
                          re.IGNORECASE | re.DOTALL)
_NETWORK = re.compile(r"\b(?:curl|wget|nc|ncat|netcat|socat|scp|ftp|tftp|telnet|ssh|invoke-webrequest|iwr|"
                      r"invoke-restmethod|bitsadmin|certutil)\b|/dev/(?:tcp|udp)/|https?://", re.IGNORECASE)


@rule("block.files.sql-runs-program", "SQL written to run a shell command on the database server that reaches the "
      "network", risk=Risk.CRITICAL, types=("file_write",))
def sql_runs_program(ctx: Context) -> CheckResult:
    """A migration, a dbt model or macro, or any SQL file written with PostgreSQL's `COPY ... TO/FROM PROGRAM`,
    SQL Server's `xp_cmdshell` or MySQL's `sys_exec` running a command that reaches the network: the server runs
    it as its own account at the next migration or run, and sends the tables it is fed. A `COPY ... TO` a file
    is not this rule."""
    written = _written(ctx)
    if written is None:
        return None
    for m in _SQL_PROGRAM.finditer(written[1]):
        command = next((g for g in m.groups() if g), "").replace("''", "'")
        if _NETWORK.search(command):
            return f"{written[0]} has the database server run `{command[:60]}`, which reaches the network"
    return None


# -- Terraform that hands the account or its state elsewhere -------------------------------------------------------

_TF = re.compile(r"\.tf(?:\.json)?$|\.tofu$", re.IGNORECASE)
_ASSUME = re.compile(r"sts:AssumeRole", re.IGNORECASE)
_ACCOUNT_PRINCIPAL = re.compile(r"arn:aws:iam::(\d{12}):|\bAWS\s*[=:]\s*\[?\s*\"(\*|\d{12})\"", re.IGNORECASE)
_ADMIN = re.compile(r"policy/AdministratorAccess\b|policy/IAMFullAccess\b|\"Action\"\s*[:=]\s*\"\*\"|"
                    r"\bAction\s*=\s*\"\*\"|roles/(?:owner|editor)\b", re.IGNORECASE)
_HTTP_BACKEND = re.compile(r"backend\s+\"http\"\s*\{(?P<body>[^}]*)\}", re.IGNORECASE)
_ADDRESS = re.compile(r"\baddress\s*=\s*\"https?://([^/\":]+)", re.IGNORECASE)
_LOCAL = re.compile(r"^(?:localhost|127\.|\[?::1|[\w-]+$|[\w.-]+\.(?:internal|local|lan|corp|home\.arpa)$)",
                    re.IGNORECASE)


@rule("confirm.files.iac-trust-outside", "Terraform written to let an account assume an administrator role",
      risk=Risk.HIGH, types=("file_write",))
def iac_trust_outside(ctx: Context) -> CheckResult:
    """A Terraform file written with a role whose trust policy lets another account (or anyone: `"*"`) assume it,
    in the same file as an administrator policy attached: whoever holds that account then owns this one. A role
    for a service (`ec2.amazonaws.com`) or without administrator rights is not this rule."""
    written = _written(ctx)
    if written is None or not _TF.search(written[0]):
        return None
    text = written[1]
    if not _ASSUME.search(text) or _ADMIN.search(text) is None:
        return None
    m = _ACCOUNT_PRINCIPAL.search(text)
    if m is None:
        return None
    who = m.group(1) or m.group(2)
    return f"{written[0]} lets account {who} assume a role with administrator rights"


@rule("confirm.files.iac-state-elsewhere", "Terraform written to keep its state on a web address", risk=Risk.HIGH,
      types=("file_write",))
def iac_state_elsewhere(ctx: Context) -> CheckResult:
    """A Terraform backend written as `http` with its address on a public host: every plan and apply sends the
    whole state, with every secret the resources hold, to that host. A local or internal address is not this
    rule; the cloud backends (S3, GCS, azurerm) name the project's own bucket."""
    written = _written(ctx)
    if written is None or not _TF.search(written[0]):
        return None
    for backend in _HTTP_BACKEND.finditer(written[1]):
        for host in _ADDRESS.findall(backend.group("body")):
            if not _LOCAL.match(host):
                return f"{written[0]} sends the Terraform state, with its secrets, to {host}"
    return None


# -- an editor's agent allowed every command -----------------------------------------------------------------------

_APPROVE_KEY = re.compile(_DATA["auto_approve"]["keys"] + r"\s*:\s*", re.IGNORECASE)
_BROAD = frozenset(_DATA["auto_approve"]["broad"])
_ENTRY = re.compile(r"\"((?:[^\"\\]|\\.)*)\"\s*(?::\s*(true|false|\{[^{}]*\}|\"[^\"]*\"))?", re.IGNORECASE)
_REGEX_FLAGS = re.compile(r"(?<=/)[a-z]+$")


def _broad(pattern: str) -> bool:
    return _REGEX_FLAGS.sub("", pattern.replace("\\\\", "\\")) in _BROAD


def auto_approve_all(content: str) -> str | None:
    """The key in an editor's settings `content` that lets its agent run every terminal command or tool unasked."""
    text = content[:_MAX]
    for m in _APPROVE_KEY.finditer(text):
        rest = text[m.end():m.end() + 4000]
        if rest[:4].lower() == "true":
            return m.group(0).rstrip(": ")
        if rest[:1] not in "{[":
            continue
        close = "}" if rest[0] == "{" else "]"
        depth, end = 0, len(rest)
        for i, c in enumerate(rest):
            depth += c in "{["
            depth -= c in "}]"
            if depth == 0 and c == close:
                end = i
                break
        for entry in _ENTRY.finditer(rest[1:end]):
            value = (entry.group(2) or "").lower()
            allowed = rest[0] == "[" or value == "true" or ('"approve"' in value and "true" in value)
            if allowed and _broad(entry.group(1)):
                return f"{m.group(0).rstrip(': ')} {entry.group(1)!r}"
    return None


@rule("block.files.editor-auto-approve", "an editor's settings written to let its agent run every command unasked",
      risk=Risk.CRITICAL, types=("file_write",))
def editor_auto_approve(ctx: Context) -> CheckResult:
    """An editor's or its agent extension's settings (`.vscode/settings.json`, a workspace file, the user settings)
    written with a terminal auto-approve map or allowed-commands list that matches every command (`"/.*/": true`,
    `"*"`), or set to `true`: from then on the agent's commands run without anyone seeing them. A list of named
    commands (`"npm test": true`) or a broad pattern set to `false` passes."""
    written = _written(ctx)
    if written is None or not written[0].lower().endswith((".json", ".jsonc", ".code-workspace")):
        return None
    hit = auto_approve_all(written[1])
    if hit is None:
        return None
    return f"{written[0]} sets {hit[:60]}: the agent's commands run without asking"


# -- certificate and signature checks turned off -------------------------------------------------------------------

_CHECKS_OFF = _rx(_DATA["checks_off"]["patterns"], re.IGNORECASE | re.MULTILINE)
_CHECKS_OFF_FILES = _rx(_DATA["checks_off"]["paths"])


@rule("confirm.files.checks-off", "a tool's settings written to skip its certificate or signature check",
      risk=Risk.HIGH, types=("file_write",))
def checks_off(ctx: Context) -> CheckResult:
    """A package manager's, git's, curl's or a container tool's settings, a repository list or a project's env file
    written to skip the TLS certificate check (`strict-ssl=false`, `trusted-host`, `sslVerify = false`,
    `NODE_TLS_REJECT_UNAUTHORIZED=0`) or the signature check (`insecureAcceptAnything`, `gpgcheck=0`,
    `[trusted=yes]`, `GOSUMDB=off`): every later download or install takes what anyone on the path serves. The
    same keys turned on pass."""
    written = _written(ctx)
    if written is None or not _CHECKS_OFF_FILES.search(written[0]):
        return None
    m = _CHECKS_OFF.search(written[1])
    if m is None:
        return None
    return f"{written[0]} sets {' '.join(m.group(0).split())[:50]}: later downloads skip their certificate or " \
           "signature check"


# -- a pipeline that prints its secrets ---------------------------------------------------------------------------

_DEBUG_TRACE = re.compile(r"^\s*(CI_DEBUG_TRACE|CI_DEBUG_SERVICES)\s*:\s*[\"']?(true|1)\b", re.MULTILINE)


@rule("confirm.files.pipeline-debug-trace", "a CI pipeline written with the trace that prints every variable",
      risk=Risk.HIGH, types=("file_write",))
def pipeline_debug_trace(ctx: Context) -> CheckResult:
    """A GitLab pipeline written with `CI_DEBUG_TRACE` or `CI_DEBUG_SERVICES` on: the job log then shows every
    variable, masked secrets included, to whoever can read the job. Off, or unset, passes."""
    written = _written(ctx)
    if written is None or not _PIPELINES.search(written[0]):
        return None
    m = _DEBUG_TRACE.search(written[1])
    return None if m is None else f"{written[0]} turns {m.group(1)} on: the job log shows every secret"


# -- build scripts that run what the shell rules block ------------------------------------------------------------

_LITERAL = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'")


@rule("block.files.build-script-command", "a build script written with a command the shell rules block",
      risk=Risk.CRITICAL, types=("file_write",))
def build_script_command(ctx: Context) -> CheckResult:
    """A `build.rs`, `setup.py` or install script written with a string that is a command the shell rules block
    (code fetched and piped to a shell, a reverse shell) and handed to a process call: every build runs it. A
    string that only names a file or prints is not this rule."""
    written = _written(ctx)
    if written is None or not _BUILD.search(written[0]):
        return None
    from gate.rules.typed import judge_as

    seen = 0
    for m in _LITERAL.finditer(written[1]):
        text = (m.group(1) or m.group(2) or "").replace('\\"', '"')
        if " " not in text.strip() or len(text) > 400:
            continue
        seen += 1
        if seen > 40:
            break
        hit, _ = judge_as(Shell(command=text), ctx)
        if hit is not None:
            return f"{written[0]} is run by every build and runs `{text[:60]}`: {hit.reason}"
    return None


# -- container builds and workloads that reach their host ----------------------------------------------------------

_DOCKERFILE = re.compile(r"(?:^|/)(?:[\w.-]+\.)?(?:docker|container)file(?:\.[\w.-]+)?$", re.IGNORECASE)
_RUN = re.compile(r"^\s*RUN\s+(?:--[\w-]+=\S+\s+)*(.*)$", re.IGNORECASE)


def dockerfile_commands(content: str) -> list[str]:
    """The shell lines of a Dockerfile's `RUN` instructions, continuation lines joined."""
    out: list[str] = []
    lines = content[:_MAX].splitlines()
    i = 0
    while i < len(lines):
        m = _RUN.match(lines[i])
        i += 1
        if m is None:
            continue
        text = m.group(1)
        while text.rstrip().endswith("\\") and i < len(lines):
            text = text.rstrip()[:-1] + " " + lines[i].strip()
            i += 1
        if not text.lstrip().startswith("["):
            out.append(text.strip())
    return out


@rule("block.files.image-build-blocked", "a Dockerfile written with a build step the shell rules block",
      risk=Risk.CRITICAL, types=("file_write",))
def image_build_blocked(ctx: Context) -> CheckResult:
    """A Dockerfile or Containerfile whose `RUN` step opens a reverse shell or pipes code from a bare address or a
    hostile host into a shell: every build runs it, and every container of the image carries what it left. A
    vendor's installer piped to a shell only asks in the shell and is not this rule."""
    written = _written(ctx)
    if written is None or not _DOCKERFILE.search(written[0]):
        return None
    from gate.rules.typed import judge_as

    for command in dockerfile_commands(written[1])[:60]:
        hit, _ = judge_as(Shell(command=command), ctx)
        if hit is not None:
            return f"{written[0]} builds with `{command[:60]}`: {hit.reason}"
    return None


_WORKLOAD = re.compile(r"(?:^|/)(?:docker-)?compose[\w.-]*\.ya?ml$|\.ya?ml$", re.IGNORECASE)
_KUBE_KIND = re.compile(r"^\s*kind\s*:\s*(Pod|Deployment|DaemonSet|StatefulSet|ReplicaSet|Job|CronJob)\b",
                        re.MULTILINE)
_COMPOSE = re.compile(r"^services\s*:", re.MULTILINE)
_HOST_REACH = re.compile(
    r"^\s*-?\s*privileged\s*:\s*true\b|^\s*-?\s*host(?:PID|IPC|Network)\s*:\s*true\b|"
    r"^\s*-?\s*(?:pid|ipc|network_mode)\s*:\s*[\"']?host\b|"
    r"^\s*-?\s*path\s*:\s*[\"']?(?:/|/etc|/root|/home|/proc|/var/run/docker\.sock|/run/containerd/containerd\.sock)"
    r"[\"']?\s*$|"
    r"^\s*-\s*[\"']?(?:/|/etc|/root|/home|/proc|/var/run/docker\.sock):|"
    r"^\s*-?\s*add:\s*\[?\s*[\"']?(?:SYS_ADMIN|ALL)\b|^\s*-?\s*cap_add\s*:\s*\[?\s*[\"']?(?:SYS_ADMIN|ALL)\b",
    re.MULTILINE | re.IGNORECASE)


@rule("confirm.files.workload-host-access", "a container workload written with its host's root, processes or "
      "Docker socket in reach", risk=Risk.HIGH, types=("file_write",))
def workload_host_access(ctx: Context) -> CheckResult:
    """A Kubernetes workload or a Compose service written privileged, with the host's process, network or IPC
    namespace, with `SYS_ADMIN`, or with the node's `/`, `/etc`, `/root`, `/home` or Docker socket mounted: whatever
    runs in it owns the machine under it. A data volume, a named volume or a log folder mounted is not this rule."""
    written = _written(ctx)
    if written is None or not _WORKLOAD.search(written[0]):
        return None
    text = written[1]
    if not (_KUBE_KIND.search(text) or _COMPOSE.search(text)):
        return None
    m = _HOST_REACH.search(text)
    if m is None:
        return None
    return f"{written[0]} runs a container with {' '.join(m.group(0).split())[:50]}: it reaches the host under it"


_BINDING = re.compile(r"^\s*kind\s*:\s*ClusterRoleBinding\b", re.MULTILINE)
_CLUSTER_ADMIN = re.compile(r"^\s*name\s*:\s*[\"']?cluster-admin[\"']?\s*$", re.MULTILINE)
_EVERYONE = re.compile(r"system:(?:anonymous|unauthenticated|authenticated|serviceaccounts)\b", re.IGNORECASE)


def _admin_binding(ctx: Context) -> tuple[str | None, str | None]:
    written = _written(ctx)
    if written is None or not written[0].lower().endswith((".yaml", ".yml", ".json")):
        return None, None
    text = written[1]
    if not _BINDING.search(text) or not _CLUSTER_ADMIN.search(text):
        return None, None
    if (m := _EVERYONE.search(text)) is not None:
        return f"{written[0]} makes {m.group(0)} a cluster administrator: anyone who reaches the API owns it", None
    return None, f"{written[0]} binds cluster-admin: the subject it names gets every right in the cluster"


@rule("block.files.cluster-admin-everyone", "a cluster role binding written that makes everyone an administrator",
      risk=Risk.CRITICAL, types=("file_write",))
def cluster_admin_everyone(ctx: Context) -> CheckResult:
    """A Kubernetes ClusterRoleBinding written that gives `cluster-admin` to `system:anonymous`,
    `system:unauthenticated`, `system:authenticated` or every service account: the cluster's front door opened."""
    return ctx.derived(_admin_binding)[0]


@rule("confirm.files.cluster-admin-grant", "a cluster role binding written that grants cluster-admin",
      risk=Risk.HIGH, types=("file_write",))
def cluster_admin_grant(ctx: Context) -> CheckResult:
    """A Kubernetes ClusterRoleBinding written that gives `cluster-admin` to a named user, group or service account:
    every right in the cluster to whoever holds it. A binding to a narrower role passes."""
    block, confirm = ctx.derived(_admin_binding)
    return None if block is not None else confirm


# -- Terraform that opens the network or a bucket to everyone ------------------------------------------------------

_RESOURCE = re.compile(r"^\s*(?:resource\s+\"[\w-]+\"\s+\"[\w-]+\"|ingress|security_rule|allow)\s*\{", re.MULTILINE)
_WORLD = re.compile(r"\"0\.0\.0\.0/0\"|\"::/0\"|source_address_prefix\s*=\s*\"(?:\*|Internet|Any)\"",
                    re.IGNORECASE)
_PORTS = re.compile(r"\b(?:from_port|to_port|port|destination_port_ranges?|ports)\s*=\s*\[?\s*\"?([\d*-]+)",
                    re.IGNORECASE)
_ALL_PROTOCOLS = re.compile(r"\bprotocol\s*=\s*\"(?:-1|all|\*)\"", re.IGNORECASE)
_ADMIN_PORTS = frozenset({"22", "3389", "23", "21", "445", "3306", "5432", "1433", "1521", "6379", "27017", "9200",
                          "11211", "2375", "2376", "5900", "5984", "9042", "*", "0", "0-65535"})
_PUBLIC_BLOCK_OFF = re.compile(r"\b(?:block_public_acls|block_public_policy|ignore_public_acls|"
                               r"restrict_public_buckets)\s*=\s*false\b", re.IGNORECASE)


@rule("confirm.files.iac-open-to-world", "Terraform written to open an admin or database port, or a bucket, to "
      "everyone", risk=Risk.HIGH, types=("file_write",))
def iac_open_to_world(ctx: Context) -> CheckResult:
    """A Terraform security group, firewall or network rule written that lets the whole internet (`0.0.0.0/0`,
    `::/0`, `*`) reach SSH, RDP, a database, Docker's API or every port, or an S3 public access block turned off:
    the defences in front of the service come down. Web ports open to the world pass."""
    written = _written(ctx)
    if written is None or not _TF.search(written[0]):
        return None
    text = written[1]
    starts = [m.start() for m in _RESOURCE.finditer(text)] + [len(text)]
    for a, b in itertools.pairwise(starts):
        block = text[a:b]
        if not _WORLD.search(block):
            continue
        ports = set(_PORTS.findall(block))
        if ports & _ADMIN_PORTS or _ALL_PROTOCOLS.search(block):
            return f"{written[0]} opens {sorted(ports)[:3] or 'every port'} to the whole internet"
    if (m := _PUBLIC_BLOCK_OFF.search(text)) is not None:
        return f"{written[0]} sets {m.group(0)}: the bucket can be made public"
    return None


# -- interactive clients' start-up files with a shell escape --------------------------------------------------------

_STARTUP = tuple((entry["client"], _rx(entry["path"]), re.compile(entry["command"], re.MULTILINE | re.IGNORECASE))
                 for entry in _DATA["startup"])


def _startup(ctx: Context) -> tuple[str | None, str | None]:
    """(block reason, confirm reason) of the shell escapes in a client's start-up file written."""
    written = _written(ctx)
    if written is None:
        return None, None
    path, content = written
    from gate.rules.typed import judge_as

    for client, where, command in _STARTUP:
        if not where.search(path):
            continue
        found = [next((g for g in m.groups() if g), "").strip() for m in command.finditer(content)]
        found = [f for f in found if f]
        for text in found[:40]:
            hit, _ = judge_as(Shell(command=text), ctx)
            if hit is not None:
                return f"{path} makes {client} run `{text[:60]}` at every start: {hit.reason}", None
        if found:
            return None, f"{path} makes {client} run `{found[0][:60]}` in the system shell at every start"
    return None, None


@rule("block.files.client-startup-shell", "a client's start-up file written with a shell command the shell rules "
      "block", risk=Risk.CRITICAL, types=("file_write",))
def client_startup_shell(ctx: Context) -> CheckResult:
    """An interactive client's start-up file (`.psqlrc`'s `\\!`, `.sqliterc`'s `.shell`, `.gdbinit`'s `shell`,
    `.lldbinit`, `.Rprofile`'s `system()`, `.irbrc`, a Python start-up file, tmux's `run-shell`) written with a
    command that fetches and runs code or opens a reverse shell: it runs each time the person starts the client."""
    return ctx.derived(_startup)[0]


@rule("confirm.files.client-startup-shell", "a client's start-up file written with a shell command", risk=Risk.HIGH,
      types=("file_write",))
def client_startup_shell_ask(ctx: Context) -> CheckResult:
    """The same start-up files written with any command handed to the system shell: it runs unseen at every start
    of the client. Display settings (`\\set`, `\\pset`, `.mode`, `set print pretty`) pass."""
    block, confirm = ctx.derived(_startup)
    return None if block is not None else confirm


# -- a server's authentication switched off ------------------------------------------------------------------------

_SERVICE_FILES = _rx(_DATA["service_auth_off"]["paths"])
_AUTH_OFF = _rx(_DATA["service_auth_off"]["off"], re.IGNORECASE | re.MULTILINE)
_EXPOSED = _rx(_DATA["service_auth_off"]["exposed"], re.IGNORECASE | re.MULTILINE)


def _auth_off(ctx: Context) -> tuple[str | None, str | None]:
    written = _written(ctx)
    if written is None or not _SERVICE_FILES.search(written[0]):
        return None, None
    m = _AUTH_OFF.search(written[1])
    if m is None:
        return None, None
    what = " ".join(m.group(0).split())[:50]
    if (e := _EXPOSED.search(written[1])) is not None:
        return f"{written[0]} sets {what} and listens on {' '.join(e.group(0).split())[:30]}: anyone who reaches " \
               "the port owns its data", None
    return None, f"{written[0]} sets {what}: the server stops asking who connects"


@rule("block.files.service-open", "a server's settings written with its login off and listening everywhere",
      risk=Risk.CRITICAL, types=("file_write",))
def service_open(ctx: Context) -> CheckResult:
    """A database's, search engine's, notebook server's or Docker daemon's settings written with authentication or
    security off (`xpack.security.enabled: false`, `protected-mode no`, `trust` in `pg_hba.conf`, an empty Jupyter
    token, Docker's API on TCP) and bound to every interface: the data and the host are open to the network."""
    return ctx.derived(_auth_off)[0]


@rule("confirm.files.service-auth-off", "a server's settings written with its login or security off",
      risk=Risk.HIGH, types=("file_write",))
def service_auth_off(ctx: Context) -> CheckResult:
    """The same switches written without the server listening everywhere: it still stops asking who connects. The
    switches left on pass."""
    block, confirm = ctx.derived(_auth_off)
    return None if block is not None else confirm


# -- an editor's own guards, and the programs its extensions start -------------------------------------------------

_EDITOR_SETTINGS = _rx(_DATA["editor_settings"]["paths"])
_EDITOR_OFF = _rx(_DATA["editor_settings"]["defences_off"])
_PROGRAM_KEY = re.compile(_DATA["editor_settings"]["program_keys"], re.IGNORECASE)


@rule("confirm.files.editor-guard-off", "an editor's settings written to turn its workspace trust or task prompt off",
      risk=Risk.HIGH, types=("file_write",))
def editor_guard_off(ctx: Context) -> CheckResult:
    """An editor's settings written with workspace trust off, its start-up trust prompt never shown, a folder's
    automatic tasks allowed without asking, extension signatures or the proxy's certificate unchecked: the next
    folder opened runs its tasks and extensions with nobody asked. Those switches left at their defaults pass."""
    written = _written(ctx)
    if written is None or not _EDITOR_SETTINGS.search(written[0]):
        return None
    m = _EDITOR_OFF.search(written[1])
    return None if m is None else f"{written[0]} sets {' '.join(m.group(0).split())[:60]}: a guard of the editor off"


@rule("confirm.files.editor-program-path", "an editor's settings written to start a program kept in a temporary or "
      "hidden folder", risk=Risk.HIGH, types=("file_write",))
def editor_program_path(ctx: Context) -> CheckResult:
    """An editor's settings written with a language server, linter, interpreter or git path (`*.serverPath`,
    `*.executablePath`, `*.interpreterPath`, `git.path`) set to a program in a temporary folder or a hidden folder
    of the home: the extension starts it when the folder opens, and whatever is put there runs. The project's own
    virtual environment, `node_modules` and the system's programs pass."""
    written = _written(ctx)
    if written is None or not _EDITOR_SETTINGS.search(written[0]):
        return None
    from gate.autorun import writable_script

    for m in _PROGRAM_KEY.finditer(written[1]):
        value = m.group(1).replace("\\\\", "\\")
        if value and (script := writable_script(value, True)) is not None:
            return f"{written[0]} has an extension start {script[:60]}, kept where anything can be put"
    return None


# -- client programs' token files ----------------------------------------------------------------------------------

_CLIENT_CREDENTIALS = Guarded(_rx(_DATA["client_credentials"]["paths"]))


@rule("confirm.files.client-credentials-read", "reading a client program's settings that hold its token",
      risk=Risk.MEDIUM, types=("file_read",))
def client_credentials_read(ctx: Context) -> CheckResult:
    """Reading the settings file of a data, cloud or service client (lakeFS, InfluxDB, Databricks, ClickHouse,
    rclone, doctl, Terraform Cloud...) that keeps its access key or token inline: whoever reads it holds the
    account."""
    facts = ctx.derived(file_facts)
    if facts is None:
        return None
    for path in (facts.raw, facts.real):
        if path and (m := _CLIENT_CREDENTIALS.search(path.replace("\\", "/"))) is not None:
            return f"reading {m.group(0).lstrip('/')}: a client's settings that hold its token"
    return None


RULES: tuple[Rule, ...] = (
    tool_hook_blocked,
    release_hook,
    pipeline_host_root,
    build_script_leak,
    sql_runs_program,
    iac_trust_outside,
    iac_state_elsewhere,
    client_credentials_read,
    editor_auto_approve,
    checks_off,
    pipeline_debug_trace,
    build_script_command,
    image_build_blocked,
    workload_host_access,
    cluster_admin_everyone,
    cluster_admin_grant,
    iac_open_to_world,
    client_startup_shell,
    client_startup_shell_ask,
    service_open,
    service_auth_off,
    editor_guard_off,
    editor_program_path,
)
