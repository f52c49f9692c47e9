"""Rules: a run of images whose addresses spell data one character at a time.

- `block.typed.image-alphabet`: text typed into a comment, an issue, a message or a post with many images (markdown
  `![](...)` or HTML `<img src>`) on one host whose addresses differ only by a one-to-three-character last part
  (`/4f2c1e/61`, `/x/k`, `/c/7a.png`): an alphabet of pre-made image links. A model that renders the text (an
  assistant in a pull request, a chat) loads them in order, and the host reads the data (a secret, code) from the
  order of the requests: the image exfiltration that works even through an image proxy that allows only fixed
  addresses. Badges, screenshots and a gallery of named files pass; a code editor's text is not judged here.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from gate.fields import short
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.typed import code_editor

__all__ = ["RULES", "image_alphabet"]

_IMAGE = re.compile(r"!\[[^\]\n]{0,40}\]\(\s*(https?://[^\s)]+)|<img\b[^>]*?\bsrc\s*=\s*[\"']?(https?://[^\s\"'>]+)",
                    re.I)
_RUN = 4  # images on one host before a run is an alphabet (AKIA, the start of a key, is four)


def image_alphabet(text: str) -> tuple[str, int] | None:
    """(host, images) when the text's images on one host are a per-character alphabet, or None."""
    by_host: dict[str, list[str]] = {}
    for m in _IMAGE.finditer(text[:20_000]):
        try:
            parts = urlsplit(m.group(1) or m.group(2))
        except ValueError:
            continue
        last = parts.path.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
        if parts.hostname and 1 <= len(last) <= 3 and not parts.query:
            by_host.setdefault(parts.hostname.lower(), []).append(last)
    for host, lasts in by_host.items():
        if len(lasts) >= _RUN and len(set(lasts)) >= 3:
            return host, len(lasts)
    return None


@rule("block.typed.image-alphabet", "A run of images whose addresses spell data one character each",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def image_alphabet_rule(ctx: Context) -> CheckResult:
    """Text typed with four or more images on one host whose addresses differ only by a short last part: each
    image stands for a character, and whoever renders the text sends the data to that host in the order of its
    requests. Badges, screenshots and named image files pass."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) < 60 or "http" not in text or ctx.derived(code_editor):
        return None
    found = image_alphabet(text)
    if found is None:
        return None
    return f"{found[1]} images on {short(found[0], 40)} whose addresses differ by one character each: rendered in " \
           f"order, they spell data to that host"


RULES: tuple[Rule, ...] = (image_alphabet_rule,)
