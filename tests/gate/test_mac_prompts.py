"""A Mac's security prompts read with who drew them (gate/rules/mac_prompts.py): Gatekeeper's refusals, password
prompts drawn by scripts, keychain and privacy grants, Keychain Access, the software stores; and the Finder, Dock
and shortcut neighbours that pass. Our own examples, written from Apple's user guide and the tools' manuals."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, title: str = "", app: str = "", url: str = ""):
    data: dict = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(window_title=title, app=app, url=url))


def typed(text: str, field: str, title: str = "", app: str = ""):
    data = {"type": "type", "text": text, "target": {"label": field}}
    return GATE.assess(action_from_dict(data), Observation(window_title=title, app=app))


def key(combo: str, app: str = "", title: str = ""):
    return GATE.assess(action_from_dict({"type": "key", "keys": combo.split("+")}),
                       Observation(window_title=title, app=app))


# ---- Gatekeeper ----

@pytest.mark.parametrize(("label", "title", "app"), [
    ("Open Anyway", "Privacy & Security", "System Settings"),
    ("Trotzdem öffnen", "Datenschutz & Sicherheit", "Systemeinstellungen"),
    ("Ouvrir quand même", "Confidentialité et sécurité", "Réglages Système"),
    ("このまま開く", "プライバシーとセキュリティ", "システム設定"),
    ("Open", "“PhotoTool” Not Opened", "CoreServicesUIAgent"),
    ("Open", "“Setup” can’t be opened because it is from an unidentified developer.", "CoreServicesUIAgent"),
    ("Open", "macOS cannot verify the developer of “Viewer”. Are you sure you want to open it?",
     "CoreServicesUIAgent"),
    ("Abrir", "No se puede verificar al desarrollador de «Visor»", "CoreServicesUIAgent"),
])
def test_gatekeeper_override_blocks(label, title, app):
    a = click(label, title, app)
    assert a.decision is Decision.BLOCK
    assert "block.gui.gatekeeper-override" in a.rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Move to Trash", "“PhotoTool” Not Opened", "CoreServicesUIAgent"),
    ("Done", "“PhotoTool” Not Opened", "CoreServicesUIAgent"),
    ("Open", "“Inkwell” is an app downloaded from the Internet. Are you sure you want to open it?",
     "CoreServicesUIAgent"),
    ("Privacy & Security", "System Settings", "System Settings"),
    ("Open", "Documents", "Finder"),
    ("Open anyway", "Download warning", "Firefox"),
])
def test_gatekeeper_neighbours_pass(label, title, app):
    assert "block.gui.gatekeeper-override" not in click(label, title, app).rules


# ---- password prompts drawn by scripts or apps ----

@pytest.mark.parametrize(("title", "app"), [
    ("Software Update needs your password to continue", "osascript"),
    ("Account verification", "Dialog"),
    ("Helper is trying to install new software.", "Helper"),
    ("System Preferences wants to make changes.", "Updater"),
])
def test_password_into_a_drawn_prompt_blocks(title, app):
    a = typed("Tr0ub4dor&3", "Password", title, app)
    assert a.decision is Decision.BLOCK
    assert "block.gui.imitated-password-prompt" in a.rules


def test_the_systems_own_prompt_is_not_an_imitation():
    a = typed("Tr0ub4dor&3", "Password", "Installer wants to make changes.", "SecurityAgent")
    assert "block.gui.imitated-password-prompt" not in a.rules
    assert a.decision is Decision.CONFIRM


def test_a_script_dialogs_plain_field_passes():
    a = typed("LAPTOP-2231", "Computer name", "Enrolment", "Dialog")
    assert "block.gui.imitated-password-prompt" not in a.rules


def test_sending_a_drawn_password_prompt_on_blocks_and_cancel_passes():
    title = "Your disk needs repair. Enter the password for the user account to continue:"
    assert "block.gui.imitated-password-prompt" in click("OK", title, "osascript").rules
    assert "block.gui.imitated-password-prompt" in click("Install Software", "Helper is trying to install new "
                                                        "software.", "Helper").rules
    assert "block.gui.imitated-password-prompt" not in click("Cancel", title, "osascript").rules
    assert "block.gui.imitated-password-prompt" not in click("Continue", "Welcome", "Dialog").rules


# ---- keychain and privacy grants ----

@pytest.mark.parametrize(("label", "title", "app"), [
    ("Always Allow", "python3 wants to use your confidential information stored in “Brave Safe Storage” in your "
                     "keychain.", "SecurityAgent"),
    ("Allow", "“osascript” wants access to control “System Events”.", "UserNotificationCenter"),
    ("OK", "“bash” would like to access files in your Desktop folder.", "UserNotificationCenter"),
    ("Allow in the Background", "Background Items Added: “com.apple.mdworker.shared” can run in the background.",
     "UserNotificationCenter"),
])
def test_grant_to_a_script_blocks(label, title, app):
    a = click(label, title, app)
    assert a.decision is Decision.BLOCK
    assert "block.gui.grant-to-script" in a.rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Deny", "python3 wants to use your confidential information stored in “login” in your keychain.",
     "SecurityAgent"),
    ("Don’t Allow", "“osascript” wants access to control “Finder”.", "UserNotificationCenter"),
    ("Allow", "“Zoom” would like to record this computer’s screen.", "UserNotificationCenter"),
    ("Allow in the Background", "Background Items Added: “Dropbox” can run in the background.",
     "UserNotificationCenter"),
])
def test_grant_neighbours_pass(label, title, app):
    assert "block.gui.grant-to-script" not in click(label, title, app).rules


# ---- Keychain Access and Passwords ----

@pytest.mark.parametrize(("label", "app"), [
    ("Show password", "Keychain Access"), ("Export Items…", "Keychain Access"),
    ("Copy Password to Clipboard", "Keychain Access"), ("Export All Passwords", "Passwords"),
    ("Passwort einblenden", "Schlüsselbundverwaltung"),
])
def test_keychain_reveal_blocks(label, app):
    a = click(label, "login", app)
    assert a.decision is Decision.BLOCK
    assert "block.gui.keychain-reveal" in a.rules


@pytest.mark.parametrize(("label", "app", "url"), [
    ("Certificates", "Keychain Access", ""), ("My Certificates", "Keychain Access", ""),
    ("Show password", "Safari", "https://accounts.example.com/login"),
])
def test_keychain_neighbours_pass(label, app, url):
    assert "block.gui.keychain-reveal" not in click(label, "login", app, url).rules


# ---- software stores ----

@pytest.mark.parametrize(("label", "app"), [
    ("Get", "App Store"), ("Update All", "App Store"), ("Sign Out", "App Store"),
    ("Install", "Self Service"), ("Update", "Managed Software Centre"), ("Upgrade Now", "Nudge"),
    ("Remove", "Company Portal"),
])
def test_software_store_commit_asks(label, app):
    a = click(label, "Apps", app)
    assert a.decision is not Decision.ALLOW
    assert "confirm.gui.software-store" in a.rules


@pytest.mark.parametrize(("label", "app"), [
    ("Check Again", "Managed Software Center"), ("Later", "Nudge"), ("More Info", "Nudge"),
    ("Categories", "App Store"), ("Get", "Preview"),
])
def test_software_store_neighbours_pass(label, app):
    assert "confirm.gui.software-store" not in click(label, "Apps", app).rules


# ---- shortcuts and the Dock ----

def test_force_quit_window_opens_and_the_shifted_combo_still_asks():
    assert key("cmd+option+esc").decision is Decision.ALLOW
    assert key("cmd+option+shift+esc").decision is not Decision.ALLOW


def test_removing_a_dock_shortcut_passes():
    assert click("Remove from Dock", "Dock", "Dock").decision is Decision.ALLOW
    assert click("Unpin from taskbar", "Taskbar", "explorer.exe").decision is Decision.ALLOW


# ---- the Mac's own stores read as files ----

@pytest.mark.parametrize("path", [
    "~/Library/Group Containers/group.com.apple.notes/NoteStore.sqlite",
    "~/Library/Application Support/AddressBook/AddressBook-v22.abcddb",
])
def test_personal_store_read_asks(path):
    a = GATE.assess(action_from_dict({"type": "file_read", "path": path}), Observation())
    assert a.decision is not Decision.ALLOW


def test_recovery_key_file_read_blocks_and_a_guide_passes():
    a = GATE.assess(action_from_dict({"type": "file_read", "path": "~/Desktop/FileVault Recovery Key.txt"}),
                    Observation())
    assert a.decision is Decision.BLOCK
    b = GATE.assess(action_from_dict({"type": "file_read", "path": "~/deskgate-work/notes/filevault-howto.md"}),
                    Observation())
    assert b.decision is Decision.ALLOW


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Force Quit", "Force Quit Applications", "loginwindow"), ("End task", "Task Manager", "Taskmgr.exe"),
    ("Kill Process", "Processes", "gnome-system-monitor"),
])
def test_ending_a_program_from_a_process_manager_asks(label, title, app):
    assert "confirm.gui.force-quit" in click(label, title, app).rules


def test_end_task_in_a_todo_list_and_choosing_a_program_pass():
    assert "confirm.gui.force-quit" not in click("End task", "Sprint board", "Tasks").rules
    assert click("Preview", "Force Quit Applications", "loginwindow").decision is Decision.ALLOW


@pytest.mark.parametrize(("title", "app"), [("Downloads", "Finder"), ("PhotoTool Installer", "Finder"),
                                            ("Téléchargements", "Finder"), ("Downloads", "nautilus")])
def test_opening_a_download_from_the_file_manager_asks(title, app):
    assert "confirm.gui.downloaded-open" in click("Open", title, app).rules


def test_opening_in_documents_or_getting_info_passes():
    assert "confirm.gui.downloaded-open" not in click("Open", "Documents", "Finder").rules
    assert "confirm.gui.downloaded-open" not in click("Get Info", "Downloads", "Finder").rules


def test_a_page_drawn_as_the_systems_prompt_blocks_and_a_sign_in_page_does_not():
    page = {"type": "type", "text": "Tr0ub4dor&3", "target": {"label": "Password"}}
    fake = GATE.assess(action_from_dict(page), Observation(window_title="macOS wants to make changes. - Safari",
                                                            app="Safari", url="https://update.example.net/"))
    assert "block.gui.imitated-password-prompt" in fake.rules
    real = GATE.assess(action_from_dict(page), Observation(window_title="Sign in - Example Mail", app="Safari",
                                                            url="https://mail.example.com/login"))
    assert "block.gui.imitated-password-prompt" not in real.rules
