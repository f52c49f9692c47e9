"""Addresses that hand data out when opened: an export delivered to another site's address, and a secret's name
written with its value inside another query parameter (decoded before it is read). Examples are our own, each
with a near miss."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation(url=""))


@pytest.mark.parametrize("url", [
    "https://wiki.example.org/pages/5/export?format=pdf&email=reader@elsewhere.test",
    "https://crm.example.com/reports/41?fmt=csv&webhook_url=https%3A%2F%2Fdrop.sample.net%2Fin",
    "https://sheets.example.com/s/9/download?format=xlsx&send_to=box%40mailbox.test",
    "https://app.example.com/backup?recipient=ops@other-company.test",
])
def test_an_export_delivered_to_another_sites_address_blocks(url):
    got = nav(url)
    assert got.decision is Decision.BLOCK and "block.web.export-sent-out" in got.rules, got


@pytest.mark.parametrize("url", [
    "https://wiki.example.org/pages/5/export?format=pdf",
    "https://wiki.example.org/pages/5/export?format=pdf&email=me@wiki.example.org",
    "https://mail.example.org/compose?to=friend@elsewhere.test",
    "https://app.example.com/backup?recipient=ops@localhost",
    "https://shop.example.com/reports/sales?fmt=csv&dest=archive",
])
def test_an_export_kept_on_the_site_or_no_export_at_all_is_not_sent_out(url):
    assert "block.web.export-sent-out" not in nav(url).rules


@pytest.mark.parametrize("url", [
    "https://search.example.net/?q=api_key%3Dabcd1234",
    "https://notes.sample.org/view?text=note%3A%20aws_key%3DAKIAFAKEVALUE9",
    "https://forum.example.org/post?body=secret_key%3A%20zz99yy88",
])
def test_a_secret_name_written_inside_another_parameter_asks(url):
    got = nav(url)
    assert got.decision is not Decision.ALLOW and "confirm.web.secret-param" in got.rules, got


def test_the_same_sent_to_a_logging_path_blocks():
    got = nav("https://notes.example.net/log?q=aws_key%3DAKIAFAKEVALUE9")
    assert got.decision is Decision.BLOCK and "block.web.data-out" in got.rules, got


@pytest.mark.parametrize("url", [
    "https://search.example.net/?q=how%20to%20set%20api_key%3D",
    "https://search.example.net/?q=color%3Dred",
    "https://search.example.net/?q=page_token%3D2",
    "https://docs.example.org/search?q=token%20vs%20session",
])
def test_a_search_about_secrets_or_an_ordinary_pair_is_no_secret(url):
    assert nav(url).decision is Decision.ALLOW
