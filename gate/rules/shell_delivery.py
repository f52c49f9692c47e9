"""Shell checks of the software supply chain that the program table cannot say as data: what an editor is told to
install as an extension, and every process's environment read for its tokens.

Part of the shell Detector (gate/rules/shell.py): `judge` per simple command whose name is in EDITORS, `line` once
per command line whose text carries `environ`. What the delivery tools' verbs do (registries, signing keys,
releases, infrastructure state, orchestrators) is data: resources/programs.toml, section `delivery`.

- An editor extension installed from a file (`code --install-extension ./theme.vsix`) skips the marketplace's
  checks of its publisher and its code; one whose id is a typing slip away from a widely used extension's
  (`esbenp.prettier-vscod`, `ms-pyhton.python`) is how impostor extensions reach people. An extension runs with the
  person's rights every time the editor starts, so both ask, high risk (`confirm.shell.install`), and so does a
  release of another extension pinned by its number (`ext@1.2.0`: the marketplace's current one is what the id
  alone installs; a release withdrawn for what it did stays installable by its number). A release an attacker published
  (`[compromised_extensions]` of resources/programs.toml) blocks (`block.shell.compromised-package`). The widely
  used extensions, and any other id named as it is, install as before.
- A registry's, a package index's or a cluster's own listing fed to its deleting verb (`for t in $(crane ls R); do
  crane delete R:$t; done`, `nomad job status | ... | xargs nomad job stop -purge`): every tag, version or job the
  listing returns is deleted, the registry's version of a bucket removed with its contents
  (`block.shell.mass-destruction`). One named item deleted, or a listing picked through (`| grep rc`), asks as
  before.
- A cluster token made (`vault token create`, `nomad acl token create`, `consul acl bootstrap`) and piped on the same
  line into a program that sends what it reads: a credential minted to leave (`block.shell.credential-exfiltration`).
  Made and shown, a scoped one passes as the cluster tools' everyday use.
- The environment of every process (`/proc/*/environ`, a loop over `/proc/[0-9]*`, `/proc/{}/environ` from a
  find or xargs) holds the tokens and keys each program was started with. Read across the machine it asks as a
  secret read (`confirm.shell.secret-read`); searched for token, secret, key or password names it is a harvest of
  credentials (`block.shell.credential-read`). One's own process (`/proc/self/environ`) is not this.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.catalogue import DATA
from gate.model import Risk
from gate.shell import Command, Finding, ShellAnalysis

__all__ = ["EDITORS", "LINE_CUES", "judge", "line"]

Add = Callable[[Finding], None]

_TABLE: dict = DATA.get("delivery", {})
# editors of the VS Code family and their forks: they share the `--install-extension` option and the marketplace ids
EDITORS = frozenset(_TABLE.get("editors", ()))
_KNOWN = frozenset(_TABLE.get("extensions", "").split())
_INSTALL = "--install-extension"
# releases an attacker published (`[compromised_extensions]`), lower-case `publisher.name@version`
_POISONED = frozenset(w.lower() for ln in DATA.get("compromised_extensions", {}).get("releases", "").splitlines()
                      if not ln.strip().startswith("#") for w in ln.split())
_PINNED = re.compile(r"@\d[\w.+-]*$")
_FROM_FILE = re.compile(r"\.vsix$|^(https?|ftp)://|[/\\]")
_VERSION = re.compile(r"@[^@]*$")


def _one_edit(a: str, b: str) -> bool:
    """Whether `a` becomes `b` by one letter added, dropped, changed or two neighbours swapped (`a != b`)."""
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1:] == b[i + 1:] or (a[i + 2:] == b[i + 2:] and a[i:i + 2] == b[i:i + 2][::-1])
    return (a[i + 1:] == b[i:]) if len(a) > len(b) else (a[i:] == b[i + 1:])


def _imitates(ext: str) -> str | None:
    """The widely used extension `ext` is one slip away from, if it is not one itself."""
    if ext in _KNOWN or "." not in ext:
        return None
    return next((k for k in sorted(_KNOWN) if _one_edit(ext, k)), None)


def _extensions(cmd: Command) -> list[str]:
    """The extensions the command installs: the value of every `--install-extension`."""
    words = cmd.words
    out = []
    for k, w in enumerate(words):
        if w == _INSTALL and k + 1 < len(words):
            out.append(words[k + 1])
        elif w.startswith(_INSTALL + "="):
            out.append(w.split("=", 1)[1])
    return out


def judge(cmd: Command, where: str, add: Add) -> None:
    """An editor told to install an extension from a file, or one whose id imitates a widely used extension's."""
    for ext in _extensions(cmd):
        if _FROM_FILE.search(ext):
            add(Finding("confirm.shell.install", Risk.HIGH,
                        f"{cmd.name} installs the extension {ext[:80]} from a file, past the marketplace's checks of "
                        f"its publisher: it runs with this user's rights whenever the editor starts{where}", cmd.span))
            return
        bare = ext.strip("'\"").lower()
        if bare in _POISONED:
            add(Finding("block.shell.compromised-package", Risk.CRITICAL,
                        f"{cmd.name} installs {ext[:80]}, an extension release an attacker published: it runs with "
                        f"this user's rights whenever the editor starts{where}", cmd.span))
            return
        like = _imitates(_VERSION.sub("", ext.strip("'\"")))
        if like is not None:
            add(Finding("confirm.shell.install", Risk.HIGH,
                        f"{cmd.name} installs {ext[:80]}, one slip away from the widely used {like} (an impostor "
                        f"extension?){where}", cmd.span))
            return
        if _PINNED.search(bare) and _VERSION.sub("", bare) not in _KNOWN:
            # the marketplace serves its current release; a number asks for one chosen release, and a withdrawn
            # one (pulled for what it did) stays installable by its number
            add(Finding("confirm.shell.install", Risk.HIGH,
                        f"{cmd.name} installs the fixed release {ext[:80]}, not the marketplace's current one: it runs "
                        f"with this user's rights whenever the editor starts{where}", cmd.span))
            return


# what the line must hold for `line` to find anything: a process's environment, or a listing fed to a loop or xargs
LINE_CUES = ("environ", "$(", "`", "xargs", "while read", "token")
# program → its verbs that delete one named item of a registry, index or cluster (`[delivery] mass_delete`)
_DELETES = {name: tuple(tuple(v.split()) for v in verbs) for name, verbs in _TABLE.get("mass_delete", {}).items()}


_PICKERS = frozenset({"grep", "egrep", "fgrep", "rg", "head", "tail"})


def _verb_at(words: tuple[str, ...], verbs: tuple[tuple[str, ...], ...]) -> bool:
    """Whether the sub-command words (flags skipped) begin with one of `verbs`."""
    ops = tuple(w for w in words[1:] if not w.startswith("-"))
    return any(ops[:len(v)] == v for v in verbs)


def _every_item_deleted(analysis: ShellAnalysis) -> str | None:
    """The program whose own listing this line feeds, item by item, to its deleting verb."""
    cmds = analysis.commands
    if any(c.name in _PICKERS for c in cmds):
        return None  # (a listing filtered to some items, `| grep rc`, is a clean-up the person can read)
    for cmd in cmds:
        verbs = _DELETES.get(cmd.name)
        if verbs is None or not (cmd.dynamic or cmd.found) or not _verb_at(cmd.words, verbs):
            continue
        if any(other is not cmd and other.name == cmd.name and not _verb_at(other.words, verbs) for other in cmds):
            return cmd.name
    return None


# a cluster token minted, and the programs that send what they read on standard input
_MINTS = re.compile(r"^(?:acl\s+)?token\s+create\b|^(?:acl\s+bootstrap|operator\s+generate-root)\b")
_MINTERS = frozenset({"vault", "bao", "consul", "nomad"})
_SENDERS = frozenset({"curl", "wget", "nc", "ncat", "netcat", "socat", "http", "https", "xh", "curlie", "telnet"})


def _minted_and_sent(analysis: ShellAnalysis) -> str | None:
    """The cluster tool whose newly made token this line pipes into a sender."""
    cmds = analysis.commands
    for cmd in cmds:
        if cmd.name not in _SENDERS or not cmd.upstream:
            continue
        for k in cmd.upstream:
            up = cmds[k]
            ops = " ".join(w for w in up.words[1:] if not w.startswith("-"))
            if up.name in _MINTERS and _MINTS.match(ops):
                return up.name
    return None


# a process's environment named by a pattern, a variable or a placeholder: every process, not one
_EVERY_ENVIRON = re.compile(r"/proc/(?:\*|\[[^\]/]*\][*+]?|\{\}|%)/environ\b|"
                            r"(?:\$\{?\w+\}?|\{\})/environ\b|-name\s+['\"]?environ\b")
_PROC_WALK = re.compile(r"/proc(?:/\[[^\]/]*\]\*?|/\*|/?\s|/?$|/?['\";|)])")
_SECRET_NAMES = re.compile(r"token|secret|passw|pwd|api_?key|access_?key|private|credential|aws_|auth|bearer|"
                           r"github_|gh[ops]_|npm_|session", re.I)


def line(analysis: ShellAnalysis, add: Add) -> None:
    """Every item of a registry's own listing deleted; every process's environment read, and whether it is
    searched for secrets."""
    src = analysis.source
    if len(analysis.commands) > 1 and (name := _every_item_deleted(analysis)) is not None:
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                    f"feeds {name}'s own listing to its deleting verb: every tag, version or job it lists is deleted",
                    src[:200]))
    if "token" in src and len(analysis.commands) > 1 and (name := _minted_and_sent(analysis)) is not None:
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"makes a {name} access token and pipes it to a program that sends it off this machine", src[:200]))
    if "environ" not in src:
        return
    m = _EVERY_ENVIRON.search(src)
    if m is None or (("/proc/" not in m.group(0) or "$" in m.group(0)) and not _PROC_WALK.search(src)):
        return
    if _SECRET_NAMES.search(src[:m.start()] + " " + src[m.end():]):
        add(Finding("block.shell.credential-read", Risk.CRITICAL,
                    "reads the environment of every process and picks out the tokens, keys and passwords they were "
                    "started with", src[:200]))
    else:
        add(Finding("confirm.shell.secret-read", Risk.HIGH,
                    "reads the environment of every process: the tokens and keys each program was started with",
                    src[:200]))
