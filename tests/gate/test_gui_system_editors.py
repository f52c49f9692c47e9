"""The system-wide editors: the hosts file, the environment variables and the settings pages that own the machine's
accounts and recovery (gate/rules/gui_system_editors.py)."""

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def clicked(label: str, title: str = "", app: str = "", url: str = "") -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}}),
                    Observation(window_title=title, app=app, url=url))
    return a.decision.value, a.rules


def typed(text: str, field: str, title: str, app: str = "") -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": field}}),
                    Observation(window_title=title, app=app))
    return a.decision.value, a.rules


@pytest.mark.parametrize("line", ["127.0.0.1 update.symantec.com", "0.0.0.0 go.microsoft.com",
                                  "0.0.0.0 safebrowsing.googleapis.com"])
def test_protection_update_host_sunk_blocks(line):
    decision, rules = typed(line, "Address", "hosts - Notepad++")
    assert decision == "block" and "block.gui.protection-host-sunk" in rules


def test_ad_host_entry_asks_but_is_not_blocked():
    decision, rules = typed("0.0.0.0 tracker.adnetwork.example", "Hosts", "Hosts File Editor")
    assert decision == "confirm" and "confirm.gui.system-editor-change" in rules
    assert "block.gui.protection-host-sunk" not in rules


def test_hosts_editor_save_asks_and_search_passes():
    assert "confirm.gui.system-editor-change" in clicked("Save", "Hosts File Editor (Administrator)")[1]
    assert "confirm.gui.system-editor-change" not in typed("intranet", "Filter", "Hosts File Editor")[1]


@pytest.mark.parametrize("value", [r"%TEMP%\bin;%PATH%", r"C:\ProgramData\helper;%PATH%",
                                   r"C:\Users\sam\Downloads\tools"])
def test_writable_folder_on_path_blocks(value):
    decision, rules = typed(value, "Path (User)", "Edit environment variable")
    assert decision == "block" and "block.gui.path-hijack" in rules


def test_own_tools_folder_on_path_asks():
    decision, rules = typed(r"D:\dev\sdk\bin", "Path (System)", "Environment Variables")
    assert decision == "confirm" and "block.gui.path-hijack" not in rules


def test_variable_name_typed_passes():
    assert "confirm.gui.system-editor-change" not in typed("JAVA_HOME", "Variable name", "Environment Variables")[1]


@pytest.mark.parametrize(("label", "url"), [("Add a work account", "ms-settings:emailandaccounts"),
                                            ("Turn off", "ms-settings:findmydevice"),
                                            ("Get started", "ms-settings:recovery"),
                                            ("Share my Internet connection", "ms-settings:network-mobilehotspot")])
def test_account_or_recovery_page_change_asks(label, url):
    assert "confirm.gui.account-settings-change" in clicked(label, "Settings", "Settings", url)[1]


@pytest.mark.parametrize(("label", "url"), [("Learn more", "ms-settings:recovery"),
                                            ("Cancel", "ms-settings:workplace"),
                                            ("Night light", "ms-settings:display")])
def test_passive_label_or_plain_page_passes(label, url):
    assert "confirm.gui.account-settings-change" not in clicked(label, "Settings", "Settings", url)[1]
