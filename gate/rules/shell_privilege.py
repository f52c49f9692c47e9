"""Shell checks: permissions, ownership, accounts, capabilities and privileged containers.

Part of the shell Detector (gate/rules/shell.py), which inherits these methods: each one judges one kind
of simple command and files its findings under the rule ids of gate/rules/shell.py. The vocabulary they
share lives in gate/rules/shell_vocab.py; the policy is read through the Detector's own predicates
(`self.resolve`, `self.protected_target`, `self.secret_path`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from gate.catalogue import matching
from gate.effects import embedded_scripts, flag_written, program_effects, unknown_effect
from gate.model import Risk
from gate.nochange import READ_VERBS, reading_verb
from gate.rules.shell_vocab import (
    _ADMIN_GROUPS,
    _CHMOD_MODE,
    _root_info,
    _split_flags,
)
from gate.shell import (
    Command,
    Finding,
    ShellAnalysis,
)

if TYPE_CHECKING:
    from gate.rules.shell import Detector

__all__ = ["PrivilegeChecks", "acl_grant", "host_root_device", "polkit_grant", "reads_as_root", "root_looks",
           "share_config"]


_RX_PERMISSIONS = re.compile(r"[0-7]?[0-7][0-7][2367]")
_RX_PERMISSIONS_2 = re.compile(r"(^|,)[ugo]*[ao][ugo]*[+=][rwxst]*w")
_RX_PERMISSIONS_3 = re.compile(r"[4267][0-7]{3}")
_RX_ACCOUNTS = re.compile(r"(^| )(-u|--uid)[ =]0( |$)")
_RX_DOCKER_RUN = re.compile(r"(^| )(-v|--volume)[ =]/(:|\s)|(^| )(-v|--volume)[ =]/var/run/docker\.sock")
_RX_DOCKER_RUN_2 = re.compile(
    r"(^| )(-v|--volume)[ =](/etc|/root|/home|/boot|/var|/usr|/proc|/sys|/dev|~|/home/~)(/[^:]*)?:")


# the host's root mounted writable into a container (`-v /:/mnt`, `--volume=/:/host`, `--mount type=bind,source=/,...`)
_RX_HOST_ROOT = re.compile(r"(^| )(-v|--volume)[ =]/:[^ :]+(:rw)?( |$)|(^| )--mount[ =]\S*\bsource=/,(?!\S*readonly)")
_SHELL_WORDS = frozenset({"sh", "bash", "ash", "zsh", "dash", "ksh", "/bin/sh", "/bin/bash", "/bin/ash", "chroot"})


def _interactive_shell(words: list[str]) -> bool:
    """A container started with a terminal and input (`-it`), or told to run a shell or chroot."""
    flags = [w for w in words if w.startswith("-") and not w.startswith("--")]
    tty = any("i" in w[1:] and "t" in w[1:] and len(w) <= 4 for w in flags) or \
        ({"-i", "--interactive"} & set(words) and {"-t", "--tty"} & set(words))
    return bool(tty) or any(w in _SHELL_WORDS for w in words[-3:])


# A file named like an option that makes a program run a command: planted in a folder where someone later
# runs `tar cf x *`, `rsync *`, `zip ... *` or `chown --reference`, the shell's `*` hands the name to the
# program as that option (wildcard injection). No file is given such a name for any other reason.
_CODE_OPTION_NAME = re.compile(r"^-(?:-checkpoint-action=|-use-compress-program|-to-command|-rsh=|e\s*\S|"
                               r"-info-script|-new-volume-script|-unzip-command|TT?\s*\S|-reference=|I\s*\S|"
                               r"-rsync-path)", re.IGNORECASE)



# accounts Windows ships switched off: turned on, they are a known name (and often a known or empty password)
# the person's own account, as an owner is written for chown (`$USER`, `$(whoami)`, `$(id -u)`, `${USER}`)
_SELF_OWNER = re.compile(r"^(?:\$\{?user\}?|\$\(whoami\)|`whoami`|\$\(id -u(?:n)?\)|\$\(logname\))$")
_HOME_OF = re.compile(r"^(?:/home|/users)/(?P<name>[^/]+)/?$")


def _own_home(owner: str, path: str | None) -> bool:
    """`path` is a home folder and `owner` (`NAME`, `NAME:GROUP`) is its own user, by name or as the person."""
    user = owner.split(":", 1)[0].split(".", 1)[0].strip("'\"").lower()
    if not user or path is None:
        return False
    m = _HOME_OF.match(path.lower())
    if m is None:
        return False
    return user == m.group("name") or (bool(_SELF_OWNER.match(user)) and m.group("name") in ("~", "$user", "me"))


# the working folder by its variable or its command (`$PWD/dist`, `"$(pwd)"`): a tree of the project
_IN_WORKING_FOLDER = re.compile(r"^[\"']?(?:\$PWD|\$\{PWD\}|\$\(pwd\)|`pwd`)(?:[\"']?$|/(?!\.\.))")
_BUILT_IN_ACCOUNTS = frozenset({"guest", "administrator", "defaultaccount", "wdagutilityaccount"})

_PW_CHANGES = frozenset({"useradd", "usermod", "userdel", "groupadd", "groupmod", "groupdel", "lock", "unlock"})


class PrivilegeChecks:
    """Permissions, ownership, accounts, capabilities and privileged containers."""

    def option_named_file(self, cmd: Command, name: str, where: str, add: Callable[[Finding], None]) -> bool:
        """Whether `name`, a file `cmd` creates, is an option that runs code (then it blocks)."""
        base = name if name.startswith("-") else name.replace("\\", "/").rsplit("/", 1)[-1]
        if not base.startswith("-") or _CODE_OPTION_NAME.match(base) is None:
            return False
        add(Finding("block.shell.option-injection", Risk.CRITICAL,
                    f"creates a file named {base[:60]!r}: a `*` in a later tar/rsync/zip/chown command hands it "
                    f"over as an option that runs a command{where}", cmd.span))
        return True

    def touch(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        after_dashes = False
        for a in cmd.argv[1:]:
            if a == "--" and not after_dashes:
                after_dashes = True
            elif after_dashes or not a.startswith("-") or a.startswith("./"):
                self.option_named_file(cmd, a, where, add)

    def permissions(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        if cmd.found:
            self.found_permissions(cmd, analysis, where, add)
        flags, operands = _split_flags(cmd)
        recursive = bool(flags & {"-R", "--recursive"}) or (cmd.name in ("icacls",) and "/t" in cmd.words)
        ops = [(i, a) for i, a in operands]
        if cmd.name == "chmod":
            # a symbolic mode like -w or a+rwx may look like a flag: take the first non-path word as the mode
            mode_word = next((a for a in cmd.argv[1:] if _CHMOD_MODE.fullmatch(a)), "")
            paths = [(i, a) for i, a in ops if a != mode_word]
            m = mode_word.lower()
            world = bool(_RX_PERMISSIONS.fullmatch(m)) or \
                bool(_RX_PERMISSIONS_2.search(m)) \
                or m in ("a+rwx", "ugo+rwx", "a=rwx", "o+w", "o+rwx", "+rwx")
            setuid = bool(_RX_PERMISSIONS_3.fullmatch(m)) or "+s" in m or "=s" in m
            for i, a in paths:
                if i in cmd.dynamic:
                    continue
                hit = self.protected_target(cmd, a)
                if hit and world:
                    add(Finding("block.shell.insecure-permissions-root", Risk.CRITICAL,
                                f"chmod {mode_word} on {hit}: makes it writable by everyone{where}", cmd.span))
                elif hit:  # a protected folder itself (`chmod 000 /`) or anything under a system tree
                    add(Finding("confirm.shell.system-write", Risk.HIGH,
                                f"changes permissions of {hit}{' recursively' if recursive else ''}{where}", cmd.span))
                elif world:
                    add(Finding("confirm.shell.insecure-permissions", Risk.MEDIUM,
                                f"chmod {mode_word} makes {a} writable by everyone{where}", cmd.span))
                if setuid:
                    add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                                f"sets the setuid/setgid bit on {a}{where}", cmd.span))
            return
        # chown / chgrp
        paths = ops[1:] if cmd.name in ("chown", "chgrp") and ops else ops
        for i, a in paths:
            if i in cmd.dynamic:
                if recursive and cmd.name in ("chown", "chgrp") and not _IN_WORKING_FOLDER.match(a):
                    # `chown -R $USER:$USER $HOME_DIR`: a whole tree the gate cannot read, a home or a system folder
                    # as likely as a build folder (one under the working folder, `$PWD/dist`, passes)
                    add(Finding("confirm.shell.insecure-permissions", Risk.HIGH,
                                f"{cmd.name} -R on {a[:60]}, a folder named by a variable: changes the owner of a "
                                f"whole tree the gate cannot see{where}", cmd.span))
                    return
                continue
            hit = self.protected_target(cmd, a)
            if hit and recursive and cmd.name == "chown" and _own_home(ops[0][1] if ops else "", self.resolve(cmd, a)):
                # `chown -R alice:alice /home/alice`, `chown -R $USER ~`: a home handed back to its own user, the
                # repair of a container's or a sudo'd tool's files; it asks, whoever else is given it blocks
                add(Finding("confirm.shell.insecure-permissions", Risk.HIGH,
                            f"{cmd.name} -R on {hit}: gives the whole home to its own user{where}", cmd.span))
            elif hit and recursive:
                add(Finding("block.shell.insecure-permissions-root", Risk.CRITICAL,
                            f"{cmd.name} -R on {hit}: changes the owner of the whole tree{where}", cmd.span))
            elif hit:
                add(Finding("confirm.shell.system-write", Risk.HIGH, f"changes the owner of {hit}{where}", cmd.span))

    def accounts(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        if cmd.name == "pw":  # FreeBSD's `pw useradd|usermod|groupmod|userdel ...`: the account tools in one
            if not words or words[0] not in _PW_CHANGES:
                return  # pw usershow, groupshow, lock listing: reads
            if cmd.words[1] == "groupmod" and len(words) > 1 and any(w in ("-m", "-M") for w in words):
                words = [*words[1:], "-G", words[1]]  # `pw groupmod wheel -m bob`: bob joins wheel
            else:
                words = words[1:]
        if cmd.name == "net" and (not words or words[0] not in ("user", "localgroup", "group", "accounts")):
            return  # net use / view / share / time: not accounts
        if cmd.name == "net" and len([w for w in words if not w.startswith("/")]) <= 2 and \
                all(w.lower() in ("/domain", "/do", "/dom") and words[0] == "user" and
                    len([w for w in words if not w.startswith("/")]) == 2 for w in words if w.startswith("/")):
            # `net user`, `net user alice`, `net localgroup administrators`, `net user bob /domain`: lists
            # accounts, changes nothing (the domain's whole user list or admin groups is an attacker's map: asks)
            return
        if cmd.name == "net" and words[:1] == ["user"] and "/active:yes" in words and \
                any(w in _BUILT_IN_ACCOUNTS for w in words[1:]):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL, f"net user turns on the built-in account "
                        f"{next(w for w in words[1:] if w in _BUILT_IN_ACCOUNTS)}: a way in nobody watches{where}",
                        cmd.span))
            return
        joined = " ".join(words)
        groups: set[str] = set()
        for k, w in enumerate(words):
            if w in ("-g", "-G", "-ag", "-a", "--groups", "--append") and k + 1 < len(words) and \
                    not words[k + 1].startswith("-"):
                groups.update(words[k + 1].split(","))
        if cmd.name in ("adduser", "gpasswd", "addgroup") and len(words) >= 2:
            groups.update(w for w in words[-1:])
        if cmd.name == "net" and "localgroup" in words and "/add" in words:
            groups.update(words)
        if cmd.name == "dseditgroup" and "-o" in words and words.index("-o") + 1 < len(words) and \
                words[words.index("-o") + 1] in ("read", "checkmember"):
            return  # prints a group, or whether an account is in it: changes nothing
        if cmd.name == "dseditgroup" and "admin" in words:
            groups.add("admin")
        uid0 = _RX_ACCOUNTS.search(joined) is not None or ("-o" in words and "-u" in words)
        if groups & _ADMIN_GROUPS or uid0:
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"{cmd.name} grants administrator rights "
                        f"({', '.join(sorted(groups & _ADMIN_GROUPS)) or 'uid 0'})"
                        f"{where}", cmd.span))
            return
        add(Finding("confirm.shell.privilege-escalation", Risk.MEDIUM if cmd.name not in ("chpasswd", "visudo")
                    else Risk.HIGH, f"{cmd.name}: changes accounts, groups or passwords{where}", cmd.span))

    def setcap(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        add(Finding("confirm.shell.privilege-escalation", Risk.HIGH, f"setcap grants capabilities to a "
                    f"program{where}", cmd.span))

    def docker_run(self, cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
        words = list(cmd.words[1:])
        # (the engine's own options that take a value: `docker -H tcp://host:2376 run ...`)
        engine_values = {k + 1 for k, w in enumerate(words) if w in ("-H", "-h", "--host", "--context", "-c",
                                                                    "--config", "--log-level", "-l")}
        verbs = [w for k, w in enumerate(words) if not w.startswith("-") and k not in engine_values]
        if not verbs or (verbs[0] not in ("run", "create", "exec") and verbs[:2] != ["container", "run"]):
            if cmd.name in ("docker-compose",) or verbs[:1] == ["compose"]:
                if "down" in verbs and any(w in ("-v", "--volumes", "--rmi") for w in words):
                    add(Finding("confirm.shell.destructive", Risk.HIGH, f"compose down deletes volumes/images{where}",
                                cmd.span))
            elif verbs[:1] in (["system"], ["volume"], ["container"], ["network"], ["builder"]) and \
                    "prune" in verbs:  # (images are built or pulled again: pruning them loses no data)
                add(Finding("confirm.shell.destructive", Risk.HIGH, f"docker {' '.join(verbs[:2])}{where}", cmd.span))
            return
        joined = " ".join(words)
        risky = [w for w in words if w == "--privileged" or w.startswith(
            ("--pid=host", "--cap-add=sys_admin", "--cap-add=all", "--security-opt=apparmor=unconfined",
             "--userns=host"))]
        if _RX_DOCKER_RUN.search(joined) or \
                ("--mount" in words and "source=/," in joined):
            risky.append("the host's root or docker socket mounted")
        elif _RX_DOCKER_RUN_2.search(joined):
            risky.append("a system or home directory of the host mounted")
        if _RX_HOST_ROOT.search(joined) and _interactive_shell(words):
            # the host's whole file system, writable, under an interactive shell of a container that runs as root:
            # root over every file of the machine (GTFOBins' docker shell; on a remote engine, over that machine)
            add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                        f"{cmd.name} opens a root shell over the host's whole file system (/ mounted){where}",
                        cmd.span))
        if risky:
            add(Finding("confirm.shell.privilege-escalation", Risk.HIGH,
                        f"container with host-level access ({', '.join(risky)}){where}", cmd.span))
        self.deploys(cmd, where, add)

    def found_permissions(self, cmd: Command, analysis: ShellAnalysis, where: str,
                          add: Callable[[Finding], None]) -> None:
        """chown/chgrp, or chmod to a world-writable mode, run by find -exec or xargs on what a search from a
        protected tree finds (`find /home -exec chown x {} ;`): the same change as `chown -R` over that tree.
        Over everything found it blocks; narrowed to one owner, name or path it asks."""
        search = _search_of(cmd, analysis)
        if search is None:
            return
        if cmd.name == "chmod":
            mode = next((a for a in cmd.argv[1:] if _CHMOD_MODE.fullmatch(a)), "").lower()
            if not (_RX_PERMISSIONS.fullmatch(mode) or _RX_PERMISSIONS_2.search(mode) or
                    mode in ("a+rwx", "ugo+rwx", "a=rwx", "o+w", "o+rwx", "+rwx")):
                return
        roots = [w for w in search.words[1:] if not w.startswith(("-", "(", "!"))][:4]
        roots = roots[:next((k for k, w in enumerate(search.words[1:]) if w.startswith(("-", "(", "!"))),
                            len(roots))]
        hit = next((h for r in roots or ["."] if (h := self.protected_target(search, r))), None)
        if hit is None:
            return
        narrowed = any(w in _NARROWING for w in search.words[1:])
        what = "the owner" if cmd.name in ("chown", "chgrp") else "the permissions (writable by everyone)"
        if narrowed:
            add(Finding("confirm.shell.system-write", Risk.HIGH,
                        f"{cmd.name} changes {what} of the files a search of {hit} finds{where}", cmd.span))
        else:
            add(Finding("block.shell.insecure-permissions-root", Risk.CRITICAL,
                        f"{cmd.name} run on everything a search of {hit} finds: changes {what} of the whole "
                        f"tree{where}", cmd.span))


# find tests that pick some files out of a tree (`-type` alone does not: every file or every folder)
_NARROWING = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex", "-user", "-uid",
                        "-group", "-gid", "-nouser", "-nogroup", "-newer", "-mtime", "-mmin", "-perm", "-size",
                        "-samefile", "-inum", "-links", "-maxdepth"})


def _search_of(cmd: Command, analysis: ShellAnalysis) -> Command | None:
    """The find command whose results `cmd` is run on (find -exec, or find piped into xargs)."""
    cmds = analysis.commands
    if "find -exec" in cmd.via or "find -execdir" in cmd.via:
        at = next((i for i, c in enumerate(cmds) if c is cmd), 0)
        return next((cmds[i] for i in range(at - 1, -1, -1) if cmds[i].name == "find"), None)
    return next((cmds[i] for i in cmd.upstream if cmds[i].name == "find"), None)


# a Samba share section written out: the folder it shares, and a guest (no password) allowed in
_SMB_ROOT_PATH = re.compile(r"(^|\\n|\n|\s|\])\s*path\s*=\s*(/|/home|/root|/etc|/users)/?\s*(\\n|\n|$|\s|['\"])", re.I)
_SMB_GUEST = re.compile(r"(guest\s+ok|public|guest\s+only|map\s+to\s+guest)\s*=\s*(yes|true|1|bad\s+user)\b",
                        re.I)


def share_config(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """A Samba share written into smb.conf that shares the whole file system, the homes or /etc with guests
    (no password): everyone on the network gets them (`block.shell.public-exposure`)."""
    if "smb.conf" not in analysis.source:
        return
    target = any("smb.conf" in t for op, t in cmd.redirects if op in (">", ">>")) or \
        (cmd.name == "tee" and any("smb.conf" in w for w in cmd.words[1:]))
    if not target:
        return
    said = " ".join([cmd.span, cmd.stdin_text or "", *(analysis.commands[i].span for i in cmd.upstream)])
    if _SMB_ROOT_PATH.search(said) and _SMB_GUEST.search(said):
        add(Finding("block.shell.public-exposure", Risk.CRITICAL,
                    f"{cmd.name} writes a Samba share of {_SMB_ROOT_PATH.search(said).group(2)} open to guests: "
                    f"everyone on the network gets it without a password{where}", cmd.span))


# a polkit rule whose function answers yes before it asks anything (no `if` ahead of the `return ...YES`), or a
# local-authority entry that authorises every action without a password: every user may do what only an
# administrator may (install, mount, manage units and accounts)
_POLKIT_PLACE = re.compile(r"/polkit-1/(rules\.d|localauthority)")
_POLKIT_YES_FIRST = re.compile(r"function\s*\([^)]*\)\s*\{\s*return\s+polkit\.result\.yes", re.I)
_PKLA_ANY = re.compile(r"result(any|active|inactive)\s*=\s*yes", re.I)
_PKLA_EVERYONE = re.compile(r"identity\s*=\s*unix-(user|group):\*", re.I)


def polkit_grant(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """A polkit rule written (tee, echo/printf/cat into rules.d or localauthority) that says yes to every request
    from everyone: any local user or process gets an administrator's actions (`block.shell.credential-tamper`, as
    a sudoers line for ALL would). A rule that checks a group or an action first asks as a write to /etc."""
    targets = [t for op, t in cmd.redirects if op in (">", ">>")]
    if cmd.name == "tee":
        targets += [w for w in cmd.argv[1:] if not w.startswith("-")]
    if not any(_POLKIT_PLACE.search(t.lower()) for t in targets):
        return
    said = " ".join([cmd.span, cmd.stdin_text or "", *(analysis.commands[i].span for i in cmd.upstream)])
    if _POLKIT_YES_FIRST.search(said) or (_PKLA_ANY.search(said) and _PKLA_EVERYONE.search(said)):
        add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                    f"{cmd.name} writes a polkit rule that grants every request without asking: any user becomes "
                    f"an administrator{where}", cmd.span))


# an ACL entry that lets a named user or group (not root) write: `u:nobody:rwx`, `g:staff:rw-`, `o::w`
_ACL_WRITE = re.compile(r"(^|,)(u|user|g|group|o|other)?:(?!root:)[^:,]*:[r-]?w")


def acl_grant(d: Detector, cmd: Command, where: str, add: Callable[[Finding], None]) -> None:
    """setfacl giving another user or group write access to an account, sudo, doas or SSH key file (`setfacl -m
    u:nobody:rwx /etc/sudoers.d`): whoever it names may then make themselves root (`block.shell.credential-tamper`,
    as writing the file would). Read access, or an ACL removed (-x, -b), asks or passes."""
    words = cmd.argv[1:]
    grants = [words[k + 1] for k, w in enumerate(words[:-1]) if w in ("-m", "--modify", "-M", "--set")]
    grants += [w.split("=", 1)[1] for w in words if w.startswith(("--modify=", "--set="))]
    if not any(_ACL_WRITE.search(g.lower()) for g in grants):
        return
    for w in words:
        if w.startswith("-") or w in grants:
            continue
        path = d.resolve(cmd, w) or w
        if d.credential and d.credential.search(path.rstrip("/") + ("/" if path.endswith("sudoers.d") else "")):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"setfacl lets another user write {w}: an account, sudo or key file{where}", cmd.span))
            return


_PRIVILEGED_CONTAINER = re.compile(r"security\.privileged[= ]+true|(^|\s)shift=true(\s|$)", re.I)


def host_root_device(cmd: Command, analysis: ShellAnalysis, where: str, add: Callable[[Finding], None]) -> None:
    """LXD or Incus given the host's root as a disk of a privileged container (`lxc init img c -c
    security.privileged=true && lxc config device add c host disk source=/ path=/mnt/root`): the container's
    root is the host's root over every file (GTFOBins' lxd; `block.shell.suid-shell`). A project folder shared,
    or / shared into an unprivileged container, asks or passes."""
    words = cmd.words[1:]
    if words[:3] != ("config", "device", "add") or "disk" not in words or "source=/" not in words:
        return
    if _PRIVILEGED_CONTAINER.search(analysis.source):
        add(Finding("block.shell.suid-shell", Risk.CRITICAL,
                    f"{cmd.name} gives a privileged container the host's whole file system (source=/): root over "
                    f"every file of the machine{where}", cmd.span))


# --- root only to look: `sudo htop`, `sudo profiles -P`, `sudo systemctl list-units` -------------------------------

# the hops that run one program as root with a clean environment (sudo's env_reset): given no option and no
# variable of their own (`sudo -E`, `sudo -s`, `sudo -u x`, `sudo VAR=1 x` keep asking)
_CLEAN_HOPS = frozenset({"sudo", "doas"})
# programs whose output is the same with root or without: through sudo they only prove that sudo works without a
# password (`sudo id`, `sudo -n true`: the privilege check that opens an escalation), which is no look
_ROOT_PROBES = frozenset({"id", "whoami", "groups", "logname", "true", "false", "echo", "printf", "pwd", "tty",
                          "test", "[", "[[", "sleep", "yes", "env", "printenv", "uname", "hostname", "date", "users",
                          "who", "w", "command", "type", "which", "hash", "exit", "return", ":"})
# effects of a program that, as root, only look: it prints, or reads the files it is given
_LOOKING = frozenset({"none", "read"})
# programs that only print or read, but whose screen, pager or start-up file hands out a shell, or whose
# flags write a file or load code (GTFOBins' shell, command, inherit and file-write functions of programs the
# table calls readers): as root, any of these is a root shell one keystroke or one planted file away
_SHELL_FROM_SCREEN = frozenset({
    # pagers, and programs that page their output through less or more
    "less", "more", "most", "pg", "man", "zless", "zmore", "bzless", "xzless", "lzless", "bat", "batcat", "info",
    "pinfo", "dmesg", "jless", "fx", "cheat", "git",
    # interactive screens with a shell command or escape, or a start-up file that names a program to run
    "top", "iftop", "ncdu", "fzf", "pidstat", "dstat", "grc", "neofetch", "fastfetch", "screenfetch", "cowsay",
    "nroff", "troff", "pic", "eqn", "tbl", "dc", "csvtool", "xdg-user-dir", "env", "dialog", "whiptail",
    # capture and forensics tools that run a command or a plugin of the user's
    "tcpdump", "tshark", "wireshark", "volatility", "volatility3", "vol", "vol3",
    # readers whose flags write any file they are given, and collectors that write an archive of the whole
    # system's logs, processes and settings (macOS's sysdiagnose, spindump, tailspin)
    "xxd", "iconv", "shuf", "exiftool", "dmidecode", "tee", "sort", "sysdiagnose", "spindump", "tailspin",
})
# the one-letter switches a look may carry: the display and selection switches that mean the same to most
# monitors and reports (verbose, all, list, long, human, count, delay, user, process, quiet, batch, interface,
# JSON, version, help). Any other one-letter switch may set, clear, install, remove or write to a program that
# has it (`date -s`, `dmesg -C`, `profiles -I`/`-R`/`-D`, `sysctl -w`, `nvidia-smi -pl`, `-o FILE`): not a look
_LOOK_LETTERS = frozenset("vaAlLhHndupPqbij1JVmgBMG")
# parts of a long option's name that set something beside the changing verbs of [read_verbs] (`--power-limit`,
# `--lock-gpu-clocks`, `--persistence-mode`, `--toggle`, `--on`)
_SETTING_PARTS = frozenset({"limit", "lock", "unlock", "persistence", "clocks", "toggle", "on", "off", "mode",
                            "power", "config", "load", "unload", "plugin", "exec", "script", "command", "output",
                            "log-file", "file", "dump", "save", "record"})
# programs the table calls printers whose bare operand sets what they would print (`sudo date 0101000020`,
# `sudo hostname web01`): no operand may be taken as an option's value there
_OPERAND_SETS = frozenset({"date", "hostname", "domainname", "nisdomainname", "ypdomainname", "dnsdomainname",
                           "hwclock", "stty", "setterm", "umask", "ulimit", "timedatectl", "hostnamectl",
                           "localectl", "xset", "xrandr", "setxkbmap", "brightnessctl", "amixer", "rfkill", "nmcli",
                           "bluetoothctl", "iw", "iwconfig", "gsettings", "dconf", "xfconf-query", "kwriteconfig5",
                           "eject", "wall", "write", "busctl", "loginctl", "pactl", "pacmd", "xmodmap", "xkbcomp",
                           "xinput", "tic", "set", "export", "alias", "hash", "trap", "read", "declare", "typeset"})
# systemd's own tools: under sudo, doas or pkexec their pager runs in secure mode (systemd 247 and later:
# $SYSTEMD_PAGERSECURE is on by default when the effective user is not the session's owner, and the pager
# refuses shell escapes), so their root reads need no `--no-pager`
_SYSTEMD_PAGED = frozenset({"systemctl", "journalctl", "loginctl", "busctl", "timedatectl", "hostnamectl",
                            "localectl", "resolvectl", "networkctl", "systemd-analyze"})
# root reads that the macOS catalogue (LOOBins) lists as discovery: as root, `profiles show -type enrollment` fetches
# this Mac's device-enrolment record (the organisation and MDM server that manage it); without root it only fails
_ROOT_DISCOVERY = {"profiles": re.compile(r"\benrollment\b|(^|\s)-e(\s|$)")}
_SYSTEM_BIN = re.compile(r"^/(?:usr/)?s?bin/[\w.+-]+$")
# where root reads what the agent's own user may not: devices and kernel memory, root's and the other users' homes,
# services' data, host keys and private certificates, spools, and macOS's keychains and databases
_ROOT_ONLY_PLACES = ("/dev/", "/proc/", "/sys/", "/root", "/home", "/users", "/var/lib/", "/var/db/", "/var/spool/",
                     "/var/mail/", "/var/backups/", "/var/run/", "/run/", "/private/", "/etc/ssl/", "/etc/ssh/",
                     "/etc/pki/", "/etc/sudoers", "/library/keychains/", "/etc/security/")
# folders anyone may write into: a file there may be a link another user planted to a secret, which root follows
# (`sudo cat /tmp/report` reads whatever /tmp/report points at), so a root read of one is no mere look
_ANYONE_WRITES = ("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/private/var/tmp/", "/run/shm/")
_WORD_OPTION = re.compile(r"^-[a-z]{4,}$")
_PATH_LIKE = re.compile(r"[/.*~]")
_NETWORK_WORD = re.compile(r"://|^[\w.-]+@[\w.-]+:|^\\\\")


def _clean_hop(cmd: Command) -> bool:
    """`cmd` is reached through one plain `sudo` or `doas` with nothing between it and the program."""
    if len(cmd.via) != 1 or cmd.via[0] not in _CLEAN_HOPS:
        return False
    head = cmd.span.split(None, 2)
    return len(head) >= 2 and head[0].rsplit("/", 1)[-1] in _CLEAN_HOPS and head[1] == cmd.argv[0]


def _changing(word: str) -> bool:
    """A word, or a part of a hyphenated word (`set-hostname`, `--clear-all`), that says it changes something."""
    parts = word.lstrip("-/").split("=", 1)[0]
    return parts in READ_VERBS.changing or any(p in READ_VERBS.changing for p in parts.split("-")) or \
        parts in READ_VERBS.unless


def _looks_only(d: Detector, cmd: Command, paged_safely: bool = False) -> bool:
    """The program, on its own, only prints or reads (its effects in the table), no catalogue function of it is
    triggered, no flag writes a file, loads code or sets something, and what it is given is a reading verb,
    option values, or files that are not secrets nor devices."""
    effects = program_effects(cmd.name)
    discovery = _ROOT_DISCOVERY.get(cmd.name)
    if discovery is not None and discovery.search(" ".join(cmd.words[1:])):
        return False
    if effects is None or not effects <= _LOOKING or (cmd.name in _SHELL_FROM_SCREEN and not paged_safely) or \
            cmd.name in _ROOT_PROBES:
        return False
    argv = list(cmd.argv)
    args = " ".join(cmd.words[1:])
    if matching(cmd.name, args) or unknown_effect(argv, cmd.name) or flag_written(cmd.name, argv) or \
            embedded_scripts(cmd.name, argv):
        return False
    operands: list[str] = []
    after_flag = False
    for raw, word in zip(cmd.argv[1:], cmd.words[1:], strict=False):
        if word == "--" or _NETWORK_WORD.search(word) or _changing(word):
            return False
        if word.startswith("-"):
            flag = raw.split("=", 1)[0]
            if flag.startswith("--") or _WORD_OPTION.match(flag):  # (`-type`: macOS's and BSD's long options)
                if any(p in _SETTING_PARTS for p in flag.lstrip("-").lower().split("-")):
                    return False
            elif len(flag) != 2 or flag[1] not in _LOOK_LETTERS:
                return False  # (`-pl` may be one option of its own, not `-p -l`: nvidia-smi's power limit)
            after_flag = "=" not in word
            continue
        if after_flag and cmd.name not in _OPERAND_SETS and "/" not in word and "~" not in word:
            after_flag = False  # (the option's value: `htop -u bob`, `mactop --interval 1000`)
            continue
        after_flag = False
        operands.append(word)
    if not operands:
        return True
    if "read" in effects and "none" not in effects and all(_PATH_LIKE.search(w) for w in operands):
        # a reader given files (a bare word may be a verb: `resolvectl dns eth0 ...` sets, and is judged below)
        for w in operands:
            path = d.resolve(cmd, w) or w
            if path.lower().startswith(_ROOT_ONLY_PLACES) or d.secret_path(cmd, w):
                return False
        return True
    return reading_verb(cmd.name, cmd.words[1:], cmd.redirects) is not None


def reads_as_root(d: Detector, cmd: Command) -> bool:
    """`sudo htop`, `sudo profiles -P -v`, `sudo systemctl list-units`: root only to look. The command is reached
    through one plain sudo or doas (no `-E`, `-s`, `-u`, variables), is the program found by name or in a system
    folder, reads nothing piped in, redirects nothing, and, judged from its effects, only prints or reads what is
    not a secret (`_looks_only`), or is a systemd tool's reading verb (its pager is secure under sudo). What the
    line does with the output is judged by the caller."""
    first = cmd.argv[0] if cmd.argv else ""
    if not _clean_hop(cmd) or cmd.redirects or cmd.upstream or cmd.dynamic or cmd.found or cmd.remote or \
            cmd.stdin_text is not None or (("/" in first or "\\" in first) and not _SYSTEM_BIN.match(first)):
        return False
    if cmd.name in _SYSTEMD_PAGED and "--no-pager" not in cmd.words and \
            _root_info(msgspec.structs.replace(cmd, words=(*cmd.words, "--no-pager"), argv=(*cmd.argv, "--no-pager"))):
        return True
    return _looks_only(d, cmd, paged_safely=cmd.name in _SYSTEMD_PAGED)


# screens that answer a key with a shell: `dmesg -H` pages through less, iftop's `!` runs a command (its text
# mode, -t, reads no keys), top's start-up file can name a program to pipe into
def _screen_escape(cmd: Command) -> bool:
    words = cmd.words[1:]
    if cmd.name == "dmesg":
        return any(w in ("-h", "--human") or (w.startswith("-") and not w.startswith("--") and "h" in w.lower())
                   for w in cmd.argv[1:]) or "--pager" in words
    if cmd.name == "iftop":
        return "-t" not in words
    if cmd.name == "top":
        return not any(w == "-b" or (w.startswith("-") and "b" in w and not w.startswith("--")) for w in words)
    return False


def root_looks(d: Detector, cmd: Command) -> bool:
    """A command run as root only to look (the caller drops the root ask; everything else the command is judged
    for stays): a read the shell vocabulary lists (`_root_info`: `sudo lshw`, `sudo ufw status`), or one judged
    from the program's effects (`reads_as_root`), and never a screen that answers a key with a shell."""
    if _screen_escape(cmd) or _reads_planted(d, cmd):
        return False
    return _root_info(cmd) or reads_as_root(d, cmd)


def _reads_planted(d: Detector, cmd: Command) -> bool:
    """A file root is told to read lies in a folder anyone may write into (`sudo cat /tmp/out.txt`): it may be a link
    planted there to a secret. A listing of the folder itself (`sudo ls /tmp`) reads no file."""
    if cmd.name in ("ls", "dir", "du", "df", "stat", "find", "tree", "lsof", "file"):
        return False
    for w in cmd.words[1:]:
        if w.startswith("-"):
            continue
        path = (d.resolve(cmd, w) or w).lower()
        if path.startswith(_ANYONE_WRITES) and path.rstrip("/") + "/" not in _ANYONE_WRITES:
            return True
    return False
