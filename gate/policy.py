"""The policy: a validated data file, loaded once.

Layers, later wins: the shipped `resources/policy.toml` (every default, declared once) → a preset
overlay (`resources/presets/NAME.toml`: kiosk, balanced, power) → the user's file. Tables merge key by
key; any other value (lists included) replaces. The merged document is decoded strictly: an unknown key
or a wrong type is a `PolicyError` that names the file, the key path and, where it can, the line.
"""

from __future__ import annotations

import fnmatch
import functools
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from gate import regex_store

__all__ = [
    "PRESETS",
    "AllowRule",
    "Policy",
    "PolicyError",
    "Project",
    "default_policy",
    "load_policy",
    "policy_document",
]

PRESETS = ("balanced", "kiosk", "power")
Mode = Literal["allow", "ask", "deny"]
Unit = Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]


class PolicyError(ValueError):
    def __init__(self, message: str, *, source: str = "", key: str = "", line: int | None = None):
        self.source, self.key, self.line = source, key, line
        where = source + (f":{line}" if line else "")
        super().__init__(f"{where}: {message}" if where else message)


class _Section(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    pass


class GatePolicy(_Section):
    default_mode: Mode
    modes: dict[str, Mode]
    confidence_threshold: Unit
    disabled_rules: list[str]
    expected_app: str
    expected_window: str
    kiosk: bool
    kiosk_types: list[str]
    always_block: list[str]
    always_confirm: list[str]
    # the level of the combined risk score (gate/rules/agent.py `score_risk`) from which it asks
    risk_score_confirm: Literal["high", "critical"]


class CriticalPoint(_Section):
    """A critical-point category (financial data, identity documents, ...): what is at stake, and how much.

    `targets`: regexes over the words of a clicked label; they grade an irreversible click.
    `fields`: regexes over the words of a field's label; typing into one asks on its own.
    """

    risk: Literal["low", "medium", "high", "critical"]
    targets: list[str]
    fields: list[str]


class GuiPolicy(_Section):
    # Regexes, compiled once per policy (gate/rules/gui.py). Over lowercase normalised text: see
    # gate/rules/gui.py for its two forms (`norm` keeps punctuation, `words` keeps only words).
    # malicious text (prompt injection, SQL injection) in a target label or in typed text → block
    blocklist: list[str]
    # catastrophic or malicious targets (code payloads, scareware, delete account, ...): labels only → block
    label_blocklist: list[str]
    # likely injection cues that are also, rarely, real labels (labels only) → confirm
    suspicious_labels: list[str]
    irreversible: list[str]
    credential_labels: list[str]
    credential_allowlist: list[str]
    # over the raw typed text, case-sensitive: live secrets (token prefixes, PEM keys, JWTs, ...)
    secret_patterns: list[str]
    # typed tokens at least this long whose Shannon entropy (bits/char) reaches this look like secrets
    secret_min_length: Annotated[int, msgspec.Meta(ge=8)]
    secret_min_entropy: Annotated[float, msgspec.Meta(gt=0.0, le=8.0)]
    # over a key combination written canonically ("ctrl+alt+delete": ctrl, alt, shift, super, then the rest)
    session_keys: list[str]
    critical: dict[str, CriticalPoint]
    # a click/drag on a target nobody can read → confirm.gui.unreadable-target ("allow": the claim alone judges)
    unreadable_target: Literal["confirm", "allow"]
    # text recognition's confidence (0-1) below which a read label does not count as read
    ocr_min_confidence: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]

    def __post_init__(self) -> None:
        _check_regexes("gui", label_blocklist=self.label_blocklist, suspicious_labels=self.suspicious_labels,
                       secret_patterns=self.secret_patterns,
                       session_keys=self.session_keys)
        for name, cat in self.critical.items():
            _check_regexes(f"gui.critical.{name}", targets=cat.targets, fields=cat.fields)


class ShellPolicy(_Section):
    """Knobs of the shell rules (gate/rules/shell.py). Paths are folded (lower case) before matching;
    `~` is the home directory. Regex lists are validated here, compiled once by the rules."""

    # segment globs (`*` within one path component): deleting one of these, or all of its contents
    protected_paths: list[str]
    # directories whose whole subtree is the operating system: deleting anything below them
    system_trees: list[str]
    # directory names (globs) a recursive delete may remove without asking: build outputs and caches
    regenerable_dirs: list[str]
    # regexes over resolved paths
    secret_paths: list[str]
    credential_files: list[str]
    persistence_paths: list[str]
    log_paths: list[str]
    # service names: stopping a critical one is disruptive, stopping a security one is evasion
    critical_services: list[str]
    security_services: list[str]
    # regexes over the normalised app name / window title of a terminal (typed text runs there)
    terminal_windows: list[str]
    # extra regexes over each normalised simple command (after unwrapping)
    block_patterns: list[str]
    confirm_patterns: list[str]
    # more simple commands than this in one string is too much to review: confirm
    max_commands: Annotated[int, msgspec.Meta(ge=1)]
    # a plain `rm file` asks, like a `file_delete` action (temp dirs and regenerable dirs excepted)
    confirm_file_deletes: bool
    # a program (or a code-running flag) resources/programs.toml does not describe: ask, or allow (power)
    unknown_programs: Literal["confirm", "allow"]
    # a named install of only widely used packages (resources/packages.toml) from the default registry runs
    # without asking; false asks for every named install
    known_packages_allowed: bool

    def __post_init__(self) -> None:
        for name in ("secret_paths", "credential_files", "persistence_paths", "log_paths", "terminal_windows",
                     "block_patterns", "confirm_patterns"):
            for i, pattern in enumerate(getattr(self, name)):
                try:
                    regex_store.compile(pattern)
                except re.error as err:
                    raise ValueError(f"`shell.{name}[{i}]` is not a valid regex: {err}") from None


def _check_regexes(section: str, **lists: list[str]) -> None:
    """Raise (as a validation error naming the key) for a pattern that is not a valid regex."""
    for key, patterns in lists.items():
        for i, pattern in enumerate(patterns):
            try:
                regex_store.compile(pattern)
            except re.error as err:
                raise ValueError(f"`{section}.{key}[{i}]` is not a valid regex: {err}") from None


class FilesPolicy(_Section):
    # file writes / deletes / moves outside these roots ask; the first root is the agent's working dir
    sandbox_roots: list[str]
    # regexes (case-insensitive) over the resolved path; reading one is credential access → block
    credentials: list[str]
    # regexes over the resolved path; reading asks, writing outside the sandbox is blocked
    sensitive: list[str]
    # directories (absolute) no file action may write into, delete in or move out of
    system_dirs: list[str]
    # regexes: password databases; reading one (file action or shell command) is blocked
    credential_dumps: list[str]
    # regexes: deskgate's own config, policy, kill state, socket and audit log; an agent changing one
    # (file action or shell command) attacks its supervisor → block
    supervisor_paths: list[str]
    # regexes: files that run later (CI pipelines, hook managers); writing one asks, inside the work area too
    runs_later: list[str]
    # regexes: a service's settings inside those directories; a change asks instead (`confirm.files.system-config`)
    system_config: list[str] = []
    # a new document, sheet, picture or source file in a person's own folders (Desktop, Documents, a project
    # folder of a home directory) is written without asking; writing over an existing file outside the work area
    # asks, and so does anything in hidden or program folders (gate/paths.py `new_personal_file`)
    personal_new_files: bool = True

    def __post_init__(self) -> None:
        _check_regexes("files", credentials=self.credentials, sensitive=self.sensitive, runs_later=self.runs_later,
                       system_config=self.system_config,
                       credential_dumps=self.credential_dumps, supervisor_paths=self.supervisor_paths)


class WebPolicy(_Section):
    # exact host or dot-suffix match on the parsed hostname; empty: any origin
    allowed_origins: list[str]
    blocked_origins: list[str]
    # site names phishing imitates: a lookalike (homoglyph, digit swap, brand inside a foreign domain) asks
    brands: list[str]
    # file extensions whose download asks (executables, installers, scripts)
    download_extensions: list[str]
    # query parameter names that carry a secret (a URL carrying one to a site asks)
    secret_params: list[str]
    # hosts that collect whatever is sent to them or tunnel to someone's machine (request bins, tunnels)
    collector_hosts: list[str]


class PlanPolicy(_Section):
    # a plan longer than this is refused
    max_actions: Positive
    # complexity score (see gate/rules/plan.py) at which a plan asks / is refused
    confirm_complexity: Positive
    block_complexity: Positive


class SystemPolicy(_Section):
    # system action names the gate knows how to judge; any other name asks
    known: list[str]
    # a shutdown / restart / sleep delay above this (seconds) asks: it would fire long after anyone looked
    max_delay_s: Annotated[int, msgspec.Meta(ge=0)]
    # `open_app` given as a path must be inside one of these directories (else it asks)
    app_dirs: list[str]


class LoopPolicy(_Section):
    threshold: Annotated[int, msgspec.Meta(ge=2)]
    use_screen_hash: bool
    # actions that are normal to repeat in an unchanged state (they never count as a loop)
    repeatable_types: list[str]
    repeatable_keys: list[str]


class LimitsPolicy(_Section):
    max_steps: Positive
    step_timeout_s: Positive
    session_timeout_s: Positive
    actions_per_minute: Positive
    sessions_per_hour: Positive
    max_errors: Positive
    idle_timeout_s: Positive
    uid_actions_per_minute: Positive
    max_shell_timeout_s: Positive


class AgentsPolicy(_Section):
    uids: list[Annotated[int, msgspec.Meta(ge=0)]]
    groups: list[str | Annotated[int, msgspec.Meta(ge=0)]]


class ApprovalsPolicy(_Section):
    timeout_s: Annotated[float, msgspec.Meta(gt=0, le=3600)]
    arm_delay_s: Annotated[float, msgspec.Meta(ge=0, le=10)]
    grant_minutes: Positive


class DesktopPolicy(_Section):
    """Settings of the tray app and the supervisor process (the settings window writes them)."""

    takeover: bool
    takeover_quiet_s: Annotated[float, msgspec.Meta(ge=0, le=600)]
    kill_hotkey: str
    approver_rules: str


class FencePolicy(_Section):
    enabled: bool
    required: bool
    writable: list[str]
    network: bool
    # programs that need the network ("npm", "git clone"): their confirmation offers network
    networked_programs: list[str]


_SYSLOG_FACILITIES = ("kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron",
                      "authpriv", "ftp", "ntp", "audit", "alert", "clock", *(f"local{i}" for i in range(8)))


class SyslogPolicy(_Section):
    enabled: bool
    target: Annotated[str, msgspec.Meta(pattern=r"^(unix:.+|(udp|tcp):.+:[0-9]{1,5})$")]
    app_name: Annotated[str, msgspec.Meta(pattern=r"^[!-~]{1,48}$")]
    facility: Literal[_SYSLOG_FACILITIES]  # type: ignore[valid-type]


class AuditPolicy(_Section):
    store_outputs: bool
    syslog: SyslogPolicy


class AllowRule(_Section):
    """A person's shortcut for a known-safe action. Every field given must match; none given never matches.

    `command`, `label`, `window`, `app`, `path` are globs over normalised text; `host` is an exact host or
    a dot-suffix (`example.com` matches `www.example.com`, never `evil-example.com`); with
    `subdomains = false` only that very host. `cwd` is a glob over a shell action's working directory
    (made absolute; home when none is given); `env`, when given, must equal the action's variables
    exactly (`{}`: none). An allow rule never applies to a complex shell string and never overrides a block.
    "Always allow" in the dialog writes the narrow form: a command with its `cwd` and `env`, a host
    with `subdomains = false`.
    """

    id: Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9][a-z0-9_.-]*$")]
    types: list[str] = []
    command: str | None = None
    label: str | None = None
    app: str | None = None
    window: str | None = None
    host: str | None = None
    subdomains: bool = True
    path: str | None = None
    # seconds a shell command this rule allows may run (its own `timeout` still wins; up to
    # limits.max_shell_timeout_s): a test suite or a build that takes longer than step_timeout_s
    timeout_s: Annotated[float, msgspec.Meta(gt=0, le=86400)] | None = None
    # a glob over the directory a shell command runs in (`~/code/proj*`): "npm run test:* here"
    cwd: str | None = None
    # the exact environment a shell command must have (an "always allow" from the dialog writes it)
    env: dict[str, str] | None = None
    # true: the rule steps aside when a high-risk confirmation fires (a purchase, a send, a credential
    # field, a delete): "clicks in this app, except the consequential ones"
    except_consequential: bool = False
    # true: a shell command this rule allows runs inside the fence with the network on
    network: bool = False


class Project(_Section):
    """A project directory that is a work area (like `files.sandbox_roots`) for the agents named in
    `agents` (globs over the agent name; empty: every agent). Never `/`, the home directory itself or a
    system directory: those are refused when the policy is loaded."""

    path: Annotated[str, msgspec.Meta(min_length=1)]
    agents: list[str] = []

    def applies_to(self, agent: str) -> bool:
        return not self.agents or any(glob_match(a, agent) for a in self.agents)


class Policy(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    preset: str
    gate: GatePolicy
    gui: GuiPolicy
    shell: ShellPolicy
    files: FilesPolicy
    web: WebPolicy
    loop: LoopPolicy
    limits: LimitsPolicy
    agents: AgentsPolicy
    approvals: ApprovalsPolicy
    desktop: DesktopPolicy
    fence: FencePolicy
    plan: PlanPolicy
    system: SystemPolicy
    audit: AuditPolicy
    allow: list[AllowRule] = []
    # A person's "always ask" rules (same fields as [[allow]]): a matching action asks even where no rule
    # fired and even where an allow rule matches; a block still blocks. Decision id `confirm.policy.<id>`.
    ask: list[AllowRule] = []
    projects: list[Project] = []

    def mode_for(self, action_type: str) -> str:
        return self.gate.modes.get(action_type, self.gate.default_mode)


def glob_match(pattern: str, text: str) -> bool:
    return fnmatch.fnmatchcase(text, pattern)


# -- loading ------------------------------------------------------------------------------------


def _read_resource(name: str) -> tuple[str, str]:
    ref = resources.files("resources").joinpath(name)
    return ref.read_text(encoding="utf-8"), f"resources/{name}"


def _parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return regex_store.toml(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"at line (\d+)", str(err))
        line = getattr(err, "lineno", None) or (int(m.group(1)) if m else None)
        raise PolicyError(f"not valid TOML: {err}", source=source, line=line) from None


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key != "modes":
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


_ARRAY_KEY = re.compile(r"^(\w+)\[(\d+)\](?:\.(\w+))?")


def _line_of(text: str, key_path: str) -> int | None:
    """Best effort: the line in `text` where the last key of `key_path` is set."""
    array = _ARRAY_KEY.match(key_path)
    if array is not None:  # `allow[1].id`: the key inside the second [[allow]] table
        name, index, key = array.group(1), int(array.group(2)), array.group(3)
        seen, start = -1, None
        lines = text.splitlines()
        for number, raw in enumerate(lines, 1):
            line = raw.strip()
            if line.startswith("["):
                if start is not None:
                    break
                if line.replace(" ", "") == f"[[{name}]]":
                    seen += 1
                    if seen == index:
                        start = number
                        if key is None:
                            return number
            elif start is not None and key and re.match(rf'"?{re.escape(key)}"?\s*=', line):
                return number
        return start
    parts = [p for p in re.split(r"[.\[\]]", key_path) if p and not p.isdigit() and p != "$"]
    if not parts:
        return None
    table, key = parts[:-1], parts[-1]
    in_table = not table
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("["):
            name = line.strip("[]").strip()
            in_table = bool(table) and name == ".".join(table)
            if in_table and parts[-1] == name.split(".")[-1]:
                return number
            continue
        if in_table and re.match(rf'"?{re.escape(key)}"?\s*=', line):
            return number
    return None


def policy_document(path: str | Path | None = None, preset: str | None = None) -> tuple[dict[str, Any], str, str]:
    """The merged policy document before validation, with the user file's text and name (for errors)."""
    base_text, base_src = _read_resource("policy.toml")
    doc = _parse_toml(base_text, base_src)
    user: dict[str, Any] = {}
    user_text, user_src = "", ""
    if path is not None:
        p = Path(path).expanduser()
        user_src = str(p)
        try:
            user_text = p.read_text(encoding="utf-8")
        except OSError as err:
            raise PolicyError(f"cannot read policy file: {err.strerror}", source=user_src) from None
        user = _parse_toml(user_text, user_src)
    chosen = preset or user.pop("preset", None) or "balanced"
    if not isinstance(chosen, str) or chosen not in PRESETS:
        raise PolicyError(f"unknown preset {chosen!r} (known: {', '.join(PRESETS)})", source=user_src or "preset",
                          key="preset", line=_line_of(user_text, "preset") if user_text else None)
    preset_text, preset_src = _read_resource(f"presets/{chosen}.toml")
    doc = _merge(doc, _parse_toml(preset_text, preset_src))
    doc = _merge(doc, user)
    doc["preset"] = chosen
    return doc, user_text, user_src


def _validation_error(err: msgspec.ValidationError, user_text: str, user_src: str, prefix: str = "") -> PolicyError:
    msg = str(err)
    m = re.search(r"at `([^`]+)`", msg)
    key = m.group(1).replace("$.", "").replace("$", "") if m else ""
    unknown = re.search(r"unknown field `([^`]+)`", msg)
    if unknown:
        key = f"{key}.{unknown.group(1)}" if key else unknown.group(1)
    if prefix:
        key = f"{prefix}.{key}" if key and not key.startswith("[") else f"{prefix}{key}"
        if unknown and " - at `" not in msg:
            msg += f" - at `{key}`"
        msg = msg.replace("`$.", f"`{prefix}.").replace("`$[", f"`{prefix}[").replace("`$`", f"`{prefix}`")
    line = _line_of(user_text, key) if (user_text and key) else None
    return PolicyError(msg.replace("`$.", "`"), source=user_src or "resources/policy.toml", key=key, line=line)


def load_policy(path: str | Path | None = None, preset: str | None = None) -> Policy:
    doc, user_text, user_src = policy_document(path, preset)
    try:
        policy = msgspec.convert(doc, Policy, strict=True)
    except msgspec.ValidationError as err:
        raise _validation_error(err, user_text, user_src) from None
    problems = _semantic_problems(policy, user_src or "resources/policy.toml", user_text)
    if problems:
        raise problems[0]
    return policy


def policy_problems(path: str | Path | None = None, preset: str | None = None
                    ) -> tuple[list[PolicyError], list[str]]:
    """Every error of a policy file, not only the first: each key of each table, and each `[[allow]]` /
    `[[projects]]` entry, is checked on its own against the shipped defaults, so one mistake does not hide
    the next; then the semantic checks run over the file with its broken keys left at their defaults.
    Also warnings about allow rules that match everything."""
    try:
        doc, user_text, user_src = policy_document(path, preset)
        base, _, _ = policy_document(None, doc["preset"])
    except PolicyError as err:
        return [err], []
    source = user_src or "resources/policy.toml"
    errors: list[PolicyError] = []
    fields = {f.name: f.type for f in msgspec.structs.fields(Policy)}
    for key in list(doc):
        if key not in fields:
            errors.append(PolicyError(f"unknown table or key `{key}`", source=source, key=key,
                                      line=_line_of(user_text, key) if user_text else None))
            del doc[key]
    for name, kind in fields.items():
        if name not in doc or name == "preset":
            continue
        value = doc[name]
        if name in ("allow", "ask", "projects") and isinstance(value, list):
            item_type = kind.__args__[0]
            good = []
            for i, item in enumerate(value):
                try:
                    msgspec.convert(item, item_type, strict=True)
                    good.append(item)
                except msgspec.ValidationError as err:
                    errors.append(_validation_error(err, user_text, user_src, f"{name}[{i}]"))
            doc[name] = good
        elif isinstance(value, dict) and isinstance(base.get(name), dict):
            for key, item in list(value.items()):
                try:
                    msgspec.convert({**base[name], key: item}, kind, strict=True)
                except msgspec.ValidationError as err:
                    errors.append(_validation_error(err, user_text, user_src, name))
                    if key in base[name]:
                        value[key] = base[name][key]
                    else:
                        del value[key]
        else:
            try:
                msgspec.convert(value, kind, strict=True)
            except msgspec.ValidationError as err:
                errors.append(_validation_error(err, user_text, user_src, name))
                doc[name] = base.get(name)
    try:
        policy = msgspec.convert(doc, Policy, strict=True)
    except msgspec.ValidationError as err:  # a mistake the key-by-key pass could not isolate
        return [*errors, _validation_error(err, user_text, user_src)], []
    return errors + _semantic_problems(policy, source, user_text), allow_warnings(policy)


_EVERYTHING = re.compile(r"^[\s*?]*$")


def allow_warnings(policy: Policy) -> list[str]:
    """Allow rules that match (nearly) everything: a wildcard command, label, path, app or window, or
    types alone. They are valid (no rule ever overrides a block) but they switch confirmations off."""
    out = []
    for i, rule in enumerate(policy.allow):
        kinds = ", ".join(rule.types) if rule.types else "every type of"
        wild = [f"{field} = {value!r}" for field in ("command", "label", "app", "window", "path", "host")
                if isinstance(value := getattr(rule, field), str) and _EVERYTHING.match(value)]
        given = [f for f in ("command", "label", "app", "window", "path", "host") if getattr(rule, f) is not None]
        if wild:
            out.append(f"allow[{i}] ({rule.id}): {' and '.join(wild)} matches everything: every {kinds} "
                       "action it covers runs without asking (only block rules still stop one)")
        elif not given:
            out.append(f"allow[{i}] ({rule.id}): types alone: every {kinds} action runs without asking "
                       "(only block rules still stop one)")
    return out


def _semantic_problems(policy: Policy, source: str, text: str) -> list[PolicyError]:
    """Every semantic error of a decoded policy (regexes, action types, allow rules, projects), in order."""
    from gate.model import ACTION_TYPES
    from gate.paths import default_home, resolve, work_area_refusal
    from gate.rules.files import system_dirs

    out: list[PolicyError] = []

    def problem(message: str, key: str, line_key: str | None = None) -> None:
        out.append(PolicyError(message, source=source, key=key,
                               line=_line_of(text, line_key or key) if text else None))

    for section, patterns in (("gui.blocklist", policy.gui.blocklist), ("gui.irreversible", policy.gui.irreversible),
                              ("gui.credential_labels", policy.gui.credential_labels),
                              ("gui.credential_allowlist", policy.gui.credential_allowlist)):
        for i, pattern in enumerate(patterns):
            try:
                regex_store.compile(pattern)
            except re.error as err:
                problem(f"`{section}[{i}]` is not a valid regex: {err}", section)
    for kind in (*policy.gate.modes, *policy.gate.kiosk_types, *policy.loop.repeatable_types):
        if kind not in ACTION_TYPES:
            problem(f"unknown action type {kind!r}", "gate", "gate.modes")
    for table, rules in (("allow", policy.allow), ("ask", policy.ask)):
        seen: set[str] = set()
        for i, allow in enumerate(rules):
            if allow.id in seen:
                problem(f"duplicate {table} rule id {allow.id!r}", f"{table}[{i}].id")
            seen.add(allow.id)
            for kind in allow.types:
                if kind not in ACTION_TYPES:
                    problem(f"`{table}[{i}].types`: unknown action type {kind!r}", f"{table}[{i}].types")
            if not any((allow.types, allow.command, allow.label, allow.app, allow.window, allow.host, allow.path,
                        allow.cwd)):
                problem(f"`{table}[{i}]` ({allow.id}) matches nothing: give at least one field", f"{table}[{i}]")
    home, system = default_home(), system_dirs(policy.files.system_dirs)
    for i, project in enumerate(policy.projects):
        why = work_area_refusal(resolve(project.path, home=home), home, system, person=True)
        if why is not None:
            problem(f"`projects[{i}].path` {project.path!r} cannot be a work area: {why}", f"projects[{i}].path")
    return out


@functools.lru_cache(maxsize=len(PRESETS))
def default_policy(preset: str = "balanced") -> Policy:
    return load_policy(preset=preset)

