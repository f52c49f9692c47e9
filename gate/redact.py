"""Redaction and approval keys: what may reach the audit log, and how two requests are "the same".

Pure functions, no I/O. Secrets are never stored, only `{"redacted": true, "sha256": hex, "len": n}`
(a whole field) or `«redacted sha256:0123456789ab… len:n»` (a secret inside a longer string, such as a
shell command), so a person can still tell two different secrets apart, or check a known value.

    sanitize_action(action, redact_fields)  -> a copy safe to log and show
    sanitize_data(obj)                      -> the same scrubbing for free-form event data
    approval_key(action)                    -> sha256 of the canonical sanitised action (grants key)
    looks_secret(text)                      -> does this string contain anything the detector flags
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

__all__ = [
    "NOISE_FIELDS",
    "approval_key",
    "canonical_json",
    "digest",
    "find_secrets",
    "looks_secret",
    "redact_text",
    "sanitize_action",
    "sanitize_data",
]

# Fields that do not change what an action does: left out of the approval key.
NOISE_FIELDS = frozenset({"confidence", "note"})

# Key names whose value is a secret wherever they appear (tool input, system params, event data).
_SENSITIVE_KEY = re.compile(
    r"(?i)(?:^|[_.-])(?:pass(?:word|wd|phrase)?|secret|token|api[_-]?key|apikey|access[_-]?key|"
    r"private[_-]?key|client[_-]?secret|credentials?|auth(?:orization)?|cookie|session[_-]?id)(?:$|[_.-])"
    r"|^(?:pwd|pin|otp|cvv|cvc)$"
)

@functools.lru_cache(maxsize=1024)
def _sensitive_key(key: str) -> bool:
    return _SENSITIVE_KEY.search(key) is not None


# Secrets with a recognisable shape. Group "s" (when present) is the secret part of the match.
_KEYWORDS = (r"pass(?:word|wd|phrase)?|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|"
             r"client[_-]?secret|credentials?")
_VALUE = r"""(?P<s>"[^"\n]+"|'[^'\n]+'|(?![$-])[^\s&;|'"`<>]+)"""
_PATTERNS: tuple[re.Pattern[str], ...] = tuple(re.compile(p) for p in (
    # PEM private keys (to the END line, or to the end of the string when truncated)
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY"
    r"(?: BLOCK)?-----|\Z)",
    # vendor tokens with fixed prefixes
    r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b",
    r"\bgithub_pat_[A-Za-z0-9_]{20,}",
    r"\bglpat-[A-Za-z0-9_\-]{20,}",
    r"\bsk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_\-]{20,}",
    r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}",
    r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",
    r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
    r"\bAIza[0-9A-Za-z_\-]{35}",
    r"\bnpm_[A-Za-z0-9]{36}\b",
    # JSON web tokens
    r"\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}",
    # HTTP credentials inside commands
    r"(?i)\bauthorization\s*:\s*(?:(?:bearer|basic|token|digest)\s+)?(?P<s>[^\s'\"]+)",
    r"(?i)\bbearer\s+(?P<s>[A-Za-z0-9._~+/\-]{8,}=*)",
    r"(?i)(?:^|\s)(?:-u|--user)\s+['\"]?[^\s:'\"]+:(?P<s>[^\s'\"]+)",
    r"(?i)\b[a-z][a-z0-9+.\-]*://[^\s/:@]+:(?P<s>[^\s/@]+)@",
    # --password X / --token=X / sshpass -p X / mysql -pX
    r"(?i)(?:^|\s)--?(?:[\w-]*-)?(?:pass(?:word|wd|phrase)?|token|secret|api-?key|access-key)(?:=|\s+)" + _VALUE,
    r"(?i)\bsshpass\s+-p\s*(?P<s>\S+)",
    r"(?i)\bmysql(?:dump|admin)?\b[^|;&\n]*?\s-p(?P<s>[^\s'\"]+)",
    # NAME=value / "name": "value" where the name says it is a secret
    r"(?i)\b(?:[\w.\-]*[_.\-])?(?:" + _KEYWORDS + r")s?(?:[_.\-][\w.\-]*)?\b[\"']?\s*[:=]\s*" + _VALUE,
))

# Every pattern above needs one of these (lower-cased) somewhere, or a 32-character token run: most
# strings (clicks, paths, prose) have none and skip the full scan. Keep this a superset of _PATTERNS.
_TRIGGER_WORDS = (
    "-----begin", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "k_live_", "k_test_",
    "xox", "akia", "asia", "aiza", "npm_", "eyj", "authorization", "bearer", "-u", "--user", "pass", "secret",
    "token", "api", "access", "private", "credential", "mysql",
)
_TRIGGER = re.compile("|".join(map(re.escape, _TRIGGER_WORDS)))
_LONG_RUN = re.compile(r"[A-Za-z0-9+/_\-]{32}")


def _may_hold_secret(text: str) -> bool:
    low = text.lower()
    if _TRIGGER.search(low):
        return True
    if "://" in low and "@" in low:
        return True
    return _LONG_RUN.search(text) is not None


# Long high-entropy runs (API keys, AWS secret keys, random passwords).
_CANDIDATE = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{32,}={0,2}(?![A-Za-z0-9+/_=\-])")


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _char_class(c: str) -> int:
    return 0 if c.islower() else 1 if c.isupper() else 2 if c.isdigit() else 3


def _high_entropy(s: str) -> bool:
    """Random-looking: mixes letters and digits, switches character class often and uses many symbols.

    Paths, identifiers (camelCase, snake_case), hex digests and UUIDs stay readable: they are
    single-case, or switch class rarely, or have a low symbol count for their length.
    """
    core = s.rstrip("=")
    if "/" in core and not core.startswith("/") and core.count("/") > 3:
        return False  # a relative path, not base64 (base64 has few slashes)
    if core.startswith("/") or core.startswith("-"):
        return False
    has_upper = any(c.isupper() for c in core)
    has_lower = any(c.islower() for c in core)
    has_digit = any(c.isdigit() for c in core)
    if not (has_upper and has_lower and has_digit):
        return False
    switches = sum(1 for a, b in itertools.pairwise(core) if _char_class(a) != _char_class(b))
    digits = sum(c.isdigit() for c in core)
    # random base62 switches class at ~60% of positions; camelCase words at ~35%
    if switches < 0.45 * len(core) and not (digits >= 0.2 * len(core) and switches >= 0.3 * len(core)):
        return False
    return _entropy(core) >= 0.8 * math.log2(min(len(core), 64))


def find_secrets(text: str) -> list[tuple[int, int]]:
    """The spans (start, end) of every secret in `text`, merged and sorted."""
    if len(text) <= _CACHE_LEN:
        return list(_find_cached(text))
    return list(_find(text))


_CACHE_LEN = 512  # agents repeat short strings (labels, keys, reasons): remember their scan


@functools.lru_cache(maxsize=8192)
def _find_cached(text: str) -> tuple[tuple[int, int], ...]:
    return _find(text)


def _find(text: str) -> tuple[tuple[int, int], ...]:
    if not _may_hold_secret(text):
        return ()
    spans: list[tuple[int, int]] = []
    for pat in _PATTERNS:
        for m in pat.finditer(text):
            if "s" in pat.groupindex and m.group("s") is not None:
                start, end = m.span("s")
                value = m.group("s")
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                    start, end = start + 1, end - 1  # keep the quotes, hide what is inside
                if end > start:
                    spans.append((start, end))
            else:
                spans.append(m.span())
    for m in _CANDIDATE.finditer(text):
        if _high_entropy(m.group()):
            spans.append(m.span())
    if not spans:
        return ()
    spans.sort()
    merged = [spans[0]]
    for start, end in spans[1:]:
        last_start, last_end = merged[-1]
        if start <= last_end:
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return tuple(merged)


def looks_secret(text: str) -> bool:
    """Does `text` contain a token, key, credential or long random string?"""
    return bool(text) and bool(find_secrets(text))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def digest(value: Any) -> dict[str, Any]:
    """What the log keeps of a secret value: its sha256 and length (of the text, or of its JSON)."""
    text = value if isinstance(value, str) else canonical_json(value)
    return {"redacted": True, "sha256": _sha256(text), "len": len(text)}


def _marker(secret: str, hex_len: int) -> str:
    return f"«redacted sha256:{_sha256(secret)[:hex_len]}… len:{len(secret)}»"


def redact_text(text: str, *, hex_len: int = 12) -> str:
    """`text` with every secret substring replaced by a `«redacted sha256:… len:n»` marker."""
    spans = find_secrets(text)
    if not spans:
        return text
    out, pos = [], 0
    for start, end in spans:
        out.append(text[pos:start])
        out.append(_marker(text[start:end], hex_len))
        pos = end
    out.append(text[pos:])
    return "".join(out)


_ENCODER = msgspec.json.Encoder(order="sorted", enc_hook=str)


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8 text: the same value always gives the same string."""
    try:
        return _ENCODER.encode(value).decode("utf-8")
    except (TypeError, ValueError, OverflowError, msgspec.EncodeError):
        # what msgspec will not encode (non-string keys, lone surrogates): the slower standard encoder
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


class _Scrubber:
    def __init__(self, hex_len: int) -> None:
        self.hex_len = hex_len

    def string(self, text: str) -> Any:
        spans = find_secrets(text)
        if not spans:
            return text
        stripped = text.strip()
        if len(spans) == 1 and text[spans[0][0]:spans[0][1]].strip() == stripped:
            return digest(text)  # the whole value is the secret
        return redact_text(text, hex_len=self.hex_len)

    def value(self, value: Any, key: str | None = None) -> Any:
        if key is not None and _sensitive_key(key) and value not in (None, "", {}, []) \
                and not isinstance(value, bool):
            return digest(value)
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, Mapping):
            return {k: self.value(v, str(k)) for k, v in value.items()}
        if isinstance(value, list | tuple):
            if value and all(isinstance(v, str) for v in value):
                return self.argv(list(value))
            return [self.value(v) for v in value]
        return value

    _FLAG = re.compile(r"(?i)^--?(?:[\w-]*-)?(?:pass(?:word|wd|phrase)?|token|secret|api-?key|access-key)$")
    _MYSQL = frozenset({"mysql", "mysqldump", "mysqladmin", "mariadb"})

    def argv(self, items: list[str]) -> list[Any]:
        """A list of words (argv): a secret flag's value is the next word, e.g. ["--password", "x"]."""
        program = items[0].rsplit("/", 1)[-1]
        out: list[Any] = []
        secret_next = False
        for item in items:
            if secret_next:
                out.append(digest(item))
                secret_next = False
            elif program in self._MYSQL and item.startswith("-p") and len(item) > 2:
                out.append("-p" + _marker(item[2:], self.hex_len))  # mysql -pSECRET
            else:
                out.append(self.string(item))
                secret_next = bool(self._FLAG.match(item)) or (program == "sshpass" and item == "-p")
        return out


def _to_dict(action: Any) -> dict[str, Any]:
    if isinstance(action, Mapping):
        return dict(action)
    data = msgspec.to_builtins(action)
    if not isinstance(data, dict):
        raise TypeError("an action is a mapping or a gate Action")
    return data


def _sanitize(action: Any, redact_fields: Iterable[str], hex_len: int) -> dict[str, Any]:
    data = _to_dict(action)
    scrub = _Scrubber(hex_len)
    fields = frozenset(redact_fields)
    kind = data.get("type")
    nested = {}  # "input.password" → redact key "password" under "input"
    for f in fields:
        head, _, rest = f.partition(".")
        if rest:
            nested.setdefault(head, set()).add(rest)
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            out[key] = value
        elif value is None:
            out[key] = None
        elif key in fields or (kind == "file_write" and key == "content"):
            out[key] = digest(value)
        elif kind == "shell" and key == "env" and isinstance(value, Mapping):
            out[key] = {name: digest(v) for name, v in value.items()}
        elif key in nested and isinstance(value, Mapping):
            inner = _sanitize({"type": None, **value}, nested[key], hex_len)
            inner.pop("type")
            out[key] = inner
        else:
            out[key] = scrub.value(value, key if key not in ("text", "command", "url", "path") else None)
    return out


def sanitize_action(action_dict: Mapping[str, Any] | Any, redact_fields: Iterable[str] = frozenset()
                    ) -> dict[str, Any]:
    """A copy of the action safe to log and to show a person.

    Replaced by `{"redacted": true, "sha256", "len"}`: the fields named in `redact_fields` (the gate's
    Assessment.redact, e.g. "text" typed into a password field; "a.b" reaches into a nested object),
    always `file_write.content` and `shell.env` values, values under secret-sounding keys, and strings
    that are wholly a secret. A secret inside a longer string (a command) becomes a `«redacted …»` marker.
    """
    return _sanitize(action_dict, redact_fields, 12)


def sanitize_data(value: Any) -> Any:
    """Scrub free-form data (event details, executor output) the same way: keys and strings."""
    return _Scrubber(12).value(value)


def approval_key(action_dict: Mapping[str, Any] | Any) -> str:
    """sha256 of the canonical JSON of the sanitised action, without noise fields (confidence, note).

    The same request gives the same key; a changed command, text, path or target gives a new one
    (secrets are represented by their full sha256, so two different passwords give two keys).
    """
    clean = _sanitize(action_dict, (), 64)
    for noise in NOISE_FIELDS:
        clean.pop(noise, None)
    return hashlib.sha256(canonical_json(clean).encode("utf-8", "surrogatepass")).hexdigest()
