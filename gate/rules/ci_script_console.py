"""Code a CI controller's script console runs, and commands a secret store's web console runs.

Jenkins's script console (`/script`, `/manage/script`, and `POST /scriptText` from any HTTP client) runs Groovy
inside the controller, with every credential it holds and every right over it. Some of what it is asked to run is
the whole controller handed over, whatever the page's own checks:

    block.typed.ci-controller-takeover   typed Groovy that switches security off (no sign-in, anyone may do
                                         anything, CSRF protection gone), makes an account an administrator, prints
                                         or decrypts the stored credentials, reads the controller's own secrets
                                         (master.key, hudson.util.Secret, the initial admin password), or deletes
                                         every job
    confirm.typed.ci-controller-change   typed Groovy that reads the controller's files or changes jobs, nodes or
                                         settings in bulk

    block.typed.secret-store-console     a command typed into a secret store's web CLI (Vault's and OpenBao's UI
                                         console takes `write`, `delete`, `read` without the program's name) that
                                         the shell rules block as `vault ...`: a root token minted, audit off
    confirm.typed.secret-store-console   ... that the shell rules ask about (an engine mounted or removed)

    block.typed.cluster-manifest         a Kubernetes manifest typed into a dashboard's editor ("Create from
                                         input", a YAML tab) that the file rules block when it is written to a file:
                                         cluster-admin for everyone, a pod that reaches the host under it
    confirm.typed.cluster-manifest       ... that the file rules ask about (cluster-admin for one subject)
    block.typed.mesh-acl-everyone        a service mesh's ACL rules typed for its anonymous token (Consul's
                                         `00000000-...-0002`), or rules that manage the ACL system itself

`println Jenkins.instance.getItemByFullName('app').lastBuild` or `list secret/` passes. `takeover` is shared with
gate/rules/shell_control_plane.py, which judges the same Groovy posted to `/scriptText`.
"""

from __future__ import annotations

import re

from gate.model import FileWrite, Risk, Shell
from gate.normalise import normalise
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.typed import Destination, destination

__all__ = ["RULES", "takeover"]

TYPE = ("type",)
_LIMIT = 20_000

# a Jenkins script console: its page, or Groovy that names the controller's own objects
_JENKINS_PAGE = re.compile(r"/(?:manage/)?script(?:text)?/?(?:[?#]|$)|/computer/[^/]+/script/?$", re.I)
_JENKINS_CODE = re.compile(r"\b(?:Jenkins\.(?:instance|get\(\)|getInstance\(\))|jenkins\.model\.|hudson\.|"
                           r"com\.cloudbees\.plugins\.credentials)", re.I)
# the controller handed over: security off, an administrator made, credentials or its own keys read out, every
# job deleted
_TAKEOVER = (
    (re.compile(r"SecurityRealm\.NO_AUTHENTICATION|AuthorizationStrategy\.Unsecured|setUseSecurity\s*\(\s*false|"
                r"useSecurity\s*=\s*false|setCrumbIssuer\s*\(\s*null|disableSecurity\s*\(|"
                r"setAllowAnonymousRead\s*\(\s*true", re.I),
     "switches the controller's security off: anyone who reaches it runs anything"),
    (re.compile(r"\.add\s*\(\s*(?:jenkins\.model\.)?(?:Jenkins|Hudson)\.ADMINISTER\b|"
                r"\bgrant\s*\(\s*(?:jenkins\.model\.)?(?:Jenkins|Hudson)\.ADMINISTER\b", re.I),
     "makes an account an administrator of the controller"),
    (re.compile(r"(?:SystemCredentialsProvider|lookupCredentials)\b.*\b(?:password|secret|privateKey|"
                r"apiToken|passphrase)\b|\.getPlainText\s*\(|\bSecret\s*\.\s*(?:decrypt|toString)\s*\(|\.getPassword\s*\(\s*\)\s*\.|"
                r"\.(?:getPrivateKeys?|getSecret(?:Bytes)?|getPassphrase)\s*\(", re.I),
     "prints the stored credentials in clear"),
    (re.compile(r"secrets/(?:master\.key|hudson\.util\.Secret|initialAdminPassword)|\bcredentials\.xml\b|"
                r"\bidentity\.key\b", re.I),
     "reads the controller's own keys: every stored secret can be decrypted with them"),
    (re.compile(r"getAllItems\s*\([^)]*\)\s*\.\s*each\s*\{[^}]*\.delete\s*\(", re.I | re.S),
     "deletes every job"),
)
_CHANGE = re.compile(r"\bnew\s+File\s*\(|\.execute\s*\(\s*\)|getAllItems\s*\(|\.(?:setDisabled|disable|"
                     r"makeDisabled)\s*\(|\.disabled\s*=|\.save\s*\(\s*\)|Jenkins\.instance\.(?:set|remove|add)\w*\s*\(|"
                     r"\.doSafeRestart|\.doQuietDown|\.restart\s*\(", re.I)

# a secret store's web CLI: the page's own console field
_STORE_CONSOLE = re.compile(r"\b(?:vault|openbao|bao)\b.*\b(?:cli|console|command)\b", re.I)
_STORE_PAGE = re.compile(r"/ui/vault/", re.I)
_STORE_VERBS = frozenset({"read", "write", "delete", "list", "kv"})


def takeover(code: str) -> str | None:
    """Why the Groovy hands the controller over, or None."""
    for pattern, why in _TAKEOVER:
        if pattern.search(code):
            return why
    return None


def _groovy(ctx: Context) -> str | None:
    """The Groovy typed into a Jenkins script console, or None."""
    if ctx.derived(destination) is not Destination.CODE_CONSOLE:
        return None
    code = ctx.action.text[:_LIMIT]  # type: ignore[attr-defined]
    url = ctx.observation.url or getattr(ctx.action, "url", None) or ""
    if not (_JENKINS_PAGE.search(url) or _JENKINS_CODE.search(code)):
        return None
    return code


@rule("block.typed.ci-controller-takeover", "Groovy typed into a CI controller's script console that hands the "
      "controller over", risk=Risk.CRITICAL, types=TYPE, confidence=0.9)
def ci_controller_takeover(ctx: Context) -> CheckResult:
    """Security switched off, an administrator made, the stored credentials or the controller's own keys printed,
    every job deleted: the script console runs it inside the controller, with no page in between."""
    code = ctx.derived(_groovy)
    if code is None:
        return None
    why = takeover(code)
    return None if why is None else f"typed into the script console, it {why}"


@rule("confirm.typed.ci-controller-change", "Groovy typed into a CI controller's script console that reads its "
      "files or changes it", risk=Risk.HIGH, types=TYPE, confidence=0.8)
def ci_controller_change(ctx: Context) -> CheckResult:
    """A file of the controller's machine read, a program started, jobs or settings changed in bulk: what the
    console runs is not checked by the controller's own permissions."""
    code = ctx.derived(_groovy)
    if code is None or takeover(code) is not None:
        return None
    m = _CHANGE.search(code)
    return None if m is None else f"typed into the script console, it reads or changes the controller: " \
                                  f"{m.group(0)[:40]!r}"


def _store_command(ctx: Context) -> str | None:
    """`vault TEXT` when the text goes to a secret store's web CLI, or None."""
    target = ctx.action.target
    label = normalise(" ".join(p for p in (target.label, target.name) if p)) if target is not None else ""
    url = ctx.observation.url or getattr(ctx.action, "url", None) or ""
    if not label or (not _STORE_CONSOLE.search(label) and not (_STORE_PAGE.search(url) and "console" in label)):
        return None
    text = ctx.action.text[:_LIMIT].strip()  # type: ignore[attr-defined]
    first = text.split(None, 1)[0].lower() if text else ""
    return f"vault {text}" if first in _STORE_VERBS else None


def _store_verdict(ctx: Context):  # type: ignore[no-untyped-def]
    command = ctx.derived(_store_command)
    if command is None:
        return None, None
    from gate.rules.typed import judge_as  # (the typed rules import this module's neighbours)

    return judge_as(Shell(command=command), ctx)


@rule("block.typed.secret-store-console", "A command typed into a secret store's web CLI that the shell rules block",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.9)
def secret_store_console_block(ctx: Context) -> CheckResult:
    """Vault's UI console runs `write`, `delete`, `read` and `list` as the `vault` program does: a root token
    minted or an audit device removed there is the same act."""
    block, _ = ctx.derived(_store_verdict)
    return None if block is None else f"typed into the secret store's console: {block.reason}"


@rule("confirm.typed.secret-store-console", "A command typed into a secret store's web CLI that the shell rules ask "
      "about", risk=Risk.HIGH, types=TYPE, confidence=0.8)
def secret_store_console_ask(ctx: Context) -> CheckResult:
    """The same console with a command the shell rules ask about (an engine mounted or removed, a token made). A
    read is not asked about: the value is shown on the store's own page, as its secret pages show it."""
    block, ask = ctx.derived(_store_verdict)
    if block is not None or ask is None or ask.rule == "confirm.shell.secret-read":
        return None
    return f"typed into the secret store's console: {ask.reason}"


_MANIFEST = re.compile(r"^\s*apiVersion\s*:\s*\S+", re.MULTILINE)
_MANIFEST_KIND = re.compile(r"^\s*kind\s*:\s*\w+", re.MULTILINE)


def _manifest_verdict(ctx: Context):  # type: ignore[no-untyped-def]
    """The file rules' (block, confirm) over a typed Kubernetes manifest, judged as the same text written to a
    manifest file; (None, None) for any other text."""
    text = ctx.action.text[:_LIMIT]  # type: ignore[attr-defined]
    if "kind" not in text or not _MANIFEST.search(text) or not _MANIFEST_KIND.search(text):
        return None, None
    from gate.rules.typed import judge_as  # (the typed rules import this module's neighbours)

    return judge_as(FileWrite(path="typed-manifest.yaml", content=text), ctx)  # type: ignore[arg-type]


@rule("block.typed.cluster-manifest", "A Kubernetes manifest typed into an editor that the file rules block",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def cluster_manifest_block(ctx: Context) -> CheckResult:
    """A cluster dashboard applies what is typed into its editor: a binding that makes everyone an administrator, or
    a pod that mounts the host or joins its processes, is the same act as the file written and applied."""
    block, _ = ctx.derived(_manifest_verdict)
    return None if block is None else f"the typed manifest: {block.reason}"


@rule("confirm.typed.cluster-manifest", "A Kubernetes manifest typed into an editor that the file rules ask about",
      risk=Risk.HIGH, types=TYPE, confidence=0.8)
def cluster_manifest_ask(ctx: Context) -> CheckResult:
    """The same editor with a manifest the file rules ask about (cluster-admin bound to one subject)."""
    block, ask = ctx.derived(_manifest_verdict)
    return None if block is not None or ask is None else f"the typed manifest: {ask.reason}"


# Consul's anonymous token (every caller without one) and ACL rules that grant write over everything
_ANONYMOUS_PAGE = re.compile(r"/acls/(?:policies|tokens)/[^?#]*00000000-0000-0000-0000-000000000002", re.I)
_ACL_MANAGE = re.compile(r"^\s*acl\s*=\s*\"write\"", re.MULTILINE)
_WRITE_ALL = re.compile(r"_prefix\s+\"\"\s*\{\s*policy\s*=\s*\"write\"|^\s*operator\s*=\s*\"write\"", re.MULTILINE)


@rule("block.typed.mesh-acl-everyone", "ACL rules typed that give anonymous callers write, or manage the ACL system",
      risk=Risk.CRITICAL, types=TYPE, confidence=0.85)
def mesh_acl_everyone(ctx: Context) -> CheckResult:
    """Consul's rules language: `acl = "write"` manages every token and policy (a key to everything), and write on
    the empty prefix given to the anonymous token lets every caller change the cluster. A scoped rule (`key_prefix
    "app/" { policy = "read" }`) passes."""
    text = ctx.action.text[:_LIMIT]  # type: ignore[attr-defined]
    if "write" not in text:
        return None
    url = ctx.observation.url or getattr(ctx.action, "url", None) or ""
    if _ACL_MANAGE.search(text):
        return "the typed ACL rules manage the ACL system itself: every token and policy, a key to everything"
    if _ANONYMOUS_PAGE.search(url) and _WRITE_ALL.search(text):
        return "the typed ACL rules give anonymous callers write over everything"
    return None


RULES: tuple[Rule, ...] = (ci_controller_takeover, ci_controller_change, secret_store_console_block,
                           secret_store_console_ask, cluster_manifest_block, cluster_manifest_ask, mesh_acl_everyone)
