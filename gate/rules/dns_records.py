"""Rules: a local name record that sends a well-known site to an outside server.

A hosts file, Pi-hole's local names (`custom.list`, `dns.hosts`), a dnsmasq or Unbound snippet answer for every
machine that asks them. A record there naming a bank's, a shop's or a sign-in provider's own domain with an address
on the internet sends everyone's visits, and the passwords typed there, to whoever holds that address (ATT&CK
T1565.001, the "DNS changer" malware of home routers). Records for the network's own names (`nas.home.arpa`), for
private addresses, or blocking a name (`0.0.0.0 ads.example`) pass to the other rules.
"""

from __future__ import annotations

import ipaddress
import re

from gate.destinations import own_site
from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_vocab import SHELL_TYPES
from gate.shell import command_text

__all__ = ["RULES"]

# files whose lines are name records a resolver serves, or this machine reads before asking one
_RECORD_FILES = re.compile(
    r"(?:^|/)(?:hosts|hosts\.(?:local|txt)|custom\.list|pihole\.toml|dnsmasq\.conf|adguardhome\.yaml|"
    r"(?:dnsmasq\.d|unbound\.conf\.d|hosts\.d|dnsmasq)/[^/]+|unbound\.conf|local-data\.conf)$", re.I)
_IP = r"(\d{1,3}(?:\.\d{1,3}){3})"
_HOST = r"((?:[a-z0-9-]+\.)+[a-z]{2,})"
# `IP name`, dnsmasq's `address=/name/IP` and `host-record=name,IP`, Unbound's `local-data: "name A IP"`,
# AdGuard Home's rewrites (`domain: name` then `answer: IP`)
_RECORDS = (
    re.compile(r"(?:^|[\s\"'\[,])" + _IP + r"[ \t]+" + _HOST + r"(?=[\s\"',\]]|$)", re.I | re.M),
    re.compile(r"address=/" + _HOST + r"/" + _IP + r"\b", re.I),
    re.compile(r"host-record=" + _HOST + r"(?:,[^,\s]+)*?," + _IP + r"\b", re.I),
    re.compile(r"local-data:\s*[\"']" + _HOST + r"\.?\s+(?:\d+\s+)?(?:in\s+)?a\s+" + _IP, re.I),
    re.compile(r"domain:\s*" + _HOST + r"\s+answer:\s*" + _IP + r"\b", re.I),
)
_MAX = 100_000
# the files (or Pi-hole's setting) a command line names when it writes records
_CUE = Guarded(re.compile(r"hosts|custom\.list|pihole|dnsmasq|unbound", re.I))
_COMMAND_FILE = re.compile(r"[\w./~-]*(?:hosts|custom\.list|pihole\.toml|dnsmasq[\w./-]*|unbound[\w./-]*|dns\.hosts)\b",
                           re.I)


def _outside(ip: str) -> bool:
    try:
        return ipaddress.IPv4Address(ip).is_global
    except ValueError:
        return False


def hijacked(text: str) -> tuple[str, str] | None:
    """(name, address) of the first record in `text` that sends a listed brand's own domain to an outside address."""
    for rx in _RECORDS:
        for m in rx.finditer(text[:_MAX]):
            a, b = m.group(1), m.group(2)
            ip, host = (a, b) if a[0].isdigit() else (b, a)
            host = host.lower().rstrip(".")
            if _outside(ip) and own_site(host):
                return host, ip
    return None


def _source(ctx: Context) -> tuple[str, str] | None:
    """(the file, the text to read) of a record file written, or of a command line that writes one."""
    action = ctx.action
    if ctx.type == "file_write":
        path = (getattr(action, "path", "") or "").replace("\\", "/")
        content = getattr(action, "content", "") or ""
        return (path, content) if content and _RECORD_FILES.search(path) else None
    command = command_text(ctx) or " ".join(getattr(action, "argv", None) or ())
    if not command or not _CUE.search(command):
        return None
    m = _COMMAND_FILE.search(command)
    return (m.group(0), command) if m is not None else None


def _hijack(ctx: Context) -> CheckResult:
    found = _source(ctx)
    if found is None:
        return None
    hit = hijacked(found[1])
    if hit is None:
        return None
    return f"{found[0]} sends {hit[0]} to {hit[1]}, an outside server: every machine asking this resolver goes there"


@rule("block.files.dns-hijack", "a local name record sending a well-known site to an outside server",
      risk=Risk.CRITICAL, types=("file_write",))
def dns_hijack_file(ctx: Context) -> CheckResult:
    """A hosts file, Pi-hole's local names, a dnsmasq, Unbound or AdGuard Home record written with a listed brand's
    own domain (a bank, a shop, a sign-in provider) at an address on the internet: every machine that asks the
    resolver is sent to that server, and the passwords typed there go with it. Records for the network's own
    names, private addresses and blocked names pass."""
    return _hijack(ctx)


@rule("block.shell.dns-hijack", "a command line writing a local name record that sends a well-known site to an "
      "outside server", risk=Risk.CRITICAL, types=SHELL_TYPES)
def dns_hijack_shell(ctx: Context) -> CheckResult:
    """The same record written from a terminal (`echo ... >> /etc/hosts`, `tee -a custom.list`, Pi-hole's
    `dns.hosts` setting), run as a shell action or typed into a terminal: judged by the line's text, which holds
    the record and the file it goes to."""
    return _hijack(ctx)


RULES: tuple[Rule, ...] = (dns_hijack_file, dns_hijack_shell)
