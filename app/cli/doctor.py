"""`deskgate doctor`: is this machine ready for deskgate? Each check says ok / warn / fail and, if not ok,
what to do about it (usually a package to install).

A `fail` means a part of deskgate that guards the desktop cannot work here (no X connection: no active
window to bind approvals to; a required fence that cannot start: every shell action is refused); a
`warn` means something is degraded or worth knowing (no tray, a kill switch that is on). The command
exits 1 when any check fails.

Checks read the environment they are given (`env`), so a test can run them as if headless. Nothing here
writes: the audit log is opened read-only and its writability probed with a transaction rolled back.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from app.config import Paths

__all__ = ["Check", "format_checks", "run_checks"]

OK, WARN, FAIL = "ok", "warn", "fail"
_SUBPROCESS_TIMEOUT_S = 10.0
_DISPLAY_FIX = ("start deskgate inside your desktop session (DISPLAY is how it finds the X server); on a "
                "machine without one use `deskgate serve --headless`, or a virtual display: "
                "apt install xvfb && Xvfb :99 & export DISPLAY=:99")
_SEE_DISPLAY = "set DISPLAY (see the `display` check)"
# Missing shared libraries of Qt's xcb platform plugin → the Debian/Ubuntu package that has them.
_LIB_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-icccm.so.4": "libxcb-icccm4", "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0", "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0", "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1", "libdbus-1.so.3": "libdbus-1-3", "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0", "libxcb-sync.so.1": "libxcb-sync1",
}
_TOOLS = (
    ("xdotool", "types text pyautogui cannot (non-ASCII)", "apt install xdotool"),
    ("xrandr", "screen layout for observations", "apt install x11-xserver-utils"),
    ("ps", "the active window's app name", "apt install procps"),
)


@dataclasses.dataclass(frozen=True)
class Check:
    name: str
    status: str  # ok | warn | fail
    detail: str
    fix: str = ""

    def to_dict(self) -> dict[str, str]:
        return dataclasses.asdict(self)


Runner = Callable[..., subprocess.CompletedProcess]


def _display_name(env: Mapping[str, str]) -> str | None:
    return env.get("DISPLAY") or None


def check_display(env: Mapping[str, str]) -> Check:
    x, wayland = env.get("DISPLAY"), env.get("WAYLAND_DISPLAY")
    if x:
        extra = f" (and Wayland {wayland}: deskgate uses XWayland)" if wayland else ""
        return Check("display", OK, f"DISPLAY={x}{extra}")
    if wayland:
        return Check("display", FAIL, f"Wayland ({wayland}) without XWayland: deskgate cannot see or drive "
                                      "windows", "log in to an X11 session, or enable XWayland (DISPLAY set)")
    return Check("display", FAIL, "neither DISPLAY nor WAYLAND_DISPLAY is set", _DISPLAY_FIX)


def _x_display(name: str):
    from Xlib import display as xdisplay  # python-xlib comes with pynput on Linux

    return xdisplay.Display(name)


def check_x(env: Mapping[str, str]) -> list[Check]:
    """The X connection, then what deskgate reads from the window manager through it."""
    name = _display_name(env)
    if name is None:
        return [Check("x connection", FAIL, "no X display to connect to", _SEE_DISPLAY),
                Check("window manager", FAIL, "no X display: the active window cannot be read", _SEE_DISPLAY),
                Check("system tray", WARN, "no X display: no tray icon", _SEE_DISPLAY)]
    try:
        d = _x_display(name)
    except Exception as err:  # python-xlib raises several unrelated types for "cannot connect"
        return [Check("x connection", FAIL, f"cannot connect to X display {name}: {err}",
                      "check that the X server runs and that XAUTHORITY points at your cookie (xhost/xauth)"),
                Check("window manager", FAIL, "no X connection", "fix the X connection first"),
                Check("system tray", WARN, "no X connection", "fix the X connection first")]
    try:
        out = [Check("x connection", OK, f"connected to {name} ({d.get_display_name()}, "
                                         f"screen {d.screen().width_in_pixels}x{d.screen().height_in_pixels})")]
        out.append(_check_wm(d))
        out.append(_check_tray(d))
        return out
    finally:
        d.close()


def _check_wm(d) -> Check:
    root = d.screen().root
    atom = d.intern_atom
    wm_fix = ("run an EWMH window manager (any desktop environment's, or e.g. apt install jwm / openbox): "
              "deskgate binds every approval to the active window it reports")
    check = root.get_full_property(atom("_NET_SUPPORTING_WM_CHECK"), 0)
    if check is None or not check.value:
        return Check("window manager", FAIL, "no EWMH window manager (_NET_SUPPORTING_WM_CHECK is not set)", wm_fix)
    wm_window = d.create_resource_object("window", check.value[0])
    wm_name = "?"
    try:
        prop = wm_window.get_full_property(atom("_NET_WM_NAME"), atom("UTF8_STRING"))
        if prop is not None:
            wm_name = prop.value.decode("utf-8", "replace") if isinstance(prop.value, bytes) else str(prop.value)
    except Exception:  # a WM that set the hint but not its name: still a WM
        pass
    supported = root.get_full_property(atom("_NET_SUPPORTED"), 0)
    active = atom("_NET_ACTIVE_WINDOW")
    if supported is None or active not in list(supported.value):
        return Check("window manager", FAIL, f"window manager {wm_name!r} does not report _NET_ACTIVE_WINDOW",
                     wm_fix)
    return Check("window manager", OK, f"{wm_name} (EWMH, _NET_ACTIVE_WINDOW supported)")


def _check_tray(d) -> Check:
    owner = d.get_selection_owner(d.intern_atom(f"_NET_SYSTEM_TRAY_S{d.get_default_screen()}"))
    if owner is None or owner == 0 or getattr(owner, "id", 1) == 0:
        return Check("system tray", WARN, "no system tray (_NET_SYSTEM_TRAY_S0 has no owner): no tray icon; the "
                                          "kill hotkey and `deskgate kill` still work",
                     "use a panel with a notification area, or a standalone tray: apt install stalonetray")
    return Check("system tray", OK, f"tray owned by window 0x{owner.id:x}")


def check_tools(which: Callable[[str], str | None] = shutil.which) -> list[Check]:
    out = []
    for tool, why, fix in _TOOLS:
        path = which(tool)
        out.append(Check(f"tool {tool}", OK, path) if path else
                   Check(f"tool {tool}", WARN, f"{tool} is not installed ({why})", fix))
    return out


def check_system_tools(which: Callable[[str], str | None] = shutil.which,
                       systemd: bool | None = None) -> list[Check]:
    """The tools the simple commands (`deskgate do`, `system` actions) need, asked of app/systemactions
    itself: a family whose command cannot be planned here warns, naming the packages that would fix it."""
    from app.errors import DeskgateError
    from app.execute.systemactions import PACKAGES, READINESS, plan_system

    out = []
    for name, params, covers, tools in READINESS:
        try:
            cmd = plan_system(name, params, max_delay_s=600, which=which, systemd=systemd)
        except DeskgateError as err:
            packages = " or ".join(dict.fromkeys(PACKAGES[t] for t in tools))
            systemd_only = all(PACKAGES[t] == "systemd" for t in tools)
            out.append(Check(f"tool for {name}", WARN, f"`{covers}` cannot run: {err.message}",
                             f"apt install {packages}" + (" (on a machine that runs systemd)" if systemd_only else "")))
            continue
        out.append(Check(f"tool for {name}", OK, f"{covers}: {cmd.argv[0]}"))
    return out


def _qxcb_path() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    for base in (spec.submodule_search_locations or []) if spec else []:
        for rel in ("Qt/plugins/platforms/libqxcb.so", "plugins/platforms/libqxcb.so"):
            p = Path(base) / rel
            if p.exists():
                return p
    return None


def check_qt_xcb(run: Runner = subprocess.run) -> Check:
    """The tray and dialogs need Qt's xcb plugin, whose libraries are not part of the wheel."""
    plugin = _qxcb_path()
    if plugin is None:
        return Check("qt xcb plugin", FAIL, "PySide6's libqxcb.so was not found",
                     "reinstall PySide6-Essentials in deskgate's environment")
    if shutil.which("ldd") is None:
        return Check("qt xcb plugin", WARN, f"{plugin} found; ldd is not installed, so its libraries were not checked",
                     "apt install libc-bin")
    try:
        r = run(["ldd", str(plugin)], capture_output=True, text=True, timeout=_SUBPROCESS_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as err:
        return Check("qt xcb plugin", WARN, f"ldd failed: {err}")
    missing = sorted({line.split("=>")[0].strip() for line in r.stdout.splitlines() if "not found" in line})
    if missing:
        packages = sorted({_LIB_PACKAGES.get(lib, lib) for lib in missing})
        return Check("qt xcb plugin", FAIL, f"libqxcb.so cannot load: missing {', '.join(missing)}",
                     f"apt install {' '.join(packages)}")
    return Check("qt xcb plugin", OK, f"{plugin.name}: every library found")


def check_pynput(env: Mapping[str, str], run: Runner = subprocess.run) -> Check:
    """The kill hotkey listens through pynput; its backend is chosen at import, so try it in a child."""
    if _display_name(env) is None:
        return Check("pynput backend", FAIL, "no X display: the kill hotkey cannot listen", _SEE_DISPLAY)
    try:
        r = run(probe_argv("pynput"), capture_output=True, text=True, env=dict(env), timeout=_SUBPROCESS_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as err:
        return Check("pynput backend", FAIL, f"pynput could not be tried: {err}")
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["unknown error"])[-1]
        return Check("pynput backend", FAIL, f"pynput cannot start: {last}",
                     "pip install pynput (with python-xlib) in deskgate's environment; X must accept connections")
    return Check("pynput backend", OK, r.stdout.strip())


# Code a probe runs in a child process: an import that picks a backend at import time can fail or hang,
# and must not do so in the doctor itself.
PROBES = {"pynput": "import pynput.keyboard as k; print(k.Listener.__module__)"}


def probe_argv(name: str) -> list[str]:
    """The command that runs PROBES[name] in a child. A PyInstaller bundle has no `python -c`: its
    executable is deskgate, which runs the probe through `deskgate doctor --probe NAME`."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "doctor", "--probe", name]
    return [sys.executable, "-c", PROBES[name]]


def run_probe(name: str) -> int:
    """`deskgate doctor --probe NAME`: run one probe here (in the child), exit status 0 when it worked."""
    exec(compile(PROBES[name], f"<probe {name}>", "exec"), {})  # a constant of this module, never input
    return 0


def check_socket_dir(paths: Paths, uid: int | None = None) -> Check:
    uid = os.getuid() if uid is None else uid
    d = paths.runtime_dir
    try:
        st = d.stat()
    except FileNotFoundError:
        parent = next(p for p in d.parents if p.exists())
        if os.access(parent, os.W_OK | os.X_OK):
            return Check("socket dir", OK, f"{d} does not exist yet; `deskgate serve` creates it (0700)")
        return Check("socket dir", FAIL, f"{d} cannot be created: {parent} is not writable",
                     "set XDG_RUNTIME_DIR to a directory you own (normally /run/user/$UID)")
    problems = []
    if st.st_uid != uid:
        problems.append(f"owned by uid {st.st_uid}, not {uid}")
    mode = stat.S_IMODE(st.st_mode)
    if mode != 0o700:
        problems.append(f"mode {mode:04o}, not 0700")
    if problems:
        return Check("socket dir", FAIL, f"{d}: {'; '.join(problems)}: other users could reach the socket",
                     f"chown $USER {d} && chmod 700 {d}")
    sock = paths.socket
    if sock.exists():
        smode = stat.S_IMODE(sock.stat().st_mode)
        if smode & 0o077:
            return Check("socket dir", WARN, f"{sock} has mode {smode:04o}", f"chmod 600 {sock}")
    return Check("socket dir", OK, f"{d} (0700, yours)")


def check_audit(paths: Paths) -> list[Check]:
    db = paths.db
    if not db.exists():
        parent = next((p for p in (db.parent, *db.parents) if p.exists()), None)
        if parent is not None and os.access(parent, os.W_OK | os.X_OK):
            return [Check("audit log", OK, f"{db} does not exist yet; the first `deskgate serve` creates it")]
        return [Check("audit log", FAIL, f"{db} cannot be created ({parent} is not writable)",
                      f"make {db.parent} writable for your user")]
    from app.audit.reader import AuditError, AuditReader

    out: list[Check] = []
    mode = stat.S_IMODE(db.stat().st_mode)
    try:
        reader = AuditReader(db)
    except AuditError as err:
        return [Check("audit log", FAIL, str(err), f"move {db} aside; deskgate starts a new log")]
    try:
        result = reader.verify()
    finally:
        reader.close()
    if mode & 0o077:
        out.append(Check("audit log", WARN, f"{db} has mode {mode:04o}: others can read what agents did",
                         f"chmod 600 {db}"))
    else:
        out.append(Check("audit log", OK, f"{db} opens ({result.rows} rows)"))
    try:
        conn = sqlite3.connect(db, timeout=2.0)
        try:
            conn.execute("BEGIN IMMEDIATE")  # takes the write lock, writes nothing
            conn.execute("ROLLBACK")
        finally:
            conn.close()
        out.append(Check("audit writable", OK, "a write transaction can start"))
    except sqlite3.Error as err:
        out.append(Check("audit writable", FAIL, f"cannot write to {db}: {err}; every action would be refused",
                         f"check the permissions and free space of {db.parent}"))
    if result.ok:
        out.append(Check("audit chain", OK, f"hash chain verifies over {result.rows} rows"))
    else:
        out.append(Check("audit chain", FAIL, f"hash chain broken: {result.problem}",
                         "the log was edited or damaged: keep a copy for investigation (`deskgate log verify`)"))
    return out


def check_policy(paths: Paths) -> tuple[Check, object | None]:
    from gate import PolicyError, load_policy

    path = paths.policy if paths.policy.exists() else None
    try:
        policy = load_policy(path)
    except PolicyError as err:
        return Check("policy", FAIL, str(err), "fix the file (`deskgate policy validate`)"), None
    where = str(path) if path else "shipped defaults (no user policy file)"
    return Check("policy", OK, f"{where}, preset {policy.preset}"), policy


def check_fence(policy) -> Check:
    from app.execute.fence import Fence

    status = Fence(policy.fence).check()
    if status.available:
        return Check("shell fence", OK, "bubblewrap can create a sandbox")
    fix = ("apt install bubblewrap; if it is installed, allow unprivileged user namespaces "
           "(sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0)")
    if not policy.fence.enabled:
        return Check("shell fence", WARN, f"the fence is off in the policy ({status.reason})", fix)
    if policy.fence.required:
        return Check("shell fence", FAIL, f"{status.reason}: every shell action will be refused", fix)
    return Check("shell fence", WARN, f"{status.reason}: shell actions run unfenced (fence.required = false)", fix)


def check_syslog(policy, paths: Paths) -> Check | None:
    """[audit.syslog]: a bad target, or rows the last forwarding run could not deliver (None when off)."""
    conf = policy.audit.syslog
    if not conf.enabled:
        return None
    from app.audit.syslog import SyslogError, SyslogTarget, read_stats

    try:
        target = SyslogTarget.parse(conf.target)
    except SyslogError as err:
        return Check("syslog forwarding", FAIL, str(err), "fix `audit.syslog.target` in your policy file")
    stats = read_stats(paths.syslog_stats)
    if stats is None:
        return Check("syslog forwarding", OK, f"to {target}; no counters yet (deskgate has not run with it)")
    if stats.get("dropped"):
        total = stats["dropped"] + stats.get("sent", 0)
        return Check("syslog forwarding", WARN,
                     f"to {target}: {stats['dropped']:,} of {total:,} row(s) not delivered (last error: "
                     f"{stats.get('last_error') or '-'}); the local audit log has every row",
                     "check that the collector is up and reachable; `deskgate log export --since ...` "
                     "exports a gap for the central store")
    return Check("syslog forwarding", OK, f"to {target}: {stats.get('sent', 0):,} row(s) delivered, none dropped")


def check_kill_state(paths: Paths) -> Check:
    from app.daemon.killstate import KillStateFile

    record = KillStateFile(paths.kill_state).load()
    if record is None:
        return Check("kill switch", OK, "not killed")
    return Check("kill switch", WARN, f"killed by {record.by}: {record.reason}; no agent action runs",
                 "`deskgate resume` once you know why it was killed")


_A11Y_FIX = ("apt install at-spi2-core dbus-user-session, and run deskgate inside your desktop session; Qt apps "
             "expose their widgets only with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 (or an assistive setting on)")


def check_accessibility(env: Mapping[str, str]) -> Check:
    """The AT-SPI registry answers on the session bus: deskgate reads the element under a click itself."""
    from app.desktop.a11y import A11yReader

    reader = A11yReader(session_bus=env.get("DBUS_SESSION_BUS_ADDRESS") or "")
    try:
        apps = reader.probe()
    except Exception as err:  # A11yUnavailable, or the registry not answering (a D-Bus error)
        return Check("accessibility", WARN, f"cannot read the accessibility tree ({err}); clicks are judged by "
                                            "text recognition, or by the label the agent gives", _A11Y_FIX)
    finally:
        reader.close()
    return Check("accessibility", OK, f"AT-SPI registry answers ({apps} applications expose their widgets)")


def check_ocr() -> Check:
    """Tesseract runs: where no accessible element is found, deskgate reads the text around a click."""
    from app.desktop.ocr import OcrUnavailable, tesseract_version

    try:
        version = tesseract_version()
    except OcrUnavailable as err:
        return Check("text recognition", WARN, f"{err}; where the accessibility tree names nothing, clicks are "
                                               "judged by the label the agent gives",
                     "apt install tesseract-ocr tesseract-ocr-eng")
    return Check("text recognition", OK, f"tesseract {version}")


def run_checks(paths: Paths, env: Mapping[str, str] | None = None, *, run: Runner = subprocess.run,
               which: Callable[[str], str | None] = shutil.which) -> list[Check]:
    env = os.environ if env is None else env
    checks = [check_display(env), *check_x(env), *check_tools(which), *check_system_tools(which), check_qt_xcb(run),
              check_pynput(env, run), check_socket_dir(paths), *check_audit(paths), check_accessibility(env),
              check_ocr()]
    policy_check, policy = check_policy(paths)
    checks.append(policy_check)
    if policy is not None:
        checks.append(check_fence(policy))
        if (syslog := check_syslog(policy, paths)) is not None:
            checks.append(syslog)
    checks.append(check_kill_state(paths))
    return checks


def format_checks(checks: list[Check]) -> str:
    width = max(len(c.name) for c in checks)
    lines = []
    for c in checks:
        lines.append(f"{c.status.upper():<4}  {c.name:<{width}}  {c.detail}")
        if c.fix and c.status != OK:
            lines.append(f"{'':<4}  {'':<{width}}  fix: {c.fix}")
    fails = sum(c.status == FAIL for c in checks)
    warns = sum(c.status == WARN for c in checks)
    lines.append(f"{fails} failed, {warns} warnings, {len(checks) - fails - warns} ok")
    return "\n".join(lines) + "\n"
