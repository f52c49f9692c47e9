"""Programs of the block "programs from the tldr pages, second pass" of resources/programs.toml (Office licences,
printers, phones on the desk, servers for the person's own use, package managers of an editor
and of languages, clients of deploy, identity and build servers, shell builtins): every program named there has an
ordinary use that passes, judged by what its group says it does, and every use its [[function]] entries name
(installing on or wiping a device, changing a remote server, running a command it is handed, printing or resetting
secrets, changing licences or printers) still asks or blocks, with a near miss of the same program beside
it."""

from __future__ import annotations

import pytest
from table_sections import SectionChecks, section, shell

from gate.model import Decision

BLOCK = "# ---- programs from the tldr pages, second pass: macOS, Windows, common a-k ----"

# an ordinary use by what the group says its programs do
_USE = {
    "tldra_shellset": "{p} --help",
    "tldra_read": "{p} --help",
    "tldra_files": "{p} notes/report.txt",
    "tldra_build": "{p} --help",
    "tldra_devices": "{p} --help",
    "tldra_packages": "{p} --help",
    "tldra_deploy": "{p} --help",
    "tldra_vcs": "{p} --help",
    "tldra_serve": "{p} --help",
    "tldra_desktop": "{p} --help",
    "tldra_system": "{p} --help",
    "tldra_fetch": "{p} --help",
    "tldra_machine": "{p} --help",
}


class TestTldrSecondSection(SectionChecks):
    MARKER = BLOCK
    USE = _USE
    AT_LEAST = 80


def test_every_function_program_has_a_near_miss() -> None:
    near = {command.split()[0] for command in NEAR_MISSES}
    for spec in section(BLOCK)["function"]:
        assert set(spec["program"]) & near, spec["program"]


# ordinary uses beside the risky verbs and flags of the same programs
NEAR_MISSES = [
    "autoload -U compinit",
    "bindkey -e",
    "disable -r repeat",
    "bind -P",
    "complete -p git",
    "complete -F _make build",
    "emulate -L zsh",
    "enable -n echo",
    "enable -a",
    "bfs src -name '*.py'",
    "bfs . -type f -size +10M",
    "androguard axml app/build/AndroidManifest.xml",
    "clamdscan ~/Downloads",
    "clamdscan --multiscan --fdpass ~/projects",
    "hledger-ui -f finance/2024.journal",
    "ci -u src/parser.c",
    "co -l src/parser.c",
    "attr -g user.comment notes/report.txt",
    "attr -s user.comment -V draft notes/report.txt",
    "argos-translate --from en --to de 'good morning'",
    "alr init --bin units",
    "alr build --release",
    "alr run",
    "alr with gnatcoll",
    "boot repl",
    "boot jar",
    "box compile",
    "box info dist/app.phar",
    "arduino --verify blink/blink.ino",
    "fmtutil --all",
    "fmtutil-user --byfmt pdflatex",
    "fdroidcl update",
    "fdroidcl search notes",
    "fdroidcl show org.example.notes",
    "idevicebackup backup ~/phone-backups",
    "idevicedate",
    "idevicename",
    "idevicepair list",
    "idevicepair validate",
    "jmtpfs -l",
    "jmtpfs ~/phone",
    "apm list --installed",
    "apm search minimap",
    "argospm list",
    "argospm search --from-lang en",
    "gacutil -l",
    "bob list",
    "bob ls-remote",
    "fluxctl list-workloads --namespace shop",
    "fluxctl list-images --workload shop:deployment/frontend",
    "kcadm.sh get realms",
    "kcadm.sh get users -r staff",
    "octo pack --id Shop --version 2.4.0",
    "octo list-environments",
    "gcpdiag lint --project=example-prod",
    "birdc show protocols",
    "birdc show route",
    "birdc show status",
    "doppler projects",
    "doppler me",
    "dotenvx ls",
    "gita ll",
    "gita st",
    "gita fetch",
    "gita pull",
    "gita add ~/src/shop",
    "arc list",
    "arc lint",
    "arc unit",
    "arc patch D1234",
    "hledger-web --serve",
    "hledger-web --serve --host 127.0.0.1 --port 5000",
    "aconnect -l",
    "aconnect 20:0 128:0",
    "i3-nagbar -t warning -m 'Battery low'",
    "kcmshell6 kcm_mouse",
    "kcmshell6 --list",
    "ospp.vbs /dstatus",
    "cupsaccept --help",
    "cupsctl",
    "mole analyze",
    "mole clean --dry-run",
    "mole status",
    "float ratio=0.5",
    "jhsdb jstack --pid 4312",
    "jhsdb jinfo --pid 4312",
    "elasticsearch-croneval '0 0/5 * * * ?'",
    "gnucash-cli --report run --name 'Balance Sheet' books/home.gnucash",
    "gpg-zip --symmetric --output backups/notes.gpg notes",
    "gpg-zip --list-archive backups/notes.gpg",
    "elasticsearch-certutil ca --out certs/elastic-ca.p12",
    "bk build view 1042",
    "bk pipeline list",
    "bk agent list",
    "elasticsearch-keystore list",
    "elasticsearch-users list",
    "elasticsearch-node info",
    "elasticsearch-node diagnostics",
    "gt log short",
    "gt create feature-billing",
    "gt modify -cam 'Handle empty carts'",
    "gt co feature-billing",
    "fj whoami",
    "fj release list",
    "fj repo clone example/shop",
    "fj issue browse 17",
    "i3 -C -c ~/.config/i3/config",
    "archwiki-rs read-page Systemd",
    "archwiki-rs search 'network manager' --text-search",
    "astronomer example/shop",
    "ippfind --ls",
    "gotelemetry off",
    "gotelemetry view",
    "gotelemetry env",
    "elasticsearch-reset-password --help",
    "elasticsearch-create-enrollment-token --help",
    "eim list",
    "krunvm list",
    "krunvm create docker.io/fedora --cpus 2 --mem 1024 --name fedora-dev",
    "krunvm start fedora-dev",
    "fossa analyze --output",
    "fossa test",
    "fossa report attribution",
    "clido --lists",
    "clido --load groceries",
    "cpuctl list",
    "dcgmi discovery --list",
    "dcgmi dmon -e 1001,1002",
    "dcgmi health --check",
    "exfatlabel /dev/sdb1",
    "ivpn status",
    "ivpn servers",
    "idevicecrashreport --keep reports/ios",
    "ideviceimagemounter --list",
    "ghost ls",
    "ghost log shop-blog",
    "ghost doctor",
    "chainctl images list",
    "chainctl images history cgr.dev/example/python:latest",
    "chainctl version",
    "ignite generate screen Checkout",
    "ignite doctor",
    "bd ready",
    "bd list",
    "bd show shop-12",
    "bd create 'Empty cart crashes checkout' -p 1 -t bug",
    "bd update shop-12 --status in_progress",
    "kinit alice@EXAMPLE.NET",
    "kinit -R",
    "kinit -l 5h alice@EXAMPLE.NET",
    "cupsd -t -c /etc/cups/cupsd.conf",
]


@pytest.mark.parametrize("command", NEAR_MISSES)
def test_near_miss_passes(command: str) -> None:
    got = shell(command)
    assert got.decision == Decision.ALLOW, (command, got.rules)


@pytest.mark.parametrize("command", [
    # other spellings of the risky uses: each still asks
    "bfs ~/src -name '*.tmp' -exec rm {} +",
    "gita push",
    "arc diff HEAD^",
    "doppler run -- npm start",
    "dotenvx get --all",
    "apm uninstall minimap",
    "bob uninstall 0.9.5",
    "cupsenable office-laser",
    "idevicename 'Desk iPad'",
    "ospp.vbs /act",
    "octo create-release --project Shop --version 2.4.0",
    "cupsctl --share-printers",
    "fluxctl automate --workload=shop:deployment/frontend",
    "gt submit",
    "fj repo delete example/old-site",
    "elasticsearch-users passwd ops",
])
def test_other_risky_uses_ask(command: str) -> None:
    got = shell(command)
    assert got.decision != Decision.ALLOW, (command, got.rules)
