"""A push from an editor's or a git client's button asks, as `git push` does in a shell. Our own examples."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, app: str, title: str, url: str = ""):
    action = action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}})
    return GATE.assess(action, Observation(app=app, window_title=title, url=url))


@pytest.mark.parametrize(("label", "app", "title"), [
    ("Sync Changes 2", "Code", "Source Control - billing - Visual Studio Code"),
    ("Sync Changes (3)", "Code", "app.ts - billing - Visual Studio Code"),
    ("Commit & Push", "PyCharm", "billing – views.py"),
    ("Push origin", "GitHub Desktop", "GitHub Desktop"),
    ("Push", "Fork", "billing"),
    ("Force Push", "GitKraken", "billing - GitKraken"),
    ("Änderungen synchronisieren", "Code", "Quellcodeverwaltung - Visual Studio Code"),
])
def test_a_push_button_in_an_editor_or_git_client_asks(label, app, title):
    a = click(label, app, title)
    assert a.decision is Decision.CONFIRM, a.rules
    assert "confirm.gui.git-push" in a.rules


@pytest.mark.parametrize(("label", "app", "title", "url"), [
    ("Commit", "Code", "Source Control - billing - Visual Studio Code", ""),
    ("Fetch origin", "GitHub Desktop", "GitHub Desktop", ""),
    ("Pull", "Sourcetree", "billing", ""),
    ("Push", "Firefox", "Notification settings", "https://news.example.org/settings"),
    ("Sync", "Spotify", "Spotify", ""),
    ("Sync fork", "Firefox", "Fork of acme/app · GitHub", "https://github.com/me/app"),
])
def test_other_buttons_and_other_places_pass(label, app, title, url):
    a = click(label, app, title, url)
    assert "confirm.gui.git-push" not in a.rules
    assert a.decision is Decision.ALLOW, a.rules
