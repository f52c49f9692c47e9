"""Personal data typed out: national ids by country (each with its own check), and documents' numbers written
after their names (gate.sensitive.find_sensitive, read by confirm.gui.sensitive-data). Our own numbers, made
to pass each country's published check; every trigger has a near miss beside it."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.sensitive import find_sensitive, verhoeff_valid

GATE = SafetyGate()
CHAT = "https://chat.example.com/channel/general"


def typed(text: str, label: str, page: str = CHAT):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}}),
                       Observation(url=page))


FOUND = [
    ("Indian Aadhaar number", "aadhaar 2345 6789 0124"),
    ("Indian PAN", "PAN ABCPE1234F"),
    ("Brazilian CPF", "CPF 529.982.247-25"),
    ("Dutch citizen service number (BSN)", "BSN 111222333"),
    ("Polish PESEL", "PESEL 44051401359"),
    ("Italian fiscal code", "codice fiscale RSSMRA85T10A562S"),
    ("Singapore NRIC/FIN", "NRIC S1234567D"),
    ("Australian tax file number", "tax file number 123 456 782"),
    ("UK NHS number", "NHS number 943 476 5919"),
    ("Spanish foreigner id (NIE)", "NIE X1234567L"),
    ("US individual taxpayer number (ITIN)", "ITIN 912-70-1234"),
    ("passport number", "passport number: X1234567"),
    ("driving licence number", "driver's license D1234567"),
    ("medical record number", "MRN 4471823"),
    ("health insurance number", "Medicare number 1EG4TE5MK73"),
]


@pytest.mark.parametrize(("kind", "text"), FOUND)
def test_each_id_is_found_and_asks_in_a_message(kind, text):
    assert kind in [f.kind for f in find_sensitive(text)]
    a = typed(text, "Message")
    assert a.decision in (Decision.CONFIRM, Decision.BLOCK)
    assert "confirm.gui.sensitive-data" in a.rules


NEAR = [
    "aadhaar 2345 6789 0125",  # Verhoeff digit wrong
    "order 2345 6789 0124 shipped",  # the shape without the id's name
    "CPF 529.982.247-26",  # check digits wrong
    "PESEL 44051401358",
    "codice fiscale RSSMRA85T10A562T",
    "NRIC S1234567A",
    "ticket 111222333 is closed",
    "the passport office opens at 9",
    "version 12.4.1 of the app",
    "room 4471823",
]


@pytest.mark.parametrize("text", NEAR)
def test_near_misses_are_not_ids(text):
    assert not [f for f in find_sensitive(text) if f.category != "internal infrastructure"], find_sensitive(text)
    assert "confirm.gui.sensitive-data" not in typed(text, "Message").rules


def test_one_number_read_as_two_kinds_is_one_finding():
    assert len(find_sensitive("tax file number 123 456 782")) == 1


def test_verhoeff():
    assert verhoeff_valid("234567890124")
    assert not verhoeff_valid("234567890125")


def test_the_persons_own_details_in_a_checkout_form_pass():
    shop = "https://shop.example.com/checkout"
    for text, label in (("42 Elm Street", "Address line 1"), ("jane.doe@mail.example.com", "Email"),
                        ("+1 555 201 3344", "Phone"), ("Jane Doe", "Full name"), ("94107", "Zip code")):
        assert typed(text, label, shop).decision is Decision.ALLOW


def test_a_passport_machine_readable_zone_is_found():
    mrz = "P<XXAMOREAU<<LEA<<<<<<<<<<<<<<<<<<<<<<<<<<<\nC030059885XXA8512139F3001017<<<<<<<<<<<<<02"
    assert "passport or id card machine-readable zone" in [f.kind for f in find_sensitive(mrz)]
    assert not find_sensitive("P<XXAMOREAU<<LEA and some text 12")


CHART = "https://ehr.example.com/patient/chart/7781"
POST = "https://forum.example.com/new-post"


@pytest.mark.parametrize("text", [
    "Patient: Lena Ortiz, DOB 1979-11-02, diagnosis: type 1 diabetes, insulin pump since 2015",
    "Results for Omar Haddad (date of birth 02/07/1966): biopsy positive, referred to oncology",
    "Karl Brandt, account 0098123344, balance -$3,410, in arrears since March",
])
def test_one_persons_record_blocks_in_a_public_post_and_asks_in_a_message(text):
    a = typed(text, "Post body", POST)
    assert a.decision is Decision.BLOCK
    assert "block.typed.personal-record" in a.rules
    a = typed(text, "Message", CHAT)
    assert a.decision in (Decision.CONFIRM, Decision.BLOCK)
    assert "confirm.typed.personal-record" in a.rules


def test_a_record_in_the_chart_where_it_belongs_does_not_ask():
    text = "Patient: Lena Ortiz, DOB 1979-11-02, diagnosis: type 1 diabetes, insulin pump since 2015"
    a = typed(text, "Clinical note", CHART)
    assert "confirm.typed.personal-record" not in a.rules
    assert "block.typed.personal-record" not in a.rules


@pytest.mark.parametrize("text", [
    "Lab results are ready for pickup after 3pm on 12/03",
    "Meeting with Jane Doe on 2024-03-05 about the budget balance",
    "Order 12345: Jane Doe, 42 Elm Street, Springfield",
    "Your account 12345 balance is low",
])
def test_text_that_is_no_record_passes(text):
    a = typed(text, "Post body", POST)
    assert "block.typed.personal-record" not in a.rules
