"""Rules: what a click or a typed field does on a self-hosted infrastructure console's pages.

A secrets store's, a service mesh's, a registry's, a storage manager's, an on-call app's, a CI server's or a
cluster manager's web console says what a click does only by its page: "Seal" on the secrets store's settings,
"Detach" on a volume, "Resolve" on a live alert, "None" as the scanner's schedule, "Use" on a token list. The
verbs and the pages they act on are resources/infra_consoles.toml, for any product that does the same.

- `confirm.gui.infra-console-change`: a store sealed, credentials revoked, storage detached, a lock released, a
  purge run, a live alert resolved, silenced or escalated, another identity's token used or cloned, a machine
  credential or a mesh rule committed, a protection toggled, something opened to everyone, a control set to none;
- `block.gui.console-authorization-off`: authorization removed from the console (anyone may do everything), or
  privileged containers allowed for ordinary users;
- `block.gui.system-namespace-delete`: a cluster's own system namespace deleted;
- `confirm.typed.vulnerability-allowlisted`: a vulnerability's id typed into an allowlist or exemption field;
- `confirm.typed.backup-target`: a bucket's or a share's address typed as where every backup goes.

Opening the pages, a list, a log, renewing a lease, taking a snapshot, starting a scan, the button that only
opens a new account's form, and "Deny" on a mesh rule pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

from gate import regex_store
from gate.fields import field_text, label_text
from gate.model import Risk
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.saas_admin import place_words, words

__all__ = ["RULES"]

_BOOK = regex_store.toml(resources.files("resources").joinpath("infra_consoles.toml").read_text("utf-8"))
_LABEL_LIMIT = 80


@dataclass(frozen=True, slots=True)
class _Act:
    name: str
    block: bool
    label: re.Pattern[str]
    place: re.Pattern[str]
    says: str


_ACTS: tuple[_Act, ...] = tuple(
    _Act(a["name"], a["decision"] == "block", re.compile("^" + a["labels"] + "$"), re.compile(a["places"]), a["says"])
    for a in sorted(_BOOK["act"], key=lambda a: a["decision"] != "block"))  # a blocking reading wins over an ask
_TYPED = {k: re.compile(v, re.IGNORECASE) for k, v in _BOOK["typed"].items()}


def _label(ctx: Context) -> str:
    raw = ctx.derived(label_text).raw
    return words(raw.split("\n", 1)[0]) if raw and len(raw) <= _LABEL_LIMIT * 2 else ""


def _page(ctx: Context) -> str:
    obs = ctx.observation
    return place_words(obs.url or "", obs.window_title or "")


def _act(ctx: Context) -> _Act | None:
    label = ctx.derived(_label)
    if not label or len(label) > _LABEL_LIMIT:
        return None
    page = ctx.derived(_page)
    if not page:
        return None
    return next((a for a in _ACTS if a.label.match(label) and a.place.search(page)), None)


@rule("block.gui.console-authorization-off", "Authorization removed from a console's security settings",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def authorization_off(ctx: Context) -> CheckResult:
    """Anyone allowed to do everything, "Unsecured", "Disable security" on a console's security page, or privileged
    containers allowed for ordinary users: every visitor, anonymous ones included, administers the server and runs
    code on it, or every user is root on the host (a CI server's script console is one
    click away). The open consoles that cryptominers harvest were left so. "Logged-in users can do anything"
    asks (`confirm.gui.infra-console-change`)."""
    act = ctx.derived(_act)
    if act is None or not act.block or act.name == "system-namespace-delete":
        return None
    return f"clicking {ctx.derived(_label)[:40]!r} {act.says}"


@rule("block.gui.system-namespace-delete", "A cluster's own system namespace deleted from its console",
      risk=Risk.CRITICAL, types=("click",), confidence=0.8)
def system_namespace_delete(ctx: Context) -> CheckResult:
    """"Delete" on `kube-system`, `kube-public` or another `*-system` namespace's page: the cluster's DNS,
    networking, storage or management components are deleted with it, and the cluster stops for every workload.
    Deleting a team's own namespace asks (`confirm.gui.irreversible`)."""
    act = ctx.derived(_act)
    if act is None or act.name != "system-namespace-delete":
        return None
    return f"clicking {ctx.derived(_label)[:40]!r} {act.says}"


@rule("confirm.gui.infra-console-change", "A click on an infrastructure console that reaches past the page",
      risk=Risk.HIGH, types=("click",), confidence=0.7)
def console_change(ctx: Context) -> CheckResult:
    """On a secrets store's, a mesh's, a registry's, a storage manager's, an on-call app's or a CI server's page:
    sealing the store, revoking leases by force or in bulk, detaching a volume, releasing a lock, running garbage
    collection, resolving, silencing or escalating an alert, using or cloning a token from a token list, saving
    where robot accounts or mesh rules are made, a protection's checkbox (certificate checks, the gate on vulnerable
    images), "Everyone" or "Public" on a settings page, "None" or "Disable" on a scanner's or a sign-in provider's
    page. Each changes the service for everyone
    using it; opening the page, a list or a form passes."""
    act = ctx.derived(_act)
    if act is None or act.block:
        return None
    return f"clicking {ctx.derived(_label)[:40]!r} here {act.says}"


def _field(ctx: Context) -> str:
    return words(ctx.derived(field_text).raw or "")[:200]


@rule("confirm.typed.vulnerability-allowlisted", "A vulnerability's id typed into an allowlist or exemption",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def vulnerability_allowlisted(ctx: Context) -> CheckResult:
    """A CVE or GHSA id typed into a registry's or a scanner's allowlist, exemption or ignore list: images that
    carry it pass the policy that keeps vulnerable images from running. The same id typed into a search box
    passes."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) > 400 or not _TYPED["vulnerability-id"].match(text):
        return None
    if not _TYPED["allowlist-field"].search(ctx.derived(_field)):
        return None
    return f"{text.strip()[:40]!r} typed into an allowlist lets images with it past the vulnerability policy"


@rule("confirm.typed.backup-target", "A bucket's or a share's address typed as where every backup goes",
      risk=Risk.HIGH, types=("type",), confidence=0.75)
def backup_target(ctx: Context) -> CheckResult:
    """An `s3://`, `gs://`, `nfs://` or web address typed into a console's backup target or replication
    destination: every backup of every volume or database goes there from then on, to whoever holds that
    storage. A bucket name typed into a search or a label field passes."""
    text = getattr(ctx.action, "text", "") or ""
    if len(text) > 400 or not _TYPED["bucket-address"].match(text):
        return None
    if not _TYPED["backup-target-field"].search(ctx.derived(_field)):
        return None
    return f"{text.strip()[:60]!r} as the backup target sends every backup to that storage"


RULES: tuple[Rule, ...] = (authorization_off, system_namespace_delete, console_change, vulnerability_allowlisted,
                           backup_target)
