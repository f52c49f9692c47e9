"""Linux system actions (`system` action type): what command carries each one out.

`plan_system(name, params, ...)` is pure apart from looking tools up on PATH: it validates the params and
picks the first available tool for the job, or says why it cannot (`unsupported` when no tool is
installed or the name is not something deskgate does; `bad_request` for bad params). The executor runs
the chosen argv with a timeout, outside the fence: these talk to the session's sound server, logind or
NetworkManager on purpose.

Params (all optional unless said; unknown params are refused):
  volume      level 0..100 (percent) | change -100..100 (relative)          pactl, amixer
  mute        state "on" | "off" | "toggle" (default toggle)                 pactl, amixer
  unmute      —                                                              pactl, amixer
  brightness  level 1..100 | change -100..100                                brightnessctl
  lock        —                                                              loginctl (systemd), xdg-screensaver
  sleep, suspend, hibernate  —                                               systemctl (systemd)
  wifi, bluetooth  state "on" | "off" (required)                             nmcli / rfkill, bluetoothctl / rfkill
  shutdown, restart  delay_s 0.. (default 0), capped at the policy's          shutdown / systemctl (systemd)
              `system.max_delay_s`: a delayed power-off never fires later than that
Anything else (install_software, format_disk, ...) is `unsupported`: deskgate does not do it.
"""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.errors import DeskgateError

__all__ = ["PACKAGES", "READINESS", "SystemCommand", "plan_system", "systemd_running"]

# For `deskgate doctor`: one sample per family of simple commands, the tools plan_system may pick for it
# (tests/app/test_doctor.py checks these against plan_system), and the Debian package of each tool.
READINESS: tuple[tuple[str, dict[str, Any], str, tuple[str, ...]], ...] = (
    ("volume", {"level": 50}, "volume, mute", ("pactl", "amixer")),
    ("brightness", {"level": 50}, "brightness", ("brightnessctl",)),
    ("lock", {}, "lock", ("loginctl", "xdg-screensaver")),
    ("sleep", {}, "sleep, suspend, hibernate", ("systemctl",)),
    ("shutdown", {}, "shutdown, restart", ("systemctl",)),
    ("wifi", {"state": "on"}, "wifi", ("nmcli", "rfkill")),
    ("bluetooth", {"state": "on"}, "bluetooth", ("bluetoothctl", "rfkill")),
)
PACKAGES = {"pactl": "pulseaudio-utils", "amixer": "alsa-utils", "brightnessctl": "brightnessctl",
            "loginctl": "systemd", "systemctl": "systemd", "xdg-screensaver": "xdg-utils",
            "nmcli": "network-manager", "rfkill": "rfkill", "bluetoothctl": "bluez"}

Which = Callable[[str], str | None]


@dataclass(frozen=True)
class SystemCommand:
    argv: tuple[str, ...]
    summary: str
    detail: dict[str, Any] = field(default_factory=dict)


def systemd_running() -> bool:
    """sd_booted(): systemd is PID 1 (loginctl / systemctl have someone to talk to)."""
    return os.path.isdir("/run/systemd/system")


def _params(name: str, params: dict[str, Any] | None, allowed: set[str]) -> dict[str, Any]:
    params = dict(params or {})
    unknown = sorted(set(params) - allowed)
    if unknown:
        hint = f" (known: {', '.join(sorted(allowed))})" if allowed else " (it takes none)"
        raise DeskgateError("bad_request", f"system {name!r}: unknown param(s) {', '.join(unknown)}{hint}")
    return params


def _int(name: str, key: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise DeskgateError("bad_request", f"system {name!r}: `{key}` must be a number")
    if value != int(value) or not lo <= value <= hi:
        raise DeskgateError("bad_request", f"system {name!r}: `{key}` must be a whole number in {lo}..{hi}")
    return int(value)


def _state(name: str, params: dict[str, Any], choices: tuple[str, ...], default: str | None) -> str:
    value = params.get("state", default)
    if value is None:
        raise DeskgateError("bad_request", f"system {name!r}: `state` is required ({' | '.join(choices)})")
    if isinstance(value, bool):
        value = "on" if value else "off"
    if value not in choices:
        raise DeskgateError("bad_request", f"system {name!r}: `state` must be one of {', '.join(choices)}")
    return value


def _level_or_change(name: str, params: dict[str, Any], lo: int) -> tuple[str, int]:
    if ("level" in params) == ("change" in params):
        raise DeskgateError("bad_request", f"system {name!r}: give exactly one of `level` or `change`")
    if "level" in params:
        return "level", _int(name, "level", params["level"], lo, 100)
    return "change", _int(name, "change", params["change"], -100, 100)


def _first(name: str, options: list[tuple[str, Callable[[str], tuple[str, ...]]]], which: Which,
           needs: str) -> tuple[str, ...]:
    """The argv of the first option whose tool is installed; `unsupported` naming what to install."""
    for tool, build in options:
        path = which(tool)
        if path:
            return build(path)
    raise DeskgateError("unsupported", f"system {name!r} needs {needs}, and none is installed")


def plan_system(name: str, params: dict[str, Any] | None, *, max_delay_s: int,
                which: Which = shutil.which, systemd: bool | None = None) -> SystemCommand:
    """The command that performs system action `name`. Raises DeskgateError (unsupported / bad_request)."""
    booted = systemd_running() if systemd is None else systemd

    def sd_which(tool: str) -> str | None:  # systemd tools only help when systemd runs the machine
        return which(tool) if booted else None

    if name == "volume":
        kind, n = _level_or_change(name, _params(name, params, {"level", "change"}), 0)
        pa = f"{n}%" if kind == "level" else f"{n:+d}%"
        al = f"{n}%" if kind == "level" else f"{abs(n)}%{'+' if n >= 0 else '-'}"
        argv = _first(name, [
            ("pactl", lambda p: (p, "set-sink-volume", "@DEFAULT_SINK@", pa)),
            ("amixer", lambda p: (p, "-q", "sset", "Master", al)),
        ], which, "pactl (PulseAudio/PipeWire) or amixer (ALSA)")
        return SystemCommand(argv, f"volume {pa}", {kind: n})
    if name in ("mute", "unmute"):
        p = _params(name, params, {"state"} if name == "mute" else set())
        state = "off" if name == "unmute" else _state(name, p, ("on", "off", "toggle"), "toggle")
        pa = {"on": "1", "off": "0", "toggle": "toggle"}[state]
        al = {"on": "mute", "off": "unmute", "toggle": "toggle"}[state]
        argv = _first(name, [
            ("pactl", lambda path: (path, "set-sink-mute", "@DEFAULT_SINK@", pa)),
            ("amixer", lambda path: (path, "-q", "sset", "Master", al)),
        ], which, "pactl (PulseAudio/PipeWire) or amixer (ALSA)")
        return SystemCommand(argv, f"mute {state}", {"state": state})
    if name == "brightness":
        kind, n = _level_or_change(name, _params(name, params, {"level", "change"}), 1)
        arg = f"{n}%" if kind == "level" else f"{abs(n)}%{'+' if n >= 0 else '-'}"
        argv = _first(name, [("brightnessctl", lambda p: (p, "set", arg))], which, "brightnessctl")
        return SystemCommand(argv, f"brightness {arg}", {kind: n})
    if name == "lock":
        _params(name, params, set())
        argv = _first(name, [
            ("loginctl", lambda p: (p, "lock-session")),
            ("xdg-screensaver", lambda p: (p, "lock")),
        ], lambda t: sd_which(t) if t == "loginctl" else which(t),
            "loginctl (with systemd-logind) or xdg-screensaver")
        return SystemCommand(argv, "lock the session")
    if name in ("sleep", "suspend", "hibernate"):
        _params(name, params, set())
        verb = "hibernate" if name == "hibernate" else "suspend"
        argv = _first(name, [("systemctl", lambda p: (p, verb))], sd_which, "systemctl (systemd)")
        return SystemCommand(argv, verb)
    if name in ("wifi", "bluetooth"):
        state = _state(name, _params(name, params, {"state"}), ("on", "off"), None)
        block = "unblock" if state == "on" else "block"
        options = [("nmcli", lambda p: (p, "radio", "wifi", state))] if name == "wifi" else [
            ("bluetoothctl", lambda p: (p, "power", state))]
        options.append(("rfkill", lambda p: (p, block, name)))
        argv = _first(name, options, which, "nmcli or rfkill" if name == "wifi" else "bluetoothctl or rfkill")
        return SystemCommand(argv, f"{name} {state}", {"state": state})
    if name in ("shutdown", "restart"):
        p = _params(name, params, {"delay_s"})
        asked = _int(name, "delay_s", p.get("delay_s", 0), 0, 10**7)
        # shutdown(8) counts whole minutes: round up, but never past the cap (then round down).
        minutes = math.ceil(min(asked, max_delay_s) / 60)
        if minutes * 60 > max_delay_s:
            minutes = max_delay_s // 60
        flag, verb = ("-h", "poweroff") if name == "shutdown" else ("-r", "reboot")
        if minutes == 0:
            argv = _first(name, [("systemctl", lambda path: (path, verb))], sd_which, "systemctl (systemd)")
        else:
            argv = _first(name, [("shutdown", lambda path: (path, flag, f"+{minutes}"))], sd_which,
                          "shutdown (systemd)")
        delay = minutes * 60
        return SystemCommand(argv, f"{verb} in {delay} s", {"delay_s": delay, "capped": asked > max_delay_s})
    raise DeskgateError("unsupported", f"system action {name!r} is not something deskgate carries out on Linux")
