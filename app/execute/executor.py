"""Carrying out actions the gate (and, where asked, a person) allowed. `execute()` never raises.

- GUI (click, move, drag, scroll, type, key, screenshot) through pyautogui on $DISPLAY, one at a time.
  No display → `unsupported`. pyautogui's fail-safe stays on: a person who throws the pointer into a
  screen corner stops the GUI action in flight (`detail.failsafe`). Points off the screen are refused.
  Scroll: `dx`/`dy` in wheel clicks, positive `dy` scrolls down, positive `dx` right. Text pyautogui
  cannot type (non-ASCII) goes through `xdotool type` reading stdin, never argv (it may be a secret).
- kill switch: `cancel_all()` ends every command running now (shell, system, xdotool typing) by its
  process group (SIGTERM, SIGKILL after KILL_GRACE_S) and a `wait` in progress; each reports `killed`.
- shell: argv runs directly, a `command` string runs as `bash -c`; inside the bubblewrap fence
  (app/execute/fence.py) when the policy's `fence.enabled`; if `fence.required` and bwrap cannot run here →
  `sandbox_denied`, never unfenced. Timeout: the action's own, at most the policy's step timeout; the
  whole process group is killed on expiry. Environment: a minimal one (PATH, HOME, USER, LANG, TERM) plus
  the action's `env`, set inside bwrap (bwrap itself gets a fixed one); loader variables are refused.
  stdout/stderr are captured up to 64 KiB each (the rest counted, not kept).
- files: on the real path the gate judged (`judged`, from the supervisor; resolved once here when a caller
  gives none), walked from `/` without following any symlink and acted on through directory fds
  (app/execute/safefs.py); deskgate's own files and directories are refused. file_write is atomic (temp
  file + rename in the same directory) and needs an existing parent; file_delete deletes files only;
  file_move refuses to overwrite.
- navigate: http/https only, via xdg-open (else Python's webbrowser); open_app: an installed desktop
  application (a .desktop entry of the system, app/execute/apps.py), its own Exec line. Both start in a
  process group (or systemd scope) deskgate owns, which the kill switch ends; system:
  app/execute/systemactions.py; tool: `unsupported` (the agent runs its own tools, deskgate only gates them).

Results: `ok` is True when the action did what it was asked. `error` is set when the action was refused
or could not start (unsupported, sandbox_denied, timeout, bad_request, internal); an action that ran and
failed (a non-zero exit, a missing file) has ok False, error None and the reason in `detail["error"]`.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import errno
import hashlib
import logging
import os
import re
import selectors
import shutil
import signal
import stat
import subprocess
import threading
import time
import urllib.parse
import webbrowser
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.errors import DeskgateError
from app.execute import keymap
from app.execute.apps import AppGroups, default_app_dirs, find_app
from app.execute.fence import Fence, fixed_env, loader_variable
from app.execute.safefs import (
    Guard,
    OwnFile,
    PathMoved,
    open_path_only,
    own_paths,
    parent_dir,
    rename_noreplace,
    reopen,
)
from app.execute.systemactions import plan_system
from app.protocol import SCREENSHOT_MAX_WIDTH
from gate.policy import Policy

__all__ = ["OUTPUT_LIMIT", "ExecResult", "Executor", "map_key", "map_keys"]

log = logging.getLogger(__name__)

OUTPUT_LIMIT = 64 * 1024        # bytes of stdout / stderr kept per stream
FILE_READ_LIMIT = 256 * 1024    # bytes of a file_read returned
SAFE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
GUI_PAUSE_S = 0.02              # pyautogui's pause after each call (its default is 0.1)
SPAWN_CHECK_S = 0.3             # how long a started app / xdg-open is watched for an immediate failure
KILL_GRACE_S = 0.5              # after SIGTERM, how long a killed command's group has before SIGKILL


@dataclass
class ExecResult:
    ok: bool
    detail: dict[str, Any] = field(default_factory=dict)
    error: DeskgateError | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, **self.detail}
        if self.error is not None:
            out["error"] = self.error.to_dict()
        return out


# -- key names ---------------------------------------------------------------------------------------

_NAMED_KEYS = frozenset({
    "backspace", "tab", "enter", "return", "shift", "ctrl", "alt", "pause", "capslock", "esc", "escape",
    "pgup", "pgdn", "pageup", "pagedown", "end", "home", "left", "up", "right", "down", "select", "print",
    "execute", "prtsc", "prtscr", "prntscrn", "printscreen", "insert", "del", "delete", "help", "win",
    "winleft", "winright", "apps", "num0", "num1", "num2", "num3", "num4", "num5", "num6", "num7", "num8",
    "num9", "multiply", "add", "separator", "subtract", "decimal", "divide", "numlock", "scrolllock",
    "shiftleft", "shiftright", "ctrlleft", "ctrlright", "altleft", "altright", "space",
    *(f"f{n}" for n in range(1, 25)),
})
# Printable ASCII: pyautogui maps every one of these to a keycode (shifted ones press shift itself).
_TYPABLE = frozenset(chr(c) for c in range(32, 127)) | {"\n", "\t"}
# control characters other than \n and \t, which are pressed as the keys they are (app/execute/input.py)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_CONTROL_SPLIT = re.compile(r"([\x00-\x08\x0b-\x1f\x7f])")


_CONTROL_NAMED = {"\r": ["enter"], "\x08": ["backspace"], "\x7f": ["backspace"], "\x1b": ["esc"],
                  "\x00": ["ctrl", "space"], "\x1c": ["ctrl", "\\"], "\x1d": ["ctrl", "]"], "\x1e": ["ctrl", "6"],
                  "\x1f": ["ctrl", "-"]}


def control_key(ch: str) -> list[str]:
    """The key a control character is, in pyautogui's names: `\r` Return, `\x03` ctrl+c, `\x1b` Escape."""
    named = _CONTROL_NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    if 1 <= code <= 26:
        return ["ctrl", chr(ord("a") + code - 1)]
    raise DeskgateError("unsupported", f"cannot press control character {ch!r}")


@dataclasses.dataclass(frozen=True, slots=True)
class _Text:
    text: str
_ALIASES = {
    "control": "ctrl", "ctl": "ctrl", "lctrl": "ctrlleft", "rctrl": "ctrlright", "control_l": "ctrlleft",
    "control_r": "ctrlright",
    "cmd": "win", "command": "win", "super": "win", "meta": "win", "windows": "win", "os": "win",
    "super_l": "winleft", "super_r": "winright",
    "option": "alt", "opt": "alt", "altgr": "altright", "alt_l": "altleft", "alt_r": "altright",
    "lshift": "shiftleft", "rshift": "shiftright", "shift_l": "shiftleft", "shift_r": "shiftright",
    "ret": "enter", "kp_enter": "enter", "escape": "esc",
    "page_up": "pageup", "prior": "pageup", "page_down": "pagedown", "next": "pagedown",
    "ins": "insert", "bksp": "backspace", "back_space": "backspace", "bs": "backspace",
    "spacebar": "space", "caps_lock": "capslock", "num_lock": "numlock", "scroll_lock": "scrolllock",
    "print_screen": "printscreen", "menu": "apps", "context_menu": "apps",
    "arrowleft": "left", "arrowright": "right", "arrowup": "up", "arrowdown": "down",
    "plus": "+", "minus": "-", "equal": "=", "comma": ",", "period": ".", "slash": "/", "backslash": "\\",
    "semicolon": ";", "apostrophe": "'", "grave": "`", "bracketleft": "[", "bracketright": "]",
}


def map_key(name: str) -> str:
    """An agent's key name (xdotool, browser, Mac or pyautogui style) → pyautogui's name.

    Raises DeskgateError(`unsupported`) for a name that is not a key.
    """
    if len(name) == 1:
        if name not in _TYPABLE:
            raise DeskgateError("unsupported", f"key {name!r} cannot be pressed (not a key on the keymap)")
        return name.lower()  # ctrl+S means ctrl+s; shift is its own key in a combination
    key = name.strip().lower()
    if key not in _ALIASES and key not in _NAMED_KEYS:
        key = key.replace("_", "").replace("-", "").replace(" ", "")  # Page_Up, page-up, "page up"
    key = _ALIASES.get(key, key)
    if key == "return":
        key = "enter"
    if key in _NAMED_KEYS or (len(key) == 1 and key in _TYPABLE):
        return key
    raise DeskgateError("unsupported", f"unknown key name {name!r}")


def map_keys(keys: list[str]) -> list[str]:
    """A key combination → pyautogui names, in press order. "ctrl+s" inside one element is split."""
    out: list[str] = []
    for item in keys:
        if len(item) == 1:
            parts = [item]
        elif item.endswith("++"):  # "ctrl++": the plus key itself
            parts = [*item[:-2].split("+"), "+"]
        else:
            parts = item.split("+")
        if any(not p for p in parts):
            raise DeskgateError("unsupported", f"cannot read key combination {item!r}")
        out.extend(map_key(p) for p in parts)
    if not out:
        raise DeskgateError("bad_request", "no keys to press")
    return out


# -- running processes ---------------------------------------------------------------------------------


def minimal_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    home = os.path.expanduser("~")
    user = os.environ.get("USER") or os.environ.get("LOGNAME") or os.path.basename(home)
    env = {
        "PATH": SAFE_PATH,
        "HOME": home,
        "USER": user,
        "LOGNAME": user,
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "TERM": "dumb",
    }
    if extra:
        env.update(extra)
    return env


@dataclass
class _Run:
    exit_code: int | None
    stdout: bytes
    stderr: bytes
    stdout_bytes: int
    stderr_bytes: int
    timed_out: bool
    killed: bool = False  # ended by the kill switch (Running.cancel_all)

    def detail(self) -> dict[str, Any]:
        return {
            "exit_code": self.exit_code,
            "stdout": self.stdout.decode("utf-8", "replace"),
            "stderr": self.stderr.decode("utf-8", "replace"),
            "stdout_bytes": self.stdout_bytes,
            "stderr_bytes": self.stderr_bytes,
            "stdout_truncated": self.stdout_bytes > len(self.stdout),
            "stderr_truncated": self.stderr_bytes > len(self.stderr),
            "timed_out": self.timed_out,
            "killed": self.killed,
        }


class Running:
    """The process groups of the commands running now, so the kill switch can end them.

    `cancel_all` sends SIGTERM to every group at once and SIGKILL to whatever is left after a short
    grace (on a timer thread: the kill switch itself never waits).
    """

    def __init__(self, grace_s: float = KILL_GRACE_S) -> None:
        self.grace_s = grace_s
        self._lock = threading.Lock()
        self._groups: dict[int, subprocess.Popen] = {}
        self._cancelled: set[int] = set()
        self._woken = threading.Condition(self._lock)
        self._generation = 0  # bumped by every cancel_all: a `wait` action in progress ends with it

    def add(self, proc: subprocess.Popen) -> None:
        with self._lock:
            self._groups[proc.pid] = proc

    def remove(self, proc: subprocess.Popen) -> bool:
        """Forget a finished command; True when the kill switch ended it."""
        with self._lock:
            self._groups.pop(proc.pid, None)
            if proc.pid in self._cancelled:
                self._cancelled.discard(proc.pid)
                return True
            return False

    def sleep(self, seconds: float) -> bool:
        """Sleep up to `seconds`; True when cancel_all ended it early."""
        with self._lock:
            generation = self._generation
            return self._woken.wait_for(lambda: self._generation != generation, timeout=seconds)

    def cancel_all(self) -> int:
        with self._lock:
            procs = list(self._groups.values())
            self._cancelled.update(p.pid for p in procs)
            self._generation += 1
            self._woken.notify_all()
        for proc in procs:
            _signal_group(proc, signal.SIGTERM)
        if procs:
            timer = threading.Timer(self.grace_s, self._finish, args=(procs,))
            timer.daemon = True
            timer.start()
        return len(procs)

    def _finish(self, procs: list[subprocess.Popen]) -> None:
        for proc in procs:
            # a leader that has exited was reaped by run_limited, which killed its group then; its id may
            # belong to someone else by now, so only a leader still running (ignoring SIGTERM) is signalled
            if proc.poll() is None:
                _signal_group(proc, signal.SIGKILL)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def _kill_group(proc: subprocess.Popen) -> None:
    _signal_group(proc, signal.SIGKILL)


def run_limited(argv: list[str], *, cwd: str | None, env: dict[str, str], timeout: float,
                limit: int = OUTPUT_LIMIT, stdin: bytes | None = None, running: Running | None = None) -> _Run:
    """Run argv in its own process group; keep at most `limit` bytes of each stream; kill the group at timeout.

    With `running`, the group is registered there while it runs, so the kill switch can end it.

    Raises OSError when the program cannot be started.
    """
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    if running is not None:
        running.add(proc)
    if stdin is not None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(stdin)
        except BrokenPipeError:
            pass
        finally:
            with contextlib.suppress(BrokenPipeError):
                proc.stdin.close()
    kept = {"stdout": bytearray(), "stderr": bytearray()}
    total = {"stdout": 0, "stderr": 0}
    deadline = time.monotonic() + timeout
    exited_at: float | None = None
    timed_out = False
    sel = selectors.DefaultSelector()
    assert proc.stdout is not None and proc.stderr is not None
    sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
    sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
    try:
        while sel.get_map():
            now = time.monotonic()
            if now >= deadline:
                timed_out = True
                break
            if proc.poll() is not None:
                exited_at = exited_at or now
                if now - exited_at > 0.5:
                    break  # a background child holds the pipes open after the command itself ended
            for key, _ in sel.select(timeout=min(0.1, max(0.0, deadline - now))):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                name = key.data
                total[name] += len(chunk)
                room = limit - len(kept[name])
                if room > 0:
                    kept[name] += chunk[:room]
    finally:
        sel.close()
        if not timed_out:
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                timed_out = True
        # Nothing outlives its step: a timed-out command, or background jobs it left in its group.
        _kill_group(proc)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
        proc.stdout.close()
        proc.stderr.close()
        killed = running.remove(proc) if running is not None else False
    code = None if timed_out else proc.returncode
    return _Run(code, bytes(kept["stdout"]), bytes(kept["stderr"]), total["stdout"], total["stderr"], timed_out,
                killed)


def _own_file(err: OwnFile) -> DeskgateError:
    return DeskgateError("sandbox_denied", f"deskgate does not act on its own files: {err}")


def _temp_in(dir_fd: int, name: str) -> tuple[str, int]:
    """A new temporary file beside `name` in the directory fd (O_EXCL, no symlink followed)."""
    for _ in range(100):
        tmp = f".{name[:200]}.{os.urandom(6).hex()}.deskgate-tmp"
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                                dir_fd=dir_fd)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name")


def _copy_then_unlink(src_fd: int, src: str, dst_fd: int, dst: str, guard: Guard, shown: str) -> None:
    """A move across filesystems: copy the source's inode (checked through O_PATH) to a new file, then
    unlink the source name."""
    pfd = open_path_only(src_fd, src)
    try:
        st = guard.check_fd(pfd, shown)
        if not stat.S_ISREG(st.st_mode):
            raise DeskgateError("sandbox_denied", f"the path changed since it was judged: {shown}")
        rfd = reopen(pfd, os.O_RDONLY | os.O_NONBLOCK)
    finally:
        os.close(pfd)
    try:
        wfd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                      stat.S_IMODE(st.st_mode), dir_fd=dst_fd)
        try:
            while chunk := os.read(rfd, 1 << 20):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(wfd, view):]
            os.fsync(wfd)
        finally:
            os.close(wfd)
    finally:
        os.close(rfd)
    os.unlink(src, dir_fd=src_fd)


def _early_exit(proc: subprocess.Popen, wait_s: float) -> int | None:
    try:
        return proc.wait(wait_s)
    except subprocess.TimeoutExpired:
        return None


# -- the executor ------------------------------------------------------------------------------------


# Inside a fence without network: package managers that retry a failed download for a minute or more
# (npm, pip, cargo) try once, so the command fails within a second and says why.
_NO_NETWORK_ENV = {"npm_config_fetch_retries": "0", "npm_config_fetch_retry_mintimeout": "100",
                   "npm_config_fetch_retry_maxtimeout": "200", "PIP_RETRIES": "0", "CARGO_NET_RETRY": "0",
                   "YARN_NETWORK_TIMEOUT": "1000"}
_NETWORK_FAILED = re.compile(rb"EAI_AGAIN|ENOTFOUND|ENETUNREACH|Network is unreachable|Could not resolve host|"
                             rb"Temporary failure in name resolution|Name or service not known|getaddrinfo|"
                             rb"Failed to establish a new connection|unable to resolve host|"
                             rb"Could not resolve hostname|network unreachable|Failed to connect to|"
                             rb"Couldn't connect to server|Connection refused|ECONNREFUSED|unable to access",
                             re.IGNORECASE)
_NO_NETWORK_HINT = ("it could not reach the network: deskgate's fence runs commands without network. A person "
                    "can approve it with network, or an allow rule with `network = true` can grant it")


_FILE_HANDLERS = frozenset({"file_read", "file_write", "file_delete", "file_move"})


def default_guard() -> Guard:
    """deskgate's own directories and files for the default install paths (app/config.py)."""
    from app.config import default_paths

    paths = default_paths()
    return own_paths(paths.config_dir, paths.data_dir, paths.state_dir, paths.runtime_dir, paths.db)


def _step_timeout_s(policy: Policy) -> float:
    return float(policy.limits.step_timeout_s)


class Executor:
    """Executes allowed actions. Thread-safe; GUI actions are serialised (one pointer, one keyboard).

    Each call runs under the policy it is given (the supervisor passes the one its request was judged
    under): the fence's writable roots and network switch, the step timeout and the system limits are
    read from it at that call, never copied at construction, so a reloaded policy applies to the next
    action in full. The policy given here is only the default for a call that names none."""

    def __init__(self, policy: Policy, *, bwrap: str = "bwrap", output_limit: int = OUTPUT_LIMIT,
                 file_read_limit: int = FILE_READ_LIMIT, guard: Guard | None = None,
                 app_dirs: Sequence[Path] | None = None, apps: AppGroups | None = None) -> None:
        self.policy = policy
        # deskgate's own directories and files: hidden inside the fence, refused to every file action
        self.guard = guard if guard is not None else default_guard()
        self.bwrap = bwrap
        self.output_limit = output_limit
        self.file_read_limit = file_read_limit
        self._gui_lock = threading.Lock()
        self.running = Running()
        # programs opened for agents (open_app, navigate): installed desktop entries only, frozen at a kill
        # (the composition root hands in the one the tray shows)
        self.apps = apps if apps is not None else AppGroups()
        self.app_dirs = list(app_dirs) if app_dirs is not None else default_app_dirs()
        self._gui_module: Any = None
        self._gui_error: str | None = None
        self._handlers: dict[str, Callable[..., ExecResult]] = {
            "click": self._click, "move": self._move, "drag": self._drag, "scroll": self._scroll,
            "type": self._type, "key": self._key, "wait": self._wait, "screenshot": self._screenshot,
            "shell": self._shell, "file_read": self._file_read, "file_write": self._file_write,
            "file_delete": self._file_delete, "file_move": self._file_move, "navigate": self._navigate,
            "open_app": self._open_app, "system": self._system, "tool": self._tool,
        }

    def cancel_all(self) -> int:
        """The kill switch: end every running command's process group, and freeze every program opened
        for an agent (desktop applications the person may be using: the tray offers to resume or end
        them). Returns how many were running."""
        return self.running.cancel_all() + self.apps.freeze_all()

    def fence(self, policy: Policy) -> Fence:
        """The shell fence `policy` describes (its writable roots, its network switch)."""
        # its own directories, and its files wherever they are (a --db outside the data dir)
        dirs = self.guard.dirs
        outside = (f for f in self.guard.files if not any(f == d or f.startswith(d + "/") for d in dirs))
        hidden = tuple(Path(p) for p in (*dirs, *outside))
        return Fence(policy.fence, bwrap=self.bwrap, hidden=hidden)

    def execute(self, action: Any, policy: Policy | None = None, *,
                judged: tuple[str, ...] | None = None, new_file: bool = False) -> ExecResult:
        """Run `action` under `policy`. `judged`: for a file action, the real path(s) the gate judged
        (path, and a move's destination); they are acted on as they are, never resolved again. `new_file`: a
        write the gate judged as creating a file (`Assessment.new_file`): a file found there is not replaced."""
        started = time.monotonic()
        kind = getattr(action, "type", None)
        handler = self._handlers.get(kind)  # type: ignore[arg-type]
        try:
            if handler is None:
                raise DeskgateError("unsupported", f"action type {kind!r} cannot be executed")
            run_policy = policy if policy is not None else self.policy
            if kind == "file_write":
                result = self._file_write(action, run_policy, judged, new_file)
            else:
                args = (action, run_policy, judged) if kind in _FILE_HANDLERS else (action, run_policy)
                result = handler(*args)
        except DeskgateError as err:
            result = ExecResult(False, {}, err)
        except Exception as err:  # never raise into the supervisor: report it
            gui = self._gui_module  # set once pyautogui is loaded; its fail-safe can only come after that
            if gui is not None and isinstance(err, gui.FailSafeException):
                result = ExecResult(False, {"failsafe": True, "error": "stopped by pyautogui's fail-safe: the "
                                            "pointer is in a screen corner (a person's stop gesture)"},
                                    DeskgateError("internal", "GUI action stopped by the pointer fail-safe"))
            else:
                log.exception("executing %s failed", kind)
                result = ExecResult(False, {"error": f"{type(err).__name__}: {err}"},
                                    DeskgateError("internal", f"executing {kind} failed: {err}"))
        result.detail["elapsed_ms"] = round((time.monotonic() - started) * 1000, 3)
        return result

    # -- GUI ------------------------------------------------------------------------------------

    def _gui(self) -> Any:
        """pyautogui, imported on first use. `unsupported` without a working display."""
        if self._gui_module is not None:
            return self._gui_module
        if self._gui_error is None:
            if not os.environ.get("DISPLAY"):
                raise DeskgateError("unsupported", "GUI actions need a display and none is set (no $DISPLAY)")
            try:
                import pyautogui
            except (Exception, SystemExit) as err:  # pyautogui exits the interpreter when tkinter is missing
                self._gui_error = f"GUI automation is unavailable: {type(err).__name__}: {err}"
            else:
                pyautogui.FAILSAFE = True
                pyautogui.PAUSE = GUI_PAUSE_S
                self._gui_module = pyautogui
                return pyautogui
        raise DeskgateError("unsupported", self._gui_error or "GUI automation is unavailable")

    def _on_screen(self, gui: Any, x: int, y: int) -> None:
        if not gui.onScreen(x, y):
            w, h = gui.size()
            raise DeskgateError("bad_request", f"point ({x}, {y}) is off the screen ({w}×{h})")

    def _click(self, a: Any, policy: Policy) -> ExecResult:
        gui = self._gui()
        with self._gui_lock:
            self._on_screen(gui, a.x, a.y)
            gui.click(x=a.x, y=a.y, clicks=a.clicks, interval=0.05, button=a.button)
        return ExecResult(True, {"x": a.x, "y": a.y, "button": a.button, "clicks": a.clicks})

    def _move(self, a: Any, policy: Policy) -> ExecResult:
        gui = self._gui()
        with self._gui_lock:
            self._on_screen(gui, a.x, a.y)
            gui.moveTo(a.x, a.y)
        return ExecResult(True, {"x": a.x, "y": a.y})

    def _drag(self, a: Any, policy: Policy) -> ExecResult:
        gui = self._gui()
        with self._gui_lock:
            for x, y in a.path:
                self._on_screen(gui, x, y)
            gui.moveTo(*a.path[0])
            gui.mouseDown(button=a.button)
            try:
                for x, y in a.path[1:]:
                    gui.moveTo(x, y, duration=0.05)
            finally:
                gui.mouseUp(button=a.button)  # never leave a button held down
        return ExecResult(True, {"points": len(a.path), "button": a.button})

    def _scroll(self, a: Any, policy: Policy) -> ExecResult:
        gui = self._gui()
        with self._gui_lock:
            if a.x is not None:
                self._on_screen(gui, a.x, a.y)
                gui.moveTo(a.x, a.y)
            if a.dy:
                gui.scroll(-a.dy)  # pyautogui: positive is up; the protocol: positive dy is down
            if a.dx:
                gui.hscroll(a.dx)
        return ExecResult(True, {"dx": a.dx, "dy": a.dy})

    def _type(self, a: Any, policy: Policy) -> ExecResult:
        gui = self._gui()
        text = a.text
        if _CONTROL.search(text):
            return self._type_with_keys(gui, text, policy)
        with self._gui_lock:
            if all(c in _TYPABLE for c in text):
                gui.write(text)
                return ExecResult(True, {"chars": len(text), "via": "xtest"})
            xdotool = shutil.which("xdotool")
            if xdotool is None:
                bad = sorted({c for c in text if c not in _TYPABLE})[:5]
                raise DeskgateError("unsupported", f"cannot type {bad!r} without xdotool (only ASCII otherwise)")
            with keymap.held(text):
                run = run_limited([xdotool, "type", "--delay", "12", "--file", "-"], cwd=None, env=dict(os.environ),
                                  timeout=_step_timeout_s(policy), limit=4096, stdin=text.encode("utf-8"),
                                  running=self.running)
        if run.killed:
            raise DeskgateError("killed", "the kill switch stopped the typing")
        if run.timed_out:
            raise DeskgateError("timeout", f"typing did not finish within {_step_timeout_s(policy):g} s")
        detail = {"chars": len(text), "via": "xdotool"}
        if run.exit_code != 0:
            return ExecResult(False, {**detail, "error": run.stderr.decode("utf-8", "replace").strip()})
        return ExecResult(True, detail)

    def _type_with_keys(self, gui: Any, text: str, policy: Policy) -> ExecResult:
        """Text with control characters: each one pressed as the key it is (`\r` Return, `\x03` ctrl+c, `\x1b`
        Escape...), the runs between typed as text: what the gate judged (gate/lines.py) is what the window gets."""
        pressed = 0
        for run in _CONTROL_SPLIT.split(text):
            if not run:
                continue
            if len(run) == 1 and _CONTROL.match(run):
                keys = control_key(run)
                with self._gui_lock:
                    if len(keys) > 1:
                        gui.hotkey(*keys)
                    else:
                        gui.press(keys[0])
                pressed += 1
                continue
            done = self._type(_Text(run), policy)
            if not done.ok:
                return done
        return ExecResult(True, {"chars": len(text), "via": "keys", "control_keys": pressed})

    def _key(self, a: Any, policy: Policy) -> ExecResult:
        keys = map_keys(list(a.keys))
        gui = self._gui()
        with self._gui_lock:
            if len(keys) == 1:
                gui.press(keys[0])
            else:
                gui.hotkey(*keys)
        return ExecResult(True, {"keys": keys})

    def _screenshot(self, a: Any, policy: Policy) -> ExecResult:
        self._gui()  # same availability rule as every GUI action
        import mss

        from app.desktop.pixels import average_hash, bgra_to_rgb, downscale_rgb, encode_png

        with mss.MSS() as sct:
            img = sct.grab(sct.monitors[0])
            raw, w, h = img.raw, img.width, img.height
        rgb, sw, sh = downscale_rgb(bgra_to_rgb(raw, w, h), w, h, SCREENSHOT_MAX_WIDTH)
        png = encode_png(rgb, sw, sh, level=6)
        return ExecResult(True, {
            "width": w, "height": h, "sha256": hashlib.sha256(raw).hexdigest(),
            "screen_hash": average_hash(raw, w, h),
            "png_width": sw, "png_height": sh, "png_base64": base64.b64encode(png).decode("ascii"),
        })

    def _wait(self, a: Any, policy: Policy) -> ExecResult:
        seconds = min(float(a.seconds), _step_timeout_s(policy))
        if self.running.sleep(seconds):
            raise DeskgateError("killed", "the kill switch ended the wait")
        return ExecResult(True, {"slept_s": seconds})

    # -- shell ----------------------------------------------------------------------------------

    def _shell(self, a: Any, policy: Policy) -> ExecResult:
        # the command's own timeout (the action's, or its allow rule's), up to max_shell_timeout_s
        timeout = min(float(a.timeout), float(policy.limits.max_shell_timeout_s)) if a.timeout \
            else _step_timeout_s(policy)
        cwd = os.path.expanduser(a.cwd) if a.cwd else os.path.expanduser("~")
        if not os.path.isabs(cwd):
            cwd = os.path.join(os.path.expanduser("~"), cwd)
        if not os.path.isdir(cwd):
            raise DeskgateError("bad_request", f"working directory {a.cwd!r} does not exist")
        command = ["bash", "-c", a.command] if a.command is not None else list(a.argv)
        agent_env = dict(a.env) if a.env else {}
        loaders = sorted(n for n in agent_env if loader_variable(n))
        if loaders:  # the gate refuses these too; here it holds even for a policy that lets them through
            raise DeskgateError("sandbox_denied",
                                f"variables that change what code runs are not set: {', '.join(loaders)}")
        env = minimal_env(agent_env)
        fenced = False
        detail: dict[str, Any] = {}
        if policy.fence.enabled:
            fence = self.fence(policy)
            status = fence.check()
            if status.available:
                if not policy.fence.network:  # tools that retry for a minute give up at once instead
                    env = {**_NO_NETWORK_ENV, **(env or {})}
                try:
                    command = fence.argv(command, cwd, env)
                except ValueError as err:
                    raise DeskgateError("bad_request", str(err)) from None
                env = fixed_env()  # bwrap itself never sees the agent's variables: they are set inside it
                fenced = True
            elif policy.fence.required:
                raise DeskgateError("sandbox_denied", f"the shell fence is required and unavailable: {status.reason}")
            else:
                detail["fence_unavailable"] = status.reason
        detail["fenced"] = fenced
        try:
            run = run_limited(command, cwd=cwd, env=env, timeout=timeout, limit=self.output_limit,
                              running=self.running)
        except OSError as err:
            detail.update(exit_code=None, error=f"cannot start {command[0]!r}: {err.strerror}")
            return ExecResult(False, detail)
        detail.update(run.detail())
        if run.killed:
            return ExecResult(False, detail, DeskgateError("killed", "the kill switch ended the command"))
        offline = fenced and not policy.fence.network and _NETWORK_FAILED.search(run.stderr + run.stdout)
        if offline:
            detail["network_blocked"] = True
        if run.timed_out:
            return ExecResult(False, detail, DeskgateError("timeout", f"command killed after {timeout:g} s"
                                                           + (f"; {_NO_NETWORK_HINT}" if offline else "")))
        if run.exit_code != 0:
            detail["error"] = f"exit status {run.exit_code}" + (f": {_NO_NETWORK_HINT}" if offline else "")
        return ExecResult(run.exit_code == 0, detail)

    # -- files ----------------------------------------------------------------------------------

    def _judged(self, a: Any, field_name: str, judged: tuple[str, ...] | None, index: int) -> str:
        """The real path the gate judged for this field (given by the supervisor), else resolved here once.
        Either way it is never resolved again: the walk below follows no symlink."""
        if judged is not None and len(judged) > index and judged[index]:
            path = judged[index]
        else:
            from gate.paths import resolve

            raw = getattr(a, field_name)
            try:
                path = resolve(raw)
            except (ValueError, OSError) as err:  # OSError: a path changing under realpath
                raise DeskgateError("bad_request", f"path {raw!r}: {err}") from None
        if not path.startswith("/"):
            raise DeskgateError("unsupported", f"path {path!r} is not a path on this system")
        return path

    @contextlib.contextmanager
    def _dir(self, path: str) -> Any:
        """(directory fd, name) of judged `path`, walked without following symlinks and checked against
        deskgate's own directories. Refusals become DeskgateError; OSError passes through."""
        try:
            with parent_dir(path) as (dir_fd, name):
                self.guard.check_dir_fd(dir_fd, os.path.dirname(path))
                yield dir_fd, name
        except PathMoved as err:
            raise DeskgateError("sandbox_denied", f"the path changed since it was judged: {err}") from None
        except OwnFile as err:
            raise _own_file(err) from None

    def _file_read(self, a: Any, policy: Policy, judged: tuple[str, ...] | None = None) -> ExecResult:
        path = self._judged(a, "path", judged, 0)
        try:
            with self._dir(path) as (dir_fd, name):
                pfd = open_path_only(dir_fd, name)
                try:
                    try:
                        st = self.guard.check_fd(pfd, path)
                    except OwnFile as err:
                        raise _own_file(err) from None
                    if stat.S_ISLNK(st.st_mode):
                        raise DeskgateError("sandbox_denied", f"the path changed since it was judged: {path} "
                                                              "is a symlink now")
                    if not stat.S_ISREG(st.st_mode):
                        return ExecResult(False, {"path": path, "error": "not a regular file"})
                    # O_NONBLOCK: a FIFO put in its place must not hang the step
                    fd = reopen(pfd, os.O_RDONLY | os.O_NONBLOCK)
                finally:
                    os.close(pfd)
        except OSError as err:
            return ExecResult(False, {"path": path, "error": err.strerror or str(err)})
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return ExecResult(False, {"path": path, "error": "not a regular file"})
            data = os.read(fd, self.file_read_limit)
        finally:
            os.close(fd)
        detail: dict[str, Any] = {"path": path, "size": st.st_size, "truncated": st.st_size > len(data)}
        try:
            detail["content"] = data.decode("utf-8")
        except UnicodeDecodeError:
            detail["content_base64"] = base64.b64encode(data).decode("ascii")
        return ExecResult(True, detail)

    def _file_write(self, a: Any, policy: Policy, judged: tuple[str, ...] | None = None,
                    new_file: bool = False) -> ExecResult:
        path = self._judged(a, "path", judged, 0)
        data = a.content.encode("utf-8")
        try:
            with self._dir(path) as (dir_fd, name):
                try:
                    st = self.guard.check_entry(dir_fd, name, path)
                except OwnFile as err:
                    raise _own_file(err) from None
                if st is not None and new_file:
                    return ExecResult(False, {"path": path, "error": "a file appeared there after the write was "
                                              "judged as creating a new one: it is not replaced"})
                if st is not None and not stat.S_ISREG(st.st_mode):
                    return ExecResult(False, {"path": path, "error": "exists and is not a regular file"})
                tmp, fd = _temp_in(dir_fd, name)
                try:
                    with os.fdopen(fd, "wb") as fh:
                        fh.write(data)
                        fh.flush()
                        os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode) if st is not None else 0o644)
                        os.fsync(fh.fileno())
                    # rename within the directory fd: a symlink put at `name` meanwhile is replaced, not followed
                    # (a new file's write replaces nothing: whatever appeared at `name` meanwhile stays)
                    if new_file:
                        rename_noreplace(dir_fd, tmp, dir_fd, name)
                    else:
                        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
                except BaseException:
                    with contextlib.suppress(OSError):
                        os.unlink(tmp, dir_fd=dir_fd)
                    raise
        except FileNotFoundError:
            return ExecResult(False, {"path": path, "error": f"directory {os.path.dirname(path)} does not exist"})
        except OSError as err:
            return ExecResult(False, {"path": path, "error": err.strerror or str(err)})
        return ExecResult(True, {"path": path, "bytes": len(data), "created": st is None})

    def _file_delete(self, a: Any, policy: Policy, judged: tuple[str, ...] | None = None) -> ExecResult:
        path = self._judged(a, "path", judged, 0)
        try:
            with self._dir(path) as (dir_fd, name):
                try:
                    st = self.guard.check_entry(dir_fd, name, path)
                except OwnFile as err:
                    raise _own_file(err) from None
                if st is None:
                    return ExecResult(False, {"path": path, "error": "No such file or directory"})
                if stat.S_ISDIR(st.st_mode):
                    raise DeskgateError("unsupported", f"{path} is a directory: file_delete removes files only")
                os.unlink(name, dir_fd=dir_fd)
        except OSError as err:
            return ExecResult(False, {"path": path, "error": err.strerror or str(err)})
        return ExecResult(True, {"path": path, "bytes": st.st_size})

    def _file_move(self, a: Any, policy: Policy, judged: tuple[str, ...] | None = None) -> ExecResult:
        src, dst = self._judged(a, "path", judged, 0), self._judged(a, "to", judged, 1)
        detail = {"path": src, "to": dst}
        try:
            with self._dir(src) as (src_fd, src_name), self._dir(dst) as (dst_fd, dst_name):
                try:
                    st = self.guard.check_entry(src_fd, src_name, src)
                    self.guard.check_entry(dst_fd, dst_name, dst)
                except OwnFile as err:
                    raise _own_file(err) from None
                if st is None:
                    return ExecResult(False, {**detail, "error": "source does not exist"})
                try:
                    rename_noreplace(src_fd, src_name, dst_fd, dst_name)
                except FileExistsError:
                    return ExecResult(False, {**detail, "error": "destination exists (file_move does not overwrite)"})
                except OSError as err:
                    if err.errno != errno.EXDEV:
                        raise
                    if not stat.S_ISREG(st.st_mode):
                        raise DeskgateError("unsupported",
                                            "file_move across filesystems moves regular files only") from None
                    _copy_then_unlink(src_fd, src_name, dst_fd, dst_name, self.guard, src)
        except FileNotFoundError as err:
            return ExecResult(False, {**detail, "error": err.strerror or str(err)})
        except OSError as err:
            return ExecResult(False, {**detail, "error": err.strerror or str(err)})
        return ExecResult(True, detail)

    # -- desktop programs -------------------------------------------------------------------------

    def _navigate(self, a: Any, policy: Policy) -> ExecResult:
        url = a.url.strip()
        parts = urllib.parse.urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise DeskgateError("unsupported", "navigate opens http/https URLs only")
        opener = shutil.which("xdg-open")
        if opener is not None:
            # a browser it starts is the agent's: frozen at a kill
            proc = self.apps.start([opener, url], name=f"the browser opened at {parts.hostname}")
            code = _early_exit(proc, SPAWN_CHECK_S * 3)
            if code not in (None, 0):
                return ExecResult(False, {"url": url, "via": "xdg-open", "exit_code": code,
                                          "error": f"xdg-open failed (exit status {code})"})
            return ExecResult(True, {"url": url, "via": "xdg-open"})
        if webbrowser.open(url):
            return ExecResult(True, {"url": url, "via": "webbrowser"})
        raise DeskgateError("unsupported", "no way to open a browser here (no xdg-open, no browser found)")

    def _open_app(self, a: Any, policy: Policy) -> ExecResult:
        name = a.app.strip()
        if not name or "\0" in name or "/" in name:
            raise DeskgateError("unsupported", "open_app takes the name of an installed desktop application")
        app = find_app(name, self.app_dirs)
        if app is None:
            raise DeskgateError("unsupported", f"no installed desktop application is called {name!r} "
                                               "(open_app starts .desktop applications only)")
        exe = shutil.which(app.argv[0]) or app.argv[0]
        proc = self.apps.start([exe, *app.argv[1:]], name=app.name or app.id)
        code = _early_exit(proc, SPAWN_CHECK_S)
        detail = {"app": exe, "desktop_id": app.id, "pid": proc.pid}
        if code not in (None, 0):
            return ExecResult(False, {**detail, "exit_code": code,
                                      "error": f"{name} exited at once (exit status {code})"})
        return ExecResult(True, detail)

    def _system(self, a: Any, policy: Policy) -> ExecResult:
        cmd = plan_system(a.name, a.params, max_delay_s=policy.system.max_delay_s)
        try:
            run = run_limited(list(cmd.argv), cwd=None, env=dict(os.environ), timeout=_step_timeout_s(policy),
                              limit=self.output_limit, running=self.running)
        except OSError as err:
            return ExecResult(False, {"command": list(cmd.argv), "error": err.strerror or str(err)})
        detail = {"command": list(cmd.argv), "summary": cmd.summary, **cmd.detail, **run.detail()}
        if run.killed:
            return ExecResult(False, detail, DeskgateError("killed", f"{cmd.summary}: ended by the kill switch"))
        if run.timed_out:
            return ExecResult(False, detail, DeskgateError("timeout", f"{cmd.summary}: no answer in time"))
        if run.exit_code != 0:
            detail["error"] = f"exit status {run.exit_code}"
        return ExecResult(run.exit_code == 0, detail)

    def _tool(self, a: Any, policy: Policy) -> ExecResult:
        raise DeskgateError("unsupported", "tool calls are executed by the agent itself; deskgate only gates them")
