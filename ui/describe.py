"""What a person reads about an action: plain words (gate/describe.py), redaction-aware, and HTML for the
risky parts.

No widgets here, so each function is tested on its own; the dialog and viewer only lay the results out.
Nothing here judges an action again: the risky parts come from the verdict shown (`Hit.spans`).
Fail closed on secrets: a field is hidden when the sanitiser replaced it ({"hmac", "len"}), when the
gate listed it in `assessment.redact`, or when the secret detector flags it.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

# the one describer and its secret handling live in the gate (no Qt there); re-exported for the widgets
from gate.describe import (
    MASK,
    describe_action,
    headline,
    hidden_fields,
    secret_length,
    shell_command_text,
    target_source,
)
from ui.theme import span_colors

__all__ = [
    "MASK",
    "Span",
    "describe_action",
    "describe_rule",
    "diff_html",
    "file_diff",
    "headline",
    "hidden_fields",
    "secret_length",
    "shell_command_text",
    "shell_highlight",
    "target_source",
    "typed_text",
    "url_html",
]

_RISK_ORDER = ("low", "medium", "high", "critical")


def typed_text(action: Mapping[str, Any], redact: Iterable[str] = ()) -> str:
    """The text to be typed as it may be shown: the plain text, or •••• with its length when hidden."""
    value = action.get("text")
    if "text" in hidden_fields(action, redact) or not isinstance(value, str):
        return f"{MASK} ({secret_length(value)} characters, hidden)"
    return value


# -- shell commands: highlight the risky parts -------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    risk: str
    why: str


_W = r"(?<![\w./-])"  # a command word starts a token: "sh" in "get.example.sh" is not a shell

# A lexical pass under the gate's own spans: operators that chain or redirect, and words that escalate,
# destroy or fetch. It only colours; the decision is the gate's.
_FALLBACK_PATTERNS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(p), risk, why)
    for p, risk, why in (
        (r"\|\||&&|;|\|(?!\|)", "medium", "chains or pipes commands"),
        (r"\$\(|`|<\(|>\(", "high", "command substitution"),
        (r">>?|2>", "medium", "redirects output"),
        (_W + r"(?:sudo|doas|su)\b", "high", "runs as another user"),
        (_W + r"rm\b(?:\s+-\w+)*", "high", "deletes files"),
        (_W + r"(?:mkfs(?:\.\w+)?|dd|shred|wipefs|fdisk)\b", "critical", "writes disks"),
        (_W + r"(?:chmod|chown)\s+-R\b", "high", "recursive permission change"),
        (_W + r"(?:curl|wget)\b", "medium", "downloads"),
        (_W + r"(?:sh|bash|zsh|eval|exec|python3?|perl)\b", "medium", "runs code"),
        (r"(?i)\b(?:drop|truncate)\s+(?:table|database)\b", "critical", "drops data"),
        (r"--force\b|\s-f\b", "medium", "forces"),
        (r":\(\)\s*\{", "critical", "fork bomb"),
        (r"/dev/(?:sd|nvme|hd)\w*", "critical", "raw disk device"),
    )
)


def _attr(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, Mapping) and name in obj:
            return obj[name]
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


def _risk_text(risk: Any) -> str:
    label = getattr(risk, "label", None)
    text = (label if isinstance(label, str) else str(risk or "medium")).lower()
    return text if text in _RISK_ORDER else "medium"


def _hit_spans(command: str, hits: Iterable[Any]) -> list[Span]:
    """The risky parts the gate's rules pointed at (`Hit.spans` into the command or its quoted argv), each
    with the risk and reason of its hit: the verdict being shown, under the policy that made it."""
    spans: list[Span] = []
    for hit in hits:
        risk, reason = _risk_text(getattr(hit, "risk", None)), str(getattr(hit, "reason", ""))
        for where in getattr(hit, "spans", ()) or ():
            if where.field in ("command", "argv") and 0 <= where.start < where.end <= len(command):
                spans.append(Span(where.start, where.end, risk, reason))
    return spans


def _quoted_mask(command: str) -> list[bool]:
    """True for characters inside '...' or "..." (operators there are just text)."""
    mask, quote, i = [False] * len(command), "", 0
    while i < len(command):
        c = command[i]
        if quote:
            mask[i] = True
            if c == "\\" and quote == '"':
                if i + 1 < len(command):
                    mask[i + 1] = True
                i += 2
                continue
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
            mask[i] = True
        elif c == "\\":
            i += 1
        i += 1
    return mask


def _fallback_spans(command: str, hits: Iterable[Any]) -> tuple[list[Span], list[str]]:
    spans: list[Span] = []
    quoted = _quoted_mask(command)
    for pattern, risk, why in _FALLBACK_PATTERNS:
        for m in pattern.finditer(command):
            if m.end() > m.start() and not all(quoted[m.start():m.end()]):
                spans.append(Span(m.start(), m.end(), risk, why))
    # Words a rule quoted in its reason ("... 'rm -rf /' ...") are marked with that rule's risk.
    lowered = command.lower()
    for hit in hits:
        reason = str(getattr(hit, "reason", ""))
        for quoted in re.findall(r"'([^']{2,})'|`([^`]{2,})`", reason):
            needle = (quoted[0] or quoted[1]).lower()
            pos = lowered.find(needle)
            while pos >= 0:
                spans.append(Span(pos, pos + len(needle), _risk_text(getattr(hit, "risk", None)), reason))
                pos = lowered.find(needle, pos + len(needle))
    strongest: dict[str, int] = {}
    for s in spans:
        strongest[s.why] = max(strongest.get(s.why, -1), _RISK_ORDER.index(s.risk))
    factors = [f"{why} ({_RISK_ORDER[r]})" for why, r in sorted(strongest.items(), key=lambda kv: (-kv[1], kv[0]))]
    return spans, factors


def shell_highlight(command: str, hits: Iterable[Any] = ()) -> tuple[str, list[str]]:
    """Rich text of `command` with risky spans coloured, and the list of risk factors found.

    `hits`: the hits of the verdict being shown. Where they point (`Hit.spans`) is coloured with their
    risk; the lexical pass still marks operators and keywords, and names the risks when no hit points."""
    hits = list(hits)
    lexical, lexical_factors = _fallback_spans(command, hits)
    pointed = _hit_spans(command, hits)
    spans, factors = pointed + lexical, [] if pointed else lexical_factors
    said = [f"{h.reason} ({_risk_text(getattr(h, 'risk', None))})" for h in hits if getattr(h, "reason", "")]
    factors = list(dict.fromkeys(said + factors))  # what the gate's rules said comes first, each once
    # Per-character strongest risk, then runs of equal risk become one span.
    level = [-1] * len(command)
    for s in spans:
        r = _RISK_ORDER.index(s.risk)
        for i in range(s.start, min(s.end, len(command))):
            level[i] = max(level[i], r)
    out: list[str] = []
    i = 0
    while i < len(command):
        j = i
        while j < len(command) and level[j] == level[i]:
            j += 1
        chunk = html.escape(command[i:j])
        if level[i] >= 0:
            risk = _RISK_ORDER[level[i]]
            background, color = span_colors(risk)
            out.append(f'<span style="background-color:{background}; color:{color}; '
                       f'font-weight:bold;">{chunk}</span>')
        else:
            out.append(chunk)
        i = j
    body = "".join(out).replace("\n", "<br/>")
    return f'<p style="font-family:monospace; white-space:pre-wrap;">{body}</p>', factors


# -- URLs: the host is what a person must read -----------------------------------------------------


def url_html(url: str) -> tuple[str, str | None]:
    """Rich text of `url` with its real host in bold, and that host (as gate.urls parses it)."""
    from gate.urls import parse_host

    host = parse_host(url)
    escaped = html.escape(url)
    if not host:
        return f'<span style="font-family:monospace;">{escaped}</span>', None
    try:
        netloc = urlsplit(url if "://" in url else "//" + url).netloc
    except ValueError:
        netloc = ""
    # Look for the host after any userinfo ("user@evil.com@good.com" → good.com is the host).
    base = url.find(netloc) if netloc else -1
    after_at = base + netloc.rfind("@") + 1 if base >= 0 and "@" in netloc else max(base, 0)
    pos = url.lower().find(host, after_at)
    if pos < 0:
        return f'<span style="font-family:monospace;">{escaped}</span>', host
    end = pos + len(host)
    marked = (html.escape(url[:pos]) + f'<b style="font-size:large;">{html.escape(url[pos:end])}</b>'
              + html.escape(url[end:]))
    return f'<span style="font-family:monospace;">{marked}</span>', host


# -- file content and diffs ---------------------------------------------------------------------------

_DIFF_READ_MAX = 512 * 1024   # a bigger file is shown as the new content only
_DIFF_LINES_MAX = 400


def file_diff(path: str, new_content: str, *, read: Any = None) -> str | None:
    """A unified diff from the file as it is on disk to `new_content`, or None when there is nothing to
    compare with (no such file, not text, too big). `read(path) -> str` is injectable for tests."""
    import difflib
    import os

    if read is None:
        def read(p: str) -> str:
            if os.path.getsize(p) > _DIFF_READ_MAX:
                raise ValueError("too big to compare")
            with open(p, encoding="utf-8") as f:
                return f.read()
    try:
        old = read(path)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    lines = list(difflib.unified_diff(old.splitlines(keepends=True), new_content.splitlines(keepends=True),
                                      fromfile=f"{path} (now)", tofile=f"{path} (after)", n=2))
    if not lines:
        return "(no change: the new content is what the file holds now)"
    if len(lines) > _DIFF_LINES_MAX:
        more = len(lines) - _DIFF_LINES_MAX
        lines = [*lines[:_DIFF_LINES_MAX], f"… {more} more diff lines\n"]
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def diff_html(diff: str, colors: Mapping[str, str]) -> str:
    """A unified diff as HTML: added lines in colors['add'], removed in colors['del'], hunks in
    colors['hunk'] (the caller picks them from the palette, so dark mode reads too)."""
    out = []
    for line in diff.splitlines():
        text = html.escape(line) or "&nbsp;"
        if line.startswith(("+++", "---")):
            out.append(f"<b>{text}</b>")
        elif line.startswith("+"):
            out.append(f'<span style="color:{colors["add"]};">{text}</span>')
        elif line.startswith("-"):
            out.append(f'<span style="color:{colors["del"]};">{text}</span>')
        elif line.startswith("@@"):
            out.append(f'<span style="color:{colors["hunk"]};">{text}</span>')
        else:
            out.append(text)
    return '<pre style="margin:0; white-space:pre-wrap;">' + "<br>".join(out) + "</pre>"


def describe_rule(rule: Mapping[str, Any]) -> str:
    """An allow rule in a person's words: 'shell command “make test”', 'web pages on example.org'."""
    kinds = ", ".join(rule.get("types") or []) or "any action"
    rule = {k: re.sub(r"\[([*?\[])\]", r"\1", v) if isinstance(v, str) else v for k, v in rule.items()}
    parts = []
    if rule.get("command"):
        parts.append(f"command “{rule['command']}”")
    if rule.get("host"):
        # `subdomains` is true unless written false: a hand-written host rule covers its subdomains
        parts.append(f"on {rule['host']} and its subdomains" if rule.get("subdomains", True)
                     else f"on {rule['host']} only")
    if rule.get("label"):
        parts.append(f"on “{rule['label']}”")
    if rule.get("app"):
        parts.append(f"in {rule['app']}")
    if rule.get("window"):
        parts.append(f"window “{rule['window']}”")
    if rule.get("path"):
        path = rule["path"]
        parts.append(f"in the folder {path[:-2]}" if path.endswith("/*") else f"path {path}")
    if rule.get("cwd"):
        parts.append(f"run in {rule['cwd'].rstrip('*')}")
    if rule.get("except_consequential"):
        parts.append("except consequential ones (purchases, sends, deletes, credentials)")
    return f"{kinds}: " + " ".join(parts) if parts else kinds
