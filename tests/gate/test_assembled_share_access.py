"""A click that hands a service the person's address book, photos or location asks, in many languages; the bare
"Allow" of a dialog asks when the dialog says what it gives access to. A "Contacts" tab or "Add contact" passes."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()
RULE = "confirm.gui.share-personal-access"


def _hits(label: str, title: str = "") -> tuple[str, list[str]]:
    a = action_from_dict({"type": "click", "x": 40, "y": 80, "target": {"label": label}})
    r = GATE.assess(a, Observation(window_title=title, app="Android"))
    return r.decision.value, [h.rule for h in r.hits]


@pytest.mark.parametrize("label", [
    "Sync my contacts", "Upload your address book", "Find friends in your contacts",
    "Allow access to your photo library", "Share my live location", "Import contacts from your phone",
    "Adressbuch synchronisieren", "Zugriff auf deine Fotos erlauben",
    "Synchroniser vos contacts", "Autoriser l'accès à votre position",
    "Sincronizar mis contactos", "Permitir el acceso a tus fotos",
    "Sincronizza i contatti", "Consenti l'accesso ai contatti",
    "Carregar contatos", "Permitir acesso à localização",
    "Adresboek synchroniseren", "Toegang tot je locatie toestaan",
    "連絡先を同期", "写真へのアクセスを許可", "同步联系人", "允许访问相册",
])
def test_share_access_asks(label: str) -> None:
    decision, rules = _hits(label)
    assert decision == "confirm"
    assert RULE in rules


def test_bare_allow_in_a_contacts_dialog_asks() -> None:
    assert RULE in _hits("Allow", "Allow Chirper to access your contacts?")[1]
    assert RULE in _hits("OK", "“Snapmap” Would Like to Access Your Photos")[1]


@pytest.mark.parametrize(("label", "title"), [
    ("Contacts", ""), ("Add contact", ""), ("New contact", ""), ("Contact support", ""), ("Sync settings", ""),
    ("Import contacts from a CSV file", "Contacts"), ("Photos", ""), ("OK", "File saved"),
    ("Allow", "Allow cookies?"), ("Location", "Settings"), ("Kontakte", ""), ("Ajouter un contact", ""),
])
def test_neighbours_do_not_hit_the_rule(label: str, title: str) -> None:
    assert RULE not in _hits(label, title)[1]


def test_bare_allow_reads_the_dialog_text() -> None:
    a = action_from_dict({"type": "click", "x": 40, "y": 80, "target": {"label": "Allow"}})
    asks = Observation(window_title="Chirper", app="Android",
                       page_text="Chirper would like to access your contacts\nDon't allow\nAllow")
    plain = Observation(window_title="Chirper", app="Android", page_text="Turn on notifications?\nNot now\nAllow")
    assert RULE in [h.rule for h in GATE.assess(a, asks).hits]
    assert RULE not in [h.rule for h in GATE.assess(a, plain).hits]
