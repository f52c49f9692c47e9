"""Addresses and package names typed into fields that make an app fetch and trust them: a manifest, a sync server,
an MCP server, a plugin installer. Our own hosts and names, written from the apps' documentation of installing
apps from a manifest, pointing sync at a server and installing community nodes."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
IDS = {"block.typed.trusted-source-address", "confirm.typed.trusted-source-address", "confirm.typed.plugin-package"}


def typed(text: str, field: str, url: str = "", app: str = "", title: str = ""):
    data: dict = {"type": "type", "text": text, "target": {"label": field}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url, app=app, window_title=title))


@pytest.mark.parametrize(("text", "field", "url", "app"), [
    ("http://203.0.113.77/app/manifest.json", "Manifest URL", "https://shop.example.org/dashboard/apps/install", ""),
    ("https://requestbin.net/r/abc123", "MCP server URL", "https://chat.example.org/settings", ""),
])
def test_source_on_a_bare_address_or_collector_blocks(text, field, url, app):
    got = typed(text, field, url, app)
    assert got.decision is Decision.BLOCK and "block.typed.trusted-source-address" in got.rules, got.rules


@pytest.mark.parametrize(("text", "field", "app"), [
    ("https://notes-cloud-sync.top/remote.php/dav", "WebDAV URL", "Notes"),
    ("https://plugins.free-addons.xyz/feed.json", "Plugin repository URL", "Editor"),
    ("https://45.77.10.3:8443/", "Sync target URL", "Notes"),  # a bare address of a server it only syncs with
])
def test_source_on_a_throwaway_name_asks(text, field, app):
    got = typed(text, field, app=app)
    assert got.decision is not Decision.ALLOW and "confirm.typed.trusted-source-address" in got.rules, got.rules


@pytest.mark.parametrize(("text", "field", "url", "app"), [
    ("https://apps.vendor-example.com/api/manifest", "App manifest URL", "https://shop.example.org/dashboard/apps", ""),
    ("http://127.0.0.1:22300", "Server URL", "", "Notes"),
    ("https://nextcloud.example.org/remote.php/dav", "WebDAV URL", "", "Notes"),
    ("http://203.0.113.77/", "Search", "https://shop.example.org/", ""),
])
def test_ordinary_sources_pass(text, field, url, app):
    got = typed(text, field, url, app)
    assert not IDS & set(got.rules), got.rules


@pytest.mark.parametrize(("text", "field", "url"), [
    ("n8n-nodes-zz-mailer-plus", "npm Package Name", "http://localhost:5678/settings/community-nodes"),
    ("reqeusts", "PyPI package", "https://ide.example.org/settings"),
    ("@acme-tools/helper-kit", "Package name", "https://automation.example.org/settings/plugins"),
])
def test_unknown_plugin_package_asks(text, field, url):
    got = typed(text, field, url)
    assert got.decision is Decision.CONFIRM and "confirm.typed.plugin-package" in got.rules, got.rules


@pytest.mark.parametrize(("text", "field", "url"), [
    ("lodash", "npm Package Name", "http://localhost:5678/settings/community-nodes"),
    ("com.example.notes", "Android package name", "https://console.example.org/project/settings/general"),
    ("n8n-nodes-zz-mailer-plus", "Package name", "https://docs.example.org/search"),  # installs nothing here
])
def test_known_or_not_installed_package_passes(text, field, url):
    assert "confirm.typed.plugin-package" not in typed(text, field, url).rules
