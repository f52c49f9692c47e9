"""Lures, money and handed-over secrets in the languages web pages and messages are written in: the same
classes the English cues catch (resources/cues.toml, resources/lures.toml, gate/fields.py), each with a near
miss. Our own phrasings, written from consumer-protection advice on bank-impersonation, fine and investment
scams and on one-time codes."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def click(label: str, url: str | None = None):
    data: dict = {"type": "click", "x": 1, "y": 1, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data))


def typed(text: str, label: str, url: str | None = None):
    data: dict = {"type": "type", "text": text, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data))


# -- money moved: a transfer, a fine, an investment, a whole balance ---------------------------------------


@pytest.mark.parametrize("label", [
    "Valider mon virement de 950 €", "Programmer le virement", "Payer la contravention", "Payer vos frais de douane",
    "Pagar la multa ahora", "Validar la transferencia", "Gebühr jetzt bezahlen", "Mahngebühr begleichen",
    "Invest now", "Invest 500", "Transfer your entire balance", "Withdraw all funds",
])
def test_money_moved_in_other_words_asks(label):
    a = click(label, "https://pay.example.org/step/2")
    assert a.decision is not Decision.ALLOW and "confirm.gui.consequential" in a.rules, (label, a.rules)


@pytest.mark.parametrize("label", [
    "Mes virements", "Historique des paiements", "Multas y sanciones", "Gebührenübersicht", "Investment basics",
    "Investors", "Account balance", "Move to archive", "Invest in your future: a guide", "Investir dans l'immobilier",
    "Invertir en bolsa: lo básico", "Anlegen oder sparen?",
])
def test_pages_about_money_do_not_ask(label):
    assert "confirm.gui.consequential" not in click(label, "https://pay.example.org/").rules, label


# -- lures: guaranteed returns, the "safe account" of bank-impersonation fraud -----------------------------


@pytest.mark.parametrize("label", [
    "Invest today - guaranteed 12% monthly profit", "Deposit now: guaranteed daily returns",
    "Jetzt investieren: garantierte 8 Prozent Rendite", "Invertir ya - rentabilidad garantizada",
])
def test_an_investment_with_guaranteed_returns_on_a_button_blocks(label):
    assert click(label).decision is Decision.BLOCK, label


@pytest.mark.parametrize("label", [
    "Transfer your balance to the safe account", "Send savings into a protected account now",
    "Ersparnisse auf ein Sicherheitskonto übertragen", "Envoyer l'argent vers un compte sécurisé",
    "Mover el dinero a una cuenta segura",
])
def test_money_moved_to_a_safe_account_blocks(label):
    a = click(label, "https://bank.example.co.uk/transfer")
    assert a.decision is Decision.BLOCK and "block.gui.steering" in a.rules, (label, a.rules)


def test_a_safe_account_described_in_a_report_passes():
    a = typed("A caller told my father to move his pension to a safe account.", "What happened?",
              "https://report.example.org/fraud/new")
    assert a.decision is Decision.ALLOW, a.rules
    assert click("Safe account tips").decision is Decision.ALLOW


# -- a locked account offered back, written in the first person or in German -------------------------------


@pytest.mark.parametrize("label", [
    "Desbloquear mi cuenta", "Reactivar mi acceso ahora", "Konto sofort freischalten", "Zugang jetzt entsperren",
    "Débloquer mon compte", "Réactivez votre accès",
])
def test_a_locked_account_offered_back_asks(label):
    a = click(label, "https://secure-login.example.top/")
    assert a.decision is not Decision.ALLOW and {"confirm.gui.steering", "block.gui.steering"} & set(a.rules), a


@pytest.mark.parametrize("label", ["Mi cuenta", "Mein Konto", "Mon compte", "Konto eröffnen", "Mis pedidos"])
def test_an_account_menu_does_not_steer(label):
    assert click(label).decision is Decision.ALLOW, label


# -- one-time codes and passwords written into a message, in other languages --------------------------------


@pytest.mark.parametrize(("text", "label"), [
    ("Voici le code de vérification : 730 214", "Votre réponse"),
    ("Der Bestätigungscode lautet 58 21 09", "Antwort schreiben"),
    ("Te paso el código de seguridad 440918", "Escribe un mensaje"),
    ("O código de verificação é 883012", "Mensagem"),
    ("Il codice di verifica è 190245", "Scrivi un messaggio"),
])
def test_a_one_time_code_written_into_a_message_blocks(text, label):
    a = typed(text, label, "https://chat.example.net/c/55")
    assert a.decision is Decision.BLOCK and "block.typed.code-relayed" in a.rules, (text, a.rules)


@pytest.mark.parametrize(("text", "label"), [
    ("Le code postal est 69002", "Commentaire"),
    ("Die TAN-Liste liegt im Büro, Raum 4711", "Nachricht"),
    ("El código de descuento VERANO caduca el 2025", "Mensaje"),
])
def test_codes_that_open_nothing_pass(text, label):
    assert "block.typed.code-relayed" not in typed(text, label, "https://chat.example.net/c/55").rules, text


@pytest.mark.parametrize(("text", "label"), [
    ("Mein Kennwort lautet Tulpe!2024", "Nachricht an den Kundenservice"),
    ("Mi contraseña es Girasol#77", "Chat con atención al cliente"),
    ("Mon mot de passe est Lilas-9922", "Message au vendeur"),
])
def test_a_password_written_to_support_or_a_seller_blocks(text, label):
    a = typed(text, label, "https://help.example.net/chat")
    assert a.decision is Decision.BLOCK and "block.typed.secret-to-stranger" in a.rules, (text, a.rules)


def test_a_password_written_to_a_friend_only_asks():
    a = typed("Mi contraseña del wifi es Girasol#77", "Mensaje para Ana", "https://chat.example.net/dm/ana")
    assert a.decision is not Decision.BLOCK, a.rules


# -- account and money objects named in other orders ----------------------------------------------------------


@pytest.mark.parametrize("label", [
    "Change linked bank account", "Update default payout method", "Backup codes: Download", "Recovery codes - view",
    "Create new key (P12)", "Give control to Sam", "Grant mouse and keyboard control to guest",
    "Tell your online banking password to the agent", "Share PIN with support",
])
def test_account_and_money_objects_named_in_other_orders_ask(label):
    a = click(label, "https://console.example.net/settings")
    assert a.decision is not Decision.ALLOW and "confirm.gui.consequential" in a.rules, (label, a.rules)


@pytest.mark.parametrize("label", [
    "Control Center", "Keyboard control settings", "Recovery codes help", "Create key", "PIN settings",
    "Linked accounts", "Give feedback to the host",
])
def test_the_same_words_on_ordinary_controls_pass(label):
    assert "confirm.gui.consequential" not in click(label, "https://console.example.net/settings").rules, label


def test_bank_details_typed_into_a_payees_details_field_ask():
    a = typed("Sort code 40-11-62, account 31926819", "Recipient details", "https://bank.example.net/payments/new")
    assert a.decision is not Decision.ALLOW, a.rules
    assert typed("Rent for March", "Payment reference", "https://bank.example.net/payments/new").decision \
        is Decision.ALLOW
