"""A shell loop that tries one password after another against a login: password guessing (ATT&CK T1110.001) or
spraying, whichever client carries the password. Read by gate/rules/shell_catalogue.py `whole`, which asks
(`confirm.shell.attack-probe`) as it does for the same loop over `sshpass`.

The loop's own variable is what goes in the password's place: `sshpass -p $p`, `curl -u admin:$p`, `mysql
-p$p`, `smbclient -U user%$p`, `wget --password=$p`, `xfreerdp /p:$p`, `ldapsearch -w $p`, `redis-cli -a $p`, or a
URL's `user:$p@`. A loop over names, files or hosts that sends one fixed token (`curl -u "$USER:$TOKEN"`) is not
this.
"""

from __future__ import annotations

import re

__all__ = ["guessing_loop"]

_FOR_VAR = re.compile(r"\bfor\s+(\w+)\s+in\b|\bwhile\s+(?:IFS=\S*\s+)?read\s+(?:-\w+\s+)*(\w+)|"
                      r"\bforeach\s*\(\s*\$(\w+)\s+in\b", re.I)
# where a login client takes its password; `{v}` is the loop's variable
_PLACES = (r"\bsshpass\s+(?:-\S+\s+)*-p\s*['\"]?\$\{{?{v}\b",
           r"(?:^|\s)(?:-u|--user|--http-user|--proxy-user)[\s=]['\"]?[^\s:'\"]+:\$\{{?{v}\b",
           r"(?:^|\s)(?:--password|--http-password|--ftp-password|--pass|-w|-a)[\s=]['\"]?\$\{{?{v}\b",
           r"(?:^|\s)-p['\"]?\$\{{?{v}\b",
           r"(?:^|\s)-U\s+['\"]?[^\s%'\"]+%\$\{{?{v}\b",
           r"(?:^|\s)/p:['\"]?\$\{{?{v}\b",
           r"://[^\s/:@]+:\$\{{?{v}\}}?@")


def guessing_loop(src: str) -> str | None:
    """The part of `src` where a loop's variable is a login's password, or None."""
    if "$" not in src:
        return None
    for m in _FOR_VAR.finditer(src):
        var = next(g for g in m.groups() if g)
        for place in _PLACES:
            hit = re.search(place.format(v=re.escape(var)), src)
            if hit is not None:
                return src[m.start():hit.end()]
    return None
