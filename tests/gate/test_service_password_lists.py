"""A list of the person's logins by site ("Google: pass123", one per line or separated by slashes) typed out is a
credential list (gate/dataout.py `_service_passwords`); shop names beside order numbers, product codes or words
are not."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.dataout import carried
from gate.model import Decision, Observation

GATE = SafetyGate()


@pytest.mark.parametrize("text", [
    "- Dropbox: sunny42day\n- PayPal: 5581294077\n- Netflix: Tr0mbone!x",
    "Dropbox: sunny42day / PayPal: 5581294077 / Netflix: Tr0mbone!x",
    "1) GitHub = octo_cat9\n2) Spotify = blue#tune7",
])
def test_logins_by_site_are_a_credential_list(text):
    assert carried(text) is not None and carried(text).kind == "a credential list"
    got = GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": "Write a reply"}}),
                      Observation(url="https://forum.example.org/t/42", app="firefox"))
    assert got.decision is Decision.BLOCK, got.rules


@pytest.mark.parametrize("text", [
    "Amazon: B08N5WRWNW\nGoogle: G-ABC123XYZ",
    "Amazon: 112-3456789-1234567, eBay: 23-09876-54321",
    "Netflix: Stranger Things\nSpotify: Daily Mix 2",
    "Google: search engine\nGitHub: code hosting",
    "Dropbox: v3.2.1\nPayPal: 10:45",
])
def test_shop_names_beside_codes_or_words_are_not(text):
    assert carried(text) is None or carried(text).kind != "a credential list"
