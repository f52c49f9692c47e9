"""Everyday commands of less covered ecosystems pass; the risky uses of the same programs still ask or block.

Covers the programs described after `# ---- everyday programs, described ----` in resources/programs.toml
(embedded toolchains' binutils, office and media readers and converters, device and cluster listings), the
`plain` no-change entries of gate/nochange.py (`adb shell getprop ...`), and the root reads and system upgrades
of gate/rules/shell_vocab.py (`_root_info`: `sudo ethtool eth0`, `sudo launchctl print system`).
"""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict
from gate.nochange import load
from tests.gate.known_packages import passes_only_when_known_packages_pass

GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


ALLOWED = [
    # embedded: what a firmware image holds, the boards and buses there are
    "avr-size --format=avr --mcu=atmega328p build/blink.elf", "arm-none-eabi-nm -S --size-sort out/zephyr.elf",
    "arm-none-eabi-objdump -h out/zephyr.elf", "riscv64-unknown-elf-readelf -S kernel.elf", "gpiodetect",
    "gpioinfo gpiochip0", "i2cdetect -l", "dfu-util --list", "usbipd list",
    "usb-devices", "probe-rs list", "pyocd list", "nrfutil device list", "mbed-tools detect", "edac-util -s",
    "ipmitool chassis status", "racadm getsysinfo", "mstflint -d 04:00.0 q", "intel_gpu_top -l",
    "nix-store --gc --print-dead", "home-manager generations", "mint list",
    # mobile: devices and device properties
    "adb shell getprop ro.product.model", "adb shell pm list packages -3", "adb shell settings get secure android_id",
    "adb shell ls /sdcard/Pictures", "ios-deploy -c", "bundletool validate --bundle=build/release.aab",
    # office and media: a document's text, a container's tracks, a converted copy
    "antiword letters/minutes.doc", "catdoc -w notes.doc", "xls2csv budget.xls", "mkvinfo lecture.mkv",
    "unoconv -f pdf minutes.odt", "ssconvert budget.xls budget.csv", "xlsx2csv accounts.xlsx accounts.csv",
    "dcraw -T holiday.nef", "pdfcpu info manual.pdf", "abiword --to=pdf minutes.doc",
    "textract -o minutes.txt minutes.docx", "tiled --export-map level1.tmx level1.json",
    "aseprite -b hero.ase --save-as hero.png",
    # workflow runners and game engines' command lines, run on the project
    "snakemake --cores 4 results/summary.csv", "love .", "butler status studio/puzzle:linux",
    # DevOps and data platforms: status and listings
    "powerprofilesctl list", "datadog-agent configcheck", "otelcol-contrib components", "sentry-cli releases list",
    "nats consumer ls ORDERS", "memcached-tool 10.0.0.7:11211 display", "hdfs dfs -du -h /warehouse",
    "hdfs dfsadmin -report",
    # root to read a device or the kernel's counters, or to upgrade from the system's own repositories
    "sudo ethtool -S enp3s0", "sudo hdparm -i /dev/nvme0n1", "sudo mtr --report --report-cycles 5 debian.org",
    "sudo powermetrics --samplers cpu_power -n 2", "sudo launchctl print system", "sudo fwupdmgr get-updates",
    "sudo perf top -p 4242", "sudo kubectl describe node worker-2", "sudo find /var/log -name '*.gz' -mtime +30",
    "sudo badblocks -sv /dev/sdc",
]


@pytest.mark.parametrize("command", ALLOWED)
def test_everyday_command_passes(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "allow", (command, got.rules)


# the same programs used to change a device, a cluster or the machine, or to run what they are handed
ASKED = [
    ("adb shell settings put global stay_on_while_plugged_in 3", "confirm.shell.unknown-program"),
    ("adb shell getprop ro.serialno\\;reboot", "confirm.shell.unknown-program"),
    ("adb shell 'ls /sdcard; rm -rf /sdcard/DCIM'", "confirm.shell.unknown-program"),
    ("adb shell ls \\> /sdcard/out.txt", "confirm.shell.unknown-program"),
    ("adb shell pm uninstall --user 0 com.vendor.app", "confirm.shell.unknown-program"),
    ("dfu-util -a 0 -D firmware.bin", "confirm.shell.unknown-program"),
    ("i2cdetect -y 1", "confirm.shell.unknown-program"),
    ("powerprofilesctl set performance", "confirm.shell.unknown-program"),
    ("usbipd bind --busid 2-4", "confirm.shell.unknown-program"),
    ("memcached-tool 10.0.0.7:11211 dump", "confirm.shell.unknown-program"),
    ("hdfs dfs -rm -r -skipTrash /warehouse/tmp", "confirm.shell.unknown-program"),
    ("hdfs dfs -ls /a -put local.csv /b", "confirm.shell.unknown-program"),
    ("ios-deploy -c -b build/App.app", "confirm.shell.unknown-program"),
    ("butler push build studio/puzzle:linux", "confirm.shell.unknown-program"),
    ("aseprite -b --script tools/export.lua", "confirm.shell.unknown-program"),
    ("nix-store --gc", "confirm.shell.unknown-program"),
    ("nix-store --gc --print-dead --delete", "confirm.shell.unknown-program"),
    ("home-manager switch", "confirm.shell.unknown-program"),
    ("ipmitool chassis power off", "confirm.shell.unknown-program"),
    ("ipmitool sel clear", "confirm.shell.unknown-program"),
    ("racadm serveraction powercycle", "confirm.shell.unknown-program"),
    ("mstflint -d 04:00.0 -i fw.bin burn", "confirm.shell.unknown-program"),
    ("probe-rs download build/fw.elf --chip nRF52840_xxAA", "confirm.shell.unknown-program"),
    ("nrfutil device program --firmware app.hex", "confirm.shell.unknown-program"),
    ("intel_gpu_top -l -o /etc/cron.d/gpu", "confirm.shell.unknown-program"),
    # a password cracker from the archive, another repository, a removal
    ("zypper install hashcat", "confirm.shell.install"),
    ("zypper install --from nightly-x git", "confirm.shell.install"),
    ("zypper remove tmux", "confirm.shell.install"),
    # a converter's output is judged as any write to that path
    ("ssconvert budget.xls ~/.bashrc", "confirm.shell.persistence"),
    ("unoconv -o /etc/cron.d/report minutes.odt", "confirm.shell.persistence"),
    ("tiled --export-map level1.tmx ~/.profile", "confirm.shell.persistence"),
    ("aseprite -b hero.ase --save-as ~/.bashrc", "confirm.shell.persistence"),
    ("sudo ethtool -s enp3s0 speed 100 duplex full", "confirm.shell.privilege-escalation"),
    ("sudo hdparm -W0 /dev/sda", "confirm.shell.privilege-escalation"),
    ("sudo powermetrics -o /Library/LaunchDaemons/x.plist -n 1", "confirm.shell.privilege-escalation"),
    ("sudo badblocks -wsv /dev/sdc", "confirm.shell.privilege-escalation"),
    ("sudo perf record -g ./server", "confirm.shell.privilege-escalation"),
    ("sudo kubectl apply -f deploy.yaml", "confirm.shell.privilege-escalation"),
    ("sudo fwupdmgr install firmware.cab", "confirm.shell.privilege-escalation"),
    ("sudo launchctl bootout system/com.vendor.agent", "confirm.shell.privilege-escalation"),
    ("sudo find / -name '*.log' -exec gzip {} +", "confirm.shell.privilege-escalation"),
    ("sudo find . -fprint /etc/cron.d/list", "confirm.shell.privilege-escalation"),
    # root to change the machine's software asks: the person decides what comes onto the machine as root
    ("sudo apt-get install -y libpq-dev", "confirm.shell.privilege-escalation"),
    ("sudo pacman -Syu --noconfirm", "confirm.shell.privilege-escalation"),
    ("sudo dnf upgrade --refresh", "confirm.shell.privilege-escalation"),
]


@pytest.mark.parametrize(("command", "rule"), ASKED)
def test_risky_use_still_asks(command: str, rule: str) -> None:
    got = shell(command)
    assert got.decision.value in ("confirm", "block"), (command, got.rules)
    assert rule in got.rules, (command, got.rules)


def test_root_reads_of_secrets_still_block() -> None:
    assert shell("sudo find / -name id_rsa").decision.value != "allow"
    assert shell("sudo kubectl get secret -A -o yaml").decision.value == "block"


def test_plain_entry_refuses_shell_syntax_in_any_word() -> None:
    rules = load({"no_change": [{"program": "devsh", "verbs": ["shell getprop"], "plain": True,
                                 "why": "reads a property", "example": "devsh shell getprop x"}]})
    assert rules[0].plain is True
    assert load({"no_change": [{"program": "t", "verbs": ["ls"], "why": "w", "example": "t ls"}]})[0].plain is False
    for word in ("a;b", "a|b", "$(id)", "`id`", "'a>b'", "\\'a\\'", "a*", "a&b"):
        assert shell(f"adb shell getprop {word}").decision.value != "allow", word


@pytest.mark.parametrize("command", ["zypper install -y git gcc-c++", "zypper in tmux"])
def test_opensuse_installs_well_known_packages_from_the_distribution(command: str) -> None:
    passes_only_when_known_packages_pass(command)
