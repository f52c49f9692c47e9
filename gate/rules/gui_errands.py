"""Rules: a person's everyday errands in desktop apps and the browser, read from the window and the clicked label.

The label alone is plain ("Delete", "Apply", "Add to cart", "Download", "Allow"); the window says what it does:
a messenger that keeps no trash, a tool about to rewrite two hundred files, a shop page of gift cards, a page on a
news site offering a browser update, a prompt a page told the reader to press, a sign-in typed while a caller
watches the screen. What names these windows, labels and hosts is the `[context.*]` tables of resources/cues.toml
(`vanishing-chat-app`, `chat-delete-*`, `browser-reset-label`, `bulk-file-*`, `new-payee-label`, `gift-card-item`,
`shop-commit`, `screen-shared-title`, `login-field`, `browser-update-title`, `update-commit`, `browser-vendor-host`,
`allow-lure`).

- `block.gui.login-while-screen-shared`: a sign-in, a card or a bank detail typed while the window says someone
  else is watching or driving the screen;
- `block.gui.fake-browser-update`: a browser update downloaded or installed from a web page that is not the
  browser maker's (browsers update themselves, from their own settings);
- `block.gui.notification-lure-allow`: "Allow" pressed where the page told the reader to press it to verify or
  to watch (the grant is a stream of scam notifications);
- `block.gui.dangerous-download-kept`: "Keep" or "Download anyway" on the warning that a download is dangerous;
- `block.gui.threat-restored`: a caught threat restored or allowed from the antivirus's quarantine;
- `confirm.gui.chat-deleted`: a whole chat deleted or its history cleared in a messenger that keeps no trash;
- `confirm.gui.browser-reset`: a browser's profile reset (extensions and settings go);
- `confirm.gui.bulk-file-change`: a rename or resize tool's commit over many files, or over the originals;
- `confirm.gui.new-payee`: a new recipient added where money is sent;
- `confirm.gui.gift-card-purchase`: gift or prepaid cards put in the cart or bought.

Reading a chat, "Delete" of one message, "Preview" in the tools, "Redeem", the browser's own update page and an
ordinary page's "Allow" pass or are judged elsewhere.
"""

from __future__ import annotations

from gate.fields import short
from gate.model import Risk
from gate.rules.base import Context, Rule, rule
from gate.rules.webapp import url_words
from gate.rules.window_cues import cue_match, first_label, title_words
from gate.urls import action_url, split_url

__all__ = ["RULES"]


def _app(ctx: Context) -> str:
    return (ctx.observation.app or "").lower()


def _url(ctx: Context) -> str:
    return (action_url(ctx) or "").strip()


def _web_host(ctx: Context) -> str | None:
    parts = split_url(_url(ctx))
    if parts is None or parts.scheme not in ("http", "https") or not parts.host:
        return None
    return parts.host.lower().rstrip(".")


def _page_and_title(ctx: Context) -> str:
    return f"{title_words(ctx)} {url_words(_url(ctx))}".strip()


def _field(ctx: Context) -> str:
    target = getattr(ctx.action, "target", None)
    label = (getattr(target, "label", "") or "") if target is not None else ""
    return " ".join(label.lower().replace("-", " ").split())


@rule("block.gui.login-while-screen-shared", "A sign-in or bank detail typed while someone else sees the screen",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def login_while_screen_shared(ctx: Context) -> str | None:
    """A user name, a password, a card or an account number typed while the window's title says the screen is
    shared with, viewed or driven by someone else (a support session, a remote-control tool connected): the other
    side reads it, and the refund and tech-support scripts ask for exactly this. The same typing with no one
    watching is judged by the credential rules."""
    if cue_match(ctx, "screen-shared-title", title_words(ctx)) is None:
        return None
    field = _field(ctx)
    if not field or cue_match(ctx, "login-field", field) is None:
        return None
    return f"{field!r} typed while the screen is shared ({short(ctx.observation.window_title, 60)!r})"


@rule("block.gui.fake-browser-update", "A browser update downloaded from a web page that is not the browser maker's",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def fake_browser_update(ctx: Context) -> str | None:
    """"Download", "Update now" or "Install" on a web page whose title or address offers a browser update, when
    the page is not the browser maker's own site: browsers update themselves from their own settings page, and a
    site's pop-up update is the usual way malware is handed over. The browser's own update page
    (`chrome://settings/help`, `about:preferences`) and the maker's download page pass."""
    first = first_label(ctx)
    if not first or cue_match(ctx, "update-commit", first, anchored=True) is None:
        return None
    host = _web_host(ctx)
    if host is None or cue_match(ctx, "browser-vendor-host", host) is not None:
        return None
    if cue_match(ctx, "browser-update-title", _page_and_title(ctx)) is None and \
            cue_match(ctx, "browser-update-title", " ".join(host.replace("-", " ").split("."))) is None:
        return None
    return f"a browser update from {host} ({first!r}): browsers update from their own settings"


@rule("block.gui.notification-lure-allow", "Allow pressed where the page told the reader to press it",
      risk=Risk.HIGH, types=("click",), confidence=0.8)
def notification_lure_allow(ctx: Context) -> str | None:
    """"Allow" on a permission prompt when the page's title or address tells the reader to press Allow to verify,
    to prove they are not a robot, or to watch: no check needs a notification permission, and the grant becomes a
    stream of fake virus alerts and prize pop-ups. A calendar's or a mail site's own notification prompt passes."""
    first = first_label(ctx)
    if first not in ("allow", "allow notifications", "always allow"):
        return None
    if cue_match(ctx, "allow-lure", _page_and_title(ctx)) is None:
        return None
    return f"{first!r} pressed because the page said to ({short(ctx.observation.window_title or _url(ctx), 60)!r})"


@rule("block.gui.dangerous-download-kept", "A download the browser warned is dangerous kept anyway",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def dangerous_download_kept(ctx: Context) -> str | None:
    """"Keep", "Keep anyway" or "Download anyway" on the browser's or the system's warning that the file may be
    dangerous: the one check that caught it is overridden, and fake updates and "refund forms" arrive this way.
    "Keep" on a display's "Keep changes?" and "Discard" on the warning pass."""
    first = first_label(ctx)
    if not first or cue_match(ctx, "dangerous-download-keep", first, anchored=True) is None:
        return None
    if cue_match(ctx, "dangerous-download-title", title_words(ctx)) is None:
        return None
    return f"keeps a download the browser called dangerous ({short(ctx.observation.window_title, 60)!r})"


@rule("block.gui.threat-restored", "A caught threat restored or allowed from the antivirus's quarantine",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def threat_restored(ctx: Context) -> str | None:
    """"Restore" or "Allow on device" on an antivirus's protection history or quarantine where the window names
    what was caught (a trojan, a fake update, a severe threat): the file put aside is put back to run. Opening the
    history, "Remove" and "Learn more" pass."""
    first = first_label(ctx)
    if not first or cue_match(ctx, "threat-release", first, anchored=True) is None:
        return None
    where = f"{title_words(ctx)} {url_words(_url(ctx))} {_url(ctx).lower()}"
    if cue_match(ctx, "quarantine-window", where) is None or cue_match(ctx, "threat-name", where) is None:
        return None
    return f"puts a caught threat back ({first!r} on {short(ctx.observation.window_title, 60)!r})"


@rule("confirm.gui.chat-deleted", "A whole chat deleted in a messenger that keeps no trash", risk=Risk.MEDIUM,
      types=("click",), confidence=0.75)
def chat_deleted(ctx: Context) -> str | None:
    """In Signal, Telegram, WhatsApp and other messengers that keep no trash, "Delete chat", "Clear history" or the
    bare "Delete" of their "Delete chat?" dialog: the conversation is gone from this device for good. Opening,
    archiving, muting or blocking a chat passes."""
    if cue_match(ctx, "vanishing-chat-app", _app(ctx), anchored=True) is None:
        return None
    first = first_label(ctx)
    if not first or cue_match(ctx, "chat-delete-label", first, anchored=True) is None:
        return None
    if first == "delete" and cue_match(ctx, "chat-delete-title", title_words(ctx)) is None:
        return None
    return f"deletes a chat for good ({first!r} in {ctx.observation.app})"


@rule("confirm.gui.browser-reset", "A browser's profile reset", risk=Risk.MEDIUM, types=("click",), confidence=0.8)
def browser_reset(ctx: Context) -> str | None:
    """"Refresh Firefox", "Reset settings" or "Restore settings to their original defaults": extensions, their
    data and the person's customisations go, and there is no undo. Opening the troubleshooting page passes."""
    first = first_label(ctx)
    if not first or cue_match(ctx, "browser-reset-label", first, anchored=True) is None:
        return None
    return f"resets the browser's profile ({first!r})"


@rule("confirm.gui.bulk-file-change", "A rename or resize tool's commit over many files or their originals",
      risk=Risk.MEDIUM, types=("click",), confidence=0.75)
def bulk_file_change(ctx: Context) -> str | None:
    """In a bulk rename or image resize tool, "Apply", "Rename" or "Resize" when the window says many files change
    or the originals are overwritten: the tool has no undo for a batch. A preview or a few files pass."""
    where = f"{title_words(ctx)} {_app(ctx)}"
    if cue_match(ctx, "bulk-file-tool", where) is None:
        return None
    first = first_label(ctx)
    if not first or cue_match(ctx, "bulk-file-commit", first, anchored=True) is None:
        return None
    if cue_match(ctx, "bulk-file-scope", title_words(ctx)) is None:
        return None
    return f"{first!r} changes many files in place ({short(ctx.observation.window_title, 60)!r})"


@rule("confirm.gui.new-payee", "A new recipient added where money is sent", risk=Risk.MEDIUM, types=("click",),
      confidence=0.75)
def new_payee(ctx: Context) -> str | None:
    """"Add recipient", "Add payee", "New beneficiary": the next payment can go to them with no further check, and
    scammers' scripts start here. Paying a saved payee is judged by the payment rules."""
    first = first_label(ctx)
    if not first or cue_match(ctx, "new-payee-label", first, anchored=True) is None:
        return None
    return f"adds a new payee ({first!r})"


@rule("confirm.gui.gift-card-purchase", "Gift or prepaid cards put in the cart or bought", risk=Risk.MEDIUM,
      types=("click",), confidence=0.75)
def gift_card_purchase(ctx: Context) -> str | None:
    """"Add to cart" or "Buy now" on a page of gift cards or prepaid cards: the codes are cash to whoever reads
    them, and paying someone in gift cards is what scams ask for. Redeeming a card passes."""
    first = first_label(ctx)
    if not first or cue_match(ctx, "shop-commit", first, anchored=True) is None:
        return None
    if cue_match(ctx, "gift-card-item", _page_and_title(ctx)) is None:
        return None
    return f"buys gift cards ({short(ctx.observation.window_title or _url(ctx), 60)!r})"


RULES: tuple[Rule, ...] = (login_while_screen_shared, fake_browser_update, notification_lure_allow,
                           dangerous_download_kept, threat_restored, chat_deleted,
                           browser_reset, bulk_file_change, new_payee, gift_card_purchase)
