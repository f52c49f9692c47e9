"""Clicking past a browser's or the system's security warning: past a phishing or malware warning blocks,
past a certificate warning asks; the same labels on ordinary pages, and the way back to safety, pass.
Our own page texts, written from how such warnings read."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()

PHISHING = ("Dangerous site", "Deceptive site ahead. Attackers on shop-deals.test might trick you into giving away "
            "your password.")
MALWARE = ("Warning", "This website has been reported as unsafe and may install harmful programs.")
CERTIFICATE = ("Privacy error", "Your connection is not private. NET::ERR_CERT_DATE_INVALID")


def click(label: str, page: tuple[str, str] | None = None):
    title, text = page or ("", "")
    return GATE.assess(action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": label}}),
                       Observation(window_title=title, page_text=text))


@pytest.mark.parametrize("page", [PHISHING, MALWARE])
@pytest.mark.parametrize("label", ["Proceed to shop-deals.test (unsafe)", "Visit this unsafe site",
                                   "Continue to site", "Ignore this warning"])
def test_going_past_a_phishing_or_malware_warning_blocks(label, page):
    a = click(label, page)
    assert a.decision is Decision.BLOCK and "block.gui.unsafe-site-override" in a.rules, (label, a.rules)


@pytest.mark.parametrize("label", ["Accept the risk and continue", "Proceed to intranet.test (unsafe)", "Continue"])
def test_going_past_a_certificate_warning_asks(label):
    a = click(label, CERTIFICATE)
    assert a.decision is Decision.CONFIRM and "confirm.gui.certificate-override" in a.rules, (label, a.rules)
    assert "block.gui.unsafe-site-override" not in a.rules


def test_the_way_back_and_the_same_labels_elsewhere_pass():
    assert click("Back to safety", PHISHING).decision is Decision.ALLOW
    assert click("Continue to site", ("Welcome", "Our new store is open.")).decision is Decision.ALLOW
    assert click("Continue", ("Sign in", "Enter your e-mail to continue.")).decision is Decision.ALLOW


@pytest.mark.parametrize("label", [
    "Continuer vers shop-deals.test (dangereux)", "Weiter zu shop-deals.test (unsicher)",
    "Acceder a shop-deals.test (sitio no seguro)", "Procedi su shop-deals.test (non sicuro)",
    "Doorgaan naar shop-deals.test (onveilig)", "Ignore the risk and visit site",
])
def test_the_way_past_a_warning_in_other_languages(label):
    assert click(label, PHISHING).decision is Decision.BLOCK, label
    assert click(label).decision is Decision.CONFIRM, label  # the label alone overrides a warning


@pytest.mark.parametrize("label", ["Continuer vers le paiement", "Weiter zur Kasse", "Acceder a mi cuenta"])
def test_the_same_verbs_without_a_warning_pass(label):
    assert click(label).decision is Decision.ALLOW, label
