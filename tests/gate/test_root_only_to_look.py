"""Root only to look (gate/rules/shell_privilege.py `reads_as_root`): a program the table says only prints or
reads, run through one plain sudo or doas, with no flag that sets or writes and nothing secret given, passes;
so does a systemd tool's reading verb (its pager is secure under sudo). Every other use of root still asks:
options or variables on sudo, a program by path, pagers and screens with a shell escape, setting verbs and
switches, writes, captures, and whatever the program would be asked about without sudo."""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, Decision, action_from_dict

GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


# monitors, hardware and firewall reports, service listings: what the program shows is all that happens
LOOKS = [
    "sudo htop",
    "sudo btop --utf-force",
    "sudo glances",
    "sudo nethogs wlan0",
    "sudo bandwhich",
    "sudo mactop --interval 500",
    "sudo asitop --interval 3",
    "doas htop",
    "sudo profiles -P",
    "sudo profiles show -type configuration",
    "sudo profiles -L -v | grep -i identifier",
    "sudo nvidia-smi",
    "sudo sensors",
    "sudo ps -eo pid,comm",
    "sudo lsblk -f",
    "sudo wc -l /var/log/syslog",
    "sudo systemctl list-units --type=socket --state=listening",
    "sudo systemctl list-timers --all",
    "sudo systemctl status sshd",
    "sudo journalctl -u cron --since yesterday",
    "sudo journalctl -k -b -1",
    "sudo loginctl list-sessions",
    "sudo busctl list",
    "sudo /usr/bin/htop",
    "sudo nettop -P -L 1",
    "sudo kextstat",
    "sudo log show --last 1h",
]


@pytest.mark.parametrize("command", LOOKS)
def test_root_only_to_look_passes(command: str) -> None:
    got = shell(command)
    assert got.decision is Decision.ALLOW, (command, got.rules)


# root that is more than a look: each still asks (or blocks, as it did without this rule)
STILL_ASKS = [
    # sudo given options or variables: another user, the caller's environment, a shell
    "sudo -E htop", "sudo -u postgres htop", "sudo LD_PRELOAD=/tmp/x.so htop", "sudo -s", "sudo -i", "sudo su",
    "sudo bash -c 'id'", "sudo env", "sudo id", "sudo whoami", "doas true", "sudo echo ok",
    # the program by path: a file of that name elsewhere is not the program the table describes
    "sudo ./htop", "sudo /tmp/htop", "sudo ~/bin/mactop",
    # pagers and screens that hand out a shell, or read a start-up file naming a program
    "sudo less /var/log/auth.log", "sudo more /var/log/syslog", "sudo man ls", "sudo top", "sudo ncdu /",
    "sudo bat /var/log/syslog", "sudo dmesg -H",
    # setting verbs and switches of programs the table calls printers
    "sudo date -s '2021-01-01 00:00'", "sudo date 0101000021", "sudo hostname build01",
    "sudo hostnamectl set-hostname build01", "sudo timedatectl set-ntp false", "sudo dmesg -C",
    "sudo nmcli connection delete office", "sudo rfkill block all",
    "sudo loginctl terminate-user dana", "sudo busctl call org.freedesktop.login1 /org/freedesktop/login1 "
    "org.freedesktop.login1.Manager Reboot b false", "sudo wall 'going down'",
    # writes and reads of what only root may read
    "sudo powermetrics -o /etc/x", "sudo htop > /etc/motd", "sudo strings /dev/nvme0n1",
    "sudo nvidia-smi -pl 150", "sudo nvidia-smi --persistence-mode=1", "sudo sensors -s", "sudo profiles -C",
    "sudo glances --export csv --export-csv-file /etc/cron.d/stats", "sudo resolvectl dns eth0 198.51.100.53",
    "sudo sysdiagnose -f /tmp", "sudo rg -i token /home", "sudo nl -v /home/bob/notes.txt",
    "sudo tac /var/lib/docker/containers/c1/config.v2.json", "sudo nl /Users/bob/notes",
    "sudo getent shadow", "sudo strings /proc/812/environ", "sudo profiles show -output /etc/x.plist",
    "sudo journalctl --vacuum-time=1d", "sudo systemctl restart nginx", "sudo systemctl list-units | sh",
    # captures and discovery
    "sudo tcpdump -i eth0", "sudo profiles show -type enrollment",
]


@pytest.mark.parametrize("command", STILL_ASKS)
def test_more_than_a_look_still_asks(command: str) -> None:
    got = shell(command)
    assert got.decision in (Decision.CONFIRM, Decision.BLOCK), (command, got.rules)


@pytest.mark.parametrize("command", ["sudo cat /etc/shadow", "sudo profiles remove -all", "sudo profiles -D"])
def test_what_blocked_without_the_rule_still_blocks(command: str) -> None:
    assert shell(command).decision is Decision.BLOCK


def test_the_dropped_ask_is_only_the_root_one() -> None:
    """A finding of the program itself stays: the look is judged as the program alone."""
    got = shell("sudo tcpdump -D -i eth0 -w cap.pcap")
    assert "confirm.shell.privilege-escalation" in got.rules
    assert shell("sudo profiles status -type enrollment").decision is Decision.CONFIRM
    assert shell("profiles status -type enrollment").decision is Decision.ALLOW  # (without root it only fails)


# Kubernetes policy and configuration tools (the "devops tools, local effects" block of programs.toml)
LOCAL_DEVOPS = [
    "kyverno apply ./policies --resource manifests/app.yaml",
    "kyverno test ./tests/policies",
    "kyverno apply require-labels.yaml --cluster --namespace staging",
    "kcl run config/main.k",
    "timoni build web ./modules/web --values values.cue",
    "kpt fn render packages/web",
]


@pytest.mark.parametrize("command", LOCAL_DEVOPS)
def test_local_devops_uses_pass(command: str) -> None:
    got = shell(command)
    assert got.decision is Decision.ALLOW, (command, got.rules)


REMOTE_DEVOPS = [
    "kyverno oci push -i registry.example.com/team/policies:2 --policy ./policies",
    "kyverno apply p.yaml --resource r.yaml -o /etc/cron.d/job",
    "timoni apply web oci://ghcr.io/acme/modules/web --namespace prod",
    "timoni delete web -n prod",
    "kpt live apply packages/web",
    "kpt live destroy packages/web",
    "kpt fn eval packages/web --exec ./label.sh",
    "timoni mod push ./modules/web oci://registry.example.com/web --version 1.0.0",
]


@pytest.mark.parametrize("command", REMOTE_DEVOPS)
def test_devops_uses_that_reach_a_cluster_or_registry_ask(command: str) -> None:
    got = shell(command)
    assert got.decision in (Decision.CONFIRM, Decision.BLOCK), (command, got.rules)


@pytest.mark.parametrize("command", ["sudo bpftrace -l 'tracepoint:sched:*'", "sudo bpftrace -l",
                                     "sudo bpftrace --list 'kprobe:vfs_*'"])
def test_listing_the_kernel_probes_passes(command: str) -> None:
    got = shell(command)
    assert got.decision is Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", ["sudo bpftrace -e 'kprobe:do_nanosleep { printf(\"%d\\n\", pid); }'",
                                     "sudo bpftrace -l -e 'kprobe:vfs_read {}'", "sudo bpftrace probes.bt",
                                     "sudo bpftrace -l 'kprobe:*' -c ./run.sh", "sudo bpftrace -l -o /etc/x"])
def test_tracing_programs_still_ask(command: str) -> None:
    assert shell(command).decision in (Decision.CONFIRM, Decision.BLOCK), command
