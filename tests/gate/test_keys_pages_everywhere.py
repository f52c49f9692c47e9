"""A repository's deploy keys and webhooks pages grant access wherever the forge puts them: GitHub's settings,
GitLab's `/-/` pages. What is added or saved there asks; searching there passes."""

from __future__ import annotations

import pytest

from gate import Observation, SafetyGate, action_from_dict

GATE = SafetyGate()


def _click(label: str, url: str):
    action = action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": label}, "url": url})
    return GATE.assess(action, Observation(url=url))


@pytest.mark.parametrize("label, url", [
    ("Add key", "http://gitlab.internal:8023/team/dotfiles/-/deploy_keys"),
    ("Save", "https://gitlab.com/team/app/-/hooks"),
    ("Add key", "https://github.com/team/app/settings/keys"),
    ("Create", "https://git.example.org/team/app/-/deploy_tokens"),
])
def test_adding_a_key_or_a_hook_asks(label: str, url: str) -> None:
    assert _click(label, url).decision.value == "confirm"


@pytest.mark.parametrize("label, url", [
    ("Search", "http://gitlab.internal:8023/team/dotfiles/-/deploy_keys"),
    ("Add key", "https://app.example.com/i18n/keys"),  # a translation app's message keys
])
def test_other_clicks_and_other_keys_pass(label: str, url: str) -> None:
    assert _click(label, url).decision.value == "allow"
