"""Browser and system settings pages: the ones that only change how things look stay quiet, the ones that
hold passwords, protections, extensions or data to clear still ask. Our own list of pages."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def nav(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}))


@pytest.mark.parametrize("url", ["chrome://settings", "chrome://settings/appearance", "edge://settings/fonts",
                                 "chrome://settings/searchEngines", "chrome://history", "about:preferences#home",
                                 "ms-settings:display", "ms-settings:personalization-colors",
                                 "ms-settings:dateandtime", "ms-settings:privacy-microphone",
                                 "ms-settings:privacy-location",
                                 # lists of switches and buttons, each judged when clicked
                                 "chrome://extensions", "about:preferences#privacy", "about:addons",
                                 # what is granted or enforced, shown: each switch is judged when clicked
                                 "about:policies", "edge://settings/content/camera", "chrome://settings/safetyCheck",
                                 "chrome://settings/content/siteDetails?site=https%3A%2F%2Fnews.example"])
def test_settings_pages_that_only_change_how_things_look_stay_quiet(url):
    assert nav(url).decision is Decision.ALLOW, url


@pytest.mark.parametrize("url", ["chrome://settings/passwords", "chrome://settings/clearBrowserData",
                                 "chrome://settings/reset", "chrome://flags", "about:config", "about:logins",
                                 "ms-settings:windowsdefender",
                                 "ms-settings:developers", "ms-settings:signinoptions",
                                 "ms-settings:privacy-webcam-extra"])
def test_settings_pages_with_passwords_protections_or_data_still_ask(url):
    a = nav(url)
    assert a.decision is Decision.CONFIRM, (url, a.rules)
    assert "confirm.web.external-handler" in a.rules


def shell(command: str):
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("command", ['Start-Process "ms-settings:nightlight"', "Start-Process ms-settings:sound"])
def test_plain_settings_page_opened_by_a_launcher_passes(command):
    assert shell(command).decision is Decision.ALLOW


def test_protection_settings_page_opened_by_a_launcher_still_asks():
    assert shell('Start-Process "ms-settings:windowsdefender"').decision is Decision.CONFIRM


@pytest.mark.parametrize("command", ["cmd /c start ms-settings:bluetooth", 'start "" ms-settings:mousetouchpad',
                                     "cmd /c start shell:downloads"])
def test_a_page_start_opens_is_not_a_file_stream(command):
    assert "confirm.shell.defense-evasion" not in shell(command).rules, shell(command).rules


@pytest.mark.parametrize("command", ["cmd /c start ms-notes:run.exe", r"type tool.exe > C:\Users\Public\a.log:t.exe"])
def test_a_stream_named_like_a_page_is_still_one(command):
    assert "confirm.shell.defense-evasion" in shell(command).rules, shell(command).rules
