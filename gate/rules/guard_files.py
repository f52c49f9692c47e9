"""Rules: the guard of a machine's login switched off by its settings file.

fail2ban's settings are a service's own (`files.system_config`: writing them asks). One setting among them ends
what fail2ban is there for: the SSH jail written `enabled = false` lets password guessing against the login go on
without end, as `fail2ban-client stop` or an idle jail does from a terminal (`block.shell.defense-evasion`). Other
jails switched off (a web server's the machine does not run) still only ask.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule

__all__ = ["RULES"]

_JAIL_FILES = re.compile(r"(?:^|/)fail2ban/(?:jail\.(?:local|conf)|jail\.d/[^/]+)$", re.I)
# the jails that guard a remote login: OpenSSH's and Dropbear's, under their usual names
_LOGIN_JAIL_OFF = re.compile(r"^\s*\[(?:sshd|ssh|openssh|dropbear|sshd-ddos)\]\s*$(?:(?!^\s*\[).)*?"
                             r"^\s*enabled\s*=\s*(?:false|no|0|off)\s*$", re.I | re.M | re.S)
_MAX = 100_000


@rule("block.files.login-guard-off", "the jail guarding SSH logins switched off in fail2ban's settings",
      risk=Risk.CRITICAL, types=("file_write",))
def login_guard_off(ctx: Context) -> CheckResult:
    """A fail2ban jail file written with the SSH jail (`[sshd]`, `[dropbear]`) set `enabled = false`: password
    guessing against the machine's login is no longer stopped. Other jails switched off, and the SSH jail on,
    pass to the other rules."""
    action = ctx.action
    path = (getattr(action, "path", "") or "").replace("\\", "/")
    content = getattr(action, "content", "") or ""
    if not content or not _JAIL_FILES.search(path) or "enabled" not in content:
        return None
    if _LOGIN_JAIL_OFF.search(content[:_MAX]) is None:
        return None
    return f"{path} switches fail2ban's SSH jail off: password guessing against the login is no longer stopped"


RULES: tuple[Rule, ...] = (login_guard_off,)
