"""Rules: a Mac's security prompts, read by who drew them and what their button grants.

A prompt's button says little ("Open", "Allow", "OK"); the window's title says what it opens or grants, and the
program that drew the window says whether the system asks at all. The words are `[context.*]` tables of
resources/cues.toml, several languages:

- `block.gui.gatekeeper-override`: "Open Anyway", or "Open" on Gatekeeper's refusal (an unknown developer, no
  notarisation, known malware): an app the system would not run, let past it;
- `block.gui.imitated-password-prompt`: a password typed into, or sent on from, a prompt drawn by a script
  (`osascript`'s `display dialog`, swiftDialog) or an app that words it as the system's own authorisation: the
  password goes to whoever drew it;
- `block.gui.grant-to-script`: a keychain secret, a privacy power (Automation, Accessibility, Screen Recording,
  files) or a background item granted to a script interpreter or to a name posing as Apple's;
- `block.gui.keychain-reveal`: a saved password shown, copied or exported in Keychain Access or Passwords;
- `confirm.gui.software-store`: installing, updating, removing a program or signing out in a software store or
  the organisation's self-service app;
- `confirm.gui.downloaded-open`: "Open" in a file manager's Downloads or a mounted installer's window;
- `confirm.gui.force-quit`: a program ended at once from the Force Quit window or a process manager.

The system's own prompts (SecurityAgent, the settings app), "Cancel", "Don't Allow", "Move to Trash", "Done" and
an app the person opens past the ordinary first-launch question pass these rules.
"""

from __future__ import annotations

import re

from gate.fields import credential_field, short, text_of
from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.window_cues import cue_match, first_label, title_words
from gate.shell import BROWSER_APP

__all__ = ["RULES"]

_APP_LIMIT = 128
# the requester named at the start of a grant prompt: “osascript” wants ..., Terminal would like ...
_REQUESTER = re.compile(r"^\W*(.+?)\W*\s+(?:wants|would like|möchte|souhaite|quiere|vuole|deseja)\b", re.IGNORECASE)
# the item a "Background Items Added" notice names, and a name claiming Apple's: Apple's own never ask
_NAMED_ITEM = re.compile(r"[“\"']([^”\"']{1,120})[”\"']")
_POSES_AS_APPLE = re.compile(r"^com\.apple\.", re.IGNORECASE)


def _app(ctx: Context) -> str:
    app = ctx.observation.app or ""
    return text_of(app[:_APP_LIMIT]).words.replace("\n", " ").strip() if app else ""


def _in_browser(ctx: Context) -> bool:
    return bool((ctx.observation.url or "").startswith(("http://", "https://")) or
                BROWSER_APP.search(ctx.derived(_app)))


@rule("block.gui.gatekeeper-override", "An app Gatekeeper refused, opened anyway", risk=Risk.CRITICAL,
      types=("click",), confidence=0.85)
def gatekeeper_override(ctx: Context) -> str | None:
    """"Open Anyway" in Privacy & Security or on the alert itself, or "Open" on the alert that says macOS cannot
    verify the developer, that the app was not opened, or that it will damage the computer: the system refused
    to run the program and the click runs it, the way most Mac malware gets in. "Move to Trash", "Done" and
    "Open" on the ordinary question about an app downloaded from the Internet (a notarised app) pass."""
    if _in_browser(ctx):
        return None
    label = first_label(ctx)
    if not label:
        return None
    title = title_words(ctx)
    if cue_match(ctx, "mac-open-anyway", label):
        return f"opens an app Gatekeeper refused to run: {label!r}"
    if cue_match(ctx, "mac-open", label) and cue_match(ctx, "mac-gatekeeper-alert", title):
        return f"opens an app Gatekeeper refused to run, on {short(ctx.observation.window_title, 60)!r}"
    return None


def _imitated_prompt(ctx: Context) -> str | None:
    """Who drew a password prompt that is not the system's own, or None."""
    if _in_browser(ctx):
        # a page drawn as the system's authorisation prompt (a fake dialog inside the browser's window)
        if cue_match(ctx, "system-auth-only", title_words(ctx)):
            return "a web page drawn as the system's authorisation prompt"
        return None
    app = ctx.derived(_app)
    if app and cue_match(ctx, "mac-script-dialog-app", app, anchored=True):
        return f"a dialog drawn by a script ({ctx.observation.app!r})"
    title = title_words(ctx)
    if app and cue_match(ctx, "system-auth-title", title) and not cue_match(ctx, "system-auth-agent", app):
        return f"{ctx.observation.app!r} drawing the system's authorisation prompt itself"
    return None


@rule("block.gui.imitated-password-prompt", "A password given to a prompt a script or an app drew as the system's",
      risk=Risk.CRITICAL, types=("type", "click"), confidence=0.85)
def imitated_password_prompt(ctx: Context) -> str | None:
    """A password typed into a dialog `osascript` or swiftDialog drew ("A corrupt preference file has been
    detected, enter your password"), or into an app's own copy of the system's authorisation prompt ("... is
    trying to install new software"), or the button that sends such a prompt on: the system asks for an account's
    password only through its own agent (SecurityAgent), so the password goes to whoever drew the window. An
    asset tag or a name typed into an admin's form, "Cancel", and the system's own prompt pass."""
    if ctx.action.type == "type":
        if not credential_field(ctx):
            return None
        who = _imitated_prompt(ctx)
        return f"a password typed into {who}" if who else None
    label = first_label(ctx)
    if not label or not cue_match(ctx, "prompt-commit", label):
        return None
    who = _imitated_prompt(ctx)
    if who is None:
        return None
    title = title_words(ctx)
    if cue_match(ctx, "system-auth-title", title) or re.search(r"\bpassword\b", title):
        return f"sends a password prompt on: {who}"
    return None


def _requester(ctx: Context) -> str:
    title = (ctx.observation.window_title or "")[:256]
    named = _REQUESTER.match(title)
    return text_of(named.group(1)).words.replace("\n", " ").strip() if named else ""


@rule("block.gui.grant-to-script", "A keychain secret or a privacy power granted to a script or an Apple impostor",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def grant_to_script(ctx: Context) -> str | None:
    """"Allow" or "Always Allow" on the prompt that gives a program the keychain's confidential information, the
    control of another app (Automation), the screen, the keystrokes, the files or a place among the background
    items, when the program is a script interpreter (`osascript`, `python3`, `sh`): the grant goes to whatever
    script it runs next, the way stealers drive Finder and read the browsers' keys. And a background item named
    as Apple's (`com.apple.…`): the system's own items never ask. "Deny", "Don't Allow" and a named app pass
    here (the grant asks elsewhere)."""
    if _in_browser(ctx):
        return None
    label = first_label(ctx)
    title = title_words(ctx)
    if not label or not cue_match(ctx, "mac-grant-commit", label) or not cue_match(ctx, "mac-grant-title", title):
        return None
    requester = ctx.derived(_requester)
    if requester and cue_match(ctx, "script-host", requester, anchored=True):
        return f"grants {requester!r}, a script interpreter, {short(ctx.observation.window_title, 80)!r}"
    item = _NAMED_ITEM.search(ctx.observation.window_title or "")
    if item is not None and _POSES_AS_APPLE.match(item.group(1).strip()):
        return f"lets {item.group(1)!r}, a name posing as Apple's, run or reach what it asks"
    return None


@rule("block.gui.keychain-reveal", "A saved password shown, copied or exported from the keychain",
      risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def keychain_reveal(ctx: Context) -> str | None:
    """"Show password", "Copy Password to Clipboard" or "Export Items…" in Keychain Access or the Passwords app:
    the account's saved passwords and keys leave the keychain. Browsing the certificates and "Show password" on a
    web page's own login form (what the person typed) pass."""
    if _in_browser(ctx):
        return None
    app = ctx.derived(_app)
    label = first_label(ctx)
    if not app or not label or not cue_match(ctx, "keychain-app", app, anchored=True):
        return None
    if cue_match(ctx, "keychain-reveal", label):
        return f"takes saved passwords out of the keychain: {label!r}"
    return None


@rule("confirm.gui.software-store", "Installing, updating or removing a program in a software store",
      risk=Risk.MEDIUM, types=("click",), confidence=0.8)
def software_store(ctx: Context) -> str | None:
    """"Get", "Install", "Update Now", "Update Device", "Remove" or "Sign Out" in the App Store, Managed Software
    Center, a self-service portal, Software Update or an update nagger: what runs on the machine changes (or the
    store's account leaves it), and an update restarts it. "Check Again", "Later", "Defer" and "More Info" pass."""
    if _in_browser(ctx):
        return None
    app = ctx.derived(_app)
    label = first_label(ctx)
    if not app or not label or not cue_match(ctx, "software-store-app", app, anchored=True):
        return None
    if cue_match(ctx, "software-store-commit", label):
        return f"changes the installed programs in {ctx.observation.app!r}: {label!r}"
    return None


@rule("confirm.gui.force-quit", "A program ended at once from a process manager", risk=Risk.MEDIUM,
      types=("click",), confidence=0.8)
def force_quit(ctx: Context) -> str | None:
    """"Force Quit" in the Mac's Force Quit window or Activity Monitor, "End task" in Task Manager, "Kill" in a
    system monitor: the program stops without saving. Opening the window (Cmd+Option+Esc) and choosing a program
    in its list pass; so does "End task" outside a process manager (a to-do list's)."""
    label = first_label(ctx)
    if not label or not cue_match(ctx, "process-kill", label):
        return None
    if cue_match(ctx, "process-manager", title_words(ctx)) or cue_match(ctx, "process-manager", ctx.derived(_app)):
        return f"ends a program at once, what it had not saved is lost: {label!r}"
    return None


_FILE_MANAGER = re.compile(r"^(?:finder|file explorer|explorer(?: exe)?|files|nautilus|dolphin|thunar|nemo|caja)$")


@rule("confirm.gui.downloaded-open", "Opening what a file manager shows in Downloads or an installer's disk",
      risk=Risk.MEDIUM, types=("click",), confidence=0.7)
def downloaded_open(ctx: Context) -> str | None:
    """"Open" in Finder's (or another file manager's) window over Downloads or a mounted installer: the file is
    one from the Internet, and Finder's own "Open" is the way past Gatekeeper's first refusal, so what runs is
    unknown. "Open" in Documents, and "Show in Enclosing Folder" or "Get Info" there, pass."""
    app = ctx.derived(_app)
    if not app or not _FILE_MANAGER.match(app) or not cue_match(ctx, "mac-open", first_label(ctx)):
        return None
    if cue_match(ctx, "downloaded-place", title_words(ctx)):
        return f"opens a downloaded file in {short(ctx.observation.window_title, 60)!r}: what it runs is unknown"
    return None


RULES: tuple[Rule, ...] = (downloaded_open, gatekeeper_override, imitated_password_prompt, grant_to_script,
                           keychain_reveal, software_store, force_quit)
