"""Rules: typing or clicking that attacks a web site, feeds a rogue Wi-Fi portal, or plants a program in the
Startup folder.

    block.typed.web-attack-payload   text typed into a web page's form or search box that is a working attack on
                                     the site: script that runs when the page shows it (`<script>` with a body, an
                                     element with an event handler, a `javascript:` frame or link), an SQL
                                     injection (a quote closed then a condition that always holds, a UNION SELECT,
                                     a stacked DROP, a trailing comment), a Content-Security-Policy or header
                                     injected into a value (`'unsafe-inline'`, a CR-LF and a header)
    block.typed.portal-password      a password or Wi-Fi key typed into a page served from a private address (a
                                     captive portal, a rogue access point's page) that poses as another site's
                                     sign-in or asks for the network's key for a firmware update or a reconnect
    confirm.typed.portal-sign-in     an e-mail, phone or user name typed into such a page; a Wi-Fi key typed into
                                     any page on a private address
    confirm.gui.portal-submit        clicking such a page's Connect, Join, Log in, Next, Update or "Log in with ..."
    confirm.typed.startup-folder     the Startup folder (`shell:startup`, `shell:common startup`, its path, Linux's
                                     autostart and macOS's LaunchAgents) typed into a Run box or an address bar
    block.gui.startup-shortcut       Paste, Paste Shortcut or New > Shortcut in a window showing the Startup folder:
                                     the program pasted there runs at every logon (ATT&CK T1547.001)

A code editor, a programming question or a playground, a search for "SQL injection" or a `<b>` typed into a
comment pass; a router's own settings page the person opened, a page on a private address with a port (a local
test server), and Explorer in any other folder are judged as before.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import unquote

from gate.fields import credential_field, field_text, into_a_field, label_text, typed_text
from gate.model import Risk
from gate.prefix import Guarded
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.gui import PASTE_KEYS, key_combo
from gate.typed import Destination, code_editor, destination
from gate.urls import UrlParts, split_url

__all__ = ["RULES"]

_LIMIT = 4096

# -- attacks on a web site typed into its forms -------------------------------------------------------------------

_XSS = re.compile(
    r"<\s*script\b[^>]*>[^<]{0,800}?[(=.\[`]|<\s*script\b[^>]*\bsrc\s*=|"
    r"<\s*[a-z][a-z0-9]*\b[^>]*?[\s/\"']on[a-z]{3,30}\s*=|"
    r"<\s*(?:iframe|frame|embed|object|a|img|form|base|link|meta)\b[^>]*\b(?:src|href|data|action|content)\s*=\s*"
    r"[\"'`]?\s*(?:javascript|vbscript|data:text/html)|"
    r"[\"'`]\s*>\s*<\s*(?:script|svg|img|iframe|body)\b|"
    r"\balert\s*\(\s*[`'\"]?(?:xss|1|document)|\bdocument\.cookie\b|\bString\.fromCharCode\s*\(",
    re.IGNORECASE)
# A quote (or a number) that closes the site's own string, then SQL: a condition that always holds, a UNION
# SELECT, a stacked statement, a timing probe, or a comment that cuts the rest of the query off.
_SQLI = re.compile(
    r"['\"`]\s*\)*\s*(?:or|and|\|\||&&)\s+\(?\s*(?:['\"]?(\w{1,20})['\"]?\s*(?:=|like)\s*['\"]?\1\b|"
    r"\d+\s*[=<>]|true\b|not\s+false\b|[\w.]+\s+is\s+(?:not\s+)?null\b|[\w.]+\s*(?:=|<>|!=|<|>)|sleep\s*\(|"
    r"benchmark\s*\(|exists\s*\()|"
    r"['\"`\d]\s*\)*\s*union\s+(?:all\s+)?select\b|"
    r"['\"`]\s*\)*\s*;\s*(?:drop|delete|update|insert|truncate|alter|shutdown|exec(?:ute)?|declare|select)\b|"
    r"['\"`]\s*\)*\s*(?:--|#|/\*)\s*-?\s*$|"
    r"\bwaitfor\s+delay\s+'|\bpg_sleep\s*\(|\b(?:or|and)\s+\d+\s*=\s*\d+\s*(?:--|#|/\*)",
    re.IGNORECASE)
# a policy or a header injected into a value the site echoes into its headers
_HEADER = re.compile(
    r";\s*(?:script|default|object|style|img|connect|frame|base)-src\b[^\n]{0,200}'(?:unsafe-inline|unsafe-eval)'|"
    r"(?:%0d%0a|\r\n|%0a|\\r\\n)\s*(?:set-cookie|location|content-security-policy|content-type|"
    r"x-xss-protection|access-control-allow-origin)\s*:",
    re.IGNORECASE)
# where code is written, shown or asked about: markup and SQL typed there are text, not an attack
_CODE_HOSTS = re.compile(
    r"(?:^|\.)(?:stackoverflow\.com|stackexchange\.com|superuser\.com|serverfault\.com|askubuntu\.com|"
    r"github\.com|gitlab\.com|bitbucket\.org|gist\.github\.com|codepen\.io|jsfiddle\.net|jsbin\.com|"
    r"codesandbox\.io|replit\.com|stackblitz\.com|regex101\.com|sqlfiddle\.com|db-fiddle\.com|dbfiddle\.uk|"
    r"onecompiler\.com|programiz\.com|w3schools\.com|developer\.mozilla\.org|owasp\.org|portswigger\.net|"
    r"leetcode\.com|hackerrank\.com|reddit\.com|dev\.to|medium\.com|chatgpt\.com|claude\.ai|"
    r"gemini\.google\.com|learn\.microsoft\.com)$")
_CODE_FIELD = re.compile(
    r"\b(?:code|snippet|source|html|markup|sql|query editor|editor|body|question|answer|comment|description|"
    r"markdown|payload example|sample|template|regex|pattern|test string|prompt|scripts?|javascript|js|css|"
    r"custom html|widget|tag manager|custom tag|header|footer|theme|plugin|snippet)\b")


def _page(ctx: Context) -> UrlParts | None:
    url = ctx.observation.url
    return split_url(url) if url else None


def _web_attack(ctx: Context) -> tuple[str, str] | None:
    text = ctx.derived(typed_text).raw
    if not 4 <= len(text) <= _LIMIT or not into_a_field(ctx) or ctx.derived(code_editor):
        return None
    if not any(c in text for c in "<'\"`;%"):
        return None
    from gate.rules.typed import typed_verdict

    if ctx.derived(destination) is Destination.ADDRESS_BAR or ctx.derived(typed_verdict).kind == "url":
        return None  # an address typed is judged as the page it opens (the web-attack URL rules)
    target = ctx.action.target
    if target is None or not (target.label or target.name or target.role):
        return None  # no field named: where it lands is unknown (an address typed bare asks as a probe)
    page = _page(ctx)
    if page is None or page.scheme not in ("http", "https") or not page.host or _CODE_HOSTS.search(page.host):
        return None
    if _CODE_FIELD.search(ctx.derived(field_text).words):
        return None
    plain = unquote(text) if "%" in text else text
    for kind, pattern in (("cross-site scripting", _XSS), ("SQL injection", _SQLI), ("header injection", _HEADER)):
        m = pattern.search(plain)
        if m is not None:
            return kind, m.group(0)
    return None


@rule("block.typed.web-attack-payload", "A cross-site scripting, SQL or header injection typed into a site's form",
      risk=Risk.CRITICAL, types=("type",), confidence=0.85)
def web_attack_payload(ctx: Context) -> CheckResult:
    """Text typed into a web page's form, search box or profile field that is a working attack on the site:
    script that runs when the page shows it (`<script>` with a body, a tag with an `on...=` handler, an iframe
    or link whose source is `javascript:`), an SQL injection (a quote closed, then a condition that always
    holds, `UNION SELECT`, a stacked statement or a comment cutting the query), or a policy or header injected
    into a value (`; script-src 'unsafe-inline'`, CR-LF then `Set-Cookie:`). Typing it attacks the site and
    its other visitors. A code editor, a programming question or playground, a field for code or a comment,
    and a search for the words "SQL injection" pass."""
    found = ctx.derived(_web_attack)
    if found is None:
        return None
    kind, what = found
    return f"a {kind} payload typed into the site's form ({what[:60]!r})"


# -- rogue Wi-Fi portals: a page on a private address posing as a sign-in ------------------------------------

_PRIVATE_NETS = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                                         "169.254.0.0/16", "100.64.0.0/10"))
# what a rogue portal's window says: another site's sign-in, a network that wants its key, a firmware update
_PORTAL_LURE = re.compile(
    r"\b(?:google|gmail|facebook|instagram|yahoo|microsoft|outlook|hotmail|office ?365|apple|icloud|twitter|"
    r"linkedin|amazon|paypal|netflix|starbucks|mcdonald'?s|gopro|whatsapp|tiktok|snapchat|"
    r"sign in|sign-in|signin|log ?in|login|connexion|anmelden|iniciar sesi[oó]n|accedi|entrar|inloggen|"
    r"wi-?fi|wlan|hotspot|captive|free internet|guest network|network (?:settings|access|key)|"
    r"firmware|update|upgrade|actualizaci[oó]n|mise [àa] jour|aktualisierung|aggiornamento|atualiza[cç][aã]o|"
    r"authentication required|re-?connect|reconnect|session (?:expired|timed out)|verify|verification|"
    r"needs an update|connect)\b", re.IGNORECASE)
_WIFI_KEY = re.compile(r"\b(?:wpa2?|wpa3|wep|psk|pre-?shared key|passphrase|network key|security key|"
                       r"wi-?fi (?:password|key)|wlan[- ]?(?:passwort|schl[uü]ssel|key)|cl[eé] wi-?fi|"
                       r"contrase[nñ]a (?:wi-?fi|de red)|mot de passe (?:wi-?fi|du r[ée]seau))\b", re.IGNORECASE)
_PASSWORD_FIELD = re.compile(r"\b(?:password|passwd|passcode|pass|pin|passwort|kennwort|mot de passe|"
                             r"contrase[nñ]a|senha|wachtwoord|パスワード|密码)\b", re.IGNORECASE)
_ACCOUNT_FIELD = re.compile(r"\b(?:e-?mail|phone|mobile|user ?name|username|login|account|number|"
                            r"courriel|handy|telefon|tel[eé]fono|telefone|correo|benutzer)\b", re.IGNORECASE)
_SUBMIT = re.compile(
    r"^(?:(?:log ?in|login|sign ?in|connect|join|continue|next|submit|verify|confirm|accept|agree|start|"
    r"get started|update|upgrade|install|register|sign up)\b|.*\b(?:log ?in|login|sign ?in|continue|connect) "
    r"(?:with|using|via)\b|.*\b(?:connect|join|upgrade|update now|start update|start upgrade)\b)",
    re.IGNORECASE)
_NOT_SUBMIT = re.compile(r"\b(?:cancel|forgot|help|back|close|privacy|terms|learn more|not now|skip)\b",
                         re.IGNORECASE)


def _portal(ctx: Context) -> str | None:
    """The page's private address when the page is a portal-shaped page served from one (no port, or 80/443)."""
    page = _page(ctx)
    if page is None or page.scheme not in ("http", "https") or page.port not in (None, 80, 443):
        return None
    host = page.host.strip("[]")
    if ":" not in host and not host.replace(".", "").isdigit():
        return None  # a name, not an address (`ip_address` would refuse it, at the price of an exception)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    return page.host if any(ip in net for net in _PRIVATE_NETS) else None


def _lure(ctx: Context) -> str | None:
    m = _PORTAL_LURE.search(ctx.observation.window_title or "")
    return m.group(0) if m else None


def _portal_password(ctx: Context) -> str | None:
    host = ctx.derived(_portal)
    if host is None or not ctx.derived(typed_text).raw.strip():
        return None
    lure = _lure(ctx)
    field = ctx.derived(field_text).raw
    if lure is None or not (_PASSWORD_FIELD.search(field) or _WIFI_KEY.search(field) or
                            ctx.derived(credential_field)):
        return None
    return f"a password typed into a page on the private address {host} posing as {lure!r}"


@rule("block.typed.portal-password", "A password typed into another site's sign-in served from a private address",
      risk=Risk.CRITICAL, types=("type",), confidence=0.85)
def portal_password(ctx: Context) -> CheckResult:
    """A password or a Wi-Fi key typed into a page served from a private address (10.x, 172.16-31.x,
    192.168.x) whose window names another site's sign-in (Google, Facebook, Instagram...), a Wi-Fi service,
    a firmware update or a network that asks for its key again: the page of a rogue access point (an evil
    twin) that harvests what is typed. No real sign-in is served from the local network."""
    return ctx.derived(_portal_password)


@rule("confirm.typed.portal-sign-in", "An account name or a Wi-Fi key typed into a sign-in page on a private address",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def portal_sign_in(ctx: Context) -> CheckResult:
    """An e-mail address, a phone number or a user name typed into a page on a private address whose window
    names another site's sign-in or a Wi-Fi service; or a Wi-Fi key typed into any page on a private address:
    a rogue portal collects both, a person decides. (A password there is `block.typed.portal-password`.)"""
    host = ctx.derived(_portal)
    if host is None or not ctx.derived(typed_text).raw.strip() or ctx.derived(_portal_password):
        return None
    field = ctx.derived(field_text).raw
    if _WIFI_KEY.search(field):
        return f"a Wi-Fi key typed into a page on the private address {host}"
    if _lure(ctx) is not None and _ACCOUNT_FIELD.search(field):
        return f"an account name typed into a sign-in page on the private address {host}"
    return None


@rule("confirm.gui.portal-submit", "Submitting a sign-in, connect or update form on a private-address portal",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def portal_submit(ctx: Context) -> CheckResult:
    """A click on Log in, Connect, Join, Next, Start update or "Log in with ..." on a page served from a
    private address whose window names another site's sign-in, a Wi-Fi service or a firmware update (or whose
    button itself connects, joins or updates): it sends what the page collected to a rogue portal, or starts
    its fake update. Cancel, Forgot password and a router's Save or Apply are judged as before."""
    host = ctx.derived(_portal)
    label = ctx.derived(label_text).raw.strip()
    if host is None or not label or len(label) > 60 or _NOT_SUBMIT.search(label) or not _SUBMIT.search(label):
        return None
    if _lure(ctx) is None and not re.search(r"\b(?:connect|join|update|upgrade|with|using|via)\b", label,
                                            re.IGNORECASE):
        return None
    return f"{label!r} on a sign-in or update page served from the private address {host}"


# -- the Startup folder --------------------------------------------------------------------------------------

_STARTUP_PLACE = Guarded(re.compile(
    r"\bshell:\s*(?:common\s+)?startup\b|start menu[\\/]programs[\\/]startup\b|"
    r"\\startup\s*$|\.config/autostart\b|/etc/xdg/autostart\b|library/launch(?:agents|daemons)\b|"
    r"\bshell:\s*(?:common\s+)?(?:autostart|démarrage)\b",
    re.IGNORECASE))
_FILE_MANAGER = re.compile(r"\b(?:explorer|file explorer|windows explorer|finder|nautilus|files|dolphin|thunar|"
                           r"nemo|caja|pcmanfm|total commander|directory opus|xyplorer)\b", re.IGNORECASE)
_STARTUP_WINDOW = re.compile(r"^(?:startup|autostart|démarrage|autostart|inicio|avvio automatico|opstarten|"
                             r"launchagents|launchdaemons)$|start menu[\\/]programs[\\/]startup|"
                             r"\.config/autostart|library/launch(?:agents|daemons)", re.IGNORECASE)
_PLANT = re.compile(r"^(?:paste(?: shortcut| here)?|new\s*[>›/]\s*shortcut|shortcut|create shortcut(?: here)?|"
                    r"einf[uü]gen|verkn[uü]pfung einf[uü]gen|coller|coller le raccourci|pegar|pegar acceso directo|"
                    r"incolla|incolla collegamento|colar|colar atalho|plakken|snelkoppeling plakken|"
                    r"make alias|paste item|paste items)$", re.IGNORECASE)


@rule("confirm.typed.startup-folder", "The Startup folder opened from a Run box or an address bar",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def startup_folder(ctx: Context) -> CheckResult:
    """`shell:startup`, `shell:common startup`, the Start Menu's Startup path, `~/.config/autostart` or
    `~/Library/LaunchAgents` typed into a Run box, an address bar or a file manager: the folder whose programs
    run at every logon, opened to put one there. A person decides."""
    text = ctx.derived(typed_text).raw.strip()
    if not 6 <= len(text) <= 300 or _STARTUP_PLACE.search(text) is None:
        return None
    where = ctx.derived(destination)
    obs = ctx.observation
    if where in (Destination.RUN_DIALOG, Destination.ADDRESS_BAR) or \
            _FILE_MANAGER.search(f"{obs.app or ''}\n{obs.window_title or ''}"):
        return f"the Startup folder ({text[:60]!r}) opened in {where.value}"
    return None


def _startup_window(ctx: Context) -> bool:
    return bool(_STARTUP_WINDOW.search((ctx.observation.window_title or "").strip()))


@rule("block.gui.startup-shortcut", "A program pasted or linked into the Startup folder",
      risk=Risk.CRITICAL, types=("click", "key"), confidence=0.85)
def startup_shortcut(ctx: Context) -> CheckResult:
    """Paste, Paste Shortcut, New > Shortcut (or Ctrl+V) in a window showing the Startup folder (or Linux's
    autostart, macOS's LaunchAgents): what is put there runs at every logon, the persistence ATT&CK names
    T1547.001. Other folders pass."""
    if not ctx.derived(_startup_window):
        return None
    if ctx.action.type == "key":
        if ctx.derived(key_combo) not in PASTE_KEYS:
            return None
        return "pasted into the Startup folder: it runs at every logon"
    label = " ".join(ctx.derived(label_text).raw.split())
    if not label or _PLANT.match(label) is None:
        return None
    return f"{label!r} in the Startup folder: it runs at every logon"


RULES: tuple[Rule, ...] = (web_attack_payload, portal_password, portal_sign_in, portal_submit, startup_folder,
                           startup_shortcut)
