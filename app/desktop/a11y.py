"""What the accessibility tree says is at a screen point, or has the keyboard focus (AT-SPI over D-Bus).

Toolkits that expose accessibility on Linux (Qt with accessibility on, GTK, Firefox, Chromium) register
with the AT-SPI registry on a dedicated accessibility bus, whose address the session bus hands out
(`org.a11y.Bus.GetAddress`). deskgate talks to it with jeepney (pure-Python D-Bus, blocking calls with a
timeout), so there is no GObject or libatspi in the process.

Finding the element at a point: the X window under the point gives a process id (`pid_hint`); the
registry's applications are matched to it by their bus connection's pid; the app's frame that contains
the point is asked `Component.GetAccessibleAtPoint` (screen coordinates), again on each child, down to the
leaf. Its `Name` and role name are the answer. Without a pid hint, every application's frames are tried.

Finding the focused field: the active application's frames are walked breadth-first for an object with
the FOCUSED state, bounded by `FOCUS_WALK_LIMIT` objects (a browser page can hold thousands).

Every failure (no session bus, no registry, a call that times out, an app that went away) is an
`A11yUnavailable` or a None answer: the caller falls back to text recognition or to what the agent said.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass

__all__ = ["A11yReader", "A11yUnavailable", "Element"]

log = logging.getLogger(__name__)

CALL_TIMEOUT_S = 0.25          # one D-Bus round trip; an app that hangs must not hold an action for long
MAX_DEPTH = 32                 # GetAccessibleAtPoint steps from a frame to a leaf
FOCUS_WALK_LIMIT = 400         # objects visited looking for the focused one
_STATE_FOCUSED = 12            # ATSPI_STATE_FOCUSED: a bit in the first word of GetState
_COORD_SCREEN = 0
_ROOT = "/org/a11y/atspi/accessible/root"
_NULL = "/org/a11y/atspi/null"
_ACCESSIBLE = "org.a11y.atspi.Accessible"
_TEXT = "org.a11y.atspi.Text"
TEXT_TAIL = 4000  # characters of a terminal's text read from its end, for the prompt line
_COMPONENT = "org.a11y.atspi.Component"


class A11yUnavailable(RuntimeError):
    """No accessibility bus or registry to talk to."""


@dataclass(frozen=True, slots=True)
class Element:
    name: str
    role: str
    description: str = ""
    # screen extents (x, y, w, h), where the app gives them: the preview outlines the element, and text
    # recognition crops to an unnamed one (app/desktop/ocr.py)
    box: tuple[int, int, int, int] | None = None
    line: str | None = None  # a focused terminal's last non-empty line of text (its prompt line), where readable


class A11yReader:
    """One connection to the accessibility bus, opened on first use and reopened after a failure.

    Thread-safe: one call at a time (the supervisor reads for one action at a time anyway)."""

    def __init__(self, session_bus: str | None = None, *, timeout: float = CALL_TIMEOUT_S) -> None:
        self._session_bus = session_bus
        self.timeout = timeout
        self._conn = None
        self._lock = threading.Lock()
        self._apps: dict[int, list[str]] = {}  # pid → bus names of its accessible applications
        self._listed: tuple[str, ...] = ()     # the registry's applications when _apps was built

    # -- connection -----------------------------------------------------------------------------

    def _address(self) -> str:
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection

        bus = self._session_bus if self._session_bus is not None else os.environ.get("DBUS_SESSION_BUS_ADDRESS")
        if not bus:
            raise A11yUnavailable("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
        try:
            with open_dbus_connection(bus=bus, auth_timeout=self.timeout) as session:
                msg = new_method_call(DBusAddress("/org/a11y/bus", bus_name="org.a11y.Bus", interface="org.a11y.Bus"),
                                      "GetAddress")
                reply = session.send_and_get_reply(msg, timeout=self.timeout)
        except Exception as err:
            raise A11yUnavailable(f"the session bus has no accessibility bus ({err})") from None
        if reply.header.message_type.name == "error":
            raise A11yUnavailable(f"no accessibility bus on the session bus ({reply.body})")
        return str(reply.body[0])

    def _connection(self):
        if self._conn is None:
            from jeepney.io.blocking import open_dbus_connection

            address = self._address()
            try:
                self._conn = open_dbus_connection(bus=address, auth_timeout=self.timeout)
            except Exception as err:
                raise A11yUnavailable(f"cannot connect to the accessibility bus ({err})") from None
        return self._conn

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:
                pass
        self._conn = None
        self._apps.clear()
        self._listed = ()

    def close(self) -> None:
        with self._lock:
            self._drop()

    def _call(self, bus_name: str, path: str, interface: str, method: str, signature: str | None = None,
              body: tuple = ()) -> tuple:
        from jeepney import DBusAddress, MessageType, new_method_call

        msg = new_method_call(DBusAddress(path, bus_name=bus_name, interface=interface), method, signature, body)
        reply = self._connection().send_and_get_reply(msg, timeout=self.timeout)
        if reply.header.message_type is MessageType.error:
            raise LookupError(f"{interface}.{method} on {bus_name}{path}: {reply.body}")
        return reply.body

    def _prop(self, bus_name: str, path: str, interface: str, name: str):
        body = self._call(bus_name, path, "org.freedesktop.DBus.Properties", "Get", "ss", (interface, name))
        return body[0][1]  # a variant: (signature, value)

    # -- the registry -------------------------------------------------------------------------------

    def _applications(self) -> list[str]:
        children = self._call("org.a11y.atspi.Registry", _ROOT, _ACCESSIBLE, "GetChildren")[0]
        return [bus for bus, _path in children]

    def _pid_of(self, bus_name: str) -> int:
        return int(self._call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "GetConnectionUnixProcessID", "s", (bus_name,))[0])

    def _apps_for(self, pid: int | None) -> list[str]:
        if pid:
            known = self._apps.get(pid)
            if known:
                return known
        apps = self._applications()
        if not pid:
            return apps
        if tuple(apps) == self._listed:
            return self._apps.get(pid, [])  # same applications as last time: this pid has none
        self._listed = tuple(apps)
        self._apps.clear()
        for bus in apps:
            try:
                self._apps.setdefault(self._pid_of(bus), []).append(bus)
            except LookupError:
                continue  # the app left the bus meanwhile
        return self._apps.get(pid, [])

    def _frames(self, bus: str) -> list[tuple[str, str]]:
        return [(b, p) for b, p in self._call(bus, _ROOT, _ACCESSIBLE, "GetChildren")[0] if p != _NULL]

    def _element(self, bus: str, path: str) -> Element:
        name = str(self._prop(bus, path, _ACCESSIBLE, "Name") or "")
        role = str(self._call(bus, path, _ACCESSIBLE, "GetRoleName")[0] or "")
        return Element(name=name, role=role)

    # -- questions ----------------------------------------------------------------------------------

    def at_point(self, x: int, y: int, pid_hint: int | None = None) -> Element | None:
        """The deepest accessible object at screen point (x, y); None when no application exposes one there.

        Raises A11yUnavailable when there is no accessibility bus at all."""
        with self._lock:
            try:
                return self._at_point(x, y, pid_hint)
            except A11yUnavailable:
                self._drop()
                raise
            except Exception as err:  # a timeout, a closed connection, an app that went away mid-walk
                log.info("accessibility read at (%d, %d) failed: %s", x, y, err)
                self._drop()
                return None

    def _at_point(self, x: int, y: int, pid_hint: int | None) -> Element | None:
        for bus in self._apps_for(pid_hint):
            for fbus, fpath in self._frames(bus):
                ex, ey, ew, eh = self._call(fbus, fpath, _COMPONENT, "GetExtents", "u", (_COORD_SCREEN,))[0]
                if not (ex <= x < ex + ew and ey <= y < ey + eh):
                    continue
                node = (fbus, fpath)
                for _ in range(MAX_DEPTH):
                    child = self._call(node[0], node[1], _COMPONENT, "GetAccessibleAtPoint", "iiu",
                                       (x, y, _COORD_SCREEN))[0]
                    if not child or child[1] == _NULL or tuple(child) == node:
                        break
                    node = (child[0], child[1])
                if node == (fbus, fpath):
                    continue  # the frame itself: nothing named under the point
                el = self._element(*node)
                try:
                    bx, by, bw, bh = self._call(node[0], node[1], _COMPONENT, "GetExtents", "u", (_COORD_SCREEN,))[0]
                except LookupError:
                    return el  # no extents: the preview marks the point instead of outlining the element
                if bw > 0 and bh > 0:
                    return Element(el.name, el.role, el.description, (int(bx), int(by), int(bw), int(bh)))
                return el
        return None

    def focused(self, pid_hint: int | None = None) -> Element | None:
        """The object with keyboard focus in the application of `pid_hint` (or any application)."""
        with self._lock:
            try:
                return self._focused(pid_hint)
            except A11yUnavailable:
                self._drop()
                raise
            except Exception as err:
                log.info("accessibility focus read failed: %s", err)
                self._drop()
                return None

    def _focused(self, pid_hint: int | None) -> Element | None:
        seen = 0
        for bus in self._apps_for(pid_hint):
            queue = self._frames(bus)
            while queue and seen < FOCUS_WALK_LIMIT:
                node = queue.pop(0)
                seen += 1
                state = self._call(node[0], node[1], _ACCESSIBLE, "GetState")[0]
                if state and state[0] & (1 << _STATE_FOCUSED):
                    el = self._element(*node)
                    if el.role == "terminal":  # VTE, Konsole: the text interface holds what the screen shows
                        line = self._last_line(*node)
                        if line is not None:
                            return Element(el.name, el.role, el.description, el.box, line)
                    return el
                queue.extend((b, p) for b, p in self._call(node[0], node[1], _ACCESSIBLE, "GetChildren")[0]
                             if p != _NULL)
        return None

    def _last_line(self, bus: str, path: str) -> str | None:
        """The last non-empty line of an object's text (org.a11y.atspi.Text); None when it has none."""
        try:
            count = int(self._prop(bus, path, _TEXT, "CharacterCount"))
            text = str(self._call(bus, path, _TEXT, "GetText", "ii", (max(0, count - TEXT_TAIL), count))[0])
        except (LookupError, TypeError, ValueError):
            return None
        lines = [ln for ln in text.splitlines() if ln.strip()]
        return lines[-1].rstrip() if lines else ""

    def probe(self) -> int:
        """How many applications the registry lists. Raises A11yUnavailable (or a D-Bus error) when it cannot."""
        with self._lock:
            try:
                return len(self._applications())
            except Exception:
                self._drop()
                raise
