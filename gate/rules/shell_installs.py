"""Shell checks: installs that run a package's own code or write outside the project, toolchains torn down, and
commands handed to a script as its arguments.

Part of the shell Detector (gate/rules/shell.py), called per simple command that `wanted` picks (a cheap test).

- `python setup.py install|develop` (and `easy_install`, setuptools' `bdist_egg`-and-install verbs): the package's
  setup code runs and what it builds is written into the interpreter's site-packages, outside the project. `setup.py
  --version`, `sdist`, `bdist_wheel`, `build`, `test` keep to the project (an install prefix inside the project too).
- A build's install step (`make install`, `cmake --install build`, `meson install`, `ninja install`): copies into the
  install prefix, /usr/local by default; a prefix or staging folder inside the project (`make install
  PREFIX=$PWD/out`, `DESTDIR=./stage`) keeps it there.
- An installer script run by a shell, or by its path (`sh install.sh`, `bash ./install`, `./install.sh`): it puts
  software in the home folder or the system as its author chose, and rewrites startup files. Pointed at another
  repository or branch by variables (`REPO=someone/fork BRANCH=edge sh install.sh`), it installs someone else's code:
  high risk.
- A pull request's code checked out and then installed, built or run on the same line (`gh pr checkout 12 && npm
  install`): the install scripts and build files of someone else's unreviewed change run here, with this user's
  tokens ("pwn request").
- A toolchain or version manager removing itself or a runtime version with what was installed into it, and a removal
  that also deletes an application's data (resources/packages.toml `[teardown]`, gate/packages.py `teardown`).
- A CI service's self-hosted runner registered (`./config.sh --url https://github.com/o/r --token T`): every workflow
  of that repository then runs its jobs on this machine (as `gitlab-runner register` does in the program table).
- A script handed a privileged command or a package install as its arguments (`./retry.sh sudo apt-get install -y x`,
  `./with-proxy.sh npm install x`): by the convention of retry and wrapper scripts (`"$@"`), those words are the
  command it runs; it is judged as if typed.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING

from gate.model import Risk
from gate.packages import TEARDOWN_PROGRAMS, teardown
from gate.rules.shell_vocab import _PKG_INSTALL
from gate.shell import INTERPRETERS, SHELLS, Command, Finding, ShellAnalysis, analyse

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["judge", "wanted"]

Add = Callable[[Finding], None]

# setup.py verbs that write into the interpreter's site-packages (or its scripts folder)
_SETUP_INSTALLS = frozenset({"install", "develop", "easy_install", "install_lib", "install_scripts", "install_data",
                             "install_egg_info", "install_headers"})
# options of setup.py install that say where it writes
_SETUP_TARGETS = ("--prefix", "--root", "--home", "--install-dir", "--install-lib", "--install-base", "-d")
_PYTHON = re.compile(r"^(?:python|pypy)(?:\d+(?:\.\d+)?)?(?:\.exe)?$")

# a script whose name says it installs or uninstalls software (`install`, `install.sh`, `installer.sh`,
# `install-linux.sh`, `fzf-install`, `uninstall.sh`); the gate cannot read where it installs (a project's
# `install-hooks.sh` stays in the project, most installers write the home folder), so the person decides
_INSTALLER = re.compile(r"^(?:[\w.]+[-_])?(?:un)?install(?:er)?(?:[-_][\w.-]*)?"
                        r"(?:\.(?:sh|bash|zsh|ksh|command|ps1|bat|cmd))?$")
_SCRIPT_FILE = re.compile(r"\.(?:sh|bash|zsh|ksh|command|ps1|bat|cmd)$", re.IGNORECASE)
_POWERSHELLS = frozenset({"pwsh", "powershell"})
_PS_VALUED = frozenset({"-executionpolicy", "-ep", "-ex", "-windowstyle", "-w", "-configurationname",
                        "-workingdirectory", "-wd", "-inputformat", "-outputformat", "-settingsfile"})
# variables that point an installer at another repository, branch, fork or download server
_ELSEWHERE_VAR = re.compile(r"(?:^|_)(?:repo|repository|remote|branch|fork|origin|url|mirror|server|source|git)"
                            r"(?:_|$)", re.IGNORECASE)
_ASSIGNMENT = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=(\S+)")

# checking out someone else's change: `gh pr checkout`, `glab mr checkout`, `hub pr checkout`, `tea pulls checkout`,
# `git fetch origin pull/12/head`, `git pr 12` (git-extras)
_PR_CHECKOUTS = {"gh": (("pr", "checkout"), ("co",)), "glab": (("mr", "checkout"), ("mr", "co")),
                 "hub": (("pr", "checkout"),), "tea": (("pulls", "checkout"), ("pr", "checkout"))}
_PR_REF = re.compile(r"^\+?(?:refs/)?(?:pull|merge-requests)/\d+/(?:head|merge)\b")
# what runs the checked-out project's own code: install scripts, build files, tests (a verb of None: any use)
_RUNS_PROJECT = {"npm": {"install", "i", "ci", "test", "t", "run", "run-script", "start", "rebuild", "exec", "x"},
                 "yarn": None, "pnpm": {"install", "i", "test", "run", "start", "rebuild", "exec"},
                 "bun": {"install", "i", "test", "run"}, "pip": {"install"}, "pip3": {"install"}, "uv": {"sync", "run"},
                 "poetry": {"install", "run"}, "pdm": {"install", "sync", "run"}, "make": None, "cmake": None,
                 "cargo": {"build", "run", "test", "install", "b", "r", "t", "bench"},
                 "go": {"generate", "run", "test"},
                 "mvn": None, "gradle": None, "gradlew": None, "bundle": {"install", "exec"}, "rake": None,
                 "composer": {"install", "update", "run-script"}, "tox": None, "nox": None, "pytest": None,
                 "dotnet": {"build", "run", "test", "restore"}, "deno": {"task", "run", "test"}, "just": None,
                 "task": None}
_NO_SCRIPTS = frozenset({"--ignore-scripts", "--no-scripts"})

# the self-hosted runner's set-up script of GitHub Actions and Azure Pipelines (`./config.sh --url URL --token T`),
# and the options that hand it the registration token
_RUNNER_CONFIG = frozenset({"config.sh", "config.cmd", "config.ps1"})
_RUNNER_TOKEN = frozenset({"--token", "--pat", "--auth"})

# build tools whose install step copies into a prefix, the variables and options that choose it, and a dry run
_BUILDERS = frozenset({"make", "gmake", "cmake", "meson", "ninja"})
_INSTALL_TARGETS = frozenset({"install", "install-strip", "install-exec", "install-data"})  # GNU's standard targets
_PREFIX_VARS = frozenset({"prefix", "destdir", "install_prefix", "cmake_install_prefix", "bindir", "libdir"})
_CHANGES_NOTHING = frozenset({"-n", "--dry-run", "--just-print", "--recon", "--help", "-h"})

# words that start a command with administrator rights: what a wrapper script handed them runs
_PRIVILEGE = frozenset({"sudo", "doas", "pkexec", "gsudo", "run0"})


def wanted(cmd: Command) -> bool:
    """Whether `judge` may find anything in `cmd` (its own first tests, without the call)."""
    name = cmd.name
    return bool(name in TEARDOWN_PROGRAMS or name in _RUNS_PROJECT or name in SHELLS or _PYTHON.match(name) or
                name in _BUILDERS or name in _POWERSHELLS or "/" in cmd.argv[0] or "\\" in cmd.argv[0] or
                _SCRIPT_FILE.search(cmd.argv[0]))


def judge(d: Detector, cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    words = cmd.words
    name = cmd.name
    if "--help" in words or "-h" in words[1:2]:
        return
    if name in TEARDOWN_PROGRAMS:
        lost = teardown(name, words[1:])
        if lost is not None:
            add(Finding("confirm.shell.install", lost.risk, f"{lost.why}{where}", cmd.span))
            return
    if _PYTHON.match(name) and len(words) > 2 and words[1].rsplit("/", 1)[-1] == "setup.py":
        _setup_py(cmd, where, add)
        return
    script = _script(cmd)
    if script is not None:
        k, path = script
        if k + 1 < len(cmd.argv) and (cmd.words[k + 1] in _PRIVILEGE or (
                k + 2 < len(cmd.argv) and cmd.words[k + 2] in _PKG_INSTALL.get(cmd.words[k + 1], ()))):
            _handed(d, cmd, k + 1, path, where, add)
            return
        base = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
        if base in _RUNNER_CONFIG and "--url" in words and not _RUNNER_TOKEN.isdisjoint(
                w.split("=", 1)[0] for w in words):
            url = next((w for w in words if "://" in w), "a CI server")
            add(Finding("confirm.shell.indirect-exec", Risk.HIGH, f"registers this machine as a CI runner for "
                        f"{url[:60]}: every workflow sent there runs its jobs here, with this user's files and "
                        f"tokens{where}", cmd.span))
            return
        if _INSTALLER.match(base):
            _installer(cmd, analysis, path, where, add)
            return
    if name in _BUILDERS:
        _build_install(cmd, where, add)
    if name in _RUNS_PROJECT or script is not None:  # (a script of the checked-out tree: its code, whatever it is)
        _after_pull_request(cmd, analysis, where, add)
    if name in _CLONE_INSTALLS or _PYTHON.match(name):
        _after_clone(cmd, analysis, where, add)


def _setup_py(cmd: Command, where: str, add: Add) -> None:
    """`python setup.py [options] install|develop ...`: the setup code runs and writes into site-packages."""
    verbs = [w for w in cmd.words[2:] if not w.startswith("-")]
    verb = next((v for v in verbs if v in _SETUP_INSTALLS), None)
    if verb is None:
        return  # --version, sdist, bdist_wheel, build, egg_info, test: the project's own folder
    target = next((w.split("=", 1)[1] if "=" in w else (cmd.words[k + 1] if k + 1 < len(cmd.words) else "")
                   for k, w in enumerate(cmd.words) if w.split("=", 1)[0] in _SETUP_TARGETS), None)
    if target is not None and _inside_project(target) and "--user" not in cmd.words:
        return  # an install prefix inside the project (`--prefix=./build/local`)
    add(Finding("confirm.shell.install", Risk.MEDIUM, f"setup.py {verb}: runs the package's setup code and installs "
                f"it into the interpreter's packages, outside the project{where}", cmd.span))


def _inside_project(path: str) -> bool:
    p = path.strip("'\"")
    for here in ("$pwd/", "${pwd}/", "$(pwd)/", "`pwd`/"):  # the working folder, written as a variable
        if p.lower().startswith(here) or p.lower() == here[:-1]:
            p = "./" + p[len(here):]
    return bool(p) and not p.startswith(("/", "~", "$", "\\")) and ".." not in p.split("/") and ":" not in p


def _build_install(cmd: Command, where: str, add: Add) -> None:
    """`make install`, `cmake --install build`, `meson install`, `ninja install`: what was built is copied into the
    install prefix, /usr/local unless a prefix or staging folder inside the project is given on the line."""
    words = cmd.words
    name = cmd.name
    if name in ("make", "gmake", "ninja"):
        installs = any(w in _INSTALL_TARGETS for w in words[1:])
    elif name == "cmake":
        installs = "--install" in words
    else:  # meson
        installs = [w for w in words[1:] if not w.startswith("-")][:1] == ["install"]
    if not installs or _CHANGES_NOTHING.intersection(words):
        return
    at = cmd.span.find(cmd.argv[0])
    given = [v for n, v in _ASSIGNMENT.findall(cmd.span[:at] if at > 0 else "") if n.lower() in _PREFIX_VARS]
    given += [w.split("=", 1)[1] for w in cmd.argv[1:] if w.split("=", 1)[0].lower() in _PREFIX_VARS and "=" in w]
    given += [cmd.argv[k + 1] for k, w in enumerate(words[:-1]) if w in ("--prefix", "--destdir")]
    given += [w.split("=", 1)[1] for w in words if w.startswith(("--prefix=", "--destdir="))]
    if given and all(_inside_project(v) for v in given):
        return
    into = given[0] if given else "the install prefix (by convention /usr/local)"
    add(Finding("confirm.shell.install", Risk.MEDIUM, f"{name} install: installs what was built into {into[:60]}, "
                f"outside the project{where}", cmd.span))


def _script(cmd: Command) -> tuple[int, str] | None:
    """(index of the script's word, its path) when `cmd` runs a script file: by its path (`./x.sh`) or through a
    shell (`sh x.sh`, `bash -e ./x`); None for inline code (`bash -c ...`) or a shell with no script."""
    if ("/" in cmd.argv[0] or "\\" in cmd.argv[0] or _SCRIPT_FILE.search(cmd.argv[0])) and \
            cmd.name not in SHELLS and cmd.name not in INTERPRETERS and cmd.name not in _POWERSHELLS:
        return 0, cmd.argv[0]  # (`/bin/sh install.sh`: the shell's own path, judged below)
    if cmd.name in _POWERSHELLS:  # `pwsh -File ./install.ps1`, `powershell -ep bypass .\\install.ps1`
        k = 1
        while k < len(cmd.argv):
            a = cmd.words[k]
            if a in ("-file", "-f"):
                return (k + 1, cmd.argv[k + 1]) if k + 1 < len(cmd.argv) else None
            if a in ("-command", "-c", "-encodedcommand", "-e", "-ec"):
                return None  # inline code: judged as the commands it holds
            k += 2 if a in _PS_VALUED else 1
            if not a.startswith("-"):
                return (k - 1, cmd.argv[k - 1]) if _SCRIPT_FILE.search(a) else None
        return None
    if cmd.name not in SHELLS:
        return None
    for k, a in enumerate(cmd.argv[1:], 1):
        if a in ("-c", "-s") or a.startswith("--"):
            return None if a != "--" else ((k + 1, cmd.argv[k + 1]) if k + 1 < len(cmd.argv) else None)
        if a.startswith("-"):
            continue  # -e, -x, -eu: options of the shell itself
        return (k, a) if k not in cmd.dynamic else None
    return None


def _installer(cmd: Command, analysis: ShellAnalysis, path: str, where: str, add: Add) -> None:
    at = cmd.span.find(cmd.argv[0])
    prefix = cmd.span[:at] if at > 0 else ""
    pointed = [f"{n}={v}" for n, v in _ASSIGNMENT.findall(prefix) if _ELSEWHERE_VAR.search(n) and v.strip("'\"")]
    here = analysis.commands.index(cmd) if cmd in analysis.commands else 0
    exported = any(c.name == "export" and _ELSEWHERE_VAR.search(" ".join(c.words[1:]).split("=", 1)[0])
                   for c in analysis.commands[:here])
    if pointed or exported:
        add(Finding("confirm.shell.install", Risk.HIGH, f"runs the installer {path} pointed at another repository or "
                    f"branch ({' '.join(pointed[:2]) or 'exported variables'}): it installs someone else's code"
                    f"{where}", cmd.span))
        return
    add(Finding("confirm.shell.install", Risk.MEDIUM, f"runs the installer script {path}: it installs software and "
                f"changes startup files as its author chose{where}", cmd.span))


def _handed(d: Detector, cmd: Command, k: int, path: str, where: str, add: Add) -> None:
    """`./retry.sh sudo apt-get install -y x`: the words from `k` on are the command the script runs."""
    inner = analyse(shlex.join(cmd.argv[k:]), cmd.cwd)
    via = f" (via {path})" if not where else where.replace(" (via ", f" (via {path} → ", 1)
    for f in d.run(inner):
        add(Finding(f.rule, f.risk, f"{f.reason}{via}" if "(via " not in f.reason else f.reason, cmd.span))


# a repository fetched from another machine (`git clone URL`, `gh repo clone o/r`, `hg clone`, `svn checkout`)
_CLONES = {"git": ("clone",), "gh": ("repo",), "hg": ("clone",), "svn": ("checkout", "co"), "jj": ("git",)}
# the install verbs that run a fetched tree's own setup code (its setup.py or build backend, its lifecycle scripts,
# its Makefile's install target) and put what it builds where every later program loads it
_CLONE_INSTALLS = {"pip": ("install",), "pip3": ("install",), "npm": ("install", "i", "ci"), "pnpm": ("install", "i"),
                   "yarn": ("install", ""), "bun": ("install", "i"), "poetry": ("install",), "pdm": ("install",),
                   "make": ("install",), "cargo": ("install",), "gem": ("install",), "go": ("install",),
                   "uv": ("pip",), "pipx": ("install",), "composer": ("install",), "bundle": ("install",)}


def _after_clone(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """An install of a repository cloned earlier on the same line (`git clone URL && cd r && pip install .`):
    the repository's own setup code runs and what it builds is installed, as with `pip install git+URL`. Which
    fork it is, the gate cannot tell; a person can."""
    words = [w for w in cmd.words[1:] if not w.startswith("-")]
    if _PYTHON.match(cmd.name):
        if words[:2] != ["pip", "install"] and cmd.words[1:4] != ("-m", "pip", "install"):
            return
    else:
        verbs = _CLONE_INSTALLS[cmd.name]
        if not ((words[:1] and words[0] in verbs) or ("" in verbs and not words)):
            return
    if not _NO_SCRIPTS.isdisjoint(cmd.words):
        return
    earlier = analysis.commands[:analysis.commands.index(cmd)] if cmd in analysis.commands else ()
    clone = next((c for c in earlier if c.name in _CLONES and
                  next((w for w in c.words[1:] if not w.startswith("-")), "") in _CLONES[c.name] and
                  (c.name != "gh" or "clone" in c.words)), None)
    if clone is None:
        return
    add(Finding("confirm.shell.install", Risk.MEDIUM, f"{' '.join(cmd.words[:2])}: installs a repository just "
                f"cloned ({' '.join(clone.words[:3])[:80]}): its own setup code runs{where}", cmd.span))


def _checks_out_change(c: Command) -> bool:
    ops = [w for w in c.words[1:] if not w.startswith("-")]
    if any(tuple(ops[:len(form)]) == form for form in _PR_CHECKOUTS.get(c.name, ())):
        return True
    if c.name == "git" and ops[:1] in (["fetch"], ["pull"]):
        return any(_PR_REF.match(o) for o in ops[1:])
    return c.name == "git" and ops[:1] == ["pr"] and len(ops) > 1  # git-extras: `git pr 12`


def _after_pull_request(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    verbs = _RUNS_PROJECT.get(cmd.name)
    ops = [w for w in cmd.words[1:] if not w.startswith("-")]
    if verbs is not None and (not ops or ops[0] not in verbs):
        return
    if not _NO_SCRIPTS.isdisjoint(cmd.words):
        return  # install with its scripts switched off: files only
    earlier = analysis.commands[:analysis.commands.index(cmd)] if cmd in analysis.commands else ()
    change = next((c for c in earlier if _checks_out_change(c)), None)
    if change is None:
        return
    what = " ".join([cmd.name, *ops[:1]])
    add(Finding("confirm.shell.install", Risk.HIGH, f"{what}: runs the install scripts and "
                f"build files of a pull request just checked out ({' '.join(change.words[:3])}): someone else's "
                f"unreviewed code, with this user's tokens{where}", cmd.span))
