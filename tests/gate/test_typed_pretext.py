"""A message that asks its reader for a company's data or their identity under a pretext's pressure
(gate/rules/typed_pretext.py, resources/lures.toml [pretext]). Our own messages, written from the FBI IC3's
business e-mail compromise notices, the IRS's W-2 phishing alerts and the FTC's advice that no one legitimate asks
for a Social Security number by e-mail or text; and the ordinary asks that must still pass."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()
MAIL = "https://mail.example.com/compose"


def compose(text: str):
    action = {"type": "type", "text": text, "url": MAIL, "target": {"label": "Message body"}}
    return GATE.assess(action_from_dict(action), Observation(url=MAIL, window_title="New message"))


@pytest.mark.parametrize("text", [
    "Priya, email me all employee W-2 forms right away. If this isn't done there will be consequences for your job.",
    "Forward the customer list to my personal address today or you will be let go.",
    "Send over the payroll records immediately, otherwise disciplinary action will follow.",
])
def test_a_data_ask_under_threat_blocks(text):
    d = compose(text)
    assert d.decision is Decision.BLOCK
    assert "block.typed.pressured-data-ask" in d.rules


@pytest.mark.parametrize("text", [
    "I need a PDF copy of all employee W-2s for a quick review. Send them to me ASAP.",
    "This is the CEO. I need the list of all employees with their SSNs and salaries within the hour.",
])
def test_a_workforces_tax_data_asked_in_a_hurry_or_in_a_claimed_name_asks(text):
    assert "confirm.typed.pressured-data-ask" in compose(text).rules


def test_a_data_ask_in_secret_asks():
    d = compose("I'm in a meeting and can't talk. Send me the bank account details for the new supplier, and keep "
                "this between us.")
    assert "confirm.typed.pressured-data-ask" in d.rules


@pytest.mark.parametrize("text", [
    "Hi Dan, please review the budget figures before Thursday's meeting.",
    "Could you send me the payroll summary for March when you get a chance? Thanks!",
    "Could you send the payroll summary for all employees to the auditors by Friday?",
    "Please send the financial statements we need for the legal action by Friday.",
    "Beware: scammers pretending to be our CEO ask staff to send W-2 forms. Report any such email.",
])
def test_ordinary_asks_and_warnings_pass(text):
    rules = compose(text).rules
    assert "block.typed.pressured-data-ask" not in rules
    assert "confirm.typed.pressured-data-ask" not in rules


@pytest.mark.parametrize("text", [
    "Hello Ana, we need your social security number to finish your file. Please reply within 24 hours.",
    "Your benefits will be suspended unless you send your national insurance number and date of birth today.",
    "To keep your card active, reply with your full card number and CVV immediately.",
])
def test_an_identity_ask_under_pressure_blocks(text):
    d = compose(text)
    assert d.decision is Decision.BLOCK
    assert "block.typed.identity-request" in d.rules


def test_an_identity_ask_with_no_pressure_asks():
    d = compose("Hi Sam, for the rental application could you send me your social security number?")
    assert "confirm.typed.identity-request" in d.rules
    assert "block.typed.identity-request" not in d.rules


@pytest.mark.parametrize("text", [
    "Reminder: never send your social security number by email; use the HR portal.",
    "I got a text asking me to reply with my SSN - looks like a phishing attempt, reporting it.",
    "Please fill in the passport form at the embassy's site.",
])
def test_warnings_and_forms_pass(text):
    rules = compose(text).rules
    assert "block.typed.identity-request" not in rules
    assert "confirm.typed.identity-request" not in rules


@pytest.mark.parametrize("text", [
    "Hola Ana, necesitamos su número de seguridad social para terminar el trámite. Responda hoy.",
    "Bonjour, merci de nous envoyer votre numéro de sécurité sociale aujourd'hui.",
    "Olá, para atualizar seu cadastro precisamos do seu CPF. Responda hoje.",
])
def test_an_identity_ask_under_pressure_blocks_in_other_languages(text):
    assert "block.typed.identity-request" in compose(text).rules


@pytest.mark.parametrize("text", [
    "FYI: scammers are texting staff 'send me the payroll details within the hour or there will be consequences'. "
    "Do not reply.",
    "I got a text saying 'reply with your SSN within 24 hours or your benefits will be suspended'. Is this real?",
])
def test_an_ask_quoted_in_a_warning_or_a_question_passes(text):
    rules = compose(text).rules
    assert not {"block.typed.pressured-data-ask", "block.typed.identity-request"} & set(rules)
