"""A service's whole sign-in switched off blocks as a second factor switched off does; every other session ended
asks in any verb ("Deauthorize sessions"); a refund made by any verb ("Create refund") asks as "Refund" does.
Near misses: the settings pages that hold them, a refund's policy, hardening switches."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def click(label: str, url: str, title: str = ""):
    action = action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}, "url": url})
    return GATE.assess(action, Observation(url=url, window_title=title))


@pytest.mark.parametrize("label", ["Disable authentication", "Turn off login", "Disable auth",
                                   "Remove password protection"])
def test_a_services_sign_in_switched_off_blocks(label: str) -> None:
    got = click(label, "http://localhost:3001/settings/security", "Settings")
    assert got.decision is Decision.BLOCK and "block.gui.protection-off" in got.rules, (label, got.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Deauthorize sessions", "https://vault.example.org/#/settings/account"),
    ("Invalidate all sessions", "https://app.example.org/settings/security"),
    ("Create refund", "https://dashboard.example.org/payments/py_123"),
    ("Issue partial refund", "https://shop.example.org/admin/orders/88"),
])
def test_sessions_ended_and_refunds_made_ask(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is not Decision.ALLOW, (label, got.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Authentication", "https://app.example.org/settings"),
    ("Sessions", "https://app.example.org/settings"),
    ("Refund policy", "https://shop.example.org/help"),
    ("Disable legacy authentication", "https://admin.example.org/security"),
])
def test_pages_policies_and_hardening_pass(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (label, got.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Disable HTTPS", "https://app.example.org/settings/security"),
    ("Turn off spam filtering", "https://mail.example.org/settings"),
    ("Disable DKIM", "https://admin.example.org/apps/mail/authenticate"),
    ("Add security key", "https://account.example.org/security"),
    ("Register authenticator app", "https://account.example.org/security"),
    ("Forward port", "http://192.168.0.1/admin/nat"),
    ("Add port forwarding rule", "http://192.168.0.1/admin/nat"),
    ("Enable UPnP", "http://192.168.0.1/admin/advanced"),
    ("Enable remote management", "http://192.168.0.1/admin/advanced"),
    ("Enable public dashboard", "https://metrics.example.org/d/abc/settings"),
])
def test_a_services_protection_off_a_way_in_or_an_opening_asks(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is not Decision.ALLOW, (label, got.rules)


@pytest.mark.parametrize(("label", "url"), [
    ("Enable HTTPS", "https://app.example.org/settings/security"),
    ("Enable spam filter", "https://mail.example.org/settings"),
    ("Trusted devices", "https://account.example.org/security"),
    ("Open port settings", "http://192.168.0.1/admin"),
    ("Port", "http://192.168.0.1/admin/nat"),
    ("Public pages", "https://docs.example.org/"),
])
def test_protections_turned_on_and_links_to_their_pages_pass(label: str, url: str) -> None:
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (label, got.rules)
