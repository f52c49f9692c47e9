"""A described program asked only to show passes: its usage, a reading sub-command, or a no-change mode the table
marks to hold against what the program's verbs are judged to do (gate/nochange.py 8., gate/rules/shell_reading.py,
the `reading uses of administration programs` section of resources/programs.toml). The same programs' changing
verbs, and reads of secrets, still ask or block.
"""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.model import Assessment, action_from_dict
from gate.nochange import READING_USES, RULES, load, load_reading_uses
from tests.gate.table_sections import marked_once, section

GATE = SafetyGate(default_policy())
MARKER = "# ---- reading uses of administration programs ----"


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


# usage prints: Windows' /?, `help` as a flag's value or after sub-command words, a listing flag alone, and
# `--help` first on a program whose verbs block
USAGE = [
    "taskkill /?", "schtasks /create /?", "systemctl kill --signal help", "systemctl list-units --type help",
    "aws ec2 run-instances help", "gcloud compute instances describe help", "killall --list", "sgdisk --list-types",
    "pkill --help", "sfdisk --help", "parted --help", "aa-teardown --help", "wipefs --version", "vgremove --help",
    "cryptsetup --help", "vssadmin delete shadows /?", "terraform destroy -help", "terraform apply -help",
    "aws s3 rm help", "aws ec2 terminate-instances help",
]
# reading sub-commands of programs whose table entries judge their other verbs
READING = [
    "cloudflared tunnel list", "cloudflared tunnel info web", "zrok status", "frpc verify --config frpc.toml",
    "frps verify --config frps.toml", "az tag list --resource-id /subscriptions/1234", "ngrok config check",
    "picotool otp list", "picotool info", "kmutil showloaded", "kmutil check", "tlmgr repository list",
    "cloudflared completion bash", "frpc completion zsh", "zrok overview", "ngrok diagnose",
]
# no-change modes marked for described programs
MODES = [
    "kubectl annotate pod web --list", "kubectl label deployment web --list", "oc set env deployment/web --list",
    "kubectl apply view-last-applied deployment/web", "kubectl rollout history deployment/web",
    "forfiles /p C:\\logs /m *.log /d -30", "forfiles /s /m *.tmp", "yaourt -Ss htop", "trizen -Si htop",
    "pacman -Rp htop", "paru -Qi bash", "wipefs --no-act --all /dev/sdb", "sfdisk --no-act /dev/sdb",
    "sgdisk --pretend --zap-all /dev/sdb", "lvremove --test vg0/scratch", "zfs destroy -nv tank/data@old",
    "bitsadmin /list /allusers", "bitsadmin /info job1 /verbose", "Repair-Volume -DriveLetter D -Scan",
    "Optimize-Volume -DriveLetter D -Analyze", "snap refresh --list",
    # choosing the subscription, project or region the next commands use
    "az account set --subscription dev-subscription", "gcloud config set compute/zone europe-west1-b",
    "aws configure set region eu-west-1", "aws eks update-kubeconfig --name staging --region eu-west-1",
    "kops export kubecfg staging.k8s.example.org",
    # dry runs, skeletons and status modes the programs document
    "sudo ufw --dry-run disable", "testdisk /list /dev/sdb", "wondershaper -s -a eth0", "pacman -Rh",
    "aws ec2 run-instances --generate-cli-skeleton", "b4 send --output-dir outgoing",
    "pulumi destroy --preview-only --stack dev", "choco uninstall git --whatif",
    # servers' configuration checks and queue listings (programs the table does not describe)
    "named-checkconf /etc/bind/named.conf", "unbound-checkconf", "kea-dhcp6 -t kea-dhcp6.conf", "mailq",
    "postqueue -j", "exim4 -bpc", "dovecot -n", "varnishadm vcl.list", "iisreset /status", "corosync-quorumtool -s",
    "pdnsutil list-all-zones", "tpm2_pcrread sha256:0,1,7", "passwd -S alice", "visudo -c", "pacman -Qdtq",
]


@pytest.mark.parametrize("command", USAGE + READING + MODES)
def test_reading_uses_pass(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "allow", (command, got.rules)


# the same programs doing what their verbs do, a usage word that is another thing's name, and secrets
STILL_ASK = [
    "cloudflared tunnel run web", "cloudflared tunnel delete web", "zrok share public localhost:3000",
    "frpc -c frpc.toml", "frps -c frps.toml", "az tag create --name env", "az keyvault secret show --vault-name v "
    "--name db", "kubectl get secret db -o yaml", "aws secretsmanager get-secret-value --secret-id prod/db",
    "kubectl annotate pod web owner=me", "kubectl annotate pod web owner=me --list", "kubectl apply -f web.yaml",
    "killall firefox", "pkill --list-name firefox", "systemctl kill nginx", "taskkill /F /IM notepad.exe",
    "forfiles /p C:\\logs /m *.log /c \"cmd /c del @file\"", "picotool load firmware.uf2",
    "kmutil load -p x.kext", "tlmgr repository add https://mirror.example.org/tlnet extra", "pacman -Rs htop",
    "yaourt -Syu", "aws s3 rm s3://bucket/help", "gcloud compute instances delete help", "kubectl delete pod help",
    "userdel status", "rm logs", "launchctl load list",
    "aws logs create-export-task --log-group-name app --destination bucket", "gotty top",
    "octo create-release --project web --packageversion version", "go get -u example.com/pkg",
    "hledger-web --serve-api --host 0.0.0.0 --allow view", "lt --port 8000 --print-requests",
    "bitsadmin /transfer job /download https://example.org/a.exe C:\\a.exe",
    "frpc completion bash >> ~/.bashrc", "source <(frpc completion bash)",
    "Repair-Volume -DriveLetter D -OfflineScanAndFix", "Optimize-Volume -DriveLetter D -Defrag",
    "gcloud config set api_endpoint_overrides/compute https://api.example.net/",
    "aws configure set aws_secret_access_key abc123", "aws eks update-kubeconfig --name c --kubeconfig /etc/kube.conf",
    "az role assignment create --assignee bob@example.com --role Owner", "testdisk /dev/sdb",
    "wondershaper -c -a eth0", "b4 send", "kops delete cluster staging.k8s.example.org --yes",
    "aws ec2 run-instances --cli-input-json file://run.json --generate-cli-skeleton", "terraform destroy",
    "choco uninstall git -y", "kea-dhcp4 -c kea-dhcp4.conf", "pdnsutil delete-zone example.com", "postqueue -f",
    "exim -Mrm 1abcde-000001-AB", "varnishadm vcl.load boot /etc/varnish/new.vcl", "iisreset",
    "named-checkzone -o out.db example.com db.example", "corosync-cfgtool -s -H", "iisreset /status /restart",
    "postqueue -p -f", "passwd -l alice", "visudo", "kubectl delete pod web --as help",
    "systemctl stop nginx --signal help", "apt-get install nginx --target-release help",
    "kubectl apply view-last-applied deployment/web --token=abc123",
    "gcloud config set project p --impersonate-service-account=admin@p.iam.gserviceaccount.com",
    "kops export kubecfg staging.k8s.example.org --admin", "wuauclt /updatenow", "usoclient StartInstall",
    "usoclient RestartDevice",
]
STILL_BLOCK = [
    "sfdisk /dev/sda < layout.sfdisk", "sfdisk /dev/sda --help", "wipefs --all /dev/sdb", "aa-teardown",
    "sgdisk --zap-all /dev/sdb", "sgdisk -p --zap-all /dev/sdb", "zfs destroy -r tank/old", "lvremove vg0/scratch",
    "patator ftp_login --help", "vssadmin delete shadows /all /quiet /?", "sudo ufw disable",
    "sfdisk -help", "pulumi destroy --yes", "sfdisk -N 1 /dev/sda < part1.sfdisk",
    "kubectl apply view-last-applied deployment/web --as=system:admin",
]


@pytest.mark.parametrize("command", STILL_ASK)
def test_changing_verbs_and_secrets_still_ask(command: str) -> None:
    got = shell(command)
    assert got.decision.value != "allow", (command, got.rules)


@pytest.mark.parametrize("command", STILL_BLOCK)
def test_what_the_verbs_do_still_blocks(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "block", (command, got.rules)


def test_root_and_secret_reads_stay_with_a_reading_verb() -> None:
    assert "confirm.shell.privilege-escalation" in shell("sudo cloudflared tunnel run web").rules
    assert shell("az keyvault secret list --vault-name v").decision.value == "confirm"


def test_the_section_is_marked_once_and_its_modes_are_loaded() -> None:
    assert marked_once(MARKER)
    own = section(MARKER)
    modes = load(own)
    assert any(m.described for m in modes)
    assert {m.example for m in modes} <= {r.example for r in RULES}
    assert load_reading_uses(own) == READING_USES


def test_reading_uses_table_errors_name_the_key() -> None:
    with pytest.raises(ValueError, match="unknown keys"):
        load_reading_uses({"reading_uses": {"bogus": []}})
    with pytest.raises(ValueError, match="both read and change"):
        load_reading_uses({"reading_uses": {"changing": ["list"]}})


def test_other_no_change_modes_do_not_override_a_described_program() -> None:
    # (hardhat's `node` mode drops the unknown-program ask only: serving the chain to the network still asks)
    assert shell("hardhat node --hostname 0.0.0.0 --port 8545").decision.value == "confirm"
