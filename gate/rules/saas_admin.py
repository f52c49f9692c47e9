"""Rules: what a click or a typed field does on a SaaS product's administration pages.

A bare "Save", "Create", "Finish" or "Activate" says nothing; the page says what it commits: a new identity
provider, an API token, a private app, a webhook to another host, a workflow that runs on every record, a new
account. What a page is about, and which labels and fields matter there, is resources/saas_admin.toml
(gate/saas_admin.py), for any console (Okta, Entra, Google Admin, Zendesk, HubSpot, Jira, Redmine, SuiteCRM…).

- `confirm.gui.admin-console-commit`: a commit or a switch turned on where tokens, apps, webhooks, trusted sites,
  workflows, accounts, sign-in policies, mail routing or tenant-wide messages are made;
- `block.gui.identity-provider-added`: an identity provider committed, or its sign-in address typed: whoever
  runs it can then sign in as anyone of the tenant;
- `block.gui.top-role-grant` / `confirm.gui.role-grant`: the tenant's highest role (super admin, global
  administrator, owner) given, or an account made administrator as it is created; a plain admin role asks;
- `block.gui.factor-removal` / `confirm.gui.factor-removal`: an administrator's sign-in factors reset, or the
  sign-in policy weakened for everyone; someone else's factors reset asks;
- `block.gui.unvetted-app-trust`: an app its own page calls unverified made trusted or consented to for the
  whole organisation;
- `block.gui.domain-scopes` / `confirm.gui.domain-scopes`: OAuth scopes over everyone's mail, files or the
  directory typed into domain-wide delegation;
- `block.gui.org-mail-copy`: an address typed into an organisation's mail routing that gets a copy of the mail;
- `confirm.gui.console-endpoint`: another site's address typed as a webhook's, an AI provider's or a trusted
  site's URL;
- `confirm.gui.public-share` / `block.gui.public-share-secret`: a page, a board or an issue opened to anyone on the
  web, or its confidentiality turned off; blocked when its title says it is the organisation's secret;
- `block.gui.ci-fetch-run`: a download piped to a shell typed into a CI or build file;
- `block.typed.image-beacon`: a markdown image whose address carries words of the text in its query: rendering it
  sends them to that host; `block.nav.proxied-beacon`: the same image fetched through a proxy's URL;
- `confirm.gui.device-code`: a device sign-in code typed on the provider's device page;
- `confirm.gui.space-export`: a whole wiki space, project or workspace exported;
- `confirm.typed.inside-story`: several of the organisation's unannounced facts typed where outsiders read them;
- `confirm.gui.broad-token-scope`: a token or an app given a scope over the whole account;
- `block.gui.confidential-share-personal`: a confidential board, file or page shared to a personal mailbox;
- `confirm.gui.admin-account-made`: a new account filled in on a form that makes it an administrator;
- `block.gui.lookalike-account-address`: an address on a look-alike of the organisation's name typed for an account.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from gate.fields import field_text, label_text
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.saas_admin import matches, phrase, place_words, switched, topics, whole, words
from gate.urls import is_loopback, registrable, split_url

__all__ = ["RULES"]

_LABEL_LIMIT = 80


def _page(ctx: Context) -> str:
    obs = ctx.observation
    return place_words(getattr(ctx.action, "url", None) or obs.url or "", obs.window_title or "")


def _topics(ctx: Context) -> frozenset[str]:
    return topics(ctx.derived(_page))


def _label(ctx: Context) -> str:
    raw = ctx.derived(label_text).raw
    return words(raw.split("\n", 1)[0]) if raw and len(raw) <= _LABEL_LIMIT * 2 else ""


_CHANGE_TOPICS = frozenset({"tokens", "delegation", "outbound", "automation", "new-user", "tenant-wide",
                            "mail-routing", "sign-in-policy", "identity-provider"})
_ADMIN_ONLY = frozenset({"new-user", "sign-in-policy"})  # the same words name one's own sign-up and security pages


@rule("confirm.gui.admin-console-commit", "A commit on a console page that makes tokens, apps, hooks or accounts",
      risk=Risk.HIGH, types=("click",), confidence=0.75)
def console_change(ctx: Context) -> CheckResult:
    """"Save", "Create", "Finish", "Activate" or a switch turned on, on an administration page where API tokens,
    private or OAuth apps, webhooks, AI providers, trusted sites, workflows, accounts, sign-in policies, mail
    routing or a tenant-wide message are made: each reaches past the page (a key to the whole account, the
    account's data sent to another host, a rule that runs on every record). Opening those pages, a tab or a
    list passes."""
    label = ctx.derived(_label)
    if not label:
        return None
    found = ctx.derived(_topics) & _CHANGE_TOPICS
    if found & _ADMIN_ONLY and not matches("admin-place", "words", ctx.derived(_page)):
        found -= _ADMIN_ONLY  # a sign-up form, one's own two-step page: the person's own account
    if not found:
        return None
    base, flipped = switched(label)
    if not (whole("commit", "labels").match(label) or (flipped and base)):
        return None
    what = ", ".join(sorted(found))
    return f"clicking {label[:40]!r} on a console page for {what} commits a change that reaches past the page"


@rule("block.gui.identity-provider-added", "A new identity provider committed or its sign-in address typed",
      risk=Risk.CRITICAL, types=("click", "type"), confidence=0.8)
def identity_provider_added(ctx: Context) -> CheckResult:
    """Adding an identity provider to a tenant (a SAML or OIDC IdP, inbound federation, a routing rule that
    sends people to it): whoever runs that provider can then sign in as any person of the tenant, past its
    passwords and factors. The cross-tenant impersonation attacks on Okta and Entra were this. Typing its issuer,
    metadata or sign-in URL, or finishing or activating it, is blocked; listing the providers passes."""
    if "identity-provider" not in ctx.derived(_topics):
        return None
    if ctx.action.type == "click":
        label = ctx.derived(_label)
        base, flipped = switched(label)
        if not label or not (whole("commit", "labels").match(label) or (flipped and base)):
            return None
        return f"clicking {label[:40]!r} adds or turns on an identity provider: its owner can sign in as anyone"
    field = words(ctx.derived(field_text).raw)
    text = getattr(ctx.action, "text", "") or ""
    if not field or not matches("idp-field", "labels", field.split("\n")[0]) or not _foreign_url(ctx, text):
        return None
    return f"an identity provider's sign-in address {text.strip()[:60]!r}: its owner can sign in as anyone"


def _strip_grant(label: str) -> str:
    m = _GRANT_VERB.match(label)
    return label[m.end():].strip() if m else label


_GRANT_VERB = re.compile(r"^(?:make|assign|grant|add as|set as|promote to|change to|give|set role|role)\s(?:an?\s)?")


@rule("block.gui.top-role-grant", "The tenant's highest role given, or an account made administrator as it is made",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def top_role_grant(ctx: Context) -> CheckResult:
    """"Super Admin" (or the button that makes one), "Global Administrator", "Organization owner" chosen on a page of
    admins, users or role assignments, or "Add assignments" on the page of such a role, or "Administrator"
    ticked on a new account: whoever holds it can do everything, make more of themselves and hide it. A plain
    admin role on a project asks (`confirm.gui.role-grant`)."""
    label = ctx.derived(_label)
    if not label:
        return None
    page = ctx.derived(_page)
    role, _ = switched(_strip_grant(label))
    if role and whole("top-role", "highest").match(role) and matches("top-role", "places", page):
        return f"clicking {label[:40]!r} gives the tenant's highest role"
    if role and whole("top-role", "names").match(role) and "new-user" in ctx.derived(_topics) and \
            role not in ("owner", "project admin", "project administrator"):
        return f"clicking {label[:40]!r} makes the new account an administrator"
    if _ASSIGN.match(label) and matches("top-role", "highest", words(ctx.observation.window_title or "")):
        return f"clicking {label[:40]!r} on {ctx.observation.window_title[:50]!r} gives the tenant's highest role"
    return None


_ASSIGN = re.compile(r"^(?:add assignments?|assign|add members?|add|add users?|add admin(?:istrator)?s?)$")


@rule("confirm.gui.role-grant", "An administrator role given on a page of members or users",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def role_grant(ctx: Context) -> CheckResult:
    """"Admin (toggle)", "Make admin", "Administrator", "Owner" on a page of members, users or roles: the person gets
    the project's or the site's administration. Other roles (viewer, editor) pass."""
    label = ctx.derived(_label)
    if not label:
        return None
    role, _ = switched(_strip_grant(label))
    if not role or not whole("top-role", "names").match(role) or not matches("top-role", "places", ctx.derived(_page)):
        return None
    return f"clicking {label[:40]!r} gives an administrator role"


def _factor_label(label: str) -> bool:
    return bool(label) and whole("factor-removal", "labels").match(label) is not None


@rule("block.gui.factor-removal", "An administrator's sign-in factors reset, or the sign-in policy weakened",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def factor_removal(ctx: Context) -> CheckResult:
    """"Reset All", "Reset MFA", "Remove factor" for an account its page names as an administrator, or
    a factor constraint removed, "Password only", "Disable MFA" on a sign-in policy: whoever sets the
    factors up next holds that account, or everyone signs in with a password alone. The help-desk impersonation
    that took Okta super admins started so. Another person's factors reset asks."""
    label = ctx.derived(_label)
    if not _factor_label(label) or "sign-in-policy" not in ctx.derived(_topics):
        return None
    title = words(ctx.observation.window_title or "")
    if matches("factor-removal", "privileged-account", title):
        return f"clicking {label[:40]!r} takes an administrator's sign-in factors away"
    if matches("topic", "sign-in-policy", words(ctx.observation.url or "")) and \
            matches("admin-place", "words", ctx.derived(_page)) and not label.startswith("reset"):
        return f"clicking {label[:40]!r} weakens how everyone of the tenant signs in"
    return None


@rule("confirm.gui.factor-removal", "A person's sign-in factors reset or removed",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def factor_removal_ask(ctx: Context) -> CheckResult:
    """"Reset All", "Reset MFA", "Remove authenticator" where sign-in factors are managed: whoever enrols next
    holds the account. Setting up one's own authenticator passes."""
    label = ctx.derived(_label)
    if not _factor_label(label) or "sign-in-policy" not in ctx.derived(_topics):
        return None
    return f"clicking {label[:40]!r} takes a person's sign-in factors away"


@rule("block.gui.unvetted-app-trust", "An app its page calls unverified trusted or consented to for everyone",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def unvetted_app_trust(ctx: Context) -> CheckResult:
    """"Trusted" on an app-access page, "Accept" on an admin-consent page, "Grant admin consent" for an
    app the page itself marks unverified: the app reads everyone's mail and files, and consent phishing is how
    such apps are planted. The same for a publisher the page verifies asks (other rules)."""
    label = ctx.derived(_label)
    if not label or not _TRUST.match(label):
        return None
    where = words((ctx.observation.window_title or "") + " " + (ctx.derived(label_text).raw or ""))
    if not matches("app-trust", "unvetted", where):
        return None
    return f"clicking {label[:40]!r} trusts an app its page calls unverified"


_TRUST = re.compile(r"^(?:trusted|trust|mark as trusted|accept(?: for your organi[sz]ation)?|grant admin consent\w*|"
                    r"consent on behalf of your organi[sz]ation|allow(?: access)?|authori[sz]e|approve|install app|"
                    r"install for all users)(?:\s|$)")


@rule("block.gui.domain-scopes", "OAuth scopes over everyone's mail, files or directory given to a client",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def domain_scopes(ctx: Context) -> CheckResult:
    """Scopes typed into domain-wide delegation (or an API client's scopes of an admin console) that reach every
    person's mail, files, calendar or the directory (`https://mail.google.com/`, `admin.directory.user`,
    `Mail.ReadWrite`): the client acts as any person without them knowing. A read-only scope of one service asks."""
    if "delegation" not in ctx.derived(_topics):
        return None
    text = words(getattr(ctx.action, "text", "") or "")
    if not text or not matches("scopes", "wide", text):
        return None
    return "scopes over everyone's mail, files or directory given to a client by domain-wide delegation"


@rule("confirm.gui.domain-scopes", "OAuth scopes given to a client over the whole domain",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def domain_scopes_ask(ctx: Context) -> CheckResult:
    """Any scope typed into domain-wide delegation: the client acts as any person of the domain in that service."""
    if "delegation" not in ctx.derived(_topics):
        return None
    text = words(getattr(ctx.action, "text", "") or "")
    if not text or not matches("scopes", "any", text):
        return None
    return "scopes given to a client over the whole domain"


_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w@.-])(?:[\w-]+\.)+[a-z]{2,}(?![\w.-])", re.IGNORECASE)


@rule("block.gui.org-mail-copy", "An address typed into an organisation's mail routing that gets a copy",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def org_mail_copy(ctx: Context) -> CheckResult:
    """An address typed as "Also deliver to", "Add more recipients", "BCC", "Change route" or "Forward to" in an
    admin console's mail routing or transport rules: every matching message of the organisation is copied there,
    unseen by its senders and readers. Naming the rule or a condition passes."""
    found = ctx.derived(_topics)
    if "mail-routing" not in found or not matches("admin-place", "words", ctx.derived(_page)):
        return None
    field = words(ctx.derived(field_text).raw)
    text = getattr(ctx.action, "text", "") or ""
    if not field or not matches("routing-field", "labels", field) or not _ADDRESS.search(text[:512]):
        return None
    return f"{text.strip()[:60]!r} typed into the organisation's mail routing gets a copy of its mail"


def _foreign_url(ctx: Context, text: str) -> str:
    """The host of the URL typed when it is on another site than the page's (and not this computer)."""
    text = text.strip()
    if not text or len(text) > 2048 or " " in text:
        return ""
    parts = split_url(text if "//" in text else "https://" + text)
    host = (parts.host if parts is not None else "").lstrip("*.")
    if not host or "." not in host or is_loopback(host):
        return ""
    page = split_url(getattr(ctx.action, "url", None) or ctx.observation.url or "")
    if page is not None and page.host and registrable(page.host) == registrable(host):
        return ""
    return host


@rule("confirm.gui.console-endpoint", "Another site's address typed as a webhook's, an AI provider's or a trusted URL",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def console_endpoint(ctx: Context) -> CheckResult:
    """A URL on another site typed into the "URL", "Endpoint", "Webhook URL" or "Trusted site URL" field of a
    console's webhooks, AI providers, trusted sites or CORS origins: the account's tickets, contacts or
    conversations are sent there from then on, or pages load code from there. This computer's own address passes."""
    if "outbound" not in ctx.derived(_topics):
        return None
    field = words(ctx.derived(field_text).raw).split("\n")[0]
    if not field or not whole("endpoint-field", "labels").match(field):
        return None
    host = _foreign_url(ctx, getattr(ctx.action, "text", "") or "")
    if not host:
        return None
    return f"{host} typed as the endpoint of a webhook, an AI provider or a trusted site: data goes there from now on"


def _public_label(ctx: Context) -> str:
    label = ctx.derived(_label)
    return label if label and whole("public-share", "labels").match(label) else ""


@rule("block.gui.public-share-secret", "Content its title calls confidential opened to anyone on the web",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def public_share_secret(ctx: Context) -> CheckResult:
    """"Anyone on the web", "Publish to the web", "Anyone with the link", confidentiality turned off for a page,
    board, file or issue whose title says it is the organisation's secret (compensation, a board deck, a runbook,
    a vulnerability, credentials): once open it is copied and indexed, and cannot be called back."""
    label = ctx.derived(_public_label)
    if not label:
        return None
    title = words(ctx.observation.window_title or "")
    if not matches("public-share", "confidential", title):
        return None
    return f"clicking {label[:40]!r} opens {ctx.observation.window_title[:60]!r} to anyone on the web"


@rule("confirm.gui.public-share", "A page, a board or an issue opened to anyone on the web",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def public_share(ctx: Context) -> CheckResult:
    """"Anyone on the web", "Publish to the web", "Anyone with the link", "Make public", confidentiality
    turned off: whoever has the address reads it, and search engines may. Sharing with named people is
    other rules' business."""
    label = ctx.derived(_public_label)
    return f"clicking {label[:40]!r} opens the content to anyone on the web" if label else None


_FETCH_RUN = re.compile(r"\b(?:curl|wget|iwr|invoke-webrequest|irm|invoke-restmethod)\b[^|\n;]*\bhttps?://[^|\n]*\|"
                        r"\s*(?:sudo\s+)?(?:ba|z|k|da|fi)?sh\b|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n]*"
                        r"\|\s*iex\b", re.IGNORECASE)


@rule("block.gui.ci-fetch-run", "A download piped to a shell typed into a CI or build file",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def ci_fetch_run(ctx: Context) -> CheckResult:
    """`curl -fsSL https://… | bash` typed into `.gitlab-ci.yml`, a GitHub workflow, a Jenkinsfile or a Dockerfile
    in a web IDE or an editor: the project's runners fetch and run that host's script with the project's secrets
    on every pipeline. The same command in a chat or a doc passes here."""
    text = getattr(ctx.action, "text", "") or ""
    if "|" not in text or not _FETCH_RUN.search(text[:8192]):
        return None
    obs = ctx.observation
    where = words(" ".join((ctx.derived(field_text).raw, obs.url or "", obs.window_title or "")))
    if not matches("ci-file", "names", where):
        return None
    return "a download piped to a shell typed into a CI or build file: every pipeline runs that host's script"


_MD_INLINE = re.compile(r"!\[[^\]\n]{0,200}\]\(\s*<?(https?://[^)\s>]+)")
_MD_REF_USE = re.compile(r"!\[[^\]\n]{0,200}\]\[([^\]\n]{1,60})\]")
_MD_REF_DEF = re.compile(r"^\s{0,3}\[([^\]\n]{1,60})\]:\s*<?(https?://\S+?)>?(?:\s|$)", re.MULTILINE)
_DATA_VALUE = re.compile(r"=([^&#]{12,})")


def _image_urls(text: str) -> list[str]:
    urls = _MD_INLINE.findall(text)
    refs = {m.lower() for m in _MD_REF_USE.findall(text)}
    if refs:
        urls += [u for name, u in _MD_REF_DEF.findall(text) if name.lower() in refs]
    return urls


@rule("block.typed.image-beacon", "A markdown image whose address carries words of the text in its query",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def image_beacon(ctx: Context) -> CheckResult:
    """A markdown image, inline (`![x](https://host/p.png?q=…)`) or by reference (`![x][ref]` and `[ref]: …`),
    whose query holds words or a secret (`?q=VPN%20MFA%20seed%20…`): the reader's mail or chat client fetches it
    unasked and hands those words to that host, the zero-click leak EchoLeak used. An image with no query, or
    only a size or a version in it, passes; so does one on the page's own site."""
    text = getattr(ctx.action, "text", "") or ""
    if "![" not in text or "http" not in text:
        return None
    page = split_url(ctx.observation.url or "")
    page_site = registrable(page.host) if page is not None and page.host else ""
    for url in _image_urls(text[:8192]):
        parts = split_url(url)
        if parts is None or not parts.host or registrable(parts.host) == page_site:
            continue
        if any(_carries_words(m) for m in _DATA_VALUE.findall(parts.query or "")):
            return f"a markdown image to {parts.host} whose address carries the text's words: rendered, it sends them"
    return None


_BASE32_RUN = re.compile(r"[A-Z2-7]{16,}")  # an authenticator's seed, a key


def _carries_words(value: str) -> bool:
    return "%20" in value or "+" in value or " " in value or _BASE32_RUN.search(value) is not None


_USER_CODE = re.compile(r"^\s*[A-Z0-9]{3,5}(?:[- ][A-Z0-9]{3,5})?\s*$")


@rule("confirm.gui.device-code", "A device sign-in code typed on the provider's page",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def device_code(ctx: Context) -> CheckResult:
    """A short code ("KQ7D-M2XP", "WDJB-MJHT") typed into the field for the code a device shows on a provider's
    device page (Microsoft's devicelogin, Google's and GitHub's device pages, a CRM's connect page): the device or
    program that showed the code gets a session of this account. Callers who read such a code out ("device code
    phishing") take the account so; a person says whether the code came from their own program."""
    text = getattr(ctx.action, "text", "") or ""
    if not _USER_CODE.match(text) or not any(c.isalpha() for c in text):
        return None
    field = words(ctx.derived(field_text).raw)
    if not field or not matches("device-code", "fields", field):
        return None
    obs = ctx.observation
    if not matches("device-code", "places", place_words(obs.url or "", obs.window_title or "")):
        return None
    return f"a device sign-in code typed on {(obs.url or obs.window_title)[:60]!r}: whatever showed it gets a session"


@rule("confirm.gui.space-export", "A whole space, project or workspace exported", risk=Risk.HIGH,
      types=("navigate", "click"), confidence=0.7)
def space_export(ctx: Context) -> CheckResult:
    """Opening a URL or clicking a button that exports a whole wiki space, project, workspace or tenant ("Export
    space", `/spaces/flyingpdf/flyingpdf.action?key=ENG`, "Export all issues"): every page or record of it in one
    file, the way data is gathered before it leaves. Exporting one page or one view passes."""
    if ctx.action.type == "click":
        label = ctx.derived(_label)
        if not label or not matches("space-export", "words", label):
            return None
        return f"clicking {label[:40]!r} exports a whole space, project or workspace"
    url = getattr(ctx.action, "url", "") or ""
    if not matches("space-export", "words", place_words(url, "")):
        return None
    return f"opening {url[:80]!r} exports a whole space, project or workspace"


_IMAGE_PATH = re.compile(r"\.(?:png|gif|jpe?g|svg|webp|ico|bmp)$", re.IGNORECASE)


@rule("block.nav.proxied-beacon", "An image address on another site, carrying words, fetched through a proxy",
      risk=Risk.CRITICAL, types=("navigate",), confidence=0.8)
def proxied_beacon(ctx: Context) -> CheckResult:
    """A URL whose query holds another site's image address whose own query carries words
    (`/urlp/v1/url/content?url=https://cdn.example.net/logo.png?d=Project%20Falcon…`): a chat's or a mail's image
    proxy fetches it, and the words reach that host; the proxy's own site makes it look trusted. A redirect to a
    page, or an image with no words in its query, passes."""
    url = getattr(ctx.action, "url", "") or ""
    outer = split_url(url) if url and len(url) <= 4096 and "%3a%2f%2f" in url.lower() else None
    if outer is None or not outer.host:
        return None
    for pair in (outer.query or "").split("&"):
        value = unquote(pair.partition("=")[2])
        if not value.lower().startswith(("http://", "https://")):
            continue
        inner = split_url(value)
        if inner is None or not inner.host or registrable(inner.host) == registrable(outer.host):
            continue
        if _IMAGE_PATH.search(inner.path or "") and \
                any(_carries_words(unquote(v)) for v in _DATA_VALUE.findall(inner.query or "")):
            return f"an image on {inner.host} carrying words, fetched through {outer.host}: the words reach that host"
    return None


_FACTS_OUTSIDE = 2  # distinct inside facts that make a text the inside story where outsiders read it
_FACTS_ANYWHERE = 3  # … and anywhere a message, a comment or a description is typed


def _inside_facts(text: str) -> set[str]:
    return set(phrase("sensitive-facts", "phrases").findall(words(text[:4096])))


@rule("confirm.typed.inside-story", "Several of the organisation's unannounced facts typed where others read them",
      risk=Risk.HIGH, types=("type",), redact=("text",), confidence=0.65)
def inside_story(ctx: Context) -> CheckResult:
    """A text that tells several things an organisation keeps to itself at once (a deal not announced and its
    price, a list of layoffs, a pending suit, an unfixed hole and how to use it, where its signing keys are)
    typed into a chat with an external guest, a public space or post, or into any message, comment or
    event description when it tells three or more: an injected instruction to "summarise" them for someone
    leaks them so. A text naming one of them, a question, or a short note passes."""
    text = getattr(ctx.action, "text", "") or ""
    if not 40 <= len(text) <= 8192 or text.rstrip().endswith("?"):
        return None
    found = _inside_facts(text)
    if len(found) < _FACTS_OUTSIDE:
        return None
    obs = ctx.observation
    place = words(" ".join((obs.window_title or "", ctx.derived(field_text).raw)))
    outside = matches("outside-place", "words", place)
    if not outside and len(found) < _FACTS_ANYWHERE:
        return None
    where = "where outsiders read it" if outside else "into a message others read"
    return f"a text that tells {', '.join(sorted(found)[:3])} typed {where}"


@rule("confirm.gui.broad-token-scope", "A token or an app given a scope over the whole account",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def broad_token_scope(ctx: Context) -> CheckResult:
    """A scope ticked while a token or an app is made that reaches the whole account ("Configure your system",
    "admin:org", "sudo", "Full access", "Manage users"): whoever holds the token administers the account. A
    read scope of one kind of record passes."""
    if "tokens" not in ctx.derived(_topics):
        return None
    label = ctx.derived(_label)
    base, _ = switched(label)
    if not base or len(base) > 60 or not matches("token-scope", "broad", base):
        return None
    return f"the scope {label[:40]!r} ticked for a token or an app: it reaches the whole account"


# digits written for the letters they look like, in a look-alike of a domain ("acme-c0rp", "paypa1")
_LEET = str.maketrans("013457", "oleast")
_LEET_INSIDE = re.compile(r"[a-z][013457][a-z]")
_ACCOUNT_FIELD = re.compile(r"\b(?:e ?mail|address|contact|login|username|user name|recovery|notification)\b")
_TYPED_ADDRESS = re.compile(r"^\s*[\w.+-]{1,64}@([\w-]{1,63})((?:\.[\w-]{1,63})+)\s*$")


@rule("block.gui.lookalike-account-address", "An address on a look-alike of the organisation's own name typed for an "
      "account", risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def lookalike_account_address(ctx: Context) -> CheckResult:
    """An e-mail address typed into a user's profile or an account field whose domain spells the organisation's own
    name with digits for letters ("ops@acme-c0rp.com" on acme's helpdesk): password resets and alerts for that
    account now reach whoever registered the look-alike, the account takeover a social-engineering call asks a
    help desk for. The organisation's real domain, and a domain with digits that spell no look-alike, pass."""
    m = _TYPED_ADDRESS.match(getattr(ctx.action, "text", "") or "")
    if m is None:
        return None
    label = m.group(1).lower()
    if not _LEET_INSIDE.search(label) or not _ACCOUNT_FIELD.search(words(ctx.derived(field_text).raw)):
        return None
    plain = label.translate(_LEET)
    page = split_url(ctx.observation.url or "")
    host = page.host.lower() if page is not None and page.host else ""
    not_org = whole("lookalike", "not-org")
    names = {n for n in host.replace("-", ".").split(".")[:-1] if len(n) >= 4 and not not_org.match(n)}
    if not any(n in plain for n in names):
        return None
    return f"{m.group(0).strip()!r} spells the organisation's name with digits for letters: a look-alike domain"


@rule("confirm.gui.admin-account-made", "An account filled in on a form that makes it an administrator",
      risk=Risk.HIGH, types=("type",), confidence=0.7)
def admin_account_made(ctx: Context) -> CheckResult:
    """A user name or an address typed on a new account's form whose address or title makes it an administrator
    (`…EditView&is_admin=1`, "New administrator", "Add admin user"): a new account that administers everything is
    the backdoor an injected "create a sync service account" plants. A new ordinary account passes."""
    found = ctx.derived(_topics)
    if "new-user" not in found and "admin-roles" not in found:
        return None
    if not matches("admin-account", "marks", ctx.derived(_page)):
        return None
    text = (getattr(ctx.action, "text", "") or "").strip()
    if not 2 <= len(text) <= 128:
        return None
    return f"{text[:40]!r} typed for a new account the form makes an administrator"


_ADDRESS_DOMAIN = re.compile(r"[\w.+-]{1,64}@([\w-]{1,63}(?:\.[\w-]{1,63})+)")


@rule("block.gui.confidential-share-personal", "Content its title calls confidential shared to a personal mailbox",
      risk=Risk.CRITICAL, types=("type",), confidence=0.8)
def confidential_share_personal(ctx: Context) -> CheckResult:
    """An address at a mail provider anyone signs up to (Gmail, Outlook.com, Yahoo, Proton…) typed into the share
    or invite dialog of a board, a file or a page whose title says it is the organisation's secret (compensation,
    a board deck, a runbook, a vulnerability): the content goes to a mailbox no one at the organisation controls.
    A colleague's address, or a personal one on an ordinary page (other rules ask), passes here."""
    text = getattr(ctx.action, "text", "") or ""
    if "@" not in text or len(text) > 1024:
        return None
    obs = ctx.observation
    title = words(obs.window_title or "")
    place = title + "\n" + words(ctx.derived(field_text).raw)
    if not matches("personal-mail", "share-place", place) or not matches("public-share", "confidential", title):
        return None
    for domain in _ADDRESS_DOMAIN.findall(text):
        if whole("personal-mail", "domains").match(words(domain)):
            return f"{domain} is a personal mailbox, given {obs.window_title[:50]!r}"
    return None


RULES: tuple[Rule, ...] = (
    identity_provider_added, top_role_grant, factor_removal, unvetted_app_trust, domain_scopes, org_mail_copy,
    public_share_secret, ci_fetch_run, image_beacon,
    proxied_beacon,
    console_change, role_grant, factor_removal_ask, domain_scopes_ask, console_endpoint, public_share, device_code,
    space_export, inside_story, broad_token_scope, lookalike_account_address, admin_account_made,
    confidential_share_personal,
)
