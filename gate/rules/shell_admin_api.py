"""Shell checks: an administration API told by an HTTP client what to change, judged by method, path and body.

Part of the shell Detector, called for curl, wget, HTTPie and xh from gate/rules/shell_platforms.py
(`remote_and_desktop`) before its general HTTP checks. Every SaaS and cloud service names its administration
resources alike (`/users/{id}/lifecycle/deactivate`, `/zones/{id}`, `/roles`, `/settings/ssl`), so the words of
`resources/admin_api.toml` are the service's own, not a host's:

- a protection switched off (two-step verification, TLS, a firewall, audit logging, branch protection): by an off
  verb as the last path word, a body that sets it off, or a DELETE of it → block (defense-evasion);
- an administrator's or owner's role given to someone or to an app → block (a way back into the account);
- a whole DNS zone, domain, account, organisation, project or repository deleted by its id → block;
- an account's state changed (deactivate, reset factors, sign out, unlock), or a record created that changes
  access, routing or what is served (DNS records, groups, rules, mail forwarding, apps, bulk export jobs) → confirm.

And on this machine: an agent's own runtime told to approve a hook, a tool or a command (`POST
localhost:8000/.../hooks/approve`) asks, and refuses when what it approves sits in /tmp or a hidden folder or allows
everything: the agent answering its supervisor's question for the person.

Reads pass: a GET (also `curl -G` with its query data), and a POST whose last path word only searches or queries.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources
from urllib.parse import urlsplit

from gate import regex_store
from gate.model import Risk
from gate.shell import Command, Finding
from gate.urls import is_loopback

__all__ = ["admin_call"]

Add = Callable[[Finding], None]

_BOOK = regex_store.toml(resources.files("resources").joinpath("admin_api.toml").read_text("utf-8"))
_GUARDS = frozenset(_BOOK["protection"]["words"])
_OFF_VERBS = frozenset(_BOOK["protection"]["off_verbs"])
_OFF_BODY = re.compile(_BOOK["protection"]["off_body"], re.I)
_GRANT_PATHS = frozenset(_BOOK["admin-grant"]["words"])
_ADMIN_BODY = re.compile(_BOOK["admin-grant"]["admin_body"], re.I)
_ADMIN_PATHS = frozenset(_BOOK["admin-grant"]["admin_paths"])
_CONTAINERS = frozenset(_BOOK["containers"]["words"])
_TWO_PART = frozenset(_BOOK["containers"]["two_part"])
_LIFECYCLE = frozenset(_BOOK["lifecycle"]["verbs"])
_COLLECTIONS = frozenset(_BOOK["collections"]["words"])
_READS = frozenset(_BOOK["collections"]["reads"])
_JOBS = frozenset(_BOOK["collections"]["jobs"])

_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"})
_BODY_FLAGS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode", "--json",
                         "-F", "--form", "--form-string", "--post-data", "--body-data", "--raw"})
_HOSTED = re.compile(r"^[\w.-]+\.[a-z]{2,}(?::\d+)?(/|$)", re.I)
_WORD = re.compile(r"[-_.]")


def _local(host: str) -> bool:
    """This machine: a loopback name or address, or the any-address a local server listens on
    (`localhost.example.com` is not one)."""
    return host == "0.0.0.0" or is_loopback(host)


def _norm(word: str) -> str:
    return _WORD.sub("", word.lower())


def _request(name: str, args: list[str]) -> tuple[str, list[str], str]:
    """(method, remote URLs, body text) of one HTTP client's command line."""
    method, body, get = "", [], False
    urls: list[str] = []
    for k, a in enumerate(args):
        nxt = args[k + 1] if k + 1 < len(args) else ""
        if a in ("-X", "--request", "--method"):
            method = nxt
        elif a.startswith(("--request=", "--method=")):
            method = a.split("=", 1)[1]
        elif a.startswith("-X") and len(a) > 2:
            method = a[2:]
        elif a in ("-G", "--get"):
            get = True
        elif a in _BODY_FLAGS:
            body.append(nxt)
        elif a.startswith(tuple(f"{f}=" for f in _BODY_FLAGS if f.startswith("--"))):
            body.append(a.split("=", 1)[1])
        elif "://" in a or (_HOSTED.match(a) and not a.startswith("-")):
            urls.append(a)
        elif name in ("http", "https", "xh") and not a.startswith("-") and ("=" in a or ":=" in a) and urls:
            body.append(a)  # HTTPie's request items (`role=admin`, `enabled:=false`)
    if name in ("http", "https", "xh") and args and args[0].upper() in _METHODS:
        method = args[0]
    method = method.upper()
    if not method:
        method = "GET" if get or not body else "POST"
    elif get and method == "POST":
        method = "GET"
    return method, urls, "\n".join(body)


def _path_words(url: str) -> list[str]:
    if "://" not in url:
        url = "https://" + url
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    if _local(parts.hostname or ""):
        return []
    return [_norm(w) for w in parts.path.split("/") if w]


def _protection_off(method: str, words: list[str], body: str) -> str | None:
    guard = next((w for w in words if w in _GUARDS), None)
    if guard is None or method in ("GET", "HEAD", "OPTIONS"):
        return None
    if method == "DELETE" and words[-1] == guard:
        return f"deletes {guard}"
    if words[-1] in _OFF_VERBS:
        return f"{words[-1]} {guard}"
    if _OFF_BODY.search(body):
        return f"sets {guard} off"
    return None


def _admin_grant(method: str, words: list[str], body: str) -> str | None:
    if method not in ("POST", "PUT", "PATCH"):
        return None
    if words and words[-1] in _ADMIN_PATHS:
        return words[-1]
    place = next((w for w in words if w in _GRANT_PATHS), None)
    if place and (hit := _ADMIN_BODY.search(body)):
        return f"{place}: {hit.group(0)[:40]}"
    return None


def _container_deleted(method: str, words: list[str]) -> str | None:
    if method != "DELETE":
        return None
    for k, w in enumerate(words):
        if w in _CONTAINERS and len(words) - k - 1 == (2 if w in _TWO_PART else 1):
            return w[:-1] if w.endswith("s") else w
    return None


def _changes(method: str, words: list[str]) -> str | None:
    if method != "POST" or not words:
        return None
    if words[-1] in _LIFECYCLE:
        return words[-1]
    place = next((w for w in words if w in _COLLECTIONS), None)
    if place is None or (words[-1] in _READS and place not in _JOBS):
        return None
    return place


# the last path word of an approval endpoint: an agent runtime's or a supervisor's own "let this run" call
_APPROVE = frozenset({"approve", "approval", "approvals", "allow", "grant", "consent", "authorize", "trust"})
# path words of an agent runtime's or a supervisor's own API
_RUNTIME = frozenset({"hooks", "hook", "tools", "tool", "runtime", "agent", "agents", "permissions", "permission",
                      "mcp", "commands", "command", "guard", "gate", "sandbox", "toolcalls"})
# what an approval names that no one would approve on sight: a program kept in /tmp or a hidden folder, a wildcard
_OPAQUE = re.compile(r"(?:^|[\s\"'=:])(?:/tmp/|/var/tmp/|/dev/shm/|\S*/\.[\w-]+/)|allow[_-]?all|[\"']\*[\"']", re.I)


def _self_approval(method: str, url: str, body: str) -> str | None:
    """An agent's own runtime (on this machine) told to approve a hook, a tool or a command: 'opaque' when what it
    approves sits in /tmp or a hidden folder or allows everything, else 'approval'."""
    if method != "POST":
        return None
    try:
        parts = urlsplit(url if "://" in url else "http://" + url)
    except ValueError:
        return None
    words = [_norm(w) for w in parts.path.split("/") if w]
    if not _local(parts.hostname or "") or not words or words[-1] not in _APPROVE or \
            _RUNTIME.isdisjoint(words[:-1]):
        return None  # (a local web app's own approve endpoint, `/orders/7/approve`, is the app being tested)
    return "opaque" if _OPAQUE.search(body) else "approval"


def admin_call(name: str, args: list[str], cmd: Command, where: str, add: Add) -> bool:
    """Judge one HTTP client's call of an administration API; True when it found what the call changes."""
    method, urls, body = _request(name, args)
    for url in urls:
        if (approval := _self_approval(method, url, body)) is not None:
            # the agent answering its own supervisor's question: whatever it approves runs with no person asked
            if approval == "opaque":
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                            f"{name} POST {url[:70]}: approves, through the agent's own runtime, a program kept in a "
                            f"temporary or hidden folder or one that allows everything{where}", cmd.span))
            else:
                add(Finding("confirm.shell.defense-evasion", Risk.HIGH,
                            f"{name} POST {url[:70]}: approves something through the agent's own runtime, with no "
                            f"person asked{where}", cmd.span))
            return True
        words = _path_words(url)
        if not words:
            continue
        shown = f"{method} {url[:70]}"
        if why := _protection_off(method, words, body):
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"{name} {shown}: {why}, a protection of the account or site, for everyone{where}", cmd.span))
            return True
        if why := _admin_grant(method, words, body):
            add(Finding("block.shell.cloud-remote-exec", Risk.CRITICAL,
                        f"{name} {shown}: gives an administrator's or owner's role ({why}): whoever holds it can do "
                        f"anything in the account{where}", cmd.span))
            return True
        if what := _container_deleted(method, words):
            add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                        f"{name} {shown}: deletes a whole {what} with everything in it{where}", cmd.span))
            return True
        if what := _changes(method, words):
            add(Finding("confirm.shell.remote-mutation", Risk.HIGH,
                        f"{name} {shown}: changes accounts, access or routing of a service ({what}){where}",
                        cmd.span))
            return True
    return False
