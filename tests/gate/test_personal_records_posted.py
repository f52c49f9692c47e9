"""Health and family records typed where others read them (gate/privacy.py personal_record; the rules
block.typed.personal-record and confirm.typed.personal-record in gate/rules/typed_out.py). Our own examples, written
from HHS's list of the identifiers that make health information protected (name, birth date, medical record number,
health plan number), the FTC's medical identity theft page, and schools' and police forces' advice not to post a
child's school together with the family's address. Each shape has a trigger and a near miss."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation
from gate.privacy import personal_record

GATE = SafetyGate()
FORUM_POST = ("https://www.reddit.com/r/AskNurses/submit", "Post body")
ISSUE_COMMENT = ("https://github.com/example-org/clinic-app/issues/88", "Comment")
REVIEW = ("https://www.example-reviews.com/biz/harbor-dental/write-review", "Your review")
GROUP_POST = ("https://www.facebook.com/groups/4410/posts", "Write something...")


def typed(place: tuple[str, str], text: str):
    url, label = place
    action = {"type": "type", "url": url, "text": text, "target": {"label": label}}
    return GATE.assess(action_from_dict(action), Observation(url=url))


PATIENT = "Patient: Helen Okafor, DOB 11/02/1958, MRN 55120934 - can anyone read this discharge letter for me?"
DIAGNOSIS_PLAN = "Diagnosed with epilepsy in March; my Cigna member ID is U48812730 02, why was the claim denied?"
CHILD = "My daughter is in year 2 at Riverside Primary School and we live at 27 Willow Close, Hexham. Any carpools?"


@pytest.mark.parametrize("text,kind", [
    (PATIENT, "a health record"),
    ("Name: Paul Varga, date of birth 1949-07-30, medical record number 8830145", "a health record"),
    (DIAGNOSIS_PLAN, "a diagnosis with an insurance or member id"),
    ("Our son has type 1 diabetes, insurance ID: XKW-7781-2290. Which pump does the plan cover?",
     "a diagnosis with an insurance or member id"),
    (CHILD, "a child's school and home address"),
])
def test_a_record_is_read_without_a_diagnosis_or_a_name(text, kind):
    assert personal_record(text) == kind


@pytest.mark.parametrize("text", [
    "I was diagnosed with epilepsy last year, any tips for driving again?",       # a diagnosis alone
    "The patient record form crashes when the DOB field is left empty",            # a bug report about a form
    "Riverside Primary School has a great drama club, my daughter loves it",       # a school without an address
    "We live at 27 Willow Close now, come round any time",                         # an address without a child
    "What does a member ID on an insurance card look like? Mine starts with a U",  # no number, no diagnosis
])
def test_a_near_miss_is_no_record(text):
    assert personal_record(text) is None


@pytest.mark.parametrize("place", [FORUM_POST, ISSUE_COMMENT, REVIEW, GROUP_POST])
@pytest.mark.parametrize("text", [PATIENT, DIAGNOSIS_PLAN, CHILD])
def test_a_record_typed_where_others_read_it_blocks(place, text):
    d = typed(place, text)
    assert d.decision is Decision.BLOCK
    assert "block.typed.personal-record" in d.rules
    assert "text" in d.redact


def test_the_same_record_in_a_private_message_asks_and_a_clinic_chart_passes():
    d = typed(("https://mail.example.com/mail/compose", "Message body"), PATIENT)
    assert d.decision is Decision.CONFIRM
    assert "confirm.typed.personal-record" in d.rules
    chart = typed(("https://ehr.example-clinic.org/patients/chart/notes", "Clinical note"), PATIENT)
    assert "block.typed.personal-record" not in chart.rules


def test_ordinary_posts_pass():
    for place in (FORUM_POST, REVIEW):
        assert typed(place, "I was diagnosed with epilepsy last year, any tips for driving again?").decision \
            is Decision.ALLOW
