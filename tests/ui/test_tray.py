"""Tray: rebuilt from the model on aboutToShow, one icon per state, every item goes back to the model."""

from __future__ import annotations

import dataclasses
import time

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from ui.icons import STATES, get_asset, state_icon
from ui.tray import GrantView, RecentDecision, Tray, TraySnapshot


class FakeModel:
    def __init__(self) -> None:
        self.snap = TraySnapshot(state="active", agents=("shopper-bot",), allowed=12, asked=3, blocked=1)
        self.calls: list[tuple] = []

    def snapshot(self) -> TraySnapshot:
        return self.snap

    def __getattr__(self, name: str):
        if name in {"pause", "resume", "kill", "raise_limits", "resume_after_kill", "revoke", "open_viewer",
                    "open_policy", "open_rules", "open_settings", "reload_policy", "about", "quit",
                    "resume_frozen", "end_frozen"}:
            return lambda *args: self.calls.append((name, *args))
        raise AttributeError(name)


def texts(menu: QMenu) -> list[str]:
    return [a.text() for a in menu.actions() if a.text()]  # sections are separators with text


def find(menu: QMenu, prefix: str) -> QAction:
    for a in menu.actions():
        if a.text().startswith(prefix):
            return a
    raise AssertionError(f"no menu item starting with {prefix!r} in {texts(menu)}")


def image_of(state: str):
    return state_icon(state).pixmap(32, 32).toImage()


@pytest.fixture
def tray(qapp):
    model = FakeModel()
    t = Tray(model)
    yield t
    t.hide()


def test_every_state_has_its_own_icon(qapp) -> None:
    images = [image_of(s) for s in STATES]
    assert all(not i.isNull() for i in images)
    assert len({bytes(i.constBits()) for i in images}) == len(STATES)
    assert get_asset("icons/killed.svg").is_file()
    with pytest.raises(FileNotFoundError):
        get_asset("icons/nope.svg")


def test_icon_and_tooltip_follow_the_state(tray) -> None:
    assert tray.icon().pixmap(32, 32).toImage() == image_of("active")
    assert "Agents: shopper-bot" in tray.toolTip()
    assert "12 allowed, 3 asked, 1 blocked" in tray.toolTip()
    for state in ("asking", "paused", "killed", "active"):
        tray.model.snap = dataclasses.replace(tray.model.snap, state=state, reason="hotkey")
        tray.refresh()
        assert tray.icon().pixmap(32, 32).toImage() == image_of(state)
    tray.model.snap = dataclasses.replace(tray.model.snap, state="killed", reason="Ctrl+Alt+Esc pressed")
    tray.refresh()
    assert "stopped (kill switch)" in tray.toolTip() and "Ctrl+Alt+Esc pressed" in tray.toolTip()


def test_menu_is_rebuilt_with_recent_decisions_and_grants(tray) -> None:
    assert "none" in texts(tray.menu)
    now = time.time()
    recent = tuple(RecentDecision(i, now - i, "shopper-bot", f"Click at ({i}, 1) on 'Buy & pay'", "confirm",
                                  "denied" if i % 2 else "executed") for i in range(1, 15))
    grants = (GrantView("g1", "shopper-bot", "Run shell command: make test", 299.0),
              GrantView("g2", "writer", "Type 5 characters into 'Title'", None))
    tray.model.snap = dataclasses.replace(tray.model.snap, recent=recent, grants=grants)
    tray.menu.aboutToShow.emit()

    items = texts(tray.menu)
    assert "Active approvals (2)" in items
    revoke = find(tray.menu, "Revoke: Run shell command: make test")
    assert "4:59 left" in revoke.text()
    assert "this session" in find(tray.menu, "Revoke: Type 5").text()
    revoke.trigger()
    assert tray.model.calls[-1] == ("revoke", "g1")

    sub = find(tray.menu, "Recent decisions").menu()
    assert len(sub.actions()) == 10  # the last ten only
    first = sub.actions()[0]
    assert "Buy && pay" in first.text() and first.text().startswith("✗")
    first.trigger()
    assert tray.model.calls[-1] == ("open_viewer", 1)


def test_menu_actions_follow_the_state(tray) -> None:
    tray.menu.aboutToShow.emit()
    find(tray.menu, "Pause agents").trigger()
    find(tray.menu, "Stop all agents now").trigger()
    assert tray.model.calls == [("pause",), ("kill",)]

    tray.model.snap = dataclasses.replace(tray.model.snap, state="paused")
    tray.menu.aboutToShow.emit()
    assert not any(t.startswith("Pause") for t in texts(tray.menu))
    find(tray.menu, "Resume").trigger()

    tray.model.snap = dataclasses.replace(tray.model.snap, state="killed")
    tray.menu.aboutToShow.emit()
    assert not any(t.startswith("Stop all") for t in texts(tray.menu))
    find(tray.menu, "Resume after kill").trigger()
    for label in ("Open audit log", "Allow rules", "Settings", "Open policy file", "Reload policy", "About",
                  "Quit"):
        find(tray.menu, label).trigger()
    assert tray.model.calls[2:] == [("resume",), ("resume_after_kill",), ("open_viewer", None), ("open_rules",),
                                    ("open_settings",), ("open_policy",), ("reload_policy",), ("about",),
                                    ("quit",)]


def test_apps_frozen_at_a_kill_are_named_with_a_way_to_resume_or_end_them(tray) -> None:
    tray.menu.aboutToShow.emit()
    assert not any("frozen" in t for t in texts(tray.menu))  # none frozen: nothing said
    tray.model.snap = dataclasses.replace(tray.model.snap, state="killed", frozen=("Text Editor", "Firefox"))
    tray.menu.aboutToShow.emit()
    info = find(tray.menu, "2 apps the agent opened are frozen")
    assert info.text() == "2 apps the agent opened are frozen: Text Editor, Firefox" and not info.isEnabled()
    assert "2 apps the agent opened are frozen: Text Editor, Firefox" in tray.toolTip()
    find(tray.menu, "Resume them").trigger()
    find(tray.menu, "End them").trigger()
    assert tray.model.calls == [("resume_frozen",), ("end_frozen",)]
    tray.model.snap = dataclasses.replace(tray.model.snap, frozen=("Text Editor",))
    tray.menu.aboutToShow.emit()
    assert find(tray.menu, "1 app the agent opened is frozen").text().endswith(": Text Editor")
    assert find(tray.menu, "End it").isEnabled()


def test_header_lines_are_not_clickable(tray) -> None:
    tray.menu.aboutToShow.emit()
    assert not find(tray.menu, "deskgate — active").isEnabled()
    assert not find(tray.menu, "Today: 12 allowed").isEnabled()


def test_notifications_for_blocks_and_kill(qtbot, tray) -> None:
    with qtbot.waitSignal(tray.notified) as blocker:
        tray.notify_blocked("shopper-bot", "Run shell command", "recursive delete of /")
    assert blocker.args == ["deskgate blocked shopper-bot", "Run shell command\nrecursive delete of /"]
    tray.model.snap = dataclasses.replace(tray.model.snap, state="killed")
    with qtbot.waitSignal(tray.notified) as blocker:
        tray.notify_killed("hotkey")
    assert blocker.args[0] == "deskgate stopped all agents"
    assert tray.icon().pixmap(32, 32).toImage() == image_of("killed")


def test_the_tray_can_raise_the_running_agents_limits(tray) -> None:
    tray.rebuild_menu()
    find(tray.menu, "Raise limits for the running agents").trigger()
    assert tray.model.calls[-1] == ("raise_limits",)
    tray.model.snap = dataclasses.replace(tray.model.snap, agents=())
    tray.rebuild_menu()
    assert not any(t.startswith("Raise limits") for t in texts(tray.menu))  # nobody running: nothing to raise
