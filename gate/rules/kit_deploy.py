"""Rules: a phishing kit fetched from a throwaway host, a brand spelled as someone else's subdomains, and a site's
source dumped from its open version-control folder.

- `block.shell.kit-deploy`: a command that fetches an archive (or any file) from a dynamic-DNS host or a host that
  spells a brand it does not belong to, and unpacks or saves it into a web server's folder (`/var/www/html`,
  `public_html`, `htdocs`, `wwwroot`): it publishes the kit's look-alike pages (ATT&CK T1608.001).
- `confirm.shell.kit-download`: the same archive fetched and unpacked elsewhere.
- `confirm.nav.kit-archive`: opening an archive's address on such a host.
- `confirm.nav.brand-subdomain`: a host whose first labels spell a brand and a country or top-level name
  (`<brand>.<country>.`) under a site that is not the brand's: a look-alike address made of subdomains.
- `block.files.phishing-kit`: a phishlet (evilginx's `proxy_hosts`/`phish_sub`/`auth_tokens`, Modlishka's
  `phishingDomain`/`credParams`) or a page that writes, mails or posts on the password typed into it, written.
- `confirm.shell.source-dump`: a tool that rebuilds a site's source from its exposed `/.git/`, `/.svn/`, `/.hg/` or
  `.DS_Store` (git-dumper, GitTools, dvcs-ripper, GitHack, goop), run by name or as a script, or a recursive download
  of such a folder (`wget -r https://site/.git/`).

The tables are `[kit-deploy]` of resources/destinations.toml and `[source_dumpers]` of resources/programs.toml.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import urlsplit

from gate.catalogue import DATA as _CATALOGUE
from gate.destinations import _BOOK as _DESTINATIONS
from gate.model import Risk
from gate.prefix import literals
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_vocab import SHELL_TYPES
from gate.shell import command_text

__all__ = ["RULES", "brand_subdomain", "kit_host"]


def _tables(book: dict) -> tuple[frozenset[str], frozenset[str], tuple[str, ...], tuple[str, ...], frozenset[str]]:
    kit = book["kit-deploy"]
    dyn = set(kit["dynamic_dns"]) | set(book.get("phishing", {}).get("dynamic_dns", ()))
    dyn |= set(book.get("phish-host", {}).get("free-hosts", {}).get("dynamic_dns", ()))
    brands: set[str] = set()
    for table in book["brands"].values():
        brands.update(t.lower() for t in table)
    return (frozenset(d.lower() for d in dyn), frozenset(brands), tuple(kit["archives"]), tuple(kit["web_roots"]),
            frozenset(kit["tld_labels"]))


# built once at import, from the destinations book gate/destinations.py has already read
_DYN, _BRANDS, _ARCHIVES, _WEB_ROOTS, _TLD_LABELS = _tables(_DESTINATIONS)
# the brands a host label may spell inside itself (five letters or more), longest first: sorted once, not per label
_SPELLED_BRANDS = tuple(b for b in sorted(_BRANDS, key=len, reverse=True) if len(b) >= 5 and b.isalpha())


def _dynamic(host: str) -> str | None:
    dyn = _DYN
    labels = host.split(".")
    return next((".".join(labels[i:]) for i in range(1, len(labels) - 1) if ".".join(labels[i:]) in dyn), None)


def _brand_in(label: str) -> str | None:
    """A listed brand (five letters or more) spelled inside `label`, or None."""
    flat = label.replace("-", "")
    if flat in _BRANDS:
        return flat
    return next((b for b in _SPELLED_BRANDS if b in flat), None)


def _own(host: str) -> bool:
    from gate.destinations import own_site

    return own_site(host)


def kit_host(host: str) -> str | None:
    """Why `host` is where phishing kits are served from (a dynamic-DNS name, or one spelling a brand it does not
    belong to), or None."""
    host = host.lower().rstrip(".")
    if not host or _own(host):
        return None
    zone = _dynamic(host)
    labels = host.split(".")
    sub = labels[: len(labels) - len(zone.split("."))] if zone else labels[:-2]
    brand = next((b for b in (_brand_in(lab) for lab in sub) if b), None)
    if zone and brand:
        return f"a free dynamic-DNS name ({zone}) spelling {brand}"
    if zone:
        return f"a free dynamic-DNS name ({zone})"
    if brand:
        return f"a host spelling {brand} on a site that is not {brand}'s"
    return None


def brand_subdomain(host: str) -> str | None:
    """The brand a host spells as `<brand>.<country or top-level name>.` subdomains of an unrelated site, or None."""
    host = host.lower().rstrip(".")
    labels = host.split(".")
    if len(labels) < 4 or _own(host):
        return None
    brands, tlds = _BRANDS, _TLD_LABELS
    for i in range(len(labels) - 3):
        if labels[i] in brands and labels[i + 1] in tlds and labels[i] not in labels[-2]:
            return labels[i]
    return None


_URL = re.compile(r"\b(?:https?|ftp)://[^\s'\"<>|;&)]+", re.IGNORECASE)
_UNPACK = re.compile(r"(?:^|[\s;&|(])(?:unzip|tar|bsdtar|7z|7za|unrar|gunzip|jar\s+x|expand-archive|python3?\s+-m\s+"
                     r"zipfile)\b", re.IGNORECASE)


_ARCHIVE_ENDS = tuple("." + ext for ext in _ARCHIVES)  # (one `endswith` for them all)


def _archive(path: str) -> bool:
    return path.lower().split("?", 1)[0].endswith(_ARCHIVE_ENDS)


def _web_root(command: str) -> str | None:
    low = command.lower()
    return next((w for w in _WEB_ROOTS if w in low), None)


@functools.lru_cache(maxsize=1024)
def _kit_verdict(command: str) -> tuple[str | None, str | None]:
    for m in _URL.finditer(command[:20_000]):
        try:
            parts = urlsplit(m.group(0))
            host = (parts.hostname or "").lower()
        except ValueError:
            continue
        why = kit_host(host)
        if why is None:
            continue
        archive = _archive(parts.path) or _UNPACK.search(command) is not None
        root = _web_root(command)
        if root is not None and (archive or "spelling" in why):
            return f"fetches {host}'s files ({why}) into a web server's folder ({root}): it publishes a phishing " \
                   f"kit's pages", None
        if archive and _UNPACK.search(command) and "spelling" in why:
            return None, f"fetches and unpacks an archive from {host} ({why}): the shape of a phishing kit"
    return None, None


@rule("block.shell.kit-deploy", "a phishing kit fetched from a throwaway host into a web server's folder",
      risk=Risk.CRITICAL, types=SHELL_TYPES, needs="address")
def kit_deploy(ctx: Context) -> CheckResult:
    """A command that fetches an archive from a free dynamic-DNS name (`*.duckdns.org`, `*.ddns.net`, `*.myvnc.com`)
    or a host that spells a brand it does not belong to, and unpacks or saves it into a web server's folder
    (`/var/www/html`, `public_html`, `htdocs`, `wwwroot`): it publishes a phishing kit's look-alike pages."""
    command = command_text(ctx)
    if "://" not in command:
        return None
    return _kit_verdict(command)[0]


@rule("confirm.shell.kit-download", "an archive fetched and unpacked from a host that spells a brand it is not",
      risk=Risk.HIGH, types=SHELL_TYPES, needs="address")
def kit_download(ctx: Context) -> CheckResult:
    """A command that fetches an archive from a dynamic-DNS name spelling a brand, or a host spelling a brand it
    does not belong to, and unpacks it: the shape of a phishing kit being set up."""
    command = command_text(ctx)
    if "://" not in command:
        return None
    block, confirm = _kit_verdict(command)
    return None if block is not None else confirm


@rule("confirm.nav.kit-archive", "an archive opened on a dynamic-DNS host or a brand impostor's", risk=Risk.HIGH,
      types=("navigate",))
def kit_archive(ctx: Context) -> CheckResult:
    """Opening an archive's address (`.zip`, `.rar`, `.7z`, `.tar.gz`) on a free dynamic-DNS name or on a host
    that spells a brand it does not belong to: what such hosts hand out is a phishing kit or malware."""
    url = getattr(ctx.action, "url", "") or ""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    if not host or not _archive(parts.path):
        return None
    why = kit_host(host)
    return None if why is None else f"opens the archive {parts.path[:60]} on {host}, {why}"


@rule("confirm.nav.brand-subdomain", "a brand spelled as subdomains of an unrelated site", risk=Risk.HIGH,
      types=("navigate",))
def brand_subdomain_host(ctx: Context) -> CheckResult:
    """Opening a host whose labels spell a brand and a country or top-level name (`<brand>.<country>.`) as
    subdomains of a site that is not the brand's: an address made to read as the brand's at a glance."""
    url = getattr(ctx.action, "url", "") or ""
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return None
    brand = brand_subdomain(host) if host else None
    return None if brand is None else f"{host} spells {brand} as subdomains of another site"


# -- source dumped from an open version-control folder -------------------------------------------------------------

_VCS_URL = re.compile(r"://[^\s'\"]+/\.(?:git|svn|hg|bzr|cvs)(?:/|\b)|://[^\s'\"]+/\.ds_store\b", re.IGNORECASE)
_RECURSIVE = re.compile(r"(?:^|\s)(?:wget|httrack)\b[^\n|;&]*?(?:\s-r\b|\s--recursive\b|\s-m\b|\s--mirror\b|"
                        r"\s-[a-z]*r[a-z]*\s)|(?:^|\s)httrack\b", re.IGNORECASE)
_WORD_SPLIT = re.compile(r"[\s;&|()'\"]+")
_SCRIPT_EXT = re.compile(r"\.(py|sh|pl|rb|go|exe|js)$")


_DUMPERS = frozenset(n.lower() for n in _CATALOGUE.get("source_dumpers", {}).get("names", ()))
# whether a command holds a dumper's name at all, in one search (a name run is a part of one of its words)
_ANY_DUMPER = literals(_DUMPERS) if "" not in _DUMPERS else None


@rule("confirm.shell.source-dump", "a site's source rebuilt from its exposed version-control folder",
      risk=Risk.HIGH, types=SHELL_TYPES, needs="line")
def source_dump(ctx: Context) -> CheckResult:
    """A tool that rebuilds a web site's source from a `/.git/`, `/.svn/`, `/.hg/` folder or a `.DS_Store` left open
    on its server (git-dumper, GitTools, dvcs-ripper, GitHack, goop), run by name or as a script, or a recursive
    download of such a folder: code and secrets the site never published, only for a site one owns or is engaged
    to test."""
    command = command_text(ctx)
    if not command:
        return None
    low = command.lower()
    words = _WORD_SPLIT.split(low[:4000]) if _ANY_DUMPER is None or _ANY_DUMPER.search(low[:4000]) else ()
    for w in words:
        base = w.rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
        stem = _SCRIPT_EXT.sub("", base)
        if stem in _DUMPERS and (stem != base or w == words[0] or "/" in w):
            return f"runs {base}, which rebuilds a site's source from its exposed version-control folder"
    if _VCS_URL.search(command) and _RECURSIVE.search(command):
        return "downloads a site's exposed version-control folder whole: its source and secrets"
    return None


# -- a phishing kit's own files written ----------------------------------------------------------------------------

# an evilginx phishlet (proxy_hosts with phish_sub/orig_sub, the session cookies to take), a Modlishka or Muraena
# configuration (the phishing domain in front of a target, the credential parameters to log)
_PHISHLET = re.compile(r"\bproxy_hosts\s*:[\s\S]{0,2000}?\b(phish_sub|orig_sub)\b|\bauth_tokens\s*:[\s\S]{0,2000}?"
                       r"\bkeys\s*:|\bphish_sub\s*:|\"(phishingdomain|credparams|trackingparam)\"\s*:|"
                       r"^\s*phishing\s*=\s*\"[\w.-]+\"", re.IGNORECASE | re.MULTILINE)
# a page that keeps what is typed into its password field: the posted password written to a file, mailed or sent
# to a chat bot (PHP, Python, Node), the shape of every kit's login.php
_SECRET_FIELD = (r"([\w-]*(password|passwd|passwort|contrase|senha|passphrase)[\w-]*|"
                 r"([\w-]*[_-])?(pass|pwd|pw|pin|otp|cvv2?|mdp)\d?)")
_POSTED_SECRET = re.compile(rf"\$_(post|request|get)\s*\[\s*['\"]{_SECRET_FIELD}['\"]|"
                            rf"request\.(form|values|args)\s*(\[|\.get\()\s*['\"]{_SECRET_FIELD}['\"]|"
                            r"req\.body\.\w*(password|passwd|pwd)\w*|req\.body\.(pass|pin|otp|cvv)\b", re.IGNORECASE)
_KEPT = re.compile(r"\b(file_put_contents|fwrite|fputs|error_log|appendfilesync|appendfile|writefilesync)\s*\(|"
                   r"\bfopen\s*\([^)]*['\"]a\+?['\"]|\bopen\s*\([^)]*['\"]a\+?['\"]|\bmail\s*\(|"
                   r"api\.telegram\.org/bot|discord(app)?\.com/api/webhooks", re.IGNORECASE)


@rule("block.files.phishing-kit", "a phishing kit's phishlet or credential-keeping page written", risk=Risk.CRITICAL,
      types=("file_write",))
def phishing_kit_file(ctx: Context) -> CheckResult:
    """A file written that is a phishing kit's working part: an evilginx phishlet (the sign-in hosts to proxy and
    the session cookies to take), a Modlishka or Muraena configuration, or a page that keeps the password typed into
    it (the posted password written to a file, mailed or sent to a chat bot): the look-alike sign-in that takes
    people's logins."""
    content = getattr(ctx.action, "content", "") or ""
    if not content or len(content) > 400_000:
        return None
    low = content[:200_000]
    if ("phish" in low.lower() or "proxy_hosts" in low or "auth_tokens" in low or "credParams" in low) and \
            _PHISHLET.search(low):
        return "writes a phishing kit's phishlet: the sign-in hosts it proxies and the session cookies it takes"
    if _POSTED_SECRET.search(low) and _KEPT.search(low) and (kept := _kept_secret(low)):
        return f"writes a page that keeps the password posted to it ({kept[:40]}): a phishing kit's login page"
    return None


_ASSIGNED = re.compile(r"(\$?[A-Za-z_]\w*)\s*\.?=(?!=)")


def _kept_secret(code: str) -> str | None:
    """The posted password a statement writes to a file, mails or posts on: in the writing statement itself, or
    through a variable an earlier statement filled with it (`$msg = "Pass: ".$_POST['pass']; mail($to, $s, $msg)`)."""
    carriers: set[str] = set()
    for statement in re.split(r"[;\n]", code):
        posted = _POSTED_SECRET.search(statement)
        names = [n for n in carriers if n in statement]
        if _KEPT.search(statement) and (posted or names):
            return posted.group(0) if posted else names[0]
        if posted or names:
            m = _ASSIGNED.match(statement.strip())
            if m:
                carriers.add(m.group(1))
    return None


RULES: tuple[Rule, ...] = (kit_deploy, kit_download, kit_archive, brand_subdomain_host, source_dump,
                           phishing_kit_file)
