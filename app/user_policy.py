"""Writing a person's decisions and settings into their policy file (~/.config/deskgate/policy.toml).

The file is the person's: every edit here keeps what is already in it (comments, order, spacing) and
only appends a rule, removes a block this module wrote, or changes one `key = value` line. Each write is
atomic (a temporary file in the same directory, fsync'd, then renamed over the old one) and is checked
before it replaces anything: the new text must parse as TOML, load as a policy, and say what was meant.
A check that fails raises and leaves the old file as it was.

`suggest_allow_rule` derives the narrow rule the confirmation dialog offers as "Always allow this":

- a simple shell command (one program, no chains, pipes, substitutions, redirects, variable
  assignments, nothing hidden as a secret): that exact command;
- `navigate`: the URL's host;
- a click: the active app and window and the target's label.

Anything else gets no rule (None), and the dialog does not offer one. A rule is only suggested when the
gate, with the rule added, would really apply it to this action.

For a navigation the dialog also offers "this host and its subdomains" (`suggest_wider_rule`), a separate
choice and never the default, and only where the host's owner holds its subdomains: never for a public
suffix or a shared-hosting one from the public suffix list's private part (`attacker.s3.amazonaws.com`,
`foo.github.io`: their neighbours are other people's sites). And "Always ask for this host"
(`suggest_ask_rule`) writes an `[[ask]]` rule: that host asks every time, whatever allows it.
"""

from __future__ import annotations

import datetime
import functools
import ipaddress
import json
import os
import re
import tempfile
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "POLICY_TEMPLATE",
    "SETTINGS",
    "RuleEntry",
    "add_allow_rule",
    "add_ask_rule",
    "list_allow_rules",
    "list_ask_rules",
    "read_settings",
    "remove_allow_rule",
    "remove_ask_rule",
    "set_settings",
    "shared_host_warnings",
    "shared_suffix",
    "subdomains_are_the_owners",
    "suggest_allow_rule",
    "suggest_ask_rule",
    "suggest_wider_rule",
    "write_atomic",
]

POLICY_TEMPLATE = """\
# deskgate policy: overlays the shipped policy (see `deskgate policy show` for every key).
# After editing, choose "Reload policy" in the tray menu.
preset = "balanced"

# [[allow]]
# id = "git-status"
# types = ["shell"]
# command = "git status*"
"""

# The keys the settings window edits: dotted key → Python type of the value.
SETTINGS: dict[str, type] = {
    "preset": str,
    "approvals.timeout_s": float,
    "approvals.arm_delay_s": float,
    "approvals.grant_minutes": int,
    "limits.step_timeout_s": int,
    "limits.session_timeout_s": int,
    "desktop.takeover": bool,
    "desktop.takeover_quiet_s": float,
    "desktop.kill_hotkey": str,
    "desktop.approver_rules": str,
}

_ADDED_BY = {"allow": "added by \"Always allow this\"", "ask": "added by \"Always ask for this host\""}
_GLOB = re.compile(r"([*?\[])")
_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\"]+)\s*\]\]?\s*(#.*)?$")


# -- the rule a dialog offers ---------------------------------------------------------------------


def _glob_literal(text: str) -> str:
    """`text` as a glob that matches only itself (fnmatch: a wildcard inside brackets is literal)."""
    return _GLOB.sub(r"[\1]", text)


def _slug(text: str, limit: int = 40) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:limit].rstrip("-") or "rule"


def _host(action: Mapping[str, Any]) -> str:
    return (urlsplit(str(action.get("url", ""))).hostname or "").rstrip(".").lower()


@functools.cache
def _suffixes() -> Any:
    """The public suffix list with its private (shared-hosting) part, from the snapshot tldextract ships:
    no download, and no cache file (one in the home directory is a file an agent could write)."""
    import tldextract

    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=(), include_psl_private_domains=True)


def _suffix_parts(host: str) -> Any:
    """tldextract's parts of `host`, or None for an address or an empty name."""
    host = host.strip().rstrip(".").lower()
    if not host or host.startswith("[") or ":" in host:
        return None
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    return _suffixes()(host)


def subdomains_are_the_owners(host: str) -> bool:
    """Whether a rule for `host` and its subdomains covers only sites of the same owner: `host` is a name
    registered under a public suffix that is not a shared-hosting one. False for a public suffix itself
    (`co.uk`, `github.io`), any name under a shared-hosting suffix (`foo.github.io`,
    `attacker.s3.amazonaws.com`), an address and a single-label name (`localhost`)."""
    parts = _suffix_parts(host)
    return parts is not None and bool(parts.suffix and parts.domain and not parts.is_private)


def shared_suffix(host: str) -> str | None:
    """The public or shared-hosting suffix that makes `host`'s subdomains other people's sites: `host`
    itself when it is a public suffix (`s3.amazonaws.com`, `co.uk`), the shared-hosting suffix it is
    under (`github.io` for `foo.github.io`); None otherwise."""
    parts = _suffix_parts(host)
    if parts is None or not parts.suffix:
        return None
    if not parts.domain or parts.is_private:
        return parts.suffix
    return None


def shared_host_warnings(policy: Any) -> list[str]:
    """`policy validate`'s warnings for allow rules whose host covers other people's sites: a host rule
    keeps its subdomains unless `subdomains = false`, and under a public or shared-hosting suffix those
    are anyone's (`s3.amazonaws.com` allows `attacker.s3.amazonaws.com`)."""
    out = []
    for i, rule in enumerate(policy.allow):
        if rule.host is None or not rule.subdomains:
            continue
        suffix = shared_suffix(rule.host)
        if suffix is not None:
            out.append(f"allow[{i}] ({rule.id}): host = {rule.host!r} also allows every subdomain, and under "
                       f"{suffix!r} those are other people's sites: add `subdomains = false`")
    return out


def _draft(action: Mapping[str, Any], observation: Any, assessment: Any) -> dict[str, Any] | None:
    kind = action.get("type")
    if getattr(assessment, "redact", None):
        return None  # something in this action was a secret: a rule would have to name it
    if kind == "shell":
        from gate.shell import analyse

        command = action.get("command", action.get("argv"))
        if not command or not isinstance(command, str | list):
            return None
        facts = analyse(command, action.get("cwd"))
        if facts.complex or facts.unparsable or facts.obfuscated or facts.assignments or len(facts.commands) != 1:
            return None
        env = action.get("env") or {}
        from gate.paths import lexical
        from gate.redact import find_secrets

        if not isinstance(env, dict) or any(not isinstance(v, str) or "«redacted" in v or find_secrets(f"{k}={v}")
                                             or find_secrets(v) for k, v in env.items()):
            return None  # a rule would have to hold a secret (or its fingerprint): none is offered
        try:
            cwd = lexical(str(action.get("cwd") or "~"))
        except ValueError:
            return None
        # as narrow as the approval: this command, in this directory, with exactly these variables
        return {"id": "shell-" + _slug(facts.text), "types": ["shell"], "command": _glob_literal(facts.text),
                "cwd": _glob_literal(cwd), "env": {str(k): str(v) for k, v in env.items()}}
    if kind == "navigate":
        host = _host(action)
        if not host:
            return None
        # this host only: a rule for s3.amazonaws.com must not allow attacker.s3.amazonaws.com
        return {"id": "web-" + _slug(host), "types": ["navigate"], "host": host, "subdomains": False}
    if kind == "click":
        target = action.get("target") or {}
        label = " ".join(str(p) for p in (target.get("label"), target.get("name")) if p).strip()
        app = str(getattr(observation, "app", "") or "")
        window = str(getattr(observation, "window_title", "") or "")
        if not label or not (app or window):
            return None  # a click on an unnamed thing, or in no known window, cannot be pinned down
        rule: dict[str, Any] = {"id": "click-" + _slug(f"{app} {label}"), "types": ["click"],
                                "label": _glob_literal(label)}
        if app:
            rule["app"] = _glob_literal(app)
        if window:
            rule["window"] = _glob_literal(window)
        return rule
    return None


def suggest_allow_rule(action: Mapping[str, Any], observation: Any, assessment: Any,
                       policy: Any = None) -> dict[str, Any] | None:
    """The narrow allow rule for this (sanitised) action, or None when none fits. With `policy`, the
    rule is only returned when the gate, with it added, would apply it to this very action."""
    try:
        rule = _draft(action, observation, assessment)
    except (TypeError, ValueError):
        return None
    if rule is None or policy is None:
        return rule
    import msgspec

    from gate import SafetyGate
    from gate.model import action_from_dict
    from gate.policy import AllowRule

    try:
        trial = msgspec.structs.replace(policy, allow=[msgspec.convert(rule, AllowRule)])
        trace = SafetyGate(trial).explain(action_from_dict(dict(action)), observation)
    except Exception:  # a rule the gate cannot check is not offered
        return None
    applied = trace.assessment.decision.value == "allow" and trace.allow_rule == rule["id"]
    return rule if applied else None  # a block is never overridden: no rule is offered for one


_SUBCOMMAND = re.compile(r"^[a-z][\w.:-]*$")


def _wider_draft(action: Mapping[str, Any], observation: Any, assessment: Any) -> tuple[dict[str, Any], str] | None:
    """(the wider rule, the dialog's words for it) for this action, or None."""
    kind = action.get("type")
    if getattr(assessment, "redact", None):
        return None
    if kind in ("file_write", "file_move"):
        from gate.paths import default_home, resolve, work_area_refusal

        raw = action.get("to") if kind == "file_move" else action.get("path")
        if not isinstance(raw, str) or not raw.startswith(("/", "~")):
            return None
        home = default_home()
        folder = os.path.dirname(resolve(raw, home=home))
        if work_area_refusal(folder, home, ("/etc", "/usr", "/bin", "/sbin", "/lib", "/boot", "/sys", "/proc",
                                            "/dev", "/var/lib")) is not None:
            return None  # never "edits in" home itself, / or a system directory
        return ({"id": "edits-" + _slug(folder), "types": ["file_write", "file_move"],
                 "path": _glob_literal(folder) + "/*"}, "Allow edits in this folder")
    if kind == "shell":
        from gate.shell import analyse

        command, cwd = action.get("command", action.get("argv")), action.get("cwd")
        if not command or not isinstance(command, str | list) or not isinstance(cwd, str) or not cwd.startswith("/"):
            return None
        facts = analyse(command, cwd)
        if facts.complex or facts.unparsable or facts.obfuscated or facts.assignments or len(facts.commands) != 1:
            return None
        words = list(facts.commands[0].words)
        prefix = [words[0]]
        for w in words[1:3]:
            if not _SUBCOMMAND.match(w):
                break
            prefix.append(w)
        if len(prefix) == len(words) and ":" not in prefix[-1]:
            return None  # nothing after the program and its subcommands: the exact rule says it all
        if ":" in prefix[-1]:
            glob = " ".join([*prefix[:-1], prefix[-1].split(":", 1)[0] + ":"]) + "*"
        else:
            glob = " ".join(prefix) + " *"
        return ({"id": "here-" + _slug(glob), "types": ["shell"], "command": _glob_literal(glob.rstrip("*")) + "*",
                 "cwd": _glob_literal(cwd.rstrip("/")) + "*"}, f"Allow “{glob}” here")
    if kind == "navigate":
        host = _host(action)
        if not subdomains_are_the_owners(host):
            return None  # shared hosting, a public suffix, an address: the exact host only
        return ({"id": "site-" + _slug(host), "types": ["navigate"], "host": host, "subdomains": True},
                "Always allow this host and its subdomains")
    if kind == "click":
        app = str(getattr(observation, "app", "") or "")
        if not app:
            return None
        return ({"id": "clicks-" + _slug(app), "types": ["click"], "app": _glob_literal(app),
                 "except_consequential": True}, "Allow clicks in this app except consequential ones")
    return None


def suggest_wider_rule(action: Mapping[str, Any], observation: Any, assessment: Any,
                       policy: Any = None) -> tuple[dict[str, Any], str] | None:
    """The wider rule a dialog may offer besides the exact one: edits in the file's folder, the program
    with its subcommand in this directory, clicks in this app except consequential ones, a host and its
    subdomains (where they are its owner's, see `subdomains_are_the_owners`). With `policy`,
    only when the gate, with it added, would apply it to this very action (a block is never covered)."""
    try:
        drafted = _wider_draft(action, observation, assessment)
    except (TypeError, ValueError):
        return None
    if drafted is None or policy is None:
        return drafted
    import msgspec

    from gate import SafetyGate
    from gate.model import action_from_dict
    from gate.policy import AllowRule

    rule, _ = drafted
    judged = dict(action)
    if not isinstance(judged.get("content", ""), str):
        judged["content"] = ""  # shown as a digest: the rule is about the path, not what is written
    try:
        trial = msgspec.structs.replace(policy, allow=[msgspec.convert(rule, AllowRule)])
        trace = SafetyGate(trial).explain(action_from_dict(judged), observation)
    except Exception:  # a rule the gate cannot check is not offered
        return None
    applied = trace.assessment.decision.value == "allow" and trace.allow_rule == rule["id"]
    return drafted if applied else None


def suggest_ask_rule(action: Mapping[str, Any]) -> dict[str, Any] | None:
    """The `[[ask]]` rule "Always ask for this host" writes for a navigation: this very host asks every
    time (an allow rule or an allowed origin no longer lets it through; a block still blocks). None for
    anything else."""
    if action.get("type") != "navigate":
        return None
    host = _host(action)
    if not host:
        return None
    return {"id": "ask-" + _slug(host), "types": ["navigate"], "host": host, "subdomains": False}


# -- reading and writing the file -----------------------------------------------------------------


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return POLICY_TEMPLATE


def _check(text: str, path: Path) -> dict[str, Any]:
    """The new text must be TOML and a policy deskgate loads. Returns the parsed document."""
    from gate import load_policy

    doc = tomllib.loads(text)
    with tempfile.TemporaryDirectory(prefix="deskgate-policy-") as tmp:
        trial = Path(tmp) / path.name
        trial.write_text(text, encoding="utf-8")
        load_policy(trial)
    return doc


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):  # an inline table: keys quoted, so any variable name is a valid key
        return "{" + ", ".join(f"{_toml_value(str(k))} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise ValueError(f"cannot write {type(value).__name__} to the policy file")


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()[:160]


def add_allow_rule(path: str | Path, rule: Mapping[str, Any], *, reason: str = "",
                   now: datetime.datetime | None = None) -> str:
    """Append `rule` as an `[[allow]]` block with a comment saying when and for what. Returns its id
    (made unique in the file by a numeric suffix)."""
    return _add_rule(path, "allow", rule, reason=reason, now=now)


def add_ask_rule(path: str | Path, rule: Mapping[str, Any], *, reason: str = "",
                 now: datetime.datetime | None = None) -> str:
    """Append `rule` as an `[[ask]]` block ("always ask"), like `add_allow_rule`. Returns its id."""
    return _add_rule(path, "ask", rule, reason=reason, now=now)


def _add_rule(path: str | Path, table: str, rule: Mapping[str, Any], *, reason: str,
              now: datetime.datetime | None) -> str:
    path = Path(path).expanduser()
    text = _read(path)
    existing = {r.get("id") for r in tomllib.loads(text).get(table, []) if isinstance(r, dict)}
    base = str(rule["id"])
    rule_id, n = base, 2
    while rule_id in existing:
        rule_id, n = f"{base}-{n}", n + 1
    when = (now or datetime.datetime.now(datetime.UTC)).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# {when}: {_ADDED_BY[table]}" + (f" for {_one_line(reason)}" if reason else ""),
             f"[[{table}]]", f"id = {_toml_value(rule_id)}"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in rule.items() if key != "id"]
    block = "\n".join(lines) + "\n"
    new = text if text.endswith("\n") or not text else text + "\n"
    new += ("\n" if new.strip() else "") + block
    doc = _check(new, path)
    if not any(isinstance(r, dict) and r.get("id") == rule_id for r in doc.get(table, [])):
        raise ValueError(f"the rule {rule_id!r} did not land in {path}; the file was not changed")
    write_atomic(path, new)
    return rule_id


class RuleEntry:
    """One `[[allow]]` (or `[[ask]]`) rule of the file, with the comment lines just above it."""

    __slots__ = ("comment", "fields", "id")

    def __init__(self, rule_id: str, fields: dict[str, Any], comment: str) -> None:
        self.id = rule_id
        self.fields = fields
        self.comment = comment

    def __repr__(self) -> str:
        return f"RuleEntry({self.id!r}, {self.fields!r}, {self.comment!r})"


def _blocks(text: str, table: str = "allow") -> list[tuple[int, int, int]]:
    """(first comment line, header line, end) line indexes of each `[[table]]` block, in order."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.strip() != f"[[{table}]]":
            continue
        start = i
        while start > 0 and lines[start - 1].lstrip().startswith("#"):
            start -= 1
        end = i + 1
        while end < len(lines) and not _HEADER.match(lines[end]):
            end += 1
        while end > i + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
            end -= 1  # trailing blank lines and the next block's comment are not part of this one
        out.append((start, i, end))
    return out


def list_allow_rules(path: str | Path) -> list[RuleEntry]:
    """The allow rules in the file, in order, each with its comment."""
    return _list_rules(path, "allow")


def list_ask_rules(path: str | Path) -> list[RuleEntry]:
    """The "always ask" rules (`[[ask]]`) in the file, in order, each with its comment."""
    return _list_rules(path, "ask")


def _list_rules(path: str | Path, table: str) -> list[RuleEntry]:
    path = Path(path).expanduser()
    text = _read(path)
    rules = [r for r in tomllib.loads(text).get(table, []) if isinstance(r, dict)]
    blocks = _blocks(text, table)
    lines = text.splitlines()
    out = []
    for n, rule in enumerate(rules):
        comment = ""
        if n < len(blocks):
            start, header, _ = blocks[n]
            comment = "\n".join(line.lstrip().lstrip("#").strip() for line in lines[start:header])
        out.append(RuleEntry(str(rule.get("id", "")), {k: v for k, v in rule.items() if k != "id"}, comment))
    return out


def remove_allow_rule(path: str | Path, rule_id: str) -> None:
    """Remove the `[[allow]]` block with this id (and its comment). Raises KeyError when there is none,
    ValueError when the block cannot be cut out cleanly (then edit the file by hand)."""
    _remove_rule(path, "allow", rule_id)


def remove_ask_rule(path: str | Path, rule_id: str) -> None:
    """Remove the `[[ask]]` block with this id (and its comment), like `remove_allow_rule`."""
    _remove_rule(path, "ask", rule_id)


def _remove_rule(path: str | Path, table: str, rule_id: str) -> None:
    path = Path(path).expanduser()
    text = _read(path)
    rules = [r for r in tomllib.loads(text).get(table, []) if isinstance(r, dict)]
    index = next((n for n, r in enumerate(rules) if r.get("id") == rule_id), None)
    if index is None:
        raise KeyError(rule_id)
    blocks = _blocks(text, table)
    if len(blocks) != len(rules):
        raise ValueError(f"{path}: the {table} rules are not all written as [[{table}]] blocks; edit the file by hand")
    start, _, end = blocks[index]
    lines = text.splitlines(keepends=True)
    while end < len(lines) and not lines[end].strip():
        end += 1  # and the blank line after it
    new = "".join(lines[:start] + lines[end:])
    doc = _check(new, path)
    left = [r.get("id") for r in doc.get(table, []) if isinstance(r, dict)]
    if rule_id in left or len(left) != len(rules) - 1:
        raise ValueError(f"{path}: could not remove rule {rule_id!r} cleanly; edit the file by hand")
    write_atomic(path, new)


# -- settings ---------------------------------------------------------------------------------------


def read_settings(path: str | Path | None, preset: str | None = None) -> dict[str, Any]:
    """The effective value of every settings key (the shipped defaults overlaid by the file)."""
    from gate.policy import policy_document

    p = Path(path).expanduser() if path is not None else None
    doc, _, _ = policy_document(p if p is not None and p.exists() else None, preset)
    out: dict[str, Any] = {}
    for key in SETTINGS:
        node: Any = doc
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        out[key] = node
    return out


def _set_line(lines: list[str], key: str, value: Any) -> list[str]:
    table, _, name = key.rpartition(".")
    assignment = re.compile(rf"^\s*{re.escape(name)}\s*=")
    rendered = f"{name} = {_toml_value(value)}\n"
    # the table's line range ("" = the top level, before the first header)
    start, end = 0, len(lines)
    if table:
        header = next((i for i, line in enumerate(lines) if (m := _HEADER.match(line)) and line.strip().startswith(
            "[") and not line.strip().startswith("[[") and m.group(1) == table), None)
        if header is None:
            tail = [] if not lines or lines[-1].endswith("\n") else ["\n"]
            return [*lines, *tail, "\n", f"[{table}]\n", rendered]
        start = header + 1
    end = next((i for i in range(start, len(lines)) if _HEADER.match(lines[i])), len(lines))
    for i in range(start, end):
        if assignment.match(lines[i]):
            comment = re.search(r"\s+#[^\"']*$", lines[i].rstrip("\n"))
            return [*lines[:i], rendered.rstrip("\n") + (comment.group(0) if comment else "") + "\n",
                    *lines[i + 1:]]
    at = start
    if not table:  # after the top-level comments, before the first table
        while at < end and lines[at].lstrip().startswith("#"):
            at += 1
    return [*lines[:at], rendered, *lines[at:]]


def set_settings(path: str | Path, values: Mapping[str, Any]) -> None:
    """Set each dotted key (one of SETTINGS) to its value in the file, keeping everything else."""
    path = Path(path).expanduser()
    lines = _read(path).splitlines(keepends=True)
    for key, value in values.items():
        if key not in SETTINGS:
            raise ValueError(f"{key!r} is not a setting this window writes")
        lines = _set_line(lines, key, SETTINGS[key](value))
    new = "".join(lines)
    doc = _check(new, path)
    for key, value in values.items():
        node: Any = doc
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node != SETTINGS[key](value):
            raise ValueError(f"{path}: {key} is written in a form this window cannot edit; edit the file by hand")
    write_atomic(path, new)
