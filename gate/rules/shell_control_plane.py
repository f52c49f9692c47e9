"""Shell checks: the command-line clients of self-hosted infrastructure (secret stores, service meshes, schedulers,
GitOps and cluster tools, CI controllers) told to hand over the estate or to destroy it.

Part of the shell Detector (gate/rules/shell.py), entered only for the programs of `NAMES`. The words are each
tool's own (`resources/control_plane.toml`):

- a key to everything minted or given (`vault token create -policy=root`, `policies=root` written to an auth method's
  user, `consul acl token create -policy-name global-management`, Consul's anonymous token given a policy, `nomad acl
  token create -type=management`, cluster-admin bound to a group every caller is in or to a web console's own
  account, Argo CD's default role set to admin) → block, as credential tampering: whoever holds it can do anything,
  and it outlives the task;
  any other token minted asks;
- a cluster's data or workloads deleted en masse (`kubectl delete namespace --all`, a storage system's volumes or
  replicas by `--all` or a label, `argocd app delete -l ...` with its resources, a recursive `consul kv delete` of
  the whole store, a storage system's guard switched off and the system deleted in one line, every CI job deleted
  in a loop) → block (mass destruction);
- a dashboard started without sign-in, or an administration console's service put on a public load balancer →
  block (a defence off; a console exposed);
- a mesh's intentions opened to every service (an `-allow` intention from `*` to `*`) → block; an
  administrator's first password printed, a snapshot of a secret store's data saved → ask;
- a job, pod or container named after a cryptocurrency miner handed to a scheduler → block (miner);
- Groovy posted to Jenkins's script console (`curl --data-urlencode script=... /scriptText`) is judged as typed
  into its page (gate/rules/ci_script_console.py): the controller handed over → block, any other code → ask;
- Jenkins's CLI: a plugin from outside Jenkins's update sites → block (its code runs in the controller); the
  authorisation plugins disabled → block; jobs, plugins or the controller changed → ask.

One named app deleted, a scoped token, a read (`vault kv list`, `consul members`, `argocd app list`,
`kubectl get`) are judged as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources
from urllib.parse import urlsplit

from gate import regex_store
from gate.model import Risk
from gate.rules.ci_script_console import takeover
from gate.shell import Command, Finding, ShellAnalysis

__all__ = ["NAMES", "judge"]

Add = Callable[[Finding], None]

_BOOK = regex_store.toml(resources.files("resources").joinpath("control_plane.toml").read_text("utf-8"))
_ADMIN = frozenset(_BOOK["admin"]["policies"])
_EVERYONE = frozenset(_BOOK["admin"]["everyone"])
_WIPE_KINDS = frozenset(_BOOK["wipe"]["kinds"])
_STORAGE_GROUPS = tuple(_BOOK["wipe"]["storage_groups"])
_GUARDS = tuple(_BOOK["guards"]["words"])
_NO_LOGIN = tuple(_BOOK["consoles"]["no_login"])
_CONSOLES = frozenset(_BOOK["consoles"]["services"])
_AUTH_PLUGINS = frozenset(_BOOK["jenkins"]["auth_plugins"])
_PLUGIN_HOSTS = frozenset(_BOOK["jenkins"]["plugin_hosts"])
_JENKINS_CHANGES = frozenset(_BOOK["jenkins"]["changes"])
_MINERS = frozenset(regex_store.toml(resources.files("resources").joinpath("destinations.toml").read_text("utf-8"))
                    ["mining"]["miners"]) - {"t-rex", "trex", "rigel", "miniz", "gminer", "bminer", "claymore"}

NAMES = frozenset({"vault", "bao", "consul", "nomad", "kubectl", "oc", "argocd", "java", "helm", "docker", "podman",
                   "nerdctl", "curl", "wget", "http", "https", "xh"})
_HTTP = frozenset({"curl", "wget", "http", "https", "xh"})

_WORD = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")
_POLICY_WORD = re.compile(r"^(?:token_)?policies=(.*)$")


def _values(words: tuple[str, ...], *flags: str) -> list[str]:
    """The values given to any of the flags, as `-f v`, `-f=v`, `--f v` or `--f=v`."""
    out: list[str] = []
    for k, w in enumerate(words):
        for f in flags:
            if w == f and k + 1 < len(words):
                out.append(words[k + 1])
            elif w.startswith(f + "="):
                out.append(w[len(f) + 1:])
    return out


def _positional(words: tuple[str, ...]) -> list[str]:
    return [w for w in words if not w.startswith("-")]


def _split(value: str) -> set[str]:
    return {v.strip().strip("'\"") for v in value.split(",")}


def _console_account(subject: str) -> bool:
    """`ns:name` is a web console's own service account (`kubernetes-dashboard:kubernetes-dashboard`): admin given
    to it is admin for whoever reaches the console's page, signed in or not."""
    name = subject.rpartition(":")[2].lower()
    return name in _CONSOLES or "dashboard" in name


def _grant(cmd: Command) -> tuple[str, bool] | None:
    """(what is minted or given, whether it is every right) for a command that mints a token or grants a role."""
    w, pos = cmd.words, _positional(cmd.words)
    if cmd.name in ("vault", "bao"):
        if pos[1:3] == ["token", "create"]:
            policies = set().union(*map(_split, _values(w, "-policy", "--policy"))) if "-policy" in " ".join(w) \
                else set()
            return f"a {cmd.name} token with {', '.join(sorted(policies)) or 'its own'} policies", \
                bool(policies & _ADMIN)
        if pos[1:2] == ["write"]:
            for word in w:
                m = _POLICY_WORD.match(word)
                if m and _split(m.group(1)) & _ADMIN:
                    return f"{word} written to {pos[2] if len(pos) > 2 else 'an auth method'}", True
    elif cmd.name == "consul" and pos[1:3] == ["acl", "token"] and pos[3:4] in (["create"], ["update"]):
        policies = set().union(*map(_split, _values(w, "-policy-name", "-policy-id", "--policy-name")))
        anonymous = bool(set(_values(w, "-id", "-accessor")) & _EVERYONE)
        if policies & _ADMIN:
            return f"a consul token with {', '.join(sorted(policies))}", True
        if anonymous and policies:
            return f"the anonymous token given {', '.join(sorted(policies))}: every caller gets it", True
        return "a consul token", False
    elif cmd.name == "nomad" and pos[1:4] == ["acl", "token", "create"]:
        return "a nomad management token", "management" in _values(w, "-type", "--type")
    elif cmd.name in ("kubectl", "oc") and pos[1:3] in (["create", "clusterrolebinding"], ["create", "rolebinding"]):
        roles = set(_values(w, "--clusterrole", "--role"))
        subjects = _values(w, "--serviceaccount", "--group")
        # (admin bound to a group every caller is in hands the cluster to anyone; bound to one of the organisation's
        # own service accounts or groups it is an administrator's decision, which the cluster rules ask about)
        if roles & _ADMIN and any(s.lower() in _EVERYONE or _console_account(s) for s in subjects):
            return f"{', '.join(sorted(roles))} bound to {', '.join(subjects)}", True
    return None


def _wiped(cmd: Command, analysis: ShellAnalysis) -> str | None:
    w, pos = cmd.words, _positional(cmd.words)
    if cmd.name in ("kubectl", "oc") and pos[1:2] == ["delete"] and len(pos) > 2:
        kinds = set(pos[2].split(","))
        storage = any(k.endswith(_STORAGE_GROUPS) for k in kinds)
        every = "--all" in w or ("-a" in w and "--all" in w)
        selected = bool(_values(w, "-l", "--selector"))
        if (every and (kinds & _WIPE_KINDS or storage)) or (selected and storage):
            return f"{pos[2]} {'--all' if every else 'by a label'}"
        if "-f" in w or any(x.startswith(("-f=", "--filename")) for x in w):
            low = analysis.source.lower()
            if any(g in low for g in _GUARDS) and "true" in low:
                return "a storage system, its deletion guard switched off first"
    if cmd.name == "argocd" and pos[1:3] == ["app", "delete"] and (_values(w, "-l", "--selector") or "--all" in w) \
            and "--cascade=false" not in w:
        return "every app of a label, and what each deployed"
    if cmd.name == "consul" and pos[1:3] == ["kv", "delete"] and "-recurse" in w and \
            all(p.strip("'\"/") == "" for p in pos[3:]):
        return "the whole key-value store"
    if cmd.name == "java" and "delete-job" in w and "list-jobs" in analysis.source.lower():
        return "every job listed by the controller"
    return None


def _console(cmd: Command, analysis: ShellAnalysis) -> tuple[str, str] | None:
    """(rule, why) when a console is started without sign-in or put on a public load balancer."""
    if cmd.name not in ("kubectl", "oc", "helm"):
        return None
    pos = _positional(cmd.words)
    span = cmd.span.lower()
    if pos[1:2] in (["patch"], ["set"], ["edit"], ["upgrade"], ["install"], ["apply"]):
        hit = next((f for f in _NO_LOGIN if f in span), None)
        if hit:
            return "block.shell.defense-evasion", f"starts a dashboard with {hit}: anyone who reaches it is in"
    named = {x for p in pos[2:] for x in (p, p.rpartition("/")[2])}
    if named & _CONSOLES:
        console = sorted(named & _CONSOLES)[0]
        if (pos[1:2] == ["patch"] and re.search(r"loadbalancer|nodeport", span)) or \
                (pos[1:2] == ["expose"] and re.search(r"--type[= ]+(?:loadbalancer|nodeport)", span)):
            return "block.shell.public-exposure", f"puts the {console} console on a public address"
    if pos[1:2] == ["patch"] and "policy.default" in span and "role:admin" in span:
        return "block.shell.credential-tamper", "makes every signed-in user an administrator (policy.default)"
    return None


def _secrets_out(cmd: Command) -> tuple[str, str] | None:
    """(rule, why) for a mesh's authorisation opened to every service, an admin's first password printed, or a
    snapshot of a secret store's data written out."""
    pos = _positional(cmd.words)
    if cmd.name == "consul" and pos[1:3] == ["intention", "create"] and "-deny" not in cmd.words and \
            [p.strip("'\"") for p in pos[3:5]] == ["*", "*"]:
        return "block.shell.defense-evasion", "lets every service call every other: the mesh's authorisation is off"
    if cmd.name == "argocd" and pos[1:3] == ["admin", "initial-password"]:
        return "confirm.shell.secret-read", "prints the administrator's first password"
    if (cmd.name in ("vault", "bao") and pos[1:4] == ["operator", "raft", "snapshot"] and pos[4:5] == ["save"]) or \
            (cmd.name in ("consul", "nomad") and "snapshot" in pos[1:3] and "save" in pos[2:4]):
        return "confirm.shell.secret-read", "writes a copy of everything the store holds (its secrets and tokens) " \
            "to a file"
    return None


# the verbs that hand a scheduler a workload to run
_RUNS = {"nomad": (("job", "run"), ("run",)), "kubectl": (("run",), ("apply",), ("create",)),
         "oc": (("run",), ("apply",), ("create",)), "docker": (("run",), ("create",)),
         "podman": (("run",), ("create",)), "nerdctl": (("run",), ("create",)),
         "helm": (("install",), ("upgrade",))}


def _miner(cmd: Command) -> str | None:
    pos = _positional(cmd.words)
    if any(tuple(pos[1:1 + len(v)]) == v for v in _RUNS.get(cmd.name, ())):
        for word in cmd.words[2:]:
            for part in _WORD.findall(word.rpartition("/")[2]):
                if part in _MINERS or part.split("-")[0] in _MINERS:
                    return word
    return None


def _jenkins(cmd: Command, add: Add) -> None:
    if not any(w.endswith("jenkins-cli.jar") for w in cmd.words):
        return
    words = list(cmd.words)
    k = next(i for i, w in enumerate(words) if w.endswith("jenkins-cli.jar")) + 1
    while k < len(words) and words[k].startswith("-"):
        k += 1 if words[k] in ("-http", "-ssh", "-webSocket", "-noCertificateCheck", "-noKeyAuth") else 2
    if k >= len(words):
        return
    verb, rest = words[k], words[k + 1:]
    if verb == "install-plugin":
        for r in rest:
            if r.startswith(("http://", "https://")) and (urlsplit(r).hostname or "") not in _PLUGIN_HOSTS:
                add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                            f"installs a Jenkins plugin from {urlsplit(r).hostname}, not Jenkins's update site: its "
                            f"code runs in the controller with every credential", cmd.span[:200]))
                return
    if verb == "disable-plugin" and set(rest) & _AUTH_PLUGINS:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"disables {', '.join(sorted(set(rest) & _AUTH_PLUGINS))}: the controller's authorisation is gone",
                    cmd.span[:200]))
        return
    if verb in _JENKINS_CHANGES or verb in ("disable-plugin", "delete-job", "disable-job"):
        add(Finding("confirm.shell.remote-mutation", Risk.HIGH,
                    f"tells the Jenkins controller to {verb}", cmd.span[:200]))


def _script_post(cmd: Command, where: str, add: Add) -> None:
    """Groovy posted to a Jenkins script console (`/scriptText`): judged as the same code typed into its page."""
    if "/scripttext" not in cmd.span.lower():
        return
    code = " ".join(cmd.argv[1:])
    why = takeover(code)
    if why is not None:
        add(Finding("block.shell.remote-code-exec", Risk.CRITICAL,
                    f"{where}posts Groovy to a Jenkins script console that {why}", cmd.span[:200]))
    else:
        add(Finding("confirm.shell.remote-mutation", Risk.HIGH,
                    f"{where}posts Groovy to a Jenkins script console: it runs inside the controller, with every "
                    f"credential it holds", cmd.span[:200]))


def judge(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """The findings of the module docstring, for one command of `NAMES`."""
    if cmd.name in _HTTP:
        _script_post(cmd, where, add)
        return
    if cmd.name == "java":
        _jenkins(cmd, add)
    if (grant := _grant(cmd)) is not None:
        what, everything = grant
        if everything:
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"{where}mints or grants {what}: a key to every secret and system, kept past this task",
                        cmd.span[:200]))
        else:
            # (a credential made: who holds it acts with its rights after this task; a person decides)
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH, f"{where}mints {what}", cmd.span[:200]))
    if (wiped := _wiped(cmd, analysis)) is not None:
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                    f"{where}deletes {wiped}: data and workloads that cannot be brought back", cmd.span[:200]))
    if cmd.name in ("vault", "bao") and _positional(cmd.words)[1:2] == ["delete"] and \
            any(p.strip("/").startswith("sys/audit/") for p in _positional(cmd.words)[2:]):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"{where}removes a Vault audit device through the API path: requests to the secrets are no "
                    f"longer recorded", cmd.span[:200]))
    if (found := _secrets_out(cmd)) is not None:
        add(Finding(found[0], Risk.CRITICAL if found[0].startswith("block") else Risk.HIGH, where + found[1],
                    cmd.span[:200]))
    if (found := _console(cmd, analysis)) is not None:
        add(Finding(found[0], Risk.CRITICAL, where + found[1], cmd.span[:200]))
    if (miner := _miner(cmd)) is not None:
        add(Finding("block.shell.miner", Risk.CRITICAL,
                    f"{where}hands the scheduler a cryptocurrency miner ({miner[:60]}): the cluster's power spent "
                    f"for someone else", cmd.span[:200]))
