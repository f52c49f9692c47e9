"""What a home lab's admin pages are and what a value typed there does: a router's, a NAS's, a hypervisor's or a
DNS filter's own web panel, reached at a private address or a local name, where a plain visit only shows and a
link whose query writes a setting changes the whole network (gate/rules/device_admin.py, gate/rules/web.py).

Pure functions over a URL's parts and typed text; the vocabulary (which panels, labels and fields) is the cue
book's `[context.device-*]`.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import parse_qsl

from gate.urls import UrlParts, ip_of, split_url

__all__ = ["accepts_everything", "cron_command", "home_address", "local_host", "on_local_network", "public_ip",
           "setting_link"]

# names a home network gives its own devices (`truenas.local`, `pve.lan`, `nas.home.arpa`)
_LOCAL_SUFFIX = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localdomain", ".intranet")


# the names home routers answer to themselves, from inside their own network only
_ROUTER_NAMES = frozenset({"fritz.box", "speedport.ip", "routerlogin.net", "routerlogin.com", "tplinkwifi.net",
                           "tplinklogin.net", "tplinkmodem.net", "mywifiext.net", "router.asus.com",
                           "www.asusrouter.com", "myrouter.local"})


def local_host(host: str) -> bool:
    """`host` is a device on the person's own network: a private or link-local address, a local name, or a name a
    home router answers to itself (`fritz.box`, `routerlogin.net`)."""
    if not host:
        return False
    ip = ip_of(host)
    if ip is None:
        return host.endswith(_LOCAL_SUFFIX) or host in _ROUTER_NAMES
    return home_address(ip)


# the ranges a home or office network numbers its devices from (RFC 1918, link-local, IPv6 unique-local): not the
# other ranges Python calls private (benchmarking's 198.18/15, documentation, reserved), which no router hands out
_HOME_NETS = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                                      "169.254.0.0/16", "fc00::/7", "fe80::/10"))


def home_address(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """`ip` is one a device on a home or office network has."""
    return any(ip.version == net.version and ip in net for net in _HOME_NETS)


def on_local_network(url: str) -> bool:
    """The page at `url` is served by a device on the person's own network (its panel at `192.168.1.1`,
    `truenas.local`)."""
    if not url:
        return False
    parts = split_url(url[:2048])
    return parts is not None and local_host(parts.host)


def public_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address `text` is when it is one reachable on the internet (no private, loopback, documentation or
    reserved range); None otherwise."""
    try:
        ip = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    return ip if ip.is_global else None


# a query that writes: a router's form posted as a link (`apply.cgi?...`, `setup.cgi?todo=save`, `?action=set`)
_WRITE_MARK = re.compile(r"(?:^|[/_.&?=-])(?:apply|save|set|setup|submit|commit|change|update|write|action|cmd|"
                         r"gozila|todo|exec|config)(?:[_.&=/-]|\.cgi|\.asp|\.php|$)", re.IGNORECASE)
# the parameters that take over the network when a link writes them: its DNS servers ...
_DNS_KEY = re.compile(r"dns|nameserver|resolver", re.IGNORECASE)
# ... the admin password, remote management, the firewall, a DMZ host, a port forward or a shell opened
_TAKEOVER_KEY = re.compile(r"pass|pwd|psk|remote_?(?:manage|mgmt|admin|access)|wan_?(?:access|admin|manage)|"
                           r"firewall|fw_?enable|dmz|port_?forward|virtual_?server|telnet|ssh_?(?:enable|wan)",
                           re.IGNORECASE)


# a path that acts when it is opened: a reboot, a reset, a firmware upgrade, an erase (LuCI's `/reboot/call`,
# a router's `/factory_reset.cgi`); the page that shows the button (`/admin/system/reboot`) only shows
_ACTION_PATH = re.compile(r"(?:^|/)(?:reboot|restart|shutdown|poweroff|power_?off|factory_?(?:reset|default)s?|"
                          r"reset_?(?:to_?defaults?|config|settings|all)?|restore_?defaults?|erase|wipe|format|"
                          r"upgrade|sysupgrade|flash(?:ops)?|firmware_?upgrade|delete_?all)(?:\.cgi|\.sh|/call)/?$",
                          re.IGNORECASE)


def setting_link(parts: UrlParts) -> tuple[str, bool] | None:
    """(what it writes, whether that takes the network over) for a link to a device on the local network whose
    query writes one of its settings, or whose path acts when opened (a reboot, a reset); None for a plain page
    (a visit that only shows)."""
    if not local_host(parts.host):
        return None
    if _ACTION_PATH.search(parts.path or ""):
        return f"an action ({(parts.path or '').rstrip('/').removesuffix('/call').rsplit('/', 1)[-1]})", False
    if not parts.query:
        return None
    pairs = parse_qsl(parts.query[:2048], keep_blank_values=True)
    if not pairs:
        return None
    for key, value in pairs:
        if _DNS_KEY.search(key) and public_ip(value) is not None:
            return f"its DNS server ({key}={value})", True
    if not (_WRITE_MARK.search(parts.path or "") or any(_WRITE_MARK.search(f"{k}={v}") for k, v in pairs)):
        return None
    for key, _ in pairs:
        if _TAKEOVER_KEY.search(key):
            return f"its {key}", True
    return pairs[0][0] or "a setting", False


# a crontab line's schedule (five fields or an @word) in front of its command
_CRON_SCHEDULE = re.compile(r"^\s*(?:@(?:reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)|"
                            r"(?:[\d*/,-]+|[a-z]{3}(?:-[a-z]{3})?)(?:\s+(?:[\d*/,-]+|[a-z]{3}(?:[-,][a-z]{3})*)){4})"
                            r"\s+(?=\S)", re.IGNORECASE)


def cron_command(line: str) -> str:
    """The command of a crontab line (its schedule dropped); the line itself when it has no schedule."""
    m = _CRON_SCHEDULE.match(line)
    return line[m.end():] if m else line


# iptables/ip6tables inserting or appending an ACCEPT into the INPUT or FORWARD chain with nothing that narrows it
_IPT_ACCEPT = re.compile(r"^\s*(?:sudo\s+)?(?:ip6?tables)(?:-legacy|-nft)?\s+(?:-t\s+filter\s+)?(?:-I|-A|--insert|"
                         r"--append)\s+(?:INPUT|FORWARD)(?:\s+\d+)?\s+(?:-j|--jump)\s+ACCEPT\s*$")
_NFT_ACCEPT = re.compile(r"^\s*nft\s+(?:add|insert)\s+rule\s+(?:\w+\s+)?\w+\s+(?:input|forward)\s+(?:counter\s+)?"
                         r"accept\s*$", re.IGNORECASE)


def accepts_everything(line: str) -> bool:
    """A firewall rule that accepts every packet coming in or passing through: the filter is switched off."""
    return bool(_IPT_ACCEPT.match(line) or _NFT_ACCEPT.match(line))
