"""A container engine's unauthenticated API at an outside address, named by a variable or a context instead of
`-H` (read for each line; gate/rules/shell_harvest.py calls `line`).

`DOCKER_HOST=tcp://203.0.113.80:2375 docker ps`, `export DOCKER_HOST=...`, Podman's `CONTAINER_HOST`, cmd's `set
DOCKER_HOST=...` and `docker context create x --docker host=tcp://...` all point every docker command that follows
at that engine, as `docker -H tcp://...:2375` does for one (resources/programs.toml, `lolrmm:remote-access`):
root on a machine that is not ours, reached through an API left open. It blocks the same way
(`block.shell.remote-access`). The home or office network's and this machine's addresses, a unix socket, ssh://
and the TLS port 2376 (which asks for a client certificate) are someone's own set-up and are judged as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.shell import Finding, ShellAnalysis

__all__ = ["line"]

Add = Callable[[Finding], None]

_VARIABLES = frozenset({"docker_host", "container_host"})
_OUTSIDE_ENGINE = re.compile(
    r"^['\"]?(?:tcp|http)://(?!(?:10|127|0)\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.|"
    r"100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}:2375/?['\"]?$", re.I)
_CONTEXT_HOST = re.compile(r"(?:^|,)host=((?:tcp|http)://[^,\s'\"]+)", re.I)


def _named(analysis: ShellAnalysis) -> str | None:
    """The outside engine address a variable or a new context of this line names."""
    for name, value in analysis.assignments:
        if name in _VARIABLES and _OUTSIDE_ENGINE.match(value.strip()):
            return value
    for cmd in analysis.commands:
        if cmd.name == "set":  # cmd.exe's `set DOCKER_HOST=...`
            for w in cmd.argv[1:]:
                name, _, value = w.partition("=")
                if name.lower() in _VARIABLES and _OUTSIDE_ENGINE.match(value.strip()):
                    return value
        if cmd.name in ("docker", "podman") and "context" in cmd.argv[1:3]:
            for w in cmd.argv[1:]:
                m = _CONTEXT_HOST.search(w.strip("'\""))
                if m and _OUTSIDE_ENGINE.match(m.group(1)):
                    return m.group(1)
    return None


def line(analysis: ShellAnalysis, add: Add) -> None:
    """The finding of the module docstring."""
    low = analysis.source.lower()
    if "2375" not in low or ("docker" not in low and "container_host" not in low):
        return
    if (address := _named(analysis)) is not None:
        add(Finding("block.shell.remote-access", Risk.CRITICAL,
                    f"points docker at {address[:60]}, a container engine's unauthenticated API at an outside "
                    f"address: root on a machine that is not ours", address[:200]))
