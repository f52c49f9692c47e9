"""Shell checks: what a Linux desktop's administration tools switch off, open or hand over.

Part of the shell Detector (gate/rules/shell.py), called per simple command for the programs named in
`[desktop_admin]` of resources/programs.toml. Their reading verbs pass through `[[no_change]]`; here the uses whose
effect is unambiguous block, and the consequential ones the table is silent on ask:

- package signatures not checked (`dnf --nogpgcheck`, `apt-get --allow-unauthenticated`, `snap install
  --dangerous`, `[trusted=yes]` or `gpgcheck=0` written into a repository file) for a package from a repository or
  from a download folder: whoever serves it decides what runs as root. A local build installed so only asks.
- a sandbox widened: `flatpak override` grants ask; two ways out of the sandbox at once, or one of the worst (the
  Flatpak portal's host escape, a loader variable, the SSH or keyring folders) block; `snap install --devmode`
  from the store drops its confinement; a snap plugged into a wide interface asks.
- SELinux's guards lowered: a memory-protection boolean switched, a domain made permissive, logins mapped to an
  unconfined user, `selinux=0` / `apparmor=0` / `enforcing=0` given to the kernel (grubby, kernelstub, rpm-ostree).
- the firewall opened: a port range that spans most ports, a habitual backdoor port, a remote login forwarded in.
- every snapshot deleted or kept from being made (`timeshift --delete-all`, `snapper delete-config`, a retention
  limit set to 0, a glob of btrfs snapshot subvolumes): the way back after a bad change or ransomware is gone.
- a disk key the agent knows added to an encrypted volume (`echo pw | cryptsetup luksAddKey DEV -`), or a
  volume's header sent out with the line (a header and a passphrase open the disk anywhere).
- the system's traffic sent through a proxy (`snap set system proxy.*`, `nmcli ... proxy.pac-url`), updates held
  for every snap without end, a drive formatted through the disk service's D-Bus interface, a launcher's Exec key
  written with a program that downloads or hides (KDE's kwriteconfig, desktop-file-edit, crudini, `sed -i` on an
  autostart entry), a cron job whose program waits in a hidden folder, a program bound to a key pressed all day.
- the updater or the authorisation service masked for good (`systemctl mask apt-daily-upgrade.timer`, `polkit`),
  an SELinux module that allows every logged denial installed, a browser started with an extension from a
  temporary or hidden folder, apps or repositories from a host that borrows a store's name (`[desktop_admin_stores]`),
  a downloaded disk image attached and a program on it run.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.catalogue import DATA as _TABLE
from gate.model import Risk
from gate.shell import NET_SENDERS, Command, Finding, ShellAnalysis

__all__ = ["NAMES", "judge"]

Add = Callable[[Finding], None]

_SPEC = _TABLE.get("desktop_admin", {})
NAMES = frozenset(_SPEC.get("programs", ()))
_UNSIGNED_FLAGS = tuple(_SPEC.get("unsigned_flags", ()))
_UNSIGNED_MARKS = tuple(_SPEC.get("unsigned_marks", ()))
_REPO_FILES = tuple(_SPEC.get("repo_files", ()))
_STRANGER = tuple(_SPEC.get("stranger_places", ()))
_WEAK_ON = frozenset(_SPEC.get("selinux_weak_on", ()))
_WEAK_OFF = frozenset(_SPEC.get("selinux_weak_off", ()))
_UNCONFINED = frozenset(_SPEC.get("unconfined", ()))
_KERNEL_OFF = tuple(_SPEC.get("kernel_guards_off", ()))
_BACKDOOR_PORTS = frozenset(_SPEC.get("backdoor_ports", ()))
_LOGIN_PORTS = frozenset(_SPEC.get("remote_login_ports", ()))
_GRANTS = tuple(_SPEC.get("sandbox_grants", ()))
_ESCAPES = frozenset(_SPEC.get("sandbox_escapes", ()))
_WORST = tuple(_SPEC.get("sandbox_worst", ()))
_WIDE_PLUGS = frozenset(_SPEC.get("snap_wide_plugs", ()))
_DISK_METHODS = frozenset(_SPEC.get("disk_methods", ()))
_LAUNCH_MARKS = tuple(_SPEC.get("launch_marks", ()))
_LAUNCH_KEYS = frozenset(_SPEC.get("launch_keys", ()))
_LAUNCH_PLACES = tuple(_SPEC.get("launch_places", ()))
_KDE_GUARDS = tuple(_SPEC.get("kde_guard_files", ()))
_EVERYDAY_KEYS = frozenset(_SPEC.get("everyday_keys", ()))
_UPDATE_UNITS = frozenset(_SPEC.get("update_units", ()))
_AUTHORITY_UNITS = frozenset(_SPEC.get("authority_units", ()))
_UNIT_SUFFIX = re.compile(r"\.(?:service|timer|socket|path)$")
_STORE_NAMES = {name: tuple(hosts) for name, hosts in _TABLE.get("desktop_admin_stores", {}).items()}
_URL_HOST = re.compile(r"^(?:https?|oci\+https?)://([^/:\s'\"]+)")
_KNOWN_DOTS = frozenset(_SPEC.get("known_dot_folders", ()))
_JOB = re.compile(r"(?:@(?:reboot|hourly|daily|weekly|monthly|yearly|annually)|(?:[\d*/,-]+\s+){4}[\d*/,-]+)\s+"
                  r"(?:(?:ba|z|da)?sh\s+|nohup\s+)?((?:~|\$home|\$\{home\}|/home/[^/\s'\"]+|/root)/[^\s'\";|&>]+)")

_INSTALL_VERBS = frozenset({"install", "localinstall", "reinstall", "upgrade", "update", "dist-upgrade",
                            "full-upgrade", "distro-sync", "in", "up", "dup", "-i", "-u", "-ivh", "-uvh", "-fvh",
                            "ar", "addrepo", "config-manager", "--add-repo", "remote-add"})
_PORT_RANGE = re.compile(r"^(\d{1,5})[-:](\d{1,5})(?:/\w+)?$")
_PORT = re.compile(r"(?:^|[\s=\"'])port=?\"?(\d{1,5})\b|^(\d{1,5})(?:/\w+)?$")
_TOPORT = re.compile(r"toport=(\d{1,5})")
_LOOPBACK = re.compile(r"://(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?:[:/]|$)")
_PROXY_SET = re.compile(r"\bproxy\.(?:https?|store)=\S")
_PAC_SET = re.compile(r"proxy\.(?:pac-url|pac-script)\s+(\S+)")
_PROXY_VALUE = re.compile(r"(?:https?|socks5?h?)://[^\s'\"]+|(?:^|[\s'\"])(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?|"
                          r"(?:^|[\s'\"])[a-z0-9-]+(?:\.[a-z0-9-]+)+\.[a-z]{2,}(?::\d+)?(?=[\s'\"]|$)")
_NO_RETENTION = re.compile(r"^(?:number|timeline)_limit\w*=\"?0(?:-0)?\"?$")
_SNAPSHOT_STORE = re.compile(r"(?:^|/)(?:\.snapshots|snapshots?|timeshift(?:-btrfs)?)(?:/|$)")


def _operands(cmd: Command) -> list[str]:
    return [w for w in cmd.words[1:] if not w.startswith("-")]


def _verb(cmd: Command) -> str:
    ops = _operands(cmd)
    return ops[0] if ops else ""


def _strange(word: str) -> bool:
    w = word.strip("'\"")
    return w.startswith(_STRANGER) or any(p.strip("*") in w for p in _STRANGER if "*" in p)


def judge(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """Each check below reads one family of these programs; most return at once for the others."""
    name = cmd.name
    text = " ".join(cmd.words)
    if name in ("flatpak", "snap", "dnf", "dnf5", "yum", "microdnf", "zypper", "apt", "apt-get", "aptitude", "rpm",
                "add-apt-repository", "rpm-ostree"):
        _unsigned(cmd, text, where, add)
        if name != "flatpak" and "://" in text:
            _impostor_store(cmd, where, add)
    if name == "tee":
        _repo_written(cmd, analysis, where, add)
    elif name == "flatpak":
        _flatpak(cmd, where, add)
    elif name == "snap":
        _snap(cmd, text, where, add)
    elif name in ("setsebool", "semanage"):
        _selinux(cmd, where, add)
    elif name in ("grubby", "kernelstub", "grub-editenv", "grub2-editenv", "rpm-ostree"):
        _kernel_args(cmd, text, where, add)
    elif name in ("firewall-cmd", "firewall-offline-cmd", "ufw"):
        _firewall(cmd, where, add)
    elif name in ("timeshift", "snapper", "btrfs"):
        _snapshots(cmd, where, add)
    elif name == "cryptsetup":
        _disk_key(cmd, analysis, where, add)
    elif name == "nmcli":
        _nmcli(cmd, text, where, add)
    elif name in ("busctl", "gdbus", "dbus-send", "qdbus", "qdbus6"):
        _disk_bus(cmd, text, where, add)
    elif name in ("kwriteconfig5", "kwriteconfig6", "desktop-file-edit", "crudini"):
        _launcher(cmd, text, where, add)
    elif name in ("sed", "perl") and "exec" in text:
        _launcher_rewritten(cmd, text, where, add)
    elif name == "crontab":
        _hidden_job(cmd, analysis, where, add)
    elif name == "systemctl":
        _masked(cmd, where, add)
    elif name in ("gsettings", "dconf") and "proxy" in text:
        _desktop_proxy(cmd, text, where, add)
    elif name == "semodule":
        _allow_all_denials(cmd, analysis, where, add)
    elif name in ("udisksctl", "mount") and ("loop" in text or ".iso" in text or ".img" in text):
        _image_program_run(cmd, analysis, where, add)
    elif "--load-extension" in text:
        _extension_loaded(cmd, where, add)


def _unsigned(cmd: Command, text: str, where: str, add: Add) -> None:
    """Signatures not checked for a package from a repository, a URL or a download folder."""
    flags = [f for f in _UNSIGNED_FLAGS if f in text and (" " in f or f in cmd.words or
                                                          any(w.startswith(f + "=") for w in cmd.words))]
    marks = [m for m in _UNSIGNED_MARKS if m in text]
    if not flags and not marks:
        return
    ops = _operands(cmd)
    if not ops or not any(v in _INSTALL_VERBS or v.startswith("deb") for v in ops + list(cmd.words)):
        return
    packages = ops[1:] if ops[0] in _INSTALL_VERBS else ops
    local = [p for p in packages if p.startswith(("./", "../", "/", "~")) or p.endswith((".rpm", ".deb", ".snap"))]
    from_stranger = any(_strange(p) for p in packages)
    if marks or from_stranger or (packages and not local) or (not packages and cmd.name != "snap"):
        what = (flags or marks)[0]
        add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                    f"installs or adds packages with their signatures unchecked ({what}): whoever serves them decides "
                    f"what runs as root{where}", cmd.span))


def _repo_written(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`echo 'deb [trusted=yes] ...' | sudo tee /etc/apt/sources.list.d/x.list`: an unsigned repository added."""
    targets = [w for w in cmd.words[1:] if not w.startswith("-")]
    if not any(t.startswith(_REPO_FILES) for t in targets):
        return
    fed = " ".join(" ".join(analysis.commands[i].words) for i in cmd.upstream if i < len(analysis.commands))
    fed += " " + (cmd.stdin_text or "").lower()
    mark = next((m for m in _UNSIGNED_MARKS if m in fed), None)
    if mark is not None:
        add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                    f"writes a package repository whose signatures are not checked ({mark}){where}", cmd.span))


def _flatpak(cmd: Command, where: str, add: Add) -> None:
    verb = _verb(cmd)
    words = cmd.words
    if verb in ("override", "run"):
        grants = [w for w in words if w.startswith(_GRANTS) and "=" in w]
        if not grants:
            return
        worst = next((g for g in grants if g.startswith(_WORST)), None)
        escapes = [g for g in grants if g.rstrip("/:rw").rstrip(":") in _ESCAPES]
        if worst is not None or len(escapes) >= 2:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"lets a Flatpak app out of its sandbox ({worst or ', '.join(escapes)}){where}", cmd.span))
        elif verb == "override":
            add(Finding("confirm.shell.system-state", Risk.MEDIUM,
                        f"widens a Flatpak app's sandbox ({', '.join(grants)}){where}", cmd.span))
        return
    if verb in ("install", "remote-add", "remote-modify", "update") and _impostor_store(cmd, where, add):
        return
    if verb in ("uninstall", "remove"):
        if "--all" in words and "--delete-data" in words:
            add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                        f"removes every Flatpak app and deletes all of their data{where}", cmd.span))
        elif "--unused" not in words:
            add(Finding("confirm.shell.install", Risk.MEDIUM, f"removes a Flatpak app{where}", cmd.span))
    elif verb in ("remote-modify", "remote-delete"):  # (a remote added is judged by its host: programs.toml)
        add(Finding("confirm.shell.install", Risk.MEDIUM,
                    f"changes where Flatpak apps come from ({verb}){where}", cmd.span))


def _snap(cmd: Command, text: str, where: str, add: Add) -> None:
    ops = _operands(cmd)
    verb = ops[0] if ops else ""
    if verb == "install" and "--devmode" in cmd.words and any(not _local(p) for p in ops[1:]):
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                    f"installs a store snap with its confinement off (--devmode){where}", cmd.span))
    elif verb == "install" and "--dangerous" in cmd.words and any(_strange(p) for p in ops[1:]):
        add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                    f"installs a downloaded snap with no signature checked (--dangerous){where}", cmd.span))
    elif verb == "ack" and any(_strange(p) for p in ops[1:]):
        add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                    f"adds a downloaded assertion to the snap store's trust{where}", cmd.span))
    elif (verb == "refresh" and ("--hold" in cmd.words or "--hold=forever" in cmd.words) and len(ops) == 1) or \
            (verb == "set" and "refresh.hold=forever" in text):
        add(Finding("block.shell.defense-evasion", Risk.HIGH,
                    f"stops every snap from being updated, security fixes included, with no end{where}", cmd.span))
    elif verb == "set" and _PROXY_SET.search(text) and not _LOOPBACK.search(text):
        add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                    f"sends the system's downloads through another machine's proxy{where}", cmd.span))
    elif verb == "connect" and len(ops) > 1 and ops[1].rsplit(":", 1)[-1] in _WIDE_PLUGS:
        add(Finding("confirm.shell.system-state", Risk.MEDIUM,
                    f"gives a snap the {ops[1].rsplit(':', 1)[-1]} interface{where}", cmd.span))


def _local(word: str) -> bool:
    return word.startswith(("./", "../", "/", "~")) or word.endswith(".snap")


def _selinux(cmd: Command, where: str, add: Add) -> None:
    words = cmd.words
    ops = _operands(cmd)
    why = None
    if cmd.name == "setsebool":
        pairs = ops if "=" not in " ".join(ops) else [p for w in ops for p in w.split("=")]
        for k in range(len(pairs) - 1):
            name, value = pairs[k], pairs[k + 1]
            on = value in ("on", "1", "true")
            off = value in ("off", "0", "false")
            if (on and name in _WEAK_ON) or (off and name in _WEAK_OFF):
                why = f"lowers an SELinux guard ({name} {value})"
                break
    elif ops and ops[0] == "permissive" and any(w in ("-a", "--add") for w in words):
        why = "makes an SELinux domain permissive: its denials are only logged"
    elif ops and ops[0] in ("login", "user") and any(w in ("-a", "--add", "-m", "--modify") for w in words) and \
            any(w in _UNCONFINED for w in words):
        why = "maps logins to SELinux's unconfined user"
    if why:
        add(Finding("block.shell.defense-evasion", Risk.CRITICAL, f"{why}{where}", cmd.span))


def _kernel_args(cmd: Command, text: str, where: str, add: Add) -> None:
    if cmd.name == "rpm-ostree" and "kargs" not in cmd.words:
        return
    for w in cmd.words[1:]:
        value = w.split("=", 1)[1] if w.startswith("--") and "=" in w else w
        for part in value.strip("'\"").split():
            if any(part == g or (g.endswith("=") and part.startswith(g) and part[len(g):] in ("", "none"))
                   or (part.startswith(g) and g.endswith("=0")) for g in _KERNEL_OFF):
                add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                            f"boots the kernel with a security module or its checks off ({part}){where}", cmd.span))
                return


def _firewall(cmd: Command, where: str, add: Add) -> None:
    for w in cmd.words[1:]:
        value = w.split("=", 1)[1] if "=" in w and w.startswith("--") else w
        m = _PORT_RANGE.match(value)
        if m and int(m.group(2)) - int(m.group(1)) >= 1000 and (cmd.name != "ufw" or "allow" in cmd.words):
            if cmd.name != "ufw" and not w.startswith(("--add-port", "--permanent", "--add-source-port")) and \
                    not w[0].isdigit():
                continue
            add(Finding("block.shell.public-exposure", Risk.CRITICAL,
                        f"opens the firewall to a range of {int(m.group(2)) - int(m.group(1)) + 1} ports{where}",
                        cmd.span))
            return
        opening = (cmd.name == "ufw" and "allow" in cmd.words) or w.startswith(("--add-port", "--add-rich-rule"))
        if opening:
            for p in _PORT.finditer(value):
                port = p.group(1) or p.group(2)
                if port in _BACKDOOR_PORTS and ("accept" in value or not w.startswith("--add-rich-rule")):
                    add(Finding("block.shell.public-exposure", Risk.CRITICAL,
                                f"opens port {port}, where backdoors and remote shells listen{where}", cmd.span))
                    return
        if w.startswith("--add-forward-port"):
            t = _TOPORT.search(value)
            if t and t.group(1) in _LOGIN_PORTS:
                add(Finding("block.shell.public-exposure", Risk.CRITICAL,
                            f"forwards a port from outside to a remote login (port {t.group(1)}){where}", cmd.span))
                return


def _snapshots(cmd: Command, where: str, add: Add) -> None:
    words = cmd.words
    ops = _operands(cmd)
    why = None
    if cmd.name == "timeshift" and "--delete-all" in words:
        why = "deletes every Timeshift snapshot"
    elif cmd.name == "snapper" and "delete-config" in ops:
        why = "deletes a snapper configuration with all of its snapshots"
    elif cmd.name == "snapper" and "set-config" in ops and any(
            _NO_RETENTION.match(w) for w in words):
        why = "sets snapper's retention to keep no snapshots"
    elif cmd.name == "btrfs" and ops[:2] in (["subvolume", "delete"], ["sub", "del"], ["subvolume", "del"],
                                             ["sub", "delete"]):
        for p in ops[2:]:
            if _SNAPSHOT_STORE.search(p) and ("*" in p or p.rstrip("/").endswith(("/.snapshots", "/snapshots"))):
                why = "deletes every snapshot subvolume under a snapshot folder"
                break
    if why:
        add(Finding("block.shell.mass-destruction", Risk.CRITICAL,
                    f"{why}: the way back after a bad change or ransomware is gone{where}", cmd.span))


def _disk_key(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    ops = _operands(cmd)
    verb = ops[0] if ops else ""
    if verb in ("luksaddkey", "luksformat", "luksconvertkey", "token") or "--new-keyfile" in cmd.words:
        fed = bool(cmd.upstream) or cmd.stdin_text is not None
        key_file = next((w for w in ops[2:] if w != "-"), "")
        if (fed and ("-" in ops[1:] or verb == "luksaddkey")) or (key_file and _strange(key_file)):
            add(Finding("block.shell.credential-tamper", Risk.CRITICAL,
                        f"adds a disk key the agent chose to an encrypted volume: the disk opens for whoever "
                        f"holds it{where}", cmd.span))
            return
    if verb in ("luksheaderbackup", "luksdump") and any(c.name in NET_SENDERS for c in analysis.commands):
        add(Finding("block.shell.credential-exfiltration", Risk.CRITICAL,
                    f"saves an encrypted volume's header and sends data out in the same line{where}", cmd.span))


def _nmcli(cmd: Command, text: str, where: str, add: Add) -> None:
    ops = _operands(cmd)
    if ops[:1] in (["c"], ["con"], ["connection"]) and len(ops) > 1 and ops[1] in ("modify", "mod", "m", "add", "a"):
        pac = _PAC_SET.search(text)
        if pac and not _LOOPBACK.search(pac.group(1)) and "://" in pac.group(1):
            add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                        f"has another machine's proxy script decide where this connection's web traffic goes{where}",
                        cmd.span))
        return
    if ops[:1] in (["c"], ["con"], ["connection"]) and len(ops) > 1 and ops[1] in ("import", "load"):
        add(Finding("confirm.shell.network", Risk.MEDIUM, f"adds a network or VPN profile from a file{where}",
                    cmd.span))
    elif ops[:1] in (["d"], ["dev"], ["device"]) and "hotspot" in ops:
        add(Finding("confirm.shell.network", Risk.MEDIUM, f"shares this machine's network as a Wi-Fi hotspot{where}",
                    cmd.span))


def _disk_bus(cmd: Command, text: str, where: str, add: Add) -> None:
    if "udisks2" not in text:
        return
    method = next((w.rsplit(".", 1)[-1] for w in cmd.words if "udisks2." in w and w.rsplit(".", 1)[-1] in
                   _DISK_METHODS), None)
    method = method or next((w for w in _operands(cmd) if w in _DISK_METHODS), None)
    if method is None:
        return
    if method == "format" and "erase" in text:
        add(Finding("block.shell.disk-destruction", Risk.CRITICAL,
                    f"has the disk service format a drive and overwrite all of it{where}", cmd.span))
    else:
        add(Finding("confirm.shell.system-state", Risk.HIGH,
                    f"has the disk service change a drive ({method}){where}", cmd.span))


def _launcher(cmd: Command, text: str, where: str, add: Add) -> None:
    keys = [cmd.words[k + 1] for k, w in enumerate(cmd.words[:-1]) if w in ("--key", "--set-key", "-k")]
    keys += [w.split("=", 1)[1] for w in cmd.words if w.startswith(("--key=", "--set-key="))]
    ops = _operands(cmd)
    places = any(p in w for w in cmd.words for p in _LAUNCH_PLACES)
    files = [cmd.words[k + 1] for k, w in enumerate(cmd.words[:-1]) if w == "--file"]
    guarded = next((f for f in files for g in _KDE_GUARDS if g in f), None)
    if guarded is not None and "kglobalshortcutsrc" in guarded and \
            any(part.strip("'\"") in _EVERYDAY_KEYS for w in ops for part in w.split(",")):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"binds a program to a key pressed all the time (copy, paste, save): it runs at every press{where}",
                    cmd.span))
        return
    if any("kioslaverc" in f for f in files) and "proxy" in text:
        _desktop_proxy(cmd, text, where, add)
        return
    if guarded is not None and cmd.name.startswith("kwriteconfig"):
        add(Finding("confirm.shell.system-state", Risk.MEDIUM,
                    f"changes a protection or key binding of the desktop ({guarded}){where}", cmd.span))
    if not any(k.strip("'\"") in _LAUNCH_KEYS for k in keys) and not (cmd.name == "crudini" and
                                                                      any(o in _LAUNCH_KEYS for o in ops)):
        return
    if any(m in text for m in _LAUNCH_MARKS):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"sets a launcher's command to one that fetches or runs hidden code{where}", cmd.span))
    elif places:
        add(Finding("confirm.shell.persistence", Risk.HIGH,
                    f"sets the command a desktop launcher or autostart entry runs{where}", cmd.span))


def _hidden(path: str) -> bool:
    """A dot-folder in the path that is not one of a home's usual program folders, or one inside another."""
    dots = [p for p in path.split("/")[1:] if p.startswith(".") and p not in (".", "..")]
    return bool(dots) and (len(dots) > 1 or dots[0] not in _KNOWN_DOTS)


def _launcher_rewritten(cmd: Command, text: str, where: str, add: Add) -> None:
    """`sed -i 's|^Exec=.*|Exec=sh -c "curl ... | sh"|' ~/.config/autostart/x.desktop`: a start-up entry's command
    rewritten in place to fetch and run."""
    if not any(w == "-i" or w.startswith(("-i", "--in-place", "-pi")) for w in cmd.words[1:]):
        return
    if any(p in w for w in cmd.words[1:] for p in _LAUNCH_PLACES) and any(m in text for m in _LAUNCH_MARKS):
        add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                    f"rewrites a start-up entry's command to one that fetches or runs hidden code{where}", cmd.span))


def _hidden_job(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """A cron job whose program is kept in a hidden folder of a home (`@reboot ~/.cache/.u/agent`): installed
    software lives in the open (~/.local/bin, ~/.cargo/bin), a payload where nobody looks."""
    if "-l" in cmd.words and len(cmd.words) <= 4 and not cmd.upstream:
        return
    for m in _JOB.finditer(analysis.source.lower() + " " + (cmd.stdin_text or "").lower()):
        if _hidden(m.group(1)):
            add(Finding("block.shell.malicious-persistence", Risk.CRITICAL,
                        f"crontab runs {m.group(1)}, a program kept in a hidden folder, on schedule{where}", cmd.span))
            return


def _masked(cmd: Command, where: str, add: Add) -> None:
    """`systemctl mask --now apt-daily-upgrade.timer`, `systemctl mask polkit`: the updater or the authority that
    decides who acts as administrator can never start again (stopping or disabling one asks as before)."""
    ops = _operands(cmd)
    if not ops or ops[0] != "mask":
        return
    for unit in ops[1:]:
        base = _UNIT_SUFFIX.sub("", unit)
        if base in _UPDATE_UNITS or base in _AUTHORITY_UNITS:
            what = "security updates" if base in _UPDATE_UNITS else "the system's authorisation checks"
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"masks {unit}: {what} can never start again{where}", cmd.span))
            return


def _extension_loaded(cmd: Command, where: str, add: Add) -> None:
    """A browser started with an unpacked extension (`--load-extension=DIR`): from a temporary or hidden folder it
    is nobody's project, and it reads every page and cookie the person opens."""
    for w in cmd.words[1:]:
        if not w.startswith("--load-extension="):
            continue
        for folder in w.split("=", 1)[1].split(","):
            if _strange(folder) or _hidden(folder.strip("'\"")):
                add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                            f"starts the browser with an extension from a temporary or hidden folder ({folder}): it "
                            f"reads every page and cookie{where}", cmd.span))
                return
        add(Finding("confirm.shell.install", Risk.HIGH,
                    f"starts the browser with an unpacked extension ({w.split('=', 1)[1]}){where}", cmd.span))
        return


def _impostor_store(cmd: Command, where: str, add: Add) -> bool:
    """An app or a repository taken from a host that borrows a store's name (`flathub` in a host outside
    flathub.org): it serves apps that install under the real ones' ids."""
    for w in cmd.words[1:]:
        m = _URL_HOST.match(w.split("=", 1)[1] if w.startswith("--") and "=" in w else w)
        if m is None:
            continue
        host = m.group(1)
        for name, own in _STORE_NAMES.items():
            if name in host and not any(host == d or host.endswith("." + d) for d in own):
                add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                            f"takes apps from {host}, which borrows {name}'s name and is not its site{where}",
                            cmd.span))
                return True
    return False


# a filter that keeps audit2allow to one program's denials (ausearch -c NAME, --comm, comm=, or a named module type)
_ONE_PROGRAM = re.compile(r"(?:^|\s)(?:-c|--comm|-x|--executable|-su|--subject)\s|comm=|exe=|scontext=")


def _allow_all_denials(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`grep denied /var/log/audit/audit.log | audit2allow -M m && semodule -i m.pp`, `audit2allow -a -M m`: a
    policy module that allows every denial SELinux logged, for every program, installed at once."""
    if not any(w in ("-i", "--install") or w.startswith("--install=") for w in cmd.words):
        return
    for other in analysis.commands:
        if other.name != "audit2allow" or not any(w in ("-m", "--module") or w.startswith("-m") for w in other.words):
            continue
        fed = [analysis.commands[i] for i in other.upstream if i < len(analysis.commands)]
        everything = "-a" in other.words or "--all" in other.words or any(
            c.name in ("grep", "cat", "ausearch", "zgrep") and not _ONE_PROGRAM.search(" " + " ".join(c.words))
            for c in fed)
        if everything:
            add(Finding("block.shell.defense-evasion", Risk.CRITICAL,
                        f"installs an SELinux module that allows every denial it logged, for every program{where}",
                        cmd.span))
            return


def _image_program_run(cmd: Command, analysis: ShellAnalysis, where: str, add: Add) -> None:
    """`udisksctl loop-setup -f ~/Downloads/x.img && udisksctl mount -b /dev/loop5 && /media/$USER/X/run.sh`: a
    downloaded disk image attached and a program on it run, which is how such images deliver what a browser's
    download checks would have caught."""
    if not any(_strange(w) for w in cmd.words[1:]):
        return
    for other in analysis.commands:
        first = other.argv[0] if other.argv else ""
        if first.startswith(("/media/", "/run/media/", "/mnt/", "/volumes/")) or (
                other.name in ("sh", "bash", "xdg-open", "gio") and
                any(a.startswith(("/media/", "/run/media/", "/mnt/")) for a in other.argv[1:])):
            add(Finding("block.shell.untrusted-source", Risk.CRITICAL,
                        f"attaches a downloaded disk image and runs a program from it ({first}){where}", cmd.span))
            return


def _desktop_proxy(cmd: Command, text: str, where: str, add: Add) -> None:
    """GNOME's `org.gnome.system.proxy` (gsettings, dconf) or KDE's kioslaverc proxy keys: the desktop's web traffic
    sent through a host, or a proxy script from one, that is not this machine; switching the proxy off passes."""
    if not any(w in ("set", "write") for w in cmd.words[1:3]) and not cmd.name.startswith("kwriteconfig"):
        return
    values = [m.group(0).strip(" '\"") for m in _PROXY_VALUE.finditer(" ".join(cmd.words[2:]))]
    values = [v for v in values if "org.gnome" not in v and not v.startswith(("org.", "/org/"))]
    outside = [v for v in values if not _LOOPBACK.search(v if "://" in v else "://" + v)]
    if outside:
        add(Finding("block.shell.system-file-tamper", Risk.CRITICAL,
                    f"sends the desktop's web traffic through {outside[0]}{where}", cmd.span))
