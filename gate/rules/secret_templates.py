"""A settings template (`.env.example`, `config.sample.yml`, `secrets.template.json`) holds the names of the secrets
a project needs with placeholders for their values (`<password>`, `sk-ant-your-key-here`, `ghp_...`, `changeme`):
writing one is how a project keeps its keys out of the repository, so the placeholder lines are not read as
secrets. A line of such a file that holds a real value is still read (`confirm.files.secret-content`)."""

from __future__ import annotations

import posixpath
import re

__all__ = ["without_placeholders"]

# a file name that says the file is a template: `.env.example`, `.env.sample`, `settings.dist.py`, `x.tpl`
_TEMPLATE = re.compile(r"(?:^|[._-])(?:example|examples|sample|template|tmpl|tpl|dist|defaults?)(?:[._-]|$)", re.I)
# a value written as a placeholder: angle or curly brackets, an elision, "your ... here", a fill-me word, all x's
_PLACEHOLDER = re.compile(r"<[^<>\n]{1,80}>|\{\{[^{}\n]{1,80}\}\}|\$\{[A-Za-z_]\w*\}|\.\.\.|…|"
                          r"\byour[-_ ]?(?:[a-z]+[-_ ]?){0,3}(?:here|key|token|secret|password)\b|"
                          r"\b(?:change[-_ ]?me|replace[-_ ]?me|placeholder|redacted|dummy|fill[-_ ]?me[-_ ]?in|"
                          r"not[-_ ]?a[-_ ]?real)\b|(?:^|[^A-Za-z0-9])[xX*]{6,}", re.I)


def without_placeholders(path: str, content: str) -> str:
    """The content with every line whose value is a placeholder left out, when the file is a template."""
    if not path or not _TEMPLATE.search(posixpath.basename(path)):
        return content
    return "\n".join(line for line in content.splitlines() if not _PLACEHOLDER.search(line))
