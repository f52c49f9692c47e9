"""Keys judged by what they do where they are pressed (gate/rules/keys.py): another client's spelling of a key is
judged as the key; Shift+Delete in a mail client, closing a window with unsaved changes or answering Don't Save,
force quit and power keys ask. Everyday shortcuts pass. Examples are our own."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation
from gate.rules.keys import respelled

GATE = SafetyGate()


def decide(keys: list[str], window: str = "", app: str = "", url: str = "") -> tuple[str, tuple[str, ...]]:
    got = GATE.assess(action_from_dict({"type": "key", "keys": keys}),
                      Observation(window_title=window, app=app, url=url))
    return got.decision.value, got.rules


@pytest.mark.parametrize(("keys", "plain"), [
    (["Key.shift", "Key.delete"], ["shift", "delete"]), (["<ctrl>+<alt>+t"], ["ctrl", "alt", "t"]),
    (["Shift_L", "Delete"], ["shift", "delete"]), (["Control_R", "Alt_L", "BackSpace"], ["ctrl", "alt", "backspace"]),
    (["VK_DELETE"], ["delete"]), (["{DEL}"], ["del"]), (["⌘", "q"], ["cmd", "q"]), (["Super_L", "r"], ["super", "r"]),
])
def test_other_spellings_of_keys_read_plainly(keys: list[str], plain: list[str]) -> None:
    assert respelled(keys) == plain


@pytest.mark.parametrize("keys", [["Key.shift", "Key.delete"], ["<shift>+<delete>"], ["Shift_L", "Delete"]])
def test_a_respelled_permanent_delete_in_a_file_manager_asks(keys: list[str]) -> None:
    decision, rules = decide(keys, "Pictures - Files", "nautilus")
    assert decision == "confirm" and "confirm.gui.key-respelled" in rules
    assert decide(keys, "notes.txt - gedit", "gedit")[0] == "allow"  # cuts a line in an editor


def test_a_respelled_session_key_and_dialog_answer_ask_and_plain_copies_pass() -> None:
    assert decide(["Control_L", "Alt_L", "Delete"])[0] == "confirm"
    assert decide(["Key.enter"], "Permanently erase 12 items?")[0] == "confirm"
    assert decide(["Key.ctrl", "c"], "report.odt - LibreOffice Writer")[0] == "allow"
    assert decide(["Key.enter"], "Find and Replace")[0] == "allow"


@pytest.mark.parametrize(("window", "app", "url"), [
    ("Inbox - ana@example.org - Outlook", "OUTLOOK.EXE", ""), ("Inbox - Thunderbird", "thunderbird", ""),
    ("Posteingang - Evolution", "evolution", ""), ("Mail - Ana Silva - Outlook", "msedge", "https://outlook.office.com/mail/"),
])
def test_shift_delete_in_mail_deletes_for_good(window: str, app: str, url: str) -> None:
    decision, rules = decide(["shift", "delete"], window, app, url)
    assert decision == "confirm" and "confirm.gui.mail-permanent-delete-key" in rules
    assert decide(["delete"], window, app, url)[0] == "allow"  # to the trash


@pytest.mark.parametrize(("keys", "window"), [
    (["alt", "f4"], "*quarterly.docx - Word"), (["cmd", "q"], "budget.numbers — Edited"),
    (["ctrl", "w"], "● app.ts - shop - Visual Studio Code"), (["ctrl", "q"], "*draft.md - gedit"),
    (["alt", "f4"], "Zeichnung.odg (geändert) - LibreOffice Draw"), (["ctrl", "shift", "w"], "notes [Modified]"),
])
def test_closing_unsaved_work_asks(keys: list[str], window: str) -> None:
    decision, rules = decide(keys, window)
    assert decision == "confirm" and "confirm.gui.close-unsaved-key" in rules


@pytest.mark.parametrize(("keys", "window"), [
    (["alt", "f4"], "quarterly.docx - Word"), (["cmd", "q"], "budget.numbers"), (["ctrl", "w"], "Rust - Firefox"),
    (["alt", "f4"], "Calculator"), (["ctrl", "s"], "*quarterly.docx - Word"), (["ctrl", "z"], "*draft.md - gedit"),
])
def test_closing_saved_work_or_saving_passes(keys: list[str], window: str) -> None:
    assert decide(keys, window)[0] == "allow"


@pytest.mark.parametrize("window", ["Do you want to save changes to plan.xlsx?",
                                    "Save changes to document \"Brief\" before closing?",
                                    "Möchten Sie die Änderungen speichern?"])
def test_dont_save_loses_the_changes_and_save_does_not(window: str) -> None:
    assert decide(["alt", "n"], window)[0] == "confirm"
    assert decide(["cmd", "d"], window)[0] == "confirm"
    assert decide(["enter"], window)[0] == "allow"
    assert decide(["esc"], window)[0] == "allow"


@pytest.mark.parametrize("keys", [["cmd", "option", "shift", "esc"], ["XF86PowerOff"], ["XF86LogOff"]])
def test_force_quit_and_power_keys_ask(keys: list[str]) -> None:
    assert decide(keys)[0] == "confirm"


def test_the_force_quit_window_only_opens() -> None:
    # Cmd+Option+Esc shows the list of programs; quitting one is the click on "Force Quit" that follows
    assert decide(["cmd", "option", "esc"])[0] == "allow"


def test_alt_f4_on_the_windows_desktop_opens_shut_down() -> None:
    assert decide(["alt", "f4"], "Program Manager", "explorer.exe")[0] == "confirm"
    assert decide(["alt", "f4"], "Downloads - File Explorer", "explorer.exe")[0] == "allow"


@pytest.mark.parametrize("keys", [["ctrl", "c"], ["ctrl", "v"], ["tab"], ["f5"], ["ctrl", "t"], ["ctrl", "l"],
                                  ["alt", "tab"], ["down"], ["enter"], ["esc"], ["ctrl", "shift", "t"]])
def test_everyday_keys_in_a_browser_pass(keys: list[str]) -> None:
    assert decide(keys, "Weather - Mozilla Firefox", "firefox", "https://weather.example.org/")[0] == "allow"


@pytest.mark.parametrize(("keys", "window", "app"), [
    (["ctrl+a", "delete"], "Projects - File Explorer", "explorer.exe"), (["ctrl+a shift+delete"], "Home", "nautilus"),
    (["cmd+a", "cmd+backspace"], "Downloads", "Finder"), (["ctrl+a", "delete"], "Inbox - Thunderbird", "thunderbird"),
])
def test_select_all_then_delete_in_a_folder_or_a_mailbox_asks(keys: list[str], window: str, app: str) -> None:
    decision, rules = decide(keys, window, app)
    assert decision == "confirm" and "confirm.gui.select-all-delete-key" in rules


@pytest.mark.parametrize(("keys", "window", "app"), [
    (["ctrl+a", "backspace"], "Search - Firefox", "firefox"), (["ctrl+a", "delete"], "notes.txt - gedit", "gedit"),
    (["ctrl", "a"], "Home", "nautilus"), (["ctrl", "+"], "Home", "nautilus"),
])
def test_clearing_a_field_or_selecting_alone_passes(keys: list[str], window: str, app: str) -> None:
    assert decide(keys, window, app)[0] == "allow"
