"""Programs of the block "programs from the tldr pages" of resources/programs.toml (infrastructure and cluster
tools, message-broker and time-series clients, local web servers, smart-contract and browser-extension toolchains,
plain-text records, screen and camera capture, package managers of other ecosystems, CVS and Dolt, compositor and
monitor tools, a time client, configuration-management tools, language shells and container runners): every
program named there has an ordinary use that passes, judged by what its group says it does, and every use its
[[function]] entries name (applying, destroying, restoring, producing messages, serving to the network, running
code it is handed, signing through a store, installing) still asks or blocks, with a near miss of the same program
beside it."""

from __future__ import annotations

import pytest
from table_sections import SectionChecks, shell

from gate.model import Decision

BLOCK = "# ---- programs from the tldr pages ----"

# an ordinary use by what the group says its programs do
_USE = {
    "tldrpages_read": "{p} --help",
    "tldrpages_files": "{p} notes/report.txt",
    "tldrpages_build": "{p} --help",
    "tldrpages_deploy": "{p} --help",
    "tldrpages_messaging": "{p} --help",
    "tldrpages_serve": "{p} --help",
    "tldrpages_capture": "{p} shots/screen.png",
    "tldrpages_packages": "{p} --help",
    "tldrpages_vcs": "{p} status",
    "tldrpages_desktop": "{p} --help",
    "tldrpages_clock": "{p} pool.ntp.org",
    "tldrpages_ops": "{p} --help",
    "tldrpages_runtimes": "{p} --help",
    "tldrpages_shells": "{p} scripts/build.sh",
    "tldrpages_fetch": "{p} --help",
    "tldrpages_snapshots": "{p} list",
}


class TestTldrPagesSection(SectionChecks):
    MARKER = BLOCK
    USE = _USE
    AT_LEAST = 50


@pytest.mark.parametrize("command", [
    # ordinary uses beside the risky verbs and flags of the same programs
    "promtool check config prometheus.yml",
    "promtool test rules tests/alerts_test.yml",
    "mysqlbinlog binlog.000042",
    "todo.sh list",
    "hardhat compile",
    "hardhat test",
    "hardhat run scripts/deploy.js --network localhost",
    "hardhat node",
    "web-ext lint",
    "web-ext build",
    "web-ext run --source-dir ./extension",
    "pueue status",
    "pueue log 3",
    "terragrunt plan",
    "terragrunt output",
    "helmfile diff",
    "helmfile template",
    "talosctl get members --nodes 10.0.0.12",
    "talosctl dmesg --nodes 10.0.0.12",
    "argocd app list",
    "argocd app diff shop-frontend",
    "flux get all",
    "flux check --pre",
    "kops get clusters",
    "kops validate cluster",
    "kubeadm version",
    "kubeadm config print init-defaults",
    "dbt compile",
    "dbt ls --select orders",
    "dbt debug",
    "berks install",
    "kcat -C -t orders -b kafka.example.net:9092 -o beginning -e",
    "kcat -L -b kafka.example.net:9092",
    "influx query 'from(bucket:\"metrics\") |> range(start:-1h)'",
    "influx bucket list",
    "waitress-serve --listen=127.0.0.1:8080 shop.wsgi:application",
    "grim shot.png",
    "maim --select area.png",
    "wf-recorder -f recordings/demo.mp4",
    "scanimage --format=png --output-file scans/page1.png",
    "nala search htop",
    "nala history",
    "tlmgr info booktabs",
    "tlmgr update --list",
    "pamac search firefox",
    "pkcon search gimp",
    "opkg list-installed",
    "swupd bundle-list",
    "grafana-cli plugins ls",
    "gnome-extensions list",
    "cvs diff src/parser.c",
    "cvs update",
    "cvs checkout shop",
    "dolt sql -q 'select count(*) from orders'",
    "dolt commit -m 'add orders'",
    "hyprctl workspaces",
    "hyprctl reload",
    "swaymsg -t get_tree",
    "swaymsg workspace 2",
    "cliphist store",
    "ddcutil --display 1 setvcp 10 50",
    "ddcutil detect",
    "sntp -d pool.ntp.org",
    "ansible-galaxy role init web",
    "ansible-galaxy collection list",
    "ansible-inventory --list",
    "apt-mark showmanual",
    "apt-key list",
    "apt-clone clone ./backup",
    "aws-vault list",
    "kubie ctx dev",
    "nu scripts/build.nu",
    "pydoc json",
    "csvpy data.csv",
    "distrobox create --name dev --image fedora:40",
    "distrobox enter dev",
    "toolbox enter",
    "pg_ctl -D ./pgdata start",
    "pg_ctl -D ./pgdata status",
    "supervisord -c supervisord.conf",
    "megatools-dl --path downloads https://mega.nz/file/abc#key",
    "snapper --config root list",
    "snapper --config home create --description 'before upgrade'",
    "rabbitmq-queues quorum_status orders",
    "jarsigner -verify dist/app.jar",
])
def test_near_miss_passes(command: str) -> None:
    got = shell(command)
    assert got.decision == Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", [
    # a capture tool told to write its file over a start-up or system file is judged like a redirect there
    "grim -g '0,0 640x480' /etc/cron.d/backup",
    "wf-recorder -f ~/.bashrc",
    "rpicam-still -o /usr/local/bin/tool",
])
def test_capture_over_a_system_file_asks(command: str) -> None:
    got = shell(command)
    assert got.decision != Decision.ALLOW, (command, got.rules)
