"""Redaction and approval keys: what may reach the audit log, and how two requests are "the same".

Pure functions, no I/O. Secrets are never stored, only `{"redacted": true, "hmac": hex, "len": n}`
(a whole field) or `«redacted hmac:0123456789ab… len:n»` (a secret inside a longer string, such as a
shell command), so a person can still tell two different secrets apart. The audit log passes its
per-install key (HMAC-SHA-256); without a key (approval keys, dialogs, nothing stored) it is SHA-256.

    sanitize_action(action, redact_fields)  -> a copy safe to log and show
    sanitize_data(obj)                      -> the same scrubbing for free-form event data
    approval_key(action)                    -> sha256 of the canonical sanitised action (grants key)
    looks_secret(text)                      -> does this string contain anything the detector flags
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import functools
import hashlib
import hmac
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec

__all__ = [
    "NOISE_FIELDS",
    "approval_key",
    "canonical_json",
    "digest",
    "find_secrets",
    "looks_secret",
    "redact_name",
    "redact_text",
    "sanitize_action",
    "sanitize_data",
    "secret_field",
    "secret_name",
    "typed_piece_hidden",
    "typed_secret",
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
# Every pattern runs on agent text on the request path, so each is linear: a match can start only at the
# start of a run of its characters (a negative lookbehind, or \b over word characters), and every
# repetition that may have to back off is bounded, so no input makes a pattern rescan a long run from
# each of its positions (tests/hardening/test_redos.py).
_KEYWORDS = (r"pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|"
             r"client[_-]?secret|credentials?|cookie|session[_-]?id")
_VALUE = r"""(?P<s>"[^"\n]{1,4096}"?|'[^'\n]{1,4096}'?|(?![$-])[^\s&;|'"`<>]{1,4096})"""
_PATTERNS: tuple[re.Pattern[str], ...] = tuple(re.compile(p) for p in (
    # PEM private keys (to the END line, or to the end of the string when truncated)
    r"-----BEGIN (?:[A-Z0-9]{1,20} ){0,4}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]{1,20} ){0,4}"
    r"PRIVATE KEY(?: BLOCK)?-----|\Z)",
    # vendor tokens with fixed prefixes
    r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,255}\b",
    r"\bgithub_pat_[A-Za-z0-9_]{20,}",
    r"(?<![A-Za-z0-9_\-])glpat-[A-Za-z0-9_\-]{20,}",
    r"(?<![A-Za-z0-9_\-])sk-[A-Za-z0-9_\-]{20,}",
    r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}",
    r"(?<![A-Za-z0-9_\-])xox[abposr]-[A-Za-z0-9\-]{10,}",
    r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
    r"(?<![A-Za-z0-9_\-])AIza[0-9A-Za-z_\-]{35}",
    r"\bnpm_[A-Za-z0-9]{36}\b",
    r"(?<![A-Za-z0-9_.\-])hv[sbr]\.[A-Za-z0-9_\-]{20,}",  # HashiCorp Vault tokens
    # JSON web tokens
    r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}",
    # HTTP credentials inside commands
    r"(?i)\b(?:proxy-)?authorization\s{0,16}:\s{0,16}(?:(?:bearer|basic|token|digest)\s{1,16})?"
    r"(?P<s>[^\s'\"]{1,4096})",
    r"(?i)(?<![\w-])(?:set-)?cookie\s{0,16}:\s{0,16}(?P<s>[^\r\n'\"]{1,4096})",
    r"(?i)\bbearer\s{1,16}(?P<s>[A-Za-z0-9._~+/\-]{8,4096}=*)",
    r"(?i)(?:^|\s)(?:-u|--user|--proxy-user)(?:=|\s{1,16})['\"]?[^\s:'\"]{1,256}:(?P<s>[^\s'\"]{1,4096})",
    r"(?i)(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]{0,31}://[^\s/:@]{0,256}:(?P<s>[^\s/@]{1,1024})@",
    # --password X / --token=X / -passin pass:X / sshpass -p X / mysql -pX
    r"(?i)(?:^|\s)--?(?:[\w-]{0,48}-)?(?:pass(?:word|wd|phrase|in|out)?|pwd|token|secret|api-?key|access-key)"
    r"(?:=|\s{1,16})" + _VALUE,
    r"(?i)(?<![\w-])pass:(?P<s>[^\s'\"]{1,1024})",
    r"(?i)\bsshpass\s{1,16}-p\s{0,16}(?P<s>[^\s'\"]{1,1024})",
    r"(?i)\b(?:mysql(?:dump|admin)?|mariadb)\b[^|;&\n]{0,256}?\s-p(?P<s>[^\s'\"]{1,1024})",
    # an address's query or fragment parameter that carries a credential by its name (`?sig=`, `&key=`,
    # `#access_token=`, a reset `code=`, a signed URL's `X-Amz-Signature=`)
    r"(?i)[?&#;](?:[\w.\-]{0,32}[_.\-])?(?:key|apikey|sig|signature|code|otp|jwt|auth|ticket|hmac|sas|"
    r"credential|secret|token|password|pwd|session|sid)=(?P<s>[^&#\s'\"]{1,4096})",
    # webhook addresses whose path is the credential (anyone holding it posts as the integration)
    r"(?i)hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9/_\-]{16,512})",
    r"(?i)discord(?:app)?\.com/api/webhooks/(?P<s>\d{5,32}/[A-Za-z0-9_\-]{16,256})",
    r"(?i)\.webhook\.office\.com/webhookb2/(?P<s>[^\s'\"]{16,1024})",
    # NAME=value / "name": "value" where the name says it is a secret (PGPASSWORD=, MYSQL_PWD=, ?token=)
    r"(?i)(?<![\w.\-])[\w.\-]{0,48}?(?:" + _KEYWORDS + r")s?(?:[_.\-][\w.\-]{0,48}?)?[\"']?\s{0,8}[:=]\s{0,8}"
    + _VALUE,
))

# Every pattern above needs one of these (lower-cased) somewhere, or a 32-character token run: most
# strings (clicks, paths, prose) have none and skip the full scan. Keep this a superset of _PATTERNS and
# of the programs in _SECRET_ARGS.
_TRIGGER_WORDS = (
    "-----begin", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "sk-", "k_live_", "k_test_",
    "xox", "akia", "asia", "aiza", "npm_", "eyj", "authorization", "bearer", "-u", "--user", "pass", "secret",
    "token", "api", "access", "private", "credential", "mysql", "mariadb", "pwd", "cookie", "session", "hvs.",
    "hvb.", "hvr.", "-p", "-k", "-h", "login", "htpasswd", "vault", "redis-cli", "ldap", "/p:", "-w",
    "rabbitmqctl", "key=", "sig=", "signature=", "code=", "otp=", "jwt=", "auth=", "ticket=", "hmac=", "sas=",
    "sid=", "hooks.slack.com", "/api/webhooks/", "webhook.office.com",
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


# -- secret arguments of programs (the effect model's "this argument is a secret") -------------------
# Which argument of which program is a secret, as data. A command string is split into words (quotes
# and backslashes honoured, split at ; & | ( ) < > ` and newlines) and each simple command checked.

_REGISTRY_LOGIN = frozenset({"docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane",
                             "regctl"})
_MYSQL = frozenset({"mysql", "mysqldump", "mysqladmin", "mariadb", "mariadb-dump"})
_HTTP = frozenset({"curl", "wget", "http", "https", "xh"})
_WRAPPERS = frozenset({"sudo", "doas", "env", "nohup", "exec", "command", "time", "nice", "ionice", "stdbuf"})
# Short flags whose value is a password for one program, where the same letter means something else for
# others (`ssh -p` is a port, `zip -P` a password). How the value is given:
#   next      the next word (`redis-cli -a PASS`)
#   attached  glued to the flag (`7z a -pPASS`, `mysql -pPASS`)
#   either    either way (`zip -P PASS`, `sshpass -pPASS`)
#   user%     the next word or glued, `user%PASS` (smbclient -U bob%PASS): the part after `%`
#   user,     the next word, `user,PASS` (lftp -u bob,PASS): the part after `,`
# Long `--password`-style flags of every program are matched by _SECRET_FLAG below.
_ZIP = {"-P": "either"}
_SEVEN_ZIP = {"-p": "attached"}
_LDAP = {"-w": "next"}
_SMB = {"-U": "user%", "--user": "user%"}
SECRET_ARGS: dict[str, dict[str, str]] = {
    "zip": _ZIP, "unzip": _ZIP, "zipcloak": _ZIP, "funzip": _ZIP,
    "7z": _SEVEN_ZIP, "7za": _SEVEN_ZIP, "7zr": _SEVEN_ZIP, "7zz": _SEVEN_ZIP, "rar": _SEVEN_ZIP,
    "unrar": _SEVEN_ZIP,
    "redis-cli": {"-a": "next", "--pass": "next", "--user": "next"},
    "smbclient": _SMB, "smbget": _SMB, "smbcacls": _SMB, "rpcclient": _SMB, "smbmap": {"-p": "next"},
    "net": _SMB, "mount.cifs": {}, "smbpasswd": {},
    "ldapsearch": _LDAP, "ldapadd": _LDAP, "ldapmodify": _LDAP, "ldapdelete": _LDAP, "ldappasswd": _LDAP,
    "ldapwhoami": _LDAP, "ldapcompare": _LDAP, "ldapmodrdn": _LDAP, "ldapexop": _LDAP,
    "mysql": {"-p": "attached"}, "mysqldump": {"-p": "attached"}, "mysqladmin": {"-p": "attached"},
    "mysqlimport": {"-p": "attached"}, "mysqlshow": {"-p": "attached"}, "mariadb": {"-p": "attached"},
    "mariadb-dump": {"-p": "attached"},
    "sshpass": {"-p": "either"},
    "mongo": {"-p": "next"}, "mongosh": {"-p": "next"}, "mongodump": {"-p": "next"}, "mongorestore": {"-p": "next"},
    "mongoexport": {"-p": "next"}, "mongoimport": {"-p": "next"},
    "sqlcmd": {"-P": "either"}, "bcp": {"-P": "either"}, "osql": {"-P": "either"}, "isql": {},
    "mosquitto_pub": {"-P": "next"}, "mosquitto_sub": {"-P": "next"},
    "keytool": {"-storepass": "next", "-keypass": "next", "-srcstorepass": "next", "-deststorepass": "next",
                "-srckeypass": "next", "-destkeypass": "next", "-new": "next"},
    "jarsigner": {"-storepass": "next", "-keypass": "next"},
    "rdesktop": {"-p": "next"}, "xfreerdp": {"/p:": "attached"}, "wlfreerdp": {"/p:": "attached"},
    "lftp": {"-u": "user,"}, "ncftp": {"-p": "next"}, "ncftpget": {"-p": "next"}, "ncftpput": {"-p": "next"},
    "openssl": {"-k": "next"}, "ipmitool": {"-P": "next"}, "snmpwalk": {"-A": "next", "-X": "next"},
    "snmpget": {"-A": "next", "-X": "next"}, "cqlsh": {"-p": "next"}, "influx": {"-password": "next"},
    "rabbitmqctl": {}, "nmcli": {}, "iwconfig": {}, "wpa_passphrase": {},
}
# programs whose secret is a positional word: (program, subcommand or "", index among positionals)
SECRET_POSITIONAL: tuple[tuple[str, str, int], ...] = (
    ("wpa_passphrase", "", 1),        # wpa_passphrase SSID PASSPHRASE
    ("smbpasswd", "", -1),
    ("rabbitmqctl", "add_user", 2),   # rabbitmqctl add_user NAME PASSWORD
    ("rabbitmqctl", "change_password", 2),
)


def _table_secret(table: dict[str, str], v: str) -> tuple[str, str | None] | None:
    """For a flag word `v` of a program in SECRET_ARGS: ("now", secret) when the secret is in `v`,
    ("next", mode) when it is the next word, None when `v` is no secret flag there."""
    for flag, mode in table.items():
        if v == flag and mode in ("next", "either", "user%", "user,"):
            return "next", mode
        if v.startswith(flag) and len(v) > len(flag) and mode in ("attached", "either", "user%"):
            rest = v[len(flag):]
            return "now", (_after(rest, "%") if mode == "user%" else rest)
    return None


def _after(value: str, sep: str) -> str | None:
    _, found, rest = value.partition(sep)
    return rest or None if found else None


_SECRET_FLAG = re.compile(
    r"(?i)^--?(?:[\w-]{0,48}-)?(?:pass(?:word|wd|phrase|in|out)?|pwd|token|secret|api-?key|access-key)$")
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
                             "api-key", "x-auth-token", "private-token", "x-vault-token", "x-access-token"})
_PLAIN = re.compile(r"[^\s'\"\\;&|()<>`]+")
_DQUOTED = re.compile(r'"(?:[^"\\]|\\.)*"?', re.S)  # one way to match each character: linear
_BREAK = frozenset(";&|()<>`\n")
_Word = tuple[int, int, str]  # start, end (in the text), the word with quotes removed


def _words(text: str) -> list[list[_Word]]:
    """Simple commands of `text` as lists of words. Linear: each character is looked at once."""
    commands: list[list[_Word]] = []
    current: list[_Word] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _BREAK:
            if current:
                commands.append(current)
                current = []
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        start, parts = i, []
        while i < n and not text[i].isspace() and text[i] not in _BREAK:
            c = text[i]
            if c == "'":
                j = text.find("'", i + 1)
                j = n if j < 0 else j
                parts.append(text[i + 1:j])
                i = j + 1
            elif c == '"':
                m = _DQUOTED.match(text, i)  # always matches: an unclosed quote runs to the end
                body = m.group()[1:]
                parts.append((body[:-1] if body.endswith('"') and m.end() - i > 1 else body).replace('\\"', '"'))
                i = m.end()
            elif c == "\\":
                parts.append(text[i + 1:i + 2])
                i += 2
            else:
                m = _PLAIN.match(text, i)
                parts.append(m.group() if m else c)
                i = m.end() if m else i + 1
        current.append((start, min(i, n), "".join(parts)))
    if current:
        commands.append(current)
    return commands


def _after_colon(value: str) -> str | None:
    _, sep, rest = value.partition(":")
    return rest.strip() or None if sep else None


_AUTH_SCHEMES = ("bearer ", "basic ", "token ", "digest ")


def _header_secret(value: str) -> str | None:
    name, sep, rest = value.partition(":")
    if not sep or name.strip().lower() not in _SECRET_HEADERS:
        return None
    rest = rest.strip()
    if rest.lower().startswith(_AUTH_SCHEMES):
        rest = rest.split(None, 1)[1].strip() if " " in rest else rest  # the credential, not its scheme
    return rest or None


def _command_secrets(words: list[_Word]) -> list[tuple[int, str]]:
    """(word index, the secret part of that word) for one simple command."""
    i = 0
    while i < len(words) and (("=" in words[i][2] and not words[i][2].startswith("-"))
                              or words[i][2].rsplit("/", 1)[-1] in _WRAPPERS or words[i][2].startswith("-")):
        i += 1  # NAME=value prefixes (the text patterns see those), wrappers and their flags
    if i >= len(words):
        return []
    program = words[i][2].rsplit("/", 1)[-1].lower()
    args = words[i + 1:]
    base = i + 1
    out: list[tuple[int, str]] = []
    positional: list[int] = []
    flags = ""
    login = False  # a registry client's `login` subcommand seen: its -p is a password
    take_next: Callable[[str], str | None] | None = None
    table = SECRET_ARGS.get(program)
    for k, (_, _, v) in enumerate(args):
        at = base + k
        if take_next is _whole and v.startswith("-"):
            take_next = None  # `psql --password -h db`: a flag that prompts, then the next flag
        if take_next is not None:
            secret = take_next(v)
            if secret:
                out.append((at, secret))
            take_next = None
            continue
        if table and (hit := _table_secret(table, v)) is not None:
            how, value = hit
            if how == "now":
                if value:
                    out.append((at, value))
            else:
                take_next = _NEXT[value or "next"]
            continue
        if v.startswith("-") and len(v) > 1:
            name, eq, val = v.partition("=")
            flags += name.lstrip("-") if not name.startswith("--") else ""
            if _SECRET_FLAG.match(name) or (program == "openssl" and name == "-k"):
                if eq and val:
                    out.append((at, val))
                elif not eq:
                    take_next = _whole
            elif login and name in ("-p", "--password"):
                take_next = _whole  # `docker login -p X` (not `docker run -p 8080:80`)
            elif (login or program == "sshpass") and v.startswith("-p") and len(v) > 2 and not v.startswith("--"):
                out.append((at, v[2:]))
            elif program == "sshpass" and v == "-p":
                take_next = _whole
            elif program in _MYSQL and v.startswith("-p") and len(v) > 2 and not v.startswith("--"):
                out.append((at, v[2:]))
            elif program in _HTTP and name in ("-u", "--user", "--proxy-user", "-U"):
                if not eq:
                    take_next = _after_colon
                elif secret := _after_colon(val):
                    out.append((at, secret))
            elif program in _HTTP and v.startswith("-u") and len(v) > 2 and not v.startswith("--"):
                if secret := _after_colon(v[2:]):
                    out.append((at, secret))
            elif program in _HTTP and name in ("-H", "--header"):
                take_next = _header_secret
            elif program in _HTTP and name in ("-b", "--cookie"):
                take_next = _cookie
        else:
            positional.append(at)
            login = login or (program in _REGISTRY_LOGIN and v == "login")
    for name, sub_command, index in SECRET_POSITIONAL:
        if program != name:
            continue
        words_at = positional
        if sub_command:
            if not positional or words[positional[0]][2] != sub_command:
                continue
            words_at = positional[1:]
            index -= 1
        if words_at and -len(words_at) <= index < len(words_at):
            out.append((words_at[index], words[words_at[index]][2]))
    if program == "htpasswd" and "b" in flags and len(positional) >= 2:
        out.append((positional[-1], words[positional[-1]][2]))  # htpasswd -b[c|n] [file] user PASSWORD
    if program == "vault" and positional and words[positional[0]][2] == "login" and len(positional) >= 2:
        token = words[positional[1]][2]
        if "=" not in token:
            out.append((positional[1], token))  # vault login TOKEN
    return out


def _whole(value: str) -> str | None:
    return value or None


_NEXT: dict[str, Callable[[str], str | None]] = {
    "next": _whole, "either": _whole,
    "user%": lambda v: _after(v, "%"), "user,": lambda v: _after(v, ","),
}


def _cookie(value: str) -> str | None:
    return value if "=" in value else None  # a cookie string, not a cookie-jar file name


def _argument_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for words in _words(text):
        for index, secret in _command_secrets(words):
            start, end, _ = words[index]
            raw = text[start:end]
            at = raw.rfind(secret)
            spans.append((start + at, start + at + len(secret)) if at >= 0 else (start, end))
    return spans


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


# a run of hex pairs long enough to spell a token (a commit id, 40 digits, decodes to no text and stays)
_HEX_RUN = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){16,2048}(?![0-9A-Fa-f])")


def _decoded_secret(run: str) -> bool:
    """A base64 or hex run that spells, decoded, a string holding a secret (`Z2hwX…` is `ghp_…`)."""
    raw: bytes | None = None
    if _HEX_RUN.fullmatch(run):
        raw = bytes.fromhex(run)
    else:
        core = run.replace("-", "+").replace("_", "/")
        with contextlib.suppress(ValueError, binascii.Error):
            raw = base64.b64decode(core + "=" * (-len(core) % 4), validate=True)
    if not raw:
        return False
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return text.isprintable() and bool(_find(text, decode=False))


def _find(text: str, decode: bool = True) -> tuple[tuple[int, int], ...]:
    if not _may_hold_secret(text):
        return ()
    spans: list[tuple[int, int]] = _argument_spans(text)
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
        if _high_entropy(m.group()) or (decode and _decoded_secret(m.group())):
            spans.append(m.span())
    if decode:
        spans += [m.span() for m in _HEX_RUN.finditer(text) if _decoded_secret(m.group())]
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


# the start of a key with an issuer's prefix, written partly (the rest typed in a later action)
_PARTIAL_KEY = re.compile(r"(?<![A-Za-z0-9_\-])(?:gh[pousr]_|github_pat_|glpat-|sk-(?:proj-|ant-|live-)?|[rs]k_live_|"
                          r"[rs]k_test_|xox[abposr]-|(?:AKIA|ASIA)|AIza|npm_|hv[sbr]\.|eyJ)[A-Za-z0-9_\-]{6,}")


def typed_secret(before: str, text: str) -> bool:
    """Whether typed `text` is (part of) a secret once read after what the same window's line already holds
    (`before`): a key typed in two pieces is one key, and each piece is hidden; so is a piece that starts a key
    with an issuer's prefix (`ghp_Ab12Cd`), whose rest may come later."""
    if not text:
        return False
    tail = before[-64:] + text
    cut = len(tail) - len(text)
    if any(m.end() > cut for m in _PARTIAL_KEY.finditer(tail)):
        return True
    if not before:
        return False
    joined = before[-4096:] + text
    start = len(joined) - len(text)
    return any(end > start for _, end in find_secrets(joined))


_LINE_END = re.compile(r"[\r\n]")
# a focused field that holds a secret, by its accessibility role or name (`password text`, `AXSecureTextField`)
_SECRET_FIELD = re.compile(r"pass(?:word|code|phrase)|secure|secret|\bpin\b|\botp\b|one-time|token|api[ _-]?key",
                           re.IGNORECASE)


def secret_field(*descriptions: str) -> bool:
    """Whether a field described by its role, label or name (what deskgate read, or what the agent claims)
    holds a secret: a password, passcode, PIN, one-time code, token or key."""
    return any(d and _SECRET_FIELD.search(d) for d in descriptions)


def typed_piece_hidden(before: str, text: str, *, on_line: bool, secret: bool = False) -> bool:
    """Whether typed `text` may reach the audit log only as a digest: part of a secret (`typed_secret`); typed
    into a secret field (`secret`), whatever its length; or, on a line deskgate follows (`on_line`: a terminal,
    a Run dialog, an address bar; `before` is what the line holds), a piece of a word typed a few characters at
    a time, before its line ends: one or two characters, or text that goes on with a word the line already
    holds. Whether such pieces make a secret is known only once they are joined, later, and a row once
    chained is never rewritten, so none of them is stored in the clear: the row of the line end shows the
    whole line (hidden when it is a secret). Text that ends a line, whitespace, and whole words pass."""
    if not text:
        return False
    if secret or typed_secret(before, text):
        return True
    if not on_line or _LINE_END.search(text):
        return False
    visible = text.strip()
    if not visible:
        return False
    return len(visible) <= 2 or (bool(before) and not before[-1].isspace() and not text[0].isspace())


def looks_secret(text: str) -> bool:
    """Does `text` contain a token, key, credential or long random string?"""
    return bool(text) and bool(find_secrets(text))


# `user:password@host` without a scheme: as a whole name or id it is a credential (as prose it may not be)
_CREDENTIAL_NAME = re.compile(r"[^\s:@/]{1,256}:[^\s@/]{1,1024}@[\w.\-\[\]:]{1,256}")


def secret_name(text: str) -> bool:
    """Is a name or id (an agent name, a request id, a variable's name) shaped like a secret: a token, a
    key, a long random string, or `user:password@host`?"""
    return bool(text) and (bool(find_secrets(text)) or _CREDENTIAL_NAME.fullmatch(text.strip()) is not None)


def redact_name(text: str, *, hex_len: int = 12, key: bytes | None = None) -> str:
    """A name or id as it may be stored: itself, or, when shaped like a secret (`secret_name`), only its
    keyed fingerprint marker."""
    if not secret_name(text):
        return text
    if find_secrets(text) and not _CREDENTIAL_NAME.fullmatch(text.strip()):
        return redact_text(text, hex_len=hex_len, key=key)
    return _marker(text, hex_len, key)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _fingerprint(text: str, key: bytes | None) -> tuple[str, str]:
    """(name, hex) of a secret's fingerprint: HMAC-SHA-256 under `key` when given (what the audit log
    stores: a plain digest of a weak password is found in any table of known digests), else SHA-256
    (in memory only: approval keys, what a dialog shows)."""
    data = text.encode("utf-8", "surrogatepass")
    if key is None:
        return "sha256", hashlib.sha256(data).hexdigest()
    return "hmac", hmac.new(key, data, hashlib.sha256).hexdigest()


def digest(value: Any, key: bytes | None = None) -> dict[str, Any]:
    """What is kept of a secret value: its fingerprint and length (of the text, or of its JSON)."""
    text = value if isinstance(value, str) else canonical_json(value)
    name, hexdigest = _fingerprint(text, key)
    return {"redacted": True, name: hexdigest, "len": len(text)}


def _marker(secret: str, hex_len: int, key: bytes | None = None) -> str:
    name, hexdigest = _fingerprint(secret, key)
    return f"«redacted {name}:{hexdigest[:hex_len]}… len:{len(secret)}»"


def redact_text(text: str, *, hex_len: int = 12, key: bytes | None = None) -> str:
    """`text` with every secret substring replaced by a `«redacted sha256:… len:n»` marker (`hmac:` with a key)."""
    spans = find_secrets(text)
    if not spans:
        return text
    out, pos = [], 0
    for start, end in spans:
        out.append(text[pos:start])
        out.append(_marker(text[start:end], hex_len, key))
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
    def __init__(self, hex_len: int, key: bytes | None = None) -> None:
        self.hex_len = hex_len
        self.key = key

    def digest(self, value: Any) -> dict[str, Any]:
        return digest(value, self.key)

    def string(self, text: str) -> Any:
        spans = find_secrets(text)
        if not spans:
            return text
        stripped = text.strip()
        if len(spans) == 1 and text[spans[0][0]:spans[0][1]].strip() == stripped:
            return self.digest(text)  # the whole value is the secret
        return redact_text(text, hex_len=self.hex_len, key=self.key)

    def value(self, value: Any, key: str | None = None) -> Any:
        if key is not None and _sensitive_key(key) and value not in (None, "", {}, []) \
                and not isinstance(value, bool):
            return self.digest(value)
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, Mapping):
            # a key can be the secret too (a token as a variable's name): then only its fingerprint
            return {self.name(str(k)): self.value(v, str(k)) for k, v in value.items()}
        if isinstance(value, list | tuple):
            if value and all(isinstance(v, str) for v in value):
                return self.argv(list(value))
            return [self.value(v) for v in value]
        return value

    def name(self, text: str) -> str:
        return redact_name(text, hex_len=self.hex_len, key=self.key) if _may_hold_secret(text) or "@" in text \
            else text

    def argv(self, items: list[str]) -> list[Any]:
        """A list of words (argv): the same secret-argument table as for a command string."""
        secrets = dict(_command_secrets([(0, len(item), item) for item in items]))
        # a list of arguments with no program first (`{"args": ["--password", "x"]}`): a secret flag's value
        for index, item in enumerate(items[:-1]):
            if index + 1 not in secrets and _SECRET_FLAG.match(item):
                secrets[index + 1] = items[index + 1]
        out: list[Any] = []
        for index, item in enumerate(items):
            secret = secrets.get(index)
            if secret is None:
                out.append(self.string(item))
            elif secret == item:
                out.append(self.digest(item))
            else:  # -pSECRET, user:SECRET, "Cookie: SECRET"
                out.append(item.replace(secret, _marker(secret, self.hex_len, self.key)))
        return out


def _to_dict(action: Any) -> dict[str, Any]:
    if isinstance(action, Mapping):
        return dict(action)
    data = msgspec.to_builtins(action)
    if not isinstance(data, dict):
        raise TypeError("an action is a mapping or a gate Action")
    return data


def _sanitize(action: Any, redact_fields: Iterable[str], hex_len: int, key: bytes | None = None
              ) -> dict[str, Any]:
    data = _to_dict(action)
    scrub = _Scrubber(hex_len, key)
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
            out[key] = scrub.digest(value)
        elif kind == "shell" and key == "env" and isinstance(value, Mapping):
            out[key] = {scrub.name(str(name)): scrub.digest(v) for name, v in value.items()}
        elif key in nested and isinstance(value, Mapping):
            inner = _sanitize({"type": None, **value}, nested[key], hex_len, scrub.key)
            inner.pop("type")
            out[key] = inner
        else:
            out[key] = scrub.value(value, key if key not in ("text", "command", "url", "path") else None)
    return out


def sanitize_action(action_dict: Mapping[str, Any] | Any, redact_fields: Iterable[str] = frozenset(), *,
                    key: bytes | None = None) -> dict[str, Any]:
    """A copy of the action safe to log and to show a person.

    Replaced by `{"redacted": true, "sha256", "len"}`: the fields named in `redact_fields` (the gate's
    Assessment.redact, e.g. "text" typed into a password field; "a.b" reaches into a nested object),
    always `file_write.content` and `shell.env` values, values under secret-sounding keys, and strings
    that are wholly a secret. A secret inside a longer string (a command) becomes a `«redacted …»` marker.
    With `key` (the audit log's), fingerprints are HMAC-SHA-256 (`"hmac"`) instead of SHA-256.
    """
    return _sanitize(action_dict, redact_fields, 12, key)


def sanitize_data(value: Any, *, key: bytes | None = None) -> Any:
    """Scrub free-form data (event details, executor output) the same way: keys and strings."""
    return _Scrubber(12, key).value(value)


def approval_key(action_dict: Mapping[str, Any] | Any) -> str:
    """sha256 of the canonical JSON of the sanitised action, without noise fields (confidence, note).

    The same request gives the same key; a changed command, text, path or target gives a new one
    (secrets are represented by their full sha256, so two different passwords give two keys).
    """
    clean = _sanitize(action_dict, (), 64)
    for noise in NOISE_FIELDS:
        clean.pop(noise, None)
    return hashlib.sha256(canonical_json(clean).encode("utf-8", "surrogatepass")).hexdigest()
