"""Deleting is read in the cue book's languages as in English: a button that deletes, and a yes to a dialog that
asks whether to delete (with the full-width question mark of Chinese and Japanese titles), ask; saving, searching
and answering a question about something else pass."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, default_policy
from gate.model import Decision, action_from_dict

GATE = SafetyGate(default_policy())


def click(label: str, title: str = ""):
    return GATE.assess(action_from_dict({"type": "click", "x": 3, "y": 3, "target": {"label": label}}),
                       Observation(window_title=title, app="Files"))


@pytest.mark.parametrize(("label", "title"), [
    ("Supprimer", "Documents"), ("Eliminar", "Documentos"), ("Usuń", "Dokumenty"), ("Удалить", "Документы"),
    ("Oui", "Voulez-vous supprimer ces 3 photos ?"), ("Sí", "¿Quiere borrar la carpeta Facturas?"),
    ("はい", "選択した項目を削除しますか？"), ("确定", "确定要删除这些文件吗？"), ("Sim", "Deseja excluir a pasta?"),
])
def test_deleting_asks_in_other_languages(label: str, title: str) -> None:
    assert click(label, title).decision is Decision.CONFIRM, (label, title)


@pytest.mark.parametrize(("label", "title"), [
    ("Enregistrer", "Paramètres"), ("Buscar", "Documentos"), ("Oui", "Voulez-vous ouvrir ce fichier ?"),
    ("はい", "このファイルを開きますか？"), ("Speichern", "Einstellungen"),
])
def test_saving_searching_and_other_questions_pass(label: str, title: str) -> None:
    assert click(label, title).decision is Decision.ALLOW, (label, title)
