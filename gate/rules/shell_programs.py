"""Shell checks: package managers, deploy tools, cloud CLIs and git.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.model import Risk
from gate.packages import (
    adds_source,
    default_source,
    judge_install,
    judge_removal,
    known_source,
    overrides,
    source_flag,
    value_flags,
)
from gate.rules.shell_history import SHARED_BRANCH, commits_dropped, shared_rewrite
from gate.rules.shell_platforms import guest_system_install
from gate.rules.shell_vocab import (
    _ARCHIVES,
    _CLOUD_MUTATION,
    _GIT_VALUED,
    _INFRA_DESTROY,
    _PKG_INSTALL,
    _PKG_REMOVE,
    _PUBLISH,
    _SAAS_DESTROY,
    _UNTRUSTED_FLAGS,
    DEV_CLUSTERS,
)
from gate.shell import (
    Command,
    Finding,
    ShellAnalysis,
)

__all__ = ["ProgramChecks"]


# the installer and its own build tools, upgraded from the default index: nothing new comes onto the machine
_SELF_UPGRADE = {"pip": frozenset({"pip", "setuptools", "wheel"}), "pip3": frozenset({"pip", "setuptools", "wheel"}),
                 "uv": frozenset({"pip", "setuptools", "wheel"})}


# options that say where an install goes, not where its packages come from: pip's
# `--break-system-packages` writes over the interpreter's own packages (as root) or into the user's site
# folder, both from the default index: the install is judged by its names as any other, and the override
# itself asks (resources/packages.toml `[overrides]`)
_NOT_A_SOURCE = frozenset({"--break-system-packages"})


# the variables a command line sets for the program alone (`PIP_BREAK_SYSTEM_PACKAGES=1 pip install x`)
_ASSIGNED = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=")


# the branch a refspec pushes to (`main`, `HEAD:main`, `refs/heads/release/2.1`): one others build on
_GH_POSTS = (["pr", "create"], ["pr", "comment"], ["issue", "create"], ["issue", "comment"],
             ["gist", "create"], ["pr", "edit"], ["issue", "edit"])
_SHARED_BRANCH = SHARED_BRANCH


# a push destination given as an address rather than a configured remote's name
# a path that takes in the whole folder or climbs above it, never a branch: `.`, `..`, `../..`, `../lib`, `:/`
# (the whole work tree); each file's uncommitted changes in it are overwritten
_PATHSPEC = re.compile(r"^(?:\.|\.\.(?:/.*)?|:/.*)$")
_GIT_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|[\w.-]+@[\w.-]+:)", re.IGNORECASE)


# a variable named for a secret, expanded into what is written (`echo "KEY=$AWS_SECRET_ACCESS_KEY" >> x`)
_SECRET_VAR = re.compile(r"\$\{?(?P<name>[a-z0-9_]*(?:secret|token|passw|api_?key|access_?key|private_?key|"
                         r"credential)[a-z0-9_]*)", re.I)


def _secret_written(analysis: ShellAnalysis, push: Command) -> str | None:
    """The secret-named variable an earlier command of the line writes into a file (echo/printf/cat with a
    redirect or tee) before `push`: committed and pushed, it is published."""
    for c in analysis.commands:
        if c is push:
            return None
        writes = any(op in (">", ">>", ">|") for op, _ in c.redirects) or c.name == "tee"
        if not writes:
            continue
        texts = [" ".join(c.argv[1:])] if c.name in ("echo", "printf") else []
        texts += [" ".join(analysis.commands[i].argv[1:]) for i in c.upstream
                  if analysis.commands[i].name in ("echo", "printf")]
        texts += [c.stdin_text] if c.stdin_text else []
        for t in texts:
            m = _SECRET_VAR.search(t)
            if m:
                return m.group("name")
    return None


def _remotes_set_here(analysis: ShellAnalysis) -> set[str]:
    """Remote names this command line adds or points elsewhere (`git remote add x URL`, `git remote set-url`)."""
    names = set()
    for c in analysis.commands:
        if c.name != "git":
            continue
        words = [w for w in c.words[1:] if not w.startswith("-")]
        if words[:2] in (["remote", "add"], ["remote", "set-url"]) and len(words) > 2:
            names.add(words[2])
    return names


# a remote's address set in git's configuration (`git config remote.origin.url URL`, its pushurl)
_REMOTE_URL_KEY = re.compile(r"^remote\.(?P<name>[^.\s]+)\.(?:push)?url$", re.IGNORECASE)
_CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "--list", "-l", "--unset", "--unset-all",
                           "--remove-section", "--show-origin"})


def _remote_moved(sub: str, args: list[str]) -> str | None:
    """The remote whose address `git remote set-url` or `git config remote.X.url URL` changes, or None. Adding a
    new remote (`git remote add`) and reading them (`git remote -v`, `git config --get remote.origin.url`) pass:
    only pointing an existing one elsewhere moves where the next push goes."""
    words = [a for a in args if not a.startswith("-")]
    if sub == "remote" and words[:1] == ["set-url"] and len(words) >= 3:
        return words[1]
    if sub == "config" and not any(a.split("=", 1)[0] in _CONFIG_READS for a in args) and len(words) >= 2 and \
            (m := _REMOTE_URL_KEY.match(words[0])):
        return m.group("name")
    return None


# a machine-wide "upgrade everything": by flag (`winget upgrade --all`), by the word all (`choco upgrade all`,
# `scoop update *`), or by naming no package to a manager whose bare upgrade means all (`brew upgrade`)
_UPGRADE_VERBS = {"winget": {"upgrade", "update"}, "choco": {"upgrade"}, "scoop": {"update"}, "brew": {"upgrade"},
                  "port": {"upgrade"}, "softwareupdate": {"-i", "--install"}, "mas": {"upgrade"},
                  # the Linux and BSD system managers: every installed program of the machine replaced at once
                  "apt": {"upgrade", "full-upgrade", "dist-upgrade"}, "apt-get": {"upgrade", "dist-upgrade"},
                  "aptitude": {"upgrade", "safe-upgrade", "full-upgrade", "dist-upgrade"},
                  "dnf": {"upgrade", "update", "up", "distro-sync", "dsync", "upgrade-minimal"},
                  "yum": {"update", "upgrade", "distro-sync"}, "microdnf": {"update", "upgrade"},
                  "zypper": {"up", "update", "dup", "dist-upgrade", "patch"}, "apk": {"upgrade"},
                  "pkg": {"upgrade"}, "snap": {"refresh"}, "flatpak": {"update", "upgrade"},
                  "eopkg": {"upgrade", "up"}, "xbps-install": {"-su", "-u"}, "nix-env": {"-u", "--upgrade"}}
_ALL_WORDS = frozenset({"--all", "-a", "-r", "--recurse", "all", "*", "outdated"})
_BARE_MEANS_ALL = frozenset({"brew", "mas", "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "apk",
                             "pkg", "snap", "flatpak", "eopkg", "xbps-install", "nix-env"})
# managers whose upgrade replaces everything whatever else is named (`apt-get dist-upgrade`, `zypper dup`)
_ALWAYS_ALL = frozenset({"dist-upgrade", "full-upgrade", "dup", "distro-sync", "dsync"})
_ARCH_MANAGERS = frozenset({"pacman", "yay", "paru", "pikaur", "trizen"})
_ARCH_QUERY = frozenset("silgpc")  # -Ss, -Si, -Sl, -Sg, -Sp, -Sc: searches, prints, cleans


def _upgrades_everything(name: str, verb: str, rest: list[str]) -> bool:
    if name in _ARCH_MANAGERS:  # `pacman -Syu`, `yay -Syyu`, `pacman -Su`: the whole system, whatever is named
        flags = verb[2:] if verb.startswith("-s") and not verb.startswith("--") else ""
        return "u" in flags and not set(flags) & _ARCH_QUERY
    if verb not in _UPGRADE_VERBS.get(name, ()):
        return False
    if verb in _ALWAYS_ALL:
        return True
    if any(w in _ALL_WORDS for w in rest):
        return True
    return name in _BARE_MEANS_ALL and not any(not w.startswith("-") for w in rest)



def _cloud_verbs(name: str, words: list[str]) -> list[str]:
    """The words of a cloud CLI line that may be its verb (gcloud's `run` is the Cloud Run product, not a verb)."""
    start = 1 if name == "gcloud" and words[:1] == ["run"] else 0
    return [w for w in words[start:start + 4] if not w.startswith("-")]

class ProgramChecks:
    """Package managers, deploy tools, cloud CLIs and git."""

    def remote_engine(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        """A container engine driven on another machine (`docker -H tcp://10.0.0.5:2375 exec ...`, `DOCKER_HOST=`):
        an engine's API is root on its host, and one listening on TCP is often open to anyone who finds it."""
        host = next((cmd.argv[k + 1] for k, a in enumerate(cmd.argv[1:-1], 1) if a in ("-H", "--host")), None)
        host = host or next((a.split("=", 1)[1] for a in cmd.argv[1:] if a.startswith(("--host=", "-H="))), None)
        host = host or next((v for n, v in analysis.assignments if n in ("docker_host", "container_host")), None)
        if not host or not host.lower().startswith(("tcp://", "ssh://", "http://", "https://")):
            return  # the local socket (unix://), or none given
        verbs = [a for a in cmd.words[1:] if not a.startswith("-") and a != host.lower()]
        running = bool(verbs) and verbs[0] in ("exec", "run", "cp", "create", "start", "build", "compose", "service",
                                               "stack", "plugin", "container", "swarm", "secret", "volume")
        add(Finding("confirm.shell.remote-mutation", Risk.HIGH if running else Risk.MEDIUM,
                    f"{cmd.name} drives the container engine of {host[:60]}: root on that machine{where}", cmd.span))

    def git(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        argv = list(cmd.argv)
        k = 1
        while k < len(argv) and argv[k].startswith("-"):
            k += 2 if argv[k] in _GIT_VALUED else 1
        if k >= len(argv):
            return
        sub, args = argv[k].lower(), argv[k + 1:]
        short = {f"-{ch}" for a in args if a.startswith("-") and not a.startswith("--") for ch in a[1:]}
        longs = {a.split("=", 1)[0] for a in args if a.startswith("--")}

        def hit(reason: str, risk: Risk = Risk.MEDIUM) -> None:
            add(Finding("confirm.shell.vcs-destructive", risk, f"git {sub}: {reason}{where}", cmd.span))

        if sub == "push":
            refs = [a for a in args if not a.startswith("-")]
            if "--force" in longs or "-f" in short or any(r.startswith("+") for r in refs[1:] or refs):
                hit("force-push rewrites the remote's history", Risk.HIGH)
                shared_rewrite(refs[1:], longs | short, cmd, where, add)
            elif ("--force-with-lease" in longs or "--force-if-includes" in longs) and \
                    any(_SHARED_BRANCH.search(r) for r in refs[1:]):
                # the lease only protects against a push nobody has fetched; a shared branch's history is still
                # rewritten for everyone (after a rebase of one's own feature branch it is routine)
                hit("force-push rewrites the history of a shared branch", Risk.HIGH)
            if "--delete" in longs or "-d" in short or any(r.startswith(":") and len(r) > 1 for r in refs):
                hit("deletes a remote branch or tag", Risk.HIGH)
            if "--mirror" in longs or "--prune" in longs:
                hit("makes the remote match exactly (deletes what is missing here)", Risk.HIGH)
            secret = _secret_written(analysis, cmd)
            if secret:
                add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                            f"writes ${secret} into a file of the repository and pushes it: the secret goes to "
                            f"everyone who can read the remote{where}", cmd.span))
            target = refs[0] if refs else ""
            if target and (_GIT_URL.search(target) or target.lower() in _remotes_set_here(analysis)):
                # the code goes where the repository was never configured to send it
                add(Finding("confirm.shell.publish", Risk.HIGH if longs & {"--all", "--mirror", "--tags"} else
                            Risk.MEDIUM, f"git push to {target[:60]}: not a remote this repository was set up with"
                            f"{where}", cmd.span))
            elif not ({"--dry-run", "--porcelain"} & longs or "-n" in short or "--help" in longs):
                # commits leave this machine for a remote others read and build from: a push is not taken back
                # by the agent alone (a force-push, a deletion or a mirror above asks at a higher risk)
                add(Finding("confirm.shell.publish", Risk.MEDIUM,
                            f"git push: publishes commits to {target[:60] or 'the remote'}{where}", cmd.span))
        elif sub == "reset" and ("--hard" in longs or "--merge" in longs):
            hit("--hard discards uncommitted changes")
        elif sub == "reset" and (back := commits_dropped(args)):
            hit(f"moves the branch back to {back}: the commits after it leave the branch")
        elif sub == "clean" and ("-f" in short or "--force" in longs) and not ("-n" in short or "--dry-run" in longs):
            hit("deletes untracked files")
        elif sub == "checkout":
            if "-f" in short or "--force" in longs:
                hit("--force discards local changes")
            elif ("--" in args and args.index("--") + 1 < len(args)) or any(_PATHSPEC.match(a) for a in args) or \
                    "--theirs" in longs or "--ours" in longs:
                hit("overwrites local changes to files")
        elif sub == "restore" and (("--staged" not in longs and "-S" not in short) or "--worktree" in longs or
                                   "-W" in short):
            hit("discards local changes to files")
        elif sub == "switch" and ("--discard-changes" in longs or "-f" in short or "--force" in longs):
            hit("discards local changes")
        elif sub == "branch" and ("-D" in short or (("--delete" in longs or "-d" in short) and
                                  ("--force" in longs or "-f" in short))):
            hit("force-deletes a branch (unmerged work is lost)")
        elif sub == "stash" and args and args[0] in ("drop", "clear"):
            hit(f"{args[0]} throws stashed work away")
        elif sub in ("prune", "filter-branch", "filter-repo") or (sub == "gc" and any(
                a.startswith("--prune") for a in args)) or \
                (sub == "reflog" and args and args[0] in ("expire", "delete")):
            hit("removes history or unreachable objects for good")
        elif sub == "update-ref" and "-d" in short:
            hit("deletes a ref")
        elif sub == "tag" and ("-d" in short or "--delete" in longs):
            hit("deletes a tag", Risk.LOW)
        elif sub == "rm" and ("-r" in short or "-f" in short):
            hit("removes files from the work tree")
        elif sub == "worktree" and args and args[0] == "remove" and ("--force" in longs or "-f" in short):
            hit("force-removes a work tree")
        elif (moved := _remote_moved(sub, args)) is not None:
            add(Finding("confirm.shell.publish", Risk.MEDIUM, f"git {sub}: points the remote {moved} at another "
                        f"address: the next push sends the code there{where}", cmd.span))

    def packages(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        name = cmd.name
        words = list(cmd.words[1:])
        if name in ("yarn", "composer") and words[:1] == ["global"]:
            words = words[1:]  # (the user's own global folder: the same packages, judged the same way)
        if name == "dotnet" and words[:2] in (["tool", "install"], ["tool", "update"]):
            words = words[1:]  # a .NET tool package from NuGet (`dotnet tool install -g dotnetsay`): a named install
        if name == "uv" and words[:1] in (["pip"], ["tool"]):
            words = words[1:]
        if not words:
            return
        added = adds_source(name, words)
        if added is not None:  # a package source: every later install may come from it
            if not known_source(added):
                add(Finding("confirm.shell.install", Risk.HIGH, f"adds a package source the gate does not know: "
                            f"{added} ({name}){where}", cmd.span))
            return
        verb = words[0]
        rest = words[1:]
        at = cmd.span.find(cmd.argv[0])
        env = [n.lower() for n in _ASSIGNED.findall(cmd.span[:at])] if at > 0 else []
        override = overrides(name, words, env)
        if override is not None and "--help" not in words:
            # whatever it names, the system's own packages lose their protection: what breaks is found later
            add(Finding("confirm.shell.install", Risk.MEDIUM, f"{name} {override}: overrides the protection of the "
                        f"system's own packages, which other software depends on{where}", cmd.span))
        if name in ("pip", "pip3", "uv") and verb in ("download", "wheel"):
            self.source_build(cmd, verb, rest, where, add)
            return
        if _upgrades_everything(name, verb, rest):
            add(Finding("confirm.shell.install", Risk.MEDIUM, f"{name} {verb} upgrades every installed package at "
                        f"once: new code for the whole machine, and what breaks is found later{where}", cmd.span))
            return
        if name in ("pacman", "yay", "paru", "dpkg", "rpm", "nix-env"):
            verb = next((w for w in words if w.startswith("-")), "")
            rest = [w for w in words if not w.startswith("-")]
        install = _PKG_INSTALL.get(name, set())
        remove = _PKG_REMOVE.get(name, set())
        if name == "emerge":  # Portage's action is a flag anywhere on the line (`emerge --ask --unmerge pkg`);
            argv = list(cmd.argv[1:])  # its case matters (-C unmerges, -c cleans), and -p/--pretend only shows
            if any(a == "--pretend" or (a[:1] == "-" and a[1:2] != "-" and "p" in a) for a in argv):
                return
            verb = next((a for a in argv if a in remove), verb)
            rest = [w for w in argv if w != verb]
        if verb in remove or (name == "pacman" and verb.startswith("-r")):
            targets = [w for w in rest if not w.startswith("-")]
            concern = judge_removal(name, targets, rest)
            if concern is not None:  # (a project dependency taken out again asks nothing)
                add(Finding("confirm.shell.install", concern.risk, f"uninstalls {' '.join(targets) or 'software'} "
                            f"({name}){': ' + concern.why if concern.why else ''}{where}", cmd.span))
            return
        if name in ("pacman", "yay", "paru") and verb.startswith("-s") and set(verb[2:]) & set("silgp") and \
                not set(verb[2:]) & set("yu"):
            return  # -Ss, -Si, -Sl, -Sg: searches the package lists and prints, installs nothing
        if name == "playwright" and (verb == "install-deps" or (verb == "install" and "--with-deps" in words)):
            add(Finding("confirm.shell.install", Risk.MEDIUM, f"playwright {verb} installs the system packages its "
                        f"browsers need, as root{where}", cmd.span))
            return  # (browsers alone go into the user's cache, as the project asked: nothing to ask)
        if name == "dotnet" and "reference" in rest[:2]:
            return  # `dotnet add [project] reference ../Lib/Lib.csproj`: one project of the solution uses another
        if not (verb in install or "*" in install or (name in ("pacman", "yay", "paru") and verb.startswith("-s"))):
            return
        if name == "add-apt-repository" or (verb not in install and "*" in install):
            rest = words  # (every word is a target: `cpanm Some::Module`)
        valued = value_flags(name) or {"-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-t",
                                       "--target", "--prefix", "--root", "--python", "-p", "--index-url", "-i",
                                       "--extra-index-url", "--trusted-host", "--registry", "--source", "-s"}
        targets: list[str] = []
        untrusted = False
        skip = False
        for k, w in enumerate(rest):
            if skip:  # a flag's value: a URL there (`-e git+https://...`, `-r https://...`) is a source too
                skip = False
                untrusted |= ("://" in w or w.startswith(("git+", "github:"))) and not default_source(name, w)
                continue
            if w.startswith("-"):
                base, eq, value = w.partition("=")
                if (base in _UNTRUSTED_FLAGS and base not in _NOT_A_SOURCE and
                        not (name in ("npm", "pnpm", "yarn", "bun") and base == "-s")) or \
                        source_flag(name, base):  # another index or registry, unless it is the default one
                    value = value if eq else (rest[k + 1] if k + 1 < len(rest) else "")
                    untrusted |= not (source_flag(name, base) and default_source(name, value))
                if base in valued and not eq:
                    skip = True
                continue
            targets.append(w)
        local = [t for t in targets if t in (".", "..") or (t.startswith(("./", "../", "/")) and
                 not t.endswith((".deb", ".rpm", ".whl", ".pkg", ".msi", ".apk")))]
        packages = [t for t in targets if t not in local]
        if not packages and not untrusted and name not in ("dpkg", "rpm", "add-apt-repository"):
            return  # the project's own dependencies (npm install, pip install -r requirements.txt, pip install -e .)
        if not untrusted and name in _SELF_UPGRADE and all(p in _SELF_UPGRADE[name] for p in packages):
            return  # the installer upgrading itself from its default index (pip install -U pip)
        if any("://" in t or t.startswith(("git+", "github:", "gitlab:", "bitbucket:", "ppa:")) or
               t.endswith(_ARCHIVES) for t in targets):
            untrusted = True
        what = " ".join(packages[:4]) or " ".join(targets[:4]) or "software"
        if untrusted or name == "add-apt-repository":
            add(Finding("confirm.shell.install", Risk.HIGH, f"installs {what} from an untrusted source ({name}){where}",
                        cmd.span))
            return
        # judged by what it installs (gate/packages.py): widely used packages from the default registry pass
        concern = judge_install(name, packages, lookalike=not all(a.isascii() for a in cmd.argv[1:]))
        if concern is not None and concern.risk is Risk.CRITICAL:  # a release an attacker published
            add(Finding("block.shell.compromised-package", Risk.CRITICAL, f"installs {concern.why}{where}", cmd.span))
            return
        if guest_system_install(cmd):
            return  # the guest's own system, from its distribution's archive
        if concern is None and (self.policy.known_packages_allowed or (name == "brew" and verb == "tap")):
            return  # (a tap its project keeps adds a source, as `add-apt-repository ppa:...` does: nothing installed)
        risk, why = concern or (Risk.MEDIUM, "")
        add(Finding("confirm.shell.install", risk, f"installs {what} ({name}){': ' + why if why else ''}{where}",
                    cmd.span))

    def source_build(self, cmd: Command, verb: str, rest: list[str], where: str,
                     add: Callable[[Finding], None]) -> None:
        """`pip download|wheel --no-binary :all: NAME`: a source distribution is built here to read its metadata or
        make its wheel, and building one runs its setup code (an install's own code, with nothing installed). Wheels
        only (the default, `--only-binary`), or from a local folder (`--no-index --find-links DIR`): files only."""
        values = [rest[k + 1] if k + 1 < len(rest) else "" for k, w in enumerate(rest) if w == "--no-binary"]
        values += [w.split("=", 1)[1] for w in rest if w.startswith("--no-binary=")]
        if not any(v and v != ":none:" for v in values) or "--no-index" in rest:
            return
        valued = (value_flags(cmd.name) or frozenset()) | {"--no-binary", "--only-binary", "-d", "--dest", "-w",
                                                           "--wheel-dir", "--platform", "--python-version",
                                                           "--find-links", "-f"}
        names = [w for k, w in enumerate(rest) if not w.startswith("-") and not (k and rest[k - 1] in valued) and
                 w not in (".", "..") and not w.startswith(("./", "../", "/"))]
        if not names:
            return  # the project's own dependencies (`-r requirements.txt`)
        add(Finding("confirm.shell.install", Risk.MEDIUM, f"{cmd.name} {verb} builds {' '.join(names[:3])} from "
                    f"source: its setup code runs here{where}", cmd.span))

    def deploys(self, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
        name = cmd.name
        words = [w for w in cmd.words[1:]]
        verbs = [w for w in words if not w.startswith("-")]
        destroy = _INFRA_DESTROY.get(name, set())
        if name in ("docker", "podman") and (verbs[:1] == ["rmi"] or verbs[:2] in (["image", "rm"], ["image", "prune"],
                                                                                   ["image", "remove"])):
            return  # an image is built or pulled again: deleting one loses no data (containers and volumes do)
        if name in DEV_CLUSTERS and "delete" in verbs[:2]:
            return  # a throwaway local cluster (`kind delete cluster`, `minikube delete`): made again in a minute
        if any(v in destroy for v in verbs[:3]) or ("*" in destroy and any(_SAAS_DESTROY.search(v)
                                                                              for v in verbs[:4])) or \
                (name in ("docker", "podman") and (
                "prune" in verbs or verbs[:2] in (["volume", "rm"], ["image", "rm"], ["container", "rm"]))):
            if (name == "docker" and verbs[:1] == ["compose"]) or (name == "rclone" and verbs[:1] == ["sync"]):
                pass
            else:
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"{name} {' '.join(verbs[:2])}: deletes "
                            f"infrastructure or data{where}", cmd.span))
                return
        if name == "terraform" and verbs[:1] == ["apply"] and "-destroy" in words:
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"terraform apply -destroy{where}", cmd.span))
            return
        publish = _PUBLISH.get(name, set())
        if not publish:
            return
        if name in ("kubectl", "oc") and verbs[:1] == ["rollout"] and verbs[1:2] in (["status"], ["history"]):
            return  # watches a rollout or lists its revisions: changes nothing
        if name in ("vercel",) and "--prod" in words:
            verbs = ["--prod"]
        if name == "netlify" and "--prod" not in words:
            return
        if name == "dotnet" and verbs[:2] != ["nuget", "push"]:
            return
        if name == "gh" and verbs[:2] in _GH_POSTS:
            # a pull request, issue, comment, review or gist: written where other people read and act on it
            add(Finding("confirm.shell.publish", Risk.MEDIUM, f"gh {' '.join(verbs[:2])}: posts to GitHub, where "
                        f"others read it and act on it{where}", cmd.span))
            return
        if name == "gh" and verbs[:2] not in (["release", "create"], ["release", "upload"]):
            return
        if name == "yarn" and verbs[:1] == ["npm"] and "publish" not in verbs:
            return
        if name == "docker" and verbs[:1] != ["push"]:
            return
        if name in ("gradle", "gradlew") and verbs[:1] and verbs[0].startswith("publish") and \
                verbs[0] != "publishtomavenlocal":
            verbs = ["publish", *verbs[1:]]  # publishPlugins, publishToSonatype: every publish task uploads
        if (verbs[:1] and (verbs[0] in publish or "*" in publish)) or ("--prod" in verbs and "--prod" in publish):
            risk = Risk.HIGH if any(w in ("-auto-approve", "--yes", "-y", "--force") for w in words) or \
                verbs[0] in ("unpublish", "yank") else Risk.MEDIUM
            add(Finding("confirm.shell.publish", risk, f"{name} {verbs[0]}: publishes or deploys beyond this "
                        f"machine{where}", cmd.span))

    def cloud(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if (moved := _across_identities(cmd, analysis)) is not None:
            add(Finding("block.shell.cloud-exfiltration", Risk.CRITICAL, f"{cmd.name} writes what another "
                        f"{cmd.name} reads under {moved} into a bucket under other credentials: the data leaves "
                        f"the account{where}", cmd.span))
            return
        if (cmd.name == "aws" and (words[:2] in (["s3", "rm"], ["s3", "rb"]) or any(
                w.startswith(("delete-", "terminate-", "remove-", "deregister-")) or
                (w.startswith("schedule-") and w.endswith("-deletion")) for w in words[:3]))) or \
                (cmd.name in ("gcloud", "az") and any(_CLOUD_DELETE.match(w) for w in words[:5])):
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"{cmd.name} {' '.join(words[:3])}: deletes cloud "
                        f"resources{where}", cmd.span))
        elif cmd.name == "aws" and words[:2] == ["s3", "sync"] and "--delete" in words:
            add(Finding("confirm.shell.destructive", Risk.HIGH, f"aws s3 sync --delete{where}", cmd.span))
        elif (cmd.name == "aws" and words[:2] in (["s3", "cp"], ["s3", "sync"]) and _s3_download(words[2:])) or \
                (cmd.name == "gcloud" and words[:2] in (["storage", "cp"], ["storage", "rsync"]) and
                 _s3_download(words[2:], "gs://")):
            pass  # a copy from a bucket to this machine changes nothing in the cloud
        elif "deploy" not in words[:4] and any(_CLOUD_MUTATION.match(w) for w in _cloud_verbs(cmd.name, words)):
            verb = next(w for w in _cloud_verbs(cmd.name, words) if _CLOUD_MUTATION.match(w))
            add(Finding("confirm.shell.remote-mutation", Risk.MEDIUM, f"{cmd.name} {verb}: changes cloud "
                        f"resources or access{where}", cmd.span))
        elif "deploy" in words[:4]:
            add(Finding("confirm.shell.publish", Risk.MEDIUM, f"{cmd.name} {' '.join(words[:3])}: deploys{where}",
                        cmd.span))


# gcloud's and az's deleting verbs: delete, purge, gcloud storage rm, az's batch deletes (storage blob delete-batch)
_CLOUD_DELETE = re.compile(r"^(delete|purge|rm|delete-batch)$")


_S3_VALUED = frozenset({"--exclude", "--include", "--region", "--profile", "--endpoint-url", "--storage-class",
                        "--sse", "--acl", "--grants", "--content-type", "--expected-size", "--page-size",
                        "--source-region", "--cache-control", "--metadata", "--sse-c", "--sse-kms-key-id"})


def _s3_download(args: list[str], scheme: str = "s3://") -> bool:
    """`aws s3 cp|sync s3://bucket/key local` (`gcloud storage cp gs://...`): a bucket's object copied to a local
    path (the last operand), or printed (`-`: standard output)."""
    operands = [a for k, a in enumerate(args) if (not a.startswith("-") or a == "-") and
                not (k and args[k - 1] in _S3_VALUED)]
    return len(operands) == 2 and operands[0].startswith(scheme) and not operands[1].startswith(scheme)


# the options and variables that choose whose credentials a cloud CLI uses (a profile, an account, a key, another
# endpoint), by program
_IDENTITY_FLAGS = {"aws": ("--profile", "--endpoint-url"),
                   "gcloud": ("--account", "--impersonate-service-account", "--configuration"),
                   "az": ("--subscription", "--account-name", "--sas-token", "--connection-string", "--account-key")}
_IDENTITY_VARS = re.compile(r"(?:^|\s)(aws_profile|aws_access_key_id|aws_default_profile|cloudsdk_core_account|"
                            r"cloudsdk_active_config_name|google_application_credentials|azure_storage_account|"
                            r"azure_storage_connection_string|azure_storage_sas_token)=(\S+)", re.I)
_BUCKET = {"aws": "s3://", "gcloud": "gs://"}


def _identity(cmd: Command) -> tuple[str, ...]:
    """Whose credentials `cmd` runs with, as written on its line: its identity options and variables set for it."""
    words = list(cmd.words)
    flags = _IDENTITY_FLAGS.get(cmd.name, ())
    out = [f"{w}={words[k + 1]}" for k, w in enumerate(words[:-1]) if w in flags]
    out += [w for w in words if w.split("=", 1)[0] in flags and "=" in w]
    prefix = cmd.span.split(cmd.argv[0], 1)[0] if cmd.argv[0] in cmd.span else ""
    out += [f"{m.group(1).lower()}={m.group(2)}" for m in _IDENTITY_VARS.finditer(prefix)]
    return tuple(sorted(out))


def _across_identities(cmd: Command, analysis: ShellAnalysis) -> str | None:
    """`aws s3 cp --profile a s3://theirs/k - | aws s3 cp --profile b - s3://ours/k`: an object read to standard
    output under one identity and written into a bucket under another (a profile, account, key or endpoint of
    its own): the identity the reading side used, or None."""
    scheme = _BUCKET.get(cmd.name)
    if scheme is None or not cmd.upstream:
        return None
    operands = [w for w in cmd.words[1:] if not w.startswith("-") or w == "-"]
    if "-" not in operands or not any(w.startswith(scheme) for w in operands[operands.index("-"):]):
        return None
    mine = _identity(cmd)
    for i in cmd.upstream:
        src = analysis.commands[i]
        theirs = _identity(src)
        read = [w for w in src.words[1:] if not w.startswith("-") or w == "-"]
        if src.name == cmd.name and any(w.startswith(scheme) for w in read) and (mine or theirs) and mine != theirs:
            return ", ".join(theirs) or "the default credentials"
    return None
