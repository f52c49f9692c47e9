"""Rules: an address or a package name typed into a field that makes an app fetch it and trust what comes back.

    block.typed.trusted-source-address    a URL typed as an app's or an extension's manifest, a sync or an app's server,
                                          a plugin, update or feed source, or an MCP server, whose host is a request
                                          collector or a name the destination rules block, or a bare public IP
                                          address where the app runs what it fetches (a manifest, a plugin, an update)
    confirm.typed.trusted-source-address  the same with a host on a bulk-registered top-level name or named like a
                                          scam site, one the destination rules ask about, or a bare public address
                                          of a server the app syncs with
    confirm.typed.plugin-package          a package name typed into a plugin or community-node installer that is no
                                          widely used package of its registry (gate/packages.py)

An app installed from a manifest gets the permissions the manifest asks for; a sync server receives every note,
and what it sends back is written into them; a plugin runs inside the app with its rights. The field is judged by
what the app will do with the address. An address on the organisation's own or a known service's host, one on the
local network, and a widely used package pass.
"""

from __future__ import annotations

import re

from gate.dataout import destination as data_destination
from gate.dataout import local_ip
from gate.destinations import abused_tld, judge
from gate.fields import field_text, into_a_field, page_path, scam_named, short
from gate.model import Risk
from gate.packages import judge_install
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.urls import ip_of, is_loopback, split_url

__all__ = ["RULES"]

TYPE = ("type",)
_URL_LIMIT = 2048
_ONE_URL = re.compile(r"^\s*(?:https?|wss?)://[^\s]+\s*$", re.IGNORECASE)
# a field whose address the app fetches and then trusts: a manifest, a sync target, an app's server, a plugin's or an
# update's source, a feed, a package registry, an MCP server, a remote config
_SOURCE_FIELD = re.compile(
    r"\b(?:manifest|app manifest|extension manifest|plugin manifest)(?: (?:url|uri|address|link|location))?\b|"
    r"\b(?:sync|synchroni[sz]ation|sync target|server|mcp server|app server|update|updates|update server|feed|"
    r"repository|repo|registry|index|plugin|plugins|extension|extensions|add ?on|theme|package|source|mirror|"
    r"web ?dav|cal ?dav|card ?dav|next ?cloud|own ?cloud|remote config|config|configuration|backend|instance|"
    r"home ?server|"
    r"tracker|proxy|pac|autoconfig)(?: \w+)? (?:url|uri|address|location|endpoint)\b|"
    r"^(?:server|server address|server url|instance url|homeserver|manifest)$")
_SEARCH_FIELD = re.compile(r"\b(?:search|find|filter|query)\b")
# ... of those, the fields whose address gives the app code to run: a manifest, a plugin, an extension, an update
_RUNS_WHAT_IT_FETCHES = re.compile(r"\b(?:manifest|plugins?|extensions?|add ?on|theme|package|registry|index|"
                                   r"repository|repo|update|updates|mirror|script|module|mcp server|pac|autoconfig)\b")
_COLLECTOR = "a request collector"


def _source_field(ctx: Context) -> str | None:
    """The field's words when the field is one whose address an app fetches and trusts, else None."""
    if not into_a_field(ctx):
        return None
    words = ctx.derived(field_text).words
    if not words or _SEARCH_FIELD.search(words) or not _SOURCE_FIELD.search(words):
        return None
    return words


def _source_verdict(ctx: Context) -> tuple[str, str] | None:
    """("block" | "confirm", why) for a URL typed into such a field, or None. Once per context."""
    text = getattr(ctx.action, "text", "") or ""
    if not text or len(text) > _URL_LIMIT or not _ONE_URL.match(text) or ctx.derived(_source_field) is None:
        return None
    parts = split_url(text.strip())
    if parts is None or not parts.host:
        return None
    host = parts.host.lower().rstrip(".")
    if is_loopback(host):
        return None
    ip = ip_of(host)
    if ip is not None:
        if local_ip(ip):
            return None
        # code the app runs (a manifest, a plugin, an update) blocks; a server it syncs with asks: some are run on a
        # bare address of the person's own
        runs = _RUNS_WHAT_IT_FETCHES.search(ctx.derived(_source_field) or "") is not None
        return ("block" if runs else "confirm"), f"{host} is a bare public address, no site's name"
    if data_destination(host, parts.path or "/", ctx.compiled.cues, ctx.compiled.collector_hosts) == _COLLECTOR:
        return "block", f"{host} is a request collector"
    found = judge(host, parts.path or "/")
    if found is not None:
        return found.level, found.why
    if abused_tld(host):
        return "confirm", f"{host} is on a top-level name registered in bulk for throwaway sites"
    why = scam_named(host)
    return ("confirm", why) if why else None


def _where(ctx: Context) -> str:
    return short(ctx.derived(field_text).raw, 40)


@rule("block.typed.trusted-source-address", "An app's manifest, sync or plugin source typed as a bare IP or a "
      "hostile host", risk=Risk.CRITICAL, types=TYPE, confidence=0.8)
def trusted_source_block(ctx: Context) -> CheckResult:
    """A URL typed into a field whose address the app fetches and trusts ("App manifest URL", "Joplin Server URL",
    "Sync target", "Update URL", "MCP server URL", "Plugin repository URL") whose host is a bare public IP
    address, a request collector, or a name the destination rules block: the app installs what the manifest
    asks, or sends every note to the server and writes back what it returns. The organisation's own host, a
    known vendor's and the local network pass."""
    got = ctx.derived(_source_verdict)
    if got is None or got[0] != "block":
        return None
    return f"the app would fetch and trust {short(ctx.action.text.strip(), 60)!r} typed into {_where(ctx)!r}: " \
           f"{got[1]}"  # type: ignore[attr-defined]


@rule("confirm.typed.trusted-source-address", "An app's manifest, sync or plugin source typed on a throwaway or "
      "lure-named host", risk=Risk.HIGH, types=TYPE, confidence=0.75)
def trusted_source_confirm(ctx: Context) -> CheckResult:
    """The same field with a host on a top-level name registered in bulk for throwaway sites (`.top`, `.xyz`), or
    named like a scam site, or one the destination rules ask about: a person checks whose server it is before the
    app trusts it."""
    got = ctx.derived(_source_verdict)
    if got is None or got[0] != "confirm":
        return None
    return f"the app would fetch and trust {short(ctx.action.text.strip(), 60)!r} typed into {_where(ctx)!r}: " \
           f"{got[1]}"  # type: ignore[attr-defined]


# a field that names a package for the app to install, with its registry ("npm Package Name", "PyPI package")
_PACKAGE_FIELD = re.compile(r"\b(?:(?P<eco>npm|py ?pi|pip|python|gem|ruby ?gems|crate|cargo|composer|nu ?get)"
                            r"(?: \w+)? (?:package|module|plugin|name)|(?:package|plugin|module|community node)"
                            r"(?: \w+)? (?:name|to install|id))\b")
# a page or a window that installs plugins or community nodes
_INSTALLER_PAGE = re.compile(r"(?:^|/)(?:community-?nodes|plugins?|extensions?|add-?ons?|marketplace|modules|"
                             r"packages?)(?:/|$)|install", re.IGNORECASE)
_ECOSYSTEM = {"npm": "npm", "pypi": "pip", "pip": "pip", "python": "pip", "gem": "gem",
              "rubygems": "gem", "crate": "cargo", "cargo": "cargo", "composer": "composer", "nuget": "nuget"}
_PACKAGE = re.compile(r"^(?:@[a-z0-9][\w.-]{0,100}/)?[a-z0-9][\w.-]{0,213}(?:@[\w.^~<>=*-]{1,40})?$", re.IGNORECASE)


@rule("confirm.typed.plugin-package", "A package the gate does not know typed into a plugin or community-node "
      "installer", risk=Risk.HIGH, types=TYPE, confidence=0.75)
def plugin_package(ctx: Context) -> CheckResult:
    """A package name typed into an app's plugin or community-node installer ("npm Package Name" on a community
    nodes page, a "Plugin name" in an installer) that is no widely used package of its registry: the app fetches it
    and runs it with its own rights and the credentials it keeps, so a person checks it, as a named install asks in
    a terminal. A look-alike of a widely used name asks the same way. A widely used package passes, and so does a
    package name typed anywhere that installs nothing (a search, an app's bundle id)."""
    text = (getattr(ctx.action, "text", "") or "").strip()
    if not text or len(text) > 256 or not _PACKAGE.match(text) or not into_a_field(ctx):
        return None
    words = ctx.derived(field_text).words
    m = _PACKAGE_FIELD.search(words) if words else None
    if m is None or _SEARCH_FIELD.search(words):
        return None
    eco = m.group("eco") and m.group("eco").replace(" ", "")
    if eco is None:
        title = ctx.observation.window_title[:256]
        if not (_INSTALLER_PAGE.search(ctx.derived(page_path)) or _INSTALLER_PAGE.search(title)):
            return None
        eco = "npm"  # the web apps' community nodes and plugins are npm packages
    concern = judge_install(_ECOSYSTEM[eco], (text,))
    if concern is None:
        return None
    return f"the app would install and run {text!r}: {concern.why}", max(concern.risk, Risk.HIGH)


RULES: tuple[Rule, ...] = (trusted_source_block, trusted_source_confirm, plugin_package)
