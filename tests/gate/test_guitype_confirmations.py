"""What is typed to confirm a step that cannot be undone asks (gate/rules/typed.py): the phrase or the name a field
asks for, in the languages consoles speak, a confirmation word where the window or the page is about deleting,
and a sum typed into a form that moves money. The same words in a search, a note or a basket pass. Examples are
our own."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def decide(text: str, label: str | None = None, url: str = "", window: str = "") -> tuple[str, tuple[str, ...]]:
    data: dict = {"type": "type", "text": text}
    if label:
        data["target"] = {"label": label}
    got = GATE.assess(action_from_dict(data), Observation(url=url, window_title=window))
    return got.decision.value, got.rules


@pytest.mark.parametrize(("text", "label"), [
    ("SUPPRIMER", "Saisissez SUPPRIMER pour confirmer"), ("ELIMINAR", "Escribe ELIMINAR para confirmar"),
    ("LÖSCHEN", "Geben Sie LÖSCHEN ein, um zu bestätigen"), ("ELIMINA", "Digita ELIMINA per confermare"),
    ("EXCLUIR", "Digite EXCLUIR para confirmar"), ("VERWIJDEREN", "Typ VERWIJDEREN om te bevestigen"),
    ("削除", "確認のため「削除」と入力してください"), ("删除", "请输入“删除”以确认"),
    ("billing-prod", "Enter the workspace name to confirm"), ("I understand", "Type \"I understand\" to proceed"),
])
def test_the_phrase_a_field_asks_for_asks(text: str, label: str) -> None:
    decision, rules = decide(text, label, "https://console.example.net/settings")
    assert decision == "confirm" and "confirm.typed.confirmation-phrase" in rules


@pytest.mark.parametrize(("text", "label", "url", "window"), [
    ("DELETE", "Confirm", "https://app.example.net/settings/danger", ""),
    ("permanently delete", None, "", "Are you absolutely sure?"),
    ("delete my account", "Confirmation", "https://www.example.org/account/close", "Delete account"),
    ("ana/photo-site", "Repository name", "https://code.example.com/ana/photo-site/settings", "Delete repository"),
])
def test_a_confirmation_word_or_the_name_where_the_step_is_deleting_asks(text: str, label: str | None, url: str,
                                                                          window: str) -> None:
    assert "confirm.typed.confirmation-phrase" in decide(text, label, url, window)[1]


@pytest.mark.parametrize(("text", "label", "url", "window"), [
    ("delete", "Search", "https://help.example.org/delete-account", ""),
    ("how to delete a fork", "Search", "https://code.example.com/search", ""),
    ("photo-site", "Repository name", "https://code.example.com/new", "Create a new repository"),
    ("yes", "Message", "https://chat.example.com/c/42", ""),
    ("Remove the old banner", "Commit message", "https://code.example.com/ana/site/edit/main/index.html", ""),
])
def test_the_same_words_elsewhere_pass(text: str, label: str, url: str, window: str) -> None:
    assert "confirm.typed.confirmation-phrase" not in decide(text, label, url, window)[1]


@pytest.mark.parametrize(("text", "label", "url"), [
    ("1 250,00", "Betrag", "https://banking.example.de/ueberweisung"),
    ("0.5", "Amount", "https://dex.example.org/swap"),
    ("300", "Montant", "https://banque.example.fr/virement/nouveau"),
    ("750", "Importe", "https://banco.example.es/transferencia"),
    ("50000", "金額", "https://bank.example.jp/furikomi/振込"),
    ("2.000,00", "Bedrag", "https://bank.example.nl/overboeking"),
])
def test_an_amount_into_a_form_that_moves_money_asks(text: str, label: str, url: str) -> None:
    decision, rules = decide(text, label, url)
    assert decision == "confirm" and "confirm.typed.amount-to-send" in rules


@pytest.mark.parametrize(("text", "label", "url"), [
    ("25", "Price max", "https://shop.example.com/search"), ("3", "Amount", "https://recipes.example.com/edit"),
    ("12", "Quantity", "https://shop.example.com/cart"), ("Rent", "Amount", "https://bank.example.com/transfer"),
])
def test_other_numbers_pass(text: str, label: str, url: str) -> None:
    assert "confirm.typed.amount-to-send" not in decide(text, label, url)[1]
