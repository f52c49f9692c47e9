"""Where software comes from, pointed somewhere nobody vouches for.

A package manager, an installer or git that is told to take its packages or its repositories from a bare
public address (`pip config set global.index-url http://203.0.113.5/simple`, `npm config set registry
http://198.51.100.4:4873`, an apt `deb http://203.0.113.5/...` line, Munki's `SoftwareRepoURL`, `git config
url.http://203.0.113.5/.insteadOf https://github.com/`) will run what that address serves from then on, in
every later install, by whoever runs it: a supply chain handed over in one line (`block.shell.untrusted-source`).
A name (a company's mirror, a registry on localhost or the private network) is ordinary configuration and is
left to the other rules.

Pure: reads the command's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.digits import has_digit
from gate.model import Risk
from gate.shell import Command, Finding, ShellAnalysis

__all__ = ["judge", "public_address", "public_source"]

Add = Callable[[Finding], None]

# a URL (or host:port) whose host is a bare IPv4 address outside loopback and the private ranges
_PUBLIC_IP_URL = re.compile(
    r"(?:^|[\s\"'=@]|//)(?:[a-z][a-z0-9+.-]*://)?(?!(?:127|10|0)\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|"
    r"169\.254\.)(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?:/|[\s\"']|$)", re.I)
# words that set a software source: package-index options and settings, apt source lines, macOS software-update
# and Munki catalogue settings, git's URL rewriting, PowerShell and Chocolatey repositories, conda channels
_SOURCE_WORD = re.compile(
    r"(?:^|[\s\"'])(?:--(?:extra-)?index-url|--registry|--find-links|-i|--trusted-host|--source|-s|"
    r"--add-source|--channel|-c)\b|index-url|extra-index-url|registry|goproxy|softwarerepourl|catalogurl|"
    r"sucatalogurl|\binsteadof\b|\bpushinsteadof\b|sourcelocation|publishlocation|\bchannels\b|"
    r"(?:^|[\s\"'])deb(?:-src)?\s+(?:\[[^]]*\]\s+)?[a-z]+://|\bsources\s+--add\b|\bsource\s+add\b", re.I)
_SOURCE_PROGRAMS = frozenset({
    "pip", "pip3", "python", "python3", "uv", "poetry", "pipx", "npm", "yarn", "pnpm", "bun", "gem", "bundle",
    "conda", "mamba", "micromamba", "cargo", "go", "git", "defaults", "tee", "echo", "printf", "sed",
    "apt-add-repository", "add-apt-repository", "choco", "register-psrepository", "set-psrepository",
    "register-packagesource", "nuget", "dotnet", "composer", "brew", "softwareupdate", "zypper", "dnf", "yum",
    "yum-config-manager",
})


def judge(analysis: ShellAnalysis, add: Add) -> None:
    """File `block.shell.untrusted-source` for a command that sets a software source to a bare public address."""
    # (the programs first: most lines run none of them, and the digit test steps through every character)
    cmds = [cmd for cmd in analysis.commands if cmd.name in _SOURCE_PROGRAMS]
    if not cmds:
        return
    src = analysis.source
    if "." not in src or not has_digit(src):
        return
    for cmd in cmds:
        _source(cmd, add)


def _source(cmd: Command, add: Add) -> None:
    text = " ".join(cmd.argv[1:])
    if cmd.name in ("python", "python3") and "pip" not in cmd.words[1:3]:
        return
    if (address := public_source(text)) is None:
        return
    add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                f"{cmd.name} takes software from the bare address {address}: every later install or fetch runs "
                f"what it serves", cmd.span))


def public_address(text: str) -> str | None:
    """The first bare public IPv4 address written as a URL's or a setting's host in `text`, or None."""
    for m in _PUBLIC_IP_URL.finditer(text):
        if all(int(part) < 256 for part in m.group(1).split(".")):
            return m.group(1)
    return None


def public_source(text: str) -> str | None:
    """The bare public address a line of settings takes software from (`index-url = http://203.0.113.5/simple`,
    `deb http://203.0.113.5/ubuntu jammy main`), or None: the setting and the address on one line."""
    for line in text.splitlines() or [text]:
        if not _SOURCE_WORD.search(line):
            continue
        m = _PUBLIC_IP_URL.search(line)
        if m is not None and all(int(part) < 256 for part in m.group(1).split(".")):
            return m.group(1)
    return None
