"""URLs and origins: parse the hostname properly and match it exactly or by dot-suffix, never by substring."""

from __future__ import annotations

import functools
import ipaddress
from urllib.parse import urlsplit

from gate.normalise import fold

__all__ = ["action_url", "host_matches", "host_of", "parse_host"]


@functools.lru_cache(maxsize=2048)
def parse_host(url: str) -> str | None:
    """The lower-case hostname of `url` (IDNA-encoded, trailing dot dropped), or None if there is none.

    `https://user@evil.com@good.com/` → `good.com` the way a browser reads it; a bare `example.com/path`
    is read as a host.
    """
    text = fold(url.strip())
    if not text:
        return None
    if "://" not in text and not text.startswith("//"):
        if text.split(":", 1)[0] in ("javascript", "data", "file", "about", "mailto", "vbscript", "blob"):
            return None
        text = "//" + text
    try:
        host = urlsplit(text).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.rstrip(".")
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def host_matches(host: str, pattern: str) -> bool:
    """Exact host or dot-suffix: `example.com` matches `example.com` and `a.example.com`, not `badexample.com`."""
    pattern = pattern.strip().lower().rstrip(".").removeprefix("*.")
    if not pattern or not host:
        return False
    return host == pattern or host.endswith("." + pattern)


def action_url(ctx) -> str | None:  # noqa: ANN001 - a gate.rules.base.Context
    """The URL an action is about: the one it navigates to, else the page it says it acts on."""
    url = getattr(ctx.action, "url", None)
    return url or (ctx.observation.url or None)


def host_of(ctx) -> str | None:  # noqa: ANN001
    url = action_url(ctx)
    return parse_host(url) if url else None
