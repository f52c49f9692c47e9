"""Programs of the block "programs from the tldr pages, second pass: Linux, common l-z" of resources/programs.toml
(Linux status and administration tools, package and image tools of other distributions, file and package
builders, remote-desktop viewers, desktop session controls, screen and sound recorders, Nix's older commands,
Proxmox templates, module and profile switches, a Node version manager): every program named there has an
ordinary use that passes, judged by what its group says it does, and every use its [[function]] entries name
(changing the boot, the network, disks or power; trusting keys; printing secrets; sending mail; deleting old
kernels and store paths; installing) still asks or blocks, with a near miss of the same program beside it."""

from __future__ import annotations

import pytest
from table_sections import SectionChecks, shell

from gate.model import Decision

BLOCK = "# ---- programs from the tldr pages, second pass: Linux, common l-z ----"

# an ordinary use by what the group says its programs do
_USE = {
    "tldrB_print": "{p} --help",
    "tldrB_read": "{p} --help",
    "tldrB_files": "{p} --help",
    "tldrB_fetch": "{p} --help",
    "tldrB_remote_desktop": "{p} --help",
    "tldrB_desktop": "{p} --help",
    "tldrB_capture": "{p} captures/session.png",
    "tldrB_nix": "{p} --help",
    "tldrB_vm": "{p} -m 2G -hda images/disk.qcow2",
    "tldrB_hypervisor": "{p} help",
    "tldrB_module_switches": "{p} --help",
    "tldrB_versions": "{p} ls",
}


class TestTldrLinuxSecondSection(SectionChecks):
    MARKER = BLOCK
    USE = _USE
    AT_LEAST = 100


@pytest.mark.parametrize("command", [
    # ordinary uses beside the risky verbs and flags of the same programs
    "efivar --list",
    "envycontrol --query",
    "switcherooctl list",
    "ubuntu-drivers list",
    "mhwd -l",
    "pro status",
    "grub-editenv list",
    "grubby --default-kernel",
    "archlinux-java status",
    "e2label /dev/sda1",
    "xfs_admin -l /dev/sdc1",
    "swaplabel /dev/sda3",
    "brctl show",
    "systemd-dissect vm.raw",
    "postfix check",
    "alien --to-rpm tool_1.0_amd64.deb",
    "guake --show",
    "kwallet-query -l kdewallet",
    "rbw list",
    "pulseaudio --check",
    "udiskie --tray",
    "nix-collect-garbage --dry-run",
    "systemd-resolve example.org",
    "rpmkeys --checksig tool-1.2.rpm",
    "ostree admin status",
    "ostree log fedora/41/x86_64/silverblue",
    "libinput list-devices",
    "mmcli -L",
    "mmcli -m 0",
    "uci show network",
    "rpi-eeprom-update",
    "updatectl list",
    "mr status",
    "mr update",
    "tod task list",
    "b4 am 20260101120000.1234-1-dev@example.org",
    "b4 send --dry-run",
    "kpackagetool6 --list",
    "trace-cmd report trace.dat",
    "trace-cmd list -e",
    "eclean --pretend distfiles",
    "eclean-kernel --list-kernels",
    "emaint --check all",
    "rbt status",
    "rbt diff",
    "pveam available",
    "pve-firewall status",
    "n ls",
    "n ls-remote",
    "vkpurge list",
    "lchage --list builder",
    "lpoptions -p office -l",
    "lid -g wheel",
    "module avail",
    "module load gcc/13",
    "smbcacls //files.example.net/share report.xlsx",
    "unopkg list",
    "putty -ssh ops@db01.example.net",
    "xfreerdp /v:win01.example.net /u:ops /size:1920x1080",
    "rdesktop -u ops win01.example.net",
    "qutebrowser https://docs.example.org",
    "mhwd-kernel -li",
    "mhwd-gpu --status",
    "systemd-repart /dev/sdb",
    "systemd-cryptenroll /dev/nvme0n1p3",
    "systemd-sysusers --cat-config",
    "sq inspect release.pgp",
    "tpm2-pcrread sha256:0,7",
    "fscrypt status ~/private",
    "yum-config-manager --dump",
    "nixos-container list",
    "nixos-container status webapp",
    "sq verify --signer-file dev.pgp --signature-file tool.sig tool.tar.gz",
])
def test_near_miss_passes(command: str) -> None:
    got = shell(command)
    assert got.decision == Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", [
    # a recorder, a linker, a package builder or a mirror-list writer told to write over a start-up or system
    # file is judged like a redirect there
    "gpu-screen-recorder -w screen -o ~/.profile",
    "link build/tool /etc/cron.hourly/cleanup",
    "reflector --latest 10 --save /etc/profile.d/mirror.sh",
])
def test_writing_a_system_file_asks(command: str) -> None:
    got = shell(command)
    assert got.decision != Decision.ALLOW, (command, got.rules)
