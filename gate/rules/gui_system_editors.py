"""Rules: the system-wide editors a person reaches from a settings app: the hosts file, the environment variables
and the settings pages that own the machine's accounts, recovery and tracking.

What is typed or clicked there acts for every program and every later session, yet the window says it with a plain
label ("Save", "Reset", "Add account") or a bare line (`0.0.0.0 some.host`, `C:\\Tools`). What names these windows,
pages and hosts is the `[context.*]` tables of resources/cues.toml (`hosts-editor-window`, `protection-update-host`,
`env-editor-window`, `account-settings-page`, `settings-passive-label`).

- `block.gui.protection-host-sunk`: an antivirus's, the updater's or safe browsing's update host pointed elsewhere
  in the hosts file: protection silently stops updating;
- `block.gui.path-hijack`: a folder anyone can write (Public, a temporary or downloads folder, ProgramData) put on
  PATH: a program dropped there runs in place of the one a name meant;
- `confirm.gui.system-editor-change`: any other entry typed into the hosts file or a PATH-like variable, or the
  editor's "Save"/"Apply";
- `confirm.gui.account-settings-change`: a control clicked on a settings page that changes the machine's accounts,
  device management, recovery, device tracking, start-up apps or connection sharing.

Opening the editors, searching them, and "Back", "Cancel" or "Learn more" on those pages pass.
"""

from __future__ import annotations

import re

from gate.fields import short
from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.window_cues import cue_match, first_label, title_words
from gate.urls import action_url

__all__ = ["RULES"]

_HOSTS_LINE = re.compile(r"^\s*(?:\d{1,3}(?:\.\d{1,3}){3}|::1?|[0-9a-f:]+:[0-9a-f:]*)\s+(\S+(?:\s+\S+)*)\s*$", re.I)
# folders any local user or a download can write into: a program there is whoever put it there
_WRITABLE_FOLDER = re.compile(r"(?:^|;)\s*(?:[a-z]:\\users\\public\b|%public%|%temp%|%tmp%|\$env:te?mp|"
                              r"[a-z]:\\(?:windows\\)?temp\b|[a-z]:\\users\\[^\\;]+\\appdata\\local\\temp\b|"
                              r"[a-z]:\\users\\[^\\;]+\\downloads\b|%userprofile%\\downloads\b|[a-z]:\\programdata\b|"
                              r"%programdata%|%allusersprofile%)", re.I)
_PATH_FIELD = re.compile(r"\b(?:path|pathext|psmodulepath|pythonpath|classpath|variable value)\b", re.I)
_SAVE = re.compile(r"^(?:save|apply|ok|add|add entry|set)$")


def _window(ctx: Context, name: str) -> bool:
    title = title_words(ctx)
    app = (ctx.observation.app or "").lower()
    return cue_match(ctx, name, title) is not None or cue_match(ctx, name, app) is not None


def _typed(ctx: Context) -> str:
    return (getattr(ctx.action, "text", "") or "").strip()


def _field(ctx: Context) -> str:
    target = getattr(ctx.action, "target", None)
    return (getattr(target, "label", "") or "") if target is not None else ""


def _host_words(line: str) -> str:
    return " ".join(re.split(r"[.\s]+", line.lower())).strip()


@rule("block.gui.protection-host-sunk", "A protection's update host pointed elsewhere in the hosts file",
      risk=Risk.CRITICAL, types=("type",), confidence=0.85)
def protection_host_sunk(ctx: Context) -> str | None:
    """In a hosts file editor, a line that sends an antivirus's, the system updater's or safe browsing's host to
    another address (`0.0.0.0 update.vendor.example`): the protection stops updating and says nothing. An
    advertising host sent to nothing is judged by `confirm.gui.system-editor-change`."""
    if not _window(ctx, "hosts-editor-window"):
        return None
    m = _HOSTS_LINE.match(_typed(ctx))
    if m is None or cue_match(ctx, "protection-update-host", _host_words(m.group(1))) is None:
        return None
    return f"points a protection's update host elsewhere ({short(_typed(ctx), 60)!r})"


@rule("block.gui.path-hijack", "A folder anyone can write put on PATH", risk=Risk.CRITICAL, types=("type",),
      confidence=0.8)
def path_hijack(ctx: Context) -> str | None:
    """In an environment variables editor, a public, temporary or downloads folder typed into PATH (or another
    search path): any program dropped there runs in place of the one a name meant, for every later session. A
    tools folder of the person's own is judged by `confirm.gui.system-editor-change`."""
    if not _window(ctx, "env-editor-window"):
        return None
    text = _typed(ctx)
    if not _PATH_FIELD.search(_field(ctx)) and "%path%" not in text.lower() and ";" not in text:
        return None
    if _WRITABLE_FOLDER.search(text) is None:
        return None
    return f"puts a folder anyone can write on the search path ({short(text, 60)!r})"


@rule("confirm.gui.system-editor-change", "The hosts file or a search path changed in its editor",
      risk=Risk.HIGH, types=("type", "click"), confidence=0.75)
def system_editor_change(ctx: Context) -> str | None:
    """In a hosts file editor, an address line typed or the file saved; in an environment variables editor, a
    folder typed into PATH (or another search path) or the change applied: each acts for every program on the
    machine. Searching the editor and typing a variable's name pass."""
    hosts = _window(ctx, "hosts-editor-window")
    env = not hosts and _window(ctx, "env-editor-window")
    if not hosts and not env:
        return None
    if ctx.action.type == "click":
        first = first_label(ctx)
        if first and _SAVE.match(first):
            return f"{first!r} writes {'the hosts file' if hosts else 'the environment'}"
        return None
    text = _typed(ctx)
    if hosts:
        return f"adds a hosts entry ({short(text, 60)!r})" if _HOSTS_LINE.match(text) else None
    if _PATH_FIELD.search(_field(ctx)) or re.search(r"^[a-z]:\\|%\w+%|;", text, re.I):
        return f"changes a search path ({short(text, 60)!r})"
    return None


@rule("confirm.gui.account-settings-change", "A change on a settings page for the machine's accounts or recovery",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def account_settings_change(ctx: Context) -> str | None:
    """On a settings page that owns the machine's accounts (adding, disconnecting, a local account instead),
    device management enrolment, recovery and reset, device tracking, the apps that start with it, or the
    connection it shares, any control but the ones that open, close or explain: the page changes who reaches or
    restores the machine. Opening the page passes (`confirm.web.external-handler` excepts it where plain)."""
    url = (action_url(ctx) or ctx.observation.url or "").strip().lower()
    if not url.startswith("ms-settings:") or cue_match(ctx, "account-settings-page", url, anchored=True) is None:
        return None
    first = first_label(ctx)
    if not first or cue_match(ctx, "settings-passive-label", first, anchored=True) is not None:
        return None
    return f"{first!r} on {url.split('?', 1)[0]}"


RULES: tuple[Rule, ...] = (protection_host_sunk, path_hijack, system_editor_change, account_settings_change)
