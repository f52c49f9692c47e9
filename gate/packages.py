"""What a package install brings onto the machine: the widely used packages of each ecosystem
(resources/packages.toml, read once at import), and how a named install or removal is judged by them.

A named install is judged by *what* it installs. Every package widely used and from the ecosystem's own
registry: ordinary development work, nothing to ask. A name one typing slip away from a widely used one
(a letter added, dropped, swapped or changed; a separator, a look-alike digit or a look-alike letter in
place of one) is how typosquatted packages reach people: it asks, high risk. So does a name that says what
it is (`malicious-crate`), and a package from outside the registry (a GitHub shorthand, a third-party
tap, an npm version that names a git repository). Any other name asks as a package the gate does not know:
the person decides; from a distribution's own archive (`curated`), whose maintainers review every package,
it passes, unless it is a tool whose everyday work is attack, interception, hidden remote access or mining.
Adding a package source (a PPA, a repository URL, a bucket) passes when its project keeps it, and asks at
high risk otherwise.

    ecosystem_of("npm")                         -> Ecosystem | None
    judge_install("pip", ("flask==3.0.0",))     -> Concern | None   None: every package is a known one
    judge_removal("pip", ("requests",), words)  -> Concern | None   None: a project dependency taken out
    default_source("pip", "https://pypi.org/simple") -> bool        the ecosystem's own registry
    adds_source("zypper", words) -> str | None / known_source(src)  a package source added, kept by its project
    value_flags("pip") / source_flag("pip", "--index-url")          how the manager's flags take values
    overrides("pip", words) -> str | None                          an option that overrides the system's packages
    teardown("rustup", ("self", "uninstall")) -> Concern | None     a toolchain manager removing itself or a version

A name the gate does not know pinned to a version no real release carries (`99.99.99`) is dependency confusion's
shape: it asks at high risk, and blocks when the name also says it is a company's own (`[confusion]`).

Everything here is pure and compiled once: name sets, namespace prefixes and the index of names one
deletion away from a known one (the typo search costs a few dict lookups per unknown name).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import NamedTuple

from gate import regex_store
from gate.model import Risk

__all__ = ["ECOSYSTEMS", "TEARDOWN_PROGRAMS", "Catalogue", "Concern", "Ecosystem", "absurd_version", "adds_source",
           "default_source",
           "ecosystem_of", "judge_install", "judge_removal", "known_source", "load", "normalise",
           "official_install_script", "overrides", "poisoned", "source_flag", "teardown", "value_flags"]

_VERSION = re.compile(r"^[v^~=<>!]*\d+(\.[0-9a-z*+-]+)*$")  # `7.1.0`, `^1.2`: a version, never a name
_PEP503 = re.compile(r"[-_.]+")
_SPEC_CUT = re.compile(r"[=<>!~;(\s]")  # where a PEP 508 requirement's name ends
_SEPARATORS = re.compile(r"[-_./@]+")
_GLOB = re.compile(r"[*?\[]")
# look-alike digits and letter pairs, folded before comparing (`reque5ts`, `djangо`, `rnatplotlib`)
_LOOKALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
                            "9": "g", "$": "s"})
_LOCAL_VERSION = ("file:", "link:", "workspace:", "portal:")  # npm versions that are paths of the project
_MIN_EDIT = 5  # a shorter name is too close to others for one edit to mean a slip (a known one may be one shorter)


class Concern(NamedTuple):
    """Why an install or a removal asks: its risk and what to tell the person."""

    risk: Risk
    why: str


@dataclass(frozen=True, slots=True)
class NameIndex:
    """The names of one list, and what finds a slip of one of them."""

    names: frozenset[str]
    folded: dict[str, str]  # a name without separators, look-alikes folded → the name
    # a name of 4 letters or more, and it with any one letter deleted → names: built by `warm` with a gate that
    # enforces, else the first time a name that is not known is checked (tens of thousands of keys, some 50 ms:
    # most runs of `deskgate check` never need it)
    _near: dict[str, list[str]] | None = None

    @property
    def near(self) -> dict[str, list[str]]:
        if self._near is None:
            object.__setattr__(self, "_near", _near(self.names))
        return self._near  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Ecosystem:
    """One registry and the managers that install from it, compiled from its packages.toml table."""

    name: str
    managers: tuple[str, ...]
    known: frozenset[str]  # every name of `indexes`
    indexes: tuple[NameIndex, ...]  # its own list, then the lists it includes
    prefixes: tuple[str, ...]  # namespaces: every name starting with one is its owner's
    sources: frozenset[str]
    source_flags: frozenset[str]
    value_flags: dict[str, frozenset[str]]  # per manager: the flags that take the next word as their value
    itself: frozenset[str]
    removes: str  # "dependency" | "system"
    curated: bool = False  # a distribution's own signed archive: every name in it was reviewed by its maintainers
    bins: frozenset[str] = frozenset()  # programs widely used packages install, which a runner finds in the project


_VERSION_SEP = re.compile(r"[=:<>~@]")


def normalise(eco: str, spec: str) -> str | None:
    """The registry's name for one install argument of ecosystem `eco` (folded words), or None when the
    argument is a bare version (`gem install rails -v 7.1` leaves `7.1` behind) or a local path."""
    if _VERSION.match(spec):
        return None
    if eco in ("pypi", "conda"):
        name = spec.split("[", 1)[0]
        name = _SPEC_CUT.split(name, maxsplit=1)[0].split("@", 1)[0].strip()
        return _PEP503.sub("-", name) if name else None
    if eco == "npm":
        if "@npm:" in spec:  # an alias: `foo@npm:bar@1.0` installs bar
            spec = spec.split("@npm:", 1)[1]
        spec = spec.removeprefix("npm:")
        at = spec.find("@", 1)
        if at > 0 and spec.startswith(_LOCAL_VERSION, at + 1):
            return None  # the project's own package from a path (`lib@file:../lib`)
        return spec[:at] if at > 0 else spec
    if eco == "crates":
        return spec.split("@", 1)[0].replace("_", "-")
    if eco == "rubygems":
        return spec.split(":", 1)[0]
    if eco in ("go", "brew"):
        return spec.split("@", 1)[0]
    if eco in ("debian", "alpine"):
        return _VERSION_SEP.split(spec, maxsplit=1)[0].split("/", 1)[0]
    if eco == "arch":
        return spec.rsplit("/", 1)[-1].split("=", 1)[0]
    if eco == "packagist":
        return spec.split(":", 1)[0]
    if eco == "nuget":  # `dotnet add [PROJECT] package NAME`, `dotnet add reference PATH`
        return None if spec in ("package", "reference") or spec.endswith(("proj", ".sln")) else spec
    if eco == "flatpak" and spec.startswith(("app/", "runtime/")):  # a full ref: app/ID/arch/branch
        return spec.split("/")[1]
    return spec


def _fold(name: str) -> str:
    return _SEPARATORS.sub("", name).translate(_LOOKALIKE).replace("rn", "m").replace("vv", "w")


def _one_edit(a: str, b: str) -> bool:
    """Optimal string alignment distance of exactly one: one letter inserted, deleted, changed, or two
    neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [k for k in range(len(a)) if a[k] != b[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and
                                  a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    k = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[k:] == long_[k + 1:]


def _names(value: str | list[str]) -> list[str]:
    """A list written as an array, or as text: names separated by blanks, `#` lines are comments."""
    if isinstance(value, list):
        return [v.lower() for v in value]
    return [w.lower() for line in value.splitlines() if not line.lstrip().startswith("#") for w in line.split()]


def _near(known: frozenset[str]) -> dict[str, list[str]]:
    near: dict[str, list[str]] = {}
    for n in sorted(known):
        if len(n) >= _MIN_EDIT - 1:
            near.setdefault(n, []).append(n)
            for k in range(len(n)):
                near.setdefault(n[:k] + n[k + 1:], []).append(n)
    return near


def _index(eco: str, names: list[str], stems: Iterable[str] = ()) -> NameIndex:
    known = frozenset(normalise(eco, n) or n for n in names)
    folded: dict[str, str] = {}
    for n in sorted(known):
        folded.setdefault(_fold(n), n)
    for stem in stems:  # an owner's namespace is a name to imitate too (`@typse/node`)
        folded.setdefault(_fold(stem), stem)
    return NameIndex(known, folded)


class Catalogue(NamedTuple):
    """A compiled packages.toml."""

    ecosystems: dict[str, Ecosystem]  # by manager
    malicious: frozenset[str]  # words that say what a package is
    dual_use: re.Pattern[str]  # tools whose work is attack, interception, hidden access or mining, one regex
    core: re.Pattern[str]  # the globs of core system packages, one regex
    hosts: frozenset[str]  # hosts of package repositories kept by the projects they serve
    ppas: frozenset[str]
    buckets: frozenset[str]
    install_scripts: tuple[str, ...]  # "host/path-prefix" of projects' published install scripts
    # per ecosystem: a poisoned package's name -> its poisoned versions (empty: every release is the attacker's)
    compromised: dict[str, dict[str, frozenset[str]]]
    internal_words: frozenset[str]  # words that say a package name is a company's own (`[confusion]`)
    overrides: dict[str, frozenset[str]]  # per manager: options that override the system's own packages
    override_env: frozenset[str]  # variables that set such an option (folded names)
    teardown: dict[str, tuple[tuple[str, ...], ...]]  # "self" | "version": sub-command word sequences by program
    zaps: dict[str, frozenset[str]]  # per manager: removal options that also delete the application's data


def load(text: str) -> Catalogue:
    """Compile a packages.toml document. Errors name the table."""
    data = regex_store.toml(text)
    ecos = data.get("ecosystem", {})
    indexes: dict[str, NameIndex] = {}
    for name, spec in ecos.items():
        if not spec.get("managers"):
            raise ValueError(f"packages.toml [ecosystem.{name}]: no managers")
        if spec.get("removes", "system") not in ("dependency", "system"):
            raise ValueError(f"packages.toml [ecosystem.{name}]: removes must be dependency or system")
        stems = (ns.rstrip("/.") for ns in _names(spec.get("namespaces", [])))
        indexes[name] = _index(name, _names(spec.get("popular", [])), stems)
    by_manager: dict[str, Ecosystem] = {}
    for name, spec in ecos.items():
        own = [indexes[name]]
        for other in spec.get("include", ()):
            if other not in indexes:
                raise ValueError(f"packages.toml [ecosystem.{name}]: include names unknown ecosystem {other!r}")
            own.append(indexes[other])
        namespaces = _names(spec.get("namespaces", []))
        whole = {ns for ns in namespaces if not ns.endswith(("/", "."))}  # `hashicorp/tap`: itself, and below it
        eco = Ecosystem(
            name=name, managers=tuple(spec["managers"]),
            known=frozenset().union(whole, *(i.names for i in own)), indexes=tuple(own),
            prefixes=tuple(ns + "/" if ns in whole else ns for ns in namespaces),
            sources=frozenset(s.lower().rstrip("/") for s in spec.get("sources", ())),
            source_flags=frozenset(spec.get("source_flags", ())),
            value_flags={m: frozenset((*spec.get("value_flags", ()), *spec.get("source_flags", ()),
                                       *spec.get("manager_value_flags", {}).get(m, ()))) for m in spec["managers"]},
            itself=frozenset(normalise(name, i) or i for i in spec.get("itself", ())),
            removes=spec.get("removes", "system"), curated=bool(spec.get("curated", False)),
            bins=frozenset(_names(spec.get("runner_bins", []))))
        for m in eco.managers:
            if m in by_manager:
                raise ValueError(f"packages.toml: manager {m!r} is in two ecosystems")
            by_manager[m] = eco
    words = frozenset(w.lower() for w in data.get("words", {}).get("malicious", ()))
    dual = _names(data.get("words", {}).get("dual_use", []))
    dual_rx = re.compile("|".join(fnmatch.translate(g) for g in dual) or r"(?!)")
    core = _names(data.get("removal", {}).get("core", []))
    core_rx = re.compile("|".join(fnmatch.translate(g) for g in core) or r"(?!)")
    repos = data.get("repositories", {})
    overrides = data.get("overrides", {})
    teardown = data.get("teardown", {})
    return Catalogue(by_manager, words, dual_rx, core_rx, frozenset(_names(repos.get("hosts", []))),
                     frozenset(_names(repos.get("ppas", []))), frozenset(_names(repos.get("buckets", []))),
                     tuple(u.lower() for u in _names(data.get("install_scripts", {}).get("urls", []))),
                     _poisoned(data.get("compromised", {}), ecos),
                     frozenset(_names(data.get("confusion", {}).get("internal_words", []))),
                     {m: frozenset(f) for m, f in overrides.get("flags", {}).items()},
                     frozenset(_names(overrides.get("env", []))),
                     {kind: tuple(tuple(e.lower().split()) for e in teardown.get(kind, ())) for kind in ("self",
                                                                                                       "version")},
                     {m: frozenset(f) for m, f in teardown.get("data", {}).items()})


def _poisoned(table: dict[str, str], ecos: dict[str, object]) -> dict[str, dict[str, frozenset[str]]]:
    """`[compromised]`: per ecosystem, name -> poisoned versions (`name@version`; a bare name: every version)."""
    out: dict[str, dict[str, set[str]]] = {}
    for eco, text in table.items():
        if eco not in ecos:
            raise ValueError(f"packages.toml [compromised]: unknown ecosystem {eco!r}")
        for entry in _names(text):
            at = entry.find("@", 1)
            name, version = (entry[:at], entry[at + 1:]) if at > 0 else (entry, "")
            name = normalise(eco, name) or name
            out.setdefault(eco, {}).setdefault(name, set()).update((version,) if version else ())
            if not version:
                out[eco][name] = set()  # every release: no version narrows it
    return {eco: {n: frozenset(v) for n, v in names.items()} for eco, names in out.items()}


_DATA = load(resources.files("resources").joinpath("packages.toml").read_text("utf-8"))
ECOSYSTEMS, _MALICIOUS, _CORE, _DUAL_USE = _DATA.ecosystems, _DATA.malicious, _DATA.core, _DATA.dual_use
# the longer words (and those with a hyphen) also count inside a name written as one word (`tokengrabber`)
_MALICIOUS_PARTS = tuple(sorted(w for w in _MALICIOUS if len(w) >= 7 or "-" in w))


def warm() -> None:
    """Build every list's slip index (`NameIndex.near`) now, once per process: the first install of a name
    that is not known then pays no tens of milliseconds (gate/compiled.py calls this with the policy)."""
    for eco in _DATA.ecosystems.values():
        for index in eco.indexes:
            index.near  # noqa: B018 - the property builds it


def ecosystem_of(manager: str) -> Ecosystem | None:
    """The ecosystem a package manager installs from (None: the gate keeps no list for it)."""
    return ECOSYSTEMS.get(manager)


def value_flags(manager: str) -> frozenset[str] | None:
    """The flags of `manager` that take the next word as their value (None: not known for it)."""
    eco = ECOSYSTEMS.get(manager)
    return eco.value_flags[manager] if eco else None


def source_flag(manager: str, flag: str) -> bool:
    """`flag` names where `manager` takes packages from (`--index-url`, `--registry`, `-c`)."""
    eco = ECOSYSTEMS.get(manager)
    return eco is not None and flag in eco.source_flags


def default_source(manager: str, value: str) -> bool:
    """`value` (of a source flag) is the ecosystem's own registry: an https URL on one of its hosts, or
    one of its channel names. Plain http never is (anyone on the way can change what comes)."""
    eco = ECOSYSTEMS.get(manager)
    if eco is None or not value:
        return False
    value = value.lower().rstrip("/")
    if "=" in value and "://" in value:  # uv's `--index name=https://...`
        value = value.split("=", 1)[1]
    if "://" not in value:
        return value in eco.sources
    if not value.startswith("https://"):
        return False
    host = value[8:].split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0]
    return host in eco.sources or value in eco.sources


def _known(eco: Ecosystem, name: str) -> bool:
    if name in eco.known or name.startswith(eco.prefixes):
        return True
    if eco.name == "go":  # a package inside a known module (`golang.org/x/tools/cmd/goimports`)
        k = name.rfind("/")
        while k > 0:
            if name[:k] in eco.known:
                return True
            k = name.rfind("/", 0, k)
    return False


def _imitates(eco: Ecosystem, name: str) -> str | None:
    """The known name `name` looks like a slip of, if any."""
    f = _fold(name)
    for index in eco.indexes:
        hit = index.folded.get(f)
        if hit and hit != name:
            return hit
    if len(name) < _MIN_EDIT:
        return None
    deletions = [name, *(name[:k] + name[k + 1:] for k in range(len(name)))]
    for index in eco.indexes:
        candidates = sorted({c for d in deletions for c in index.near.get(d, ())})
        for c in candidates:
            if _one_edit(name, c):
                return c
    if eco.name == "npm" and name.startswith("@") and "/" in name:  # a scope one slip from an owner's
        scope, rest = name.split("/", 1)
        for index in eco.indexes:
            hit = index.folded.get(_fold(scope))
            if hit and hit != scope:
                return f"{hit}/{rest}"
    return None


def _one(eco: Ecosystem, name: str) -> Concern | None:
    if _known(eco, name):
        return None
    if any(w in _MALICIOUS for w in _SEPARATORS.split(name)) or any(w in name for w in _MALICIOUS_PARTS):
        return Concern(Risk.HIGH, f"{name}: its name says what it is")
    if eco.name == "npm" and not name.startswith("@") and "/" in name:
        return Concern(Risk.HIGH, f"{name}: from a GitHub repository, not the npm registry")
    if eco.name == "brew" and "/" in name:
        return Concern(Risk.HIGH, f"{name}: from a third-party tap")
    if eco.curated and _DUAL_USE.match(name):
        return Concern(Risk.HIGH, f"{name}: a tool for attacks, interception, hidden remote access or mining")
    if eco.curated:  # the distribution's own archive, which its maintainers review: no stranger uploads a look-alike
        return None  # there, and a slip of the hand installs nothing or another reviewed package
    like = _imitates(eco, name)
    if like:
        return Concern(Risk.HIGH, f"{name} looks like a misspelling of {like} (a typosquatted package?)")
    return Concern(Risk.MEDIUM, f"{name}: a package the gate does not know")


def adds_source(manager: str, words: Sequence[str]) -> str | None:
    """The package source this command adds (a URL, a PPA, a repository line, a bucket), if it adds one:
    `add-apt-repository ppa:x/y`, `dnf config-manager --add-repo URL`, `zypper addrepo URL NAME`,
    `choco source add -s URL`, `winget source add NAME URL`, `scoop bucket add NAME [URL]`. `words`: the
    command's folded words after the program name."""
    args = [w for w in words if not w.startswith("-")]
    if manager in ("add-apt-repository", "apt-add-repository"):
        return None if "-r" in words or "--remove" in words else (" ".join(args) or None)
    if manager in ("dnf", "yum") and args[:1] == ["config-manager"]:  # dnf 4 --add-repo, dnf 5 addrepo
        found = [w.split("=", 1)[1] for w in words if w.startswith(("--add-repo=", "--from-repofile=", "--baseurl="))]
        at = [k for k, w in enumerate(words) if w in ("--add-repo", "--from-repofile", "--baseurl")]
        found += [words[k + 1] for k in at if k + 1 < len(words)]
        return found[0] if found else None
    if manager == "zypper" and args[:1] in (["addrepo"], ["ar"]):
        return next((w for w in args[1:] if "://" in w), " ".join(args[1:2]) or None)
    if (manager in ("choco", "winget") and args[:2] == ["source", "add"]) or \
            (manager == "scoop" and args[:2] == ["bucket", "add"]):
        urls = [w.split("=", 1)[-1] for w in words if "://" in w]
        return urls[0] if urls else (" ".join(args[2:3]) or None)
    return None


def known_source(source: str) -> bool:
    """`source` (from `adds_source`) is a repository its project keeps: an https URL on a listed host, a
    listed PPA, one of scoop's own buckets."""
    if source.startswith(("deb ", "deb-src ")):  # a whole repository line: judged by its URL
        url = next((w for w in source.split() if "://" in w), "")
        return bool(url) and known_source(url)
    if "://" in source:
        if not source.startswith("https://"):
            return False
        host = source[8:].split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0]
        return host in _DATA.hosts
    return source in _DATA.ppas or source in _DATA.buckets


def official_install_script(url: str) -> bool:
    """`url` is an install script a project publishes on its own site (`https://sh.rustup.rs`), fetched over https:
    `[install_scripts]` of packages.toml, by host and path prefix. A query or an address with a user or a port is
    not one."""
    low = url.strip("'\"").lower()
    if not low.startswith("https://") or "@" in low.split("/", 3)[2] or "?" in low or ".." in low or \
            "%" in low or "\\" in low:  # a path that climbs or is escaped out of the project's own folder
        return False
    rest = low[8:]
    host, _, path = rest.partition("/")
    if ":" in host:
        return False
    here = f"{host}/{path}"
    return any(here.startswith(prefix) or (prefix.endswith("/") and here == prefix[:-1] + "/")
               for prefix in _DATA.install_scripts)


def _elsewhere(eco: str, spec: str, name: str) -> Concern | None:
    """A registry name whose version names another place: npm's `lodash@github:o/r`, `x@git+ssh://...`."""
    if eco == "npm" and "@npm:" not in spec:
        version = spec[len(name) + 1:] if spec.startswith(name + "@") else ""
        if (":" in version or "/" in version) and not version.startswith(_LOCAL_VERSION):
            return Concern(Risk.HIGH, f"{name}: from {version}, not the npm registry")
    return None


# the version an install argument pins after its name: `==0.2.6`, `@1.14.1`, `=5.6.1-1`, `:1.6.13`
_PINNED = re.compile(r"(?:===?|=|@|:)v?(\d[0-9a-z.+_-]*)$")


def _compromised(eco: str, spec: str, name: str) -> Concern | None:
    """A release an attacker published (`[compromised]`): the whole package, or the version `spec` pins."""
    poisoned = _DATA.compromised.get(eco)
    versions = poisoned.get(name) if poisoned else None
    if versions is None:
        return None
    if not versions:
        return Concern(Risk.CRITICAL, f"{name}: a package published to steal or sabotage (public incident reports)")
    pinned = _PINNED.search(spec[len(name):].lower() if spec.lower().startswith(name) else spec.lower())
    version = pinned.group(1) if pinned else ""
    if version and any(version == v or version.startswith((v + "-", v + "+")) for v in versions):
        return Concern(Risk.CRITICAL, f"{name} {version}: a release an attacker published (public incident reports)")
    return None


def poisoned(manager: str, spec: str) -> bool:
    """`spec`, installed by `manager`, is a release an attacker published (`[compromised]`): what a runner that
    fetches a package by its name and runs it (`npx -y x@1.2.3`) is checked for, as an install would be."""
    eco = ECOSYSTEMS.get(manager)
    spec = spec.lower()  # (registries compare names without case)
    name = normalise(eco.name, spec) if eco is not None and eco.name in _DATA.compromised else None
    return bool(name) and _compromised(eco.name, spec, name) is not None  # type: ignore[union-attr]


def fetched_unknown(manager: str, spec: str) -> bool:
    """A runner (`npx -y X`, `bunx X`, `uvx X`) fetches the package it names from the registry and runs it: whether
    that package is none of the ecosystem's widely used ones, nor a program one of them installs into the project
    (`npx tsc` runs TypeScript's compiler from node_modules/.bin). Such a fetch is judged as its named install.
    A program's name with a version (`npx tsc@9.9.9`) is no program of the project: the runner fetches the package
    of that name at that version from the registry (npm's `tsc` is not TypeScript), so only the bare name passes."""
    eco = ECOSYSTEMS.get(manager)
    if eco is None or spec.startswith((".", "/", "~", "file:", "http:", "https:", "git")):
        return False  # a path or an address is judged as what it is, elsewhere
    spec = spec.lower()
    name = normalise(eco.name, spec)
    if not name or (name in eco.bins and spec == name) or name in eco.itself:
        return False
    return _one(eco, name) is not None or _confused(eco, spec, name) is not None


# a version no real release carries: every part nines (`9.9.9`, `99.99.99`), a major of nines or a round hundred,
# thousand, ... with nothing after it but nines and zeros (`99.0.0`, `100.0.0`, `1000.0.0`), or a major of five digits
# that is no date (`20240101.0`). A browser's real majors (`chromium@131.0.1`) and calendar versions are not
_NINES = re.compile(r"^9+$")
_ROUND = re.compile(r"^10{2,}$")
_FILLER = re.compile(r"^(?:9+|0+)$")


def absurd_version(version: str) -> bool:
    """`version` is one no real release carries: the version a dependency-confusion package is published under."""
    parts = version.split(".")
    if not all(p.isdigit() for p in parts):
        return False
    major = parts[0]
    if len(parts) > 1 and all(_NINES.match(p) for p in parts):
        return True
    if (_NINES.match(major) and len(major) >= 2) or _ROUND.match(major):
        return all(_FILLER.match(p) for p in parts[1:])
    return len(major) >= 5 and not major.startswith(("19", "20"))


def _confused(eco: Ecosystem, spec: str, name: str) -> Concern | None:
    """Dependency confusion (`[confusion]`): a name the gate does not know pinned to a version no real release carries,
    the shape of a package published to win over a company's own of that name. Blocks when the name also says it is
    a company's own (an internal word, or an npm scope the gate does not know)."""
    if _known(eco, name):
        return None
    low = spec.lower()
    pinned = _PINNED.search(low[len(name):] if low.startswith(name) else low)
    if pinned is None or not absurd_version(pinned.group(1)):
        return None
    version = pinned.group(1)
    internal = name.startswith("@") or any(w in _DATA.internal_words for w in _SEPARATORS.split(name))
    if internal:
        return Concern(Risk.CRITICAL, f"{name} {version}: a company's own package name at a version no real release "
                       f"carries, published to the public registry (dependency confusion)")
    return Concern(Risk.HIGH, f"{name} {version}: a version no real release carries (the shape of dependency "
                   f"confusion)")


def judge_install(manager: str, specs: Sequence[str], lookalike: bool = False) -> Concern | None:
    """A named install from the ecosystem's own registry (sources were judged before): None when every
    package is a widely used one, else the gravest concern. `lookalike`: the command as typed held letters
    outside ASCII that fold to these names (no registry allows such names; they only imitate)."""
    eco = ECOSYSTEMS.get(manager)
    if eco is None:
        return Concern(Risk.MEDIUM, "")
    worst: Concern | None = None
    unknown: list[str] = []
    for spec in specs:
        name = normalise(eco.name, spec)
        if not name or name in eco.sources:  # a remote named before the package (`flatpak install flathub ID`)
            continue
        c = _compromised(eco.name, spec, name) or _elsewhere(eco.name, spec, name) or _confused(eco, spec, name) or \
            _one(eco, name)
        if c is None:
            continue
        if lookalike and c.risk < Risk.HIGH:
            c = Concern(Risk.HIGH, f"{name}: written with look-alike letters")
        if c.risk == Risk.MEDIUM:
            unknown.append(name)
        if worst is None or c.risk > worst.risk:
            worst = c
    if worst is not None and worst.risk == Risk.MEDIUM:
        what = ", ".join(unknown[:3]) + (" ..." if len(unknown) > 3 else "")
        return Concern(Risk.MEDIUM, f"{what}: {'packages' if len(unknown) > 1 else 'a package'} the gate "
                       f"does not know")
    if worst is None and lookalike:
        return Concern(Risk.HIGH, "package names written with look-alike letters")
    return worst


def judge_removal(manager: str, targets: Sequence[str], words: Sequence[str] = ()) -> Concern | None:
    """An uninstall: None when a language package manager takes a project dependency out again; else what
    makes it ask (a glob, the manager or the language itself, a core system package, any system package)."""
    eco = ECOSYSTEMS.get(manager)
    for t in targets:
        if _GLOB.search(t):
            return Concern(Risk.HIGH, f"removes every package matching {t}")
    if eco is None:
        return Concern(Risk.MEDIUM, "")
    names = [n for t in targets if (n := normalise(eco.name, t))]
    for n in names:
        if n in eco.itself:
            return Concern(Risk.HIGH, f"removes {n}, the package manager or the language itself")
        if eco.removes == "system" and _CORE.match(n):
            return Concern(Risk.HIGH, f"removes {n}, a core part of the operating system")
    if not names or "--all" in words or eco.removes == "system":
        return Concern(Risk.MEDIUM, "")
    return None



def overrides(manager: str, words: Sequence[str], env: Iterable[str] = ()) -> str | None:
    """The option (or variable, of `env`: folded names set for the command) with which `manager` overrides the
    protections of the system's own packages (`[overrides]`: `pip install --break-system-packages`), if any."""
    flags = _DATA.overrides.get(manager, frozenset())
    hit = next((w for w in words if w.split("=", 1)[0] in flags), None)
    if hit is None and tuple(words[:2]) == ("config", "set") and len(words) > 2 and \
            tuple(words[3:4]) not in (("false",), ("0",), ("no",), ("off",)):
        # `pip config set global.break-system-packages true`: every later install of this user overrides it
        key = words[2].split("=", 1)[0]
        hit = next((key for f in flags if key.endswith("." + f.lstrip("-"))), None)
    if hit is None and manager in ("pacman", "yay", "paru"):  # `-Rdd`, `-Sdd`: every dependency check skipped
        hit = next((w for w in words if w[:1] == "-" and w[1:2] in ("r", "s", "u") and w.count("d") >= 2), None)
    return hit or next((v.upper() for v in env if v in _DATA.override_env and manager in _DATA.overrides), None)


def teardown(program: str, words: Sequence[str]) -> Concern | None:
    """What a toolchain or version manager loses by the sub-command `words` (folded, after the program's name) say
    (`[teardown]`): itself and all it installed (high), or a runtime version with what was installed into it."""
    ops = tuple(w for w in words[:4] if not w.startswith("-") or w == "--rm")
    for kind, risk, what in (("self", Risk.HIGH, "removes itself and every toolchain and program it installed"),
                             ("version", Risk.MEDIUM, "removes a runtime version and every package installed "
                                                      "into it")):
        for entry in _DATA.teardown.get(kind, ()):
            if entry[0] == program and ops[:len(entry) - 1] == entry[1:] and \
                    (kind == "self" or len(ops) >= len(entry)):  # (a version manager's verb names what it removes)
                return Concern(risk, f"{' '.join(entry)}: {what}")
    zap = next((w for w in words if w in _DATA.zaps.get(program, ())), None)
    if zap is not None:
        return Concern(Risk.HIGH, f"{program} {zap}: also deletes the application's own data and settings")
    return None


TEARDOWN_PROGRAMS = frozenset({*(e[0] for kind in _DATA.teardown.values() for e in kind), *_DATA.zaps})
