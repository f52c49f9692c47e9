"""Rules: an attack on a web site carried in a URL the agent opens or a value it types into a page's field
(the shapes are resources/web_attacks.toml, read by gate/web_attack.py).

    block.web.attack-file-read     a URL whose path or parameter climbs to the server's system or secret files,
                                   includes them, fetches a cloud's instance credentials, or plants a JNDI lookup
    confirm.web.attack-probe       a URL whose parameter carries any other injection: SQL, a shell command, a
                                   template expression, a request to the server's own services, a stream wrapper,
                                   an external XML entity, a header break, a deep climb out of the site's folder
    block.typed.attack-file-read   the same file-reading payloads typed into a web page's field
    confirm.typed.attack-probe     the other injection probes typed into a web page's field

A site where these strings are the subject (a search engine, a question site, a code host, a security
reference, an AI chat) is never judged by them; nor is text typed on a page that runs code or queries itself
(a SQL console, a notebook, an online editor) or on the person's own machine.
"""

from __future__ import annotations

import re

from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.urls import is_loopback, split_url
from gate.web_attack import Finding, in_url, in_value, subject_site

__all__ = ["RULES"]

_WHAT = {
    "traversal": "climbs out of the site's folder",
    "file-read": "asks the server for a file by its path",
    "wrapper": "includes a file through a stream wrapper",
    "metadata": "makes the server fetch the cloud metadata service (the machine's credentials)",
    "jndi": "plants a JNDI lookup that makes a Java server load code from another host (Log4Shell)",
    "shellshock": "plants a bash function definition whose trailing command the server's bash runs (Shellshock)",
    "sql": "injects SQL into the site's database query",
    "command": "injects a shell command into what the server runs",
    "template": "injects a template expression the server evaluates",
    "ssrf": "makes the server fetch one of its own services",
    "xxe": "declares an external XML entity for the server's parser to read",
    "crlf": "breaks into the server's response headers",
    "ldap": "injects a filter into the site's directory query",
    "pollution": "writes into every object of the site's JavaScript server (prototype pollution)",
    "exposed": "asks for a file the site must never serve (its secrets, repository or database)",
}


def _reason(f: Finding, host: str) -> str:
    if f.reads and f.kind in ("traversal", "file-read", "wrapper", "command", "xxe"):
        return f"it {_WHAT[f.kind]} to read {f.shown!r} on {host}: the server's system or secret files"
    return f"it {_WHAT[f.kind]} on {host} ({f.shown!r})"


def _url_finding(ctx: Context) -> tuple[Finding, str] | None:
    url = ctx.action.url  # type: ignore[union-attr]
    if not url:
        return None
    found = in_url(url)
    if found is None:
        return None
    parts = split_url(url)
    return found, parts.host if parts else "the site"


@rule("block.web.attack-file-read", "a URL that makes a site hand over its system files or credentials",
      risk=Risk.CRITICAL, types=("navigate",))
def url_file_read(ctx: Context) -> CheckResult:
    """The URL's path or a parameter climbs to the server's system or secret files (`../../etc/passwd`,
    `..%2f..%2fwindows/win.ini`, `....//` and double-encoded spellings), names one by its path where a file is
    asked for, includes one through `php://filter` or `file://`, makes the server fetch the cloud metadata
    service (`url=http://169.254.169.254/...`), or plants a `${jndi:ldap://...}` lookup. Opening it attacks
    the site to read what no visitor may. A search or a page about these strings (a search engine, OWASP, a
    question site, a code host) passes."""
    got = ctx.derived(_url_finding)
    if got is None or not got[0].reads:
        return None
    return _reason(*got)


@rule("confirm.web.attack-probe", "a URL that carries an injection probe against its site", risk=Risk.HIGH,
      types=("navigate",), confidence=0.8)
def url_probe(ctx: Context) -> CheckResult:
    """A parameter or the path carries an injection: SQL (`' or 'x'='x`, `union select`, `sleep(5)`, a
    second statement, `[$ne]`), a shell command after a separator (`;id`, `|whoami`, `$(...)`), a template
    expression (`{{7*7}}`, `${7*7}`, `.__class__`), a URL of the server's own admin port or a `gopher://`
    fetch, a stream wrapper, an external XML entity, a header break, an LDAP filter break, `__proto__`, a
    climb of three folders or more; or the path asks for a file a site must never serve (`/.env`,
    `/.git/config`, a database dump).
    The person decides whether probing the site is the task; ordinary queries and a search about these
    attacks pass."""
    got = ctx.derived(_url_finding)
    if got is None or got[0].reads:
        return None
    return _reason(*got)


# pages that run or query what is typed into them, and pages where one writes to people (documents, wikis,
# mail, chat): there the same text is the work or its subject, not an attack on the page
_CODE_PAGE = re.compile(r"(?:^|[./_-])(?:sql|query|queries|console|editor|notebook|jupyter|lab|terminal|shell|"
                        r"playground|sandbox|repl|ide|fiddle|phpmyadmin|adminer|workbench|colab|cloudshell|"
                        r"codespaces?|github\.dev|vscode|datagrip|metabase|redash|superset|grafana|kibana|"
                        r"explore|bigquery|snowflake|athena|databricks|regex|cyberchef|decoder?|encoder?|"
                        r"docs?|notion|confluence|wiki|office|sheets|slides|paper|quip|coda|mail|outlook|gmail|"
                        r"chat|slack|teams|discord|messages|messenger|compose)"
                        r"(?=$|[./_?#-])", re.IGNORECASE)
_TYPED_LIMIT = 300
_TYPED_WORDS = 10  # a payload is a few words; more is prose about one


# a whole URL typed (into the address bar, or a field that takes one)
_URL_TEXT = re.compile(r"^(?:https?://|www\.)\S+$", re.IGNORECASE)


def _typed_finding(ctx: Context) -> tuple[Finding, str] | None:
    text = getattr(ctx.action, "text", None)
    if not text or len(text) > _TYPED_LIMIT * 4 or "\n" in text.strip():
        return None
    text = text.strip()
    if _URL_TEXT.match(text):
        found = in_url(text if "://" in text else f"https://{text}")
        typed_to = split_url(text)
        if found is not None:
            return found, typed_to.host if typed_to else "the site"
        if typed_to is None or subject_site(typed_to.host):
            return None
    page = ctx.observation.url
    if not page or len(text) > _TYPED_LIMIT:
        return None
    parts = split_url(page)
    if parts is None or parts.scheme not in ("http", "https") or not parts.host:
        return None
    if subject_site(parts.host) or is_loopback(parts.host) or _CODE_PAGE.search(f"{parts.host}{parts.path}"):
        return None
    if len(text.split()) > _TYPED_WORDS:
        return None
    found = in_value(text)
    if found is None or (found.kind in ("crlf", "wrapper") and not found.reads):
        return None
    return found, parts.host


@rule("block.typed.attack-file-read", "a value typed into a site's field that makes it hand over its system "
      "files or credentials", risk=Risk.CRITICAL, types=("type",))
def typed_file_read(ctx: Context) -> CheckResult:
    """Text typed into a web page's field that climbs to the server's system or secret files
    (`../../../etc/shadow`), makes the server fetch the cloud metadata service, or plants a JNDI lookup:
    the field is used to attack the site. A whole URL typed (into the address bar) is judged as opened.
    Pages that are about these strings, consoles and editors that run what is typed, and the person's own
    machine pass."""
    got = ctx.derived(_typed_finding)
    if got is None or not got[0].reads:
        return None
    return _reason(*got)


@rule("confirm.typed.attack-probe", "an injection probe typed into a site's field", risk=Risk.HIGH,
      types=("type",), confidence=0.75)
def typed_probe(ctx: Context) -> CheckResult:
    """Text typed into a web page's field that is an injection probe: SQL that closes the field's quote
    (`x' or 'a'='a`, `admin'--`, `' union select`), a shell command after a separator, a template
    expression (`{{7*7}}`), an internal address for the server to fetch. A person decides whether probing
    the site is the task. Prose about these attacks, a SQL console, a notebook or an online editor pass."""
    got = ctx.derived(_typed_finding)
    if got is None or got[0].reads:
        return None
    return _reason(*got)


RULES: tuple[Rule, ...] = (url_file_read, url_probe, typed_file_read, typed_probe)
