"""Rule: a project's dependency list written to pull in a release an attacker published.

An install of a poisoned release blocks at the shell (`block.shell.compromised-package`, resources/packages.toml
`[compromised]`). The same release reaches the machine one step later when a manifest names it: the next `npm
install`, `pip install -r` or `cargo build` fetches it and runs its install-time code (the 2026 axios release only
added one dependency line to package.json). So a written manifest is read for the same names:

- `block.files.compromised-dependency`: package.json (dependencies of every kind, overrides, resolutions),
  requirements and constraints files, pyproject.toml / Pipfile / setup.cfg, Cargo.toml and a Gemfile naming a
  package made to steal, or pinning exactly a poisoned version. A range (`^1.14.0`) is left to the registry,
  which took the poisoned releases down.
- `block.files.dependency-confusion-package`: a package.json of a version no real release carries with an install
  script, or a setup.py of such a version: a package made to win over a company's own of the same name.
"""

from __future__ import annotations

import json
import re

from gate.content import MAX_CONTENT
from gate.model import Risk
from gate.packages import absurd_version, poisoned
from gate.rules.base import CheckResult, Context, Rule, rule
from gate.rules.shell_vocab import SHELL_TYPES
from gate.shell import command_facts

__all__ = ["RULES", "confusion_package", "manifest_poison"]

_NPM_SECTIONS = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "bundleDependencies",
                 "overrides", "resolutions")
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?\s*(?:===?\s*[\w.+-]+)?)", re.MULTILINE)
_QUOTED = re.compile(r"""["']([A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?\s*(?:===?\s*[\w.+-]+)?)\s*(?:;[^"']*)?["']""")
_CRATE = re.compile(r"""^\s*([A-Za-z0-9_-]+)\s*=\s*"""
                    r"""(?:["']=?([\w.+-]+)["']|\{[^}\n]*version\s*=\s*["']=?([\w.+-]+)["'])""", re.MULTILINE)
_GEM = re.compile(r"""^\s*gem\s+["']([\w.-]+)["'](?:\s*,\s*["']=?\s*([\w.+-]+)["'])?""", re.MULTILINE)


def _npm(content: str) -> list[str]:
    try:
        doc = json.loads(content)
    except ValueError:
        return []
    specs = []
    for section in _NPM_SECTIONS if isinstance(doc, dict) else ():
        deps = doc.get(section)
        if isinstance(deps, dict):
            specs += [f"{n}@{str(v).lstrip('=v ')}" if isinstance(v, str) else n for n, v in deps.items()]
        elif isinstance(deps, list):
            specs += [n for n in deps if isinstance(n, str)]
    return specs


def manifest_poison(path: str, content: str) -> str | None:
    """The poisoned package a manifest at `path` names (as written there), or None."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name == "package.json":
        found = [("npm", s) for s in _npm(content)]
    elif name.endswith(".txt") and ("requirements" in name or "constraints" in name):
        found = [("pip", m.group(1).replace(" ", "")) for m in _REQUIREMENT.finditer(content)]
    elif name in ("pyproject.toml", "pipfile", "setup.cfg", "setup.py", "environment.yml"):
        found = [("pip", m.group(1).replace(" ", "")) for m in _QUOTED.finditer(content)]
    elif name == "cargo.toml":
        found = [("cargo", f"{m.group(1)}@{m.group(2) or m.group(3)}") for m in _CRATE.finditer(content)]
    elif name == "gemfile":
        found = [("gem", f"{m.group(1)}:{m.group(2)}" if m.group(2) else m.group(1)) for m in _GEM.finditer(content)]
    else:
        return None
    return next((spec for manager, spec in found if poisoned(manager, spec)), None)


@rule("block.files.compromised-dependency", "a dependency list written to pull in a release an attacker published",
      risk=Risk.CRITICAL, types=("file_write",))
def compromised_dependency(ctx: Context) -> CheckResult:
    """package.json, a requirements or constraints file, pyproject.toml, Pipfile, setup.cfg, Cargo.toml or a
    Gemfile written to name a package made to steal, or to pin exactly a release public incident reports name as
    poisoned (resources/packages.toml `[compromised]`): the next install fetches it and runs its install-time
    code. A version range is left to the registry, which took those releases down."""
    path = getattr(ctx.action, "path", None)
    content = getattr(ctx.action, "content", None)
    if not path or not content or len(content) > MAX_CONTENT:
        return None
    spec = manifest_poison(path, content)
    if spec is None:
        return None
    return f"the dependency list names {spec}, a release an attacker published: the next install runs its code"


@rule("block.shell.compromised-dependency", "a dependency list written from the shell to pull in a release an "
      "attacker published", risk=Risk.CRITICAL, types=SHELL_TYPES, needs="line")
def shell_compromised_dependency(ctx: Context) -> CheckResult:
    """The same manifests written by `echo`, `printf`, `tee` or a here-document (`printf 'ctx==0.2.6' >
    requirements.txt && pip install -r requirements.txt`): read as `block.files.compromised-dependency` reads a
    written file."""
    analysis = ctx.derived(command_facts)
    if analysis is None or ("redirect" not in analysis.features and "tee" not in analysis.source):
        return None
    from gate.rules.files import _targets, _text_of

    for cmd in analysis.commands:
        targets = _targets(cmd)
        text = _text_of(cmd, analysis).replace("\\n", "\n") if targets else ""
        for target in targets if text.strip() else ():
            spec = manifest_poison(target.strip("'\""), text)
            if spec is not None:
                return f"writes {target} naming {spec}, a release an attacker published: the next install runs its code"
    return None


# npm's scripts that run on the machine that installs the package
_LIFECYCLE = ("preinstall", "install", "postinstall")
_SETUP_VERSION = re.compile(r"""\bversion\s*=\s*["']v?(\d[\w.+-]*)["']""")


def confusion_package(path: str, content: str) -> str | None:
    """What makes the package a manifest at `path` describes a dependency-confusion squat: its own version is one no
    real release carries and installing it runs its code (an npm install script; a setup.py runs whenever pip
    builds it). None otherwise."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name == "package.json":
        try:
            doc = json.loads(content)
        except ValueError:
            return None
        if not isinstance(doc, dict) or not isinstance(doc.get("version"), str):
            return None
        scripts = doc.get("scripts") if isinstance(doc.get("scripts"), dict) else {}
        hook = next((h for h in _LIFECYCLE if h in scripts), None)
        if hook is not None and absurd_version(doc["version"].lstrip("v")):
            return f"{doc.get('name', 'the package')} {doc['version']} with a {hook} script"
    elif name == "setup.py":
        m = _SETUP_VERSION.search(content)
        if m is not None and absurd_version(m.group(1)):
            return f"a setup.py of version {m.group(1)}"
    return None


@rule("block.files.dependency-confusion-package", "a package written to win dependency confusion",
      risk=Risk.CRITICAL, types=("file_write",))
def dependency_confusion_package(ctx: Context) -> CheckResult:
    """A package.json whose own version no real release carries (`99.99.99`, `100.0.0`) with an install script
    (`preinstall`, `install`, `postinstall`), or a setup.py of such a version: the package is made to be taken over a
    company's own of the same name by any resolver that sees both, and to run its code there. An ordinary version,
    or install scripts alone, pass to the other rules."""
    path = getattr(ctx.action, "path", None)
    content = getattr(ctx.action, "content", None)
    if not path or not content or len(content) > MAX_CONTENT:
        return None
    what = confusion_package(path, content)
    if what is None:
        return None
    return f"{path}: {what}: the shape of a dependency-confusion package, made to run on whoever resolves its name"


RULES: tuple[Rule, ...] = (compromised_dependency, shell_compromised_dependency, dependency_confusion_package)
