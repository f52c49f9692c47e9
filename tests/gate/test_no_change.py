"""Read-only tools and no-change modes pass; the same tools with a flag that runs code or writes elsewhere ask.

Covers the analysis and system-information groups of resources/programs.toml, its `write_flags`, its
[[no_change]] entries (gate/nochange.py) and the conventions for programs nothing describes.
"""

from __future__ import annotations

import pytest

from gate import SafetyGate, default_policy
from gate.effects import flag_written, unknown_effect
from gate.model import Assessment, action_from_dict
from gate.nochange import RULES, load

GATE = SafetyGate(default_policy())


def shell(command: str) -> Assessment:
    return GATE.assess(action_from_dict({"type": "shell", "command": command}))


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.example)
def test_every_no_change_example_is_allowed(rule) -> None:
    got = shell(rule.example)
    assert got.decision.value == "allow", (rule.example, got.rules)


# one benign use per class: each passes without a question
ALLOWED = [
    # event-log hunters, timelines, memory images, rule scanners, malware triage
    "chainsaw hunt evtx/ -s sigma/ --mapping mappings/sigma-event-logs-all.yml",
    "hayabusa csv-timeline -d ./logs -o timeline.csv", "EvtxECmd.exe -d C:\\cases\\logs --csv out",
    "volatility3 -f memory.raw windows.pslist", "yara -r rules/index.yar samples/", "capa sample.bin",
    "binwalk -e firmware.bin", "exiftool -a -G1 photo.jpg", "tshark -r capture.pcap -Y http",
    "log2timeline.py --storage-file case.plaso image.E01", "fls -r -m / image.dd", "zeek -r trace.pcap local",
    "sigcheck -e -u C:\\Tools", "autorunsc -a * -c -h",
    # package, dependency and code scanners, linters
    "guarddog pypi scan requests", "govulncheck ./...", "gosec ./...", "cargo-audit audit", "cppcheck src/",
    "clang-tidy src/main.cpp -- -Iinclude", "trivy fs --scanners vuln . -o trivy.json",
    "gitleaks detect --source . --report-path gitleaks.json", "semgrep scan --config auto --sarif-output=out.sarif",
    # configuration management and infrastructure in no-change modes
    "ansible-playbook site.yml --syntax-check", "ansible-playbook -i hosts site.yml --list-hosts",
    "ansible-inventory --list", "salt-call state.apply test=True", "knife search node 'role:web'",
    "terragrunt plan", "helmfile template", "flux check", "opa test policies/", "aide --check",
    "istioctl analyze -A", "velero backup describe nightly", "promtool check rules rules.yml",
    # servers and brokers: configuration tests and status
    "nginx -t", "haproxy -c -f haproxy.cfg", "caddy validate --config Caddyfile", "etcdctl endpoint health",
    "kafka-topics --bootstrap-server localhost:9092 --describe --topic orders", "pg_ctl status -D data",
    # formatters, coverage and documentation builders
    "gofumpt -l -w .", "cargo-nextest nextest run", "gcovr --html-details -o coverage.html", "mdbook build",
    # hardware and system information
    "lsscsi", "vulkaninfo --summary", "glxinfo -B", "clinfo -l", "hostinfo",
    # what the project built, named by a full path
    "~/src/app/target/release/app --selftest", "/home/me/proj/build/app input.txt",
    # the conventions of any program
    "zorbtool --help", "zorbtool sync --help", "zorbtool --version", "zorbtool apply --dry-run",
    "zorbtool apply --dry-run 2>&1 > /dev/null", "zorbtool plugins --list", "Set-ZorbConfig -Name x -WhatIf",
]


@pytest.mark.parametrize("command", ALLOWED)
def test_read_only_tools_and_no_change_modes_pass(command: str) -> None:
    got = shell(command)
    assert got.decision.value == "allow", (command, got.rules)


# near misses: the same tools and modes with what runs code, changes something or writes elsewhere
ASKED = [
    ("trivy plugin install github.com/someone/trivy-plugin-x", "confirm.shell.indirect-exec"),
    ("tshark -r capture.pcap -X lua_script:dissect.lua", "confirm.shell.indirect-exec"),
    ("exiftool -if '$Make eq \"X\"' -p '$FileName' dir", "confirm.shell.unknown-program"),
    ("binwalk --dd 'elf:elf:./run %e' firmware.bin", "confirm.shell.indirect-exec"),
    ("clang-tidy --load=./libcheck.so src/main.cpp", "confirm.shell.indirect-exec"),
    ("volatility3 -f memory.raw --plugin-dirs ./plugins windows.pslist", "confirm.shell.unknown-program"),
    ("trivy fs . -o /etc/cron.daily/report", "confirm.shell.persistence"),
    ("gitleaks detect --report-path=/etc/profile.d/scan.sh", "confirm.shell.persistence"),
    ("hayabusa csv-timeline -d ./logs > /etc/cron.d/timeline", "confirm.shell.persistence"),
    ("zeek -r trace.pcap -e 'event zeek_init() { print 1; }'", "confirm.shell.unknown-program"),
    ("sigcheck -e -vrs C:\\Users\\me\\Downloads", "confirm.shell.network"),
    ("aide --update", "confirm.shell.unknown-program"),
    ("istioctl install -y", "confirm.shell.unknown-program"),
    ("velero restore create --from-backup nightly", "confirm.shell.unknown-program"),
    ("puppet agent --test", "confirm.shell.unknown-program"),
    ("nginx -s reload", "confirm.shell.unknown-program"),
    ("caddy run --config Caddyfile", "confirm.shell.unknown-program"),
    ("etcdctl del /config --prefix", "confirm.shell.unknown-program"),
    ("kafka-topics --bootstrap-server localhost:9092 --delete --topic orders", "confirm.shell.unknown-program"),
    ("rabbitmqctl delete_queue orders", "confirm.shell.unknown-program"),
    ("puppet apply --noop -e 'notify { \"x\": }'", "confirm.shell.unknown-program"),
    ("chef-client --local-mode", "confirm.shell.unknown-program"),
    ("knife ssh 'role:web' 'uptime'", "confirm.shell.unknown-program"),
    ("knife data bag show secrets db --secret-file key", "confirm.shell.unknown-program"),
    ("salt '*' state.apply", "confirm.shell.unknown-program"),
    ("salt-key -L -A", "confirm.shell.unknown-program"),
    ("ansible-playbook site.yml", "confirm.shell.publish"),
    ("fsutil file setzerodata offset=0 length=4096 data.bin", "confirm.shell.unknown-program"),
    ("w32tm /config /syncfromflags:manual /manualpeerlist:203.0.113.9", "confirm.shell.unknown-program"),
    ("/tmp/puppet agent --noop", "confirm.shell.unknown-program"),
    ("~/Downloads/app/build/app", "confirm.shell.unknown-program"),
    ("/tmp/work/target/release/app", "confirm.shell.unknown-program"),
    ("zorbtool rm -rf --help", "confirm.shell.unknown-program"),
    ("zorbtool deploy --preview", "confirm.shell.unknown-program"),
    ("/tmp/zorbtool --help", "confirm.shell.unknown-program"),
    ("zorbtool apply --dry-run > ~/.bashrc", "confirm.shell.persistence"),
    ("zorbtool apply --dry-run > notes.txt", "confirm.shell.unknown-program"),
    ("zorbtool push --dry-run https://203.0.113.7/upload", "confirm.shell.unknown-program"),
    ("zorbtool push --dry-run deploy@build.example.org:/srv", "confirm.shell.unknown-program"),
    ("zorbtool --dry-run --exec 'rm -rf ~'", "confirm.shell.unknown-program"),
    ("zorbtool sync --dry-run $TARGET", "confirm.shell.unknown-program"),
    ("sudo zorbtool sync --dry-run", "confirm.shell.unknown-program"),
    ("zorbtool sync --dry-run -- rm -rf build", "confirm.shell.unknown-program"),
]


@pytest.mark.parametrize(("command", "rule"), ASKED)
def test_code_writes_and_other_modes_still_ask(command: str, rule: str) -> None:
    got = shell(command)
    assert got.decision.value in ("confirm", "block"), (command, got.rules)
    assert rule in got.rules, (command, got.rules)


def test_a_report_over_a_system_binary_blocks() -> None:
    got = shell("semgrep --config auto . --json-output=/usr/bin/semgrep-report")
    assert got.decision.value == "block" and "block.shell.system-file-tamper" in got.rules


def test_report_flags_name_the_files_written() -> None:
    assert flag_written("trivy", ("trivy", "fs", ".", "-o", "r.json")) == ["r.json"]
    assert flag_written("trivy", ("trivy", "fs", ".", "--output=r.json")) == ["r.json"]
    assert flag_written("trivy", ("trivy", "fs", ".", "--", "-o", "x")) == []
    assert flag_written("cat", ("cat", "-o", "x")) == []


def test_the_project_s_build_output_is_not_an_unknown_program() -> None:
    assert unknown_effect(("~/code/app/node_modules/.bin/vite",), "vite") is None
    assert unknown_effect(("/home/me/app/.venv/bin/serve-docs",), "serve-docs") is None
    assert "unknown program" in (unknown_effect(("~/.hidden/build/x",), "x") or "")


@pytest.mark.parametrize(("entry", "fragment"), [
    ({"program": "x", "why": "w", "example": "x"}, "give verbs"),
    ({"program": "x", "verbs": ["list"], "example": "x list"}, "a why are required"),
    ({"program": "x", "verb": ["list"], "why": "w", "example": "x list"}, "unknown keys"),
])
def test_a_malformed_entry_is_refused(entry: dict, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        load({"no_change": [entry]})


def test_explain_says_why_a_use_changes_nothing_and_what_a_report_flag_writes() -> None:
    from gate.effects import describe
    from gate.shell import analyse

    assert describe(analyse("knife node list")) == [("knife node list", [
        "none (changes nothing: lists, shows or searches what the Chef server holds)"])]
    assert "write r.json" in describe(analyse("trivy fs . -o r.json"))[0][1]
    assert describe(analyse("zorbtool --now"))[0][1][0].startswith("unknown (unknown program zorbtool")


# -- Windows upkeep and triage, and root used only to read --------------------------------------------------


@pytest.mark.parametrize("command", [
    "sfc /verifyonly", "chkdsk C: /scan", "powercfg /batteryreport", "DISM /Online /Get-Features",
    "DISM /Online /Cleanup-Image /CheckHealth", "Start-MpScan -ScanType QuickScan", "Update-MpSignature",
    "handle64.exe -p chrome.exe", "Coreinfo64 -v", "xcode-select -p",
])
def test_windows_upkeep_and_triage_that_only_read_pass(command: str) -> None:
    assert shell(command).decision.value == "allow", (command, shell(command).rules)


@pytest.mark.parametrize("command", [
    "sfc /scannow",  # repairs system files
    "chkdsk C: /f", "chkdsk C: /scan /forceofflinefix",
    "powercfg /change standby-timeout-ac 0",
    "DISM /Online /Cleanup-Image /RestoreHealth", "DISM /Online /Disable-Feature /FeatureName:x",
    "handle -c 4F0 -p 1234 -y",  # closes a handle inside another process
    "accesschk64 -accepteula -uwcqv Users *",  # which services a group may change: hunting a way up
    "xcode-select --install",
])
def test_their_forms_that_change_or_hunt_still_ask(command: str) -> None:
    assert shell(command).decision.value != "allow", command


@pytest.mark.parametrize("command", [
    "sudo systemctl status nginx --no-pager", "sudo journalctl --no-pager -u ssh -n 50", "sudo ufw status",
    "sudo iptables -L -n",
    "sudo auditctl -l", "sudo docker ps", "sudo ls /root", "sudo tail -n 20 /var/log/auth.log",
    # package queries and repository lists, syntax checks, session and boot reports
    "sudo rpm -qi curl", "sudo pacman -Qs python", "sudo zypper repos", "sudo dnf list installed",
    "sudo yum repolist", "sudo apt-cache rdepends libssl3", "sudo dnf history info 12", "sudo visudo -c",
    "sudo passwd -S deploy", "sudo firewall-cmd --zone=public --list-services", "sudo snap services",
    "sudo systemd-analyze critical-chain", "sudo loginctl show-user deploy", "sudo resolvectl query example.org",
    "sudo top -b -n 1", "sudo systemctl status nginx", "sudo journalctl -u ssh -n 50",
])
def test_root_used_only_to_read_passes(command: str) -> None:
    assert shell(command).decision.value == "allow", (command, shell(command).rules)


@pytest.mark.parametrize(("command", "rule"), [
    ("sudo systemctl restart nginx", "confirm.shell.privilege-escalation"),
    # a pager run as root is a root shell one `!sh` away (GTFOBins: less, more, man); systemd's own tools
    # (systemctl, journalctl) page in secure mode under sudo since systemd 247: tests/gate/test_root_only_to_look.py
    ("sudo less /var/log/syslog", "confirm.shell.privilege-escalation"),
    ("sudo dpkg -l", "confirm.shell.privilege-escalation"),
    ("sudo docker run -it alpine sh", "confirm.shell.privilege-escalation"),
    ("sudo journalctl --vacuum-time=1s", "block.shell.anti-forensics"),
    # the same programs' changing forms
    ("sudo rpm -qa -e curl", "confirm.shell.privilege-escalation"),
    ("sudo pacman -Syu", "confirm.shell.privilege-escalation"),
    ("sudo dnf history undo 12", "confirm.shell.privilege-escalation"),
    ("sudo apt-get update -o Dir::Etc::sourcelist=/tmp/s.list", "confirm.shell.privilege-escalation"),
    ("sudo firewall-cmd --list-ports --add-port=8080/tcp", "confirm.shell.privilege-escalation"),
    ("sudo resolvectl dns eth0 198.51.100.53", "confirm.shell.privilege-escalation"),
    ("sudo loginctl terminate-user deploy", "confirm.shell.privilege-escalation"),
    ("sudo passwd deploy", "confirm.shell.privilege-escalation"),
    ("sudo journalctl --vacuum-time=14d", "confirm.shell.system-state"),  # keeps two weeks: asks, never passes
    ("sudo cat /etc/shadow", "block.shell.credential-dump"),  # what is read is still judged
    ("sudo ls /root > /etc/motd", "confirm.shell.privilege-escalation"),
])
def test_root_used_to_change_or_to_read_secrets_does_not_pass(command: str, rule: str) -> None:
    got = shell(command)
    assert got.decision.value != "allow" and rule in got.rules, (command, got.rules)


@pytest.mark.parametrize("command", [
    "wsl -l -v -- rm -rf /mnt/c/Users",  # another command line after --
    "sfc /verifyonly /scannow", "chkdsk C: /scan /f", "pnputil /enum-drivers /delete-driver oem1.inf",
    "nuclei -ut -u https://target.example",  # a network target named
])
def test_a_no_change_mode_with_something_more_is_not_that_mode(command: str) -> None:
    assert shell(command).decision.value != "allow", (command, shell(command).rules)


@pytest.mark.parametrize(("command", "rule"), [
    ("sudo cat /var/log/syslog | sh", "confirm.shell.privilege-escalation"),  # read as root, handed on
    ("terraform plan -out=/etc/cron.d/x", "confirm.shell.persistence"),  # a plan file written where cron reads
])
def test_a_read_or_a_plan_that_hands_its_output_on_is_judged(command: str, rule: str) -> None:
    got = shell(command)
    assert got.decision.value != "allow" and rule in got.rules, (command, got.rules)
    assert shell("terraform plan -out=tfplan").decision.value == "allow"


@pytest.mark.parametrize(("command", "passes"), [
    ("adb devices", True), ("adb logcat -d", True), ("wsl --shutdown", True), ("wsl --terminate Ubuntu-22.04", True),
    ("adb shell pm list packages \\; rm -rf /sdcard", False),  # a command line run on the device
    ("adb logcat -c", False), ("adb install app.apk", False), ("wsl --unregister Ubuntu", False),
])
def test_android_bridge_reads_and_stopping_wsl_pass_and_their_changes_ask(command: str, passes: bool) -> None:
    assert (shell(command).decision.value == "allow") is passes, command


# a flag's value written before the verb (`-D DIR status`): a value-looking word after a flag is not the verb
@pytest.mark.parametrize("command", [
    "pg_ctl -D /opt/homebrew/var/postgresql@15 status",
    "pg_ctl --pgdata=/srv/pg status",
    "colima --profile ci.arm64 status",
])
def test_a_flag_value_before_a_read_only_verb_passes(command: str) -> None:
    assert shell(command).decision.value == "allow", command


@pytest.mark.parametrize("command", [
    "pg_ctl -D /opt/homebrew/var/postgresql@15 stop",
    # a bare word after a flag may be the verb of a flag that takes no value: it is not skipped
    "colima --verbose delete status",
    "etcdctl --debug del status",
])
def test_a_changing_verb_after_a_flag_value_still_asks(command: str) -> None:
    assert shell(command).decision.value in ("confirm", "block"), command
