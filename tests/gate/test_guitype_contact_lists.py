"""Several people's contact details typed into a message, a comment or a post ask, with phone numbers written as
any country writes them (`confirm.typed.contact-list-out`, gate/rules/typed_out.py). One person's details, names
alone, dates and order numbers pass, and so does the list typed into a spreadsheet. Examples are our own."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation
from gate.rules.typed_out import contact_entries

GATE = SafetyGate()


def decide(text: str, label: str | None, url: str = "", window: str = "", app: str = "") -> tuple[str, tuple]:
    data: dict = {"type": "type", "text": text}
    if label:
        data["target"] = {"label": label}
    got = GATE.assess(action_from_dict(data), Observation(url=url, window_title=window, app=app))
    return got.decision.value, got.rules


@pytest.mark.parametrize(("text", "label", "url"), [
    ("Lia Moreira, 11 97654-3210; Rui Prado, 21 98765-1234; Iara Costa, 31 99123-4567", "Mensagem",
     "https://chat.example.com.br/c/1"),
    ("Paul Girard, 06 21 43 65 87, p.girard@example.fr\nNina Roche, 07 12 34 56 78, nina.r@example.fr\n"
     "Hugo Blanc, 06 98 87 76 65, hugo.b@example.fr", "Commentaire", "https://forum.example.fr/t/8"),
    ("Jonas Weber <j.weber@example.de>; Mia Braun <mia.b@example.de>; Lena Vogt <lena.v@example.de>",
     "Nachricht", "https://chat.example.de/room/2"),
])
def test_several_peoples_contacts_leaving_ask(text: str, label: str, url: str) -> None:
    decision, rules = decide(text, label, url)
    assert decision != "allow" and rules


@pytest.mark.parametrize("text", [
    "Paul Girard, 06 21 43 65 87", "Paul Girard\nNina Roche\nHugo Blanc",
    "Kickoff on 2025-03-04 with Paul Girard; Review on 2025-04-01 with Nina Roche; Launch 2025-05-06 with Hugo Blanc",
    "Order 1234567890 shipped; Order 2234567890 delivered; Order 3234567890 returned",
])
def test_one_person_names_dates_and_orders_pass(text: str) -> None:
    assert contact_entries(text) < 3
    assert decide(text, "Message", "https://chat.example.com/c/1")[0] == "allow"


def test_the_same_list_in_a_spreadsheet_does_not_ask_here() -> None:
    text = "Lia Moreira, 11 97654-3210\nRui Prado, 21 98765-1234\nIara Costa, 31 99123-4567"
    assert "confirm.typed.contact-list-out" not in decide(text, None, window="contacts.ods - LibreOffice Calc",
                                                          app="soffice")[1]
