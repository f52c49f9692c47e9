"""Rules: a command hidden in a URL, in base64.

Exploit kits that answer a JNDI lookup (Log4Shell) or a web shell's request take the command they run from the
URL itself: `/Basic/Command/Base64/<base64>`, `?cmd=<base64>`, `#<base64>`. A fetch of such a URL (curl, wget,
an HTTP client from the shell, or a page opened) hands that command to a server that runs it, or is the
payload's own delivery. The URL's path and query values are decoded (base64, URL-safe too; a value whose
standard base64 holds `/` is read across the path's segments), and a decoded text that is a command line the
shell rules block (a download run, a reverse shell, a wipe) blocks the fetch. A URL whose values decode to
anything else, an ordinary API call or an id in base64, is left to the other rules.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from gate.dataout import decoded_value
from gate.model import Risk, Shell
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.typed import judge_as
from gate.shell import command_facts

__all__ = ["RULES", "hidden_commands"]

_URL = re.compile(r"(?:https?|ldap|rmi|dns|ftp)://[^\s'\"<>`]+", re.I)
_RUN = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
# what a decoded text must hold to be read as a command line
_SHELLISH = re.compile(r"(?:^|[\s;|&(`$])(?:curl|wget|bash|sh|nc|ncat|socat|python3?|perl|php|ruby|powershell|pwsh|"
                       r"chmod|rm|busybox|tftp|certutil|bitsadmin|iex|mshta|rundll32|regsvr32|cmd)(?:\s|$|[;|&.])|"
                       r"/dev/tcp/|\|\s*(?:ba)?sh\b", re.I)
_MAX_CANDIDATES = 8


def _candidates(url: str) -> list[str]:
    """The values of a URL that may be base64: its long path segments, the path's rest from the first such
    segment on (standard base64 holds `/`), its query values and its fragment."""
    rest = url.split("://", 1)[-1]
    path = rest.split("/", 1)[1] if "/" in rest else ""
    path, _, fragment = path.partition("#")
    path, _, query = path.partition("?")
    out: list[str] = []
    segs = path.split("/")
    for i, seg in enumerate(segs):
        if _RUN.fullmatch(seg):
            out.append(seg)
            if i + 1 < len(segs):
                out.append("/".join(segs[i:]))
    for text in (query, fragment):
        for pair in text.split("&"):
            value = unquote(pair.partition("=")[2] or pair)
            if _RUN.fullmatch(value):
                out.append(value)
    return out[:_MAX_CANDIDATES]


def hidden_commands(text: str) -> list[tuple[str, str]]:
    """(url, decoded command) for each URL in `text` whose path or query carries a command line in base64."""
    found: list[tuple[str, str]] = []
    if "://" not in text or not _RUN.search(text):
        return found
    for m in _URL.finditer(text[:20_000]):
        url = m.group(0)
        for value in _candidates(url):
            decoded = decoded_value(value)
            if decoded and _SHELLISH.search(decoded):
                found.append((url, decoded.strip()))
                break
    return found


def _verdict(ctx: Context, text: str | None) -> CheckResult:
    if not text:
        return None
    for url, command in hidden_commands(text):
        block, _ = judge_as(Shell(command=command[:4000]), ctx)
        if block is not None:
            return f"the URL {url[:60]} carries, in base64, the command `{command[:80]}`: {block.reason[:120]}"
    return None


@rule("block.shell.url-command", "Fetches a URL that carries a command line the shell rules block, in base64",
      risk=Risk.CRITICAL, types=("shell", "type"), needs="line")
def url_command(ctx: Context) -> CheckResult:
    """A curl, wget or other fetch from the shell whose URL carries in its path or query a base64 command line
    that the shell rules block (`/Basic/Command/Base64/...` of JNDI exploit kits, `?cmd=` of web shells): the
    server that answers runs it, or it is the payload's delivery."""
    analysis = command_facts(ctx)  # a shell action, or a line typed into a terminal
    return _verdict(ctx, analysis.source if analysis is not None else None)


@rule("block.web.url-command", "Opens a URL that carries a command line the shell rules block, in base64",
      risk=Risk.CRITICAL, types=("navigate",))
def url_command_page(ctx: Context) -> CheckResult:
    """A page opened whose URL carries in its path or query a base64 command line that the shell rules block:
    the exploit kit or web shell that answers runs it."""
    return _verdict(ctx, getattr(ctx.action, "url", None))


RULES: tuple[Rule, ...] = (url_command, url_command_page)
