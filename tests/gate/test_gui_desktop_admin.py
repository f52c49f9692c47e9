"""A Linux desktop's administration windows read with their labels: a sandboxed app's permissions editor, the
firewall's, the snapshot tool's, the updater's and the screen lock's windows (gate/rules/gui_desktop_admin.py)."""

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Observation

GATE = SafetyGate()


def clicked(label: str, title: str, app: str = "") -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "click", "x": 5, "y": 5, "target": {"label": label}}),
                    Observation(window_title=title, app=app))
    return a.decision.value, a.rules


def typed(text: str, field: str, title: str, app: str = "") -> tuple[str, tuple[str, ...]]:
    a = GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": field}}),
                    Observation(window_title=title, app=app))
    return a.decision.value, a.rules


@pytest.mark.parametrize(("label", "title"), [
    ("org.freedesktop.Flatpak", "Flatseal"),
    ("host", "Flatpak Permissions — System Settings"),
])
def test_sandbox_escape_toggle_blocks(label, title):
    assert "block.gui.sandbox-escape" in clicked(label, title)[1]


@pytest.mark.parametrize(("text", "field"), [
    ("~/.gnupg", "Other files"),
    ("~/.config/autostart:create", "Other files"),
    ("LD_PRELOAD=/var/tmp/libx.so", "Environment"),
])
def test_sandbox_secret_or_loader_typed_blocks(text, field):
    assert "block.gui.sandbox-escape" in typed(text, field, "Flatseal")[1]


@pytest.mark.parametrize(("label", "title"), [
    ("All user files", "Flatseal"),
    ("D-Bus session bus", "Flatseal"),
    ("GPG agent", "Flatseal"),
    ("All devices", "Flatpak Permissions — System Settings"),
])
def test_sandbox_grant_toggle_asks(label, title):
    decision, rules = clicked(label, title)
    assert decision == "confirm" and "confirm.gui.sandbox-widened" in rules


def test_sandbox_bus_name_typed_asks():
    assert "confirm.gui.sandbox-widened" in typed("org.kde.kwalletd6", "Talks", "Flatseal")[1]


@pytest.mark.parametrize(("label", "title", "kind"), [
    ("Input devices", "Flatseal", "click"),
    ("Printing system", "Flatseal", "click"),
    ("All user files", "Files — Documents", "click"),
    ("~/Music:ro", "Flatseal", "type"),
    ("GTK_THEME=Adwaita-dark", "Flatseal", "type"),
])
def test_sandbox_near_misses_pass(label, title, kind):
    decision, rules = clicked(label, title) if kind == "click" else typed(label, "Other files", title)
    assert not any("sandbox" in r for r in rules), rules


@pytest.mark.parametrize(("label", "title"), [
    ("Set default zone", "firewall-config"),
    ("Port Forwarding", "Firewall - Zones"),
    ("Restore", "Timeshift"),
    ("Rollback", "Btrfs Assistant"),
    ("Ignore all future updates", "Update Manager"),
    ("Automatic screen lock", "Screen Lock — Settings"),
])
def test_admin_tool_change_asks(label, title):
    assert "confirm.gui.admin-tool-change" in clicked(label, title)[1]


@pytest.mark.parametrize(("label", "title"), [
    ("Create", "Timeshift"),
    ("Browse", "Timeshift"),
    ("Refresh", "Update Manager"),
    ("Restore", "Trash — Files"),
    ("Set default zone", "Notes"),
])
def test_admin_tool_near_misses_pass(label, title):
    assert "confirm.gui.admin-tool-change" not in clicked(label, title)[1]
