"""Rules: a bare label or a switch state on a system's or a browser's settings surface, read from the window.

"On", "Allow", "Administrator" or "Weiter" say nothing alone; the window's title (and the page's address, where
there is one) names the page or the dialog, and the label means what that page does: "Aan" on "Remote Desktop"
opens the machine to another computer, "Désactivé" on the firewall's panel turns it off, "Erlauben" on a request
to control the screen hands the mouse to a stranger. What names those pages and what the bare answers are, in
each language, are the `[context.*]` tables of resources/cues.toml under "windows" (gate/cues.py folds them the
way titles and labels are folded).

- `block.gui.remote-control-stranger`: a request to drive the screen accepted from a caller who claims to be
  support, a bank's or a vendor's team, or an unknown number;
- `confirm.gui.remote-access-on`: a way into the machine switched on (remote desktop, remote login, screen
  sharing, remote control) on its settings page, or a request to see or drive the screen accepted;
- `confirm.gui.protection-window-off`: a bare "off" on a firewall's or an antivirus's panel;
- `confirm.gui.admin-account-type`: "Administrator" chosen on a page of the machine's user accounts;
- `confirm.gui.addon-install`: an add-on or software install let through on a browser's install prompt, or an
  extension loaded from a folder in developer mode;
- `confirm.gui.hidden-pref-toggle`: a protection's hidden preference flipped on `about:config` or a flags page;
- `confirm.gui.saved-logins-removed`: saved passwords removed on a browser's password manager;
- `confirm.gui.bank-limit-change`: a card's or an account's spending limit changed, or the bare step that
  commits it on the limit page;
- `confirm.gui.card-end-step`: the step that blocks or closes a card for good, on its page.

Opening these pages, "Off" where it closes a way in, "Cancel", "Don't allow" and asking to see someone else's
screen pass.
"""

from __future__ import annotations

import re

from gate.fields import short
from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.gui import label_text
from gate.rules.webapp import url_words
from gate.rules.window_cues import cue, cue_match, first_label, title_words
from gate.urls import action_url, split_url

__all__ = ["RULES"]





def _page_words(ctx: Context) -> str:
    return url_words(_url(ctx))


def _page(ctx: Context) -> str:
    """The words of the page's address after its host, read once per action."""
    return ctx.derived(_page_words)



def _url(ctx: Context) -> str:
    return (action_url(ctx) or ctx.observation.url or "").strip()


def _matches(ctx: Context, name: str, words: str) -> str | None:
    m = cue_match(ctx, name, words)
    return m.group(0).strip() if m is not None else None


# what a label that hands the screen over says beyond the way in's name: the person's own screen, or control
_HANDS_OVER = re.compile(r"\b(?:my|mein\w*|mon|mi|minha|mio|mijn|mój|moim|моим|control|steuerung|contrôle|controle|"
                         r"controllo|besturing|sterowanie|управление)\b|控制|操作|제어")


def _remote_access(ctx: Context) -> tuple[str, str | None] | None:
    """(why, the window's way-in words or None) for a click that lets another computer in, else None."""
    first = first_label(ctx)
    if not first or _matches(ctx, "switch-off", first):
        return None
    label = ctx.derived(label_text)
    named = _matches(ctx, "remote-access-label", first)
    window = _matches(ctx, "remote-access-window", title_words(ctx))
    if window is not None and (named or _matches(ctx, "switch-on", first)):
        return f"lets another computer in on {short(ctx.observation.window_title, 60)!r}: {short(label.raw)!r}", window
    if named is not None and _HANDS_OVER.search(named):
        return f"hands control of the screen over: {short(label.raw)!r}", None
    return None


@rule("block.gui.remote-control-stranger", "A request to control the screen accepted from a self-styled support "
      "caller or an unknown number", risk=Risk.CRITICAL, types=("click",), confidence=0.85)
def remote_control_stranger(ctx: Context) -> str | None:
    """The request window (or the dialog a remote-support tool shows) names who asks, and that is a caller
    claiming to be technical support, a bank's security team, Microsoft or Apple, or an unknown number: real
    support does not call in to take over a screen, and this is how tech-support and bank-helpdesk scams empty
    accounts. Accepting a request from a known contact asks (`confirm.gui.remote-access-on`); declining passes."""
    got = _remote_access(ctx)
    if got is None or got[1] is None:
        return None
    who = _matches(ctx, "remote-requester-stranger", title_words(ctx))
    if who is None:
        return None
    return f"{got[0]} — the request comes from {who!r}, not from someone the person knows"


@rule("confirm.gui.remote-access-on", "A way into the machine switched on, or a request to control the screen "
      "accepted", risk=Risk.HIGH, types=("click",), confidence=0.8)
def remote_access_on(ctx: Context) -> str | None:
    """On a page that opens the machine to another computer (remote desktop, remote login, screen sharing, remote
    management) or on a request to see or drive the screen (a call app's, a chat app's or a remote-support tool's
    incoming request), a bare "on" answer or the way in's own name switches it on or lets the caller in: with it,
    whoever is on the other end works the mouse and the keyboard. A label that hands control over wherever it is
    ("Allow control", "Control my screen", "Invite to access my screen") asks too. "Off", "Don't allow", "End
    remote control" and asking to see someone else's screen pass."""
    got = _remote_access(ctx)
    return got[0] if got is not None else None


@rule("confirm.gui.protection-window-off", "A bare 'off' on a firewall's or an antivirus's panel", risk=Risk.HIGH,
      types=("click",), confidence=0.8)
def protection_window_off(ctx: Context) -> str | None:
    """The window is a panel of one of the machine's protections (the firewall of a network profile, real-time
    virus protection, tamper protection, SmartScreen, user account control) and the label is a bare "off" state
    or verb ("Off", "Désactivé", "Uit", "Wyłącz"): the switch turns it off. "On" there, the same words in other
    windows, and "Disabled" on a setting whose own name turns the protection off (a group policy's "Turn off
    real-time protection") pass."""
    first = first_label(ctx)
    if not first or not _matches(ctx, "switch-off", first):
        return None
    title = title_words(ctx)
    window = _matches(ctx, "protection-window", title)
    if window is None or _matches(ctx, "inverted-title", title):
        return None  # "Disabled" on a policy named "Turn off real-time protection" keeps it on
    return f"turns {window!r} off on {short(ctx.observation.window_title, 60)!r}"


@rule("confirm.gui.admin-account-type", "An account made an administrator on the users page", risk=Risk.HIGH,
      types=("click",), confidence=0.75)
def admin_account_type(ctx: Context) -> str | None:
    """On a settings page of the machine's user accounts, the account type "Administrator" (in any language) gives
    that account power over the whole machine: it installs, reads every file, makes more accounts. "Standard"
    there, and "Administrator" on other pages, pass. Web pages are left to the web rules."""
    if _url(ctx).startswith(("http://", "https://")):
        return None
    first = first_label(ctx)
    if not first or not _matches(ctx, "admin-label", first):
        return None
    if _matches(ctx, "users-window", title_words(ctx)) is None:
        return None
    return f"makes an account an administrator on {short(ctx.observation.window_title, 60)!r}"


@rule("confirm.gui.addon-install", "An add-on or software install let through, or an extension side-loaded",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def addon_install(ctx: Context) -> str | None:
    """A browser's install prompt (the title or the store's address names an add-on, software installation that is
    switched off, a site that wants to install one, an unverified module) answered "Add", "Install", "Enable" or
    "Continue installation": the add-on then reads every page. "Add extension" installs one by itself. "Load
    unpacked" (developer mode) or "Load temporary add-on" installs one from a folder, past the store's review; "Allow
    from this source" on a phone's unknown-apps page and "Anywhere" as where apps may come from let any installer
    in. "Cancel", "Don't allow", "Remove" and the store-only choice pass."""
    label = ctx.derived(label_text)
    first = first_label(ctx)
    if not first:
        return None
    if _matches(ctx, "sideload-label", first):
        return f"loads an extension from a folder, past the store's review: {short(label.raw)!r}"
    if _matches(ctx, "addon-install-label", first):
        return f"installs a browser extension: {short(label.raw)!r}"
    if not _matches(ctx, "install-commit", first):
        return None
    where = _matches(ctx, "install-window", title_words(ctx)) or _matches(ctx, "install-window", _page(ctx))
    if where is None:
        return None
    return f"installs an add-on or software ({where}): {short(label.raw)!r}"


def _filtered_pref(ctx: Context) -> str:
    """The preference the page is filtered to (`about:config?filter=network.trr.mode`), in the title's words: the
    filtered list shows that one preference, so its switch is the one clicked."""
    query = _url(ctx).partition("?")[2]
    for part in query.split("&"):
        name, _, value = part.partition("=")
        if name.lower() in ("filter", "search") and value:
            return " ".join(re.split(r"[.\-_%]+", value.lower())).strip()
    return ""


@rule("confirm.gui.hidden-pref-toggle", "A protection's hidden preference flipped on the browser's config page",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def hidden_pref_toggle(ctx: Context) -> str | None:
    """On `about:config` or a flags page, "Toggle", "Reset" or "Edit" on a preference that holds a protection
    (`security.*`, `xpinstall.*`, `extensions.*`, Safe Browsing's, DNS over HTTPS's `network.trr.*`, the proxy's):
    the page has no warning of its own for each switch. Copying a name or a value passes, and so do other
    preferences."""
    config = cue(ctx, "config-page")
    if config is None or config.match(_url(ctx).lower()) is None:
        return None
    first = first_label(ctx)
    if not first or not _matches(ctx, "config-toggle", first):
        return None
    pref = _matches(ctx, "security-pref", title_words(ctx)) or _matches(ctx, "security-pref", _filtered_pref(ctx))
    if pref is None:
        return None
    return f"flips a protection's hidden preference ({short(ctx.observation.window_title, 60)!r})"


@rule("confirm.gui.saved-logins-removed", "Saved passwords removed in the browser's password manager",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def saved_logins_removed(ctx: Context) -> str | None:
    """On the browser's store of saved passwords (`about:logins`, `chrome://password-manager`), "Remove",
    "Remove all" or "Delete": the saved logins are gone, and the browser keeps no copy. Copying a name, opening an
    entry and the list of breached sites pass."""
    page = cue(ctx, "password-manager-page")
    if page is None or page.match(_url(ctx).lower()) is None:
        return None
    first = first_label(ctx)
    if not first or not _matches(ctx, "removal-label", first):
        return None
    return f"removes saved passwords: {short(ctx.derived(label_text).raw)!r}"


@rule("confirm.gui.bank-limit-change", "A card's or an account's spending limit changed", risk=Risk.HIGH,
      types=("click",), confidence=0.75)
def bank_limit_change(ctx: Context) -> str | None:
    """A label that changes a payment, transfer or card limit ("Increase limit", "Limit ändern", "Tymczasowa
    zmiana limitu"), or the bare step that commits ("Weiter", "Zatwierdź", "Confirm") on a page whose title or
    address names such a limit: a raised limit is how a caller posing as the bank empties the account. Opening
    the limits page, reading one limit and "Continue" elsewhere pass."""
    label = ctx.derived(label_text)
    first = first_label(ctx)
    if not first:
        return None
    if _matches(ctx, "limit-change-label", first):
        return f"changes a spending limit: {short(label.raw)!r}"
    if not _matches(ctx, "step-commit", first):
        return None
    where = _limit_page(ctx)
    if where is None:
        return None
    return f"commits a limit change ({where}): {short(label.raw)!r}"


def _limit_page(ctx: Context) -> str | None:
    """The words that make the page one of a bank's spending limits: a money limit named in the title or the
    address, or a bare limit word where the site, the address or the title is a bank's or a card's."""
    title, page = title_words(ctx), _page(ctx)
    named = _matches(ctx, "limit-page", title) or _matches(ctx, "limit-page", page)
    if named is not None:
        return named
    bare = _matches(ctx, "limit-word", title) or _matches(ctx, "limit-word", page)
    if bare is None:
        return None
    host = (split_url(_url(ctx)) or None)
    site = " ".join((host.host.replace(".", " ") if host is not None and host.host else "", page, title))
    return bare if _matches(ctx, "money-site", site) else None


@rule("confirm.gui.card-end-step", "The step that blocks or closes a card for good", risk=Risk.HIGH,
      types=("click",), confidence=0.75)
def card_end_step(ctx: Context) -> str | None:
    """On a card's page or step that blocks it for good or closes it (its title or address says "block card
    permanently", "Kartensperre", "faire opposition"), the lock verb, the commit or the card chosen carries it out:
    the card stops working and a paid replacement is often ordered with it. A freeze on the card's own page (lifted
    again with one tap) passes."""
    first = first_label(ctx)
    if not first or not _matches(ctx, "card-end-label", first):
        return None
    where = _matches(ctx, "card-end-page", title_words(ctx)) or _matches(ctx, "card-end-page", _page(ctx))
    if where is None:
        return None
    return f"blocks or closes a card for good ({where}): {short(ctx.derived(label_text).raw)!r}"


RULES: tuple[Rule, ...] = (remote_control_stranger, remote_access_on, protection_window_off, admin_account_type,
                           addon_install, hidden_pref_toggle, saved_logins_removed, bank_limit_change, card_end_step)
