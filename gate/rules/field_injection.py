"""Rules: a shell command smuggled into a field a code host or a CI server later hands to a shell.

A pull request's title, a branch or tag name, a commit message, an issue comment or a build's parameter is text,
but workflows and jobs paste it into shell lines (`run: echo "${{ github.event.pull_request.title }}"`): a
command substitution or a chained command typed there runs on the CI runner, with its secrets (the
injection GitHub's and GitLab's security guides warn of, ATT&CK T1059.004 via T1195.002).

- `block.typed.ci-field-injection`: text typed into a page's field (not a terminal) that holds a command
  substitution (`` `...` ``, `$(...)`) or a command chained after `;`, `&&`, `||` or `|` that fetches and runs code
  (`curl ... | sh`), or sends a secret, the environment or a credentials file to another host.
- `confirm.typed.command-probe`: a short value followed by a chained probe command (`;id`, `&& whoami`,
  `| cat /etc/passwd`): the classic test of whether a form's value reaches a shell.

Code in backticks in an ordinary title or comment (`` Fix `parse_args` default ``, `` run `curl -I url` ``)
passes: only a network tool with a secret, the environment, an upload or a pipe into a shell counts.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES", "injected_command"]

_SUBST = re.compile(r"`([^`\n]{3,400})`|\$\(([^()\n]{3,400}(?:\([^()\n]*\)[^()\n]*)*)\)")
_CHAINED = re.compile(r"(?:;|&&|\|\||\||\n|%0a|\$\{IFS\})\s*(\S[^\n]{2,400})", re.IGNORECASE)
_NET = re.compile(r"(?:^|[\s;&|(`'\"]|\$\{IFS\})(?:curl|wget|nc|ncat|netcat|socat|fetch|lwp-request|"
                  r"invoke-webrequest|iwr|irm|invoke-restmethod|python3?\s+-c|perl\s+-e|ruby\s+-e|php\s+-r|"
                  r"nslookup|dig|ping|bash\s+-i|sh\s+-i)(?=\s|\$\{IFS\}|$|[;|&'\"`])", re.IGNORECASE)
_TO_SHELL = re.compile(r"\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\|\s*(?:python3?|perl|ruby|node|iex|"
                       r"invoke-expression)\b|/dev/tcp/|\bsh\s+-c\b|\bbash\s+-c\b", re.IGNORECASE)
_SECRET = re.compile(
    r"\$\{\{\s*(?:secrets|env|github\.token)|\$\{?[A-Za-z_]*(?:TOKEN|SECRET|KEY|PASS|PASSWORD|CRED|AUTH|FLAG|PAT)"
    r"[A-Za-z0-9_]*\}?|\$\{?(?:GITHUB|CI_JOB|CI|AWS|NPM|GH|GITLAB|AZURE|GOOGLE|DOCKER)_[A-Z0-9_]+\}?|"
    r"(?:^|[\s;&|(`$])(?:env|printenv)(?:$|[\s;&|)`])|\$\(\s*(?:env|printenv)\s*\)|/proc/self/environ|"
    r"\.aws/credentials|\.ssh/id_|\.npmrc|\.netrc|\.git-credentials|\.docker/config\.json|/etc/passwd|/etc/shadow",
    re.IGNORECASE)
_UPLOAD = re.compile(r"(?:-F|--form)\s+\S*=@|(?:-d|--data(?:-binary)?)\s*['\"]?@|--post-file|(?:-T|--upload-file)\s",
                     re.IGNORECASE)
_PROBE = re.compile(
    r"^[^\s;&|`$]{1,80}\s*(?:;|&&|\|\||\||%0a|\n)\s*(?:id|whoami|uname(?:\s+-a)?|hostname|pwd|ls(?:\s+-la?)?|"
    r"cat\s+/etc/(?:passwd|shadow|hosts)|sleep\s+\d+|ping\s+-c\s*\d+\s+\S+|echo\s+\S+|ifconfig|ip\s+a|env|"
    r"printenv|type\s+c:\\windows\\win\.ini|dir|net\s+user)\s*[;#&|]?\s*$", re.IGNORECASE)

_SEPARATOR = re.compile(r"[;|&\n]|%0a|\$\{IFS\}", re.IGNORECASE)


def _dangerous(command: str, quoted: bool = False) -> str | None:
    """What `command` does that no field's text needs; `quoted` (in backticks, how prose quotes code): an install
    line quoted in a comment is documentation, so only a secret sent or a file uploaded counts there."""
    if not _NET.search(command):
        return None
    if _TO_SHELL.search(command) and not quoted:
        return "fetches code and runs it"
    if _SECRET.search(command):
        return "sends a secret or the environment to another host"
    if _UPLOAD.search(command):
        return "uploads a file to another host"
    return None


def injected_command(text: str) -> tuple[str, str] | None:
    """(command, what it does) of a command smuggled into `text` that fetches and runs code or sends secrets."""
    body = text[:4000]
    for m in _SUBST.finditer(body):
        inner = m.group(1) or m.group(2) or ""
        if (what := _dangerous(inner, quoted=m.group(1) is not None)) is not None:
            return inner, what
    for m in _CHAINED.finditer(_SUBST.sub(" ", body)):
        if (what := _dangerous(m.group(1))) is not None:
            return m.group(1), what
    return None


def _in_field(ctx: Context) -> bool:
    from gate.typed import Destination, destination

    return ctx.derived(destination) in (Destination.FIELD, Destination.UNKNOWN)


@rule("block.typed.ci-field-injection", "a shell command typed into a field a CI run hands to a shell",
      risk=Risk.CRITICAL, types=("type",), redact=("text",), confidence=0.8)
def ci_field_injection(ctx: Context) -> CheckResult:
    """Text typed into a page's field (a pull request's title, a branch name, a commit message, a comment, a
    build's parameter) holding a command substitution (`` `...` ``, `$(...)`) or a chained command that fetches
    code and runs it (`curl ... | sh`) or sends a secret, the environment or a file to another host: a workflow
    that pastes the field into a shell line runs it on the CI runner, with its secrets. Code quoted in backticks
    in an ordinary title passes."""
    text = getattr(ctx.action, "text", "") or ""
    if "`" not in text and "$(" not in text and not _SEPARATOR.search(text):
        return None
    if not _in_field(ctx):
        return None
    found = injected_command(text)
    if found is None:
        return None
    command, what = found
    return f"the text holds a shell command that {what} ({' '.join(command.split())[:60]}): a CI job that puts " \
           f"this field into a shell line runs it"


@rule("confirm.typed.command-probe", "a value typed with a chained probe command", risk=Risk.HIGH, types=("type",),
      redact=("text",), confidence=0.7)
def command_probe(ctx: Context) -> CheckResult:
    """A short value typed into a page's field followed by a chained probe command (`host; id`, `x && whoami`,
    `a | cat /etc/passwd`): the test of whether a form's value reaches a shell on the server (command injection)."""
    text = (getattr(ctx.action, "text", "") or "").strip()
    if len(text) > 160 or not _PROBE.search(text) or not _in_field(ctx):
        return None
    return f"the value ends in a chained command ({text[:60]}): a probe for command injection on the server"


RULES: tuple[Rule, ...] = (ci_field_injection, command_probe)
