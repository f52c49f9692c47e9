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


@pytest.mark.parametrize(("label", "title", "url"), [
    ("Commit changes", "Editing docs/intro.md at main · acme/site", "https://github.com/acme/site/edit/main/docs/intro.md"),
    ("Create pull request", "Comparing main...fix-typo · acme/site", "https://github.com/acme/site/compare/main...fix-typo"),
    ("Merge pull request", "Fix typo · Pull Request #7 · acme/site", "https://github.com/acme/site/pull/7"),
    ("Create merge request", "New merge request · acme / site · GitLab", "https://gitlab.com/acme/site/-/merge_requests/new"),
    ("Commit changes", "Edit Pull Request #3 - demo", "http://localhost:8080/repo/pr.html"),
])
def test_publishing_on_a_code_hosts_pages_asks(label, title, url):
    a = click(label, "Firefox", title, url)
    assert a.decision is Decision.CONFIRM, a.rules
    assert "confirm.gui.code-host-publish" in a.rules


@pytest.mark.parametrize(("label", "title", "url"), [
    ("New pull request", "Pull requests · acme/site", "https://github.com/acme/site/pulls"),
    ("Files changed", "Fix typo · Pull Request #7 · acme/site", "https://github.com/acme/site/pull/7"),
    ("Create pull request", "How we work - Team wiki", "https://wiki.example.com/howto"),
])
def test_reading_on_a_code_host_and_the_words_elsewhere_pass(label, title, url):
    assert "confirm.gui.code-host-publish" not in click(label, "Firefox", title, url).rules
