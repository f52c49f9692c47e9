"""macOS and Linux administration programs: what only lists or shows passes, what changes the machine asks or blocks.

Covers the block "macOS and Linux commands (man pages, LOOBins, tldr)" at the end of resources/programs.toml,
the root-only reads of gate/rules/shell_vocab.py `_ROOT_READ_VERBS` and `dseditgroup -o read`. Every program
named in that block has a read-only use below, and one that changes something where it has one.
"""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict

GATE = SafetyGate(default_policy())
HEADER = "# -- macOS and Linux commands (man pages, LOOBins, tldr)"


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


# program -> a use that only reads, lists or shows
READS = {
    "ditto": "ditto -c -k build/App.app dist/App.zip",
    # tldr pages, second pass: reports, X clients, toolchain queries and readers
    "e2freefrag": "e2freefrag /dev/sdb1",
    "routel": "routel",
    "getopt": "getopt -o v -- -v",
    "manpath": "manpath",
    "ul": "ul notes.txt",
    "xlsclients": "xlsclients -l",
    "dircolors": "dircolors",
    "pinky": "pinky",
    "zramctl": "zramctl",
    "pkg-config": "pkg-config --cflags --libs gtk4",
    "pkgconf": "pkgconf --modversion zlib",
    "pg_config": "pg_config --bindir",
    "llvm-config": "llvm-config --targets-built",
    "pg_isready": "pg_isready",
    "jps": "jps -l",
    "jstack": "jstack 4242",
    "serialver": "serialver com.example.Order",
    "gettext": "gettext -d app hello",
    "javap": "javap -c build/Order.class",
    "jdeps": "jdeps -summary app.jar",
    "llvm-objdump": "llvm-objdump -d build/app",
    "llvm-nm": "llvm-nm build/app.o",
    "llvm-readelf": "llvm-readelf -h build/app",
    "llvm-readobj": "llvm-readobj --sections build/app",
    "llvm-strings": "llvm-strings build/app",
    "llvm-size": "llvm-size build/app",
    "llvm-dwarfdump": "llvm-dwarfdump build/app",
    "llvm-bcanalyzer": "llvm-bcanalyzer build/app.bc",
    "llvm-dis": "llvm-dis build/app.bc",
    "zipgrep": "zipgrep TODO release.zip",
    "gpgv": "gpgv SHA256SUMS.sig SHA256SUMS",
    "perldoc": "perldoc -f open",
    "mandb": "mandb --user-db",
    "msgfmt": "msgfmt po/fr.po -o build/fr.mo",
    "msgmerge": "msgmerge -U po/fr.po po/app.pot",
    "msgcat": "msgcat po/a.po po/b.po -o po/all.po",
    "msginit": "msginit -i po/app.pot -l fr -o po/fr.po",
    "xgettext": "xgettext -o po/app.pot src/main.c",
    "llvm-objcopy": "llvm-objcopy --strip-debug build/app build/app.min",
    "llvm-strip": "llvm-strip build/app",
    "nvcc": "nvcc kernel.cu -o build/kernel",
    "bridge": "bridge fdb show",
    "hardlink": "hardlink -n ~/photos",
    "gdbus": "gdbus monitor --session",
    "pkcon": "pkcon search htop",
    "kernel-install": "kernel-install list",
    "localedef": "localedef --list-archive",
    "systemd-sysext": "systemd-sysext list",
    "systemd-confext": "systemd-confext status",
    "xrdb": "xrdb -query",
    "gpgconf": "gpgconf --list-dirs",
    "pydoc": "pydoc json",
    "pydoc3": "pydoc3 pathlib",
    "jmap": "jmap -histo 4242",
    "jcmd": "jcmd -h",
    "jhsdb": "jhsdb --help",
    "systemd-cgls": "systemd-cgls",
    "systemd-cgtop": "systemd-cgtop -n 1",
    "systemd-delta": "systemd-delta",
    "systemd-escape": "systemd-escape -p /mnt/data",
    "systemd-path": "systemd-path user-documents",
    "systemd-id128": "systemd-id128 machine-id",
    "userdbctl": "userdbctl user",
    "pmap": "pmap -x 1234",
    "pwdx": "pwdx 1234",
    "slabtop": "slabtop -o",
    "tload": "tload",
    "lsmem": "lsmem",
    "lsfd": "lsfd -p 1234",
    "lslogins": "lslogins -u",
    "utmpdump": "utmpdump /var/log/wtmp",
    "runlevel": "runlevel",
    "filefrag": "filefrag -v big.iso",
    "fincore": "fincore big.iso",
    "mountpoint": "mountpoint /mnt",
    "findfs": "findfs LABEL=data",
    "isosize": "isosize disk.iso",
    "wdctl": "wdctl",
    "hostid": "hostid",
    "dnsdomainname": "dnsdomainname",
    "zdump": "zdump Europe/Paris",
    "tzselect": "tzselect",
    "checkrestart": "checkrestart",
    "modinfo": "modinfo e1000e",
    "dumpe2fs": "dumpe2fs -h /dev/sdb1",
    "xfs_info": "xfs_info /srv",
    "pvs": "pvs",
    "vgs": "vgs",
    "lvs": "lvs -a",
    "pvdisplay": "pvdisplay",
    "vgdisplay": "vgdisplay",
    "lvdisplay": "lvdisplay",
    "fc-list": "fc-list : family",
    "fc-match": "fc-match serif",
    "fc-pattern": "fc-pattern monospace",
    "fc-query": "fc-query fonts/Inter.ttf",
    "showmount": "showmount -e nas",
    "nfsstat": "nfsstat -m",
    "smbstatus": "smbstatus -b",
    "rpcinfo": "rpcinfo -p",
    "faillock": "faillock --user ann",
    "pam_tally2": "pam_tally2 --user ann",
    "xhost": "xhost",
    "lsappinfo": "lsappinfo list",
    "afinfo": "afinfo a.m4a",
    "praudit": "praudit -l /var/audit/current",
    "auditreduce": "auditreduce -c lo /var/audit/current",
    "nettop": "nettop -P -l 1",
    "leaks": "leaks 1234",
    "java_home": "java_home -V",
    "sdef": "sdef /Applications/Mail.app",
    "klist": "klist",
    "objcopy": "objcopy --only-keep-debug build/app build/app.debug",
    "xip": "xip --expand Xcode.xip",
    "fc-cache": "fc-cache -f",
    "e4defrag": "e4defrag -c /home",
    "grub-mkconfig": "grub-mkconfig",
    "apt-mark": "apt-mark showhold",
    "apt-key": "apt-key list",
    "dpkg-deb": "dpkg-deb -I dist/tool_1.0_amd64.deb",
    "networkctl": "networkctl list",
    "coredumpctl": "coredumpctl info",
    "machinectl": "machinectl status web",
    "portablectl": "portablectl list",
    "homectl": "homectl inspect ann",
    "udevadm": "udevadm monitor --udev",
    "dkms": "dkms status",
    "sbctl": "sbctl verify",
    "netplan": "netplan status",
    "btrfs": "btrfs subvolume list /",
    "lvm": "lvm vgs",
    "xfs_repair": "xfs_repair -n /dev/sdb1",
    "numactl": "numactl --show",
    "capsh": "capsh --print",
    "needrestart": "needrestart -b",
    "unattended-upgrade": "unattended-upgrade --dry-run",
    "unattended-upgrades": "unattended-upgrades --dry-run",
    "sshd": "sshd -T",
    "exportfs": "exportfs -s",
    "partx": "partx --show /dev/sdb",
    "blockdev": "blockdev --report",
    "pwck": "pwck -r",
    "grpck": "grpck -r",
    "prlimit": "prlimit --pid 4242",
    "choom": "choom -p 4242",
    "rtcwake": "rtcwake -m show",
    "ntpq": "ntpq -pn",
    "xauth": "xauth info",
    "systemd-creds": "systemd-creds has-tpm2",
    "systemd-tmpfiles": "systemd-tmpfiles --cat-config",
    "trust": "trust list",
    "firmwarepasswd": "firmwarepasswd -mode",
    "bless": "bless --getBoot",
    "mdmclient": "mdmclient QueryInstalledProfiles",
    "qlmanage": "qlmanage -m",
    "sntp": "sntp time.apple.com",
    "asr": "asr imageinfo --source base.dmg",
    # programs the table knew before, whose risky forms the block names
    "debugfs": "debugfs -V",
    "update-ca-certificates": "update-ca-certificates --help",
    "update-ca-trust": "update-ca-trust --help",
    "dns-sd": "dns-sd -B _ssh._tcp",
    "log": "log show --last 1h",
    "spctl": "spctl --status",
    "security": "security authorizationdb read system.privilege.admin",
    "diskutil": "diskutil apfs list",
    "pkgutil": "pkgutil --pkgs",
    "dtrace": "dtrace -l",
    "mdutil": "mdutil -s /",
    "softwareupdate": "softwareupdate -l",
}

# program -> a use that changes the machine or is an attack use: it asks, or blocks
CHANGES = {
    # GTFOBins and LOOBins functions of the programs above
    "bridge-batch": ("bridge -b /etc/shadow", "block"),
    "choom-shell": ("choom -n 0 /bin/sh", "confirm"),
    "needrestart-config": ("needrestart -c /tmp/conf.pl", "confirm"),
    "ul-shadow": ("ul /etc/shadow", "block"),
    "msgcat-shadow": ("msgcat -P /etc/shadow", "block"),
    "ditto": ("ditto -V build/libhelper.dylib /Applications/Tool.app/Contents/Frameworks/libhelper.dylib", "confirm"),
    "bridge": ("bridge link set dev eth0 state 0", "confirm"),
    "hardlink": ("hardlink ~/photos", "confirm"),
    "gdbus": (
        "gdbus call --system --dest org.freedesktop.systemd1 --object-path /org/freedesktop/systemd1 "
        "--method org.freedesktop.systemd1.Manager.StartUnit web.service replace",
        "confirm",
    ),
    "pkcon": ("pkcon install htop", "confirm"),
    "kernel-install": ("kernel-install remove 6.1.0", "confirm"),
    "systemd-sysext": ("systemd-sysext merge", "confirm"),
    "xrdb": ("xrdb -load ~/.Xresources", "confirm"),
    "gpgconf": ("gpgconf --kill gpg-agent", "confirm"),
    "pydoc": ("pydoc -p 8080", "confirm"),
    "jmap": ("jmap -dump:format=b,file=heap.hprof 4242", "confirm"),
    "jcmd": ("jcmd 4242 GC.heap_dump /tmp/heap.hprof", "confirm"),
    "zramctl": ("zramctl --find --size 2G", "confirm"),
    "xhost": ("xhost +", "block"),
    "xhost+host": ("xhost +10.0.0.5", "confirm"),
    "xauth": ("xauth extract - :0", "confirm"),
    "capsh": ("capsh --gid=0 --uid=0 --", "confirm"),
    "debugfs": ("debugfs -w /dev/sdb1", "confirm"),
    "faillock": ("faillock --user ann --reset", "confirm"),
    "pam_tally2": ("pam_tally2 --user ann --reset", "confirm"),
    "apt-key": ("apt-key add vendor.gpg", "confirm"),
    "update-ca-certificates": ("update-ca-certificates", "confirm"),
    "update-ca-trust": ("update-ca-trust", "confirm"),
    "systemd-tmpfiles": ("systemd-tmpfiles --remove", "confirm"),
    "systemd-creds": ("systemd-creds decrypt db.cred", "confirm"),
    "coredumpctl": ("coredumpctl dump -o core.img sshd", "confirm"),
    "blockdev": ("blockdev --setrw /dev/sda", "confirm"),
    "dns-sd": ("dns-sd -R share _smb._tcp local 445", "confirm"),
    "firmwarepasswd": ("firmwarepasswd -delete", "block"),
    "firmwarepasswd-set": ("firmwarepasswd -setpasswd", "confirm"),
    "bless": ("bless --mount /Volumes/Other --setBoot", "confirm"),
    "klist": ("klist -k /etc/krb5.keytab", "confirm"),
    "klist-purge": ("klist purge", "confirm"),
    "asr": ("asr restore --source a.dmg --target /Volumes/D --erase", "confirm"),
    "log": ('log config --mode "level:off"', "confirm"),
    "spctl": ("spctl developer-mode enable-terminal", "confirm"),
    "security": ("security authorizationdb write system.privilege.admin allow", "block"),
    "security-export": ("security export -k login.keychain -t identities -f pkcs12 -P x -o k.p12", "block"),
    "diskutil": ("diskutil apfs deleteVolume disk1s2", "block"),
    "pkgutil": ("pkgutil --forget com.example.agent", "confirm"),
    "dtrace": ("dtrace -w -n 'BEGIN { system(\"id\") }'", "confirm"),
    "mdutil": ("mdutil -a -i off", "confirm"),
    "softwareupdate": ("softwareupdate -ia", "confirm"),
    "grub-mkconfig": ("grub-mkconfig -o /boot/grub/grub.cfg", "confirm"),
    "apt-mark": ("apt-mark hold linux-image-generic", "confirm"),
    "dpkg-deb": ("dpkg-deb -x pkg.deb /", "confirm"),
    "networkctl": ("networkctl down eth0", "confirm"),
    "coredumpctl-debug": ("coredumpctl debug", "confirm"),
    "machinectl": ("machinectl shell root@web", "confirm"),
    "udevadm": ("udevadm trigger", "confirm"),
    "dkms": ("dkms install wl/6.30", "confirm"),
    "sbctl": ("sbctl enroll-keys", "confirm"),
    "netplan": ("netplan apply", "confirm"),
    "btrfs": ("btrfs subvolume delete /srv/snap", "confirm"),
    "xfs_repair": ("xfs_repair /dev/sdb1", "confirm"),
    "numactl": ("numactl --cpunodebind=0 ./bench", "confirm"),
    "needrestart": ("needrestart -r a", "confirm"),
    "sshd": ("sshd -D", "confirm"),
    "exportfs": ("exportfs -ra", "confirm"),
    "partx": ("partx -a /dev/sdb", "confirm"),
    "pwck": ("pwck", "confirm"),
    "prlimit": ("prlimit --pid 4242 --nofile=10", "confirm"),
    "choom": ("choom -n 1000 -p 4242", "confirm"),
    "rtcwake": ("rtcwake -m mem -s 60", "confirm"),
    "sntp": ("sntp -sS time.apple.com", "confirm"),
    "trust": ("trust anchor corp-root.crt", "confirm"),
    "dseditgroup": ("dseditgroup -o edit -a eve -t user admin", "block"),
}

# root only to read: `sudo` plus a listing verb passes
ROOT_READS = [
    "sudo zpool status",
    "sudo zfs list",
    "sudo mdadm --detail /dev/md0",
    "sudo cryptsetup status root",
    "sudo lvs",
    "sudo pvdisplay",
    "sudo lvm vgs",
    "sudo dumpe2fs -h /dev/sdb1",
    "sudo xfs_info /srv",
    "sudo smbstatus",
    "sudo virsh list --all",
    "sudo sestatus",
    "sudo aa-status",
    "sudo mokutil --sb-state",
    "sudo sshd -t",
    "sudo udevadm info /dev/sda",
    "sudo dkms status",
    "sudo modinfo e1000e",
    "sudo pwck -r",
    "sudo chage -l ann",
    "sudo last",
    "sudo dpkg -l",
    "sudo sysctl -a",
    "sudo crontab -l",
    "sudo praudit /var/audit/current",
    "dseditgroup -o read admin",
    "dseditgroup -o checkmember -m ann admin",
]
# and the same programs changing something still ask
ROOT_CHANGES = [
    "sudo zpool destroy tank",
    "sudo zfs destroy tank/home",
    "sudo mdadm --stop /dev/md0",
    "sudo cryptsetup luksDump /dev/sda2",
    "sudo crontab -e",
    "sudo sysctl -w net.ipv4.ip_forward=1",
    "sudo chage -M 99999 ann",
    "sudo dpkg -i pkg.deb",
    "sudo pwck",
]


def _block_programs() -> set[str]:
    text = resources.files("resources").joinpath("programs.toml").read_text(encoding="utf-8")
    assert HEADER in text, "the block of macOS and Linux commands is missing"
    data = tomllib.loads(text[text.index(HEADER) :])
    names: set[str] = set()
    for group in data.get("groups", {}).values():
        names.update(group["programs"])
    names.update(data.get("program", {}))
    for entry in (*data.get("no_change", ()), *data.get("function", ())):
        p = entry["program"]
        names.update((p,) if isinstance(p, str) else p)
    return names


def test_every_program_of_the_block_has_a_read_only_use() -> None:
    assert _block_programs() - set(READS) == set()


@pytest.mark.parametrize("program", sorted(READS))
def test_read_only_use_passes(program: str) -> None:
    got = shell(READS[program])
    assert got.decision.value == "allow", (READS[program], got.rules)


@pytest.mark.parametrize("key", sorted(CHANGES))
def test_changing_or_risky_use_asks_or_blocks(key: str) -> None:
    command, least = CHANGES[key]
    got = shell(command)
    want = ("block",) if least == "block" else ("confirm", "block")
    assert got.decision.value in want, (command, got.decision.value, got.rules)


@pytest.mark.parametrize("command", ROOT_READS)
def test_root_only_reads_pass(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "allow", (command, got.rules)


@pytest.mark.parametrize("command", ROOT_CHANGES)
def test_root_changes_still_ask(command: str) -> None:
    got = shell(command)
    assert got.decision.value in ("confirm", "block"), (command, got.rules)
