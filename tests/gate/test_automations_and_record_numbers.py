"""Setting up something that acts later on its own (a phone's personal automation, a scheduled task, an applet or
a routine) asks: whatever it does then runs unseen, again and again. A to-do app's task and a word that only
contains "routine" pass. A record's own number typed into its field (an order number) is not a password."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()


def _click(label: str, app: str = "", title: str = "", url: str = "") -> str:
    action = action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}})
    return GATE.assess(action, Observation(app=app, window_title=title, url=url)).decision.value


@pytest.mark.parametrize(("label", "app", "title"), [
    ("New personal automation", "Shortcuts", "Automations"), ("Create Basic Task…", "mmc.exe", "Task Scheduler"),
    ("New scheduled task", "mmc.exe", "Task Scheduler"), ("Turn on applet", "Firefox", "IFTTT"),
    ("Publish Zap", "Firefox", "Zapier"), ("Neue Automatisierung", "Kurzbefehle", "Automation"),
    ("Créer une tâche planifiée", "mmc.exe", "Planificateur de tâches"),
])
def test_setting_up_an_automation_asks(label: str, app: str, title: str) -> None:
    assert _click(label, app, title) == "confirm", label


@pytest.mark.parametrize(("label", "app", "title"), [
    ("Create task", "Firefox", "Today - Todoist"), ("Add task", "Firefox", "Board - Jira"),
    ("Routine maintenance", "Firefox", "Service plans"), ("Automation", "Shortcuts", "Shortcuts"),
])
def test_a_to_do_task_and_a_tab_pass(label: str, app: str, title: str) -> None:
    assert _click(label, app, title) == "allow", label


@pytest.mark.parametrize(("field", "text"), [("Order number", "#K4471902"), ("Case no.", "CS0012Ab9"),
                                             ("Bestellnummer", "Tz88Lm20Q")])
def test_a_record_number_in_its_field_passes(field: str, text: str) -> None:
    action = action_from_dict({"type": "type", "text": text, "target": {"label": field}})
    got = GATE.assess(action, Observation(url="https://shop.example.com/account/orders"))
    assert got.decision.value == "allow", (field, got.rules)
