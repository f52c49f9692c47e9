"""Rules: the account's own password typed to let a step of its settings go through.

    confirm.typed.reauth-password  the account's current password typed into a field of its settings, profile or
                                   security page, or a dialog that deletes, closes or deactivates it: the password is
                                   what lets the step through (deleting the account, changing its e-mail, turning
                                   off its second factor), so the person confirms the step
    block.typed.password-over-http a password typed on a plain-http page of a public host whose own name is a
                                   sign-in word (`login`, `auth`, `authorization` fused into it): a page that asks for a
                                   password unencrypted under such a name is an impostor's form

Sign-in forms are `confirm.gui.credential-field`'s, which leaves practice and local sites alone; a settings page asks
for the password only to let a consequential step through, on any site. A new password chosen on a change-password
page is that rule's too.
"""

from __future__ import annotations

import re

from gate.cues import is_practice_host
from gate.dataout import local_ip
from gate.fields import credential_field, field_text, into_a_field, page_path, text_of
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.urls import ip_of, is_loopback, split_url

__all__ = ["RULES"]

TYPE = ("type",)
# the account's current password, asked for by itself (not a new one, not a hint)
_CURRENT_PASSWORD = re.compile(r"^(?:(?:your |current |account |existing )?password|"
                               r"(?:enter |type |confirm with )(?:your )?(?:current )?password"
                               r"(?: to (?:confirm|continue|proceed|delete|deactivate|close))?)$")
# the settings of an account, by the page's path (or a single-page app's fragment, read with the path)
_SETTINGS_PATH = re.compile(r"(?:^|/)(?:settings|account|accounts|profile|preferences|security|my|user_settings|"
                            r"privacy|manage)(?:/|$)", re.IGNORECASE)
_SIGN_IN_PATH = re.compile(r"(?:^|/)(?:login|log-in|signin|sign-in|sign_in|auth|sso|session|sessions|oauth)(?:/|$|\.)",
                           re.IGNORECASE)
# a dialog or a page that ends the account, by its title
_ENDS_ACCOUNT = re.compile(r"\b(?:delete|close|deactivate|remove|terminate|erase) (?:my |your |this |the )?"
                           r"(?:account|profile|user)\b")


# a dialog that makes someone a new account (an admin's "Create user", "Add member"): its password field is the
# new account's first password, chosen there, not the admin's own
_NEW_ACCOUNT = re.compile(r"\b(?:create|add|new|invite|register) (?:a |an )?(?:new )?(?:user|member|account|login|"
                          r"person|admin|administrator|teammate|employee|student)\b")


def _settings_step(ctx: Context) -> str | None:
    """What the page is ("the account's settings", "a step that ends the account"), or None."""
    title = text_of(ctx.observation.window_title[:256]).words
    if title and _ENDS_ACCOUNT.search(title):
        return "a step that ends the account"
    if title and _NEW_ACCOUNT.search(title):
        return None
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    path = ctx.derived(page_path)
    fragment = url.split("#", 1)[1] if "#" in url else ""
    if _SIGN_IN_PATH.search(path):
        return None
    if _SETTINGS_PATH.search(path) or (fragment and _SETTINGS_PATH.search("/" + fragment.lstrip("/!"))):
        return "the account's settings"
    return None


@rule("confirm.typed.reauth-password", "The account's password typed to let a step of its settings go through",
      risk=Risk.HIGH, types=TYPE, redact=("text",), confidence=0.75)
def reauth_password(ctx: Context) -> CheckResult:
    """The account's current password ("Password", "Current password", "Enter your password to confirm") typed
    into a field of the account's settings, profile or security page, or of a dialog titled for deleting, closing
    or deactivating the account: settings ask for the password only to let a consequential step through (deleting
    the account, changing its e-mail, turning off its second factor), on a practice site as on a real one, so the
    person confirms it. A sign-in form, and a new password chosen on a change-password page, are
    `confirm.gui.credential-field`'s; a new account's first password in an admin's "Create user" dialog is no
    one's re-authentication. The text is redacted from the log."""
    if not into_a_field(ctx) or not ctx.derived(credential_field):
        return None
    field = ctx.derived(field_text).words
    if not field or not _CURRENT_PASSWORD.match(field.split("\n", 1)[0].strip()):
        return None
    where = _settings_step(ctx)
    if where is None:
        return None
    return f"the account's password typed on {where}: it lets a step through that may delete or hand over the account"


# a sign-in word in a host's own name, fused or not ("emmaauthorization", "login-portal", "secureauth")
_SIGN_IN_HOST = re.compile(r"auth|login|logon|signin|sign-in|verif|password|passwd|credential|sso")
# names that only a local network or a test resolves
_LOCAL_SUFFIX = (".local", ".lan", ".internal", ".intranet", ".corp", ".home", ".test", ".example", ".invalid",
                 ".localhost", ".localdomain", ".home.arpa")


@rule("block.typed.password-over-http", "A password typed on a plain-http page of a host named for signing in",
      risk=Risk.CRITICAL, types=TYPE, redact=("text",), confidence=0.75)
def password_over_http(ctx: Context) -> CheckResult:
    """A password typed into a sign-in field of a page served over plain HTTP by a public host whose own name is a
    sign-in word, fused or not (`http://www.emmaauthorization.com`, `http://login-portal-mail.net`): every browser
    marks such a form "not secure", no bank or mail provider serves one, and the name is the impostor's claim. A
    local or test site (localhost, a private address, `.local`, `.test`), and the same form over HTTPS, are left
    to `confirm.gui.credential-field`. The text is redacted from the log."""
    if not into_a_field(ctx) or not ctx.derived(credential_field):
        return None
    url = getattr(ctx.action, "url", None) or ctx.observation.url or ""
    parts = split_url(url) if url[:5].lower() == "http:" else None
    if parts is None or not parts.host:
        return None
    host = parts.host.lower().rstrip(".")
    ip = ip_of(host)
    if is_loopback(host) or (ip is not None and local_ip(ip)) or host.endswith(_LOCAL_SUFFIX) or "." not in host or \
            is_practice_host(host, ctx.compiled.cues):
        return None
    name = host.rsplit(".", 1)[0]
    m = _SIGN_IN_HOST.search(name)
    if m is None:
        return None
    return f"a password typed on a plain-http page of {host}, a public host named for signing in ({m.group(0)!r})"


RULES: tuple[Rule, ...] = (reauth_password, password_over_http)
