"""Clicks in the system's settings apps that switch a protection or a way into the machine, grant an app a power
over it, and a process's memory dumped from a task manager or a debugger."""

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, title: str, app: str, url: str = ""):
    return GATE.assess(action_from_dict({"type": "click", "x": 10, "y": 10, "target": {"label": label}}),
                       Observation(url=url, window_title=title, app=app))


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Turn On FileVault…", "Privacy & Security", "System Settings"),
    ("Turn On Firewall", "Security & Privacy - Firewall", "System Preferences"),
    ("Firewall", "Firewall", "System Settings"),
    ("Stealth mode", "Firewall Options", "System Settings"),
    ("Block all incoming connections", "Firewall", "System Settings"),
    ("Remote Login", "Sharing", "System Settings"),
    ("Screen Sharing", "General - Sharing", "System Settings"),
    ("Remote Management", "Sharing", "System Preferences"),
    ("Bildschirmfreigabe", "Freigaben", "Systemeinstellungen"),
    ("Activer le mode furtif", "Pare-feu", "Réglages Système"),
    ("Activar el escritorio remoto", "Configuración", "Configuración"),
    ("Turn On…", "Lockdown Mode", "System Settings"),
    ("Open Anyway", "Privacy & Security", "System Settings"),
    ("Anywhere", "Security & Privacy", "System Preferences"),
    ("iTerm", "Privacy & Security - Full Disk Access", "System Settings"),
    ("+", "Screen & System Audio Recording", "System Settings"),
    ("Karabiner-Elements", "Input Monitoring", "System Settings"),
    ("Turn on BitLocker", "BitLocker Drive Encryption", "Control Panel"),
    ("Enable Remote Desktop", "Settings", "Settings"),
    ("Allow remote connections to this computer", "System Properties", "SystemPropertiesRemote.exe"),
    ("Never notify", "User Account Control Settings", "UserAccountControlSettings.exe"),
    ("Memory integrity", "Core isolation", "Windows Security"),
    ("Automatic Screen Lock", "Screen Lock", "Settings"),
    ("Turn on automatic updates", "Software Update", "System Preferences"),
    ("Allow", "Privacy & Security", "System Settings"),  # a blocked system extension let load
    ("Pause for 1 week", "Windows Update", "Settings"),
    ("Automatically log in as", "Users & Groups", "System Settings"),
    ("Developer Mode", "For developers", "Settings"),
])
def test_a_security_setting_changed_asks(label, title, app):
    a = click(label, title, app)
    assert a.decision is not Decision.ALLOW, a.rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Turn off BitLocker", "BitLocker Drive Encryption", "Control Panel"),
    ("Turn off real-time protection", "Virus & threat protection settings", "Windows Security"),
])
def test_a_protection_turned_off_still_blocks(label, title, app):
    assert click(label, title, app).decision is Decision.BLOCK


@pytest.mark.parametrize(("label", "title", "app"), [
    ("FileVault", "Security & Privacy", "System Preferences"),  # the tab that opens its page
    ("Firewall", "Network", "System Settings"),
    ("Options…", "Firewall", "System Settings"),
    ("Firewall Options...", "Security & Privacy - Firewall", "System Preferences"),
    ("Learn More…", "Lockdown Mode", "System Settings"),
    ("Done", "Full Disk Access", "System Settings"),
    ("Cancel", "Sharing", "System Settings"),
    ("Privacy & Security", "System Settings", "System Settings"),
    ("Software Update", "General", "System Settings"),
    ("Screen Lock", "Privacy", "Settings"),
    ("Display", "Settings", "Settings"),
    ("Dark", "Appearance", "System Settings"),
    ("Wallpaper", "System Settings", "System Settings"),
    ("Check for updates", "Windows Update", "Settings"),
    ("Add Account…", "Users & Groups", "System Settings"),
    ("Enable updates", "Preferences", "Sublime Text"),
    ("Updates", "App Store", "App Store"),
    ("Settings", "Visual Studio Code", "Code"),
])
def test_opening_reading_and_leaving_pass(label, title, app):
    a = click(label, title, app)
    assert a.decision is Decision.ALLOW, a.rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Create dump file", "Task Manager - Details - lsass.exe", "Task Manager"),
    ("Create dump file", "Local Security Authority Process - Task Manager", "Task Manager"),
    ("Create dump file", "System Informer - winlogon.exe (612) Properties", "SystemInformer"),
    ("Create Dump > Create Full Dump...", "Process Explorer - lsass.exe:688 Properties", "procexp64.exe"),
    ("Speicherabbilddatei erstellen", "Task-Manager - lsass.exe", "Task-Manager"),
    ("Créer un fichier de vidage", "Gestionnaire des tâches - lsass.exe", "Gestionnaire des tâches"),
    ("Create dump file", "Process Hacker - KeePassXC.exe", "ProcessHacker"),
])
def test_dumping_a_credential_holder_blocks(label, title, app):
    assert click(label, title, app).decision is Decision.BLOCK


@pytest.mark.parametrize(("label", "title", "app"), [
    ("Create dump file", "Task Manager", "Task Manager"),
    ("Create Minidump...", "Process Explorer - notepad.exe:4410 Properties", "procexp64.exe"),
    ("Save Dump As...", "Shop (Debugging) - Microsoft Visual Studio", "devenv.exe"),
    ("创建转储文件", "任务管理器", "任务管理器"),
])
def test_dumping_another_process_asks(label, title, app):
    a = click(label, title, app)
    assert a.decision is Decision.CONFIRM, a.rules


@pytest.mark.parametrize(("label", "title", "app"), [
    ("End task", "Task Manager - Details", "Task Manager"),
    ("Open file location", "Task Manager - Details", "Task Manager"),
    ("Properties", "Process Explorer", "procexp64.exe"),
    ("Dumpster Diving", "Podcasts", "Podcasts"),
])
def test_other_process_menu_items_pass(label, title, app):
    a = click(label, title, app)
    assert a.decision is not Decision.BLOCK and "confirm.gui.process-dump" not in a.rules
