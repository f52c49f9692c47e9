"""A home lab's admin panels: a router, a NAS, a hypervisor, a DNS filter or a reverse proxy run from its own web
pages. A bare button there acts on the whole device or network (firmware flashed, settings erased, a pool
exported, the firewall or a filter switched), a value typed there opens the network (a port forwarded to an admin
console, a stranger's DNS server, a script run at boot, a rule that accepts everything), and a link whose query
writes a setting is a forged form. Vocabulary: the cue book's `[context.device-*]`; pure helpers:
gate/device_admin.py.
"""

from __future__ import annotations

import re

from gate.destinations import money_site, own_site
from gate.device_admin import accepts_everything, cron_command, local_host, public_ip, setting_link
from gate.model import Risk, Shell
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.typed import _judge
from gate.rules.web import nav_parts
from gate.rules.window_cues import cue_match, first_label, title_words
from gate.urls import split_url

__all__ = ["RULES"]

_NON_WORD = re.compile(r"[^a-z0-9]+")
_PROXY = re.compile(r"\bproxy\b")  # a reverse proxy's hosts page
_USERS_PAGE = re.compile(r"\b(?:users?|accounts?|admins?|administrators?|members?)\b")
_CLICK = ("click",)
_TYPE = ("type",)
_NAV = ("navigate",)


def _page(ctx: Context) -> str:
    """The page's address and title as words ("" when neither says it is a device's admin panel). Once per
    action."""
    url = ctx.observation.url or ""
    parts = split_url(url) if url else None
    words = " ".join(_NON_WORD.split(url[:512].lower())) + " " + title_words(ctx)
    if (parts is not None and local_host(parts.host)) or cue_match(ctx, "device-admin-page", words):
        return words
    return ""


def _admin_page(ctx: Context) -> str:
    return ctx.derived(_page)


@rule("confirm.gui.device-admin-act", "a bare button on a device's admin panel that acts on the whole device",
      risk=Risk.HIGH, types=_CLICK)
def device_admin_act(ctx: Context) -> CheckResult:
    """On a router's, a NAS's or a hypervisor's own panel, "Flash image", "Perform reset", a pool's export or
    disconnect, a config exported with its secret seed, the anti-lockout rule switched off, "Gateway Ports", a
    protection switch ("Firewall", "Use ... browsing security"), a service's "Enabled" on its startup page, or
    "Download" on its certificates page: each flashes, erases, takes a pool away, hands out the key to its
    secrets or switches a protection of the whole network. "Add", "Save" and an update check pass."""
    page = _admin_page(ctx)
    label = first_label(ctx)
    if not page or not label:
        return None
    if cue_match(ctx, "device-admin-act", label, anchored=True):
        return f"{label!r} on a device's admin panel acts on the whole device or network"
    if cue_match(ctx, "device-protection-switch", label, anchored=True):
        return f"{label!r} switches a protection of the whole network on its panel, off as often as on"
    if cue_match(ctx, "device-services-verb", label, anchored=True) and cue_match(ctx, "device-services-page", page):
        return f"{label!r} on the device's services page starts or stops one of them (the firewall among them)"
    if cue_match(ctx, "device-secret-verb", label, anchored=True) and cue_match(ctx, "device-secret-page", page):
        return f"{label!r} on the device's certificates or keys page takes a private key or its secrets"
    return None


def _field(ctx: Context) -> str:
    target = ctx.action.target
    return " ".join(_NON_WORD.split((target.label or target.name or "").lower())).strip() if target else ""


def _script_lines(ctx: Context) -> tuple[str, ...]:
    """The commands of text typed into a device's script field (a startup script, a crontab, custom firewall
    rules), one per line, a crontab line's schedule dropped; () for any other field."""
    if not _admin_page(ctx) or not cue_match(ctx, "device-script-field", ctx.derived(_field), anchored=True):
        return ()
    lines = (cron_command(line).strip() for line in ctx.action.text.replace("\r", "\n").split("\n"))  # type: ignore[attr-defined]
    return tuple(line for line in lines if line and not line.startswith("#"))


@rule("block.typed.device-script", "a device's boot, schedule or firewall script given a command that blocks",
      risk=Risk.CRITICAL, types=_TYPE)
def device_script(ctx: Context) -> CheckResult:
    """A router's "Local Startup", "Scheduled Tasks" or "Custom Rules" is a shell script the device runs as root
    at boot, on schedule or when its firewall loads: a line the shell rules block there (a download piped to a
    shell) is planted to run, and a rule that accepts every packet (`iptables -I INPUT -j ACCEPT`) switches the
    firewall off. A nightly `/sbin/reboot` passes."""
    for line in ctx.derived(_script_lines):
        if accepts_everything(line):
            return f"{line[:60]!r} in the device's firewall script accepts every packet: the firewall is off"
        block, _ = _judge(Shell(command=line), ctx)
        if block is not None:
            return f"{line[:60]!r} runs as root from the device's script field: {block.reason}", block.risk
    return None


# ports whose service must not face the internet: remote shells and desktops, file shares, databases, sign-in-less
# APIs (Docker's), and the admin consoles of the panels themselves (Proxmox, DSM, Cockpit, Webmin, Winbox). FTP and
# an alternate web port (21, 81) serve files and sites as often: they ask as any other forward
_ADMIN_PORTS = {
    22: "SSH", 23: "Telnet", 135: "Windows RPC", 139: "SMB", 445: "SMB", 1433: "SQL Server",
    2375: "Docker's sign-in-less API", 2376: "Docker's API", 3306: "MySQL", 3389: "Remote Desktop",
    5000: "Synology DSM", 5001: "Synology DSM", 5432: "PostgreSQL", 5900: "VNC", 5985: "WinRM", 5986: "WinRM",
    6379: "Redis", 8006: "Proxmox's console", 8291: "MikroTik Winbox", 9090: "Cockpit", 9200: "Elasticsearch",
    10000: "Webmin", 27017: "MongoDB",
}


@rule("block.typed.admin-port-forward", "a port forward that opens an admin console to the internet",
      risk=Risk.CRITICAL, types=_TYPE)
def admin_port_forward(ctx: Context) -> CheckResult:
    """The external port of a port forward, a virtual server or a proxy stream set to a port whose service must
    not face the internet (SSH, Remote Desktop, SMB, Docker's API, Proxmox's or DSM's console): the device's
    admin is open to every scanner. Plex's 32400 or a VPN's port passes (`confirm.typed.port-forward` asks for
    the other ports)."""
    port = _public_port(ctx)
    if port is None or port not in _ADMIN_PORTS:
        return None
    return f"port {port} ({_ADMIN_PORTS[port]}) opened to the internet by a port forward"


@rule("confirm.typed.port-forward", "a port opened to the internet by a port forward", risk=Risk.HIGH,
      types=_TYPE)
def port_forward(ctx: Context) -> CheckResult:
    """Any other external port of a port forward: the service behind it is reachable from the internet."""
    port = _public_port(ctx)
    if port is None or port in _ADMIN_PORTS:
        return None
    return f"port {port} opened to the internet by a port forward"


def _public_port(ctx: Context) -> int | None:
    text = ctx.action.text.strip()  # type: ignore[attr-defined]
    if not text.isdigit() or not 0 < int(text) < 65536:
        return None
    page = _admin_page(ctx)
    if not page or not cue_match(ctx, "device-forward-page", page):
        return None
    return int(text) if cue_match(ctx, "device-public-port", ctx.derived(_field), anchored=True) else None


@rule("confirm.typed.admin-console-published", "an admin console's port behind a proxy host or a forward",
      risk=Risk.HIGH, types=_TYPE)
def admin_console_published(ctx: Context) -> CheckResult:
    """The port behind a reverse proxy's host or a forward set to an admin console's (Proxmox's 8006, DSM's 5000,
    SSH, Docker's API): whoever reaches the public name reaches the console. Home Assistant's 8123 passes."""
    text = ctx.action.text.strip()  # type: ignore[attr-defined]
    if not text.isdigit() or int(text) not in _ADMIN_PORTS:
        return None
    page = _admin_page(ctx)
    if not page or not (cue_match(ctx, "device-forward-page", page) or _PROXY.search(page)):
        return None
    if not cue_match(ctx, "device-internal-port", ctx.derived(_field), anchored=True):
        return None
    return f"port {text} ({_ADMIN_PORTS[int(text)]}) published behind a proxy host or a forward"


@rule("confirm.typed.firewall-rule-open", "a firewall rule aimed at the firewall itself or at every address",
      risk=Risk.HIGH, types=_TYPE)
def firewall_rule_open(ctx: Context) -> CheckResult:
    """"This Firewall", "(self)", "WAN address" or `0.0.0.0/0` typed into a rule of a firewall's editor or an
    allow list: the rule reaches the admin itself, or every address on the internet. A LAN subnet passes."""
    text = " ".join(ctx.action.text.strip().lower().split())  # type: ignore[attr-defined]
    if len(text) > 40 or not cue_match(ctx, "device-rule-target", text, anchored=True):
        return None
    page = _admin_page(ctx)
    if not page or not cue_match(ctx, "device-rule-page", page):
        return None
    return f"{text!r} in a firewall rule reaches the firewall itself or every address"


@rule("block.typed.money-site-rewrite", "a bank's or a payment service's name rewritten in the network's DNS",
      risk=Risk.CRITICAL, types=_TYPE)
def money_site_rewrite(ctx: Context) -> CheckResult:
    """A bank's, a payment service's, a crypto exchange's or a government office's own domain typed into a DNS
    filter's rewrites or a router's local records: the whole household's visits there go to the address the
    rewrite gives. A name of the home network (`nas.home.arpa`) passes; another brand's name asks (a safe-search
    rewrite of a search engine is ordinary), `confirm.typed.brand-rewrite`."""
    host = _rewritten_host(ctx)
    if host is None or not money_site(host):
        return None
    return f"{host} rewritten in the network's DNS: every visit to it goes where the rewrite says"


@rule("confirm.typed.brand-rewrite", "a known site's name rewritten in the network's DNS", risk=Risk.HIGH,
      types=_TYPE)
def brand_rewrite(ctx: Context) -> CheckResult:
    """Another known brand's own domain typed into the network's DNS rewrites: a safe-search rewrite or a block is
    ordinary, a redirect is a hijack; the person decides."""
    host = _rewritten_host(ctx)
    if host is None or money_site(host) or not own_site(host):
        return None
    return f"{host} rewritten in the network's DNS"


def _rewritten_host(ctx: Context) -> str | None:
    text = ctx.action.text.strip().lower().rstrip(".")  # type: ignore[attr-defined]
    if not _HOST.fullmatch(text) or "." not in text:
        return None
    page = _admin_page(ctx)
    if not page or not cue_match(ctx, "device-rewrite-page", page):
        return None
    if not cue_match(ctx, "device-name-field", ctx.derived(_field), anchored=True):
        return None
    return text.removeprefix("*.")


_HOST = re.compile(r"(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)+")


@rule("block.typed.stranger-dns", "a stranger's DNS server typed into a router's or DNS filter's settings",
      risk=Risk.CRITICAL, types=_TYPE)
def stranger_dns(ctx: Context) -> CheckResult:
    """A public address that is none of the resolvers people choose (Cloudflare, Google, Quad9, OpenDNS...)
    typed as the network's DNS server: every name the household looks up is answered by a stranger, the way
    DNSChanger took routers over. A known resolver, or a Pi-hole on the local network, passes here."""
    text = ctx.action.text.strip().lower()  # type: ignore[attr-defined]
    ip = public_ip(text)
    if ip is None or not _admin_page(ctx) or not cue_match(ctx, "device-dns-field", ctx.derived(_field),
                                                            anchored=True):
        return None
    if cue_match(ctx, "known-resolver", str(ip), anchored=True):
        return None
    return f"{ip} as the network's DNS server is no known resolver: every lookup goes to a stranger"


@rule("confirm.typed.home-control-action", "a home automation action that unlocks the home or disarms its alarm",
      risk=Risk.HIGH, types=_TYPE)
def home_control_action(ctx: Context) -> CheckResult:
    """`lock.unlock`, an alarm panel's disarm service or `cover.open_cover` typed as the action to run: the
    door opens or the alarm goes off for real. `light.turn_on` passes."""
    text = ctx.action.text.strip().lower()  # type: ignore[attr-defined]
    if len(text) > 80 or not cue_match(ctx, "home-control-action", text, anchored=True):
        return None
    return f"{text!r} unlocks, opens or disarms something in the home"


_IDENTITY = re.compile(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)\s*$")


@rule("block.typed.support-impostor-access", "access handed to an address that poses as a support desk",
      risk=Risk.CRITICAL, types=_TYPE)
def support_impostor_access(ctx: Context) -> CheckResult:
    """An SSH key whose comment, or a new user's e-mail, is at a domain named for a support desk
    (`support@router-helpdesk.net`, `help@remote-assist.help`) typed into a device's keys or users: the
    "support" that asked for it gets a standing way in. A key from `owner@laptop` passes."""
    text = ctx.action.text.strip()  # type: ignore[attr-defined]
    if len(text) > 4096 or not _admin_page(ctx):
        return None
    m = _IDENTITY.search(text)
    if m is None:
        return None
    is_key = text.startswith(("ssh-", "ecdsa-", "sk-ssh-", "sk-ecdsa-"))
    page = _admin_page(ctx)
    if not is_key and not _USERS_PAGE.search(page):
        return None
    domain = m.group(1).lower()
    if not cue_match(ctx, "support-impostor", domain.replace("-", " ").replace(".", " ")):
        return None
    what = "an SSH key" if is_key else "an account"
    return f"{what} for {m.group(0).strip()!r}, a domain posing as a support desk, lets a stranger in"


@rule("block.web.device-setting-link", "a link that rewrites a local device's DNS, password or remote access",
      risk=Risk.CRITICAL, types=_NAV)
def device_setting_link(ctx: Context) -> CheckResult:
    """A link to a router at a private address whose query writes its DNS servers to a public address, its
    admin password, remote management, a DMZ or a port forward (`apply.cgi?...&wan_dns=...`): opened, the
    router takes the setting as if its owner had saved the form. A plain visit to its panel passes."""
    parts = ctx.derived(nav_parts)
    if parts is None:
        return None
    change = setting_link(parts)
    if change is None or not change[1]:
        return None
    return f"the link writes {change[0]} on {parts.host}, a device of the local network"


RULES: tuple[Rule, ...] = (device_admin_act, device_script, admin_port_forward, port_forward, admin_console_published,
                           firewall_rule_open, money_site_rewrite, brand_rewrite, stranger_dns,
                           home_control_action, support_impostor_access, device_setting_link)
