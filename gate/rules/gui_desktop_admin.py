"""Rules: a Linux desktop's administration windows, read from the window and the label or the text typed.

A sandboxed app's permissions editor (Flatseal, the Flatpak permissions page of KDE's or GNOME's settings) says
what a toggle grants only by its label: "All user files" hands the app the home folder, "All system files" the
whole machine, "Secure Shell agent" the person's SSH keys in use. The same holds for what is typed into its lists:
a folder of keys, a loader variable. The firewall's, the snapshot tool's, the updater's and the screen lock's
windows have plain labels that change how the machine is protected or rolled back. What names these windows and
labels is the `[context.*]` tables of resources/cues.toml (`sandbox-*`, `admin-tool-*`).

- `block.gui.sandbox-escape`: a grant that takes the app out of its sandbox by itself (the whole file system, the
  Flatpak portal), a key or credential folder, or a loader variable given to it;
- `confirm.gui.sandbox-widened`: any other grant beyond the app's own data;
- `confirm.gui.admin-tool-change`: the firewall's default zone or masquerading, a snapshot restored over the
  system, a package's updates ignored for good, the screen's automatic lock toggled.

The GPU, the windowing system, a documents folder typed into the list, "Create" and "Browse" in
the snapshot tool, "Refresh" in the updater pass.
"""

from __future__ import annotations

import re

from gate.fields import short
from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.window_cues import cue_match, first_label, title_words

__all__ = ["RULES"]

# what typed into a sandbox's file list or environment takes the app out: a folder of keys or credentials, a
# browser profile, the start-up folders, or a variable that has every program it starts load a library
_SECRET_PLACE = re.compile(r"^(?:~|/home/[^/\s]+|xdg-config|xdg-data|\$home)?/?(?:\.ssh|\.gnupg|\.aws|\.kube|\.docker|"
                           r"\.password-store|\.local/share/keyrings|\.mozilla|\.config/(?:google-chrome|chromium|"
                           r"bravesoftware|autostart|systemd)|\.bashrc|\.profile|\.zshrc|keyrings|autostart)(?:/|:|$)")
_LOADER_VARIABLE = re.compile(r"^\s*(?:ld_preload|ld_library_path|ld_audit|gtk_modules|gio_extra_modules|"
                              r"python(?:path|startup)|node_options|perl5opt|bash_env)\s*=", re.I)
_TYPED_GRANT = re.compile(r"^(?:host|host-os|host-etc|home|/|~|org\.freedesktop\.(?:secrets|flatpak)\S*|"
                          r"org\.freedesktop\.systemd1|org\.kde\.kwalletd\d*)(?::rw|:ro|:create)?$", re.I)


def _sandbox_window(ctx: Context) -> str | None:
    title = title_words(ctx) or ""
    app = (ctx.observation.app or "").lower()
    m = cue_match(ctx, "sandbox-window", title) or cue_match(ctx, "sandbox-window", app)
    return m.group(0).strip() if m is not None else None


@rule("block.gui.sandbox-escape", "A sandboxed app let out of its sandbox in its permissions editor",
      risk=Risk.CRITICAL, types=("click", "type"), confidence=0.8)
def sandbox_escape(ctx: Context) -> str | None:
    """In a sandboxed app's permissions editor, a toggle that takes the app out by itself ("All system files": the
    whole machine; the Flatpak portal, which starts programs outside), or a folder of keys or credentials, a
    browser profile, a start-up folder or a loader variable typed into its lists: the app reads the keys or runs
    code in every program it starts. A documents folder or a theme variable typed there passes."""
    window = _sandbox_window(ctx)
    if window is None:
        return None
    if ctx.action.type == "click":
        first = first_label(ctx)
        if first and cue_match(ctx, "sandbox-escape", first, anchored=True):
            return f"lets a sandboxed app out of its sandbox ({first!r} in {window})"
        return None
    text = (getattr(ctx.action, "text", "") or "").strip()
    if _LOADER_VARIABLE.match(text):
        return f"gives a sandboxed app a variable that loads code into what it runs ({short(text, 40)!r})"
    if _SECRET_PLACE.match(text.lower()):
        return f"gives a sandboxed app a folder of keys or start-up files ({short(text, 40)!r})"
    return None


@rule("confirm.gui.sandbox-widened", "A sandboxed app given more of the machine in its permissions editor",
      risk=Risk.HIGH, types=("click", "type"), confidence=0.8)
def sandbox_widened(ctx: Context) -> str | None:
    """In a sandboxed app's permissions editor, a toggle that reaches beyond the app's own data (the person's files,
    the system's configuration, every device, the system or session bus, the SSH or GPG agent, the keyring), or the
    same typed into its lists (`home`, `host`, the secrets service's bus name): the app reaches what it was kept
    from. The GPU, the windowing system and a documents folder typed there pass."""
    window = _sandbox_window(ctx)
    if window is None:
        return None
    if ctx.action.type == "click":
        first = first_label(ctx)
        if first and cue_match(ctx, "sandbox-grant", first, anchored=True):
            return f"widens a sandboxed app's permissions ({first!r} in {window})"
        return None
    text = (getattr(ctx.action, "text", "") or "").strip()
    if _TYPED_GRANT.match(text):
        return f"widens a sandboxed app's permissions ({short(text, 40)!r} in {window})"
    return None


@rule("confirm.gui.admin-tool-change", "The firewall, snapshots, updates or screen lock changed in their own window",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def admin_tool_change(ctx: Context) -> str | None:
    """In a desktop's administration window (the firewall's configuration, the snapshot tool, the update manager,
    the screen lock's settings), a plain label that changes how the machine is protected or rolled back: the
    firewall's default zone or masquerading, a snapshot restored over the running system, a package's updates
    ignored for good, the automatic screen lock toggled. "Create", "Browse", "Refresh" and "Log Denied" pass."""
    first = first_label(ctx)
    if not first or not cue_match(ctx, "admin-tool-verb", first, anchored=True):
        return None
    title = title_words(ctx) or (ctx.observation.app or "").lower()
    window = cue_match(ctx, "admin-tool-window", title, anchored=True)
    if window is None:
        return None
    return f"{first!r} in {short(ctx.observation.window_title or window.group(0), 60)!r}"


RULES: tuple[Rule, ...] = (sandbox_escape, sandbox_widened, admin_tool_change)
